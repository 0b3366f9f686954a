/* The state of one commfit measure run, shared by the run loop (run.c), its metadata
 * (run-metadata.c) and its table file (run-output.c). */
#ifndef CF_RUN_INT_H
#define CF_RUN_INT_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "measure/measure.h"

/* Where one rank runs, as rank 0 has it after cf_run_host_metadata's gather. That one gather
 * serves both the host metadata (hosts, ranks_per_node, cores, rank_hosts) and the
 * provenance (cpu_model, rank_cpus), so that the launch collects the ranks' hosts once and
 * one loop orders the hosts: by their first rank, the order of hosts:. */
typedef struct cf_run_place {
    const char *host;  /* its host's name (MPI_Get_processor_name) */
    const char *model; /* its processor, as /proc/cpuinfo names it ("" in a simulation) */
    const char *cpus;  /* the processors it may run on, as ranges ("" in a simulation) */
    long cores;        /* its host's cores (a simulated host's in a simulation) */
    int host_index;    /* its host's place in hosts: */
    int first;         /* whether it is its host's first rank, which speaks for the host */
} cf_run_place;

typedef struct cf_run_state {
    cf_measure_opts *o;
    const cf_measure_hooks *hooks;
    cf_error *e;
    int rank, size;
    double wtick;
    uint64_t cache_bytes;
    double *tavg;
    size_t cap_samples;
    FILE *fp;
    int to_fd; /* fp writes to a descriptor ('-', /dev/stdout): nothing to cut or delete */
    cf_table *t;
    char *path;
    size_t rows;
    off_t kept; /* the file's length up to its last complete row */
    struct timespec started; /* CLOCK_MONOTONIC when the launch began measuring (duration_s) */
    cf_run_place *places;    /* rank 0: each rank's (R->size), or NULL out of memory */
    char *places_text;       /* rank 0: the gathered records, which places' strings point into */
    int nhosts;              /* rank 0: how many hosts places names */
    /* This rank's time on a processor (its thread's CPU clock) and the wall time, over its
     * timed samples: how much of their time it ran (rank_cpu_share). */
    double timed_cpu_s, timed_wall_s;
    char *cpu_share; /* rank 0: rank_cpu_share's value, once cf_run_cpu_share made it */
    /* rank 0, showing progress: each point's wall seconds (from its start to the next's),
     * for what is left; NULL out of memory (then the mean over all points says it) */
    double *pt_dur, pt_start;
} cf_run_state;

/* An MPI failure outside a kernel (at pt, or NULL): this rank fills R->e; returns -1. */
int cf_run_mpi_failed(cf_run_state *R, const char *call, int rc, const cf_measure_point *pt);

/* Calls an MPI function; on failure returns cf_run_mpi_failed's -1 from the caller. */
#define RUN_CALL(fn, args, pt)                                                                \
    do {                                                                                      \
        int rc_ = fn args;                                                                    \
        if (rc_ != MPI_SUCCESS)                                                               \
            return cf_run_mpi_failed(R, #fn, rc_, pt);                                        \
    } while (0)

/* The size of the cache that --off-cache strides past. */
uint64_t cf_run_cache_size(void);

/* Every rank: gathers where each rank runs (R->places on rank 0); rank 0 fills the host
 * metadata and warns of a host with more ranks than cores. Sets *over when some node runs
 * more ranks than it has cores (not in a simulation). 0; 1 out of memory on rank 0 (R->e
 * says so); -1 on an MPI error. */
int cf_run_host_metadata(cf_run_state *R, int *over);

/* Appends this rank's processor and the processors it may run on, each ended by a NUL
 * (both empty in a simulation: its ranks are threads of the simulator). 0, or -1 out of
 * memory. */
int cf_run_cpu_record(char **s, size_t *len, size_t *cap);

/* Every rank: rank 0's 8-byte ping-pong with each other rank of the launch; rank 0 records
 * each one-way latency (rank_latency_us), their spread and the method in the metadata.
 * Nothing under --no-latency-probe or --resume (whose table keeps its first launch's). */
int cf_run_latency_probe(cf_run_state *R);

/* Every rank: for each power of two B from 2 to the launch size, ranks 0 to B-1 exchange
 * 1 MiB at once with rank XOR B/2; rank 0 records the slowest rank's time per level
 * (pair_exchange_us), the size and the method. Skipped as the latency probe is. 0; 1 when
 * a rank had no memory for its buffers (on every rank; rank 0 fills R->e) or rank 0 none
 * for the metadata; -1 on an MPI error. */
int cf_run_pair_probe(cf_run_state *R);

/* Every rank: for each power of two B from 2 to the launch size (at most 64, 256 in a
 * simulation), rank 0 sends ranks 1 to B-1 a message each at once, then receives one from
 * each at once, at a few sizes; rank 0 records the ranks' mean time per level and size
 * (fan_out_us, fan_in_us), the sizes and the method. Skipped as the latency probe is.
 * Returns as cf_run_pair_probe. */
int cf_run_fan_probe(cf_run_state *R);

/* An MPI failure in a launch probe, at where ("the pair-exchange probe of ranks 0 to 7"):
 * this rank fills R->e with the call, where and MPI_Error_string's words; returns -1. */
int cf_run_probe_failed(cf_run_state *R, const char *call, int rc, const char *where);

/* Every rank: waits for every rank at a barrier without spinning, so that idle ranks leave
 * the cores to the ranks that measure (a plain barrier in a simulation). 0, or -1 on an MPI
 * error (R->e says so). */
int cf_run_quiet_barrier(cf_run_state *R);

/* Whether the launch's probes are skipped: --no-latency-probe, --resume (whose table keeps
 * its first launch's), or a launch of one rank. */
int cf_run_probes_skipped(const cf_run_state *R);

/* Rank 0: the metadata about the software (and the simulation), first in the table. */
int cf_run_library_metadata(cf_run_state *R);
/* MPI_Get_library_version's words, without the newlines and blanks it ends with. */
void cf_run_library_version(char *lib, size_t n);
/* Whether two library versions say the same, whitespace aside (a table's metadata holds the
 * newlines as blanks). */
int cf_run_same_library(const char *a, const char *b);

/* Rank 0: the metadata of a new table about this run: its date (tm), timer, command, plan. */
int cf_run_start_metadata(cf_run_state *R, const struct tm *tm, const char *command, int over,
                          const char *plan);

/* Rank 0: the metadata, the output file and its header (or, for --resume, the file
 * reopened after its complete rows). 0, an exit status with R->e, or -1. */
int cf_run_open_output(cf_run_state *R, const char *command, int over, const char *plan);

/* Rank 0: commfit_revision, the source revision commfit was built from. 0, or -1 out of
 * memory. */
int cf_run_revision_metadata(cf_run_state *R);

/* Every rank: the MPI tuning environment (mpi_env, mpi_env_differs), each host's processor
 * (cpu_model) and each rank's processors (rank_cpus, both from the places that
 * cf_run_host_metadata gathered before), or in a simulation the simulator's
 * processor (simulator_cpu); rank 0 records them. Starts the clock of duration_s. 0; 1 out
 * of memory on rank 0 (R->e says so); -1 on an MPI error. */
int cf_run_provenance_metadata(cf_run_state *R);

/* The end_reason a resumed launch writes after its resume line, which its own end
 * replaces: a table whose last end_reason says so was cut short. */
#define CF_END_CUT_SHORT "cut short: the launch that resumed the table wrote no end (killed)"

/* Rank 0, --resume: after the resume line, the provenance keys whose value this launch
 * changed (or the table lacked), and end_reason CF_END_CUT_SHORT where the table has an
 * end_reason. 0, or -1 on a write error. */
int cf_run_provenance_resume(cf_run_state *R);

/* This thread's processor time in seconds (CLOCK_THREAD_CPUTIME_ID), 0 where there is
 * none; a simulation's ranks are threads of the simulator, whose time says nothing. */
double cf_run_thread_cpu_s(void);

/* Every rank, after the points: rank 0 gathers each rank's share of its timed samples'
 * wall time that it ran on a processor into R->cpu_share, for rank_cpu_share. Nothing in a
 * simulation. 0; -1 on an MPI error. */
int cf_run_cpu_share(cf_run_state *R);

/* Rank 0, with the table open: appends when and how the launch ended (rank_cpu_share
 * where known, end, duration_s, end_reason) after the rows; status as run_block's (0 complete, 1 stopped by a signal,
 * else failed, R->e saying why). */
void cf_run_end_metadata(cf_run_state *R, int status);

/* Rank 0: writes and flushes one row; 0, or 2 (a failed point) with R->e. */
int cf_run_write_row(cf_run_state *R, const cf_row *row);

/* Rank 0, --resume of a table that has every point of its plan and no end written: locks
 * it, drops a last line cut short, appends the end lines (end_reason complete); 0, or
 * CF_EXIT_DATA with R->e (locked by another measure, a read-only file system). */
int cf_run_mark_complete(cf_run_state *R);

/* Rank 0: flushes, syncs and closes the table; 0, or -1 with R->e. */
int cf_run_close_output(cf_run_state *R);

#endif
