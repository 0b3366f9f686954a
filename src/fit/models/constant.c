/* constant: T = t0, for a pattern measured without data (barrier: 0 bytes only), whose
 * time does not depend on a size. Its standard error comes from the spread of the rows
 * when there are several (replicates from several tables), else from the row's own
 * t_ci95_us over its samples. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "fit/model.h"

static const char *const names[] = {"t0_us"};
static const cf_term terms[] = {CF_TERM_ONE};

static int fit(const cf_fit_input *in, cf_fit *out, cf_error *e)
{
    size_t n = in->n;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += cf_row_time(in->rows[i], in->stat);
    double t0 = sum / (double)n, var_mean, s2, loo = NAN, max_rel = 0;
    int dof;
    if (n >= 2) {
        double ss = 0, sum_loo = 0;
        for (size_t i = 0; i < n; i++) {
            double t = cf_row_time(in->rows[i], in->stat), rest = (sum - t) / (double)(n - 1);
            ss += (t - t0) * (t - t0);
            sum_loo += fabs(t - rest) / t;
            max_rel = fmax(max_rel, fabs(t - t0) / t);
        }
        double var = ss / (double)(n - 1);
        var_mean = var / (double)n;
        s2 = var / (t0 * t0);
        dof = (int)n - 1;
        loo = sum_loo / (double)n;
    } else {
        /* One row: t_ci95_us is t(0.975, samples - 1) standard errors of its statistic,
         * and a new measurement of it spreads as much. */
        const cf_row *r = in->rows[0];
        if (!(r->t_ci95_us >= 0) || !isfinite(r->t_ci95_us) || r->samples < 2)
            return cf_fit_row_error(in, r, e,
                                    "%s: one row, %s: the constant model needs its spread "
                                    "(a t_ci95_us over 2 samples or more, or several rows)",
                                    in->what,
                                    r->samples < 2 ? "of one sample" : "without t_ci95_us");
        dof = r->samples - 1;
        double se = cf_row_se_us(r);
        var_mean = se * se;
        s2 = var_mean / (t0 * t0);
    }
    snprintf(out->model, sizeof out->model, "constant");
    out->kind = &cf_model_constant;
    out->ncoef = 1;
    snprintf(out->coef_names[0], CF_COEF_NAME_MAX, "%s", names[0]);
    out->nseg = 1;
    cf_segment *sg = &out->seg[0];
    sg->from_bytes = out->min_bytes;
    sg->to_bytes = out->max_bytes;
    sg->n = (int)n;
    sg->coef[0] = t0;
    sg->cov[0][0] = var_mean;
    out->s2 = s2;
    out->dof = dof;
    out->q.n = (int)n;
    out->q.dof = dof;
    out->q.loo_mape = loo;
    out->q.max_rel_err = max_rel;
    out->q.r2 = NAN; /* nothing varies for it to explain */
    out->q.aicc = n >= 2 ? cf_aicc(s2 * dof, n, 2) : NAN; /* the constant and the variance */
    return 0;
}

static void describe(const cf_fit *f, char *buf, size_t n)
{
    cf_prediction p;
    if (cf_fit_predict_unwidened(f, 0, 0, &p) == 0)
        snprintf(buf, n, "95%% interval of a measurement [%.3g, %.3g] us", p.lo_us, p.hi_us);
    else
        snprintf(buf, n, "no interval");
}

const cf_model_kind cf_model_constant = {
    .name = "constant",
    .summary = "T = t0: a pattern without data (barrier), measured at 0 bytes only",
    .ncoef = 1,
    .coef_names = names,
    .terms = terms,
    .max_segments = 1,
    .min_sizes = 1,
    .auto_candidate = 0,
    .fit = fit,
    .describe = describe,
};
