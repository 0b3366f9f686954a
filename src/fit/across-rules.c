/* Which algorithm an MPI library runs for a collective at (p, m), and what that algorithm's
 * steps cost in units of the collective's own two-process time T2(s): the switch rules the
 * grid model of across-grid.c follows. One rule set per library; Open MPI's tuned decision
 * rules are another set of the same shape, added to rule_sets below. */
#include "config.h"

#include "fit/across-int.h"

#include <math.h>
#include <string.h>

static int is_pow2(long p)
{
    return p > 0 && (p & (p - 1)) == 0;
}

/* The largest power of two <= p. */
static long pof2_le(long p)
{
    long q = 1;
    while (q * 2 <= p)
        q *= 2;
    return q;
}

/* MPICH's default thresholds (MPIR_CVAR_*, MPICH 3.x and 4.x; Thakur, Rabenseifner and
 * Gropp 2005), m in bytes as the table defines it per pattern. */
#define MPICH_BCAST_SHORT 12288
#define MPICH_BCAST_LONG 524288
#define MPICH_BCAST_MIN_PROCS 8
#define MPICH_ALLGATHER_SHORT_TOTAL 81920
#define MPICH_ALLGATHER_LONG_TOTAL 524288
#define MPICH_ALLTOALL_SHORT 256
#define MPICH_ALLTOALL_MEDIUM 32768
#define MPICH_ALLTOALL_MIN_PROCS 8
#define MPICH_REDUCE_SHORT 2048 /* allreduce and reduce alike */

/* allgather and alltoall: the same in MPICH and in SimGrid's mpich selector. */
static int pick_allgather(long p, double m, cf_rule_alg *a)
{
    double total = m * (double)p;
    if (is_pow2(p) && total < MPICH_ALLGATHER_LONG_TOTAL)
        *a = (cf_rule_alg){"recursive doubling", CF_STEPS_DOUBLING};
    else if (total <= MPICH_ALLGATHER_SHORT_TOTAL)
        *a = (cf_rule_alg){"Bruck", CF_STEPS_BRUCK_GATHER};
    else
        *a = (cf_rule_alg){"ring", CF_STEPS_RING};
    return 0;
}

static int pick_alltoall(long p, double m, cf_rule_alg *a)
{
    if (m < MPICH_ALLTOALL_SHORT && p >= MPICH_ALLTOALL_MIN_PROCS)
        *a = (cf_rule_alg){"Bruck", CF_STEPS_BRUCK_ALLTOALL};
    else if (m < MPICH_ALLTOALL_MEDIUM)
        *a = (cf_rule_alg){"isend/irecv", CF_STEPS_RING};
    else
        *a = (cf_rule_alg){"pairwise exchange", CF_STEPS_RING};
    return 0;
}

/* MPICH itself. count < pof2 (fewer floats than the power of two below p) keeps the
 * short-message algorithm of the reductions. */
static int pick_mpich(const char *pattern, long p, double m, cf_rule_alg *a)
{
    if (strcmp(pattern, "allgather") == 0)
        return pick_allgather(p, m, a);
    if (strcmp(pattern, "alltoall") == 0)
        return pick_alltoall(p, m, a);
    if (strcmp(pattern, "bcast") == 0) {
        if (m < MPICH_BCAST_SHORT || p < MPICH_BCAST_MIN_PROCS)
            *a = (cf_rule_alg){"binomial tree", CF_STEPS_LG};
        else if (m < MPICH_BCAST_LONG && is_pow2(p))
            *a = (cf_rule_alg){"scatter + recursive doubling allgather", CF_STEPS_SCATTER_DOUBLING};
        else
            *a = (cf_rule_alg){"scatter + ring allgather", CF_STEPS_SCATTER_RING};
        return 0;
    }
    int reduce = strcmp(pattern, "reduce") == 0, allreduce = strcmp(pattern, "allreduce") == 0;
    if (reduce || allreduce) {
        if (m <= MPICH_REDUCE_SHORT || m / 4.0 < (double)pof2_le(p))
            *a = reduce ? (cf_rule_alg){"binomial tree", CF_STEPS_LG}
                        : (cf_rule_alg){"recursive doubling", CF_STEPS_FOLD};
        else
            *a = (cf_rule_alg){"Rabenseifner", CF_STEPS_HALVING2};
        return 0;
    }
    return -1;
}

/* SimGrid SMPI's "mpich" selector: allgather and alltoall as MPICH; bcast, reduce and
 * allreduce (commutative operations) go to its two-level SMP algorithms, which on nodes of
 * equal rank counts are binomial trees across the nodes at every size. */
static int pick_smpi_mpich(const char *pattern, long p, double m, cf_rule_alg *a)
{
    if (strcmp(pattern, "bcast") == 0 || strcmp(pattern, "reduce") == 0) {
        *a = (cf_rule_alg){"two-level binomial tree", CF_STEPS_LG};
        return 0;
    }
    if (strcmp(pattern, "allreduce") == 0) {
        *a = (cf_rule_alg){"two-level recursive doubling", CF_STEPS_FOLD};
        return 0;
    }
    return pick_mpich(pattern, p, m, a);
}

typedef struct rule_set {
    const char *name;
    int (*pick)(const char *pattern, long p, double m, cf_rule_alg *a);
} rule_set;

static const rule_set rule_sets[] = {
    {"mpich", pick_mpich},
    {"smpi-mpich", pick_smpi_mpich},
};

const char *cf_rules_for(const char *mpi_library, const char *coll_selector)
{
    int smpi = mpi_library != NULL && strstr(mpi_library, "SMPI") != NULL;
    if (smpi)
        return coll_selector != NULL && strcmp(coll_selector, "mpich") == 0 ? "smpi-mpich" : NULL;
    if (mpi_library != NULL &&
        (strstr(mpi_library, "MPICH") != NULL || strstr(mpi_library, "mpich") != NULL))
        return "mpich";
    return NULL;
}

int cf_rules_pick(const char *rules, const char *pattern, long p, double m, cf_rule_alg *a)
{
    for (size_t i = 0; i < sizeof rule_sets / sizeof rule_sets[0]; i++)
        if (rules != NULL && strcmp(rule_sets[i].name, rules) == 0)
            return rule_sets[i].pick(pattern, p, m, a);
    return -1;
}

int cf_rules_known(const char *rules, const char *pattern)
{
    cf_rule_alg a;
    return cf_rules_pick(rules, pattern, 2, 1.0, &a) == 0;
}

/* T2 at s: log-log between the measured sizes; below the smallest its time (the latency
 * floor), above the largest along the last slope, kept between flat and linear. */
double cf_unit_time(const double *um, const double *ut, int n, double s)
{
    if (n <= 0)
        return NAN;
    if (n == 1 || s <= um[0])
        return ut[0];
    int i = 1;
    while (i < n - 1 && um[i] < s)
        i++;
    double x0 = log(fmax(um[i - 1], 1.0)), x1 = log(fmax(um[i], 1.0));
    double y0 = log(ut[i - 1]), y1 = log(ut[i]);
    double k = x1 > x0 ? (y1 - y0) / (x1 - x0) : 0.0;
    if (s > um[n - 1])
        k = fmin(1.0, fmax(0.0, k));
    return exp(y0 + k * (log(fmax(s, 1.0)) - x0));
}

double cf_steps_cost(cf_steps st, long p, double m, const double *um, const double *ut, int n)
{
    int lg = cf_ceil_lg(p);
    double s = 0.0;
#define T2(x) cf_unit_time(um, ut, n, (x))
    switch (st) {
    case CF_STEPS_LG:
        s = lg * T2(m);
        break;
    case CF_STEPS_FOLD:
        s = (is_pow2(p) ? lg : lg + 1) * T2(m);
        break;
    case CF_STEPS_DOUBLING: /* step j exchanges 2^j blocks */
        for (int j = 0; j < lg; j++)
            s += T2(ldexp(m, j));
        break;
    case CF_STEPS_BRUCK_GATHER: /* step j sends min(2^j, p - 2^j) blocks */
        for (int j = 0; j < lg; j++) {
            double b = fmin(ldexp(1.0, j), (double)p - ldexp(1.0, j));
            s += T2(b * m);
        }
        break;
    case CF_STEPS_RING:
        s = (double)(p - 1) * T2(m);
        break;
    case CF_STEPS_BRUCK_ALLTOALL: /* lg p steps of p/2 blocks */
        s = lg * T2(m * (double)p / 2.0);
        break;
    case CF_STEPS_SCATTER_DOUBLING:
    case CF_STEPS_SCATTER_RING:
        for (int j = 0; j < lg; j++) /* the binomial scatter halves what it forwards */
            s += T2(ldexp(m, -(j + 1)));
        if (st == CF_STEPS_SCATTER_RING)
            s += (double)(p - 1) * T2(m / (double)p);
        else
            for (int j = 0; j < lg; j++)
                s += T2(ldexp(m / (double)p, j));
        break;
    case CF_STEPS_HALVING2: /* reduce-scatter by halving, then gather or allgather back */
        for (int j = 0; j < lg; j++)
            s += 2.0 * T2(ldexp(m, -(j + 1)));
        break;
    }
#undef T2
    return s;
}
