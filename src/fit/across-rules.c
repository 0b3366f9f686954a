/* Which algorithm an MPI library runs for a collective at (p, m): the switch rules the grid
 * model of across-grid.c follows. One rule set per library (and per SMPI selector), listed
 * in rule_sets below; what each algorithm's steps cost is across-steps.c's. */
#include "config.h"

#include "fit/across-int.h"
#include "fit/barrier-replay.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* MPICH's default thresholds (MPIR_CVAR_*, MPICH 3.x and 4.x; Thakur, Rabenseifner and
 * Gropp 2005), m in bytes as the table defines it per pattern. */
#define MPICH_BCAST_SHORT 12288
#define MPICH_BCAST_LONG 524288
#define MPICH_BCAST_MIN_PROCS 8
#define MPICH_ALLGATHER_SHORT_TOTAL CF_MPICH_ALLGATHER_SHORT
#define MPICH_ALLGATHER_LONG_TOTAL 524288
#define MPICH_ALLTOALL_SHORT 256
#define MPICH_ALLTOALL_MEDIUM 32768
#define MPICH_ALLTOALL_MIN_PROCS 8
#define SMPI_RS_PAIR_FLOATS 524288.0 /* SMPI's mpich reduce_scatter: pairwise beyond */
#define MPICH_REDUCE_SHORT CF_MPICH_REDUCE_SHORT /* allreduce and reduce alike */

/* allgather and alltoall: the same in MPICH and in SimGrid's mpich selector. */
static int pick_allgather(long p, double m, cf_rule_alg *a)
{
    double total = m * (double)p;
    if (cf_is_pow2(p) && total < MPICH_ALLGATHER_LONG_TOTAL)
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
    /* its allgatherv decides as its allgather, on the blocks in all (MPIR_Allgatherv's) */
    if (strcmp(pattern, "allgather") == 0 || strcmp(pattern, "allgatherv") == 0)
        return pick_allgather(p, m, a);
    if (strcmp(pattern, "alltoall") == 0)
        return pick_alltoall(p, m, a);
    if (strcmp(pattern, "bcast") == 0) {
        if (m < MPICH_BCAST_SHORT || p < MPICH_BCAST_MIN_PROCS)
            *a = (cf_rule_alg){"binomial tree", CF_STEPS_LG, CF_LAT_STEPS};
        else if (m < MPICH_BCAST_LONG && cf_is_pow2(p))
            *a = (cf_rule_alg){"scatter + recursive doubling allgather", CF_STEPS_SCATTER_DOUBLING,
                               CF_LAT_STEPS};
        else
            *a = (cf_rule_alg){"scatter + ring allgather", CF_STEPS_SCATTER_RING, CF_LAT_CHAIN};
        return 0;
    }
    int reduce = strcmp(pattern, "reduce") == 0, allreduce = strcmp(pattern, "allreduce") == 0;
    if (reduce || allreduce) {
        if (m <= MPICH_REDUCE_SHORT || m / 4.0 < (double)cf_pof2_le(p))
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
 * (smpi/allgather:NTSLR) takes 15311. Its steps are costed as the ring's (p - 1 of m), and
 * replayed with each step's traffic (CF_STEPS_SPREAD).
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
    a->steps = CF_STEPS_REDUCE_SERIAL;
    if (p <= node && m <= MPICH_REDUCE_SHORT)
        a->name = "shared-memory reduce";
    else if (p <= node)
        *a = (cf_rule_alg){"k-nomial tree", CF_STEPS_REDUCE_KNOMIAL, CF_LAT_STEPS};
    else {
        long nodes = (p + node - 1) / node, most = node > nodes ? node : nodes;
        if (m >= MPICH_REDUCE_SHORT && m / 4.0 >= (double)cf_pof2_le(most))
            *a = (cf_rule_alg){"two-level scatter-gather", CF_STEPS_SMP_HALVING2, CF_LAT_STEPS};
    }
    return 0;
}

/* SMPI's mpich bcast where it does not take its two-level tree (smpi_mpich_selector.cpp's
 * bcast__mpich, MPICH's rules of 2005 "based on MX results"): a binomial tree below 12 KiB or
 * on 8 ranks or fewer, a scatter and a recursive doubling allgather below 512 KiB on an even
 * count, a scatter and a ring allgather beyond. Also the node's bcast of its two-level
 * allreduce (smp_fold_cost).
 * SMPI_LR: SMPI's ring allgather after the scatter (bcast__scatter_LR_allgather, its ompi
 * selector's too) is a send-receive with each neighbour a step, and SimGrid starts a transfer
 * only once its receive is posted: each step waits for the pair before it, the slowest
 * setting the pace (CF_LAT_STEPS), not a chain whose latencies overlap. */
static void smpi_mx_bcast(long p, double m, cf_rule_alg *a)
{
    if (m < MPICH_BCAST_SHORT || p <= 8)
        *a = (cf_rule_alg){"binomial tree", CF_STEPS_LG, CF_LAT_STEPS};
    else if (m < MPICH_BCAST_LONG && p % 2 == 0)
        *a = (cf_rule_alg){"scatter + recursive doubling allgather", CF_STEPS_SCATTER_DOUBLING,
                           CF_LAT_STEPS};
    else
        *a = (cf_rule_alg){"scatter + ring allgather", CF_STEPS_SCATTER_RING, CF_LAT_STEPS};
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
    /* Its alltoallv (alltoallv__mpich: alltoallv-bruck.cpp, Bruck's in name alone) is the
     * same rounds at every size: the receives from rank + i and the sends to rank - i of 4
     * distances at a time, each round waited for (flat.xml, 4 B: 2.03, 4.05 and 6.08 us at
     * np 3, 5 and 12, one, two and three rounds of np=2's 2.03; read from np=2 as the
     * catalog's pairwise exchange, 3.91, 7.67 and 20.8, each outside its interval). */
    if (strcmp(pattern, "alltoallv") == 0) {
        *a = (cf_rule_alg){"isend/irecv in rounds of 4", CF_STEPS_ROUNDS, CF_LAT_STEPS};
        return 0;
    }
    /* Its reduce_scatter (reduce_scatter__mpich): recursive doubling (reduce_scatter__mpich_rdb,
     * commutative or not) to 524288 floats in all, pairwise exchange beyond; m is a rank's
     * block, of floats. flat.xml, 100000 B at np 3 and 5: 77.7 and 205.0 us simulated, read
     * from np=2 as the catalog's recursive halving 40.4 and 78.2, outside their intervals. */
    if (strcmp(pattern, "reduce_scatter") == 0) {
        if ((double)p * m / 4.0 > SMPI_RS_PAIR_FLOATS)
            *a = (cf_rule_alg){"pairwise exchange", CF_STEPS_RING, CF_LAT_STEPS};
        else
            *a = (cf_rule_alg){"recursive doubling", CF_STEPS_RS_DOUBLING, CF_LAT_STEPS};
        return 0;
    }
    if (strcmp(pattern, "allgather") == 0) {
        pick_allgather(p, m, a);
        if (a->latency == CF_LAT_CHAIN)
            *a = (cf_rule_alg){"ring", CF_STEPS_SPREAD, CF_LAT_STEPS}; /* SMPI_RING */
        return 0;
    }
    /* Its allgatherv (allgatherv__mpich) decides as its allgather and runs MPICH's own ring
     * (allgatherv__mpich_ring, to rank + 1) and Open MPI's Bruck (allgatherv__ompi_bruck, its
     * steps Bruck's): flat.xml, 20000 B at np 7, 9 and 12: 35.4, 47.2 and 64.9 us
     * simulated, read from np=2 as the catalog's recursive doubling 28.3, 37.7 and 48.8,
     * outside their intervals. */
    if (strcmp(pattern, "allgatherv") == 0)
        return pick_allgather(p, m, a);
    if (strcmp(pattern, "bcast") == 0) {
        /* SMPI_BCAST: its two-level binomial tree only where every node holds as many
         * ranks (SimGrid's is_uniform: one node, or nodes filled in order to p a multiple of
         * their ranks), else MPICH's own rules of 2005 for one node's bcast (smpi_mx_bcast).
         * SimGrid's pods.xml (nodes of 2), bcast of 20000 B: 20.9 us at np 24 (the two-level
         * tree), 107.4 at np 27 (the last node one rank: a scatter and a ring allgather).
         * node 0 (not known): the two-level tree. */
        if (node > 0 && p > node && p % node != 0) {
            smpi_mx_bcast(p, m, a);
            /* its binomial tree is the ompi selector's (bcast__binomial_tree): the replayed
             * tree of the ranks' receipts */
            if (a->steps == CF_STEPS_LG)
                a->steps = CF_STEPS_BCAST_BINOMIAL;
        } else
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
 * reduce and allreduce, one process's block for allgather, allgatherv and alltoall, all p
 * blocks for reduce_scatter), commutative operations; every band, to the last that holds all
 * larger communicators (OMPI_P_ANY). */
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
enum { RS_NONOVERLAP = 1, RS_HALVING, RS_RING, RS_BUTTERFLY };
enum { AGV_DEFAULT = 1, AGV_BRUCK, AGV_RING, AGV_NEIGHBOR, AGV_TWO_PROC };

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

/* Its reduce_scatter's decision reads the whole vector, the p blocks. */
static const ompi_band ompi_reduce_scatter[] = {
    {4, {65536, 131072}, {RS_RING, RS_BUTTERFLY, RS_RING}},
    {8, {8, 262144}, {RS_NONOVERLAP, RS_HALVING, RS_RING}},
    {32, {262144}, {RS_HALVING, RS_RING}},
    {64, {64, 2048, 524288}, {RS_NONOVERLAP, RS_HALVING, RS_BUTTERFLY, RS_RING}},
    {128,
     {256, 512, 2048, 4096},
     {RS_NONOVERLAP, RS_HALVING, RS_BUTTERFLY, RS_HALVING, RS_BUTTERFLY}},
    {256, {256, 512}, {RS_NONOVERLAP, RS_HALVING, RS_BUTTERFLY}},
    {512, {256, 1024}, {RS_NONOVERLAP, RS_HALVING, RS_BUTTERFLY}},
    {1024,
     {512, 2048, 8192, 16384},
     {RS_NONOVERLAP, RS_HALVING, RS_BUTTERFLY, RS_HALVING, RS_BUTTERFLY}},
    {2048,
     {512, 4096, 16384, 32768},
     {RS_NONOVERLAP, RS_HALVING, RS_BUTTERFLY, RS_HALVING, RS_BUTTERFLY}},
    {4096, {512, 4096}, {RS_NONOVERLAP, RS_HALVING, RS_BUTTERFLY}},
    {OMPI_P_ANY, {1024, 8192}, {RS_NONOVERLAP, RS_HALVING, RS_BUTTERFLY}},
    {0, {0}, {0}},
};

static const ompi_band ompi_allgatherv[] = {
    {3,
     {2048, 4096, 8192},
     {AGV_RING, AGV_TWO_PROC, AGV_RING, AGV_TWO_PROC}},
    {8,
     {256, 4096, 8192, 16384, 262144},
     {AGV_DEFAULT, AGV_NEIGHBOR, AGV_RING, AGV_NEIGHBOR, AGV_BRUCK, AGV_NEIGHBOR}},
    {16, {1024}, {AGV_DEFAULT, AGV_BRUCK}},
    {32, {128, 262144}, {AGV_DEFAULT, AGV_BRUCK, AGV_RING}},
    {64, {256, 8192}, {AGV_DEFAULT, AGV_BRUCK, AGV_RING}},
    {128, {256, 4096}, {AGV_DEFAULT, AGV_BRUCK, AGV_RING}},
    {256, {1024, 65536}, {AGV_BRUCK, AGV_NEIGHBOR, AGV_RING}},
    {512, {1024}, {AGV_BRUCK, AGV_RING}},
    {1024,
     {512, 1024, 4096, 1048576},
     {AGV_BRUCK, AGV_DEFAULT, AGV_BRUCK, AGV_NEIGHBOR, AGV_RING}},
    {OMPI_P_ANY, {4096}, {AGV_BRUCK, AGV_NEIGHBOR}},
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

/* SMPI_NTSL: SMPI 3.32 runs Open MPI's linear bcast (algorithm 1) as its bcast__NTSL, a chain
 * 0 -> 1 -> ... -> p - 1 in 8 KiB segments: the root isends every segment at once, a relay
 * isends each on as it comes in. SimGrid shares a link fairly among the flows on it, so a
 * hop's segments all arrive together, when the whole message would: each hop is np=2's
 * transfer of m, one after another, and rank i leaves i of them after the root
 * (sim-flat-ompi, per-call means: 5.10 us at np 4 for 16 KiB, 2.99 times np 2's 1.71; 24.6
 * at np 8 for 64 KiB, 6.98 times 3.52; p - 1 times np=2's mean, as at 256 KiB and 1 MiB).
 * Costed as p - 1 steps of m, each waiting for the one before; not the root's p - 1 sends
 * posted at once that real Open MPI's linear bcast is (its latency paid about once: read so
 * from np=2, 7.22 us for the 5.10, outside the interval's lower end). */
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
     {"store-and-forward chain", CF_STEPS_CHAIN, CF_LAT_CHAIN}, /* SMPI_NTSL */
     {"pipeline", CF_STEPS_PIPELINE, CF_LAT_CHAIN},
     {"pipeline", CF_STEPS_PIPELINE, CF_LAT_CHAIN},
     {"split binary tree", CF_STEPS_BINARY, CF_LAT_STEPS},
     {"segmented binary tree", CF_STEPS_BINARY, CF_LAT_STEPS},
     {"binomial tree", CF_STEPS_BCAST_BINOMIAL, CF_LAT_STEPS},
     {"knomial tree", CF_STEPS_BCAST_KNOMIAL, CF_LAT_STEPS},
     {"scatter + recursive doubling allgather", CF_STEPS_SCATTER_DOUBLING, CF_LAT_STEPS},
     {"scatter + ring allgather", CF_STEPS_SCATTER_RING, CF_LAT_STEPS}}, /* SMPI_LR */
};

/* SMPI_CHAIN: SMPI 3.32's chain reduce (reduce__ompi_chain, its ompi selector's) builds its
 * chains with a fanout of p/2, where Open MPI 4.1's fixed rules pass a fanout of 0, which its
 * build_chain makes 1 (one chain of p - 1 ranks): at p 4 to 7, where the rules take the chain
 * from 4 to 64 KiB, two ranks a chain. sim-flat-ompi, reduce of 4 KiB at np 4: 2.24 us, the
 * one chain read 4.35 from np=2, outside [2.45, 7.72]. */
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
     {"chain of fanout p/2", CF_STEPS_REDUCE_CHAIN, CF_LAT_STEPS}, /* SMPI_CHAIN */
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
     {"ring", CF_STEPS_SPREAD, CF_LAT_STEPS}, /* SMPI_RING above */
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

/* Its reduce_scatter (coll_base_reduce_scatter.c; SMPI 3.32's reduce_scatter__ompi_*): the
 * nonoverlapping one is a reduce then a scatterv (no table band reaches it with a block of a
 * float or more); the recursive halving folds where p is no power of two
 * (CF_STEPS_RS_HALVING), and the butterfly folds alike and halves the vector as it does:
 * costed so (SMPI on flat.xml, blocks of 3000 B at np 32: 26.2 us its butterfly, 24.6 forced
 * to the halving, 62.8 to the ring; ethflat.xml at np 3, 30000 B: the butterfly's 105.7, the
 * halving's too, the ring's 51.7). SMPI's ompi selector on flat.xml, 6000 B blocks at np 5, 6
 * and 7: 16.2, 18.2 and 19.8 us simulated, read from np=2 as the catalog's cheapest (recursive
 * halving without the fold) 9.0, 9.9 and 10.7, outside their intervals. */
static const ompi_algs ompi_reduce_scatter_algs = {
    ompi_reduce_scatter,
    {{0},
     {"reduce + scatterv", CF_STEPS_LG2, CF_LAT_STEPS},
     {"recursive halving", CF_STEPS_RS_HALVING, CF_LAT_STEPS},
     {"ring", CF_STEPS_RING, CF_LAT_CHAIN},
     {"butterfly", CF_STEPS_RS_HALVING, CF_LAT_STEPS}},
    {{0},
     {"reduce + scatterv", CF_STEPS_LG2, CF_LAT_STEPS},
     {"recursive halving", CF_STEPS_RS_HALVING, CF_LAT_STEPS},
     {"ring", CF_STEPS_RING, CF_LAT_CHAIN},
     {"butterfly", CF_STEPS_RS_HALVING, CF_LAT_STEPS}},
};

/* Its allgatherv (coll_base_allgatherv.c; SMPI 3.32's allgatherv__ompi), decided on a rank's
 * block: the default is a gatherv to rank 0 and a bcast of the whole (CF_STEPS_GATHER_BCAST),
 * the neighbor exchange runs a ring where p is odd (pick_ompi_as), Open MPI's to rank + 1,
 * SimGrid's to rank + i at step i (allgatherv__ring). SMPI's ompi selector on flat.xml, 6000
 * B at np 5, 6 and 7 (its ring below 8 KiB): 11.0, 13.6 and 16.2 us simulated, read from
 * np=2 as the catalog's recursive doubling 9.0, 9.9 and 10.7, outside their intervals. */
static const ompi_algs ompi_allgatherv_algs = {
    ompi_allgatherv,
    {{0},
     {"gatherv + bcast", CF_STEPS_GATHER_BCAST, CF_LAT_STEPS},
     {"Bruck", CF_STEPS_BRUCK_GATHER, CF_LAT_STEPS},
     {"ring", CF_STEPS_RING, CF_LAT_CHAIN},
     {"neighbor exchange", CF_STEPS_NEIGHBOR, CF_LAT_CHAIN},
     {"two proc", CF_STEPS_RING, CF_LAT_STEPS}},
    {{0},
     {"gatherv + bcast", CF_STEPS_GATHER_BCAST, CF_LAT_STEPS},
     {"Bruck", CF_STEPS_BRUCK_GATHER, CF_LAT_STEPS},
     {"MPICH ring", CF_STEPS_RING, CF_LAT_CHAIN},
     {"neighbor exchange", CF_STEPS_NEIGHBOR, CF_LAT_CHAIN},
     {"pairwise", CF_STEPS_RING, CF_LAT_STEPS}},
};

/* The algorithms Open MPI's rules decide pattern by, NULL for a pattern they do not. */
static const ompi_algs *ompi_algs_of(const char *pattern)
{
    static const struct {
        const char *pattern;
        const ompi_algs *algs;
    } by[] = {{"allreduce", &ompi_allreduce_algs},
              {"alltoall", &ompi_alltoall_algs},
              {"bcast", &ompi_bcast_algs},
              {"reduce", &ompi_reduce_algs},
              {"allgather", &ompi_allgather_algs},
              {"reduce_scatter", &ompi_reduce_scatter_algs},
              {"allgatherv", &ompi_allgatherv_algs}};
    for (size_t i = 0; i < sizeof by / sizeof by[0]; i++)
        if (strcmp(pattern, by[i].pattern) == 0)
            return by[i].algs;
    return NULL;
}

/* smpi: SMPI's implementations; loop: a table timed as a loop of calls, where the trees
 * costed per call do not hold, and the rules say nothing where they run. */
static int pick_ompi_as(const char *pattern, long p, double m, int smpi, int loop, cf_rule_alg *a)
{
    const ompi_algs *algs = ompi_algs_of(pattern);
    double size = algs == &ompi_reduce_scatter_algs ? (double)p * m : m;
    int alg = algs != NULL ? ompi_decide(algs->table, p, size) : 0;
    if (alg <= 0)
        return -1;
    /* Open MPI's recursive doubling allgather runs only at a power of two: elsewhere it
     * hands the call to its Bruck allgather (coll_base_allgather.c, "non-pow-2 size ...,
     * switching to bruck algorithm"); SimGrid's (allgather-rdb.cpp) runs at every count. */
    if (!smpi && algs == &ompi_allgather_algs && alg == AG_RDB && !cf_is_pow2(p))
        alg = AG_BRUCK;
    /* Both libraries' neighbor exchange runs a ring at an odd count ("odd size %d, switching
     * to ring algorithm"): Open MPI's to rank + 1 (neighbor_mean replays it), SimGrid's its
     * own ring to rank + i at step i (allgather-ompi-neighborexchange.cpp calls
     * allgather__ring): racks-, pods- and fatnodes-ompi at np 33, 45, 63, 4 and 20 KiB, read
     * as the neighbor exchange 30% to 67% low, 15 of 18 outside their intervals. */
    if (smpi && algs == &ompi_allgather_algs && alg == AG_NEIGHBOR && p % 2 != 0)
        alg = AG_RING;
    *a = smpi ? algs->smpi[alg] : algs->ompi[alg];
    if (algs == &ompi_allgatherv_algs && alg == AGV_NEIGHBOR && p % 2 != 0)
        *a = smpi ? (cf_rule_alg){"ring", CF_STEPS_SPREAD, CF_LAT_STEPS}
                  : algs->ompi[AGV_RING];
    if (smpi && algs == &ompi_reduce_algs && alg == RD_BINOMIAL && ompi_reduce_segmented(p, m))
        *a = (cf_rule_alg){"binomial tree in 1 KiB segments", CF_STEPS_SEG_TREE, CF_LAT_STEPS};
    if (algs == &ompi_allreduce_algs && (alg == AR_RING || alg == AR_SEGRING) &&
        m / 4.0 < (double)p)
        *a = ring_too_short(smpi);
    return loop && cf_steps_per_call(a->steps) ? -1 : 0;
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

/* Open MPI before 4.1 (coll_tuned_decision_fixed.c as it stood from its 1.x releases to
 * 4.0.x, "based on MX results from the Grig cluster at UTK"; 4.1 replaced it with the tables
 * above, open-mpi/ompi pull request 7952): the algorithm number by the communicator's size
 * p and the size m the decision reads (the whole buffer for bcast, reduce and allreduce,
 * one process's block for allgather and alltoall), commutative operations on floats for
 * the reductions; 0 for a pattern it does not decide. Its segment sizes are not costed
 * apart: a pipeline's and a split binary tree's steps are the catalog's. *seg1k: a binomial
 * reduce in 1 KiB segments (its "Binomial_1K"). */
static int ompi40_decide(const char *pattern, long p, double m, int *seg1k)
{
    double dp = (double)p;
    *seg1k = 0;
    if (strcmp(pattern, "allreduce") == 0) {
        if (m < 10000.0)
            return AR_RDB;
        if (m / 4.0 > dp) /* count > p: a ring, in 1 MiB segments past p MiB */
            return dp * 1048576.0 >= m ? AR_RING : AR_SEGRING;
        return AR_NONOVERLAP;
    }
    if (strcmp(pattern, "alltoall") == 0) {
        if (p == 2)
            return A2A_TWO_PROC;
        if (m < 200.0 && p > 12)
            return A2A_BRUCK;
        return m < 3000.0 ? A2A_LINEAR : A2A_PAIRWISE;
    }
    if (strcmp(pattern, "bcast") == 0) {
        if (m < 2048.0)
            return BC_BINOMIAL;
        if (m < 370728.0)
            return BC_SPLIT_BINARY;
        if (dp < 1.6134e-6 * m + 2.1102)
            return BC_PIPELINE;
        return p < 13 ? BC_SPLIT_BINARY : BC_PIPELINE;
    }
    if (strcmp(pattern, "reduce") == 0) {
        if (p < 8 && m < 512.0)
            return RD_LINEAR;
        if ((p < 8 && m < 20480.0) || m < 2048.0 || m <= 4.0)
            return RD_BINOMIAL;
        if (dp > OMPI_REDUCE_A1 * m + OMPI_REDUCE_B1) {
            *seg1k = 1;
            return RD_BINOMIAL;
        }
        if (dp > 0.0410 / 1024.0 * m + 9.7128)
            return RD_PIPELINE;
        if (dp > 0.0422 / 1024.0 * m + 1.1614)
            return RD_BINARY;
        return RD_PIPELINE;
    }
    if (strcmp(pattern, "allgather") == 0) {
        if (p == 2)
            return AG_TWO_PROC;
        if (m * dp < 50000.0)
            return cf_is_pow2(p) ? AG_RDB : AG_BRUCK;
        return p % 2 ? AG_RING : AG_NEIGHBOR;
    }
    return 0;
}

static int pick_ompi40_as(const char *pattern, long p, double m, int loop, cf_rule_alg *a)
{
    const ompi_algs *algs = ompi_algs_of(pattern);
    int seg1k, alg = ompi40_decide(pattern, p, m, &seg1k);
    if (algs == NULL || alg <= 0)
        return -1;
    *a = algs->ompi[alg];
    if (seg1k)
        *a = (cf_rule_alg){"binomial tree in 1 KiB segments", CF_STEPS_SEG_TREE, CF_LAT_STEPS};
    return loop && cf_steps_per_call(a->steps) ? -1 : 0;
}

static int pick_openmpi40(const char *pattern, long p, double m, long node, cf_rule_alg *a)
{
    (void)node;
    return pick_ompi40_as(pattern, p, m, 0, a);
}

static int pick_openmpi40_loop(const char *pattern, long p, double m, long node, cf_rule_alg *a)
{
    (void)node;
    return pick_ompi40_as(pattern, p, m, 1, a);
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
    {"openmpi-4.0", pick_openmpi40},
    {"openmpi-4.0-loop", pick_openmpi40_loop},
};

/* Whether mpi_library ("Open MPI v4.0.5", "Open MPI 4.1.6") names an Open MPI before 4.1,
 * whose fixed rules were the older ones (ompi40_decide); 0 where it says no version. */
static int ompi_before_41(const char *mpi_library)
{
    const char *v = mpi_library + 8;
    while (*v != '\0' && !isdigit((unsigned char)*v))
        v++;
    char *end;
    long major = strtol(v, &end, 10);
    if (end == v)
        return 0;
    long minor = *end == '.' && isdigit((unsigned char)end[1]) ? strtol(end + 1, NULL, 10) : 0;
    return major < 4 || (major == 4 && minor < 1);
}

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
    if (mpi_library != NULL && strncmp(mpi_library, "Open MPI", 8) == 0 &&
        ompi_before_41(mpi_library))
        return timed_loop ? "openmpi-4.0-loop" : "openmpi-4.0";
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

int cf_rules_simulated(const char *rules)
{
    return rules != NULL && strncmp(rules, "smpi-", 5) == 0;
}

int cf_rules_ompi(const char *rules)
{
    return rules != NULL &&
           (strncmp(rules, "openmpi", 7) == 0 || strncmp(rules, "smpi-ompi", 9) == 0);
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

/* Open MPI's gather (coll_tuned_gather_intra_dec_fixed of Open MPI 4.1; SimGrid 3.31 on
 * carries it into its ompi selector's gather__ompi): by the communicator's size and one
 * rank's block, a binomial tree, a basic linear gather or a linear one with a sync to each
 * sender in turn; 1 for the two linear ones. */
static int ompi_gather_linear(long p, double m)
{
    if (p < 4)
        return m < 4 || (m >= 32768 && m < 65536) || m >= 131072;
    if (p < 8)
        return (m >= 1024 && m < 8192) || m >= 32768;
    if (p >= 256 && p < 512)
        return m >= 2048 && m < 8192;
    return 0;
}

/* Open MPI before 4.1: a linear gather (with a sync above 6000 B) but where p > 60, or
 * p > 10 below 1 KiB, and not above 6000 B: a binomial tree. */
static int ompi40_gather_linear(long p, double m)
{
    return m > 6000.0 || !(p > 60 || (p > 10 && m < 1024.0));
}

int cf_rules_gather_linear(const char *rules, long p, double m)
{
    if (rules != NULL && strncmp(rules, "openmpi-4.0", 11) == 0)
        return ompi40_gather_linear(p, m);
    if (!cf_rules_ompi(rules))
        return 0;
    return ompi_gather_linear(p, m);
}

/* Open MPI's scatter (coll_tuned_scatter_intra_dec_fixed of Open MPI 4.1; SimGrid's
 * scatter__ompi): by the communicator's size and one rank's block, a binomial tree or a
 * linear scatter (basic, or nonblocking: SMPI runs both as its basic linear); 1 for the
 * linear ones. */
static int ompi_scatter_linear(long p, double m)
{
    if (p < 4)
        return 1;
    if (p < 8)
        return !(m < 2048 || (m >= 4096 && m < 8192));
    if (p < 16)
        return m >= 16384;
    if (p < 32)
        return m >= 16384;
    if (p < 64)
        return !(m < 512 || (m >= 8192 && m < 16384));
    return m >= 512;
}

/* Of those, the nonblocking linear scatter's (linear_nb: the root posts every send at once),
 * where the basic linear one's blocking sends go in turn (at once only where they are eager):
 * at p 2-3 below 2 B and from 128 to 256 KiB, at p 4-15 from 32 KiB (p 8-15: 16 KiB) to 1 MiB,
 * at p 16-31 from 32 KiB, at p 32-63 from 512 B but 8 to 16 KiB, from p 64 from 512 B. (SMPI
 * 3.32's ompi selector runs the two apart: scatter of 2 MiB at np 8 inside one fatnodes node,
 * in turn, 251 us, where the probe's messages posted at once read 57.) */
static int ompi_scatter_nonblocking(long p, double m)
{
    if (p < 4)
        return m < 2 || (m >= 131072 && m < 262144);
    if (p < 8)
        return m >= 32768 && m < 1048576;
    if (p < 16)
        return m >= 16384 && m < 1048576;
    if (p < 32)
        return m >= 32768;
    if (p < 64)
        return (m >= 512 && m < 8192) || m >= 16384;
    return m >= 512;
}

int cf_rules_scatter_nonblocking(const char *rules, long p, double m)
{
    /* Open MPI before 4.1 has no nonblocking linear scatter */
    if (!cf_rules_ompi(rules) || strncmp(rules, "openmpi-4.0", 11) == 0)
        return 0;
    return ompi_scatter_nonblocking(p, m);
}

int cf_rules_scatter_linear(const char *rules, long p, double m)
{
    /* Open MPI before 4.1: a binomial tree where p > 10 below 300 B, else its basic linear */
    if (rules != NULL && strncmp(rules, "openmpi-4.0", 11) == 0)
        return !(p > 10 && m < 300.0);
    if (!cf_rules_ompi(rules))
        return 0;
    return ompi_scatter_linear(p, m);
}

/* The segment of SMPI's chain and binary tree bcasts (bcast-NTSL.cpp's and bcast-NTSB.cpp's
 * 8192 bytes). Past one segment each moves the whole segments and hands the rest to the
 * selector's bcast, a call of its own (sim-flat-ompi at np 8, 10000 B: 7.77 us by the binary
 * tree and then a 4-nomial tree of 1808 B; the binary tree's reading of all 10000 B from np=2
 * 5.30 in [3.75, 7.47]). */
#define SMPI_NT_SEG 8192.0

double cf_rules_rest(const char *rules, const char *pattern, long p, double m)
{
    if (rules == NULL || strncmp(rules, "smpi-ompi", 9) != 0 || strcmp(pattern, "bcast") != 0 ||
        !(m > SMPI_NT_SEG))
        return 0.0;
    int alg = ompi_decide(ompi_bcast, p, m);
    return alg == BC_LINEAR || alg == BC_BINARY ? fmod(m, SMPI_NT_SEG) : 0.0;
}

int cf_rules_known(const char *rules, const char *pattern)
{
    cf_rule_alg a;
    return cf_rules_pick(rules, 0, pattern, 2, 1.0, &a) == 0;
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
                            int n, double load)
{
    long k = p < node ? p : node, nodes = (p + node - 1) / node;
    /* a node folded out: its ranks wait for their leader, as it does (cf_fold_steps' mean
     * over the nodes) */
    double s = cf_fold_steps(nodes, m) * cf_unit_time(um, ut, n, m);
    if (k < 2)
        return s;
    cf_rule_alg ar;
    pick_mpich("allreduce", k, m, 0, &ar);
    cf_rule_alg bc;
    smpi_mx_bcast(k, m, &bc);
    return s + cf_steps_cost(ar.steps, k, m, um, ut, n) +
           cf_steps_cost_loaded(bc.steps, k, m, um, ut, n, load);
}

double cf_steps_cost_node(cf_steps st, long node, long p, double m, const double *um,
                          const double *ut, int n, double load)
{
    if (st != CF_STEPS_SMP_FOLD || node < 1 || p < 2)
        return cf_steps_cost_loaded(st, p, m, um, ut, n, load);
    /* In T2's units, one at np=2, as every other algorithm's step: np=2's own steps are
     * what T2 measured. */
    double two = smp_fold_cost(2, node, m, um, ut, n, load);
    return two > 0.0
               ? smp_fold_cost(p, node, m, um, ut, n, load) / two * cf_unit_time(um, ut, n, m)
               : cf_steps_cost_loaded(st, p, m, um, ut, n, load);
}
