/* datatype: derived-datatype transfers, T(m, b) = alpha + beta*m + gamma*b with gamma
 * the cost per block, fitted over every measured (m, b); and the gain over MPI_Pack at
 * each measured point, as in Furmento and Mercier's study. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

static const char *const names[] = {"alpha_us", "beta_us_per_byte", "gamma_us_per_block"};
static const cf_term terms[] = {CF_TERM_ONE, CF_TERM_M, CF_TERM_B};

/* The pack row measured at the same point: same pattern, np, bytes and block count (or
 * a pack row without blocks at that size). */
static const cf_row *pack_row(const cf_fit_input *in, const cf_row *r)
{
    const cf_row *any = NULL;
    for (size_t i = 0; i < in->nall; i++) {
        const cf_row *q = in->all[i];
        if (strcmp(q->datatype, "pack") != 0 || q->np != r->np || q->bytes != r->bytes ||
            strcmp(q->pattern, r->pattern) != 0)
            continue;
        if (q->blocks == r->blocks)
            return q;
        if (q->blocks == 0)
            any = q;
    }
    return any;
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
    int rc = cf_model_fit_terms(&cf_model_datatype, in, out, e);
    if (rc != 0 || strcmp(out->datatype, "pack") == 0)
        return rc;
    for (size_t i = 0; i < in->n; i++) {
        const cf_row *r = in->rows[i], *p = pack_row(in, r);
        if (p == NULL)
            continue;
        cf_gain *ng = realloc(out->gain, (out->ngain + 1) * sizeof *ng);
        if (ng == NULL)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        out->gain = ng;
        cf_gain *g = &ng[out->ngain++];
        g->bytes = r->bytes;
        g->blocks = r->blocks;
        g->t_us = cf_row_time(r, in->stat);
        g->t_pack_us = cf_row_time(p, in->stat);
        g->gain_pct = 100 * (g->t_pack_us - g->t_us) / g->t_pack_us;
    }
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
