/* Output files that appear whole or not at all: written to a temporary file beside the
 * target, then renamed. An interrupted or failed write leaves nothing behind. "-" is the
 * standard output, and an existing path that is not a regular file (a device, a FIFO, a
 * socket, or a symbolic link to one, such as /dev/stdout) is written in place: it is
 * never replaced. A symbolic link to a regular file is written through: the file it
 * names is replaced, the link stays. */
#ifndef CF_OUTFILE_H
#define CF_OUTFILE_H

#include <stdio.h>

#include "base/error.h"

typedef struct cf_outfile {
    FILE *fp;
    char *path;   /* final name, as given (for messages) */
    char *tmp;    /* temporary name while open; NULL when written in place */
    char *target; /* what tmp is renamed to: path, or the file a link names */
    int in_place; /* 1: a device, FIFO or socket; 2: the standard output */
} cf_outfile;

/* The longest line any reader accepts (64 MiB): what a line of a table, of IMB or OSU
 * output, of a model file or of a --points file may take. A table's launch metadata holds
 * an entry a rank (rank_latency_sized_us: 11 sizes, ~70 bytes a rank), a line of 1.1 MiB
 * at 16384 ranks: 64 MiB takes a launch of ~900000; measure refuses to write a longer one
 * (cf_table_meta_overlong). /dev/zero is refused after 64 MiB read, in bounded memory. */
#define CF_LINE_MAX_BYTES (64u << 20)

/* Creates the parent folder if needed and opens a temporary file beside path. */
int cf_outfile_open(cf_outfile *o, const char *path, cf_error *e);
/* The descriptor a path names by itself (/dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/self/fd/N, directly or through links), which a writer must use rather than open
 * the file behind it anew; -1 for any other path. */
int cf_named_fd(const char *path);

/* Flushes, syncs and renames into place; on any failure removes the temporary file. */
int cf_outfile_commit(cf_outfile *o, cf_error *e);

/* Closes and removes the temporary file; safe to call twice or after commit. */
void cf_outfile_abort(cf_outfile *o);

/* Removes every temporary file still open; called on fatal signals and at exit. */
void cf_outfile_abort_all(void);

/* 1 when out names an existing file that is also the existing file in (the same device
 * and inode): writing one would destroy the other. "-" never matches. */
int cf_same_file(const char *out, const char *in);
/* Two inputs that are one: the same file (cf_same_file), or both '-' (standard input read
 * twice: the second finds it empty). */
int cf_same_input(const char *a, const char *b);

/* Reads all of fp into a malloc'd buffer (*buf, *len; a NUL is added after the end),
 * refusing a line longer than CF_LINE_MAX_BYTES with name:line. */
int cf_read_all(FILE *fp, const char *name, char **buf, size_t *len, cf_error *e);

/* One line of fp, its newline included, into *buf (malloc'd, grown as needed, NUL
 * added); returns its length, 0 at the end of the input, -1 on a read error (errno) and
 * -2 when the line is longer than CF_LINE_MAX_BYTES (what was read of it is dropped). */
long cf_read_line(FILE *fp, char **buf, size_t *cap);

/* The length of the longest line of buf starts beyond CF_LINE_MAX_BYTES: returns its
 * 1-based line number, or 0 when every line is short enough. */
long cf_long_line(const char *buf, size_t len);

/* The message for a line over the limit, filled into e: "name:line: line longer than 1
 * MiB ...". Returns CF_EXIT_DATA. */
int cf_long_line_error(cf_error *e, const char *name, long line);

/* mkdir -p for the folder part of path (not the last component). */
int cf_mkdir_parent(const char *path, cf_error *e);
int cf_mkdir_p(const char *dir, cf_error *e);

/* The newest regular file in dir whose name ends with suffix (by modification time,
 * then by name). *out is malloc'd "dir/name". */
int cf_newest_file(const char *dir, const char *suffix, char **out, cf_error *e);

#endif
