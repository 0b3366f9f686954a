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

/* The np=2 entry of the pattern with fitted latency and bandwidth factors, else NULL. */
static const cf_contention *np2_entry(const cf_p2p *pp, const char *pattern, const char *datatype)
{
    for (size_t i = 0; i < pp->ncont; i++) {
        const cf_contention *k = &pp->cont[i];
        if (k->np == 2 && k->lat_factor > 0.0 && k->bw_factor > 0.0 &&
            strcmp(k->pattern, pattern) == 0 && strcmp(k->datatype, datatype) == 0)
            return k;
    }
    return NULL;
}

/* From the pattern's own np=2 times: the algorithm the library's rules run at (p, m) with
 * its steps costed along the measured np=2 curve where the rules are known, else every
 * algorithm's cost with ping-pong's alpha times the latency factor and beta, gamma times
 * the bandwidth factor, the cheapest, times the measured / fitted ratio at np=2 and size m.
 * Either way the estimate at p=2 is the measurement. The
 * interval: the factors' uncertainty, their fit's residual, and what each doubling of p
 * beyond 2 may add (CF_P2P_SD_PER_DOUBLING, its variance growing with each). */
static void predict_np2(const cf_p2p *pp, const cf_coll *c, const cf_contention *k, long p,
                        double m, cf_estimate *out)
{
    double f[3], alpha = pp->h.alpha_us, gamma = pp->gamma_us_per_byte;
    int alg = 0;
    double tf = cf_coll_cost(c, p, m, k->lat_factor * alpha, k->bw_factor * pp->h.beta_us_per_byte,
                             k->bw_factor * gamma, &alg, f);
    double x0 = f[0] * alpha, x1 = f[1] * pp->h.beta_us_per_byte + f[2] * gamma;
    double var = x0 * x0 * k->factor_cov[0][0] + 2.0 * x0 * x1 * k->factor_cov[0][1] +
                 x1 * x1 * k->factor_cov[1][1];
    double rel2 = tf > 0.0 ? fmax(var, 0.0) / (tf * tf) + k->factor_s2 : 0.0;
    out->alg = alg;
    out->algorithm = c->algs[alg].name;
    double t = tf;
    if (k->nunit >= 2 && tf > 0.0) {
        /* What two factors miss at np=2 (a protocol switch, a cache) stays a ratio at size
         * m: the estimate then passes through the measured curve, whose residual it no
         * longer carries. */
        double f2[3];
        double t2 =
            cf_coll_cost(c, 2, m, k->lat_factor * alpha, k->bw_factor * pp->h.beta_us_per_byte,
                         k->bw_factor * gamma, NULL, f2);
        if (t2 > 0.0) {
            t = tf * cf_unit_time(k->unit_bytes, k->unit_t_us, k->nunit, m) / t2;
            /* The factors' uncertainty in ln(tf(p) / tf(2)): 0 at p=2. */
            double g0 = x0 / tf - f2[0] * alpha / t2;
            double g1 = x1 / tf - (f2[1] * pp->h.beta_us_per_byte + f2[2] * gamma) / t2;
            rel2 = fmax(0.0, g0 * g0 * k->factor_cov[0][0] + 2.0 * g0 * g1 * k->factor_cov[0][1] +
                                 g1 * g1 * k->factor_cov[1][1]);
        }
    }
    cf_rule_alg ra, r2;
    if (pp->rules[0] != '\0' && k->nunit >= 2 &&
        cf_rules_pick(pp->rules, c->pattern, p, m, &ra) == 0 &&
        cf_rules_pick(pp->rules, c->pattern, 2, m, &r2) == 0) {
        /* Scaled so that at p=2 it is the measurement, also where the algorithm run there
         * is not one step of m (Rabenseifner's halving: two of m/2 and less). */
        const double *ub = k->unit_bytes, *ut = k->unit_t_us;
        double s2 = cf_steps_cost(r2.steps, 2, m, ub, ut, k->nunit);
        if (s2 > 0.0) {
            t = cf_steps_cost(ra.steps, p, m, ub, ut, k->nunit) *
                cf_unit_time(ub, ut, k->nunit, m) / s2;
            out->algorithm = ra.name;
            rel2 = 0.0;
        }
    }
    double doublings = p > 2 ? log2((double)p / 2.0) : 0.0;
    double s_ext = CF_P2P_SD_PER_DOUBLING * sqrt(doublings);
    double s = sqrt(rel2 + s_ext * s_ext);
    out->contention = k->bw_factor;
    out->contention_np = 2;
    out->model_factor = exp(Z95 * s_ext);
    out->t_us = t;
    out->lo_us = t * exp(-Z95 * s);
    out->hi_us = t * exp(Z95 * s);
}

int cf_p2p_predict(const cf_p2p *pp, const cf_coll *c, const char *datatype, long p, double m,
                   cf_estimate *out)
{
    if (pp->error[0] != '\0')
        return CF_EXIT_DATA;
    const cf_contention *k2 = np2_entry(pp, c->pattern, datatype);
    if (k2 != NULL) {
        predict_np2(pp, c, k2, p, m, out);
        return 0;
    }
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
    const cf_contention *k2 = np2_entry(pp, c->pattern, datatype);
    double factor = k ? k->median : 1.0;
    double fa = k2 ? k2->lat_factor : factor, fb = k2 ? k2->bw_factor : factor;
    for (int i = 0; i < c->nalgs; i++) {
        const cf_coll_alg *a = &c->algs[i];
        double coef[3] = {fa * pp->h.alpha_us, fb * pp->h.beta_us_per_byte, fb * gamma};
        const cf_cost_part *parts[3] = {a->alpha, a->beta, a->gamma};
        c0[i] = c1[i] = 0.0;
        for (int v = 0; v < 3; v++)
            for (int j = 0; j < CF_COST_MAX_PARTS && parts[v][j].k != 0.0; j++) {
                double s0, s1;
                cf_cterm_split(parts[v][j].term, p, &s0, &s1);
                c0[i] += coef[v] * parts[v][j].k * s0;
                c1[i] += coef[v] * parts[v][j].k * s1;
            }
    }
    return c->nalgs;
}
