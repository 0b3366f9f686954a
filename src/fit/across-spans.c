/* Which ranks each step of a collective algorithm spans and how many bytes it moves there
 * (cf_steps_spans): what the latency tiers a launch's probe measured add to each step, and
 * the bytes that cross a half of the ranks (cf_steps_cross_bytes) or blocks of them. */
#include "config.h"

#include "fit/across-int.h"

#include <math.h>
#include <string.h>

/* Appends count steps spanning blocks of ranks ranks (at most p) to out; -1 when full. */
static int span_add(cf_step_span *out, int *k, int max, long ranks, long p, double count,
                    double bytes, double paced)
{
    if (*k >= max)
        return -1;
    out[(*k)++] = (cf_step_span){ranks < p ? ranks : p, count, bytes, paced, 0};
    return 0;
}

/* A step after another: its bytes pace as many steps as its latency counts. */
static int span_step(cf_step_span *out, int *k, int max, long ranks, long p, double count,
                     double bytes)
{
    return span_add(out, k, max, ranks, p, count, bytes, count);
}

/* A binomial tree's or recursive doubling's levels, distances 1, 2, 4, ... below p: the
 * step of distance d pairs ranks inside aligned blocks of 2d, rank 0 with rank d (the levels of
 * cf_steps_cost's ceil(lg p) steps), its messages of bytes0 * d^grow bytes (grow 1: d
 * blocks, recursive doubling's allgather, a binomial gather's or scatter's subtree, rank d's
 * cut at p: p - d of them where p - d < d; -1: Rabenseifner's halving from distance 1). */
static int span_levels(cf_step_span *out, int *k, int max, long p, double bytes0, int grow)
{
    int lg = cf_ceil_lg(p);
    for (int j = 0; j < lg; j++) {
        double d = (double)(1L << j);
        double bytes = grow > 0   ? bytes0 * fmin(d, (double)p - d)
                       : grow < 0 ? bytes0 / d
                                  : bytes0;
        if (span_step(out, k, max, 2L << j, p, 1.0, bytes) != 0)
            return -1;
        out[*k - 1].partner = 1L << j;
    }
    return 0;
}

/* p - 1 steps of partner distances 1 to p - 1 (a pairwise exchange's step k pairs r with
 * r ^ k or r + k): those of distance 2^j to 2^(j+1) - 1 pair ranks within blocks of 2^(j+1),
 * so a rank meets a farther tier on as many steps as there are ranks in it; messages of m. */
static int span_distances(cf_step_span *out, int *k, int max, long p, double m)
{
    for (long d = 1; d < p; d *= 2) {
        long n = 2 * d <= p ? d : p - d;
        if (span_step(out, k, max, 2 * d, p, (double)n, m) != 0)
            return -1;
    }
    return 0;
}

/* Open MPI's recursive halving reduce-scatter (CF_STEPS_RS_HALVING): where p is no power of
 * two the fold of the whole vector, rank 2i into 2i + 1; then among the q renumbered ranks
 * (below rem = p - q the odd ranks 2i + 1, from it j + rem) the step of distance d moving d
 * blocks within ranges of 2d, the first of which spans the ranks up to renumbered 2d - 1's;
 * partner: renumbered 0's (rank 0, or 1 where it folded), read against rank 0's latencies. */
static int span_rs_halving(cf_step_span *out, int *k, int max, long p, double m)
{
    long q = cf_pof2_le(p), rem = p - q;
    if (rem > 0 && span_step(out, k, max, 2, p, 1.0, (double)p * m) != 0)
        return -1;
    for (long d = 1; d < q; d *= 2) {
        long last = 2 * d - 1 < rem ? 2 * (2 * d - 1) + 1 : 2 * d - 1 + rem;
        if (span_step(out, k, max, last + 1, p, 1.0, (double)d * m) != 0)
            return -1;
        out[*k - 1].partner = d < rem ? 2 * d + 1 : d + rem;
    }
    return 0;
}

/* The algorithms of the point-to-point estimate (cf_colls' algs, MPICH's) as the rules'
 * algorithms: how their steps run, for the latency and pair-exchange probes
 * (cf_steps_spans, cf_steps_cross_bytes). A name means one algorithm per pattern: the first
 * entry whose patterns (NULL: any) hold the pattern. */
static const struct {
    const char *patterns[3];
    cf_rule_alg alg;
} coll_alg_rules[] = {
    /* a gather's or scatter's step of distance d moves a subtree's d blocks (cut at p:
     * span_levels) */
    {{"gather", "scatter", NULL}, {"binomial tree", CF_STEPS_DOUBLING, CF_LAT_STEPS}},
    {{NULL}, {"binomial tree", CF_STEPS_LG, CF_LAT_STEPS}},
    /* an allgather's step j moves 2^j blocks; an allreduce's, the vector */
    {{"allgather", "allgatherv", NULL}, {"recursive doubling", CF_STEPS_DOUBLING, CF_LAT_STEPS}},
    {{NULL}, {"recursive doubling", CF_STEPS_FOLD, CF_LAT_STEPS}},
    {{NULL}, {"ring", CF_STEPS_RING, CF_LAT_CHAIN}},
    {{NULL}, {"Rabenseifner", CF_STEPS_HALVING2, CF_LAT_STEPS}},
    {{"allgather", "allgatherv", NULL}, {"Bruck", CF_STEPS_BRUCK_GATHER, CF_LAT_STEPS}},
    {{NULL}, {"Bruck", CF_STEPS_BRUCK_ALLTOALL, CF_LAT_STEPS}},
    {{NULL}, {"pairwise exchange", CF_STEPS_RING, CF_LAT_STEPS}},
    {{NULL}, {"dissemination", CF_STEPS_LG, CF_LAT_STEPS}},
    {{NULL}, {"scatter + ring allgather", CF_STEPS_SCATTER_RING, CF_LAT_CHAIN}},
    {{NULL}, {"linear", CF_STEPS_RING, CF_LAT_ONCE}},
    {{NULL}, {"recursive halving", CF_STEPS_LG, CF_LAT_STEPS}},
};

static int holds(const char *const *patterns, const char *pattern)
{
    if (patterns[0] == NULL)
        return 1;
    for (int i = 0; i < 3 && patterns[i] != NULL; i++)
        if (strcmp(patterns[i], pattern) == 0)
            return 1;
    return 0;
}

int cf_coll_alg_rule(const char *pattern, const char *name, cf_rule_alg *out)
{
    for (size_t i = 0; i < sizeof coll_alg_rules / sizeof coll_alg_rules[0]; i++)
        if (strcmp(coll_alg_rules[i].alg.name, name) == 0 &&
            holds(coll_alg_rules[i].patterns, pattern)) {
            *out = coll_alg_rules[i].alg;
            return 0;
        }
    return -1;
}

/* The tier boundaries a ring's chain crosses (CF_LAT_CHAIN): into the farther ranks and back
 * out at the wrap, at least; rings over more groups of ranks cross more. */
#define CF_RING_CROSSINGS 2.0

int cf_steps_spans(const cf_rule_alg *a, long p, double m, cf_step_span *out, int max)
{
    int k = 0, rc = 0;
    if (p < 2)
        return 0;
    double pd = (double)p, block = m / pd;
    /* Messages posted at once wait for the farthest latency about once. */
    if (a->latency == CF_LAT_ONCE)
        return span_step(out, &k, max, p, p, 1.0, m) == 0 ? k : -1;
    switch (a->steps) {
    case CF_STEPS_LG:
    case CF_STEPS_BCAST_BINOMIAL:
        rc = span_levels(out, &k, max, p, m, 0);
        break;
    case CF_STEPS_DOUBLING: /* step j moves 2^j blocks */
        rc = span_levels(out, &k, max, p, m, 1);
        break;
    case CF_STEPS_RS_DOUBLING: /* its levels, each of most of the vector: read as m */
        rc = span_levels(out, &k, max, p, m, 0);
        break;
    case CF_STEPS_RS_HALVING:
        rc = span_rs_halving(out, &k, max, p, m);
        break;
    /* every rank waits for rank 0's gather, which waits for the farthest; the bcast tree's
     * level of distance d delays the ranks it reaches, rank d's subtree (the ranks' mean) */
    case CF_STEPS_GATHER_BCAST:
        rc = span_step(out, &k, max, p, p, 1.0, m);
        for (long d = 1; rc == 0 && d < p; d *= 2) {
            double share = (double)((2 * d < p ? 2 * d : p) - d) / pd;
            rc = span_step(out, &k, max, 2 * d, p, share, pd * m);
            if (rc == 0)
                out[k - 1].partner = d;
        }
        break;
    /* Not a power of two: MPICH folds each extra rank into its neighbour (2i, 2i+1) before
     * the doubling and out after it; the doubling's steps among the remaining ranks reach as
     * far as a power of two's, over ranks renumbered (counted over all p, twice, at least). */
    case CF_STEPS_FOLD:
    case CF_STEPS_SMP_FOLD:
        if (cf_is_pow2(p))
            rc = span_levels(out, &k, max, p, m, 0);
        else
            rc = span_levels(out, &k, max, cf_pof2_le(p), m, 0) ||
                 span_step(out, &k, max, p, p, 2.0, m);
        break;
    case CF_STEPS_LG2: /* down and back up the levels */
        rc = span_levels(out, &k, max, p, m, 0) || span_levels(out, &k, max, p, m, 0);
        break;
    case CF_STEPS_HALVING2: /* halving from distance 1 (m/2), and back */
    case CF_STEPS_SMP_HALVING2:
        rc = span_levels(out, &k, max, p, m / 2, -1) || span_levels(out, &k, max, p, m / 2, -1);
        break;
    /* The binomial scatter's step of distance d sends d blocks of m/p (the root's first, half
     * the vector, to p/2), as recursive doubling's allgather of them after it does. */
    case CF_STEPS_SCATTER_DOUBLING:
        rc = span_levels(out, &k, max, p, block, 1) || span_levels(out, &k, max, p, block, 1);
        break;
    /* the scatter's levels, then a ring of blocks: a chain's crossings, or (SMPI_LR in
     * across-rules.c) each of its p - 1 steps waiting for the farthest pair */
    case CF_STEPS_SCATTER_RING:
        rc = span_levels(out, &k, max, p, block, 1) ||
             span_add(out, &k, max, p, p, a->latency == CF_LAT_CHAIN ? CF_RING_CROSSINGS : pd - 1,
                      block, pd - 1);
        break;
    /* Bruck: step j pairs r with r + 2^j (mod p), which wraps around the communicator, so
     * more of its steps cross a tier than the doubling's aligned levels (at p = 64 over two
     * groups of 32 a rank crosses on about 2 steps); counted as those levels, at least. Its
     * allgather's step j moves min(2^j, p - 2^j) blocks, its alltoall's every step p/2. */
    case CF_STEPS_BRUCK_GATHER:
        for (long d = 1; d < p && rc == 0; d *= 2)
            rc = span_step(out, &k, max, 2 * d, p, 1.0, (double)(d < p - d ? d : p - d) * m);
        break;
    /* Rounds of partners r + d and r - d (mod p): from the first round on one of the two
     * lies across the communicator's farthest boundary for most ranks (rank 0 sends to
     * p - 1 first), and each round waits for its slowest: every round reaches all p ranks,
     * its messages leaving together. */
    case CF_STEPS_ROUNDS: {
        double rounds = ceil(pd / CF_ROUND_PAIRS);
        rc = span_add(out, &k, max, p, p, rounds, CF_ROUND_PAIRS * m, rounds);
        break;
    }
    case CF_STEPS_BRUCK_ALLTOALL:
        rc = span_levels(out, &k, max, p, (double)(p / 2) * m, 0);
        break;
    /* A ring is a chain (CF_LAT_CHAIN); pairwise exchange pays at each step whose partner
     * lies in the farther tier (the partners are 1 to p - 1 ranks away, one step each). */
    case CF_STEPS_RING:
    case CF_STEPS_SPREAD:
        if (a->latency == CF_LAT_CHAIN)
            rc = span_add(out, &k, max, p, p, CF_RING_CROSSINGS, m, pd - 1);
        else
            rc = span_distances(out, &k, max, p, m);
        break;
    /* A chain of whole messages: each hop r -> r + 1 into another aligned block of d ranks (r
     * + 1 an odd multiple of d) pairs ranks of one block of 2d, as rank 0 and rank d, and
     * paces its own transfer alone; not a ring's p - 1 steps each paced by the slowest pair.
     * The ranks past a hop wait for it (placement.c's waiting_share). */
    case CF_STEPS_CHAIN:
        for (long d = 1; d < p && rc == 0; d *= 2) {
            long hops = (p - 1) / d - (p - 1) / (2 * d);
            if (hops > 0 && (rc = span_step(out, &k, max, 2 * d, p, (double)hops, m)) == 0)
                out[k - 1].partner = d;
        }
        break;
    /* RING2, NEIGHBOR, SCATTER_RING and PIPELINE are chains (CF_LAT_CHAIN in the rules). */
    case CF_STEPS_RING2: /* two passes of a ring of blocks */
        rc = span_add(out, &k, max, p, p, 2 * CF_RING_CROSSINGS, block, 2 * (pd - 1));
        break;
    case CF_STEPS_NEIGHBOR: /* a ring whose pairs trade two blocks in both directions */
        rc = span_add(out, &k, max, p, p, CF_RING_CROSSINGS, 2 * m, (double)(p / 2));
        break;
    case CF_STEPS_BINARY: /* level l of a binary heap holds ranks 2^l - 1 to 2^(l+1) - 2 */
        for (int l = 1; l < cf_ceil_lg(p + 1) && rc == 0; l++)
            rc = span_step(out, &k, max, (2L << l) - 1, p, 1.0, m);
        break;
    case CF_STEPS_BCAST_KNOMIAL: /* level j of distance 4^j: blocks of 4^(j+1) */
        for (long d = 1; d < p && rc == 0; d *= 4)
            rc = span_step(out, &k, max, 4 * d, p, 1.0, m);
        break;
    /* a chain: the data crosses each tier boundary about once, each segment's transfer
     * waiting for the slowest link's (SMPI's chain reduce where its fanout is 1, p below 4:
     * one chain as a pipeline) */
    case CF_STEPS_REDUCE_CHAIN:
        if (p >= 4) {
            rc = span_step(out, &k, max, p, p, 1.0, m);
            break;
        }
        /* fall through */
    case CF_STEPS_PIPELINE:
        rc = span_add(out, &k, max, p, p, 1.0, fmin(m, CF_PIPELINE_SEG),
                      fmax(1.0, ceil(m / CF_PIPELINE_SEG)));
        break;
    case CF_STEPS_SEG_TREE: /* per-call reduce trees: a rank's mean is about one message */
    case CF_STEPS_REDUCE_BINOMIAL:
    case CF_STEPS_REDUCE_SERIAL:
    case CF_STEPS_REDUCE_BINARY:
    case CF_STEPS_REDUCE_IN_ORDER:
    case CF_STEPS_REDUCE_KNOMIAL:
        rc = span_step(out, &k, max, p, p, 1.0, m);
        break;
    }
    return rc != 0 ? -1 : k;
}

double cf_steps_block_bytes(const cf_rule_alg *a, const char *pattern, long p, long b, double m)
{
    if (p < 2 || b < 1 || b >= p ||
        (a->latency == CF_LAT_ONCE && strcmp(pattern, "alltoall") != 0))
        return 0.0;
    /* The doublings of the partner's distance from b up: the steps whose partners lie
     * outside a rank's block of b. */
    double steps = 0;
    for (long d = b; d < p; d *= 2)
        steps++;
    switch (a->steps) {
    case CF_STEPS_RING: /* pairwise, a spread ring, linear, isend/irecv; not a chain */
    case CF_STEPS_SPREAD:
    case CF_STEPS_ROUNDS:
    case CF_STEPS_DOUBLING: /* its steps from distance b move b, 2b, ... blocks */
    case CF_STEPS_BRUCK_GATHER:
    case CF_STEPS_RS_HALVING: /* Open MPI's halving, its steps to distance b alike */
        return a->latency == CF_LAT_CHAIN ? 0.0 : (double)(p - b) * m;
    case CF_STEPS_BRUCK_ALLTOALL: /* each step from distance b: half of the p blocks */
        return a->latency == CF_LAT_CHAIN ? 0.0 : steps * (double)(p / 2) * m;
    /* A bcast's allgather of the scattered blocks (m/p each) by recursive doubling, every
     * rank at once: its steps from distance b move b, 2b, ... blocks. */
    case CF_STEPS_SCATTER_DOUBLING:
        return (double)(p - b) * m / (double)p;
    case CF_STEPS_FOLD: /* recursive doubling's allreduce: m with each such partner */
    case CF_STEPS_SMP_FOLD:
        return steps * m;
    case CF_STEPS_RS_DOUBLING: { /* from distance b: the p - d blocks outside each subtree */
        double bytes = 0.0;
        for (long d = b; d < p; d *= 2)
            bytes += (double)(p - d) * m;
        return bytes;
    }
    /* Rabenseifner halves the vector from the nearest partner out (MPICH's and Open MPI's
     * distance 1 first): its step at distance d moves m/(2d), and so does the allgather's
     * step back. */
    case CF_STEPS_HALVING2:
    case CF_STEPS_SMP_HALVING2:
        return 2 * m * (1.0 / (double)b - 1.0 / (double)p);
    default:
        return 0.0;
    }
}

double cf_steps_cross_bytes(const cf_rule_alg *a, const char *pattern, long p, double m)
{
    return cf_steps_block_bytes(a, pattern, p, p / 2, m);
}
