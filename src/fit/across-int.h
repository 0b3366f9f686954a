/* Inside the across-np fit: what the fit of one size range (across-range.c), the switch search
 * (across-search.c) and the predictions (across-predict.c) share; no other module uses it. */
#ifndef CF_ACROSS_INT_H
#define CF_ACROSS_INT_H

#include "fit/across.h"
#include "fit/robust.h"

#define CF_REL_KMAX (CF_COLL_MAX_BASIS > 2 ? CF_COLL_MAX_BASIS : 2) /* terms of one fit */

/* The candidates of a fit: the pattern's algorithms, and with CF_ACROSS_P_LINEAR each of
 * them whose latency has no (p-1) term with one more, of its own coefficient. */
#define CF_ACROSS_MAX_CAND (2 * CF_COLL_MAX_ALGS)
/* The np where a candidate whose terms level off in p is checked for a negative time too
 * (cf_across_seg_check): as good as without bound. */
#define CF_ACROSS_FAR_NP (1L << 20)

/* What the fits of one pattern's ranges share: each point's basis values per candidate,
 * computed once, and the buffers and GSL workspaces every fit reuses. */
/* Whether p is a power of two; the largest power of two <= p (p >= 1): the rules and the
 * steps' costs both read them. */
static inline int cf_is_pow2(long p)
{
    return p > 0 && (p & (p - 1)) == 0;
}

static inline long cf_pof2_le(long p)
{
    long q = 1;
    while (q * 2 <= p)
        q *= 2;
    return q;
}

typedef struct cf_across_fitter {
    const cf_coll *c;
    const cf_point *pts;
    size_t n;
    int ncand;
    int nplain; /* the first nplain candidates: the pattern's own (no p-linear latency) */
    char name[CF_ACROSS_MAX_CAND][CF_ALG_NAME_MAX];
    int k[CF_ACROSS_MAX_CAND];
    cf_cterm_sum basis[CF_ACROSS_MAX_CAND][CF_COLL_MAX_BASIS];
    double *x[CF_ACROSS_MAX_CAND]; /* n rows of k[a] values */
    double *X, *t;
    cf_robust_workspace *ws[CF_REL_KMAX + 1]; /* by the number of terms, made when first needed */
    int keep_all;                             /* CF_ACROSS_KEEP_ALL: no point set aside */
} cf_across_fitter;

/* cands: 0, or CF_ACROSS_P_LINEAR; with CF_ACROSS_KEEP_ALL or not. */
int cf_across_fitter_init(cf_across_fitter *F, const cf_coll *c, const cf_point *pts, size_t n,
                          unsigned cands);
void cf_across_fitter_free(cf_across_fitter *F);

/* Fits candidate alg of F to the points with lo <= m <= hi; *rss is the relative
 * residual sum of squares. Not 0 when these points cannot determine the model (why says). */
int cf_across_seg_fit(cf_across_fitter *F, int alg, double lo, double hi, cf_across_seg *out,
                      double *rss, cf_error *why);
/* Whether s tells the truth where it would answer, over [lo, hi] at every np (0 if so). */
int cf_across_seg_check(const cf_across_seg *s, const cf_point *pts, size_t n, const long *np,
                        int nnp, double lo, double hi, cf_error *why);
/* The added (p-1) term of a p-linear candidate's basis of k functions, -1 when none: its
 * coefficient must be >= 0, contention that grows with p, or it would turn negative
 * beyond the measured process counts. */
int cf_across_p_linear_term(const cf_cterm_sum *basis, int k);
/* T of s at (p, m) and the half-width of its 95% prediction interval. */
void cf_across_seg_predict(const cf_across_seg *s, long p, double m, double *t, double *half);
/* The value of a sum of terms at (p, m). */
double cf_cterm_sum_eval(const cf_cterm_sum *s, long p, double m);

/* The AICc a search compares candidates by (k: terms and switch points). */
double cf_across_aicc(double rss, int n, int k);
/* The quality over every point from the segments' own. */
void cf_across_combine_quality(cf_across *a);
/* The distinct process counts of pts, increasing, at most CF_ACROSS_NP_MAX (beyond that,
 * the three largest and the others thinned evenly). Returns how many distinct there are,
 * -1 when out of memory. */
int cf_across_distinct_np(const cf_point *pts, size_t n, long *np, int *nnp);

#endif
