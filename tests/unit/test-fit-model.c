/* The model file: write and read back, what the reader refuses (naming the field and the
 * file), the fields of other subcommands kept as they are, evaluation and formulas. */
#include "config.h"

#include <gsl/gsl_errno.h>
#include <unistd.h>

#include "fitdata.h"
#include "fit/fitting.h"
#include "fit/formula.h"
#include "fit/model.h"
#include "base/stats.h"
#include "modelfile/across-json.h"
#include "modelfile/modelfile.h"
#include "tap.h"

/* An across-np model of alltoall over np 2, 4, 8 and a point-to-point estimate, as the
 * fit makes them (fit/across.h). */
static void sample_across(cf_across_set *as)
{
    as->a = calloc(1, sizeof *as->a);
    as->n = 1;
    cf_across *a = &as->a[0];
    snprintf(a->pattern, sizeof a->pattern, "alltoall");
    snprintf(a->datatype, sizeof a->datatype, "byte");
    a->nnp = 3;
    a->np[0] = 2, a->np[1] = 4, a->np[2] = 8;
    a->bytes_min = 1, a->bytes_max = 4096;
    a->nseg = 1;
    cf_across_seg *sg = &a->seg[0];
    sg->from_bytes = 1, sg->to_bytes = 4096;
    snprintf(sg->algorithm, sizeof sg->algorithm, "pairwise exchange");
    sg->nbasis = 2;
    cf_cterm_sum_parse("(p-1)", &sg->basis[0]);
    cf_cterm_sum_parse("(p-1)*m", &sg->basis[1]);
    sg->coef[0] = 1.25, sg->coef[1] = 0.001;
    sg->cov[0][0] = 0.01, sg->cov[1][1] = 1e-9, sg->cov[0][1] = sg->cov[1][0] = -1e-6;
    sg->s2 = 0.002;
    sg->q = (cf_rel_quality){36, 34, 1, 0.03, 0.09, 0.04};
    sg->tq = cf_t975(34);
    a->q = sg->q;
    as->have_p2p = 1;
    cf_p2p *pp = &as->pp;
    snprintf(pp->pattern, sizeof pp->pattern, "pingpong");
    pp->h = (cf_hockney){
        2.0, 0.0005, {{0.04, -1e-7}, {-1e-7, 1e-12}}, 0.001, {12, 10, 0, 0.02, 0.05, 0.03},
        1,   4096, 0, 0.0};
    pp->gamma_us_per_byte = 0.0002, pp->gamma_se = 0.00001;
    snprintf(pp->gamma_source, sizeof pp->gamma_source, "reduce at np 2");
    pp->ncont = 1;
    pp->cont = calloc(1, sizeof *pp->cont);
    pp->cont[0] = (cf_contention){.pattern = "alltoall",
                                  .datatype = "byte",
                                  .np = 4,
                                  .n = 12,
                                  .median = 1.5,
                                  .min = 1.1,
                                  .max = 2.2,
                                  .sd_log = 0.2};
}

/* A model set with a linear ping-pong, a piecewise alltoall and a datatype fit. */
static cf_modelset *sample(void)
{
    cf_modelset *m = cf_modelset_alloc();
    rows v = {0};
    cf_fit f;
    cf_error e = {0};
    for (int k = 0; k < 24; k++)
        rows_add(&v, "pingpong", 2, "byte", size_at(k), 0, 2 + (double)size_at(k) / 8000, 1);
    cf_fit_input in = input_of(&v, "pingpong np 2 byte");
    cf_fit_group("linear", &in, &f, &e);
    cf_modelset_add(m, &f);
    rows_free(&v);
    for (int k = 0; k < 24; k++) {
        double x = (double)size_at(k);
        rows_add(&v, "alltoall", 4, "byte", size_at(k), 0, x <= 8192 ? 3 + x / 3000 : 9 + x / 5000,
                 0);
    }
    in = input_of(&v, "alltoall np 4 byte");
    cf_fit_group("piecewise", &in, &f, &e);
    cf_modelset_add(m, &f);
    rows_free(&v);
    for (int k = 10; k < 16; k++)
        for (int b = 1; b <= 64; b *= 4)
            rows_add(&v, "pingpong", 2, "vector", size_at(k), b,
                     1.5 + (double)size_at(k) / 8000 + 0.05 * b, 1);
    in = input_of(&v, "pingpong np 2 vector");
    cf_fit_group("auto", &in, &f, &e);
    cf_modelset_add(m, &f);
    rows_free(&v);
    m->source = json_pack("{s:s}", "statistic", "median");
    sample_across(&m->across);
    return m;
}

static void round_trip(void)
{
    cf_modelset *m = sample();
    cf_error e = {0};
    is_int((int)m->nfits, 3, "sample: three fits");
    ok(cf_modelset_write("rt.json", m, &e) == 0, "write");
    cf_modelset *r = NULL;
    ok(cf_modelset_read("rt.json", &r, &e) == 0, "read back: %s", e.msg);
    if (r == NULL) {
        cf_modelset_free(m);
        return;
    }
    is_int((int)r->nfits, 3, "read back: three fits");
    for (size_t i = 0; i < r->nfits && i < m->nfits; i++) {
        const cf_fit *a = &m->fits[i], *b = &r->fits[i];
        is_str(b->model, a->model, "fit %zu: model", i);
        is_int(b->nseg, a->nseg, "fit %zu: segments", i);
        int same = b->ncoef == a->ncoef && b->dof == a->dof && b->s2 == a->s2;
        for (int k = 0; k < a->nseg; k++) {
            same &= a->seg[k].from_bytes == b->seg[k].from_bytes &&
                    a->seg[k].to_bytes == b->seg[k].to_bytes;
            for (int j = 0; j < a->ncoef; j++) {
                same &= a->seg[k].coef[j] == b->seg[k].coef[j];
                for (int l = 0; l < a->ncoef; l++)
                    same &= a->seg[k].cov[j][l] == b->seg[k].cov[j][l];
            }
        }
        ok(same, "fit %zu: coefficients, covariance, s2 and dof read back exactly", i);
        cf_prediction pa, pb;
        cf_fit_predict(a, 123456, &pa);
        cf_fit_predict(b, 123456, &pb);
        ok(pa.t_us == pb.t_us && pa.lo_us == pb.lo_us && pa.hi_us == pb.hi_us,
           "fit %zu: same prediction after the round trip", i);
        is_str(b->formula, a->formula, "fit %zu: formula", i);
    }
    json_t *ja = cf_across_set_to_json(&m->across), *jb = cf_across_set_to_json(&r->across);
    json_t *pa = cf_p2p_to_json(&m->across.pp), *pb = cf_p2p_to_json(&r->across.pp);
    ok(ja != NULL && json_equal(ja, jb), "across_np read back as it was written");
    ok(pa != NULL && r->across.have_p2p && json_equal(pa, pb), "p2p read back as it was written");
    json_decref(ja);
    json_decref(jb);
    json_decref(pa);
    json_decref(pb);
    ok(r->across.n == 1 && r->across.a[0].seg[0].coef[1] == 0.001 &&
           r->across.a[0].seg[0].cov[0][1] == -1e-6 && r->across.a[0].seg[0].tq == cf_t975(34),
       "across_np: the structs hold the coefficients, covariance and t quantile");
    ok(r->across.pp.h.alpha_us == 2.0 && r->across.pp.ncont == 1 && r->across.pp.cont[0].np == 4 &&
           r->across.pp.cont[0].median == 1.5,
       "p2p: the struct holds alpha and the contention factors");
    ok(json_equal(r->source, m->source), "source kept as it was");

    const cf_fit *f = cf_modelset_find(r, "alltoall", 4, "byte");
    ok(f != NULL && strcmp(f->model, "piecewise") == 0, "find: alltoall np 4");
    ok(cf_modelset_find(r, "alltoall", 8, "byte") == NULL, "find: nothing at np 8");
    ok(cf_modelset_find_model(r, "pingpong", 2, "vector", "datatype") != NULL,
       "find_model: the datatype fit");
    cf_modelset_free(r);
    cf_modelset_free(m);
    unlink("rt.json");
}

/* Reading text must fail with this message (after "FILE: "). */
static void refuses(const char *json, const char *msg)
{
    cf_modelset *m = NULL;
    cf_error e = {0};
    cf_error_clear(&e);
    int rc = cf_modelset_read_mem(json, strlen(json), "m.json", &m, &e);
    ok(rc == CF_EXIT_DATA && m == NULL, "refused: %s", msg);
    is_str(e.file, "m.json", "the message names the file");
    is_str(e.msg, msg, "the message names the field");
}

static void validation(void)
{
    refuses("[1]", "(top level): expected a JSON object: this is not a commfit model file");
    refuses("{\"commfit_model\": 2, \"source\": {}, \"fits\": []}",
            "commfit_model: version 2 is newer than this commfit reads (1); upgrade commfit "
            "to read this model file");
    refuses("{\"source\": {}, \"fits\": []}", "commfit_model: missing field");
    refuses("{\"commfit_model\": \"1\", \"source\": {}, \"fits\": []}",
            "commfit_model: expected an integer");
    refuses("{\"commfit_model\": 1, \"fits\": []}", "source: missing field");
    refuses("{\"commfit_model\": 1, \"source\": {}, \"fits\": {}}", "fits: expected an array");

    /* One valid fit, then broken copies of it. */
    cf_modelset *m = sample();
    cf_error e = {0};
    json_t *root = cf_modelset_to_json(m, &e);
    json_t *fit0 = json_array_get(json_object_get(root, "fits"), 0);
    struct {
        const char *key;
        json_t *value; /* NULL: removed */
        const char *msg;
    } cases[] = {
        {"pattern", NULL, "fits[0].pattern: missing field"},
        {"np", json_string("2"), "fits[0].np: expected an integer"},
        {"np", json_integer(0), "fits[0].np: 0 out of range: expected 1 to 16777216"},
        {"model", json_string("cubic"),
         "fits[0].model: unknown model 'cubic': expected constant, linear, poly2, piecewise, "
         "loggp or datatype"},
        {"segments", json_array(), "fits[0].segments: expected 1 to 1 segments, got 0"},
        {"s2", json_string("x"), "fits[0].s2: expected a number"},
        {"dof", json_integer(0), "fits[0].dof: 0 out of range: expected 1 to 2147483647"},
        {"quality", NULL, "fits[0].quality: missing field"},
        {"measured", json_object(), "fits[0].measured.min_bytes: missing field"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *copy = json_deep_copy(root);
        json_t *f = json_array_get(json_object_get(copy, "fits"), 0);
        if (cases[i].value == NULL)
            json_object_del(f, cases[i].key);
        else
            json_object_set_new(f, cases[i].key, cases[i].value);
        char *text = json_dumps(copy, 0);
        refuses(text, cases[i].msg);
        free(text);
        json_decref(copy);
    }
    /* Inside a segment. */
    json_t *copy = json_deep_copy(root);
    json_t *seg = json_array_get(
        json_object_get(json_array_get(json_object_get(copy, "fits"), 0), "segments"), 0);
    json_object_del(json_object_get(seg, "coef"), "beta_us_per_byte");
    json_object_set_new(json_object_get(seg, "coef"), "gamma", json_real(1));
    char *text = json_dumps(copy, 0);
    refuses(text, "fits[0].segments[0].coef.beta_us_per_byte: missing field");
    free(text);
    json_decref(copy);
    copy = json_deep_copy(root);
    seg = json_array_get(
        json_object_get(json_array_get(json_object_get(copy, "fits"), 0), "segments"), 0);
    json_array_set_new(json_array_get(json_object_get(seg, "cov"), 1), 0, json_string("a"));
    text = json_dumps(copy, 0);
    refuses(text, "fits[0].segments[0].cov[1][0]: expected a finite number");
    free(text);
    json_decref(copy);
    (void)fit0;

    /* Every number inside a segment, by its path: types, finiteness, the covariance's
     * shape and symmetry, the standard errors against it. */
    struct {
        const char *path; /* "coef.alpha_us", "cov[0][1]", "se", "n" ... in segments[0] */
        json_t *value;
        const char *msg;
    } segcases[] = {
        {"coef.alpha_us", json_string("x"), "fits[0].segments[0].coef.alpha_us: expected a number"},
        {"coef.alpha_us", json_null(),
         "fits[0].segments[0].coef.alpha_us: expected a finite number"},
        {"se", json_string("x"), "fits[0].segments[0].se: expected an object"},
        {"se.alpha_us", json_string("x"), "fits[0].segments[0].se.alpha_us: expected a number"},
        {"se.alpha_us", json_real(-1),
         "fits[0].segments[0].se.alpha_us: expected a finite number >= 0"},
        {"se.alpha_us", json_real(3),
         "fits[0].segments[0].se.alpha_us: 3 does not match the covariance: sqrt(cov[0][0]) = 2"},
        {"cov[0][1]", json_real(1),
         "fits[0].segments[0].cov[1][0]: 0.001 differs from cov[0][1] = 1: expected a "
         "symmetric matrix"},
        {"cov[1][1]", json_real(-1),
         "fits[0].segments[0].cov[1][1]: -1: a variance cannot be negative"},
        {"cov[1]", json_array(), "fits[0].segments[0].cov[1]: expected an array of 2 numbers"},
        {"n", json_real(1.5), "fits[0].segments[0].n: expected an integer"},
    };
    copy = json_deep_copy(root);
    seg = json_array_get(
        json_object_get(json_array_get(json_object_get(copy, "fits"), 0), "segments"), 0);
    json_object_set_new(seg, "cov", json_pack("[[f, f], [f, f]]", 4.0, 0.001, 0.001, 1e-10));
    json_object_set_new(seg, "se",
                        json_pack("{s:f, s:f}", "alpha_us", 2.0, "beta_us_per_byte", 1e-5));
    text = json_dumps(copy, 0);
    cf_modelset *ok_m = NULL;
    ok(cf_modelset_read_mem(text, strlen(text), "m.json", &ok_m, &e) == 0,
       "a hand-edited covariance, symmetric, with matching standard errors: read (%s)", e.msg);
    cf_modelset_free(ok_m);
    free(text);
    json_decref(copy);
    for (size_t i = 0; i < sizeof segcases / sizeof segcases[0]; i++) {
        copy = json_deep_copy(root);
        seg = json_array_get(
            json_object_get(json_array_get(json_object_get(copy, "fits"), 0), "segments"), 0);
        /* Round numbers to start from, which the reader accepts. */
        json_object_set_new(seg, "cov", json_pack("[[f, f], [f, f]]", 4.0, 0.001, 0.001, 1e-10));
        json_object_set_new(seg, "se",
                            json_pack("{s:f, s:f}", "alpha_us", 2.0, "beta_us_per_byte", 1e-5));
        const char *p = segcases[i].path;
        if (strncmp(p, "cov[", 4) == 0) {
            json_t *row = json_array_get(json_object_get(seg, "cov"), (size_t)(p[4] - '0'));
            if (p[6] == '\0')
                json_array_set_new(json_object_get(seg, "cov"), (size_t)(p[4] - '0'),
                                   segcases[i].value);
            else
                json_array_set_new(row, (size_t)(p[7] - '0'), segcases[i].value);
        } else if (strchr(p, '.') != NULL) {
            char obj[16];
            snprintf(obj, sizeof obj, "%.*s", (int)(strchr(p, '.') - p), p);
            json_object_set_new(json_object_get(seg, obj), strchr(p, '.') + 1, segcases[i].value);
        } else {
            json_object_set_new(seg, p, segcases[i].value);
        }
        text = json_dumps(copy, 0);
        refuses(text, segcases[i].msg);
        free(text);
        json_decref(copy);
    }
    /* Fields outside the segments. */
    struct {
        int fit;
        const char *obj, *key;
        json_t *value;
        const char *msg;
    } more[] = {
        {1, NULL, "breakpoints", json_array(),
         "fits[1].breakpoints: expected 1 breakpoints for 2 segments, got 0"},
        {1, "breakpoints[0]", "after_bytes", json_integer(4096),
         "fits[1].breakpoints[0].after_bytes: 4096: expected segments[0].to_bytes, 8192"},
        {0, "quality", "loo_mape", json_real(-0.5),
         "fits[0].quality.loo_mape: -0.5: expected a number >= 0 or null"},
        {0, "quality", "r2", json_string("high"), "fits[0].quality.r2: expected a number"},
        {0, "saturation", "peak_bytes", json_string("1M"),
         "fits[0].saturation.peak_bytes: expected an integer"},
        {0, "saturation", "rinf_MiBps", json_real(-7),
         "fits[0].saturation.rinf_MiBps: -7: expected a number >= 0 or null"},
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        copy = json_deep_copy(root);
        json_t *f = json_array_get(json_object_get(copy, "fits"), (size_t)more[i].fit);
        json_t *o = f;
        if (more[i].obj != NULL && strcmp(more[i].obj, "breakpoints[0]") == 0)
            o = json_array_get(json_object_get(f, "breakpoints"), 0);
        else if (more[i].obj != NULL)
            o = json_object_get(f, more[i].obj);
        if (!json_is_object(o)) {
            /* the sample's ping-pong carries saturation figures; make sure it is there */
            o = json_pack("{s:i}", "nmsg", 1);
            json_object_set_new(f, more[i].obj, o);
        }
        json_object_set_new(o, more[i].key, more[i].value);
        text = json_dumps(copy, 0);
        refuses(text, more[i].msg);
        free(text);
        json_decref(copy);
    }

    /* The across-np models and the point-to-point estimate are checked on reading too,
     * naming the file and the JSON path. */
    struct {
        const char *member, *key; /* key in across_np[0] or p2p; "" replaces the member */
        json_t *value;
        const char *msg;
    } acr[] = {
        {"across_np", "pattern", json_integer(3),
         "across_np[0].pattern: expected a non-empty string"},
        {"across_np", "np", json_pack("[i,i]", 4, 2),
         "across_np[0].np: expected increasing process counts of 2 or more"},
        {"across_np", "", json_object(), "across_np: expected an array"},
        {"p2p", "alpha_us", json_string("2"), "p2p.alpha_us: expected a number"},
        {"p2p", "contention", json_pack("[i]", 1), "p2p.contention[0]: expected an object"},
        {"p2p", "", json_array(), "p2p: expected an object"},
    };
    for (size_t i = 0; i < sizeof acr / sizeof acr[0]; i++) {
        json_t *copy = json_deep_copy(root);
        json_t *o = json_object_get(copy, acr[i].member);
        if (json_is_array(o))
            o = json_array_get(o, 0);
        if (acr[i].key[0] == '\0')
            json_object_set_new(copy, acr[i].member, acr[i].value);
        else
            json_object_set_new(o, acr[i].key, acr[i].value);
        char *text = json_dumps(copy, 0);
        refuses(text, acr[i].msg);
        free(text);
        json_decref(copy);
    }

    /* Not JSON at all: the line. */
    cf_modelset *r = NULL;
    cf_error_clear(&e);
    ok(cf_modelset_read_mem("{\n\"a\": ,\n}", 10, "m.json", &r, &e) == CF_EXIT_DATA &&
           e.line == 2 && strncmp(e.msg, "not valid JSON: ", 16) == 0,
       "invalid JSON: refused with its line (%ld: %s)", e.line, e.msg);
    cf_error_clear(&e);
    ok(cf_modelset_read("/nonexistent/m.json", &r, &e) == CF_EXIT_DATA &&
           strcmp(e.msg, "cannot open: No such file or directory") == 0,
       "a missing file: refused");
    cf_error_clear(&e);
    ok(cf_modelset_read(".", &r, &e) == CF_EXIT_DATA &&
           strcmp(e.msg, "is a folder, not a model file: name a .json file written by 'commfit "
                         "fit'") == 0,
       "a folder: refused as a folder (%s)", e.msg);
    json_decref(root);
    cf_modelset_free(m);
}

static void predictions(void)
{
    cf_modelset *m = sample();
    const cf_fit *lin = &m->fits[0], *pw = &m->fits[1];
    cf_prediction p;
    ok(cf_fit_predict(lin, 8192, &p) == 0, "predict inside the measured range");
    near(p.t_us, 2 + 8192 / 8000.0, 1e-9, "predict: the value");
    ok(p.lo_us <= p.t_us && p.hi_us >= p.t_us && !p.extrapolated, "predict: an interval, inside");
    ok(cf_fit_predict(lin, 1e8, &p) == 0 && p.extrapolated, "predict beyond 4 MiB: extrapolated");
    ok(cf_fit_predict(lin, -1, &p) == CF_EXIT_DATA, "predict at a negative size: refused");
    ok(cf_fit_predict(lin, NAN, &p) == CF_EXIT_DATA, "predict at NaN: refused");
    ok(cf_fit_predict(pw, 1000, &p) == 0 && p.segment == 0 && !p.in_gap, "piecewise: segment 0");
    near(p.t_us, 3 + 1000 / 3000.0, 1e-9, "piecewise: value in segment 0");
    ok(cf_fit_predict(pw, 1e6, &p) == 0 && p.segment == 1, "piecewise: segment 1");
    near(p.t_us, 9 + 1e6 / 5000, 1e-9, "piecewise: value in segment 1");
    ok(cf_fit_predict(pw, 12000, &p) == 0 && p.in_gap, "piecewise: between 8 and 16 KiB, a gap");
    /* In the gap: the straight line between segment 0 at 8 KiB and segment 1 at 16 KiB,
     * neither segment carried past its sizes; the interval is the hull of the two ends'. */
    {
        double ta = 3 + 8192 / 3000.0, tb = 9 + 16384 / 5000.0;
        near(p.t_us, ta + (tb - ta) * (12000 - 8192) / 8192.0, 1e-9,
             "piecewise gap: interpolated between the segments' ends");
        cf_prediction pa, pb;
        cf_fit_predict(pw, 8192, &pa);
        cf_fit_predict(pw, 16384, &pb);
        ok(p.lo_us == fmin(pa.lo_us, pb.lo_us) && p.hi_us == fmax(pa.hi_us, pb.hi_us),
           "piecewise gap: the interval is the hull of the intervals at its ends");
        ok(p.segment == 0, "piecewise gap: segment is the one below the gap");
    }
    /* A segment with a negative intercept past the gap is never evaluated inside it. */
    {
        cf_fit g = *pw;
        g.seg[1].coef[0] = -90;
        g.seg[1].coef[1] = 0.01; /* -90 + 0.01 m: 73.84 us at 16 KiB, 30 us at 12000 B */
        cf_fit_predict(&g, 8192, &p);
        double lo_a = p.lo_us;
        cf_fit_predict(&g, 16384, &p);
        double hi_b = p.hi_us;
        ok(cf_fit_predict(&g, 12000, &p) == 0 && p.in_gap, "negative intercept: in the gap");
        double ta = 3 + 8192 / 3000.0, tb = -90 + 0.01 * 16384;
        near(p.t_us, ta + (tb - ta) * (12000 - 8192) / 8192.0, 1e-9,
             "negative intercept: interpolated, not -90 + 0.01 * 12000");
        ok(p.lo_us == lo_a && p.hi_us == hi_b && p.lo_us > 0 && p.lo_us <= p.t_us,
           "negative intercept: the interval spans the two ends, never clipped to 0 (%g, %g)",
           p.lo_us, p.hi_us);
    }

    /* Noisy data: the interval widens with the residual spread, in proportion to T. */
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 3);
    rows v = {0};
    for (int k = 0; k < 24; k++)
        rows_add(&v, "pingpong", 2, "byte", size_at(k), 0,
                 (2 + (double)size_at(k) / 8000) * noise(rng, 0.05), 1);
    cf_fit_input in = input_of(&v, "pingpong np 2 byte");
    cf_fit f;
    cf_error e = {0};
    cf_fit_group("linear", &in, &f, &e);
    cf_prediction a, b;
    cf_fit_predict(&f, 0, &a);
    cf_fit_predict(&f, 4194304, &b);
    double ra = (a.hi_us - a.lo_us) / a.t_us, rb = (b.hi_us - b.lo_us) / b.t_us;
    ok(ra > 0.1 && ra < 0.4 && rb > 0.1 && rb < 0.4,
       "5%% noise: the 95%% prediction interval is about +/-2 sd wide, relative (%.3f, %.3f)", ra,
       rb);
    cf_fit_clear(&f);
    rows_free(&v);
    gsl_rng_free(rng);
    cf_modelset_free(m);
}

static void formulas(void)
{
    cf_modelset *m = sample();
    char buf[1024];
    const cf_fit *lin = &m->fits[0], *pw = &m->fits[1], *dt = &m->fits[2];
    is_str(lin->formula, "T(m) = 2 us + m / (7.45 GiB/s)", "text formula");
    cf_fit_formula(lin, "c", buf, sizeof buf);
    is_str(buf,
           "static inline double T_pingpong_np2(double m) { return 2 + 0.000125*m; } /* us; m in "
           "bytes */",
           "c formula");
    cf_fit_formula(lin, "gnuplot", buf, sizeof buf);
    is_str(buf, "T_pingpong_np2(m) = 2 + 0.000125*m  # us; m in bytes", "gnuplot formula");
    cf_fit_formula(lin, "latex", buf, sizeof buf);
    is_str(buf,
           "T_{\\mathrm{pingpong},\\, p=2}(m) = 2 + 0.000125\\, m \\quad "
           "[\\mu\\mathrm{s}; m \\text{ in bytes}]",
           "latex formula");
    is_str(pw->formula,
           "T(m) = 3 us + m / (2.79 GiB/s) (m <= 8 KiB); 9 us + m / (4.66 GiB/s) (m >= 16 KiB)",
           "text formula, piecewise");
    cf_fit_formula(pw, "python", buf, sizeof buf);
    is_str(buf,
           "def T_alltoall_np4(m): return (3 + 0.000333333333333333*m) if m <= 8192 else "
           "(-0.815466666666669 + 0.000799088541666667*m) if m < 16384 else 9 + 0.0002*m  "
           "# us; m in bytes",
           "python formula, piecewise");
    cf_fit_formula(pw, "c", buf, sizeof buf);
    is_str(buf,
           "static inline double T_alltoall_np4(double m) { return m <= 8192 ? 3 + "
           "0.000333333333333333*m : m < 16384 ? -0.815466666666669 + 0.000799088541666667*m : "
           "9 + 0.0002*m; } /* us; m in bytes */",
           "c formula, piecewise");
    cf_fit_formula(dt, "c", buf, sizeof buf);
    is_str(
        buf,
        "static inline double T_pingpong_vector_np2(double m, double b) { return 1.5 + 0.000125*m "
        "+ 0.05*b; } /* us; m in bytes */",
        "c formula, datatype");
    ok(cf_fit_formula(lin, "fortran", buf, sizeof buf) == -1, "an unknown language: -1");
    char small[8];
    int n = cf_fit_formula(lin, "text", small, sizeof small);
    ok(n == 7 && strlen(small) == 7, "a short buffer: truncated, terminated");
    cf_modelset_free(m);
}

/* cf_fit_check: each way a fit can lie is refused, naming the fit and the fault; a
 * negative intercept over sizes where the line stays positive is not a lie. */
static void check_refusals(void)
{
    rows v = {0};
    for (int k = 10; k < 20; k++)
        rows_add(&v, "pingpong", 2, "byte", size_at(k), 0, 2 + (double)size_at(k) / 8000, 1);
    cf_fit_input in = input_of(&v, "pingpong np 2 byte");
    cf_fit f, g;
    cf_error e = {0};
    cf_error_clear(&e);
    ok(cf_fit_group("linear", &in, &f, &e) == 0, "a linear fit: %s", e.msg);
    ok(cf_fit_check(&f, &in, &e) == 0, "a good fit passes: %s", e.msg);

    g = f;
    g.seg[0].coef[1] = NAN;
    ok(cf_fit_check(&g, &in, &e) == CF_EXIT_DATA, "a NaN coefficient: refused");
    is_str(e.msg, "pingpong np 2 byte: the linear fit gives a non-finite beta_us_per_byte (nan)",
           "and named");
    g = f;
    g.seg[0].cov[0][1] = INFINITY;
    ok(cf_fit_check(&g, &in, &e) == CF_EXIT_DATA, "an infinite covariance: refused");
    g = f;
    g.seg[0].cov[0][0] = -1e-6;
    ok(cf_fit_check(&g, &in, &e) == CF_EXIT_DATA, "a negative variance: refused");
    is_str(e.msg,
           "pingpong np 2 byte: the linear fit gives a negative variance of alpha_us (-1e-06)",
           "and named");
    g = f;
    g.s2 = NAN;
    ok(cf_fit_check(&g, &in, &e) == CF_EXIT_DATA, "a NaN residual variance: refused");
    /* Smallest size 512 B: beta * 512 = 0.064 us. */
    g = f;
    g.seg[0].coef[0] = -0.05;
    ok(cf_fit_check(&g, &in, &e) == 0, "a negative intercept, positive over the sizes: kept");
    g.seg[0].coef[0] = -1;
    ok(cf_fit_check(&g, &in, &e) == CF_EXIT_DATA, "negative at the smallest size: refused");
    is_str(e.msg,
           "pingpong np 2 byte: the linear fit gives a negative time at 512 B (-0.936 us): a "
           "cost cannot be negative there",
           "and the size named");
    cf_fit_clear(&f);
    rows_free(&v);

    /* A parabola through positive points whose vertex dips below 0 between them. */
    for (int k = 0; k <= 10; k++)
        if (k < 4 || k > 6)
            rows_add(&v, "gather", 4, "byte", (uint64_t)k * 1000, 0,
                     0.01 * (k - 5) * (k - 5) - 0.001, 0);
    in = input_of(&v, "gather np 4 byte");
    ok(cf_fit_group("poly2", &in, &f, &e) == 0, "poly2 fits the U: %s", e.msg);
    ok(cf_fit_check(&f, &in, &e) == CF_EXIT_DATA, "its vertex is negative: refused");
    is_str(e.msg,
           "gather np 4 byte: the poly2 fit gives a negative time at 5000 B (-0.001 us): a "
           "cost cannot be negative there",
           "at the vertex");
    cf_fit_clear(&f);
    ok(cf_fit_group("auto", &in, &f, &e) == 0, "auto still fits: %s", e.msg);
    ok(strcmp(f.model, "poly2") != 0 && cf_fit_check(&f, &in, &e) == 0,
       "with a candidate that passes (%s)", f.model);
    int noted = 0;
    for (size_t i = 0; i < f.nwarnings; i++)
        noted |=
            strstr(f.warnings[i], "poly2 not chosen: the poly2 fit gives a negative time") != NULL;
    ok(noted, "and notes that poly2 was not chosen");
    cf_fit_clear(&f);
    rows_free(&v);
}

/* An exact concave parabola, its time growing up to 3 MiB and falling beyond, measured to
 * 1 MiB: poly2 fits it best, but auto does not choose it (predict would carry the fall
 * past the measured sizes) and says so; poly2 asked for warns. */
static void concave(void)
{
    const double peak = 3145728;
    rows v = {0};
    for (int k = 0; k <= 20; k++) {
        double m = (double)((uint64_t)1 << k);
        rows_add(&v, "reduce", 4, "float", (uint64_t)m, 0, 2 + 1e-3 * m * (1 - m / (2 * peak)), 0);
    }
    cf_fit_input in = input_of(&v, "reduce np 4 float");
    cf_fit f;
    cf_error e;
    ok(cf_fit_group("poly2", &in, &f, &e) == 0, "concave: poly2 fits: %s", e.msg);
    near(cf_fit_peak(&f), peak, 1e-6 * peak, "concave: its time stops growing at 3 MiB");
    ok(f.nwarnings == 1 && strstr(f.warnings[0], "concave: its time falls with size from 3 MiB") ==
                               f.warnings[0],
       "concave: poly2 asked for warns (%s)", f.nwarnings ? f.warnings[0] : "none");
    cf_fit_clear(&f);
    ok(cf_fit_group("auto", &in, &f, &e) == 0, "concave: auto fits: %s", e.msg);
    ok(strcmp(f.model, "poly2") != 0 && !isfinite(cf_fit_peak(&f)),
       "concave: auto chooses a curve that does not fall (%s)", f.model);
    int noted = 0;
    for (size_t i = 0; i < f.nwarnings; i++)
        noted |= strcmp(f.warnings[i], "poly2 not chosen: concave, its time falls with size "
                                       "from 3 MiB") == 0;
    ok(noted, "concave: and says why poly2 was not chosen");
    cf_prediction p;
    cf_fit_predict(&f, 8388608, &p);
    ok(p.t_us > 2 + 1e-3 * 1048576 * 0.8, "concave: 8 MiB costs more than 1 MiB (%.4g us)",
       p.t_us);
    cf_fit_clear(&f);
    rows_free(&v);
    /* A linear fit does not bend. */
    for (int k = 0; k <= 20; k++)
        rows_add(&v, "reduce", 4, "float", (uint64_t)1 << k, 0, 2 + 1e-3 * (1 << k), 0);
    in = input_of(&v, "reduce np 4 float");
    ok(cf_fit_group("linear", &in, &f, &e) == 0 && isinf(cf_fit_peak(&f)),
       "a line never stops growing");
    cf_fit_clear(&f);
    rows_free(&v);
}

/* A datatype fit written before the step terms (alpha, beta, gamma and their 3 x 3
 * covariance) reads with delta and beta_pack 0, and predicts as it did; a fit with 4 of
 * the 5 coefficients is refused. */
static void old_datatype(void)
{
    cf_modelset *m = sample();
    cf_error e = {0};
    ok(cf_modelset_write("old.json", m, &e) == 0, "old datatype: write");
    json_error_t je;
    json_t *root = json_load_file("old.json", 0, &je);
    unlink("old.json");
    json_t *fit = json_array_get(json_object_get(root, "fits"), 2);
    ok(strcmp(json_string_value(json_object_get(fit, "model")), "datatype") == 0,
       "old datatype: the third fit is the datatype one");
    json_t *seg = json_array_get(json_object_get(fit, "segments"), 0);
    json_t *coef = json_object_get(seg, "coef"), *se = json_object_get(seg, "se");
    json_t *cov = json_object_get(seg, "cov");
    json_object_del(coef, "beta_pack_us_per_byte");
    json_object_del(se, "beta_pack_us_per_byte");
    json_array_remove(cov, 4);
    for (size_t j = 0; j < 4; j++)
        json_array_remove(json_array_get(cov, j), 4);
    char *four = json_dumps(root, 0);
    json_object_del(coef, "delta_us");
    json_object_del(se, "delta_us");
    json_array_remove(cov, 3);
    for (size_t j = 0; j < 3; j++)
        json_array_remove(json_array_get(cov, j), 3);
    char *three = json_dumps(root, 0);
    cf_modelset *r = NULL;
    ok(cf_modelset_read_mem(three, strlen(three), "old.json", &r, &e) == 0,
       "old datatype: 3 coefficients read (%s)", e.msg);
    if (r != NULL) {
        const cf_fit *f = cf_modelset_find(r, "pingpong", 2, "vector");
        const cf_fit *g = cf_modelset_find(m, "pingpong", 2, "vector");
        ok(f != NULL && f->seg[0].coef[3] == 0 && f->seg[0].coef[4] == 0 &&
               f->seg[0].cov[3][3] == 0 && f->seg[0].cov[4][4] == 0,
           "old datatype: delta and beta_pack 0, without variance");
        cf_prediction p, q;
        if (f != NULL && g != NULL) {
            cf_fit_predict_blocks(f, 5000, 16, &p);
            cf_fit_predict_blocks(g, 5000, 16, &q);
            near(p.t_us, q.t_us, 1e-12, "old datatype: predicts as written");
            near(p.hi_us, q.hi_us, 1e-12, "old datatype: the same interval");
        }
        cf_modelset_free(r);
    }
    r = NULL;
    ok(cf_modelset_read_mem(four, strlen(four), "old.json", &r, &e) == CF_EXIT_DATA &&
           strstr(e.msg, "expected 5 coefficients for model 'datatype', got 4") != NULL,
       "old datatype: 4 coefficients refused (%s)", e.msg);
    cf_modelset_free(r);
    free(three);
    free(four);
    json_decref(root);
    cf_modelset_free(m);
}

int main(void)
{
    gsl_set_error_handler_off();
    old_datatype();
    round_trip();
    validation();
    predictions();
    formulas();
    check_refusals();
    concave();
    return tap_done();
}
