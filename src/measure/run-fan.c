/* The fan probe: how far the messages one rank posts at once to many others overlap, the
 * thing an estimate from np=2 cannot tell for a linear scatter or gather (a node's loopback
 * or a torus's six links let them go side by side, one card takes them in turn, a shared
 * backbone slower still). For each power of two B from 2 to the launch, ranks 0 to B-1 at
 * once: out, rank 0 posting a send to each of ranks 1 to B-1 (MPI_Isend, MPI_Waitall), each
 * receiving its message; in, each of them sending rank 0 one, rank 0 posting the receives
 * into buffers of their own. At a few sizes from a latency's to a bandwidth's; each
 * exchange's time is the ranks' mean (as a table's collectives, IMB's), the median of the
 * timed ones recorded. */
#include "config.h"

#include "measure/run-int.h"

#include "base/stats.h"
#include "measure/measure-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FAN_N = 6 };
static const int fan_bytes[FAN_N] = {8, 512, 4096, 32768, 131072, 1048576};
#define FAN_MAX_BYTES 1048576
/* In a simulation one timed exchange and no untimed one (SMPI is deterministic: the
 * figures of the 30 data/sim-rooted tables the same but one last digit), and at most 256
 * ranks a level (its cost grows with the square of the launch: at 1024 ranks the launch of
 * a ping-pong took 121 s for 62 with every level); elsewhere 5 timed, and at most 64 ranks a
 * level: rank 0 receives into B-1 buffers of 1 MiB. */
#ifdef CF_SMPI
enum { FAN_WARMUP = 0, FAN_TIMED = 1 };
#define FAN_MAX_RANKS 256L
#else
enum { FAN_WARMUP = 1, FAN_TIMED = 5 };
#define FAN_MAX_RANKS 64L
#endif

static int fan_failed(cf_run_state *R, const char *call, int rc, long B)
{
    char where[96];
    snprintf(where, sizeof where, "the fan probe of ranks 0 to %ld", B - 1);
    return cf_run_probe_failed(R, call, rc, where);
}

#define FAN_CALL(fn, args, B)                                                                  \
    do {                                                                                       \
        int rc_ = fn args;                                                                     \
        if (rc_ != MPI_SUCCESS)                                                                \
            return fan_failed(R, #fn, rc_, B);                                                 \
    } while (0)

/* Ranks 0 to B-1 (comm, theirs alone, as a table's np=B runs): one fan at once, out (rank 0
 * sending) or in (rank 0 receiving), bytes a message, after a barrier of theirs; rank 0 gets
 * the ranks' mean time in *t_s. */
static int fan_once(cf_run_state *R, MPI_Comm comm, long B, int in, int bytes, char *sbuf,
                    char *rbuf, MPI_Request *req, MPI_Status *st, double *t_s)
{
    double mine = 0, sum = 0;
    FAN_CALL(MPI_Barrier, (comm), B);
    double t0 = MPI_Wtime();
    if (R->rank == 0) {
        for (long r = 1; r < B; r++) {
            if (in)
                FAN_CALL(MPI_Irecv, (rbuf + (size_t)(r - 1) * (size_t)bytes, bytes, MPI_BYTE,
                                     (int)r, 1, comm, &req[r - 1]),
                         B);
            else
                FAN_CALL(MPI_Isend, (sbuf, bytes, MPI_BYTE, (int)r, 1, comm, &req[r - 1]), B);
        }
        FAN_CALL(MPI_Waitall, ((int)(B - 1), req, st), B);
    } else if (in) {
        FAN_CALL(MPI_Send, (sbuf, bytes, MPI_BYTE, 0, 1, comm), B);
    } else {
        FAN_CALL(MPI_Recv, (rbuf, bytes, MPI_BYTE, 0, 1, comm, MPI_STATUS_IGNORE), B);
    }
    mine = MPI_Wtime() - t0;
    FAN_CALL(MPI_Reduce, (&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, comm), B);
    *t_s = sum / (double)B;
    return 0;
}

/* Every rank: each level's median mean time at each size, out and in: rank 0 fills
 * us[(in * nlev + lev) * FAN_N + k]. One communicator a level for both ways; in a
 * simulation the world at the launch's own level (a new communicator costs SMPI's
 * selection some N^3 work at its first collective: run_block's reason). The ranks past a
 * level wait for it without spinning (cf_run_quiet_barrier), leaving it the cores. */
static int fan_levels(cf_run_state *R, long top, char *sbuf, char *rbuf, MPI_Request *req,
                      MPI_Status *st, double *us, int nlev)
{
    int lev = 0;
    for (long B = 2; B <= top; B *= 2, lev++) {
        MPI_Comm comm = MPI_COMM_WORLD;
        int world = 0;
#ifdef CF_SMPI
        world = B == R->size;
#endif
        if (!world)
            FAN_CALL(MPI_Comm_split,
                     (MPI_COMM_WORLD, R->rank < B ? 0 : MPI_UNDEFINED, R->rank, &comm), B);
        int rc = 0;
        for (int in = 0; in < 2 && comm != MPI_COMM_NULL && rc == 0; in++)
            for (int k = 0; k < FAN_N && rc == 0; k++) {
                double t_s[FAN_TIMED], t = 0;
                for (int i = 0; i < FAN_WARMUP + FAN_TIMED && rc == 0; i++) {
                    rc = fan_once(R, comm, B, in, fan_bytes[k], sbuf, rbuf, req, st, &t);
                    if (i >= FAN_WARMUP)
                        t_s[i - FAN_WARMUP] = t;
                }
                if (rc == 0 && R->rank == 0)
                    us[((size_t)in * (size_t)nlev + (size_t)lev) * FAN_N + (size_t)k] =
                        1e6 * cf_stats_median(t_s, FAN_TIMED);
            }
        if (!world && comm != MPI_COMM_NULL)
            FAN_CALL(MPI_Comm_free, (&comm), B);
        if (rc != 0)
            return -1;
        if (cf_run_quiet_barrier(R) != 0)
            return -1;
    }
    return 0;
}

/* Rank 0: the probe's metadata. 0, or 1 out of memory. */
static int fan_metadata(cf_run_state *R, const double *us, int nlev, long top)
{
    char *s[2] = {NULL, NULL}, buf[700];
    size_t len[2] = {0, 0}, cap[2] = {0, 0};
    int bad = 0;
    for (int in = 0; in < 2; in++)
        for (int lev = 0; lev < nlev; lev++) {
            bad |= cf_measure_appendf(&s[in], &len[in], &cap[in], "%s%ld:", lev ? ";" : "",
                                      2L << lev);
            for (int k = 0; k < FAN_N; k++)
                bad |= cf_measure_appendf(&s[in], &len[in], &cap[in], "%s%.4g", k ? "," : "",
                                          us[((size_t)in * (size_t)nlev + (size_t)lev) * FAN_N +
                                             (size_t)k]);
        }
    len[0] = 0;
    for (int k = 0; k < FAN_N; k++)
        len[0] += (size_t)snprintf(buf + len[0], sizeof buf - len[0], "%s%d", k ? "," : "",
                                   fan_bytes[k]);
    bad |= cf_table_meta_set(R->t, "fan_bytes", buf);
    char at_most[40];
    snprintf(at_most, sizeof at_most, " (at most %ld ranks)", FAN_MAX_RANKS);
    if (!bad)
        bad |= cf_table_meta_set(R->t, "fan_out_us", s[0]);
    if (!bad)
        bad |= cf_table_meta_set(R->t, "fan_in_us", s[1]);
    free(s[0]);
    free(s[1]);
    snprintf(buf, sizeof buf,
             "B:t,...: for each power of two B from 2 to the launch%s, ranks 0 to B-1 at once "
             "in a communicator of their own, after its barrier, the other ranks waiting; out: rank 0 posting a message of each of fan_bytes to "
             "each of ranks 1 to B-1 (MPI_Isend, MPI_Waitall), each receiving it (MPI_Recv); "
             "in: each sending rank 0 one (MPI_Send), rank 0 posting the receives into buffers "
             "of their own (MPI_Irecv, MPI_Waitall); the ranks' mean time, %d untimed and %d "
             "timed, the median of the timed%s",
             top < R->size && top * 2 > FAN_MAX_RANKS ? at_most : "", FAN_WARMUP,
             FAN_TIMED, FAN_TIMED == 1 ? " (a simulation)" : "");
    bad |= cf_table_meta_set(R->t, "fan_method", buf);
    if (bad && R->e->code == 0)
        cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory");
    return bad ? 1 : 0;
}

/* One buffer: the message sent from its first MiB, those received after it (rank 0's
 * room for a message from each rank of the largest level, the others' for one). In a
 * simulation SMPI's shared memory, untouched, whose data nobody reads: SMPI hands every
 * call from one place in the source the same block, so rank 0's and the others' come from
 * two places, each of one size (every rank mapping rank 0's took 67 GB of address space
 * at a launch of 256); elsewhere malloc'd and touched, so that no page fault lands in a
 * timed message. Not the pair probe's pair_alloc, the same lines: its place in the source
 * hands out 1 MiB blocks. */
static char *fan_alloc(int root, long top)
{
#ifdef CF_SMPI
    if (root)
        return SMPI_SHARED_MALLOC((size_t)top * FAN_MAX_BYTES);
    return SMPI_SHARED_MALLOC(2 * (size_t)FAN_MAX_BYTES);
#else
    size_t n = (root ? (size_t)top : 2) * FAN_MAX_BYTES;
    char *b = malloc(n);
    if (b != NULL)
        memset(b, 1, n);
    return b;
#endif
}

static void fan_free(char *b)
{
#ifdef CF_SMPI
    if (b != NULL)
        SMPI_SHARED_FREE(b);
#else
    free(b);
#endif
}

int cf_run_fan_probe(cf_run_state *R)
{
    if (cf_run_probes_skipped(R))
        return 0;
    long top = 2;
    while (top * 2 <= R->size && top * 2 <= FAN_MAX_RANKS)
        top *= 2;
    int nlev = 0;
    while ((2L << nlev) <= top)
        nlev++;
    /* Every rank learns whether the others have their buffers before any message. */
    char *buf = NULL;
    MPI_Request *req = NULL;
    MPI_Status *st = NULL;
    double *us = NULL;
    int ok = 1;
    if (R->rank < top) {
        buf = fan_alloc(R->rank == 0, top);
        if (R->rank == 0) {
            req = malloc((size_t)top * sizeof *req);
            st = malloc((size_t)top * sizeof *st);
            us = calloc((size_t)(2 * nlev * FAN_N), sizeof *us);
        }
        ok = buf != NULL && (R->rank != 0 || (req != NULL && st != NULL && us != NULL));
    }
    int mine = ok ? R->size : R->rank, first = R->size, rc = 0;
    int arc = MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (arc != MPI_SUCCESS)
        rc = fan_failed(R, "MPI_Allreduce", arc, top);
    else if (first < R->size) {
        if (R->rank == 0 && R->e->code == 0)
            cf_error_set(R->e, CF_EXIT_DATA, NULL, 0,
                         "out of memory for the fan probe's buffers on rank %d", first);
        rc = 1;
    } else
        rc = fan_levels(R, top, buf, buf != NULL ? buf + FAN_MAX_BYTES : NULL, req, st, us,
                        nlev); /* the ranks past the largest level have none */
    fan_free(buf);
    free(req);
    free(st);
    if (rc == 0 && R->rank == 0)
        rc = fan_metadata(R, us, nlev, top);
    free(us);
    return rc;
}
