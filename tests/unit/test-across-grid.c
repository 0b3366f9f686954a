/* The library's switch rules and the grid model of the across-np fit against known
 * answers: data made from the rules' algorithms costed with a known two-process time,
 * exact, with a contention that sets in beyond 8 processes, and with seeded noise. */
#include "config.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit/across.h"
#include "fit/barrier-replay.h"
#include "modelfile/across-json.h"
#include "tap.h"


/* The grid's answer at (q, m) as separate values. */
static int grid_predict(const cf_across *a, long q, double m, double *t, double *lo, double *hi,
                        const char **alg)
{
    cf_estimate est;
    int rc = cf_across_grid_predict(a, q, m, &est);
    if (rc == 0) {
        *t = est.t_us;
        *lo = est.lo_us;
        *hi = est.hi_us;
        *alg = est.algorithm;
    }
    return rc;
}

static void pick_is(const char *rules, const char *pattern, long p, double m, const char *want)
{
    cf_rule_alg a;
    int rc = cf_rules_pick(rules, 0, pattern, p, m, &a);
    is_str(rc == 0 ? a.name : "(none)", want, "%s %s at np %ld, %.0f bytes: %s", rules, pattern, p,
           m, want);
}

/* Open MPI 4.1's tuned decisions (coll_tuned_decision_fixed.c), as SMPI's ompi selector
 * carries them: bands of p, then the size each decision reads. */
static void ompi_rules(void)
{
    /* allreduce on the whole buffer: recursive doubling for small, Rabenseifner for large.
     * The tables name a ring at np 2-3 below 8 bytes and a segmented ring at np 16-63 for
     * the smallest, where neither runs: a ring of fewer floats than processes is recursive
     * doubling in Open MPI, and in SMPI its logical ring hands it to its default reduce +
     * bcast (the shipped table: 3.03 us at 4 bytes, np 2, against 2.03 at 16; 11.1 at 4
     * and 16 bytes, np 16, against 8.1 at 64). */
    pick_is("openmpi", "allreduce", 2, 4, "recursive doubling");
    pick_is("smpi-ompi", "allreduce", 2, 4, "reduce + bcast");
    pick_is("openmpi", "allreduce", 16, 60, "recursive doubling");
    pick_is("smpi-ompi", "allreduce", 16, 60, "reduce + bcast");
    pick_is("openmpi", "allreduce", 32, 124, "recursive doubling");
    pick_is("smpi-ompi", "allreduce", 32, 127, "reduce + bcast");
    pick_is("openmpi", "allreduce", 8, 8191, "recursive doubling");
    pick_is("openmpi", "allreduce", 8, 8192, "Rabenseifner");
    pick_is("openmpi", "allreduce", 2, 65536, "segmented ring");
    pick_is("openmpi", "allreduce", 64, 262143, "recursive doubling");
    pick_is("openmpi", "allreduce", 64, 262144, "Rabenseifner");
    pick_is("openmpi", "allreduce", 128, 65536, "nonoverlapping");
    pick_is("smpi-ompi", "allreduce", 128, 65536, "reduce + bcast");
    /* bcast on the whole buffer: knomial at np 64-127 at every size. */
    pick_is("openmpi", "bcast", 64, 16, "knomial tree");
    pick_is("openmpi", "bcast", 127, 1 << 21, "knomial tree");
    pick_is("openmpi", "bcast", 32, 2047, "binomial tree");
    pick_is("openmpi", "bcast", 16, 1 << 20, "scatter + recursive doubling allgather");
    pick_is("openmpi", "bcast", 16, 65536, "binomial tree");
    pick_is("openmpi", "bcast", 4, 8192, "linear");
    pick_is("openmpi", "bcast", 8, 4096, "binary tree");
    pick_is("smpi-ompi", "bcast", 4, 8192, "store-and-forward chain");
    pick_is("openmpi", "bcast", 4, 1 << 20, "chain");
    pick_is("smpi-ompi", "bcast", 4, 1 << 20, "pipeline");
    /* reduce: binomial from 32 to 255 processes; binary below 4 KiB at np 16-31. */
    pick_is("openmpi", "reduce", 64, 4, "binomial tree");
    pick_is("openmpi", "reduce", 16, 4095, "binary tree");
    pick_is("openmpi", "reduce", 16, 4096, "binomial tree");
    pick_is("openmpi", "reduce", 2, 4, "Rabenseifner");
    pick_is("smpi-ompi", "reduce", 2, 4, "linear");
    /* allgather on one process's block: two proc at 2; recursive doubling to 31; then by m. */
    pick_is("smpi-ompi", "allgather", 2, 1 << 20, "pairwise");
    pick_is("openmpi", "allgather", 16, 1 << 20, "recursive doubling");
    pick_is("openmpi", "allgather", 32, 1023, "recursive doubling");
    pick_is("openmpi", "allgather", 32, 1024, "neighbor exchange");
    pick_is("openmpi", "allgather", 64, 512, "neighbor exchange");
    pick_is("openmpi", "allgather", 64, 65536, "ring");
    /* alltoall on one block: Bruck for small from 16, linear, pairwise for large at 64. */
    pick_is("openmpi", "alltoall", 16, 511, "modified Bruck");
    pick_is("smpi-ompi", "alltoall", 16, 4, "Bruck");
    pick_is("openmpi", "alltoall", 8, 4, "linear sync");
    pick_is("smpi-ompi", "alltoall", 8, 4, "linear");
    pick_is("openmpi", "alltoall", 64, 262144, "pairwise");
    pick_is("openmpi", "alltoall", 64, 3000, "linear sync");
    /* From 256 processes the bands are not carried: no rule. */
    /* SMPI 3.32's binomial reduce in 1 KiB segments where p > 0.6016/1024 * m + 1.3496, from
     * 2 KiB (20 KiB under 8 processes): the segmented tree moves to larger sizes with p. */
    pick_is("smpi-ompi", "reduce", 64, 65536, "binomial tree in 1 KiB segments");
    pick_is("smpi-ompi", "reduce", 64, 131072, "binomial tree");
    pick_is("smpi-ompi", "reduce", 64, 1024, "binomial tree");
    pick_is("smpi-ompi", "reduce", 16, 16384, "binomial tree in 1 KiB segments");
    pick_is("smpi-ompi", "reduce", 16, 65536, "binomial tree");
    pick_is("smpi-ompi", "reduce", 8, 8192, "binomial tree in 1 KiB segments");
    pick_is("smpi-ompi", "reduce", 16, 2048, "binary tree");
    pick_is("openmpi", "reduce", 64, 65536, "binomial tree");
    /* The bands from 256 processes on, to the last that holds every larger communicator. */
    pick_is("openmpi", "bcast", 256, 1024, "knomial tree");
    pick_is("openmpi", "bcast", 300, 20000, "split binary tree");
    pick_is("openmpi", "bcast", 1 << 20, 10000, "binary tree");
    pick_is("smpi-ompi", "allreduce", 1024, 1024, "reduce + bcast");
    /* The band's segmented ring, of 750 floats on 3072 processes: recursive doubling. */
    pick_is("openmpi", "allreduce", 3072, 3000, "recursive doubling");
    pick_is("openmpi", "allreduce", 24576, 20000, "recursive doubling");
    pick_is("openmpi", "allreduce", 24576, 32768, "Rabenseifner");
    pick_is("openmpi", "alltoall", 5000, 100, "modified Bruck");
    pick_is("openmpi", "alltoall", 5000, 40000, "linear");
    pick_is("openmpi", "reduce", 5000, 20, "in-order binary tree");
    pick_is("openmpi", "reduce", 3000, 4096, "binomial tree");
    /* (recursive doubling at a power of two: elsewhere Open MPI hands it to Bruck's) */
    pick_is("openmpi", "allgather", 2048, 64, "recursive doubling");
    pick_is("openmpi", "allgather", 3000, 64, "Bruck");
    pick_is("openmpi", "allgather", 1024, 4, "Bruck");
    pick_is("openmpi", "allgather", 1024, 8, "recursive doubling");
    pick_is("smpi-ompi", "allgather", 1500, 8, "recursive doubling");
    /* (the neighbor exchange at an odd count: Open MPI's own runs its ring to rank + 1,
     * replayed as the neighbor exchange; SimGrid's its ring to rank + i) */
    pick_is("openmpi", "allgather", 45, 4096, "neighbor exchange");
    pick_is("smpi-ompi", "allgather", 45, 4096, "ring");
    pick_is("smpi-ompi", "allgather", 44, 4096, "neighbor exchange");
    pick_is("openmpi", "allgather", 600, 200000, "neighbor exchange");
    pick_is("openmpi", "allgather", 300, 200000, "ring");
    /* SMPI's chain (linear) and binary tree bcasts hand what lies past their whole 8 KiB
     * segments to a bcast of its own; Open MPI's own, its other algorithms, other patterns
     * and one segment or less hand nothing on. */
    ok(cf_rules_rest("smpi-ompi", "bcast", 4, 10000) == 1808.0 &&
           cf_rules_rest("smpi-ompi", "bcast", 8, 10000) == 1808.0 &&
           cf_rules_rest("smpi-ompi", "bcast", 4, 300000) == 5088.0,
       "SMPI's chain and binary tree bcasts: the rest past whole 8 KiB segments");
    ok(cf_rules_rest("smpi-ompi", "bcast", 4, 16384) == 0.0 &&
           cf_rules_rest("smpi-ompi", "bcast", 4, 8192) == 0.0 &&
           cf_rules_rest("smpi-ompi", "bcast", 16, 10000) == 0.0 &&
           cf_rules_rest("smpi-ompi", "reduce", 4, 10000) == 0.0 &&
           cf_rules_rest("openmpi", "bcast", 4, 10000) == 0.0 &&
           cf_rules_rest("smpi-mpich", "bcast", 4, 10000) == 0.0 &&
           cf_rules_rest(NULL, "bcast", 4, 10000) == 0.0,
       "no rest: whole segments, one segment, a binomial tree, a reduce, Open MPI's own, MPICH");
}

static void rules(void)
{
    is_str(cf_rules_for("SMPI Version 3.32. Copyright The SimGrid Team", "mpich", 0),
           "smpi-mpich", "SMPI with the mpich selector");
    is_str(cf_rules_for("SMPI Version 3.32", "ompi", 0), "smpi-ompi", "SMPI's ompi selector");
    ok(cf_rules_for("SMPI Version 3.32", "mvapich2", 0) == NULL, "SMPI's mvapich2: no rules");
    is_str(cf_rules_for("MPICH Version: 4.0.2", NULL, 0), "mpich", "MPICH");
    is_str(cf_rules_for("Open MPI v4.1.5, package: Debian OpenMPI", NULL, 0), "openmpi",
           "Open MPI");
    ok(cf_rules_for(NULL, NULL, 0) == NULL, "no metadata: no rules");
    /* Timed as a loop of calls: Open MPI's rules without the trees costed per call. */
    is_str(cf_rules_for("Open MPI v4.1.5", NULL, 1), "openmpi-loop", "Open MPI, loop timed");
    is_str(cf_rules_for("SMPI Version 3.32", "ompi", 1), "smpi-ompi-loop",
           "SMPI's ompi selector, loop timed");
    is_str(cf_rules_for("MPICH Version: 4.0.2", NULL, 1), "mpich-loop",
           "MPICH, loop timed: its own name, the same rules");
    pick_is("mpich-loop", "bcast", 16, 12287, "binomial tree");
    pick_is("mpich-loop", "alltoall", 64, 256, "isend/irecv");
    ok(cf_rules_loop("mpich-loop") && cf_rules_loop("smpi-ompi-loop") && !cf_rules_loop("mpich") &&
           !cf_rules_loop("loop") && !cf_rules_loop(NULL),
       "cf_rules_loop: the -loop sets alone");
    pick_is("smpi-ompi", "bcast", 16, 1024, "knomial tree");
    pick_is("smpi-ompi-loop", "bcast", 16, 1024, "(none)");
    pick_is("openmpi-loop", "reduce", 64, 1024, "(none)");
    pick_is("openmpi-loop", "allreduce", 64, 1024, "recursive doubling");
    pick_is("smpi-ompi-loop", "alltoall", 16, 4, "Bruck");
    /* allgather on the total size p*m: recursive doubling below 512 KiB for a power of two,
     * Bruck up to 80 KiB otherwise, ring above. */
    pick_is("smpi-mpich", "allgather", 16, 16384, "recursive doubling");
    pick_is("smpi-mpich", "allgather", 32, 16384, "ring");
    pick_is("smpi-mpich", "allgather", 12, 4096, "Bruck");
    pick_is("smpi-mpich", "allgather", 12, 8192, "ring");
    /* alltoall: Bruck below 256 bytes from 8 processes on, isend/irecv to 32 KiB. */
    pick_is("mpich", "alltoall", 8, 255, "Bruck");
    pick_is("mpich", "alltoall", 4, 100, "isend/irecv");
    pick_is("mpich", "alltoall", 64, 256, "isend/irecv");
    pick_is("mpich", "alltoall", 64, 32768, "pairwise exchange");
    /* bcast: binomial for short or fewer than 8 processes; then on p's parity of two. */
    pick_is("mpich", "bcast", 16, 12287, "binomial tree");
    pick_is("mpich", "bcast", 4, 1 << 20, "binomial tree");
    pick_is("mpich", "bcast", 16, 12288, "scatter + recursive doubling allgather");
    pick_is("mpich", "bcast", 12, 12288, "scatter + ring allgather");
    pick_is("mpich", "bcast", 16, 524288, "scatter + ring allgather");
    /* reductions: Rabenseifner above 2 KiB when there are pof2 floats at least. */
    pick_is("mpich", "allreduce", 64, 2048, "recursive doubling");
    pick_is("mpich", "allreduce", 64, 4096, "Rabenseifner");
    pick_is("mpich", "reduce", 4096, 8192, "binomial tree");
    pick_is("smpi-mpich", "bcast", 64, 1 << 20, "two-level binomial tree");
    pick_is("smpi-mpich", "allreduce", 64, 1 << 20, "two-level recursive doubling");
    /* SMPI's mpich reduce reads the nodes: inside one a shared-memory reduce to 2 KiB and a
     * k-nomial tree beyond; across nodes a binomial tree below 2 KiB, scatter-gather from
     * there with as many floats as the power of two at or below the nodes or their ranks;
     * not knowing the nodes, the binomial tree at every size. */
    struct {
        long node, p;
        double m;
        const char *want;
    } red[] = {{4, 4, 2048, "shared-memory reduce"},
               {4, 4, 4096, "k-nomial tree"},
               {16, 16, 1 << 20, "k-nomial tree"},
               {4, 8, 2047, "two-level binomial tree"},
               {4, 8, 2048, "two-level scatter-gather"},
               {1, 2, 4096, "two-level scatter-gather"},
               {1, 4096, 8192, "two-level binomial tree"},       /* 2048 floats, 4096 nodes */
               {1024, 1 << 20, 2048, "two-level binomial tree"}, /* 512 floats, 1024 ranks */
               {0, 64, 1 << 20, "two-level binomial tree"}};
    for (size_t i = 0; i < sizeof red / sizeof red[0]; i++) {
        cf_rule_alg a;
        int rc = cf_rules_pick("smpi-mpich", red[i].node, "reduce", red[i].p, red[i].m, &a);
        is_str(rc == 0 ? a.name : "(none)", red[i].want,
               "smpi-mpich reduce, nodes of %ld, np %ld, %.0f bytes: %s", red[i].node, red[i].p,
               red[i].m, red[i].want);
        if (rc == 0 && strcmp(a.name, "two-level scatter-gather") == 0)
            ok(a.steps == CF_STEPS_SMP_HALVING2,
               "scatter-gather halves and gathers back, its two levels replayed for the interval");
    }
    /* Only that selector's reduce reads them: MPICH's own is the same on any nodes. */
    cf_rule_alg a0, a16;
    ok(cf_rules_pick("mpich", 0, "reduce", 16, 4096, &a0) == 0 &&
           cf_rules_pick("mpich", 16, "reduce", 16, 4096, &a16) == 0 &&
           strcmp(a0.name, a16.name) == 0,
       "MPICH's reduce does not read the nodes");
    ok(cf_rules_pick("mpich", 0, "gather", 4, 8, &(cf_rule_alg){0}) != 0, "no rule for gather");
    ok(!cf_rules_known("lam", "bcast"), "unknown rule set");
    ok(cf_rules_known("openmpi", "bcast") && cf_rules_known("smpi-ompi", "alltoall"),
       "Open MPI's rule sets");
    ompi_rules();
}

/* T2(s) = 2 us + s / 1 GB/s, sampled at 1 .. 2 MiB. */
#define UNIT_A 2.0
#define UNIT_B 1e-3
static const double UM[] = {1, 16, 256, 4096, 65536, 131072, 262144, 524288, 1048576, 2097152};
#define NUM 10
static double unit(double s)
{
    return UNIT_A + UNIT_B * s;
}

/* SMPI's two-level allreduce on nodes of node ranks (cf_steps_cost_node), in units of its
 * np=2 time: inside the first node MPICH's allreduce and the bcast back, among the nodes'
 * leaders recursive doubling, one message of m a step. */
static void smp_fold(const double *ut)
{
    double small = 256, big = 2097152;
#define CN(node, p, m) cf_steps_cost_node(CF_STEPS_SMP_FOLD, node, p, m, UM, ut, NUM, 1.0)
    /* Nodes unknown, or of one rank: recursive doubling's steps, as before. */
    near(CN(0, 16, big), cf_steps_cost(CF_STEPS_SMP_FOLD, 16, big, UM, ut, NUM), 1e-12,
         "two-level allreduce, nodes unknown: recursive doubling's lg p");
    /* At 12 the ranks' mean (cf_fold_steps): 3 steps among 8, the folding in, and the 4 ranks
     * folded out one more; from CF_EAGER_MAX their partners too (the last rank's path, 5, until
     * stop 80) */
    near(CN(1, 12, small), (3 + 1 + 4.0 / 12) * unit(small), 1e-9,
         "two-level allreduce on nodes of one rank at 12: the leaders' mean, 4 1/3 steps");
    near(CN(1, 12, big), (3 + 1 + 8.0 / 12) * unit(big), 1e-9,
         "the same of 2 MiB: 4 2/3 steps, the partners waiting for their sends back");
    near(cf_fold_steps(3, small), 7.0 / 3, 1e-12, "recursive doubling's mean at 3: 2 1/3 steps");
    near(cf_fold_steps(7, small), 3 + 3.0 / 7, 1e-12, "at 7: 3 3/7");
    near(cf_fold_steps(16, big), 4, 1e-12, "at 16: lg p");
    near(cf_fold_steps(1, small), 0, 0, "one rank: none");
    /* Small: inside a node recursive doubling and a binomial bcast, lg k steps each; np=2
     * (one step of each) is T2. */
    near(CN(4, 2, small), unit(small), 1e-12, "two-level allreduce at np 2: T2");
    near(CN(4, 4, small), 2 * unit(small), 1e-9, "inside a node of 4: 2 steps and 2 back");
    near(CN(4, 16, small), (2.0 * 2 + 2) / 2 * unit(small), 1e-9,
         "4 nodes of 4: 2 and 2 inside, then 2 leaders' steps, over np 2's 2");
    /* 2 MiB: inside a node Rabenseifner (halving and back) and, on 8 ranks or fewer, a
     * binomial bcast; each leaders' step one message of m. */
    double r2 = 2 * unit(big / 2) + unit(big);
    double r4 = 2 * (unit(big / 2) + unit(big / 4)) + 2 * unit(big);
    near(CN(4, 4, big), r4 / r2 * unit(big), 1e-9,
         "2 MiB inside a node of 4: Rabenseifner and a binomial bcast, over np 2's");
    near(CN(4, 16, big), (r4 + 2 * unit(big)) / r2 * unit(big), 1e-9,
         "2 MiB on 4 nodes of 4: the node's, then 2 leaders' messages of m");
    /* 16 ranks a node from 512 KiB: the bcast is a scatter and a ring allgather. */
    double r16 = 2 * (unit(big / 2) + unit(big / 4) + unit(big / 8) + unit(big / 16)) +
                 (unit(big / 2) + unit(big / 4) + unit(big / 8) + unit(big / 16)) +
                 15 * unit(big / 16);
    near(CN(16, 16, big), r16 / r2 * unit(big), 1e-9,
         "2 MiB inside a node of 16: the bcast a scatter and a ring");
#undef CN
}

/* The per-call trees (a barrier after each call, the mean of the ranks' own times), in
 * messages of 2 T2 each. */
static void per_call_trees(const double *ut)
{
    double m = 65536;
#define U(s) cf_unit_time(UM, ut, NUM, (s))
    near(cf_steps_cost(CF_STEPS_REDUCE_BINOMIAL, 64, m, UM, ut, NUM), 2 * 63.0 / 64 * unit(m), 1e-9,
         "binomial reduce at 64: a rank leaves one message after its last child");
    near(cf_steps_cost(CF_STEPS_REDUCE_BINOMIAL, 2, m, UM, ut, NUM), unit(m), 1e-9,
         "binomial reduce at 2: T2");
    /* Open MPI's binary tree at 12 (0: 1 2; 1: 3 5; 2: 4 6; 3: 7 11; 4: 8; 5: 9; 6: 10):
     * heights 3, 2, 2 and 1 for each of 3 to 6: 11, not 12 - popcount(12) (a binomial tree's). */
    near(cf_steps_cost(CF_STEPS_REDUCE_BINARY, 12, m, UM, ut, NUM), 2 * 11.0 / 12 * unit(m), 1e-9,
         "binary reduce at 12: the heights sum to 11");
    near(cf_steps_cost(CF_STEPS_REDUCE_BINARY, 5, m, UM, ut, NUM), 2 * 4.0 / 5 * unit(m), 1e-9,
         "binary reduce at 5: 1 and 2 each wait for a child, 0 for them: 4");
    near(cf_steps_cost(CF_STEPS_REDUCE_BINARY, 16, m, UM, ut, NUM), 2 * 15.0 / 16 * unit(m), 1e-9,
         "binary reduce at 16: 15, as the binomial tree's at a power of two");
    /* At every np to 1000: the heights walked down Open MPI's layout (rank r of level l, ranks
     * 2^l - 1 to 2^(l+1) - 2, has the children r + 2^l and r + 2^(l+1)), from the last rank
     * up, as its children lie above it. */
    static int height[1000];
    int same = 1;
    for (long p = 2; p <= 1000; p++) {
        long sum = 0;
        for (long r = p - 1; r >= 0; r--) {
            long d = 1;
            while (2 * d - 1 <= r)
                d *= 2;
            height[r] = 0;
            for (long c = r + d; c < p && c <= r + 2 * d; c += d)
                height[r] = height[c] + 1 > height[r] ? height[c] + 1 : height[r];
            sum += height[r];
        }
        double got = cf_steps_cost(CF_STEPS_REDUCE_BINARY, p, m, UM, ut, NUM),
               want = 2.0 * (double)sum / (double)p * unit(m);
        if (!(fabs(got - want) <= 1e-9 * want)) {
            printf("# binary reduce at np %ld: %.9g, the walk's %.9g\n", p, got, want);
            same = 0;
        }
    }
    ok(same, "binary reduce at np 2 to 1000: the heights of Open MPI's layout");
    /* 16 segments at 4 (0: 1 2; 2: 3): rank 2 takes its leaf's two at a time, the k-th
     * posted once the (k-2)-th came in, 8 messages; the root takes segment s of its leaf 1 at
     * s + 1 and of rank 2 at s + 2 (rank 2 sends it up at s/2 + 1, rounded down), 17: 25
     * over 4 ranks, not (p - 1) / p of every segment's (48 over 4). */
    near(cf_steps_cost(CF_STEPS_SEG_TREE, 4, 16384, UM, ut, NUM), 2 * 25.0 / 4 * U(1024), 1e-9,
         "1 KiB segments up a binomial tree at 4: two receives at a time, 25 messages");
    /* One segment: each rank one message after its last child, the tree's heights, p - 1 at
     * a power of two as the binomial tree's closed form (which counts p - 1 at every p). */
    int one_seg = 1;
    for (long p = 2; p <= 1024; p *= 2) {
        double a = cf_steps_cost(CF_STEPS_SEG_TREE, p, 1024, UM, ut, NUM),
               b = cf_steps_cost(CF_STEPS_REDUCE_BINOMIAL, p, 1024, UM, ut, NUM);
        if (!(fabs(a - b) <= 1e-9 * b)) {
            printf("# one segment at np %ld: %.9g, the binomial tree's %.9g\n", p, a, b);
            one_seg = 0;
        }
    }
    ok(one_seg, "one segment up the tree at np 2 to 1024, powers of two: the binomial tree's (p - 1) / p");
    double s64 = cf_steps_cost(CF_STEPS_SEG_TREE, 64, m, UM, ut, NUM) / (2 * U(1024));
    ok(s64 > 64 / 2.0 * 63 / 64 && s64 < 64 / 2.0 + 2,
       "64 segments at np 64: about half of each segment's message a rank (%.2f)", s64);
    near(cf_steps_cost(CF_STEPS_SEG_TREE, 16, 512, UM, ut, NUM), 2 * 15.0 / 16 * U(512), 1e-9,
         "one segment up a binomial tree at 16");
    /* Below CF_EAGER_MAX a sender's k messages leave together, each with its own latency and
     * their bytes on one link: 2 (T2(m) + (k-1) (T2(m) - T2(smallest))). At np 8 the root's 3
     * children have their data after 3 such messages, 4's two after 2 more, 2's and 6's one
     * after one more. */
    double s = 256, one = U(s), above = one - unit(1);
    double a = 2 * (one + 2 * above), b = 2 * (one + above), c = 2 * one;
    near(cf_steps_cost(CF_STEPS_BCAST_BINOMIAL, 8, s, UM, ut, NUM), (7 * a + 3 * b + 2 * c) / 8,
         1e-9, "eager binomial bcast at 8: the mean arrival");
    near(cf_steps_cost(CF_STEPS_BCAST_BINOMIAL, 2, s, UM, ut, NUM), unit(s), 1e-9,
         "eager binomial bcast at 2: T2");
    a = 2 * (one + 5 * above);
    b = 2 * (one + 2 * above);
    near(cf_steps_cost(CF_STEPS_BCAST_KNOMIAL, 16, s, UM, ut, NUM), (15 * a + 9 * b) / 16, 1e-9,
         "eager 4-nomial bcast at 16: 6 children after 6 messages, 9 after 3 more");
    /* From CF_EAGER_MAX on each level waits for its 3 transfers and every rank of a full
     * tree leaves after 3 levels. */
    near(cf_steps_cost(CF_STEPS_BCAST_KNOMIAL, 64, m, UM, ut, NUM), 3 * 2 * U(3 * m), 1e-9,
         "4-nomial bcast at 64: 3 levels of 3 messages at once");
    near(cf_steps_cost(CF_STEPS_BCAST_KNOMIAL, 32, m, UM, ut, NUM), 2 * U(m) + 2 * 2 * U(3 * m),
         1e-9, "4-nomial bcast at 32: a level of 1, then 2 of 3");
    ok(cf_steps_per_call(CF_STEPS_BCAST_KNOMIAL) && !cf_steps_per_call(CF_STEPS_LG),
       "per-call trees apart from steps of T2");
    /* MVAPICH2's 4-nomial reduce (SMPI's inside a node): each rank's height in its tree,
     * worked out rank by rank as SMPI builds the tree (children r + j 4^i), against the sum
     * the cost reads in O(log p). Below CF_EAGER_MAX the mean height in messages of 2 T2
     * (sim-fatnodes, 4 KiB inside one node: 0.52, 0.76 and 0.64 times np 2's at np 4, 8 and
     * 16; the mean heights 1/4, 3/8 and 5/16 over np 2's 1/2); from it a rank's own send
     * too, in messages of T2 (64 KiB: 1.00, 1.25 and 1.25; (3 + 3)/4, (3 + 7)/8 and
     * (5 + 15)/16). */
    long bad = 0;
    for (long p = 1; p <= 300 && !bad; p++) {
        long h[300], sum = 0;
        for (long r = p - 1; r >= 0; r--) {
            long mask = 1;
            while (mask < p && r % (4 * mask) == 0)
                mask *= 4;
            h[r] = 0;
            for (mask /= 4; mask > 0; mask /= 4)
                for (long j = 1; j < 4 && r + j * mask < p; j++)
                    h[r] = h[r] > h[r + j * mask] + 1 ? h[r] : h[r + j * mask] + 1;
            sum += h[r];
        }
        double want = p < 2 ? 0.0 : 2.0 * (double)sum / (double)p * unit(s);
        double got = cf_steps_cost(CF_STEPS_REDUCE_KNOMIAL, p, s, UM, ut, NUM);
        bad = p >= 2 && fabs(got - want) > 1e-9 * want ? p : 0;
    }
    ok(!bad, "4-nomial reduce below CF_EAGER_MAX, np 2 to 300: the mean of the tree's heights "
             "(first wrong at np %ld)", bad);
    near(cf_steps_cost(CF_STEPS_REDUCE_KNOMIAL, 16, s, UM, ut, NUM), 2 * 5.0 / 16 * unit(s), 1e-9,
         "4-nomial reduce at 16, eager: (2 + 3 * 1)/16 messages");
    near(cf_steps_cost(CF_STEPS_REDUCE_KNOMIAL, 2, s, UM, ut, NUM), unit(s), 1e-9,
         "4-nomial reduce at 2, eager: T2");
    near(cf_steps_cost(CF_STEPS_REDUCE_KNOMIAL, 8, m, UM, ut, NUM), 10.0 / 8 * unit(m), 1e-9,
         "4-nomial reduce at 8 from CF_EAGER_MAX: heights 3 and 7 sends, over 8");
    near(cf_steps_cost(CF_STEPS_REDUCE_KNOMIAL, 2, m, UM, ut, NUM), unit(m), 1e-9,
         "4-nomial reduce at 2 from CF_EAGER_MAX: T2");
    ok(cf_steps_per_call(CF_STEPS_REDUCE_KNOMIAL) && !cf_steps_tiered(CF_STEPS_REDUCE_KNOMIAL),
       "the 4-nomial reduce is a per-call tree, not replayed");
#undef U
}

/* The per-call reduce trees over latency tiers: nodes of 8 ranks in a row, X us farther
 * apart than ranks 0 and 1; each message 2 T2 (msg). Worked by hand from the trees Open
 * MPI builds. */
static void tiered_trees(const double *ut)
{
    double m = 4096, msg = 2 * unit(m), X = 7.5;
    cf_tiers none = {0}, nodes = {.n = 1, .ranks = {8}, .extra_us = {X},
                                  .base_us = 1.0, .rendezvous = 0, .probed = 16},
             two = {.n = 2, .ranks = {8, 32}, .extra_us = {X, 3 * X},
                    .base_us = 1.0, .rendezvous = 0, .probed = 64};
    /* Binary tree at 16 (0: 1 2; 1: 3 5; 2: 4 6; 3: 7 11; 4: 8 12; 5: 9 13; 6: 10 14; 7: 15):
     * 3 <- 11, 4 <- 8 and 12, 5, 6 and 7 wait on the other node, and so do their
     * ancestors: every rank from 0 to 7 waits X once, the heights sum to 15. 4, 5 and 6 each
     * take both their children's bytes across the link, one after the other (what a
     * message's time holds beyond its time at the smallest sizes: bytes; each rank's own
     * receives queue, not its node's), and so ends 2, which waits on 4 and 6; 1's and 0's
     * slowest paths hold none. */
    double bytes = msg - 2 * cf_unit_time(UM, ut, NUM, 0.0);
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINARY, 16, m, UM, ut, NUM, &nodes, NULL, 0),
         (15 * msg + 8 * X + 4 * bytes) / 16, 1e-9,
         "binary reduce at 16 over 2 nodes: 8 ranks wait X, 4 the second child's bytes");
    /* Binomial tree at 16: 0 <- 8 alone crosses. */
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 16, m, UM, ut, NUM, &nodes, NULL, 0),
         (15 * msg + X) / 16, 1e-9, "binomial reduce at 16 over 2 nodes: the root waits X");
    /* Binomial tree at 32: 16 <- 24 and 0 <- 8, 16 cross; 0's slowest path crosses twice. */
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 32, m, UM, ut, NUM, &nodes, NULL, 0),
         (31 * msg + 3 * X) / 32, 1e-9, "binomial reduce at 32 over 4 nodes: 16 waits X, 0 2X");
    /* Binomial tree at 12 over nodes of 4 (0: 1 2 4 8; 2: 3; 4: 5 6; 6: 7; 8: 9 10; 10: 11):
     * 4's and 8's subtrees are in at 2 msg at once, and both cross into the root's node,
     * whose link takes the second's bytes after the first's: 0 ends at 3 msg + X + bytes,
     * not 3 msg + X (SimGrid shares the link: Open MPI's reduce of 1 MiB on racks.xml at np
     * 12 takes 134.3 us, more than np 16's 124.9). */
    cf_tiers four = {.n = 1, .ranks = {4}, .extra_us = {X}, .base_us = 1.0, .probed = 16};
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 12, m, UM, ut, NUM, &four, NULL, 0),
         (10 * msg + X + bytes) / 12, 1e-9,
         "binomial reduce at 12 over nodes of 4: 4's and 8's bytes in one after the other");
    /* Binary tree at 16 over nodes of 4: the queue goes by arrival, not by child. 3's
     * children 7 (in at 2 msg + 2X, its own child 15 across) and 11 (a leaf, in at msg + X)
     * both cross, 11 first, and 7's bytes find the link free: 3 ends at 2 msg + 2X. 4, 5
     * and 6 each take two leaves' bytes from other nodes in a row (msg + X + bytes), 2 takes
     * 4's and 6's so (2 msg + 2X + 2 bytes), 1 ends with 3 (3 msg + 2X), 0 with 1's or 2's
     * path. */
    double f0 = fmax(4 * msg + 2 * X, 3 * msg + 2 * X + 2 * bytes);
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINARY, 16, m, UM, ut, NUM, &four, NULL, 0),
         (f0 + 11 * msg + 10 * X + 5 * bytes) / 16, 1e-9,
         "binary reduce at 16 over nodes of 4: the link takes the bytes in the order they come");
    /* At 8 one child crosses (0 <- 4): nothing shared. */
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 8, m, UM, ut, NUM, &four, NULL, 0),
         (7 * msg + X) / 8, 1e-9, "binomial reduce at 8 over nodes of 4: 0 <- 4 alone crosses");
    /* A farther tier from rank 32 on: 0 <- 32 costs 3X; 32's subtree is 0's at 32 (16 and 48
     * wait X, 32 2X), and 0 waits 32's 2X and its own 3X. */
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 64, m, UM, ut, NUM, &two, NULL, 0),
         (63 * msg + 9 * X) / 64, 1e-9, "binomial reduce at 64 over 2 racks: 9X in all");
    /* Open MPI's recursive doubling barrier at 16 over nodes of 8 lets every rank leave at
     * once: at 32, beyond the probe's 16 ranks, its share (none) carried on. */
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 32, m, UM, ut, NUM, &nodes, "smpi-ompi", 1),
         (31 * msg + 3 * X) / 32, 1e-9, "beyond the probe: the barrier's share at its reach");
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 16, m, UM, ut, NUM, &nodes, "smpi-ompi", 1),
         (15 * msg + X) / 16, 1e-9, "at the probe's reach: its barrier replayed, none spread");
    /* Open MPI's dissemination barrier at 64 over nodes of 8 and racks of 32 lets ranks
     * start apart: a child that started before its parent has its data in earlier, and the
     * mean falls below the one with every rank starting at once (rendezvous, as SMPI). */
    cf_tiers racks = {.n = 2, .ranks = {8, 32}, .extra_us = {X, 3 * X},
                      .base_us = 1.0, .rendezvous = 1, .probed = 64};
    double at_once =
               cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 64, m, UM, ut, NUM, &racks, NULL, 0),
           apart = cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 64, m, UM, ut, NUM, &racks,
                                        "smpi-ompi", 0);
    ok(apart < 0.95 * at_once && apart > 0, "dissemination at 64: the ranks start apart (%.3f < %.3f)",
       apart, at_once);
    /* Past the probe's 64 ranks: the tree with every rank starting at once, times the share
     * the barrier left at 64. */
    double at_once_128 = cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 128, m, UM, ut, NUM,
                                              &racks, NULL, 0);
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 128, m, UM, ut, NUM, &racks, "smpi-ompi",
                              0),
         at_once_128 * apart / at_once, 1e-9, "past the probe at 128: the share at 64 carried on");
    /* Past CF_TREE_REPLAY_MAX ranks: the replay at 65536, carried on by the untiered count. */
    double top = cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 65536, m, UM, ut, NUM, &racks,
                                      "smpi-ompi", 0);
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 1L << 20, m, UM, ut, NUM, &racks,
                              "smpi-ompi", 0),
         top * cf_steps_cost(CF_STEPS_REDUCE_BINOMIAL, 1L << 20, m, UM, ut, NUM) /
             cf_steps_cost(CF_STEPS_REDUCE_BINOMIAL, 65536, m, UM, ut, NUM),
         1e-9, "past 65536 ranks: carried on by the untiered count");
    /* Open MPI's in-order binary tree is none the tiers cost. */
    ok(!cf_steps_tiered(CF_STEPS_REDUCE_IN_ORDER) &&
           cf_steps_cost_tiered(CF_STEPS_REDUCE_IN_ORDER, 16, m, UM, ut, NUM, &nodes, NULL, 0) ==
               cf_steps_cost(CF_STEPS_REDUCE_BINARY, 16, m, UM, ut, NUM),
       "the in-order binary tree: untiered, the binary tree's count");
    /* No tiers, or a tree the tiers do not cost: cf_steps_cost's. */
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINARY, 16, m, UM, ut, NUM, &none, NULL, 0),
         cf_steps_cost(CF_STEPS_REDUCE_BINARY, 16, m, UM, ut, NUM), 1e-12, "no tiers: untiered");
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 64, m, UM, ut, NUM, NULL, NULL, 0),
         cf_steps_cost(CF_STEPS_REDUCE_BINOMIAL, 64, m, UM, ut, NUM), 1e-12, "NULL: untiered");
    near(cf_steps_cost_tiered(CF_STEPS_BCAST_BINOMIAL, 16, m, UM, ut, NUM, &none, NULL, 0),
         cf_steps_cost(CF_STEPS_BCAST_BINOMIAL, 16, m, UM, ut, NUM), 1e-12,
         "a bcast tree without tiers: untiered");
    /* From CF_EAGER_MAX on a sender leaves once its message is in (blocking): at 4 (0: 1 2;
     * 2: 3), 3 and 1 leave after one message, 2 after its child's and its own, 0 after 2's:
     * 1 + 1 + 2 + 2 messages over 4, where a detached sender's mean is 3/4. */
    cf_tiers far = {.n = 1, .ranks = {1024}, .extra_us = {X},
                    .base_us = 1.0, .rendezvous = 1, .probed = 64};
    double big = 65536, bmsg = 2 * unit(big);
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 4, big, UM, ut, NUM, &far, NULL, 0),
         1.5 * bmsg, 1e-9, "binomial reduce at 4, 64 KiB: senders wait for their message");
    near(cf_steps_cost_tiered(CF_STEPS_REDUCE_BINOMIAL, 4, big - 1, UM, ut, NUM, &far, NULL, 0),
         0.75 * 2 * cf_unit_time(UM, ut, NUM, big - 1), 1e-9,
         "binomial reduce at 4, below 64 KiB: detached");
    ok(cf_steps_tiered(CF_STEPS_REDUCE_BINARY) && cf_steps_tiered(CF_STEPS_REDUCE_BINOMIAL) &&
           cf_steps_tiered(CF_STEPS_BCAST_BINOMIAL) && cf_steps_tiered(CF_STEPS_BCAST_KNOMIAL) &&
           cf_steps_tiered(CF_STEPS_SEG_TREE) && !cf_steps_tiered(CF_STEPS_LG),
       "the reduce and bcast trees per call are tiered, the segmented tree too, not lg p steps");
    /* 16 segments at 4 over nodes of 2 (0: 1 2; 2: 3), each message 2 T2 of 1 KiB (msg):
     * 2 takes 3's in its node, two at a time, 8 msg; the root takes segment s of 1 (its node)
     * at (s + 1) msg and of 2 (across, X more) once 2 sent it up, its posting two receives
     * behind: 0 ends at 16 msg + X + (one more msg or X where 2's arrive last). Replayed:
     * more than without the tier, by at most X a receive from rank 2, over 4 ranks. */
    {
        cf_tiers two = {.n = 1, .ranks = {2}, .extra_us = {X}, .base_us = 1.0, .probed = 16};
        double seg_msg = 2 * cf_unit_time(UM, ut, NUM, 1024);
        double flat_t = cf_steps_cost(CF_STEPS_SEG_TREE, 4, 16384, UM, ut, NUM),
               tier_t = cf_steps_cost_tiered(CF_STEPS_SEG_TREE, 4, 16384, UM, ut, NUM, &two, NULL, 0);
        near(flat_t, 25.0 / 4 * seg_msg, 1e-9, "16 segments at 4 untiered: 25 messages over 4");
        ok(tier_t > flat_t && tier_t <= flat_t + 16 * X / 4 + 1e-9,
           "16 segments at 4 over nodes of 2: the tier's X on rank 2's segments (%.3f, untiered "
           "%.3f, X %.1f)",
           tier_t, flat_t, X);
    }
    /* Binomial bcast at 4 over nodes of 2, below CF_EAGER_MAX: 0 sends to 2 and 1 at once
     * (tree_msg of 2: c2), 2's message crosses; 2 sends to 3 in its node (one message). The
     * ranks' arrivals 0, c2, c2 + X, c2 + X + 2 T2. */
    cf_tiers pairs = {.n = 1, .ranks = {2}, .extra_us = {X},
                      .base_us = 1.0, .rendezvous = 0, .probed = 8};
    double s4 = 256, one4 = unit(s4), c2 = 2 * (one4 + (one4 - unit(UM[0])));
    near(cf_steps_cost_tiered(CF_STEPS_BCAST_BINOMIAL, 4, s4, UM, ut, NUM, &pairs, NULL, 0),
         (3 * c2 + 2 * X + 2 * one4) / 4, 1e-9, "eager binomial bcast at 4 over 2 nodes");
    /* From CF_EAGER_MAX level by level: 0 sends to 2 (crossing), then to 1; 2 to 3 in its
     * node. 2 has its data at b + X, 1 and 3 at 2b + X; 0 and 2 leave after their last
     * level, with 1 and 3: every rank at 2b + X. */
    double b = 2 * unit(65536);
    near(cf_steps_cost_tiered(CF_STEPS_BCAST_BINOMIAL, 4, 65536, UM, ut, NUM, &pairs, NULL, 0),
         2 * b + X, 1e-9, "binomial bcast at 4 over 2 nodes from 64 KiB: level by level");
}

/* The one-way latency the tiers say between ranks i and j (as the replay reads them). */
static double tier_lat(const void *ctx, long i, long j)
{
    const cf_tiers *t = ctx;
    for (int k = t->n; k-- > 0;)
        if (i / t->ranks[k] != j / t->ranks[k])
            return t->base_us + t->extra_us[k];
    return t->base_us;
}

/* Bruck's alltoall over latency tiers: nodes of 2 ranks in a row, X us farther apart than
 * ranks 0 and 1; each step's message 2 T2 at its blocks' bytes. Worked by hand. */
static void tiered_bruck(const double *ut)
{
    double m = 64, X = 7.5, msg = 2 * cf_unit_time(UM, ut, NUM, 2 * m);
    cf_tiers nodes = {.n = 1, .ranks = {2}, .extra_us = {X},
                      .base_us = 1.0, .rendezvous = 0, .probed = 8}, none = {0};
    /* At 4 each step sends 2 blocks. Distance 1: 0 <- 3 and 2 <- 1 cross (0 and 2 at
     * msg + X, 1 and 3 at msg); distance 2: every pair crosses, 0 <- 2 and 2 <- 0 after
     * msg + X, 1 <- 3 and 3 <- 1 after msg: 2 msg + 1.5 X on average. */
    near(cf_steps_cost_tiered(CF_STEPS_BRUCK_ALLTOALL, 4, m, UM, ut, NUM, &nodes, NULL, 0),
         2 * msg + 1.5 * X, 1e-9, "Bruck at 4 over 2 nodes: the crossings wait on each other");
    /* From CF_EAGER_MAX a send waits for its message too: 1 and 3 wait on their sends to
     * the other node at distance 1, every rank leaves it at msg + X. */
    double big = 65536, bmsg = 2 * cf_unit_time(UM, ut, NUM, 2 * big);
    near(cf_steps_cost_tiered(CF_STEPS_BRUCK_ALLTOALL, 4, big, UM, ut, NUM, &nodes, NULL, 0),
         2 * bmsg + 2 * X, 1e-9, "Bruck at 4, 64 KiB blocks: senders wait for their message");
    /* A wait taken out (less_wait) is every rank's for the last to leave the barrier:
     * Open MPI's recursive doubling at 8 over nodes of 2 lets all leave at once, none. */
    near(cf_steps_cost_tiered(CF_STEPS_BRUCK_ALLTOALL, 8, m, UM, ut, NUM, &nodes, "smpi-ompi", 1),
         cf_steps_cost_tiered(CF_STEPS_BRUCK_ALLTOALL, 8, m, UM, ut, NUM, &nodes, NULL, 0), 1e-9,
         "Bruck at 8 after a barrier that leaves no rank behind: as all at once");
    /* After MPICH's dissemination barrier at 6 over nodes of 2 and groups of 4, whose ranks
     * leave apart: less_wait takes out every rank's wait for the last (the last exit less
     * their mean), as the fit takes it from an alltoall's times. */
    cf_tiers groups = {.n = 2, .ranks = {2, 4}, .extra_us = {X, 3 * X},
                       .base_us = 1.0, .rendezvous = 1, .probed = 8};
    double e[6], last = 0, mean = 0;
    ok(cf_barrier_exits("dissemination", 6, tier_lat, &groups, CF_PROTO_RENDEZVOUS, e) == 0,
       "dissemination at 6 replays");
    for (int r = 0; r < 6; r++) {
        last = fmax(last, e[r]);
        mean += e[r] / 6;
    }
    ok(last - mean > 1, "its ranks leave apart (%.3f us)", last - mean);
    near(cf_steps_cost_tiered(CF_STEPS_BRUCK_ALLTOALL, 6, m, UM, ut, NUM, &groups, "smpi-mpich", 0) -
             cf_steps_cost_tiered(CF_STEPS_BRUCK_ALLTOALL, 6, m, UM, ut, NUM, &groups, "smpi-mpich",
                                  1),
         last - mean, 1e-9, "Bruck's wait taken out: the last exit less their mean");
    /* At 6 (no power of two) the steps send 3, 2 and 2 blocks; without tiers each rank pays
     * every step's message once. */
    cf_tiers flat = {.n = 1, .ranks = {1024}, .extra_us = {X},
                     .base_us = 1.0, .rendezvous = 0, .probed = 8};
    near(cf_steps_cost_tiered(CF_STEPS_BRUCK_ALLTOALL, 6, m, UM, ut, NUM, &flat, NULL, 0),
         2 * cf_unit_time(UM, ut, NUM, 3 * m) + 4 * cf_unit_time(UM, ut, NUM, 2 * m), 1e-9,
         "Bruck at 6 in one block: 3, 2 and 2 blocks a step");
    near(cf_steps_cost_tiered(CF_STEPS_BRUCK_ALLTOALL, 16, m, UM, ut, NUM, &none, NULL, 0),
         cf_steps_cost(CF_STEPS_BRUCK_ALLTOALL, 16, m, UM, ut, NUM), 1e-12, "no tiers: untiered");
    /* Past 4096 ranks the replay at 4096 is carried on: each step more pays its message and
     * the farthest tier (8192: 13 steps of 4096 blocks for 12 of 2048). */
    double r4k = cf_steps_cost_tiered(CF_STEPS_BRUCK_ALLTOALL, 4096, m, UM, ut, NUM, &nodes,
                                      NULL, 0);
    near(cf_steps_cost_tiered(CF_STEPS_BRUCK_ALLTOALL, 8192, m, UM, ut, NUM, &nodes, NULL, 0),
         r4k + 13 * 2 * cf_unit_time(UM, ut, NUM, 4096 * m) -
             12 * 2 * cf_unit_time(UM, ut, NUM, 2048 * m) + X,
         1e-9, "Bruck past 4096 ranks: a step more, its message and the farthest tier");
    ok(cf_steps_tiered(CF_STEPS_BRUCK_ALLTOALL) && cf_steps_tiered(CF_STEPS_BRUCK_GATHER),
       "Bruck's alltoall and its allgather are replayed over the tiers");
    /* Bruck's allgather at 6 sends min(d, 6 - d) blocks at the step of distance d: 1, 2, 2;
     * in one block each rank pays every step's message once. */
    near(cf_steps_cost_tiered(CF_STEPS_BRUCK_GATHER, 6, m, UM, ut, NUM, &flat, NULL, 0),
         2 * cf_unit_time(UM, ut, NUM, m) + 4 * cf_unit_time(UM, ut, NUM, 2 * m), 1e-9,
         "Bruck's allgather at 6 in one block: 1, 2 and 2 blocks a step");
    /* Across nodes of 2 (X us a crossing), every step crosses from its second on (1 crosses
     * for the odd ranks): no less than the messages and a crossing a step. */
    ok(cf_steps_cost_tiered(CF_STEPS_BRUCK_GATHER, 6, m, UM, ut, NUM, &nodes, NULL, 0) >=
           2 * cf_unit_time(UM, ut, NUM, m) + 4 * cf_unit_time(UM, ut, NUM, 2 * m) + 2 * X,
       "Bruck's allgather at 6 over nodes of 2: its crossings' latency added");
}

/* Open MPI's neighbor-exchange allgather over latency tiers: nodes of 2 ranks in a row, X us
 * farther apart than ranks 0 and 1; a message of b bytes 2 T2 at b. Worked by hand. */
static void tiered_neighbor(const double *ut)
{
    double m = 64, X = 7.5, one = 2 * cf_unit_time(UM, ut, NUM, m),
           two = 2 * cf_unit_time(UM, ut, NUM, 2 * m);
    cf_tiers nodes = {.n = 1, .ranks = {2}, .extra_us = {X},
                      .base_us = 1.0, .rendezvous = 0, .probed = 8}, none = {0};
    /* At 4: step 0 pairs 0-1 and 2-3 in their nodes (one block); step 1 pairs 0-3 and 2-1,
     * across (two blocks): every rank at one + two + X. */
    near(cf_steps_cost_tiered(CF_STEPS_NEIGHBOR, 4, m, UM, ut, NUM, &nodes, NULL, 0),
         one + two + X, 1e-9, "neighbor exchange at 4 over 2 nodes: one step across");
    /* At 6: steps 0 and 2 in the nodes, step 1 across (0-5, 2-1, 4-3). */
    near(cf_steps_cost_tiered(CF_STEPS_NEIGHBOR, 6, m, UM, ut, NUM, &nodes, NULL, 0),
         one + 2 * two + X, 1e-9, "neighbor exchange at 6: steps 0 and 2 inside, 1 across");
    /* At 3 (odd) the ring: 0 and 2 receive across at step 0 (one + X), 1 inside (one); at
     * step 1, 0 from 2 at 2 one + 2X, 1 from 0 at 2 one + X, 2 from 1 at 2 one + X. */
    near(cf_steps_cost_tiered(CF_STEPS_NEIGHBOR, 3, m, UM, ut, NUM, &nodes, NULL, 0),
         (6 * one + 4 * X) / 3, 1e-9, "neighbor exchange at 3 runs the ring");
    near(cf_steps_cost_tiered(CF_STEPS_NEIGHBOR, 16, m, UM, ut, NUM, &none, NULL, 0),
         cf_steps_cost(CF_STEPS_NEIGHBOR, 16, m, UM, ut, NUM), 1e-12, "no tiers: untiered");
    /* Past 256 ranks the replay at 256, times the untiered growth of its messages. */
    double r256 = cf_steps_cost_tiered(CF_STEPS_NEIGHBOR, 256, m, UM, ut, NUM, &nodes, NULL, 0);
    near(cf_steps_cost_tiered(CF_STEPS_NEIGHBOR, 1024, m, UM, ut, NUM, &nodes, NULL, 0),
         r256 * cf_steps_cost(CF_STEPS_NEIGHBOR, 1024, m, UM, ut, NUM) /
             cf_steps_cost(CF_STEPS_NEIGHBOR, 256, m, UM, ut, NUM),
         1e-9, "neighbor exchange past 256 ranks: the replay at 256 carried on");
    ok(cf_steps_tiered(CF_STEPS_NEIGHBOR) && !cf_steps_replays_traffic(CF_STEPS_NEIGHBOR),
       "the neighbor exchange is replayed over the tiers, without the probe's traffic");
}

/* Recursive doubling's allreduce over latency tiers: nodes of 2 ranks in a row, X us
 * farther apart than ranks 0 and 1; each exchange's message 2 T2 at m. Worked by hand. */
static void tiered_rdb(const double *ut)
{
    double m = 64, X = 7.5, msg = 2 * cf_unit_time(UM, ut, NUM, m);
    cf_tiers nodes = {.n = 1, .ranks = {2}, .extra_us = {X},
                      .base_us = 1.0, .rendezvous = 0, .probed = 8}, none = {0};
    /* At 4: distance 1 in the nodes (all at msg), distance 2 across (msg + X more). */
    near(cf_steps_cost_tiered(CF_STEPS_FOLD, 4, m, UM, ut, NUM, &nodes, NULL, 0), 2 * msg + X, 1e-9,
         "recursive doubling at 4 over 2 nodes: one step across");
    /* At 6 the even ranks 0 and 2 fold into 1 and 3 (in their nodes: 1 and 3 at msg); the
     * doubling runs over 1, 3, 4, 5: distance 1 pairs 1-3 (across: 2 msg + X) and 4-5 (msg),
     * distance 2 pairs 1-4 and 3-5 (across: 1 and 3 stay at 2 msg + X, 4 and 5 reach
     * 3 msg + 2X); 1 and 3 send the result back (0 and 2 at 3 msg + X). */
    near(cf_steps_cost_tiered(CF_STEPS_FOLD, 6, m, UM, ut, NUM, &nodes, NULL, 0),
         (16 * msg + 8 * X) / 6, 1e-9, "recursive doubling at 6: folded in and out");
    /* The pair-exchange probe's level 1 (blocks of 4) adds Y a byte to the step across. */
    cf_tiers paired = nodes;
    double Y = 0.01;
    paired.npair = 2;
    paired.pair_us_per_byte[1] = Y;
    near(cf_steps_cost_tiered(CF_STEPS_FOLD, 4, m, UM, ut, NUM, &paired, NULL, 0),
         2 * msg + X + Y * m, 1e-9,
         "recursive doubling at 4: the probe's traffic on the step across");
    /* Past the probe's levels, the farthest level's: at 8 both steps past level 0 pay Y. */
    near(cf_steps_cost_tiered(CF_STEPS_FOLD, 8, m, UM, ut, NUM, &paired, NULL, 0) -
             cf_steps_cost_tiered(CF_STEPS_FOLD, 8, m, UM, ut, NUM, &nodes, NULL, 0),
         2 * Y * m, 1e-9, "recursive doubling at 8: the farthest level past the probe's");
    /* The probe's distances, where recorded, instead: the step of distance 2 at 4 ranks pays
     * level 1's distance 1 (Z), at 8 ranks level 2's (2Z: more ranks sending), the step of
     * distance 4 level 2's distance 2 (3Z). */
    cf_tiers dist = paired;
    double Z = 0.02;
    dist.ndist = 3;
    dist.dist_us_per_byte[CF_TIERS_DIST_ROW(1) + 1] = Z;
    dist.dist_us_per_byte[CF_TIERS_DIST_ROW(2) + 1] = 2 * Z;
    dist.dist_us_per_byte[CF_TIERS_DIST_ROW(2) + 2] = 3 * Z;
    near(cf_steps_cost_tiered(CF_STEPS_FOLD, 4, m, UM, ut, NUM, &dist, NULL, 0),
         2 * msg + X + Z * m, 1e-9, "recursive doubling at 4: the distance across at level 1");
    near(cf_steps_cost_tiered(CF_STEPS_FOLD, 8, m, UM, ut, NUM, &dist, NULL, 0) -
             cf_steps_cost_tiered(CF_STEPS_FOLD, 8, m, UM, ut, NUM, &nodes, NULL, 0),
         5 * Z * m, 1e-9, "recursive doubling at 8: level 2's distances 2 and 4, 2Z and 3Z");
    /* Past the probe's levels, its largest level's row: at 16, distances 2, 4 at level 2's
     * and 8 at its farthest (3Z). */
    near(cf_steps_cost_tiered(CF_STEPS_FOLD, 16, m, UM, ut, NUM, &dist, NULL, 0) -
             cf_steps_cost_tiered(CF_STEPS_FOLD, 16, m, UM, ut, NUM, &nodes, NULL, 0),
         8 * Z * m, 1e-9, "recursive doubling at 16: past the levels, the largest's row");
    /* The sized probe's tier at 1 KiB (3X) from 1 KiB on: at 4 KiB the step across pays it,
     * at 64 B the 8-byte probe's X. */
    cf_tiers sized = nodes;
    sized.nsized = 1;
    sized.sized_bytes[0] = 1024;
    sized.sized_extra_us[0][0] = 3 * X;
    double big = 4096, bmsg = 2 * cf_unit_time(UM, ut, NUM, big);
    near(cf_steps_cost_tiered(CF_STEPS_FOLD, 4, big, UM, ut, NUM, &sized, NULL, 0),
         2 * bmsg + 3 * X, 1e-9, "recursive doubling at 4, 4 KiB: the tier at its size");
    near(cf_steps_cost_tiered(CF_STEPS_FOLD, 4, m, UM, ut, NUM, &sized, NULL, 0), 2 * msg + X,
         1e-9, "recursive doubling at 4, 64 B: below the sized probe, the 8-byte one's");
    near(cf_steps_cost_tiered(CF_STEPS_FOLD, 16, m, UM, ut, NUM, &none, NULL, 0),
         cf_steps_cost(CF_STEPS_FOLD, 16, m, UM, ut, NUM), 1e-12, "no tiers: untiered");
    /* Past 4096 ranks: a step more, its message and the farthest tier. */
    double r4k = cf_steps_cost_tiered(CF_STEPS_FOLD, 4096, m, UM, ut, NUM, &nodes, NULL, 0);
    near(cf_steps_cost_tiered(CF_STEPS_FOLD, 8192, m, UM, ut, NUM, &nodes, NULL, 0), r4k + msg + X,
         1e-9, "recursive doubling past 4096 ranks: a step more");
    ok(cf_steps_tiered(CF_STEPS_FOLD) && cf_steps_replays_traffic(CF_STEPS_FOLD) &&
           !cf_steps_tiered(CF_STEPS_SMP_FOLD) &&
           !cf_steps_replays_traffic(CF_STEPS_BRUCK_ALLTOALL),
       "recursive doubling is replayed with the probe's traffic, SMPI's two-level one not");
}

static void steps(void)
{
    double ut[NUM];
    for (int i = 0; i < NUM; i++)
        ut[i] = unit(UM[i]);
    /* Log-log between the samples is exact for a power law. */
    double pm[] = {1, 4, 16, 64}, pt[] = {3, 6, 12, 24};
    near(cf_unit_time(pm, pt, 4, 8), 3 * sqrt(8), 1e-12, "T2 log-log between samples");
    near(cf_unit_time(pm, pt, 4, 0), 3, 1e-12, "T2 below the smallest: its time");
    /* Above the largest: the line in bytes through the two largest, from the largest. */
    near(cf_unit_time(pm, pt, 4, 256), 24 + 192 * 0.25, 1e-12,
         "T2 above the largest: the top pair's latency and time per byte");
    double hm[] = {1024, 4096, 65536}, ht[] = {2 + 1024e-3, 2 + 4096e-3, 2 + 65536e-3};
    near(cf_unit_time(hm, ht, 3, 1048576), 2 + 1048576e-3, 1e-9,
         "T2 above the largest: exact on an affine time");
    /* A top pair steeper than linear (ORFEO's bcast units at 512 KiB and 1 MiB): the unit
     * never falls past its largest size, nor grows faster than the bytes. */
    double om[] = {262144, 524288, 1048576}, ot[] = {19.72, 24.66, 100.28};
    near(cf_unit_time(om, ot, 3, 1572864), 100.28 * 1.5, 1e-9,
         "T2 above a steep top pair: linear from the largest, not below it");
    double fm[] = {1024, 2048, 4096}, ft[] = {3, 5, 4};
    near(cf_unit_time(fm, ft, 3, 65536), 4 + (65536 - 4096) * (4 - 3) / (4096.0 - 1024), 1e-12,
         "T2 above a falling top pair: the chord back to 1 KiB, the nearest size below that "
         "took less time (flat before)");
    double gm[] = {1024, 2048, 4096}, gt[] = {5, 6, 4};
    near(cf_unit_time(gm, gt, 3, 65536), 4, 1e-12,
         "T2 above a top below every size: flat, never falling");
    /* Costs at sampled sizes. */
    double m = 65536;
    near(cf_steps_cost(CF_STEPS_RING, 8, m, UM, ut, NUM), 7 * unit(m), 1e-9, "ring: 7 steps");
    near(cf_steps_cost(CF_STEPS_LG, 12, m, UM, ut, NUM), 4 * unit(m), 1e-9,
         "binomial at np 12: 4 steps");
    near(cf_steps_cost(CF_STEPS_DOUBLING, 4, 524288, UM, ut, NUM), unit(524288) + unit(1048576),
         1e-9, "recursive doubling: m, then 2m");
    near(cf_steps_cost(CF_STEPS_BRUCK_GATHER, 6, 65536, UM, ut, NUM),
         unit(65536) + 2 * unit(131072), 1e-9, "Bruck at np 6: 1, 2, 2 blocks");
    /* recursive doubling's reduce-scatter: the p - 2^j blocks outside the subtree; at 5 the
     * last step's block of 8 holds 1 rank above its half, and ranks 1 to 3 get theirs from
     * the halving (rank 2 at its first sub-step, 1 and 3 at its second): 5 sub-steps of a
     * message of the 4 blocks outside rank 4's subtree, over the 5 ranks (T: the unit's
     * curve at the bytes, between its sizes) */
#define T(b) cf_unit_time(UM, ut, NUM, (b) * 1024.0)
    near(cf_steps_cost(CF_STEPS_RS_DOUBLING, 4, 1024, UM, ut, NUM), T(3) + T(2), 1e-9,
         "reduce-scatter by recursive doubling at 4: 3 blocks, then 2");
    near(cf_steps_cost(CF_STEPS_RS_DOUBLING, 5, 1024, UM, ut, NUM),
         T(4) + T(3) + T(1) + 5.0 / 5 * T(4), 1e-9,
         "at 5: 4, 3 and 1 blocks, the havenots' 5 sub-steps of 4 blocks over 5 ranks");
    near(cf_steps_cost(CF_STEPS_RS_DOUBLING, 3, 1024, UM, ut, NUM), T(2) + T(1) + 1.0 / 3 * T(2),
         1e-9, "at 3: 2 and 1 blocks, rank 1's sub-step of 2 blocks over 3 ranks");
    /* Open MPI's recursive halving: at 5, rank 0's whole vector (5 blocks) into rank 1 first;
     * among the 4 left (rank 1 holding 2 blocks) the larger half of 3 blocks; then ranks 0 and
     * 1 (3 of 5) wait for 2 blocks, the others (2 of 5) for 1; rank 0's block back (1 of 5) */
    near(cf_steps_cost(CF_STEPS_RS_HALVING, 4, 1024, UM, ut, NUM), T(2) + T(1), 1e-9,
         "reduce-scatter by Open MPI's halving at 4: 2 blocks, then 1");
    near(cf_steps_cost(CF_STEPS_RS_HALVING, 5, 1024, UM, ut, NUM),
         T(5) + T(3) + 3.0 / 5 * T(2) + 2.0 / 5 * T(1) + 1.0 / 5 * T(1), 1e-9,
         "at 5: the fold of 5 blocks, 3, 2 or 1, the block back");
    static const double one_bytes[2] = {1.0, 1e15}, one_us[2] = {1.0, 1.0};
    near(cf_steps_cost(CF_STEPS_RS_HALVING, 5, 1024, one_bytes, one_us, 2), 1 + 2 + 1.0 / 5,
         1e-9, "at 5: 3.2 messages in the ranks' mean");
    /* a gatherv then a binomial bcast at 4: the gather's message, then the tree's ranks
     * at 0, 1, 1 and 2 messages (rank 0's two sends at once, eager, each its own) */
    near(cf_steps_cost(CF_STEPS_GATHER_BCAST, 4, 8, one_bytes, one_us, 2), 1 + 1.0, 1e-9,
         "gatherv + bcast at 4: 1 message, then the tree's mean of 1");
#undef T
    near(cf_steps_cost(CF_STEPS_BRUCK_ALLTOALL, 16, 8192, UM, ut, NUM), 4 * unit(65536), 1e-9,
         "Bruck's alltoall: lg p steps of p*m/2");
    near(cf_steps_cost(CF_STEPS_HALVING2, 8, 1048576, UM, ut, NUM),
         2 * (unit(524288) + unit(262144) + unit(131072)), 1e-9, "Rabenseifner: halving and back");
    near(cf_steps_cost(CF_STEPS_LG2, 8, m, UM, ut, NUM), 6 * unit(m), 1e-9,
         "reduce + bcast: 2 lg p");
    near(cf_steps_cost(CF_STEPS_RING2, 16, 1048576, UM, ut, NUM), 30 * unit(65536), 1e-9,
         "ring allreduce: 2(p-1) steps of m/p");
    near(cf_steps_cost(CF_STEPS_PIPELINE, 8, 262144, UM, ut, NUM), 10 * unit(65536), 1e-9,
         "pipeline: p-2 + 4 segments of 64 KiB");
    near(cf_steps_cost(CF_STEPS_PIPELINE, 8, 4096, UM, ut, NUM), 7 * unit(4096), 1e-9,
         "pipeline of one segment: p-1 steps");
    near(cf_steps_cost(CF_STEPS_BINARY, 2, m, UM, ut, NUM), unit(m), 1e-9, "binary at 2: 1");
    near(cf_steps_cost(CF_STEPS_BINARY, 7, m, UM, ut, NUM), 2 * unit(m), 1e-9,
         "binary at 7: 2 levels");
    near(cf_steps_cost(CF_STEPS_BINARY, 16, m, UM, ut, NUM), 4 * unit(m), 1e-9,
         "binary at 16: 4 levels");
    near(cf_steps_cost(CF_STEPS_NEIGHBOR, 8, m, UM, ut, NUM), unit(m) + 3 * unit(131072), 1e-9,
         "neighbor exchange at 8: m, then 3 of 2m");
    per_call_trees(ut);
    tiered_trees(ut);
    tiered_bruck(ut);
    tiered_rdb(ut);
    tiered_neighbor(ut);
    smp_fold(ut);
}

/* The steps rule set `rules` runs for pattern at (p, m), costed with unit() sampled at the n
 * sizes (at most 16) a table measured, its tree bcasts' messages sent at once loading their
 * sender's link by load each (cf_steps_cost_loaded): what such a table's np=2 and grid see. */
static double rules_truth(const char *rules, const char *pattern, long p, double m,
                          const double *sizes, int n, double load)
{
    double ut[16];
    for (int i = 0; i < n; i++)
        ut[i] = unit(sizes[i]);
    cf_rule_alg a;
    cf_rules_pick(rules, 0, pattern, p, m, &a);
    return cf_steps_cost_loaded(a.steps, p, m, sizes, ut, n, load);
}

/* SMPI's ompi allreduce runs at np=2 a ring of two half-size steps at some sizes, recursive
 * doubling (one full step) at others, Rabenseifner above 256 KiB: the grid's unit is the
 * point-to-point step those imply, not the np=2 times themselves, so recursive doubling at
 * np=64 on sizes it never ran at below 64 costs lg p full steps. */
static const double AR_SIZES[] = {4,     16,    64,     256,     1024,   4096,
                                  16384, 65536, 262144, 1048576, 2097152};
#define NAR 11

static double allreduce_truth(long p, double m)
{
    return rules_truth("smpi-ompi", "allreduce", p, m, AR_SIZES, NAR, 1.0);
}

static void unit_np2(void)
{
    static const long nps[] = {2, 4, 8, 16};
    cf_point pts[4 * NAR];
    size_t n = 0;
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < NAR; i++)
            pts[n++] = (cf_point){nps[a], AR_SIZES[i], allreduce_truth(nps[a], AR_SIZES[i])};
    static cf_across a;
    cf_error e;
    cf_error_clear(&e);
    ok(cf_across_fit_points(cf_coll_find("allreduce"), "float", pts, n, &a, &e) == 0,
       "allreduce at np 2-16 fits");
    cf_across_grid_build(&a, "smpi-ompi", pts, n, NULL, NULL);
    is_str(a.grid.rules, "smpi-ompi", "smpi-ompi: a grid");
    double worst = 0;
    for (int i = 0; i < a.grid.nunit; i++)
        worst = fmax(worst, fabs(a.grid.unit_t_us[i] - unit(a.grid.unit_bytes[i])) /
                                unit(a.grid.unit_bytes[i]));
    ok(worst < 0.05, "the unit is the point-to-point step within 5%% (worst %.3f)", worst);
    double m[] = {16384, 65536};
    for (int i = 0; i < 2; i++) {
        cf_estimate est;
        cf_across_predict(&a, 64, m[i], &est);
        double want = allreduce_truth(64, m[i]);
        ok(fabs(est.t_us - want) / want < 0.1 && est.lo_us <= want && want <= est.hi_us,
           "recursive doubling at np 64, %.0f bytes, never run below: %.2f us for %.2f, in "
           "[%.2f, %.2f]",
           m[i], est.t_us, want, est.lo_us, est.hi_us);
    }
}

/* A measured table: allgather at nps x sizes from the rules, T = steps costed with T2 times
 * (1 + kappa * max(0, p - 8) / (p - 1)) on the ring, a per-step cost that grows beyond 8
 * processes; times exp(noise * N(0,1)). */
static const double SIZES[] = {1, 16, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 2097152};
#define NS 10

/* T2 sampled where the table is: what the grid sees at np=2. */
static double allgather_truth(long p, double m, double kappa)
{
    cf_rule_alg a;
    cf_rules_pick("smpi-mpich", 0, "allgather", p, m, &a);
    double t = rules_truth("smpi-mpich", "allgather", p, m, SIZES, NS, 1.0);
    if (a.steps == CF_STEPS_SPREAD && p > 8)
        t += kappa * (double)(p - 8) * unit(m);
    return t;
}

static size_t make(const long *nps, int nnp, double kappa, double noise, gsl_rng *r, cf_point *pts)
{
    size_t n = 0;
    for (int a = 0; a < nnp; a++)
        for (int i = 0; i < NS; i++) {
            double t = allgather_truth(nps[a], SIZES[i], kappa);
            if (noise > 0)
                t *= exp(noise * gsl_ran_gaussian(r, 1.0));
            pts[n++] = (cf_point){nps[a], SIZES[i], t};
        }
    return n;
}

static int fit(const cf_point *pts, size_t n, cf_across *a)
{
    cf_error e;
    cf_error_clear(&e);
    if (cf_across_fit_points(cf_coll_find("allgather"), "byte", pts, n, a, &e) != 0 ||
        a->error[0] != '\0')
        return -1;
    cf_across_grid_build(a, "smpi-mpich", pts, n, NULL, NULL);
    return a->grid.rules[0] != '\0' ? 0 : -1;
}

static void exact(void)
{
    static const long nps[] = {2, 4, 8, 12, 16};
    static cf_across a;
    cf_point pts[5 * NS];
    size_t n = make(nps, 5, 0.0, 0.0, NULL, pts);
    is_int(fit(pts, n, &a), 0, "exact allgather at np 2, 4, 8, 12, 16: a grid");
    near(a.grid.err_per_doubling, 0.0, 1e-9, "exact data: no backtested error");
    static const long q[] = {6, 24, 32, 48, 64, 128};
    double worst = 0, widest = 0, hull = 0;
    int covered = 1;
    for (int i = 0; i < 6; i++)
        for (int s = 0; s < NS; s++) {
            cf_estimate est;
            cf_across_predict(&a, q[i], SIZES[s], &est);
            double want = allgather_truth(q[i], SIZES[s], 0.0);
            worst = fmax(worst, fabs(est.t_us - want) / want);
            covered &= est.lo_us <= want && want <= est.hi_us;
            if (q[i] > 16) {
                widest = fmax(widest, est.hi_us / est.lo_us);
                continue;
            }
            /* Between np 4 and 8 the interval holds their times too, a little wider than
             * they lie apart: np 8's allgather costs up to 2.35 times np 4's here. */
            double t4 = allgather_truth(4, SIZES[s], 0.0), t8 = allgather_truth(8, SIZES[s], 0.0);
            hull = fmax(hull, est.hi_us / est.lo_us);
            covered &= est.lo_us <= t4 / 1.05 * (1 + 1e-9) && est.hi_us >= t8 * 1.05 * (1 - 1e-9);
        }
    /* Switches on p*m moved with p: ring at np 64 from 8 KiB, Bruck at 24 and 48. */
    ok(worst < 1e-9, "exact: every np 6-128 and size to 1e-9 (worst %.2g)", worst);
    ok(covered, "exact: every interval covers, np 6's the measured np 4's and 8's times too");
    /* Within 2x until stop 82; since, the interval holds the readings with the unit at its
     * bounds between the measured sizes (the truth here interpolates it as the grid does,
     * a real one need not): recursive doubling at np 32 of 4096 B steps through 8192 and
     * 32768 B, between sizes 4 apart, [100.5, 209.7] about the exact 137.8. */
    ok(widest < 2.2, "exact: intervals within 2.2x at 3 doublings beyond (widest %.2f)", widest);
    ok(hull < 3.0, "exact: np 6's intervals within 3x (widest %.2f)", hull);
    /* The model file keeps the grid and predicts the same. */
    json_t *j = cf_across_to_json(&a);
    static cf_across b;
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_across_from_json(j, "m.json", 0, &b, &e), 0, "the grid reads back");
    cf_estimate x, y;
    cf_across_predict(&a, 64, 16384, &x);
    cf_across_predict(&b, 64, 16384, &y);
    near(y.t_us, x.t_us, 1e-12, "read back: the same prediction");
    near(y.hi_us, x.hi_us, 1e-12, "read back: the same interval");
    /* A hand-edited grid is refused with the member named. */
    static const struct {
        const char *member, *value, *msg;
    } bad[] = {
        {"rules", "\"ompi\"", "grid.rules"},
        {"unit", "[[1, 2.0]]", "grid.unit"},
        {"points", "[[1, 16, 2.0]]", "grid.points"},
        {"points", "[[4, 16, -2.0]]", "grid.points"},
        {"err_per_doubling", "-1", "grid.err_per_doubling"},
        {"tiers", "[[8, 2.5]]", "grid.tiers"},
        {"tiers", "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": []}",
         "grid.tiers.blocks"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8, 2.5], "
         "[8, 5.0]]}",
         "grid.tiers.blocks"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[1, 2.5]]}",
         "grid.tiers.blocks"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8.5, 2.5]]}",
         "grid.tiers.blocks"},
        {"tiers", "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8, 0]]}",
         "grid.tiers.blocks"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": "
         "[[2,1],[4,1],[8,1],[16,1],[32,1],"
         "[64,1],[128,1],[256,1],[512,1]]}",
         "grid.tiers.blocks"},
        {"tiers", "{\"base_us\": -1, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8, 2.5]]}",
         "grid.tiers.base_us"},
        {"tiers", "{\"base_us\": 0.4, \"rendezvous\": 1, \"probed_ranks\": 64, \"blocks\": [[8, 2.5]]}",
         "grid.tiers.rendezvous"},
        {"tiers", "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 1.5, \"blocks\": [[8, 2.5]]}",
         "grid.tiers.probed_ranks"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8, 2.5]], "
         "\"pair_us_per_byte\": [0.001, 0.002]}",
         "grid.tiers.pair_us_per_byte"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8, 2.5]], "
         "\"pair_us_per_byte\": [0, -0.002]}",
         "grid.tiers.pair_us_per_byte"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8, 2.5]], "
         "\"pair_us_per_byte\": []}",
         "grid.tiers.pair_us_per_byte"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8, 2.5]], "
         "\"pair_distance_us_per_byte\": [[0], [0, 0.1, 0.2]]}",
         "grid.tiers.pair_distance_us_per_byte"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8, 2.5]], "
         "\"pair_distance_us_per_byte\": [[0], [0, -0.1]]}",
         "grid.tiers.pair_distance_us_per_byte"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8, 2.5]], "
         "\"pair_distance_us_per_byte\": []}",
         "grid.tiers.pair_distance_us_per_byte"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8, 2.5]], "
         "\"sized\": [[1024, [3.0, 1.0]]]}",
         "grid.tiers.sized"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8, 2.5]], "
         "\"sized\": [[4096, [3.0]], [1024, [3.0]]]}",
         "grid.tiers.sized"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8, 2.5]], "
         "\"sized\": [[8, [3.0]]]}",
         "grid.tiers.sized"},
        {"tiers",
         "{\"base_us\": 0.4, \"rendezvous\": true, \"probed_ranks\": 64, \"blocks\": [[8, 2.5]], "
         "\"sized\": [[1024, [-3.0]]]}",
         "grid.tiers.sized"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *c = json_deep_copy(j), *v = json_loads(bad[i].value, JSON_DECODE_ANY, NULL);
        json_object_set_new(json_object_get(c, "grid"), bad[i].member, v);
        cf_error_clear(&e);
        ok(cf_across_from_json(c, "m.json", 0, &b, &e) == CF_EXIT_DATA &&
               strstr(e.msg, bad[i].msg) != NULL,
           "refused: grid.%s %s (%s)", bad[i].member, bad[i].value, e.msg);
        json_decref(c);
    }
    /* The probe's tiers read back, and cost the per-call trees as before. */
    json_t *tj = json_deep_copy(j);
    json_object_set_new(json_object_get(tj, "grid"), "tiers",
                        json_loads("{\"base_us\": 0.4, \"rendezvous\": false, \"probed_ranks\": "
                                   "64, \"blocks\": [[8, 2.5], [32, 7.5]], "
                                   "\"pair_us_per_byte\": [0.0, 0.0, 0.0003, 0.0003, 0.0015], "
                                   "\"pair_distance_us_per_byte\": [[0.0], [0.0, 0.0001], "
                                   "[0.0, 0.0002, 0.0004]], "
                   "\"sized\": [[1024.0, [3.0, 9.0]], [65536.0, [10.0, 30.0]]]}",
                                   0, NULL));
    cf_error_clear(&e);
    is_int(cf_across_from_json(tj, "m.json", 0, &b, &e), 0, "tiers read");
    ok(b.grid.tiers.n == 2 && b.grid.tiers.ranks[1] == 32 && b.grid.tiers.extra_us[1] == 7.5 &&
           b.grid.tiers.base_us == 0.4 && !b.grid.tiers.rendezvous && b.grid.tiers.probed == 64 &&
           isnan(b.grid.tiered_tree_err),
       "tiers: 2, the second of 32 ranks, 7.5 us; base 0.4 us, eager; no tiered backtest");
    ok(b.grid.tiers.npair == 5 && b.grid.tiers.pair_us_per_byte[4] == 0.0015,
       "tiers: the pair-exchange levels, 5, the farthest 0.0015 us a byte");
    ok(b.grid.tiers.ndist == 3 &&
           b.grid.tiers.dist_us_per_byte[CF_TIERS_DIST_ROW(2) + 1] == 0.0002 &&
           b.grid.tiers.dist_us_per_byte[CF_TIERS_DIST_ROW(1) + 1] == 0.0001,
       "tiers: the pair exchange's distances, 3 levels, level 2's distance 2 0.0002 us a byte");
    ok(b.grid.tiers.nsized == 2 && b.grid.tiers.sized_bytes[1] == 65536 &&
           b.grid.tiers.sized_extra_us[1][1] == 30.0 && b.grid.tiers.sized_extra_us[0][0] == 3.0,
       "tiers: the sized probe's, 2 sizes, the second block's 30 us at 64 KiB");
    json_object_set_new(json_object_get(tj, "grid"), "tiered_tree_err_per_doubling",
                        json_real(0.25));
    cf_error_clear(&e);
    ok(cf_across_from_json(tj, "m.json", 0, &b, &e) == 0 && b.grid.tiered_tree_err == 0.25,
       "the tiered trees' backtest read");
    json_object_set_new(json_object_get(tj, "grid"), "tiered_tree_err_per_doubling",
                        json_real(-0.25));
    cf_error_clear(&e);
    ok(cf_across_from_json(tj, "m.json", 0, &b, &e) == CF_EXIT_DATA &&
           strstr(e.msg, "grid.tiered_tree_err_per_doubling") != NULL,
       "a negative one refused (%s)", e.msg);
    json_object_set_new(json_object_get(tj, "grid"), "tiered_tree_err_per_doubling",
                        json_real(0.25));
    cf_error_clear(&e);
    cf_across_from_json(tj, "m.json", 0, &b, &e);
    json_t *back = cf_across_to_json(&b);
    ok(back != NULL && json_equal(json_object_get(json_object_get(back, "grid"), "tiers"),
                                  json_object_get(json_object_get(tj, "grid"), "tiers")),
       "tiers written back as read");
    json_decref(back);
    json_decref(tj);
    json_t *old = json_deep_copy(j);
    json_object_del(old, "grid");
    is_int(cf_across_from_json(old, "m.json", 0, &b, &e), 0, "a file without a grid reads");
    ok(b.grid.rules[0] == '\0', "and has none");
    json_decref(old);
    json_decref(j);
}

/* Open MPI's bcast at np=2 runs segmented algorithms whose times are no one message's: the
 * per-call trees cost their messages with the ping-pong. Exact data: a message takes
 * c(m) = 0.001 m^0.9 us, the np=2 bcast T2(m) = 0.01 m^0.5; the binomial tree at np 16 waits
 * for each of its 4 levels (from 64 KiB): 4 c(m); the 4-nomial at np 64 (never measured)
 * 3 levels of 3 messages at once: 3 c(3m), read from the binomial's cost per message. */
static double msg_time(double m)
{
    return 1e-3 * pow(m, 0.9);
}

static void message_unit(void)
{
    static const double sz[] = {4096, 65536, 262144, 1048576};
    static cf_across a, b;
    static cf_contention pp;
    cf_point pts[12];
    size_t n = 0;
    pp.np = 2;
    snprintf(pp.pattern, sizeof pp.pattern, "pingpong");
    for (int i = 0; i < 4; i++) {
        pts[n++] = (cf_point){2, sz[i], 1e-2 * sqrt(sz[i])};
        pp.unit_bytes[pp.nunit] = sz[i];
        pp.unit_t_us[pp.nunit++] = msg_time(sz[i]);
    }
    for (int i = 0; i < 4; i++) /* linear at np 4 and 8: another algorithm, a fit of 3 np */
        pts[n++] =
            (cf_point){i < 2 ? 4 : 8, sz[1 + i % 2], (i < 2 ? 3 : 7) * msg_time(sz[1 + i % 2])};
    pts[n++] = (cf_point){16, 65536, 4 * msg_time(65536)};
    pts[n++] = (cf_point){16, 262144, 4 * msg_time(262144)};
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_across_fit_points(cf_coll_find("bcast"), "byte", pts, n, &a, &e), 0,
           "bcast at np 2-16 fits");
    b = a;
    cf_across_grid_build(&a, "smpi-ompi", pts, n, &pp, NULL);
    cf_across_grid_build(&b, "smpi-ompi", pts, n, NULL, NULL);
    double t = 0, tb = 0, lo, hi;
    const char *alg;
    double want = 3 * msg_time(3 * 65536);
    int rc = grid_predict(&a, 64, 65536, &t, &lo, &hi, &alg);
    ok(rc == 0 && fabs(t - want) < 1e-9 * want,
       "4-nomial at np 64 from the binomial at 16 through the ping-pong: %.3f us for %.3f", t,
       want);
    rc = grid_predict(&b, 64, 65536, &tb, &lo, &hi, &alg);
    ok(rc == 0 && fabs(tb - want) > 0.2 * want,
       "through the np=2 bcast instead: %.3f us, 20%% off or more", tb);
    /* The model file keeps the message unit. */
    json_t *j = cf_across_to_json(&a);
    cf_error_clear(&e);
    rc = j != NULL ? cf_across_from_json(j, "m.json", 0, &b, &e) : -1;
    tb = 0;
    if (rc == 0)
        grid_predict(&b, 64, 65536, &tb, &lo, &hi, &alg);
    ok(rc == 0 && b.error[0] == '\0' && b.grid.nmsg == 4 && tb == t,
       "the message unit reads back: the same prediction (%.3f; %s)", tb, e.msg);
    json_decref(j);
}

static void contention(void)
{
    static const long nps[] = {2, 4, 8, 16, 32};
    static cf_across a, flat;
    cf_point pts[5 * NS];
    size_t n = make(nps, 5, 3.0, 0.0, NULL, pts);
    is_int(fit(pts, n, &a), 0, "ring cost per step x4 beyond np 8: a grid");
    n = make(nps, 5, 0.0, 0.0, NULL, pts);
    is_int(fit(pts, n, &flat), 0, "the same without contention");
    /* The line through np 16 and 32 carries the grown cost per step to 64 exactly. */
    double m = 1048576;
    cf_estimate est, ef;
    cf_across_predict(&a, 64, m, &est);
    cf_across_predict(&flat, 64, m, &ef);
    near(est.t_us, allgather_truth(64, m, 3.0), 1e-9, "np 64, 1 MiB: exact");
    /* Set in between 8 and 16, it shows in reading np 16 from 4 and 8 at that size. */
    ok(est.hi_us / est.lo_us > ef.hi_us / ef.lo_us,
       "contention seen: a wider interval than without (%.2f > %.2f)", est.hi_us / est.lo_us,
       ef.hi_us / ef.lo_us);
}

/* Open MPI's alltoall (SMPI's ompi selector) at 1 MiB runs pairwise at np 2, linear from 4 to
 * 32 and pairwise again at 64: both p-1 steps of m. A network whose cost per step grows
 * beyond 8 processes, (1 + kappa (p - 8) / (p - 1)), shows it only in the linear points; the
 * pairwise reading from np 2 alone carries none of it. */
static double alltoall_truth(long p, double m, double kappa)
{
    double ut[NS];
    for (int i = 0; i < NS; i++)
        ut[i] = unit(SIZES[i]);
    cf_rule_alg a;
    cf_rules_pick("smpi-ompi", 0, "alltoall", p, m, &a);
    double t = cf_steps_cost(a.steps, p, m, SIZES, ut, NS);
    if (a.steps == CF_STEPS_RING && p > 8)
        t += kappa * (double)(p - 8) * unit(m);
    return t;
}

static int fit_alltoall(double kappa, cf_across *a)
{
    static const long nps[] = {2, 4, 8, 16, 32};
    cf_point pts[5 * NS];
    size_t n = 0;
    for (int i = 0; i < 5; i++)
        for (int s = 0; s < NS; s++)
            pts[n++] = (cf_point){nps[i], SIZES[s], alltoall_truth(nps[i], SIZES[s], kappa)};
    cf_error e;
    cf_error_clear(&e);
    if (cf_across_fit_points(cf_coll_find("alltoall"), "byte", pts, n, a, &e) != 0)
        return -1;
    cf_across_grid_build(a, "smpi-ompi", pts, n, NULL, NULL);
    return a->grid.rules[0] != '\0' ? 0 : -1;
}

static void contention_other_algorithm(void)
{
    static cf_across a, flat;
    is_int(fit_alltoall(3.0, &a), 0, "alltoall, cost per step x4 beyond np 8: a grid");
    is_int(fit_alltoall(0.0, &flat), 0, "the same without contention");
    double m = 1048576, t, lo, hi, tf, lof, hif;
    const char *alg = "", *algf = "";
    int rc = grid_predict(&a, 64, m, &t, &lo, &hi, &alg);
    int rcf = grid_predict(&flat, 64, m, &tf, &lof, &hif, &algf);
    ok(rc == 0 && rcf == 0 && strcmp(alg, "pairwise") == 0, "np 64, 1 MiB: pairwise (%s)", alg);
    /* Without contention the per step cost of linear is pairwise's at np 2: exact. */
    double want = alltoall_truth(64, m, 0.0);
    near(tf, want, 1e-9 * want, "no contention: pairwise from np 2, exact");
    /* With it, linear's per step cost grew 3.3-fold from np 2 to 32 (1 + 3 * 24 / 31): the
     * pairwise reading takes that growth, and misses only the growth from 32 to 64 (the
     * truth's 1 + 3 * 56 / 63 is 3.7-fold): 9.4% low. Without it: 73% low. */
    want = alltoall_truth(64, m, 3.0);
    ok(fabs(t - want) / want < 0.12, "contention seen at np 16-32 by linear: %.1f us for %.1f", t,
       want);
    ok(lo <= want && want <= hi, "and covered: [%.1f, %.1f]", lo, hi);
    /* Whether linear's growth carries over to pairwise is untested: the interval still holds
     * the reading without it (pairwise from np 2 alone, as the grid without contention reads
     * it), widened as much as the reading with it (hi / t). */
    ok(lo <= tf / (hi / t) * (1 + 1e-9),
       "the lower bound %.1f holds the reading without the growth, %.1f / %.2f", lo, tf, hi / t);
    /* The fitted model's backtest bounds the reading with the growth over the doublings from
     * np 32, whose growth it carries (and one for pairwise having run at np 2 alone), and the
     * reading without it over those from np 2: only the lower end reaches that far (both did,
     * x3e6 each way on SimGrid's fat nodes). */
    cf_estimate est;
    rc = grid_predict(&a, 64, m, &t, &lo, &hi, &alg) | cf_across_grid_predict(&a, 64, m, &est);
    double fe = cf_across_extrap_err(&a, m, NULL);
    ok(rc == 0 && est.bt_lo_from == 2 && est.bt_lo_doublings == 5 && est.bt_err == fe &&
           t / lo > exp(5 * fe) && hi / t < exp(5 * fe),
       "the lower end widened over 5 doublings from np 2 (%ld, %.3g: x%.3g), the upper end "
       "not (x%.3g)",
       est.bt_lo_from, est.bt_lo_doublings, t / lo, hi / t);
}

static void noisy(void)
{
    static const long nps[] = {2, 4, 8, 16};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 16);
    static cf_across a;
    cf_point pts[4 * NS];
    size_t n = make(nps, 4, 0.0, 0.01, r, pts);
    is_int(fit(pts, n, &a), 0, "1%% noise: a grid");
    int covered = 0;
    double err[NS];
    for (int s = 0; s < NS; s++) {
        cf_estimate est;
        cf_across_predict(&a, 64, SIZES[s], &est);
        double want = allgather_truth(64, SIZES[s], 0.0);
        err[s] = fabs(est.t_us - want) / want;
        covered += est.lo_us <= want && want <= est.hi_us;
    }
    for (int i = 1; i < NS; i++)
        for (int j = i; j > 0 && err[j - 1] > err[j]; j--) {
            double t = err[j];
            err[j] = err[j - 1];
            err[j - 1] = t;
        }
    /* Tolerances: the line through two noisy points read 2 doublings on amplifies 1% noise
     * to about 10% at the worst sizes; the median stays within 10%, and 9 of 10 covered. */
    ok(err[NS / 2] < 0.10, "1%% noise, np 64: median error %.1f%% < 10%%", 100 * err[NS / 2]);
    ok(covered >= 9, "1%% noise, np 64: %d of 10 intervals cover", covered);
    gsl_rng_free(r);
}

/* Open MPI's reduce trees costed per call from the ping-pong's message, c(m) = 1 + m/1000
 * us: exact data at np 2-16 (the trees only, and np=2) with the np 16 points times
 * grow16. At np 64, 1 KiB, the binomial tree never ran at the measured np (binary trees
 * there): an untested tree read from the binary tree's cost per message at np 16. */
static double tree_msg(double m)
{
    return 1.0 + 1e-3 * m;
}

static void reduce_trees(double grow16, cf_across *a, cf_contention *pp)
{
    static const long nps[] = {2, 4, 8, 16};
    static const double sz[] = {4, 64, 1024, 4096, 16384, 65536, 262144, 1048576};
    double mb[8], mu[8];
    cf_point pts[32];
    size_t n = 0;
    memset(pp, 0, sizeof *pp);
    pp->np = 2;
    snprintf(pp->pattern, sizeof pp->pattern, "pingpong");
    for (int i = 0; i < 8; i++) {
        pp->unit_bytes[pp->nunit] = mb[i] = sz[i];
        pp->unit_t_us[pp->nunit++] = 2 * (mu[i] = tree_msg(sz[i]));
    }
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 8; i++) {
            cf_rule_alg r;
            if (cf_rules_pick("smpi-ompi", 0, "reduce", nps[j], sz[i], &r) != 0 ||
                (nps[j] > 2 && !cf_steps_per_call(r.steps)))
                continue;
            double t = cf_steps_per_call(r.steps) ? cf_steps_cost(r.steps, nps[j], sz[i], mb, mu, 8)
                                                  : 2 * tree_msg(sz[i]);
            pts[n++] = (cf_point){nps[j], sz[i], nps[j] == 16 ? grow16 * t : t};
        }
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_across_fit_points(cf_coll_find("reduce"), "float", pts, n, a, &e), 0,
           "reduce trees at np 2-16 (x%.1f at 16) fit", grow16);
    cf_across_grid_build(a, "smpi-ompi", pts, n, pp, NULL);
}

static void untested_trees(void)
{
    static cf_across a, b, c;
    static cf_contention pp;
    reduce_trees(1.0, &a, &pp);
    ok(isfinite(a.grid.tree_err) && a.grid.tree_err < 1e-9,
       "exact trees: the untested trees read at np 8 and 16 miss nothing (%.3g per doubling)",
       a.grid.tree_err);
    double mb[8], mu[8];
    for (int i = 0; i < 8; i++)
        mu[i] = tree_msg(mb[i] = pp.unit_bytes[i]);
    double want = cf_steps_cost(CF_STEPS_REDUCE_BINOMIAL, 64, 1024, mb, mu, 8);
    double t, lo, hi, tb, lob, hib;
    const char *alg;
    int rc = grid_predict(&a, 64, 1024, &t, &lo, &hi, &alg);
    ok(rc == 0 && strcmp(alg, "binomial tree") == 0 && fabs(t - want) < 1e-9 * want && lo <= want &&
           want <= hi,
       "np 64, 1 KiB: the binomial tree %.4f us in [%.4f, %.4f] for %.4f", t, lo, hi, want);
    /* Without it the fitted model's backtest bounds the reading: its formula, one cost in p
     * for trees the rules switch between, misses the np below by more. */
    b = a;
    b.grid.tree_err = NAN;
    rc = grid_predict(&b, 64, 1024, &tb, &lob, &hib, &alg);
    ok(rc == 0 && tb == t && hi / lo < hib / lob,
       "narrower than the fitted model's backtest band (x%.3f for x%.3f)", hi / lo, hib / lob);
    /* The model file keeps it; null or absent (a file from before it) reads as unknown. */
    json_t *j = cf_across_to_json(&a), *grid = json_object_get(j, "grid");
    cf_error e;
    cf_error_clear(&e);
    rc = cf_across_from_json(j, "m.json", 0, &c, &e);
    ok(rc == 0 && fabs(c.grid.tree_err - a.grid.tree_err) <= 1e-12,
       "tree_err_per_doubling reads back (%s)", e.msg);
    json_object_set_new(grid, "tree_err_per_doubling", json_null());
    rc = cf_across_from_json(j, "m.json", 0, &c, &e);
    ok(rc == 0 && isnan(c.grid.tree_err), "null: unknown");
    json_object_del(grid, "tree_err_per_doubling");
    rc = cf_across_from_json(j, "m.json", 0, &c, &e);
    ok(rc == 0 && isnan(c.grid.tree_err), "absent: unknown");
    json_object_set_new(grid, "tree_err_per_doubling", json_real(-0.5));
    cf_error_clear(&e);
    rc = cf_across_from_json(j, "m.json", 0, &c, &e);
    ok(rc == CF_EXIT_DATA && strstr(e.msg, "grid.tree_err_per_doubling") != NULL,
       "refused: a negative tree_err_per_doubling (%s)", e.msg);
    json_decref(j);
    /* step_growth_max reads back; absent (a file from before it) it is step_growth, the
     * growth at the top alone; negative or not a number, refused. */
    b = a;
    b.grid.step_growth = 1.1;
    b.grid.step_growth_max = 2.5;
    j = cf_across_to_json(&b);
    grid = json_object_get(j, "grid");
    cf_error_clear(&e);
    rc = cf_across_from_json(j, "m.json", 0, &c, &e);
    ok(rc == 0 && c.grid.step_growth_max == 2.5, "step_growth_max reads back (%s)", e.msg);
    json_object_del(grid, "step_growth_max");
    rc = cf_across_from_json(j, "m.json", 0, &c, &e);
    ok(rc == 0 && c.grid.step_growth_max == 1.1, "absent: step_growth's (%g)",
       c.grid.step_growth_max);
    json_object_set_new(grid, "step_growth_max", json_real(-1.0));
    cf_error_clear(&e);
    rc = cf_across_from_json(j, "m.json", 0, &c, &e);
    ok(rc == CF_EXIT_DATA && strstr(e.msg, "grid.step_growth_max") != NULL,
       "refused: a negative step_growth_max (%s)", e.msg);
    json_object_set_new(grid, "step_growth_max", json_string("2"));
    cf_error_clear(&e);
    rc = cf_across_from_json(j, "m.json", 0, &c, &e);
    ok(rc == CF_EXIT_DATA && strstr(e.msg, "grid.step_growth_max") != NULL,
       "refused: a step_growth_max that is no number (%s)", e.msg);
    json_decref(j);
    /* Trees at np 16 a third slower than their cost (contention setting in): read from np 8
     * and below they miss more than np 8 read from below, and the misses growing with np
     * bound nothing beyond: no tree backtest, the fitted model's band. */
    reduce_trees(1.3, &c, &pp);
    ok(isnan(c.grid.tree_err), "misses growing with np: no tree backtest (%.3g)", c.grid.tree_err);
}

/* A bcast tree whose sends wait for their receivers (cf_steps_held_us, and its crossings'
 * share, cf_steps_held_cross_share), on a curve of one unit a message whatever its size. */
static void held_trees(void)
{
    double um[] = {1, 1e9}, ut[] = {1, 1};
    /* binomial: a full tree's ranks all leave with the root, after lg p levels; at p 3 rank 2
     * leaves at its arrival (1), ranks 0 and 1 after 2: 5/3; at p 17 rank 16 at 1, the rest at 5 */
    near(cf_steps_held_us(CF_STEPS_BCAST_BINOMIAL, 16, 1e6, 0, 1, um, ut, 2), 4.0, 1e-12,
         "held binomial tree at p 16: 4 levels, every rank");
    near(cf_steps_held_us(CF_STEPS_BCAST_BINOMIAL, 3, 1e6, 0, 1, um, ut, 2), 5.0 / 3.0, 1e-12,
         "held binomial tree at p 3: 5/3");
    near(cf_steps_held_us(CF_STEPS_BCAST_BINOMIAL, 17, 1e6, 0, 1, um, ut, 2), 81.0 / 17.0, 1e-12,
         "held binomial tree at p 17: 81/17");
    near(cf_steps_held_us(CF_STEPS_LG, 17, 1e6, 0, 1, um, ut, 2), 81.0 / 17.0, 1e-12,
         "a binomial tree's steps (CF_STEPS_LG) read alike");
    /* 4-nomial at p 16: 2 levels, each at once; alone each one unit, sharing 3 messages a
     * level (the curve flat: one unit too) */
    near(cf_steps_held_us(CF_STEPS_BCAST_KNOMIAL, 16, 1e6, 0, 1, um, ut, 2), 2.0, 1e-12,
         "held 4-nomial tree at p 16: 2 levels");
    /* the crossings' share: full trees 1; 3 nodes of 4 at p 12, the third node's ranks wait
     * one of the root's two crossings: (4 x 1 + 8 x 2) / 12 / 2 */
    near(cf_steps_held_cross_share(CF_STEPS_BCAST_BINOMIAL, 16, 4), 1.0, 1e-12,
         "crossings' share, full tree: 1");
    near(cf_steps_held_cross_share(CF_STEPS_BCAST_BINOMIAL, 12, 4), 20.0 / 24.0, 1e-12,
         "crossings' share, 3 nodes of 4: 5/6");
    ok(isnan(cf_steps_held_cross_share(CF_STEPS_RING, 16, 4)) &&
           isnan(cf_steps_held_cross_share(CF_STEPS_BCAST_BINOMIAL, 8, 8)),
       "crossings' share: none for other steps or inside one block");
}

/* SMPI's two-level reduce replayed rank by rank (cf_steps_smp_halving_us): every message
 * 1 us (the ping-pong's 2 units of 0.5), nodes of 2 ranks, X us more across nodes. Worked by
 * hand from reduce__mvapich2_two_level over reduce__mpich. */
static void smp_halving(void)
{
    double um[] = {1, 1e6}, ut[] = {0.5, 0.5}, X = 7.5;
    cf_tiers flat = {.node_ranks = 2},
             nodes = {.n = 1, .ranks = {2}, .extra_us = {X}, .base_us = 1.0, .probed = 8,
                      .node_ranks = 2};
    /* 4096 B, 4 ranks: each node halves with its second rank (both at 1) and gathers back
     * (the second leaves at 1, the first has it at 2); the two first ranks halve (3) and
     * gather (rank 0 at 4, rank 2 leaves at 3): (4 + 1 + 3 + 1) / 4. */
    near(cf_steps_smp_halving_us(4, 4096, um, ut, 2, &flat), 9.0 / 4, 1e-12,
         "two-level scatter-gather at 4 on nodes of 2");
    /* 3 ranks: the second node's one rank starts the leaders' halving at 0, its message in
     * at 1 where rank 0 is at 2, rank 0's in at 3; it gathers to rank 0 (4): (4 + 1 + 3) / 3. */
    near(cf_steps_smp_halving_us(3, 4096, um, ut, 2, &flat), 8.0 / 3, 1e-12,
         "two-level scatter-gather at 3: the last node short");
    /* Across the tier the leaders' two messages each X more. */
    near(cf_steps_smp_halving_us(4, 4096, um, ut, 2, &nodes), (9.0 + 3 * X) / 4, 1e-12,
         "two-level scatter-gather at 4: the leaders' messages across the nodes");
    /* Below 2048 B binomial trees: each node's second rank sends and leaves at once (0), its
     * first has it at 1; rank 2 sends to rank 0 (2) and leaves (1): (2 + 0 + 1 + 0) / 4. */
    near(cf_steps_smp_halving_us(4, 1000, um, ut, 2, &flat), 3.0 / 4, 1e-12,
         "two-level binomial trees below 2048 B");
    /* 6 nodes of 2 (12 ranks): the leaders fold 2 of 6 in, who leave after one message, so
     * the ranks' mean falls below that of 8 nodes (16 ranks) though each leader left waits as
     * long; 5 nodes (10 ranks) fold one pair in. */
    ok(cf_steps_smp_halving_us(12, 4096, um, ut, 2, &flat) <
           cf_steps_smp_halving_us(16, 4096, um, ut, 2, &flat),
       "two-level scatter-gather: folded leaders leave early");
    ok(isnan(cf_steps_smp_halving_us(1, 4096, um, ut, 2, &flat)),
       "two-level scatter-gather: no replay of one rank");
    /* Rabenseifner's allreduce, every message 1 us: at 2 and 4 ranks 2 and 4 exchanges in a
     * row; at 3 rank 0 sends its vector to rank 1 (in at 1), ranks 1 and 2 halve (1 and 2:
     * rank 2 has rank 1's half at 2, rank 1 rank 2's at 1) and gather (3 and 2), rank 1 sends
     * the result to rank 0 (4): (4 + 3 + 2) / 3. */
    near(cf_steps_halving_allreduce_us(2, 4096, um, ut, 2, &flat), 2.0, 1e-12,
         "Rabenseifner's allreduce at 2");
    near(cf_steps_halving_allreduce_us(4, 4096, um, ut, 2, &flat), 4.0, 1e-12,
         "Rabenseifner's allreduce at 4");
    near(cf_steps_halving_allreduce_us(3, 4096, um, ut, 2, &flat), 3.0, 1e-12,
         "Rabenseifner's allreduce at 3: rank 0 folded in and out");
    /* Messages of their sizes: the unit x us at x bytes (a message 2x). MPICH's scatter-gather
     * reduce over 2 ranks, a node each: they halve (2048 B each way: both at 4096), rank 1
     * sends its half (rank 0 at 8192; rank 1 leaves at once, eager): (8192 + 4096) / 2. */
    double lm[] = {1, 1e6}, lt[] = {1, 1e6};
    cf_tiers ones = {.node_ranks = 1};
    near(cf_steps_smp_halving_us(2, 4096, lm, lt, 2, &ones), 6144.0, 1e-6,
         "scatter-gather reduce at 2: the halves' sizes");
    /* Rabenseifner's allreduce at 3: rank 0's vector to rank 1 (8192); ranks 1 and 2 halve
     * (1 at 8192, 2 has 1's half at 12288) and gather back (1 at 16384, 2 at 12288); rank 1
     * sends the result to rank 0 (24576): (24576 + 16384 + 12288) / 3. */
    near(cf_steps_halving_allreduce_us(3, 4096, lm, lt, 2, &flat), 53248.0 / 3, 1e-6,
         "Rabenseifner's allreduce at 3: the whole vector folded in and out, halves between");
    cf_rule_alg a;
    ok(cf_rules_pick("smpi-mpich", 2, "reduce", 27, 4096, &a) == 0 &&
           a.steps == CF_STEPS_SMP_HALVING2 && strcmp(a.name, "two-level scatter-gather") == 0,
       "SMPI's mpich reduce of 4096 B at 27 ranks on nodes of 2: its two-level scatter-gather");
}

/* SMPI's ring allgather (CF_STEPS_SPREAD) and recursive doubling's (CF_STEPS_DOUBLING)
 * replayed rank by rank: every message 1 us whatever its bytes (the ping-pong's 2 units of
 * 0.5), no latency between tiers, and a pair-exchange probe whose distance 2 (blocks of 2
 * ranks crossed) adds c a byte, c times the block's 4096 B one us. Worked by hand from
 * allgather-ring.cpp and allgather-rdb.cpp. */
static void allgather_replays(void)
{
    double um[] = {1, 1e6}, ut[] = {0.5, 0.5}, m = 4096, c = 1.0 / 4096;
    cf_tiers flat = {.n = 1, .ranks = {2}, .extra_us = {0}, .base_us = 1, .probed = 8},
             pair = {.n = 1, .ranks = {2}, .extra_us = {0}, .base_us = 1, .probed = 8,
                     .npair = 2, .pair_us_per_byte = {0, c}};
#define REPLAY(st, p, t) cf_steps_cost_tiered((st), (p), m, um, ut, 2, (t), NULL, 0)
    near(REPLAY(CF_STEPS_SPREAD, 4, &flat), 3.0, 1e-12, "SMPI's ring at 4: 3 steps of a message");
    /* Its steps at 4 ranks send to r + 1, r + 2, r + 3: of each block of 2 one rank, both,
     * one (3 -> 0 and 1 -> 2 leave their blocks at the first), half the probe's traffic,
     * all of it, half: 3 + (0.5 + 1 + 0.5) us. */
    near(REPLAY(CF_STEPS_SPREAD, 4, &pair), 5.0, 1e-12,
         "SMPI's ring at 4: each step its share of the traffic across the blocks");
    /* At 3 ranks the last block holds one rank: each step one rank of a block leaves it
     * (1 -> 2 and 2 -> 0, then 0 -> 2 and 2 -> 1): 2 + (0.5 + 0.5) us. */
    near(REPLAY(CF_STEPS_SPREAD, 3, &pair), 3.0, 1e-12,
         "SMPI's ring at 3: the short block's ranks send no more than it holds");
    near(REPLAY(CF_STEPS_DOUBLING, 4, &flat), 2.0, 1e-12, "recursive doubling at 4: 2 exchanges");
    /* At 3: ranks 0 and 1 exchange (1), rank 2 has no partner (0); ranks 0 and 2 exchange
     * (rank 0 has rank 2's block at 1, rank 2 has 0's at 2), rank 1 has none; then haves to
     * havenots: rank 0 sends rank 2's block on to rank 1 (2): (1 + 2 + 2) / 3. */
    near(REPLAY(CF_STEPS_DOUBLING, 3, &flat), 5.0 / 3, 1e-12,
         "recursive doubling at 3: the block rank 1's missing partner held, passed on");
    /* With the traffic at 4: the exchange at distance 2 moves 2 blocks (2 us more): 1 + 3. */
    near(REPLAY(CF_STEPS_DOUBLING, 4, &pair), 4.0, 1e-12,
         "recursive doubling at 4: the traffic of 2 blocks a rank across the blocks of 2");
    /* At 3 only rank 0 of the first block exchanges at distance 2: half the traffic; rank 0
     * takes 1 block (1 + 1 + 0.5 = 1.5), rank 2 two (1 + 1 + 1 = 3); rank 0 passes it on
     * within its block (2.5): (1.5 + 2.5 + 3) / 3. */
    near(REPLAY(CF_STEPS_DOUBLING, 3, &pair), 7.0 / 3, 1e-12,
         "recursive doubling at 3: the pairs that have a partner, their blocks' sizes");
#undef REPLAY
    /* Several steps of haves to havenots, worked by a separate interpreter of allgather-rdb.cpp
     * (the first review of stop 68): blocks of 64 B, c = 1/64 at distance 2 and 3c at 4, so a
     * message's traffic is its blocks times the share of the busiest block's ranks that send
     * (p 7: at distance 2 ranks 0 and 1 exchange with 2 and 3, 4 with 6, and rank 4 passes
     * rank 6's block on to rank 5; at distance 4 ranks 0-2 exchange with 4-6, and rank 1
     * passes their 3 blocks on to rank 3, the one whose partner is missing; the second
     * review of stop 68). */
    double m64 = 64, c64 = 1.0 / 64;
    cf_tiers pair3 = {.n = 1, .ranks = {2}, .extra_us = {0}, .base_us = 1, .probed = 8,
                      .npair = 3, .pair_us_per_byte = {0, c64, 3 * c64}};
    static const long fp[] = {7, 11, 13, 14, 27};
    static const double flat_want[] = {3.0, 42.0 / 11, 56.0 / 13, 4.0, 139.0 / 27},
                        pair_want[] = {12.5, 280.0 / 11, 429.75 / 13, 37.0, 2134.0 / 27};
    for (int i = 0; i < 5; i++) {
        near(cf_steps_cost_tiered(CF_STEPS_DOUBLING, fp[i], m64, um, ut, 2, &flat, NULL, 0),
             flat_want[i], 1e-9, "recursive doubling at %ld: its haves to havenots' tree", fp[i]);
        near(cf_steps_cost_tiered(CF_STEPS_DOUBLING, fp[i], m64, um, ut, 2, &pair3, NULL, 0),
             pair_want[i], 1e-9, "recursive doubling at %ld: each fill step its senders' traffic",
             fp[i]);
    }
    cf_rule_alg a;
    ok(cf_rules_pick("smpi-mpich", 0, "allgather", 27, 4096, &a) == 0 &&
           a.steps == CF_STEPS_SPREAD && cf_rules_pick("smpi-ompi", 0, "allgather", 40, 65536, &a) == 0 &&
           a.steps == CF_STEPS_SPREAD,
       "SMPI's ring allgather under both selectors: CF_STEPS_SPREAD");
    /* Open MPI 4.1's rules take recursive doubling below 32 ranks, which it runs only at a
     * power of two, handing other counts to Bruck's; SimGrid's runs at every count. */
    ok(cf_rules_pick("openmpi", 0, "allgather", 12, 4096, &a) == 0 &&
           a.steps == CF_STEPS_BRUCK_GATHER && strcmp(a.name, "Bruck") == 0 &&
           cf_rules_pick("openmpi", 0, "allgather", 16, 4096, &a) == 0 &&
           a.steps == CF_STEPS_DOUBLING && cf_rules_pick("smpi-ompi", 0, "allgather", 12, 4096, &a) == 0 &&
           a.steps == CF_STEPS_DOUBLING,
       "Open MPI's allgather at 12 ranks: Bruck's, its recursive doubling's fallback; at 16 and "
       "under SimGrid recursive doubling");
}

/* A table of Open MPI's bcast under SMPI's rules whose tree messages sent at once load their
 * sender's link by `load` each (cf_tiers.eager_load): the grid fits that load from the trees'
 * cost per step at 16 and 64 KiB, and reads an np it never measured between them as the
 * table's own steps cost it. */
static const double BC_SIZES[] = {4, 64, 1024, 4096, 16384, 65536, 262144, 1048576};
#define NBC 8
static double bcast_truth(long p, double m, double load)
{
    return rules_truth("smpi-ompi", "bcast", p, m, BC_SIZES, NBC, load);
}

static void eager_load(void)
{
    double ut[NBC];
    for (int i = 0; i < NBC; i++)
        ut[i] = unit(BC_SIZES[i]);
    near(cf_steps_cost_loaded(CF_STEPS_BCAST_KNOMIAL, 40, 16384, BC_SIZES, ut, NBC, 1.0),
         cf_steps_cost(CF_STEPS_BCAST_KNOMIAL, 40, 16384, BC_SIZES, ut, NBC), 1e-12,
         "load 1: the steps as cf_steps_cost's");
    ok(cf_steps_cost_loaded(CF_STEPS_BCAST_KNOMIAL, 40, 16384, BC_SIZES, ut, NBC, 0.5) <
           cf_steps_cost(CF_STEPS_BCAST_KNOMIAL, 40, 16384, BC_SIZES, ut, NBC),
       "load 0.5: eager messages at once cost less");
    near(cf_steps_cost_loaded(CF_STEPS_BCAST_KNOMIAL, 40, 65536, BC_SIZES, ut, NBC, 0.5),
         cf_steps_cost(CF_STEPS_BCAST_KNOMIAL, 40, 65536, BC_SIZES, ut, NBC), 1e-12,
         "from 64 KiB (each level waited for) no load");
    /* A unit that steps at 64 KiB (SimGrid's rendezvous): a message sent at once of 32 KiB,
     * above the unit's largest size below 64 KiB, is read on the log-log chord of its two
     * largest below carried on, not on the line to 64 KiB's step. */
    double sm[] = {4096, 16384, 65536}, st[] = {1.0, 2.0, 8.0};
    near(cf_steps_cost(CF_STEPS_BCAST_KNOMIAL, 2, 32768, sm, st, 3), 2.0 * sqrt(2.0), 1e-12,
         "an eager message of 32 KiB on the chord from 4 and 16 KiB (the root leaves at once)");
    near(cf_steps_cost(CF_STEPS_BCAST_KNOMIAL, 2, 65536, sm, st, 3), 2.0 * 8.0, 1e-12,
         "from 64 KiB the unit's own (the root waits for it)");
    static const long nps[] = {2, 4, 8, 16, 32, 64};
    static const double loads[] = {0.3, 0.6, 1.0};
    for (int l = 0; l < 3; l++) {
        cf_point pts[6 * NBC];
        size_t n = 0;
        for (int a = 0; a < 6; a++)
            for (int i = 0; i < NBC; i++)
                pts[n++] = (cf_point){nps[a], BC_SIZES[i],
                                      bcast_truth(nps[a], BC_SIZES[i], loads[l])};
        static cf_across a;
        cf_error e;
        cf_error_clear(&e);
        ok(cf_across_fit_points(cf_coll_find("bcast"), "byte", pts, n, &a, &e) == 0,
           "bcast at np 2-64 fits (load %.1f)", loads[l]);
        cf_across_grid_build(&a, "smpi-ompi", pts, n, NULL, NULL);
        near(a.grid.tiers.eager_load, loads[l], 0.01, "the load fitted, %.3f for %.1f",
             a.grid.tiers.eager_load, loads[l]);
        cf_estimate est;
        cf_across_grid_predict(&a, 40, 49152, &est);
        double want = bcast_truth(40, 49152, loads[l]);
        ok(fabs(est.t_us - want) / want < 0.01,
           "np 40 of 48 KiB, between the measured np and sizes: %.2f us for %.2f", est.t_us,
           want);
    }
}

int main(void)
{
    rules();
    steps();
    held_trees();
    unit_np2();
    eager_load();
    exact();
    message_unit();
    contention();
    contention_other_algorithm();
    noisy();
    untested_trees();
    smp_halving();
    allgather_replays();
    return tap_done();
}
