/* The point-to-point estimate: ping-pong's alpha and beta (and a reduction's gamma) put
 * into the algorithm cost of any pattern at any p, calibrated by the contention measured
 * where the pattern was. */
#include "config.h"

#include "fit/across.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define Z95 1.959963984540054

void cf_p2p_clear(cf_p2p *pp)
{
    free(pp->cont);
    memset(pp, 0, sizeof *pp);
}

const cf_contention *cf_p2p_contention(const cf_p2p *pp, const char *pattern, const char *datatype,
                                       long p)
{
    const cf_contention *below = NULL, *lowest = NULL;
    for (size_t i = 0; i < pp->ncont; i++) {
        const cf_contention *k = &pp->cont[i];
        if (strcmp(k->pattern, pattern) != 0 || strcmp(k->datatype, datatype) != 0)
            continue;
        if (k->np <= p && (below == NULL || k->np > below->np))
            below = k;
        if (lowest == NULL || k->np < lowest->np)
            lowest = k;
    }
    return below ? below : lowest;
}

static double p2p_gamma(const cf_p2p *pp, const cf_coll *c, double *se)
{
    /* Only reductions have gamma terms; the others' factor of gamma is 0 anyway. */
    (void)c;
    *se = pp->gamma_se;
    return pp->gamma_us_per_byte;
}

int cf_p2p_predict(const cf_p2p *pp, const cf_coll *c, const char *datatype, long p, double m,
                   cf_estimate *out)
{
    if (pp->error[0] != '\0')
        return CF_EXIT_DATA;
    double gse, f[3];
    double gamma = p2p_gamma(pp, c, &gse);
    int alg = 0;
    double t0 = cf_coll_cost(c, p, m, pp->h.alpha_us, pp->h.beta_us_per_byte, gamma, &alg, f);
    double var = f[0] * f[0] * pp->h.cov[0][0] + 2.0 * f[0] * f[1] * pp->h.cov[0][1] +
                 f[1] * f[1] * pp->h.cov[1][1] + f[2] * f[2] * gse * gse;
    const cf_contention *k = cf_p2p_contention(pp, c->pattern, datatype, p);
    double factor = k ? k->median : 1.0;
    double sd_c = k ? k->sd_log : 0.0;
    double base = k ? CF_P2P_FACTOR_MEASURED : CF_P2P_FACTOR_UNMEASURED;
    double sm = log(base) / Z95;
    double s_model = sqrt(sd_c * sd_c + sm * sm);
    out->alg = alg;
    out->algorithm = c->algs[alg].name;
    out->contention = factor;
    out->contention_np = k ? k->np : 0;
    out->model_factor = exp(Z95 * s_model);
    if (!(t0 > 0.0)) {
        out->t_us = 0.0;
        out->lo_us = 0.0;
        out->hi_us = Z95 * sqrt(fmax(var, 0.0)) * factor * out->model_factor;
        return 0;
    }
    double rel = sqrt(fmax(var, 0.0)) / t0;
    double s = sqrt(rel * rel + pp->h.s2 + s_model * s_model);
    double t = t0 * factor;
    out->t_us = t;
    out->lo_us = t * exp(-Z95 * s);
    out->hi_us = t * exp(Z95 * s);
    return 0;
}

int cf_p2p_lines(const cf_p2p *pp, const cf_coll *c, const char *datatype, long p, double *c0,
                 double *c1)
{
    double gse, gamma = p2p_gamma(pp, c, &gse);
    const cf_contention *k = cf_p2p_contention(pp, c->pattern, datatype, p);
    double factor = k ? k->median : 1.0;
    for (int i = 0; i < c->nalgs; i++) {
        const cf_coll_alg *a = &c->algs[i];
        double coef[3] = {pp->h.alpha_us, pp->h.beta_us_per_byte, gamma};
        const cf_cost_part *parts[3] = {a->alpha, a->beta, a->gamma};
        c0[i] = c1[i] = 0.0;
        for (int v = 0; v < 3; v++)
            for (int j = 0; j < CF_COST_MAX_PARTS && parts[v][j].k != 0.0; j++) {
                double s0, s1;
                cf_cterm_split(parts[v][j].term, p, &s0, &s1);
                c0[i] += factor * coef[v] * parts[v][j].k * s0;
                c1[i] += factor * coef[v] * parts[v][j].k * s1;
            }
    }
    return c->nalgs;
}
