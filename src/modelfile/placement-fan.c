/* The launch's fan probe (fan_out_us, fan_in_us) read for a linear scatterv or gatherv from
 * np=2: how far the messages rank 0 posts at once to p - 1 ranks, or takes from them,
 * overlap, which np=2 cannot tell (SimGrid's loopback gives every flow its full bandwidth,
 * one card takes them in turn, a shared backbone slower still: scatterv of 1 MiB at np 16
 * takes 1x, 13x and 46x its np=2 time on the fatnodes, flat and cloud platforms). The
 * probe times what the pattern does, on the launch's own ranks and network, after a
 * barrier as a table's collectives are timed: the estimate is the pattern's measured np=2
 * time times the probe's ranks' mean at np over its own at np 2. */
#include "config.h"

#include "modelfile/placement.h"

#include <math.h>
#include <string.h>

/* What the probe's reading may differ from the library's call by, itself aside: the order
 * its messages are posted in, the root's copy of its own block, the sizes of the call
 * against the probe's (SimGrid's torus, scatterv of 4 B at np 16: 5.30 us, the probe's 8 B
 * read 6.06; 4 of the 240 rooted answers at its levels were outside a margin of 10%). */
#define CF_FAN_MARGIN 0.25

/* The probe that answers c where it runs a linear algorithm: 0 out (rank 0 sending:
 * scatterv, and a scatter the library's rules run linear), 1 in (gatherv), -1 none. */
static int fan_dir(const cf_coll *c)
{
    if (c == NULL)
        return -1;
    if (strcmp(c->pattern, "scatterv") == 0 || strcmp(c->pattern, "scatter") == 0)
        return 0;
    if (strcmp(c->pattern, "gatherv") == 0)
        return 1;
    return -1;
}

/* Whether the probe reads c at all: a table timed a call at a time from root 0, as the
 * probe was (a root moving round-robin meets other ranks' links: SimGrid's cloud, scatterv
 * of 8 B at np 8 with --root-shift 8.84 us, the probe from rank 0 read 11.8 to 18.5), at
 * least two levels and sizes, and np=2's time of the pattern to carry. */
static int fan_usable(const cf_placement *p, const cf_p2p *pp, const cf_coll *c,
                      const char *datatype, int dir)
{
    return dir >= 0 && p->nfan[dir] >= 2 && p->nfan_bytes >= 2 && p->fan_timed_call &&
           !p->fan_root_shift && cf_p2p_has_np2(pp, c->pattern, datatype);
}

/* Its largest level. */
static long fan_top(const cf_placement *p, int dir)
{
    return 2L << (p->nfan[dir] - 1);
}

/* Past its largest level (a launch smaller than np), from three levels up: its two largest
 * carried on, where both spanned nodes and the probes put them in one tier (a fan across a
 * node's loopback says nothing of its card; one whose top level crossed a switch the level
 * below did not carries that crossing's jump on: SimGrid's wide platform, scatterv of 4 B
 * at np 32 from levels 8 and 16, 139 us for 8.6), and one doubling at most: a tier np
 * crosses past it the probe never saw (racks, scatterv of 8 B at np 64 from levels 8 and
 * 16: 3.0 us for 27.8). */
static int fan_beyond_ok(const cf_placement *p, int dir, long np)
{
    long top = fan_top(p, dir);
    return np <= 2 * top && p->nfan[dir] >= 3 && cf_placement_nodes(p, top / 2) > 1 &&
           cf_placement_same_tier(p, top / 2, top);
}

/* How the probe answers c at np and m: FAN_ALONE at one of its levels (np a power of two up
 * to its largest), the answer the probe's; FAN_HELD where it gives the estimate and np=2's
 * whole answer stays in the interval (between two levels, past the largest, under Open
 * MPI's own rules, whose linear calls take the messages in turn); FAN_NONE. A scatter is
 * read at Open MPI's nonblocking linear scatter's sizes, and at its basic linear one's where
 * its blocking sends are eager (np=2's root share under 1/2: each returns at once), held
 * (FAN_HELD) between two measured sizes of which only the smaller's was (the protocol's
 * step lies somewhere between: SimGrid's at 64 KiB, where np=2's 16 KiB was eager, and a
 * gate on both read 20 to 28 KiB on its torus 4.8x over, from 16 KiB's 1.09x); m < 0, asked
 * of every size: none. */
enum { FAN_NONE, FAN_HELD, FAN_ALONE };
static int fan_use(const cf_placement *p, const cf_p2p *pp, const cf_coll *c,
                   const char *datatype, long np, double m)
{
    int dir = fan_dir(c);
    if (np <= 2 || !fan_usable(p, pp, c, datatype, dir))
        return FAN_NONE;
    int straddle = 0;
    if (strcmp(c->pattern, "scatter") == 0) {
        if (m < 0)
            return FAN_NONE;
        double lo = cf_p2p_sender_share(pp, c->pattern, datatype, m, 0);
        double hi = cf_p2p_sender_share(pp, c->pattern, datatype, m, 1);
        if (!cf_rules_scatter_nonblocking(pp->rules, np, m) &&
            !(cf_rules_scatter_linear(pp->rules, np, m) && lo < 0.5))
            return FAN_NONE;
        /* np=2's time read between an eager size and a rendezvous one carries the step:
         * held, for the nonblocking scatter too (SimGrid's flat cluster, np 16, 32 KiB:
         * 35.8 us simulated, 59.1 in [47.3, inf] read alone, the fourth review) */
        straddle = (lo < 0.5) != (hi < 0.5);
    }
    if (np > fan_top(p, dir))
        return fan_beyond_ok(p, dir, np) ? FAN_HELD : FAN_NONE;
    if ((np & (np - 1)) != 0 || strncmp(pp->rules, "openmpi", 7) == 0 || straddle)
        return FAN_HELD;
    return FAN_ALONE;
}

int cf_placement_fan_covers(const cf_placement *p, const cf_p2p *pp, const cf_coll *c,
                            const char *datatype, long np)
{
    return fan_use(p, pp, c, datatype, np, -1.0) == FAN_ALONE;
}

void cf_placement_fan_measured(const cf_placement *p, const cf_p2p *pp, const cf_coll *c,
                               const char *datatype, long np, cf_unmeasured *u)
{
    if (cf_placement_fan_covers(p, pp, c, datatype, np))
        memset(u, 0, sizeof *u);
}

/* A reading between two of the probe's points: the two values (ln), and how far between
 * (0 at the first, 1 at the second; the same point twice at a measured one). */
typedef struct between {
    double lo, hi, w;
} between;

/* The value read in ln between b's two ends, and what it may miss there: half the two
 * ends' difference at the middle, none at either end. */
static double read_between(const between *b, double *miss)
{
    *miss = fabs(b->hi - b->lo) * 2.0 * b->w * (1.0 - b->w);
    return b->lo + (b->hi - b->lo) * b->w;
}

/* The probe's ln time at level k and size m: log-log between its sizes (the nearest's
 * outside them: below the smallest, latency; above the largest, the bandwidth's share);
 * the sizes it was read between into *j0, *j1. */
static between at_size(const cf_placement *p, int dir, size_t k, double m, size_t *j0, size_t *j1)
{
    const double *b = p->fan_bytes, *t = p->fan_us[dir][k];
    size_t n = p->nfan_bytes, j = 0;
    while (j < n && b[j] < m)
        j++;
    if (j == 0 || j == n || b[j] == m) {
        *j0 = *j1 = j == n ? n - 1 : j;
        return (between){log(t[*j0]), log(t[*j0]), 0.0};
    }
    *j0 = j - 1;
    *j1 = j;
    return (between){log(t[j - 1]), log(t[j]), log(m / b[j - 1]) / log(b[j] / b[j - 1])};
}

int cf_placement_fan_answer(const cf_placement *p, const cf_p2p *pp, const cf_coll *c,
                            const char *datatype, long np, double m, cf_estimate *est)
{
    int use = fan_use(p, pp, c, datatype, np, m);
    if (use == FAN_NONE || est->algorithm == NULL || strcmp(est->algorithm, "linear") != 0)
        return 0;
    double t2 = cf_p2p_np2_time(pp, c, datatype, m);
    if (!(t2 > 0.0) || !isfinite(t2))
        return 0;
    int dir = fan_dir(c), beyond = np > fan_top(p, dir);
    /* The levels around np (B = 2^(k+1)), read between in the number of messages: linear in
     * it where they go in turn, flat where they overlap. */
    size_t k1 = 0;
    while ((2L << k1) < np && k1 + 1 < p->nfan[dir])
        k1++;
    size_t k0 = (2L << k1) == np ? k1 : k1 - 1;
    double n0 = (double)((2L << k0) - 1), n1 = (double)((2L << k1) - 1);
    size_t j0, j1;
    between one = at_size(p, dir, 0, m, &j0, &j1), lo = at_size(p, dir, k0, m, &j0, &j1),
            hi = at_size(p, dir, k1, m, &j0, &j1);
    double miss_one, miss_lo, miss_hi, miss_k;
    double t_one = read_between(&one, &miss_one), t_lo = read_between(&lo, &miss_lo),
           t_hi = read_between(&hi, &miss_hi);
    between levels = {t_lo, t_hi, k1 > k0 ? ((double)(np - 1) - n0) / (n1 - n0) : 0.0};
    /* In the number of messages, not in ln: the time of messages in turn grows with it. */
    double v = levels.w, at;
    if (beyond) {
        /* Its two largest levels' power law in the number of messages carried on: 1 where
         * they go in turn, 0 where they overlap, -1 for a gather's eager senders leaving (the
         * mean its root's wait over p); what it may miss, the change it carries. */
        double x = log(((double)np - 1.0) / n1), slope = (t_hi - t_lo) / log(n1 / n0);
        at = t_hi + slope * x;
        miss_k = fabs(slope * x);
    } else {
        at = log((1.0 - v) * exp(t_lo) + v * exp(t_hi));
        read_between(&levels, &miss_k);
    }
    double ratio = exp(at - t_one);
    /* What the reading may miss: between the probe's sizes and levels, outside its sizes
     * what the ratio changed by between the two nearest (carried flat there), and the
     * probe's own margin (CF_FAN_MARGIN, or the latency probe's where the launch was
     * noisier). */
    double size_miss = fmax(miss_one, fmax(miss_lo, miss_hi));
    size_t nb = p->nfan_bytes;
    if (m < p->fan_bytes[0] || m > p->fan_bytes[nb - 1]) {
        size_t a = m < p->fan_bytes[0] ? 0 : nb - 2, b = a + 1, ja, jb;
        between ra = at_size(p, dir, k1, p->fan_bytes[a], &ja, &jb),
                rb = at_size(p, dir, k1, p->fan_bytes[b], &ja, &jb),
                oa = at_size(p, dir, 0, p->fan_bytes[a], &ja, &jb),
                ob = at_size(p, dir, 0, p->fan_bytes[b], &ja, &jb);
        size_miss = fmax(size_miss, fabs((rb.lo - ob.lo) - (ra.lo - oa.lo)));
    }
    /* and np=2's own time off its log-log line between two of its measured sizes, as the
     * estimate from np=2 alone holds it (the fourth review, of cc4e7b9) */
    double bridge = cf_p2p_np2_bridge(pp, c->pattern, datatype, m);
    double h = sqrt(size_miss * size_miss + miss_k * miss_k + bridge * bridge +
                    pow(log(1.0 + fmax(CF_FAN_MARGIN, p->lat_margin)), 2.0));
    double t = t2 * ratio;
    est->t_us = t;
    est->lo_us = t * exp(-h);
    est->hi_us = t * exp(h);
    /* Between two of its levels the probe does not bound np: a barrier's skew, which a
     * small gatherv's ranks' mean is made of, and the links a torus's ranks share both
     * change with the ranks' count unevenly (gatherv of 16 B at np 6 on SimGrid's cloud
     * platform: 3.27 us, where the probe's levels 4 and 8 read 0.16 and 1.27 us; of 2 MiB at
     * np 12 on its torus 2001, levels 8 and 16 read 1009 and 1815 at 2 MiB); past its
     * largest level the network beyond was never measured; Open MPI's linear scatterv and
     * gatherv take their messages in turn by blocking calls, which the probe's posted at
     * once do not. There the caller keeps np=2's whole answer in the interval (fan_held). */
    est->fan_held = use == FAN_HELD;
    est->fan_between = k1 > k0 && !beyond;
    est->fan_beyond = beyond ? 2L << k1 : 0;
    est->fan_ratio = ratio;
    est->fan_level_lo = 2L << k0;
    est->fan_level_hi = 2L << k1;
    est->fan_bytes_lo = p->fan_bytes[j0];
    est->fan_bytes_hi = p->fan_bytes[j1];
    /* The readings of np=2 alone it replaces say nothing here. */
    est->overlap_us = est->row_us = est->alone_us = est->shared_us = 0.0;
    est->sender_share = est->sender_share_hi = NAN;
    est->floor_from = NAN;
    est->split_lo = est->split_hi = est->split_margin = NAN;
    est->split_lo_us = est->split_hi_us = NAN;
    est->linear_rules = est->in_turn = 0;
    est->bridge = bridge;
    /* np=2's time read across a step of its curve: as the estimate from np=2 alone takes it
     * (the probe's ratio is read at m; SimGrid's flat cluster, Open MPI's linear scatterv of
     * 40 KiB at np 16: 69.3 us simulated, read 127.2 in [73.9, 219.2]) */
    cf_p2p_step_widen(pp, c, datatype, np, m, est);
    return 1;
}
