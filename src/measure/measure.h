/* commfit measure's engine: its options and their checks (before MPI starts), the plan of
 * points, the sampling rules, and the run loop that turns kernel timings into table rows. */
#ifndef CF_MEASURE_H
#define CF_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "measure/ddt.h"
#include "base/error.h"
#include "measure/kernels.h"
#include "base/table.h"

#define CF_MEASURE_SIZES "0:4M"
/* A simulation with SMPI's ompi selector, which dies on an empty bcast or reduction. */
#define CF_MEASURE_SIZES_SMPI_OMPI "4:4M"
#define CF_MEASURE_PATTERNS "all,loggp,ddt"
#define CF_MEASURE_SAMPLES 5
#define CF_MEASURE_MAX_TIME_S 1.0
#define CF_MEASURE_REPS_MAX 1000
#define CF_MEASURE_REPS_BYTES (40 * 1024 * 1024) /* reps = min(1000, this / bytes) */
/* Adaptive sampling (--target-ci): at least this many samples, at most the other. */
#define CF_MEASURE_CI_MIN_SAMPLES 3
#define CF_MEASURE_CI_MAX_SAMPLES 100
/* Simulated time has no noise: a few calls per sample and a few samples say all there is,
 * and each simulated call costs wall time. */
#define CF_SIM_REPS 4       /* collectives */
#define CF_SIM_REPS_P2P 50  /* the two-rank patterns: see measure_point */
#define CF_SIM_SAMPLES 2
#define CF_SIM_NP_MAX 16         /* the largest default --np of a simulation */
#define CF_SIM_SELECTOR "mpich"  /* the reference MPI's collective algorithms */
#define CF_SIM_SHARED_BLOCK "67108864" /* bytes of SMPI's shared-malloc file */
/* SimGrid 3.32's collective selectors (--cfg=smpi/coll-selector). */
#define CF_SIM_SELECTORS "mpich, ompi, mvapich2, impi, default"
/* The hostfile metadata of a simulation without --hostfile (base/table.h's, for readers). */
#define CF_SIM_HOSTFILE_DEFAULT CF_META_SIM_HOSTFILE_DEFAULT

/* Whether name is a collective selector SMPI knows. */
int cf_sim_selector_known(const char *name);

typedef struct cf_measure_opts {
    /* As given (NULL: the default). The plan keys can also come from a --resume file. */
    char *patterns_arg, *sizes_arg, *np_arg;
    char *blocks_arg, *datatypes_arg; /* derived datatypes (ddt.h) */
    int ddt_summary;                  /* print the gain over pack after the run */
    long reps;         /* 0: min(1000, 40 MiB / bytes), capped by max_time_s */
    long samples;      /* 0: CF_MEASURE_SAMPLES */
    double max_time_s; /* 0: CF_MEASURE_MAX_TIME_S */
    double target_ci;  /* percent of the median; 0: fixed number of samples */
    int check, off_cache;
    int no_sync, root_shift; /* departures from IMB's method for the collectives */
    int no_latency_probe;    /* skip rank 0's ping-pong with every rank at launch */
    int quiet, progress;
    char *output, *resume, *launcher;
    int oversubscribe; /* a plain run may start more than CF_LAUNCH_RANKS_PER_CORE_MAX a core */
    int plan_given; /* a plan key was set on the command line */
    /* A simulated cluster (SimGrid SMPI): the platform file, the hostfile (NULL: one rank
     * per core, hosts in the platform's order) and the collective selector. */
    char *simulate, *hostfile, *selector;
    long launch_np; /* ranks to simulate, more than the largest --np for the probe; 0: that */

    /* Filled by cf_measure_opts_check. */
    const cf_pattern **pats;
    size_t npats;
    uint64_t *sizes;
    size_t nsizes;
    long *nps; /* NULL until known: --np, or the default from the launch size */
    size_t nnps;
    cf_table *done; /* rows of the --resume file, or NULL */
    size_t done_bytes; /* the bytes of its whole lines read (what the rows came from) */
    int ddt;        /* the ddt keyword of --patterns: derived-datatype rows */
    long *blocks;   /* --blocks, or the default counts */
    size_t nblocks;
    unsigned ddt_kinds;  /* --datatypes as a bit set of 1u << cf_ddt_kind */
    cf_ddt_shape *ddts;  /* the derived-datatype points, from the sizes and blocks */
    size_t nddts;
    char *written; /* rank 0, after cf_measure_run: the table it wrote */
} cf_measure_opts;

void cf_measure_opts_init(cf_measure_opts *o);

/* The metadata that says how the collectives were timed (see cf_run_start_metadata; the
 * coll_timing and coll_root values are in base/table.h, which fit and predict read too). */
#define CF_META_RS_BLOCK "each rank's block (IMB 2019 and later; the vector is np times it)"
/* What t_min_us and t_max_us hold (tables without the key: extremes over samples and ranks). */
#define CF_META_T_EXTREMES "across ranks, of each rank's mean over the samples (IMB)"

/* The collectives' method from the options: a set of CF_KM_ bits (kernels.h). */
unsigned cf_measure_method(const cf_measure_opts *o);
void cf_measure_opts_free(cf_measure_opts *o);

/* Sets one option from its long name ("--sizes") and value (NULL for flags). */
int cf_measure_set(cf_measure_opts *o, const char *name, const char *value, cf_error *e);

/* Reads the --resume file: its rows, and its plan, which replaces the plan options (given
 * with --resume, they are a usage error). A last line cut short by an interruption is
 * left out. */
int cf_measure_resume_load(cf_measure_opts *o, cf_error *e);
/* The options of commfit measure that continue table under o's machine, into buf:
 * '--resume TABLE', after --simulate PLATFORM (and --coll-selector S where given) for a
 * simulation, which --resume asks for. */
void cf_measure_resume_args(const cf_measure_opts *o, const char *table, char *buf, size_t n);

/* Checks and parses everything: patterns, sizes (increasing), np, sizes that no unit can
 * carry, buffers larger than this node's memory. launch_np is the launch size when known
 * (>= 1), else 0. Usage errors are CF_EXIT_USAGE. */
int cf_measure_opts_check(cf_measure_opts *o, long launch_np, cf_error *e);

/* The default process counts for a launch of n ranks: 2, 4, 8, ... and n itself
 * (1 when n is 1). */
int cf_measure_default_np(long n, long **out, size_t *nout);

/* The number of ranks a self-launch starts: the cores of this node, at least 2, raised
 * to the largest --np. */
long cf_measure_launch_size(const cf_measure_opts *o, long cores);

/* The plan as option text ("--patterns ... --np 2,4"), stored in the table's metadata so
 * that --resume can take it back. *out is malloc'd. */
int cf_measure_plan_text(const cf_measure_opts *o, char **out);

/* One point of the plan. */
typedef struct cf_measure_point {
    const cf_pattern *pat; /* pingpong for a derived-datatype point */
    int np;
    uint64_t bytes;
    const cf_ddt_shape *ddt; /* a derived-datatype point, or NULL */
} cf_measure_point;

/* Every point still to measure, in order (np ascending, then the pattern table, then
 * size), without the rows already in o->done. *out is malloc'd. */
int cf_measure_plan(const cf_measure_opts *o, cf_measure_point **out, size_t *n);
/* Seconds the points done .. total - 1 of pts (the plan's order: np ascending) should take,
 * from dur[i], the seconds each point before done took: a point at an np some done point
 * had takes their mean there; one at a larger np the mean at the largest np done, times
 * the ratio of the two np where scale_np (a simulation, whose wall time per call grows with
 * the messages the ranks send), else as it. -1 where none is done. */
double cf_measure_left_s(const cf_measure_point *pts, size_t done, size_t total,
                         const double *dur, int scale_np);
/* The reductions of o's plan that leave out sizes holding no whole float (cf_kernel_whole),
 * and those sizes, as a sentence into buf: 1, or 0 when none is left out. */
int cf_measure_plan_unwhole(const cf_measure_opts *o, char *buf, size_t n);
/* The sizes every model of commfit fit needs at a pattern and np. */
#define CF_PLAN_FIT_SIZES 3
/* The sized patterns of o's plan (not the LogGP experiments nor derived datatypes) with
 * 2 sizes fit can read (a reduction's whole floats; a collective's sizes above 0 B), fewer
 * than CF_PLAN_FIT_SIZES (one is a point measured for itself), as a sentence into buf: 1,
 * or 0 when none. */
int cf_measure_plan_few_sizes(const cf_measure_opts *o, char *buf, size_t n);

/* Repetitions per sample: --reps when given, else min(1000, 40 MiB / bytes), lowered
 * so that the warm-up and the nominal samples fit in max_time_s when one call takes
 * t_call_s. At least 1. */
long cf_measure_reps(uint64_t bytes, long reps_opt, double max_time_s, long samples,
                     double t_call_s);

/* Whether to take another sample: 1 yes, else 0 with *stop = "samples", "ci" or "time".
 * tavg holds the n samples so far; elapsed_s is the time the point has taken. */
int cf_measure_more(const cf_measure_opts *o, const double *tavg, size_t n, double elapsed_s,
                    const char **stop);

/* A row from the samples of one point: tavg[i], sample i's mean across ranks of the time
 * per call; rank_s[0] and rank_s[1], the least and the most across ranks of each rank's
 * mean over the samples (seconds; IMB's t_min and t_max). tick_s: the timer's resolution;
 * a t_ci95 below what it resolves of one call (tick_s / reps) is 0, not a figure. */
void cf_measure_row(const cf_pattern *p, int np, uint64_t bytes, long reps, double tick_s,
                    const double *tavg, size_t n, const double rank_s[2], cf_row *row);

/* Hooks the run loop reports through, so that it never prints itself. */
typedef struct cf_measure_hooks {
    void (*progress)(const cf_measure_point *pt, size_t done, size_t total, double elapsed_s,
                     double left_s);
    void (*progress_end)(void);
    void (*warn)(const char *msg);
    void (*note)(const char *msg);
} cf_measure_hooks;

/* The measurement, after MPI_Init: every rank calls it. command is the command line for
 * the metadata. Returns the exit status; on rank 0, e holds the message of a failure.
 * Only rank 0 writes the table (o->output, or the default name) and reports. */
int cf_measure_run(cf_measure_opts *o, const char *command, const cf_measure_hooks *hooks,
                   cf_error *e);

/* Asks the run loop to stop at the next point (from a signal handler). */
void cf_measure_request_stop(void);

#endif
