/* Across process counts: the joint fit of a pattern's algorithm cost over every measured
 * (p, m), and the point-to-point estimate (ping-pong's alpha and beta put into the
 * algorithm cost) that answers for any pattern at any p. Both are C structs from the fit
 * to predict, report and the fit summary; only the model file (modelfile/across-json.h)
 * writes them as "across_np" and "p2p" (commfit-formats(5)) and reads them back. */
#ifndef CF_ACROSS_H
#define CF_ACROSS_H

#include <stddef.h>
#include <stdint.h>

#include "base/collective.h"
#include "base/error.h"
#include "base/table.h"

#define CF_ACROSS_NP_MAX 64
#define CF_ACROSS_MIN_NP 3 /* distinct process counts the joint fit needs */
#define CF_NOTE_MAX 160

/* One measured point: process count, bytes (IMB's definition), time in us. */
typedef struct cf_point {
    long p;
    double m;
    double t_us;
} cf_point;

/* How well a relative-error least-squares fit follows its points. */
typedef struct cf_rel_quality {
    int n, dof;         /* points used, and n minus the parameters */
    int rejected;       /* points set aside as outliers */
    double mape;        /* mean absolute relative error (0.03 = 3%) */
    double max_rel_err; /* largest absolute relative error */
    double loo_mape;    /* the same, each point predicted without itself */
} cf_rel_quality;
/* No points: counts 0, errors NAN. */
void cf_rel_quality_clear(cf_rel_quality *q);

/* A sum of terms with unit weights ("ceil(lg p) + (p-1)"): one basis function. */
#define CF_SUM_MAX 2
typedef struct cf_cterm_sum {
    int n;
    cf_cterm t[CF_SUM_MAX];
} cf_cterm_sum;

/* One size range of an across-np model: one algorithm's cost with its own fitted
 * coefficients, T(p, m) = sum coef_k * basis_k(p, m), over every measured p. */
#define CF_ACROSS_MAX_SEG 2
#define CF_ALG_NAME_MAX 48
typedef struct cf_across_seg {
    double from_bytes, to_bytes; /* the measured sizes it was fitted on */
    char algorithm[CF_ALG_NAME_MAX];
    int nbasis;
    cf_cterm_sum basis[CF_COLL_MAX_BASIS];
    double coef[CF_COLL_MAX_BASIS];                   /* us per unit of each basis function */
    double cov[CF_COLL_MAX_BASIS][CF_COLL_MAX_BASIS]; /* scaled by the residual variance */
    double s2;                                        /* residual relative variance */
    cf_rel_quality q;
    double tq; /* Student t 97.5% quantile at q.dof, kept for predict */
    /* The backtest (cf_across_backtest): refitted on every process count but the largest
     * and read there, |ln(read / measured)| per doubling of p, a high quantile over the
     * sizes of the range; NAN when it could not be made. predict widens the interval by
     * this factor (as exp) for each doubling of p beyond the measured ones. */
    double extrap_err;
    /* Where the doubling to the largest np crossed a tier of the launch's probe (a node, a
     * switch) and one below it crossed none (cf_across.ntier, cf_across_backtest_tiers):
     * the same backtest of the largest doubling within a tier, refitted on the np below
     * cf_across.within_np and read there; NAN elsewhere. extrap_err still holds the
     * crossing's miss, which predict counts for the first doubling beyond the largest np
     * and each tier crossed beyond it, this for the others (cf_across_bt_ln). */
    double within_err;
    /* The measured growth at the largest np (cf_across_backtest): the slope of ln T in
     * doublings of p there and its change per doubling, from the quadratic in log2 p through
     * the three largest measured np at each size of the range; [0] the low and [1] the high
     * end over the sizes (10th and 90th percentiles); NAN when unknown. Beyond the measured
     * np, predict's upper end also holds that growth going on, accelerating as it did where
     * it did (a slowing down is not carried on: the upper end keeps the growth as it was),
     * which the measured np cannot rule out. */
    double growth[2], growth_change[2];
} cf_across_seg;

/* The grid model: where the MPI library's switch rules are known (across-rules.c), each
 * measured point is kept with the algorithm the rules say ran there, and T at (p, m) is
 * read along the line through the nearest measured process counts at size m of the same
 * algorithm, in the coordinate of that algorithm's steps costed with the pattern's own
 * np=2 time T2 (its "unit" curve): the line through the two largest extrapolates, so a
 * cost per step that grew with p (contention) keeps its latest value. */
typedef enum cf_steps {
    CF_STEPS_LG,               /* ceil(lg p) steps of m: binomial tree */
    CF_STEPS_FOLD,             /* lg p steps of m; when p is no power of two recursive
                                  doubling folds the extra processes in and out: the ranks'
                                  mean cf_fold_steps (the last rank's path floor(lg p) + 2);
                                  replayed over the tiers (cf_steps_tiered) */
    CF_STEPS_SMP_FOLD,         /* SMPI's two-level allreduce (a node's ranks reduce to
                                  one, the nodes' leaders run recursive doubling, each
                                  leader bcasts back): where the nodes' ranks are known the
                                  grid costs a node's part and the leaders' steps apart
                                  (cf_steps_cost_node), else as CF_STEPS_FOLD; not
                                  replayed */
    CF_STEPS_DOUBLING,         /* step j moves 2^j blocks: recursive-doubling allgather */
    CF_STEPS_BRUCK_GATHER,     /* step j moves min(2^j, p-2^j) blocks */
    CF_STEPS_RING,             /* p-1 steps of m: ring, pairwise, isend/irecv */
    CF_STEPS_SPREAD,           /* SMPI's "ring" allgather (allgather__ring): p-1 steps of m,
                                  step i to rank + i from rank - i; costed as CF_STEPS_RING,
                                  replayed over the tiers with the traffic of its steps */
    CF_STEPS_BRUCK_ALLTOALL,   /* ceil(lg p) steps of p*m/2 */
    CF_STEPS_SCATTER_DOUBLING, /* binomial scatter, recursive-doubling allgather of m/p */
    CF_STEPS_SCATTER_RING,     /* binomial scatter, ring allgather of m/p */
    CF_STEPS_HALVING2,         /* reduce-scatter by halving and back: 2 * sum m/2^(j+1) */
    CF_STEPS_SMP_HALVING2,     /* SMPI's two-level reduce across nodes (reduce__mvapich2_
                                  two_level: MPICH's reduce inside each node, then among the
                                  nodes' first ranks): costed as CF_STEPS_HALVING2, and
                                  between and beyond the measured np the interval holds the
                                  readings its replay carries (cf_steps_smp_halving_us) */
    CF_STEPS_LG2,              /* binomial reduce, then binomial bcast: 2 ceil(lg p) of m */
    CF_STEPS_RING2,            /* ring reduce-scatter and allgather: 2(p-1) steps of m/p */
    CF_STEPS_PIPELINE,         /* chain of segments: p-2 + ceil(m/CF_PIPELINE_SEG) steps */
    CF_STEPS_BINARY,           /* binary tree: ceil(lg(p+1)) - 1 levels of m */
    CF_STEPS_NEIGHBOR,         /* neighbor exchange: one step of m, p/2 - 1 of 2m (the
                                  ring's p - 1 of m where p is odd when replayed) */
    CF_STEPS_ROUNDS,           /* isend/irecv to the partners in rounds of CF_ROUND_PAIRS,
                                  each round waited for (SMPI's MVAPICH2 scatter-dest
                                  alltoall): costed as the ring's p - 1 messages, where a
                                  partner ahead has its eager message in already, but each of
                                  its ceil(p/4) rounds waits for a farther tier's latency
                                  (cf_steps_spans) */
    CF_STEPS_CHAIN,            /* p-1 steps of m one after another down a chain of ranks 0
                                  -> 1 -> ... -> p-1, each hop the whole message (SMPI's chain
                                  bcast, across-rules.c's SMPI_NTSL): costed as the ring's; a
                                  tier boundary is one hop, which the ranks past it wait for
                                  (cf_steps_spans) */
    CF_STEPS_SEG_TREE,         /* reduce up a binomial tree in CF_SEG_TREE_SEG segments,
                                  per call: a rank takes its children's segments two
                                  receives at a time, each sent up once its children's came
                                  in (across-steps.c's seg_tree_mean); the mean over ranks */
    /* Per-call timing (a barrier after each call, each rank's own time, their mean): */
    CF_STEPS_REDUCE_BINOMIAL, /* a rank of the tree leaves once its last child's data came
                                 in, one message after that child left: the mean over ranks is
                                 (p-1)/p messages (2 T2 each, as at np=2 the sender leaves at
                                 once) */
    CF_STEPS_REDUCE_SERIAL,   /* MPICH's binomial reduce (MPIR_Reduce_intra_binomial, SMPI's
                                 reduce__binomial, its mpich selector's): the same tree, costed
                                 so, but a rank receives its children one at a time (a blocking
                                 receive each, in turn), where Open MPI's posts two at once;
                                 replayed so (tree_wait_mean) */
    CF_STEPS_REDUCE_BINARY,   /* the same up Open MPI's binary tree: its ranks' heights
                                 summed, over p (p - 1 at powers of two; not
                                 p - popcount(p) at 5, 9 to 13, 17 to 29, ...) */
    CF_STEPS_BCAST_BINOMIAL,  /* the k-nomial tree bcast below with k = 2 */
    CF_STEPS_BCAST_KNOMIAL,   /* 4-nomial tree bcast (isend per level, waitall): below
                                 CF_EAGER_MAX a sender's sends all leave at once and share its
                                 link, each with its own latency, and it leaves; from it each
                                 level waits for its transfers (one message of their bytes), a
                                 rank after its own levels; mean over ranks */
    CF_STEPS_REDUCE_IN_ORDER, /* Open MPI's in-order binary tree (root p-1, each subtree's
                                 ranks contiguous, then on to rank 0): costed as before,
                                 (p - popcount(p))/p messages (a binomial tree's heights),
                                 its own not derived; never replayed over tiers */
    CF_STEPS_REDUCE_KNOMIAL,  /* MVAPICH2's 4-nomial reduce, SMPI's inside one node: a rank
                                 posts its children's receives at once and sends on when all
                                 came in; below CF_EAGER_MAX its time is its subtree's height
                                 in messages (2 T2 each), from it one message more for its own
                                 send (T2 each); mean over ranks; never replayed over tiers */
    CF_STEPS_REDUCE_CHAIN     /* SMPI's Open MPI chain reduce (reduce__ompi_chain): chains of
                                 consecutive ranks, fanout p/2 (at most 32), the root
                                 receiving from each chain's head, in CF_PIPELINE_SEG
                                 segments; a rank waits for the chain below it (its length in
                                 messages, and a message more for each further segment), the
                                 chain's last sends and leaves; mean over ranks. Fanout 1 (p 2
                                 and 3): as CF_STEPS_PIPELINE. Replayed over tiers
                                 (tree_wait_mean) at fanout 2 or more and one segment alone
                                 (cf_steps_tiered_at) */,
    /* The reduce-scatters: steps of T2, which the grid reads among the per-call trees
     * (cf_steps_per_call; read as steps of T2, fitted at np 2 to 8 and asked at 10 to 24, the
     * held-out median error rose, 15.9% to 20.6% MPICH's, 8.2% to 9.3% Open MPI's): */
    CF_STEPS_RS_DOUBLING,     /* recursive doubling's reduce-scatter (MPICH's
                                 reduce_scatter_rdb, SMPI's mpich selector's to 512 Ki
                                 floats): at the step of distance 2^j below p a rank exchanges
                                 the p - 2^j blocks outside its aligned subtree of 2^j ranks;
                                 where p is no power of two the ranks whose partner is missing
                                 get theirs down a halving from the subtree's others
                                 (rs_havenot_waits) */
    CF_STEPS_RS_HALVING       /* Open MPI's recursive halving reduce-scatter (its
                                 basic_recursivehalving, SMPI's alike): where p is no power
                                 of two, the rem = p - q ranks 2i (i < rem) first send their
                                 whole vector to 2i + 1 and get their block back at the end;
                                 the q left halve the whole vector from distance q/2 in, a
                                 step exchanging half of the blocks a rank holds (a folded
                                 rank's two); mean over ranks (rs_halving in
                                 across-steps.c) */,
    CF_STEPS_GATHER_BCAST     /* a gather to rank 0, its messages posted at once, then a
                                 binomial tree bcast of the p blocks (Open MPI's default
                                 allgatherv, SMPI's allgatherv__GB): a message of m, then
                                 CF_STEPS_BCAST_BINOMIAL's ranks' mean at p m, its messages
                                 counted a step each (T2, the gather's), not its 2 T2 */
} cf_steps;
/* The size from which a send waits for its receiver (SMPI's default
 * smpi/send-is-detached-thresh; Open MPI's TCP and shared-memory eager limits are of that
 * order): below it a sender's messages leave at once. */
#define CF_EAGER_MAX 65536.0
/* MPICH's reduce runs a binomial tree below this many bytes (or on fewer elements than the
 * power of two at or below the ranks), scatter-gather from it (SimGrid's reduce__mpich). */
#define CF_MPICH_REDUCE_SHORT 2048.0
/* MPICH's allgather runs Bruck's at np no power of two to this many bytes in all, the ring
 * beyond (MPIR_CVAR_ALLGATHER_SHORT_MSG_SIZE; SimGrid's allgather__mpich alike). */
#define CF_MPICH_ALLGATHER_SHORT 81920.0
#define CF_ROUND_PAIRS 4 /* SMPI's MV2_ALLTOALL_THROTTLE_FACTOR */
/* The segment a pipeline's step moves (Open MPI's tuned pipelines choose 1 to 128 KiB by
 * size and p; a middle value: the grid's line through measured np absorbs the rest). */
#define CF_PIPELINE_SEG 65536.0
/* The largest fanout of Open MPI's chains (MAXTREEFANOUT of its tree topologies). */
#define CF_CHAIN_FANOUT_MAX 32
/* The segment of Open MPI's segmented binomial reduce ("Binomial_1K"). */
#define CF_SEG_TREE_SEG 1024.0

/* How the latencies of an algorithm's messages add up (cf_steps_spans): */
typedef enum cf_latency {
    CF_LAT_STEPS, /* one step after another, each waiting for its pairs: every step's */
    CF_LAT_ONCE,  /* its p-1 messages posted at once (isend/irecv, linear): they overlap, a
                     farther rank's latency is waited for about once */
    CF_LAT_CHAIN, /* a ring, a pipeline: each rank waits for its neighbour alone, so a
                     block's path waits at each tier boundary it crosses, not at every step */
} cf_latency;

typedef struct cf_rule_alg {
    const char *name;
    cf_steps steps;
    cf_latency latency;
} cf_rule_alg;

/* Whether st counts the messages of a per-call tree (CF_STEPS_SEG_TREE on) rather than
 * steps of T2: 1 or 0. */
int cf_steps_per_call(cf_steps st);
/* Whether st is a bcast's binomial or k-nomial tree of whole messages (CF_STEPS_LG,
 * CF_STEPS_BCAST_BINOMIAL, CF_STEPS_BCAST_KNOMIAL): cf_steps_held_us's trees. */
int cf_steps_knomial_bcast(cf_steps st);
/* Whether st is a per-call bcast tree (CF_STEPS_BCAST_BINOMIAL, CF_STEPS_BCAST_KNOMIAL) whose
 * sender's messages below CF_EAGER_MAX leave at once, each loading its link by the table's
 * cf_tiers.eager_load and read from the unit's sizes below CF_EAGER_MAX: 1 or 0. */
int cf_steps_eager_tree(cf_steps st);
/* Whether every message of st is the size m itself (trees, rings, recursive doubling's
 * allreduce, their two-level forms): not blocks that double, segments, a scatter's parts or
 * Bruck's p/2 blocks. 1 or 0. */
int cf_steps_whole_messages(cf_steps st);

/* The latency tiers of a launch's probe (cf_placement_tiers): two ranks in different aligned
 * blocks of ranks[k] consecutive ranks (the largest such k) lie extra_us[k] farther apart,
 * one way, than ranks 0 and 1, which lie base_us apart (a node, a switch, a rack); ranks[]
 * increasing, n 0: none known. rendezvous: a message's transfer starts once its receive is
 * posted too (a simulation's, SMPI's), else when it is sent (a real library's small
 * messages, eager). */
#define CF_TIERS_MAX 8
#define CF_TIERS_PAIR_MAX 62
#define CF_TIERS_SIZED_MAX 16
#define CF_TIERS_DIST_MAX 32                    /* levels: 2^32 ranks */
#define CF_TIERS_DIST_ROW(k) ((k) * ((k) + 1) / 2) /* level k's first distance */
typedef struct cf_tiers {
    int n;
    long ranks[CF_TIERS_MAX];
    double extra_us[CF_TIERS_MAX];
    double base_us;
    int rendezvous;
    long probed; /* the ranks the probe reached (its launch's) */
    /* The ranks each node held, the launch having filled its nodes in order (its first
     * node's, ranks_per_node), with or without a probe; 0 where the table does not say. The
     * rules read it where a library's choice depends on whether ranks share a node
     * (cf_rules_pick). */
    long node_ranks;
#define CF_NODE_RANKS_MAX (1L << 24) /* the most a model file's node_ranks may say */
    /* The pair-exchange probe's levels, where they form tiers (npair 0: none known): what
     * a byte exchanged between ranks 2^j apart, every rank of their blocks of 2^(j+1) at
     * once, takes beyond a byte between ranks 0 and 1, us (pair_us_per_byte[0] is 0). */
    int npair;
    double pair_us_per_byte[CF_TIERS_PAIR_MAX];
    /* The same from the probe's distances (pair_exchange_distance_us), where recorded (ndist
     * 0: none): what a byte exchanged between ranks 2^j apart takes beyond one between ranks
     * 0 and 1 while the 2^(k+1) ranks of level k all exchange at that distance,
     * dist_us_per_byte[CF_TIERS_DIST_ROW(k) + j], j <= k < ndist. */
    int ndist;
    double dist_us_per_byte[CF_TIERS_DIST_ROW(CF_TIERS_DIST_MAX)];
    /* The sized latency probe's, where the launch ran it (nsized 0: none known): what tier
     * k adds to a message of sized_bytes[j] (increasing), sized_extra_us[j][k] >= 0, its
     * farthest rank's latency at that size less rank 1's (cf_tiers_extra_us reads them). */
    int nsized;
    double sized_bytes[CF_TIERS_SIZED_MAX];
    double sized_extra_us[CF_TIERS_SIZED_MAX][CF_TIERS_MAX];
    /* Where the probe's farthest latency from rank 0 steps up, rank by rank (the test of
     * cf_placement_tier, whatever the placement: the blocks above need aligned tiers), for the
     * backtests' tier crossings: a reading from np lo up to hi crosses step b where
     * lo <= b < hi; nreach 0: no probe. reach_probed: the ranks the probe reached, fewer where
     * it steps more than CF_TIERS_MAX times (nothing is said past the last step kept). */
    int nreach;
    long reach_ranks[CF_TIERS_MAX];
    long reach_probed;
    /* The share of its sender's link one message sent at once (below CF_EAGER_MAX) takes: k
     * of them at once stretch the part of each one's time above the smallest size's by
     * max(1, k eager_load), as a tree bcast's sender sends them (tree_msg); 1 is each taking
     * the whole link, as before stop 74; 0 (not known) is read as 1. Not the probe's: the
     * across-np grid fits it to a table's tree bcasts (across-grid.c's eager_load_fit). */
    double eager_load;
} cf_tiers;
/* What the tiers add to a message of bytes between ranks i and j: the tier of the largest
 * block boundary between them, its extra_us (the probe's 8 bytes) up to 8 bytes, and from
 * there the sized probe's at the largest of its sizes at or below bytes (a protocol changes
 * by steps), and past its largest along the line through its two largest in bytes (a
 * route's lower bandwidth), never less than its largest's; 0 inside rank 0's smallest
 * block. */
double cf_tiers_extra_us(const cf_tiers *t, long i, long j, double bytes);
/* Whether st is an algorithm whose cost follows the tiers each of its messages crosses,
 * replayed rank by rank over them (cf_steps_cost_tiered; across-steps.c's table REPLAYED,
 * a row an algorithm): Open MPI's per-call binomial and binary reduce trees and SMPI's chain
 * reduce, the bcast trees, Bruck's alltoall and allgather, recursive doubling's allreduce,
 * the neighbor-exchange allgather, a bcast's scatter and allgather. 1 or 0. */
int cf_steps_tiered(cf_steps st);
/* The same at p and m: SMPI's chain reduce is replayed only where its chains are of fanout
 * 2 or more and one segment (CF_STEPS_REDUCE_CHAIN); elsewhere cf_steps_tiered. */
int cf_steps_tiered_at(cf_steps st, long p, double m);
/* Whether st's replay (cf_steps_tiered) costs the traffic its steps send at once from the
 * pair-exchange probe's levels (cf_tiers.pair_us_per_byte): recursive doubling's, whose
 * steps are the probe's exchanges, an allreduce's or a bcast's allgather after its scatter.
 * 1 or 0. */
int cf_steps_replays_traffic(cf_steps st);
/* Whether the estimate from np=2 adds st's replay over the tiers at (p, m) (cf_steps_tiered;
 * not every one, some only at p no power of two where the probe's latencies form tiers
 * (tiered 1), or to so many bytes in all: REPLAYED's rows say which and why). 1 or 0. */
int cf_steps_replayed_from_np2(cf_steps st, long p, double m, int tiered);

/* The rule set for a table's metadata ("smpi-mpich", "mpich", "smpi-ompi", "openmpi",
 * "openmpi-4.0" for an Open MPI before 4.1), NULL when none is known; for a table timed as
 * a loop of calls (cf_table_timed_loop), SimGrid's and Open MPI's are "smpi-mpich-loop",
 * "openmpi-loop", "openmpi-4.0-loop" and "smpi-ompi-loop", without the
 * trees costed per call, and MPICH's "mpich-loop" (its trees are steps of T2 either way:
 * the same rules; the estimate from np=2 reads its bcast trees apart, p2p.c's tree_each). */
const char *cf_rules_for(const char *mpi_library, const char *coll_selector, int timed_loop);
/* Whether rules names a rule set commfit knows: 1 or 0. */
int cf_rules_exist(const char *rules);
/* The names of the rule sets commfit knows, ", " between them, into buf (truncated to size);
 * returns buf. For messages that list them. */
const char *cf_rules_list(char *buf, size_t size);
/* Whether rule set rules is one for tables timed as a loop of calls ("...-loop"): 1 or 0. */
int cf_rules_loop(const char *rules);
/* Whether rule set rules is SimGrid SMPI's (its selectors': "smpi-..."): 1 or 0. */
int cf_rules_simulated(const char *rules);
/* Whether rule set rules is Open MPI's (its own, any version, or SMPI's ompi selector, which
 * follows Open MPI 4.1's decisions): "openmpi..." or "smpi-ompi...": 1 or 0. */
int cf_rules_ompi(const char *rules);
/* The algorithm rules run for pattern at (p, m) on nodes of node ranks each, filled in order
 * (0: not known; the rules then take what they took before they read it): 0, -1 when it has
 * no rule for it. Only SMPI's mpich selector reads node: its reduce runs another algorithm
 * inside one node than across nodes. */
int cf_rules_pick(const char *rules, long node, const char *pattern, long p, double m,
                  cf_rule_alg *a);
int cf_rules_known(const char *rules, const char *pattern);
/* Whether the library of rule set rules gathers by a linear algorithm at (p, m), m one
 * rank's block (Open MPI's rules: at p=3 below 4 B, from 32 to 64 KiB and from 128 KiB; at
 * p 4 to 7 from 1 to 8 KiB and from 32 KiB; at p 256 to 511 from 2 to 8 KiB), where the
 * estimate from np=2 costs a binomial tree: 1 or 0 (0 for MPICH, whose gather is binomial
 * throughout); an Open MPI before 4.1 (openmpi-4.0) gathers linear but where p > 60, or p > 10
 * below 1 KiB, and always above 6000 B. */
int cf_rules_gather_linear(const char *rules, long p, double m);
/* The same for Open MPI's scatter (linear at p 4 to 7 from 2 KiB but 4 to 8 KiB, at p 8 to
 * 31 from 16 KiB, at p 32 to 63 from 512 B but 8 to 16 KiB, from p 64 from 512 B; at p 2 and 3
 * always, where linear and binomial are alike; before 4.1, openmpi-4.0: linear but where
 * p > 10 below 300 B). */
int cf_rules_scatter_linear(const char *rules, long p, double m);
/* Of those, where the rules run the nonblocking linear scatter (the root posting every send at
 * once; the basic linear one's blocking sends go in turn where they are not eager): 1 or 0. */
int cf_rules_scatter_nonblocking(const char *rules, long p, double m);
/* The bytes of m that the algorithm rules run for pattern at (p, m) leaves to a call of
 * the collective of their own, 0 where none: SMPI's chain and binary tree bcasts (SMPI_NTSL,
 * its ompi selector's algorithms 1 and 5) move whole 8 KiB segments and hand the rest, past
 * one segment, to the selector's bcast. */
double cf_rules_rest(const char *rules, const char *pattern, long p, double m);
/* T2 at s from its measured sizes um (increasing) and times ut, n of them. */
double cf_unit_time(const double *um, const double *ut, int n, double s);
/* Recursive doubling's allreduce over p ranks in the ranks' mean, in steps of m (each rank times
 * its own call), all starting at once: read for SMPI's two-level allreduce, by the estimate from
 * np=2 on nodes of one rank (p2p.c's parts_at) and by the grid for its nodes' leaders
 * (cf_steps_cost_node). CF_STEPS_FOLD's cost stays its last rank's path (the replay over tiers
 * holds its mean, the barrier's exits with it). lg p where p is a power of two; else, of its pof2
 * = 2^k below p and rem = p - pof2 extra ranks, each even rank below 2 rem first sends its vector
 * to the odd one above, which takes part in the k steps among pof2 ranks and then sends the result
 * back: every rank waits k + 1 steps, the rem ranks folded out one more (below CF_EAGER_MAX, their
 * partners leaving once the result is sent), their partners too from it: k + 1 + rem / p steps, k
 * + 1 + 2 rem / p from CF_EAGER_MAX (the last rank's path is k + 2). SMPI's mpich allreduce on
 * flat.xml, 4 B: 4.72, 6.46, 6.73, 6.92 us at np 3, 5, 6, 7, 2.33, 3.2, 3.33, 3.43 steps of np=2's
 * 2.03; of 100000 B at np 12, 95.3 us, 4.67 of the last rank's 5 steps (102.0). */
double cf_fold_steps(long p, double m);

/* The rounds of SMPI's MPICH isend/irecv in rounds of CF_ROUND_PAIRS (CF_STEPS_ROUNDS) at p:
 * its first round's distances hold the rank itself (the receive from rank + 0, none or a
 * copy), so ceil(p / CF_ROUND_PAIRS) rounds of p - 1 partners (flat.xml, 4 B: 2.03, 4.05
 * and 6.08 us at np 3, 5 and 9 for the alltoallv, one, two and three rounds of np=2's
 * 2.03; until stop 80 ceil((p - 1) / CF_ROUND_PAIRS), one at np 5, two at np 9). */
double cf_round_count(long p);
/* The rounds' cost in T2's units where nothing but the rank's own link is shared (the grid
 * across np): a round waits for its first message, T2(m), its other messages' bytes stream
 * after it, T2(m) less T2 of the smallest size each; cf_steps_cost counts p - 1 whole
 * messages. */
double cf_rounds_cost(long p, double m, const double *um, const double *ut, int n);
/* An algorithm's steps at (p, m) costed with T2. */
double cf_steps_cost(cf_steps st, long p, double m, const double *um, const double *ut, int n);
/* The same, a tree bcast's messages sent at once loading their sender's link by load each
 * (cf_tiers.eager_load; cf_steps_cost's is 1). */
double cf_steps_cost_loaded(cf_steps st, long p, double m, const double *um, const double *ut,
                            int n, double load);
/* The share of p ranks of a reduce tree (CF_STEPS_REDUCE_BINOMIAL or _SERIAL, _BINARY,
 * CF_STEPS_SEG_TREE's binomial one) whose subtree holds a message between two aligned blocks
 * of `block` ranks (a node's, a switch's): each waits for it before it sends on, where the
 * others leave once their own part is sent. NAN for other steps. */
double cf_steps_tree_cross_share(cf_steps st, long p, long block);
/* A bcast's steps at (p, m) where each send waits for its receiver (from CF_EAGER_MAX), in
 * one-way messages on the curve T2 (um, ut, n), the ranks' mean: a binomial or k-nomial
 * tree's (CF_STEPS_LG, CF_STEPS_BCAST_BINOMIAL, CF_STEPS_BCAST_KNOMIAL) ranks each leave after
 * their last level, so that a full tree's all leave with the root (SMPI's binomial bcast of 64
 * and 256 KiB at np 16 inside one node of data/platforms/fatnodes.xml: 4.01 and 4.00 one-way
 * messages; at np 3, 700000 B, 1.67), a level's messages at once: all sharing the root's
 * link, one message of their bytes, or (alone 1) those inside its node of `node` ranks (0: not
 * known, one node) each one message's time and those to other nodes one of their bytes (np=2
 * cannot tell which: SimGrid's fatnodes.xml, its nodes made 64 cores, gives each flow in a
 * node its own bandwidth, its ompi selector's k-nomial bcast of 2 MiB at np 32 in one node
 * 172.45 us, alone 172.47, sharing 395.4; meshnodes.xml shares, 590.4 us at np 32, sharing
 * 537.0 and alone 314.0, the review of stop 65); other steps as cf_steps_cost. Not in units
 * of np=2's time as cf_steps_cost's trees: for a bcast whose np=2 times cannot be read. */
double cf_steps_held_us(cf_steps st, long p, double m, long node, int alone, const double *um,
                        const double *ut, int n);
/* For the same trees (cf_steps_knomial_bcast), each send waiting for its receiver: the mean over
 * the p ranks of the levels that send to another aligned block of `block` ranks which each rank
 * waits (its arrival's and its own), over the root's: 1 for a full tree, where every rank
 * leaves with the root; less where a short subtree leaves sooner (3 nodes of 4 at np 12: the
 * third node's ranks wait one of the root's two). NAN for other steps or no crossing. */
double cf_steps_held_cross_share(cf_steps st, long p, long block);
/* A bcast tree timed a call at a time (CF_STEPS_LG: a binomial one; CF_STEPS_BCAST_BINOMIAL,
 * CF_STEPS_BCAST_KNOMIAL; CF_STEPS_BINARY) below CF_EAGER_MAX, where a sender's messages all
 * leave at once: its ranks' mean with their bytes sharing the sender's link (each further
 * message its time above the smallest size's again, as tree_msg costs it) over the same with
 * each message alone on it. Neither is what a network does (SimGrid shares a link fairly
 * among its flows, a card sends in turn, either between the two), so an estimate holds both.
 * 1 for other steps, from CF_EAGER_MAX and below p 3. */
double cf_steps_bcast_sharing(cf_steps st, long p, double m, const double *um, const double *ut,
                              int n);
/* The mean over p ranks of each rank's time in SMPI's two-level reduce across nodes
 * (CF_STEPS_SMP_HALVING2; reduce__mvapich2_two_level under its mpich selector) of m bytes,
 * all starting at once, in the replays' units (a message the ping-pong at its size, um and
 * ut, 2 units, plus what the tiers t between its ranks add), the nodes of t->node_ranks
 * filled in order (the last may hold fewer; 1 where not known): MPICH's reduce inside each
 * node to its first rank, then among the nodes' first ranks, each starting when its node's
 * is in. A rank that is no node's first leaves after its node's reduce, and where the nodes
 * are no power of two the ones folded in leave after their one message: at 27 ranks on nodes
 * of 2 (14 nodes) 8 ranks of 27 wait out the scatter-gather, 16 of 32 at np 32. NAN when out
 * of memory or past CF_BRUCK_REPLAY_MAX ranks. */
double cf_steps_smp_halving_us(long p, double m, const double *um, const double *ut, int n,
                               const cf_tiers *t);
/* The same of Rabenseifner's allreduce (CF_STEPS_HALVING2 for allreduce; MPICH's and Open
 * MPI's, SimGrid's allreduce__rab_rdb) on p ranks in a row: where p is no power of two the
 * first 2 rem ranks pair, each even one sending its vector to the odd one above and waiting
 * out the rest; the pof2 left halve the vector with the partners at distance 1, 2, ... (m/2
 * at distance 1) and gather it back from distance pof2/2 down; the odd ones send the result
 * down. NAN as there. */
double cf_steps_halving_allreduce_us(long p, double m, const double *um, const double *ut,
                                     int n, const cf_tiers *t);
/* The same where each node holds node ranks (0: not known, as cf_steps_cost): SMPI's two-level
 * recursive doubling (CF_STEPS_SMP_FOLD) costs a node's levels twice, down and back, and the
 * leaders' steps once, in units of its np=2 time (every other algorithm as cf_steps_cost);
 * a tree bcast's messages sent at once load their sender's link by load each
 * (cf_steps_cost_loaded). */
double cf_steps_cost_node(cf_steps st, long node, long p, double m, const double *um,
                          const double *ut, int n, double load);
/* The same where the ranks' tiers are known (tiers NULL or empty: cf_steps_cost_loaded with
 * the tiers' eager_load), for an
 * algorithm replayed over them (cf_steps_tiered): a per-call reduce tree down the tree Open
 * MPI builds, Bruck's alltoall step by step, each message 2 T2 at its size plus the latency
 * its ranks' tier adds, each rank starting the call when it left the barrier after the one
 * before (the barrier of rule set rules, replayed over the tiers, cf_barrier_exits; rules
 * NULL: all at once; beyond the ranks the probe reached, the share of the time the barrier's
 * spread exits left at the probe's reach); the mean over the ranks of each one's time.
 * less_wait: less the wait those exits leave in the call (a reduce tree: the root's for the
 * last rank, over p; Bruck's alltoall: every rank's for the last), which the across-np model
 * takes from the measured times and adds back by itself (cf_across.wait_us). */
double cf_steps_cost_tiered(cf_steps st, long p, double m, const double *um, const double *ut,
                            int n, const cf_tiers *tiers, const char *rules, int less_wait);
/* The latency-bound steps of algorithm a at (p, m), by the ranks their pairs span: count steps
 * whose partners all lie within blocks of `ranks` consecutive ranks (a binomial tree's,
 * recursive doubling's or Bruck's step of distance d, a pairwise exchange's d steps of
 * distances d to 2d - 1: 2d), or anywhere in the communicator (ranks = p: a chain's crossings, an
 * algorithm posting its messages at once). Each span also holds the bytes of its steps'
 * messages (Rabenseifner's step at distance d moves m/(2d), recursive doubling's allgather's
 * d blocks of m) and how many steps its bytes pace: as many as it counts, but for a chain (a
 * ring, a pipeline), whose latency a block's path waits for at each tier boundary it crosses
 * (count) while every step's transfer waits for the slowest link's (paced: a ring's p - 1).
 * What a farther network tier adds to the steps reaching it (cf_placement_tier_extra) is
 * counted on these; each reading errs low (what the probe shows at least), never high.
 * Fills at most max spans; returns how many, -1 when max is too small. */
#define CF_SPANS_MAX 132 /* 2 * 64 levels, and a few more */
typedef struct cf_step_span {
    long ranks;
    double count;
    double bytes; /* of each step's messages */
    double paced; /* the steps whose transfers wait on the slowest pair's */
    long partner; /* rank 0's partner at the step (a level's distance d: 0 pairs with d),
                     0 where the span holds steps of several distances */
} cf_step_span;
int cf_steps_spans(const cf_rule_alg *a, long p, double m, cf_step_span *out, int max);
/* A probe's reading at a message of bytes, from its value at 8 bytes (v8) and at n sizes
 * (increasing) sizes[s], values v[s * stride]: v8 up to 8 bytes, then the value at the
 * largest size at or below bytes (a protocol changes by steps), and past the largest along
 * the line through the two largest in bytes (a route's lower bandwidth), never less than the
 * largest's; v8 below the smallest size (n 0: v8). */
double cf_sized_at(double v8, const double *sizes, const double *v, size_t stride, int n,
                   double bytes);
/* The bytes each rank of p sends across the halves of the p ranks in a step that every rank
 * takes at once (the traffic the launch's pair-exchange probe loads a network with), for
 * algorithm a of a pattern whose ranks all send (not a rooted one) at size m: a pairwise
 * exchange's, a spread ring's and a linear or isend/irecv alltoall's p/2 partners of m
 * each (not a linear allgather: a gather and a bcast); the top step of recursive doubling's or
 * Bruck's allgather and of Bruck's alltoall, p/2 blocks of m; recursive doubling's allreduce
 * exchange of m; Rabenseifner's m/p each way (it halves from the nearest partner out). 0 for the
 * others: chains (a ring, a neighbour exchange, a pipeline), whose few messages across the halves
 * do not load it so; trees. A two-level algorithm's ranks cross as one a node: the caller's to
 * check. */
double cf_steps_cross_bytes(const cf_rule_alg *a, const char *pattern, long p, double m);
/* The same out of each rank's block of b consecutive ranks (b < p, blocks aligned on
 * multiples of b; cf_steps_cross_bytes is b = p/2): the bytes a rank sends to partners
 * outside its block, every rank at once. p - b blocks of m where every other rank is a
 * partner once (and recursive doubling's allgather, whose steps from distance b move b,
 * 2b, ... blocks); half of the p blocks for each of Bruck's alltoall steps from distance b;
 * m for each of recursive doubling's allreduce steps from b; Rabenseifner's m/d each way
 * for each step at a distance d from b. For p a power of two; otherwise a reading. */
double cf_steps_block_bytes(const cf_rule_alg *a, const char *pattern, long p, long b, double m);
/* The algorithm of the point-to-point estimate named name (a cf_colls algorithm of pattern)
 * as a rule algorithm, for cf_steps_spans and cf_steps_cross_bytes (a name's steps can
 * differ by pattern: recursive doubling's allgather doubles its blocks, its allreduce
 * exchanges the vector); -1 for one without steps (a point-to-point message). */
int cf_coll_alg_rule(const char *pattern, const char *name, cf_rule_alg *out);

#define CF_GRID_MAX 768
#define CF_UNIT_MAX 64
#define CF_RULES_NAME_MAX 24
typedef struct cf_grid_point {
    long p;
    double m, t_us;
} cf_grid_point;
typedef struct cf_across_grid {
    char rules[CF_RULES_NAME_MAX]; /* "" when there is no grid */
    long node_ranks;               /* the nodes' ranks the rules read (cf_tiers.node_ranks) */
    int nunit;
    double unit_bytes[CF_UNIT_MAX], unit_t_us[CF_UNIT_MAX];
    int n;
    cf_grid_point pt[CF_GRID_MAX];
    /* The relative error of the line through two process counts read one doubling beyond
     * them, its median over the measured sizes: at least what the interval grows by per
     * doubling of p beyond the largest measured (the error at the size read may be more). */
    double err_per_doubling;
    double step_growth; /* median ratio of the cost per step at the top to the one below */
    /* The largest growth of the cost per step over one doubling of p anywhere in the
     * measured range, from no process on (np=1 costs nothing), its median over the sizes and
     * algorithms: a network whose step cost grew that much over one doubling (a torus whose
     * steps cross more hops and share more links as ranks fill a row, then a plane) may grow
     * as much again beyond the largest measured np, even where it did not grow at the top.
     * It raises the interval's upper end only (growth), never its lower end. */
    double step_growth_max;
    /* The grid's backtest of its per-call trees (cf_steps_per_call) where it reads them
     * without a backtest of their own (at fewer than three np, or borrowed): each measured np
     * read from the np below it alone, |ln(read / measured)| per doubling the reading spans,
     * a high quantile over every such reading. These trees' costs are all built from one
     * measured message cost, the ping-pong's, so the trees measured at the np below test the
     * cost an untested tree is read with beyond them. NAN without a ping-pong (the trees then
     * cost their messages with T2), with such readings at fewer than two np, or where the
     * largest np read misses more than the next below (misses growing with np). */
    double tree_err;
    /* The same backtest of the costs the tiers replay (cf_steps_tiered: the per-call reduce
     * trees, Bruck's alltoall), apart from the others, which tree_err then holds alone: NAN
     * without tiers. */
    double tiered_tree_err;
    /* The unit of the per-call trees' messages (cf_steps_per_call), and of the steps the
     * tiers replay (cf_steps_tiered), where the table has a
     * ping-pong: half its np=2 time by size (one message's per-call mean at np=2, where the
     * sender leaves at once), nmsg 0 when none (the pattern's T2 then). The pattern's own
     * np=2 times may run other algorithms (Open MPI's bcast sends 8 KiB segments there). */
    int nmsg;
    double msg_bytes[CF_UNIT_MAX], msg_unit_us[CF_UNIT_MAX];
    /* The launch probe's latency tiers (n 0: none, or a file from before them): the per-call
     * reduce trees and Bruck's alltoall (cf_steps_tiered) are replayed over them
     * (cf_steps_cost_tiered). */
    cf_tiers tiers;
} cf_across_grid;
/* Whether the grid costs algorithm steps st over its tiers (cf_steps_cost_tiered): an
 * algorithm that follows the tiers (cf_steps_tiered), tiers known and a message unit to cost
 * it by. */
int cf_across_grid_tiered(const cf_across_grid *g, cf_steps st);
/* The largest |log| miss of the smallest np's times a unit read through them may keep where
 * np=2 was not measured (cf_across_grid_build): beyond it, no grid. */
#define CF_UNIT_MISS_MAX 0.25
/* A step_growth above this is contention that grows with np, and said so. */
#define CF_GRID_CONTENTION 1.2

/* The across-np model of one (pattern, datatype): one or two size ranges (MPICH switches
 * algorithm, and protocols switch, at sizes), chosen with their algorithms by AICc. */
typedef struct cf_across {
    char pattern[CF_PATTERN_MAX];
    char datatype[CF_DATATYPE_MAX];
    int nnp;
    long np[CF_ACROSS_NP_MAX]; /* measured process counts, increasing */
    double bytes_min, bytes_max;
    char error[CF_NOTE_MAX]; /* why there is no model; "" when fitted */
    int nseg;
    cf_across_seg seg[CF_ACROSS_MAX_SEG];
    cf_rel_quality q;    /* over every point */
    cf_across_grid grid; /* answers first where it can */
    /* Where the rules know the pattern but no np=2 was measured and no unit read the
     * smallest np's times through them (cf_across_grid_build): that np, the size missed
     * most and by what factor ("np=4, x2.14 at 64 KiB"); "" otherwise. Not in the model
     * file: fit says it. */
    char grid_none[96];
    /* The wait the barrier after each timed call added to each measured np's times
     * (cf_across_probe), taken from them before the fit: the model, its grid and its points
     * are the calls' own cost, and predict adds the wait at the np it answers for back.
     * waited 0: nothing taken (no latency probe, or no wait anywhere). replayed 1: the
     * barrier was replayed at every measured np, if it found no wait at any (waited 0):
     * predict still replays it at the np it answers for. */
    int waited, replayed;
    double wait_us[CF_ACROSS_NP_MAX];        /* at np[i] */
    char wait_rules[CF_RULES_NAME_MAX];      /* the rules whose barrier was replayed ("":
                                                MPICH's, as cf_barrier_alg reads none) */
    /* Where the segments' within_err is known: the launch probe's tier boundaries
     * (cf_tiers.ranks, increasing; ntier 0 elsewhere), the ranks the probe reached
     * (cf_tiers.probed: beyond them no tier is known) and the np their backtest read. */
    int ntier;
    long tier_ranks[CF_TIERS_MAX];
    long tier_probed;
    long within_np;
    /* Read by its key alone (pattern, datatype) by cf_modelset_read_keys, and not yet whole
     * by cf_modelset_read_fits; nothing else is set. */
    int key_only;
} cf_across;
/* Whether a call of datatype at m bytes moves nothing (no bytes, or fewer than one element:
 * MPI returns at once, waiting for no one): 1 or 0. */
int cf_across_moves_nothing(const char *datatype, double m);

/* Hockney's alpha + beta*m, fitted in relative error. */
typedef struct cf_hockney {
    double alpha_us, beta_us_per_byte;
    double cov[2][2];
    double s2;
    cf_rel_quality q;
    double bytes_min, bytes_max;
    int beta_held;    /* the free fit made beta negative: it is held at 0 (cf_hockney_fit) */
    double beta_free; /* with beta_held: what the free fit gave it */
} cf_hockney;

#define CF_P2P_UNIT_MAX 64
/* Measured / point-to-point estimate for one (pattern, datatype, np), over its sizes. */
typedef struct cf_contention {
    char pattern[CF_PATTERN_MAX];
    char datatype[CF_DATATYPE_MAX];
    long np;
    int n;
    double median, min, max;
    double sd_log; /* standard deviation of ln(ratio) over the sizes */
    /* At np=2 only: the collective's own times there as T2 = lat_factor * alpha * A(2) +
     * bw_factor * (beta * B(2, m) + gamma * G(2, m)), fitted in relative error with their
     * covariance and residual relative variance (factors 0: not fitted, an older file). */
    double lat_factor, bw_factor;
    double factor_cov[2][2];
    double factor_s2;
    /* The measured curve itself at this np (bytes > 0, increasing; nunit 0: none, an older
     * file at np > 2): at np=2 the estimate's steps are costed with it where the MPI
     * library's rules are known; elsewhere the estimate at other np goes through it size by
     * size. */
    int nunit;
    double unit_bytes[CF_P2P_UNIT_MAX], unit_t_us[CF_P2P_UNIT_MAX];
    /* At np=2: the sizes whose times moved no data (cf_row_no_transfer: faster than the
     * ping-pong moves the bytes), which the estimate's note names; 0 and 0: none. */
    uint64_t no_transfer_from, no_transfer_to;
} cf_contention;

/* 95% model-error factors of the point-to-point estimate: what alpha and beta cannot know
 * (contention, the MPI library's algorithm choice, p beyond what was measured). */
#define CF_P2P_FACTOR_MEASURED 2.0   /* the pattern was measured at some np */
#define CF_P2P_FACTOR_UNMEASURED 3.0 /* it never was */
/* From the pattern's own np=2 times. Where an algorithm's latencies may overlap (the
 * nonblocking alltoall's p-1 sends, a reduce tree's in the ranks' mean), each step past the
 * first costs the sender its overhead o, a share rho of the ping-pong's one-way latency
 * alpha = L + 2o (LogP), which cannot pass 1/2 (L >= 0). np=2 cannot tell o from L: the
 * estimate spans rho from 0.1 (an overhead a tenth of the latency) to 1/2 for the
 * alltoall, to 1 (no overlap at all) for a reduce tree costed as lg p steps (a bcast tree
 * timed a call at a time does not overlap: p2p.c's tree_each). */
#define CF_P2P_OVERHEAD_LO 0.1
#define CF_P2P_OVERHEAD_HI 0.5
/* The least model error of the estimate from the np=2 times, per doubling of p beyond 2
 * (log standard deviation): the estimate's median error at np 16 on the development
 * simulated tables (20 of them, both selectors, 1130 points) is 7.7% (|ln| 0.074), what a
 * log-normal error of sd 0.11 gives over those 3 doublings (0.11 / sqrt 3 a doubling). */
#define CF_P2P_DOUBLING_SD 0.063
/* The margin per doubling of p beyond 2 (sd of ln) of the bound the readings' latency and
 * bytes ratios set on the estimate from np=2 (p2p.c's split_margin): the 95th percentile
 * of the estimate's |ln error| per sqrt(doublings) on data/sim-flat.csv, both selectors,
 * np 4 to 128 fitted at np 2 alone (623 points, the reductions of fewer bytes than a float
 * left out as bench/accuracy.sh's goals do: 0.272), over 1.96. The held-out
 * data/sim-ethflat.csv gives 0.271 (550 points). */
#define CF_P2P_SPLIT_SD 0.139
/* The sd of ln of np=2's own time between two of its measured sizes about the log-log line
 * through them, at the middle (w = 1/2; 4 w (1 - w) of it squared at weight w) where the
 * two lie 4 apart or more (in proportion to ln of their ratio closer: p2p.c's bridge_var):
 * SimGrid's network factors break at 1426 B, 3484, 5776, 9376, 15424 and 65472 B, and past 1426 B
 * its messages go faster than the line through 1 and 4 KiB says (np=2's bcast inside a node
 * of data/platforms/fatnodes.xml: 0.208 us at 1400 B, 0.162 at 1500). np=2 simulated at 20
 * sizes between the shipped tables' (6 B to 1500 KiB; six collectives and the ping-pong,
 * both selectors): the 95th percentile of |ln| over sqrt(4 w (1 - w)) on the development
 * platforms (flat, ethflat, fattree, multicore, cloud, torus; 1276 points) 0.420, over 1.96;
 * the nine others hold 95.5% of theirs (1972) within it. Real tables interpolated so miss
 * about as far (goal 6's log-log line, every third size held out: 90th percentiles of 21% to
 * 25%; the real np=2 curves' 95th percentile of the same 0.272 at gaps of 4). */
#define CF_P2P_BRIDGE_SD 0.214
/* p2p.c's np2_step, a step of np=2's curve between two measured sizes: how far their
 * log-log slope must pass 1 or the next pair's, and how far the time must rise between them
 * at least (less is a line of bandwidth or a timer's noise, and a range of less changes an
 * interval little) */
#define CF_P2P_STEP_SLOPE 0.05
#define CF_P2P_STEP_RISE 1.2

typedef struct cf_p2p {
    char error[CF_NOTE_MAX];      /* why there is no estimate; "" when there is */
    char pattern[CF_PATTERN_MAX]; /* where alpha and beta come from: "pingpong" */
    cf_hockney h;
    double gamma_us_per_byte, gamma_se;
    char gamma_source[CF_NOTE_MAX];
    char rules[CF_RULES_NAME_MAX]; /* the MPI library's switch rules; "" when unknown */
    long node_ranks;               /* the nodes' ranks the rules read (cf_tiers.node_ranks) */
    /* Set for one answer, never stored: the launch's latency probe lets the estimate from
     * np=2 replay the reduce trees over its tiers, or over none where it shows none
     * (cf_placement_p2p_answer), so that what each message adds past np=2's pair is added */
    int tiers_replayed;
    /* Set for one answer, never stored: the launch's pair-exchange probe's time per byte at
     * np=2's pair (its exchange of pair_exchange_bytes), the line messages posted at once may
     * stream their bytes at where it is below beta (stream_bytes); 0: none */
    double stream_beta;
    size_t ncont;
    cf_contention *cont;
} cf_p2p;

/* A prediction with its 95% prediction interval. */
typedef struct cf_estimate {
    double t_us, lo_us, hi_us;
    int alg;               /* p2p: index of the algorithm used in its cf_coll */
    double contention;     /* p2p: the factor applied (1 when none was measured) */
    long contention_np;    /* p2p: where it was measured; 0 when none */
    double model_factor;   /* p2p: the model-error factor in the interval */
    const char *algorithm; /* across-np: the algorithm that answered (static or in the model) */
    int grid;              /* across-np: the grid answered (measured points along the rules'
                            * step counts), not the fitted formula */
    int unreplayed;        /* across-np: the grid read an algorithm it replays over the latency
                            * probe's tiers (cf_steps_tiered) from another's cost per step, no
                            * tiers being kept to replay it over, none like it having run */
    int replay_held;       /* across-np: the answer is the middle of the steps' reading and
                            * the measured np's times around np carried to it by the replay of
                            * an algorithm that halves the vector (Rabenseifner's, SMPI's
                            * two-level reduce), the interval holding both: 2 where np or its
                            * nodes' count is no power of two (ranks fold in and out), 1 else */
    double step_below;     /* across-np, the grid between two measured sizes whose reading
                            * steepens as no alpha + beta m does (a step between them): the
                            * smaller, whose reading the lower end holds; 0 elsewhere */
    int fold_widened;      /* across-np, with replay_held 2: the interval holds the readings
                            * and the measured np's times around np with the backtests' width
                            * (SMPI's two-level reduce) */
    double overlap_us;     /* p2p from np=2: the reading where the messages a rank posts at
                            * once overlap as far as np=2 cannot rule out (those to partners
                            * on its node; the others' bytes streaming), where it is faster
                            * than row_us and the estimate their geometric middle, the lower
                            * end holding it; 0 elsewhere */
    double row_us;         /* there, the reading where they go one after another */
    double alone_us;       /* p2p from np=2, a bcast tree's eager sends (cf_steps_bcast_sharing):
                            * the reading with each message alone on its sender's link, where
                            * the two part; the estimate the geometric middle; 0 elsewhere */
    double shared_us;      /* there, the reading with their bytes sharing it */
    int no_op_open;        /* p2p from np=2 past np 2: the call moves nothing (a reduction of
                            * fewer bytes than an element) and the lower end is 0 */
    double sender_share;   /* p2p from np=2, a linear gather to the root: how far its senders
                            * waited for the root at np=2 (0 to 1), which the ranks' mean
                            * at p reads, the least of the measured sizes around; NAN
                            * elsewhere */
    double sender_share_hi; /* the most of them (the same at a measured size) */
    double split_lo, split_hi; /* p2p from np=2 past np 2 in a SimGrid table, at np=2's
                                * measured sizes and between them: the readings' least and
                                * most ratio to np=2's time at m, as np=2's curve lets it split
                                * (predict_np2_at; split_hi INFINITY where np=2 moved no
                                * bytes); NAN elsewhere (and on paths that do not read np=2) */
    double split_margin;       /* there, the factor of the margin about them */
    double split_lo_us, split_hi_us; /* the ends of the interval they set, each NAN where
                                      * another reading set it */
    double floor_from;      /* p2p from np=2, a bcast read through np=2 times that moved no
                             * data: the estimate before it was raised to (p - 1) / p of the
                             * ping-pong's one-way time or, floor_steps 1, to the algorithm's
                             * steps each send waiting for its receiver (cf_steps_held_us);
                             * NAN elsewhere */
    double floor_us;        /* there, what it was raised to */
    int floor_steps;        /* 1 where that is the algorithm's steps, 0 the receipt */
    double floor_shared_us, floor_alone_us; /* the steps' two readings where they differ (a
                                             * level's messages sharing the sender's link,
                                             * each alone), their geometric middle floor_us;
                                             * floor_shared_us NAN elsewhere */
    int ranks_mean;        /* p2p from np=2: the algorithm costed in the ranks' mean, rank by
                            * rank (a binomial gather), not along the root's path */
    double step_a, step_b; /* p2p from np=2 past np 2, m between two measured sizes of
                            * np=2's curve across which it steps (np2_step): the two sizes;
                            * 0 elsewhere */
    double step_ta, step_tb; /* np=2's measured times there, whose range about np=2's
                              * reading at m the interval holds */
    double bridge;         /* p2p from np=2 between two sizes np=2 measured: how far (ln, 95%)
                            * np=2's own time may lie off their log-log line, which the
                            * interval holds (cf_p2p_np2_bridge); 0 elsewhere */
    double all_wait_us;    /* p2p from np=2, a bcast by scatter and allgather: its steps on
                            * the ping-pong's curve, every rank waiting them all, where above
                            * the readings (predict_np2_at); 0 elsewhere */
    double rest_bytes;     /* p2p from np=2 past np 2: the bytes the algorithm leaves to a
                            * call of their own (cf_rules_rest), 0 elsewhere; that call's
                            * estimate and interval, added to the rest's, and its algorithm */
    double rest_us, rest_lo_us, rest_hi_us;
    const char *rest_algorithm;
    int linear_rules;      /* p2p from np=2, a gather the library's rules run linear here
                            * (cf_rules_gather_linear), on the root's node: the lower end
                            * holds its blocks arriving at once, np=2's time */
    int in_turn;           /* p2p from np=2, the same across nodes of one rank each, its
                            * senders held: the root's link taking the blocks in turn */
    /* across-np, where a backtest's miss per doubling of p set the interval: that miss
     * (ln), the doublings it was carried over and the np they were counted from; bt_doublings
     * 0 elsewhere. bt_source: whose miss, CF_BT_MODEL the fitted model's backtest (refitted
     * without the largest measured np, read there), CF_BT_TREES the grid's of its readings
     * (tree_err, tiered_tree_err), CF_BT_LOO the fitted model's leave-one-out error (a model
     * file from before its backtest). */
    double bt_err, bt_doublings;
    long bt_from;
    int bt_source;
    /* where the reading carries a growth measured at larger np (bt_from then that np) and
     * the lower end holds the reading without it: the doublings that reading spans and its
     * np (0 elsewhere) */
    double bt_lo_doublings;
    long bt_lo_from;
    /* where the fitted model's backtest read a tier crossing (cf_across_bt_ln): how many of
     * the doublings count at bt_err (bt_crossings of bt_doublings, bt_lo_crossings of
     * bt_lo_doublings; 0 where all do), the others at bt_within (ln), the miss of that
     * backtest within a tier, refitted without bt_within_np */
    double bt_crossings, bt_lo_crossings;
    double bt_within;
    long bt_within_np;
    /* where the call moves nothing and the lower end was lowered to hold the least time the
     * grid measured of such calls: that lower end, the time less the grid's margin (0
     * elsewhere) */
    double no_op_us;
    /* p2p from np=2, a linear scatterv or gatherv the launch's fan probe covers
     * (cf_placement_p2p_answer): the probe's ranks' mean at np over its time at np 2, which
     * the estimate is np=2's measured time times; the probe's levels (in ranks) and sizes
     * around np and m it was read between (equal at a measured level or size); NAN
     * elsewhere. */
    double fan_ratio;
    int fan_held;    /* the interval holds np=2's whole answer too (cf_placement_p2p_answer) */
    int fan_between; /* np between two of its levels */
    long fan_beyond; /* np past its largest level, this one (its two largest carried on) */
    long fan_level_lo, fan_level_hi;
    double fan_bytes_lo, fan_bytes_hi;
} cf_estimate;
enum { CF_BT_MODEL = 1, CF_BT_TREES, CF_BT_LOO };
/* est's bt_ fields cleared: no backtest set its interval. */
void cf_estimate_bt_clear(cf_estimate *est);
/* The backtest's widening (ln) that est's bt_ fields give over d doublings, of its lower
 * end's reading (bt_lo_crossings) or not. */
double cf_estimate_bt_ln(const cf_estimate *est, double d, int lower);
/* est's bt_crossings (lower: bt_lo_crossings), bt_within and bt_within_np from a's backtest
 * at size m over d doublings from np `from` to q: the tier crossings cf_across_bt_ln counts
 * at the larger miss (0 where within_err is unknown at m); bt_err the rate
 * of the crossings. */
void cf_estimate_bt_tiers(cf_estimate *est, const cf_across *a, double m, long from, long q,
                          double d, int lower);

/* Relative-error least squares: minimises sum ((t_i - x_i.c) / T_i)^2, T_i the measured
 * time first, then the fitted one (iterated), with robust setting aside points beyond 5
 * robust standard deviations (a quarter at most; fit --no-robust: none). X is n rows of k
 * values. cov is scaled by the residual variance s2. Fails (CF_EXIT_DATA) when the columns
 * cannot be separated. */
int cf_rel_lsq(size_t n, size_t k, const double *X, const double *t, int robust, double *coef,
               double *cov, double *s2, cf_rel_quality *q, cf_error *e);

/* Hockney's alpha + beta*m fitted to the sizes m and times t in relative error. beta is a
 * time per byte: where the free fit makes it negative but within 1.96 standard errors of 0,
 * alpha positive (SimGrid's Ethernet factors make 1500 B faster than 1 KiB, so a ping-pong of
 * 4 B to 1500 B alone fits -4.0e-05 +- 3.3e-04 us/B), beta is held at 0 and alpha fitted
 * alone; beta keeps the free fit's variance (the data know it no better than that), the
 * covariance 0; out->beta_held and out->beta_free say so. A beta further below 0 stays:
 * times that fall with the size say something is wrong. */
int cf_hockney_fit(const double *m, const double *t, size_t n, int robust, cf_hockney *out,
                   cf_error *e);

/* How the switch between two size ranges is searched: QUICK (what cf_across_fit_points
 * does) fits every candidate quickly and properly only those within reach of the best;
 * EXHAUSTIVE fits every candidate properly, the reference tests compare QUICK with. */
typedef enum cf_across_search { CF_SEARCH_QUICK, CF_SEARCH_EXHAUSTIVE } cf_across_search;

/* Fits pattern c's basis to the points (any order; p >= 2). Too few process counts or
 * points is not an error: out->error says so. Errors only for data that cannot be fitted. */
int cf_across_fit_points(const cf_coll *c, const char *datatype, const cf_point *pts, size_t n,
                         cf_across *out, cf_error *e);
int cf_across_fit_points_search(const cf_coll *c, const char *datatype, const cf_point *pts,
                                size_t n, cf_across_search how, cf_across *out, cf_error *e);
/* Candidates beyond the pattern's algorithms: CF_ACROSS_P_LINEAR adds each algorithm with a
 * latency term linear in p besides its own ("recursive doubling + p-linear latency"), for
 * tables whose MPI library's rules are unknown: on real machines at scale contention and
 * noise can grow the latency with p. Like any candidate, it is chosen by AICc only. */
#define CF_ACROSS_P_LINEAR 1u
/* Not a candidate but how every candidate is fitted: no point set aside (fit --no-robust),
 * in cands wherever it is taken. */
#define CF_ACROSS_KEEP_ALL 2u
int cf_across_fit_points_cands(const cf_coll *c, const char *datatype, const cf_point *pts,
                               size_t n, cf_across_search how, unsigned cands, cf_across *out,
                               cf_error *e);
/* The quick fit among the pattern's algorithms into plain and, when that fits and cands
 * adds candidates, the fit among them all into more (*have_more = 1): the same results as
 * the two fits, but with one search, which fits each range of the pattern's algorithms once. */
int cf_across_fit_points_more(const cf_coll *c, const char *datatype, const cf_point *pts, size_t n,
                              unsigned cands, cf_across *plain, cf_across *more, int *have_more,
                              cf_error *e);
/* The backtest of a fitted across-np model from its points: each segment's extrap_err, and
 * its measured growth and growth_change at the largest np.
 * Returns the mean miss per doubling over every point at the largest np (NAN: none). */
double cf_across_backtest(const cf_coll *c, const cf_point *pts, size_t n, unsigned cands,
                          cf_across *a);
/* Where the doubling to a's largest np crosses a tier of tiers (NULL: none known) and a
 * doubling below it crosses none: the segments' within_err, the backtest of the largest such
 * doubling (its np in a->within_np, the tiers' boundaries in a->tier_ranks, the ranks they
 * reach in a->tier_probed); else nothing. pts, n, cands as cf_across_backtest's, after it.
 * A backtest read across a tier misses what no doubling beyond the largest np repeats
 * unless it crosses a tier too: Open MPI's ring allgather on 8-core nodes
 * (sim-multicore-ompi) fitted at np 2-16, refitted without np 16 (the first across nodes)
 * and read there, missed it by x6.44; np 8 from np 2-4 by x2.13. */
void cf_across_backtest_tiers(const cf_coll *c, const cf_point *pts, size_t n, unsigned cands,
                              const cf_tiers *tiers, cf_across *a);
/* How many of the n tier boundaries ranks[] (increasing) a reading from np lo up to hi
 * crosses: a boundary b parts ranks b apart, crossed where lo <= b < hi. */
int cf_tiers_between(const long *ranks, int n, long lo, long hi);
/* The segment whose backtest answers at size m (a->nseg > 0). */
int cf_across_backtest_seg(const cf_across *a, double m);
/* ln of the widening the fitted model's backtest gives a reading from np `from` carried over
 * d doublings up to np q, at size m, per doubling `per` (the fitted model's at m,
 * cf_across_extrap_err): where the segment at m has a within-tier backtest and q lies beyond
 * the largest fitted np, its crossings at per (one for each tier boundary the reading
 * crosses inside the fitted range, from `from` to the largest np, one for the first doubling
 * beyond the largest np, one for each boundary past that doubling up to q; every doubling
 * past the probe's ranks, nothing being said of the tiers there; at most d), the other
 * doublings at the segment's within_err where it is smaller; per * d elsewhere. */
double cf_across_bt_ln(const cf_across *a, double m, long from, long q, double d, double per);
/* The across-np fit commfit fit runs: cf_across_fit_points; with CF_ACROSS_P_LINEAR in
 * cands, also the fit among the p-linear candidates, kept only when AICc chose one of them
 * there and its backtest (reading the largest measured np from those below) misses less
 * than half as much as the plain fit's: more terms fit the measured points better by
 * construction, and only the backtest says whether they also extrapolate better in p. */
int cf_across_fit_extrap(const cf_coll *c, const char *datatype, const cf_point *pts, size_t n,
                         unsigned cands, cf_across *out, cf_error *e);
/* The grid of a (fitted) across-np model from its points under the rules, the ping-pong's
 * np=2 curve pingpong costing the per-call trees' messages (NULL: none) and the launch's
 * latency tiers those messages cross (NULL: none known); nothing when the rules have none for
 * the pattern, np=2 was not measured or there are too many points. */
void cf_across_grid_build(cf_across *a, const char *rules, const cf_point *pts, size_t n,
                          const cf_contention *pingpong, const cf_tiers *tiers);
/* The grid's measured size nearest m (by ratio; of two as near, the larger); 0 for an empty
 * grid. */
double cf_across_grid_nearest_m(const cf_across_grid *g, double m);
/* The measured np whose cost the grid's reading at (q, m) carries: the largest np the
 * algorithm the rules pick at q was read from at the sizes nearest m, the smaller of the
 * two where m lies between two sizes (or the largest np at
 * the nearest size, where it borrows or carries the growth up to it); 0 where the grid does
 * not answer there. Below the largest measured np, the reading never saw what that np saw
 * (a farther tier) in this algorithm's cost. */
long cf_across_grid_from_np(const cf_across *a, long q, double m);
/* [*lo, *hi] widened to hold t0 and t1, the times (or the fitted np's own answers) at the
 * nearest np below and above the one asked, with the grid's floor as margin; nothing where
 * either is not positive. A call over more ranks costs more, mostly: between two measured np
 * the truth lies between theirs where the reading's step counts miss (a node's inner tiers). */
void cf_across_hold_between(double t0, double t1, double *lo, double *hi);
/* The times a's grid measured at size m at the nearest np below and above q, into *below
 * and *above (NAN where m was not measured on that side): 1 where both were, else 0 (what
 * cf_across_grid_predict holds its interval to). */
int cf_across_grid_around(const cf_across *a, long q, double m, double *below, double *above);
/* The fitted model's backtested error per doubling of p beyond the measured np at size m
 * (|ln(read / measured)|, the range's or a neighbour's); NAN without a fitted model. *source
 * (may be NULL): whose miss it is, CF_BT_MODEL, or CF_BT_LOO in a file from before the
 * backtest. */
double cf_across_extrap_err(const cf_across *a, double m, int *source);
/* T at (p, m) from the grid with its 95% interval, the algorithm the rules run there and,
 * where the fitted model's backtest set the interval, the bt_ fields (out's other fields
 * untouched); -1 when the grid cannot answer there. */
int cf_across_grid_predict(const cf_across *a, long p, double m, cf_estimate *out);
/* T at (p, m) with its 95% prediction interval; out->alg is the segment used. Between the
 * two segments' sizes the interval covers both. */
void cf_across_predict(const cf_across *a, long p, double m, cf_estimate *out);
/* The answer at fitted np p, size m (the fit there with its measured neighbours, as predict
 * answers); NAN where there is none. */
typedef double (*cf_fitted_at)(void *ctx, long p, double m);
/* The line in log p, log v through (p0, v0) and (p1, v1), read at p (p0 < p1, v0 and v1
 * positive). */
double cf_across_loglog_p(long p, long p0, double v0, long p1, double v1);
/* Where the fitted formula answers at (p, m) (no rules read the measured points: a table
 * that names no library; the caller knows, cf_estimate.grid 0), the factor that carries it
 * through the fitted np's own answers: at(p0) / formula(p0) (its barrier wait off where the
 * formula was fitted without) at the nearest fitted np p0 below or above the ones fitted,
 * read log-log between the two fitted np around p (from[0], from[1]; from[1] 0 when one,
 * also where the other has no answer); 1 (from[0] 0) where no ratio is a number. */
double cf_across_anchor(const cf_across *a, long p, double m, cf_fitted_at at, void *ctx,
                        long *from);
/* The indices in a->np of the fitted np cf_across_anchor reads at p: the two around it
 * (*i0 == *i1 at or beyond the ends); a->nnp > 0. */
void cf_across_anchor_np(const cf_across *a, long p, int *i0, int *i1);
/* Whether the grid answers nowhere (no rules, or no points), so that the formula (carried
 * through the fitted np's answers) answers at every np not fitted. */
int cf_across_formula_only(const cf_across *a);
/* The time of one block of m bytes the formula counts once whatever p: its terms in
 * (p-1)/p*m, which level off as p grows (a linear gatherv or scatterv in the ranks' mean,
 * each rank waiting for its own block at the fitted reach's rate). 0 where the formula has
 * none, or reads it below 0. */
double cf_across_block_once_us(const cf_across *a, double m);
/* The model at a fixed p as lines T(m) = c0[i] + c1[i]*m, one per segment, segment i
 * applying below switch_at[i] (c0, c1, switch_at hold CF_ACROSS_MAX_SEG). */
int cf_across_lines(const cf_across *a, long p, double *c0, double *c1, double *switch_at);
/* "Bruck: 1.2 us * ceil(lg p) + ... (m <= 256 B); pairwise exchange: ..." */
void cf_across_describe(const cf_across *a, char *buf, size_t n);
/* "ceil(lg p) + (p-1)" and back; -1 for an unknown term. */
void cf_cterm_sum_name(const cf_cterm_sum *s, char *buf, size_t n);
int cf_cterm_sum_parse(const char *name, cf_cterm_sum *out);

void cf_p2p_clear(cf_p2p *pp);
/* The ping-pong's own np=2 curve among pp's, NULL when it has none. */
const cf_contention *cf_p2p_pingpong(const cf_p2p *pp);
/* The pattern's measured np=2 time at size m, read on its np=2 curve as the estimate from
 * np=2 reads it at p=2; NAN where the file has no np=2 factors for it. */
double cf_p2p_np2_time(const cf_p2p *pp, const cf_coll *c, const char *datatype, double m);
/* Between two measured sizes of np=2's curve across which it steps, est's interval past np 2
 * widened to hold np=2's time there anywhere between the two sizes' (the sizes and times
 * into est's step_*, 0 where it was not). */
void cf_p2p_step_widen(const cf_p2p *pp, const cf_coll *c, const char *datatype, long p,
                       double m, cf_estimate *est);
/* How far (ln, 95%) np=2's own time at m may lie off the log-log line through the two sizes
 * np=2 measured the pattern at around m (CF_P2P_BRIDGE_SD); 0 at and outside its sizes. */
double cf_p2p_np2_bridge(const cf_p2p *pp, const char *pattern, const char *datatype, double m);
/* Whether the file has the pattern's np=2 factors (cf_p2p_np2_time is a number): 1 or 0. */
int cf_p2p_has_np2(const cf_p2p *pp, const char *pattern, const char *datatype);
/* How far the sender of a rooted pattern's message of m bytes (a gather's sender, a
 * scatter's root) waited for its receipt at np=2, 0 (eager: it leaves once sent) to 1 (a
 * rendezvous holds it), read from the pattern's np=2 times against the ping-pong's: between
 * two measured sizes the lesser of theirs, or with most the greater (the protocol's step
 * lies somewhere between: SimGrid detaches sends below 64 KiB, and a share read across 16
 * to 64 KiB held 32 KiB's senders, whose gather of 4 KiB blocks at np 16 on wide.xml then
 * read about 1.4x the simulated time), beyond them the nearest's; NAN where the file has not
 * both curves. */
double cf_p2p_sender_share(const cf_p2p *pp, const char *pattern, const char *datatype,
                           double m, int most);
/* The unit the replays cost a message with (cf_steps_cost_tiered, two units a message): half
 * the ping-pong's np=2 time at each of its sizes (one message's per-call mean at np=2, where
 * the sender leaves at once), into bytes and us, at most CF_UNIT_MAX; how many (0 for a
 * curve of fewer than two sizes, or none). */
int cf_msg_unit(const cf_contention *pingpong, double *bytes, double *us);
/* The estimate for pattern c with datatype at (p, m); 0, or CF_EXIT_DATA when pp has none. */
int cf_p2p_predict(const cf_p2p *pp, const cf_coll *c, const char *datatype, long p, double m,
                   cf_estimate *out);
/* The contention entry the estimate at p calibrates with: the largest measured np <= p,
 * else the smallest. NULL when the pattern was not measured with that datatype. */
const cf_contention *cf_p2p_contention(const cf_p2p *pp, const char *pattern, const char *datatype,
                                       long p);
/* The entry the estimate at p reads the pattern's own times through (cf_p2p_predict): its
 * np=2 factors where the file has them, at any p, else cf_p2p_contention's. */
const cf_contention *cf_p2p_reads_through(const cf_p2p *pp, const char *pattern,
                                          const char *datatype, long p);
/* The pattern's np=2 entry whose times moved no data at some sizes (no_transfer_to > 0); NULL
 * when none. */
const cf_contention *cf_p2p_no_transfer(const cf_p2p *pp, const char *pattern,
                                        const char *datatype);

/* The across-np models and the point-to-point estimate of a model set: what
 * cf_across_fit_set makes and predict, report and the fit summary read. */
typedef struct cf_across_set {
    size_t n;
    cf_across *a;
    int have_p2p; /* "p2p" was present (pp.error may still say it is unusable) */
    cf_p2p pp;
} cf_across_set;

/* What commfit fit runs: from the rows it fits, the across-np model of every (pattern,
 * datatype) and the point-to-point estimate, into out (cf_across_set_clear), and one note
 * per (pattern, datatype) that got no across-np model ("alltoall (byte): not enough process
 * counts (have 1, need 3); fitted per np only"). stat is the time statistic of the fits:
 * "median", "mean" or "min" (NULL: mean). normalized_time_us is the table's metadata value
 * or NULL; it scales gamma when no reduction was measured at np=2. notes is malloc'd;
 * free with cf_notes_free. rules (cf_rules_for, or NULL) adds the grid model. */
/* probe (NULL: none) is what the launch's latency probe says: wait_us what each pattern's
 * times at each np hold of the barrier after each call, taken from every point before the
 * across-np fit and kept in cf_across.wait_us; tiers (NULL: none) the latency tiers the
 * grid's replays cross (cf_steps_tiered, cf_across_grid.tiers). */
typedef struct cf_across_probe {
    double (*wait_us)(const void *ctx, const char *pattern, long np); /* 0: none */
    const void *ctx;
    const cf_tiers *tiers;
} cf_across_probe;
int cf_across_fit_set(const cf_row *const *rows, size_t nrows, const char *stat,
                      const char *normalized_time_us, const char *rules,
                      const cf_across_probe *probe, int robust, cf_across_set *out,
                      char ***notes, size_t *nnotes, cf_error *e);
/* The same over every row of one table, with its metadata. */
int cf_across_fit_table(const cf_table *t, const char *stat, cf_across_set *out, char ***notes,
                        size_t *nnotes, cf_error *e);
void cf_notes_free(char **notes, size_t n);

void cf_across_set_clear(cf_across_set *s);
const cf_across *cf_across_set_find(const cf_across_set *s, const char *pattern,
                                    const char *datatype);
/* The library's switch rules the answers of a model file read, and into *node the nodes'
 * ranks they read: the point-to-point estimate's (pp, may be NULL), else the pattern's
 * grid's (a, may be NULL): a model file keeps the former only where the table had a
 * ping-pong at np 2 (a simulated table of collectives alone has them in its grid). NULL or
 * "" where neither has any. */
const char *cf_across_rules(const cf_p2p *pp, const cf_across *a, long *node);

/* The most lines a formula of lines holds (cf_lines_formula with switches, cf_lines_through). */
#define CF_LINES_MAX 8

/* T(m) from lines c0[i] + c1[i]*m in lang ("text", "c", "python", "latex", "gnuplot"), in
 * the forms of cf_fit_formula: where switch_at is NULL, one line or the minimum of two; else
 * line i from switch_at[i - 1] (0 for the first) to below switch_at[i] (the last beyond),
 * at most CF_LINES_MAX. name is the function a code form defines ("T_alltoall_np16"). The
 * length written, or -1 for an unknown lang or too many lines. */
int cf_lines_formula(const char *name, const double *c0, const double *c1, int nlines,
                     const double *switch_at, const char *lang, char *buf, size_t n);

/* An answer a formula of lines follows: its time at size m (us), and in *alg the name of
 * the algorithm it reads there (NULL for none; a string that outlives the call). */
typedef double (*cf_answer_fn)(void *ctx, double m, const char **alg);
/* A line through an answer that departs from it by more than this is split in two. */
#define CF_LINES_DEPART 0.1
/* The most algorithms the lines through an answer list. */
#define CF_LINES_ALGS 16
/* Lines through an answer in size ranges, and the algorithms it names. */
typedef struct cf_lines {
    int n; /* lines, 1 to CF_LINES_MAX: line i for from[i] <= m < from[i + 1] */
    double c0[CF_LINES_MAX], c1[CF_LINES_MAX], from[CF_LINES_MAX]; /* from[0] 0 */
    int nalg, nalg_all;                /* the ranges of one algorithm: listed, all */
    const char *alg[CF_LINES_ALGS];    /* each one's ("" for none) */
    double alg_from[CF_LINES_ALGS];    /* its first size (0 for the first) */
    double start;                      /* the smallest size read: 0, or 1 where 0 has no time */
    double top;                        /* the largest (cf_lines_top of the one asked) */
    double worst, worst_at;            /* the largest relative departure read, and where */
} cf_lines;
/* Lines through answer f from 0 (or 1) byte to top, each the line of least relative
 * squares through f at 16 sizes an octave and the ends of its range: to begin with one per
 * range of sizes where f names one algorithm (each switch found to the byte), neighbours
 * merged where one line holds both within half of CF_LINES_DEPART (and while there are more
 * than CF_LINES_MAX), then the range departing most, by more than CF_LINES_DEPART, split in
 * two where their larger departure is least, the second starting where f leaves the first
 * line for it (with fewer than 4 sizes a side, only where that takes the lines no further
 * from f, read as worst is), while lines are left.
 * worst: the largest relative departure of the lines from f at 64 sizes an octave and each
 * line's first byte. 0; -1 where f has no positive time at some size (worst_at: that size);
 * -2 where a line is no number (times out of range) or memory ran out. */
int cf_lines_through(cf_answer_fn f, void *ctx, double top, cf_lines *out);
/* The largest size the lines read up to where asked top: whole bytes, from 2 to 2^53. */
double cf_lines_top(double top);
/* The largest relative departure of lines L (n, c0, c1, from) from answer f, read at start,
 * at 64 sizes an octave above it to top and at each line's first byte there; where, into
 * *at. Sizes where f has no positive time are skipped. */
double cf_lines_departure(const cf_lines *L, cf_answer_fn f, void *ctx, double start, double top,
                          double *at);

#endif
