/* The timing table: commfit's CSV of measured (or imported) points, schema version 1
 * (see commfit-formats(5)). Metadata lines "# key: value", a header, one row a point. */
#ifndef CF_TABLE_H
#define CF_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

#define CF_TABLE_SCHEMA_MAJOR 1
#define CF_TABLE_SCHEMA "1"
#define CF_TABLE_NP_MAX 16777216
#define CF_TABLE_NP_MAX_TEXT "16777216" /* the same, for messages */
#define CF_PATTERN_MAX 32
#define CF_DATATYPE_MAX 16

/* The times a row may hold, in microseconds: from a picosecond (a thousandth of the
 * finest MPI_Wtick, room for times implied by a bandwidth or a message rate) to 10^12 us
 * (11.6 days for one call). Outside, a value is a corrupt file, not a measurement; inside,
 * squares and sums of weights 1/T^2 stay far from overflow. */
#define CF_TIME_MIN_US 1e-6
#define CF_TIME_MAX_US 1e12

/* The columns every table has, in the order commfit writes them. */
#define CF_TABLE_NCOLS 13
extern const char *const cf_table_columns[CF_TABLE_NCOLS];

/* The fields are ordered to leave no padding between them (136 bytes rather than 144):
 * a large table's rows are most of the memory that reading or importing it touches.
 * line fills the 4 bytes the three ints would leave before the doubles. */
typedef struct cf_row {
    char pattern[CF_PATTERN_MAX];   /* [a-z0-9_]+ */
    char datatype[CF_DATATYPE_MAX]; /* "byte", "float", "vector", ... */
    uint64_t bytes;                 /* <= CF_BYTES_MAX */
    long reps;                      /* calls per timed sample; 0 = unknown (empty) */
    int np;                         /* >= 1 */
    int blocks;                     /* derived datatypes; 0 = not applicable (empty) */
    int samples;                    /* timed samples; 0 = unknown (empty) */
    unsigned line;                  /* the line it was read from; 0 = not read from a file */
    double t_min_us, t_avg_us, t_max_us; /* > 0, min <= avg <= max */
    double t_med_us;                     /* > 0, or NAN when unknown (empty) */
    double t_ci95_us;                    /* >= 0, or NAN when unknown (empty) */
    double bw_MiBps;                     /* >= 0, or NAN (empty: collectives) */
    char *extra; /* the row's extra columns, comma-joined, owned by the table (rows with
                  * equal values may share one string); or NULL */
} cf_row;

typedef struct cf_meta {
    char *key;
    char *value;
    long line; /* the line of the table it was read from (the last, said twice), or 0 */
} cf_meta;

typedef struct cf_table {
    cf_meta *meta;
    size_t n_meta, cap_meta;
    char **extra_names; /* names of columns beyond the 13, in file order */
    size_t n_extra;
    cf_row *rows;
    size_t n_rows, cap_rows;
    struct cf_strings *strings; /* where the rows' extra values are kept */
} cf_table;

cf_table *cf_table_alloc(void);
void cf_table_free(cf_table *t);

/* The exponent of a decimal number at p, if any ("e", "E", an optional sign, digits; an
 * exponent's magnitude stops growing at 10^5): where it ends, with *e the exponent (0
 * when there is none), or NULL when "e" has no digits. The table reader's and the
 * importers' fast number scanners share it. */
const char *cf_scan_exponent(const char *p, const char *end, long *e);

/* Sets (or replaces) a metadata value; newlines become spaces. 0 or -1 out of memory. */
int cf_table_meta_set(cf_table *t, const char *key, const char *value);
/* The line key was read from (cf_meta.line), or 0. */
long cf_table_meta_line(const cf_table *t, const char *key);
/* NULL when absent. */
const char *cf_table_meta_get(const cf_table *t, const char *key);
/* The first metadata key of t whose line ('# key: value') is longer than a reader takes
 * (CF_LINE_MAX_BYTES), that line's length into *len; NULL when every line fits. */
const char *cf_table_meta_overlong(const cf_table *t, size_t *len);

/* The runs of a rank_cpu_share list ("1.00*2;0.46;-"), in rank order: fn(first, n, v,
 * ctx) for n ranks from rank first with share v, NAN for '-' or a value that is not a share
 * in [0, 1]; a count that does not read is 1. Stops at INT_MAX ranks. */
typedef void (*cf_share_run_fn)(long first, long n, double v, void *ctx);
void cf_cpu_share_runs(const char *s, cf_share_run_fn fn, void *ctx);

/* The least share of its timed calls' wall time that a rank ran on a processor (the
 * metadata key rank_cpu_share; a resumed table's holds each rank's least over its
 * launches), in *share, and that rank in *rank: 0, or -1 when the table does not say
 * (made before the key, simulated, imported). */
int cf_table_cpu_share_min(const cf_table *t, double *share, int *rank);
/* The same of a rank_cpu_share value s (NULL: none), as a model file's source keeps it. */
int cf_cpu_share_min(const char *s, double *share, int *rank);

/* The end_reason metadata of a run that went through its plan. */
#define CF_META_END_COMPLETE "complete"
/* The hostfile metadata of a simulation without --hostfile. */
#define CF_META_SIM_HOSTFILE_DEFAULT "one rank per core, in platform order"
/* How far short of its plan the run that wrote t ended: NULL where it went through
 * (end_reason complete) or t does not say (imported, or measured before commfit_revision
 * and end_reason were written: both came in one version); else its end_reason (stopped by
 * a signal, failed: ..., cut short: ...), or "" for a table of commfit measure with no end
 * after its rows (a run killed between points, or its machine gone down). */
const char *cf_table_unfinished(const cf_table *t);

/* Below it, a table's timings include waiting for other work that had its ranks'
 * processors: fit says so. A busy-polling rank alone on its core runs 1.00 of the time;
 * against two busy loops on this machine's 2 cores, 0.46-0.48, with a ping-pong 7000x
 * slower than alone. */
#define CF_CPU_SHARE_LOW 0.9

/* Declares the extra columns rows will carry (before adding rows). */
int cf_table_set_extra(cf_table *t, const char *const *names, size_t n);

/* A row with empty optional fields: blocks 0, reps 0, samples 0, t_med/ci95/bw NAN. */
void cf_row_init(cf_row *r);

/* Which statistic of a row is its time. */
typedef enum cf_statistic { CF_STAT_MEDIAN, CF_STAT_MEAN, CF_STAT_MIN } cf_statistic;
/* The row's time under s, in microseconds: t_med_us, t_avg_us or t_min_us; NAN for the
 * median of a row that has none (imported tables), which a fit refuses. */
double cf_row_time(const cf_row *r, cf_statistic s);
/* Rows ordered by their fit group (pattern, np, datatype: a derived datatype's block counts
 * are one fit), then by point (bytes, then blocks): <0, 0 or >0 as for qsort. */
int cf_row_cmp_group(const cf_row *x, const cf_row *y);
int cf_row_cmp(const cf_row *x, const cf_row *y);
/* The same, but the mean where the row has no median: what the plots, the derived-datatype
 * summary and the point-to-point estimate show. */
double cf_row_time_or_mean(const cf_row *r, cf_statistic s);
/* The same with the statistic by name, as a model file or a column names it ("median" or
 * "t_med_us", "min" or "t_min_us"; anything else is the mean). */
double cf_row_time_named(const cf_row *r, const char *stat);
/* The statistic such a name names (anything else: the mean). */
cf_statistic cf_statistic_named(const char *stat);
/* The standard error of the row's time, read back from t_ci95_us: measure writes it as
 * Student's t(0.975, samples - 1) standard errors, so it is divided by that quantile; by
 * the normal 1.96 where samples is unknown (0 or 1: an imported or hand-made table). NAN
 * when the row has no t_ci95_us. */
double cf_row_se_us(const cf_row *r);

/* Field k of a row's comma-joined extra values (r->extra, which may be NULL): where it
 * starts, with *len its length; "" (length 0) when the row has no such field. */
const char *cf_row_extra_field(const char *extra, size_t k, size_t *len);
/* The same, copied into buf (n bytes with the NUL; cut to fit). */
void cf_row_extra_copy(const char *extra, size_t k, char *buf, size_t n);
/* MPI_Pack costs depend on the layout packed, and measure records it (extra column
 * ddt_layout): a pack row of t is named pack_LAYOUT (r->datatype), so that fit fits each
 * layout's apart and report draws each datatype with the pack of its own layout. Other
 * rows, and tables without the column, are left as they are. */
void cf_row_label_pack(const cf_table *t, cf_row *r);
/* Checks one row against the schema; on failure fills why (for "file:line: why"). */
int cf_row_check(const cf_row *r, char *why, size_t n);
/* Parts of cf_row_check, without a message, for callers that check many rows of one name:
 * a pattern or datatype name ([a-z0-9_]+), and everything but the names. 1 when valid. */
int cf_name_valid(const char *s);
/* Whether a datatype name is one of measure's derived-datatype layouts or baselines
 * (contiguous, vector, hvector, indexed, hindexed, struct, pack, pack_LAYOUT), whose blocks
 * column counts blocks. For every other datatype a block count of 1 is one contiguous
 * block, what an empty column says: the reader stores it as 0 (not applicable), so that a
 * plain row is the same row wherever it is read (per-np fits, across-np, p2p). */
int cf_datatype_derived(const char *name);
int cf_row_values_ok(const cf_row *r);
/* Room for n rows in all, so that adding up to n never moves the rows. 0, or -1 out of
 * memory. */
int cf_table_reserve(cf_table *t, size_t n);
/* Appends a copy of r (extra copied, or shared with the previous row's when equal). 0, or
 * -1 out of memory. */
int cf_table_add(cf_table *t, const cf_row *r);
/* Appends the n rows the caller wrote in place after the last one (from t->rows + n_rows,
 * in room cf_table_reserve made), all with the extra values extra (or NULL), as n calls of
 * cf_table_add would: no copy of the rows. 0, or -1 out of memory. */
int cf_table_add_written(cf_table *t, size_t n, const char *extra);

/* Reads a whole table. name is used in messages ("-" reads stdin). Every error names
 * file:line and what was expected. */
int cf_table_read(const char *path, cf_table **out, cf_error *e);
int cf_table_read_fp(FILE *fp, const char *name, cf_table **out, cf_error *e);
/* Parses a table from memory (len bytes, need not be NUL-terminated). */
int cf_table_read_mem(const char *buf, size_t len, const char *name, cf_table **out,
                      cf_error *e);

/* Writes metadata and the header line; then rows one at a time (measure flushes each). */
int cf_table_write_header(FILE *fp, const cf_table *t);
int cf_table_write_row(FILE *fp, const cf_table *t, const cf_row *r);
/* Writes the whole table to path atomically (temporary file, then rename). */
int cf_table_write(const char *path, const cf_table *t, cf_error *e);

/* The coll_timing metadata: how measure timed the collectives. A table of commfit's
 * measure without the key (written before it) timed the loop whole; imported tables and
 * hand-made ones do not say (OSU and IMB 2019 on time each call with a barrier after it). */
#define CF_META_TIMING_CALL "each call alone, a barrier after it (IMB -sync 1)"
#define CF_META_TIMING_LOOP "the calls back to back, the loop timed whole (--no-sync)"
/* The coll_root metadata: the rooted collectives' root. */
#define CF_META_ROOT_FIXED "rank 0 (IMB -root_shift 0)"
#define CF_META_ROOT_SHIFT "round-robin, call i at rank i % np (--root-shift)"
/* Whether t's collectives were timed as a loop of calls back to back: coll_timing says so,
 * or commfit's measure wrote t (its command) before it said how. */
int cf_table_timed_loop(const cf_table *t);

#endif
