/* The table of cost-model kinds, the one-segment fit that linear, poly2 and the datatype
 * model share (the datatype model over subsets of its terms), and auto's rule between two
 * fits. Adding a kind touches its own file and this table only. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit/model.h"

const cf_model_kind *const cf_model_kinds[] = {
    &cf_model_constant, &cf_model_linear,   &cf_model_poly2, &cf_model_piecewise,
    &cf_model_loggp,    &cf_model_datatype, &cf_model_auto,  NULL,
};

/* Leave-one-out errors within 10% of each other (or 0.1 percentage point) are a tie. */
static int tie(double a, double b)
{
    double d = fabs(a - b);
    return d <= 0.1 * fmin(a, b) || d <= 1e-3;
}

int cf_quality_better(double loo_c, double aicc_c, double loo_best, double aicc_best)
{
    if (!isfinite(loo_c))
        return 0;
    if (!isfinite(loo_best))
        return 1;
    if (!tie(loo_c, loo_best))
        return loo_c < loo_best;
    return isfinite(aicc_c) && (!isfinite(aicc_best) || aicc_c < aicc_best - 2);
}

int cf_fit_better(const cf_fit *c, const cf_fit *best)
{
    return cf_quality_better(c->q.loo_mape, c->q.aicc, best->q.loo_mape, best->q.aicc);
}

const cf_model_kind *cf_model_kind_find(const char *name)
{
    /* The first letters first: predict asks for every answer. */
    for (int i = 0; cf_model_kinds[i] != NULL; i++)
        if (cf_model_kinds[i]->name[0] == name[0] && strcmp(cf_model_kinds[i]->name, name) == 0)
            return cf_model_kinds[i];
    return NULL;
}

int cf_model_fit_terms(const cf_model_kind *kind, const cf_fit_input *in, cf_fit *out,
                       cf_error *e)
{
    return cf_model_fit_mask(kind, (1u << kind->ncoef) - 1, in, out, e);
}

int cf_model_fit_mask(const cf_model_kind *kind, unsigned mask, const cf_fit_input *in, cf_fit *out,
                      cf_error *e)
{
    /* col[j]: the coefficient of kind that column j of the design carries. */
    int col[CF_COEF_MAX];
    size_t p = 0;
    for (int j = 0; j < kind->ncoef; j++)
        if (mask & (1u << j))
            col[p++] = j;
    size_t n = in->n;
    double *X = malloc(n * p * sizeof *X), *y = malloc(n * sizeof *y),
           *sd = malloc(n * sizeof *sd);
    if (X == NULL || y == NULL || sd == NULL) {
        free(X);
        free(y);
        free(sd);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    cf_fit tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.kind = kind;
    tmp.ncoef = kind->ncoef;
    for (size_t i = 0; i < n; i++) {
        const cf_row *r = in->rows[i];
        double x[CF_COEF_MAX];
        cf_fit_design(&tmp, (double)r->bytes, (double)r->blocks, x);
        for (size_t j = 0; j < p; j++)
            X[i * p + j] = x[col[j]];
        y[i] = cf_row_time(r, in->stat);
        sd[i] = cf_row_se_us(r);
    }
    cf_lsq L;
    int rc = cf_lsq_run(X, y, sd, n, p, in->weights, in->robust, in->what, &L, e);
    if (rc == 0) {
        snprintf(out->model, sizeof out->model, "%s", kind->name);
        out->kind = kind;
        out->ncoef = kind->ncoef;
        for (int j = 0; j < kind->ncoef; j++)
            snprintf(out->coef_names[j], CF_COEF_NAME_MAX, "%s", kind->coef_names[j]);
        out->nseg = 1;
        cf_segment *s = &out->seg[0];
        s->from_bytes = out->min_bytes;
        s->to_bytes = out->max_bytes;
        s->n = L.nkept;
        /* The coefficients left out stay 0, exactly (no variance). */
        memset(s->coef, 0, sizeof s->coef);
        memset(s->cov, 0, sizeof s->cov);
        for (size_t j = 0; j < p; j++) {
            s->coef[col[j]] = L.coef[j];
            for (size_t l = 0; l < p; l++)
                s->cov[col[j]][col[l]] = L.cov[j][l];
        }
        out->s2 = L.s2_rel;
        out->dof = L.dof;
        cf_quality_fill(&L, y, (int)p, &out->q);
        size_t nrej = n - (size_t)L.nkept;
        if (nrej > 0 && (out->rejected = calloc(nrej, sizeof *out->rejected)) != NULL) {
            for (size_t i = 0; i < n; i++) {
                if (!L.rejected[i])
                    continue;
                cf_rejected *q = &out->rejected[out->nrejected++];
                q->bytes = in->rows[i]->bytes;
                q->blocks = in->rows[i]->blocks;
                q->t_us = y[i];
                q->rel_err = (y[i] - L.fitted[i]) / L.fitted[i];
            }
        }
        cf_lsq_free(&L);
    }
    free(X);
    free(y);
    free(sd);
    return rc;
}
