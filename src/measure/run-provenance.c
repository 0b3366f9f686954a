/* How a measured table was made, so that it can be trusted a year later on another machine:
 * the commfit revision, the MPI tuning environment, each host's processor, each rank's
 * binding, and when and how the run ended. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/sha256.h"
#include "cf-revision.h"
#include "measure/measure-int.h"
#include "measure/run-int.h"

#ifdef CF_SMPI
/* The duration is the simulation's wall time, which SMPI's clock_gettime (simulated time,
 * smpi_helpers.h) would not give. */
#undef clock_gettime
#endif

extern char **environ;

/* The variables that tune what an MPI library (or its transport: UCX, libfabric, PSM)
 * does. A simulation's library is SimGrid, which reads none of them: its own (SMPI_) are
 * recorded instead, its configuration being the platform and the command. */
#ifdef CF_SMPI
static const char *const env_prefixes[] = {"SMPI_"};
#else
static const char *const env_prefixes[] = {"UCX_",  "UCC_", "MPIR_CVAR_", "MPICH_", "OMPI_MCA_",
                                           "PMIX_MCA_", "I_MPI_", "FI_", "HCOLL_",  "PSM2_",
                                           "PSM3_", "MV2_"};
#endif

/* What the launchers themselves set in every rank's environment: addresses, session
 * folders, job and rank numbers, the host name (Open MPI's orte and ess, MPICH's Hydra,
 * smpirun's launch size, which launch_np says). They change with every run, rank or host
 * and tune nothing: recorded, they would hide what a user set. So do MPICH's compiler
 * wrapper's (MPICH_CC=clang, CI's distcheck, reached the ranks' list). */
static const char *const env_launcher_set[] = {
    "OMPI_MCA_orte_", "OMPI_MCA_ess_base_", "OMPI_MCA_initial_wdir=",
    "MPIR_CVAR_CH3_INTERFACE_HOSTNAME=", "SMPI_GLOBAL_SIZE=", "MPICH_CC=", "MPICH_CXX=",
    "MPICH_FC=", "MPICH_F77=", "MPICH_F90=", "MPICH_LD="};

/* Past this, mpi_env stops and mpi_env_omitted counts the rest: a table line holds 1 MiB. */
enum { ENV_MAX_BYTES = 256 * 1024 };

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int env_wanted(const char *kv)
{
    int want = 0;
    for (size_t i = 0; i < sizeof env_prefixes / sizeof *env_prefixes; i++)
        want |= starts_with(kv, env_prefixes[i]);
    for (size_t i = 0; want && i < sizeof env_launcher_set / sizeof *env_launcher_set; i++)
        want = !starts_with(kv, env_launcher_set[i]);
    return want && strchr(kv, '=') != NULL;
}

/* By the variables' names, then their values: NAME=VALUE strings compared whole would put
 * UCX_TLS0=... before UCX_TLS=... ('0' < '='). */
static int cmp_env(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    size_t nx = strcspn(x, "="), ny = strcspn(y, "=");
    int c = strncmp(x, y, nx < ny ? nx : ny);
    if (c == 0)
        c = (nx > ny) - (nx < ny);
    return c != 0 ? c : strcmp(x + nx, y + ny);
}

/* Text of a list whose items are apart by ';': a backslash, ';' and control characters
 * escaped (\\, \;, \n, \r, \t, \xHH), so that any value reads back whole, on one line. */
static int append_escaped(char **s, size_t *len, size_t *cap, const char *text)
{
    int bad = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && !bad; p++) {
        if (*p == '\\' || *p == ';')
            bad = cf_measure_appendf(s, len, cap, "\\%c", *p);
        else if (*p == '\n')
            bad = cf_measure_appendf(s, len, cap, "\\n");
        else if (*p == '\r')
            bad = cf_measure_appendf(s, len, cap, "\\r");
        else if (*p == '\t')
            bad = cf_measure_appendf(s, len, cap, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            bad = cf_measure_appendf(s, len, cap, "\\x%02x", *p);
        else
            bad = cf_measure_appendf(s, len, cap, "%c", *p);
    }
    return bad;
}

/* This process's tuning variables, sorted by name: NAME=VALUE;NAME=VALUE, or "none".
 * *omitted counts those past ENV_MAX_BYTES. 0, or -1 out of memory. */
static int env_text(char **out, long *omitted)
{
    size_t n = 0, len = 0, cap = 0;
    for (char **e = environ; e != NULL && *e != NULL; e++)
        n += env_wanted(*e);
    const char **v = malloc((n ? n : 1) * sizeof *v);
    if (v == NULL)
        return -1;
    n = 0;
    for (char **e = environ; e != NULL && *e != NULL; e++)
        if (env_wanted(*e))
            v[n++] = *e;
    qsort(v, n, sizeof *v, cmp_env);
    char *s = NULL;
    int bad = cf_measure_appendf(&s, &len, &cap, "%s", n ? "" : "none");
    *omitted = 0;
    for (size_t i = 0; i < n && !bad; i++) {
        if (len > ENV_MAX_BYTES) {
            *omitted = (long)(n - i);
            break;
        }
        bad = cf_measure_appendf(&s, &len, &cap, "%s", i ? ";" : "") ||
              append_escaped(&s, &len, &cap, v[i]);
    }
    free(v);
    if (bad) {
        free(s);
        return -1;
    }
    *out = s;
    return 0;
}

#ifndef CF_SMPI
/* The items of flags (n of them) that are set, as ranges: "0-3,8,10-11", or none. */
static int append_ranges(char **s, size_t *len, size_t *cap, const unsigned char *flags, size_t n)
{
    int bad = 0, any = 0;
    for (size_t i = 0; i < n && !bad; i++) {
        if (!flags[i])
            continue;
        size_t j = i;
        while (j + 1 < n && flags[j + 1])
            j++;
        bad = j == i ? cf_measure_appendf(s, len, cap, "%s%zu", any ? "," : "", i)
                     : cf_measure_appendf(s, len, cap, "%s%zu-%zu", any ? "," : "", i, j);
        any = 1;
        i = j;
    }
    return bad;
}
#endif

/* The first value of key in /proc/cpuinfo's text, spaces collapsed, into out. */
static int cpuinfo_value(const char *info, const char *key, char *out, size_t n)
{
    size_t kl = strlen(key);
    for (const char *line = info; line != NULL && *line; line = strchr(line, '\n')) {
        line += *line == '\n';
        if (strncmp(line, key, kl) != 0)
            continue;
        const char *p = line + kl;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != ':')
            continue;
        p++;
        size_t k = 0;
        for (; *p && *p != '\n' && k + 1 < n; p++) {
            int space = *p == ' ' || *p == '\t';
            if (space && (k == 0 || out[k - 1] == ' '))
                continue;
            out[k++] = space ? ' ' : *p;
        }
        while (k > 0 && out[k - 1] == ' ')
            k--;
        out[k] = '\0';
        if (k > 0)
            return 1;
    }
    return 0;
}

/* This machine's processor, as /proc/cpuinfo names it: x86's and some ARM's "model name",
 * older ARM's "Processor", POWER's "cpu", RISC-V's "uarch". 64-bit ARM's kernels give the
 * vendor and part numbers only (as "arm implementer 0x41 part 0xd0c"); without any of
 * these, the architecture (uname) after "unknown". */
static void cpu_model(char *out, size_t n)
{
    static const char *const keys[] = {"model name", "Processor", "cpu model", "cpu", "uarch"};
    char info[65536], part[64];
    size_t got = 0;
    FILE *fp = fopen("/proc/cpuinfo", "r");
    if (fp != NULL) {
        got = fread(info, 1, sizeof info - 1, fp);
        fclose(fp);
    }
    info[got] = '\0';
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (cpuinfo_value(info, keys[i], out, n))
            return;
    if (cpuinfo_value(info, "CPU implementer", out, n) && cpuinfo_value(info, "CPU part", part,
                                                                          sizeof part)) {
        char impl[64];
        snprintf(impl, sizeof impl, "%s", out);
        snprintf(out, n, "arm implementer %s part %s", impl, part);
        return;
    }
    struct utsname u;
    snprintf(out, n, "unknown (%s)", uname(&u) == 0 ? u.machine : "no uname");
}

#ifndef CF_SMPI
/* The processors this rank may run on (sched_getaffinity) as ranges, or "unknown". */
static int affinity_text(char **s, size_t *len, size_t *cap)
{
#ifdef HAVE_SCHED_GETAFFINITY
    /* The set's size grows until the kernel's fits: EINVAL says it is too small. */
    for (size_t ncpu = 1024; ncpu <= ((size_t)1 << 20); ncpu *= 2) {
        cpu_set_t *set = CPU_ALLOC(ncpu);
        if (set == NULL)
            return -1;
        size_t size = CPU_ALLOC_SIZE(ncpu);
        if (sched_getaffinity(0, size, set) == 0) {
            unsigned char *flags = calloc(ncpu, 1);
            int bad = flags == NULL;
            for (size_t c = 0; c < ncpu && !bad; c++)
                flags[c] = CPU_ISSET_S(c, size, set) != 0;
            size_t before = *len;
            if (!bad)
                bad = append_ranges(s, len, cap, flags, ncpu);
            if (!bad && *len == before)
                bad = cf_measure_appendf(s, len, cap, "none");
            free(flags);
            CPU_FREE(set);
            return bad ? -1 : 0;
        }
        CPU_FREE(set);
        if (errno != EINVAL)
            break;
    }
#endif
    return cf_measure_appendf(s, len, cap, "unknown");
}
#endif

int cf_run_cpu_record(char **s, size_t *len, size_t *cap)
{
#ifdef CF_SMPI
    return cf_measure_appendf(s, len, cap, "%c%c", 0, 0);
#else
    char model[256];
    cpu_model(model, sizeof model);
    if (cf_measure_appendf(s, len, cap, "%s%c", model, 0) != 0 || affinity_text(s, len, cap) != 0)
        return -1;
    return cf_measure_appendf(s, len, cap, "%c", 0);
#endif
}

int cf_run_revision_metadata(cf_run_state *R)
{
    return cf_table_meta_set(R->t, "commfit_revision", CF_REVISION) != 0 ? -1 : 0;
}

#ifndef CF_SMPI
/* Every rank: whose tuning variables differ from rank 0's (their digests compared), into
 * mpi_env_differs on rank 0. */
static int env_differs(cf_run_state *R, const char *env, int *bad)
{
    cf_sha256 h;
    char mine[65], root[65];
    cf_sha256_init(&h);
    cf_sha256_update(&h, env, strlen(env));
    cf_sha256_hex(&h, mine);
    memcpy(root, mine, sizeof root);
    RUN_CALL(MPI_Bcast, (root, (int)sizeof root, MPI_CHAR, 0, MPI_COMM_WORLD), NULL);
    unsigned char differs = strcmp(mine, root) != 0, *all = NULL;
    /* Without room on rank 0 the others send nothing, and none is left waiting. */
    int room = R->rank != 0 || (all = malloc((size_t)R->size)) != NULL;
    RUN_CALL(MPI_Bcast, (&room, 1, MPI_INT, 0, MPI_COMM_WORLD), NULL);
    if (!room) {
        *bad = 1;
        return 0;
    }
    RUN_CALL(MPI_Gather,
             (&differs, 1, MPI_UNSIGNED_CHAR, all, 1, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD), NULL);
    if (R->rank != 0)
        return 0;
    char *s = NULL;
    size_t len = 0, cap = 0;
    *bad |= append_ranges(&s, &len, &cap, all, (size_t)R->size);
    if (!*bad)
        *bad |= cf_table_meta_set(R->t, "mpi_env_differs", s ? s : "none") != 0;
    free(s);
    free(all);
    return 0;
}

/* Rank 0: each host's processor (cpu_model, in the order of hosts:, as the host's first
 * rank read it) and each rank's processors (rank_cpus), from cf_run_host_metadata's gather.
 * 0, or -1 out of memory. */
static int host_cpus(cf_run_state *R)
{
    const cf_run_place *p = R->places;
    char *models = NULL, *cpus = NULL, *one = NULL;
    size_t ml = 0, mc = 0, cl = 0, cc = 0, ol = 0, oc = 0;
    int bad = 0, same = 1;
    for (int r = 0, run = 1; r < R->size && !bad; r++) {
        /* In runs: "0-127*128" for a node's ranks that may all run anywhere on it. */
        if (r + 1 < R->size && strcmp(p[r + 1].cpus, p[r].cpus) == 0)
            run++;
        else {
            bad |= cf_measure_append_run(&cpus, &cl, &cc, p[r].cpus, run);
            run = 1;
        }
        if (!p[r].first)
            continue;
        bad |= cf_measure_appendf(&models, &ml, &mc, "%s", r ? ";" : "") ||
               append_escaped(&models, &ml, &mc, p[r].model);
        same &= strcmp(p[0].model, p[r].model) == 0;
    }
    /* One model for all the hosts when they agree: a thousand nodes of one kind. */
    if (!bad && same)
        bad |= append_escaped(&one, &ol, &oc, p[0].model);
    if (!bad)
        bad |= cf_table_meta_set(R->t, "cpu_model", same ? one : models) != 0 ||
               cf_table_meta_set(R->t, "rank_cpus", cpus) != 0;
    free(one);
    free(models);
    free(cpus);
    return bad ? -1 : 0;
}
#endif

int cf_run_provenance_metadata(cf_run_state *R)
{
    clock_gettime(CLOCK_MONOTONIC, &R->started);
    char *env = NULL;
    long omitted = 0;
    int bad = env_text(&env, &omitted) != 0;
    if (R->rank == 0 && env != NULL) {
        bad |= cf_table_meta_set(R->t, "mpi_env", env) != 0;
        if (omitted > 0) {
            char buf[32];
            snprintf(buf, sizeof buf, "%ld", omitted);
            bad |= cf_table_meta_set(R->t, "mpi_env_omitted", buf) != 0;
        }
    }
#ifdef CF_SMPI
    int rc = 0; /* every rank is a thread of this process, with its environment */
#else
    /* Every rank compares, even one without memory, which the others would wait for. */
    int rc = env_differs(R, env ? env : "", &bad);
#endif
    free(env);
    if (rc != 0)
        return -1;
#ifdef CF_SMPI
    /* Every rank is a thread of this process: the processor is the simulator's, not the
     * simulated hosts', and no rank is bound to anything. */
    if (R->rank == 0) {
        char model[256], *m = NULL;
        size_t ml = 0, mc = 0;
        cpu_model(model, sizeof model);
        bad |= append_escaped(&m, &ml, &mc, model) ||
               cf_table_meta_set(R->t, "simulator_cpu", m) != 0;
        free(m);
    }
#else
    /* Without places the gather ran out of memory, which cf_run_host_metadata has said. */
    if (R->rank == 0 && R->places != NULL)
        bad |= host_cpus(R) != 0;
#endif
    if (R->rank == 0 && bad)
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory"), 1;
    return 0;
}

/* The keys a resumed run writes again after its resume line when its value differs from
 * the table's (or the table has none). */
static const char *const resume_keys[] = {"commfit_revision", "mpi_env",  "mpi_env_differs",
                                          "mpi_env_omitted",  "cpu_model", "rank_cpus",
                                          "simulator_cpu"};

int cf_run_provenance_resume(cf_run_state *R)
{
    const cf_table *done = R->o->done;
    if (cf_run_revision_metadata(R) != 0)
        return -1;
    for (size_t i = 0; i < sizeof resume_keys / sizeof *resume_keys; i++) {
        const char *now = cf_table_meta_get(R->t, resume_keys[i]);
        const char *was = done != NULL ? cf_table_meta_get(done, resume_keys[i]) : NULL;
        /* A key this launch has no value for is written only when none is news: a launch
         * that leaves no variable out says 0 after one that left some out. */
        if (now == NULL && was != NULL && strcmp(resume_keys[i], "mpi_env_omitted") == 0 &&
            strcmp(was, "0") != 0)
            now = "0";
        if (now != NULL && (was == NULL || strcmp(was, now) != 0))
            fprintf(R->fp, "# %s: %s\n", resume_keys[i], now);
    }
    /* The table's end lines are the launch's before; until this one writes its own, the
     * last end_reason says it has not ended (a reader keeps the last: one still saying so
     * after the rows was killed). */
    if (done != NULL && cf_table_meta_get(done, "end_reason") != NULL)
        fprintf(R->fp, "# end_reason: %s\n", CF_END_CUT_SHORT);
    return fflush(R->fp) != 0 || ferror(R->fp) ? -1 : 0;
}

double cf_run_thread_cpu_s(void)
{
#ifdef CF_SMPI
    return 0;
#else
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

/* A rank that busy-polls (MPICH, Open MPI) runs all the time it waits in its calls: a
 * share well under 1 means other work had its processor part of the time, and its
 * timings include waiting for it (a loaded machine, more ranks than cores). */
#ifndef CF_SMPI
/* The ranks an earlier launch's rank_cpu_share names (at most CF_SHARE_RANKS_MAX), and each
 * one's share taken into a running least (NAN: none yet). */
#define CF_SHARE_RANKS_MAX (1L << 20)
typedef struct share_merge {
    double *v;
    long n;
} share_merge;

static void count_ranks(long first, long n, double v, void *ctx)
{
    (void)v;
    long *end = ctx;
    *end = first + n > CF_SHARE_RANKS_MAX ? CF_SHARE_RANKS_MAX : first + n;
}

static void merge_least(long first, long n, double v, void *ctx)
{
    share_merge *m = ctx;
    for (long r = first; r < first + n && r < m->n && isfinite(v); r++)
        m->v[r] = isfinite(m->v[r]) ? fmin(m->v[r], v) : v;
}
#endif

int cf_run_cpu_share(cf_run_state *R)
{
#ifdef CF_SMPI
    (void)R;
    return 0;
#else
    double mine[2] = {R->timed_cpu_s, R->timed_wall_s}, *all = NULL;
    /* A resumed table's line holds each rank's least over its launches: a reader keeps the
     * last line, and an earlier launch on a loaded machine must still show. */
    const char *was = R->o->done != NULL ? cf_table_meta_get(R->o->done, "rank_cpu_share") : NULL;
    long nwas = 0;
    if (R->rank == 0)
        cf_cpu_share_runs(was, count_ranks, &nwas);
    share_merge m = {NULL, nwas > R->size ? nwas : R->size};
    int room = 1;
    if (R->rank == 0 && ((all = malloc(2 * (size_t)R->size * sizeof *all)) == NULL ||
                         (m.v = malloc((size_t)m.n * sizeof *m.v)) == NULL))
        room = 0;
    /* Without room on rank 0 no rank sends, and the table has no rank_cpu_share. */
    RUN_CALL(MPI_Bcast, (&room, 1, MPI_INT, 0, MPI_COMM_WORLD), NULL);
    if (!room) {
        free(all);
        return 0;
    }
    RUN_CALL(MPI_Gather, (mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD), NULL);
    if (R->rank != 0)
        return 0;
    /* Each rank's share (NAN where it timed nothing, or the system has no thread clock;
     * two clocks: a share a hair over 1 is 1), the earlier launches' taken in. */
    for (long r = 0; r < m.n; r++) {
        double cpu = r < R->size ? all[2 * r] : 0, wall = r < R->size ? all[2 * r + 1] : 0;
        m.v[r] = wall > 0 && cpu > 0 ? fmin(cpu / wall, 1.0) : NAN;
    }
    free(all);
    cf_cpu_share_runs(was, merge_least, &m);
    /* With two decimals, or '-', in runs (cf_measure_append_run). */
    char *text = NULL;
    size_t len = 0, cap = 0;
    int bad = 0;
    char prev[16] = "", one[16];
    long run = 0;
    for (long r = 0; r < m.n && !bad; r++) {
        if (isfinite(m.v[r]))
            snprintf(one, sizeof one, "%.2f", m.v[r]);
        else
            snprintf(one, sizeof one, "-");
        if (run > 0 && strcmp(one, prev) != 0) {
            bad = cf_measure_append_run(&text, &len, &cap, prev, run);
            run = 0;
        }
        snprintf(prev, sizeof prev, "%s", one);
        run++;
    }
    if (!bad && run > 0)
        bad = cf_measure_append_run(&text, &len, &cap, prev, run);
    free(m.v);
    if (bad)
        free(text);
    else
        R->cpu_share = text;
    return 0;
#endif
}

void cf_run_end_metadata(cf_run_state *R, int status)
{
    if (R->rank != 0 || R->fp == NULL || fflush(R->fp) != 0)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double dur = (double)(now.tv_sec - R->started.tv_sec) +
                 1e-9 * (double)(now.tv_nsec - R->started.tv_nsec);
    time_t t = time(NULL);
    struct tm tm;
    char date[32], why[600];
    gmtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (status == 0)
        snprintf(why, sizeof why, "%s", CF_META_END_COMPLETE);
    else if (status == 1)
        snprintf(why, sizeof why, "stopped by a signal");
    else
        snprintf(why, sizeof why, "failed: %.500s", R->e->msg[0] ? R->e->msg : "an MPI error");
    for (char *p = why; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    char *block = NULL;
    size_t n = 0, cap = 0;
    int bad = R->cpu_share != NULL &&
              cf_measure_appendf(&block, &n, &cap, "# rank_cpu_share: %s\n", R->cpu_share);
    bad = bad || cf_measure_appendf(&block, &n, &cap,
                                    "# end: %s\n# duration_s: %.3f\n# end_reason: %s\n", date,
                                    dur, why);
    /* One write of whole lines; a part of them (a full disk) is cut off again, so that the
     * table still ends with a complete line. */
    if (!bad && write(fileno(R->fp), block, n) != (ssize_t)n && !R->to_fd &&
        ftruncate(fileno(R->fp), R->kept) != 0 && R->hooks->warn != NULL)
        R->hooks->warn("cannot cut off a partly written end line");
    free(block);
}
