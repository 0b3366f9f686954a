/* The across-np fit and the point-to-point estimate against known answers: data made
 * from algorithm formulas, with and without seeded noise, and the model-file forms. */
#include "config.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#include "fit/across-int.h"
#include "fit/across.h"
#include "modelfile/across-json.h"
#include "tap.h"

static const long NPS[] = {2, 4, 8, 16};
#define NNP 4
#define NSIZES 23 /* 0, then 1 .. 2 MiB in powers of two */

static double size_at(int i)
{
    return i == 0 ? 0.0 : ldexp(1.0, i - 1);
}

/* The time of algorithm `alg` below switch_bytes and of algorithm `alg2` above (MPICH
 * switches at fixed sizes), with alpha, beta, gamma. */
typedef struct truth_t {
    const cf_coll *c;
    int alg, alg2;
    double switch_bytes;
    double alpha, beta, gamma;
} truth_t;

static double truth(const truth_t *w, long p, double m)
{
    double f[3];
    cf_coll_alg_factors(&w->c->algs[m <= w->switch_bytes ? w->alg : w->alg2], p, m, f);
    return w->alpha * f[0] + w->beta * f[1] + w->gamma * f[2];
}

/* Points of the truth at NPS x sizes, times exp(noise * N(0,1)). */
static size_t make_points(const truth_t *w, double noise, gsl_rng *r, cf_point *pts)
{
    size_t n = 0;
    for (int a = 0; a < NNP; a++)
        for (int i = 0; i < NSIZES; i++) {
            double t = truth(w, NPS[a], size_at(i));
            if (noise > 0.0)
                t *= exp(noise * gsl_ran_gaussian(r, 1.0));
            pts[n++] = (cf_point){NPS[a], size_at(i), t};
        }
    return n;
}

/* Largest relative error of the model against the truth at p over the sizes. */
static double worst_at(const cf_across *a, const truth_t *w, long p)
{
    double worst = 0.0;
    for (int s = 0; s < NSIZES + 2; s++) {
        cf_estimate est;
        cf_across_predict(a, p, size_at(s), &est);
        double want = truth(w, p, size_at(s));
        worst = fmax(worst, fabs(est.t_us - want) / want);
    }
    return worst;
}

static void hockney(void)
{
    double m[NSIZES], t[NSIZES];
    for (int i = 0; i < NSIZES; i++) {
        m[i] = size_at(i);
        t[i] = 1.5 + m[i] / 5000.0;
    }
    cf_hockney h;
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_hockney_fit(m, t, NSIZES, 1, &h, &e), 0, "hockney: exact data fits");
    near(h.alpha_us, 1.5, 1e-9, "hockney: alpha recovered");
    near(h.beta_us_per_byte, 2e-4, 1e-9, "hockney: beta recovered");
    ok(h.q.max_rel_err < 1e-9 && h.q.n == NSIZES && h.q.dof == NSIZES - 2,
       "hockney: quality of an exact fit");
    double slow[NSIZES];
    memcpy(slow, t, sizeof slow);
    slow[3] *= 30;
    slow[15] *= 8;
    is_int(cf_hockney_fit(m, slow, NSIZES, 1, &h, &e), 0, "hockney: two points 8 and 30 times slow");
    is_int(h.q.rejected, 2, "hockney: both set aside");
    near(h.alpha_us, 1.5, 1e-9, "hockney: alpha recovered without them");
    is_int(cf_hockney_fit(m, t, 2, 1, &h, &e), CF_EXIT_DATA, "hockney: two points are too few");
    is_str(e.msg, "not enough points (have 2, need 3)", "hockney: says how many it needs");
    double same[4] = {8, 8, 8, 8}, tt[4] = {1, 1.1, 0.9, 1};
    is_int(cf_hockney_fit(same, tt, 4, 1, &h, &e), CF_EXIT_DATA, "hockney: one size cannot fit");
    is_str(e.msg, "the measured points cannot separate the 2 terms", "hockney: says why");
    /* SMPI's Ethernet cluster (val/ethflat, stop 79): 1500 B faster than 1 KiB, the free
     * fit's beta negative; held at 0, alpha the times' level alone, beta's variance kept. */
    double em[5] = {4, 64, 256, 1024, 1500};
    double et[5] = {5.297904588, 5.318592103, 5.355452054, 5.973531855, 4.927842425};
    is_int(cf_hockney_fit(em, et, 5, 0, &h, &e), 0, "hockney: a ping-pong falling with size fits");
    ok(h.beta_held && h.beta_free < 0.0 && h.beta_us_per_byte == 0.0,
       "hockney: its negative beta held at 0, the free fit's kept");
    ok(h.alpha_us > 4.9 && h.alpha_us < 6.0 && h.cov[0][1] == 0.0 && h.cov[1][1] > 0.0 &&
           h.q.dof == 4,
       "hockney: alpha alone, between the times; beta's variance the free fit's");
    is_int(cf_hockney_fit(m, t, NSIZES, 1, &h, &e), 0, "hockney: a rising ping-pong fits");
    ok(!h.beta_held, "hockney: its beta is not held");
}

/* The known answer of the issue: data generated from an algorithm formula is recovered,
 * and predicting at twice the largest np is within 5% without noise. Every algorithm of
 * every pattern, alone; then MPICH-like switches between two. */
static void known_answers(void)
{
    cf_point pts[NNP * NSIZES];
    for (int i = 0; i < cf_ncolls; i++) {
        const cf_coll *c = &cf_colls[i];
        for (int g = 0; g < c->nalgs; g++) {
            truth_t w = {c, g, g, INFINITY, 2.5, 3e-4, 1.2e-4};
            size_t n = make_points(&w, 0.0, NULL, pts);
            cf_across a;
            cf_error e;
            cf_error_clear(&e);
            int rc = cf_across_fit_points(c, c->datatype, pts, n, &a, &e);
            ok(rc == 0 && a.error[0] == '\0' && a.nseg == 1 &&
                   strcmp(a.seg[0].algorithm, c->algs[g].name) == 0,
               "%s from %s: recognised (%s)", c->pattern, c->algs[g].name,
               a.nseg ? a.seg[0].algorithm : a.error);
            ok(a.q.max_rel_err < 1e-6, "%s from %s: every point within 1e-6", c->pattern,
               c->algs[g].name);
            double worst = worst_at(&a, &w, 32);
            ok(worst < 1e-6, "%s from %s: at np=32 (twice the largest) within 1e-6 (worst %.2g)",
               c->pattern, c->algs[g].name, worst);
        }
    }
    static const struct {
        const char *pattern;
        double switch_bytes;
    } sw[] = {{"alltoall", 256}, {"bcast", 8192}, {"allreduce", 2048}, {"allgather", 65536}};
    for (size_t i = 0; i < sizeof sw / sizeof sw[0]; i++) {
        const cf_coll *c = cf_coll_find(sw[i].pattern);
        truth_t w = {c, 0, 1, sw[i].switch_bytes, 2.5, 3e-4, 1.2e-4};
        size_t n = make_points(&w, 0.0, NULL, pts);
        cf_across a;
        cf_error e;
        cf_across_fit_points(c, c->datatype, pts, n, &a, &e);
        ok(a.nseg == 2 && strcmp(a.seg[0].algorithm, c->algs[0].name) == 0 &&
               strcmp(a.seg[1].algorithm, c->algs[1].name) == 0,
           "%s switching at %g B: both algorithms recognised", c->pattern, sw[i].switch_bytes);
        ok(a.nseg == 2 && a.seg[0].to_bytes == sw[i].switch_bytes &&
               a.seg[1].from_bytes == 2 * sw[i].switch_bytes,
           "%s: the switch found between %g and %g", c->pattern, sw[i].switch_bytes,
           2 * sw[i].switch_bytes);
        double worst = worst_at(&a, &w, 32);
        ok(worst < 0.05, "%s with a switch: at np=32 within 5%% (worst %.2g)", c->pattern, worst);
    }
    /* A protocol switch: one algorithm, other alpha and beta above 64 KiB. */
    const cf_coll *sc = cf_coll_find("scatter");
    cf_point both[NNP * NSIZES];
    truth_t lo = {sc, 0, 0, INFINITY, 1.0, 1e-4, 0}, hi = {sc, 0, 0, INFINITY, 20.0, 5e-5, 0};
    make_points(&lo, 0.0, NULL, pts);
    size_t n = make_points(&hi, 0.0, NULL, both);
    for (size_t i = 0; i < n; i++)
        if (pts[i].m <= 65536)
            both[i] = pts[i];
    cf_across a;
    cf_error e;
    cf_across_fit_points(sc, "byte", both, n, &a, &e);
    ok(a.nseg == 2 && a.seg[0].to_bytes == 65536 && fabs(a.seg[1].coef[0] - 20.0) < 1e-6,
       "scatter with a protocol switch at 64 KiB: two segments of the binomial tree");
}

static void noisy(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 42);
    const cf_coll *c = cf_coll_find("alltoall");
    truth_t w = {c, 1, 1, INFINITY, 1.8, 4e-4, 0};
    cf_point pts[NNP * NSIZES];
    size_t n = make_points(&w, 0.03, r, pts);
    cf_across a;
    cf_error e;
    is_int(cf_across_fit_points(c, "byte", pts, n, &a, &e), 0, "noisy alltoall fits");
    ok(a.nseg == 1 && strcmp(a.seg[0].algorithm, "pairwise exchange") == 0,
       "noisy alltoall: one segment, pairwise exchange (%d, %s)", a.nseg, a.seg[0].algorithm);
    const cf_across_seg *s = &a.seg[0];
    near(s->coef[0], 1.8, 0.05, "noisy alltoall: alpha within 5%%");
    near(s->coef[1], 4e-4, 0.03, "noisy alltoall: beta within 3%%");
    near(sqrt(s->s2), 0.03, 0.3, "residual relative sd near the 3%% noise");
    ok(a.q.loo_mape >= a.q.mape && a.q.loo_mape < 0.05,
       "leave-one-out error a little above "
       "the in-sample error (%.4f >= %.4f)",
       a.q.loo_mape, a.q.mape);
    ok(sqrt(s->cov[0][0]) > 0 && sqrt(s->cov[0][0]) < 0.05 * 1.8, "alpha has a small, "
                                                                  "positive standard error");
    /* The interval covers the truth where measured and widens away from the data. */
    int covered = 0, total = 0;
    for (int pi = 0; pi < NNP; pi++)
        for (int k = 0; k < NSIZES; k++) {
            cf_estimate est;
            cf_across_predict(&a, NPS[pi], size_at(k), &est);
            double want = truth(&w, NPS[pi], size_at(k));
            covered += est.lo_us <= want && want <= est.hi_us;
            total++;
        }
    ok(covered == total, "the 95%% interval holds the truth at every measured point (%d/%d)",
       covered, total);
    double prev = 0.0;
    int widens = 1;
    for (long p = 16; p <= 4096; p *= 4) {
        cf_estimate est;
        cf_across_predict(&a, p, 1 << 20, &est);
        double wd = est.hi_us - est.lo_us;
        widens &= wd > prev;
        prev = wd;
    }
    ok(widens, "the interval widens from np=16 to np=4096");
    cf_estimate in, out;
    cf_across_predict(&a, 8, 1 << 20, &in);
    cf_across_predict(&a, 8, 1 << 30, &out);
    ok(out.hi_us - out.lo_us > in.hi_us - in.lo_us, "and from 1 MiB to 1 GiB");
    gsl_rng_free(r);
}

static void too_few(void)
{
    const cf_coll *c = cf_coll_find("bcast");
    truth_t w = {c, 0, 0, INFINITY, 1, 1e-4, 0};
    cf_point pts[NNP * NSIZES];
    size_t n = make_points(&w, 0.0, NULL, pts);
    cf_across a;
    cf_error e;
    /* The first 2*NSIZES points are np 2 and 4. */
    is_int(cf_across_fit_points(c, "byte", pts, 2 * NSIZES, &a, &e), 0,
           "two process counts: not an error");
    is_str(a.error, "not enough process counts (have 2, need 3)", "two process counts: noted");
    ok(a.nnp == 2 && a.np[0] == 2 && a.np[1] == 4, "the measured np are kept");
    cf_point zeros[3 * 2];
    for (int i = 0; i < 6; i++)
        zeros[i] = (cf_point){NPS[i / 2], 0.0, 1.0 + i};
    is_int(cf_across_fit_points(c, "byte", zeros, 6, &a, &e), 0, "only 0 bytes: not an error");
    is_str(a.error, "fewer than 3 sizes: the size-dependent terms need 3", "only 0 bytes: noted");
    pts[0].p = 1;
    is_int(cf_across_fit_points(c, "byte", pts, n, &a, &e), CF_EXIT_DATA, "np=1 is refused");
}

static json_t *roundtrip(const cf_across *a, cf_across *b)
{
    json_t *j = cf_across_to_json(a);
    char *s = json_dumps(j, 0);
    json_error_t je;
    json_t *back = json_loads(s, 0, &je);
    cf_error e;
    cf_error_clear(&e);
    ok(j != NULL && back != NULL && cf_across_from_json(back, "m.json", 0, b, &e) == 0,
       "across-np model survives JSON (%s)", e.msg);
    free(s);
    json_decref(back);
    return j;
}

/* Sets field of the entry (or, with seg, of its first segment) and expects msg. */
static void refuses(json_t *j, int seg, const char *field, json_t *value, const char *msg)
{
    json_t *c = json_deep_copy(j);
    json_object_set_new(seg ? json_array_get(json_object_get(c, "segments"), 0) : c, field, value);
    cf_across a;
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_across_from_json(c, "m.json", 4, &a, &e), CF_EXIT_DATA, "refused: bad %s", field);
    is_str(e.msg, msg, "message for a bad %s", field);
    is_str(e.file, "m.json", "names the file");
    json_decref(c);
}

static void json_forms(void)
{
    const cf_coll *c = cf_coll_find("bcast");
    truth_t w = {c, 0, 1, 8192, 3, 2e-4, 0};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    cf_point pts[NNP * NSIZES];
    size_t n = make_points(&w, 0.02, r, pts);
    gsl_rng_free(r);
    cf_across a, b;
    cf_error e;
    cf_across_fit_points(c, "byte", pts, n, &a, &e);
    json_t *j = roundtrip(&a, &b);
    int same = 1;
    for (long p = 2; p <= 64; p *= 2)
        for (double m = 0; m < 1e7; m = 3 * m + 1) {
            cf_estimate x, y;
            cf_across_predict(&a, p, m, &x);
            cf_across_predict(&b, p, m, &y);
            same &= fabs(x.t_us - y.t_us) <= 1e-12 * x.t_us &&
                    fabs(x.hi_us - y.hi_us) <= 1e-12 * x.hi_us && x.alg == y.alg;
        }
    ok(same, "predictions identical after the round trip");
    is_str(json_string_value(json_object_get(j, "formula")),
           "binomial tree: 3.004 us * ceil(lg p) + 0.0001949 us/B * ceil(lg p)*m (0 B to 8 KiB); "
           "scatter + ring allgather: 2.999 us * (ceil(lg p) + (p-1)) + 0.0003989 us/B * "
           "(p-1)/p*m (16 KiB to 2 MiB)",
           "the formula for people");
    refuses(j, 1, "basis", json_pack("[ss]", "ceil(lg p)", "p^2"),
            "across_np[4].segments[0].basis: unknown term 'p^2' (from a newer commfit?)");
    refuses(j, 1, "coef", json_pack("[f]", 1.0),
            "across_np[4].segments[0].coef: expected an array of 2 numbers");
    refuses(j, 1, "cov", json_pack("[[f]]", 1.0),
            "across_np[4].segments[0].cov: expected a 2x2 array of numbers");
    refuses(j, 1, "to_bytes", json_real(-1.0),
            "across_np[4].segments[0].to_bytes: expected a number >= 0");
    refuses(j, 1, "from_bytes", json_real(1e9),
            "across_np[4].segments[0].to_bytes: expected a number >= from_bytes");
    refuses(j, 0, "segments", json_array(),
            "across_np[4].segments: expected an array of 1 or 2 segments");
    refuses(j, 0, "pattern", json_integer(3), "across_np[4].pattern: expected a non-empty string");
    refuses(j, 0, "np", json_pack("[ii]", 4, 2),
            "across_np[4].np: expected increasing process counts of 2 or more");
    json_decref(j);
    snprintf(a.error, sizeof a.error, "not enough process counts (have 1, need 3)");
    j = roundtrip(&a, &b);
    is_str(b.error, a.error, "a model that could not be fitted keeps its reason");
    json_decref(j);
    cf_cterm_sum sum;
    char name[64];
    ok(cf_cterm_sum_parse("ceil(lg p) + (p-1)", &sum) == 0 && sum.n == 2, "a sum of terms parses");
    cf_cterm_sum_name(&sum, name, sizeof name);
    is_str(name, "ceil(lg p) + (p-1)", "and prints back");
    ok(cf_cterm_sum_parse("ceil(lg p) + (p-1) + m", &sum) != 0, "three terms are refused");
}

static void add_row(cf_table *t, const char *pattern, int np, uint64_t bytes, const char *datatype,
                    double t_us)
{
    cf_row r;
    cf_row_init(&r);
    r.blocks = strcmp(datatype, "vector") == 0 ? 4 : 0;
    snprintf(r.pattern, sizeof r.pattern, "%s", pattern);
    snprintf(r.datatype, sizeof r.datatype, "%s", datatype);
    r.np = np;
    r.bytes = bytes;
    r.t_min_us = r.t_avg_us = r.t_max_us = t_us;
    cf_table_add(t, &r);
}

/* A two-core laptop: pingpong, alltoall and reduce at np=2 only. */
static void laptop(void)
{
    const double alpha = 0.8, beta = 1.0 / 6000.0, gamma = 2.5e-4, cont = 1.4;
    cf_table *t = cf_table_alloc();
    for (int i = 0; i < NSIZES; i++) {
        double m = size_at(i);
        add_row(t, "pingpong", 2, (uint64_t)m, "byte", alpha + beta * m);
        add_row(t, "alltoall", 2, (uint64_t)m, "byte", cont * (alpha + beta * m));
        add_row(t, "reduce", 2, (uint64_t)m, "float", alpha + (beta + gamma) * m);
        add_row(t, "pingpong", 2, (uint64_t)m, "vector", 9.0 + m);
    }
    cf_across_set s;
    char **notes = NULL;
    size_t nnotes = 0;
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_across_fit_table(t, NULL, &s, &notes, &nnotes, &e), 0,
           "laptop table: fits (%s)", e.msg);
    is_int(nnotes, 2, "one note per pattern without an across-np model");
    is_str(nnotes > 0 ? notes[0] : NULL,
           "alltoall (byte): not enough process counts (have 1, need 3); fitted per np only",
           "the note says why");
    ok(s.have_p2p && s.pp.error[0] == '\0', "a point-to-point estimate");
    near(s.pp.h.alpha_us, alpha, 1e-9, "p2p: alpha from pingpong");
    near(s.pp.h.beta_us_per_byte, beta, 1e-9, "p2p: beta from pingpong");
    near(s.pp.gamma_us_per_byte, gamma, 1e-6, "p2p: gamma from reduce at np=2");
    const cf_contention *k = cf_p2p_contention(&s.pp, "alltoall", "byte", 16);
    ok(k != NULL && k->np == 2, "alltoall contention measured at np=2");
    near(k ? k->median : 0, cont, 1e-9, "alltoall contention: measured / estimate");
    ok(cf_p2p_contention(&s.pp, "bcast", "byte", 16) == NULL, "bcast was not measured");
    ok(cf_across_set_find(&s, "alltoall", "byte") != NULL &&
           cf_across_set_find(&s, "alltoall", "byte")->error[0] != '\0',
       "alltoall's across-np entry says why it is missing");

    /* The example: alltoall at np=16 of 1 MiB, pairwise with contention 1.4. */
    cf_estimate est;
    const cf_coll *aa = cf_coll_find("alltoall");
    is_int(cf_p2p_predict(&s.pp, aa, "byte", 16, 1 << 20, &est), 0, "p2p estimate at np=16");
    /* Through alltoall's np=2 times, x1.4 the ping-pong's: that recurs at each of the 15
     * steps or is paid once a call; the estimate is the geometric middle, the interval
     * holds both. */
    double tpp = alpha + beta * 1048576.0, each = cont * 15 * tpp, once = 14 * tpp + cont * tpp;
    near(est.t_us, sqrt(each * once), 1e-9, "p2p estimate: between x1.4 per step and once");
    is_str(aa->algs[est.alg].name, "pairwise exchange", "p2p estimate: the algorithm used");
    ok(est.lo_us <= once * (1 + 1e-9) && est.hi_us >= each * (1 - 1e-9),
       "p2p interval holds both ends");
    cf_estimate bc;
    cf_p2p_predict(&s.pp, cf_coll_find("bcast"), "byte", 16, 1 << 20, &bc);
    ok(bc.hi_us / bc.t_us > 2.9 && bc.contention == 1.0,
       "an unmeasured pattern: factor 3, no contention");
    cf_across_set_clear(&s);
    cf_notes_free(notes, nnotes);

    /* Only derived-datatype rows: no key at all, still no failure. */
    cf_table *v = cf_table_alloc();
    add_row(v, "pingpong", 2, 64, "vector", 1.0);
    is_int(cf_across_fit_table(v, "mean", &s, &notes, &nnotes, &e), 0,
           "a table of derived datatypes only");
    cf_across_set_clear(&s);
    cf_notes_free(notes, nnotes);
    cf_table_free(v);

    /* No pingpong: no estimate, and the reason is kept. */
    cf_table *u = cf_table_alloc();
    add_row(u, "bcast", 2, 8, "byte", 1.0);
    cf_across_fit_table(u, "mean", &s, &notes, &nnotes, &e);
    is_str(s.pp.error, "no pingpong rows at np=2", "no pingpong: p2p says so");
    ok(cf_p2p_predict(&s.pp, aa, "byte", 4, 8, &est) == CF_EXIT_DATA,
       "no pingpong: no estimate");
    cf_across_set_clear(&s);
    cf_notes_free(notes, nnotes);
    cf_table_free(u);
    cf_table_free(t);
}

/* gamma from the table's normalized time when no reduction was measured, and the
 * statistic commfit fit chose. */
static void gamma_and_statistic(void)
{
    cf_table *t = cf_table_alloc();
    cf_table_meta_set(t, "normalized_time_us", "0.8");
    for (int i = 0; i < NSIZES; i++) {
        double m = size_at(i);
        add_row(t, "pingpong", 2, (uint64_t)m, "byte", 2.0 * (1 + 1e-4 * m));
        t->rows[t->n_rows - 1].t_med_us = 1 + 1e-4 * m;
    }
    char **notes = NULL;
    size_t nnotes = 0;
    cf_error e;
    cf_across_set s;
    is_int(cf_across_fit_table(t, "median", &s, &notes, &nnotes, &e), 0,
           "a pingpong-only table fits");
    is_int(nnotes, 0, "pingpong alone: nothing to note");
    ok(s.have_p2p, "and has a point-to-point estimate");
    near(s.pp.h.alpha_us, 1.0, 1e-9, "median: alpha from t_med_us");
    near(s.pp.gamma_us_per_byte, 1e-4, 1e-12, "gamma = normalized_time_us / 8000");
    is_str(s.pp.gamma_source, "normalized_time_us / 8000 (no reduction measured at np=2)",
           "gamma: its source said");
    cf_across_set_clear(&s);
    cf_notes_free(notes, nnotes);
    is_int(cf_across_fit_table(t, "mean", &s, &notes, &nnotes, &e), 0, "mean");
    near(s.pp.h.alpha_us, 2.0, 1e-9, "mean: alpha from t_avg_us");
    cf_across_set_clear(&s);
    cf_notes_free(notes, nnotes);
    cf_table_free(t);
}

/* An answer of three algorithms: lines switching at 1000 and 70000 B, then a curve. */
static double three_ranges(void *ctx, double m, const char **alg)
{
    int *calls = ctx;
    ++*calls;
    if (m < 1000) {
        *alg = "small";
        return 2.0 + 0.001 * m;
    }
    if (m < 70000) {
        *alg = "middle";
        return 5.0 + 0.0005 * m;
    }
    *alg = "large";
    return 0.0002 * m * (1.0 + 0.04 * sin(log(m)));
}

/* One algorithm whose curve bends at 10000 B, 10 times as steep above. */
static double bent(void *ctx, double m, const char **alg)
{
    (void)ctx;
    *alg = "one";
    return m < 10000 ? 1.0 + m : 10001.0 + 10.0 * (m - 10000.0);
}

static double none_at_64(void *ctx, double m, const char **alg)
{
    (void)ctx;
    *alg = "one";
    return m == 64 ? 0.0 : 1.0 + m;
}

/* An answer with a step inside one algorithm: x0.5 from 4000 B. */
static double stepped(void *ctx, double m, const char **alg)
{
    (void)ctx;
    *alg = "one";
    return (3.0 + 0.001 * m) * (m < 4000 ? 1.0 : 0.5);
}

/* Algorithms alternating every few sizes, up to 2 KiB, then one: more ranges than lines. */
static double alternating(void *ctx, double m, const char **alg)
{
    static const char *names[] = {"a", "b", "c"};
    (void)ctx;
    int k = m < 1 ? 0 : (int)floor(log2(m));
    *alg = k < 12 ? names[k % 3] : "d";
    return 2.0 + 0.001 * m;
}

/* The largest departure of L's lines from f at 97 sizes an octave (none of the 64 read). */
static double departs(const cf_lines *L, cf_answer_fn f, void *ctx, double top)
{
    double most = 0.0;
    const char *a;
    for (int j = 0; pow(2.0, j / 97.0) <= top; j++) {
        double m = round(pow(2.0, j / 97.0)), t = f(ctx, m, &a);
        int i = 0;
        while (i + 1 < L->n && m >= L->from[i + 1])
            i++;
        most = fmax(most, fabs(L->c0[i] + L->c1[i] * m - t) / t);
    }
    return most;
}

static void lines_through(void)
{
    cf_lines L;
    int calls = 0;
    is_int(cf_lines_through(three_ranges, &calls, 1 << 24, &L), 0, "lines through: fitted");
    is_int(L.n, 3, "lines through: one line per algorithm's range");
    ok(L.n == 3 && L.from[1] == 1000 && L.from[2] == 70000,
       "lines through: the switches to the byte");
    ok(L.nalg == 3 && strcmp(L.alg[0], "small") == 0 && strcmp(L.alg[2], "large") == 0 &&
           L.alg_from[1] == 1000 && L.alg_from[2] == 70000,
       "lines through: each range's algorithm, from its first byte");
    near(L.c0[0], 2.0, 1e-9, "lines through: an exact line's constant");
    near(L.c1[1], 0.0005, 1e-9, "lines through: an exact line's slope");
    /* The curve's departure from a line: the sine's 4%, less what the line takes up, under
     * the 10% that splits a line. */
    ok(L.worst > 0.02 && L.worst < 0.06, "lines through: the departure from a curve (%.3f)",
       L.worst);
    ok(departs(&L, three_ranges, &calls, 1 << 24) < L.worst * 1.05,
       "lines through: the departure said holds between the sizes read");
    int rc = cf_lines_through(bent, NULL, 1 << 24, &L);
    ok(rc == 0 && L.n == 2 && L.worst < 1e-9,
       "lines through: a bent curve split in two exact lines (%d, %.3g)", L.n, L.worst);
    ok(L.n == 2 && L.from[1] >= 10000 && L.from[1] <= 10001,
       "lines through: the switch within a byte of where the two lines meet (%g)",
       L.n >= 2 ? L.from[1] : 0);
    rc = cf_lines_through(stepped, NULL, 1 << 20, &L);
    ok(rc == 0 && L.n == 2 && L.from[1] == 4000,
       "lines through: a step between the sizes read, split where the answer jumps (%g)",
       L.n >= 2 ? L.from[1] : 0);
    ok(L.worst < 1e-9 && departs(&L, stepped, NULL, 1 << 20) < 1e-9,
       "lines through: exact on both sides of the step (%.3g)", L.worst);
    rc = cf_lines_through(alternating, NULL, 1 << 20, &L);
    ok(rc == 0 && L.n == 1 && L.worst < 1e-9,
       "lines through: 13 ranges of four algorithms on one line, merged (%d lines)", L.n);
    ok(L.nalg_all == 13 && L.nalg == 13 && strcmp(L.alg[12], "d") == 0 && L.alg_from[12] == 4096,
       "lines through: the algorithms listed still (%d)", L.nalg_all);
    rc = cf_lines_through(three_ranges, &calls, 102291.5, &L);
    ok(rc == 0 && L.n == 3, "lines through: a size limit that is no whole byte (it hung)");
    is_int(cf_lines_through(none_at_64, NULL, 1024, &L), -1,
           "lines through: none where the answer has no positive time");
    near(L.worst_at, 64, 0, "lines through: and where");
    char buf[1024];
    cf_lines_formula("T_x_np4", (double[]){2, 5, 0.5}, (double[]){0.001, 0.0005, 0.0002}, 3,
                     (double[]){1000, 70000}, "c", buf, sizeof buf);
    is_str(buf,
           "static inline double T_x_np4(double m) { return (m < 1000 ? (2 + 0.001*m) : "
           "m < 70000 ? (5 + 0.0005*m) : (0.5 + 0.0002*m)); } /* us; m in bytes */",
           "c formula of three size ranges");
    cf_lines_formula("T_x_np4", (double[]){1, 2, 3}, (double[]){0, 0, 0}, 3,
                     (double[]){10, 20}, "text", buf, sizeof buf);
    is_str(buf, "T(m) = 1 us (m < 10 B); 2 us (10 B <= m < 20 B); 3 us (m >= 20 B)",
           "text formula of three size ranges");
    cf_lines_formula("T_x_np4", (double[]){1, 2, 3}, (double[]){0, 0, 0}, 3,
                     (double[]){10, 20}, "python", buf, sizeof buf);
    is_str(buf, "def T_x_np4(m): return (1 + 0*m) if m < 10 else (2 + 0*m) if m < 20 else "
                "(3 + 0*m)  # us; m in bytes",
           "python formula of three size ranges");
    cf_lines_formula("T_x_np4", (double[]){1, 2, 3}, (double[]){0, 0, 0}, 3,
                     (double[]){10, 20}, "latex", buf, sizeof buf);
    ok(strstr(buf, "\\begin{cases} 1 + 0\\, m & m < 10 \\\\ 2 + 0\\, m & m < 20 \\\\ 3 + "
                   "0\\, m & \\text{otherwise} \\end{cases}") != NULL,
       "latex formula of three size ranges: %s", buf);
    is_int(cf_lines_formula("T_x_np4", L.c0, L.c1, 3, NULL, "text", buf, sizeof buf), -1,
           "three lines need their switches");
}

static void formulas(void)
{
    double c0[2] = {1.5, 20}, c1[2] = {0.002, -0.0001};
    char buf[512];
    cf_lines_formula("T_x_np4", c0, c1, 1, NULL, "text", buf, sizeof buf);
    is_str(buf, "T(m) = 1.5 us + m / (477 MiB/s)", "text formula");
    cf_lines_formula("T_x_np4", c0, c1, 2, NULL, "text", buf, sizeof buf);
    is_str(buf, "T(m) = min(1.5 us + m / (477 MiB/s), 20 us - 0.0001 us/B * m)",
           "text formula of two algorithms");
    cf_lines_formula("T_x_np4", c0, c1, 2, NULL, "c", buf, sizeof buf);
    is_str(buf,
           "static inline double T_x_np4(double m) { return fmin(1.5 + 0.002*m, 20 - 0.0001*m); } "
           "/* us; m in bytes */",
           "c formula of two algorithms");
    cf_lines_formula("T_x_np4", c0, c1, 2, NULL, "python", buf, sizeof buf);
    is_str(buf, "def T_x_np4(m): return min(1.5 + 0.002*m, 20 - 0.0001*m)  # us; m in bytes",
           "python formula");
    c1[0] = 2.5e-5;
    cf_lines_formula("T_x_np4", c0, c1, 1, NULL, "latex", buf, sizeof buf);
    is_str(buf,
           "T_{\\mathrm{x},\\, p=4}(m) = 1.5 + 2.5 \\times 10^{-5}\\, m \\quad [\\mu\\mathrm{s}; m "
           "\\text{ in bytes}]",
           "latex formula: which np, as a fit's formula says it");
    /* The pattern's underscores escaped (reduce_scatter read reduce, its np left out: the
     * formulas check), a datatype after a space. */
    cf_lines_formula("T_reduce_scatter_np16", c0, c1, 1, NULL, "latex", buf, sizeof buf);
    ok(strncmp(buf, "T_{\\mathrm{reduce\\_scatter},\\, p=16}(m) = ", 42) == 0,
       "latex: reduce_scatter at np 16 (%s)", buf);
    cf_lines_formula("T_allgather_mpi_int_np8", c0, c1, 1, NULL, "latex", buf, sizeof buf);
    ok(strncmp(buf, "T_{\\mathrm{allgather\\ mpi\\_int},\\, p=8}(m) = ", 43) == 0,
       "latex: allgather of mpi_int at np 8 (%s)", buf);
    cf_lines_formula("T_reduce_scatter_float_np2", (double[]){3}, (double[]){0}, 1, NULL, "latex",
                     buf, sizeof buf);
    is_str(buf, "T_{\\mathrm{reduce\\_scatter\\ float},\\, p=2} = 3 \\quad [\\mu\\mathrm{s}]",
           "latex: a constant, its datatype and np");
    c1[0] = 0.002;
    cf_lines_formula("T_x_np4", c0, c1, 2, NULL, "gnuplot", buf, sizeof buf);
    is_str(buf,
           "T_x_np4(m) = ((1.5 + 0.002*m) < (20 - 0.0001*m) ? (1.5 + 0.002*m) : (20 - "
           "0.0001*m))  # us; m in bytes",
           "gnuplot formula");
    double sw[1] = {4096};
    cf_lines_formula("T_x_np4", c0, c1, 2, sw, "c", buf, sizeof buf);
    is_str(buf,
           "static inline double T_x_np4(double m) { return (m < 4096 ? (1.5 + 0.002*m) : (20 - "
           "0.0001*m)); } /* us; m in bytes */",
           "c formula of two size ranges");
    cf_lines_formula("T_x_np4", c0, c1, 2, sw, "python", buf, sizeof buf);
    is_str(buf,
           "def T_x_np4(m): return (1.5 + 0.002*m) if m < 4096 else (20 - 0.0001*m)  # us; "
           "m in bytes",
           "python formula of two size ranges");
    cf_lines_formula("T_x_np4", c0, c1, 2, sw, "text", buf, sizeof buf);
    is_str(buf, "T(m) = 1.5 us + m / (477 MiB/s) (m < 4 KiB); 20 us - 0.0001 us/B * m (m >= 4 KiB)",
           "text formula of two size ranges");
    is_int(cf_lines_formula("T_x_np4", c0, c1, 1, NULL, "fortran", buf, sizeof buf), -1,
           "unknown language");
    c1[0] = 1.0 / (1.048576 * 2048);
    cf_lines_formula("T_x_np4", c0, c1, 1, NULL, "text", buf, sizeof buf);
    is_str(buf, "T(m) = 1.5 us + m / (2 GiB/s)", "text formula in GiB/s");
}

/* Times falling steeply over the small sizes, rising over the large: two exact lines
 * whose small-size one is far below 0 in the gap. An across-np model must not answer
 * with a negative time anywhere over its sizes; that split is not chosen. */
static void never_negative(void)
{
    const cf_coll *c = cf_coll_find("alltoall");
    static const double ms[] = {1, 2, 3, 1e6, 2e6, 3e6};
    cf_point pts[NNP * 6];
    size_t n = 0;
    for (int a = 0; a < NNP; a++)
        for (int i = 0; i < 6; i++) {
            double m = ms[i], q = (double)(NPS[a] - 1);
            pts[n++] = (cf_point){NPS[a], m, m < 10 ? q * (10 - 3 * m) : q * m / 1000};
        }
    cf_across a;
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_across_fit_points(c, "byte", pts, n, &a, &e), 0, "a falling, then rising alltoall");
    int neg = 0;
    for (int k = 0; k < NNP && a.error[0] == '\0'; k++)
        for (double m = 1; m <= 3e6; m *= 1.5) {
            cf_estimate est;
            cf_across_predict(&a, NPS[k], m, &est);
            neg |= !(est.t_us >= 0);
        }
    ok(!neg, "no negative time from 1 B to 3 MB at any measured np (%s)",
       a.error[0] ? a.error : a.seg[0].algorithm);
}

/* The quick search (what cf_across_fit_points does) against every candidate fitted
 * properly (CF_SEARCH_EXHAUSTIVE), on seeded random tables: patterns, process counts,
 * sizes, switches, noise from none to 30%, data the algorithm formulas do not follow (a
 * jump, another pattern's costs), outliers slow and fast, points in any order. The two
 * must make the same choice and the same numbers, to the last bit. */
#ifndef QUICK_TRIALS
#define QUICK_TRIALS 160
#endif

static int same_quality(const cf_rel_quality *x, const cf_rel_quality *y)
{
    return x->n == y->n && x->dof == y->dof && x->rejected == y->rejected && x->mape == y->mape &&
           x->max_rel_err == y->max_rel_err &&
           (x->loo_mape == y->loo_mape || (isnan(x->loo_mape) && isnan(y->loo_mape)));
}

static int same_across(const cf_across *x, const cf_across *y)
{
    if (x->nseg != y->nseg || strcmp(x->error, y->error) != 0 || x->nnp != y->nnp ||
        (x->nseg > 0 && !same_quality(&x->q, &y->q)))
        return 0;
    for (int i = 0; i < x->nseg; i++) {
        const cf_across_seg *s = &x->seg[i], *t = &y->seg[i];
        if (strcmp(s->algorithm, t->algorithm) != 0 || s->from_bytes != t->from_bytes ||
            s->to_bytes != t->to_bytes || s->nbasis != t->nbasis || s->s2 != t->s2 ||
            s->tq != t->tq || !same_quality(&s->q, &t->q))
            return 0;
        for (int j = 0; j < s->nbasis; j++) {
            if (s->coef[j] != t->coef[j])
                return 0;
            for (int l = 0; l < s->nbasis; l++)
                if (s->cov[j][l] != t->cov[j][l])
                    return 0;
        }
    }
    return 1;
}

/* A random table of pattern c into pts (room for 6 * 48): returns the number of points. */
static size_t random_table(gsl_rng *r, const cf_coll *c, cf_point *pts)
{
    static const long nps[] = {2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48, 64};
    long np[6];
    int nnp = 3 + (int)gsl_rng_uniform_int(r, 4), have = 0;
    while (have < nnp) {
        long p = nps[gsl_rng_uniform_int(r, sizeof nps / sizeof nps[0])];
        int dup = 0;
        for (int i = 0; i < have; i++)
            dup |= np[i] == p;
        if (!dup)
            np[have++] = p;
    }
    int ns = 4 + (int)gsl_rng_uniform_int(r, 45);
    double sizes[48];
    int zero = gsl_rng_uniform(r) < 0.5;
    for (int i = 0; i < ns; i++) {
        double u = gsl_rng_uniform(r);
        sizes[i] = zero && i == 0 ? 0.0 : floor(pow(2.0, 22.0 * (i + 0.3 * u) / ns));
    }
    for (int i = 1; i < ns; i++)
        if (sizes[i] <= sizes[i - 1])
            sizes[i] = sizes[i - 1] + 1;
    /* The truth: algorithms of c, or of another pattern, switching somewhere, maybe a
     * protocol jump; noise; outliers. */
    const cf_coll *tc = c;
    if (gsl_rng_uniform(r) < 0.3)
        do
            tc = &cf_colls[gsl_rng_uniform_int(r, (unsigned long)cf_ncolls)];
        while (tc->two_only);
    /* One draw a statement: the order of a C initializer's expressions is not defined. */
    truth_t w = {tc, 0, 0, INFINITY, 0, 0, 0};
    w.alg = (int)gsl_rng_uniform_int(r, (unsigned long)tc->nalgs);
    w.alg2 = (int)gsl_rng_uniform_int(r, (unsigned long)tc->nalgs);
    if (gsl_rng_uniform(r) >= 0.3)
        w.switch_bytes = sizes[gsl_rng_uniform_int(r, (unsigned long)ns)];
    w.alpha = 0.5 + 20 * gsl_rng_uniform(r);
    w.beta = 1e-5 * pow(100, gsl_rng_uniform(r));
    w.gamma = 3e-4 * gsl_rng_uniform(r);
    double jump_at = INFINITY;
    if (gsl_rng_uniform(r) < 0.3)
        jump_at = sizes[gsl_rng_uniform_int(r, (unsigned long)ns)];
    double jump = 5 * gsl_rng_uniform(r);
    static const double noises[] = {0, 0.003, 0.03, 0.03, 0.1, 0.3};
    double noise = noises[gsl_rng_uniform_int(r, 6)];
    static const double rates[] = {0, 0, 0.02, 0.1};
    double orate = rates[gsl_rng_uniform_int(r, 4)];
    size_t n = 0;
    for (int a = 0; a < nnp; a++)
        for (int i = 0; i < ns; i++) {
            double t = truth(&w, np[a], sizes[i]) + (sizes[i] > jump_at ? jump : 0.0);
            if (noise > 0.0)
                t *= exp(noise * gsl_ran_gaussian(r, 1.0));
            if (gsl_rng_uniform(r) < orate) {
                int slow = gsl_rng_uniform(r) < 0.8;
                double u = gsl_rng_uniform(r);
                t *= slow ? 1.5 + 8.5 * u : 0.2 + 0.5 * u;
            }
            pts[n++] = (cf_point){np[a], sizes[i], t};
        }
    if (gsl_rng_uniform(r) < 0.5)
        gsl_ran_shuffle(r, pts, n, sizeof *pts);
    return n;
}

static void quick_equals_full(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2024);
    cf_point pts[6 * 48];
    int differ = 0, switches = 0, notes = 0;
    for (int trial = 0; trial < QUICK_TRIALS; trial++) {
        const cf_coll *c;
        do
            c = &cf_colls[gsl_rng_uniform_int(r, (unsigned long)cf_ncolls)];
        while (c->two_only);
        size_t n = random_table(r, c, pts);
        cf_across q, f;
        cf_error e1, e2;
        cf_error_clear(&e1);
        cf_error_clear(&e2);
        int rq = cf_across_fit_points_search(c, c->datatype, pts, n, CF_SEARCH_QUICK, &q, &e1);
        int rf = cf_across_fit_points_search(c, c->datatype, pts, n, CF_SEARCH_EXHAUSTIVE, &f, &e2);
        if (rq != rf || !same_across(&q, &f)) {
            if (differ++ < 5)
                printf("# trial %d (%s, %zu points): quick %d segment(s) %s, full %d %s\n", trial,
                       c->pattern, n, q.nseg, q.nseg ? q.seg[q.nseg - 1].algorithm : q.error,
                       f.nseg, f.nseg ? f.seg[f.nseg - 1].algorithm : f.error);
        }
        switches += f.nseg == 2;
        notes += f.error[0] != '\0';
    }
    ok(differ == 0,
       "quick search = full search in %d random tables (%d differ; %d with a "
       "switch, %d with no model)",
       QUICK_TRIALS, differ, switches, notes);
    gsl_rng_free(r);
}

/* The barrier's waits (cf_across_probe): a callback's wait by np. */
static double wait_table[5] = {0.0, 1.0, 1.0, 4.0, 4.0}; /* np 2, 4, 8, 16, 32 */
static double fixed_wait(const void *ctx, const char *pattern, long np)
{
    (void)ctx;
    if (strcmp(pattern, "allreduce") != 0)
        return 0.0;
    int k = 0;
    while ((2L << k) < np)
        k++;
    return wait_table[k];
}

/* allreduce at np 2-16 whose times hold the waits above (plus lg p latencies, and a 1-byte
 * call that moves nothing), fitted with and without those waits taken. */
static void waits_taken(void)
{
    cf_table *t = cf_table_alloc(), *bare = cf_table_alloc();
    for (long p = 2; p <= 16; p *= 2)
        for (int i = 1; i < NSIZES; i++) {
            double m = size_at(i), lg = log2((double)p);
            double own = 3.0 * lg + lg * m / 5000.0;
            int empty = m < 4; /* fewer than one float: MPI returns at once */
            double w = empty ? 0.0 : fixed_wait(NULL, "allreduce", p);
            add_row(t, "allreduce", (int)p, (uint64_t)m, "float", empty ? 0.01 : own + w);
            add_row(bare, "allreduce", (int)p, (uint64_t)m, "float", empty ? 0.01 : own);
        }
    const cf_row **rows = malloc(t->n_rows * sizeof *rows), **brows =
                                                               malloc(bare->n_rows * sizeof *brows);
    for (size_t i = 0; i < t->n_rows; i++) {
        rows[i] = &t->rows[i];
        brows[i] = &bare->rows[i];
    }
    cf_across_probe waits = {fixed_wait, NULL, NULL};
    cf_across_set s, b;
    char **notes = NULL;
    size_t nnotes = 0;
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_across_fit_set(rows, t->n_rows, "mean", NULL, "smpi-mpich", &waits, 1, &s, &notes,
                             &nnotes, &e),
           0, "waits: fits (%s)", e.msg);
    cf_notes_free(notes, nnotes);
    is_int(cf_across_fit_set(brows, bare->n_rows, "mean", NULL, "smpi-mpich", NULL, 1, &b, &notes,
                             &nnotes, &e),
           0, "without waits: fits (%s)", e.msg);
    cf_notes_free(notes, nnotes);
    const cf_across *a = cf_across_set_find(&s, "allreduce", "float"),
                    *ab = cf_across_set_find(&b, "allreduce", "float");
    ok(a != NULL && ab != NULL && a->error[0] == '\0', "an across-np model");
    ok(a != NULL && a->waited, "the waits were taken");
    for (int i = 0; a != NULL && i < a->nnp; i++)
        near(a->wait_us[i], wait_table[i], 1e-12, "np %ld: its wait kept", a->np[i]);
    ok(ab != NULL && !ab->waited, "none taken without waits");
    if (a != NULL) {
        cf_across back;
        json_t *j = roundtrip(a, &back);
        ok(back.waited && back.nnp == 4 && back.wait_us[3] == 4.0,
           "the waits survive the model file");
        refuses(j, 0, "barrier_wait_us", json_pack("[f]", 1.0),
                "across_np[4].barrier_wait_us: expected an array of one wait per process count "
                "in np");
        refuses(j, 0, "barrier_wait_us", json_pack("[ffff]", 0.0, 1.0, -1.0, 4.0),
                "across_np[4].barrier_wait_us: expected waits in us, finite and >= 0");
        json_decref(j);
    }
    /* The model of the times less their waits is the model of the times without them. */
    cf_estimate x, y;
    for (int i = 0; a != NULL && ab != NULL && i < 3; i++) {
        double m = i == 0 ? 4 : i == 1 ? 4096 : 1048576;
        cf_across_predict(a, 64, m, &x);
        cf_across_predict(ab, 64, m, &y);
        near(x.t_us, y.t_us, 1e-6 * y.t_us, "np 64, %g B: the model of the calls' own cost", m);
    }
    cf_across_set_clear(&s);
    /* A replay that leaves a point less than a tenth of its time disagrees with the data:
     * nothing is taken. */
    wait_table[3] = 100.0;
    cf_error_clear(&e);
    is_int(cf_across_fit_set(rows, t->n_rows, "mean", NULL, "smpi-mpich", &waits, 1, &s, &notes,
                             &nnotes, &e),
           0, "a wait larger than a time: fits (%s)", e.msg);
    cf_notes_free(notes, nnotes);
    a = cf_across_set_find(&s, "allreduce", "float");
    ok(a != NULL && !a->waited, "a wait larger than a time: none taken");
    if (a != NULL && ab != NULL) {
        cf_across_predict(a, 16, 4096, &x);
        cf_across_predict(ab, 16, 4096, &y);
        ok(x.t_us > y.t_us + 3.0, "and the model keeps the waits in its times");
    }
    wait_table[3] = 4.0;
    cf_across_set_clear(&s);
    cf_across_set_clear(&b);
    free(rows);
    free(brows);
    cf_table_free(t);
    cf_table_free(bare);
}

/* More distinct process counts than a model keeps: the three largest are kept (the
 * backtest reads the largest from those below, the growth is read at the top), the others
 * thinned evenly from the smallest; np 2..66, 80 and 100 lost 65, 66 and 80 before. */
static void many_np(void)
{
    cf_point pts[68];
    size_t n = 0;
    for (long p = 2; p <= 66; p++)
        pts[n++] = (cf_point){p, 1024, (double)p};
    pts[n++] = (cf_point){80, 1024, 80};
    pts[n++] = (cf_point){100, 1024, 100};
    long np[CF_ACROSS_NP_MAX];
    int nnp = 0, d = cf_across_distinct_np(pts, n, np, &nnp);
    is_int(d, 67, "many np: all distinct counted");
    is_int(nnp, CF_ACROSS_NP_MAX, "many np: as many kept as a model holds");
    ok(np[0] == 2 && np[nnp - 4] == 65 && np[nnp - 3] == 66 && np[nnp - 2] == 80 &&
           np[nnp - 1] == 100,
       "many np: the smallest and the three largest kept, and the one below them");
    int up = 1;
    for (int i = 1; i < nnp; i++)
        up = up && np[i] > np[i - 1];
    ok(up, "many np: increasing");
}

int main(void)
{
    many_np();
    waits_taken();
    hockney();
    known_answers();
    noisy();
    too_few();
    json_forms();
    laptop();
    gamma_and_statistic();
    formulas();
    lines_through();
    never_negative();
    quick_equals_full();
    return tap_done();
}
