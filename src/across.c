/* The joint across-np fit, the point-to-point estimate and their model-file forms.
 * Times span six orders of magnitude, so every fit here minimises relative error. */
#include "config.h"

#include "across.h"

#include "size.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define Z95 1.959963984540054
#define LSQ_PASSES 8
#define LSQ_ROUNDS 4 /* rounds of setting outliers aside */

/* A point's relative deviation from the fit, and the point. */
typedef struct ranked {
    double d;
    size_t i;
} ranked;

/* By deviation; among equal ones the later point first, so that walking from the end
 * sets aside the earliest of them first. */
static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->d != y->d)
        return (x->d > y->d) - (x->d < y->d);
    return (x->i < y->i) - (x->i > y->i);
}

static void quality_clear(cf_rel_quality *q)
{
    q->n = q->dof = q->rejected = 0;
    q->mape = q->max_rel_err = q->loo_mape = NAN;
}

int cf_rel_lsq(size_t n, size_t k, const double *X, const double *t, double *coef, double *cov,
               double *s2, cf_rel_quality *q, cf_error *e)
{
    if (n <= k)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "not enough points (have %zu, need %zu)",
                            n, k + 1);
    double scale[CF_COLL_MAX_BASIS > 2 ? CF_COLL_MAX_BASIS : 2];
    if (k > sizeof scale / sizeof scale[0])
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "too many terms (%zu)", k);
    for (size_t j = 0; j < k; j++) {
        scale[j] = 0.0;
        for (size_t i = 0; i < n; i++)
            scale[j] = fmax(scale[j], fabs(X[i * k + j]));
        if (scale[j] == 0.0)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                                "term %zu is zero at every measured point", j + 1);
    }
    for (size_t i = 0; i < n; i++)
        if (!(t[i] > 0.0) || !isfinite(t[i]))
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "time %g is not positive", t[i]);

    int rc = 0;
    gsl_matrix *A = gsl_matrix_alloc(n, k);
    gsl_matrix *C = gsl_matrix_alloc(k, k);
    gsl_vector *y = gsl_vector_alloc(n);
    gsl_vector *w = gsl_vector_alloc(n);
    gsl_vector *c = gsl_vector_alloc(k);
    gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, k);
    double *ref = malloc(n * sizeof *ref);
    ranked *dev = malloc(n * sizeof *dev);
    unsigned char *used = malloc(n);
    if (!A || !C || !y || !w || !c || !ws || !ref || !dev || !used) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < k; j++)
            gsl_matrix_set(A, i, j, X[i * k + j] / scale[j]);
        gsl_vector_set(y, i, t[i]);
        ref[i] = t[i];
        used[i] = 1;
    }
    /* Weights 1/T^2 with T the measured time make the fit favour points measured low;
     * re-weighting with the fitted values removes that bias. A shared machine gives
     * timings many times too slow now and then: points beyond 5 robust standard
     * deviations (and 5%) of the fit are set aside, a quarter of them at most. */
    double chisq = 0.0;
    size_t nused = n, max_out = n / 4;
    for (int round = 0; round < LSQ_ROUNDS; round++) {
        for (int pass = 0; pass < LSQ_PASSES; pass++) {
            for (size_t i = 0; i < n; i++)
                gsl_vector_set(w, i, used[i] ? 1.0 / (ref[i] * ref[i]) : 0.0);
            size_t rank = 0;
            int st = gsl_multifit_wlinear_tsvd(A, w, y, 1e-12, c, C, &chisq, &rank, ws);
            if (st != GSL_SUCCESS) {
                rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "least squares failed: %s",
                                  gsl_strerror(st));
                goto out;
            }
            if (rank < k) {
                rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                                  "the measured points cannot separate the %zu terms", k);
                goto out;
            }
            double change = 0.0;
            for (size_t i = 0; i < n; i++) {
                double f = 0.0;
                for (size_t j = 0; j < k; j++)
                    f += gsl_matrix_get(A, i, j) * gsl_vector_get(c, j);
                double r = f > 0.0 ? f : t[i];
                change = fmax(change, fabs(r - ref[i]) / ref[i]);
                ref[i] = r;
            }
            if (change < 1e-10)
                break;
        }
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (used[i])
                dev[m++] = (ranked){fabs(t[i] - ref[i]) / ref[i], i};
        qsort(dev, m, sizeof *dev, cmp_ranked);
        double cut = fmax(0.05, 5.0 * 1.4826 *
                                    (m % 2 ? dev[m / 2].d : 0.5 * (dev[m / 2 - 1].d + dev[m / 2].d)));
        size_t out_now = 0;
        /* The worst first, while the budget lasts and enough points remain. */
        for (size_t r = m; r-- > 0 && dev[r].d > cut && n - nused < max_out && nused > k + 2;) {
            used[dev[r].i] = 0;
            nused--;
            out_now++;
        }
        if (out_now == 0)
            break;
    }
    size_t dof = nused - k;
    *s2 = chisq / (double)dof;
    for (size_t j = 0; j < k; j++) {
        coef[j] = gsl_vector_get(c, j) / scale[j];
        for (size_t l = 0; l < k; l++)
            cov[j * k + l] = gsl_matrix_get(C, j, l) * *s2 / (scale[j] * scale[l]);
    }
    q->n = (int)nused;
    q->dof = (int)dof;
    q->rejected = (int)(n - nused);
    double sum = 0.0, loo = 0.0, mx = 0.0;
    size_t nloo = 0;
    for (size_t i = 0; i < n; i++) {
        if (!used[i])
            continue;
        double f = 0.0, h = 0.0;
        for (size_t j = 0; j < k; j++) {
            double aj = gsl_matrix_get(A, i, j);
            f += aj * gsl_vector_get(c, j);
            for (size_t l = 0; l < k; l++)
                h += aj * gsl_matrix_get(C, j, l) * gsl_matrix_get(A, i, l);
        }
        h *= gsl_vector_get(w, i);
        double rel = fabs(t[i] - f) / t[i];
        sum += rel;
        mx = fmax(mx, rel);
        /* Leave-one-out residual of a linear fit without refitting: r / (1 - leverage). */
        if (h < 1.0 - 1e-12) {
            loo += fabs(t[i] - f) / (1.0 - h) / t[i];
            nloo++;
        }
    }
    q->mape = sum / (double)nused;
    q->max_rel_err = mx;
    q->loo_mape = nloo ? loo / (double)nloo : NAN;
out:
    gsl_matrix_free(A);
    gsl_matrix_free(C);
    gsl_vector_free(y);
    gsl_vector_free(w);
    gsl_vector_free(c);
    if (ws)
        gsl_multifit_linear_free(ws);
    free(ref);
    free(dev);
    free(used);
    return rc;
}

int cf_hockney_fit(const double *m, const double *t, size_t n, cf_hockney *out, cf_error *e)
{
    double *X = malloc((n ? n : 1) * 2 * sizeof *X);
    if (X == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    memset(out, 0, sizeof *out);
    out->bytes_min = n ? m[0] : 0.0;
    out->bytes_max = n ? m[0] : 0.0;
    for (size_t i = 0; i < n; i++) {
        X[2 * i] = 1.0;
        X[2 * i + 1] = m[i];
        out->bytes_min = fmin(out->bytes_min, m[i]);
        out->bytes_max = fmax(out->bytes_max, m[i]);
    }
    double coef[2], cov[4];
    int rc = cf_rel_lsq(n, 2, X, t, coef, cov, &out->s2, &out->q, e);
    free(X);
    if (rc != 0)
        return rc;
    out->alpha_us = coef[0];
    out->beta_us_per_byte = coef[1];
    memcpy(out->cov, cov, sizeof cov);
    return 0;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The distinct process counts of pts, increasing, at most CF_ACROSS_NP_MAX (the largest
 * always kept, as it bounds interpolation). Returns how many distinct there are. */
static int distinct_np(const cf_point *pts, size_t n, long *np, int *nnp)
{
    long *all = malloc((n ? n : 1) * sizeof *all);
    if (all == NULL)
        return -1;
    for (size_t i = 0; i < n; i++)
        all[i] = pts[i].p;
    qsort(all, n, sizeof *all, cmp_long);
    int d = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || all[i] != all[i - 1])
            all[d++] = all[i];
    int keep = d < CF_ACROSS_NP_MAX ? d : CF_ACROSS_NP_MAX;
    for (int i = 0; i < keep; i++)
        np[i] = all[i];
    if (d > keep)
        np[keep - 1] = all[d - 1];
    *nnp = keep;
    free(all);
    return d;
}

void cf_cterm_sum_name(const cf_cterm_sum *s, char *buf, size_t n)
{
    size_t l = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->n && l < n; i++)
        l += (size_t)snprintf(buf + l, n - l, "%s%s", i ? " + " : "", cf_cterm_name(s->t[i]));
}

int cf_cterm_sum_parse(const char *name, cf_cterm_sum *out)
{
    char copy[128];
    if (strlen(name) >= sizeof copy)
        return -1;
    snprintf(copy, sizeof copy, "%s", name);
    out->n = 0;
    for (char *tok = copy, *next; tok != NULL; tok = next) {
        char *plus = strstr(tok, " + ");
        next = plus ? plus + 3 : NULL;
        if (plus)
            *plus = '\0';
        int t = cf_cterm_find(tok);
        if (t < 0 || out->n == CF_SUM_MAX)
            return -1;
        out->t[out->n++] = (cf_cterm)t;
    }
    return 0;
}

static double sum_eval(const cf_cterm_sum *s, long p, double m)
{
    double v = 0.0;
    for (int i = 0; i < s->n; i++)
        v += cf_cterm_eval(s->t[i], p, m);
    return v;
}

/* An algorithm's cost as basis functions with free coefficients: its alpha factor (the
 * coefficient absorbs a common weight such as Rabenseifner's 2), then each distinct term
 * of its beta and gamma factors (they share one in every algorithm of the table, so the
 * coefficient is beta and gamma together). */
static int alg_basis(const cf_coll_alg *a, cf_cterm_sum *fn)
{
    int k = 0;
    fn[0].n = 0;
    for (int i = 0; i < CF_COST_MAX_PARTS && a->alpha[i].k != 0.0; i++)
        fn[0].t[fn[0].n++] = a->alpha[i].term;
    if (fn[0].n > 0)
        k = 1;
    const cf_cost_part *parts[2] = {a->beta, a->gamma};
    for (int v = 0; v < 2; v++)
        for (int i = 0; i < CF_COST_MAX_PARTS && parts[v][i].k != 0.0; i++) {
            int seen = 0;
            for (int j = 1; j < k; j++)
                seen |= fn[j].n == 1 && fn[j].t[0] == parts[v][i].term;
            if (!seen && k < CF_COLL_MAX_BASIS) {
                fn[k].n = 1;
                fn[k++].t[0] = parts[v][i].term;
            }
        }
    return k;
}

/* Fits algorithm `alg` of c to the points with lo <= m <= hi. *rss is the relative
 * residual sum of squares; -1 when these points cannot determine the model. */
static int seg_fit(const cf_coll *c, int alg, const cf_point *pts, size_t n, double lo,
                   double hi, cf_across_seg *out, double *rss, cf_error *why)
{
    memset(out, 0, sizeof *out);
    snprintf(out->algorithm, sizeof out->algorithm, "%s", c->algs[alg].name);
    int k = alg_basis(&c->algs[alg], out->basis);
    out->nbasis = k;
    size_t m = 0;
    double *X = malloc((n ? n : 1) * (size_t)k * sizeof *X), *t = malloc((n ? n : 1) * sizeof *t);
    if (X == NULL || t == NULL) {
        free(X);
        free(t);
        return cf_error_set(why, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    out->from_bytes = hi;
    out->to_bytes = lo;
    for (size_t i = 0; i < n; i++) {
        if (pts[i].m < lo || pts[i].m > hi)
            continue;
        for (int j = 0; j < k; j++)
            X[m * (size_t)k + (size_t)j] = sum_eval(&out->basis[j], pts[i].p, pts[i].m);
        t[m++] = pts[i].t_us;
        out->from_bytes = fmin(out->from_bytes, pts[i].m);
        out->to_bytes = fmax(out->to_bytes, pts[i].m);
    }
    /* A size-dependent cost needs three sizes, so that a range cannot be one size's
     * points fitted exactly. */
    int has_m = 0, nsizes = 0;
    for (int j = 0; j < k; j++)
        for (int l = 0; l < out->basis[j].n; l++) {
            double c0, c1;
            cf_cterm_split(out->basis[j].t[l], 2, &c0, &c1);
            has_m |= c1 != 0.0;
        }
    double seen[3];
    for (size_t i = 0; i < n && nsizes < 3; i++) {
        if (pts[i].m < lo || pts[i].m > hi)
            continue;
        int dup = 0;
        for (int j = 0; j < nsizes; j++)
            dup |= seen[j] == pts[i].m;
        if (!dup)
            seen[nsizes++] = pts[i].m;
    }
    double cov[CF_COLL_MAX_BASIS * CF_COLL_MAX_BASIS];
    int rc = has_m && nsizes < 3
                 ? cf_error_set(why, CF_EXIT_DATA, NULL, 0,
                                "fewer than 3 sizes: the size-dependent terms need 3")
                 : cf_rel_lsq(m, (size_t)k, X, t, out->coef, cov, &out->s2, &out->q, why);
    free(X);
    free(t);
    if (rc != 0)
        return rc;
    for (int j = 0; j < k; j++)
        for (int l = 0; l < k; l++)
            out->cov[j][l] = cov[j * k + l];
    out->tq = gsl_cdf_tdist_Pinv(0.975, out->q.dof);
    *rss = out->s2 * out->q.dof;
    return 0;
}

static void seg_predict(const cf_across_seg *s, long p, double m, double *t, double *half);

/* Whether segment s tells the truth where it would answer: coefficients and covariance
 * finite, variances >= 0, T finite and >= 0 at each of its points and, at every measured
 * np, at both ends of [lo, hi] (T is linear in m at a fixed p). */
static int seg_check(const cf_across_seg *s, const cf_point *pts, size_t n, const long *np,
                     int nnp, double lo, double hi, cf_error *why)
{
    if (!isfinite(s->s2) || s->s2 < 0)
        return cf_error_set(why, CF_EXIT_DATA, NULL, 0, "%s: a residual variance of %g",
                            s->algorithm, s->s2);
    for (int j = 0; j < s->nbasis; j++) {
        if (!isfinite(s->coef[j]))
            return cf_error_set(why, CF_EXIT_DATA, NULL, 0, "%s: a non-finite coefficient",
                                s->algorithm);
        for (int l = 0; l < s->nbasis; l++)
            if (!isfinite(s->cov[j][l]) || (j == l && s->cov[j][l] < 0))
                return cf_error_set(why, CF_EXIT_DATA, NULL, 0,
                                    "%s: a covariance that is not finite, or negative",
                                    s->algorithm);
    }
    double t, half;
    for (size_t i = 0; i < n; i++) {
        if (pts[i].m < s->from_bytes || pts[i].m > s->to_bytes)
            continue;
        seg_predict(s, pts[i].p, pts[i].m, &t, &half);
        if (!isfinite(t) || t < 0)
            return cf_error_set(why, CF_EXIT_DATA, NULL, 0,
                                "%s gives a negative time at np %ld, %.0f bytes (%.4g us)",
                                s->algorithm, pts[i].p, pts[i].m, t);
    }
    for (int i = 0; i < nnp; i++)
        for (int k = 0; k < 2; k++) {
            double m = k ? hi : lo;
            seg_predict(s, np[i], m, &t, &half);
            if (!isfinite(t) || t < 0)
                return cf_error_set(why, CF_EXIT_DATA, NULL, 0,
                                    "%s gives a negative time at np %ld, %.0f bytes (%.4g us)",
                                    s->algorithm, np[i], m, t);
        }
    return 0;
}

/* AICc of a relative-error fit; the floor keeps exact data from ranking by rounding. */
static double aicc(double rss, int n, int k)
{
    if (n - k - 1 < 1)
        return INFINITY;
    double floor_rss = 1e-12 * n;
    return n * log(fmax(rss, floor_rss) / n) + 2.0 * k + 2.0 * k * (k + 1) / (n - k - 1);
}

static int cmp_double_asc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void combine_quality(cf_across *a)
{
    cf_rel_quality *q = &a->q;
    q->n = q->dof = 0;
    q->mape = q->max_rel_err = q->loo_mape = 0.0;
    for (int i = 0; i < a->nseg; i++) {
        const cf_rel_quality *s = &a->seg[i].q;
        q->n += s->n;
        q->dof += s->dof;
        q->mape += s->mape * s->n;
        q->loo_mape += s->loo_mape * s->n;
        q->max_rel_err = fmax(q->max_rel_err, s->max_rel_err);
    }
    q->mape /= q->n;
    q->loo_mape /= q->n;
    if (a->nseg > 1)
        q->dof -= 1; /* the switch point is a parameter too */
}

int cf_across_fit_points(const cf_coll *c, const char *datatype, const cf_point *pts, size_t n,
                         cf_across *out, cf_error *e)
{
    memset(out, 0, sizeof *out);
    snprintf(out->pattern, sizeof out->pattern, "%s", c->pattern);
    snprintf(out->datatype, sizeof out->datatype, "%s", datatype);
    quality_clear(&out->q);
    for (size_t i = 0; i < n; i++) {
        if (pts[i].p < 2)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "process count %ld: expected 2 or more",
                                pts[i].p);
        out->bytes_min = i == 0 ? pts[i].m : fmin(out->bytes_min, pts[i].m);
        out->bytes_max = i == 0 ? pts[i].m : fmax(out->bytes_max, pts[i].m);
    }
    int d = distinct_np(pts, n, out->np, &out->nnp);
    if (d < 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    if (d < CF_ACROSS_MIN_NP) {
        snprintf(out->error, sizeof out->error, "not enough process counts (have %d, need %d)", d,
                 CF_ACROSS_MIN_NP);
        return 0;
    }
    double *sizes = malloc(n * sizeof *sizes);
    if (sizes == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    for (size_t i = 0; i < n; i++)
        sizes[i] = pts[i].m;
    qsort(sizes, n, sizeof *sizes, cmp_double_asc);
    size_t ns = 0;
    for (size_t i = 0; i < n; i++)
        if (ns == 0 || sizes[i] != sizes[ns - 1])
            sizes[ns++] = sizes[i];

    /* One algorithm over every size; then a switch between two consecutive measured sizes
     * with an algorithm (the same one too: a protocol switch) on each side. A candidate
     * must beat the simpler ones before it: ties go to fewer parameters. */
    double best = INFINITY;
    cf_error why;
    cf_error_clear(&why);
    int found = 0;
    for (int a = 0; a < c->nalgs; a++) {
        cf_across_seg sg;
        double rss;
        if (seg_fit(c, a, pts, n, -INFINITY, INFINITY, &sg, &rss, &why) != 0 ||
            seg_check(&sg, pts, n, out->np, out->nnp, sg.from_bytes, sg.to_bytes, &why) != 0)
            continue;
        double v = aicc(rss, sg.q.n, sg.nbasis);
        if (!found || v < best - 1e-9) {
            best = v;
            out->nseg = 1;
            out->seg[0] = sg;
            found = 1;
        }
    }
    for (size_t b = 1; b < ns; b++)
        for (int a1 = 0; a1 < c->nalgs; a1++)
            for (int a2 = 0; a2 < c->nalgs; a2++) {
                cf_across_seg s1, s2;
                double r1, r2;
                cf_error ignore;
                if (seg_fit(c, a1, pts, n, -INFINITY, sizes[b - 1], &s1, &r1, &ignore) != 0 ||
                    seg_fit(c, a2, pts, n, sizes[b], INFINITY, &s2, &r2, &ignore) != 0)
                    continue;
                /* Each range answers up to the middle (in log size) of the gap. */
                double mid = expm1(0.5 * (log1p(s1.to_bytes) + log1p(s2.from_bytes)));
                if (seg_check(&s1, pts, n, out->np, out->nnp, s1.from_bytes, mid, &why) != 0 ||
                    seg_check(&s2, pts, n, out->np, out->nnp, mid, s2.to_bytes, &why) != 0)
                    continue;
                double v = aicc(r1 + r2, s1.q.n + s2.q.n, s1.nbasis + s2.nbasis + 1);
                if (!found || v < best - 1e-9) {
                    best = v;
                    out->nseg = 2;
                    out->seg[0] = s1;
                    out->seg[1] = s2;
                    found = 1;
                }
            }
    free(sizes);
    if (!found) {
        /* Data that does not determine the model is a note, like too few np. */
        snprintf(out->error, sizeof out->error, "%.150s", why.msg);
        return 0;
    }
    combine_quality(out);
    return 0;
}

static void seg_predict(const cf_across_seg *s, long p, double m, double *t, double *half)
{
    double x[CF_COLL_MAX_BASIS], v = 0.0;
    *t = 0.0;
    for (int j = 0; j < s->nbasis; j++) {
        x[j] = sum_eval(&s->basis[j], p, m);
        *t += s->coef[j] * x[j];
    }
    for (int j = 0; j < s->nbasis; j++)
        for (int l = 0; l < s->nbasis; l++)
            v += x[j] * s->cov[j][l] * x[l];
    *half = s->tq * sqrt(fmax(0.0, v + s->s2 * *t * *t));
}

void cf_across_predict(const cf_across *a, long p, double m, cf_estimate *out)
{
    int k = 0;
    double t, half;
    if (a->nseg > 1 && m > a->seg[0].to_bytes)
        k = 1;
    seg_predict(&a->seg[k], p, m, &t, &half);
    double lo = t - half, hi = t + half;
    if (a->nseg > 1 && m > a->seg[0].to_bytes && m < a->seg[1].from_bytes) {
        /* Between the two ranges either algorithm may run: the nearer one (in log size)
         * gives the time, the interval covers both. */
        double t0, h0;
        seg_predict(&a->seg[0], p, m, &t0, &h0);
        if (log1p(m) - log1p(a->seg[0].to_bytes) < log1p(a->seg[1].from_bytes) - log1p(m)) {
            k = 0;
            t = t0;
        }
        lo = fmin(lo, t0 - h0);
        hi = fmax(hi, t0 + h0);
    }
    out->t_us = t;
    out->lo_us = fmax(0.0, lo);
    out->hi_us = hi;
    out->alg = k;
    out->contention = 1.0;
    out->contention_np = 0;
    out->model_factor = 1.0;
}

int cf_across_lines(const cf_across *a, long p, double *c0, double *c1, double *switch_at)
{
    for (int i = 0; i < a->nseg; i++) {
        const cf_across_seg *s = &a->seg[i];
        c0[i] = c1[i] = 0.0;
        for (int j = 0; j < s->nbasis; j++)
            for (int k = 0; k < s->basis[j].n; k++) {
                double s0, s1;
                cf_cterm_split(s->basis[j].t[k], p, &s0, &s1);
                c0[i] += s->coef[j] * s0;
                c1[i] += s->coef[j] * s1;
            }
        /* The switch half-way (in log size) between the two measured ranges. */
        switch_at[i] = i + 1 < a->nseg
                           ? expm1(0.5 * (log1p(s->to_bytes) + log1p(a->seg[i + 1].from_bytes)))
                           : INFINITY;
    }
    return a->nseg;
}

static void seg_text(const cf_across_seg *s, int with_range, char *buf, size_t n)
{
    size_t l = (size_t)snprintf(buf, n, "%s:", s->algorithm);
    for (int j = 0; j < s->nbasis && l < n; j++) {
        char name[96];
        cf_cterm_sum_name(&s->basis[j], name, sizeof name);
        int has_m = strchr(name, 'm') != NULL;
        const char *sign = s->coef[j] < 0 ? (j ? " - " : " -") : (j ? " + " : " ");
        l += (size_t)snprintf(buf + l, n - l, "%s%.4g %s * %s%s%s", sign, fabs(s->coef[j]),
                              has_m ? "us/B" : "us", s->basis[j].n > 1 ? "(" : "", name,
                              s->basis[j].n > 1 ? ")" : "");
    }
    if (with_range && l < n) {
        char a[32], b[32];
        cf_size_format((uint64_t)s->from_bytes, a, sizeof a);
        cf_size_format((uint64_t)s->to_bytes, b, sizeof b);
        snprintf(buf + l, n - l, " (%s to %s)", a, b);
    }
}

void cf_across_describe(const cf_across *a, char *buf, size_t n)
{
    size_t l = 0;
    buf[0] = '\0';
    for (int i = 0; i < a->nseg && l < n; i++) {
        char part[512];
        seg_text(&a->seg[i], a->nseg > 1, part, sizeof part);
        l += (size_t)snprintf(buf + l, n - l, "%s%s", i ? "; " : "", part);
    }
}

void cf_p2p_clear(cf_p2p *pp)
{
    free(pp->cont);
    memset(pp, 0, sizeof *pp);
}

const cf_contention *cf_p2p_contention(const cf_p2p *pp, const char *pattern,
                                       const char *datatype, long p)
{
    const cf_contention *below = NULL, *lowest = NULL;
    for (size_t i = 0; i < pp->ncont; i++) {
        const cf_contention *k = &pp->cont[i];
        if (strcmp(k->pattern, pattern) != 0 || strcmp(k->datatype, datatype) != 0)
            continue;
        if (k->np <= p && (below == NULL || k->np > below->np))
            below = k;
        if (lowest == NULL || k->np < lowest->np)
            lowest = k;
    }
    return below ? below : lowest;
}

static double p2p_gamma(const cf_p2p *pp, const cf_coll *c, double *se)
{
    /* Only reductions have gamma terms; the others' factor of gamma is 0 anyway. */
    (void)c;
    *se = pp->gamma_se;
    return pp->gamma_us_per_byte;
}

int cf_p2p_predict(const cf_p2p *pp, const cf_coll *c, const char *datatype, long p, double m,
                   cf_estimate *out)
{
    if (pp->error[0] != '\0')
        return CF_EXIT_DATA;
    double gse, f[3];
    double gamma = p2p_gamma(pp, c, &gse);
    int alg = 0;
    double t0 = cf_coll_cost(c, p, m, pp->h.alpha_us, pp->h.beta_us_per_byte, gamma, &alg, f);
    double var = f[0] * f[0] * pp->h.cov[0][0] + 2.0 * f[0] * f[1] * pp->h.cov[0][1] +
                 f[1] * f[1] * pp->h.cov[1][1] + f[2] * f[2] * gse * gse;
    const cf_contention *k = cf_p2p_contention(pp, c->pattern, datatype, p);
    double factor = k ? k->median : 1.0;
    double sd_c = k ? k->sd_log : 0.0;
    double base = k ? CF_P2P_FACTOR_MEASURED : CF_P2P_FACTOR_UNMEASURED;
    double sm = log(base) / Z95;
    double s_model = sqrt(sd_c * sd_c + sm * sm);
    out->alg = alg;
    out->contention = factor;
    out->contention_np = k ? k->np : 0;
    out->model_factor = exp(Z95 * s_model);
    if (!(t0 > 0.0)) {
        out->t_us = 0.0;
        out->lo_us = 0.0;
        out->hi_us = Z95 * sqrt(fmax(var, 0.0)) * factor * out->model_factor;
        return 0;
    }
    double rel = sqrt(fmax(var, 0.0)) / t0;
    double s = sqrt(rel * rel + pp->h.s2 + s_model * s_model);
    double t = t0 * factor;
    out->t_us = t;
    out->lo_us = t * exp(-Z95 * s);
    out->hi_us = t * exp(Z95 * s);
    return 0;
}

int cf_p2p_lines(const cf_p2p *pp, const cf_coll *c, const char *datatype, long p, double *c0,
                 double *c1)
{
    double gse, gamma = p2p_gamma(pp, c, &gse);
    const cf_contention *k = cf_p2p_contention(pp, c->pattern, datatype, p);
    double factor = k ? k->median : 1.0;
    for (int i = 0; i < c->nalgs; i++) {
        const cf_coll_alg *a = &c->algs[i];
        double coef[3] = {pp->h.alpha_us, pp->h.beta_us_per_byte, gamma};
        const cf_cost_part *parts[3] = {a->alpha, a->beta, a->gamma};
        c0[i] = c1[i] = 0.0;
        for (int v = 0; v < 3; v++)
            for (int j = 0; j < CF_COST_MAX_PARTS && parts[v][j].k != 0.0; j++) {
                double s0, s1;
                cf_cterm_split(parts[v][j].term, p, &s0, &s1);
                c0[i] += factor * coef[v] * parts[v][j].k * s0;
                c1[i] += factor * coef[v] * parts[v][j].k * s1;
            }
    }
    return c->nalgs;
}

/* ---- From a timing table ---- */

/* The rows a fit reads, by pointer: commfit fit has them from several tables. */
typedef struct rowset {
    const cf_row *const *rows;
    size_t n;
} rowset;

/* The statistic commfit fit chose, by its name there or by the column's. */
static double row_time(const cf_row *r, const char *stat)
{
    if ((strcmp(stat, "median") == 0 || strcmp(stat, "t_med_us") == 0) && isfinite(r->t_med_us))
        return r->t_med_us;
    if (strcmp(stat, "min") == 0 || strcmp(stat, "t_min_us") == 0)
        return r->t_min_us;
    return r->t_avg_us;
}

static int rows_hockney(const rowset *t, const char *stat, const char *pattern,
                        const char *datatype, cf_hockney *h, cf_error *e)
{
    size_t n = 0;
    double *m = malloc((t->n ? t->n : 1) * sizeof *m);
    double *y = malloc((t->n ? t->n : 1) * sizeof *y);
    if (m == NULL || y == NULL) {
        free(m);
        free(y);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    for (size_t i = 0; i < t->n; i++) {
        const cf_row *r = t->rows[i];
        if (r->np == 2 && r->blocks == 0 && strcmp(r->pattern, pattern) == 0 &&
            strcmp(r->datatype, datatype) == 0) {
            m[n] = (double)r->bytes;
            y[n++] = row_time(r, stat);
        }
    }
    int rc = n == 0 ? cf_error_set(e, CF_EXIT_DATA, NULL, 0, "no %s rows at np=2", pattern)
                    : cf_hockney_fit(m, y, n, h, e);
    free(m);
    free(y);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A row an algorithm cost covers, with its place in the input: rows are sorted by
 * (pattern, datatype, np), then by that place, so that each key below is one run of them
 * in input order, found once instead of by a scan of every row per key. */
typedef struct keyed_row {
    const cf_row *r;
    const cf_coll *c;
    size_t pos;
} keyed_row;

static int cmp_keyed_row(const void *a, const void *b)
{
    const keyed_row *x = a, *y = b;
    int d = strcmp(x->r->pattern, y->r->pattern);
    if (d == 0)
        d = strcmp(x->r->datatype, y->r->datatype);
    if (d == 0)
        d = (x->r->np > y->r->np) - (x->r->np < y->r->np);
    if (d == 0)
        d = (x->pos > y->pos) - (x->pos < y->pos);
    return d;
}

/* A (pattern, datatype, np) with an algorithm cost, and its rows kr[lo, hi). */
typedef struct key {
    const cf_coll *c;
    const char *datatype;
    long np; /* 0: every np >= 2 */
    size_t lo, hi;
} key;

static int add_key(key **ks, size_t *n, size_t *cap, key k)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        key *nk = realloc(*ks, nc * sizeof *nk);
        if (nk == NULL)
            return -1;
        *ks = nk;
        *cap = nc;
    }
    (*ks)[(*n)++] = k;
    return 0;
}

/* The keys of the sorted rows kr, in the order (pattern, datatype, np), the every-np key
 * of a (pattern, datatype) first. */
static int make_keys(const keyed_row *kr, size_t n, key **ks, size_t *nk)
{
    size_t cap = 0;
    for (size_t a = 0, b; a < n; a = b) {
        const cf_row *r = kr[a].r;
        for (b = a + 1; b < n && strcmp(kr[b].r->pattern, r->pattern) == 0 &&
                        strcmp(kr[b].r->datatype, r->datatype) == 0;
             b++)
            ;
        /* Two-process patterns have no other process count to fit across. */
        if (!kr[a].c->two_only &&
            add_key(ks, nk, &cap, (key){kr[a].c, r->datatype, 0, a, b}) != 0)
            return -1;
        for (size_t i = a, j; i < b; i = j) {
            for (j = i + 1; j < b && kr[j].r->np == kr[i].r->np; j++)
                ;
            if (add_key(ks, nk, &cap, (key){kr[a].c, r->datatype, kr[i].r->np, i, j}) != 0)
                return -1;
        }
    }
    return 0;
}

static int contention_of(const keyed_row *kr, const char *stat, const cf_p2p *pp, const key *k,
                         cf_contention *out)
{
    size_t n = 0;
    double *ratio = malloc((k->hi > k->lo ? k->hi - k->lo : 1) * sizeof *ratio);
    if (ratio == NULL)
        return -1;
    double s = 0.0, s2 = 0.0;
    for (size_t i = k->lo; i < k->hi; i++) {
        const cf_row *r = kr[i].r;
        double est = cf_coll_cost(k->c, r->np, (double)r->bytes, pp->h.alpha_us,
                                  pp->h.beta_us_per_byte, pp->gamma_us_per_byte, NULL, NULL);
        if (!(est > 0.0))
            continue;
        double q = row_time(r, stat) / est;
        ratio[n++] = q;
        s += log(q);
        s2 += log(q) * log(q);
    }
    memset(out, 0, sizeof *out);
    snprintf(out->pattern, sizeof out->pattern, "%s", k->c->pattern);
    snprintf(out->datatype, sizeof out->datatype, "%s", k->datatype);
    out->np = k->np;
    out->n = (int)n;
    if (n > 0) {
        qsort(ratio, n, sizeof *ratio, cmp_double);
        out->median = n % 2 ? ratio[n / 2] : 0.5 * (ratio[n / 2 - 1] + ratio[n / 2]);
        out->min = ratio[0];
        out->max = ratio[n - 1];
        double mean = s / (double)n;
        out->sd_log = n > 1 ? sqrt(fmax(0.0, (s2 - n * mean * mean) / (double)(n - 1))) : 0.0;
    }
    free(ratio);
    return 0;
}

/* The estimate puts alpha and beta into every algorithm's cost, at any p and m: neither
 * can be negative, or not finite, there. */
static int hockney_check(const cf_hockney *h, cf_error *why)
{
    const double v[2] = {h->alpha_us, h->beta_us_per_byte};
    const char *const name[2] = {"alpha", "beta"};
    for (int j = 0; j < 2; j++) {
        if (!isfinite(v[j]) || v[j] < 0)
            return cf_error_set(why, CF_EXIT_DATA, NULL, 0,
                                "the ping-pong fit gives %s = %.4g: the point-to-point "
                                "estimate needs it finite and >= 0",
                                name[j], v[j]);
        if (!isfinite(h->cov[j][0]) || !isfinite(h->cov[j][1]) || h->cov[j][j] < 0 ||
            !isfinite(h->s2) || h->s2 < 0)
            return cf_error_set(why, CF_EXIT_DATA, NULL, 0,
                                "the ping-pong fit gives a variance of %s that is not finite, "
                                "or negative",
                                name[j]);
    }
    return 0;
}

static void p2p_gamma_fit(const rowset *t, const char *stat, const char *nt, cf_p2p *pp)
{
    static const char *const reductions[] = {"reduce", "allreduce"};
    for (size_t i = 0; i < 2; i++) {
        cf_hockney h;
        cf_error ignore;
        cf_error_clear(&ignore);
        if (rows_hockney(t, stat, reductions[i], "float", &h, &ignore) != 0)
            continue;
        /* At p = 2 both reductions are one exchange plus one local reduction:
         * alpha + m*(beta + gamma). */
        pp->gamma_us_per_byte = fmax(0.0, h.beta_us_per_byte - pp->h.beta_us_per_byte);
        pp->gamma_se = sqrt(h.cov[1][1] + pp->h.cov[1][1]);
        snprintf(pp->gamma_source, sizeof pp->gamma_source,
                 "%s at np=2: its beta minus the ping-pong beta", reductions[i]);
        return;
    }
    char *end = NULL;
    double v = nt ? strtod(nt, &end) : NAN;
    if (nt && end != nt && *end == '\0' && v > 0.0 && isfinite(v)) {
        /* The dot product of two 1000-double vectors reads 8000 bytes of each input, as a
         * float reduction of 8000 bytes does: its time per 8000 bytes is gamma's scale. */
        pp->gamma_us_per_byte = v / 8000.0;
        pp->gamma_se = pp->gamma_us_per_byte;
        snprintf(pp->gamma_source, sizeof pp->gamma_source,
                 "normalized_time_us / 8000 (no reduction measured at np=2)");
        return;
    }
    pp->gamma_us_per_byte = 0.0;
    pp->gamma_se = 0.0;
    snprintf(pp->gamma_source, sizeof pp->gamma_source,
             "none: no reduction at np=2 and no normalized_time_us; compute cost left out");
}

static int note_add(char ***notes, size_t *n, const char *fmt, const char *a, const char *b,
                    const char *c)
{
    char buf[CF_NOTE_MAX * 2];
    snprintf(buf, sizeof buf, fmt, a, b, c);
    char **nn = realloc(*notes, (*n + 1) * sizeof *nn);
    if (nn == NULL)
        return -1;
    *notes = nn;
    if ((nn[*n] = strdup(buf)) == NULL)
        return -1;
    (*n)++;
    return 0;
}

void cf_notes_free(char **notes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(notes[i]);
    free(notes);
}

int cf_across_fit_table(const cf_table *tab, const char *stat, json_t **across_np,
                        json_t **p2p, char ***notes, size_t *nnotes, cf_error *e)
{
    const cf_row **rows = malloc((tab->n_rows ? tab->n_rows : 1) * sizeof *rows);
    if (rows == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    for (size_t i = 0; i < tab->n_rows; i++)
        rows[i] = &tab->rows[i];
    int rc = cf_across_fit_rows(rows, tab->n_rows, stat,
                                cf_table_meta_get(tab, "normalized_time_us"), across_np, p2p,
                                notes, nnotes, e);
    free(rows);
    return rc;
}

int cf_across_fit_rows(const cf_row *const *rows, size_t nrows, const char *stat,
                       const char *normalized_time_us, json_t **across_np, json_t **p2p,
                       char ***notes, size_t *nnotes, cf_error *e)
{
    rowset set = {rows, nrows};
    const rowset *t = &set;
    if (stat == NULL)
        stat = "mean";
    *across_np = NULL;
    *p2p = NULL;
    *notes = NULL;
    *nnotes = 0;
    int rc = 0;
    key *ks = NULL;
    size_t nk = 0, nkr = 0;
    keyed_row *kr = NULL;
    cf_point *pts = NULL;
    cf_p2p pp;
    memset(&pp, 0, sizeof pp);
    json_t *arr = json_array();
    if (arr == NULL)
        goto oom;

    /* Every (pattern, datatype, np) with an algorithm cost, and each (pattern, datatype). */
    kr = malloc((t->n ? t->n : 1) * sizeof *kr);
    if (kr == NULL)
        goto oom;
    for (size_t i = 0; i < t->n; i++) {
        const cf_row *r = t->rows[i];
        const cf_coll *c = cf_coll_find(r->pattern);
        if (c != NULL && r->blocks == 0 && r->np >= 2)
            kr[nkr++] = (keyed_row){r, c, i};
    }
    if (nkr > 0) /* qsort wants a valid pointer even for no elements */
        qsort(kr, nkr, sizeof *kr, cmp_keyed_row);
    if (make_keys(kr, nkr, &ks, &nk) != 0)
        goto oom;

    /* The point-to-point parameters, then the contention where collectives were measured. */
    snprintf(pp.pattern, sizeof pp.pattern, "pingpong");
    {
        cf_error why;
        cf_error_clear(&why);
        if (rows_hockney(t, stat, "pingpong", "byte", &pp.h, &why) != 0 ||
            hockney_check(&pp.h, &why) != 0)
            snprintf(pp.error, sizeof pp.error, "%.150s", why.msg);
    }
    if (pp.error[0] == '\0') {
        p2p_gamma_fit(t, stat, normalized_time_us, &pp);
        for (size_t i = 0; i < nk; i++) {
            if (ks[i].np == 0 || strcmp(ks[i].datatype, ks[i].c->datatype) != 0)
                continue;
            cf_contention *nc = realloc(pp.cont, (pp.ncont + 1) * sizeof *nc);
            if (nc == NULL)
                goto oom;
            pp.cont = nc;
            if (contention_of(kr, stat, &pp, &ks[i], &pp.cont[pp.ncont]) != 0)
                goto oom;
            if (pp.cont[pp.ncont].n > 0)
                pp.ncont++;
        }
    }

    pts = malloc((t->n ? t->n : 1) * sizeof *pts);
    if (pts == NULL)
        goto oom;
    for (size_t i = 0; i < nk; i++) {
        if (ks[i].np != 0)
            continue;
        size_t n = 0;
        for (size_t j = ks[i].lo; j < ks[i].hi; j++) {
            const cf_row *r = kr[j].r;
            pts[n++] = (cf_point){r->np, (double)r->bytes, row_time(r, stat)};
        }
        cf_across a;
        if ((rc = cf_across_fit_points(ks[i].c, ks[i].datatype, pts, n, &a, e)) != 0)
            goto out;
        if (a.error[0] != '\0' &&
            note_add(notes, nnotes, "%s (%s): %s; fitted per np only", a.pattern, a.datatype,
                     a.error) != 0)
            goto oom;
        json_t *j = cf_across_to_json(&a);
        if (j == NULL || json_array_append_new(arr, j) != 0)
            goto oom;
    }
    if ((*p2p = cf_p2p_to_json(&pp)) == NULL)
        goto oom;
    *across_np = arr;
    arr = NULL;
    goto out;
oom:
    rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    cf_notes_free(*notes, *nnotes);
    *notes = NULL;
    *nnotes = 0;
out:
    json_decref(arr);
    free(ks);
    free(kr);
    free(pts);
    cf_p2p_clear(&pp);
    return rc;
}

/* ---- JSON ---- */

/* jansson refuses NaN and infinity; the file says null instead. */
static json_t *jnum(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static int set(json_t *o, const char *k, json_t *v)
{
    return v == NULL || json_object_set_new(o, k, v) != 0 ? -1 : 0;
}

static json_t *quality_json(const cf_rel_quality *q)
{
    json_t *o = json_object();
    if (o == NULL || set(o, "n", json_integer(q->n)) || set(o, "dof", json_integer(q->dof)) ||
        set(o, "rejected", json_integer(q->rejected)) ||
        set(o, "mape", jnum(q->mape)) || set(o, "max_rel_err", jnum(q->max_rel_err)) ||
        set(o, "loo_mape", jnum(q->loo_mape))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *matrix_json(const double *m, int k)
{
    json_t *rows = json_array();
    for (int i = 0; rows && i < k; i++) {
        json_t *row = json_array();
        for (int j = 0; row && j < k; j++)
            if (json_array_append_new(row, jnum(m[i * k + j])) != 0) {
                json_decref(row);
                row = NULL;
            }
        if (row == NULL || json_array_append_new(rows, row) != 0) {
            json_decref(rows);
            return NULL;
        }
    }
    return rows;
}

static json_t *seg_json(const cf_across_seg *s)
{
    json_t *o = json_object(), *basis = json_array(), *coef = json_array(), *se = json_array();
    if (o == NULL || set(o, "basis", basis) || set(o, "coef", coef) || set(o, "se", se))
        goto fail;
    if (set(o, "from_bytes", json_real(s->from_bytes)) ||
        set(o, "to_bytes", json_real(s->to_bytes)) ||
        set(o, "algorithm", json_string(s->algorithm)))
        goto fail;
    for (int j = 0; j < s->nbasis; j++) {
        char name[96];
        cf_cterm_sum_name(&s->basis[j], name, sizeof name);
        if (json_array_append_new(basis, json_string(name)) ||
            json_array_append_new(coef, jnum(s->coef[j])) ||
            json_array_append_new(se, jnum(sqrt(fmax(0.0, s->cov[j][j])))))
            goto fail;
    }
    double cov[CF_COLL_MAX_BASIS * CF_COLL_MAX_BASIS];
    for (int j = 0; j < s->nbasis; j++)
        for (int l = 0; l < s->nbasis; l++)
            cov[j * s->nbasis + l] = s->cov[j][l];
    if (set(o, "cov", matrix_json(cov, s->nbasis)) || set(o, "s2", jnum(s->s2)) ||
        set(o, "quality", quality_json(&s->q)))
        goto fail;
    return o;
fail:
    json_decref(o);
    return NULL;
}

json_t *cf_across_to_json(const cf_across *a)
{
    json_t *o = json_object(), *np = json_array();
    if (o == NULL || set(o, "np", np))
        goto fail;
    for (int i = 0; i < a->nnp; i++)
        if (json_array_append_new(np, json_integer(a->np[i])) != 0)
            goto fail;
    if (set(o, "pattern", json_string(a->pattern)) ||
        set(o, "datatype", json_string(a->datatype)) ||
        set(o, "bytes_min", json_real(a->bytes_min)) ||
        set(o, "bytes_max", json_real(a->bytes_max)))
        goto fail;
    if (a->error[0] != '\0') {
        if (set(o, "error", json_string(a->error)))
            goto fail;
        return o;
    }
    json_t *segs = json_array();
    if (set(o, "segments", segs))
        goto fail;
    for (int i = 0; i < a->nseg; i++)
        if (json_array_append_new(segs, seg_json(&a->seg[i])))
            goto fail;
    char f[1024];
    cf_across_describe(a, f, sizeof f);
    if (set(o, "quality", quality_json(&a->q)) || set(o, "formula", json_string(f)))
        goto fail;
    return o;
fail:
    json_decref(o);
    return NULL;
}

json_t *cf_p2p_to_json(const cf_p2p *pp)
{
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    if (pp->error[0] != '\0') {
        if (set(o, "error", json_string(pp->error)))
            goto fail;
        return o;
    }
    const cf_hockney *h = &pp->h;
    json_t *se = json_array(), *cont = json_array();
    if (set(o, "se", se) || set(o, "contention", cont))
        goto fail;
    if (set(o, "pattern", json_string(pp->pattern)) || set(o, "np", json_integer(2)) ||
        set(o, "datatype", json_string("byte")) || set(o, "alpha_us", jnum(h->alpha_us)) ||
        set(o, "beta_us_per_byte", jnum(h->beta_us_per_byte)) ||
        json_array_append_new(se, jnum(sqrt(fmax(0.0, h->cov[0][0])))) ||
        json_array_append_new(se, jnum(sqrt(fmax(0.0, h->cov[1][1])))) ||
        set(o, "cov", matrix_json(&h->cov[0][0], 2)) || set(o, "s2", jnum(h->s2)) ||
        set(o, "quality", quality_json(&h->q)) || set(o, "bytes_min", jnum(h->bytes_min)) ||
        set(o, "bytes_max", jnum(h->bytes_max)) ||
        set(o, "gamma_us_per_byte", jnum(pp->gamma_us_per_byte)) ||
        set(o, "gamma_se", jnum(pp->gamma_se)) ||
        set(o, "gamma_source", json_string(pp->gamma_source)) ||
        set(o, "model_error_factor_measured", json_real(CF_P2P_FACTOR_MEASURED)) ||
        set(o, "model_error_factor_unmeasured", json_real(CF_P2P_FACTOR_UNMEASURED)))
        goto fail;
    for (size_t i = 0; i < pp->ncont; i++) {
        const cf_contention *k = &pp->cont[i];
        json_t *c = json_object();
        if (c == NULL || json_array_append_new(cont, c) ||
            set(c, "pattern", json_string(k->pattern)) ||
            set(c, "datatype", json_string(k->datatype)) || set(c, "np", json_integer(k->np)) ||
            set(c, "n", json_integer(k->n)) || set(c, "median", jnum(k->median)) ||
            set(c, "min", jnum(k->min)) || set(c, "max", jnum(k->max)) ||
            set(c, "sd_log", jnum(k->sd_log)))
            goto fail;
    }
    return o;
fail:
    json_decref(o);
    return NULL;
}

/* Reading: every field checked, every message naming the file and the field. */

typedef struct where {
    const char *file;
    char path[96]; /* "across_np[3]" */
    cf_error *e;
} where;

static int bad(const where *w, const char *field, const char *expected)
{
    return cf_error_set(w->e, CF_EXIT_DATA, w->file, 0, "%s.%s: expected %s", w->path, field,
                        expected);
}

static int get_num(const where *w, const json_t *o, const char *field, double *v)
{
    const json_t *j = json_object_get(o, field);
    if (!json_is_number(j) || !isfinite(json_number_value(j)))
        return bad(w, field, "a number");
    *v = json_number_value(j);
    return 0;
}

static int get_nonneg(const where *w, const json_t *o, const char *field, double *v)
{
    if (get_num(w, o, field, v) != 0 || *v < 0.0)
        return bad(w, field, "a number >= 0");
    return 0;
}

static int get_str(const where *w, const json_t *o, const char *field, char *buf, size_t n)
{
    const json_t *j = json_object_get(o, field);
    if (!json_is_string(j) || json_string_length(j) == 0 || json_string_length(j) >= n)
        return bad(w, field, "a non-empty string");
    snprintf(buf, n, "%s", json_string_value(j));
    return 0;
}

static int get_int(const where *w, const json_t *o, const char *field, long min, long max,
                   long *v)
{
    const json_t *j = json_object_get(o, field);
    if (!json_is_integer(j) || json_integer_value(j) < min || json_integer_value(j) > max) {
        char exp[64];
        snprintf(exp, sizeof exp, "an integer from %ld to %ld", min, max);
        return bad(w, field, exp);
    }
    *v = (long)json_integer_value(j);
    return 0;
}

static int get_vec(const where *w, const json_t *o, const char *field, int k, double *v)
{
    const json_t *j = json_object_get(o, field);
    char exp[64];
    snprintf(exp, sizeof exp, "an array of %d numbers", k);
    if (!json_is_array(j) || (int)json_array_size(j) != k)
        return bad(w, field, exp);
    for (int i = 0; i < k; i++) {
        const json_t *x = json_array_get(j, (size_t)i);
        if (!json_is_number(x) || !isfinite(json_number_value(x)))
            return bad(w, field, exp);
        v[i] = json_number_value(x);
    }
    return 0;
}

static int get_mat(const where *w, const json_t *o, const char *field, int k, double *m)
{
    const json_t *j = json_object_get(o, field);
    char exp[64];
    snprintf(exp, sizeof exp, "a %dx%d array of numbers", k, k);
    if (!json_is_array(j) || (int)json_array_size(j) != k)
        return bad(w, field, exp);
    for (int i = 0; i < k; i++) {
        const json_t *row = json_array_get(j, (size_t)i);
        if (!json_is_array(row) || (int)json_array_size(row) != k)
            return bad(w, field, exp);
        for (int l = 0; l < k; l++) {
            const json_t *x = json_array_get(row, (size_t)l);
            if (!json_is_number(x) || !isfinite(json_number_value(x)))
                return bad(w, field, exp);
            m[i * k + l] = json_number_value(x);
        }
    }
    return 0;
}

static int get_quality(const where *w, const json_t *o, cf_rel_quality *q)
{
    const json_t *j = json_object_get(o, "quality");
    if (!json_is_object(j))
        return bad(w, "quality", "an object");
    long n, dof;
    if (get_int(w, j, "n", 1, 1L << 40, &n) || get_int(w, j, "dof", 1, 1L << 40, &dof))
        return CF_EXIT_DATA;
    q->n = (int)n;
    q->dof = (int)dof;
    const json_t *rej = json_object_get(j, "rejected");
    q->rejected = json_is_integer(rej) ? (int)json_integer_value(rej) : 0;
    const char *opt[] = {"mape", "max_rel_err", "loo_mape"};
    double *dst[] = {&q->mape, &q->max_rel_err, &q->loo_mape};
    for (int i = 0; i < 3; i++) {
        const json_t *x = json_object_get(j, opt[i]);
        *dst[i] = json_is_number(x) ? json_number_value(x) : NAN;
    }
    return 0;
}

static int seg_from_json(const json_t *j, const where *w, cf_across_seg *out)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(j))
        return cf_error_set(w->e, CF_EXIT_DATA, w->file, 0, "%s: expected an object", w->path);
    if (get_nonneg(w, j, "from_bytes", &out->from_bytes) ||
        get_nonneg(w, j, "to_bytes", &out->to_bytes) ||
        get_str(w, j, "algorithm", out->algorithm, sizeof out->algorithm))
        return CF_EXIT_DATA;
    if (out->to_bytes < out->from_bytes)
        return bad(w, "to_bytes", "a number >= from_bytes");
    const json_t *basis = json_object_get(j, "basis");
    if (!json_is_array(basis) || json_array_size(basis) == 0 ||
        json_array_size(basis) > CF_COLL_MAX_BASIS)
        return bad(w, "basis", "an array of 1 to 3 term names");
    out->nbasis = (int)json_array_size(basis);
    for (int i = 0; i < out->nbasis; i++) {
        const json_t *x = json_array_get(basis, (size_t)i);
        if (!json_is_string(x) || cf_cterm_sum_parse(json_string_value(x), &out->basis[i]) != 0)
            return cf_error_set(w->e, CF_EXIT_DATA, w->file, 0,
                                "%s.basis: unknown term '%s' (from a newer commfit?)", w->path,
                                json_is_string(x) ? json_string_value(x) : "?");
    }
    double cov[CF_COLL_MAX_BASIS * CF_COLL_MAX_BASIS];
    if (get_vec(w, j, "coef", out->nbasis, out->coef) || get_mat(w, j, "cov", out->nbasis, cov) ||
        get_nonneg(w, j, "s2", &out->s2) || get_quality(w, j, &out->q))
        return CF_EXIT_DATA;
    for (int a = 0; a < out->nbasis; a++)
        for (int b = 0; b < out->nbasis; b++)
            out->cov[a][b] = cov[a * out->nbasis + b];
    out->tq = gsl_cdf_tdist_Pinv(0.975, out->q.dof);
    return 0;
}

int cf_across_from_json(const json_t *j, const char *name, size_t index, cf_across *out,
                        cf_error *e)
{
    where w = {name, "", e};
    snprintf(w.path, sizeof w.path, "across_np[%zu]", index);
    memset(out, 0, sizeof *out);
    quality_clear(&out->q);
    if (!json_is_object(j))
        return cf_error_set(e, CF_EXIT_DATA, name, 0, "%s: expected an object", w.path);
    if (get_str(&w, j, "pattern", out->pattern, sizeof out->pattern) ||
        get_str(&w, j, "datatype", out->datatype, sizeof out->datatype) ||
        get_nonneg(&w, j, "bytes_min", &out->bytes_min) ||
        get_nonneg(&w, j, "bytes_max", &out->bytes_max))
        return CF_EXIT_DATA;
    const json_t *np = json_object_get(j, "np");
    if (!json_is_array(np) || json_array_size(np) == 0 || json_array_size(np) > CF_ACROSS_NP_MAX)
        return bad(&w, "np", "an array of 1 to 64 process counts");
    for (size_t i = 0; i < json_array_size(np); i++) {
        const json_t *x = json_array_get(np, i);
        if (!json_is_integer(x) || json_integer_value(x) < 2 ||
            json_integer_value(x) > CF_TABLE_NP_MAX ||
            (i > 0 && json_integer_value(x) <= out->np[i - 1]))
            return bad(&w, "np", "increasing process counts of 2 or more");
        out->np[i] = (long)json_integer_value(x);
    }
    out->nnp = (int)json_array_size(np);
    const json_t *err = json_object_get(j, "error");
    if (err != NULL) {
        if (!json_is_string(err))
            return bad(&w, "error", "a string");
        snprintf(out->error, sizeof out->error, "%s", json_string_value(err));
        return 0;
    }
    const json_t *segs = json_object_get(j, "segments");
    if (!json_is_array(segs) || json_array_size(segs) == 0 ||
        json_array_size(segs) > CF_ACROSS_MAX_SEG)
        return bad(&w, "segments", "an array of 1 or 2 segments");
    out->nseg = (int)json_array_size(segs);
    for (int i = 0; i < out->nseg; i++) {
        where ws = {name, "", e};
        snprintf(ws.path, sizeof ws.path, "across_np[%zu].segments[%d]", index, i);
        int rc = seg_from_json(json_array_get(segs, (size_t)i), &ws, &out->seg[i]);
        if (rc != 0)
            return rc;
        if (i > 0 && out->seg[i].from_bytes <= out->seg[i - 1].to_bytes)
            return bad(&ws, "from_bytes", "a size above the previous segment's to_bytes");
    }
    return get_quality(&w, j, &out->q);
}

int cf_p2p_from_json(const json_t *j, const char *name, cf_p2p *out, cf_error *e)
{
    where w = {name, "p2p", e};
    memset(out, 0, sizeof *out);
    if (!json_is_object(j))
        return cf_error_set(e, CF_EXIT_DATA, name, 0, "p2p: expected an object");
    const json_t *err = json_object_get(j, "error");
    if (err != NULL) {
        if (!json_is_string(err))
            return bad(&w, "error", "a string");
        snprintf(out->error, sizeof out->error, "%s", json_string_value(err));
        return 0;
    }
    cf_hockney *h = &out->h;
    if (get_str(&w, j, "pattern", out->pattern, sizeof out->pattern) ||
        get_num(&w, j, "alpha_us", &h->alpha_us) ||
        get_num(&w, j, "beta_us_per_byte", &h->beta_us_per_byte) ||
        get_mat(&w, j, "cov", 2, &h->cov[0][0]) || get_nonneg(&w, j, "s2", &h->s2) ||
        get_quality(&w, j, &h->q) || get_nonneg(&w, j, "bytes_min", &h->bytes_min) ||
        get_nonneg(&w, j, "bytes_max", &h->bytes_max) ||
        get_nonneg(&w, j, "gamma_us_per_byte", &out->gamma_us_per_byte) ||
        get_nonneg(&w, j, "gamma_se", &out->gamma_se) ||
        get_str(&w, j, "gamma_source", out->gamma_source, sizeof out->gamma_source))
        return CF_EXIT_DATA;
    const json_t *cont = json_object_get(j, "contention");
    if (!json_is_array(cont))
        return bad(&w, "contention", "an array");
    size_t n = json_array_size(cont);
    out->cont = calloc(n ? n : 1, sizeof *out->cont);
    if (out->cont == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const json_t *c = json_array_get(cont, i);
        cf_contention *k = &out->cont[i];
        where wc = {name, "", e};
        snprintf(wc.path, sizeof wc.path, "p2p.contention[%zu]", i);
        long np, cnt;
        if (!json_is_object(c)) {
            cf_p2p_clear(out);
            return cf_error_set(e, CF_EXIT_DATA, name, 0, "%s: expected an object", wc.path);
        }
        if (get_str(&wc, c, "pattern", k->pattern, sizeof k->pattern) ||
            get_str(&wc, c, "datatype", k->datatype, sizeof k->datatype) ||
            get_int(&wc, c, "np", 2, CF_TABLE_NP_MAX, &np) ||
            get_int(&wc, c, "n", 1, 1L << 40, &cnt) || get_nonneg(&wc, c, "median", &k->median) ||
            get_nonneg(&wc, c, "min", &k->min) || get_nonneg(&wc, c, "max", &k->max) ||
            get_nonneg(&wc, c, "sd_log", &k->sd_log)) {
            cf_p2p_clear(out);
            return CF_EXIT_DATA;
        }
        if (!(k->median > 0.0)) {
            cf_p2p_clear(out);
            return bad(&wc, "median", "a number > 0");
        }
        k->np = np;
        k->n = (int)cnt;
        out->ncont = i + 1;
    }
    return 0;
}

int cf_across_set_load(const json_t *across_np, const json_t *p2p, const char *name,
                       cf_across_set *out, cf_error *e)
{
    memset(out, 0, sizeof *out);
    if (across_np != NULL && !json_is_null(across_np)) {
        if (!json_is_array(across_np))
            return cf_error_set(e, CF_EXIT_DATA, name, 0, "across_np: expected an array");
        size_t n = json_array_size(across_np);
        out->a = calloc(n ? n : 1, sizeof *out->a);
        if (out->a == NULL)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        for (size_t i = 0; i < n; i++) {
            int rc = cf_across_from_json(json_array_get(across_np, i), name, i, &out->a[i], e);
            if (rc != 0) {
                cf_across_set_clear(out);
                return rc;
            }
            out->n = i + 1;
        }
    }
    if (p2p != NULL && !json_is_null(p2p)) {
        int rc = cf_p2p_from_json(p2p, name, &out->pp, e);
        if (rc != 0) {
            cf_across_set_clear(out);
            return rc;
        }
        out->have_p2p = 1;
    }
    return 0;
}

void cf_across_set_clear(cf_across_set *s)
{
    free(s->a);
    cf_p2p_clear(&s->pp);
    memset(s, 0, sizeof *s);
}

const cf_across *cf_across_set_find(const cf_across_set *s, const char *pattern,
                                    const char *datatype)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->a[i].pattern, pattern) == 0 && strcmp(s->a[i].datatype, datatype) == 0)
            return &s->a[i];
    return NULL;
}

/* ---- Formulas, in the forms of cf_fit_formula ---- */

static size_t text_line(char *buf, size_t n, double c0, double c1)
{
    if (!(c1 > 0.0))
        return (size_t)snprintf(buf, n, "%.4g us %s %.4g us/B * m", c0, c1 < 0 ? "-" : "+",
                                fabs(c1));
    double mibps = 1.0 / (c1 * 1.048576);
    if (mibps >= 1024.0)
        return (size_t)snprintf(buf, n, "%.4g us + m / (%.3g GiB/s)", c0, mibps / 1024.0);
    return (size_t)snprintf(buf, n, "%.4g us + m / (%.3g MiB/s)", c0, mibps);
}

static size_t latex_num(char *buf, size_t n, double v)
{
    char s[32];
    snprintf(s, sizeof s, "%.4g", v);
    char *ex = strchr(s, 'e');
    if (ex == NULL)
        return (size_t)snprintf(buf, n, "%s", s);
    *ex = '\0';
    return (size_t)snprintf(buf, n, "%s \\times 10^{%d}", s, (int)strtol(ex + 1, NULL, 10));
}

static size_t line_expr(char *buf, size_t n, double c0, double c1, const char *lang)
{
    if (strcmp(lang, "text") == 0)
        return text_line(buf, n, c0, c1);
    if (strcmp(lang, "latex") == 0) {
        char a[64], b[64];
        latex_num(a, sizeof a, c0);
        latex_num(b, sizeof b, fabs(c1));
        return (size_t)snprintf(buf, n, "%s %s %s\\, m", a, c1 < 0 ? "-" : "+", b);
    }
    return (size_t)snprintf(buf, n, "%.15g %s %.15g*m", c0, c1 < 0 ? "-" : "+", fabs(c1));
}

int cf_lines_formula(const char *name, const double *c0, const double *c1, int nlines,
                     const double *switch_at, const char *lang, char *buf, size_t n)
{
    if (nlines < 1 || nlines > 2)
        return -1;
    char l[2][320];
    for (int i = 0; i < nlines; i++)
        line_expr(l[i], sizeof l[i], c0[i], c1[i], lang);
    int two = nlines > 1, pw = two && switch_at != NULL;
    double x = pw ? floor(switch_at[0]) : 0.0;
    char body[4 * sizeof l[0] + 96];
    if (strcmp(lang, "text") == 0) {
        if (pw)
            snprintf(body, sizeof body, "%s (m < %.0f); %s (m >= %.0f)", l[0], x, l[1], x);
        else if (two)
            snprintf(body, sizeof body, "min(%s, %s)", l[0], l[1]);
        else
            snprintf(body, sizeof body, "%s", l[0]);
        return snprintf(buf, n, "T(m) = %s", body);
    }
    if (strcmp(lang, "latex") == 0) {
        if (pw)
            snprintf(body, sizeof body,
                     "\\begin{cases} %s & m < %.0f \\\\ %s & \\text{otherwise} \\end{cases}", l[0],
                     x, l[1]);
        else if (two)
            snprintf(body, sizeof body, "\\min(%s,\\ %s)", l[0], l[1]);
        else
            snprintf(body, sizeof body, "%s", l[0]);
        const char *u = strchr(name, '_') ? strchr(name, '_') + 1 : name;
        return snprintf(buf, n, "T_{\\mathrm{%.*s}}(m) = %s \\quad [\\mu\\mathrm{s}; m \\text{ in "
                        "bytes}]", (int)strcspn(u, "_"), u, body);
    }
    int python = strcmp(lang, "python") == 0;
    if (pw && python)
        snprintf(body, sizeof body, "(%s) if m < %.0f else (%s)", l[0], x, l[1]);
    else if (pw)
        snprintf(body, sizeof body, "(m < %.0f ? (%s) : (%s))", x, l[0], l[1]);
    else if (two && strcmp(lang, "c") == 0)
        snprintf(body, sizeof body, "fmin(%s, %s)", l[0], l[1]);
    else if (two && python)
        snprintf(body, sizeof body, "min(%s, %s)", l[0], l[1]);
    else if (two)
        snprintf(body, sizeof body, "((%s) < (%s) ? (%s) : (%s))", l[0], l[1], l[0], l[1]);
    else
        snprintf(body, sizeof body, "%s", l[0]);
    if (strcmp(lang, "c") == 0)
        return snprintf(buf, n,
                        "static inline double %s(double m) { return %s; } /* us; m in bytes */",
                        name, body);
    if (python)
        return snprintf(buf, n, "def %s(m): return %s  # us; m in bytes", name, body);
    if (strcmp(lang, "gnuplot") == 0)
        return snprintf(buf, n, "%s(m) = %s  # us; m in bytes", name, body);
    return -1;
}
