/* commfit fit: from timing tables to a model file, one fit per (pattern, np, datatype),
 * a summary line per fit on stdout and, on request, the formulas in a language. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "fit/across.h"
#include "base/cli.h"
#include "commands.h"
#include "cmd/fit-pooled.h"
#include "cmd/out-fit.h"
#include "base/error.h"
#include "fit/fitting.h"
#include "fit/formula.h"
#include "fit/model.h"
#include "modelfile/modelfile.h"
#include "modelfile/placement.h"
#include "base/outfile.h"
#include "report/report.h"
#include "base/size.h"
#include "base/table.h"

static const char usage[] =
    "Usage: commfit fit [OPTIONS] [TABLE...]\n"
    "\n"
    "Fits cost models to timing tables: one fit per pattern, process count and datatype,\n"
    "written to a model file that predict and report read, with a summary line per fit\n"
    "and the warnings grouped at the end. Each TABLE is read as if given with -i.\n"
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

static int add_input(opts *o, const char *arg, cf_error *e)
{
    if (arg[0] == '\0') /* an operand; -i '' is refused by the option parser */
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "an empty table name");
    char **ni = realloc(o->inputs, (o->ninputs + 1) * sizeof *ni);
    if (ni == NULL)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "out of memory");
    o->inputs = ni;
    ni[o->ninputs++] = (char *)arg;
    return 0;
}

static int opt_input(const cf_option *opt, const char *arg, cf_error *e)
{
    return add_input(opt->value, arg, e);
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
    /* An empty name (two commas together, or one at an end) is refused as every other
     * list option refuses it: strtok passed over it. */
    size_t len = strlen(arg);
    if (len > 0 && (arg[0] == ',' || arg[len - 1] == ',' || strstr(arg, ",,") != NULL)) {
        free(copy);
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--patterns '%s': an empty name (two commas together, or one at an "
                            "end)",
                            arg);
    }
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
    int rc = cf_options_parse(options, usage, 0, argc, argv, &first, &e);
    o->robust = !o->no_robust;
    if (rc == CF_PARSE_HELP)
        return -1;
    /* Operands are tables, as with -i, read after those (getopt moved them to the end). */
    for (int i = first; rc == 0 && i < argc; i++)
        rc = add_input(o, argv[i], &e);
    if (rc != 0)
        return cf_usage_error("%s", e.msg);
    if (o->formulas != NULL && o->output != NULL && strcmp(o->output, "-") == 0)
        return cf_usage_error("--formulas and -o - both write to standard output: name a file "
                              "with -o");
    if (o->quiet && o->verbose) /* as measure's -q and --progress (-q won, without a word) */
        return cf_usage_error("-q (nothing but errors) and -v (the detailed summary) "
                              "contradict each other");
    return 0;
}

static int cmp_row(const void *a, const void *b)
{
    return cf_row_cmp(*(const cf_row *const *)a, *(const cf_row *const *)b);
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

static int has_pattern(const cf_row *const *rows, size_t n, const char *p)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i]->pattern, p) == 0 && rows[i]->np == 2 &&
            strcmp(rows[i]->datatype, "byte") == 0)
            return 1;
    return 0;
}

/* What one run of fit works on and makes. */
typedef struct job {
    opts o;
    char *newest, *output;
    cf_table **tables;
    const cf_row **all, **rows; /* every row, and those to fit (sorted by group) */
    cf_row *copies;
    size_t nall, nrows;
    cf_modelset *ms;
    int is_loggp, loggp_data;
    int pair_in_node; /* np 2 ran inside one node (cf_fit_input's) */
    size_t *named_fits;     /* fits per pattern named with --patterns */
    cf_error *skipped;      /* why groups could not be fitted */
    size_t *skipped_pat;    /* the named pattern of each (npatterns: none) */
    size_t nskipped, nsaid; /* the first nsaid have been said */
    const char *hint;       /* what to do about the error, said after it */
} job;

static void job_free(job *j)
{
    free(j->named_fits);
    free(j->skipped);
    free(j->skipped_pat);
    cf_modelset_free(j->ms);
    free(j->output);
    free(j->all);
    free(j->rows);
    free(j->copies);
    for (size_t i = 0; j->tables != NULL && i < j->o.ninputs; i++)
        cf_table_free(j->tables[i]);
    free(j->tables);
    free(j->newest);
    opts_free(&j->o);
}

/* Keeps why a group failed, for the summary (or, of a pattern named with --patterns, for
 * after the others). */
static int skip(job *j, const cf_error *fe, size_t pat, cf_error *e)
{
    cf_error *ne = realloc(j->skipped, (j->nskipped + 1) * sizeof *ne);
    if (ne == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    j->skipped = ne;
    size_t *np = realloc(j->skipped_pat, (j->nskipped + 1) * sizeof *np);
    if (np == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    j->skipped_pat = np;
    ne[j->nskipped] = *fe;
    np[j->nskipped++] = pat;
    return 0;
}

/* The skipped groups not said yet: NULL when none was ever skipped (no offset is added to
 * a null pointer: clang's UndefinedBehaviorSanitizer stops there). */
static const cf_error *unsaid(const job *j)
{
    return j->skipped != NULL ? j->skipped + j->nsaid : NULL;
}

/* The skipped groups not said yet, as --verbose says them. */
static void say_skipped(job *j)
{
    cf_fit_summary sum = {NULL, 0, unsaid(j), j->nskipped - j->nsaid};
    cf_out_fit_skipped(&sum);
    j->nsaid = j->nskipped;
}

/* The name of input i in messages: '-' is "<stdin>". */
static const char *input_name(const opts *o, size_t i)
{
    return strcmp(o->inputs[i], "-") == 0 ? "<stdin>" : o->inputs[i];
}

/* Where a placement warning's key is, for cf_placement_warn: the input it is of, and the
 * line there. */
typedef struct table_at {
    const opts *o;
    const job *j;
} table_at;

static void table_where(void *ctx, const cf_placement_warning *pw, const char **file, long *line)
{
    const table_at *at = ctx;
    size_t t = pw->table < at->o->ninputs ? pw->table : 0;
    *file = input_name(at->o, t);
    *line = cf_table_meta_line(at->j->tables[t], pw->key);
}

/* The index of the table row r was read from (j->copies holds every table's rows in input
 * order); ninputs where none. */
static size_t row_table(const job *j, const cf_row *r)
{
    size_t at = (size_t)(r - j->copies), i = 0;
    while (i < j->o.ninputs && at >= j->tables[i]->n_rows)
        at -= j->tables[i++]->n_rows;
    return i;
}

/* What measures the rest of an unfinished table t read from path: the resume, with the
 * simulated platform (by the name the table records) and selector where t was simulated,
 * and none for the standard input. */
static void resume_command(const cf_table *t, const char *path, char *buf, size_t n)
{
    char quoted[900], sim[720] = "";
    if (strcmp(path, "-") == 0) {
        snprintf(buf, n, "'commfit measure --resume FILE' measures them, FILE the table "
                 "saved to a file");
        return;
    }
    if (cf_shell_quote(path, quoted, sizeof quoted) != 0)
        snprintf(quoted, sizeof quoted, "%s", path);
    const char *simulated = cf_table_meta_get(t, "simulated");
    const char *platform = cf_table_meta_get(t, "platform");
    const char *selector = cf_table_meta_get(t, "coll_selector");
    const char *hostfile = cf_table_meta_get(t, "hostfile");
    char pq[300], hq[300] = "";
    /* The hostfile it was simulated with (measure refuses another placement), a placeholder
     * where its name is too long to quote here; the default names none. */
    if (hostfile != NULL && strcmp(hostfile, CF_META_SIM_HOSTFILE_DEFAULT) != 0 &&
        cf_shell_quote(hostfile, hq, sizeof hq) != 0)
        snprintf(hq, sizeof hq, "HOSTFILE");
    /* mpich is measure's default selector (CF_SIM_SELECTOR), named only when another ran. */
    if (simulated != NULL && strcmp(simulated, "yes") == 0) {
        if (platform == NULL || cf_shell_quote(platform, pq, sizeof pq) != 0)
            snprintf(pq, sizeof pq, "PLATFORM.xml");
        snprintf(sim, sizeof sim, "--simulate %s%s%s%s%s ", pq,
                 selector != NULL && strcmp(selector, "mpich") != 0 ? " --coll-selector " : "",
                 selector != NULL && strcmp(selector, "mpich") != 0 ? selector : "",
                 hq[0] ? " --hostfile " : "", hq);
    }
    snprintf(buf, n, "measure them with: commfit measure %s--resume %s%s", sim, quoted,
             sim[0] ? " (the platform file the table names, where it is)" : "");
}

/* A whole number in v (spaces around it allowed, as strtol reads it): 1 and *n, else 0. */
static int mca_int(const char *v, long *n)
{
    char *end;
    *n = strtol(v, &end, 10);
    while (*end == ' ')
        end++;
    return end != v && *end == '\0';
}

/* Whether v is the whole number 0 ("00" too): an algorithm of 0 is the library's own. */
static int mca_zero(const char *v)
{
    long n;
    return mca_int(v, &n) && n == 0;
}

/* Whether an Open MPI boolean parameter's value is on, as its parser reads it: a whole
 * number not 0, or true, t, enabled, yes, y (its case). */
static int mca_on(const char *v)
{
    static const char *const on[] = {"true", "t", "enabled", "yes", "y"};
    long n;
    if (mca_int(v, &n))
        return n != 0;
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++)
        if (strcmp(v, on[i]) == 0)
            return 1;
    return 0;
}

/* Whether list ("a (..), b (..)") names coll as one of its items already. */
static int listed(const char *list, const char *coll)
{
    size_t n = strlen(coll);
    for (const char *p = list; (p = strstr(p, coll)) != NULL; p += n)
        if ((p == list || (p >= list + 2 && p[-2] == ',' && p[-1] == ' ')) &&
            strncmp(p + n, " (", 2) == 0)
            return 1;
    return 0;
}

/* The collectives of commfit's patterns whose algorithm an MPI library's environment sets,
 * in env (a table's mpi_env, "K=V;K=V"): Open MPI's tuned component's
 * OMPI_MCA_coll_tuned_<coll>_algorithm (not 0 nor ignore, with use_dynamic_rules on), or its
 * rules file (dynamic_rules_filename), MPICH's MPIR_CVAR_<COLL>_INTRA_ALGORITHM (not auto
 * nor empty): "bcast (OMPI_MCA_coll_tuned_bcast_algorithm=1), ..." into out; how many. A
 * new user's Open MPI bcast forced linear was read by the fixed rules' trees. */
static int forced_algorithms(const char *env, char *out, size_t n)
{
    out[0] = '\0';
    if (env == NULL)
        return 0;
    int dynamic = 0;
    for (const char *p = env; *p != '\0';) {
        size_t len = strcspn(p, ";");
        static const char key[] = "OMPI_MCA_coll_tuned_use_dynamic_rules=";
        if (len > sizeof key - 1 && strncmp(p, key, sizeof key - 1) == 0) {
            char v[16];
            snprintf(v, sizeof v, "%.*s", (int)(len - (sizeof key - 1)), p + sizeof key - 1);
            dynamic = mca_on(v);
        }
        p += len + (p[len] == ';');
    }
    int k = 0;
    size_t used = 0;
    for (const char *p = env; *p != '\0';) {
        size_t len = strcspn(p, ";");
        char item[256];
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), p);
        p += len + (p[len] == ';');
        char *eq = strchr(item, '=');
        if (eq == NULL)
            continue;
        *eq = '\0';
        const char *val = eq + 1, *name = NULL;
        size_t nlen = 0, il = strlen(item);
        static const char ompi[] = "OMPI_MCA_coll_tuned_";
        /* MPICH reads its control variables under three prefixes. */
        static const char *const mpich_prefix[] = {"MPIR_CVAR_", "MPICH_", "MPIR_PARAM_"};
        size_t mp = 0;
        for (size_t q = 0; q < sizeof mpich_prefix / sizeof mpich_prefix[0] && mp == 0; q++)
            if (strncmp(item, mpich_prefix[q], strlen(mpich_prefix[q])) == 0)
                mp = strlen(mpich_prefix[q]);
        if (dynamic && strcmp(item, "OMPI_MCA_coll_tuned_dynamic_rules_filename") == 0 &&
            val[0] != '\0') {
            name = "every collective";
            nlen = strlen(name);
        } else if (dynamic && strncmp(item, ompi, sizeof ompi - 1) == 0 &&
                   il > sizeof ompi - 1 + 10 && strcmp(item + il - 10, "_algorithm") == 0 &&
                   val[0] != '\0' && strcasecmp(val, "ignore") != 0 && !mca_zero(val)) {
            name = item + sizeof ompi - 1;
            nlen = il - (sizeof ompi - 1) - 10;
        } else if (mp > 0 && il > mp + 16 && strcmp(item + il - 16, "_INTRA_ALGORITHM") == 0 &&
                   val[0] != '\0' && strcasecmp(val, "auto") != 0) {
            name = item + mp;
            nlen = il - mp - 16;
        }
        if (name == NULL || nlen == 0 || used >= n)
            continue;
        char coll[64];
        size_t c = 0;
        for (; c < nlen && c + 1 < sizeof coll; c++)
            coll[c] = (char)tolower((unsigned char)name[c]);
        coll[c] = '\0';
        /* Only a collective commfit measures and the rules read (not MPICH's ibcast), once
         * (a key given twice). */
        if ((strcmp(coll, "every collective") != 0 && cf_pattern_facts(coll) == NULL) ||
            listed(out, coll))
            continue;
        int w = snprintf(out + used, n - used, "%s%s (%s=%s)", k ? ", " : "", coll, item, val);
        used = w > 0 && (size_t)w < n - used ? used + (size_t)w : n;
        k++;
    }
    return k;
}

/* The tables read, their rows labelled, the rows to fit chosen and sorted. */
static int read_inputs(job *j, cf_error *e)
{
    opts *o = &j->o;
    if (o->ninputs == 0) {
        if (cf_newest_file("data", ".csv", &j->newest, e) != 0) {
            j->hint = "give a table with -i, or run 'commfit measure' or 'commfit import' first";
            return e->code;
        }
        if ((o->inputs = malloc(sizeof *o->inputs)) == NULL)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        o->inputs[0] = j->newest;
        o->ninputs = 1;
    }
    for (size_t i = 0; o->output != NULL && i < o->ninputs; i++)
        if (cf_same_file(o->output, o->inputs[i]))
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "-o '%s' is the same file as the input '%s': writing it would "
                                "destroy the input; name another output",
                                o->output, o->inputs[i]);
    for (size_t i = 0; i < o->ninputs; i++)
        for (size_t k = 0; k < i; k++)
            if (cf_same_input(o->inputs[i], o->inputs[k]))
                return cf_usage_error("-i '%s' is the same file as -i '%s': its rows would "
                                      "count twice; give each table once",
                                      o->inputs[i], o->inputs[k]);
    if ((j->tables = calloc(o->ninputs, sizeof *j->tables)) == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    size_t nall = 0;
    for (size_t i = 0; i < o->ninputs; i++) {
        int rc = cf_table_read(o->inputs[i], &j->tables[i], e);
        if (rc != 0)
            return rc;
        cf_msg("read %s (%zu row%s)", input_name(o, i), j->tables[i]->n_rows,
               j->tables[i]->n_rows == 1 ? "" : "s");
        double share;
        int rank;
        if (cf_table_cpu_share_min(j->tables[i], &share, &rank) == 0 && share < CF_CPU_SHARE_LOW)
            cf_warn("%s: rank %d ran on a processor %.0f%% of its timed calls' time "
                    "(rank_cpu_share): other work had its processor the rest (or the MPI "
                    "library waits without polling), and the times include waiting for it; "
                    "measure again on an idle machine",
                    o->inputs[i], rank, 100 * share);
        /* A table whose run stopped short of its plan fits what it has, and says so: the
         * sizes and process counts it did not reach are missing from every fit. */
        const char *why = cf_table_unfinished(j->tables[i]);
        if (why != NULL) {
            char resume[1800]; /* the longest quoted path and platform whole */
            resume_command(j->tables[i], o->inputs[i], resume, sizeof resume);
            cf_warn("%s: its run %s (%s): the table holds %zu row%s, and no fit has the points "
                    "the run did not reach; %s",
                    o->inputs[i], why[0] ? "stopped short of its plan" : "never reached its end",
                    why[0] ? why : "no end_reason after its rows: the run was killed, or its "
                                   "machine went down",
                    j->tables[i]->n_rows, j->tables[i]->n_rows == 1 ? "" : "s", resume);
        }
        char forced[600];
        if (cf_rules_for(cf_table_meta_get(j->tables[i], "mpi_library"),
                         cf_table_meta_get(j->tables[i], "coll_selector"),
                         cf_table_timed_loop(j->tables[i])) != NULL &&
            forced_algorithms(cf_table_meta_get(j->tables[i], "mpi_env"), forced,
                              sizeof forced) > 0)
            cf_warn("%s: its mpi_env sets the algorithm of %s: the library's switch rules, "
                    "which fit and predict follow across process counts and from np=2, do not "
                    "hold there, and their algorithm names and readings with them",
                    o->inputs[i], forced);
        nall += j->tables[i]->n_rows;
    }
    j->all = malloc((nall + 1) * sizeof *j->all);
    j->rows = malloc((nall + 1) * sizeof *j->rows);
    j->copies = malloc((nall + 1) * sizeof *j->copies);
    if (j->all == NULL || j->rows == NULL || j->copies == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    int all_med = 1;
    size_t no_med = 0, first_in = 0;
    long first_line = 0;
    for (size_t i = 0; i < o->ninputs; i++)
        for (size_t k = 0; k < j->tables[i]->n_rows; k++) {
            cf_row *r = &j->copies[j->nall];
            *r = j->tables[i]->rows[k];
            cf_row_label_pack(j->tables[i], r);
            j->all[j->nall++] = r;
            if (isnan(r->t_med_us)) {
                all_med = 0;
                if (no_med++ == 0) {
                    first_in = i;
                    first_line = r->line;
                }
            }
            if (wanted(o, r))
                j->rows[j->nrows++] = r;
        }
    /* Some rows with a median and some without: the mean is fitted for all (the default's
     * rule), said, at the first row without one: one empty cell switched every fit to the
     * mean, nothing said (a new user). */
    if (!o->stat_set && no_med > 0 && no_med < j->nall && !o->quiet) {
        char others[64] = "";
        if (no_med > 1)
            snprintf(others, sizeof others, ", nor %zu other row%s of %zu", no_med - 1,
                     no_med - 1 == 1 ? "" : "s", j->nall);
        cf_warn("%s:%ld: no t_med_us%s: the mean (t_avg_us) is fitted for every row "
                "(--statistic median fits the median, and leaves out each group that has a "
                "row without one)",
                o->inputs[first_in], first_line, others);
    }
    if (j->nall == 0)
        return cf_error_set(e, CF_EXIT_DATA, o->inputs[0], 0, "no rows: nothing to fit");
    for (size_t i = 0; i < o->npatterns; i++) {
        int found = 0;
        for (size_t k = 0; k < j->nrows && !found; k++)
            found = strcmp(j->rows[k]->pattern, o->patterns[i]) == 0;
        if (!found) {
            /* What the input has (at the requested np), as predict lists what a model file
             * has; none there: said so. */
            char has[600] = "";
            const char *names[32];
            size_t l = 0, nn = 0;
            for (size_t k = 0; k < j->nall && nn < 32 && l < sizeof has - 64; k++) {
                const char *p = j->all[k]->pattern;
                int seen = 0, at = o->nnp == 0;
                for (size_t q = 0; q < o->nnp && !at; q++)
                    at = o->np[q] == j->all[k]->np;
                if (!at)
                    continue;
                for (size_t q = 0; q < nn && !seen; q++)
                    seen = strcmp(names[q], p) == 0;
                if (!seen) {
                    names[nn++] = p;
                    l += (size_t)snprintf(has + l, sizeof has - l, "%s%s", l ? ", " : "", p);
                }
            }
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                                "--patterns: no rows of pattern '%s'%s in the input; it has%s: %s",
                                o->patterns[i], o->nnp ? " at the requested --np" : "",
                                o->nnp ? " there" : "", l ? has : "none");
        }
    }
    if (j->nrows == 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "--np: no rows at the requested process counts");
    if (!o->stat_set)
        o->stat = all_med ? CF_STAT_MEDIAN : CF_STAT_MEAN;
    if (!o->quiet && o->ninputs > 1) {
        /* The rows fitted (--patterns, --np) and the table of each. */
        const char **names = malloc(o->ninputs * sizeof *names);
        size_t *tab = malloc((j->nrows + 1) * sizeof *tab);
        int rc = names == NULL || tab == NULL ? -1 : 0;
        for (size_t i = 0; rc == 0 && i < o->ninputs; i++)
            names[i] = input_name(o, i);
        for (size_t k = 0; rc == 0 && k < j->nrows; k++)
            tab[k] = row_table(j, j->rows[k]);
        if (rc == 0)
            rc = cf_fit_pooled_check(j->tables, names, o->ninputs,
                                     (const cf_row *const *)j->rows, tab, j->nrows, o->stat);
        free(names);
        free(tab);
        if (rc != 0)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    qsort(j->rows, j->nrows, sizeof *j->rows, cmp_row);
    return 0;
}

/* The input a row was read from: j->copies holds every table's rows in input order. */
static const char *row_source(const void *ctx, const cf_row *r)
{
    const job *j = ctx;
    size_t i = row_table(j, r);
    return i < j->o.ninputs ? input_name(&j->o, i) : NULL;
}

/* Fits the group rows[a, b) into the model set. A group that cannot be fitted is kept
 * in the skipped list; an error stops fit. */
static int fit_group(job *j, size_t a, size_t b, cf_error *e)
{
    const opts *o = &j->o;
    const cf_row *r0 = j->rows[a];
    int pp2 =
        strcmp(r0->pattern, "pingpong") == 0 && r0->np == 2 && strcmp(r0->datatype, "byte") == 0;
    if (j->is_loggp && !pp2)
        return 0;
    char what[128];
    snprintf(what, sizeof what, "%s np %d %s", r0->pattern, r0->np, r0->datatype);
    cf_fit_input in = {.rows = j->rows + a,
                       .n = b - a,
                       .all = j->all,
                       .nall = j->nall,
                       .stat = o->stat,
                       .weights = o->weights,
                       .robust = o->robust,
                       .what = what,
                       .source_of = row_source,
                       .source_ctx = j,
                       .pair_in_node = j->pair_in_node};
    cf_fit f;
    cf_error fe;
    cf_error_clear(&fe);
    size_t named = 0;
    while (named < o->npatterns && strcmp(o->patterns[named], r0->pattern) != 0)
        named++;
    /* One process sends nothing to another: predict answers from np=2 up, and a fit at
     * np=1 would be one nothing reads. */
    if (r0->np < 2) {
        cf_error_set(&fe, CF_EXIT_DATA, NULL, 0,
                     "%s: one process communicates with none; predict answers from np=2 up, "
                     "so these rows are not fitted",
                     what);
        return skip(j, &fe, named, e);
    }
    if (cf_fit_group(o->model, &in, &f, &fe) != 0) {
        if (j->is_loggp) {
            *e = fe;
            return e->code;
        }
        return skip(j, &fe, named, e);
    }
    /* A model file must not lie: a fit of the model asked for that predicts a negative
     * or non-finite cost stops fit before anything is written; auto only skips the group
     * (its candidates were checked one by one already). */
    if (cf_fit_check(&f, &in, &fe) != 0) {
        cf_fit_clear(&f);
        if (strcmp(o->model, "auto") != 0) {
            *e = fe;
            j->hint = "no model file written: try another --model";
            return e->code;
        }
        return skip(j, &fe, named, e);
    }
    j->named_fits[named]++;
    cf_fit_flag_poor(&f);
    if (cf_fit_keep_points(&f, &in) != 0 || cf_modelset_add(j->ms, &f) != 0) {
        cf_fit_clear(&f);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    /* With the LogGP experiments in the input, the LogGP parameters come too. */
    if (pp2 && !j->is_loggp && j->loggp_data && strcmp(o->model, "auto") == 0) {
        cf_error_clear(&fe);
        if (cf_fit_group("loggp", &in, &f, &fe) != 0 ||
            (cf_fit_check(&f, &in, &fe) != 0 && (cf_fit_clear(&f), 1))) {
            cf_warn("no loggp parameters: %s", fe.msg);
        } else if (cf_fit_flag_poor(&f), cf_modelset_add(j->ms, &f) != 0) {
            cf_fit_clear(&f);
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        }
    }
    return 0;
}

/* Every group fitted. With --patterns, a named pattern none of whose groups could be
 * fitted is the error, once every group has been tried; the others' failures stay
 * warnings. */
static int fit_groups(job *j, cf_error *e)
{
    const opts *o = &j->o;
    j->output = o->output ? strdup(o->output) : default_output(o->inputs[0]);
    j->ms = cf_modelset_alloc();
    j->named_fits = calloc(o->npatterns + 1, sizeof *j->named_fits);
    if (j->output == NULL || j->ms == NULL || j->named_fits == NULL ||
        (j->ms->source = source_json(o, j->tables, j->output)) == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    cf_pair_place pp;
    if (cf_placement_pair_nodes(j->ms, &pp) != 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    /* Every table says so: the ping-pong's rows may come from any of them. */
    j->pair_in_node = pp.inside > 0 && pp.inside == pp.ntables;
    j->is_loggp = strcmp(o->model, "loggp") == 0;
    j->loggp_data = has_pattern(j->all, j->nall, "loggp_os") &&
                    has_pattern(j->all, j->nall, "loggp_or") &&
                    has_pattern(j->all, j->nall, "loggp_gap");
    for (size_t a = 0, b; a < j->nrows; a = b) {
        for (b = a + 1; b < j->nrows && same_group(j->rows[a], j->rows[b]); b++)
            ;
        int rc = fit_group(j, a, b, e);
        if (rc != 0)
            return rc;
    }
    size_t none = o->npatterns; /* the first named pattern without a fit */
    for (size_t i = 0; i < o->npatterns && none == o->npatterns; i++)
        if (j->named_fits[i] == 0)
            none = i;
    for (size_t k = 0; none < o->npatterns && k < j->nskipped; k++) {
        if (j->skipped_pat[k] != none)
            continue;
        *e = j->skipped[k];
        memmove(j->skipped + k, j->skipped + k + 1, (j->nskipped - k - 1) * sizeof *j->skipped);
        j->nskipped--;
        return e->code;
    }
    if (o->verbose)
        say_skipped(j);
    if (j->ms->nfits == 0 && j->nskipped == 0 && j->is_loggp)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "no fit could be made: --model loggp fits the ping-pong at np=2 "
                            "(byte) alone, and the rows to fit hold none%s",
                            o->npatterns > 0 ? " (--patterns leaves it out)" : "");
    if (j->ms->nfits == 0 && j->nskipped == 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "no fit could be made: no rows to fit");
    if (j->ms->nfits == 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "no fit could be made (%zu group%s skipped, %s)", j->nskipped,
                            j->nskipped == 1 ? "" : "s",
                            o->quiet ? "-q hid why: run without it" : "see above");
    return 0;
}

/* The barrier's wait in a pattern's times at np (cf_across_probe): its replay over the
 * launch's latency probe under the library's rules. */
typedef struct fit_waits {
    const cf_placement *pl;
    const char *rules;
} fit_waits;

static double barrier_wait(const void *ctx, const char *pattern, long np)
{
    const fit_waits *w = ctx;
    /* No replay (no probe, calls timed as a loop, latencies in no tiers): NAN, nothing taken
     * and nothing replayed at predict's np; a replay's 0 is a wait of none. */
    if (!cf_placement_can_replay(w->pl, pattern))
        return NAN;
    return cf_placement_barrier_wait(w->pl, w->rules, pattern, np);
}

/* Where the tables' ranks ran, read once for the model: the first table whose placement
 * reads (ranks_per_node, cores, rank_hosts) answers past the fitted np for every pattern. A
 * table whose own placement parts from it inside its own launch (the nodes an np spans, or
 * the most one holds, as predict reads them) is named: a new user fitted AWS's two-node
 * ping-pongs, one rank a node, with its allreduce at 96 a node, and the model said np=2 ran
 * inside one node, or np 6144 on 6144 nodes, by the order of -i, without a word. */
static int warn_placements(const opts *o, const cf_modelset *ms)
{
    const json_t *tables = json_object_get(ms->source, "tables");
    cf_placement first, p;
    size_t at = SIZE_MAX, i;
    const json_t *t;
    memset(&first, 0, sizeof first);
    json_array_foreach(tables, i, t)
    {
        if (cf_placement_of_table(json_object_get(t, "metadata"), &p) != 0) {
            cf_placement_free(&p);
            cf_placement_free(&first);
            return -1;
        }
        long np = p.known && at != SIZE_MAX ? cf_placement_parts(&first, &p) : 0;
        if (np > 0)
            cf_warn("%s places its ranks otherwise than %s: np=%ld spans %ld node%s, at most "
                    "%ld a node, by its metadata, and %ld, at most %ld, by %s's; answers past "
                    "the fitted np read %s's placement, for every pattern; fit tables of one "
                    "placement together",
                    input_name(o, i), input_name(o, at), np, cf_placement_nodes(&p, np),
                    cf_placement_nodes(&p, np) == 1 ? "" : "s", cf_placement_share(&p, np),
                    cf_placement_nodes(&first, np), cf_placement_share(&first, np),
                    input_name(o, at), input_name(o, at));
        if (p.known && at == SIZE_MAX) {
            first = p;
            at = i;
        } else {
            cf_placement_free(&p);
        }
    }
    cf_placement_free(&first);
    return 0;
}

/* The across-np models, the model file, and what is said about them. */
static int finish(job *j, cf_error *e)
{
    const opts *o = &j->o;
    cf_modelset *ms = j->ms;
    /* The across-np models and the point-to-point estimate: commfit predict's part. */
    char **notes = NULL;
    size_t nnotes = 0;
    const char *rules = cf_rules_for(cf_table_meta_get(j->tables[0], "mpi_library"),
                                     cf_table_meta_get(j->tables[0], "coll_selector"),
                                     cf_table_timed_loop(j->tables[0]));
    cf_placement pl;
    if (cf_placement_read(ms, &pl) != 0) {
        cf_placement_free(&pl);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    if (!o->quiet && o->ninputs > 1 && warn_placements(o, ms) != 0) {
        cf_placement_free(&pl);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    /* A launch probe that does not read: said here, where the table is read, as predict
     * and report say it of the model file (the barrier's waits are not taken without it),
     * at the key's line in the table the placement read it from (the model's source tables
     * are the inputs, in order). */
    if (!o->quiet) {
        table_at at = {o, j};
        cf_placement_warn(&pl.warn, "fit", table_where, &at);
    }
    fit_waits fw = {&pl, rules};
    cf_tiers tiers;
    cf_placement_tiers(&pl, &tiers);
    cf_across_probe probe = {barrier_wait, &fw, &tiers};
    int rc = cf_across_fit_set(j->rows, j->nrows, cf_statistic_name(o->stat),
                               cf_table_meta_get(j->tables[0], "normalized_time_us"), rules,
                               &probe, o->robust, &ms->across, &notes, &nnotes, e);
    cf_placement_free(&pl);
    if (rc != 0)
        return rc;
    cf_notes_free(notes, nnotes);
    cf_out_fit_across_notes(&ms->across, ms->fits, ms->nfits);
    if ((rc = cf_modelset_write(j->output, ms, e)) != 0)
        return rc;
    int to_stdout = strcmp(j->output, "-") == 0;
    if (to_stdout)
        cf_msg("wrote the model file to standard output (%zu fit%s)", ms->nfits,
               ms->nfits == 1 ? "" : "s");
    else
        cf_msg("wrote %s (%zu fit%s)", j->output, ms->nfits, ms->nfits == 1 ? "" : "s");
    cf_fit_summary sum = {ms->fits, ms->nfits, unsaid(j), j->nskipped - j->nsaid};
    /* With -o -, standard output holds the model file and nothing else. */
    if (!to_stdout && (o->formulas != NULL || !o->quiet))
        cf_out_fit_summary(stdout, &sum, o->formulas, o->verbose);
    if (fflush(stdout) != 0 || ferror(stdout))
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot write to standard output");
    if (!o->verbose)
        cf_out_fit_warnings(&sum);
    if (!o->quiet) {
        cf_out_fit_across_set_aside(&ms->across);
        cf_out_fit_across_grid_none(&ms->across);
    }
    j->nsaid = j->nskipped;
    int from_stdin = 0;
    for (size_t i = 0; i < o->ninputs; i++)
        from_stdin |= strcmp(o->inputs[i], "-") == 0;
    /* report reads the tables the model file names again: standard input is gone. */
    /* Nor a model file that is none report can read again: /dev/null, a pipe. */
    char hint[4200];
    struct stat st;
    int regular = !to_stdout && stat(j->output, &st) == 0 && S_ISREG(st.st_mode);
    if (regular && from_stdin && cf_report_hint_text(hint, sizeof hint, "-m", j->output) == 0)
        cf_msg("%s -i TABLE, naming the table read from standard input%s", hint,
               o->ninputs > 1 ? ", and -i each of the others" : "");
    else if (regular && !from_stdin)
        cf_report_hint("-m", j->output);
    return 0;
}

int cmd_fit(int argc, char **argv)
{
    job j;
    memset(&j, 0, sizeof j);
    int rc = parse(argc, argv, &j.o);
    if (rc != 0) {
        opts_free(&j.o);
        return rc < 0 ? CF_EXIT_OK : rc;
    }
    cf_error e;
    cf_error_clear(&e);
    if ((rc = read_inputs(&j, &e)) == 0 && (rc = fit_groups(&j, &e)) == 0)
        rc = finish(&j, &e);
    if (rc != 0) {
        /* The groups skipped, before the error that stopped fit. */
        say_skipped(&j);
        if (e.code != 0)
            cf_error_report(&e);
        if (j.hint != NULL)
            cf_hint("%s", j.hint);
    }
    job_free(&j);
    return rc;
}
