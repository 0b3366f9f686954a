/* Output files that appear whole or not at all: written to a temporary file beside the
 * target, then renamed. An interrupted or failed write leaves nothing behind. */
#ifndef CF_OUTFILE_H
#define CF_OUTFILE_H

#include <stdio.h>

#include "base/error.h"

typedef struct cf_outfile {
    FILE *fp;
    char *path; /* final name */
    char *tmp;  /* temporary name while open */
} cf_outfile;

/* Creates the parent folder if needed and opens a temporary file beside path. */
int cf_outfile_open(cf_outfile *o, const char *path, cf_error *e);

/* Flushes, syncs and renames into place; on any failure removes the temporary file. */
int cf_outfile_commit(cf_outfile *o, cf_error *e);

/* Closes and removes the temporary file; safe to call twice or after commit. */
void cf_outfile_abort(cf_outfile *o);

/* Removes every temporary file still open; called on fatal signals and at exit. */
void cf_outfile_abort_all(void);

/* mkdir -p for the folder part of path (not the last component). */
int cf_mkdir_parent(const char *path, cf_error *e);
int cf_mkdir_p(const char *dir, cf_error *e);

/* The newest regular file in dir whose name ends with suffix (by modification time,
 * then by name). *out is malloc'd "dir/name". */
int cf_newest_file(const char *dir, const char *suffix, char **out, cf_error *e);

#endif
