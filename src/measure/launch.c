/* Self-launch: launcher detection by environment, and the exec of $MPIEXEC -n N. */
#include "config.h"

#include "measure/launch.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    for (const char *p = launcher; *p;) {
        while (*p == ' ')
            p++;
        if (*p == '\0')
            break;
        words++;
        while (*p && *p != ' ')
            p++;
    }
    if (words == 0)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--launcher '%s': expected a command such as 'mpiexec'", launcher);
    char **v = calloc(words + 5 + (size_t)nargs, sizeof *v);
    if (v == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    size_t k = 0;
    for (const char *p = launcher; *p;) {
        while (*p == ' ')
            p++;
        if (*p == '\0')
            break;
        const char *start = p;
        while (*p && *p != ' ')
            p++;
        if ((v[k++] = strndup(start, (size_t)(p - start))) == NULL)
            goto oom;
    }
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
