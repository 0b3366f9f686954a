/* commfit report: not part of this version yet; says so plainly. */
#include "config.h"

#include "cli.h"
#include "commands.h"

static const char help[] =
    "Usage: commfit report [OPTIONS]\n"
    "\n"
    "Draws plots and an HTML page from a model file and its table.\n"
    "This subcommand is not available in this version of commfit yet.\n"
    "\n"
    "Options:\n"
    "  -h, --help  print this help and exit\n";

int cmd_report(int argc, char **argv)
{
    return cf_cli_unavailable(argc, argv, help);
}
