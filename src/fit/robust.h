/* The one robust least-squares engine, after GSL's gsl_multifit_robust: a caller-owned
 * workspace made for a weighting scheme and a problem size, one rejection rule, one fit
 * function that every model kind and the across-np fit call, and the one AICc (the one
 * Student t quantile, cf_t975, is in base/stats.h). */
#ifndef CF_ROBUST_H
#define CF_ROBUST_H

#include <stddef.h>

#include "base/stats.h"

#define CF_ROBUST_PMAX 8 /* coefficients of one fit: loggp has the most */

typedef enum cf_weights { CF_WEIGHTS_RELATIVE, CF_WEIGHTS_VARIANCE, CF_WEIGHTS_NONE } cf_weights;

/* How a fit iterates its weights and keeps the points it set aside. */
typedef enum cf_robust_scheme {
    /* Set-aside rows leave the design, whose columns are scaled over the kept rows.
     * CF_WEIGHTS_RELATIVE starts as 1/y^2 and is refitted with 1/T^2 (T the fitted values)
     * until no coefficient moves by 1e-11 (at most 50 refits). s2 is the weighted residual
     * sum of squares over the kept points (with the last weights) per dof. */
    CF_ROBUST_DROP,
    /* Set-aside rows stay with weight 0, columns scaled over every row. Weights 1/T^2, T
     * the fitted time where positive (else the measured one), starting from the measured
     * times, for at most `passes` solves until no T moves by 1e-10. s2 is GSL's chi^2 of
     * the last solve per dof. Needs every y positive and finite. */
    CF_ROBUST_ZERO_WEIGHT,
} cf_robust_scheme;

typedef struct cf_robust_workspace cf_robust_workspace;

/* The one rejection rule, for every model kind and the across-np fit: each round sets
 * aside every kept point whose relative deviation from the fit is beyond the cut, the
 * worst first, while the budget lasts (at most n / cap_div points in all). */
typedef struct cf_robust_rule {
    const char *name;
    int max_rounds; /* rounds of setting aside */
    size_t cap_div;
    /* The limit beyond which a deviation |y - T| / T is set aside, from the m >= 1
     * deviations of the kept points (dev reordered; buf holds m values). */
    double (*cut)(double *dev, size_t m, double *buf);
    double cut_floor; /* the smallest limit cut returns */
    /* 1 when no deviation of the m (the largest is worst) is beyond cut's limit, told
     * without selecting as cut does where a count can tell; 0 when it cannot tell. */
    int (*none_beyond)(const double *dev, size_t m, double worst);
} cf_robust_rule;

/* max(5%, 5 x 1.4826 x the median deviation), 4 rounds, at most n/4 points. Chosen over
 * 4 x 1.4826 x MAD (at least 1e-6), a quarter of the points beyond per round, at most
 * max(1, n/8), on the held-out figures of bench/ (see the commit that made it the one). */
extern const cf_robust_rule *const cf_robust_median5;

/* How a fit iterates its weights around the rule: a scheme and what it keeps of the
 * points the last round sets aside. */
typedef struct cf_robust_type {
    const char *name;
    cf_robust_scheme scheme;
    int passes; /* CF_ROBUST_ZERO_WEIGHT: solves per round */
    /* 0: the points the last round sets aside leave the statistics (n, dof, quality) but
     * the coefficients stay those of the fit before (CF_ROBUST_ZERO_WEIGHT computes its
     * statistics once, at the end; the across-np quick search mirrors that). */
    int refit_last;
    /* 1: a refit the remaining points cannot determine puts the round's points back and
     * ends; 0: it fails the fit. */
    int restore_on_failure;
    const cf_robust_rule *rule;
} cf_robust_type;

/* Per-np fits (every model kind): CF_ROBUST_DROP, every round refitted. */
extern const cf_robust_type *const cf_robust_drop;
/* Across-np fits: CF_ROBUST_ZERO_WEIGHT, rounds of at most 8 solves. */
extern const cf_robust_type *const cf_robust_zero_weight;

/* Why a fit failed. */
typedef enum cf_robust_status {
    CF_ROBUST_OK = 0,
    CF_ROBUST_NOMEM,
    CF_ROBUST_SIZE,      /* n above the workspace's nmax, a start of another size, or a start
                            given to CF_ROBUST_ZERO_WEIGHT (which cannot resume) */
    CF_ROBUST_FEW,       /* n <= p */
    CF_ROBUST_ZERO_TERM, /* column `at` is 0 at every point */
    CF_ROBUST_BAD_Y,     /* y[at] is not positive and finite (CF_ROBUST_ZERO_WEIGHT) */
    CF_ROBUST_GSL,       /* GSL failed with status `gsl` */
    CF_ROBUST_SINGULAR,  /* the points cannot separate the columns */
    CF_ROBUST_DIVERGED,  /* a coefficient is not finite */
    CF_ROBUST_DOF,       /* fewer than p + 1 points kept */
} cf_robust_status;

/* One fit's result. fitted, loo_rel and rejected have n values: after cf_robust_fit they
 * point into the workspace (valid until its next fit); cf_lsq_run gives the fit its own
 * copies, which cf_lsq_free frees. */
typedef struct cf_lsq {
    size_t n, p;
    double coef[CF_ROBUST_PMAX];
    double cov_unscaled[CF_ROBUST_PMAX][CF_ROBUST_PMAX]; /* (X'WX)^-1 */
    double cov[CF_ROBUST_PMAX][CF_ROBUST_PMAX];          /* scaled by the residual variance */
    double wrss;   /* weighted residual sum of squares (kept points; ZERO_WEIGHT: GSL's chi^2
                      of the last solve) */
    double rrss;   /* sum of squared relative residuals (kept points; DROP, else NAN) */
    double s2;     /* the variance scale of cov */
    double s2_rel; /* rrss / dof (DROP, else NAN) */
    int dof;
    int nkept;
    cf_robust_status status;
    size_t at;       /* CF_ROBUST_ZERO_TERM, CF_ROBUST_BAD_Y: the column or row */
    int gsl;         /* CF_ROBUST_GSL: GSL's status */
    double *fitted;  /* n: T at each point (CF_ROBUST_ZERO_WEIGHT: from the scaled design) */
    double *loo_rel; /* n: |leave-one-out error| / y; where the leverage is 1, INFINITY
                        (DROP) or NAN (ZERO_WEIGHT, also at the points set aside) */
    unsigned char *rejected; /* n */
} cf_lsq;

/* A workspace for fits of at most nmax points and exactly p coefficients by type T;
 * NULL when out of memory or p is 0 or above CF_ROBUST_PMAX. */
cf_robust_workspace *cf_robust_alloc(const cf_robust_type *T, size_t nmax, size_t p);
void cf_robust_free(cf_robust_workspace *w);

/* Fits y ~ X c (X row-major, n x p) with weights wt (sd: the standard deviations that
 * CF_WEIGHTS_VARIANCE uses, else may be NULL; CF_ROBUST_ZERO_WEIGHT uses relative weights
 * always), setting outliers aside by the rejection rule when robust. start, when not
 * NULL, is the result of the same fit without robust: the rounds start where it ends.
 * Returns r->status. */
cf_robust_status cf_robust_fit(cf_robust_workspace *w, const double *X, const double *y,
                               const double *sd, size_t n, cf_weights wt, int robust,
                               const cf_lsq *start, cf_lsq *r);

/* AICc from a sum of squared relative residuals rss over n points with k parameters (the
 * caller counts the residual variance or not). rss below n * 1e-12 counts as that, so
 * that rounding cannot make a complex model look better. NAN when n - k - 1 < 1. */
double cf_aicc(double rss, size_t n, int k);

#endif
