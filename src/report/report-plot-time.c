/* Time against bytes, and bandwidth against bytes (point-to-point), per pattern. */
#include "config.h"

#include "report/report-plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/size.h"

static void time_caption(const cf_report *r, const char *pattern, int fitted, int breaks,
                         size_t zero, char *caption, size_t n)
{
    snprintf(caption, n,
             "Time per call of %s against the message size, log-log, one colour per process "
             "count. %s; bars are the 95%% confidence interval.%s%s%s",
             pattern, cf_plot_points_note(r),
             fitted ? " Lines are the fitted models over the sizes they were fitted to, with "
                      "their formulas in the key."
                    : "",
             breaks > CF_PLOT_MAX_BREAK_LABELS
                 ? " Dotted vertical lines, in the colour of their process count, mark where "
                   "a piecewise fit switches segment (the formulas in the key name the "
                   "sizes)."
             : breaks ? " Dotted vertical lines mark where a piecewise fit switches segment "
                        "(the breakpoint lies between the two sizes named)."
                      : "",
             zero ? " 0-byte points have no place on the log axis and are left out." : "");
}

int cf_plot_time(cf_report *r, const char *pattern, const char *datatype, int name_dt,
                     cf_error *e)
{
    cf_sel s;
    if (cf_sel_rows(r->table, pattern, datatype, 0, &s, e) != 0)
        return CF_EXIT_DATA;
    uint64_t *nps = malloc((s.n + 1) * sizeof *nps);
    if (nps == NULL) {
        free(s.idx);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    size_t n_np = cf_sel_distinct(&s, 'n', nps);
    int lines = !cf_sel_repeated(&s);
    uint64_t lo = 0, hi = 0;
    size_t zero = 0;
    double t_lo = INFINITY, t_hi = 0;
    for (size_t i = 0; i < s.n; i++) {
        uint64_t m = cf_sel_row(&s, i)->bytes;
        if (m == 0) {
            zero++;
            continue;
        }
        double t = cf_report_row_time(r, cf_sel_row(&s, i));
        t_lo = t < t_lo ? t : t_lo;
        t_hi = t > t_hi ? t : t_hi;
        lo = lo == 0 || m < lo ? m : lo;
        hi = m > hi ? m : hi;
    }
    int rc = 0, fitted = 0, breaks = 0, lt = 0, all_breaks = 0;
    if (hi == 0)
        goto done; /* only 0-byte points: nothing to draw on a log axis */
    for (size_t j = 0; j < n_np; j++) {
        const cf_fit *f = cf_report_fit(r, pattern, (int)nps[j], datatype);
        all_breaks += f ? f->nseg - 1 : 0;
    }

    char name[CF_PLOT_NAME_MAX], title[256], caption[1200];
    cf_script_name(name, sizeof name, "time", pattern, name_dt ? datatype : NULL, NULL);
    snprintf(title, sizeof title, "%s (%s): time per call vs message size", pattern, datatype);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_pow2_axis(sc.gp, "x", lo, hi, 1);
    fputs("set xlabel 'message size (bytes; K = 1024)'\n", sc.gp);
    cf_script_time_axis(sc.gp);
    size_t from = 0;
    for (size_t j = 0; j < n_np; j++) {
        size_t b = cf_sel_np_start(&s, from, nps[j]), en = cf_sel_np_end(&s, b);
        from = en;
        int pts = 0;
        for (size_t i = b; i < en; i++)
            pts += cf_sel_row(&s, i)->bytes > 0;
        if (pts == 0)
            continue;
        lt++; /* one colour per process count */
        char t[64], how[64];
        snprintf(t, sizeof t, "np=%llu", (unsigned long long)nps[j]);
        cf_script_block(&sc, t, "bytes t_us t_lo_us t_hi_us");
        for (size_t i = b; i < en; i++) {
            const cf_row *x = cf_sel_row(&s, i);
            if (x->bytes == 0)
                continue;
            double tm, tlo, thi;
            cf_plot_time_bounds(r, x, &tm, &tlo, &thi);
            fprintf(sc.dat, "%llu %.6g %.6g %.6g\n", (unsigned long long)x->bytes, tm, tlo, thi);
        }
        const cf_fit *f = cf_report_fit(r, pattern, (int)nps[j], datatype);
        if (f == NULL) {
            snprintf(how, sizeof how, "using 1:2:3:4 with %s lt %d",
                     lines ? "yerrorlines" : "yerrorbars", lt);
            cf_script_curve(&sc, how, t);
            continue;
        }
        snprintf(how, sizeof how, "using 1:2:3:4 with yerrorbars lt %d", lt);
        char ft[CF_FORMULA_MAX + 192];
        snprintf(ft, sizeof ft, "np=%llu measured", (unsigned long long)nps[j]);
        cf_script_curve(&sc, how, ft);
        /* The fit over the sizes it was fitted to, and no further. */
        double flo = f->min_bytes > 0 ? (double)f->min_bytes : (double)lo;
        cf_report_fit_block(&sc, f, flo, (double)f->max_bytes, -1, t);
        snprintf(how, sizeof how, "using 1:2 with lines lt %d", lt);
        cf_plot_fit_title(ft, sizeof ft, t, f);
        cf_script_curve(&sc, how, ft);
        cf_report_breakpoints(&sc, f, lt, t_lo, t_hi, all_breaks <= CF_PLOT_MAX_BREAK_LABELS);
        fitted++;
        breaks += f->nseg - 1;
    }
    time_caption(r, pattern, fitted, breaks, zero, caption, sizeof caption);
    rc = cf_script_close(&sc, CF_SEC_TIME, title, caption, e);
done:
    free(nps);
    free(s.idx);
    return rc;
}

/* The bandwidth of a row at the time the plots show: the table's bw_MiBps is taken at the
 * mean time, and the fits (and so their curves) may use another statistic. */
double cf_plot_row_bw(const cf_report *r, const cf_row *x)
{
    double t = cf_report_row_time(r, x);
    return t > 0 && x->t_avg_us > 0 ? x->bw_MiBps * x->t_avg_us / t : x->bw_MiBps;
}

/* The saturation marks of one fit: the fitted bandwidth, r_inf, n_1/2 and the 90% size. */
static void bw_fit(cf_script *sc, const cf_fit *f, double lo, double hi, int lt)
{
    const cf_saturation *st = &f->sat;
    char t[CF_FORMULA_MAX + 192], how[96], what[64], a[32];
    snprintf(what, sizeof what, "np=%d", f->np);
    double flo = f->min_bytes > 0 ? (double)f->min_bytes : lo;
    cf_report_fit_bw_block(sc, f, flo, (double)f->max_bytes, st->nmsg > 0 ? st->nmsg : 1, what);
    snprintf(how, sizeof how, "using 1:2 with lines lt %d", lt);
    cf_plot_fit_title(t, sizeof t, what, f);
    cf_script_curve(sc, how, t);

    cf_script_block(sc, "r_inf", "bytes bw_MiBps");
    fprintf(sc->dat, "%.6g %.6g\n%.6g %.6g\n", lo / 1.4, st->rinf_MiBps, hi * 1.4, st->rinf_MiBps);
    snprintf(how, sizeof how, "using 1:2 with lines lt %d dt 2 lw 1", lt);
    char r0[32], r1[32], r2[32];
    cf_report_bw_text(st->rinf_MiBps, r0, sizeof r0);
    cf_report_bw_text(st->rinf_lo_MiBps, r1, sizeof r1);
    cf_report_bw_text(st->rinf_hi_MiBps, r2, sizeof r2);
    if (isfinite(st->rinf_hi_MiBps))
        snprintf(t, sizeof t, "np=%d r_inf = %s MiB/s (95%%: %s to %s)", f->np, r0, r1, r2);
    else
        snprintf(t, sizeof t, "np=%d r_inf = %s MiB/s (95%%: above %s)", f->np, r0, r1);
    cf_script_curve(sc, how, t);

    /* n_1/2 and the 90% size belong to a Hockney line alpha + beta m, whose bandwidth is
     * r m / (n_1/2 + m): the tangent to the fit at its largest size (r = r_inf) or, when
     * that crosses 0 above m = 0, the last segment that does not (r its own 1/beta).
     * Where the fit is not that line (several segments, a curve) it is drawn dotted, so
     * that the marks sit on what defines them. */
    double rh = isfinite(st->half_rinf_MiBps) ? st->half_rinf_MiBps : st->rinf_MiBps;
    int own = st->half_segment >= 0 && st->half_segment < f->nseg - 1;
    int tangent = isfinite(st->n_half_bytes) && st->n_half_bytes > 0 &&
                  (f->nseg > 1 || strcmp(f->model, "linear") != 0);
    if (tangent) {
        cf_script_block(sc, "the Hockney line of n_1/2", "bytes bw_MiBps");
        for (int k = 0; k <= 60; k++) {
            double m = lo / 1.4 * pow(hi / lo * 1.96, k / 60.0);
            fprintf(sc->dat, "%.6g %.6g\n", m, rh * m / (st->n_half_bytes + m));
        }
        snprintf(how, sizeof how, "using 1:2 with lines lt %d dt 3 lw 1", lt);
        if (own)
            snprintf(t, sizeof t,
                     "np=%d r m / (n_1/2 + m): the Hockney line of segment %d (the last one "
                     "crosses 0)",
                     f->np, st->half_segment + 1);
        else
            snprintf(t, sizeof t,
                     "np=%d r_inf m / (n_1/2 + m): the Hockney line tangent to the fit at its "
                     "largest size",
                     f->np);
        cf_script_curve(sc, how, t);
    }
    if (isfinite(st->n_half_bytes) && st->n_half_bytes > 0) {
        cf_script_block(sc, "n_1/2", "bytes bw_MiBps");
        fprintf(sc->dat, "%.6g %.6g\n", st->n_half_bytes, rh / 2);
        snprintf(how, sizeof how, "using 1:2 with points pt 4 ps 1.8 lw 1.5 lt %d", lt);
        cf_size_format_estimate((double)llround(st->n_half_bytes), a, sizeof a);
        snprintf(t, sizeof t, "np=%d n_1/2 = %s (half of %s)", f->np, a,
                 own ? "its line's bandwidth" : "r_inf");
        cf_script_curve(sc, how, t);
    }
    if (isfinite(st->m90_bytes) && st->m90_bytes > 0) {
        cf_script_block(sc, "90% size", "bytes bw_MiBps");
        fprintf(sc->dat, "%.6g %.6g\n", st->m90_bytes, 0.9 * rh);
        snprintf(how, sizeof how, "using 1:2 with points pt 8 ps 1.8 lw 1.5 lt %d", lt);
        cf_size_format_estimate((double)llround(st->m90_bytes), a, sizeof a);
        snprintf(t, sizeof t, "np=%d 90%% of %s at %s", f->np, own ? "its line's bandwidth" : "r_inf",
                 a);
        cf_script_curve(sc, how, t);
    }
}

static void bw_caption(const cf_report *r, const char *pattern, size_t unbounded, int fitted,
                       char *caption, size_t n)
{
    snprintf(caption, n,
             "Bandwidth of %s against the message size (log scale), one colour per process "
             "count. %s, their bandwidth the table's bw_MiBps taken at that time; bars "
             "follow the 95%% confidence interval of the time. The circled point is the "
             "highest bandwidth measured.%s%s",
             pattern, cf_plot_points_note(r),
             unbounded ? " A bar up to the top has no upper end: its time interval reaches "
                         "zero."
                       : "",
             fitted ? " The solid line is the bandwidth of the fitted model; the dashed line "
                      "is its asymptotic bandwidth r_inf, from the Hockney line alpha + beta m "
                      "tangent to the fit at its largest size; the square marks n_1/2 and the "
                      "triangle the size reaching 90%, of that line or, where it crosses 0 "
                      "above 0 bytes, of the last segment that does not (of that segment's "
                      "bandwidth, as the key says); their line is drawn dotted where it "
                      "differs from the fit."
                    : "");
}

int cf_plot_bw(cf_report *r, const char *pattern, const char *datatype, int name_dt,
                   cf_error *e)
{
    cf_sel s;
    if (cf_sel_rows(r->table, pattern, datatype, 0, &s, e) != 0)
        return CF_EXIT_DATA;
    size_t m = 0;
    for (size_t i = 0; i < s.n; i++)
        if (cf_report_is_p2p(cf_sel_row(&s, i)) && cf_sel_row(&s, i)->bytes > 0)
            s.idx[m++] = s.idx[i];
    s.n = m;
    int rc = 0, fitted = 0;
    uint64_t *nps = malloc((s.n + 1) * sizeof *nps);
    if (nps == NULL) {
        free(s.idx);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    if (s.n == 0)
        goto done;
    size_t n_np = cf_sel_distinct(&s, 'n', nps);
    uint64_t lo = UINT64_MAX, hi = 0;
    const cf_row *peak = NULL;
    for (size_t i = 0; i < s.n; i++) {
        const cf_row *x = cf_sel_row(&s, i);
        lo = x->bytes < lo ? x->bytes : lo;
        hi = x->bytes > hi ? x->bytes : hi;
        if (peak == NULL || cf_plot_row_bw(r, x) > cf_plot_row_bw(r, peak))
            peak = x;
    }
    /* The y range holds the points, the fits' r_inf (unless far above them) and a margin
     * for the circled peak; a wide confidence bar is cut at the top rather than squash the
     * curves. */
    double peak_bw = cf_plot_row_bw(r, peak), top = peak_bw;
    for (size_t j = 0; j < n_np; j++) {
        const cf_fit *f = cf_report_fit(r, pattern, (int)nps[j], datatype);
        if (f != NULL && f->sat.valid && f->sat.rinf_MiBps > top && f->sat.rinf_MiBps < 3 * peak_bw)
            top = f->sat.rinf_MiBps;
    }
    int lines = !cf_sel_repeated(&s);
    size_t unbounded = 0;

    char name[CF_PLOT_NAME_MAX], title[256], caption[1200];
    cf_script_name(name, sizeof name, "bw", pattern, name_dt ? datatype : NULL, NULL);
    snprintf(title, sizeof title, "%s (%s): bandwidth vs message size", pattern, datatype);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_pow2_axis(sc.gp, "x", lo, hi, 1);
    fputs("set xlabel 'message size (bytes; K = 1024)'\n"
          "set ylabel 'bandwidth (MiB/s)'\nset format y '%g'\nset mytics 2\n",
          sc.gp);
    fprintf(sc.gp, "set yrange [0:%.6g]\n", top > 0 ? 1.12 * top : 1);
    size_t from = 0;
    for (size_t j = 0; j < n_np; j++) {
        int lt = (int)j + 1;
        char t[64], how[64];
        size_t b = cf_sel_np_start(&s, from, nps[j]), en = cf_sel_np_end(&s, b);
        from = en;
        snprintf(t, sizeof t, "np=%llu", (unsigned long long)nps[j]);
        cf_script_block(&sc, t, "bytes bw_MiBps bw_lo_MiBps bw_hi_MiBps");
        for (size_t i = b; i < en; i++) {
            const cf_row *x = cf_sel_row(&s, i);
            double tm = cf_report_row_time(r, x), bw = cf_plot_row_bw(r, x);
            double rel = isnan(x->t_ci95_us) ? 0 : x->t_ci95_us / tm;
            /* Times from t - ci to t + ci; a time interval reaching zero has no upper
             * bandwidth, and the bar goes to the top of the plot. */
            double blo = bw / (1 + rel);
            double bhi = rel < 1 ? bw / (1 - rel) : 10 * top;
            unbounded += rel >= 1;
            fprintf(sc.dat, "%llu %.6g %.6g %.6g\n", (unsigned long long)x->bytes, bw, blo, bhi);
        }
        const cf_fit *f = cf_report_fit(r, pattern, (int)nps[j], datatype);
        if (f == NULL || !f->sat.valid) {
            snprintf(how, sizeof how, "using 1:2:3:4 with %s lt %d",
                     lines ? "yerrorlines" : "yerrorbars", lt);
            cf_script_curve(&sc, how, t);
            continue;
        }
        snprintf(how, sizeof how, "using 1:2:3:4 with yerrorbars lt %d", lt);
        char mt[96];
        snprintf(mt, sizeof mt, "%s measured", t);
        cf_script_curve(&sc, how, mt);
        bw_fit(&sc, f, (double)lo, (double)hi, lt);
        fitted++;
    }
    char size[32], t[128];
    cf_size_format(peak->bytes, size, sizeof size);
    cf_script_block(&sc, "measured peak", "bytes bw_MiBps");
    fprintf(sc.dat, "%llu %.6g\n", (unsigned long long)peak->bytes, peak_bw);
    snprintf(t, sizeof t, "measured peak: %.0f MiB/s at %s (np=%d)", peak_bw, size, peak->np);
    cf_script_curve(&sc, "using 1:2 with points pt 6 ps 2.5 lw 1.5 lc rgb '#000000'", t);
    bw_caption(r, pattern, unbounded, fitted, caption, sizeof caption);
    rc = cf_script_close(&sc, CF_SEC_BW, title, caption, e);
done:
    free(nps);
    free(s.idx);
    return rc;
}
