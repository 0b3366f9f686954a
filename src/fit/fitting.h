/* Fitting one (pattern, np, datatype) group: the per-np call of the robust engine
 * (robust.h), quality, bandwidth saturation and the fit's check. The model kinds
 * (src/fit/models/) build design rows and call it. */
#ifndef CF_FITTING_H
#define CF_FITTING_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "fit/robust.h"
#include "fit/fit.h"
#include "base/table.h"

const char *cf_statistic_name(cf_statistic s);
const char *cf_weights_name(cf_weights w);
int cf_statistic_parse(const char *s, cf_statistic *out);
int cf_weights_parse(const char *s, cf_weights *out);

/* What a model kind fits: the rows of one (pattern, np, datatype), sorted by bytes then
 * blocks, and every row of the input (loggp reads its experiments there). */
typedef struct cf_fit_input {
    const cf_row *const *rows;
    size_t n;
    const cf_row *const *all;
    size_t nall;
    cf_statistic stat;
    cf_weights weights;
    int robust;
    const char *what; /* "pingpong np 2 byte", for messages */
    /* The file a row was read from, for messages (cf_fit_row_error); NULL when unknown. */
    const char *(*source_of)(const void *ctx, const cf_row *r);
    const void *source_ctx;
    /* The table's np 2 ran inside one node (its ranks_per_node, in every table that says):
     * the ping-pong took the fastest path there is, so that no collective at any np moves
     * a rank's bytes faster (cf_fit_pair_bound_applies); 0 where nothing says. */
    int pair_in_node;
} cf_fit_input;

/* An error about one row of in (CF_EXIT_DATA), at its file and line when they are known. */
int cf_fit_row_error(const cf_fit_input *in, const cf_row *r, cf_error *e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Fits y (with standard deviations sd, used by CF_WEIGHTS_VARIANCE, else may be NULL) by
 * the engine with cf_robust_drop (robust.h); r owns its per-point arrays (cf_lsq_free).
 * Fails (CF_EXIT_DATA, naming what) when n <= p or the design is singular. */
int cf_lsq_run(const double *X, const double *y, const double *sd, size_t n, size_t p, cf_weights w,
               int robust, const char *what, cf_lsq *r, cf_error *e);
/* What cf_lsq_run gives, from plain, the result of cf_lsq_run without robust on the same X,
 * y, sd and w (not changed): the fit before any rejection is not made again. */
int cf_lsq_resume(const cf_lsq *plain, const double *X, const double *y, const double *sd,
                  cf_weights w, int robust, const char *what, cf_lsq *r, cf_error *e);
void cf_lsq_free(cf_lsq *r);

/* Fills q.n, dof, loo_mape, max_rel_err, r2 from the kept points of r; aicc with k
 * parameters. */
void cf_quality_fill(const cf_lsq *r, const double *y, int k, cf_quality *q);

/* Saturation of f from its rows: uses f's tangent at the largest size; valid only when
 * every row carries bw_MiBps (point-to-point patterns). */
void cf_saturation_fill(cf_fit *f, const cf_fit_input *in);

/* The design row of f's kind at (m, b) into x (f->ncoef values). Beyond f's measured sizes
 * (m > max_bytes > 0) the m^2 term grows as its tangent at max_bytes, M (2m - M): a convex
 * bend fitted inside the sizes is a bandwidth that fell there, and carried on as a square
 * it would fall without end (a 16-64 KiB bend read 66x the time simulated at 2 MiB); a
 * concave one's square would turn down the sooner. */
void cf_fit_design(const cf_fit *f, double m, double b, double *x);

/* The segment whose coefficients apply at m, and the second one when m lies between two
 * segments (else -1). */
int cf_fit_segment(const cf_fit *f, double m, int *other);

/* The switch point between segments k and k+1: the geometric middle of the breakpoint
 * interval (the formulas and predict use the same). */
double cf_fit_switch(const cf_fit *f, int k);

/* Where f's time stops growing with m: the turning point of its first segment to bend
 * down (a negative m^2 coefficient), 0 when it falls from the start; INFINITY when none
 * does. Beyond it the curve's time falls as m grows, which no message's cost does. */
double cf_fit_peak(const cf_fit *f);

/* Whether f tells the truth over what it was fitted on, before it goes into a model file:
 * coefficients, covariances and s2 finite, variances >= 0, T finite and >= 0 at every
 * measured row of in, at each segment's bounds and switch point and, for a curve, at its
 * turning point inside a segment; LogGP's L, o_s, o_r, g and G >= 0. 0, or CF_EXIT_DATA
 * with a message naming in->what, the model and the first fault. */
int cf_fit_check(const cf_fit *f, const cf_fit_input *in, cf_error *e);

/* The cost per block of segment k of a fit with a block term (the datatype model's
 * gamma, one per protocol segment): in ns, with its 95% interval (Student t with the fit's
 * dof). 0, or -1 when the segment has none (the term left out, the block count followed
 * the size, or not a datatype fit). */
int cf_fit_per_block(const cf_fit *f, int k, double *ns, double *lo_ns, double *hi_ns);

/* A fit whose leave-one-out error is above this is called poor. */
#define CF_POOR_LOO 0.25
/* Adds the poor-fit warning to f when its leave-one-out error is above CF_POOR_LOO,
 * whatever its kind; returns whether it did. */
int cf_fit_flag_poor(cf_fit *f);
/* Keeps in f the measured points of in (f->points): bytes > 0, one per block count and size
 * (repeats by their median), by block count then size; a fit without a block term keeps
 * its rows' sizes at block count 0. 0, or -1 when out of memory. */
int cf_fit_keep_points(cf_fit *f, const cf_fit_input *in);

/* The backtest of f in message size, from the rows it was fitted on (in, sorted by size):
 * f's kind refitted on the sizes up to half of the largest, read at the sizes above, and
 * the same up to two octaves lower while each refit reads no more than a doubling beyond
 * its own sizes (size-backtest.c); into f->bt (n = 0 when it cannot be made: too few sizes
 * for the kind). */
void cf_fit_size_backtest(cf_fit *f, const cf_fit_input *in);
/* The backtest of a fit with a block term (a datatype fit) in block count, from the rows it
 * was fitted on: refitted without its largest counts and read at them, and, where its
 * counts start above 1, without its smallest (blocks-backtest.c); into f->bbt (an end's
 * n = 0 where it cannot be made: fewer than 3 counts, a refit that fails). */
void cf_fit_blocks_backtest(cf_fit *f, const cf_fit_input *in);
/* f's kind refitted on rows[0 .. n) (a part of in's rows, sorted by size) into sub, with
 * their measured range; the points a trend reads kept where f has no block term (the
 * backtests' refits). 0, or -1 when they hold too few sizes for the kind or its fit fails
 * (sub then holds nothing). */
int cf_fit_refit(const cf_fit *f, const cf_fit_input *in, const cf_row *const *rows, size_t n,
                 cf_fit *sub);

/* Adds a warning string to a fit (printf-style). */
void cf_fit_warn(cf_fit *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
