/* The timing table in memory: rows, metadata, extra columns and the checks a row must
 * pass. Reading is in table-read.c, writing in table-write.c. */
#include "config.h"

#include "base/table.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"
#include "base/size.h"
#include "base/stats.h"
#include "base/table-int.h"

_Static_assert(sizeof(void *) != 8 || sizeof(cf_row) == 136,
               "a row is 136 bytes on 64-bit targets: no padding (table.h)");

const char *const cf_table_columns[CF_TABLE_NCOLS] = {
    "pattern", "np",       "bytes",    "datatype", "blocks",   "reps",     "samples",
    "t_min_us", "t_avg_us", "t_max_us", "t_med_us", "t_ci95_us", "bw_MiBps",
};

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

char *cf_table_strings_room(cf_table *t, size_t n)
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

void cf_table_strings_keep(cf_table *t, size_t k)
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
            t->meta[i].line = 0;
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
    t->meta[t->n_meta].line = 0;
    t->n_meta++;
    return 0;
}

long cf_table_meta_line(const cf_table *t, const char *key)
{
    for (size_t i = 0; i < t->n_meta; i++)
        if (strcmp(t->meta[i].key, key) == 0)
            return t->meta[i].line;
    return 0;
}

const char *cf_table_meta_get(const cf_table *t, const char *key)
{
    for (size_t i = 0; i < t->n_meta; i++)
        if (strcmp(t->meta[i].key, key) == 0)
            return t->meta[i].value;
    return NULL;
}

const char *cf_table_meta_overlong(const cf_table *t, size_t *len)
{
    for (size_t i = 0; i < t->n_meta; i++) {
        size_t n = strlen(t->meta[i].key) + strlen(t->meta[i].value) + 4; /* "# ", ": " */
        if (n > CF_LINE_MAX_BYTES) {
            *len = n;
            return t->meta[i].key;
        }
    }
    return NULL;
}

void cf_cpu_share_runs(const char *s, cf_share_run_fn fn, void *ctx)
{
    long r = 0;
    while (s != NULL && *s != '\0' && r < INT_MAX) {
        const char *next = strchr(s, ';');
        const char *stop = next != NULL ? next : s + strlen(s);
        const char *star = memchr(s, '*', (size_t)(stop - s));
        char *end;
        double v = strtod(s, &end);
        if (end == s || end != (star != NULL ? star : stop) || !(v >= 0 && v <= 1))
            v = NAN; /* '-', or no share */
        long n = 1;
        if (star != NULL) {
            errno = 0;
            long k = strtol(star + 1, &end, 10);
            if (end == stop && errno == 0 && k >= 1)
                n = k;
        }
        if (n > INT_MAX - r)
            n = INT_MAX - r;
        fn(r, n, v, ctx);
        r += n;
        s = next != NULL ? next + 1 : NULL;
    }
}

typedef struct share_min {
    double share;
    long rank;
} share_min;

static void take_min(long first, long n, double v, void *ctx)
{
    share_min *m = ctx;
    (void)n;
    if (isfinite(v) && (m->rank < 0 || v < m->share)) {
        m->share = v;
        m->rank = first;
    }
}

int cf_cpu_share_min(const char *s, double *share, int *rank)
{
    share_min m = {0, -1};
    cf_cpu_share_runs(s, take_min, &m);
    if (m.rank < 0)
        return -1;
    *share = m.share;
    *rank = (int)m.rank;
    return 0;
}

int cf_table_cpu_share_min(const cf_table *t, double *share, int *rank)
{
    return cf_cpu_share_min(cf_table_meta_get(t, "rank_cpu_share"), share, rank);
}

void cf_row_label_pack(const cf_table *t, cf_row *r)
{
    if (strcmp(r->datatype, "pack") != 0 || r->extra == NULL)
        return;
    for (size_t c = 0; c < t->n_extra; c++) {
        if (strcmp(t->extra_names[c], "ddt_layout") != 0)
            continue;
        char layout[CF_DATATYPE_MAX];
        cf_row_extra_copy(r->extra, c, layout, sizeof layout);
        if (layout[0] != '\0' && strcmp(layout, "pack") != 0 &&
            strlen(layout) + 5 < sizeof r->datatype)
            snprintf(r->datatype, sizeof r->datatype, "pack_%.*s", (int)(sizeof r->datatype - 6),
                     layout);
        return;
    }
}

const char *cf_table_unfinished(const cf_table *t)
{
    const char *why = cf_table_meta_get(t, "end_reason");
    if (why != NULL)
        return strcmp(why, CF_META_END_COMPLETE) == 0 ? NULL : why;
    return cf_table_meta_get(t, "commfit_revision") != NULL &&
                   cf_table_meta_get(t, "plan") != NULL
               ? ""
               : NULL;
}

int cf_table_timed_loop(const cf_table *t)
{
    const char *how = cf_table_meta_get(t, "coll_timing");
    if (how != NULL)
        return strcmp(how, CF_META_TIMING_LOOP) == 0;
    const char *cmd = cf_table_meta_get(t, "command");
    return cmd != NULL && strncmp(cmd, "commfit measure", 15) == 0;
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

int cf_row_cmp_group(const cf_row *x, const cf_row *y)
{
    int c = strcmp(x->pattern, y->pattern);
    if (c == 0)
        c = (x->np > y->np) - (x->np < y->np);
    if (c == 0)
        c = strcmp(x->datatype, y->datatype);
    return c;
}

int cf_row_cmp(const cf_row *x, const cf_row *y)
{
    int c = cf_row_cmp_group(x, y);
    if (c == 0)
        c = (x->bytes > y->bytes) - (x->bytes < y->bytes);
    if (c == 0)
        c = (x->blocks > y->blocks) - (x->blocks < y->blocks);
    return c;
}

double cf_row_time(const cf_row *r, cf_statistic s)
{
    switch (s) {
    case CF_STAT_MEDIAN:
        return r->t_med_us;
    case CF_STAT_MIN:
        return r->t_min_us;
    default:
        return r->t_avg_us;
    }
}

double cf_row_se_us(const cf_row *r)
{
    double q = r->samples >= 2 ? cf_t975(r->samples - 1) : 1.959963984540054;
    return r->t_ci95_us / q;
}

double cf_row_time_or_mean(const cf_row *r, cf_statistic s)
{
    double t = cf_row_time(r, s);
    return isnan(t) ? r->t_avg_us : t;
}

cf_statistic cf_statistic_named(const char *stat)
{
    if (strcmp(stat, "median") == 0 || strcmp(stat, "t_med_us") == 0)
        return CF_STAT_MEDIAN;
    if (strcmp(stat, "min") == 0 || strcmp(stat, "t_min_us") == 0)
        return CF_STAT_MIN;
    return CF_STAT_MEAN;
}

double cf_row_time_named(const cf_row *r, const char *stat)
{
    return cf_row_time_or_mean(r, cf_statistic_named(stat));
}

const char *cf_row_extra_field(const char *extra, size_t k, size_t *len)
{
    *len = 0;
    if (extra == NULL)
        return "";
    for (; k > 0; k--) {
        const char *c = strchr(extra, ',');
        if (c == NULL)
            return "";
        extra = c + 1;
    }
    *len = strcspn(extra, ",");
    return extra;
}

void cf_row_extra_copy(const char *extra, size_t k, char *buf, size_t n)
{
    size_t len;
    const char *f = cf_row_extra_field(extra, k, &len);
    if (len >= n)
        len = n - 1;
    memcpy(buf, f, len);
    buf[len] = '\0';
}

/* The characters of names, for a look-up per character. */
const unsigned char cf_table_name_chars[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
    ['8'] = 1, ['9'] = 1, ['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1,
    ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1,
    ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1,
    ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};

int cf_name_valid(const char *s)
{
    if (*s == '\0')
        return 0;
    for (; *s; s++)
        if (!cf_table_name_char(*s))
            return 0;
    return 1;
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

static int times_ordered(const cf_row *r)
{
    /* Allow the rounding of printed values (IMB prints two decimals). */
    double slack = 1e-9 * r->t_max_us + 0.005;
    return !(r->t_min_us > r->t_avg_us + slack || r->t_avg_us > r->t_max_us + slack);
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
    char *x = cf_table_strings_room(t, n);
    if (x != NULL) {
        memcpy(x, extra, n);
        cf_table_strings_keep(t, n);
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

