/* piecewise: Hockney per protocol segment (eager, rendezvous...), up to 3 breakpoints
 * chosen among the measured sizes by BIC, each segment at least 3 distinct sizes. A
 * breakpoint is only known to lie between the last size of one segment and the first of
 * the next, and is reported as that interval. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit/model.h"

static const char *const names[] = {"alpha_us", "beta_us_per_byte"};
static const cf_term terms[] = {CF_TERM_ONE, CF_TERM_M};

#define MIN_SIZES 3
/* A breakpoint's position is searched among the sizes, which makes noise look like a
 * jump far more often than one parameter would: it counts as three in BIC. With 5% noise
 * on single-segment data this keeps one segment in about 98% of tables. */
#define BREAK_PENALTY 3

/* Prefix sums of a weighted straight-line fit (weights 1/y^2), so that the cost of any
 * run of sizes is O(1): choosing positions costs O(K^2) fits of no work each. The costs
 * only rank positions; the chosen segments are then fitted properly. */
typedef struct sums {
    double w, wm, wmm, wy, wmy, wyy;
} sums;

static double run_cost(const sums *S, size_t a, size_t b)
{
    double w = S[b].w - S[a].w, wm = S[b].wm - S[a].wm, wmm = S[b].wmm - S[a].wmm;
    double wy = S[b].wy - S[a].wy, wmy = S[b].wmy - S[a].wmy, wyy = S[b].wyy - S[a].wyy;
    double mb = wm / w, yb = wy / w;
    double sxx = wmm - w * mb * mb, sxy = wmy - w * mb * yb, syy = wyy - w * yb * yb;
    double rss = sxx > 0 ? syy - sxy * sxy / sxx : syy;
    return rss > 0 ? rss : 0;
}

typedef struct seg_fit {
    cf_lsq L;
    size_t a, b; /* rows [a, b) */
} seg_fit;

/* The design and times of rows [a, b) into X, y, sd. */
static void run_data(const cf_fit_input *in, size_t a, size_t b, double *X, double *y, double *sd)
{
    for (size_t i = 0; i < b - a; i++) {
        const cf_row *r = in->rows[a + i];
        X[2 * i] = 1;
        X[2 * i + 1] = (double)r->bytes;
        y[i] = cf_row_time(r, in->stat);
        sd[i] = cf_row_se_us(r);
    }
}

static void free_fits(seg_fit *s, int k)
{
    for (int i = 0; i < k; i++)
        cf_lsq_free(&s[i].L);
}

/* The fits without rejection of the runs the numbers of segments try, each made once:
 * they share runs (the first segment often), and the final fits go on from them. */
#define RUNS_MAX (CF_SEG_MAX * (CF_SEG_MAX + 1) / 2)
typedef struct run_cache {
    int n;
    int rc[RUNS_MAX];
    seg_fit f[RUNS_MAX];
} run_cache;

/* The fit of rows [a, b) without rejection, or NULL when it fails. */
static const seg_fit *plain_fit(run_cache *rc, const cf_fit_input *in, size_t a, size_t b,
                                double *X, double *y, double *sd)
{
    for (int i = 0; i < rc->n; i++)
        if (rc->f[i].a == a && rc->f[i].b == b)
            return rc->rc[i] == 0 ? &rc->f[i] : NULL;
    if (rc->n == RUNS_MAX)
        return NULL; /* cannot happen: each number of segments adds at most its own */
    seg_fit *s = &rc->f[rc->n];
    cf_error e2;
    run_data(in, a, b, X, y, sd);
    s->a = a;
    s->b = b;
    rc->rc[rc->n] = cf_lsq_run(X, y, sd, b - a, 2, in->weights, 0, in->what, &s->L, &e2);
    return rc->rc[rc->n++] == 0 ? s : NULL;
}

static void run_cache_free(run_cache *rc)
{
    for (int i = 0; i < rc->n; i++)
        if (rc->rc[i] == 0)
            cf_lsq_free(&rc->f[i].L);
    rc->n = 0;
}

double cf_cuts_score(double rrss, size_t n, int k, int nbreaks)
{
    double floor_rss = (double)n * 1e-12;
    if (rrss < floor_rss)
        rrss = floor_rss;
    double bic = (double)n * log(rrss / (double)n) + (k + 1) * log((double)n);
    return bic + BREAK_PENALTY * nbreaks * log((double)n);
}

#define BEST(s, j) c->best[(size_t)(s) * (c->K + 1) + (j)]
#define FROM(s, j) c->from[(size_t)(s) * (c->K + 1) + (j)]

void cf_cuts_free(cf_cuts *c)
{
    free(c->start);
    free(c->best);
    free(c->from);
    memset(c, 0, sizeof *c);
}

/* BEST(s, j) is the least of BEST(s - 1, i) + cost(i, j), at the first such i. A plain
 * search tries every i, K^2 costs a level: half a minute for a table of thousands of
 * sizes. But a cost is never negative, so no i whose BEST(s - 1, i) is above the least
 * found so far can be it, nor any i from one where all BEST(s - 1, .) from there on are
 * (sufmin): with a real breakpoint that is most i. The search starts from the i of j - 1,
 * usually that of j too, and the last level is needed at K only. Every cost computed is
 * the same number as in the plain search, so the choice is the same (test-fit compares
 * the two). */
static void cut_search(cf_cuts *c, cf_run_cost cost_of, const void *ctx, int plain, double *sufmin)
{
    size_t K = c->K, ms = (size_t)c->min_sizes;
    const size_t *start = c->start;
    for (int s = 0; s < c->smax; s++)
        for (size_t j = 0; j <= K; j++) {
            BEST(s, j) = DBL_MAX;
            FROM(s, j) = 0;
        }
    for (size_t j = ms; j <= K; j++)
        BEST(0, j) = cost_of(ctx, start[0], start[j]);
    for (int s = 1; s < c->smax; s++) {
        size_t lo = (size_t)s * ms;
        if (plain) {
            for (size_t j = (size_t)(s + 1) * ms; j <= K; j++)
                for (size_t i = lo; i + ms <= j; i++) {
                    if (BEST(s - 1, i) == DBL_MAX)
                        continue;
                    double cost = BEST(s - 1, i) + cost_of(ctx, start[i], start[j]);
                    if (cost < BEST(s, j)) {
                        BEST(s, j) = cost;
                        FROM(s, j) = i;
                    }
                }
            continue;
        }
        sufmin[K + 1] = DBL_MAX;
        for (size_t i = K + 1; i-- > lo;)
            sufmin[i] = BEST(s - 1, i) < sufmin[i + 1] ? BEST(s - 1, i) : sufmin[i + 1];
        size_t j0 = s + 1 < c->smax ? (size_t)(s + 1) * ms : K;
        for (size_t j = j0; j <= K; j++) {
            double least = DBL_MAX;
            size_t at = 0, g = j > j0 ? FROM(s, j - 1) : 0;
            if (g >= lo && g + ms <= j && BEST(s - 1, g) != DBL_MAX) {
                least = BEST(s - 1, g) + cost_of(ctx, start[g], start[j]);
                at = g;
            }
            for (size_t i = lo; i + ms <= j && !(sufmin[i] > least); i++) {
                if (BEST(s - 1, i) > least || BEST(s - 1, i) == DBL_MAX || i == at)
                    continue;
                double cost = BEST(s - 1, i) + cost_of(ctx, start[i], start[j]);
                if (cost < least || (cost == least && i < at)) {
                    least = cost;
                    at = i;
                }
            }
            if (least < BEST(s, j)) {
                BEST(s, j) = least;
                FROM(s, j) = at;
            }
        }
    }
}

int cf_cuts_find(const cf_fit_input *in, int min_sizes, cf_run_cost cost, const void *ctx,
                 int plain, cf_cuts *c, cf_error *e)
{
    size_t n = in->n;
    memset(c, 0, sizeof *c);
    c->min_sizes = min_sizes;
    c->start = malloc((n + 1) * sizeof *c->start);
    double *sufmin = malloc((n + 2) * sizeof *sufmin);
    int rc = 0;
    if (!c->start || !sufmin) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto out;
    }
    size_t K = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || in->rows[i]->bytes != in->rows[i - 1]->bytes)
            c->start[K++] = i;
    c->start[K] = n;
    c->K = K;
    if (K < (size_t)min_sizes) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "%s: %zu distinct sizes: expected at least %d",
                          in->what, K, min_sizes);
        goto out;
    }
    c->smax = (int)(K / (size_t)min_sizes) < CF_SEG_MAX ? (int)(K / (size_t)min_sizes) : CF_SEG_MAX;
    c->best = malloc((size_t)c->smax * (K + 1) * sizeof *c->best);
    c->from = calloc((size_t)c->smax * (K + 1), sizeof *c->from);
    if (c->best == NULL || c->from == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto out;
    }
    cut_search(c, cost, ctx, plain, sufmin);
out:
    free(sufmin);
    if (rc != 0)
        cf_cuts_free(c);
    return rc;
}

double cf_cuts_cost(const cf_cuts *c, int s)
{
    return BEST(s, c->K);
}

void cf_cuts_of(const cf_cuts *c, int s, size_t *cut)
{
    cut[s + 1] = c->K;
    for (int q = s; q > 0; q--)
        cut[q] = FROM(q, cut[q + 1]);
    cut[0] = 0;
}

/* The straight-line costs of piecewise: prefix sums of the weighted sums (weights 1/y^2,
 * sizes scaled to the largest), n + 1 of them; NULL when out of memory. */
static sums *line_sums(const cf_fit_input *in)
{
    size_t n = in->n;
    sums *S = calloc(n + 1, sizeof *S);
    if (S == NULL)
        return NULL;
    double mscale = (double)in->rows[n - 1]->bytes > 0 ? (double)in->rows[n - 1]->bytes : 1;
    for (size_t i = 0; i < n; i++) {
        double m = (double)in->rows[i]->bytes / mscale, t = cf_row_time(in->rows[i], in->stat);
        double w = 1 / (t * t);
        S[i + 1] = S[i];
        S[i + 1].w += w;
        S[i + 1].wm += w * m;
        S[i + 1].wmm += w * m * m;
        S[i + 1].wy += w * t;
        S[i + 1].wmy += w * m * t;
        S[i + 1].wyy += w * t * t;
    }
    return S;
}

static double line_cost(const void *S, size_t a, size_t b)
{
    return run_cost(S, a, b);
}

/* The piecewise search: its lines' costs over runs of MIN_SIZES sizes at least. */
static int cuts_find(const cf_fit_input *in, int plain, cf_cuts *c, cf_error *e)
{
    size_t K = 0;
    for (size_t i = 0; i < in->n; i++)
        K += i == 0 || in->rows[i]->bytes != in->rows[i - 1]->bytes;
    if (K < MIN_SIZES) {
        memset(c, 0, sizeof *c);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "%s: %zu distinct sizes: piecewise needs at least %d", in->what, K,
                            MIN_SIZES);
    }
    sums *S = line_sums(in);
    if (S == NULL) {
        memset(c, 0, sizeof *c);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    int rc = cf_cuts_find(in, MIN_SIZES, line_cost, S, plain, c, e);
    free(S);
    return rc;
}

int cf_piecewise_cuts(const cf_fit_input *in, int plain, int *nlevels, double *cost,
                      size_t cut[][CF_SEG_MAX + 1], cf_error *e)
{
    cf_cuts cs, *c = &cs;
    int rc = cuts_find(in, plain, c, e);
    if (rc != 0)
        return rc;
    *nlevels = c->smax;
    for (int s = 0; s < c->smax; s++) {
        cost[s] = BEST(s, c->K);
        if (cost[s] != DBL_MAX)
            cf_cuts_of(c, s, cut[s]);
    }
    cf_cuts_free(c);
    return 0;
}

/* For each number of segments, fits the chosen runs properly and scores them by BIC, a
 * breakpoint counting as a parameter; fewer segments win ties. The best runs' fits go to
 * best_fits (owned by runs); returns their number, 0 when no fit succeeded. */
static int choose_segments(const cf_fit_input *in, const cf_cuts *c, run_cache *runs, double *X,
                           double *y, double *sd, const seg_fit **best_fits)
{
    const seg_fit *fits[CF_SEG_MAX];
    const size_t *start = c->start;
    size_t K = c->K, n = in->n;
    int nbest = 0;
    double best_score = INFINITY;
    for (int s = 0; s < c->smax; s++) {
        if (BEST(s, K) == DBL_MAX)
            continue;
        size_t cut[CF_SEG_MAX + 1];
        cf_cuts_of(c, s, cut);
        double rrss = 0;
        int ok = 1;
        for (int q = 0; q <= s && ok; q++) {
            fits[q] = plain_fit(runs, in, start[cut[q]], start[cut[q + 1]], X, y, sd);
            if (fits[q] == NULL)
                ok = 0;
            else
                rrss += fits[q]->L.rrss;
        }
        double score = ok ? cf_cuts_score(rrss, n, 2 * (s + 1), s) : INFINITY;
        if (score < best_score - 1e-9) {
            best_score = score;
            memcpy(best_fits, fits, sizeof fits);
            nbest = s + 1;
        }
    }
    return nbest;
}

int cf_segs_tally(const cf_fit_input *in, const cf_seg_rows *s, int nseg, double rrss, int nkept,
                  cf_fit *out, cf_error *e)
{
    double sum_loo = 0, max_rel = 0, tss = 0, sw = 0, swy = 0;
    for (int q = 0; q < nseg; q++) {
        const cf_lsq *L = s[q].L;
        for (size_t i = s[q].a; i < s[q].b; i++) {
            size_t k = i - s[q].a;
            double yi = cf_row_time(in->rows[i], in->stat), fi = L->fitted[k];
            if (L->rejected[k]) {
                cf_rejected *nr = realloc(out->rejected, (out->nrejected + 1) * sizeof *nr);
                if (nr == NULL)
                    return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
                out->rejected = nr;
                nr[out->nrejected++] =
                    (cf_rejected){in->rows[i]->bytes, in->rows[i]->blocks, yi, (yi - fi) / fi};
                continue;
            }
            sum_loo += L->loo_rel[k];
            double rel = fabs(yi - fi) / yi;
            if (rel > max_rel)
                max_rel = rel;
            sw += 1 / (fi * fi);
            swy += yi / (fi * fi);
        }
    }
    double mean = swy / sw;
    for (int q = 0; q < nseg; q++)
        for (size_t i = s[q].a; i < s[q].b; i++) {
            size_t k = i - s[q].a;
            if (s[q].L->rejected[k])
                continue;
            double d = (cf_row_time(in->rows[i], in->stat) - mean) / s[q].L->fitted[k];
            tss += d * d;
        }
    out->q.n = nkept;
    out->q.loo_mape = sum_loo / nkept;
    out->q.max_rel_err = max_rel;
    out->q.r2 = tss > 0 ? 1 - rrss / tss : 1;
    return 0;
}

/* The segments' coefficients, rejected points and quality of the final fits into out. */
static int fill_result(const cf_fit_input *in, seg_fit *final, int nfinal, cf_fit *out,
                       cf_error *e)
{
    snprintf(out->model, sizeof out->model, "piecewise");
    out->kind = &cf_model_piecewise;
    out->ncoef = 2;
    for (int j = 0; j < 2; j++)
        snprintf(out->coef_names[j], CF_COEF_NAME_MAX, "%s", names[j]);
    out->nseg = nfinal;
    double wrss = 0, rrss = 0;
    int nkept = 0;
    cf_seg_rows sr[CF_SEG_MAX];
    for (int q = 0; q < nfinal; q++) {
        wrss += final[q].L.wrss;
        rrss += final[q].L.rrss;
        nkept += final[q].L.nkept;
        sr[q] = (cf_seg_rows){final[q].a, final[q].b, &final[q].L};
    }
    /* The breakpoints were searched to fit these points: each is a parameter, as in the
     * AICc below (a line of 2 a segment, nfinal - 1 breakpoints). Each segment holds 3
     * sizes at least, so one degree of freedom is left at least. */
    int dof = nkept - 2 * nfinal - (nfinal - 1);
    if (dof < 1)
        dof = 1;
    double scale = wrss / dof;
    for (int q = 0; q < nfinal; q++) {
        cf_lsq *L = &final[q].L;
        cf_segment *sg = &out->seg[q];
        sg->from_bytes = in->rows[final[q].a]->bytes;
        sg->to_bytes = in->rows[final[q].b - 1]->bytes;
        sg->n = L->nkept;
        for (int j = 0; j < 2; j++) {
            sg->coef[j] = L->coef[j];
            for (int l = 0; l < 2; l++)
                sg->cov[j][l] = L->cov_unscaled[j][l] * scale;
        }
    }
    if (cf_segs_tally(in, sr, nfinal, rrss, nkept, out, e) != 0)
        return CF_EXIT_DATA;
    out->s2 = rrss / dof;
    out->dof = dof;
    out->q.dof = dof;
    out->q.aicc =
        cf_aicc(rrss, (size_t)nkept, 3 * nfinal); /* lines, breakpoints and the variance */
    return 0;
}

static int fit(const cf_fit_input *in, cf_fit *out, cf_error *e)
{
    size_t n = in->n;
    double *X = malloc(2 * n * sizeof *X), *y = malloc(n * sizeof *y), *sd = malloc(n * sizeof *sd);
    run_cache runs = {0};
    const seg_fit *best_fits[CF_SEG_MAX];
    int nbest = 0, rc = 0;
    cf_cuts cs = {0}, *c = &cs;
    if (!X || !y || !sd) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto out;
    }
    if ((rc = cuts_find(in, 0, c, e)) != 0)
        goto out;
    nbest = choose_segments(in, c, &runs, X, y, sd, best_fits);
    if (nbest == 0) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "%s: no piecewise fit succeeded", in->what);
        goto out;
    }
    /* The final fit of each segment, robust if asked. */
    seg_fit final[CF_SEG_MAX];
    int nfinal = 0;
    for (int q = 0; q < nbest && rc == 0; q++) {
        const seg_fit *b = best_fits[q];
        run_data(in, b->a, b->b, X, y, sd);
        final[q].a = b->a;
        final[q].b = b->b;
        rc = cf_lsq_resume(&b->L, X, y, sd, in->weights, in->robust, in->what, &final[q].L, e);
        if (rc == 0)
            nfinal++;
    }
    if (rc == 0)
        rc = fill_result(in, final, nfinal, out, e);
    free_fits(final, nfinal);
out:
    run_cache_free(&runs);
    cf_cuts_free(c);
    free(X);
    free(y);
    free(sd);
    return rc;
}

const cf_model_kind cf_model_piecewise = {
    .name = "piecewise",
    .summary = "Hockney per protocol segment, up to 3 breakpoints",
    .ncoef = 2,
    .coef_names = names,
    .terms = terms,
    .max_segments = CF_SEG_MAX,
    .min_sizes = MIN_SIZES,
    .auto_candidate = 1,
    .fit = fit,
};
