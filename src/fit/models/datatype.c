/* datatype: derived-datatype transfers, T(m, b) = alpha + beta*m + gamma*b with gamma
 * the cost per block, fitted over every measured (m, b); and the gain over MPI_Pack at
 * each measured point, as in Furmento and Mercier's study. Where the block count follows
 * the size (struct: 3 blocks per particle) gamma cannot be told from beta, and the fit is
 * T = alpha + beta*m with the per-block cost inside beta. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "fit/model.h"

static const char *const names[] = {"alpha_us", "beta_us_per_byte", "gamma_us_per_block"};
static const cf_term terms[] = {CF_TERM_ONE, CF_TERM_M, CF_TERM_B};

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
    int folded = blocks_follow_size(in);
    int rc = cf_model_fit_terms(folded ? &cf_model_linear : &cf_model_datatype, in, out, e);
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
    .summary = "derived datatypes: T(m, b) = alpha + beta*m + gamma*b",
    .ncoef = 3,
    .coef_names = names,
    .terms = terms,
    .max_segments = 1,
    .min_sizes = 2,
    .auto_candidate = 0,
    .fit = fit,
};
