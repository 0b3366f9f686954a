/* commfit measure: checks the options, starts itself under the MPI launcher when run
 * plainly, and otherwise measures, with rank 0 writing the timing table. */
#include "config.h"

#include <getopt.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "base/error.h"
#include "measure/launch.h"
#include "measure/measure.h"
#include "base/size.h"

/* Set by a self-launch whose stderr is a terminal: the ranks' stderr is a pipe. */
#define CF_PROGRESS_ENV "COMMFIT_PROGRESS"

static const char help[] =
    "Usage: commfit measure [OPTIONS]\n"
    "\n"
    "Runs MPI micro-benchmarks over message sizes and process counts and writes a timing\n"
    "table. Run plainly, it starts itself under the MPI launcher (" CF_MPIEXEC " -n N, N\n"
    "the cores of this node); under mpiexec or srun it measures directly.\n"
    "\n"
    "Options:\n"
    "      --patterns LIST  patterns to measure (default all,loggp,ddt), by name or by\n"
    "                       group: all (the 17 below, pingpong to barrier), loggp (the\n"
    "                       LogGP experiments loggp_os loggp_or loggp_gap), ddt (the\n"
    "                       derived-datatype rows); names: pingpong pingping sendrecv\n"
    "                       exchange bcast scatter scatterv gather gatherv allgather\n"
    "                       allgatherv reduce allreduce reduce_scatter alltoall\n"
    "                       alltoallv barrier loggp_os loggp_or loggp_gap\n"
    "      --sizes LIST     message sizes, increasing (default 0:4M): 1K,64K,1M or 0:4M\n"
    "      --np LIST        process counts (default 2,4,8,... and the launch size)\n"
    "      --blocks LIST    block counts of the derived datatypes (default 1,2,...,10,\n"
    "                       100,1000, where a size has that many floats)\n"
    "      --datatypes LIST derived-datatype rows to measure (default all): vector\n"
    "                       hvector indexed hindexed struct contiguous pack\n"
    "      --ddt-summary    after the run, print the gain of each datatype over pack\n"
    "      --reps N         calls per sample (default min(1000, 40 MiB / size))\n"
    "      --samples K      timed samples per point (default 5)\n"
    "      --max-time S     seconds a point may take at most (default 1)\n"
    "      --target-ci P    sample until the 95% confidence half-width is within P% of\n"
    "                       the median (3 to 100 samples, within --max-time)\n"
    "      --check          verify the data every pattern delivers\n"
    "      --off-cache      cycle through buffers larger than the last-level cache\n"
    "  -o, --output FILE    the table to write (default data/HOST-DATE.csv; '-' the\n"
    "                       standard output); locked while it is written\n"
    "      --resume FILE    continue an interrupted run, appending to FILE\n"
    "      --launcher CMD   the launcher for a plain run (default " CF_MPIEXEC ")\n"
    "      --progress       show progress on stderr even when it is not a terminal\n"
    "  -q, --quiet          no progress and no closing message (a stop by a signal is\n"
    "                       still said)\n"
    "  -h, --help           print this help and exit\n";

static const struct option longopts[] = {
    {"patterns", required_argument, NULL, 'P'}, {"sizes", required_argument, NULL, 'S'},
    {"np", required_argument, NULL, 'N'},
    {"blocks", required_argument, NULL, 'B'},
    {"datatypes", required_argument, NULL, 'D'},
    {"ddt-summary", no_argument, NULL, 'G'},       {"reps", required_argument, NULL, 'R'},
    {"samples", required_argument, NULL, 'K'},  {"max-time", required_argument, NULL, 'T'},
    {"target-ci", required_argument, NULL, 'C'}, {"check", no_argument, NULL, 'c'},
    {"off-cache", no_argument, NULL, 'O'},      {"output", required_argument, NULL, 'o'},
    {"resume", required_argument, NULL, 'r'},   {"launcher", required_argument, NULL, 'L'},
    {"progress", no_argument, NULL, 'p'},       {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
};

static const char *long_name(int c)
{
    static char buf[32];
    for (const struct option *o = longopts; o->name != NULL; o++) {
        if (o->val == c) {
            snprintf(buf, sizeof buf, "--%s", o->name);
            return buf;
        }
    }
    return "";
}

/* The command line for the metadata, quoted where a shell would need it. */
static char *command_line(int argc, char **argv)
{
    size_t n = 32;
    for (int i = 0; i < argc; i++)
        n += 4 * strlen(argv[i]) + 3;
    char *s = malloc(n), *p = s;
    if (s == NULL)
        return NULL;
    p += sprintf(p, "commfit");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int plain = *a != '\0' && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789_,.:/=+-@%") == strlen(a);
        *p++ = ' ';
        if (plain) {
            p += sprintf(p, "%s", a);
            continue;
        }
        *p++ = '\'';
        for (; *a; a++) {
            if (*a == '\'')
                p += sprintf(p, "'\\''");
            else
                *p++ = *a;
        }
        *p++ = '\'';
    }
    *p = '\0';
    return s;
}

static int progress_width;

static void show_progress(const cf_point *pt, size_t done, size_t total, double elapsed_s,
                          double left_s)
{
    char size[32], left[32] = "?";
    cf_size_format(pt->bytes, size, sizeof size);
    if (left_s >= 0)
        snprintf(left, sizeof left, "%.0fs", left_s);
    char what[64];
    if (pt->ddt != NULL)
        snprintf(what, sizeof what, "%s %s %ld blocks", pt->pat->name,
                 cf_ddt_kind_name(pt->ddt->kind), pt->ddt->blocks);
    else
        snprintf(what, sizeof what, "%s", pt->pat->name);
    int n = fprintf(stderr, "\rcommfit: measure: %s np=%d %s  [%zu/%zu]  %.0fs elapsed, ~%s left",
                    what, pt->np, size, done + 1, total, elapsed_s, left);
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

static void on_signal(int sig)
{
    (void)sig;
    cf_measure_request_stop();
}

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
    static char errbuf[4096];
    setvbuf(stderr, errbuf, _IOLBF, sizeof errbuf);
    int rank = 0, size = 1, rc;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* The launch size is certain only now; the same check gives the same answer on every
     * rank, so they all stop together, before any traffic. */
    if ((rc = cf_measure_opts_check(o, size, &e)) != 0) {
        refuse(&e, rank == 0);
        MPI_Finalize();
        return rc;
    }
    if (!o->quiet && (o->progress || getenv(CF_PROGRESS_ENV) != NULL || isatty(2)))
        o->progress = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

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
    MPI_Finalize();
    return rc;
}

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
    int rc = 0, c;

    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+:ho:q", longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(help, stdout);
            cf_measure_opts_free(&o);
            return CF_EXIT_OK;
        case 'o':
            rc = cf_measure_set(&o, "--output", optarg, &e);
            break;
        case 'q':
            rc = cf_measure_set(&o, "--quiet", NULL, &e);
            break;
        case ':':
            rc = cf_error_set(&e, CF_EXIT_USAGE, NULL, 0, "option '%s' needs a value",
                              argv[optind - 1]);
            break;
        case '?':
            if (optopt != 0)
                rc = cf_error_set(&e, CF_EXIT_USAGE, NULL, 0, "unknown option '-%c'", optopt);
            else
                rc = cf_error_set(&e, CF_EXIT_USAGE, NULL, 0, "unknown option '%s'",
                                  argv[optind - 1]);
            break;
        default:
            rc = cf_measure_set(&o, long_name(c), optarg, &e);
            break;
        }
        if (rc != 0)
            goto fail;
    }
    if (optind < argc) {
        rc = cf_error_set(&e, CF_EXIT_USAGE, NULL, 0, "unexpected argument '%s'", argv[optind]);
        goto fail;
    }
    if (o.resume != NULL && (rc = cf_measure_resume_load(&o, &e)) != 0)
        goto fail;
    long launch = env.under && env.size > 0 ? env.size : 0;
    if ((rc = cf_measure_opts_check(&o, launch, &e)) != 0)
        goto fail;

    if (env.under) {
        rc = measure_under_launcher(&o, argc, argv);
        cf_measure_opts_free(&o);
        return rc;
    }

    /* A plain run: check against the launch it will start, then run that launch. */
    long n = cf_measure_launch_size(&o, cf_launch_cores());
    if ((rc = cf_measure_opts_check(&o, n, &e)) != 0)
        goto fail;
    char *exe = cf_launch_self_exe();
    if (exe == NULL) {
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "cannot find the commfit program (/proc/self/exe)");
        goto fail;
    }
    char **largv = NULL;
    rc = cf_launch_argv(o.launcher ? o.launcher : CF_MPIEXEC, n, exe, argc - 1, argv + 1, &largv,
                        &e);
    free(exe);
    if (rc != 0)
        goto fail;
    if (!o.quiet && isatty(2))
        setenv(CF_PROGRESS_ENV, "1", 1);
    fflush(NULL);
    /* Run and waited for, not exec'd: a stop asked by a signal is status 1 whatever the
     * launcher's own status; the ranks said what was kept. */
    int stopped;
    rc = cf_launch_run(largv, &stopped, &e);
    cf_launch_argv_free(largv);
    if (e.code == 0) {
        cf_measure_opts_free(&o);
        return rc;
    }
fail:
    cf_measure_opts_free(&o);
    return refuse(&e, loud);
}
