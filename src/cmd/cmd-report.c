/* commfit report: plots and an HTML page from a timing table, drawn with gnuplot. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cmd/model-file.h"
#include "base/cli.h"
#include "base/error.h"
#include "modelfile/modelfile.h"
#include "base/outfile.h"
#include "modelfile/placement.h"
#include "report/report.h"
#include "base/table.h"

static const char usage[] =
    "Usage: commfit report [-i TABLE]... [-m MODEL] [-o DIR] [--png]\n"
    "\n"
    "Draws a timing table and the models fitted to it as plots, with an HTML page that\n"
    "shows them all: time vs message size per pattern with the fitted curves and their\n"
    "formulas, bandwidth and its saturation for point-to-point patterns, derived\n"
    "datatypes against pack, time vs process count, the relative error of each fit.\n"
    "Each plot is a data file, a gnuplot script and its image; gnuplot is looked up on\n"
    "PATH ($GNUPLOT overrides). Without gnuplot the data files and scripts are still\n"
    "written (exit status 0, with a warning that says how to draw them).\n"
    "Prints the path of index.html on stdout.\n"
    "\n";

static void gnuplot_warning(const char *line)
{
    cf_warn("gnuplot: %s", line);
}

static int exists(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (fp != NULL)
        fclose(fp);
    return fp != NULL;
}

/* A table a model names: as written (relative to where fit ran, usually here), else
 * beside the model's folder (models/ and data/ side by side), else in it. malloc'd. */
static char *locate_table(const char *model_path, const char *file)
{
    if (file[0] == '/' || exists(file))
        return strdup(file);
    const char *slash = strrchr(model_path, '/');
    size_t ld = slash ? (size_t)(slash - model_path) : 0;
    size_t n = ld + strlen(file) + 8;
    char *p = malloc(n);
    if (p == NULL)
        return NULL;
    snprintf(p, n, "%.*s%s../%s", (int)ld, model_path, ld ? "/" : "", file);
    if (exists(p))
        return p;
    snprintf(p, n, "%.*s%s%s", (int)ld, model_path, ld ? "/" : "", file);
    if (exists(p))
        return p;
    free(p);
    return strdup(file);
}

/* Appends name to the list *names of *len bytes, ", " between them (unchanged where
 * memory runs out). */
static void names_add(char **names, size_t *len, const char *name)
{
    size_t add = strlen(name) + 3;
    char *nn = realloc(*names, *len + add);
    if (nn == NULL)
        return;
    snprintf(nn + *len, add, "%s%s", *len ? ", " : "", name);
    *len += strlen(nn + *len);
    *names = nn;
}

/* one's rows appended to *all (one taken over, freed), or one itself where *all is NULL.
 * Each table's pack rows are named by its own columns first (the merged table keeps the
 * first's): report then draws them with their layouts, whatever the order. 0, or
 * CF_EXIT_DATA with both freed. */
static int merge_table(cf_table **all, cf_table *one, cf_error *e)
{
    if (*all == NULL) {
        *all = one;
        return 0;
    }
    for (size_t k = 0; k < one->n_rows; k++)
        cf_row_label_pack(one, &one->rows[k]);
    for (size_t k = 0; k < one->n_rows; k++)
        if (cf_table_add(*all, &one->rows[k]) != 0) {
            cf_table_free(one);
            cf_table_free(*all);
            *all = NULL;
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        }
    cf_table_free(one);
    return 0;
}

/* Reads the tables the model was fitted from (its "source") into one. */
static int model_tables(const cf_modelset *ms, const char *model_path, cf_table **out, char **names,
                        cf_error *e)
{
    const json_t *tables = json_object_get(ms->source, "tables");
    if (!json_is_array(tables) || json_array_size(tables) == 0)
        return cf_error_set(e, CF_EXIT_DATA, model_path, 0,
                            "the model names no table it was fitted from: name it with -i");
    cf_table *all = NULL;
    size_t len = 0;
    *names = NULL;
    size_t i;
    const json_t *t;
    json_array_foreach(tables, i, t)
    {
        const json_t *f = json_object_get(t, "file");
        if (!json_is_string(f))
            continue;
        char *path = locate_table(model_path, json_string_value(f));
        cf_table *one = NULL;
        cf_error te;
        cf_error_clear(&te);
        if (path == NULL || cf_table_read(path, &one, &te) != 0) {
            int rc = cf_error_set(e, CF_EXIT_DATA, model_path, 0,
                                  "fitted from '%s', which cannot be read (%s): name the "
                                  "table with -i",
                                  json_string_value(f), path ? te.msg : "out of memory");
            free(path);
            cf_table_free(all);
            free(*names);
            *names = NULL;
            return rc;
        }
        names_add(names, &len, path);
        free(path);
        int rc = merge_table(&all, one, e);
        if (rc != 0)
            return rc;
    }
    if (all == NULL || *names == NULL) {
        cf_table_free(all);
        free(*names);
        *names = NULL;
        return cf_error_set(e, CF_EXIT_DATA, model_path, 0,
                            "the model names no table it was fitted from: name it with -i");
    }
    *out = all;
    return 0;
}

/* Whether table t (read from path) is one the model was fitted to: a source table that is
 * the same file, or one with as many rows and the same metadata (a copy, moved). Where it
 * is none, the names of those it was fitted to into *names (to free); NULL when it is one,
 * or the model names none. */
static char *fitted_elsewhere(const cf_modelset *ms, const char *model_path, const char *path,
                              const cf_table *t)
{
    const json_t *tables = json_object_get(ms->source, "tables");
    if (!json_is_array(tables) || json_array_size(tables) == 0)
        return NULL;
    char *names = NULL;
    size_t len = 0, i;
    const json_t *tj;
    json_array_foreach(tables, i, tj)
    {
        const json_t *f = json_object_get(tj, "file"), *rows = json_object_get(tj, "rows"),
                     *meta = json_object_get(tj, "metadata");
        if (!json_is_string(f))
            continue;
        char *p = locate_table(model_path, json_string_value(f));
        int same = p != NULL && cf_same_file(path, p);
        free(p);
        if (!same && json_is_integer(rows) && (size_t)json_integer_value(rows) == t->n_rows &&
            json_is_object(meta) && json_object_size(meta) == t->n_meta) {
            same = 1;
            const char *k;
            const json_t *v;
            json_object_foreach((json_t *)meta, k, v)
            {
                const char *mine = cf_table_meta_get(t, k);
                if (!json_is_string(v) || mine == NULL || strcmp(mine, json_string_value(v)) != 0)
                    same = 0;
            }
        }
        if (same) {
            free(names);
            return NULL;
        }
        names_add(&names, &len, json_string_value(f));
    }
    return names;
}

#define REPORT_MAX_INPUTS 64
typedef struct args {
    const char *inputs[REPORT_MAX_INPUTS], *model, *output;
    size_t ninputs;
    int png;
} args;

/* -i, repeatable: the tables are drawn together, as fit fits them. */
static int opt_input(const cf_option *opt, const char *arg, cf_error *e)
{
    args *a = opt->value;
    if (*arg == '\0')
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "-i: expected a file name");
    if (a->ninputs == REPORT_MAX_INPUTS)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "-i: at most %d tables",
                            REPORT_MAX_INPUTS);
    a->inputs[a->ninputs++] = arg;
    return 0;
}

/* The tables named with -i read into one, their rows in turn (the first's metadata), and
 * their names, ", " between; a file named twice is refused (its rows would count twice). */
static int input_tables(const args *a, cf_table **out, char **names, cf_error *e)
{
    cf_table *all = NULL;
    size_t len = 0;
    *names = NULL;
    for (size_t i = 0; i < a->ninputs; i++) {
        for (size_t k = 0; k < i; k++)
            if (cf_same_input(a->inputs[i], a->inputs[k])) {
                cf_table_free(all);
                return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                    "-i '%s' is the same file as -i '%s': its rows would "
                                    "count twice; give each table once",
                                    a->inputs[i], a->inputs[k]);
            }
        cf_table *one = NULL;
        int rc = cf_table_read(a->inputs[i], &one, e);
        if (rc != 0) {
            cf_table_free(all);
            return rc;
        }
        names_add(names, &len, a->inputs[i]);
        if ((rc = merge_table(&all, one, e)) != 0)
            return rc;
    }
    if (*names == NULL) {
        cf_table_free(all);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    *out = all;
    return 0;
}

/* 0, -1 after --help, or the usage error's status (said). */
static int parse(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    const cf_option options[] = {
        CF_OPT_CALL('i', "input", "TABLE", a, opt_input,
                    "timing table (repeatable: drawn together; default: the tables the model "
                    "was fitted from; without a model, the newest *.csv in data/)"),
        CF_OPT_STRING('m', "model", "MODEL", &a->model,
                      "model file (default, when neither -i nor -m is given: the newest *.json "
                      "in models/, if any)"),
        CF_OPT_STRING('o', "output", "DIR", &a->output,
                      "report folder (default: report/NAME, NAME the model's or the table's "
                      "file name without extension); an earlier report there is replaced, a "
                      "folder holding files it did not write refused"),
        CF_OPT_BOOL(0, "png", &a->png, "PNG images instead of SVG"),
        CF_OPT_QUIET(NULL, "no messages on stderr but errors (the path of index.html still "
                           "prints)"),
        CF_OPT_HELP(),
        CF_OPT_END(),
    };
    cf_error e;
    cf_error_clear(&e);
    int first;
    int rc = cf_options_parse(options, usage, CF_PARSE_NO_OPERANDS, argc, argv, &first, &e);
    if (rc == CF_PARSE_HELP)
        return -1;
    if (rc != 0)
        return cf_usage_error("%s", e.msg);
    if (a->model != NULL && *a->model == '\0')
        return cf_usage_error("-m: expected a file name");
    if (a->output != NULL && *a->output == '\0')
        return cf_usage_error("-o: expected a folder name");
    /* '-' is the standard output to every other command: no folder of that name. */
    if (a->output != NULL && strcmp(a->output, "-") == 0)
        return cf_usage_error("-o -: a report is a folder of pages and plots, not one stream; "
                              "name a folder (./- for one called '-')");
    return 0;
}

int cmd_report(int argc, char **argv)
{
    args a;
    int prc = parse(argc, argv, &a);
    if (prc != 0)
        return prc < 0 ? CF_EXIT_OK : prc;
    const char *input = a.ninputs > 0 ? a.inputs[0] : NULL, *model = a.model, *output = a.output;
    int png = a.png;

    cf_error e;
    cf_error_clear(&e);
    char *found_model = NULL, *found_table = NULL, *table_names = NULL, *dir = NULL;
    char *gnuplot = NULL, *elsewhere = NULL;
    cf_modelset *ms = NULL;
    cf_table *t = NULL;
    int rc = 0;
    /* Without files named: the newest model, else the newest table. */
    if (input == NULL && model == NULL) {
        if ((rc = cf_cmd_model_file(NULL, CF_MODEL_OPTIONAL, &found_model, &e)) != 0)
            goto report_error;
        if (found_model != NULL) {
            model = found_model;
        } else if (cf_newest_file("data", ".csv", &found_table, &e) == 0) {
            input = found_table;
        } else {
            cf_hint("no model in models/ and no timing table in data/: run 'commfit measure' "
                    "and 'commfit fit' first, or name the files with -m and -i");
            return CF_EXIT_DATA;
        }
    }
    if (model != NULL && (rc = cf_modelset_read(model, &ms, &e)) != 0)
        goto report_error;
    if (a.ninputs > 0)
        rc = input_tables(&a, &t, &table_names, &e);
    else if (input != NULL)
        rc = cf_table_read(input, &t, &e);
    else
        rc = model_tables(ms, model, &t, &table_names, &e);
    if (rc != 0)
        goto report_error;
    const char *table_path = table_names ? table_names : input;
    /* A table of no rows draws nothing: refused as fit refuses it (a report of 0 plots,
     * exit 0). */
    if (t->n_rows == 0 && ms == NULL) {
        rc = cf_error_set(&e, CF_EXIT_DATA, table_path, 0, "no rows: nothing to draw");
        goto report_error;
    }
    dir = output ? strdup(output) : cf_report_default_dir(model ? model : input);
    if (dir == NULL) {
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto report_error;
    }
    if ((rc = cf_report_check_dir(dir, &e)) != 0)
        goto report_error;
    /* Each table named that the model was not fitted to (read alone, as fitted_elsewhere
     * compares one table's rows and metadata): said once, the first such. */
    const char *not_fitted = NULL;
    for (size_t i = 0; ms != NULL && elsewhere == NULL && i < a.ninputs; i++) {
        cf_table *one = t;
        cf_error ignored;
        cf_error_clear(&ignored);
        if (a.ninputs > 1 && cf_table_read(a.inputs[i], &one, &ignored) != 0)
            continue;
        elsewhere = fitted_elsewhere(ms, model, a.inputs[i], one);
        if (one != t)
            cf_table_free(one);
        not_fitted = a.inputs[i];
    }
    if (ms != NULL)
        cf_msg("drawing %s with the model %s", table_path, model);
    else {
        /* The fit that would give the curves: each table with its -i, quoted for the shell. */
        char fit_args[2048] = "", q[900];
        for (size_t i = 0; i < (a.ninputs ? a.ninputs : 1); i++) {
            const char *name = a.ninputs ? a.inputs[i] : input;
            size_t l = strlen(fit_args);
            if (cf_shell_quote(name, q, sizeof q) != 0)
                snprintf(q, sizeof q, "%s", name);
            snprintf(fit_args + l, sizeof fit_args - l, "%s-i %s", l ? " " : "", q);
        }
        cf_msg("drawing %s: measurements only, no model (fitted curves need one: commfit fit "
               "%s)",
               table_path, fit_args);
    }
    if (elsewhere != NULL)
        cf_warn("%s is no table the model %s was fitted to (it names %s): the curves are the "
                "model's, the points this table's",
                not_fitted, model, elsewhere);

    char why[512] = "";
    gnuplot = cf_gnuplot_find(why, sizeof why);
    cf_report_opts o = {.table = t,
                        .table_path = table_path,
                        .models = ms,
                        .model_path = model,
                        .fitted_to = elsewhere,
                        .out_dir = dir,
                        .png = png,
                        .gnuplot = gnuplot,
                        .gnuplot_missing = why,
                        .warn = gnuplot_warning};
    cf_report_result res;
    rc = cf_report_write(&o, &res, &e);
    /* As predict warns: the np plots' bounds are drawn as without the probe. */
    cf_placement_model_at at = {ms, model};
    cf_placement_warn(&res.probe, "report", cf_placement_where_model, &at);
    cf_placement_warnings_free(&res.probe);
    if (rc != 0)
        goto report_error;
    if (gnuplot == NULL)
        cf_warn("%s: wrote the data files and gnuplot scripts of %zu plot%s into %s, without "
                "images; draw them with: cd '%s' && gnuplot *.gp",
                why, res.n_plots, res.n_plots == 1 ? "" : "s", dir, dir);
    else
        cf_msg("wrote %s/index.html with %zu plot%s", dir, res.n_drawn,
               res.n_drawn == 1 ? "" : "s");
    printf("%s/index.html\n", dir);
    goto out;
report_error:
    rc = cf_error_report(&e);
out:
    free(gnuplot);
    free(dir);
    cf_table_free(t);
    cf_modelset_free(ms);
    free(table_names);
    free(elsewhere);
    free(found_model);
    free(found_table);
    return rc;
}
