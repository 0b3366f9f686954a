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

/* Fits t with stat into s through the model file's JSON forms and back (the np=2 factors
 * and curve make the round trip). */
static int fit_load(const cf_table *t, const char *stat, const char *name, cf_across_set *s,
                    cf_error *e)
{
    cf_across_set fitted;
    char **notes = NULL;
    size_t nnotes = 0;
    int rc = cf_across_fit_table(t, stat, &fitted, &notes, &nnotes, e);
    cf_notes_free(notes, nnotes);
    if (rc != 0)
        return rc;
    json_t *across = cf_across_set_to_json(&fitted), *p2p = cf_p2p_to_json(&fitted.pp);
    cf_across_set_clear(&fitted);
    rc = across != NULL && p2p != NULL ? cf_across_set_load(across, p2p, name, s, e) : -1;
    json_decref(across);
    json_decref(p2p);
    return rc;
}

static int load(cf_table *t, cf_across_set *s)
{
    cf_error e;
    cf_error_clear(&e);
    int rc = fit_load(t, NULL, "m.json", s, &e);
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

/* The 95% half-width factor of the least model error the estimate keeps at p
 * (CF_P2P_DOUBLING_SD per doubling of p beyond 2). */
static double floor_factor(long p)
{
    return exp(1.959963984540054 * CF_P2P_DOUBLING_SD * sqrt(log2((double)p / 2.0)));
}

/* The interval's ends: those of the two readings np=2 cannot tell apart (hi and lo about
 * their geometric middle t), or the least model error's about t, whichever is wider. */
static void ends(const cf_estimate *est, double hi, double lo, long p, const char *what)
{
    double t = sqrt(hi * lo), f = fmax(sqrt(hi / lo), floor_factor(p));
    near(est->t_us, t, 1e-9, "%s: the estimate, the readings' geometric middle", what);
    near(est->hi_us, t * f, 1e-9, "%s: the top, the factors at each step or the least error",
         what);
    near(est->lo_us, t / f, 1e-9, "%s: the bottom, the factors once or the least error", what);
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

    /* No rules known: MPICH's costs, pairwise exchange at 1 MiB. What alltoall costs
     * beyond the ping-pong at np=2 recurs at each of the p-1 steps (the top of the
     * interval) or once a call (its bottom); the estimate is their geometric middle. */
    cf_estimate est;
    double m = 1 << 20, t2 = FA * ALPHA + FB * BETA * m, tpp = ALPHA + BETA * m;
    double each = 15.0 * t2, once = 14.0 * tpp + t2;
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    /* (the two readings 1.24x apart, within the least error at np=16: 1.24x each way) */
    ends(&est, each, once, 16, "np=16, 1 MiB: (p-1)*T2 and (p-2)*(alpha + beta*m) + T2");
    ok(est.hi_us >= each * (1 - 1e-12) && est.lo_us <= once * (1 + 1e-12),
       "np=16, 1 MiB: the interval holds both readings");
    is_str(est.algorithm, "pairwise exchange", "the algorithm used");
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 4, m, &est);
    ends(&est, 3.0 * t2, 2.0 * tpp + t2, 4, "np=4: (p-1)*T2 and (p-2)*(alpha + beta*m) + T2");
    ok(est.hi_us / est.lo_us < floor_factor(16) * floor_factor(16),
       "np=4: narrower than at np=16");
    m = 16;
    t2 = FA * ALPHA + FB * BETA * 16.0;
    each = 4.0 * (FA * ALPHA + FB * BETA * 16.0 * 16.0 / 2.0) * t2 /
           (FA * ALPHA + FB * BETA * 16.0); /* the catalog's Bruck at p=2 moves m */
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    is_str(est.algorithm, "Bruck", "np=16, 16 B: Bruck");
    near(est.hi_us, 4.0 * (FA * ALPHA + FB * BETA * 16.0 * 16.0 / 2.0), 1e-9,
         "np=16, 16 B: top, lg p * (FA*alpha + FB*beta*p*m/2)");
    cf_across_set_clear(&s);

    /* MPICH's rules: each step a ping-pong of its size, read on the measured curve. */
    is_int(load(laptop(0.0, NULL, "MPICH Version: 4.0.2", tm), &s), 0, "with MPICH's rules");
    is_str(s.pp.rules, "mpich", "the rules come from the table's metadata");
    ok(worst_at_np2(&s, tm) < 1e-9, "rules: at np=2 the estimate is the measurement (1e-9)");
    m = 1 << 20;
    t2 = FA * ALPHA + FB * BETA * m;
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    /* Each: p-1 pairwise steps with the factors at each. Once: the ping-pong's 15 steps
     * (floor alpha + beta and bytes m - 1 each) plus what the factors add at p=2 over its
     * cost there. */
    double fl = ALPHA + BETA, t2f = FA * fl + FB * BETA * (m - 1.0);
    ends(&est, 15.0 * t2, t2 * (14.0 * (ALPHA + BETA * m) + t2f) / t2f, 16,
         "rules: the factors at each pairwise step and once a call");
    m = 100;
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    is_str(est.algorithm, "Bruck", "rules: Bruck below 256 B at np >= 8");
    /* The nonblocking range: p-1 sends posted at once, not p-1 round trips. */
    m = 1024;
    t2 = FA * ALPHA + FB * BETA * m;
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    is_str(est.algorithm, "isend/irecv", "rules: isend/irecv from 256 B to 32 KiB");
    ok(est.hi_us < 0.6 * 15.0 * t2,
       "isend/irecv: its top well below p-1 serial steps (%.4g < %.4g)", est.hi_us,
       0.6 * 15.0 * t2);
    ok(est.lo_us < est.t_us && est.t_us < est.hi_us, "isend/irecv: the estimate inside");
    /* The table does not say where its ranks ran: the 15 partners may share rank 0's node,
     * whose messages may overlap one another, latencies and bytes: one message's time, the
     * np=2 measurement, and the bottom below it. */
    near(est.overlap_us, t2, 1e-9, "isend/irecv, ranks nowhere said: where the node's "
                                        "messages overlap, one message");
    ok(est.lo_us < t2, "isend/irecv, ranks nowhere said: the bottom below one message");
    /* One rank a node: every message leaves through its own node's card, one after
     * another; this ping-pong lies on its line, so its bytes streaming read no less than
     * its curve: the bottom as before, above one message and the others' bytes. */
    s.pp.node_ranks = 1;
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    is_int(est.overlap_us == 0.0, 1, "isend/irecv, one rank a node: nothing overlaps");
    ok(est.lo_us > t2 + 14.0 * BETA * m,
       "isend/irecv, one rank a node: its bottom above one message and the others' bytes "
       "(%.4g > %.4g)",
       est.lo_us, t2 + 14.0 * BETA * m);
    /* Four ranks a node: 3 partners on it, the other 12 in a row through the card. */
    s.pp.node_ranks = 4;
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    /* (as the rules' once reading: the ping-pong curve's bytes m - 1 a step above its floor,
     * through the measured np=2 time) */
    double t2f16 = FA * (ALPHA + BETA) + FB * BETA * (m - 1.0);
    near(est.overlap_us, t2 * (11.0 * BETA * (m - 1.0) + t2f16) / t2f16, 1e-9,
         "isend/irecv, 4 ranks a node: the 12 messages off the node in a row, the factors once");
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
    double m = 1 << 20, t2 = FA * ALPHA + FB * BETA * m;
    double want = sqrt(15.0 * t2 * (14.0 * (ALPHA + BETA * m) + t2));
    cf_p2p_predict(&s.pp, cf_coll_find("alltoall"), "byte", 16, m, &est);
    near(est.t_us, want, 0.15, "np=16, 1 MiB: within 15%% of the noiseless estimate");
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A real np=2 table: the estimate of every collective measured there passes through its
 * own np=2 times (1e-6; sizes of one row each), and its median interval at np=16 stays
 * within 10x. */
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
    cf_across_set s;
    int rc = fit_load(t, "median", path, &s, &e);
    if (rc != 0) {
        ok(0, "%s fits (%s)", file, e.msg);
        cf_table_free(t);
        return;
    }
    int checked = 0, off = 0, patterns = 0;
    size_t nw = 0;
    double *widths = malloc((t->n_rows ? t->n_rows : 1) * sizeof *widths);
    if (widths == NULL)
        abort();
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
            if (nw < t->n_rows)
                widths[nw++] = est.hi_us / est.lo_us;
        }
    }
    ok(patterns >= 5 && checked >= 100, "%s%s: %d patterns, %d sizes at np=2", file,
       mpi_library ? " (MPICH's rules)" : "", patterns, checked);
    is_int(off, 0, "%s%s: the estimate passes through each np=2 time", file,
           mpi_library ? " (MPICH's rules)" : "");
    qsort(widths, nw, sizeof *widths, cmp_double);
    double med = nw ? (nw % 2 ? widths[nw / 2] : 0.5 * (widths[nw / 2 - 1] + widths[nw / 2])) : 0;
    /* A guard, not the goal: the goal's 5x holds on the simulated platforms (sim_flat);
     * here, curves with cache steps that two factors do not follow (imb2021: a residual of
     * 30% and more at np=2) widen the interval per doubling of p, honestly. */
    ok(nw > 0 && med <= 10.0, "%s: the median interval at np=16 at most 10x wide (%.3g)", file,
       med);
    free(widths);
    cf_across_set_clear(&s);
    cf_table_free(t);
}

/* Goal 4 of issue 16 on a shipped simulated platform (SimGrid SMPI, deterministic):
 * data/sim-flat.csv's np=2 rows alone, its collectives predicted at np=16 at every size,
 * against the simulated times the fit never saw: median error <= 20%, coverage of the 95%
 * intervals >= 90%, median width (hi/lo) <= 5x. */
static void sim_flat(void)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof path, "%s/data/sim-flat.csv", top ? top : ".");
    cf_table *t = NULL;
    cf_error e;
    cf_error_clear(&e);
    if (cf_table_read(path, &t, &e) != 0) {
        ok(0, "sim-flat.csv reads (%s)", e.msg);
        return;
    }
    cf_row *held = malloc(t->n_rows * sizeof *held);
    size_t nheld = 0, n2 = 0;
    for (size_t i = 0; i < t->n_rows; i++) {
        const cf_row *r = &t->rows[i];
        const cf_coll *c = cf_coll_find(r->pattern);
        if (r->np == 16 && c != NULL && !c->two_only &&
            !(strcmp(r->datatype, "float") == 0 && r->bytes < 4))
            held[nheld++] = *r;
        if (r->np == 2)
            t->rows[n2++] = *r;
    }
    t->n_rows = n2;
    cf_across_set s;
    if (load(t, &s) != 0) {
        ok(0, "sim-flat.csv np=2 fits and loads");
        free(held);
        return;
    }
    double *err = malloc(nheld * sizeof *err), *wid = malloc(nheld * sizeof *wid);
    int covered = 0;
    for (size_t i = 0; i < nheld; i++) {
        cf_estimate est;
        double truth = held[i].t_med_us;
        cf_p2p_predict(&s.pp, cf_coll_find(held[i].pattern), held[i].datatype, 16,
                       (double)held[i].bytes, &est);
        err[i] = fabs(est.t_us / truth - 1.0);
        wid[i] = est.hi_us / est.lo_us;
        covered += est.lo_us <= truth && truth <= est.hi_us;
    }
    qsort(err, nheld, sizeof *err, cmp_double);
    qsort(wid, nheld, sizeof *wid, cmp_double);
    ok(nheld == 58, "sim-flat: 58 collective points at np=16 (%zu)", nheld);
    ok(err[nheld / 2] <= 0.20, "sim-flat from np=2: median error at np=16 <= 20%% (%.3g)",
       err[nheld / 2]);
    ok(covered >= 0.9 * (double)nheld, "sim-flat from np=2: coverage at np=16 >= 90%% (%d of %zu)",
       covered, nheld);
    ok(wid[nheld / 2] <= 5.0, "sim-flat from np=2: median interval at np=16 <= 5x (%.3g)",
       wid[nheld / 2]);
    free(err);
    free(wid);
    free(held);
    cf_across_set_clear(&s);
}

int main(void)
{
    exact();
    noisy();
    old_file();
    real_table("imb2021_mpich402_1node_np2_all.csv", NULL);
    real_table("imb2021_mpich402_1node_np2_all.csv", "MPICH Version: 4.0.2");
    real_table("imb41_gbrandino_juno_arm_internode_eth.csv", NULL);
    sim_flat();
    return tap_done();
}
