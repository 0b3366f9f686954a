/* The model's side of the report: which fit goes with which points, the statistic the
 * fits used, and the fitted curves sampled into the plots' data files. */
#include "config.h"

#include "report/report-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit/fitting.h"
#include "base/size.h"
#include "base/stats.h"

/* Points of a fitted curve: enough for a smooth line over six decades on 900 pixels. */
#define SAMPLES 160

void cf_report_model_open(cf_report *r)
{
    static const cf_across_set none;
    r->stat = -1;
    r->across = r->ms != NULL ? &r->ms->across : &none;
    memset(&r->pl, 0, sizeof r->pl);
    if (r->ms == NULL)
        return;
    /* Out of memory, the np plots are drawn as for a table that does not say where its
     * ranks ran. */
    if (cf_placement_read(r->ms, &r->pl) != 0)
        cf_placement_free(&r->pl);
    /* The points are drawn with the statistic the fits used, so that a curve and its
     * points agree and the residuals are the fit's own. */
    const json_t *st = json_object_get(r->ms->source, "statistic");
    cf_statistic s;
    if (json_is_string(st) && cf_statistic_parse(json_string_value(st), &s) == 0)
        r->stat = (int)s;
}

void cf_report_model_close(cf_report *r)
{
    r->across = NULL;
    cf_placement_free(&r->pl);
}

double cf_report_row_time(const cf_report *r, const cf_row *x)
{
    return cf_row_time_or_mean(x, r->stat < 0 ? CF_STAT_MEDIAN : (cf_statistic)r->stat);
}

const cf_fit *cf_report_fit(const cf_report *r, const char *pattern, int np, const char *datatype)
{
    return r->ms ? cf_modelset_find(r->ms, pattern, np, datatype) : NULL;
}

/* Sizes to evaluate a fit at over [lo, hi]: log-spaced, and the ends of each breakpoint
 * gap, where the fit turns from a segment to the line across the gap (cf_fit_predict), so
 * that the corners are drawn where they are. Returns how many. */
static size_t sample_sizes(const cf_fit *f, double lo, double hi, double *x)
{
    size_t n = 0;
    if (!(lo > 0) || !(hi >= lo))
        return 0;
    for (int i = 0; i < SAMPLES; i++)
        x[n++] = lo * pow(hi / lo, (double)i / (SAMPLES - 1));
    for (int k = 0; k + 1 < f->nseg; k++) {
        double ends[2] = {(double)f->seg[k].to_bytes, (double)f->seg[k + 1].from_bytes};
        for (int j = 0; j < 2; j++)
            if (ends[j] > lo && ends[j] < hi)
                x[n++] = ends[j];
    }
    cf_sort_doubles(x, n);
    return n;
}

void cf_report_fit_block(cf_script *s, const cf_fit *f, double lo, double hi, double blocks,
                         const char *what)
{
    double x[SAMPLES + 2 * CF_SEG_MAX];
    size_t n = sample_sizes(f, lo, hi, x);
    cf_script_block(s, what, "bytes t_us lo_us hi_us (the fit, its 95% prediction interval)");
    double first_bad = NAN, bad_t = NAN;
    int nbad = 0;
    for (size_t i = 0; i < n; i++) {
        cf_prediction p;
        if (cf_fit_predict_blocks(f, x[i], blocks < 0 ? f->blocks : blocks, &p) != 0)
            continue;
        /* A time of zero or less is no time (a segment's negative intercept carried below
         * its sizes, a hand-edited file): predict refuses it, and the plot leaves it out
         * rather than draw a curve below its own interval. */
        if (!(p.t_us > 0) || !isfinite(p.t_us) || !(p.lo_us <= p.t_us && p.t_us <= p.hi_us)) {
            if (nbad++ == 0)
                first_bad = x[i], bad_t = p.t_us;
            continue;
        }
        fprintf(s->dat, "%.6g %.6g %.6g %.6g\n", x[i], p.t_us, p.lo_us, p.hi_us);
    }
    if (nbad > 0)
        cf_warn("%s np=%d %s: the %s fit gives no time at %d of the %zu sizes drawn (at %.6g B: "
                "%.4g us): left out of the plot, as predict refuses them",
                f->pattern, f->np, f->datatype, f->model, nbad, n, first_bad, bad_t);
}

void cf_report_fit_bw_block(cf_script *s, const cf_fit *f, double lo, double hi, int nmsg,
                            const char *what)
{
    double x[SAMPLES + 2 * CF_SEG_MAX];
    size_t n = sample_sizes(f, lo, hi, x);
    cf_script_block(s, what, "bytes bw_MiBps (of the fit)");
    for (size_t i = 0; i < n; i++) {
        cf_prediction p;
        if (cf_fit_predict(f, x[i], &p) != 0 || !(p.t_us > 0))
            continue;
        fprintf(s->dat, "%.6g %.6g\n", x[i], nmsg * x[i] / (1.048576 * p.t_us));
    }
}

void cf_report_breakpoints(cf_script *s, const cf_fit *f, int lt, double t_lo, double t_hi,
                           int labels)
{
    for (int k = 0; k + 1 < f->nseg; k++) {
        double sw = cf_fit_switch(f, k);
        char a[32], b[32];
        cf_report_size_tick(f->seg[k].to_bytes, a, sizeof a);
        cf_report_size_tick(f->seg[k + 1].from_bytes, b, sizeof b);
        fprintf(s->gp, "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead lt %d dt 3 lw 1\n", sw,
                sw, lt);
        if (!labels)
            continue;
        /* The label goes in the half of the plot (on its log scale) that the curve leaves
         * free at the breakpoint. */
        cf_prediction p;
        int low = cf_fit_predict(f, sw, &p) == 0 && t_lo > 0 && t_hi > t_lo && p.t_us > 0 &&
                  log(p.t_us / t_lo) < 0.5 * log(t_hi / t_lo);
        fprintf(s->gp,
                "set label 'np=%d breakpoint in (%s, %s)' at %.6g, graph %s rotate by 90 %s "
                "offset -0.7,0 tc lt %d font ',9'\n",
                f->np, a, b, sw, low ? "0.97" : "0.03", low ? "right" : "left", lt);
    }
}
