/* The robust engine against exact constructions: Hockney data with and without one gross
 * outlier under both weighting schemes, the one rejection rule (its cut, its floor, its
 * cap) the same under both, a workspace reused for a smaller fit, the failures it reports,
 * and the AICc and t quantile everybody shares. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit/robust.h"
#include "tap.h"

#define N 21 /* sizes 1 B .. 1 MiB in powers of two */
#define ALPHA 2.0
#define BETA 1e-3

static void hockney(double *X, double *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double m = ldexp(1.0, (int)i);
        X[2 * i] = 1.0;
        X[2 * i + 1] = m;
        y[i] = ALPHA + BETA * m;
    }
}

static void exact(const cf_robust_type *T)
{
    double X[2 * N], y[N];
    hockney(X, y, N);
    cf_robust_workspace *w = cf_robust_alloc(T, N, 2);
    ok(w != NULL, "%s: a workspace", T->name);
    cf_lsq r;
    is_int(cf_robust_fit(w, X, y, NULL, N, CF_WEIGHTS_RELATIVE, 1, NULL, &r), CF_ROBUST_OK,
           "%s: exact data fits", T->name);
    near(r.coef[0], ALPHA, 1e-9, "%s: alpha", T->name);
    near(r.coef[1], BETA, 1e-9, "%s: beta", T->name);
    is_int(r.nkept, N, "%s: nothing set aside from exact data", T->name);
    is_int(r.dof, N - 2, "%s: dof", T->name);

    /* One point ten times too slow: set aside, and the line is exact again. */
    y[7] *= 10;
    is_int(cf_robust_fit(w, X, y, NULL, N, CF_WEIGHTS_RELATIVE, 1, NULL, &r), CF_ROBUST_OK,
           "%s: with an outlier, fits", T->name);
    ok(r.rejected[7] && r.nkept == N - 1, "%s: the outlier alone is set aside (kept %d)", T->name,
       r.nkept);
    near(r.coef[0], ALPHA, 1e-9, "%s: alpha without it", T->name);
    near(r.coef[1], BETA, 1e-9, "%s: beta without it", T->name);
    is_int(cf_robust_fit(w, X, y, NULL, N, CF_WEIGHTS_RELATIVE, 0, NULL, &r), CF_ROBUST_OK,
           "%s: not robust, fits", T->name);
    ok(r.nkept == N && fabs(r.coef[0] - ALPHA) > 1e-3, "%s: not robust, the outlier pulls",
       T->name);

    /* The same workspace for a smaller fit gives what a workspace of that size gives. */
    double small[2];
    is_int(cf_robust_fit(w, X, y, NULL, 10, CF_WEIGHTS_RELATIVE, 1, NULL, &r), CF_ROBUST_OK,
           "%s: 10 of the points in the large workspace", T->name);
    small[0] = r.coef[0];
    small[1] = r.coef[1];
    cf_robust_workspace *w10 = cf_robust_alloc(T, 10, 2);
    is_int(cf_robust_fit(w10, X, y, NULL, 10, CF_WEIGHTS_RELATIVE, 1, NULL, &r), CF_ROBUST_OK,
           "%s: the same in a workspace of 10", T->name);
    ok(small[0] == r.coef[0] && small[1] == r.coef[1], "%s: the same coefficients", T->name);
    cf_robust_free(w10);

    /* What it refuses, and says why. */
    is_int(cf_robust_fit(w, X, y, NULL, 2, CF_WEIGHTS_RELATIVE, 1, NULL, &r), CF_ROBUST_FEW,
           "%s: 2 points for 2 coefficients", T->name);
    is_int(cf_robust_fit(w, X, y, NULL, N + 1, CF_WEIGHTS_RELATIVE, 1, NULL, &r), CF_ROBUST_SIZE,
           "%s: more points than the workspace holds", T->name);
    double Z[2 * N];
    memcpy(Z, X, sizeof Z);
    for (size_t i = 0; i < N; i++)
        Z[2 * i + 1] = 0;
    ok(cf_robust_fit(w, Z, y, NULL, N, CF_WEIGHTS_RELATIVE, 1, NULL, &r) == CF_ROBUST_ZERO_TERM &&
           r.at == 1,
       "%s: a column of zeros, named", T->name);
    cf_robust_free(w);
}

/* The rule: max(5%, 5 x 1.4826 x the median deviation), at most n/4 points, the same
 * points set aside under both schemes. */
static void one_rule(void)
{
    const cf_robust_rule *R = cf_robust_median5;
    double dev[] = {0.03, 0.01, 0.02}, tiny[] = {0.001, 0.002, 0.0015, 0.001}, buf[4];
    near(R->cut(dev, 3, buf), 5 * 1.4826 * 0.02, 1e-12, "cut: 5 x 1.4826 x the median");
    near(R->cut(tiny, 4, buf), 0.05, 0, "cut: never below 5%%");
    ok(R->cut_floor == 0.05 && R->cap_div == 4, "floor 5%%, at most a quarter");
    ok(cf_robust_drop->rule == R && cf_robust_zero_weight->rule == R,
       "every fit, per np and across np, by the one rule");

    const cf_robust_type *types[] = {cf_robust_drop, cf_robust_zero_weight};
    for (int k = 0; k < 2; k++) {
        const cf_robust_type *T = types[k];
        double X[2 * N], y[N];
        hockney(X, y, N);
        /* 4% off: within the floor, kept; 30% off: set aside. */
        y[4] *= 1.04;
        y[12] *= 1.30;
        cf_robust_workspace *w = cf_robust_alloc(T, N, 2);
        cf_lsq r;
        is_int(cf_robust_fit(w, X, y, NULL, N, CF_WEIGHTS_RELATIVE, 1, NULL, &r), CF_ROBUST_OK,
               "%s: fits", T->name);
        ok(!r.rejected[4] && r.rejected[12] && r.nkept == N - 1,
           "%s: 4%% off kept, 30%% off set aside (kept %d)", T->name, r.nkept);
        /* Two points ten times too slow: both set aside (every point beyond the cut). */
        hockney(X, y, N);
        y[5] *= 10;
        y[15] *= 10;
        is_int(cf_robust_fit(w, X, y, NULL, N, CF_WEIGHTS_RELATIVE, 1, NULL, &r), CF_ROBUST_OK,
               "%s: two outliers, fits", T->name);
        ok(r.rejected[5] && r.rejected[15] && r.nkept == N - 2,
           "%s: both outliers set aside, nothing else (kept %d)", T->name, r.nkept);
        near(r.coef[1], BETA, 1e-9, "%s: beta without them", T->name);
        cf_robust_free(w);
    }
}

/* none_beyond against the cut itself on random deviations (counts odd and even, below
 * and above 1024, some with an outlier, some with the largest on the cut): whenever it
 * says that none is beyond, the cut sets none aside. */
static void none_beyond(void)
{
    const cf_robust_rule *R = cf_robust_median5;
    enum { MMAX = 3000, TRIES = 3000 };
    static double dev[MMAX], copy[MMAX], buf[MMAX];
    srand(7);
    int told = 0, wrong = 0;
    for (int k = 0; k < TRIES; k++) {
        size_t m = 1 + (size_t)rand() % (k % 2 ? 40 : MMAX);
        double spread = 0.005 + 0.05 * rand() / RAND_MAX;
        for (size_t i = 0; i < m; i++)
            dev[i] = spread * rand() / RAND_MAX;
        if (k % 3 == 0)
            dev[(size_t)rand() % m] *= 10; /* an outlier, perhaps */
        if (k % 5 == 0)
            for (size_t i = 0; i < m; i++) /* the largest on the cut */
                dev[i] = i == 0 ? fmax(0.05, 5.0 * 1.4826 * spread) : spread;
        double worst = 0.0;
        for (size_t i = 0; i < m; i++)
            worst = fmax(worst, dev[i]);
        memcpy(copy, dev, m * sizeof *dev);
        double cut = R->cut(copy, m, buf);
        int says = R->none_beyond(dev, m, worst);
        told += says;
        wrong += says && worst > cut;
    }
    ok(wrong == 0 && told > TRIES / 4 && told < TRIES,
       "none beyond: told without the median %d times in %d, never wrongly (%d)", told, TRIES,
       wrong);
    double typical[] = {0.03, 0.01, 0.02, 0.06}, outlier[] = {0.01, 0.02, 0.01, 0.3};
    ok(R->none_beyond(typical, 4, 0.06) && !R->none_beyond(outlier, 4, 0.3),
       "none beyond: 6%% with a median of 2.5%% is told; 30%% with one of 1.5%% is not");
}

static void only_zero_weight(void)
{
    double X[2 * N], y[N];
    hockney(X, y, N);
    y[3] = -1;
    cf_robust_workspace *w = cf_robust_alloc(cf_robust_zero_weight, N, 2);
    cf_lsq r;
    ok(cf_robust_fit(w, X, y, NULL, N, CF_WEIGHTS_RELATIVE, 1, NULL, &r) == CF_ROBUST_BAD_Y &&
           r.at == 3,
       "zero-weight: a negative time, named");
    cf_robust_free(w);
    ok(cf_robust_alloc(cf_robust_drop, N, 0) == NULL &&
           cf_robust_alloc(cf_robust_drop, N, CF_ROBUST_PMAX + 1) == NULL,
       "no workspace for 0 or too many coefficients");
    cf_robust_free(NULL);
}

static void shared(void)
{
    /* n log(rss/n) + 2k + 2k(k+1)/(n-k-1) at rss/n = 1/e: -10 + 4 + 12/7. */
    near(cf_aicc(10 * exp(-1.0), 10, 2), -10 + 4 + 12.0 / 7, 1e-12, "AICc, a known value");
    near(cf_aicc(0, 10, 2), cf_aicc(10 * 1e-12, 10, 2), 1e-12,
         "AICc: an exact fit counts as "
         "the floor");
    ok(isnan(cf_aicc(1, 3, 2)) && !isnan(cf_aicc(1, 4, 2)), "AICc: undefined for n - k - 1 < 1");
    near(cf_t975(1), 12.706204736174698, 1e-12, "t(0.975, 1)");
    near(cf_t975(1000), 1.9623390808264078, 1e-12, "t(0.975, 1000)");
    ok(isinf(cf_t975(0)), "t(0.975, 0) is infinite");
}

int main(void)
{
    exact(cf_robust_drop);
    exact(cf_robust_zero_weight);
    one_rule();
    none_beyond();
    only_zero_weight();
    shared();
    return tap_done();
}
