/* The pattern table: every MPI pattern commfit knows, once, with what it is (datatype,
 * ranks, what its size means, messages for bandwidth) and its algorithm costs in the
 * process count p and the size m (Thakur, Rabenseifner and Gropp 2005; Bruck;
 * dissemination): the basis of the across-np fit and the cost formulas that the
 * point-to-point estimate evaluates with ping-pong's alpha, beta. measure's kernels and
 * the importers refer to it. */
#ifndef CF_COLLECTIVE_H
#define CF_COLLECTIVE_H

#include <stddef.h>

/* The terms a cost is made of. L = ceil(lg p); m = bytes as IMB defines it per pattern. */
typedef enum cf_cterm {
    CF_CT_ONE,  /* 1 */
    CF_CT_M,    /* m */
    CF_CT_LG,   /* ceil(lg p) */
    CF_CT_LG_M, /* ceil(lg p)*m */
    CF_CT_P1,   /* (p-1) */
    CF_CT_P1_M, /* (p-1)*m */
    CF_CT_FR_M, /* (p-1)/p*m */
    CF_CT_BRUCK_M, /* ceil(lg p)*p*m/2: Bruck's alltoall moves half of p blocks each step */
    CF_CT_INV,     /* 1/p: a cost one rank of p bears, in the ranks' mean */
    CF_CT_FR,      /* (p-1)/p: a cost p - 1 ranks of p bear, in the ranks' mean */
    CF_CT_COUNT
} cf_cterm;

#define CF_COLL_MAX_BASIS 3 /* basis functions of one algorithm's cost */
#define CF_COLL_MAX_ALGS 2
#define CF_COST_MAX_PARTS 2

/* ceil(lg p) for p >= 1; 0 for p <= 1. */
int cf_ceil_lg(long p);

/* The term's name as the model file writes it ("ceil(lg p)*m"), and back: -1 unknown. */
const char *cf_cterm_name(cf_cterm t);
int cf_cterm_find(const char *name);
double cf_cterm_eval(cf_cterm t, long p, double m);
/* Its value at a fixed p as the factor of the constant or of m: T = c0 + c1*m. */
void cf_cterm_split(cf_cterm t, long p, double *c0, double *c1);

/* k * term, summed over up to CF_COST_MAX_PARTS parts (k == 0 ends the list). */
typedef struct cf_cost_part {
    double k;
    cf_cterm term;
} cf_cost_part;

/* One algorithm: T = alpha * A(p) + beta * B(p, m) + gamma * G(p, m). */
typedef struct cf_coll_alg {
    const char *name; /* "binomial tree" */
    const char *cost; /* the same, written out for people */
    cf_cost_part alpha[CF_COST_MAX_PARTS], beta[CF_COST_MAX_PARTS], gamma[CF_COST_MAX_PARTS];
} cf_coll_alg;

/* What a size (the table's bytes) means for a pattern, as IMB defines it. */
typedef enum cf_bytes_meaning {
    CF_BYTES_NONE,    /* nothing: barrier */
    CF_BYTES_MESSAGE, /* the message: the point-to-point patterns */
    CF_BYTES_BUFFER,  /* the buffer broadcast */
    CF_BYTES_BLOCK,   /* the block per process (pair): scatter, gather, allgather, alltoall,
                       * reduce_scatter (floats) */
    CF_BYTES_VECTOR,  /* the whole vector (MPI_FLOAT, count = bytes/4): the reductions */
} cf_bytes_meaning;

/* One pattern. */
typedef struct cf_coll {
    const char *pattern;
    const char *datatype; /* what the pattern is measured with: "byte" or "float" */
    int nmsg;             /* messages a call counts for bandwidth; 0: none (a collective) */
    int two_only;         /* runs on two processes whatever np (pingpong, pingping) */
    int sized;            /* 0 when the size means nothing (barrier): one row, 0 bytes */
    int rooted;           /* has a root process (bcast, scatter, gather, reduce) */
    int vcounts;          /* takes per-rank counts and displacements (the v-collectives) */
    cf_bytes_meaning bytes;
    /* The algorithms MPICH switches between: the point-to-point estimate takes the
     * cheapest; the across-np fit gives each size range one of them. 0: no known cost. */
    int nalgs;
    cf_coll_alg algs[CF_COLL_MAX_ALGS];
} cf_coll;

/* The patterns by name: first the cf_ncolls that have an algorithm cost, sorted, then the
 * LogGP experiments, which have none. The names let a table that lists them in another
 * order (measure's kernels) point at an entry as a constant: &cf_colls[CF_PAT_BCAST]. */
enum {
    CF_PAT_ALLGATHER, CF_PAT_ALLGATHERV, CF_PAT_ALLREDUCE, CF_PAT_ALLTOALL, CF_PAT_ALLTOALLV,
    CF_PAT_BARRIER, CF_PAT_BCAST, CF_PAT_EXCHANGE, CF_PAT_GATHER, CF_PAT_GATHERV,
    CF_PAT_PINGPING, CF_PAT_PINGPONG, CF_PAT_REDUCE, CF_PAT_REDUCE_SCATTER, CF_PAT_SCATTER,
    CF_PAT_SCATTERV, CF_PAT_SENDRECV,
    CF_PAT_LOGGP_OS, CF_PAT_LOGGP_OR, CF_PAT_LOGGP_GAP,
    CF_NPATTERNS
};

extern const cf_coll cf_colls[CF_NPATTERNS];
extern const int cf_ncolls; /* the patterns with an algorithm cost */

/* Any pattern of the table by name, with a cost or not; NULL when unknown. */
const cf_coll *cf_pattern_facts(const char *pattern);

/* Whether a rooted pattern's data flows to its root (reduce, gather, gatherv): its other
 * ranks are done once their part is sent; 0 for any other pattern. */
int cf_coll_to_root(const cf_coll *c);

/* NULL for a pattern without a known algorithm cost. */
const cf_coll *cf_coll_find(const char *pattern);

/* The factors of alpha, beta and gamma in algorithm a at (p, m). */
void cf_coll_alg_factors(const cf_coll_alg *a, long p, double m, double f[3]);

/* The cheapest algorithm's time at (p, m) given alpha (us), beta and gamma (us per byte);
 * *alg gets its index and f its factors of alpha, beta, gamma (for error propagation). */
double cf_coll_cost(const cf_coll *c, long p, double m, double alpha, double beta, double gamma,
                    int *alg, double f[3]);

#endif
