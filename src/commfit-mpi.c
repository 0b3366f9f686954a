/* commfit-mpi: the MPI half of commfit (measure), started by commfit through exec with
 * the subcommand and its arguments, and by the launcher when measure starts itself. */
#include "config.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "base/error.h"

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    if (argc < 2 || strcmp(argv[1], "measure") != 0) {
        fputs("commfit-mpi: the MPI part of commfit, started by it: run 'commfit measure' "
              "instead\n",
              stderr);
        return CF_EXIT_USAGE;
    }
    cf_set_subcommand("measure");
    return cmd_measure(argc - 1, argv + 1);
}
