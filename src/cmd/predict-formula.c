/* commfit predict --formula: the formula of the source that answers at one np, in a
 * language, and how far the answers depart from it where it is not the fit's own. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/size.h"
#include "cmd/predict-int.h"

/* predict's point-to-point or across-np answer at np, for the formula's lines
 * (cf_lines_through) or how far they depart from it (cf_lines_departure). */
typedef struct answer_ctx {
    ctx *c;
    const source *s;
    long np;
} answer_ctx;

static double p2p_at(void *v, double m, const char **alg)
{
    const answer_ctx *a = v;
    cf_estimate est;
    cf_tier_added add;
    if (cf_placement_p2p_answer(&a->c->place, &a->c->as->pp, a->c->coll, a->c->datatype,
                                &a->s->unmeasured, a->np, m, &est, &add) != 0)
        return NAN;
    *alg = est.algorithm;
    return est.t_us;
}

/* The formula of the point-to-point estimate at np into buf: its length, -1 for an unknown
 * lang, -2 (e set) where the estimate has none. The estimate reads each step on the
 * measured np=2 curves and the algorithm the library's rules pick at each size: no line of
 * alpha and beta is it. The formula is lines through its answers in ranges of sizes
 * (cf_lines_through: an algorithm's, merged or split), and standard error says how near. */
static int p2p_formula(ctx *c, const source *s, long np, const char *name, const char *lang,
                       char *buf, size_t size, cf_error *e)
{
    answer_ctx at = {c, s, np};
    char sz[32], from[32];
    if (c->sizeless) { /* a pattern that moves no data: its time at 0 bytes */
        const char *alg = NULL;
        double c0 = p2p_at(&at, 0.0, &alg), c1 = 0.0;
        if (!(c0 > 0.0 && isfinite(c0))) {
            cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                         "np=%ld: the point-to-point estimate of %s is not a positive time: no "
                         "formula",
                         np, c->pattern);
            return -2;
        }
        cf_msg("np=%ld: point-to-point estimate (%s), a constant: %s moves no data; %s", np,
               alg ? alg : "?", c->pattern, s->note.text);
        return cf_lines_formula(name, &c0, &c1, 1, NULL, lang, buf, size);
    }
    cf_lines L;
    int rc = cf_lines_through(p2p_at, &at, s->bytes_max, &L);
    if (rc != 0) {
        cf_size_format((uint64_t)L.worst_at, sz, sizeof sz);
        if (rc == -1)
            cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                         "np=%ld: the point-to-point estimate is not a positive time at %s: no "
                         "formula",
                         np, sz);
        else
            cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                         "np=%ld: no lines through the point-to-point estimate (its times out "
                         "of range, or out of memory): no formula",
                         np);
        return -2;
    }
    double top = L.top;
    char algs[640] = "";
    size_t k = 0;
    for (int i = 0; i < L.nalg && k < sizeof algs; i++) {
        cf_size_format((uint64_t)L.alg_from[i], sz, sizeof sz);
        k += (size_t)snprintf(algs + k, sizeof algs - k, i ? ", %s from %s" : "%s",
                              L.alg[i][0] ? L.alg[i] : "the estimate", sz);
    }
    if (L.nalg_all > L.nalg && k < sizeof algs)
        snprintf(algs + k, sizeof algs - k, " and %d more", L.nalg_all - L.nalg);
    cf_size_format((uint64_t)top, sz, sizeof sz);
    cf_size_format((uint64_t)L.start, from, sizeof from);
    char most[48];
    cf_size_format((uint64_t)L.worst_at, most, sizeof most);
    cf_msg("np=%ld: point-to-point estimate (%s); %d line%s through its answers (one an "
           "algorithm's range of sizes, neighbours merged where one line holds both within %.0f%%, "
           "a range split where its line departs by more than %.0f%%), within %.0f%% of them at "
           "64 sizes an octave from %s to %s (the most at %s); %s",
           np, algs, L.n, L.n > 1 ? "s" : "", 50.0 * CF_LINES_DEPART, 100.0 * CF_LINES_DEPART,
           100.0 * L.worst, from, sz, most, s->note.text);
    return cf_lines_formula(name, L.c0, L.c1, L.n, L.from + 1, lang, buf, size);
}

static double across_at(void *v, double m, const char **alg)
{
    const answer_ctx *a = v;
    *alg = NULL;
    if (m > 0 && cf_across_moves_nothing(a->c->across->datatype, m))
        return NAN; /* fewer bytes than an element: no call the formula is of */
    cf_estimate est;
    cf_tier_added add;
    cf_placement_across_answer(&a->c->place, a->c->across, &a->c->as->pp, &a->s->unmeasured,
                               a->np, m, a->c->model_alone ? NULL : cf_predict_fitted_at, a->c,
                               &est, &add);
    *alg = est.algorithm;
    return est.t_us;
}

int cf_predict_formula(ctx *c, long np, const char *lang, cf_error *e)
{
    const source *s = cf_predict_source_at(c, np, e);
    if (s == NULL)
        return CF_EXIT_DATA;
    char buf[2048], name[96];
    int n;
    if (c->coll != NULL && strcmp(c->datatype, c->coll->datatype) == 0)
        snprintf(name, sizeof name, "T_%s_np%ld", c->pattern, np);
    else
        snprintf(name, sizeof name, "T_%s_%s_np%ld", c->pattern, c->datatype, np);
    if (s->kind == SRC_FIT) {
        n = cf_fit_formula(s->fit, lang, buf, sizeof buf);
    } else if (s->kind == SRC_ACROSS) {
        double c0[CF_ACROSS_MAX_SEG], c1[CF_ACROSS_MAX_SEG], sw[CF_ACROSS_MAX_SEG];
        int nl = cf_across_lines(c->across, np, c0, c1, sw);
        /* A model fitted without the barrier's waits: np's wait in the constant, where the
         * answers add it (but where a call moves nothing). */
        long past = 0;
        double w = cf_placement_wait_added(c->across, &s->unmeasured)
                       ? cf_placement_across_wait(&c->place, c->across, np, &past)
                       : 0.0;
        for (int i = 0; i < nl; i++)
            c0[i] += w;
        /* Past the fitted np's upper bound a model fitted without the waits has its answers
         * add the spread of the barrier's exits beyond the fitted reach instead, at every
         * size (cf_placement_across_answer's tier additions): the constant holds it too
         * (fatnodes-ompi without its library fitted at np 2-16, allgather of 8 B at np 24:
         * 4.63 us from --model-alone, 1.58 from the formula, and nothing said). */
        double skew = 0.0;
        if (w == 0.0 && !c->across->waited && cf_unmeasured_unbounded(&s->unmeasured) &&
            c->across->nnp > 0)
            skew = cf_placement_spread_extra(
                &c->place, cf_placement_barrier_rules(c->across), c->across->pattern, np,
                cf_placement_farthest_us(&c->place, c->across->np[c->across->nnp - 1]), NULL);
        for (int i = 0; i < nl && skew > 0; i++)
            c0[i] += skew;
        n = cf_lines_formula(name, c0, c1, nl, sw, lang, buf, sizeof buf);
        char waited[512] = "";
        if (w > 0) {
            snprintf(waited, sizeof waited,
                     "; the constant holds the barrier's wait after each timed call, %.3g us",
                     w);
        } else if (skew > 0) {
            long past;
            double whole = c->across->replayed
                               ? cf_placement_across_wait(&c->place, c->across, np, &past)
                               : 0.0;
            size_t k = (size_t)snprintf(
                waited, sizeof waited,
                "; the constant holds what the barrier after each timed call adds beyond the "
                "fitted reach, %.3g us (replayed over the latency probe, its ranks leave it "
                "further apart)",
                skew);
            if (whole > 1.01 * skew && k < sizeof waited)
                snprintf(waited + k, sizeof waited - k,
                         ", where the answers add its whole wait, %.3g us, at the sizes whose "
                         "algorithm the grid replays over the tiers",
                         whole);
        }
        /* The np's note says where the answers carry the formula through the fitted np's
         * own, size by size (anchor_np_note): not a line; how far they depart from it is
         * read as for the estimate's lines. */
        cf_lines L = {.n = nl};
        for (int i = 0; i < nl; i++) {
            L.c0[i] = c0[i];
            L.c1[i] = c1[i];
            L.from[i] = i ? floor(sw[i - 1]) : 0.0; /* as the formula prints it */
        }
        answer_ctx at = {c, s, np};
        char dep[320];
        if (c->sizeless) { /* its one size, 0 bytes */
            const char *alg;
            double t = across_at(&at, 0.0, &alg), d = fabs(c0[0] - t) / t;
            snprintf(dep, sizeof dep, "it lies within %.0f%% of predict's answer (%s moves no data)",
                     t > 0 && isfinite(d) ? 100.0 * d : INFINITY, c->pattern);
        } else {
            double top = cf_lines_top(s->bytes_max), most = 0.0;
            double low = fmin(fmax(s->bytes_min, 1.0), top);
            double d = cf_lines_departure(&L, across_at, &at, low, top, &most);
            char sz[32], szl[32], szm[32];
            cf_size_format((uint64_t)top, sz, sizeof sz);
            cf_size_format((uint64_t)low, szl, sizeof szl);
            cf_size_format((uint64_t)most, szm, sizeof szm);
            snprintf(dep, sizeof dep,
                     "it lies within %.0f%% of predict's answers (|formula - answer| / answer) "
                     "at 64 sizes an octave over the measured sizes, %s to %s (the most at %s)",
                     100.0 * d, szl, sz, szm);
        }
        cf_msg("np=%ld: from the across-np model%s%s%s; %s", np, s->note.text[0] ? "; " : "",
               s->note.text, waited, dep);
    } else {
        n = p2p_formula(c, s, np, name, lang, buf, sizeof buf, e);
        if (n == -2)
            return CF_EXIT_DATA;
    }
    if (n < 0)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--lang '%s': expected text, c, python, "
                            "latex or gnuplot",
                            lang);
    fprintf(c->out.fp, "%s\n", buf);
    return 0;
}
