/* Table throughput: writes a generated table of N rows (default 10^6), reads it back,
 * and prints rows per second for each, by the wall clock and by the CPU time (user +
 * system) used, which other work on a busy machine does not inflate as much. Run by
 * 'make bench'. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "base/table.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "bench-table.csv";
    long n = argc > 2 ? atol(argv[2]) : 1000000;
    static const char *pats[] = {"pingpong", "bcast", "allreduce", "alltoall", "gather"};
    cf_table *t = cf_table_alloc();
    cf_table_meta_set(t, "commfit", PACKAGE_VERSION);
    srand(1);
    for (long i = 0; i < n; i++) {
        cf_row r;
        cf_row_init(&r);
        /* Groups of 23 sizes (1 B .. 4 MiB), one per pattern and np: a valid table. */
        long g = i / 23;
        strcpy(r.pattern, pats[g % 5]);
        strcpy(r.datatype, "byte");
        r.np = 2 + (int)(g / 5);
        r.bytes = (uint64_t)1 << (i % 23);
        r.reps = 1000;
        r.samples = 5;
        double t0 = 1.0 + 1e-3 * (double)r.bytes * (1.0 + 0.01 * rand() / RAND_MAX);
        r.t_min_us = t0;
        r.t_avg_us = t0 * 1.01;
        r.t_max_us = t0 * 1.02;
        r.t_med_us = t0 * 1.005;
        r.t_ci95_us = t0 * 0.01;
        if (g % 5 == 0)
            r.bw_MiBps = (double)r.bytes / (1.048576 * r.t_avg_us);
        cf_table_add(t, &r);
    }
    cf_error e;
    cf_error_clear(&e);
    double a = now_s(), ca = cpu_s();
    if (cf_table_write(path, t, &e) != 0) {
        fprintf(stderr, "table-rw: %s: %s\n", e.file, e.msg);
        return 1;
    }
    double b = now_s(), cb = cpu_s();
    cf_table *u = NULL;
    if (cf_table_read(path, &u, &e) != 0) {
        fprintf(stderr, "table-rw: %s:%ld: %s\n", e.file, e.line, e.msg);
        return 1;
    }
    double c = now_s(), cc = cpu_s();
    printf("rows %ld\nwrite_s %.3f\nwrite_rows_per_s %.0f\nwrite_cpu_s %.3f\nread_s %.3f\n"
           "read_rows_per_s %.0f\nread_cpu_s %.3f\n",
           n, b - a, (double)n / (b - a), cb - ca, c - b, (double)n / (c - b), cc - cb);
    int same = u->n_rows == (size_t)n;
    cf_table_free(t);
    cf_table_free(u);
    if (!getenv("KEEP")) remove(path);
    return same ? 0 : 1;
}
