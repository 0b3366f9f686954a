/* Reading the timing table. The reader is strict about everything but extra columns and
 * metadata keys, and fast: a million rows parse in a fraction of a second. */
#include "config.h"

#include "base/table.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/outfile.h"
#include "base/size.h"
#include "base/table-int.h"

typedef struct field {
    const char *s;
    size_t n;
} field;

/* The datatype columns a table of commfit measure's holds (commfit-formats(5)): the element's
 * MPI_Type_size, extent and block stride, each a whole number of bytes where given. */
static const char *const ddt_columns[3] = {"ddt_size_bytes", "ddt_extent_bytes",
                                           "ddt_stride_bytes"};

typedef struct reader {
    const char *name;
    long line;
    int unterminated; /* the line being read is the input's last and has no newline */
    cf_error *e;
    cf_table *t;
    int col_of[CF_TABLE_NCOLS]; /* field index of each core column */
    int *extra_idx;             /* field index of each extra column */
    int nfields;
    field *f;
    int *kind; /* what each field is: a core column (C_*) or K_EXTRA */
    int have_header;
    /* Row groups seen so far, to refuse duplicate rows and sizes out of order. */
    struct group *groups;
    size_t n_groups, cap_groups;
    int source_idx; /* index of the extra column "source", or -1 */
    int layout_idx; /* index of the extra column "ddt_layout", or -1 */
    int stop_idx;   /* index of the extra column "stop" (commfit measure's), or -1 */
    int ddt_idx[3]; /* of ddt_size_bytes, ddt_extent_bytes, ddt_stride_bytes, or -1 */
    long resume_at; /* the last resume_N line's, 0 before any */
    struct group *last_group; /* the previous row's group, or NULL */
    const char *last_extra;   /* the previous row's extra values and their length */
    size_t last_extra_len;
} reader;

#define K_EXTRA CF_TABLE_NCOLS

/* A row group: rows of one pattern, np, datatype, block count and source (imported
 * tables hold several runs of the same benchmark, told apart by their source) and
 * ddt_layout (measure's pack rows, one per derived layout packed). Within a
 * group, sizes strictly increase in file order: measure and import write them so. */
struct group {
    uint64_t hash;
    size_t last_row; /* index of the group's last row so far */
    long last_line;
};

static int bad(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cf_error_vset(r->e, CF_EXIT_DATA, r->name, r->line, fmt, ap);
    va_end(ap);
    return CF_EXIT_DATA;
}

static int split(const char *s, size_t n, field *f, int max)
{
    int k = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || s[i] == ',') {
            if (k < max) {
                f[k].s = s + start;
                f[k].n = i - start;
            }
            k++;
            start = i + 1;
        }
    }
    return k;
}

/* A metadata key said again with another value is refused: a table says each key once, but
 * for what a resumed launch writes after its resume_N line (its own provenance and end,
 * which the last of each holds) and the lines that say how a launch ended (end_reason, end,
 * duration_s, rank_cpu_share: a resumed launch says end_reason at its start as well as its
 * end, and a resume that finds every point measured marks the table complete with a new
 * end and no resume line). Said again alike, it is taken. */
static int launch_end_key(const char *key)
{
    static const char *const ends[] = {"end_reason", "end", "duration_s", "rank_cpu_share"};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
        if (strcmp(key, ends[i]) == 0)
            return 1;
    return 0;
}

static int meta_again(reader *r, const char *key, const char *val)
{
    const cf_table *t = r->t;
    for (size_t i = 0; i < t->n_meta; i++) {
        if (strcmp(t->meta[i].key, key) != 0)
            continue;
        if (strcmp(t->meta[i].value, val) == 0 || t->meta[i].line < r->resume_at ||
            launch_end_key(key))
            return 0;
        return bad(r,
                   "metadata key '%s' said again, '%s', where line %ld said '%s': a table says "
                   "each key once (but for what a resumed launch writes after its resume_N "
                   "line): keep the line that holds",
                   key, val, t->meta[i].line, t->meta[i].value);
    }
    return 0;
}

/* Notes the line key (just set) was said on. */
static void meta_said(reader *r, const char *key)
{
    cf_table *t = r->t;
    for (size_t i = 0; i < t->n_meta; i++)
        if (strcmp(t->meta[i].key, key) == 0)
            t->meta[i].line = r->line;
    if (strncmp(key, "resume_", 7) == 0)
        r->resume_at = r->line;
}

static int meta_line(reader *r, const char *s, size_t n)
{
    /* "# key: value"; other comment lines are ignored. */
    size_t i = 1;
    while (i < n && s[i] == ' ')
        i++;
    size_t k0 = i;
    while (i < n && s[i] != ':' && s[i] != ' ')
        i++;
    if (i == k0 || i >= n || s[i] != ':')
        return 0;
    size_t k1 = i++;
    while (i < n && s[i] == ' ')
        i++;
    char *key = strndup(s + k0, k1 - k0), *val = strndup(s + i, n - i);
    int rc = 0;
    if (key == NULL || val == NULL)
        rc = bad(r, "out of memory");
    else if (meta_again(r, key, val) != 0)
        rc = CF_EXIT_DATA;
    else if (cf_table_meta_set(r->t, key, val) != 0)
        rc = bad(r, "out of memory");
    if (rc == 0)
        meta_said(r, key);
    if (rc == 0 && strcmp(key, "schema") == 0) {
        char *end;
        errno = 0;
        long major = strtol(val, &end, 10);
        if (end == val || errno != 0 || (*end != '\0' && *end != '.') || major < 1)
            rc = bad(r, "invalid schema version '%s': expected a number such as '1'", val);
        else if (major > CF_TABLE_SCHEMA_MAJOR)
            rc = bad(r,
                     "schema version %s is newer than this commfit reads (%d); "
                     "upgrade commfit to read this table",
                     val, CF_TABLE_SCHEMA_MAJOR);
    }
    free(key);
    free(val);
    return rc;
}

static int header_line(reader *r, const char *s, size_t n)
{
    int nf = split(s, n, NULL, 0);
    r->f = malloc((size_t)nf * sizeof *r->f);
    r->extra_idx = malloc((size_t)nf * sizeof *r->extra_idx);
    r->kind = malloc((size_t)nf * sizeof *r->kind);
    if (r->f == NULL || r->extra_idx == NULL || r->kind == NULL)
        return bad(r, "out of memory");
    split(s, n, r->f, nf);
    r->nfields = nf;
    for (int c = 0; c < CF_TABLE_NCOLS; c++)
        r->col_of[c] = -1;
    const char **extra = malloc((size_t)nf * sizeof *extra);
    char **owned = calloc((size_t)nf, sizeof *owned);
    int nextra = 0, rc = 0;
    if (extra == NULL || owned == NULL) {
        free(extra);
        free(owned);
        return bad(r, "out of memory");
    }
    for (int k = 0; k < nf && rc == 0; k++) {
        int c;
        for (c = 0; c < CF_TABLE_NCOLS; c++)
            if (strlen(cf_table_columns[c]) == r->f[k].n &&
                memcmp(cf_table_columns[c], r->f[k].s, r->f[k].n) == 0)
                break;
        r->kind[k] = c < CF_TABLE_NCOLS ? c : K_EXTRA;
        if (c < CF_TABLE_NCOLS) {
            if (r->col_of[c] >= 0)
                rc = bad(r, "column '%s' appears twice in the header", cf_table_columns[c]);
            r->col_of[c] = k;
        } else if (r->f[k].n == 0) {
            rc = bad(r, "empty column name in the header (field %d)", k + 1);
        } else if ((owned[nextra] = strndup(r->f[k].s, r->f[k].n)) == NULL) {
            rc = bad(r, "out of memory");
        } else {
            extra[nextra] = owned[nextra];
            r->extra_idx[nextra++] = k;
        }
    }
    for (int c = 0; c < CF_TABLE_NCOLS && rc == 0; c++)
        if (r->col_of[c] < 0)
            rc = bad(r, "missing column '%s' in the header: expected %s,%s,%s,...",
                     cf_table_columns[c], cf_table_columns[0], cf_table_columns[1],
                     cf_table_columns[2]);
    if (rc == 0 && cf_table_set_extra(r->t, extra, (size_t)nextra) != 0)
        rc = bad(r, "out of memory");
    r->source_idx = r->layout_idx = r->stop_idx = -1;
    r->ddt_idx[0] = r->ddt_idx[1] = r->ddt_idx[2] = -1;
    for (int i = 0; i < nextra && rc == 0; i++) {
        for (int k = 0; k < 3; k++)
            if (strcmp(extra[i], ddt_columns[k]) == 0)
                r->ddt_idx[k] = i;
        if (strcmp(extra[i], "source") == 0)
            r->source_idx = i;
        if (strcmp(extra[i], "ddt_layout") == 0)
            r->layout_idx = i;
        if (strcmp(extra[i], "stop") == 0)
            r->stop_idx = i;
    }
    for (int i = 0; i < nextra; i++)
        free(owned[i]);
    free(owned);
    free(extra);
    return rc;
}

static int get_name(reader *r, int c, char *dst, size_t cap)
{
    field f = r->f[r->col_of[c]];
    if (f.n == 0)
        return bad(r, "column '%s' is empty: expected a name", cf_table_columns[c]);
    if (f.n >= cap)
        return bad(r, "column '%s': '%.*s' is too long (at most %zu characters)",
                   cf_table_columns[c], (int)f.n, f.s, cap - 1);
    memcpy(dst, f.s, f.n);
    dst[f.n] = '\0';
    return 0;
}

static int get_int(reader *r, int c, uint64_t max, int optional, uint64_t *v)
{
    field f = r->f[r->col_of[c]];
    if (f.n == 0 && optional) {
        *v = 0;
        return 0;
    }
    int rc = cf_table_parse_u64(f.s, f.n, max, v);
    if (rc == -2)
        return bad(r, "column '%s': '%.*s' is too large (at most %llu)", cf_table_columns[c],
                   (int)f.n, f.s, (unsigned long long)max);
    if (rc != 0)
        return bad(r, "column '%s': expected a non-negative integer, got '%.*s'",
                   cf_table_columns[c], (int)f.n, f.s);
    return 0;
}

/* A count that is empty when unknown (0 then), else at least 1: no row was timed over none
 * (a row of 0 samples was fitted without a word; bad-input audit). */
static int get_count(reader *r, int c, uint64_t max, const char *what, uint64_t *v)
{
    if (get_int(r, c, max, 1, v))
        return CF_EXIT_DATA;
    if (*v == 0 && r->f[r->col_of[c]].n > 0)
        return bad(r, "column '%s': 0 %s: expected at least 1 (empty when unknown)",
                   cf_table_columns[c], what);
    return 0;
}

static int get_double(reader *r, int c, int optional, double *v)
{
    field f = r->f[r->col_of[c]];
    if (f.n == 0 && optional) {
        *v = NAN;
        return 0;
    }
    if (cf_table_parse_double(f.s, f.n, v) != 0)
        return bad(r, "column '%s': expected a finite number, got '%.*s'", cf_table_columns[c],
                   (int)f.n, f.s);
    return 0;
}

/* ---- the fast path of a data line ----
 * Nearly every line of a table is a valid row with plain numbers. The fast path reads
 * such a line in one pass, each field parsed where it stands, and gives up (returning
 * NULL or -1) on anything else: then the careful path below (split, get_*, cf_row_check)
 * reads the line again, accepts what the fast path did not handle, and words every
 * message. So the fast path must accept only what the careful path accepts, with the same
 * values; what it refuses costs time, never behaviour. */

/* A name of [a-z0-9_] copied into dst (cap bytes with its NUL); returns its end. */
static const char *scan_name(const char *p, const char *end, char *dst, size_t cap)
{
    const char *p0 = p;
    while (p < end && cf_table_name_char(*p))
        p++;
    size_t n = (size_t)(p - p0);
    if (n == 0 || n >= cap)
        return NULL;
    memcpy(dst, p0, n);
    dst[n] = '\0';
    return p;
}

/* The row's extra values, comma-joined in x (len bytes with the NUL), are kept in the
 * table, or the previous row's string is shared when they are equal. */
static const char *keep_extra(reader *r, char *x, size_t len)
{
    if (r->last_extra != NULL && r->last_extra_len == len && memcmp(r->last_extra, x, len) == 0)
        return r->last_extra;
    cf_table_strings_keep(r->t, len);
    r->last_extra = x;
    r->last_extra_len = len;
    return x;
}

/* The fast path: 0 with the row read and checked, -1 to leave the line to the careful
 * path. */
static int row_fast(reader *r, const char *s, size_t n, cf_row *row)
{
    const char *p = s, *end = s + n;
    char *x = NULL, *xp = NULL;
    if (r->t->n_extra > 0 && (x = xp = cf_table_strings_room(r->t, n + 1)) == NULL)
        return -1;
    uint64_t u = 0;
    cf_row_init(row);
    for (int k = 0; k < r->nfields; k++) {
        if (k > 0) {
            if (p == end || *p != ',')
                return -1;
            p++;
        }
        int empty = p == end || *p == ',';
        switch (r->kind[k]) {
        case C_PATTERN:
            p = scan_name(p, end, row->pattern, sizeof row->pattern);
            break;
        case C_DATATYPE:
            p = scan_name(p, end, row->datatype, sizeof row->datatype);
            break;
        case C_NP:
            p = cf_table_scan_u64(p, end, CF_TABLE_NP_MAX, &u);
            row->np = (int)u;
            break;
        case C_BYTES:
            p = cf_table_scan_u64(p, end, CF_BYTES_MAX, &row->bytes);
            break;
        case C_BLOCKS:
            if (!empty)
                p = cf_table_scan_u64(p, end, INT32_MAX, &u), row->blocks = (int)u;
            break;
        case C_REPS: /* a count of 0: the careful path says why not (get_count) */
            if (!empty && ((p = cf_table_scan_u64(p, end, INT64_MAX / 2, &u)) == NULL || u == 0))
                return -1;
            row->reps = empty ? row->reps : (long)u;
            break;
        case C_SAMPLES:
            if (!empty && ((p = cf_table_scan_u64(p, end, INT32_MAX, &u)) == NULL || u == 0))
                return -1;
            row->samples = empty ? row->samples : (int)u;
            break;
        case C_TMIN:
            p = cf_table_scan_double(p, end, &row->t_min_us);
            break;
        case C_TAVG:
            p = cf_table_scan_double(p, end, &row->t_avg_us);
            break;
        case C_TMAX:
            p = cf_table_scan_double(p, end, &row->t_max_us);
            break;
        case C_TMED:
            if (!empty)
                p = cf_table_scan_double(p, end, &row->t_med_us);
            break;
        case C_TCI:
            if (!empty)
                p = cf_table_scan_double(p, end, &row->t_ci95_us);
            break;
        case C_BW:
            if (!empty)
                p = cf_table_scan_double(p, end, &row->bw_MiBps);
            break;
        default: {
            const char *c = memchr(p, ',', (size_t)(end - p));
            size_t len = c ? (size_t)(c - p) : (size_t)(end - p);
            memcpy(xp, p, len);
            xp += len;
            *xp++ = ',';
            p += len;
            break;
        }
        }
        if (p == NULL)
            return -1;
    }
    if (p != end || !cf_row_values_ok(row))
        return -1;
    if (x != NULL) {
        xp[-1] = '\0';
        row->extra = (char *)keep_extra(r, x, (size_t)(xp - x));
    }
    return 0;
}

/* Field k of a row's extra values, k < 0 for a column the table does not have. */
static const char *extra_field(const char *extra, int k, size_t *len)
{
    if (k < 0) {
        *len = 0;
        return "";
    }
    return cf_row_extra_field(extra, (size_t)k, len);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

static uint64_t group_hash(const cf_row *row, int source_idx, int layout_idx)
{
    size_t ls, ll;
    const char *src = extra_field(row->extra, source_idx, &ls);
    const char *lay = extra_field(row->extra, layout_idx, &ll);
    uint64_t h = 14695981039346656037ULL;
    h = fnv(h, row->pattern, strlen(row->pattern) + 1);
    h = fnv(h, &row->np, sizeof row->np);
    h = fnv(h, row->datatype, strlen(row->datatype) + 1);
    h = fnv(h, &row->blocks, sizeof row->blocks);
    h = fnv(h, src, ls);
    return fnv(h, lay, ll);
}

static int same_field(const cf_row *a, const cf_row *b, int idx)
{
    size_t la, lb;
    const char *sa = extra_field(a->extra, idx, &la);
    const char *sb = extra_field(b->extra, idx, &lb);
    return la == lb && memcmp(sa, sb, la) == 0;
}

static int same_group(const cf_row *a, const cf_row *b, int source_idx, int layout_idx)
{
    return a->np == b->np && a->blocks == b->blocks && strcmp(a->pattern, b->pattern) == 0 &&
           strcmp(a->datatype, b->datatype) == 0 &&
           (a->extra == b->extra || (same_field(a, b, source_idx) && same_field(a, b, layout_idx)));
}

static int grow_groups(reader *r)
{
    size_t nc = r->cap_groups ? r->cap_groups * 2 : 256;
    struct group *ng = calloc(nc, sizeof *ng);
    if (ng == NULL)
        return -1;
    for (size_t i = 0; i < r->cap_groups; i++) {
        if (r->groups[i].last_line == 0)
            continue;
        size_t j = r->groups[i].hash & (nc - 1);
        while (ng[j].last_line != 0)
            j = (j + 1) & (nc - 1);
        ng[j] = r->groups[i];
    }
    free(r->groups);
    r->groups = ng;
    r->cap_groups = nc;
    r->last_group = NULL;
    return 0;
}

/* The size of a row against the last one of its group. */
static int group_next(reader *r, struct group *g, const cf_row *row)
{
    const cf_row *last = &r->t->rows[g->last_row];
    if (row->bytes == last->bytes)
        return bad(r, "duplicate row: %s np %d %s bytes %llu is already at line %ld", row->pattern,
                   row->np, row->datatype, (unsigned long long)row->bytes, g->last_line);
    if (row->bytes < last->bytes)
        return bad(r,
                   "sizes out of order: %s np %d %s bytes %llu comes after bytes %llu "
                   "(line %ld); expected increasing sizes",
                   row->pattern, row->np, row->datatype, (unsigned long long)row->bytes,
                   (unsigned long long)last->bytes, g->last_line);
    g->last_row = r->t->n_rows;
    g->last_line = r->line;
    r->last_group = g;
    return 0;
}

static int check_group(reader *r, const cf_row *row)
{
    /* Rows of a group mostly follow each other: try the previous row's group first. */
    if (r->last_group != NULL &&
        same_group(&r->t->rows[r->last_group->last_row], row, r->source_idx, r->layout_idx))
        return group_next(r, r->last_group, row);
    if ((r->n_groups + 1) * 2 > r->cap_groups && grow_groups(r) != 0)
        return bad(r, "out of memory");
    uint64_t h = group_hash(row, r->source_idx, r->layout_idx);
    size_t j = h & (r->cap_groups - 1);
    for (; r->groups[j].last_line != 0; j = (j + 1) & (r->cap_groups - 1)) {
        struct group *g = &r->groups[j];
        if (g->hash == h && same_group(&r->t->rows[g->last_row], row, r->source_idx, r->layout_idx))
            return group_next(r, g, row);
    }
    r->groups[j].hash = h;
    r->groups[j].last_row = r->t->n_rows;
    r->groups[j].last_line = r->line;
    r->n_groups++;
    r->last_group = &r->groups[j];
    return 0;
}



/* A row's datatype columns, where given: whole numbers, the size the bytes sent (measure
 * checks it before measuring), the extent at least that; nothing read from them else
 * (a stride of 'abc', a size other than the bytes read without a word). */
static int check_ddt_columns(reader *r, const cf_row *row)
{
    unsigned long long v[3] = {0, 0, 0};
    int have[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        size_t len;
        const char *f = extra_field(row->extra, r->ddt_idx[k], &len);
        if (len == 0)
            continue;
        char buf[32], *end;
        if (len >= sizeof buf)
            return bad(r, "column '%s': expected a whole number of bytes, got '%.20s...'",
                       ddt_columns[k], f);
        memcpy(buf, f, len);
        buf[len] = '\0';
        errno = 0;
        v[k] = strtoull(buf, &end, 10);
        if (*end != '\0' || errno != 0 || buf[0] < '0' || buf[0] > '9')
            return bad(r, "column '%s': expected a whole number of bytes, got '%s'",
                       ddt_columns[k], buf);
        have[k] = 1;
    }
    if (have[0] && v[0] != (unsigned long long)row->bytes)
        return bad(r, "column 'ddt_size_bytes': %llu, where the row's bytes are %llu (the size "
                      "of the element sent is the bytes sent)",
                   v[0], (unsigned long long)row->bytes);
    if (have[0] && have[1] && v[1] < v[0])
        return bad(r, "column 'ddt_extent_bytes': %llu, less than the element's size, %llu",
                   v[1], v[0]);
    return 0;
}

/* What a last row without an end of line is said to be, and what to do (its refusals). */
#define CUT_SHORT_HINT                                                                      \
    "cut short? (every line commfit writes ends with one; 'commfit measure --resume FILE' " \
    "drops a cut row and measures the point again"

/* The careful path: every field checked in turn, with its message. */
static int row_careful(reader *r, const char *s, size_t n, cf_row *row)
{
    int nf = split(s, n, r->f, r->nfields);
    /* The last row without an end of line and short of fields was cut mid-row (a table
     * cut by a full disk or head -c): said as the row cut where a field still read is. */
    if (nf < r->nfields && r->unterminated)
        return bad(r, "the last row has no end of line and %d of the header's %d fields: "
                      CUT_SHORT_HINT ")",
                   nf, r->nfields);
    if (nf != r->nfields)
        return bad(r, "expected %d fields as in the header, got %d", r->nfields, nf);
    uint64_t u;
    cf_row_init(row);
    if (get_name(r, C_PATTERN, row->pattern, sizeof row->pattern) ||
        get_name(r, C_DATATYPE, row->datatype, sizeof row->datatype))
        return CF_EXIT_DATA;
    if (get_int(r, C_NP, CF_TABLE_NP_MAX, 0, &u))
        return CF_EXIT_DATA;
    row->np = (int)u;
    if (get_int(r, C_BYTES, CF_BYTES_MAX, 0, &row->bytes))
        return CF_EXIT_DATA;
    if (get_int(r, C_BLOCKS, INT32_MAX, 1, &u))
        return CF_EXIT_DATA;
    row->blocks = (int)u;
    if (get_count(r, C_REPS, INT64_MAX / 2, "calls per timed sample", &u))
        return CF_EXIT_DATA;
    row->reps = (long)u;
    if (get_count(r, C_SAMPLES, INT32_MAX, "timed samples", &u))
        return CF_EXIT_DATA;
    row->samples = (int)u;
    if (get_double(r, C_TMIN, 0, &row->t_min_us) || get_double(r, C_TAVG, 0, &row->t_avg_us) ||
        get_double(r, C_TMAX, 0, &row->t_max_us) || get_double(r, C_TMED, 1, &row->t_med_us) ||
        get_double(r, C_TCI, 1, &row->t_ci95_us) || get_double(r, C_BW, 1, &row->bw_MiBps))
        return CF_EXIT_DATA;
    char why[256];
    if (cf_row_check(row, why, sizeof why) != 0)
        return bad(r, "%s", why);
    if (r->t->n_extra > 0) {
        size_t len = 0;
        for (size_t i = 0; i < r->t->n_extra; i++)
            len += r->f[r->extra_idx[i]].n + 1;
        char *x = cf_table_strings_room(r->t, len), *p = x;
        if (x == NULL)
            return bad(r, "out of memory");
        for (size_t i = 0; i < r->t->n_extra; i++) {
            field f = r->f[r->extra_idx[i]];
            memcpy(p, f.s, f.n);
            p += f.n;
            *p++ = ',';
        }
        p[-1] = '\0';
        row->extra = (char *)keep_extra(r, x, len);
    }
    return 0;
}

static int data_line(reader *r, const char *s, size_t n)
{
    /* Parsed in place at the end of the table: rows were reserved up front. */
    if (r->t->n_rows == r->t->cap_rows && cf_table_reserve(r->t, r->t->cap_rows * 2 + 64) != 0)
        return bad(r, "out of memory");
    cf_row *row = &r->t->rows[r->t->n_rows];
    if (row_fast(r, s, n, row) != 0 && row_careful(r, s, n, row) != 0)
        return CF_EXIT_DATA;
    /* commfit measure's last column says why a point's sampling stopped, one of three
     * words: anything else is a row cut short (a run killed while writing it, a copy cut
     * off), whose numbers before it may be cut too. */
    if (r->stop_idx >= 0) {
        size_t len;
        const char *v = extra_field(row->extra, r->stop_idx, &len);
        if (len > 0 && !(len == 7 && memcmp(v, "samples", 7) == 0) &&
            !(len == 2 && memcmp(v, "ci", 2) == 0) && !(len == 4 && memcmp(v, "time", 4) == 0))
            return bad(r, "column 'stop': expected samples, ci or time, got '%.*s' (a row cut "
                       "short? 'commfit measure --resume FILE' drops it and measures the point "
                       "again)",
                       (int)(len > 40 ? 40 : len), v);
    }
    if (check_ddt_columns(r, row) != 0)
        return CF_EXIT_DATA;
    if (row->blocks == 1 && !cf_datatype_derived(row->datatype))
        row->blocks = 0;
    /* A derived datatype's row is of a layout: its block count, which can hold one float
     * a block at least (struct's blocks are its particles). A row without one made a
     * vector fit's 210 points 100 without block counts; a layout of more blocks than floats
     * bent the fit's cost per block (measure never writes either). */
    if (cf_datatype_derived(row->datatype) && row->blocks == 0)
        return bad(r, "a %s row needs its block count (column 'blocks', 1 or more)",
                   row->datatype);
    if (cf_datatype_derived(row->datatype) && strcmp(row->datatype, "struct") != 0 &&
        (double)row->blocks * 4 > (double)row->bytes)
        return bad(r, "%d blocks cannot lay out %llu B of %s: a block holds one 4-byte float "
                   "at least",
                   row->blocks, (unsigned long long)row->bytes, row->datatype);
    row->line = r->line > 0 && (unsigned long)r->line <= UINT_MAX ? (unsigned)r->line : 0;
    /* A row refused here is not kept; its extra values, if kept, go with the table. */
    if (check_group(r, row) != 0)
        return CF_EXIT_DATA;
    r->t->n_rows++;
    return 0;
}

/* The first line that is not a comment is the header when one of its fields is
 * "pattern"; otherwise the header is missing (a data line, or another format). */
static int has_pattern_field(const char *s, size_t n)
{
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || s[i] == ',') {
            if (i - start == 7 && memcmp(s + start, "pattern", 7) == 0)
                return 1;
            start = i + 1;
        }
    }
    return 0;
}

/* One line of a table (without its newline): metadata, the header or a row. nul: the
 * line may hold a NUL byte. */
static int reader_line(reader *r, const char *s, size_t n, int nul)
{
    r->line++;
    if (r->line == 1 && n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
        /* The byte order mark of "CSV UTF-8" (Excel) */
        s += 3;
        n -= 3;
    }
    if (n > 0 && s[n - 1] == '\r')
        n--;
    if (nul && memchr(s, '\0', n) != NULL)
        return bad(r, "unexpected NUL byte: this is not a text table");
    if (n == 0)
        return 0;
    if (s[0] == '#')
        return meta_line(r, s, n);
    if (r->have_header) {
        int rc = data_line(r, s, n);
        /* Every line commfit writes ends with a newline: a last row without one was cut
         * where a field still read (a stride of 16 cut to 1), or the file ends there by
         * hand. A row that does not read says its own error first. */
        if (rc == 0 && r->unterminated)
            return bad(r, "the last row has no end of line: " CUT_SHORT_HINT
                          "; end the line if the row is whole)");
        return rc;
    }
    if (!has_pattern_field(s, n)) {
        /* What the file likely is, where that is plain: a model file, a benchmark's output. */
        size_t i = 0;
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        const char *hint = "";
        if (i < n && (s[i] == '{' || s[i] == '['))
            hint = " (this is JSON: a model file is read by predict and report with -m)";
        else if (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '#'))
            hint = " (an IMB or OSU output? 'commfit import imb FILE' or 'commfit import osu "
                   "FILE' makes a table of it)";
        return bad(r, "missing header: expected a line starting '%s,%s,%s,...'%s",
                   cf_table_columns[0], cf_table_columns[1], cf_table_columns[2], hint);
    }
    r->have_header = 1;
    return header_line(r, s, n);
}

/* Every complete line of buf; returns how many bytes were used (up to the last
 * newline, or all of it at the end of the input). */
static int reader_lines(reader *r, const char *buf, size_t len, int at_end, size_t *used)
{
    size_t pos = 0;
    int rc = 0, nul = memchr(buf, '\0', len) != NULL; /* one look for the whole buffer */
    while (pos < len && rc == 0) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        if (nl == NULL && !at_end)
            break;
        size_t end = nl ? (size_t)(nl - buf) : len;
        if (end - pos > CF_LINE_MAX_BYTES) {
            rc = cf_long_line_error(r->e, r->name, r->line + 1);
            break;
        }
        r->unterminated = nl == NULL;
        rc = reader_line(r, buf + pos, end - pos, nul);
        pos = end + 1;
    }
    *used = pos > len ? len : pos;
    return rc;
}

static int reader_start(reader *r, const char *name, size_t rows_hint, cf_error *e)
{
    memset(r, 0, sizeof *r);
    r->name = name;
    r->e = e;
    r->t = cf_table_alloc();
    if (r->t == NULL || cf_table_reserve(r->t, rows_hint) != 0)
        return cf_error_set(e, CF_EXIT_DATA, name, 0, "out of memory");
    return 0;
}

static int reader_finish(reader *r, int rc, size_t len, cf_table **out)
{
    if (rc == 0 && !r->have_header) {
        r->line = 0;
        rc = bad(r, len == 0 ? "empty file: expected a timing table"
                             : "missing header: expected a line starting 'pattern,np,bytes,...'");
    }
    free(r->f);
    free(r->extra_idx);
    free(r->kind);
    free(r->groups);
    if (rc != 0) {
        cf_table_free(r->t);
        return rc;
    }
    *out = r->t;
    return 0;
}

int cf_table_read_mem(const char *buf, size_t len, const char *name, cf_table **out,
                      cf_error *e)
{
    reader r;
    size_t lines = 1, used;
    for (const char *p = buf; (p = memchr(p, '\n', (size_t)(buf + len - p))) != NULL; p++)
        lines++;
    int rc = reader_start(&r, name, lines, e);
    if (rc == 0)
        rc = reader_lines(&r, buf, len, 1, &used);
    return reader_finish(&r, rc, len, out);
}

int cf_table_read_fp(FILE *fp, const char *name, cf_table **out, cf_error *e)
{
    /* Streamed through a small buffer that stays in cache, rather than read whole:
     * on a virtual machine, faulting in pages for a copy of the file costs more than
     * parsing it. Rows are reserved from the file size (a row is at least ~40 bytes;
     * reserved but untouched memory costs nothing). */
    struct stat st;
    size_t hint = 64;
    if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        hint = (size_t)st.st_size / 40 + 64;
    reader r;
    int rc = reader_start(&r, name, hint, e);
    /* Room for the longest line a table may have and its newline. */
    size_t cap = CF_LINE_MAX_BYTES + 2, len = 0, total = 0;
    char *buf = rc == 0 ? malloc(cap) : NULL;
    if (rc == 0 && buf == NULL)
        rc = cf_error_set(e, CF_EXIT_DATA, name, 0, "out of memory");
    while (rc == 0) {
        if (len == cap) {
            /* Full, and not one line ended in it. */
            rc = cf_long_line_error(e, name, r.line + 1);
            break;
        }
        size_t got = fread(buf + len, 1, cap - len, fp), used;
        len += got;
        total += got;
        if (got == 0 && ferror(fp)) {
            rc = cf_error_set(e, CF_EXIT_DATA, name, 0, "cannot read: %s", strerror(errno));
            break;
        }
        rc = reader_lines(&r, buf, len, got == 0, &used);
        memmove(buf, buf + used, len - used);
        len -= used;
        if (got == 0)
            break;
    }
    free(buf);
    return reader_finish(&r, rc, total, out);
}

int cf_table_read(const char *path, cf_table **out, cf_error *e)
{
    if (strcmp(path, "-") == 0)
        return cf_table_read_fp(stdin, "<stdin>", out, e);
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot open: %s", strerror(errno));
    int rc = cf_table_read_fp(fp, path, out, e);
    fclose(fp);
    return rc;
}
