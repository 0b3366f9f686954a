/* commfit fit: from timing tables to a model file, one fit per (pattern, np, datatype),
 * a summary line per fit on stdout and, on request, the formulas in a language. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit/across.h"
#include "modelfile/across-json.h"
#include "base/cli.h"
#include "commands.h"
#include "cmd/out-fit.h"
#include "base/error.h"
#include "fit/fitting.h"
#include "fit/formula.h"
#include "fit/model.h"
#include "modelfile/modelfile.h"
#include "base/outfile.h"
#include "report/report.h"
#include "base/size.h"
#include "base/table.h"


static const char usage[] =
    "Usage: commfit fit [OPTIONS]\n"
    "\n"
    "Fits cost models to timing tables: one fit per pattern, process count and datatype,\n"
    "written to a model file that predict and report read, with a summary line per fit\n"
    "and the warnings grouped at the end.\n"
    "\n";

typedef struct opts {
    char **inputs;
    size_t ninputs;
    const char *output;
    const char *model;
    char **patterns;
    size_t npatterns;
    long *np;
    size_t nnp;
    int stat_set;
    cf_statistic stat;
    cf_weights weights;
    int no_robust;
    int robust;
    const char *formulas;
    int quiet, verbose;
} opts;

static void opts_free(opts *o)
{
    free(o->inputs);
    for (size_t i = 0; i < o->npatterns; i++)
        free(o->patterns[i]);
    free(o->patterns);
    free(o->np);
}

static int opt_input(const cf_option *opt, const char *arg, cf_error *e)
{
    opts *o = opt->value;
    char **ni = realloc(o->inputs, (o->ninputs + 1) * sizeof *ni);
    if (ni == NULL)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "out of memory");
    o->inputs = ni;
    ni[o->ninputs++] = (char *)arg;
    return 0;
}

static int opt_model(const cf_option *opt, const char *arg, cf_error *e)
{
    const cf_model_kind *k = cf_model_kind_find(arg);
    if (k == NULL || k == &cf_model_datatype || k == &cf_model_constant)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--model '%s': expected auto, linear, poly2, piecewise or loggp", arg);
    ((opts *)opt->value)->model = arg;
    return 0;
}

static int opt_patterns(const cf_option *opt, const char *arg, cf_error *e)
{
    opts *o = opt->value;
    char *copy = strdup(arg);
    if (copy == NULL)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "out of memory");
    int rc = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && rc == 0;
         tok = strtok_r(NULL, ",", &save)) {
        char **np = realloc(o->patterns, (o->npatterns + 1) * sizeof *np);
        if (np == NULL || (np[o->npatterns] = strdup(tok)) == NULL) {
            if (np != NULL)
                o->patterns = np;
            rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "out of memory");
            break;
        }
        o->patterns = np;
        o->npatterns++;
    }
    if (rc == 0 && o->npatterns == 0)
        rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                          "--patterns '%s': expected a comma-separated list of patterns", arg);
    free(copy);
    return rc;
}

static int opt_np(const cf_option *opt, const char *arg, cf_error *e)
{
    opts *o = opt->value;
    free(o->np);
    o->np = NULL;
    return cf_int_list_parse(arg, "--np", 1, CF_TABLE_NP_MAX, &o->np, &o->nnp, e);
}

static int opt_statistic(const cf_option *opt, const char *arg, cf_error *e)
{
    opts *o = opt->value;
    if (cf_statistic_parse(arg, &o->stat) != 0)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--statistic '%s': expected median, mean or min", arg);
    o->stat_set = 1;
    return 0;
}

static int opt_weights(const cf_option *opt, const char *arg, cf_error *e)
{
    if (cf_weights_parse(arg, &((opts *)opt->value)->weights) != 0)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--weights '%s': expected relative, variance or none", arg);
    return 0;
}

static int opt_formulas(const cf_option *opt, const char *arg, cf_error *e)
{
    if (!cf_formula_lang_valid(arg))
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--formulas '%s': expected text, c, python, latex or gnuplot", arg);
    ((opts *)opt->value)->formulas = arg;
    return 0;
}

/* 0, -1 after --help, or the usage error's status (said). */
static int parse(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->model = "auto";
    o->weights = CF_WEIGHTS_RELATIVE;
    const cf_option options[] = {
        CF_OPT_CALL('i', "input", "TABLE", o, opt_input,
                    "a timing table to fit (repeatable; default: the newest data/*.csv)"),
        CF_OPT_STRING('o', "output", "FILE", &o->output,
                      "the model file ('-': standard output, then without the summary; "
                      "default: models/TABLE.json, TABLE the first input's name without .csv)"),
        CF_OPT_CALL('m', "model", "KIND", o, opt_model,
                    "auto (default), linear, poly2, piecewise or loggp"),
        CF_OPT_CALL(0, "patterns", "LIST", o, opt_patterns,
                    "fit only these patterns (comma-separated)"),
        CF_OPT_CALL(0, "np", "LIST", o, opt_np, "fit only these process counts (comma-separated)"),
        CF_OPT_CALL(0, "statistic", "STAT", o, opt_statistic,
                    "median (default when every row has t_med_us), mean or min"),
        CF_OPT_CALL(0, "weights", "W", o, opt_weights,
                    "relative (default: 1/T^2, iterated), variance (1/sd^2 from t_ci95_us) or "
                    "none"),
        CF_OPT_BOOL(0, "no-robust", &o->no_robust,
                    "keep every point (default: set outliers aside)"),
        CF_OPT_CALL(0, "formulas", "LANG", o, opt_formulas,
                    "print the formulas instead of the summary: text, c, python, latex or "
                    "gnuplot"),
        CF_OPT_BOOL('v', "verbose", &o->verbose,
                    "the detailed summary: per fit its formula, quality, breakpoints, "
                    "saturation and gains, with its warnings under it"),
        CF_OPT_QUIET(&o->quiet, "print nothing but errors (no summary, no warnings)"),
        CF_OPT_HELP(),
        CF_OPT_END(),
    };
    cf_error e;
    cf_error_clear(&e);
    int first;
    int rc = cf_options_parse(options, usage, CF_PARSE_NO_OPERANDS, argc, argv, &first, &e);
    o->robust = !o->no_robust;
    if (rc == CF_PARSE_HELP)
        return -1;
    if (rc != 0)
        return cf_usage_error("%s", e.msg);
    if (o->formulas != NULL && o->output != NULL && strcmp(o->output, "-") == 0)
        return cf_usage_error("--formulas and -o - both write to standard output: name a file "
                              "with -o");
    return 0;
}

static int cmp_row(const void *a, const void *b)
{
    const cf_row *x = *(const cf_row *const *)a, *y = *(const cf_row *const *)b;
    int c = strcmp(x->pattern, y->pattern);
    if (c == 0)
        c = (x->np > y->np) - (x->np < y->np);
    if (c == 0)
        c = strcmp(x->datatype, y->datatype);
    if (c == 0)
        c = (x->bytes > y->bytes) - (x->bytes < y->bytes);
    if (c == 0)
        c = (x->blocks > y->blocks) - (x->blocks < y->blocks);
    return c;
}

static int same_group(const cf_row *a, const cf_row *b)
{
    return a->np == b->np && strcmp(a->pattern, b->pattern) == 0 &&
           strcmp(a->datatype, b->datatype) == 0;
}

static int wanted(const opts *o, const cf_row *r)
{
    int ok = o->npatterns == 0;
    for (size_t i = 0; i < o->npatterns && !ok; i++)
        ok = strcmp(o->patterns[i], r->pattern) == 0;
    if (!ok)
        return 0;
    if (o->nnp == 0)
        return 1;
    for (size_t i = 0; i < o->nnp; i++)
        if (o->np[i] == r->np)
            return 1;
    return 0;
}

/* "data/host-date.csv" -> "models/host-date.json" */
static char *default_output(const char *input)
{
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".csv") == 0)
        n -= 4;
    if (n == 0 || strcmp(input, "-") == 0) {
        base = "stdin";
        n = 5;
    }
    size_t cap = n + 16;
    char *p = malloc(cap);
    if (p != NULL)
        snprintf(p, cap, "models/%.*s.json", (int)n, base);
    return p;
}

static json_t *source_json(const opts *o, cf_table **tables, const char *output)
{
    json_t *src = json_object(), *arr = json_array();
    if (src == NULL || arr == NULL) {
        json_decref(src);
        json_decref(arr);
        return NULL;
    }
    for (size_t i = 0; i < o->ninputs; i++) {
        json_t *t = json_object(), *meta = json_object();
        for (size_t k = 0; k < tables[i]->n_meta; k++)
            json_object_set_new(meta, tables[i]->meta[k].key,
                                json_string(tables[i]->meta[k].value));
        json_object_set_new(t, "file", json_string(o->inputs[i]));
        json_object_set_new(t, "rows", json_integer((json_int_t)tables[i]->n_rows));
        json_object_set_new(t, "metadata", meta);
        json_array_append_new(arr, t);
    }
    json_object_set_new(src, "tables", arr);
    json_object_set_new(src, "output", json_string(output));
    json_object_set_new(src, "statistic", json_string(cf_statistic_name(o->stat)));
    json_object_set_new(src, "weights", json_string(cf_weights_name(o->weights)));
    json_object_set_new(src, "robust", json_boolean(o->robust));
    json_object_set_new(src, "model", json_string(o->model));
    return src;
}

/* Field col of a row's extra columns into buf ("" when absent). */
static void extra_field(const char *extra, size_t col, char *buf, size_t n)
{
    buf[0] = '\0';
    for (size_t c = 0; extra != NULL && c < col; c++)
        if ((extra = strchr(extra, ',')) != NULL)
            extra++;
    if (extra == NULL)
        return;
    size_t len = strcspn(extra, ",");
    if (len >= n)
        len = n - 1;
    memcpy(buf, extra, len);
    buf[len] = '\0';
}

/* MPI_Pack costs depend on the layout packed, and measure records it (ddt_layout): pack
 * rows are fitted per layout, as datatype pack_LAYOUT, and compared with that layout. */
static void label_pack(const cf_table *t, cf_row *r)
{
    if (strcmp(r->datatype, "pack") != 0)
        return;
    for (size_t c = 0; c < t->n_extra; c++) {
        if (strcmp(t->extra_names[c], "ddt_layout") != 0)
            continue;
        char layout[CF_DATATYPE_MAX];
        extra_field(r->extra, c, layout, sizeof layout);
        if (layout[0] != '\0' && strcmp(layout, "pack") != 0 &&
            strlen(layout) + 5 < sizeof r->datatype)
            snprintf(r->datatype, sizeof r->datatype, "pack_%s", layout);
        return;
    }
}

static int has_pattern(const cf_row *const *rows, size_t n, const char *p)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i]->pattern, p) == 0 && rows[i]->np == 2 &&
            strcmp(rows[i]->datatype, "byte") == 0)
            return 1;
    return 0;
}

/* Keeps why a group of a pattern named with --patterns failed, for after the others. */
static int defer(cf_error **errs, size_t **pats, size_t *n, const cf_error *e, size_t pat)
{
    cf_error *ne = realloc(*errs, (*n + 1) * sizeof *ne);
    if (ne == NULL)
        return -1;
    *errs = ne;
    size_t *np = realloc(*pats, (*n + 1) * sizeof *np);
    if (np == NULL)
        return -1;
    *pats = np;
    ne[*n] = *e;
    np[(*n)++] = pat;
    return 0;
}

int cmd_fit(int argc, char **argv)
{
    opts o;
    int rc = parse(argc, argv, &o);
    if (rc != 0) {
        opts_free(&o);
        return rc < 0 ? CF_EXIT_OK : rc;
    }
    cf_error e;
    cf_error_clear(&e);
    char *newest = NULL, *output = NULL;
    cf_table **tables = NULL;
    const cf_row **all = NULL, **rows = NULL;
    cf_row *copies = NULL;
    cf_modelset *ms = NULL;
    size_t nall = 0, nrows = 0, ndeferred = 0, *named_fits = NULL, *deferred_pat = NULL;
    cf_error *deferred = NULL;
    cf_fit_summary sum = {NULL, 0, NULL, 0};

    if (o.ninputs == 0) {
        if (cf_newest_file("data", ".csv", &newest, &e) != 0) {
            rc = cf_error_report(&e);
            cf_hint("give a table with -i, or run 'commfit measure' or 'commfit import' first");
            goto out;
        }
        o.inputs = malloc(sizeof *o.inputs);
        if (o.inputs == NULL) {
            rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
            goto report;
        }
        o.inputs[0] = newest;
        o.ninputs = 1;
    }
    for (size_t i = 0; o.output != NULL && i < o.ninputs; i++) {
        if (cf_same_file(o.output, o.inputs[i])) {
            rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0,
                              "-o '%s' is the same file as the input '%s': writing it would "
                              "destroy the input; name another output",
                              o.output, o.inputs[i]);
            goto report;
        }
    }
    tables = calloc(o.ninputs, sizeof *tables);
    if (tables == NULL) {
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto report;
    }
    for (size_t i = 0; i < o.ninputs; i++) {
        if ((rc = cf_table_read(o.inputs[i], &tables[i], &e)) != 0)
            goto report;
        cf_msg("read %s (%zu rows)", o.inputs[i], tables[i]->n_rows);
        nall += tables[i]->n_rows;
    }
    all = malloc((nall + 1) * sizeof *all);
    rows = malloc((nall + 1) * sizeof *rows);
    copies = malloc((nall + 1) * sizeof *copies);
    if (all == NULL || rows == NULL || copies == NULL) {
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto report;
    }
    nall = 0;
    int all_med = 1;
    for (size_t i = 0; i < o.ninputs; i++)
        for (size_t k = 0; k < tables[i]->n_rows; k++) {
            cf_row *r = &copies[nall];
            *r = tables[i]->rows[k];
            label_pack(tables[i], r);
            all[nall++] = r;
            if (isnan(r->t_med_us))
                all_med = 0;
            if (wanted(&o, r))
                rows[nrows++] = r;
        }
    if (nall == 0) {
        rc = cf_error_set(&e, CF_EXIT_DATA, o.inputs[0], 0, "no rows: nothing to fit");
        goto report;
    }
    for (size_t i = 0; i < o.npatterns; i++) {
        int found = 0;
        for (size_t k = 0; k < nrows && !found; k++)
            found = strcmp(rows[k]->pattern, o.patterns[i]) == 0;
        if (!found) {
            rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0,
                              "--patterns: no rows of pattern '%s'%s in the input",
                              o.patterns[i], o.nnp ? " at the requested --np" : "");
            goto report;
        }
    }
    if (nrows == 0) {
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "--np: no rows at the requested process counts");
        goto report;
    }
    if (!o.stat_set)
        o.stat = all_med ? CF_STAT_MEDIAN : CF_STAT_MEAN;
    qsort(rows, nrows, sizeof *rows, cmp_row);

    output = o.output ? strdup(o.output) : default_output(o.inputs[0]);
    ms = cf_modelset_alloc();
    if (output == NULL || ms == NULL || (ms->source = source_json(&o, tables, output)) == NULL) {
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto report;
    }
    int is_loggp = strcmp(o.model, "loggp") == 0;
    int loggp_data = has_pattern(all, nall, "loggp_os") && has_pattern(all, nall, "loggp_or") &&
                     has_pattern(all, nall, "loggp_gap");
    size_t failed = 0;
    /* With --patterns, why groups failed, kept until every group has been tried: a
     * named pattern none of whose groups can be fitted is an error, the others' failures
     * are warnings. */
    named_fits = calloc(o.npatterns + 1, sizeof *named_fits);
    if (named_fits == NULL) {
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto report;
    }
    for (size_t a = 0, b; a < nrows; a = b) {
        for (b = a + 1; b < nrows && same_group(rows[a], rows[b]); b++)
            ;
        const cf_row *r0 = rows[a];
        int pp2 = strcmp(r0->pattern, "pingpong") == 0 && r0->np == 2 &&
                  strcmp(r0->datatype, "byte") == 0;
        if (is_loggp && !pp2)
            continue;
        char what[128];
        snprintf(what, sizeof what, "%s np %d %s", r0->pattern, r0->np, r0->datatype);
        cf_fit_input in = {rows + a, b - a, all, nall, o.stat, o.weights, o.robust, what};
        cf_fit f;
        cf_error fe;
        cf_error_clear(&fe);
        size_t named = 0;
        while (named < o.npatterns && strcmp(o.patterns[named], r0->pattern) != 0)
            named++;
        if (cf_fit_group(o.model, &in, &f, &fe) != 0) {
            if (is_loggp) {
                rc = cf_error_report(&fe);
                goto out;
            }
            if (defer(&deferred, &deferred_pat, &ndeferred, &fe, named) != 0) {
                rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
                goto report;
            }
            failed++;
            continue;
        }
        /* A model file must not lie: a fit of the model asked for that predicts a
         * negative or non-finite cost stops fit before anything is written; auto only
         * skips the group (its candidates were checked one by one already). */
        if (cf_fit_check(&f, &in, &fe) != 0) {
            cf_fit_clear(&f);
            if (strcmp(o.model, "auto") != 0) {
                rc = cf_error_report(&fe);
                cf_hint("no model file written: try another --model");
                goto out;
            }
            if (defer(&deferred, &deferred_pat, &ndeferred, &fe, named) != 0) {
                rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
                goto report;
            }
            failed++;
            continue;
        }
        named_fits[named]++;
        if (isfinite(f.q.loo_mape) && f.q.loo_mape > CF_FIT_POOR_LOO)
            cf_fit_warn(&f,
                        "poor fit: its leave-one-out error, %.*g%%, is above %.0f%%; its "
                        "predictions are rough",
                        cf_sig_prec(100 * f.q.loo_mape, 2), 100 * f.q.loo_mape,
                        100 * CF_FIT_POOR_LOO);
        if (cf_modelset_add(ms, &f) != 0) {
            cf_fit_clear(&f);
            rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
            goto report;
        }
        /* With the LogGP experiments in the input, the LogGP parameters come too. */
        if (pp2 && !is_loggp && loggp_data && strcmp(o.model, "auto") == 0) {
            cf_error_clear(&fe);
            if (cf_fit_group("loggp", &in, &f, &fe) != 0 ||
                (cf_fit_check(&f, &in, &fe) != 0 && (cf_fit_clear(&f), 1)))
                cf_warn("no loggp parameters: %s", fe.msg);
            else if (cf_modelset_add(ms, &f) != 0) {
                cf_fit_clear(&f);
                rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
                goto report;
            }
        }
    }
    {
        size_t none = o.npatterns; /* the first named pattern without a fit */
        for (size_t i = 0; i < o.npatterns && none == o.npatterns; i++)
            if (named_fits[i] == 0)
                none = i;
        size_t why = ndeferred;
        for (size_t k = 0; k < ndeferred && why == ndeferred; k++)
            if (o.npatterns > 0 && deferred_pat[k] == none)
                why = k;
        if (why < ndeferred) {
            for (size_t k = 0; k < ndeferred; k++)
                if (k != why)
                    cf_warn("skipped: %s", deferred[k].msg);
            rc = cf_error_report(&deferred[why]);
            goto out;
        }
    }
    sum.skipped = deferred;
    sum.nskipped = ndeferred;
    if (o.verbose) {
        cf_out_fit_skipped(&sum);
        sum.nskipped = 0;
    }
    if (ms->nfits == 0) {
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0,
                          "no fit could be made (%zu group%s skipped, see above)", failed,
                          failed == 1 ? "" : "s");
        goto report;
    }
    {
        /* The across-np models and the point-to-point estimate: commfit predict's part. */
        char **notes = NULL;
        size_t nnotes = 0;
        if ((rc = cf_across_fit_rows(rows, nrows, cf_statistic_name(o.stat),
                                     cf_table_meta_get(tables[0], "normalized_time_us"),
                                     &ms->across_np, &ms->p2p, &notes, &nnotes, &e)) != 0)
            goto report;
        cf_notes_free(notes, nnotes);
        cf_out_fit_across_notes(ms->across_np, ms->p2p);
    }
    if ((rc = cf_modelset_write(output, ms, &e)) != 0)
        goto report;
    int to_stdout = strcmp(output, "-") == 0;
    if (to_stdout)
        cf_msg("wrote the model file to standard output (%zu fit%s)", ms->nfits,
               ms->nfits == 1 ? "" : "s");
    else
        cf_msg("wrote %s (%zu fit%s)", output, ms->nfits, ms->nfits == 1 ? "" : "s");
    sum.fits = ms->fits;
    sum.nfits = ms->nfits;
    /* With -o -, standard output holds the model file and nothing else. */
    if (!to_stdout && (o.formulas != NULL || !o.quiet))
        cf_out_fit_summary(stdout, &sum, o.formulas, o.verbose);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "cannot write to standard output");
        goto report;
    }
    if (!o.verbose)
        cf_out_fit_warnings(&sum);
    sum.nskipped = 0;
    if (!to_stdout)
        cf_report_hint("-m", output);
report:
    /* The groups skipped, before the error that stopped fit. */
    cf_out_fit_skipped(&sum);
    if (rc != 0 && e.code != 0)
        cf_error_report(&e);
out:
    free(named_fits);
    free(deferred);
    free(deferred_pat);
    cf_modelset_free(ms);
    free(output);
    free(all);
    free(rows);
    free(copies);
    for (size_t i = 0; tables != NULL && i < o.ninputs; i++)
        cf_table_free(tables[i]);
    free(tables);
    free(newest);
    opts_free(&o);
    return rc;
}
