/* commfit measure's run loop over process counts, patterns and sizes: each point set up,
 * checked, timed and agreed on by every rank; rank 0 writes the rows (run-output.c). */
#include "config.h"

#include "measure/measure.h"

#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#ifdef CF_SMPI
#include <errno.h>
#include <unistd.h>
#endif

#include "base/cli.h"
#include "measure/launch.h"
#include "measure/run-int.h"

static volatile sig_atomic_t stop_requested;

void cf_measure_request_stop(void)
{
    stop_requested = 1;
}

static void point_name(const cf_measure_point *pt, char *buf, size_t n);

/* Whether the commfit that started this simulation has gone (CF_FRONT_PID_ENV); a real
 * launch's ranks may run on other nodes, where its process id means nothing. */
static int front_gone(void)
{
#ifdef CF_SMPI
    const char *s = getenv(CF_FRONT_PID_ENV);
    long pid = s != NULL ? strtol(s, NULL, 10) : 0;
    return pid > 1 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
#else
    return 0;
#endif
}

/* The run aborts on it: MPI errors are not retried. */
int cf_run_mpi_failed(cf_run_state *R, const char *call, int rc, const cf_measure_point *pt)
{
    char s[MPI_MAX_ERROR_STRING], name[128];
    int len = 0;
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS)
        snprintf(s, sizeof s, "error %d", rc);
    if (pt != NULL) {
        point_name(pt, name, sizeof name);
        cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "%s failed at %s: %s", call, name, s);
    } else {
        cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "%s failed: %s", call, s);
    }
    return -1;
}

/* Every rank of comm says whether it failed; rank 0 learns the first failing rank's
 * reason. Returns 1 when some rank failed (on every rank), 0 when none, -1 on an MPI
 * error. */
static int agree(cf_run_state *R, MPI_Comm comm, const cf_measure_point *pt, int bad, char *why,
                 size_t nwhy)
{
    int rank, np, mine, first;
    RUN_CALL(MPI_Comm_rank, (comm, &rank), pt);
    RUN_CALL(MPI_Comm_size, (comm, &np), pt);
    mine = bad ? rank : np;
    RUN_CALL(MPI_Allreduce, (&mine, &first, 1, MPI_INT, MPI_MIN, comm), pt);
    if (first == np)
        return 0;
    if (first != 0 && rank == first)
        RUN_CALL(MPI_Send, (why, (int)nwhy, MPI_CHAR, 0, 3, comm), pt);
    if (first != 0 && rank == 0)
        RUN_CALL(MPI_Recv, (why, (int)nwhy, MPI_CHAR, first, 3, comm, MPI_STATUS_IGNORE), pt);
    why[nwhy - 1] = '\0';
    return 1;
}

static int kernel_failed(cf_run_state *R, cf_kctx *k, const cf_measure_point *pt)
{
    return cf_run_mpi_failed(R, k->failed, k->mpi_rc, pt);
}

/* What one point runs: a pattern's kernel, or a derived-datatype transfer (ddt.h). Both
 * take the same sampling below, so that their rows are measured alike. */
typedef struct point_kernel {
    const cf_measure_point *pt;
    cf_kctx k;
    cf_ddt_xfer x;
    cf_error e; /* a derived-datatype failure */
} point_kernel;

/* 0; -1 with k->failed (an MPI error on this rank); 1 with why (to agree on). */
static int pk_setup(cf_run_state *R, point_kernel *pk, MPI_Comm comm, char *why, size_t nwhy)
{
    const cf_measure_point *pt = pk->pt;
    if (pt->ddt == NULL) {
        int rc = cf_kernel_setup(&pk->k, pt->pat, comm, pt->bytes,
                                 R->o->off_cache ? R->cache_bytes : 0, cf_measure_method(R->o));
        snprintf(why, nwhy, "%s", pk->k.why);
        return rc == 0 ? 0 : pk->k.failed != NULL ? -1 : 1;
    }
    cf_error_clear(&pk->e);
    if (cf_ddt_xfer_init(&pk->x, pt->ddt, comm, &pk->e) != 0) {
        snprintf(why, nwhy, "%s", pk->e.msg);
        return 1;
    }
    return 0;
}

static void pk_teardown(point_kernel *pk)
{
    if (pk->pt->ddt == NULL)
        cf_kernel_teardown(&pk->k);
    else
        cf_ddt_xfer_free(&pk->x);
}

/* One verification outside the timed loop: before it (after is 0) or after it; the
 * kernels verify before only. 0, 1 with why, -1 on an MPI error. */
static int pk_verify(point_kernel *pk, int after, char *why, size_t nwhy)
{
    if (pk->pt->ddt == NULL) {
        if (after)
            return 0;
        int rc = pk->pt->pat->verify(&pk->k);
        snprintf(why, nwhy, "%s", pk->k.why);
        return rc;
    }
    int rc = after ? cf_ddt_verify(&pk->x, &pk->e) : cf_ddt_check(&pk->x, &pk->e);
    snprintf(why, nwhy, "%s", pk->e.msg);
    return rc == 0 ? 0 : 1;
}

static int pk_run(point_kernel *pk, long reps, double *t, int *contributes)
{
    if (pk->pt->ddt == NULL) {
        int rc = pk->pt->pat->run(&pk->k, reps, t);
        *contributes = pk->k.contributes;
        return rc;
    }
    *contributes = 1;
    return cf_ddt_run_timed(&pk->x, reps, t, &pk->e) == 0 ? 0 : -1;
}

static int pk_failed(cf_run_state *R, point_kernel *pk)
{
    if (pk->pt->ddt == NULL)
        return kernel_failed(R, &pk->k, pk->pt);
    if (pk->x.failed != NULL)
        return cf_run_mpi_failed(R, pk->x.failed, pk->x.mpi_rc, pk->pt);
    *R->e = pk->e;
    return -1;
}

/* The point as messages name it: "vector np=2 bytes=1020 blocks=3" for a datatype. */
static void point_name(const cf_measure_point *pt, char *buf, size_t n)
{
    if (pt->ddt != NULL)
        snprintf(buf, n, "%s %s np=%d bytes=%llu blocks=%ld", pt->pat->facts->pattern,
                 cf_ddt_kind_name(pt->ddt->kind), pt->np, (unsigned long long)pt->bytes,
                 pt->ddt->blocks);
    else
        snprintf(buf, n, "%s np=%d bytes=%llu", pt->pat->facts->pattern, pt->np,
                 (unsigned long long)pt->bytes);
}

/* What the helpers of measure_point return when a kernel failed on this rank (pk_failed
 * says why); -1 is an MPI error outside the kernel, 0 success. */
enum { KERNEL_FAILED = 2 };

/* A first call pays for first contact (connections, registration); the next few tell how
 * many calls fit in the time budget (*reps). Then the untimed warm-up, whose length starts
 * the point's *elapsed. */
static int warm_up(cf_run_state *R, point_kernel *pk, MPI_Comm comm, long *reps,
                   double *elapsed)
{
    const cf_measure_opts *o = R->o;
    const cf_measure_point *pt = pk->pt;
    double t, w, wmax;
    int contributes;
    if (pk_run(pk, 1, &t, &contributes) != 0)
        return KERNEL_FAILED;
    long nominal = o->samples ? o->samples : CF_MEASURE_SAMPLES;
    double budget = o->max_time_s > 0 ? o->max_time_s : CF_MEASURE_MAX_TIME_S;
    long probe = cf_measure_reps(pt->bytes, 0, 0, nominal, 0);
    if (probe > 4)
        probe = 4;
    double w0 = MPI_Wtime();
    if (pk_run(pk, probe, &t, &contributes) != 0)
        return KERNEL_FAILED;
    w = (MPI_Wtime() - w0) / (double)probe;
    RUN_CALL(MPI_Allreduce, (&w, &wmax, 1, MPI_DOUBLE, MPI_MAX, comm), pt);
    long reps_opt = o->reps;
    /* Simulated: each call costs wall time and there is no noise to average out. The
     * two-rank patterns get more calls because their start is skewed by one transfer (rank
     * 1 waits for the first message), which biases the mean by 1/(4 reps). */
    if (o->simulate != NULL && reps_opt == 0)
        reps_opt = pt->pat->facts->two_only || pt->ddt != NULL ? CF_SIM_REPS_P2P : CF_SIM_REPS;
    *reps = cf_measure_reps(pt->bytes, reps_opt, budget, nominal, wmax);
    w0 = MPI_Wtime();
    if (pk_run(pk, *reps, &t, &contributes) != 0)
        return KERNEL_FAILED;
    w = MPI_Wtime() - w0;
    RUN_CALL(MPI_Allreduce, (&w, &wmax, 1, MPI_DOUBLE, MPI_MAX, comm), pt);
    *elapsed = wmax;
    return 0;
}

/* The timed samples, into R->tavg (*n of them, each the mean across ranks of one sample's
 * time per call), until the sampling rules say stop (why in *stop); and in rank_s[0] and
 * rank_s[1] the least and the most, across the ranks that time, of each rank's own mean
 * over the samples: IMB's t_min and t_max. The extremes over samples and ranks together,
 * as they were, let one slow sample of one rank set t_max (a table's reader compares it
 * with IMB's). */
static int take_samples(cf_run_state *R, point_kernel *pk, MPI_Comm comm, long reps,
                        double elapsed, size_t *n, const char **stop, double rank_s[2])
{
    const cf_measure_point *pt = pk->pt;
    double t, mine = 0;
    int contributes = 0;
    /* The floor a time can take: the timer's resolution over the calls it covers. */
    double floor_s = R->wtick / (double)reps;
    *n = 0;
    while (cf_measure_more(R->o, R->tavg, *n, elapsed, stop)) {
        if (*n == R->cap_samples)
            break;
        RUN_CALL(MPI_Barrier, (comm), pt);
        double c0 = cf_run_thread_cpu_s(), w0 = MPI_Wtime();
        if (pk_run(pk, reps, &t, &contributes) != 0)
            return KERNEL_FAILED;
        double wall = MPI_Wtime() - w0;
        R->timed_cpu_s += cf_run_thread_cpu_s() - c0;
        R->timed_wall_s += wall;
        if (t < floor_s)
            t = floor_s;
        mine += t;
        /* max of wall: the longest sample; sum of {time, 1}: the mean. Ranks whose time
         * does not count send neutral values. */
        double sm[2] = {contributes ? t : 0, contributes ? 1 : 0};
        double gsm[2], gwall;
        RUN_CALL(MPI_Allreduce, (&wall, &gwall, 1, MPI_DOUBLE, MPI_MAX, comm), pt);
        RUN_CALL(MPI_Allreduce, (sm, gsm, 2, MPI_DOUBLE, MPI_SUM, comm), pt);
        RUN_CALL(MPI_Barrier, (comm), pt);
        R->tavg[*n] = gsm[0] / gsm[1];
        (*n)++;
        elapsed += gwall;
        if (*n == R->cap_samples)
            *stop = "samples";
    }
    /* max of {mean, -mean}: the most, minus the least. */
    double m = *n > 0 ? mine / (double)*n : 0;
    double mx[2] = {contributes ? m : -HUGE_VAL, contributes ? -m : -HUGE_VAL}, gmx[2];
    RUN_CALL(MPI_Allreduce, (mx, gmx, 2, MPI_DOUBLE, MPI_MAX, comm), pt);
    rank_s[0] = -gmx[1];
    rank_s[1] = gmx[0];
    return 0;
}

/* A verification that every rank agrees on: before the timed loop (after 0) or after it.
 * 0, 1 when it failed on some rank (R->e says so on rank 0), -1 on an MPI error. */
static int verify_agreed(cf_run_state *R, point_kernel *pk, MPI_Comm comm, int after,
                         const char *name)
{
    char why[sizeof R->e->msg];
    why[0] = '\0';
    int rc = pk_verify(pk, after, why, sizeof why);
    /* Before the loop, an MPI error in the kernel's check is this rank's alone. */
    if (rc < 0 && !after)
        return kernel_failed(R, &pk->k, pk->pt);
    int a = agree(R, comm, pk->pt, rc != 0, why, sizeof why);
    if (a > 0)
        cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "check failed at %s: %s", name, why);
    return a;
}

/* Measures one point on comm (every rank of it); fills row and stop on every rank.
 * Returns 0, 1 when the point failed on some rank (rank 0 has the message in R->e), or
 * -1 on an MPI error on this rank. */
static int measure_point(cf_run_state *R, const cf_measure_point *pt, MPI_Comm comm,
                         cf_row *row, const char **stop)
{
    point_kernel pk;
    memset(&pk, 0, sizeof pk);
    pk.pt = pt;
    char why[sizeof R->e->msg], name[128];
    why[0] = '\0';
    point_name(pt, name, sizeof name);
    int rc = pk_setup(R, &pk, comm, why, sizeof why);
    if (rc < 0) {
        rc = pk_failed(R, &pk);
        pk_teardown(&pk);
        return rc;
    }
    int a = agree(R, comm, pt, rc != 0, why, sizeof why);
    if (a != 0) {
        pk_teardown(&pk);
        if (a > 0)
            cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "cannot set up %s: %s", name, why);
        return a;
    }
    if (R->o->check && (a = verify_agreed(R, &pk, comm, 0, name)) != 0) {
        pk_teardown(&pk);
        return a;
    }
    long reps = 0;
    double elapsed = 0;
    size_t n = 0;
    double rank_s[2] = {0, 0};
    rc = warm_up(R, &pk, comm, &reps, &elapsed);
    if (rc == 0)
        rc = take_samples(R, &pk, comm, reps, elapsed, &n, stop, rank_s);
    if (rc == KERNEL_FAILED) {
        rc = pk_failed(R, &pk);
        pk_teardown(&pk);
        return rc;
    }
    if (rc != 0)
        return rc;
    /* What the timed transfers left must be the payload (derived datatypes). */
    if (R->o->check && (a = verify_agreed(R, &pk, comm, 1, name)) != 0) {
        pk_teardown(&pk);
        return a;
    }
    pk_teardown(&pk);
    cf_measure_row(pt->pat, pt->np, pt->bytes, reps, R->wtick, R->tavg, n, rank_s, row);
    if (pt->ddt != NULL) {
        snprintf(row->datatype, sizeof row->datatype, "%s", cf_ddt_kind_name(pt->ddt->kind));
        row->blocks = (int)pt->ddt->blocks;
    }
    return 0;
}

/* Waits for every rank at a barrier without spinning, so that idle ranks leave the cores
 * to the ranks that measure. In simulation no rank takes a core from another, and a sleep
 * is a simulated one, a call to the simulator each (at np 1024 with 960 ranks idle, rows
 * took 30.6 s of wall time for 18.0 with a plain barrier): a plain barrier. */
int cf_run_quiet_barrier(cf_run_state *R)
{
#ifdef CF_SMPI
    RUN_CALL(MPI_Barrier, (MPI_COMM_WORLD), NULL);
#else
    MPI_Request req;
    int done = 0;
    RUN_CALL(MPI_Ibarrier, (MPI_COMM_WORLD, &req), NULL);
    while (!done) {
        RUN_CALL(MPI_Test, (&req, &done, MPI_STATUS_IGNORE), NULL);
        if (!done) {
            struct timespec ts = {0, 200000};
            nanosleep(&ts, NULL);
        }
    }
#endif
    return 0;
}

/* Seconds of wall time from an arbitrary start. Not MPI_Wtime, which simulation makes the
 * simulated clock (nor clock_gettime by name, which SMPI's header maps to it): the progress
 * line said "5s elapsed, ~0s left" with ten wall minutes to go at np 1024. */
static double wall_s(void)
{
    struct timespec ts;
    if ((clock_gettime)(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void progress(cf_run_state *R, const cf_measure_point *pt, size_t done, size_t total, double t0)
{
    if (R->rank != 0 || R->hooks->progress == NULL || R->o->quiet || !R->o->progress)
        return;
    const cf_measure_point *pts0 = pt - done; /* the plan, point 0 on */
    double now = wall_s(), el = now - t0;
    if (R->pt_dur == NULL && done == 0)
        R->pt_dur = calloc(total + 1, sizeof *R->pt_dur);
    if (R->pt_dur != NULL && done > 0)
        R->pt_dur[done - 1] = now - R->pt_start;
    R->pt_start = now;
    int scale = 0;
#ifdef CF_SMPI
    scale = 1;
#endif
    /* Point by point, by np (what a larger np costs: in a simulation the messages grow
     * with the ranks): the mean over all points said "~19s left" at 1288 s of 1704 (an
     * audit's simulation at np 2-64). One np's points still take their mean: their
     * patterns' costs part (a new user's at np 64 alone said ~45 s where 457 were). */
    double left = R->pt_dur != NULL ? cf_measure_left_s(pts0, done, total, R->pt_dur, scale)
                  : done > 0        ? el / (double)done * (double)(total - done)
                                    : -1;
    R->hooks->progress(pt, done, total, el, left);
}

/* Runs the points of one process count on its sub-communicator. Returns 0 when all went
 * through, 1 when stopped by a signal, 2 when a point failed (rank 0 has e), -1 on an MPI
 * error on this rank. */
static int run_block(cf_run_state *R, const cf_measure_point *pts, size_t from, size_t to, size_t total,
                     double t0)
{
    int np = pts[from].np;
    MPI_Comm comm = MPI_COMM_WORLD;
    /* In simulation a new communicator costs SMPI's MPICH selection some N^3 work at its
     * first collective (a bare MPI_Allreduce's first call took 1.2, 5.8 and 39.5 wall
     * seconds at 256, 512 and 1024 ranks): the block of the whole launch runs on the world,
     * which has its errors returned already. The rows are the same. */
    int world = 0;
#ifdef CF_SMPI
    world = np == R->size;
#endif
    if (!world) {
        RUN_CALL(MPI_Comm_split,
                 (MPI_COMM_WORLD, R->rank < np ? 0 : MPI_UNDEFINED, R->rank, &comm), &pts[from]);
        if (comm == MPI_COMM_NULL)
            return 0;
        RUN_CALL(MPI_Comm_set_errhandler, (comm, MPI_ERRORS_RETURN), &pts[from]);
    }
    int status = 0;
    for (size_t i = from; i < to && status == 0; i++) {
        int flag = stop_requested || front_gone() ? 1 : 0, any = 0;
        RUN_CALL(MPI_Allreduce, (&flag, &any, 1, MPI_INT, MPI_MAX, comm), &pts[i]);
        if (any) {
            status = 1;
            break;
        }
        progress(R, &pts[i], i, total, t0);
        if (R->rank == 0) { /* the point a launch that dies here died in (cf_launch_said) */
            char name[200];
            point_name(&pts[i], name, sizeof name);
            cf_launch_report("point", name);
        }
        cf_row row;
        const char *stop = "samples";
        int rc = measure_point(R, &pts[i], comm, &row, &stop);
        if (rc < 0) {
            if (!world)
                MPI_Comm_free(&comm);
            return -1;
        }
        if (rc > 0) {
            status = 2;
            break;
        }
        if (R->rank == 0) {
            /* stop, then the derived-datatype columns when the table has them. */
            char extra[192], ddt[160] = ",,,";
            if (pts[i].ddt != NULL) {
                cf_row scratch;
                cf_ddt_row_init(pts[i].ddt, &scratch, ddt, sizeof ddt);
            }
            if (R->t->n_extra > 1)
                snprintf(extra, sizeof extra, "%s,%s", stop, ddt);
            else
                snprintf(extra, sizeof extra, "%s", stop);
            row.extra = extra;
            status = cf_run_write_row(R, &row);
            if (status == 0)
                cf_launch_report("point", "-"); /* its row is in: a death now is not in it */
        }
        /* A write error on rank 0 stops every rank of the block. */
        int st = status;
        RUN_CALL(MPI_Bcast, (&st, 1, MPI_INT, 0, comm), &pts[i]);
        status = st;
    }
    if (!world)
        RUN_CALL(MPI_Comm_free, (&comm), NULL);
    return status;
}

/* Rank 0, after a run that stopped (status 1) or went through (0): the message or notes
 * that say where the rows are. */
static void report_end(cf_run_state *R, int status)
{
    cf_measure_opts *o = R->o;
    const cf_measure_hooks *hooks = R->hooks;
    cf_error *e = R->e;
    char msg[1024];
    if (status == 1) {
        /* An error, not a note: said even under -q, and the status is 1. */
        if (strcmp(R->path, "-") == 0) {
            char args[768];
            cf_measure_resume_args(R->o, "FILE", args, sizeof args);
            cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                         "stopped by a signal: %zu rows written to standard output; saved "
                         "to a file, 'commfit measure %s' continues them",
                         R->rows, args);
        }
        else
        {
            char args[768];
            cf_measure_resume_args(R->o, R->path, args, sizeof args);
            cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                         "stopped by a signal: %zu rows in %s; continue with 'commfit measure "
                         "%s'",
                         R->rows, R->path, args);
        }
    } else if (status == 0 && strcmp(R->path, "-") == 0) {
        snprintf(msg, sizeof msg, "wrote the table to standard output (%zu row%s)", R->rows,
                 R->rows == 1 ? "" : "s");
        if (hooks->note)
            hooks->note(msg);
    } else if (status == 0) {
        snprintf(msg, sizeof msg, "wrote %s (%zu row%s)", R->path, R->rows,
                 R->rows == 1 ? "" : "s");
        if (hooks->note)
            hooks->note(msg);
        /* A file report can read again: not /dev/null, a pipe or a terminal. */
        char quoted[900];
        struct stat st;
        if (hooks->note && stat(R->path, &st) == 0 && S_ISREG(st.st_mode) &&
            cf_shell_quote(R->path, quoted, sizeof quoted) == 0) {
            snprintf(msg, sizeof msg, "draw the report with: commfit report -i %s", quoted);
            hooks->note(msg);
        }
        free(o->written);
        o->written = strdup(R->path);
    }
}

/* Every rank: MPI's error handling, this rank's place, the timer and the sample buffers,
 * the table's columns. 0; -1 on an MPI error; 2 out of memory (R->e says so). */
static int run_init(cf_run_state *R)
{
    const cf_measure_opts *o = R->o;
    RUN_CALL(MPI_Comm_set_errhandler, (MPI_COMM_WORLD, MPI_ERRORS_RETURN), NULL);
    RUN_CALL(MPI_Comm_set_errhandler, (MPI_COMM_SELF, MPI_ERRORS_RETURN), NULL);
    RUN_CALL(MPI_Comm_rank, (MPI_COMM_WORLD, &R->rank), NULL);
    RUN_CALL(MPI_Comm_size, (MPI_COMM_WORLD, &R->size), NULL);
#ifdef CF_SMPI
    /* Simulated time is exact to the simulator's precision (smpirun sets surf/precision to
     * 1e-9); SMPI's MPI_Wtick says 1e-5, which would floor short calls. */
    R->wtick = 1e-9;
#else
    R->wtick = MPI_Wtick();
#endif
    R->cache_bytes = cf_run_cache_size();
    cf_kernel_share_buffers(!o->check);
    R->cap_samples = o->target_ci > 0 ? CF_MEASURE_CI_MAX_SAMPLES
                                      : (size_t)(o->samples ? o->samples : CF_MEASURE_SAMPLES);
    R->tavg = malloc(R->cap_samples * sizeof(double));
    R->t = cf_table_alloc();
    const char *extra[1 + CF_DDT_NEXTRA] = {"stop"};
    for (size_t i = 0; i < CF_DDT_NEXTRA; i++)
        extra[1 + i] = cf_ddt_extra_columns[i];
    if (R->tavg == NULL || R->t == NULL ||
        cf_table_set_extra(R->t, extra, o->ddt ? 1 + CF_DDT_NEXTRA : 1) != 0) {
        cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory");
        return 2;
    }
    return 0;
}

/* The points, one process count after the other, each on its sub-communicator. Returns
 * run_block's status, or -1 on an MPI error. */
static int run_points(cf_run_state *R, const cf_measure_point *pts, size_t npts)
{
    int status = 0;
    double t0 = wall_s();
    for (size_t from = 0; from < npts && status == 0;) {
        size_t to = from;
        while (to < npts && pts[to].np == pts[from].np)
            to++;
        int st = run_block(R, pts, from, to, npts, t0);
        if (st < 0 || cf_run_quiet_barrier(R) != 0)
            return -1;
        RUN_CALL(MPI_Bcast, (&st, 1, MPI_INT, 0, MPI_COMM_WORLD), NULL);
        status = st;
        from = to;
    }
    return status;
}

int cf_measure_run(cf_measure_opts *o, const char *command, const cf_measure_hooks *hooks,
                   cf_error *e)
{
    cf_run_state R0 = {0}, *R = &R0;
    R->o = o;
    R->hooks = hooks;
    R->e = e;
    cf_measure_point *pts = NULL;
    size_t npts = 0;
    char *plan = NULL;
    /* How a rank's setup went: run_init's 0 or 2, and the plan's. */
    enum { SETUP_OK, SETUP_MEMORY = 2, SETUP_TABLE_DIFFERS };
    int rc = 0, status = run_init(R);
    if (status < 0) {
        rc = -1;
        goto out;
    }
    if (status == 0 &&
        (cf_measure_plan(o, &pts, &npts) != 0 || cf_measure_plan_text(o, &plan) != 0)) {
        cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        status = SETUP_MEMORY;
    }
    /* --resume: each rank read the table on its own, before MPI started; an earlier
     * launch's ranks that outlived their launcher (Open MPI's, a second or so after a kill
     * -9 of the job) may have been writing it then. Every rank plans from what rank 0 read,
     * or none runs (ranks of two plans failed in MPI_Recv with MPI_ERR_TRUNCATE; a new
     * user). */
    if (o->resume != NULL) {
        unsigned long long bytes = o->done_bytes;
        int brc = MPI_Bcast(&bytes, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
        if (brc != MPI_SUCCESS) {
            rc = cf_run_mpi_failed(R, "MPI_Bcast", brc, NULL);
            goto out;
        }
        if (status == SETUP_OK && bytes != o->done_bytes)
            status = SETUP_TABLE_DIFFERS;
    }
    /* Every rank learns whether one could not set up (out of memory: its sample buffer, its
     * table, its plan; or read another table): none goes on without it, and nothing is
     * written. */
    int worst = 0;
    int arc = MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (arc != MPI_SUCCESS) {
        rc = cf_run_mpi_failed(R, "MPI_Allreduce", arc, NULL);
        goto out;
    }
    if (worst != 0) {
        if (worst == SETUP_TABLE_DIFFERS)
            cf_error_set(e, CF_EXIT_DATA, o->resume, 0,
                         "the ranks read it at different lengths (rank 0: %zu bytes of whole "
                         "lines): an earlier launch still writing it? (Open MPI's ranks outlive "
                         "a killed launcher by a second or so) Nothing written; resume again "
                         "once it has stopped",
                         o->done_bytes);
        else if (status == SETUP_OK)
            cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory on another rank");
        rc = CF_EXIT_DATA;
        goto out;
    }
    /* A resumed table that has every point of its plan: nothing to measure, and no resume
     * line appended (it took one with no rows after it, and the launch's probes); only its
     * end, where its run's was not written. */
    if (status == 0 && o->resume != NULL && npts == 0) {
        /* A run killed after its last row wrote no end: the table is whole, and says so
         * now (fit warned of points never reached, and named this resume, again and
         * again). */
        const char *why = o->done != NULL ? cf_table_unfinished(o->done) : NULL;
        if (R->rank == 0 && why != NULL && cf_run_mark_complete(R) != 0) {
            rc = R->e->code;
            goto out;
        }
        if (R->rank == 0 && hooks->note) {
            char msg[1024];
            if (why != NULL)
                snprintf(msg, sizeof msg, "%s has every point of its plan: nothing to measure; "
                         "%s, now marked complete (end_reason)",
                         o->resume, why[0] ? "its last end_reason was not 'complete'"
                                           : "its run's end was not written (killed after its "
                                             "last row)");
            else
                snprintf(msg, sizeof msg, "%s has every point of its plan: nothing to measure, "
                         "left as it was", o->resume);
            hooks->note(msg);
        }
        rc = CF_EXIT_OK;
        goto out;
    }

    /* Rank 0 sets up the output; everyone learns whether that worked. */
    int over = 0;
    if (status == 0 && R->rank == 0 && o->resume == NULL && cf_run_library_metadata(R) != 0)
        status = 2;
    /* Every rank takes part; a resumed table records it after the rows it keeps. */
    int vrc = 0;
    /* The plain run that started these ranks warned already that they crowd this node,
     * with what to do instead: its word stands, and the table still records it. */
    cf_measure_hooks host_hooks = *hooks;
    const char *crowded = getenv(CF_LAUNCH_CROWDED_ENV);
    if (crowded != NULL && strcmp(crowded, "1") == 0)
        host_hooks.warn = NULL;
    R->hooks = &host_hooks;
    int hrc = cf_run_host_metadata(R, &over);
    R->hooks = hooks;
    if (hrc < 0 || (vrc = cf_run_provenance_metadata(R)) < 0 || cf_run_latency_probe(R) != 0) {
        rc = -1;
        goto out;
    }
    if (hrc > 0 || vrc > 0)
        status = 2;
    /* A probe that ran out of memory fails the run as a point would, on rank 0's word. */
    int prc = cf_run_pair_probe(R);
    /* Every rank runs the fan probe where the pair probe ended on its word alone (rank 0 out
     * of memory for its metadata says 1 there, the others 0: a rank that skipped it would
     * leave the others in its collectives). */
    if (prc >= 0) {
        int frc = cf_run_fan_probe(R);
        prc = frc < 0 ? frc : (frc > prc ? frc : prc);
    }
    if (prc < 0) {
        rc = -1;
        goto out;
    }
    if (prc > 0)
        status = 2;
    char unwhole[640];
    if (status == 0 && R->rank == 0 && hooks->note && o->resume == NULL &&
        cf_measure_plan_unwhole(o, unwhole, sizeof unwhole))
        hooks->note(unwhole);
    if (status == 0 && R->rank == 0) {
        int orc = cf_run_open_output(R, command, over, plan);
        if (orc < 0) {
            rc = -1;
            goto out;
        }
        if (orc != 0)
            status = 2;
    }
    int brc = MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (brc != MPI_SUCCESS) {
        rc = cf_run_mpi_failed(R, "MPI_Bcast", brc, NULL);
        goto out;
    }
    if (status == 0 && (status = run_points(R, pts, npts)) < 0) {
        rc = -1;
        goto out;
    }
    if (R->rank == 0 && hooks->progress_end && !o->quiet && o->progress)
        hooks->progress_end();
    if (cf_run_cpu_share(R) != 0) {
        rc = -1;
        goto out;
    }

    if (R->rank == 0 && R->fp != NULL) {
        cf_run_end_metadata(R, status);
        /* A point that failed keeps its message; otherwise a late write error is the news. */
        cf_error keep = *e;
        if (cf_run_close_output(R) != 0 && status != 2)
            status = 2;
        else if (status == 2)
            *e = keep;
    }
    if (R->rank == 0 && status != 2)
        report_end(R, status);
    rc = status == 0 ? CF_EXIT_OK : CF_EXIT_DATA;
out:
    if (R->fp != NULL) {
        cf_run_end_metadata(R, 2); /* an MPI error, which R->e names */
        fclose(R->fp);
    }
    free(R->path);
    free(R->tavg);
    free(R->pt_dur);
    free(R->places);
    free(R->places_text);
    free(R->cpu_share);
    cf_table_free(R->t);
    free(pts);
    free(plan);
    return rc;
}
