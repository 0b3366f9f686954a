/* commfit import: not part of this version yet; says so plainly. */
#include "config.h"

#include "cli.h"
#include "commands.h"

static const char help[] =
    "Usage: commfit import [OPTIONS]\n"
    "\n"
    "Reads Intel MPI Benchmarks or OSU Micro-Benchmarks results into a timing table.\n"
    "This subcommand is not available in this version of commfit yet.\n"
    "\n"
    "Options:\n"
    "  -h, --help  print this help and exit\n";

int cmd_import(int argc, char **argv)
{
    return cf_cli_unavailable(argc, argv, help);
}
