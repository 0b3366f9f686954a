/* The model file's "across_np" and "p2p" members: the across-np models and the
 * point-to-point estimate as JSON and back, validated once on reading. */
#include "config.h"

#include "modelfile/across-json.h"

#include "base/size.h"
#include "base/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON ---- */

/* jansson refuses NaN and infinity; the file says null instead. */
static json_t *jnum(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* [low, high], or null when unknown. */
static json_t *pair_json(const double *v)
{
    return isfinite(v[0]) && isfinite(v[1]) ? json_pack("[f,f]", v[0], v[1]) : json_null();
}

static int set(json_t *o, const char *k, json_t *v)
{
    return v == NULL || json_object_set_new(o, k, v) != 0 ? -1 : 0;
}

static json_t *quality_json(const cf_rel_quality *q)
{
    json_t *o = json_object();
    if (o == NULL || set(o, "n", json_integer(q->n)) || set(o, "dof", json_integer(q->dof)) ||
        set(o, "rejected", json_integer(q->rejected)) || set(o, "mape", jnum(q->mape)) ||
        set(o, "max_rel_err", jnum(q->max_rel_err)) || set(o, "loo_mape", jnum(q->loo_mape))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *matrix_json(const double *m, int k)
{
    json_t *rows = json_array();
    for (int i = 0; rows && i < k; i++) {
        json_t *row = json_array();
        for (int j = 0; row && j < k; j++)
            if (json_array_append_new(row, jnum(m[i * k + j])) != 0) {
                json_decref(row);
                row = NULL;
            }
        if (row == NULL || json_array_append_new(rows, row) != 0) {
            json_decref(rows);
            return NULL;
        }
    }
    return rows;
}

static json_t *seg_json(const cf_across_seg *s)
{
    json_t *o = json_object(), *basis = json_array(), *coef = json_array(), *se = json_array();
    if (o == NULL || set(o, "basis", basis) || set(o, "coef", coef) || set(o, "se", se))
        goto fail;
    if (set(o, "from_bytes", json_real(s->from_bytes)) ||
        set(o, "to_bytes", json_real(s->to_bytes)) ||
        set(o, "algorithm", json_string(s->algorithm)))
        goto fail;
    for (int j = 0; j < s->nbasis; j++) {
        char name[96];
        cf_cterm_sum_name(&s->basis[j], name, sizeof name);
        if (json_array_append_new(basis, json_string(name)) ||
            json_array_append_new(coef, jnum(s->coef[j])) ||
            json_array_append_new(se, jnum(sqrt(fmax(0.0, s->cov[j][j])))))
            goto fail;
    }
    double cov[CF_COLL_MAX_BASIS * CF_COLL_MAX_BASIS];
    for (int j = 0; j < s->nbasis; j++)
        for (int l = 0; l < s->nbasis; l++)
            cov[j * s->nbasis + l] = s->cov[j][l];
    if (set(o, "cov", matrix_json(cov, s->nbasis)) || set(o, "s2", jnum(s->s2)) ||
        set(o, "extrap_err_per_doubling", jnum(s->extrap_err)) ||
        set(o, "growth_per_doubling", pair_json(s->growth)) ||
        set(o, "growth_change_per_doubling", pair_json(s->growth_change)) ||
        set(o, "quality", quality_json(&s->q)))
        goto fail;
    if (isfinite(s->within_err) &&
        set(o, "extrap_err_within_tier_per_doubling", jnum(s->within_err)))
        goto fail;
    return o;
fail:
    json_decref(o);
    return NULL;
}

/* The grid model: its rules, T2 and the points (commfit-formats(5)). */
static json_t *grid_json(const cf_across_grid *g)
{
    json_t *o = json_object(), *unit = json_array(), *pts = json_array();
    if (o == NULL || set(o, "rules", json_string(g->rules)) || set(o, "unit", unit) ||
        set(o, "points", pts) || set(o, "err_per_doubling", jnum(g->err_per_doubling)) ||
        set(o, "step_growth", jnum(g->step_growth)) ||
        set(o, "step_growth_max", jnum(g->step_growth_max)) ||
        set(o, "tree_err_per_doubling", jnum(g->tree_err)) ||
        (g->node_ranks > 0 && set(o, "node_ranks", json_integer(g->node_ranks))) ||
        (g->tiers.eager_load > 0.0 && g->tiers.eager_load < 1.0 &&
         set(o, "eager_load", jnum(g->tiers.eager_load))))
        goto fail;
    for (int i = 0; i < g->nunit; i++)
        if (json_array_append_new(unit, json_pack("[f,f]", g->unit_bytes[i], g->unit_t_us[i])))
            goto fail;
    for (int i = 0; i < g->n; i++)
        if (json_array_append_new(
                pts, json_pack("[I,f,f]", (json_int_t)g->pt[i].p, g->pt[i].m, g->pt[i].t_us)))
            goto fail;
    if (g->nmsg > 0) {
        json_t *msg = json_array();
        if (set(o, "message_unit", msg))
            goto fail;
        for (int i = 0; i < g->nmsg; i++)
            if (json_array_append_new(msg, json_pack("[f,f]", g->msg_bytes[i], g->msg_unit_us[i])))
                goto fail;
    }
    if (g->tiers.n > 0) {
        /* Each made where it is set: set takes it, and drops it when it cannot. */
        json_t *tiers, *blocks;
        if (set(o, "tiered_tree_err_per_doubling", jnum(g->tiered_tree_err)) ||
            set(o, "tiers", tiers = json_object()) ||
            set(tiers, "base_us", jnum(g->tiers.base_us)) ||
            set(tiers, "rendezvous", json_boolean(g->tiers.rendezvous)) ||
            set(tiers, "probed_ranks", json_integer(g->tiers.probed)) ||
            set(tiers, "blocks", blocks = json_array()))
            goto fail;
        for (int i = 0; i < g->tiers.n; i++)
            if (json_array_append_new(blocks, json_pack("[I,f]", (json_int_t)g->tiers.ranks[i],
                                                        g->tiers.extra_us[i])))
                goto fail;
        json_t *pair = NULL; /* set where npair > 0, the only case it is read */
        if (g->tiers.npair > 0 && set(tiers, "pair_us_per_byte", pair = json_array()))
            goto fail;
        for (int i = 0; i < g->tiers.npair; i++)
            if (json_array_append_new(pair, jnum(g->tiers.pair_us_per_byte[i])))
                goto fail;
        json_t *dist = NULL;
        if (g->tiers.ndist > 0 && set(tiers, "pair_distance_us_per_byte", dist = json_array()))
            goto fail;
        for (int k = 0; k < g->tiers.ndist; k++) {
            json_t *row = json_array();
            if (row == NULL || json_array_append_new(dist, row))
                goto fail;
            for (int jd = 0; jd <= k; jd++)
                if (json_array_append_new(
                        row, jnum(g->tiers.dist_us_per_byte[CF_TIERS_DIST_ROW(k) + jd])))
                    goto fail;
        }
        json_t *sized = NULL;
        if (g->tiers.nsized > 0 && set(tiers, "sized", sized = json_array()))
            goto fail;
        for (int j = 0; j < g->tiers.nsized; j++) {
            /* [bytes, [extra_us of each block]]; ex borrowed from the row sized holds */
            json_t *row = json_pack("[f,[]]", g->tiers.sized_bytes[j]);
            json_t *ex = json_array_get(row, 1);
            if (row == NULL || json_array_append_new(sized, row))
                goto fail;
            for (int k = 0; k < g->tiers.n; k++)
                if (json_array_append_new(ex, jnum(g->tiers.sized_extra_us[j][k])))
                    goto fail;
        }
    }
    return o;
fail:
    json_decref(o);
    return NULL;
}

json_t *cf_across_to_json(const cf_across *a)
{
    json_t *o = json_object(), *np = json_array();
    if (o == NULL || set(o, "np", np))
        goto fail;
    for (int i = 0; i < a->nnp; i++)
        if (json_array_append_new(np, json_integer(a->np[i])) != 0)
            goto fail;
    if (set(o, "pattern", json_string(a->pattern)) ||
        set(o, "datatype", json_string(a->datatype)) ||
        set(o, "bytes_min", json_real(a->bytes_min)) ||
        set(o, "bytes_max", json_real(a->bytes_max)))
        goto fail;
    if (a->error[0] != '\0') {
        if (set(o, "error", json_string(a->error)))
            goto fail;
        return o;
    }
    json_t *segs = json_array();
    if (set(o, "segments", segs))
        goto fail;
    for (int i = 0; i < a->nseg; i++)
        if (json_array_append_new(segs, seg_json(&a->seg[i])))
            goto fail;
    char f[1024];
    cf_across_describe(a, f, sizeof f);
    if (set(o, "quality", quality_json(&a->q)) || set(o, "formula", json_string(f)))
        goto fail;
    if (a->grid.rules[0] != '\0' && set(o, "grid", grid_json(&a->grid)))
        goto fail;
    if (a->ntier > 0) {
        json_t *bt = json_object(), *r = json_array();
        if (set(o, "backtest_tiers", bt) || set(bt, "tier_ranks", r) ||
            set(bt, "probed_ranks", json_integer(a->tier_probed)) ||
            set(bt, "within_np", json_integer(a->within_np)))
            goto fail;
        for (int i = 0; i < a->ntier; i++)
            if (json_array_append_new(r, json_integer(a->tier_ranks[i])) != 0)
                goto fail;
    }
    if (a->waited || a->replayed) {
        json_t *w = json_array();
        if (set(o, "barrier_wait_us", w) ||
            set(o, "barrier_wait_rules", json_string(a->wait_rules)))
            goto fail;
        for (int i = 0; i < a->nnp; i++)
            if (json_array_append_new(w, json_real(a->wait_us[i])) != 0)
                goto fail;
    }
    return o;
fail:
    json_decref(o);
    return NULL;
}

/* A contention entry at np=2: its latency and bandwidth factors. */
static int np2_json(json_t *c, const cf_contention *k)
{
    return set(c, "latency_factor", jnum(k->lat_factor)) ||
           set(c, "bandwidth_factor", jnum(k->bw_factor)) ||
           set(c, "factor_cov", matrix_json(&k->factor_cov[0][0], 2)) ||
           set(c, "factor_s2", jnum(k->factor_s2));
}

/* A contention entry's measured curve (at np=2 always, as files before the other np's
 * had it there). */
static int unit_json(json_t *c, const cf_contention *k)
{
    json_t *unit = json_array();
    if (set(c, "unit", unit))
        return -1;
    for (int i = 0; i < k->nunit; i++)
        if (json_array_append_new(unit, json_pack("[f,f]", k->unit_bytes[i], k->unit_t_us[i])))
            return -1;
    return 0;
}

json_t *cf_p2p_to_json(const cf_p2p *pp)
{
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    if (pp->error[0] != '\0') {
        if (set(o, "error", json_string(pp->error)))
            goto fail;
        return o;
    }
    const cf_hockney *h = &pp->h;
    json_t *se = json_array(), *cont = json_array();
    if (set(o, "se", se) || set(o, "contention", cont))
        goto fail;
    if (set(o, "pattern", json_string(pp->pattern)) || set(o, "np", json_integer(2)) ||
        set(o, "datatype", json_string("byte")) || set(o, "alpha_us", jnum(h->alpha_us)) ||
        set(o, "beta_us_per_byte", jnum(h->beta_us_per_byte)) ||
        json_array_append_new(se, jnum(sqrt(fmax(0.0, h->cov[0][0])))) ||
        json_array_append_new(se, jnum(sqrt(fmax(0.0, h->cov[1][1])))) ||
        set(o, "cov", matrix_json(&h->cov[0][0], 2)) || set(o, "s2", jnum(h->s2)) ||
        set(o, "quality", quality_json(&h->q)) || set(o, "bytes_min", jnum(h->bytes_min)) ||
        set(o, "bytes_max", jnum(h->bytes_max)) ||
        set(o, "gamma_us_per_byte", jnum(pp->gamma_us_per_byte)) ||
        set(o, "gamma_se", jnum(pp->gamma_se)) ||
        set(o, "gamma_source", json_string(pp->gamma_source)) ||
        (h->beta_held && set(o, "beta_free_fit", jnum(h->beta_free))) ||
        set(o, "model_error_factor_measured", json_real(CF_P2P_FACTOR_MEASURED)) ||
        set(o, "model_error_factor_unmeasured", json_real(CF_P2P_FACTOR_UNMEASURED)))
        goto fail;
    for (size_t i = 0; i < pp->ncont; i++) {
        const cf_contention *k = &pp->cont[i];
        json_t *c = json_object();
        if (c == NULL || json_array_append_new(cont, c) ||
            set(c, "pattern", json_string(k->pattern)) ||
            set(c, "datatype", json_string(k->datatype)) || set(c, "np", json_integer(k->np)) ||
            set(c, "n", json_integer(k->n)) || set(c, "median", jnum(k->median)) ||
            set(c, "min", jnum(k->min)) || set(c, "max", jnum(k->max)) ||
            set(c, "sd_log", jnum(k->sd_log)) || (k->lat_factor > 0.0 && np2_json(c, k)) ||
            ((k->lat_factor > 0.0 || k->nunit > 0) && unit_json(c, k)))
            goto fail;
        if (k->no_transfer_to > 0) {
            json_t *nt = json_object();
            if (nt == NULL || set(c, "faster_than_pingpong", nt) ||
                set(nt, "from_bytes", json_integer((json_int_t)k->no_transfer_from)) ||
                set(nt, "to_bytes", json_integer((json_int_t)k->no_transfer_to)))
                goto fail;
        }
    }
    if (pp->rules[0] != '\0' && set(o, "rules", json_string(pp->rules)))
        goto fail;
    if (pp->node_ranks > 0 && set(o, "node_ranks", json_integer(pp->node_ranks)))
        goto fail;
    return o;
fail:
    json_decref(o);
    return NULL;
}

/* Reading: every field checked, every message naming the file and the field. */

/* Each path is written whole from its indexes, never appended to another where's path: the
 * compiler then proves that the longest ("p2p.contention[%zu].faster_than_pingpong", 57
 * bytes with a 20-digit index) fits. */
typedef struct where {
    const char *file;
    char path[96]; /* "across_np[3]" */
    cf_error *e;
} where;
#define CONTENTION_PATH "p2p.contention[%zu]"

static int bad(const where *w, const char *field, const char *expected)
{
    return cf_error_set(w->e, CF_EXIT_DATA, w->file, 0, "%s.%s: expected %s", w->path, field,
                        expected);
}

static int get_num(const where *w, const json_t *o, const char *field, double *v)
{
    const json_t *j = json_object_get(o, field);
    if (!json_is_number(j) || !isfinite(json_number_value(j)))
        return bad(w, field, "a number");
    *v = json_number_value(j);
    return 0;
}

static int get_nonneg(const where *w, const json_t *o, const char *field, double *v)
{
    if (get_num(w, o, field, v) != 0 || *v < 0.0)
        return bad(w, field, "a number >= 0");
    return 0;
}

/* An optional number >= 0: NAN when absent or null. */
static int get_optional_nonneg(const where *w, const json_t *o, const char *field, double *v)
{
    const json_t *x = json_object_get(o, field);
    *v = NAN;
    return x != NULL && !json_is_null(x) ? get_nonneg(w, o, field, v) : 0;
}

/* An optional [low, high] pair of numbers, low <= high: NAN when absent or null. */
static int get_optional_pair(const where *w, const json_t *o, const char *field, double *v)
{
    const json_t *j = json_object_get(o, field);
    v[0] = v[1] = NAN;
    if (j == NULL || json_is_null(j))
        return 0;
    for (size_t i = 0; i < 2 && json_is_array(j) && json_array_size(j) == 2; i++) {
        const json_t *x = json_array_get(j, i);
        if (json_is_number(x) && isfinite(json_number_value(x)))
            v[i] = json_number_value(x);
    }
    if (!(v[0] <= v[1]))
        return bad(w, field, "null or [low, high], two numbers, low <= high");
    return 0;
}

static int get_str(const where *w, const json_t *o, const char *field, char *buf, size_t n)
{
    const json_t *j = json_object_get(o, field);
    if (!json_is_string(j) || json_string_length(j) == 0 || json_string_length(j) >= n)
        return bad(w, field, "a non-empty string");
    snprintf(buf, n, "%s", json_string_value(j));
    return 0;
}

static int get_int(const where *w, const json_t *o, const char *field, long min, long max, long *v)
{
    const json_t *j = json_object_get(o, field);
    if (!json_is_integer(j) || json_integer_value(j) < min || json_integer_value(j) > max) {
        char exp[64];
        snprintf(exp, sizeof exp, "an integer from %ld to %ld", min, max);
        return bad(w, field, exp);
    }
    *v = (long)json_integer_value(j);
    return 0;
}

/* An optional whole number from min to max: 0 when absent. */
static int get_optional_int(const where *w, const json_t *o, const char *field, long min, long max,
                            long *v)
{
    *v = 0;
    return json_object_get(o, field) != NULL ? get_int(w, o, field, min, max, v) : 0;
}

static int get_vec(const where *w, const json_t *o, const char *field, int k, double *v)
{
    const json_t *j = json_object_get(o, field);
    char exp[64];
    snprintf(exp, sizeof exp, "an array of %d numbers", k);
    if (!json_is_array(j) || (int)json_array_size(j) != k)
        return bad(w, field, exp);
    for (int i = 0; i < k; i++) {
        const json_t *x = json_array_get(j, (size_t)i);
        if (!json_is_number(x) || !isfinite(json_number_value(x)))
            return bad(w, field, exp);
        v[i] = json_number_value(x);
    }
    return 0;
}

static int get_mat(const where *w, const json_t *o, const char *field, int k, double *m)
{
    const json_t *j = json_object_get(o, field);
    char exp[64];
    snprintf(exp, sizeof exp, "a %dx%d array of numbers", k, k);
    if (!json_is_array(j) || (int)json_array_size(j) != k)
        return bad(w, field, exp);
    for (int i = 0; i < k; i++) {
        const json_t *row = json_array_get(j, (size_t)i);
        if (!json_is_array(row) || (int)json_array_size(row) != k)
            return bad(w, field, exp);
        for (int l = 0; l < k; l++) {
            const json_t *x = json_array_get(row, (size_t)l);
            if (!json_is_number(x) || !isfinite(json_number_value(x)))
                return bad(w, field, exp);
            m[i * k + l] = json_number_value(x);
        }
    }
    return 0;
}

static int get_quality(const where *w, const json_t *o, cf_rel_quality *q)
{
    const json_t *j = json_object_get(o, "quality");
    if (!json_is_object(j))
        return bad(w, "quality", "an object");
    long n, dof;
    if (get_int(w, j, "n", 1, 1L << 40, &n) || get_int(w, j, "dof", 1, 1L << 40, &dof))
        return CF_EXIT_DATA;
    q->n = (int)n;
    q->dof = (int)dof;
    const json_t *rej = json_object_get(j, "rejected");
    q->rejected = json_is_integer(rej) ? (int)json_integer_value(rej) : 0;
    const char *opt[] = {"mape", "max_rel_err", "loo_mape"};
    double *dst[] = {&q->mape, &q->max_rel_err, &q->loo_mape};
    for (int i = 0; i < 3; i++) {
        const json_t *x = json_object_get(j, opt[i]);
        *dst[i] = json_is_number(x) ? json_number_value(x) : NAN;
    }
    return 0;
}

static int seg_from_json(const json_t *j, const where *w, cf_across_seg *out)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(j))
        return cf_error_set(w->e, CF_EXIT_DATA, w->file, 0, "%s: expected an object", w->path);
    if (get_nonneg(w, j, "from_bytes", &out->from_bytes) ||
        get_nonneg(w, j, "to_bytes", &out->to_bytes) ||
        get_str(w, j, "algorithm", out->algorithm, sizeof out->algorithm))
        return CF_EXIT_DATA;
    if (out->to_bytes < out->from_bytes)
        return bad(w, "to_bytes", "a number >= from_bytes");
    const json_t *basis = json_object_get(j, "basis");
    if (!json_is_array(basis) || json_array_size(basis) == 0 ||
        json_array_size(basis) > CF_COLL_MAX_BASIS)
        return bad(w, "basis", "an array of 1 to 3 term names");
    out->nbasis = (int)json_array_size(basis);
    for (int i = 0; i < out->nbasis; i++) {
        const json_t *x = json_array_get(basis, (size_t)i);
        if (!json_is_string(x) || cf_cterm_sum_parse(json_string_value(x), &out->basis[i]) != 0)
            return cf_error_set(w->e, CF_EXIT_DATA, w->file, 0,
                                "%s.basis: unknown term '%s' (from a newer commfit?)", w->path,
                                json_is_string(x) ? json_string_value(x) : "?");
    }
    double cov[CF_COLL_MAX_BASIS * CF_COLL_MAX_BASIS];
    if (get_vec(w, j, "coef", out->nbasis, out->coef) || get_mat(w, j, "cov", out->nbasis, cov) ||
        get_nonneg(w, j, "s2", &out->s2) || get_quality(w, j, &out->q))
        return CF_EXIT_DATA;
    /* null, or absent in a file from before the backtest: unknown, and predict widens by
     * the fit's own leave-one-out error instead. */
    if (get_optional_nonneg(w, j, "extrap_err_per_doubling", &out->extrap_err) ||
        get_optional_nonneg(w, j, "extrap_err_within_tier_per_doubling", &out->within_err))
        return CF_EXIT_DATA;
    /* Likewise the measured growth: unknown in older files, and the interval then holds
     * the backtest's widening only. */
    if (get_optional_pair(w, j, "growth_per_doubling", out->growth) ||
        get_optional_pair(w, j, "growth_change_per_doubling", out->growth_change))
        return CF_EXIT_DATA;
    for (int a = 0; a < out->nbasis; a++)
        for (int b = 0; b < out->nbasis; b++)
            out->cov[a][b] = cov[a * out->nbasis + b];
    out->tq = cf_t975(out->q.dof);
    return 0;
}

/* A pair or triple of finite numbers, each > 0 (the sizes >= 0). */
static int get_tuple(const json_t *x, int k, double *v)
{
    if (!json_is_array(x) || json_array_size(x) != (size_t)k)
        return -1;
    for (int i = 0; i < k; i++) {
        const json_t *y = json_array_get(x, (size_t)i);
        if (!json_is_number(y))
            return -1;
        v[i] = json_number_value(y);
        if (!isfinite(v[i]) || v[i] < 0 || (i == k - 1 && v[i] <= 0))
            return -1;
    }
    return 0;
}

/* Into *inner, where the member object j of outer lies (its path extended by .member): 0,
 * or CF_EXIT_DATA where j is no object. */
static int enter(const json_t *j, const where *outer, const char *member, where *inner)
{
    if (!json_is_object(j))
        return bad(outer, member, "an object");
    *inner = *outer;
    snprintf(inner->path, sizeof inner->path, "%.80s.%s", outer->path, member);
    return 0;
}

/* The grid's tiers (commfit-formats(5)): base_us >= 0, rendezvous, probed_ranks, 1 to 8 blocks
 * [ranks, extra_us], whole ranks >= 2 increasing, extra_us > 0, and optionally sized, 1 to
 * 16 [bytes, [extra_us of each block]] by increasing bytes above 8, extra_us >= 0,
 * pair_us_per_byte, 1 to 62 numbers >= 0, the first 0, and pair_distance_us_per_byte, 1 to
 * 32 rows, row k of k + 1 numbers >= 0. 0 or CF_EXIT_DATA. */
static int tiers_from_json(const json_t *j, const where *outer, cf_tiers *t)
{
    where ws;
    if (enter(j, outer, "tiers", &ws) != 0)
        return CF_EXIT_DATA;
    const where *w = &ws;
    const json_t *rdv = json_object_get(j, "rendezvous"), *blocks = json_object_get(j, "blocks");
    if (get_nonneg(w, j, "base_us", &t->base_us))
        return CF_EXIT_DATA;
    if (!json_is_boolean(rdv))
        return bad(w, "rendezvous", "true or false");
    t->rendezvous = json_is_true(rdv);
    const json_t *pr = json_object_get(j, "probed_ranks");
    if (!json_is_integer(pr) || json_integer_value(pr) < 2 ||
        json_integer_value(pr) > CF_TABLE_NP_MAX)
        return bad(w, "probed_ranks", "a whole number of ranks >= 2");
    t->probed = (long)json_integer_value(pr);
    if (!json_is_array(blocks) || json_array_size(blocks) < 1 ||
        json_array_size(blocks) > CF_TIERS_MAX)
        return bad(w, "blocks", "an array of 1 to 8 [ranks, extra_us] pairs");
    for (size_t i = 0; i < json_array_size(blocks); i++) {
        double v[2];
        if (get_tuple(json_array_get(blocks, i), 2, v) != 0 || v[0] < 2 ||
            v[0] > CF_TABLE_NP_MAX || v[0] != floor(v[0]) ||
            (i > 0 && v[0] <= (double)t->ranks[i - 1]))
            return bad(w, "blocks",
                       "[ranks, extra_us] pairs by increasing whole ranks >= 2, extra_us > 0");
        t->ranks[i] = (long)v[0];
        t->extra_us[t->n++] = v[1];
    }
    /* Absent (no sized probe, or a file from before it): the 8-byte latencies at every
     * size. */
    const json_t *sized = json_object_get(j, "sized");
    if (sized != NULL) {
        static const char *want = "an array of 1 to 16 [bytes, [extra_us of each block]] by "
                                  "increasing bytes above 8, extra_us >= 0";
        if (!json_is_array(sized) || json_array_size(sized) < 1 ||
            json_array_size(sized) > CF_TIERS_SIZED_MAX)
            return bad(w, "sized", want);
        for (size_t i = 0; i < json_array_size(sized); i++) {
            const json_t *row = json_array_get(sized, i), *b = json_array_get(row, 0),
                         *ex = json_array_get(row, 1);
            double bytes = json_is_number(b) ? json_number_value(b) : -1.0;
            if (!json_is_array(row) || json_array_size(row) != 2 || !(bytes > 8) ||
                !isfinite(bytes) || (i > 0 && bytes <= t->sized_bytes[i - 1]) ||
                !json_is_array(ex) || json_array_size(ex) != (size_t)t->n)
                return bad(w, "sized", want);
            t->sized_bytes[i] = bytes;
            for (int k = 0; k < t->n; k++) {
                const json_t *v = json_array_get(ex, (size_t)k);
                double x = json_is_number(v) ? json_number_value(v) : -1.0;
                if (!(x >= 0) || !isfinite(x))
                    return bad(w, "sized", want);
                t->sized_extra_us[i][k] = x;
            }
            t->nsized = (int)i + 1;
        }
    }
    /* Absent (no pair-exchange probe, or a file from before it): no traffic replayed. */
    const json_t *pair = json_object_get(j, "pair_us_per_byte");
    if (pair != NULL && (!json_is_array(pair) || json_array_size(pair) < 1 ||
                         json_array_size(pair) > CF_TIERS_PAIR_MAX))
        return bad(w, "pair_us_per_byte", "an array of 1 to 62 numbers >= 0, the first 0");
    for (size_t i = 0; pair != NULL && i < json_array_size(pair); i++) {
        const json_t *v = json_array_get(pair, i);
        double x = json_is_number(v) ? json_number_value(v) : -1.0;
        if (!(x >= 0) || !isfinite(x) || (i == 0 && x != 0))
            return bad(w, "pair_us_per_byte", "an array of 1 to 62 numbers >= 0, the first 0");
        t->pair_us_per_byte[t->npair++] = x;
    }
    /* Absent (no distances probed, or a file from before them): the levels alone. */
    const json_t *dist = json_object_get(j, "pair_distance_us_per_byte");
    if (dist == NULL)
        return 0;
    static const char *want_dist = "an array of 1 to 32 rows, row k of k + 1 numbers >= 0";
    if (!json_is_array(dist) || json_array_size(dist) < 1 ||
        json_array_size(dist) > CF_TIERS_DIST_MAX)
        return bad(w, "pair_distance_us_per_byte", want_dist);
    for (size_t k = 0; k < json_array_size(dist); k++) {
        const json_t *row = json_array_get(dist, k);
        if (!json_is_array(row) || json_array_size(row) != k + 1)
            return bad(w, "pair_distance_us_per_byte", want_dist);
        for (size_t i = 0; i <= k; i++) {
            const json_t *v = json_array_get(row, i);
            double x = json_is_number(v) ? json_number_value(v) : -1.0;
            if (!(x >= 0) || !isfinite(x))
                return bad(w, "pair_distance_us_per_byte", want_dist);
            t->dist_us_per_byte[CF_TIERS_DIST_ROW(k) + i] = x;
        }
        t->ndist = (int)k + 1;
    }
    return 0;
}

static int grid_from_json(const json_t *j, const where *outer, const char *pattern,
                          cf_across_grid *g)
{
    where ws;
    if (enter(j, outer, "grid", &ws) != 0)
        return CF_EXIT_DATA;
    const where *w = &ws;
    const json_t *unit = json_object_get(j, "unit"), *pts = json_object_get(j, "points");
    if (get_str(w, j, "rules", g->rules, sizeof g->rules))
        return CF_EXIT_DATA;
    if (!cf_rules_known(g->rules, pattern)) {
        char names[256], expected[300];
        snprintf(expected, sizeof expected, "rules known for the pattern (%s)",
                 cf_rules_list(names, sizeof names));
        return bad(w, "rules", expected);
    }
    /* Absent (a file from before the rules read it): not known. */
    if (get_optional_int(w, j, "node_ranks", 1, CF_NODE_RANKS_MAX, &g->node_ranks))
        return CF_EXIT_DATA;
    if (!json_is_array(unit) || json_array_size(unit) < 2 || json_array_size(unit) > CF_UNIT_MAX)
        return bad(w, "unit", "an array of 2 to 64 [bytes, t_us] pairs");
    if (!json_is_array(pts) || json_array_size(pts) > CF_GRID_MAX)
        return bad(w, "points", "an array of at most 768 [np, bytes, t_us] triples");
    g->nunit = (int)json_array_size(unit);
    for (int i = 0; i < g->nunit; i++) {
        double v[2];
        if (get_tuple(json_array_get(unit, (size_t)i), 2, v) != 0 ||
            (i > 0 && v[0] <= g->unit_bytes[i - 1]))
            return bad(w, "unit", "[bytes, t_us] pairs by increasing size, times > 0");
        g->unit_bytes[i] = v[0];
        g->unit_t_us[i] = v[1];
    }
    g->n = (int)json_array_size(pts);
    for (int i = 0; i < g->n; i++) {
        double v[3];
        if (get_tuple(json_array_get(pts, (size_t)i), 3, v) != 0 || v[0] < 2 ||
            v[0] > CF_TABLE_NP_MAX || v[0] != floor(v[0]))
            return bad(w, "points", "[np, bytes, t_us] triples, np >= 2, times > 0");
        g->pt[i] = (cf_grid_point){(long)v[0], v[1], v[2]};
    }
    if (get_nonneg(w, j, "err_per_doubling", &g->err_per_doubling) ||
        get_nonneg(w, j, "step_growth", &g->step_growth))
        return CF_EXIT_DATA;
    /* Absent in a file from before it: the growth at the top alone. */
    g->step_growth_max = g->step_growth;
    if (json_object_get(j, "step_growth_max") != NULL &&
        get_nonneg(w, j, "step_growth_max", &g->step_growth_max))
        return CF_EXIT_DATA;
    /* null (no such backtest), or absent in a file from before it: the fitted model's
     * backtest alone bounds the untested trees. */
    if (get_optional_nonneg(w, j, "tree_err_per_doubling", &g->tree_err))
        return CF_EXIT_DATA;
    /* Absent (no latency tiers, or a file from before them): the trees cross none. */
    const json_t *tiers = json_object_get(j, "tiers");
    memset(&g->tiers, 0, sizeof g->tiers);
    if (tiers != NULL && tiers_from_json(tiers, w, &g->tiers) != 0)
        return CF_EXIT_DATA;
    /* Absent (1: each message sent at once takes the whole link, or a file from before
     * stop 74): 0, read as 1. */
    const json_t *load = json_object_get(j, "eager_load");
    if (load != NULL) {
        double v = json_is_number(load) ? json_number_value(load) : NAN;
        if (!(v > 0.0 && v <= 1.0))
            return bad(w, "eager_load", "a number above 0, at most 1");
        g->tiers.eager_load = v;
    }
    /* null (no such backtest), or absent (no tiers): the fitted model's backtest alone
     * bounds the tiered trees. */
    if (get_optional_nonneg(w, j, "tiered_tree_err_per_doubling", &g->tiered_tree_err))
        return CF_EXIT_DATA;
    /* Absent (no ping-pong, or a file from before it): the per-call trees use T2. */
    const json_t *msg = json_object_get(j, "message_unit");
    g->nmsg = 0;
    if (msg == NULL)
        return 0;
    if (!json_is_array(msg) || json_array_size(msg) < 2 || json_array_size(msg) > CF_UNIT_MAX)
        return bad(w, "message_unit", "an array of 2 to 64 [bytes, t_us] pairs");
    for (size_t i = 0; i < json_array_size(msg); i++) {
        double v[2];
        if (get_tuple(json_array_get(msg, i), 2, v) != 0 || (i > 0 && v[0] <= g->msg_bytes[i - 1]))
            return bad(w, "message_unit", "[bytes, t_us] pairs by increasing size, times > 0");
        g->msg_bytes[i] = v[0];
        g->msg_unit_us[g->nmsg++] = v[1];
    }
    return 0;
}

/* An across-np model's key (pattern, datatype), and that it is an object: 0 or
 * CF_EXIT_DATA. */
static int read_key(const where *w, const json_t *j, cf_across *out)
{
    if (!json_is_object(j))
        return cf_error_set(w->e, CF_EXIT_DATA, w->file, 0, "%s: expected an object", w->path);
    if (get_str(w, j, "pattern", out->pattern, sizeof out->pattern) ||
        get_str(w, j, "datatype", out->datatype, sizeof out->datatype))
        return CF_EXIT_DATA;
    return 0;
}

/* The tiers of the backtest within a tier (optional: files before it, or fits without a
 * tier crossed, have none). */
static int backtest_tiers_from_json(const json_t *j, const where *w, cf_across *out)
{
    const json_t *bt = json_object_get(j, "backtest_tiers");
    if (bt == NULL)
        return 0;
    where wb = *w;
    if (snprintf(wb.path, sizeof wb.path, "%s.backtest_tiers", w->path) >= (int)sizeof wb.path)
        return bad(w, "backtest_tiers", "a path this long"); /* never: "across_np[N]" */
    const json_t *r = json_object_get(bt, "tier_ranks");
    if (!json_is_object(bt) || !json_is_array(r) || json_array_size(r) == 0 ||
        json_array_size(r) > CF_TIERS_MAX)
        return bad(&wb, "tier_ranks", "an array of 1 to 8 increasing rank counts");
    for (size_t i = 0; i < json_array_size(r); i++) {
        const json_t *x = json_array_get(r, i);
        if (!json_is_integer(x) || json_integer_value(x) < 1 ||
            json_integer_value(x) > CF_TABLE_NP_MAX ||
            (i > 0 && json_integer_value(x) <= out->tier_ranks[i - 1]))
            return bad(&wb, "tier_ranks", "an array of 1 to 8 increasing rank counts");
        out->tier_ranks[i] = (long)json_integer_value(x);
    }
    /* probed_ranks absent (a file of the first version): no rank known past the largest np,
     * every doubling beyond it at the crossing's miss. */
    if (get_int(&wb, bt, "within_np", 2, CF_TABLE_NP_MAX, &out->within_np) ||
        get_optional_int(&wb, bt, "probed_ranks", 2, CF_TABLE_NP_MAX, &out->tier_probed))
        return CF_EXIT_DATA;
    int in = 0, n = (int)json_array_size(r);
    for (int i = 0; i + 1 < out->nnp; i++)
        in |= out->np[i] == out->within_np;
    if (!in)
        return bad(&wb, "within_np", "one of the model's np below its largest");
    /* The doubling to the largest np crossed one of them: what the backtest split is for. */
    if (out->nnp < 2 ||
        cf_tiers_between(out->tier_ranks, n, out->np[out->nnp - 2], out->np[out->nnp - 1]) == 0)
        return bad(&wb, "tier_ranks", "a boundary the doubling to the model's largest np crossed");
    if (out->tier_probed > 0 && out->tier_probed <= out->tier_ranks[n - 1])
        return bad(&wb, "probed_ranks", "more ranks than the largest of tier_ranks");
    out->ntier = n;
    return 0;
}

int cf_across_from_json(const json_t *j, const char *name, size_t index, cf_across *out,
                        cf_error *e)
{
    where w = {name, "", e};
    snprintf(w.path, sizeof w.path, "across_np[%zu]", index);
    memset(out, 0, sizeof *out);
    cf_rel_quality_clear(&out->q);
    out->grid.tree_err = out->grid.tiered_tree_err = NAN;
    if (read_key(&w, j, out) || get_nonneg(&w, j, "bytes_min", &out->bytes_min) ||
        get_nonneg(&w, j, "bytes_max", &out->bytes_max))
        return CF_EXIT_DATA;
    const json_t *np = json_object_get(j, "np");
    if (!json_is_array(np) || json_array_size(np) == 0 || json_array_size(np) > CF_ACROSS_NP_MAX)
        return bad(&w, "np", "an array of 1 to 64 process counts");
    for (size_t i = 0; i < json_array_size(np); i++) {
        const json_t *x = json_array_get(np, i);
        if (!json_is_integer(x) || json_integer_value(x) < 2 ||
            json_integer_value(x) > CF_TABLE_NP_MAX ||
            (i > 0 && json_integer_value(x) <= out->np[i - 1]))
            return bad(&w, "np", "increasing process counts of 2 or more");
        out->np[i] = (long)json_integer_value(x);
    }
    out->nnp = (int)json_array_size(np);
    const json_t *err = json_object_get(j, "error");
    if (err != NULL) {
        if (!json_is_string(err))
            return bad(&w, "error", "a string");
        snprintf(out->error, sizeof out->error, "%s", json_string_value(err));
        return 0;
    }
    const json_t *segs = json_object_get(j, "segments");
    if (!json_is_array(segs) || json_array_size(segs) == 0 ||
        json_array_size(segs) > CF_ACROSS_MAX_SEG)
        return bad(&w, "segments", "an array of 1 or 2 segments");
    out->nseg = (int)json_array_size(segs);
    for (int i = 0; i < out->nseg; i++) {
        where ws = {name, "", e};
        snprintf(ws.path, sizeof ws.path, "across_np[%zu].segments[%d]", index, i);
        int rc = seg_from_json(json_array_get(segs, (size_t)i), &ws, &out->seg[i]);
        if (rc != 0)
            return rc;
        if (i > 0 && out->seg[i].from_bytes <= out->seg[i - 1].to_bytes)
            return bad(&ws, "from_bytes", "a size above the previous segment's to_bytes");
    }
    const json_t *grid = json_object_get(j, "grid");
    if (grid != NULL && grid_from_json(grid, &w, out->pattern, &out->grid) != 0)
        return CF_EXIT_DATA;
    if (backtest_tiers_from_json(j, &w, out) != 0)
        return CF_EXIT_DATA;
    /* The barrier's waits taken from the times before the fit (files before them: none). */
    const json_t *waits = json_object_get(j, "barrier_wait_us");
    if (waits != NULL) {
        if (!json_is_array(waits) || json_array_size(waits) != (size_t)out->nnp)
            return bad(&w, "barrier_wait_us", "an array of one wait per process count in np");
        for (int i = 0; i < out->nnp; i++) {
            const json_t *x = json_array_get(waits, (size_t)i);
            if (!json_is_number(x) || !(json_number_value(x) >= 0) ||
                !isfinite(json_number_value(x)))
                return bad(&w, "barrier_wait_us", "waits in us, finite and >= 0");
            out->wait_us[i] = json_number_value(x);
            out->waited |= out->wait_us[i] > 0;
        }
        /* Replayed at every np, if at none found a wait: predict replays it at its np. */
        out->replayed = out->nnp > 0;
        /* The rules whose barrier was replayed ("": MPICH's dissemination). */
        const json_t *wr = json_object_get(j, "barrier_wait_rules");
        if (wr != NULL && (!json_is_string(wr) || (json_string_value(wr)[0] != '\0' &&
                                                   !cf_rules_exist(json_string_value(wr)))))
            return bad(&w, "barrier_wait_rules", "the name of a rule set commfit knows, or \"\"");
        snprintf(out->wait_rules, sizeof out->wait_rules, "%s",
                 wr != NULL ? json_string_value(wr) : "");
    }
    return get_quality(&w, j, &out->q);
}

/* The np=2 members of a contention entry (files before them have none: factors 0). */
static int np2_from_json(const json_t *c, const where *w, cf_contention *k)
{
    if (k->np != 2)
        return bad(w, "latency_factor", "no factors but at np=2");
    if (get_nonneg(w, c, "latency_factor", &k->lat_factor) ||
        get_nonneg(w, c, "bandwidth_factor", &k->bw_factor) ||
        get_mat(w, c, "factor_cov", 2, &k->factor_cov[0][0]) ||
        get_nonneg(w, c, "factor_s2", &k->factor_s2))
        return CF_EXIT_DATA;
    if (!(k->lat_factor > 0.0) || !(k->bw_factor > 0.0))
        return bad(w, "latency_factor", "factors > 0");
    if (k->factor_cov[0][0] < 0.0 || k->factor_cov[1][1] < 0.0)
        return bad(w, "factor_cov", "a covariance matrix (variances >= 0)");
    if (json_object_get(c, "unit") == NULL)
        return bad(w, "unit", "an array of at most 64 [bytes, t_us] pairs");
    return 0;
}

/* A contention entry's measured curve (optional but where it has factors). */
static int unit_from_json(const json_t *c, const where *w, cf_contention *k)
{
    const json_t *unit = json_object_get(c, "unit");
    if (unit == NULL)
        return 0;
    if (!json_is_array(unit) || json_array_size(unit) > CF_P2P_UNIT_MAX)
        return bad(w, "unit", "an array of at most 64 [bytes, t_us] pairs");
    k->nunit = (int)json_array_size(unit);
    for (int i = 0; i < k->nunit; i++) {
        double v[2];
        if (get_tuple(json_array_get(unit, (size_t)i), 2, v) != 0 || !(v[0] > 0.0) ||
            !(v[1] > 0.0) || (i > 0 && v[0] <= k->unit_bytes[i - 1]))
            return bad(w, "unit", "[bytes, t_us] pairs by increasing size > 0, times > 0");
        k->unit_bytes[i] = v[0];
        k->unit_t_us[i] = v[1];
    }
    return 0;
}

/* A contention entry's sizes that moved no data at np=2 (optional; np=2 only, its factors
 * then unfitted). */
static int no_transfer_from_json(const json_t *c, const where *w, size_t index,
                                 cf_contention *k)
{
    const json_t *nt = json_object_get(c, "faster_than_pingpong");
    if (nt == NULL)
        return 0;
    if (!json_is_object(nt) || k->np != 2)
        return bad(w, "faster_than_pingpong", "an object at np=2 only (sizes that moved no data)");
    where wn = *w;
    snprintf(wn.path, sizeof wn.path, CONTENTION_PATH ".faster_than_pingpong", index);
    long lo, hi;
    if (get_int(&wn, nt, "from_bytes", 1, (long)CF_BYTES_MAX, &lo) ||
        get_int(&wn, nt, "to_bytes", lo, (long)CF_BYTES_MAX, &hi))
        return CF_EXIT_DATA;
    k->no_transfer_from = (uint64_t)lo;
    k->no_transfer_to = (uint64_t)hi;
    return 0;
}

int cf_p2p_from_json(const json_t *j, const char *name, cf_p2p *out, cf_error *e)
{
    where w = {name, "p2p", e};
    memset(out, 0, sizeof *out);
    if (!json_is_object(j))
        return cf_error_set(e, CF_EXIT_DATA, name, 0, "p2p: expected an object");
    const json_t *err = json_object_get(j, "error");
    if (err != NULL) {
        if (!json_is_string(err))
            return bad(&w, "error", "a string");
        snprintf(out->error, sizeof out->error, "%s", json_string_value(err));
        return 0;
    }
    cf_hockney *h = &out->h;
    if (get_str(&w, j, "pattern", out->pattern, sizeof out->pattern) ||
        get_num(&w, j, "alpha_us", &h->alpha_us) ||
        get_num(&w, j, "beta_us_per_byte", &h->beta_us_per_byte) ||
        get_mat(&w, j, "cov", 2, &h->cov[0][0]) || get_nonneg(&w, j, "s2", &h->s2) ||
        get_quality(&w, j, &h->q) || get_nonneg(&w, j, "bytes_min", &h->bytes_min) ||
        get_nonneg(&w, j, "bytes_max", &h->bytes_max) ||
        get_nonneg(&w, j, "gamma_us_per_byte", &out->gamma_us_per_byte) ||
        get_nonneg(&w, j, "gamma_se", &out->gamma_se) ||
        get_str(&w, j, "gamma_source", out->gamma_source, sizeof out->gamma_source))
        return CF_EXIT_DATA;
    /* beta held at 0 (cf_hockney_fit): what the free fit gave it */
    if (json_object_get(j, "beta_free_fit") != NULL) {
        if (get_num(&w, j, "beta_free_fit", &h->beta_free))
            return CF_EXIT_DATA;
        if (!(h->beta_free < 0.0))
            return bad(&w, "beta_free_fit", "a number < 0 (the free fit's beta, held at 0)");
        if (h->beta_us_per_byte != 0.0)
            return bad(&w, "beta_us_per_byte", "0 where beta_free_fit is given");
        h->beta_held = 1;
    }
    const json_t *cont = json_object_get(j, "contention");
    if (!json_is_array(cont))
        return bad(&w, "contention", "an array");
    size_t n = json_array_size(cont);
    out->cont = calloc(n ? n : 1, sizeof *out->cont);
    if (out->cont == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const json_t *c = json_array_get(cont, i);
        cf_contention *k = &out->cont[i];
        where wc = {name, "", e};
        snprintf(wc.path, sizeof wc.path, CONTENTION_PATH, i);
        long np, cnt;
        if (!json_is_object(c)) {
            cf_p2p_clear(out);
            return cf_error_set(e, CF_EXIT_DATA, name, 0, "%s: expected an object", wc.path);
        }
        if (get_str(&wc, c, "pattern", k->pattern, sizeof k->pattern) ||
            get_str(&wc, c, "datatype", k->datatype, sizeof k->datatype) ||
            get_int(&wc, c, "np", 2, CF_TABLE_NP_MAX, &np) ||
            get_int(&wc, c, "n", 1, 1L << 40, &cnt) || get_nonneg(&wc, c, "median", &k->median) ||
            get_nonneg(&wc, c, "min", &k->min) || get_nonneg(&wc, c, "max", &k->max) ||
            get_nonneg(&wc, c, "sd_log", &k->sd_log)) {
            cf_p2p_clear(out);
            return CF_EXIT_DATA;
        }
        if (!(k->median > 0.0)) {
            cf_p2p_clear(out);
            return bad(&wc, "median", "a number > 0");
        }
        k->np = np;
        k->n = (int)cnt;
        out->ncont = i + 1;
        if ((json_object_get(c, "latency_factor") != NULL && np2_from_json(c, &wc, k) != 0) ||
            unit_from_json(c, &wc, k) != 0 || no_transfer_from_json(c, &wc, i, k) != 0) {
            cf_p2p_clear(out);
            return CF_EXIT_DATA;
        }
    }
    const json_t *rules = json_object_get(j, "rules");
    if (rules != NULL) {
        if (get_str(&w, j, "rules", out->rules, sizeof out->rules) ||
            !cf_rules_exist(out->rules)) {
            char names[256], expected[300];
            snprintf(expected, sizeof expected, "rules known to commfit (%s)",
                     cf_rules_list(names, sizeof names));
            cf_p2p_clear(out);
            return bad(&w, "rules", expected);
        }
    }
    if (get_optional_int(&w, j, "node_ranks", 1, CF_NODE_RANKS_MAX, &out->node_ranks)) {
        cf_p2p_clear(out);
        return CF_EXIT_DATA;
    }
    return 0;
}

/* An across-np model's key alone (pattern, datatype), checked as cf_across_from_json checks
 * it, key_only set. out is zeroed already (set_load's calloc): zeroing it again would touch
 * every page of a 20 KiB struct a model, most of the cost of reading one by its key. */
static int key_from_json(const json_t *j, const char *name, size_t index, cf_across *out,
                         cf_error *e)
{
    where w = {name, "", e};
    snprintf(w.path, sizeof w.path, "across_np[%zu]", index);
    if (read_key(&w, j, out))
        return CF_EXIT_DATA;
    out->key_only = 1;
    return 0;
}

static int set_load(const json_t *across_np, const json_t *p2p, const char *name, int keys_only,
                    cf_across_set *out, cf_error *e)
{
    memset(out, 0, sizeof *out);
    if (across_np != NULL && !json_is_null(across_np)) {
        if (!json_is_array(across_np))
            return cf_error_set(e, CF_EXIT_DATA, name, 0, "across_np: expected an array");
        size_t n = json_array_size(across_np);
        out->a = calloc(n ? n : 1, sizeof *out->a);
        if (out->a == NULL)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        for (size_t i = 0; i < n; i++) {
            const json_t *x = json_array_get(across_np, i);
            int rc = keys_only ? key_from_json(x, name, i, &out->a[i], e)
                               : cf_across_from_json(x, name, i, &out->a[i], e);
            if (rc != 0) {
                cf_across_set_clear(out);
                return rc;
            }
            out->n = i + 1;
        }
    }
    if (p2p != NULL && !json_is_null(p2p)) {
        int rc = cf_p2p_from_json(p2p, name, &out->pp, e);
        if (rc != 0) {
            cf_across_set_clear(out);
            return rc;
        }
        out->have_p2p = 1;
    }
    return 0;
}

int cf_across_set_load(const json_t *across_np, const json_t *p2p, const char *name,
                       cf_across_set *out, cf_error *e)
{
    return set_load(across_np, p2p, name, 0, out, e);
}

int cf_across_set_load_keys(const json_t *across_np, const json_t *p2p, const char *name,
                            cf_across_set *out, cf_error *e)
{
    return set_load(across_np, p2p, name, 1, out, e);
}

json_t *cf_across_set_to_json(const cf_across_set *s)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < s->n && arr != NULL; i++) {
        json_t *j = cf_across_to_json(&s->a[i]);
        if (j == NULL || json_array_append_new(arr, j) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    }
    return arr;
}
