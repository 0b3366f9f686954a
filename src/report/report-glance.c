/* The opening of the report page: what a reader came for, before the run's metadata and
 * the plots. Per point-to-point pattern its latency, peak and asymptotic bandwidth and
 * n_1/2; per collective its model and that model's error. */
#include "config.h"

#include "report/report-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/collective.h"
#include "base/size.h"

/* The rows of one pattern at one np in one plain datatype. */
typedef struct glance_key {
    const char *pattern, *datatype;
    int np;
    int p2p;             /* its rows have a bandwidth */
    int coll;            /* a collective: no bandwidth, and not a two-process experiment */
    const cf_row *first; /* the smallest size */
    const cf_row *peak;  /* the highest bandwidth */
} glance_key;

static int cmp_key(const void *a, const void *b)
{
    const glance_key *x = a, *y = b;
    int c = strcmp(x->pattern, y->pattern);
    if (c == 0)
        c = strcmp(x->datatype, y->datatype);
    return c ? c : (x->np > y->np) - (x->np < y->np);
}

/* The keys of the table's plain (not derived-datatype) rows, sorted; *n of them. */
static glance_key *glance_keys(const cf_table *t, size_t *n)
{
    glance_key *k = malloc((t->n_rows + 1) * sizeof *k);
    *n = 0;
    if (k == NULL)
        return NULL;
    for (size_t i = 0; i < t->n_rows; i++) {
        const cf_row *r = &t->rows[i];
        if (cf_report_is_ddt(r))
            continue;
        glance_key *x = NULL;
        for (size_t j = *n; j-- > 0 && x == NULL;)
            if (k[j].np == r->np && strcmp(k[j].pattern, r->pattern) == 0 &&
                strcmp(k[j].datatype, r->datatype) == 0)
                x = &k[j];
        if (x == NULL) {
            x = &k[(*n)++];
            *x = (glance_key){r->pattern, r->datatype, r->np, 0, 0, r, NULL};
        }
        x->p2p |= cf_report_is_p2p(r);
        if (r->bytes < x->first->bytes)
            x->first = r;
        if (!isnan(r->bw_MiBps) && (x->peak == NULL || r->bw_MiBps > x->peak->bw_MiBps))
            x->peak = r;
    }
    /* The LogGP experiments time parts of a message between two processes: neither a
     * transfer's bandwidth nor a collective. */
    for (size_t j = 0; j < *n; j++) {
        const cf_coll *c = cf_pattern_facts(k[j].pattern);
        k[j].coll = !k[j].p2p && !(c != NULL && c->two_only);
    }
    qsort(k, *n, sizeof *k, cmp_key);
    return k;
}

/* An estimated size (n_1/2). */
static void size_text(double bytes, char *buf, size_t n)
{
    if (isfinite(bytes) && bytes >= 0)
        cf_size_format_estimate((double)llround(bytes), buf, n);
    else
        snprintf(buf, n, "&ndash;");
}

/* Whether pattern is an imported bandwidth-only test (osu_bw, osu_bibw, osu_mbw_mr, IMB
 * Uniband and Biband) of a table whose times the bandwidths imply (time_from_bandwidth). */
static int streamed(const cf_report *r, const char *pattern)
{
    static const char *const bw_only[] = {"bw", "bibw", "mbw_mr", "uniband", "biband"};
    if (r->table == NULL || cf_table_meta_get(r->table, "time_from_bandwidth") == NULL)
        return 0;
    for (size_t i = 0; i < sizeof bw_only / sizeof bw_only[0]; i++)
        if (strcmp(pattern, bw_only[i]) == 0)
            return 1;
    return 0;
}

/* One point-to-point row: the fit's figures where there is one, else the measured. */
static void p2p_row(FILE *fp, const cf_report *r, const glance_key *k)
{
    const cf_fit *f = cf_report_fit(r, k->pattern, k->np, k->datatype);
    const cf_saturation *st = f != NULL && f->sat.valid ? &f->sat : NULL;
    char size[32], b0[32], b1[32], b2[32];
    fputs("<tr><td>", fp);
    cf_report_html_text(fp, k->pattern);
    fprintf(fp, "</td><td class=\"num\">%d</td>", k->np);
    cf_prediction p;
    if (streamed(r, k->pattern)) {
        /* A bandwidth test's time is 1 / its message rate over a window of messages in
         * flight: no message's latency. */
        fputs("<td class=\"num\">&ndash; (a bandwidth test: its times are a streamed "
              "message's, 1 / the message rate)</td>",
              fp);
    } else if (f != NULL && cf_fit_predict(f, 0, &p) == 0 && p.t_us > 0) {
        fprintf(fp, "<td class=\"num\">%.3g &micro;s</td>", p.t_us);
    } else {
        cf_size_format(k->first->bytes, size, sizeof size);
        fprintf(fp, "<td class=\"num\">%.3g &micro;s (measured at %s)</td>",
                cf_report_row_time(r, k->first), size);
    }
    if (st != NULL) {
        cf_report_bw_text(st->peak_MiBps, b0, sizeof b0);
        cf_size_format(st->peak_bytes, size, sizeof size);
        fprintf(fp, "<td class=\"num\">%s MiB/s at %s</td>", b0, size);
    } else if (k->peak != NULL) {
        cf_report_bw_text(k->peak->bw_MiBps, b0, sizeof b0);
        cf_size_format(k->peak->bytes, size, sizeof size);
        fprintf(fp, "<td class=\"num\">%s MiB/s at %s</td>", b0, size);
    } else {
        fputs("<td class=\"num\">&ndash;</td>", fp);
    }
    if (st != NULL) {
        cf_report_bw_text(st->rinf_MiBps, b0, sizeof b0);
        cf_report_bw_text(st->rinf_lo_MiBps, b1, sizeof b1);
        cf_report_bw_text(st->rinf_hi_MiBps, b2, sizeof b2);
        fprintf(fp, "<td class=\"num\">%s MiB/s (95%%: %s to %s)</td>", b0, b1,
                isfinite(st->rinf_hi_MiBps) ? b2 : "&infin;");
        size_text(st->n_half_bytes, size, sizeof size);
        /* From an earlier segment where the last one's intercept is negative: said, with
         * that segment's own rate, as fit's summary and the saturation table say it. */
        if (isfinite(st->n_half_bytes) && st->half_segment >= 0 &&
            st->half_segment < f->nseg - 1) {
            cf_report_bw_text(st->half_rinf_MiBps, b0, sizeof b0);
            fprintf(fp, "<td class=\"num\">%s (segment %d, whose rate is %s MiB/s; the last "
                    "segment's intercept is negative)</td>",
                    size, st->half_segment + 1, b0);
        } else {
            fprintf(fp, "<td class=\"num\">%s</td>", size);
        }
    } else {
        fputs("<td class=\"num\">&ndash;</td><td class=\"num\">&ndash;</td>", fp);
    }
    fputs("</tr>\n", fp);
}

static void p2p_table(FILE *fp, const cf_report *r, const glance_key *k, size_t n)
{
    fputs("<h3>Point-to-point</h3>\n"
          "<p>Latency is the fitted time of an empty message (the measured time of the "
          "smallest size where there is no fit); the peak is the highest bandwidth among the "
          "measured sizes, the size over the fitted statistic's time (a size measured several "
          "times, by node pairs or runs: the mean over them; without a model, the table's "
          "highest bw_MiBps); "
          "r_inf, the asymptotic bandwidth, and n_1/2, the size that reaches half of it, come "
          "from the tangent of the fit at its largest size.",
          fp);
    if (r->ms == NULL)
        fputs(" Without a model there is no r_inf or n_1/2: <code>commfit fit</code> fits "
              "them.",
              fp);
    fputs("</p>\n<div class=\"wide\"><table class=\"glance\">\n<tr><th>pattern</th><th>np</th>"
          "<th>latency</th><th>peak bandwidth</th><th>asymptotic bandwidth r_inf</th>"
          "<th>n_1/2</th></tr>\n",
          fp);
    for (size_t i = 0; i < n; i++)
        if (k[i].p2p)
            p2p_row(fp, r, &k[i]);
    fputs("</table></div>\n", fp);
}

static void error_cells(FILE *fp, double loo, double most)
{
    if (isfinite(loo))
        fprintf(fp, "<td class=\"num\">%.*g%%</td>", cf_sig_prec(100 * loo, 2), 100 * loo);
    else
        fputs("<td class=\"num\">&ndash;</td>", fp); /* one point: nothing to leave out */
    fprintf(fp, "<td class=\"num\">%.*g%%</td>", cf_sig_prec(100 * most, 2), 100 * most);
}

/* One collective in one datatype: its across-np model when it has one, else the fit at
 * each np (keys k[0..n), all of that pattern and datatype). */
static void collective_rows(FILE *fp, const cf_report *r, const glance_key *k, size_t n)
{
    const cf_across *a = cf_across_set_find(r->across, k->pattern, k->datatype);
    if (a != NULL && a->error[0] == '\0') {
        char terms[1024];
        cf_across_describe(a, terms, sizeof terms);
        fputs("<tr><td>", fp);
        cf_report_html_text(fp, k->pattern);
        fputs("</td><td>", fp);
        cf_report_html_text(fp, k->datatype);
        fprintf(fp, "</td><td class=\"num\">%ld to %ld</td><td>across np: <code>", a->np[0],
                a->np[a->nnp - 1]);
        cf_report_html_text(fp, terms);
        fputs("</code></td>", fp);
        error_cells(fp, a->q.loo_mape, a->q.max_rel_err);
        fputs("</tr>\n", fp);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const cf_fit *f = cf_report_fit(r, k[i].pattern, k[i].np, k[i].datatype);
        if (f == NULL)
            continue;
        fputs("<tr><td>", fp);
        cf_report_html_text(fp, k[i].pattern);
        fputs("</td><td>", fp);
        cf_report_html_text(fp, k[i].datatype);
        fprintf(fp, "</td><td class=\"num\">%d</td><td>", k[i].np);
        cf_report_html_text(fp, f->model);
        fputs(": <code>", fp);
        cf_report_html_text(fp, f->formula);
        fputs("</code></td>", fp);
        error_cells(fp, f->q.loo_mape, f->q.max_rel_err);
        fputs("</tr>\n", fp);
    }
}

/* Whether a collective (keys k[0..n) of one pattern and datatype) has a model to show. */
static int collective_modelled(const cf_report *r, const glance_key *k, size_t n)
{
    const cf_across *a = cf_across_set_find(r->across, k->pattern, k->datatype);
    int any = a != NULL && a->error[0] == '\0';
    for (size_t i = 0; i < n && !any; i++)
        any = cf_report_fit(r, k[i].pattern, k[i].np, k[i].datatype) != NULL;
    return any;
}

/* The end of the run of keys from i on that share k[i]'s pattern and datatype. */
static size_t same_collective(const glance_key *k, size_t n, size_t i)
{
    size_t j = i;
    while (j < n && strcmp(k[j].pattern, k[i].pattern) == 0 &&
           strcmp(k[j].datatype, k[i].datatype) == 0)
        j++;
    return j;
}

static void collective_table(FILE *fp, const cf_report *r, const glance_key *k, size_t n)
{
    fputs("<h3>Collectives</h3>\n", fp);
    int modelled = 0;
    for (size_t i = 0; i < n && r->ms != NULL; i = same_collective(k, n, i))
        modelled |= k[i].coll && collective_modelled(r, &k[i], same_collective(k, n, i) - i);
    if (r->ms == NULL) {
        fputs("<p>No model file was given: <code>commfit fit</code> fits a model to each "
              "collective.</p>\n",
              fp);
        return;
    }
    if (!modelled) {
        fputs("<p>The model file has no model of a collective (too few points to fit, or "
              "not fitted).</p>\n",
              fp);
        return;
    }
    fputs("<p>The model of each collective: fitted jointly across process counts where the "
          "model file has that (L = ceil(lg p), m = bytes), else at each process count. "
          "Errors are relative: the leave-one-out error predicts each point without it, the "
          "largest is over the points fitted.</p>\n"
          "<div class=\"wide\"><table class=\"glance\">\n<tr><th>pattern</th><th>datatype</th>"
          "<th>np</th><th>model</th><th>leave-one-out error</th><th>largest error</th></tr>\n",
          fp);
    for (size_t i = 0, j; i < n; i = j) {
        j = same_collective(k, n, i);
        if (k[i].coll)
            collective_rows(fp, r, &k[i], j - i);
    }
    fputs("</table></div>\n", fp);
}

int cf_report_html_glance(FILE *fp, const cf_report *r)
{
    size_t n;
    glance_key *k = glance_keys(r->table, &n);
    if (k == NULL)
        return -1;
    int p2p = 0, coll = 0;
    for (size_t i = 0; i < n; i++) {
        p2p |= k[i].p2p;
        coll |= k[i].coll;
    }
    fputs("<h2 id=\"glance\">At a glance</h2>\n", fp);
    if (p2p)
        p2p_table(fp, r, k, n);
    if (coll)
        collective_table(fp, r, k, n);
    if (!p2p && !coll)
        fputs("<p>The table holds neither point-to-point transfers nor collectives: see its "
              "plots below.</p>\n",
              fp);
    free(k);
    return 0;
}
