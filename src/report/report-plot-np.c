/* Time against process count, per pattern: the measured sizes, the across-np model and the
 * point-to-point estimate where predict would answer with it. */
#include "config.h"

#include "report/report-plot.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/size.h"
#include "fit/model.h"
#include "modelfile/answer.h"
#include "modelfile/placement.h"

/* Process counts beyond the largest measured one that the across-np model is drawn to. */
#define NP_EXTRAPOLATE 4
/* The point-to-point estimate is drawn to at least this many processes: on a machine that
 * measured np=2 only, it is the one picture of what more processes cost. */
#define NP_ESTIMATE_MIN 64

/* One time-against-np plot being drawn: its selection, its axis of process counts and
 * what draws its curves (the across-np model a, or the point-to-point estimate est). */
typedef struct np_plot {
    cf_report *r;
    const char *datatype;
    cf_sel s;
    const cf_across *a;
    const cf_coll *est;
    uint64_t *nps; /* the measured process counts (n_np), then the axis's others (n_axis) */
    size_t n_np, n_axis;
    long np_lo, np_hi, np_far; /* the measured process counts, and how far the axis goes */
    long fit_lo, fit_hi;       /* the process counts the across-np model was fitted at */
    const cf_placement *pl;    /* where the table's ranks ran (the report's) */
    char algs[160]; /* the estimate's algorithms, as the key names them */
    size_t bars;    /* the estimate's interval bars drawn (none where every one is unbounded) */
    long unbounded; /* the least np where the across-np model's interval has no upper end */
    char no_bar[2048]; /* why a labelled np has no bar: the first such note */
} np_plot;

/* The sizes to draw into pick (CF_PLOT_MAX_SIZES - 1 at most): measured at two process
 * counts or more (a curve of points needs two; with the estimate drawn through them, one
 * point is enough), and apart from each other in time. Returns how many. */
static size_t np_sizes(const np_plot *P, uint64_t *sizes, uint64_t *common, uint64_t *pick)
{
    const cf_sel *s = &P->s;
    size_t n_sizes = cf_sel_distinct(s, 'm', sizes), n_common = 0;
    /* One pass over the rows (sorted by np first), each size found by bisection: how many
     * process counts measured it, and its time at the smallest of them (the first row). A
     * loop over the rows for every size took minutes on a table of 100000 sizes. */
    long *at = calloc(n_sizes + 1, sizeof *at);
    int *last_np = calloc(n_sizes + 1, sizeof *last_np);
    double *first_t = calloc(n_sizes + 1, sizeof *first_t);
    if (at == NULL || last_np == NULL || first_t == NULL) {
        free(at);
        free(last_np);
        free(first_t);
        return 0;
    }
    for (size_t i = 0; i < s->n; i++) {
        const cf_row *x = cf_sel_row(s, i);
        size_t lo = 0, hi = n_sizes;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (sizes[mid] < x->bytes)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == n_sizes || sizes[lo] != x->bytes)
            continue;
        if (x->np != last_np[lo]) {
            at[lo]++;
            last_np[lo] = x->np;
        }
        if (first_t[lo] == 0)
            first_t[lo] = cf_report_row_time(P->r, x);
    }
    double *common_t = first_t; /* reused in place: common[k]'s time at common_t[k] */
    for (size_t j = 0; j < n_sizes; j++)
        if (at[j] >= 2 || P->est != NULL) {
            common_t[n_common] = first_t[j];
            common[n_common++] = sizes[j];
        }
    free(at);
    free(last_np);
    if (n_common == 0) {
        free(first_t);
        return 0;
    }
    /* Sizes whose times differ by less than half (latency-bound small sizes) would draw
     * one curve over the other: of such a run, the smallest size stays. */
    size_t n_apart = 0;
    double last_t = 0;
    /* 0 bytes only when there is nothing else: it is the next size's curve. */
    for (size_t j = common[0] == 0 && n_common > 1; j < n_common; j++) {
        double t = common_t[j]; /* at the smallest np */
        if (n_apart > 0 && t < 1.5 * last_t && t > last_t / 1.5)
            continue;
        last_t = t;
        common[n_apart++] = common[j];
    }
    free(first_t);
    return cf_report_spread(common, n_apart, CF_PLOT_MAX_SIZES - 1, pick);
}

/* The answer at fitted np p (cf_fitted_at), as predict's there: the fit corrected by its
 * measured neighbours; NAN where none. */
static double fitted_at(void *vp, long p, double m)
{
    const np_plot *P = vp;
    const cf_fit *f = P->r->ms != NULL && p <= INT_MAX
                          ? cf_modelset_find(P->r->ms, P->a->pattern, (int)p, P->datatype)
                          : NULL;
    cf_prediction pr;
    long node;
    const char *rules = cf_across_rules(&P->r->across->pp, P->a, &node); /* as predict's */
    if (f == NULL || cf_fit_predict_near_rules(f, m, f->blocks, rules, node, &pr) != 0)
        return NAN;
    return pr.t_us;
}

/* The across-np model at size m in colour lt: between the process counts it was fitted at
 * (solid), which need not be all the table's (fit --np), then below and beyond them
 * (dashed), with its interval beyond them (dotted); past the one node every fitted np ran
 * in, no upper bound, as predict answers there. */
/* The across-np model's answer at (np, m) into *x, as predict answers; 1 where its interval
 * has no upper end, else 0. */
static int model_at(const np_plot *P, long np, uint64_t m, cf_estimate *x)
{
    char note[2048];
    cf_unmeasured u;
    cf_tier_added add;
    cf_placement_beyond_fitted(P->pl, P->fit_hi, np, &u, note, sizeof note);
    cf_placement_across_answer(P->pl, P->a, &P->r->across->pp, &u, np, (double)m, fitted_at,
                               (void *)P, x, &add);
    /* Past the largest fitted np a gather's and a scatter's growth is the estimate's. */
    const cf_coll *c = cf_coll_find(P->a->pattern);
    cf_estimate e;
    if (np > P->fit_hi && !x->grid && cf_answer_grows_by_estimate(P->r->across, c, P->datatype) &&
        cf_answer_estimate_us(P->pl, &P->r->across->pp, c, P->datatype, NULL, np, (double)m,
                              &e) > 0)
        cf_answer_grow(&e,
                       cf_answer_estimate_us(P->pl, &P->r->across->pp, c, P->datatype, NULL,
                                             P->fit_hi, (double)m, NULL),
                       fitted_at((void *)P, P->fit_hi, (double)m), &x->t_us, &x->lo_us,
                       &x->hi_us, NULL);
    return cf_unmeasured_unbounded(&u) || add.read_from > 0;
}

static void np_model_curves(np_plot *P, cf_script *sc, uint64_t m, int lt)
{
    long bounded = 0; /* the last np drawn with an upper end */
    char how[96];
    const struct {
        const char *name;
        long from, to;
        int dashed;
    } parts[] = {{"below the fitted np", P->np_lo, P->fit_lo, 1},
                 {"within the fitted np", P->fit_lo, P->fit_hi, 0},
                 {"extrapolated", P->fit_hi, P->np_far, 1}};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        long from = parts[i].from, to = parts[i].to;
        if (from >= to && i != 1)
            continue;
        cf_script_block(sc, parts[i].name, "np t_us lo_us hi_us (across-np model)");
        for (int k = 0; k <= 40; k++) {
            double p = from * pow((double)to / from, k / 40.0);
            cf_estimate x, y;
            if (model_at(P, lround(p), m, &x)) {
                fprintf(sc->dat, "%ld %.6g %.6g inf\n", lround(p), x.t_us, x.lo_us);
                /* The first np without one, found between the samples: once, past the
                 * last sample with one. */
                long lo = bounded, hi = lround(p);
                bounded = 0;
                while (lo > 0 && hi - lo > 1) {
                    long mid = lo + (hi - lo) / 2;
                    if (model_at(P, mid, m, &y))
                        hi = mid;
                    else
                        lo = mid;
                }
                if (hi > lo && (P->unbounded == 0 || hi < P->unbounded))
                    P->unbounded = hi;
            } else {
                bounded = lround(p);
                fprintf(sc->dat, "%ld %.6g %.6g %.6g\n", lround(p), x.t_us, x.lo_us, x.hi_us);
            }
        }
        snprintf(how, sizeof how, "using 1:2 with lines lt %d%s", lt,
                 parts[i].dashed ? " dt 2" : "");
        cf_script_curve(sc, how, NULL);
    }
    for (int c = 3; c <= 4; c++) {
        snprintf(how, sizeof how, "using 1:%d with lines lt %d dt 3 lw 1", c, lt);
        cf_script_curve(sc, how, NULL);
    }
}

/* Whether the key's list ("a, b, c") holds alg as one whole item ("binomial tree" is not in
 * "two-level binomial tree"). */
static int key_has(const char *list, const char *alg)
{
    size_t n = strlen(alg);
    for (const char *p = list; (p = strstr(p, alg)) != NULL; p += n)
        if ((p == list || (p >= list + 2 && p[-2] == ',' && p[-1] == ' ')) &&
            (p[n] == '\0' || p[n] == ','))
            return 1;
    return 0;
}

/* What predict answers where no fit is, at size m (the j-th of n_pick) in colour lt: the
 * estimate, all of it dashed, and its interval as bars at the labelled process counts
 * beyond the measured, each size's a little apart from the others' so that none hides
 * another. */
static void np_estimate_curves(np_plot *P, cf_script *sc, uint64_t m, int lt, size_t j,
                               size_t n_pick)
{
    char how[96], note[2048];
    /* The curves start at the smallest np the estimate means anything at: 2 processes. */
    long from_est = P->np_lo < 2 ? 2 : P->np_lo, last = 0;
    /* Past the node np=2 ran in, no upper bound (predict's inf): the network between
     * nodes was never measured, and a bar would claim it was. */
    cf_unmeasured u;
    cf_script_block(sc, "point-to-point estimate", "np t_us lo_us hi_us (point-to-point estimate)");
    for (int k = 0; k <= 60; k++) {
        long p = lround(from_est * pow((double)P->np_far / from_est, k / 60.0));
        cf_estimate x;
        cf_tier_added add;
        if (p == last)
            continue;
        cf_placement_unmeasured(P->pl, p, &u, note, sizeof note);
        cf_placement_fan_measured(P->pl, &P->r->across->pp, P->est, P->datatype, p, &u);
        if (cf_placement_p2p_answer(P->pl, &P->r->across->pp, P->est, P->datatype, &u, p,
                                    (double)m, &x, &add) != 0 ||
            !(x.t_us > 0))
            continue;
        last = p;
        if (cf_unmeasured_unbounded(&u))
            fprintf(sc->dat, "%ld %.6g %.6g inf\n", p, x.t_us, x.lo_us);
        else
            fprintf(sc->dat, "%ld %.6g %.6g %.6g\n", p, x.t_us, x.lo_us, x.hi_us);
        /* The algorithm the estimate costs: the library's rules' where the file names them
         * (x.algorithm; x.alg indexes the catalog, 0 under the rules: Open MPI's bcast read
         * "binomial tree" in the key where predict said knomial, binary and more). */
        const char *alg = x.algorithm != NULL ? x.algorithm : P->est->algs[x.alg].name;
        /* As predict's model column names it: one that is also a fitted model's name
         * ("linear") with the pattern after it ("linear alltoall"). */
        char named[96];
        if (cf_model_kind_find(alg) != NULL || strcmp(alg, "constant") == 0) {
            snprintf(named, sizeof named, "%s %s", alg, P->est->pattern);
            alg = named;
        }
        if (!key_has(P->algs, alg))
            snprintf(P->algs + strlen(P->algs), sizeof P->algs - strlen(P->algs), "%s%s",
                     P->algs[0] ? ", " : "", alg);
    }
    snprintf(how, sizeof how, "using 1:2 with lines lt %d dt 2", lt);
    cf_script_curve(sc, how, NULL);
    /* The bars first: a block without a row is no data set to gnuplot, which would then
     * read every later index one off; where no labelled np has a bar, no block. */
    double shift = pow(1.035, (double)j - (double)(n_pick - 1) / 2);
    cf_estimate bar[64];
    long bar_np[64];
    int has[64];
    size_t nb = 0, bars = 0;
    for (size_t k = P->n_np; k < P->n_axis && nb < sizeof bar / sizeof bar[0]; k++, nb++) {
        bar_np[nb] = (long)P->nps[k];
        cf_placement_unmeasured(P->pl, bar_np[nb], &u, note, sizeof note);
        cf_placement_fan_measured(P->pl, &P->r->across->pp, P->est, P->datatype, bar_np[nb],
                                  &u);
        has[nb] = 0;
        cf_tier_added add;
        if (cf_unmeasured_unbounded(&u)) {
            has[nb] = -1;
            if (P->no_bar[0] == '\0')
                snprintf(P->no_bar, sizeof P->no_bar, "%s", note);
        } else if (cf_placement_p2p_answer(P->pl, &P->r->across->pp, P->est, P->datatype, &u,
                                           bar_np[nb], (double)m, &bar[nb], &add) == 0 &&
                   bar[nb].t_us > 0) {
            /* A call that moves nothing has no lower end from np=2: no bar to draw on a log
             * axis (one from 0 showed its top alone: the second review). */
            if (bar[nb].no_op_open) {
                has[nb] = -1;
                if (P->no_bar[0] == '\0')
                    snprintf(P->no_bar, sizeof P->no_bar,
                             "the call moves nothing (fewer bytes than one element): a library "
                             "may return at once, so the interval has no lower end");
                continue;
            }
            has[nb] = 1;
            bars++;
        }
    }
    P->bars += bars;
    if (bars == 0)
        return;
    cf_script_block(sc, "its 95% prediction interval",
                    "np t_us lo_us hi_us (point-to-point estimate; np drawn at np * shift)");
    for (size_t k = 0; k < nb; k++) {
        if (has[k] < 0) {
            cf_placement_unmeasured(P->pl, bar_np[k], &u, note, sizeof note);
            fprintf(sc->dat, "# np %ld, no bar: %s\n", bar_np[k], note);
        } else if (has[k] > 0) {
            fprintf(sc->dat, "%.6g %.6g %.6g %.6g\n", (double)bar_np[k] * shift, bar[k].t_us,
                    bar[k].lo_us, bar[k].hi_us);
        }
    }
    snprintf(how, sizeof how, "using 1:2:3:4 with yerrorbars lt %d pt 0 lw 1", lt);
    cf_script_curve(sc, how, NULL);
}

/* The key says once, in black, what solid, dashed and dotted mean; the colour is the
 * size. */
static void np_key(const np_plot *P, cf_script *sc)
{
    if (P->a != NULL) {
        cf_script_key(sc, "with lines lc rgb '#000000'", "across-np model");
        cf_script_key(sc, "with lines lc rgb '#000000' dt 2",
                      "across-np model, extrapolated beyond the np fitted");
        cf_script_key(sc, "with lines lc rgb '#000000' dt 3 lw 1", "its 95% prediction interval");
        fprintf(sc->gp,
                "set arrow from %ld, graph 0 to %ld, graph 1 nohead lc rgb '#808080' "
                "dt 3\n",
                P->fit_hi, P->fit_hi);
    } else if (P->est != NULL) {
        char t[320];
        snprintf(t, sizeof t,
                 "point-to-point estimate, what predict answers: %s\n      with "
                 "ping-pong's alpha and beta, times the contention measured",
                 P->algs);
        cf_script_key(sc, "with lines lc rgb '#000000' dt 2", t);
        if (P->bars > 0)
            cf_script_key(sc, "with yerrorbars lc rgb '#000000' pt 0 lw 1",
                          "its 95% prediction interval (with a model-error factor)");
        else
            cf_script_key(sc, "with lines lt nodraw",
                          "no interval bars: beyond the np measured none has an upper bound");
    }
}

static void np_caption(const np_plot *P, const char *pattern, char *caption, size_t n)
{
    const cf_report *r = P->r;
    /* Which algorithm the estimate costs: the library's switch rules where the file names
     * them (p2p.c), else the cheapest of those MPICH switches between. */
    char which[200];
    const char *rules = r->across != NULL ? r->across->pp.rules : "";
    if (rules[0] != '\0')
        snprintf(which, sizeof which, "the algorithm the table's MPI library chooses (%s's "
                 "rules)", rules);
    else
        snprintf(which, sizeof which, "the cheapest of the algorithms MPICH switches between "
                 "(the table names no library whose rules commfit knows)");
    char est_text[800];
    snprintf(est_text, sizeof est_text,
             " Dashed lines are the point-to-point estimate, which is what commfit predict "
             "answers at a process count without a fit: the cost of %s for the pattern "
             "evaluated with the ping-pong's alpha and beta, times the contention measured "
             "where the pattern was. It is an estimate, not a measurement, fitted at no "
             "process count beyond those measured; ",
             which);
    snprintf(caption, n,
             "Time per call of %s against the number of processes, log-log, at a few "
             "message sizes%s. %s; bars are the 95%% confidence interval.%s",
             pattern, P->est ? "" : " measured at two process counts or more",
             cf_plot_points_note(r),
             P->a ? " Lines are the across-np model, fitted jointly over the process counts and "
                    "sizes it was given (where no library's rules read the measured points, "
                    "carried through the answers at the fitted process counts, as predict "
                    "answers): solid between the process counts it was fitted at, "
                    "dashed where it extrapolates, beyond the largest of them (the dotted "
                    "vertical line) with its 95% prediction interval dotted."
             : P->est ? est_text
             : r->ms  ? " The model has no across-np model for this pattern."
                      : "");
    /* Where the interval has no upper end, gnuplot draws no upper line: said (a new user
     * read the missing line as a bound the plot left out). */
    if (P->a != NULL && P->unbounded > 0) {
        size_t k = strlen(caption);
        snprintf(caption + k, n - k,
                 " Where the interval has no upper bound (first at np %ld, as predict answers "
                 "there: inf, its note saying why), its upper dotted line is not drawn.",
                 P->unbounded);
    }
    if (P->a == NULL && P->est != NULL) {
        size_t k = strlen(caption);
        /* Where no labelled np has a bar, the caption says why, in predict's words. */
        if (P->bars > 0)
            snprintf(caption + k, n - k,
                     "bars at the labelled process counts are its 95%% prediction interval, "
                     "which includes a model-error factor for what alpha and beta cannot know.%s%s",
                     P->no_bar[0] ? " Where a labelled process count has none: " : "",
                     P->no_bar);
        else
            snprintf(caption + k, n - k,
                     "no labelled process count has an interval bar, for none has an upper "
                     "bound: %s.",
                     P->no_bar);
    }
}

/* The axis: the measured process counts, and beyond them where the model or the estimate
 * is drawn to. The model's fitted range is its own: fit --np may have left out some of
 * the table's process counts. */
static void np_axis(np_plot *P, size_t cap)
{
    P->np_lo = (long)P->nps[0];
    P->np_hi = (long)P->nps[P->n_np - 1];
    if (P->a != NULL) {
        P->fit_lo = P->a->np[0];
        P->fit_hi = P->a->np[P->a->nnp - 1];
        P->np_lo = P->np_lo < P->fit_lo ? P->np_lo : P->fit_lo;
        P->np_hi = P->np_hi > P->fit_hi ? P->np_hi : P->fit_hi;
    }
    P->np_far = P->np_hi * NP_EXTRAPOLATE;
    if (P->est != NULL && P->np_far < NP_ESTIMATE_MIN)
        P->np_far = NP_ESTIMATE_MIN;
    P->n_axis = P->n_np;
    if (P->a != NULL) {
        P->nps[P->n_axis++] = (uint64_t)P->np_hi * 2;
        P->nps[P->n_axis++] = (uint64_t)P->np_far;
    } else if (P->est != NULL) {
        for (uint64_t p = 2; p <= (uint64_t)P->np_far && P->n_axis < cap; p *= 2)
            if (p > (uint64_t)P->np_hi)
                P->nps[P->n_axis++] = p;
    }
}

/* The points of size m, with their intervals, as one curve in colour lt. */
static void np_points(const np_plot *P, cf_script *sc, uint64_t m, int lt)
{
    char size[32], how[96], t[160];
    cf_size_format(m, size, sizeof size);
    cf_script_block(sc, size, "np t_us t_lo_us t_hi_us");
    for (size_t i = 0; i < P->s.n; i++) {
        const cf_row *x = cf_sel_row(&P->s, i);
        if (x->bytes != m)
            continue;
        double tm, tlo, thi;
        cf_plot_time_bounds(P->r, x, &tm, &tlo, &thi);
        fprintf(sc->dat, "%d %.6g %.6g %.6g\n", x->np, tm, tlo, thi);
    }
    int lines = P->a == NULL && P->est == NULL;
    snprintf(how, sizeof how, "using 1:2:3:4 with %s lt %d", lines ? "yerrorlines" : "yerrorbars",
             lt);
    snprintf(t, sizeof t, "%s%s", size, lines ? "" : " measured");
    cf_script_curve(sc, how, t);
}

int cf_plot_np(cf_report *r, const char *pattern, const char *datatype, int name_dt, cf_error *e)
{
    np_plot P = {.r = r, .datatype = datatype};
    if (cf_sel_rows(r->table, pattern, datatype, 0, &P.s, e) != 0)
        return CF_EXIT_DATA;
    size_t cap = P.s.n + 16;
    P.nps = malloc(cap * sizeof *P.nps);
    uint64_t *sizes = malloc((P.s.n + 1) * sizeof *sizes);
    uint64_t *common = malloc((P.s.n + 1) * sizeof *common);
    uint64_t pick[CF_PLOT_MAX_SIZES];
    int rc = 0;
    if (P.nps == NULL || sizes == NULL || common == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto done;
    }
    P.n_np = cf_sel_distinct(&P.s, 'n', P.nps);
    /* What predict answers at a process count without a fit: the across-np model, else
     * the point-to-point estimate; that is the curve. */
    cf_answer_source src;
    int have = r->ms != NULL &&
               cf_answer_choose(r->ms, r->across, pattern, datatype, 0, &src, NULL, 0) == 0;
    P.a = have && src.kind == CF_ANSWER_ACROSS ? src.across : NULL;
    P.est = have && src.kind == CF_ANSWER_P2P ? src.coll : NULL;
    if (P.n_np == 0 || (P.n_np < 2 && P.est == NULL))
        goto done;
    P.pl = &r->pl;
    size_t n_pick = np_sizes(&P, sizes, common, pick);
    if (n_pick == 0)
        goto done;
    np_axis(&P, cap);

    char name[CF_PLOT_NAME_MAX], title[256], caption[2400];
    cf_script_name(name, sizeof name, "np", pattern, name_dt ? datatype : NULL, NULL);
    snprintf(title, sizeof title, "%s (%s): time per call vs process count", pattern, datatype);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_values_axis(sc.gp, "x", P.nps, P.n_axis);
    fputs("set xlabel 'processes'\n", sc.gp);
    cf_script_time_axis(sc.gp);
    for (size_t j = 0; j < n_pick; j++) {
        np_points(&P, &sc, pick[j], (int)j + 1);
        if (P.a != NULL)
            np_model_curves(&P, &sc, pick[j], (int)j + 1);
        else if (P.est != NULL)
            np_estimate_curves(&P, &sc, pick[j], (int)j + 1, j, n_pick);
    }
    np_key(&P, &sc);
    np_caption(&P, pattern, caption, sizeof caption);
    rc = cf_script_close(&sc, CF_SEC_NP, title, caption, e);
done:
    free(P.nps);
    free(sizes);
    free(common);
    free(P.s.idx);
    return rc;
}
