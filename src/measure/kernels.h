/* The timed MPI kernels of commfit measure, one per pattern, listed in one table. A kernel
 * runs its loop and returns this rank's time per call; it never prints or formats. */
#ifndef CF_KERNELS_H
#define CF_KERNELS_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "base/collective.h"

/* Which --patterns keyword selects a pattern. */
enum {
    CF_PG_ALL = 1,   /* "all": the point-to-point patterns and the collectives */
    CF_PG_LOGGP = 2, /* "loggp": the LogGP parameter experiments */
};

typedef struct cf_kctx cf_kctx;

/* A pattern's kernel: the pattern's facts are in the pattern table (base/collective.h). */
typedef struct cf_pattern {
    const cf_coll *facts; /* name, datatype, two ranks, sized, messages, v-counts */
    unsigned group;       /* CF_PG_ALL or CF_PG_LOGGP */
    /* Bytes of the send and of the receive buffer one call needs. */
    void (*buffers)(uint64_t bytes, int np, uint64_t *send, uint64_t *recv);
    /* Runs reps calls; *t_s is this rank's time per call in seconds (already halved for
     * the round trips), and k->contributes says whether that time counts. 0, or -1 with
     * k->failed and k->mpi_rc set. */
    int (*run)(cf_kctx *k, long reps, double *t_s);
    /* One untimed call on known data; 0 when what arrived is right, 1 with k->why set
     * when it is not, -1 on an MPI error. */
    int (*verify)(cf_kctx *k);
} cf_pattern;

extern const cf_pattern cf_patterns[];
extern const int cf_npatterns;

const cf_pattern *cf_pattern_find(const char *name);

/* The message unit for a point: MPI counts are ints, so sizes (or, for the v-collectives,
 * np times the size) above INT_MAX travel as a contiguous type of *unit bytes, the
 * smallest power of two that divides the size and brings the count under INT_MAX.
 * Reductions count floats (bytes / 4). Returns 0, or -1 when no unit fits. */
int cf_kernel_unit(const cf_pattern *p, uint64_t bytes, int np, uint64_t *unit);
/* 0 where a reduction's bytes hold no whole number of its 4-byte floats (1, 2, 3, 6 B): its
 * count, bytes / 4, would reduce fewer bytes than the row says (0 at 1-3 B), so such a size
 * is not measured for it, as IMB's reductions take multiples of the float only; else 1. */
int cf_kernel_whole(const cf_pattern *p, uint64_t bytes);

/* Bytes of buffer one rank needs for a point (send and receive, one set), page-rounded. */
uint64_t cf_kernel_footprint(const cf_pattern *p, uint64_t bytes, int np);

/* Everything a kernel needs for one point; cf_kernel_setup fills it, and the run,
 * verify and teardown calls use it. */
struct cf_kctx {
    const cf_pattern *pat;
    MPI_Comm comm;
    int rank, np;
    uint64_t bytes;
    MPI_Datatype type; /* MPI_BYTE, MPI_FLOAT or a contiguous type of unit bytes */
    int own_type;      /* type was created here and is freed at teardown */
    int count;         /* elements of type per message (per block for the collectives) */
    int *counts, *displs;
    /* Buffer sets: set i sends from pool + i*stride and receives at pool + i*stride +
     * recv_off. One set normally; more with --off-cache, to cycle past the cache. */
    unsigned char *pool;
    int shared_pool; /* a simulation's buffers, shared by every simulated rank */
    size_t pool_bytes, stride, recv_off;
    int nsets;
    double aux;      /* kernel-private (loggp_or: how long the receiver waits, seconds) */
    int contributes; /* set by run: whether this rank's time counts */
    /* How a collective is timed (cf_kernel_setup's method): sync, IMB's default, times each
     * call alone with a barrier after it; root_shift moves the root round-robin. */
    int sync, root_shift;
    const char *failed;
    int mpi_rc;
    char why[256];
};

/* A page-aligned buffer (free it with free). Transfer buffers are page-aligned, as IMB and
 * OSU allocate theirs: MPICH's large-message path on ch4:ucx is about five times slower
 * from a heap block that is not, which malloc hands out for large sizes once it has
 * freed one of them (glibc's mmap threshold grows), so timings would depend on what was
 * measured before. */
void *cf_kernel_page_alloc(size_t bytes);

/* The ways a collective's loop can depart from IMB's method (a bit set). */
enum {
    CF_KM_NO_SYNC = 1,   /* --no-sync: no barrier between calls; the loop is timed whole */
    CF_KM_ROOT_SHIFT = 2 /* --root-shift: the root moves round-robin (i % np) */
};

/* Prepares k for pattern p at (comm, bytes): unit, counts, page-aligned buffers (nsets
 * of them, or enough to exceed cache_bytes when that is not 0), all touched; method is a
 * set of CF_KM_ bits (0: IMB's method). 0, or -1 with k->why set (out of memory) or
 * k->failed set (an MPI error). */
int cf_kernel_setup(cf_kctx *k, const cf_pattern *p, MPI_Comm comm, uint64_t bytes,
                    uint64_t cache_bytes, unsigned method);

/* In commfit-smpi (CF_SMPI), whether the collectives' buffers are SMPI shared memory: every
 * simulated rank lives in one process, and 128 ranks of an alltoall at 4 MiB would need
 * 128 GiB of their own. The data is then meaningless, so --check turns it off. Elsewhere
 * it does nothing. */
void cf_kernel_share_buffers(int on);
void cf_kernel_teardown(cf_kctx *k);

#endif
