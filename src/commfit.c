/* commfit: parses the global options and hands over to a subcommand. */
#include "config.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "error.h"

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
          "  -V, --version  print the version and exit\n"
          "\n"
          "'commfit help SUBCOMMAND' or 'commfit SUBCOMMAND --help' describes one subcommand.\n"
          "A typical session:\n"
          "  commfit measure          # timings into data/HOST-DATE.csv\n"
          "  commfit fit              # models into models/HOST-DATE.json\n"
          "  commfit predict --pattern alltoall --np 16 --bytes 1M\n"
          "  commfit report           # plots into report/HOST-DATE/\n",
          fp);
}

static int run(const cf_command *c, int argc, char **argv)
{
    cf_set_subcommand(c->name);
    return c->run(argc, argv);
}

int main(int argc, char **argv)
{
    /* GSL's default handler aborts; every GSL status is checked instead. */
    gsl_set_error_handler_off();

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
        printf("commfit %s\n", PACKAGE_VERSION);
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
