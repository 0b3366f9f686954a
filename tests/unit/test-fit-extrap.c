/* A per-np fit beyond its measured sizes: the backtest in size that widens its interval
 * per doubling of m, against tables made from known formulas (exact, and with a cache's
 * edge the fit barely sees), and the backtest in the model file. */
#include "config.h"

#include <gsl/gsl_errno.h>

#include "fitdata.h"
#include "fit/model.h"
#include "modelfile/modelfile.h"
#include "tap.h"

#define ALPHA 2.5         /* us */
#define BETA (1 / 9000.0) /* us per byte */

/* Hockney below edge_bytes; from there the time per byte is slow times larger (the
 * message no longer fits a cache). */
static double cost(double m, double edge_bytes, double slow)
{
    return ALPHA + BETA * m * (m >= edge_bytes ? slow : 1.0);
}

/* Ping-pong rows at the default sizes from lo to hi bytes (size_at indices), with seeded
 * multiplicative noise sd (0: exact). */
static void table(rows *v, int lo, int hi, double edge_bytes, double slow, gsl_rng *rng, double sd)
{
    for (int k = lo; k <= hi; k++) {
        double m = (double)size_at(k);
        rows_add(v, "pingpong", 2, "byte", size_at(k), 0,
                 cost(m, edge_bytes, slow) * noise(rng, sd), 1);
    }
}

/* Exact Hockney, 0 to 4 MiB: the refit up to 2 MiB reads 4 MiB exactly, and the interval
 * 2 doublings beyond is the regression's own. */
static void exact(void)
{
    rows v = {0};
    table(&v, 0, 23, INFINITY, 1.0, NULL, 0);
    cf_fit_input in = input_of(&v, "pingpong np 2 byte");
    cf_fit f;
    cf_error e;
    ok(cf_fit_group("auto", &in, &f, &e) == 0, "exact: auto fits");
    is_int(f.bt.refits, 3, "exact: refitted up to 2 MiB, and 1 MiB and 512 KiB below");
    is_int(f.bt.n, 3, "exact: the backtest reads 3 sizes (4 MiB, 2 MiB, 1 MiB), one a refit");
    is_int((long long)f.bt.fitted_to_bytes, 2097152, "exact: refitted up to a half, 2 MiB");
    ok(f.bt.err_per_doubling < 1e-6, "exact: it misses nothing (%.2g per doubling)",
       f.bt.err_per_doubling);
    ok(f.bt.model_weight > 1 - 1e-9, "exact: beyond, the model alone against the trend (%.9f)",
       f.bt.model_weight);
    cf_prediction p, q;
    cf_fit_predict(&f, 16777216, &p);
    cf_fit_predict_unwidened(&f, 16777216, 0, &q);
    near(p.doublings, 2.0, 1e-12, "exact: 16 MiB is 2 doublings beyond");
    ok(p.t_us == q.t_us && p.widen < 1 + 1e-5 && fabs(p.hi_us / q.hi_us - 1) < 1e-5,
       "exact: the point estimate is the model's, the interval hardly widened (x%.7f)", p.widen);
    cf_fit_predict(&f, 3e6, &p);
    ok(p.doublings == 0 && p.widen == 1.0, "exact: inside the measured sizes, no widening");
    /* With its points the top octaves' slopes (0.979, 0.989, 0.994) turn toward 1 as the
     * bandwidth takes over: a little widening, and no more. */
    ok(cf_fit_keep_points(&f, &in) == 0, "exact: keeps its points");
    double k = cf_fit_slope_turn(&f, 0);
    ok(k > 0 && k < 0.02, "exact: the slope turns %.3g a doubling at the top", k);
    cf_fit_predict(&f, 16777216, &p);
    ok(p.turn == k && p.widen > 1 && p.widen < 1.05, "exact: 16 MiB widened x%.4g by it",
       p.widen);
    cf_fit_clear(&f);
    rows_free(&v);
}

/* The cache-edge fit: auto on ping-pong rows measured to 1 MiB with 2% noise (seed 11),
 * the bandwidth halving from 1 MiB (the largest size only). cf_fit_group's status. */
static int edge_fit(cf_fit *f, cf_error *e)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 11);
    rows v = {0};
    table(&v, 0, 21, 1048576, 2.0, rng, 0.02);
    cf_fit_input in = input_of(&v, "pingpong np 2 byte");
    int rc = cf_fit_group("auto", &in, f, e);
    rows_free(&v);
    gsl_rng_free(rng);
    return rc;
}

/* The cache-edge fit and the truth at 2 to 16 MiB on the slow line: the backtest (refit up
 * to 512 KiB, read at 1 MiB) sees the edge, and the widened intervals hold the truth
 * beyond, which the regression's own interval does not. */
static void cache_edge(void)
{
    cf_fit f;
    cf_error e;
    ok(edge_fit(&f, &e) == 0, "cache edge: auto fits (%s)", f.model);
    is_int((long long)f.bt.fitted_to_bytes, 524288, "cache edge: refitted up to 512 KiB");
    ok(f.bt.err_per_doubling > 0.1, "cache edge: the backtest misses (%.3f per doubling)",
       f.bt.err_per_doubling);
    int held = 0, held0 = 0;
    for (double m = 2097152; m <= 16777216; m *= 2) {
        cf_prediction p, q;
        double t = cost(m, 1048576, 2.0);
        cf_fit_predict(&f, m, &p);
        cf_fit_predict_unwidened(&f, m, 0, &q);
        held += p.lo_us <= t && t <= p.hi_us;
        held0 += q.lo_us <= t && t <= q.hi_us;
        ok(p.t_us == q.t_us, "cache edge: at %.0f B the point estimate is the model's", m);
    }
    is_int(held, 4, "cache edge: the widened intervals hold the truth at 2 to 16 MiB");
    ok(held0 < 4, "cache edge: the regression's own interval holds it at %d of 4", held0);
    cf_fit_clear(&f);
}

/* Sizes 4x apart (1 B, 4 B, ... 1 MiB, then 2 MiB: the simulated tables' sweep): the top
 * refit, up to 1 MiB, reads 2 MiB; the one below would be up to 256 KiB and read 1 MiB,
 * two doublings beyond it, so it is not made. */
static void sparse(void)
{
    rows v = {0};
    for (int k = 1; k <= 21; k += 2)
        table(&v, k, k, INFINITY, 1.0, NULL, 0);
    table(&v, 22, 22, INFINITY, 1.0, NULL, 0);
    cf_fit_input in = input_of(&v, "pingpong np 2 byte");
    cf_fit f;
    cf_error e;
    ok(cf_fit_group("linear", &in, &f, &e) == 0, "sparse: linear fits");
    is_int(f.bt.refits, 1, "sparse: one refit, none reading two doublings beyond its sizes");
    is_int(f.bt.n, 1, "sparse: it reads 2 MiB");
    is_int((long long)f.bt.fitted_to_bytes, 1048576, "sparse: refitted up to 1 MiB");
    cf_fit_clear(&f);
    rows_free(&v);
}

/* A step below the top: the time per byte twice as large from 512 KiB, measured to 4 MiB.
 * The refit up to 2 MiB holds three slow sizes and reads 4 MiB exactly; the refits up to
 * 1 MiB and 512 KiB hold two and one, and miss the next doubling. The backtest's quantile
 * is over the three refits, so the widening beyond holds what they missed, which the top
 * refit alone does not see: one doubling read well is no evidence that the next holds. */
static void octave_below(void)
{
    rows v = {0}, top = {0};
    table(&v, 0, 23, 524288, 2.0, NULL, 0);
    table(&top, 0, 22, 524288, 2.0, NULL, 0);
    cf_fit_input in = input_of(&v, "pingpong np 2 byte");
    cf_fit f, g;
    cf_error e;
    ok(cf_fit_group("auto", &in, &f, &e) == 0, "octave below: auto fits (%s)", f.model);
    is_int(f.bt.refits, 3, "octave below: three refits");
    is_int(f.bt.n, 3, "octave below: each reads the one size a doubling above it");
    in = input_of(&top, "pingpong np 2 byte");
    ok(cf_fit_group(f.model, &in, &g, &e) == 0, "octave below: the top refit by hand");
    cf_prediction p;
    cf_fit_predict_unwidened(&g, 4194304, 0, &p);
    double miss_top = fabs(log(cost(4194304, 524288, 2.0) / p.t_us));
    ok(miss_top < 1e-6, "octave below: the top refit alone reads 4 MiB exactly (%.2g)", miss_top);
    ok(f.bt.err_per_doubling > 0.1, "octave below: the backtest holds the refits' misses below "
                                    "(%.3f per doubling)",
       f.bt.err_per_doubling);
    cf_fit_predict(&f, 16777216, &p);
    near(p.widen, exp(2 * f.bt.err_per_doubling), 1e-12,
         "octave below: 16 MiB, 2 doublings beyond, widened by it (x%.3f)", p.widen);
    cf_fit_clear(&g);
    cf_fit_clear(&f);
    rows_free(&v);
    rows_free(&top);
}

/* Below the measured sizes: the same widening per doubling of min_bytes / bytes, 0 bytes
 * read as 1. Too few sizes below half of the largest: no backtest, the leave-one-out
 * error instead. */
static void below_and_half(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 5);
    rows v = {0};
    table(&v, 11, 23, INFINITY, 1.0, rng, 0.03); /* 1 KiB to 4 MiB */
    cf_fit_input in = input_of(&v, "pingpong np 2 byte");
    cf_fit f;
    cf_error e;
    ok(cf_fit_group("linear", &in, &f, &e) == 0, "from 1 KiB: linear fits");
    cf_prediction p, q;
    cf_fit_predict(&f, 16, &p);
    cf_fit_predict_unwidened(&f, 16, 0, &q);
    int bt = 1;
    double w = exp(6 * cf_fit_extrap_err(&f, 16, &bt));
    ok(!bt && fabs(w / exp(6 * log1p(f.q.loo_mape)) - 1) < 1e-12,
       "below the measured sizes: the leave-one-out error's widening, not the backtest's");
    ok(p.doublings == 6 && fabs(p.widen / w - 1) < 1e-12 &&
           fabs(p.hi_us / (q.hi_us * w) - 1) < 1e-12 && fabs(p.lo_us * w / q.lo_us - 1) < 1e-12,
       "16 B is 6 doublings below 1 KiB: [lo / %.4f, hi * %.4f]", w, w);
    cf_fit_predict(&f, 0, &p);
    near(p.doublings, 10.0, 1e-12, "0 B: read as 1 B, 10 doublings below");
    /* Above: the larger of the backtest (often one size's miss) and the leave-one-out. */
    cf_fit_predict(&f, 16777216, &p);
    near(p.widen, exp(2 * fmax(f.bt.err_per_doubling, log1p(f.q.loo_mape))), 1e-12,
         "16 MiB, 2 doublings beyond: the larger of backtest (%.4f) and leave-one-out (%.4f)",
         f.bt.err_per_doubling, log1p(f.q.loo_mape));
    cf_fit_clear(&f);
    rows_free(&v);

    table(&v, 11, 14, INFINITY, 1.0, rng, 0.03);
    in = input_of(&v, "pingpong np 2 byte");
    ok(cf_fit_group("linear", &in, &f, &e) == 0, "1 to 8 KiB: linear fits");
    ok(f.bt.n == 1 && f.bt.fitted_to_bytes == 4096,
       "1 to 8 KiB: refitted on 3 sizes up to 4 KiB, read at 8 KiB");
    cf_fit_clear(&f);
    rows_free(&v);

    table(&v, 11, 13, INFINITY, 1.0, rng, 0.03);
    in = input_of(&v, "pingpong np 2 byte");
    ok(cf_fit_group("linear", &in, &f, &e) == 0 && f.bt.n == 0,
       "1 to 4 KiB: 2 sizes up to 2 KiB, too few for a backtest");
    cf_fit_predict(&f, 16384, &p);
    near(p.widen, exp(2 * log1p(f.q.loo_mape)), 1e-12,
         "without one, the leave-one-out error per doubling (x%.4f at 2 doublings)", p.widen);
    cf_fit_clear(&f);
    rows_free(&v);
    gsl_rng_free(rng);
}

/* The model file of the cache-edge fit, as text. */
static char *edge_file(json_t **root)
{
    cf_fit f;
    cf_error e;
    cf_modelset *ms = cf_modelset_alloc();
    if (edge_fit(&f, &e) != 0 || cf_modelset_add(ms, &f) != 0)
        return NULL;
    *root = cf_modelset_to_json(ms, &e);
    cf_modelset_free(ms);
    return json_dumps(*root, JSON_REAL_PRECISION(17));
}

/* The model file with fits[0].size_backtest.key set to value (key NULL: size_backtest
 * removed; value NULL: key removed): read, or
 * refused with msg. Returns the set read, or NULL. */
static cf_modelset *read_with(json_t *root, const char *key, json_t *value, const char *msg)
{
    json_t *copy = json_deep_copy(root);
    json_t *fo = json_array_get(json_object_get(copy, "fits"), 0);
    if (key == NULL)
        json_object_del(fo, "size_backtest");
    else if (strcmp(key, "") == 0)
        json_object_set_new(fo, "size_backtest", value);
    else if (value == NULL)
        json_object_del(json_object_get(fo, "size_backtest"), key);
    else
        json_object_set_new(json_object_get(fo, "size_backtest"), key, value);
    char *text = json_dumps(copy, JSON_REAL_PRECISION(17));
    cf_modelset *m = NULL;
    cf_error e;
    cf_error_clear(&e);
    int rc = cf_modelset_read_mem(text, strlen(text), "m.json", &m, &e);
    if (msg != NULL) {
        const char *what = *key ? key : "size_backtest";
        is_int(rc, CF_EXIT_DATA, "%s: refused", what);
        is_str(e.msg, msg, "%s: the message names it", what);
    }
    free(text);
    json_decref(copy);
    return m;
}

static void model_file(void)
{
    json_t *root = NULL;
    char *text = edge_file(&root);
    ok(text != NULL, "the cache-edge fit written");
    json_t *bt = json_object_get(json_array_get(json_object_get(root, "fits"), 0), "size_backtest");
    ok(json_is_number(json_object_get(bt, "extrap_err_per_doubling")) &&
           json_integer_value(json_object_get(bt, "fitted_to_bytes")) == 524288 &&
           json_integer_value(json_object_get(bt, "n")) == 3 &&
           json_integer_value(json_object_get(bt, "refits")) == 3 &&
           json_is_number(json_object_get(bt, "model_weight")),
       "written as fits[].size_backtest {fitted_to_bytes, n, refits, extrap_err_per_doubling, "
       "model_weight}");
    cf_modelset *m = read_with(root, "n", json_integer(4), NULL);
    ok(m != NULL && m->fits[0].bt.n == 4 && m->fits[0].bt.refits == 3 &&
           m->fits[0].bt.err_per_doubling > 0.1,
       "read back (%.3f per doubling)", m ? m->fits[0].bt.err_per_doubling : NAN);
    cf_prediction p;
    cf_fit_predict(&m->fits[0], 8388608, &p);
    near(p.widen, exp(3 * m->fits[0].bt.err_per_doubling), 1e-12,
         "read back: widened by it 3 doublings beyond");
    cf_modelset_free(m);
    read_with(root, "extrap_err_per_doubling", json_real(-0.5),
              "fits[0].size_backtest.extrap_err_per_doubling: -0.5: expected a number "
              ">= 0");
    read_with(root, "extrap_err_per_doubling", json_null(),
              "fits[0].size_backtest.extrap_err_per_doubling: expected a finite number");
    read_with(root, "fitted_to_bytes", json_integer(1048576),
              "fits[0].size_backtest.fitted_to_bytes: 1048576 out of range: expected 1 "
              "to 1048575");
    read_with(root, "n", json_integer(0),
              "fits[0].size_backtest.n: 0 out of range: expected 1 to 2147483647");
    read_with(root, "", json_string("x"), "fits[0].size_backtest: expected an object");
    read_with(root, "refits", json_integer(0),
              "fits[0].size_backtest.refits: 0 out of range: expected 1 to 3");
    read_with(root, "refits", json_integer(4),
              "fits[0].size_backtest.refits: 4 out of range: expected 1 to 3");
    read_with(root, "n", json_integer(2),
              "fits[0].size_backtest.refits: 3 out of range: expected 1 to 2");
    m = read_with(root, "refits", NULL, NULL);
    ok(m != NULL && m->fits[0].bt.refits == 1 && m->fits[0].bt.n == 3,
       "a file from before the octaves below: read, one refit");
    cf_modelset_free(m);
    m = read_with(root, "model_weight", json_real(0.25), NULL);
    ok(m != NULL && m->fits[0].bt.model_weight == 0.25, "model_weight read back");
    cf_modelset_free(m);
    m = read_with(root, "model_weight", NULL, NULL);
    ok(m != NULL && m->fits[0].bt.model_weight == 1.0,
       "a file from before the trend was weighed: the model alone");
    cf_modelset_free(m);
    read_with(root, "model_weight", json_real(1.5),
              "fits[0].size_backtest.model_weight: 1.5: expected a number from 0 to 1");
    read_with(root, "model_weight", json_null(),
              "fits[0].size_backtest.model_weight: expected a finite number");
    m = read_with(root, NULL, NULL, NULL);
    ok(m != NULL && m->fits[0].bt.n == 0, "a file from before it: read, no backtest");
    cf_fit_predict(&m->fits[0], 8388608, &p);
    near(p.widen, exp(3 * log1p(m->fits[0].q.loo_mape)), 1e-12,
         "a file from before it: widened by the leave-one-out error per doubling");
    cf_modelset_free(m);
    m = read_with(root, "", json_null(), NULL);
    ok(m != NULL && m->fits[0].bt.n == 0, "null: read, no backtest");
    cf_modelset_free(m);
    free(text);
    json_decref(root);
}

/* A cache's capacity crossed at the largest measured size (1 MiB on a line 3 times
 * slower, 512 KiB not): the log-log chord through the two largest sizes climbs far more
 * steeply than the model's last segment. Beyond them the interval, widened per doubling,
 * also holds that chord carried on, widened the same: the model's widened interval alone
 * does not. The answer weighs the model and the trend as the backtest's refits read the
 * sizes above them, the trend rising no faster than the size there (a chord of slope
 * 2.5 is the step, not a rate): on the slow line, nearer the truth than the model. */
static void trend_beyond(void)
{
    rows v = {0};
    table(&v, 1, 21, 1048576, 3.0, NULL, 0);
    cf_fit_input in = input_of(&v, "pingpong np 2 byte");
    cf_fit f;
    cf_error e;
    int rc = cf_fit_group("auto", &in, &f, &e);
    rc = rc == 0 ? cf_fit_keep_points(&f, &in) : rc;
    ok(rc == 0, "trend beyond: auto fits, keeps its points (%s)", f.model);
    double t1 = cost(1048576, 1048576, 3.0), t0 = cost(524288, 1048576, 3.0);
    double s = log2(t1 / t0);
    for (double m = 2097152; m <= 8388608; m *= 2) {
        cf_prediction p, q;
        cf_fit_predict(&f, m, &p);
        cf_fit_predict_near(&f, m, &q);
        double tc = t1 * pow(m / 1048576, s), tw = t1 * m / 1048576, w = f.bt.model_weight;
        double truth = cost(m, 1048576, 3.0);
        /* The model's reading goes on from the measured time at 1 MiB (anchor, 1: none). */
        double a = q.anchor > 0 ? q.anchor : 1.0, pm = p.t_us * a;
        ok(w > 0 && w < 1 && fabs(q.t_us / exp(w * log(pm) + (1 - w) * log(tw)) - 1) < 1e-9 &&
               fabs(q.trend_weight - (1 - w)) < 1e-12 && fabs(q.model_t_us / pm - 1) < 1e-12,
           "trend beyond, %.0f B: the model's %.4g x%.4g x%.3f and the trend's %.4g, slope 1", m,
           p.t_us, a, w, tw);
        ok(fabs(log(q.t_us / truth)) < fabs(log(p.t_us / truth)),
           "trend beyond, %.0f B: nearer the truth %.4g (%.4g) than the model", m, truth, q.t_us);
        ok(q.lo_us <= q.t_us && q.t_us <= q.hi_us && q.lo_us <= tw && tw <= q.hi_us,
           "trend beyond, %.0f B: the interval holds the answer and the trend weighed", m);
        near(q.trend_us, tc, 1e-9, "trend beyond, %.0f B: the chord's reading (slope %.3f)", m, s);
        ok(p.hi_us < tc * p.widen && fabs(q.hi_us / (tc * p.widen) - 1) < 1e-9 &&
               q.lo_us == fmin(p.lo_us, p.lo_us * a),
           "trend beyond, %.0f B: [%.4g, %.4g] holds it widened x%.4g (the model's alone to %.4g)",
           m, q.lo_us, q.hi_us, p.widen, p.hi_us);
    }
    cf_prediction q;
    cf_fit_predict_near(&f, 1048576, &q);
    ok(q.trend_us == 0, "trend beyond: not at the largest measured size");
    cf_fit_clear(&f);
    rows_free(&v);
}

/* The largest size measured low (2 MiB at 0.3 of its line, below 1 MiB's time): the chord
 * through the top falls. The trend weighed into the answer rises no faster than the size
 * and does not fall, so the answers beyond never fall with size, and each lies in its
 * interval. */
static void dip(void)
{
    rows v = {0};
    table(&v, 1, 21, INFINITY, 1.0, NULL, 0);
    rows_add(&v, "pingpong", 2, "byte", 2097152, 0, 0.3 * cost(2097152, INFINITY, 1.0), 1);
    cf_fit_input in = input_of(&v, "pingpong np 2 byte");
    cf_fit f;
    cf_error e;
    int rc = cf_fit_group("auto", &in, &f, &e);
    rc = rc == 0 ? cf_fit_keep_points(&f, &in) : rc;
    ok(rc == 0, "dip: auto fits, keeps its points (%s, model weight %.3f)", f.model,
       f.bt.model_weight);
    double t = NAN, prev = 0;
    rc = cf_fit_trend(&f, 4194304, &t, NULL, NULL, NULL);
    ok(rc == 0 && t < 0.3 * cost(2097152, INFINITY, 1),
       "dip: the chord carried as it is falls (%.4g us at 4 MiB)", t);
    int rising = 1, inside = 1;
    for (double m = 4194304; m <= 4294967296.0; m *= 4) {
        cf_prediction q;
        cf_fit_predict_near(&f, m, &q);
        rising &= q.t_us >= prev;
        inside &= q.lo_us <= q.t_us && q.t_us <= q.hi_us;
        prev = q.t_us;
    }
    ok(rising, "dip: the answers beyond do not fall with size (%.4g us at 4 GiB)", prev);
    ok(inside, "dip: each answer lies in its interval");
    cf_fit_clear(&f);
    rows_free(&v);
}

/* Hockney on sizes 4x apart from 1 B to 64 KiB (as the simulated tables), the latency x10
 * at 64 KiB, the largest size alone past the step (SMPI's default factors step there). The
 * measured slope turned sharply at the top: the widening beyond follows its turn, not the
 * backtest's one refit alone, and holds the truth past the step (the latency stays, the
 * bandwidth is the same). */
static void latency_step(void)
{
    rows v = {0};
    for (uint64_t m = 1; m <= 65536; m *= 4)
        rows_add(&v, "bcast", 2, "byte", m, 0, (m >= 65536 ? 10 : 1) * ALPHA + BETA * m, 1);
    cf_fit_input in = input_of(&v, "bcast np 2 byte");
    cf_fit f;
    cf_error e;
    int rc = cf_fit_group("auto", &in, &f, &e);
    rc = rc == 0 ? cf_fit_keep_points(&f, &in) : rc;
    ok(rc == 0, "latency step: auto fits, keeps its points (%s)", f.model);
    double k = cf_fit_slope_turn(&f, 0);
    ok(k > 0.3, "latency step: the slope turned %.3g a doubling at the top", k);
    for (double m = 262144; m <= 2097152; m *= 2) {
        cf_prediction q;
        cf_fit_predict_near(&f, m, &q);
        double truth = 10 * ALPHA + BETA * m, d = log2(m / 65536);
        double bt = exp(cf_fit_extrap_err(&f, m, NULL) * d);
        ok(q.turn == k && q.widen > bt, "latency step, %.0f B: widened x%.4g by the turn (x%.4g "
           "by the backtest)", m, q.widen, bt);
        ok(q.lo_us <= truth && truth <= q.hi_us, "latency step, %.0f B: [%.4g, %.4g] holds %.4g",
           m, q.lo_us, q.hi_us, truth);
    }
    cf_fit_clear(&f);
    rows_free(&v);
}

/* A convex poly2 (the time per byte growing with m inside the sizes) carried beyond the
 * largest size as its tangent there, a line: its square would grow without end. */
static void poly2_tangent(void)
{
    rows v = {0};
    const double g = 1e-10; /* us per byte^2 */
    for (int k = 1; k <= 17; k++) {
        double m = (double)size_at(k);
        rows_add(&v, "pingpong", 2, "byte", size_at(k), 0, ALPHA + BETA * m + g * m * m, 1);
    }
    cf_fit_input in = input_of(&v, "pingpong np 2 byte");
    cf_fit f;
    cf_error e;
    ok(cf_fit_group("poly2", &in, &f, &e) == 0, "poly2 tangent: poly2 fits");
    double M = 65536, tM = ALPHA + BETA * M + g * M * M, dM = BETA + 2 * g * M;
    cf_prediction p;
    cf_fit_predict_unwidened(&f, 32768, 0, &p);
    near(p.t_us, ALPHA + BETA * 32768 + g * 32768.0 * 32768, 1e-6, "poly2 tangent: inside, the "
         "square");
    for (double m = 131072; m <= 16777216; m *= 8) {
        cf_fit_predict_unwidened(&f, m, 0, &p);
        near(p.t_us / (tM + dM * (m - M)), 1.0, 1e-6,
             "poly2 tangent, %.0f B: the tangent at 64 KiB, %.5g us (the square: %.5g)", m,
             p.t_us, ALPHA + BETA * m + g * m * m);
        ok(p.lo_us <= p.t_us && p.t_us <= p.hi_us, "poly2 tangent, %.0f B: in its interval", m);
    }
    cf_fit_clear(&f);
    rows_free(&v);
}

int main(void)
{
    gsl_set_error_handler_off();
    exact();
    cache_edge();
    octave_below();
    sparse();
    below_and_half();
    model_file();
    trend_beyond();
    dip();
    latency_step();
    poly2_tangent();
    return tap_done();
}
