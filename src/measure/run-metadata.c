/* The metadata a measured table records about the machine, the MPI library and the
 * simulation, so that a timing can be told apart from one taken elsewhere. */
#include "config.h"

#include <math.h>
#include <ctype.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/sha256.h"
#include "base/stats.h"
#include "measure/launch.h"
#include "measure/measure-int.h"
#include "measure/run-int.h"

#ifdef CF_SMPI
#include <simgrid/host.h>
#include <simgrid/version.h>
#endif

#ifndef CF_SMPI
/* The time of a 1000-element double dot product, in microseconds: the best of many. */
static double normalized_time_us(void)
{
    enum { N = 1000, REPS = 2000 };
    static double x[N], y[N];
    volatile double sink = 0;
    for (int i = 0; i < N; i++) {
        x[i] = 1.0 + i * 1e-3;
        y[i] = 2.0 - i * 1e-3;
    }
    double best = HUGE_VAL;
    for (int trial = 0; trial < 5; trial++) {
        double t0 = MPI_Wtime();
        for (int r = 0; r < REPS; r++) {
            double s = 0;
            for (int i = 0; i < N; i++)
                s += x[i] * y[i];
            sink += s;
            /* Keeps the compiler from hoisting the loop out of the repetitions. */
            __asm__ volatile("" : : "g"(x) : "memory");
        }
        double t = (MPI_Wtime() - t0) / REPS;
        if (t < best)
            best = t;
    }
    (void)sink;
    return best * 1e6;
}
#endif

uint64_t cf_run_cache_size(void)
{
    long c = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
    c = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
    if (c <= 0)
        c = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    if (c <= 0)
        c = 32L << 20;
    /* Some virtual machines report the whole package's cache; a gigabyte is plenty. */
    if (c > (1L << 30))
        c = 1L << 30;
    return (uint64_t)c;
}

/* One run of rank_hosts: n consecutive ranks on host h (its index in hosts), "h" or "h*n". */
static int append_run(char **s, size_t *len, size_t *cap, int h, int n)
{
    const char *sep = *len ? "," : "";
    return n > 1 ? cf_measure_appendf(s, len, cap, "%s%d*%d", sep, h, n)
                 : cf_measure_appendf(s, len, cap, "%s%d", sep, h);
}

/* This rank's record for rank 0: its host's cores and name, its processor and its binding,
 * each ended by a NUL; *n its length, 0 out of memory. 0, or -1 on an MPI error. */
static int place_record(cf_run_state *R, char **rec, int *n)
{
    char name[MPI_MAX_PROCESSOR_NAME + 1];
    int nl = 0;
    RUN_CALL(MPI_Get_processor_name, (name, &nl), NULL);
    name[nl] = '\0';
#ifdef CF_SMPI
    long ncores = sg_host_core_count(sg_host_self()); /* the simulated host's */
#else
    long ncores = cf_launch_cores();
#endif
    size_t len = 0, cap = 0;
    *rec = NULL;
    int bad = cf_measure_appendf(rec, &len, &cap, "%ld%c%s%c", ncores, 0, name, 0) != 0 ||
              cf_run_cpu_record(rec, &len, &cap) != 0 || len > INT_MAX;
    *n = bad ? 0 : (int)len;
    return 0;
}

/* Rank 0: R->places from the gathered records (rank r's lens[r] bytes at all + displs[r]),
 * each rank's host numbered in the order of the hosts' first ranks, the order of hosts:.
 * 0, or -1 out of memory, here or on a rank that sent no record. */
static int order_hosts(cf_run_state *R, char *all, const int *lens, const int *displs)
{
    cf_run_place *p = calloc((size_t)R->size, sizeof *p);
    int *firsts = malloc((size_t)R->size * sizeof *firsts); /* each host's first rank */
    int nh = 0, bad = p == NULL || firsts == NULL;
    for (int r = 0; r < R->size && !bad; r++) {
        if (lens[r] == 0) { /* that rank ran out of memory */
            bad = 1;
            break;
        }
        const char *rec = all + displs[r];
        p[r].cores = strtol(rec, NULL, 10);
        p[r].host = rec + strlen(rec) + 1;
        p[r].model = p[r].host + strlen(p[r].host) + 1;
        p[r].cpus = p[r].model + strlen(p[r].model) + 1;
        int h = 0;
        while (h < nh && strcmp(p[firsts[h]].host, p[r].host) != 0)
            h++;
        if (h == nh)
            firsts[nh++] = r;
        p[r].host_index = h;
        p[r].first = firsts[h] == r;
    }
    free(firsts);
    if (bad) {
        free(p);
        return -1;
    }
    R->places = p;
    R->places_text = all;
    R->nhosts = nh;
    return 0;
}

/* Every rank: each rank's place_record gathered at rank 0, which fills R->places (NULL out
 * of memory, *bad then set): the one gather of where the ranks run, which the host
 * metadata and the provenance (cpu_model, rank_cpus) share. Every rank makes the same
 * calls: before each step that needs room on rank 0, rank 0 says whether it has it, so
 * that no rank sends to a root that cannot take it. 0, or -1 on an MPI error. */
static int gather_places(cf_run_state *R, int *bad)
{
    char *rec = NULL, *all = NULL;
    int n = 0, *lens = NULL, *displs = NULL;
    if (place_record(R, &rec, &n) != 0)
        return -1;
    if (R->rank == 0 && ((lens = calloc((size_t)R->size, sizeof *lens)) == NULL ||
                         (displs = calloc((size_t)R->size, sizeof *displs)) == NULL))
        *bad = 1;
    int room = R->rank != 0 || !*bad;
    const char *call = "MPI_Bcast";
    int rc = MPI_Bcast(&room, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS && room) {
        call = "MPI_Gather";
        rc = MPI_Gather(&n, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    size_t total = 0;
    for (int r = 0; rc == MPI_SUCCESS && room && R->rank == 0 && r < R->size; r++) {
        displs[r] = (int)total;
        total += (size_t)lens[r];
    }
    if (rc == MPI_SUCCESS && room && R->rank == 0)
        room = total <= INT_MAX && (all = malloc(total + 1)) != NULL;
    if (rc == MPI_SUCCESS) {
        call = "MPI_Bcast";
        rc = MPI_Bcast(&room, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (rc == MPI_SUCCESS && room) {
        call = "MPI_Gatherv";
        rc = MPI_Gatherv(rec, n, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, MPI_COMM_WORLD);
    }
    free(rec);
    *bad |= !room;
    if (rc == MPI_SUCCESS && R->rank == 0 && !*bad)
        *bad = order_hosts(R, all, lens, displs) != 0;
    if (R->places == NULL)
        free(all);
    free(lens);
    free(displs);
    return rc == MPI_SUCCESS ? 0 : cf_run_mpi_failed(R, call, rc, NULL);
}

/* Rank 0: one warning of the nover hosts with more ranks than cores, not one a host (a
 * launch over a thousand nodes would print a thousand), naming the first: p, its first
 * rank's place, and n, its ranks. */
static void warn_oversubscribed(cf_run_state *R, const cf_run_place *p, int n, int nover, int *over)
{
    char msg[512], more[64] = "";
    if (nover > 1)
        snprintf(more, sizeof more, " (and %d more hosts with more ranks than cores)", nover - 1);
#ifdef CF_SMPI
    /* A simulated host's cores time computation alone, which a simulation does not
     * (smpi/simulate-computation:no): its ranks share its loopback and links, as they
     * would anyway, and no scheduler enters the figures. */
    (void)over;
    snprintf(msg, sizeof msg,
             "%d ranks on '%s', which has %ld core%s%s: a simulation times no computation, "
             "so they share its links only (not oversubscribed; check the hostfile if that "
             "placement was not meant)",
             n, p->host, p->cores, p->cores == 1 ? "" : "s", more);
#else
    *over = 1;
    snprintf(msg, sizeof msg,
             "%d ranks on '%s', which has %ld core%s%s: the timings measure the scheduler "
             "too (oversubscribed)",
             n, p->host, p->cores, p->cores == 1 ? "" : "s", more);
#endif
    if (R->hooks->warn)
        R->hooks->warn(msg);
}

/* Rank 0: hosts, ranks_per_node, cores and rank_hosts from R->places. 0, or -1 out of
 * memory. */
static int host_keys(cf_run_state *R, int *over)
{
    const cf_run_place *p = R->places;
    int *ranks = calloc((size_t)R->nhosts, sizeof *ranks); /* each host's */
    if (ranks == NULL)
        return -1;
    char *order = NULL; /* rank_hosts: each rank's host, runs of one host as H*N */
    size_t l4 = 0, c4 = 0;
    int bad = 0, run_n = 0;
    for (int r = 0; r < R->size; r++) {
        ranks[p[r].host_index]++;
        run_n++;
        if (r + 1 == R->size || p[r + 1].host_index != p[r].host_index) {
            bad |= append_run(&order, &l4, &c4, p[r].host_index, run_n);
            run_n = 0;
        }
    }
    char *hosts = NULL, *rpn = NULL, *cores = NULL;
    size_t l1 = 0, c1 = 0, l2 = 0, c2 = 0, l3 = 0, c3 = 0;
    int nover = 0, first_over = -1; /* the first such host's first rank */
    for (int r = 0; r < R->size; r++) {
        if (!p[r].first)
            continue;
        int h = p[r].host_index;
        const char *sep = h ? "," : "";
        bad |= cf_measure_appendf(&hosts, &l1, &c1, "%s%s", sep, p[r].host);
        bad |= cf_measure_appendf(&rpn, &l2, &c2, "%s%d", sep, ranks[h]);
        bad |= cf_measure_appendf(&cores, &l3, &c3, "%s%ld", sep, p[r].cores);
        if (ranks[h] > p[r].cores && nover++ == 0)
            first_over = r;
    }
    if (nover > 0)
        warn_oversubscribed(R, &p[first_over], ranks[p[first_over].host_index], nover, over);
    if (!bad)
        bad = cf_table_meta_set(R->t, "hosts", hosts) != 0 ||
              cf_table_meta_set(R->t, "ranks_per_node", rpn) != 0 ||
              cf_table_meta_set(R->t, "cores", cores) != 0 ||
              cf_table_meta_set(R->t, "rank_hosts", order) != 0;
    free(order);
    free(hosts);
    free(rpn);
    free(cores);
    free(ranks);
    return bad ? -1 : 0;
}

int cf_run_host_metadata(cf_run_state *R, int *over)
{
    int bad = 0;
    *over = 0;
    if (gather_places(R, &bad) != 0)
        return -1;
    if (R->rank == 0 && !bad)
        bad = host_keys(R, over) != 0;
    if (R->rank == 0 && bad)
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory"), 1;
    return 0;
}

/* Rank 0: whether the table was simulated, and on what: a simulated figure is exact for
 * the platform file it came from, so the file's content is fingerprinted, not only named. */
static int simulation_metadata(cf_run_state *R)
{
#ifdef CF_SMPI
    const cf_measure_opts *o = R->o;
    char buf[96], sha[65];
    int major = 0, minor = 0, patch = 0;
    sg_version_get(&major, &minor, &patch);
    snprintf(buf, sizeof buf, "%d.%d.%d", major, minor, patch);
    int bad = cf_table_meta_set(R->t, "simulated", "yes");
    bad |= cf_table_meta_set(R->t, "simgrid_version", buf);
    if (o->simulate != NULL) {
        const char *base = strrchr(o->simulate, '/');
        if (cf_sha256_file(o->simulate, sha, R->e) != 0)
            return R->e->code;
        bad |= cf_table_meta_set(R->t, "platform", base ? base + 1 : o->simulate);
        bad |= cf_table_meta_set(R->t, "platform_sha256", sha);
    }
    bad |= cf_table_meta_set(R->t, "hostfile",
                             o->hostfile ? o->hostfile : CF_SIM_HOSTFILE_DEFAULT);
    bad |= cf_table_meta_set(R->t, "coll_selector", o->selector ? o->selector : CF_SIM_SELECTOR);
    snprintf(buf, sizeof buf, "%.6g", sg_host_get_speed(sg_host_self()));
    bad |= cf_table_meta_set(R->t, "host_speed_flops", buf);
    bad |= cf_table_meta_set(R->t, "computation", "not simulated (smpi/simulate-computation:no)");
#else
    int bad = cf_table_meta_set(R->t, "simulated", "no");
#endif
    return bad ? cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory") : 0;
}

void cf_run_library_version(char *lib, size_t n)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    if (MPI_Get_library_version(v, &len) != MPI_SUCCESS)
        snprintf(v, sizeof v, "unknown");
    while (len > 0 && (v[len - 1] == '\n' || v[len - 1] == ' ' || v[len - 1] == '\0'))
        v[--len] = '\0';
    snprintf(lib, n, "%s", v);
}

int cf_run_same_library(const char *a, const char *b)
{
    for (;;) {
        while (isspace((unsigned char)*a))
            a++;
        while (isspace((unsigned char)*b))
            b++;
        if (*a == '\0' || *b == '\0')
            return *a == *b;
        if (*a != *b)
            return 0;
        int sa = isspace((unsigned char)a[1]), sb = isspace((unsigned char)b[1]);
        a++;
        b++;
        if (sa != sb)
            return 0;
    }
}

int cf_run_library_metadata(cf_run_state *R)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], buf[32];
    int ver = 0, sub = 0;
    cf_run_library_version(lib, sizeof lib);
    if (MPI_Get_version(&ver, &sub) != MPI_SUCCESS)
        ver = sub = 0;
    snprintf(buf, sizeof buf, "%d.%d", ver, sub);
    int bad = cf_table_meta_set(R->t, "commfit", PACKAGE_VERSION);
    bad |= cf_run_revision_metadata(R) != 0;
    bad |= cf_table_meta_set(R->t, "mpi_library", lib);
    bad |= cf_table_meta_set(R->t, "mpi_version", buf);
    if (bad)
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory");
    return simulation_metadata(R);
}

int cf_run_start_metadata(cf_run_state *R, const struct tm *tm, const char *command, int over,
                          const char *plan)
{
    char date[32], buf[64];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", tm);
    int bad = cf_table_meta_set(R->t, "date", date);
    snprintf(buf, sizeof buf, "%.3g", R->wtick);
    bad |= cf_table_meta_set(R->t, "timer_resolution_s", buf);
#ifndef CF_SMPI
    /* A simulation does not time computation: this machine's speed would mean nothing. */
    snprintf(buf, sizeof buf, "%.4g", normalized_time_us());
    bad |= cf_table_meta_set(R->t, "normalized_time_us", buf);
#endif
    bad |= cf_table_meta_set(R->t, "oversubscribed", over ? "yes" : "no");
    snprintf(buf, sizeof buf, "%d", R->size);
    bad |= cf_table_meta_set(R->t, "launch_np", buf);
    char launcher[600];
    cf_launch_describe(launcher, sizeof launcher);
    bad |= cf_table_meta_set(R->t, "launcher", launcher);
    bad |= cf_table_meta_set(R->t, "command", command);
    bad |= cf_table_meta_set(R->t, "plan", plan);
    /* How the collectives were timed, and what reduce_scatter's size means: tables written
     * before these keys timed the loop whole, rotated the root and gave reduce_scatter's
     * whole vector. */
    bad |= cf_table_meta_set(R->t, "coll_timing",
                             R->o->no_sync ? CF_META_TIMING_LOOP : CF_META_TIMING_CALL);
    bad |= cf_table_meta_set(R->t, "coll_root",
                             R->o->root_shift ? CF_META_ROOT_SHIFT : CF_META_ROOT_FIXED);
    bad |= cf_table_meta_set(R->t, "reduce_scatter_bytes", CF_META_RS_BLOCK);
    bad |= cf_table_meta_set(R->t, "t_min_max", CF_META_T_EXTREMES);
    if (bad)
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory");
    return 0;
}

/* The latency probe: few round trips of a small message, so that it costs a few
 * milliseconds per rank at most, and their median, which a stray interrupt does not move. */
enum { PROBE_BYTES = 8, PROBE_WARMUP = 2, PROBE_ROUNDS = 20 };

/* Before any of them, with each rank: untimed round trips of 8 KiB, as many as a library's
 * ring of eager buffers commonly holds. Each buffer's pages fault in at its first use, 10-30
 * us a page on a VM: with MPICH 4.0 (ch4:ucx, whose shared memory has a FIFO of 64 by
 * default) the first 64 round trips at each new size from 256 B to 8 KiB read 14-45 us
 * one-way where the ping-pong of the same launch read 0.7-1.4, spaced 1 ms apart or not, so
 * that 1 to 50 untimed ones before the timed did not help; after 64 of 8 KiB no size up to
 * 8 KiB faulted (after 32 they did; with UCX_MM_FIFO_SIZE=128, 128 were needed). Sizes from
 * 16 KiB go another way, whose only new pages are the probe's buffer's, which their own
 * untimed round trip touches. None in a simulation, whose buffers never fault: there they
 * would only move the simulated clock, and with it the last digit of a row. */
#ifdef CF_SMPI
enum { RING_BYTES = 8192, RING_WARMUP = 0 };
#else
enum { RING_BYTES = 8192, RING_WARMUP = 64 };
#endif

/* The sized latency probe: the same round trips at larger messages, whose latency a
 * library's protocols and a network's routes may change by size (a rendezvous's handshake
 * crosses the route three times, a simulator's latency factors grow with the size), so
 * that what a farther rank adds to a message is known at its size: each power of 2 from
 * 256 B to 256 KiB, the sizes the collectives' messages of power-of-two blocks take (with
 * every power of 4 alone, Bruck's alltoall of 64 B blocks at np 64, messages of 2 KiB, read
 * SMPI's latency at 1 KiB, 21% above its own), fewer round trips each (at 4096 ranks a few
 * seconds). */
enum { SIZED_WARMUP = 1, SIZED_ROUNDS = 5, SIZED_N = 11, SIZED_MAX_BYTES = 262144 };
static const int sized_bytes[SIZED_N] = {256,   512,   1024,  2048,   4096,  8192,
                                         16384, 32768, 65536, 131072, 262144};
/* Its messages (and the 8 KiB ones before the 8-byte probe) are received into another buffer
 * than the one they are sent from, as the ping-pong's (and IMB's): a message received into the
 * buffer it is sent back from leaves its lines dirty in the other core's cache for the next
 * copy, which read 28.7 us one-way at 256 KiB (10.8 at 64 KiB) where apart they read 11.9
 * (6.4) and the ping-pong 13.0 (6.8) on this project's MPICH machine. One buffer in a
 * simulation, which has no caches, and where every simulated rank has its own copy of static
 * data. */
#ifdef CF_SMPI
#define SIZED_APART ""
#else
#define SIZED_APART ", each received into another buffer than the one it is sent from"
#endif

/* An MPI call of the probe between rank 0 and peer: its failure names the probe, which is
 * no point of the plan. */
#define PROBE_CALL(fn, args)                                                                       \
    do {                                                                                           \
        int rc_ = fn args;                                                                         \
        if (rc_ != MPI_SUCCESS)                                                                    \
            return probe_failed(R, #fn, rc_, peer);                                                \
    } while (0)

/* An MPI call of a launch probe that failed; where names the probe and the ranks. -1. */
int cf_run_probe_failed(cf_run_state *R, const char *call, int rc, const char *where)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS)
        snprintf(s, sizeof s, "error %d", rc);
    cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "%s failed in %s: %s", call, where, s);
    return -1;
}

static int probe_failed(cf_run_state *R, const char *call, int rc, int peer)
{
    char where[96];
    snprintf(where, sizeof where, "the latency probe between ranks 0 and %d", peer);
    return cf_run_probe_failed(R, call, rc, where);
}

/* Rank 0 with peer, or peer with rank 0: warmup untimed and rounds timed round trips of
 * bytes sent from sbuf and received into rbuf; rank 0 fills rtt_s with the timed ones. 0, or
 * -1 on an MPI error. */
static int probe_pair(cf_run_state *R, int peer, char *sbuf, char *rbuf, int bytes, int warmup,
                      int rounds, double *rtt_s)
{
    for (int i = 0; i < warmup + rounds; i++) {
        if (R->rank == 0) {
            double t0 = MPI_Wtime();
            PROBE_CALL(MPI_Send, (sbuf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD));
            PROBE_CALL(MPI_Recv,
                       (rbuf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (i >= warmup)
                rtt_s[i - warmup] = MPI_Wtime() - t0;
        } else {
            PROBE_CALL(MPI_Recv, (rbuf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            PROBE_CALL(MPI_Send, (sbuf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD));
        }
    }
    return 0;
}

/* The interquartile range of the n (sorted in place) round trips over their median med. */
static double relative_iqr(double *x, size_t n, double med)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && x[j - 1] > x[j]; j--) {
            double t = x[j];
            x[j] = x[j - 1];
            x[j - 1] = t;
        }
    return med > 0 ? (x[(3 * n) / 4] - x[n / 4]) / med : 0;
}

/* Rank 0: the probe's metadata from each rank's one-way latency and relative spread, and
 * from the sized probe's (sized[k * (size - 1) + r - 1]: rank r's at sized_bytes[k]). */
static int probe_metadata(cf_run_state *R, const double *lat_us, double *spread,
                          const double *sized)
{
    char *s = NULL, buf[512];
    size_t len = 0, cap = 0;
    int bad = 0;
    for (int r = 1; r < R->size; r++)
        bad |= cf_measure_appendf(&s, &len, &cap, "%s%.4g", r > 1 ? "," : "", lat_us[r - 1]);
    if (!bad)
        bad |= cf_table_meta_set(R->t, "rank_latency_us", s);
    len = 0;
    for (int k = 0; k < SIZED_N && !bad; k++) {
        bad |= cf_measure_appendf(&s, &len, &cap, "%s%d:", k > 0 ? ";" : "", sized_bytes[k]);
        for (int r = 1; r < R->size && !bad; r++)
            bad |= cf_measure_appendf(&s, &len, &cap, "%s%.4g", r > 1 ? "," : "",
                                      sized[(size_t)k * (size_t)(R->size - 1) + (size_t)(r - 1)]);
    }
    if (!bad)
        bad |= cf_table_meta_set(R->t, "rank_latency_sized_us", s);
    free(s);
    /* The spread of the ranks' typical rank, not of the noisiest: what a comparison of two
     * ranks' medians has to allow for. */
    snprintf(buf, sizeof buf, "%.3g", cf_stats_median(spread, (size_t)R->size - 1));
    bad |= cf_table_meta_set(R->t, "rank_latency_spread", buf);
    /* The round trips of 8 KiB that come first, where they do (not in a simulation). */
    char ring[160] = "", ring_sized[160] = "";
    if (RING_WARMUP > 0) {
        snprintf(ring, sizeof ring,
                 " after %d untimed of %d bytes (which pass once through a library's ring of "
                 "eager buffers)",
                 RING_WARMUP, RING_BYTES);
        snprintf(ring_sized, sizeof ring_sized,
                 " after the 8-byte probe's and the %d untimed of %d bytes before them",
                 RING_WARMUP, RING_BYTES);
    }
    snprintf(buf, sizeof buf,
             "rank 0's ping-pong of %d bytes with each rank in turn, %d untimed and %d timed "
             "round trips%s; one-way = median round trip / 2; spread = the median over ranks "
             "of (upper quartile - lower quartile) / median",
             PROBE_BYTES, PROBE_WARMUP, PROBE_ROUNDS, ring);
    bad |= cf_table_meta_set(R->t, "rank_latency_method", buf);
    snprintf(buf, sizeof buf,
             "rank 0's ping-pong with each rank in turn at each size B (B:one-way us of "
             "ranks 1 to np-1, the sizes apart by ';'), %d untimed and %d timed round trips%s"
             "%s; one-way = median round trip / 2",
             SIZED_WARMUP, SIZED_ROUNDS, ring_sized, SIZED_APART);
    bad |= cf_table_meta_set(R->t, "rank_latency_sized_method", buf);
    return bad ? cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory"), -1 : 0;
}

/* Both launch probes are skipped alike: a resumed table keeps its first launch's. */
int cf_run_probes_skipped(const cf_run_state *R)
{
    return R->o->no_latency_probe || R->o->resume != NULL || R->size < 2;
}

int cf_run_latency_probe(cf_run_state *R)
{
    if (cf_run_probes_skipped(R))
        return 0;
    double rtt_s[PROBE_ROUNDS];
    RUN_CALL(MPI_Barrier, (MPI_COMM_WORLD), NULL);
    /* Rank 0 takes part in every exchange even out of memory: a rank that stopped early
     * would leave the others waiting for it (the sized probe's buffers are static for that). */
    size_t nr = (size_t)(R->size - 1);
    double *lat_us = NULL, *spread = NULL, *sized = NULL;
    if (R->rank == 0) {
        lat_us = malloc((2 + SIZED_N) * nr * sizeof *lat_us);
        spread = lat_us != NULL ? lat_us + nr : NULL;
        sized = lat_us != NULL ? lat_us + 2 * nr : NULL;
    }
    /* Apart where SIZED_APART says so. */
    static char sbuf[SIZED_MAX_BYTES];
#ifdef CF_SMPI
    char *rbuf = sbuf;
#else
    static char rbuf_apart[SIZED_MAX_BYTES];
    char *rbuf = rbuf_apart;
#endif
    char small[PROBE_BYTES] = {0};
    for (int r = 1; r < R->size; r++) {
        if (R->rank != 0 && R->rank != r)
            continue;
        if (RING_WARMUP > 0 &&
            probe_pair(R, r, sbuf, rbuf, RING_BYTES, RING_WARMUP, 0, rtt_s) != 0)
            goto fail;
        if (probe_pair(R, r, small, small, PROBE_BYTES, PROBE_WARMUP, PROBE_ROUNDS, rtt_s) != 0)
            goto fail;
        if (lat_us != NULL) {
            double med = cf_stats_median(rtt_s, PROBE_ROUNDS);
            lat_us[r - 1] = 0.5e6 * med;
            spread[r - 1] = relative_iqr(rtt_s, PROBE_ROUNDS, med);
        }
        for (int k = 0; k < SIZED_N; k++) {
            if (probe_pair(R, r, sbuf, rbuf, sized_bytes[k], SIZED_WARMUP, SIZED_ROUNDS,
                           rtt_s) != 0)
                goto fail;
            if (sized != NULL)
                sized[(size_t)k * nr + (size_t)(r - 1)] =
                    0.5e6 * cf_stats_median(rtt_s, SIZED_ROUNDS);
        }
    }
    if (R->rank != 0)
        return 0;
    if (lat_us == NULL)
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory"), -1;
    int rc = probe_metadata(R, lat_us, spread, sized);
    free(lat_us);
    return rc;
fail:
    free(lat_us);
    return -1;
}

/* The pair-exchange probe: for each power of two B up to the launch, ranks 0 to B-1 at once
 * exchange a message large enough to run at the links' bandwidth with their partner in the
 * other half of the block, so that each level's time is what traffic across one tier of the
 * network costs when the whole block crosses it; then, for the same B ranks at once, with
 * their partner at each nearer distance d (r XOR d, d = 1, 2, ..., B/4): what a step of
 * that distance costs while B ranks send, which a network whose links all traffic shares (a
 * backplane, a shared switch) makes slower as more ranks send, where a tree of separate
 * links does not. Few exchanges: each moves B MiB. */
enum { PAIR_BYTES = 1 << 20, PAIR_WARMUP = 1, PAIR_TIMED = 5, PAIR_LEVELS = 31 };
/* The distances' timed exchanges: in a simulation one (SMPI is deterministic: one gave the
 * median of 5 to the 4 digits recorded at every distance of the 24 shipped tables but one,
 * 48.66 us for 48.65 on meshnodes.xml), whose wall time grows with lg N (lg N + 1)/2 sets at
 * a launch of N ranks (racks.xml at 128: 3.0 s for the probes alone, 4.1 with 5). */
#ifdef CF_SMPI
enum { PAIR_DIST_TIMED = 1 };
#else
enum { PAIR_DIST_TIMED = PAIR_TIMED };
#endif

/* peer >= 0: MPI_Sendrecv between this rank and peer; else a collective of the level of B. */
static int pair_failed(cf_run_state *R, const char *call, int rc, long B, int peer)
{
    char where[96];
    if (peer >= 0)
        snprintf(where, sizeof where, "the pair-exchange probe between ranks %d and %d", R->rank,
                 peer);
    else
        snprintf(where, sizeof where, "the pair-exchange probe of ranks 0 to %ld", B - 1);
    return cf_run_probe_failed(R, call, rc, where);
}

#define PAIR_CALL(fn, args, B, peer)                                                               \
    do {                                                                                           \
        int rc_ = fn args;                                                                         \
        if (rc_ != MPI_SUCCESS)                                                                    \
            return pair_failed(R, #fn, rc_, B, peer);                                              \
    } while (0)

/* Every rank: one exchange of ranks 0 to B-1 at once, each with the rank d away (r XOR d), the
 * others waiting in the barrier; rank 0 gets the slowest participant's time in *t_s. 0, or -1
 * on an MPI error. */
static int pair_exchange(cf_run_state *R, long B, long d, char *sbuf, char *rbuf, double *t_s)
{
    double mine = 0;
    PAIR_CALL(MPI_Barrier, (MPI_COMM_WORLD), B, -1);
    if (R->rank < B) {
        int peer = R->rank ^ (int)d;
        double t0 = MPI_Wtime();
        PAIR_CALL(MPI_Sendrecv,
                  (sbuf, PAIR_BYTES, MPI_BYTE, peer, 0, rbuf, PAIR_BYTES, MPI_BYTE, peer, 0,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                  B, peer);
        mine = MPI_Wtime() - t0;
    }
    PAIR_CALL(MPI_Reduce, (&mine, t_s, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD), B, -1);
    return 0;
}

/* Every rank: the median time of the exchanges of ranks 0 to B-1 at distance d, into *t_us
 * on rank 0. */
static int pair_timed(cf_run_state *R, long B, long d, int timed, char *sbuf, char *rbuf,
                      double *t_us)
{
    double t_s[PAIR_TIMED], t = 0;
    for (int i = 0; i < PAIR_WARMUP + timed; i++) {
        if (pair_exchange(R, B, d, sbuf, rbuf, &t) != 0)
            return -1;
        if (i >= PAIR_WARMUP)
            t_s[i - PAIR_WARMUP] = t;
    }
    *t_us = 1e6 * cf_stats_median(t_s, (size_t)timed);
    return 0;
}

/* Every rank: the levels B = 2, 4, ... top at distance B/2 (t_us, one a level), then each
 * level at the nearer distances (dist_us[lev * PAIR_LEVELS + j] at d = 2^j, j < lev; the
 * level's own at j = lev): rank 0 fills them. The levels first, as before the distances
 * were probed, so that their times come out as they did. */
static int pair_levels(cf_run_state *R, long top, char *sbuf, char *rbuf, double *t_us,
                       double *dist_us)
{
    int lev = 0;
    for (long B = 2; B <= top; B *= 2, lev++)
        if (pair_timed(R, B, B / 2, PAIR_TIMED, sbuf, rbuf, &t_us[lev]) != 0)
            return -1;
    lev = 0;
    for (long B = 2; B <= top; B *= 2, lev++) {
        int j = 0;
        for (long d = 1; d < B / 2; d *= 2, j++)
            if (pair_timed(R, B, d, PAIR_DIST_TIMED, sbuf, rbuf,
                           &dist_us[lev * PAIR_LEVELS + j]) != 0)
                return -1;
        dist_us[lev * PAIR_LEVELS + j] = t_us[lev];
    }
    return 0;
}

/* Rank 0: the probe's metadata from the nlev levels' times. 0, or 1 out of memory. */
static int pair_metadata(cf_run_state *R, const double *t_us, const double *dist_us, int nlev)
{
    char *s = NULL, *ds = NULL, buf[600];
    size_t len = 0, cap = 0, dlen = 0, dcap = 0;
    int bad = 0;
    for (int i = 0; i < nlev; i++) {
        bad |= cf_measure_appendf(&s, &len, &cap, "%s%ld:%.4g", i ? "," : "", 2L << i, t_us[i]);
        bad |= cf_measure_appendf(&ds, &dlen, &dcap, "%s%ld:", i ? ";" : "", 2L << i);
        for (int j = 0; j <= i; j++)
            bad |= cf_measure_appendf(&ds, &dlen, &dcap, "%s%.4g", j ? "," : "",
                                      dist_us[i * PAIR_LEVELS + j]);
    }
    snprintf(buf, sizeof buf, "%d", PAIR_BYTES);
    bad |= cf_table_meta_set(R->t, "pair_exchange_bytes", buf);
    if (!bad)
        bad |= cf_table_meta_set(R->t, "pair_exchange_us", s);
    if (!bad)
        bad |= cf_table_meta_set(R->t, "pair_exchange_distance_us", ds);
    free(s);
    free(ds);
    snprintf(buf, sizeof buf,
             "ranks 0 to B-1 at once for each power of two B from 2 to the launch, rank r "
             "exchanging %d bytes with rank r XOR B/2 (MPI_Sendrecv), the other ranks waiting; "
             "%d untimed and %d timed exchanges, each the slowest rank's time; the median of "
             "the timed",
             PAIR_BYTES, PAIR_WARMUP, PAIR_TIMED);
    bad |= cf_table_meta_set(R->t, "pair_exchange_method", buf);
    snprintf(buf, sizeof buf,
             "B:t1,t2,t4,...: for each power of two B from 2 to the launch, ranks 0 to B-1 at "
             "once, rank r exchanging with rank r XOR d at each power of two d from 1 to B/2 "
             "(t at B/2 is pair_exchange_us's), as pair_exchange_method says, %d timed "
             "exchange%s at d below B/2%s",
             PAIR_DIST_TIMED, PAIR_DIST_TIMED == 1 ? "" : "s",
             PAIR_DIST_TIMED == 1 ? " (a simulation)" : "");
    bad |= cf_table_meta_set(R->t, "pair_exchange_distance_method", buf);
    if (bad && R->e->code == 0)
        cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory");
    return bad ? 1 : 0;
}

/* One of the pair-exchange probe's buffers, whose data nobody reads. In a simulation every
 * rank lives in one process: SMPI's shared memory, untouched, as the kernels' buffers (2 MiB
 * a rank of its own would be 20 GiB at 10^4 simulated ranks). Elsewhere malloc'd and
 * touched, so that no page fault lands in a timed exchange. */
static char *pair_alloc(void)
{
#ifdef CF_SMPI
    return SMPI_SHARED_MALLOC(PAIR_BYTES);
#else
    char *b = malloc(PAIR_BYTES);
    if (b != NULL)
        memset(b, 1, PAIR_BYTES);
    return b;
#endif
}

static void pair_free(char *b)
{
#ifdef CF_SMPI
    if (b != NULL)
        SMPI_SHARED_FREE(b);
#else
    free(b);
#endif
}

int cf_run_pair_probe(cf_run_state *R)
{
    if (cf_run_probes_skipped(R))
        return 0;
    long top = 2;
    while (top * 2 <= R->size)
        top *= 2;
    /* The ranks past the last level need no buffers. Every rank learns whether the others
     * have theirs before any exchange: a rank without them would leave its partner waiting. */
    char *sbuf = NULL, *rbuf = NULL;
    if (R->rank < top && (sbuf = pair_alloc()) != NULL && (rbuf = pair_alloc()) == NULL) {
        pair_free(sbuf);
        sbuf = NULL;
    }
    int mine = R->rank < top && rbuf == NULL ? R->rank : R->size, first = R->size, rc = 0;
    double t_us[PAIR_LEVELS] = {0};
    double dist_us[PAIR_LEVELS * PAIR_LEVELS] = {0};
    int arc = MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (arc != MPI_SUCCESS)
        rc = pair_failed(R, "MPI_Allreduce", arc, top, -1);
    else if (first < R->size) {
        if (R->rank == 0 && R->e->code == 0)
            cf_error_set(R->e, CF_EXIT_DATA, NULL, 0,
                         "out of memory for the pair-exchange probe's two 1 MiB buffers on rank %d",
                         first);
        rc = 1;
    } else
        rc = pair_levels(R, top, sbuf, rbuf, t_us, dist_us);
    pair_free(sbuf);
    pair_free(rbuf);
    if (rc == 0 && R->rank == 0) {
        int nlev = 0;
        while ((2L << nlev) <= top)
            nlev++;
        rc = pair_metadata(R, t_us, dist_us, nlev);
    }
    return rc;
}
