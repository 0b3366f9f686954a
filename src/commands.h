/* The subcommands: one file each (src/cmd-NAME.c), listed in one sorted table. */
#ifndef CF_COMMANDS_H
#define CF_COMMANDS_H

enum {
    CF_CMD_MPI = 1, /* initialises MPI (after its own option checks) */
};

typedef struct cf_command {
    const char *name;
    int (*run)(int argc, char **argv);
    unsigned flags;
    const char *summary;
} cf_command;

int cmd_fit(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_measure(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_report(int argc, char **argv);

extern const cf_command cf_commands[];
extern const int cf_ncommands;
const cf_command *cf_command_find(const char *name);

#endif
