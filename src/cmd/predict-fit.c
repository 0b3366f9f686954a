/* commfit predict: what an answer from a per-np fit says of itself: a size below the fitted
 * ones that was set aside as a no-op, the correction by the measured neighbours, and the
 * interval's widening beyond the measured sizes. */
#include "config.h"

#include "cmd/predict-fit.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/size.h"
#include "modelfile/answer.h"

/* The factor each way about a no-op's measured time: a call without data takes a few
 * hundredths of a microsecond, which IMB and OSU print to 0.01 us (IMB's allgather of 0 B:
 * t_min 0.03, t_max 0.04). */
#define NO_OP_FACTOR 2.0

void cf_fit_note_set_aside(const cf_fit *f, uint64_t bytes, cf_predict_answer *out)
{
    char a[32], b[32];
    cf_size_format(bytes, a, sizeof a);
    cf_size_format(f->min_bytes, b, sizeof b);
    int said = 0;
    for (size_t i = 0; i < f->nset_aside && !said; i++)
        if (f->set_aside[i].bytes == bytes) {
            snprintf(out->bnote, sizeof out->bnote,
                     "bytes %s is below the fitted sizes (from %s): measured there %.*g us, "
                     "a no-op set aside from the fit",
                     a, b, cf_sig_prec(f->set_aside[i].t_us, 3), f->set_aside[i].t_us);
            said = 1;
        }
    if (!said)
        snprintf(out->bnote, sizeof out->bnote,
                 "bytes %s is below the fitted sizes (from %s), which start above sizes "
                 "set aside as a no-op",
                 a, b);
}

int cf_fit_answer_set_aside(const cf_fit *f, uint64_t bytes, int blocks, cf_predict_answer *out)
{
    /* The set-aside sizes at and around bytes (the table's smallest, below the fitted
     * ones), at the answer's block count where the fit has a block term, each size's rows
     * all (tables fitted together each set theirs aside): a call moving as little costs
     * what they took, not the model's reading carried down to them (IMB's allgather of 0 B
     * at np 64, 0.04 us, read 697 us in [16.4, 29425] from a line through 64 KiB to 1 MiB,
     * its note saying 0.04). */
    uint64_t below = 0, above = UINT64_MAX;
    int has_below = 0, has_above = 0;
    for (size_t i = 0; i < f->nset_aside; i++) {
        const cf_rejected *q = &f->set_aside[i];
        if (!(q->t_us > 0) || (f->max_blocks > 0 && q->blocks != blocks))
            continue;
        if (q->bytes <= bytes && (!has_below || q->bytes > below))
            below = q->bytes, has_below = 1;
        if (q->bytes >= bytes && (!has_above || q->bytes < above))
            above = q->bytes, has_above = 1;
    }
    if (!has_below || !has_above)
        return 0;
    double lo = INFINITY, hi = 0.0, ln_at = 0.0, ln_ends = 0.0, one_at = NAN;
    int n_at = 0, n_ends = 0;
    for (size_t i = 0; i < f->nset_aside; i++) {
        const cf_rejected *q = &f->set_aside[i];
        if (!(q->t_us > 0) || (f->max_blocks > 0 && q->blocks != blocks) ||
            (q->bytes != below && q->bytes != above))
            continue;
        lo = fmin(lo, q->t_us);
        hi = fmax(hi, q->t_us);
        ln_ends += log(q->t_us);
        n_ends++;
        if (q->bytes == bytes) {
            ln_at += log(q->t_us);
            one_at = q->t_us;
            n_at++;
        }
    }
    char a[32], b[32];
    cf_size_format(bytes, a, sizeof a);
    cf_size_format(f->min_bytes, b, sizeof b);
    /* One row: its time as it was (exp(log) of 0.01 printed 0.010000000000000004). */
    double t = n_at == 1 ? one_at : exp(n_at > 0 ? ln_at / n_at : ln_ends / n_ends);
    out->t = t;
    out->lo = lo / NO_OP_FACTOR;
    out->hi = hi * NO_OP_FACTOR;
    snprintf(out->model_buf, sizeof out->model_buf, "measured no-op");
    out->model = out->model_buf;
    if (n_at > 0)
        snprintf(out->bnote, sizeof out->bnote,
                 "bytes %s is below the fitted sizes (from %s), a no-op set aside from the "
                 "fit: its measured time, %.*g us%s, the interval a factor %g each way "
                 "(--model-alone: the model's reading)",
                 a, b, cf_sig_prec(t, 3), t, n_at > 1 ? " (the geometric mean of its rows)" : "",
                 NO_OP_FACTOR);
    else
        snprintf(out->bnote, sizeof out->bnote,
                 "bytes %s is below the fitted sizes (from %s), between sizes set aside from "
                 "the fit as a no-op: the geometric mean of their measured times, the "
                 "interval holding them, a factor %g each way (--model-alone: the model's "
                 "reading)",
                 a, b, NO_OP_FACTOR);
    return 1;
}

/* s at p; returns the end. */
static char *cat(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n + 1);
    return p + n;
}

/* Put together, not printed (cf_fmt_g): every answer of a batch read between measured
 * points says so. */
void cf_fit_note_near(const cf_prediction *pr, cf_predict_answer *out)
{
    cf_predict_model_append(out, " + measured neighbours");
    char a[32], b[32], x[32], part[512], *p = part;
    cf_size_format(pr->near_lo, a, sizeof a);
    cf_size_format(pr->near_hi, b, sizeof b);
    cf_fmt_g(x, sizeof x, pr->near_ratio, 3);
    if (pr->near_lo == pr->near_hi) {
        p = cat(cat(cat(cat(p, "at the measured "), a), ": its measured time (the model x"), x);
        cat(p, ")");
    } else if (pr->near_switch != 0) {
        char from[32], sl[32];
        cf_fmt_g(sl, sizeof sl, pr->switch_slope, 2);
        if (pr->switch_from > 0)
            cf_size_format(pr->switch_from, from, sizeof from);
        char how[128];
        snprintf(how, sizeof how, "%s%s carried on, slope %s",
                 pr->switch_from > 0 ? "the log-log chord from " : "the model's own slope",
                 pr->switch_from > 0 ? from : "", sl);
        if (pr->switch_other == NULL)
            snprintf(part, sizeof part,
                     "between the measured %s and %s SimGrid's sends start to wait for their "
                     "receiver (64 KiB), and the %s sends the whole message: read from %s on, "
                     "whose sends %s as here (%s), the interval as far as such carries missed "
                     "and the line across",
                     a, b, pr->switch_alg, pr->near_switch < 0 ? a : b,
                     pr->near_switch < 0 ? "leave at once" : "wait", how);
        else
            snprintf(part, sizeof part,
                     "between the measured %s and %s the library's rules switch from the %s to "
                     "the %s: read from %s on, where they run the %s as here (%s), the interval "
                     "as far as such carries missed and the line across the switch",
                     a, b, pr->near_switch < 0 ? pr->switch_alg : pr->switch_other,
                     pr->near_switch < 0 ? pr->switch_other : pr->switch_alg,
                     pr->near_switch < 0 ? a : b, pr->switch_alg, how);
    } else {
        p = cat(cat(cat(cat(p, "between the measured "), a), " and "), b);
        if (pr->near_step)
            cat(cat(cat(p, ": log-log between them, the model x"), x),
                " (the points around do not bend as the model does: a step may lie between "
                "them)");
        else
            cat(cat(cat(p, ": the model x"), x), " (their measured / model ratios read log-log)");
    }
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
                 "octaves up to %s and %s: %.*g us), widened the same",
                 a, b, cf_sig_prec(pr->trend_us, 3), pr->trend_us);
    else
        snprintf(part, sizeof part,
                 "above %llu B, the largest size measured%s: the interval also holds the "
                 "measured trend carried on (log-log through the octaves up to %s and %s: "
                 "%.*g us)",
                 (unsigned long long)pr->trend_hi, f->blocks > 0 ? " at these blocks" : "", a, b,
                 cf_sig_prec(pr->trend_us, 3), pr->trend_us);
    cf_note_join(out->bnote, sizeof out->bnote, part);
}

/* How much the interval was widened beyond the fit's measured sizes, and from what. */
static void note_widened(const cf_fit *f, const cf_prediction *pr, cf_predict_answer *out)
{
    int backtested;
    double e = cf_fit_extrap_err(f, (double)out->bytes, &backtested);
    const char *s = pr->doublings == 1.0 ? "" : "s";
    char part[320], to[32], below[64] = "";
    if (pr->turn > 0) {
        cf_size_format(f->max_bytes, to, sizeof to);
        snprintf(part, sizeof part,
                 "interval widened x%.3g: %.2g doubling%s beyond the measured sizes, as far as "
                 "the time would go if the log-log slope went on turning as it did in the top "
                 "octaves up to %s (%.2g a doubling), more than the fit's %s reads (%.3g%% a "
                 "doubling)",
                 pr->widen, pr->doublings, s, to, pr->turn,
                 backtested ? "backtest in size" : "leave-one-out error", 100 * expm1(e));
    } else if (backtested) {
        cf_size_format(f->bt.fitted_to_bytes, to, sizeof to);
        if (f->bt.refits == 2)
            snprintf(below, sizeof below, ", as was a refit one octave lower");
        else if (f->bt.refits > 2)
            snprintf(below, sizeof below, ", as were refits one and two octaves lower");
        snprintf(part, sizeof part,
                 "interval widened x%.3g: %.2g doubling%s beyond the measured sizes at %.3g%% "
                 "each (the fit's backtest: refitted up to %s and read at the sizes above%s)",
                 pr->widen, pr->doublings, s, 100 * expm1(e), to, below);
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

/* How much the interval was widened beyond the fit's measured block counts, and from
 * what. */
static void note_blocks_widened(const cf_fit *f, const cf_prediction *pr, cf_predict_answer *out)
{
    int backtested, above = (double)out->blocks > (double)f->max_blocks;
    double e = cf_fit_block_extrap_err(f, (double)out->blocks, &backtested);
    const cf_blocks_end *b = above ? &f->bbt.above : &f->bbt.below;
    const char *s = pr->block_doublings == 1.0 ? "" : "s";
    char part[320], why[160] = "";
    if (backtested) {
        char more[64] = "";
        if (b->refits == 2)
            snprintf(more, sizeof more, ", as was a refit one count further in");
        else if (b->refits > 2)
            snprintf(more, sizeof more, ", as were refits one and two counts further in");
        snprintf(why, sizeof why,
                 "the fit's backtest in blocks: refitted on the counts %s %d and read at the "
                 "count %s%s",
                 above ? "up to" : "from", b->fitted_blocks, above ? "above" : "below", more);
    } else if (b->n > 0) {
        snprintf(why, sizeof why,
                 "the fit's leave-one-out error, more than its backtest in blocks read, %.3g%%",
                 100 * expm1(b->err_per_doubling));
    } else {
        snprintf(why, sizeof why, "the fit's leave-one-out error: no backtest in blocks");
    }
    snprintf(part, sizeof part,
             "interval widened x%.3g: %.2g doubling%s of blocks %s the measured counts at "
             "%.3g%% each (%s)",
             pr->block_widen, pr->block_doublings, s, above ? "beyond" : "below",
             100 * expm1(e), why);
    cf_note_join(out->bnote, sizeof out->bnote, part);
}

/* Beyond the measured sizes, the model's reading carried on from the measured time at the
 * largest size (anchor): by what factor, and how much of the ratio there. */
static void note_anchor(const cf_fit *f, const cf_prediction *pr, cf_predict_answer *out)
{
    cf_predict_model_append(out, " + measured top");
    char a[32], x[32], r[32], part[400];
    cf_size_format(pr->anchor_bytes, a, sizeof a);
    cf_fmt_g(x, sizeof x, pr->anchor, 3);
    cf_fmt_g(r, sizeof r, pr->anchor_ratio, 3);
    double w = log(pr->anchor) / log(pr->anchor_ratio);
    if (strcmp(x, r) == 0)
        snprintf(part, sizeof part,
                 "the model x%s, its measured / model ratio at %s, the largest size measured, "
                 "carried on (the interval holds the model's own reading too)",
                 x, a);
    else
        snprintf(part, sizeof part,
                 "the model x%s: its measured / model ratio at %s, the largest size measured "
                 "(x%s), to the weight %.2f (whole there, easing over the first doubling to "
                 "the %.2f it earned in the fit's backtest in size; the interval holds the "
                 "model's own reading too)",
                 x, a, r, w, cf_fit_weight_snap(f->bt.anchor_weight));
    cf_note_join(out->bnote, sizeof out->bnote, part);
}

/* Beyond the measured sizes, the answer weighed between the model and the measured trend
 * (trend_weight): by how much, and each one's time. */
static void note_weighed(const cf_prediction *pr, cf_predict_answer *out)
{
    cf_predict_model_append(out, " + measured trend");
    char a[32], b[32], part[320];
    cf_size_format(pr->trend_lo, a, sizeof a);
    cf_size_format(pr->trend_hi, b, sizeof b);
    if (pr->trend_weight < 1)
        snprintf(part, sizeof part,
                 "the time weighs the model (%.*g us) x%.2f and the measured trend carried on, "
                 "rising no faster than the size (log-log through the octaves up to %s and %s: "
                 "%.*g us) x%.2f, as each read the sizes above the fit's backtest refits",
                 cf_sig_prec(pr->model_t_us, 3), pr->model_t_us, 1.0 - pr->trend_weight, a, b,
                 cf_sig_prec(pr->trend_read_us, 3), pr->trend_read_us, pr->trend_weight);
    else
        snprintf(part, sizeof part,
                 "the time is the measured trend carried on, rising no faster than the size "
                 "(log-log through the octaves up to %s and %s), not the model's %.*g us: it "
                 "read the sizes above the fit's backtest refits, the model missed them",
                 a, b, cf_sig_prec(pr->model_t_us, 3), pr->model_t_us);
    cf_note_join(out->bnote, sizeof out->bnote, part);
}

void cf_fit_note_widen(const cf_fit *f, const cf_prediction *pr, cf_predict_answer *out)
{
    if (pr->flat) {
        char top[32], part[256];
        cf_size_format(f->max_bytes, top, sizeof top);
        snprintf(part, sizeof part,
                 "the model falls with size beyond the largest size measured (%.*g us here): "
                 "no cost does, so the time is the model's at %s",
                 cf_sig_prec(pr->flat_model_us, 3), pr->flat_model_us, top);
        cf_note_join(out->bnote, sizeof out->bnote, part);
    }
    if (pr->anchor > 0)
        note_anchor(f, pr, out);
    if (pr->trend_weight > 0)
        note_weighed(pr, out);
    if (pr->rinf_floor_us > 0) {
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "raised from %.*g us to the time its bytes take at %.*g MiB/s, %s: no "
                      "answer beyond the measured sizes moves them faster",
                      cf_sig_prec(pr->rinf_floor_us, 3), pr->rinf_floor_us,
                      cf_sig_prec(pr->rinf_floor_MiBps, 4), pr->rinf_floor_MiBps,
                      pr->rinf_floor_MiBps > f->sat.rinf_hi_MiBps
                          ? "the bandwidth measured at the largest size (above r_inf's 95% upper "
                            "end)"
                          : "the fit's asymptotic bandwidth (r_inf's 95% upper end)");
    }
    if (pr->doublings > 0)
        note_widened(f, pr, out);
    if (pr->trend_us > 0)
        note_trend(f, pr, out);
    if (pr->block_doublings > 0 && out->blocks > 0)
        note_blocks_widened(f, pr, out);
}

void cf_fit_note_pair_bound(const cf_fit *f, uint64_t bytes, cf_predict_answer *out)
{
    if (f->pair_from_bytes == 0 || bytes < f->pair_from_bytes)
        return;
    char sizes[80], part[400];
    cf_size_range_format(f->pair_from_bytes, f->pair_to_bytes, sizes, sizeof sizes);
    snprintf(part, sizeof part,
             "fit found this collective at np=%d faster than the table's ping-pong moves the "
             "bytes (at %s): those times are no transfers (a simulator's algorithm that "
             "skips the data, a broken timer), and this answer, read from them, is faster "
             "than any transfer of its bytes",
             f->np, sizes);
    cf_note_join(out->bnote, sizeof out->bnote, part);
}

int cf_fit_one_block_spread(const cf_fit *f)
{
    static const char *const spread[] = {"vector", "hvector", "indexed", "hindexed"};
    int layout = 0;
    for (size_t i = 0; i < sizeof spread / sizeof spread[0]; i++)
        layout |= strcmp(f->datatype, spread[i]) == 0;
    return layout && f->blocks > 0 && f->min_blocks > 1;
}

void cf_fit_one_block_contiguous(const cf_fit *f, const cf_fit *contig, const cf_prediction *pc,
                                 cf_predict_answer *out)
{
    char part[400];
    snprintf(part, sizeof part,
             "one block lies contiguous in memory, and MPI sends it as the contiguous type: "
             "answered by the contiguous fit (%.4g us), the interval also holding the %s fit "
             "read below its counts (%.4g us in [%.4g, %.4g])",
             pc->t_us, f->datatype, out->t, out->lo, out->hi);
    out->t = pc->t_us;
    out->lo = fmin(out->lo, pc->lo_us);
    out->hi = fmax(out->hi, pc->hi_us);
    snprintf(out->model_buf, sizeof out->model_buf, "contiguous %s", contig->model);
    out->model = out->model_buf;
    cf_note_join(out->bnote, sizeof out->bnote, part);
}
