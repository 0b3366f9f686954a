/* The table of subcommands, sorted by name. */
#include "config.h"

#include "commands.h"

#include <string.h>

const cf_command cf_commands[] = {
    {"export", cmd_export, 0, "write a SimGrid platform that reproduces a model's ping-pong"},
    {"fit", cmd_fit, 0, "fit cost models to timing tables"},
    {"import", cmd_import, 0, "read IMB or OSU results into a timing table"},
    {"measure", cmd_measure_front, CF_CMD_MPI, "run MPI micro-benchmarks into a timing table"},
    {"predict", cmd_predict, 0, "predict the cost of a pattern from a model file"},
    {"report", cmd_report, 0, "draw plots and an HTML page from a model and its table"},
};
const int cf_ncommands = (int)(sizeof cf_commands / sizeof cf_commands[0]);

const cf_command *cf_command_find(const char *name)
{
    for (int i = 0; i < cf_ncommands; i++)
        if (strcmp(cf_commands[i].name, name) == 0)
            return &cf_commands[i];
    return 0;
}
