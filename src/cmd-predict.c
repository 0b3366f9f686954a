/* commfit predict: not part of this version yet; says so plainly. */
#include "config.h"

#include "cli.h"
#include "commands.h"

static const char help[] =
    "Usage: commfit predict [OPTIONS]\n"
    "\n"
    "Predicts the time of a pattern from a fitted model file.\n"
    "This subcommand is not available in this version of commfit yet.\n"
    "\n"
    "Options:\n"
    "  -h, --help  print this help and exit\n";

int cmd_predict(int argc, char **argv)
{
    return cf_cli_unavailable(argc, argv, help);
}
