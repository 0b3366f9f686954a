/* Synthetic timing rows from known models, for the fitting tests: exact or with seeded
 * multiplicative noise. */
#ifndef CF_TEST_FITDATA_H
#define CF_TEST_FITDATA_H

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit/fitting.h"
#include "base/table.h"

typedef struct rows {
    cf_row *r;
    const cf_row **p;
    size_t n, cap;
} rows;

/* One row at (m, b) with time t; bandwidth filled for point-to-point patterns. */
static void rows_add(rows *v, const char *pattern, int np, const char *dt, uint64_t m, int b,
                     double t, int with_bw)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 64;
        v->r = realloc(v->r, v->cap * sizeof *v->r);
        v->p = realloc(v->p, v->cap * sizeof *v->p);
    }
    cf_row *r = &v->r[v->n++];
    cf_row_init(r);
    snprintf(r->pattern, sizeof r->pattern, "%s", pattern);
    snprintf(r->datatype, sizeof r->datatype, "%s", dt);
    r->np = np;
    r->bytes = m;
    r->blocks = b;
    r->t_min_us = r->t_avg_us = r->t_max_us = r->t_med_us = t;
    r->t_ci95_us = 0.01 * t;
    if (with_bw)
        r->bw_MiBps = (double)m / (1.048576 * t);
    for (size_t i = 0; i < v->n; i++)
        v->p[i] = &v->r[i];
}

static void rows_free(rows *v)
{
    free(v->r);
    free(v->p);
    memset(v, 0, sizeof *v);
}

/* The 24 sizes of a default measure run: 0, 1, 2, 4, ... 4 MiB. */
static uint64_t size_at(int k)
{
    return k == 0 ? 0 : (uint64_t)1 << (k - 1);
}

/* exp(N(0, sd)): multiplicative noise, sd relative. */
static double noise(gsl_rng *rng, double sd)
{
    return rng == NULL ? 1 : exp(gsl_ran_gaussian(rng, sd));
}

/* A fit input over every row of v (which must be sorted by size, then blocks). */
static cf_fit_input input_of(const rows *v, const char *what)
{
    cf_fit_input in = {.rows = v->p,
                       .n = v->n,
                       .all = v->p,
                       .nall = v->n,
                       .stat = CF_STAT_MEDIAN,
                       .weights = CF_WEIGHTS_RELATIVE,
                       .robust = 1,
                       .what = what};
    return in;
}

#endif
