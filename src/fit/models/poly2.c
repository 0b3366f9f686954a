/* poly2: T(m) = c0 + c1*m + c2*m^2, for patterns whose cost bends with size (gather). */
#include "config.h"

#include <math.h>

#include "base/size.h"
#include "fit/model.h"

static const char *const names[] = {"c0_us", "c1_us_per_byte", "c2_us_per_byte2"};
static const cf_term terms[] = {CF_TERM_ONE, CF_TERM_M, CF_TERM_M2};

static int fit(const cf_fit_input *in, cf_fit *out, cf_error *e)
{
    int rc = cf_model_fit_terms(&cf_model_poly2, in, out, e);
    double peak = rc == 0 ? cf_fit_peak(out) : INFINITY;
    if (isfinite(peak)) {
        char at[32];
        cf_size_format_estimate(peak, at, sizeof at);
        cf_fit_warn(out,
                    "concave: its time falls with size from %s, and predict carries the fall "
                    "beyond the measured sizes (auto chooses it only where nothing else fits)",
                    at);
    }
    return rc;
}

const cf_model_kind cf_model_poly2 = {
    .name = "poly2",
    .summary = "T(m) = c0 + c1*m + c2*m^2",
    .ncoef = 3,
    .coef_names = names,
    .terms = terms,
    .max_segments = 1,
    .min_sizes = 4,
    .auto_candidate = 1,
    .fit = fit,
};
