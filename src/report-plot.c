/* The plots a timing table supports: for each, a data file (one gnuplot index block per
 * curve) and a self-contained gnuplot script that draws it (`gnuplot NAME.gp`). */
#include "config.h"

#include "report-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "size.h"

/* Curves one plot shows at most where the choice is ours (sizes across np, blocks). */
#define MAX_SIZES 5

static const char *const ddt_names[] = {"vector", "hvector", "indexed", "hindexed",
                                        "struct", "contiguous", "pack"};

int cf_report_is_ddt(const cf_row *r)
{
    if (r->blocks > 0)
        return 1;
    for (size_t i = 0; i < sizeof ddt_names / sizeof ddt_names[0]; i++)
        if (strcmp(r->datatype, ddt_names[i]) == 0)
            return 1;
    return 0;
}

int cf_report_is_p2p(const cf_row *r)
{
    return !isnan(r->bw_MiBps) && !cf_report_is_ddt(r);
}

double cf_report_time_us(const cf_row *r)
{
    return isnan(r->t_med_us) ? r->t_avg_us : r->t_med_us;
}

double cf_report_gain_pct(double t_us, double pack_us)
{
    return 100.0 * (pack_us - t_us) / pack_us;
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

/* --- choosing rows ---------------------------------------------------------------- */

typedef struct sel {
    const cf_table *t;
    size_t *idx; /* rows, sorted by np, blocks, bytes */
    size_t n;
} sel;

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
static int select_rows(const cf_table *t, const char *pattern, const char *datatype, int ddt,
                       sel *s, cf_error *e)
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

static const cf_row *row(const sel *s, size_t i)
{
    return &s->t->rows[s->idx[i]];
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Distinct values of one field over the selection: 'n' np, 'b' blocks, 'm' bytes. */
static size_t distinct(const sel *s, char field, uint64_t *out)
{
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        const cf_row *r = row(s, i);
        uint64_t v = field == 'n' ? (uint64_t)r->np : field == 'b' ? (uint64_t)r->blocks : r->bytes;
        int seen = 0;
        for (size_t j = 0; j < k && !seen; j++)
            seen = out[j] == v;
        if (!seen)
            out[k++] = v;
    }
    qsort(out, k, sizeof *out, cmp_u64);
    return k;
}

/* Names of the selected rows' patterns (or datatypes), distinct and sorted. */
typedef struct names {
    char (*v)[CF_PATTERN_MAX];
    size_t n;
} names;

static int cmp_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

static int collect_names(const cf_table *t, int ddt, const char *pattern, names *out,
                         cf_error *e)
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
static void time_bounds(const cf_row *x, double *t, double *lo, double *hi)
{
    *t = cf_report_time_us(x);
    double ci = isnan(x->t_ci95_us) ? 0 : x->t_ci95_us;
    *lo = *t - ci > 0 ? *t - ci : *t / 100;
    *hi = *t + ci;
}

/* --- time vs bytes -------------------------------------------------------------------- */

static int plot_time(cf_report *r, const char *pattern, const char *datatype, int name_dt,
                     cf_error *e)
{
    sel s;
    if (select_rows(r->table, pattern, datatype, 0, &s, e) != 0)
        return CF_EXIT_DATA;
    uint64_t *nps = malloc((s.n + 1) * sizeof *nps);
    if (nps == NULL) {
        free(s.idx);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    size_t n_np = distinct(&s, 'n', nps);
    uint64_t lo = 0, hi = 0;
    size_t zero = 0;
    for (size_t i = 0; i < s.n; i++) {
        uint64_t m = row(&s, i)->bytes;
        if (m == 0) {
            zero++;
            continue;
        }
        lo = lo == 0 || m < lo ? m : lo;
        hi = m > hi ? m : hi;
    }
    int rc = 0;
    if (hi == 0)
        goto done; /* only 0-byte points: nothing to draw on a log axis */

    char name[CF_PLOT_NAME_MAX], title[256], caption[1024];
    cf_script_name(name, sizeof name, "time", pattern, name_dt ? datatype : NULL, NULL);
    snprintf(title, sizeof title, "%s (%s): time per call vs message size", pattern, datatype);
    snprintf(caption, sizeof caption,
             "Time per call of %s against the message size, log-log, one curve per process "
             "count. Points are the median over the samples (the mean across ranks where the "
             "median is unknown); bars are its 95%% confidence interval.%s",
             pattern,
             zero ? " 0-byte points have no place on the log axis and are left out." : "");
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_pow2_axis(sc.gp, "x", lo, hi, 1);
    fputs("set xlabel 'message size (bytes; K = 1024)'\n", sc.gp);
    cf_script_time_axis(sc.gp);
    for (size_t j = 0; j < n_np; j++) {
        int pts = 0;
        for (size_t i = 0; i < s.n; i++)
            pts += (uint64_t)row(&s, i)->np == nps[j] && row(&s, i)->bytes > 0;
        if (pts == 0)
            continue;
        char t[64], how[64];
        snprintf(t, sizeof t, "np=%llu", (unsigned long long)nps[j]);
        cf_script_block(&sc, t, "bytes t_us t_lo_us t_hi_us");
        for (size_t i = 0; i < s.n; i++) {
            const cf_row *x = row(&s, i);
            if ((uint64_t)x->np != nps[j] || x->bytes == 0)
                continue;
            double tm, tlo, thi;
            time_bounds(x, &tm, &tlo, &thi);
            fprintf(sc.dat, "%llu %.6g %.6g %.6g\n", (unsigned long long)x->bytes, tm, tlo, thi);
        }
        snprintf(how, sizeof how, "using 1:2:3:4 with yerrorlines lt %d", sc.elems + 1);
        cf_script_curve(&sc, how, t);
    }
    rc = cf_script_close(&sc, CF_SEC_TIME, title, caption, e);
done:
    free(nps);
    free(s.idx);
    return rc;
}

/* --- bandwidth vs bytes ---------------------------------------------------------------- */

static int plot_bw(cf_report *r, const char *pattern, const char *datatype, int name_dt,
                   cf_error *e)
{
    sel s;
    if (select_rows(r->table, pattern, datatype, 0, &s, e) != 0)
        return CF_EXIT_DATA;
    size_t m = 0;
    for (size_t i = 0; i < s.n; i++)
        if (cf_report_is_p2p(row(&s, i)) && row(&s, i)->bytes > 0)
            s.idx[m++] = s.idx[i];
    s.n = m;
    int rc = 0;
    uint64_t *nps = malloc((s.n + 1) * sizeof *nps);
    if (nps == NULL) {
        free(s.idx);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    if (s.n == 0)
        goto done;
    size_t n_np = distinct(&s, 'n', nps);
    uint64_t lo = UINT64_MAX, hi = 0;
    const cf_row *peak = NULL;
    for (size_t i = 0; i < s.n; i++) {
        const cf_row *x = row(&s, i);
        lo = x->bytes < lo ? x->bytes : lo;
        hi = x->bytes > hi ? x->bytes : hi;
        if (peak == NULL || x->bw_MiBps > peak->bw_MiBps)
            peak = x;
    }

    char name[CF_PLOT_NAME_MAX], title[256], caption[1024];
    cf_script_name(name, sizeof name, "bw", pattern, name_dt ? datatype : NULL, NULL);
    snprintf(title, sizeof title, "%s (%s): bandwidth vs message size", pattern, datatype);
    snprintf(caption, sizeof caption,
             "Bandwidth of %s against the message size (log scale), one curve per process "
             "count, from the table's bw_MiBps column; bars follow the 95%% confidence "
             "interval of the time. The circled point is the highest bandwidth measured.",
             pattern);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_pow2_axis(sc.gp, "x", lo, hi, 1);
    fputs("set xlabel 'message size (bytes; K = 1024)'\n"
          "set ylabel 'bandwidth (MiB/s)'\nset yrange [0:*]\nset format y '%g'\n"
          "set mytics 2\n",
          sc.gp);
    for (size_t j = 0; j < n_np; j++) {
        char t[64], how[64];
        snprintf(t, sizeof t, "np=%llu", (unsigned long long)nps[j]);
        cf_script_block(&sc, t, "bytes bw_MiBps bw_lo_MiBps bw_hi_MiBps");
        for (size_t i = 0; i < s.n; i++) {
            const cf_row *x = row(&s, i);
            if ((uint64_t)x->np != nps[j])
                continue;
            double tm = cf_report_time_us(x);
            double rel = isnan(x->t_ci95_us) ? 0 : x->t_ci95_us / tm;
            double blo = x->bw_MiBps / (1 + rel);
            double bhi = rel < 1 ? x->bw_MiBps / (1 - rel) : x->bw_MiBps * 2;
            fprintf(sc.dat, "%llu %.6g %.6g %.6g\n", (unsigned long long)x->bytes,
                    x->bw_MiBps, blo, bhi);
        }
        snprintf(how, sizeof how, "using 1:2:3:4 with yerrorlines lt %d", sc.elems + 1);
        cf_script_curve(&sc, how, t);
    }
    char size[32], t[128];
    cf_size_format(peak->bytes, size, sizeof size);
    cf_script_block(&sc, "measured peak", "bytes bw_MiBps");
    fprintf(sc.dat, "%llu %.6g\n", (unsigned long long)peak->bytes, peak->bw_MiBps);
    snprintf(t, sizeof t, "measured peak: %.0f MiB/s at %s (np=%d)", peak->bw_MiBps, size,
             peak->np);
    cf_script_curve(&sc, "using 1:2 with points pt 6 ps 2.5 lw 1.5 lc rgb '#000000'", t);
    rc = cf_script_close(&sc, CF_SEC_BW, title, caption, e);
done:
    free(nps);
    free(s.idx);
    return rc;
}

/* --- time vs process count -------------------------------------------------------------- */

static int plot_np(cf_report *r, const char *pattern, const char *datatype, int name_dt,
                   cf_error *e)
{
    sel s;
    if (select_rows(r->table, pattern, datatype, 0, &s, e) != 0)
        return CF_EXIT_DATA;
    uint64_t *nps = malloc((s.n + 1) * sizeof *nps);
    uint64_t *sizes = malloc((s.n + 1) * sizeof *sizes);
    uint64_t *common = malloc((s.n + 1) * sizeof *common);
    uint64_t pick[MAX_SIZES];
    int rc = 0;
    if (nps == NULL || sizes == NULL || common == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto done;
    }
    size_t n_np = distinct(&s, 'n', nps);
    if (n_np < 2)
        goto done;
    /* Sizes measured at two process counts or more: a curve needs two points. */
    size_t n_sizes = distinct(&s, 'm', sizes), n_common = 0;
    for (size_t j = 0; j < n_sizes; j++) {
        size_t at = 0;
        int last_np = 0;
        for (size_t i = 0; i < s.n; i++) {
            const cf_row *x = row(&s, i);
            if (x->bytes == sizes[j] && x->np != last_np) {
                at++;
                last_np = x->np;
            }
        }
        if (at >= 2)
            common[n_common++] = sizes[j];
    }
    if (n_common == 0)
        goto done;
    size_t n_pick = cf_report_spread(common, n_common, MAX_SIZES - 1, pick);

    char name[CF_PLOT_NAME_MAX], title[256], caption[1024];
    cf_script_name(name, sizeof name, "np", pattern, name_dt ? datatype : NULL, NULL);
    snprintf(title, sizeof title, "%s (%s): time per call vs process count", pattern,
             datatype);
    snprintf(caption, sizeof caption,
             "Time per call of %s against the number of processes, log-log, at a few "
             "message sizes measured at two process counts or more; bars are the 95%% "
             "confidence interval.",
             pattern);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_values_axis(sc.gp, "x", nps, n_np);
    fputs("set xlabel 'processes'\n", sc.gp);
    cf_script_time_axis(sc.gp);
    for (size_t j = 0; j < n_pick; j++) {
        char size[32], how[64];
        cf_size_format(pick[j], size, sizeof size);
        cf_script_block(&sc, size, "np t_us t_lo_us t_hi_us");
        for (size_t i = 0; i < s.n; i++) {
            const cf_row *x = row(&s, i);
            if (x->bytes != pick[j])
                continue;
            double tm, tlo, thi;
            time_bounds(x, &tm, &tlo, &thi);
            fprintf(sc.dat, "%d %.6g %.6g %.6g\n", x->np, tm, tlo, thi);
        }
        snprintf(how, sizeof how, "using 1:2:3:4 with yerrorlines lt %d", sc.elems + 1);
        cf_script_curve(&sc, how, size);
    }
    rc = cf_script_close(&sc, CF_SEC_NP, title, caption, e);
done:
    free(nps);
    free(sizes);
    free(common);
    free(s.idx);
    return rc;
}

/* --- derived datatypes ------------------------------------------------------------------ */

/* The pack baseline for a row at a block count: same np, bytes and blocks (or a pack row
 * without blocks). */
static const cf_row *pack_for(const sel *s, const cf_row *x, int blocks)
{
    const cf_row *any = NULL;
    for (size_t i = 0; i < s->n; i++) {
        const cf_row *p = row(s, i);
        if (strcmp(p->datatype, "pack") != 0 || p->np != x->np || p->bytes != x->bytes)
            continue;
        if (p->blocks == blocks)
            return p;
        if (p->blocks == 0)
            any = p;
    }
    return any;
}

/* A row without a block count (the contiguous baseline) belongs to every block count. */
static int blocks_match(const cf_row *x, int blocks)
{
    return x->blocks == blocks || x->blocks == 0;
}

/* Whether a row of datatype dt has a gain to show at this block count. */
static int has_gain(const sel *s, const cf_row *x, const char *dt, int np, int blocks)
{
    return x->np == np && blocks_match(x, blocks) && x->bytes > 0 &&
           strcmp(x->datatype, dt) == 0 && pack_for(s, x, blocks) != NULL;
}

static int plot_gain(cf_report *r, const sel *s, const names *dts, int np, int name_np,
                     int blocks, int name_blocks, cf_error *e)
{
    const char *pattern = row(s, 0)->pattern;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t d = 0; d < dts->n; d++) {
        if (strcmp(dts->v[d], "pack") == 0)
            continue;
        for (size_t i = 0; i < s->n; i++) {
            const cf_row *x = row(s, i);
            if (has_gain(s, x, dts->v[d], np, blocks)) {
                lo = x->bytes < lo ? x->bytes : lo;
                hi = x->bytes > hi ? x->bytes : hi;
            }
        }
    }
    if (hi == 0)
        return 0;

    char npart[32], bpart[32];
    snprintf(npart, sizeof npart, "np%d", np);
    snprintf(bpart, sizeof bpart, "b%d", blocks);
    char name[CF_PLOT_NAME_MAX], title[256], caption[1024];
    cf_script_name(name, sizeof name, "gain", pattern, name_np ? npart : NULL,
                   name_blocks ? bpart : NULL);
    if (blocks > 0)
        snprintf(title, sizeof title, "%s, np=%d, %d blocks: gain of each datatype over pack",
                 pattern, np, blocks);
    else
        snprintf(title, sizeof title, "%s, np=%d: gain of each datatype over pack", pattern,
                 np);
    snprintf(caption, sizeof caption,
             "Gain of sending each derived datatype directly over packing it (MPI_Pack, a "
             "contiguous send, MPI_Unpack), in percent of the pack time, against the message "
             "size: 100 (T_pack - T_datatype) / T_pack. Above zero the datatype is faster.");
    cf_script sc;
    int rc = cf_script_open(&sc, r, name, title, e);
    if (rc != 0)
        return rc;
    cf_script_pow2_axis(sc.gp, "x", lo, hi, 1);
    fputs("set xlabel 'message size (bytes; K = 1024)'\n"
          "set ylabel 'gain over pack (%)'\nset format y '%g'\n"
          "set arrow from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#808080' dt 2\n",
          sc.gp);
    for (size_t d = 0; d < dts->n; d++) {
        if (strcmp(dts->v[d], "pack") == 0)
            continue;
        int pts = 0;
        for (size_t i = 0; i < s->n; i++) {
            const cf_row *x = row(s, i);
            if (!has_gain(s, x, dts->v[d], np, blocks))
                continue;
            if (pts++ == 0)
                cf_script_block(&sc, dts->v[d], "bytes gain_pct t_us t_pack_us");
            const cf_row *p = pack_for(s, x, blocks);
            double t = cf_report_time_us(x), tp = cf_report_time_us(p);
            fprintf(sc.dat, "%llu %.6g %.6g %.6g\n", (unsigned long long)x->bytes,
                    cf_report_gain_pct(t, tp), t, tp);
        }
        if (pts == 0)
            continue;
        char how[64];
        snprintf(how, sizeof how, "using 1:2 with linespoints lt %d", sc.elems + 1);
        cf_script_curve(&sc, how, dts->v[d]);
    }
    return cf_script_close(&sc, CF_SEC_DDT, title, caption, e);
}

static int plot_blocks(cf_report *r, const sel *s, const char *datatype, int np, int name_np,
                       cf_error *e)
{
    const char *pattern = row(s, 0)->pattern;
    sel d = {s->t, NULL, 0};
    d.idx = malloc((s->n + 1) * sizeof *d.idx);
    uint64_t *sizes = malloc((s->n + 1) * sizeof *sizes);
    uint64_t *blocks = malloc((s->n + 1) * sizeof *blocks);
    uint64_t *usable = malloc((s->n + 1) * sizeof *usable);
    uint64_t pick[MAX_SIZES];
    int rc = 0;
    if (d.idx == NULL || sizes == NULL || blocks == NULL || usable == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < s->n; i++)
        if (row(s, i)->np == np && row(s, i)->blocks > 0 &&
            strcmp(row(s, i)->datatype, datatype) == 0)
            d.idx[d.n++] = s->idx[i];
    size_t n_blocks = distinct(&d, 'b', blocks);
    if (n_blocks < 2)
        goto done;
    size_t n_sizes = distinct(&d, 'm', sizes), n_usable = 0;
    for (size_t j = 0; j < n_sizes; j++) {
        size_t at = 0;
        for (size_t i = 0; i < d.n; i++)
            at += row(&d, i)->bytes == sizes[j];
        if (at >= 2)
            usable[n_usable++] = sizes[j];
    }
    if (n_usable == 0)
        goto done;
    size_t n_pick = cf_report_spread(usable, n_usable, MAX_SIZES, pick);

    char npart[32];
    snprintf(npart, sizeof npart, "np%d", np);
    char name[CF_PLOT_NAME_MAX], title[256], caption[1024];
    cf_script_name(name, sizeof name, "blocks", pattern, name_np ? npart : NULL, datatype);
    snprintf(title, sizeof title, "%s, np=%d, %s: time per call vs number of blocks", pattern,
             np, datatype);
    snprintf(caption, sizeof caption,
             "Time per call of %s with datatype %s against the number of blocks the data is "
             "cut into, log-log, one curve per message size; bars are the 95%% confidence "
             "interval. A rising curve is the cost per block.",
             pattern, datatype);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_pow2_axis(sc.gp, "x", blocks[0], blocks[n_blocks - 1], 0);
    fputs("set xlabel 'blocks'\n", sc.gp);
    cf_script_time_axis(sc.gp);
    for (size_t j = 0; j < n_pick; j++) {
        char size[32], how[64];
        cf_size_format(pick[j], size, sizeof size);
        cf_script_block(&sc, size, "blocks t_us t_lo_us t_hi_us");
        for (size_t i = 0; i < d.n; i++) {
            const cf_row *x = row(&d, i);
            if (x->bytes != pick[j])
                continue;
            double tm, tlo, thi;
            time_bounds(x, &tm, &tlo, &thi);
            fprintf(sc.dat, "%d %.6g %.6g %.6g\n", x->blocks, tm, tlo, thi);
        }
        snprintf(how, sizeof how, "using 1:2:3:4 with yerrorlines lt %d", sc.elems + 1);
        cf_script_curve(&sc, how, size);
    }
    rc = cf_script_close(&sc, CF_SEC_DDT, title, caption, e);
done:
    free(d.idx);
    free(sizes);
    free(blocks);
    free(usable);
    return rc;
}

static int plots_ddt(cf_report *r, const char *pattern, cf_error *e)
{
    sel s;
    names dts = {NULL, 0};
    if (select_rows(r->table, pattern, NULL, 1, &s, e) != 0)
        return CF_EXIT_DATA;
    uint64_t *nps = malloc((s.n + 1) * sizeof *nps);
    uint64_t *blocks = malloc((s.n + 1) * sizeof *blocks);
    int rc = 0;
    if (nps == NULL || blocks == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto done;
    }
    if ((rc = collect_names(r->table, 1, pattern, &dts, e)) != 0)
        goto done;
    size_t n_np = distinct(&s, 'n', nps);
    for (size_t j = 0; j < n_np && rc == 0; j++) {
        int np = (int)nps[j];
        /* The selection is sorted by np first: the rows of this np are one run. */
        size_t first = 0;
        while (first < s.n && row(&s, first)->np != np)
            first++;
        sel at = {s.t, s.idx + first, 0};
        while (first + at.n < s.n && row(&s, first + at.n)->np == np)
            at.n++;
        int has_pack = 0;
        for (size_t i = 0; i < at.n; i++)
            has_pack |= strcmp(row(&at, i)->datatype, "pack") == 0;
        size_t n_blocks = distinct(&at, 'b', blocks);
        if (n_blocks > 1 && blocks[0] == 0) {
            memmove(blocks, blocks + 1, (n_blocks - 1) * sizeof *blocks);
            n_blocks--;
        }
        for (size_t b = 0; b < n_blocks && rc == 0 && has_pack; b++)
            rc = plot_gain(r, &at, &dts, np, n_np > 1, (int)blocks[b], n_blocks > 1, e);
        for (size_t d = 0; d < dts.n && rc == 0; d++)
            rc = plot_blocks(r, &at, dts.v[d], np, n_np > 1, e);
    }
done:
    free(dts.v);
    free(nps);
    free(blocks);
    free(s.idx);
    return rc;
}

/* --- all of them ------------------------------------------------------------------------ */

int cf_report_plots_table(cf_report *r, cf_error *e)
{
    names pats = {NULL, 0}, dts = {NULL, 0}, ddt_pats = {NULL, 0};
    int rc = collect_names(r->table, 0, NULL, &pats, e);
    if (rc == 0)
        rc = collect_names(r->table, 1, NULL, &ddt_pats, e);
    /* Each kind of plot in turn, so that the page can keep the list in order. */
    for (int kind = 0; kind < 3 && rc == 0; kind++) {
        for (size_t i = 0; i < pats.n && rc == 0; i++) {
            free(dts.v);
            dts.v = NULL;
            if ((rc = collect_names(r->table, 0, pats.v[i], &dts, e)) != 0)
                break;
            for (size_t j = 0; j < dts.n && rc == 0; j++) {
                if (kind == 0)
                    rc = plot_time(r, pats.v[i], dts.v[j], dts.n > 1, e);
                else if (kind == 1)
                    rc = plot_bw(r, pats.v[i], dts.v[j], dts.n > 1, e);
                else
                    rc = plot_np(r, pats.v[i], dts.v[j], dts.n > 1, e);
            }
        }
        if (kind == 1)
            for (size_t i = 0; i < ddt_pats.n && rc == 0; i++)
                rc = plots_ddt(r, ddt_pats.v[i], e);
    }
    free(pats.v);
    free(dts.v);
    free(ddt_pats.v);
    return rc;
}
