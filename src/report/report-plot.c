/* The plots a timing table supports, each kind in a file of its own (report-plot-*.c):
 * here, what they share (which rows are which, choosing and ordering rows) and the list
 * of all of them, in the page's order. */
#include "config.h"

#include "report/report-plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const ddt_names[] = {"vector", "hvector",    "indexed", "hindexed",
                                        "struct", "contiguous", "pack"};

int cf_report_is_ddt(const cf_row *r)
{
    if (r->blocks > 0 || cf_report_is_pack(r->datatype))
        return 1;
    for (size_t i = 0; i < sizeof ddt_names / sizeof ddt_names[0]; i++)
        if (strcmp(r->datatype, ddt_names[i]) == 0)
            return 1;
    return 0;
}

int cf_report_is_pack(const char *datatype)
{
    return strcmp(datatype, "pack") == 0 || strncmp(datatype, "pack_", 5) == 0;
}

int cf_report_is_p2p(const cf_row *r)
{
    return !isnan(r->bw_MiBps) && !cf_report_is_ddt(r);
}

size_t cf_report_spread(const uint64_t *v, size_t n, size_t k, uint64_t *out)
{
    if (n <= k) {
        memcpy(out, v, n * sizeof *v);
        return n;
    }
    if (k == 1) {
        out[0] = v[n - 1];
        return 1;
    }
    /* Zero has no place on a log scale and its curve would lie on the next size's. */
    size_t m = 0, first = v[0] == 0;
    double lo = log((double)v[first]), hi = log((double)v[n - 1]);
    for (size_t j = 0; j < k; j++) {
        double want = lo + (hi - lo) * (double)j / (double)(k - 1);
        size_t best = first;
        for (size_t i = first; i < n; i++)
            if (fabs(log((double)v[i]) - want) < fabs(log((double)v[best]) - want))
                best = i;
        if (m == 0 || out[m - 1] != v[best])
            out[m++] = v[best];
    }
    return m;
}

static const cf_table *sort_table;

static int cmp_rows(const void *a, const void *b)
{
    const cf_row *x = &sort_table->rows[*(const size_t *)a];
    const cf_row *y = &sort_table->rows[*(const size_t *)b];
    if (x->np != y->np)
        return x->np < y->np ? -1 : 1;
    if (x->blocks != y->blocks)
        return x->blocks < y->blocks ? -1 : 1;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? -1 : 1;
    int c = strcmp(x->datatype, y->datatype);
    if (c != 0)
        return c;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Rows of pattern (and datatype, when not NULL) that are derived-datatype rows or not. */
int cf_sel_rows(const cf_table *t, const char *pattern, const char *datatype, int ddt,
                       cf_sel *s, cf_error *e)
{
    s->t = t;
    s->n = 0;
    s->idx = malloc((t->n_rows ? t->n_rows : 1) * sizeof *s->idx);
    if (s->idx == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    for (size_t i = 0; i < t->n_rows; i++) {
        const cf_row *r = &t->rows[i];
        if (strcmp(r->pattern, pattern) != 0 || cf_report_is_ddt(r) != ddt)
            continue;
        if (datatype != NULL && strcmp(r->datatype, datatype) != 0)
            continue;
        s->idx[s->n++] = i;
    }
    sort_table = t;
    qsort(s->idx, s->n, sizeof *s->idx, cmp_rows);
    return 0;
}

const cf_row *cf_sel_row(const cf_sel *s, size_t i)
{
    return &s->t->rows[s->idx[i]];
}

int cf_plot_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether the selection holds a point more than once (an imported table with several
 * runs): lines through its points would zigzag between the runs. */
int cf_sel_repeated(const cf_sel *s)
{
    for (size_t i = 1; i < s->n; i++) {
        const cf_row *a = cf_sel_row(s, i - 1), *b = cf_sel_row(s, i);
        if (a->np == b->np && a->blocks == b->blocks && a->bytes == b->bytes &&
            strcmp(a->datatype, b->datatype) == 0)
            return 1;
    }
    return 0;
}

/* Distinct values of one field over the selection: 'n' np, 'b' blocks, 'm' bytes. Sorted
 * rather than searched, so that a million rows of 40,000 process counts cost n log n. */
size_t cf_sel_distinct(const cf_sel *s, char field, uint64_t *out)
{
    for (size_t i = 0; i < s->n; i++) {
        const cf_row *r = cf_sel_row(s, i);
        out[i] = field == 'n' ? (uint64_t)r->np : field == 'b' ? (uint64_t)r->blocks : r->bytes;
    }
    qsort(out, s->n, sizeof *out, cf_plot_cmp_u64);
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++)
        if (k == 0 || out[k - 1] != out[i])
            out[k++] = out[i];
    return k;
}

/* The end of the run of rows from i on that share row i's np: the selection is sorted by
 * np first, so each process count's rows are one run, visited once per plot. */
size_t cf_sel_np_end(const cf_sel *s, size_t i)
{
    size_t j = i;
    while (j < s->n && cf_sel_row(s, j)->np == cf_sel_row(s, i)->np)
        j++;
    return j;
}

/* The first row whose np is at least np, by bisection. */
size_t cf_sel_np_find(const cf_sel *s, uint64_t np)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uint64_t)cf_sel_row(s, mid)->np < np)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The first row from i on whose np is at least np. */
size_t cf_sel_np_start(const cf_sel *s, size_t i, uint64_t np)
{
    while (i < s->n && (uint64_t)cf_sel_row(s, i)->np < np)
        i++;
    return i;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

int cf_plot_names_collect(const cf_table *t, int ddt, const char *pattern, cf_plot_names *out, cf_error *e)
{
    out->n = 0;
    out->v = malloc((t->n_rows ? t->n_rows : 1) * sizeof *out->v);
    if (out->v == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    for (size_t i = 0; i < t->n_rows; i++) {
        const cf_row *r = &t->rows[i];
        if (cf_report_is_ddt(r) != ddt)
            continue;
        if (pattern != NULL && strcmp(r->pattern, pattern) != 0)
            continue;
        const char *name = pattern ? r->datatype : r->pattern;
        int seen = 0;
        for (size_t j = 0; j < out->n && !seen; j++)
            seen = strcmp(out->v[j], name) == 0;
        if (!seen)
            snprintf(out->v[out->n++], CF_PATTERN_MAX, "%s", name);
    }
    qsort(out->v, out->n, sizeof *out->v, cmp_name);
    return 0;
}

/* A data block's bounds for a time and its 95% half-width; a bar that would reach zero
 * stops at a hundredth of the value, so the log scale can draw it. */
void cf_plot_time_bounds(const cf_report *r, const cf_row *x, double *t, double *lo, double *hi)
{
    *t = cf_report_row_time(r, x);
    double ci = isnan(x->t_ci95_us) ? 0 : x->t_ci95_us;
    *lo = *t - ci > 0 ? *t - ci : *t / 100;
    *hi = *t + ci;
}

const char *cf_plot_points_note(const cf_report *r)
{
    static const char *const names[] = {"Points are the median over the samples",
                                        "Points are the mean across ranks",
                                        "Points are the minimum across ranks"};
    if (r->stat >= 0 && r->stat < 3)
        return names[r->stat];
    return "Points are the median over the samples (the mean across ranks where the median "
           "is unknown)";
}

/* The key entry of a fitted curve: "np=2 piecewise fit: T(m) = ...", a piecewise
 * formula one segment a line, so that the key stays as wide as the plot. */
void cf_plot_fit_title(char *buf, size_t n, const char *who, const cf_fit *f)
{
    int k = snprintf(buf, n, "%s%s%s fit: ", who, *who ? " " : "", f->model);
    for (const char *p = f->formula; *p && k > 0 && (size_t)k + 8 < n; p++) {
        if (p[0] == ';' && p[1] == ' ') {
            k += snprintf(buf + k, n - (size_t)k, ";\n      ");
            p++;
        } else {
            buf[k++] = *p;
            buf[k] = '\0';
        }
    }
}

int cf_report_plots_table(cf_report *r, cf_error *e)
{
    cf_plot_names pats = {NULL, 0}, dts = {NULL, 0}, ddt_pats = {NULL, 0};
    int rc = cf_plot_names_collect(r->table, 0, NULL, &pats, e);
    if (rc == 0)
        rc = cf_plot_names_collect(r->table, 1, NULL, &ddt_pats, e);
    /* Each kind of plot in turn, so that the page can keep the list in order. */
    for (int kind = 0; kind < 4 && rc == 0; kind++) {
        if (kind == 3 && r->ms == NULL)
            break;
        for (size_t i = 0; i < pats.n && rc == 0; i++) {
            free(dts.v);
            dts.v = NULL;
            if ((rc = cf_plot_names_collect(r->table, 0, pats.v[i], &dts, e)) != 0)
                break;
            for (size_t j = 0; j < dts.n && rc == 0; j++) {
                if (kind == 0)
                    rc = cf_plot_time(r, pats.v[i], dts.v[j], dts.n > 1, e);
                else if (kind == 1)
                    rc = cf_plot_bw(r, pats.v[i], dts.v[j], dts.n > 1, e);
                else if (kind == 2)
                    rc = cf_plot_np(r, pats.v[i], dts.v[j], dts.n > 1, e);
                else
                    rc = cf_plot_resid(r, pats.v[i], dts.v[j], 0, dts.n > 1, e);
            }
        }
        for (size_t i = 0; i < ddt_pats.n && rc == 0; i++) {
            if (kind == 1)
                rc = cf_plots_ddt(r, ddt_pats.v[i], e);
            else if (kind == 3)
                rc = cf_plot_resid(r, ddt_pats.v[i], NULL, 1, 0, e);
        }
    }
    free(pats.v);
    free(dts.v);
    free(ddt_pats.v);
    return rc;
}

