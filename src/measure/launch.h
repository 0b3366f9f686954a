/* Self-launch for commfit measure: tells from the environment whether an MPI launcher
 * started this process (before MPI_Init), and otherwise restarts it under one. */
#ifndef CF_LAUNCH_H
#define CF_LAUNCH_H

#include <stddef.h>

#include "base/error.h"

/* Set in the environment of the launcher commfit starts itself under, so that a launcher
 * whose environment commfit does not know cannot make it start itself again and again. */
#define CF_LAUNCH_MARK "COMMFIT_LAUNCHED"
/* Set beside it to the number of processes asked of the launcher: a launcher of another MPI
 * library than commfit-mpi's starts each process as an MPI job of one, which checks it. */
#define CF_LAUNCH_NP_ENV "COMMFIT_LAUNCH_NP"
/* Set beside them when the plain run warned before the launch that its ranks crowd this
 * node (cf_launch_check_crowding): rank 0 does not warn of it again once they started. */
#define CF_LAUNCH_CROWDED_ENV "COMMFIT_LAUNCH_CROWDED"

typedef struct cf_launch_env {
    int under;      /* 1 when an MPI launcher started this process */
    const char *by; /* which environment said so: "hydra", "openmpi", "pmix", "slurm", ... */
    long rank;      /* this process's rank, -1 when the environment does not say */
    long size;      /* the launch size, -1 when the environment does not say */
} cf_launch_env;

/* Reads the variables launchers set: PMI_RANK/PMI_SIZE (MPICH hydra, Intel MPI),
 * OMPI_COMM_WORLD_RANK/SIZE (Open MPI), PMIX_RANK (PMIx launchers), SLURM_PROCID with
 * SLURM_STEP_ID and SLURM_STEP_NUM_TASKS (a task of srun, not a batch script), and the
 * mark commfit sets itself. commfit-smpi (built with -DCF_SMPI) is always under SimGrid's
 * smpirun ("smpi", the size from SMPI_GLOBAL_SIZE). */
void cf_launch_detect(cf_launch_env *env);

/* The number of online cores of this node, at least 1. */
long cf_launch_cores(void);

/* More ranks a core than a plain run starts on this node without --oversubscribe: beyond
 * it a request is taken for a cluster's size, not a deliberate oversubscription. */
#define CF_LAUNCH_RANKS_PER_CORE_MAX 8

/* Whether something sends the ranks of a plain run's launch beyond this node: launcher
 * words that name hosts (-f, -hosts, --hostfile, --host, -H, ...), a launcher that asks a
 * resource manager (srun, aprun, jsrun, ibrun, flux), a launcher's default hostfile in the
 * environment (HYDRA_HOST_FILE, ...), or a batch allocation of more than one node (Slurm,
 * PBS, LSF, Grid Engine, Cobalt). 1 with what in buf ("the launcher's '-f'"), else 0. */
int cf_launch_placed_elsewhere(const char *launcher, char *buf, size_t n);

/* Before a plain run starts n ranks under launcher, on a node of `cores`: when nothing
 * sends them elsewhere and n > cores, a warning into warn (else warn is ""), or, beyond
 * CF_LAUNCH_RANKS_PER_CORE_MAX a core and without force (--oversubscribe), a usage error
 * that says what to do instead. force also drops the warning: the ranks still warn and
 * record the oversubscription. */
int cf_launch_check_crowding(long n, long cores, const char *launcher, int force, char *warn,
                             size_t nwarn, cf_error *e);

/* The command that restarts commfit measure: the launcher's words (split on spaces),
 * "-n", N, exe, "measure", then args[0..nargs-1]. *out is a NULL-terminated, malloc'd
 * array (free it with cf_launch_argv_free). */
int cf_launch_argv(const char *launcher, long n, const char *exe, int nargs, char *const *args,
                   char ***out, cf_error *e);
void cf_launch_argv_free(char **argv);

/* Set by commfit before it execs commfit-mpi (src/mpi-exec.h): the program the user ran,
 * which a self-launch starts again. */
#define CF_LAUNCH_EXE_ENV "COMMFIT_EXE"

/* The absolute path of the program the user ran, malloc'd; NULL on failure: $COMMFIT_EXE
 * when set, else the running program (/proc/self/exe). */
char *cf_launch_self_exe(void);

/* Sets the mark and replaces this process by argv (searched on PATH). Returns only on
 * failure, with e filled. */
int cf_launch_exec(char *const *argv, cf_error *e);

/* The environment a self-launch of n ranks on a node of `cores` gives its launcher, for
 * the MPI library commfit-mpi is built with (configure's CF_MPI_LIBRARY). Open MPI's
 * launcher refuses more ranks than cores, where MPICH's runs them (commfit warns and
 * records it), and restates every rank's non-zero exit after commfit's own message:
 * oversubscription is allowed when n > cores, and the launcher kept quiet. Variables the
 * user set are kept. */
void cf_launch_prepare_env(long n, long cores);

/* Sets the mark, runs argv (searched on PATH) and waits for it. The status is 1 when a
 * SIGINT, SIGTERM or SIGHUP asked the run to stop (*stopped then set; one sent to this
 * process alone is passed on to the launcher), whatever the launcher's own status; else
 * the launcher's exit status. e is filled when it could not start or died of a signal.
 * whole_group: the launcher runs in a process group of its own and a stop goes to the
 * whole group as SIGTERM (SimGrid's smpirun is a shell script that would die alone and
 * leave the simulation running). */
int cf_launch_run(char *const *argv, int whole_group, int *stopped, cf_error *e);
/* The same, the launcher's standard output on the standard error where stdout_to_err. */
int cf_launch_run_to(char *const *argv, int whole_group, int stdout_to_err, int *stopped,
                     cf_error *e);

/* How this launch was started, for the table's launcher metadata, into buf: the command a
 * plain run started (its launcher's words and size, which it names in the environment as
 * CF_LAUNCHER_CMD_ENV), else the launcher the environment shows (cf_launch_detect). */
#define CF_LAUNCHER_CMD_ENV "COMMFIT_LAUNCHER_CMD"
/* measure --simulate: the process id of the commfit that started smpirun. The simulated
 * ranks stop as a signal stops them once it is gone (killed with SIGKILL, which it cannot
 * pass on: smpirun's simulator ran the plan to its end, holding the table's lock). */
#define CF_FRONT_PID_ENV "COMMFIT_FRONT_PID"
/* measure --simulate -o -: the descriptor, inherited by the simulated ranks, that is the
 * standard output the table goes to; smpirun's own standard output goes to the standard
 * error (its "Execution failed with code 134." on a failed run sat in the table's stream,
 * a file of one line that was no table). Unset: the table goes to the standard output. */
#define CF_TABLE_FD_ENV "COMMFIT_TABLE_FD"
/* The descriptor a table written to '-' goes to: CF_TABLE_FD_ENV's where it names an open
 * one, else the standard output. */
int cf_launch_table_fd(void);
void cf_launch_describe(char *buf, size_t n);

/* What rank 0 of a launch this process started tells it back: the table it began and how
 * it ended, through a file the front names in the environment. A launcher's own status says
 * neither (a rank killed: 9; MPICH's launcher failing: 255; a launcher that starts nothing:
 * 0). */
#define CF_LAUNCH_REPORT_ENV "COMMFIT_LAUNCH_REPORT"
typedef struct cf_launch_said {
    int ended;        /* rank 0 reached its end */
    int status;       /* with the status it said there (0: every point measured) */
    char table[4096]; /* the table it began ("-": standard output; "" none) */
    char point[256];  /* the last point rank 0 began ("alltoall np=128 bytes=4096"; "" none,
                         "-" once its row was written) */
} cf_launch_said;
/* Rank 0: "KEY VALUE" as a line of the file the launching commfit named; nothing where it
 * named none, or where the file is not there (a rank on another node): never created. */
void cf_launch_report(const char *key, const char *value);
/* Rank 0 at its end, with its status: "end STATUS" (cf_launch_report). */
void cf_launch_report_end(int status);
/* The front: a file for rank 0 to report into, named in the environment; its path (for
 * cf_launch_report_done), NULL where none could be made (the launch goes on without). */
char *cf_launch_report_open(void);
/* Reads what was reported into *said, removes the file and frees path (NULL: nothing was
 * asked; *said zeroed). */
void cf_launch_report_done(char *path, cf_launch_said *said);

#endif
