/* commfit fit: not part of this version yet; says so plainly. */
#include "config.h"

#include "cli.h"
#include "commands.h"

static const char help[] =
    "Usage: commfit fit [OPTIONS]\n"
    "\n"
    "Fits cost models (linear, poly2, piecewise, loggp, auto) to timing tables.\n"
    "This subcommand is not available in this version of commfit yet.\n"
    "\n"
    "Options:\n"
    "  -h, --help  print this help and exit\n";

int cmd_fit(int argc, char **argv)
{
    return cf_cli_unavailable(argc, argv, help);
}
