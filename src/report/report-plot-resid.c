/* The relative error of every fit against its points. */
#include "config.h"

#include "report/report-plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A percentage for a key: two significant digits, whole numbers from 10 on. */
static void pct_text(double v, char *buf, size_t n)
{
    snprintf(buf, n, fabs(v) >= 10 ? "%.0f" : "%.2g", v);
}

/* Relative to the measured time, as the fit's quality figures are. */
static double rel_err_pct(double measured, double fitted)
{
    return 100 * (measured - fitted) / measured;
}

static int was_set_aside(const cf_fit *f, const cf_row *x)
{
    for (size_t i = 0; i < f->nrejected; i++)
        if (f->rejected[i].bytes == x->bytes && f->rejected[i].blocks == x->blocks)
            return 1;
    for (size_t i = 0; i < f->nset_aside; i++) /* a no-op, before the fit */
        if (f->set_aside[i].bytes == x->bytes && f->set_aside[i].blocks == x->blocks)
            return 1;
    return 0;
}

/* The errors of the fit of (pattern, np, dt) as a curve in colour lt, drawn with style;
 * 1 when it has points, else 0. */
static int resid_curve(const cf_report *r, cf_script *sc, const cf_sel *s, const char *pattern,
                       int np, const char *dt, const char *what, const char *style, int lt)
{
    const cf_fit *f = cf_report_fit(r, pattern, np, dt);
    if (f == NULL)
        return 0;
    int pts = 0;
    size_t b = cf_sel_np_find(s, (uint64_t)np), en = cf_sel_np_end(s, b);
    for (size_t i = b; i < en; i++) {
        const cf_row *x = cf_sel_row(s, i);
        if (x->np != np || strcmp(x->datatype, dt) != 0 || x->bytes == 0)
            continue;
        cf_prediction p;
        if (cf_fit_predict_blocks(f, (double)x->bytes, x->blocks, &p) != 0 || !(p.t_us > 0))
            continue;
        if (pts++ == 0)
            cf_script_block(sc, what, "bytes rel_err_pct blocks");
        fprintf(sc->dat, "%llu %.6g %d\n", (unsigned long long)x->bytes,
                rel_err_pct(cf_report_row_time(r, x), p.t_us), x->blocks);
    }
    if (pts == 0)
        return 0;
    char how[96], t[256], loo[32], most[32];
    snprintf(how, sizeof how, "using 1:2 with %s lt %d", style, lt);
    pct_text(100 * f->q.loo_mape, loo, sizeof loo);
    pct_text(100 * f->q.max_rel_err, most, sizeof most);
    snprintf(t, sizeof t, "%s %s (leave-one-out error %s%%, largest %s%%)", what, f->model, loo,
             most);
    cf_script_curve(sc, how, t);
    return 1;
}

/* Relative error of the fits of one pattern: one curve per np (plain datatypes) or per
 * datatype (derived datatypes, every block count as points). */
int cf_plot_resid(cf_report *r, const char *pattern, const char *datatype, int ddt, int name_dt,
                      cf_error *e)
{
    cf_sel s;
    if (cf_sel_rows(r->table, pattern, datatype, ddt, &s, e) != 0)
        return CF_EXIT_DATA;
    cf_plot_names dts = {NULL, 0};
    uint64_t *nps = malloc((s.n + 1) * sizeof *nps);
    int rc = 0;
    if (nps == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto done;
    }
    if (ddt) {
        if ((rc = cf_plot_names_collect(r->table, 1, pattern, &dts, e)) != 0)
            goto done;
    }
    size_t n_np = cf_sel_distinct(&s, 'n', nps);
    int lines = !cf_sel_repeated(&s);
    /* What has a fit, and the sizes that can be drawn. */
    uint64_t lo = UINT64_MAX, hi = 0;
    size_t n_aside = 0;
    for (size_t i = 0; i < s.n; i++) {
        const cf_row *x = cf_sel_row(&s, i);
        const cf_fit *f = cf_report_fit(r, pattern, x->np, x->datatype);
        if (f == NULL || x->bytes == 0)
            continue;
        lo = x->bytes < lo ? x->bytes : lo;
        hi = x->bytes > hi ? x->bytes : hi;
        n_aside += was_set_aside(f, x);
    }
    if (hi == 0)
        goto done;

    char name[CF_PLOT_NAME_MAX], title[256], caption[1200];
    cf_script_name(name, sizeof name, "resid", pattern,
                   ddt       ? "datatypes"
                   : name_dt ? datatype
                             : NULL,
                   NULL);
    snprintf(title, sizeof title, "%s (%s): relative error of the fits", pattern,
             ddt ? "derived datatypes" : datatype);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_pow2_axis(sc.gp, "x", lo, hi, 1);
    fputs("set xlabel 'message size (bytes; K = 1024)'\n"
          "set ylabel '(measured - fitted) / measured (%)'\nset format y '%g'\n"
          "set arrow from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#808080' dt 2\n",
          sc.gp);
    /* One curve per np, or per datatype (and np when there are several). */
    size_t n_groups = ddt ? dts.n * n_np : n_np;
    int lt = 0;
    for (size_t g = 0; g < n_groups; g++) {
        int np = (int)nps[ddt ? g % n_np : g];
        const char *dt = ddt ? dts.v[g / n_np] : datatype;
        char what[96];
        if (ddt && n_np > 1)
            snprintf(what, sizeof what, "%s np=%d", dt, np);
        else if (ddt)
            snprintf(what, sizeof what, "%s", dt);
        else
            snprintf(what, sizeof what, "np=%d", np);
        const char *style = ddt || !lines ? "points" : "linespoints";
        lt += resid_curve(r, &sc, &s, pattern, np, dt, what, style, lt + 1);
    }
    if (n_aside > 0) {
        cf_script_block(&sc, "set aside by the robust fit", "bytes rel_err_pct blocks");
        for (size_t i = 0; i < s.n; i++) {
            const cf_row *x = cf_sel_row(&s, i);
            const cf_fit *f = cf_report_fit(r, pattern, x->np, x->datatype);
            cf_prediction p;
            if (f == NULL || x->bytes == 0 || !was_set_aside(f, x) ||
                cf_fit_predict_blocks(f, (double)x->bytes, x->blocks, &p) != 0 || !(p.t_us > 0))
                continue;
            fprintf(sc.dat, "%llu %.6g %d\n", (unsigned long long)x->bytes,
                    rel_err_pct(cf_report_row_time(r, x), p.t_us), x->blocks);
        }
        cf_script_curve(&sc, "using 1:2 with points pt 6 ps 2 lw 1.5 lc rgb '#000000'",
                        "set aside by the robust fit");
    }
    snprintf(caption, sizeof caption,
             "Relative error of each fit at each measured point, (measured - fitted) / "
             "measured in percent, as the fit's quality figures count it, against the message "
             "size. A good fit scatters evenly around zero; "
             "a bend or a trend shows a model that does not follow the data.%s%s",
             ddt ? " Every block count is drawn." : "",
             n_aside ? " Circled points were set aside by the robust fit as outliers." : "");
    rc = cf_script_close(&sc, CF_SEC_RESID, title, caption, e);
done:
    free(dts.v);
    free(nps);
    free(s.idx);
    return rc;
}
