/* The backtest of an across-np model: each segment's algorithm refitted on every process
 * count but the largest and read at the largest, as predict reads beyond the measured
 * ones. How far that reading misses, per doubling of p, is what one doubling of
 * extrapolation cannot know from the model's own residuals; predict widens its interval by
 * it for every doubling beyond the largest measured np (cf_across_predict). And the growth
 * of T with p at the largest np, whose acceleration there the interval's upper end carries
 * on beyond them. */
#include "config.h"

#include "fit/across-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"

/* The quantile of the per-size misses a segment keeps: the model answers at any size of its
 * range, and the misses of neighbouring sizes go together (one p-dependence), so the
 * interval takes a high one rather than their median. */
#define BACKTEST_QUANTILE 0.9

/* The p-linear candidates are kept only when they read the largest measured np at least
 * this much better (as a ratio of the mean misses) than the plain fit: a term more must
 * earn its place, and one backtest of noisy points can favour either by a little. */
#define P_LINEAR_GAIN 0.5

/* The ends of the measured growth over a range's sizes that the interval beyond the measured
 * np reaches to: the same high quantile as the backtest's, for the same reason. */
#define GROWTH_QUANTILE BACKTEST_QUANTILE

/* |ln(read / measured)| per doubling from below to top, for the points of pts at top in
 * [lo, hi], by s fitted on the process counts below: into v, how many. */
static int misses(const cf_across_seg *s, const cf_point *pts, size_t n, long top, long below,
                  double lo, double hi, double *v)
{
    double d = log2((double)top / (double)below);
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        if (pts[i].p != top || pts[i].m < lo || pts[i].m > hi || !(pts[i].t_us > 0))
            continue;
        double t, half;
        cf_across_seg_predict(s, top, pts[i].m, &t, &half);
        /* A reading of 0 or less misses by more than any factor: a thousandfold, the most a
         * miss counts either way (as in the backtest in size). */
        double r = t > 0 && isfinite(t) ? t / pts[i].t_us : 1e-3;
        v[k++] = fabs(log(fmin(fmax(r, 1e-3), 1e3))) / d;
    }
    return k;
}

/* The backtest of the candidate named alg over [lo, hi]: NAN when the process counts below
 * the largest cannot determine it. */
static double seg_backtest(const cf_coll *c, const char *alg, unsigned keep, const cf_point *pts,
                           size_t n, const cf_point *sub, size_t nsub, long top, long below,
                           double lo, double hi, double *v, double *sum, int *cnt)
{
    cf_across_fitter F;
    if (cf_across_fitter_init(&F, c, sub, nsub, CF_ACROSS_P_LINEAR | keep) != 0)
        return NAN;
    int a = 0;
    while (a < F.ncand && strcmp(F.name[a], alg) != 0)
        a++;
    cf_across_seg fit;
    double rss;
    int rc = a < F.ncand ? cf_across_seg_fit(&F, a, lo, hi, &fit, &rss, NULL) : -1;
    cf_across_fitter_free(&F);
    if (rc != 0)
        return NAN;
    int k = misses(&fit, pts, n, top, below, lo, hi, v);
    if (k == 0)
        return NAN;
    for (int i = 0; i < k; i++)
        *sum += v[i];
    *cnt += k;
    cf_sort_doubles(v, (size_t)k);
    return v[(int)(BACKTEST_QUANTILE * (k - 1) + 0.5)];
}

/* The median of the times of pts at (p, m); NAN when none. v: room for n. */
static double median_at(const cf_point *pts, size_t n, long p, double m, double *v)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        if (pts[i].p == p && pts[i].m == m && pts[i].t_us > 0)
            v[k++] = pts[i].t_us;
    if (k == 0)
        return NAN;
    cf_sort_doubles(v, (size_t)k);
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

static double median3(double a, double b, double c)
{
    return fmax(fmin(a, b), fmin(fmax(a, b), c));
}

/* v[0..k) replaced by the median of each value and its two neighbours (the ends kept). */
static void smooth3(double *v, int k, double *tmp)
{
    for (int i = 0; i < k; i++)
        tmp[i] = i == 0 || i == k - 1 ? v[i] : median3(v[i - 1], v[i], v[i + 1]);
    memcpy(v, tmp, (size_t)k * sizeof *v);
}

/* The distinct sizes in [lo, hi] measured at p, increasing, into sz: how many. */
static int sizes_at(const cf_point *pts, size_t n, long p, double lo, double hi, double *sz)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        if (pts[i].p == p && pts[i].m >= lo && pts[i].m <= hi)
            sz[k++] = pts[i].m;
    cf_sort_doubles(sz, (size_t)k);
    int d = 0;
    for (int i = 0; i < k; i++)
        if (d == 0 || sz[i] != sz[d - 1])
            sz[d++] = sz[i];
    return d;
}

/* The growth of T with p at the largest np, over the sizes in [lo, hi] measured at the three
 * largest np (their medians, as real sets repeat runs): ln T is a quadratic in x = log2 p
 * through them, its slope at the largest (growth, per doubling) and its second derivative
 * (change, per doubling per doubling). Three points of one size are noisy and neighbouring
 * sizes share one p-dependence: each value is the median of its size's and its two
 * neighbours'. Into s->growth and s->growth_change the low and high ends over the sizes
 * (GROWTH_QUANTILE), NAN when no size has the three. v: room for 4 n. */
static void seg_growth(const cf_point *pts, size_t n, const long *np3, double lo, double hi,
                       double *v, cf_across_seg *s)
{
    double x[3], *g = v, *ch = v + n, *sz = v + 2 * n, *scratch = v + 3 * n;
    for (int j = 0; j < 3; j++)
        x[j] = log2((double)np3[j]);
    int ns = sizes_at(pts, n, np3[2], lo, hi, sz), k = 0;
    for (int i = 0; i < ns; i++) {
        double L[3];
        int j = 0;
        for (; j < 3; j++) {
            double t = median_at(pts, n, np3[j], sz[i], scratch);
            if (!(t > 0))
                break;
            L[j] = log(t);
        }
        if (j < 3)
            continue;
        double g1 = (L[1] - L[0]) / (x[1] - x[0]), g2 = (L[2] - L[1]) / (x[2] - x[1]);
        ch[k] = (g2 - g1) / (0.5 * (x[2] - x[0]));
        g[k] = g2 + 0.5 * ch[k] * (x[2] - x[1]);
        k++;
    }
    smooth3(g, k, scratch);
    smooth3(ch, k, scratch);
    for (int e = 0; e < 2; e++) {
        double q = e ? GROWTH_QUANTILE : 1.0 - GROWTH_QUANTILE;
        s->growth[e] = k > 0 ? cf_stats_quantile_nearest(g, (size_t)k, q) : NAN;
        s->growth_change[e] = k > 0 ? cf_stats_quantile_nearest(ch, (size_t)k, q) : NAN;
    }
}

double cf_across_backtest(const cf_coll *c, const cf_point *pts, size_t n, unsigned cands,
                          cf_across *a)
{
    for (int i = 0; i < a->nseg; i++)
        a->seg[i].extrap_err = a->seg[i].within_err = NAN;
    a->ntier = 0;
    a->tier_probed = a->within_np = 0;
    for (int i = 0; i < a->nseg; i++)
        for (int e = 0; e < 2; e++)
            a->seg[i].growth[e] = a->seg[i].growth_change[e] = NAN;
    if (a->nnp < CF_ACROSS_MIN_NP || a->nseg == 0)
        return NAN;
    /* below: the largest np the refits read from (a->np may be thinned: cf_across_distinct_np). */
    long top = a->np[a->nnp - 1], below = 0;
    cf_point *sub = malloc(2 * (n ? n : 1) * sizeof *sub), *read = sub + (n ? n : 1);
    double *v = malloc(4 * (n ? n : 1) * sizeof *v);
    if (sub == NULL || v == NULL) {
        free(sub);
        free(v);
        return NAN;
    }
    size_t nsub = 0, nread = 0;
    for (size_t i = 0; i < n; i++) {
        if (pts[i].p < top) {
            sub[nsub++] = pts[i];
            if (pts[i].p > below)
                below = pts[i].p;
        }
        /* Read where the call moves data: a reduction of fewer bytes than its element is
         * no call at all (sim-multicore's reduce of 1 B at np 16: 0.01 us, read 0.62), and
         * its miss of x62 set the fitted model's backtest of x4.88 a doubling, x2.71 without
         * it; the answers it bounds are of calls that move data. */
        if (!cf_across_moves_nothing(a->datatype, pts[i].m))
            read[nread++] = pts[i];
    }
    double sum = 0.0;
    int cnt = 0;
    for (int i = 0; i < a->nseg; i++) {
        cf_across_seg *s = &a->seg[i];
        /* Each range over its own sizes, the first from the smallest, the last to the largest. */
        double lo = i == 0 ? -INFINITY : s->from_bytes;
        double hi = i + 1 < a->nseg ? s->to_bytes : INFINITY;
        s->extrap_err =
            seg_backtest(c, s->algorithm, cands & CF_ACROSS_KEEP_ALL, read, nread, sub, nsub,
                         top, below, lo, hi, v, &sum, &cnt);
        seg_growth(read, nread, a->np + a->nnp - 3, lo, hi, v, s);
    }
    free(sub);
    free(v);
    return cnt ? sum / cnt : NAN;
}

int cf_tiers_between(const long *ranks, int n, long lo, long hi)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += lo <= ranks[i] && ranks[i] < hi;
    return k;
}

void cf_across_backtest_tiers(const cf_coll *c, const cf_point *pts, size_t n, unsigned cands,
                              const cf_tiers *tiers, cf_across *a)
{
    if (tiers == NULL || tiers->nreach == 0 || a->nnp < CF_ACROSS_MIN_NP + 1 ||
        cf_tiers_between(tiers->reach_ranks, tiers->nreach, a->np[a->nnp - 2],
                         a->np[a->nnp - 1]) == 0)
        return;
    /* The largest doubling that crosses none, with the np the joint fit needs below it. */
    int k = a->nnp - 2;
    while (k >= CF_ACROSS_MIN_NP - 1 &&
           cf_tiers_between(tiers->reach_ranks, tiers->nreach, a->np[k - 1], a->np[k]) > 0)
        k--;
    if (k < CF_ACROSS_MIN_NP - 1)
        return;
    cf_across *b = malloc(sizeof *b);
    cf_point *sub = malloc((n ? n : 1) * sizeof *sub);
    if (b != NULL && sub != NULL) {
        size_t nsub = 0;
        for (size_t i = 0; i < n; i++)
            if (pts[i].p <= a->np[k])
                sub[nsub++] = pts[i];
        *b = *a;
        b->nnp = k + 1;
        cf_across_backtest(c, sub, nsub, cands, b);
        for (int i = 0; i < a->nseg; i++)
            if (isfinite(b->seg[i].extrap_err) && b->seg[i].extrap_err < a->seg[i].extrap_err) {
                a->seg[i].within_err = b->seg[i].extrap_err;
                a->ntier = tiers->nreach;
            }
        if (a->ntier > 0) {
            memcpy(a->tier_ranks, tiers->reach_ranks,
                   (size_t)tiers->nreach * sizeof *a->tier_ranks);
            a->tier_probed = tiers->reach_probed;
            a->within_np = a->np[k];
        }
    }
    free(b);
    free(sub);
}

static int has_p_linear(const cf_across *a)
{
    for (int i = 0; i < a->nseg; i++)
        for (int j = 0; j < a->seg[i].nbasis; j++)
            if (a->seg[i].basis[j].n == 1 && a->seg[i].basis[j].t[0] == CF_CT_P1 &&
                strstr(a->seg[i].algorithm, "p-linear") != NULL)
                return 1;
    return 0;
}

int cf_across_fit_extrap(const cf_coll *c, const char *datatype, const cf_point *pts, size_t n,
                         unsigned cands, cf_across *out, cf_error *e)
{
    if (!(cands & CF_ACROSS_P_LINEAR))
        return cf_across_fit_points_cands(c, datatype, pts, n, CF_SEARCH_QUICK, cands, out, e);
    cf_across *b = malloc(sizeof *b);
    if (b == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    int more;
    int rc = cf_across_fit_points_more(c, datatype, pts, n, cands, out, b, &more, e);
    if (rc == 0 && more && b->error[0] == '\0' && has_p_linear(b)) {
        /* Both fit the measured points, and AICc prefers the one with more terms; which
         * reads the largest measured np better from those below decides, by a clear margin
         * (P_LINEAR_GAIN). */
        double sa = cf_across_backtest(c, pts, n, cands, out);
        double sb = cf_across_backtest(c, pts, n, cands, b);
        if (sb < P_LINEAR_GAIN * sa)
            *out = *b;
    }
    free(b);
    return rc;
}
