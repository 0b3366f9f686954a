/* The reference of bench/measure-ab's "patterns" mode: for every pattern commfit measures
 * with a size, a loop written by hand the way IMB 2021's IMB-MPI1 times it with its
 * default options, independently of commfit's kernels:
 *   - two barriers, then the timed loop (IMB's N_BARR);
 *   - point-to-point patterns (PingPong, PingPing, Sendrecv, Exchange): the loop timed
 *     whole; PingPong reports half a round trip;
 *   - collectives: each call timed alone, a barrier after it (-sync 1), the root rank 0
 *     (-root_shift 0); Bcast receives into the receive buffer off the root;
 *   - MPI_BYTE for data, MPI_FLOAT and MPI_SUM for the reductions; Reduce_scatter gives each
 *     rank a block of #bytes (IMB 2019 and later);
 *   - one send and one receive buffer, reused by every call (no -off_cache).
 * A sample is each rank's time per call, averaged over the ranks (IMB's t_avg). */
#include "config.h"

#include "imb-ref.h"

#include <stdlib.h>
#include <string.h>

/* One rank's buffers and counts for a point. */
typedef struct ref {
    MPI_Comm comm;
    int rank, np;
    int n; /* bytes per message or block; floats for the reductions */
    char *s, *r;
    int *counts, *displs;
} ref;

typedef double (*loop_fn)(ref *x, long reps);

static double pingpong(ref *x, long reps)
{
    double t0 = MPI_Wtime();
    for (long i = 0; i < reps; i++) {
        if (x->rank == 0) {
            MPI_Send(x->s, x->n, MPI_BYTE, 1, 1, x->comm);
            MPI_Recv(x->r, x->n, MPI_BYTE, 1, 1, x->comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(x->r, x->n, MPI_BYTE, 0, 1, x->comm, MPI_STATUS_IGNORE);
            MPI_Send(x->s, x->n, MPI_BYTE, 0, 1, x->comm);
        }
    }
    return (MPI_Wtime() - t0) / (double)reps / 2;
}

static double pingping(ref *x, long reps)
{
    int peer = 1 - x->rank;
    MPI_Request q;
    double t0 = MPI_Wtime();
    for (long i = 0; i < reps; i++) {
        MPI_Isend(x->s, x->n, MPI_BYTE, peer, 1, x->comm, &q);
        MPI_Recv(x->r, x->n, MPI_BYTE, peer, 1, x->comm, MPI_STATUS_IGNORE);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
    return (MPI_Wtime() - t0) / (double)reps;
}

static double sendrecv(ref *x, long reps)
{
    int right = (x->rank + 1) % x->np, left = (x->rank + x->np - 1) % x->np;
    double t0 = MPI_Wtime();
    for (long i = 0; i < reps; i++)
        MPI_Sendrecv(x->s, x->n, MPI_BYTE, right, 1, x->r, x->n, MPI_BYTE, left, 1, x->comm,
                     MPI_STATUS_IGNORE);
    return (MPI_Wtime() - t0) / (double)reps;
}

static double exchange(ref *x, long reps)
{
    int right = (x->rank + 1) % x->np, left = (x->rank + x->np - 1) % x->np;
    MPI_Request q[2];
    MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: gcc's bounds check misreads it */
    double t0 = MPI_Wtime();
    for (long i = 0; i < reps; i++) {
        MPI_Isend(x->s, x->n, MPI_BYTE, right, 1, x->comm, &q[0]);
        MPI_Isend(x->s + x->n, x->n, MPI_BYTE, left, 1, x->comm, &q[1]);
        MPI_Recv(x->r, x->n, MPI_BYTE, left, 1, x->comm, MPI_STATUS_IGNORE);
        MPI_Recv(x->r, x->n, MPI_BYTE, right, 1, x->comm, MPI_STATUS_IGNORE);
        MPI_Waitall(2, q, st);
    }
    return (MPI_Wtime() - t0) / (double)reps;
}

/* IMB's collective loop: each call timed alone, then a barrier. */
#define TIMED_CALLS(call)                                                                          \
    double acc = 0;                                                                                \
    for (long i = 0; i < reps; i++) {                                                              \
        double t0 = MPI_Wtime();                                                                   \
        call;                                                                                      \
        acc += MPI_Wtime() - t0;                                                                   \
        MPI_Barrier(x->comm);                                                                      \
    }                                                                                              \
    return acc / (double)reps

static double bcast(ref *x, long reps)
{
    TIMED_CALLS(MPI_Bcast(x->rank == 0 ? x->s : x->r, x->n, MPI_BYTE, 0, x->comm));
}

static double scatter(ref *x, long reps)
{
    TIMED_CALLS(MPI_Scatter(x->s, x->n, MPI_BYTE, x->r, x->n, MPI_BYTE, 0, x->comm));
}

static double scatterv(ref *x, long reps)
{
    TIMED_CALLS(
        MPI_Scatterv(x->s, x->counts, x->displs, MPI_BYTE, x->r, x->n, MPI_BYTE, 0, x->comm));
}

static double gather(ref *x, long reps)
{
    TIMED_CALLS(MPI_Gather(x->s, x->n, MPI_BYTE, x->r, x->n, MPI_BYTE, 0, x->comm));
}

static double gatherv(ref *x, long reps)
{
    TIMED_CALLS(
        MPI_Gatherv(x->s, x->n, MPI_BYTE, x->r, x->counts, x->displs, MPI_BYTE, 0, x->comm));
}

static double allgather(ref *x, long reps)
{
    TIMED_CALLS(MPI_Allgather(x->s, x->n, MPI_BYTE, x->r, x->n, MPI_BYTE, x->comm));
}

static double allgatherv(ref *x, long reps)
{
    TIMED_CALLS(
        MPI_Allgatherv(x->s, x->n, MPI_BYTE, x->r, x->counts, x->displs, MPI_BYTE, x->comm));
}

static double reduce(ref *x, long reps)
{
    TIMED_CALLS(MPI_Reduce(x->s, x->r, x->n, MPI_FLOAT, MPI_SUM, 0, x->comm));
}

static double allreduce(ref *x, long reps)
{
    TIMED_CALLS(MPI_Allreduce(x->s, x->r, x->n, MPI_FLOAT, MPI_SUM, x->comm));
}

static double reduce_scatter(ref *x, long reps)
{
    TIMED_CALLS(MPI_Reduce_scatter(x->s, x->r, x->counts, MPI_FLOAT, MPI_SUM, x->comm));
}

static double alltoall(ref *x, long reps)
{
    TIMED_CALLS(MPI_Alltoall(x->s, x->n, MPI_BYTE, x->r, x->n, MPI_BYTE, x->comm));
}

static double alltoallv(ref *x, long reps)
{
    TIMED_CALLS(MPI_Alltoallv(x->s, x->counts, x->displs, MPI_BYTE, x->r, x->counts, x->displs,
                              MPI_BYTE, x->comm));
}

static const struct {
    const char *name;
    loop_fn loop;
    int floats; /* a reduction: n counts floats */
} loops[] = {
    {"pingpong", pingpong, 0},     {"pingping", pingping, 0},
    {"sendrecv", sendrecv, 0},     {"exchange", exchange, 0},
    {"bcast", bcast, 0},           {"scatter", scatter, 0},
    {"scatterv", scatterv, 0},     {"gather", gather, 0},
    {"gatherv", gatherv, 0},       {"allgather", allgather, 0},
    {"allgatherv", allgatherv, 0}, {"reduce", reduce, 1},
    {"allreduce", allreduce, 1},   {"reduce_scatter", reduce_scatter, 1},
    {"alltoall", alltoall, 0},     {"alltoallv", alltoallv, 0},
};
enum { NLOOPS = sizeof loops / sizeof loops[0] };

int imb_ref_count(void)
{
    return NLOOPS;
}

const char *imb_ref_name(int i)
{
    return i >= 0 && i < NLOOPS ? loops[i].name : NULL;
}

static int find(const char *pattern)
{
    for (int i = 0; i < NLOOPS; i++)
        if (strcmp(loops[i].name, pattern) == 0)
            return i;
    return -1;
}

int imb_ref_known(const char *pattern)
{
    return find(pattern) >= 0;
}

static char *page_buffer(size_t n, int floats)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, n > 0 ? n : 1) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (floats)
        for (size_t i = 0; i < n / sizeof(float); i++)
            ((float *)p)[i] = 1.0f;
    else
        memset(p, 1, n > 0 ? n : 1); /* written: never the shared zero page */
    return p;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double imb_ref_run(const char *pattern, long bytes, long reps, int samples, MPI_Comm comm)
{
    int i = find(pattern);
    if (i < 0 || samples < 1)
        MPI_Abort(comm, 2);
    ref x = {.comm = comm};
    MPI_Comm_rank(comm, &x.rank);
    MPI_Comm_size(comm, &x.np);
    x.n = (int)(loops[i].floats ? bytes / (long)sizeof(float) : bytes);
    /* Room for the largest buffer any pattern needs: np blocks, twice (Exchange's send). */
    size_t room = 2 * (size_t)x.np * (size_t)bytes;
    x.s = page_buffer(room, loops[i].floats);
    x.r = page_buffer(room, loops[i].floats);
    x.counts = malloc((size_t)x.np * sizeof *x.counts);
    x.displs = malloc((size_t)x.np * sizeof *x.displs);
    for (int k = 0; k < x.np; k++) {
        x.counts[k] = x.n;
        x.displs[k] = k * x.n;
    }
    double *ts = malloc((size_t)samples * sizeof *ts);
    for (int k = -1; k < samples; k++) { /* sample -1 is the warm-up */
        MPI_Barrier(comm);
        MPI_Barrier(comm);
        double t = loops[i].loop(&x, reps), sum = 0;
        MPI_Allreduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
        if (k >= 0)
            ts[k] = sum / x.np * 1e6;
    }
    qsort(ts, (size_t)samples, sizeof *ts, cmp);
    double med = samples % 2 ? ts[samples / 2] : (ts[samples / 2 - 1] + ts[samples / 2]) / 2;
    free(ts);
    free(x.counts);
    free(x.displs);
    free(x.s);
    free(x.r);
    return med;
}
