/* The grid model of an across-np fit (cf_across_grid in across.h): the measured points
 * under the library's switch rules, read along lines in the algorithm's step cost, with an
 * interval that grows with the doublings of p beyond the measured ones by what the points
 * themselves say such a reading misses. */
#include "config.h"

#include "fit/across-int.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>

#include "base/collective.h"
#include "base/size.h"
#include "base/stats.h"

/* The interval's relative half-width: at least GRID_FLOOR, and per doubling of p beyond
 * the largest measured GRID_FLOOR_STEP, plus GRID_ERR_K times the backtested error, plus
 * GRID_GROWTH_K times the log of the growth of the cost per step (contention still
 * growing at the largest measured np may grow on). Its upper end takes the larger of that
 * growth and the largest one anywhere in the measured range (step_growth_max). */
#define GRID_FLOOR 0.05
#define GRID_FLOOR_STEP 0.03
#define GRID_ERR_K 1.5
#define GRID_GROWTH_K 0.25
/* Doublings of size beyond an algorithm's measured sizes from which the grid reads the cost
 * per step of the algorithm measured at the size instead. */
#define GRID_BORROW_OFF 2.0
/* The quantile of the per-call trees' backtested misses tree_err keeps: a high one, as the
 * fitted model's backtest keeps (BACKTEST_QUANTILE in across-backtest.c), since one value
 * answers for every size and tree. The replays over the tiers (tiered_tree_err) keep the
 * largest: beyond the fitted np they cross tiers no reading of the backtest crossed (with
 * the 0.9 quantile, once the sized latency probe made the replays read the fitted np closer,
 * leaves-ompi fitted at np 2-16: 3.6% a doubling, where 14.9% before, reduce of 1 KiB at
 * np 64, across a leaf switch no fitted np crossed, read 2.34 us in [2.04, inf) for the
 * simulated 1.99). */
#define GRID_TREE_QUANTILE 0.9
#define GRID_TIERED_TREE_QUANTILE 1.0

static double growth(const cf_across *a, cf_steps st, double m, const long *p, const double *t,
                     int k);

int cf_across_grid_tiered(const cf_across_grid *g, cf_steps st)
{
    return g->tiers.n > 0 && g->nmsg >= 2 && cf_steps_tiered(st);
}

/* A cost's family: 0 steps of T2, 1 a per-call tree (cf_steps_per_call), 2 one the grid's
 * tiers cost (cf_across_grid_tiered: a reduce or bcast tree or Bruck's alltoall, replayed
 * over them).
 * A cost per step carries over within a family only: a replay's holds the tiers' latency
 * apart, the others' inside. */
static int cost_family(const cf_across_grid *g, cf_steps st)
{
    return cf_across_grid_tiered(g, st) ? 2 : cf_steps_per_call(st) ? 1 : 0;
}

/* The unit curves the steps are costed with at one of their bounds between the measured
 * sizes (unit_bound): T2's (the steps of T2) and the message's (the per-call trees and the
 * replays over the tiers). NULL where a reading takes the grid's own. */
typedef struct {
    double b[3 * CF_UNIT_MAX + 1], t[3 * CF_UNIT_MAX + 1];
    double mb[3 * CF_UNIT_MAX + 1], mt[3 * CF_UNIT_MAX + 1];
    int n, nm;
} grid_unit;

static double steps_on(const cf_across *a, cf_steps st, long p, double m, const grid_unit *u)
{
    const cf_across_grid *g = &a->grid;
    if ((cf_steps_per_call(st) && g->nmsg >= 2) ||
        (cf_across_grid_tiered(g, st) && cf_steps_tiered_at(st, p, m)))
        return cf_steps_cost_tiered(st, p, m, u ? u->mb : g->msg_bytes,
                                    u ? u->mt : g->msg_unit_us, u ? u->nm : g->nmsg, &g->tiers,
                                    g->rules, a->waited || a->replayed);
    const double *ub = u ? u->b : g->unit_bytes, *ut = u ? u->t : g->unit_t_us;
    int n = u ? u->n : g->nunit;
    /* SMPI's MPICH rounds on the rank's own link: a first message a round (cf_rounds_cost),
     * not p - 1 whole ones (flat.xml, 400 B fitted at np 2 to 8: np 9 to 16 read 4.85 to
     * 5.57 us for the simulated 6.80 to 9.48, three and four rounds; now 6.6 to 9.3). */
    if (st == CF_STEPS_ROUNDS)
        return cf_rounds_cost(p, m, ub, ut, n);
    return cf_steps_cost_node(st, g->node_ranks, p, m, ub, ut, n, g->tiers.eager_load);
}

static double steps_at(const cf_across *a, cf_steps st, long p, double m)
{
    return steps_on(a, st, p, m, NULL);
}

/* Between two measured sizes a unit is known only to lie between their times (more bytes
 * never cost less within a protocol, and a protocol's switch may lie anywhere between them:
 * SimGrid's default factors step at 9376 B, where ethflat's np=2 allgatherv read 6.5 us at
 * 3000 B and 14.7 at 12000). The n points (b, t) held at the lower (hi 0) or the higher (hi
 * 1) of each two neighbours' times between them, the measured sizes' own times kept, and
 * beyond the largest the curve carried on (a point at twice it), into (ob, ot): how many. */
static int bound_curve(const double *b, const double *t, int n, int hi, double *ob, double *ot)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        ob[k] = b[i];
        ot[k++] = t[i];
        if (i + 1 < n && b[i + 1] > b[i] * (1.0 + 4e-6)) {
            double v = hi ? fmax(t[i], t[i + 1]) : fmin(t[i], t[i + 1]);
            ob[k] = b[i] * (1.0 + 1e-6);
            ot[k++] = v;
            ob[k] = b[i + 1] * (1.0 - 1e-6);
            ot[k++] = v;
        }
    }
    if (n > 0) {
        ob[k] = 2.0 * b[n - 1];
        ot[k++] = cf_unit_time(b, t, n, 2.0 * b[n - 1]);
    }
    return k;
}

/* The grid's units at their lower (hi 0) or higher (hi 1) bound (bound_curve). */
static void unit_bound(const cf_across_grid *g, int hi, grid_unit *u)
{
    u->n = bound_curve(g->unit_bytes, g->unit_t_us, g->nunit, hi, u->b, u->t);
    u->nm = bound_curve(g->msg_bytes, g->msg_unit_us, g->nmsg, hi, u->mb, u->mt);
}

/* The points of algorithm alg at size m, by process count: at most CF_ACROSS_NP_MAX. */
static int group_at(const cf_across *a, const char *alg, double m, long *p, double *t)
{
    const cf_across_grid *g = &a->grid;
    int k = 0;
    for (int i = 0; i < g->n && k < CF_ACROSS_NP_MAX; i++) {
        cf_rule_alg r;
        if (g->pt[i].m != m ||
            cf_rules_pick(g->rules, g->node_ranks, a->pattern, g->pt[i].p, m, &r) != 0 ||
            strcmp(r.name, alg) != 0)
            continue;
        int j = k++;
        while (j > 0 && p[j - 1] > g->pt[i].p) {
            p[j] = p[j - 1];
            t[j] = t[j - 1];
            j--;
        }
        p[j] = g->pt[i].p;
        t[j] = g->pt[i].t_us;
    }
    return k;
}

/* Step costs that grow by less than this a doubling of p are all but alike (along). */
#define ALIKE_STEPS 1.1
/* Step costs within this factor of each other are the same count of steps (along). */
#define STEPS_SAME 1.01

/* T at (q, m) from k points (p, t) of one algorithm at size m: the line in step cost
 * through the nearest two (the largest two beyond them, never falling), or the ratio to the
 * step cost of a single one; a replay over the tiers beyond them or below them: the ratio to
 * the largest's or the smallest's, which may fall (a replay is not monotone in p: a rank
 * more may fill a node). *d: the doublings of q beyond the largest p. */
static double along_on(const cf_across *a, cf_steps st, long q, double m, const long *p,
                       const double *t, int k, double *d, const grid_unit *u, double *alt)
{
    if (alt != NULL)
        alt[0] = alt[1] = NAN;
    *d = q > p[k - 1] ? log2((double)q / (double)p[k - 1]) : 0.0;
    double sq = steps_on(a, st, q, m, u);
    for (int i = 0; i < k; i++)
        if (p[i] == q)
            return t[i];
    /* A replay over the tiers (cost_family 2) costs the whole call, its latencies and
     * waits, not steps of a unit: beyond the measured np it is read as a ratio to the
     * largest, whose miss it keeps, as a line through the two largest would carry the
     * difference of their misses onto every step it adds; below them as a ratio to the
     * smallest, as a line through the two smallest would keep its intercept over steps it
     * takes away (SimGrid's ring allgather on racks.xml, 16384 B, run from np 32: np 6 read
     * 101.8 us on the line through np 32's and 64's, 36.4 as np 32's ratio, its replay's
     * 32.3 against np 32's 281 for the simulated 317). */
    if (k == 1 || ((q > p[k - 1] || q < p[0]) && cost_family(&a->grid, st) == 2)) {
        int e = q < p[0] ? 0 : k - 1;
        return t[e] * sq / steps_on(a, st, p[e], m, u);
    }
    int j = 1;
    while (j < k - 1 && p[j] < q)
        j++;
    /* The lower end: the nearest below whose step cost differs (np 12 and 16 both take
     * 4 binomial steps; the line runs through 8 and 16), by more than STEPS_SAME: a line
     * through step costs a rounding apart carries their times' noise over that rounding
     * onto every step added (Bruck's allgatherv of 8 B at np 6 and 7, 3 steps each, 2 and 3
     * blocks of 8 B on the unit's curve 0.05% apart: np 9's 4 steps read 20.2 us through
     * them for the simulated 24.2, outside [18.8, 21.9]). */
    int i = j - 1;
    double s1 = steps_on(a, st, p[j], m, u), s0 = steps_on(a, st, p[i], m, u);
    while (i > 0 && !(s1 > s0 * STEPS_SAME))
        s0 = steps_on(a, st, p[--i], m, u);
    if (!(s1 > s0 * STEPS_SAME))
        return t[j] * sq / s1;
    double mu = (t[j] - t[i]) / (s1 - s0);
    /* Beyond the largest, a line that falls (the larger np's step costs more, its time less:
     * the two disagree with the steps' cost, by noise or a wait the steps leave out) says
     * nothing of the steps q adds: the line through the largest and the nearest np below
     * whose line rises, else held flat; either way the interval holds the line held flat and
     * the ratio to the largest's step cost (alt[0], alt[1]). MPICH's recursive doubling
     * reduce_scatter of 5000 B on flat.xml, 24.7 us at np 7 and 20.7 at np 8 (8.73 and 8.85
     * in step costs), np 6 19.5 (7.80): np 9's 17.3 read 20.7 in [15.4, 28.4] for the
     * simulated 49.4, now 30.3 in [19.7, 50.9]; its 20000 B 65.3 in [42.4, 101.9] for the
     * simulated 163.3, now 145.8 in [62.2, 227.5]. */
    if (q > p[k - 1] && mu < 0.0) {
        if (alt != NULL) {
            alt[0] = t[j];
            alt[1] = t[j] * sq / s1;
        }
        while (i > 0 && mu < 0.0) {
            s0 = steps_on(a, st, p[--i], m, u);
            if (s1 > s0 * STEPS_SAME)
                mu = (t[j] - t[i]) / (s1 - s0);
        }
        mu = fmax(mu, 0.0);
    }
    double v = t[j] + mu * (sq - s1);
    /* Beyond the largest, a line through two step costs all but alike (growing by less than
     * ALIKE_STEPS a doubling: a ring's 2(p-1) steps of m/p where the unit grows as the
     * bytes, no latency in it) carries their times' difference onto each step as if a step
     * cost it all: at most the larger of the step costs' ratio and the times' own growth
     * per doubling of p carried on (ABCI's Open MPI allreduce fitted at np 4-64, whose unit
     * np 4 read inside one node: 4 MiB at np 128 read 7227 us from np 32's 2367 and np 64's
     * 2508, for 2761 measured). */
    if (q > p[k - 1] && t[i] > 0 && t[j] > 0 && p[j] > p[i] &&
        s1 < s0 * pow(ALIKE_STEPS, log2((double)p[j] / (double)p[i]))) {
        double grown = t[j] * pow(t[j] / t[i], log((double)q / (double)p[j]) /
                                                   log((double)p[j] / (double)p[i]));
        v = fmin(v, fmax(t[j] * sq / s1, grown));
    }
    /* Between two measured np the line holds between their costs per step carried to q
     * (an affine cost in steps does, where q's step cost lies between theirs); where q's
     * does not, it runs off: a replay over the tiers, less the barrier's wait, is not
     * monotone in p (the fat tree's reduce of 64 B: 1.5094 us at np 4, 1.5096 at 16, 1.761
     * at 8, where the line read 827 us for the simulated 1.78). */
    if (q > p[0] && q < p[k - 1] && p[j - 1] < q) {
        double sl = steps_on(a, st, p[j - 1], m, u);
        double r0 = sl > 0 ? t[j - 1] * sq / sl : NAN, r1 = t[j] * sq / s1;
        if (isfinite(r0) && isfinite(r1))
            v = fmin(fmax(v, fmin(r0, r1)), fmax(r0, r1));
    }
    if (v > 0)
        return v;
    /* A line that falls to 0 or below (growth that set in at the larger np, carried back):
     * the cost per step of the nearest measured np. Below the smallest that is the
     * smallest's (fatnodes' ring allgather of 64 KiB, 52.3 us at np 16 inside a node and
     * 5990 at np 64 across four: np 64's read 665 us at np 8 for the simulated 24.4, np
     * 16's reads 24.4). */
    double sn = q < p[0] ? steps_on(a, st, p[0], m, u) : s1;
    return sn > 0 ? (q < p[0] ? t[0] : t[j]) * sq / sn : t[j] * sq / s1;
}

static double along(const cf_across *a, cf_steps st, long q, double m, const long *p,
                    const double *t, int k, double *d)
{
    return along_on(a, st, q, m, p, t, k, d, NULL, NULL);
}

/* The doublings of p from q to the nearest of the k measured p (increasing) where q lies
 * below the largest and is none of them: a reading between measured np is a line through
 * its neighbours, as unsure per doubling from them as one beyond (fitted at np 2, 4, 16 and
 * 64, Open MPI's Bruck alltoall of 64 B at np 32 read 9.87 us in [9.40, 10.36] on the
 * simulated flat cluster, where it takes 11.04; now [7.62, 12.78]). 0 at a measured np or
 * beyond the largest (along's *d). */
static double inside(long q, const long *p, int k)
{
    if (k < 1 || q >= p[k - 1])
        return 0.0;
    int j = 0;
    while (p[j] < q)
        j++;
    if (p[j] == q)
        return 0.0;
    double up = log2((double)p[j] / (double)q);
    return j == 0 ? up : fmin(up, log2((double)q / (double)p[j - 1]));
}

/* Between two measured np (q inside, none of the k measured p), the truth lies between the
 * cost per step of either neighbour carried to q, where the line through them (v) may run
 * past one (a jump at the upper one, a tier first crossed there: the fat tree's np 16,
 * whose cost per step np 8 does not share). *lo_f, *hi_f: those two readings over v, at
 * most and at least 1; 1 and 1 elsewhere. */
static void bracket(const cf_across *a, cf_steps st, long q, double m, const long *p,
                    const double *t, int k, double v, double *lo_f, double *hi_f)
{
    *lo_f = *hi_f = 1.0;
    if (k < 2 || q <= p[0] || q >= p[k - 1] || !(v > 0))
        return;
    int j = 1;
    while (p[j] < q)
        j++;
    if (p[j] == q)
        return;
    double sq = steps_at(a, st, q, m), s0 = steps_at(a, st, p[j - 1], m),
           s1 = steps_at(a, st, p[j], m);
    if (!(s0 > 0) || !(s1 > 0))
        return;
    double r0 = t[j - 1] * sq / s0 / v, r1 = t[j] * sq / s1 / v;
    if (isfinite(r0) && isfinite(r1)) { /* with the floor's margin, as the reading's own */
        *lo_f = fmin(1.0, fmin(r0, r1) / (1.0 + GRID_FLOOR));
        *hi_f = fmax(1.0, fmax(r0, r1) * (1.0 + GRID_FLOOR));
    }
}

/* [*lo_f, *hi_f] (bracket's factors about v) widened to hold reading r too; nothing where r
 * is NAN. */
static void hold_reading(double r, double v, double *lo_f, double *hi_f)
{
    if (!isfinite(r))
        return;
    *lo_f = fmin(*lo_f, r / v);
    *hi_f = fmax(*hi_f, r / v);
}

/* The replay of the algorithms that halve the vector (CF_STEPS_HALVING2, CF_STEPS_SMP_HALVING2)
 * at p, each rank's time over the grid's tiers where kept (else every message alike), in the
 * replays' units: SMPI's two-level reduce (cf_steps_smp_halving_us), Rabenseifner's
 * allreduce (cf_steps_halving_allreduce_us), MPICH's scatter-gather reduce (the two-level
 * one's with a node of each rank); NAN for any other. */
static double fold_replay_us(const cf_across *a, cf_steps st, long p, double m)
{
    const cf_across_grid *g = &a->grid;
    cf_tiers tr = g->tiers;
    tr.node_ranks = g->node_ranks;
    if (st == CF_STEPS_SMP_HALVING2)
        return cf_steps_smp_halving_us(p, m, g->msg_bytes, g->msg_unit_us, g->nmsg, &tr);
    if (st != CF_STEPS_HALVING2)
        return NAN;
    if (strcmp(a->pattern, "allreduce") == 0)
        return cf_steps_halving_allreduce_us(p, m, g->msg_bytes, g->msg_unit_us, g->nmsg, &tr);
    /* MPICH's scatter-gather reduce over all the ranks, a node of each; not Open MPI's
     * Rabenseifner reduce, whose fold and tree are its own */
    tr.node_ranks = 1;
    return strcmp(a->pattern, "reduce") == 0 && strstr(g->rules, "mpich") != NULL
               ? cf_steps_smp_halving_us(p, m, g->msg_bytes, g->msg_unit_us, g->nmsg, &tr)
               : NAN;
}

/* Whether a halving algorithm at q folds ranks in and out: q no power of two
 * (CF_STEPS_HALVING2); for SMPI's two-level reduce its nodes' count or their ranks no power of
 * two, or the last node short. */
static int folds_at(const cf_across_grid *g, cf_steps st, long q)
{
    if (st != CF_STEPS_SMP_HALVING2)
        return !cf_is_pow2(q);
    long node = g->node_ranks >= 1 ? g->node_ranks : 1, nodes = (q + node - 1) / node;
    return !cf_is_pow2(nodes) || !cf_is_pow2(q < node ? q : node) || q % node != 0;
}

/* Whether the interval of an algorithm that halves the vector at q holds what it holds
 * (the ends of [lo_f, hi_f]: the steps' reading, each measured np around q carried by the
 * replay, hold_fold_replay, and their measured times, bracket) with the backtests' width, not
 * bare: SMPI's two-level reduce (MPICH's scatter-gather among the nodes' first ranks) where q
 * folds ranks in and out (folds_at). None of those was tried where ranks fold, and at small
 * sizes all run above SimGrid's (pods.xml at np 27, 4 KiB: the steps' 11.45 us, np 16's and
 * 32's times carried 7.95 and 7.35, their middle 7.64, for 6.81; the ends were 7.35 and 12.02,
 * np 32's time with the bracket's margin): on eight platforms, np 6 to 72, 2 to 32 KiB, 29 of
 * 275 lay outside. Open MPI's Rabenseifner allreduce keeps them bare: its two readings lie
 * either side of SimGrid's (data/sim-uneven, its 92 at a measured size: the steps' below 86
 * times, the replay's above 60), none of its 240 there outside. */
static int fold_widened(const cf_across_grid *g, cf_steps st, long q)
{
    return st == CF_STEPS_SMP_HALVING2 && folds_at(g, st, q);
}

/* Those algorithms at q, none of the k measured p: [*lo_f, *hi_f] (factors of v, the steps'
 * reading) widened to hold the times of the measured np on either side of q carried to q by
 * their replay (fold_replay_us); the geometric mean of those readings, NAN where none. Their
 * steps' cost reads every np alike, but where q is no power of two (or the nodes' count, or
 * the last node is short) ranks fold in and out: in a reduce they leave early, in an
 * allreduce they wait two messages of the whole vector more, which no measured power of two
 * on full nodes shows (the replay reads SMPI's two-level reduce of 4096 B on SimGrid's
 * pods.xml, nodes of 2, at np 27 as 0.64 of np 32's 11.45 us, 7.35, for the simulated 6.81,
 * the steps' cost 11.45 in [8.70, 13.9]); beyond the measured np the replay follows the tiers
 * np's steps cross. The answer is the middle of the two readings (grid_read): the replay's
 * size for the folds runs past SimGrid's as often as short of it (Open MPI's allreduce at
 * np 6 to 56 on five platforms, 100 answers: median error 16.7% with the steps' reading,
 * 6.3% with the middle). Its interval is made about the middle as any reading's (the
 * backtests' width moves with it), holding both readings. */
static double hold_fold_replay(const cf_across *a, cf_steps st, long q, double m, const long *p,
                               const double *t, int k, double v, double *lo_f, double *hi_f)
{
    const cf_across_grid *g = &a->grid;
    if ((st != CF_STEPS_SMP_HALVING2 && st != CF_STEPS_HALVING2) || g->nmsg < 2 || !(v > 0))
        return NAN;
    int j = 0;
    while (j < k && p[j] < q)
        j++;
    if (j < k && p[j] == q)
        return NAN;
    double rq = fold_replay_us(a, st, q, m), lsum = 0.0;
    int nr = 0;
    for (int i = j - 1; i <= j && isfinite(rq); i++) {
        double rp = i >= 0 && i < k ? fold_replay_us(a, st, p[i], m) : NAN;
        if (rp > 0) {
            hold_reading(t[i] * rq / rp, v, lo_f, hi_f);
            lsum += log(t[i] * rq / rp);
            nr++;
        }
    }
    return nr > 0 ? exp(lsum / nr) : NAN;
}

/* An algorithm whose p - 1 messages are posted at once (CF_LAT_ONCE: the linear algorithms,
 * Open MPI's alltoall, bcast, reduce and allgather among them, whose root or every rank
 * sends or receives them all; MPICH's isend/irecv alltoall) waits for a latency about once
 * and then moves their bytes through one card: its cost at q over its cost at p as the
 * np=2 unit reads them, a latency (the unit's smallest size) and the bytes of q - 1 and
 * p - 1 messages (the unit at m less that); NAN without a unit of two sizes. What a reading
 * from a single measured np carries, where p - 1 steps of a whole message each would read
 * the latency q - 1 times (SMPI's flat cluster, Open MPI's alltoall of 4 B: 2.03 us at np
 * 4, its fitted time, the faster of two samples whose median is 2.54; 2.04 at np 8, read
 * 4.74 from np 4 so). */
static double once_ratio(const cf_across_grid *g, long q, long p, double m)
{
    if (g->nunit < 2 || p < 2)
        return NAN;
    double lat = g->unit_t_us[0], msg = cf_unit_time(g->unit_bytes, g->unit_t_us, g->nunit, m);
    double bytes = fmax(0.0, msg - lat);
    double r = (lat + (double)(q - 1) * bytes) / (lat + (double)(p - 1) * bytes);
    return r > 0 && isfinite(r) ? r : NAN;
}

/* The distinct sizes of the grid, increasing, into sz (CF_GRID_MAX); how many. Every answer
 * reads them: a grid has a few dozen sizes over its np, each inserted in order where it is
 * new (sorting every point took a third of an answer's time); past GRID_FEW_SIZES, sorted. */
#define GRID_FEW_SIZES 64
static int grid_sizes(const cf_across_grid *g, double *sz)
{
    int d = 0;
    for (int i = 0; i < g->n && d <= GRID_FEW_SIZES; i++) {
        double m = g->pt[i].m;
        int lo = 0, hi = d;
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (sz[mid] < m)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < d && sz[lo] == m)
            continue;
        memmove(sz + lo + 1, sz + lo, (size_t)(d - lo) * sizeof *sz);
        sz[lo] = m;
        d++;
    }
    if (d <= GRID_FEW_SIZES)
        return d;
    int n = 0;
    for (int i = 0; i < g->n; i++)
        sz[n++] = g->pt[i].m;
    cf_sort_doubles(sz, (size_t)n);
    d = 0;
    for (int i = 0; i < n; i++)
        if (d == 0 || sz[i] != sz[d - 1])
            sz[d++] = sz[i];
    return d;
}

/* The relative error of reading p[k-1] from the two below it; -1 when there are not three. */
static double backtest(const cf_across *a, cf_steps st, double m, const long *p, const double *t,
                       int k)
{
    if (k < 3)
        return -1;
    double d, v = along(a, st, p[k - 1], m, p, t, k - 1, &d);
    return d > 0 ? fabs(v - t[k - 1]) / t[k - 1] / d : -1;
}

/* What reading one doubling beyond misses at one size of an algorithm: the reading of its
 * largest np from those below, and of the one below that at half weight, as the cost per
 * step may change between them (contention setting in). -1 when there are not 3 np. */
static double size_error(const cf_across *a, cf_steps st, double m, const long *p, const double *t,
                         int k)
{
    double e = -1;
    for (int drop = 0; drop < 2 && k - drop >= 3; drop++) {
        double v = backtest(a, st, m, p, t, k - drop);
        if (v >= 0)
            e = fmax(e, drop ? 0.5 * v : v);
    }
    return e;
}

/* The measured size nearest m (in log; of two as near, the larger): an index into sz
 * (increasing), -1 for none. */
static int nearest_size(const double *sz, int ns, double m)
{
    int best = -1;
    for (int i = 0; i < ns; i++)
        if (best < 0 || fabs(log(fmax(sz[i], 1.0) / fmax(m, 1.0))) <=
                            fabs(log(fmax(sz[best], 1.0) / fmax(m, 1.0))))
            best = i;
    return best;
}

double cf_across_grid_nearest_m(const cf_across_grid *g, double m)
{
    /* As nearest_size over the grid's sizes, without sorting them, the distance in log size
     * as nearest_size and borrow read it (a ratio test would break exact ties, 16 and 25
     * about 20, another way than they do); the best's kept, not read again a point. */
    double best = 0.0, e = INFINITY, mm = fmax(m, 1.0);
    for (int i = 0; i < g->n; i++) {
        double d = fabs(log(fmax(g->pt[i].m, 1.0) / mm));
        if (i == 0 || d < e || (d == e && g->pt[i].m > best)) {
            best = g->pt[i].m;
            e = d;
        }
    }
    return best;
}

/* The cost per step of the point measured at (p, m), whichever algorithm ran there: -1 when
 * none was, or when its steps are not of the kind of st (cost_family: a per-call tree's
 * messages are not another algorithm's steps of T2), or, with once 0 or 1, where whether
 * its messages are posted at once (CF_LAT_ONCE) is not once: a linear algorithm's time over
 * its p - 1 overlapping messages is no cost of a step that waits for the one before (SMPI's
 * flat cluster under the ompi selector fitted at np 2-8: Bruck's 4 steps at np 16, 4 B, took
 * its linear alltoall's 2.04 us at np 8 over 7, 1.17 us in all, below one ping-pong's 2.03,
 * for the simulated 8.09). once -1: either. p 0: the largest p measured at m. alike_at: that
 * point where an algorithm of st's kind ran there (its algorithm into *r), else NULL; rho_at:
 * its cost per step (*at its np), else -1. */
static const cf_grid_point *alike_at(const cf_across *a, cf_steps st, int once, long p, double m,
                                     cf_rule_alg *r)
{
    const cf_across_grid *g = &a->grid;
    const cf_grid_point *pt = NULL;
    for (int i = 0; i < g->n; i++)
        if (g->pt[i].m == m && (p > 0 ? g->pt[i].p == p : pt == NULL || g->pt[i].p > pt->p))
            pt = &g->pt[i];
    if (pt == NULL || cf_rules_pick(g->rules, g->node_ranks, a->pattern, pt->p, pt->m, r) != 0 ||
        cost_family(g, r->steps) != cost_family(g, st) ||
        (once >= 0 && (r->latency == CF_LAT_ONCE) != once))
        return NULL;
    return pt;
}

static double rho_at(const cf_across *a, cf_steps st, int once, long p, double m, long *at)
{
    cf_rule_alg r;
    const cf_grid_point *pt = alike_at(a, st, once, p, m, &r);
    if (pt == NULL)
        return -1;
    *at = pt->p;
    return pt->t_us / steps_at(a, r.steps, pt->p, pt->m);
}

/* Whether the pattern's np=2 time at m moved no data: below a quarter of the ping-pong's
 * one-way time there, where that time is the bytes' (four times its smallest size's or
 * more), as fit's pair bound reads it (SMPI 3.32's ompi bcast on ranks that share a host:
 * 0.72 us at every size). A reading in steps of those times alone says nothing there. */
static int unit_moved_nothing(const cf_across_grid *g, double m)
{
    if (g->nunit < 2 || g->nmsg < 2)
        return 0;
    double pp = cf_unit_time(g->msg_bytes, g->msg_unit_us, g->nmsg, m);
    return pp >= 4.0 * g->msg_unit_us[0] &&
           cf_unit_time(g->unit_bytes, g->unit_t_us, g->nunit, m) < 0.25 * pp;
}

/* rho_at at size m for q, the largest np measured there (rho_at's p 0), or where q lies
 * between two np at which an algorithm of st's kind ran and the pattern loads every rank's
 * links at once, the line in log p through the cost per step of the nearest below q and the
 * nearest above (*at the one above): such a step costs as the network is loaded at q's
 * scale, which the largest np's contention is not (SMPI's mpich allgather on tornodes.xml, a
 * torus of nodes, Bruck's, which runs at no power of two, 1000 B at np 27: 60.9 us from the
 * recursive doubling's cost per step at np 128, 34.7 between np 16's and 32's, simulated
 * 35.7). A rooted pattern keeps the largest np's: SMPI's ompi bcast segments its chains and
 * pipelines by bands of p and m, and the np around q ran others (on ethflat.xml, 2 MiB at
 * np 8, the store-and-forward chain: 2187 us simulated, 2187 from np 64's pipeline, 6439
 * between np 4's and 16's). -1 where it reads neither (rho_at's -1 at the largest np). */
static double rho_near(const cf_across *a, cf_steps st, int once, long q, double m, long *at)
{
    const cf_coll *c = cf_pattern_facts(a->pattern);
    const cf_across_grid *g = &a->grid;
    long lo = 0, hi = 0, x;
    cf_rule_alg r;
    for (int i = 0; c != NULL && !c->rooted && i < g->n; i++) {
        long p = g->pt[i].p;
        if (g->pt[i].m != m || (p <= q ? p <= lo : hi > 0 && p >= hi) ||
            alike_at(a, st, once, p, m, &r) == NULL)
            continue;
        if (p <= q)
            lo = p;
        else
            hi = p;
    }
    double r0 = lo > 0 && lo < q && hi > 0 ? rho_at(a, st, once, lo, m, &x) : -1,
           r1 = r0 > 0 ? rho_at(a, st, once, hi, m, &x) : -1;
    if (!(r0 > 0) || !(r1 > 0))
        return rho_at(a, st, once, 0, m, at);
    double f = log((double)q / (double)lo) / log((double)hi / (double)lo);
    *at = hi;
    return exp((1 - f) * log(r0) + f * log(r1));
}

/* For an algorithm measured at no np (Open MPI's allgather runs neighbor exchange and ring
 * only from 32 processes on): the cost per step of whichever algorithm costed alike
 * (cost_family) ran at a size, at the size nearest m (in log) where one did (rho_near: at
 * the largest np measured there, contention included, or between the np around q); *d
 * counts one doubling more than lies between q and the np read (none inside them), for the
 * change of algorithm, *off the doublings of size between (Open MPI's bcast fitted at np
 * 2-16 ran its 4-nomial tree to 2 KiB, its binomial tree to 512 KiB at np 16, and scatter
 * then allgather from 1 MiB, whose steps are no tree's: the 4-nomial tree at np 64, 1 MiB,
 * takes the binomial tree's cost per message at 512 KiB). */
static int borrow(const cf_across *a, cf_rule_alg alg, long q, double m, const double *sz,
                  int ns, double *rho, double *d, double *off, long *from, int *alone)
{
    int best = -1;
    long top = 0;
    /* The cost per step of an algorithm whose messages go at once as this one's do; of any
     * costed alike where the np=2 times moved nothing at m: a cost per step read in them at
     * another size is no cost at this one, and the nearest size's of whatever ran is the
     * least wrong (the islands platform under the ompi selector fitted at np 2-8: scatter
     * then allgather at np 16 for 1 MiB, simulated 1961 us, read 550 from the linear bcast's
     * at np 8, 48 from the binomial tree's at 4 KiB). */
    int once = unit_moved_nothing(&a->grid, m) ? -1 : alg.latency == CF_LAT_ONCE;
    for (int i = 0; i < ns; i++) {
        long at = 0;
        double r = rho_near(a, alg.steps, once, q, sz[i], &at);
        if (r >= 0 && (best < 0 || fabs(log(fmax(sz[i], 1.0) / fmax(m, 1.0))) <=
                                       fabs(log(fmax(sz[best], 1.0) / fmax(m, 1.0))))) {
            best = i;
            *rho = r;
            top = at;
        }
    }
    /* A replay over the tiers (cost_family 2) that no algorithm costed alike ran at, anywhere
     * (Bruck's alltoall, the one such alltoall, fitted at np 2-8, where it runs from np 16):
     * where the caller takes it (alone not NULL, set to 1), the replay answers by itself, its
     * messages the ping-pong's and its latencies the probe's, as far from the largest
     * measured np as from any (racks-ompi, 4 B at np 16: 6.48 us simulated, the replay 6.46;
     * the fitted formula read 2.75). So do steps of T2 (cost_family 0) where only per-call
     * trees ran, each step the pattern's own np=2 time at its size (SMPI's mpich reduce, fitted
     * at np 2-16 inside one node of 16 cores, where its trees ran, and asked at np 64, where
     * scatter-gather runs across 4 nodes: 4 KiB read 10.1 us for the simulated 10.2 with the
     * latency probe's, 0.19 from the fitted formula). */
    int family = cost_family(&a->grid, alg.steps);
    if (best < 0 && alone != NULL && family != 1 && a->nnp > 0) {
        *alone = 1;
        *rho = 1.0;
        *from = a->np[a->nnp - 1];
        *d = fmax(0.0, log2((double)q / (double)*from)) + 1.0;
        *off = 0.0;
        return 0;
    }
    if (best < 0)
        return -1;
    *from = top;
    *d = fmax(0.0, log2((double)q / (double)top)) + 1.0;
    *off = fabs(log2(fmax(m, 1.0) / fmax(sz[best], 1.0)));
    return 0;
}

/* How much the cost per step grew at the size nearest m from np p to the largest np measured
 * there, whichever algorithms ran (at least 1: an algorithm that overlaps its steps better
 * says nothing of the network); *d as borrow's. -1 when the size has no point at p, or p is
 * its largest. */
static int step_growth_from(const cf_across *a, cf_steps st, long q, double m, const double *sz,
                            int ns, long p, double *gain, double *d, long *from)
{
    int best = nearest_size(sz, ns, m);
    long top, at;
    double r1 = best < 0 ? -1 : rho_at(a, st, -1, 0, sz[best], &top);
    double r0 = r1 < 0 ? -1 : rho_at(a, st, -1, p, sz[best], &at);
    if (r0 <= 0 || top <= p)
        return -1;
    *gain = fmax(1.0, r1 / r0);
    *d = fmax(0.0, log2((double)q / (double)top)) + 1.0;
    *from = top;
    return 0;
}

/* A jump of the cost per step at the largest measured np (its growth over the one below
 * above CF_GRID_CONTENTION) may be that np's own: a tier boundary crossed once (a node's or
 * a leaf switch's: the multicore and fat-tree platforms' jumps at np 16 fell back at 32), a
 * torus dimension partly filled (its cost per step at np 64 fell back at 128). The lower end
 * then also holds the cost per step of the np below the top carried to q: that reading over
 * v, the grid's own at this size (at most 1); 1 where the top did not jump. */
static double below_top(const cf_across *a, cf_steps st, long q, double m, const long *p,
                        const double *t, int k, double v)
{
    if (k < 3 || q <= p[k - 1] || !(v > 0) || !(growth(a, st, m, p, t, k) > CF_GRID_CONTENTION))
        return 1.0;
    double s = steps_at(a, st, p[k - 2], m), r = t[k - 2] * steps_at(a, st, q, m) / s / v;
    return s > 0 && r > 0 && isfinite(r) ? fmin(1.0, r) : 1.0;
}

/* The grid's reading at (q, m): T, the relative half-width w of the grid's own interval,
 * the doublings d the reading spans, whether it has a backtest of its own there (own), how
 * its algorithm is costed (cost_family) and the algorithm. */
typedef struct grid_reading {
    double t, w, w_up, d; /* w_up: the upper end's, w_up >= w */
    double lo_f;          /* the lower end at most this times t (below_top, bracket) */
    double hi_f;          /* the upper end at least this times t (bracket) */
    double in;            /* the doublings to the nearest measured np, q between them */
    double step_b;        /* between two measured sizes across a step (stepped_between):
                             the smaller; 0 elsewhere */
    double step_lo;       /* there, the reading at step_b over the reading at m (<= 1); 1
                             elsewhere */
    double gain;          /* the step growth carried from below (1: none) */
    double d_model;       /* the doublings of p the fitted model's backtest bounds: d + in,
                             or with a growth carried, those from the np it was carried to */
    long read_np;         /* the np the reading was made at (from_np before a growth) */
    long from_np;         /* the np whose cost the reading carries (see from) */
    int own;
    int family; /* cost_family: 0 steps of T2; 1 a per-call tree (cf_steps_per_call); 2 a
                   replay over the grid's tiers (cf_steps_tiered) */
    int alone;  /* the replay read alone, no algorithm costed alike having run (borrow) */
    int unreplayed; /* a replayed algorithm read from another's cost per step, no tiers kept */
    int replay_held; /* the answer the middle of the steps' reading and a replay's, the
                        interval holding both (hold_fold_replay): 2 where q folds ranks in and
                        out (folds_at), 1 elsewhere */
    int fold_widened; /* the interval holds lo_f's and hi_f's ends with the backtests'
                         width (fold_widened) */
    const char *algorithm;
} grid_reading;

/* One end of a reading between sizes: the nearest size at or below m where the algorithm
 * ran, or at or above it (at: its index, -1 none); the cost per step read there (t), its
 * doublings of p read (d), its backtest error (e), the floor below the top (f), the
 * doublings inside the measured np (in), its bracket (lo, hi) and the largest np (p). */
typedef struct grid_end {
    int at;
    double v; /* the reading there (the time at q) */
    double t, d, e, f, in, lo, hi;
    long p;
    int held; /* its reading the middle of the steps' and a replay's (hold_fold_replay) */
} grid_end;

/* The log-log slope of the readings v0 at x0 and v1 at x1; NAN where either is none. */
static double chord(double x0, double v0, double x1, double v1)
{
    return x1 > x0 && x0 > 0 && v0 > 0 && v1 > 0 ? log(v1 / v0) / log(x1 / x0) : NAN;
}

/* Whether a step lies between the measured sizes x[1] < x[2] around m, the grid's readings
 * there v[1] and v[2] (x[0] below and x[3] above: the sizes past them, 0 where none): where
 * the readings grow faster than the bytes (within one protocol a time grows no faster than
 * alpha + beta m), or the chord between them is steeper than those on both sides of it (a
 * cost alpha + beta m steepens towards 1 as m grows, and falls back only past a step).
 * SimGrid's sends wait for their receiver from 64 KiB, a library's eager limit ends: the line
 * between the two sizes cannot know where, and m may lie below it, where the time is the
 * smaller size's and a little more (racks.xml, bcast at np 100: 45.3 us simulated at 20000 B,
 * read 58.5 in [46.9, 85.5] on the line from 16 KiB's 48.8 to 64 KiB's 205; MPICH's
 * two-level allreduce there, 3.4 times from 16 to 64 KiB, 1.9 and 2.3 on either side). */
static int stepped_between(const double *x, const double *v)
{
    double mid = chord(x[1], v[1], x[2], v[2]);
    if (!isfinite(mid))
        return 0;
    if (mid > 1.0)
        return 1;
    double below = chord(x[0], v[0], x[1], v[1]), above = chord(x[2], v[2], x[3], v[3]);
    return isfinite(below) && isfinite(above) && mid > below && mid > above;
}

/* Whether st is an algorithm the grid replays over the latency probe's tiers where it keeps
 * them, read here from another's cost per step for want of them (cf_estimate.unreplayed). */
static int unreplayed(const cf_across_grid *g, cf_steps st)
{
    return cf_steps_tiered(st) && !cf_across_grid_tiered(g, st);
}

/* The grid's reading at (q, m): 0, or -1 when the grid cannot answer there (out then
 * zeroed: callers test its fields in the same condition, which the compiler may read
 * first). */
static int grid_read(const cf_across *a, long q, double m, grid_reading *out)
{
    const cf_across_grid *g = &a->grid;
    memset(out, 0, sizeof *out);
    out->step_lo = 1.0;
    cf_rule_alg r;
    if (cf_across_formula_only(a) || q < 2 ||
        cf_rules_pick(g->rules, g->node_ranks, a->pattern, q, m, &r) != 0)
        return -1;
    double sz[CF_GRID_MAX];
    int ns = grid_sizes(g, sz);
    /* The nearest measured sizes at or below and at or above m where r ran. */
    grid_end end[2] = {{-1, 0, 0, 0, -1, 1, 0, 1, 1, 0, 0}, {-1, 0, 0, 0, -1, 1, 0, 1, 1, 0, 0}};
    grid_end *B = &end[0], *A = &end[1];
    long p[CF_ACROSS_NP_MAX];
    double tt[CF_ACROSS_NP_MAX];
    /* The readings with the units at their bounds between the measured sizes (unit_bound),
     * held in the interval. */
    grid_unit ub[2];
    unit_bound(g, 0, &ub[0]);
    unit_bound(g, 1, &ub[1]);
    /* Only the nearest sizes r ran at matter, at or below m and at or above it: looked for
     * from m outwards (every size read, each a scan of the grid, made an answer between
     * fitted np cost 23 us on sim-flat). */
    int first_above = 0;
    while (first_above < ns && sz[first_above] < m)
        first_above++;
    int look[2] = {first_above < ns && sz[first_above] == m ? first_above : first_above - 1,
                   first_above};
    /* Past each end where m lies between two sizes, the next size r ran at and its reading
     * (stepped_between's test; 0 where none). */
    double outer_sz[2] = {0, 0}, outer_v[2] = {0, 0};
    for (int side = 0; side < 2; side++)
        for (int i = look[side]; i >= 0 && i < ns; i += side ? 1 : -1) {
            int k = group_at(a, r.name, sz[i], p, tt);
            if (k == 0)
                continue;
            /* alt: the readings the interval holds beside v (along_on's two, and the units'
             * bounds'), where v is the steps' reading */
            double d, alt[4], v = along_on(a, r.steps, q, sz[i], p, tt, k, &d, NULL, alt);
            if (end[side].at >= 0) { /* the end is this side's: the size past it */
                if (i != end[side].at) {
                    outer_sz[side] = sz[i];
                    outer_v[side] = v;
                }
                break;
            }
            /* Posted at once and measured at one np alone: read with the latency once, the
             * interval holding the reading of p - 1 whole steps too (once_ratio). */
            double steps_v = NAN; /* the reading of p - 1 whole steps, where it is not v */
            double once = k == 1 && r.latency == CF_LAT_ONCE ? once_ratio(g, q, p[0], sz[i]) : NAN;
            if (isfinite(once)) {
                steps_v = v;
                v = tt[0] * once;
                alt[0] = alt[1] = alt[2] = alt[3] = NAN;
            } else {
                double dd;
                alt[2] = along_on(a, r.steps, q, sz[i], p, tt, k, &dd, &ub[0], NULL);
                alt[3] = along_on(a, r.steps, q, sz[i], p, tt, k, &dd, &ub[1], NULL);
            }
            /* A measured m is both ends. */
            for (int j = 0; j < 2; j++) {
                grid_end *x = &end[j];
                if (x->at >= 0 || !(j ? sz[i] >= m : sz[i] <= m))
                    continue;
                x->at = i;
                x->v = v;
                x->d = d;
                x->in = inside(q, p, k);
                bracket(a, r.steps, q, sz[i], p, tt, k, v, &x->lo, &x->hi);
                hold_reading(steps_v, v, &x->lo, &x->hi);
                for (int h = 0; h < 4; h++) { /* with the floor's margin, as bracket's */
                    hold_reading(alt[h] * (1.0 + GRID_FLOOR), v, &x->lo, &x->hi);
                    hold_reading(alt[h] / (1.0 + GRID_FLOOR), v, &x->lo, &x->hi);
                }
                double mid = hold_fold_replay(a, r.steps, q, sz[i], p, tt, k, v, &x->lo, &x->hi);
                x->held = isfinite(mid) && mid > 0;
                double vv = v; /* the middle of the steps' reading and the replay's */
                if (isfinite(mid) && mid > 0) {
                    vv = sqrt(v * mid);
                    x->lo *= v / vv; /* the factors of vv that hold both readings */
                    x->hi *= v / vv;
                }
                x->t = vv / steps_at(a, r.steps, q, sz[i]);
                x->p = p[k - 1];
                x->e = size_error(a, r.steps, sz[i], p, tt, k);
                x->f = below_top(a, r.steps, q, sz[i], p, tt, k, vv); /* of the end's reading */
            }
            if (sz[i] == m)
                break; /* a measured m: both ends */
        }
    double rho, d, off = 0.0; /* off: how far m lies beyond the sizes r was measured at */
    long from = 0; /* the np the reading carries: the smaller end's below; a borrow's np, or
                      the np above q it read between (rho_near) */
    int borrowed = B->at < 0 && A->at < 0;
    if (borrowed) {
        if (borrow(a, r, q, m, sz, ns, &rho, &d, &off, &from, &out->alone) != 0)
            return -1;
        out->unreplayed = !out->alone && unreplayed(g, r.steps);
    } else if (B->at >= 0 && A->at >= 0) {
        double x0 = log(fmax(sz[B->at], 1.0)), x1 = log(fmax(sz[A->at], 1.0));
        double f = x1 > x0 ? (log(fmax(m, 1.0)) - x0) / (x1 - x0) : 0.0;
        rho = exp((1 - f) * log(B->t) + f * log(A->t));
        d = fmax(B->d, A->d);
        double xs[4] = {outer_sz[0], sz[B->at], sz[A->at], outer_sz[1]},
               vs[4] = {outer_v[0], B->v, A->v, outer_v[1]};
        /* Not from a size that moves nothing (a reduction of fewer bytes than an element):
         * its time is no protocol's. The reading at the smaller size held no lower than the
         * bytes' ratio below the reading at m: within one protocol a time falls no faster
         * than its bytes (meshnodes.xml, allgather at np 11 of 57052 B: the grid read 0.124
         * us at 16 KiB for the 119 at m). */
        if (stepped_between(xs, vs) && A->v > B->v &&
            !cf_across_moves_nothing(a->datatype, sz[B->at])) {
            out->step_b = sz[B->at];
            out->step_lo = fmin(1.0, fmax(sz[B->at] / fmax(m, 1.0),
                                          B->t * steps_at(a, r.steps, q, sz[B->at]) /
                                              (rho * steps_at(a, r.steps, q, m))));
        }
    } else if (B->at >= 0) {
        rho = B->t;
        d = B->d;
        off = log2(fmax(m, 1.0) / fmax(sz[B->at], 1.0));
    } else {
        rho = A->t;
        d = A->d;
        off = log2(fmax(sz[A->at], 1.0) / fmax(m, 1.0));
    }
    /* Far beyond the sizes r was measured at (Open MPI switches by size at each band of p
     * differently: reduce's binomial tree runs from 4 KiB at np 16 but at every size from
     * np 32), the cost per step at this size, of whatever ran (borrow: at the largest np, or
     * between the np around q), says more than r's at sizes far off. */
    double rb, dd, ob;
    long fb_np;
    if (!borrowed && off > GRID_BORROW_OFF &&
        borrow(a, r, q, m, sz, ns, &rb, &dd, &ob, &fb_np, NULL) == 0 && ob < off) {
        borrowed = 1;
        out->unreplayed = unreplayed(g, r.steps);
        rho = rb;
        d = dd;
        off = ob;
        from = fb_np;
    }
    /* The ends the reading took (not a borrow) that read the middle of two readings: 2 where
     * q folds ranks in and out (folds_at), 1 elsewhere (a replay beyond the measured np,
     * following the tiers its steps cross). */
    if (!borrowed && ((B->at >= 0 && B->held) || (A->at >= 0 && A->held))) {
        out->replay_held = folds_at(g, r.steps, q) ? 2 : 1;
        out->fold_widened = fold_widened(g, r.steps, q);
    }
    /* Far below q in process counts (Open MPI's pairwise alltoall runs at np 2 and then from
     * np 64 on): r's reading carries no contention of the np between, while the cost per
     * step of whatever ran there shows how the network loaded up to the largest measured np
     * (alltoall's per step time on a 4:1 fat tree triples from np 2 to 32). That growth,
     * never less than 1, is r's too where it spans fewer doublings of p, the change of
     * algorithm counted as one. The interval keeps r's doublings: how the growth goes on
     * from the largest measured np is as unknown as before. */
    double gain;
    long p_from = B->at < 0 ? A->p : A->at < 0 || B->p < A->p ? B->p : A->p, top_np;
    /* Between two sizes, the smaller np of the two ends: the reading is no better informed
     * than its less informed end (fatnodes-ompi fitted at np 2-32: bcast of 2 KiB at np 64
     * lies between 1 KiB, whose knomial tree ran to np 16, and 4 KiB, whose ran to np 32;
     * simulated 11.19 us, where judged against np 32 it read 1.69 in [0.42, 6.81]). */
    if (!borrowed)
        from = p_from;
    if (!borrowed && d > 0 &&
        step_growth_from(a, r.steps, q, m, sz, ns, p_from, &gain, &dd, &top_np) == 0 && dd < d &&
        gain > 1.0) {
        rho *= gain;
        out->gain = gain;
        out->d_model = dd;
        out->read_np = from;
        from = top_np;
    }
    if (!(rho > 0) || !isfinite(rho))
        return -1;
    out->t = rho * steps_at(a, r.steps, q, m);
    /* Beyond the measured sizes of this algorithm the step cost carries the size alone:
     * a tenth of the interval's step per doubling of size. */
    /* The error of the readings at the sizes used, at least the median over every size;
     * twice that where these sizes cannot tell. */
    double e = borrowed ? -1 : fmax(B->e, A->e);
    int own = e >= 0; /* the grid read this algorithm's largest np from those below */
    e = e < 0 ? 2.0 * g->err_per_doubling : fmax(e, g->err_per_doubling);
    double step = GRID_FLOOR_STEP + GRID_ERR_K * e + GRID_GROWTH_K * log(fmax(g->step_growth, 1.0));
    double step_up = step + GRID_GROWTH_K * fmax(0.0, log(fmax(g->step_growth_max, 1.0)) -
                                                          log(fmax(g->step_growth, 1.0)));
    /* Between measured np: the doublings to the nearest, of the end read from farther. */
    double in = borrowed                     ? 0.0
                : B->at >= 0 && A->at >= 0 ? fmax(B->in, A->in)
                : B->at >= 0               ? B->in
                                           : A->in;
    out->w = GRID_FLOOR + step * (d + in + 0.1 * off);
    out->w_up = GRID_FLOOR + step_up * (d + in + 0.1 * off);
    out->lo_f = borrowed ? 1.0 : fmin(B->at >= 0 ? B->f : 1.0, A->at >= 0 ? A->f : 1.0);
    out->in = in;
    out->hi_f = 1.0;
    if (!borrowed) {
        out->lo_f = fmin(out->lo_f, fmin(B->at >= 0 ? B->lo : 1.0, A->at >= 0 ? A->lo : 1.0));
        out->hi_f = fmax(B->at >= 0 ? B->hi : 1.0, A->at >= 0 ? A->hi : 1.0);
    }
    if (!(out->gain > 1.0))
        out->d_model = d + in;
    out->gain = fmax(out->gain, 1.0);
    out->d = d;
    out->own = own;
    out->family = cost_family(g, r.steps);
    out->algorithm = r.name;
    out->from_np = from;
    return 0;
}

long cf_across_grid_from_np(const cf_across *a, long q, double m)
{
    grid_reading r;
    return grid_read(a, q, m, &r) == 0 ? r.from_np : 0;
}

/* The times g measured at size m at the nearest np below and above q (NAN where none was):
 * 1 where both were, else 0. */
static int measured_around(const cf_across_grid *g, long q, double m, double *below,
                           double *above)
{
    long pb = 0, pa = 0;
    double tb = NAN, ta = NAN;
    for (int i = 0; i < g->n; i++) {
        if (g->pt[i].m != m)
            continue;
        if (g->pt[i].p < q && g->pt[i].p > pb) {
            pb = g->pt[i].p;
            tb = g->pt[i].t_us;
        }
        if (g->pt[i].p > q && (pa == 0 || g->pt[i].p < pa)) {
            pa = g->pt[i].p;
            ta = g->pt[i].t_us;
        }
    }
    *below = tb;
    *above = ta;
    return pb > 0 && pa > 0;
}

int cf_across_grid_around(const cf_across *a, long q, double m, double *below, double *above)
{
    return measured_around(&a->grid, q, m, below, above);
}

/* Between two measured np at a measured size, whatever ran at them: a call over more ranks
 * costs more, mostly, so the interval holds the times measured at the nearest np below and
 * above (with the floor's margin) where the reading's own does not. The reading's step
 * counts miss what they cannot know, a node's inner tiers (ORFEO's Open MPI reduce of 64 B
 * on one 128-core node: 0.14 us at np 2, 0.27 at 4, 0.69 at 8; fitted at np 2, 8, 32, 64
 * and 256, np 4 read from np 8's binary tree 0.59 in [0.39, 1.15]; so fitted, 20% of
 * ORFEO's reduce at np 4 and 35% of its bcast lay inside their intervals, 90% and 100% now). */
static void between_measured(const cf_across_grid *g, long q, double m, double *lo, double *hi)
{
    double tb, ta;
    if (measured_around(g, q, m, &tb, &ta))
        cf_across_hold_between(tb, ta, lo, hi);
}

void cf_across_hold_between(double t0, double t1, double *lo, double *hi)
{
    if (!(t0 > 0) || !(t1 > 0))
        return;
    *lo = fmin(*lo, fmin(t0, t1) / (1.0 + GRID_FLOOR));
    *hi = fmax(*hi, fmax(t0, t1) * (1.0 + GRID_FLOOR));
}

int cf_across_grid_predict(const cf_across *a, long q, double m, cf_estimate *out)
{
    grid_reading r;
    if (grid_read(a, q, m, &r) != 0)
        return -1;
    double w = r.w, w_up = r.w_up;
    /* Without a backtest of its own here (the algorithm ran at fewer than three measured np,
     * or its cost is borrowed), the rules' step count is untested beyond the measured np:
     * the fitted model's backtest at this size, per doubling the reading spans (from the np
     * it was read at, which may lie far below the largest measured, or from the np whose
     * growth it carries: r.d_model), bounds it too. For a per-call tree or a replay over the
     * tiers, the grid's own backtest of such readings of its family (tree_err,
     * tiered_tree_err) bounds it where it is the smaller: the fitted model's misses there are
     * its formula's (one cost in p for algorithms the rules switch between), not the trees'
     * or the replay's. The smaller over the doublings of both ends, the fitted model's with
     * its tier crossings counted apart (cf_across_bt_ln). */
    int source;
    double fe = cf_across_extrap_err(a, m, &source);
    double te = r.family == 2 ? a->grid.tiered_tree_err : a->grid.tree_err;
    /* The widening (ln) of the reading with the growth it carries (r.d_model doublings) and
     * of the one without it (r.d + r.in, the lower end's where there is a growth). */
    double up = cf_across_bt_ln(a, m, r.from_np, q, r.d_model, fe);
    double down = cf_across_bt_ln(a, m, r.read_np, q, r.d + r.in, fe);
    double d_lo = r.gain > 1.0 ? r.d + r.in : 0.0;
    if (r.family && isfinite(fe) && isfinite(te) &&
        te * (r.d_model + d_lo) < up + (d_lo > 0 ? down : 0.0)) {
        fe = te;
        source = CF_BT_TREES;
        up = te * r.d_model;
        down = te * (r.d + r.in);
    }
    cf_estimate_bt_clear(out);
    /* The reading without the growth it carries (r.gain) spans the doublings from the np it
     * was read at (r.d + r.in), the lower end's; the reading with it, those from the np the
     * growth was carried to (r.d_model): pairwise's alltoall read from np 2 with linear's
     * growth to np 32 (fatnodes-ompi at np 64 and 1 MiB: 60386 us, simulated 73537) reached
     * x3e6 above it, five doublings of the fitted model's miss of x19.8 a doubling (one node
     * to two at np 32), x393 now. */
    double w_lo = w;
    if (!r.own && isfinite(fe) && r.d_model > 0 && expm1(up) > w) {
        w = expm1(up);
        w_up = fmax(w_up, w);
        out->bt_err = fe;
        out->bt_doublings = r.d_model;
        out->bt_from = r.from_np;
        out->bt_source = source;
        if (source != CF_BT_TREES)
            cf_estimate_bt_tiers(out, a, m, r.from_np, q, r.d_model, 0);
    }
    w_lo = fmax(w, w_lo);
    if (!r.own && isfinite(fe) && r.gain > 1.0 && expm1(down) > w_lo) {
        w_lo = expm1(down);
        out->bt_err = fe;
        out->bt_lo_doublings = r.d + r.in;
        out->bt_lo_from = r.read_np;
        out->bt_from = r.from_np; /* the np whose growth the reading carries */
        out->bt_source = source;
        if (source != CF_BT_TREES)
            cf_estimate_bt_tiers(out, a, m, r.read_np, q, r.d + r.in, 1);
    }
    /* The step growth borrowed from other algorithms raises the estimate; whether it carries
     * over to this one is untested, so the interval still holds the reading without it. */
    out->t_us = r.t;
    /* The ends of [lo_f, hi_f] held with the backtests' width, not bare (fold_widened). */
    double fold_w_lo = r.fold_widened ? 1.0 + w_lo : 1.0;
    double fold_w_up = r.fold_widened ? 1.0 + w_up : 1.0;
    out->lo_us = fmin(r.t / (r.gain * (1.0 + w_lo)), r.t * r.lo_f / fold_w_lo);
    /* Across a step between the measured sizes around m (stepped_between), m may lie below
     * it: the lower end holds the reading at the smaller size, with the same width. */
    double step_lo = r.t * r.step_lo / (r.gain * (1.0 + w_lo));
    out->step_below = 0.0;
    if (r.step_b > 0 && step_lo < out->lo_us) {
        out->lo_us = step_lo;
        out->step_below = r.step_b;
    }
    out->hi_us = r.t * fmax(1.0 + w_up, r.hi_f * fold_w_up);
    out->algorithm = r.algorithm;
    out->unreplayed = r.unreplayed;
    out->replay_held = r.replay_held;
    out->fold_widened = r.fold_widened;
    between_measured(&a->grid, q, m, &out->lo_us, &out->hi_us);
    return 0;
}

/* The misses of the untested readings at np top (no backtest of their own there, d > 0) of
 * the per-call trees (family 1) or the replays over the tiers (family 2, cost_family), made
 * from the points below top alone (b: a's copy, its points replaced): |ln(read / measured)|
 * per doubling the reading spans, appended to v[k..); the new k. A replay read alone (no
 * cost per step carried) is left out: the latency-bound ones it answers would vouch for the
 * bandwidth-bound readings of the same family (fatnodes-ompi at np 2-32, bcast of 1 MiB at
 * np 64: 171 us in [125, 221] for the simulated 225, where [95, 288] without them). */
static int tree_misses_at(const cf_across *a, cf_across *b, long top, int family, double *v,
                          int k)
{
    const cf_across_grid *g = &a->grid;
    b->grid.n = 0;
    for (int i = 0; i < g->n; i++)
        if (g->pt[i].p < top)
            b->grid.pt[b->grid.n++] = g->pt[i];
    for (int i = 0; i < g->n && k < CF_GRID_MAX; i++) {
        grid_reading r;
        if (g->pt[i].p == top && !cf_across_moves_nothing(a->datatype, g->pt[i].m) &&
            grid_read(b, top, g->pt[i].m, &r) == 0 &&
            r.family == family && !r.own && !r.alone && r.d > 0)
            v[k++] = fabs(log(r.t / g->pt[i].t_us)) / r.d;
    }
    return k;
}

/* The grid's backtest of its untested readings of one family, 1 or 2 (tree_err and
 * tiered_tree_err in across.h): each measured np but the smallest read from the np below it
 * alone, as predict reads an np beyond the measured ones; the high quantile over all these
 * readings. NAN without a ping-pong, without such readings at two np at least, or where the
 * largest np read misses by more per doubling than the next one below: misses that grow
 * with np (contention, or a larger network's latency, setting in) say nothing of the np
 * beyond, even where the reading of the largest crossed a tier the one below did not (a
 * crossing's growth cannot be told from a contention setting in: kept, such a backtest of
 * a few readings at two np let truths out of their intervals, sim-islands-ompi fitted at np
 * 2, 4, 16, 64, reduce of 1 KiB at np 8 read in [7.34, 8.57] for 8.65; a new user's racks of
 * 6-core nodes fitted at np 2-8, reduce of 4 B at np 16 in [0.553, 0.864] for 1.015). Calls
 * that move nothing (a reduction of fewer bytes than its element: SimGrid's 0.01 us) are not
 * read, as in the fitted model's backtest. The trees the tiers cost and
 * the others are apart: how well the one reads says
 * nothing of the other (fat tree, fitted at np 2-32: the tiered binomial reduce read within
 * 5% per doubling, the 1 KiB segments' tree at 4 KiB missed np 64 by 11%). */
static double tree_backtest(const cf_across *a, int family)
{
    const cf_across_grid *g = &a->grid;
    if (g->nmsg < 2)
        return NAN;
    cf_across *b = malloc(sizeof *b);
    double *v = malloc(2 * CF_GRID_MAX * sizeof *v), *w = v + CF_GRID_MAX;
    double level[2]; /* the quantile at the largest np read, and at the next one below */
    double q = family == 2 ? GRID_TIERED_TREE_QUANTILE : GRID_TREE_QUANTILE;
    int k = 0, nlevel = 0;
    if (b != NULL && v != NULL) {
        *b = *a;
        /* From the largest np down, each with an np below it to read it from. */
        for (long top = LONG_MAX;;) {
            long next = 0, below = 0;
            for (int i = 0; i < g->n; i++)
                next = g->pt[i].p < top && g->pt[i].p > next ? g->pt[i].p : next;
            for (int i = 0; i < g->n; i++)
                below = g->pt[i].p < next && g->pt[i].p > below ? g->pt[i].p : below;
            if (below == 0)
                break;
            top = next;
            int k0 = k;
            k = tree_misses_at(a, b, top, family, v, k);
            if (k > k0 && nlevel < 2) {
                memcpy(w, v + k0, (size_t)(k - k0) * sizeof *w);
                level[nlevel++] = cf_stats_quantile_nearest(w, (size_t)(k - k0), q);
            }
        }
    }
    double e = nlevel == 2 && level[0] <= level[1]
                   ? cf_stats_quantile_nearest(v, (size_t)k, q)
                   : NAN;
    free(b);
    free(v);
    return e;
}

/* The cost per step at the top over the one below, at one size; NAN when unknown. */
static double growth(const cf_across *a, cf_steps st, double m, const long *p, const double *t,
                     int k)
{
    if (k < 3)
        return NAN;
    double s0 = steps_at(a, st, p[k - 3], m), s1 = steps_at(a, st, p[k - 2], m),
           s2 = steps_at(a, st, p[k - 1], m);
    if (!(s1 > s0) || !(s2 > s1))
        return NAN;
    double lower = (t[k - 2] - t[k - 3]) / (s1 - s0), top = (t[k - 1] - t[k - 2]) / (s2 - s1);
    return lower > 0 ? fmax(0.0, top / lower) : NAN; /* a cost per step that fell: 0 */
}

/* The largest growth of the cost per step over one doubling of p at one size, anywhere in
 * the measured range (step_growth_max in across.h): the cost of the steps each doubling
 * added over the cost of those the doubling below added, the first of them from no process
 * where the algorithm takes no step at np=1 (a collective of one process costs nothing).
 * NAN when unknown or no step cost stayed positive. */
static double growth_max(const cf_across *a, cf_steps st, double m, const long *p, const double *t,
                         int k)
{
    if (k < 3)
        return NAN;
    double prev = NAN, best = NAN, s0 = 0.0, t0 = 0.0;
    int j = 0;
    if (steps_at(a, st, 1, m) != 0.0) { /* the first doubling measured starts at p[0] */
        s0 = steps_at(a, st, p[0], m);
        t0 = t[0];
        j = 1;
    }
    for (; j < k; j++) {
        double s = steps_at(a, st, p[j], m);
        if (!(s > s0))
            continue;
        double c = (t[j] - t0) / (s - s0); /* the cost of each step this doubling added */
        if (prev > 0 && c > 0 && isfinite(c))
            best = isnan(best) ? c / prev : fmax(best, c / prev);
        prev = c;
        s0 = s;
        t0 = t[j];
    }
    return best;
}

/* The unit is one point-to-point step of each size, and np=2 may itself run an algorithm of
 * several steps (SMPI's ompi allreduce runs a logical ring of two half-size steps at 4 KiB but
 * recursive doubling, one full step, at 2 KiB): the unit is the curve u that the rules' own
 * algorithm at p = 2 turns into the measured T2, found by a damped fixed point. A size whose
 * np=2 algorithm steps only at smaller sizes (Rabenseifner's halves) says nothing of u there:
 * u is read there from the other sizes. Where every np=2 algorithm is one full step, u = T2. */
#define UNIT_ITER 30

/* The cost at size i, measured at np p0, that the rules' algorithm there reads in unit u. */
static double unit_cost_at(const cf_across_grid *g, const char *pattern, long p0, int i,
                            const double *u)
{
    cf_rule_alg r;
    if (cf_rules_pick(g->rules, g->node_ranks, pattern, p0, g->unit_bytes[i], &r) != 0)
        return NAN;
    /* A linear algorithm's p0 - 1 messages, posted at once: a latency and their bytes (as
     * once_ratio reads them); at np=2 its one step. */
    if (p0 > 2 && r.latency == CF_LAT_ONCE) {
        double one = cf_unit_time(g->unit_bytes, u, g->nunit, g->unit_bytes[i]);
        return u[0] + (double)(p0 - 1) * (one - u[0]);
    }
    return cf_steps_cost_node(r.steps, g->node_ranks, p0, g->unit_bytes[i], g->unit_bytes, u,
                              g->nunit, g->tiers.eager_load);
}

/* Above np=2 (a table that did not measure it: OSU's collectives from the nodes of a job
 * on) the rules' algorithm at the smallest measured np p0 runs several steps at every size,
 * each often of another size (a ring's m/p0, Rabenseifner's halves), and the fixed point
 * above, which moves u at a size by the cost at that size, need not converge (SMPI's flat
 * cluster, MPICH's reduce at np 4: u of 0 at 256 KiB, 4e7 us at 1 MiB). There u is solved
 * as a whole: the log of u at every size, by GSL's trust-region Levenberg-Marquardt on the
 * log of the cost the rules' algorithm at p0 reads against the log of the measured time,
 * with a weak pull (UNIT_SMOOTH) towards a straight line in log-log, which sets the sizes no
 * cost reads. A unit that misses a measured time at p0 by more than CF_UNIT_MISS_MAX (log) is
 * none: the across-np fit then answers without the grid, as it did without np=2 (Open MPI's
 * bcast at np 4, whose chain at 64 KiB and pipeline at 1 and 2 MiB cannot share one segment
 * time). */
#define UNIT_SMOOTH 0.01
#define UNIT_LM_ITER 80

typedef struct unit_problem {
    const cf_across_grid *g;
    const char *pattern;
    long p0;
    const double *lt; /* the log of the measured times at p0 */
} unit_problem;

/* The residuals of log u = x (gsl_multifit_nlinear's f): the measured sizes' log misses,
 * then the smoothing rows; GSL_EDOM where a cost is not a number or infinite. */
static int unit_residuals(const gsl_vector *x, void *params, gsl_vector *f)
{
    const unit_problem *up = params;
    const cf_across_grid *g = up->g;
    int n = g->nunit;
    double u[CF_UNIT_MAX], l[CF_UNIT_MAX];
    for (int i = 0; i < n; i++) {
        u[i] = exp(gsl_vector_get(x, (size_t)i));
        l[i] = log(fmax(g->unit_bytes[i], 1.0));
    }
    for (int i = 0; i < n; i++) {
        double c = unit_cost_at(g, up->pattern, up->p0, i, u);
        if (!isfinite(c))
            return GSL_EDOM;
        /* A cost at or below 0 (a linear algorithm whose unit falls below its smallest
         * size's: that size measured slow) is as far off as a cost can be, and finite: a
         * step there is refused, not the solve stopped. */
        gsl_vector_set(f, (size_t)i, log(fmax(c, 1e-300)) - up->lt[i]);
    }
    for (int i = 1; i + 1 < n; i++) {
        double x0 = gsl_vector_get(x, (size_t)i - 1), x1 = gsl_vector_get(x, (size_t)i),
               x2 = gsl_vector_get(x, (size_t)i + 1);
        double d1 = l[i] > l[i - 1] ? (x1 - x0) / (l[i] - l[i - 1]) : 0.0,
               d2 = l[i + 1] > l[i] ? (x2 - x1) / (l[i + 1] - l[i]) : 0.0;
        gsl_vector_set(f, (size_t)(n + i - 1), UNIT_SMOOTH * (d2 - d1));
    }
    return GSL_SUCCESS;
}

/* The unit of a grid whose smallest measured np p0 is above 2, g->unit_t_us its times there
 * on entry: 0 with the unit in place, -1 where none holds; *miss, the factor by which the
 * unit found misses p0's time at the size *miss_at where it misses most (NAN where none
 * was found). */
static int unit_solve(cf_across_grid *g, const char *pattern, long p0, double *miss,
                      double *miss_at)
{
    size_t n = (size_t)g->nunit, rows = 2 * n - 2;
    double lt[CF_UNIT_MAX];
    for (size_t i = 0; i < n; i++)
        lt[i] = log(g->unit_t_us[i]);
    unit_problem up = {g, pattern, p0, lt};
    gsl_multifit_nlinear_fdf fdf = {.f = unit_residuals, .df = NULL, .fvv = NULL, .n = rows,
                                    .p = n, .params = &up};
    gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
    gsl_multifit_nlinear_workspace *w =
        gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, rows, n);
    if (w == NULL)
        return -1;
    gsl_vector_const_view x0 = gsl_vector_const_view_array(lt, n);
    int info, rc = -1;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    if (gsl_multifit_nlinear_init(&x0.vector, &fdf, w) == GSL_SUCCESS) {
        gsl_multifit_nlinear_driver(UNIT_LM_ITER, 1e-10, 1e-10, 1e-12, NULL, NULL, &info, w);
        const gsl_vector *x = gsl_multifit_nlinear_position(w),
                         *f = gsl_multifit_nlinear_residual(w);
        double worst = 0.0;
        for (size_t i = 0; i < n; i++) {
            double r = fabs(gsl_vector_get(f, i));
            if (isnan(r) || r > worst) {
                worst = isnan(r) ? INFINITY : r;
                *miss = exp(worst);
                *miss_at = g->unit_bytes[i];
            }
        }
        if (worst <= CF_UNIT_MISS_MAX) {
            for (size_t i = 0; i < n; i++)
                g->unit_t_us[i] = exp(gsl_vector_get(x, i));
            rc = 0;
        }
    }
    gsl_set_error_handler(old);
    gsl_multifit_nlinear_free(w);
    return rc;
}

/* The unit from the times at p0, the smallest measured np, in g->unit_t_us on entry: 0 with
 * it in place, -1 where none holds (above np=2 only). */
static int unit_from_smallest_np(cf_across_grid *g, const char *pattern, long p0,
                                 double *miss, double *miss_at)
{
    if (p0 > 2)
        return unit_solve(g, pattern, p0, miss, miss_at);
    double t2[CF_UNIT_MAX], u[CF_UNIT_MAX], fb[CF_UNIT_MAX], ft[CF_UNIT_MAX];
    int free_at[CF_UNIT_MAX], nfixed = 0;
    memcpy(t2, g->unit_t_us, (size_t)g->nunit * sizeof *t2);
    memcpy(u, t2, sizeof u);
    for (int i = 0; i < g->nunit; i++) {
        double s0 = unit_cost_at(g, pattern, p0, i, u);
        u[i] *= 2.0;
        double s1 = unit_cost_at(g, pattern, p0, i, u);
        u[i] = t2[i];
        free_at[i] = isfinite(s0) && isfinite(s1) && fabs(s1 - s0) <= 1e-3 * s0;
        nfixed += !free_at[i];
    }
    if (nfixed < 2)
        return 0;
    /* Where the np=2 algorithms already give T2 at every size, u = T2 as measured. */
    int one_step = 1;
    for (int i = 0; i < g->nunit; i++) {
        double s = unit_cost_at(g, pattern, p0, i, u);
        one_step &= free_at[i] || (isfinite(s) && fabs(s - t2[i]) <= 1e-9 * t2[i]);
    }
    if (one_step)
        return 0;
    for (int it = 0; it < UNIT_ITER; it++) {
        double next[CF_UNIT_MAX];
        int k = 0;
        for (int i = 0; i < g->nunit; i++) {
            double s = unit_cost_at(g, pattern, p0, i, u);
            next[i] = s > 0 && isfinite(s) ? u[i] * sqrt(t2[i] / s) : u[i];
            if (!free_at[i]) {
                fb[k] = g->unit_bytes[i];
                ft[k++] = next[i];
            }
        }
        for (int i = 0; i < g->nunit; i++)
            u[i] = free_at[i] ? cf_unit_time(fb, ft, k, g->unit_bytes[i]) : next[i];
    }
    memcpy(g->unit_t_us, u, (size_t)g->nunit * sizeof *u);
    return 0;
}

/* The share of its sender's link a message sent at once takes (cf_tiers.eager_load), fitted
 * to the table's tree bcasts (cf_steps_eager_tree): at each
 * measured np above 2 where the rules run one tree at the largest size measured below
 * CF_EAGER_MAX and at the smallest measured from it, the load at which the cost per step
 * read at the first (its messages sent at once, sharing their sender's link) is the
 * second's (each level waited for: no load in it), between EAGER_LOAD_MIN and 1; the median
 * over those np; 1 (each message the whole link, as until stop 74) where there are none,
 * and for a real library's tables, whose protocol the sizes around 64 KiB need not switch
 * (Open MPI's shared-memory eager limit is 4 KiB): on ORFEO's Open MPI bcast tables
 * (data/realnp, thin nodes) fitted at every other np it read 0.34 and moved 206 answers at
 * the np held out, 80 nearer; fitted at every np, 1.
 * The trees cost messages waited for as they run (their cost per step 0.96 to 1.05 at 64 KiB
 * on flat.xml, ethflat.xml and leaves.xml at np 16 to 64), and those sent at once at load 1
 * twice as dear on some networks (flat.xml: 0.66 to 0.80 at 16 KiB) and as they run on
 * others (leaves.xml: 0.92 to 1.10): how a link shares its flows is the network's
 * (SimGrid caps one flow below the link's bandwidth by its size, a card may send its
 * messages in turn). Read at 16 KiB it leaves the cost per step of the sizes between 16 and
 * 64 KiB, which the grid reads between the two, alike at both. */
#define EAGER_LOAD_MIN 0.05
#define EAGER_LOAD_ITER 24

/* Point x's cost per step of its tree r with the grid's eager link load set to load. */
static double per_step_at_load(cf_across *a, const cf_rule_alg *r, const cf_grid_point *x,
                               double load)
{
    a->grid.tiers.eager_load = load;
    return x->t_us / steps_at(a, r->steps, x->p, x->m);
}

static double eager_load_fit(cf_across *a)
{
    cf_across_grid *g = &a->grid;
    double v[CF_ACROSS_NP_MAX];
    int k = 0;
    if (!cf_rules_simulated(g->rules))
        return 1.0;
    for (int i = 0; i < g->n && k < CF_ACROSS_NP_MAX; i++) {
        long p = g->pt[i].p;
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= g->pt[j].p == p;
        if (seen || p < 3)
            continue;
        /* the tree's largest size below CF_EAGER_MAX at p and its smallest from it */
        const cf_grid_point *e = NULL, *w = NULL;
        cf_rule_alg re = {0}, rw = {0}, r;
        for (int j = 0; j < g->n; j++) {
            const cf_grid_point *x = &g->pt[j];
            if (x->p != p || cf_rules_pick(g->rules, g->node_ranks, a->pattern, p, x->m, &r) ||
                !cf_steps_eager_tree(r.steps))
                continue;
            if (x->m < CF_EAGER_MAX && (e == NULL || x->m > e->m)) {
                e = x;
                re = r;
            } else if (x->m >= CF_EAGER_MAX && (w == NULL || x->m < w->m)) {
                w = x;
                rw = r;
            }
        }
        if (e == NULL || w == NULL || strcmp(re.name, rw.name) != 0)
            continue;
        /* w's messages are waited for: the load does not enter its reading */
        double want = per_step_at_load(a, &rw, w, 1.0), lo = EAGER_LOAD_MIN, hi = 1.0;
        if (!(per_step_at_load(a, &re, e, hi) < want)) {
            v[k++] = hi; /* read no dearer than waited for even at load 1 */
            continue;
        }
        if (!(per_step_at_load(a, &re, e, lo) > want)) {
            v[k++] = lo;
            continue;
        }
        /* the cost per step falls as the load grows (the steps grow with it) */
        for (int it = 0; it < EAGER_LOAD_ITER; it++) {
            double mid = 0.5 * (lo + hi);
            if (per_step_at_load(a, &re, e, mid) > want)
                lo = mid;
            else
                hi = mid;
        }
        v[k++] = 0.5 * (lo + hi);
    }
    g->tiers.eager_load = 0.0;
    return k > 0 ? cf_stats_quantile_nearest(v, (size_t)k, 0.5) : 1.0;
}

/* Whether the rules run an algorithm the latency tiers replay (cf_steps_tiered) for the
 * pattern at any of the n points' sizes, at any power of two up to 2^20 processes or one
 * past it (a node and a rank of another: SMPI's mpich bcast on nodes of unequal ranks runs
 * a binomial tree where every power of two of nodes of 4 runs its two-level one): 1 or 0. */
static int runs_tiered(const char *rules, long node, const char *pattern, const cf_point *pts,
                       size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (long p = 2; p <= 1L << 20; p *= 2)
            for (long q = p; q <= p + 1; q++) {
                cf_rule_alg r;
                if (cf_rules_pick(rules, node, pattern, q, pts[i].m, &r) == 0 &&
                    cf_steps_tiered(r.steps))
                    return 1;
            }
    return 0;
}

/* The np the unit is read from: 2 where measured, else the smallest measured np. */
static long unit_np(const cf_point *pts, size_t n)
{
    long p0 = LONG_MAX;
    for (size_t i = 0; i < n; i++)
        if (pts[i].t_us > 0 && pts[i].p >= 2 && pts[i].p < p0)
            p0 = pts[i].p;
    return p0;
}

void cf_across_grid_build(cf_across *a, const char *rules, const cf_point *pts, size_t n,
                          const cf_contention *pingpong, const cf_tiers *tiers)
{
    cf_across_grid *g = &a->grid;
    memset(g, 0, sizeof *g);
    g->tree_err = g->tiered_tree_err = NAN;
    a->grid_none[0] = '\0';
    if (rules == NULL || !cf_rules_known(rules, a->pattern) || n > CF_GRID_MAX)
        return;
    /* T2: the pattern's own np=2 times, by size (where it has none, its smallest measured
     * np's, which unit_from_smallest_np reads through that np's algorithms); a size measured
     * more than once (tables fitted together, an import of several runs) is one point, their
     * geometric mean: the grid reads one time a size (a model file with two 1 KiB entries is
     * refused). */
    int reps[CF_UNIT_MAX] = {0};
    long p0 = unit_np(pts, n);
    for (size_t i = 0; i < n; i++) {
        if (pts[i].p != p0 || !(pts[i].t_us > 0))
            continue;
        int j = 0;
        while (j < g->nunit && g->unit_bytes[j] < pts[i].m)
            j++;
        if (j < g->nunit && g->unit_bytes[j] == pts[i].m) {
            reps[j]++;
            g->unit_t_us[j] *= pow(pts[i].t_us / g->unit_t_us[j], 1.0 / reps[j]);
            continue;
        }
        if (g->nunit == CF_UNIT_MAX)
            continue;
        for (int k = g->nunit++; k > j; k--) {
            g->unit_bytes[k] = g->unit_bytes[k - 1];
            g->unit_t_us[k] = g->unit_t_us[k - 1];
            reps[k] = reps[k - 1];
        }
        g->unit_bytes[j] = pts[i].m;
        g->unit_t_us[j] = pts[i].t_us;
        reps[j] = 1;
    }
    if (g->nunit < 2) {
        g->nunit = 0;
        return;
    }
    snprintf(g->rules, sizeof g->rules, "%s", rules);
    g->node_ranks = tiers != NULL ? tiers->node_ranks : 0;
    double miss = NAN, miss_at = 0.0;
    if (unit_from_smallest_np(g, a->pattern, p0, &miss, &miss_at) != 0) {
        memset(g, 0, sizeof *g);
        g->tree_err = g->tiered_tree_err = NAN;
        char at[32];
        cf_size_format((uint64_t)miss_at, at, sizeof at);
        if (isfinite(miss))
            snprintf(a->grid_none, sizeof a->grid_none, "np=%ld, x%.3g at %s", p0, miss, at);
        else
            snprintf(a->grid_none, sizeof a->grid_none, "np=%ld", p0);
        return;
    }
    g->nmsg = cf_msg_unit(pingpong, g->msg_bytes, g->msg_unit_us);
    /* The tiers cost the replayed algorithms' messages beside the ping-pong's unit, never
     * without it, and are kept where the rules run such an algorithm. */
    if (tiers != NULL && g->nmsg >= 2 && runs_tiered(rules, g->node_ranks, a->pattern, pts, n))
        g->tiers = *tiers;
    for (size_t i = 0; i < n; i++)
        if (pts[i].t_us > 0 && isfinite(pts[i].t_us))
            g->pt[g->n++] = (cf_grid_point){pts[i].p, pts[i].m, pts[i].t_us};
    g->tiers.eager_load = eager_load_fit(a);
    /* Backtests and step growth over every (size, algorithm) of three process counts. */
    double sz[CF_GRID_MAX], *bt = malloc(3 * CF_GRID_MAX * sizeof *bt), *gr = bt + CF_GRID_MAX,
                            *gm = gr + CF_GRID_MAX;
    if (bt == NULL) {
        memset(g, 0, sizeof *g);
        return;
    }
    int ns = grid_sizes(g, sz), nbt = 0, ngr = 0, ngm = 0;
    for (int i = 0; i < ns; i++) {
        /* Each algorithm at this size once: the one at each measured p. */
        const char *done[CF_ACROSS_NP_MAX];
        int ndone = 0;
        for (int j = 0; j < g->n; j++) {
            cf_rule_alg r;
            if (g->pt[j].m != sz[i] ||
                cf_rules_pick(rules, g->node_ranks, a->pattern, g->pt[j].p, sz[i], &r))
                continue;
            int seen = 0;
            for (int k = 0; k < ndone; k++)
                seen |= strcmp(done[k], r.name) == 0;
            if (seen || ndone == CF_ACROSS_NP_MAX)
                continue;
            done[ndone++] = r.name;
            long p[CF_ACROSS_NP_MAX];
            double t[CF_ACROSS_NP_MAX];
            int k = group_at(a, r.name, sz[i], p, t);
            double e = size_error(a, r.steps, sz[i], p, t, k);
            if (e >= 0 && nbt < CF_GRID_MAX)
                bt[nbt++] = e;
            double gv = growth(a, r.steps, sz[i], p, t, k);
            if (isfinite(gv) && ngr < CF_GRID_MAX)
                gr[ngr++] = gv;
            double gx = growth_max(a, r.steps, sz[i], p, t, k);
            if (isfinite(gx) && ngm < CF_GRID_MAX)
                gm[ngm++] = gx;
        }
    }
    g->err_per_doubling = cf_stats_quantile_nearest(bt, (size_t)nbt, 0.5);
    g->step_growth = ngr ? cf_stats_quantile_nearest(gr, (size_t)ngr, 0.5) : 1.0;
    g->step_growth_max = ngm ? cf_stats_quantile_nearest(gm, (size_t)ngm, 0.5) : 1.0;
    free(bt);
    g->tree_err = tree_backtest(a, 1);
    g->tiered_tree_err = g->tiers.n > 0 ? tree_backtest(a, 2) : NAN;
}
