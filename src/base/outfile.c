/* Atomic output files, folder creation and "the newest file in data/". */
#include "config.h"

#include "base/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary files still open, so a signal can remove them. Small: a subcommand writes
 * a handful of files at a time. */
#define MAX_OPEN 64
static char *open_tmps[MAX_OPEN];
static int handlers_installed;

static void forget(const char *tmp)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_tmps[i] == tmp)
            open_tmps[i] = NULL;
}

void cf_outfile_abort_all(void)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_tmps[i] != NULL)
            unlink(open_tmps[i]);
}

static void on_signal(int sig)
{
    cf_outfile_abort_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    if (handlers_installed)
        return;
    handlers_installed = 1;
    atexit(cf_outfile_abort_all);
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        /* Leave alone a handler somebody else (measure) installed. */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(sigs[i], &sa, NULL);
    }
}

/* mkdir that accepts an existing folder, and only a folder. */
static int make_one(const char *p, cf_error *e)
{
    struct stat st;
    if (mkdir(p, 0777) == 0)
        return 0;
    if (errno == EEXIST && stat(p, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    if (errno == EEXIST)
        return cf_error_set(e, CF_EXIT_DATA, p, 0, "cannot create folder: a file of that name exists");
    return cf_error_set(e, CF_EXIT_DATA, p, 0, "cannot create folder: %s", strerror(errno));
}

int cf_mkdir_p(const char *dir, cf_error *e)
{
    char *p = strdup(dir);
    if (p == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        int rc = make_one(p, e);
        if (rc != 0) {
            free(p);
            return rc;
        }
        *s = '/';
    }
    int rc = make_one(p, e);
    free(p);
    return rc;
}

int cf_mkdir_parent(const char *path, cf_error *e)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL || slash == path)
        return 0;
    char *dir = strndup(path, (size_t)(slash - path));
    if (dir == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    int rc = cf_mkdir_p(dir, e);
    free(dir);
    return rc;
}

int cf_outfile_open(cf_outfile *o, const char *path, cf_error *e)
{
    memset(o, 0, sizeof *o);
    install_handlers();
    if (cf_mkdir_parent(path, e) != 0)
        return e ? e->code : CF_EXIT_DATA;
    size_t n = strlen(path);
    o->path = strdup(path);
    o->tmp = malloc(n + 16);
    if (o->path == NULL || o->tmp == NULL) {
        free(o->path);
        free(o->tmp);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    snprintf(o->tmp, n + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int rc = cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot write: %s", strerror(errno));
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return rc;
    }
    /* mkstemp makes 0600; output files are ordinary files. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->fp = fdopen(fd, "w");
    if (o->fp == NULL) {
        int rc = cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot write: %s", strerror(errno));
        close(fd);
        unlink(o->tmp);
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return rc;
    }
    for (int i = 0; i < MAX_OPEN; i++) {
        if (open_tmps[i] == NULL) {
            open_tmps[i] = o->tmp;
            break;
        }
    }
    return 0;
}

static void release(cf_outfile *o)
{
    forget(o->tmp);
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

int cf_outfile_commit(cf_outfile *o, cf_error *e)
{
    if (o->fp == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "internal error: output file not open");
    int failed = ferror(o->fp) || fflush(o->fp) != 0 || fsync(fileno(o->fp)) != 0;
    int err = errno;
    if (fclose(o->fp) != 0 && !failed) {
        failed = 1;
        err = errno;
    }
    o->fp = NULL;
    if (!failed && rename(o->tmp, o->path) != 0) {
        failed = 1;
        err = errno;
    }
    if (failed) {
        int rc = cf_error_set(e, CF_EXIT_DATA, o->path, 0, "cannot write: %s",
                              strerror(err ? err : EIO));
        unlink(o->tmp);
        release(o);
        return rc;
    }
    release(o);
    return 0;
}

void cf_outfile_abort(cf_outfile *o)
{
    if (o->tmp == NULL)
        return;
    if (o->fp != NULL)
        fclose(o->fp);
    unlink(o->tmp);
    release(o);
}

int cf_newest_file(const char *dir, const char *suffix, char **out, cf_error *e)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return cf_error_set(e, CF_EXIT_DATA, dir, 0, "cannot open folder: %s", strerror(errno));
    size_t ls = strlen(suffix);
    char *best = NULL;
    struct timespec best_t = {0, 0};
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t ln = strlen(de->d_name);
        if (de->d_name[0] == '.' || ln <= ls || strcmp(de->d_name + ln - ls, suffix) != 0)
            continue;
        size_t n = strlen(dir) + ln + 2;
        char *p = malloc(n);
        if (p == NULL) {
            closedir(d);
            free(best);
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        }
        snprintf(p, n, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
            free(p);
            continue;
        }
        int newer = best == NULL || st.st_mtim.tv_sec > best_t.tv_sec ||
                    (st.st_mtim.tv_sec == best_t.tv_sec &&
                     (st.st_mtim.tv_nsec > best_t.tv_nsec ||
                      (st.st_mtim.tv_nsec == best_t.tv_nsec && strcmp(p, best) > 0)));
        if (newer) {
            free(best);
            best = p;
            best_t = st.st_mtim;
        } else {
            free(p);
        }
    }
    closedir(d);
    if (best == NULL)
        return cf_error_set(e, CF_EXIT_DATA, dir, 0, "no *%s file in this folder", suffix);
    *out = best;
    return 0;
}
