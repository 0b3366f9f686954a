/* Where the ranks of the fitted table ran, from its metadata (hosts, ranks_per_node,
 * cores): how many nodes a process count spans, so that an estimate from np=2 can say
 * which network np=2 never crossed. */
#ifndef CF_PLACEMENT_H
#define CF_PLACEMENT_H

#include <stddef.h>

#include "fit/across.h"
#include "modelfile/modelfile.h"

#define CF_PAIR_LEVELS_MAX 62 /* powers of two from 2 to 2^62 */
/* The least pair_exchange_bytes a probe is read at: smaller ones time latency. */
#define CF_PAIR_BYTES_MIN 65536
#define CF_PAIR_BYTES_MIN_TEXT "65536" /* the same, for messages */
#define CF_FAN_SIZES_MAX 16 /* the most sizes a fan probe is read at */

/* Metadata a placement found and did not use: the key, why ("metadata KEY '...': why"),
 * and the source table it is of (its index in "tables", the inputs' order for fit). */
typedef struct cf_placement_warning {
    size_t table;
    char key[48];
    char text[320];
} cf_placement_warning;

/* Every one, in the order read (a ranks_per_node that does not read is tried in each table
 * in turn: one a table); w owned, freed by cf_placement_free (or, moved out of it, by
 * cf_placement_warnings_free). */
typedef struct cf_placement_warnings {
    cf_placement_warning *w;
    size_t n, cap;
    int lost; /* one was not kept: out of memory */
} cf_placement_warnings;

void cf_placement_warnings_free(cf_placement_warnings *w);

typedef struct cf_placement {
    int known;      /* the metadata says where the ranks ran */
    size_t nnodes;  /* nodes of the launch, in rank order */
    long *ranks;    /* ranks on each node (ranks_per_node), filled in order */
    long *cores;    /* cores of each node; the most ranks a node held where it records none */
    long *first;    /* each node's first rank (from rank_hosts), or NULL: filled in order */
    long *share;    /* with first: the most of ranks 0 to r that one node holds, share[r] */
    size_t nranks;  /* launched ranks that rank_hosts lists */
    char host0[64]; /* the first node's name */
    /* The launch's latency probe (rank_latency_us), from the first table that records it:
     * each rank's one-way latency from rank 0 (lat_us[r - 1] for rank r), or NULL. */
    double *lat_us;
    size_t nlat;
    double lat_margin;     /* relative: what two of the probe's medians may differ by alone */
    double lat_res_us;     /* the timer's resolution (timer_resolution_s), in us */
    int timed_loop;        /* the probe's table timed its calls as a loop (coll_timing) */
    int simulated;         /* the probe's table was simulated (SMPI): a message's transfer
                              starts once its receive is posted (cf_protocol) */
    int root_shift;        /* the probe's table moved the root round-robin (coll_root) */
    /* The sized latency probe (rank_latency_sized_us) of the same table: at each of nsized
     * sizes sized_bytes[k] (increasing), each rank's one-way latency from rank 0
     * (sized_us[k * nlat + r - 1] for rank r); nsized 0 without it. */
    size_t nsized;
    double sized_bytes[CF_TIERS_SIZED_MAX];
    double *sized_us;
    /* The farthest of ranks 1 to r, lat_far[r - 1] and sized_far[k * nlat + r - 1], kept by
     * cf_placement_read (an answer asks for them at every tier of every step), and the
     * nearest, lat_near[r - 1] (an answer past the fitted np sharing their nodes); NULL where
     * the placement was built otherwise: then read rank by rank. */
    double *lat_far, *sized_far, *lat_near;
    /* The launch's pair-exchange probe (pair_exchange_us), from the first table that
     * records it: for each power of two B from 2 (pair_level[k] = 2^(k+1)), the time in us
     * of an exchange of pair_bytes between ranks r and r XOR B/2, ranks 0 to B-1 at once
     * (the slowest rank's); npair levels, 0 without the probe. */
    double pair_us[CF_PAIR_LEVELS_MAX];
    size_t npair;
    double pair_bytes;
    /* Its distances (pair_exchange_distance_us), where recorded: the same B ranks at once,
     * each exchanging with the rank d away (r XOR d), for each power of two d up to B/2
     * (pair_dist_us[k * npair + j]: level k, d = 2^j, j <= k; j = k is pair_us[k]); NULL
     * without them. */
    double *pair_dist_us;
    /* The launch's fan probe (fan_out_us, fan_in_us), from the first table that records it:
     * for each power of two B from 2 (level k: B = 2^(k+1)), ranks 0 to B-1 at once, rank
     * 0 sending ranks 1 to B-1 a message each (fan_us[0]) or receiving one from each
     * (fan_us[1]), the ranks' mean time in us at each of nfan_bytes sizes fan_bytes[j]
     * (increasing): fan_us[dir][k][j]; nfan[dir] levels, 0 without it; whether the table
     * was timed a call at a time (fan_timed_call) and moved its root (fan_root_shift). */
    size_t nfan[2], nfan_bytes;
    double fan_bytes[CF_FAN_SIZES_MAX];
    double fan_us[2][CF_PAIR_LEVELS_MAX][CF_FAN_SIZES_MAX];
    int fan_timed_call, fan_root_shift;
    cf_placement_warnings warn; /* the metadata that was found and not used */
    size_t reading;             /* (the table being read) */
} cf_placement;

/* Warns of each of w's, a line each: "FILE[:LINE]: metadata KEY '...': why; CMD ignores
 * it", FILE and LINE (0: none known) as where(ctx, warning, &file, &line) gives them. */
void cf_placement_warn(const cf_placement_warnings *w, const char *cmd,
                       void (*where)(void *ctx, const cf_placement_warning *pw,
                                     const char **file, long *line),
                       void *ctx);
/* A where of cf_placement_warn for a model file (ctx: a cf_placement_model_at): its path,
 * and the line in the text it was read from (kept by cf_modelset_read and, where the
 * one-pass check was sure of it, cf_modelset_read_keys) that holds the key in its source
 * table's metadata; none where the text was not kept or does not hold it. */
typedef struct cf_placement_model_at {
    const cf_modelset *ms;
    const char *path;
} cf_placement_model_at;
void cf_placement_where_model(void *ctx, const cf_placement_warning *pw, const char **file,
                              long *line);

/* A farther tier is one whose latency exceeds the fitted farthest by more than this part
 * plus the probe's recorded spread (rank_latency_spread): the median of 20 round trips
 * moves by a few percent between runs on a real machine (0.12 vs 0.13 us through shared
 * memory on this project's MPICH machine), while a tier is a step of tens of percent (a
 * socket, a node, a switch, a group) or one more hop of several. */
#define CF_TIER_MARGIN 0.10

/* Where np 2's two ranks ran, by each table of the model's source that says
 * (ranks_per_node): how many put them inside one node (inside) and how many on two
 * (across), of the source's ntables; of the first inside, its file, first node's name and
 * the ranks that node held. */
typedef struct cf_pair_place {
    int inside, across, ntables;
    char file[256], host[64];
    long ranks;
} cf_pair_place;
/* 0, or -1 when out of memory. */
int cf_placement_pair_nodes(const cf_modelset *ms, cf_pair_place *out);

/* From the first table of the model's source whose metadata names ranks_per_node; a
 * file without one gives known = 0 (not an error). 0, or -1 when out of memory. */
int cf_placement_read(const cf_modelset *ms, cf_placement *out);
void cf_placement_free(cf_placement *p);
/* The nodes np ranks span (a process count runs on the launch's first np ranks): those
 * the first np ranks ran on where the table says which (rank_hosts), else as if ranks
 * filled the nodes in order; past the launch, new nodes of the last one's cores. 0 when
 * unknown. */
long cf_placement_nodes(const cf_placement *p, long np);
/* The most of np's ranks one node holds (past the launch: as cf_placement_nodes fills the
 * nodes); 0 where p does not say. */
long cf_placement_share(const cf_placement *p, long np);
/* An np of b's launch at which the placement a (the model's) and b (a table's own) part:
 * the nodes np spans or the most one holds; 0 where they never do. Every np to 1024, then
 * doublings and the launch's whole count (an np between them may part unseen). */
long cf_placement_parts(const cf_placement *a, const cf_placement *b);
/* The placement one source table's metadata says, alone (cf_placement_free after; known 0
 * where it says none that reads). 0, or -1 when out of memory. */
int cf_placement_of_table(const json_t *meta, cf_placement *out);

/* What np=2 did not measure at np, for the point-to-point estimate. */
typedef struct cf_unmeasured {
    int nodes;     /* np spans more nodes than np=2 did */
    int network;   /* np=2 ran inside one node and np leaves it: the network is unknown */
    long nodes2;   /* nodes np=2 spanned */
    long nodes_np; /* nodes np spans */
    /* np reaches ranks farther from rank 0 than any fitted np (np=2 for the estimate from
     * np=2) did (the latency probe), so the network beyond was never measured; the two
     * farthest latencies. */
    int tier;
    double far_fitted_us, far_np_us;
    /* The table does not say where its ranks ran (no ranks_per_node, no latency probe) and
     * np is past the measured: nothing says whether np crosses nodes, switches or a network
     * the measured np never did, so it is taken as the network case, both ends of the
     * interval. */
    int unplaced;
    /* The measured np spanned nodes (more than one) and np puts more ranks on one node than
     * it did (share_np against share_from): ranks sharing a node's link to the network, in
     * that number, were never measured (a round-robin hostfile, one rank a node up to the
     * fitted np); the network case, both ends of the interval. */
    int shared;
    long share_from, share_np;
    /* There, where the probe says np's nearest rank to rank 0 lies nearer than the measured
     * np's (one way, near_np_us against near_from_us): their ratio, which the lower bound
     * takes (1 elsewhere). */
    double nearer, near_np_us, near_from_us;
} cf_unmeasured;

/* Whether p says nothing of where the ranks ran: no placement and no latency probe (an
 * import without --ranks-per-node); beyond the measured np, cf_unmeasured's unplaced. */
static inline int cf_placement_silent(const cf_placement *p)
{
    return !p->known && p->lat_us == NULL;
}

/* Whether u leaves the interval without an upper bound: a network (u->network), a tier
 * (u->tier) or, with no placement at all, anything (u->unplaced) never measured. */
static inline int cf_unmeasured_unbounded(const cf_unmeasured *u)
{
    return u->network || u->tier || u->unplaced || u->shared;
}

/* Whether the probes put np ranks in the same tier as q ranks: their farthest ranks' latency
 * from rank 0 alike (within the probe's margin), and where the pair-exchange probe ran, the
 * exchange across the halves of each one's power of two alike (within CF_TIER_MARGIN). 0
 * where a probe cannot tell (no latency probe, or past what it reached). */
int cf_placement_same_tier(const cf_placement *p, long np, long q);

/* Whether the launch's fan probe alone answers c at np (cf_placement_p2p_answer): a
 * scatterv (the probe's out) or gatherv (its in) of a table timed a call at a time from
 * root 0 with np=2's times of it, np a level of the probe (a power of two from 4 to its
 * largest), not under Open MPI's own rules. */
int cf_placement_fan_covers(const cf_placement *p, const cf_p2p *pp, const cf_coll *c,
                            const char *datatype, long np);
/* Where it does, u's unbounded cases cleared: the probe measured the nodes and tiers np
 * reaches. */
void cf_placement_fan_measured(const cf_placement *p, const cf_p2p *pp, const cf_coll *c,
                               const char *datatype, long np, cf_unmeasured *u);
/* Where the probe reads c at np and m (and est, cf_p2p_predict's there, costs the linear
 * algorithm): est becomes the pattern's measured np=2 time times the probe's ranks' mean
 * at np over its own at np 2 (read log-log between its sizes, in the number of messages
 * between its levels, past the largest its two largest carried on where both spanned nodes
 * in one tier), its interval what that reading may miss and the probe's own margin; est's
 * fan_ fields say so, fan_held where np=2's whole answer must stay in the interval too
 * (between levels, past them, under Open MPI's rules, a scatter: Open MPI's nonblocking
 * linear one's sizes alone). 1 where it did, else 0 (est untouched). */
int cf_placement_fan_answer(const cf_placement *p, const cf_p2p *pp, const cf_coll *c,
                            const char *datatype, long np, double m, cf_estimate *est);

/* Fills u and, when something is unmeasured, a note saying what (and what to measure):
 * for the estimate from np=2, what np spans beyond np=2's nodes, and a tier the latency
 * probe says np reaches beyond np=2's rank 1 (u->tier), both when both apply (the nodes'
 * first, "; " between); cf_unmeasured_unbounded(u) says whether the interval then has no
 * upper bound. */
void cf_placement_unmeasured(const cf_placement *p, long np, cf_unmeasured *u, char *note,
                             size_t n);
/* The same for the across-np model, whose largest fitted process count is fitted: what np
 * spans beyond the nodes fitted did (nodes2 holds those), and, where the launch's latency
 * probe says np reaches a tier farther than fitted did (cf_placement_tier), that; and the
 * note, of both when both apply; cf_unmeasured_unbounded(u) as for the estimate. */
void cf_placement_beyond_fitted(const cf_placement *p, long fitted, long np, cf_unmeasured *u,
                                char *note, size_t n);
/* The latency tiers of the launch's probe (cf_tiers) where its latencies form tiers of
 * aligned blocks (a node's ranks, then a switch's, in a row: cf_placement_can_replay's
 * test), each tier's farthest latency less rank 1's, rank 1's the base, rendezvous where the
 * table was simulated; out->n 0 without a probe, where they do not (a torus), where they
 * form more than CF_TIERS_MAX tiers, or where the root moved round-robin (--root-shift). */
void cf_placement_tiers(const cf_placement *p, cf_tiers *out);
/* The farthest one-way latency from rank 0 among ranks 1 to np - 1 that the probe reached
 * (np past the launch: its ranks), or NAN without a usable probe. */
double cf_placement_farthest_us(const cf_placement *p, long np);
/* 1 when np reaches ranks farther from rank 0 than the largest fitted np did by more than
 * the probe resolves (CF_TIER_MARGIN plus its spread, and one timer tick), with the two
 * farthest latencies in *far_fitted_us and *far_np_us; else 0 (also without a probe). */
int cf_placement_tier(const cf_placement *p, long fitted, long np, double *far_fitted_us,
                      double *far_np_us);
/* What the latency probe says algorithm alg's steps at (np, m) wait for beyond the largest
 * fitted np `fitted`: over its latency-bound steps (cf_steps_spans), each step whose pairs
 * span ranks that reach a farther tier (cf_placement_tier against fitted) adds how much
 * farther that tier's farthest rank is than the fitted np's at 8 bytes, and, where the
 * launch ran the sized probe, each step its messages pace adds what that difference grows
 * by at their size (read as cf_sized_at reads it); 0 without a probe or a tier. *nsteps
 * (may be NULL): the steps whose latency adds; *bw_us (may be NULL): the sized part; *bytes_us
 * (may be NULL): of that, what the route's bytes cost (each step's growth per byte between
 * the probe's two largest sizes, at most its whole sized part), not a protocol's handshake. */
double cf_placement_tier_extra(const cf_placement *p, long fitted, long np, const cf_rule_alg *alg,
                               double m, double *nsteps, double *bw_us, double *bytes_us);
/* What cf_placement_across_tier added to an answer: us (0: nothing), the probe's extra
 * latency over steps steps of the algorithm, counted for the share of the ranks whose
 * finish waits on those steps (the table's time is the ranks' mean). */
typedef struct cf_tier_added {
    double us, steps, share;
    double bw_us; /* the part of us the sized latency probe adds beyond 8 bytes (after the
                     pair exchange's, pair_us, where that reads the same bytes) */
    int bw_own;   /* 1: the pair exchange took bw_us's bytes, what stays is the messages' own */
    int crossings; /* 1: the steps are a chain's crossings of the tier (a ring, a pipeline) */
    int rounds;    /* 1: the steps are rounds of messages posted together (CF_STEPS_ROUNDS) */
    long in_turn;  /* a linear gatherv's or scatterv's blocks to or from the ranks past the
                      fitted reach, which cross the root's link one after another and whose
                      bytes us counts each (0: none such) */
    double in_turn_us; /* of us, those blocks' own time at the fitted reach's rate after the
                          first's, which the formula counts once */
    int held;          /* a gatherv's senders waited for the root at np=2: each far sender
                          waits for its block, share the far ranks' */
    /* What the barrier after each timed call adds: skew_us (0: nothing) of barrier's (a
     * cf_barrier_alg name) spread exits, what np's farther ranks add to the fitted np's wait
     * (cf_placement_spread_extra) or, for a model fitted without the waits, the whole wait
     * (cf_placement_across_wait, waited 1). */
    double skew_us;
    const char *barrier;
    int waited;   /* 1: skew_us is the whole wait, given back to a model fitted without it */
    int none_fitted; /* waited, and the replay waited 0 at every fitted np: nothing taken */
    int replayed; /* the grid replayed the algorithm over the tiers, from the barrier's exits
                     less their whole wait (cf_steps_cost_tiered): that wait is given back */
    double replay_us; /* the estimate from np=2: what the tiers add to its algorithm replayed
                         over them, the barrier's wait with it (0: not replayed) */
    int replay_no_tier; /* the probe showed no tier: replay_us is the barrier's alone */
    double chain_ratio; /* a bcast chain's replay from the barrier's exits over its reading
                           with every rank starting at once (placement.c's chain_skew): the
                           estimate's factor, 0 where it did not apply */
    int chain_lo_only; /* chain_ratio 1: the probe's latencies form no tiers, the lower end
                          alone moved */
    long wait_np; /* where that wait is another np's (cf_placement_across_wait's *past) */
    /* What the pair-exchange probe adds (cf_placement_pair_extra): pair_us (0: nothing) for
     * cross_bytes a rank sends across the halves of np's ranks, at extra_us_per_mib more
     * than across the fitted np's. */
    double pair_us, cross_bytes, extra_us_per_mib;
    long pair_near, pair_far; /* the probe's levels (ranks) compared */
    long pair_fill;           /* np short of pair_far: its ranks past the level's halfway cut
                                 (of pair_far / 2); 0 otherwise */
    double leader_share;      /* a two-level algorithm's: the share of the ranks that send
                                 across nodes, the nodes' leaders, which scales the probe's
                                 traffic (every rank sent); 0 where every rank sends */
    int pair_lo_model;        /* 1: pair_us added to a finite interval, its lower end the
                                 model's (no farther latency tier) */
    /* Where the probe's levels form tiers and levels below np's cost more (pair_add): each
     * such level's ranks, the bytes a rank sends out of its blocks of half of them, and
     * its cost over the level below, us a MiB; npl 0 where pair_us is cross_bytes at
     * extra_us_per_mib. */
    int npl;
    /* pair_dist 1: the probe's distances (pair_exchange_distance_us) priced them: pl_ranks
     * is each class's nearest distance (its partners 2^j to 2^(j+1) - 1 ranks away), its
     * cost at np's level (pair_far ranks sending) over the fitted np's (pair_near) */
    int pair_dist;
    long pl_ranks[CF_PAIR_LEVELS_MAX];
    double pl_bytes[CF_PAIR_LEVELS_MAX], pl_us_per_mib[CF_PAIR_LEVELS_MAX];
    /* Where the across-np grid read the answer's algorithm from an np (read_from) below the
     * largest fitted one, and np reaches a tier that np never did (its farthest latency
     * read_from_far_us, np's read_np_far_us): the additions above are against it and the
     * interval has no upper bound (the caller's to drop); 0 otherwise. */
    long read_from;
    double read_from_far_us, read_np_far_us; /* the probe's farthest latencies (NAN: none) */
    long read_nodes_np; /* read_from ran in one node and np spans these; 0 otherwise */
    double floor_from_us; /* across np: the reading raised to the estimate from np=2 of its
                           * algorithm's own steps (cf_estimate.unreplayed), 0 where not */
    int anchored; /* the fitted formula was carried through the fitted np's answers
                   * (cf_across_anchor) */
    /* Between two fitted np of a SimGrid table, Bruck's allgather, which its mpich
     * selection ran at neither: the reading raised to the line in log p through their
     * answers at m, which moved the same bytes a rank (volume_line); the reading before,
     * and the two np; 0 where not. */
    double volume_from_us;
    long volume_np[2];
    /* Between fitted np, where the probes put np in the tier of the fitted np below it and
     * not of tier_above, the next one (its farthest latency tier_above_far_us, np's
     * tier_np_far_us; the pair exchange at their levels, tier_above_pair_us and
     * tier_np_pair_us, NAN without it; all four set only then): the grid read np from
     * those below alone; 0 otherwise. */
    long tier_above;
    double tier_above_far_us, tier_np_far_us, tier_above_pair_us, tier_np_pair_us;
} cf_tier_added;

/* The time per byte (us) that traffic across the halves of np's ranks, every rank sending
 * at once, costs beyond the same across the halves of fitted's ranks: the pair-exchange
 * probe's exchange time per byte at np's level (the smallest probed power of two >= np,
 * whose halfway cut np's ranks cross; the largest probed past them) less at fitted's level
 * (likewise); 0 where np's level is not slower by more than the probe resolves
 * (CF_TIER_MARGIN), where the levels are the same, or without the probe. *near and *far:
 * the two levels (ranks), 0 where none. */
double cf_placement_pair_extra(const cf_placement *p, long fitted, long np, long *near, long *far);

/* What the spread of the barrier's exits adds at np beyond the ranks the fitted np reached
 * (far_fitted_us, its farthest latency): measure times each call of a collective alone
 * with a barrier after it, so each rank starts the next call when it leaves the barrier,
 * and one that leaves early waits in the call for those that leave late. The barrier of
 * the library's rules (cf_barrier_alg) is replayed at np over the probe's latencies and
 * again with none beyond far_fitted_us; the answer's time (the ranks' mean) gains the
 * difference of the mean wait: every rank's for the latest exit where data goes from all
 * to all; each rank's for the root's where it flows from a root; the root's alone (1/np of
 * the mean) where it flows to one; over every root under --root-shift. Over each pair of
 * ranks the probe's latencies are read as aligned blocks where they only grow with the
 * rank (tiers: nodes, switches, racks), as depending on the ranks' distance where they do
 * not (a torus). 0 without a probe, past its ranks, for a pattern not timed with a
 * barrier after each call (point-to-point patterns, barrier, tables timed as a loop), or
 * where the replay adds nothing; *barrier (may be NULL) the algorithm replayed. */
double cf_placement_spread_extra(const cf_placement *p, const char *rules, const char *pattern,
                                 long np, double far_fitted_us, const char **barrier);
/* The mean wait itself: the same replay at np over the probe's latencies, none capped. What
 * commfit fit takes from each measured np's times before the across-np fit
 * (cf_across_probe) and the across-np answer gives back at the np it answers for. 0 where
 * there is no wait to speak of (no probe, a pattern or table not timed with a barrier after
 * each call, np < 3, latencies that form no tiers); NAN where it is unknown (np past the
 * ranks the probe reached, out of memory). */
/* Whether the barrier after each call of pattern can be replayed over p's probe: calls timed
 * alone, and the probe's latencies forming tiers (cf_placement_barrier_wait's 0 otherwise
 * says it cannot tell, not that no rank waits). */
int cf_placement_can_replay(const cf_placement *p, const char *pattern);
double cf_placement_barrier_wait(const cf_placement *p, const char *rules, const char *pattern,
                                 long np);
/* Whether an across-np answer of a under u adds the barrier's wait at its np: where fit took
 * the waits (a->waited), or where the replay found none at any fitted np (a->replayed) and
 * u keeps an upper bound (where it has none, the farther ranks' spread is added instead). */
int cf_placement_wait_added(const cf_across *a, const cf_unmeasured *u);
/* The rule set whose barrier follows each of a's timed calls: the one the fit replayed it by
 * (a->wait_rules, the library's whatever the pattern), else a's grid's ("" for MPICH's). */
const char *cf_placement_barrier_rules(const cf_across *a);
/* The wait the across-np answer of a model fitted without the barrier's waits (a->waited)
 * gives back at np: a measured np's own; else the replay at np; past the ranks the probe
 * reached, the replay at its whole launch (*past: that launch), what the probe shows at
 * least; without a probe to replay, the largest fitted np's (*past: minus that np). 0 for a
 * model fitted with its waits. *past is 0 where the wait is np's own. */
double cf_placement_across_wait(const cf_placement *p, const cf_across *a, long np, long *past);

/* The across-np answer est of a at (np, m), with what the fitted np never measured there
 * (u, from cf_placement_beyond_fitted): where np leaves the one node every fitted np ran in,
 * its lower bound down to the smallest fitted np's there; where the interval has no upper
 * bound, the grid's reading (the algorithm its rules pick there) raised by
 * cf_placement_tier_extra against the largest fitted np, times the share of the ranks that
 * wait on those steps (all of them where data goes from all to all; those from the first
 * rank the probe puts in the farther tier where it flows from a root; the root alone where
 * it flows to one), and by the pair-exchange probe's traffic across np's halves; where it
 * keeps one, that traffic raises its upper end alone; a model fitted without the barrier's
 * waits (a->waited) gets np's back everywhere; all of it in *added. The upper bound is the
 * caller's to drop (predict prints inf); predict and the report's np plot answer through
 * this one function. Where at is not NULL and the fitted formula answers, its time first
 * goes through the fitted np's answers (cf_across_anchor), its interval holding both. Where
 * at is not NULL and the grid read an algorithm it replays over tiers from another's cost
 * per step, none kept (est->unreplayed), and the probe puts np's ranks farther than np=2's,
 * the estimate from np=2 of pp (NULL: none) is the answer where it is the larger, the
 * interval holding both readings (added->floor_from_us). Where at is not NULL and np lies
 * between two fitted np of a SimGrid table whose mpich selection runs Bruck's allgather at
 * np and at neither of them, the line in log p through their answers at m is the answer
 * where it is the larger (added->volume_from_us). */
void cf_placement_across_answer(const cf_placement *p, const cf_across *a, const cf_p2p *pp,
                                const cf_unmeasured *u, long np, double m, cf_fitted_at at,
                                void *ctx, cf_estimate *est, cf_tier_added *added);
/* The launch's pair-exchange probe's time per byte at np=2's pair (ranks 0 and 1 exchanging
 * pair_exchange_bytes), the line the estimate from np=2 lets messages posted at once stream
 * their bytes at where it is below the ping-pong's beta (cf_p2p.stream_beta); 0 without the
 * probe. */
double cf_placement_stream_beta(const cf_placement *p);
/* The same for the estimate from np=2 (cf_p2p_predict of pattern c's datatype at (np, m); u
 * from cf_placement_unmeasured): the steps of its algorithm (rules' where the file names a
 * library's rules, else the catalog's) against np=2's rank 1. cf_p2p_predict's status. */
int cf_placement_p2p_answer(const cf_placement *p, const cf_p2p *pp, const cf_coll *c,
                            const char *datatype, const cf_unmeasured *u, long np, double m,
                            cf_estimate *est, cf_tier_added *added);

#endif
