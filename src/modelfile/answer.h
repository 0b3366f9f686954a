/* Which source answers a prediction, decided in one place for predict and report: the
 * fit at that np, else the across-np model, else the point-to-point estimate. */
#ifndef CF_ANSWER_H
#define CF_ANSWER_H

#include <stddef.h>

#include "base/collective.h"
#include "fit/across.h"
#include "fit/fit.h"
#include "modelfile/modelfile.h"
#include "modelfile/placement.h"

typedef enum cf_answer_kind {
    CF_ANSWER_FIT,    /* the fit of (pattern, np, datatype) */
    CF_ANSWER_ACROSS, /* the across-np model of (pattern, datatype) */
    CF_ANSWER_P2P,    /* the pattern's algorithm cost with ping-pong's alpha and beta */
} cf_answer_kind;

/* Appends part to the note buf (n bytes), "; " between parts; nothing for an empty part.
 * Every note of an answer is built with it: why no source answers, what a source never
 * measured (placement.c), predict's notes. A part that does not fit is cut and ends "...".  */
void cf_note_join(char *buf, size_t n, const char *part);
/* The same with the part printed from fmt and its arguments. */
void cf_note_joinf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "fit", "across-np", "p2p-estimate": the names predict's output uses. */
extern const char *const cf_answer_kind_names[];

typedef struct cf_answer_source {
    cf_answer_kind kind;
    const cf_fit *fit;       /* CF_ANSWER_FIT */
    const cf_across *across; /* CF_ANSWER_ACROSS; for the others, the model that failed or NULL */
    const cf_coll *coll;     /* CF_ANSWER_P2P: the algorithm costs the estimate evaluates */
    double bytes_min, bytes_max; /* the sizes the source has seen */
} cf_answer_source;

/* The source for (pattern, datatype) at np from the fits of ms and the across-np models
 * and point-to-point parameters of as. np 0 asks for a process count without a fit (the
 * curves report draws across np). A two-process pattern (pingpong) gets no estimate at
 * np != 2. Returns 0, or CF_EXIT_DATA with why (n bytes) saying why no source answers
 * ("not enough process counts (have 1, need 3); no point-to-point parameters in the
 * file"). */
int cf_answer_choose(const cf_modelset *ms, const cf_across_set *as, const char *pattern,
                     const char *datatype, long np, cf_answer_source *out, char *why, size_t n);

/* Whether past the largest fitted np the across-np answers of pattern c with datatype grow
 * by the estimate from np=2 rather than by the across-np formula: a gather's and a scatter's,
 * where as has the estimate (answer.c says why). 1 or 0. */
int cf_answer_grows_by_estimate(const cf_across_set *as, const cf_coll *c, const char *datatype);
/* The estimate from np=2 of c at (p, m) as predict answers it there (cf_placement_p2p_answer),
 * with what np=2 never measured at p (u; NULL: read here), into *e (NULL: not kept): its
 * time, NAN where it has none. */
double cf_answer_estimate_us(const cf_placement *pl, const cf_p2p *pp, const cf_coll *c,
                             const char *datatype, const cf_unmeasured *u, long p, double m,
                             cf_estimate *e);
/* The largest fitted np's own answer t_from at a size carried by the estimate's growth from
 * there: at, the estimate at np, over from_us, its time at that np. The answer *t, *lo, *hi
 * (the across-np formula's reading, its interval) becomes the carried one, the interval
 * holding the formula's and the estimate's own reach about it; the growth into *ratio (NULL:
 * not kept). 0, or -1 (nothing changed) where either has no time. */
int cf_answer_grow(const cf_estimate *at, double from_us, double t_from, double *t, double *lo,
                   double *hi, double *ratio);

#endif
