/* The point-to-point estimate from np=2 alone against known answers: a collective whose
 * np=2 times are ping-pong's alpha and beta, each with a factor of its own, exact and with
 * seeded noise; the estimate passes through those times, with and without the library's
 * switch rules. */
#include "config.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit/across.h"
#include "modelfile/across-json.h"
#include "tap.h"

#define NSIZES 22                                     /* 1 .. 2 MiB in powers of two */
static const double ALPHA = 0.8, BETA = 1.0 / 6000.0; /* us, us per byte */
static const double FA = 3.0, FB = 1.25;              /* latency and bandwidth factors */

static void add_row(cf_table *t, const char *pattern, uint64_t bytes, double t_us)
{
    cf_row r;
    cf_row_init(&r);
    snprintf(r.pattern, sizeof r.pattern, "%s", pattern);
    snprintf(r.datatype, sizeof r.datatype, "byte");
    r.np = 2;
    r.bytes = bytes;
    r.t_min_us = r.t_avg_us = r.t_max_us = t_us;
    cf_table_add(t, &r);
}

/* pingpong and alltoall at np=2, alltoall's times FA * alpha + FB * beta * m, each time
 * times exp(noise * N(0, 1)); mpi_library in the metadata when not NULL. */
static cf_table *laptop(double noise, gsl_rng *r, const char *mpi_library, double *tmeas)
{
    cf_table *t = cf_table_alloc();
    if (mpi_library != NULL)
        cf_table_meta_set(t, "mpi_library", mpi_library);
    for (int i = 0; i < NSIZES; i++) {
        double m = ldexp(1.0, i);
        add_row(t, "pingpong", (uint64_t)m, ALPHA + BETA * m);
        double y = FA * ALPHA + FB * BETA * m;
        if (noise > 0.0)
            y *= exp(noise * gsl_ran_gaussian(r, 1.0));
        tmeas[i] = y;
        add_row(t, "alltoall", (uint64_t)m, y);
    }
    return t;
}

static int load(cf_table *t, cf_across_set *s)
{
    json_t *across = NULL, *p2p = NULL;
    char **notes = NULL;
    size_t nnotes = 0;
    cf_error e;
    cf_error_clear(&e);
    int rc = cf_across_fit_table(t, NULL, &across, &p2p, &notes, &nnotes, &e);
    if (rc == 0)
        rc = cf_across_set_load(across, p2p, "m.json", s, &e);
    cf_notes_free(notes, nnotes);
    json_decref(across);
    json_decref(p2p);
    cf_table_free(t);
    return rc;
}

/* The estimate at p=2, at every measured size, against the measurement. */
static double worst_at_np2(const cf_across_set *s, const double *tmeas)
{
    double worst = 0.0;
    for (int i = 0; i < NSIZES; i++) {
        cf_estimate est;
        cf_p2p_predict(&s->pp, cf_coll_find("alltoall"), "byte", 2, ldexp(1.0, i), &est);
        worst = fmax(worst, fabs(est.t_us / tmeas[i] - 1.0));
    }
    return worst;
}

static void exact(void)
{
    double tm[NSIZES];
    cf_across_set s;
    is_int(load(laptop(0.0, NULL, NULL, tm), &s), 0, "exact laptop table: fits and loads");
    const cf_contention *k = cf_p2p_contention(&s.pp, "alltoall", "byte", 16);
    ok(k != NULL && k->np == 2, "alltoall calibrated at np=2");
    near(k->lat_factor, FA, 1e-9, "latency factor: the one the times were made with");
    near(k->bw_factor, FB, 1e-9, "bandwidth factor: the one the times were made with");
    ok(k->factor_cov[0][0] < 1e-12 && k->factor_cov[1][1] < 1e-12, "exact: no uncertainty");
    is_int(k->nunit, NSIZES, "the measured curve is kept");
    ok(worst_at_np2(&s, tm) < 1e-9, "at np=2 the estimate is the measurement (1e-9)");

    /* No rules known: MPICH's costs with the factors, pairwise exchange at 1 MiB. */
    cf_estimate est;
    double m = 1 << 20, want = 15.0 * (FA * ALPHA + FB * BETA * m);
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    near(est.t_us, want, 1e-9, "np=16, 1 MiB: (p-1)*(FA*alpha + FB*beta*m)");
    is_str(est.algorithm, "pairwise exchange", "the algorithm used");
    double w = est.hi_us / est.lo_us;
    ok(w > 4.5 && w <= 4.7, "np=16: the interval is 4.6x wide (%.3g)", w);
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 4, m, &est);
    ok(est.hi_us / est.lo_us < 2.6, "np=4: narrower (%.3g)", est.hi_us / est.lo_us);
    m = 16;
    want = 4.0 * (FA * ALPHA + FB * BETA * 16.0 * 16.0 / 2.0);
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    near(est.t_us, want, 1e-9, "np=16, 16 B: Bruck, lg p * (FA*alpha + FB*beta*p*m/2)");
    double c0[2], c1[2];
    cf_p2p_lines(&s.pp, cf_coll_find("alltoall"), "byte", 16, c0, c1);
    near(c0[1], 15.0 * FA * ALPHA, 1e-12, "lines: the latency factor on alpha");
    near(c1[1], 15.0 * FB * BETA, 1e-12, "lines: the bandwidth factor on beta");
    cf_across_set_clear(&s);

    /* MPICH's rules: its steps costed with the measured np=2 curve. */
    is_int(load(laptop(0.0, NULL, "MPICH Version: 4.0.2", tm), &s), 0, "with MPICH's rules");
    is_str(s.pp.rules, "mpich", "the rules come from the table's metadata");
    ok(worst_at_np2(&s, tm) < 1e-9, "rules: at np=2 the estimate is the measurement (1e-9)");
    m = 1 << 20;
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    near(est.t_us, 15.0 * (FA * ALPHA + FB * BETA * m), 1e-9, "rules: p-1 pairwise steps");
    m = 100;
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    is_str(est.algorithm, "Bruck", "rules: Bruck below 256 B at np >= 8");
    /* Bruck moves p*m/2 = 800 bytes a step: between the measured 512 and 1024, log-log. */
    double t512 = FA * ALPHA + FB * BETA * 512, t1k = FA * ALPHA + FB * BETA * 1024;
    double t800 = exp(log(t512) + log(t1k / t512) * log(800.0 / 512.0) / log(2.0));
    near(est.t_us, 4.0 * t800, 1e-9, "rules: 4 Bruck steps of 800 bytes, along the curve");
    cf_across_set_clear(&s);
}

static void noisy(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 16);
    double tm[NSIZES];
    cf_across_set s;
    is_int(load(laptop(0.05, r, NULL, tm), &s), 0, "5%% noise: fits and loads");
    const cf_contention *k = cf_p2p_contention(&s.pp, "alltoall", "byte", 16);
    near(k->lat_factor, FA, 0.05, "5%% noise: latency factor within 5%%");
    near(k->bw_factor, FB, 0.05, "5%% noise: bandwidth factor within 5%%");
    ok(k->factor_cov[0][0] > 0.0 && k->factor_cov[1][1] > 0.0, "with their uncertainty");
    ok(worst_at_np2(&s, tm) < 1e-9, "5%% noise: at np=2 the estimate is the measurement");
    cf_estimate est;
    double m = 1 << 20, want = 15.0 * (FA * ALPHA + FB * BETA * m);
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    near(est.t_us, want, 0.15, "np=16, 1 MiB: within 15%% of the noiseless cost");
    ok(est.lo_us < want && want < est.hi_us, "and inside its interval");
    ok(est.hi_us / est.lo_us <= 5.0, "np=16: at most 5x wide (%.3g)", est.hi_us / est.lo_us);
    cf_across_set_clear(&s);
    gsl_rng_free(r);
}

/* A file written before the factors: the single contention factor, as before. */
static void old_file(void)
{
    json_t *p2p =
        json_pack("{s:s, s:f, s:f, s:[[f,f],[f,f]], s:f, s:{s:i, s:i}, s:f, s:f, s:f, s:f, s:s, "
                  "s:[{s:s, s:s, s:i, s:i, s:f, s:f, s:f, s:f}]}",
                  "pattern", "pingpong", "alpha_us", ALPHA, "beta_us_per_byte", BETA, "cov", 0.0,
                  0.0, 0.0, 0.0, "s2", 0.0, "quality", "n", 22, "dof", 20, "bytes_min", 1.0,
                  "bytes_max", 2097152.0, "gamma_us_per_byte", 0.0, "gamma_se", 0.0, "gamma_source",
                  "none", "contention", "pattern", "alltoall", "datatype", "byte", "np", 2, "n", 22,
                  "median", 1.4, "min", 1.4, "max", 1.4, "sd_log", 0.0);
    cf_across_set s;
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_across_set_load(NULL, p2p, "old.json", &s, &e), 0, "an older p2p reads (%s)", e.msg);
    cf_estimate est;
    double m = 1 << 20;
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    near(est.t_us, 1.4 * 15.0 * (ALPHA + BETA * m), 1e-9, "older file: one factor for both");
    cf_across_set_clear(&s);
    json_object_set_new(json_array_get(json_object_get(p2p, "contention"), 0), "latency_factor",
                        json_real(-1.0));
    ok(cf_across_set_load(NULL, p2p, "bad.json", &s, &e) != 0, "a negative factor is refused");
    is_str(e.msg, "p2p.contention[0].latency_factor: expected a number >= 0",
           "and the message names the field");
    json_decref(p2p);
}

/* A real np=2 table: the estimate of every collective measured there passes through its
 * own np=2 times (1e-6; sizes of one row each), and is at most 5x wide at np=16. */
static void real_table(const char *file, const char *mpi_library)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof path, "%s/data/%s", top ? top : ".", file);
    cf_table *t = NULL;
    cf_error e;
    cf_error_clear(&e);
    if (cf_table_read(path, &t, &e) != 0) {
        ok(0, "%s reads (%s)", file, e.msg);
        return;
    }
    if (mpi_library != NULL)
        cf_table_meta_set(t, "mpi_library", mpi_library);
    json_t *across = NULL, *p2p = NULL;
    char **notes = NULL;
    size_t nnotes = 0;
    cf_across_set s;
    int rc = cf_across_fit_table(t, "median", &across, &p2p, &notes, &nnotes, &e);
    if (rc == 0)
        rc = cf_across_set_load(across, p2p, path, &s, &e);
    cf_notes_free(notes, nnotes);
    json_decref(across);
    json_decref(p2p);
    if (rc != 0) {
        ok(0, "%s fits (%s)", file, e.msg);
        cf_table_free(t);
        return;
    }
    int checked = 0, off = 0, wide = 0, patterns = 0;
    for (size_t i = 0; i < s.pp.ncont; i++) {
        const cf_contention *k = &s.pp.cont[i];
        const cf_coll *c = cf_coll_find(k->pattern);
        if (k->np != 2 || !(k->lat_factor > 0.0) || c == NULL || c->two_only)
            continue;
        patterns++;
        double lo = strcmp(c->datatype, "float") == 0 ? 4.0 : 1.0;
        for (size_t j = 0; j < t->n_rows; j++) {
            const cf_row *r = &t->rows[j];
            if (r->np != 2 || r->blocks != 0 || (double)r->bytes < lo ||
                strcmp(r->pattern, k->pattern) != 0 || strcmp(r->datatype, k->datatype) != 0)
                continue;
            int same = 0;
            for (size_t l = 0; l < t->n_rows; l++)
                same += t->rows[l].np == 2 && t->rows[l].bytes == r->bytes &&
                        strcmp(t->rows[l].pattern, r->pattern) == 0 &&
                        strcmp(t->rows[l].datatype, r->datatype) == 0;
            if (same != 1)
                continue;
            cf_estimate est;
            double want = isfinite(r->t_med_us) ? r->t_med_us : r->t_avg_us;
            cf_p2p_predict(&s.pp, c, k->datatype, 2, (double)r->bytes, &est);
            checked++;
            off += !(fabs(est.t_us / want - 1.0) < 1e-6);
            cf_p2p_predict(&s.pp, c, k->datatype, 16, (double)r->bytes, &est);
            wide += !(est.hi_us / est.lo_us <= 5.0);
        }
    }
    ok(patterns >= 5 && checked >= 100, "%s%s: %d patterns, %d sizes at np=2", file,
       mpi_library ? " (MPICH's rules)" : "", patterns, checked);
    is_int(off, 0, "%s%s: the estimate passes through each np=2 time", file,
           mpi_library ? " (MPICH's rules)" : "");
    is_int(wide, 0, "%s: no interval at np=16 wider than 5x", file);
    cf_across_set_clear(&s);
    cf_table_free(t);
}

int main(void)
{
    exact();
    noisy();
    old_file();
    real_table("imb2021_mpich402_1node_np2_all.csv", NULL);
    real_table("imb2021_mpich402_1node_np2_all.csv", "MPICH Version: 4.0.2");
    real_table("imb41_gbrandino_juno_arm_internode_eth.csv", NULL);
    return tap_done();
}
