/* The timed loops of every pattern commfit measures, and their data checks. Each loop is
 * as bare as a hand-written benchmark: one MPI call after another, the return code
 * tested, the buffer set advanced without a division. */
#include "config.h"

#include "measure/kernels.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TAG_DATA = 1, TAG_SYNC = 2 };

/* Zero-byte acknowledgements need a valid address, not data. */
static char ack_byte;

static int failed(cf_kctx *k, const char *call, int rc)
{
    k->failed = call;
    k->mpi_rc = rc;
    return -1;
}

#define CALL(fn, args)                                                                        \
    do {                                                                                      \
        int rc_ = fn args;                                                                    \
        if (rc_ != MPI_SUCCESS)                                                               \
            return failed(k, #fn, rc_);                                                       \
    } while (0)

/* The buffer sets: s and r walk through the pool, back to the start after the last. */
#define SETS_BEGIN                                                                            \
    unsigned char *s = k->pool, *r = k->pool + k->recv_off;                                   \
    int set_ = 0
#define NEXT_SET                                                                              \
    do {                                                                                      \
        if (++set_ == k->nsets) {                                                             \
            set_ = 0;                                                                         \
            s = k->pool;                                                                      \
            r = k->pool + k->recv_off;                                                        \
        } else {                                                                              \
            s += k->stride;                                                                   \
            r += k->stride;                                                                   \
        }                                                                                     \
    } while (0)

/* ---- buffer sizes ---- */

static void buf_one(uint64_t bytes, int np, uint64_t *send, uint64_t *recv)
{
    (void)np;
    *send = bytes;
    *recv = bytes;
}

/* IMB's Exchange sends two messages from one buffer of twice the size; the check receives
 * them apart. */
static void buf_exchange(uint64_t bytes, int np, uint64_t *send, uint64_t *recv)
{
    (void)np;
    *send = 2 * bytes;
    *recv = 2 * bytes;
}

static void buf_scatter(uint64_t bytes, int np, uint64_t *send, uint64_t *recv)
{
    *send = (uint64_t)np * bytes;
    *recv = bytes;
}

static void buf_gather(uint64_t bytes, int np, uint64_t *send, uint64_t *recv)
{
    *send = bytes;
    *recv = (uint64_t)np * bytes;
}

static void buf_alltoall(uint64_t bytes, int np, uint64_t *send, uint64_t *recv)
{
    *send = (uint64_t)np * bytes;
    *recv = (uint64_t)np * bytes;
}

static void buf_none(uint64_t bytes, int np, uint64_t *send, uint64_t *recv)
{
    (void)bytes;
    (void)np;
    *send = 0;
    *recv = 0;
}

/* ---- known contents for --check ---- */

/* The byte at offset j of the block that rank src sends to block index b. */
static unsigned char val(int src, int b, uint64_t j)
{
    return (unsigned char)(src * 37 + b * 11 + (int)(j % 251) * 7 + 3);
}

static void fill(unsigned char *p, uint64_t n, int src, int b)
{
    for (uint64_t j = 0; j < n; j++)
        p[j] = val(src, b, j);
}

/* 0 when p holds what src sent for block b; else 1 with k->why naming the first bad byte. */
static int expect(cf_kctx *k, const unsigned char *p, uint64_t n, int src, int b,
                  const char *what)
{
    for (uint64_t j = 0; j < n; j++) {
        if (p[j] != val(src, b, j)) {
            snprintf(k->why, sizeof k->why,
                     "rank %d: %s from rank %d, byte %llu: expected 0x%02x, got 0x%02x", k->rank,
                     what, src, (unsigned long long)j, val(src, b, j), p[j]);
            return 1;
        }
    }
    return 0;
}

/* Reductions: rank src contributes (src + 1) * (i % 5 + 1) at element i, so the sum over
 * np ranks is exact in single precision. */
static void fill_float(float *p, int n, int src)
{
    for (int i = 0; i < n; i++)
        p[i] = (float)((src + 1) * (i % 5 + 1));
}

static int expect_sum(cf_kctx *k, const float *p, int n, int first)
{
    float ranks = (float)(k->np * (k->np + 1) / 2);
    for (int i = 0; i < n; i++) {
        float want = ranks * (float)((first + i) % 5 + 1);
        if (p[i] != want) {
            snprintf(k->why, sizeof k->why, "rank %d: element %d of the sum: expected %g, got %g",
                     k->rank, first + i, (double)want, (double)p[i]);
            return 1;
        }
    }
    return 0;
}

/* ---- point-to-point ---- */

static int run_pingpong(cf_kctx *k, long reps, double *t)
{
    SETS_BEGIN;
    double t0 = MPI_Wtime();
    if (k->rank == 0) {
        for (long i = 0; i < reps; i++) {
            CALL(MPI_Send, (s, k->count, k->type, 1, TAG_DATA, k->comm));
            CALL(MPI_Recv, (r, k->count, k->type, 1, TAG_DATA, k->comm, MPI_STATUS_IGNORE));
            NEXT_SET;
        }
    } else {
        for (long i = 0; i < reps; i++) {
            CALL(MPI_Recv, (r, k->count, k->type, 0, TAG_DATA, k->comm, MPI_STATUS_IGNORE));
            CALL(MPI_Send, (s, k->count, k->type, 0, TAG_DATA, k->comm));
            NEXT_SET;
        }
    }
    *t = (MPI_Wtime() - t0) / (double)reps / 2.0;
    k->contributes = 1;
    return 0;
}

static int verify_pingpong(cf_kctx *k)
{
    unsigned char *s = k->pool, *r = k->pool + k->recv_off;
    int peer = 1 - k->rank;
    fill(s, k->bytes, k->rank, peer);
    memset(r, 0, k->bytes);
    if (k->rank == 0) {
        CALL(MPI_Send, (s, k->count, k->type, 1, TAG_DATA, k->comm));
        CALL(MPI_Recv, (r, k->count, k->type, 1, TAG_DATA, k->comm, MPI_STATUS_IGNORE));
    } else {
        CALL(MPI_Recv, (r, k->count, k->type, 0, TAG_DATA, k->comm, MPI_STATUS_IGNORE));
        CALL(MPI_Send, (s, k->count, k->type, 0, TAG_DATA, k->comm));
    }
    return expect(k, r, k->bytes, peer, k->rank, "message");
}

/* IMB's PingPing: both ranks send at once; the time of one call is the one-way time
 * under a message in the other direction. */
static int run_pingping(cf_kctx *k, long reps, double *t)
{
    SETS_BEGIN;
    int peer = 1 - k->rank;
    MPI_Request req;
    double t0 = MPI_Wtime();
    for (long i = 0; i < reps; i++) {
        CALL(MPI_Isend, (s, k->count, k->type, peer, TAG_DATA, k->comm, &req));
        CALL(MPI_Recv, (r, k->count, k->type, peer, TAG_DATA, k->comm, MPI_STATUS_IGNORE));
        CALL(MPI_Wait, (&req, MPI_STATUS_IGNORE));
        NEXT_SET;
    }
    *t = (MPI_Wtime() - t0) / (double)reps;
    k->contributes = 1;
    return 0;
}

static int verify_pingping(cf_kctx *k)
{
    unsigned char *s = k->pool, *r = k->pool + k->recv_off;
    int peer = 1 - k->rank;
    MPI_Request req;
    fill(s, k->bytes, k->rank, peer);
    memset(r, 0, k->bytes);
    CALL(MPI_Isend, (s, k->count, k->type, peer, TAG_DATA, k->comm, &req));
    CALL(MPI_Recv, (r, k->count, k->type, peer, TAG_DATA, k->comm, MPI_STATUS_IGNORE));
    CALL(MPI_Wait, (&req, MPI_STATUS_IGNORE));
    return expect(k, r, k->bytes, peer, k->rank, "message");
}

static int run_sendrecv(cf_kctx *k, long reps, double *t)
{
    SETS_BEGIN;
    int right = (k->rank + 1) % k->np, left = (k->rank + k->np - 1) % k->np;
    double t0 = MPI_Wtime();
    for (long i = 0; i < reps; i++) {
        CALL(MPI_Sendrecv, (s, k->count, k->type, right, TAG_DATA, r, k->count, k->type, left,
                            TAG_DATA, k->comm, MPI_STATUS_IGNORE));
        NEXT_SET;
    }
    *t = (MPI_Wtime() - t0) / (double)reps;
    k->contributes = 1;
    return 0;
}

static int verify_sendrecv(cf_kctx *k)
{
    unsigned char *s = k->pool, *r = k->pool + k->recv_off;
    int right = (k->rank + 1) % k->np, left = (k->rank + k->np - 1) % k->np;
    fill(s, k->bytes, k->rank, right);
    memset(r, 0, k->bytes);
    CALL(MPI_Sendrecv, (s, k->count, k->type, right, TAG_DATA, r, k->count, k->type, left,
                        TAG_DATA, k->comm, MPI_STATUS_IGNORE));
    return expect(k, r, k->bytes, left, k->rank, "message");
}

/* IMB's Exchange: to both neighbours and from both, four messages per call. As IMB does it:
 * two sends started (to the right from the first half of the send buffer, to the left from
 * the second), the message from the left received, then the one from the right, then the
 * sends completed. The timed loop receives both into the same place, as IMB does; the check
 * (apart) receives them side by side. */
static int exchange_once(cf_kctx *k, unsigned char *s, unsigned char *r, uint64_t apart)
{
    int right = (k->rank + 1) % k->np, left = (k->rank + k->np - 1) % k->np;
    MPI_Request req[2];
    /* A status array, not MPI_STATUSES_IGNORE: gcc's bounds check misreads the latter. */
    MPI_Status st[2];
    CALL(MPI_Isend, (s, k->count, k->type, right, TAG_DATA, k->comm, &req[0]));
    CALL(MPI_Isend, (s + k->bytes, k->count, k->type, left, TAG_DATA, k->comm, &req[1]));
    CALL(MPI_Recv, (r, k->count, k->type, left, TAG_DATA, k->comm, MPI_STATUS_IGNORE));
    CALL(MPI_Recv, (r + apart, k->count, k->type, right, TAG_DATA, k->comm, MPI_STATUS_IGNORE));
    CALL(MPI_Waitall, (2, req, st));
    return 0;
}

static int run_exchange(cf_kctx *k, long reps, double *t)
{
    SETS_BEGIN;
    double t0 = MPI_Wtime();
    for (long i = 0; i < reps; i++) {
        if (exchange_once(k, s, r, 0) != 0)
            return -1;
        NEXT_SET;
    }
    *t = (MPI_Wtime() - t0) / (double)reps;
    k->contributes = 1;
    return 0;
}

static int verify_exchange(cf_kctx *k)
{
    unsigned char *s = k->pool, *r = k->pool + k->recv_off;
    int right = (k->rank + 1) % k->np, left = (k->rank + k->np - 1) % k->np;
    fill(s, k->bytes, k->rank, 0);            /* to the right */
    fill(s + k->bytes, k->bytes, k->rank, 1); /* to the left */
    memset(r, 0, 2 * k->bytes);
    if (exchange_once(k, s, r, k->bytes) != 0)
        return -1;
    if (expect(k, r, k->bytes, left, 0, "message from the left"))
        return 1;
    return expect(k, r + k->bytes, k->bytes, right, 1, "message from the right");
}

/* ---- LogGP experiments (np = 2, after Kielmann's PLogP and Netgauge) ---- */

/* o_s: the time inside MPI_Send while the receive is already posted. The receiver posts
 * the next receive before it acknowledges, so every send finds one waiting. */
static int run_loggp_os(cf_kctx *k, long reps, double *t)
{
    SETS_BEGIN;
    if (k->rank == 0) {
        double acc = 0;
        CALL(MPI_Recv, (&ack_byte, 0, MPI_BYTE, 1, TAG_SYNC, k->comm, MPI_STATUS_IGNORE));
        for (long i = 0; i < reps; i++) {
            double t0 = MPI_Wtime();
            CALL(MPI_Send, (s, k->count, k->type, 1, TAG_DATA, k->comm));
            acc += MPI_Wtime() - t0;
            CALL(MPI_Recv, (&ack_byte, 0, MPI_BYTE, 1, TAG_SYNC, k->comm, MPI_STATUS_IGNORE));
            NEXT_SET;
        }
        *t = acc / (double)reps;
        k->contributes = 1;
    } else {
        MPI_Request req;
        CALL(MPI_Irecv, (r, k->count, k->type, 0, TAG_DATA, k->comm, &req));
        CALL(MPI_Send, (&ack_byte, 0, MPI_BYTE, 0, TAG_SYNC, k->comm));
        for (long i = 0; i < reps; i++) {
            CALL(MPI_Wait, (&req, MPI_STATUS_IGNORE));
            NEXT_SET;
            if (i + 1 < reps)
                CALL(MPI_Irecv, (r, k->count, k->type, 0, TAG_DATA, k->comm, &req));
            CALL(MPI_Send, (&ack_byte, 0, MPI_BYTE, 0, TAG_SYNC, k->comm));
        }
        *t = 0;
        k->contributes = 0;
    }
    return 0;
}

/* The longest of a few round trips of the message, agreed by both ranks. */
static int round_trip(cf_kctx *k, double *rtt)
{
    unsigned char *s = k->pool, *r = k->pool + k->recv_off;
    double worst = 0;
    for (int i = 0; i < 3; i++) {
        double t0 = MPI_Wtime();
        if (k->rank == 0) {
            CALL(MPI_Send, (s, k->count, k->type, 1, TAG_DATA, k->comm));
            CALL(MPI_Recv, (r, k->count, k->type, 1, TAG_DATA, k->comm, MPI_STATUS_IGNORE));
        } else {
            CALL(MPI_Recv, (r, k->count, k->type, 0, TAG_DATA, k->comm, MPI_STATUS_IGNORE));
            CALL(MPI_Send, (s, k->count, k->type, 0, TAG_DATA, k->comm));
        }
        double d = MPI_Wtime() - t0;
        if (d > worst)
            worst = d;
    }
    CALL(MPI_Allreduce, (&worst, rtt, 1, MPI_DOUBLE, MPI_MAX, k->comm));
    return 0;
}

/* o_r: the receiver asks for the message, waits longer than a round trip so that it has
 * arrived, and times only MPI_Recv. */
static int run_loggp_or(cf_kctx *k, long reps, double *t)
{
    if (k->aux <= 0) {
        double rtt;
        if (round_trip(k, &rtt) != 0)
            return -1;
        k->aux = 2.0 * rtt + 2e-6;
    }
    SETS_BEGIN;
    if (k->rank == 0) {
        for (long i = 0; i < reps; i++) {
            CALL(MPI_Recv, (&ack_byte, 0, MPI_BYTE, 1, TAG_SYNC, k->comm, MPI_STATUS_IGNORE));
            CALL(MPI_Send, (s, k->count, k->type, 1, TAG_DATA, k->comm));
            NEXT_SET;
        }
        *t = 0;
        k->contributes = 0;
    } else {
        double acc = 0;
        for (long i = 0; i < reps; i++) {
            CALL(MPI_Send, (&ack_byte, 0, MPI_BYTE, 0, TAG_SYNC, k->comm));
            double until = MPI_Wtime() + k->aux;
            while (MPI_Wtime() < until)
                ;
            double t0 = MPI_Wtime();
            CALL(MPI_Recv, (r, k->count, k->type, 0, TAG_DATA, k->comm, MPI_STATUS_IGNORE));
            acc += MPI_Wtime() - t0;
            NEXT_SET;
        }
        *t = acc / (double)reps;
        k->contributes = 1;
    }
    return 0;
}

/* g: a burst of reps back-to-back messages, closed by a zero-byte acknowledgement; the
 * burst time per message. */
static int run_loggp_gap(cf_kctx *k, long reps, double *t)
{
    SETS_BEGIN;
    if (k->rank == 0) {
        double t0 = MPI_Wtime();
        for (long i = 0; i < reps; i++) {
            CALL(MPI_Send, (s, k->count, k->type, 1, TAG_DATA, k->comm));
            NEXT_SET;
        }
        CALL(MPI_Recv, (&ack_byte, 0, MPI_BYTE, 1, TAG_SYNC, k->comm, MPI_STATUS_IGNORE));
        *t = (MPI_Wtime() - t0) / (double)reps;
        k->contributes = 1;
    } else {
        for (long i = 0; i < reps; i++) {
            CALL(MPI_Recv, (r, k->count, k->type, 0, TAG_DATA, k->comm, MPI_STATUS_IGNORE));
            NEXT_SET;
        }
        CALL(MPI_Send, (&ack_byte, 0, MPI_BYTE, 0, TAG_SYNC, k->comm));
        *t = 0;
        k->contributes = 0;
    }
    return 0;
}

/* The three LogGP experiments move one message from rank 0 to rank 1. */
static int verify_oneway(cf_kctx *k)
{
    unsigned char *s = k->pool, *r = k->pool + k->recv_off;
    fill(s, k->bytes, k->rank, 1);
    memset(r, 0, k->bytes);
    if (k->rank == 0)
        CALL(MPI_Send, (s, k->count, k->type, 1, TAG_DATA, k->comm));
    else
        CALL(MPI_Recv, (r, k->count, k->type, 0, TAG_DATA, k->comm, MPI_STATUS_IGNORE));
    return k->rank == 1 ? expect(k, r, k->bytes, 0, 1, "message") : 0;
}

/* ---- collectives ---- */

/* The timed loop of a collective, IMB's method by default: the root stays 0, each call is
 * timed alone and a barrier follows it (IMB's -sync 1), so every rank starts a call as it
 * leaves the barrier and a rank's time is its own time in the call (with the wait for ranks
 * that left the barrier later: predict replays it, fit/barrier-replay.c). With --root-shift
 * the root moves round-robin (IMB's -root_shift 1); with --no-sync the loop runs back to back and
 * is timed whole. CALLFN's ARGS use s, r and root. */
#define COLL_LOOP(CALLFN, ARGS)                                                                    \
    SETS_BEGIN;                                                                                    \
    int root = 0;                                                                                  \
    (void)root;                                                                                    \
    double acc = 0, t0 = MPI_Wtime();                                                              \
    for (long i = 0; i < reps; i++) {                                                              \
        if (k->sync)                                                                               \
            t0 = MPI_Wtime();                                                                      \
        CALL(CALLFN, ARGS);                                                                        \
        if (k->sync) {                                                                             \
            acc += MPI_Wtime() - t0;                                                               \
            CALL(MPI_Barrier, (k->comm));                                                          \
        }                                                                                          \
        NEXT_SET;                                                                                  \
        if (k->root_shift && ++root == k->np)                                                      \
            root = 0;                                                                              \
    }                                                                                              \
    *t = (k->sync ? acc : MPI_Wtime() - t0) / (double)reps;                                        \
    k->contributes = 1;                                                                            \
    return 0

static int run_bcast(cf_kctx *k, long reps, double *t)
{
    COLL_LOOP(MPI_Bcast, (k->rank == root ? s : r, k->count, k->type, root, k->comm));
}

static int run_scatter(cf_kctx *k, long reps, double *t)
{
    COLL_LOOP(MPI_Scatter, (s, k->count, k->type, r, k->count, k->type, root, k->comm));
}

static int run_scatterv(cf_kctx *k, long reps, double *t)
{
    COLL_LOOP(MPI_Scatterv,
              (s, k->counts, k->displs, k->type, r, k->count, k->type, root, k->comm));
}

static int run_gather(cf_kctx *k, long reps, double *t)
{
    COLL_LOOP(MPI_Gather, (s, k->count, k->type, r, k->count, k->type, root, k->comm));
}

static int run_gatherv(cf_kctx *k, long reps, double *t)
{
    COLL_LOOP(MPI_Gatherv,
              (s, k->count, k->type, r, k->counts, k->displs, k->type, root, k->comm));
}

static int run_allgather(cf_kctx *k, long reps, double *t)
{
    COLL_LOOP(MPI_Allgather, (s, k->count, k->type, r, k->count, k->type, k->comm));
}

static int run_allgatherv(cf_kctx *k, long reps, double *t)
{
    COLL_LOOP(MPI_Allgatherv, (s, k->count, k->type, r, k->counts, k->displs, k->type, k->comm));
}

static int run_reduce(cf_kctx *k, long reps, double *t)
{
    COLL_LOOP(MPI_Reduce, (s, r, k->count, MPI_FLOAT, MPI_SUM, root, k->comm));
}

static int run_allreduce(cf_kctx *k, long reps, double *t)
{
    COLL_LOOP(MPI_Allreduce, (s, r, k->count, MPI_FLOAT, MPI_SUM, k->comm));
}

static int run_reduce_scatter(cf_kctx *k, long reps, double *t)
{
    COLL_LOOP(MPI_Reduce_scatter, (s, r, k->counts, MPI_FLOAT, MPI_SUM, k->comm));
}

static int run_alltoall(cf_kctx *k, long reps, double *t)
{
    COLL_LOOP(MPI_Alltoall, (s, k->count, k->type, r, k->count, k->type, k->comm));
}

static int run_alltoallv(cf_kctx *k, long reps, double *t)
{
    COLL_LOOP(MPI_Alltoallv, (s, k->counts, k->displs, k->type, r, k->counts, k->displs,
                              k->type, k->comm));
}

static int run_barrier(cf_kctx *k, long reps, double *t)
{
    double t0 = MPI_Wtime();
    for (long i = 0; i < reps; i++)
        CALL(MPI_Barrier, (k->comm));
    *t = (MPI_Wtime() - t0) / (double)reps;
    k->contributes = 1;
    return 0;
}

/* The rooted checks run with the first and the last rank as root. */
static int check_roots(cf_kctx *k, int (*one)(cf_kctx *, int root))
{
    int rc = one(k, 0);
    if (rc == 0 && k->np > 1)
        rc = one(k, k->np - 1);
    return rc;
}

static int bcast_root(cf_kctx *k, int root)
{
    unsigned char *s = k->pool, *r = k->pool + k->recv_off;
    if (k->rank == root)
        fill(s, k->bytes, root, 0);
    memset(r, 0, k->bytes);
    CALL(MPI_Bcast, (k->rank == root ? s : r, k->count, k->type, root, k->comm));
    return k->rank == root ? 0 : expect(k, r, k->bytes, root, 0, "buffer");
}

static int verify_bcast(cf_kctx *k)
{
    return check_roots(k, bcast_root);
}

static int scatter_root(cf_kctx *k, int root)
{
    unsigned char *s = k->pool, *r = k->pool + k->recv_off;
    for (int b = 0; b < k->np; b++)
        fill(s + (uint64_t)b * k->bytes, k->bytes, k->rank, b);
    memset(r, 0, k->bytes);
    if (k->pat->facts->vcounts)
        CALL(MPI_Scatterv,
             (s, k->counts, k->displs, k->type, r, k->count, k->type, root, k->comm));
    else
        CALL(MPI_Scatter, (s, k->count, k->type, r, k->count, k->type, root, k->comm));
    return expect(k, r, k->bytes, root, k->rank, "block");
}

static int verify_scatter(cf_kctx *k)
{
    return check_roots(k, scatter_root);
}

static int gather_root(cf_kctx *k, int root)
{
    unsigned char *s = k->pool, *r = k->pool + k->recv_off;
    fill(s, k->bytes, k->rank, 0);
    memset(r, 0, (uint64_t)k->np * k->bytes);
    if (k->pat->facts->vcounts)
        CALL(MPI_Gatherv,
             (s, k->count, k->type, r, k->counts, k->displs, k->type, root, k->comm));
    else
        CALL(MPI_Gather, (s, k->count, k->type, r, k->count, k->type, root, k->comm));
    if (k->rank != root)
        return 0;
    for (int b = 0; b < k->np; b++)
        if (expect(k, r + (uint64_t)b * k->bytes, k->bytes, b, 0, "block"))
            return 1;
    return 0;
}

static int verify_gather(cf_kctx *k)
{
    return check_roots(k, gather_root);
}

static int verify_allgather(cf_kctx *k)
{
    unsigned char *s = k->pool, *r = k->pool + k->recv_off;
    fill(s, k->bytes, k->rank, 0);
    memset(r, 0, (uint64_t)k->np * k->bytes);
    if (k->pat->facts->vcounts)
        CALL(MPI_Allgatherv, (s, k->count, k->type, r, k->counts, k->displs, k->type, k->comm));
    else
        CALL(MPI_Allgather, (s, k->count, k->type, r, k->count, k->type, k->comm));
    for (int b = 0; b < k->np; b++)
        if (expect(k, r + (uint64_t)b * k->bytes, k->bytes, b, 0, "block"))
            return 1;
    return 0;
}

static int reduce_root(cf_kctx *k, int root)
{
    float *s = (float *)k->pool, *r = (float *)(k->pool + k->recv_off);
    fill_float(s, k->count, k->rank);
    memset(r, 0, (size_t)k->count * sizeof(float));
    CALL(MPI_Reduce, (s, r, k->count, MPI_FLOAT, MPI_SUM, root, k->comm));
    return k->rank == root ? expect_sum(k, r, k->count, 0) : 0;
}

static int verify_reduce(cf_kctx *k)
{
    return check_roots(k, reduce_root);
}

static int verify_allreduce(cf_kctx *k)
{
    float *s = (float *)k->pool, *r = (float *)(k->pool + k->recv_off);
    fill_float(s, k->count, k->rank);
    memset(r, 0, (size_t)k->count * sizeof(float));
    CALL(MPI_Allreduce, (s, r, k->count, MPI_FLOAT, MPI_SUM, k->comm));
    return expect_sum(k, r, k->count, 0);
}

/* Each rank's block of count floats; the vector is np blocks. */
static int verify_reduce_scatter(cf_kctx *k)
{
    float *s = (float *)k->pool, *r = (float *)(k->pool + k->recv_off);
    fill_float(s, k->np * k->count, k->rank);
    memset(r, 0, (size_t)k->count * sizeof(float));
    CALL(MPI_Reduce_scatter, (s, r, k->counts, MPI_FLOAT, MPI_SUM, k->comm));
    return expect_sum(k, r, k->count, k->rank * k->count);
}

static int verify_alltoall(cf_kctx *k)
{
    unsigned char *s = k->pool, *r = k->pool + k->recv_off;
    for (int b = 0; b < k->np; b++)
        fill(s + (uint64_t)b * k->bytes, k->bytes, k->rank, b);
    memset(r, 0, (uint64_t)k->np * k->bytes);
    if (k->pat->facts->vcounts)
        CALL(MPI_Alltoallv, (s, k->counts, k->displs, k->type, r, k->counts, k->displs, k->type,
                             k->comm));
    else
        CALL(MPI_Alltoall, (s, k->count, k->type, r, k->count, k->type, k->comm));
    for (int b = 0; b < k->np; b++)
        if (expect(k, r + (uint64_t)b * k->bytes, k->bytes, b, k->rank, "block"))
            return 1;
    return 0;
}

static int verify_barrier(cf_kctx *k)
{
    CALL(MPI_Barrier, (k->comm));
    return 0;
}

/* The order of this table is the order of the rows. */
const cf_pattern cf_patterns[] = {
    {&cf_colls[CF_PAT_PINGPONG], CF_PG_ALL, buf_one, run_pingpong, verify_pingpong},
    {&cf_colls[CF_PAT_PINGPING], CF_PG_ALL, buf_one, run_pingping, verify_pingping},
    {&cf_colls[CF_PAT_SENDRECV], CF_PG_ALL, buf_one, run_sendrecv, verify_sendrecv},
    {&cf_colls[CF_PAT_EXCHANGE], CF_PG_ALL, buf_exchange, run_exchange, verify_exchange},
    {&cf_colls[CF_PAT_BCAST], CF_PG_ALL, buf_one, run_bcast, verify_bcast},
    {&cf_colls[CF_PAT_SCATTER], CF_PG_ALL, buf_scatter, run_scatter, verify_scatter},
    {&cf_colls[CF_PAT_SCATTERV], CF_PG_ALL, buf_scatter, run_scatterv, verify_scatter},
    {&cf_colls[CF_PAT_GATHER], CF_PG_ALL, buf_gather, run_gather, verify_gather},
    {&cf_colls[CF_PAT_GATHERV], CF_PG_ALL, buf_gather, run_gatherv, verify_gather},
    {&cf_colls[CF_PAT_ALLGATHER], CF_PG_ALL, buf_gather, run_allgather, verify_allgather},
    {&cf_colls[CF_PAT_ALLGATHERV], CF_PG_ALL, buf_gather, run_allgatherv, verify_allgather},
    {&cf_colls[CF_PAT_REDUCE], CF_PG_ALL, buf_one, run_reduce, verify_reduce},
    {&cf_colls[CF_PAT_ALLREDUCE], CF_PG_ALL, buf_one, run_allreduce, verify_allreduce},
    {&cf_colls[CF_PAT_REDUCE_SCATTER], CF_PG_ALL, buf_scatter, run_reduce_scatter,
     verify_reduce_scatter},
    {&cf_colls[CF_PAT_ALLTOALL], CF_PG_ALL, buf_alltoall, run_alltoall, verify_alltoall},
    {&cf_colls[CF_PAT_ALLTOALLV], CF_PG_ALL, buf_alltoall, run_alltoallv, verify_alltoall},
    {&cf_colls[CF_PAT_BARRIER], CF_PG_ALL, buf_none, run_barrier, verify_barrier},
    {&cf_colls[CF_PAT_LOGGP_OS], CF_PG_LOGGP, buf_one, run_loggp_os, verify_oneway},
    {&cf_colls[CF_PAT_LOGGP_OR], CF_PG_LOGGP, buf_one, run_loggp_or, verify_oneway},
    {&cf_colls[CF_PAT_LOGGP_GAP], CF_PG_LOGGP, buf_one, run_loggp_gap, verify_oneway},
};
const int cf_npatterns = (int)(sizeof cf_patterns / sizeof cf_patterns[0]);

const cf_pattern *cf_pattern_find(const char *name)
{
    for (int i = 0; i < cf_npatterns; i++)
        if (strcmp(cf_patterns[i].facts->pattern, name) == 0)
            return &cf_patterns[i];
    return NULL;
}

static int is_float(const cf_pattern *p)
{
    return strcmp(p->facts->datatype, "float") == 0;
}

int cf_kernel_whole(const cf_pattern *p, uint64_t bytes)
{
    return !is_float(p) || bytes % sizeof(float) == 0;
}

int cf_kernel_unit(const cf_pattern *p, uint64_t bytes, int np, uint64_t *unit)
{
    if (is_float(p)) {
        *unit = sizeof(float);
        return bytes / sizeof(float) <= (uint64_t)INT_MAX ? 0 : -1;
    }
    /* The v-collectives address every block by an int displacement. */
    uint64_t span = p->facts->vcounts ? (uint64_t)np * bytes : bytes;
    for (uint64_t u = 1; u <= bytes || u == 1; u *= 2) {
        if (span / u <= (uint64_t)INT_MAX) {
            *unit = u;
            return 0;
        }
        if (bytes % (2 * u) != 0)
            break;
    }
    return -1;
}

static size_t page_size(void)
{
    long ps = sysconf(_SC_PAGESIZE);
    return ps > 0 ? (size_t)ps : 4096;
}

#ifdef CF_SMPI
static int share_buffers;
#endif

void cf_kernel_share_buffers(int on)
{
#ifdef CF_SMPI
    share_buffers = on;
#else
    (void)on;
#endif
}

void *cf_kernel_page_alloc(size_t bytes)
{
    void *p = NULL;
    return posix_memalign(&p, page_size(), bytes > 0 ? bytes : 1) == 0 ? p : NULL;
}

static uint64_t page_round(uint64_t n)
{
    uint64_t ps = page_size();
    return (n + ps - 1) / ps * ps;
}

uint64_t cf_kernel_footprint(const cf_pattern *p, uint64_t bytes, int np)
{
    uint64_t sb, rb;
    p->buffers(p->facts->sized ? bytes : 0, np, &sb, &rb);
    return page_round(sb ? sb : 1) + page_round(rb ? rb : 1);
}

int cf_kernel_setup(cf_kctx *k, const cf_pattern *p, MPI_Comm comm, uint64_t bytes,
                    uint64_t cache_bytes, unsigned method)
{
    memset(k, 0, sizeof *k);
    k->pat = p;
    k->sync = !(method & CF_KM_NO_SYNC);
    k->root_shift = (method & CF_KM_ROOT_SHIFT) != 0;
    k->comm = comm;
    k->bytes = p->facts->sized ? bytes : 0;
    k->type = MPI_BYTE;
    CALL(MPI_Comm_rank, (comm, &k->rank));
    CALL(MPI_Comm_size, (comm, &k->np));

    uint64_t unit;
    if (cf_kernel_unit(p, k->bytes, k->np, &unit) != 0) {
        snprintf(k->why, sizeof k->why, "size %llu cannot be sent with int counts",
                 (unsigned long long)k->bytes);
        return -1;
    }
    if (is_float(p)) {
        k->type = MPI_FLOAT;
        k->count = (int)(k->bytes / sizeof(float));
    } else {
        k->count = (int)(k->bytes / unit);
        if (unit > 1) {
            CALL(MPI_Type_contiguous, ((int)unit, MPI_BYTE, &k->type));
            k->own_type = 1;
            CALL(MPI_Type_commit, (&k->type));
        }
    }
    if (p->facts->vcounts) {
        k->counts = malloc((size_t)k->np * sizeof *k->counts);
        k->displs = malloc((size_t)k->np * sizeof *k->displs);
        if (k->counts == NULL || k->displs == NULL) {
            snprintf(k->why, sizeof k->why, "out of memory");
            return -1;
        }
        int off = 0;
        for (int i = 0; i < k->np; i++) {
            /* A block each; reduce_scatter's vector is np blocks, as in IMB 2019 and later. */
            k->counts[i] = k->count;
            k->displs[i] = off;
            off += k->counts[i];
        }
    }

    uint64_t sb, rb;
    p->buffers(k->bytes, k->np, &sb, &rb);
    k->recv_off = page_round(sb ? sb : 1);
    k->stride = k->recv_off + page_round(rb ? rb : 1);
    k->nsets = 1;
    if (cache_bytes > 0)
        k->nsets = (int)((cache_bytes + k->stride - 1) / k->stride) + 1;
    k->pool_bytes = k->stride * (size_t)k->nsets;
    void *pool;
#ifdef CF_SMPI
    k->shared_pool = share_buffers;
    if (k->shared_pool) {
        /* Meaningless data, and no page faults to keep out of simulated time. */
        k->pool = SMPI_SHARED_MALLOC(k->pool_bytes);
        if (k->pool == NULL) {
            snprintf(k->why, sizeof k->why, "out of memory: %llu bytes of shared buffers",
                     (unsigned long long)k->pool_bytes);
            return -1;
        }
        return 0;
    }
#endif
    pool = cf_kernel_page_alloc(k->pool_bytes);
    if (pool == NULL) {
        snprintf(k->why, sizeof k->why, "out of memory: %llu bytes of buffers",
                 (unsigned long long)k->pool_bytes);
        return -1;
    }
    k->pool = pool;
    /* Touched before timing, so that no page fault lands in a timed loop. Reductions get
     * ordinary floats: stray bit patterns could be NaNs or denormals and slow the sums. */
    if (is_float(p)) {
        for (int i = 0; i < k->nsets; i++) {
            float *f = (float *)(k->pool + (size_t)i * k->stride);
            for (size_t j = 0; j < k->stride / sizeof(float); j++)
                f[j] = 1.0f;
        }
    } else {
        memset(k->pool, 1, k->pool_bytes);
    }
    return 0;
}

void cf_kernel_teardown(cf_kctx *k)
{
    if (k->own_type)
        MPI_Type_free(&k->type);
    free(k->counts);
    free(k->displs);
#ifdef CF_SMPI
    if (k->shared_pool && k->pool != NULL)
        SMPI_SHARED_FREE(k->pool);
    else
#endif
        free(k->pool);
    k->pool = NULL;
    k->shared_pool = 0;
    k->counts = k->displs = NULL;
    k->own_type = 0;
}
