/* The joint across-np fit of one size range: each algorithm's cost as basis functions,
 * fitted in relative error by the robust engine (cf_robust_zero_weight, rule median5) over every
 * measured (p, m); and Hockney's alpha + beta*m, which the point-to-point estimate starts from. */
#include "config.h"

#include "fit/across-int.h"

#include "base/size.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cf_rel_quality_clear(cf_rel_quality *q)
{
    q->n = q->dof = q->rejected = 0;
    q->mape = q->max_rel_err = q->loo_mape = NAN;
}

/* The message for what the engine reports of a fit of n points and k terms. */
static int rel_fault(const cf_lsq *r, size_t n, size_t k, const double *t, cf_error *e)
{
    switch (r->status) {
    case CF_ROBUST_FEW:
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "not enough points (have %zu, need %zu)", n,
                            k + 1);
    case CF_ROBUST_ZERO_TERM:
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "term %zu is zero at every measured point",
                            r->at + 1);
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
static int rel_lsq_ws(cf_robust_workspace *W, size_t n, size_t k, const double *X, const double *t,
                      int robust, double *coef, double *cov, double *s2, cf_rel_quality *q,
                      cf_error *e)
{
    if (n <= k)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "not enough points (have %zu, need %zu)", n,
                            k + 1);
    if (k > CF_REL_KMAX)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "too many terms (%zu)", k);
    cf_lsq r;
    if (cf_robust_fit(W, X, t, NULL, n, CF_WEIGHTS_RELATIVE, robust, NULL, &r) != CF_ROBUST_OK)
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

int cf_rel_lsq(size_t n, size_t k, const double *X, const double *t, int robust, double *coef,
               double *cov, double *s2, cf_rel_quality *q, cf_error *e)
{
    if (n <= k)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "not enough points (have %zu, need %zu)", n,
                            k + 1);
    if (k > CF_REL_KMAX)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "too many terms (%zu)", k);
    cf_robust_workspace *W = cf_robust_alloc(cf_robust_zero_weight, n, k);
    if (W == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    int rc = rel_lsq_ws(W, n, k, X, t, robust, coef, cov, s2, q, e);
    cf_robust_free(W);
    return rc;
}

int cf_hockney_fit(const double *m, const double *t, size_t n, int robust, cf_hockney *out,
                   cf_error *e)
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
    int rc = cf_rel_lsq(n, 2, X, t, robust, coef, cov, &out->s2, &out->q, e);
    if (rc == 0 && coef[1] < 0.0 && coef[0] > 0.0 &&
        coef[1] + 1.959963984540054 * sqrt(fmax(0.0, cov[3])) >= 0.0) {
        /* beta negative, within 1.96 standard errors of 0: alpha alone */
        for (size_t i = 0; i < n; i++)
            X[i] = 1.0;
        double a1, v1, s2;
        cf_rel_quality q;
        if (cf_rel_lsq(n, 1, X, t, robust, &a1, &v1, &s2, &q, e) != 0) {
            free(X);
            return CF_EXIT_DATA;
        }
        out->beta_held = 1;
        out->beta_free = coef[1];
        coef[0] = a1;
        coef[1] = 0.0;
        cov[0] = v1;
        cov[1] = cov[2] = 0.0;
        out->s2 = s2;
        out->q = q;
    }
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

/* The distinct process counts of pts, increasing, at most CF_ACROSS_NP_MAX: beyond that
 * the three largest (which bound interpolation and make the backtest and the growth at the
 * top) and the others thinned evenly among those below. Returns how many distinct there
 * are. */
int cf_across_distinct_np(const cf_point *pts, size_t n, long *np, int *nnp)
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
    if (d > keep) {
        /* np[0 .. keep - 4] from all[0 .. d - 4], the first and last of both kept. */
        int lo = keep - 3, from = d - 3;
        for (int i = 0; i < lo; i++)
            np[i] = all[(int)((long)i * (from - 1) / (lo - 1))];
        for (int i = 0; i < 3; i++)
            np[lo + i] = all[from + i];
    }
    *nnp = keep;
    free(all);
    return d;
}

double cf_cterm_sum_eval(const cf_cterm_sum *s, long p, double m)
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

void cf_across_fitter_free(cf_across_fitter *F)
{
    for (int a = 0; a < CF_ACROSS_MAX_CAND; a++)
        free(F->x[a]);
    free(F->X);
    free(F->t);
    for (int k = 0; k <= CF_REL_KMAX; k++)
        cf_robust_free(F->ws[k]);
    memset(F, 0, sizeof *F); /* freeing it again is harmless */
}

/* Candidate a + 1 from a: its basis with (p-1) besides; 0 when a's latency has it already
 * or there is no room for a term. */
static int add_p_linear(cf_across_fitter *F, int a)
{
    int k = F->k[a];
    for (int i = 0; i < F->basis[a][0].n; i++)
        if (F->basis[a][0].t[i] == CF_CT_P1)
            return 0;
    if (k == 0 || k >= CF_COLL_MAX_BASIS || F->ncand >= CF_ACROSS_MAX_CAND)
        return 0;
    int b = F->ncand++;
    memcpy(F->basis[b], F->basis[a], sizeof F->basis[b]);
    F->basis[b][k] = (cf_cterm_sum){1, {CF_CT_P1, CF_CT_ONE}};
    F->k[b] = k + 1;
    /* A copy (the two names are rows of one array, which snprintf may not overlap): the
     * first 28 characters of a's name, the suffix's 19 after; the precision bounds what
     * -Wformat-truncation reads at every optimisation level (-O0's too). */
    char base[29];
    snprintf(base, sizeof base, "%.28s", F->name[a]);
    snprintf(F->name[b], sizeof F->name[b], "%s + p-linear latency", base);
    return 1;
}

/* Candidates beside the catalog's cost of a linear rooted v-pattern (MPICH's and Open MPI's
 * gatherv and scatterv), which is the root's path: p - 1 messages one after the other. A
 * table times each rank's call and takes the mean over the ranks (IMB's t_avg, OSU's
 * average, measure's), and in a linear gatherv only the root waits for every message: a rank
 * whose send is buffered leaves at once, so the mean falls as 1/p (SMPI's MPICH gatherv of 8
 * B inside a node of wide.xml: 0.212 us at np 2, 0.111 at 4, 0.068 at 7, the root's 0.42
 * over p); in a linear scatterv the p - 1 receivers each wait for their own message, the root
 * for none (0.212, 0.313, 0.356: 0.42 times (p - 1) / p). "in the ranks' mean": 1/p +
 * (p-1)/p + (p-1)/p*m, one rank's latency, the others' latency and their blocks. Where the
 * messages wait for their receivers (a rendezvous) every rank waits for the root's link, the
 * blocks taken in turn: "with every rank waiting", 1 + (p-1)*m (flat.xml, 90000 B: 19.3 us at np
 * 2, 65.2 at 8, 126.5 at 16). Chosen by AICc like any, a size range each. None where the
 * pattern is no rooted v-pattern with a linear cost, or where there is no room. */
static void add_ranks_mean(cf_across_fitter *F, const cf_coll *c)
{
    static const struct {
        const char *suffix;
        int k;
        cf_cterm t[CF_COLL_MAX_BASIS];
    } cands[] = {{" in the ranks' mean", 3, {CF_CT_INV, CF_CT_FR, CF_CT_FR_M}},
                 {" with every rank waiting", 2, {CF_CT_ONE, CF_CT_P1_M}}};
    if (!c->rooted || !c->vcounts || c->nalgs != 1 || F->basis[0][0].n != 1 ||
        F->basis[0][0].t[0] != CF_CT_P1)
        return;
    for (size_t i = 0; i < sizeof cands / sizeof cands[0] && F->ncand < CF_ACROSS_MAX_CAND; i++) {
        int b = F->ncand++;
        for (int j = 0; j < cands[i].k; j++)
            F->basis[b][j] = (cf_cterm_sum){1, {cands[i].t[j], CF_CT_ONE}};
        F->k[b] = cands[i].k;
        snprintf(F->name[b], sizeof F->name[b], "%s%s", c->algs[0].name, cands[i].suffix);
    }
}

int cf_across_fitter_init(cf_across_fitter *F, const cf_coll *c, const cf_point *pts, size_t n,
                          unsigned cands)
{
    memset(F, 0, sizeof *F);
    F->c = c;
    F->pts = pts;
    F->n = n;
    F->keep_all = (cands & CF_ACROSS_KEEP_ALL) != 0;
    size_t rows = n ? n : 1;
    F->X = malloc(rows * CF_REL_KMAX * sizeof *F->X);
    F->t = malloc(rows * sizeof *F->t);
    if (F->X == NULL || F->t == NULL)
        goto oom;
    for (int a = 0; a < c->nalgs; a++) {
        F->k[a] = alg_basis(&c->algs[a], F->basis[a]);
        snprintf(F->name[a], sizeof F->name[a], "%s", c->algs[a].name);
    }
    F->ncand = c->nalgs;
    add_ranks_mean(F, c);
    F->nplain = F->ncand;
    for (int a = 0; a < c->nalgs && (cands & CF_ACROSS_P_LINEAR); a++)
        add_p_linear(F, a);
    for (int a = 0; a < F->ncand; a++) {
        int k = F->k[a];
        if ((F->x[a] = malloc(rows * (size_t)(k ? k : 1) * sizeof *F->x[a])) == NULL)
            goto oom;
        for (size_t i = 0; i < n; i++)
            for (int j = 0; j < k; j++)
                F->x[a][i * (size_t)k + (size_t)j] =
                    cf_cterm_sum_eval(&F->basis[a][j], pts[i].p, pts[i].m);
    }
    return 0;
oom:
    cf_across_fitter_free(F);
    return -1;
}

/* Fits algorithm `alg` of c to the points with lo <= m <= hi. *rss is the relative
 * residual sum of squares; -1 when these points cannot determine the model. */
int cf_across_seg_fit(cf_across_fitter *F, int alg, double lo, double hi, cf_across_seg *out,
                      double *rss, cf_error *why)
{
    const cf_point *pts = F->pts;
    size_t n = F->n;
    memset(out, 0, sizeof *out);
    snprintf(out->algorithm, sizeof out->algorithm, "%s", F->name[alg]);
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
        return cf_error_set(why, CF_EXIT_DATA, NULL, 0, "not enough points (have %zu, need %zu)", m,
                            (size_t)k + 1);
    cf_robust_workspace **W = k <= CF_REL_KMAX ? &F->ws[k] : NULL;
    if (W != NULL && *W == NULL &&
        (*W = cf_robust_alloc(cf_robust_zero_weight, n, (size_t)k)) == NULL)
        return cf_error_set(why, CF_EXIT_DATA, NULL, 0, "out of memory");
    double cov[CF_COLL_MAX_BASIS * CF_COLL_MAX_BASIS];
    int rc = W == NULL ? cf_error_set(why, CF_EXIT_DATA, NULL, 0, "too many terms (%d)", k)
                       : rel_lsq_ws(*W, m, (size_t)k, X, t, !F->keep_all, out->coef, cov, &out->s2,
                                    &out->q, why);
    if (rc != 0)
        return rc;
    for (int j = 0; j < k; j++)
        for (int l = 0; l < k; l++)
            out->cov[j][l] = cov[j * k + l];
    out->tq = cf_t975(out->q.dof);
    *rss = out->s2 * out->q.dof;
    return 0;
}

/* Whether segment s tells the truth where it would answer: coefficients and covariance
 * finite, variances >= 0, T finite and >= 0 at each of its points and, at every measured
 * np, at both ends of [lo, hi] (T is linear in m at a fixed p). */
int cf_across_p_linear_term(const cf_cterm_sum *basis, int k)
{
    for (int j = 1; j < k; j++)
        if (basis[j].n == 1 && basis[j].t[0] == CF_CT_P1)
            return j;
    return -1;
}

int cf_across_seg_check(const cf_across_seg *s, const cf_point *pts, size_t n, const long *np,
                        int nnp, double lo, double hi, cf_error *why)
{
    if (!isfinite(s->s2) || s->s2 < 0)
        return cf_error_set(why, CF_EXIT_DATA, NULL, 0, "%s: a residual variance of %g",
                            s->algorithm, s->s2);
    int pl = cf_across_p_linear_term(s->basis, s->nbasis);
    if (pl >= 0 && !(s->coef[pl] >= 0))
        return cf_error_set(why, CF_EXIT_DATA, NULL, 0,
                            "%s: a latency falling with p (%.4g us per process)", s->algorithm,
                            s->coef[pl]);
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
        cf_across_seg_predict(s, pts[i].p, pts[i].m, &t, &half);
        if (!isfinite(t) || t < 0) {
            char size[32];
            cf_size_format((uint64_t)llround(pts[i].m), size, sizeof size);
            return cf_error_set(why, CF_EXIT_DATA, NULL, 0,
                                "%s gives a negative time at np %ld, %s (%.4g us)",
                                s->algorithm, pts[i].p, size, t);
        }
    }
    /* A candidate in the ranks' mean (1/p, (p-1)/p) or with a latency constant in p (1)
     * tends to its other terms as p grows: positive at the measured np, it may turn negative
     * past them (SMPI's MPICH gatherv of 8 B inside a node of wide.xml fitted at np 2-7:
     * 0.4602 us * 1/p - 0.01447 us * (p-1)/p + 4.2e-05 us/B * (p-1)/p*m read -0.0085 us at
     * np 64, and predict refused the answer). It must hold at np CF_ACROSS_FAR_NP too. */
    int saturates = 0;
    for (int j = 0; j < s->nbasis; j++)
        for (int l = 0; l < s->basis[j].n; l++)
            saturates |= s->basis[j].t[l] == CF_CT_INV || s->basis[j].t[l] == CF_CT_FR ||
                         s->basis[j].t[l] == CF_CT_ONE;
    for (int i = 0; i < nnp + saturates; i++)
        for (int k = 0; k < 2; k++) {
            double m = k ? hi : lo;
            long at = i < nnp ? np[i] : CF_ACROSS_FAR_NP;
            cf_across_seg_predict(s, at, m, &t, &half);
            if (!isfinite(t) || t < 0) {
                char size[32];
                cf_size_format((uint64_t)llround(m), size, sizeof size);
                return cf_error_set(why, CF_EXIT_DATA, NULL, 0,
                                    "%s gives a negative time at np %ld, %s (%.4g us)",
                                    s->algorithm, at, size, t);
            }
        }
    return 0;
}

/* The AICc of a search candidate (its k parameters: the terms, and a switch point; the
 * residual variance is not counted). Where there are too few points it cannot win; a quick
 * fit whose rss is NaN scores as exact, so that a proper fit decides about it. */
double cf_across_aicc(double rss, int n, int k)
{
    double v = cf_aicc(isnan(rss) ? 0.0 : rss, (size_t)n, k);
    return isnan(v) ? INFINITY : v;
}

void cf_across_combine_quality(cf_across *a)
{
    cf_rel_quality *q = &a->q;
    q->n = q->dof = q->rejected = 0;
    q->mape = q->max_rel_err = q->loo_mape = 0.0;
    for (int i = 0; i < a->nseg; i++) {
        const cf_rel_quality *s = &a->seg[i].q;
        q->n += s->n;
        q->dof += s->dof;
        q->rejected += s->rejected;
        q->mape += s->mape * s->n;
        q->loo_mape += s->loo_mape * s->n;
        q->max_rel_err = fmax(q->max_rel_err, s->max_rel_err);
    }
    q->mape /= q->n;
    q->loo_mape /= q->n;
    q->dof -= a->nseg - 1; /* each switch point is a parameter too */
}
