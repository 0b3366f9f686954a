/* The pattern table: what each pattern commfit measures is, and its algorithm costs as
 * terms in (p, m), read by measure's kernels, the across-np fit (its basis) and the
 * point-to-point estimate (its costs).
 * Sources: Thakur, Rabenseifner and Gropp 2005 (MPICH); Bruck et al. 1997 (alltoall);
 * Hensgen, Finkel and Manber 1988 (dissemination barrier). commfit-formats(5) lists them. */
#include "config.h"

#include "base/collective.h"

#include <string.h>

/* The tables and the switch below are laid out by hand, one entry a line or block:
 * clang-format would spread them over twice the lines. */
/* clang-format off */
static const char *const term_names[CF_CT_COUNT] = {
    [CF_CT_ONE] = "1",
    [CF_CT_M] = "m",
    [CF_CT_LG] = "ceil(lg p)",
    [CF_CT_LG_M] = "ceil(lg p)*m",
    [CF_CT_P1] = "(p-1)",
    [CF_CT_P1_M] = "(p-1)*m",
    [CF_CT_FR_M] = "(p-1)/p*m",
    [CF_CT_BRUCK_M] = "ceil(lg p)*p*m/2",
    [CF_CT_INV] = "1/p",
    [CF_CT_FR] = "(p-1)/p",
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
    case CF_CT_INV: *c0 = p > 0 ? 1.0 / dp : 0.0; break;
    case CF_CT_FR: *c0 = p > 0 ? (dp - 1.0) / dp : 0.0; break;
    case CF_CT_COUNT: break;
    }
}
/* clang-format on */

double cf_cterm_eval(cf_cterm t, long p, double m)
{
    double c0, c1;
    cf_cterm_split(t, p, &c0, &c1);
    return c0 + c1 * m;
}

/* clang-format off */
#define NONE {{0, CF_CT_ONE}}

/* The facts before the algorithms: datatype, messages for bandwidth, two processes only,
 * sized, rooted, v-counts, what bytes means. */
#define P2P(nmsg, two) "byte", nmsg, two, 1, 0, 0, CF_BYTES_MESSAGE
#define MOVE(meaning) "byte", 0, 0, 1, 0, 0, meaning
#define MOVE_V(meaning) "byte", 0, 0, 1, 0, 1, meaning
#define ROOTED(meaning) "byte", 0, 0, 1, 1, 0, meaning
#define ROOTED_V(meaning) "byte", 0, 0, 1, 1, 1, meaning
#define REDUCTION(rooted, v) "float", 0, 0, 1, rooted, v, CF_BYTES_VECTOR
#define REDUCTION_BLOCKS "float", 0, 0, 1, 0, 1, CF_BYTES_BLOCK

#define ONE_MSG                                                                                \
    1, {{"one message", "alpha + m*beta", {{1, CF_CT_ONE}}, {{1, CF_CT_M}}, NONE}}

#define NO_COST 0, {{NULL, NULL, NONE, NONE, NONE}}

const cf_coll cf_colls[CF_NPATTERNS] = {
    [CF_PAT_ALLGATHER] = {"allgather", MOVE(CF_BYTES_BLOCK), 2,
     {{"recursive doubling", "ceil(lg p)*alpha + (p-1)*m*beta", {{1, CF_CT_LG}},
       {{1, CF_CT_P1_M}}, NONE},
      {"ring", "(p-1)*alpha + (p-1)*m*beta", {{1, CF_CT_P1}}, {{1, CF_CT_P1_M}}, NONE}}},
    [CF_PAT_ALLGATHERV] = {"allgatherv", MOVE_V(CF_BYTES_BLOCK), 2,
     {{"recursive doubling", "ceil(lg p)*alpha + (p-1)*m*beta", {{1, CF_CT_LG}},
       {{1, CF_CT_P1_M}}, NONE},
      {"ring", "(p-1)*alpha + (p-1)*m*beta", {{1, CF_CT_P1}}, {{1, CF_CT_P1_M}}, NONE}}},
    [CF_PAT_ALLREDUCE] = {"allreduce", REDUCTION(0, 0), 2,
     {{"recursive doubling", "ceil(lg p)*(alpha + m*beta + m*gamma)", {{1, CF_CT_LG}},
       {{1, CF_CT_LG_M}}, {{1, CF_CT_LG_M}}},
      {"Rabenseifner", "2*ceil(lg p)*alpha + 2*(p-1)/p*m*beta + (p-1)/p*m*gamma",
       {{2, CF_CT_LG}}, {{2, CF_CT_FR_M}}, {{1, CF_CT_FR_M}}}}},
    [CF_PAT_ALLTOALL] = {"alltoall", MOVE(CF_BYTES_BLOCK), 2,
     {{"Bruck", "ceil(lg p)*alpha + ceil(lg p)*p*m/2*beta", {{1, CF_CT_LG}},
       {{1, CF_CT_BRUCK_M}}, NONE},
      {"pairwise exchange", "(p-1)*(alpha + m*beta)", {{1, CF_CT_P1}}, {{1, CF_CT_P1_M}},
       NONE}}},
    [CF_PAT_ALLTOALLV] = {"alltoallv", MOVE_V(CF_BYTES_BLOCK), 1,
     {{"pairwise exchange", "(p-1)*(alpha + m*beta)", {{1, CF_CT_P1}}, {{1, CF_CT_P1_M}},
       NONE}}},
    [CF_PAT_BARRIER] = {"barrier", "byte", 0, 0, 0, 0, 0, CF_BYTES_NONE, 1,
     {{"dissemination", "ceil(lg p)*alpha", {{1, CF_CT_LG}}, NONE, NONE}}},
    [CF_PAT_BCAST] = {"bcast", ROOTED(CF_BYTES_BUFFER), 2,
     {{"binomial tree", "ceil(lg p)*(alpha + m*beta)", {{1, CF_CT_LG}}, {{1, CF_CT_LG_M}},
       NONE},
      {"scatter + ring allgather", "(ceil(lg p) + p-1)*alpha + 2*(p-1)/p*m*beta",
       {{1, CF_CT_LG}, {1, CF_CT_P1}}, {{2, CF_CT_FR_M}}, NONE}}},
    [CF_PAT_EXCHANGE] = {"exchange", P2P(4, 0), ONE_MSG},
    [CF_PAT_GATHER] = {"gather", ROOTED(CF_BYTES_BLOCK), 1,
     {{"binomial tree", "ceil(lg p)*alpha + (p-1)*m*beta", {{1, CF_CT_LG}},
       {{1, CF_CT_P1_M}}, NONE}}},
    [CF_PAT_GATHERV] = {"gatherv", ROOTED_V(CF_BYTES_BLOCK), 1,
     {{"linear", "(p-1)*(alpha + m*beta)", {{1, CF_CT_P1}}, {{1, CF_CT_P1_M}}, NONE}}},
    [CF_PAT_PINGPING] = {"pingping", P2P(1, 1), ONE_MSG},
    [CF_PAT_PINGPONG] = {"pingpong", P2P(1, 1), ONE_MSG},
    [CF_PAT_REDUCE] = {"reduce", REDUCTION(1, 0), 2,
     {{"binomial tree", "ceil(lg p)*(alpha + m*beta + m*gamma)", {{1, CF_CT_LG}},
       {{1, CF_CT_LG_M}}, {{1, CF_CT_LG_M}}},
      {"Rabenseifner", "2*ceil(lg p)*alpha + 2*(p-1)/p*m*beta + (p-1)/p*m*gamma",
       {{2, CF_CT_LG}}, {{2, CF_CT_FR_M}}, {{1, CF_CT_FR_M}}}}},
    /* m is each rank's block, as IMB 2019 and later count it: the vector is p*m. */
    [CF_PAT_REDUCE_SCATTER] = {"reduce_scatter", REDUCTION_BLOCKS, 2,
     {{"recursive halving", "ceil(lg p)*alpha + (p-1)*m*(beta + gamma)", {{1, CF_CT_LG}},
       {{1, CF_CT_P1_M}}, {{1, CF_CT_P1_M}}},
      {"pairwise exchange", "(p-1)*alpha + (p-1)*m*(beta + gamma)", {{1, CF_CT_P1}},
       {{1, CF_CT_P1_M}}, {{1, CF_CT_P1_M}}}}},
    [CF_PAT_SCATTER] = {"scatter", ROOTED(CF_BYTES_BLOCK), 1,
     {{"binomial tree", "ceil(lg p)*alpha + (p-1)*m*beta", {{1, CF_CT_LG}},
       {{1, CF_CT_P1_M}}, NONE}}},
    [CF_PAT_SCATTERV] = {"scatterv", ROOTED_V(CF_BYTES_BLOCK), 1,
     {{"linear", "(p-1)*(alpha + m*beta)", {{1, CF_CT_P1}}, {{1, CF_CT_P1_M}}, NONE}}},
    [CF_PAT_SENDRECV] = {"sendrecv", P2P(2, 0), ONE_MSG},
    /* The LogGP experiments: one-way messages between two processes, timed for the
     * overheads and the gap rather than a transfer's time. */
    [CF_PAT_LOGGP_OS] = {"loggp_os", P2P(0, 1), NO_COST},
    [CF_PAT_LOGGP_OR] = {"loggp_or", P2P(0, 1), NO_COST},
    [CF_PAT_LOGGP_GAP] = {"loggp_gap", P2P(0, 1), NO_COST},
};
/* clang-format on */
const int cf_ncolls = CF_PAT_LOGGP_OS;

int cf_coll_to_root(const cf_coll *c)
{
    return c == &cf_colls[CF_PAT_REDUCE] || c == &cf_colls[CF_PAT_GATHER] ||
           c == &cf_colls[CF_PAT_GATHERV];
}

/* By name: the first letter tested first (a batch of answers asks for every one). */
const cf_coll *cf_pattern_facts(const char *pattern)
{
    for (int i = 0; i < CF_NPATTERNS; i++)
        if (cf_colls[i].pattern[0] == pattern[0] && strcmp(cf_colls[i].pattern, pattern) == 0)
            return &cf_colls[i];
    return NULL;
}

const cf_coll *cf_coll_find(const char *pattern)
{
    const cf_coll *c = cf_pattern_facts(pattern);
    return c != NULL && c->nalgs > 0 ? c : NULL;
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
