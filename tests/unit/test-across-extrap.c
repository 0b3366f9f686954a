/* The across-np model beyond the measured process counts: the backtest that widens its
 * interval per doubling of p, the multiplicative interval, and the p-linear latency
 * candidates, against data made from known formulas with seeded noise. */
#include "config.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit/across.h"
#include "modelfile/across-json.h"
#include "tap.h"

#define NSIZES 21 /* 4 B .. 4 MiB in powers of two */
#define MAXPTS 512

static double size_at(int i)
{
    return ldexp(4.0, i);
}

/* A cost in (p, m): latency lat_k * f(p) + beta * ceil(lg p) * m, f one of the shapes. */
typedef enum shape { LG, LG_PLUS_LINEAR, POWER, ACCEL, SQRT_CONTENTION } shape;
typedef struct truth_t {
    shape s;
    double lat, c, beta;
} truth_t;

static double truth(const truth_t *w, long p, double m)
{
    double lg = cf_ceil_lg(p), lat = 0.0;
    switch (w->s) {
    case LG:
        lat = w->lat * lg;
        break;
    case LG_PLUS_LINEAR:
        lat = w->lat * lg + w->c * (double)(p - 1);
        break;
    case POWER: /* contention growing faster than any term of the model: 2.5x per doubling */
        lat = w->lat * pow((double)p / 64.0, 1.32);
        break;
    case ACCEL: { /* growth that accelerates: 1.8x, 3.3x, 6x, 11x per doubling from np 64 */
        double x = log2((double)p / 64.0);
        lat = w->lat * exp(w->c * (x + x * x));
        break;
    }
    case SQRT_CONTENTION: /* a bandwidth shared by sqrt(p) more flows: the model has none */
        return w->lat * lg + w->beta * m * (double)(p - 1) / (double)p * (1 + w->c * sqrt(p));
    }
    return lat + w->beta * lg * m;
}

static size_t make_points(const truth_t *w, const long *nps, int nnp, double noise, gsl_rng *r,
                          cf_point *pts)
{
    size_t n = 0;
    for (int a = 0; a < nnp; a++)
        for (int i = 0; i < NSIZES; i++) {
            double t = truth(w, nps[a], size_at(i)) * exp(noise * gsl_ran_gaussian(r, 1.0));
            pts[n++] = (cf_point){nps[a], size_at(i), t};
        }
    return n;
}

/* allreduce points of w at nps with 3% seeded noise, fitted as commfit fit does with
 * candidates cands; the fit's return. */
static int fit_truth(const truth_t *w, unsigned long seed, const long *nps, int nnp, unsigned cands,
                     cf_across *a)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    cf_point pts[MAXPTS];
    size_t n = make_points(w, nps, nnp, 0.03, r, pts);
    gsl_rng_free(r);
    cf_error e;
    cf_error_clear(&e);
    return cf_across_fit_extrap(cf_coll_find("allreduce"), "float", pts, n, cands, a, &e);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Over the sizes at p: how many intervals hold the truth, the median width (hi/lo) and the
 * median relative error. */
static void judge(const cf_across *a, const truth_t *w, long p, int *covered, double *width,
                  double *err)
{
    double wd[NSIZES], er[NSIZES];
    *covered = 0;
    for (int i = 0; i < NSIZES; i++) {
        cf_estimate est;
        cf_across_predict(a, p, size_at(i), &est);
        double want = truth(w, p, size_at(i));
        *covered += est.lo_us <= want && want <= est.hi_us;
        wd[i] = est.lo_us > 0 ? est.hi_us / est.lo_us : INFINITY;
        er[i] = fabs(est.t_us - want) / want;
    }
    qsort(wd, NSIZES, sizeof *wd, cmp_double);
    qsort(er, NSIZES, sizeof *er, cmp_double);
    *width = wd[NSIZES / 2];
    *err = er[NSIZES / 2];
}

/* Time growing with p faster than the model can say (as on the real hpc6a set, where the
 * small-message time doubles with every doubling of nodes): fitted at 4 process counts,
 * read at 2x and 4x beyond, the interval still holds the truth; without the backtest's
 * widening it would not. */
static void unsupported(void)
{
    truth_t w = {POWER, 200.0, 0.0, 2e-3};
    const long nps[] = {64, 128, 256, 512};
    cf_across a;
    is_int(fit_truth(&w, 7, nps, 4, CF_ACROSS_P_LINEAR, &a), 0,
           "contention beyond the model: fits");
    ok(a.error[0] == '\0' && isfinite(a.seg[0].extrap_err) && a.seg[0].extrap_err > 0.05,
       "the backtest finds the model misses one doubling beyond (%.3f per doubling)",
       a.seg[0].extrap_err);
    for (long p = 1024; p <= 2048; p *= 2) {
        int cov;
        double wd, er;
        judge(&a, &w, p, &cov, &wd, &er);
        ok(cov >= NSIZES * 9 / 10,
           "np %ld (%ldx beyond): the interval holds the truth at %d of "
           "%d sizes (median error %.0f%%, width %.2f)",
           p, p / 512, cov, NSIZES, 100 * er, wd);
        ok(wd < 50.0, "np %ld: and it stays a bounded factor (median hi/lo %.2f)", p, wd);
        /* Since stop 48 the measured growth carried on holds it too (growth_reach). */
        cf_across z = a;
        for (int i = 0; i < z.nseg; i++) {
            z.seg[i].extrap_err = 0.0;
            for (int e = 0; e < 2; e++)
                z.seg[i].growth[e] = z.seg[i].growth_change[e] = NAN;
        }
        int cov0;
        judge(&z, &w, p, &cov0, &wd, &er);
        ok(cov0 < cov,
           "np %ld: without the widening per doubling and the growth fewer are held (%d < %d)",
           p, cov0, cov);
    }
}

/* The model's own algorithm with 3% noise: the backtest finds little to add, the interval
 * beyond stays narrow and still holds the truth, and no p-linear term is taken. */
static void supported(void)
{
    truth_t w = {LG, 3.0, 0.0, 2e-4};
    const long nps[] = {2, 4, 8, 16};
    cf_across a;
    is_int(fit_truth(&w, 11, nps, 4, CF_ACROSS_P_LINEAR, &a), 0, "the model's own algorithm: fits");
    ok(a.nseg >= 1 && strstr(a.seg[0].algorithm, "p-linear") == NULL,
       "no p-linear latency where there is none (%s)", a.seg[0].algorithm);
    ok(isfinite(a.seg[0].extrap_err) && a.seg[0].extrap_err < 0.05,
       "the backtest misses by little (%.4f per doubling)", a.seg[0].extrap_err);
    for (long p = 32; p <= 64; p *= 2) {
        int cov;
        double wd, er;
        judge(&a, &w, p, &cov, &wd, &er);
        /* 1.4 until stop 48, which carries the measured growth (lg p's, slowing down) on
         * unslowed: 1.29 at 2x, 1.55 at 4x (for 1.26 and 1.37 before). */
        ok(cov == NSIZES && wd < 1.6,
           "np %ld (%ldx beyond): every size held by a narrow interval (%d of %d, median hi/lo "
           "%.3f)",
           p, p / 16, cov, NSIZES, wd);
    }
    cf_estimate in, out;
    cf_across_predict(&a, 16, 1024, &in);
    cf_across_predict(&a, 64, 1024, &out);
    ok(out.hi_us / out.lo_us > in.hi_us / in.lo_us && in.lo_us > 0,
       "wider beyond the measured np than at them (%.3f > %.3f), never down to 0",
       out.hi_us / out.lo_us, in.hi_us / in.lo_us);
}

/* Latency with a term linear in p (contention at scale): the p-linear candidate is taken
 * where the table's library has no rules, and reads 4x beyond far better than the plain fit. */
static void p_linear(void)
{
    truth_t w = {LG_PLUS_LINEAR, 20.0, 0.15, 2e-3};
    const long nps[] = {128, 256, 512, 1024};
    cf_across a, plain;
    is_int(fit_truth(&w, 5, nps, 4, CF_ACROSS_P_LINEAR, &a), 0, "latency linear in p: fits");
    is_int(fit_truth(&w, 5, nps, 4, 0, &plain), 0,
           "latency linear in p: fits without the p-linear candidates");
    ok(strstr(a.seg[0].algorithm, "p-linear") != NULL, "the p-linear candidate is taken (%s)",
       a.seg[0].algorithm);
    int cov, cov0;
    double wd, er, wd0, er0;
    judge(&a, &w, 4096, &cov, &wd, &er);
    judge(&plain, &w, 4096, &cov0, &wd0, &er0);
    ok(er < 0.1 && er < er0 / 2, "np 4096: median error %.1f%% (plain fit: %.1f%%)", 100 * er,
       100 * er0);
    ok(cov >= NSIZES * 9 / 10, "np 4096: held at %d of %d sizes", cov, NSIZES);
    /* The plain fit's backtest (512 to 1024) sees the linear term only starting to
     * dominate: it widens, but not as far as the gap grows 2 doublings on. */
    ok(wd0 > 2 * wd,
       "np 4096: the plain fit's interval, widened by its backtest, is the "
       "wider (hi/lo %.1f against %.1f; it holds %d of %d)",
       wd0, wd, cov0, NSIZES);
}

/* Growth that accelerated inside the measured np (as on the real GKE set: 1.8x, then 3.3x
 * per doubling of nodes) may go on accelerating: fitted at three np, read 2x and 4x beyond,
 * the interval holds the truth; with the backtest's widening alone it would not. */
static void accelerating(void)
{
    truth_t w = {ACCEL, 200.0, 0.3, 2e-3};
    const long nps[] = {64, 128, 256};
    cf_across a;
    is_int(fit_truth(&w, 13, nps, 3, CF_ACROSS_P_LINEAR, &a), 0, "accelerating growth: fits");
    ok(isfinite(a.seg[0].growth_change[1]) && a.seg[0].growth_change[1] > 0.3,
       "the measured growth accelerates (up to %.2f per doubling, +%.2f per doubling)",
       a.seg[0].growth[1], a.seg[0].growth_change[1]);
    for (long p = 512; p <= 1024; p *= 2) {
        int cov, cov0;
        double wd, er, wd0;
        judge(&a, &w, p, &cov, &wd, &er);
        ok(cov >= NSIZES * 9 / 10,
           "np %ld (%ldx beyond): the interval holds the truth at %d of %d sizes (median "
           "error %.0f%%, width %.1f)",
           p, p / 256, cov, NSIZES, 100 * er, wd);
        cf_across z = a;
        for (int i = 0; i < z.nseg; i++)
            for (int e = 0; e < 2; e++)
                z.seg[i].growth[e] = z.seg[i].growth_change[e] = NAN;
        judge(&z, &w, p, &cov0, &wd0, &er);
        ok(cov0 < cov, "np %ld: the backtest's widening alone holds fewer (%d < %d)", p, cov0, cov);
    }
}

/* A contention growing as sqrt(p) (audit A-F1 of stop 47): the robust fit sets aside the
 * larger sizes of np 2 and 4 as outliers, and the model left grows by half the growth
 * measured at np 64, which slows down only at the small sizes (lg p). Fitted at np 2-64 and
 * read 16x and 64x beyond, the interval holds the truth because its upper end carries the
 * measured growth on; until stop 48 that was done only where the growth accelerated at
 * nearly every size, and it held 13 and 12 of the 21 sizes. */
static void sqrt_contention(void)
{
    truth_t w = {SQRT_CONTENTION, 2.0, 0.25, 2e-4};
    const long nps[] = {2, 4, 8, 16, 32, 64};
    cf_across a;
    is_int(fit_truth(&w, 1, nps, 6, CF_ACROSS_P_LINEAR, &a), 0, "sqrt(p) contention: fits");
    ok(a.seg[0].growth_change[0] < 0, "the measured growth slows down at some sizes (%.3f)",
       a.seg[0].growth_change[0]);
    for (long p = 1024; p <= 4096; p *= 4) {
        int cov;
        double wd, er;
        judge(&a, &w, p, &cov, &wd, &er);
        ok(cov >= NSIZES * 9 / 10,
           "np %ld (%ldx beyond): the interval holds the truth at %d of %d sizes (median "
           "error %.0f%%, width %.1f)",
           p, p / 64, cov, NSIZES, 100 * er, wd);
        ok(wd < 10.0, "np %ld: a bounded factor (median hi/lo %.2f)", p, wd);
    }
}

/* The backtest in the model file: written, read back to the same interval; a negative one
 * refused with its path; none (a file from before it) widens by the leave-one-out error. */
static void model_file(void)
{
    truth_t w = {POWER, 200.0, 0.0, 2e-3};
    const long nps[] = {64, 128, 256};
    cf_across a, b;
    cf_error e;
    cf_error_clear(&e);
    is_int(fit_truth(&w, 3, nps, 3, CF_ACROSS_P_LINEAR, &a), 0, "three process counts: fits");
    ok(isfinite(a.seg[0].extrap_err), "three process counts: a backtest from two (%.3f)",
       a.seg[0].extrap_err);
    json_t *j = cf_across_to_json(&a);
    json_t *s0 = json_array_get(json_object_get(j, "segments"), 0);
    ok(json_is_number(json_object_get(s0, "extrap_err_per_doubling")),
       "written as segments[].extrap_err_per_doubling");
    ok(json_array_size(json_object_get(s0, "growth_per_doubling")) == 2 &&
           json_array_size(json_object_get(s0, "growth_change_per_doubling")) == 2,
       "the measured growth written as growth_per_doubling, growth_change_per_doubling");
    is_int(cf_across_from_json(j, "m.json", 0, &b, &e), 0, "read back");
    cf_estimate x, y;
    cf_across_predict(&a, 1024, 4096, &x);
    cf_across_predict(&b, 1024, 4096, &y);
    ok(fabs(x.lo_us - y.lo_us) <= 1e-9 * x.lo_us && fabs(x.hi_us - y.hi_us) <= 1e-9 * x.hi_us,
       "read back: the same interval 2 doublings beyond");
    json_object_set_new(s0, "growth_per_doubling", json_pack("[f,f]", 0.5, 0.1));
    is_int(cf_across_from_json(j, "m.json", 0, &b, &e), CF_EXIT_DATA,
           "a growth whose ends are the wrong way round refused");
    is_str(e.msg,
           "across_np[0].segments[0].growth_per_doubling: expected null or [low, high], two "
           "numbers, low <= high",
           "refused by its path");
    json_object_set_new(s0, "growth_per_doubling", json_null());
    cf_error_clear(&e);
    json_object_set_new(s0, "extrap_err_per_doubling", json_real(-0.5));
    is_int(cf_across_from_json(j, "m.json", 0, &b, &e), CF_EXIT_DATA, "a negative one refused");
    is_str(e.msg, "across_np[0].segments[0].extrap_err_per_doubling: expected a number >= 0",
           "refused by its path");
    json_object_del(s0, "extrap_err_per_doubling");
    json_object_del(s0, "growth_per_doubling");
    json_object_del(s0, "growth_change_per_doubling");
    cf_error_clear(&e);
    is_int(cf_across_from_json(j, "m.json", 0, &b, &e), 0, "a file from before: read");
    cf_across_predict(&b, 256, 4096, &x);
    cf_across_predict(&b, 1024, 4096, &y);
    ok(isnan(b.seg[0].extrap_err) && y.hi_us / y.lo_us > x.hi_us / x.lo_us,
       "a file from before: still wider beyond (%.2f > %.2f)", y.hi_us / y.lo_us,
       x.hi_us / x.lo_us);
    json_decref(j);
}

int main(void)
{
    unsupported();
    supported();
    p_linear();
    accelerating();
    sqrt_contention();
    model_file();
    return tap_done();
}
