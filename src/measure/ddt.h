/* Derived-datatype transfers, after Furmento and Mercier's MPICH/Madeleine study (INRIA
 * RT-0306): the layouts, their MPI datatypes and buffers, verification, and the timed
 * ping-pong kernel that sends one derived element and receives the bytes contiguous. */
#ifndef CF_DDT_H
#define CF_DDT_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "base/table.h"

/* The datatype column of a derived-datatype row. The order is the order of the rows of
 * one payload and block count in a sweep. */
typedef enum cf_ddt_kind {
    CF_DDT_CONTIGUOUS, /* baseline: the payload as MPI_FLOAT */
    CF_DDT_VECTOR,
    CF_DDT_HVECTOR,
    CF_DDT_INDEXED,
    CF_DDT_HINDEXED,
    CF_DDT_STRUCT,
    CF_DDT_PACK, /* baseline: MPI_Pack of a layout, contiguous send, MPI_Unpack */
    CF_DDT_NKINDS
} cf_ddt_kind;

/* Bytes of one float of payload, and of one particle {float x, y; int c; float z}. */
#define CF_DDT_FLOAT_BYTES 4
#define CF_DDT_PARTICLE_BYTES 16
/* Blocks of one particle in its MPI_Type_create_struct: {x, y}, {c}, {z}. */
#define CF_DDT_PARTICLE_BLOCKS 3

/* The default block counts of a sweep: 1 to 10, 100 and 1000 (where the payload has that
 * many floats). */
extern const long cf_ddt_default_blocks[];
extern const size_t cf_ddt_n_default_blocks;

/* The extra table columns a derived-datatype row fills (other rows leave them empty). */
#define CF_DDT_NEXTRA 4
extern const char *const cf_ddt_extra_columns[CF_DDT_NEXTRA];

const char *cf_ddt_kind_name(cf_ddt_kind k);
/* 0, or -1 when name is not a kind. */
int cf_ddt_kind_from_name(const char *name, cf_ddt_kind *k);

/* One measured point: what is sent and how it lies in memory. Computed without MPI. */
typedef struct cf_ddt_shape {
    cf_ddt_kind kind;      /* the row's datatype */
    cf_ddt_kind layout;    /* the layout on the derived side: kind itself; for pack the
                              derived type packed; contiguous for contiguous */
    uint64_t bytes;        /* payload actually sent: the row's bytes */
    long blocks;           /* the row's blocks: contiguous pieces of the element sent */
    uint64_t count;        /* payload floats, or particles for the struct layout */
    uint64_t block_count;  /* floats per block; the last block holds last_count */
    uint64_t last_count;   /* block_count plus the remainder (indexed, hindexed) */
    uint64_t stride_bytes; /* distance between block starts; the particle for struct;
                              0 for contiguous */
    uint64_t extent_bytes; /* extent of the one element sent (of the layout for pack) */
} cf_ddt_shape;

/* Plans one point for a requested payload and block count. The payload is rounded down
 * to what the layout can carry: a multiple of 4 bytes (16 for struct), and of 4 * blocks
 * bytes for vector and hvector (equal blocks). Contiguous ignores blocks (one block);
 * struct ignores them too (3 per particle). Returns 0, or 1 when the point is skipped: no
 * whole float (particle) fits, or more blocks than floats. Returns -1 when a count or
 * displacement would not fit an int. */
int cf_ddt_plan(cf_ddt_kind kind, cf_ddt_kind layout, uint64_t bytes, long blocks,
                cf_ddt_shape *s);

/* Which kinds a sweep measures, as a bit set of (1u << kind); pack is measured for each
 * derived layout selected, contiguous at each distinct payload of the selected kinds. */
#define CF_DDT_ALL_KINDS ((1u << CF_DDT_NKINDS) - 1)

/* The points of a sweep over sizes x block counts, sorted by payload, blocks, kind, and
 * layout, without repeats (rounding can map several requests to one payload). A block
 * count is skipped at the sizes with fewer floats (cf_ddt_blocks_check refuses the counts
 * no size can carry); a count below 1 is refused (CF_EXIT_USAGE, naming it). *out is
 * malloc'd; *n may be 0 (nothing fits). */
int cf_ddt_sweep(const uint64_t *sizes, size_t nsizes, const long *blocks, size_t nblocks,
                 unsigned kinds, cf_ddt_shape **out, size_t *n, cf_error *e);

/* Checks a --blocks list alone: at least 1, at most maxfloats (the floats of the largest
 * payload). CF_EXIT_USAGE naming the offending value. */
int cf_ddt_blocks_check(const long *blocks, size_t nblocks, uint64_t max_bytes, cf_error *e);

/* The row of a point: pattern pingpong, np 2, datatype, bytes, blocks and the extra
 * columns (layout, type size, extent, stride) in extra, comma-joined. */
void cf_ddt_row_init(const cf_ddt_shape *s, cf_row *r, char *extra, size_t n);

/* ---- MPI: buffers, datatypes and the kernel ---- */

/* One point ready to run between the two ranks of a communicator. */
typedef struct cf_ddt_xfer {
    cf_ddt_shape shape;
    MPI_Comm comm;
    int rank;               /* 0 starts each round trip, 1 answers */
    MPI_Datatype type;      /* the element sent (the layout's for pack); committed */
    MPI_Datatype dense;     /* what the contiguous side holds: MPI_FLOAT or the particle */
    int dense_count;        /* floats or particles */
    unsigned char *send;    /* the derived-side buffer: extent_bytes */
    unsigned char *recv;    /* the contiguous side: bytes, then a guard zone */
    unsigned char *packbuf; /* pack only */
    int pack_bytes;         /* pack buffer size (MPI_Pack_size) */
    const char *failed;     /* the MPI call that failed, or NULL */
    int mpi_rc;             /* and its error code */
} cf_ddt_xfer;

/* Builds the datatypes and buffers of a point on both ranks of comm (exactly 2 ranks)
 * and fills them with known values. Collective over comm only in that both ranks call
 * it. On failure frees what it made and fills e. */
int cf_ddt_xfer_init(cf_ddt_xfer *x, const cf_ddt_shape *s, MPI_Comm comm, cf_error *e);
void cf_ddt_xfer_free(cf_ddt_xfer *x);

/* reps round trips: rank 0 sends the element and receives the bytes contiguous; rank 1
 * receives contiguous and sends its element back (pack: MPI_Pack, a contiguous
 * MPI_PACKED message, MPI_Unpack into the contiguous buffer). Untimed: the caller times
 * it. Both ranks return the same status unless MPI itself fails. */
int cf_ddt_run(cf_ddt_xfer *x, long reps, cf_error *e);
/* The same, timed: *t_s is this rank's time per call in seconds, half a round trip. */
int cf_ddt_run_timed(cf_ddt_xfer *x, long reps, double *t_s, cf_error *e);

/* One verified round trip, outside any timed loop: rank 0's element, through the
 * layout, must reach rank 1 as the payload in order, without writing past it; rank 1
 * puts what arrived back into its own element (by commfit's own reading of the layout,
 * not MPI's) and sends it back; rank 0 must get the payload again. Afterwards the
 * buffers hold the known values again. Both ranks return the same status and message. */
int cf_ddt_check(cf_ddt_xfer *x, cf_error *e);

/* Checks that the contiguous buffers of both ranks hold the payload, as they must after
 * any run (both elements hold the same values): verifies the timed transfers themselves.
 * Both ranks return the same status. */
int cf_ddt_verify(cf_ddt_xfer *x, cf_error *e);


/* ---- the study's result: the gain of the datatype path over pack ---- */

/* For each derived-datatype row of t with a pack row of the same np, payload, block count
 * and layout: (t_pack - t_type) / t_pack in percent, from the medians (the means when a
 * row has no median). Prints one line each, with a header; returns the number printed. */
size_t cf_ddt_gain_print(FILE *fp, const cf_table *t);

#endif
