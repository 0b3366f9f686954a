/* What a cost-model kind is: one descriptor per file in src/models/, listed in one table
 * (src/models/registry.c). Nothing outside src/models/ knows a model's insides. */
#ifndef CF_MODEL_H
#define CF_MODEL_H

#include <stddef.h>

#include "base/error.h"
#include "fit/fitting.h"
#include "modelfile/modelfile.h"
#include "base/table.h"

/* How a coefficient enters T(m, b): the design row of a fit is the basis value of each
 * coefficient, and T = x . coef. CF_TERM_NONE marks a parameter reported beside T but
 * not part of it (loggp's g). */
typedef enum cf_term {
    CF_TERM_ONE,
    CF_TERM_M,
    CF_TERM_M2,
    CF_TERM_B,
    CF_TERM_NONE,
} cf_term;

typedef struct cf_model_kind {
    const char *name;
    const char *summary;
    int ncoef;
    const char *const *coef_names; /* units in the names: "alpha_us" */
    const cf_term *terms;
    int max_segments;
    int min_sizes;      /* distinct message sizes needed */
    int auto_candidate; /* considered by auto */
    /* Fits the rows of in (one pattern, np, datatype), filling everything of out but its
     * identity (pattern, np, datatype), which the caller sets. */
    int (*fit)(const cf_fit_input *in, cf_fit *out, cf_error *e);
    /* Optional: text appended to the text formula ("; L = 1.1 us, ..."). */
    void (*describe)(const cf_fit *f, char *buf, size_t n);
} cf_model_kind;

extern const cf_model_kind cf_model_constant, cf_model_linear, cf_model_poly2,
    cf_model_piecewise, cf_model_loggp, cf_model_datatype, cf_model_auto;

/* The table of every kind, NULL-terminated, in order of complexity. */
extern const cf_model_kind *const cf_model_kinds[];
const cf_model_kind *cf_model_kind_find(const char *name);

/* Shared by the kinds whose T is x . coef over one segment (linear, poly2, datatype):
 * a robust, iterated weighted fit of the terms of kind over in's rows. */
int cf_model_fit_terms(const cf_model_kind *kind, const cf_fit_input *in, cf_fit *out,
                       cf_error *e);

/* For tests: the piecewise model's breakpoints for each number of segments s + 1 (s <
 * *nlevels): cost[s] (DBL_MAX when there is none) and the size indices cut[s][0 .. s + 1],
 * by its search or (plain) by trying every position. */
int cf_piecewise_cuts(const cf_fit_input *in, int plain, int *nlevels, double *cost,
                      size_t cut[][CF_SEG_MAX + 1], cf_error *e);

#endif
