/* The joint across-np fit, the point-to-point estimate and their model-file forms.
 * Times span six orders of magnitude, so every fit here minimises relative error. */
#include "config.h"

#include "fit/across.h"

#include "base/size.h"
#include "fit/robust.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define Z95 1.959963984540054
#define REL_KMAX (CF_COLL_MAX_BASIS > 2 ? CF_COLL_MAX_BASIS : 2) /* terms of one fit */

/* A point's relative deviation from the fit, and the point. */
typedef struct ranked {
    double d;
    size_t i;
} ranked;

static void quality_clear(cf_rel_quality *q)
{
    q->n = q->dof = q->rejected = 0;
    q->mape = q->max_rel_err = q->loo_mape = NAN;
}

/* By deviation; among equal ones the later point first, so that walking from the end
 * sets aside the earliest of them first (as the engine's median5 policy orders them). */
static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->d != y->d)
        return (x->d > y->d) - (x->d < y->d);
    return (x->i < y->i) - (x->i > y->i);
}

/* By deviation, the largest first; among equal ones the earliest point first. */
static int cmp_ranked_worst(const void *a, const void *b)
{
    return cmp_ranked(b, a);
}

/* The message for what the engine reports of a fit of n points and k terms. */
static int rel_fault(const cf_lsq *r, size_t n, size_t k, const double *t, cf_error *e)
{
    switch (r->status) {
    case CF_ROBUST_FEW:
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "not enough points (have %zu, need %zu)",
                            n, k + 1);
    case CF_ROBUST_ZERO_TERM:
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "term %zu is zero at every measured point", r->at + 1);
    case CF_ROBUST_BAD_Y:
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "time %g is not positive", t[r->at]);
    case CF_ROBUST_GSL:
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "least squares failed: %s",
                            gsl_strerror(r->gsl));
    case CF_ROBUST_SINGULAR:
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "the measured points cannot separate the %zu terms", k);
    case CF_ROBUST_NOMEM:
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    default:
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "internal error: workspace too small");
    }
}

/* cf_rel_lsq in the workspace W (made for k terms and at least n points). */
static int rel_lsq_ws(cf_robust_workspace *W, size_t n, size_t k, const double *X,
                      const double *t, double *coef, double *cov, double *s2, cf_rel_quality *q,
                      cf_error *e)
{
    if (n <= k)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "not enough points (have %zu, need %zu)",
                            n, k + 1);
    if (k > REL_KMAX)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "too many terms (%zu)", k);
    cf_lsq r;
    if (cf_robust_fit(W, X, t, NULL, n, CF_WEIGHTS_RELATIVE, 1, NULL, &r) != CF_ROBUST_OK)
        return rel_fault(&r, n, k, t, e);
    *s2 = r.s2;
    for (size_t j = 0; j < k; j++) {
        coef[j] = r.coef[j];
        for (size_t l = 0; l < k; l++)
            cov[j * k + l] = r.cov[j][l];
    }
    q->n = r.nkept;
    q->dof = r.dof;
    q->rejected = (int)n - r.nkept;
    double sum = 0.0, loo = 0.0, mx = 0.0;
    size_t nloo = 0;
    for (size_t i = 0; i < n; i++) {
        if (r.rejected[i])
            continue;
        double rel = fabs(t[i] - r.fitted[i]) / t[i];
        sum += rel;
        mx = fmax(mx, rel);
        if (!isnan(r.loo_rel[i])) {
            loo += r.loo_rel[i];
            nloo++;
        }
    }
    q->mape = sum / (double)r.nkept;
    q->max_rel_err = mx;
    q->loo_mape = nloo ? loo / (double)nloo : NAN;
    return 0;
}

int cf_rel_lsq(size_t n, size_t k, const double *X, const double *t, double *coef, double *cov,
               double *s2, cf_rel_quality *q, cf_error *e)
{
    if (n <= k)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "not enough points (have %zu, need %zu)",
                            n, k + 1);
    if (k > REL_KMAX)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "too many terms (%zu)", k);
    cf_robust_workspace *W = cf_robust_alloc(cf_robust_median5, n, k);
    if (W == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    int rc = rel_lsq_ws(W, n, k, X, t, coef, cov, s2, q, e);
    cf_robust_free(W);
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

/* What the fits of one pattern's ranges share: each point's basis values per algorithm,
 * computed once, and the buffers and GSL workspaces every fit reuses. */
typedef struct fitter {
    const cf_coll *c;
    const cf_point *pts;
    size_t n;
    int k[CF_COLL_MAX_ALGS];
    cf_cterm_sum basis[CF_COLL_MAX_ALGS][CF_COLL_MAX_BASIS];
    double *x[CF_COLL_MAX_ALGS]; /* n rows of k[a] values */
    double *X, *t;
    cf_robust_workspace *ws[REL_KMAX + 1]; /* by the number of terms, made when first needed */
} fitter;

static void fitter_free(fitter *F)
{
    for (int a = 0; a < CF_COLL_MAX_ALGS; a++)
        free(F->x[a]);
    free(F->X);
    free(F->t);
    for (int k = 0; k <= REL_KMAX; k++)
        cf_robust_free(F->ws[k]);
}

static int fitter_init(fitter *F, const cf_coll *c, const cf_point *pts, size_t n)
{
    memset(F, 0, sizeof *F);
    F->c = c;
    F->pts = pts;
    F->n = n;
    size_t rows = n ? n : 1;
    F->X = malloc(rows * REL_KMAX * sizeof *F->X);
    F->t = malloc(rows * sizeof *F->t);
    if (F->X == NULL || F->t == NULL)
        goto oom;
    for (int a = 0; a < c->nalgs; a++) {
        int k = alg_basis(&c->algs[a], F->basis[a]);
        F->k[a] = k;
        if ((F->x[a] = malloc(rows * (size_t)(k ? k : 1) * sizeof *F->x[a])) == NULL)
            goto oom;
        for (size_t i = 0; i < n; i++)
            for (int j = 0; j < k; j++)
                F->x[a][i * (size_t)k + (size_t)j] = sum_eval(&F->basis[a][j], pts[i].p, pts[i].m);
    }
    return 0;
oom:
    fitter_free(F);
    return -1;
}

/* Fits algorithm `alg` of c to the points with lo <= m <= hi. *rss is the relative
 * residual sum of squares; -1 when these points cannot determine the model. */
static int seg_fit(fitter *F, int alg, double lo, double hi, cf_across_seg *out, double *rss,
                   cf_error *why)
{
    const cf_coll *c = F->c;
    const cf_point *pts = F->pts;
    size_t n = F->n;
    memset(out, 0, sizeof *out);
    snprintf(out->algorithm, sizeof out->algorithm, "%s", c->algs[alg].name);
    int k = F->k[alg];
    memcpy(out->basis, F->basis[alg], sizeof out->basis);
    out->nbasis = k;
    size_t m = 0;
    double *X = F->X, *t = F->t;
    out->from_bytes = hi;
    out->to_bytes = lo;
    for (size_t i = 0; i < n; i++) {
        if (pts[i].m < lo || pts[i].m > hi)
            continue;
        for (int j = 0; j < k; j++)
            X[m * (size_t)k + (size_t)j] = F->x[alg][i * (size_t)k + (size_t)j];
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
    if (has_m && nsizes < 3)
        return cf_error_set(why, CF_EXIT_DATA, NULL, 0,
                            "fewer than 3 sizes: the size-dependent terms need 3");
    if (m <= (size_t)k) /* before a workspace is allocated for it */
        return cf_error_set(why, CF_EXIT_DATA, NULL, 0, "not enough points (have %zu, need %zu)",
                            m, (size_t)k + 1);
    cf_robust_workspace **W = k <= REL_KMAX ? &F->ws[k] : NULL;
    if (W != NULL && *W == NULL && (*W = cf_robust_alloc(cf_robust_median5, n, (size_t)k)) == NULL)
        return cf_error_set(why, CF_EXIT_DATA, NULL, 0, "out of memory");
    double cov[CF_COLL_MAX_BASIS * CF_COLL_MAX_BASIS];
    int rc = W == NULL ? cf_error_set(why, CF_EXIT_DATA, NULL, 0, "too many terms (%d)", k)
                       : rel_lsq_ws(*W, m, (size_t)k, X, t, out->coef, cov, &out->s2, &out->q, why);
    if (rc != 0)
        return rc;
    for (int j = 0; j < k; j++)
        for (int l = 0; l < k; l++)
            out->cov[j][l] = cov[j * k + l];
    out->tq = cf_t975(out->q.dof);
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

/* The AICc of a search candidate (its k parameters: the terms, and a switch point; the
 * residual variance is not counted). Where there are too few points it cannot win; a quick
 * fit whose rss is NaN scores as exact, so that a proper fit decides about it. */
static double search_aicc(double rss, int n, int k)
{
    double v = cf_aicc(isnan(rss) ? 0.0 : rss, (size_t)n, k);
    return isnan(v) ? INFINITY : v;
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

/* ---- The search for a switch between two size ranges ----
 *
 * A switch between two consecutive measured sizes, with an algorithm on each side, makes
 * (sizes - 1) * algorithms^2 candidates, each scored by the AICc of two iterated, robust
 * fits of its ranges. Every range is fitted once, however many candidates share it; still,
 * a table of a thousand sizes has thousands of ranges of thousands of points, and GSL's
 * SVD costs about 40 ns a point a pass. So the search first fits every range "quickly":
 * the same iteration, step for step, with its normal equations (at most 3 terms) solved
 * directly, a few ns a point a pass, the points sorted by size so that a range is a run of
 * them. Then it fits properly only the candidates that come within QUICK_MARGIN of the
 * best, and chooses among those by the rule of a full search, in its order. The two fits
 * agree to rounding (about 1e-12, an AICc apart by 1e-6), far inside the margin; the
 * proper fits of the candidates within reach check that, and any disagreement (a point on
 * the very edge of being set aside, a check on the edge of failing) makes every candidate
 * fitted properly. Every candidate fitted properly, in order, is the reference that
 * tests compare with (CF_SEARCH_EXHAUSTIVE). */

/* Within this much AICc of the best quick score, a candidate is fitted properly. */
#define QUICK_MARGIN 0.1

/* A range of a two-range candidate, properly fitted. */
typedef struct side_fit {
    signed char state; /* 0 not fitted yet, 1 the fit failed, 2 fitted */
    signed char check_ok;
    double rss;
    cf_across_seg seg;
} side_fit;

/* The same range fitted quickly. */
typedef struct quick_side {
    signed char state; /* 1 the fit failed, 2 fitted */
    signed char check_ok;
    int n; /* points kept */
    double rss;
} quick_side;

/* Weighted normal equations: the lower triangle of M, and v. */
typedef struct moments {
    double M[REL_KMAX][REL_KMAX], v[REL_KMAX];
} moments;

/* The points sorted by size: sizes [0, b) are the points [0, first[b]). pre[a][b] and
 * suf[a][b] are the normal equations of the first pass (weights 1/t^2) over sizes [0, b)
 * and [b, ns): every range starts from them instead of a pass over its points. */
typedef struct runs {
    moments *pre[CF_COLL_MAX_ALGS], *suf[CF_COLL_MAX_ALGS];
    size_t *first;
    double *t, *it;              /* times, and 1 / times */
    int times_ok;                /* every time positive and finite */
    double *x[CF_COLL_MAX_ALGS]; /* n rows of the algorithm's k values */
    double *iref, *sel, *buf;    /* a fit's 1 / reference time, deviations, scratch */
    ranked *dev;
    unsigned char *used;
} runs;

typedef struct search {
    fitter F;
    const double *sizes;
    size_t ns;
    const long *np;
    int nnp;
    int every_np;      /* np holds every measured process count */
    side_fit *side;    /* at side_at(), for a switch after size b - 1 */
    quick_side *quick; /* the same places */
    runs R;
} search;

static size_t side_at(const search *S, size_t b, int a, int right)
{
    return ((b - 1) * (size_t)S->F.c->nalgs + (size_t)a) * 2 + (size_t)right;
}

/* The middle (in log size) of the gap after size b - 1: each range answers up to it. */
static double gap_middle(const search *S, size_t b)
{
    return expm1(0.5 * (log1p(S->sizes[b - 1]) + log1p(S->sizes[b])));
}

static side_fit *side_get(search *S, size_t b, int a, int right)
{
    side_fit *sf = &S->side[side_at(S, b, a, right)];
    if (sf->state != 0)
        return sf;
    double lo = right ? S->sizes[b] : -INFINITY, hi = right ? INFINITY : S->sizes[b - 1];
    if (seg_fit(&S->F, a, lo, hi, &sf->seg, &sf->rss, NULL) != 0) {
        sf->state = 1;
        return sf;
    }
    sf->state = 2;
    const cf_across_seg *s = &sf->seg;
    double mid = gap_middle(S, b);
    sf->check_ok = seg_check(s, S->F.pts, S->F.n, S->np, S->nnp, right ? mid : s->from_bytes,
                             right ? s->to_bytes : mid, NULL) == 0;
    return sf;
}

/* The AICc of candidate (b, a1, a2), properly fitted: 0, or -1 when a range cannot be
 * fitted, -2 when a fitted range fails its check (*failed is then that range). */
static int cand_eval(search *S, size_t b, int a1, int a2, double *v, side_fit **failed)
{
    side_fit *s1 = side_get(S, b, a1, 0), *s2 = s1->state == 2 ? side_get(S, b, a2, 1) : NULL;
    if (s2 == NULL || s2->state != 2)
        return -1;
    if (!s1->check_ok || !s2->check_ok) {
        *failed = s1->check_ok ? s2 : s1;
        return -2;
    }
    *v = search_aicc(s1->rss + s2->rss, s1->seg.q.n + s2->seg.q.n, s1->seg.nbasis + s2->seg.nbasis + 1);
    return 0;
}

static void runs_free(runs *R)
{
    for (int a = 0; a < CF_COLL_MAX_ALGS; a++) {
        free(R->pre[a]);
        free(R->suf[a]);
    }
    free(R->first);
    free(R->t);
    free(R->it);
    for (int a = 0; a < CF_COLL_MAX_ALGS; a++)
        free(R->x[a]);
    free(R->iref);
    free(R->sel);
    free(R->buf);
    free(R->dev);
    free(R->used);
    memset(R, 0, sizeof *R);
}

static int cmp_point_m(const void *a, const void *b)
{
    const cf_point *x = *(const cf_point *const *)a, *y = *(const cf_point *const *)b;
    return (x->m > y->m) - (x->m < y->m);
}

static int runs_init(search *S)
{
    runs *R = &S->R;
    const fitter *F = &S->F;
    size_t n = F->n, ns = S->ns;
    const cf_point **by = malloc(n * sizeof *by);
    R->first = malloc((ns + 1) * sizeof *R->first);
    R->t = malloc(n * sizeof *R->t);
    R->it = malloc(n * sizeof *R->it);
    R->iref = malloc(n * sizeof *R->iref);
    R->sel = malloc(n * sizeof *R->sel);
    R->buf = malloc(n * sizeof *R->buf);
    R->dev = malloc(n * sizeof *R->dev);
    R->used = malloc(n);
    int ok = by && R->first && R->t && R->it && R->iref && R->sel && R->buf && R->dev && R->used;
    for (int a = 0; a < F->c->nalgs && ok; a++)
        ok = (R->x[a] = malloc(n * (size_t)(F->k[a] ? F->k[a] : 1) * sizeof *R->x[a])) != NULL &&
             (R->pre[a] = calloc(ns + 1, sizeof *R->pre[a])) != NULL &&
             (R->suf[a] = calloc(ns + 1, sizeof *R->suf[a])) != NULL;
    if (!ok) {
        free(by);
        runs_free(R);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        by[i] = &F->pts[i];
    qsort(by, n, sizeof *by, cmp_point_m);
    size_t s = 0;
    R->first[0] = 0;
    for (size_t i = 0; i < n; i++) {
        while (s + 1 < ns && S->sizes[s] < by[i]->m) /* sizes holds every point's size */
            R->first[++s] = i;
        size_t orig = (size_t)(by[i] - F->pts);
        R->t[i] = by[i]->t_us;
        R->it[i] = 1.0 / by[i]->t_us;
        for (int a = 0; a < F->c->nalgs; a++) {
            size_t k = (size_t)F->k[a];
            memcpy(&R->x[a][i * k], &F->x[a][orig * k], k * sizeof *R->x[a]);
        }
    }
    R->first[ns] = n;
    free(by);
    R->times_ok = 1;
    for (size_t i = 0; i < n; i++)
        R->times_ok &= R->t[i] > 0.0 && isfinite(R->t[i]);
    /* Each size's equations into pre[a][s + 1] first; then summed from either end, so
     * that no range is the difference of two sums. */
    for (int a = 0; a < F->c->nalgs; a++) {
        int k = F->k[a];
        moments *P = R->pre[a], *Q = R->suf[a];
        for (size_t s = 0; s < ns; s++)
            for (size_t i = R->first[s]; i < R->first[s + 1]; i++) {
                const double *x = &R->x[a][i * (size_t)k];
                double w = 1.0 / (R->t[i] * R->t[i]);
                for (int j = 0; j < k; j++) {
                    for (int l = 0; l <= j; l++)
                        P[s + 1].M[j][l] += w * x[j] * x[l];
                    P[s + 1].v[j] += w * x[j] * R->t[i];
                }
            }
        for (size_t s = ns; s-- > 0;)
            for (int j = 0; j < k; j++) {
                for (int l = 0; l <= j; l++)
                    Q[s].M[j][l] = Q[s + 1].M[j][l] + P[s + 1].M[j][l];
                Q[s].v[j] = Q[s + 1].v[j] + P[s + 1].v[j];
            }
        for (size_t s = 1; s <= ns; s++)
            for (int j = 0; j < k; j++) {
                for (int l = 0; l <= j; l++)
                    P[s].M[j][l] += P[s - 1].M[j][l];
                P[s].v[j] += P[s - 1].v[j];
            }
    }
    return 0;
}

/* Solves M c = v (k terms, the lower triangle of M filled) by Cholesky, rows and columns
 * scaled to a unit diagonal, and fills Minv with M's inverse. -1 when M is too near
 * singular for that to be accurate (a scaled pivot below 1e-8): GSL decides then. */
static int quick_solve(double M[REL_KMAX][REL_KMAX], const double *v, int k, double *c,
                       double Minv[REL_KMAX][REL_KMAX])
{
    double L[REL_KMAX][REL_KMAX], d[REL_KMAX];
    for (int j = 0; j < k; j++) {
        if (!(M[j][j] > 0.0) || !isfinite(M[j][j]))
            return -1;
        d[j] = sqrt(M[j][j]);
    }
    for (int j = 0; j < k; j++) {
        for (int l = 0; l < j; l++) {
            double s = M[j][l] / (d[j] * d[l]);
            for (int q = 0; q < l; q++)
                s -= L[j][q] * L[l][q];
            L[j][l] = s / L[l][l];
        }
        double piv = 1.0;
        for (int q = 0; q < j; q++)
            piv -= L[j][q] * L[j][q];
        if (!(piv > 1e-8))
            return -1;
        L[j][j] = sqrt(piv);
    }
    /* Column l of the inverse, and then c, from L L' = D^-1 M D^-1. */
    for (int l = 0; l <= k; l++) {
        double y[REL_KMAX], u[REL_KMAX];
        for (int j = 0; j < k; j++) {
            double s = l < k ? (j == l ? 1.0 / d[j] : 0.0) : v[j] / d[j];
            for (int q = 0; q < j; q++)
                s -= L[j][q] * y[q];
            y[j] = s / L[j][j];
        }
        for (int j = k; j-- > 0;) {
            double s = y[j];
            for (int q = j + 1; q < k; q++)
                s -= L[q][j] * u[q];
            u[j] = s / L[j][j];
        }
        for (int j = 0; j < k; j++) {
            if (l < k)
                Minv[j][l] = u[j] / d[j];
            else
                c[j] = u[j] / d[j];
        }
    }
    return 0;
}

/* The weighted normal equations of the kept points of the run, weights iref^2. */
static void quick_moments(const double *x, const double *t, const double *iref,
                          const unsigned char *used, size_t n, int k,
                          double M[REL_KMAX][REL_KMAX], double *v)
{
    double m[REL_KMAX][REL_KMAX] = {{0}}, u[REL_KMAX] = {0};
    for (size_t i = 0; i < n; i++) {
        if (!used[i])
            continue;
        const double *a = &x[i * (size_t)k];
        double w = iref[i] * iref[i];
        for (int j = 0; j < k; j++) {
            double wa = w * a[j];
            for (int l = 0; l <= j; l++)
                m[j][l] += wa * a[l];
            u[j] += wa * t[i];
        }
    }
    memcpy(M, m, sizeof m);
    memcpy(v, u, sizeof u);
}

/* One pass over the run after a solve with coefficients c: the weighted residual sum of
 * squares of that solve, the new reference times (the fitted ones where positive), the
 * largest relative change of one (returned), and the normal equations of the next pass. */
static double quick_sweep(const double *x, const double *t, double *iref,
                          const unsigned char *used, size_t n, int k, const double *c,
                          double M[REL_KMAX][REL_KMAX], double *v, double *chisq)
{
    double change = 0.0, chi = 0.0, m[REL_KMAX][REL_KMAX] = {{0}}, u[REL_KMAX] = {0};
    for (size_t i = 0; i < n; i++) {
        const double *a = &x[i * (size_t)k];
        double f = 0.0;
        for (int j = 0; j < k; j++)
            f += a[j] * c[j];
        double r = f > 0.0 ? f : t[i], ir = iref[i];
        double d = fabs(r * ir - 1.0);
        change = d > change ? d : change;
        double e = (t[i] - f) * ir;
        ir = iref[i] = 1.0 / r;
        if (!used[i])
            continue;
        chi += e * e;
        for (int j = 0; j < k; j++) {
            double wa = ir * ir * a[j];
            for (int l = 0; l <= j; l++)
                m[j][l] += wa * a[l];
            u[j] += wa * t[i];
        }
    }
    memcpy(M, m, sizeof m);
    memcpy(v, u, sizeof u);
    *chisq = chi;
    return change;
}

/* The sums of quick_sweep_2 over every other point. */
typedef struct sums2 {
    double change, chi, m00, m10, m11, u0, u1;
} sums2;

static inline void sweep2_point(const double *a, double t, double *iref, int used, double c0,
                                double c1, sums2 *s)
{
    double f = a[0] * c0 + a[1] * c1;
    double r = f > 0.0 ? f : t, ir = *iref;
    double d = fabs(r * ir - 1.0);
    s->change = d > s->change ? d : s->change;
    double e = (t - f) * ir;
    ir = *iref = 1.0 / r;
    double w = used ? ir * ir : 0.0;
    s->chi += used ? e * e : 0.0;
    double wa0 = w * a[0], wa1 = w * a[1];
    s->m00 += wa0 * a[0];
    s->m10 += wa1 * a[0];
    s->m11 += wa1 * a[1];
    s->u0 += wa0 * t;
    s->u1 += wa1 * t;
}

/* quick_sweep for two terms, which every algorithm of the table has but the barrier's:
 * named sums the compiler can keep in registers, and two points at a time into two sets
 * of them, which keeps twice the work in flight (the division most): a third less time
 * than the loops over k. */
static double quick_sweep_2(const double *x, const double *t, double *iref,
                            const unsigned char *used, size_t n, const double *c,
                            double M[REL_KMAX][REL_KMAX], double *v, double *chisq)
{
    sums2 s = {0, 0, 0, 0, 0, 0, 0}, z = {0, 0, 0, 0, 0, 0, 0};
    double c0 = c[0], c1 = c[1];
    size_t i = 0;
    for (; i + 1 < n; i += 2) {
        sweep2_point(&x[2 * i], t[i], &iref[i], used[i], c0, c1, &s);
        sweep2_point(&x[2 * i + 2], t[i + 1], &iref[i + 1], used[i + 1], c0, c1, &z);
    }
    if (i < n)
        sweep2_point(&x[2 * i], t[i], &iref[i], used[i], c0, c1, &s);
    M[0][0] = s.m00 + z.m00;
    M[1][0] = s.m10 + z.m10;
    M[1][1] = s.m11 + z.m11;
    v[0] = s.u0 + z.u0;
    v[1] = s.u1 + z.u1;
    *chisq = s.chi + z.chi;
    return s.change > z.change ? s.change : z.change;
}

/* rel_lsq_ws's fit of the run x, t (n points, k terms), step for step, with the normal
 * equations solved directly: 0 with its residual sum of squares, the points kept, the
 * coefficients, their covariance and the residual variance; -1 where rel_lsq_ws fails
 * too; -2 when the equations are too near singular to tell. */
static int quick_rel_lsq(runs *R, const double *x, const double *t, const double *it, size_t n,
                         int k, const moments *first, double *rss, int *nkept, double *coef,
                         double cov[REL_KMAX][REL_KMAX], double *s2)
{
    if (n <= (size_t)k || k < 1 || k > REL_KMAX)
        return -1;
    for (int j = 0; j < k; j++) {
        size_t i = 0;
        while (i < n && x[i * (size_t)k + (size_t)j] == 0.0)
            i++;
        if (i == n)
            return -1; /* a term that is 0 at every point */
    }
    double *iref = R->iref, *sel = R->sel;
    unsigned char *used = R->used;
    for (size_t i = 0; i < n && !R->times_ok; i++)
        if (!(t[i] > 0.0) || !isfinite(t[i]))
            return -1;
    memcpy(iref, it, n * sizeof *iref);
    memset(used, 1, n);
    double M[REL_KMAX][REL_KMAX], v[REL_KMAX], c[REL_KMAX], Minv[REL_KMAX][REL_KMAX];
    double chisq = 0.0;
    const cf_robust_type *T = cf_robust_median5;
    size_t nused = n, max_out = n / T->cap_div;
    memcpy(M, first->M, sizeof M);
    memcpy(v, first->v, sizeof v);
    for (int round = 0; round < T->max_rounds; round++) {
        for (int pass = 0; pass < T->passes; pass++) {
            if (quick_solve(M, v, k, c, Minv) != 0)
                return -2;
            double change = k == 2 ? quick_sweep_2(x, t, iref, used, n, c, M, v, &chisq)
                                   : quick_sweep(x, t, iref, used, n, k, c, M, v, &chisq);
            if (change < 1e-10)
                break;
        }
        /* Outliers as the median5 policy sets them aside. The cut is at least its floor:
         * without a point beyond that, no median is needed. */
        size_t m = 0, over = 0;
        for (size_t i = 0; i < n; i++)
            if (used[i]) {
                double d = fabs(t[i] * iref[i] - 1.0);
                if (isnan(d))
                    return -2;
                sel[m++] = d;
                over += d > T->cut_floor;
            }
        if (over == 0)
            break;
        double cut = T->cut(sel, m, R->buf);
        size_t nbeyond = 0, out_now = 0;
        for (size_t i = 0; i < n; i++)
            if (used[i]) {
                double d = fabs(t[i] * iref[i] - 1.0);
                if (d > cut)
                    R->dev[nbeyond++] = (ranked){d, i};
            }
        qsort(R->dev, nbeyond, sizeof *R->dev, cmp_ranked_worst);
        for (size_t r = 0; r < nbeyond && n - nused < max_out && nused > (size_t)k + 2; r++) {
            used[R->dev[r].i] = 0;
            nused--;
            out_now++;
        }
        if (out_now == 0)
            break;
        quick_moments(x, t, iref, used, n, k, M, v); /* the next pass weighs without them */
    }
    size_t dof = nused - (size_t)k;
    *s2 = chisq / (double)dof;
    for (int j = 0; j < k; j++) {
        coef[j] = c[j];
        for (int l = 0; l < k; l++)
            cov[j][l] = Minv[j][l] * *s2;
    }
    *rss = *s2 * (double)dof;
    *nkept = (int)nused;
    return 0;
}

/* seg_check of a quick fit of algorithm a to the run [lo, hi), checked up to from and to
 * at every measured np: 1 when it passes. */
static int quick_check(const search *S, int a, size_t lo, size_t hi, const double *coef,
                       double cov[REL_KMAX][REL_KMAX], double s2, double from, double to)
{
    int k = S->F.k[a];
    if (!isfinite(s2) || s2 < 0)
        return 0;
    for (int j = 0; j < k; j++) {
        if (!isfinite(coef[j]))
            return 0;
        for (int l = 0; l < k; l++)
            if (!isfinite(cov[j][l]) || (j == l && cov[j][l] < 0))
                return 0;
    }
    /* At a fixed p, T is a line in m: where every measured p is in np, T >= 0 at both
     * ends of the range at each holds at every point between. */
    const double *x = S->R.x[a];
    for (size_t i = lo; i < hi && !S->every_np; i++) {
        double t = 0.0;
        for (int j = 0; j < k; j++)
            t += coef[j] * x[i * (size_t)k + (size_t)j];
        if (!isfinite(t) || t < 0)
            return 0;
    }
    for (int i = 0; i < S->nnp; i++)
        for (int e = 0; e < 2; e++) {
            double t = 0.0;
            for (int j = 0; j < k; j++)
                t += coef[j] * sum_eval(&S->F.basis[a][j], S->np[i], e ? to : from);
            if (!isfinite(t) || t < 0)
                return 0;
        }
    return 1;
}

static int has_size_term(const fitter *F, int a)
{
    int has_m = 0;
    for (int j = 0; j < F->k[a]; j++)
        for (int l = 0; l < F->basis[a][j].n; l++) {
            double c0, c1;
            cf_cterm_split(F->basis[a][j].t[l], 2, &c0, &c1);
            has_m |= c1 != 0.0;
        }
    return has_m;
}

static void quick_side_fit(search *S, size_t b, int a, int right)
{
    quick_side *q = &S->quick[side_at(S, b, a, right)];
    size_t lo = right ? S->R.first[b] : 0, hi = right ? S->F.n : S->R.first[b];
    int k = S->F.k[a];
    q->state = 1;
    if (has_size_term(&S->F, a) && (right ? S->ns - b : b) < 3)
        return; /* as seg_fit refuses it */
    double coef[REL_KMAX], cov[REL_KMAX][REL_KMAX], s2;
    int rc =
        quick_rel_lsq(&S->R, S->R.x[a] + lo * (size_t)k, S->R.t + lo, S->R.it + lo, hi - lo, k,
                      right ? &S->R.suf[a][b] : &S->R.pre[a][b], &q->rss, &q->n, coef, cov, &s2);
    if (rc == -2) {
        /* Too near singular to tell quickly: fit it properly. */
        const side_fit *sf = side_get(S, b, a, right);
        q->state = sf->state;
        q->check_ok = sf->check_ok;
        q->rss = sf->rss;
        q->n = sf->seg.q.n;
        return;
    }
    if (rc != 0)
        return;
    q->state = 2;
    double mid = gap_middle(S, b);
    q->check_ok = (signed char)quick_check(S, a, lo, hi, coef, cov, s2, right ? mid : S->sizes[0],
                                           right ? S->sizes[S->ns - 1] : mid);
}

/* What the search does with a candidate. */
enum { TODO_SKIP, TODO_FIT, TODO_FAILS };

/* Marks in todo the candidates to fit properly (TODO_FIT): those the quick fits put within
 * QUICK_MARGIN of the best (single[a]: the proper AICc of algorithm a over every size,
 * NAN when none); every candidate when a proper fit disagrees with its quick one. */
static int quick_search(search *S, const double *single, unsigned char *todo)
{
    int nalgs = S->F.c->nalgs;
    size_t ns = S->ns, nc = (ns - 1) * (size_t)nalgs * (size_t)nalgs;
    double *qv = malloc((nc ? nc : 1) * sizeof *qv);
    if (qv == NULL || runs_init(S) != 0) {
        free(qv);
        return -1;
    }
    /* Range after range of one algorithm, one side: they share most of their points,
     * which stay in the cache. */
    for (int a = 0; a < nalgs; a++)
        for (int right = 0; right < 2; right++)
            for (size_t b = 1; b < ns; b++)
                quick_side_fit(S, b, a, right);
    double best = INFINITY;
    for (int a = 0; a < nalgs; a++)
        if (!isnan(single[a]))
            best = fmin(best, single[a]);
    for (size_t idx = 0; idx < nc; idx++) {
        size_t b = idx / ((size_t)nalgs * (size_t)nalgs) + 1;
        int a1 = (int)(idx / (size_t)nalgs % (size_t)nalgs), a2 = (int)(idx % (size_t)nalgs);
        const quick_side *q1 = &S->quick[side_at(S, b, a1, 0)];
        const quick_side *q2 = &S->quick[side_at(S, b, a2, 1)];
        qv[idx] = NAN;
        if (q1->state != 2 || q2->state != 2)
            continue;
        qv[idx] = search_aicc(q1->rss + q2->rss, q1->n + q2->n, S->F.k[a1] + S->F.k[a2] + 1);
        if (q1->check_ok && q2->check_ok)
            best = fmin(best, qv[idx]);
    }
    /* A range the quick fit cannot fit, the proper fit cannot either (too few sizes or
     * points, a term that is 0 throughout, a time that is not positive: a nearly
     * singular range was fitted properly). A candidate failing its quick check is fitted
     * properly too when it would be chosen else: whether it fails may hang on rounding. */
    for (size_t idx = 0; idx < nc; idx++)
        todo[idx] = isnan(qv[idx])                  ? TODO_FAILS
                    : qv[idx] > best + QUICK_MARGIN ? TODO_SKIP
                                                    : TODO_FIT;
    int agree = 1;
    for (size_t idx = 0; idx < nc && agree; idx++) {
        if (todo[idx] != TODO_FIT)
            continue;
        size_t b = idx / ((size_t)nalgs * (size_t)nalgs) + 1;
        int a1 = (int)(idx / (size_t)nalgs % (size_t)nalgs), a2 = (int)(idx % (size_t)nalgs);
        const quick_side *q1 = &S->quick[side_at(S, b, a1, 0)];
        const quick_side *q2 = &S->quick[side_at(S, b, a2, 1)];
        double v;
        side_fit *failed;
        int st = cand_eval(S, b, a1, a2, &v, &failed);
        agree = st == (q1->check_ok && q2->check_ok ? 0 : -2) &&
                (st != 0 || fabs(v - qv[idx]) <= QUICK_MARGIN / 4);
    }
    if (!agree)
        for (size_t idx = 0; idx < nc; idx++)
            todo[idx] = todo[idx] == TODO_FAILS ? TODO_FAILS : TODO_FIT;
    free(qv);
    return 0;
}

int cf_across_fit_points_search(const cf_coll *c, const char *datatype, const cf_point *pts,
                                size_t n, cf_across_search how, cf_across *out, cf_error *e)
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
    int nalgs = c->nalgs, rc = 0;
    search S;
    memset(&S, 0, sizeof S);
    double *sizes = malloc(n * sizeof *sizes);
    if (sizes == NULL || fitter_init(&S.F, c, pts, n) != 0) {
        free(sizes);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        sizes[i] = pts[i].m;
    qsort(sizes, n, sizeof *sizes, cmp_double_asc);
    size_t ns = 0;
    for (size_t i = 0; i < n; i++)
        if (ns == 0 || sizes[i] != sizes[ns - 1])
            sizes[ns++] = sizes[i];
    S.sizes = sizes;
    S.ns = ns;
    S.np = out->np;
    S.nnp = out->nnp;
    S.every_np = d == out->nnp;
    size_t nc = (ns - 1) * (size_t)nalgs * (size_t)nalgs, nsides = (ns - 1) * (size_t)nalgs * 2;
    S.side = calloc(nsides ? nsides : 1, sizeof *S.side);
    S.quick = calloc(nsides ? nsides : 1, sizeof *S.quick);
    unsigned char *todo = malloc(nc ? nc : 1);
    if (S.side == NULL || S.quick == NULL || todo == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto out;
    }
    memset(todo, TODO_FIT, nc ? nc : 1);

    /* One algorithm over every size; then a switch between two consecutive measured sizes
     * with an algorithm (the same one too: a protocol switch) on each side. A candidate
     * must beat the simpler ones before it: ties go to fewer parameters. */
    double best = INFINITY, single[CF_COLL_MAX_ALGS];
    cf_error why;
    cf_error_clear(&why);
    int found = 0;
    for (int a = 0; a < nalgs; a++) {
        cf_across_seg sg;
        double rss;
        single[a] = NAN;
        if (seg_fit(&S.F, a, -INFINITY, INFINITY, &sg, &rss, &why) != 0 ||
            seg_check(&sg, pts, n, out->np, out->nnp, sg.from_bytes, sg.to_bytes, &why) != 0)
            continue;
        double v = search_aicc(rss, sg.q.n, sg.nbasis);
        single[a] = v;
        if (!found || v < best - 1e-9) {
            best = v;
            out->nseg = 1;
            out->seg[0] = sg;
            found = 1;
        }
    }
    if (how == CF_SEARCH_QUICK && ns > 1 && quick_search(&S, single, todo) != 0) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto out;
    }
    /* The candidates in order, as a full search meets them, but those the quick search
     * found out of reach. */
    side_fit *last_failed = NULL;
    int complete = 1;
    for (size_t b = 1; b < ns; b++)
        for (int a1 = 0; a1 < nalgs; a1++)
            for (int a2 = 0; a2 < nalgs; a2++) {
                int what =
                    todo[((b - 1) * (size_t)nalgs + (size_t)a1) * (size_t)nalgs + (size_t)a2];
                complete &= what != TODO_SKIP;
                if (what != TODO_FIT)
                    continue;
                double v;
                side_fit *failed = NULL;
                int st = cand_eval(&S, b, a1, a2, &v, &failed);
                if (st == -2)
                    last_failed = failed;
                if (st != 0)
                    continue;
                if (!found || v < best - 1e-9) {
                    best = v;
                    out->nseg = 2;
                    out->seg[0] = side_get(&S, b, a1, 0)->seg;
                    out->seg[1] = side_get(&S, b, a2, 1)->seg;
                    found = 1;
                }
            }
    if (!found && !complete) {
        /* Nothing fits: the message is the last check failed in a full search's order. */
        runs_free(&S.R);
        fitter_free(&S.F);
        free(S.side);
        free(S.quick);
        free(todo);
        free(sizes);
        return cf_across_fit_points_search(c, datatype, pts, n, CF_SEARCH_EXHAUSTIVE, out, e);
    }
    if (!found) {
        /* Data that does not determine the model is a note, like too few np. */
        if (last_failed != NULL) {
            size_t pos = (size_t)(last_failed - S.side), b = pos / 2 / (size_t)nalgs + 1;
            int right = (int)(pos % 2);
            const cf_across_seg *s = &last_failed->seg;
            double mid = gap_middle(&S, b);
            seg_check(s, pts, n, out->np, out->nnp, right ? mid : s->from_bytes,
                      right ? s->to_bytes : mid, &why);
        }
        snprintf(out->error, sizeof out->error, "%.150s", why.msg);
    } else {
        combine_quality(out);
    }
out:
    runs_free(&S.R);
    fitter_free(&S.F);
    free(S.side);
    free(S.quick);
    free(todo);
    free(sizes);
    return rc;
}

int cf_across_fit_points(const cf_coll *c, const char *datatype, const cf_point *pts, size_t n,
                         cf_across *out, cf_error *e)
{
    return cf_across_fit_points_search(c, datatype, pts, n, CF_SEARCH_QUICK, out, e);
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
    out->tq = cf_t975(out->q.dof);
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
