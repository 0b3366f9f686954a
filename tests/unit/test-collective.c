/* The algorithm-cost table: term values, names, and the cheapest algorithm at known
 * points worked out by hand from Thakur, Rabenseifner and Gropp (2005). */
#include "config.h"

#include <string.h>

#include "base/collective.h"
#include "tap.h"

static void terms(void)
{
    static const long p[] = {1, 2, 3, 4, 5, 8, 16, 17, 1024};
    static const int lg[] = {0, 1, 2, 2, 3, 3, 4, 5, 10};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        is_int(cf_ceil_lg(p[i]), lg[i], "ceil(lg %ld)", p[i]);
    for (int t = 0; t < CF_CT_COUNT; t++)
        is_int(cf_cterm_find(cf_cterm_name((cf_cterm)t)), t, "term '%s' found by its name",
               cf_cterm_name((cf_cterm)t));
    is_int(cf_cterm_find("lg p"), -1, "an unknown term name is refused");
    near(cf_cterm_eval(CF_CT_FR_M, 4, 8.0), 6.0, 1e-15, "(p-1)/p*m at p=4, m=8");
    near(cf_cterm_eval(CF_CT_BRUCK_M, 8, 2.0), 24.0, 1e-15, "ceil(lg p)*p*m/2 at p=8, m=2");
    near(cf_cterm_eval(CF_CT_LG_M, 5, 10.0), 30.0, 1e-15, "ceil(lg p)*m at p=5, m=10");
    near(cf_cterm_eval(CF_CT_P1, 5, 10.0), 4.0, 1e-15, "(p-1) at p=5");
    near(cf_cterm_eval(CF_CT_INV, 4, 10.0), 0.25, 1e-15, "1/p at p=4, whatever m");
    near(cf_cterm_eval(CF_CT_FR, 4, 10.0), 0.75, 1e-15, "(p-1)/p at p=4, whatever m");
    double c0, c1;
    cf_cterm_split(CF_CT_P1_M, 9, &c0, &c1);
    ok(c0 == 0.0 && c1 == 8.0, "(p-1)*m at p=9 is 8*m");
}

static void table(void)
{
    static const char *const patterns[] = {
        "allgather", "allgatherv", "allreduce", "alltoall",  "alltoallv", "barrier",
        "bcast",     "exchange",   "gather",    "gatherv",   "pingping",  "pingpong",
        "reduce",    "reduce_scatter", "scatter", "scatterv", "sendrecv"};
    is_int(cf_ncolls, 17, "17 patterns have a cost");
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        const cf_coll *c = cf_coll_find(patterns[i]);
        ok(c != NULL && c->nalgs >= 1 && c->nalgs <= CF_COLL_MAX_ALGS, "%s has one or two algorithms",
           patterns[i]);
    }
    ok(cf_coll_find("bogus") == NULL, "an unknown pattern has none");
    is_str(cf_coll_find("allreduce")->datatype, "float", "reductions are measured with float");
    is_int(cf_coll_find("sendrecv")->nmsg, 2, "sendrecv counts two messages for bandwidth");
    is_int(cf_coll_find("bcast")->nmsg, 0, "a collective has no bandwidth");
}

static void costs(void)
{
    int alg;
    double f[3];
    const cf_coll *bc = cf_coll_find("bcast");
    /* p=8, alpha=2, beta=0.01: binomial 3*2 + 3*m*0.01; scatter+allgather (3+7)*2 +
     * 2*7/8*m*0.01. At m=1000: 36 against 37.5; at m=1e6: 30006 against 17520. */
    near(cf_coll_cost(bc, 8, 1000, 2, 0.01, 0, &alg, f), 36.0, 1e-12, "bcast short: binomial");
    is_int(alg, 0, "bcast short picks the binomial tree");
    near(cf_coll_cost(bc, 8, 1e6, 2, 0.01, 0, &alg, f), 17520.0, 1e-12, "bcast long");
    is_int(alg, 1, "bcast long picks scatter + allgather");
    ok(f[0] == 10.0 && f[1] == 1.75e6 && f[2] == 0.0, "its factors of alpha, beta, gamma");
    const cf_coll *ar = cf_coll_find("allreduce");
    /* Rabenseifner at p=16, m=4e6: 8 alpha + 7.5e6 beta + 3.75e6 gamma. */
    near(cf_coll_cost(ar, 16, 4e6, 1, 1e-4, 1e-4, &alg, f), 8 + 750 + 375, 1e-12,
         "allreduce long: Rabenseifner");
    is_str(ar->algs[alg].name, "Rabenseifner", "by name");
    near(cf_coll_cost(ar, 16, 8, 1, 1e-4, 1e-4, &alg, f), 4 + 4 * 8 * 2e-4, 1e-12,
         "allreduce short: recursive doubling");
    const cf_coll *aa = cf_coll_find("alltoall");
    near(cf_coll_cost(aa, 16, 0, 1, 1e-3, 0, &alg, f), 4.0, 1e-12, "alltoall of 0 bytes: Bruck");
    near(cf_coll_cost(aa, 16, 1 << 20, 1, 1e-3, 0, &alg, f), 15 * (1 + 1048.576), 1e-12,
         "alltoall of 1 MiB: pairwise");
    near(cf_coll_cost(cf_coll_find("barrier"), 17, 0, 3, 1, 1, &alg, f), 15.0, 1e-12,
         "barrier: dissemination, ceil(lg 17) = 5 rounds");
    near(cf_coll_cost(cf_coll_find("exchange"), 4, 100, 1, 0.5, 0, &alg, f), 51.0, 1e-12,
         "exchange: one message's alpha + m*beta");
}

/* The facts measure's kernels and the importers read from the same table. */
static void facts(void)
{
    for (int i = 1; i < cf_ncolls; i++)
        ok(strcmp(cf_colls[i - 1].pattern, cf_colls[i].pattern) < 0,
           "the patterns with a cost are sorted: %s before %s", cf_colls[i - 1].pattern,
           cf_colls[i].pattern);
    ok(strcmp(cf_colls[CF_PAT_PINGPONG].pattern, "pingpong") == 0 &&
           strcmp(cf_colls[CF_PAT_BARRIER].pattern, "barrier") == 0 &&
           strcmp(cf_colls[CF_PAT_LOGGP_GAP].pattern, "loggp_gap") == 0,
       "the names of the entries are their patterns");
    ok(cf_pattern_facts("loggp_os") != NULL && cf_coll_find("loggp_os") == NULL,
       "the LogGP experiments are patterns without a cost");
    const cf_coll *bar = cf_pattern_facts("barrier"), *pp = cf_pattern_facts("pingpong");
    ok(!bar->sized && bar->bytes == CF_BYTES_NONE, "barrier has no size");
    ok(pp->two_only && pp->nmsg == 1 && pp->bytes == CF_BYTES_MESSAGE,
       "pingpong: two ranks, one message of the size");
    ok(cf_pattern_facts("bcast")->rooted && !cf_pattern_facts("allreduce")->rooted,
       "bcast has a root, allreduce none");
    ok(cf_pattern_facts("reduce_scatter")->vcounts &&
           cf_pattern_facts("reduce_scatter")->bytes == CF_BYTES_BLOCK &&
           cf_pattern_facts("allreduce")->bytes == CF_BYTES_VECTOR,
       "reduce_scatter: a block per rank, as IMB 2019+ counts it; allreduce: the vector");
}

int main(void)
{
    terms();
    table();
    facts();
    costs();
    return tap_done();
}
