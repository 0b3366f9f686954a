/* The robust least-squares engine: GSL's weighted least squares iterated in relative
 * error, rounds of setting outliers aside by the one rejection rule, leave-one-out error; and the
 * Student t quantile and AICc that every fit uses. */
#include "config.h"

#include "fit/robust.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A point and how far it lies from the fit. */
typedef struct ranked {
    double d;
    size_t i;
} ranked;

struct cf_robust_workspace {
    const cf_robust_type *T;
    size_t nmax, p;
    gsl_matrix *A, *C;
    gsl_vector *w, *y, *c;
    gsl_multifit_linear_workspace *ws;
    double scale[CF_ROBUST_PMAX]; /* CF_ROBUST_ZERO_WEIGHT: of every row, for the whole fit */
    double chisq;                 /* of the last solve */
    double *wt;                   /* CF_ROBUST_DROP: the weights of the last solve */
    double *ref;                  /* what the deviations are taken from */
    double *dev, *buf;
    double *fitted, *loo;
    ranked *rank;
    size_t *take;
    unsigned char *rej;
};

double cf_aicc(double rss, size_t n, int k)
{
    if ((double)n - k - 1 < 1)
        return NAN;
    double floor_rss = (double)n * 1e-12;
    if (rss < floor_rss)
        rss = floor_rss;
    return (double)n * log(rss / (double)n) + 2.0 * k + 2.0 * k * (k + 1) / ((double)n - k - 1);
}

void cf_robust_free(cf_robust_workspace *w)
{
    if (w == NULL)
        return;
    gsl_matrix_free(w->A);
    gsl_matrix_free(w->C);
    gsl_vector_free(w->w);
    gsl_vector_free(w->y);
    gsl_vector_free(w->c);
    if (w->ws)
        gsl_multifit_linear_free(w->ws);
    free(w->wt);
    free(w->ref);
    free(w->dev);
    free(w->buf);
    free(w->fitted);
    free(w->loo);
    free(w->rank);
    free(w->take);
    free(w->rej);
    free(w);
}

cf_robust_workspace *cf_robust_alloc(const cf_robust_type *T, size_t nmax, size_t p)
{
    if (p == 0 || p > CF_ROBUST_PMAX || nmax == 0)
        return NULL;
    cf_robust_workspace *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    w->T = T;
    w->nmax = nmax;
    w->p = p;
    w->A = gsl_matrix_alloc(nmax, p);
    w->C = gsl_matrix_alloc(p, p);
    w->w = gsl_vector_alloc(nmax);
    w->y = gsl_vector_alloc(nmax);
    w->c = gsl_vector_alloc(p);
    w->ws = gsl_multifit_linear_alloc(nmax, p);
    w->wt = malloc(nmax * sizeof *w->wt);
    w->ref = malloc(nmax * sizeof *w->ref);
    w->dev = malloc(nmax * sizeof *w->dev);
    w->buf = malloc(nmax * sizeof *w->buf);
    w->fitted = calloc(nmax, sizeof *w->fitted);
    w->loo = calloc(nmax, sizeof *w->loo);
    w->rank = malloc(nmax * sizeof *w->rank);
    w->take = malloc(nmax * sizeof *w->take);
    w->rej = calloc(nmax, 1);
    if (w->A && w->C && w->w && w->y && w->c && w->ws && w->wt && w->ref && w->dev && w->buf &&
        w->fitted && w->loo && w->rank && w->take && w->rej)
        return w;
    cf_robust_free(w);
    return NULL;
}

static double dot(const double *x, const double *c, size_t p)
{
    double s = 0;
    for (size_t j = 0; j < p; j++)
        s += x[j] * c[j];
    return s;
}

static double quad(const double *x, double C[CF_ROBUST_PMAX][CF_ROBUST_PMAX], size_t p)
{
    double s = 0;
    for (size_t j = 0; j < p; j++)
        for (size_t l = 0; l < p; l++)
            s += x[j] * C[j][l] * x[l];
    return s;
}

/* ---- CF_ROBUST_DROP ---- */

/* One weighted solve of the kept points with fixed weights. Columns are scaled to unit
 * maximum first: m^2 reaches 1e13 and would otherwise dominate the conditioning. */
static cf_robust_status drop_solve(cf_robust_workspace *W, const double *X, const double *y,
                                   size_t n, cf_lsq *r)
{
    size_t p = W->p, nk = 0;
    const unsigned char *rej = W->rej;
    for (size_t i = 0; i < n; i++)
        nk += !rej[i];
    if (nk <= p)
        return CF_ROBUST_FEW;
    double scale[CF_ROBUST_PMAX];
    for (size_t j = 0; j < p; j++) {
        scale[j] = 0;
        for (size_t i = 0; i < n; i++)
            if (!rej[i] && fabs(X[i * p + j]) > scale[j])
                scale[j] = fabs(X[i * p + j]);
        if (scale[j] == 0)
            return r->at = j, CF_ROBUST_ZERO_TERM;
    }
    gsl_matrix_view A = gsl_matrix_submatrix(W->A, 0, 0, nk, p);
    gsl_vector_view wv = gsl_vector_subvector(W->w, 0, nk), yv = gsl_vector_subvector(W->y, 0, nk);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (rej[i])
            continue;
        for (size_t j = 0; j < p; j++)
            gsl_matrix_set(&A.matrix, k, j, X[i * p + j] / scale[j]);
        gsl_vector_set(&wv.vector, k, W->wt[i]);
        gsl_vector_set(&yv.vector, k, y[i]);
        k++;
    }
    double chisq;
    size_t rank;
    /* A tolerance well below rounding: only an exactly degenerate design is refused. */
    int st = gsl_multifit_wlinear_tsvd(&A.matrix, &wv.vector, &yv.vector, 1e-13, W->c, W->C, &chisq,
                                       &rank, W->ws);
    if (st != GSL_SUCCESS)
        return r->gsl = st, CF_ROBUST_GSL;
    if (rank != p || !isfinite(chisq))
        return CF_ROBUST_SINGULAR;
    for (size_t j = 0; j < p; j++) {
        r->coef[j] = gsl_vector_get(W->c, j) / scale[j];
        for (size_t l = 0; l < p; l++)
            r->cov_unscaled[j][l] = gsl_matrix_get(W->C, j, l) / (scale[j] * scale[l]);
    }
    return CF_ROBUST_OK;
}

static void drop_weights(const double *y, const double *f, const double *sd, size_t n, cf_weights w,
                         double *wt)
{
    for (size_t i = 0; i < n; i++) {
        if (w == CF_WEIGHTS_NONE)
            wt[i] = 1;
        else if (w == CF_WEIGHTS_VARIANCE)
            wt[i] = 1 / (sd[i] * sd[i]);
        else {
            /* The fitted value, once there is one that makes sense; else the measurement. */
            double t = f != NULL && f[i] > 0 ? f[i] : y[i];
            wt[i] = 1 / (t * t);
        }
    }
}

/* The residual sums, s2, the scaled covariance and the leave-one-out errors of the fit in
 * r over the kept points. */
static void drop_stats(cf_robust_workspace *W, const double *X, const double *y, size_t n,
                       cf_lsq *r)
{
    size_t p = W->p;
    r->wrss = r->rrss = 0;
    r->nkept = 0;
    for (size_t i = 0; i < n; i++) {
        double f = dot(&X[i * p], r->coef, p);
        W->fitted[i] = f;
        if (W->rej[i])
            continue;
        double res = y[i] - f;
        r->wrss += W->wt[i] * res * res;
        double rel = res / (f > 0 ? f : y[i]);
        r->rrss += rel * rel;
        r->nkept++;
    }
    r->dof = r->nkept - (int)p;
    r->s2 = r->wrss / r->dof;
    r->s2_rel = r->rrss / r->dof;
    for (size_t j = 0; j < p; j++)
        for (size_t l = 0; l < p; l++)
            r->cov[j][l] = r->cov_unscaled[j][l] * r->s2;
    /* Leave-one-out by the hat-matrix identity e_(i) = e_i / (1 - h_ii). */
    for (size_t i = 0; i < n; i++) {
        double h = W->wt[i] * quad(&X[i * p], r->cov_unscaled, p);
        double e = y[i] - W->fitted[i];
        if (W->rej[i])
            h = 0; /* not in the fit: its error is already out of sample */
        W->loo[i] = h < 1 - 1e-9 ? fabs(e / (1 - h)) / y[i] : INFINITY;
    }
}

/* Fits the kept points: relative weights are refitted with the fitted values, as 1/y^2
 * favours the points measured low. */
static cf_robust_status drop_fit(cf_robust_workspace *W, const double *X, const double *y,
                                 const double *sd, size_t n, cf_weights w, cf_lsq *r)
{
    size_t p = W->p;
    drop_weights(y, NULL, sd, n, w, W->wt);
    cf_robust_status st = drop_solve(W, X, y, n, r);
    if (st != CF_ROBUST_OK)
        return st;
    for (int it = 0; w == CF_WEIGHTS_RELATIVE && it < 50; it++) {
        double prev[CF_ROBUST_PMAX];
        memcpy(prev, r->coef, sizeof prev);
        for (size_t i = 0; i < n; i++)
            W->fitted[i] = dot(&X[i * p], r->coef, p);
        drop_weights(y, W->fitted, sd, n, w, W->wt);
        if ((st = drop_solve(W, X, y, n, r)) != CF_ROBUST_OK)
            return st;
        double change = 0;
        for (size_t j = 0; j < p; j++) {
            double d = fabs(r->coef[j] - prev[j]) / (fabs(r->coef[j]) + 1e-300);
            if (d > change)
                change = d;
        }
        if (change < 1e-11)
            break;
    }
    drop_stats(W, X, y, n, r);
    return CF_ROBUST_OK;
}

/* ---- CF_ROBUST_ZERO_WEIGHT ---- */

/* Scales the design into the workspace once for the whole fit, and checks what the
 * solves divide by. */
static cf_robust_status zero_setup(cf_robust_workspace *W, const double *X, const double *y,
                                   size_t n, cf_lsq *r)
{
    size_t k = W->p;
    for (size_t j = 0; j < k; j++) {
        W->scale[j] = 0.0;
        for (size_t i = 0; i < n; i++)
            W->scale[j] = fmax(W->scale[j], fabs(X[i * k + j]));
        if (W->scale[j] == 0.0)
            return r->at = j, CF_ROBUST_ZERO_TERM;
    }
    for (size_t i = 0; i < n; i++)
        if (!(y[i] > 0.0) || !isfinite(y[i]))
            return r->at = i, CF_ROBUST_BAD_Y;
    /* Rows of k numbers one after the other, as a matrix of k columns keeps them. */
    double *a = W->A->data;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < k; j++)
            a[i * k + j] = X[i * k + j] / W->scale[j];
        gsl_vector_set(W->y, i, y[i]);
        W->ref[i] = y[i];
    }
    return CF_ROBUST_OK;
}

/* Solves with weights 1/T^2 of the kept points (0 for the others), T the reference times,
 * and moves T to the fitted times, until they stay put. */
static cf_robust_status zero_fit(cf_robust_workspace *W, const double *y, size_t n, cf_lsq *r)
{
    size_t k = W->p;
    gsl_matrix_view Av = gsl_matrix_submatrix(W->A, 0, 0, n, k);
    gsl_vector_view yv = gsl_vector_subvector(W->y, 0, n), wv = gsl_vector_subvector(W->w, 0, n);
    double *a = W->A->data, *wd = wv.vector.data, *cd = W->c->data, *ref = W->ref;
    for (int pass = 0; pass < W->T->passes; pass++) {
        for (size_t i = 0; i < n; i++)
            wd[i] = W->rej[i] ? 0.0 : 1.0 / (ref[i] * ref[i]);
        size_t rank = 0;
        int st = gsl_multifit_wlinear_tsvd(&Av.matrix, &wv.vector, &yv.vector, 1e-12, W->c, W->C,
                                           &W->chisq, &rank, W->ws);
        if (st != GSL_SUCCESS)
            return r->gsl = st, CF_ROBUST_GSL;
        if (rank < k)
            return CF_ROBUST_SINGULAR;
        double change = 0.0;
        for (size_t i = 0; i < n; i++) {
            double f = 0.0;
            for (size_t j = 0; j < k; j++)
                f += a[i * k + j] * cd[j];
            double t = f > 0.0 ? f : y[i];
            change = fmax(change, fabs(t - ref[i]) / ref[i]);
            ref[i] = t;
        }
        if (change < 1e-10)
            break;
    }
    return CF_ROBUST_OK;
}

/* Coefficients, covariance and s2 of the last solve over the points kept at the end, and
 * each point's fitted time and leave-one-out error from the scaled design. */
static void zero_stats(cf_robust_workspace *W, const double *y, size_t n, size_t nused, cf_lsq *r)
{
    size_t k = W->p, dof = nused - k;
    const double *a = W->A->data, *wd = W->w->data, *cd = W->c->data;
    r->nkept = (int)nused;
    r->dof = (int)dof;
    r->wrss = W->chisq;
    r->s2 = W->chisq / (double)dof;
    r->rrss = r->s2_rel = NAN;
    for (size_t j = 0; j < k; j++) {
        r->coef[j] = cd[j] / W->scale[j];
        for (size_t l = 0; l < k; l++) {
            double c = gsl_matrix_get(W->C, j, l);
            r->cov_unscaled[j][l] = c / (W->scale[j] * W->scale[l]);
            r->cov[j][l] = c * r->s2 / (W->scale[j] * W->scale[l]);
        }
    }
    for (size_t i = 0; i < n; i++) {
        double f = 0.0, h = 0.0;
        for (size_t j = 0; j < k; j++) {
            double aj = a[i * k + j];
            f += aj * cd[j];
            for (size_t l = 0; l < k; l++)
                h += aj * gsl_matrix_get(W->C, j, l) * a[i * k + l];
        }
        h *= wd[i];
        W->fitted[i] = f;
        /* Leave-one-out residual of a linear fit without refitting: r / (1 - leverage). */
        W->loo[i] = !W->rej[i] && h < 1.0 - 1e-12 ? fabs(y[i] - f) / (1.0 - h) / y[i] : NAN;
    }
}

/* ---- The rejection rule ---- */

/* By deviation; among equal ones the later point first, so that walking from the end
 * sets aside the earliest of them first. */
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

/* The k-th smallest of v[0, n), v reordered so that those before it are not larger and
 * those after not smaller (Hoare's selection, as Wirth writes it): the median of the
 * deviations without sorting them all, which a large range spent most of its fit on. */
static double kth_smallest(double *v, size_t n, size_t k)
{
    long lo = 0, hi = (long)n - 1, kk = (long)k;
    while (lo < hi) {
        double x = v[kk];
        long i = lo, j = hi;
        do {
            while (v[i] < x)
                i++;
            while (x < v[j])
                j--;
            if (i <= j) {
                double s = v[i];
                v[i] = v[j];
                v[j] = s;
                i++;
                j--;
            }
        } while (i <= j);
        if (j < kk)
            lo = i;
        if (kk < i)
            hi = j;
    }
    return v[kk];
}

static double median5_of(double median)
{
    return fmax(0.05, 5.0 * 1.4826 * median);
}

/* fmax(0.05, 7.4 * the median of v[0, m)) (the mean of the two middle ones when m is
 * even), or a number that sets aside exactly the same. Selecting the median took a fifth
 * of a large search. A large m first brackets the middle values between two of an evenly
 * spread sample of 256, and in one pass counts the values below and keeps those between;
 * when no value lies between the cuts the two ends of the bracket make, either end will
 * do. Else it selects among those kept only (a tenth), or, should the bracket miss, among
 * all. */
static double median5_cut(double *v, size_t m, double *buf)
{
    size_t k = m / 2, kl = m % 2 ? k : k - 1; /* the middle values' ranks */
    if (m >= 1024) {
        enum { NS = 256, SPREAD = 16 };
        for (size_t s = 0; s < NS; s++)
            buf[s] = v[s * (m / NS)];
        double lo = kth_smallest(buf, NS, NS / 2 - SPREAD);
        double hi = kth_smallest(buf, NS, NS / 2 + SPREAD);
        double cut_lo = median5_of(lo), cut_hi = median5_of(hi);
        size_t below = 0, nb = 0, between = 0;
        for (size_t i = 0; i < m; i++) {
            double d = v[i];
            below += d < lo;
            between += d > cut_lo && d <= cut_hi;
            if (d >= lo && d <= hi)
                buf[nb++] = d;
        }
        if (below <= kl && k < below + nb) {
            /* The median is in [lo, hi], and so the cut in [cut_lo, cut_hi]. */
            if (between == 0)
                return cut_hi;
            double x = kth_smallest(buf, nb, k - below);
            if (kl == k)
                return median5_of(x);
            double y = buf[0]; /* the largest of those before it: k - below >= 1 */
            for (size_t i = 1; i < k - below; i++)
                y = buf[i] > y ? buf[i] : y;
            return median5_of(0.5 * (y + x));
        }
    }
    double x = kth_smallest(v, m, k);
    if (kl == k)
        return median5_of(x);
    double y = v[0];
    for (size_t i = 1; i < k; i++)
        y = v[i] > y ? v[i] : y;
    return median5_of(0.5 * (y + x));
}

/* The cut is at least worst when the median is at least y, the least number with
 * median5_of(y) >= worst; and the median is at least y when no more values than the lower
 * middle one's rank lie below it. A count instead of a selection: a large range of the
 * across-np quick search spent a tenth of its fit selecting a median to set nothing aside. */
static int median5_none_beyond(const double *v, size_t m, double worst)
{
    if (!isfinite(worst))
        return 0;
    double y = worst / (5.0 * 1.4826);
    while (median5_of(y) < worst)
        y = nextafter(y, INFINITY);
    size_t k = m / 2, kl = m % 2 ? k : k - 1, below = 0;
    for (size_t i = 0; i < m; i++)
        below += v[i] < y;
    return below <= kl;
}

/* A shared machine gives timings many times too slow now and then: every point beyond the
 * cut goes, the worst first, while the budget lasts. The deviations are taken from the
 * fitted times (CF_ROBUST_DROP; a point fitted at 0 or below has none) or from the
 * reference times the weights were made of (CF_ROBUST_ZERO_WEIGHT). */
static size_t reject_select(cf_robust_workspace *W, const double *y, size_t n, size_t budget)
{
    const double *ref = W->T->scheme == CF_ROBUST_DROP ? W->fitted : W->ref;
    ranked *dev = W->rank;
    size_t m = 0, ntake = 0;
    int finite = 1;
    for (size_t i = 0; i < n; i++)
        if (!W->rej[i] && ref[i] > 0) {
            double d = fabs(y[i] - ref[i]) / ref[i];
            finite &= !isnan(d);
            W->dev[m] = d;
            dev[m++] = (ranked){d, i};
        }
    /* No deviation to read (every fitted time at 0 or below): nothing to set aside; the
     * cut would read a median of none. */
    if (m == 0)
        return 0;
    if (!finite) {
        /* A NaN orders as the sort leaves it: sort them all. */
        qsort(dev, m, sizeof *dev, cmp_ranked);
        double cut = median5_of(m % 2 ? dev[m / 2].d : 0.5 * (dev[m / 2 - 1].d + dev[m / 2].d));
        for (size_t r = m; r-- > 0 && dev[r].d > cut && ntake < budget;)
            W->take[ntake++] = dev[r].i;
        return ntake;
    }
    double cut = W->T->rule->cut(W->dev, m, W->buf);
    /* Only those beyond the cut need an order. */
    size_t nbeyond = 0;
    for (size_t r = 0; r < m; r++)
        if (dev[r].d > cut)
            dev[nbeyond++] = dev[r];
    qsort(dev, nbeyond, sizeof *dev, cmp_ranked_worst);
    for (size_t r = 0; r < nbeyond && ntake < budget; r++)
        W->take[ntake++] = dev[r].i;
    return ntake;
}

static const cf_robust_rule median5 = {
    .name = "median5",
    .max_rounds = 4,
    .cap_div = 4,
    .cut = median5_cut,
    .cut_floor = 0.05,
    .none_beyond = median5_none_beyond,
};

static const cf_robust_type drop = {
    .name = "drop",
    .scheme = CF_ROBUST_DROP,
    .passes = 0,
    .refit_last = 1,
    .restore_on_failure = 1,
    .rule = &median5,
};

static const cf_robust_type zero_weight = {
    .name = "zero-weight",
    .scheme = CF_ROBUST_ZERO_WEIGHT,
    .passes = 8,
    .refit_last = 0,
    .restore_on_failure = 0,
    .rule = &median5,
};

const cf_robust_rule *const cf_robust_median5 = &median5;
const cf_robust_type *const cf_robust_drop = &drop;
const cf_robust_type *const cf_robust_zero_weight = &zero_weight;

/* ---- The engine ---- */

static cf_robust_status fit_kept(cf_robust_workspace *W, const double *X, const double *y,
                                 const double *sd, size_t n, cf_weights wt, cf_lsq *r)
{
    if (W->T->scheme == CF_ROBUST_DROP)
        return drop_fit(W, X, y, sd, n, wt, r);
    return zero_fit(W, y, n, r);
}

/* The first fit, or the state of start when given. */
static cf_robust_status first_fit(cf_robust_workspace *W, const double *X, const double *y,
                                  const double *sd, size_t n, cf_weights wt, const cf_lsq *start,
                                  cf_lsq *r)
{
    if (W->T->scheme == CF_ROBUST_ZERO_WEIGHT) {
        /* Its reference times are not in a result: it starts from the measured ones. */
        if (start != NULL)
            return CF_ROBUST_SIZE;
        cf_robust_status st = zero_setup(W, X, y, n, r);
        return st != CF_ROBUST_OK ? st : zero_fit(W, y, n, r);
    }
    if (start == NULL)
        return drop_fit(W, X, y, sd, n, wt, r);
    if (start->n != n || start->p != W->p)
        return CF_ROBUST_SIZE;
    double *fitted = r->fitted, *loo = r->loo_rel;
    unsigned char *rej = r->rejected;
    *r = *start;
    r->fitted = memcpy(fitted, start->fitted, n * sizeof *fitted);
    r->loo_rel = memcpy(loo, start->loo_rel, n * sizeof *loo);
    r->rejected = memcpy(rej, start->rejected, n);
    return CF_ROBUST_OK;
}

/* Rounds of setting aside: each asks the rule for the worst points within the budget
 * and refits without them. */
static cf_robust_status rounds(cf_robust_workspace *W, const double *X, const double *y,
                               const double *sd, size_t n, cf_weights wt, size_t *nused, cf_lsq *r)
{
    const cf_robust_type *T = W->T;
    size_t p = W->p, cap = n / T->rule->cap_div, nrej = 0;
    for (int round = 0; round < T->rule->max_rounds; round++) {
        size_t budget = nrej < cap ? cap - nrej : 0;
        size_t room = *nused > p + 2 ? *nused - (p + 2) : 0; /* dof >= 2 remains */
        if (room < budget)
            budget = room;
        if (budget == 0)
            break;
        size_t take = reject_select(W, y, n, budget);
        if (take == 0)
            break;
        for (size_t c = 0; c < take; c++)
            W->rej[W->take[c]] = 1;
        *nused -= take;
        nrej += take;
        if (!T->refit_last && round + 1 == T->rule->max_rounds)
            break;
        cf_robust_status st = fit_kept(W, X, y, sd, n, wt, r);
        if (st == CF_ROBUST_OK)
            continue;
        if (!T->restore_on_failure)
            return st;
        /* Without those points the model is undetermined: keep them. */
        for (size_t c = 0; c < take; c++)
            W->rej[W->take[c]] = 0;
        *nused += take;
        fit_kept(W, X, y, sd, n, wt, r);
        break;
    }
    return CF_ROBUST_OK;
}

cf_robust_status cf_robust_fit(cf_robust_workspace *W, const double *X, const double *y,
                               const double *sd, size_t n, cf_weights wt, int robust,
                               const cf_lsq *start, cf_lsq *r)
{
    size_t p = W->p;
    memset(r, 0, sizeof *r);
    r->n = n;
    r->p = p;
    r->fitted = W->fitted;
    r->loo_rel = W->loo;
    r->rejected = W->rej;
    if (n <= p)
        return r->status = CF_ROBUST_FEW;
    if (n > W->nmax)
        return r->status = CF_ROBUST_SIZE;
    memset(W->rej, 0, n);
    cf_robust_status st = first_fit(W, X, y, sd, n, wt, start, r);
    size_t nused = 0; /* a start may have set points aside already */
    for (size_t i = 0; i < n; i++)
        nused += !W->rej[i];
    if (st == CF_ROBUST_OK && robust)
        st = rounds(W, X, y, sd, n, wt, &nused, r);
    if (st != CF_ROBUST_OK)
        return r->status = st;
    if (W->T->scheme == CF_ROBUST_ZERO_WEIGHT) {
        zero_stats(W, y, n, nused, r);
        return r->status = CF_ROBUST_OK;
    }
    for (size_t j = 0; j < p; j++)
        if (!isfinite(r->coef[j]))
            return r->status = CF_ROBUST_DIVERGED;
    if (r->dof < 1)
        return r->status = CF_ROBUST_DOF;
    return r->status = CF_ROBUST_OK;
}
