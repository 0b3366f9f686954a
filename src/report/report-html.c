/* index.html of a report: one self-contained page (inline style, relative links only) that
 * shows every plot with the tables of the run, and works opened from the file system. */
#include "config.h"

#include "report/report-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/collective.h"
#include "fit/fitting.h"
#include "fit/formula.h"
#include "base/size.h"

static const char *const section_titles[CF_SEC_COUNT] = {
    "Time vs message size", "Bandwidth", "Derived datatypes", "Time vs process count",
    "Residuals of the fits"};
static const char *const section_ids[CF_SEC_COUNT] = {"time", "bandwidth", "datatypes", "np",
                                                      "residuals"};

static const char style[] =
    "body{font-family:sans-serif;max-width:1200px;margin:1em auto;padding:0 1em;"
    "color:#222;line-height:1.4}\n"
    "h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;margin:.5em 0;font-size:.9em}\n"
    "th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top;"
    "overflow-wrap:break-word}\n"
    "div.wide{max-width:100%;overflow-x:auto}\n"
    "table.meta td{overflow-wrap:anywhere}details summary{cursor:pointer;color:#444}\n"
    "th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
    "figure{margin:1.5em 0}figure img{max-width:100%;height:auto;border:1px solid #ddd}\n"
    "figcaption{font-size:.9em;color:#444}\n"
    ".missing{border:1px dashed #c66;background:#fff6f6;padding:1em}\n"
    "code{background:#f3f3f3;padding:0 .2em}nav a{margin-right:1em}\n";

void cf_report_html_text(FILE *fp, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", fp);
            break;
        case '<':
            fputs("&lt;", fp);
            break;
        case '>':
            fputs("&gt;", fp);
            break;
        case '"':
            fputs("&quot;", fp);
            break;
        case '\'':
            fputs("&#39;", fp);
            break;
        default:
            fputc(*s, fp);
        }
    }
}

/* Metadata values longer than META_FOLD are folded: their first META_HEAD characters or so
 * show, the rest opens on a click (MPICH's library version carries its whole configure
 * line, some 2000 characters; a simulation's host list grows with its size). */
#define META_FOLD 240
#define META_HEAD 160

static void metadata(FILE *fp, const cf_table *t)
{
    fputs("<table class=\"meta\">\n", fp);
    for (size_t i = 0; i < t->n_meta; i++) {
        const char *v = t->meta[i].value;
        size_t n = strlen(v);
        fputs("<tr><th>", fp);
        cf_report_html_text(fp, t->meta[i].key);
        fputs("</th><td>", fp);
        if (n <= META_FOLD) {
            cf_report_html_text(fp, v);
        } else {
            /* Cut at a space, so that the summary ends with a whole word. */
            size_t cut = META_HEAD;
            while (cut > META_HEAD / 2 && v[cut] != ' ')
                cut--;
            if (v[cut] != ' ')
                cut = META_HEAD;
            char head[META_HEAD + 1];
            memcpy(head, v, cut);
            head[cut] = '\0';
            fputs("<details><summary>", fp);
            cf_report_html_text(fp, head);
            fprintf(fp, " &hellip; (%zu characters)</summary>", n);
            cf_report_html_text(fp, v);
            fputs("</details>", fp);
        }
        fputs("</td></tr>\n", fp);
    }
    fputs("</table>\n", fp);
}

/* One line of the summary: the rows of one pattern and datatype. */
typedef struct group {
    const char *pattern, *datatype;
    int np_lo, np_hi, n_np;
    uint64_t m_lo, m_hi;
    int b_lo, b_hi;
    size_t n;
    const cf_row *first; /* smallest size at the smallest np */
    const cf_row *peak;  /* highest bandwidth */
} group;

static int cmp_group(const void *a, const void *b)
{
    const group *x = a, *y = b;
    int c = strcmp(x->pattern, y->pattern);
    return c ? c : strcmp(x->datatype, y->datatype);
}

static void summary(FILE *fp, const cf_table *t, group *g)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n_rows; i++) {
        const cf_row *r = &t->rows[i];
        group *x = NULL;
        for (size_t j = 0; j < n && x == NULL; j++)
            if (strcmp(g[j].pattern, r->pattern) == 0 && strcmp(g[j].datatype, r->datatype) == 0)
                x = &g[j];
        if (x == NULL) {
            x = &g[n++];
            memset(x, 0, sizeof *x);
            x->pattern = r->pattern;
            x->datatype = r->datatype;
            x->np_lo = x->np_hi = r->np;
            x->m_lo = x->m_hi = r->bytes;
            x->b_lo = x->b_hi = r->blocks;
            x->first = r;
        }
        x->n++;
        x->np_lo = r->np < x->np_lo ? r->np : x->np_lo;
        x->np_hi = r->np > x->np_hi ? r->np : x->np_hi;
        x->m_lo = r->bytes < x->m_lo ? r->bytes : x->m_lo;
        x->m_hi = r->bytes > x->m_hi ? r->bytes : x->m_hi;
        x->b_lo = r->blocks < x->b_lo ? r->blocks : x->b_lo;
        x->b_hi = r->blocks > x->b_hi ? r->blocks : x->b_hi;
        if (r->np < x->first->np || (r->np == x->first->np && r->bytes < x->first->bytes))
            x->first = r;
        if (!isnan(r->bw_MiBps) && (x->peak == NULL || r->bw_MiBps > x->peak->bw_MiBps))
            x->peak = r;
    }
    qsort(g, n, sizeof *g, cmp_group);
    fputs("<div class=\"wide\"><table class=\"summary\">\n<tr><th>pattern</th><th>datatype</th><th>processes</th>"
          "<th>message sizes</th><th>blocks</th><th>points</th>"
          "<th>time at the smallest size</th><th>highest bandwidth</th></tr>\n",
          fp);
    for (size_t j = 0; j < n; j++) {
        const group *x = &g[j];
        char lo[32], hi[32];
        cf_size_format(x->m_lo, lo, sizeof lo);
        cf_size_format(x->m_hi, hi, sizeof hi);
        fputs("<tr><td>", fp);
        cf_report_html_text(fp, x->pattern);
        fputs("</td><td>", fp);
        cf_report_html_text(fp, x->datatype);
        if (x->np_lo == x->np_hi)
            fprintf(fp, "</td><td class=\"num\">%d", x->np_lo);
        else
            fprintf(fp, "</td><td class=\"num\">%d to %d", x->np_lo, x->np_hi);
        if (x->m_lo == x->m_hi)
            fprintf(fp, "</td><td class=\"num\">%s</td><td class=\"num\">", lo);
        else
            fprintf(fp, "</td><td class=\"num\">%s to %s</td><td class=\"num\">", lo, hi);
        if (x->b_hi > 0)
            fprintf(fp, x->b_lo == x->b_hi ? "%d" : "%d to %d", x->b_lo, x->b_hi);
        fprintf(fp, "</td><td class=\"num\">%zu</td>", x->n);
        cf_size_format(x->first->bytes, lo, sizeof lo);
        fprintf(fp, "<td class=\"num\">%.3g µs (%s, np=%d)</td><td class=\"num\">",
                cf_row_time_or_mean(x->first, CF_STAT_MEDIAN), lo, x->first->np);
        if (x->peak != NULL) {
            cf_size_format(x->peak->bytes, hi, sizeof hi);
            fprintf(fp, "%.0f MiB/s (%s, np=%d)", x->peak->bw_MiBps, hi, x->peak->np);
        }
        fputs("</td></tr>\n", fp);
    }
    fputs("</table></div>\n", fp);
}

static const char *json_str(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A size in a table cell: measured (exact, cf_size_format) or an estimate. */
static void size_cell(FILE *fp, double bytes, int estimate)
{
    char b[32];
    if (isfinite(bytes) && bytes >= 0) {
        if (estimate)
            cf_size_format_estimate((double)llround(bytes), b, sizeof b);
        else
            cf_size_format((uint64_t)llround(bytes), b, sizeof b);
        fprintf(fp, "<td class=\"num\">%s</td>", b);
    } else {
        fputs("<td class=\"num\">&ndash;</td>", fp);
    }
}

/* How the model was fitted: the settings commfit fit recorded in "source". */
static void model_source(FILE *fp, const cf_report *r)
{
    const json_t *src = r->ms->source;
    static const char *const keys[] = {"statistic", "weights", "model"};
    fputs("<table class=\"meta\">\n<tr><th>model file</th><td><code>", fp);
    cf_report_html_text(fp, r->model_path);
    fputs("</code></td></tr>\n", fp);
    const json_t *tables = json_object_get(src, "tables");
    size_t i;
    const json_t *t;
    json_array_foreach(tables, i, t)
    {
        const char *f = json_str(t, "file");
        if (f == NULL)
            continue;
        fputs("<tr><th>fitted from</th><td><code>", fp);
        cf_report_html_text(fp, f);
        fputs("</code></td></tr>\n", fp);
    }
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const char *v = json_str(src, keys[k]);
        if (v == NULL)
            continue;
        fprintf(fp, "<tr><th>%s</th><td>", keys[k]);
        cf_report_html_text(fp, v);
        fputs("</td></tr>\n", fp);
    }
    const json_t *robust = json_object_get(src, "robust");
    if (json_is_boolean(robust))
        fprintf(fp, "<tr><th>robust</th><td>%s</td></tr>\n",
                json_is_true(robust) ? "yes (outliers set aside)" : "no");
    fputs("</table>\n", fp);
}

static void fit_params(FILE *fp, const cf_fit *f)
{
    for (int k = 0; k < f->nseg; k++) {
        if (f->nseg > 1) {
            char a[32], b[32];
            cf_size_format(f->seg[k].from_bytes, a, sizeof a);
            cf_size_format(f->seg[k].to_bytes, b, sizeof b);
            fprintf(fp, "%s%s to %s: ", k ? "<br>" : "", a, b);
        }
        for (int j = 0; j < f->ncoef; j++) {
            double se = sqrt(f->seg[k].cov[j][j]);
            fputs(j ? ", " : "", fp);
            cf_report_html_text(fp, f->coef_names[j]);
            fprintf(fp, " = %.4g &plusmn; %.2g", f->seg[k].coef[j], se);
        }
    }
}

/* The fits, one row each: formula, coefficients, quality, notes. */
static void fits_table(FILE *fp, const cf_modelset *ms)
{
    fputs("<h3>Fitted models and their quality</h3>\n"
          "<p>One fit per pattern, process count and datatype. Errors are relative: the "
          "leave-one-out error is the mean error predicting each point without it; the "
          "largest error is over the points fitted. Coefficients carry their standard "
          "error.</p>\n"
          "<div class=\"wide\"><table class=\"fits\">\n<tr><th>pattern</th><th>np</th><th>datatype</th>"
          "<th>model</th><th>formula</th><th>coefficients</th><th>points</th>"
          "<th>leave-one-out error</th><th>largest error</th><th>R&sup2;</th>"
          "<th>notes</th></tr>\n",
          fp);
    for (size_t i = 0; i < ms->nfits; i++) {
        const cf_fit *f = &ms->fits[i];
        fputs("<tr><td>", fp);
        cf_report_html_text(fp, f->pattern);
        fprintf(fp, "</td><td class=\"num\">%d</td><td>", f->np);
        cf_report_html_text(fp, f->datatype);
        fputs("</td><td>", fp);
        cf_report_html_text(fp, f->model);
        fputs("</td><td><code>", fp);
        cf_report_html_text(fp, f->formula);
        fputs("</code></td><td>", fp);
        fit_params(fp, f);
        char loo[32], r2[32];
        if (isfinite(f->q.loo_mape))
            snprintf(loo, sizeof loo, "%.*g%%", cf_sig_prec(100 * f->q.loo_mape, 2),
                     100 * f->q.loo_mape);
        else
            snprintf(loo, sizeof loo, "&ndash;"); /* one point: nothing to leave out */
        if (isfinite(f->q.r2))
            snprintf(r2, sizeof r2, "%.6f", f->q.r2);
        else
            snprintf(r2, sizeof r2, "&ndash;");
        fprintf(fp,
                "</td><td class=\"num\">%d</td><td class=\"num\">%s</td>"
                "<td class=\"num\">%.*g%%</td><td class=\"num\">%s</td><td>",
                f->q.n, loo, cf_sig_prec(100 * f->q.max_rel_err, 2), 100 * f->q.max_rel_err, r2);
        const char *sep = "";
        char pb[512];
        if (cf_fit_per_block_text(f, pb, sizeof pb) > 0) {
            cf_report_html_text(fp, pb); /* "m <= 8 KiB" */
            fputs(" (95%)", fp);
            sep = "; ";
        }
        if (f->nrejected > 0) {
            fprintf(fp, "%s%zu point%s set aside as outliers", sep, f->nrejected,
                    f->nrejected > 1 ? "s" : "");
            sep = "; ";
        }
        if (f->nset_aside > 0) {
            fputs(sep, fp);
            cf_report_html_text(fp, "set aside: ");
            cf_report_html_text(fp, f->set_aside_why);
            sep = "; ";
        }
        for (size_t k = 0; k < f->nwarnings; k++) {
            fputs(sep, fp);
            cf_report_html_text(fp, f->warnings[k]);
            sep = "; ";
        }
        fputs("</td></tr>\n", fp);
    }
    fputs("</table></div>\n", fp);

}

/* The bandwidth figures of the fits that have them. */
static void saturation_table(FILE *fp, const cf_modelset *ms)
{
    int any = 0;
    for (size_t i = 0; i < ms->nfits; i++)
        any |= ms->fits[i].sat.valid;
    if (any) {
        fputs("<h3>Saturation</h3>\n"
              "<p>From the tangent of each fit at its largest size: r_inf is the asymptotic "
              "bandwidth (with its 95% interval), n_1/2 the size that reaches half of it, "
              "then the size that reaches 90% (when the tangent crosses 0 above 0 bytes, "
              "both from the last segment that does not, of its own bandwidth: marked *); "
              "the measured peak, and the size from which every measured bandwidth stays "
              "within 5% of the plateau, the median of the three largest sizes (or where the "
              "bandwidth falls after its peak).</p>\n"
              "<div class=\"wide\"><table class=\"sat\">\n<tr><th>pattern</th><th>np</th><th>datatype</th>"
              "<th>r_inf (MiB/s)</th><th>95% interval</th><th>n_1/2</th>"
              "<th>90% of r_inf at</th><th>measured peak (MiB/s)</th><th>at</th>"
              "<th>flat from</th></tr>\n",
              fp);
        for (size_t i = 0; i < ms->nfits; i++) {
            const cf_fit *f = &ms->fits[i];
            const cf_saturation *st = &f->sat;
            if (!st->valid)
                continue;
            fputs("<tr><td>", fp);
            cf_report_html_text(fp, f->pattern);
            fprintf(fp, "</td><td class=\"num\">%d</td><td>", f->np);
            cf_report_html_text(fp, f->datatype);
            char b0[32], b1[32], b2[32], b3[32];
            cf_report_bw_text(st->rinf_MiBps, b0, sizeof b0);
            cf_report_bw_text(st->rinf_lo_MiBps, b1, sizeof b1);
            cf_report_bw_text(st->rinf_hi_MiBps, b2, sizeof b2);
            cf_report_bw_text(st->peak_MiBps, b3, sizeof b3);
            fprintf(fp, "</td><td class=\"num\">%s</td><td class=\"num\">%s to %s</td>", b0, b1,
                    isfinite(st->rinf_hi_MiBps) ? b2 : "&infin;");
            char sz[32];
            int own = st->half_segment >= 0 && st->half_segment < f->nseg - 1;
            for (int k = 0; k < 2; k++) {
                double v = k == 0 ? st->n_half_bytes : st->m90_bytes;
                if (!own || !isfinite(v)) {
                    size_cell(fp, v, 1);
                    continue;
                }
                cf_size_format_estimate((double)llround(v), sz, sizeof sz);
                fprintf(fp, "<td class=\"num\">%s (segment %d)*</td>", sz, st->half_segment + 1);
            }
            fprintf(fp, "<td class=\"num\">%s</td>", b3);
            size_cell(fp, (double)st->peak_bytes, 0);
            if (isfinite(st->flat_from_bytes)) {
                size_cell(fp, st->flat_from_bytes, 0);
            } else if (isfinite(st->falls_beyond_bytes)) {
                cf_size_format((uint64_t)llround(st->falls_beyond_bytes), sz, sizeof sz);
                fprintf(fp, "<td>falls beyond %s</td>", sz);
            } else {
                fputs("<td>not flat</td>", fp);
            }
            fputs("</tr>\n", fp);
        }
        fputs("</table></div>\n", fp);
    }

}

/* The across-np models. */
static void across_table(FILE *fp, const cf_report *r)
{
    if (r->across->n > 0) {
        fputs("<h3>Across process counts</h3>\n"
              "<p>Per pattern, the algorithm cost terms fitted jointly over every measured "
              "process count and size; they let predict answer for process counts that were "
              "not measured (L = ceil(lg p), m = bytes).</p>\n"
              "<div class=\"wide\"><table class=\"across\">\n<tr><th>pattern</th><th>datatype</th>"
              "<th>measured np</th><th>terms (&micro;s per unit)</th><th>points</th>"
              "<th>leave-one-out error</th><th>largest error</th></tr>\n",
              fp);
        for (size_t i = 0; i < r->across->n; i++) {
            const cf_across *a = &r->across->a[i];
            fputs("<tr><td>", fp);
            cf_report_html_text(fp, a->pattern);
            fputs("</td><td>", fp);
            cf_report_html_text(fp, a->datatype);
            fputs("</td><td class=\"num\">", fp);
            for (int k = 0; k < a->nnp; k++)
                fprintf(fp, "%s%ld", k ? ", " : "", a->np[k]);
            fputs("</td><td>", fp);
            if (a->error[0] != '\0') {
                fputs("no model: ", fp);
                cf_report_html_text(fp, a->error);
                fputs("</td><td></td><td></td><td></td></tr>\n", fp);
                continue;
            }
            char terms[1024];
            cf_across_describe(a, terms, sizeof terms);
            cf_report_html_text(fp, terms);
            fprintf(fp,
                    "</td><td class=\"num\">%d</td><td class=\"num\">%.*g%%</td>"
                    "<td class=\"num\">%.*g%%</td></tr>\n",
                    a->q.n, cf_sig_prec(100 * a->q.loo_mape, 2), 100 * a->q.loo_mape,
                    cf_sig_prec(100 * a->q.max_rel_err, 2), 100 * a->q.max_rel_err);
        }
        fputs("</table></div>\n", fp);
    }
}

void cf_report_html_model(FILE *fp, const cf_report *r)
{
    fputs("<h2 id=\"model\">The model</h2>\n", fp);
    model_source(fp, r);
    fits_table(fp, r->ms);
    saturation_table(fp, r->ms);
    across_table(fp, r);
}

static void figure(FILE *fp, const cf_report *r, const cf_plot *p, const char *missing)
{
    const char *ext = r->png ? "png" : "svg";
    fprintf(fp, "<figure id=\"%s\">\n<h3>", p->name);
    cf_report_html_text(fp, p->title);
    fputs("</h3>\n", fp);
    if (p->drawn) {
        fprintf(fp, "<img src=\"%s.%s\" width=\"%d\" height=\"%d\" alt=\"", p->name, ext, p->width,
                p->height);
        cf_report_html_text(fp, p->title);
        fputs("\">\n", fp);
    } else {
        fputs("<div class=\"missing\">Not drawn", fp);
        if (missing != NULL) {
            fputs(": ", fp);
            cf_report_html_text(fp, missing);
        }
        fprintf(fp,
                ". To draw it, run <code>gnuplot %s.gp</code> in this folder, or run "
                "<code>commfit report</code> again once gnuplot is installed.</div>\n",
                p->name);
    }
    fputs("<figcaption>", fp);
    cf_report_html_text(fp, p->caption);
    fprintf(fp, " <a href=\"%s.dat\">data</a> &middot; <a href=\"%s.gp\">gnuplot script</a>",
            p->name, p->name);
    fputs("</figcaption>\n</figure>\n", fp);
}

int cf_report_html(cf_report *r, const char *missing, cf_error *e)
{
    group *g = malloc((r->table->n_rows + 1) * sizeof *g);
    if (g == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    FILE *fp = cf_report_create(r, "index.html", e);
    if (fp == NULL) {
        free(g);
        return CF_EXIT_DATA;
    }
    size_t in_section[CF_SEC_COUNT] = {0};
    for (size_t i = 0; i < r->n_plots; i++)
        in_section[r->plots[i].section]++;

    fprintf(fp,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "%s %s\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>commfit report: ",
            CF_REPORT_GENERATOR, PACKAGE_VERSION);
    cf_report_html_text(fp, r->name);
    fprintf(fp, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>commfit report: ", style);
    cf_report_html_text(fp, r->name);
    fputs("</h1>\n<p>Drawn from the timing table <code>", fp);
    cf_report_html_text(fp, r->table_path);
    if (r->ms != NULL) {
        fputs("</code> and the model file <code>", fp);
        cf_report_html_text(fp, r->model_path);
        if (r->fitted_to != NULL && r->fitted_to[0] != '\0') {
            fputs("</code>, which was fitted to other tables (<code>", fp);
            cf_report_html_text(fp, r->fitted_to);
            fprintf(fp, "</code>): the curves are the model's, the points this table's; by "
                        "commfit %s.</p>\n",
                    PACKAGE_VERSION);
        } else {
            fprintf(fp, "</code> fitted to it, by commfit %s.</p>\n", PACKAGE_VERSION);
        }
    } else {
        fprintf(fp, "</code> by commfit %s. ", PACKAGE_VERSION);
        fputs("No model file was given: the plots show the measurements only; "
              "<code>commfit fit</code> fits the curves that would be drawn through "
              "them.</p>\n",
              fp);
    }
    if (missing != NULL) {
        fputs("<p class=\"missing\">The plots were not drawn: ", fp);
        cf_report_html_text(fp, missing);
        fputs(". Each plot's data file and gnuplot script are here; "
              "<code>gnuplot NAME.gp</code> in this folder draws one.</p>\n",
              fp);
    }
    /* What a reader came for first; the run's metadata after it. */
    fputs("<nav><a href=\"#glance\">At a glance</a><a href=\"#run\">The run</a>"
          "<a href=\"#points\">Measured points</a>",
          fp);
    if (r->ms != NULL)
        fputs("<a href=\"#model\">The model</a>", fp);
    for (int s = 0; s < CF_SEC_COUNT; s++)
        if (in_section[s])
            fprintf(fp, "<a href=\"#%s\">%s</a>", section_ids[s], section_titles[s]);
    fputs("</nav>\n", fp);
    if (cf_report_html_glance(fp, r) != 0) {
        fclose(fp);
        free(g);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    fputs("<h2 id=\"run\">The run</h2>\n", fp);
    if (r->table->n_meta > 0)
        metadata(fp, r->table);
    else
        fputs("<p>The table carries no metadata.</p>\n", fp);
    fputs("<h2 id=\"points\">Measured points</h2>\n", fp);
    summary(fp, r->table, g);
    if (r->ms != NULL)
        cf_report_html_model(fp, r);
    for (int s = 0; s < CF_SEC_COUNT; s++) {
        if (!in_section[s])
            continue;
        fprintf(fp, "<h2 id=\"%s\">%s</h2>\n", section_ids[s], section_titles[s]);
        for (size_t i = 0; i < r->n_plots; i++)
            if (r->plots[i].section == s)
                figure(fp, r, &r->plots[i], missing);
    }
    if (r->n_plots == 0)
        fputs("<p>The table has no point that can be plotted.</p>\n", fp);
    fputs("</body>\n</html>\n", fp);
    free(g);
    return cf_report_close(fp, "index.html", e);
}
