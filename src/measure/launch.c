/* Self-launch: launcher detection by environment, and the exec of $MPIEXEC -n N. */
#include "config.h"

#include "measure/launch.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* A non-negative integer from the environment, or -1 when unset or not a number. */
static long env_long(const char *name)
{
    const char *s = getenv(name);
    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return (*end != '\0' || errno != 0) ? -1 : v;
}

static int env_set(const char *name)
{
    const char *s = getenv(name);
    return s != NULL && *s != '\0';
}

void cf_launch_detect(cf_launch_env *env)
{
    env->under = 1;
    env->rank = -1;
    env->size = -1;
#ifdef CF_SMPI
    /* commfit-smpi runs only inside smpirun's simulator, which sets no PMI variable: every
     * rank is a thread of one process, and the environment is the simulator's. */
    env->by = "smpi";
    env->size = env_long("SMPI_GLOBAL_SIZE");
    return;
#endif
    if (env_set("PMI_RANK") && env_set("PMI_SIZE")) {
        env->by = "hydra";
        env->rank = env_long("PMI_RANK");
        env->size = env_long("PMI_SIZE");
    } else if (env_set("OMPI_COMM_WORLD_SIZE")) {
        env->by = "openmpi";
        env->rank = env_long("OMPI_COMM_WORLD_RANK");
        env->size = env_long("OMPI_COMM_WORLD_SIZE");
    } else if (env_set("PMIX_RANK")) {
        env->by = "pmix";
        env->rank = env_long("PMIX_RANK");
    } else if (env_set("SLURM_PROCID") && env_set("SLURM_STEP_ID") &&
               env_set("SLURM_STEP_NUM_TASKS")) {
        /* A batch script has SLURM_PROCID too, but it is not a task of a job step. */
        env->by = "slurm";
        env->rank = env_long("SLURM_PROCID");
        env->size = env_long("SLURM_STEP_NUM_TASKS");
    } else if (env_set(CF_LAUNCH_MARK)) {
        env->by = "commfit";
    } else {
        env->under = 0;
        env->by = "";
    }
}

long cf_launch_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

/* The next blank-separated word of *p, as a launcher is split into words: its start and
 * length (0 at the end), *p moved past it. */
static size_t next_word(const char **p, const char **start)
{
    while (**p == ' ')
        (*p)++;
    *start = *p;
    while (**p != '\0' && **p != ' ')
        (*p)++;
    return (size_t)(*p - *start);
}

static int word_is(const char *w, size_t len, const char *name)
{
    return strlen(name) == len && strncmp(w, name, len) == 0;
}

/* Whether the word's last path component is name: srun for /usr/bin/srun. */
static int base_is(const char *w, size_t len, const char *name)
{
    const char *base = w;
    for (const char *q = w; q < w + len; q++)
        if (*q == '/')
            base = q + 1;
    return word_is(base, (size_t)(w + len - base), name);
}

int cf_launch_placed_elsewhere(const char *launcher, char *buf, size_t n)
{
    /* Options of MPICH's hydra, Intel MPI's and Open MPI's launchers that name hosts. */
    static const char *const host_opts[] = {"f",     "hostfile", "machinefile",     "hosts",
                                            "host",  "H",        "default-hostfile", "rankfile",
                                            "rf"};
    /* Launchers that take their nodes from a resource manager. */
    static const char *const managed[] = {"srun", "aprun", "jsrun", "ibrun", "flux"};
    /* A launcher's default hostfile, from the environment. */
    static const char *const host_envs[] = {"HYDRA_HOST_FILE", "I_MPI_HYDRA_HOST_FILE",
                                            "OMPI_MCA_orte_default_hostfile",
                                            "PRTE_MCA_prte_default_hostfile"};
    /* Batch systems' host lists, which MPICH's and Open MPI's launchers follow. */
    static const char *const batch_envs[] = {"PBS_NODEFILE", "LSB_DJOB_HOSTFILE", "PE_HOSTFILE",
                                             "COBALT_NODEFILE"};
    const char *p = launcher, *w;
    size_t len = next_word(&p, &w);
    /* The launcher after 'env' and its NAME=VALUE words (env OMP_NUM_THREADS=1 srun). */
    while (len > 0 && (base_is(w, len, "env") || (w[0] != '-' && memchr(w, '=', len) != NULL)))
        len = next_word(&p, &w);
    for (size_t i = 0; len > 0 && i < sizeof managed / sizeof managed[0]; i++)
        if (base_is(w, len, managed[i])) {
            snprintf(buf, n, "the launcher '%s'", managed[i]);
            return 1;
        }
    while ((len = next_word(&p, &w)) > 0) {
        size_t dashes = len > 1 && w[0] == '-' ? (len > 2 && w[1] == '-' ? 2 : 1) : 0;
        if (dashes == 0)
            continue;
        const char *name = w + dashes, *eq = memchr(name, '=', len - dashes);
        size_t nlen = eq ? (size_t)(eq - name) : len - dashes;
        for (size_t i = 0; i < sizeof host_opts / sizeof host_opts[0]; i++)
            if (word_is(name, nlen, host_opts[i])) {
                snprintf(buf, n, "the launcher's '%.*s'", (int)(dashes + nlen), w);
                return 1;
            }
    }
    for (size_t i = 0; i < sizeof host_envs / sizeof host_envs[0]; i++)
        if (env_set(host_envs[i])) {
            snprintf(buf, n, "%s", host_envs[i]);
            return 1;
        }
    /* An allocation of one node is this node: its ranks stay here. */
    long nodes = env_long("SLURM_JOB_NUM_NODES");
    if (env_set("SLURM_JOB_ID") && nodes != 1) {
        snprintf(buf, n, "a Slurm allocation (SLURM_JOB_ID)");
        return 1;
    }
    for (size_t i = 0; i < sizeof batch_envs / sizeof batch_envs[0]; i++)
        if (env_set(batch_envs[i])) {
            snprintf(buf, n, "a batch allocation (%s)", batch_envs[i]);
            return 1;
        }
    return 0;
}

/* The build's launcher given a hostfile, as its MPI library spells it, by its own name
 * (mpiexec.mpich -f HOSTFILE, mpiexec.openmpi --hostfile HOSTFILE): a new user's Open MPI
 * build was told 'mpiexec -f HOSTFILE', which its mpiexec refuses, and plain mpiexec may be
 * the other library's (the second review). Into buf (n bytes). */
static const char *mpiexec_hosts(char *buf, size_t n)
{
    /* its program's name: the first word (MPIEXEC may hold arguments), past its folder */
    const char *cmd = CF_MPIEXEC, *end = cmd + strcspn(cmd, " \t"), *name = cmd;
    for (const char *p = cmd; p < end; p++)
        if (*p == '/')
            name = p + 1;
    snprintf(buf, n, "%.*s %s HOSTFILE", (int)(end - name), name,
             strcmp(CF_MPI_LIBRARY, "openmpi") == 0 ? "--hostfile" : "-f");
    return buf;
}

int cf_launch_check_crowding(long n, long cores, const char *launcher, int force, char *warn,
                             size_t nwarn, cf_error *e)
{
    char where[128], hosts[160];
    mpiexec_hosts(hosts, sizeof hosts);
    if (nwarn > 0)
        warn[0] = '\0';
    if (n <= cores || force || cf_launch_placed_elsewhere(launcher, where, sizeof where))
        return 0;
    if (n > cores * CF_LAUNCH_RANKS_PER_CORE_MAX)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "%ld ranks would all start on this node, which has %ld core%s (at "
                            "most %d a core without --oversubscribe): to measure a cluster, run "
                            "under your launcher with its hosts (%s -n %ld commfit measure ..., "
                            "srun -n %ld commfit measure ...) or name them in --launcher ('%s'); "
                            "--oversubscribe starts them here anyway",
                            n, cores, cores == 1 ? "" : "s", CF_LAUNCH_RANKS_PER_CORE_MAX,
                            hosts, n, n, hosts);
    snprintf(warn, nwarn,
             "starting %ld ranks on this node, which has %ld core%s: the timings will measure "
             "the scheduler too (oversubscribed); to spread them over nodes, name the hosts in "
             "--launcher ('%s') or run under your launcher",
             n, cores, cores == 1 ? "" : "s", hosts);
    return 0;
}

void cf_launch_argv_free(char **argv)
{
    if (argv == NULL)
        return;
    for (char **p = argv; *p != NULL; p++)
        free(*p);
    free(argv);
}

int cf_launch_argv(const char *launcher, long n, const char *exe, int nargs, char *const *args,
                   char ***out, cf_error *e)
{
    size_t words = 0;
    const char *p = launcher, *w;
    while (next_word(&p, &w) > 0)
        words++;
    if (words == 0)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--launcher '%s': expected a command such as 'mpiexec'", launcher);
    char **v = calloc(words + 5 + (size_t)nargs, sizeof *v);
    if (v == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    size_t k = 0, len;
    for (p = launcher; (len = next_word(&p, &w)) > 0;)
        if ((v[k++] = strndup(w, len)) == NULL)
            goto oom;
    char nbuf[32];
    snprintf(nbuf, sizeof nbuf, "%ld", n);
    const char *tail[] = {"-n", nbuf, exe, "measure"};
    for (size_t i = 0; i < 4; i++)
        if ((v[k++] = strdup(tail[i])) == NULL)
            goto oom;
    for (int i = 0; i < nargs; i++)
        if ((v[k++] = strdup(args[i])) == NULL)
            goto oom;
    v[k] = NULL;
    *out = v;
    return 0;
oom:
    cf_launch_argv_free(v);
    return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
}

char *cf_launch_self_exe(void)
{
    const char *front = getenv(CF_LAUNCH_EXE_ENV);
    if (front != NULL && *front == '/')
        return strdup(front);
    char buf[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (len <= 0)
        return NULL;
    buf[len] = '\0';
    return strdup(buf);
}

void cf_launch_prepare_env(long n, long cores)
{
    if (strcmp(CF_MPI_LIBRARY, "openmpi") != 0)
        return;
    setenv("OMPI_MCA_orte_execute_quiet", "1", 0);
    if (n > cores)
        setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 0);
}

int cf_launch_exec(char *const *argv, cf_error *e)
{
    if (setenv(CF_LAUNCH_MARK, "1", 1) != 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot set %s: %s", CF_LAUNCH_MARK,
                            strerror(errno));
    execvp(argv[0], argv);
    int err = errno;
    unsetenv(CF_LAUNCH_MARK);
    return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot start the launcher '%s': %s", argv[0],
                        strerror(err));
}

/* The launcher started by cf_launch_run, and the first signal that asked the run to stop. */
static volatile sig_atomic_t run_child;
static volatile sig_atomic_t run_stopped;
static volatile sig_atomic_t run_own_group;   /* the launcher has a process group of its own */
static volatile sig_atomic_t run_forward;     /* the signal a stop is passed on as */
static volatile sig_atomic_t run_whole_group; /* passed on to the launcher's whole group */

static void on_stop(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    if (run_stopped == 0)
        run_stopped = sig;
    /* Every signal reaches the launcher once: a launcher in a group of its own gets each
     * one from here. One in this terminal's foreground group already got a Ctrl-C from
     * the terminal (a second would make MPICH's launcher abort the ranks before they
     * say what they kept), and gets from here only what was sent with kill. It is passed
     * on as SIGTERM, which the ranks take as they take SIGINT: on SIGINT, MPICH's
     * launcher lost rank 0's closing message in 2 runs of 6 here, on SIGTERM in none of 8.
     * Open MPI's launcher ends the ranks at once on SIGTERM, but hands SIGUSR1 on to them,
     * which they take as a stop too. */
    if (run_child > 0 && (run_own_group || (info != NULL && info->si_code <= 0)))
        kill(run_whole_group ? -(pid_t)run_child : (pid_t)run_child, run_forward);
}

int cf_launch_table_fd(void)
{
    const char *v = getenv(CF_TABLE_FD_ENV);
    char *end;
    long fd = v != NULL ? strtol(v, &end, 10) : -1;
    if (v == NULL || end == v || *end != '\0' || fd < 3 || fd > INT_MAX ||
        fcntl((int)fd, F_GETFD) < 0)
        return STDOUT_FILENO;
    return (int)fd;
}

int cf_launch_run(char *const *argv, int whole_group, int *stopped, cf_error *e)
{
    return cf_launch_run_to(argv, whole_group, 0, stopped, e);
}

int cf_launch_run_to(char *const *argv, int whole_group, int stdout_to_err, int *stopped,
                     cf_error *e)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa, old[3];
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_stop;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    run_stopped = 0;
    run_child = 0;
    run_forward = strcmp(CF_MPI_LIBRARY, "openmpi") == 0 && !whole_group ? SIGUSR1 : SIGTERM;
    run_whole_group = whole_group != 0;
    *stopped = 0;
    if (setenv(CF_LAUNCH_MARK, "1", 1) != 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot set %s: %s", CF_LAUNCH_MARK,
                            strerror(errno));
    /* The child tells a failed exec through a pipe that a successful one closes. */
    int fds[2];
    if (pipe(fds) != 0) {
        int err = errno;
        unsetenv(CF_LAUNCH_MARK);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot start the launcher: %s",
                            strerror(err));
    }
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    /* The launcher's standard input: a pipe this process holds open and never writes. No
     * rank reads its input, but MPICH's launcher forwards its own to rank 0: from /dev/null
     * (a batch job's) it forwards the end of input at once, and where rank 0 has already
     * exited (a rank that refuses its options) that write can fail: the launcher dies of
     * SIGPIPE or exits 255 with its own messages instead of the ranks' code (6 of 180 such
     * launches on a loaded machine here, 262 of 300 with input to forward; 0 with a source
     * that never ends). From a terminal it would read what the user types. */
    int in[2];
    if (pipe(in) != 0) {
        int err = errno;
        close(fds[0]);
        close(fds[1]);
        unsetenv(CF_LAUNCH_MARK);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot start the launcher: %s",
                            strerror(err));
    }
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    /* Away from a terminal's foreground, signals come with kill, often to a whole group
     * (timeout, batch systems): the launcher then gets a group of its own, so that it
     * hears each signal once, from here. */
    run_own_group = whole_group || !(isatty(0) && tcgetpgrp(0) == getpgrp());
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, &old[i]);
    pid_t pid = fork();
    if (pid == 0) {
        for (int i = 0; i < 3; i++)
            sigaction(sigs[i], &old[i], NULL);
        if (run_own_group) {
            setpgid(0, 0);
#ifdef __linux__
            /* Not left running if this process is killed outright. */
            prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
        }
        close(fds[0]);
        if (in[0] != 0) {
            dup2(in[0], 0);
            close(in[0]);
        }
        if (stdout_to_err)
            dup2(2, 1);
        execvp(argv[0], argv);
        int err = errno;
        ssize_t w = write(fds[1], &err, sizeof err);
        (void)w;
        _exit(127);
    }
    int rc = 0, err = 0;
    close(fds[1]);
    close(in[0]);
    if (pid < 0) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot start the launcher '%s': %s",
                          argv[0], strerror(errno));
    } else {
        if (run_own_group)
            setpgid(pid, pid);
        run_child = pid;
        ssize_t got;
        while ((got = read(fds[0], &err, sizeof err)) < 0 && errno == EINTR)
            ;
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        /* A stop kills a shell-script launcher at once; what it started finishes its point
         * and says what it kept: waited for until its group is empty, their input ended (no
         * one then waits on it). */
        if (run_whole_group && run_stopped != 0) {
            close(in[1]);
            in[1] = -1;
        }
        while (run_whole_group && run_stopped != 0 && kill(-pid, 0) == 0)
            usleep(20000);
        run_child = 0;
        if (got == (ssize_t)sizeof err)
            rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot start the launcher '%s': %s",
                              argv[0], strerror(err));
        else if (run_stopped != 0)
            rc = CF_EXIT_DATA; /* whatever the launcher says: the ranks told what was kept */
        else if (WIFEXITED(status))
            rc = WEXITSTATUS(status);
        else
            rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "the launcher '%s' ended by signal %d",
                              argv[0], WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    }
    close(fds[0]);
    if (in[1] >= 0)
        close(in[1]);
    *stopped = run_stopped != 0;
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &old[i], NULL);
    unsetenv(CF_LAUNCH_MARK);
    return rc;
}

void cf_launch_report(const char *key, const char *value)
{
    const char *path = getenv(CF_LAUNCH_REPORT_ENV);
    if (path == NULL || *path == '\0')
        return;
    int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0)
        return;
    char line[4200];
    int n = snprintf(line, sizeof line, "%s %s\n", key, value);
    if (n > 0 && (size_t)n < sizeof line) {
        ssize_t w = write(fd, line, (size_t)n);
        (void)w;
    }
    close(fd);
}

void cf_launch_report_end(int status)
{
    char s[16];
    snprintf(s, sizeof s, "%d", status);
    cf_launch_report("end", s);
}

char *cf_launch_report_open(void)
{
    const char *dir = getenv("TMPDIR");
    size_t n = (dir && *dir ? strlen(dir) : 4) + 32;
    char *path = malloc(n);
    if (path == NULL)
        return NULL;
    snprintf(path, n, "%s/commfit-launch.XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0 || setenv(CF_LAUNCH_REPORT_ENV, path, 1) != 0) {
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
        free(path);
        return NULL;
    }
    close(fd);
    return path;
}

void cf_launch_report_done(char *path, cf_launch_said *said)
{
    memset(said, 0, sizeof *said);
    if (path == NULL)
        return;
    unsetenv(CF_LAUNCH_REPORT_ENV);
    FILE *fp = fopen(path, "r");
    char line[4200];
    while (fp != NULL && fgets(line, sizeof line, fp) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "table ", 6) == 0) {
            size_t k = strnlen(line + 6, sizeof said->table - 1);
            memcpy(said->table, line + 6, k);
            said->table[k] = '\0';
        }
        else if (strncmp(line, "point ", 6) == 0) {
            size_t k = strnlen(line + 6, sizeof said->point - 1);
            memcpy(said->point, line + 6, k);
            said->point[k] = '\0';
        }
        else if (strncmp(line, "end ", 4) == 0) {
            said->ended = 1;
            said->status = atoi(line + 4);
        }
    }
    if (fp != NULL)
        fclose(fp);
    unlink(path);
    free(path);
}

void cf_launch_describe(char *buf, size_t n)
{
    const char *cmd = getenv(CF_LAUNCHER_CMD_ENV);
    if (cmd != NULL && *cmd != '\0') {
        snprintf(buf, n, "%s (started by commfit measure)", cmd);
        return;
    }
    cf_launch_env env;
    cf_launch_detect(&env);
    const char *what = !env.under                      ? "none (a single process)"
                       : strcmp(env.by, "hydra") == 0   ? "an MPICH-style launcher (PMI_RANK, PMI_SIZE)"
                       : strcmp(env.by, "openmpi") == 0 ? "Open MPI's launcher (OMPI_COMM_WORLD_*)"
                       : strcmp(env.by, "pmix") == 0    ? "a PMIx launcher (PMIX_RANK)"
                       : strcmp(env.by, "slurm") == 0   ? "srun (SLURM_PROCID, SLURM_STEP_*)"
                       : strcmp(env.by, "smpi") == 0    ? "SimGrid's smpirun"
                                                        : env.by;
    snprintf(buf, n, "%s", what);
}
