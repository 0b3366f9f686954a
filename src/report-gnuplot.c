/* Finding gnuplot ($GNUPLOT, else PATH) and running it on one script inside the report
 * folder, with its messages kept for ours. */
#include "config.h"

#include "report-int.h"

#include <errno.h>
#include <fcntl.h>
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

/* Appends what fd gives until end of file; keeps the first cap-1 bytes. */
static void slurp(int fd, char *buf, size_t cap)
{
    size_t k = 0;
    char chunk[1024];
    for (;;) {
        ssize_t got = read(fd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        for (ssize_t i = 0; i < got && k + 1 < cap; i++)
            buf[k++] = chunk[i];
    }
    buf[k] = '\0';
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

int cf_gnuplot_run(const char *prog, const char *dir, const char *script,
                   void (*warn)(const char *line), cf_error *e)
{
    int fds[2];
    if (pipe(fds) != 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot run gnuplot: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot run gnuplot: %s", strerror(errno));
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
        execl(prog, prog, script, (char *)NULL);
        _exit(127);
    }
    cf_report_set_child(pid);
    close(fds[1]);
    static char text[16384];
    slurp(fds[0], text, sizeof text);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    cf_report_set_child(0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char line[512];
        last_words(text, line, sizeof line);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && line[0] == '\0')
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot run '%s'", prog);
        if (line[0] == '\0')
            snprintf(line, sizeof line, "%s %d",
                     WIFEXITED(status) ? "exit status" : "killed by signal",
                     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        return cf_error_set(e, CF_EXIT_DATA, script, 0, "gnuplot failed: %s", line);
    }
    if (warn != NULL && text[0] != '\0') {
        char *p = text;
        while (*p) {
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
    return 0;
}
