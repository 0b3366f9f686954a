/* A replay of a barrier's messages over given latencies: when each rank leaves it. Each
 * rank runs its program of sends, receives and waits; a wait ends when each receive posted
 * since the last one has its message, which arrives its latency after its transfer starts
 * (cf_protocol). The ranks are swept in turn until every program ends: each sweep takes
 * every rank as far as the messages already sent allow. */
#include "config.h"

#include "fit/barrier-replay.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

const char *cf_barrier_alg(const char *rules, long np)
{
    /* Open MPI before 4.1: recursive doubling on a power of two, else Bruck's (the
     * dissemination barrier). */
    if (rules != NULL && strncmp(rules, "openmpi-4.0", 11) == 0)
        return np == 2                 ? "two-process exchange"
               : (np & (np - 1)) == 0 ? "recursive doubling"
                                      : "dissemination";
    /* Open MPI's tuned fixed decision (coll_tuned_decision_fixed.c, Open MPI 4.1), which
     * SMPI's ompi selector follows (its exits checked against SMPI 3.32's at np 3 to 100). */
    if (rules != NULL &&
        (strncmp(rules, "openmpi", 7) == 0 || strncmp(rules, "smpi-ompi", 9) == 0)) {
        if (np == 2)
            return "two-process exchange";
        if (np < 4 || (np >= 8 && np < 64))
            return "recursive doubling";
        if (np < 8)
            return "linear";
        if ((np >= 256 && np < 512) || (np >= 1024 && np < 4096))
            return "tree";
        return "dissemination";
    }
    /* MPICH's (MPIR_Barrier_intra_dissemination; SMPI's mpich selector runs the same). */
    return "dissemination";
}

typedef enum { OP_SEND, OP_RECV, OP_WAIT } op_kind;

typedef struct op {
    op_kind kind;
    int done;    /* a send: posted */
    long peer;   /* a send's destination, a receive's source */
    long first;  /* a wait: the index of the first receive it waits for */
    double post; /* when the send or receive was posted */
} op;

/* The programs of every rank, one after another. */
typedef struct prog {
    op *ops;
    size_t n, cap;
} prog;

static int emit(prog *g, op_kind kind, long peer)
{
    op *o = cf_grow(g->ops, &g->cap, g->n, sizeof *o, 64);
    if (o == NULL)
        return -1;
    g->ops = o;
    g->ops[g->n++] = (op){kind, 0, peer, 0, 0.0};
    return 0;
}

/* A wait for the receives emitted since index first. */
static int emit_wait(prog *g, size_t first)
{
    if (emit(g, OP_WAIT, -1) != 0)
        return -1;
    g->ops[g->n - 1].first = (long)first;
    return 0;
}

/* Send to and receive from peer (a send-receive): its wait ends with the receive. */
static int sendrecv(prog *g, long to, long from)
{
    size_t first = g->n + 1;
    return emit(g, OP_SEND, to) || emit(g, OP_RECV, from) || emit_wait(g, first);
}

static int recv_wait(prog *g, long from)
{
    size_t first = g->n;
    return emit(g, OP_RECV, from) || emit_wait(g, first);
}

/* Step k sends to r + 2^k and receives from r - 2^k (mod p). */
static int dissemination(prog *g, long r, long p)
{
    for (long d = 1; d < p; d *= 2)
        if (sendrecv(g, (r + d) % p, (r - d + p) % p) != 0)
            return -1;
    return 0;
}

/* Pairs r and r ^ 2^k below the largest power of two; the ranks past it first report to
 * the rank that many below and wait for it to say all arrived. */
static int recursive_doubling(prog *g, long r, long p)
{
    long adj = 1;
    while (adj * 2 <= p)
        adj *= 2;
    if (r >= adj)
        return sendrecv(g, r - adj, r - adj);
    if (r < p - adj && recv_wait(g, r + adj) != 0)
        return -1;
    for (long mask = 1; mask < adj; mask *= 2)
        if (sendrecv(g, r ^ mask, r ^ mask) != 0)
            return -1;
    return r < p - adj ? emit(g, OP_SEND, r + adj) : 0;
}

/* Every rank reports to rank 0, which waits for all and then tells all. */
static int linear(prog *g, long r, long p)
{
    if (r != 0)
        return sendrecv(g, 0, 0);
    size_t first = g->n;
    for (long i = 1; i < p; i++)
        if (emit(g, OP_RECV, i) != 0)
            return -1;
    if (emit_wait(g, first) != 0)
        return -1;
    for (long i = 1; i < p; i++)
        if (emit(g, OP_SEND, i) != 0)
            return -1;
    return 0;
}

/* Up a binomial tree to rank 0 and back down (Open MPI's "tree"). */
static int tree(prog *g, long r, long p)
{
    long depth = 1;
    while (depth < p)
        depth *= 2;
    for (long jump = 1; jump < depth; jump *= 2) {
        long partner = r ^ jump;
        if ((partner & (jump - 1)) != 0 || partner >= p)
            continue;
        if (partner > r ? recv_wait(g, partner) : emit(g, OP_SEND, partner))
            return -1;
    }
    for (long jump = depth / 2; jump > 0; jump /= 2) {
        long partner = r ^ jump;
        if ((partner & (jump - 1)) != 0 || partner >= p)
            continue;
        if (partner > r ? emit(g, OP_SEND, partner) : recv_wait(g, partner))
            return -1;
    }
    return 0;
}

/* Where each send (src, dst) sits among the ops: a barrier sends at most one message from
 * a rank to another. Open addressing on src * p + dst. */
typedef struct send_index {
    uint64_t *key; /* key + 1; 0: empty */
    size_t *at;
    size_t mask;
} send_index;

static size_t slot(const send_index *h, uint64_t key)
{
    size_t i = (size_t)(key * 0x9E3779B97F4A7C15ULL) & h->mask;
    while (h->key[i] != 0 && h->key[i] != key + 1)
        i = (i + 1) & h->mask;
    return i;
}

static int index_sends(const prog *g, const size_t *start, long p, send_index *h)
{
    size_t cap = 16;
    while (cap < 2 * g->n)
        cap *= 2;
    h->key = calloc(cap, sizeof *h->key);
    h->at = malloc(cap * sizeof *h->at);
    h->mask = cap - 1;
    if (h->key == NULL || h->at == NULL)
        return -1;
    for (long r = 0; r < p; r++)
        for (size_t i = start[r]; i < start[r + 1]; i++)
            if (g->ops[i].kind == OP_SEND) {
                uint64_t key = (uint64_t)r * (uint64_t)p + (uint64_t)g->ops[i].peer;
                size_t s = slot(h, key);
                if (h->key[s] != 0)
                    return -1; /* two messages between the same ranks: not a barrier here */
                h->key[s] = key + 1;
                h->at[s] = i;
            }
    return 0;
}

/* The send op of the message from src to dst, or SIZE_MAX when none. */
static size_t find_send(const send_index *h, long src, long dst, long p)
{
    uint64_t key = (uint64_t)src * (uint64_t)p + (uint64_t)dst;
    size_t s = slot(h, key);
    return h->key[s] != 0 ? h->at[s] : SIZE_MAX;
}

/* Runs rank r's program from *pc as far as it can; returns whether it moved. -1 when a
 * receive has no send at all. */
static int advance(prog *g, const send_index *h, long r, long p, size_t end, size_t *pc, double *t,
                   cf_latency_fn lat, const void *ctx, cf_protocol proto)
{
    int moved = 0;
    while (*pc < end) {
        op *o = &g->ops[*pc];
        if (o->kind != OP_WAIT) {
            o->post = *t;
            o->done = 1;
        } else {
            double until = *t;
            for (size_t k = (size_t)o->first; k < *pc; k++) {
                const op *rv = &g->ops[k];
                if (rv->kind != OP_RECV)
                    continue;
                size_t s = find_send(h, rv->peer, r, p);
                if (s == SIZE_MAX)
                    return -1;
                if (!g->ops[s].done)
                    return moved; /* its sender has not sent yet */
                double start = g->ops[s].post;
                if (proto == CF_PROTO_RENDEZVOUS && rv->post > start)
                    start = rv->post;
                double arrives = start + lat(ctx, rv->peer, r);
                if (arrives > until)
                    until = arrives;
            }
            *t = until;
        }
        (*pc)++;
        moved = 1;
    }
    return moved;
}

static int build(const char *alg, long p, prog *g, size_t *start)
{
    for (long r = 0; r < p; r++) {
        start[r] = g->n;
        int rc;
        if (strcmp(alg, "dissemination") == 0)
            rc = dissemination(g, r, p);
        else if (strcmp(alg, "recursive doubling") == 0 || strcmp(alg, "two-process exchange") == 0)
            rc = recursive_doubling(g, r, p);
        else if (strcmp(alg, "linear") == 0)
            rc = linear(g, r, p);
        else if (strcmp(alg, "tree") == 0)
            rc = tree(g, r, p);
        else
            return -1;
        if (rc != 0)
            return -1;
    }
    start[p] = g->n;
    return 0;
}

int cf_barrier_exits(const char *alg, long np, cf_latency_fn lat, const void *ctx,
                     cf_protocol proto, double *exits)
{
    if (np < 1)
        return -1;
    prog g = {NULL, 0, 0};
    send_index h = {NULL, NULL, 0};
    size_t *start = malloc(((size_t)np + 1) * sizeof *start);
    size_t *pc = malloc((size_t)np * sizeof *pc);
    int rc = -1;
    if (start == NULL || pc == NULL || build(alg, np, &g, start) != 0 ||
        index_sends(&g, start, np, &h) != 0)
        goto out;
    for (long r = 0; r < np; r++) {
        pc[r] = start[r];
        exits[r] = 0.0;
    }
    /* A sweep that moves no rank while some has not ended would be a deadlock: never for
     * these programs, refused rather than looped on. */
    for (;;) {
        int moved = 0, left = 0;
        for (long r = 0; r < np; r++) {
            int m = advance(&g, &h, r, np, start[r + 1], &pc[r], &exits[r], lat, ctx, proto);
            if (m < 0)
                goto out;
            moved |= m;
            left |= pc[r] < start[r + 1];
        }
        if (!left) {
            rc = 0;
            break;
        }
        if (!moved)
            break;
    }
out:
    free(g.ops);
    free(h.key);
    free(h.at);
    free(start);
    free(pc);
    return rc;
}

double cf_exits_wait(const double *e, long np, cf_flow flow)
{
    double last = e[0], sum = 0.0, behind_root = 0.0;
    for (long r = 0; r < np; r++) {
        last = fmax(last, e[r]);
        sum += e[r];
        behind_root += fmax(0.0, e[0] - e[r]);
    }
    switch (flow) {
    case CF_FLOW_TO_ROOT:
        return (last - e[0]) / (double)np;
    case CF_FLOW_FROM_ROOT:
        return behind_root / (double)np;
    case CF_FLOW_ALL:
        break;
    }
    return last - sum / (double)np;
}

double cf_chain_exits_mean(const double *e, long np, double hop_us, int gated)
{
    double in = e[0], sum = 0.0; /* when rank r's data is in */
    for (long r = 1; r < np; r++) {
        in = gated ? fmax(in, e[r]) + hop_us : fmax(in + hop_us, e[r]);
        sum += in - e[r];
    }
    return sum / (double)np;
}
