/* datatype: derived-datatype transfers. MPICH sends a layout of one block by its contiguous
 * path and any other through its packing engine, whose cost steps up at 2 blocks (a fixed
 * part and a per-byte copy) and then grows slowly with the blocks:
 *   T(m, b) = alpha + beta*m + gamma*b + [b > 1] (delta + beta_pack*m),
 * gamma the cost per block. The step terms are fitted only where the data hold both 1 and
 * more blocks, and each only when it earns its place by auto's rule (leave-one-out error,
 * then AICc), the error taken over every row, the ones the robust fit set aside included;
 * without them this is T = alpha + beta*m + gamma*b. Where the block count
 * follows the size (struct: 3 blocks per particle) gamma cannot be told from beta, and the
 * fit is T = alpha + beta*m with the per-block cost inside beta. Beside the fit, the gain
 * over MPI_Pack at each measured point, as in Furmento and Mercier's study. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "fit/model.h"

static const char *const names[] = {"alpha_us", "beta_us_per_byte", "gamma_us_per_block",
                                    "delta_us", "beta_pack_us_per_byte"};
static const cf_term terms[] = {CF_TERM_ONE, CF_TERM_M, CF_TERM_B, CF_TERM_STEP, CF_TERM_M_STEP};

/* The subsets of the terms tried, simplest first (bits as in names). */
enum { PLAIN = 0x07, STEP = 0x08, STEP_M = 0x10 };
static const unsigned candidates[] = {PLAIN, PLAIN | STEP, PLAIN | STEP_M, PLAIN | STEP | STEP_M};

/* The pack rows of the group's pattern and np, sorted by (bytes, blocks), so that each
 * point finds its own in log time: a table may hold tens of thousands of them. */
typedef struct packs {
    const cf_row **v;
    size_t n;
} packs;

static int cmp_point(const void *a, const void *b)
{
    const cf_row *x = *(const cf_row *const *)a, *y = *(const cf_row *const *)b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? -1 : 1;
    return (x->blocks > y->blocks) - (x->blocks < y->blocks);
}

static int packs_of(const cf_fit_input *in, packs *p)
{
    const cf_row *r0 = in->rows[0];
    p->n = 0;
    p->v = malloc((in->nall + 1) * sizeof *p->v);
    if (p->v == NULL)
        return -1;
    for (size_t i = 0; i < in->nall; i++) {
        const cf_row *q = in->all[i];
        if (q->np == r0->np && strncmp(q->datatype, "pack", 4) == 0 &&
            strcmp(q->pattern, r0->pattern) == 0)
            p->v[p->n++] = q;
    }
    qsort(p->v, p->n, sizeof *p->v, cmp_point);
    return 0;
}

/* The pack row measured at the same point: same pattern, np, bytes and block count, of
 * the same layout (datatype pack_LAYOUT) or, when the table does not say, any pack. */
static const cf_row *pack_row(const packs *p, const cf_row *r)
{
    char mine[CF_DATATYPE_MAX + 8];
    snprintf(mine, sizeof mine, "pack_%s", r->datatype);
    size_t lo = 0, hi = p->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_point(&p->v[mid], &r) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    const cf_row *any = NULL;
    for (size_t i = lo; i < p->n && cmp_point(&p->v[i], &r) == 0; i++) {
        if (strcmp(p->v[i]->datatype, mine) == 0)
            return p->v[i];
        if (strcmp(p->v[i]->datatype, "pack") == 0)
            any = p->v[i];
    }
    return any;
}

/* Whether every row's block count lies on one line b = k0 + k1*m through the sizes
 * (exactly, as measure plans them): then the design [1, m, b] is singular. */
static int blocks_follow_size(const cf_fit_input *in)
{
    const cf_row *a = in->rows[0], *z = in->rows[in->n - 1];
    if (a->bytes == z->bytes)
        return 0;
    double k1 = ((double)z->blocks - a->blocks) / ((double)z->bytes - (double)a->bytes);
    double k0 = a->blocks - k1 * (double)a->bytes;
    for (size_t i = 0; i < in->n; i++) {
        const cf_row *r = in->rows[i];
        double b = k0 + k1 * (double)r->bytes;
        if (fabs(b - r->blocks) > 1e-9 * fmax(1, fabs(b)))
            return 0;
    }
    return 1;
}

/* Whether the rows with more than one block span at least two sizes: beta_pack needs them. */
static int step_sizes(const cf_fit_input *in)
{
    const cf_row *first = NULL;
    for (size_t i = 0; i < in->n; i++) {
        const cf_row *r = in->rows[i];
        if (r->blocks <= 1)
            continue;
        if (first == NULL)
            first = r;
        else if (r->bytes != first->bytes)
            return 1;
    }
    return 0;
}

/* The mean relative error over every row, each predicted by a fit that did not see it: the
 * leave-one-out error of the kept rows and the error of the fit at the rows the robust
 * fit set aside. Candidates are compared on it, not on the kept rows alone: without the
 * step, the fit sets the 1-block rows aside as outliers and its leave-one-out error over
 * the rest looks as good as the step's, while it misses the contiguous path by 2x. */
static double loo_all(const cf_fit *f)
{
    double sum = f->q.loo_mape * f->q.n;
    for (size_t i = 0; i < f->nrejected; i++) {
        double r = f->rejected[i].rel_err; /* (y - T) / T: |y - T| / y = |r / (1 + r)| */
        sum += fabs(r / (1 + r));
    }
    return sum / ((double)f->q.n + (double)f->nrejected);
}

/* Fits each candidate subset of the terms and keeps the best by auto's rule, on the error
 * over every row (loo_all); AICc breaks a tie only between fits of the same rows, else the
 * simpler one stays. The step is tried only with rows at 1 block and at more (else it is
 * the intercept again), beta_pack only with rows of more blocks at two sizes. A candidate
 * that fails or predicts a negative time is passed over; the plain one's failure is the
 * error when every candidate fails. */
static int fit_step(const cf_fit_input *in, int bmin, cf_fit *out, cf_error *e)
{
    int nc = bmin == 1 ? (step_sizes(in) ? 4 : 2) : 1;
    cf_fit best, cand;
    int have = 0, rc = CF_EXIT_DATA;
    for (int c = 0; c < nc; c++) {
        cand = *out;        /* identity and measured range */
        cand.blocks = bmin; /* what cf_fit_check evaluates between the measured points */
        cf_error e2;
        cf_error_clear(&e2);
        int r = cf_model_fit_mask(&cf_model_datatype, candidates[c], in, &cand, &e2);
        if (r == 0 && c > 0 && (r = cf_fit_check(&cand, in, &e2)) != 0)
            cf_fit_clear(&cand);
        if (r != 0) {
            if (c == 0) {
                if (e != NULL)
                    *e = e2;
                rc = r;
            }
            continue;
        }
        int same = have && cand.q.n == best.q.n && cand.nrejected == best.nrejected;
        if (!have || cf_quality_better(loo_all(&cand), same ? cand.q.aicc : NAN, loo_all(&best),
                                       same ? best.q.aicc : NAN)) {
            if (have)
                cf_fit_clear(&best);
            best = cand;
            have = 1;
        } else {
            cf_fit_clear(&cand);
        }
    }
    if (!have)
        return rc;
    *out = best;
    return 0;
}

static int fit(const cf_fit_input *in, cf_fit *out, cf_error *e)
{
    int bmin = -1, bmax = -1;
    for (size_t i = 0; i < in->n; i++) {
        int b = in->rows[i]->blocks;
        if (bmin < 0 || b < bmin)
            bmin = b;
        if (b > bmax)
            bmax = b;
    }
    if (bmin == bmax)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "%s: one block count (%d): the datatype model needs at least two",
                            in->what, bmin);
    /* The text formula says when the per-block cost went into beta (b follows m). */
    int rc = blocks_follow_size(in) ? cf_model_fit_terms(&cf_model_linear, in, out, e)
                                    : fit_step(in, bmin, out, e);
    if (rc != 0 || strncmp(out->datatype, "pack", 4) == 0)
        return rc;
    packs pk;
    if (packs_of(in, &pk) != 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    for (size_t i = 0; i < in->n; i++) {
        const cf_row *r = in->rows[i], *p = pack_row(&pk, r);
        if (p == NULL)
            continue;
        cf_gain *ng = realloc(out->gain, (out->ngain + 1) * sizeof *ng);
        if (ng == NULL) {
            free(pk.v);
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        }
        out->gain = ng;
        cf_gain *g = &ng[out->ngain++];
        g->bytes = r->bytes;
        g->blocks = r->blocks;
        g->t_us = cf_row_time(r, in->stat);
        g->t_pack_us = cf_row_time(p, in->stat);
        g->gain_pct = cf_stats_gain_pct(g->t_us, g->t_pack_us);
    }
    free(pk.v);
    return 0;
}

const cf_model_kind cf_model_datatype = {
    .name = "datatype",
    .summary = "derived datatypes: T(m, b) = alpha + beta*m + gamma*b + [b > 1] (delta + "
               "beta_pack*m)",
    .ncoef = 5,
    .ncoef_required = 3,
    .coef_names = names,
    .terms = terms,
    .max_segments = 1,
    .min_sizes = 2,
    .auto_candidate = 0,
    .fit = fit,
};
