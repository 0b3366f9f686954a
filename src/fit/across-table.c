/* From the rows of timing tables: the across-np model of every (pattern, datatype) and
 * the point-to-point estimate with its contention, as C structs. */
#include "config.h"

#include "fit/across.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/stats.h"
#include "fit/fit.h"

/* ---- From a timing table ---- */

/* The rows a fit reads, by pointer: commfit fit has them from several tables. */
typedef struct rowset {
    const cf_row *const *rows;
    size_t n;
    int robust; /* fit --no-robust: 0, no point set aside in any fit of them */
} rowset;

/* Whether row r, at np 2, moved no data (cf_row_no_transfer: faster than the table's ping-pong
 * moves its bytes, which a rank of its collective receives there): the estimate from np=2,
 * read through such times, says so. */
static int no_transfer(const rowset *t, const char *stat, const cf_row *r)
{
    return r->np == 2 && cf_pattern_pair_bound_applies(r->pattern) &&
           cf_row_no_transfer(
               r, cf_pair_bound_us(t->rows, t->n, cf_statistic_named(stat), r->bytes));
}

static int rows_hockney(const rowset *t, const char *stat, const char *pattern,
                        const char *datatype, cf_hockney *h, cf_error *e)
{
    size_t n = 0;
    double *m = malloc((t->n ? t->n : 1) * sizeof *m);
    double *y = malloc((t->n ? t->n : 1) * sizeof *y);
    if (m == NULL || y == NULL) {
        free(m);
        free(y);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    for (size_t i = 0; i < t->n; i++) {
        const cf_row *r = t->rows[i];
        if (r->np == 2 && r->blocks == 0 && strcmp(r->pattern, pattern) == 0 &&
            strcmp(r->datatype, datatype) == 0) {
            m[n] = (double)r->bytes;
            y[n++] = cf_row_time_named(r, stat);
        }
    }
    int rc = n == 0 ? cf_error_set(e, CF_EXIT_DATA, NULL, 0, "no %s rows at np=2", pattern)
                    : cf_hockney_fit(m, y, n, t->robust, h, e);
    free(m);
    free(y);
    return rc;
}

/* A row an algorithm cost covers, with its place in the input: rows are sorted by
 * (pattern, datatype, np), then by that place, so that each key below is one run of them
 * in input order, found once instead of by a scan of every row per key. */
typedef struct keyed_row {
    const cf_row *r;
    const cf_coll *c;
    size_t pos;
} keyed_row;

static int cmp_keyed_row(const void *a, const void *b)
{
    const keyed_row *x = a, *y = b;
    int d = strcmp(x->r->pattern, y->r->pattern);
    if (d == 0)
        d = strcmp(x->r->datatype, y->r->datatype);
    if (d == 0)
        d = (x->r->np > y->r->np) - (x->r->np < y->r->np);
    if (d == 0)
        d = (x->pos > y->pos) - (x->pos < y->pos);
    return d;
}

/* A (pattern, datatype, np) with an algorithm cost, and its rows kr[lo, hi). */
typedef struct key {
    const cf_coll *c;
    const char *datatype;
    long np; /* 0: every np >= 2 */
    size_t lo, hi;
} key;

static int add_key(key **ks, size_t *n, size_t *cap, key k)
{
    key *nk = cf_grow(*ks, cap, *n, sizeof *nk, 16);
    if (nk == NULL)
        return -1;
    *ks = nk;
    (*ks)[(*n)++] = k;
    return 0;
}

/* The keys of the sorted rows kr, in the order (pattern, datatype, np), the every-np key
 * of a (pattern, datatype) first. */
static int make_keys(const keyed_row *kr, size_t n, key **ks, size_t *nk)
{
    size_t cap = 0;
    for (size_t a = 0, b; a < n; a = b) {
        const cf_row *r = kr[a].r;
        for (b = a + 1; b < n && strcmp(kr[b].r->pattern, r->pattern) == 0 &&
                        strcmp(kr[b].r->datatype, r->datatype) == 0;
             b++)
            ;
        /* Two-process patterns have no other process count to fit across. */
        if (!kr[a].c->two_only && add_key(ks, nk, &cap, (key){kr[a].c, r->datatype, 0, a, b}) != 0)
            return -1;
        for (size_t i = a, j; i < b; i = j) {
            for (j = i + 1; j < b && kr[j].r->np == kr[i].r->np; j++)
                ;
            if (add_key(ks, nk, &cap, (key){kr[a].c, r->datatype, kr[i].r->np, i, j}) != 0)
                return -1;
        }
    }
    return 0;
}

static int cmp_unit(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The measured curve of a key at its np: bytes > 0 (a reduction carries no float below 4
 * bytes, a call MPI returns from at once), by increasing size, repeats merged
 * geometrically; at most CF_P2P_UNIT_MAX sizes, else none. Repeats count once: an OSU
 * ping-pong over 28 node pairs (data/osu58: 672 rows of 24 sizes) had none, its rows past
 * the limit. */
static void measured_unit(const keyed_row *kr, const char *stat, const key *k, cf_contention *out)
{
    out->nunit = 0;
    double(*u)[2] = malloc((k->hi > k->lo ? k->hi - k->lo : 1) * sizeof *u);
    if (u == NULL)
        return;
    size_t n = 0;
    double lo = strcmp(k->c->datatype, "float") == 0 ? 4.0 : 1.0;
    for (size_t i = k->lo; i < k->hi; i++) {
        const cf_row *r = kr[i].r;
        double t = cf_row_time_named(r, stat);
        if ((double)r->bytes < lo || !(t > 0.0) || !isfinite(t))
            continue;
        u[n][0] = (double)r->bytes;
        u[n++][1] = t;
    }
    qsort(u, n, sizeof u[0], cmp_unit);
    for (size_t i = 0, j; i < n; i = j) {
        double s = 0.0;
        for (j = i; j < n && u[j][0] == u[i][0]; j++)
            s += log(u[j][1]);
        if (out->nunit == CF_P2P_UNIT_MAX) {
            out->nunit = 0;
            break;
        }
        out->unit_bytes[out->nunit] = u[i][0];
        out->unit_t_us[out->nunit++] = exp(s / (double)(j - i));
    }
    free(u);
}

/* The pattern's own np=2 times as ping-pong's costs with a latency and a bandwidth factor
 * of their own (contention, the library's overheads), fitted in relative error with their
 * covariance; and its measured curve. The factors stay 0 when they cannot be separated. */
static int np2_calibrate(const keyed_row *kr, const char *stat, int robust, const cf_p2p *pp,
                         const key *k, cf_contention *out)
{
    size_t nr = k->hi - k->lo, n = 0;
    double *X = malloc((nr ? nr : 1) * 2 * sizeof *X), *t = malloc((nr ? nr : 1) * sizeof *t);
    if (X == NULL || t == NULL) {
        free(X);
        free(t);
        return -1;
    }
    double lo = strcmp(k->c->datatype, "float") == 0 ? 4.0 : 0.0;
    for (size_t i = k->lo; i < k->hi; i++) {
        const cf_row *r = kr[i].r;
        double f[3], y = cf_row_time_named(r, stat);
        if ((double)r->bytes < lo || !(y > 0.0) || !isfinite(y))
            continue;
        cf_coll_cost(k->c, 2, (double)r->bytes, pp->h.alpha_us, pp->h.beta_us_per_byte,
                     pp->gamma_us_per_byte, NULL, f);
        X[2 * n] = f[0] * pp->h.alpha_us;
        X[2 * n + 1] = f[1] * pp->h.beta_us_per_byte + f[2] * pp->gamma_us_per_byte;
        t[n++] = y;
    }
    double coef[2], cov[4], s2;
    cf_rel_quality q;
    cf_error ignore;
    cf_error_clear(&ignore);
    /* beta held at 0 (cf_hockney_fit) leaves the bandwidth column 0 where no gamma fills
     * it: the latency factor alone, the bandwidth factor 1 (it multiplies nothing). */
    int zero = 1;
    for (size_t i = 0; i < n; i++)
        zero &= X[2 * i + 1] == 0.0;
    int fitted = 0;
    if (zero && pp->h.beta_held && n >= 2) {
        for (size_t i = 0; i < n; i++)
            X[i] = X[2 * i];
        double c1, v1;
        if (cf_rel_lsq(n, 1, X, t, robust, &c1, &v1, &s2, &q, &ignore) == 0) {
            coef[0] = c1;
            coef[1] = 1.0;
            cov[0] = v1;
            cov[1] = cov[2] = cov[3] = 0.0;
            fitted = 1;
        }
    } else if (n >= 3 && cf_rel_lsq(n, 2, X, t, robust, coef, cov, &s2, &q, &ignore) == 0)
        fitted = 1;
    if (fitted && coef[0] > 0.0 && coef[1] > 0.0 && isfinite(cov[0]) && isfinite(cov[3]) &&
        isfinite(s2)) {
        out->lat_factor = coef[0];
        out->bw_factor = coef[1];
        for (int i = 0; i < 4; i++)
            out->factor_cov[i / 2][i % 2] = cov[i];
        out->factor_s2 = s2;
    }
    free(X);
    free(t);
    return 0;
}

static int contention_of(const rowset *rows, const keyed_row *kr, const char *stat,
                         const cf_p2p *pp, const key *k, cf_contention *out)
{
    size_t n = 0;
    double *ratio = malloc((k->hi > k->lo ? k->hi - k->lo : 1) * sizeof *ratio);
    if (ratio == NULL)
        return -1;
    double s = 0.0, s2 = 0.0;
    uint64_t nt_lo = UINT64_MAX, nt_hi = 0; /* sizes that moved no data */
    for (size_t i = k->lo; i < k->hi; i++) {
        const cf_row *r = kr[i].r;
        double est = cf_coll_cost(k->c, r->np, (double)r->bytes, pp->h.alpha_us,
                                  pp->h.beta_us_per_byte, pp->gamma_us_per_byte, NULL, NULL);
        if (!(est > 0.0))
            continue;
        if (no_transfer(rows, stat, r)) {
            nt_lo = r->bytes < nt_lo ? r->bytes : nt_lo;
            nt_hi = r->bytes > nt_hi ? r->bytes : nt_hi;
        }
        double q = cf_row_time_named(r, stat) / est;
        ratio[n++] = q;
        s += log(q);
        s2 += log(q) * log(q);
    }
    memset(out, 0, sizeof *out);
    snprintf(out->pattern, sizeof out->pattern, "%s", k->c->pattern);
    snprintf(out->datatype, sizeof out->datatype, "%s", k->datatype);
    out->np = k->np;
    out->n = (int)n;
    if (nt_hi > 0) {
        out->no_transfer_from = nt_lo;
        out->no_transfer_to = nt_hi;
    }
    if (n > 0) {
        cf_sort_doubles(ratio, n);
        out->median = n % 2 ? ratio[n / 2] : 0.5 * (ratio[n / 2 - 1] + ratio[n / 2]);
        out->min = ratio[0];
        out->max = ratio[n - 1];
        double mean = s / (double)n;
        out->sd_log = n > 1 ? sqrt(fmax(0.0, (s2 - n * mean * mean) / (double)(n - 1))) : 0.0;
    }
    free(ratio);
    measured_unit(kr, stat, k, out);
    return k->np == 2 ? np2_calibrate(kr, stat, rows->robust, pp, k, out) : 0;
}

/* The estimate puts alpha and beta into every algorithm's cost, at any p and m: neither
 * can be negative, or not finite, there. */
static int hockney_check(const cf_hockney *h, cf_error *why)
{
    const double v[2] = {h->alpha_us, h->beta_us_per_byte};
    const char *const name[2] = {"alpha", "beta"};
    for (int j = 0; j < 2; j++) {
        if (!isfinite(v[j]) || v[j] < 0)
            return cf_error_set(why, CF_EXIT_DATA, NULL, 0,
                                "the ping-pong fit gives %s = %.4g: the point-to-point "
                                "estimate needs it finite and >= 0",
                                name[j], v[j]);
        if (!isfinite(h->cov[j][0]) || !isfinite(h->cov[j][1]) || h->cov[j][j] < 0 ||
            !isfinite(h->s2) || h->s2 < 0)
            return cf_error_set(why, CF_EXIT_DATA, NULL, 0,
                                "the ping-pong fit gives a variance of %s that is not finite, "
                                "or negative",
                                name[j]);
    }
    return 0;
}

static void p2p_gamma_fit(const rowset *t, const char *stat, const char *nt, cf_p2p *pp)
{
    static const char *const reductions[] = {"reduce", "allreduce"};
    for (size_t i = 0; i < 2; i++) {
        cf_hockney h;
        cf_error ignore;
        cf_error_clear(&ignore);
        if (rows_hockney(t, stat, reductions[i], "float", &h, &ignore) != 0)
            continue;
        /* At p = 2 both reductions are one exchange plus one local reduction:
         * alpha + m*(beta + gamma). */
        pp->gamma_us_per_byte = fmax(0.0, h.beta_us_per_byte - pp->h.beta_us_per_byte);
        pp->gamma_se = sqrt(h.cov[1][1] + pp->h.cov[1][1]);
        snprintf(pp->gamma_source, sizeof pp->gamma_source,
                 "%s at np=2: its beta minus the ping-pong beta", reductions[i]);
        return;
    }
    char *end = NULL;
    double v = nt ? strtod(nt, &end) : NAN;
    if (nt && end != nt && *end == '\0' && v > 0.0 && isfinite(v)) {
        /* The dot product of two 1000-double vectors reads 8000 bytes of each input, as a
         * float reduction of 8000 bytes does: its time per 8000 bytes is gamma's scale. */
        pp->gamma_us_per_byte = v / 8000.0;
        pp->gamma_se = pp->gamma_us_per_byte;
        snprintf(pp->gamma_source, sizeof pp->gamma_source,
                 "normalized_time_us / 8000 (no reduction measured at np=2)");
        return;
    }
    pp->gamma_us_per_byte = 0.0;
    pp->gamma_se = 0.0;
    snprintf(pp->gamma_source, sizeof pp->gamma_source,
             "none: no reduction at np=2 and no normalized_time_us; compute cost left out");
}

static int note_add(char ***notes, size_t *n, const char *fmt, const char *a, const char *b,
                    const char *c)
{
    char buf[CF_NOTE_MAX * 2];
    snprintf(buf, sizeof buf, fmt, a, b, c);
    char **nn = realloc(*notes, (*n + 1) * sizeof *nn);
    if (nn == NULL)
        return -1;
    *notes = nn;
    if ((nn[*n] = strdup(buf)) == NULL)
        return -1;
    (*n)++;
    return 0;
}

void cf_notes_free(char **notes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(notes[i]);
    free(notes);
}

/* The point-to-point parameters from the ping-pong at np=2, gamma from a reduction, then
 * the contention wherever a collective was measured with its own datatype. -1 when out of
 * memory; a table without a usable ping-pong is pp->error, not a failure. */
static int p2p_fit(const rowset *t, const char *stat, const char *nt, const char *rules,
                   const keyed_row *kr, const key *ks, size_t nk, cf_p2p *pp)
{
    snprintf(pp->pattern, sizeof pp->pattern, "pingpong");
    snprintf(pp->rules, sizeof pp->rules, "%s", rules ? rules : "");
    cf_error why;
    cf_error_clear(&why);
    if (rows_hockney(t, stat, "pingpong", "byte", &pp->h, &why) != 0 ||
        hockney_check(&pp->h, &why) != 0) {
        snprintf(pp->error, sizeof pp->error, "%.150s", why.msg);
        return 0;
    }
    p2p_gamma_fit(t, stat, nt, pp);
    for (size_t i = 0; i < nk; i++) {
        if (ks[i].np == 0 || strcmp(ks[i].datatype, ks[i].c->datatype) != 0)
            continue;
        cf_contention *nc = realloc(pp->cont, (pp->ncont + 1) * sizeof *nc);
        if (nc == NULL)
            return -1;
        pp->cont = nc;
        if (contention_of(t, kr, stat, pp, &ks[i], &pp->cont[pp->ncont]) != 0)
            return -1;
        if (pp->cont[pp->ncont].n > 0)
            pp->ncont++;
    }
    return 0;
}

/* The barrier's wait in a pattern's times, by np (cf_across_probe). */
typedef struct waits_by_np {
    int n;
    long np[CF_ACROSS_NP_MAX];
    double us[CF_ACROSS_NP_MAX];
} waits_by_np;

int cf_across_moves_nothing(const char *datatype, double m)
{
    double elem = strcmp(datatype, "double") == 0                                  ? 8
                  : strcmp(datatype, "float") == 0 || strcmp(datatype, "int") == 0 ? 4
                                                                                   : 1;
    return !(m >= elem);
}

/* Takes from each of the n points of pattern c with datatype its np's wait (probe NULL:
 * none), but from one that moves nothing; w says by np what was taken (w->n 0: nothing). A
 * wait unknown at some np (NAN: past the probe), or a replay that leaves a point less than
 * a tenth of its time (or more process counts than a model holds), takes nothing. Waits of
 * 0 at every np are kept (w->n > 0): the replay ran, found none, and predict replays it at
 * the np it answers for (fatnodes-ompi fitted at np 2-32: bcast's replay waits 0 at every
 * fitted np, whose farther ranks sit in one other node, and 7.86 us at np 64). */
static void take_waits(const cf_across_probe *probe, const cf_coll *c, const char *datatype,
                       cf_point *pts, size_t n, waits_by_np *w)
{
    const char *pattern = c->pattern;
    w->n = 0;
    if (probe == NULL || probe->wait_us == NULL)
        return;
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        int k = 0;
        while (k < w->n && w->np[k] != pts[i].p)
            k++;
        if (k == w->n) {
            if (w->n == CF_ACROSS_NP_MAX) {
                w->n = 0;
                return;
            }
            w->np[k] = pts[i].p;
            w->us[k] = probe->wait_us(probe->ctx, pattern, pts[i].p);
            if (!(w->us[k] >= 0 && isfinite(w->us[k]))) {
                w->n = 0;
                return;
            }
            any |= w->us[k] > 0;
            w->n++;
        }
        if (!cf_across_moves_nothing(datatype, pts[i].m) && !(w->us[k] <= 0.9 * pts[i].t_us)) {
            w->n = 0;
            return;
        }
    }
    if (!any)
        return; /* nothing to take; the replay stays kept */
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < w->n; k++)
            if (w->np[k] == pts[i].p && !cf_across_moves_nothing(datatype, pts[i].m))
                pts[i].t_us -= w->us[k];
}

/* What take_waits took, by a's measured np, and the rules whose barrier was replayed. */
static void keep_waits(const waits_by_np *w, const char *rules, cf_across *a)
{
    snprintf(a->wait_rules, sizeof a->wait_rules, "%s", rules != NULL ? rules : "");
    a->waited = 0;
    for (int i = 0; i < a->nnp; i++) {
        a->wait_us[i] = 0.0;
        for (int k = 0; k < w->n; k++)
            if (w->np[k] == a->np[i])
                a->wait_us[i] = w->us[k];
        a->waited |= a->wait_us[i] > 0;
    }
    a->replayed = w->n > 0;
}

/* A model fitted without the barrier's waits reads the calls' own cost, whose backtests
 * (reading the largest np from those below) can be all but exact where the waits made the
 * times jump (a simulation's). The wait it adds back beyond the fitted np is a replay, not a
 * measurement, so its intervals keep at least the width the measured times' own backtests
 * give: the same fit of the n raw points into r, and a's backtested errors no smaller than
 * r's (at each segment's sizes). Where the raw points cannot be fitted, a keeps its own: the
 * fit that answers is a's, and its error would not be the table's. */
static void raw_errors(const cf_coll *c, const char *datatype, const cf_point *raw, size_t n,
                       unsigned cands, const char *rules, const cf_p2p *pp,
                       const cf_tiers *tiers, cf_across *a, cf_across *r)
{
    cf_error ignored;
    cf_error_clear(&ignored);
    if (cf_across_fit_extrap(c, datatype, raw, n, cands, r, &ignored) != 0 || r->error[0] != '\0')
        return;
    cf_across_backtest_tiers(c, raw, n, cands, tiers, r);
    cf_across_grid_build(r, rules, raw, n, cf_p2p_pingpong(pp), tiers);
    for (int i = 0; i < a->nseg; i++) {
        double mid = sqrt(fmax(a->seg[i].from_bytes, 1.0) * fmax(a->seg[i].to_bytes, 1.0));
        double x = cf_across_extrap_err(r, mid, NULL);
        if (x > a->seg[i].extrap_err || (isnan(a->seg[i].extrap_err) && isfinite(x)))
            a->seg[i].extrap_err = x;
        /* Within a tier likewise, where both read one (else a's crossing's miss alone). */
        double xw = r->ntier > 0 ? r->seg[cf_across_backtest_seg(r, mid)].within_err : NAN;
        if (a->ntier > 0)
            a->seg[i].within_err =
                isfinite(xw) && isfinite(a->seg[i].within_err) ? fmax(a->seg[i].within_err, xw)
                                                                : NAN;
    }
    cf_across_grid *g = &a->grid;
    if (g->rules[0] != '\0' && r->grid.rules[0] != '\0') {
        if (r->grid.err_per_doubling > g->err_per_doubling)
            g->err_per_doubling = r->grid.err_per_doubling;
        if (isfinite(g->tree_err) && r->grid.tree_err > g->tree_err)
            g->tree_err = r->grid.tree_err;
        if (isfinite(g->tiered_tree_err) && r->grid.tiered_tree_err > g->tiered_tree_err)
            g->tiered_tree_err = r->grid.tiered_tree_err;
        /* The growth of the cost per step widens the interval too (and the upper end with
         * the largest anywhere): the measured times' own, where larger. */
        if (r->grid.step_growth > g->step_growth)
            g->step_growth = r->grid.step_growth;
        if (r->grid.step_growth_max > g->step_growth_max)
            g->step_growth_max = r->grid.step_growth_max;
    }
}

/* The across-np model of every (pattern, datatype) key (np 0) into out->a, with a note for
 * each that got none. 0, -1 when out of memory, else the fit's error code. */
static int across_fit_keys(const keyed_row *kr, const key *ks, size_t nk, const char *stat,
                           const char *rules, const cf_across_probe *probe, int robust,
                           size_t nrows, cf_across_set *out, char ***notes, size_t *nnotes,
                           cf_error *e)
{
    size_t nkeys = 0;
    for (size_t i = 0; i < nk; i++)
        nkeys += ks[i].np == 0;
    cf_point *pts = malloc((nrows ? nrows : 1) * sizeof *pts);
    /* With waits to take: the times as measured, and a model of them (raw_errors). */
    int waits = probe != NULL && probe->wait_us != NULL;
    const cf_tiers *tiers = probe != NULL ? probe->tiers : NULL;
    cf_point *raw = waits ? malloc((nrows ? nrows : 1) * sizeof *raw) : NULL;
    cf_across *w_raw = waits ? malloc(sizeof *w_raw) : NULL;
    out->a = calloc(nkeys ? nkeys : 1, sizeof *out->a);
    if (pts == NULL || out->a == NULL || (waits && (raw == NULL || w_raw == NULL))) {
        free(pts);
        free(raw);
        free(w_raw);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < nk && rc == 0; i++) {
        if (ks[i].np != 0)
            continue;
        size_t n = 0;
        for (size_t j = ks[i].lo; j < ks[i].hi; j++) {
            const cf_row *r = kr[j].r;
            pts[n++] = (cf_point){r->np, (double)r->bytes, cf_row_time_named(r, stat)};
        }
        waits_by_np w;
        if (w_raw != NULL)
            memcpy(raw, pts, n * sizeof *pts);
        take_waits(probe, ks[i].c, ks[i].datatype, pts, n, &w);
        cf_across *a = &out->a[out->n];
        /* Where the library's rules are unknown, latency may grow with p as they cannot say. */
        unsigned cands =
            (rules != NULL && cf_rules_known(rules, ks[i].c->pattern) ? 0 : CF_ACROSS_P_LINEAR) |
            (robust ? 0 : CF_ACROSS_KEEP_ALL);
        if ((rc = cf_across_fit_extrap(ks[i].c, ks[i].datatype, pts, n, cands, a, e)) != 0)
            break;
        if (a->error[0] == '\0') {
            cf_across_backtest_tiers(ks[i].c, pts, n, cands, tiers, a);
            keep_waits(&w, rules, a); /* before the grid, whose trees read what was taken */
            cf_across_grid_build(a, rules, pts, n, cf_p2p_pingpong(&out->pp), tiers);
            if (a->waited)
                raw_errors(ks[i].c, ks[i].datatype, raw, n, cands, rules, &out->pp, tiers, a,
                           w_raw);
        }
        out->n++;
        if (a->error[0] != '\0' && note_add(notes, nnotes, "%s (%s): %s; fitted per np only",
                                            a->pattern, a->datatype, a->error) != 0)
            rc = -1;
    }
    free(pts);
    free(raw);
    free(w_raw);
    return rc;
}

int cf_across_fit_set(const cf_row *const *rows, size_t nrows, const char *stat,
                      const char *normalized_time_us, const char *rules,
                      const cf_across_probe *probe, int robust, cf_across_set *out,
                      char ***notes, size_t *nnotes, cf_error *e)
{
    rowset set = {rows, nrows, robust};
    const rowset *t = &set;
    if (stat == NULL)
        stat = "mean";
    memset(out, 0, sizeof *out);
    *notes = NULL;
    *nnotes = 0;
    int rc = 0;
    key *ks = NULL;
    size_t nk = 0, nkr = 0;

    /* Every (pattern, datatype, np) with an algorithm cost, and each (pattern, datatype). */
    keyed_row *kr = malloc((t->n ? t->n : 1) * sizeof *kr);
    if (kr == NULL)
        goto oom;
    for (size_t i = 0; i < t->n; i++) {
        const cf_row *r = t->rows[i];
        const cf_coll *c = cf_coll_find(r->pattern);
        if (c != NULL && r->blocks == 0 && r->np >= 2)
            kr[nkr++] = (keyed_row){r, c, i};
    }
    if (nkr > 0) /* qsort wants a valid pointer even for no elements */
        qsort(kr, nkr, sizeof *kr, cmp_keyed_row);
    if (make_keys(kr, nkr, &ks, &nk) != 0)
        goto oom;
    out->have_p2p = 1;
    if (p2p_fit(t, stat, normalized_time_us, rules, kr, ks, nk, &out->pp) != 0)
        goto oom;
    out->pp.node_ranks = probe != NULL && probe->tiers != NULL ? probe->tiers->node_ranks : 0;
    rc = across_fit_keys(kr, ks, nk, stat, rules, probe, robust, t->n, out, notes, nnotes, e);
    if (rc == -1)
        goto oom;
    if (rc != 0)
        cf_across_set_clear(out);
    goto out;
oom:
    rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    cf_notes_free(*notes, *nnotes);
    *notes = NULL;
    *nnotes = 0;
    cf_across_set_clear(out);
out:
    free(ks);
    free(kr);
    return rc;
}

int cf_across_fit_table(const cf_table *tab, const char *stat, cf_across_set *out, char ***notes,
                        size_t *nnotes, cf_error *e)
{
    const cf_row **rows = malloc((tab->n_rows ? tab->n_rows : 1) * sizeof *rows);
    if (rows == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    for (size_t i = 0; i < tab->n_rows; i++)
        rows[i] = &tab->rows[i];
    int rc =
        cf_across_fit_set(rows, tab->n_rows, stat, cf_table_meta_get(tab, "normalized_time_us"),
                          cf_rules_for(cf_table_meta_get(tab, "mpi_library"),
                                       cf_table_meta_get(tab, "coll_selector"),
                                       cf_table_timed_loop(tab)),
                          NULL, 1, out, notes, nnotes, e);
    free(rows);
    return rc;
}
