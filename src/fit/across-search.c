/* The search for the switch between two size ranges of an across-np model, and the fit
 * of a pattern's points (cf_across_fit_points) that runs it. */
#include "config.h"

#include "fit/across-int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"

/* A point's relative deviation from the fit, and the point. */
typedef struct ranked {
    double d;
    size_t i;
} ranked;

/* By deviation, the largest first; among equal ones the earliest point first: the order
 * in which the engine's median5 rule sets them aside. */
static int cmp_ranked_worst(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->d != y->d)
        return (x->d < y->d) - (x->d > y->d);
    return (x->i > y->i) - (x->i < y->i);
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
    double M[CF_REL_KMAX][CF_REL_KMAX], v[CF_REL_KMAX];
} moments;

/* The points sorted by size: sizes [0, b) are the points [0, first[b]). pre[a][b] and
 * suf[a][b] are the normal equations of the first pass (weights 1/t^2) over sizes [0, b)
 * and [b, ns): every range starts from them instead of a pass over its points. */
typedef struct runs {
    moments *pre[CF_ACROSS_MAX_CAND], *suf[CF_ACROSS_MAX_CAND];
    size_t *first;
    double *t, *it;                /* times, and 1 / times */
    int times_ok;                  /* every time positive and finite */
    double *x[CF_ACROSS_MAX_CAND]; /* n rows of the algorithm's k values */
    double *iref, *sel, *buf;      /* a fit's 1 / reference time, deviations, scratch */
    ranked *dev;
    unsigned char *used;
} runs;

/* A search over the first nuse candidates of F. A search over more of them (the
 * p-linear ones after the pattern's algorithms) goes on with the same S: every range
 * fitted already, quickly or properly, is the same fit again. */
typedef struct search {
    cf_across_fitter F;
    int nuse;
    double *sizes;
    size_t ns;
    const long *np;
    int nnp;
    int every_np;      /* np holds every measured process count */
    side_fit *side;    /* at side_at(), for a switch after size b - 1 */
    quick_side *quick; /* the same places */
    /* Whether candidate a's ranges are in quick already. */
    unsigned char quick_done[CF_ACROSS_MAX_CAND];
    unsigned char *plan; /* for each candidate, at cand_index() */
    runs R;
} search;

static size_t side_at(const search *S, size_t b, int a, int right)
{
    return ((b - 1) * (size_t)S->F.ncand + (size_t)a) * 2 + (size_t)right;
}

/* Candidate (b, a1, a2) among those of a search over nuse candidates, in the order a full
 * search meets them. */
static size_t cand_index(const search *S, size_t b, int a1, int a2)
{
    return ((b - 1) * (size_t)S->nuse + (size_t)a1) * (size_t)S->nuse + (size_t)a2;
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
    if (cf_across_seg_fit(&S->F, a, lo, hi, &sf->seg, &sf->rss, NULL) != 0) {
        sf->state = 1;
        return sf;
    }
    sf->state = 2;
    const cf_across_seg *s = &sf->seg;
    double mid = gap_middle(S, b);
    sf->check_ok =
        cf_across_seg_check(s, S->F.pts, S->F.n, S->np, S->nnp, right ? mid : s->from_bytes,
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
    *v = cf_across_aicc(s1->rss + s2->rss, s1->seg.q.n + s2->seg.q.n,
                        s1->seg.nbasis + s2->seg.nbasis + 1);
    return 0;
}

static void runs_free(runs *R)
{
    for (int a = 0; a < CF_ACROSS_MAX_CAND; a++) {
        free(R->pre[a]);
        free(R->suf[a]);
    }
    free(R->first);
    free(R->t);
    free(R->it);
    for (int a = 0; a < CF_ACROSS_MAX_CAND; a++)
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
    const cf_across_fitter *F = &S->F;
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
    for (int a = 0; a < F->ncand && ok; a++)
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
        for (int a = 0; a < F->ncand; a++) {
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
    for (int a = 0; a < F->ncand; a++) {
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
static int quick_solve(double M[CF_REL_KMAX][CF_REL_KMAX], const double *v, int k, double *c,
                       double Minv[CF_REL_KMAX][CF_REL_KMAX])
{
    double L[CF_REL_KMAX][CF_REL_KMAX], d[CF_REL_KMAX];
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
        double y[CF_REL_KMAX], u[CF_REL_KMAX];
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
                          double M[CF_REL_KMAX][CF_REL_KMAX], double *v)
{
    double m[CF_REL_KMAX][CF_REL_KMAX] = {{0}}, u[CF_REL_KMAX] = {0};
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
static double quick_sweep(const double *x, const double *t, double *iref, const unsigned char *used,
                          size_t n, int k, const double *c, double M[CF_REL_KMAX][CF_REL_KMAX],
                          double *v, double *chisq)
{
    double change = 0.0, chi = 0.0, m[CF_REL_KMAX][CF_REL_KMAX] = {{0}}, u[CF_REL_KMAX] = {0};
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

/* The sums of quick_sweep_3. */
typedef struct sums3 {
    double change, chi, m00, m10, m11, m20, m21, m22, u0, u1, u2;
} sums3;

/* quick_sweep for three terms, those of the p-linear candidates: the same operations in
 * the same order, so the same numbers, into named sums the compiler keeps in registers
 * (a fifth less time than the loops over k). */
static double quick_sweep_3(const double *x, const double *t, double *iref,
                            const unsigned char *used, size_t n, const double *c,
                            double M[CF_REL_KMAX][CF_REL_KMAX], double *v, double *chisq)
{
    sums3 s = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        const double *a = &x[3 * i];
        double f = 0.0 + a[0] * c[0] + a[1] * c[1] + a[2] * c[2];
        double r = f > 0.0 ? f : t[i], ir = iref[i];
        double d = fabs(r * ir - 1.0);
        s.change = d > s.change ? d : s.change;
        double e = (t[i] - f) * ir;
        ir = iref[i] = 1.0 / r;
        if (!used[i])
            continue;
        s.chi += e * e;
        double wa0 = ir * ir * a[0], wa1 = ir * ir * a[1], wa2 = ir * ir * a[2];
        s.m00 += wa0 * a[0];
        s.u0 += wa0 * t[i];
        s.m10 += wa1 * a[0];
        s.m11 += wa1 * a[1];
        s.u1 += wa1 * t[i];
        s.m20 += wa2 * a[0];
        s.m21 += wa2 * a[1];
        s.m22 += wa2 * a[2];
        s.u2 += wa2 * t[i];
    }
    M[0][0] = s.m00;
    M[1][0] = s.m10;
    M[1][1] = s.m11;
    M[2][0] = s.m20;
    M[2][1] = s.m21;
    M[2][2] = s.m22;
    v[0] = s.u0;
    v[1] = s.u1;
    v[2] = s.u2;
    *chisq = s.chi;
    return s.change;
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
                            double M[CF_REL_KMAX][CF_REL_KMAX], double *v, double *chisq)
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

/* The engine's median5 fit (cf_across_seg_fit) of the run x, t (n points, k terms), step
 * for step, with the normal equations solved directly: 0 with its residual sum of squares,
 * the points kept, the coefficients, their covariance and the residual variance; -1 where
 * that fails too; -2 when the equations are too near singular to tell. */
static int quick_rel_lsq(runs *R, const double *x, const double *t, const double *it, size_t n,
                         int k, const moments *first, int keep_all, double *rss, int *nkept,
                         double *coef, double cov[CF_REL_KMAX][CF_REL_KMAX], double *s2)
{
    if (n <= (size_t)k || k < 1 || k > CF_REL_KMAX)
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
    double M[CF_REL_KMAX][CF_REL_KMAX], v[CF_REL_KMAX], c[CF_REL_KMAX],
        Minv[CF_REL_KMAX][CF_REL_KMAX];
    double chisq = 0.0;
    const cf_robust_type *T = cf_robust_zero_weight;
    const cf_robust_rule *rule = T->rule;
    size_t nused = n, max_out = keep_all ? 0 : n / rule->cap_div;
    memcpy(M, first->M, sizeof M);
    memcpy(v, first->v, sizeof v);
    for (int round = 0; round < rule->max_rounds; round++) {
        for (int pass = 0; pass < T->passes; pass++) {
            if (quick_solve(M, v, k, c, Minv) != 0)
                return -2;
            double change = k == 2   ? quick_sweep_2(x, t, iref, used, n, c, M, v, &chisq)
                            : k == 3 ? quick_sweep_3(x, t, iref, used, n, c, M, v, &chisq)
                                     : quick_sweep(x, t, iref, used, n, k, c, M, v, &chisq);
            if (change < 1e-10)
                break;
        }
        /* Outliers as the median5 rule sets them aside. The cut is at least its floor:
         * without a point beyond that, no median is needed; nor when a count tells that
         * none is beyond the cut. */
        size_t m = 0, over = 0;
        double worst = 0.0;
        for (size_t i = 0; i < n; i++)
            if (used[i]) {
                double d = fabs(t[i] * iref[i] - 1.0);
                if (isnan(d))
                    return -2;
                sel[m++] = d;
                over += d > rule->cut_floor;
                worst = d > worst ? d : worst;
            }
        if (over == 0 || rule->none_beyond(sel, m, worst))
            break;
        double cut = rule->cut(sel, m, R->buf);
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

/* cf_across_seg_check of a quick fit of algorithm a to the run [lo, hi), checked up to from and to
 * at every measured np: 1 when it passes. */
static int quick_check(const search *S, int a, size_t lo, size_t hi, const double *coef,
                       double cov[CF_REL_KMAX][CF_REL_KMAX], double s2, double from, double to)
{
    int k = S->F.k[a], pl = cf_across_p_linear_term(S->F.basis[a], k);
    if (!isfinite(s2) || s2 < 0 || (pl >= 0 && !(coef[pl] >= 0)))
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
                t += coef[j] * cf_cterm_sum_eval(&S->F.basis[a][j], S->np[i], e ? to : from);
            if (!isfinite(t) || t < 0)
                return 0;
        }
    return 1;
}

static int has_size_term(const cf_across_fitter *F, int a)
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
        return; /* as cf_across_seg_fit refuses it */
    double coef[CF_REL_KMAX], cov[CF_REL_KMAX][CF_REL_KMAX], s2;
    int rc =
        quick_rel_lsq(&S->R, S->R.x[a] + lo * (size_t)k, S->R.t + lo, S->R.it + lo, hi - lo, k,
                      right ? &S->R.suf[a][b] : &S->R.pre[a][b], S->F.keep_all, &q->rss, &q->n,
                      coef, cov, &s2);
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
enum { CAND_SKIP, CAND_FIT, CAND_FAILS };

/* Marks in plan the candidates to fit properly (CAND_FIT): those the quick fits put within
 * QUICK_MARGIN of the best (single[a]: the proper AICc of algorithm a over every size,
 * NAN when none); every candidate when a proper fit disagrees with its quick one. */
static int quick_search(search *S, const double *single, unsigned char *plan)
{
    int nalgs = S->nuse;
    size_t ns = S->ns, nc = (ns - 1) * (size_t)nalgs * (size_t)nalgs;
    double *qv = malloc((nc ? nc : 1) * sizeof *qv);
    if (qv == NULL || (S->R.first == NULL && runs_init(S) != 0)) {
        free(qv);
        return -1;
    }
    /* Range after range of one algorithm, one side: they share most of their points,
     * which stay in the cache. */
    for (int a = 0; a < nalgs; a++) {
        if (S->quick_done[a])
            continue;
        for (int right = 0; right < 2; right++)
            for (size_t b = 1; b < ns; b++)
                quick_side_fit(S, b, a, right);
        S->quick_done[a] = 1;
    }
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
        qv[idx] = cf_across_aicc(q1->rss + q2->rss, q1->n + q2->n, S->F.k[a1] + S->F.k[a2] + 1);
        if (q1->check_ok && q2->check_ok)
            best = fmin(best, qv[idx]);
    }
    /* A range the quick fit cannot fit, the proper fit cannot either (too few sizes or
     * points, a term that is 0 throughout, a time that is not positive: a nearly
     * singular range was fitted properly). A candidate failing its quick check is fitted
     * properly too when it would be chosen else: whether it fails may hang on rounding. */
    for (size_t idx = 0; idx < nc; idx++)
        plan[idx] = isnan(qv[idx])                  ? CAND_FAILS
                    : qv[idx] > best + QUICK_MARGIN ? CAND_SKIP
                                                    : CAND_FIT;
    int agree = 1;
    for (size_t idx = 0; idx < nc && agree; idx++) {
        if (plan[idx] != CAND_FIT)
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
            plan[idx] = plan[idx] == CAND_FAILS ? CAND_FAILS : CAND_FIT;
    free(qv);
    return 0;
}

static void search_free(search *S)
{
    runs_free(&S->R);
    cf_across_fitter_free(&S->F);
    free(S->side);
    free(S->quick);
    free(S->plan);
    free(S->sizes);
}

/* S over the points' distinct sizes and process counts (those of out, d of them
 * measured); -1 when out of memory. */
static int search_init(search *S, const cf_coll *c, const cf_point *pts, size_t n, unsigned cands,
                       const cf_across *out, int d)
{
    memset(S, 0, sizeof *S);
    if ((S->sizes = malloc(n * sizeof *S->sizes)) == NULL)
        return -1;
    if (cf_across_fitter_init(&S->F, c, pts, n, cands) != 0)
        return -1;
    int nalgs = S->F.ncand;
    double *sz = S->sizes;
    for (size_t i = 0; i < n; i++)
        sz[i] = pts[i].m;
    cf_sort_doubles(sz, n);
    size_t ns = 0;
    for (size_t i = 0; i < n; i++)
        if (ns == 0 || sz[i] != sz[ns - 1])
            sz[ns++] = sz[i];
    S->ns = ns;
    S->np = out->np;
    S->nnp = out->nnp;
    S->every_np = d == out->nnp;
    size_t nc = (ns - 1) * (size_t)nalgs * (size_t)nalgs, nsides = (ns - 1) * (size_t)nalgs * 2;
    S->side = calloc(nsides ? nsides : 1, sizeof *S->side);
    S->quick = calloc(nsides ? nsides : 1, sizeof *S->quick);
    S->plan = malloc(nc ? nc : 1);
    if (S->side == NULL || S->quick == NULL || S->plan == NULL)
        return -1;
    return 0;
}

/* One algorithm over every size: single[a] its AICc (NAN when it cannot be fitted or fails
 * its check); the best so far into out. */
static void fit_single(search *S, cf_across *out, double *single, double *best, int *found,
                       cf_error *why)
{
    for (int a = 0; a < S->nuse; a++) {
        cf_across_seg sg;
        double rss;
        single[a] = NAN;
        if (cf_across_seg_fit(&S->F, a, -INFINITY, INFINITY, &sg, &rss, why) != 0 ||
            cf_across_seg_check(&sg, S->F.pts, S->F.n, S->np, S->nnp, sg.from_bytes, sg.to_bytes,
                                why) != 0)
            continue;
        double v = cf_across_aicc(rss, sg.q.n, sg.nbasis);
        single[a] = v;
        if (!*found || v < *best - 1e-9) {
            *best = v;
            out->nseg = 1;
            out->seg[0] = sg;
            *found = 1;
        }
    }
}

/* The two-range candidates in order, as a full search meets them, but those the plan
 * skips; the best so far into out, and the last range that failed its check. 1 when no
 * candidate was skipped. */
static int fit_two(search *S, cf_across *out, double *best, int *found, side_fit **last_failed)
{
    int complete = 1;
    for (size_t b = 1; b < S->ns; b++)
        for (int a1 = 0; a1 < S->nuse; a1++)
            for (int a2 = 0; a2 < S->nuse; a2++) {
                int what = S->plan[cand_index(S, b, a1, a2)];
                complete &= what != CAND_SKIP;
                if (what != CAND_FIT)
                    continue;
                double v;
                side_fit *failed = NULL;
                int st = cand_eval(S, b, a1, a2, &v, &failed);
                if (st == -2)
                    *last_failed = failed;
                if (st != 0)
                    continue;
                if (!*found || v < *best - 1e-9) {
                    *best = v;
                    out->nseg = 2;
                    out->seg[0] = side_get(S, b, a1, 0)->seg;
                    out->seg[1] = side_get(S, b, a2, 1)->seg;
                    *found = 1;
                }
            }
    return complete;
}

/* out's pattern, datatype, sizes and process counts (*d of them measured); out->error
 * says when they are too few for a search. */
static int fit_start(const cf_coll *c, const char *datatype, const cf_point *pts, size_t n,
                     cf_across *out, int *d, cf_error *e)
{
    memset(out, 0, sizeof *out);
    snprintf(out->pattern, sizeof out->pattern, "%s", c->pattern);
    snprintf(out->datatype, sizeof out->datatype, "%s", datatype);
    cf_rel_quality_clear(&out->q);
    for (size_t i = 0; i < n; i++) {
        if (pts[i].p < 2)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "process count %ld: expected 2 or more",
                                pts[i].p);
        out->bytes_min = i == 0 ? pts[i].m : fmin(out->bytes_min, pts[i].m);
        out->bytes_max = i == 0 ? pts[i].m : fmax(out->bytes_max, pts[i].m);
    }
    *d = cf_across_distinct_np(pts, n, out->np, &out->nnp);
    if (*d < 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    if (*d < CF_ACROSS_MIN_NP)
        snprintf(out->error, sizeof out->error, "not enough process counts (have %d, need %d)", *d,
                 CF_ACROSS_MIN_NP);
    return 0;
}

/* The search over the first nuse candidates of S into out, which fit_start filled. */
static int search_run(search *S, int nuse, cf_across_search how, cf_across *out, cf_error *e)
{
    S->nuse = nuse;
    memset(S->plan, CAND_FIT, S->ns > 1 ? cand_index(S, S->ns, 0, 0) : 1);
    /* One algorithm over every size; then a switch between two consecutive measured sizes
     * with an algorithm (the same one too: a protocol switch) on each side. A candidate
     * must beat the simpler ones before it: ties go to fewer parameters. */
    double best = INFINITY, single[CF_ACROSS_MAX_CAND];
    cf_error why;
    cf_error_clear(&why);
    int found = 0;
    fit_single(S, out, single, &best, &found, &why);
    if (how == CF_SEARCH_QUICK && S->ns > 1 && quick_search(S, single, S->plan) != 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    side_fit *last_failed = NULL;
    int complete = fit_two(S, out, &best, &found, &last_failed);
    if (!found && !complete) /* nothing fits: the message is the last check failed in a */
        return search_run(S, nuse, CF_SEARCH_EXHAUSTIVE, out, e); /* full search's order */
    if (found) {
        cf_across_combine_quality(out);
        cf_across_backtest(S->F.c, S->F.pts, S->F.n, S->F.keep_all ? CF_ACROSS_KEEP_ALL : 0,
                           out);
        return 0;
    }
    /* Data that does not determine the model is a note, like too few np. */
    if (last_failed != NULL) {
        size_t pos = (size_t)(last_failed - S->side), b = pos / 2 / (size_t)S->F.ncand + 1;
        int right = (int)(pos % 2);
        const cf_across_seg *s = &last_failed->seg;
        double mid = gap_middle(S, b);
        cf_across_seg_check(s, S->F.pts, S->F.n, out->np, out->nnp, right ? mid : s->from_bytes,
                            right ? s->to_bytes : mid, &why);
    }
    snprintf(out->error, sizeof out->error, "%.150s", why.msg);
    return 0;
}

int cf_across_fit_points_cands(const cf_coll *c, const char *datatype, const cf_point *pts,
                               size_t n, cf_across_search how, unsigned cands, cf_across *out,
                               cf_error *e)
{
    int d, rc = fit_start(c, datatype, pts, n, out, &d, e);
    if (rc != 0 || out->error[0] != '\0')
        return rc;
    search S;
    if (search_init(&S, c, pts, n, cands, out, d) != 0)
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    else
        rc = search_run(&S, S.F.ncand, how, out, e);
    search_free(&S);
    return rc;
}

int cf_across_fit_points_more(const cf_coll *c, const char *datatype, const cf_point *pts, size_t n,
                              unsigned cands, cf_across *plain, cf_across *more, int *have_more,
                              cf_error *e)
{
    *have_more = 0;
    int d, rc = fit_start(c, datatype, pts, n, plain, &d, e);
    if (rc != 0 || plain->error[0] != '\0')
        return rc;
    search S;
    if (search_init(&S, c, pts, n, cands, plain, d) != 0)
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    else
        rc = search_run(&S, S.F.nplain, CF_SEARCH_QUICK, plain, e);
    /* Without candidates beyond the pattern's, the second search would be the first. */
    if (rc == 0 && plain->error[0] == '\0' && S.F.ncand > S.F.nplain) {
        *have_more = 1;
        rc = fit_start(c, datatype, pts, n, more, &d, e);
        if (rc == 0)
            rc = search_run(&S, S.F.ncand, CF_SEARCH_QUICK, more, e);
    }
    search_free(&S);
    return rc;
}

int cf_across_fit_points_search(const cf_coll *c, const char *datatype, const cf_point *pts,
                                size_t n, cf_across_search how, cf_across *out, cf_error *e)
{
    return cf_across_fit_points_cands(c, datatype, pts, n, how, 0, out, e);
}

int cf_across_fit_points(const cf_coll *c, const char *datatype, const cf_point *pts, size_t n,
                         cf_across *out, cf_error *e)
{
    return cf_across_fit_points_search(c, datatype, pts, n, CF_SEARCH_QUICK, out, e);
}
