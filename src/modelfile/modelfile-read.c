/* The model file's reader: the JSON parsed and every field checked once, naming the file
 * and the field ("fits[3].segments[0].coef"), into the C structs of fit/fit.h. */
#include "config.h"

#include "modelfile/modelfile.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/outfile.h"
#include "base/size.h"
#include "fit/fitting.h"
#include "fit/model.h"
#include "modelfile/across-json.h"
#include "modelfile/json-skim.h"

typedef struct rd {
    const char *name;
    cf_error *e;
    int keys_only;  /* fits and across-np models read by their key (cf_modelset_read_keys) */
    char path[256]; /* the field being read: "fits[3].segments[0].coef" */
} rd;

static int bad(rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(rd *r, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cf_error_set(r->e, CF_EXIT_DATA, r->name, 0, "%s: %s", r->path, msg);
}

static void at(rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void at(rd *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->path, sizeof r->path, fmt, ap);
    va_end(ap);
}

static json_t *field(rd *r, json_t *o, const char *base, const char *key, int type, int optional)
{
    json_t *v = json_object_get(o, key);
    at(r, "%s%s%s", base, *base ? "." : "", key);
    if (v == NULL) {
        if (!optional)
            bad(r, "missing field");
        return NULL;
    }
    int ok = type == JSON_REAL ? json_is_number(v) || json_is_null(v) : (int)json_typeof(v) == type;
    if (!ok) {
        static const char *names[] = {"an object", "an array", "a string", "an integer",
                                      "a number",  "true",     "false",    "null"};
        bad(r, "expected %s", names[type]);
        return NULL;
    }
    return v;
}

/* A number or null (NAN). */
static int get_num(rd *r, json_t *o, const char *base, const char *key, int optional, double *v)
{
    json_t *j = field(r, o, base, key, JSON_REAL, optional);
    if (j == NULL) {
        *v = NAN;
        return optional && r->e->code == 0 ? 0 : -1;
    }
    *v = json_is_null(j) ? NAN : json_number_value(j);
    return 0;
}

/* A number >= 0, or null (NAN) for a value that does not exist. */
static int get_nonneg(rd *r, json_t *o, const char *base, const char *key, int optional, double *v)
{
    if (get_num(r, o, base, key, optional, v))
        return -1;
    if (*v < 0)
        return bad(r, "%.6g: expected a number >= 0 or null", *v), -1;
    return 0;
}

/* A number that must exist: not null. */
static int get_finite(rd *r, json_t *o, const char *base, const char *key, double *v)
{
    if (get_num(r, o, base, key, 0, v))
        return -1;
    if (!isfinite(*v))
        return bad(r, "expected a finite number"), -1;
    return 0;
}

static int get_int(rd *r, json_t *o, const char *base, const char *key, long long min,
                   long long max, long long *v)
{
    json_t *j = field(r, o, base, key, JSON_INTEGER, 0);
    if (j == NULL)
        return -1;
    *v = json_integer_value(j);
    if (*v < min || *v > max)
        return bad(r, "%lld out of range: expected %lld to %lld", *v, min, max), -1;
    return 0;
}

static int get_str(rd *r, json_t *o, const char *base, const char *key, char *dst, size_t cap)
{
    json_t *j = field(r, o, base, key, JSON_STRING, 0);
    if (j == NULL)
        return -1;
    const char *s = json_string_value(j);
    if (strlen(s) >= cap || *s == '\0')
        return bad(r, "'%s': expected 1 to %zu characters", s, cap - 1), -1;
    snprintf(dst, cap, "%s", s);
    return 0;
}

static int check_cov(rd *r, const char *base, const cf_segment *s, int nc)
{
    /* A covariance matrix is symmetric with variances >= 0; any other matrix gives an
     * interval of the wrong width, or none (the square root of a negative variance). */
    for (int j = 0; j < nc; j++) {
        if (s->cov[j][j] < 0)
            return at(r, "%s.cov[%d][%d]", base, j, j),
                   bad(r, "%.6g: a variance cannot be negative", s->cov[j][j]), -1;
        for (int l = 0; l < j; l++) {
            double a = s->cov[j][l], b = s->cov[l][j];
            double scale = fmax(fmax(fabs(a), fabs(b)), sqrt(s->cov[j][j] * s->cov[l][l]));
            if (fabs(a - b) > 1e-9 * scale)
                return at(r, "%s.cov[%d][%d]", base, j, l),
                       bad(r,
                           "%.6g differs from cov[%d][%d] = %.6g: expected a symmetric "
                           "matrix",
                           a, l, j, b),
                       -1;
        }
    }
    return 0;
}

static int check_se(rd *r, json_t *so, const char *base, const cf_model_kind *k,
                    const cf_segment *s, int nc)
{
    /* The standard errors are derived from cov (sqrt of its diagonal); when present
     * they must say the same, or the file was edited in one place only. */
    json_t *se = json_object_get(so, "se");
    if (se != NULL) {
        char sbase[200];
        snprintf(sbase, sizeof sbase, "%s.se", base);
        if (field(r, so, base, "se", JSON_OBJECT, 0) == NULL)
            return -1;
        if ((int)json_object_size(se) != nc)
            return bad(r, "expected %d standard errors for model '%s', got %zu", nc, k->name,
                       json_object_size(se)),
                   -1;
        for (int j = 0; j < nc; j++) {
            double x;
            if (get_num(r, se, sbase, k->coef_names[j], 0, &x))
                return -1;
            if (!(x >= 0) || !isfinite(x))
                return bad(r, "expected a finite number >= 0"), -1;
            double want = sqrt(s->cov[j][j]);
            if (fabs(x - want) > 1e-6 * fmax(x, want))
                return bad(r, "%.6g does not match the covariance: sqrt(cov[%d][%d]) = %.6g", x, j,
                           j, want),
                       -1;
        }
    }
    return 0;
}

static int read_segment(rd *r, json_t *so, const char *base, cf_fit *f, cf_segment *s)
{
    long long v;
    if (!json_is_object(so))
        return at(r, "%s", base), bad(r, "expected an object"), -1;
    if (get_int(r, so, base, "from_bytes", 0, (long long)CF_BYTES_MAX, &v))
        return -1;
    s->from_bytes = (uint64_t)v;
    if (get_int(r, so, base, "to_bytes", (long long)s->from_bytes, (long long)CF_BYTES_MAX, &v))
        return -1;
    s->to_bytes = (uint64_t)v;
    if (json_object_get(so, "n") != NULL) {
        if (get_int(r, so, base, "n", 0, INT32_MAX, &v))
            return -1;
        s->n = (int)v;
    }
    json_t *coef = field(r, so, base, "coef", JSON_OBJECT, 0);
    if (coef == NULL)
        return -1;
    const cf_model_kind *k = f->kind;
    char cbase[200];
    snprintf(cbase, sizeof cbase, "%s.coef", base);
    /* nc: the coefficients the file holds, all of the kind's or its required ones; the
     * others are 0 with no variance. */
    int nc = (int)json_object_size(coef);
    if (nc != k->ncoef && (k->ncoef_required == 0 || nc != k->ncoef_required))
        return bad(r, "expected %d coefficients for model '%s', got %zu", k->ncoef, k->name,
                   json_object_size(coef)),
               -1;
    memset(s->coef, 0, sizeof s->coef);
    memset(s->cov, 0, sizeof s->cov);
    for (int j = 0; j < nc; j++) {
        double x;
        if (get_num(r, coef, cbase, k->coef_names[j], 0, &x))
            return -1;
        if (!isfinite(x))
            return bad(r, "expected a finite number"), -1;
        s->coef[j] = x;
    }
    json_t *cov = field(r, so, base, "cov", JSON_ARRAY, 0);
    if (cov == NULL)
        return -1;
    if ((int)json_array_size(cov) != nc)
        return bad(r, "expected a %d x %d matrix", nc, nc), -1;
    for (int j = 0; j < nc; j++) {
        json_t *row = json_array_get(cov, (size_t)j);
        at(r, "%s.cov[%d]", base, j);
        if (!json_is_array(row) || (int)json_array_size(row) != nc)
            return bad(r, "expected an array of %d numbers", nc), -1;
        for (int l = 0; l < nc; l++) {
            json_t *x = json_array_get(row, (size_t)l);
            if (!json_is_number(x) || !isfinite(json_number_value(x)))
                return at(r, "%s.cov[%d][%d]", base, j, l), bad(r, "expected a finite number"), -1;
            s->cov[j][l] = json_number_value(x);
        }
    }
    if (check_cov(r, base, s, nc) || check_se(r, so, base, k, s, nc))
        return -1;
    return 0;
}

/* The saturation figures are bandwidths (*_MiBps) and sizes (*_bytes): each a number
 * >= 0 or null, peak_bytes an integer. Checked over the object's members, so that a
 * figure added later is held to the same. */
static int check_saturation(rd *r, json_t *sat, const char *base)
{
    if (sat == NULL || !json_is_object(sat))
        return 0;
    const char *key;
    json_t *x;
    json_object_foreach(sat, key, x)
    {
        size_t n = strlen(key);
        int bw = n > 6 && strcmp(key + n - 6, "_MiBps") == 0;
        int size = n > 6 && strcmp(key + n - 6, "_bytes") == 0;
        if (!bw && !size)
            continue;
        at(r, "%s.saturation.%s", base, key);
        if (strcmp(key, "peak_bytes") == 0 && !json_is_integer(x))
            return bad(r, "expected an integer"), -1;
        if (!json_is_number(x) && !json_is_null(x))
            return bad(r, "expected a number or null"), -1;
        if (json_is_number(x) && json_number_value(x) < 0)
            return bad(r, "%.6g: expected a number >= 0 or null", json_number_value(x)), -1;
    }
    return 0;
}

/* The key of a fit (pattern, datatype, np, blocks) and its model kind. */
static int read_fit_key(rd *r, json_t *fo, const char *base, cf_fit *f)
{
    long long v;
    if (get_str(r, fo, base, "pattern", f->pattern, sizeof f->pattern) ||
        get_str(r, fo, base, "datatype", f->datatype, sizeof f->datatype) ||
        get_str(r, fo, base, "model", f->model, sizeof f->model))
        return -1;
    if (get_int(r, fo, base, "np", 1, CF_TABLE_NP_MAX, &v))
        return -1;
    f->np = (int)v;
    json_t *bl = json_object_get(fo, "blocks");
    if (bl != NULL) {
        if (get_int(r, fo, base, "blocks", 0, INT32_MAX, &v))
            return -1;
        f->blocks = (int)v;
    }
    f->kind = cf_model_kind_find(f->model);
    if (f->kind == NULL || f->kind->ncoef == 0)
        return at(r, "%s.model", base),
               bad(r,
                   "unknown model '%s': expected constant, linear, poly2, piecewise, loggp or "
                   "datatype",
                   f->model),
               -1;
    f->ncoef = f->kind->ncoef;
    for (int j = 0; j < f->ncoef; j++)
        snprintf(f->coef_names[j], CF_COEF_NAME_MAX, "%s", f->kind->coef_names[j]);
    return 0;
}

/* The segments, and the breakpoints that repeat their ends. */
static int read_segments(rd *r, json_t *fo, const char *base, cf_fit *f)
{
    long long v;
    json_t *segs = field(r, fo, base, "segments", JSON_ARRAY, 0);
    if (segs == NULL)
        return -1;
    size_t ns = json_array_size(segs);
    if (ns < 1 || (int)ns > f->kind->max_segments)
        return bad(r, "expected 1 to %d segments, got %zu", f->kind->max_segments, ns), -1;
    f->nseg = (int)ns;
    for (int k = 0; k < f->nseg; k++) {
        char sbase[160];
        snprintf(sbase, sizeof sbase, "%s.segments[%d]", base, k);
        if (read_segment(r, json_array_get(segs, (size_t)k), sbase, f, &f->seg[k]))
            return -1;
        if (k > 0 && f->seg[k].from_bytes <= f->seg[k - 1].to_bytes)
            return at(r, "%s.from_bytes", sbase),
                   bad(r, "expected a size above the previous segment's to_bytes"), -1;
    }
    /* The breakpoints repeat the segments' ends: when present they must agree. */
    json_t *bps = json_object_get(fo, "breakpoints");
    if (bps != NULL) {
        if (field(r, fo, base, "breakpoints", JSON_ARRAY, 0) == NULL)
            return -1;
        if ((int)json_array_size(bps) != f->nseg - 1)
            return bad(r, "expected %d breakpoints for %d segments, got %zu", f->nseg - 1, f->nseg,
                       json_array_size(bps)),
                   -1;
        for (int k = 0; k + 1 < f->nseg; k++) {
            json_t *b = json_array_get(bps, (size_t)k);
            char bb[160];
            snprintf(bb, sizeof bb, "%s.breakpoints[%d]", base, k);
            if (!json_is_object(b))
                return at(r, "%s", bb), bad(r, "expected an object"), -1;
            if (get_int(r, b, bb, "after_bytes", 0, (long long)CF_BYTES_MAX, &v))
                return -1;
            if ((uint64_t)v != f->seg[k].to_bytes)
                return bad(r, "%lld: expected segments[%d].to_bytes, %llu", v, k,
                           (unsigned long long)f->seg[k].to_bytes),
                       -1;
            if (get_int(r, b, bb, "before_bytes", 0, (long long)CF_BYTES_MAX, &v))
                return -1;
            if ((uint64_t)v != f->seg[k + 1].from_bytes)
                return bad(r, "%lld: expected segments[%d].from_bytes, %llu", v, k + 1,
                           (unsigned long long)f->seg[k + 1].from_bytes),
                       -1;
        }
    }
    return 0;
}

/* The residual variance, the quality figures and the measured ranges. */
static int read_quality(rd *r, json_t *fo, const char *base, cf_fit *f)
{
    long long v;
    if (get_num(r, fo, base, "s2", 0, &f->s2))
        return -1;
    if (!(f->s2 >= 0))
        return bad(r, "expected a number >= 0"), -1;
    if (get_int(r, fo, base, "dof", 1, INT32_MAX, &v))
        return -1;
    f->dof = (int)v;
    char qb[160];
    snprintf(qb, sizeof qb, "%s.quality", base);
    json_t *q = field(r, fo, base, "quality", JSON_OBJECT, 0);
    if (q == NULL)
        return -1;
    if (get_int(r, q, qb, "n", 0, INT32_MAX, &v))
        return -1;
    f->q.n = (int)v;
    if (get_int(r, q, qb, "dof", 0, INT32_MAX, &v))
        return -1;
    f->q.dof = (int)v;
    if (get_nonneg(r, q, qb, "loo_mape", 0, &f->q.loo_mape) ||
        get_nonneg(r, q, qb, "max_rel_err", 0, &f->q.max_rel_err) ||
        get_num(r, q, qb, "r2", 0, &f->q.r2) || get_num(r, q, qb, "aicc", 0, &f->q.aicc))
        return -1;
    char mb[160];
    snprintf(mb, sizeof mb, "%s.measured", base);
    json_t *meas = field(r, fo, base, "measured", JSON_OBJECT, 0);
    if (meas == NULL)
        return -1;
    if (get_int(r, meas, mb, "min_bytes", 0, (long long)CF_BYTES_MAX, &v))
        return -1;
    f->min_bytes = (uint64_t)v;
    if (get_int(r, meas, mb, "max_bytes", (long long)f->min_bytes, (long long)CF_BYTES_MAX, &v))
        return -1;
    f->max_bytes = (uint64_t)v;
    f->min_blocks = f->max_blocks = f->blocks;
    if (json_object_get(meas, "min_blocks") != NULL) {
        if (get_int(r, meas, mb, "min_blocks", 0, INT32_MAX, &v))
            return -1;
        f->min_blocks = (int)v;
        if (get_int(r, meas, mb, "max_blocks", f->min_blocks, INT32_MAX, &v))
            return -1;
        f->max_blocks = (int)v;
    }
    return 0;
}

/* What a backtest in size and one in blocks both hold, from object o at path bb: the rows
 * read (n >= 1), the refits (1 to cuts and to n; 1 where optional and absent, as in files
 * written before the refits further in) and the widening per doubling (>= 0). */
static int read_backtest_common(rd *r, json_t *o, const char *bb, int cuts, int refits_optional,
                                int *n, int *refits, double *err)
{
    long long v;
    if (get_int(r, o, bb, "n", 1, INT32_MAX, &v))
        return -1;
    *n = (int)v;
    *refits = 1;
    if (!refits_optional || json_object_get(o, "refits") != NULL) {
        /* Every refit reads one row at least. */
        if (get_int(r, o, bb, "refits", 1, *n < cuts ? *n : cuts, &v))
            return -1;
        *refits = (int)v;
    }
    if (get_finite(r, o, bb, "extrap_err_per_doubling", err))
        return -1;
    if (*err < 0)
        return bad(r, "%.6g: expected a number >= 0", *err), -1;
    return 0;
}

/* An optional weight, from 0 to 1; dflt where absent (a file written before it). */
static int get_weight(rd *r, json_t *o, const char *base, const char *key, double dflt,
                      double *v)
{
    *v = dflt;
    if (json_object_get(o, key) == NULL)
        return 0;
    if (get_finite(r, o, base, key, v))
        return -1;
    if (!(*v >= 0 && *v <= 1))
        return bad(r, "%.6g: expected a number from 0 to 1", *v), -1;
    return 0;
}

/* "size_backtest" (optional: files before it have none; null where none was made): the
 * largest size the first refit saw, below the measured ones, the rows read beyond the
 * refits (>= 1), how many refits (1 to CF_SIZE_BACKTEST_CUTS, no more than n; optional, 1 in
 * older files), the model's weight against the measured trend beyond the measured sizes
 * (0 to 1; optional, 1 in older files)
 * and the widening per doubling (>= 0). */
static int read_size_backtest(rd *r, json_t *fo, const char *base, cf_fit *f)
{
    json_t *o = json_object_get(fo, "size_backtest");
    if (o == NULL || json_is_null(o))
        return 0;
    char bb[160];
    snprintf(bb, sizeof bb, "%s.size_backtest", base);
    if (field(r, fo, base, "size_backtest", JSON_OBJECT, 0) == NULL)
        return -1;
    long long v;
    if (get_int(r, o, bb, "fitted_to_bytes", 1, (long long)f->max_bytes - 1, &v))
        return -1;
    f->bt.fitted_to_bytes = (uint64_t)v;
    /* Files written before the octaves below were read hold one refit. */
    if (read_backtest_common(r, o, bb, CF_SIZE_BACKTEST_CUTS, 1, &f->bt.n, &f->bt.refits,
                             &f->bt.err_per_doubling))
        return -1;
    /* Files written before the trend was weighed answer with the model alone. */
    return get_weight(r, o, bb, "model_weight", 1.0, &f->bt.model_weight);
}

/* One end of "blocks_backtest" (optional, null where none was made): the first refit's
 * extreme count, inside the measured ones, the rows read (>= 1), the refits (1 to
 * CF_BLOCKS_BACKTEST_CUTS, no more than n) and the widening per doubling (>= 0). */
static int read_blocks_end(rd *r, json_t *bo, const char *base, const char *key, cf_fit *f,
                           cf_blocks_end *b)
{
    json_t *o = json_object_get(bo, key);
    if (o == NULL || json_is_null(o))
        return 0;
    char bb[192];
    snprintf(bb, sizeof bb, "%s.%s", base, key);
    if (field(r, bo, base, key, JSON_OBJECT, 0) == NULL)
        return -1;
    long long v;
    int above = strcmp(key, "above") == 0;
    /* Below a fit whose counts start at 1 no count lies: none is made there. */
    if (!above && f->min_blocks <= 1)
        return bad(r, "a fit whose block counts start at %d has no backtest below them (null)",
                   f->min_blocks), -1;
    if (get_int(r, o, bb, "fitted_blocks",
                above ? (long long)f->min_blocks : (long long)f->min_blocks + 1,
                above ? (long long)f->max_blocks - 1 : (long long)f->max_blocks, &v))
        return -1;
    b->fitted_blocks = (int)v;
    return read_backtest_common(r, o, bb, CF_BLOCKS_BACKTEST_CUTS, 0, &b->n, &b->refits,
                                &b->err_per_doubling);
}

/* "blocks_backtest" (optional: files before it, and fits without a block term, have none;
 * predict then widens beyond the measured counts by the leave-one-out error): its ends. */
static int read_blocks_backtest(rd *r, json_t *fo, const char *base, cf_fit *f)
{
    json_t *o = json_object_get(fo, "blocks_backtest");
    if (o == NULL || json_is_null(o))
        return 0;
    char bb[160];
    snprintf(bb, sizeof bb, "%s.blocks_backtest", base);
    if (field(r, fo, base, "blocks_backtest", JSON_OBJECT, 0) == NULL)
        return -1;
    if (f->blocks <= 0)
        return bad(r, "a fit without a block term has no backtest in blocks"), -1;
    if (read_blocks_end(r, o, bb, "above", f, &f->bbt.above) ||
        read_blocks_end(r, o, bb, "below", f, &f->bbt.below))
        return -1;
    return 0;
}

/* "faster_than_pingpong" (optional: absent where fit found no such sizes): the np-2
 * collective's sizes timed faster than the table's ping-pong moves as many bytes, within
 * the measured sizes. */
static int read_pair_bound(rd *r, json_t *fo, const char *base, cf_fit *f)
{
    json_t *o = json_object_get(fo, "faster_than_pingpong");
    if (o == NULL)
        return 0;
    char bb[160];
    snprintf(bb, sizeof bb, "%s.faster_than_pingpong", base);
    if (field(r, fo, base, "faster_than_pingpong", JSON_OBJECT, 0) == NULL)
        return -1;
    if (!cf_fit_pair_bound_applies(f))
        return bad(r, "only a sized collective's plain fit can be faster than its ping-pong "
                      "(this fit is %s at np %d%s)",
                   f->pattern, f->np, f->kind == &cf_model_datatype ? ", a datatype model" : ""),
               -1;
    long long lo, hi;
    if (get_int(r, o, bb, "from_bytes", f->min_bytes > 0 ? (long long)f->min_bytes : 1,
                (long long)f->max_bytes, &lo) ||
        get_int(r, o, bb, "to_bytes", lo, (long long)f->max_bytes, &hi))
        return -1;
    f->pair_from_bytes = (uint64_t)lo;
    f->pair_to_bytes = (uint64_t)hi;
    return 0;
}

static int read_saturation(rd *r, json_t *fo, const char *base, cf_fit *f)
{
    long long v;
    /* Saturation: null, or an object (optional fields; null for values that do not
     * exist). */
    json_t *sat = json_object_get(fo, "saturation");
    f->sat.rinf_MiBps = f->sat.rinf_lo_MiBps = f->sat.rinf_hi_MiBps = NAN;
    f->sat.n_half_bytes = f->sat.m90_bytes = f->sat.peak_MiBps = NAN;
    f->sat.plateau_MiBps = f->sat.flat_from_bytes = NAN;
    f->sat.half_rinf_MiBps = f->sat.last_MiBps = f->sat.falls_beyond_bytes = NAN;
    f->sat.half_segment = -1;
    if (sat != NULL && !json_is_null(sat)) {
        char sb[160];
        snprintf(sb, sizeof sb, "%s.saturation", base);
        if (!json_is_object(sat))
            return at(r, "%s", sb), bad(r, "expected an object or null"), -1;
        if (get_int(r, sat, sb, "nmsg", 1, 64, &v))
            return -1;
        f->sat.nmsg = (int)v;
        if (get_num(r, sat, sb, "rinf_MiBps", 1, &f->sat.rinf_MiBps) ||
            get_num(r, sat, sb, "rinf_lo_MiBps", 1, &f->sat.rinf_lo_MiBps) ||
            get_num(r, sat, sb, "rinf_hi_MiBps", 1, &f->sat.rinf_hi_MiBps) ||
            get_num(r, sat, sb, "n_half_bytes", 1, &f->sat.n_half_bytes) ||
            get_num(r, sat, sb, "m90_bytes", 1, &f->sat.m90_bytes) ||
            get_num(r, sat, sb, "peak_MiBps", 1, &f->sat.peak_MiBps) ||
            get_num(r, sat, sb, "plateau_MiBps", 1, &f->sat.plateau_MiBps) ||
            get_num(r, sat, sb, "flat_from_bytes", 1, &f->sat.flat_from_bytes) ||
            get_num(r, sat, sb, "half_perf_rinf_MiBps", 1, &f->sat.half_rinf_MiBps) ||
            get_num(r, sat, sb, "last_MiBps", 1, &f->sat.last_MiBps) ||
            get_num(r, sat, sb, "falls_beyond_bytes", 1, &f->sat.falls_beyond_bytes))
            return -1;
        json_t *hs = json_object_get(sat, "half_perf_segment");
        if (hs != NULL && !json_is_null(hs)) {
            if (get_int(r, sat, sb, "half_perf_segment", 0, f->nseg - 1, &v))
                return -1;
            f->sat.half_segment = (int)v;
        } else if (hs == NULL && isfinite(f->sat.n_half_bytes)) {
            /* Files before these fields: n_1/2 came from the tangent. */
            f->sat.half_segment = f->nseg - 1;
            f->sat.half_rinf_MiBps = f->sat.rinf_MiBps;
        }
        json_t *pb = json_object_get(sat, "peak_bytes");
        f->sat.peak_bytes = json_is_integer(pb) ? (uint64_t)json_integer_value(pb) : 0;
        f->sat.valid = isfinite(f->sat.rinf_MiBps);
        if (json_is_null(json_object_get(sat, "rinf_hi_MiBps")) && f->sat.valid)
            f->sat.rinf_hi_MiBps = INFINITY;
    }
    if (check_saturation(r, sat, base) != 0)
        return -1;
    return 0;
}

/* The optional array of objects fo[key] of a fit: *arr (NULL when absent) and *n, with *mem
 * allocated for n elements of size bytes. 0, or -1 said when it is not an array. */
static int object_array(rd *r, json_t *fo, const char *base, const char *key, size_t size,
                        json_t **arr, size_t *n, void **mem)
{
    *arr = json_object_get(fo, key);
    *n = 0;
    if (*arr == NULL)
        return 0;
    if (!json_is_array(*arr))
        return at(r, "%s.%s", base, key), bad(r, "expected an array"), -1;
    *n = json_array_size(*arr);
    if (*n > 0 && (*mem = calloc(*n, size)) == NULL)
        return bad(r, "out of memory"), -1;
    return 0;
}

/* Element i of that array, its JSON path in path; NULL said when it is not an object. */
static json_t *array_object(rd *r, json_t *arr, size_t i, const char *base, const char *key,
                            char *path, size_t cap)
{
    json_t *x = json_array_get(arr, i);
    snprintf(path, cap, "%s.%s[%zu]", base, key, i);
    if (!json_is_object(x))
        return at(r, "%s", path), bad(r, "expected an object"), NULL;
    return x;
}

/* The points the robust fit rejected. */
static int read_rejected(rd *r, json_t *fo, const char *base, cf_fit *f)
{
    long long v;
    json_t *rej;
    size_t nr;
    if (object_array(r, fo, base, "rejected", sizeof *f->rejected, &rej, &nr,
                     (void **)&f->rejected) != 0)
        return -1;
    for (size_t i = 0; i < nr; i++) {
        char rb[160];
        json_t *x = array_object(r, rej, i, base, "rejected", rb, sizeof rb);
        cf_rejected *p = &f->rejected[i];
        if (x == NULL)
            return -1;
        if (get_int(r, x, rb, "bytes", 0, (long long)CF_BYTES_MAX, &v))
            return -1;
        p->bytes = (uint64_t)v;
        p->blocks = 0;
        if (json_object_get(x, "blocks") != NULL) {
            if (get_int(r, x, rb, "blocks", 0, INT32_MAX, &v))
                return -1;
            p->blocks = (int)v;
        }
        if (get_finite(r, x, rb, "t_us", &p->t_us) || get_num(r, x, rb, "rel_err", 0, &p->rel_err))
            return -1;
        f->nrejected++;
    }
    return 0;
}

/* The points set aside before fitting, with the reason. */
static int read_set_aside(rd *r, json_t *fo, const char *base, cf_fit *f)
{
    long long v;
    json_t *sa;
    size_t nr;
    if (object_array(r, fo, base, "set_aside", sizeof *f->set_aside, &sa, &nr,
                     (void **)&f->set_aside) != 0)
        return -1;
    for (size_t i = 0; i < nr; i++) {
        char rb[160];
        json_t *x = array_object(r, sa, i, base, "set_aside", rb, sizeof rb);
        cf_rejected *p = &f->set_aside[i];
        if (x == NULL)
            return -1;
        if (get_int(r, x, rb, "bytes", 0, (long long)CF_BYTES_MAX, &v))
            return -1;
        p->bytes = (uint64_t)v;
        json_t *b = json_object_get(x, "blocks");
        p->blocks = json_is_integer(b) ? (int)json_integer_value(b) : 0;
        if (get_num(r, x, rb, "t_us", 0, &p->t_us) || get_num(r, x, rb, "rel_err", 0, &p->rel_err))
            return -1;
        char why[CF_REASON_MAX];
        if (get_str(r, x, rb, "reason", why, sizeof why))
            return -1;
        snprintf(f->set_aside_why, sizeof f->set_aside_why, "%s", why);
        f->nset_aside++;
    }
    return 0;
}

/* The datatype path's gain over pack, per measured point. */
static int read_gain(rd *r, json_t *fo, const char *base, cf_fit *f)
{
    long long v;
    json_t *gain;
    size_t ng;
    if (object_array(r, fo, base, "gain_over_pack", sizeof *f->gain, &gain, &ng,
                     (void **)&f->gain) != 0)
        return -1;
    for (size_t i = 0; i < ng; i++) {
        char gb[160];
        json_t *x = array_object(r, gain, i, base, "gain_over_pack", gb, sizeof gb);
        cf_gain *p = &f->gain[i];
        if (x == NULL)
            return -1;
        if (get_int(r, x, gb, "bytes", 0, (long long)CF_BYTES_MAX, &v))
            return -1;
        p->bytes = (uint64_t)v;
        if (get_int(r, x, gb, "blocks", 0, INT32_MAX, &v))
            return -1;
        p->blocks = (int)v;
        if (get_finite(r, x, gb, "t_us", &p->t_us) ||
            get_finite(r, x, gb, "t_pack_us", &p->t_pack_us) ||
            get_finite(r, x, gb, "gain_pct", &p->gain_pct))
            return -1;
        f->ngain++;
    }
    return 0;
}

/* The warnings, and the formula (made anew when the file has none). */
static int read_notes(rd *r, json_t *fo, const char *base, cf_fit *f)
{
    json_t *w = json_object_get(fo, "warnings");
    if (w != NULL) {
        if (!json_is_array(w))
            return at(r, "%s.warnings", base), bad(r, "expected an array of strings"), -1;
        for (size_t i = 0; i < json_array_size(w); i++) {
            json_t *s = json_array_get(w, i);
            if (!json_is_string(s))
                return at(r, "%s.warnings[%zu]", base, i), bad(r, "expected a string"), -1;
            cf_fit_warn(f, "%s", json_string_value(s));
        }
    }
    json_t *fm = json_object_get(fo, "formula");
    if (fm != NULL && !json_is_string(fm))
        return at(r, "%s.formula", base), bad(r, "expected a string"), -1;
    if (fm != NULL)
        snprintf(f->formula, sizeof f->formula, "%s", json_string_value(fm));
    else
        cf_fit_formula(f, "text", f->formula, sizeof f->formula);
    return 0;
}

/* A fit of each pattern, np, datatype and model kind (beside a ping-pong's own fit, fit
 * writes its loggp fit when the three LogGP experiments were measured), an across-np model of
 * each pattern and datatype: one repeated (a hand edit) left the answer to whichever came
 * first, unsaid (the bad-input audit). */
static int one_of_each(rd *r, const cf_modelset *m)
{
    for (size_t i = 0; i < m->nfits; i++)
        for (size_t j = 0; j < i; j++) {
            const cf_fit *a = &m->fits[j], *b = &m->fits[i];
            if (a->np == b->np && strcmp(a->pattern, b->pattern) == 0 &&
                strcmp(a->datatype, b->datatype) == 0 && strcmp(a->model, b->model) == 0)
                return at(r, "fits[%zu]", i),
                       bad(r, "%s np %d %s %s again, as fits[%zu]: a model file holds one fit "
                              "of each pattern, np, datatype and model",
                           b->pattern, b->np, b->datatype, b->model, j);
        }
    for (size_t i = 0; i < m->across.n; i++)
        for (size_t j = 0; j < i; j++) {
            const cf_across *a = &m->across.a[j], *b = &m->across.a[i];
            if (strcmp(a->pattern, b->pattern) == 0 && strcmp(a->datatype, b->datatype) == 0)
                return at(r, "across_np[%zu]", i),
                       bad(r, "%s %s again, as across_np[%zu]: a model file holds one across-np "
                              "model of each pattern and datatype",
                           b->pattern, b->datatype, j);
        }
    return 0;
}

/* "points" (optional; files before it have none): [bytes, t_us] pairs at the fit's block
 * count, or [bytes, t_us, blocks] (a datatype fit's, every count measured), bytes > 0,
 * blocks >= 1, increasing by block count then size, times > 0; and "points_sd_log", their
 * spread where sizes repeat. */
static int read_points(rd *r, json_t *fo, const char *base, cf_fit *f)
{
    json_t *pts = json_object_get(fo, "points");
    if (pts == NULL)
        return 0;
    if (json_object_get(fo, "points_sd_log") != NULL &&
        (get_finite(r, fo, base, "points_sd_log", &f->points_sd_log) ||
         (f->points_sd_log < 0 && (bad(r, "expected a number >= 0"), 1))))
        return -1;
    at(r, "%s.points", base);
    if (!json_is_array(pts))
        return bad(r, "expected an array"), -1;
    size_t n = json_array_size(pts);
    if (n > 0 && (f->points = calloc(n, sizeof *f->points)) == NULL)
        return bad(r, "out of memory"), -1;
    for (size_t i = 0; i < n; i++) {
        json_t *x = json_array_get(pts, i);
        json_t *b = json_array_get(x, 0), *t = json_array_get(x, 1), *k = json_array_get(x, 2);
        size_t nx = json_array_size(x);
        long long blocks = nx == 3 && json_is_integer(k) ? json_integer_value(k) : f->blocks;
        long long bytes = json_is_integer(b) ? json_integer_value(b) : 0;
        const cf_measured *prev = i > 0 ? &f->points[i - 1] : NULL;
        int after_prev = prev == NULL || blocks > prev->blocks ||
                         (blocks == prev->blocks && (uint64_t)bytes > prev->bytes);
        at(r, "%s.points[%zu]", base, i);
        if (!json_is_array(x) || (nx != 2 && nx != 3) || bytes <= 0 || !json_is_number(t) ||
            (nx == 3 && (!json_is_integer(k) || blocks < 1 || blocks > INT_MAX)) || !after_prev ||
            !(json_number_value(t) > 0) || !isfinite(json_number_value(t)))
            return bad(r, "expected [bytes, t_us] or [bytes, t_us, blocks], bytes > 0, "
                          "blocks >= 1, increasing by blocks then bytes, t_us > 0"),
                   -1;
        /* A block count only where the fit has one, and one it measured: a point at another
         * count would never be read (predict would answer from the model alone, unsaid). */
        if (nx == 3 && f->blocks == 0)
            return bad(r, "a fit without a block count has [bytes, t_us] points"), -1;
        if (nx == 3 && (blocks < f->min_blocks || blocks > f->max_blocks))
            return bad(r, "blocks %lld outside the measured %d to %d", blocks, f->min_blocks,
                       f->max_blocks),
                   -1;
        f->points[i] = (cf_measured){(uint64_t)bytes, json_number_value(t), (int)blocks};
        f->npoints++;
    }
    return 0;
}

static int read_fit(rd *r, json_t *fo, int idx, cf_fit *f)
{
    char base[64];
    snprintf(base, sizeof base, "fits[%d]", idx);
    if (!json_is_object(fo))
        return at(r, "%s", base), bad(r, "expected an object"), -1;
    if (read_fit_key(r, fo, base, f))
        return -1;
    if (r->keys_only) {
        f->key_only = 1;
        return 0;
    }
    if (read_segments(r, fo, base, f) ||
        read_quality(r, fo, base, f) || read_size_backtest(r, fo, base, f) ||
        /* Files written before the model's reading went on from the measured time at the
         * top answer with the model's own (-1: none). */
        get_weight(r, fo, base, "anchor_weight", -1.0, &f->bt.anchor_weight) ||
        read_blocks_backtest(r, fo, base, f) ||
        read_saturation(r, fo, base, f) || read_rejected(r, fo, base, f) ||
        read_set_aside(r, fo, base, f) || read_points(r, fo, base, f) ||
        read_gain(r, fo, base, f) || read_pair_bound(r, fo, base, f) ||
        read_notes(r, fo, base, f))
        return -1;
    return 0;
}

static int read_root(rd *r, json_t *root, cf_modelset *m)
{
    at(r, "(top level)");
    if (!json_is_object(root))
        return bad(r, "expected a JSON object: this is not a commfit model file");
    long long major;
    if (get_int(r, root, "", "commfit_model", 1, LLONG_MAX, &major))
        return CF_EXIT_DATA;
    if (major > CF_MODEL_MAJOR)
        return bad(r,
                   "version %lld is newer than this commfit reads (%d); upgrade commfit to "
                   "read this model file",
                   major, CF_MODEL_MAJOR);
    json_t *src = field(r, root, "", "source", JSON_OBJECT, 0);
    if (src == NULL)
        return CF_EXIT_DATA;
    m->source = json_incref(src);
    json_t *fits = field(r, root, "", "fits", JSON_ARRAY, 0);
    if (fits == NULL)
        return CF_EXIT_DATA;
    for (size_t i = 0; i < json_array_size(fits); i++) {
        cf_fit f;
        memset(&f, 0, sizeof f);
        if (read_fit(r, json_array_get(fits, i), (int)i, &f) != 0) {
            cf_fit_clear(&f);
            return CF_EXIT_DATA;
        }
        if (cf_modelset_add(m, &f) != 0) {
            cf_fit_clear(&f);
            return bad(r, "out of memory");
        }
    }
    json_t *across = json_object_get(root, "across_np"), *p2p = json_object_get(root, "p2p");
    int rc = r->keys_only ? cf_across_set_load_keys(across, p2p, r->name, &m->across, r->e)
                          : cf_across_set_load(across, p2p, r->name, &m->across, r->e);
    return rc != 0 ? rc : one_of_each(r, m);
}

/* ---- By their key first (cf_modelset_read_keys) ---- */

/* The members of a fit that read_fit_key reads; the first ACROSS_KEYS, of an across-np
 * model (its key). */
static const char *const item_keys[] = {"pattern", "datatype", "model", "np", "blocks"};
#define NKEYS ((int)(sizeof item_keys / sizeof item_keys[0]))
#define ACROSS_KEYS 2
enum { FITS, ACROSS }; /* the lists taken apart: cf_skim's list[FITS], list[ACROSS] */

/* The JSON of the value at v, or NULL. */
static json_t *load_span(const char *buf, cf_skim_span v)
{
    return json_loadb(buf + v.at, v.end - v.at, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
}

/* An element reduced to its key (a value not an object whole: its reader says what is
 * wrong with it). */
static json_t *load_key(const char *buf, const cf_skim_item *it)
{
    if (buf[it->span.at] != '{')
        return load_span(buf, it->span);
    int nkeys = it->list == FITS ? NKEYS : ACROSS_KEYS;
    json_t *o = json_object();
    for (int j = 0; o != NULL && j < nkeys; j++)
        if (it->key[j].end > 0 &&
            json_object_set_new(o, item_keys[j], load_span(buf, it->key[j])) != 0) {
            json_decref(o);
            o = NULL;
        }
    return o;
}

/* The elements of list reduced to their keys, as an array. */
static json_t *load_list_keys(const char *buf, const cf_skim *k, int list)
{
    json_t *a = json_array();
    for (size_t j = 0; a != NULL && j < k->nitems; j++)
        if (k->items[j].list == list && json_array_append_new(a, load_key(buf, &k->items[j])) != 0) {
            json_decref(a);
            a = NULL;
        }
    return a;
}

/* The file's JSON with every fit and across-np model reduced to its key: the text checked
 * whole in one pass, jansson building the rest. NULL where the check is not sure (or out
 * of memory): then it is parsed whole. */
static json_t *load_keys(const char *buf, size_t len, cf_skim *k)
{
    if (!cf_skim_check(buf, len, k))
        return NULL;
    json_t *root = json_object();
    char key[64];
    for (size_t i = 0; root != NULL && i < k->ntop; i++) {
        json_t *x;
        if ((int)i == k->list_at[FITS])
            x = load_list_keys(buf, k, FITS);
        else if ((int)i == k->list_at[ACROSS])
            x = load_list_keys(buf, k, ACROSS);
        else
            x = load_span(buf, k->top_val[i]);
        size_t l = k->top_key[i].end - k->top_key[i].at;
        if (l >= sizeof key) { /* no member of a model file: let the whole parse read it */
            json_decref(x);
            json_decref(root);
            return NULL;
        }
        snprintf(key, sizeof key, "%.*s", (int)l, buf + k->top_key[i].at);
        if (json_object_set_new(root, key, x) != 0) {
            json_decref(root);
            root = NULL;
        }
    }
    return root;
}

/* Keeps the text (taking over *own, else a copy) and the place in it of each fit and
 * across-np model, for cf_modelset_read_fits. */
static int keep_text(cf_modelset *m, char **own, const char *buf, size_t len, const char *name,
                     const cf_skim *k)
{
    size_t off = 0;
    if (*own != NULL) {
        m->text = *own; /* buf is inside it, after a byte order mark */
        off = (size_t)(buf - *own);
        *own = NULL;
    } else if ((m->text = malloc(len + 1)) != NULL) {
        memcpy(m->text, buf, len);
        m->text[len] = '\0'; /* as cf_read_all's: a schema error's line is found in it */
    }
    m->name = strdup(name);
    m->fit_span = calloc(m->nfits + 1, sizeof *m->fit_span);
    m->across_span = calloc(m->across.n + 1, sizeof *m->across_span);
    if (m->text == NULL || m->name == NULL || m->fit_span == NULL || m->across_span == NULL)
        return -1;
    size_t nf = 0, na = 0;
    for (size_t i = 0; i < k->nitems; i++) {
        cf_skim_span v = {k->items[i].span.at + off, k->items[i].span.end + off};
        if (k->items[i].list == FITS && nf < m->nfits)
            m->fit_span[nf++] = v;
        else if (k->items[i].list == ACROSS && na < m->across.n)
            m->across_span[na++] = v;
    }
    return 0;
}

/* A schema error of the file name (no line; its message begins with the JSON path of the
 * field, "fits[3].segments[0].coef: expected a number") given the line of that field in its
 * text s of n bytes (of the object that misses it, for a missing field). */
static void locate(cf_error *e, const char *name, const char *s, size_t n)
{
    static const char path_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789_.[]";
    if (e->code == 0 || e->line != 0 || s == NULL || strcmp(e->file, name) != 0)
        return;
    char path[256];
    size_t l = strspn(e->msg, path_chars);
    if (l == 0 || l >= sizeof path || e->msg[l] != ':')
        return;
    memcpy(path, e->msg, l);
    path[l] = '\0';
    e->line = cf_skim_line_of(s, n, path);
}

/* keys_only: read the fits and across-np models by their key (from the check's byte ranges,
 * or, where it was not sure, from the JSON parsed whole: the same parts read either way).
 * own: NULL, or buf's allocation, which a set read by its keys may take over (else it stays
 * the caller's). */
static int read_mem(const char *buf, size_t len, const char *name, int keys_only, char **own,
                    cf_modelset **out, cf_error *e)
{
    json_error_t je;
    if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
        buf += 3; /* a UTF-8 byte order mark */
        len -= 3;
    }
    cf_skim k = {.list = {[FITS] = "fits", [ACROSS] = "across_np"}, .keys = item_keys,
                 .nkeys = NKEYS};
    json_t *root = keys_only ? load_keys(buf, len, &k) : NULL;
    int spans = root != NULL;
    if (root == NULL)
        root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (root == NULL) {
        cf_skim_free(&k);
        /* A timing table given for a model (-m data/x.csv): said, as report -i says a model
         * given for a table. */
        int table = (len >= 11 && memcmp(buf, "pattern,np,", 11) == 0) ||
                    memmem(buf, len, "\npattern,np,", 12) != NULL;
        return cf_error_set(e, CF_EXIT_DATA, name, je.line > 0 ? je.line : 0,
                            "not valid JSON: %s%s", je.text,
                            table ? " (this is a timing table: a model file is what commfit "
                                    "fit writes from one; fit it first, commfit fit -i FILE)"
                                  : "");
    }
    cf_modelset *m = cf_modelset_alloc();
    cf_error local;
    rd r = {name, e ? e : &local, keys_only, ""};
    cf_error_clear(r.e);
    int rc = m == NULL ? cf_error_set(r.e, CF_EXIT_DATA, name, 0, "out of memory")
                       : read_root(&r, root, m);
    if (rc == 0 && keys_only && !spans) {
        m->json = json_incref(root);
        m->name = strdup(name);
    }
    if (rc == 0 && keys_only &&
        (spans ? keep_text(m, own, buf, len, name, &k) != 0 : m->name == NULL))
        rc = cf_error_set(r.e, CF_EXIT_DATA, name, 0, "out of memory");
    json_decref(root);
    cf_skim_free(&k);
    if (rc != 0) {
        locate(r.e, name, buf, len);
        cf_modelset_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

int cf_modelset_read_mem(const char *buf, size_t len, const char *name, cf_modelset **out,
                         cf_error *e)
{
    return read_mem(buf, len, name, 0, NULL, out, e);
}

int cf_modelset_read_mem_keys(const char *buf, size_t len, const char *name, cf_modelset **out,
                              cf_error *e)
{
    char *own = NULL;
    return read_mem(buf, len, name, 1, &own, out, e);
}

/* Element i of the list held by its key, whole (new reference), or NULL. */
static json_t *load_whole(const cf_modelset *m, int list, size_t i)
{
    if (m->text != NULL)
        return load_span(m->text, list == FITS ? m->fit_span[i] : m->across_span[i]);
    json_t *a = json_object_get(m->json, list == FITS ? "fits" : "across_np");
    return json_incref(json_array_get(a, i));
}

int cf_modelset_read_fits(cf_modelset *m, const char *pattern, const char *datatype, cf_error *e)
{
    cf_error local;
    rd r = {m->name, e ? e : &local, 0, ""};
    cf_error_clear(r.e);
    for (size_t i = 0; i < m->nfits; i++) {
        cf_fit *f = &m->fits[i];
        if (!f->key_only || strcmp(f->pattern, pattern) != 0 || strcmp(f->datatype, datatype) != 0)
            continue;
        json_t *fo = load_whole(m, FITS, i);
        cf_fit full;
        memset(&full, 0, sizeof full);
        int rc = fo == NULL ? (at(&r, "fits[%zu]", i), bad(&r, "out of memory"))
                            : read_fit(&r, fo, (int)i, &full);
        json_decref(fo);
        if (rc != 0) {
            cf_fit_clear(&full);
            if (m->text != NULL)
                locate(r.e, m->name, m->text, strlen(m->text));
            return CF_EXIT_DATA;
        }
        cf_fit_clear(f);
        *f = full;
    }
    cf_across *full = NULL; /* (large: on the heap) */
    for (size_t i = 0; i < m->across.n; i++) {
        cf_across *a = &m->across.a[i];
        if (!a->key_only || strcmp(a->pattern, pattern) != 0 || strcmp(a->datatype, datatype) != 0)
            continue;
        json_t *ao = load_whole(m, ACROSS, i);
        if (full == NULL)
            full = malloc(sizeof *full);
        int rc = ao == NULL || full == NULL
                     ? (at(&r, "across_np[%zu]", i), bad(&r, "out of memory"))
                     : cf_across_from_json(ao, m->name, i, full, r.e);
        json_decref(ao);
        if (rc != 0) {
            free(full);
            if (m->text != NULL)
                locate(r.e, m->name, m->text, strlen(m->text));
            return CF_EXIT_DATA;
        }
        *a = *full;
    }
    free(full);
    return 0;
}

static int read_file(const char *path, int keys_only, cf_modelset **out, cf_error *e)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot open: %s", strerror(errno));
    /* fopen opens a folder for reading on Linux; only the read fails, saying too little. */
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(fp);
        return cf_error_set(e, CF_EXIT_DATA, path, 0,
                            "is a folder, not a model file: name a .json file written by "
                            "'commfit fit'");
    }
    char *buf = NULL;
    size_t len = 0;
    int rrc = cf_read_all(fp, path, &buf, &len, e);
    fclose(fp);
    if (rrc != 0)
        return rrc;
    int rc = read_mem(buf, len, path, keys_only, &buf, out, e);
    if (rc == 0 && !keys_only) /* cf_read_all's text ends in a NUL */
        (*out)->whole = buf;
    else
        free(buf);
    return rc;
}

int cf_modelset_read(const char *path, cf_modelset **out, cf_error *e)
{
    return read_file(path, 0, out, e);
}

int cf_modelset_read_keys(const char *path, cf_modelset **out, cf_error *e)
{
    return read_file(path, 1, out, e);
}
