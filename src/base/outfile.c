/* Atomic output files, folder creation and "the newest file in data/". */
#include "config.h"

#include "base/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
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

/* An existing path that is not a regular file or a folder: a device, a FIFO or a socket,
 * directly or through symbolic links. Opened for writing where it is. */
/* o writes in place to fd (taken over, closed on failure), named path in messages. */
static int adopt_fd(cf_outfile *o, int fd, const char *path, cf_error *e)
{
    if (fd < 0)
        return cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot write: %s", strerror(errno));
    o->path = strdup(path);
    o->fp = o->path ? fdopen(fd, "w") : NULL;
    if (o->fp == NULL) {
        close(fd);
        free(o->path);
        memset(o, 0, sizeof *o);
        return cf_error_set(e, CF_EXIT_DATA, path, 0, "out of memory");
    }
    o->in_place = 1;
    return 0;
}

static int open_in_place(cf_outfile *o, const char *path, cf_error *e)
{
    return adopt_fd(o, open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC), path, e);
}

/* The descriptor a path names by itself: /dev/stdout, /dev/stderr, /dev/fd/N or
 * /proc/self/fd/N, directly or through links. Opening one of these would open the file
 * behind the descriptor anew (at its start, without O_APPEND, or replace it through the
 * link), not write where the descriptor writes; -1 for any other path. */
int cf_named_fd(const char *path)
{
    char cur[PATH_MAX], next[PATH_MAX];
    snprintf(cur, sizeof cur, "%s", path);
    for (int hop = 0; hop < 16; hop++) {
        const char *num = NULL;
        if (strcmp(cur, "/dev/stdout") == 0)
            return 1;
        if (strcmp(cur, "/dev/stderr") == 0)
            return 2;
        if (strncmp(cur, "/dev/fd/", 8) == 0)
            num = cur + 8;
        else if (strncmp(cur, "/proc/self/fd/", 14) == 0)
            num = cur + 14;
        if (num != NULL) {
            char *end;
            long fd = strtol(num, &end, 10);
            return *num != '\0' && *end == '\0' && fd >= 0 && fd < INT_MAX ? (int)fd : -1;
        }
        ssize_t n = readlink(cur, next, sizeof next - 1);
        if (n <= 0)
            return -1;
        next[n] = '\0';
        if (next[0] == '/') {
            snprintf(cur, sizeof cur, "%s", next);
        } else {
            /* Relative to the link's folder. */
            char *slash = strrchr(cur, '/');
            if (slash == NULL) {
                snprintf(cur, sizeof cur, "%s", next);
            } else {
                slash[1] = '\0';
                if (strlen(cur) + strlen(next) >= sizeof cur)
                    return -1;
                strcat(cur, next);
            }
        }
    }
    return -1;
}

int cf_outfile_open(cf_outfile *o, const char *path, cf_error *e)
{
    memset(o, 0, sizeof *o);
    int nfd = cf_named_fd(path);
    if (nfd >= 0)
        return adopt_fd(o, fcntl(nfd, F_DUPFD_CLOEXEC, 3), path, e);
    if (strcmp(path, "-") == 0) {
        if ((o->path = strdup(path)) == NULL)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        o->fp = stdout;
        o->in_place = 2;
        return 0;
    }
    struct stat st, lst;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return open_in_place(o, path, e);
    install_handlers();
    if (cf_mkdir_parent(path, e) != 0)
        return e ? e->code : CF_EXIT_DATA;
    o->path = strdup(path);
    /* A link to a regular file: written through, as sort -o does; the link stays. */
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && S_ISREG(st.st_mode))
        o->target = realpath(path, NULL);
    else
        o->target = strdup(path);
    size_t n = o->target ? strlen(o->target) : 0;
    o->tmp = malloc(n + 16);
    if (o->path == NULL || o->tmp == NULL || o->target == NULL) {
        free(o->path);
        free(o->tmp);
        free(o->target);
        memset(o, 0, sizeof *o);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    snprintf(o->tmp, n + 16, "%s.tmp.XXXXXX", o->target);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int rc = cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot write: %s", strerror(errno));
        free(o->path);
        free(o->tmp);
        free(o->target);
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
        free(o->target);
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
    if (o->tmp != NULL)
        forget(o->tmp);
    free(o->path);
    free(o->tmp);
    free(o->target);
    memset(o, 0, sizeof *o);
}

/* A device, FIFO, socket or the standard output: nothing to rename, and fsync means
 * nothing there; only the flush and the close can fail (ENOSPC from /dev/full). */
static int commit_in_place(cf_outfile *o, cf_error *e)
{
    errno = 0;
    int failed = fflush(o->fp) != 0;
    int err = errno;
    failed |= ferror(o->fp) != 0;
    if (o->in_place == 1 && fclose(o->fp) != 0 && !failed) {
        failed = 1;
        err = errno;
    }
    o->fp = NULL;
    int rc = 0;
    if (failed)
        rc = cf_error_set(e, CF_EXIT_DATA, o->in_place == 2 ? "<stdout>" : o->path, 0,
                          "cannot write: %s", strerror(err ? err : EIO));
    release(o);
    return rc;
}

int cf_outfile_commit(cf_outfile *o, cf_error *e)
{
    if (o->fp == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "internal error: output file not open");
    if (o->in_place)
        return commit_in_place(o, e);
    int failed = ferror(o->fp) || fflush(o->fp) != 0 || fsync(fileno(o->fp)) != 0;
    int err = errno;
    if (fclose(o->fp) != 0 && !failed) {
        failed = 1;
        err = errno;
    }
    o->fp = NULL;
    if (!failed && rename(o->tmp, o->target) != 0) {
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
    if (o->in_place) {
        /* Written in place: what went out cannot be taken back, and nothing is removed. */
        if (o->in_place == 1 && o->fp != NULL)
            fclose(o->fp);
        else if (o->fp != NULL)
            fflush(o->fp);
        release(o);
        return;
    }
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

int cf_same_file(const char *out, const char *in)
{
    struct stat a, b;
    if (strcmp(out, "-") == 0 || strcmp(in, "-") == 0)
        return 0;
    if (stat(out, &a) != 0 || stat(in, &b) != 0)
        return 0;
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int cf_same_input(const char *a, const char *b)
{
    return (strcmp(a, "-") == 0 && strcmp(b, "-") == 0) || cf_same_file(a, b);
}

int cf_long_line_error(cf_error *e, const char *name, long line)
{
    return cf_error_set(e, CF_EXIT_DATA, name, line,
                        "line longer than %u MiB: expected a text file of short lines",
                        CF_LINE_MAX_BYTES >> 20);
}

long cf_long_line(const char *buf, size_t len)
{
    long line = 1;
    size_t pos = 0;
    while (pos < len) {
        size_t left = len - pos, look = left > CF_LINE_MAX_BYTES ? CF_LINE_MAX_BYTES + 1 : left;
        const char *nl = memchr(buf + pos, '\n', look);
        if (nl == NULL)
            return look > CF_LINE_MAX_BYTES ? line : 0;
        pos = (size_t)(nl - buf) + 1;
        line++;
    }
    return 0;
}

int cf_read_all(FILE *fp, const char *name, char **out, size_t *out_len, cf_error *e)
{
    struct stat st;
    size_t cap = 1 << 16, len = 0, line_start = 0;
    long line = 1;
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode))
        return cf_error_set(e, CF_EXIT_DATA, name, 0, "is a folder: expected a file");
    if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size < SIZE_MAX / 2)
        cap = (size_t)st.st_size + 1;
    char *buf = malloc(cap + 1);
    if (buf == NULL)
        return cf_error_set(e, CF_EXIT_DATA, name, 0, "out of memory");
    for (;;) {
        if (len == cap) {
            char *nb = cap < SIZE_MAX / 4 ? realloc(buf, cap * 2 + 1) : NULL;
            if (nb == NULL) {
                free(buf);
                return cf_error_set(e, CF_EXIT_DATA, name, 0, "out of memory");
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, fp);
        /* Lines are counted as the bytes come, so that /dev/zero or a file without a
         * newline is refused after a mebibyte, not when memory runs out. */
        for (size_t i = len; i < len + got;) {
            const char *nl = memchr(buf + i, '\n', len + got - i);
            if (nl == NULL)
                break;
            i = (size_t)(nl - buf) + 1;
            line_start = i;
            line++;
        }
        len += got;
        if (len - line_start > CF_LINE_MAX_BYTES) {
            free(buf);
            return cf_long_line_error(e, name, line);
        }
        if (got == 0)
            break;
    }
    if (ferror(fp)) {
        int err = errno;
        free(buf);
        return cf_error_set(e, CF_EXIT_DATA, name, 0, "cannot read: %s", strerror(err ? err : EIO));
    }
    buf[len] = '\0';
    *out = buf;
    *out_len = len;
    return 0;
}

long cf_read_line(FILE *fp, char **buf, size_t *cap)
{
    size_t n = 0;
    for (;;) {
        int c = getc_unlocked(fp);
        if (c == EOF)
            return ferror(fp) ? -1 : (long)n;
        if (n > CF_LINE_MAX_BYTES)
            return -2;
        if (n + 2 > *cap) {
            size_t nc = *cap ? *cap * 2 : 256;
            char *nb = realloc(*buf, nc);
            if (nb == NULL) {
                errno = ENOMEM;
                return -1;
            }
            *buf = nb;
            *cap = nc;
        }
        (*buf)[n++] = (char)c;
        (*buf)[n] = '\0';
        if (c == '\n')
            return (long)n;
    }
}
