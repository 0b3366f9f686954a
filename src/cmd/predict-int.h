/* commfit predict's parts: where the answers at one np come from (source) and what one
 * run of predict holds (ctx), shared by cmd-predict.c (the answers), predict-formula.c
 * (--formula) and predict-points.c (--points). */
#ifndef CF_PREDICT_INT_H
#define CF_PREDICT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "cmd/out-predict.h"
#include "cmd/predict-fit.h"
#include "cmd/predict-p2p.h"
#include "fit/across.h"
#include "fit/model.h"
#include "modelfile/answer.h"
#include "modelfile/modelfile.h"

enum { FMT_TABLE = CF_PREDICT_TABLE, FMT_CSV = CF_PREDICT_CSV, FMT_JSON = CF_PREDICT_JSON };
enum { SRC_FIT = CF_ANSWER_FIT, SRC_ACROSS = CF_ANSWER_ACROSS, SRC_P2P = CF_ANSWER_P2P };

#define NOTE_MAX CF_PREDICT_NOTE_MAX
#define CF_FLOAT_BYTES 4 /* the element of the derived-datatype layouts */
#define CACHE_MAX 65536  /* process counts whose source is kept; beyond, the cache restarts */

/* Where the answers at one np come from. */
#define CF_PREDICT_GROW_SLOTS 256

typedef struct source {
    long np;
    int kind;
    const cf_fit *fit;
    cf_near *near;               /* fit: its correction by the measured points, once built */
    double bytes_min, bytes_max; /* the sizes this source has seen */
    char model[96];
    int np_extra; /* the answer extrapolates in np: always from np=2 (p2p); for the
                     across-np model, an np it was not fitted at or one that spans nodes or a
                     tier it never reached; never from the fit at np */
    /* What np=2 (p2p) or the fitted np (across-np) never measured at np: the nodes it spans,
     * a tier it reaches, and so whether the interval has an upper bound; all 0 for a fit. */
    cf_unmeasured unmeasured;
    /* What np=2 never measured at np (its estimate from np=2 gives a gather's and a
     * scatter's growth past the largest fitted np: cf_answer_grow), once read. */
    cf_unmeasured grow_u;
    int grow_ready;
    /* What holds for every size at this np, as text, a CSV field and a JSON string; its
     * own allocation of its own length: a batch across a thousand np keeps a thousand. */
    cf_predict_note note;
} source;

typedef struct ctx {
    const char *path;
    cf_modelset *ms;
    const cf_across_set *as; /* ms->across */
    const char *pattern;
    char datatype[CF_DATATYPE_MAX];
    const cf_coll *coll;
    int sizeless;    /* the pattern moves no data (barrier): --bytes defaults to 0 */
    int blocks;      /* -1: the fit's default */
    int model_alone; /* no correction by the measured neighbours */
    int two_only;    /* the pattern runs on 2 processes only (two_only) */
    const cf_across *across;
    cf_placement place; /* where the table's ranks ran */
    long *measured;     /* process counts with a fit of (pattern, datatype), increasing */
    size_t nmeasured;
    source **slots; /* open addressing by np; nslots a power of two */
    size_t nslots, nused;
    cf_predict_out out;      /* where and how the answers go */
    size_t refused;          /* answers refused: the model's time at that point is <= 0 */
    char first_refusal[320]; /* the first one, for the message at the end */
    /* The fits at the across-np model's fitted np and the readings of their measured
     * points, by its index of np, found and built at the first answer carried through them
     * (fitted_at_lo); tried: the fit was looked for (fit NULL: none there). */
    cf_near *anchor_near[CF_ACROSS_NP_MAX];
    const cf_fit *anchor_fit[CF_ACROSS_NP_MAX];
    unsigned char anchor_tried[CF_ACROSS_NP_MAX];
    /* The contiguous fit a spread layout's 1-block answers come from, and the reading of
     * its measured points, built at the first (cf_fit_one_block_spread). */
    const cf_fit *contig_fit;
    cf_near *contig_near;
    /* The estimate from np=2 at the largest fitted np by size, that a gather's and a
     * scatter's growth past it is read from (cf_answer_grow): one slot a
     * size, another size's taking it over; a batch over np asks the same sizes at each. */
    double grow_m[CF_PREDICT_GROW_SLOTS], grow_t[CF_PREDICT_GROW_SLOTS];
    unsigned char grow_set[CF_PREDICT_GROW_SLOTS];
    cf_unmeasured grow_from_u; /* what np=2 never measured at that np, once read */
    int grow_from_ready;
} ctx;

/* The source of the answers at np, resolved once and kept (NULL: e says why). */
source *cf_predict_source_at(ctx *c, long np, cf_error *e);
/* The answer of the fit at the across-np model's fitted np p, at m (c a ctx): what the
 * across-np answers are carried through. */
double cf_predict_fitted_at(void *c, long p, double m);
/* r with 3 significant digits, for the notes ("4x the largest measured"). */
void cf_predict_ratio_text(char *buf, size_t n, double r);
/* The answer at (np, bytes) written as a row of c's output (predict-answer.c); 0 or the
 * exit status, e set. */
int cf_predict_emit(ctx *c, long np, uint64_t bytes, cf_error *e);
/* Frees the fits' readings kept across answers (ctx's anchor_* and contig_*). */
void cf_predict_anchor_clear(ctx *c);
/* A two-process pattern asked at another np: a usage error naming file:line (or none). */
int cf_predict_check_two(const ctx *c, long np, const char *file, long line, cf_error *e);

/* --formula: the formula at np in lang (text, c, python, latex, gnuplot) on c's output. */
int cf_predict_formula(ctx *c, long np, const char *lang, cf_error *e);

/* The points asked for, read whole before any answer is printed: a bad line, or a file
 * that cannot be read, stops predict with nothing on standard output (it printed a valid
 * document of the answers before the line, then failed). */
typedef struct points {
    long *np;
    uint64_t *bytes;
    size_t n, cap;
} cf_predict_points;

int cf_predict_points_read(ctx *c, const char *path, cf_predict_points *P, cf_error *e);
void cf_predict_points_free(cf_predict_points *P);

#endif
