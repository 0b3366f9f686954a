/* commfit import: Intel MPI Benchmarks and OSU Micro-Benchmarks results into a timing
 * table. The parsers read a whole file from memory in one pass (the fuzz target feeds
 * them directly); broken tables fail the import, or with lenient set are dropped. */
#ifndef CF_IMPORT_H
#define CF_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/error.h"
#include "base/table.h"

typedef enum { CF_IMPORT_IMB = 1, CF_IMPORT_OSU = 2 } cf_import_format;

/* Receives each warning ("file", line or 0, message); the caller decides how to show it. */
typedef void (*cf_import_warn_fn)(void *ctx, const char *file, long line, const char *msg);

typedef struct cf_import_opts {
    int np;              /* process count of tables that do not state one; 0 = none */
    const char *pattern; /* pattern of every table; NULL = from the benchmark's name */
    int lenient;         /* a broken table is dropped with a warning instead of failing */
    long ranks_per_node; /* ranks on each node, nodes filled in order; 0 = not said */
    const char *mpi_library; /* the library that ran the benchmark, for mpi_library; NULL */
    cf_import_warn_fn warn;
    void *warn_ctx;
} cf_import_opts;

/* The table a parser is reading, kept apart until it is known to be complete. */
typedef struct cf_import_tab {
    int active;
    long line;      /* line of its header: the row group's "source" */
    char bench[120]; /* the benchmark as the file names it, for messages */
    char pattern[CF_PATTERN_MAX];
    char datatype[CF_DATATYPE_MAX];
    int np;
    int names_ok;        /* pattern and datatype are valid names */
    size_t n;            /* its rows so far: see cf_import_rows */
    long last_line;      /* line of the last row kept, for "sizes out of order" */
    long zero_skipped;   /* rows whose average time printed as zero */
    long notime_skipped; /* bandwidth rows that imply no time (0 bytes or 0 MB/s) */
    long failed_skipped; /* rows OSU's validation marks Fail: wrong data delivered */
    /* the line of the first row of each kind left out, which the warning names */
    long zero_first, notime_first, split_first, failed_first;
    /* The source's size is reduce_scatter's whole vector (OSU, IMB before 2019): rows get
     * each rank's block, the vector / np, as commfit and IMB 2019+ count it. */
    int vector_bytes;
    long split_skipped; /* such rows whose vector is not whole floats per rank */
} cf_import_tab;

typedef struct cf_import {
    cf_import_opts o;
    cf_table *t;
    const char *file; /* input name for messages */
    char base[256];   /* its basename, without commas, for the source column */
    cf_import_tab cur;
    size_t n_tables, n_dropped, n_sources;
    unsigned formats;  /* CF_IMPORT_* seen */
    int bw_only;       /* a table whose times come from its bandwidth was imported */
    char first_bench[120], first_where[300]; /* for refusing --pattern over several */
    long zero_total, notime_total;
    char **bases; /* the source names used so far: each file's must differ */
    size_t n_bases;
} cf_import;

/* Creates an import; the table gets the extra column "source". NULL when out of memory. */
cf_import *cf_import_alloc(const cf_import_opts *o);
void cf_import_free(cf_import *im);

/* Parses one file's text (len bytes, need not end in NUL) and appends its tables. name is
 * used in messages and in the source column. A file that is not of the format, or a
 * broken table (unless lenient), fails with "name:line: ...". */
int cf_import_mem(cf_import *im, cf_import_format f, const char *buf, size_t len,
                  const char *name, cf_error *e);
/* Reads path ("-" = stdin) and parses it as above. */
int cf_import_file(cf_import *im, cf_import_format f, const char *path, cf_error *e);

/* Adds the closing metadata and hands the table over (the import keeps no reference).
 * With ranks_per_node, the metadata says where the ranks ran (ranks_per_node, one entry a
 * node of the largest np's launch), as commfit measure records it; with mpi_library, the
 * library (mpi_library). Fails when nothing was imported. */
int cf_import_finish(cf_import *im, cf_table **out, cf_error *e);

/* The MPI library a user names ("Open MPI 4.1.6", "openmpi/4.1.6", "MPICH 4.0.2") as the
 * library's own version string begins ("Open MPI v4.1.6", "MPICH Version: 4.0.2"), which
 * the collective switch rules read; another name is kept as typed. *out is malloc'd. A
 * string without a version, or of several lines, is a usage error. */
int cf_import_library_name(const char *typed, char **out, cf_error *e);

/* "data/NAME.csv" for input path: its basename without the last extension. malloc'd. */
char *cf_import_default_output(const char *path);

/* ---- shared by the two parsers (src/import-imb.c, src/import-osu.c) ---- */

int cf_import_imb_parse(cf_import *im, const char *buf, size_t len, cf_error *e);
int cf_import_osu_parse(cf_import *im, const char *buf, size_t len, cf_error *e);

/* One line of the input: CR and trailing white space removed. */
typedef struct cf_import_line {
    const char *s;
    size_t n;
    long no;    /* 1-based */
    int has_nl; /* ended by a newline (a last line without one may be cut off) */
} cf_import_line;

typedef struct cf_import_lines {
    const char *buf;
    size_t len, pos;
    long no;
    long too_long; /* the line longer than CF_LINE_MAX_BYTES that stopped the lines, or 0 */
} cf_import_lines;

/* A UTF-8 byte order mark at the start of buf is passed over. */
void cf_import_lines_init(cf_import_lines *it, const char *buf, size_t len);
/* 0 at the end, or at a line longer than CF_LINE_MAX_BYTES (it->too_long then says which:
 * the parser refuses the file with cf_import_long_line). */
int cf_import_next_line(cf_import_lines *it, cf_import_line *l);
int cf_import_long_line(cf_import *im, const cf_import_lines *it, cf_error *e);

typedef struct cf_import_field {
    const char *s;
    size_t n;
} cf_import_field;

/* Splits on blanks; returns the number of fields, of which at most max are stored. */
int cf_import_split(const char *s, size_t n, cf_import_field *f, int max);

/* A decimal number as the benchmarks print it ("12.34", "5e-3"); *decimals = digits after
 * the point. -1 for anything else, NaN and infinity included. */
int cf_import_number(const char *s, size_t n, double *v, int *decimals);
/* A non-negative integer at most max. */
int cf_import_uint(const char *s, size_t n, uint64_t max, uint64_t *v);

/* For reading a row's fields where they stand: the number (as cf_import_number) or the
 * integer (as cf_import_uint) that starts at s and goes on as far as the characters fit,
 * before end. Returns where it ends, or NULL when there is none (the caller then knows the
 * field is not one, if it does not end there). */
const char *cf_import_scan_number(const char *s, const char *end, double *v, int *decimals);
const char *cf_import_scan_uint(const char *s, const char *end, uint64_t max, uint64_t *v);
/* The first character at p that is not a blank. */
const char *cf_import_skip_blanks(const char *p, const char *end);

/* Arguments for "%.*s": a line quoted in a message, its leading blanks left out (IMB and
 * OSU right-align their columns: the cut fell before a row's last fields) and at most 100
 * characters of the rest. */
static inline size_t cf_import_quote_skip(const char *s, size_t n)
{
    size_t k = 0;
    while (k < n && (s[k] == ' ' || s[k] == '\t'))
        k++;
    return k;
}
#define CF_IMPORT_QUOTE(s, n)                                                                   \
    (int)((n) - cf_import_quote_skip(s, n) > 100 ? 100 : (n) - cf_import_quote_skip(s, n)),     \
        (s) + cf_import_quote_skip(s, n)

/* Leading blanks skipped; the rest starts with the literal prefix p (case-sensitive).
 * Inline, so that the length of the literal is known where it is used: every line of the
 * input is asked at least once. */
static inline int cf_import_starts(const char *s, size_t n, const char *p)
{
    size_t i = 0, k = strlen(p);
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return n - i >= k && memcmp(s + i, p, k) == 0;
}

/* What snprintf(dst, cap, "%.*s", n, s) does, without printf (which cost more than the
 * rest of a short table): at most n characters of s, fewer at a NUL, at most cap - 1. */
void cf_import_copy(char *dst, size_t cap, const char *s, size_t n);
/* The same, appended to the string in dst. */
void cf_import_append(char *dst, size_t cap, const char *s, size_t n);

/* Begins a table whose rows follow: pattern (replaced by --pattern), np, datatype. */
int cf_import_table_start(cf_import *im, long line, const char *bench, const char *pattern,
                          int np, const char *datatype, cf_error *e);
/* Says that the table begun gives reduce_scatter's size as the whole vector, when it does:
 * OSU's osu_reduce_scatter and IMB before 2019 spread the vector over the ranks. */
void cf_import_table_vector_bytes(cf_import *im, int vector);
/* Adds one row (pattern, np and datatype are the table's); checks it against the schema. */
int cf_import_table_row(cf_import *im, long line, cf_row *r, cf_error *e);
/* The table is complete: its rows join the result with their source. */
int cf_import_table_end(cf_import *im, cf_error *e);
/* Forgets the table being read. */
void cf_import_table_drop(cf_import *im);
/* The rows of the table being read: written in place after the rows already imported
 * (cf_import_mem reserves a row per line), where cf_import_table_end keeps them. */
static inline cf_row *cf_import_rows(const cf_import *im)
{
    return im->t->rows + im->t->n_rows;
}

/* A broken table: lenient, warns, drops the table and returns 0 (the parser skips to the
 * next table); otherwise fills e and returns CF_EXIT_DATA. */
int cf_import_table_fail(cf_import *im, cf_error *e, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

void cf_import_warnf(cf_import *im, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records "source_N: BASENAME (note)" in the metadata. */
int cf_import_add_source(cf_import *im, const char *note, cf_error *e);

/* The commfit datatype for an MPI datatype name ("MPI_FLOAT" -> "float"); "byte" for
 * MPI_BYTE and MPI_CHAR; NULL when the name cannot be one. */
const char *cf_import_datatype(const char *mpi, size_t n, char *buf, size_t cap);

#endif
