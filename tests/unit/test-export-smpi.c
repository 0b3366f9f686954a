/* export smpi: the factors reproduce every model kind within the tolerance at every
 * size checked, SimGrid's lookup (envelope, thresholds) is what cf_smpi_time_us does,
 * and the refusals. The round trip through SMPI itself is tests/smpi/export-roundtrip.sh. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/smpi.h"
#include "fit/model.h"
#include "fitdata.h"
#include "modelfile/modelfile.h"
#include "tap.h"

/* The largest relative difference between platform and model at the sizes a ping-pong
 * is measured at and around them (k-1, k, k+1, 3k/2 for every power of two k and every
 * segment bound) inside the fitted range. */
static double worst_error(const cf_fit *f, const cf_smpi_platform *p, double *where)
{
    double worst = 0;
    *where = 0;
    double sizes[4096];
    size_t n = 0;
    sizes[n++] = (double)f->min_bytes;
    for (double k = 1; k <= (double)f->max_bytes && n + 8 < 4096; k *= 2) {
        double c[4] = {k - 1, k, k + 1, 1.5 * k};
        for (int j = 0; j < 4; j++)
            sizes[n++] = c[j];
    }
    for (int s = 0; s < f->nseg && n + 8 < 4096; s++) {
        double c[4] = {(double)f->seg[s].from_bytes, (double)f->seg[s].to_bytes,
                       (double)f->seg[s].from_bytes + 1, (double)f->seg[s].to_bytes + 1};
        for (int j = 0; j < 4; j++)
            sizes[n++] = c[j];
    }
    for (size_t i = 0; i < n; i++) {
        double m = sizes[i];
        if (m < (double)p->min_bytes || m > (double)p->max_bytes)
            continue;
        cf_prediction pr;
        cf_fit_predict(f, m, &pr);
        double err = fabs(cf_smpi_time_us(p, m) - pr.t_us) / pr.t_us;
        if (err > worst) {
            worst = err;
            *where = m;
        }
    }
    return worst;
}

/* Thresholds increase, factors are what SimGrid accepts (latency >= 0, bandwidth > 0). */
static int well_formed(const cf_smpi_platform *p)
{
    if (p->nsteps == 0 || p->steps[0].above_bytes != 0 || !(p->lat_us >= 0) || !(p->bw_Bps > 0))
        return 0;
    for (size_t i = 0; i < p->nsteps; i++) {
        if (!(p->steps[i].lat_us >= 0) || !(p->steps[i].us_per_byte > 0))
            return 0;
        if (i > 0 && p->steps[i].above_bytes <= p->steps[i - 1].above_bytes)
            return 0;
    }
    return 1;
}

static void check_fit(const cf_fit *f, const char *name)
{
    cf_smpi_platform p;
    cf_error e;
    int rc = cf_smpi_calibrate(f, "m.json", &p, &e);
    if (!ok(rc == 0, "%s: calibrates (%s)", name, rc ? e.msg : "ok"))
        return;
    ok(well_formed(&p), "%s: %zu ranges, increasing thresholds, valid factors", name, p.nsteps);
    ok(p.max_rel_err <= CF_SMPI_TOLERANCE, "%s: within %g%% at the sizes it checked (%.3g%%)",
       name, 100 * CF_SMPI_TOLERANCE, 100 * p.max_rel_err);
    double where, w = worst_error(f, &p, &where);
    ok(w <= CF_SMPI_TOLERANCE + 1e-9, "%s: within %g%% around every power of two (%.3g%% at %.0f)",
       name, 100 * CF_SMPI_TOLERANCE, 100 * w, where);
    cf_smpi_platform_clear(&p);
}

static void fit_rows(rows *v, const char *kind, cf_fit *f)
{
    cf_fit_input in = input_of(v, "pingpong np 2 byte");
    cf_error e;
    if (cf_fit_group(kind, &in, f, &e) != 0)
        fprintf(stderr, "fit %s: %s\n", kind, e.msg);
    snprintf(f->pattern, sizeof f->pattern, "pingpong");
    f->np = 2;
}

/* Shared memory's shape: a flat start, an eager-to-rendezvous step, and a large-message
 * segment whose line crosses 0 above zero bytes (cache misses). */
static double shm_t(double x)
{
    if (x <= 64)
        return 0.3 + x / 4000;
    if (x <= 65536)
        return 0.45 + x / 7000;
    if (x <= 524288)
        return 1.5 + x / 30000;
    return -72 + x / 8300;
}

static void kinds(void)
{
    static const char *const names[] = {"linear", "poly2", "piecewise", "auto"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        rows v = {0};
        for (int k = 0; k < 24; k++) {
            double x = (double)size_at(k);
            rows_add(&v, "pingpong", 2, "byte", size_at(k), 0, shm_t(x), 1);
        }
        cf_fit f;
        fit_rows(&v, names[i], &f);
        char what[64];
        snprintf(what, sizeof what, "%s fit of a shared-memory shape", names[i]);
        check_fit(&f, what);
        cf_fit_clear(&f);
        rows_free(&v);
    }
}

static void loggp(void)
{
    rows v = {0};
    for (int k = 0; k < 24; k++) {
        double x = (double)size_at(k);
        rows_add(&v, "loggp_gap", 2, "byte", size_at(k), 0, 0.9 + x / 9000, 0);
        rows_add(&v, "loggp_or", 2, "byte", size_at(k), 0, 0.5 + x / 50000, 0);
        rows_add(&v, "loggp_os", 2, "byte", size_at(k), 0, 0.6 + x / 40000, 0);
    }
    for (int k = 0; k < 24; k++)
        rows_add(&v, "pingpong", 2, "byte", size_at(k), 0, 2.2 + (double)size_at(k) / 9000, 1);
    cf_fit_input in = input_of(&v, "pingpong np 2 byte");
    in.rows = v.p + 72;
    in.n = 24;
    cf_fit f;
    cf_error e;
    ok(cf_fit_group("loggp", &in, &f, &e) == 0, "loggp: fits");
    check_fit(&f, "loggp fit");
    cf_fit_clear(&f);
    rows_free(&v);
}

/* A Hockney line is one range: the link carries it, the factors are 1. */
static void hockney(void)
{
    rows v = {0};
    for (int k = 0; k < 24; k++)
        rows_add(&v, "pingpong", 2, "byte", size_at(k), 0, 2 + (double)size_at(k) / 8000, 1);
    cf_fit f;
    fit_rows(&v, "linear", &f);
    cf_smpi_platform p;
    cf_error e;
    ok(cf_smpi_calibrate(&f, "m.json", &p, &e) == 0, "linear: calibrates");
    is_int((int)p.nsteps, 1, "linear: one range");
    near(p.bw_Bps, 8000e6, 1e-9, "linear: the link has the model's bandwidth");
    near(p.lat_us, 2 - 16.0 / 8000, 1e-9, "linear: and its latency less the envelope's time");
    char buf[256];
    cf_smpi_lat_factor(&p, buf, sizeof buf);
    is_str(buf, "0:1", "linear: lat-factor 0:1");
    cf_smpi_bw_factor(&p, buf, sizeof buf);
    is_str(buf, "0:1", "linear: bw-factor 0:1");
    near(cf_smpi_time_us(&p, 0), 2, 1e-12, "linear: 0 bytes cost alpha");
    near(cf_smpi_time_us(&p, 4194304), 2 + 4194304 / 8000.0, 1e-9, "linear: 4 MiB too");
    ok(fabs(p.beyond_rel_err) < 1e-9, "linear: the line continues the model past its range");
    ok(cf_smpi_lat_factor(&p, buf, 3) < 0, "a factor string that does not fit: -1");
    cf_smpi_platform_clear(&p);

    /* SimGrid's rule: a threshold S applies to simulated sizes above S, a payload above
     * S - 16. */
    cf_smpi_step st[2] = {{0, 1.0, 0.001}, {1000, 2.0, 0.002}};
    cf_smpi_platform q = {.lat_us = 1.0, .bw_Bps = 1e9, .nsteps = 2, .steps = st};
    near(cf_smpi_time_us(&q, 1000), 1.0 + 0.001 * 1016, 1e-12, "1000 B: the lower range");
    near(cf_smpi_time_us(&q, 1001), 2.0 + 0.002 * 1017, 1e-12, "1001 B: the upper one");
    cf_smpi_lat_factor(&q, buf, sizeof buf);
    is_str(buf, "0:1;1016:2", "thresholds carry the envelope");
    cf_smpi_bw_factor(&q, buf, sizeof buf);
    is_str(buf, "0:1;1016:0.5", "bandwidth factors are 1 / (B * us per byte)");

    /* Refusals: a time <= 0 in the range, and a single size. */
    f.seg[0].coef[0] = -10;
    ok(cf_smpi_calibrate(&f, "m.json", &p, &e) == CF_EXIT_DATA &&
           strstr(e.msg, "gives no positive time at 0 B") != NULL &&
           strcmp(e.file, "m.json") == 0,
       "a model <= 0 in its range: refused, naming the file (%s)", e.msg);
    f.seg[0].coef[0] = 2;
    f.max_bytes = f.min_bytes;
    ok(cf_smpi_calibrate(&f, "m.json", &p, &e) == CF_EXIT_DATA &&
           strstr(e.msg, "one size only") != NULL,
       "a model of one size: refused (%s)", e.msg);
    cf_fit_clear(&f);
    rows_free(&v);
}

/* The shipped models: every pingpong np=2 fit exports within the tolerance. */
static void shipped(void)
{
    const char *top = getenv("top_srcdir");
    static const char *const files[] = {
        "imb2021_mpich402_1node_np2_all",
        "imb41_gbrandino_juno_arm_internode_eth",
        "imb_stackhpc_ompi4_ib_pingpong",
        "osu532_hpccofc_ib_latency_compute001",
        "osu58_convergedcomputing_aws_hpc6a_efa_32n_lat_bw_allreduce",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/models/%s.json", top ? top : ".", files[i]);
        cf_modelset *m = NULL;
        cf_error e;
        if (!ok(cf_modelset_read(path, &m, &e) == 0, "%s: reads", files[i]))
            continue;
        const cf_fit *f = cf_modelset_find(m, "pingpong", 2, "byte");
        if (ok(f != NULL, "%s: has pingpong at np=2", files[i]))
            check_fit(f, files[i]);
        cf_modelset_free(m);
    }
}

int main(void)
{
    (void)noise; /* fitdata.h's, for the noisy fits of other tests */
    hockney();
    kinds();
    loggp();
    shipped();
    return tap_done();
}
