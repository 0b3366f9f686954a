/* Derived-datatype transfers at np=2: every datatype at several sizes and block counts
 * round-trips correct data, the timed kernel leaves correct data, a corrupted element is
 * caught, and a timed run gives a time per call. Prints TAP from rank 0. */
#include "config.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "measure/ddt.h"

static int tap_n, tap_failed, rank;

/* Both ranks agree on every result; rank 0 prints it. */
static void report(int good, const char *what, const cf_error *e)
{
    int all = 0;
    MPI_Allreduce(&good, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    tap_n++;
    if (!all)
        tap_failed++;
    if (rank == 0) {
        printf("%s %d - %s\n", all ? "ok" : "not ok", tap_n, what);
        if (!all && e != NULL && e->msg[0] != '\0')
            printf("#   %s\n", e->msg);
    }
}

/* One point: build, verified round trip, a short untimed run, verify what it left. */
static void round_trip(cf_ddt_kind kind, cf_ddt_kind layout, uint64_t bytes, long blocks)
{
    cf_ddt_shape s;
    if (cf_ddt_plan(kind, layout, bytes, blocks, &s) != 0)
        return;
    cf_error e;
    cf_error_clear(&e);
    cf_ddt_xfer x;
    int rc = cf_ddt_xfer_init(&x, &s, MPI_COMM_WORLD, &e);
    if (rc == 0) {
        rc = cf_ddt_check(&x, &e);
        if (rc == 0)
            rc = cf_ddt_run(&x, 3, &e);
        if (rc == 0)
            rc = cf_ddt_verify(&x, &e);
        cf_ddt_xfer_free(&x);
    }
    char what[160];
    snprintf(what, sizeof what, "%s%s%s, %llu bytes, %ld blocks: correct both ways",
             cf_ddt_kind_name(kind), kind == CF_DDT_PACK ? " of " : "",
             kind == CF_DDT_PACK ? cf_ddt_kind_name(layout) : "",
             (unsigned long long)s.bytes, s.blocks);
    report(rc == 0, what, &e);
}

/* A wrong word in rank 0's element must be named by the check, on both ranks. */
static void corruption_caught(void)
{
    cf_ddt_shape s;
    cf_ddt_plan(CF_DDT_VECTOR, CF_DDT_VECTOR, 4096, 4, &s);
    cf_error e;
    cf_error_clear(&e);
    cf_ddt_xfer x = {0};
    int rc = cf_ddt_xfer_init(&x, &s, MPI_COMM_WORLD, &e);
    if (rc == 0 && rank == 0) {
        /* Payload word 300 is the 44th float of block 1 (256 floats a block, stride 2048). */
        float f = -5.0f;
        memcpy(x.send + 2048 + 44 * 4, &f, 4);
    }
    if (rc == 0)
        rc = cf_ddt_check(&x, &e);
    report(rc != 0 && strstr(e.msg, "rank 1 received a wrong value at payload word 300") != NULL,
           "a corrupted element is caught and the word named", NULL);
    if (rank == 0)
        printf("#   %s\n", e.msg);
    if (x.send != NULL)
        cf_ddt_xfer_free(&x);

    /* Rank 1's element wrong in the timed transfers: rank 0 must see it afterwards. */
    cf_error_clear(&e);
    rc = cf_ddt_xfer_init(&x, &s, MPI_COMM_WORLD, &e);
    if (rc == 0) {
        if (rank == 1) {
            float f = -5.0f;
            memcpy(x.send + 4, &f, 4);
        }
        rc = cf_ddt_run(&x, 2, &e);
        if (rc == 0)
            rc = cf_ddt_verify(&x, &e);
        cf_ddt_xfer_free(&x);
    }
    report(rc != 0 && strstr(e.msg, "rank 0 received a wrong value at payload word 1") != NULL,
           "a wrong value in the timed transfers is caught", NULL);
    if (rank == 0)
        printf("#   %s\n", e.msg);
}

/* The timed kernel commfit measure samples (its rows are checked by measure-ddt.sh). */
static void timed_run(void)
{
    cf_ddt_shape s;
    cf_ddt_plan(CF_DDT_INDEXED, CF_DDT_INDEXED, 8192, 7, &s);
    cf_error e;
    cf_error_clear(&e);
    cf_ddt_xfer x;
    double t = 0;
    int rc = cf_ddt_xfer_init(&x, &s, MPI_COMM_WORLD, &e);
    if (rc == 0) {
        rc = cf_ddt_run(&x, 20, &e);
        if (rc == 0)
            rc = cf_ddt_run_timed(&x, 20, &t, &e);
        if (rc == 0)
            rc = cf_ddt_verify(&x, &e);
        cf_ddt_xfer_free(&x);
    }
    /* A time, not a bound on it: a loaded machine may take any while. */
    report(rc == 0 && t > 0 && isfinite(t), "a timed run gives a time per call and correct data",
           &e);
}

int main(int argc, char **argv)
{
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            printf("1..0 # SKIP needs exactly 2 ranks\n");
        MPI_Finalize();
        return 0;
    }
    const uint64_t sizes[] = {4, 16, 100, 1000, 4096, 65548, 1 << 20};
    const long blocks[] = {1, 2, 3, 7, 10, 100, 1000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        round_trip(CF_DDT_CONTIGUOUS, CF_DDT_CONTIGUOUS, sizes[i], 1);
        round_trip(CF_DDT_STRUCT, CF_DDT_STRUCT, sizes[i], 0);
        round_trip(CF_DDT_PACK, CF_DDT_STRUCT, sizes[i], 0);
        for (size_t j = 0; j < sizeof blocks / sizeof blocks[0]; j++)
            for (int k = CF_DDT_VECTOR; k <= CF_DDT_HINDEXED; k++) {
                round_trip((cf_ddt_kind)k, (cf_ddt_kind)k, sizes[i], blocks[j]);
                round_trip(CF_DDT_PACK, (cf_ddt_kind)k, sizes[i], blocks[j]);
            }
    }
    corruption_caught();
    timed_run();
    if (rank == 0)
        printf("1..%d\n", tap_n);
    MPI_Finalize();
    return tap_failed ? 1 : 0;
}
