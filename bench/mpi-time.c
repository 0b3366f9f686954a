/* A PMPI interposer for the cost benchmark: preloaded into commfit measure, it adds up
 * the time each rank spends inside the MPI calls commfit makes, and at MPI_Finalize
 * prints that against the wall time since MPI_Init was entered. MPI_Wtime counts apart:
 * the o_r experiment (loggp_or) delays its receive on purpose by spinning on it, which
 * is the experiment's work, not the harness's.
 * Build: mpicc -shared -fPIC; use: LD_PRELOAD=bench/mpi-time.so. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static double in_mpi, in_wtime, start;
static double wtime_left; /* when the last MPI_Wtime returned */
static int spinning;      /* no other MPI call since then */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define TIMED(call)                                                                           \
    do {                                                                                      \
        double t0_ = now();                                                                   \
        spinning = 0;                                                                         \
        int rc_ = call;                                                                       \
        in_mpi += now() - t0_;                                                                \
        return rc_;                                                                           \
    } while (0)

int MPI_Init(int *argc, char ***argv)
{
    start = now();
    TIMED(PMPI_Init(argc, argv));
}

int MPI_Finalize(void)
{
    double wall = now() - start;
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double out = wall - in_mpi - in_wtime;
    fprintf(stderr,
            "mpi-time: rank %d: %.3f s from MPI_Init to MPI_Finalize, %.3f s in MPI calls, "
            "%.3f s spinning on MPI_Wtime, %.3f s outside (%.2f%%)\n",
            rank, wall, in_mpi, in_wtime, out, 100.0 * out / wall);
    return PMPI_Finalize();
}

/* A spin is MPI_Wtime called again and again with nothing between: the short gaps
 * between such calls (the loop's compare, this wrapper's own clock reads) are the spin's
 * too. Any other MPI call ends a spin. */
double MPI_Wtime(void)
{
    double t0 = now();
    if (spinning && t0 - wtime_left < 2e-6)
        in_wtime += t0 - wtime_left;
    double w = PMPI_Wtime();
    wtime_left = now();
    in_wtime += wtime_left - t0;
    spinning = 1;
    return w;
}

int MPI_Send(const void *b, int c, MPI_Datatype t, int d, int g, MPI_Comm m)
{
    TIMED(PMPI_Send(b, c, t, d, g, m));
}
int MPI_Recv(void *b, int c, MPI_Datatype t, int s, int g, MPI_Comm m, MPI_Status *st)
{
    TIMED(PMPI_Recv(b, c, t, s, g, m, st));
}
int MPI_Isend(const void *b, int c, MPI_Datatype t, int d, int g, MPI_Comm m, MPI_Request *r)
{
    TIMED(PMPI_Isend(b, c, t, d, g, m, r));
}
int MPI_Irecv(void *b, int c, MPI_Datatype t, int s, int g, MPI_Comm m, MPI_Request *r)
{
    TIMED(PMPI_Irecv(b, c, t, s, g, m, r));
}
int MPI_Wait(MPI_Request *r, MPI_Status *st)
{
    TIMED(PMPI_Wait(r, st));
}
int MPI_Waitall(int n, MPI_Request r[], MPI_Status st[])
{
    TIMED(PMPI_Waitall(n, r, st));
}
int MPI_Test(MPI_Request *r, int *f, MPI_Status *st)
{
    TIMED(PMPI_Test(r, f, st));
}
int MPI_Sendrecv(const void *sb, int sc, MPI_Datatype st, int d, int sg, void *rb, int rc,
                 MPI_Datatype rt, int s, int rg, MPI_Comm m, MPI_Status *status)
{
    TIMED(PMPI_Sendrecv(sb, sc, st, d, sg, rb, rc, rt, s, rg, m, status));
}
int MPI_Barrier(MPI_Comm m)
{
    TIMED(PMPI_Barrier(m));
}
int MPI_Ibarrier(MPI_Comm m, MPI_Request *r)
{
    TIMED(PMPI_Ibarrier(m, r));
}
int MPI_Bcast(void *b, int c, MPI_Datatype t, int root, MPI_Comm m)
{
    TIMED(PMPI_Bcast(b, c, t, root, m));
}
int MPI_Scatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                int root, MPI_Comm m)
{
    TIMED(PMPI_Scatter(sb, sc, st, rb, rc, rt, root, m));
}
int MPI_Scatterv(const void *sb, const int sc[], const int d[], MPI_Datatype st, void *rb, int rc,
                 MPI_Datatype rt, int root, MPI_Comm m)
{
    TIMED(PMPI_Scatterv(sb, sc, d, st, rb, rc, rt, root, m));
}
int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
               int root, MPI_Comm m)
{
    TIMED(PMPI_Gather(sb, sc, st, rb, rc, rt, root, m));
}
int MPI_Gatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rc[], const int d[],
                MPI_Datatype rt, int root, MPI_Comm m)
{
    TIMED(PMPI_Gatherv(sb, sc, st, rb, rc, d, rt, root, m));
}
int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                  MPI_Comm m)
{
    TIMED(PMPI_Allgather(sb, sc, st, rb, rc, rt, m));
}
int MPI_Allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rc[],
                   const int d[], MPI_Datatype rt, MPI_Comm m)
{
    TIMED(PMPI_Allgatherv(sb, sc, st, rb, rc, d, rt, m));
}
int MPI_Reduce(const void *sb, void *rb, int c, MPI_Datatype t, MPI_Op op, int root, MPI_Comm m)
{
    TIMED(PMPI_Reduce(sb, rb, c, t, op, root, m));
}
int MPI_Allreduce(const void *sb, void *rb, int c, MPI_Datatype t, MPI_Op op, MPI_Comm m)
{
    TIMED(PMPI_Allreduce(sb, rb, c, t, op, m));
}
int MPI_Reduce_scatter(const void *sb, void *rb, const int rc[], MPI_Datatype t, MPI_Op op,
                       MPI_Comm m)
{
    TIMED(PMPI_Reduce_scatter(sb, rb, rc, t, op, m));
}
int MPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                 MPI_Comm m)
{
    TIMED(PMPI_Alltoall(sb, sc, st, rb, rc, rt, m));
}
int MPI_Alltoallv(const void *sb, const int sc[], const int sd[], MPI_Datatype st, void *rb,
                  const int rc[], const int rd[], MPI_Datatype rt, MPI_Comm m)
{
    TIMED(PMPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, m));
}
int MPI_Comm_split(MPI_Comm m, int color, int key, MPI_Comm *out)
{
    TIMED(PMPI_Comm_split(m, color, key, out));
}
int MPI_Comm_free(MPI_Comm *m)
{
    TIMED(PMPI_Comm_free(m));
}
/* The pack baseline of the derived-datatype rows packs and unpacks inside its timed loop:
 * MPI calls, measured work, not the harness's. */
int MPI_Pack(const void *in, int c, MPI_Datatype t, void *out, int size, int *pos, MPI_Comm m)
{
    TIMED(PMPI_Pack(in, c, t, out, size, pos, m));
}
int MPI_Unpack(const void *in, int size, int *pos, void *out, int c, MPI_Datatype t, MPI_Comm m)
{
    TIMED(PMPI_Unpack(in, size, pos, out, c, t, m));
}
