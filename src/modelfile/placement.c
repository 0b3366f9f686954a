/* What a process count spans beyond np=2 on the nodes the fitted table's ranks ran on
 * (read from its metadata by placement-read.c), the latency tiers it crosses, and the
 * across-np and point-to-point answers carried over them. */
#include "config.h"

#include "modelfile/placement.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/collective.h"
#include "base/table.h"
#include "modelfile/answer.h"
#include "fit/barrier-replay.h"
#include "base/stats.h"

/* np's ranks filling p's nodes in order, past the launch the last node's free cores first
 * where the launch filled its nodes in order (it stopped inside its last: a larger one fills
 * that one's room, a new user's racks of 6-core nodes, 64 ranks, the last node holding 4: np
 * 66 read 12 nodes, where 11 hold it), then new nodes like the last: into *nodes the nodes
 * they span, into *most the most one node holds (at least *most as given). */
static void fill_in_order(const cf_placement *p, long np, long *nodes, long *most)
{
    long left = np;
    int filled = 1; /* every node but the last held a rank on each of its cores */
    for (size_t i = 0; i < p->nnodes; i++) {
        long k = left < p->ranks[i] ? left : p->ranks[i];
        *most = k > *most ? k : *most;
        left -= k;
        if (left <= 0) {
            *nodes = (long)i + 1;
            return;
        }
        filled &= i + 1 == p->nnodes || p->ranks[i] >= p->cores[i];
    }
    long last = p->cores[p->nnodes - 1], in_last = p->ranks[p->nnodes - 1];
    *nodes = (long)p->nnodes;
    if (filled && in_last < last) {
        long k = left < last - in_last ? left : last - in_last;
        *most = in_last + k > *most ? in_last + k : *most;
        left -= k;
    }
    if (left > 0) {
        *nodes += (left + last - 1) / last;
        *most = (left < last ? left : last) > *most ? (left < last ? left : last) : *most;
    }
}

long cf_placement_nodes(const cf_placement *p, long np)
{
    if (!p->known || np <= 0 || p->nnodes == 0)
        return 0;
    if (p->first != NULL && (size_t)np <= p->nranks) {
        long seen = 0;
        for (size_t i = 0; i < p->nnodes; i++)
            seen += p->first[i] >= 0 && p->first[i] < np;
        return seen;
    }
    long nodes = 0, most = 0;
    fill_in_order(p, np, &nodes, &most);
    return nodes;
}

long cf_placement_share(const cf_placement *p, long np)
{
    if (!p->known || np <= 0 || p->nnodes == 0)
        return 0;
    if (p->share != NULL && (size_t)np <= p->nranks)
        return p->share[np - 1];
    /* Past a launch rank_hosts placed: its most, and what the ranks past it add. */
    long nodes = 0, most = p->share != NULL && p->nranks > 0 ? p->share[p->nranks - 1] : 0;
    fill_in_order(p, np, &nodes, &most);
    return most;
}

long cf_placement_parts(const cf_placement *a, const cf_placement *b)
{
    long launch = 0; /* b's own ranks: past them b's placement is a guess nothing reads */
    for (size_t i = 0; i < b->nnodes; i++)
        launch += b->ranks[i];
    for (long np = 2; np <= launch; np = np < 1024 ? np + 1 : np < launch / 2 ? 2 * np : launch)
        if (cf_placement_nodes(a, np) != cf_placement_nodes(b, np) ||
            cf_placement_share(a, np) != cf_placement_share(b, np))
            return np;
        else if (np == launch)
            break;
    return 0;
}

/* The nearest of ranks 1 to np - 1 (within the probe) to rank 0, one way, us. */
static double nearest_us(const cf_placement *p, long np)
{
    size_t n = (size_t)np - 1 < p->nlat ? (size_t)np - 1 : p->nlat;
    if (p->lat_near != NULL)
        return n > 0 ? p->lat_near[n - 1] : INFINITY;
    double near = INFINITY;
    for (size_t i = 0; i < n; i++)
        near = fmin(near, p->lat_us[i]);
    return near;
}

/* u for np against the measured np `from` (2, or the largest fitted), the note emptied: 1
 * when np spans more nodes than from did (what is then unmeasured is in u), else 0. */
static int unmeasured_from(const cf_placement *p, long from, long np, cf_unmeasured *u, char *note,
                           size_t n)
{
    memset(u, 0, sizeof *u);
    if (n > 0)
        note[0] = '\0';
    if (np <= from)
        return 0;
    if (!p->known) {
        /* Where a latency probe says how far np's ranks lie, its tier rule judges
         * (tier_from); with nothing at all, nothing says np stays as near as measured. */
        u->unplaced = cf_placement_silent(p);
        return 0;
    }
    u->nodes2 = cf_placement_nodes(p, from);
    u->nodes_np = cf_placement_nodes(p, np);
    /* Across nodes already, more ranks on one node than measured: their share of its link
     * to the network never was (a second new user's racks of 6-core nodes on a round-robin
     * hostfile, fitted at np 2-8, one rank a node: bcast of 1 MiB at np 64, 2 on a node
     * and more, read 5300 us in [2157, 13021] for 27743; 45-57% of its truths inside). */
    u->share_from = cf_placement_share(p, from);
    u->share_np = cf_placement_share(p, np);
    u->shared = u->nodes2 > 1 && u->share_np > u->share_from;
    /* Sharing a node, np's nearest rank may lie nearer rank 0 than any fitted np's did (a
     * node's memory where every fitted np crossed the network): the lower bound comes down
     * by as much (the dragonfly's round robin fitted at np 2-16, reduce of 4 B at np 128:
     * 0.849 us below [1.16, inf], np=2's own 1.22). */
    u->nearer = 1.0;
    if (u->shared && p->lat_us != NULL) {
        u->near_from_us = nearest_us(p, from);
        u->near_np_us = nearest_us(p, np);
        if (u->near_np_us * (1 + p->lat_margin) < u->near_from_us && u->near_from_us > 0)
            u->nearer = u->near_np_us / u->near_from_us;
    }
    if (u->nodes_np <= u->nodes2)
        return 0;
    u->nodes = 1;
    u->network = u->nodes2 == 1;
    return 1;
}

/* The tier rule for u (unmeasured_from's) against the reach measured at np `from`, which
 * reach names in the note ("np=2's rank 1"): u->tier and the note (the latencies, and what
 * was never measured) when np reaches a tier from never did; nothing else, nor where the
 * node rule already leaves no upper bound (the tier would say it again). */
static void tier_from(const cf_placement *p, long from, const char *reach, long np,
                      cf_unmeasured *u, char *note, size_t n)
{
    if (u->network || u->unplaced || u->shared) {
        /* The node rule judged; the reach still names the latency the notes add from (the
         * fitted np's inside one node of 16 cores read "0 us" where the probe said 0.308). */
        u->far_fitted_us = cf_placement_farthest_us(p, from);
        u->far_np_us = cf_placement_farthest_us(p, np);
        return;
    }
    if (!cf_placement_tier(p, from, np, &u->far_fitted_us, &u->far_np_us)) {
        /* Without a probe, nothing says how far np's added nodes lie: the limit of the case
         * below, a probe that reached no rank. A table imported from IMB or OSU has none
         * (racks, 4 racks of 8 four-core nodes, its probe left out and fitted at np 2-32,
         * one rack: allgather of 1 KiB at np 64, two racks, read 42.4 us in [30.7, 81.4]
         * for 123.2 simulated). */
        if (p->lat_us == NULL) {
            if (!u->nodes)
                return;
            u->tier = 1;
            u->far_np_us = NAN;
            snprintf(note, n,
                     "the table has no latency probe to say how far np=%ld's other %ld nodes "
                     "lie (another switch or rack costs more than the nodes measured), so the "
                     "interval has no upper bound (commfit measure probes every rank of its "
                     "launch)",
                     np, u->nodes_np - u->nodes2);
            return;
        }
        /* Past the ranks the probe reached, nothing says how far the others are: no farther
         * rank within the launch is no evidence that none lies beyond it (4 racks fitted
         * inside one, launched on 32: allreduce at np 64, 1 KiB, 12.1 us in [9.7, 19.6]
         * for 40.8 measured). */
        if (p->lat_us == NULL || np <= (long)p->nlat + 1 || from > (long)p->nlat + 1)
            return;
        u->tier = 1;
        u->far_np_us = NAN;
        snprintf(note, n,
                 "np=%ld reaches ranks past the launch's latency probe (ranks 1 to %zu, the "
                 "farthest %.3g us from rank 0): the network beyond was never measured, so the "
                 "interval has no upper bound (launch commfit measure on %ld ranks to probe "
                 "them; --np need not change)",
                 np, p->nlat, cf_placement_farthest_us(p, np), np);
        return;
    }
    u->tier = 1;
    snprintf(note, n,
             "np=%ld reaches ranks %.3g us from rank 0%s, %s %.3g us (latency probe at launch): "
             "the network beyond (another switch, group or more hops) was never measured, so "
             "the interval has no upper bound (measure at np=%ld to know it)",
             np, u->far_np_us, np > (long)p->nlat + 1 ? " within the probed launch" : "", reach,
             u->far_fitted_us, np);
}

/* "np=N spans K nodes" into buf; past the launch the table records, where the nodes are
 * a guess (cf_placement_nodes fills the launch's nodes in order, then new ones like its
 * last), "np=N would span K nodes (past the launch of L ranks: nodes like its last, of C
 * cores, taken)". A round-robin hostfile of 8 ranks on 8 dual-core hosts read np 16 as
 * spanning 12 nodes where another 8 hosts would take it, said as fact. */
static void span_text(const cf_placement *p, long np, long nodes, char *buf, size_t n)
{
    long launched = 0;
    for (size_t i = 0; i < p->nnodes; i++)
        launched += p->ranks[i];
    if (p->nnodes == 0 || np <= launched)
        snprintf(buf, n, "np=%ld spans %ld nodes", np, nodes);
    else
        snprintf(buf, n,
                 "np=%ld would span %ld nodes (past the launch of %ld ranks: nodes like its "
                 "last, of %ld core%s, taken)",
                 np, nodes, launched, p->cores[p->nnodes - 1],
                 p->cores[p->nnodes - 1] == 1 ? "" : "s");
}

/* Where u says np shares nodes more than `from` did (u->shared), says so, joined to note; of
 * the lower bound too where the answer takes it down (lower: the across-np model's,
 * across_low), with how much nearer np's nearest rank lies (u->nearer). */
static void shared_note(const cf_unmeasured *u, long np, const char *from, int lower, char *note,
                        size_t n)
{
    if (!u->shared)
        return;
    char part[512], near[160] = "";
    if (lower && u->nearer < 1)
        snprintf(near, sizeof near,
                 ", times x%.3g, np's nearest rank %.3g us from rank 0 where the fitted np's "
                 "lay %.3g us at least (latency probe at launch)",
                 u->nearer, u->near_np_us, u->near_from_us);
    snprintf(part, sizeof part,
             "np=%ld puts %ld ranks on a node, %s at most %ld: ranks sharing a node's link to "
             "the network in that number were never measured, so the interval has no upper "
             "bound%s%s",
             np, u->share_np, from, u->share_from,
             lower ? " and its lower bound at most the smallest fitted np's" : "", near);
    cf_note_join(note, n, part);
}

/* The unplaced note's (cf_unmeasured) opening and close. */
#define UNPLACED_NOTE                                                                              \
    "the table does not say where its ranks ran (no ranks_per_node metadata): nothing says "     \
    "whether "
#define UNPLACED_FIX                                                                               \
    " (commfit import --ranks-per-node, or a table of commfit measure, says where they ran)"

void cf_placement_unmeasured(const cf_placement *p, long np, cf_unmeasured *u, char *note, size_t n)
{
    int nodes = unmeasured_from(p, 2, np, u, note, n);
    /* As beyond the fitted np: ranks farther from rank 0 than np=2's rank 1 sit across a
     * tier np=2 never crossed. */
    char tier[400] = "";
    tier_from(p, 2, "np=2's rank 1", np, u, tier, sizeof tier);
    if (u->unplaced)
        snprintf(note, n, UNPLACED_NOTE "np=%ld crosses nodes or switches np=2 never did, "
                 "so the interval has no upper bound" UNPLACED_FIX, np);
    char span[200];
    if (u->network || nodes)
        span_text(p, np, u->nodes_np, span, sizeof span);
    if (u->unplaced)
        ;
    else if (u->network)
        snprintf(note, n,
                 "np=2 ran inside one node (%s%s%ld cores) and %s: the network between nodes "
                 "was never measured, so the interval has no upper bound (measure two ranks on "
                 "two nodes to know it)",
                 p->host0, p->host0[0] ? ", " : "", p->cores[0], span);
    else if (nodes)
        /* With a tier too the interval has no upper bound: it assumes nothing of the
         * contention then, and the tier's note says why. */
        snprintf(note, n,
                 "%s, np=2 spanned %ld: contention on links they share was never measured%s",
                 span, u->nodes2, u->tier || u->shared ? "" : " (the interval assumes none)");
    shared_note(u, np, "np=2", 0, note, n);
    cf_note_join(note, n, tier); /* after the nodes' note: both reasons */
}

double cf_placement_farthest_us(const cf_placement *p, long np)
{
    if (p->lat_us == NULL || np < 2)
        return NAN;
    size_t n = (size_t)np - 1 < p->nlat ? (size_t)np - 1 : p->nlat;
    if (p->lat_far != NULL)
        return n > 0 ? p->lat_far[n - 1] : 0.0;
    double far = 0;
    for (size_t i = 0; i < n; i++)
        far = fmax(far, p->lat_us[i]);
    return far;
}

/* The latency from rank 0 that a rank must pass to be farther than reach (a farthest
 * latency) by more than the probe resolves: its margin (CF_TIER_MARGIN plus its spread) and
 * one timer tick, so that a reach of 0 (below the timer's resolution) is within one tick.
 * NAN for a reach of NAN (no probe): no latency passes it. */
static double tier_limit_us(const cf_placement *p, double reach)
{
    return reach >= 0 ? reach * (1 + p->lat_margin) + p->lat_res_us : NAN;
}

int cf_placement_tier(const cf_placement *p, long fitted, long np, double *far_fitted_us,
                      double *far_np_us)
{
    double a = cf_placement_farthest_us(p, fitted), b = cf_placement_farthest_us(p, np);
    *far_fitted_us = a;
    *far_np_us = b;
    /* Past the launch the probe says nothing of the ranks it never reached: only a farther
     * rank inside it counts. */
    return np > fitted && b > tier_limit_us(p, a);
}

void cf_placement_beyond_fitted(const cf_placement *p, long fitted, long np, cf_unmeasured *u,
                                char *note, size_t n)
{
    int nodes = unmeasured_from(p, fitted, np, u, note, n);
    char reach[48], tier[600] = "";
    snprintf(reach, sizeof reach, "the fitted np (to %ld) at most", fitted);
    tier_from(p, fitted, reach, np, u, tier, sizeof tier);
    if (u->tier && !(u->network || u->unplaced || u->shared))
        cf_note_join(tier, sizeof tier,
                     "its lower end at most the largest fitted np's: past the tier the time may "
                     "grow less with np than within the fitted reach");
    /* network: every fitted np ran inside one node (the largest spans the most): their
     * growth with np is the node's shared memory, which says nothing of a network in either
     * direction. */
    if (u->unplaced)
        snprintf(note, n, UNPLACED_NOTE "np=%ld crosses nodes or switches the fitted np (to "
                 "%ld) never did, so the interval has no upper bound and its lower bound at "
                 "most the smallest fitted np's" UNPLACED_FIX, np, fitted);
    else if (u->network || nodes) {
        char span[200];
        span_text(p, np, u->nodes_np, span, sizeof span);
        if (u->network)
            snprintf(note, n,
                     "the fitted np (to %ld) ran inside one node (%s%s%ld cores) and %s: the "
                     "network between nodes was never measured, so the interval has no upper "
                     "bound and its lower bound at most the smallest fitted np's (measure "
                     "across two nodes to know it)",
                     fitted, p->host0, p->host0[0] ? ", " : "", p->cores[0], span);
        else
            snprintf(note, n,
                     "%s, the largest fitted np=%ld spanned %ld: contention on links they share "
                     "was measured up to %ld nodes only",
                     span, fitted, u->nodes2, u->nodes2);
    }
    char from[48];
    snprintf(from, sizeof from, "the fitted np (to %ld)", fitted);
    shared_note(u, np, from, 1, note, n);
    cf_note_join(note, n, tier); /* after the nodes' note: both reasons */
}

/* Where u says np leaves the one node every fitted np ran in, or that nothing says where
 * they ran: est's lower bound down to the smallest fitted np's at size m; where it reaches a
 * tier no fitted np did, down to the largest fitted np's. */
static void across_low(const cf_across *a, const cf_unmeasured *u, double m, double anchor,
                       cf_estimate *est)
{
    if (a->nnp == 0)
        return;
    /* Past a tier no fitted np reached, the time may grow less with np than within their
     * reach as well as more: where the farther ranks' slower route holds their flows back,
     * the nearer ones take more of the links they share and leave sooner, and the ranks'
     * mean falls below an equal sharing's (SimGrid's fat tree, a rank a node, MPICH's gatherv
     * of 250000 B: np 2-8 on one switch 21.3 us more a rank, 160.5 us at np 8; np 16 across
     * two switches 293.5, read 331.3 in [330.4, inf] from the fitted formula's exact growth).
     * The lower end at most the largest fitted np's own (the note says so: beyond_fitted),
     * the formula's reading there times the answer's factor through that np's own answer
     * (anchor, which past it is that np's). */
    if (u->tier && !(u->network || u->unplaced || u->shared)) {
        cf_estimate top;
        cf_across_predict(a, a->np[a->nnp - 1], m, &top);
        if (top.lo_us >= 0)
            est->lo_us = fmin(est->lo_us, top.lo_us * fmin(1.0, anchor));
        return;
    }
    if (!(u->network || u->unplaced || u->shared))
        return;
    /* Growth inside one node is no guide across a network either way (and the library may
     * switch algorithm with the communicator's size): a call over more ranks that also
     * crosses a network moves each rank's data at least once, as the smallest fitted np
     * did. */
    cf_estimate low;
    cf_across_predict(a, a->np[0], m, &low);
    est->lo_us = fmin(est->lo_us, low.lo_us * (u->shared ? u->nearer : 1.0));
}

/* Whether the probe's latencies to ranks 1 to np - 1 form tiers of aligned blocks: no rank
 * nearer than one before it by more than the probe resolves. */
static int lat_tiered(const cf_placement *p, long np)
{
    const double *L = p->lat_us;
    double far = L[0];
    for (long r = 2; r < np; r++) {
        if (far > tier_limit_us(p, L[r - 1]))
            return 0;
        far = fmax(far, L[r - 1]);
    }
    return 1;
}

/* The farthest one-way latency from rank 0 among ranks 1 to n - 1 that the sized probe
 * reached, at its size s. */
static double farthest_sized_us(const cf_placement *p, long n, size_t s)
{
    size_t r = (size_t)n - 1 < p->nlat ? (size_t)n - 1 : p->nlat;
    if (p->sized_far != NULL)
        return r > 0 ? p->sized_far[s * p->nlat + r - 1] : 0.0;
    double far = 0;
    for (size_t i = 0; i < r; i++)
        far = fmax(far, p->sized_us[s * p->nlat + i]);
    return far;
}

/* Whether r is one of SMPI's two-level algorithms (its mpich selector's bcast, reduce and
 * allreduce, SMPI's recursive doubling CF_STEPS_SMP_FOLD among them), whose nodes' leaders
 * alone cross the network. */
static int two_level(const cf_rule_alg *r)
{
    return strncmp(r->name, "two-level", 9) == 0;
}

double cf_placement_tier_extra(const cf_placement *p, long fitted, long np, const cf_rule_alg *alg,
                               double m, double *nsteps, double *bw_us, double *bytes_us)
{
    cf_step_span sp[CF_SPANS_MAX];
    int k = cf_steps_spans(alg, np, m, sp, CF_SPANS_MAX);
    double extra = 0.0, steps = 0.0, bw = 0.0, bytes = 0.0;
    /* A step is paced by its slowest pair: the grid's cost per step at the fitted np holds
     * pairs as far as the fitted reach, a step whose pairs span farther ranks waits that much
     * longer: its latency at 8 bytes on the steps whose latency it waits for, and what the
     * sized probe adds beyond at the size of the step's messages (the route's bandwidth, a
     * protocol's step) on the steps whose transfer it paces. The probe measures from rank 0
     * only; other pairs may lie farther still, so this is what the probe shows at least, not
     * all a tier may cost. */
    /* Only where the probe's latencies form tiers of aligned blocks is a block's farthest
     * rank as far as its step's pairs: on a torus the farthest rank of the first 2d lies
     * more hops away than the pairs at distance d, and the sized probe's growth with size
     * (SMPI multiplies a route's latency by up to 11.6 from 64 KiB) would multiply that
     * over-reading (sim-torus fitted at np 2-16, allgather of 4 KiB at np 64: +5.8% with
     * the 8-byte reading alone, +31.5% with the sized one). */
    long reach = np - 1 < (long)p->nlat ? np : (long)p->nlat + 1;
    int aligned = p->lat_us != NULL && lat_tiered(p, reach), sized = p->nsized > 0 && aligned;
    double near_sized[CF_TIERS_SIZED_MAX]; /* the fitted np's farthest at each size, once */
    for (size_t s = 0; sized && s < p->nsized; s++)
        near_sized[s] = farthest_sized_us(p, fitted, s);
    /* SMPI's chain moves a hop's bytes in 8 KiB segments, each sent eagerly at every size,
     * where the probe's messages from CF_EAGER_MAX on wait for their receiver (SimGrid's
     * rendezvous, with a route's latency that grows): its hop read along the probe's eager
     * sizes, past them along the line through the two largest (data/platforms/leaves.xml, 2
     * ranks a node: a hop of 64 KiB to the next node 14.9 us more so, 26.9 by the probe's own
     * 64 KiB; SMPI's chain bcast of 64 KiB at np 15, 47.9 us simulated, read 95.3 from np=2
     * by the latter). None eager: the 8-byte latency alone (the review of af4166e). */
    /* What the sized probe adds to a message beyond its bytes (a protocol's handshake, a
     * simulator's latency that grows with the size) the pair exchange's megabyte does not show
     * (*bytes_us leaves it out). Not for rounds of messages posted at once, whose handshakes
     * overlap, nor a two-level algorithm's leaders, whose share of the traffic reads it
     * (tier_add): all of it the bytes' there (SimGrid's pods.xml, MPICH's rounds of 4 at np
     * 16, 16 KiB: 93.2 us, read 119.3 so, 164.6 with each message's own). */
    int own = alg->steps != CF_STEPS_ROUNDS && !two_level(alg);
    int nsized = (int)p->nsized;
    while (alg->steps == CF_STEPS_CHAIN && nsized > 0 &&
           !(p->sized_bytes[nsized - 1] < CF_EAGER_MAX))
        nsized--;
    for (int i = 0; i < k; i++) {
        double near, far;
        if (!cf_placement_tier(p, fitted, sp[i].ranks, &near, &far))
            continue;
        double far_block = far; /* the sized readings' own rank: the block's farthest */
        /* From np=2, whose one pair (rank 0's with rank 1) is what the reading paid, a
         * level's step waits for its own pairs, rank 0's with rank d, not for its block's
         * farthest: on a torus the farthest of the first 2d ranks lies more hops away than
         * rank d (sim-torus, rank 8 4.04 us from rank 0, the farthest of the first 16 8.07;
         * its allreduce of 4 B at np 16 from np=2 read 22.2 us for the simulated 14.1 with
         * the farthest, 14.1 with the partner's). Where the tiers are aligned blocks the two
         * are the same. A larger fitted np's cost per step holds pairs of every distance it
         * ran, as far as its farthest: the block's farthest is read against that, like with
         * like (sim-torus fitted at np 2-16 and read at np 64 with the partner's: median
         * error 11.0 -> 19.0%, the 4x4x4 torus slower than its pairs' latencies say). */
        if (fitted == 2 && sp[i].partner > 0 && (size_t)sp[i].partner <= p->nlat) {
            far = p->lat_us[sp[i].partner - 1];
            if (!(far > tier_limit_us(p, near)))
                continue;
        }
        double lat = far - near;
        /* Rounds of isends and irecvs (SMPI's scatter-dest alltoall) each wait for a
         * farther tier where the tiers are aligned blocks, each round having pairs across
         * its boundary (sim-racks, 256 B at np 64: 16 rounds of the rack's latency). Where
         * latency grows with the hops (a torus, a mesh) a round's pairs lie mostly nearer
         * than the farthest and the rounds overlap as messages posted at once do: once
         * (sim-torus from np=2, 1 KiB at np 16: +45% counting its 4 rounds, -14% once). */
        double count = alg->steps == CF_STEPS_ROUNDS && !aligned ? fmin(1.0, sp[i].count)
                                                                 : sp[i].count;
        extra += count * lat;
        steps += count;
        if (!sized || !(sp[i].bytes > 0))
            continue;
        double d[CF_TIERS_SIZED_MAX];
        for (size_t s = 0; s < p->nsized; s++)
            d[s] = farthest_sized_us(p, sp[i].ranks, s) - near_sized[s];
        double at = cf_sized_at(lat, p->sized_bytes, d, 1, nsized, sp[i].bytes);
        if (at > lat) {
            bw += sp[i].paced * (at - lat);
            /* Of it, the message's own (own, above): the block's farthest rank's sized reading
             * over its own 8-byte latency (d[] reads that rank; from np=2 lat is the step's
             * partner's, nearer on a torus), less the route's bytes, the growth per byte
             * between the probe's two largest sizes; the rest is the bytes'. Read against the
             * partner's latency, the block's farther 8-byte latency passed for a handshake
             * (the third review: tornodes from np=2, allgather of 1 KiB at np 16, its step of
             * distance 8 to rank 8, 2.02 us, its block's farthest 4.04: 3.0% -> 14.8% over). */
            double slope = nsized >= 2 ? (d[nsized - 1] - d[nsized - 2]) /
                                             (p->sized_bytes[nsized - 1] -
                                              p->sized_bytes[nsized - 2])
                                       : NAN;
            double own_us =
                fmax(0.0, at - (far_block - near) - fmax(0.0, slope) * sp[i].bytes);
            double part = own && isfinite(slope) ? (at - lat) - fmin(at - lat, own_us) : at - lat;
            bytes += sp[i].paced * part;
        }
    }
    if (nsteps != NULL)
        *nsteps = steps;
    if (bw_us != NULL)
        *bw_us = bw;
    if (bytes_us != NULL)
        *bytes_us = bytes;
    return extra + bw;
}

/* The first rank (from fitted, below np) the probe puts in a farther tier than the fitted
 * np's farthest (cf_placement_tier's test, rank by rank: one pass over the probe), np when
 * none. */
static long tier_first_rank(const cf_placement *p, long fitted, long np)
{
    double limit = tier_limit_us(p, cf_placement_farthest_us(p, fitted));
    for (long r = fitted; r < np && (size_t)r <= p->nlat; r++)
        if (p->lat_us[r - 1] > limit)
            return r;
    return np;
}

/* The pair-exchange probe's level for n ranks: the index of the smallest probed power of two
 * >= n (the level whose halfway cut n's ranks cross), the largest probed where n is past
 * them; -1 without the probe. */
static int pair_level(const cf_placement *p, long n)
{
    if (p->npair == 0)
        return -1;
    int k = 0;
    while ((size_t)(k + 1) < p->npair && (2L << k) < n)
        k++;
    return k;
}

double cf_placement_pair_extra(const cf_placement *p, long fitted, long np, long *near_ranks,
                               long *far_ranks)
{
    int a = pair_level(p, fitted), b = pair_level(p, np);
    *near_ranks = a >= 0 ? 2L << a : 0;
    *far_ranks = b >= 0 ? 2L << b : 0;
    if (a < 0 || b <= a)
        return 0.0;
    double near = p->pair_us[a], far = p->pair_us[b];
    if (!(far > near * (1 + CF_TIER_MARGIN)))
        return 0.0;
    return (far - near) / p->pair_bytes;
}

/* ---- the barrier's spread exits (cf_placement_spread_extra) ---- */

/* The latency between two ranks below np as the probe tells it (rank 0's to each rank):
 * where no rank is nearer than one before it by more than the probe resolves, the
 * latencies form tiers of aligned blocks (a node, a switch, a rack: the ranks fill each
 * in turn), and two ranks are as far apart as the largest block boundary between them
 * (the latency of the tier that block starts); where they do not (a torus's ranks come
 * nearer again), as far apart as rank 0 and the rank their distance away. None above cap. */
typedef struct probe_lat {
    const double *lat; /* lat[r - 1]: rank r's */
    int blocks;        /* tiers of blocks, else by distance */
    long *start;       /* tier t's blocks: start[t] ranks each, growing */
    double *level;     /* the latency between two of tier t's blocks */
    size_t nt;
    double level0; /* inside the smallest block */
    double cap;
} probe_lat;

static double probe_latency(const void *ctx, long i, long j)
{
    const probe_lat *m = ctx;
    double l = m->level0;
    if (!m->blocks)
        l = m->lat[labs(i - j) - 1];
    else
        for (size_t t = m->nt; t-- > 0;)
            if (i / m->start[t] != j / m->start[t]) {
                l = m->level[t];
                break;
            }
    return l < m->cap ? l : m->cap;
}

/* The model over ranks 1 to np - 1 of the probe (np - 1 <= p->nlat). 0, -1 when out of
 * memory. */
static int probe_lat_init(const cf_placement *p, long np, probe_lat *m)
{
    const double *L = p->lat_us;
    *m = (probe_lat){L, lat_tiered(p, np), NULL, NULL, 0, L[0], INFINITY};
    if (!m->blocks)
        return 0;
    m->start = malloc((size_t)np * sizeof *m->start);
    m->level = malloc((size_t)np * sizeof *m->level);
    if (m->start == NULL || m->level == NULL)
        return -1;
    double far = L[0];
    for (long r = 2; r < np; r++) {
        double l = L[r - 1];
        if (l > tier_limit_us(p, far)) {
            m->start[m->nt] = r;
            m->level[m->nt++] = l;
        } else if (m->nt > 0)
            m->level[m->nt - 1] = fmax(m->level[m->nt - 1], l);
        else
            m->level0 = fmax(m->level0, l);
        far = fmax(far, l);
    }
    return 0;
}

/* Whether the pair-exchange probe's levels up to index b form tiers: no level exchanges
 * faster than the one below it by more than the probe resolves (a torus's do: its levels
 * cross 2, then 1, then 2 hops). */
static int pair_tiered(const cf_placement *p, int b)
{
    for (int k = 1; k <= b; k++)
        if (p->pair_us[k] * (1 + CF_TIER_MARGIN) < p->pair_us[k - 1])
            return 0;
    return 1;
}

/* The steps of the probe's farthest latency from rank 0 into out's reach fields. */
static void reach_steps(const cf_placement *p, cf_tiers *out)
{
    if (p->lat_us == NULL || p->nlat < 1)
        return;
    long np = (long)p->nlat + 1;
    out->reach_probed = np;
    double reach = cf_placement_farthest_us(p, 2);
    for (long b = 2; b < np; b++) {
        double far = cf_placement_farthest_us(p, b + 1);
        if (!(far > tier_limit_us(p, reach)))
            continue;
        if (out->nreach == CF_TIERS_MAX) { /* more steps than kept: nothing said past them */
            out->reach_probed = b;
            return;
        }
        out->reach_ranks[out->nreach++] = b;
        reach = far;
    }
}

void cf_placement_tiers(const cf_placement *p, cf_tiers *out)
{
    memset(out, 0, sizeof *out);
    out->node_ranks = p->nnodes > 0 ? p->ranks[0] : 0;
    reach_steps(p, out);
    long np = (long)p->nlat + 1;
    probe_lat m = {0};
    /* The trees are replayed from root 0, as the calls were timed without --root-shift;
     * each call alone with a barrier after it, not back to back in a loop, where one call's
     * waits overlap the next's. */
    if (p->lat_us == NULL || p->nlat < 2 || p->root_shift || p->timed_loop ||
        probe_lat_init(p, np, &m) != 0 ||
        !m.blocks || m.nt > CF_TIERS_MAX) {
        free(m.start);
        free(m.level);
        return;
    }
    out->nsized = p->nsized > 0 ? (int)p->nsized : 0;
    for (int j = 0; j < out->nsized; j++)
        out->sized_bytes[j] = p->sized_bytes[j];
    for (size_t t = 0; t < m.nt; t++)
        if (m.level[t] > p->lat_us[0]) { /* a tier adds latency, or is none */
            out->ranks[out->n] = m.start[t];
            /* at each size of the sized probe, its farthest rank's latency less rank 1's:
             * the ranks from its first to the next tier's */
            long last = t + 1 < m.nt ? m.start[t + 1] : np;
            for (int j = 0; j < out->nsized; j++) {
                const double *L = p->sized_us + (size_t)j * p->nlat;
                double far = 0.0;
                for (long r = m.start[t]; r < last; r++)
                    far = fmax(far, L[r - 1] - L[0]);
                out->sized_extra_us[j][out->n] = far;
            }
            out->extra_us[out->n++] = m.level[t] - p->lat_us[0];
        }
    out->base_us = p->lat_us[0];
    out->probed = np;
    out->rendezvous = p->simulated; /* as the barrier's replay (replay_wait) */
    /* The pair-exchange levels where they form tiers, an increment the probe does not
     * resolve none (pair_add's reading): what the traffic adds, beyond what one message of
     * the probe's bytes between ranks 0 and 2^k takes over one between ranks 0 and 1 (the
     * sized probe's tier, where it was run: the route's latency and bandwidth alone). */
    if (p->npair >= 1 && pair_tiered(p, (int)p->npair - 1))
        for (size_t k = 0; k < p->npair && k < CF_TIERS_PAIR_MAX; k++) {
            double over = p->pair_us[k] - p->pair_us[0];
            double one = out->nsized > 0 && k < 62
                             ? cf_tiers_extra_us(out, 0, 1L << k, p->pair_bytes)
                             : 0.0;
            out->pair_us_per_byte[k] = over > CF_TIER_MARGIN * p->pair_us[0]
                                           ? fmax(0.0, over - one) / p->pair_bytes
                                           : 0.0;
            out->npair = (int)k + 1;
        }
    /* The same from its distances, each level's ranks all sending (pair_add_distances'
     * reading), over what the nearest distance at the first level takes. */
    if (out->npair > 0 && p->pair_dist_us != NULL)
        for (size_t k = 0; k < p->npair && k < CF_TIERS_DIST_MAX; k++) {
            for (size_t j = 0; j <= k; j++) {
                double t0 = p->pair_dist_us[0];
                double over = p->pair_dist_us[k * p->npair + j] - t0;
                double one = out->nsized > 0 ? cf_tiers_extra_us(out, 0, 1L << j, p->pair_bytes)
                                             : 0.0;
                out->dist_us_per_byte[CF_TIERS_DIST_ROW(k) + j] =
                    over > CF_TIER_MARGIN * t0 ? fmax(0.0, over - one) / p->pair_bytes : 0.0;
            }
            out->ndist = (int)k + 1;
        }
    free(m.start);
    free(m.level);
}

/* The mean wait the exits e of np ranks add to a call of pattern c (see
 * cf_placement_spread_extra): cf_exits_wait from root 0; with the root shifted each call
 * (root_shift), e is reordered. */
static double exits_wait(double *e, long np, const cf_coll *c, int root_shift)
{
    if (!c->rooted)
        return cf_exits_wait(e, np, CF_FLOW_ALL);
    int to_root = cf_coll_to_root(c);
    if (!root_shift)
        return cf_exits_wait(e, np, to_root ? CF_FLOW_TO_ROOT : CF_FLOW_FROM_ROOT);
    /* Every rank a root in turn: to it, the mean root's wait for the last, over np; from it,
     * each root's wait over the ranks that left before it, from the exits in order. */
    if (to_root)
        return cf_exits_wait(e, np, CF_FLOW_ALL) / (double)np;
    cf_sort_doubles(e, (size_t)np);
    double w = 0, before = 0;
    for (long k = 0; k < np; k++) {
        w += (double)k * e[k] - before;
        before += e[k];
    }
    return w / ((double)np * (double)np);
}

/* Whether pattern c's calls were each timed alone with a barrier after them (measure's
 * COLL_LOOP: a collective's, not the point-to-point patterns', not barrier's own loop) in a
 * table whose launch ran the latency probe. */
static int timed_alone(const cf_placement *p, const cf_coll *c)
{
    return c != NULL && c->nmsg == 0 && c->sized && p->lat_us != NULL && !p->timed_loop;
}

/* The mean wait the barrier alg leaves in a call of pattern c at np (exits_wait), replayed
 * over the probe's latencies, none above cap_us; NAN when it cannot be replayed (out of
 * memory). The probe must reach np's ranks. */
static double replay_wait(const cf_placement *p, const char *alg, const cf_coll *c, long np,
                          double cap_us)
{
    probe_lat m = {0};
    double *e = malloc((size_t)np * sizeof *e), w = NAN;
    cf_protocol proto = p->simulated ? CF_PROTO_RENDEZVOUS : CF_PROTO_EAGER;
    if (e != NULL && probe_lat_init(p, np, &m) == 0) {
        m.cap = cap_us;
        if (cf_barrier_exits(alg, np, probe_latency, &m, proto, e) == 0)
            w = exits_wait(e, np, c, p->root_shift);
    }
    free(m.start);
    free(m.level);
    free(e);
    return w;
}

int cf_placement_can_replay(const cf_placement *p, const char *pattern)
{
    /* Not timed with a barrier after each call, or no probe: no wait to speak of. Only where
     * the probe's latencies (over the whole launch) form tiers of aligned blocks does rank
     * 0's probe give every pair's latency. Where they do not (a torus, a dragonfly: a pair's
     * latency depends on where both ranks sit, not on their distance), the replay reads them
     * by distance, a guess: on the shipped dragonfly it makes bcast's wait at np 16 2.0 us
     * where SMPI's exits give 0.4, and 11.3 at np 64 where they give 6.7. */
    return timed_alone(p, cf_pattern_facts(pattern)) && lat_tiered(p, (long)p->nlat + 1);
}

double cf_placement_barrier_wait(const cf_placement *p, const char *rules, const char *pattern,
                                 long np)
{
    if (np < 3 || !cf_placement_can_replay(p, pattern))
        return 0.0;
    const cf_coll *c = cf_pattern_facts(pattern);
    if (np - 1 > (long)p->nlat)
        return NAN; /* ranks the probe never reached */
    double w = replay_wait(p, cf_barrier_alg(rules, np), c, np, INFINITY);
    /* Below the timer's tick (and a sum's rounding): none. */
    return isnan(w) || w > fmax(p->lat_res_us, 1e-6) ? w : 0.0;
}

double cf_placement_spread_extra(const cf_placement *p, const char *rules, const char *pattern,
                                 long np, double far_fitted_us, const char **barrier)
{
    const cf_coll *c = cf_pattern_facts(pattern);
    const char *alg = cf_barrier_alg(rules, np);
    if (barrier != NULL)
        *barrier = alg;
    if (!timed_alone(p, c) || np < 3 || np - 1 > (long)p->nlat || !(far_fitted_us >= 0))
        return 0.0;
    double all = replay_wait(p, alg, c, np, INFINITY);
    double extra = all - replay_wait(p, alg, c, np, far_fitted_us);
    /* What the probe shows at least: a replay whose capped exits wait longer (a spread is
     * no sum of latencies) adds nothing rather than take away; nor does one that failed; nor
     * the rounding of two equal replays (a ring's np 128 "added 3.553e-15 us", said). */
    return extra > 1e-9 * fabs(all) ? extra : 0.0;
}

/* Whether a bcast's sends of m bytes wait for their receivers: as np=2's own times say where
 * they tell (its root's share of the receipt over 1/2, the lesser of the measured sizes
 * around: the protocol's step lies somewhere between, and the greater read MPICH's bcast of
 * 50000 B at np 16 on meshnodes.xml, where SimGrid detaches sends below 64 KiB, 2.49 times the
 * simulated 14.2 us, 2.26 as eager), else from CF_EAGER_MAX (SimGrid's detach threshold: a
 * model fitted across np, np=2 times that moved no data, a table without the ping-pong). On
 * SimGrid's tables np=2 says so from 64 KiB. */
static int bcast_held(const cf_p2p *pp, const char *datatype, double m)
{
    if (pp != NULL && cf_p2p_no_transfer(pp, "bcast", datatype) == NULL) {
        double s = cf_p2p_sender_share(pp, "bcast", datatype, m, 0);
        if (isfinite(s))
            return s > 0.5;
    }
    return m >= CF_EAGER_MAX;
}

/* The share of np ranks whose finish waits on the steps that reach past the ranks fitted np
 * reached. The table's time is the mean over the ranks of each one's time in the call
 * (measure's coll_timing, IMB's t_avg), so a step that waits longer counts for the ranks
 * whose finish waits on it: every rank where data goes from all to all; the ranks the root
 * reaches through the farther tier (from the first rank the probe puts there) where data
 * flows from a root (bcast, scatter; a binomial scatter's eager crossing steps each their
 * receiver's subtree, below); the root alone where it flows to one (reduce,
 * gather), whose other ranks leave once their part is sent. A reduce by recursive halving
 * and then a gather (r's steps CF_STEPS_HALVING2) has every rank wait on its partner at
 * each of the halving's steps, half the steps counted, and the root alone at the gather's:
 * data/sim-racks.csv's reduce of 4 KiB at np 64, SMPI's scatter-gather among the nodes,
 * takes every rank at least 10.7 us, the rack's latency. */
static double waiting_share(const cf_placement *p, const char *pattern, const cf_rule_alg *r,
                            long fitted, long np, const cf_p2p *pp, const char *datatype,
                            double m)
{
    const cf_coll *c = cf_pattern_facts(pattern);
    if (c == NULL || !c->rooted)
        return 1.0;
    long first = tier_first_rank(p, fitted, np);
    /* A bcast tree whose sends wait for their receivers (bcast_held): each rank sends
     * on from its arrival, its subtree a level below its sender's, and in a full tree every
     * rank leaves when the root does, each waiting the root's crossing steps (SimGrid's
     * meshnodes.xml, nodes of 8, np 16: Open MPI's binomial bcast of 256 KiB 76.4 us, read
     * 62.6 with the ranks past rank 8 alone waiting the crossing, 76.4 with all; MPICH's
     * binomial tree across nodes on racks.xml, nodes of 4, 64 KiB at np 16: 47.7, read 42.0
     * and 47.7). Past a full tree a short subtree leaves sooner, having waited fewer of them
     * (cf_steps_held_cross_share, the tiers taken as aligned blocks of the first farther
     * rank's count: cloud.xml, 3 nodes of 4 at np 12, MPICH's bcast of 700000 B, 609.6 us,
     * read 711.6 with every rank waiting both of the root's crossings, 630.5 with the third
     * node's waiting one). */
    if (strcmp(pattern, "bcast") == 0 && cf_steps_knomial_bcast(r->steps) &&
        bcast_held(pp, datatype, m)) {
        double s = cf_steps_held_cross_share(r->steps, np, first);
        return s > 0.0 ? fmin(1.0, s) : 1.0;
    }
    if (cf_coll_to_root(c) &&
        (r->steps == CF_STEPS_HALVING2 || r->steps == CF_STEPS_SMP_HALVING2))
        return 0.5 + 0.5 / (double)np;
    /* A gather's binomial tree: at its step of distance d, ranks r (r a multiple of 2d, r + d
     * below np) receive from r + d and wait on it, each intermediate rank its subtree's steps
     * as the root all of them. The extra latency is counted along the root's path (its steps
     * from the first farther rank on); the mean waits each receiver's crossing step, the
     * tiers taken as aligned blocks of that rank's count (cloud.xml, 4 ranks a node, np 16:
     * ranks 0 and 8 at distance 4, rank 0 at 8, 3 of 16 over the root's 2 steps, where the
     * root alone read 1 of 16: SimGrid's gather of 4 B 2.36 us, read 1.91, 2.5 with this,
     * 2.36 with each step's reading alone, p2p.c; nodes of 6 at np 16 cross at distances 2
     * and 4 too, 4 -> 6 and 8 -> 12, which the root's path never does: 3 of 16 over its 1). */
    /* Its sender waits too where a rendezvous held np=2's sender for a message of that size,
     * the subtree's blocks it sends (cf_p2p_sender_share over 1/2; an eager sender's few
     * percent are its own posting, which no tier lengthens): cloud.xml at np 16, 16 KiB a
     * block, the crossing senders' 64 and 128 KiB held (SimGrid detaches sends below 64 KiB),
     * the gather took 35.3 us, read 20.3 with the receivers alone. */
    /* A chain's hop into another block (its spans count them all) is waited for by the ranks
     * past it: the hop into rank b by (np - b) / np of them, the tiers taken as aligned blocks
     * of the first farther rank's count, the mean over those hops (data/platforms/leaves.xml,
     * 2 ranks a node, np 15: 7 hops across nodes, 47%; one hop waited by the ranks past the
     * first farther one read SMPI's chain bcast of 64 KiB 39% low; racks.xml, 4 a node, np 5:
     * rank 4 alone, 20%). */
    if (r->steps == CF_STEPS_CHAIN) {
        double w = 0.0, hops = 0.0;
        for (long b = first; b > 0 && b < np; b += first, hops++)
            w += (double)(np - b) / (double)np;
        return hops > 0.0 ? w / hops : 1.0;
    }
    if (strcmp(pattern, "gather") == 0 && strcmp(r->name, "binomial tree") == 0) {
        long steps = 0;
        double waits = 0.0;
        for (long d = 1; d < np && first < np; d *= 2) {
            steps += d >= first;
            for (long q = 0; q + d < np; q += 2 * d)
                if (q / first != (q + d) / first) {
                    long blocks = d < np - (q + d) ? d : np - (q + d);
                    double s = pp != NULL ? cf_p2p_sender_share(pp, pattern, datatype,
                                                                (double)blocks * m, 0)
                                          : NAN;
                    waits += s > 0.5 ? 2.0 : 1.0;
                }
        }
        if (steps > 0)
            return waits / ((double)np * (double)steps);
    }
    /* A scatter's binomial tree whose crossing steps' messages are eager: the receiver of a
     * crossing step waits on it, and so does its subtree (up to d ranks), which it sends on
     * to after, not every rank past the first farther one all of the root's crossing steps
     * (SimGrid's tornodes.xml, 4 ranks a node, np 16: rank 8's 8 ranks wait the step of
     * distance 8, ranks 4's and 12's 4 each that of distance 4, half the ranks over the
     * root's 2 steps, where 12 of 16 had each waited both: Open MPI's scatter of 64 B, 2.76
     * us simulated, read 5.02, now 3.78). Where a rendezvous held np=2's root for a message
     * of a crossing step's size (its share over 1/2, the larger of the measured sizes
     * around), the sender waits, and so do the ranks it sends to after: the rule below
     * stands (MPICH's scatter of 1 MiB at np 16 on the cloud platform, 3779 us simulated,
     * read 3798 by it, 2923 by the subtrees alone). Only with the np=2 shares to tell
     * (not a fit across np), and tiers of aligned blocks of a power of two ranks (the
     * root's crossing steps are then those of distance first and more; nodes of 6 at np 16,
     * which the steps of distance 2 and 4 cross off the root's path, read the scatter of 4
     * B 31% high by it, 1% by the rule below), all np's ranks within the latency probe's
     * reach (past it, what the barrier's spread exits add is not read, and the larger share
     * below made up for it: cloud's MPICH scatter of 64 B at np 32 read 38% low by the
     * subtrees, 3% high by the share below, the third review). */
    if (strcmp(pattern, "scatter") == 0 && strcmp(r->name, "binomial tree") == 0 && pp != NULL &&
        first < np && (first & (first - 1)) == 0 && np <= (long)p->nlat + 1 && lat_tiered(p, np)) {
        long steps = 0;
        double waits = 0.0;
        int held = 0;
        for (long d = 1; d < np; d *= 2) {
            steps += d >= first;
            for (long q = 0; q + d < np; q += 2 * d)
                if (q / first != (q + d) / first) {
                    long sub = d < np - (q + d) ? d : np - (q + d);
                    /* unknown (NAN: np=2 measured it at one size, or not) as held */
                    held |= !(cf_p2p_sender_share(pp, pattern, datatype, (double)sub * m, 1) <= 0.5);
                    waits += (double)sub;
                }
        }
        if (steps > 0 && !held)
            return fmin(1.0, waits / ((double)np * (double)steps));
    }
    /* A reduce tree: the ranks whose subtree holds a message across two aligned blocks of the
     * first farther rank's count, each waiting for it before it sends on, where the others
     * leave once their part is sent (meshnodes.xml, nodes of 8, np 16: Open MPI's binary
     * tree crosses into the second node below ranks 3 to 7, and those and their ancestors,
     * 8 of 16, wait; its reduce of 4 B 1.75 us simulated, read 0.77 with the root alone, 1.87
     * now; fresh truths at np 6, 12 and 24 on ten platforms, 8 B to 3000 B, simulated after
     * this was set (/work/simout/s65/red): p90 error 76.4% -> 42.9%, none outside). Not a
     * two-level algorithm's, whose nodes' leaders alone cross (SMPI's mpich reduce on the
     * torus, one rank a node: 0.94 -> 0.66 of the truth by the blocks of the first farther
     * rank's count). In the estimate from np=2 only: a model fitted across np holds its
     * fitted np's waits already (meshnodes-ompi fitted at np 2-32, reduce of 4 B at np 64:
     * 0.89 us for the simulated 0.64, 0.94 with the subtrees counted again). Only where the
     * probe's tiers are aligned blocks within its reach, as for the scatter above: each
     * waiting rank is charged the farthest tier's latency, and on a torus or a mesh most
     * crossings reach a nearer one (the review of 96c554d: tornodes-ompi's reduce of 4 B at
     * np 64, 0.69 us simulated, read 0.89 with the root alone, 1.70 so). */
    if (cf_coll_to_root(c) && pp != NULL && !two_level(r) &&
        np <= (long)p->nlat + 1 && lat_tiered(p, np)) {
        double s = cf_steps_tree_cross_share(r->steps, np, first);
        if (s > 0.0)
            return s;
    }
    if (cf_coll_to_root(c))
        return 1.0 / (double)np;
    return (double)(np - first) / (double)np;
}

/* pair_add where the probe measured each distance with each level's ranks all sending
 * (pair_exchange_distance_us): the bytes a rank sends to partners 2^j to 2^(j+1) - 1 away
 * (np's ranks all sending; those past np's halves, top, at the level of b) pay what an
 * exchange at distance 2^j costs at np's level b over the fitted np's level a (at a's own
 * distance, the farthest it reached, for the farther ones), where more than the probe
 * resolves. A backplane every node's traffic shares makes a distance cost more as more
 * ranks send (fatnodes.xml: 1 MiB between nodes 16 ranks apart takes 764 us with 32 ranks
 * sending, 1513 with 64), which the levels alone (only the level's block sending at its own
 * distance) do not show; a tree of separate links does not (leaves.xml: the same at every
 * level). */
static void pair_add_distances(const cf_placement *p, const cf_rule_alg *r, const char *pattern,
                               int a, int b, long np, double m, double top, cf_tier_added *added)
{
    added->pair_dist = 1;
    added->pair_us = 0.0;
    for (int j = 0; j <= b && added->npl < CF_PAIR_LEVELS_MAX; j++) {
        double out = j == b ? top : cf_steps_block_bytes(r, pattern, np, 1L << j, m);
        double next = j == b       ? 0.0
                      : j + 1 == b ? top
                                   : cf_steps_block_bytes(r, pattern, np, 2L << j, m);
        double bytes = out - next;
        double hi = p->pair_dist_us[(size_t)b * p->npair + (size_t)j];
        double lo = p->pair_dist_us[(size_t)a * p->npair + (size_t)(j < a ? j : a)];
        if (!(bytes > 0) || !(hi > lo * (1 + CF_TIER_MARGIN)))
            continue;
        added->pl_ranks[added->npl] = 1L << j;
        added->pl_bytes[added->npl] = bytes;
        added->pl_us_per_mib[added->npl++] = (hi - lo) / p->pair_bytes * 1048576.0;
        added->pair_us += bytes * (hi - lo) / p->pair_bytes;
    }
}

/* What the traffic algorithm r's ranks all send at once at np costs beyond the fitted np's,
 * from the pair-exchange probe, into added. Where its levels form tiers, a byte pays each
 * level's increment over the level below (when more than the probe resolves) for leaving a
 * block of half that level's ranks: a level's bytes are those a rank sends out of its
 * block (cf_steps_block_bytes), np's own level's those across np's halves (in part where
 * np falls short of it). Where one level past the fitted np's alone costs more, or the
 * levels form no tiers, the bytes across np's halves pay np's level's cost over the
 * fitted np's (cf_placement_pair_extra). */
static void pair_add(const cf_placement *p, const cf_rule_alg *r, const char *pattern,
                     long fitted, long np, double m, cf_tier_added *added)
{
    double per_byte = cf_placement_pair_extra(p, fitted, np, &added->pair_near, &added->pair_far);
    /* np short of its level's power of two B fills np - B/2 of the B/2 ranks past the
     * level's halfway cut: that share of B ranks' traffic crosses it. */
    long B = added->pair_far;
    added->pair_fill = B > np ? np - B / 2 : 0;
    double top = B > np ? cf_steps_cross_bytes(r, pattern, B, m) * (double)added->pair_fill /
                              (double)(B / 2)
                        : cf_steps_cross_bytes(r, pattern, np, m);
    int a = pair_level(p, fitted), b = pair_level(p, np);
    added->npl = 0;
    if (a >= 0 && b > a && p->pair_dist_us != NULL) {
        pair_add_distances(p, r, pattern, a, b, np, m, top, added);
        return;
    }
    if (a >= 0 && b > a && pair_tiered(p, b)) {
        int below = 0; /* levels below np's that cost more */
        for (int k = a + 1; k <= b; k++) {
            double lo = p->pair_us[k - 1], hi = p->pair_us[k];
            if (!(hi > lo * (1 + CF_TIER_MARGIN)))
                continue;
            double bytes = k == b ? top : cf_steps_block_bytes(r, pattern, np, 1L << k, m);
            added->pl_ranks[added->npl] = 2L << k;
            added->pl_bytes[added->npl] = bytes;
            added->pl_us_per_mib[added->npl++] = (hi - lo) / p->pair_bytes * 1048576.0;
            below += k < b;
        }
        if (below > 0) {
            added->pair_us = 0.0;
            for (int i = 0; i < added->npl; i++)
                added->pair_us += added->pl_bytes[i] * added->pl_us_per_mib[i] / 1048576.0;
            return;
        }
        added->npl = 0;
    }
    added->cross_bytes = top;
    added->extra_us_per_mib = per_byte * 1048576.0;
    added->pair_us = top * per_byte;
}

/* What an across-np answer tells tier_add of the linear gatherv's and scatterv's blocks past
 * the fitted reach. */
typedef struct across_blocks {
    double block_us;  /* one block at m the formula counts once (cf_across_block_once_us, times
                         the answer's factor through the fitted np's own) */
    int senders_held; /* a gatherv's senders waited for the root's receipt at np=2 (the table's
                         np=2 over the ping-pong's one-way time: cf_p2p_sender_share) */
} across_blocks;

/* Adds to est what algorithm r's steps wait at np beyond fitted (cf_placement_tier_extra,
 * times waiting_share; r NULL: none known), what the barrier's spread exits add
 * (cf_placement_spread_extra under the rule set rules) and what the pair-exchange probe says
 * the traffic across np's halves adds, where u leaves the interval without an upper bound:
 * the additions never meet a finite one. Where the interval keeps one, only the last raises
 * its upper end. pp and datatype: the estimate from np=2's (NULL for an across-np answer);
 * ab: an across-np answer's blocks (NULL: none known). */
static void tier_add(const cf_placement *p, const cf_unmeasured *u, const char *rules,
                     const char *pattern, const cf_rule_alg *r, int tiered, long fitted, long np,
                     double m, int waited, const cf_p2p *pp, const char *datatype,
                     const across_blocks *ab, cf_estimate *est, cf_tier_added *added)
{
    *added = (cf_tier_added){.share = 1.0};
    /* Calls timed back to back in a loop overlap one call's waits with the next's: the share
     * of the ranks that wait (a call timed alone) says nothing of them, and the answer stays
     * the model's (its interval still without an upper bound). */
    if (p->timed_loop)
        return;
    int unbounded = cf_unmeasured_unbounded(u);
    double bw = 0.0; /* the part of added->us the sized probe read beyond 8 bytes */
    double bytes = 0.0; /* of it, the route's bytes' */
    const cf_coll *c = cf_pattern_facts(pattern);
    /* A linear gatherv or scatterv an across-np answer reads (ab): its blocks past the
     * fitted reach (below). */
    int blocks = ab != NULL && r != NULL && r->latency == CF_LAT_ONCE && c != NULL && c->rooted &&
                 c->vcounts;
    /* A gatherv whose senders waited for the root's receipt at np=2 (a rendezvous) keeps
     * each of them waiting for its block past the fitted reach, as a scatterv's receivers
     * wait for theirs, where an eager sender leaves at once and the root alone waits
     * (SimGrid's wide.xml, nodes of 8, MPICH's gatherv of 250000 B fitted at np 2-8: 13.0 us
     * at every np to 8, 119.9 at np 16, the scatterv's 119.9; read 19.5 with the root alone
     * waiting, 111.0 so). */
    int held = blocks && cf_coll_to_root(c) && ab->senders_held;
    if (unbounded && r != NULL && !tiered) {
        /* the ranks past the fitted reach, whose blocks cross the root's link (blocks) */
        double far = blocks ? (double)(np - tier_first_rank(p, fitted, np)) : 0.0;
        added->share =
            held ? far / (double)np : waiting_share(p, pattern, r, fitted, np, pp, datatype, m);
        added->held = held;
        added->crossings = r->latency == CF_LAT_CHAIN && r->steps != CF_STEPS_SCATTER_RING;
        added->rounds = r->steps == CF_STEPS_ROUNDS;
        added->us =
            added->share * cf_placement_tier_extra(p, fitted, np, r, m, &added->steps, &bw, &bytes);
        added->bw_us = added->share * bw;
        /* A linear gatherv's or scatterv's blocks to or from the ranks past the fitted reach
         * all cross the root's link to them, one after another: each after the first adds
         * what the sized probe reads for its bytes across the tier (SimGrid's wide.xml, nodes
         * of 8, MPICH's scatterv of 400000 B fitted at np 2-8 and read at np 24, 16 ranks
         * past the root's node: 413.1 us simulated, read 51.9 with one block's bytes, 222.2
         * so; the blocks' own time at the fitted reach's rate, in the formula once, stays
         * short of the whole). An across-np answer's only (ab given): the estimate from np=2
         * reads how far a linear fan's messages overlap from the fan probe (placement-fan.c),
         * and counted so as well its scatterv and gatherv at np 16 read 65.3% -> 81.2% at the
         * 90th percentile (bench/accuracy.sh's 4r without the fan probe, MPICH's). */
        if (blocks && far > 1.0 && bytes > 0.0) {
            added->us += added->share * bytes * (far - 1.0);
            added->bw_us += added->share * bytes * (far - 1.0);
            added->in_turn = (long)far;
            /* Each block after the first takes its own time at the fitted reach's rate
             * too, which a scatterv's formula in the ranks' mean counts once (block_us,
             * each receiver waiting for its own): wide.xml's scatterv of 400000 B above,
             * 222.2 us with the farther tier's bytes alone, 440.2 so; a held gatherv's
             * senders the same. An eager gatherv's root, the rank that waits, takes every
             * block in turn within the fitted reach too: its formula has them already. */
            if (!cf_coll_to_root(c) || held) {
                added->in_turn_us = added->share * ab->block_us * (far - 1.0);
                added->us += added->in_turn_us;
            }
        }
    }
    /* A model fitted without the waits gets the whole wait back (cf_placement_across_answer)
     * rather than what np's farther ranks add to the fitted np's. */
    if (unbounded && !waited)
        added->skew_us = cf_placement_spread_extra(
            p, rules, pattern, np, cf_placement_farthest_us(p, fitted), &added->barrier);
    /* Traffic every rank sends across np's halves at once, as the pair-exchange probe's. */
    /* A two-level algorithm crosses the network one rank a node, its nodes' leaders: the
     * probe's load (every rank at once) is its own only where each node holds one rank. */
    int leaders =
        r != NULL && two_level(r) && cf_placement_nodes(p, np) != np;
    /* A replay that costs the probe's traffic step by step holds it already. */
    int replayed = tiered && r != NULL && cf_steps_replays_traffic(r->steps);
    if (r != NULL && c != NULL && (!c->rooted || r->steps == CF_STEPS_SCATTER_DOUBLING) &&
        !replayed) {
        pair_add(p, r, pattern, fitted, np, m, added);
        /* The leaders' traffic is the probe's load (every rank sending) in their share of
         * the ranks (sim-racks, nodes of 4 ranks, fitted at np 2-16: allreduce of 2 MiB at
         * np 64 reads 1805 us for the simulated 1830, 1268 without the traffic, 3531 with
         * all of it). */
        if (leaders) {
            double f = (double)cf_placement_nodes(p, np) / (double)np;
            added->leader_share = f;
            added->pair_us *= f;
            for (int i = 0; i < added->npl; i++)
                added->pl_us_per_mib[i] *= f;
            added->extra_us_per_mib *= f;
        }
        /* The sized probe's bytes across the tier (one message alone) and the pair
         * exchange's (every rank at once) read the same route's bandwidth: the larger
         * counts, not both. What the sized probe adds to each message beyond its bytes
         * (cf_placement_tier_extra's bytes_us apart) the pair exchange's megabyte does not
         * show, and stays (pods.xml, 2 ranks a node, MPICH's ring allgather of 64 KiB at np
         * 16 from np=2: 567.3 us simulated, read 344.5 with the whole sized part dropped,
         * 529.4 now; SimGrid multiplies a route's latency from 64 KiB). */
        double lone = added->share * bytes;
        if (unbounded && added->pair_us > 0 && lone > 0) {
            added->us -= fmin(lone, added->pair_us);
            added->bw_us -= fmin(lone, added->pair_us);
            added->bw_own = 1;
        }
    }
    if (!unbounded) {
        /* No farther latency tier, yet the probe says np's halves exchange slower a byte
         * than the fitted np's (a backplane or backbone all nodes share, which narrows where
         * latency does not grow). The probe measured np's ranks: the answer adds its cost.
         * The fitted model may hold some of that growth already, so the lower end stays the
         * model's (fatnodes-ompi fitted at np 2-32, alltoall of 1 MiB at np 64: the model
         * alone read 24415 us, 3x under the simulated 73537; with the probe's 23981 us for
         * the 32 MiB a rank sends across the halves, 48396, the lower end still 0.001). */
        added->pair_lo_model = added->pair_us > 0;
        est->t_us += added->pair_us;
        est->hi_us += added->pair_us;
        return;
    }
    /* kept above the time until the caller drops the upper bound */
    double add = added->us + added->skew_us + added->pair_us;
    est->t_us += add;
    est->hi_us += add;
}

/* pp: the model's np=2 curves; anchor: what the answer multiplied the formula's reading by
 * (cf_across_anchor; 1: none). */
static void across_tier(const cf_placement *p, const cf_across *a, const cf_p2p *pp,
                        const cf_unmeasured *u, long fitted, long np, double m, double anchor,
                        cf_estimate *est, cf_tier_added *added)
{
    *added = (cf_tier_added){.share = 1.0};
    cf_rule_alg r;
    /* A call that moves nothing sends no message over any tier (sim-dragonfly fitted at np
     * 4-16: allreduce of 1 B read 8.08 us at np 48, the farther tier's latency added to the
     * no-op, for the simulated 0.0099). */
    if (a->nnp == 0 || cf_across_moves_nothing(a->datatype, m))
        return;
    int ruled = est->algorithm != NULL &&
                cf_rules_pick(a->grid.rules, a->grid.node_ranks, a->pattern, np, m, &r) == 0 &&
                strcmp(r.name, est->algorithm) == 0;
    /* A reduce or bcast tree or Bruck's alltoall the grid replays over the tiers holds what
     * they add already, and the spread of the barrier's exits: the replay took their whole
     * wait out where the fit replayed it (cf_steps_cost_tiered's less_wait), and the answer
     * gives it back (cf_placement_across_answer), not the skew beyond the fitted np's. */
    int tiered = ruled && est->grid && cf_across_grid_tiered(&a->grid, r.steps) &&
                 cf_steps_tiered_at(r.steps, np, m);
    int gives_back = tiered && (a->waited || a->replayed);
    /* No rule set holds a gatherv or a scatterv, whose across-np candidates are all its
     * catalog algorithm's, named after it (as fitted, in the ranks' mean, with every rank
     * waiting: across-range.c's add_ranks_mean): its steps, as the estimate from np=2 takes
     * them, so that the tiers past the fitted np add their latency to the ranks that wait
     * on it (waiting_share: a gatherv's root, a scatterv's receivers past the first farther
     * rank). SMPI's MPICH gatherv of 8 B on wide.xml (nodes of 8) fitted at np 2-7 and read
     * at np 9: 1.242 us simulated, read 0.859 with the formula's growth and the barrier's
     * exits alone, 1.262 so. */
    const cf_coll *c = cf_pattern_facts(a->pattern);
    if (!ruled && est->algorithm != NULL && c != NULL && c->rooted && c->vcounts && c->nalgs == 1 &&
        strncmp(est->algorithm, c->algs[0].name, strlen(c->algs[0].name)) == 0)
        ruled = cf_coll_alg_rule(a->pattern, c->algs[0].name, &r) == 0;
    across_blocks ab = {anchor * cf_across_block_once_us(a, m),
                        pp != NULL && c != NULL && c->vcounts && cf_coll_to_root(c) &&
                            cf_p2p_sender_share(pp, a->pattern, a->datatype, m, 0) >= 0.5};
    tier_add(p, u, cf_placement_barrier_rules(a), a->pattern, ruled ? &r : NULL, tiered, fitted, np,
             m, a->waited || gives_back, NULL, NULL, &ab, est, added);
    added->replayed = gives_back;
}

/* The barrier after each call is the library's whatever the pattern: where the fit replayed
 * it, by the rules it took. A gatherv's or a scatterv's grid has no rule set, and MPICH's
 * dissemination stood in for Open MPI's recursive doubling (SimGrid's fatnodes.xml, nodes of
 * 16, Open MPI's scatterv of 100 B fitted at np 2-8 read 4.62 us at np 20 for the simulated
 * 1.09, 3.54 of it the exits' spread). */
const char *cf_placement_barrier_rules(const cf_across *a)
{
    return a->wait_rules[0] != '\0' ? a->wait_rules : a->grid.rules;
}

int cf_placement_wait_added(const cf_across *a, const cf_unmeasured *u)
{
    return a->waited || (a->replayed && !cf_unmeasured_unbounded(u));
}

double cf_placement_across_wait(const cf_placement *p, const cf_across *a, long np, long *past)
{
    *past = 0;
    if (!a->waited && !a->replayed)
        return 0.0;
    for (int i = 0; i < a->nnp; i++)
        if (a->np[i] == np)
            return a->wait_us[i];
    double w = NAN;
    if (p->lat_us != NULL && np - 1 > (long)p->nlat) {
        /* Past the ranks the probe reached: its whole launch's, the nearest it shows (the
         * caller keeps it out of the lower end: the ranks' mean wait need not grow). */
        *past = (long)p->nlat + 1;
        w = cf_placement_barrier_wait(p, a->wait_rules, a->pattern, *past);
    } else if (p->lat_us != NULL) {
        w = cf_placement_barrier_wait(p, a->wait_rules, a->pattern, np);
    }
    /* No probe to replay (or out of memory): the largest fitted np's. */
    if (!(w >= 0)) {
        *past = -a->np[a->nnp - 1];
        w = a->wait_us[a->nnp - 1];
    }
    return w;
}

/* The algorithm the estimate from np=2 costed at (np, m), into *r: the library's rules' where
 * the file names them, else the catalog's (MPICH's). 0, or -1 when none has steps. */
static int p2p_alg(const cf_p2p *pp, const cf_coll *c, long np, double m, const cf_estimate *est,
                   cf_rule_alg *r)
{
    if (c == NULL || est->algorithm == NULL)
        return -1;
    if (pp->rules[0] != '\0' &&
        cf_rules_pick(pp->rules, pp->node_ranks, c->pattern, np, m, r) == 0 &&
        strcmp(r->name, est->algorithm) == 0)
        return 0;
    return cf_coll_alg_rule(c->pattern, est->algorithm, r);
}

/* Where the rules' algorithm at (np, m) is one the across-np grid replays over the probe's
 * tiers and the estimate from np=2 replays too (cf_steps_replayed_from_np2: across-steps.c's
 * table REPLAYED says which and why not the others): the estimate from np=2 adds what
 * the tiers add to that replay at np, each message the ping-pong's at its size plus what the
 * tiers between its ranks add, each rank starting when it left the barrier before (the
 * rules' barrier, replayed too), over the same replay over tiers that add nothing, less the
 * same at np=2, where the estimate is the measurement; its upper end too, its lower end the
 * estimate's own. (A ratio of the two replays instead, multiplying the estimate, read the
 * Open MPI tables' medians at np 16 from np 2 about twice as far off: racks 9.4%, pods 11.6%,
 * leaves 8.4%, where adding reads 5.8, 5.9 and 4.1; a large bcast, whose estimate from np=2
 * is already low, stays lower still by a ratio.) 1 where it added (what the replay holds, the
 * tiers' latency and the barrier's wait, is then not added again), 0 where it does not
 * apply. */
static int p2p_replay(const cf_placement *p, const cf_p2p *pp, const cf_coll *c, long np,
                      double m, const cf_rule_alg *r, cf_estimate *est, double *add_us,
                      int *no_tier)
{
    *no_tier = 0;
    const cf_contention *u = cf_p2p_pingpong(pp);
    if (p->timed_loop || pp->rules[0] == '\0' || u == NULL || np <= 2 ||
        !cf_steps_tiered_at(r->steps, np, m) ||
        !cf_steps_replayed_from_np2(r->steps, np, m, 1) ||
        !(est->t_us > 0))
        return 0;
    cf_tiers t;
    cf_placement_tiers(p, &t);
    if (t.probed < 2 || !cf_steps_replayed_from_np2(r->steps, np, m, t.n > 0))
        return 0; /* no probe: nothing to replay over */
    if (t.n == 0) {
        /* No tier: one node holding every rank, adding nothing; the barrier's exits are
         * what the replay adds */
        t.n = 1;
        t.ranks[0] = np > t.probed ? np : t.probed;
        t.extra_us[0] = 0.0;
        *no_tier = 1;
    }
    double mb[CF_UNIT_MAX], mu[CF_UNIT_MAX];
    int n = cf_msg_unit(u, mb, mu); /* the grid's unit */
    cf_rule_alg r2;
    if (n < 2 || cf_rules_pick(pp->rules, pp->node_ranks, c->pattern, 2, m, &r2) != 0)
        return 0;
    /* The same replay over tiers that add nothing, every rank starting at once (no rules:
     * no barrier): the difference is what the tiers and the barrier's exits add, in the
     * replay's own units (Bruck's two a message, not steps of T2). The exits at np=2 (the
     * two-process exchange) are together; at np they need not be, tiers or none: Open MPI's
     * linear barrier at np 4 to 7 lets its root out a message before the others, and its
     * recursive doubling at np 9 or 10 lets the ranks past 8 out a message after them, whose
     * parents in a reduce tree wait for them (SMPI's ompi reduce of 4 B on flat.xml at np 9
     * and 10: 2.70 and 3.03 us simulated, 12 and 15 messages of np=2's 1.02 summed over the
     * ranks, the binary tree's 9 and 10 and its paths from ranks 8 and 9 to the root). */
    cf_tiers flat = t;
    memset(flat.extra_us, 0, sizeof flat.extra_us);
    memset(flat.sized_extra_us, 0, sizeof flat.sized_extra_us);
    flat.npair = flat.ndist = 0;
    double at_np = cf_steps_cost_tiered(r->steps, np, m, mb, mu, n, &t, pp->rules, 0) -
                   cf_steps_cost_tiered(r->steps, np, m, mb, mu, n, &flat, NULL, 0);
    double at_2 = cf_steps_cost_tiered(r2.steps, 2, m, mb, mu, n, &t, pp->rules, 0) -
                  cf_steps_cost_tiered(r2.steps, 2, m, mb, mu, n, &flat, NULL, 0);
    double add = at_np - at_2;
    if (!isfinite(add))
        return 0;
    /* the tiers add, never take away; nor does a sum's rounding (4.4e-16 us "added" where
     * neither tiers nor the barrier leave anything: the second review) */
    add = add > 1e-9 * fmax(fabs(at_np), est->t_us) ? add : 0.0;
    *add_us = add;
    est->t_us += add;
    est->hi_us += add;
    return 1;
}

/* A bcast down a chain of whole messages (SMPI's store-and-forward chain, SMPI_NTSL; Open
 * MPI's chain and pipeline of one segment), timed a call at a time: the barrier before it
 * lets its ranks out apart where its algorithm does (Open MPI's recursive doubling at np 3
 * lets rank 2 out a message after ranks 0 and 1), and a rank that comes late finds its
 * predecessor's data ready to flow, waiting its own hop alone. np=2's two ranks leave
 * together. The chain is replayed from the barrier's exits over the latency probe
 * (cf_chain_exits_mean), each end of the estimate at its own hop (the estimate is the
 * chain's mean, (np - 1) / 2 hops), and scaled by the replay over the same all at once:
 * the upper end never down, as the barrier's messages may cost less than the probe's; the
 * lower end as if they cost as much as need be (the exits' order kept, their gaps made
 * larger than the chain) where that reads less: each late rank its own hop alone, which
 * nothing measured rules out. SMPI's ompi bcast of 4 B at np 3 on flat.xml: 1.354 us
 * simulated, two hops of 2.03 over the three ranks; the pipeline read 2.336 in [2.026,
 * 2.693] from np=2 as the chain all at once, 1.662 in [1.351, 2.693] so. The estimate's
 * ratio (1 where the lower end alone may move; *lo_only 1 where it did), 0 where it does not
 * apply (calls not timed alone or no latency probe, the root shifted each call, more than
 * one segment, ranks the probe never reached, np < 3). */
static double chain_skew(const cf_placement *p, const cf_p2p *pp, const cf_coll *c,
                         const cf_rule_alg *r, long np, double m, cf_estimate *est, int *lo_only)
{
    *lo_only = 0;
    int chain = r->steps == CF_STEPS_CHAIN ||
                (r->steps == CF_STEPS_PIPELINE && m <= CF_PIPELINE_SEG);
    if (!chain || np < 3 || strcmp(c->pattern, "bcast") != 0 || p->root_shift ||
        pp->rules[0] == '\0' || !timed_alone(p, c) || np - 1 > (long)p->nlat ||
        !(est->t_us > 0))
        return 0.0;
    /* Latencies that form no tiers (a dragonfly's, a torus's) are read by the ranks'
     * distance (cf_placement_can_replay): the exits' order holds, their gaps are a guess, and
     * only the lower end moves. */
    int only = !cf_placement_can_replay(p, c->pattern);
    probe_lat pl = {0};
    double *e = malloc(2 * (size_t)np * sizeof *e), ratio = 0.0;
    int gated = p->simulated;
    if (e == NULL || probe_lat_init(p, np, &pl) != 0 ||
        cf_barrier_exits(cf_barrier_alg(pp->rules, np), np, probe_latency, &pl,
                         gated ? CF_PROTO_RENDEZVOUS : CF_PROTO_EAGER, e) != 0)
        goto out;
    /* The exits' order with gaps wider than the chain at the upper end's hop (or the
     * estimate's, the upper end unbounded) */
    double gap = INFINITY, half = (double)(np - 1) / 2.0;
    memcpy(e + np, e, (size_t)np * sizeof *e);
    cf_sort_doubles(e + np, (size_t)np);
    for (long i = np + 1; i < 2 * np; i++)
        if (e[i] > e[i - 1])
            gap = fmin(gap, e[i] - e[i - 1]);
    double top = isfinite(est->hi_us) ? est->hi_us : est->t_us;
    double widen = isfinite(gap) ? 4.0 * (double)np * top / half / gap : 1.0;
    for (long i = 0; i < np; i++)
        e[np + i] = e[i] * fmax(1.0, widen);
    double h = est->t_us / half;
    ratio = cf_chain_exits_mean(e, np, h, gated) / est->t_us;
    if (!(ratio > 0) || !isfinite(ratio)) {
        ratio = 0.0;
        goto out;
    }
    if (isfinite(est->hi_us) && !only) {
        double hh = est->hi_us / half;
        est->hi_us *= fmax(1.0, cf_chain_exits_mean(e, np, hh, gated) / est->hi_us);
    }
    if (est->lo_us > 0) {
        double hl = est->lo_us / half;
        double lo = fmin(cf_chain_exits_mean(e, np, hl, gated),
                         cf_chain_exits_mean(e + np, np, hl, gated));
        *lo_only = only && lo < est->lo_us;
        est->lo_us = fmin(lo, est->lo_us);
    }
    if (only)
        ratio = 1.0;
    else
        est->t_us *= ratio;
out:
    free(pl.start);
    free(pl.level);
    free(e);
    return ratio;
}

static void p2p_tier(const cf_placement *p, const cf_p2p *pp, const cf_coll *c,
                     const cf_unmeasured *u, long np, double m, cf_estimate *est,
                     cf_tier_added *added)
{
    *added = (cf_tier_added){.share = 1.0};
    cf_rule_alg r;
    /* A call that moves nothing sends no message over any tier (across_tier's rule too;
     * sim-cloud from np=2, reduce of 1 B at np 16 added 1.63 us: the second review) */
    if (c == NULL || est->no_op_open)
        return;
    int ruled = p2p_alg(pp, c, np, m, est, &r) == 0;
    double add = 0.0;
    int no_tier = 0;
    int replayed = ruled && p2p_replay(p, pp, c, np, m, &r, est, &add, &no_tier);
    /* An algorithm not replayed: the barrier after each timed call still leaves np's ranks
     * apart where its algorithm does, tiers or none, while np=2's two-process exchange leaves
     * them together. Its whole wait at np is added, as the across-np answer gives back its
     * fit's (cf_placement_across_answer), and past the ranks the probe reached the wait at
     * those it reached, as there (cf_placement_across_wait); the lower end gains none, as no
     * measurement holds it. Open MPI's linear barrier at np 4 to 7 lets its root out one
     * message before the others: SMPI's ompi reduce of 4 B on flat.xml, np 4 to 7, 2.03,
     * 2.03, 1.69 and 1.45 us simulated, read 1.76, 1.90, 1.51 and 1.23 without it. */
    double wait = 0.0;
    long at = p->lat_us != NULL && np - 1 > (long)p->nlat ? (long)p->nlat + 1 : np;
    int chain_lo = 0;
    double chain = ruled && !replayed ? chain_skew(p, pp, c, &r, np, m, est, &chain_lo) : 0.0;
    if (!replayed && !(chain > 0) && pp->rules[0] != '\0') {
        wait = cf_placement_barrier_wait(p, pp->rules, c->pattern, at);
        if (!(wait > 0) || !isfinite(wait))
            wait = 0.0;
    }
    tier_add(p, u, pp->rules, c->pattern, ruled ? &r : NULL, replayed, 2, np, m,
             replayed || wait > 0 || chain > 0, pp, c->datatype, NULL, est, added);
    added->replay_us = add;
    added->replay_no_tier = no_tier;
    if (chain > 0) {
        added->chain_ratio = chain;
        added->chain_lo_only = chain_lo;
        added->barrier = cf_barrier_alg(pp->rules, np);
    }
    if (wait > 0) {
        est->t_us += wait;
        est->hi_us += wait;
        added->skew_us = wait;
        added->waited = 1;
        added->none_fitted = 1;
        added->wait_np = at != np ? at : 0;
        added->barrier = cf_barrier_alg(pp->rules, at);
    }
}

/* The pair-exchange probe's time at the level of np ranks (pair_level's); NAN past its
 * levels or without it. */
static double pair_level_us(const cf_placement *p, long np)
{
    int k = pair_level(p, np);
    return k >= 0 && (2L << k) >= np ? p->pair_us[k] : NAN;
}

/* Whether the probes put np ranks in the same tier as q ranks: their farthest ranks' latency
 * from rank 0 alike (within the probe's margin), and where the pair-exchange probe ran, the
 * exchange across the halves of each one's power of two alike (within CF_TIER_MARGIN). 0
 * where a probe cannot tell (no latency probe, or past what it reached). */
int cf_placement_same_tier(const cf_placement *p, long np, long q)
{
    if (p->lat_us == NULL || np - 1 > (long)p->nlat || q - 1 > (long)p->nlat)
        return 0;
    double a = cf_placement_farthest_us(p, np), b = cf_placement_farthest_us(p, q);
    if (!(a <= tier_limit_us(p, b) && b <= tier_limit_us(p, a)))
        return 0;
    if (p->npair == 0)
        return 1;
    double x = pair_level_us(p, np), y = pair_level_us(p, q);
    return x <= y * (1 + CF_TIER_MARGIN) && y <= x * (1 + CF_TIER_MARGIN);
}

/* Between measured np, where the probes put np in the tier of the measured np below it and
 * not of those above (a tier first crossed at the upper neighbour: the fat tree's np 16,
 * whose switch np 8 does not cross), and the algorithm the rules run at np at size m ran
 * there: a copy of a whose grid holds the points of those below alone (into *sub, to free),
 * which read np as beyond them. a itself elsewhere (NULL into *sub): where np shares the
 * tier of those above, a single larger np's cost per step carries more contention than np
 * meets (racks at np 8 read from np 16 alone: 35% over). */
static const cf_across *tier_grid(const cf_placement *p, const cf_across *a, long np, double m,
                                  cf_across **sub, long *above_np)
{
    *sub = NULL;
    *above_np = 0;
    if (a->nnp < 2 || np <= a->np[0] || np >= a->np[a->nnp - 1] || a->grid.n == 0)
        return a;
    int below = 0;
    for (int i = 0; i < a->nnp; i++) {
        if (a->np[i] == np)
            return a;
        if (a->np[i] < np)
            below = i;
    }
    int above = below + 1;
    if (!cf_placement_same_tier(p, a->np[below], np) ||
        cf_placement_same_tier(p, a->np[above], np))
        return a;
    cf_rule_alg r, o;
    const cf_across_grid *g = &a->grid;
    if (cf_rules_pick(g->rules, g->node_ranks, a->pattern, np, m, &r) != 0)
        return a;
    /* At the measured size nearest to m, as the grid reads it. */
    double near = cf_across_grid_nearest_m(g, m);
    int ran = 0;
    for (int i = 0; i < g->n && !ran; i++)
        ran = g->pt[i].p < np && g->pt[i].m == near && cf_placement_same_tier(p, g->pt[i].p, np) &&
              cf_rules_pick(g->rules, g->node_ranks, a->pattern, g->pt[i].p, g->pt[i].m, &o) ==
                  0 &&
              strcmp(o.name, r.name) == 0;
    if (!ran || (*sub = malloc(sizeof **sub)) == NULL)
        return a;
    **sub = *a;
    (*sub)->grid.n = 0;
    for (int i = 0; i < g->n; i++)
        if (g->pt[i].p < np && cf_placement_same_tier(p, g->pt[i].p, np))
            (*sub)->grid.pt[(*sub)->grid.n++] = g->pt[i];
    *above_np = a->np[above];
    return *sub;
}

/* An algorithm the grid replays over the probe's tiers, read from another algorithm's cost
 * per step where no tiers were kept (est->unreplayed: SMPI's mpich bcast on nodes of unequal
 * ranks, its scatter and allgather, which ran at no fitted np of a table of full nodes; on a
 * torus, whose probe forms no tiers, the two-level tree's cost per step misses their
 * crossings), where the probe puts np's ranks farther than np=2's (not a flat network, whose
 * cost per step is the same network's): the estimate from np=2 (pp), which costs the
 * algorithm's own steps over the probe's latencies, answers where it is the larger, and the
 * interval holds both, its upper end raised with it (meshnodes.xml, fitted at np 2-128, bcast
 * of 300000 B at np 26: 403.7 us simulated, read 109.5 in [54.2, 255] from the two-level
 * tree's, 269 from np=2). Neither reading bounds the truth: the two-level tree's misses the
 * crossings, the estimate from np=2 charges each of the ring's steps its farthest pair's
 * latency. The reading raised into added->floor_from_us. */
static void unreplayed_floor(const cf_placement *p, const cf_across *a, const cf_p2p *pp,
                             long np, double m, cf_estimate *est, cf_tier_added *added)
{
    double near_us, far_us;
    const cf_coll *c = cf_pattern_facts(a->pattern);
    if (pp == NULL || c == NULL || !est->unreplayed || !(est->t_us > 0) ||
        !cf_placement_tier(p, 2, np, &near_us, &far_us))
        return;
    cf_unmeasured u;
    char scratch[1024];
    cf_placement_unmeasured(p, np, &u, scratch, sizeof scratch);
    cf_estimate pe;
    cf_tier_added padd;
    if (cf_placement_p2p_answer(p, pp, c, a->datatype, &u, np, m, &pe, &padd) != 0 ||
        !(pe.t_us > est->t_us) || !isfinite(pe.t_us) || pe.algorithm == NULL ||
        est->algorithm == NULL || strcmp(pe.algorithm, est->algorithm) != 0)
        return;
    added->floor_from_us = est->t_us;
    est->hi_us *= pe.t_us / est->t_us;
    est->t_us = pe.t_us;
}

/* Whether the grid measured np p at sizes on both sides of m (or at m). */
static int grid_spans(const cf_across_grid *g, long p, double m)
{
    int below = 0, above = 0;
    for (int i = 0; i < g->n; i++)
        if (g->pt[i].p == p) {
            below |= g->pt[i].m <= m;
            above |= g->pt[i].m >= m;
        }
    return below && above;
}

/* Between two fitted np of a SimGrid table, an all-gather its mpich selection runs at
 * neither (Bruck's allgather, at np no power of two; recursive doubling ran at the powers of
 * two around it): the grid reads it from the cost per step of what ran there and replays it
 * over the probe's tiers, which prices each step's latency but not how the (np - 1) m bytes
 * every rank receives load the network at once. The fitted np around it measured that load
 * for the same bytes a rank, and the line in log p through their answers at m holds it: the
 * answer is raised to that line where it is the larger, the interval holding both (it holds
 * the fitted np's answers already). At small sizes the two readings lie close. Stop 69's
 * fresh allgathers (pods, cloud, wide, fatnodes, racks, leaves, islands, meshnodes,
 * tornodes, ethflat; np 10 to 100, 8 to 1500 B; 164 Bruck answers): median 6.8% -> 5.2%,
 * 90th percentile 34.2% -> 17.5% (fatnodes at np 90, 900 B: 46.9 us for 202.3, the line
 * 198). Not where np shares the nodes or the tier of the fitted np below and the np above
 * spans more (nodes of 12 ranks, np 12 in one node with np 8, np 16 across two: the line
 * carried the crossing, 4.80 us for 1.41), nor past the sizes both fitted np measured
 * around m. Real MPICH's and Open MPI's Bruck (Open MPI's recursive doubling at np no power
 * of two) keep the replay: no measured table judged them. The reading before into
 * added->volume_from_us. */
static void volume_line(const cf_placement *p, const cf_across *a, long np, double m,
                        cf_fitted_at at, void *ctx, cf_estimate *est, cf_tier_added *added)
{
    const cf_across_grid *g = &a->grid;
    cf_rule_alg r, r0, r1;
    int i0, i1;
    if (at == NULL || !est->grid || !(est->t_us > 0) || a->nnp == 0 ||
        strncmp(g->rules, "smpi-mpich", 10) != 0)
        return;
    cf_across_anchor_np(a, np, &i0, &i1);
    long p0 = a->np[i0], p1 = a->np[i1];
    if (!(p0 < np && np < p1) ||
        cf_rules_pick(g->rules, g->node_ranks, a->pattern, np, m, &r) != 0 ||
        r.steps != CF_STEPS_BRUCK_GATHER)
        return;
    /* Bruck's own cost at the np around is the grid's reading already. */
    if (cf_rules_pick(g->rules, g->node_ranks, a->pattern, p0, m, &r0) != 0 ||
        cf_rules_pick(g->rules, g->node_ranks, a->pattern, p1, m, &r1) != 0 ||
        r0.steps == r.steps || r1.steps == r.steps || !grid_spans(g, p0, m) ||
        !grid_spans(g, p1, m))
        return;
    long n0 = cf_placement_nodes(p, p0), n = cf_placement_nodes(p, np),
         n1 = cf_placement_nodes(p, p1);
    if ((n > 0 && n == n0 && n1 > n0) ||
        (cf_placement_same_tier(p, p0, np) && !cf_placement_same_tier(p, p1, np)))
        return;
    double t0 = at(ctx, p0, m), t1 = at(ctx, p1, m);
    if (!(t0 > 0) || !(t1 > 0) || !isfinite(t0) || !isfinite(t1))
        return;
    double line = cf_across_loglog_p(np, p0, t0, p1, t1);
    if (!(line > est->t_us))
        return;
    added->volume_from_us = est->t_us;
    added->volume_np[0] = p0;
    added->volume_np[1] = p1;
    est->t_us = line;
    est->hi_us = fmax(est->hi_us, line);
}

void cf_placement_across_answer(const cf_placement *p, const cf_across *a, const cf_p2p *pp,
                                const cf_unmeasured *u, long np, double m, cf_fitted_at at,
                                void *ctx, cf_estimate *est, cf_tier_added *added)
{
    /* Between fitted np, in the tier of those below and not of the next above: read from
     * those below alone (tier_grid). */
    cf_across *sub;
    long above;
    const cf_across *use = tier_grid(p, a, np, m, &sub, &above);
    cf_across_predict(use, np, m, est);
    /* Read from those below alone, the interval still holds the time measured at the
     * nearest np below (as cf_across_grid_predict's between two measured np, whose copy here
     * lost the ones above); not the one above, in a tier np does not reach. */
    double t_below, t_above;
    if (sub != NULL && est->grid) {
        cf_across_grid_around(a, np, m, &t_below, &t_above);
        cf_across_hold_between(t_below, t_below, &est->lo_us, &est->hi_us); /* NAN: none */
    }
    /* A formula fitted across every np and size passes near the fitted np's times, not
     * through them; beyond them it carries the growth, the largest fitted np's own answer
     * the level (gce-cpu-ompi, OSU allreduce on 56-rank nodes fitted at np 1792-7168:
     * 4 B at np 14336 read 664 us from the formula, below np 7168's measured 867, for 954
     * measured; through np 7168's own answer, 934). The interval holds the formula's too. */
    long anchor_from[2] = {0, 0};
    double anchor = 1.0;
    if (at != NULL && !est->grid) {
        anchor = cf_across_anchor(a, np, m, at, ctx, anchor_from);
        est->t_us *= anchor;
        est->lo_us = fmin(est->lo_us, est->lo_us * anchor);
        est->hi_us = fmax(est->hi_us, est->hi_us * anchor);
        /* Between two fitted np, as the grid's: the interval holds their own answers (GKE,
         * OSU allreduce fitted at np 1792, 7168 and 14336: 16 B at np 3584 read 2302 us in
         * [1388, 4549] for the 1102 measured (median of 3 runs), np 1792's 773 and np 7168's
         * 5021). */
        if (anchor_from[1] > 0)
            cf_across_hold_between(at(ctx, anchor_from[0], m), at(ctx, anchor_from[1], m),
                                   &est->lo_us, &est->hi_us);
    }
    /* The grid reads the algorithm the rules run at np from the np it ran at: where that is
     * below the largest fitted np, whose farther ranks another algorithm crossed, and np
     * reaches a tier the algorithm's own np never did, the answer never saw it (Open MPI's
     * knomial bcast runs at np 8-31 and 64-127 at 4 B; on nodes of 16 cores its np 8 and 16
     * stayed in one node, while np 32's binomial crossed to the next). Judged against that
     * np: no upper bound, and the tier's latency added, as beyond the largest fitted np.
     * Where the largest fitted np left np's tier unmeasured already, the additions are still
     * those beyond the np the reading comes from (the pair-exchange traffic across the
     * halves its algorithm never crossed, too); the note names that np only where it reached
     * less than the largest did (np 16 in one node, np 32 across two), the largest's judgment
     * standing where it reached as far. */
    long fitted = a->nnp > 0 ? a->np[a->nnp - 1] : 0;
    long from = a->nnp > 0 ? cf_across_grid_from_np(use, np, m) : 0;
    long below_tier = est->grid && sub != NULL ? above : 0;
    free(sub);
    cf_unmeasured own = {0};
    /* A table that says nothing of where its ranks ran has no tier to judge that np by:
     * beyond the fitted np the answer has no upper bound already (u->unplaced), and within
     * them the largest fitted np spanned whatever np spans. */
    if (from > 0 && from < fitted && !cf_placement_silent(p)) {
        char part[600];
        cf_placement_beyond_fitted(p, from, np, &own, part, sizeof part);
        if (cf_unmeasured_unbounded(u)) {
            cf_unmeasured gap;
            cf_placement_beyond_fitted(p, from, fitted, &gap, part, sizeof part);
            fitted = from;
            if (cf_unmeasured_unbounded(&gap))
                u = &own;
            else
                from = 0;
        } else if (cf_unmeasured_unbounded(&own)) {
            u = &own;
            fitted = from;
        } else {
            from = 0;
        }
    } else {
        from = 0;
    }
    across_low(a, u, m, anchor, est);
    across_tier(p, a, pp, u, fitted, np, m, anchor, est, added);
    added->anchored = anchor_from[0] > 0;
    added->read_from = from;
    added->tier_above = below_tier;
    if (below_tier > 0) { /* the note's figures (cf_out_predict_tier_below_note) */
        added->tier_above_far_us = cf_placement_farthest_us(p, above);
        added->tier_np_far_us = cf_placement_farthest_us(p, np);
        added->tier_above_pair_us = pair_level_us(p, above);
        added->tier_np_pair_us = pair_level_us(p, np);
    }
    added->read_from_far_us = from > 0 ? cf_placement_farthest_us(p, from) : NAN;
    added->read_np_far_us = from > 0 ? cf_placement_farthest_us(p, np) : NAN;
    added->read_nodes_np = from > 0 && own.network ? own.nodes_np : 0;
    /* A call that moves nothing waits for no one: the fit took nothing from its times.
     * Where the replay found no wait at any fitted np (replayed, not waited), np's own is
     * still added where the interval keeps an upper bound (fatnodes-ompi fitted at np 2-32:
     * bcast of 4 KiB at np 64 read 3.39 us in [1.69, 6.81] from np 32, simulated 11.92; the
     * replay at np 64 waits 7.86). Where it has none, the farther ranks' skew is charged
     * already (tier_add: the spread beyond the fitted np's), and is not charged twice; but a
     * cost the grid replayed over the tiers took the whole wait out (added->replayed), and
     * gets it all back (pods-ompi fitted at np 2-16, bcast of 4 B at np 64: 16.55 us for the
     * simulated 16.54, where the skew alone gave back 5.04 of the 8.86 us and read 12.72). */
    if ((cf_placement_wait_added(a, u) || added->replayed) &&
        !cf_across_moves_nothing(a->datatype, m)) {
        /* The lower end gains no more than the largest fitted np's own wait: a replay beyond
         * the fitted np is no measurement. Past the ranks the probe reached it gains none:
         * the replay there is of the probe's ranks alone, and the ranks' mean wait need not
         * grow with np (SMPI's ompi bcast of 1000 B on racks.xml: 30.08 us at np 64, 25.06 at
         * np 100, where the answer adds np 64's 21.8 us; with it in the lower end 26 answers
         * of data/sim-uneven's Open MPI np 100 lay below their intervals). */
        double w = cf_placement_across_wait(p, a, np, &added->wait_np),
               w_fitted = a->wait_us[a->nnp - 1];
        added->skew_us = w;
        added->waited = 1;
        added->none_fitted = !a->waited;
        added->barrier = cf_barrier_alg(a->wait_rules, added->wait_np ? labs(added->wait_np) : np);
        est->t_us += w;
        est->lo_us += added->wait_np > 0 ? 0.0 : fmin(w, w_fitted);
        est->hi_us += w;
    }
    if (at != NULL)
        unreplayed_floor(p, a, pp, np, m, est, added);
    volume_line(p, a, np, m, at, ctx, est, added);
}

/* Whether p2p_replay can replay an algorithm over the launch's latency probe: a probe of
 * two ranks or more, in tiers or showing none, the calls timed each alone. */
static int tiers_replayed(const cf_placement *p)
{
    if (p->timed_loop)
        return 0;
    cf_tiers t;
    cf_placement_tiers(p, &t);
    return t.probed >= 2;
}

double cf_placement_stream_beta(const cf_placement *p)
{
    return p->npair > 0 && p->pair_bytes > 0 && p->pair_us[0] > 0 ? p->pair_us[0] / p->pair_bytes
                                                                   : 0.0;
}

int cf_placement_p2p_answer(const cf_placement *p, const cf_p2p *pp, const cf_coll *c,
                            const char *datatype, const cf_unmeasured *u, long np, double m,
                            cf_estimate *est, cf_tier_added *added)
{
    *added = (cf_tier_added){.share = 1.0};
    cf_p2p q = *pp;
    q.tiers_replayed = tiers_replayed(p);
    q.stream_beta = cf_placement_stream_beta(p);
    int rc = cf_p2p_predict(&q, c, datatype, np, m, est);
    if (rc != 0)
        return rc;
    /* The launch's fan probe: at its levels it measured the nodes and tiers np reaches,
     * nothing to add; elsewhere np=2's whole answer stays in the interval. */
    cf_estimate fan = *est;
    if (!cf_placement_fan_answer(p, pp, c, datatype, np, m, &fan)) {
        p2p_tier(p, pp, c, u, np, m, est, added);
        return 0;
    }
    if (fan.fan_held) {
        p2p_tier(p, pp, c, u, np, m, est, added);
        fan.lo_us = fmin(fan.lo_us, est->lo_us);
        fan.hi_us = fmax(fan.hi_us, est->hi_us);
        *added = (cf_tier_added){.share = 1.0};
    }
    *est = fan;
    return 0;
}
