/* commfit fit: from timing tables to a model file, one fit per (pattern, np, datatype),
 * a summary line per fit on stdout and, on request, the formulas in a language. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit/across.h"
#include "modelfile/across-json.h"
#include "base/cli.h"
#include "commands.h"
#include "base/error.h"
#include "fit/fitting.h"
#include "fit/formula.h"
#include "fit/model.h"
#include "modelfile/modelfile.h"
#include "base/outfile.h"
#include "report/report.h"
#include "base/size.h"
#include "base/table.h"

/* A fit whose leave-one-out error is above this is called poor in the summary. */
#define POOR_LOO 0.25

static const char help[] =
    "Usage: commfit fit [OPTIONS]\n"
    "\n"
    "Fits cost models to timing tables: one fit per pattern, process count and datatype,\n"
    "written to a model file that predict and report read, with a summary line per fit.\n"
    "\n"
    "Options:\n"
    "  -i, --input TABLE     a timing table to fit (repeatable; default: the newest\n"
    "                        data/*.csv)\n"
    "  -o, --output FILE     the model file ('-': standard output, then without the\n"
    "                        summary; default: models/TABLE.json, TABLE the first\n"
    "                        input's name without .csv)\n"
    "  -m, --model KIND      auto (default), linear, poly2, piecewise or loggp\n"
    "      --patterns LIST   fit only these patterns (comma-separated)\n"
    "      --np LIST         fit only these process counts (comma-separated)\n"
    "      --statistic STAT  median (default when every row has t_med_us), mean or min\n"
    "      --weights W       relative (default: 1/T^2, iterated), variance (1/sd^2 from\n"
    "                        t_ci95_us) or none\n"
    "      --no-robust       keep every point (default: set outliers aside)\n"
    "      --formulas LANG   print the formulas instead of the summary: text, c, python,\n"
    "                        latex or gnuplot\n"
    "  -h, --help            print this help and exit\n";

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
    int robust;
    const char *formulas;
} opts;

static void opts_free(opts *o)
{
    free(o->inputs);
    for (size_t i = 0; i < o->npatterns; i++)
        free(o->patterns[i]);
    free(o->patterns);
    free(o->np);
}

static int split_patterns(const char *s, opts *o)
{
    char *copy = strdup(s);
    if (copy == NULL)
        return cf_usage_error("out of memory");
    int rc = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && rc == 0;
         tok = strtok_r(NULL, ",", &save)) {
        char **np = realloc(o->patterns, (o->npatterns + 1) * sizeof *np);
        if (np == NULL || (np[o->npatterns] = strdup(tok)) == NULL) {
            if (np != NULL)
                o->patterns = np;
            rc = cf_usage_error("out of memory");
            break;
        }
        o->patterns = np;
        o->npatterns++;
    }
    if (rc == 0 && o->npatterns == 0)
        rc = cf_usage_error("--patterns '%s': expected a comma-separated list of patterns", s);
    free(copy);
    return rc;
}

static int parse(int argc, char **argv, opts *o)
{
    static const struct option longopts[] = {
        {"input", required_argument, NULL, 'i'},   {"output", required_argument, NULL, 'o'},
        {"model", required_argument, NULL, 'm'},   {"patterns", required_argument, NULL, 'P'},
        {"np", required_argument, NULL, 'N'},      {"statistic", required_argument, NULL, 'S'},
        {"weights", required_argument, NULL, 'W'}, {"no-robust", no_argument, NULL, 'R'},
        {"formulas", required_argument, NULL, 'F'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->model = "auto";
    o->robust = 1;
    o->weights = CF_WEIGHTS_RELATIVE;
    opterr = 0;
    optind = 1;
    int c;
    cf_error e;
    while ((c = getopt_long(argc, argv, ":i:o:m:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'i': {
            char **ni = realloc(o->inputs, (o->ninputs + 1) * sizeof *ni);
            if (ni == NULL)
                return cf_usage_error("out of memory");
            o->inputs = ni;
            ni[o->ninputs++] = optarg;
            break;
        }
        case 'o':
            o->output = optarg;
            break;
        case 'm': {
            const cf_model_kind *k = cf_model_kind_find(optarg);
            if (k == NULL || k == &cf_model_datatype || k == &cf_model_constant)
                return cf_usage_error(
                    "--model '%s': expected auto, linear, poly2, piecewise or loggp", optarg);
            o->model = optarg;
            break;
        }
        case 'P':
            if (split_patterns(optarg, o) != 0)
                return CF_EXIT_USAGE;
            break;
        case 'N':
            free(o->np);
            o->np = NULL;
            if (cf_int_list_parse(optarg, "--np", 1, CF_TABLE_NP_MAX, &o->np, &o->nnp, &e) != 0)
                return cf_usage_error("%s", e.msg);
            break;
        case 'S':
            if (cf_statistic_parse(optarg, &o->stat) != 0)
                return cf_usage_error("--statistic '%s': expected median, mean or min", optarg);
            o->stat_set = 1;
            break;
        case 'W':
            if (cf_weights_parse(optarg, &o->weights) != 0)
                return cf_usage_error("--weights '%s': expected relative, variance or none",
                                      optarg);
            break;
        case 'R':
            o->robust = 0;
            break;
        case 'F':
            if (!cf_formula_lang_valid(optarg))
                return cf_usage_error(
                    "--formulas '%s': expected text, c, python, latex or gnuplot", optarg);
            o->formulas = optarg;
            break;
        case 'h':
            fputs(help, stdout);
            return -1;
        case ':':
            return cf_usage_error("option '%s' needs a value", argv[optind - 1]);
        default:
            return cf_usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cf_usage_error("unexpected argument '%s'", argv[optind]);
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

static void human_size(double bytes, char *buf, size_t n)
{
    if (!isfinite(bytes) || bytes < 0) {
        snprintf(buf, n, "-");
        return;
    }
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && bytes >= 1024) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, n, "%.*g %s", cf_sig_prec(bytes, 3), bytes, units[u]);
}

/* A percentage of a quality figure, "-" where it does not exist (one point). */
static void pct_text(double frac, char *buf, size_t n)
{
    double v = 100 * frac;
    if (isfinite(v))
        snprintf(buf, n, "%.*g%%", cf_sig_prec(v, 2), v);
    else
        snprintf(buf, n, "-");
}

/* A bandwidth in MiB/s as the report prints it: whole digits, 3 significant below 100. */
static void bw_text(double v, char *buf, size_t n)
{
    if (isfinite(v))
        snprintf(buf, n, "%.*g", cf_sig_prec(v, 3), v);
    else
        snprintf(buf, n, "inf");
}

/* A measured size: "512 KiB" when that is exact, else the bytes ("524272 B"), so that
 * two sizes never print alike. */
static void size_exact(uint64_t bytes, char *buf, size_t n)
{
    cf_size_format(bytes, buf, n);
    double x = strtod(buf, NULL), unit = 1;
    for (const char *u = strchr(buf, ' '); u != NULL && *++u != 'B'; u = NULL)
        unit = *u == 'K' ? 1024.0 : *u == 'M' ? 1048576.0 : *u == 'G' ? 1073741824.0 : 1099511627776.0;
    if (x * unit != (double)bytes)
        snprintf(buf, n, "%llu B", (unsigned long long)bytes);
}

static void summary_line(FILE *fp, const cf_fit *f)
{
    char loo[32], max[32], r2[32];
    pct_text(f->q.loo_mape, loo, sizeof loo);
    pct_text(f->q.max_rel_err, max, sizeof max);
    if (isfinite(f->q.r2))
        snprintf(r2, sizeof r2, "%.4f", f->q.r2);
    else
        snprintf(r2, sizeof r2, "-");
    fprintf(fp, "%s np %d %s: %s %s | n %d, loo %s, max %s, R2 %s", f->pattern, f->np,
            f->datatype, f->model, f->formula, f->q.n, loo, max, r2);
    for (int k = 0; k + 1 < f->nseg; k++) {
        char a[32], b[32];
        size_exact(f->seg[k].to_bytes, a, sizeof a);
        size_exact(f->seg[k + 1].from_bytes, b, sizeof b);
        fprintf(fp, k == 0 ? ", breakpoint in (%s, %s)" : ", (%s, %s)", a, b);
    }
    if (f->nrejected > 0)
        fprintf(fp, ", %zu rejected", f->nrejected);
    const cf_saturation *s = &f->sat;
    if (s->valid) {
        char n2[32], m90[32], pk[32], r0[32], r1[32], r2b[32], rp[32];
        human_size(s->n_half_bytes, n2, sizeof n2);
        human_size(s->m90_bytes, m90, sizeof m90);
        size_exact(s->peak_bytes, pk, sizeof pk);
        bw_text(s->rinf_MiBps, r0, sizeof r0);
        bw_text(s->rinf_lo_MiBps, r1, sizeof r1);
        bw_text(s->rinf_hi_MiBps, r2b, sizeof r2b);
        bw_text(s->peak_MiBps, rp, sizeof rp);
        fprintf(fp, " | r_inf %s MiB/s [%s, %s]", r0, r1, r2b);
        if (s->half_segment < 0) {
            fprintf(fp, ", n1/2 -, 90%% at - (no segment with a positive intercept)");
        } else if (s->half_segment == f->nseg - 1) {
            fprintf(fp, ", n1/2 %s, 90%% at %s", n2, m90);
        } else {
            char a[32], z[32], rh[32];
            size_exact(f->seg[s->half_segment].from_bytes, a, sizeof a);
            size_exact(f->seg[s->half_segment].to_bytes, z, sizeof z);
            bw_text(s->half_rinf_MiBps, rh, sizeof rh);
            fprintf(fp,
                    ", n1/2 %s and 90%% at %s from segment %d (%s to %s, %s MiB/s; the "
                    "last segment's intercept is negative)",
                    n2, m90, s->half_segment + 1, a, z, rh);
        }
        fprintf(fp, ", peak %s MiB/s at %s", rp, pk);
        if (isfinite(s->falls_beyond_bytes)) {
            char big[32], last[32];
            size_exact(f->max_bytes, big, sizeof big);
            bw_text(s->last_MiBps, last, sizeof last);
            fprintf(fp, ", bandwidth falls beyond %s (%s MiB/s at %s)", pk, last, big);
        }
        if (isfinite(s->flat_from_bytes)) {
            char fl[32];
            size_exact((uint64_t)s->flat_from_bytes, fl, sizeof fl);
            fprintf(fp, ", flat from %s", fl);
        } else {
            fprintf(fp, ", not flat within the measured sizes");
        }
    }
    if (f->ngain > 0) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < f->ngain; i++) {
            lo = fmin(lo, f->gain[i].gain_pct);
            hi = fmax(hi, f->gain[i].gain_pct);
        }
        fprintf(fp, " | gain over pack: min %+.0f%%, max %+.0f%% (%zu point%s)", lo, hi,
                f->ngain, f->ngain == 1 ? "" : "s");
    }
    fputc('\n', fp);
    if (f->nset_aside > 0)
        fprintf(fp, "  set aside: %s\n", f->set_aside_why);
    for (size_t i = 0; i < f->nwarnings; i++)
        fprintf(fp, "  warning: %s\n", f->warnings[i]);
}

/* The size a payload was asked for: measure rounds a payload down to whole blocks (2044
 * bytes for 2 KiB in 7 blocks), so the next power of two. */
static uint64_t asked_size(uint64_t bytes)
{
    uint64_t p = 1;
    while (p < bytes)
        p <<= 1;
    return p;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

#define GAIN_COLS 6
#define GAIN_BANDS 5

/* Which band of block counts b falls in: 1, 2-10, 11-100, 101-1000, more. */
static int gain_band(int b)
{
    int k = 0;
    for (long top = 1; k < GAIN_BANDS - 1 && b > top; top *= 10)
        k++;
    return k;
}

/* The gains of a datatype fit as a small table, a few lines whatever the sweep: rows by
 * block count (1, 2-10, 11-100, ...), columns by the size asked for, grouped into at most
 * GAIN_COLS runs of powers of two; each cell the least and the most gain of its points.
 * The model file keeps every point. */
static void gain_table(FILE *fp, const cf_fit *f)
{
    size_t n = f->ngain, ncls = 0;
    uint64_t *cls = malloc((n + 1) * sizeof *cls);
    if (cls == NULL || n == 0) {
        free(cls);
        return;
    }
    for (size_t i = 0; i < n; i++)
        cls[i] = asked_size(f->gain[i].bytes);
    qsort(cls, n, sizeof *cls, cmp_u64);
    for (size_t i = 0; i < n; i++)
        if (ncls == 0 || cls[i] != cls[ncls - 1])
            cls[ncls++] = cls[i];
    size_t ncol = ncls < GAIN_COLS ? ncls : GAIN_COLS;
    /* Blocks that follow the size (struct) make one row: a band would split the sizes. */
    int follow = f->min_blocks != f->max_blocks && f->kind != NULL && f->ncoef == 2;
    double lo[GAIN_BANDS][GAIN_COLS], hi[GAIN_BANDS][GAIN_COLS];
    int bmin[GAIN_BANDS], bmax[GAIN_BANDS], cnt[GAIN_BANDS][GAIN_COLS] = {{0}};
    for (int k = 0; k < GAIN_BANDS; k++)
        bmin[k] = bmax[k] = -1;
    for (size_t i = 0; i < n; i++) {
        const cf_gain *g = &f->gain[i];
        uint64_t c = asked_size(g->bytes);
        size_t idx = 0;
        while (cls[idx] != c)
            idx++;
        size_t col = idx * ncol / ncls;
        int band = follow ? 0 : gain_band(g->blocks);
        if (cnt[band][col]++ == 0)
            lo[band][col] = hi[band][col] = g->gain_pct;
        lo[band][col] = fmin(lo[band][col], g->gain_pct);
        hi[band][col] = fmax(hi[band][col], g->gain_pct);
        if (bmin[band] < 0 || g->blocks < bmin[band])
            bmin[band] = g->blocks;
        bmax[band] = g->blocks > bmax[band] ? g->blocks : bmax[band];
    }
    char head[GAIN_COLS][64], cell[GAIN_BANDS][GAIN_COLS][32];
    int width[GAIN_COLS];
    for (size_t c = 0; c < ncol; c++) {
        size_t first = (c * ncls + ncol - 1) / ncol, last = ((c + 1) * ncls + ncol - 1) / ncol - 1;
        char a[24], z[24];
        cf_size_format(cls[first], a, sizeof a);
        cf_size_format(cls[last], z, sizeof z);
        if (first == last)
            snprintf(head[c], sizeof head[c], "%s", a);
        else
            snprintf(head[c], sizeof head[c], "%s..%s", a, z);
        width[c] = (int)strlen(head[c]);
        for (int k = 0; k < GAIN_BANDS; k++) {
            if (cnt[k][c] == 0)
                snprintf(cell[k][c], sizeof cell[k][c], "-");
            else if (lround(lo[k][c]) == lround(hi[k][c]))
                snprintf(cell[k][c], sizeof cell[k][c], "%+.0f", lo[k][c]);
            else
                snprintf(cell[k][c], sizeof cell[k][c], "%+.0f..%+.0f", lo[k][c], hi[k][c]);
            if ((int)strlen(cell[k][c]) > width[c])
                width[c] = (int)strlen(cell[k][c]);
        }
    }
    fprintf(fp, "  gain over pack, %% (min..max of the points; sizes as asked, payloads "
                "rounded down to whole %s):\n",
            follow ? "particles" : "blocks");
    fprintf(fp, "    %-16s", "blocks");
    for (size_t c = 0; c < ncol; c++)
        fprintf(fp, "  %*s", width[c], head[c]);
    fputc('\n', fp);
    for (int k = 0; k < GAIN_BANDS; k++) {
        if (bmin[k] < 0)
            continue;
        char label[48];
        if (follow)
            snprintf(label, sizeof label, "all (%d..%d)", bmin[k], bmax[k]);
        else if (bmin[k] == bmax[k])
            snprintf(label, sizeof label, "%d", bmin[k]);
        else
            snprintf(label, sizeof label, "%d..%d", bmin[k], bmax[k]);
        fprintf(fp, "    %-16s", label);
        for (size_t c = 0; c < ncol; c++)
            fprintf(fp, "  %*s", width[c], cell[k][c]);
        fputc('\n', fp);
    }
    free(cls);
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
        cf_row_extra_copy(r->extra, c, layout, sizeof layout);
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

/* One line per reason a pattern has no across-np model, naming every pattern it holds
 * for (a laptop's table has one np: every collective), and what predict does instead. */
static void across_notes(const json_t *across, const json_t *p2p)
{
    size_t n = json_array_size(across);
    unsigned char *done = calloc(n + 1, 1);
    if (done == NULL)
        return;
    const char *p2p_err = json_string_value(json_object_get(p2p, "error"));
    for (size_t i = 0; i < n; i++) {
        const char *why = json_string_value(json_object_get(json_array_get(across, i), "error"));
        if (done[i] || why == NULL)
            continue;
        size_t cap = 256, len = 0;
        char *list = malloc(cap);
        for (size_t j = i; j < n && list != NULL; j++) {
            json_t *a = json_array_get(across, j);
            const char *w = json_string_value(json_object_get(a, "error"));
            if (done[j] || w == NULL || strcmp(w, why) != 0)
                continue;
            done[j] = 1;
            const char *p = json_string_value(json_object_get(a, "pattern"));
            const char *dt = json_string_value(json_object_get(a, "datatype"));
            char item[CF_PATTERN_MAX + CF_DATATYPE_MAX + 8];
            if (dt == NULL || strcmp(dt, "byte") == 0 || strcmp(dt, "float") == 0)
                snprintf(item, sizeof item, "%s", p ? p : "?");
            else
                snprintf(item, sizeof item, "%s (%s)", p ? p : "?", dt);
            if (len + strlen(item) + 3 > cap) {
                char *nl = realloc(list, cap = 2 * cap + strlen(item));
                if (nl == NULL) {
                    free(list);
                    list = NULL;
                    break;
                }
                list = nl;
            }
            len += (size_t)snprintf(list + len, cap - len, "%s%s", len ? ", " : "", item);
        }
        if (list == NULL)
            break;
        if (p2p_err == NULL)
            cf_msg("%s: fitted per np only, %s; predict answers other np with the "
                   "point-to-point estimate",
                   list, why);
        else
            cf_msg("%s: fitted per np only, %s; predict has no answer at other np (no "
                   "point-to-point estimate: %s)",
                   list, why, p2p_err);
        free(list);
    }
    free(done);
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

    if (o.ninputs == 0) {
        if (cf_newest_file("data", ".csv", &newest, &e) != 0) {
            rc = cf_error_report(&e);
            cf_msg("give a table with -i, or run 'commfit measure' or 'commfit import' first");
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
            if (o.npatterns > 0) {
                if (defer(&deferred, &deferred_pat, &ndeferred, &fe, named) != 0) {
                    rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
                    goto report;
                }
            } else {
                cf_warn("skipped: %s", fe.msg);
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
                cf_msg("no model file written: try another --model");
                goto out;
            }
            if (o.npatterns > 0) {
                if (defer(&deferred, &deferred_pat, &ndeferred, &fe, named) != 0) {
                    rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
                    goto report;
                }
            } else {
                cf_warn("skipped: %s", fe.msg);
            }
            failed++;
            continue;
        }
        named_fits[named]++;
        if (isfinite(f.q.loo_mape) && f.q.loo_mape > POOR_LOO)
            cf_fit_warn(&f,
                        "poor fit: its leave-one-out error, %.*g%%, is above %.0f%%; its "
                        "predictions are rough",
                        cf_sig_prec(100 * f.q.loo_mape, 2), 100 * f.q.loo_mape,
                        100 * POOR_LOO);
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
        const cf_error *why = NULL;
        for (size_t k = 0; k < ndeferred; k++) {
            if (deferred_pat[k] == none && why == NULL)
                why = &deferred[k];
            else
                cf_warn("skipped: %s", deferred[k].msg);
        }
        if (why != NULL) {
            rc = cf_error_report(why);
            goto out;
        }
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
        across_notes(ms->across_np, ms->p2p);
    }
    if ((rc = cf_modelset_write(output, ms, &e)) != 0)
        goto report;
    int to_stdout = strcmp(output, "-") == 0;
    if (to_stdout)
        cf_msg("wrote the model file to standard output (%zu fit%s)", ms->nfits,
               ms->nfits == 1 ? "" : "s");
    else
        cf_msg("wrote %s (%zu fit%s)", output, ms->nfits, ms->nfits == 1 ? "" : "s");
    /* With -o -, standard output holds the model file and nothing else. */
    for (size_t i = 0; i < ms->nfits && !to_stdout; i++) {
        const cf_fit *f = &ms->fits[i];
        if (o.formulas != NULL) {
            char buf[4096];
            cf_fit_formula(f, o.formulas, buf, sizeof buf);
            printf("%s\n", buf);
        } else {
            summary_line(stdout, f);
            gain_table(stdout, f);
        }
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "cannot write to standard output");
    else if (!to_stdout)
        cf_report_hint("-m", output);
report:
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
