/* commfit: parses the global options and hands over to a subcommand. */
#include "config.h"

#include <errno.h>
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "base/error.h"
#include "cf-revision.h"
#include "measure/launch.h"
#include "measure/mpi-exec.h"

static void usage(FILE *fp)
{
    fputs("Usage: commfit [--help] [--version] SUBCOMMAND [OPTIONS]\n"
          "\n"
          "Measure what MPI communication costs on this machine, fit cost models to the\n"
          "timings, and predict the cost of a pattern at any size and process count.\n"
          "\n"
          "Subcommands:\n",
          fp);
    for (int i = 0; i < cf_ncommands; i++)
        fprintf(fp, "  %-9s %s\n", cf_commands[i].name, cf_commands[i].summary);
    fputs("\n"
          "Options:\n"
          "  -h, --help     print this help and exit\n"
          "  -V, --version  print the version and source revision, the MPI library and the\n"
          "                 simulator, and exit\n"
          "\n"
          "'commfit help SUBCOMMAND' or 'commfit SUBCOMMAND --help' describes one subcommand.\n"
          "A typical session:\n"
          "  commfit measure          # timings into data/HOST-DATE.csv\n"
          "  commfit fit              # models into models/HOST-DATE.json\n"
          "  commfit predict --pattern alltoall --np 16 --bytes 1M\n"
          "  commfit report           # plots into report/HOST-DATE/\n",
          fp);
}

/* measure lives in commfit-mpi, so that commfit itself does not load the MPI library.
 * exec keeps the pid, environment and descriptors: under mpiexec or srun the rank stays
 * the process the launcher started. A plain run's self-launch starts commfit again (named
 * in COMMFIT_EXE), whose ranks exec commfit-mpi in turn. CF_BINDIR and CF_PKGLIBEXECDIR
 * come from make. */
int cmd_measure_front(int argc, char **argv)
{
    cf_error e;
    cf_error_clear(&e);
    /* This program, not one a parent commfit named: a self-launch starts it again. */
    unsetenv(CF_LAUNCH_EXE_ENV);
    char *self = cf_launch_self_exe();
    char *prog = cf_mpi_program_find(self, CF_BINDIR, CF_PKGLIBEXECDIR, &e);
    if (prog != NULL && self != NULL && setenv(CF_LAUNCH_EXE_ENV, self, 1) != 0)
        cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "cannot set %s", CF_LAUNCH_EXE_ENV);
    else if (prog != NULL)
        cf_mpi_exec(prog, argc, argv, &e);
    free(prog);
    free(self);
    return cf_error_report(&e);
}

static int run(const cf_command *c, int argc, char **argv)
{
    cf_set_subcommand(c->name);
    return c->run(argc, argv);
}

static int dispatch(int argc, char **argv);

/* What went to standard output must have got there: a help, a version or a formula written
 * to a full disk (/dev/full) exited 0 with nothing written. A subcommand that failed said
 * why already. */
int main(int argc, char **argv)
{
    /* GSL's default handler aborts; every GSL status is checked instead. */
    gsl_set_error_handler_off();
    int rc = dispatch(argc, argv);
    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == CF_EXIT_OK) {
        cf_error e;
        cf_error_clear(&e);
        cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "cannot write the standard output: %s",
                     errno != 0 ? strerror(errno) : "a write failed");
        rc = cf_error_report(&e);
    }
    return rc;
}

static int dispatch(int argc, char **argv)
{

    if (argc < 2) {
        usage(stderr);
        return CF_EXIT_USAGE;
    }
    const char *a = argv[1];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
        usage(stdout);
        return CF_EXIT_OK;
    }
    if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
        /* The first line alone is the version, with the source revision a measured table
         * records (commfit_revision), so that a table can be matched to the binary that
         * made it; the next say what the build measures with, so that two installed
         * builds (MPICH's, Open MPI's) can be told apart. */
#ifdef CF_HAVE_SMPI
        const char *sim = "SimGrid SMPI (launcher " CF_SMPIRUN ")";
#else
        const char *sim = "not built (" CF_SMPI_WHY ")";
#endif
        printf("commfit %s (revision %s)\nMPI library: %s %s (launcher %s)\nsimulation: %s\n",
               PACKAGE_VERSION, CF_REVISION, CF_MPI_LIBRARY, CF_MPI_LIBRARY_VERSION, CF_MPIEXEC,
               sim);
        return CF_EXIT_OK;
    }
    if (strcmp(a, "help") == 0) {
        if (argc == 2) {
            usage(stdout);
            return CF_EXIT_OK;
        }
        const cf_command *c = cf_command_find(argv[2]);
        if (c == NULL)
            return cf_usage_error("unknown subcommand '%s'", argv[2]);
        char *hargv[] = {argv[2], "--help", NULL};
        return run(c, 2, hargv);
    }
    if (a[0] == '-')
        return cf_usage_error("unknown option '%s'", a);
    const cf_command *c = cf_command_find(a);
    if (c == NULL)
        return cf_usage_error("unknown subcommand '%s'", a);
    return run(c, argc - 1, argv + 1);
}
