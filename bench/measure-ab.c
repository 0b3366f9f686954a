/* The harness benchmarks, in one launch: commfit's own measurement (cf_measure_run, the
 * code `commfit measure` runs) against a minimal hand-written loop, alternating, ROUNDS
 * times, in the same MPI job. On this machine a launch lands in a fast or a slow state
 * (0.2 or 0.65 us for a 0 B ping-pong, stable within the launch), so runs in separate
 * launches cannot be compared at the 3% level; in one launch both see the same.
 *
 *   measure-ab patterns LIST ROUNDS SAMPLES SIZE...
 *     commfit --patterns LIST (names, or "all": the 16 sized patterns) at each size against
 *     a loop written by hand the way IMB 2021 times that pattern (bench/imb-ref.c), with
 *     the repetitions commfit uses (min(1000, 40 MiB / bytes));
 *   measure-ab pingpong ROUNDS SAMPLES SIZE...
 *     the same for pingpong alone (a plain MPI_Send/MPI_Recv loop);
 *   measure-ab ddt ROUNDS SAMPLES REPS BYTES BLOCKS[,BLOCKS...]
 *     commfit --patterns ddt --datatypes vector,indexed against a loop sending one
 *     element of the same MPI_Type_vector / MPI_Type_indexed (blocks of n/blocks floats,
 *     stride twice the block, indexed's last block taking the remainder), received as
 *     contiguous floats and sent back with the type, as commfit does.
 *
 * Prints one line per point: the medians over rounds of the reference and of commfit
 * (each the median over SAMPLES of half a round trip, in us) and the median, least and
 * largest of the per-round ratios commfit / reference. Run with 2 ranks. */
#include "config.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "imb-ref.h"

#include "base/error.h"
#include "measure/measure.h"
#include "base/table.h"

/* One measured point: a ping-pong size, or a datatype layout at a block count. */
typedef struct point {
    const char *pattern;  /* a sized pattern; NULL for a datatype layout */
    long bytes;           /* asked for */
    const char *datatype; /* NULL for a plain ping-pong; "vector" or "indexed" */
    int blocks;
    long reps;        /* the reference's */
    long cf_reps;     /* commfit's, from its table */
    long cf_bytes;    /* the payload commfit sent (vector drops the remainder) */
    double *ref, *cf; /* per round, us */
} point;

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

static void *page_buffer(size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, n > 0 ? n : 1) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(p, 1, n > 0 ? n : 1); /* written: never the shared zero page */
    return p;
}

/* The datatype of a layout, and its payload in floats. */
static MPI_Datatype layout(const point *p, int *n)
{
    int floats = (int)(p->bytes / 4), q = floats / p->blocks, r = floats % p->blocks;
    MPI_Datatype t;
    if (strcmp(p->datatype, "vector") == 0) {
        MPI_Type_vector(p->blocks, q, 2 * q, MPI_FLOAT, &t);
        *n = q * p->blocks;
    } else {
        int *len = malloc((size_t)p->blocks * sizeof *len);
        int *disp = malloc((size_t)p->blocks * sizeof *disp);
        for (int i = 0; i < p->blocks; i++) {
            len[i] = q + (i == p->blocks - 1 ? r : 0);
            disp[i] = 2 * q * i;
        }
        MPI_Type_indexed(p->blocks, len, disp, MPI_FLOAT, &t);
        free(len);
        free(disp);
        *n = floats;
    }
    MPI_Type_commit(&t);
    return t;
}

/* The loop one writes by hand: a warm-up of the same loop, then samples timed loops; the
 * median half round trip in us. */
static double reference(const point *p, int samples, int rank)
{
    if (p->pattern != NULL)
        return imb_ref_run(p->pattern, p->bytes, p->reps, samples, MPI_COMM_WORLD);
    MPI_Datatype t = MPI_BYTE;
    int n = (int)p->bytes; /* elements received (and sent, for a plain ping-pong) */
    size_t extent = (size_t)p->bytes;
    if (p->datatype != NULL) {
        t = layout(p, &n);
        MPI_Aint lb, ext;
        MPI_Type_get_extent(t, &lb, &ext);
        extent = (size_t)ext;
    }
    MPI_Datatype rt = p->datatype != NULL ? MPI_FLOAT : MPI_BYTE;
    int scount = p->datatype != NULL ? 1 : n;
    void *s = page_buffer(extent), *r = page_buffer((size_t)p->bytes);
    double *ts = malloc((size_t)samples * sizeof *ts);
    for (int k = -1; k < samples; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long i = 0; i < p->reps; i++) {
            if (rank == 0) {
                MPI_Send(s, scount, t, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(r, n, rt, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(r, n, rt, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(s, scount, t, 0, 1, MPI_COMM_WORLD);
            }
        }
        if (k >= 0)
            ts[k] = (MPI_Wtime() - t0) / (double)p->reps / 2.0 * 1e6;
    }
    double m = median(ts, samples);
    if (p->datatype != NULL)
        MPI_Type_free(&t);
    free(ts);
    free(s);
    free(r);
    return m;
}

/* commfit measure with the options opts (name, value pairs; NULL ends), in this process;
 * rank 0 reads its table back into the points' round r. */
static void commfit(const char *const *opts, const char *path, point *pts, int npts, int r,
                    int rank)
{
    cf_measure_opts o;
    cf_error e;
    cf_error_clear(&e);
    cf_measure_opts_init(&o);
    int rc = cf_measure_set(&o, "--output", path, &e);
    for (int i = 0; rc == 0 && opts[i] != NULL; i += 2)
        rc = cf_measure_set(&o, opts[i], opts[i + 1], &e);
    if (rc != 0 || cf_measure_opts_check(&o, 2, &e) != 0) {
        fprintf(stderr, "measure-ab: %s\n", e.msg);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    cf_measure_hooks hooks = {NULL, NULL, NULL, NULL};
    if (cf_measure_run(&o, "measure-ab", &hooks, &e) != 0) {
        fprintf(stderr, "measure-ab: rank %d: %s\n", rank, e.msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    cf_measure_opts_free(&o);
    if (rank != 0)
        return;
    cf_table *tab = NULL;
    if (cf_table_read(path, &tab, &e) != 0) {
        fprintf(stderr, "measure-ab: %s\n", e.msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < npts; i++) {
        point *p = &pts[i];
        p->cf[r] = -1;
        for (size_t j = 0; j < tab->n_rows; j++) {
            const cf_row *w = &tab->rows[j];
            if (p->pattern != NULL
                    ? strcmp(w->pattern, p->pattern) == 0 && w->bytes == (uint64_t)p->bytes
                    : strcmp(w->datatype, p->datatype) == 0 && w->blocks == p->blocks) {
                p->cf[r] = w->t_med_us;
                p->cf_reps = w->reps;
                p->cf_bytes = (long)w->bytes;
            }
        }
        if (p->cf[r] < 0) {
            fprintf(stderr, "measure-ab: no row for %ld bytes %s %d in %s\n", p->bytes,
                    p->pattern ? p->pattern : p->datatype, p->blocks, path);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    cf_table_free(tab);
    unlink(path);
}

/* One line per point, then the summary: the harness's median ratio (ping-pong, ddt), or
 * for the IMB agreement how many points are within 5% and the worst per pattern. */
static void report(point *pts, int npts, int rounds, int agreement)
{
    double *a = malloc((size_t)rounds * sizeof *a), *b = malloc((size_t)rounds * sizeof *b);
    double *q = malloc((size_t)rounds * sizeof *q), *all = malloc((size_t)npts * sizeof *all);
    printf("%-14s %6s %10s %7s %12s %12s %8s %8s %8s\n", "pattern", "blocks", "bytes", "reps",
           "ref_us", "commfit_us", "ratio", "min", "max");
    int within = 0;
    for (int i = 0; i < npts; i++) {
        const point *p = &pts[i];
        double lo = 1e300, hi = 0;
        for (int r = 0; r < rounds; r++) {
            a[r] = p->ref[r];
            b[r] = p->cf[r];
            q[r] = b[r] / a[r];
            lo = q[r] < lo ? q[r] : lo;
            hi = q[r] > hi ? q[r] : hi;
        }
        all[i] = median(q, rounds);
        within += all[i] >= 1 / 1.05 && all[i] <= 1.05;
        printf("%-14s %6d %10ld %7ld %12.4g %12.4g %8.3f %8.3f %8.3f%s%s\n",
               p->pattern ? p->pattern : p->datatype, p->blocks, p->cf_bytes, p->cf_reps,
               median(a, rounds), median(b, rounds), all[i], lo, hi,
               p->cf_reps != p->reps ? "  (reps differ!)" : "",
               agreement && !(all[i] >= 1 / 1.05 && all[i] <= 1.05) ? "  OUTSIDE 1.05" : "");
    }
    if (agreement)
        printf("agreement: %d of %d points within 1.05 of the IMB-method loop (median of %d "
               "per-round ratios)\n",
               within, npts, rounds);
    else
        printf("harness: median of the ratios commfit / reference = %.3f (target within 1.03)\n",
               median(all, npts));
    free(a);
    free(b);
    free(q);
    free(all);
}

static void usage(int rank)
{
    if (rank == 0)
        fprintf(stderr, "usage (2 ranks): measure-ab patterns LIST ROUNDS SAMPLES SIZE...\n"
                        "                 measure-ab pingpong ROUNDS SAMPLES SIZE...\n"
                        "                 measure-ab ddt ROUNDS SAMPLES REPS BYTES BLOCKS,...\n");
    MPI_Finalize();
    exit(2);
}

/* The sized patterns of a LIST ("all", or names), as a comma list for --patterns. */
static char *pattern_list(const char *arg, int rank)
{
    char *out = calloc(strlen(arg) + 512, 1), *copy = strdup(arg);
    if (strcmp(arg, "all") == 0) {
        for (int i = 0; i < imb_ref_count(); i++)
            strcat(strcat(out, i ? "," : ""), imb_ref_name(i));
    } else {
        for (char *tok = strtok(copy, ","); tok != NULL; tok = strtok(NULL, ",")) {
            if (!imb_ref_known(tok)) {
                if (rank == 0)
                    fprintf(stderr, "measure-ab: no IMB-method loop for '%s'\n", tok);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            strcat(strcat(out, out[0] ? "," : ""), tok);
        }
    }
    free(copy);
    return out;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "";
    int ddt = strcmp(mode, "ddt") == 0, agreement = strcmp(mode, "patterns") == 0;
    /* "pingpong ROUNDS ..." is "patterns pingpong ROUNDS ...". */
    int a0 = agreement ? 3 : 2;
    if (size != 2 || argc < a0 + 3 || (!ddt && !agreement && strcmp(mode, "pingpong") != 0) ||
        (ddt && argc != 7))
        usage(rank);
    int rounds = atoi(argv[a0]), samples = atoi(argv[a0 + 1]);
    if (rounds < 1 || samples < 1)
        usage(rank);
    char *pats = ddt ? NULL : pattern_list(agreement ? argv[2] : "pingpong", rank);

    /* The points, and the list commfit is given (sizes, or block counts). */
    point *pts = calloc((size_t)(2 * argc * (imb_ref_count() + 1)), sizeof *pts);
    int npts = 0;
    char *list, *names = NULL; /* the points' pattern names point into names */
    if (!ddt) {
        size_t len = 1;
        for (int i = a0 + 2; i < argc; i++)
            len += strlen(argv[i]) + 1;
        list = calloc(len, 1);
        for (int i = a0 + 2; i < argc; i++)
            strcat(strcat(list, i > a0 + 2 ? "," : ""), argv[i]);
        names = strdup(pats);
        for (char *tok = strtok(names, ","); tok != NULL; tok = strtok(NULL, ","))
            for (int i = a0 + 2; i < argc; i++) {
                long b = atol(argv[i]), n = b > 0 ? 40L * 1024 * 1024 / b : 1000;
                pts[npts++] = (point){.pattern = tok,
                                      .bytes = b,
                                      .reps = n > 1000 ? 1000
                                              : n < 1  ? 1
                                                       : n};
            }
    } else {
        list = strdup(argv[6]);
        static const char *const kinds[] = {"vector", "indexed"};
        char *copy = strdup(list);
        for (int k = 0; k < 2; k++) {
            strcpy(copy, list);
            for (char *tok = strtok(copy, ","); tok != NULL; tok = strtok(NULL, ","))
                pts[npts++] = (point){.bytes = atol(argv[5]),
                                      .datatype = kinds[k],
                                      .blocks = atoi(tok),
                                      .reps = atol(argv[4])};
        }
        free(copy);
    }
    for (int i = 0; i < npts; i++) {
        pts[i].ref = calloc((size_t)rounds, sizeof(double));
        pts[i].cf = calloc((size_t)rounds, sizeof(double));
    }
    /* MEASURE_AB_FLAGS: commfit flags (--no-sync, --root-shift) against the same loops, to
     * see what each departure from IMB's method changes. */
    const char *pp_opts[] = {"--patterns", pats,         "--sizes", list,   "--samples",
                             argv[a0 + 1], "--max-time", "86400",   "--np", "2",
                             "--quiet",    NULL,         NULL,      NULL,   NULL,
                             NULL,         NULL};
    /* Pairs from index 12: a flag and no value; a NULL name ends the list. */
    char *flags = getenv("MEASURE_AB_FLAGS") ? strdup(getenv("MEASURE_AB_FLAGS")) : NULL;
    int nopt = 12;
    for (char *tok = flags ? strtok(flags, " ") : NULL; tok != NULL && nopt < 16;
         tok = strtok(NULL, " ")) {
        pp_opts[nopt++] = tok;
        pp_opts[nopt++] = NULL; /* a flag: cf_measure_set takes no value */
    }
    const char *ddt_opts[] = {
        "--patterns", "ddt",    "--datatypes", "vector,indexed", "--sizes", argv[5], "--blocks",
        list,         "--reps", argv[4],       "--samples",      argv[3],   "--np",  "2",
        "--quiet",    NULL,     NULL};
    char path[64];
    snprintf(path, sizeof path, "/tmp/measure-ab.%ld.csv", (long)getpid());
    for (int r = 0; r < rounds; r++) {
        for (int half = 0; half < 2; half++) {
            /* Alternate which goes first, so that neither always follows the other. */
            if ((half == 0) == (r % 2 == 0))
                commfit(ddt ? ddt_opts : pp_opts, path, pts, npts, r, rank);
            else
                for (int i = 0; i < npts; i++)
                    pts[i].ref[r] = reference(&pts[i], samples, rank);
        }
    }
    if (rank == 0)
        report(pts, npts, rounds, agreement);
    for (int i = 0; i < npts; i++) {
        free(pts[i].ref);
        free(pts[i].cf);
    }
    free(names);
    free(flags);
    free(pts);
    free(list);
    free(pats);
    MPI_Finalize();
    return 0;
}
