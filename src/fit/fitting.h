/* The fitting engine: weighted, iterated relative-error least squares with GSL, robust
 * rejection of outliers, leave-one-out error, AICc, and bandwidth saturation. The model
 * kinds (src/models/) build design rows and call it. */
#ifndef CF_FITTING_H
#define CF_FITTING_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "modelfile/modelfile.h"
#include "base/table.h"

typedef enum cf_statistic { CF_STAT_MEDIAN, CF_STAT_MEAN, CF_STAT_MIN } cf_statistic;
typedef enum cf_weights { CF_WEIGHTS_RELATIVE, CF_WEIGHTS_VARIANCE, CF_WEIGHTS_NONE } cf_weights;

const char *cf_statistic_name(cf_statistic s);
const char *cf_weights_name(cf_weights w);
int cf_statistic_parse(const char *s, cf_statistic *out);
int cf_weights_parse(const char *s, cf_weights *out);

/* The time a fit uses from a row: t_med_us, t_avg_us or t_min_us. */
double cf_row_time(const cf_row *r, cf_statistic s);

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
} cf_fit_input;

/* One least-squares problem: y ~ X c, X row-major n x p. */
typedef struct cf_lsq {
    size_t n, p;
    double coef[CF_COEF_MAX];
    double cov_unscaled[CF_COEF_MAX][CF_COEF_MAX]; /* (X'WX)^-1 */
    double cov[CF_COEF_MAX][CF_COEF_MAX];          /* scaled by the residual variance */
    double wrss;   /* weighted residual sum of squares (kept points) */
    double rrss;   /* sum of squared relative residuals (kept points) */
    double s2;     /* wrss / dof: the variance scale of cov */
    double s2_rel; /* rrss / dof */
    int dof;
    int nkept;
    double *fitted;         /* n */
    double *loo_rel;        /* n: |leave-one-out error| / y */
    unsigned char *rejected; /* n */
} cf_lsq;

/* Fits y (with standard deviations sd, used by CF_WEIGHTS_VARIANCE, else may be NULL).
 * Relative weights are 1/T^2 with T the fitted values, iterated to convergence. With
 * robust, points whose relative residual is far beyond the robust spread (4 times
 * 1.4826 MAD) are set aside, the worst quarter of them per refit (at least one), at most
 * max(1, n/8) in all, keeping dof >= 2.
 * Fails (CF_EXIT_DATA, naming what) when n <= p or the design is singular. */
int cf_lsq_run(const double *X, const double *y, const double *sd, size_t n, size_t p,
               cf_weights w, int robust, const char *what, cf_lsq *r, cf_error *e);
/* What cf_lsq_run gives, from plain, the result of cf_lsq_run without robust on the same X,
 * y, sd and w (not changed): the fit before any rejection is not made again. */
int cf_lsq_resume(const cf_lsq *plain, const double *X, const double *y, const double *sd,
                  cf_weights w, int robust, const char *what, cf_lsq *r, cf_error *e);
void cf_lsq_free(cf_lsq *r);

/* AICc from a sum of squared relative residuals, k parameters (the variance not
 * counted; it is added here). Relative residuals below 1e-6 count as exact, so that
 * rounding cannot make a complex model look better. NAN when n - k - 2 < 1. */
double cf_aicc(double rrss, size_t n, int k);

/* The 0.975 quantile of Student t with dof degrees of freedom (dof >= 1). */
double cf_t975(int dof);

/* Fills q.n, dof, loo_mape, max_rel_err, r2 from the kept points of r; aicc with k
 * parameters. */
void cf_quality_fill(const cf_lsq *r, const double *y, int k, cf_quality *q);

/* Saturation of f from its rows: uses f's tangent at the largest size; valid only when
 * every row carries bw_MiBps (point-to-point patterns). */
void cf_saturation_fill(cf_fit *f, const cf_fit_input *in);

/* The design row of f's kind at (m, b) into x (f->ncoef values). */
void cf_fit_design(const cf_fit *f, double m, double b, double *x);

/* The segment whose coefficients apply at m, and the second one when m lies between two
 * segments (else -1). */
int cf_fit_segment(const cf_fit *f, double m, int *other);

/* The switch point between segments k and k+1: the geometric middle of the breakpoint
 * interval (the formulas and predict use the same). */
double cf_fit_switch(const cf_fit *f, int k);

/* Fits one (pattern, np, datatype) group with the named kind (or auto); sets the fit's
 * identity and formula. */
int cf_fit_group(const char *kind, const cf_fit_input *in, cf_fit *out, cf_error *e);

/* Whether f tells the truth over what it was fitted on, before it goes into a model file:
 * coefficients, covariances and s2 finite, variances >= 0, T finite and >= 0 at every
 * measured row of in, at each segment's bounds and switch point and, for a curve, at its
 * turning point inside a segment; LogGP's L, o_s, o_r, g and G >= 0. 0, or CF_EXIT_DATA
 * with a message naming in->what, the model and the first fault. */
int cf_fit_check(const cf_fit *f, const cf_fit_input *in, cf_error *e);

/* Adds a warning string to a fit (printf-style). */
void cf_fit_warn(cf_fit *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
