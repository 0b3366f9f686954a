/* The algorithm costs of every pattern commfit measures, as terms in (p, m): one table,
 * read by the across-np fit (its basis) and by the point-to-point estimate (its costs).
 * Sources: Thakur, Rabenseifner and Gropp 2005 (MPICH); Bruck et al. 1997 (alltoall);
 * Hensgen, Finkel and Manber 1988 (dissemination barrier). commfit-formats(5) lists them. */
#include "config.h"

#include "base/collective.h"

#include <string.h>

static const char *const term_names[CF_CT_COUNT] = {
    [CF_CT_ONE] = "1",
    [CF_CT_M] = "m",
    [CF_CT_LG] = "ceil(lg p)",
    [CF_CT_LG_M] = "ceil(lg p)*m",
    [CF_CT_P1] = "(p-1)",
    [CF_CT_P1_M] = "(p-1)*m",
    [CF_CT_FR_M] = "(p-1)/p*m",
    [CF_CT_BRUCK_M] = "ceil(lg p)*p*m/2",
};

int cf_ceil_lg(long p)
{
    int l = 0;
    while (l < 62 && ((long)1 << l) < p)
        l++;
    return l;
}

const char *cf_cterm_name(cf_cterm t)
{
    return (unsigned)t < CF_CT_COUNT ? term_names[t] : "?";
}

int cf_cterm_find(const char *name)
{
    for (int t = 0; t < CF_CT_COUNT; t++)
        if (strcmp(term_names[t], name) == 0)
            return t;
    return -1;
}

void cf_cterm_split(cf_cterm t, long p, double *c0, double *c1)
{
    double dp = (double)p, lg = cf_ceil_lg(p);
    *c0 = 0.0;
    *c1 = 0.0;
    switch (t) {
    case CF_CT_ONE: *c0 = 1.0; break;
    case CF_CT_M: *c1 = 1.0; break;
    case CF_CT_LG: *c0 = lg; break;
    case CF_CT_LG_M: *c1 = lg; break;
    case CF_CT_P1: *c0 = dp - 1.0; break;
    case CF_CT_P1_M: *c1 = dp - 1.0; break;
    case CF_CT_FR_M: *c1 = p > 0 ? (dp - 1.0) / dp : 0.0; break;
    case CF_CT_BRUCK_M: *c1 = lg * dp / 2.0; break;
    case CF_CT_COUNT: break;
    }
}

double cf_cterm_eval(cf_cterm t, long p, double m)
{
    double c0, c1;
    cf_cterm_split(t, p, &c0, &c1);
    return c0 + c1 * m;
}

#define NONE {{0, CF_CT_ONE}}

#define ONE_MSG(pat, n, two)                                                                   \
    {                                                                                          \
        pat, "byte", n, two, 1,                                        \
        {                                                                                      \
            {"one message", "alpha + m*beta", {{1, CF_CT_ONE}}, {{1, CF_CT_M}}, NONE},    \
        }                                                                                      \
    }

/* Sorted by pattern. */
const cf_coll cf_colls[] = {
    {"allgather", "byte", 0, 0, 2,
     {{"recursive doubling", "ceil(lg p)*alpha + (p-1)*m*beta", {{1, CF_CT_LG}},
       {{1, CF_CT_P1_M}}, NONE},
      {"ring", "(p-1)*alpha + (p-1)*m*beta", {{1, CF_CT_P1}}, {{1, CF_CT_P1_M}}, NONE}}},
    {"allgatherv", "byte", 0, 0, 2,
     {{"recursive doubling", "ceil(lg p)*alpha + (p-1)*m*beta", {{1, CF_CT_LG}},
       {{1, CF_CT_P1_M}}, NONE},
      {"ring", "(p-1)*alpha + (p-1)*m*beta", {{1, CF_CT_P1}}, {{1, CF_CT_P1_M}}, NONE}}},
    {"allreduce", "float", 0, 0, 2,
     {{"recursive doubling", "ceil(lg p)*(alpha + m*beta + m*gamma)", {{1, CF_CT_LG}},
       {{1, CF_CT_LG_M}}, {{1, CF_CT_LG_M}}},
      {"Rabenseifner", "2*ceil(lg p)*alpha + 2*(p-1)/p*m*beta + (p-1)/p*m*gamma",
       {{2, CF_CT_LG}}, {{2, CF_CT_FR_M}}, {{1, CF_CT_FR_M}}}}},
    {"alltoall", "byte", 0, 0, 2,
     {{"Bruck", "ceil(lg p)*alpha + ceil(lg p)*p*m/2*beta", {{1, CF_CT_LG}},
       {{1, CF_CT_BRUCK_M}}, NONE},
      {"pairwise exchange", "(p-1)*(alpha + m*beta)", {{1, CF_CT_P1}}, {{1, CF_CT_P1_M}},
       NONE}}},
    {"alltoallv", "byte", 0, 0, 1,
     {{"pairwise exchange", "(p-1)*(alpha + m*beta)", {{1, CF_CT_P1}}, {{1, CF_CT_P1_M}},
       NONE}}},
    {"barrier", "byte", 0, 0, 1,
     {{"dissemination", "ceil(lg p)*alpha", {{1, CF_CT_LG}}, NONE, NONE}}},
    {"bcast", "byte", 0, 0, 2,
     {{"binomial tree", "ceil(lg p)*(alpha + m*beta)", {{1, CF_CT_LG}}, {{1, CF_CT_LG_M}},
       NONE},
      {"scatter + ring allgather", "(ceil(lg p) + p-1)*alpha + 2*(p-1)/p*m*beta",
       {{1, CF_CT_LG}, {1, CF_CT_P1}}, {{2, CF_CT_FR_M}}, NONE}}},
    ONE_MSG("exchange", 4, 0),
    {"gather", "byte", 0, 0, 1,
     {{"binomial tree", "ceil(lg p)*alpha + (p-1)*m*beta", {{1, CF_CT_LG}},
       {{1, CF_CT_P1_M}}, NONE}}},
    {"gatherv", "byte", 0, 0, 1,
     {{"linear", "(p-1)*(alpha + m*beta)", {{1, CF_CT_P1}}, {{1, CF_CT_P1_M}}, NONE}}},
    ONE_MSG("pingping", 1, 1),
    ONE_MSG("pingpong", 1, 1),
    {"reduce", "float", 0, 0, 2,
     {{"binomial tree", "ceil(lg p)*(alpha + m*beta + m*gamma)", {{1, CF_CT_LG}},
       {{1, CF_CT_LG_M}}, {{1, CF_CT_LG_M}}},
      {"Rabenseifner", "2*ceil(lg p)*alpha + 2*(p-1)/p*m*beta + (p-1)/p*m*gamma",
       {{2, CF_CT_LG}}, {{2, CF_CT_FR_M}}, {{1, CF_CT_FR_M}}}}},
    {"reduce_scatter", "float", 0, 0, 2,
     {{"recursive halving", "ceil(lg p)*alpha + (p-1)/p*m*(beta + gamma)", {{1, CF_CT_LG}},
       {{1, CF_CT_FR_M}}, {{1, CF_CT_FR_M}}},
      {"pairwise exchange", "(p-1)*alpha + (p-1)/p*m*(beta + gamma)", {{1, CF_CT_P1}},
       {{1, CF_CT_FR_M}}, {{1, CF_CT_FR_M}}}}},
    {"scatter", "byte", 0, 0, 1,
     {{"binomial tree", "ceil(lg p)*alpha + (p-1)*m*beta", {{1, CF_CT_LG}},
       {{1, CF_CT_P1_M}}, NONE}}},
    {"scatterv", "byte", 0, 0, 1,
     {{"linear", "(p-1)*(alpha + m*beta)", {{1, CF_CT_P1}}, {{1, CF_CT_P1_M}}, NONE}}},
    ONE_MSG("sendrecv", 2, 0),
};
const int cf_ncolls = (int)(sizeof cf_colls / sizeof cf_colls[0]);

const cf_coll *cf_coll_find(const char *pattern)
{
    for (int i = 0; i < cf_ncolls; i++)
        if (strcmp(cf_colls[i].pattern, pattern) == 0)
            return &cf_colls[i];
    return NULL;
}

static double parts(const cf_cost_part *c, long p, double m)
{
    double s = 0.0;
    for (int i = 0; i < CF_COST_MAX_PARTS && c[i].k != 0.0; i++)
        s += c[i].k * cf_cterm_eval(c[i].term, p, m);
    return s;
}

void cf_coll_alg_factors(const cf_coll_alg *a, long p, double m, double f[3])
{
    f[0] = parts(a->alpha, p, m);
    f[1] = parts(a->beta, p, m);
    f[2] = parts(a->gamma, p, m);
}

double cf_coll_cost(const cf_coll *c, long p, double m, double alpha, double beta, double gamma,
                    int *alg, double f[3])
{
    double best = 0.0;
    for (int i = 0; i < c->nalgs; i++) {
        double g[3];
        cf_coll_alg_factors(&c->algs[i], p, m, g);
        double t = g[0] * alpha + g[1] * beta + g[2] * gamma;
        if (i == 0 || t < best) {
            best = t;
            if (alg)
                *alg = i;
            if (f)
                memcpy(f, g, sizeof g);
        }
    }
    return best;
}
