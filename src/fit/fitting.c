/* What every model kind shares around the engine (robust.c): the per-np least-squares
 * call and its messages, quality, saturation, the fit's check, and fitting one group. */
#include "config.h"

#include "fit/fitting.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit/kind.h"
#include "base/size.h"
#include "base/stats.h"

const char *cf_statistic_name(cf_statistic s)
{
    return s == CF_STAT_MEDIAN ? "median" : s == CF_STAT_MEAN ? "mean" : "min";
}

const char *cf_weights_name(cf_weights w)
{
    return w == CF_WEIGHTS_RELATIVE ? "relative" : w == CF_WEIGHTS_VARIANCE ? "variance" : "none";
}

int cf_statistic_parse(const char *s, cf_statistic *out)
{
    static const char *names[] = {"median", "mean", "min"};
    for (int i = 0; i < 3; i++)
        if (strcmp(s, names[i]) == 0)
            return *out = (cf_statistic)i, 0;
    return -1;
}

int cf_weights_parse(const char *s, cf_weights *out)
{
    static const char *names[] = {"relative", "variance", "none"};
    for (int i = 0; i < 3; i++)
        if (strcmp(s, names[i]) == 0)
            return *out = (cf_weights)i, 0;
    return -1;
}

int cf_fit_row_error(const cf_fit_input *in, const cf_row *r, cf_error *e, const char *fmt, ...)
{
    const char *file = in->source_of != NULL ? in->source_of(in->source_ctx, r) : NULL;
    va_list ap;
    va_start(ap, fmt);
    int rc = cf_error_vset(e, CF_EXIT_DATA, file, file != NULL ? (long)r->line : 0, fmt, ap);
    va_end(ap);
    return rc;
}

void cf_lsq_free(cf_lsq *r)
{
    free(r->fitted);
    free(r->loo_rel);
    free(r->rejected);
    r->fitted = r->loo_rel = NULL;
    r->rejected = NULL;
}

_Static_assert(CF_COEF_MAX <= CF_ROBUST_PMAX, "a fit's coefficients fit the engine's");

static double dot(const double *x, const double *c, size_t p)
{
    double s = 0;
    for (size_t j = 0; j < p; j++)
        s += x[j] * c[j];
    return s;
}

/* cf_lsq_run, or with plain (a fit of the same points without rejection) its rounds of
 * rejection only: they start from where the fit without them ends. The engine's result
 * lives in its workspace; r gets its own copy of the per-point arrays. */
static int lsq_run(const double *X, const double *y, const double *sd, size_t n, size_t p,
                   cf_weights w, int robust, const cf_lsq *plain, const char *what, cf_lsq *r,
                   cf_error *e)
{
    memset(r, 0, sizeof *r);
    r->n = n;
    r->p = p;
    if (p == 0 || p > CF_COEF_MAX)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "%s: internal error: %zu parameters", what,
                            p);
    if (n <= p)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "%s: %zu points for %zu parameters: expected at least %zu", what, n, p,
                            p + 1);
    cf_robust_workspace *W = cf_robust_alloc(cf_robust_drop, n, p);
    double *fitted = calloc(n, sizeof *fitted), *loo_rel = calloc(n, sizeof *loo_rel);
    unsigned char *rejected = calloc(n, 1);
    cf_lsq res;
    cf_robust_status st = W == NULL || !fitted || !loo_rel || !rejected
                              ? CF_ROBUST_NOMEM
                              : cf_robust_fit(W, X, y, sd, n, w, robust, plain, &res);
    int rc = 0;
    if (st == CF_ROBUST_OK) {
        *r = res;
        r->fitted = memcpy(fitted, res.fitted, n * sizeof *fitted);
        r->loo_rel = memcpy(loo_rel, res.loo_rel, n * sizeof *loo_rel);
        r->rejected = memcpy(rejected, res.rejected, n);
    } else if (st == CF_ROBUST_NOMEM) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    } else if (st == CF_ROBUST_DIVERGED) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "%s: the fit did not converge", what);
    } else if (st == CF_ROBUST_DOF) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                          "%s: %d points for %zu parameters: expected at least %zu", what,
                          res.nkept, p, p + 1);
    } else {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                          "%s: the sizes do not determine the %zu parameters of this model "
                          "(too few distinct sizes)",
                          what, p);
    }
    cf_robust_free(W);
    if (rc != 0) {
        free(fitted);
        free(loo_rel);
        free(rejected);
    }
    return rc;
}

int cf_lsq_run(const double *X, const double *y, const double *sd, size_t n, size_t p, cf_weights w,
               int robust, const char *what, cf_lsq *r, cf_error *e)
{
    return lsq_run(X, y, sd, n, p, w, robust, NULL, what, r, e);
}

int cf_lsq_resume(const cf_lsq *plain, const double *X, const double *y, const double *sd,
                  cf_weights w, int robust, const char *what, cf_lsq *r, cf_error *e)
{
    return lsq_run(X, y, sd, plain->n, plain->p, w, robust, plain, what, r, e);
}

void cf_quality_fill(const cf_lsq *r, const double *y, int k, cf_quality *q)
{
    double sum_loo = 0, max_rel = 0, sw = 0, swy = 0;
    int n = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (r->rejected[i])
            continue;
        n++;
        sum_loo += r->loo_rel[i];
        double rel = fabs(y[i] - r->fitted[i]) / y[i];
        if (rel > max_rel)
            max_rel = rel;
        double w = 1 / (r->fitted[i] * r->fitted[i]);
        sw += w;
        swy += w * y[i];
    }
    double mean = swy / sw, tss = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (r->rejected[i])
            continue;
        double d = (y[i] - mean) / r->fitted[i];
        tss += d * d;
    }
    q->n = n;
    q->dof = r->dof;
    q->loo_mape = sum_loo / n;
    q->max_rel_err = max_rel;
    q->r2 = tss > 0 ? 1 - r->rrss / tss : 1;
    q->aicc = cf_aicc(r->rrss, (size_t)n, k + 1); /* the residual variance counts */
}

/* Where the m^2 term's slope is read: m, or max_bytes beyond it (cf_fit_design): its
 * tangent there, M (2m - M), above M. */
static double m_square(const cf_fit *f, double m)
{
    return f->max_bytes > 0 && m > (double)f->max_bytes ? (double)f->max_bytes : m;
}

void cf_fit_design(const cf_fit *f, double m, double b, double *x)
{
    const cf_model_kind *k = f->kind;
    for (int j = 0; j < f->ncoef; j++) {
        switch (k->terms[j]) {
        case CF_TERM_ONE:
            x[j] = 1;
            break;
        case CF_TERM_M:
            x[j] = m;
            break;
        case CF_TERM_M2:
            x[j] = m_square(f, m) * (2 * m - m_square(f, m)); /* m^2 inside the sizes */
            break;
        case CF_TERM_B:
            x[j] = b;
            break;
        case CF_TERM_STEP:
            x[j] = b > 1 ? 1 : 0;
            break;
        case CF_TERM_M_STEP:
            x[j] = b > 1 ? m : 0;
            break;
        default:
            x[j] = 0;
        }
    }
}

double cf_fit_switch(const cf_fit *f, int k)
{
    double a = (double)f->seg[k].to_bytes, b = (double)f->seg[k + 1].from_bytes;
    return a > 0 ? sqrt(a * b) : b / 2;
}

int cf_fit_segment(const cf_fit *f, double m, int *other)
{
    *other = -1;
    for (int k = 0; k + 1 < f->nseg; k++) {
        if (m <= (double)f->seg[k].to_bytes)
            return k;
        if (m < (double)f->seg[k + 1].from_bytes) {
            int mine = m < cf_fit_switch(f, k) ? k : k + 1;
            *other = mine == k ? k + 1 : k;
            return mine;
        }
    }
    return f->nseg - 1;
}

void cf_fit_warn(cf_fit *f, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char **nw = realloc(f->warnings, (f->nwarnings + 1) * sizeof *nw);
    if (nw == NULL)
        return;
    f->warnings = nw;
    if ((nw[f->nwarnings] = strdup(buf)) != NULL)
        f->nwarnings++;
}

int cf_fit_per_block(const cf_fit *f, int k, double *ns, double *lo_ns, double *hi_ns)
{
    if (f->kind == NULL || k < 0 || k >= f->nseg)
        return -1;
    for (int j = 0; j < f->ncoef; j++) {
        const cf_segment *s = &f->seg[k];
        if (f->kind->terms[j] != CF_TERM_B || (s->coef[j] == 0 && s->cov[j][j] == 0))
            continue;
        double g = s->coef[j], se = sqrt(fmax(0, s->cov[j][j]));
        double h = cf_t975(f->dof) * se;
        *ns = 1e3 * g;
        *lo_ns = 1e3 * (g - h);
        *hi_ns = 1e3 * (g + h);
        return 0;
    }
    return -1;
}

int cf_fit_flag_poor(cf_fit *f)
{
    if (!(isfinite(f->q.loo_mape) && f->q.loo_mape > CF_POOR_LOO))
        return 0;
    cf_fit_warn(f,
                "poor fit: its leave-one-out error, %.*g%%, is above %.0f%%; its predictions "
                "are rough",
                cf_sig_prec(100 * f->q.loo_mape, 2), 100 * f->q.loo_mape, 100 * CF_POOR_LOO);
    return 1;
}

/* Orders points by block count, size, then time. */
static int cmp_point(const void *a, const void *b)
{
    const cf_measured *x = a, *y = b;
    if (x->blocks != y->blocks)
        return (x->blocks > y->blocks) - (x->blocks < y->blocks);
    if (x->bytes != y->bytes)
        return (x->bytes > y->bytes) - (x->bytes < y->bytes);
    return (x->t_us > y->t_us) - (x->t_us < y->t_us);
}

int cf_fit_keep_points(cf_fit *f, const cf_fit_input *in)
{
    free(f->points);
    f->points = NULL;
    f->npoints = 0;
    if (in->n == 0)
        return 0;
    cf_measured *row = malloc(in->n * sizeof *row);
    double *dev = malloc(in->n * sizeof *dev);
    if (row == NULL || dev == NULL || (f->points = malloc(in->n * sizeof *f->points)) == NULL) {
        free(row);
        free(dev);
        return -1;
    }
    /* A fit with a block term keeps each block count's curve: predict reads the one it
     * is asked at. Without one, the block count is not the model's (it follows the size,
     * struct's particles, or is the same everywhere) and the sizes make one curve. */
    size_t nrow = 0;
    for (size_t i = 0; i < in->n; i++) {
        const cf_row *r = in->rows[i];
        double tm = cf_row_time(r, in->stat);
        if (r->bytes > 0 && tm > 0 && isfinite(tm))
            row[nrow++] = (cf_measured){r->bytes, tm, f->blocks > 0 ? r->blocks : 0};
    }
    qsort(row, nrow, sizeof *row, cmp_point);
    /* Repeats (node pairs, runs) by their median, the typical one when a few are slow,
     * and their spread pooled over the points. */
    double ss = 0.0;
    size_t dof = 0, ndev = 0;
    for (size_t i = 0, j; i < nrow; i = j) {
        for (j = i; j < nrow && row[j].blocks == row[i].blocks && row[j].bytes == row[i].bytes;)
            j++;
        size_t k = j - i;
        const cf_measured *t = row + i;
        double med = k % 2 ? t[k / 2].t_us : 0.5 * (t[k / 2 - 1].t_us + t[k / 2].t_us);
        f->points[f->npoints++] = (cf_measured){t->bytes, med, t->blocks};
        if (k < 2)
            continue;
        double mean = 0.0;
        for (size_t l = 0; l < k; l++)
            mean += log(t[l].t_us) / (double)k;
        for (size_t l = 0; l < k; l++) {
            ss += (log(t[l].t_us) - mean) * (log(t[l].t_us) - mean);
            dev[ndev++] = fabs(log(t[l].t_us / med));
        }
        dof += k - 1;
    }
    double sd = dof > 0 ? sqrt(ss / (double)dof) : 0.0;
    /* The reading answers with the median, and rows of one size need not scatter
     * normally about it (node pairs in two clusters, a few slow runs): the spread is at
     * least the one whose 95% half-width holds 95% of the rows about their size's median. */
    if (ndev > 0) {
        cf_sort_doubles(dev, ndev);
        size_t q = (size_t)ceil(0.95 * (double)ndev) - 1;
        sd = fmax(sd, dev[q] / 1.959963984540054);
    }
    free(row);
    free(dev);
    f->points_sd_log = sd;
    return 0;
}

/* Tangent of f at m: T(m) and dT/dm with its variance (from the coefficients' covariance). */
static void tangent(const cf_fit *f, double m, double b, double *t, double *slope,
                    double *slope_var)
{
    int other, k = cf_fit_segment(f, m, &other);
    const cf_segment *s = &f->seg[k];
    double x[CF_COEF_MAX], g[CF_COEF_MAX];
    cf_fit_design(f, m, b, x);
    *t = dot(x, s->coef, (size_t)f->ncoef);
    for (int j = 0; j < f->ncoef; j++) {
        cf_term tm = f->kind->terms[j];
        g[j] = tm == CF_TERM_M                 ? 1
               : tm == CF_TERM_M2              ? 2 * m_square(f, m)
               : tm == CF_TERM_M_STEP && b > 1 ? 1
                                               : 0;
    }
    *slope = dot(g, s->coef, (size_t)f->ncoef);
    double v = 0;
    for (int j = 0; j < f->ncoef; j++)
        for (int l = 0; l < f->ncoef; l++)
            v += g[j] * s->cov[j][l] * g[l];
    *slope_var = v;
}

/* The measured figures of s: the bandwidth per distinct size (the mean over its rows),
 * with the fitted statistic (rows are sorted by size), its peak, plateau and fall. */
static void measured_bw(cf_saturation *s, const cf_fit_input *in, double scale)
{
    double *bw = malloc(in->n * sizeof *bw), tail[3];
    uint64_t *at = malloc(in->n * sizeof *at);
    size_t ns = 0;
    if (bw == NULL || at == NULL) {
        free(bw);
        free(at);
        return;
    }
    for (size_t i = 0, j; i < in->n; i = j) {
        double sum = 0;
        size_t k = 0;
        for (j = i; j < in->n && in->rows[j]->bytes == in->rows[i]->bytes; j++) {
            double tm = cf_row_time(in->rows[j], in->stat);
            if (tm > 0) {
                sum += scale * (double)in->rows[j]->bytes / tm;
                k++;
            }
        }
        if (in->rows[i]->bytes > 0 && k > 0) {
            at[ns] = in->rows[i]->bytes;
            bw[ns++] = sum / (double)k;
        }
    }
    size_t ipeak = 0;
    for (size_t i = 0; i < ns; i++)
        if (!(bw[i] <= s->peak_MiBps)) {
            s->peak_MiBps = bw[i];
            s->peak_bytes = at[i];
            ipeak = i;
        }
    if (ns > 0) {
        /* The plateau: the median of the three largest sizes, so that one last point
         * (a cache effect, noise) does not define it. */
        size_t nt = ns < 3 ? ns : 3;
        memcpy(tail, bw + ns - nt, nt * sizeof *tail);
        cf_sort_doubles(tail, nt);
        s->plateau_MiBps = nt % 2 ? tail[nt / 2] : 0.5 * (tail[nt / 2 - 1] + tail[nt / 2]);
        s->last_MiBps = bw[ns - 1];
        size_t from = ns;
        while (from > 0 && fabs(bw[from - 1] - s->plateau_MiBps) <= 0.05 * s->plateau_MiBps)
            from--;
        if (from + 1 < ns)
            s->flat_from_bytes = (double)at[from];
        if (ipeak + 1 < ns && bw[ns - 1] < 0.95 * s->peak_MiBps)
            s->falls_beyond_bytes = (double)s->peak_bytes;
    }
    free(bw);
    free(at);
}

void cf_saturation_fill(cf_fit *f, const cf_fit_input *in)
{
    cf_saturation *s = &f->sat;
    memset(s, 0, sizeof *s);
    s->rinf_MiBps = s->rinf_lo_MiBps = s->rinf_hi_MiBps = NAN;
    s->n_half_bytes = s->m90_bytes = s->peak_MiBps = s->plateau_MiBps = NAN;
    s->half_rinf_MiBps = s->last_MiBps = NAN;
    s->flat_from_bytes = s->falls_beyond_bytes = NAN;
    s->half_segment = -1;
    if (in->n == 0)
        return;
    /* Messages per call: the bandwidth column over bytes/time (sendrecv counts 2). */
    double ratio = NAN;
    for (size_t i = 0; i < in->n; i++) {
        const cf_row *r = in->rows[i];
        if (isnan(r->bw_MiBps))
            return;
        if (r->bytes > 0 && isnan(ratio))
            ratio = r->bw_MiBps * 1.048576 * r->t_avg_us / (double)r->bytes;
    }
    if (!(ratio > 0.5))
        return;
    s->nmsg = (int)lround(ratio);
    double scale = s->nmsg * 1e6 / 1048576.0; /* bytes/us per message -> MiB/s */

    measured_bw(s, in, scale);

    double b = f->min_blocks;
    double t, beta, beta_var;
    tangent(f, (double)f->max_bytes, b, &t, &beta, &beta_var);
    if (!(beta > 0) || !isfinite(beta))
        return;
    double se = sqrt(beta_var), tq = cf_t975(f->dof);
    s->valid = 1;
    s->rinf_MiBps = scale / beta;
    s->rinf_lo_MiBps = scale / (beta + tq * se);
    s->rinf_hi_MiBps = beta - tq * se > 0 ? scale / (beta - tq * se) : INFINITY;
    /* A tangent crossing zero above m = 0 has no half-performance length; the last
     * segment that starts above 0 (the protocol segment before a falling one) has. */
    for (int k = f->nseg - 1; k >= 0; k--) {
        double m = k == f->nseg - 1 ? (double)f->max_bytes : (double)f->seg[k].to_bytes;
        tangent(f, m, b, &t, &beta, &beta_var);
        double alpha = t - beta * m;
        if (alpha > 0 && beta > 0 && isfinite(beta)) {
            s->n_half_bytes = alpha / beta;
            s->m90_bytes = 9 * alpha / beta;
            s->half_segment = k;
            s->half_rinf_MiBps = scale / beta;
            break;
        }
    }
}

/* T of segment k of f at (m, b), without the interval. */
static double seg_eval(const cf_fit *f, int k, double m, double b)
{
    double x[CF_COEF_MAX];
    cf_fit_design(f, m, b, x);
    return dot(x, f->seg[k].coef, (size_t)f->ncoef);
}

/* The coefficients of segment k of f on m and on m^2 (0 where its kind has none). */
static void m_terms(const cf_fit *f, int k, double *c1, double *c2)
{
    *c1 = *c2 = 0;
    for (int j = 0; j < f->ncoef; j++) {
        if (f->kind->terms[j] == CF_TERM_M)
            *c1 += f->seg[k].coef[j];
        if (f->kind->terms[j] == CF_TERM_M2)
            *c2 += f->seg[k].coef[j];
    }
}

double cf_fit_peak(const cf_fit *f)
{
    double peak = INFINITY;
    for (int k = 0; k < f->nseg; k++) {
        double c1, c2;
        m_terms(f, k, &c1, &c2);
        if (c2 < 0)
            peak = fmin(peak, fmax(0.0, -c1 / (2 * c2)));
    }
    return peak;
}

static int negative_time(const cf_fit *f, const cf_fit_input *in, double m, double b, double t,
                         cf_error *e)
{
    char blocks[48] = "", size[32];
    if (f->min_blocks != f->max_blocks)
        snprintf(blocks, sizeof blocks, " and %.0f blocks", b);
    cf_size_format((uint64_t)llround(m), size, sizeof size);
    return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                        "%s: the %s fit gives %s time at %s%s (%.4g us): a cost "
                        "cannot be negative there",
                        in->what, f->model, isfinite(t) ? "a negative" : "a non-finite", size,
                        blocks, t);
}

int cf_fit_check(const cf_fit *f, const cf_fit_input *in, cf_error *e)
{
    if (!isfinite(f->s2) || f->s2 < 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "%s: the %s fit gives a residual variance of %g: expected a "
                            "finite number >= 0",
                            in->what, f->model, f->s2);
    for (int k = 0; k < f->nseg; k++) {
        const cf_segment *s = &f->seg[k];
        for (int j = 0; j < f->ncoef; j++) {
            if (!isfinite(s->coef[j]))
                return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                                    "%s: the %s fit gives a non-finite %s (%g)", in->what, f->model,
                                    f->coef_names[j], s->coef[j]);
            for (int l = 0; l < f->ncoef; l++)
                if (!isfinite(s->cov[j][l]))
                    return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                                        "%s: the %s fit gives a non-finite covariance of %s "
                                        "and %s",
                                        in->what, f->model, f->coef_names[j], f->coef_names[l]);
            if (s->cov[j][j] < 0)
                return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                                    "%s: the %s fit gives a negative variance of %s (%g)", in->what,
                                    f->model, f->coef_names[j], s->cov[j][j]);
        }
    }
    if (strcmp(f->model, "loggp") == 0) {
        /* Times and a gap per byte: none of them can be below 0 (the per-byte growth of
         * the overheads may be, within its noise). */
        static const char *const why[] = {"the overheads exceed the ping-pong latency", "", "", "",
                                          "the burst times fall with size"};
        for (int j = 0; j < 5 && j < f->ncoef; j++)
            if (f->seg[0].coef[j] < 0)
                return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                                    "%s: the loggp fit gives a negative %s (%.4g)%s%s: LogGP "
                                    "parameters cannot be negative",
                                    in->what, f->coef_names[j], f->seg[0].coef[j],
                                    why[j][0] ? ": " : "", why[j]);
    }
    /* Every point fitted, as predict will answer there (rows set aside before the fit,
     * below its range, are listed in the fit instead). */
    for (size_t i = 0; i < in->n; i++) {
        const cf_row *r = in->rows[i];
        if (r->bytes < f->min_bytes)
            continue;
        cf_prediction p;
        double m = (double)r->bytes, b = (double)r->blocks;
        if (cf_fit_predict_blocks(f, m, b, &p) != 0 || !isfinite(p.t_us) || p.t_us < 0)
            return negative_time(f, in, m, b, p.t_us, e);
    }
    /* Each segment over its range, up to the switch points on either side: a line is
     * smallest at an end, a parabola may be at its vertex (at the block count predict
     * assumes; the measured ones were checked above). */
    double b = f->blocks;
    for (int k = 0; k < f->nseg; k++) {
        double lo = k > 0 ? cf_fit_switch(f, k - 1) : (double)f->seg[k].from_bytes;
        double hi = k + 1 < f->nseg ? cf_fit_switch(f, k) : (double)f->seg[k].to_bytes;
        double ms[3] = {lo, hi, NAN};
        double c1, c2;
        m_terms(f, k, &c1, &c2);
        if (c2 > 0 && -c1 / (2 * c2) > lo && -c1 / (2 * c2) < hi)
            ms[2] = -c1 / (2 * c2);
        for (int a = 0; a < 3; a++) {
            double t = isnan(ms[a]) ? 0 : seg_eval(f, k, ms[a], b);
            if (!isfinite(t) || t < 0)
                return negative_time(f, in, ms[a], b, t, e);
        }
    }
    return 0;
}
