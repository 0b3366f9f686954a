/* commfit measure's sampling rules: how many calls a sample times, when a point has
 * enough samples, and how the samples make a row. */
#include "config.h"

#include "measure/measure.h"

#include <math.h>
#include <stdio.h>

#include "base/stats.h"

long cf_measure_reps(uint64_t bytes, long reps_opt, double max_time_s, long samples,
                     double t_call_s)
{
    if (reps_opt > 0)
        return reps_opt;
    long r = CF_MEASURE_REPS_MAX;
    if (bytes > 0 && (uint64_t)CF_MEASURE_REPS_BYTES / bytes < (uint64_t)r)
        r = (long)((uint64_t)CF_MEASURE_REPS_BYTES / bytes);
    if (t_call_s > 0 && max_time_s > 0) {
        double fit = max_time_s / ((double)(samples + 1) * t_call_s);
        if (fit < (double)r)
            r = (long)fit;
    }
    return r < 1 ? 1 : r;
}

int cf_measure_more(const cf_measure_opts *o, const double *tavg, size_t n, double elapsed_s,
                    const char **stop)
{
    double budget = o->max_time_s > 0 ? o->max_time_s : CF_MEASURE_MAX_TIME_S;
    if (n == 0)
        return 1;
    if (o->target_ci > 0) {
        if (n >= CF_MEASURE_CI_MIN_SAMPLES &&
            cf_stats_ci95_median(tavg, n) <= o->target_ci / 100.0 * cf_stats_median(tavg, n)) {
            *stop = "ci";
            return 0;
        }
        if (elapsed_s >= budget) {
            *stop = "time";
            return 0;
        }
        if (n >= CF_MEASURE_CI_MAX_SAMPLES) {
            *stop = "samples";
            return 0;
        }
        return 1;
    }
    if (n >= (size_t)(o->samples ? o->samples : CF_MEASURE_SAMPLES)) {
        *stop = "samples";
        return 0;
    }
    if (elapsed_s >= budget) {
        *stop = "time";
        return 0;
    }
    return 1;
}

void cf_measure_row(const cf_pattern *p, int np, uint64_t bytes, long reps, double tick_s,
                    const double *tavg, size_t n, const double rank_s[2], cf_row *row)
{
    cf_row_init(row);
    snprintf(row->pattern, sizeof row->pattern, "%s", p->facts->pattern);
    snprintf(row->datatype, sizeof row->datatype, "%s", p->facts->datatype);
    row->np = np;
    row->bytes = bytes;
    row->reps = reps;
    row->samples = (int)n;
    double lo = rank_s[0], hi = rank_s[1], sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += tavg[i];
    row->t_min_us = lo * 1e6;
    row->t_avg_us = sum / (double)n * 1e6;
    row->t_max_us = hi * 1e6;
    /* Rounding of the mean must not break min <= avg <= max. */
    if (row->t_avg_us < row->t_min_us)
        row->t_avg_us = row->t_min_us;
    if (row->t_avg_us > row->t_max_us)
        row->t_avg_us = row->t_max_us;
    row->t_med_us = cf_stats_median(tavg, n) * 1e6;
    row->t_ci95_us = n >= 2 ? cf_stats_ci95_median(tavg, n) * 1e6 : NAN;
    /* Samples that differ by less than the timer resolves differ by its rounding alone: in
     * a simulation, where every sample takes the same time, by the last bits of the clock's
     * doubles (2.8e-14 us at 2.02 us, or 0, as the clock had read before the point). */
    if (reps > 0 && row->t_ci95_us < tick_s / (double)reps * 1e6)
        row->t_ci95_us = 0;
    if (p->facts->nmsg > 0)
        row->bw_MiBps = (double)p->facts->nmsg * (double)bytes / (1.048576 * row->t_avg_us);
}
