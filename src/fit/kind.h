/* What a cost-model kind is: the descriptor each file in src/fit/models/ exposes. The
 * fitting toolkit (fitting.h) reads a fit's terms through it; the table of kinds and what
 * only the kinds use are in model.h. */
#ifndef CF_KIND_H
#define CF_KIND_H

#include <stddef.h>

#include "base/error.h"
#include "fit/fit.h"

struct cf_fit_input; /* fitting.h: the rows a kind fits */

/* How a coefficient enters T(m, b): the design row of a fit is the basis value of each
 * coefficient, and T = x . coef. CF_TERM_NONE marks a parameter reported beside T but
 * not part of it (loggp's g). */
typedef enum cf_term {
    CF_TERM_ONE,
    CF_TERM_M,
    CF_TERM_M2,
    CF_TERM_B,
    CF_TERM_STEP,   /* [b > 1]: the packing engine's fixed cost, absent on the contiguous path */
    CF_TERM_M_STEP, /* m * [b > 1]: its cost per byte (the copy) */
    CF_TERM_NONE,
} cf_term;

typedef struct cf_model_kind {
    const char *name;
    const char *summary;
    int ncoef;
    /* The first coefficients a model file must hold (0: all of them); the others may be
     * absent, then 0 with no variance (the datatype model's step terms, which files
     * written before them lack). */
    int ncoef_required;
    const char *const *coef_names; /* units in the names: "alpha_us" */
    const cf_term *terms;
    int max_segments;
    int min_sizes;      /* distinct message sizes needed */
    int auto_candidate; /* considered by auto */
    /* Fits the rows of in (one pattern, np, datatype), filling everything of out but its
     * identity (pattern, np, datatype), which the caller sets. */
    int (*fit)(const struct cf_fit_input *in, cf_fit *out, cf_error *e);
    /* Optional: text appended to the text formula ("; L = 1.1 us, ..."). */
    void (*describe)(const cf_fit *f, char *buf, size_t n);
} cf_model_kind;

#endif
