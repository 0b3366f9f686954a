/* The model file: the fitted models in memory and their JSON form as written (the
 * reader is modelfile-read.c). */
#include "config.h"

#include "modelfile/modelfile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "fit/fitting.h"
#include "modelfile/across-json.h"
#include "fit/model.h"
#include "base/outfile.h"
#include "base/size.h"

cf_modelset *cf_modelset_alloc(void)
{
    return calloc(1, sizeof(cf_modelset));
}

void cf_modelset_free(cf_modelset *m)
{
    if (m == NULL)
        return;
    for (size_t i = 0; i < m->nfits; i++)
        cf_fit_clear(&m->fits[i]);
    free(m->fits);
    json_decref(m->source);
    cf_across_set_clear(&m->across);
    free(m->text);
    free(m->whole);
    free(m->name);
    free(m->fit_span);
    free(m->across_span);
    json_decref(m->json);
    free(m);
}

int cf_modelset_add(cf_modelset *m, cf_fit *f)
{
    cf_fit *nf = cf_grow(m->fits, &m->cap, m->nfits, sizeof *nf, 16);
    if (nf == NULL)
        return -1;
    m->fits = nf;
    m->fits[m->nfits++] = *f;
    memset(f, 0, sizeof *f);
    return 0;
}

const cf_fit *cf_modelset_find_model(const cf_modelset *m, const char *pattern, int np,
                                     const char *datatype, const char *model)
{
    for (size_t i = 0; i < m->nfits; i++) {
        const cf_fit *f = &m->fits[i];
        if (f->np == np && strcmp(f->pattern, pattern) == 0 &&
            (datatype == NULL || strcmp(f->datatype, datatype) == 0) &&
            (model == NULL || strcmp(f->model, model) == 0))
            return f;
    }
    return NULL;
}

const cf_fit *cf_modelset_find(const cf_modelset *m, const char *pattern, int np,
                               const char *datatype)
{
    return cf_modelset_find_model(m, pattern, np, datatype, NULL);
}

/* ---- writing ---- */

/* JSON has no NaN or infinity: those become null. */
static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static int set(json_t *o, const char *key, json_t *v)
{
    return v == NULL || json_object_set_new(o, key, v) != 0 ? -1 : 0;
}

/* A finished object, or NULL (and o freed) when any member failed. */
static json_t *done(json_t *o, int bad)
{
    if (bad || o == NULL) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *segment_json(const cf_fit *f, const cf_segment *s)
{
    json_t *so = json_object(), *coef = json_object(), *se = json_object(), *cov = json_array();
    int bad = so == NULL || coef == NULL || se == NULL || cov == NULL;
    for (int j = 0; j < f->ncoef && !bad; j++) {
        bad |= set(coef, f->coef_names[j], num(s->coef[j]));
        bad |= set(se, f->coef_names[j], num(sqrt(s->cov[j][j])));
        json_t *row = json_array();
        bad |= row == NULL;
        for (int l = 0; l < f->ncoef && !bad; l++)
            bad |= json_array_append_new(row, num(s->cov[j][l]));
        bad |= json_array_append_new(cov, row);
    }
    bad |= set(so, "from_bytes", json_integer((json_int_t)s->from_bytes));
    bad |= set(so, "to_bytes", json_integer((json_int_t)s->to_bytes));
    bad |= set(so, "n", json_integer(s->n));
    bad |= set(so, "coef", coef);
    bad |= set(so, "se", se);
    bad |= set(so, "cov", cov);
    /* The datatype model's cost per block in this segment, as the summary gives it:
     * read-only, predict uses the coefficients. */
    double g, glo, ghi;
    if (cf_fit_per_block(f, (int)(s - f->seg), &g, &glo, &ghi) == 0) {
        json_t *pb = json_object();
        bad |= pb == NULL;
        bad |= set(pb, "ns", num(g));
        bad |= set(pb, "lo_ns", num(glo));
        bad |= set(pb, "hi_ns", num(ghi));
        bad |= set(so, "per_block", pb);
    }
    return done(so, bad);
}

/* "segments" and "breakpoints" (the segments' ends, repeated for a reader). */
static int segments_json(json_t *o, const cf_fit *f)
{
    json_t *segs = json_array();
    int bad = segs == NULL;
    for (int k = 0; k < f->nseg && !bad; k++)
        bad |= json_array_append_new(segs, segment_json(f, &f->seg[k]));
    bad |= set(o, "segments", segs);
    json_t *bps = json_array();
    for (int k = 0; k + 1 < f->nseg && bps != NULL; k++) {
        json_t *b = json_object();
        bad |= set(b, "after_bytes", json_integer((json_int_t)f->seg[k].to_bytes));
        bad |= set(b, "before_bytes", json_integer((json_int_t)f->seg[k + 1].from_bytes));
        bad |= json_array_append_new(bps, b);
    }
    bad |= set(o, "breakpoints", bps);
    return bad;
}

static json_t *quality_json(const cf_quality *fq)
{
    json_t *q = json_object();
    int bad = q == NULL;
    bad |= set(q, "n", json_integer(fq->n));
    bad |= set(q, "dof", json_integer(fq->dof));
    bad |= set(q, "loo_mape", num(fq->loo_mape));
    bad |= set(q, "max_rel_err", num(fq->max_rel_err));
    bad |= set(q, "r2", num(fq->r2));
    bad |= set(q, "aicc", num(fq->aicc));
    return done(q, bad);
}

/* The backtest in size, or null where none was made. */
static json_t *size_backtest_json(const cf_size_backtest *bt)
{
    if (bt->n <= 0)
        return json_null();
    json_t *o = json_object();
    int bad = o == NULL;
    bad |= set(o, "fitted_to_bytes", json_integer((json_int_t)bt->fitted_to_bytes));
    bad |= set(o, "n", json_integer(bt->n));
    bad |= set(o, "refits", json_integer(bt->refits));
    bad |= set(o, "extrap_err_per_doubling", num(bt->err_per_doubling));
    bad |= set(o, "model_weight", num(bt->model_weight));
    return done(o, bad);
}

/* One end of the backtest in blocks, or null where none was made. */
static json_t *blocks_end_json(const cf_blocks_end *b)
{
    if (b->n <= 0)
        return json_null();
    json_t *o = json_object();
    int bad = o == NULL;
    bad |= set(o, "fitted_blocks", json_integer(b->fitted_blocks));
    bad |= set(o, "n", json_integer(b->n));
    bad |= set(o, "refits", json_integer(b->refits));
    bad |= set(o, "extrap_err_per_doubling", num(b->err_per_doubling));
    return done(o, bad);
}

static json_t *blocks_backtest_json(const cf_blocks_backtest *bt)
{
    json_t *o = json_object();
    int bad = o == NULL;
    bad |= set(o, "above", blocks_end_json(&bt->above));
    bad |= set(o, "below", blocks_end_json(&bt->below));
    return done(o, bad);
}

static json_t *saturation_json(const cf_saturation *s)
{
    if (s->nmsg <= 0)
        return json_null();
    json_t *so = json_object();
    int bad = so == NULL;
    bad |= set(so, "nmsg", json_integer(s->nmsg));
    bad |= set(so, "rinf_MiBps", num(s->rinf_MiBps));
    bad |= set(so, "rinf_lo_MiBps", num(s->rinf_lo_MiBps));
    bad |= set(so, "rinf_hi_MiBps", num(s->rinf_hi_MiBps));
    bad |= set(so, "n_half_bytes", num(s->n_half_bytes));
    bad |= set(so, "m90_bytes", num(s->m90_bytes));
    bad |= set(so, "half_perf_segment",
               s->half_segment >= 0 ? json_integer(s->half_segment) : json_null());
    bad |= set(so, "half_perf_rinf_MiBps", num(s->half_rinf_MiBps));
    bad |= set(so, "peak_MiBps", num(s->peak_MiBps));
    bad |= set(so, "peak_bytes", json_integer((json_int_t)s->peak_bytes));
    bad |= set(so, "last_MiBps", num(s->last_MiBps));
    bad |= set(so, "plateau_MiBps", num(s->plateau_MiBps));
    bad |= set(so, "flat_from_bytes", num(s->flat_from_bytes));
    bad |= set(so, "falls_beyond_bytes", num(s->falls_beyond_bytes));
    return done(so, bad);
}

/* Rejected or set-aside points; reason, when not NULL, is written with each. */
static json_t *points_json(const cf_rejected *pts, size_t n, const char *reason)
{
    json_t *a = json_array();
    int bad = a == NULL;
    for (size_t i = 0; i < n && !bad; i++) {
        json_t *r = json_object();
        bad |= set(r, "bytes", json_integer((json_int_t)pts[i].bytes));
        bad |= set(r, "blocks", json_integer(pts[i].blocks));
        bad |= set(r, "t_us", num(pts[i].t_us));
        bad |= set(r, "rel_err", num(pts[i].rel_err));
        if (reason != NULL)
            bad |= set(r, "reason", json_string(reason));
        bad |= json_array_append_new(a, r);
    }
    return done(a, bad);
}

static json_t *gain_json(const cf_gain *gain, size_t n)
{
    json_t *g = json_array();
    int bad = g == NULL;
    for (size_t i = 0; i < n && !bad; i++) {
        json_t *r = json_object();
        bad |= set(r, "bytes", json_integer((json_int_t)gain[i].bytes));
        bad |= set(r, "blocks", json_integer(gain[i].blocks));
        bad |= set(r, "t_us", num(gain[i].t_us));
        bad |= set(r, "t_pack_us", num(gain[i].t_pack_us));
        bad |= set(r, "gain_pct", num(gain[i].gain_pct));
        bad |= json_array_append_new(g, r);
    }
    return done(g, bad);
}

static json_t *fit_to_json(const cf_fit *f)
{
    json_t *o = json_object();
    int bad = o == NULL;
    bad |= set(o, "pattern", json_string(f->pattern));
    bad |= set(o, "np", json_integer(f->np));
    bad |= set(o, "datatype", json_string(f->datatype));
    bad |= set(o, "blocks", json_integer(f->blocks));
    bad |= set(o, "model", json_string(f->model));
    bad |= segments_json(o, f);
    bad |= set(o, "s2", num(f->s2));
    bad |= set(o, "dof", json_integer(f->dof));
    bad |= set(o, "quality", quality_json(&f->q));
    bad |= set(o, "size_backtest", size_backtest_json(&f->bt));
    bad |= set(o, "anchor_weight", num(f->bt.anchor_weight));
    /* A fit without a block term has no count to extrapolate in, and its file stays as it
     * was. */
    if (f->blocks > 0)
        bad |= set(o, "blocks_backtest", blocks_backtest_json(&f->bbt));
    bad |= set(o, "saturation", saturation_json(&f->sat));
    json_t *meas = json_object();
    bad |= set(meas, "min_bytes", json_integer((json_int_t)f->min_bytes));
    bad |= set(meas, "max_bytes", json_integer((json_int_t)f->max_bytes));
    bad |= set(meas, "min_blocks", json_integer(f->min_blocks));
    bad |= set(meas, "max_blocks", json_integer(f->max_blocks));
    bad |= set(o, "measured", meas);
    if (f->npoints > 0) {
        json_t *pts = json_array();
        /* A datatype fit's points at every block count say which; others' are at the
         * fit's own. */
        for (size_t i = 0; i < f->npoints && pts != NULL; i++) {
            const cf_measured *pt = &f->points[i];
            bad |= json_array_append_new(
                pts, f->blocks > 0
                         ? json_pack("[I,f,i]", (json_int_t)pt->bytes, pt->t_us, pt->blocks)
                         : json_pack("[I,f]", (json_int_t)pt->bytes, pt->t_us));
        }
        bad |= set(o, "points", pts);
        if (f->points_sd_log > 0)
            bad |= set(o, "points_sd_log", num(f->points_sd_log));
    }
    bad |= set(o, "rejected", points_json(f->rejected, f->nrejected, NULL));
    if (f->nset_aside > 0)
        bad |= set(o, "set_aside", points_json(f->set_aside, f->nset_aside, f->set_aside_why));
    if (f->ngain > 0)
        bad |= set(o, "gain_over_pack", gain_json(f->gain, f->ngain));
    if (f->pair_from_bytes > 0) {
        json_t *pb = json_object();
        bad |= pb == NULL;
        bad |= set(pb, "from_bytes", json_integer((json_int_t)f->pair_from_bytes));
        bad |= set(pb, "to_bytes", json_integer((json_int_t)f->pair_to_bytes));
        bad |= set(o, "faster_than_pingpong", pb);
    }
    json_t *w = json_array();
    for (size_t i = 0; i < f->nwarnings && w != NULL; i++)
        bad |= json_array_append_new(w, json_string(f->warnings[i]));
    bad |= set(o, "warnings", w);
    bad |= set(o, "formula", json_string(f->formula));
    return done(o, bad);
}

json_t *cf_modelset_to_json(const cf_modelset *m, cf_error *e)
{
    int held = 0;
    for (size_t i = 0; i < m->across.n; i++)
        held |= m->across.a[i].key_only;
    for (size_t i = 0; i < m->nfits; i++)
        held |= m->fits[i].key_only;
    if (held) {
        cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                     "a model set read by its keys holds parts by their key alone: it cannot "
                     "be written");
        return NULL;
    }
    json_t *root = json_object(), *fits = json_array();
    int bad = root == NULL || fits == NULL;
    bad |= set(root, "commfit_model", json_integer(CF_MODEL_MAJOR));
    bad |= set(root, "commfit", json_string(PACKAGE_VERSION));
    bad |= set(root, "source", m->source ? json_incref(m->source) : json_object());
    for (size_t i = 0; i < m->nfits && !bad; i++)
        bad |= json_array_append_new(fits, fit_to_json(&m->fits[i]));
    bad |= set(root, "fits", fits);
    bad |= set(root, "across_np", cf_across_set_to_json(&m->across));
    if (m->across.have_p2p)
        bad |= set(root, "p2p", cf_p2p_to_json(&m->across.pp));
    if (bad) {
        json_decref(root);
        cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        return NULL;
    }
    return root;
}

int cf_modelset_write(const char *path, const cf_modelset *m, cf_error *e)
{
    json_t *root = cf_modelset_to_json(m, e);
    if (root == NULL)
        return CF_EXIT_DATA;
    cf_outfile o;
    int rc = cf_outfile_open(&o, path, e);
    if (rc == 0) {
        if (json_dumpf(root, o.fp, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0 ||
            fputc('\n', o.fp) == EOF) {
            cf_outfile_abort(&o);
            rc = cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot write: %s", strerror(errno));
        } else {
            rc = cf_outfile_commit(&o, e);
        }
    }
    json_decref(root);
    return rc;
}
