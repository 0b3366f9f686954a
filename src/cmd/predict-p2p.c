/* commfit predict: the point-to-point estimate's note at one np: its ping-pong parameters,
 * the pattern's own np=2 factors, its model-error factor, and what np=2 never measured
 * there (another node's network, shared links), read from where the table's ranks ran. */
#include "config.h"

#include "cmd/predict-p2p.h"

#include "base/size.h"
#include "cmd/out-predict.h"
#include "modelfile/answer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Where np=2's times of the pattern moved no data, what that leaves the answer. */
static void no_transfer_note(const cf_p2p *pp, const cf_coll *c, const char *datatype, char *note,
                             size_t n)
{
    const cf_contention *nt = cf_p2p_no_transfer(pp, c->pattern, datatype);
    if (nt == NULL)
        return;
    char part[CF_PREDICT_NOTE_MAX], sizes[80];
    cf_size_range_format(nt->no_transfer_from, nt->no_transfer_to, sizes, sizeof sizes);
    snprintf(part, sizeof part,
             "at np=2 %s was faster than the ping-pong moves the bytes (at %s): those times are "
             "no transfers (a simulator's algorithm that skips the data, a broken timer), and "
             "this estimate, read through them, may come out too fast by any factor: no upper "
             "bound",
             c->pattern, sizes);
    cf_note_join(note, n, part);
}

void cf_predict_p2p_note(const cf_across_set *as, const cf_coll *c, const char *datatype, long np,
                         const cf_placement *p, cf_unmeasured *u, char *note, size_t n)
{
    const cf_p2p *pp = &as->pp;
    char part[CF_PREDICT_NOTE_MAX];
    /* First: what the estimate cannot know outweighs how it was made; where the launch's fan
     * probe measured np's ranks, it knows. */
    if (cf_placement_fan_covers(p, pp, c, datatype, np)) {
        /* The answer is np=2's measured time times the probe's ratio: not the ping-pong's
         * alpha and beta nor the pattern's np=2 factors, which the note would name for
         * nothing (the first review of stop 60). */
        cf_placement_fan_measured(p, pp, c, datatype, np, u);
        int out = strcmp(c->pattern, "scatterv") == 0;
        snprintf(part, sizeof part,
                 "the launch's fan probe (%s) measured rank 0 %s ranks 1 to %ld at once, "
                 "across whatever nodes and tiers they span; the answer is %s's measured time "
                 "at np=2 times the probe's ratio, each size's note says how",
                 out ? "fan_out_us" : "fan_in_us",
                 out ? "sending a message to each of" : "receiving one from each of", np - 1,
                 c->pattern);
        cf_note_join(note, n, part);
        no_transfer_note(pp, c, datatype, note, n);
        return;
    } else {
        cf_placement_unmeasured(p, np, u, part, sizeof part);
    }
    cf_note_join(note, n, part);
    snprintf(part, sizeof part, "from %s alpha %.4g us, beta %.4g us/B", pp->pattern,
             pp->h.alpha_us, pp->h.beta_us_per_byte);
    cf_note_join(note, n, part);
    if (pp->h.beta_held) {
        snprintf(part, sizeof part,
                 "beta held at 0: the ping-pong's %.6g B to %.6g B fitted beta = %.4g, which a "
                 "time per byte cannot be (its standard error stays the free fit's, %.3g us/B)",
                 pp->h.bytes_min, pp->h.bytes_max, pp->h.beta_free,
                 sqrt(fmax(0.0, pp->h.cov[1][1])));
        cf_note_join(note, n, part);
    }
    if (strcmp(c->datatype, "float") == 0) { /* the reductions: gamma counts */
        snprintf(part, sizeof part, "gamma %.4g us/B (%s)", pp->gamma_us_per_byte,
                 pp->gamma_source);
        cf_note_join(note, n, part);
    }
    /* What the estimate reads through (the note said "through gather's measured np=7 times"
     * of a table fitted at np 2-7, whose answer at np 9 was np=2's alone). */
    const cf_contention *k = cf_p2p_reads_through(pp, c->pattern, datatype, np);
    /* Below the np it was measured at, the estimate leans to the ping-pong's costs alone
     * (cf_p2p_predict). */
    const char *below = k != NULL && np < k->np
                            ? ", halfway (geometric) to the ping-pong's costs alone below that "
                              "np, the interval holding both"
                            : "";
    if (k != NULL && k->np == 2 && k->lat_factor > 0.0 && pp->h.beta_held)
        snprintf(part, sizeof part,
                 "through %s's np=2 times: latency x%.3g of the ping-pong's (the bandwidth "
                 "factor 1: it multiplies a beta held at 0)",
                 c->pattern, k->lat_factor);
    else if (k != NULL && k->np == 2 && k->lat_factor > 0.0)
        snprintf(part, sizeof part,
                 "through %s's np=2 times: latency x%.3g, bandwidth x%.3g of the ping-pong's",
                 c->pattern, k->lat_factor, k->bw_factor);
    else if (k != NULL && k->nunit >= 2)
        snprintf(part, sizeof part,
                 "through %s's measured np=%ld times, size by size (x%.3g to x%.3g of the "
                 "estimate there)%s",
                 c->pattern, k->np, k->min, k->max, below);
    else if (k != NULL)
        snprintf(part, sizeof part, "x%.3g contention measured at np=%ld%s", k->median, k->np,
                 below);
    else
        snprintf(part, sizeof part, "%s not measured at any np", c->pattern);
    cf_note_join(note, n, part);
    no_transfer_note(pp, c, datatype, note, n);
    cf_estimate est;
    cf_p2p_predict(pp, c, datatype, np, 0.0, &est);
    snprintf(part, sizeof part, "model-error factor %.3g in the interval", est.model_factor);
    cf_note_join(note, n, part);
}
