/* The subcommands: one file each (src/cmd-NAME.c), listed in one sorted table. */
#ifndef CF_COMMANDS_H
#define CF_COMMANDS_H

enum {
    CF_CMD_MPI = 1, /* runs in commfit-mpi (src/commfit-mpi.c), which links MPI */
};

typedef struct cf_command {
    const char *name;
    int (*run)(int argc, char **argv);
    unsigned flags;
    const char *summary;
} cf_command;

int cmd_export(int argc, char **argv);
int cmd_fit(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_measure(int argc, char **argv); /* in commfit-mpi only */
/* In commfit: hands measure over to commfit-mpi (src/commfit.c). */
int cmd_measure_front(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_report(int argc, char **argv);

extern const cf_command cf_commands[];
extern const int cf_ncommands;
const cf_command *cf_command_find(const char *name);

#endif
