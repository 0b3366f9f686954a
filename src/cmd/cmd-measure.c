/* commfit measure: checks the options, starts itself under the MPI launcher when run
 * plainly, and otherwise measures, with rank 0 writing the timing table. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "base/cli.h"
#include "base/error.h"
#include "measure/launch.h"
#include "measure/measure.h"
#include "measure/platform.h"
#include "base/size.h"
#include "base/outfile.h"

/* Set by a self-launch whose stderr is a terminal: the ranks' stderr is a pipe. */
#define CF_PROGRESS_ENV "COMMFIT_PROGRESS"

static const char usage[] =
    "Usage: commfit measure [OPTIONS]\n"
    "\n"
    "Runs MPI micro-benchmarks over message sizes and process counts and writes a timing\n"
    "table. Run plainly, it starts itself under the MPI launcher (" CF_MPIEXEC " -n N, N\n"
    "the cores of this node); under mpiexec or srun it measures directly.\n"
    "\n";

/* Every option is applied by cf_measure_set, by its long name. */
static int opt_set(const cf_option *opt, const char *arg, cf_error *e)
{
    char name[64];
    snprintf(name, sizeof name, "--%s", opt->long_name);
    return cf_measure_set(opt->value, name, arg, e);
}

#define MEASURE_OPT(s, l, a, h) CF_OPT_CALL(s, l, a, o, opt_set, h)
/* A number's digits, for the help text. */
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

/* 0 with *first the first operand, CF_PARSE_HELP after --help, else a usage error in e. */
static int parse(cf_measure_opts *o, int argc, char **argv, int *first, cf_error *e)
{
    const cf_option options[] = {
        MEASURE_OPT(0, "patterns", "LIST",
                    "patterns to measure (default all,loggp,ddt), by name or by group: all "
                    "(the 17 below, pingpong to barrier), loggp (the LogGP experiments "
                    "loggp_os loggp_or loggp_gap), ddt (the derived-datatype rows); names: "
                    "pingpong pingping sendrecv exchange bcast scatter scatterv gather gatherv "
                    "allgather allgatherv reduce allreduce reduce_scatter alltoall alltoallv "
                    "barrier loggp_os loggp_or loggp_gap"),
        MEASURE_OPT(0, "sizes", "LIST",
                    "message sizes, increasing (default 0:4M): 1K,64K,1M or 0:4M"),
        MEASURE_OPT(0, "np", "LIST",
                    "process counts, in any order: measured increasing, each once (default "
                    "2,4,8,... and the launch size)"),
        MEASURE_OPT(0, "blocks", "LIST",
                    "block counts of the derived datatypes, in any order, as --np (default "
                    "1,2,...,10, 100,1000, where a size has that many floats)"),
        MEASURE_OPT(0, "datatypes", "LIST",
                    "derived-datatype rows to measure (default all): vector hvector indexed "
                    "hindexed struct contiguous pack"),
        MEASURE_OPT(0, "ddt-summary", NULL,
                    "after the run, print the gain of each datatype over pack"),
        MEASURE_OPT(0, "reps", "N", "calls per sample (default min(1000, 40 MiB / size))"),
        MEASURE_OPT(0, "samples", "K", "timed samples per point (default 5)"),
        MEASURE_OPT(0, "max-time", "S", "seconds a point may take at most (default 1)"),
        MEASURE_OPT(0, "target-ci", "P",
                    "sample until the 95% confidence half-width is within P% of the median "
                    "(3 to 100 samples, within --max-time)"),
        MEASURE_OPT(0, "check", NULL, "verify the data every pattern delivers"),
        MEASURE_OPT(0, "off-cache", NULL, "cycle through buffers larger than the last-level cache"),
        MEASURE_OPT(0, "no-sync", NULL,
                    "time each collective's calls back to back as one loop (IMB's -sync 0); "
                    "by default each call is timed alone and a barrier follows it, as IMB and "
                    "OSU do"),
        MEASURE_OPT(0, "root-shift", NULL,
                    "move the root of the rooted collectives round-robin, call i at rank i % "
                    "np (IMB's -root_shift 1); by default the root is rank 0, as in IMB"),
        MEASURE_OPT(0, "no-latency-probe", NULL,
                    "skip the launch probes: the latency probe (rank 0's ping-pong with every "
                    "other rank at 8 bytes and at each power of 2 from 256 B to 256 KiB, "
                    "recorded as rank_latency_us and rank_latency_sized_us) and the pair-exchange "
                    "probe (ranks 0 to B-1 exchanging 1 MiB with rank XOR B/2 at once, for each "
                    "power of two B up to the launch, recorded as pair_exchange_us, then with "
                    "rank XOR d at each nearer power of two d, pair_exchange_distance_us), and the "
                    "fan probe (rank 0 sending ranks 1 to B-1 a message each at once, then "
                    "receiving one from each, at 6 sizes from 8 B to 1 MiB, recorded as "
                    "fan_out_us and fan_in_us)"),
        MEASURE_OPT('o', "output", "FILE",
                    "the table to write (default data/HOST-DATE.csv; '-' the standard output); "
                    "locked while it is written"),
        MEASURE_OPT(0, "resume", "FILE", "continue an interrupted run, appending to FILE"),
        MEASURE_OPT(0, "launcher", "CMD",
                    "the launcher for a plain run (default " CF_MPIEXEC ")"),
        MEASURE_OPT(0, "oversubscribe", NULL,
                    "let a plain run start more than " STRINGIFY(
                        CF_LAUNCH_RANKS_PER_CORE_MAX) " ranks a core on this node, where "
                    "nothing sends them elsewhere (a hostfile in --launcher, srun, a batch "
                    "allocation); without it such a launch is refused, and one of more ranks "
                    "than cores warned of"),
        MEASURE_OPT(0, "progress", NULL,
                    "show progress on stderr even when it is not a terminal (there a line "
                    "a point)"),
        MEASURE_OPT('q', "quiet", NULL,
                    "no progress and no closing message (a stop by a signal is still said)"),
        CF_OPT_HELP(),
        CF_OPT_GROUP("Simulated clusters (SimGrid SMPI, deterministic simulated time):"),
        MEASURE_OPT(0, "simulate", "PLATFORM.xml",
                    "measure the machine the SimGrid platform describes: runs commfit-smpi "
                    "under smpirun; defaults --np 2,4,8,16 (up to the platform's cores), --reps "
                    "4 (50 for the two-rank patterns), --samples 2"),
        MEASURE_OPT(0, "launch-np", "N",
                    "simulate N ranks, at least the largest --np: the rest only take part in "
                    "the launch's probes (latency, pair exchange and fan), so that predictions up "
                    "to np=N know how far their ranks are, what their traffic shares and how "
                    "a root's messages overlap (a real launch: mpiexec -n N)"),
        MEASURE_OPT(0, "hostfile", "FILE",
                    "where the ranks go (default: one rank per core, hosts in the platform's "
                    "order)"),
        MEASURE_OPT(0, "coll-selector", "NAME",
                    "whose collective algorithms SMPI runs: mpich (default), ompi, mvapich2, "
                    "impi, default (SimGrid's)"),
        CF_OPT_END(),
    };
    return cf_options_parse(options, usage, CF_PARSE_STOP_AT_OPERAND | CF_PARSE_NO_OPERANDS,
                            argc, argv, first, e);
}

/* The command line for the metadata, quoted where a shell would need it. */
static char *command_line(int argc, char **argv)
{
    size_t n = 32;
    for (int i = 0; i < argc; i++)
        n += 4 * strlen(argv[i]) + 3;
    char *s = malloc(n);
    if (s == NULL)
        return NULL;
    size_t k = (size_t)snprintf(s, n, "commfit");
    for (int i = 0; i < argc; i++) {
        s[k++] = ' ';
        cf_shell_quote(argv[i], s + k, n - k);
        k += strlen(s + k);
    }
    return s;
}

static int progress_width;
/* Progress to a log, not a terminal (--progress with the standard error a file or a pipe):
 * a line a point. A terminal's line redrawn with '\r' made one line of a whole run there. */
static int progress_lines;

static void show_progress(const cf_measure_point *pt, size_t done, size_t total, double elapsed_s,
                          double left_s)
{
    char size[32], left[32] = "?";
    cf_size_format(pt->bytes, size, sizeof size);
    if (left_s >= 0)
        snprintf(left, sizeof left, "%.0fs", left_s);
    char what[64];
    if (pt->ddt != NULL)
        snprintf(what, sizeof what, "%s %s %ld blocks", pt->pat->facts->pattern,
                 cf_ddt_kind_name(pt->ddt->kind), pt->ddt->blocks);
    else
        snprintf(what, sizeof what, "%s", pt->pat->facts->pattern);
    int n = fprintf(stderr, "%scommfit: measure: %s np=%d %s  [%zu/%zu]  %.0fs elapsed, ~%s left%s",
                    progress_lines ? "" : "\r", what, pt->np, size, done + 1, total, elapsed_s,
                    left, progress_lines ? "\n" : "");
    if (progress_lines) {
        fflush(stderr);
        return;
    }
    for (int i = n; i < progress_width; i++)
        fputc(' ', stderr);
    if (n > progress_width)
        progress_width = n;
    fflush(stderr);
}

static void end_progress(void)
{
    if (progress_width > 0)
        fputc('\n', stderr);
    progress_width = 0;
}

static void warn(const char *msg)
{
    cf_warn("%s", msg);
}

static void note(const char *msg)
{
    cf_msg("%s", msg);
}

#ifndef CF_SMPI
static void on_signal(int sig)
{
    (void)sig;
    cf_measure_request_stop();
}
#else
/* A simulated point can take minutes of wall time (an Open MPI alltoall at np 128: about
 * 8): a second stop ends the simulation at once, as a real launcher ends its ranks on a
 * second Ctrl-C, the point it was in lost (--resume measures it again). smpirun, this
 * process's parent (relay), passes each signal it gets on as SIGTERM, and the commfit that
 * started it signals its whole group: one stop arrives twice, and the relay's copy after a
 * stop is not a second one; nor is any copy within a second of the first. The handler is
 * rank 0's, and so are the counts it reads. */
static pid_t relay;
static volatile sig_atomic_t stops;
static struct timespec first_stop;

/* Seconds since the first stop, on the real clock (SMPI's clock_gettime reads the
 * simulated one: the function, not its macro). */
static double since_first_stop(void)
{
    struct timespec now;
    (clock_gettime)(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - first_stop.tv_sec) +
           1e-9 * (double)(now.tv_nsec - first_stop.tv_nsec);
}

/* One stop sent to every process at once (a batch system's time limit, a cgroup's kill,
 * pkill) arrives more than once too: copies within a second of the first are that stop. */
#define CF_STOP_SAME_S 1.0

static void on_signal(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    if (stops > 0 && info != NULL && info->si_code == SI_USER && info->si_pid == relay)
        return;
    if (stops > 0 && since_first_stop() < CF_STOP_SAME_S)
        return;
    if (stops++ > 0) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    (clock_gettime)(CLOCK_MONOTONIC, &first_stop);
    cf_measure_request_stop();
}
#endif

/* Prints a failure of option checking, once per launch. */
static int refuse(const cf_error *e, int loud)
{
    if (!loud)
        return e->code;
    if (e->code == CF_EXIT_USAGE && e->file[0] == '\0')
        return cf_usage_error("%s", e->msg);
    return cf_error_report(e);
}

/* The study's figure in numbers: the gain of each datatype over pack, read back from the
 * table just written (so that a resumed run's earlier rows count too). */
static int ddt_summary(const char *path)
{
    cf_error e;
    cf_error_clear(&e);
    cf_table *t = NULL;
    if (path == NULL || cf_table_read(path, &t, &e) != 0)
        return path == NULL ? CF_EXIT_DATA : cf_error_report(&e);
    if (cf_ddt_gain_print(stdout, t) == 0)
        cf_msg("--ddt-summary: no datatype row has a pack row to compare with");
    cf_table_free(t);
    return fflush(stdout) == 0 ? CF_EXIT_OK : CF_EXIT_DATA;
}

/* What a stopped launch kept, as rank 0 reported its table (cf_launch_said). */
static void kept_text(const cf_measure_opts *o, const cf_launch_said *said, char *kept,
                      size_t n)
{
    char args[768];
    cf_measure_resume_args(o, said->table, args, sizeof args);
    if (strcmp(said->table, "-") == 0)
        snprintf(kept, n, "the rows finished before went to standard output");
    else if (said->table[0] != '\0')
        snprintf(kept, n, "the rows finished before are in %s (%s goes on)", said->table, args);
    else
        snprintf(kept, n, "no table was begun");
}

/* Where a launch died inside a point rank 0 had begun (said->point, "-" once its row was
 * written: none), " during POINT" into buf, else ""; *in_point 1 or 0. */
static void during_text(const cf_launch_said *said, char *buf, size_t n, int *in_point)
{
    *in_point = said->point[0] != '\0' && strcmp(said->point, "-") != 0 && !said->ended;
    snprintf(buf, n, "%s%s", *in_point ? " during " : "", *in_point ? said->point : "");
}

static int measure_under_launcher(cf_measure_opts *o, int argc, char **argv)
{
    cf_error e;
    cf_error_clear(&e);
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        cf_msg("MPI_Init failed");
        return CF_EXIT_DATA;
    }
    /* Every rank may speak (an MPI error is reported where it happens): a message must
     * reach the launcher as one write, not interleaved with another rank's. */
    int rank = 0, size = 1, rc;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Started by commfit for n processes, but in a job of another size: the launcher is of
     * another MPI library (Open MPI's mpiexec starting an MPICH build: n jobs of one, each
     * writing the table at np=1, exit 0). Every process says it, each rank 0 of its own. */
    /* (Only with the launcher command beside it: both are set by the commfit that started
     * the launcher, and a copy of one left in a shell's environment checks nothing.) */
    const char *asked = getenv(CF_LAUNCH_NP_ENV), *by = getenv(CF_LAUNCHER_CMD_ENV);
    cf_launch_env env;
    cf_launch_detect(&env);
    if (asked != NULL && by != NULL && strtol(asked, NULL, 10) != size) {
        cf_error_set(&e, CF_EXIT_DATA, NULL, 0,
                     "the launcher was asked for %s processes (%s) but this MPI job has %d: it "
                     "is not of the MPI library commfit is built with (%s; its launcher is %s), "
                     "whose jobs it cannot start: give --launcher that library's",
                     asked, by, size, CF_MPI_LIBRARY, CF_MPIEXEC);
    } else if (env.size > 0 && env.size != size && strcmp(env.by, "smpi") != 0) {
        /* The same started by hand (mpiexec.mpich -n 2 with an Open MPI build): the
         * launcher's own variables say how many it started. */
        cf_error_set(&e, CF_EXIT_DATA, NULL, 0,
                     "the launcher (%s's variables) started %ld processes but this MPI job has "
                     "%d: it is not of the MPI library commfit is built with (%s; its launcher "
                     "is %s), whose jobs it cannot start: run it with that one, or plain "
                     "'commfit measure --np N'",
                     env.by, env.size, size, CF_MPI_LIBRARY, CF_MPIEXEC);
    }
    if (e.code != 0) {
        refuse(&e, rank == 0);
        if (rank == 0)
            cf_launch_report_end(CF_EXIT_DATA);
        MPI_Finalize();
        return CF_EXIT_DATA;
    }
#ifndef CF_SMPI
    /* (Simulated ranks are threads of one process and share one stderr.) */
    static char errbuf[4096];
    setvbuf(stderr, errbuf, _IOLBF, sizeof errbuf);
#endif
    /* The launch size is certain only now; the same check gives the same answer on every
     * rank, so they all stop together, before any traffic. */
    if ((rc = cf_measure_opts_check(o, size, &e)) != 0) {
        refuse(&e, rank == 0);
        if (rank == 0)
            cf_launch_report_end(rc);
        MPI_Finalize();
        return rc;
    }
    if (!o->quiet && (o->progress || getenv(CF_PROGRESS_ENV) != NULL || isatty(2)))
        o->progress = 1;
    /* The launching commfit's terminal (a plain run's ranks write to the launcher's pipe),
     * or this rank's own (a simulation's): else a log. */
    progress_lines = getenv(CF_PROGRESS_ENV) == NULL && !isatty(2);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
#ifndef CF_SMPI
    sa.sa_handler = on_signal;
#else
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO;
    relay = getppid();
#endif
    sigemptyset(&sa.sa_mask);
#ifdef CF_SMPI
    /* Simulated ranks share the process's handlers but each has its own copy of the stop
     * flag; rank 0 takes part in every process count, so its flag stops them all. */
    if (rank == 0)
#endif
    {
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        /* Open MPI's launcher passes SIGUSR1 on to the ranks, and ends them on SIGTERM. */
        sigaction(SIGUSR1, &sa, NULL);
    }

    char *cmd = command_line(argc, argv);
    cf_measure_hooks hooks = {show_progress, end_progress, warn, o->quiet ? NULL : note};
    rc = cf_measure_run(o, cmd ? cmd : "commfit measure", &hooks, &e);
    free(cmd);
    if (rc < 0) {
        /* An MPI call failed on this rank; the others may be waiting in the next one. */
        cf_error_report(&e);
        fflush(stderr);
        /* The launcher forwards a rank's stderr and its abort request on different
         * channels; without a pause it may tear the job down before the message above
         * is through (seen under load with MPICH's hydra). */
        struct timespec pause = {0, 300 * 1000 * 1000};
        nanosleep(&pause, NULL);
        MPI_Abort(MPI_COMM_WORLD, CF_EXIT_DATA);
        return CF_EXIT_DATA;
    }
    if (rank == 0 && e.code != 0)
        cf_error_report(&e);
    if (rank == 0 && rc == CF_EXIT_OK && o->ddt_summary)
        rc = ddt_summary(o->written);
    if (rank == 0)
        cf_launch_report_end(rc);
    MPI_Finalize();
    return rc;
}

/* What a launch this process started came to, from the launcher's status rc and what rank 0
 * reported back (cf_launch_report): the status, with a message in e where the ranks said
 * none. A launcher passes on what its ranks died of (9: a rank killed; 255: MPICH's
 * launcher failing; 127: a program not found) or exits 0 having started nothing; only
 * commfit's own 0, 1 and 2 come from ranks that said why. what names the launcher. */
static int launch_outcome(const cf_measure_opts *o, int rc, int stopped,
                          const cf_launch_said *said, const char *what, cf_error *e)
{
    char kept[2 * sizeof said->table + 64];
    kept_text(o, said, kept, sizeof kept);
    if (e->code != 0)
        return rc;
    if (stopped) {
        /* The ranks said what they kept, where rank 0 ended; a table was begun and rank 0
         * did not end: a second signal ended them at once (a launcher's on a second Ctrl-C,
         * the simulation's), in the middle of a point. */
        if (said->table[0] == '\0' && !said->ended)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                                "stopped by a signal before a table was begun: nothing was "
                                "measured");
        if (!said->ended)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                                "stopped in the middle of a point (a second signal, or a "
                                "launcher that ends its ranks on the first); %s",
                                kept);
        /* The stop came during the last point, which finished: every point is in. */
        if (said->status == CF_EXIT_OK) {
            cf_msg("the stop came during the last point, which finished: the table is whole");
            return CF_EXIT_OK;
        }
        return rc;
    }
    char during[sizeof said->point + 16];
    int in_point;
    during_text(said, during, sizeof during, &in_point);
    if (rc > CF_EXIT_USAGE)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "%s exited with status %d%s, not commfit's (a rank died, or the "
                            "launcher failed: its messages above); %s",
                            what, rc, during, kept);
    if (rc == CF_EXIT_OK && !said->ended)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "%s exited 0, but no commfit rank ran to its end (%s): does it "
                            "start the program it is given?",
                            what, kept);
    /* 1 or 2 from ranks that never reached their end: an MPI call failed (that rank said
     * so), or the launcher itself gave up (its messages, if any). */
    /* Open MPI's launcher run as root without its two variables starts nothing and exits 1
     * (a new user saw only that). */
    const char *root_hint =
        !o->simulate && geteuid() == 0 &&
                (getenv("OMPI_ALLOW_RUN_AS_ROOT") == NULL ||
                 getenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM") == NULL) &&
                (strstr(what, "openmpi") != NULL || strcmp(CF_MPI_LIBRARY, "openmpi") == 0)
            ? " (as root, Open MPI's launcher starts nothing unless OMPI_ALLOW_RUN_AS_ROOT=1 "
              "and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 are set)"
            : "";
    if (rc != CF_EXIT_OK && !said->ended)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "%s exited with status %d before a commfit rank reached its end "
                            "(their messages above, if any)%s; %s",
                            what, rc, root_hint, kept);
    return rc;
}

/* Where the run writes its table, as it stood before the launch (table_touched). */
typedef struct table_before {
    struct timespec start; /* the file system's clock (coarse) when the launch began */
    int existed;           /* the -o or --resume file existed */
    struct stat st;        /* and was this */
} table_before;

static void table_before_launch(const cf_measure_opts *o, table_before *b)
{
    const char *path = o->resume ? o->resume : o->output;
#ifdef CLOCK_REALTIME_COARSE
    /* The clock file times are stamped from: a file written just after a finer clock's
     * reading may carry an earlier time. */
    clock_gettime(CLOCK_REALTIME_COARSE, &b->start);
#else
    clock_gettime(CLOCK_REALTIME, &b->start);
#endif
    b->existed = path != NULL && strcmp(path, "-") != 0 && stat(path, &b->st) == 0;
}

static int same_time(struct timespec a, struct timespec b)
{
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* Whether a table was written since the launch began where the run writes it (-o, --resume,
 * else a .csv in data/): rank 0 may run on another node, whose report the file in this
 * node's /tmp never sees, and still write the table to a shared folder. The -o or --resume
 * file: made, or changed since (a table that was there, untouched by a launcher that ran
 * nothing, said the run ended: it compared whole seconds); a file in data/: stamped since
 * the launch began. 1 where it cannot tell (standard output). */
static int table_touched(const cf_measure_opts *o, const table_before *b)
{
    const char *path = o->resume ? o->resume : o->output;
    struct stat st;
    if (path != NULL) {
        if (strcmp(path, "-") == 0)
            return 1;
        if (stat(path, &st) != 0)
            return 0;
        return !b->existed || st.st_ino != b->st.st_ino || st.st_dev != b->st.st_dev ||
               st.st_size != b->st.st_size || !same_time(st.st_mtim, b->st.st_mtim);
    }
    DIR *d = opendir("data");
    int found = 0;
    struct dirent *de;
    while (d != NULL && !found && (de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);
        char p[4096];
        if (n < 4 || strcmp(de->d_name + n - 4, ".csv") != 0 ||
            (size_t)snprintf(p, sizeof p, "data/%s", de->d_name) >= sizeof p)
            continue;
        found = stat(p, &st) == 0 &&
                (st.st_mtim.tv_sec > b->start.tv_sec ||
                 (st.st_mtim.tv_sec == b->start.tv_sec && st.st_mtim.tv_nsec >= b->start.tv_nsec));
    }
    if (d != NULL)
        closedir(d);
    return found;
}

/* Said before the launch, which may take minutes: a plan fit cannot read (two sizes, as
 * the cost of a large simulation invites). Not of a table resumed, whose sizes are set. */
static void warn_few_sizes(const cf_measure_opts *o)
{
    char buf[512];
    if (o->resume == NULL && cf_measure_plan_few_sizes(o, buf, sizeof buf))
        cf_warn("%s", buf);
}

/* ---- measure --simulate, run plainly: commfit-smpi under smpirun ---- */
#ifndef CF_SMPI

#define CF_SMPI_PROGRAM "commfit-smpi"
#define CF_SMPI_ENV "COMMFIT_SMPI"       /* overrides where commfit-smpi is looked for */
#define CF_SMPIRUN_ENV "COMMFIT_SMPIRUN" /* overrides the configured smpirun */

/* commfit-smpi is installed beside commfit-mpi (this program), in the build tree too. */
static char *find_smpi_program(cf_error *e)
{
    const char *env = getenv(CF_SMPI_ENV);
    char *path = NULL;
    if (env != NULL && *env != '\0') {
        path = strdup(env);
    } else {
        char self[4096];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0) {
            cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot find this program (/proc/self/exe)");
            return NULL;
        }
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        *slash = '\0';
        size_t len = strlen(self) + sizeof CF_SMPI_PROGRAM + 1;
        if ((path = malloc(len)) != NULL)
            snprintf(path, len, "%s/%s", self, CF_SMPI_PROGRAM);
    }
    if (path == NULL) {
        cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        return NULL;
    }
    if (access(path, X_OK) != 0) {
#ifndef CF_HAVE_SMPI
        /* Why configure did not build it (CF_SMPI_WHY, as --version says): what is
         * missing, which a guess such as 'install SimGrid' gets wrong where half of it is
         * there, or where it is and configure was told --without-simgrid. */
        if (env == NULL || *env == '\0')
            cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                         "--simulate needs %s, which was not built (%s); configure and make "
                         "again to build it, or set %s to one",
                         CF_SMPI_PROGRAM, CF_SMPI_WHY, CF_SMPI_ENV);
        else
#endif
            cf_error_set(e, CF_EXIT_DATA, NULL, 0, "--simulate needs %s: not found at '%s' (%s)",
                         CF_SMPI_PROGRAM, path,
                         env != NULL && *env != '\0'
                             ? "named by " CF_SMPI_ENV
                             : "it goes beside commfit-mpi; or set " CF_SMPI_ENV);
        free(path);
        return NULL;
    }
    return path;
}

/* Whether smpirun can be started: a path, or a name found on PATH. */
static int smpirun_found(const char *prog)
{
    if (strchr(prog, '/') != NULL)
        return access(prog, X_OK) == 0;
    const char *path = getenv("PATH");
    char dir[4096];
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t n = strcspn(p, ":");
        if (n > 0 && n + strlen(prog) + 2 < sizeof dir) {
            snprintf(dir, sizeof dir, "%.*s/%s", (int)n, p, prog);
            if (access(dir, X_OK) == 0)
                return 1;
        }
        p += n + (p[n] == ':');
    }
    return 0;
}

/* smpirun passes the program's arguments on unquoted: a word with a blank or a wildcard
 * would reach commfit-smpi split or expanded. */
static int check_smpirun_words(int argc, char **argv, cf_error *e)
{
    for (int i = 0; i < argc; i++)
        if (argv[i][0] == '\0' || strpbrk(argv[i], " \t\n*?[") != NULL)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "--simulate: smpirun splits arguments at blanks and expands "
                                "wildcards, so '%s' cannot reach the simulation: use a name "
                                "without them",
                                argv[i]);
    return 0;
}

/* The number of ranks to simulate: the largest --np, else up to CF_SIM_NP_MAX cores. */
static long simulated_launch(const cf_measure_opts *o, const cf_platform *pf, cf_error *e)
{
    long n = pf->cores < CF_SIM_NP_MAX ? pf->cores : CF_SIM_NP_MAX;
    if (o->np_arg != NULL) {
        long *nps = NULL;
        size_t nn = 0;
        if (cf_int_list_parse(o->np_arg, "--np", 1, CF_TABLE_NP_MAX, &nps, &nn, e) != 0)
            return -1;
        n = nps[nn - 1];
        free(nps);
    }
    if (n < 2)
        n = 2;
    /* More ranks than any --np measures: the idle ones are there for the latency probe, so
     * that predictions up to the launch know how far their ranks are. */
    if (o->launch_np > 0) {
        if (o->launch_np < n) {
            cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                         "--launch-np %ld is smaller than the largest --np, %ld", o->launch_np, n);
            return -1;
        }
        n = o->launch_np;
    }
    if (o->hostfile == NULL && n > pf->cores) {
        cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                     "%s %ld: the platform '%s' has %ld core%s, one rank each: simulate at "
                     "most %ld ranks, or place more with --hostfile",
                     o->launch_np > 0 ? "--launch-np" : "--np", n, o->simulate, pf->cores,
                     pf->cores == 1 ? "" : "s", pf->cores);
        return -1;
    }
    return n;
}

/* A resumed simulation places its ranks as the table's were placed (by rank, from its hosts
 * and rank_hosts): another hostfile put the rows added on other hosts (a round-robin over
 * two racks turned an allreduce of 4 B at np 2 from 0.92 into 36.3 us) with nothing in the
 * table to tell them apart. Compared by where each rank lands, not by the hostfile's name
 * (a copy, or one listing the platform's own order, places them alike). unrolled: this
 * launch's hosts, one a line. */
static int resume_same_placement(const cf_measure_opts *o, const char *unrolled, long n,
                                 cf_error *e)
{
    const char *hosts = o->done ? cf_table_meta_get(o->done, "hosts") : NULL;
    const char *rh = o->done ? cf_table_meta_get(o->done, "rank_hosts") : NULL;
    if (o->resume == NULL || hosts == NULL || rh == NULL)
        return 0;
    FILE *f = fopen(unrolled, "r");
    if (f == NULL)
        return 0;
    char line[1024], then[1024];
    const char *hf = cf_table_meta_get(o->done, "hostfile");
    int rc = 0;
    /* rank_hosts: each rank's index into hosts, a run of one as "H*N" ("0*4,1*4",
     * "0,1,0,1"), read along with the ranks. */
    const char *p = rh;
    long h = -1, left = 0;
    for (long r = 0; rc == 0 && r < n && fgets(line, sizeof line, f) != NULL; r++) {
        line[strcspn(line, "\r\n")] = '\0';
        if (left == 0) {
            char *end;
            h = strtol(p, &end, 10);
            left = 1;
            if (end != p && *end == '*')
                left = strtol(end + 1, &end, 10);
            if (end == p || h < 0 || left < 1 || (*end != ',' && *end != '\0'))
                break; /* past the table's launch, or nothing it says */
            p = *end == ',' ? end + 1 : end;
        }
        left--;
        const char *q = hosts;
        for (long i = 0; i < h && q != NULL; i++)
            if ((q = strchr(q, ',')) != NULL)
                q++;
        if (q == NULL)
            break;
        snprintf(then, sizeof then, "%.*s", (int)strcspn(q, ","), q);
        if (strcmp(line, then) != 0)
            rc = cf_error_set(e, CF_EXIT_USAGE, o->resume, 0,
                              "its rank %ld ran on '%s' (hostfile: %s) and would run on '%s' "
                              "(%s%s): its rows would mix two placements; resume it with a "
                              "hostfile that places its ranks as before",
                              r, then, hf ? hf : "?", line,
                              o->hostfile ? "--hostfile " : "no --hostfile: ",
                              o->hostfile ? o->hostfile : CF_SIM_HOSTFILE_DEFAULT);
    }
    fclose(f);
    return rc;
}

/* Writes the hostfile smpirun gets into a temporary file, *path malloc'd: the user's,
 * checked and unrolled, or one rank per core in the platform's order. */
static int write_hostfile(const cf_measure_opts *o, const cf_platform *pf, long n, char **path,
                          cf_error *e)
{
    const char *tmp = getenv("TMPDIR");
    size_t len = strlen(tmp && *tmp ? tmp : "/tmp") + 32;
    char *p = malloc(len);
    if (p == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    snprintf(p, len, "%s/commfit-hosts-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(p);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f != NULL && o->hostfile != NULL &&
        cf_platform_check_hostfile(pf, o->hostfile, n, f, e) != 0) {
        fclose(f);
        unlink(p);
        free(p);
        return e->code;
    }
    if (f == NULL || (o->hostfile == NULL && cf_platform_write_hostfile(pf, n, f) != 0) ||
        fclose(f) != 0) {
        int err = errno;
        if (fd >= 0) {
            if (f == NULL)
                close(fd);
            unlink(p);
        }
        cf_error_set(e, CF_EXIT_DATA, p, 0, "cannot write the hostfile: %s", strerror(err));
        free(p);
        return e->code;
    }
    *path = p;
    return 0;
}

static int simulate(cf_measure_opts *o, int argc, char **argv, cf_error *e)
{
    cf_platform pf;
    char *hostfile = NULL, *prog = NULL;
    char **v = NULL;
    int rc;
    if ((rc = check_smpirun_words(argc - 1, argv + 1, e)) != 0)
        return rc;
    /* commfit-smpi first: where the build has none, configure's reason is the news, not
     * the platform's mistakes or a missing smpirun (which told to install SimGrid where
     * only smpicc was missing). */
    if ((prog = find_smpi_program(e)) == NULL)
        return e->code;
    if ((rc = cf_platform_read(o->simulate, &pf, e)) != 0) {
        free(prog);
        return rc;
    }
    long n = simulated_launch(o, &pf, e);
    if (n < 0 || (rc = cf_measure_opts_check(o, n, e)) != 0) {
        rc = n < 0 ? e->code : rc;
        goto out;
    }
    const char *smpirun = getenv(CF_SMPIRUN_ENV);
    smpirun = smpirun && *smpirun ? smpirun : CF_SMPIRUN;
    if (!smpirun_found(smpirun)) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                          "SimGrid's launcher '%s' is not found: install it with 'apt-get "
                          "install libsimgrid-dev' (or set %s)",
                          smpirun, CF_SMPIRUN_ENV);
        goto out;
    }
    if ((rc = write_hostfile(o, &pf, n, &hostfile, e)) != 0 ||
        (rc = resume_same_placement(o, hostfile, n, e)) != 0)
        goto out;
    warn_few_sizes(o);
    char np[32], selector[96];
    snprintf(np, sizeof np, "%ld", n);
    snprintf(selector, sizeof selector, "--cfg=smpi/coll-selector:%s",
             o->selector ? o->selector : CF_SIM_SELECTOR);
    const char *head[] = {smpirun, "-quiet", "-np", np, "-platform", o->simulate, "-hostfile",
                          hostfile,
                          /* Computation between MPI calls takes no simulated time, so that a
                           * simulated table depends on the platform alone. */
                          "--cfg=smpi/simulate-computation:no", selector,
                          /* Shared buffers map this file once per block: 1 MiB blocks (the
                           * default) exceed the kernel's 65530 mappings at 128 ranks of an
                           * alltoall at 2 MiB. */
                          "--cfg=smpi/shared-malloc-blocksize:" CF_SIM_SHARED_BLOCK,
                          "--log=root.thres:warning", "--log=smpi_kernel.thres:error", prog};
    size_t nh = sizeof head / sizeof head[0];
    if ((v = calloc(nh + (size_t)argc + 1, sizeof *v)) == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < nh; i++)
        v[i] = (char *)head[i];
    for (int i = 0; i < argc; i++)
        v[nh + (size_t)i] = argv[i];
    /* Waited for as a real launch is: a stop by a signal is status 1 and the ranks said
     * what was kept; commfit-smpi explains its own 1 and 2; anything else is the
     * simulator's failure. */
    int stopped;
    int to_stdout = o->output != NULL &&
                    (strcmp(o->output, "-") == 0 || cf_named_fd(o->output) == STDOUT_FILENO);
    if (to_stdout && fcntl(STDOUT_FILENO, F_GETFD) < 0) {
        /* A closed one: SimGrid's shared memory took descriptor 1, and the table went there,
         * exit 0. */
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                          "-o %s: the standard output is closed, nowhere to write the table",
                          o->output);
        goto out;
    }
    char *report = cf_launch_report_open();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "%s -np %s", smpirun, np);
    setenv(CF_LAUNCHER_CMD_ENV, cmd, 1);
    char front[32];
    snprintf(front, sizeof front, "%ld", (long)getpid());
    setenv(CF_FRONT_PID_ENV, front, 1);
    /* A table to the standard output goes there by a descriptor of its own: smpirun's
     * words go to the standard error, not into the table's stream. Above the shell's: smpirun
     * keeps its input on descriptor 3 and closes it for the simulator. */
    int table_fd = -1;
    if (to_stdout && (table_fd = fcntl(STDOUT_FILENO, F_DUPFD, 20)) >= 0) {
        char fdtext[16];
        snprintf(fdtext, sizeof fdtext, "%d", table_fd);
        setenv(CF_TABLE_FD_ENV, fdtext, 1);
    }
    rc = cf_launch_run_to(v, 1, table_fd >= 0, &stopped, e);
    if (table_fd >= 0) {
        close(table_fd);
        unsetenv(CF_TABLE_FD_ENV);
    }
    unsetenv(CF_LAUNCHER_CMD_ENV);
    unsetenv(CF_FRONT_PID_ENV);
    cf_launch_said said;
    cf_launch_report_done(report, &said);
    if (e->code == 0 && !stopped && rc == 128 + SIGPIPE) {
        /* smpirun, a shell script, reports its simulator's death by a signal as 128 + it:
         * SIGPIPE is the reader of the table's stream gone (-o - | head -1), no failure of
         * the simulation. */
        char kept[2 * sizeof said.table + 64];
        kept_text(o, &said, kept, sizeof kept);
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                          "the simulation ended by SIGPIPE: what read its output closed it "
                          "first; %s",
                          kept);
    } else if (e->code == 0 && !stopped && rc > CF_EXIT_USAGE) {
        /* A simulation is deterministic: where it failed of itself (not killed), resumed it
         * fails at the same point again (SimGrid 3.32's "Cannot saturate more a constraint",
         * an abort, on Open MPI's alltoall at np 128 on a new user's dragonfly). */
        char kept[2 * sizeof said.table + 64], during[sizeof said.point + 16];
        int in_point, killed = rc == 128 + SIGKILL || rc == 128 + SIGTERM ||
                               rc == 128 + SIGINT || rc == 128 + SIGHUP;
        during_text(&said, during, sizeof during, &in_point);
        if (in_point && !killed && said.table[0] != '\0' && strcmp(said.table, "-") != 0)
            /* --resume runs the table's plan, that point with it. */
            rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                              "the simulation failed%s (smpirun exit status %d, its messages "
                              "above): a simulation runs the same each time, so --resume, "
                              "which runs the table's plan, fails there again; the rows "
                              "finished before are in %s: measure what is left without that "
                              "point into another table (--patterns, --np, --sizes)",
                              during, rc, said.table);
        else {
            kept_text(o, &said, kept, sizeof kept);
            rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                              "the simulation failed%s (smpirun exit status %d, its messages "
                              "above); %s",
                              during, rc, kept);
        }
    }
    else
        rc = launch_outcome(o, rc, stopped, &said, "smpirun", e);
out:
    if (hostfile != NULL)
        unlink(hostfile);
    free(hostfile);
    free(prog);
    free(v);
    cf_platform_free(&pf);
    return rc;
}
#endif

int cmd_measure(int argc, char **argv)
{
    cf_launch_env env;
    cf_launch_detect(&env);
    /* Under a launcher every rank checks the options; one of them speaks. */
    int loud = !env.under || env.rank <= 0;
    cf_measure_opts o;
    cf_measure_opts_init(&o);
    cf_error e;
    cf_error_clear(&e);
    int first, rc = parse(&o, argc, argv, &first, &e);
    if (rc == CF_PARSE_HELP) {
        cf_measure_opts_free(&o);
        return CF_EXIT_OK;
    }
    if (rc != 0)
        goto fail;
    if (o.resume != NULL && (rc = cf_measure_resume_load(&o, &e)) != 0)
        goto fail;
    long launch = env.under && env.size > 0 ? env.size : 0;
    if ((rc = cf_measure_opts_check(&o, launch, &e)) != 0)
        goto fail;

#ifndef CF_SMPI
    if (env.under && o.simulate != NULL) {
        rc = cf_error_set(&e, CF_EXIT_USAGE, NULL, 0,
                          "--simulate starts its own simulator: run 'commfit measure "
                          "--simulate' plainly, not under a launcher");
        goto fail;
    }
    /* Ranks a launcher started from the command line: the front said nothing. */
    if (env.under && loud && getenv(CF_LAUNCHER_CMD_ENV) == NULL)
        warn_few_sizes(&o);
    if (!env.under && o.simulate != NULL) {
        rc = simulate(&o, argc, argv, &e);
        cf_measure_opts_free(&o);
        return rc == 0 || e.code == 0 ? rc : refuse(&e, 1);
    }
#endif
    if (env.under) {
        rc = measure_under_launcher(&o, argc, argv);
        cf_measure_opts_free(&o);
        return rc;
    }

    /* A plain run: check against the launch it will start, then run that launch. Ranks
     * that crowd this node are refused or warned of before they start: once started, they
     * are a thousand processes to stop, and the ranks' own warning comes after their
     * launch and says nothing of what to do instead; they leave it out when this one was
     * given (CF_LAUNCH_CROWDED_ENV). */
    long n = cf_measure_launch_size(&o, cf_launch_cores());
    const char *launcher = o.launcher ? o.launcher : CF_MPIEXEC;
    char crowded[512];
    if ((rc = cf_launch_check_crowding(n, cf_launch_cores(), launcher, o.oversubscribe, crowded,
                                       sizeof crowded, &e)) != 0 ||
        (rc = cf_measure_opts_check(&o, n, &e)) != 0)
        goto fail;
    if (crowded[0] != '\0')
        cf_warn("%s", crowded);
    warn_few_sizes(&o);
    char *exe = cf_launch_self_exe();
    if (exe == NULL) {
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "cannot find the commfit program (/proc/self/exe)");
        goto fail;
    }
    char **largv = NULL;
    rc = cf_launch_argv(launcher, n, exe, argc - 1, argv + 1, &largv, &e);
    free(exe);
    if (rc != 0)
        goto fail;
    if (!o.quiet && isatty(2))
        setenv(CF_PROGRESS_ENV, "1", 1);
    fflush(NULL);
    /* Run and waited for, not exec'd: a stop asked by a signal is status 1 whatever the
     * launcher's own status; the ranks said what was kept. */
    int stopped;
    cf_launch_prepare_env(n, cf_launch_cores());
    char *report = cf_launch_report_open();
    /* The launcher's words and size (not this program's path and arguments, which the
     * table's command gives) name how the ranks were started. */
    char cmd[600];
    size_t k = 0;
    for (char **w = largv; *w != NULL && k < sizeof cmd; w++) {
        k += (size_t)snprintf(cmd + k, sizeof cmd - k, "%s%s", k ? " " : "", *w);
        if (w != largv && strcmp(w[-1], "-n") == 0)
            break;
    }
    setenv(CF_LAUNCHER_CMD_ENV, cmd, 1);
    char asked[32];
    snprintf(asked, sizeof asked, "%ld", n);
    setenv(CF_LAUNCH_NP_ENV, asked, 1);
    if (crowded[0] != '\0')
        setenv(CF_LAUNCH_CROWDED_ENV, "1", 1);
    else /* one inherited from elsewhere would silence the ranks' own warning */
        unsetenv(CF_LAUNCH_CROWDED_ENV);
    table_before before;
    table_before_launch(&o, &before);
    rc = cf_launch_run(largv, 0, &stopped, &e);
    unsetenv(CF_LAUNCHER_CMD_ENV);
    unsetenv(CF_LAUNCH_NP_ENV);
    unsetenv(CF_LAUNCH_CROWDED_ENV);
    cf_launch_said said;
    cf_launch_report_done(report, &said);
    /* Rank 0 on another node reports nothing here: its table, if written, speaks for it. */
    if (rc == CF_EXIT_OK && !said.ended && table_touched(&o, &before))
        said.ended = 1;
    char what[300];
    snprintf(what, sizeof what, "the launcher '%s'", largv[0]);
    cf_launch_argv_free(largv);
    rc = launch_outcome(&o, rc, stopped, &said, what, &e);
    if (e.code == 0) {
        cf_measure_opts_free(&o);
        return rc;
    }
fail:
    cf_measure_opts_free(&o);
    rc = refuse(&e, loud);
    if (env.under && env.rank <= 0) /* said why: the launching commfit adds nothing */
        cf_launch_report_end(rc);
    return rc;
}
