/* The plots a timing table supports: for each, a data file (one gnuplot index block per
 * curve) and a self-contained gnuplot script that draws it (`gnuplot NAME.gp`). */
#include "config.h"

#include "report/report-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit/fitting.h"
#include "modelfile/answer.h"
#include "modelfile/modelfile.h"
#include "base/size.h"

/* Curves one plot shows at most where the choice is ours (sizes across np, blocks). */
#define MAX_SIZES 5
/* Breakpoints a time plot labels at most; beyond, the labels would cover each other. */
#define MAX_BREAK_LABELS 6

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

/* Whether the selection holds a point more than once (an imported table with several
 * runs): lines through its points would zigzag between the runs. */
static int repeated(const sel *s)
{
    for (size_t i = 1; i < s->n; i++) {
        const cf_row *a = row(s, i - 1), *b = row(s, i);
        if (a->np == b->np && a->blocks == b->blocks && a->bytes == b->bytes &&
            strcmp(a->datatype, b->datatype) == 0)
            return 1;
    }
    return 0;
}

/* Distinct values of one field over the selection: 'n' np, 'b' blocks, 'm' bytes. Sorted
 * rather than searched, so that a million rows of 40,000 process counts cost n log n. */
static size_t distinct(const sel *s, char field, uint64_t *out)
{
    for (size_t i = 0; i < s->n; i++) {
        const cf_row *r = row(s, i);
        out[i] = field == 'n' ? (uint64_t)r->np : field == 'b' ? (uint64_t)r->blocks : r->bytes;
    }
    qsort(out, s->n, sizeof *out, cmp_u64);
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++)
        if (k == 0 || out[k - 1] != out[i])
            out[k++] = out[i];
    return k;
}

/* The end of the run of rows from i on that share row i's np: the selection is sorted by
 * np first, so each process count's rows are one run, visited once per plot. */
static size_t np_end(const sel *s, size_t i)
{
    size_t j = i;
    while (j < s->n && row(s, j)->np == row(s, i)->np)
        j++;
    return j;
}

/* The first row whose np is at least np, by bisection. */
static size_t np_find(const sel *s, uint64_t np)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uint64_t)row(s, mid)->np < np)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The first row from i on whose np is at least np. */
static size_t np_start(const sel *s, size_t i, uint64_t np)
{
    while (i < s->n && (uint64_t)row(s, i)->np < np)
        i++;
    return i;
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

static int collect_names(const cf_table *t, int ddt, const char *pattern, names *out, cf_error *e)
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
static void time_bounds(const cf_report *r, const cf_row *x, double *t, double *lo, double *hi)
{
    *t = cf_report_row_time(r, x);
    double ci = isnan(x->t_ci95_us) ? 0 : x->t_ci95_us;
    *lo = *t - ci > 0 ? *t - ci : *t / 100;
    *hi = *t + ci;
}

static const char *points_note(const cf_report *r)
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
static void fit_title(char *buf, size_t n, const char *who, const cf_fit *f)
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
    int lines = !repeated(&s);
    uint64_t lo = 0, hi = 0;
    size_t zero = 0;
    double t_lo = INFINITY, t_hi = 0;
    for (size_t i = 0; i < s.n; i++) {
        uint64_t m = row(&s, i)->bytes;
        if (m == 0) {
            zero++;
            continue;
        }
        double t = cf_report_row_time(r, row(&s, i));
        t_lo = t < t_lo ? t : t_lo;
        t_hi = t > t_hi ? t : t_hi;
        lo = lo == 0 || m < lo ? m : lo;
        hi = m > hi ? m : hi;
    }
    int rc = 0, fitted = 0, breaks = 0, lt = 0, all_breaks = 0;
    if (hi == 0)
        goto done; /* only 0-byte points: nothing to draw on a log axis */
    for (size_t j = 0; j < n_np; j++) {
        const cf_fit *f = cf_report_fit(r, pattern, (int)nps[j], datatype);
        all_breaks += f ? f->nseg - 1 : 0;
    }

    char name[CF_PLOT_NAME_MAX], title[256], caption[1200];
    cf_script_name(name, sizeof name, "time", pattern, name_dt ? datatype : NULL, NULL);
    snprintf(title, sizeof title, "%s (%s): time per call vs message size", pattern, datatype);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_pow2_axis(sc.gp, "x", lo, hi, 1);
    fputs("set xlabel 'message size (bytes; K = 1024)'\n", sc.gp);
    cf_script_time_axis(sc.gp);
    size_t from = 0;
    for (size_t j = 0; j < n_np; j++) {
        size_t b = np_start(&s, from, nps[j]), en = np_end(&s, b);
        from = en;
        int pts = 0;
        for (size_t i = b; i < en; i++)
            pts += row(&s, i)->bytes > 0;
        if (pts == 0)
            continue;
        lt++; /* one colour per process count */
        char t[64], how[64];
        snprintf(t, sizeof t, "np=%llu", (unsigned long long)nps[j]);
        cf_script_block(&sc, t, "bytes t_us t_lo_us t_hi_us");
        for (size_t i = b; i < en; i++) {
            const cf_row *x = row(&s, i);
            if (x->bytes == 0)
                continue;
            double tm, tlo, thi;
            time_bounds(r, x, &tm, &tlo, &thi);
            fprintf(sc.dat, "%llu %.6g %.6g %.6g\n", (unsigned long long)x->bytes, tm, tlo, thi);
        }
        const cf_fit *f = cf_report_fit(r, pattern, (int)nps[j], datatype);
        if (f == NULL) {
            snprintf(how, sizeof how, "using 1:2:3:4 with %s lt %d",
                     lines ? "yerrorlines" : "yerrorbars", lt);
            cf_script_curve(&sc, how, t);
            continue;
        }
        snprintf(how, sizeof how, "using 1:2:3:4 with yerrorbars lt %d", lt);
        char ft[CF_FORMULA_MAX + 192];
        snprintf(ft, sizeof ft, "np=%llu measured", (unsigned long long)nps[j]);
        cf_script_curve(&sc, how, ft);
        /* The fit over the sizes it was fitted to, and no further. */
        double flo = f->min_bytes > 0 ? (double)f->min_bytes : (double)lo;
        cf_report_fit_block(&sc, f, flo, (double)f->max_bytes, -1, t);
        snprintf(how, sizeof how, "using 1:2 with lines lt %d", lt);
        fit_title(ft, sizeof ft, t, f);
        cf_script_curve(&sc, how, ft);
        cf_report_breakpoints(&sc, f, lt, t_lo, t_hi, all_breaks <= MAX_BREAK_LABELS);
        fitted++;
        breaks += f->nseg - 1;
    }
    snprintf(caption, sizeof caption,
             "Time per call of %s against the message size, log-log, one colour per process "
             "count. %s; bars are the 95%% confidence interval.%s%s%s",
             pattern, points_note(r),
             fitted ? " Lines are the fitted models over the sizes they were fitted to, with "
                      "their formulas in the key."
                    : "",
             breaks > MAX_BREAK_LABELS
                 ? " Dotted vertical lines, in the colour of their process count, mark where "
                   "a piecewise fit switches segment (the formulas in the key name the "
                   "sizes)."
             : breaks ? " Dotted vertical lines mark where a piecewise fit switches segment "
                        "(the breakpoint lies between the two sizes named)."
                      : "",
             zero ? " 0-byte points have no place on the log axis and are left out." : "");
    rc = cf_script_close(&sc, CF_SEC_TIME, title, caption, e);
done:
    free(nps);
    free(s.idx);
    return rc;
}

/* --- bandwidth vs bytes ---------------------------------------------------------------- */

/* The bandwidth of a row at the time the plots show: the table's bw_MiBps is taken at the
 * mean time, and the fits (and so their curves) may use another statistic. */
static double row_bw(const cf_report *r, const cf_row *x)
{
    double t = cf_report_row_time(r, x);
    return t > 0 && x->t_avg_us > 0 ? x->bw_MiBps * x->t_avg_us / t : x->bw_MiBps;
}

/* The saturation marks of one fit: the fitted bandwidth, r_inf, n_1/2 and the 90% size. */
static void bw_fit(cf_script *sc, const cf_fit *f, double lo, double hi, int lt)
{
    const cf_saturation *st = &f->sat;
    char t[CF_FORMULA_MAX + 192], how[96], what[64], a[32];
    snprintf(what, sizeof what, "np=%d", f->np);
    double flo = f->min_bytes > 0 ? (double)f->min_bytes : lo;
    cf_report_fit_bw_block(sc, f, flo, (double)f->max_bytes, st->nmsg > 0 ? st->nmsg : 1, what);
    snprintf(how, sizeof how, "using 1:2 with lines lt %d", lt);
    fit_title(t, sizeof t, what, f);
    cf_script_curve(sc, how, t);

    cf_script_block(sc, "r_inf", "bytes bw_MiBps");
    fprintf(sc->dat, "%.6g %.6g\n%.6g %.6g\n", lo / 1.4, st->rinf_MiBps, hi * 1.4, st->rinf_MiBps);
    snprintf(how, sizeof how, "using 1:2 with lines lt %d dt 2 lw 1", lt);
    char r0[32], r1[32], r2[32];
    cf_report_bw_text(st->rinf_MiBps, r0, sizeof r0);
    cf_report_bw_text(st->rinf_lo_MiBps, r1, sizeof r1);
    cf_report_bw_text(st->rinf_hi_MiBps, r2, sizeof r2);
    if (isfinite(st->rinf_hi_MiBps))
        snprintf(t, sizeof t, "np=%d r_inf = %s MiB/s (95%%: %s to %s)", f->np, r0, r1, r2);
    else
        snprintf(t, sizeof t, "np=%d r_inf = %s MiB/s (95%%: above %s)", f->np, r0, r1);
    cf_script_curve(sc, how, t);

    /* n_1/2 and the 90% size belong to a Hockney line alpha + beta m, whose bandwidth is
     * r m / (n_1/2 + m): the tangent to the fit at its largest size (r = r_inf) or, when
     * that crosses 0 above m = 0, the last segment that does not (r its own 1/beta).
     * Where the fit is not that line (several segments, a curve) it is drawn dotted, so
     * that the marks sit on what defines them. */
    double rh = isfinite(st->half_rinf_MiBps) ? st->half_rinf_MiBps : st->rinf_MiBps;
    int own = st->half_segment >= 0 && st->half_segment < f->nseg - 1;
    int tangent = isfinite(st->n_half_bytes) && st->n_half_bytes > 0 &&
                  (f->nseg > 1 || strcmp(f->model, "linear") != 0);
    if (tangent) {
        cf_script_block(sc, "the Hockney line of n_1/2", "bytes bw_MiBps");
        for (int k = 0; k <= 60; k++) {
            double m = lo / 1.4 * pow(hi / lo * 1.96, k / 60.0);
            fprintf(sc->dat, "%.6g %.6g\n", m, rh * m / (st->n_half_bytes + m));
        }
        snprintf(how, sizeof how, "using 1:2 with lines lt %d dt 3 lw 1", lt);
        if (own)
            snprintf(t, sizeof t,
                     "np=%d r m / (n_1/2 + m): the Hockney line of segment %d (the last one "
                     "crosses 0)",
                     f->np, st->half_segment + 1);
        else
            snprintf(t, sizeof t,
                     "np=%d r_inf m / (n_1/2 + m): the Hockney line tangent to the fit at its "
                     "largest size",
                     f->np);
        cf_script_curve(sc, how, t);
    }
    if (isfinite(st->n_half_bytes) && st->n_half_bytes > 0) {
        cf_script_block(sc, "n_1/2", "bytes bw_MiBps");
        fprintf(sc->dat, "%.6g %.6g\n", st->n_half_bytes, rh / 2);
        snprintf(how, sizeof how, "using 1:2 with points pt 4 ps 1.8 lw 1.5 lt %d", lt);
        cf_size_format((uint64_t)llround(st->n_half_bytes), a, sizeof a);
        snprintf(t, sizeof t, "np=%d n_1/2 = %s (half of %s)", f->np, a,
                 own ? "its line's bandwidth" : "r_inf");
        cf_script_curve(sc, how, t);
    }
    if (isfinite(st->m90_bytes) && st->m90_bytes > 0) {
        cf_script_block(sc, "90% size", "bytes bw_MiBps");
        fprintf(sc->dat, "%.6g %.6g\n", st->m90_bytes, 0.9 * rh);
        snprintf(how, sizeof how, "using 1:2 with points pt 8 ps 1.8 lw 1.5 lt %d", lt);
        cf_size_format((uint64_t)llround(st->m90_bytes), a, sizeof a);
        snprintf(t, sizeof t, "np=%d 90%% of %s at %s", f->np, own ? "its line's bandwidth" : "r_inf",
                 a);
        cf_script_curve(sc, how, t);
    }
}

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
    int rc = 0, fitted = 0;
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
        if (peak == NULL || row_bw(r, x) > row_bw(r, peak))
            peak = x;
    }
    /* The y range holds the points, the fits' r_inf (unless far above them) and a margin
     * for the circled peak; a wide confidence bar is cut at the top rather than squash the
     * curves. */
    double peak_bw = row_bw(r, peak), top = peak_bw;
    for (size_t j = 0; j < n_np; j++) {
        const cf_fit *f = cf_report_fit(r, pattern, (int)nps[j], datatype);
        if (f != NULL && f->sat.valid && f->sat.rinf_MiBps > top && f->sat.rinf_MiBps < 3 * peak_bw)
            top = f->sat.rinf_MiBps;
    }
    int lines = !repeated(&s);
    size_t unbounded = 0;

    char name[CF_PLOT_NAME_MAX], title[256], caption[1200];
    cf_script_name(name, sizeof name, "bw", pattern, name_dt ? datatype : NULL, NULL);
    snprintf(title, sizeof title, "%s (%s): bandwidth vs message size", pattern, datatype);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_pow2_axis(sc.gp, "x", lo, hi, 1);
    fputs("set xlabel 'message size (bytes; K = 1024)'\n"
          "set ylabel 'bandwidth (MiB/s)'\nset format y '%g'\nset mytics 2\n",
          sc.gp);
    fprintf(sc.gp, "set yrange [0:%.6g]\n", top > 0 ? 1.12 * top : 1);
    size_t from = 0;
    for (size_t j = 0; j < n_np; j++) {
        int lt = (int)j + 1;
        char t[64], how[64];
        size_t b = np_start(&s, from, nps[j]), en = np_end(&s, b);
        from = en;
        snprintf(t, sizeof t, "np=%llu", (unsigned long long)nps[j]);
        cf_script_block(&sc, t, "bytes bw_MiBps bw_lo_MiBps bw_hi_MiBps");
        for (size_t i = b; i < en; i++) {
            const cf_row *x = row(&s, i);
            double tm = cf_report_row_time(r, x), bw = row_bw(r, x);
            double rel = isnan(x->t_ci95_us) ? 0 : x->t_ci95_us / tm;
            /* Times from t - ci to t + ci; a time interval reaching zero has no upper
             * bandwidth, and the bar goes to the top of the plot. */
            double blo = bw / (1 + rel);
            double bhi = rel < 1 ? bw / (1 - rel) : 10 * top;
            unbounded += rel >= 1;
            fprintf(sc.dat, "%llu %.6g %.6g %.6g\n", (unsigned long long)x->bytes, bw, blo, bhi);
        }
        const cf_fit *f = cf_report_fit(r, pattern, (int)nps[j], datatype);
        if (f == NULL || !f->sat.valid) {
            snprintf(how, sizeof how, "using 1:2:3:4 with %s lt %d",
                     lines ? "yerrorlines" : "yerrorbars", lt);
            cf_script_curve(&sc, how, t);
            continue;
        }
        snprintf(how, sizeof how, "using 1:2:3:4 with yerrorbars lt %d", lt);
        char mt[96];
        snprintf(mt, sizeof mt, "%s measured", t);
        cf_script_curve(&sc, how, mt);
        bw_fit(&sc, f, (double)lo, (double)hi, lt);
        fitted++;
    }
    char size[32], t[128];
    cf_size_format(peak->bytes, size, sizeof size);
    cf_script_block(&sc, "measured peak", "bytes bw_MiBps");
    fprintf(sc.dat, "%llu %.6g\n", (unsigned long long)peak->bytes, peak_bw);
    snprintf(t, sizeof t, "measured peak: %.0f MiB/s at %s (np=%d)", peak_bw, size, peak->np);
    cf_script_curve(&sc, "using 1:2 with points pt 6 ps 2.5 lw 1.5 lc rgb '#000000'", t);
    snprintf(caption, sizeof caption,
             "Bandwidth of %s against the message size (log scale), one colour per process "
             "count. %s, their bandwidth the table's bw_MiBps taken at that time; bars "
             "follow the 95%% confidence interval of the time. The circled point is the "
             "highest bandwidth measured.%s%s",
             pattern, points_note(r),
             unbounded ? " A bar up to the top has no upper end: its time interval reaches "
                         "zero."
                       : "",
             fitted ? " The solid line is the bandwidth of the fitted model; the dashed line "
                      "is its asymptotic bandwidth r_inf, from the Hockney line alpha + beta m "
                      "tangent to the fit at its largest size; the square marks n_1/2 and the "
                      "triangle the size reaching 90%, of that line or, where it crosses 0 "
                      "above 0 bytes, of the last segment that does not (of that segment's "
                      "bandwidth, as the key says); their line is drawn dotted where it "
                      "differs from the fit."
                    : "");
    rc = cf_script_close(&sc, CF_SEC_BW, title, caption, e);
done:
    free(nps);
    free(s.idx);
    return rc;
}

/* --- time vs process count -------------------------------------------------------------- */

/* Process counts beyond the largest measured one that the across-np model is drawn to. */
#define NP_EXTRAPOLATE 4
/* The point-to-point estimate is drawn to at least this many processes: on a machine that
 * measured np=2 only, it is the one picture of what more processes cost. */
#define NP_ESTIMATE_MIN 64

static int plot_np(cf_report *r, const char *pattern, const char *datatype, int name_dt,
                   cf_error *e)
{
    sel s;
    if (select_rows(r->table, pattern, datatype, 0, &s, e) != 0)
        return CF_EXIT_DATA;
    size_t cap = s.n + 16;
    uint64_t *nps = malloc(cap * sizeof *nps);
    uint64_t *sizes = malloc((s.n + 1) * sizeof *sizes);
    uint64_t *common = malloc((s.n + 1) * sizeof *common);
    uint64_t pick[MAX_SIZES];
    int rc = 0;
    if (nps == NULL || sizes == NULL || common == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto done;
    }
    size_t n_np = distinct(&s, 'n', nps);
    /* What predict answers at a process count without a fit: the across-np model, else
     * the point-to-point estimate; that is the curve. */
    cf_answer_source src;
    int have = r->ms != NULL &&
               cf_answer_choose(r->ms, &r->across, pattern, datatype, 0, &src, NULL, 0) == 0;
    const cf_across *a = have && src.kind == CF_ANSWER_ACROSS ? src.across : NULL;
    const cf_coll *est = have && src.kind == CF_ANSWER_P2P ? src.coll : NULL;
    if (n_np == 0 || (n_np < 2 && est == NULL))
        goto done;
    /* Sizes measured at two process counts or more: a curve of points needs two. With the
     * estimate drawn through them, one point is enough. */
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
        if (at >= 2 || est != NULL)
            common[n_common++] = sizes[j];
    }
    if (n_common == 0)
        goto done;
    /* Sizes whose times differ by less than half (latency-bound small sizes) would draw
     * one curve over the other: of such a run, the smallest size stays. */
    size_t n_apart = 0;
    double last_t = 0;
    /* 0 bytes only when there is nothing else: it is the next size's curve. */
    for (size_t j = common[0] == 0 && n_common > 1; j < n_common; j++) {
        double t = 0;
        for (size_t i = 0; i < s.n && t == 0; i++)
            if (row(&s, i)->bytes == common[j])
                t = cf_report_row_time(r, row(&s, i)); /* at the smallest np */
        if (n_apart > 0 && t < 1.5 * last_t && t > last_t / 1.5)
            continue;
        last_t = t;
        common[n_apart++] = common[j];
    }
    n_common = n_apart;
    size_t n_pick = cf_report_spread(common, n_common, MAX_SIZES - 1, pick);
    long np_lo = (long)nps[0], np_hi = (long)nps[n_np - 1], np_far = np_hi * NP_EXTRAPOLATE;
    if (est != NULL && np_far < NP_ESTIMATE_MIN)
        np_far = NP_ESTIMATE_MIN;
    size_t n_axis = n_np;
    if (a != NULL) {
        nps[n_axis++] = (uint64_t)np_hi * 2;
        nps[n_axis++] = (uint64_t)np_far;
    } else if (est != NULL) {
        for (uint64_t p = 2; p <= (uint64_t)np_far && n_axis < cap; p *= 2)
            if (p > (uint64_t)np_hi)
                nps[n_axis++] = p;
    }
    /* The curves start at the smallest np the estimate means anything at: 2 processes. */
    long from_est = np_lo < 2 ? 2 : np_lo;

    char name[CF_PLOT_NAME_MAX], title[256], caption[1600];
    cf_script_name(name, sizeof name, "np", pattern, name_dt ? datatype : NULL, NULL);
    snprintf(title, sizeof title, "%s (%s): time per call vs process count", pattern, datatype);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_values_axis(sc.gp, "x", nps, n_axis);
    fputs("set xlabel 'processes'\n", sc.gp);
    cf_script_time_axis(sc.gp);
    char algs[160] = "";
    for (size_t j = 0; j < n_pick; j++) {
        int lt = (int)j + 1;
        char size[32], how[96], t[160];
        cf_size_format(pick[j], size, sizeof size);
        cf_script_block(&sc, size, "np t_us t_lo_us t_hi_us");
        for (size_t i = 0; i < s.n; i++) {
            const cf_row *x = row(&s, i);
            if (x->bytes != pick[j])
                continue;
            double tm, tlo, thi;
            time_bounds(r, x, &tm, &tlo, &thi);
            fprintf(sc.dat, "%d %.6g %.6g %.6g\n", x->np, tm, tlo, thi);
        }
        snprintf(how, sizeof how, "using 1:2:3:4 with %s lt %d",
                 a || est ? "yerrorbars" : "yerrorlines", lt);
        snprintf(t, sizeof t, "%s%s", size, a || est ? " measured" : "");
        cf_script_curve(&sc, how, t);
        if (a != NULL) {
            /* The model where it was fitted (solid), then beyond (dashed), with its
             * interval there (dotted). */
            for (int part = 0; part < 2; part++) {
                long from = part ? np_hi : np_lo, to = part ? np_far : np_hi;
                cf_script_block(&sc, part ? "extrapolated" : "within the measured np",
                                "np t_us lo_us hi_us (across-np model)");
                for (int k = 0; k <= 40; k++) {
                    double p = from * pow((double)to / from, k / 40.0);
                    cf_estimate x;
                    cf_across_predict(a, lround(p), (double)pick[j], &x);
                    fprintf(sc.dat, "%ld %.6g %.6g %.6g\n", lround(p), x.t_us, x.lo_us, x.hi_us);
                }
                snprintf(how, sizeof how, "using 1:2 with lines lt %d%s", lt, part ? " dt 2" : "");
                cf_script_curve(&sc, how, NULL);
            }
            for (int c = 3; c <= 4; c++) {
                snprintf(how, sizeof how, "using 1:%d with lines lt %d dt 3 lw 1", c, lt);
                cf_script_curve(&sc, how, NULL);
            }
        } else if (est != NULL) {
            /* What predict answers where no fit is: the estimate, all of it dashed, and
             * its interval dotted. */
            cf_script_block(&sc, "point-to-point estimate",
                            "np t_us lo_us hi_us (point-to-point estimate)");
            long last = 0;
            for (int k = 0; k <= 60; k++) {
                long p = lround(from_est * pow((double)np_far / from_est, k / 60.0));
                cf_estimate x;
                if (p == last || cf_p2p_predict(&r->across.pp, est, datatype, p,
                                                (double)pick[j], &x) != 0 ||
                    !(x.t_us > 0))
                    continue;
                last = p;
                fprintf(sc.dat, "%ld %.6g %.6g %.6g\n", p, x.t_us, x.lo_us, x.hi_us);
                const char *alg = est->algs[x.alg].name;
                if (strstr(algs, alg) == NULL)
                    snprintf(algs + strlen(algs), sizeof algs - strlen(algs), "%s%s",
                             algs[0] ? ", " : "", alg);
            }
            snprintf(how, sizeof how, "using 1:2 with lines lt %d dt 2", lt);
            cf_script_curve(&sc, how, NULL);
            /* The interval as bars at the labelled process counts beyond the measured,
             * each size's a little apart from the others' so that none hides another. */
            cf_script_block(&sc, "its 95% prediction interval",
                            "np t_us lo_us hi_us (point-to-point estimate; np drawn at np * "
                            "shift)");
            double shift = pow(1.035, (double)j - (double)(n_pick - 1) / 2);
            for (size_t k = n_np; k < n_axis; k++) {
                cf_estimate x;
                if (cf_p2p_predict(&r->across.pp, est, datatype, (long)nps[k], (double)pick[j],
                                   &x) == 0 &&
                    x.t_us > 0)
                    fprintf(sc.dat, "%.6g %.6g %.6g %.6g\n", (double)nps[k] * shift, x.t_us,
                            x.lo_us, x.hi_us);
            }
            snprintf(how, sizeof how, "using 1:2:3:4 with yerrorbars lt %d pt 0 lw 1", lt);
            cf_script_curve(&sc, how, NULL);
        }
    }
    /* The key says once, in black, what solid, dashed and dotted mean; the colour is the
     * size. */
    if (a != NULL) {
        cf_script_key(&sc, "with lines lc rgb '#000000'", "across-np model");
        cf_script_key(&sc, "with lines lc rgb '#000000' dt 2",
                      "across-np model, extrapolated beyond the np measured");
        cf_script_key(&sc, "with lines lc rgb '#000000' dt 3 lw 1",
                      "its 95% prediction interval");
        fprintf(sc.gp,
                "set arrow from %ld, graph 0 to %ld, graph 1 nohead lc rgb '#808080' "
                "dt 3\n",
                np_hi, np_hi);
    } else if (est != NULL) {
        char t[320];
        snprintf(t, sizeof t, "point-to-point estimate, what predict answers: %s\n      with "
                 "ping-pong's alpha and beta, times the contention measured", algs);
        cf_script_key(&sc, "with lines lc rgb '#000000' dt 2", t);
        cf_script_key(&sc, "with yerrorbars lc rgb '#000000' pt 0 lw 1",
                      "its 95% prediction interval (with a model-error factor)");
    }
    snprintf(caption, sizeof caption,
             "Time per call of %s against the number of processes, log-log, at a few "
             "message sizes%s. %s; bars are the 95%% confidence interval.%s",
             pattern, est ? "" : " measured at two process counts or more", points_note(r),
             a ? " Lines are the across-np model fitted jointly over every measured process "
                 "count and size: solid where it was fitted, dashed where it is extrapolated "
                 "beyond the largest process count measured (the dotted vertical line), with "
                 "its 95% prediction interval dotted."
             : est ? " Dashed lines are the point-to-point estimate, which is what commfit "
                     "predict answers at a process count without a fit: the cost of the "
                     "algorithm MPICH uses for the pattern evaluated with the ping-pong's alpha "
                     "and beta, times the contention measured where the pattern was. It is an "
                     "estimate, not a measurement, fitted at no process count beyond those "
                     "measured; bars at the labelled process counts are its 95% prediction "
                     "interval, which includes a model-error factor for what alpha and beta "
                     "cannot know."
             : r->ms ? " The model has no across-np model for this pattern."
                     : "");
    rc = cf_script_close(&sc, CF_SEC_NP, title, caption, e);
done:
    free(nps);
    free(sizes);
    free(common);
    free(s.idx);
    return rc;
}

/* --- derived datatypes ------------------------------------------------------------------ */

/* Open symbols for the pack baseline, one for each line type's filled one. */
static const int open_pt[] = {6, 6, 4, 8, 10, 12, 6, 4, 8};

/* The pack baseline of row x at a block count: the pack of x's own layout (pack_DATATYPE)
 * at the same np, bytes and block count, else a pack row that names no layout. The
 * selection s is one np, sorted by blocks then bytes. */
static const cf_row *pack_for(const sel *s, const cf_row *x, int blocks)
{
    char mine[CF_DATATYPE_MAX + 8];
    snprintf(mine, sizeof mine, "pack_%s", x->datatype);
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const cf_row *p = row(s, mid);
        if (p->blocks < blocks || (p->blocks == blocks && p->bytes < x->bytes))
            lo = mid + 1;
        else
            hi = mid;
    }
    const cf_row *any = NULL;
    for (size_t i = lo; i < s->n; i++) {
        const cf_row *p = row(s, i);
        if (p->blocks != blocks || p->bytes != x->bytes)
            break;
        if (strcmp(p->datatype, mine) == 0)
            return p;
        if (strcmp(p->datatype, "pack") == 0)
            any = p;
    }
    return any;
}

/* Whether row x of datatype dt has a gain to show at this block count (blocks < 0: at its
 * own). A row without a block count (a contiguous baseline) belongs to every one. */
static const cf_row *gain_pack(const sel *s, const cf_row *x, const char *dt, int blocks)
{
    if (x->bytes == 0 || strcmp(x->datatype, dt) != 0)
        return NULL;
    if (blocks < 0)
        return pack_for(s, x, x->blocks);
    if (x->blocks != blocks && x->blocks != 0)
        return NULL;
    return pack_for(s, x, blocks);
}

/* The fit of the pack baseline of datatype dt: of its layout, else of plain pack. */
static const cf_fit *pack_fit(const cf_report *r, const char *pattern, int np, const char *dt)
{
    char mine[CF_DATATYPE_MAX + 8];
    snprintf(mine, sizeof mine, "pack_%s", dt);
    const cf_fit *f = cf_report_fit(r, pattern, np, mine);
    return f ? f : cf_report_fit(r, pattern, np, "pack");
}

typedef struct gain_pt {
    const cf_row *x, *pack;
} gain_pt;

static int cmp_gain_pt(const void *a, const void *b)
{
    const cf_row *x = ((const gain_pt *)a)->x, *y = ((const gain_pt *)b)->x;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? -1 : 1;
    return (x->blocks > y->blocks) - (x->blocks < y->blocks);
}

/* The points of datatype dt with a gain at this block count, sorted by size; how many. */
static size_t gain_points(const sel *s, const char *dt, int blocks, gain_pt *out)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        const cf_row *x = row(s, i), *p = gain_pack(s, x, dt, blocks);
        if (p != NULL)
            out[n++] = (gain_pt){x, p};
    }
    qsort(out, n, sizeof *out, cmp_gain_pt);
    return n;
}

/* Gain of the datatypes marked in use (at one block count, or each at its own when blocks
 * < 0) against the message size. */
static int plot_gain(cf_report *r, const sel *s, const names *dts, const unsigned char *use, int np,
                     int name_np, int blocks, int name_blocks, gain_pt *pts, cf_error *e)
{
    const char *pattern = row(s, 0)->pattern;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t d = 0; d < dts->n; d++) {
        size_t n = use[d] ? gain_points(s, dts->v[d], blocks, pts) : 0;
        for (size_t i = 0; i < n; i++) {
            lo = pts[i].x->bytes < lo ? pts[i].x->bytes : lo;
            hi = pts[i].x->bytes > hi ? pts[i].x->bytes : hi;
        }
    }
    if (hi == 0)
        return 0;

    char npart[32], bpart[32];
    snprintf(npart, sizeof npart, "np%d", np);
    snprintf(bpart, sizeof bpart, "b%d", blocks);
    char name[CF_PLOT_NAME_MAX], title[256], caption[1400];
    cf_script_name(name, sizeof name, "gain", pattern, name_np ? npart : NULL,
                   blocks < 0    ? "varying"
                   : name_blocks ? bpart
                                 : NULL);
    if (blocks < 0)
        snprintf(title, sizeof title,
                 "%s, np=%d: gain over pack of the datatypes whose block count grows with the "
                 "size",
                 pattern, np);
    else if (blocks > 0)
        snprintf(title, sizeof title, "%s, np=%d, %d block%s: gain of each datatype over pack",
                 pattern, np, blocks, blocks > 1 ? "s" : "");
    else
        snprintf(title, sizeof title, "%s, np=%d: gain of each datatype over pack", pattern, np);
    cf_script sc;
    int rc = cf_script_open(&sc, r, name, title, e);
    if (rc != 0)
        return rc;
    cf_script_pow2_axis(sc.gp, "x", lo, hi, 1);
    fputs("set xlabel 'message size (bytes; K = 1024)'\n"
          "set ylabel 'gain over pack (%)'\nset format y '%g'\n"
          "set arrow from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#808080' dt 2\n",
          sc.gp);
    int lt = 0, fitted = 0;
    for (size_t d = 0; d < dts->n; d++) {
        size_t n = use[d] ? gain_points(s, dts->v[d], blocks, pts) : 0;
        if (n == 0)
            continue;
        lt++;
        cf_script_block(&sc, dts->v[d], "bytes gain_pct t_us t_pack_us blocks");
        for (size_t i = 0; i < n; i++) {
            double t = cf_report_row_time(r, pts[i].x), tp = cf_report_row_time(r, pts[i].pack);
            fprintf(sc.dat, "%llu %.6g %.6g %.6g %d\n", (unsigned long long)pts[i].x->bytes,
                    cf_report_gain_pct(t, tp), t, tp, pts[i].x->blocks);
        }
        const cf_fit *f = cf_report_fit(r, pattern, np, dts->v[d]);
        const cf_fit *pf = pack_fit(r, pattern, np, dts->v[d]);
        char how[64], t[96];
        snprintf(how, sizeof how, "using 1:2 with %s lt %d", f && pf ? "points" : "linespoints",
                 lt);
        snprintf(t, sizeof t, "%s%s", dts->v[d], f && pf ? " measured" : "");
        cf_script_curve(&sc, how, t);
        if (f == NULL || pf == NULL)
            continue;
        cf_script_block(&sc, dts->v[d], "bytes gain_pct (of the fits)");
        double m0 = (double)pts[0].x->bytes, m1 = (double)pts[n - 1].x->bytes;
        /* At one block count the fits give a smooth curve; where the block count follows
         * the size they are evaluated at the measured (size, blocks). */
        int k_max = blocks < 0 ? (int)n - 1 : 60;
        for (int k = 0; k <= k_max; k++) {
            double m = blocks < 0 ? (double)pts[k].x->bytes : m0 * pow(m1 / m0, k / 60.0);
            double b = blocks < 0 ? pts[k].x->blocks : blocks;
            cf_prediction a, pp;
            if (cf_fit_predict_blocks(f, m, b, &a) != 0 ||
                cf_fit_predict_blocks(pf, m, b, &pp) != 0 || !(pp.t_us > 0))
                continue;
            fprintf(sc.dat, "%.6g %.6g\n", m, cf_report_gain_pct(a.t_us, pp.t_us));
        }
        snprintf(how, sizeof how, "using 1:2 with lines lt %d", lt);
        snprintf(t, sizeof t, "%s from the fits", dts->v[d]);
        cf_script_curve(&sc, how, t);
        fitted++;
    }
    snprintf(caption, sizeof caption,
             "Gain of sending each derived datatype directly over packing the same layout "
             "(MPI_Pack, a contiguous send, MPI_Unpack), in percent of the pack time, against "
             "the message size: 100 (T_pack - T_datatype) / T_pack. Above zero the datatype "
             "is faster.%s%s",
             blocks < 0 ? " The block count of these datatypes grows with the size (one "
                          "block per element), so each point is at its own block count."
                        : "",
             fitted ? " Lines are the same gain computed from the fitted models of the "
                      "datatype and of its pack, T(m, b) = alpha + beta m + gamma b."
                    : "");
    return cf_script_close(&sc, CF_SEC_DDT, title, caption, e);
}

/* The size a derived-datatype row was asked for: measure rounds a payload down to whole
 * blocks of floats (a vector of 100 blocks carries 65200 of 65536 bytes), which never
 * halves it, so the rows of one request share the power of two at or above their bytes. */
static uint64_t asked_group(uint64_t bytes)
{
    uint64_t p = 1;
    while (p < bytes && p < ((uint64_t)1 << 62))
        p <<= 1;
    return p;
}

/* What the layout of datatype dt carries of a request of m bytes cut into b blocks (as
 * measure plans it: floats, equal blocks for vector and hvector, the remainder in the last
 * block otherwise); 0 when b blocks do not fit (more blocks than floats). */
static double payload_at(const char *dt, double m, double b)
{
    const char *layout = strncmp(dt, "pack_", 5) == 0 ? dt + 5 : dt;
    double floats = floor(m / 4);
    if (b < 1 || b > floats)
        return 0;
    if (strcmp(layout, "vector") == 0 || strcmp(layout, "hvector") == 0)
        return 4 * b * floor(floats / b);
    return 4 * floats;
}

/* Time against the block count at a few sizes, with the pack of the same layout beside.
 * A size is a request: its rows at different block counts carry what the layout takes of
 * it, and its curve goes over the block counts measured at it, no further. */
static int plot_blocks(cf_report *r, const sel *s, const char *datatype, int np, int name_np,
                       cf_error *e)
{
    const char *pattern = row(s, 0)->pattern;
    sel d = {s->t, NULL, 0};
    d.idx = malloc((s->n + 1) * sizeof *d.idx);
    uint64_t *groups = malloc((s->n + 1) * sizeof *groups);
    uint64_t *blocks = malloc((s->n + 1) * sizeof *blocks);
    uint64_t *usable = malloc((s->n + 1) * sizeof *usable);
    uint64_t pick[MAX_SIZES];
    int rc = 0;
    if (d.idx == NULL || groups == NULL || blocks == NULL || usable == NULL) {
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
    /* The requests, and of them those measured at two block counts or more. */
    size_t n_groups = 0, n_usable = 0;
    for (size_t i = 0; i < d.n; i++) {
        uint64_t g = asked_group(row(&d, i)->bytes);
        int seen = 0;
        for (size_t j = 0; j < n_groups && !seen; j++)
            seen = groups[j] == g;
        if (!seen)
            groups[n_groups++] = g;
    }
    qsort(groups, n_groups, sizeof *groups, cmp_u64);
    for (size_t j = 0; j < n_groups; j++) {
        int first = -1, two = 0;
        for (size_t i = 0; i < d.n && !two; i++) {
            const cf_row *x = row(&d, i);
            if (asked_group(x->bytes) != groups[j])
                continue;
            if (first < 0)
                first = x->blocks;
            two = x->blocks != first;
        }
        if (two)
            usable[n_usable++] = groups[j];
    }
    if (n_usable == 0)
        goto done;
    /* With the pack baseline each size draws two curves: fewer sizes keep it readable.
     * The spread keeps the largest request, the one measured at every block count. */
    int packs = 0;
    for (size_t i = 0; i < d.n && !packs && !cf_report_is_pack(datatype); i++)
        packs = pack_for(s, row(&d, i), row(&d, i)->blocks) != NULL;
    size_t n_pick = cf_report_spread(usable, n_usable, packs ? MAX_SIZES - 1 : MAX_SIZES, pick);
    const cf_fit *f = cf_report_fit(r, pattern, np, datatype);
    char pack_name[CF_DATATYPE_MAX + 8] = "pack";
    int rounded = 0;

    char npart[32];
    snprintf(npart, sizeof npart, "np%d", np);
    char name[CF_PLOT_NAME_MAX], title[256], caption[1600];
    cf_script_name(name, sizeof name, "blocks", pattern, name_np ? npart : NULL, datatype);
    snprintf(title, sizeof title, "%s, np=%d, %s: time per call vs number of blocks", pattern, np,
             datatype);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_counts_axis(sc.gp, "x", blocks, n_blocks);
    fputs("set xlabel 'blocks'\n", sc.gp);
    cf_script_time_axis(sc.gp);
    for (size_t j = 0; j < n_pick; j++) {
        int lt = (int)j + 1;
        /* The request: the largest payload of its rows, carried whole where the blocks
         * divide it. */
        uint64_t asked = 0;
        int b_lo = 0, b_hi = 0;
        for (size_t i = 0; i < d.n; i++) {
            const cf_row *x = row(&d, i);
            if (asked_group(x->bytes) != pick[j])
                continue;
            asked = x->bytes > asked ? x->bytes : asked;
            b_lo = b_lo == 0 || x->blocks < b_lo ? x->blocks : b_lo;
            b_hi = x->blocks > b_hi ? x->blocks : b_hi;
        }
        char size[32], how[96];
        cf_size_format(asked, size, sizeof size);
        cf_script_block(&sc, size, "blocks t_us t_lo_us t_hi_us bytes (carried by the layout)");
        for (size_t i = 0; i < d.n; i++) {
            const cf_row *x = row(&d, i);
            if (asked_group(x->bytes) != pick[j])
                continue;
            double tm, tlo, thi;
            time_bounds(r, x, &tm, &tlo, &thi);
            fprintf(sc.dat, "%d %.6g %.6g %.6g %llu\n", x->blocks, tm, tlo, thi,
                    (unsigned long long)x->bytes);
            rounded |= x->bytes != asked;
        }
        snprintf(how, sizeof how, "using 1:2:3:4 with %s lt %d", f ? "yerrorbars" : "yerrorlines",
                 lt);
        cf_script_curve(&sc, how, size);
        if (f != NULL) {
            /* At the measured block counts, and between them where the layout carries
             * nearly all of the request (at 71 blocks a vector carries 284 of 512 bytes:
             * a dip that no point shows). */
            cf_script_block(&sc, size, "blocks t_us bytes (of the fit, at what the layout carries)");
            size_t i = 0;
            long last = 0;
            for (int k = 0; k <= 40; k++) {
                long b = lround(b_lo * pow((double)b_hi / b_lo, k / 40.0));
                for (; i < d.n && (k == 40 || row(&d, i)->blocks <= b); i++) {
                    const cf_row *x = row(&d, i);
                    cf_prediction p;
                    if (asked_group(x->bytes) != pick[j] || x->blocks == last ||
                        cf_fit_predict_blocks(f, (double)x->bytes, x->blocks, &p) != 0 ||
                        !(p.t_us > 0))
                        continue;
                    last = x->blocks;
                    fprintf(sc.dat, "%d %.6g %llu\n", x->blocks, p.t_us,
                            (unsigned long long)x->bytes);
                }
                double m = payload_at(datatype, (double)asked, (double)b);
                cf_prediction p;
                if (b <= last || m < 0.9 * (double)asked ||
                    cf_fit_predict_blocks(f, m, (double)b, &p) != 0 || !(p.t_us > 0))
                    continue;
                last = b;
                fprintf(sc.dat, "%ld %.6g %.6g\n", b, p.t_us, m);
            }
            snprintf(how, sizeof how, "using 1:2 with lines lt %d", lt);
            cf_script_curve(&sc, how, NULL);
        }
        if (!packs)
            continue;
        int any = 0;
        for (size_t i = 0; i < d.n; i++) {
            const cf_row *x = row(&d, i), *p;
            if (asked_group(x->bytes) != pick[j] || (p = pack_for(s, x, x->blocks)) == NULL)
                continue;
            if (any++ == 0)
                cf_script_block(&sc, "pack of the same layout", "blocks t_us");
            snprintf(pack_name, sizeof pack_name, "%s", p->datatype);
            fprintf(sc.dat, "%d %.6g\n", x->blocks, cf_report_row_time(r, p));
        }
        if (any == 0)
            continue;
        snprintf(how, sizeof how, "using 1:2 with linespoints lt %d dt 2 lw 1 pt %d", lt,
                 open_pt[lt < 9 ? lt : 1]);
        cf_script_curve(&sc, how, NULL);
    }
    /* What the line styles mean, once, in black: the colours are the sizes. */
    char t[CF_FORMULA_MAX + 192];
    if (f != NULL) {
        fit_title(t, sizeof t, "", f);
        double g, glo, ghi;
        size_t k = strlen(t);
        if (cf_fit_per_block(f, &g, &glo, &ghi) == 0 && k < sizeof t)
            snprintf(t + k, sizeof t - k, ";\n      per block %.*g ns [%.*g, %.*g] (95%%)",
                     cf_sig_prec(g, 3), g, cf_sig_prec(glo, 3), glo, cf_sig_prec(ghi, 3), ghi);
        cf_script_key(&sc, "with lines lc rgb '#000000'", t);
    }
    if (packs) {
        snprintf(t, sizeof t, "%s measured (MPI_Pack of the same layout, contiguous send)",
                 pack_name);
        cf_script_key(&sc, "with linespoints lc rgb '#000000' dt 2 lw 1 pt 6", t);
    }
    snprintf(caption, sizeof caption,
             "Time per call of %s with datatype %s against the number of blocks the data is "
             "cut into, log-log, one colour per message size. %s; bars are the 95%% "
             "confidence interval. A rising curve is the cost per block. Each size's curve "
             "goes over the block counts measured at it: a block holds one float at least, "
             "so a small message has few.%s%s%s",
             pattern, datatype, points_note(r),
             rounded ? " A size is the payload asked for: at a block count that does not "
                       "divide it the layout carries a little less (whole blocks of floats), "
                       "as measured (the data file gives the bytes of each point)."
                     : "",
             f ? " Solid lines are the fitted model T(m, b) at each size (its formula in the "
                 "key), at the bytes the layout carries."
               : "",
             packs ? " Open symbols on dashed lines are the pack baseline of the same layout "
                     "at the same size: where they lie below the datatype, packing is faster."
                   : "");
    rc = cf_script_close(&sc, CF_SEC_DDT, title, caption, e);
done:
    free(d.idx);
    free(groups);
    free(blocks);
    free(usable);
    return rc;
}

/* --- bandwidth of the derived datatypes ------------------------------------------------- */

/* One curve of a datatype's bandwidth plot: a datatype at one block count, or (blocks < 0)
 * at every block count it has, each point at its own (the contiguous baseline; struct,
 * whose block count follows the size). */
typedef struct bw_series {
    char dt[CF_DATATYPE_MAX + 8];
    int blocks;
    int lt;
    int pack; /* the pack baseline: dashed, open symbols */
} bw_series;

#define BW_SERIES_MAX 8

static int in_series(const cf_row *x, const bw_series *c)
{
    return x->bytes > 0 && !isnan(x->bw_MiBps) && strcmp(x->datatype, c->dt) == 0 &&
           (c->blocks < 0 || x->blocks == c->blocks);
}

/* The contiguous baseline is measured at every payload any datatype carried (4096, 4092,
 * 4080, 4000 ...): beside one datatype, it is drawn at the sizes of that datatype's first
 * curve only, the same bytes. */
static int baseline_at(const sel *at, const bw_series *first, uint64_t bytes)
{
    for (size_t i = 0; i < at->n; i++)
        if (row(at, i)->bytes == bytes && in_series(row(at, i), first))
            return 1;
    return 0;
}

/* Messages a call counts in the bandwidth column (a ping-pong 1), from a row. */
static int row_nmsg(const cf_row *x)
{
    double k = x->bytes > 0 && x->t_avg_us > 0 ? x->bw_MiBps * 1.048576 * x->t_avg_us / (double)x->bytes
                                              : 1;
    return k > 0.5 ? (int)lround(k) : 1;
}

/* Bandwidth against the size of datatype dt at a few block counts, beside the contiguous
 * baseline and the pack of the same layout at the same block counts, with the fits'
 * bandwidth and, where a fit has saturation figures, its r_inf. */
static int plot_bw_ddt(cf_report *r, const sel *at, const char *dt, int np, int name_np,
                       cf_error *e)
{
    const char *pattern = row(at, 0)->pattern;
    bw_series cs[BW_SERIES_MAX];
    size_t n_cs = 0;
    uint64_t *blocks = malloc((at->n + 1) * sizeof *blocks);
    uint64_t *curve = malloc((at->n + 1) * sizeof *curve);
    if (blocks == NULL || curve == NULL) {
        free(blocks);
        free(curve);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    /* The block counts of dt measured at two sizes or more: each can be a curve. */
    size_t n_blocks = 0, n_curve = 0, n_rows = 0;
    for (size_t i = 0; i < at->n; i++) {
        const cf_row *x = row(at, i);
        if (strcmp(x->datatype, dt) != 0 || x->bytes == 0 || isnan(x->bw_MiBps))
            continue;
        n_rows++;
        int seen = 0;
        for (size_t j = 0; j < n_blocks && !seen; j++)
            seen = blocks[j] == (uint64_t)x->blocks;
        if (!seen)
            blocks[n_blocks++] = (uint64_t)x->blocks;
    }
    qsort(blocks, n_blocks, sizeof *blocks, cmp_u64);
    for (size_t j = 0; j < n_blocks; j++) {
        size_t n = 0;
        for (size_t i = 0; i < at->n; i++) {
            const cf_row *x = row(at, i);
            n += strcmp(x->datatype, dt) == 0 && x->bytes > 0 && !isnan(x->bw_MiBps) &&
                 (uint64_t)x->blocks == blocks[j];
        }
        if (n >= 2)
            curve[n_curve++] = blocks[j];
    }
    int varying = n_curve == 0 && n_rows >= 2, rc = 0;
    int contiguous = strcmp(dt, "contiguous") == 0;
    if (n_curve == 0 && !varying)
        goto done;
    /* The baselines: contiguous, and the pack of dt's own layout (else plain pack). */
    char pack[CF_DATATYPE_MAX + 8];
    snprintf(pack, sizeof pack, "pack_%s", dt);
    int have_pack = 0, have_contig = 0;
    for (size_t i = 0; i < at->n; i++) {
        have_pack |= strcmp(row(at, i)->datatype, pack) == 0;
        have_contig |= strcmp(row(at, i)->datatype, "contiguous") == 0;
    }
    if (!have_pack) {
        snprintf(pack, sizeof pack, "pack");
        for (size_t i = 0; i < at->n; i++)
            have_pack |= strcmp(row(at, i)->datatype, pack) == 0;
    }
    have_pack &= !contiguous;
    uint64_t pick[3];
    size_t n_pick = varying ? 1 : cf_report_spread(curve, n_curve, have_pack ? 2 : 3, pick);
    if (varying)
        pick[0] = 0;
    int lt = 0;
    if (have_contig && !contiguous)
        cs[n_cs++] = (bw_series){"contiguous", -1, ++lt, 0};
    for (size_t k = 0; k < n_pick; k++) {
        bw_series c = {"", varying || contiguous ? -1 : (int)pick[k], ++lt, 0};
        snprintf(c.dt, sizeof c.dt, "%s", dt);
        cs[n_cs++] = c;
        if (have_pack) {
            bw_series p = {"", c.blocks, lt, 1};
            snprintf(p.dt, sizeof p.dt, "%s", pack);
            cs[n_cs++] = p;
        }
    }
    /* The axes hold every point, and the r_inf of a fit unless far above them. */
    int base = have_contig && !contiguous; /* cs[0] is the baseline, cs[1] dt's first */
    uint64_t lo = UINT64_MAX, hi = 0;
    double top = 0;
    for (size_t c = 0; c < n_cs; c++)
        for (size_t i = 0; i < at->n; i++) {
            const cf_row *x = row(at, i);
            if (!in_series(x, &cs[c]) || (base && c == 0 && !baseline_at(at, &cs[1], x->bytes)))
                continue;
            lo = x->bytes < lo ? x->bytes : lo;
            hi = x->bytes > hi ? x->bytes : hi;
            top = row_bw(r, x) > top ? row_bw(r, x) : top;
        }
    double peak = top;
    for (size_t c = 0; c < n_cs; c++) {
        const cf_fit *f = cf_report_fit(r, pattern, np, cs[c].dt);
        if (f != NULL && f->sat.valid && f->sat.rinf_MiBps > top && f->sat.rinf_MiBps < 3 * peak)
            top = f->sat.rinf_MiBps;
    }

    char npart[32];
    snprintf(npart, sizeof npart, "np%d", np);
    char name[CF_PLOT_NAME_MAX], title[256], caption[1600];
    cf_script_name(name, sizeof name, "bw", pattern, name_np ? npart : NULL, dt);
    snprintf(title, sizeof title, "%s, np=%d, %s: bandwidth vs message size", pattern, np, dt);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_pow2_axis(sc.gp, "x", lo, hi, 1);
    fputs("set xlabel 'message size (bytes; K = 1024)'\n"
          "set ylabel 'bandwidth (MiB/s)'\nset format y '%g'\nset mytics 2\n",
          sc.gp);
    fprintf(sc.gp, "set yrange [0:%.6g]\n", top > 0 ? 1.12 * top : 1);
    int fitted = 0, rinf = 0;
    for (size_t c = 0; c < n_cs; c++) {
        const bw_series *cv = &cs[c];
        char what[sizeof cv->dt + 64], how[128], t[CF_FORMULA_MAX + 256];
        int w = (int)sizeof cv->dt;
        if (cv->blocks >= 0)
            snprintf(what, sizeof what, "%.*s, %d block%s", w, cv->dt, cv->blocks,
                     cv->blocks == 1 ? "" : "s");
        else if (strcmp(cv->dt, "contiguous") == 0)
            snprintf(what, sizeof what, "%.*s", w, cv->dt);
        else
            snprintf(what, sizeof what, "%.*s, blocks growing with the size", w, cv->dt);
        cf_script_block(&sc, what, "bytes bw_MiBps bw_lo_MiBps bw_hi_MiBps blocks");
        int nmsg = 1, n = 0;
        double m0 = 0, m1 = 0;
        for (size_t i = 0; i < at->n; i++) {
            const cf_row *x = row(at, i);
            if (!in_series(x, cv) || (base && c == 0 && !baseline_at(at, &cs[1], x->bytes)))
                continue;
            double tm = cf_report_row_time(r, x), bw = row_bw(r, x);
            double rel = isnan(x->t_ci95_us) ? 0 : x->t_ci95_us / tm;
            fprintf(sc.dat, "%llu %.6g %.6g %.6g %d\n", (unsigned long long)x->bytes, bw,
                    bw / (1 + rel), rel < 1 ? bw / (1 - rel) : 10 * top, x->blocks);
            nmsg = row_nmsg(x);
            m0 = n == 0 || (double)x->bytes < m0 ? (double)x->bytes : m0;
            m1 = (double)x->bytes > m1 ? (double)x->bytes : m1;
            n++;
        }
        const cf_fit *f = cf_report_fit(r, pattern, np, cv->dt);
        if (cv->pack)
            snprintf(how, sizeof how, "using 1:2:3:4 with %s lt %d pt %d",
                     f ? "yerrorbars" : "yerrorlines dt 2", cv->lt, open_pt[cv->lt < 9 ? cv->lt : 1]);
        else
            snprintf(how, sizeof how, "using 1:2:3:4 with %s lt %d",
                     f ? "yerrorbars" : "yerrorlines", cv->lt);
        snprintf(t, sizeof t, "%s measured", what);
        cf_script_curve(&sc, how, t);
        if (f == NULL)
            continue;
        /* The fit's bandwidth over the sizes of the points: at the series' block count,
         * or at each point's own where it follows the size. */
        cf_script_block(&sc, what, "bytes bw_MiBps (of the fit)");
        if (cv->blocks >= 0 || strcmp(cv->dt, "contiguous") == 0) {
            double b = cv->blocks >= 0 ? cv->blocks : f->blocks;
            for (int k = 0; k <= 60; k++) {
                double m = m0 * pow(m1 / m0, k / 60.0);
                cf_prediction p;
                if (cf_fit_predict_blocks(f, m, b, &p) == 0 && p.t_us > 0)
                    fprintf(sc.dat, "%.6g %.6g\n", m, nmsg * m / (1.048576 * p.t_us));
            }
        } else {
            for (size_t i = 0; i < at->n; i++) {
                const cf_row *x = row(at, i);
                cf_prediction p;
                if (in_series(x, cv) &&
                    cf_fit_predict_blocks(f, (double)x->bytes, x->blocks, &p) == 0 && p.t_us > 0)
                    fprintf(sc.dat, "%llu %.6g\n", (unsigned long long)x->bytes,
                            nmsg * (double)x->bytes / (1.048576 * p.t_us));
            }
        }
        snprintf(how, sizeof how, "using 1:2 with lines lt %d%s", cv->lt, cv->pack ? " dt 2" : "");
        fit_title(t, sizeof t, what, f);
        cf_script_curve(&sc, how, t);
        fitted++;
        if (!f->sat.valid)
            continue;
        cf_script_block(&sc, "r_inf", "bytes bw_MiBps");
        fprintf(sc.dat, "%.6g %.6g\n%.6g %.6g\n", (double)lo / 1.4, f->sat.rinf_MiBps,
                (double)hi * 1.4, f->sat.rinf_MiBps);
        snprintf(how, sizeof how, "using 1:2 with lines lt %d dt 4 lw 1", cv->lt);
        char r0[32], r1[32], r2[32];
        cf_report_bw_text(f->sat.rinf_MiBps, r0, sizeof r0);
        cf_report_bw_text(f->sat.rinf_lo_MiBps, r1, sizeof r1);
        cf_report_bw_text(f->sat.rinf_hi_MiBps, r2, sizeof r2);
        if (isfinite(f->sat.rinf_hi_MiBps))
            snprintf(t, sizeof t, "%.*s r_inf = %s MiB/s (95%%: %s to %s)", w, cv->dt, r0, r1,
                     r2);
        else
            snprintf(t, sizeof t, "%.*s r_inf = %s MiB/s (95%%: above %s)", w, cv->dt, r0, r1);
        cf_script_curve(&sc, how, t);
        rinf++;
    }
    snprintf(caption, sizeof caption,
             "Bandwidth of %s with datatype %s against the message size (log scale)%s%s. %s, "
             "their bandwidth the table's bw_MiBps taken at that time; bars follow the 95%% "
             "confidence interval of the time.%s%s",
             pattern, dt,
             varying ? ", each point at its own block count (one block per element)"
             : contiguous ? ""
                          : ", at the smallest and largest block counts measured over "
                            "several sizes",
             have_contig && !contiguous ? ", beside the contiguous transfer of the same bytes"
                                        : "",
             points_note(r),
             have_pack ? " Open symbols are the pack baseline of the same layout (MPI_Pack, "
                         "a contiguous send, MPI_Unpack) at the same block counts."
                       : "",
             !fitted ? ""
             : rinf  ? " Lines are the bandwidth of the fitted models (dashed for pack); a "
                       "dash-dotted horizontal line is the asymptotic bandwidth r_inf of a fit "
                       "that has saturation figures."
                     : " Lines are the bandwidth of the fitted models (dashed for pack).");
    rc = cf_script_close(&sc, CF_SEC_BW, title, caption, e);
done:
    free(blocks);
    free(curve);
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
    gain_pt *pts = malloc((s.n + 1) * sizeof *pts);
    unsigned char *regular = NULL, *varying = NULL;
    int rc = 0;
    if (nps == NULL || blocks == NULL || pts == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto done;
    }
    if ((rc = collect_names(r->table, 1, pattern, &dts, e)) != 0)
        goto done;
    regular = calloc(dts.n + 1, 1);
    varying = calloc(dts.n + 1, 1);
    if (regular == NULL || varying == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto done;
    }
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
        size_t n_blocks = distinct(&at, 'b', blocks);
        if (n_blocks > 1 && blocks[0] == 0) {
            memmove(blocks, blocks + 1, (n_blocks - 1) * sizeof *blocks);
            n_blocks--;
        }
        /* A datatype gets a curve in the plot of each block count it was measured at
         * over two sizes or more; one whose block count follows the size (struct: a
         * block per element) has one point per block count, and a plot of its own. */
        int any_varying = 0;
        for (size_t d = 0; d < dts.n; d++) {
            regular[d] = varying[d] = 0;
            if (cf_report_is_pack(dts.v[d]))
                continue;
            size_t most = 0;
            for (size_t b = 0; b < n_blocks; b++) {
                size_t n = gain_points(&at, dts.v[d], (int)blocks[b], pts);
                most = n > most ? n : most;
            }
            regular[d] = most >= 2;
            varying[d] = most == 1 && gain_points(&at, dts.v[d], -1, pts) >= 2;
            any_varying |= varying[d];
        }
        for (size_t b = 0; b < n_blocks && rc == 0; b++)
            rc = plot_gain(r, &at, &dts, regular, np, n_np > 1, (int)blocks[b], n_blocks > 1, pts,
                           e);
        if (any_varying && rc == 0)
            rc = plot_gain(r, &at, &dts, varying, np, n_np > 1, -1, 1, pts, e);
        for (size_t d = 0; d < dts.n && rc == 0; d++)
            if (!cf_report_is_pack(dts.v[d]) || strcmp(dts.v[d], "pack") == 0)
                rc = plot_blocks(r, &at, dts.v[d], np, n_np > 1, e);
        for (size_t d = 0; d < dts.n && rc == 0; d++)
            if (!cf_report_is_pack(dts.v[d]))
                rc = plot_bw_ddt(r, &at, dts.v[d], np, n_np > 1, e);
    }
done:
    free(regular);
    free(varying);
    free(pts);
    free(dts.v);
    free(nps);
    free(blocks);
    free(s.idx);
    return rc;
}

/* --- residuals -------------------------------------------------------------------------- */

/* A percentage for a key: two significant digits, whole numbers from 10 on. */
static void pct_text(double v, char *buf, size_t n)
{
    snprintf(buf, n, fabs(v) >= 10 ? "%.0f" : "%.2g", v);
}

/* Relative to the measured time, as the fit's quality figures are. */
static double rel_err_pct(double measured, double fitted)
{
    return 100 * (measured - fitted) / measured;
}

static int was_set_aside(const cf_fit *f, const cf_row *x)
{
    for (size_t i = 0; i < f->nrejected; i++)
        if (f->rejected[i].bytes == x->bytes && f->rejected[i].blocks == x->blocks)
            return 1;
    for (size_t i = 0; i < f->nset_aside; i++) /* a no-op, before the fit */
        if (f->set_aside[i].bytes == x->bytes && f->set_aside[i].blocks == x->blocks)
            return 1;
    return 0;
}

/* Relative error of the fits of one pattern: one curve per np (plain datatypes) or per
 * datatype (derived datatypes, every block count as points). */
static int plot_resid(cf_report *r, const char *pattern, const char *datatype, int ddt, int name_dt,
                      cf_error *e)
{
    sel s;
    if (select_rows(r->table, pattern, datatype, ddt, &s, e) != 0)
        return CF_EXIT_DATA;
    names dts = {NULL, 0};
    uint64_t *nps = malloc((s.n + 1) * sizeof *nps);
    int rc = 0;
    if (nps == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto done;
    }
    if (ddt) {
        if ((rc = collect_names(r->table, 1, pattern, &dts, e)) != 0)
            goto done;
    }
    size_t n_np = distinct(&s, 'n', nps);
    int lines = !repeated(&s);
    /* What has a fit, and the sizes that can be drawn. */
    uint64_t lo = UINT64_MAX, hi = 0;
    size_t n_aside = 0;
    for (size_t i = 0; i < s.n; i++) {
        const cf_row *x = row(&s, i);
        const cf_fit *f = cf_report_fit(r, pattern, x->np, x->datatype);
        if (f == NULL || x->bytes == 0)
            continue;
        lo = x->bytes < lo ? x->bytes : lo;
        hi = x->bytes > hi ? x->bytes : hi;
        n_aside += was_set_aside(f, x);
    }
    if (hi == 0)
        goto done;

    char name[CF_PLOT_NAME_MAX], title[256], caption[1200];
    cf_script_name(name, sizeof name, "resid", pattern,
                   ddt       ? "datatypes"
                   : name_dt ? datatype
                             : NULL,
                   NULL);
    snprintf(title, sizeof title, "%s (%s): relative error of the fits", pattern,
             ddt ? "derived datatypes" : datatype);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_pow2_axis(sc.gp, "x", lo, hi, 1);
    fputs("set xlabel 'message size (bytes; K = 1024)'\n"
          "set ylabel '(measured - fitted) / measured (%)'\nset format y '%g'\n"
          "set arrow from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#808080' dt 2\n",
          sc.gp);
    /* One curve per np, or per datatype (and np when there are several). */
    size_t n_groups = ddt ? dts.n * n_np : n_np;
    int lt = 0;
    for (size_t g = 0; g < n_groups; g++) {
        int np = (int)nps[ddt ? g % n_np : g];
        const char *dt = ddt ? dts.v[g / n_np] : datatype;
        const cf_fit *f = cf_report_fit(r, pattern, np, dt);
        if (f == NULL)
            continue;
        char what[96], how[96];
        if (ddt && n_np > 1)
            snprintf(what, sizeof what, "%s np=%d", dt, np);
        else if (ddt)
            snprintf(what, sizeof what, "%s", dt);
        else
            snprintf(what, sizeof what, "np=%d", np);
        int pts = 0;
        size_t b = np_find(&s, (uint64_t)np), en = np_end(&s, b);
        for (size_t i = b; i < en; i++) {
            const cf_row *x = row(&s, i);
            if (x->np != np || strcmp(x->datatype, dt) != 0 || x->bytes == 0)
                continue;
            cf_prediction p;
            if (cf_fit_predict_blocks(f, (double)x->bytes, x->blocks, &p) != 0 || !(p.t_us > 0))
                continue;
            if (pts++ == 0)
                cf_script_block(&sc, what, "bytes rel_err_pct blocks");
            fprintf(sc.dat, "%llu %.6g %d\n", (unsigned long long)x->bytes,
                    rel_err_pct(cf_report_row_time(r, x), p.t_us), x->blocks);
        }
        if (pts == 0)
            continue;
        lt++;
        snprintf(how, sizeof how, "using 1:2 with %s lt %d",
                 ddt || !lines ? "points" : "linespoints", lt);
        char t[256], loo[32], most[32];
        pct_text(100 * f->q.loo_mape, loo, sizeof loo);
        pct_text(100 * f->q.max_rel_err, most, sizeof most);
        snprintf(t, sizeof t, "%s %s (leave-one-out error %s%%, largest %s%%)", what, f->model, loo,
                 most);
        cf_script_curve(&sc, how, t);
    }
    if (n_aside > 0) {
        cf_script_block(&sc, "set aside by the robust fit", "bytes rel_err_pct blocks");
        for (size_t i = 0; i < s.n; i++) {
            const cf_row *x = row(&s, i);
            const cf_fit *f = cf_report_fit(r, pattern, x->np, x->datatype);
            cf_prediction p;
            if (f == NULL || x->bytes == 0 || !was_set_aside(f, x) ||
                cf_fit_predict_blocks(f, (double)x->bytes, x->blocks, &p) != 0 || !(p.t_us > 0))
                continue;
            fprintf(sc.dat, "%llu %.6g %d\n", (unsigned long long)x->bytes,
                    rel_err_pct(cf_report_row_time(r, x), p.t_us), x->blocks);
        }
        cf_script_curve(&sc, "using 1:2 with points pt 6 ps 2 lw 1.5 lc rgb '#000000'",
                        "set aside by the robust fit");
    }
    snprintf(caption, sizeof caption,
             "Relative error of each fit at each measured point, (measured - fitted) / "
             "measured in percent, as the fit's quality figures count it, against the message "
             "size. A good fit scatters evenly around zero; "
             "a bend or a trend shows a model that does not follow the data.%s%s",
             ddt ? " Every block count is drawn." : "",
             n_aside ? " Circled points were set aside by the robust fit as outliers." : "");
    rc = cf_script_close(&sc, CF_SEC_RESID, title, caption, e);
done:
    free(dts.v);
    free(nps);
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
    for (int kind = 0; kind < 4 && rc == 0; kind++) {
        if (kind == 3 && r->ms == NULL)
            break;
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
                else if (kind == 2)
                    rc = plot_np(r, pats.v[i], dts.v[j], dts.n > 1, e);
                else
                    rc = plot_resid(r, pats.v[i], dts.v[j], 0, dts.n > 1, e);
            }
        }
        for (size_t i = 0; i < ddt_pats.n && rc == 0; i++) {
            if (kind == 1)
                rc = plots_ddt(r, ddt_pats.v[i], e);
            else if (kind == 3)
                rc = plot_resid(r, ddt_pats.v[i], NULL, 1, 0, e);
        }
    }
    free(pats.v);
    free(dts.v);
    free(ddt_pats.v);
    return rc;
}
