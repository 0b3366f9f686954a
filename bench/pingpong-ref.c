/* The fidelity reference: a minimal hand-written MPI ping-pong, as one would write it
 * without commfit. Separate send and receive buffers, the same repetitions as commfit
 * (min(1000, 40 MiB / bytes)), a warm-up of the same loop, then SAMPLES timed loops;
 * prints "bytes median_half_round_trip_us" per size from rank 0.
 * Usage: pingpong-ref SAMPLES SIZE... */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int samples = argc > 1 ? atoi(argv[1]) : 5;
    if (samples < 1 || samples > 1000)
        samples = 5;
    double t[1000];
    for (int a = 2; a < argc; a++) {
        long bytes = atol(argv[a]);
        long reps = bytes > 0 && 40L * 1024 * 1024 / bytes < 1000 ? 40L * 1024 * 1024 / bytes : 1000;
        if (reps < 1)
            reps = 1;
        void *s = NULL, *r = NULL;
        size_t n = bytes > 0 ? (size_t)bytes : 1;
        if (posix_memalign(&s, 4096, n) != 0 || posix_memalign(&r, 4096, n) != 0)
            MPI_Abort(MPI_COMM_WORLD, 1);
        memset(s, 1, n);
        memset(r, 1, n);
        for (int k = -1; k < samples; k++) { /* k = -1: the warm-up */
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (long i = 0; i < reps; i++) {
                if (rank == 0) {
                    MPI_Send(s, (int)bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                    MPI_Recv(r, (int)bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else if (rank == 1) {
                    MPI_Recv(r, (int)bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(s, (int)bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
                }
            }
            if (k >= 0)
                t[k] = (MPI_Wtime() - t0) / (double)reps / 2.0 * 1e6;
        }
        qsort(t, (size_t)samples, sizeof t[0], cmp);
        double med = samples % 2 ? t[samples / 2] : (t[samples / 2 - 1] + t[samples / 2]) / 2;
        if (rank == 0)
            printf("%ld %.6g %ld\n", bytes, med, reps);
        free(s);
        free(r);
    }
    MPI_Finalize();
    return 0;
}
