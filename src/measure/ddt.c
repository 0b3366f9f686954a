/* Derived-datatype transfers: plans (payload, blocks, stride), the MPI datatypes and
 * buffers, verification, the ping-pong kernel, and the gain over pack. */
#include "config.h"

#include "measure/ddt.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "measure/kernels.h"
#include "base/size.h"
#include "base/stats.h"

/* The particle of the struct layout; its fields are 4-byte, so it has no padding. */
typedef struct particle {
    float x, y;
    int c;
    float z;
} particle;
_Static_assert(sizeof(particle) == CF_DDT_PARTICLE_BYTES, "a particle is 16 bytes");
_Static_assert(sizeof(float) == CF_DDT_FLOAT_BYTES && sizeof(int) == 4, "4-byte floats, ints");

const long cf_ddt_default_blocks[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 1000};
const size_t cf_ddt_n_default_blocks =
    sizeof cf_ddt_default_blocks / sizeof cf_ddt_default_blocks[0];

const char *const cf_ddt_extra_columns[CF_DDT_NEXTRA] = {"ddt_layout", "ddt_size_bytes",
                                                         "ddt_extent_bytes", "ddt_stride_bytes"};

static const char *const kind_names[CF_DDT_NKINDS] = {
    "contiguous", "vector", "hvector", "indexed", "hindexed", "struct", "pack"};

/* A gap as wide as a block: the stride is twice the block, so the data is really spread. */
#define GAP_FACTOR 2

/* Guard bytes after the contiguous receive buffer: a transfer writing past the payload
 * overwrites them and --check says so. */
#define GUARD_BYTES 64
#define GUARD_BYTE 0xa5
/* Gaps of the derived-side buffer hold this; it is never a payload value. */
#define GAP_WORD 0xffffffffu

const char *cf_ddt_kind_name(cf_ddt_kind k)
{
    return k >= 0 && k < CF_DDT_NKINDS ? kind_names[k] : "?";
}

int cf_ddt_kind_from_name(const char *name, cf_ddt_kind *k)
{
    for (int i = 0; i < CF_DDT_NKINDS; i++)
        if (strcmp(name, kind_names[i]) == 0) {
            *k = (cf_ddt_kind)i;
            return 0;
        }
    return -1;
}

static int is_derived(cf_ddt_kind k)
{
    return k == CF_DDT_VECTOR || k == CF_DDT_HVECTOR || k == CF_DDT_INDEXED ||
           k == CF_DDT_HINDEXED || k == CF_DDT_STRUCT;
}

/* ---- plans ---- */

int cf_ddt_plan(cf_ddt_kind kind, cf_ddt_kind layout, uint64_t bytes, long blocks,
                cf_ddt_shape *s)
{
    memset(s, 0, sizeof *s);
    if (kind == CF_DDT_CONTIGUOUS)
        layout = CF_DDT_CONTIGUOUS;
    else if (kind != CF_DDT_PACK)
        layout = kind;
    if (kind == CF_DDT_PACK && !is_derived(layout))
        return -1;
    s->kind = kind;
    s->layout = layout;
    uint64_t floats = bytes / CF_DDT_FLOAT_BYTES;
    /* The largest float index of an element must fit an int displacement. */
    if (floats > (uint64_t)INT_MAX / GAP_FACTOR)
        return -1;
    switch (layout) {
    case CF_DDT_CONTIGUOUS:
        if (floats == 0)
            return 1;
        s->blocks = 1;
        s->count = s->block_count = s->last_count = floats;
        s->bytes = floats * CF_DDT_FLOAT_BYTES;
        s->extent_bytes = s->bytes;
        return 0;
    case CF_DDT_STRUCT: {
        uint64_t np = bytes / CF_DDT_PARTICLE_BYTES;
        if (np == 0)
            return 1;
        if (np * CF_DDT_PARTICLE_BLOCKS > (uint64_t)LONG_MAX)
            return -1;
        s->blocks = (long)(np * CF_DDT_PARTICLE_BLOCKS);
        s->count = np;
        s->bytes = np * CF_DDT_PARTICLE_BYTES;
        s->stride_bytes = CF_DDT_PARTICLE_BYTES;
        s->extent_bytes = s->bytes;
        return 0;
    }
    case CF_DDT_VECTOR:
    case CF_DDT_HVECTOR:
    case CF_DDT_INDEXED:
    case CF_DDT_HINDEXED: {
        if (blocks < 1 || floats == 0 || (uint64_t)blocks > floats)
            return 1;
        uint64_t b = (uint64_t)blocks, q = floats / b, r = floats % b;
        if (layout == CF_DDT_VECTOR || layout == CF_DDT_HVECTOR)
            r = 0; /* equal blocks: the remainder is not sent */
        s->blocks = blocks;
        s->block_count = q;
        s->last_count = q + r;
        s->count = q * b + r;
        s->bytes = s->count * CF_DDT_FLOAT_BYTES;
        s->stride_bytes = GAP_FACTOR * q * CF_DDT_FLOAT_BYTES;
        s->extent_bytes = (b - 1) * s->stride_bytes + s->last_count * CF_DDT_FLOAT_BYTES;
        return 0;
    }
    default:
        return -1;
    }
}

int cf_ddt_blocks_check(const long *blocks, size_t nblocks, uint64_t max_bytes, cf_error *e)
{
    uint64_t floats = max_bytes / CF_DDT_FLOAT_BYTES;
    for (size_t i = 0; i < nblocks; i++) {
        if (blocks[i] < 1)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "--blocks '%ld': a datatype needs at least 1 block", blocks[i]);
        if ((uint64_t)blocks[i] > floats) {
            char sz[32];
            cf_size_format(max_bytes, sz, sizeof sz);
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "--blocks '%ld': more blocks than the %llu floats of the "
                                "largest size (%s)",
                                blocks[i], (unsigned long long)floats, sz);
        }
    }
    return 0;
}

static int shape_cmp(const void *a, const void *b)
{
    const cf_ddt_shape *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? -1 : 1;
    if (x->blocks != y->blocks)
        return x->blocks < y->blocks ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return (x->layout > y->layout) - (x->layout < y->layout);
}

static int same_point(const cf_ddt_shape *x, const cf_ddt_shape *y)
{
    return shape_cmp(x, y) == 0;
}

int cf_ddt_sweep(const uint64_t *sizes, size_t nsizes, const long *blocks, size_t nblocks,
                 unsigned kinds, cf_ddt_shape **out, size_t *n, cf_error *e)
{
    *out = NULL;
    *n = 0;
    for (size_t j = 0; j < nblocks; j++)
        if (blocks[j] < 1)
            return cf_ddt_blocks_check(&blocks[j], 1, 0, e);
    /* Per size and block count: each derived kind, its pack, and the contiguous baseline
     * at its payload; struct (blocks do not apply) once per size. */
    size_t cap = nsizes * (nblocks * 12 + 4) + 1;
    cf_ddt_shape *v = malloc(cap * sizeof *v);
    if (v == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < nsizes; i++) {
        for (int kd = CF_DDT_VECTOR; kd <= CF_DDT_STRUCT; kd++) {
            if (!(kinds & (1u << kd)))
                continue;
            size_t nb = kd == CF_DDT_STRUCT ? 1 : nblocks;
            for (size_t j = 0; j < nb; j++) {
                long b = kd == CF_DDT_STRUCT ? 0 : blocks[j];
                cf_ddt_shape s;
                int p = cf_ddt_plan((cf_ddt_kind)kd, (cf_ddt_kind)kd, sizes[i], b, &s);
                if (p < 0) {
                    char sz[32];
                    cf_size_format(sizes[i], sz, sizeof sz);
                    free(v);
                    return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                        "--sizes %llu (%s): too large for the derived-datatype "
                                        "transfers' %s datatype (MPI counts are ints): leave "
                                        "ddt out of --patterns for such sizes",
                                        (unsigned long long)sizes[i], sz,
                                        cf_ddt_kind_name((cf_ddt_kind)kd));
                }
                if (p > 0)
                    continue;
                v[k++] = s;
                if ((kinds & (1u << CF_DDT_PACK)) &&
                    cf_ddt_plan(CF_DDT_PACK, (cf_ddt_kind)kd, sizes[i], b, &v[k]) == 0)
                    k++;
                if ((kinds & (1u << CF_DDT_CONTIGUOUS)) &&
                    cf_ddt_plan(CF_DDT_CONTIGUOUS, CF_DDT_CONTIGUOUS, s.bytes, 1, &v[k]) == 0)
                    k++;
            }
        }
        /* Contiguous alone still measures the requested payloads. */
        if (kinds == (1u << CF_DDT_CONTIGUOUS) &&
            cf_ddt_plan(CF_DDT_CONTIGUOUS, CF_DDT_CONTIGUOUS, sizes[i], 1, &v[k]) == 0)
            k++;
    }
    qsort(v, k, sizeof *v, shape_cmp);
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        if (m == 0 || !same_point(&v[i], &v[m - 1]))
            v[m++] = v[i];
    *out = v;
    *n = m;
    return 0;
}

void cf_ddt_row_init(const cf_ddt_shape *s, cf_row *r, char *extra, size_t n)
{
    cf_row_init(r);
    snprintf(r->pattern, sizeof r->pattern, "pingpong");
    r->np = 2;
    r->bytes = s->bytes;
    snprintf(r->datatype, sizeof r->datatype, "%s", cf_ddt_kind_name(s->kind));
    r->blocks = (int)s->blocks; /* below INT_MAX: cf_ddt_plan bounds the floats */
    if (s->stride_bytes > 0)
        snprintf(extra, n, "%s,%llu,%llu,%llu", cf_ddt_kind_name(s->layout),
                 (unsigned long long)s->bytes, (unsigned long long)s->extent_bytes,
                 (unsigned long long)s->stride_bytes);
    else
        snprintf(extra, n, "%s,%llu,%llu,", cf_ddt_kind_name(s->layout),
                 (unsigned long long)s->bytes, (unsigned long long)s->extent_bytes);
    r->extra = extra;
}

/* ---- the layout, as commfit reads it (independent of MPI's reading) ---- */

/* Byte offset, in the derived-side buffer, of payload word i (a float, or a particle's
 * field). */
static uint64_t word_offset(const cf_ddt_shape *s, uint64_t i)
{
    switch (s->layout) {
    case CF_DDT_VECTOR:
    case CF_DDT_HVECTOR:
    case CF_DDT_INDEXED:
    case CF_DDT_HINDEXED: {
        uint64_t blk = i / s->block_count;
        if (blk >= (uint64_t)s->blocks)
            blk = (uint64_t)s->blocks - 1;
        return blk * s->stride_bytes + (i - blk * s->block_count) * CF_DDT_FLOAT_BYTES;
    }
    case CF_DDT_STRUCT: {
        static const size_t field[4] = {offsetof(particle, x), offsetof(particle, y),
                                        offsetof(particle, c), offsetof(particle, z)};
        return i / 4 * sizeof(particle) + field[i % 4];
    }
    default:
        return i * CF_DDT_FLOAT_BYTES;
    }
}

/* The known value of payload word i, as its 4 bytes: floats are whole numbers below 2^23
 * (exact), never 0, different for neighbours; a particle's c is the int of the same. */
static uint32_t word_value(const cf_ddt_shape *s, uint64_t i)
{
    uint32_t v = (uint32_t)(i % 8388607u) + 1u;
    uint32_t w;
    if (s->layout == CF_DDT_STRUCT && i % 4 == 2) {
        int c = (int)v;
        memcpy(&w, &c, sizeof w);
    } else {
        float f = (float)v;
        memcpy(&w, &f, sizeof w);
    }
    return w;
}

static uint64_t payload_words(const cf_ddt_shape *s)
{
    return s->bytes / 4;
}

/* The derived-side buffer: gaps marked, payload words at their offsets. */
static void fill_send(cf_ddt_xfer *x)
{
    const cf_ddt_shape *s = &x->shape;
    uint32_t gap = GAP_WORD;
    for (uint64_t o = 0; o + 4 <= s->extent_bytes; o += 4)
        memcpy(x->send + o, &gap, 4);
    for (uint64_t i = 0; i < payload_words(s); i++) {
        uint32_t w = word_value(s, i);
        memcpy(x->send + word_offset(s, i), &w, 4);
    }
}

static void clear_recv(cf_ddt_xfer *x)
{
    memset(x->recv, 0, x->shape.bytes);
    memset(x->recv + x->shape.bytes, GUARD_BYTE, GUARD_BYTES);
}

/* -1 when the contiguous buffer holds the payload and the guard is intact; else the
 * first wrong word (payload_words for the guard). */
static int64_t bad_word(const cf_ddt_xfer *x)
{
    const cf_ddt_shape *s = &x->shape;
    uint64_t nw = payload_words(s);
    for (uint64_t i = 0; i < nw; i++) {
        uint32_t w;
        memcpy(&w, x->recv + 4 * i, 4);
        if (w != word_value(s, i))
            return (int64_t)i;
    }
    for (size_t g = 0; g < GUARD_BYTES; g++)
        if (x->recv[s->bytes + g] != GUARD_BYTE)
            return (int64_t)nw;
    return -1;
}

/* ---- MPI ---- */

static int mpi_fail(cf_ddt_xfer *x, cf_error *e, int rc, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    const cf_ddt_shape *s = &x->shape;
    x->failed = what;
    x->mpi_rc = rc;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
        snprintf(msg, sizeof msg, "MPI error %d", rc);
    return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "%s, %llu bytes, %ld blocks: %s failed: %s",
                        cf_ddt_kind_name(s->kind), (unsigned long long)s->bytes, s->blocks,
                        what, msg);
}

#define MPI_TRY(call, what)                                                                    \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        if (rc_ != MPI_SUCCESS)                                                                \
            return mpi_fail(x, e, rc_, what);                                          \
    } while (0)

/* The particle as MPI sees it: three blocks, resized to the C struct's extent. */
static int particle_type(MPI_Datatype *t)
{
    int len[CF_DDT_PARTICLE_BLOCKS] = {2, 1, 1};
    MPI_Aint disp[CF_DDT_PARTICLE_BLOCKS] = {offsetof(particle, x), offsetof(particle, c),
                                             offsetof(particle, z)};
    MPI_Datatype types[CF_DDT_PARTICLE_BLOCKS] = {MPI_FLOAT, MPI_INT, MPI_FLOAT};
    MPI_Datatype raw;
    int rc = MPI_Type_create_struct(CF_DDT_PARTICLE_BLOCKS, len, disp, types, &raw);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Type_create_resized(raw, 0, sizeof(particle), t);
    MPI_Type_free(&raw);
    return rc;
}

/* The element of the layout: one datatype describing the whole payload. */
static int layout_type(const cf_ddt_shape *s, MPI_Datatype *t)
{
    int b = (int)s->blocks, q = (int)s->block_count;
    int stride = (int)(s->stride_bytes / CF_DDT_FLOAT_BYTES);
    int rc;
    switch (s->layout) {
    case CF_DDT_CONTIGUOUS:
        return MPI_Type_contiguous((int)s->count, MPI_FLOAT, t);
    case CF_DDT_VECTOR:
        return MPI_Type_vector(b, q, stride, MPI_FLOAT, t);
    case CF_DDT_HVECTOR:
        return MPI_Type_create_hvector(b, q, (MPI_Aint)s->stride_bytes, MPI_FLOAT, t);
    case CF_DDT_INDEXED:
    case CF_DDT_HINDEXED: {
        int *len = malloc((size_t)b * sizeof *len);
        int *disp = malloc((size_t)b * sizeof *disp);
        MPI_Aint *hdisp = malloc((size_t)b * sizeof *hdisp);
        if (len == NULL || disp == NULL || hdisp == NULL) {
            free(len);
            free(disp);
            free(hdisp);
            return MPI_ERR_NO_MEM;
        }
        for (int i = 0; i < b; i++) {
            len[i] = i == b - 1 ? (int)s->last_count : q;
            disp[i] = i * stride;
            hdisp[i] = (MPI_Aint)i * (MPI_Aint)s->stride_bytes;
        }
        if (s->layout == CF_DDT_INDEXED)
            rc = MPI_Type_indexed(b, len, disp, MPI_FLOAT, t);
        else
            rc = MPI_Type_create_hindexed(b, len, hdisp, MPI_FLOAT, t);
        free(len);
        free(disp);
        free(hdisp);
        return rc;
    }
    case CF_DDT_STRUCT: {
        MPI_Datatype p;
        if ((rc = particle_type(&p)) != MPI_SUCCESS)
            return rc;
        rc = MPI_Type_contiguous((int)s->count, p, t);
        MPI_Type_free(&p);
        return rc;
    }
    default:
        return MPI_ERR_TYPE;
    }
}

void cf_ddt_xfer_free(cf_ddt_xfer *x)
{
    if (x->type != MPI_DATATYPE_NULL)
        MPI_Type_free(&x->type);
    if (x->dense != MPI_DATATYPE_NULL && x->dense != MPI_FLOAT)
        MPI_Type_free(&x->dense);
    x->type = x->dense = MPI_DATATYPE_NULL;
    free(x->send);
    free(x->recv);
    free(x->packbuf);
    x->send = x->recv = x->packbuf = NULL;
}

int cf_ddt_xfer_init(cf_ddt_xfer *x, const cf_ddt_shape *s, MPI_Comm comm, cf_error *e)
{
    memset(x, 0, sizeof *x);
    x->shape = *s;
    x->comm = comm;
    x->type = x->dense = MPI_DATATYPE_NULL;
    int size;
    MPI_TRY(MPI_Comm_rank(comm, &x->rank), "MPI_Comm_rank");
    MPI_TRY(MPI_Comm_size(comm, &size), "MPI_Comm_size");
    if (size != 2)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "a datatype ping-pong needs 2 ranks, got %d", size);
    int rc = layout_type(s, &x->type);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&x->type);
    if (rc == MPI_SUCCESS && s->layout == CF_DDT_STRUCT) {
        rc = particle_type(&x->dense);
        if (rc == MPI_SUCCESS)
            rc = MPI_Type_commit(&x->dense);
    } else {
        x->dense = MPI_FLOAT;
    }
    if (rc != MPI_SUCCESS) {
        cf_ddt_xfer_free(x);
        return mpi_fail(x, e, rc, "building the datatype");
    }
    x->dense_count = (int)s->count;
    MPI_Aint lb, extent;
    int tsize;
    rc = MPI_Type_get_extent(x->type, &lb, &extent);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_size(x->type, &tsize);
    if (rc != MPI_SUCCESS) {
        cf_ddt_xfer_free(x);
        return mpi_fail(x, e, rc, "MPI_Type_get_extent");
    }
    /* The plan and MPI must agree, or the rows would describe another transfer. */
    if (lb != 0 || (uint64_t)extent != s->extent_bytes || (uint64_t)tsize != s->bytes) {
        cf_ddt_xfer_free(x);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "%s, %llu bytes, %ld blocks: MPI says size %d, extent %ld, "
                            "expected %llu and %llu",
                            cf_ddt_kind_name(s->kind), (unsigned long long)s->bytes, s->blocks,
                            tsize, (long)extent, (unsigned long long)s->bytes,
                            (unsigned long long)s->extent_bytes);
    }
    x->send = cf_kernel_page_alloc(s->extent_bytes);
    x->recv = cf_kernel_page_alloc(s->bytes + GUARD_BYTES);
    if (s->kind == CF_DDT_PACK) {
        rc = MPI_Pack_size(1, x->type, comm, &x->pack_bytes);
        if (rc != MPI_SUCCESS) {
            cf_ddt_xfer_free(x);
            return mpi_fail(x, e, rc, "MPI_Pack_size");
        }
        x->packbuf = cf_kernel_page_alloc((size_t)x->pack_bytes);
    }
    if (x->send == NULL || x->recv == NULL || (s->kind == CF_DDT_PACK && x->packbuf == NULL)) {
        cf_ddt_xfer_free(x);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory for %llu bytes",
                            (unsigned long long)s->extent_bytes);
    }
    if (x->packbuf != NULL)
        memset(x->packbuf, 0, (size_t)x->pack_bytes); /* no page fault in a timed loop */
    fill_send(x);
    clear_recv(x);
    return 0;
}

enum { TAG = 61 };

/* One leg out: the element, as the kind sends it. */
static int send_leg(cf_ddt_xfer *x, int to, cf_error *e)
{
    if (x->shape.kind == CF_DDT_PACK) {
        int pos = 0;
        MPI_TRY(MPI_Pack(x->send, 1, x->type, x->packbuf, x->pack_bytes, &pos, x->comm),
                "MPI_Pack");
        MPI_TRY(MPI_Send(x->packbuf, pos, MPI_PACKED, to, TAG, x->comm), "MPI_Send");
    } else if (x->shape.kind == CF_DDT_CONTIGUOUS) {
        MPI_TRY(MPI_Send(x->send, x->dense_count, MPI_FLOAT, to, TAG, x->comm), "MPI_Send");
    } else {
        MPI_TRY(MPI_Send(x->send, 1, x->type, to, TAG, x->comm), "MPI_Send");
    }
    return 0;
}

/* One leg in: the bytes, contiguous. */
static int recv_leg(cf_ddt_xfer *x, int from, cf_error *e)
{
    if (x->shape.kind == CF_DDT_PACK) {
        int pos = 0;
        MPI_TRY(MPI_Recv(x->packbuf, x->pack_bytes, MPI_PACKED, from, TAG, x->comm,
                         MPI_STATUS_IGNORE),
                "MPI_Recv");
        MPI_TRY(MPI_Unpack(x->packbuf, x->pack_bytes, &pos, x->recv, x->dense_count, x->dense,
                           x->comm),
                "MPI_Unpack");
    } else {
        MPI_TRY(MPI_Recv(x->recv, x->dense_count, x->dense, from, TAG, x->comm,
                         MPI_STATUS_IGNORE),
                "MPI_Recv");
    }
    return 0;
}

int cf_ddt_run(cf_ddt_xfer *x, long reps, cf_error *e)
{
    int rc;
    if (x->rank == 0) {
        for (long i = 0; i < reps; i++)
            if ((rc = send_leg(x, 1, e)) != 0 || (rc = recv_leg(x, 1, e)) != 0)
                return rc;
    } else {
        for (long i = 0; i < reps; i++)
            if ((rc = recv_leg(x, 0, e)) != 0 || (rc = send_leg(x, 0, e)) != 0)
                return rc;
    }
    return 0;
}

int cf_ddt_run_timed(cf_ddt_xfer *x, long reps, double *t_s, cf_error *e)
{
    double t0 = MPI_Wtime();
    int rc = cf_ddt_run(x, reps, e);
    *t_s = (MPI_Wtime() - t0) / (double)reps / 2.0;
    return rc;
}

/* After a leg, the receiving rank's verdict goes to both ranks, so both report alike. */
static int verdict(cf_ddt_xfer *x, int receiver, const char *leg, cf_error *e)
{
    long long bad = x->rank == receiver ? (long long)bad_word(x) : -1;
    MPI_TRY(MPI_Bcast(&bad, 1, MPI_LONG_LONG, receiver, x->comm), "MPI_Bcast");
    if (bad < 0)
        return 0;
    const cf_ddt_shape *s = &x->shape;
    if ((uint64_t)bad == payload_words(s))
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "check: %s, %llu bytes, %ld blocks: %s: rank %d's buffer was "
                            "written past the %llu payload bytes",
                            cf_ddt_kind_name(s->kind), (unsigned long long)s->bytes, s->blocks,
                            leg, receiver, (unsigned long long)s->bytes);
    return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                        "check: %s, %llu bytes, %ld blocks: %s: rank %d received a wrong "
                        "value at payload word %lld",
                        cf_ddt_kind_name(s->kind), (unsigned long long)s->bytes, s->blocks, leg,
                        receiver, bad);
}

static int check_legs(cf_ddt_xfer *x, cf_error *e)
{
    const cf_ddt_shape *s = &x->shape;
    int rc;
    clear_recv(x);
    if (x->rank == 1) {
        /* Rank 1 will send back only what arrives: its element starts as all gaps. */
        uint32_t gap = GAP_WORD;
        for (uint64_t o = 0; o + 4 <= s->extent_bytes; o += 4)
            memcpy(x->send + o, &gap, 4);
    }
    MPI_TRY(MPI_Barrier(x->comm), "MPI_Barrier");
    if (x->rank == 0)
        rc = send_leg(x, 1, e);
    else
        rc = recv_leg(x, 0, e);
    if (rc != 0)
        return rc;
    if ((rc = verdict(x, 1, "rank 0 to rank 1", e)) != 0)
        return rc;
    if (x->rank == 1)
        for (uint64_t i = 0; i < payload_words(s); i++)
            memcpy(x->send + word_offset(s, i), x->recv + 4 * i, 4);
    clear_recv(x);
    if (x->rank == 1)
        rc = send_leg(x, 0, e);
    else
        rc = recv_leg(x, 1, e);
    if (rc != 0)
        return rc;
    return verdict(x, 0, "rank 1 to rank 0", e);
}

int cf_ddt_check(cf_ddt_xfer *x, cf_error *e)
{
    int rc = check_legs(x, e);
    fill_send(x);
    clear_recv(x);
    return rc;
}

int cf_ddt_verify(cf_ddt_xfer *x, cf_error *e)
{
    int rc = verdict(x, 1, "timed transfers to rank 1", e);
    if (rc == 0)
        rc = verdict(x, 0, "timed transfers to rank 0", e);
    return rc;
}

/* ---- the gain over pack ---- */

size_t cf_ddt_gain_print(FILE *fp, const cf_table *t)
{
    size_t col = t->n_extra;
    for (size_t i = 0; i < t->n_extra; i++)
        if (strcmp(t->extra_names[i], cf_ddt_extra_columns[0]) == 0)
            col = i;
    if (col == t->n_extra)
        return 0;
    size_t printed = 0;
    for (size_t i = 0; i < t->n_rows; i++) {
        const cf_row *r = &t->rows[i];
        cf_ddt_kind k;
        if (strcmp(r->pattern, "pingpong") != 0 || cf_ddt_kind_from_name(r->datatype, &k) != 0 ||
            !is_derived(k))
            continue;
        for (size_t j = 0; j < t->n_rows; j++) {
            const cf_row *p = &t->rows[j];
            char layout[CF_DATATYPE_MAX];
            if (strcmp(p->pattern, "pingpong") != 0 || strcmp(p->datatype, "pack") != 0 ||
                p->np != r->np || p->bytes != r->bytes || p->blocks != r->blocks)
                continue;
            cf_row_extra_copy(p->extra, col, layout, sizeof layout);
            if (strcmp(layout, r->datatype) != 0)
                continue;
            double tt = cf_row_time_or_mean(r, CF_STAT_MEDIAN);
            double tp = cf_row_time_or_mean(p, CF_STAT_MEDIAN);
            if (printed++ == 0)
                fprintf(fp, "%-10s %4s %12s %8s %12s %12s %9s\n", "datatype", "np", "bytes",
                        "blocks", "t_type_us", "t_pack_us", "gain_%");
            fprintf(fp, "%-10s %4d %12llu %8d %12.3f %12.3f %9.1f\n", r->datatype, r->np,
                    (unsigned long long)r->bytes, r->blocks, tt, tp, cf_stats_gain_pct(tt, tp));
            break;
        }
    }
    return printed;
}
