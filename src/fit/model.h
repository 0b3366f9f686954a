/* The cost-model kinds: one descriptor (kind.h) per file in src/fit/models/, listed in one
 * table (src/fit/models/registry.c), and fitting a group with one of them. Nothing outside
 * src/fit/models/ knows a model's insides. */
#ifndef CF_MODEL_H
#define CF_MODEL_H

#include <stddef.h>

#include "base/error.h"
#include "base/table.h"
#include "fit/fit.h"
#include "fit/fitting.h"
#include "fit/kind.h"

extern const cf_model_kind cf_model_constant, cf_model_linear, cf_model_poly2, cf_model_piecewise,
    cf_model_loggp, cf_model_datatype, cf_model_auto;

/* The table of every kind, NULL-terminated, in order of complexity. */
extern const cf_model_kind *const cf_model_kinds[];
const cf_model_kind *cf_model_kind_find(const char *name);

/* Fits one (pattern, np, datatype) group with the named kind (or auto), found in the table;
 * sets the fit's identity and formula. */
int cf_fit_group(const char *kind, const cf_fit_input *in, cf_fit *out, cf_error *e);

/* Shared by the kinds whose T is x . coef over one segment (linear, poly2, datatype):
 * a robust, iterated weighted fit of the terms of kind over in's rows. */
int cf_model_fit_terms(const cf_model_kind *kind, const cf_fit_input *in, cf_fit *out, cf_error *e);
/* The same over the coefficients of kind in mask (bit j: coefficient j); the others are
 * 0 with no variance, and the quality (AICc) counts the fitted ones only. */
int cf_model_fit_mask(const cf_model_kind *kind, unsigned mask, const cf_fit_input *in, cf_fit *out,
                      cf_error *e);
/* auto's rule between two fits of the same rows: c is better than best when its
 * leave-one-out error is lower beyond a tie (10%, or 0.1 point), or on a tie when its AICc
 * is lower by more than 2. Candidates are tried simplest first, so a more complex one
 * must earn its parameters. */
int cf_fit_better(const cf_fit *c, const cf_fit *best);
/* The same rule on the numbers: a leave-one-out error and an AICc each (NAN: none). */
int cf_quality_better(double loo_c, double aicc_c, double loo_best, double aicc_best);

/* The breakpoint search of piecewise, which datatype shares: the rows of in (sorted by
 * size) cut into runs of whole sizes, at least min_sizes each, 1 to CF_SEG_MAX of them, so
 * that the sum of the runs' costs is least for each number of runs. cost(ctx, a, b) is the
 * cost of rows [a, b): never negative, DBL_MAX when they cannot be fitted. */
typedef double (*cf_run_cost)(const void *ctx, size_t a, size_t b);
typedef struct cf_cuts {
    size_t *start, K; /* start[k]: the first row of the k-th of K distinct sizes; start[K] = n */
    int min_sizes;
    int smax;     /* numbers of runs tried: 1 .. smax */
    double *best; /* the search's tables (piecewise.c) */
    size_t *from;
} cf_cuts;
/* plain: try every position (tests); else the pruned search, which chooses the same. */
int cf_cuts_find(const cf_fit_input *in, int min_sizes, cf_run_cost cost, const void *ctx,
                 int plain, cf_cuts *c, cf_error *e);
/* The least cost with s + 1 runs (DBL_MAX: none), and those runs in size indices:
 * cut[0] = 0 < ... < cut[s + 1] = K. */
double cf_cuts_cost(const cf_cuts *c, int s);
void cf_cuts_of(const cf_cuts *c, int s, size_t *cut);
void cf_cuts_free(cf_cuts *c);
/* How a number of runs is chosen: BIC of the relative residual sum of squares rrss over n
 * points with k coefficients, each of the nbreaks breakpoints counting as three more (its
 * position is searched). Lowest wins. */
double cf_cuts_score(double rrss, size_t n, int k, int nbreaks);

/* One segment of a segmented fit (piecewise, datatype): its rows in->rows[a .. b) and
 * their robust fit. */
typedef struct cf_seg_rows {
    size_t a, b;
    const cf_lsq *L;
} cf_seg_rows;
/* What the segments say together: the rows they rejected into out->rejected, and over the
 * rows they kept (nkept of them, rrss their relative residual sum of squares) out->q's
 * n, leave-one-out error, largest relative error and R^2 (about the weighted mean, in
 * relative terms). 0, or CF_EXIT_DATA when out of memory. */
int cf_segs_tally(const cf_fit_input *in, const cf_seg_rows *s, int nseg, double rrss, int nkept,
                  cf_fit *out, cf_error *e);

/* For tests: the piecewise model's breakpoints for each number of segments s + 1 (s <
 * *nlevels): cost[s] (DBL_MAX when there is none) and the size indices cut[s][0 .. s + 1],
 * by its search or (plain) by trying every position. */
int cf_piecewise_cuts(const cf_fit_input *in, int plain, int *nlevels, double *cost,
                      size_t cut[][CF_SEG_MAX + 1], cf_error *e);

#endif
