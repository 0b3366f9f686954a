/* commfit predict: the time of a pattern at process counts and sizes with a 95% prediction
 * interval, from the fit at that np, else the across-np model, else the point-to-point
 * estimate; each answer says which, and how far it extrapolates. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fit/across.h"
#include "modelfile/answer.h"
#include "base/cli.h"
#include "commands.h"
#include "cmd/model-file.h"
#include "cmd/out-predict.h"
#include "cmd/predict-fit.h"
#include "cmd/predict-p2p.h"
#include "base/error.h"
#include "fit/model.h"
#include "modelfile/modelfile.h"
#include "base/outfile.h"
#include "base/size.h"
#include "base/table.h"

static const char usage[] =
    "Usage: commfit predict [OPTIONS] --pattern P --np N --bytes SIZES\n"
    "       commfit predict --formula [--lang LANG] --pattern P --np N\n"
    "\n"
    "Predicts the time of a pattern from a fitted model file, with a 95% prediction\n"
    "interval. The sources, in order: the fit at that np; the across-np model; the\n"
    "estimate from point-to-point parameters and the algorithm's cost. Each answer\n"
    "names its source and marks extrapolation in np and in bytes.\n"
    "\n";

#include "cmd/predict-int.h"

/* ---- Numbers for people and for scripts ---- */

/* A table of the model measured on a loaded machine (a rank that ran on its processor less
 * than CF_CPU_SHARE_LOW of its timed calls' time, rank_cpu_share), which fit warned of and
 * predict said nothing of (a new user's answers from a table of 23%: 504 us where 85 idle). */
static void warn_starved(const cf_modelset *ms, const char *path)
{
    const json_t *tables = ms->source ? json_object_get(ms->source, "tables") : NULL;
    size_t i;
    const json_t *t;
    json_array_foreach(tables, i, t)
    {
        const json_t *v = json_object_get(json_object_get(t, "metadata"), "rank_cpu_share");
        const char *file = json_string_value(json_object_get(t, "file"));
        double share;
        int rank;
        if (cf_cpu_share_min(json_string_value(v), &share, &rank) == 0 &&
            share < CF_CPU_SHARE_LOW)
            cf_warn("%s: its table %s: rank %d ran on a processor %.0f%% of its timed calls' "
                    "time (rank_cpu_share): the times it fitted, and the answers, include "
                    "waiting for other work; measure again on an idle machine",
                    path, file != NULL ? file : "?", rank, 100 * share);
    }
}

/* The note on p against the measured process counts np[0..n) (increasing): 1 when p is
 * none of them (the note says how far), 0 when it is one or there are none (no note). */
static int np_note(const long *np, size_t n, long p, char *buf, size_t len)
{
    char r[32];
    buf[0] = '\0';
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (np[i] == p)
            return 0;
    if (p > np[n - 1]) {
        cf_predict_ratio_text(r, sizeof r, (double)p / (double)np[n - 1]);
        snprintf(buf, len, "np=%ld is %sx the largest measured, %ld", p, r, np[n - 1]);
    } else if (p < np[0]) {
        snprintf(buf, len, "np=%ld is below the smallest measured, %ld", p, np[0]);
    } else {
        size_t i = 1;
        while (i < n && np[i] < p)
            i++;
        snprintf(buf, len, "np=%ld not measured: between %ld and %ld", p, np[i - 1], np[i]);
    }
    return 1;
}

/* ---- Patterns ---- */

/* Ping-pong, ping-ping and the LogGP experiments are defined on two processes: IMB and
 * OSU run them on one pair whatever the launch size. */
static int two_only(const char *pattern)
{
    const cf_coll *c = cf_coll_find(pattern);
    return (c != NULL && c->two_only) || strncmp(pattern, "loggp_", 6) == 0;
}

/* The refusal of np != 2 for a two-process pattern, unless the file has a fit there. */
int cf_predict_check_two(const ctx *c, long np, const char *file, long line, cf_error *e)
{
    if (np == 2 || !c->two_only ||
        cf_modelset_find(c->ms, c->pattern, (int)np, c->datatype) != NULL)
        return 0;
    return cf_error_set(e, file ? CF_EXIT_DATA : CF_EXIT_USAGE, file, line,
                        "np=%ld: %s is defined on 2 processes only; ask for np 2 (sendrecv and "
                        "exchange run on any np)",
                        np, c->pattern);
}

/* A pattern whose cost has no size term in any algorithm (barrier) moves no data: its
 * --bytes may be left out. */
static int coll_sizeless(const cf_coll *c)
{
    if (c == NULL)
        return 0;
    for (int i = 0; i < c->nalgs; i++)
        if (c->algs[i].beta[0].k != 0 || c->algs[i].gamma[0].k != 0)
            return 0;
    return 1;
}


/* ---- Choosing the source ---- */

/* Whether the pattern carries no data (barrier): every algorithm cost without a size
 * term. A fit measured at 0 bytes only says nothing of larger sizes unless the pattern
 * is one of those: a ping-pong measured at 0 bytes extrapolates to any other size. */
static int no_payload(const ctx *c, const source *s)
{
    if (s->kind == SRC_FIT && !(s->fit->max_bytes == 0 && strcmp(s->fit->model, "constant") == 0))
        return 0;
    return coll_sizeless(c->coll);
}

static int resolve_source(ctx *c, long np, source *s, char *note, cf_error *e);

/* The source at np into s, its note (NOTE_MAX bytes) into note. */
static int resolve(ctx *c, long np, source *s, char *note, cf_error *e)
{
    int rc = resolve_source(c, np, s, note, e);
    if (rc == 0 && no_payload(c, s)) {
        /* --bytes is ignored, and said so, rather than refused: a range of sizes over
         * every pattern still answers. */
        cf_note_joinf(note, NOTE_MAX, "%s carries no data: its time is the same at any --bytes",
                      c->pattern);
        s->bytes_min = 0;
        s->bytes_max = INFINITY;
    }
    return rc;
}

/* The np's note on the formula carried through the fitted np's own answers, where the
 * formula answers (the grid nowhere) and --model-alone does not hold it back: through
 * which fitted np (the two around np, or the one that has a fit). Empty elsewhere. */
static void anchor_np_note(const ctx *c, const cf_across *a, long np, char *buf, size_t n)
{
    buf[0] = '\0';
    if (c->model_alone || a->nnp == 0 || !cf_across_formula_only(a))
        return;
    int i0, i1;
    cf_across_anchor_np(a, np, &i0, &i1);
    int f0 = a->np[i0] <= INT_MAX &&
             cf_modelset_find(c->ms, c->pattern, (int)a->np[i0], c->datatype) != NULL,
        f1 = a->np[i1] <= INT_MAX &&
             cf_modelset_find(c->ms, c->pattern, (int)a->np[i1], c->datatype) != NULL;
    if (i0 != i1 && f0 && f1)
        snprintf(buf, n,
                 "between the fitted np=%ld and np=%ld: the across-np formula times their own "
                 "answers over the formula's, read log-log in np, size by size, the interval "
                 "holding theirs and the formula's own reading (--model-alone: the formula "
                 "alone)",
                 a->np[i0], a->np[i1]);
    else if ((f0 || f1) && np > a->np[a->nnp - 1] &&
             cf_answer_grows_by_estimate(c->as, c->coll, c->datatype))
        snprintf(buf, n,
                 "the fitted np=%ld's own answers, size by size, carried by the estimate from "
                 "np=2's growth from there (the library's rules and the ranks' mean), the "
                 "interval holding the across-np formula's reading too (--model-alone: the "
                 "formula alone)",
                 a->np[f0 ? i0 : i1]);
    else if (f0 || f1)
        snprintf(buf, n,
                 "the across-np formula through the fitted np=%ld's own answers, size by size: "
                 "the formula's growth from there, the interval holding the formula's own "
                 "reading too (--model-alone: the formula alone)",
                 a->np[f0 ? i0 : i1]);
}

static int resolve_source(ctx *c, long np, source *s, char *note, cf_error *e)
{
    memset(s, 0, sizeof *s);
    note[0] = '\0';
    s->np = np;
    cf_answer_source src;
    char why[NOTE_MAX];
    if (cf_answer_choose(c->ms, c->as, c->pattern, c->datatype, np, &src, why, sizeof why) != 0)
        return cf_error_set(e, CF_EXIT_DATA, c->path, 0, "no model for %s (%s) at np=%ld: %s",
                            c->pattern, c->datatype, np, why);
    s->kind = (int)src.kind;
    s->fit = src.fit;
    s->bytes_min = src.bytes_min;
    s->bytes_max = src.bytes_max;
    char part[NOTE_MAX]; /* the placement note alone runs past 300 with a long host name */
    if (src.kind == CF_ANSWER_FIT) {
        snprintf(s->model, sizeof s->model, "%s", src.fit->model);
        return 0;
    }
    cf_unmeasured *u = &s->unmeasured;
    if (src.kind == CF_ANSWER_ACROSS) {
        /* First, as for the estimate from np=2: what the fitted np never measured. */
        cf_placement_beyond_fitted(&c->place, src.across->np[src.across->nnp - 1], np,
                                   u, part, sizeof part);
        cf_note_join(note, NOTE_MAX, part);
        /* An np inside the fitted list is no extrapolation in np, unless it reaches nodes
         * or a tier no fitted np did. */
        s->np_extra = np_note(src.across->np, (size_t)src.across->nnp, np, part, sizeof part) ||
                      u->nodes || u->tier || u->shared;
        cf_note_join(note, NOTE_MAX, part);
        anchor_np_note(c, src.across, np, part, sizeof part);
        cf_note_join(note, NOTE_MAX, part);
        return 0;
    }
    cf_predict_p2p_note(c->as, c->coll, c->datatype, np, &c->place, u, note, NOTE_MAX);
    s->np_extra = 1; /* np=2's ping-pong carried to another pattern, at any np */
    if (src.across != NULL)
        cf_note_join(note, NOTE_MAX, src.across->error);
    np_note(c->measured, c->nmeasured, np, part, sizeof part);
    cf_note_join(note, NOTE_MAX, part);
    return 0;
}

static void cache_clear(ctx *c)
{
    for (size_t i = 0; i < c->nslots; i++)
        if (c->slots[i] != NULL) {
            if (c->slots[i]->near != NULL)
                cf_near_clear(c->slots[i]->near);
            free(c->slots[i]->near);
            cf_out_predict_note_free(&c->slots[i]->note);
            free(c->slots[i]);
        }
    free(c->slots);
    c->slots = NULL;
    c->nslots = c->nused = 0;
}

static size_t slot_of(source *const *slots, size_t nslots, long np)
{
    size_t i = (size_t)((uint64_t)np * 0x9E3779B97F4A7C15u >> 20) & (nslots - 1);
    while (slots[i] != NULL && slots[i]->np != np)
        i = (i + 1) & (nslots - 1);
    return i;
}

/* The source at np, resolved once per np: a batch of a million points asks for few. */
source *cf_predict_source_at(ctx *c, long np, cf_error *e)
{
    if (c->nslots > 0) {
        source *s = c->slots[slot_of(c->slots, c->nslots, np)];
        if (s != NULL)
            return s;
    }
    if (c->nused >= CACHE_MAX)
        cache_clear(c);
    if (2 * (c->nused + 1) > c->nslots) {
        size_t n = c->nslots ? 2 * c->nslots : 64;
        source **t = calloc(n, sizeof *t);
        if (t == NULL) {
            cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
            return NULL;
        }
        for (size_t i = 0; i < c->nslots; i++)
            if (c->slots[i] != NULL)
                t[slot_of(t, n, c->slots[i]->np)] = c->slots[i];
        free(c->slots);
        c->slots = t;
        c->nslots = n;
    }
    source *s = calloc(1, sizeof *s);
    if (s == NULL) {
        cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        return NULL;
    }
    char note[NOTE_MAX];
    if (resolve(c, np, s, note, e) != 0) {
        free(s);
        return NULL;
    }
    if (cf_out_predict_note_set(&s->note, note) != 0) {
        free(s);
        cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        return NULL;
    }
    c->slots[slot_of(c->slots, c->nslots, np)] = s;
    c->nused++;
    return s;
}

/* ---- What the file has, for messages ---- */

static int has_pattern(const ctx *c, const char *pattern, const char *datatype)
{
    for (size_t i = 0; i < c->ms->nfits; i++)
        if (strcmp(c->ms->fits[i].pattern, pattern) == 0 &&
            (datatype == NULL || strcmp(c->ms->fits[i].datatype, datatype) == 0))
            return 1;
    for (size_t i = 0; i < c->as->n; i++)
        if (strcmp(c->as->a[i].pattern, pattern) == 0 &&
            (datatype == NULL || strcmp(c->as->a[i].datatype, datatype) == 0))
            return 1;
    return 0;
}

/* "a, b, c": the distinct patterns (or, given one, its datatypes) in the file. */
static void list_what(const ctx *c, const char *pattern, char *buf, size_t n)
{
    size_t l = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < c->ms->nfits && l < n; i++) {
        const cf_fit *f = &c->ms->fits[i];
        if (pattern && strcmp(f->pattern, pattern) != 0)
            continue;
        const char *item = pattern ? f->datatype : f->pattern;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) {
            const cf_fit *g = &c->ms->fits[j];
            seen = pattern ? strcmp(g->pattern, pattern) == 0 && strcmp(g->datatype, item) == 0
                           : strcmp(g->pattern, item) == 0;
        }
        if (!seen)
            l += (size_t)snprintf(buf + l, n - l, "%s%s", l ? ", " : "", item);
    }
    if (buf[0] == '\0')
        snprintf(buf, n, "nothing");
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Checks pattern and datatype against the file and gathers what predict needs. */
static int prepare(ctx *c, const char *datatype, cf_error *e)
{
    c->coll = cf_coll_find(c->pattern);
    c->two_only = two_only(c->pattern);
    int p2p_ok = c->as->have_p2p && c->as->pp.error[0] == '\0';
    if (!has_pattern(c, c->pattern, NULL) && !(c->coll != NULL && p2p_ok)) {
        char list[1024], est[512] = "";
        list_what(c, NULL, list, sizeof list);
        /* The point-to-point estimate answers for every collective with a known cost too:
         * a list of the fitted ones alone hid them. */
        for (int i = 0; p2p_ok && i < cf_ncolls; i++) {
            const cf_coll *k = &cf_colls[i];
            size_t l = strlen(est);
            if (k->nalgs > 0 && !k->two_only && !has_pattern(c, k->pattern, NULL))
                snprintf(est + l, sizeof est - l, "%s%s", l ? ", " : "", k->pattern);
        }
        return cf_error_set(e, CF_EXIT_DATA, c->path, 0,
                            "pattern '%s' is not in the model "
                            "file; it has: %s%s%s",
                            c->pattern, list,
                            est[0] ? "; the point-to-point estimate answers for " : "", est);
    }
    if (datatype != NULL) {
        snprintf(c->datatype, sizeof c->datatype, "%s", datatype);
    } else if (c->coll != NULL && (has_pattern(c, c->pattern, c->coll->datatype) ||
                                   !has_pattern(c, c->pattern, NULL))) {
        snprintf(c->datatype, sizeof c->datatype, "%s", c->coll->datatype);
    } else {
        /* The file's only datatype for the pattern (imported results may name theirs); with
         * several and none the default, which one is the user's to say (a datatype sweep's
         * ping-pong has contiguous, vector, ...: the first in the file answered unasked). */
        char list[1024];
        list_what(c, c->pattern, list, sizeof list);
        if (strchr(list, ',') != NULL)
            return cf_error_set(e, CF_EXIT_DATA, c->path, 0,
                                "%s has no %s fit in the model file but several datatypes: "
                                "%s; name one with -d",
                                c->pattern, c->coll != NULL ? c->coll->datatype : "default",
                                list);
        for (size_t i = 0; i < c->ms->nfits; i++)
            if (strcmp(c->ms->fits[i].pattern, c->pattern) == 0) {
                snprintf(c->datatype, sizeof c->datatype, "%s", c->ms->fits[i].datatype);
                break;
            }
    }
    int p2p_here = c->coll != NULL && p2p_ok && strcmp(c->datatype, c->coll->datatype) == 0;
    if (!has_pattern(c, c->pattern, c->datatype) && !p2p_here) {
        char list[1024];
        list_what(c, c->pattern, list, sizeof list);
        return cf_error_set(e, CF_EXIT_DATA, c->path, 0,
                            "datatype '%s' of %s is not in the model file; it has: %s", c->datatype,
                            c->pattern, list);
    }
    /* The fits read by their key (cf_modelset_read_keys) read whole where they answer. */
    if (cf_modelset_read_fits(c->ms, c->pattern, c->datatype, e) != 0)
        return CF_EXIT_DATA;
    /* At 1 block a layout's answer may be the contiguous fit's (cf_fit_one_block_contiguous). */
    if (c->blocks == 1 && strcmp(c->datatype, "contiguous") != 0 &&
        cf_modelset_read_fits(c->ms, c->pattern, "contiguous", e) != 0)
        return CF_EXIT_DATA;
    c->across = cf_across_set_find(c->as, c->pattern, c->datatype);
    c->sizeless = coll_sizeless(c->coll);
    /* What was measured: the fits, and the process counts the point-to-point estimate
     * took its contention factors from (a pattern fit wrote no fit of, as barrier before
     * the constant model). */
    size_t ncont = c->as->have_p2p ? c->as->pp.ncont : 0;
    c->measured = malloc((c->ms->nfits + ncont + 1) * sizeof *c->measured);
    if (c->measured == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    for (size_t i = 0; i < c->ms->nfits; i++) {
        const cf_fit *f = &c->ms->fits[i];
        if (strcmp(f->pattern, c->pattern) == 0 && strcmp(f->datatype, c->datatype) == 0)
            c->measured[c->nmeasured++] = f->np;
        if (strcmp(f->pattern, c->pattern) == 0 && strcmp(f->model, "constant") == 0)
            c->sizeless = 1;
    }
    for (size_t i = 0; i < ncont; i++) {
        const cf_contention *k = &c->as->pp.cont[i];
        if (strcmp(k->pattern, c->pattern) == 0 && strcmp(k->datatype, c->datatype) == 0)
            c->measured[c->nmeasured++] = k->np;
    }
    qsort(c->measured, c->nmeasured, sizeof *c->measured, cmp_long);
    size_t k = 0;
    for (size_t i = 0; i < c->nmeasured; i++)
        if (k == 0 || c->measured[i] != c->measured[k - 1])
            c->measured[k++] = c->measured[i];
    c->nmeasured = k;
    return 0;
}

/* ---- Options ---- */

typedef struct opts {
    const char *model, *pattern, *np, *bytes, *datatype, *points, *lang;
    long blocks;
    int format; /* -1: by the terminal */
    int formula;
    int model_alone;
} opts;

static int opt_blocks(const cf_option *opt, const char *arg, cf_error *e)
{
    return cf_int_parse(arg, "--blocks", 1, 1L << 30, &((opts *)opt->value)->blocks, e);
}

static int opt_format(const cf_option *opt, const char *arg, cf_error *e)
{
    opts *o = opt->value;
    if (strcmp(arg, "table") == 0)
        o->format = FMT_TABLE;
    else if (strcmp(arg, "csv") == 0)
        o->format = FMT_CSV;
    else if (strcmp(arg, "json") == 0)
        o->format = FMT_JSON;
    else
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "--format '%s': expected table, csv or json",
                            arg);
    return 0;
}

/* The combinations the table cannot say: which options go together. */
static int check_combination(const opts *o)
{
    if (o->pattern == NULL)
        return cf_usage_error("--pattern is required");
    if (o->pattern[0] == '\0') /* given, but empty: said as such */
        return cf_usage_error("--pattern '': an empty pattern name");
    if (o->formula) {
        if (o->np == NULL)
            return cf_usage_error("--formula needs --np");
        if (o->bytes || o->points)
            return cf_usage_error("--formula takes no --bytes or --points");
        if (o->format >= 0)
            return cf_usage_error("--formula prints the formula alone; drop --format");
        return 0;
    }
    if (o->lang)
        return cf_usage_error("--lang goes with --formula");
    if (o->points) {
        if (o->np || o->bytes)
            return cf_usage_error("--points replaces --np and --bytes");
        return 0;
    }
    if (o->np == NULL)
        return cf_usage_error("--np is required");
    if (o->bytes == NULL && !coll_sizeless(cf_coll_find(o->pattern)))
        return cf_usage_error("--bytes is required");
    return 0;
}

static int parse(int argc, char **argv, opts *o, int *done)
{
    memset(o, 0, sizeof *o);
    o->blocks = -1;
    o->format = -1;
    *done = 0;
    const cf_option options[] = {
        CF_OPT_STRING('m', "model", "FILE", &o->model,
                      "model file (default: the newest models/*.json)"),
        CF_OPT_STRING('p', "pattern", "P", &o->pattern,
                      "the pattern: alltoall, bcast, pingpong, ..."),
        CF_OPT_STRING('n', "np", "LIST", &o->np, "process counts: 16 or 2,4,16"),
        CF_OPT_STRING('b', "bytes", "SIZES", &o->bytes,
                      "sizes: 1M, a list 1K,64K,1M, or a range 0:4M (0, then powers of two); "
                      "barrier moves no data: 0 by default"),
        CF_OPT_STRING('d', "datatype", "D", &o->datatype,
                      "datatype (default: float for reductions, byte otherwise)"),
        CF_OPT_CALL(0, "blocks", "N", o, opt_blocks,
                    "blocks of a derived datatype (default: the fit's smallest)"),
        CF_OPT_STRING(0, "points", "FILE", &o->points,
                      "'NP BYTES' lines from FILE ('-': standard input), in place of --np and "
                      "--bytes"),
        CF_OPT_CALL('f', "format", "F", o, opt_format,
                    "table, csv or json (default: table on a terminal, else csv)"),
        CF_OPT_BOOL(0, "formula", &o->formula, "print the formula at --np alone"),
        CF_OPT_BOOL(0, "model-alone", &o->model_alone,
                    "between measured sizes, the fit's model alone, not corrected by the "
                    "measured neighbours; at an np no fit has, the across-np model alone, "
                    "not carried through the fitted np's own answers (its grid of measured "
                    "times still answers where it has the size: --formula says how near)"),
        CF_OPT_STRING(0, "lang", "LANG", &o->lang,
                      "the formula's language: text (default), c, python, latex, gnuplot"),
        CF_OPT_QUIET(NULL, "no messages on stderr but errors (the answers still print)"),
        CF_OPT_HELP(),
        CF_OPT_END(),
    };
    cf_error e;
    cf_error_clear(&e);
    int first;
    int rc = cf_options_parse(options, usage, CF_PARSE_NO_OPERANDS, argc, argv, &first, &e);
    if (rc == CF_PARSE_HELP) {
        *done = 1;
        return 0;
    }
    if (rc != 0)
        return cf_usage_error("%s", e.msg);
    return check_combination(o);
}

static int lang_known(const char *lang)
{
    static const char *const langs[] = {"text", "c", "python", "latex", "gnuplot"};
    for (size_t i = 0; i < sizeof langs / sizeof langs[0]; i++)
        if (strcmp(lang, langs[i]) == 0)
            return 1;
    return 0;
}

/* The source at every np of the list, resolved before any output; whether the table
 * shows datatype and blocks; --blocks refused where no fit has them. */
static int resolve_all(ctx *c, const long *nps, size_t nnp, cf_error *e)
{
    for (size_t i = 0; i < nnp; i++) {
        const source *src = cf_predict_source_at(c, nps[i], e);
        if (src == NULL)
            return e->code ? e->code : CF_EXIT_DATA;
        int has_blocks = src->kind == SRC_FIT && src->fit->max_blocks > 0;
        c->out.show_datatype |= has_blocks;
        if (c->blocks >= 0 && !has_blocks)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "--blocks %d: %s (%s) at np=%ld has no block count; --blocks "
                                "goes with a derived datatype (-d vector, ...)",
                                c->blocks, c->pattern, c->datatype, nps[i]);
        /* A fit without a block term (struct's blocks are its particles, which follow the
         * size; contiguous is one block) answers the same at every count: a count other
         * than the one it measured would be ignored without a word. */
        const cf_fit *f = src->kind == SRC_FIT ? src->fit : NULL;
        if (c->blocks >= 0 && f != NULL && f->blocks == 0 && has_blocks &&
            !(f->min_blocks == f->max_blocks && c->blocks == f->max_blocks)) {
            char counts[48];
            if (f->min_blocks == f->max_blocks)
                snprintf(counts, sizeof counts, "%d", f->min_blocks);
            else
                snprintf(counts, sizeof counts, "%d to %d", f->min_blocks, f->max_blocks);
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "--blocks %d: the %s (%s) fit at np=%ld has no block term (its "
                                "block count follows its size, or is the same everywhere: %s "
                                "measured), so its answers do not depend on it; drop --blocks",
                                c->blocks, c->pattern, c->datatype, nps[i], counts);
        }
    }
    return 0;
}

/* Every answer asked for, in the output format: each np and size, or the --points file. */
static int answer_all(ctx *c, const opts *o, const long *nps, size_t nnp, const uint64_t *sizes,
                      size_t nsizes, cf_error *e)
{
    int rc = 0;
    c->out.format = o->format >= 0 ? o->format : isatty(STDOUT_FILENO) ? FMT_TABLE : FMT_CSV;
    /* A big buffer: a million answers are hundreds of megabytes of text. Its own memory:
     * glibc's setvbuf ignores the size where it is given none, and wrote 4 KiB at a time
     * (a file's block), 121086 writes for a million answers. 256 KiB: bench/predict.sh's
     * batch into a new file, 4 rounds each, took 1.32 s with 4 KiB writes, 0.91 with 256
     * KiB and 2.14 with 1 MiB (system time 0.45, 0.11, 1.11 s). */
    static char outbuf[1 << 18];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    c->out.show_datatype = o->datatype != NULL;
    /* Resolve every np first, so that an np without a model fails before any output. */
    if (!o->points && (rc = resolve_all(c, nps, nnp, e)) != 0)
        return rc;
    cf_predict_points P = {0};
    if (o->points && (rc = cf_predict_points_read(c, o->points, &P, e)) != 0) {
        cf_predict_points_free(&P);
        return rc;
    }
    /* Every np asked for has a source before the first answer is printed, as resolve_all
     * makes sure for --np (each resolved once: the sources are cached by np). */
    for (size_t i = 0; i < P.n; i++)
        if (cf_predict_source_at(c, P.np[i], e) == NULL) {
            cf_predict_points_free(&P);
            return e->code ? e->code : CF_EXIT_DATA;
        }
    c->out.model_path = c->path;
    c->out.pattern = c->pattern;
    c->out.datatype = c->datatype;
    cf_out_predict_begin(&c->out);
    if (o->points) {
        for (size_t i = 0; i < P.n && rc == 0; i++)
            rc = cf_predict_emit(c, P.np[i], P.bytes[i], e);
        cf_predict_points_free(&P);
    } else {
        for (size_t i = 0; i < nnp && rc == 0; i++)
            for (size_t j = 0; j < nsizes && rc == 0; j++)
                rc = cf_predict_emit(c, nps[i], sizes[j], e);
    }
    cf_out_predict_end(&c->out);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot write the output: %s", strerror(errno));
    if (rc == 0 && c->refused > 0)
        rc = cf_error_set(e, CF_EXIT_DATA, c->path, 0,
                          "%s; %zu answer%s refused, marked in the "
                          "output",
                          c->first_refusal, c->refused, c->refused == 1 ? "" : "s");
    return rc;
}

int cmd_predict(int argc, char **argv)
{
    opts o;
    int done, rc = parse(argc, argv, &o, &done);
    if (rc != 0 || done)
        return rc;
    cf_error e;
    cf_error_clear(&e);
    long *nps = NULL;
    uint64_t *sizes = NULL;
    size_t nnp = 0, nsizes = 0;
    char *path = NULL;
    ctx c;
    memset(&c, 0, sizeof c);
    c.blocks = (int)o.blocks;
    c.model_alone = o.model_alone;
    c.pattern = o.pattern;
    c.out.fp = stdout;
    /* One pattern a call: a list read as a pattern the file lacks (a new user). */
    if (o.pattern != NULL && strchr(o.pattern, ',') != NULL) {
        rc = cf_usage_error("--pattern '%s': one pattern a call (run predict once for each)",
                            o.pattern);
        goto done;
    }

    if (cf_int_list_parse(o.np ? o.np : "2", "--np", 2, CF_TABLE_NP_MAX, &nps, &nnp, &e) != 0) {
        rc = cf_usage_error("%s", e.msg);
        goto done;
    }
    if (o.bytes && cf_size_list_parse(o.bytes, &sizes, &nsizes, &e) != 0) {
        rc = cf_usage_error("--bytes: %s", e.msg); /* the option, as --np's say it */
        goto done;
    }
    if (o.formula && nnp != 1) {
        rc = cf_usage_error("--formula takes one --np, not '%s'", o.np);
        goto done;
    }
    if (o.lang == NULL)
        o.lang = "text";
    if (!lang_known(o.lang)) {
        rc = cf_usage_error("--lang '%s': expected text, c, python, latex or gnuplot", o.lang);
        goto done;
    }

    if ((rc = cf_cmd_model_file(o.model, CF_MODEL_REQUIRED, &path, &e)) != 0)
        goto report;
    c.path = path;
    if ((rc = cf_modelset_read_keys(path, &c.ms, &e)) != 0)
        goto report;
    c.as = &c.ms->across;
    if (cf_placement_read(c.ms, &c.place) != 0) {
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto report;
    }
    cf_placement_model_at at = {c.ms, path};
    cf_placement_warn(&c.place.warn, "predict", cf_placement_where_model, &at);
    warn_starved(c.ms, path);
    if ((rc = prepare(&c, o.datatype, &e)) != 0)
        goto report;
    if (c.sizeless && o.bytes == NULL && !o.points && !o.formula) {
        /* --bytes left out for a pattern that moves no data: the one size there is. */
        sizes = calloc(1, sizeof *sizes);
        if (sizes == NULL) {
            rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
            goto report;
        }
        nsizes = 1;
    }
    for (size_t i = 0; !o.points && i < nnp; i++)
        if ((rc = cf_predict_check_two(&c, nps[i], NULL, 0, &e)) != 0)
            goto report;

    if (o.formula) {
        rc = cf_predict_formula(&c, nps[0], o.lang, &e);
        goto report;
    }
    rc = answer_all(&c, &o, nps, nnp, sizes, nsizes, &e);
report:
    if (rc != 0)
        rc = e.code == CF_EXIT_USAGE ? cf_usage_error("%s", e.msg) : cf_error_report(&e);
done:
    free(nps);
    free(sizes);
    free(path);
    free(c.measured);
    cache_clear(&c);
    cf_predict_anchor_clear(&c);
    cf_placement_free(&c.place);
    cf_modelset_free(c.ms);
    return rc;
}
