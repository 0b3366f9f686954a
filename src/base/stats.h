/* Summaries of repeated timings: the median of the samples and the half-width of its
 * 95% confidence interval, as commfit measure reports them per point; and the one Student
 * t quantile that those and every fit's prediction interval use. */
#ifndef CF_STATS_H
#define CF_STATS_H

#include <stddef.h>

/* The median of x[0..n-1] (n >= 1); x is not modified. NAN when n is 0. */
double cf_stats_median(const double *x, size_t n);

/* The half-width of a 95% confidence interval for the median of x[0..n-1]:
 * t(0.975, n-1) * sqrt(pi/2) * s / sqrt(n), s the sample standard deviation (the
 * normal-theory standard error of the median). NAN when n < 2. */
double cf_stats_ci95_median(const double *x, size_t n);

/* The percent gain of a time over a baseline's: 100 * (base - t) / base; how much a derived
 * datatype's transfer gains over packing the same data (positive: faster). */
double cf_stats_gain_pct(double t_us, double base_us);

/* Sorts x[0..n-1] increasing (qsort; n may be 0). */
void cf_sort_doubles(double *x, size_t n);

/* The q-quantile (0 <= q <= 1) of x[0..n-1] by nearest rank: x sorted in place, then
 * x[round(q * (n - 1))]. 0 when n is 0. */
double cf_stats_quantile_nearest(double *x, size_t n, double q);

/* The 0.975 quantile of Student t with dof degrees of freedom; INFINITY for dof < 1. */
double cf_t975(int dof);

#endif
