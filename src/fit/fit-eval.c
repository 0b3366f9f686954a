/* A fit's evaluation: T at a size with its 95% prediction interval, across segments and
 * the breakpoint gaps between them; and freeing what a fit owns. */
#include "config.h"

#include "fit/fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/stats.h"
#include "fit/fitting.h"

void cf_fit_clear(cf_fit *f)
{
    free(f->rejected);
    free(f->set_aside);
    free(f->gain);
    for (size_t i = 0; i < f->nwarnings; i++)
        free(f->warnings[i]);
    free(f->warnings);
    memset(f, 0, sizeof *f);
}

static void eval(const cf_fit *f, int k, double m, double b, double *t, double *var_mean)
{
    double x[CF_COEF_MAX];
    cf_fit_design(f, m, b, x);
    const cf_segment *s = &f->seg[k];
    double v = 0, tt = 0;
    for (int j = 0; j < f->ncoef; j++) {
        tt += x[j] * s->coef[j];
        for (int l = 0; l < f->ncoef; l++)
            v += x[j] * s->cov[j][l] * x[l];
    }
    *t = tt;
    *var_mean = v > 0 ? v : 0;
}

/* Segment k at (m, b): T with its 95% prediction interval. */
static void seg_predict(const cf_fit *f, int k, double m, double b, double tq, double *t,
                        double *lo, double *hi, double *var_mean)
{
    eval(f, k, m, b, t, var_mean);
    double sd = sqrt(*var_mean + f->s2 * *t * *t);
    *lo = *t - tq * sd;
    *hi = *t + tq * sd;
}

/* The k whose breakpoint gap (seg[k].to_bytes, seg[k+1].from_bytes) holds m, else -1. */
static int gap_of(const cf_fit *f, double m)
{
    for (int k = 0; k + 1 < f->nseg; k++)
        if (m > (double)f->seg[k].to_bytes && m < (double)f->seg[k + 1].from_bytes)
            return k;
    return -1;
}

int cf_fit_predict_blocks(const cf_fit *f, double bytes, double blocks, cf_prediction *out)
{
    memset(out, 0, sizeof *out);
    if (!isfinite(bytes) || bytes < 0 || !isfinite(blocks) || blocks < 0 || f->kind == NULL ||
        f->nseg < 1)
        return CF_EXIT_DATA;
    double tq = cf_t975(f->dof), vm;
    int g = gap_of(f, bytes);
    if (g < 0) {
        int other, k = cf_fit_segment(f, bytes, &other);
        seg_predict(f, k, bytes, blocks, tq, &out->t_us, &out->lo_us, &out->hi_us, &vm);
        out->se_mean_us = sqrt(vm);
        out->segment = k;
    } else {
        /* Inside a breakpoint gap neither segment was fitted, and a segment's line
         * carried past its sizes can go anywhere (an intercept of -90 us is fine from
         * 1 MiB up and nonsense at 520 KiB). What is known is each segment at its own
         * end of the gap: interpolate between those two values, and take the interval
         * as the hull of the two intervals there, which holds wherever the switch
         * happens if the time moves monotonically across the gap. */
        double ma = (double)f->seg[g].to_bytes, mb = (double)f->seg[g + 1].from_bytes;
        double ta, loa, hia, va, tb, lob, hib, vb;
        seg_predict(f, g, ma, blocks, tq, &ta, &loa, &hia, &va);
        seg_predict(f, g + 1, mb, blocks, tq, &tb, &lob, &hib, &vb);
        double w = (bytes - ma) / (mb - ma);
        out->t_us = ta + w * (tb - ta);
        out->lo_us = fmin(loa, lob);
        out->hi_us = fmax(hia, hib);
        out->se_mean_us = (1 - w) * sqrt(va) + w * sqrt(vb);
        out->segment = g;
        out->in_gap = 1;
    }
    /* A time is never negative, whatever the width of the interval. */
    if (out->lo_us < 0)
        out->lo_us = 0;
    out->extrapolated = bytes < (double)f->min_bytes || bytes > (double)f->max_bytes;
    return 0;
}

int cf_fit_predict(const cf_fit *f, double bytes, cf_prediction *out)
{
    return cf_fit_predict_blocks(f, bytes, (double)f->blocks, out);
}
