/* A fit's evaluation: T at a size with its 95% prediction interval, across segments and
 * the breakpoint gaps between them; and freeing what a fit owns. */
#include "config.h"

#include "fit/fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/stats.h"
#include "fit/across.h"
#include "fit/fitting.h"

/* A weight within half a percent of an end is that end (cf_fit_weight_snap). */
#define CF_WEIGHT_SNAP 0.005

#define CF_NEAR_MAX 256 /* inner points read for the weights */
#define CF_TURN_OCTAVES 4 /* octaves read at the top for the slope's turn: 2 turns */
/* A bend of the model's reading from the log-log line below a thousandth (in ln t) makes
 * no difference worth a word: the two readings agree, and no step is claimed. */
#define CF_NEAR_BEND 1e-3

void cf_fit_clear(cf_fit *f)
{
    free(f->rejected);
    free(f->set_aside);
    free(f->gain);
    free(f->points);
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

/* Segment k at (m, b): T with its 95% prediction interval. The fit weighs relative
 * residuals: a new time has mean T and relative variance r^2 = (x'Cx + s2 T^2) / T^2. A
 * time is positive and its spread a factor, so the interval is the log-normal one of that
 * mean and variance: median T / sqrt(1 + r^2), sigma^2 = ln(1 + r^2), the median times
 * exp(+/- t(0.975, dof) sigma). Where r is a few percent it is T +/- t(0.975, dof) r T,
 * the normal interval; where t(0.975, dof) r reaches 1 (times spread by 45% or more) the
 * normal one reaches 0, which says nothing (0.8 us at [0, 1.7]) and holds no better: of
 * times spread by a factor 1.6 about a line, T +/- h held 93.5% of new ones, missing 6.5%
 * above, this 92.7%, missing 3.6% below and 3.7% above (test-fit). A time of 0 or less,
 * or a variance out of range, keeps T +/- h (predict refuses it). */
static void seg_predict(const cf_fit *f, int k, double m, double b, double tq, double *t,
                        double *lo, double *hi, double *var_mean)
{
    eval(f, k, m, b, t, var_mean);
    double v = *var_mean + f->s2 * *t * *t, r2 = v / (*t * *t);
    if (!(*t > 0) || !isfinite(r2)) {
        *lo = *t - tq * sqrt(v);
        *hi = *t + tq * sqrt(v);
        return;
    }
    double sigma = sqrt(log1p(r2)), med = *t / sqrt(1.0 + r2);
    *lo = med * exp(-tq * sigma);
    /* Where r is huge (sigma past 2 t(0.975, dof)) the log-normal's upper quantile falls
     * below its mean: the upper end is never below the normal one's, T + h. */
    *hi = fmax(med * exp(tq * sigma), *t + tq * sqrt(v));
}

/* The k whose breakpoint gap (seg[k].to_bytes, seg[k+1].from_bytes) holds m, else -1. */
static int gap_of(const cf_fit *f, double m)
{
    for (int k = 0; k + 1 < f->nseg; k++)
        if (m > (double)f->seg[k].to_bytes && m < (double)f->seg[k + 1].from_bytes)
            return k;
    return -1;
}

int cf_fit_predict_unwidened(const cf_fit *f, double bytes, double blocks, cf_prediction *out)
{
    memset(out, 0, sizeof *out);
    out->widen = out->block_widen = 1.0;
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

double cf_fit_doublings(const cf_fit *f, double bytes)
{
    if (f->max_bytes == 0)
        return 0.0;
    if (bytes > (double)f->max_bytes)
        return log2(bytes / (double)f->max_bytes);
    if (bytes < (double)f->min_bytes)
        return log2((double)f->min_bytes / fmax(bytes, 1.0));
    return 0.0;
}

double cf_fit_extrap_err(const cf_fit *f, double bytes, int *backtested)
{
    double loo = isfinite(f->q.loo_mape) && f->q.loo_mape > 0 ? log1p(f->q.loo_mape) : 0.0;
    int bt = bytes > (double)f->max_bytes && f->bt.n > 0 && isfinite(f->bt.err_per_doubling) &&
             f->bt.err_per_doubling > loo;
    if (backtested != NULL)
        *backtested = bt;
    return bt ? f->bt.err_per_doubling : loo;
}

double cf_fit_block_doublings(const cf_fit *f, double blocks)
{
    if (f->blocks <= 0 || !(blocks > 0) || f->min_blocks <= 0)
        return 0.0;
    if (blocks > (double)f->max_blocks)
        return log2(blocks / (double)f->max_blocks);
    if (blocks < (double)f->min_blocks)
        return log2((double)f->min_blocks / blocks);
    return 0.0;
}

double cf_fit_block_extrap_err(const cf_fit *f, double blocks, int *backtested)
{
    double loo = isfinite(f->q.loo_mape) && f->q.loo_mape > 0 ? log1p(f->q.loo_mape) : 0.0;
    const cf_blocks_end *b = blocks > (double)f->max_blocks ? &f->bbt.above : &f->bbt.below;
    int bt = b->n > 0 && isfinite(b->err_per_doubling) && b->err_per_doubling > loo;
    if (backtested != NULL)
        *backtested = bt;
    return bt ? b->err_per_doubling : loo;
}

/* The points from *i down to the octave of point *i's size (its half excluded), at block
 * count key (-1: any; a datatype fit's curves are one a count, the others are skipped):
 * their mean ln m and mean ln t, their number into *n (0: none left, x and y NAN); *i moves
 * below them (-1: none). */
static void octave_mean(const cf_fit *f, int key, long *i, double *x, double *y, int *n)
{
    while (*i >= 0 && key >= 0 && f->points[*i].blocks != key)
        (*i)--;
    *n = 0;
    if (*i < 0) {
        *x = *y = NAN;
        return;
    }
    double half = (double)f->points[*i].bytes / 2, sx = 0.0, sy = 0.0;
    for (; *i >= 0 && (double)f->points[*i].bytes > half; (*i)--) {
        if (key >= 0 && f->points[*i].blocks != key)
            continue;
        sx += log((double)f->points[*i].bytes);
        sy += log(f->points[*i].t_us);
        (*n)++;
    }
    *x = sx / *n;
    *y = sy / *n;
}

double cf_fit_slope_turn(const cf_fit *f, double blocks)
{
    int key = f->blocks > 0 ? (int)blocks : 0, c[CF_TURN_OCTAVES];
    double x[CF_TURN_OCTAVES], y[CF_TURN_OCTAVES];
    long i = (long)f->npoints - 1;
    int n = 0;
    while (n < CF_TURN_OCTAVES && i >= 0) {
        octave_mean(f, key, &i, &x[n], &y[n], &c[n]);
        if (c[n] == 0 || !isfinite(y[n]))
            break;
        n++;
    }
    if (n < 4)
        return 0.0;
    /* Each turn is a sum of the octave means' ln t, a y[k] + b y[k+1] + g y[k+2]; the
     * points' own scatter (the leave-one-out error's, which widens the interval already)
     * makes turns of variance s2 (a^2 / c[k] + ...) without any bend: that is taken off. */
    double s2 = isfinite(f->q.loo_mape) && f->q.loo_mape > 0 ? log1p(f->q.loo_mape) : 0.0;
    s2 *= s2;
    double ss = 0.0;
    for (int k = 0; k + 2 < n; k++) {
        double h0 = x[k] - x[k + 1], h1 = x[k + 1] - x[k + 2];
        double dd = (h0 + h1) / 2 / M_LN2; /* doublings between the chords' middles */
        double a = 1 / (h0 * dd), g = 1 / (h1 * dd), b = -(a + g);
        double turn = a * y[k] + b * y[k + 1] + g * y[k + 2];
        ss += turn * turn - s2 * (a * a / c[k] + b * b / c[k + 1] + g * g / c[k + 2]);
    }
    return ss > 0 ? sqrt(ss / (n - 2)) : 0.0;
}

double cf_fit_widen(const cf_fit *f, double bytes, double blocks, double *turn)
{
    double d = cf_fit_doublings(f, bytes);
    if (turn != NULL)
        *turn = 0.0;
    if (!(d > 0))
        return 1.0;
    double w = cf_fit_extrap_err(f, bytes, NULL) * d;
    if (bytes > (double)f->max_bytes) {
        /* The slope's turn a doubling, kappa, a random walk on from the top: after d
         * doublings the slope has wandered kappa sqrt(k) at doubling k, and ln t by the sum,
         * of variance (kappa ln 2)^2 d (d + 1) (2d + 1) / 6: its 95% reach. */
        double k = cf_fit_slope_turn(f, blocks);
        double wt = 1.96 * k * M_LN2 * sqrt(d * (d + 1) * (2 * d + 1) / 6);
        if (wt > w) {
            w = wt;
            if (turn != NULL)
                *turn = k;
        }
    }
    return exp(w);
}

int cf_fit_predict_blocks(const cf_fit *f, double bytes, double blocks, cf_prediction *out)
{
    int rc = cf_fit_predict_unwidened(f, bytes, blocks, out);
    if (rc != 0)
        return rc;
    /* No cost falls with size: beyond the measured sizes a model whose time falls (a line
     * of negative slope through 3 noisy sizes read 3.3 ns at 3000 B, 870 GB/s, its interval
     * below every measured time) answers as it does at the largest size measured. The
     * interval keeps its own half-width above that time, which holds how little the
     * slope is known, and goes no lower than the one there; it is widened from there. */
    cf_prediction top;
    if (bytes > (double)f->max_bytes && f->max_bytes > 0 &&
        cf_fit_predict_unwidened(f, (double)f->max_bytes, blocks, &top) == 0 &&
        out->t_us < top.t_us) {
        double model = out->t_us, up = out->hi_us - out->t_us;
        *out = top;
        out->hi_us = fmax(top.hi_us, top.t_us + up);
        out->extrapolated = 1;
        out->flat = 1;
        out->flat_model_us = model;
    }
    /* The regression's interval assumes the model holds beyond the sizes it saw; a
     * protocol switch or a cache's edge there is what it cannot see. The fit's backtest
     * says how far such a reading missed, per doubling of m: the interval grows by that
     * for each doubling beyond the measured sizes; and the measured slope's turns at the
     * top say how far it may go on turning (cf_fit_widen). */
    out->doublings = cf_fit_doublings(f, bytes);
    if (out->doublings > 0) {
        out->widen = cf_fit_widen(f, bytes, blocks, &out->turn);
        out->lo_us /= out->widen;
        out->hi_us *= out->widen;
    }
    /* Nor does it see a count it was not fitted on (a per-block cost that grows with the
     * count, a layout whose stride leaves a cache): the fit's backtest in blocks says how far
     * such a reading missed, per doubling of b, and its widening compounds with the one in
     * size, a miss of its own. */
    out->block_doublings = cf_fit_block_doublings(f, blocks);
    if (out->block_doublings > 0) {
        out->block_widen = exp(cf_fit_block_extrap_err(f, blocks, NULL) * out->block_doublings);
        out->lo_us /= out->block_widen;
        out->hi_us *= out->block_widen;
    }
    return 0;
}

int cf_fit_predict(const cf_fit *f, double bytes, cf_prediction *out)
{
    return cf_fit_predict_blocks(f, bytes, (double)f->blocks, out);
}

/* ln(measured / model) at f's measured point i; NAN where the model gives no time. */
static double log_ratio(const cf_fit *f, size_t i)
{
    cf_prediction p;
    const cf_measured *pt = &f->points[i];
    if (cf_fit_predict(f, (double)pt->bytes, &p) != 0 || !(p.t_us > 0))
        return NAN;
    return log(pt->t_us / p.t_us);
}

/* ln(measured / model without it) at f's point i, the fit's own leave-one-out reading of
 * it: the residual over 1 - leverage, the leverage read from the coefficients' covariance
 * (relative weights: h = x'Cx / (s2 T^2)). NAN where the model gives no time or the point
 * alone sets its line (leverage 1). */
static double loo_log_ratio(const cf_fit *f, size_t i)
{
    cf_prediction p;
    const cf_measured *pt = &f->points[i];
    if (cf_fit_predict(f, (double)pt->bytes, &p) != 0 || !(p.t_us > 0))
        return NAN;
    double h = f->s2 > 0 ? p.se_mean_us * p.se_mean_us / (f->s2 * p.t_us * p.t_us) : 0.0;
    if (!(h < 0.99))
        return NAN;
    double t_loo = pt->t_us - (pt->t_us - p.t_us) / (1.0 - h);
    return t_loo > 0 ? log(pt->t_us / t_loo) : NAN;
}

/* The log ratio at ln m read on the line through (x0, r0) and (x1, r1). */
static double along(double x0, double r0, double x1, double r1, double x)
{
    return x1 > x0 ? r0 + (r1 - r0) * (x - x0) / (x1 - x0) : r0;
}

/* The ratio read at ln m from the points lo and hi (log-log), and the time read there
 * the same way from the measured times alone: the model's shape against a straight line. */
static void reads(const cf_fit *f, const double *r, size_t lo, size_t hi, double x, double *rm,
                  double *tl)
{
    double x0 = log((double)f->points[lo].bytes), x1 = log((double)f->points[hi].bytes);
    *rm = along(x0, r[lo], x1, r[hi], x);
    *tl = along(x0, log(f->points[lo].t_us), x1, log(f->points[hi].t_us), x);
}

/* The log-log slope of the measured times from point i to point j. */
static double chord_slope(const cf_fit *f, size_t i, size_t j)
{
    return log(f->points[j].t_us / f->points[i].t_us) /
           log((double)f->points[j].bytes / (double)f->points[i].bytes);
}

/* Whether the measured points bend around the neighbours lo < hi the way the model bends
 * between them (bend: the model's ln t less the log-log line's, < 0 below it, convex):
 * the slopes of the chords before lo, from lo to hi and after hi rising for a convex bend,
 * falling for a concave one. Where they do not, a step lies between the neighbours (a
 * protocol switch, a cache's edge: the chord across it steeper or flatter than those
 * around), whose place between them a smooth model cannot know. */
static int bends_with_points(const cf_fit *f, size_t lo, size_t hi, double bend)
{
    double s = chord_slope(f, lo, hi), dir = bend < 0 ? 1.0 : -1.0;
    if (lo > 0 && dir * (s - chord_slope(f, lo - 1, lo)) < 0)
        return 0;
    if (hi + 1 < f->npoints && dir * (chord_slope(f, hi, hi + 1) - s) < 0)
        return 0;
    return 1;
}

/* What the correction reads from the fit's points alone, the same at every size: each
 * point's ratio, and at each inner point what the two readings miss there. */
static int near_build(cf_near *nr)
{
    const cf_fit *f = &nr->view;
    size_t n = f->npoints;
    nr->ok = 0;
    nr->k = 0;
    if (n < 4)
        return 0;
    nr->r = malloc((n + 2 * CF_NEAR_MAX) * sizeof *nr->r);
    if (nr->r == NULL)
        return -1;
    nr->em = nr->r + n;
    nr->el = nr->em + CF_NEAR_MAX;
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++)
        ok = isfinite(nr->r[i] = log_ratio(f, i));
    /* What each reading misses at the inner points, read from their two neighbours
     * without themselves: the model's shape corrected by the ratio (em), a straight line
     * in log-log (el). They are weighed by those misses, and the weighed reading's own
     * misses make the interval. */
    double sm = 0.0, sl = 0.0;
    int k = 0;
    for (size_t i = 1; ok && i + 1 < n && k < CF_NEAR_MAX; i++, k++) {
        double rm, tl, x = log((double)f->points[i].bytes), y = log(f->points[i].t_us);
        reads(f, nr->r, i - 1, i + 1, x, &rm, &tl);
        nr->el[k] = y - tl;
        /* The model refitted without the point (its leave-one-out reading), corrected by
         * its neighbours; where the point alone sets the model's line, no reading of the
         * model's own, as good as the straight line. */
        double rl = loo_log_ratio(f, i);
        nr->em[k] = isfinite(rl) ? rl - rm : nr->el[k]; /* in ln t: the model's ln t cancels */
        sm += nr->em[k] * nr->em[k];
        sl += nr->el[k] * nr->el[k];
    }
    nr->ok = ok;
    nr->k = k;
    nr->w = sm + sl > 0 ? sl / (sm + sl) : 1.0; /* the model's weight */
    return 0;
}

/* Whether point pt is one of the sizes f set aside as a no-op. */
static int set_aside(const cf_fit *f, const cf_measured *pt)
{
    for (size_t i = 0; i < f->nset_aside; i++)
        if (f->set_aside[i].bytes == pt->bytes && f->set_aside[i].blocks == pt->blocks)
            return 1;
    return 0;
}

int cf_near_init(cf_near *nr, const cf_fit *f, int blocks)
{
    memset(nr, 0, sizeof *nr);
    /* The points at that block count, a run of f's (by block count, then size); a fit
     * without a block term has one curve, at 0. The fit seen through them, at that count. */
    int key = f->blocks > 0 ? blocks : 0;
    size_t a = 0, b;
    while (a < f->npoints && f->points[a].blocks != key)
        a++;
    for (b = a; b < f->npoints && f->points[b].blocks == key;)
        b++;
    /* Sizes the fit set aside as a no-op (a reduction of fewer bytes than an element) are
     * the run's smallest and no point of the model: their ratio to it (x0.0066 for a float
     * reduce of 1 B) would pull the answers between them and the first fitted size down, and
     * their misses would widen every interval (reduce of 8 B at np 4 on sim-flat read
     * [0.015, 154] us around 1.52). */
    while (a < b && set_aside(f, &f->points[a]))
        a++;
    nr->view = *f;
    nr->view.blocks = blocks;
    nr->view.points = f->npoints > 0 ? f->points + a : NULL;
    nr->view.npoints = b - a;
    return near_build(nr);
}

/* Whether the rules run one algorithm at points i and j of nr (both known). */
static int same_alg(const cf_near *nr, size_t i, size_t j)
{
    return nr->alg[i] != NULL && nr->alg[j] != NULL && strcmp(nr->alg[i], nr->alg[j]) == 0;
}

/* The log-log chord from point i to point j of f, its slope held from 0 to 1 (no cost falls
 * with size, none grows faster than it within one algorithm), carried from j to bytes. */
static double carry(const cf_fit *f, size_t i, size_t j, double bytes, double *slope)
{
    *slope = fmin(fmax(chord_slope(f, i, j), 0.0), 1.0);
    return f->points[j].t_us * pow(bytes / (double)f->points[j].bytes, *slope);
}

/* How far a chord carried one point on within one algorithm's run missed, each miss per
 * doubling of the size it was carried over (up and down the sizes): its root mean square
 * over carry_n carries. */
static void carry_backtest(cf_near *nr)
{
    const cf_fit *f = &nr->view;
    double ss = 0.0, slope;
    int n = 0;
    for (size_t i = 2; i < f->npoints; i++)
        for (int dir = 0; dir < 2; dir++) {
            size_t a = dir ? i : i - 2, b = i - 1, c = dir ? i - 2 : i; /* carry a->b on to c */
            if (!same_alg(nr, i - 2, i - 1) || !same_alg(nr, i - 1, i) ||
                !(f->points[i - 2].bytes < f->points[i - 1].bytes &&
                  f->points[i - 1].bytes < f->points[i].bytes))
                continue;
            double t = carry(f, a, b, (double)f->points[c].bytes, &slope),
                   d = fabs(log2((double)f->points[c].bytes / (double)f->points[b].bytes)),
                   e = log(f->points[c].t_us / t) / d;
            if (isfinite(e)) {
                ss += e * e;
                n++;
            }
        }
    nr->carry_n = n;
    nr->carry_sd = n > 0 ? sqrt(ss / n) : 0.0;
}

int cf_near_rules(cf_near *nr, const char *rules, long node)
{
    const cf_fit *f = &nr->view;
    /* SimGrid's selectors alone: real MPICH's and Open MPI's tables keep the line (ORFEO's
     * Open MPI bcast on thin nodes, its sizes held out a third at a time, the rules made
     * present: 171 answers moved, 111 farther; on the EPYC nodes at np 4 of 8 KiB 2.05 ->
     * 5.51 us for 0.78 measured, the rules' switch at 8 KiB, the times' step at 16). */
    if (rules == NULL || strncmp(rules, "smpi-", 5) != 0 || f->npoints < 2)
        return 0;
    const char **alg = calloc(f->npoints, sizeof *alg);
    if (alg == NULL)
        return -1;
    for (size_t i = 0; i < f->npoints; i++) {
        cf_rule_alg a;
        if (cf_rules_pick(rules, node, f->pattern, f->np, (double)f->points[i].bytes, &a) == 0)
            alg[i] = a.name;
    }
    free(nr->alg);
    nr->alg = alg;
    nr->rules = rules;
    nr->node = node;
    carry_backtest(nr);
    return 0;
}

/* Whether algorithms' steps a and b at np 2 cost alike at m, on a network of 1 us and 1000
 * bytes a us (cf_steps_cost; within 1%): there recursive doubling and a ring are each one
 * exchange, and MPICH's switch between them is no step in the times (IMB's allgather at np 2
 * of 128 KiB on one node read 23.0 us from 64 KiB on, 22.2 on the line, 19.6 measured; its
 * alltoall of 16 KiB 5.80 from 8 KiB on, 3.96 on the line, 4.62). At larger np steps that
 * cost alike on such a network need not on the machine: SimGrid's alltoall of 24 KiB at np
 * 16, every message at once as MPICH runs it below 32 KiB, not in p - 1 rounds as from it,
 * read 2.3% off from 16 KiB on against 13.7% on the line (the median over data/sim-between's
 * ten platforms). */
static int cost_alike(cf_steps a, cf_steps b, long p, double m)
{
    if (p != 2)
        return 0;
    enum { N = 16 };
    double um[N], ut[N];
    for (int i = 0; i < N; i++) {
        um[i] = ldexp(1.0, 2 * i);
        ut[i] = 1.0 + um[i] / 1000.0;
    }
    double ca = cf_steps_cost(a, p, m, um, ut, N), cb = cf_steps_cost(b, p, m, um, ut, N);
    return ca > 0 && cb > 0 && fabs(log(ca / cb)) < 0.01;
}

/* Between the measured neighbours lo < hi where the rules run bytes's algorithm at one and
 * another at the other (cf_near_rules), or one algorithm of whole messages at both on either
 * side of CF_EAGER_MAX (a switch of protocol), the answer read from the side of bytes's own
 * alone: its time carried on with the chord from the point beyond it where the rules run the
 * same there too (carry), else, across an algorithm switch, with the model's own slope
 * model_t there (each held from 0 to 1). The interval holds that reading widened by its
 * carries' misses per doubling (carry_backtest, Student's quantile on half their count) over
 * the doublings carried, and one measurement's spread, and
 * still the reading across the switch already in out: where the library switches, and
 * whether other steps lie between the two sizes, no table says (SimGrid's sends wait for
 * their receiver from 64 KiB on: an alltoall of 50000 B at np 16 on flat.xml, pairwise as at
 * 64 KiB, read 229 us carried down from there, 142.6 simulated, inside the line's [33.9,
 * 561]; a library's thresholds move with its version and settings). Not carried across
 * CF_EAGER_MAX, where sends start to wait for their receiver: that alltoall, carried down,
 * crossed it. Nor where the two algorithms' steps cost alike at np 2 (cost_alike). 1 where
 * it answered, 0 where the rules run one algorithm at both neighbours, or bytes's at neither,
 * or fewer than 2 carries were backtested (no spread to read); where the rules run another
 * algorithm at a neighbour and bytes's own at neither on its side of CF_EAGER_MAX, 0 with
 * out->own_unmeasured set (and out->switch_alg). */
static int near_switch(const cf_near *nr, size_t lo, size_t hi, double bytes, double model_t,
                       cf_prediction *out)
{
    const cf_fit *f = &nr->view;
    cf_rule_alg am;
    if (nr->alg == NULL || !(hi > lo) || nr->alg[lo] == NULL || nr->alg[hi] == NULL)
        return 0;
    /* In a simulated table one algorithm of whole messages on both sides of CF_EAGER_MAX,
     * where SimGrid's sends start to wait for their receiver (and its network model's factors
     * step, at 65472 B), switches protocol there: the side of the size's own reads it. */
    int same = strcmp(nr->alg[lo], nr->alg[hi]) == 0;
    int protocol = same && (double)f->points[lo].bytes < CF_EAGER_MAX &&
                   (double)f->points[hi].bytes >= CF_EAGER_MAX;
    if ((same && !protocol) ||
        cf_rules_pick(nr->rules, nr->node, f->pattern, f->np, bytes, &am) != 0 || am.name == NULL)
        return 0;
    int side;
    if (protocol) {
        if (strcmp(am.name, nr->alg[lo]) != 0 || !cf_steps_whole_messages(am.steps))
            return 0;
        side = bytes < CF_EAGER_MAX ? -1 : 1;
    } else {
        side = strcmp(am.name, nr->alg[lo]) == 0 ? -1 : strcmp(am.name, nr->alg[hi]) == 0 ? 1 : 0;
        cf_rule_alg ao;
        out->switch_alg = am.name;
        out->own_unmeasured = side == 0;
        if (side == 0 ||
            cf_rules_pick(nr->rules, nr->node, f->pattern, f->np,
                          (double)f->points[side < 0 ? hi : lo].bytes, &ao) != 0 ||
            cost_alike(am.steps, ao.steps, f->np, bytes))
            return 0;
    }
    size_t base = side < 0 ? lo : hi;
    long beyond = side < 0 ? (long)lo - 1 : (long)hi + 1;
    double slope, t, mb = (double)f->points[base].bytes;
    if ((bytes < CF_EAGER_MAX) != (mb < CF_EAGER_MAX)) {
        out->own_unmeasured = 1; /* (the protocol case reads from bytes's side) */
        return 0;
    }
    if (nr->carry_n < 2)
        return 0;
    /* The chord may come from across it: carried from 64 KiB up to 100 KiB along the chord
     * from 16 KiB, SimGrid's Open MPI reduce and allreduce read 5% and 7% off, 35% and 34% on
     * the line (the medians over data/sim-between's ten platforms). */
    if (beyond >= 0 && (size_t)beyond < f->npoints && same_alg(nr, (size_t)beyond, base) &&
        f->points[beyond].bytes != f->points[base].bytes) {
        t = carry(f, (size_t)beyond, base, bytes, &slope);
        out->switch_from = f->points[beyond].bytes;
    } else {
        /* Across a protocol switch the model's slope is fitted through both protocols (the
         * ring allgather's at np 32 on leaves.xml, 16 to 64 KiB, read 1792 us at 45000 B
         * for 1351 simulated, 1718 on the line): the line answers. */
        cf_prediction pb;
        if (protocol || cf_fit_predict(f, mb, &pb) != 0 || !(pb.t_us > 0))
            return 0;
        slope = fmin(fmax(log(model_t / pb.t_us) / log(bytes / mb), 0.0), 1.0);
        t = f->points[base].t_us * pow(bytes / mb, slope);
        out->switch_from = 0;
    }
    if (!(t > 0) || !isfinite(t))
        return 0;
    double d = fabs(log2(bytes / mb));
    /* Each triple was carried up and down: half as many degrees of freedom as carries. */
    double hc = cf_t975((nr->carry_n + 1) / 2) * nr->carry_sd * d;
    double hs = 1.959963984540054 * f->points_sd_log, h = sqrt(hc * hc + hs * hs);
    out->switch_line_us = out->t_us;
    out->near_ratio = t / model_t;
    out->t_us = t;
    out->lo_us = fmin(out->lo_us, t * exp(-h));
    out->hi_us = fmax(out->hi_us, t * exp(h));
    out->near = 1;
    out->near_step = 0;
    out->near_lo = f->points[lo].bytes;
    out->near_hi = f->points[hi].bytes;
    out->near_weight = 0.0;
    out->near_switch = side;
    out->switch_alg = am.name;
    out->switch_other = protocol ? NULL : side < 0 ? nr->alg[hi] : nr->alg[lo];
    out->switch_slope = slope;
    return 1;
}

void cf_near_clear(cf_near *nr)
{
    free(nr->r);
    free(nr->alg);
    memset(nr, 0, sizeof *nr);
}

/* The first point at or above bytes (the last if none): the upper neighbour, the point
 * itself at a measured size (the first one's too). */
static size_t upper_neighbour(const cf_fit *f, double bytes)
{
    size_t lo = 0, hi = f->npoints - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((double)f->points[mid].bytes < bytes)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int cf_fit_trend(const cf_fit *f, double bytes, double *t, double *t_capped, uint64_t *m0,
                 uint64_t *m1)
{
    if (f->npoints < 2)
        return -1;
    long i = (long)f->npoints - 1;
    double x1, y1, x0, y0;
    int c;
    uint64_t hi = f->points[i].bytes;
    octave_mean(f, -1, &i, &x1, &y1, &c);
    if (i < 0)
        return -1;
    uint64_t lo = f->points[i].bytes;
    octave_mean(f, -1, &i, &x0, &y0, &c);
    double slope = (y1 - y0) / (x1 - x0), dx = log(bytes) - x1;
    double tr = exp(y1 + slope * dx), tc = dx > 0 ? exp(y1 + fmax(0.0, fmin(slope, 1.0)) * dx) : tr;
    if (t != NULL)
        *t = tr;
    if (t_capped != NULL)
        *t_capped = tc;
    if (m0 != NULL)
        *m0 = lo;
    if (m1 != NULL)
        *m1 = hi;
    return tr > 0 && isfinite(tr) && tc > 0 && isfinite(tc) ? 0 : -1;
}

/* Beyond the largest measured point the model's shape is one reading; the measured trend
 * at the top is the other (cf_fit_trend: an octave's points read as their mean, so that
 * sizes a few bytes apart, or a size measured on several node pairs, make no chord of
 * their own). The answer weighs the two as they read the sizes above the fit's backtest
 * refits (bt.model_weight: the model alone where they read none): on the simulated tables
 * the model's top segment, fitted over decades of sizes, carries a line their last
 * octaves bend away from, and the trend reads them better; on others the model reads a
 * cache's edge the trend cannot. Where the two part, nothing measured says which
 * continues: the interval holds the trend's reading too, widened by the same factor. The
 * answer's trend rises no faster than the size and does not fall (cf_fit_trend, capped);
 * the interval holds it and the chord as it is: on a shared-memory IMB table the time grew
 * 3.3x from 1 to 2 MiB (a cache's capacity crossed) and 2.0x to 4 MiB, and with its top 2
 * sizes held out the chord carried as it is held the truth the capped one missed
 * (coverage 100% -> 83%). */
static void near_beyond(const cf_fit *f, double bytes, double doublings, cf_prediction *out)
{
    double tc, tw;
    uint64_t m0, m1;
    if (cf_fit_trend(f, bytes, &tc, &tw, &m0, &m1) != 0)
        return;
    double lo = tc / out->widen, hi = tc * out->widen;
    if (lo < out->lo_us || hi > out->hi_us) {
        out->trend_us = tc;
        out->trend_lo = m0;
        out->trend_hi = m1;
        out->lo_us = fmin(out->lo_us, lo);
        out->hi_us = fmax(out->hi_us, hi);
    }
    /* A weight within half a percent of an end is that end: the note says x1.00, not
     * x0.9997, and nothing of the other reading is left to speak of. The trend's weight
     * eases in over the first doubling, as the ratio at the top eases out (near_anchor):
     * at the top the answer is the measured time. */
    double w = cf_fit_anchor_at(f->bt.n > 0 ? f->bt.model_weight : 1.0, doublings);
    if (w < 1.0) {
        out->model_t_us = out->t_us;
        out->t_us = exp(w * log(out->t_us) + (1.0 - w) * log(tw));
        out->trend_read_us = tw;
        out->trend_lo = m0;
        out->trend_hi = m1;
        out->trend_weight = 1.0 - w;
        /* The interval holds the reading weighed too, widened the same (where the chord is
         * steeper than 1 or falls, the capped reading lies outside the chord's). */
        out->lo_us = fmin(out->lo_us, tw / out->widen);
        out->hi_us = fmax(out->hi_us, tw * out->widen);
    }
}

double cf_fit_weight_snap(double w)
{
    return w > 1 - CF_WEIGHT_SNAP ? 1.0 : w < CF_WEIGHT_SNAP ? 0.0 : w;
}

double cf_fit_anchor_at(double weight, double doublings)
{
    return 1.0 - (1.0 - cf_fit_weight_snap(weight)) * fmin(fmax(doublings, 0.0), 1.0);
}

/* Beyond the largest measured point, the model's reading goes on from the measured time
 * there: times its measured / model ratio (r, in ln), as the answer at that point is the
 * measured time itself (the correction by the neighbours). Without it the answer jumped
 * one byte past the top: a linear fit through 1 B, 1 KiB, 64 KiB and 1 MiB of a simulated
 * bcast at np 32 read the measured 530 us at 1 MiB and 1003 us a byte above, 1995 at
 * 2 MiB for 976 simulated. A doubling beyond the top and further, the ratio counts by the
 * weight it earned in the fit's backtest in size (bt.anchor_weight, read the same way:
 * size-backtest.c), whole at the top, the weight easing to it over that first doubling
 * (cf_fit_anchor_at), so that the answer leaves the measured time without a jump. A ratio
 * within 0.1% of 1 is none. The interval holds the model's own reading too. */
#define CF_ANCHOR_NONE 1e-3
static void near_anchor(const cf_fit *f, double r, double doublings, cf_prediction *out)
{
    double lr = cf_fit_anchor_at(f->bt.anchor_weight, doublings) * r, a = exp(lr);
    if (!isfinite(a) || !(fabs(lr) >= CF_ANCHOR_NONE))
        return;
    out->anchor = a;
    out->anchor_ratio = exp(r);
    out->anchor_bytes = f->points[f->npoints - 1].bytes;
    out->t_us *= a;
    out->lo_us = fmin(out->lo_us, out->lo_us * a);
    out->hi_us = fmax(out->hi_us, out->hi_us * a);
}

/* Beyond the measured points no answer moves its bytes faster than the fit's asymptotic
 * bandwidth, r_inf's 95% upper end, or than the bandwidth measured at the largest point
 * where that is the faster (a bandwidth pattern's; sat): the measured trend weighed in
 * rises more slowly than the size where the top octaves still gain bandwidth, and carried
 * on it gained without end (a new user's simulated cluster, its ping-pong fitted to 1 MiB,
 * r_inf 15975 MiB/s [14440, 17876], read 27067 MiB/s at 1 GiB, 34% fast: the simulator's
 * link saturates at 17941; the shipped OSU ping-pong over InfiniBand 13765 MiB/s, r_inf
 * 11262 [10832, 11728]). The interval holds the time so raised. */
static void near_rinf(const cf_fit *f, double bytes, cf_prediction *out)
{
    const cf_saturation *s = &f->sat;
    const cf_measured *top = &f->points[f->npoints - 1];
    if (!s->valid || s->nmsg < 1 || !(s->rinf_hi_MiBps > 0) || !isfinite(s->rinf_hi_MiBps))
        return;
    /* The top's bandwidth no more than the median of the three largest sizes' (a top point
     * measured fast, even one the fit set aside, would let answers run as fast). */
    double at_top = s->nmsg * (double)top->bytes / top->t_us / 1.048576;
    if (s->plateau_MiBps > 0 && isfinite(s->plateau_MiBps))
        at_top = fmin(at_top, s->plateau_MiBps);
    double bw = fmax(s->rinf_hi_MiBps, at_top);
    double floor = s->nmsg * bytes / (bw * 1.048576);
    if (!(out->t_us < floor))
        return;
    out->rinf_floor_us = out->t_us;
    out->rinf_floor_MiBps = bw;
    out->t_us = floor;
    out->hi_us = fmax(out->hi_us, floor);
}

int cf_near_predict(const cf_near *nr, double bytes, cf_prediction *out)
{
    const cf_fit *f = &nr->view;
    int rc = cf_fit_predict(f, bytes, out);
    size_t n = f->npoints;
    if (rc == 0 && n >= 4 && nr->ok && bytes > (double)f->points[n - 1].bytes && out->t_us > 0) {
        /* A model file written before the ratio at the top was read (anchor_weight < 0)
         * answers as it did: the model's own reading, weighed with the trend from the top,
         * no floor. */
        int older = f->bt.anchor_weight < 0;
        double d = older ? INFINITY : log2(bytes / (double)f->points[n - 1].bytes);
        if (!older)
            near_anchor(f, nr->r[n - 1], d, out);
        near_beyond(f, bytes, d, out);
        if (!older) {
            near_rinf(f, bytes, out);
            /* One measurement's spread about the answer, as at the measured sizes (node
             * pairs, runs), widened as the rest: a byte past the top the interval of OSU's
             * ping-pong over 32 node pairs lost 5% of its upper end without it. */
            double hs = exp(1.959963984540054 * f->points_sd_log) * out->widen;
            out->lo_us = fmin(out->lo_us, out->t_us / hs);
            out->hi_us = fmax(out->hi_us, out->t_us * hs);
        }
    }
    if (rc != 0 || n < 4 || !(bytes >= (double)f->points[0].bytes) ||
        !(bytes <= (double)f->points[n - 1].bytes) || !(out->t_us > 0) || nr->r == NULL)
        return rc;
    const double *r = nr->r, *em = nr->em, *el = nr->el;
    int ok = nr->ok, k = nr->k;
    size_t hi = upper_neighbour(f, bytes);
    size_t lo = (double)f->points[hi].bytes == bytes ? hi : hi - 1;
    double model_t = out->t_us;
    /* The weight where bytes lies: from the misses of the inner points around it (inner
     * point i is em[i - 1]), the model's shape may hold in one protocol and not across a
     * switch. */
    size_t a = lo > 1 ? lo - 1 : 1, b = hi + 1 < (size_t)k ? hi + 1 : (size_t)k;
    double lm = 0.0, ll = 0.0;
    for (size_t i = a; i <= b; i++) {
        lm += em[i - 1] * em[i - 1];
        ll += el[i - 1] * el[i - 1];
    }
    double wl = lm + ll > 0 ? ll / (lm + ll) : nr->w;
    /* In a breakpoint gap the model has no shape of its own (its two segments' ends are
     * joined by a line in bytes, a guess): the log-log line between the measured
     * neighbours, the gap's ends, answers. */
    if (out->in_gap)
        wl = 0.0;
    /* Nor where the measured points around the neighbours bend against the model's
     * shape: a step lies between them, and the model's bend would put it on one side;
     * the log-log line between the neighbours does not guess (held-out sizes of the
     * shipped IMB tables: a Hockney segment through 512 KiB and 2 MiB bent 25% above
     * the measured 1 MiB, the log-log line 11%). */
    double rm = 0.0, tl = 0.0;
    if (ok)
        reads(f, r, lo, hi, log(bytes), &rm, &tl);
    double bend = log(out->t_us) + rm - tl;
    if (ok && hi > lo && fabs(bend) >= CF_NEAR_BEND && !bends_with_points(f, lo, hi, bend)) {
        wl = 0.0;
        out->near_step = 1;
    }
    /* The spread of the reading that answers (weight wl) at every inner point, and at
     * those around bytes: where the points around miss more than the others (a protocol
     * switch, a cache), their spread is the one that holds here. */
    double sc = 0.0, scl = 0.0;
    for (int i = 0; i < k; i++) {
        double e = wl * em[i] + (1.0 - wl) * el[i];
        sc += e * e;
        if ((size_t)i + 1 >= a && (size_t)i + 1 <= b)
            scl += e * e;
    }
    double s2l = b >= a ? scl / (double)(b - a + 1) : 0.0;
    double s2r = fmax(sc / k, s2l);
    /* A spread read from the few points around (up to 4) is itself uncertain: where it is
     * the one that holds, its quantile is Student's with as many degrees of freedom as
     * those points, not as all the inner points (OSU alltoall at np 64, 2 KiB held out: 4
     * points around a step, with 13 degrees of freedom the interval missed by 0.6%). */
    int dof = s2l > sc / k ? (int)(b - a + 1) : k;
    if (ok && k >= 2) {
        double x = wl * (log(out->t_us) + rm) + (1.0 - wl) * tl;
        /* The reading's own miss, and one measurement's spread about it where a size was
         * measured more than once (node pairs, runs). At a measured size nothing is read
         * between neighbours: its time, with that spread and the model's own interval. */
        double hr = lo == hi ? 0.0 : cf_t975(dof) * sqrt(s2r);
        double hs = 1.959963984540054 * f->points_sd_log;
        double t = exp(x), h = sqrt(hr * hr + hs * hs);
        out->near_ratio = t / out->t_us;
        /* At a measured size, the model's interval carried to the measured time too, as
         * beyond the top (near_anchor): one row a size has no spread of its own, and the
         * model's interval, where the model misses the point, lay on one side of it (the
         * shipped datatype sweep's 4192000 B at 1000 blocks read [131.4, 192.424] for the
         * measured 192.424). At the top it made the interval jump a byte above: the lower
         * end fell up to 43% (sim-torus allgather at np 64), the upper rose up to 3.4x. */
        double mlo = out->lo_us, mhi = out->hi_us;
        out->lo_us = fmin(out->lo_us, t * exp(-h));
        out->hi_us = fmax(out->hi_us, t * exp(h));
        if (lo == hi && f->bt.anchor_weight >= 0) { /* an older file answers as it did */
            out->lo_us = fmin(out->lo_us, mlo * out->near_ratio);
            out->hi_us = fmax(out->hi_us, mhi * out->near_ratio);
        }
        out->t_us = t;
        out->near = 1;
        out->near_lo = f->points[lo].bytes;
        out->near_hi = f->points[hi].bytes;
        out->near_weight = wl;
    }
    near_switch(nr, lo, hi, bytes, model_t, out);
    return rc;
}

int cf_fit_predict_near_rules(const cf_fit *f, double bytes, int blocks, const char *rules,
                              long node, cf_prediction *out)
{
    cf_near nr;
    if (cf_near_init(&nr, f, blocks) != 0) {
        cf_near_clear(&nr);
        return cf_fit_predict_blocks(f, bytes, (double)blocks, out);
    }
    (void)cf_near_rules(&nr, rules, node); /* without memory for it, read as without rules */
    int rc = cf_near_predict(&nr, bytes, out);
    cf_near_clear(&nr);
    return rc;
}

int cf_fit_predict_near_blocks(const cf_fit *f, double bytes, int blocks, cf_prediction *out)
{
    return cf_fit_predict_near_rules(f, bytes, blocks, NULL, 0, out);
}

int cf_fit_predict_near(const cf_fit *f, double bytes, cf_prediction *out)
{
    return cf_fit_predict_near_blocks(f, bytes, f->blocks, out);
}
