/* linear: Hockney's model, T(m) = alpha + beta*m: a start-up latency and a per-byte cost. */
#include "config.h"

#include "fit/model.h"

static const char *const names[] = {"alpha_us", "beta_us_per_byte"};
static const cf_term terms[] = {CF_TERM_ONE, CF_TERM_M};

static int fit(const cf_fit_input *in, cf_fit *out, cf_error *e)
{
    return cf_model_fit_terms(&cf_model_linear, in, out, e);
}

const cf_model_kind cf_model_linear = {
    .name = "linear",
    .summary = "Hockney: T(m) = alpha + beta*m",
    .ncoef = 2,
    .coef_names = names,
    .terms = terms,
    .max_segments = 1,
    .min_sizes = 3,
    .auto_candidate = 1,
    .fit = fit,
};
