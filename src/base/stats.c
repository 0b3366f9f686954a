/* Median and confidence half-width of timing samples (GSL does the order statistics and
 * the Student t quantile). */
#include "config.h"

#include "base/stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double cf_stats_median(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    /* The samples are few (a handful to a hundred): a sorted copy on the stack is fine. */
    double buf[256];
    double *c = n <= sizeof buf / sizeof buf[0] ? buf : malloc(n * sizeof *c);
    if (c == NULL)
        return NAN;
    memcpy(c, x, n * sizeof *c);
    gsl_sort(c, 1, n);
    double m = gsl_stats_median_from_sorted_data(c, 1, n);
    if (c != buf)
        free(c);
    return m;
}

double cf_t975(int dof)
{
    /* A batch of predictions asks for the same few quantiles a million times, and GSL's
     * inverse takes about a microsecond each: remember the small dof. */
    static double memo[512];
    if (dof < 1)
        return INFINITY;
    if (dof >= (int)(sizeof memo / sizeof memo[0]))
        return gsl_cdf_tdist_Pinv(0.975, (double)dof);
    if (memo[dof] == 0)
        memo[dof] = gsl_cdf_tdist_Pinv(0.975, (double)dof);
    return memo[dof];
}

double cf_stats_ci95_median(const double *x, size_t n)
{
    if (n < 2)
        return NAN;
    /* The samples' spread read robustly, 1.4826 x their median absolute deviation (the
     * standard deviation for normal data): one sample of a few slowed by an interrupt set
     * the standard deviation, and with it the interval, at 6x the median (0.60 us with
     * 3.72 at 0 B), and kept --target-ci from ever stopping on a steady median. Where half
     * the samples tie (a deviation of 0), the standard deviation, never an interval of 0
     * from two equal samples beside a third. */
    double med = cf_stats_median(x, n), dev[256];
    double *d = n <= sizeof dev / sizeof dev[0] ? dev : malloc(n * sizeof *d);
    double s = NAN;
    if (d != NULL) {
        for (size_t i = 0; i < n; i++)
            d[i] = fabs(x[i] - med);
        s = 1.482602218505602 * cf_stats_median(d, n);
        if (d != dev)
            free(d);
    }
    if (!(s > 0))
        s = gsl_stats_sd(x, 1, n);
    double t = n - 1 <= (size_t)1 << 30 ? cf_t975((int)(n - 1))
                                        : gsl_cdf_tdist_Pinv(0.975, (double)(n - 1));
    /* sqrt(pi/2): the standard error of the median over that of the mean, for normal
     * data. */
    return t * sqrt(M_PI / 2.0) * s / sqrt((double)n);
}

double cf_stats_gain_pct(double t_us, double base_us)
{
    return 100.0 * (base_us - t_us) / base_us;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void cf_sort_doubles(double *x, size_t n)
{
    if (n > 1)
        qsort(x, n, sizeof *x, cmp_double);
}

double cf_stats_quantile_nearest(double *x, size_t n, double q)
{
    if (n == 0)
        return 0.0;
    cf_sort_doubles(x, n);
    return x[(size_t)(q * (double)(n - 1) + 0.5)];
}
