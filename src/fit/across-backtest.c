/* The backtest of an across-np model: each segment's algorithm refitted on every process
 * count but the largest and read at the largest, as predict reads beyond the measured
 * ones. How far that reading misses, per doubling of p, is what one doubling of
 * extrapolation cannot know from the model's own residuals; predict widens its interval by
 * it for every doubling beyond the largest measured np (cf_across_predict). */
#include "config.h"

#include "fit/across-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The quantile of the per-size misses a segment keeps: the model answers at any size of its
 * range, and the misses of neighbouring sizes go together (one p-dependence), so the
 * interval takes a high one rather than their median. */
#define BACKTEST_QUANTILE 0.9

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int alg_index(const cf_coll *c, const char *name)
{
    for (int a = 0; a < c->nalgs; a++)
        if (strcmp(c->algs[a].name, name) == 0)
            return a;
    return -1;
}

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
        /* A reading of 0 or less misses by more than any factor: a thousandfold. */
        double r = t > 0 && isfinite(t) ? t / pts[i].t_us : 1e-3;
        v[k++] = fabs(log(fmax(r, 1e-3))) / d;
    }
    return k;
}

/* The backtest of algorithm a of c over [lo, hi]: NAN when the process counts
 * below the largest cannot determine it. */
static double seg_backtest(const cf_coll *c, int a, const cf_point *pts, size_t n,
                           const cf_point *sub, size_t nsub, long top, long below, double lo,
                           double hi, double *v)
{
    cf_across_fitter F;
    if (a < 0 || cf_across_fitter_init(&F, c, sub, nsub) != 0)
        return NAN;
    cf_across_seg fit;
    double rss;
    int rc = cf_across_seg_fit(&F, a, lo, hi, &fit, &rss, NULL);
    cf_across_fitter_free(&F);
    if (rc != 0)
        return NAN;
    int k = misses(&fit, pts, n, top, below, lo, hi, v);
    if (k == 0)
        return NAN;
    qsort(v, (size_t)k, sizeof *v, cmp_double);
    return v[(int)(BACKTEST_QUANTILE * (k - 1) + 0.5)];
}

void cf_across_backtest(const cf_coll *c, const cf_point *pts, size_t n, cf_across *a)
{
    for (int i = 0; i < a->nseg; i++)
        a->seg[i].extrap_err = NAN;
    if (a->nnp < CF_ACROSS_MIN_NP || a->nseg == 0)
        return;
    long top = a->np[a->nnp - 1], below = a->np[a->nnp - 2];
    cf_point *sub = malloc((n ? n : 1) * sizeof *sub);
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (sub == NULL || v == NULL) {
        free(sub);
        free(v);
        return;
    }
    size_t nsub = 0;
    for (size_t i = 0; i < n; i++)
        if (pts[i].p < top)
            sub[nsub++] = pts[i];
    for (int i = 0; i < a->nseg; i++) {
        cf_across_seg *s = &a->seg[i];
        /* Each range answers up to the middle of the gap between them, as predict reads. */
        double lo = i == 0 ? -INFINITY : s->from_bytes;
        double hi = i + 1 < a->nseg ? s->to_bytes : INFINITY;
        s->extrap_err =
            seg_backtest(c, alg_index(c, s->algorithm), pts, n, sub, nsub, top, below, lo, hi, v);
    }
    free(sub);
    free(v);
}
