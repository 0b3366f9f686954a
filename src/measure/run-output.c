/* The table file that commfit measure writes (rank 0). Rows go out one at a time, each
 * flushed whole, so that an interrupted run keeps every finished row and --resume takes it
 * up from there. A write error cuts the file back to its last complete row: what is on
 * disk stays a valid table. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/outfile.h"
#include "measure/launch.h"
#include "measure/measure-int.h"
#include "measure/run-int.h"

/* After a successful flush: the file up to here is complete. */
static int note_kept(cf_run_state *R)
{
    struct stat st;
    if (fstat(fileno(R->fp), &st) != 0)
        return -1;
    R->kept = st.st_size;
    return 0;
}

/* A row could not be written (err): closes the file and drops whatever part of the row
 * reached it. Returns the status of a failed point (2). */
static int row_write_failed(cf_run_state *R, int err)
{
    /* Closing may write more of the row; the truncation comes after it. */
    fclose(R->fp);
    R->fp = NULL;
    if (!R->to_fd && truncate(R->path, R->kept) != 0 && R->hooks->warn != NULL) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s: cannot cut off a partly written row: %s (--resume drops it)",
                 R->path, strerror(errno));
        R->hooks->warn(msg);
    }
    char args[768];
    cf_measure_resume_args(R->o, R->path, args, sizeof args);
    cf_error_set(R->e, CF_EXIT_DATA, R->path, 0,
                 "cannot write: %s; %zu rows kept, continue with 'commfit measure %s'",
                 strerror(err), R->rows, args);
    return 2;
}

int cf_run_write_row(cf_run_state *R, const cf_row *row)
{
    errno = 0;
    if (cf_table_write_row(R->fp, R->t, row) != 0 || fflush(R->fp) != 0 || note_kept(R) != 0)
        return row_write_failed(R, errno ? errno : EIO);
    R->rows++;
    return 0;
}

/* Flushes, syncs and closes the table; an error here (a full disk, a network file system
 * that reports late) may have lost rows that were flushed, so the message says how to
 * measure them again. Returns 0 or -1 with R->e filled. */
int cf_run_close_output(cf_run_state *R)
{
    int err = 0;
    if (fflush(R->fp) != 0)
        err = errno;
    /* /dev/null and pipes cannot be synced and need not be. */
    if (err == 0 && fsync(fileno(R->fp)) != 0 && errno != EINVAL && errno != ENOTSUP)
        err = errno;
    if (fclose(R->fp) != 0 && err == 0)
        err = errno;
    R->fp = NULL;
    if (err == 0)
        return 0;
    char args[768];
    cf_measure_resume_args(R->o, R->path, args, sizeof args);
    cf_error_set(R->e, CF_EXIT_DATA, R->path, 0,
                 "cannot write: %s; continue with 'commfit measure %s', which measures again "
                 "what is missing",
                 strerror(err), args);
    return -1;
}

/* Opens the table for writing without truncating it, and takes the lock that keeps a
 * second measure off it; *created says the file is new. Returns the descriptor or -1. */
static int open_locked(cf_run_state *R, int *created)
{
    int resume = R->o->resume != NULL;
    int fd = resume ? -1 : open(R->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    *created = fd >= 0;
    if (fd < 0 && (resume || errno == EEXIST))
        fd = open(R->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot %s: %s", resume ? "open" : "create",
                     strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int err = errno;
        close(fd);
        if (err == EWOULDBLOCK)
            cf_error_set(R->e, CF_EXIT_DATA, R->path, 0,
                         "another commfit measure is writing this table: wait for it to end, "
                         "or write elsewhere with -o");
        else
            cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot lock: %s", strerror(err));
        return -1;
    }
    return fd;
}

/* --resume: what the rows it adds were measured with, after the rows kept. A later
 * "oversubscribed: yes" makes the whole table say so. */
static int resume_metadata(cf_run_state *R, int over)
{
    long k = 1;
    const cf_table *done = R->o->done;
    for (size_t i = 0; done != NULL && i < done->n_meta; i++)
        k += strncmp(done->meta[i].key, "resume_", 7) == 0;
    time_t now = time(NULL);
    struct tm tm;
    char date[32];
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fprintf(R->fp, "# resume_%ld: date %s, launch_np %d, oversubscribed %s, after %zu rows\n", k,
            date, R->size, over ? "yes" : "no", R->rows);
    if (over)
        fputs("# oversubscribed: yes\n", R->fp);
    return fflush(R->fp) != 0 || ferror(R->fp) ? -1 : 0;
}

/* The table's name: --resume's or -o's, else data/HOST-STAMP.csv. NULL out of memory. */
static char *output_path(const cf_measure_opts *o, const struct tm *tm)
{
    if (o->resume != NULL)
        return strdup(o->resume);
    if (o->output != NULL)
        return strdup(o->output);
    char stamp[32], host[256] = "localhost";
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", tm);
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = '\0';
    host[strcspn(host, ".")] = '\0';
    size_t n = strlen(host) + strlen(stamp) + 16;
    char *path = malloc(n);
    if (path != NULL)
        snprintf(path, n, "data/%s-%s.csv", host, stamp);
    return path;
}

/* A resumed table opened for appending, locked, a last line an interruption cut short
 * dropped: the descriptor, at the end of the *keep bytes kept; -1 with R->e. */
static int open_trimmed(cf_run_state *R, size_t *keep)
{
    int created, fd = open_locked(R, &created);
    if (fd < 0)
        return -1;
    char *b;
    if (cf_measure_read_complete_lines(R->path, &b, keep, R->e) != 0) {
        close(fd);
        return -1;
    }
    free(b);
    /* The table as the plan read it, before the lock: an earlier launch's ranks that
     * outlived their launcher (Open MPI's, a second or so after a kill -9 of the job) may
     * have added rows since, which this launch would measure again (a new user's table,
     * refused by fit: sizes out of order). */
    if (R->o->done != NULL && *keep != R->o->done_bytes) {
        close(fd);
        cf_error_set(R->e, CF_EXIT_DATA, R->path, 0,
                     "changed while this launch started (%zu bytes of whole lines when read, "
                     "%zu when locked): an earlier launch still writing it? (Open MPI's ranks "
                     "outlive a killed launcher by a second or so) Nothing written; resume "
                     "again once it has stopped",
                     R->o->done_bytes, *keep);
        return -1;
    }
    if (ftruncate(fd, (off_t)*keep) != 0 || lseek(fd, 0, SEEK_END) < 0) {
        close(fd);
        cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot truncate: %s", strerror(errno));
        return -1;
    }
    return fd;
}

/* --resume: locked first; then drops a last line the interruption cut short, and appends. */
static int open_resume(cf_run_state *R, int over)
{
    /* Its rows all of one MPI library: another's (the Open MPI build resuming an MPICH
     * table added 289 rows under the table's 'mpi_library: MPICH ...', exit 0). */
    const char *was = R->o->done ? cf_table_meta_get(R->o->done, "mpi_library") : NULL;
    char now[MPI_MAX_LIBRARY_VERSION_STRING];
    cf_run_library_version(now, sizeof now);
    if (was != NULL && !cf_run_same_library(was, now))
        return cf_error_set(R->e, CF_EXIT_USAGE, R->path, 0,
                            "measured with another MPI library ('%.60s%s') than this run's "
                            "('%.60s%s'): resume it with the commfit built with that one",
                            was, strlen(was) > 60 ? "..." : "", now, strlen(now) > 60 ? "..." : "");
    size_t keep;
    int fd = open_trimmed(R, &keep);
    if (fd < 0)
        return CF_EXIT_DATA;
    /* What a failed write after here is cut back to: the table as it was, never less. */
    R->kept = (off_t)keep;
    R->fp = fdopen(fd, "a");
    if (R->fp == NULL) {
        close(fd);
        return cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot open: %s", strerror(errno));
    }
    R->rows = R->o->done ? R->o->done->n_rows : 0;
    if (resume_metadata(R, over) != 0 || cf_run_provenance_resume(R) != 0 || note_kept(R) != 0)
        return cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot write: %s",
                            strerror(errno ? errno : EIO));
    return 0;
}

int cf_run_mark_complete(cf_run_state *R)
{
    if ((R->path = strdup(R->o->resume)) == NULL)
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory");
    size_t keep;
    int fd = open_trimmed(R, &keep);
    if (fd < 0)
        return R->e->code ? R->e->code : CF_EXIT_DATA;
    time_t now = time(NULL);
    struct tm tm;
    char end[96];
    gmtime_r(&now, &tm);
    size_t n = strftime(end, sizeof end, "# end: %Y-%m-%dT%H:%M:%SZ\n", &tm);
    n += (size_t)snprintf(end + n, sizeof end - n, "# end_reason: %s\n", CF_META_END_COMPLETE);
    /* A last line cut short was dropped (open_trimmed), as a resume that measures drops it. */
    if (write(fd, end, n) != (ssize_t)n) {
        int err = errno;
        int undo = ftruncate(fd, (off_t)keep); /* as it was, never half an end */
        (void)undo;
        close(fd);
        return cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot mark it complete: %s",
                            strerror(err ? err : EIO));
    }
    return close(fd) != 0 ? cf_error_set(R->e, CF_EXIT_DATA, R->path, 0,
                                         "cannot mark it complete: %s", strerror(errno))
                          : 0;
}

/* A descriptor: the standard output ('-'), or one a path names (/dev/stdout, /dev/fd/N),
 * written where it writes; nothing to lock, truncate or delete. */
static int open_descriptor(cf_run_state *R, int which)
{
    const char *name = strcmp(R->path, "-") == 0 ? "<stdout>" : R->path;
    int fd = fcntl(which, F_DUPFD_CLOEXEC, 3);
    R->to_fd = 1;
    if (fd < 0 || (R->fp = fdopen(fd, "w")) == NULL) {
        if (fd >= 0)
            close(fd);
        return cf_error_set(R->e, CF_EXIT_DATA, name, 0, "cannot write: %s", strerror(errno));
    }
    if (cf_table_write_header(R->fp, R->t) != 0 || fflush(R->fp) != 0)
        return cf_error_set(R->e, CF_EXIT_DATA, name, 0, "cannot write: %s",
                            strerror(errno ? errno : EIO));
    return 0;
}

/* The table already at R->path copied whole to PATH~ (written aside and renamed, an older
 * one replaced): -o given a finished table again empties it as the run starts, and a run
 * stopped at its first row would leave nothing of it. 0, or CF_EXIT_DATA with R->e set
 * (the table then left as it is). */
static int keep_aside(cf_run_state *R)
{
    size_t n = strlen(R->path) + 2;
    char *aside = malloc(n);
    FILE *in = fopen(R->path, "rb");
    cf_outfile out = {0};
    int rc = aside == NULL || in == NULL ? -1 : 0;
    if (rc == 0) {
        snprintf(aside, n, "%s~", R->path);
        rc = cf_outfile_open(&out, aside, R->e) != 0 ? -2 : 0;
    }
    char buf[65536];
    size_t k;
    while (rc == 0 && (k = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, k, out.fp) != k)
            rc = -1;
    if (rc == 0 && ferror(in))
        rc = -1;
    int err = errno ? errno : EIO;
    if (rc == 0)
        rc = cf_outfile_commit(&out, R->e) != 0 ? -2 : 0;
    else if (rc == -1)
        cf_outfile_abort(&out);
    if (in != NULL)
        fclose(in);
    if (rc == 0 && R->hooks->note != NULL && !R->o->quiet) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s had a table: kept as %s", R->path, aside);
        R->hooks->note(msg);
    }
    if (rc != 0) {
        char why[sizeof R->e->msg];
        snprintf(why, sizeof why, "%s", rc == -1 ? strerror(err) : R->e->msg);
        cf_error_set(R->e, CF_EXIT_DATA, R->path, 0,
                     "holds a table, which could not be kept as %s~ (%s): nothing measured; "
                     "remove it, or give another -o",
                     R->path, why);
    }
    free(aside);
    return rc == 0 ? 0 : CF_EXIT_DATA;
}

/* A new table file: truncated only once locked, since a second measure on the table must
 * not empty it; a table that was there first kept aside (keep_aside). */
static int open_new(cf_run_state *R)
{
    int created, fd;
    if ((fd = open_locked(R, &created)) < 0)
        return CF_EXIT_DATA;
    struct stat st;
    int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    if (regular && st.st_size > 0 && keep_aside(R) != 0) {
        close(fd);
        return CF_EXIT_DATA;
    }
    if ((regular && ftruncate(fd, 0) != 0) || (R->fp = fdopen(fd, "w")) == NULL) {
        int err = errno;
        close(fd);
        return cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot write: %s", strerror(err));
    }
    errno = 0;
    if (cf_table_write_header(R->fp, R->t) != 0 || fflush(R->fp) != 0 || note_kept(R) != 0) {
        /* Nothing measured yet: no half header left behind in a file this run made. A
         * device, a FIFO or a file that was there stays. */
        int err = errno ? errno : EIO;
        fclose(R->fp);
        R->fp = NULL;
        if (created && regular)
            unlink(R->path);
        return cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot write: %s", strerror(err));
    }
    return 0;
}

int cf_run_open_output(cf_run_state *R, const char *command, int over, const char *plan)
{
    /* One clock reading: the file's name and its date metadata agree. */
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    if ((R->path = output_path(R->o, &tm)) == NULL)
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory");
    if (R->o->resume != NULL) {
        int rrc = open_resume(R, over);
        if (rrc == 0)
            cf_launch_report("table", R->path);
        return rrc;
    }
    int rc = cf_run_start_metadata(R, &tm, command, over, plan);
    if (rc != 0)
        return rc;
    /* A line no reader would take (an entry a rank, at a launch of a million): no table. */
    size_t len;
    const char *key = cf_table_meta_overlong(R->t, &len);
    if (key != NULL)
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0,
                            "metadata %s of %d ranks makes a line of %zu MiB, longer than the %u "
                            "MiB a table's reader takes: no table written%s",
                            key, R->size, len >> 20, CF_LINE_MAX_BYTES >> 20,
                            strncmp(key, "rank_latency", 12) == 0
                                ? "; measure without the launch probes (--no-latency-probe)"
                                : "");
#ifdef CF_SMPI
    /* A simulation's standard output is smpirun's; the launching commfit names the table's
     * (for '-', /dev/stdout or /dev/fd/1 alike). */
    int nfd = strcmp(R->path, "-") == 0 ? STDOUT_FILENO : cf_named_fd(R->path);
    if (nfd == STDOUT_FILENO)
        nfd = cf_launch_table_fd();
#else
    int nfd = strcmp(R->path, "-") == 0 ? STDOUT_FILENO : cf_named_fd(R->path);
#endif
    if (nfd >= 0)
        rc = open_descriptor(R, nfd);
    else if ((rc = cf_mkdir_parent(R->path, R->e)) == 0)
        rc = open_new(R);
    if (rc == 0) /* the launching commfit names it if the launch ends badly */
        cf_launch_report("table", R->path);
    return rc;
}
