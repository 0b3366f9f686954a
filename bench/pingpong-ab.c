/* Fidelity in one launch: commfit's own measurement (cf_measure_run, what `commfit
 * measure --patterns pingpong` runs) against a minimal hand-written ping-pong loop,
 * alternating, ROUNDS times, in the same MPI job. On this machine a launch lands in a
 * fast or a slow state (0.2 or 0.65 us at 0 B, stable within the launch), so runs in
 * separate launches cannot compare at the 3% level; in one launch both see the same.
 * Usage (2 ranks): pingpong-ab ROUNDS SAMPLES SIZE...
 * Prints per size: reps, the medians over rounds of the reference and of commfit (the
 * median over SAMPLES of half a round trip, in us), and the median, least and largest of
 * the per-round ratios commfit / reference. */
#include "config.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "measure.h"
#include "table.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The loop one writes by hand: separate page-aligned buffers, written before use, a
 * warm-up of the same loop, then samples timed loops; the median half round trip. */
static double reference(long bytes, long reps, int samples, int rank)
{
    void *s = NULL, *r = NULL;
    size_t n = bytes > 0 ? (size_t)bytes : 1;
    if (posix_memalign(&s, 4096, n) != 0 || posix_memalign(&r, 4096, n) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(s, 1, n);
    memset(r, 1, n);
    double *t = malloc((size_t)samples * sizeof *t);
    for (int k = -1; k < samples; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long i = 0; i < reps; i++) {
            if (rank == 0) {
                MPI_Send(s, (int)bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(r, (int)bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(r, (int)bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(s, (int)bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        if (k >= 0)
            t[k] = (MPI_Wtime() - t0) / (double)reps / 2.0 * 1e6;
    }
    double m = median(t, samples);
    free(t);
    free(s);
    free(r);
    return m;
}

/* commfit measure --patterns pingpong --sizes LIST --samples K, in this process; rank 0
 * reads its table back into t_us and reps (per size, in the order given). */
static void commfit(const char *sizes, const char *samples, const char *path, int nsizes,
                    const long *bytes, double *t_us, long *reps, int rank)
{
    cf_measure_opts o;
    cf_error e;
    cf_error_clear(&e);
    cf_measure_opts_init(&o);
    if (cf_measure_set(&o, "--patterns", "pingpong", &e) != 0 ||
        cf_measure_set(&o, "--sizes", sizes, &e) != 0 ||
        cf_measure_set(&o, "--samples", samples, &e) != 0 ||
        cf_measure_set(&o, "--max-time", "86400", &e) != 0 ||
        cf_measure_set(&o, "--np", "2", &e) != 0 || cf_measure_set(&o, "--quiet", NULL, &e) != 0 ||
        cf_measure_set(&o, "--output", path, &e) != 0 || cf_measure_opts_check(&o, 2, &e) != 0) {
        fprintf(stderr, "pingpong-ab: %s\n", e.msg);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    cf_measure_hooks hooks = {NULL, NULL, NULL, NULL};
    if (cf_measure_run(&o, "pingpong-ab", &hooks, &e) != 0) {
        fprintf(stderr, "pingpong-ab: rank %d: %s\n", rank, e.msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    cf_measure_opts_free(&o);
    if (rank != 0)
        return;
    cf_table *tab = NULL;
    if (cf_table_read(path, &tab, &e) != 0) {
        fprintf(stderr, "pingpong-ab: %s\n", e.msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < nsizes; i++) {
        t_us[i] = -1;
        for (size_t j = 0; j < tab->n_rows; j++)
            if (tab->rows[j].bytes == (uint64_t)bytes[i]) {
                t_us[i] = tab->rows[j].t_med_us;
                reps[i] = tab->rows[j].reps;
            }
        if (t_us[i] < 0) {
            fprintf(stderr, "pingpong-ab: no row for %ld bytes in %s\n", bytes[i], path);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    cf_table_free(tab);
    unlink(path);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 4 || size != 2) {
        if (rank == 0)
            fprintf(stderr, "usage (2 ranks): pingpong-ab ROUNDS SAMPLES SIZE...\n");
        MPI_Finalize();
        return 2;
    }
    int rounds = atoi(argv[1]), samples = atoi(argv[2]), nsizes = argc - 3;
    if (rounds < 1 || samples < 1) {
        MPI_Finalize();
        return 2;
    }
    long *bytes = malloc((size_t)nsizes * sizeof *bytes);
    long *reps = malloc((size_t)nsizes * sizeof *reps),
         *ref_reps = malloc((size_t)nsizes * sizeof *reps);
    double *ref = malloc((size_t)(rounds * nsizes) * sizeof *ref);
    double *cf = malloc((size_t)(rounds * nsizes) * sizeof *cf);
    size_t len = 1;
    for (int i = 0; i < nsizes; i++)
        len += strlen(argv[3 + i]) + 1;
    char *list = calloc(len, 1);
    for (int i = 0; i < nsizes; i++) {
        bytes[i] = atol(argv[3 + i]);
        strcat(strcat(list, i ? "," : ""), argv[3 + i]);
    }
    char path[64];
    snprintf(path, sizeof path, "/tmp/pingpong-ab.%ld.csv", (long)getpid());
    for (int r = 0; r < rounds; r++) {
        for (int half = 0; half < 2; half++) {
            /* Alternate which goes first, so that neither always follows the other. */
            if ((half == 0) == (r % 2 == 0)) {
                commfit(list, argv[2], path, nsizes, bytes, cf + r * nsizes, reps, rank);
            } else {
                for (int i = 0; i < nsizes; i++) {
                    /* The same repetitions commfit uses: min(1000, 40 MiB / bytes), >= 1. */
                    long n = bytes[i] > 0 ? 40L * 1024 * 1024 / bytes[i] : 1000;
                    n = n > 1000 ? 1000 : n < 1 ? 1 : n;
                    ref_reps[i] = n;
                    ref[r * nsizes + i] = reference(bytes[i], n, samples, rank);
                }
            }
        }
    }
    if (rank == 0) {
        printf("%10s %8s %12s %12s %8s %8s %8s\n", "bytes", "reps", "ref_us", "commfit_us", "ratio",
               "min", "max");
        double *a = malloc((size_t)rounds * sizeof *a), *b = malloc((size_t)rounds * sizeof *b);
        double *q = malloc((size_t)rounds * sizeof *q);
        for (int i = 0; i < nsizes; i++) {
            double lo = 1e300, hi = 0;
            for (int r = 0; r < rounds; r++) {
                a[r] = ref[r * nsizes + i];
                b[r] = cf[r * nsizes + i];
                q[r] = b[r] / a[r];
                lo = q[r] < lo ? q[r] : lo;
                hi = q[r] > hi ? q[r] : hi;
            }
            printf("%10ld %8ld %12.4g %12.4g %8.3f %8.3f %8.3f%s\n", bytes[i], reps[i],
                   median(a, rounds), median(b, rounds), median(q, rounds), lo, hi,
                   reps[i] != ref_reps[i] ? "  (reps differ!)" : "");
        }
        free(a);
        free(b);
        free(q);
    }
    free(bytes);
    free(reps);
    free(ref_reps);
    free(ref);
    free(cf);
    free(list);
    MPI_Finalize();
    return 0;
}
