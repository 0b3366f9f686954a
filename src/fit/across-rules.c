/* Which algorithm an MPI library runs for a collective at (p, m), and what that algorithm's
 * steps cost in units of the collective's own two-process time T2(s): the switch rules the
 * grid model of across-grid.c follows. One rule set per library (and per SMPI selector),
 * listed in rule_sets below. */
#include "config.h"

#include "fit/across-int.h"
#include "fit/barrier-replay.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_pow2(long p)
{
    return p > 0 && (p & (p - 1)) == 0;
}

/* The largest power of two <= p. */
static long pof2_le(long p)
{
    long q = 1;
    while (q * 2 <= p)
        q *= 2;
    return q;
}

/* MPICH's default thresholds (MPIR_CVAR_*, MPICH 3.x and 4.x; Thakur, Rabenseifner and
 * Gropp 2005), m in bytes as the table defines it per pattern. */
#define MPICH_BCAST_SHORT 12288
#define MPICH_BCAST_LONG 524288
#define MPICH_BCAST_MIN_PROCS 8
#define MPICH_ALLGATHER_SHORT_TOTAL 81920
#define MPICH_ALLGATHER_LONG_TOTAL 524288
#define MPICH_ALLTOALL_SHORT 256
#define MPICH_ALLTOALL_MEDIUM 32768
#define MPICH_ALLTOALL_MIN_PROCS 8
#define MPICH_REDUCE_SHORT 2048 /* allreduce and reduce alike */

/* allgather and alltoall: the same in MPICH and in SimGrid's mpich selector. */
static int pick_allgather(long p, double m, cf_rule_alg *a)
{
    double total = m * (double)p;
    if (is_pow2(p) && total < MPICH_ALLGATHER_LONG_TOTAL)
        *a = (cf_rule_alg){"recursive doubling", CF_STEPS_DOUBLING, CF_LAT_STEPS};
    else if (total <= MPICH_ALLGATHER_SHORT_TOTAL)
        *a = (cf_rule_alg){"Bruck", CF_STEPS_BRUCK_GATHER, CF_LAT_STEPS};
    else
        *a = (cf_rule_alg){"ring", CF_STEPS_RING, CF_LAT_CHAIN};
    return 0;
}

static int pick_alltoall(long p, double m, cf_rule_alg *a)
{
    if (m < MPICH_ALLTOALL_SHORT && p >= MPICH_ALLTOALL_MIN_PROCS)
        *a = (cf_rule_alg){"Bruck", CF_STEPS_BRUCK_ALLTOALL, CF_LAT_STEPS};
    else if (m < MPICH_ALLTOALL_MEDIUM)
        *a = (cf_rule_alg){"isend/irecv", CF_STEPS_RING, CF_LAT_ONCE};
    else
        *a = (cf_rule_alg){"pairwise exchange", CF_STEPS_RING, CF_LAT_STEPS};
    return 0;
}

/* MPICH itself. count < pof2 (fewer floats than the power of two below p) keeps the
 * short-message algorithm of the reductions. */
static int pick_mpich(const char *pattern, long p, double m, long node, cf_rule_alg *a)
{
    (void)node;
    if (strcmp(pattern, "allgather") == 0)
        return pick_allgather(p, m, a);
    if (strcmp(pattern, "alltoall") == 0)
        return pick_alltoall(p, m, a);
    if (strcmp(pattern, "bcast") == 0) {
        if (m < MPICH_BCAST_SHORT || p < MPICH_BCAST_MIN_PROCS)
            *a = (cf_rule_alg){"binomial tree", CF_STEPS_LG, CF_LAT_STEPS};
        else if (m < MPICH_BCAST_LONG && is_pow2(p))
            *a = (cf_rule_alg){"scatter + recursive doubling allgather", CF_STEPS_SCATTER_DOUBLING,
                               CF_LAT_STEPS};
        else
            *a = (cf_rule_alg){"scatter + ring allgather", CF_STEPS_SCATTER_RING, CF_LAT_CHAIN};
        return 0;
    }
    int reduce = strcmp(pattern, "reduce") == 0, allreduce = strcmp(pattern, "allreduce") == 0;
    if (reduce || allreduce) {
        if (m <= MPICH_REDUCE_SHORT || m / 4.0 < (double)pof2_le(p))
            *a = reduce ? (cf_rule_alg){"binomial tree", CF_STEPS_LG, CF_LAT_STEPS}
                        : (cf_rule_alg){"recursive doubling", CF_STEPS_FOLD, CF_LAT_STEPS};
        else
            *a = (cf_rule_alg){"Rabenseifner", CF_STEPS_HALVING2, CF_LAT_STEPS};
        return 0;
    }
    return -1;
}

/* SimGrid SMPI's "mpich" selector (smpi_mpich_selector.cpp): allgather and alltoall as
 * MPICH; bcast, reduce and allreduce (commutative operations) go to its two-level SMP
 * algorithms, which on nodes of equal rank counts are binomial trees across the nodes at
 * every size.
 * SMPI_RING: SMPI's "ring" allgather (allgather-ring.cpp; its ompi selector's too) sends
 * the rank's own block to rank + i at step i and receives from rank - i, a spread of
 * partners as a pairwise exchange's, not a chain: on data/platforms/racks.xml at np 64 and
 * 2 MiB it takes 107796 us, as long as the pairwise alltoall, where the logical ring
 * (smpi/allgather:NTSLR) takes 15311. Its steps are costed as the ring's (p - 1 of m).
 * SMPI_REDUCE: its reduce is MVAPICH2's two-level one (reduce-mvapich-two-level.cpp), which
 * reads whether the ranks share a node. Inside one node (p <= node) a shared-memory reduce
 * to 2048 bytes (the root receiving each rank's vector, reduce__ompi_basic_linear), a
 * k-nomial tree beyond. Across nodes MPICH's own reduce inside each node and then among the
 * nodes' leaders: a binomial tree below 2048 bytes or fewer floats than the power of two at
 * or below the ranks, from there scatter-gather (recursive halving, in which every rank
 * waits on its partner, then a binomial gather). data/sim-racks.csv (4 ranks a node),
 * reduce of 4 KiB: 0.17 us at np 4, 3.76 at np 8, the network's 2.02 us latency twice. The
 * trees are costed per call, scatter-gather as Rabenseifner's halving and gather; the
 * names keep the measured points of one node and of several apart. node 0 (not known):
 * the binomial tree's steps at every size, as before the rules read it. */
static int smpi_mpich_reduce(long p, double m, long node, cf_rule_alg *a)
{
    *a = (cf_rule_alg){"two-level binomial tree", CF_STEPS_LG, CF_LAT_STEPS};
    if (node <= 0)
        return 0;
    /* Its trees, timed a call at a time, as Open MPI's: the mean of the ranks' times, each
     * rank leaving once its part is sent (sim-flat, 256 B: 1.50, 1.74 and 1.87 times np 2's at
     * np 4, 8 and 16, 2(p - 1)/p; sim-fatnodes, inside one node, 1.47, 1.70 and 1.82). */
    a->steps = CF_STEPS_REDUCE_BINOMIAL;
    if (p <= node && m <= MPICH_REDUCE_SHORT)
        a->name = "shared-memory reduce";
    else if (p <= node)
        *a = (cf_rule_alg){"k-nomial tree", CF_STEPS_REDUCE_KNOMIAL, CF_LAT_STEPS};
    else {
        long nodes = (p + node - 1) / node, most = node > nodes ? node : nodes;
        if (m >= MPICH_REDUCE_SHORT && m / 4.0 >= (double)pof2_le(most))
            *a = (cf_rule_alg){"two-level scatter-gather", CF_STEPS_HALVING2, CF_LAT_STEPS};
    }
    return 0;
}

static int pick_smpi_mpich(const char *pattern, long p, double m, long node, cf_rule_alg *a)
{
    /* SMPI_ROUNDS: below 32 KiB (and from 256 B at np 8 or more, Bruck's below) its
     * alltoall is MVAPICH2's scatter-dest (alltoall-mvapich-scatter-dest.cpp): each round
     * posts the receives from rank + i and the sends to rank - i of CF_ROUND_PAIRS distances
     * and waits for them all, so every round waits for its farthest partner (sim-racks,
     * 256 B: 24.5 us at np 32, one rack, 179.5 at np 64, two: 16 rounds of the rack's
     * latency more), where MPICH's posts them all at once. */
    if (strcmp(pattern, "alltoall") == 0) {
        pick_alltoall(p, m, a);
        if (a->latency == CF_LAT_ONCE)
            *a = (cf_rule_alg){"isend/irecv in rounds of 4", CF_STEPS_ROUNDS, CF_LAT_STEPS};
        return 0;
    }
    if (strcmp(pattern, "allgather") == 0) {
        pick_allgather(p, m, a);
        if (a->latency == CF_LAT_CHAIN)
            *a = (cf_rule_alg){"ring", CF_STEPS_RING, CF_LAT_STEPS}; /* SMPI_RING */
        return 0;
    }
    if (strcmp(pattern, "bcast") == 0) {
        *a = (cf_rule_alg){"two-level binomial tree", CF_STEPS_LG, CF_LAT_STEPS};
        return 0;
    }
    if (strcmp(pattern, "reduce") == 0)
        return smpi_mpich_reduce(p, m, node, a); /* SMPI_REDUCE */
    if (strcmp(pattern, "allreduce") == 0) {
        *a = (cf_rule_alg){"two-level recursive doubling", CF_STEPS_SMP_FOLD, CF_LAT_STEPS};
        return 0;
    }
    return pick_mpich(pattern, p, m, node, a);
}

/* Open MPI's tuned collectives (coll_tuned_decision_fixed.c of Open MPI 4.1, whose tables
 * SimGrid 3.31 on carries into its "ompi" selector, smpi_openmpi_selector.cpp): per band of
 * process counts, the algorithm by the size the decision reads (the whole buffer for bcast,
 * reduce and allreduce, one process's block for allgather and alltoall), commutative
 * operations; every band, to the last that holds all larger communicators (OMPI_P_ANY). */
#define OMPI_BAND_MAX 11
#define OMPI_P_ANY LONG_MAX
typedef struct ompi_band {
    long p_below;                         /* the band holds p < p_below (0 ends the table) */
    double below[OMPI_BAND_MAX];          /* size bounds, increasing; 0 ends them */
    unsigned char alg[OMPI_BAND_MAX + 1]; /* alg[i] below below[i]; the one after, above */
} ompi_band;

/* Open MPI's algorithm numbers per collective (its coll_tuned_*_algorithm values). */
enum { AR_LINEAR = 1, AR_NONOVERLAP, AR_RDB, AR_RING, AR_SEGRING, AR_RABENSEIFNER };
enum { A2A_LINEAR = 1, A2A_PAIRWISE, A2A_BRUCK, A2A_LINEAR_SYNC, A2A_TWO_PROC };
enum {
    BC_LINEAR = 1,
    BC_CHAIN,
    BC_PIPELINE,
    BC_SPLIT_BINARY,
    BC_BINARY,
    BC_BINOMIAL,
    BC_KNOMIAL,
    BC_SCATTER_RDB,
    BC_SCATTER_RING
};
enum { RD_LINEAR = 1, RD_CHAIN, RD_PIPELINE, RD_BINARY, RD_BINOMIAL, RD_IN_ORDER, RD_RABENSEIFNER };
enum { AG_LINEAR = 1, AG_BRUCK, AG_RDB, AG_RING, AG_NEIGHBOR, AG_TWO_PROC };

static const ompi_band ompi_allreduce[] = {
    {4,
     {8, 4096, 8192, 16384, 65536, 262144},
     {AR_RING, AR_RDB, AR_RING, AR_RDB, AR_RING, AR_SEGRING, AR_RABENSEIFNER}},
    {8, {16, 8192}, {AR_RING, AR_RDB, AR_RABENSEIFNER}},
    {16, {8192}, {AR_RDB, AR_RABENSEIFNER}},
    {32, {64, 4096}, {AR_SEGRING, AR_RDB, AR_RABENSEIFNER}},
    {64, {128}, {AR_SEGRING, AR_RABENSEIFNER}},
    {128, {262144}, {AR_RDB, AR_RABENSEIFNER}},
    {256, {131072, 262144}, {AR_NONOVERLAP, AR_RDB, AR_RABENSEIFNER}},
    {512, {4096}, {AR_NONOVERLAP, AR_RABENSEIFNER}},
    {2048, {2048, 16384}, {AR_NONOVERLAP, AR_RDB, AR_RABENSEIFNER}},
    {4096, {2048, 4096, 16384}, {AR_NONOVERLAP, AR_SEGRING, AR_RDB, AR_RABENSEIFNER}},
    {OMPI_P_ANY, {2048, 16384, 32768}, {AR_NONOVERLAP, AR_SEGRING, AR_RDB, AR_RABENSEIFNER}},
    {0, {0}, {0}},
};

static const ompi_band ompi_alltoall[] = {
    {3,
     {2, 4, 16, 64, 256, 4096, 32768, 262144, 1048576},
     {A2A_PAIRWISE, A2A_TWO_PROC, A2A_PAIRWISE, A2A_TWO_PROC, A2A_PAIRWISE, A2A_TWO_PROC,
      A2A_PAIRWISE, A2A_LINEAR_SYNC, A2A_TWO_PROC, A2A_PAIRWISE}},
    {8,
     {8192, 16384, 65536, 524288, 1048576},
     {A2A_LINEAR_SYNC, A2A_LINEAR, A2A_LINEAR_SYNC, A2A_LINEAR, A2A_PAIRWISE, A2A_LINEAR}},
    {16, {262144}, {A2A_LINEAR_SYNC, A2A_LINEAR}},
    {32,
     {4, 512, 8192, 32768, 262144, 524288},
     {A2A_LINEAR_SYNC, A2A_BRUCK, A2A_LINEAR_SYNC, A2A_LINEAR, A2A_LINEAR_SYNC, A2A_LINEAR,
      A2A_LINEAR_SYNC}},
    {64, {512, 524288}, {A2A_BRUCK, A2A_LINEAR, A2A_LINEAR_SYNC}},
    {128,
     {1024, 2048, 4096, 262144},
     {A2A_BRUCK, A2A_LINEAR, A2A_LINEAR_SYNC, A2A_LINEAR, A2A_PAIRWISE}},
    {256, {1024, 2048, 262144}, {A2A_BRUCK, A2A_LINEAR_SYNC, A2A_LINEAR, A2A_PAIRWISE}},
    {512, {1024, 8192, 32768}, {A2A_BRUCK, A2A_LINEAR_SYNC, A2A_LINEAR, A2A_PAIRWISE}},
    {1024,
     {512, 8192, 16384, 131072, 262144},
     {A2A_BRUCK, A2A_LINEAR_SYNC, A2A_LINEAR, A2A_LINEAR_SYNC, A2A_LINEAR, A2A_PAIRWISE}},
    {2048,
     {512, 1024, 2048, 16384, 262144},
     {A2A_BRUCK, A2A_LINEAR_SYNC, A2A_LINEAR, A2A_LINEAR_SYNC, A2A_LINEAR, A2A_LINEAR_SYNC}},
    {4096,
     {1024, 4096, 8192, 131072},
     {A2A_BRUCK, A2A_LINEAR_SYNC, A2A_LINEAR, A2A_LINEAR_SYNC, A2A_LINEAR}},
    {OMPI_P_ANY,
     {2048, 8192, 16384, 32768, 65536},
     {A2A_BRUCK, A2A_LINEAR_SYNC, A2A_LINEAR, A2A_LINEAR_SYNC, A2A_LINEAR, A2A_LINEAR_SYNC}},
    {0, {0}, {0}},
};

static const ompi_band ompi_bcast[] = {
    {4,
     {32, 256, 512, 1024, 32768, 131072, 262144, 524288, 1048576},
     {BC_PIPELINE, BC_BINARY, BC_PIPELINE, BC_KNOMIAL, BC_LINEAR, BC_BINARY, BC_CHAIN, BC_LINEAR,
      BC_BINOMIAL, BC_BINARY}},
    {8,
     {64, 128, 2048, 8192, 1048576},
     {BC_BINARY, BC_BINOMIAL, BC_BINARY, BC_BINOMIAL, BC_LINEAR, BC_CHAIN}},
    {16,
     {8, 64, 4096, 16384, 32768},
     {BC_KNOMIAL, BC_BINARY, BC_KNOMIAL, BC_BINARY, BC_BINOMIAL, BC_LINEAR}},
    {32, {4096, 1048576}, {BC_KNOMIAL, BC_BINOMIAL, BC_SCATTER_RDB}},
    {64, {2048}, {BC_BINOMIAL, BC_KNOMIAL}},
    {128, {0}, {BC_KNOMIAL}},
    {256, {2, 16384, 32768, 65536}, {BC_BINOMIAL, BC_BINARY, BC_LINEAR, BC_BINARY, BC_KNOMIAL}},
    {1024, {16384, 32768}, {BC_KNOMIAL, BC_SPLIT_BINARY, BC_KNOMIAL}},
    {2048, {524288}, {BC_KNOMIAL, BC_SCATTER_RDB}},
    {4096, {262144}, {BC_KNOMIAL, BC_SCATTER_RDB}},
    {OMPI_P_ANY, {8192, 16384, 262144}, {BC_KNOMIAL, BC_BINARY, BC_KNOMIAL, BC_SCATTER_RDB}},
    {0, {0}, {0}},
};

static const ompi_band ompi_reduce[] = {
    {4,
     {8, 16, 32, 262144, 524288, 1048576},
     {RD_RABENSEIFNER, RD_BINARY, RD_PIPELINE, RD_LINEAR, RD_PIPELINE, RD_CHAIN, RD_PIPELINE}},
    {8,
     {4096, 65536, 262144, 524288, 1048576},
     {RD_BINARY, RD_CHAIN, RD_BINOMIAL, RD_LINEAR, RD_BINOMIAL, RD_LINEAR}},
    {16, {8192}, {RD_BINARY, RD_BINOMIAL}},
    {32, {4096}, {RD_BINARY, RD_BINOMIAL}},
    {256, {0}, {RD_BINOMIAL}},
    {512, {8192, 16384}, {RD_BINOMIAL, RD_IN_ORDER, RD_BINOMIAL}},
    {2048, {0}, {RD_BINOMIAL}},
    {4096,
     {512, 1024, 8192, 16384},
     {RD_BINOMIAL, RD_IN_ORDER, RD_BINOMIAL, RD_IN_ORDER, RD_BINOMIAL}},
    {OMPI_P_ANY,
     {16, 32, 1024, 2048, 8192, 16384},
     {RD_BINOMIAL, RD_IN_ORDER, RD_BINOMIAL, RD_IN_ORDER, RD_BINOMIAL, RD_IN_ORDER, RD_BINOMIAL}},
    {0, {0}, {0}},
};

static const ompi_band ompi_allgather[] = {
    {3, {0}, {AG_TWO_PROC}},
    {32, {0}, {AG_RDB}},
    {64, {1024, 65536}, {AG_RDB, AG_NEIGHBOR, AG_RING}},
    {128, {512, 65536}, {AG_RDB, AG_NEIGHBOR, AG_RING}},
    {256, {512, 131072, 524288, 1048576}, {AG_RDB, AG_NEIGHBOR, AG_RING, AG_NEIGHBOR, AG_RING}},
    {512,
     {32, 128, 1024, 131072, 524288, 1048576},
     {AG_RDB, AG_BRUCK, AG_RDB, AG_NEIGHBOR, AG_RING, AG_NEIGHBOR, AG_RING}},
    {1024, {64, 256, 2048}, {AG_RDB, AG_BRUCK, AG_RDB, AG_NEIGHBOR}},
    {2048,
     {4, 8, 16, 32, 256, 512, 4096},
     {AG_RDB, AG_BRUCK, AG_RDB, AG_BRUCK, AG_RDB, AG_BRUCK, AG_RDB, AG_NEIGHBOR}},
    {4096, {32, 128, 512, 4096}, {AG_BRUCK, AG_RDB, AG_BRUCK, AG_RDB, AG_NEIGHBOR}},
    {OMPI_P_ANY, {2, 8, 16, 512, 4096}, {AG_RDB, AG_BRUCK, AG_RDB, AG_BRUCK, AG_RDB, AG_NEIGHBOR}},
    {0, {0}, {0}},
};

/* The algorithm number of a table at (p, size); 0 where the table has no band for p. */
static int ompi_decide(const ompi_band *t, long p, double size)
{
    for (; t->p_below > 0; t++) {
        if (p >= t->p_below)
            continue;
        int i = 0;
        while (i < OMPI_BAND_MAX && t->below[i] > 0 && size >= t->below[i])
            i++;
        return t->alg[i];
    }
    return 0;
}

/* What runs for each algorithm number: the name and the steps. Where SMPI runs one of its
 * own implementations in place of Open MPI's, the smpi names say which; points that run
 * the same implementation share a name, so the grid reads them on one line. */
typedef struct ompi_algs {
    const ompi_band *table;
    cf_rule_alg ompi[10], smpi[10]; /* by algorithm number, [0] unused */
} ompi_algs;

static const ompi_algs ompi_allreduce_algs = {
    ompi_allreduce,
    {{0},
     {"linear", CF_STEPS_LG2, CF_LAT_STEPS},
     {"nonoverlapping", CF_STEPS_LG2, CF_LAT_STEPS},
     {"recursive doubling", CF_STEPS_FOLD, CF_LAT_STEPS},
     {"ring", CF_STEPS_RING2, CF_LAT_CHAIN},
     {"segmented ring", CF_STEPS_RING2, CF_LAT_CHAIN},
     {"Rabenseifner", CF_STEPS_HALVING2, CF_LAT_STEPS}},
    {{0},
     {"reduce + bcast", CF_STEPS_LG2, CF_LAT_STEPS},
     {"reduce + bcast", CF_STEPS_LG2, CF_LAT_STEPS},
     {"recursive doubling", CF_STEPS_FOLD, CF_LAT_STEPS},
     {"logical ring", CF_STEPS_RING2, CF_LAT_CHAIN},
     {"segmented ring", CF_STEPS_RING2, CF_LAT_CHAIN},
     {"Rabenseifner", CF_STEPS_HALVING2, CF_LAT_STEPS}},
};

static const ompi_algs ompi_alltoall_algs = {
    ompi_alltoall,
    {{0},
     {"linear", CF_STEPS_RING, CF_LAT_ONCE},
     {"pairwise", CF_STEPS_RING, CF_LAT_STEPS},
     {"modified Bruck", CF_STEPS_BRUCK_ALLTOALL, CF_LAT_STEPS},
     {"linear sync", CF_STEPS_RING, CF_LAT_ONCE},
     {"two proc", CF_STEPS_RING, CF_LAT_STEPS}},
    {{0},
     {"linear", CF_STEPS_RING, CF_LAT_ONCE},
     {"pairwise", CF_STEPS_RING, CF_LAT_STEPS},
     {"Bruck", CF_STEPS_BRUCK_ALLTOALL, CF_LAT_STEPS},
     {"linear", CF_STEPS_RING, CF_LAT_ONCE},
     {"linear", CF_STEPS_RING, CF_LAT_ONCE}},
};

static const ompi_algs ompi_bcast_algs = {
    ompi_bcast,
    {{0},
     {"linear", CF_STEPS_RING, CF_LAT_ONCE},
     {"chain", CF_STEPS_PIPELINE, CF_LAT_CHAIN},
     {"pipeline", CF_STEPS_PIPELINE, CF_LAT_CHAIN},
     {"split binary tree", CF_STEPS_BINARY, CF_LAT_STEPS},
     {"binary tree", CF_STEPS_BINARY, CF_LAT_STEPS},
     {"binomial tree", CF_STEPS_BCAST_BINOMIAL, CF_LAT_STEPS},
     {"knomial tree", CF_STEPS_BCAST_KNOMIAL, CF_LAT_STEPS},
     {"scatter + recursive doubling allgather", CF_STEPS_SCATTER_DOUBLING, CF_LAT_STEPS},
     {"scatter + ring allgather", CF_STEPS_SCATTER_RING, CF_LAT_CHAIN}},
    {{0},
     {"segmented linear", CF_STEPS_RING, CF_LAT_ONCE},
     {"pipeline", CF_STEPS_PIPELINE, CF_LAT_CHAIN},
     {"pipeline", CF_STEPS_PIPELINE, CF_LAT_CHAIN},
     {"split binary tree", CF_STEPS_BINARY, CF_LAT_STEPS},
     {"segmented binary tree", CF_STEPS_BINARY, CF_LAT_STEPS},
     {"binomial tree", CF_STEPS_BCAST_BINOMIAL, CF_LAT_STEPS},
     {"knomial tree", CF_STEPS_BCAST_KNOMIAL, CF_LAT_STEPS},
     {"scatter + recursive doubling allgather", CF_STEPS_SCATTER_DOUBLING, CF_LAT_STEPS},
     {"scatter + ring allgather", CF_STEPS_SCATTER_RING, CF_LAT_CHAIN}},
};

static const ompi_algs ompi_reduce_algs = {
    ompi_reduce,
    {{0},
     {"linear", CF_STEPS_RING, CF_LAT_ONCE},
     {"chain", CF_STEPS_PIPELINE, CF_LAT_CHAIN},
     {"pipeline", CF_STEPS_PIPELINE, CF_LAT_CHAIN},
     {"binary tree", CF_STEPS_REDUCE_BINARY, CF_LAT_STEPS},
     {"binomial tree", CF_STEPS_REDUCE_BINOMIAL, CF_LAT_STEPS},
     {"in-order binary tree", CF_STEPS_REDUCE_IN_ORDER, CF_LAT_STEPS},
     {"Rabenseifner", CF_STEPS_HALVING2, CF_LAT_STEPS}},
    {{0},
     {"linear", CF_STEPS_RING, CF_LAT_ONCE},
     {"chain", CF_STEPS_PIPELINE, CF_LAT_CHAIN},
     {"pipeline", CF_STEPS_PIPELINE, CF_LAT_CHAIN},
     {"binary tree", CF_STEPS_REDUCE_BINARY, CF_LAT_STEPS},
     {"binomial tree", CF_STEPS_REDUCE_BINOMIAL, CF_LAT_STEPS},
     {"in-order binary tree", CF_STEPS_REDUCE_IN_ORDER, CF_LAT_STEPS},
     {"linear", CF_STEPS_RING, CF_LAT_ONCE}},
};

static const ompi_algs ompi_allgather_algs = {
    ompi_allgather,
    {{0},
     {"linear", CF_STEPS_RING, CF_LAT_ONCE},
     {"Bruck", CF_STEPS_BRUCK_GATHER, CF_LAT_STEPS},
     {"recursive doubling", CF_STEPS_DOUBLING, CF_LAT_STEPS},
     {"ring", CF_STEPS_RING, CF_LAT_CHAIN},
     {"neighbor exchange", CF_STEPS_NEIGHBOR, CF_LAT_CHAIN},
     {"two proc", CF_STEPS_RING, CF_LAT_STEPS}},
    {{0},
     {"segmented linear", CF_STEPS_RING, CF_LAT_ONCE},
     {"Bruck", CF_STEPS_BRUCK_GATHER, CF_LAT_STEPS},
     {"recursive doubling", CF_STEPS_DOUBLING, CF_LAT_STEPS},
     {"ring", CF_STEPS_RING, CF_LAT_STEPS}, /* SMPI_RING above */
     {"neighbor exchange", CF_STEPS_NEIGHBOR, CF_LAT_CHAIN},
     {"pairwise", CF_STEPS_RING, CF_LAT_STEPS}},
};

/* Open MPI's binomial reduce cuts the vector into 1 KiB segments where the communicator is
 * large for the size (coll_tuned_reduce_intra_dec_fixed's "Binomial_1K" line, a1 = 0.6016/1024
 * per byte, b1 = 1.3496), and never below 2 KiB nor, under 8 processes, below 20 KiB; SMPI 3.32's
 * reduce__ompi_binomial decides so for its ompi selector. The segments turn a level's cost
 * from one message of m into ceil(m / 1 KiB) of a segment: a switch in p and m that no table
 * band shows. */
#define OMPI_REDUCE_A1 (0.6016 / 1024.0)
#define OMPI_REDUCE_B1 1.3496

static int ompi_reduce_segmented(long p, double m)
{
    if ((p < 8 && m < 20480) || m < 2048 || m / 4.0 <= 1)
        return 0;
    return (double)p > OMPI_REDUCE_A1 * m + OMPI_REDUCE_B1;
}

/* A ring allreduce of fewer elements than processes (the reductions are timed on floats,
 * 4 bytes) has no block for every process, and neither library runs it: Open MPI's ring
 * (and its segmented ring, which falls back to the ring first) runs recursive doubling
 * instead (coll_base_allreduce.c, "count less than size"); SMPI 3.32 runs both as its
 * logical ring, which hands such a count to its default allreduce, a reduce then a bcast
 * (allreduce-lr.cpp). */
static cf_rule_alg ring_too_short(int smpi)
{
    return smpi ? (cf_rule_alg){"reduce + bcast", CF_STEPS_LG2, CF_LAT_STEPS}
                : (cf_rule_alg){"recursive doubling", CF_STEPS_FOLD, CF_LAT_STEPS};
}

/* smpi: SMPI's implementations; loop: a table timed as a loop of calls, where the trees
 * costed per call do not hold, and the rules say nothing where they run. */
static int pick_ompi_as(const char *pattern, long p, double m, int smpi, int loop, cf_rule_alg *a)
{
    static const struct {
        const char *pattern;
        const ompi_algs *algs;
    } by[] = {{"allreduce", &ompi_allreduce_algs},
              {"alltoall", &ompi_alltoall_algs},
              {"bcast", &ompi_bcast_algs},
              {"reduce", &ompi_reduce_algs},
              {"allgather", &ompi_allgather_algs}};
    for (size_t i = 0; i < sizeof by / sizeof by[0]; i++) {
        if (strcmp(pattern, by[i].pattern) != 0)
            continue;
        int alg = ompi_decide(by[i].algs->table, p, m);
        if (alg <= 0)
            return -1;
        *a = smpi ? by[i].algs->smpi[alg] : by[i].algs->ompi[alg];
        if (smpi && by[i].algs == &ompi_reduce_algs && alg == RD_BINOMIAL &&
            ompi_reduce_segmented(p, m))
            *a = (cf_rule_alg){"binomial tree in 1 KiB segments", CF_STEPS_SEG_TREE, CF_LAT_STEPS};
        if (by[i].algs == &ompi_allreduce_algs && (alg == AR_RING || alg == AR_SEGRING) &&
            m / 4.0 < (double)p)
            *a = ring_too_short(smpi);
        return loop && cf_steps_per_call(a->steps) ? -1 : 0;
    }
    return -1;
}

/* The same for a table whose calls were timed back to back (cf_table_timed_loop): where
 * its reduce runs a tree costed per call, the rules say nothing (as Open MPI's loop rules). */
static int pick_smpi_mpich_loop(const char *pattern, long p, double m, long node,
                                cf_rule_alg *a)
{
    int rc = pick_smpi_mpich(pattern, p, m, node, a);
    return rc == 0 && cf_steps_per_call(a->steps) ? -1 : rc;
}

static int pick_openmpi(const char *pattern, long p, double m, long node, cf_rule_alg *a)
{
    (void)node;
    return pick_ompi_as(pattern, p, m, 0, 0, a);
}

/* SimGrid SMPI's "ompi" selector: Open MPI's decisions, some run by SMPI's own algorithms. */
static int pick_smpi_ompi(const char *pattern, long p, double m, long node, cf_rule_alg *a)
{
    (void)node;
    return pick_ompi_as(pattern, p, m, 1, 0, a);
}

/* The same for a table whose calls were timed back to back (cf_table_timed_loop): the
 * trees costed per call (each call alone, a barrier after it) do not hold there, and where
 * they run the rules say nothing, so the fitted across-np model answers. */
static int pick_openmpi_loop(const char *pattern, long p, double m, long node, cf_rule_alg *a)
{
    (void)node;
    return pick_ompi_as(pattern, p, m, 0, 1, a);
}

static int pick_smpi_ompi_loop(const char *pattern, long p, double m, long node, cf_rule_alg *a)
{
    (void)node;
    return pick_ompi_as(pattern, p, m, 1, 1, a);
}

typedef struct rule_set {
    const char *name;
    int (*pick)(const char *pattern, long p, double m, long node, cf_rule_alg *a);
} rule_set;

static const rule_set rule_sets[] = {
    {"mpich", pick_mpich},
    {"mpich-loop", pick_mpich},
    {"smpi-mpich", pick_smpi_mpich},
    {"smpi-mpich-loop", pick_smpi_mpich_loop},
    {"openmpi", pick_openmpi},
    {"smpi-ompi", pick_smpi_ompi},
    {"openmpi-loop", pick_openmpi_loop},
    {"smpi-ompi-loop", pick_smpi_ompi_loop},
};

const char *cf_rules_for(const char *mpi_library, const char *coll_selector, int timed_loop)
{
    int smpi = mpi_library != NULL && strstr(mpi_library, "SMPI") != NULL;
    if (smpi) {
        if (coll_selector != NULL && strcmp(coll_selector, "mpich") == 0)
            return timed_loop ? "smpi-mpich-loop" : "smpi-mpich";
        if (coll_selector == NULL || strcmp(coll_selector, "ompi") != 0)
            return NULL;
        return timed_loop ? "smpi-ompi-loop" : "smpi-ompi";
    }
    if (mpi_library != NULL && strncmp(mpi_library, "Open MPI", 8) == 0)
        return timed_loop ? "openmpi-loop" : "openmpi";
    if (mpi_library != NULL &&
        (strstr(mpi_library, "MPICH") != NULL || strstr(mpi_library, "mpich") != NULL))
        return timed_loop ? "mpich-loop" : "mpich";
    return NULL;
}

int cf_rules_loop(const char *rules)
{
    size_t n = rules != NULL ? strlen(rules) : 0;
    return n > 5 && strcmp(rules + n - 5, "-loop") == 0;
}

int cf_rules_pick(const char *rules, long node, const char *pattern, long p, double m,
                  cf_rule_alg *a)
{
    for (size_t i = 0; i < sizeof rule_sets / sizeof rule_sets[0]; i++)
        if (rules != NULL && strcmp(rule_sets[i].name, rules) == 0)
            return rule_sets[i].pick(pattern, p, m, node, a);
    return -1;
}

int cf_rules_exist(const char *rules)
{
    for (size_t i = 0; i < sizeof rule_sets / sizeof rule_sets[0]; i++)
        if (rules != NULL && strcmp(rule_sets[i].name, rules) == 0)
            return 1;
    return 0;
}

const char *cf_rules_list(char *buf, size_t size)
{
    size_t used = 0;
    if (size > 0)
        buf[0] = '\0';
    for (size_t i = 0; i < sizeof rule_sets / sizeof rule_sets[0] && used < size; i++) {
        int k = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", rule_sets[i].name);
        if (k < 0)
            break;
        used += (size_t)k;
    }
    return buf;
}

int cf_rules_known(const char *rules, const char *pattern)
{
    cf_rule_alg a;
    return cf_rules_pick(rules, 0, pattern, 2, 1.0, &a) == 0;
}

/* T2 at s: log-log between the measured sizes; below the smallest its time (the latency
 * floor). Above the largest, from the largest on, a latency and a time per byte: the line
 * in bytes through the two largest (Hockney's on the top pair), a point-to-point time past
 * its last protocol switch; never below the largest's time, never growing faster than the
 * bytes. Until stop 43 the top pair's log-log slope, clamped to [0, 1], ran from the second
 * largest: where the pair's slope was steeper than 1 the unit fell past its largest size
 * (ORFEO's bcast units, 24.66 us at 512 KiB and 100.28 at 1 MiB, read 74 at 1.5 MiB), and
 * SMPI's, fitted to 256 KiB, kept the slope its 64 KiB step leaves at the top (0.5, where
 * the time goes on at 0.8: the simulated ping-pong 17.2, 33.9, 100.8 us at 64 KiB, 256 KiB,
 * 1 MiB; this line reads 99.1 at 1 MiB, that slope 67.8). */
double cf_unit_time(const double *um, const double *ut, int n, double s)
{
    if (n <= 0)
        return NAN;
    if (n == 1 || s <= um[0])
        return ut[0];
    if (s > um[n - 1]) {
        double top = um[n - 1], per = (ut[n - 1] - ut[n - 2]) / (top - um[n - 2]);
        return fmin(fmax(ut[n - 1] + (s - top) * per, ut[n - 1]), ut[n - 1] * s / top);
    }
    int i = 1;
    while (i < n - 1 && um[i] < s)
        i++;
    double x0 = log(fmax(um[i - 1], 1.0)), x1 = log(fmax(um[i], 1.0));
    double y0 = log(ut[i - 1]), y1 = log(ut[i]);
    double k = x1 > x0 ? (y1 - y0) / (x1 - x0) : 0.0;
    return exp(y0 + k * (log(fmax(s, 1.0)) - x0));
}

int cf_steps_per_call(cf_steps st)
{
    return st >= CF_STEPS_SEG_TREE;
}

/* The height of a k-nomial tree of n >= 1 ranks rooted at its first: its children at the
 * largest distance M = k^d below n hold at most M ranks, the first min(M, n - M); those
 * nearer, full trees of k^i ranks (i < d), reach height d with their edge. */
static int knomial_height(long n, long k)
{
    if (n <= 1)
        return 0;
    int d = 0;
    long M = 1;
    while (M <= (n - 1) / k) { /* M: the largest power of k below n */
        M *= k;
        d++;
    }
    int below = knomial_height(n - M < M ? n - M : M, k) + 1;
    return below > d ? below : d;
}

/* The heights of the ranks of a k-nomial tree of p ranks rooted at 0, summed: rank r's
 * subtree holds the ranks r to r + k^d - 1 (d: r's trailing zero digits in base k; the
 * whole tree for r = 0) below p. At each d the ranks j k^d (j no multiple of k) have
 * height d, but for the last, whose subtree p may cut short. O(log^2 p). */
static double knomial_heights(long p, long k)
{
    double sum = knomial_height(p, k);
    for (long kd = k, d = 1; kd < p; d++) {
        long n = (p - 1) / kd - (kd <= (p - 1) / k ? (p - 1) / (kd * k) : 0);
        sum += (double)n * (double)d;
        long last = (p - 1) / kd * kd;
        if (last > 0 && (last / kd) % k != 0 && p - last < kd)
            sum += knomial_height(p - last, k) - d;
        if (kd > LONG_MAX / k)
            break;
        kd *= k;
    }
    return sum;
}

static int popcount(long p)
{
    int c = 0;
    for (; p > 0; p >>= 1)
        c += (int)(p & 1);
    return c;
}

/* A k-nomial bcast tree in per-call timing (a barrier after each call; the mean over the
 * ranks of each one's own time in it). A rank receiving the data sends it on level by level,
 * the farthest first: at each level to up to k-1 ranks at once, which share its link. A
 * message costs 2 units: at np=2 the root leaves at once and the unit is the receiver's
 * time over 2. Below CF_EAGER_MAX a sender does not wait: its messages of every level leave
 * together and it leaves; from CF_EAGER_MAX on each level waits for its transfers, and the
 * rank leaves after its last (tree_msg costs both). */
#define TREE_LEVELS_MAX 64
typedef struct tree_bcast {
    const double *um, *ut;
    int n;
    double m;
    int eager, k;
    double full[TREE_LEVELS_MAX]; /* the sum over a full subtree of k^j ranks, once known */
} tree_bcast;

/* k messages of m at once on one link. Waited for, they cost one message of their bytes
 * together; sent eagerly, each keeps the latency of its own size (a message of km may take
 * another protocol), and the link carries their bytes: one message, and k-1 times its
 * time above the smallest size's. */
static double tree_msg(const tree_bcast *tb, long k)
{
    if (!tb->eager)
        return 2.0 * cf_unit_time(tb->um, tb->ut, tb->n, (double)k * tb->m);
    double one = cf_unit_time(tb->um, tb->ut, tb->n, tb->m), floor = tb->ut[0];
    return 2.0 * (one + (double)(k - 1) * fmax(0.0, one - floor));
}

/* The sum of the finish times over a subtree of n ranks, from its root's arrival. */
static double tree_bcast_sum(tree_bcast *tb, long n)
{
    long k = tb->k, top = 1;
    int j = 0;
    if (n <= 1)
        return 0.0;
    while (top * k < n) {
        top *= k;
        j++;
    }
    int full = j + 1 < TREE_LEVELS_MAX && top * k == n;
    if (full && tb->full[j + 1] > 0)
        return tb->full[j + 1];
    long children = 0;
    for (long mask = top; mask > 0; mask /= k)
        for (long c = 1; c < k && c * mask < n; c++)
            children++;
    double sum = 0.0, at = tb->eager ? tree_msg(tb, children) : 0.0;
    for (long mask = top; mask > 0; mask /= k) {
        long nl = 0;
        for (long c = 1; c < k && c * mask < n; c++)
            nl++;
        if (!tb->eager)
            at += tree_msg(tb, nl);
        for (long c = 1; c <= nl; c++) {
            long size = n - c * mask < mask ? n - c * mask : mask;
            sum += (double)size * at + tree_bcast_sum(tb, size);
        }
    }
    if (!tb->eager)
        sum += at; /* the rank itself leaves after its last level */
    if (full)
        tb->full[j + 1] = sum;
    return sum;
}

/* The sizes at and above which the sized probe's readings replace the 8-byte probe's. */
#define CF_TIERS_PROBE_BYTES 8.0

double cf_sized_at(double v8, const double *sizes, const double *v, size_t stride, int n,
                   double bytes)
{
    if (n <= 0 || bytes <= CF_TIERS_PROBE_BYTES)
        return v8;
    /* (8 B, v8) then the sized points: the largest at or below bytes */
    int s = -1;
    while (s + 1 < n && sizes[s + 1] <= bytes)
        s++;
    if (s < 0)
        return v8;
    if (s < n - 1)
        return v[(size_t)s * stride];
    /* past the largest: the line through the two largest in bytes, never falling (one
     * size alone: its own) */
    double b1 = sizes[s], e1 = v[(size_t)s * stride];
    if (s == 0)
        return e1;
    double b0 = sizes[s - 1], e0 = v[(size_t)(s - 1) * stride];
    return e1 + fmax(0.0, (e1 - e0) / (b1 - b0)) * (bytes - b1);
}

/* What tier k adds to a message of bytes (cf_tiers_extra_us). */
static double tier_extra_at(const cf_tiers *t, int k, double bytes)
{
    return cf_sized_at(t->extra_us[k], t->sized_bytes, &t->sized_extra_us[0][k], CF_TIERS_MAX,
                       t->nsized, bytes);
}

/* The tier of the largest block boundary between ranks i and j; -1 inside the smallest. */
static int tier_between(const cf_tiers *t, long i, long j)
{
    int k = t->n;
    while (k-- > 0 && i / t->ranks[k] == j / t->ranks[k])
        ;
    return k;
}

double cf_tiers_extra_us(const cf_tiers *t, long i, long j, double bytes)
{
    int k = tier_between(t, i, j);
    return k < 0 ? 0.0 : tier_extra_at(t, k, bytes);
}

/* The tiers' costs at one message size, read once for a step's many messages (a replay
 * reads each message's tier, and each tier's cost at the step's size once). */
typedef struct tier_costs {
    const cf_tiers *t;
    double ex[CF_TIERS_MAX];
} tier_costs;

static tier_costs tier_costs_at(const cf_tiers *t, double bytes)
{
    tier_costs c = {t, {0}};
    for (int k = 0; k < t->n; k++)
        c.ex[k] = tier_extra_at(t, k, bytes);
    return c;
}

/* What the tiers add to a message between ranks i and j at the size of c. */
static double tier_cost(const tier_costs *c, long i, long j)
{
    int k = tier_between(c->t, i, j);
    return k < 0 ? 0.0 : c->ex[k];
}

/* The one-way latency between ranks i and j the tiers say (cf_latency_fn). */
static double tier_latency(const void *ctx, long i, long j)
{
    const cf_tiers *t = ctx;
    return t->base_us + cf_tiers_extra_us(t, i, j, CF_TIERS_PROBE_BYTES);
}

/* Rank r's first child and how the next is found in the tree Open MPI builds
 * (coll_base_topo.c): the binomial tree's children r + 1, r + 2, r + 4, ... below r's lowest
 * set bit (*step 0: the distance doubles); the binary tree's (ompi_coll_base_topo_build_tree,
 * fanout 2) r + 2^l and r + 2^(l+1), l the level of r (ranks 2^l - 1 to 2^(l+1) - 2; *step
 * 2^l). */
static long first_child(cf_steps st, long r, long *step)
{
    if (st == CF_STEPS_REDUCE_BINOMIAL) {
        *step = 0;
        return r + 1;
    }
    long d = 1;
    while (2 * d - 1 <= r)
        d *= 2;
    *step = d;
    return r + d;
}

/* The mean over p ranks of each rank's time in a per-call reduce tree of m-byte messages,
 * rank r starting at start[r] (where it left the barrier before the call; start NULL: all
 * at 0). Open MPI's reduce (coll_base_reduce.c, one segment) posts the receive of its first
 * two children at once and each next one once its waits for the children up to the one two
 * before are over; a child sends once its own subtree's data came in, and the message comes
 * in msg_us plus what the tiers between the two ranks add after its sending and, where a
 * transfer waits for its receive (rendezvous, or a message from CF_EAGER_MAX on), its
 * receive's posting. Below CF_EAGER_MAX a sender leaves at once (SMPI's detached sends),
 * from it once its message is in. A rank with children sends when its last child's data
 * came in. All starting at once and no tiers, the mean below CF_EAGER_MAX is
 * cf_steps_cost's; across tiers it differs by tree: with a node's ranks in a row a binomial
 * tree crosses nodes on a few ranks' paths, a binary tree on most (simulated Open MPI reduce
 * of 4 B, 8 ranks a node: binary tree 2.21 us at np 16, binomial 0.74 at np 32). The
 * children lie above their parent, so one pass from the last rank down knows them first.
 * NAN when out of memory. */
#define TREE_CHILDREN_MAX 64
static double tree_wait_mean(cf_steps st, long p, double m, double msg_us, const cf_tiers *t,
                             const double *start)
{
    double *fin = malloc(2 * (size_t)p * sizeof *fin), sum = 0.0;
    if (fin == NULL)
        return NAN;
    double *leave = fin + p;
    int binomial = st == CF_STEPS_REDUCE_BINOMIAL, blocking = m >= CF_EAGER_MAX;
    tier_costs tc = tier_costs_at(t, m);
    int gated = t->rendezvous || blocking;
    for (long r = p - 1; r >= 0; r--) {
        double in[TREE_CHILDREN_MAX], f = start != NULL ? start[r] : 0.0, waited = f;
        long step, c = first_child(st, r, &step);
        for (int k = 0; c < p && k < (binomial ? TREE_CHILDREN_MAX : 2); k++) {
            if (binomial && (r & (c - r)))
                break; /* c - r reached r's lowest set bit: r's parent lies there */
            /* posted once the waits for the children up to two before are over */
            if (k >= 2)
                waited = fmax(waited, in[k - 2]);
            in[k] = (gated ? fmax(fin[c], waited) : fin[c]) + msg_us + tier_cost(&tc, r, c);
            leave[c] = blocking ? in[k] : fin[c];
            f = fmax(f, in[k]);
            c = binomial ? r + 2 * (c - r) : c + step;
        }
        fin[r] = f;
    }
    leave[0] = fin[0];
    for (long r = 0; r < p; r++)
        sum += leave[r] - (start != NULL ? start[r] : 0.0);
    free(fin);
    return sum / (double)p;
}

static int tiers_equal(const cf_tiers *a, const cf_tiers *b)
{
    if (a->n != b->n || a->base_us != b->base_us || a->rendezvous != b->rendezvous ||
        a->probed != b->probed)
        return 0;
    for (int k = 0; k < a->n; k++)
        if (a->ranks[k] != b->ranks[k] || a->extra_us[k] != b->extra_us[k])
            return 0;
    return 1;
}

/* Where each of p ranks left the barrier of rule set rules before a call, replayed over the
 * tiers (all at 0 where it cannot be replayed); NULL when out of memory. A reading costs a
 * tree at the same few process counts many times over (each size, each measured np), and
 * the replay takes O(p log p) messages: the last CF_STARTS_KEPT are kept, by barrier, p and
 * tiers, for the life of the process (commfit runs one thread). The array returned holds
 * until the next call: a caller uses it before asking again. */
#define CF_STARTS_KEPT 8
#define CF_TREE_REPLAY_MAX (1L << 16)
#define CF_BRUCK_REPLAY_MAX 4096L
#define CF_NEIGHBOR_REPLAY_MAX 256L
#define CF_BARRIER_REPLAY_MAX 4096L
static const double *barrier_starts(const char *rules, long p, const cf_tiers *tiers)
{
    static struct {
        const char *alg; /* cf_barrier_alg's own string */
        long p;
        cf_tiers tiers;
        double *exits;
    } kept[CF_STARTS_KEPT];
    static int next;
    const char *alg = cf_barrier_alg(rules, p);
    for (int i = 0; i < CF_STARTS_KEPT; i++)
        if (kept[i].exits != NULL && kept[i].alg == alg && kept[i].p == p &&
            tiers_equal(&kept[i].tiers, tiers))
            return kept[i].exits;
    double *exits = calloc((size_t)p, sizeof *exits);
    if (exits == NULL)
        return NULL;
    if (cf_barrier_exits(alg, p, tier_latency, tiers,
                         tiers->rendezvous ? CF_PROTO_RENDEZVOUS : CF_PROTO_EAGER, exits) != 0)
        memset(exits, 0, (size_t)p * sizeof *exits);
    free(kept[next].exits);
    kept[next].alg = alg;
    kept[next].p = p;
    kept[next].tiers = *tiers;
    kept[next].exits = exits;
    next = (next + 1) % CF_STARTS_KEPT;
    return exits;
}

/* The blocks Bruck's alltoall sends at its step of distance d: those of 1 to p - 1 whose
 * index has d's bit set (p/2 when p is a power of two). */
static double bruck_blocks(long p, long d)
{
    long full = p / (2 * d) * d, rest = p % (2 * d) - d;
    return (double)(full + (rest > 0 ? rest : 0));
}

/* Bruck's alltoall at p without tiers or waits: the sum of its steps' messages. */
static double bruck_messages(long p, double m, const double *um, const double *ut, int n)
{
    double s = 0.0;
    for (long d = 1; d < p; d *= 2)
        s += 2.0 * cf_unit_time(um, ut, n, bruck_blocks(p, d) * m);
    return s;
}

/* The replays' clocks: p ranks' times, each starting at start[r] (NULL: all at 0), and a
 * second array of p after them for the next step's; NULL when out of memory. */
static double *clocks(long p, const double *start)
{
    double *s = malloc(2 * (size_t)p * sizeof *s);
    for (long r = 0; s != NULL && r < p; r++)
        s[r] = start != NULL ? start[r] : 0.0;
    return s;
}

/* The mean over the p ranks of their clocks s less where each started; frees s. */
static double clocks_mean(double *s, long p, const double *start)
{
    double sum = 0.0;
    for (long r = 0; r < p; r++)
        sum += s[r] - (start != NULL ? start[r] : 0.0);
    free(s);
    return sum / (double)p;
}

/* One step of a shift by d around the communicator: each rank r sends a message of bytes
 * (msg_us) to r + d and receives one from r - d; from the clocks s, its end into next[r]:
 * when its receive is in (after the sending and, where gated, its posting) and, where
 * blocking, its send too. */
static void shift_step(const double *s, double *next, long p, long d, double msg_us,
                       double bytes, const cf_tiers *t, int gated, int blocking)
{
    tier_costs tc = tier_costs_at(t, bytes);
    for (long r = 0; r < p; r++) {
        long from = (r - d + p) % p, to = (r + d) % p;
        double in = (gated ? fmax(s[from], s[r]) : s[from]) + msg_us + tier_cost(&tc, from, r);
        double out = blocking ? fmax(s[r], s[to]) + msg_us + tier_cost(&tc, r, to) : s[r];
        next[r] = fmax(in, out);
    }
}

/* The mean over p ranks of each rank's time in Bruck's alltoall of m bytes a block, rank r
 * starting at start[r] (NULL: all at 0). Its step of distance d (1, 2, 4, ... below p) is a
 * send-receive: r sends to r + d and receives from r - d (mod p), the pairs of the
 * dissemination barrier, with the step's blocks (bruck_blocks) in each message. The message
 * comes in the ping-pong's time at its size (um, ut: the per-call unit, 2 units a message)
 * plus what the tiers between its ranks add, after its sending and, where a transfer waits
 * for its receive (rendezvous, or a message from CF_EAGER_MAX on), its receive's posting; a
 * send below CF_EAGER_MAX returns at once, from it once its message is in. A rank's step
 * ends when both are over. The steps wrap around the communicator, so from the second on
 * a rank's time waits on ranks ever farther (after lg p steps, on all): every step pays
 * about the farthest tier's latency once the step before crossed it somewhere (simulated
 * Open MPI alltoall of 4 B, 2 ranks a node, 16 a leaf switch: 14.4 us at np 16, 30.6 at
 * np 32 and 48.5 at np 64, where the replay from the barrier's exits reads 14.4, 30.5 and
 * 48.4). The local copies between the steps are not costed. NAN when out of memory. */
static double bruck_mean(long p, double m, const double *um, const double *ut, int n,
                         const cf_tiers *t, const double *start)
{
    double *s = clocks(p, start);
    if (s == NULL)
        return NAN;
    for (long d = 1; d < p; d *= 2) {
        double bytes = bruck_blocks(p, d) * m, msg = 2.0 * cf_unit_time(um, ut, n, bytes);
        int blocking = bytes >= CF_EAGER_MAX, gated = t->rendezvous || blocking;
        shift_step(s, s + p, p, d, msg, bytes, t, gated, blocking);
        memcpy(s, s + p, (size_t)p * sizeof *s);
    }
    return clocks_mean(s, p, start);
}

/* What a byte exchanged between ranks 2^j apart takes beyond one between ranks 0 and 1,
 * each of p ranks exchanging at that distance at once: the probe's distance j at the level of
 * p's ranks (the smallest power of two from p up; past the probe's levels its largest), where
 * it recorded the distances; else every rank of their blocks of 2^(j+1) exchanging (the
 * pair-exchange probe's level j; past its levels, its farthest's). */
static double pair_step_us_per_byte(const cf_tiers *t, long p, long j)
{
    if (t->ndist > 0) {
        long k = cf_ceil_lg(p) - 1;
        k = k < t->ndist ? k : t->ndist - 1;
        return t->dist_us_per_byte[CF_TIERS_DIST_ROW(k) + (j < k ? j : k)];
    }
    if (t->npair <= 0)
        return 0.0;
    return t->pair_us_per_byte[j < t->npair ? j : t->npair - 1];
}

/* One exchange of a message of msg_us between ranks r and q that start at s[r] and s[q]
 * (a send-receive with each other): when r's receive and send are over, as in shift_step
 * (the transfer waits for the receive where gated; r's send, when blocking, for q's
 * receive); tc: the tiers' costs at the message's size. */
static double exchange_end(const double *s, long r, long q, double msg_us,
                           const tier_costs *tc, int gated, int blocking)
{
    double e = tier_cost(tc, q, r);
    double in = (gated ? fmax(s[q], s[r]) : s[q]) + msg_us + e;
    double out = blocking ? fmax(s[r], s[q]) + msg_us + e : s[r];
    return fmax(in, out);
}

/* The mean over p ranks of each rank's time in a recursive-doubling allreduce of m bytes,
 * rank r starting at start[r] (NULL: all at 0), as Open MPI (coll_base_allreduce.c) and
 * MPICH run it: where p is no power of two, the first 2 (p - 2^k) ranks pair up, each even
 * one sends its vector to the odd one above and waits out the doubling; the 2^k left
 * exchange the whole vector with the partner whose index differs in bit j at step j
 * (distances 1, 2, 4, ...), and the odd ones send the result back down at the end. A
 * message costs the ping-pong at m (2 units) plus what the tiers between its ranks add,
 * as in bruck_mean, and at the step of distance 2^j what the pair-exchange probe says a
 * byte at that distance adds (pair_step_us_per_byte): that step's traffic is the probe's,
 * every rank exchanging with the one 2^j away at once. The local reductions are not costed
 * (the measured np's ratio to the replay carries them). A step ends for both partners at
 * once, so a rank far from its partner delays every rank it meets later: after the steps up
 * to distance d every rank waited on every rank of its block of 2d. NAN when out of
 * memory. */
static double rdb_mean(long p, double m, const double *um, const double *ut, int n,
                       const cf_tiers *t, const double *start)
{
    double *s = clocks(p, start);
    if (s == NULL)
        return NAN;
    double *next = s + p, msg = 2.0 * cf_unit_time(um, ut, n, m);
    int blocking = m >= CF_EAGER_MAX, gated = t->rendezvous || blocking;
    long pof2 = pof2_le(p), rem = p - pof2;
    tier_costs tc = tier_costs_at(t, m);
    /* The extra ranks' vectors in: each even rank below 2 rem to the odd one above. */
    for (long r = 0; r < 2 * rem; r += 2) {
        double e = tier_cost(&tc, r, r + 1);
        double in = (gated ? fmax(s[r], s[r + 1]) : s[r]) + msg + e;
        if (blocking)
            s[r] = fmax(s[r], s[r + 1]) + msg + e;
        s[r + 1] = fmax(s[r + 1], in);
    }
    /* The doubling among the odd ones below 2 rem (new rank r/2) and the ranks above. */
    memcpy(next, s, (size_t)p * sizeof *s);
    for (long d = 1, j = 0; d < pof2; d *= 2, j++) {
        double step = msg + m * pair_step_us_per_byte(t, p, j);
        for (long v = 0; v < pof2; v++) {
            long w = v ^ d, r = v < rem ? 2 * v + 1 : v + rem, q = w < rem ? 2 * w + 1 : w + rem;
            next[r] = exchange_end(s, r, q, step, &tc, gated, blocking);
        }
        for (long v = 0; v < pof2; v++) {
            long r = v < rem ? 2 * v + 1 : v + rem;
            s[r] = next[r];
        }
    }
    /* The result back to each even rank below 2 rem. */
    for (long r = 0; r < 2 * rem; r += 2) {
        double e = tier_cost(&tc, r + 1, r);
        double back = s[r + 1];
        s[r] = (gated ? fmax(back, s[r]) : back) + msg + e;
        if (blocking)
            s[r + 1] = s[r];
    }
    return clocks_mean(s, p, start);
}

/* The mean over p ranks of each rank's time in Open MPI's neighbor-exchange allgather of m
 * bytes a block (coll_base_allgather.c), rank r starting at start[r] (NULL: all at 0): at
 * step 0 an even rank exchanges its own block with r + 1, an odd one with r - 1; at each of
 * the p/2 - 1 steps after, two blocks with the other neighbour, the two alternating
 * (around the communicator). Where p is odd it runs the ring instead: p - 1 steps, each
 * rank sending a block to r + 1 and receiving one from r - 1. A message costs the ping-pong
 * at its bytes (2 units) plus what the tiers between its ranks add, as in bruck_mean. A
 * rank meets only its neighbours, yet its step waits for theirs, which waited for their
 * other neighbours: a tier boundary's latency reaches one rank farther each step, so with
 * boundaries every few ranks every rank soon waits for one about every other step. NAN
 * when out of memory. */
static double neighbor_mean(long p, double m, const double *um, const double *ut, int n,
                            const cf_tiers *t, const double *start)
{
    double *s = clocks(p, start);
    if (s == NULL)
        return NAN;
    double *next = s + p;
    int ring = p % 2 != 0;
    long steps = ring ? p - 1 : p / 2;
    for (long i = 0; i < steps; i++) {
        double bytes = ring || i == 0 ? m : 2.0 * m, msg = 2.0 * cf_unit_time(um, ut, n, bytes);
        int blocking = bytes >= CF_EAGER_MAX, gated = t->rendezvous || blocking;
        tier_costs tc = tier_costs_at(t, bytes);
        if (ring)
            shift_step(s, next, p, 1, msg, bytes, t, gated, blocking);
        for (long r = 0; r < p && !ring; r++) {
            /* step 0 and the even steps: the even ranks' right neighbour; odd: the left */
            int right = (r % 2 == 0) == (i % 2 == 0);
            long q = right ? (r + 1) % p : (r - 1 + p) % p;
            next[r] = exchange_end(s, r, q, msg, &tc, gated, blocking);
        }
        memcpy(s, next, (size_t)p * sizeof *s);
    }
    return clocks_mean(s, p, start);
}

/* The neighbor-exchange allgather at p without tiers or waits: its messages, 2 units each
 * (the ring's where p is odd). */
static double neighbor_messages(long p, double m, const double *um, const double *ut, int n)
{
    if (p % 2 != 0)
        return (double)(p - 1) * 2.0 * cf_unit_time(um, ut, n, m);
    return 2.0 * (cf_unit_time(um, ut, n, m) +
                  (double)(p / 2 - 1) * cf_unit_time(um, ut, n, 2.0 * m));
}

/* Recursive doubling's allreduce at p without tiers or waits: its messages, 2 units each,
 * two more where p is no power of two (the fold in and out). */
static double rdb_messages(long p, double m, const double *um, const double *ut, int n)
{
    int lg = cf_ceil_lg(p);
    return (is_pow2(p) ? lg : lg + 1) * 2.0 * cf_unit_time(um, ut, n, m);
}

/* The mean over p ranks of each rank's time in a k-nomial bcast of m bytes (k 2: the
 * binomial tree, 4: Open MPI's 4-nomial, SMPI's MVAPICH2 intra-node one), rank r starting at
 * start[r] (NULL: all at 0), from root 0: rank r's parent clears r's lowest nonzero digit in
 * base k, its children add k^j, 2 k^j, ... (k - 1) k^j below that digit, the farthest level
 * first. A rank receives, then sends on as cf_steps_cost's tree (tree_msg): below
 * CF_EAGER_MAX all its messages leave together and it leaves; from it level by level, each
 * level's messages together, and it leaves after its last. A message comes in the tree's
 * cost plus what the tiers between its two ranks add, after its sending and, where a
 * transfer waits for its receive (rendezvous, or from CF_EAGER_MAX), the child's start, where
 * it posts its receive. A child's index is above its parent's, so one pass up the ranks
 * knows each parent first. All at once and no tiers, cf_steps_cost's mean (simulated Open
 * MPI bcast of 4 B, 2 ranks a node, 16 a leaf switch, np 64: 21.1 us, the replay from the
 * barrier's exits within 1%, all ranks at once 47% low). NAN when out of memory. */
static double bcast_tree_mean(cf_steps st, long p, double m, const double *um, const double *ut,
                              int n, const cf_tiers *t, const double *start)
{
    long k = st == CF_STEPS_BCAST_BINOMIAL ? 2 : 4;
    tree_bcast tb = {um, ut, n, m, m < CF_EAGER_MAX, (int)k, {0}};
    int gated = t->rendezvous || !tb.eager;
    double *arr = malloc((size_t)p * sizeof *arr), sum = 0.0;
    if (arr == NULL)
        return NAN;
    arr[0] = start != NULL ? start[0] : 0.0;
    for (long r = 0; r < p; r++) {
        long mask = 1, kids = 0;
        while (mask < p && r % (k * mask) == 0)
            mask *= k;
        mask /= k;
        for (long d = mask; d > 0; d /= k)
            for (long j = 1; j < k && r + j * d < p; j++)
                kids++;
        double at = arr[r], cost = tb.eager ? tree_msg(&tb, kids) : 0.0;
        /* a level's messages, waited for together, share the sender's link: their tier's
         * cost at their bytes (eager ones keep each its own latency, tree_msg) */
        double together = m;
        for (long d = mask; d > 0; d /= k) {
            long nl = 0;
            for (long j = 1; j < k && r + j * d < p; j++)
                nl++;
            if (!tb.eager) {
                cost = tree_msg(&tb, nl);
                together = (double)nl * m;
            }
            double level = at;
            for (long j = 1; j <= nl; j++) {
                long c = r + j * d;
                double sc = start != NULL ? start[c] : 0.0;
                arr[c] = (gated ? fmax(at, sc) : at) + cost + cf_tiers_extra_us(t, r, c, together);
                level = fmax(level, arr[c]);
            }
            if (!tb.eager)
                at = level; /* the level's waitall */
        }
        sum += at - (start != NULL ? start[r] : 0.0);
    }
    free(arr);
    return sum / (double)p;
}

/* The replay of algorithm st (cf_steps_tiered) at p from start (NULL: all at 0). */
static double replay_mean(cf_steps st, long p, double m, const double *um, const double *ut,
                          int n, const cf_tiers *t, const double *start)
{
    if (st == CF_STEPS_BRUCK_ALLTOALL)
        return bruck_mean(p, m, um, ut, n, t, start);
    if (st == CF_STEPS_FOLD)
        return rdb_mean(p, m, um, ut, n, t, start);
    if (st == CF_STEPS_NEIGHBOR)
        return neighbor_mean(p, m, um, ut, n, t, start);
    if (st == CF_STEPS_BCAST_BINOMIAL || st == CF_STEPS_BCAST_KNOMIAL)
        return bcast_tree_mean(st, p, m, um, ut, n, t, start);
    return tree_wait_mean(st, p, m, 2.0 * cf_unit_time(um, ut, n, m), t, start);
}

/* replay_mean from where the ranks left the barrier (exits), less the wait those exits
 * leave in the call where less_wait, as the across-np fit takes it from the times
 * (cf_across.wait_us, cf_exits_wait from root 0): the root's wait for the last rank over p in
 * a reduce tree, where data flows to one rank; every rank's wait for the root, over p, in a
 * bcast tree, where it flows from one; every rank's wait for the last in Bruck's alltoall,
 * where it flows from all to all (the last exit less their mean). */
static double replay_start_mean(cf_steps st, long p, double m, const double *um,
                                const double *ut, int n, const cf_tiers *tiers,
                                const double *exits, int less_wait)
{
    double s = replay_mean(st, p, m, um, ut, n, tiers, exits);
    if (less_wait)
        s -= cf_exits_wait(exits, p,
                           st == CF_STEPS_BRUCK_ALLTOALL || st == CF_STEPS_FOLD ||
                                   st == CF_STEPS_NEIGHBOR
                               ? CF_FLOW_ALL
                           : st == CF_STEPS_BCAST_BINOMIAL || st == CF_STEPS_BCAST_KNOMIAL
                               ? CF_FLOW_FROM_ROOT
                               : CF_FLOW_TO_ROOT);
    return s;
}

/* A replayed algorithm's cost where its replay cannot answer (out of memory): its messages
 * without tiers or waits, in the replay's units (Bruck's 2 units a message, where
 * cf_steps_cost counts its steps of T2). */
static double untiered(cf_steps st, long p, double m, const double *um, const double *ut, int n)
{
    return st == CF_STEPS_BRUCK_ALLTOALL ? bruck_messages(p, m, um, ut, n)
           : st == CF_STEPS_FOLD         ? rdb_messages(p, m, um, ut, n)
           : st == CF_STEPS_NEIGHBOR     ? neighbor_messages(p, m, um, ut, n)
                                         : cf_steps_cost(st, p, m, um, ut, n);
}

int cf_steps_tiered(cf_steps st)
{
    return st == CF_STEPS_REDUCE_BINOMIAL || st == CF_STEPS_REDUCE_BINARY ||
           st == CF_STEPS_BCAST_BINOMIAL || st == CF_STEPS_BCAST_KNOMIAL ||
           st == CF_STEPS_BRUCK_ALLTOALL || st == CF_STEPS_FOLD || st == CF_STEPS_NEIGHBOR;
}

int cf_steps_replays_traffic(cf_steps st)
{
    return st == CF_STEPS_FOLD;
}

double cf_steps_cost_tiered(cf_steps st, long p, double m, const double *um, const double *ut,
                            int n, const cf_tiers *tiers, const char *rules, int less_wait)
{
    if (tiers == NULL || tiers->n == 0 || !cf_steps_tiered(st) || p < 2)
        return cf_steps_cost(st, p, m, um, ut, n);
    double s;
    /* Larger communicators are replayed at `most` ranks and carried on: a tree by the
     * untiered count of messages (its levels past CF_TREE_REPLAY_MAX hold a 65536th of the
     * ranks), and so the neighbor exchange past CF_NEIGHBOR_REPLAY_MAX (its p/2 steps of p
     * messages each; the wait its tiers add to a step is steady by then: read from 256 ranks
     * rather than 512, racks-ompi's 4 KiB at np 512 moves 2%, and a predict at np 1024
     * takes 10 ms rather than 30); Bruck's alltoall and recursive doubling by their
     * messages' growth and the farthest tier's latency for each step they add past
     * CF_BRUCK_REPLAY_MAX, as each step before paid it (a doubling's steps past it pair ranks
     * farther apart than any tier; Bruck's replay costs p lg p messages: at 65536 ranks a
     * quarter of a second a prediction). Replaying p ranks for each size read would cost
     * seconds. */
    int stepwise = st == CF_STEPS_BRUCK_ALLTOALL || st == CF_STEPS_FOLD;
    long most = stepwise                   ? CF_BRUCK_REPLAY_MAX
                : st == CF_STEPS_NEIGHBOR ? CF_NEIGHBOR_REPLAY_MAX
                                          : CF_TREE_REPLAY_MAX;
    if (p > most) {
        double at = cf_steps_cost_tiered(st, most, m, um, ut, n, tiers, rules, less_wait);
        if (stepwise)
            return at + untiered(st, p, m, um, ut, n) - untiered(st, most, m, um, ut, n) +
                   (double)(cf_ceil_lg(p) - cf_ceil_lg(most)) * tiers->extra_us[tiers->n - 1];
        return at * cf_steps_cost(st, p, m, um, ut, n) / cf_steps_cost(st, most, m, um, ut, n);
    }
    /* The barrier is replayed up to the probe's reach, and at most CF_BARRIER_REPLAY_MAX
     * ranks (Open MPI's dissemination over 4096 ranks replays in about 50 ms). */
    long reach = tiers->probed < CF_BARRIER_REPLAY_MAX ? tiers->probed : CF_BARRIER_REPLAY_MAX;
    if (rules == NULL)
        s = replay_mean(st, p, m, um, ut, n, tiers, NULL);
    else if (p > reach && reach >= 2) {
        /* Beyond the probe's reach nothing says how the barrier's exits spread (and its
         * replay costs O(p log p) messages): the share of the time they left at the reach
         * is carried on, as the barrier's wait is past it (cf_placement_across_wait). */
        long q = reach;
        const double *at_q = barrier_starts(rules, q, tiers);
        if (at_q == NULL)
            return untiered(st, p, m, um, ut, n);
        double with = replay_start_mean(st, q, m, um, ut, n, tiers, at_q, less_wait);
        s = replay_mean(st, p, m, um, ut, n, tiers, NULL) * with /
            replay_mean(st, q, m, um, ut, n, tiers, NULL);
    } else {
        const double *exits = barrier_starts(rules, p, tiers);
        if (exits == NULL)
            return untiered(st, p, m, um, ut, n);
        s = replay_start_mean(st, p, m, um, ut, n, tiers, exits, less_wait);
    }
    return isfinite(s) && s > 0 ? s : untiered(st, p, m, um, ut, n);
}

double cf_steps_cost(cf_steps st, long p, double m, const double *um, const double *ut, int n)
{
    int lg = cf_ceil_lg(p);
    double s = 0.0;
#define T2(x) cf_unit_time(um, ut, n, (x))
    switch (st) {
    case CF_STEPS_LG:
        s = lg * T2(m);
        break;
    case CF_STEPS_FOLD:
    case CF_STEPS_SMP_FOLD:
        s = (is_pow2(p) ? lg : lg + 1) * T2(m);
        break;
    case CF_STEPS_DOUBLING: /* step j exchanges 2^j blocks */
        for (int j = 0; j < lg; j++)
            s += T2(ldexp(m, j));
        break;
    case CF_STEPS_BRUCK_GATHER: /* step j sends min(2^j, p - 2^j) blocks */
        for (int j = 0; j < lg; j++) {
            double b = fmin(ldexp(1.0, j), (double)p - ldexp(1.0, j));
            s += T2(b * m);
        }
        break;
    case CF_STEPS_RING:
    case CF_STEPS_ROUNDS:
        s = (double)(p - 1) * T2(m);
        break;
    case CF_STEPS_BRUCK_ALLTOALL: /* lg p steps of p/2 blocks */
        s = lg * T2(m * (double)p / 2.0);
        break;
    case CF_STEPS_SCATTER_DOUBLING:
    case CF_STEPS_SCATTER_RING:
        for (int j = 0; j < lg; j++) /* the binomial scatter halves what it forwards */
            s += T2(ldexp(m, -(j + 1)));
        if (st == CF_STEPS_SCATTER_RING)
            s += (double)(p - 1) * T2(m / (double)p);
        else
            for (int j = 0; j < lg; j++)
                s += T2(ldexp(m / (double)p, j));
        break;
    case CF_STEPS_HALVING2: /* reduce-scatter by halving, then gather or allgather back */
        for (int j = 0; j < lg; j++)
            s += 2.0 * T2(ldexp(m, -(j + 1)));
        break;
    case CF_STEPS_LG2:
        s = 2.0 * lg * T2(m);
        break;
    case CF_STEPS_RING2:
        s = 2.0 * (double)(p - 1) * T2(m / (double)p);
        break;
    case CF_STEPS_PIPELINE: { /* an empty message: one empty segment (not 0/0) */
        double seg = m > 0 ? fmin(m, CF_PIPELINE_SEG) : CF_PIPELINE_SEG;
        s = ((double)(p - 2) + ceil(m / seg)) * T2(seg);
        break;
    }
    case CF_STEPS_BINARY: /* a level's two children are served at once: its levels */
        s = (double)(cf_ceil_lg(p + 1) - 1) * T2(m);
        break;
    case CF_STEPS_NEIGHBOR:
        s = T2(m) + (double)(p / 2 - 1) * T2(2.0 * m);
        break;
    case CF_STEPS_SEG_TREE: {
        double seg = m > 0 ? fmin(m, CF_SEG_TREE_SEG) : CF_SEG_TREE_SEG;
        s = 2.0 * (double)(p - 1) / (double)p * ceil(m / seg) * T2(seg);
        break;
    }
    case CF_STEPS_REDUCE_BINOMIAL:
        s = 2.0 * (double)(p - 1) / (double)p * T2(m);
        break;
    case CF_STEPS_REDUCE_BINARY:
    case CF_STEPS_REDUCE_IN_ORDER:
        s = 2.0 * (double)(p - popcount(p)) / (double)p * T2(m);
        break;
    case CF_STEPS_REDUCE_KNOMIAL:
        s = m < CF_EAGER_MAX ? 2.0 * knomial_heights(p, 4) / (double)p * T2(m)
                             : (knomial_heights(p, 4) + (double)(p - 1)) / (double)p * T2(m);
        break;
    case CF_STEPS_BCAST_BINOMIAL:
    case CF_STEPS_BCAST_KNOMIAL: {
        tree_bcast tb = {um, ut, n, m, m < CF_EAGER_MAX, st == CF_STEPS_BCAST_BINOMIAL ? 2 : 4,
                         {0}};
        s = tree_bcast_sum(&tb, p) / (double)p;
        break;
    }
    }
#undef T2
    return s;
}

/* SMPI's two-level allreduce (CF_STEPS_SMP_FOLD; smpi_mpich_selector.cpp takes it on every
 * communicator but a node's own, allreduce-mvapich-two-level.cpp) on nodes of node ranks, in
 * steps of T2: inside the first node (k of its ranks) MPICH's own allreduce, then among the
 * nodes' leaders recursive doubling on the whole vector (CF_STEPS_FOLD's steps of the
 * nodes), then the node's bcast back from its leader, SMPI's mpich bcast on one node
 * (binomial below 12 KiB or on 8 ranks or fewer, scatter and recursive doubling below
 * 512 KiB on an even count, scatter and ring). np=2 on one node: its allreduce's step and
 * the bcast's, 2 steps; on two nodes of one rank each, the leaders' 1. data/sim-racks.csv
 * (nodes of 4), allreduce of 2 MiB: 404 us at np 4, then 200 more a doubling of the nodes
 * (605, 804, 1002 at np 8, 16, 32), one message of 2 MiB over the network each, where
 * lg p steps of np 2's 230 us made each a step of both. */
static double smp_fold_cost(long p, long node, double m, const double *um, const double *ut,
                            int n)
{
    long k = p < node ? p : node, nodes = (p + node - 1) / node;
    int lg = cf_ceil_lg(nodes);
    double s = nodes < 2 ? 0.0 : (is_pow2(nodes) ? lg : lg + 1) * cf_unit_time(um, ut, n, m);
    if (k < 2)
        return s;
    cf_rule_alg ar;
    pick_mpich("allreduce", k, m, 0, &ar);
    cf_steps bc = m < MPICH_BCAST_SHORT || k <= 8 ? CF_STEPS_LG
                  : m < MPICH_BCAST_LONG && k % 2 == 0 ? CF_STEPS_SCATTER_DOUBLING
                                                       : CF_STEPS_SCATTER_RING;
    return s + cf_steps_cost(ar.steps, k, m, um, ut, n) + cf_steps_cost(bc, k, m, um, ut, n);
}

double cf_steps_cost_node(cf_steps st, long node, long p, double m, const double *um,
                          const double *ut, int n)
{
    if (st != CF_STEPS_SMP_FOLD || node < 1 || p < 2)
        return cf_steps_cost(st, p, m, um, ut, n);
    /* In T2's units, one at np=2, as every other algorithm's step: np=2's own steps are
     * what T2 measured. */
    double two = smp_fold_cost(2, node, m, um, ut, n);
    return two > 0.0 ? smp_fold_cost(p, node, m, um, ut, n) / two * cf_unit_time(um, ut, n, m)
                     : cf_steps_cost(st, p, m, um, ut, n);
}

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
 * blocks, recursive doubling's allgather; -1: Rabenseifner's halving from distance 1). */
static int span_levels(cf_step_span *out, int *k, int max, long p, double bytes0, int grow)
{
    int lg = cf_ceil_lg(p);
    for (int j = 0; j < lg; j++) {
        double d = (double)(1L << j);
        double bytes = grow > 0 ? bytes0 * d : grow < 0 ? bytes0 / d : bytes0;
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

/* The algorithms of the point-to-point estimate (cf_colls' algs, MPICH's) as the rules'
 * algorithms: how their steps run, for the latency and pair-exchange probes
 * (cf_steps_spans, cf_steps_cross_bytes). A name means one algorithm per pattern: the first
 * entry whose patterns (NULL: any) hold the pattern. */
static const struct {
    const char *patterns[3];
    cf_rule_alg alg;
} coll_alg_rules[] = {
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
    /* Not a power of two: MPICH folds each extra rank into its neighbour (2i, 2i+1) before
     * the doubling and out after it; the doubling's steps among the remaining ranks reach as
     * far as a power of two's, over ranks renumbered (counted over all p, twice, at least). */
    case CF_STEPS_FOLD:
    case CF_STEPS_SMP_FOLD:
        if (is_pow2(p))
            rc = span_levels(out, &k, max, p, m, 0);
        else
            rc = span_levels(out, &k, max, pof2_le(p), m, 0) ||
                 span_step(out, &k, max, p, p, 2.0, m);
        break;
    case CF_STEPS_LG2: /* down and back up the levels */
        rc = span_levels(out, &k, max, p, m, 0) || span_levels(out, &k, max, p, m, 0);
        break;
    case CF_STEPS_HALVING2: /* halving from distance 1 (m/2), and back */
        rc = span_levels(out, &k, max, p, m / 2, -1) || span_levels(out, &k, max, p, m / 2, -1);
        break;
    /* The binomial scatter's step of distance d sends d blocks of m/p (the root's first, half
     * the vector, to p/2), as recursive doubling's allgather of them after it does. */
    case CF_STEPS_SCATTER_DOUBLING:
        rc = span_levels(out, &k, max, p, block, 1) || span_levels(out, &k, max, p, block, 1);
        break;
    case CF_STEPS_SCATTER_RING: /* the scatter's levels, then a ring of blocks */
        rc = span_levels(out, &k, max, p, block, 1) ||
             span_add(out, &k, max, p, p, CF_RING_CROSSINGS, block, pd - 1);
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
        if (a->latency == CF_LAT_CHAIN)
            rc = span_add(out, &k, max, p, p, CF_RING_CROSSINGS, m, pd - 1);
        else
            rc = span_distances(out, &k, max, p, m);
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
     * waiting for the slowest link's */
    case CF_STEPS_PIPELINE:
        rc = span_add(out, &k, max, p, p, 1.0, fmin(m, CF_PIPELINE_SEG),
                      fmax(1.0, ceil(m / CF_PIPELINE_SEG)));
        break;
    case CF_STEPS_SEG_TREE: /* per-call reduce trees: a rank's mean is about one message */
    case CF_STEPS_REDUCE_BINOMIAL:
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
    case CF_STEPS_ROUNDS:
    case CF_STEPS_DOUBLING: /* its steps from distance b move b, 2b, ... blocks */
    case CF_STEPS_BRUCK_GATHER:
        return a->latency == CF_LAT_CHAIN ? 0.0 : (double)(p - b) * m;
    case CF_STEPS_BRUCK_ALLTOALL: /* each step from distance b: half of the p blocks */
        return a->latency == CF_LAT_CHAIN ? 0.0 : steps * (double)(p / 2) * m;
    case CF_STEPS_FOLD: /* recursive doubling's allreduce: m with each such partner */
    case CF_STEPS_SMP_FOLD:
        return steps * m;
    /* Rabenseifner halves the vector from the nearest partner out (MPICH's and Open MPI's
     * distance 1 first): its step at distance d moves m/(2d), and so does the allgather's
     * step back. */
    case CF_STEPS_HALVING2:
        return 2 * m * (1.0 / (double)b - 1.0 / (double)p);
    default:
        return 0.0;
    }
}

double cf_steps_cross_bytes(const cf_rule_alg *a, const char *pattern, long p, double m)
{
    return cf_steps_block_bytes(a, pattern, p, p / 2, m);
}
