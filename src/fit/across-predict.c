/* Predictions of an across-np model: T(p, m) with its 95% interval, and its lines at a
 * fixed p; and finding a model among a set. */
#include "config.h"

#include "fit/across-int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cf_across_seg_predict(const cf_across_seg *s, long p, double m, double *t, double *half)
{
    double x[CF_COLL_MAX_BASIS], v = 0.0;
    *t = 0.0;
    for (int j = 0; j < s->nbasis; j++) {
        x[j] = cf_cterm_sum_eval(&s->basis[j], p, m);
        *t += s->coef[j] * x[j];
    }
    for (int j = 0; j < s->nbasis; j++)
        for (int l = 0; l < s->nbasis; l++)
            v += x[j] * s->cov[j][l] * x[l];
    *half = s->tq * sqrt(fmax(0.0, v + s->s2 * *t * *t));
}

/* The error per doubling of p beyond the measured ones of segment k: its backtest; where
 * there is none (a model file from before it), another segment's, else what the segment
 * misses of its own points left out one at a time. *source: CF_BT_MODEL or CF_BT_LOO. */
static double extrap_err(const cf_across *a, int k, int *source)
{
    *source = CF_BT_MODEL;
    if (isfinite(a->seg[k].extrap_err))
        return a->seg[k].extrap_err;
    double e = NAN;
    for (int i = 0; i < a->nseg; i++)
        if (isfinite(a->seg[i].extrap_err))
            e = isnan(e) ? a->seg[i].extrap_err : fmax(e, a->seg[i].extrap_err);
    if (isnan(e)) {
        *source = CF_BT_LOO;
        e = isfinite(a->seg[k].q.loo_mape) ? log1p(a->seg[k].q.loo_mape) : 0.0;
    }
    return e;
}

int cf_across_backtest_seg(const cf_across *a, double m)
{
    return a->nseg > 1 && m > a->seg[0].to_bytes;
}

void cf_estimate_bt_clear(cf_estimate *est)
{
    est->bt_err = est->bt_doublings = est->bt_lo_doublings = 0.0;
    est->bt_from = est->bt_lo_from = 0;
    est->bt_source = 0;
    est->bt_crossings = est->bt_lo_crossings = 0.0;
    est->bt_within = 0.0;
    est->bt_within_np = 0;
    est->no_op_us = 0.0;
}

/* ln of a widening over d doublings, k of them at per and the others at within where it
 * is the smaller (cf_across_bt_ln). */
static double split_ln(double per, double within, double k, double d)
{
    return k > 0 && within < per ? per * k + within * (d - k) : per * d;
}

double cf_estimate_bt_ln(const cf_estimate *est, double d, int lower)
{
    return split_ln(est->bt_err, est->bt_within, lower ? est->bt_lo_crossings : est->bt_crossings,
                    d);
}

static double crossings(const cf_across *a, int seg, long from, long q, double d)
{
    long top = a->nnp > 0 ? a->np[a->nnp - 1] : 0;
    const cf_across_seg *s = &a->seg[seg];
    if (a->ntier == 0 || !(d > 0) || q <= top || !(s->within_err < s->extrap_err))
        return 0.0;
    if (q > a->tier_probed)
        return d;
    double k = (from < top ? cf_tiers_between(a->tier_ranks, a->ntier, from, top) : 0) + 1 +
               cf_tiers_between(a->tier_ranks, a->ntier, 2 * top, q);
    return fmin(k, d);
}

static void bt_tiers(cf_estimate *est, const cf_across *a, int seg, long from, long q, double d,
                     int lower)
{
    double k = crossings(a, seg, from, q, d);
    *(lower ? &est->bt_lo_crossings : &est->bt_crossings) = k;
    if (k > 0) {
        est->bt_within = a->seg[seg].within_err;
        est->bt_within_np = a->within_np;
    }
}

void cf_estimate_bt_tiers(cf_estimate *est, const cf_across *a, double m, long from, long q,
                          double d, int lower)
{
    if (a->nseg > 0)
        bt_tiers(est, a, cf_across_backtest_seg(a, m), from, q, d, lower);
}

static double bt_ln(const cf_across *a, int seg, long from, long q, double d, double per)
{
    return split_ln(per, a->seg[seg].within_err, crossings(a, seg, from, q, d), d);
}

double cf_across_bt_ln(const cf_across *a, double m, long from, long q, double d, double per)
{
    return a->nseg > 0 ? bt_ln(a, cf_across_backtest_seg(a, m), from, q, d, per) : per * d;
}

double cf_across_extrap_err(const cf_across *a, double m, int *source)
{
    int whose = CF_BT_MODEL;
    double e = a->nseg > 0 ? extrap_err(a, cf_across_backtest_seg(a, m), &whose) : NAN;
    if (source != NULL)
        *source = whose;
    return e;
}

/* How far (ln) the measured growth of segment k reads above the model, going on as it did
 * at the largest np (the high ends over the range's sizes of its growth, and of its change
 * where that is above 0), d doublings beyond the largest measured np, at size m where the
 * model reads t; 0 where it reads inside it or is unknown. A growth that slowed down, carried
 * on unslowed, reaches above where it goes: an upper end. The model's p-dependence may grow
 * slower than the measured points: a contention growing as sqrt(p), which the robust fit
 * sets aside at np 2 and 4 as outliers, left the model half the growth measured at np 64,
 * and the growth slowed only at the small sizes, where lg p dominates. Until stop 48 the
 * growth went on only where it accelerated at nearly every size; there, fitted at np 2-64,
 * the interval at np 4096 held the truth at 25% of the points, 92.5% now. The ends over the
 * sizes, not each size's own: one size's three points are noisy (each size's own held 85%). */
static double growth_reach(const cf_across *a, int k, double m, double d, double t)
{
    const cf_across_seg *s = &a->seg[k];
    if (!(d > 0) || a->nnp == 0 || !isfinite(s->growth[1]) || !isfinite(s->growth_change[1]))
        return 0.0;
    double t_top, half;
    cf_across_seg_predict(s, a->np[a->nnp - 1], m, &t_top, &half);
    if (!(t_top > 0))
        return 0.0;
    double reach = s->growth[1] * d + 0.5 * fmax(0.0, s->growth_change[1]) * d * d;
    return fmax(0.0, reach - log(t / t_top));
}

/* Segment k's T at (p, m) with its 95% interval, multiplicative: the fit's own relative
 * half-width, widened by the backtested error for each doubling of p beyond the measured
 * process counts (or below them); beyond them, the upper end also reaches as far as the
 * measured growth going on would (growth_reach). Where the backtest's widening is the
 * larger, out's bt_ fields say so (its other fields untouched). */
static void seg_interval(const cf_across *a, int k, long p, double m, double *t, double *lo,
                         double *hi, cf_estimate *out)
{
    double half;
    cf_across_seg_predict(&a->seg[k], p, m, t, &half);
    double d = 0.0, beyond = 0.0;
    long from = 0;
    if (a->nnp > 0 && p > a->np[a->nnp - 1])
        d = beyond = log2((double)p / (double)(from = a->np[a->nnp - 1]));
    else if (a->nnp > 0 && p < a->np[0])
        d = log2((double)(from = a->np[0]) / (double)p);
    if (!(*t > 0) || !isfinite(*t)) {
        *lo = 0.0;
        *hi = fmax(0.0, *t + half);
        return;
    }
    int source;
    /* Beyond the largest np, a tier crossed by its doubling counted as cf_across_bt_ln says. */
    double w = log1p(half / *t), err = extrap_err(a, k, &source),
           e = beyond > 0 ? bt_ln(a, k, from, p, d, err) : err * d;
    *lo = *t * exp(-(w + e));
    *hi = *t * exp(w + fmax(e, growth_reach(a, k, m, beyond, *t)));
    if (e > w && e > cf_estimate_bt_ln(out, out->bt_doublings, 0)) {
        out->bt_err = err;
        out->bt_doublings = d;
        out->bt_from = from;
        out->bt_source = source;
        out->bt_crossings = 0;
        if (beyond > 0)
            bt_tiers(out, a, k, from, p, d, 0);
    }
}

/* The segment whose formula answers at size m: the second from past the first's sizes,
 * but between the two ranges the nearer one in log size (either algorithm may run there). */
static int formula_seg(const cf_across *a, double m)
{
    int k = a->nseg > 1 && m > a->seg[0].to_bytes;
    if (k && m < a->seg[1].from_bytes &&
        log1p(m) - log1p(a->seg[0].to_bytes) < log1p(a->seg[1].from_bytes) - log1p(m))
        k = 0;
    return k;
}

/* The fitted formula's answer (its segments), the grid aside. Between the two ranges the
 * nearer one gives the time, the interval covers both. */
static void formula_predict(const cf_across *a, long p, double m, cf_estimate *out)
{
    int k = formula_seg(a, m);
    double t, lo, hi;
    seg_interval(a, k, p, m, &t, &lo, &hi, out);
    if (a->nseg > 1 && m > a->seg[0].to_bytes && m < a->seg[1].from_bytes) {
        double t1, l1, h1;
        seg_interval(a, 1 - k, p, m, &t1, &l1, &h1, out);
        lo = fmin(lo, l1);
        hi = fmax(hi, h1);
    }
    out->t_us = t;
    out->lo_us = fmax(0.0, lo);
    out->hi_us = hi;
    out->alg = k;
    out->algorithm = a->seg[k].algorithm;
}

/* A call that moves nothing (cf_across_moves_nothing) sends no message, and the backtests
 * skip it: the lower end holds the least time the grid measured of such calls (SimGrid's
 * 0.01 us: sim-fatnodes fitted at np 2-32, the reduce of 1 B at np 64 read 0.0121 us in
 * [0.0106, 0.0138] from the trees' backtest, simulated 0.0100). Not the most: a library may
 * still synchronise (ORFEO's Open MPI reduce of 2 B, 0.26 to 0.8 us). */
static void hold_no_op(const cf_across *a, double m, cf_estimate *out)
{
    if (!cf_across_moves_nothing(a->datatype, m))
        return;
    double least = INFINITY;
    for (int i = 0; i < a->grid.n; i++)
        if (cf_across_moves_nothing(a->datatype, a->grid.pt[i].m) && a->grid.pt[i].t_us > 0)
            least = fmin(least, a->grid.pt[i].t_us);
    double lo = out->lo_us, hi = out->hi_us;
    if (isfinite(least))
        cf_across_hold_between(least, least, &lo, &hi);
    if (lo < out->lo_us) {
        out->lo_us = lo;
        out->no_op_us = lo;
    }
}

void cf_across_predict(const cf_across *a, long p, double m, cf_estimate *out)
{
    out->contention = 1.0;
    out->contention_np = 0;
    out->model_factor = 1.0;
    out->grid = 0;
    out->unreplayed = 0;
    out->replay_held = 0;
    out->fold_widened = 0;
    out->step_below = 0.0;
    cf_estimate_bt_clear(out);
    if (cf_across_grid_predict(a, p, m, out) == 0) {
        out->alg = 0;
        out->grid = 1;
        hold_no_op(a, m, out);
        return;
    }
    formula_predict(a, p, m, out);
}

int cf_across_formula_only(const cf_across *a)
{
    return a->grid.rules[0] == '\0' || a->grid.n == 0;
}

/* The fitted formula's time at (p, m), formula_predict's without its interval (a batch
 * reads it twice an answer). */
static double formula_t(const cf_across *a, long p, double m)
{
    const cf_across_seg *s = &a->seg[formula_seg(a, m)];
    double t = 0.0;
    for (int j = 0; j < s->nbasis; j++)
        t += s->coef[j] * cf_cterm_sum_eval(&s->basis[j], p, m);
    return t;
}

/* The answer at the i-th fitted np over the formula's there, at m: NAN where either is no
 * time. The formula was fitted without the barrier's waits where a->waited, the fit at
 * that np with them: its wait comes off first (the answer adds np's own back). */
static double anchor_ratio(const cf_across *a, int i, double m, cf_fitted_at at, void *ctx)
{
    double f = formula_t(a, a->np[i], m), t = at(ctx, a->np[i], m);
    if (a->waited)
        t -= a->wait_us[i];
    return t > 0 && f > 0 && isfinite(t) && isfinite(f) ? t / f : NAN;
}

void cf_across_anchor_np(const cf_across *a, long p, int *i0, int *i1)
{
    int j = 0;
    while (j < a->nnp && a->np[j] < p)
        j++;
    /* At a fitted np (which predict answers from its own fit: the report's curve through
     * it), that np's own ratio. */
    int at_fitted = j < a->nnp && a->np[j] == p;
    *i0 = at_fitted ? j : j > 0 ? j - 1 : 0;
    *i1 = j < a->nnp ? j : a->nnp - 1;
}

double cf_across_anchor(const cf_across *a, long p, double m, cf_fitted_at at, void *ctx,
                        long *from)
{
    from[0] = from[1] = 0;
    if (a->nnp == 0 || a->nseg == 0)
        return 1.0;
    int i0, i1;
    cf_across_anchor_np(a, p, &i0, &i1);
    long p0 = a->np[i0], p1 = a->np[i1];
    double r0 = anchor_ratio(a, i0, m, at, ctx), r1 = p1 == p0 ? r0 : anchor_ratio(a, i1, m, at, ctx);
    /* A neighbour without an answer (no fit of this datatype there) leaves the other's. */
    if (!(r0 > 0) && !(r1 > 0))
        return 1.0;
    if (!(r0 > 0) || !(r1 > 0) || p1 == p0) {
        from[0] = r0 > 0 ? p0 : p1;
        return r0 > 0 ? r0 : r1;
    }
    from[0] = p0;
    from[1] = p1;
    return cf_across_loglog_p(p, p0, r0, p1, r1);
}

double cf_across_loglog_p(long p, long p0, double v0, long p1, double v1)
{
    double f = log((double)p / (double)p0) / log((double)p1 / (double)p0);
    return exp((1.0 - f) * log(v0) + f * log(v1));
}

double cf_across_block_once_us(const cf_across *a, double m)
{
    if (a->nseg == 0)
        return 0.0;
    const cf_across_seg *s = &a->seg[formula_seg(a, m)];
    double coef = 0.0;
    for (int j = 0; j < s->nbasis; j++)
        for (int k = 0; k < s->basis[j].n; k++)
            if (s->basis[j].t[k] == CF_CT_FR_M)
                coef += s->coef[j];
    return coef > 0.0 ? coef * m : 0.0;
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
        /* The switch half-way (in log size) between the two measured ranges: the least
         * whole size the second answers at, as formula_seg picks (a size just below the
         * half-way point, rounded down, was the second's: sim-flat's allgather at np 64 read
         * 918 us at 32 KiB from the formula, 388 from predict). */
        switch_at[i] = INFINITY;
        if (i + 1 < a->nseg) {
            double x = ceil(expm1(0.5 * (log1p(s->to_bytes) + log1p(a->seg[i + 1].from_bytes))));
            /* A byte or two either way of the rounded half-way point; past 2^53 bytes (a
             * hand-edited file) x +/- 1 is x and the search would never end: x as it is. */
            for (int k = 0; k < 4 && x > 0 && x < 0x1p53 && formula_seg(a, x - 1) > i; k++)
                x--;
            for (int k = 0; k < 4 && x < 0x1p53 && formula_seg(a, x) <= i; k++)
                x++;
            switch_at[i] = x;
        }
    }
    return a->nseg;
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

const char *cf_across_rules(const cf_p2p *pp, const cf_across *a, long *node)
{
    const char *rules = pp != NULL ? pp->rules : NULL;
    *node = pp != NULL ? pp->node_ranks : 0;
    if ((rules == NULL || rules[0] == '\0') && a != NULL) {
        rules = a->grid.rules;
        *node = a->grid.node_ranks;
    }
    return rules;
}
