/* commfit predict: what an answer from a per-np fit says of itself: a size below the fitted
 * ones that was set aside as a no-op, the correction by the measured neighbours, and the
 * interval's widening beyond the measured sizes. */
#include "config.h"

#include "cmd/predict-fit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/size.h"
#include "modelfile/answer.h"

void cf_fit_note_set_aside(const cf_fit *f, uint64_t bytes, cf_predict_answer *out)
{
    char a[32], b[32];
    cf_size_format(bytes, a, sizeof a);
    cf_size_format(f->min_bytes, b, sizeof b);
    int said = 0;
    for (size_t i = 0; i < f->nset_aside && !said; i++)
        if (f->set_aside[i].bytes == bytes) {
            snprintf(out->bnote, sizeof out->bnote,
                     "bytes %s is below the fitted sizes (from %s): measured there %.3g us, "
                     "a no-op set aside from the fit",
                     a, b, f->set_aside[i].t_us);
            said = 1;
        }
    if (!said)
        snprintf(out->bnote, sizeof out->bnote,
                 "bytes %s is below the fitted sizes (from %s), which start above sizes "
                 "set aside as a no-op",
                 a, b);
}

void cf_fit_note_near(const cf_prediction *pr, cf_predict_answer *out)
{
    char a[32], b[32], part[256], model[sizeof out->model_buf - 24];
    snprintf(model, sizeof model, "%s", out->model);
    snprintf(out->model_buf, sizeof out->model_buf, "%s + measured neighbours", model);
    out->model = out->model_buf;
    cf_size_format(pr->near_lo, a, sizeof a);
    cf_size_format(pr->near_hi, b, sizeof b);
    if (pr->near_lo == pr->near_hi)
        snprintf(part, sizeof part, "at the measured %s: its measured time (the model x%.3g)", a,
                 pr->near_ratio);
    else if (pr->near_step)
        snprintf(part, sizeof part,
                 "between the measured %s and %s: log-log between them, the model x%.3g (the "
                 "points around do not bend as the model does: a step may lie between them)",
                 a, b, pr->near_ratio);
    else
        snprintf(part, sizeof part,
                 "between the measured %s and %s: the model x%.3g (their measured / model "
                 "ratios read log-log)",
                 a, b, pr->near_ratio);
    cf_note_join(out->bnote, sizeof out->bnote, part);
}

/* The measured trend at the top that the interval also holds (trend_us): beyond the fit's
 * sizes, widened as the model's interval; inside them, above the largest size measured at
 * the block count asked for (a datatype fit's sizes differ by count: 4192000 B at 1000
 * blocks, 4 MiB at 1), as read, the model's interval not widened there. */
static void note_trend(const cf_fit *f, const cf_prediction *pr, cf_predict_answer *out)
{
    char a[32], b[32], part[320];
    cf_size_format(pr->trend_lo, a, sizeof a);
    cf_size_format(pr->trend_hi, b, sizeof b);
    if (pr->doublings > 0)
        snprintf(part, sizeof part,
                 "the interval also holds the measured trend carried on (log-log through the "
                 "octaves up to %s and %s: %.3g us), widened the same",
                 a, b, pr->trend_us);
    else
        snprintf(part, sizeof part,
                 "above %llu B, the largest size measured%s: the interval also holds the "
                 "measured trend carried on (log-log through the octaves up to %s and %s: "
                 "%.3g us)",
                 (unsigned long long)pr->trend_hi, f->blocks > 0 ? " at these blocks" : "", a, b,
                 pr->trend_us);
    cf_note_join(out->bnote, sizeof out->bnote, part);
}

/* How much the interval was widened beyond the fit's measured sizes, and from what. */
static void note_widened(const cf_fit *f, const cf_prediction *pr, cf_predict_answer *out)
{
    int backtested;
    double e = cf_fit_extrap_err(f, (double)out->bytes, &backtested);
    const char *s = pr->doublings == 1.0 ? "" : "s";
    char part[256], to[32];
    if (backtested) {
        cf_size_format(f->bt.fitted_to_bytes, to, sizeof to);
        snprintf(part, sizeof part,
                 "interval widened x%.3g: %.2g doubling%s beyond the measured sizes at %.3g%% "
                 "each (the fit's backtest: refitted up to %s, read above)",
                 pr->widen, pr->doublings, s, 100 * expm1(e), to);
    } else {
        char why[96] = "";
        if ((double)out->bytes > (double)f->max_bytes && f->bt.n > 0)
            snprintf(why, sizeof why, ", more than its backtest in size read, %.3g%%",
                     100 * expm1(f->bt.err_per_doubling));
        else if ((double)out->bytes > (double)f->max_bytes)
            snprintf(why, sizeof why, ": no backtest in size");
        snprintf(part, sizeof part,
                 "interval widened x%.3g: %.2g doubling%s beyond the measured sizes at %.3g%% "
                 "each (the fit's leave-one-out error%s)",
                 pr->widen, pr->doublings, s, 100 * expm1(e), why);
    }
    cf_note_join(out->bnote, sizeof out->bnote, part);
}

void cf_fit_note_widen(const cf_fit *f, const cf_prediction *pr, cf_predict_answer *out)
{
    if (pr->doublings > 0)
        note_widened(f, pr, out);
    if (pr->trend_us > 0)
        note_trend(f, pr, out);
}

void cf_fit_note_pair_bound(const cf_fit *f, uint64_t bytes, cf_predict_answer *out)
{
    if (f->pair_from_bytes == 0 || bytes < f->pair_from_bytes)
        return;
    char a[32], b[32], part[400];
    cf_size_format(f->pair_from_bytes, a, sizeof a);
    cf_size_format(f->pair_to_bytes, b, sizeof b);
    snprintf(part, sizeof part,
             "fit found this collective at np=2 faster than the table's ping-pong moves the "
             "bytes (at %s%s%s): those times are no transfers (a simulator's algorithm that "
             "skips the data, a broken timer), and this answer, read from them, is faster "
             "than any transfer of its bytes",
             a, f->pair_to_bytes != f->pair_from_bytes ? " to " : "",
             f->pair_to_bytes != f->pair_from_bytes ? b : "");
    cf_note_join(out->bnote, sizeof out->bnote, part);
}
