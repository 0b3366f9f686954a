/* commfit measure without MPI: option checks, the plan, the sampling rules, the rows,
 * the statistics, --resume and the self-launch command. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/launch.h"
#include "measure/measure.h"
#include "base/stats.h"
#include "tap.h"

/* Sets options from a NULL-terminated list of name, value pairs and checks them. */
static int opts(cf_measure_opts *o, long launch, cf_error *e, const char *const *kv)
{
    cf_measure_opts_init(o);
    cf_error_clear(e);
    for (; kv[0] != NULL; kv += 2) {
        int rc = cf_measure_set(o, kv[0], kv[1], e);
        if (rc != 0)
            return rc;
    }
    return cf_measure_opts_check(o, launch, e);
}

static void test_stats(void)
{
    double a[] = {3, 1, 2}, b[] = {4, 1, 3, 2}, c[] = {1, 2, 3, 4, 5}, d[] = {7, 7};
    near(cf_stats_median(a, 3), 2, 0, "median of three");
    near(cf_stats_median(b, 4), 2.5, 0, "median of four is the mean of the middle two");
    ok(a[0] == 3 && a[1] == 1, "median leaves its input alone");
    ok(isnan(cf_stats_median(a, 0)), "median of nothing is NaN");
    ok(isnan(cf_stats_ci95_median(a, 1)), "no interval from one sample");
    near(cf_stats_ci95_median(d, 2), 0, 0, "equal samples: zero half-width");
    /* t(0.975, 4) = 2.776445, s = 1.4826 x MAD (1), sqrt(pi/2) = 1.253314. */
    near(cf_stats_ci95_median(c, 5), 2.776445 * 1.253314 * 1.482602 / sqrt(5.0), 1e-5,
         "half-width of 1..5");
    /* One sample of five slowed 6x (an interrupt): the standard deviation made the
     * half-width 3.6x the median (2.17); the median absolute deviation keeps it 3.9%. */
    double e[] = {0.60, 0.61, 0.59, 0.60, 3.72};
    double he = cf_stats_ci95_median(e, 5);
    ok(he < 0.05 * 0.60, "one outlier of five: the half-width %.4f stays near the others' spread",
       he);
    /* Two equal samples beside a third: a deviation of 0, read from the standard deviation. */
    double f[] = {1.0, 1.0, 1.3};
    ok(cf_stats_ci95_median(f, 3) > 0, "half the samples equal: still a half-width above 0");
}

static void test_reps(void)
{
    is_int(cf_measure_reps(0, 0, 1, 5, 0), 1000, "0 bytes: 1000 reps");
    is_int(cf_measure_reps(1024, 0, 1, 5, 0), 1000, "1 KiB: 1000 reps");
    is_int(cf_measure_reps(65536, 0, 1, 5, 0), 640, "64 KiB: 40 MiB / 64 KiB");
    is_int(cf_measure_reps(4 << 20, 0, 1, 5, 0), 10, "4 MiB: 10 reps");
    is_int(cf_measure_reps(1ULL << 30, 0, 1, 5, 0), 1, "1 GiB: at least 1");
    is_int(cf_measure_reps(0, 0, 1, 5, 0.01), 16, "10 ms calls: 6 loops in 1 s");
    is_int(cf_measure_reps(0, 0, 1, 5, 10), 1, "calls longer than the budget: 1");
    is_int(cf_measure_reps(4 << 20, 7, 1, 5, 10), 7, "--reps wins");
}

static void test_default_np(void)
{
    long *v;
    size_t n;
    cf_measure_default_np(8, &v, &n);
    ok(n == 3 && v[0] == 2 && v[1] == 4 && v[2] == 8, "launch 8: 2,4,8");
    free(v);
    cf_measure_default_np(6, &v, &n);
    ok(n == 3 && v[0] == 2 && v[1] == 4 && v[2] == 6, "launch 6: 2,4,6");
    free(v);
    cf_measure_default_np(2, &v, &n);
    ok(n == 1 && v[0] == 2, "launch 2: 2");
    free(v);
    cf_measure_default_np(1, &v, &n);
    ok(n == 1 && v[0] == 1, "launch 1: 1");
    free(v);
}

static void test_options(void)
{
    cf_measure_opts o;
    cf_error e;

    is_int(opts(&o, 2, &e, (const char *const[]){NULL}), 0, "defaults pass");
    is_int((long)o.npats, 20, "default: the 17 patterns and the 3 LogGP experiments");
    is_int((long)o.nsizes, 24, "default sizes 0, 1, 2, ... 4 MiB");
    ok(o.nnps == 1 && o.nps[0] == 2, "default np at a launch of 2: 2");
    cf_measure_opts_free(&o);

    opts(&o, 2, &e, (const char *const[]){"--patterns", "all", NULL});
    is_int((long)o.npats, 17, "all: 17 patterns");
    is_str(o.pats[16]->facts->pattern, "barrier", "all ends with barrier");
    cf_measure_opts_free(&o);

    opts(&o, 2, &e, (const char *const[]){"--patterns", "loggp", NULL});
    ok(o.npats == 3 && strcmp(o.pats[0]->facts->pattern, "loggp_os") == 0, "loggp: the 3 experiments");
    cf_measure_opts_free(&o);

    opts(&o, 2, &e, (const char *const[]){"--patterns", "alltoall,pingpong,alltoall", NULL});
    ok(o.npats == 2 && strcmp(o.pats[0]->facts->pattern, "pingpong") == 0,
       "named patterns: table order, once each");
    cf_measure_opts_free(&o);

    is_int(opts(&o, 2, &e, (const char *const[]){"--patterns", "pingpang", NULL}), CF_EXIT_USAGE,
           "unknown pattern refused");
    ok(strstr(e.msg, "unknown pattern 'pingpang'") != NULL, "the message quotes it");
    cf_measure_opts_free(&o);

    is_int(opts(&o, 2, &e, (const char *const[]){"--sizes", "64K,1K", NULL}), CF_EXIT_USAGE,
           "sizes out of order refused");
    is_str(e.msg, "--sizes '64K,1K': sizes out of order: '1K' after '64K' (expected increasing "
                  "sizes)",
           "out-of-order message");
    cf_measure_opts_free(&o);

    is_int(opts(&o, 2, &e, (const char *const[]){"--sizes", "0:1K,512", NULL}), CF_EXIT_USAGE,
           "a size inside an earlier range refused");
    cf_measure_opts_free(&o);

    is_int(opts(&o, 2, &e, (const char *const[]){"--sizes", "1K,64K,1M", NULL}), 0,
           "a list of sizes passes");
    ok(o.nsizes == 3 && o.sizes[2] == 1048576, "1K,64K,1M");
    cf_measure_opts_free(&o);

    is_int(opts(&o, 2, &e, (const char *const[]){"--sizes", "1X", NULL}), CF_EXIT_USAGE,
           "1X refused");
    cf_measure_opts_free(&o);

    is_int(opts(&o, 2, &e, (const char *const[]){"--np", "2,4", NULL}), CF_EXIT_USAGE,
           "np larger than the launch refused");
    is_str(e.msg, "--np 4 is larger than the launch (2 processes)", "np message");
    cf_measure_opts_free(&o);

    is_int(opts(&o, 0, &e, (const char *const[]){"--np", "2,4", NULL}), 0,
           "np unchecked while the launch size is unknown");
    cf_measure_opts_free(&o);

    is_int(opts(&o, 4, &e, (const char *const[]){"--np", "1", NULL}), CF_EXIT_USAGE,
           "pingpong at np 1 refused");
    is_str(e.msg, "pattern 'pingpong' needs 2 processes, but --np asks for 1", "np 1 message");
    cf_measure_opts_free(&o);

    is_int(opts(&o, 4, &e, (const char *const[]){"--np", "1", "--patterns", "bcast", NULL}), 0,
           "a collective at np 1 passes");
    cf_measure_opts_free(&o);

    is_int(opts(&o, 1, &e, (const char *const[]){NULL}), CF_EXIT_USAGE,
           "a launch of 1 cannot run the point-to-point patterns");
    cf_measure_opts_free(&o);

    is_int(opts(&o, 2, &e, (const char *const[]){"--reps", "0", NULL}), CF_EXIT_USAGE,
           "--reps 0 refused");
    cf_measure_opts_free(&o);
    is_int(opts(&o, 2, &e, (const char *const[]){"--samples", "two", NULL}), CF_EXIT_USAGE,
           "--samples two refused");
    cf_measure_opts_free(&o);
    is_int(opts(&o, 2, &e, (const char *const[]){"--max-time", "0", NULL}), CF_EXIT_USAGE,
           "--max-time 0 refused");
    cf_measure_opts_free(&o);
    is_int(opts(&o, 2, &e, (const char *const[]){"--target-ci", "0", NULL}), CF_EXIT_USAGE,
           "--target-ci 0 refused");
    cf_measure_opts_free(&o);

    /* Above 2 GiB - 1: a size with a power-of-two factor travels as a contiguous type;
     * an odd one cannot. */
    is_int(opts(&o, 2, &e,
                (const char *const[]){"--patterns", "pingpong", "--sizes", "3000000001", NULL}),
           CF_EXIT_USAGE, "an odd size above 2 GiB refused");
    ok(strstr(e.msg, "3000000001 bytes cannot be sent by pingpong") != NULL, "it says why");
    cf_measure_opts_free(&o);
    is_int(opts(&o, 2, &e, (const char *const[]){"--patterns", "reduce", "--sizes", "16G", NULL}),
           CF_EXIT_USAGE, "a reduction above 8 GiB refused");
    cf_measure_opts_free(&o);
    is_int(opts(&o, 2, &e,
                (const char *const[]){"--patterns", "pingpong", "--sizes", "1024G", NULL}),
           CF_EXIT_USAGE, "buffers larger than the memory refused");
    ok(strstr(e.msg, "of buffers on this node") != NULL, "it says so");
    cf_measure_opts_free(&o);

    uint64_t unit;
    cf_kernel_unit(cf_pattern_find("pingpong"), 3ULL << 30, 2, &unit);
    is_int((long)unit, 2, "3 GiB travels in units of 2 bytes");
    cf_kernel_unit(cf_pattern_find("alltoallv"), 2ULL << 30, 4, &unit);
    is_int((long)unit, 8, "alltoallv at np 4, 2 GiB: displacements need units of 8");
    cf_kernel_unit(cf_pattern_find("alltoallv"), 1024, 4, &unit);
    is_int((long)unit, 1, "small sizes go as bytes");

    cf_measure_opts_init(&o);
    is_int(cf_measure_launch_size(&o, 1), 2, "self-launch: at least 2 ranks");
    is_int(cf_measure_launch_size(&o, 16), 16, "self-launch: the cores");
    opts(&o, 0, &e, (const char *const[]){"--np", "2,6", NULL});
    is_int(cf_measure_launch_size(&o, 4), 6, "self-launch: raised to the largest --np");
    cf_measure_opts_free(&o);
}

static void test_plan(void)
{
    cf_measure_opts o;
    cf_error e;
    cf_measure_point *p;
    size_t n;
    opts(&o, 4, &e,
         (const char *const[]){"--patterns", "pingpong,bcast,barrier", "--sizes", "0,1K", "--np",
                               "2,4", NULL});
    cf_measure_plan(&o, &p, &n);
    is_int((long)n, 8, "plan: pingpong 2 sizes, bcast 2x2, barrier once per np");
    ok(p[0].np == 2 && strcmp(p[0].pat->facts->pattern, "pingpong") == 0, "plan starts at np 2");
    ok(p[4].np == 2 && strcmp(p[4].pat->facts->pattern, "barrier") == 0 && p[4].bytes == 0,
       "barrier: one row at 0 bytes");
    ok(p[7].np == 4 && strcmp(p[7].pat->facts->pattern, "barrier") == 0, "plan ends at np 4");
    free(p);
    char *text;
    cf_measure_plan_text(&o, &text);
    is_str(text, "--patterns pingpong,bcast,barrier --sizes 0,1024 --np 2,4 --samples 5 "
                 "--max-time 1",
           "plan text");
    free(text);
    cf_measure_opts_free(&o);

    opts(&o, 4, &e,
         (const char *const[]){"--patterns", "pingpong,allreduce", "--sizes", "8", "--np", "4",
                               NULL});
    cf_measure_plan(&o, &p, &n);
    ok(n == 2 && p[0].np == 2 && p[1].np == 4, "pingpong runs at 2 even when --np is 4");
    free(p);
    cf_measure_opts_free(&o);
}

static void test_sampling(void)
{
    cf_measure_opts o;
    cf_measure_opts_init(&o);
    o.samples = 3;
    const char *stop = "";
    double t[] = {1, 1.1, 0.9, 1, 1};
    ok(cf_measure_more(&o, t, 0, 0, &stop), "fixed: first sample");
    ok(cf_measure_more(&o, t, 2, 0.1, &stop), "fixed: under K");
    ok(!cf_measure_more(&o, t, 3, 0.1, &stop) && strcmp(stop, "samples") == 0,
       "fixed: K reached, stop = samples");
    ok(!cf_measure_more(&o, t, 1, 1.5, &stop) && strcmp(stop, "time") == 0,
       "fixed: budget spent, stop = time");
    o.target_ci = 50;
    ok(cf_measure_more(&o, t, 2, 0.1, &stop), "adaptive: at least 3 samples");
    ok(!cf_measure_more(&o, t, 3, 0.1, &stop) && strcmp(stop, "ci") == 0,
       "adaptive: tight samples, stop = ci");
    o.target_ci = 0.001;
    ok(cf_measure_more(&o, t, 5, 0.1, &stop), "adaptive: wide samples go on");
    ok(!cf_measure_more(&o, t, 5, 2, &stop) && strcmp(stop, "time") == 0,
       "adaptive: until the budget is spent");
    double many[CF_MEASURE_CI_MAX_SAMPLES];
    for (int i = 0; i < CF_MEASURE_CI_MAX_SAMPLES; i++)
        many[i] = i % 2 ? 1 : 2;
    ok(!cf_measure_more(&o, many, CF_MEASURE_CI_MAX_SAMPLES, 0.5, &stop) &&
           strcmp(stop, "samples") == 0,
       "adaptive: or the most samples");
    cf_measure_opts_free(&o);
}

static void test_row(void)
{
    /* Two samples whose means across ranks are 2 and 4 us; the ranks' own means over the
     * two samples range from 2.5 to 3.5 us (IMB's t_min and t_max), inside the extremes
     * any one sample reached. */
    double avg[] = {2e-6, 4e-6}, ranks[] = {2.5e-6, 3.5e-6};
    cf_row r;
    cf_measure_row(cf_pattern_find("pingpong"), 2, 1048576, 40, 0, avg, 2, ranks, &r);
    is_str(r.pattern, "pingpong", "row pattern");
    is_str(r.datatype, "byte", "row datatype");
    near(r.t_min_us, 2.5, 1e-12, "t_min: the least across ranks of a rank's mean");
    near(r.t_avg_us, 3, 1e-12, "t_avg: the mean over samples");
    near(r.t_max_us, 3.5, 1e-12, "t_max: the most across ranks of a rank's mean");
    near(r.t_med_us, 3, 1e-12, "t_med: the median of the means");
    ok(r.t_ci95_us > 0, "an interval from two samples");
    near(r.bw_MiBps, 1048576 / (1.048576 * 3), 1e-9, "bandwidth: one message");
    is_int(r.reps, 40, "reps");
    is_int(r.samples, 2, "samples");
    char why[128];
    is_int(cf_row_check(&r, why, sizeof why), 0, "the row passes the table's checks");
    double one[] = {1.5e-6, 2.5e-6}; /* the ranks of the first sample alone */
    cf_measure_row(cf_pattern_find("exchange"), 4, 1024, 40, 0, avg, 1, one, &r);
    near(r.bw_MiBps, 4 * 1024 / (1.048576 * 2), 1e-9, "exchange: four messages");
    ok(isnan(r.t_ci95_us), "no interval from one sample");
    cf_measure_row(cf_pattern_find("allreduce"), 4, 1024, 40, 0, avg, 2, ranks, &r);
    ok(isnan(r.bw_MiBps), "collectives: no bandwidth");
    is_str(r.datatype, "float", "reductions are float");
    cf_measure_row(cf_pattern_find("loggp_gap"), 2, 1024, 40, 0, avg, 2, ranks, &r);
    ok(isnan(r.bw_MiBps), "loggp: no bandwidth");
    /* Two samples a rounding apart (a simulated clock's last bits): no interval below what
     * a tick of 1 ns resolves of one call of 4 (0.25 ns); one above it stays. */
    double close[] = {2.018825001e-6, 2.018825001e-6 + 3e-20}, lo[] = {2e-6, 2e-6};
    cf_measure_row(cf_pattern_find("barrier"), 2, 0, 4, 1e-9, close, 2, lo, &r);
    ok(r.t_ci95_us == 0, "a spread below the timer's resolution: t_ci95 0");
    cf_measure_row(cf_pattern_find("barrier"), 2, 0, 4, 1e-9, avg, 2, ranks, &r);
    ok(r.t_ci95_us > 0.00025, "a spread above it: its interval");
}

static void test_resume(void)
{
    const char *path = "test-measure-resume.csv";
    FILE *fp = fopen(path, "w");
    fputs("# schema: 1\n"
          "# plan: --patterns pingpong,bcast --sizes 0,1024 --np 2 --samples 2 --max-time 1 "
          "--check\n"
          "# t_min_max: " CF_META_T_EXTREMES "\n"
          "pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,t_med_us,"
          "t_ci95_us,bw_MiBps,stop\n"
          "pingpong,2,0,byte,,1000,2,0.5,0.6,0.7,0.6,0.1,0,samples\n"
          "pingpong,2,1024,byte,,1000,2,0.5,0.6,0.7,0.6,0.1,1000,samples\n"
          "bcast,2,0,byte,,1000,2,0.5,0.6,0.7,0.6,0.1,,samples\n"
          "bcast,2,10",
          fp);
    fclose(fp);
    cf_measure_opts o;
    cf_error e;
    cf_measure_opts_init(&o);
    cf_error_clear(&e);
    cf_measure_set(&o, "--resume", path, &e);
    is_int(cf_measure_resume_load(&o, &e), 0, "resume: a table cut mid-row loads");
    is_int(cf_measure_opts_check(&o, 2, &e), 0, "resume: its plan passes");
    ok(o.check == 1 && o.samples == 2 && o.npats == 2, "resume: the plan is the file's");
    ok(o.done != NULL && o.done->n_rows == 3, "resume: three finished rows");
    cf_measure_point *p;
    size_t n;
    cf_measure_plan(&o, &p, &n);
    ok(n == 1 && strcmp(p[0].pat->facts->pattern, "bcast") == 0 && p[0].bytes == 1024,
       "resume: only the unfinished point is left");
    free(p);
    cf_measure_opts_free(&o);
    /* The same table from a commfit before t_min_max: its t_min/t_max of another meaning
     * than the rows a resumed run would add; refused as it is read, a usage error. */
    fp = fopen(path, "w");
    fputs("# schema: 1\n"
          "# plan: --patterns pingpong --sizes 0,1024 --np 2 --samples 2 --max-time 1\n"
          "pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,t_med_us,"
          "t_ci95_us,bw_MiBps,stop\n"
          "pingpong,2,0,byte,,1000,2,0.5,0.6,0.7,0.6,0.1,0,samples\n",
          fp);
    fclose(fp);
    cf_measure_opts_init(&o);
    cf_error_clear(&e);
    cf_measure_set(&o, "--resume", path, &e);
    ok(cf_measure_resume_load(&o, &e) == CF_EXIT_USAGE && strstr(e.msg, "no t_min_max") != NULL,
       "resume: a table without t_min_max refused as it is read (%s)", e.msg);
    cf_measure_opts_free(&o);

    cf_measure_opts_init(&o);
    cf_measure_set(&o, "--resume", path, &e);
    cf_measure_set(&o, "--sizes", "1K", &e);
    is_int(cf_measure_resume_load(&o, &e), CF_EXIT_USAGE, "resume with plan options refused");
    cf_measure_opts_free(&o);

    fp = fopen(path, "w");
    fputs("# schema: 1\npattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,"
          "t_max_us,t_med_us,t_ci95_us,bw_MiBps\n",
          fp);
    fclose(fp);
    cf_measure_opts_init(&o);
    cf_measure_set(&o, "--resume", path, &e);
    is_int(cf_measure_resume_load(&o, &e), CF_EXIT_DATA, "resume of a table without a plan");
    is_str(e.msg, "no 'plan' metadata: expected a table written by commfit measure",
           "no-plan message");
    cf_measure_opts_free(&o);
    remove(path);
}

static void test_launch(void)
{
    static const char *const vars[] = {"PMI_RANK", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE",
                                       "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID",
                                       "SLURM_STEP_ID", "SLURM_STEP_NUM_TASKS", CF_LAUNCH_MARK};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
    cf_launch_env env;
    cf_launch_detect(&env);
    is_int(env.under, 0, "no launcher variables: a plain run");
    setenv("SLURM_PROCID", "0", 1);
    cf_launch_detect(&env);
    is_int(env.under, 0, "a Slurm batch script is not a launch");
    setenv("SLURM_STEP_ID", "3", 1);
    setenv("SLURM_STEP_NUM_TASKS", "8", 1);
    cf_launch_detect(&env);
    ok(env.under && strcmp(env.by, "slurm") == 0 && env.size == 8 && env.rank == 0,
       "srun task: rank 0 of 8");
    setenv("PMI_RANK", "3", 1);
    setenv("PMI_SIZE", "4", 1);
    cf_launch_detect(&env);
    ok(env.under && strcmp(env.by, "hydra") == 0 && env.rank == 3 && env.size == 4,
       "hydra: rank 3 of 4");
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
    setenv("OMPI_COMM_WORLD_SIZE", "6", 1);
    setenv("OMPI_COMM_WORLD_RANK", "5", 1);
    cf_launch_detect(&env);
    ok(env.under && env.rank == 5 && env.size == 6, "Open MPI: rank 5 of 6");
    unsetenv("OMPI_COMM_WORLD_SIZE");
    unsetenv("OMPI_COMM_WORLD_RANK");
    setenv(CF_LAUNCH_MARK, "1", 1);
    cf_launch_detect(&env);
    ok(env.under && env.size == -1, "commfit's own mark: under a launcher, size unknown");
    unsetenv(CF_LAUNCH_MARK);

    /* The launcher's environment follows the library commfit-mpi is built with. */
    unsetenv("OMPI_MCA_orte_execute_quiet");
    unsetenv("OMPI_MCA_rmaps_base_oversubscribe");
    int ompi = strcmp(CF_MPI_LIBRARY, "openmpi") == 0;
    cf_launch_prepare_env(2, 2);
    ok(getenv("OMPI_MCA_rmaps_base_oversubscribe") == NULL,
       "no oversubscription asked for 2 ranks on 2 cores");
    ok((getenv("OMPI_MCA_orte_execute_quiet") != NULL) == ompi,
       "Open MPI's launcher kept quiet, %s", ompi ? "under Open MPI" : "and nothing else set");
    cf_launch_prepare_env(4, 2);
    ok((getenv("OMPI_MCA_rmaps_base_oversubscribe") != NULL) == ompi,
       "4 ranks on 2 cores: oversubscription allowed under Open MPI only (this build: %s)",
       CF_MPI_LIBRARY);
    setenv("OMPI_MCA_orte_execute_quiet", "0", 1);
    cf_launch_prepare_env(4, 2);
    is_str(getenv("OMPI_MCA_orte_execute_quiet"), "0", "a value the user set is kept");
    unsetenv("OMPI_MCA_orte_execute_quiet");
    unsetenv("OMPI_MCA_rmaps_base_oversubscribe");

    char **v;
    cf_error e;
    char *args[] = {"--sizes", "0:1K"};
    is_int(cf_launch_argv("  mpiexec  -bind-to core ", 4, "/x/commfit", 2, args, &v, &e), 0,
           "launch command built");
    const char *want[] = {"mpiexec", "-bind-to", "core", "-n", "4", "/x/commfit", "measure",
                          "--sizes", "0:1K", NULL};
    int same = 1;
    for (int i = 0; want[i] != NULL || v[i] != NULL; i++)
        if (want[i] == NULL || v[i] == NULL || strcmp(want[i], v[i]) != 0)
            same = 0;
    ok(same, "launcher words, -n N, the program, measure, the arguments");
    cf_launch_argv_free(v);
    is_int(cf_launch_argv("   ", 4, "/x/commfit", 0, args, &v, &e), CF_EXIT_USAGE,
           "an empty launcher refused");
    char *self = cf_launch_self_exe();
    ok(self != NULL && self[0] == '/', "the program's own absolute path");
    free(self);
}

/* What tells a plain run that its ranks go beyond this node, and what it says when nothing
 * does. */
static void test_launch_crowding(void)
{
    static const char *const vars[] = {"HYDRA_HOST_FILE", "I_MPI_HYDRA_HOST_FILE",
                                       "OMPI_MCA_orte_default_hostfile",
                                       "PRTE_MCA_prte_default_hostfile", "SLURM_JOB_ID",
                                       "SLURM_JOB_NUM_NODES", "PBS_NODEFILE", "LSB_DJOB_HOSTFILE",
                                       "PE_HOSTFILE", "COBALT_NODEFILE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
    char why[128];
    static const struct {
        const char *launcher, *why; /* why NULL: the ranks stay on this node */
    } cases[] = {
        {"mpiexec", NULL},
        {"mpiexec -bind-to core -ppn 2", NULL},
        {"mpiexec -f hosts", "the launcher's '-f'"},
        {"mpiexec.hydra -hosts a,b", "the launcher's '-hosts'"},
        {"mpirun --hostfile=my hosts", "the launcher's '--hostfile'"},
        {"mpirun -H a:4,b:4", "the launcher's '-H'"},
        {"/usr/bin/srun --mpi=pmi2", "the launcher 'srun'"},
        {"./srunner", NULL},
        {"mpiexec --fast", NULL},
        {"env OMP_NUM_THREADS=1 srun", "the launcher 'srun'"},
        {"/usr/bin/env A=1 B=2 /usr/bin/srun -n 4", "the launcher 'srun'"},
        {"env A=1 mpiexec", NULL},
        {"env A=1 mpiexec -f hosts", "the launcher's '-f'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = cf_launch_placed_elsewhere(cases[i].launcher, why, sizeof why);
        if (cases[i].why == NULL)
            is_int(got, 0, "'%s': the ranks stay here", cases[i].launcher);
        else
            ok(got == 1 && strcmp(why, cases[i].why) == 0, "'%s': %s (got %d, '%s')",
               cases[i].launcher, cases[i].why, got, got ? why : "");
    }
    setenv("SLURM_JOB_ID", "7", 1);
    setenv("SLURM_JOB_NUM_NODES", "1", 1);
    is_int(cf_launch_placed_elsewhere("mpiexec", why, sizeof why), 0,
           "a Slurm allocation of one node is this node");
    setenv("SLURM_JOB_NUM_NODES", "4", 1);
    ok(cf_launch_placed_elsewhere("mpiexec", why, sizeof why) == 1 &&
           strcmp(why, "a Slurm allocation (SLURM_JOB_ID)") == 0,
       "a Slurm allocation of 4 nodes places them");
    unsetenv("SLURM_JOB_ID");
    unsetenv("SLURM_JOB_NUM_NODES");
    setenv("HYDRA_HOST_FILE", "/h", 1);
    ok(cf_launch_placed_elsewhere("mpiexec", why, sizeof why) == 1, "hydra's default hostfile");
    unsetenv("HYDRA_HOST_FILE");

    char warn[512];
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_launch_check_crowding(2, 2, "mpiexec", 0, warn, sizeof warn, &e), 0,
           "2 ranks on 2 cores");
    is_str(warn, "", "2 ranks on 2 cores: no warning");
    is_int(cf_launch_check_crowding(16, 2, "mpiexec", 0, warn, sizeof warn, &e), 0,
           "16 ranks on 2 cores: started");
    ok(strncmp(warn, "starting 16 ranks on this node, which has 2 cores: ", 51) == 0,
       "16 ranks on 2 cores: warned (%s)", warn);
    is_int(cf_launch_check_crowding(17, 2, "mpiexec", 0, warn, sizeof warn, &e), CF_EXIT_USAGE,
           "17 ranks on 2 cores: refused");
    ok(strncmp(e.msg, "17 ranks would all start on this node, which has 2 cores (at most 8 a "
                      "core without --oversubscribe)", 86) == 0,
       "17 ranks on 2 cores: said (%s)", e.msg);
    cf_error_clear(&e);
    is_int(cf_launch_check_crowding(100000, 2, "mpiexec", 1, warn, sizeof warn, &e), 0,
           "--oversubscribe: started");
    is_str(warn, "", "--oversubscribe: the ranks warn, not the launch");
    is_int(cf_launch_check_crowding(100000, 2, "mpiexec -f hosts", 0, warn, sizeof warn, &e), 0,
           "a hostfile: started");
    is_str(warn, "", "a hostfile: no warning");
}

/* What is left of a plan, by np (cf_measure_left_s). */
static void test_left(void)
{
    cf_measure_point lp[6];
    int lnp[6] = {2, 2, 4, 4, 8, 8};
    double ldur[6] = {1, 1, 3, 0, 0, 0};
    for (int i = 0; i < 6; i++)
        lp[i] = (cf_measure_point){NULL, lnp[i], 1024, NULL};
    ok(cf_measure_left_s(lp, 0, 6, ldur, 1) < 0, "left: nothing done, no guess");
    ok(fabs(cf_measure_left_s(lp, 2, 6, ldur, 1) - 12.0) < 1e-9,
       "left: np 2 done at 1 s, simulated: np 4 at 2 s, np 8 at 4 s (12)");
    ok(fabs(cf_measure_left_s(lp, 2, 6, ldur, 0) - 4.0) < 1e-9,
       "left: the same, real: 1 s a point (4)");
    ok(fabs(cf_measure_left_s(lp, 3, 6, ldur, 1) - 15.0) < 1e-9,
       "left: np 4's first at 3 s: its other 3, np 8's 6 each (15)");
}

int main(void)
{
    test_stats();
    test_reps();
    test_default_np();
    test_options();
    test_plan();
    test_sampling();
    test_row();
    test_resume();
    test_launch();
    test_launch_crowding();
    test_left();
    return tap_done();
}
