/* When each rank leaves a barrier: a replay of the library's barrier algorithm over given
 * one-way latencies between ranks. measure times each call of a collective alone with a
 * barrier after it (IMB's -sync 1), so a call starts at each rank when that rank left the
 * barrier before it; where latencies differ between ranks, ranks leave at different
 * times, and a rank that leaves early waits in the next call for those that leave late.
 * The table's time is the ranks' mean, so that wait is part of it. */
#ifndef CF_BARRIER_REPLAY_H
#define CF_BARRIER_REPLAY_H

/* The one-way latency in us of a message from rank i to rank j (i != j). */
typedef double (*cf_latency_fn)(const void *ctx, long i, long j);

/* How a message's transfer starts. */
typedef enum cf_protocol {
    CF_PROTO_EAGER,     /* when it is sent: a real library's small messages */
    CF_PROTO_RENDEZVOUS /* when it is sent and its receive is posted, the later: SMPI's,
                           whose smpi/async-small-thresh is 0 by default */
} cf_protocol;

/* The barrier algorithm rules (cf_rules_for's names; NULL or "" for MPICH's) run at np:
 * "dissemination" (MPICH's, Open MPI's "bruck"), "recursive doubling", "linear", "tree"
 * (Open MPI's tuned decision by communicator size) or "two-process exchange". */
const char *cf_barrier_alg(const char *rules, long np);

/* The time each of np ranks (np >= 1) leaves the barrier alg (a cf_barrier_alg name), all
 * entering it at time 0, into exits[np], in us. Each message costs its latency alone (a
 * barrier's carry no bytes); a send returns at once (the library sends them eagerly or
 * detached). 0, -1 for an unknown algorithm or when out of memory. */
int cf_barrier_exits(const char *alg, long np, cf_latency_fn lat, const void *ctx,
                     cf_protocol proto, double *exits);

/* Where a collective's data flows, from root 0 where it has one: what its ranks wait for
 * (cf_exits_wait). */
typedef enum cf_flow {
    CF_FLOW_ALL,      /* from all to all: every rank waits for the last */
    CF_FLOW_TO_ROOT,  /* to the root (reduce, gather): the root waits for the last */
    CF_FLOW_FROM_ROOT /* from the root (bcast, scatter): every rank waits for the root */
} cf_flow;

/* The mean wait over np ranks that exits e (where each left the barrier before a call, as
 * cf_barrier_exits) leave in a call whose data flows so: the last exit less their mean; the
 * root's wait for the last, over np; every rank's wait for the root, over np. The table's
 * time is the ranks' mean, so a rank that waits in the call adds its wait over np. */
double cf_exits_wait(const double *e, long np, cf_flow flow);

/* The mean over np ranks of each one's time in a bcast down the chain 0 -> 1 -> ... -> np - 1
 * of hops of hop_us each, rank r starting the call where it left the barrier (e[r], as
 * cf_barrier_exits). The root leaves at once (an eager or detached send); a rank forwards
 * once its data is in. Where gated (a transfer waits for its receive: SimGrid's rendezvous)
 * a hop starts when both its ranks are in the call, else its data leaves at once and waits
 * at the receiver, which takes none of the hop where it came before it. All exits at 0:
 * hop_us (np - 1) / 2, the chain's mean. */
double cf_chain_exits_mean(const double *e, long np, double hop_us, int gated);

#endif
