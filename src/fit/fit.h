/* A fitted cost model in memory (cf_fit: its segments, coefficients, quality and
 * saturation) and its evaluation: what the fit makes, the model file stores, and predict
 * and report read. */
#ifndef CF_FIT_H
#define CF_FIT_H

#include <stddef.h>
#include <stdint.h>

#include "base/table.h"

#define CF_MODEL_NAME_MAX 16
#define CF_COEF_MAX 8 /* loggp has the most: L, o_s, o_r, g, G and two slopes */
#define CF_COEF_NAME_MAX 24
#define CF_SEG_MAX 4 /* piecewise: up to 3 breakpoints */
#define CF_FORMULA_MAX 512

struct cf_model_kind; /* fit/model.h: what a model kind is; only the models know more */

/* One segment of a fit: the coefficients that apply over [from_bytes, to_bytes] of the
 * measured sizes, and their covariance, already scaled by the residual variance. A fit
 * that is not piecewise has one segment spanning every measured size. Between two
 * segments, (to_bytes of k, from_bytes of k+1) is the interval holding the breakpoint. */
typedef struct cf_segment {
    uint64_t from_bytes, to_bytes;
    int n; /* points in this segment */
    double coef[CF_COEF_MAX];
    double cov[CF_COEF_MAX][CF_COEF_MAX];
} cf_segment;

typedef struct cf_quality {
    int n;           /* points used (rejected ones excluded) */
    int dof;         /* n minus the parameters (breakpoints count as parameters) */
    double loo_mape; /* leave-one-out mean absolute relative error (0.03 = 3%) */
    double max_rel_err;
    double r2;   /* weighted R^2 of the fitted statistic */
    double aicc; /* from the weighted (relative) residual sum of squares */
} cf_quality;

/* Bandwidth saturation, for point-to-point patterns that carry bandwidth. r_inf from the
 * tangent of the model at the largest measured size: for linear and piecewise that is the
 * (last) Hockney line, alpha_eff + beta_eff*m. n_1/2 and the 90% size from that line when
 * its intercept is positive, else from the last segment whose intercept is (a protocol
 * segment, where a half-performance length means something). NAN where a value does not
 * exist (rinf_hi_MiBps is INFINITY when beta's interval reaches 0). */
typedef struct cf_saturation {
    int valid;                           /* 0: not a bandwidth pattern, or beta_eff <= 0 */
    int nmsg;                            /* messages per call counted in bandwidth (sendrecv 2) */
    double rinf_MiBps;                   /* nmsg / beta_eff, in MiB/s (1 MiB = 1048576 bytes) */
    double rinf_lo_MiBps, rinf_hi_MiBps; /* 95% interval from beta_eff's standard error */
    double n_half_bytes;    /* alpha / beta of the line below (NAN when there is none) */
    double m90_bytes;       /* 9 * alpha / beta: reaches 90% of that line's bandwidth */
    int half_segment;       /* the segment of that line; -1 when there is none */
    double half_rinf_MiBps; /* that line's asymptotic bandwidth, nmsg / beta (r_inf when
                               it is the tangent) */
    double peak_MiBps;      /* measured, with the fitted statistic */
    uint64_t peak_bytes;
    double last_MiBps;         /* measured at the largest size */
    double plateau_MiBps;      /* the median of the measured bandwidths at the three largest
                                  sizes */
    double flat_from_bytes;    /* smallest size from which every measured bandwidth stays
                                  within 5% of the plateau; NAN when only the largest size
                                  (or none) does: not flat within the measured sizes */
    double falls_beyond_bytes; /* peak_bytes when the bandwidth at the largest size is more
                                  than 5% below a peak measured before it; else NAN */
} cf_saturation;

/* A measured point the robust fit set aside, or one set aside before the fit. */
typedef struct cf_rejected {
    uint64_t bytes;
    int blocks;
    double t_us;    /* the measured statistic */
    double rel_err; /* (t_us - fitted) / fitted */
} cf_rejected;

#define CF_REASON_MAX 320

/* Derived datatypes: the gain of the datatype path over MPI_Pack at one measured point,
 * 100 * (t_pack - t) / t_pack. */
typedef struct cf_gain {
    uint64_t bytes;
    int blocks;
    double t_us, t_pack_us, gain_pct;
} cf_gain;

/* A measured size of a fit and its time (the fitted statistic; repeats merged), at its
 * block count (the fit's, 0 without a block term). */
typedef struct cf_measured {
    uint64_t bytes;
    double t_us;
    int blocks;
} cf_measured;

/* The backtest of a fit in message size (cf_fit_size_backtest): its kind refitted on the
 * sizes up to half of the largest and read at the sizes above, and at up to
 * CF_SIZE_BACKTEST_CUTS - 1 octaves below the same (refitted up to a quarter, read up to
 * the half, ...). n == 0: none was made (too few sizes, or a model file from before it). */
#define CF_SIZE_BACKTEST_CUTS 3
typedef struct cf_size_backtest {
    int n;                    /* held-out rows read, by every refit */
    int refits;               /* how many refits: 1 to CF_SIZE_BACKTEST_CUTS (1 in files
                                 written before there were more) */
    uint64_t fitted_to_bytes; /* the largest size the first refit (up to half) saw */
    double err_per_doubling;  /* how far the refits miss the rows they read, |ln(read /
                                 measured)| per doubling of m beyond the refit's largest
                                 size (one at least): the 90th percentile over them */
    double model_weight;      /* beyond the measured sizes, the model's weight against the
                                 measured trend carried on (cf_fit_trend), as each read
                                 those rows: (T + s) / (M + T + 2s), M and T their summed
                                 squared misses, s ln(1 + loo)^2 a row; 0 to 1 (1: the
                                 model alone; where the trend reads none, a fit with a
                                 block term, files written before it) */
    double anchor_weight;     /* beyond the measured sizes, the weight of the measured /
                                 model ratio at the largest size the model's reading is
                                 carried on with (anchor) from a doubling beyond it, as the
                                 refits' ratios at their tops read the rows above: (U + s) /
                                 (A + U + 2s), A and U the summed squared misses with the
                                 ratio and without; 0 to 1 (1 where no refit had one, or no
                                 backtest was made); -1 in a file written before it (no
                                 ratio carried) */
} cf_size_backtest;

/* The backtest of a fit with a block term in block count (cf_fit_blocks_backtest), at one
 * end of its measured counts: refitted without the count at that end and read at its rows,
 * and the same up to CF_BLOCKS_BACKTEST_CUTS - 1 counts further in (without the two
 * largest, read at the second largest, ...). n == 0: none was made (fewer than 3 counts, a
 * refit that failed; below, a fit whose counts start at 1, below which no count lies; a
 * model file from before it). */
#define CF_BLOCKS_BACKTEST_CUTS 3
typedef struct cf_blocks_end {
    int n;                   /* held-out rows read, by every refit */
    int refits;              /* how many refits: 1 to CF_BLOCKS_BACKTEST_CUTS */
    int fitted_blocks;       /* the first refit's largest count (above) or smallest (below) */
    double err_per_doubling; /* |ln(read / measured)| per doubling of b beyond the refit's
                                counts (one at least): the 90th percentile over the rows */
} cf_blocks_end;
typedef struct cf_blocks_backtest {
    cf_blocks_end above, below;
} cf_blocks_backtest;

typedef struct cf_fit {
    char pattern[CF_PATTERN_MAX];
    int np;
    char datatype[CF_DATATYPE_MAX];
    int blocks; /* block count cf_fit_predict assumes: 0, or for a datatype fit the
                   smallest measured block count */
    char model[CF_MODEL_NAME_MAX]; /* linear, poly2, piecewise, loggp, datatype */
    const struct cf_model_kind *kind;
    int ncoef;
    char coef_names[CF_COEF_MAX][CF_COEF_NAME_MAX]; /* with units: "alpha_us" */
    int nseg;
    cf_segment seg[CF_SEG_MAX];
    double s2; /* residual relative variance: mean squared relative residual per dof */
    int dof;   /* degrees of freedom of s2 (Student t of the prediction interval) */
    cf_quality q;
    cf_saturation sat;
    uint64_t min_bytes, max_bytes; /* measured range */
    int min_blocks, max_blocks;
    size_t nrejected;
    cf_rejected *rejected;
    /* Rows set aside before the fit, below its range: calls without data that the MPI
     * library returns from at once (see cf_fit_group), and why. */
    size_t nset_aside;
    cf_rejected *set_aside;
    char set_aside_why[CF_REASON_MAX];
    size_t ngain;
    cf_gain *gain;
    /* The measured points (bytes > 0), by block count then size, increasing: a datatype
     * fit's at every block count measured, another's at its own. Inside them predict
     * corrects the model by their measured / model ratio (cf_fit_predict_near). */
    size_t npoints;
    cf_measured *points;
    double points_sd_log; /* the spread of ln t among rows of one size (pooled; 0: none):
                             at least 1/1.96 of the 95th percentile of |ln(t / median)| */
    size_t nwarnings;
    char **warnings;              /* loggp consistency checks, ... */
    char formula[CF_FORMULA_MAX]; /* text form, as in the file */
    cf_size_backtest bt;
    cf_blocks_backtest bbt; /* a fit with a block term only */
    /* At np 2, the sizes (pair_from_bytes to pair_to_bytes) whose slowest rank took under a
     * quarter of the table's own ping-pong time for as many bytes (fit's warning "faster
     * than its ping-pong moves the bytes"): times that are no transfers. 0: none. */
    uint64_t pair_from_bytes, pair_to_bytes;
    /* Read by its key alone (pattern, np, datatype, blocks, model, kind) by
     * cf_modelset_read_keys, and not yet whole by cf_modelset_read_fits; nothing else is
     * set. */
    int key_only;
} cf_fit;

typedef struct cf_prediction {
    double t_us;
    double lo_us, hi_us;       /* 95% prediction interval of one measurement */
    double se_mean_us;         /* standard error of the fitted mean alone */
    int segment;               /* index into seg[]; in a gap, the segment below it */
    int in_gap;                /* bytes lies between two segments (inside a breakpoint interval) */
    int extrapolated;          /* bytes outside [min_bytes, max_bytes] */
    int near;                  /* cf_fit_predict_near: corrected by the measured neighbours */
    uint64_t near_lo, near_hi; /* those neighbours (equal at a measured size) */
    double near_ratio;         /* the answer / the model's time */
    double near_weight;        /* the model shape's weight against a log-log line */
    int near_step;             /* the measured points bend against the model's shape around
                                  the neighbours (a step between them): the log-log line */
    int near_switch;           /* the library's rules run another algorithm at one neighbour
                                  than at bytes (cf_near_rules): read from the other, -1 the
                                  lower, +1 the upper; 0 none */
    const char *switch_alg, *switch_other; /* the rules' algorithm at bytes, at the other
                                              (NULL: the same; SimGrid's protocol switches) */
    double switch_slope;       /* the log-log slope the reading was carried on with */
    double switch_line_us;     /* the answer read across the switch, before */
    uint64_t switch_from;      /* the measured size that slope's chord ran from (0: the
                                  model's own slope there) */
    int own_unmeasured;        /* near_switch 0 where the rules run another algorithm at a
                                  neighbour than at bytes (switch_alg), and bytes's own at
                                  neither on its side of CF_EAGER_MAX: the line answers, and
                                  no measured size of this np ran it so */
    double doublings;          /* doublings of m beyond the measured sizes (0 inside) */
    double widen;              /* the factor the interval was widened by there (1: none) */
    double turn;               /* above them, the measured slope's turn a doubling where it
                                  set widen (cf_fit_widen), else 0 */
    double trend_us;           /* beyond the measured points, the log-log chord through their
                                  top two octaves carried on, where its reading, widened as
                                  the model's, widened the interval (cf_fit_predict_near);
                                  0: it did not */
    uint64_t trend_lo, trend_hi; /* the largest measured size in each of those octaves (where
                                    trend_us or trend_weight is set) */
    double trend_weight;         /* beyond them, the trend's weight in the answer (1 - the
                                    backtest's model_weight; 0: the model's answer), the
                                    trend's reading and the model's time it was weighed
                                    against (set where the weight is above 0) */
    double trend_read_us, model_t_us;
    double anchor;        /* beyond the measured points, the measured / model ratio at the
                             largest one that the model's reading was carried on with
                             (cf_fit_predict_near; 0: none), so that the answer goes on from
                             the measured time there */
    uint64_t anchor_bytes; /* that largest measured size */
    double anchor_ratio;   /* the ratio there (anchor is it to the weight it holds at) */
    double rinf_floor_us; /* beyond the measured points, the answer read below nmsg * m /
                             the fit's asymptotic bandwidth (its 95% upper end, or the one
                             measured at the largest point where faster: rinf_floor_MiBps):
                             raised to that time, this the answer before (0: not raised) */
    double rinf_floor_MiBps;
    int flat;             /* beyond the measured sizes, the model's time fell below its time
                             at the largest one (a slope < 0): the answer is read flat from
                             there; flat_model_us is the model's own time (<= 0 possibly) */
    double flat_model_us;
    double block_doublings; /* doublings of the block count beyond the measured ones (0
                               inside them, or without a block term) */
    double block_widen;     /* the factor the interval was widened by for them (1: none) */
} cf_prediction;

void cf_fit_clear(cf_fit *f); /* frees what a fit owns and zeroes it */
/* Whether f can be found faster than its ping-pong moves the bytes (pair_from_bytes): a
 * sized collective's plain fit, where a rank receives all of them (at np 2), or at least a
 * message of m bytes (or as many in parts) from another rank (at any np); fit looks for it
 * at np 2, and at larger np where the ping-pong ran inside one node (no path of the
 * collective's faster then: cf_fit_input's pair_in_node); the model file's reader refuses
 * the field on other fits. */
int cf_fit_pair_bound_applies(const cf_fit *f);
/* Whether pattern is a sized collective of which a rank at np 2 receives all m bytes (the
 * buffer, its block, the other's vector), so that no algorithm moves them faster than the
 * ping-pong does: 1 or 0. */
int cf_pattern_pair_bound_applies(const char *pattern);
/* The ping-pong bound on moving bytes at np 2, from a table's rows (all, nall): the time
 * (statistic stat) of its ping-pong (np 2, datatype byte) at the largest size no larger than
 * bytes, where that is four times its smallest size's time or more (the bytes, not the
 * latency, set it); NAN elsewhere or without a ping-pong. */
double cf_pair_bound_us(const cf_row *const *all, size_t nall, cf_statistic stat,
                        uint64_t bytes);
/* Whether row r's slowest rank took under a quarter of bound_us (cf_pair_bound_us, NAN: no):
 * no transfer of its bytes (a simulator's algorithm that skips the data, SMPI 3.32's ompi
 * bcast on ranks that share a host; a broken timer). 1 or 0. */
int cf_row_no_transfer(const cf_row *r, double bound_us);

/* T at bytes (at f->blocks blocks) with a 95% prediction interval: Student t with f->dof
 * over sqrt(x'Cx + s2*T^2), the residual spread scaling with T as the fit is in relative
 * error. Inside a breakpoint gap (between the last size of segment k and the first of
 * k+1) T is interpolated linearly in bytes between the two segments' values at the gap's
 * ends, and the interval is the hull of their intervals there; no segment is evaluated
 * outside its sizes. The lower end is never below 0. Beyond the measured sizes the
 * interval is widened by the factor w of cf_fit_widen (exp(e d), d the doublings of m
 * beyond them, e from the fit's backtest in size; above them at least as far as the
 * measured slope's turn reaches): [lo / w, hi * w], its turn in out->turn where that set
 * it; T stays the model's. At a block count beyond the measured ones (a fit with a block
 * term) the interval is widened the same way in blocks, by exp(e_b d_b), d_b the doublings
 * of b beyond them, e_b from cf_fit_block_extrap_err (out->block_widen). 0, or CF_EXIT_DATA
 * when bytes is negative or not finite. */
int cf_fit_predict(const cf_fit *f, double bytes, cf_prediction *out);
int cf_fit_predict_blocks(const cf_fit *f, double bytes, double blocks, cf_prediction *out);
/* The same with the regression's own interval only, not widened beyond the measured sizes
 * or counts (what the backtests read). */
int cf_fit_predict_unwidened(const cf_fit *f, double bytes, double blocks, cf_prediction *out);
/* Doublings of m beyond f's measured sizes: log2(bytes / max_bytes) above them,
 * log2(min_bytes / bytes) below them (0 bytes read as 1 byte), else 0. A fit measured at
 * 0 bytes only (a constant: barrier) is never beyond. */
double cf_fit_doublings(const cf_fit *f, double bytes);
/* The interval's widening per doubling of m beyond the measured sizes at bytes, in ln t.
 * Above them: the larger of the fit's backtest in size (where f has one) and
 * ln(1 + its leave-one-out error), since a backtest is often one size's miss; below them,
 * where the backtest (read at the top) says nothing, the leave-one-out error's.
 * *backtested says whether the backtest's was the larger (may be NULL). */
double cf_fit_extrap_err(const cf_fit *f, double bytes, int *backtested);
/* Doublings of the block count beyond f's measured counts: log2(blocks / max_blocks)
 * above them, log2(min_blocks / blocks) below; 0 inside them or for a fit without a block
 * term (f->blocks == 0). */
double cf_fit_block_doublings(const cf_fit *f, double blocks);
/* The interval's widening per doubling of the block count beyond the measured counts, in
 * ln t: the larger of the fit's backtest in blocks at that end (where it has one) and
 * ln(1 + its leave-one-out error). *backtested says whether the backtest's was the larger
 * (may be NULL). */
double cf_fit_block_extrap_err(const cf_fit *f, double blocks, int *backtested);
/* The turn of the measured log-log slope a doubling at the top of f's points (at block
 * count blocks where f has a block term): the chords between the means of the top 4
 * octaves of sizes (as cf_fit_trend reads them), each chord's slope less the one below over
 * the doublings between their middles, root mean square. 0 with fewer than 4 octaves. */
double cf_fit_slope_turn(const cf_fit *f, double blocks);
/* The factor by which an interval at bytes is widened beyond f's measured sizes (1 inside
 * them): exp(e d), e from cf_fit_extrap_err, d the doublings beyond; above them at least
 * exp(1.96 kappa ln 2 sqrt(d (d + 1) (2d + 1) / 6)), kappa the slope's turn
 * (cf_fit_slope_turn), as if the slope went on turning as much, a random walk: a switch
 * measured at the top (a latency that jumped, a cache's edge) says the slope has not
 * settled, and nothing measured says where it does. *turn (may be NULL): kappa where it
 * set the factor, else 0. */
double cf_fit_widen(const cf_fit *f, double bytes, double blocks, double *turn);
/* cf_fit_predict, and where bytes lies within the fit's measured points: the model times
 * the measured / model ratio of its two measured neighbours, interpolated log-log between
 * them (their own ratio at a measured size). The interval holds the model's own and
 * the corrected time's, whose spread is what this interpolation missed at the fit's other
 * points, each predicted from its neighbours without itself. The answer weighs that reading
 * against the log-log line between the neighbours by what each missed at the inner points
 * around; the log-log line alone in a breakpoint gap, and where the measured points around
 * the neighbours bend against the model's shape (a step between them). Beyond the largest
 * point the model answers, carried on from the measured time there (times its measured /
 * model ratio, anchor), and its widened interval also holds the log-log chord through
 * the top two octaves of the points carried on, widened the same (trend_us). Below them,
 * or with fewer than 4 points, the model alone. */
int cf_fit_predict_near(const cf_fit *f, double bytes, cf_prediction *out);
/* The same at a block count, from the measured points at that count (a datatype fit keeps
 * every count measured); at a count without 4 of them, the model alone. */
int cf_fit_predict_near_blocks(const cf_fit *f, double bytes, int blocks, cf_prediction *out);
/* The same with the library's switch rules (cf_near_rules; NULL: none), as predict reads. */
int cf_fit_predict_near_rules(const cf_fit *f, double bytes, int blocks, const char *rules,
                              long node, cf_prediction *out);

/* A weight from 0 to 1, within 0.005 of an end taken as that end. */
double cf_fit_weight_snap(double w);
/* A weight learned a doubling and more beyond the measured sizes (the backtest's
 * anchor_weight, model_weight; snapped) as it holds at doublings beyond the largest
 * measured point: 1 there, easing linearly in log m to the weight over the first doubling,
 * so that the answer leaves the measured time there without a jump. */
double cf_fit_anchor_at(double weight, double doublings);

/* The measured trend at the top of f's points carried to bytes: the log-log chord through
 * the top octave of their sizes and the octave below it (each octave's points read as
 * their mean in log-log), into *t; into *t_capped the same with the chord's slope from 0 to
 * 1 above the top (a chord steeper than 1 is a step, a cache's capacity crossed, not a
 * rate: carried on, it would compound the step every doubling; a falling one is a dip, and
 * no cost falls with size). 0, with the largest size of each octave into *m0, *m1 (any
 * output may be NULL); -1 where the points hold fewer than two octaves. */
int cf_fit_trend(const cf_fit *f, double bytes, double *t, double *t_capped, uint64_t *m0,
                 uint64_t *m1);

/* The same for many sizes: what the correction reads from the points alone (each point's
 * measured / model ratio, each inner point's misses), read once for a fit at a block count
 * and kept, so that each answer costs one evaluation of the model. cf_near_init: 0, or -1
 * when out of memory (cf_near_clear it all the same); cf_near_predict answers as
 * cf_fit_predict_near_blocks does; the fit must outlive it. */
typedef struct cf_near {
    cf_fit view;        /* the fit seen through its points at the block count */
    int ok, k;          /* every ratio finite; inner points read */
    double *r, *em, *el; /* the points' ln ratios; the model's and log-log's misses */
    double w;           /* the model's weight over every inner point */
    /* The library's switch rules (cf_near_rules): the algorithm they run at each point
     * (NULL: none known), a rule set and its nodes' ranks, and how far a chord carried one
     * point on within one algorithm's run missed: its root mean square ln miss per doubling
     * over carry_n carries. */
    const char **alg;
    const char *rules;
    long node;
    double carry_sd;
    int carry_n;
} cf_near;
int cf_near_init(cf_near *nr, const cf_fit *f, int blocks);
/* Between two measured sizes where the library's rules (rules, a cf_rules_for name; node its
 * nodes' ranks, cf_rules_pick) run another algorithm at one than at the size asked, the
 * reading goes on from the other alone (its chord within the algorithm's run carried on),
 * not across the switch: the log-log line between a binomial reduce's 2.14 us at 1 KiB and
 * the scatter-gather's 12.2 at 4 KiB read 4.96 us at 2000 B, where the rules run the
 * binomial tree (1.84 simulated). SimGrid's selectors' rules alone ("smpi-..."); rules must
 * outlive nr; NULL or another set changes nothing. 0, or -1 when out of memory (nr reads as
 * before). */
int cf_near_rules(cf_near *nr, const char *rules, long node);
int cf_near_predict(const cf_near *nr, double bytes, cf_prediction *out);
void cf_near_clear(cf_near *nr);

/* The fit as a formula in lang: "text", "c", "python", "latex" or "gnuplot". Returns the
 * length written (truncated to n), or -1 for an unknown language. */
int cf_fit_formula(const cf_fit *f, const char *lang, char *buf, size_t n);

#endif
