/* Finding gnuplot ($GNUPLOT, else PATH) and running it on one script inside the report
 * folder, with its messages kept for ours. */
#include "config.h"

#include "report/report-int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* name looked up in the folders of PATH, as a shell would; malloc'd, or NULL. */
static char *on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (path == NULL || *path == '\0')
        return NULL;
    size_t ln = strlen(name);
    while (1) {
        const char *colon = strchr(path, ':');
        size_t ld = colon ? (size_t)(colon - path) : strlen(path);
        char *p = malloc(ld + ln + 3);
        if (p == NULL)
            return NULL;
        /* An empty entry means the current folder. */
        if (ld == 0)
            snprintf(p, ln + 3, "./%s", name);
        else
            snprintf(p, ld + ln + 2, "%.*s/%s", (int)ld, path, name);
        if (executable(p))
            return p;
        free(p);
        if (colon == NULL)
            return NULL;
        path = colon + 1;
    }
}

char *cf_gnuplot_find(char *why, size_t n)
{
    const char *env = getenv("GNUPLOT");
    if (env != NULL && *env != '\0') {
        char *p = strchr(env, '/') ? (executable(env) ? strdup(env) : NULL) : on_path(env);
        if (p == NULL)
            snprintf(why, n, "GNUPLOT='%s' is not a program that can be run", env);
        return p;
    }
    char *p = on_path("gnuplot");
    if (p == NULL)
        snprintf(why, n, "gnuplot is not on PATH (install gnuplot-nox, or set GNUPLOT)");
    return p;
}

/* gnuplot's messages quote the failing line and point at it with '^' on lines of their
 * own; the line worth showing is the last one with words in it. */
static void last_words(const char *text, char *out, size_t n)
{
    out[0] = '\0';
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int words = 0;
        for (size_t i = 0; i < len; i++)
            words |= (p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z');
        if (words && !(len > 0 && p[0] == ' ' && memchr(p, '^', len) != NULL)) {
            size_t skip = 0;
            while (skip < len && (p[skip] == ' ' || p[skip] == '\t'))
                skip++;
            size_t k = len - skip < n - 1 ? len - skip : n - 1;
            memcpy(out, p + skip, k);
            out[k] = '\0';
        }
        if (end == NULL)
            break;
        p = end + 1;
    }
}

/* The script a failure belongs to: the one gnuplot's message names ("NAME.gp" line N),
 * else the first of the batch. */
static void failed_script(const char *line, const char *const *scripts, size_t n, char *out,
                          size_t cap)
{
    for (size_t i = 0; i < n; i++) {
        char quoted[CF_PLOT_NAME_MAX + 16];
        snprintf(quoted, sizeof quoted, "\"%s\"", scripts[i]);
        if (strstr(line, quoted) != NULL) {
            snprintf(out, cap, "%s", scripts[i]);
            return;
        }
    }
    snprintf(out, cap, "%s", n ? scripts[0] : "gnuplot");
}

typedef struct job {
    pid_t pid;
    int fd; /* its stderr, or -1 once closed */
    char text[16384];
    size_t len;
    const char *const *scripts;
    size_t n;
} job;

static int start(job *j, const char *prog, const char *dir)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    char **argv = malloc((j->n + 2) * sizeof *argv);
    if (argv == NULL) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    argv[0] = (char *)prog;
    for (size_t i = 0; i < j->n; i++)
        argv[i + 1] = (char *)j->scripts[i];
    argv[j->n + 1] = NULL;
    pid_t pid = fork();
    if (pid < 0) {
        free(argv);
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
        }
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        if (chdir(dir) != 0)
            _exit(126);
        execv(prog, argv);
        _exit(127);
    }
    free(argv);
    close(fds[1]);
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    j->pid = pid;
    j->fd = fds[0];
    j->len = 0;
    j->text[0] = '\0';
    return 0;
}

/* Reads what the jobs write until each has closed its end; keeps the first bytes. */
static void collect(job *jobs, size_t n)
{
    struct pollfd pfd[CF_GNUPLOT_JOBS];
    for (;;) {
        nfds_t k = 0;
        size_t which[CF_GNUPLOT_JOBS];
        for (size_t i = 0; i < n; i++)
            if (jobs[i].fd >= 0) {
                pfd[k].fd = jobs[i].fd;
                pfd[k].events = POLLIN;
                which[k++] = i;
            }
        if (k == 0)
            return;
        if (poll(pfd, k, -1) < 0) {
            if (errno == EINTR)
                continue;
            for (nfds_t i = 0; i < k; i++) {
                close(jobs[which[i]].fd);
                jobs[which[i]].fd = -1;
            }
            return;
        }
        for (nfds_t i = 0; i < k; i++) {
            if (pfd[i].revents == 0)
                continue;
            job *j = &jobs[which[i]];
            char chunk[1024];
            ssize_t got = read(j->fd, chunk, sizeof chunk);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                close(j->fd);
                j->fd = -1;
                continue;
            }
            for (ssize_t c = 0; c < got && j->len + 1 < sizeof j->text; c++)
                j->text[j->len++] = chunk[c];
            j->text[j->len] = '\0';
        }
    }
}

static void pass_warnings(char *text, void (*warn)(const char *line))
{
    char *p = text;
    while (warn != NULL && *p) {
        char *end = strchr(p, '\n');
        if (end)
            *end = '\0';
        if (*p)
            warn(p);
        if (end == NULL)
            break;
        p = end + 1;
    }
}

int cf_gnuplot_run(const char *prog, const char *dir, const char *const *scripts, size_t n,
                   size_t jobs, void (*warn)(const char *line), cf_error *e)
{
    if (n == 0)
        return 0;
    if (jobs < 1)
        jobs = 1;
    if (jobs > CF_GNUPLOT_JOBS)
        jobs = CF_GNUPLOT_JOBS;
    if (jobs > n)
        jobs = n;
    /* Each gnuplot draws a run of scripts: its start-up (fonts, cairo) is paid once a
     * batch, not once a plot. */
    job *j = calloc(jobs, sizeof *j);
    if (j == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    size_t started = 0, at = 0;
    int rc = 0;
    for (size_t i = 0; i < jobs; i++) {
        j[i].scripts = scripts + at;
        j[i].n = n / jobs + (i < n % jobs);
        at += j[i].n;
        if (start(&j[i], prog, dir) != 0) {
            rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot run gnuplot: %s", strerror(errno));
            break;
        }
        cf_report_set_child(i, j[i].pid);
        started++;
    }
    collect(j, started);
    for (size_t i = 0; i < started; i++) {
        int status = 0;
        while (waitpid(j[i].pid, &status, 0) < 0 && errno == EINTR)
            ;
        cf_report_set_child(i, 0);
        if (rc != 0)
            continue;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            pass_warnings(j[i].text, warn);
            continue;
        }
        char line[512], script[CF_PLOT_NAME_MAX + 8];
        last_words(j[i].text, line, sizeof line);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && line[0] == '\0') {
            rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot run '%s'", prog);
            continue;
        }
        if (line[0] == '\0')
            snprintf(line, sizeof line, "%s %d",
                     WIFEXITED(status) ? "exit status" : "killed by signal",
                     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        failed_script(line, j[i].scripts, j[i].n, script, sizeof script);
        rc = cf_error_set(e, CF_EXIT_DATA, script, 0, "gnuplot failed: %s", line);
    }
    free(j);
    return rc;
}
