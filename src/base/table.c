/* Reading and writing the timing table. The reader is strict about everything but extra
 * columns and metadata keys, and fast: a million rows parse in a fraction of a second. */
#include "config.h"

#include "base/table.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/outfile.h"
#include "base/size.h"

const char *const cf_table_columns[CF_TABLE_NCOLS] = {
    "pattern", "np",       "bytes",    "datatype", "blocks",   "reps",     "samples",
    "t_min_us", "t_avg_us", "t_max_us", "t_med_us", "t_ci95_us", "bw_MiBps",
};

enum { C_PATTERN, C_NP, C_BYTES, C_DATATYPE, C_BLOCKS, C_REPS, C_SAMPLES,
       C_TMIN, C_TAVG, C_TMAX, C_TMED, C_TCI, C_BW };

/* The rows' extra values live in blocks that the table owns rather than in a malloc'd
 * string each: a million rows are a million allocations less, and rows whose values
 * equal the previous row's (all the rows of an imported run share one source) share one
 * string, which keeps large tables small. */
struct cf_strings {
    struct cf_strings *next;
    size_t used, cap;
    char text[];
};

#define STRINGS_BLOCK ((size_t)64 << 10)

/* Room for n bytes in the newest block; strings_keep(t, k) then keeps the first k. */
static char *strings_room(cf_table *t, size_t n)
{
    struct cf_strings *b = t->strings;
    if (b == NULL || b->cap - b->used < n) {
        size_t cap = n > STRINGS_BLOCK ? n : STRINGS_BLOCK;
        if ((b = malloc(sizeof *b + cap)) == NULL)
            return NULL;
        b->used = 0;
        b->cap = cap;
        b->next = t->strings;
        t->strings = b;
    }
    return b->text + b->used;
}

static void strings_keep(cf_table *t, size_t k)
{
    t->strings->used += k;
}

cf_table *cf_table_alloc(void)
{
    return calloc(1, sizeof(cf_table));
}

void cf_table_free(cf_table *t)
{
    if (t == NULL)
        return;
    for (size_t i = 0; i < t->n_meta; i++) {
        free(t->meta[i].key);
        free(t->meta[i].value);
    }
    free(t->meta);
    for (size_t i = 0; i < t->n_extra; i++)
        free(t->extra_names[i]);
    free(t->extra_names);
    free(t->rows);
    for (struct cf_strings *b = t->strings, *next; b != NULL; b = next) {
        next = b->next;
        free(b);
    }
    free(t);
}

static char *dup_oneline(const char *s)
{
    char *d = strdup(s);
    if (d != NULL)
        for (char *p = d; *p; p++)
            if (*p == '\n' || *p == '\r')
                *p = ' ';
    return d;
}

int cf_table_meta_set(cf_table *t, const char *key, const char *value)
{
    char *v = dup_oneline(value);
    if (v == NULL)
        return -1;
    for (size_t i = 0; i < t->n_meta; i++) {
        if (strcmp(t->meta[i].key, key) == 0) {
            free(t->meta[i].value);
            t->meta[i].value = v;
            return 0;
        }
    }
    if (t->n_meta == t->cap_meta) {
        size_t nc = t->cap_meta ? t->cap_meta * 2 : 16;
        cf_meta *nm = realloc(t->meta, nc * sizeof *nm);
        if (nm == NULL) {
            free(v);
            return -1;
        }
        t->meta = nm;
        t->cap_meta = nc;
    }
    char *k = dup_oneline(key);
    if (k == NULL) {
        free(v);
        return -1;
    }
    t->meta[t->n_meta].key = k;
    t->meta[t->n_meta].value = v;
    t->n_meta++;
    return 0;
}

const char *cf_table_meta_get(const cf_table *t, const char *key)
{
    for (size_t i = 0; i < t->n_meta; i++)
        if (strcmp(t->meta[i].key, key) == 0)
            return t->meta[i].value;
    return NULL;
}

int cf_table_set_extra(cf_table *t, const char *const *names, size_t n)
{
    char **v = calloc(n ? n : 1, sizeof *v);
    if (v == NULL)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if ((v[i] = strdup(names[i])) == NULL) {
            for (size_t j = 0; j < i; j++)
                free(v[j]);
            free(v);
            return -1;
        }
    }
    for (size_t i = 0; i < t->n_extra; i++)
        free(t->extra_names[i]);
    free(t->extra_names);
    t->extra_names = v;
    t->n_extra = n;
    return 0;
}

void cf_row_init(cf_row *r)
{
    memset(r, 0, sizeof *r);
    r->t_med_us = NAN;
    r->t_ci95_us = NAN;
    r->bw_MiBps = NAN;
}

/* The characters of names, for a look-up per character. */
static const unsigned char name_chars[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
    ['8'] = 1, ['9'] = 1, ['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1,
    ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1,
    ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1,
    ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};

static int name_char(char c)
{
    return name_chars[(unsigned char)c];
}

int cf_name_valid(const char *s)
{
    if (*s == '\0')
        return 0;
    for (; *s; s++)
        if (!name_char(*s))
            return 0;
    return 1;
}

static int times_ordered(const cf_row *r)
{
    /* Allow the rounding of printed values (IMB prints two decimals). */
    double slack = 1e-9 * r->t_max_us + 0.005;
    return !(r->t_min_us > r->t_avg_us + slack || r->t_avg_us > r->t_max_us + slack);
}

int cf_datatype_derived(const char *name)
{
    static const char *const names[] = {"contiguous", "vector", "hvector", "indexed",
                                        "hindexed",   "struct", "pack"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    return strncmp(name, "pack_", 5) == 0;
}

/* Everything cf_row_check asks of a row but its names, as one test without messages: the
 * common case, valid rows, is decided in a few comparisons. (x > 0 && x < INFINITY is
 * isfinite(x) && x > 0: NaN fails every comparison.) */
int cf_row_values_ok(const cf_row *r)
{
    const double lo = CF_TIME_MIN_US, hi = CF_TIME_MAX_US;
    return r->np >= 1 && r->np <= CF_TABLE_NP_MAX && r->bytes <= CF_BYTES_MAX && r->blocks >= 0 &&
           r->reps >= 0 && r->samples >= 0 && r->t_min_us >= lo && r->t_min_us <= hi &&
           r->t_avg_us >= lo && r->t_avg_us <= hi && r->t_max_us >= lo && r->t_max_us <= hi &&
           (isnan(r->t_med_us) || (r->t_med_us >= lo && r->t_med_us <= hi)) &&
           times_ordered(r) &&
           (isnan(r->t_ci95_us) || (r->t_ci95_us >= 0 && r->t_ci95_us <= hi)) &&
           (isnan(r->bw_MiBps) || (r->bw_MiBps >= 0 && r->bw_MiBps < INFINITY));
}

int cf_row_check(const cf_row *r, char *why, size_t n)
{
    if (cf_name_valid(r->pattern) && cf_name_valid(r->datatype) && cf_row_values_ok(r))
        return 0;
    /* Something is wrong: find the first thing, in the order the messages promise. */
    if (!cf_name_valid(r->pattern))
        return snprintf(why, n, "pattern '%s': expected lower-case letters, digits and '_'",
                        r->pattern),
               -1;
    if (!cf_name_valid(r->datatype))
        return snprintf(why, n, "datatype '%s': expected lower-case letters, digits and '_'",
                        r->datatype),
               -1;
    if (r->np < 1 || r->np > CF_TABLE_NP_MAX)
        return snprintf(why, n, "np %d out of range: expected 1 to %d", r->np, CF_TABLE_NP_MAX),
               -1;
    if (r->bytes > CF_BYTES_MAX)
        return snprintf(why, n, "bytes %llu out of range: expected at most %llu (1 TiB)",
                        (unsigned long long)r->bytes, (unsigned long long)CF_BYTES_MAX),
               -1;
    if (r->blocks < 0 || r->reps < 0 || r->samples < 0)
        return snprintf(why, n, "blocks, reps and samples must not be negative"), -1;
    const struct {
        const char *name;
        double v;
        int optional;
    } ts[] = {{"t_min_us", r->t_min_us, 0}, {"t_avg_us", r->t_avg_us, 0},
              {"t_max_us", r->t_max_us, 0}, {"t_med_us", r->t_med_us, 1}};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        if (ts[i].optional && isnan(ts[i].v))
            continue;
        if (!isfinite(ts[i].v) || ts[i].v <= 0)
            return snprintf(why, n, "%s %g: expected a positive, finite time", ts[i].name,
                            ts[i].v),
                   -1;
        if (ts[i].v < CF_TIME_MIN_US || ts[i].v > CF_TIME_MAX_US)
            return snprintf(why, n, "%s '%g' outside the physical range: expected %g to %g us",
                            ts[i].name, ts[i].v, CF_TIME_MIN_US, CF_TIME_MAX_US),
                   -1;
    }
    if (!times_ordered(r))
        return snprintf(why, n, "expected t_min_us <= t_avg_us <= t_max_us, got %g, %g, %g",
                        r->t_min_us, r->t_avg_us, r->t_max_us),
               -1;
    if (!isnan(r->t_ci95_us) && (!isfinite(r->t_ci95_us) || r->t_ci95_us < 0))
        return snprintf(why, n, "t_ci95_us %g: expected a finite value >= 0", r->t_ci95_us), -1;
    if (!isnan(r->t_ci95_us) && r->t_ci95_us > CF_TIME_MAX_US)
        return snprintf(why, n, "t_ci95_us '%g' outside the physical range: expected at most %g us",
                        r->t_ci95_us, CF_TIME_MAX_US),
               -1;
    if (!isnan(r->bw_MiBps) && (!isfinite(r->bw_MiBps) || r->bw_MiBps < 0))
        return snprintf(why, n, "bw_MiBps %g: expected a finite value >= 0", r->bw_MiBps), -1;
    return 0;
}

/* Rows stay on ordinary pages, grown by realloc (which moves large blocks by remapping
 * them, not by copying). Transparent huge pages were tried: on the virtual machines
 * commfit is measured on, faulting in huge pages the host has to back anew costs three to
 * four times what small pages cost (0.4-0.5 s against 0.1-0.15 s of system time for the
 * 144 MB of a million rows); they win only on memory freed moments before. */
static int reserve(cf_table *t, size_t n)
{
    if (n <= t->cap_rows)
        return 0;
    if (n > SIZE_MAX / sizeof(cf_row))
        return -1;
    cf_row *nr = realloc(t->rows, n * sizeof(cf_row));
    if (nr == NULL)
        return -1;
    t->rows = nr;
    t->cap_rows = n;
    return 0;
}

int cf_table_reserve(cf_table *t, size_t n)
{
    return reserve(t, n);
}

/* extra as a string of the table: the previous row's when equal, else a copy. */
static char *table_string(cf_table *t, const char *extra)
{
    char *prev = t->n_rows > 0 ? t->rows[t->n_rows - 1].extra : NULL;
    if (prev != NULL && (prev == extra || strcmp(prev, extra) == 0))
        return prev;
    size_t n = strlen(extra) + 1;
    char *x = strings_room(t, n);
    if (x != NULL) {
        memcpy(x, extra, n);
        strings_keep(t, n);
    }
    return x;
}

int cf_table_add_written(cf_table *t, size_t n, const char *extra)
{
    char *x = NULL;
    if (n == 0)
        return 0;
    if (extra != NULL && (x = table_string(t, extra)) == NULL)
        return -1;
    for (size_t i = 0; i < n; i++)
        t->rows[t->n_rows + i].extra = x;
    t->n_rows += n;
    return 0;
}

int cf_table_add(cf_table *t, const cf_row *r)
{
    if (t->n_rows == t->cap_rows && reserve(t, t->cap_rows ? t->cap_rows * 2 : 64) != 0)
        return -1;
    cf_row *d = &t->rows[t->n_rows];
    *d = *r;
    if (r->extra != NULL && (d->extra = table_string(t, r->extra)) == NULL)
        return -1;
    t->n_rows++;
    return 0;
}

/* ---- reading ---- */

typedef struct field {
    const char *s;
    size_t n;
} field;

static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Strict decimal number: [+-]digits[.digits][e[+-]digits]. Exact fast path when the
 * mantissa fits 15 digits and the power of ten is exactly representable (Clinger);
 * strtod otherwise. Returns -1 on anything else, NaN and infinity included. */
static int parse_double(const char *s, size_t n, double *out)
{
    size_t i = 0;
    int neg = 0, digits = 0, frac = 0, sig = 0;
    uint64_t m = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++)
        if (m != 0 || s[i] != '0') {
            if (sig < 19)
                m = m * 10 + (uint64_t)(s[i] - '0');
            else
                frac--; /* digit dropped from the fast path: forces strtod below */
            sig++;
        }
    if (i < n && s[i] == '.') {
        i++;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
            if (m != 0 || s[i] != '0') {
                if (sig < 19)
                    m = m * 10 + (uint64_t)(s[i] - '0');
                sig++;
            }
            frac++;
        }
    }
    if (digits == 0)
        return -1;
    int e = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int eneg = 0, ed = 0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            eneg = s[i++] == '-';
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, ed++)
            if (e < 100000)
                e = e * 10 + (s[i] - '0');
        if (ed == 0)
            return -1;
        if (eneg)
            e = -e;
    }
    if (i != n)
        return -1;
    int p10 = e - frac;
    double v;
    if (sig <= 15 && p10 >= -22 && p10 <= 22) {
        v = (double)m;
        v = p10 < 0 ? v / pow10_exact[-p10] : v * pow10_exact[p10];
    } else {
        char buf[128];
        if (n >= sizeof buf)
            return -1;
        memcpy(buf, s, n);
        buf[n] = '\0';
        errno = 0;
        v = fabs(strtod(buf, NULL)); /* the magnitude: the sign is applied below */
    }
    if (!isfinite(v))
        return -1;
    *out = neg ? -v : v;
    return 0;
}

static int parse_u64(const char *s, size_t n, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        if (v > (max - (uint64_t)(s[i] - '0')) / 10)
            return -2;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return 0;
}

typedef struct reader {
    const char *name;
    long line;
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
    if (key == NULL || val == NULL || cf_table_meta_set(r->t, key, val) != 0)
        rc = bad(r, "out of memory");
    else if (strcmp(key, "schema") == 0) {
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
    r->source_idx = r->layout_idx = -1;
    for (int i = 0; i < nextra && rc == 0; i++) {
        if (strcmp(extra[i], "source") == 0)
            r->source_idx = i;
        if (strcmp(extra[i], "ddt_layout") == 0)
            r->layout_idx = i;
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
    int rc = parse_u64(f.s, f.n, max, v);
    if (rc == -2)
        return bad(r, "column '%s': '%.*s' is too large (at most %llu)", cf_table_columns[c],
                   (int)f.n, f.s, (unsigned long long)max);
    if (rc != 0)
        return bad(r, "column '%s': expected a non-negative integer, got '%.*s'",
                   cf_table_columns[c], (int)f.n, f.s);
    return 0;
}

static int get_double(reader *r, int c, int optional, double *v)
{
    field f = r->f[r->col_of[c]];
    if (f.n == 0 && optional) {
        *v = NAN;
        return 0;
    }
    if (parse_double(f.s, f.n, v) != 0)
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

static int is_digit(char c)
{
    return (unsigned)(c - '0') < 10;
}

const char *cf_scan_exponent(const char *p, const char *end, long *e)
{
    long x = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        int neg = 0;
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            neg = *p++ == '-';
        const char *e0 = p;
        for (; p < end && is_digit(*p); p++)
            if (x < 100000)
                x = x * 10 + (*p - '0');
        if (p == e0)
            return NULL;
        if (neg)
            x = -x;
    }
    *e = x;
    return p;
}

/* The digits at p appended to *m (which may wrap: callers count the digits); returns where
 * they end. */
static const char *digit_run(const char *p, const char *end, uint64_t *m)
{
    uint64_t x = *m;
    while (p < end && is_digit(*p))
        x = x * 10 + (uint64_t)(*p++ - '0');
    *m = x;
    return p;
}

/* A name of [a-z0-9_] copied into dst (cap bytes with its NUL); returns its end. */
static const char *scan_name(const char *p, const char *end, char *dst, size_t cap)
{
    const char *p0 = p;
    while (p < end && name_char(*p))
        p++;
    size_t n = (size_t)(p - p0);
    if (n == 0 || n >= cap)
        return NULL;
    memcpy(dst, p0, n);
    dst[n] = '\0';
    return p;
}

/* Digits, at most max; as parse_u64, but 19 digits at most (no overflow to check). */
static const char *scan_u64(const char *p, const char *end, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    const char *q = digit_run(p, end, &v);
    if (q == p || q - p > 19 || v > max)
        return NULL;
    *out = v;
    return q;
}

/* parse_double's grammar, read up to the first character that cannot continue it, when
 * the value is exact in the fast path (Clinger): at most 15 significant digits and a
 * power of ten within 10^22. Anything that needs strtod goes to the careful path. */
static const char *scan_double(const char *p, const char *end, double *out)
{
    int neg = 0;
    if (p < end && (*p == '+' || *p == '-'))
        neg = *p++ == '-';
    const char *d0 = p;
    while (p < end && *p == '0')
        p++;
    const char *s0 = p; /* the first significant digit, if in the integer part */
    uint64_t m = 0;
    p = digit_run(p, end, &m);
    long sig = p - s0, digits = p - d0, frac = 0;
    if (p < end && *p == '.') {
        const char *f0 = ++p;
        if (sig == 0)
            while (p < end && *p == '0')
                p++;
        const char *f1 = p;
        p = digit_run(p, end, &m);
        frac = p - f0;
        sig += p - f1;
        digits += frac;
    }
    if (digits == 0 || sig > 15) /* beyond 15 digits, m may have wrapped: strtod reads it */
        return NULL;
    long e = 0;
    if ((p = cf_scan_exponent(p, end, &e)) == NULL)
        return NULL;
    long p10 = e - frac;
    if (p10 < -22 || p10 > 22)
        return NULL;
    double v = (double)m;
    v = p10 < 0 ? v / pow10_exact[-p10] : v * pow10_exact[p10];
    *out = neg ? -v : v;
    return p;
}

/* The row's extra values, comma-joined in x (len bytes with the NUL), are kept in the
 * table, or the previous row's string is shared when they are equal. */
static const char *keep_extra(reader *r, char *x, size_t len)
{
    if (r->last_extra != NULL && r->last_extra_len == len && memcmp(r->last_extra, x, len) == 0)
        return r->last_extra;
    strings_keep(r->t, len);
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
    if (r->t->n_extra > 0 && (x = xp = strings_room(r->t, n + 1)) == NULL)
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
            p = scan_u64(p, end, CF_TABLE_NP_MAX, &u);
            row->np = (int)u;
            break;
        case C_BYTES:
            p = scan_u64(p, end, CF_BYTES_MAX, &row->bytes);
            break;
        case C_BLOCKS:
            if (!empty)
                p = scan_u64(p, end, INT32_MAX, &u), row->blocks = (int)u;
            break;
        case C_REPS:
            if (!empty)
                p = scan_u64(p, end, INT64_MAX / 2, &u), row->reps = (long)u;
            break;
        case C_SAMPLES:
            if (!empty)
                p = scan_u64(p, end, INT32_MAX, &u), row->samples = (int)u;
            break;
        case C_TMIN:
            p = scan_double(p, end, &row->t_min_us);
            break;
        case C_TAVG:
            p = scan_double(p, end, &row->t_avg_us);
            break;
        case C_TMAX:
            p = scan_double(p, end, &row->t_max_us);
            break;
        case C_TMED:
            if (!empty)
                p = scan_double(p, end, &row->t_med_us);
            break;
        case C_TCI:
            if (!empty)
                p = scan_double(p, end, &row->t_ci95_us);
            break;
        case C_BW:
            if (!empty)
                p = scan_double(p, end, &row->bw_MiBps);
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

/* Field k of a row's comma-joined extra values ("" when absent). */
static const char *extra_field(const char *extra, int k, size_t *len)
{
    if (extra == NULL || k < 0) {
        *len = 0;
        return "";
    }
    for (; k > 0; k--) {
        const char *c = strchr(extra, ',');
        if (c == NULL) {
            *len = 0;
            return "";
        }
        extra = c + 1;
    }
    const char *c = strchr(extra, ',');
    *len = c ? (size_t)(c - extra) : strlen(extra);
    return extra;
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

/* The careful path: every field checked in turn, with its message. */
static int row_careful(reader *r, const char *s, size_t n, cf_row *row)
{
    int nf = split(s, n, r->f, r->nfields);
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
    if (get_int(r, C_REPS, INT64_MAX / 2, 1, &u))
        return CF_EXIT_DATA;
    row->reps = (long)u;
    if (get_int(r, C_SAMPLES, INT32_MAX, 1, &u))
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
        char *x = strings_room(r->t, len), *p = x;
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
    if (r->t->n_rows == r->t->cap_rows && reserve(r->t, r->t->cap_rows * 2 + 64) != 0)
        return bad(r, "out of memory");
    cf_row *row = &r->t->rows[r->t->n_rows];
    if (row_fast(r, s, n, row) != 0 && row_careful(r, s, n, row) != 0)
        return CF_EXIT_DATA;
    if (row->blocks == 1 && !cf_datatype_derived(row->datatype))
        row->blocks = 0;
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
    if (r->have_header)
        return data_line(r, s, n);
    if (!has_pattern_field(s, n))
        return bad(r, "missing header: expected a line starting '%s,%s,%s,...'",
                   cf_table_columns[0], cf_table_columns[1], cf_table_columns[2]);
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
    if (r->t == NULL || reserve(r->t, rows_hint) != 0)
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

/* ---- writing ---- */

int cf_table_write_header(FILE *fp, const cf_table *t)
{
    int has_schema = cf_table_meta_get(t, "schema") != NULL;
    if (!has_schema)
        fprintf(fp, "# schema: %s\n", CF_TABLE_SCHEMA);
    for (size_t i = 0; i < t->n_meta; i++)
        fprintf(fp, "# %s: %s\n", t->meta[i].key, t->meta[i].value);
    for (int c = 0; c < CF_TABLE_NCOLS; c++)
        fprintf(fp, c ? ",%s" : "%s", cf_table_columns[c]);
    for (size_t i = 0; i < t->n_extra; i++)
        fprintf(fp, ",%s", t->extra_names[i]);
    fputc('\n', fp);
    return ferror(fp) ? -1 : 0;
}

/* Digits are made two at a time: "00" to "99". */
static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

static void put_pair(char *d, unsigned v)
{
    memcpy(d, digit_pairs + 2 * v, 2);
}

/* The ten digits of m < 10^10, leading zeros included. */
static void ten_digits(char *d, uint64_t m)
{
    uint32_t top = (uint32_t)(m / 100000000), rest = (uint32_t)(m % 100000000);
    uint32_t a = rest / 10000, b = rest % 10000;
    put_pair(d, top);
    put_pair(d + 2, a / 100);
    put_pair(d + 4, a % 100);
    put_pair(d + 6, b / 100);
    put_pair(d + 8, b % 100);
}

/* Room a formatted number may use beyond its own characters: put_g10 copies its digits
 * ten at a time, put_row a repeated number 24 bytes at a time (printf's %.10g of any
 * double is at most 17 characters). */
#define NUM_COPY 24
#define PUT_SLACK NUM_COPY

/* "%.10g" of v at p; returns the new end. The values tables hold (positive, 1e-4 to 1e10)
 * are formatted here, digit for digit what printf gives, because printf dominated the
 * time of writing large tables; printf does the rest, and any value whose scaled digits
 * lie too close to a rounding tie for one multiplication to be sure of. Up to PUT_SLACK
 * bytes past the end may be written over. */
static char *put_g10(char *p, double v)
{
    static const double tens[] = {1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4,
                                  1e5,  1e6,  1e7,  1e8,  1e9, 1e10, 1e11, 1e12, 1e13};
    if (v >= 1e-4 && v < 1e10) {
        /* The doubles nearest 10^-k lie above 10^-k, so these comparisons are exact. */
        int ex = 0;
        if (v >= 1)
            while (ex < 9 && v >= tens[ex + 5])
                ex++;
        else
            while (v < tens[ex + 4])
                ex--;
        double x = v * tens[9 - ex + 4], fl = (double)(uint64_t)x, fr = x - fl;
        /* x carries at most half an ulp (< 1e-6) of error: far from .5 it rounds right. */
        if (fabs(fr - 0.5) > 4e-6) {
            uint64_t m = (uint64_t)fl + (fr > 0.5);
            if (m >= 10000000000u) {
                m /= 10;
                ex++;
            }
            if (ex <= 9) {
                char d[10 + PUT_SLACK];
                ten_digits(d, m);
                int nd = 10, keep = ex >= 0 ? ex + 1 : 1;
                while (nd - 4 >= keep && memcmp(d + nd - 4, "0000", 4) == 0)
                    nd -= 4;
                while (nd > keep && d[nd - 1] == '0')
                    nd--;
                /* Copies of a fixed ten bytes, then the end moved to where the digits end:
                 * cheaper than copies of the exact length. */
                if (ex >= 0) {
                    memcpy(p, d, 10);
                    p += ex + 1;
                    if (nd > ex + 1) {
                        *p++ = '.';
                        memcpy(p, d + ex + 1, 10);
                        p += nd - ex - 1;
                    }
                } else {
                    memcpy(p, "0.000", 5);
                    p += 1 - ex;
                    memcpy(p, d, 10);
                    p += nd;
                }
                return p;
            }
        }
    }
    if (v == 0) {
        /* printf's "0" and "-0" */
        memcpy(p, "-0", 2);
        return signbit(v) ? p + 2 : (*p = '0', p + 1);
    }
    return p + sprintf(p, "%.10g", v);
}

static char *put_uint(char *p, unsigned long long u)
{
    if (u < 10) {
        *p = (char)('0' + u);
        return p + 1;
    }
    if (u < 100) {
        put_pair(p, (unsigned)u);
        return p + 2;
    }
    /* The length first, then the digits from the end, two at a time. */
    int n = 1;
    for (unsigned long long t = u; t >= 10 && n < 20; t /= 10)
        n++;
    char *q = p + n;
    while (u >= 100) {
        q -= 2;
        put_pair(q, (unsigned)(u % 100));
        u /= 100;
    }
    if (u >= 10)
        put_pair(q - 2, (unsigned)u);
    else
        q[-1] = (char)('0' + u);
    return p + n;
}

static char *put_int(char *p, long long v)
{
    if (v < 0)
        *p++ = '-';
    return put_uint(p, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);
}

/* A name from its array of cap bytes: the whole array is copied (a fixed-size move, room
 * for which is in ROW_MAX), then the end set after the name. */
static char *put_str(char *p, const char *s, size_t cap)
{
    memcpy(p, s, cap);
    return p + strnlen(s, cap - 1);
}

/* The most a row's core columns take, with the slack of put_g10: the fields have bounded
 * lengths (extra columns go apart). */
#define ROW_MAX (CF_PATTERN_MAX + CF_DATATYPE_MAX + 8 * 32 + PUT_SLACK)

/* A row's 13 columns at p (no extra columns, no newline); returns the new end. */
static char *put_row(char *p, const cf_row *r)
{
    p = put_str(p, r->pattern, CF_PATTERN_MAX);
    *p++ = ',';
    p = put_int(p, r->np);
    *p++ = ',';
    p = put_uint(p, (unsigned long long)r->bytes);
    *p++ = ',';
    p = put_str(p, r->datatype, CF_DATATYPE_MAX);
    *p++ = ',';
    if (r->blocks > 0)
        p = put_int(p, r->blocks);
    *p++ = ',';
    if (r->reps > 0)
        p = put_int(p, r->reps);
    *p++ = ',';
    if (r->samples > 0)
        p = put_int(p, r->samples);
    const double v[] = {r->t_min_us, r->t_avg_us, r->t_max_us,
                        r->t_med_us, r->t_ci95_us, r->bw_MiBps};
    char *ps = NULL, *pe = NULL;
    double pv = 0;
    for (int i = 0; i < 6; i++) {
        *p++ = ',';
        if (i >= 3 && isnan(v[i]))
            continue;
        /* The times of a row are often equal: copy the digits rather than redo them. */
        char *start = p;
        if (ps != NULL && v[i] == pv && signbit(v[i]) == signbit(pv)) {
            char tmp[NUM_COPY]; /* a fixed-size copy, through tmp as the two overlap */
            memcpy(tmp, ps, sizeof tmp);
            memcpy(p, tmp, sizeof tmp);
            p += pe - ps;
        } else {
            p = put_g10(p, v[i]);
        }
        ps = start;
        pe = p;
        pv = v[i];
    }
    return p;
}

int cf_table_write_row(FILE *fp, const cf_table *t, const cf_row *r)
{
    char line[ROW_MAX], *p = put_row(line, r);
    if (t->n_extra > 0 && r->extra != NULL) {
        *p++ = ',';
        fwrite(line, 1, (size_t)(p - line), fp);
        fputs(r->extra, fp);
        p = line;
    } else {
        for (size_t i = 0; i < t->n_extra; i++) {
            if (p - line >= (ptrdiff_t)sizeof line - 1) {
                fwrite(line, 1, (size_t)(p - line), fp);
                p = line;
            }
            *p++ = ',';
        }
    }
    *p++ = '\n';
    fwrite(line, 1, (size_t)(p - line), fp);
    return ferror(fp) ? -1 : 0;
}

/* Writes out n bytes of buf. cf_table_write syncs the file when it is complete; where the
 * system allows, the disk starts on each 8 MiB as it comes rather than on all of them at
 * the end (a 100 MB table: the final fsync waits 10 ms instead of 60-100 ms). */
static int write_out(FILE *fp, const char *buf, size_t n, size_t *unsynced)
{
    if (fwrite(buf, 1, n, fp) != n)
        return -1;
    *unsynced += n;
#ifdef SYNC_FILE_RANGE_WRITE
    if (*unsynced >= (size_t)8 << 20) {
        sync_file_range(fileno(fp), 0, 0, SYNC_FILE_RANGE_WRITE);
        *unsynced = 0;
    }
#endif
    return 0;
}

/* The rows of a whole table, formatted into one large buffer that goes out in one write
 * when full: no call into stdio per row. Rows too long for it go one at a time. */
static int write_rows(FILE *fp, const cf_table *t)
{
    size_t cap = (size_t)1 << 20, unsynced = 0;
    char *buf = malloc(cap), *p = buf;
    if (buf == NULL)
        return -1;
    const char *last_x = NULL;
    size_t last_xn = 0;
    int rc = 0;
    for (size_t i = 0; i < t->n_rows && rc == 0; i++) {
        const cf_row *r = &t->rows[i];
        const char *x = t->n_extra > 0 ? r->extra : NULL;
        /* Rows of one run share their extra values (cf_table_add): measure them once. */
        size_t xn = x == NULL ? t->n_extra : x == last_x ? last_xn : strlen(x);
        if (x != NULL) {
            last_x = x;
            last_xn = xn;
        }
        if ((size_t)(buf + cap - p) < ROW_MAX + xn + 2) {
            rc = write_out(fp, buf, (size_t)(p - buf), &unsynced);
            p = buf;
            if (ROW_MAX + xn + 2 > cap) {
                rc = rc ? rc : cf_table_write_row(fp, t, r);
                continue;
            }
        }
        p = put_row(p, r);
        if (x != NULL) {
            *p++ = ',';
            memcpy(p, x, xn);
            p += xn;
        } else {
            for (size_t k = 0; k < xn; k++)
                *p++ = ',';
        }
        *p++ = '\n';
    }
    if (rc == 0)
        rc = write_out(fp, buf, (size_t)(p - buf), &unsynced);
    free(buf);
    return rc != 0 || ferror(fp) ? -1 : 0;
}

int cf_table_write(const char *path, const cf_table *t, cf_error *e)
{
    cf_outfile o;
    int rc = cf_outfile_open(&o, path, e);
    if (rc != 0)
        return rc;
    if (cf_table_write_header(o.fp, t) != 0 || write_rows(o.fp, t) != 0)
        goto fail;
    return cf_outfile_commit(&o, e);
fail:
    rc = cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot write: %s", strerror(errno));
    cf_outfile_abort(&o);
    return rc;
}
