/* commfit predict: one answer at (np, size) from the source resolved at that np (a per-np
 * fit, the across-np model, or the estimate from np=2), with its interval, widenings and
 * notes, and its row written (cf_predict_emit). */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/size.h"
#include "cmd/out-predict.h"
#include "cmd/predict-fit.h"
#include "cmd/predict-int.h"
#include "cmd/predict-p2p.h"
#include "fit/across.h"
#include "fit/model.h"
#include "modelfile/answer.h"
#include "modelfile/modelfile.h"

void cf_predict_ratio_text(char *buf, size_t n, double r)
{
    snprintf(buf, n, "%.3g", r);
}

static void bytes_note(const source *s, uint64_t bytes, char *buf, size_t n)
{
    char a[32], b[32], r[32];
    buf[0] = '\0';
    if ((double)bytes > s->bytes_max) {
        cf_size_format(bytes, a, sizeof a);
        cf_size_format((uint64_t)s->bytes_max, b, sizeof b);
        if (s->bytes_max > 0) {
            cf_predict_ratio_text(r, sizeof r, (double)bytes / s->bytes_max);
            snprintf(buf, n, "bytes %s is %sx the largest measured, %s", a, r, b);
        } else {
            snprintf(buf, n, "bytes %s is beyond the largest measured, %s", a, b);
        }
    } else if ((double)bytes < s->bytes_min) {
        cf_size_format(bytes, a, sizeof a);
        cf_size_format((uint64_t)s->bytes_min, b, sizeof b);
        snprintf(buf, n, "bytes %s is below the smallest measured, %s", a, b);
    }
}

/* ---- One answer ---- */

/* The algorithm's name for the model column; one that is also the name of a fitted model
 * ("linear", MPICH's linear gatherv and scatterv, against the Hockney fit) gets the
 * pattern after it, so that the column says which is meant. */
static const char *alg_name(const ctx *c, const char *alg, cf_predict_answer *out)
{
    if (cf_model_kind_find(alg) == NULL && strcmp(alg, "constant") != 0)
        return alg;
    snprintf(out->model_buf, sizeof out->model_buf, "%s %s", alg, c->pattern);
    return out->model_buf;
}

/* The largest time or bound predict prints: a thousand times the longest a table may
 * hold (about 31 years). Beyond, the model file is broken, not the machine slow. */
#define PREDICT_MAX_US (1e3 * CF_TIME_MAX_US)

/* Below a fit that set its smallest sizes aside as a no-op: what was measured there, as
 * the fit does not know it. */
/* The block count of a derived-datatype answer, and what is said of it: 1 when no layout
 * of the --blocks asked holds the size (the answer is then refused), else 0. */
static int blocks_note(const ctx *c, const cf_fit *f, uint64_t bytes, cf_predict_answer *out)
{
    /* A fit without a block term (struct: its blocks follow the size) asked at no count:
     * none to show, none beyond. */
    if (c->blocks < 0 && f->blocks == 0)
        return 0;
    out->blocks = c->blocks >= 0 ? c->blocks : f->blocks;
    char part[160], r[32];
    part[0] = '\0';
    if (out->blocks > f->max_blocks) {
        cf_predict_ratio_text(r, sizeof r, (double)out->blocks / f->max_blocks);
        snprintf(part, sizeof part, "blocks %ld is %sx the largest measured, %d", out->blocks, r,
                 f->max_blocks);
    } else if (out->blocks < f->min_blocks) {
        snprintf(part, sizeof part, "blocks %ld is below the smallest measured, %d", out->blocks,
                 f->min_blocks);
    }
    out->blocks_extra = part[0] != '\0';
    cf_note_join(out->bnote, sizeof out->bnote, part);
    /* The layouts are of floats: a block holds one at least (struct's blocks follow
     * its particles). */
    if (strstr(f->datatype, "struct") == NULL &&
        (double)out->blocks * CF_FLOAT_BYTES > (double)bytes) {
        char size[32];
        cf_size_format(bytes, size, sizeof size);
        /* Asked with --blocks, the layout asked cannot be: refused. At the fit's own
         * smallest count (no --blocks; -b 0:1M reads 0 to 2 B at 1 block), said. */
        int asked = c->blocks >= 0;
        snprintf(part, sizeof part,
                 "%s%ld blocks cannot lay out %s: a block holds one 4-byte float at least",
                 asked ? "refused: " : "", out->blocks, size);
        cf_note_join(out->bnote, sizeof out->bnote, part);
        return asked;
    }
    return 0;
}

/* An answer at a layout that cannot be: no time, the first such kept for the message. */
static void refuse_layout(ctx *c, long np, uint64_t bytes, cf_predict_answer *out)
{
    char size[32];
    cf_size_format(bytes, size, sizeof size);
    if (c->refused++ == 0)
        snprintf(c->first_refusal, sizeof c->first_refusal,
                 "%ld blocks cannot lay out %s for %s (%s) at np=%ld: a block holds one 4-byte "
                 "float at least",
                 out->blocks, size, c->pattern, c->datatype, np);
    out->refused = 1;
    out->t = out->lo = out->hi = NAN;
}

/* A time, but no interval around it that is a time, or no time at all: the answer is
 * refused, said in its note, the first refusal kept for the message at the end. */
static void check_answer(ctx *c, const source *s, long np, uint64_t bytes, cf_predict_answer *out)
{
    out->refused = 0;
    if (out->t > 0 && !(out->t <= PREDICT_MAX_US && out->hi <= PREDICT_MAX_US && out->lo >= 0 &&
                        out->lo <= PREDICT_MAX_US)) {
        /* A time, but no interval around it that is a time: a question far beyond what
         * was measured (an alltoall of 1 TiB blocks over 2^24 ranks), or coefficients or
         * covariances beyond any measurement (a hand-edited or corrupt file). */
        char size[32], why[160];
        cf_size_format(bytes, size, sizeof size);
        snprintf(why, sizeof why, "refused: the model's time or interval at %s is beyond %g us",
                 size, PREDICT_MAX_US);
        cf_note_join(out->bnote, sizeof out->bnote, why);
        if (c->refused++ == 0)
            snprintf(c->first_refusal, sizeof c->first_refusal,
                     "the model's time or interval at %s for %s (%s) at np=%ld is beyond %g us "
                     "(%.3g years: asked far beyond what was measured, or the model's "
                     "coefficients are out of range) in the %s (%s)",
                     size, c->pattern, c->datatype, np, PREDICT_MAX_US,
                     PREDICT_MAX_US / 1e6 / (365.25 * 86400),
                     cf_answer_kind_names[s->kind], out->model);
        out->refused = 1;
        out->t = out->lo = out->hi = NAN;
    } else if (!(out->t > 0) || !isfinite(out->t) || !(out->hi >= out->t) || !(out->lo <= out->t)) {
        /* A time of zero or less is no time: the model does not hold at this point (a
         * segment's negative intercept carried below its sizes, a hand-edited file).
         * Printing it, or an interval clipped to [0, ...], would pass nonsense on. */
        char size[32], why[96];
        cf_size_format(bytes, size, sizeof size);
        snprintf(why, sizeof why, "refused: the model gives a non-positive time at %s (%.4g us)",
                 size, out->t);
        cf_note_join(out->bnote, sizeof out->bnote, why);
        if (c->refused++ == 0)
            snprintf(c->first_refusal, sizeof c->first_refusal,
                     "the model gives a non-positive time at %s for %s (%s) at np=%ld: %.4g us "
                     "from the %s (%s)",
                     size, c->pattern, c->datatype, np, out->t, cf_answer_kind_names[s->kind],
                     out->model);
        out->refused = 1;
        out->t = out->lo = out->hi = NAN;
    }
}

/* The library's switch rules of c's table (cf_across_rules), into *node its ranks a node. */
static const char *near_rules(const ctx *c, long *node)
{
    return cf_across_rules(c->as != NULL ? &c->as->pp : NULL, c->across, node);
}

/* The fit f's answer at m corrected by its measured points, through the reading of them in
 * *nr, built at its first answer (a batch of sizes reads the points once) with the
 * library's switch rules of c's table where it has them (cf_near_rules); without memory
 * for it, read afresh. */
static int near_cached(const ctx *c, cf_near **nr, const cf_fit *f, double m, int blocks,
                       cf_prediction *pr)
{
    long node;
    const char *rules = near_rules(c, &node);
    if (*nr == NULL) {
        *nr = malloc(sizeof **nr);
        if (*nr == NULL || cf_near_init(*nr, f, blocks) != 0 ||
            cf_near_rules(*nr, rules, node) != 0) {
            if (*nr != NULL)
                cf_near_clear(*nr);
            free(*nr);
            *nr = NULL;
            return cf_fit_predict_near_rules(f, m, blocks, rules, node, pr);
        }
    }
    return cf_near_predict(*nr, m, pr);
}

/* The fit's answer corrected by its measured points, through the source's reading of
 * them. */
static int near_predict(ctx *c, source *s, double m, int blocks, cf_prediction *pr)
{
    return near_cached(c, &s->near, s->fit, m, blocks, pr);
}

/* Drops the contiguous fit's reading (contig_predict). */
static void contig_clear(ctx *c)
{
    if (c->contig_near != NULL)
        cf_near_clear(c->contig_near);
    free(c->contig_near);
    c->contig_near = NULL;
    c->contig_fit = NULL;
}

/* The contiguous fit cg read at size m as predict reads it (its points' reading built once
 * for a batch of answers; cg has no block term: at its own count). 0, or the fit's error. */
static int contig_predict(ctx *c, const cf_fit *cg, double m, cf_prediction *pr)
{
    if (c->model_alone)
        return cf_fit_predict_blocks(cg, m, cg->blocks, pr);
    if (c->contig_fit != cg) {
        contig_clear(c);
        c->contig_fit = cg;
    }
    return near_cached(c, &c->contig_near, cg, m, cg->blocks, pr);
}

/* The per-np fit at fitted np index i (found once), NULL where there is none. */
static const cf_fit *anchor_fit_at(ctx *c, int i)
{
    if (!c->anchor_tried[i]) {
        c->anchor_tried[i] = 1;
        long p = c->across->np[i];
        c->anchor_fit[i] =
            p <= INT_MAX ? cf_modelset_find(c->ms, c->pattern, (int)p, c->datatype) : NULL;
    }
    return c->anchor_fit[i];
}

/* The answer at fitted np p (cf_predict_fitted_at): predict's own there, the fit corrected
 * by its measured neighbours, so that the answers run on from it; NAN where none. The fit is
 * found and its measured points read once a fitted np (a batch of a million answers reads
 * them once, not twice an answer). Into *line (may be NULL) the answer on the line across a
 * switch between the measured sizes around m where the answer was read from one side of it
 * (near_switch), else the answer; into *lo (may be NULL) its interval's lower end. */
static double fitted_at_lo(ctx *c, long p, double m, double *line, const char **protocol,
                           double *lo)
{
    if (lo != NULL)
        *lo = NAN;
    if (protocol != NULL)
        *protocol = NULL;
    int i = 0;
    while (i < c->across->nnp && c->across->np[i] != p)
        i++;
    if (line != NULL)
        *line = NAN;
    if (i == c->across->nnp)
        return NAN;
    const cf_fit *f = anchor_fit_at(c, i);
    cf_prediction pr;
    if (f == NULL ||
        near_cached(c, &c->anchor_near[i], f, m, c->blocks >= 0 ? c->blocks : f->blocks, &pr) != 0)
        return NAN;
    if (line != NULL)
        *line = pr.near_switch != 0 ? pr.switch_line_us : pr.t_us;
    if (lo != NULL)
        *lo = pr.lo_us;
    if (protocol != NULL && pr.near_switch != 0 && pr.switch_other == NULL)
        *protocol = pr.switch_alg;
    /* At a size the fit set aside as a no-op, its measured time, as predict answers there
     * (an IMB allgather of 0 B read 0.04 us at the fitted np 64 and 128 and 1124 between). */
    if (f->nset_aside > 0 && m < (double)f->min_bytes && m <= (double)UINT64_MAX) {
        cf_predict_answer a;
        a.t = pr.t_us;
        if (cf_fit_answer_set_aside(f, (uint64_t)m, c->blocks >= 0 ? c->blocks : f->blocks, &a)) {
            if (line != NULL)
                *line = a.t;
            return a.t;
        }
    }
    return pr.t_us;
}

double cf_predict_fitted_at(void *vc, long p, double m)
{
    return fitted_at_lo(vc, p, m, NULL, NULL, NULL);
}

/* How much fit f widens its interval at m beyond its measured sizes (1 inside them or
 * without f): cf_fit_widen at its own block count. */
static double fit_size_widen(const cf_fit *f, double m)
{
    if (f == NULL || f->max_bytes == 0 || !(m > (double)f->max_bytes))
        return 1.0;
    return cf_fit_widen(f, m, (double)f->blocks, NULL);
}

/* out's interval widened by widen beyond the measured sizes, as fit from is there, and
 * its note says so. */
static void widen_beyond(cf_predict_answer *out, double widen, const char *from)
{
    out->lo /= widen;
    out->hi *= widen;
    cf_note_joinf(out->bnote, sizeof out->bnote,
                  "interval widened x%.3g beyond the measured sizes, as %s is there", widen, from);
}

/* Beyond the measured sizes an across-np answer is widened as the per-np fits of the
 * fitted np around np are there (cf_fit_widen: their backtest in size, at least their
 * leave-one-out error, per doubling beyond their sizes, and the measured slope's turn at
 * their top), the larger of the two: the
 * across-np model's own interval is widened in p only (the simulated flat cluster fitted at
 * np 2, 4, 16, 64 up to 256 KiB, allgather at np 8 read 491 us in [433, 558] at 1 MiB for
 * 737 measured). Into *np_at the fitted np whose widening it is; the factor, 1 where none. */
static double across_size_widen(ctx *c, long np, double m, long *np_at)
{
    const cf_across *a = c->across;
    int hi = 0;
    while (hi < a->nnp && a->np[hi] < np)
        hi++;
    int idx[2] = {hi < a->nnp ? hi : a->nnp - 1, hi > 0 ? hi - 1 : 0};
    double widen = 1.0;
    *np_at = 0;
    for (int k = 0; k < 2; k++) {
        if (idx[k] < 0 || idx[k] >= a->nnp)
            continue;
        double w = fit_size_widen(anchor_fit_at(c, idx[k]), m);
        if (w > widen) {
            widen = w;
            *np_at = a->np[idx[k]];
        }
    }
    return widen;
}

void cf_predict_anchor_clear(ctx *c)
{
    contig_clear(c);
    for (int i = 0; i < CF_ACROSS_NP_MAX; i++) {
        if (c->anchor_near[i] != NULL)
            cf_near_clear(c->anchor_near[i]);
        free(c->anchor_near[i]);
        c->anchor_near[i] = NULL;
        c->anchor_fit[i] = NULL;
        c->anchor_tried[i] = 0;
    }
}

/* Where the library's rules run an algorithm at m that neither measured neighbour ran on
 * m's side of SimGrid's 64 KiB (pr->own_unmeasured), the line between them reads across two
 * changes, and no size of np measured m's own: the interval also holds the across-np grid's
 * reading at np, which reads that algorithm where other np ran it at its own sizes. Open
 * MPI's reduce at np 16 of 40 and 48 KiB, one binomial tree whose sends leave at once (1 KiB
 * segments at 16 KiB, waiting sends at 64 KiB): 7.68 and 8.56 us simulated on flat.xml, read
 * 26.9 and 28.9 in [14.3, 50.6] and [15.3, 54.4]; the grid 17.2 and 22.0 in [6.32, 19.3] and
 * [6.73, 24.6] (on data/sim-between 20 intervals widen, 10 of them outside before, none
 * after). Not its answer: the grid was nearer in all 18 of Open MPI's reduce answers it would
 * move, but farther in 65 of MPICH's 80 alltoall and allgather answers of 40 and 48 KiB at
 * np 4 to 64 (pairwise and the ring from 64 KiB on). */
static void hold_grid(const ctx *c, long np, double m, const cf_prediction *pr,
                      cf_predict_answer *out)
{
    if (!pr->own_unmeasured || c->across == NULL || c->model_alone)
        return;
    cf_estimate est;
    cf_across_predict(c->across, np, m, &est);
    if (!est.grid || !(est.t_us > 0) || !isfinite(est.t_us) ||
        !(est.lo_us < out->lo || est.hi_us > out->hi))
        return;
    out->lo = fmin(out->lo, est.lo_us);
    out->hi = fmax(out->hi, est.hi_us);
    char t[32], lo[32], hi[32];
    cf_fmt_g(t, sizeof t, est.t_us, 3);
    cf_fmt_g(lo, sizeof lo, est.lo_us, 3);
    cf_fmt_g(hi, sizeof hi, est.hi_us, 3);
    cf_note_joinf(out->bnote, sizeof out->bnote,
                  "no measured size of np=%ld ran the %s on this side of SimGrid's 64 KiB, "
                  "which the rules run here: the interval also holds the across-np grid's "
                  "reading of it, %s us in [%s, %s]",
                  np, pr->switch_alg, t, lo, hi);
}

/* A per-np fit's answer: the model corrected by the measured neighbours (not with
 * --model-alone), its segment or breakpoint gap named, widened beyond the measured sizes and
 * block counts; at 1 block a spread layout's may be the contiguous fit's. Into *nmsg the
 * saturation fit's messages where the pattern says none. */
static int answer_fit(ctx *c, source *s, long np, uint64_t bytes, cf_predict_answer *out,
                      int *nmsg, cf_error *e)
{
    double m = (double)bytes;
    cf_prediction pr;
    int blocks = c->blocks >= 0 ? c->blocks : s->fit->blocks;
    int rc = c->model_alone ? cf_fit_predict_blocks(s->fit, m, blocks, &pr)
                            : near_predict(c, s, m, blocks, &pr);
    if (rc != 0)
        return cf_error_set(e, CF_EXIT_DATA, c->path, 0, "cannot evaluate the %s fit at %s",
                            s->fit->model, "this size");
    out->t = pr.t_us;
    out->lo = pr.lo_us;
    out->hi = pr.hi_us;
    if (pr.in_gap && pr.near_switch == 0) {
        const cf_segment *sg = &s->fit->seg[pr.segment];
        char a[32], b[32];
        cf_size_format(sg[0].to_bytes, a, sizeof a);
        cf_size_format(sg[1].from_bytes, b, sizeof b);
        snprintf(out->model_buf, sizeof out->model_buf, "%s between segments %d and %d",
                 s->fit->model, pr.segment + 1, pr.segment + 2);
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "in the breakpoint gap (%s, %s): interpolated between the two segments' "
                      "values at its ends, the interval covering both",
                      a, b);
        out->model = out->model_buf;
    } else if (s->fit->nseg > 1 && !pr.in_gap) {
        snprintf(out->model_buf, sizeof out->model_buf, "%s segment %d of %d", s->fit->model,
                 pr.segment + 1, s->fit->nseg);
        out->model = out->model_buf;
    }
    if (pr.near)
        cf_fit_note_near(&pr, out);
    hold_grid(c, np, m, &pr, out);
    /* As fit flagged it: an answer from it with an empty note hid a leave-one-out error of
     * 385% (a new user's table from a loaded machine). */
    /* Not at a measured size, whose answer is its measured time. */
    int at_measured = pr.near && pr.near_lo == pr.near_hi && pr.near_lo == bytes;
    if (isfinite(s->fit->q.loo_mape) && s->fit->q.loo_mape > CF_POOR_LOO && !at_measured) {
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "a poor fit: it misses its points left out one at a time "
                      "by %.*g%% (leave-one-out)",
                      cf_sig_prec(100 * s->fit->q.loo_mape, 2), 100 * s->fit->q.loo_mape);
    }
    cf_fit_note_widen(s->fit, &pr, out);
    cf_fit_note_pair_bound(s->fit, bytes, out);
    if (blocks == 1 && cf_fit_one_block_spread(s->fit)) {
        const cf_fit *cg = cf_modelset_find(c->ms, c->pattern, (int)np, "contiguous");
        cf_prediction pc;
        if (cg != NULL && contig_predict(c, cg, m, &pc) == 0 && pc.t_us > 0)
            cf_fit_one_block_contiguous(s->fit, cg, &pc, out);
    }
    if (*nmsg == 0 && s->fit->sat.valid)
        *nmsg = s->fit->sat.nmsg;
    return 0;
}

/* How far below answer t its interval's lower end lo reaches (lo / t; 1 where that says
 * nothing: no time, no lower end, or none below it). */
static double lower_reach(double t, double lo)
{
    return t > 0 && lo >= 0 && lo < t ? lo / t : 1.0;
}

/* Whether fit f measured size m (at any block count). */
static int measured_size(const cf_fit *f, double m)
{
    for (size_t i = 0; i < f->npoints; i++)
        if ((double)f->points[i].bytes == m)
            return 1;
    return 0;
}

/* The two fitted np around an np no fit has, or twice the largest fitted np for an np past
 * it, and their answers at a size (fitted_around). */
typedef struct around {
    int i[2];                /* their indexes in the across-np model's */
    long p[2];               /* they */
    int measured;            /* both measured the size */
    double t[2], line[2];    /* their answers, and on the line across a switch (fitted_at_lo) */
    double lo[2];            /* their intervals' lower ends (fitted_at_lo) */
    const char *protocol[2]; /* the algorithm, where the answer was read from the side of
                                SimGrid's 64 KiB whose sends leave as the size's; else NULL */
} around;

/* Whether np lies between two fitted np (1), or past the largest (2), whose fits hold m
 * inside their sizes (beyond them an answer is widened as the fits are there), and into *a
 * those np (past the largest, it twice) and their answers at m, read once for every use
 * (hold_neighbours, switch_carry, reach_below). */
static int fitted_around(ctx *c, long np, double m, around *a)
{
    int last = c->across->nnp - 1, beyond = np > c->across->np[last];
    if (beyond) {
        a->i[0] = a->i[1] = last;
    } else {
        cf_across_anchor_np(c->across, np, &a->i[0], &a->i[1]);
        if (a->i[0] == a->i[1] || !(c->across->np[a->i[0]] < np && np < c->across->np[a->i[1]]))
            return 0;
    }
    const cf_fit *f[2] = {anchor_fit_at(c, a->i[0]), anchor_fit_at(c, a->i[1])};
    for (int k = 0; k < 2; k++)
        if (f[k] == NULL || m < (double)f[k]->min_bytes || m > (double)f[k]->max_bytes)
            return 0;
    a->measured = measured_size(f[0], m) && measured_size(f[1], m);
    for (int k = 0; k < 2; k++) {
        a->p[k] = c->across->np[a->i[k]];
        if (k == 1 && beyond) { /* the same np: its answer read once */
            a->t[1] = a->t[0], a->line[1] = a->line[0], a->lo[1] = a->lo[0];
            a->protocol[1] = a->protocol[0];
        } else {
            a->t[k] = fitted_at_lo(c, a->p[k], m, &a->line[k], &a->protocol[k], &a->lo[k]);
        }
    }
    return beyond ? 2 : 1;
}

/* At a size the fitted np around (or the largest, past it) did not measure, the lower end
 * reaches as far below the answer as the farther of theirs below their own answers
 * (hold_neighbours, below, says why). Past the largest fitted np too: the grid's reading
 * carried past it has no more reach between measured sizes than between fitted np. Stop
 * 71's st2 (flat, fattree, ethflat, dragonfly, torus; every np to 64 fitted) at np 80:
 * Open MPI's recursive doubling allreduce of 10000 to 50000 B, and the bcasts and MPICH's
 * reduce of 2000 B, read 10% to 64% high with their lower ends above the truth (flat-ompi
 * allreduce of 50000 B: 111.5 us in [101.7, inf] for 68.1 simulated; np 64's fit read 65.1
 * in [28.0, 249.5] there, between its measured 16 KiB and 64 KiB, where SimGrid's sends
 * start to wait for their receiver). Carrying that answer's ratio to the line across 64 KiB
 * on past np=64, as switch_carry does between fitted np, was tried: of 43 answers moved
 * over those sets 17 came nearer (np 80's allreduce read 111.5 us, 86.8), 26 farther (at
 * np 72 on pods, racks, leaves and islands, their readings already low, lower). */
static void reach_below(const around *a, cf_predict_answer *out)
{
    if (a->measured)
        return;
    double reach = 1.0;
    for (int k = 0; k < 2; k++)
        reach = fmin(reach, lower_reach(a->t[k], a->lo[k]));
    if (!(out->t > 0 && out->t * reach < out->lo))
        return;
    char x[32];
    cf_fmt_g(x, sizeof x, reach, 3);
    if (a->p[0] == a->p[1])
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "between measured sizes its lower end reaches as far below the answer as "
                      "the largest fitted np=%ld's reaches below its own, x%s",
                      a->p[0], x);
    else
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "between measured sizes its lower end reaches as far below the answer as "
                      "the fitted np=%ld's and np=%ld's reach below theirs, x%s",
                      a->p[0], a->p[1], x);
    out->lo = out->t * reach;
}

/* Between two fitted np, at a size inside their sizes one of them did not measure, an np no
 * fit has is bracketed by their own answers there (each fit read between its measured
 * neighbours), as the grid's reading between two measured np holds their measured times at
 * a size both measured (cf_across_hold_between). The grid reads between measured sizes on
 * its own, and its interval there held nothing of the fitted np's: the shipped simulated
 * tables with np 16 and every other size held out, read at np 16 and the sizes held out,
 * were covered in 88.9% of 765 answers (95.6% so, median width 3.05x -> 5.26x). */
static void hold_neighbours(const around *a, cf_predict_answer *out)
{
    if (a->measured)
        return;
    double lo = out->lo, hi = out->hi;
    cf_across_hold_between(a->t[0], a->t[1], &lo, &hi); /* none where either is no time */
    /* Where a fitted np's answer was read from one side of a switch between its measured
     * sizes (near_switch), its answer on the line across too: the interval held it before
     * (fatnodes.xml fitted at np 2, 4, 8, 64, 128, reduce of 1500 B at np 16: np 8's answer
     * 0.274 -> 0.347 us, the interval [0.261, 1.296] -> [0.331, 0.598] for 0.295 simulated). */
    cf_across_hold_between(a->line[0], a->line[1], &lo, &hi);
    if (lo < out->lo || hi > out->hi) {
        cf_note_joinf(
            out->bnote, sizeof out->bnote,
            "the interval holds the fitted np=%ld's and np=%ld's own answers at this size",
            a->p[0], a->p[1]);
        out->lo = lo;
        out->hi = hi;
    }
    /* Nor surer below than they are there: the lower end reaches as far below the answer as
     * the farther of theirs below their own answers. Between two measured sizes a fit's
     * interval holds what a step between them may do (its model and the log-log line, a
     * switch of algorithm or protocol); the grid's reading between them had no such reach:
     * SimGrid's network factors dip between 1 and 4 KiB (latency x1.95 below 1426 B, x1.61
     * from it), and stop 71's st2 (flat, fattree, ethflat, dragonfly, torus; np 24 to 80 of
     * 2000 B) read MPICH's reduce and bcast 10% to 48% high, their lower ends above the
     * truth: 52 of 384 answers outside. With the reach 17 (the rest at np 80, beyond the
     * fitted 64); stop 71's st 15 -> 6 of 592, stop 73's st3 5 -> 3 of 360, stop 74's fresh
     * sets of Open MPI's bcast 10 -> 1 of 255 and 0 -> 0 of 260, the median width of each set
     * 3.85 -> 4.82, 2.35 -> 3.24, 5.01 -> 5.77, 4.32 -> 5.75 and 4.03 -> 5.20 (the upper end
     * kept: theirs, with the steps a switch between the sizes may take, would double them);
     * data/sim-uneven's outside as before (MPICH 14 of 1080, Open MPI 10 of 960), its widths
     * 2.58 -> 2.91 and 3.87 -> 4.64. */
    reach_below(a, out);
}

/* Between two fitted np whose answers at m were read from the side of SimGrid's protocol
 * switch at 64 KiB (near_switch's protocol case: one algorithm of whole messages on both
 * sides of it, the size's own run at np too), the grid's reading at np, on the line between
 * its measured sizes across that switch as the fits' was, is carried by their correction:
 * the ratio of each one's answer to its answer on the line, log-log in p between them. The
 * interval holds the reading before too. MPICH's two-level allreduce on racks.xml at np 36
 * of 40000 B read 142.3 us, now 103.4, for 79.3 simulated (np 32 and 64 fitted). Over stop
 * 71's sets of unfitted np between sizes, read while this was written (st: nine platforms,
 * np 20 to 100 of 24000 to 56000 B; st2: five others, np 24 to 80 of 2000 to 50000 B), 262
 * answers move, 229 nearer, median error 53.0% -> 18.4%, none outside after (3 before);
 * data/sim-uneven 74 move, 67 nearer; held out (wide, cloud, meshnodes, tornodes, np 24,
 * 48, 96 of 20000 to 60000 B, simulated once this was written) 136 of 360 move, 116 nearer,
 * 40.5% -> 10.4%. Farther: Open MPI's knomial bcast at np 40 and 56 on flat.xml and
 * ethflat.xml, the grid's reading between 16 and 64 KiB there already 30% to 75% high (15% to
 * 30% since stop 74's eager load and unit, across-grid.c's eager_load_fit). Not
 * where the rules switch algorithm between the sizes: the grid reads each algorithm at its
 * own sizes. Nor, since stop 74, for Open MPI's per-call bcast trees below CF_EAGER_MAX: the
 * grid reads their messages sent at once from the unit's sizes below it, with the link load
 * the table showed (across-steps.c's tree_msg), not on the line across, and carried on they
 * read high: flat.xml, np 40 of 48 KiB, 87.5 us for 76.0 simulated, now 70.8. Of stop 74's
 * fresh sets (13 platforms each; the first simulated before this was written, np 28 to 88
 * of 6000 to 62000 B, the second after, np 20 to 52 of 17000 to 58000 B) 78 and 128
 * answers move, 66 and 90 nearer, their median error 22.9% -> 12.1% and 20.0% -> 10.0%;
 * over stop 71's and 73's sets 64 move, 53 nearer. Farther: data/sim-uneven's 11 (np 40 and
 * 56 of 20000 B), 2 nearer, 7 within 6.4% after, fatnodes.xml's 10.4%, tornodes.xml's and
 * meshnodes.xml's 11% to 37% -> 22% to 51% high; meshnodes.xml at np 48 of 36000 to 60000 B
 * (stop 73's st3), whose grid reads 1.4 to 1.5 times high (45000 B: 33.9 us for 21.4, 18.5
 * carried). */
static void switch_carry(const ctx *c, long np, double m, const around *a,
                         cf_predict_answer *out)
{
    long node;
    const char *rules = near_rules(c, &node), *a0 = a->protocol[0];
    cf_rule_alg am;
    if (!(a->t[0] > 0 && a->t[1] > 0 && a->line[0] > 0 && a->line[1] > 0) || a0 == NULL ||
        a->protocol[1] == NULL || strcmp(a0, a->protocol[1]) != 0 ||
        cf_rules_pick(rules, node, c->pattern, np, m, &am) != 0 || strcmp(am.name, a0) != 0)
        return;
    if (cf_steps_eager_tree(am.steps) && m < CF_EAGER_MAX)
        return; /* read on its own side of the switch already (above) */
    double r = cf_across_loglog_p(np, a->p[0], a->t[0] / a->line[0], a->p[1],
                                  a->t[1] / a->line[1]);
    if (!(r > 0) || !isfinite(r))
        return;
    out->t *= r;
    out->lo = fmin(out->lo, out->lo * r);
    out->hi = fmax(out->hi, out->hi * r);
    char x[32];
    cf_fmt_g(x, sizeof x, r, 3);
    cf_note_joinf(out->bnote, sizeof out->bnote,
                  "the fitted np=%ld's and np=%ld's answers at this size were read from the side "
                  "of SimGrid's 64 KiB whose sends leave as here (the %s): the grid's reading, "
                  "on the line across it, carried by their ratio to the line, x%s, the interval "
                  "holding both",
                  a->p[0], a->p[1], a0, x);
}

/* The estimate from np=2 at the largest fitted np p, kept by size in c (grow_*): a batch over
 * np asks the same sizes at each. */
static double estimate_from(ctx *c, long p, double m)
{
    uint64_t bits;
    memcpy(&bits, &m, sizeof bits);
    size_t slot = (size_t)((bits * 0x9E3779B97F4A7C15u) >> 56) % CF_PREDICT_GROW_SLOTS;
    if (c->grow_set[slot] && c->grow_m[slot] == m)
        return c->grow_t[slot];
    if (!c->grow_from_ready) {
        char ignore[CF_PREDICT_NOTE_MAX];
        cf_placement_unmeasured(&c->place, p, &c->grow_from_u, ignore, sizeof ignore);
        c->grow_from_ready = 1;
    }
    double t = cf_answer_estimate_us(&c->place, &c->as->pp, c->coll, c->datatype,
                                     &c->grow_from_u, p, m, NULL);
    c->grow_m[slot] = m;
    c->grow_t[slot] = t;
    c->grow_set[slot] = 1;
    return t;
}

/* Past the largest fitted np, a gather's or a scatter's answer carried by the estimate's
 * growth (cf_answer_grows_by_estimate), as report draws it. */
static void estimate_growth(ctx *c, source *s, long np, double m, const around *a,
                            cf_predict_answer *out)
{
    if (!cf_answer_grows_by_estimate(c->as, c->coll, c->datatype))
        return;
    if (!s->grow_ready) {
        char ignore[CF_PREDICT_NOTE_MAX];
        cf_placement_unmeasured(&c->place, np, &s->grow_u, ignore, sizeof ignore);
        s->grow_ready = 1;
    }
    cf_estimate at;
    double from = estimate_from(c, a->p[0], m), r, was = out->t;
    if (!(from > 0) ||
        !(cf_answer_estimate_us(&c->place, &c->as->pp, c->coll, c->datatype, &s->grow_u, np, m,
                                &at) > 0) ||
        cf_answer_grow(&at, from, a->t[0], &out->t, &out->lo, &out->hi, &r) != 0)
        return;
    char x[32], w[32];
    cf_fmt_g(x, sizeof x, r, 3);
    cf_fmt_g(w, sizeof w, was, 4);
    cf_note_joinf(out->bnote, sizeof out->bnote,
                  "the largest fitted np=%ld's answer at this size carried by the estimate from "
                  "np=2's growth from there (x%s: the library's rules and the ranks' mean, "
                  "with what the placement adds to the estimate at each np), not the across-np "
                  "formula's, whose reading, %s us with what is added to it above, the "
                  "interval holds",
                  a->p[0], x, w);
}

/* The across-np model's answer at an np without a fit of its own, carried through the fitted
 * np's answers (not with --model-alone), with what the placement adds (tiers, nodes np's
 * probes did not cover). Its unboundedness: 1 when np's nodes were never measured, 2 its
 * tier, 0 neither. */
static int answer_across(ctx *c, source *s, long np, double m, cf_predict_answer *out)
{
    cf_estimate est;
    cf_tier_added add;
    cf_placement_across_answer(&c->place, c->across, &c->as->pp, &s->unmeasured, np, m,
                               c->model_alone ? NULL : cf_predict_fitted_at, c, &est, &add);
    cf_out_predict_tier_below_note(out, &add, np);
    cf_out_predict_backtest_note(out, &est, np, c->across->np[c->across->nnp - 1],
                                 add.read_from > 0 || cf_unmeasured_unbounded(&s->unmeasured));
    cf_out_predict_no_op_note(out, &est);
    if (add.read_from > 0) {
        char reach[64];
        snprintf(reach, sizeof reach, "np=%ld's", add.read_from);
        cf_out_predict_read_from_note(out, &add, est.algorithm, np);
        cf_out_predict_tier_note(out, &add, est.algorithm, reach, add.read_from_far_us);
    } else {
        cf_out_predict_tier_note(out, &add, est.algorithm, "the fitted np's",
                                 s->unmeasured.far_fitted_us);
    }
    if (est.replay_held)
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "the answer is the middle of the steps' reading and the measured np's "
                      "times around np=%ld carried to it by a replay of %s rank by rank%s, the "
                      "interval holding both%s",
                      np, est.algorithm,
                      est.replay_held == 2
                          ? " (np, or its nodes' count, is no power of two: some ranks fold in "
                            "and out, which no measured np showed)"
                          : " (over the latency tiers its steps cross)",
                      est.fold_widened ? " and the measured np's times, each with the "
                                         "backtests' width: none was tried where ranks fold"
                                       : "");
    if (est.step_below > 0) {
        char b[32];
        cf_size_format((uint64_t)est.step_below, b, sizeof b);
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "between the measured sizes around this one the %s's reading steepens "
                      "as no alpha + beta*m does (a step between them, its place unknown): the "
                      "lower end holds the reading at %s, with the same width",
                      est.algorithm, b);
    }
    if (add.floor_from_us > 0)
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "the %s ran at no fitted np and the model keeps no latency tiers to "
                      "replay it over: read from another algorithm's cost per step, %.4g us, "
                      "it is raised to the estimate from np=2 of its own steps, the interval "
                      "holding both",
                      est.algorithm, add.floor_from_us);
    if (add.volume_from_us > 0)
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "the %s ran at neither fitted np around np: its reading, %.4g us, "
                      "prices its steps' latency, not the load of the bytes every rank "
                      "receives at once, which the fitted np=%ld and np=%ld measured for the "
                      "same bytes a rank; the answer is raised to the line in log p through "
                      "their answers at this size, the interval holding both",
                      est.algorithm, add.volume_from_us, add.volume_np[0], add.volume_np[1]);
    out->t = est.t_us;
    out->lo = est.lo_us;
    out->hi = est.hi_us;
    around ar;
    int where = c->model_alone ? 0 : fitted_around(c, np, m, &ar);
    if (where == 1) {
        if (est.grid)
            switch_carry(c, np, m, &ar, out);
        hold_neighbours(&ar, out);
    } else if (where == 2) {
        reach_below(&ar, out);
        if (!est.grid)
            estimate_growth(c, s, np, m, &ar, out);
    }
    long wnp = 0;
    double widen = m > s->bytes_max ? across_size_widen(c, np, m, &wnp) : 1.0;
    if (widen > 1.0) {
        char from[48];
        snprintf(from, sizeof from, "np=%ld's fit", wnp);
        widen_beyond(out, widen, from);
    }
    out->model = alg_name(c, est.algorithm, out);
    /* Where the grid cannot answer (the rules' algorithm here ran at no fitted np, and
     * neither a cost per step of its kind nor a replay over the latency probe's tiers reads
     * it: SMPI's mpich bcast on nodes of unequal ranks of a torus, whose probe forms no
     * tiers), the formula does, and the model column names the formula's segment: the note
     * says which algorithm the rules run. */
    cf_rule_alg ran;
    const cf_across_grid *g = &c->across->grid;
    if (!est.grid && est.algorithm != NULL && g->rules[0] != '\0' &&
        cf_rules_pick(g->rules, g->node_ranks, c->across->pattern, np, m, &ran) == 0 &&
        strcmp(ran.name, est.algorithm) != 0)
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "the library's rules run the %s here, which ran at no fitted np and "
                      "which the grid cannot cost: the across-np formula (its %s) answers",
                      ran.name, est.algorithm);
    /* Carried through the fitted np's answers (cf_across_anchor): said in the model
     * column; the np's note says through which (anchor_np_note). */
    if (add.anchored)
        cf_predict_model_append(out, " + measured np");
    return add.read_from > 0 ? (add.read_nodes_np > 0 ? 1 : 2) : 0;
}

/* The estimate from np=2's fits (the pattern's own, the ping-pong) and the algorithm's
 * cost, with the placement's tiers. 3 when it reads np=2 times that moved no data (no upper
 * bound), else 0. */
static int answer_p2p(ctx *c, source *s, long np, double m, cf_predict_answer *out)
{
    cf_estimate est;
    cf_tier_added add;
    cf_placement_p2p_answer(&c->place, &c->as->pp, c->coll, c->datatype, &s->unmeasured, np,
                            m, &est, &add);
    cf_out_predict_tier_note(out, &add, est.algorithm, "np=2's rank 1",
                             s->unmeasured.far_fitted_us);
    if (isfinite(est.fan_ratio)) {
        char part[800], lv[128], sz[96], a[32], b[32];
        if (est.fan_beyond > 0)
            snprintf(lv, sizeof lv, "past its largest level, its levels of %ld and %ld ranks "
                     "carried on", est.fan_level_lo, est.fan_level_hi);
        else if (est.fan_level_lo == est.fan_level_hi)
            snprintf(lv, sizeof lv, "at %ld ranks", est.fan_level_lo);
        else
            snprintf(lv, sizeof lv, "between %ld and %ld ranks", est.fan_level_lo,
                     est.fan_level_hi);
        cf_size_format((uint64_t)est.fan_bytes_lo, a, sizeof a);
        cf_size_format((uint64_t)est.fan_bytes_hi, b, sizeof b);
        if (est.fan_bytes_lo == est.fan_bytes_hi)
            snprintf(sz, sizeof sz, "at %s", a);
        else
            snprintf(sz, sizeof sz, "log-log between %s and %s", a, b);
        snprintf(part, sizeof part,
                 "np=2's measured time x%.4g: the fan probe's ranks' mean at np=%ld over its "
                 "own at np=2 (read %s, %s), the interval what that reading may miss between "
                 "them and the probe's margin%s%s",
                 est.fan_ratio, np, lv, sz,
                 est.fan_between  ? "; and np=2's whole answer's: between its levels the probe does "
                                    "not bound np (a barrier's skew, shared links change with "
                                    "the ranks' count unevenly)"
                 : est.fan_beyond ? "; and np=2's whole answer's: past its levels the network was "
                                    "never measured"
                                  : "",
                 !est.fan_between && !est.fan_beyond &&
                         strncmp(c->as->pp.rules, "openmpi", 7) == 0
                     ? "; and np=2's whole answer's: Open MPI's linear calls take the messages in "
                       "turn, the probe's went at once"
                     : "");
        cf_note_join(out->bnote, sizeof out->bnote, part);
    }
    if (est.overlap_us > 0.0) {
        double line = cf_placement_stream_beta(&c->place);
        char probe[120] = "the ping-pong's line";
        if (line > 0.0 && line < c->as->pp.h.beta_us_per_byte)
            snprintf(probe, sizeof probe,
                     "the launch's pair-exchange probe's line (%.4g us a MiB; the ping-pong's "
                     "%.4g)",
                     line * 1048576.0, c->as->pp.h.beta_us_per_byte * 1048576.0);
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "its messages are posted at once, and np=2 cannot tell how far they "
                      "overlap (on one node each receiver may copy its own; through a card their "
                      "bytes may stream at %s, what its curve adds at this size paid once): the "
                      "estimate is the geometric middle of %.4g us, where they go one after "
                      "another, and %.4g us, where they do, the interval holding both",
                      probe, est.row_us, est.overlap_us);
    }
    if (est.alone_us > 0.0) {
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "a sender's messages of the tree leave at once (eager), and np=2 cannot tell "
                      "whether their bytes share its link (a card sending in turn, a shared-memory "
                      "copy by the sender) or each goes alone (a simulator's loopback): np=2's "
                      "reading, before what any tier adds, is the geometric middle of %.4g us, "
                      "alone, and %.4g us, sharing, its interval holding both",
                      est.alone_us, est.shared_us);
    }
    if (isfinite(est.floor_from) && est.floor_steps && isfinite(est.floor_shared_us)) {
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "the estimate, %.4g us, raised to %.4g: at this size each send waits "
                      "for its receiver, and every rank waits the algorithm's steps, each the "
                      "ping-pong's one-way time at its size; a level's messages leave at once, "
                      "and np=2 cannot tell whether they share the sender's link (%.4g us) or "
                      "each goes alone (%.4g us): the geometric middle (the lower end stays that "
                      "of the estimate read through np=2's times)",
                      est.floor_from, est.floor_us, est.floor_shared_us, est.floor_alone_us);
    } else if (isfinite(est.floor_from) && est.floor_steps) {
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "the estimate, %.4g us, raised to %.4g: at this size each send waits "
                      "for its receiver, and every rank waits the algorithm's steps, each the "
                      "ping-pong's one-way time at its size (the lower end stays that of the "
                      "estimate read through np=2's times)",
                      est.floor_from, est.floor_us);
    } else if (isfinite(est.floor_from)) {
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "the estimate, %.4g us, raised to %.4g: each rank receives the bytes, "
                      "about (p-1)/p of the ping-pong's one-way time in the ranks' mean (the "
                      "lower end stays that of the estimate read through np=2's times)",
                      est.floor_from, est.floor_us);
    }
    if (est.step_b > 0.0) {
        char a[32], b[32];
        cf_size_format((uint64_t)est.step_a, a, sizeof a);
        cf_size_format((uint64_t)est.step_b, b, sizeof b);
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "np=2's curve steps between its measured %s and %s (%.4g and %.4g us), "
                      "read log-log between them as if no step lay there: np=2's time here "
                      "lies anywhere between those two, and the interval holds that range",
                      a, b, est.step_ta, est.step_tb);
    }
    if (est.bridge > 0.0)
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "np=2's time here is read on the log-log line between two sizes it "
                      "measured, and its own time may lie off that line (a protocol's or a "
                      "network's breakpoint between them): the interval holds x%.3g of it",
                      exp(est.bridge));
    if (est.all_wait_us > 0.0)
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "every rank waits for the allgather's last exchange, none leaving once its "
                      "part is sent as np=2's root did: the estimate is the geometric middle of "
                      "np=2's readings and the algorithm's steps on the ping-pong's curve (%.4g "
                      "us), the interval holding both",
                      est.all_wait_us);
    if (est.rest_bytes > 0.0) {
        char r[32];
        cf_size_format((uint64_t)est.rest_bytes, r, sizeof r);
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "SMPI's %s moves whole 8 KiB segments (%.0f B, which the readings above "
                      "are of) and hands the last %s to a bcast of "
                      "their own (%s under the rules, %.4g us in [%.4g, %.4g] alone), which a "
                      "rank starts once its part of the first is done: it may overlap the first "
                      "or follow it, the estimate the geometric middle of the first's alone and "
                      "the two added, the interval holding both",
                      est.algorithm, m - est.rest_bytes, r,
                      est.rest_algorithm != NULL ? est.rest_algorithm : "an algorithm",
                      est.rest_us, est.rest_lo_us, est.rest_hi_us);
    }
    if (est.ranks_mean)
        cf_note_join(out->bnote, sizeof out->bnote,
                     "costed in the ranks' mean, each rank receiving its subtree's blocks and "
                     "sending them on (2(p-1)/p latencies), not along the root's path");
    if (est.linear_rules)
        cf_note_join(out->bnote, sizeof out->bnote,
                     "the library's rules run a linear gather at this np and size (the "
                     "estimate stays the binomial tree's), its ranks on the root's node: the "
                     "lower end holds the blocks arriving at once through links of their own, "
                     "np=2's time");
    if (est.in_turn)
        cf_note_join(out->bnote, sizeof out->bnote,
                     "the library's rules run a linear gather at this np and size, its ranks "
                     "each on a node of its own: the root's link takes the blocks in turn, "
                     "sender i leaving once its block is in (np=2's sender waited for the "
                     "root), the estimate the ranks' mean so, not the binomial tree's");
    if (isfinite(est.sender_share)) {
        char part[800], share[64];
        /* Two shares that print alike (3.80% and 3.77%) are one. */
        int apart = lround(100.0 * est.sender_share_hi) != lround(100.0 * est.sender_share);
        if (apart)
            snprintf(share, sizeof share, "%.0f%% to %.0f%%", 100.0 * est.sender_share,
                     100.0 * est.sender_share_hi);
        else
            snprintf(share, sizeof share, "%.0f%%", 100.0 * est.sender_share);
        const char *between = apart ? "; between the measured sizes around, whose shares "
                                      "part, the estimate going from the one's reading to the "
                                      "other's in ln size, the interval holding both"
                                    : "";
        /* Open MPI's basic linear scatter sends in turn by blocking sends (its nonblocking
         * one posts them at once): the reading is the posted-at-once one still, the
         * interval's the one in turn. */
        int in_turn = strcmp(c->pattern, "scatter") == 0 &&
                      !cf_rules_scatter_nonblocking(c->as->pp.rules, np, m);
        if (strcmp(c->pattern, "scatterv") == 0 || strcmp(c->pattern, "scatter") == 0)
            snprintf(part, sizeof part,
                     "the root's sends in the ranks' mean: %s, every receiver "
                     "waiting for them as messages sharing one link end together, the root "
                     "waiting %s of it as np=2's did (0 where its eager messages let it "
                     "leave, 100%% where a rendezvous held it%s), the interval holding the "
                     "messages taken in turn and each receiver's one message",
                     in_turn ? "read as posted at once (the library's basic linear scatter "
                               "sends them in turn by blocking sends where they are not eager)"
                             : "posted at once",
                     share, between);
        else
            snprintf(part, sizeof part,
                     "the root's receipts in the ranks' mean: each sender waiting %s of the "
                     "root's path, as np=2's did (0 where its eager message let it leave, "
                     "100%% where a rendezvous held it%s), the interval holding the root "
                     "taking them in turn or all at once and every sender waiting all of it",
                     share, between);
        cf_note_join(out->bnote, sizeof out->bnote, part);
    }
    out->t = est.t_us;
    out->lo = est.lo_us;
    out->hi = est.hi_us;
    /* Beyond the measured sizes, widened as the np=2 fits it reads are there (the
     * pattern's own, the ping-pong): the estimate's interval does not see the sizes (8
     * simulated tables fitted at np 2 up to 256 KiB, read at np 16 at 1 and 2 MiB:
     * coverage 71% without it). */
    if (m > s->bytes_max) {
        double w_own = fit_size_widen(cf_modelset_find(c->ms, c->pattern, 2, c->datatype), m);
        double w_pp = fit_size_widen(cf_modelset_find(c->ms, "pingpong", 2, "byte"), m);
        if (fmax(w_own, w_pp) > 1.0)
            widen_beyond(out, fmax(w_own, w_pp),
                         w_own >= w_pp ? "np=2's fit" : "np=2's ping-pong fit");
    }
    out->model = alg_name(c, est.algorithm, out);
    /* A call without data, at a size np=2's fit set aside as one (MPI returned at once): the
     * lower end holds the time measured there (allreduce of 0 B at np 8 from np=2 read 6.01
     * us in [4.24, 8.52], the algorithm's latencies, for the simulated 0.01). Not the answer:
     * at more ranks a library may still run its algorithm (SMPI's mpich alltoall of 0 B takes
     * 6.06 us at np 8 by Bruck's steps, where np=2 returned at once). */
    const cf_fit *f2 = NULL;
    cf_predict_answer noop;
    if (!c->model_alone && (f2 = cf_modelset_find(c->ms, c->pattern, 2, c->datatype)) != NULL &&
        f2->nset_aside > 0 && m < (double)f2->min_bytes &&
        cf_fit_answer_set_aside(f2, (uint64_t)m, c->blocks >= 0 ? c->blocks : f2->blocks,
                                &noop) &&
        (noop.lo < out->lo || est.no_op_open)) {
        char part[200];
        snprintf(part, sizeof part,
                 "the lower end holds np=2's time there, %.3g us, a call without data (MPI "
                 "returned at once; at more ranks it may not)",
                 noop.t);
        out->lo = noop.lo;
        cf_note_join(out->bnote, sizeof out->bnote, part);
    } else if (est.no_op_open) /* cf_p2p_predict's lower end 0 */
        cf_note_join(out->bnote, sizeof out->bnote,
                     "the call moves nothing (fewer bytes than one element): a library may "
                     "return at once or still hold the ranks together, which np=2's times do "
                     "not tell, so the lower end is 0");
    /* The ends the readings' bound set, before what any tier adds, where they are the
     * answer's: not a lower end the no-op's replaced, nor an upper end the answer drops
     * (np=2 never crossed np's network, or read np=2 times that moved no data). */
    int no_top = cf_unmeasured_unbounded(&s->unmeasured) ||
                 cf_p2p_no_transfer(&c->as->pp, c->coll->pattern, c->datatype) != NULL;
    int split_lo = !isnan(est.split_lo_us) && out->lo == est.split_lo_us;
    int split_hi = !isnan(est.split_hi_us) && !no_top;
    if (split_lo || split_hi) {
        char ratios[64];
        if (isinf(est.split_hi)) /* np=2 moved no bytes: those at p add without bound */
            snprintf(ratios, sizeof ratios, "x%.3g at least", est.split_lo);
        else
            snprintf(ratios, sizeof ratios, "x%.3g to x%.3g", est.split_lo, est.split_hi);
        cf_note_joinf(out->bnote, sizeof out->bnote,
                      "as far as np=2's curve lets its time split into latency and bytes, its "
                      "readings here, before what any tier adds, are %s of np=2's time at this "
                      "size: they set the interval's %s, with a margin of x%.3g (the "
                      "estimate's error over the doublings past np=2)",
                      ratios,
                      split_lo && split_hi ? "two ends" : split_lo ? "lower end" : "upper end",
                      est.split_margin);
    }
    /* Read through np=2 times that moved no data (its note says which): it may come out
     * too fast by any factor, so it has no upper bound (a bcast's estimate is raised to
     * what its ranks' receipts take at least: predict_np2, est.floor_from). */
    if (cf_p2p_no_transfer(&c->as->pp, c->coll->pattern, c->datatype) != NULL)
        return 3;
    return 0;
}

static int predict_one(ctx *c, long np, uint64_t bytes, cf_predict_answer *out, const source **sp,
                       cf_error *e)
{
    source *s = cf_predict_source_at(c, np, e);
    *sp = s;
    if (s == NULL)
        return CF_EXIT_DATA;
    out->np = np;
    out->bytes = bytes;
    out->model = s->model;
    double m = (double)bytes;
    /* the answer's own evidence left np's nodes (1) or tier (2) unmeasured, or the estimate
     * from np=2 read times that moved no data (3): no upper bound */
    int unbounded = 0;
    if ((double)bytes > s->bytes_max || (double)bytes < s->bytes_min)
        bytes_note(s, bytes, out->bnote, sizeof out->bnote);
    else
        out->bnote[0] = '\0';
    if (s->kind == SRC_FIT && s->fit->nset_aside > 0 && (double)bytes < s->bytes_min)
        cf_fit_note_set_aside(s->fit, bytes, out);
    out->bytes_extra = out->bnote[0] != '\0';
    out->np_extra = s->np_extra;
    out->blocks = -1;
    out->blocks_extra = 0;
    int impossible = 0;
    if (s->kind == SRC_FIT && s->fit->max_blocks > 0)
        impossible = blocks_note(c, s->fit, bytes, out);
    int nmsg = c->coll ? c->coll->nmsg : 0;
    if (s->kind == SRC_FIT) {
        int rc = answer_fit(c, s, np, bytes, out, &nmsg, e);
        if (rc != 0)
            return rc;
        if (!c->model_alone && s->fit->nset_aside > 0 && (double)bytes < s->bytes_min)
            cf_fit_answer_set_aside(s->fit, bytes, c->blocks >= 0 ? c->blocks : s->fit->blocks,
                                    out);
    } else if (s->kind == SRC_ACROSS) {
        unbounded = answer_across(c, s, np, m, out);
    } else {
        unbounded = answer_p2p(c, s, np, m, out);
    }
    /* Without an upper bound the reading's own upper end is not checked: it is not said
     * (fatnodes-ompi without its library fitted at np 2-16, bcast of 64 KiB at np 64 was
     * refused as beyond 1e15 us for an upper end printed as inf, the time 80 us; the
     * formulas check). */
    int no_upper = unbounded || cf_unmeasured_unbounded(&s->unmeasured);
    if (no_upper && out->t > 0 && isfinite(out->t))
        out->hi = fmax(out->t, out->lo);
    check_answer(c, s, np, bytes, out);
    if (impossible && !out->refused)
        refuse_layout(c, np, bytes, out);
    if (no_upper && !out->refused)
        out->hi = INFINITY; /* after the check: no bound, not one out of range */
    out->bw = nmsg > 0 && out->t > 0 ? nmsg * m / (1.048576 * out->t) : NAN;
    out->nodes_extra = s->unmeasured.nodes || s->unmeasured.shared || unbounded == 1;
    out->tier_extra = s->unmeasured.tier || unbounded == 2;
    return 0;
}

int cf_predict_emit(ctx *c, long np, uint64_t bytes, cf_error *e)
{
    cf_predict_answer a;
    const source *s;
    int rc = predict_one(c, np, bytes, &a, &s, e);
    if (rc != 0)
        return rc;
    a.source = cf_answer_kind_names[s->kind];
    a.note = &s->note;
    cf_out_predict_row(&c->out, &a);
    return 0;
}
