/* A hand-written derived-datatype ping-pong, plain MPI and nothing of commfit: the
 * reference commfit measure's datatype rows are compared with (bench/ddt.sh).
 * Usage (2 ranks): ddt-ref vector|indexed BYTES BLOCKS[,BLOCKS...] REPS SAMPLES
 * Prints "datatype bytes blocks t_med_us" per block count: the median over samples of
 * half a round trip, as rank 0 sees it. Same layout as commfit: blocks of n/blocks
 * floats, stride twice the block, indexed's last block taking the remainder. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double one(const char *kind, long bytes, int blocks, long reps, int samples, int rank,
                  long *sent)
{
    int n = (int)(bytes / 4), q = n / blocks, r = n % blocks, vec = strcmp(kind, "vector") == 0;
    MPI_Datatype t;
    if (vec) {
        MPI_Type_vector(blocks, q, 2 * q, MPI_FLOAT, &t);
        n = q * blocks;
    } else {
        int *len = malloc(blocks * sizeof *len), *disp = malloc(blocks * sizeof *disp);
        for (int i = 0; i < blocks; i++) {
            len[i] = q + (i == blocks - 1 ? r : 0);
            disp[i] = 2 * q * i;
        }
        MPI_Type_indexed(blocks, len, disp, MPI_FLOAT, &t);
        free(len);
        free(disp);
    }
    MPI_Type_commit(&t);
    size_t extent = ((size_t)2 * q * (blocks - 1) + q + r) * 4;
    /* Page-aligned and written, as commfit's: a calloc'd buffer never written reads the
     * shared zero page, which stays in cache and flatters the reference. */
    float *src = NULL, *dst = NULL;
    if (posix_memalign((void **)&src, 4096, extent + 4) != 0 ||
        posix_memalign((void **)&dst, 4096, (size_t)n * 4 + 4) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (size_t i = 0; i < extent / 4 + 1; i++)
        src[i] = (float)i;
    memset(dst, 0, (size_t)n * 4 + 4);
    double *ts = malloc(samples * sizeof *ts);
    int peer = 1 - rank;
    for (int s = -1; s < samples; s++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long i = 0; i < reps; i++) {
            if (rank == 0) {
                MPI_Send(src, 1, t, peer, 1, MPI_COMM_WORLD);
                MPI_Recv(dst, n, MPI_FLOAT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(dst, n, MPI_FLOAT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(src, 1, t, peer, 1, MPI_COMM_WORLD);
            }
        }
        if (s >= 0) /* sample -1 is the warm-up */
            ts[s] = (MPI_Wtime() - t0) * 1e6 / (2.0 * reps);
    }
    qsort(ts, samples, sizeof *ts, cmp);
    double med = samples % 2 ? ts[samples / 2] : (ts[samples / 2 - 1] + ts[samples / 2]) / 2;
    free(ts);
    free(src);
    free(dst);
    MPI_Type_free(&t);
    *sent = (long)n * 4;
    return med;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 6 || size != 2) {
        if (rank == 0)
            fprintf(stderr, "usage (2 ranks): ddt-ref vector|indexed BYTES BLOCKS[,...] REPS "
                            "SAMPLES\n");
        MPI_Finalize();
        return 2;
    }
    long bytes = atol(argv[2]), reps = atol(argv[4]);
    int samples = atoi(argv[5]);
    char *list = strdup(argv[3]);
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        long sent;
        double t = one(argv[1], bytes, atoi(tok), reps, samples, rank, &sent);
        if (rank == 0)
            printf("%s %ld %s %.4f\n", argv[1], sent, tok, t);
    }
    free(list);
    MPI_Finalize();
    return 0;
}
