/* auto: fits every candidate kind (linear, poly2, piecewise) and keeps the one with the
 * lowest leave-one-out error; a more complex kind must do clearly better, or tie and
 * win on AICc by more than 2, to be taken: it has to earn its parameters. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "base/size.h"
#include "fit/model.h"

static int fit(const cf_fit_input *in, cf_fit *out, cf_error *e)
{
    cf_fit best, cand, bent;
    int have = 0, have_bent = 0, rc = 0;
    char notes[4][256];
    size_t nnotes = 0;
    cf_error first;
    cf_error_clear(&first);
    for (int i = 0; cf_model_kinds[i] != NULL; i++) {
        const cf_model_kind *k = cf_model_kinds[i];
        if (!k->auto_candidate)
            continue;
        cand = *out; /* identity and measured range */
        cand.rejected = NULL;
        cand.nrejected = 0;
        cand.gain = NULL;
        cand.ngain = 0;
        cand.warnings = NULL;
        cand.nwarnings = 0;
        cf_error e2;
        cf_error_clear(&e2);
        if (k->fit(in, &cand, &e2) != 0) {
            if (first.code == 0)
                first = e2;
            cf_fit_clear(&cand);
            continue;
        }
        /* A candidate that predicts a negative or non-finite cost is not chosen; the fit
         * chosen says so. */
        if (cf_fit_check(&cand, in, &e2) != 0) {
            if (first.code == 0)
                first = e2;
            size_t w = strlen(in->what);
            const char *why = strncmp(e2.msg, in->what, w) == 0 && e2.msg[w] == ':'
                                  ? e2.msg + w + 2
                                  : e2.msg;
            if (nnotes < sizeof notes / sizeof notes[0])
                snprintf(notes[nnotes++], sizeof notes[0], "%s not chosen: %.200s", k->name,
                         why);
            cf_fit_clear(&cand);
            continue;
        }
        /* Nor one whose time falls with size beyond some m (a concave curve: predict would
         * carry the fall past the measured sizes): set aside, to say so where it would
         * have been chosen, or to be chosen where nothing else fits. */
        if (isfinite(cf_fit_peak(&cand))) {
            if (have_bent)
                cf_fit_clear(&bent);
            bent = cand;
            have_bent = 1;
            continue;
        }
        if (!have || cf_fit_better(&cand, &best)) {
            if (have)
                cf_fit_clear(&best);
            best = cand;
            have = 1;
        } else {
            cf_fit_clear(&cand);
        }
    }
    if (have_bent && have && cf_fit_better(&bent, &best) &&
        nnotes < sizeof notes / sizeof notes[0]) {
        char at[32];
        cf_size_format_estimate(cf_fit_peak(&bent), at, sizeof at);
        snprintf(notes[nnotes++], sizeof notes[0],
                 "%s not chosen: concave, its time falls with size from %s", bent.kind->name, at);
    }
    if (have_bent && !have) {
        best = bent;
        have = 1;
    } else if (have_bent) {
        cf_fit_clear(&bent);
    }
    if (!have) {
        if (e != NULL)
            *e = first;
        return first.code ? first.code : CF_EXIT_DATA;
    }
    *out = best;
    for (size_t i = 0; i < nnotes; i++)
        cf_fit_warn(out, "%s", notes[i]);
    return rc;
}

const cf_model_kind cf_model_auto = {
    .name = "auto",
    .summary = "chooses linear, poly2 or piecewise by leave-one-out error, then AICc",
    .ncoef = 0,
    .coef_names = NULL,
    .terms = NULL,
    .max_segments = CF_SEG_MAX,
    .min_sizes = 3,
    .auto_candidate = 0,
    .fit = fit,
};
