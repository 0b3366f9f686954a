/* commfit fit's human lines: the summary table, each fit in detail (--verbose), the
 * warnings grouped by kind and the across-np notes. The fitting code prints nothing. */
#include "config.h"

#include "cmd/out-fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/size.h"
#include "fit/fitting.h"
#include "fit/formula.h"

/* An estimated size (n1/2, the 90% size), "-" where there is none. */
static void human_size(double bytes, char *buf, size_t n)
{
    if (!isfinite(bytes) || bytes < 0)
        snprintf(buf, n, "-");
    else
        cf_size_format_estimate(bytes, buf, n);
}

/* A percentage of a quality figure, "-" where it does not exist (one point). */
static void pct_text(double frac, char *buf, size_t n)
{
    double v = 100 * frac;
    if (isfinite(v))
        snprintf(buf, n, "%.*g%%", cf_sig_prec(v, 2), v);
    else
        snprintf(buf, n, "-");
}

/* A bandwidth in MiB/s as the report prints it: whole digits, 3 significant below 100. */
static void bw_text(double v, char *buf, size_t n)
{
    if (isfinite(v))
        snprintf(buf, n, "%.*g", cf_sig_prec(v, 3), v);
    else
        snprintf(buf, n, "inf");
}

static void summary_line(FILE *fp, const cf_fit *f)
{
    char loo[32], max[32], r2[32];
    pct_text(f->q.loo_mape, loo, sizeof loo);
    pct_text(f->q.max_rel_err, max, sizeof max);
    if (isfinite(f->q.r2))
        snprintf(r2, sizeof r2, "%.4f", f->q.r2);
    else
        snprintf(r2, sizeof r2, "-");
    fprintf(fp, "%s np %d %s: %s %s | n %d, loo %s, max %s, R2 %s", f->pattern, f->np,
            f->datatype, f->model, f->formula, f->q.n, loo, max, r2);
    char pb[512];
    if (cf_fit_per_block_text(f, pb, sizeof pb) > 0)
        fprintf(fp, ", %s", pb);
    for (int k = 0; k + 1 < f->nseg; k++) {
        char a[32], b[32];
        cf_size_format(f->seg[k].to_bytes, a, sizeof a);
        cf_size_format(f->seg[k + 1].from_bytes, b, sizeof b);
        fprintf(fp, k == 0 ? ", breakpoint in (%s, %s)" : ", (%s, %s)", a, b);
    }
    if (f->nrejected > 0)
        fprintf(fp, ", %zu rejected", f->nrejected);
    /* The backtest in size: how far predict trusts the fit beyond its sizes. */
    if (f->bt.n > 0) {
        fprintf(fp, " | beyond: %.1f%% a doubling, the model x%.2f with the measured trend, "
                    "going on from the measured top x%.2f (backtest in size, %d row%s)",
                100 * expm1(f->bt.err_per_doubling), f->bt.model_weight, f->bt.anchor_weight,
                f->bt.n, f->bt.n == 1 ? "" : "s");
        /* And the slope's turn at the top, which may widen the interval more far beyond
         * (cf_fit_widen). */
        double turn = cf_fit_slope_turn(f, (double)f->blocks);
        if (turn > 0)
            fprintf(fp, ", the slope turning %.2g a doubling at the top", turn);
    }
    const cf_saturation *s = &f->sat;
    if (s->valid) {
        char n2[32], m90[32], pk[32], r0[32], r1[32], r2b[32], rp[32];
        human_size(s->n_half_bytes, n2, sizeof n2);
        human_size(s->m90_bytes, m90, sizeof m90);
        cf_size_format(s->peak_bytes, pk, sizeof pk);
        bw_text(s->rinf_MiBps, r0, sizeof r0);
        bw_text(s->rinf_lo_MiBps, r1, sizeof r1);
        bw_text(s->rinf_hi_MiBps, r2b, sizeof r2b);
        bw_text(s->peak_MiBps, rp, sizeof rp);
        fprintf(fp, " | r_inf %s MiB/s [%s, %s]", r0, r1, r2b);
        if (s->half_segment < 0) {
            fprintf(fp, ", n1/2 -, 90%% at - (no segment with a positive intercept)");
        } else if (s->half_segment == f->nseg - 1) {
            fprintf(fp, ", n1/2 %s, 90%% at %s", n2, m90);
        } else {
            char a[32], z[32], rh[32];
            cf_size_format(f->seg[s->half_segment].from_bytes, a, sizeof a);
            cf_size_format(f->seg[s->half_segment].to_bytes, z, sizeof z);
            bw_text(s->half_rinf_MiBps, rh, sizeof rh);
            fprintf(fp,
                    ", n1/2 %s and 90%% at %s from segment %d (%s to %s, %s MiB/s; the "
                    "last segment's intercept is negative)",
                    n2, m90, s->half_segment + 1, a, z, rh);
        }
        fprintf(fp, ", peak %s MiB/s at %s", rp, pk);
        if (isfinite(s->falls_beyond_bytes)) {
            char big[32], last[32];
            cf_size_format(f->max_bytes, big, sizeof big);
            bw_text(s->last_MiBps, last, sizeof last);
            fprintf(fp, ", bandwidth falls beyond %s (%s MiB/s at %s)", pk, last, big);
        }
        if (isfinite(s->flat_from_bytes)) {
            char fl[32];
            cf_size_format((uint64_t)s->flat_from_bytes, fl, sizeof fl);
            fprintf(fp, ", flat from %s", fl);
        } else {
            fprintf(fp, ", not flat within the measured sizes");
        }
    }
    if (f->ngain > 0) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < f->ngain; i++) {
            lo = fmin(lo, f->gain[i].gain_pct);
            hi = fmax(hi, f->gain[i].gain_pct);
        }
        fprintf(fp, " | gain over pack: min %+.0f%%, max %+.0f%% (%zu point%s)", lo, hi,
                f->ngain, f->ngain == 1 ? "" : "s");
    }
    fputc('\n', fp);
    if (f->nset_aside > 0)
        fprintf(fp, "  set aside: %s\n", f->set_aside_why);
    for (size_t i = 0; i < f->nwarnings; i++)
        fprintf(fp, "  warning: %s\n", f->warnings[i]);
}

/* The size a payload was asked for: measure rounds a payload down to whole blocks (2044
 * bytes for 2 KiB in 7 blocks), so the next power of two. */
static uint64_t asked_size(uint64_t bytes)
{
    uint64_t p = 1;
    while (p < bytes)
        p <<= 1;
    return p;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

#define GAIN_COLS 6
#define GAIN_BANDS 5

/* Which band of block counts b falls in: 1, 2-10, 11-100, 101-1000, more. */
static int gain_band(int b)
{
    int k = 0;
    for (long top = 1; k < GAIN_BANDS - 1 && b > top; top *= 10)
        k++;
    return k;
}

/* The gains of a datatype fit as a small table, a few lines whatever the sweep: rows by
 * block count (1, 2-10, 11-100, ...), columns by the size asked for, grouped into at most
 * GAIN_COLS runs of powers of two; each cell the least and the most gain of its points.
 * The model file keeps every point. */
static void gain_table(FILE *fp, const cf_fit *f)
{
    size_t n = f->ngain, ncls = 0;
    uint64_t *cls = malloc((n + 1) * sizeof *cls);
    if (cls == NULL || n == 0) {
        free(cls);
        return;
    }
    for (size_t i = 0; i < n; i++)
        cls[i] = asked_size(f->gain[i].bytes);
    qsort(cls, n, sizeof *cls, cmp_u64);
    for (size_t i = 0; i < n; i++)
        if (ncls == 0 || cls[i] != cls[ncls - 1])
            cls[ncls++] = cls[i];
    size_t ncol = ncls < GAIN_COLS ? ncls : GAIN_COLS;
    /* Blocks that follow the size (struct) make one row: a band would split the sizes. */
    int follow = f->min_blocks != f->max_blocks && f->kind != NULL && f->ncoef == 2;
    double lo[GAIN_BANDS][GAIN_COLS], hi[GAIN_BANDS][GAIN_COLS];
    int bmin[GAIN_BANDS], bmax[GAIN_BANDS], cnt[GAIN_BANDS][GAIN_COLS] = {{0}};
    for (int k = 0; k < GAIN_BANDS; k++)
        bmin[k] = bmax[k] = -1;
    for (size_t i = 0; i < n; i++) {
        const cf_gain *g = &f->gain[i];
        uint64_t c = asked_size(g->bytes);
        size_t idx = 0;
        while (cls[idx] != c)
            idx++;
        size_t col = idx * ncol / ncls;
        int band = follow ? 0 : gain_band(g->blocks);
        if (cnt[band][col]++ == 0)
            lo[band][col] = hi[band][col] = g->gain_pct;
        lo[band][col] = fmin(lo[band][col], g->gain_pct);
        hi[band][col] = fmax(hi[band][col], g->gain_pct);
        if (bmin[band] < 0 || g->blocks < bmin[band])
            bmin[band] = g->blocks;
        bmax[band] = g->blocks > bmax[band] ? g->blocks : bmax[band];
    }
    char head[GAIN_COLS][64], cell[GAIN_BANDS][GAIN_COLS][32];
    int width[GAIN_COLS];
    for (size_t c = 0; c < ncol; c++) {
        size_t first = (c * ncls + ncol - 1) / ncol, last = ((c + 1) * ncls + ncol - 1) / ncol - 1;
        char a[24], z[24];
        cf_size_format(cls[first], a, sizeof a);
        cf_size_format(cls[last], z, sizeof z);
        if (first == last)
            snprintf(head[c], sizeof head[c], "%s", a);
        else
            snprintf(head[c], sizeof head[c], "%s..%s", a, z);
        width[c] = (int)strlen(head[c]);
        for (int k = 0; k < GAIN_BANDS; k++) {
            if (cnt[k][c] == 0)
                snprintf(cell[k][c], sizeof cell[k][c], "-");
            else if (lround(lo[k][c]) == lround(hi[k][c]))
                snprintf(cell[k][c], sizeof cell[k][c], "%+.0f", lo[k][c]);
            else
                snprintf(cell[k][c], sizeof cell[k][c], "%+.0f..%+.0f", lo[k][c], hi[k][c]);
            if ((int)strlen(cell[k][c]) > width[c])
                width[c] = (int)strlen(cell[k][c]);
        }
    }
    fprintf(fp, "  gain over pack, %% (min..max of the points; sizes as asked, payloads "
                "rounded down to whole %s):\n",
            follow ? "particles" : "blocks");
    fprintf(fp, "    %-16s", "blocks");
    for (size_t c = 0; c < ncol; c++)
        fprintf(fp, "  %*s", width[c], head[c]);
    fputc('\n', fp);
    for (int k = 0; k < GAIN_BANDS; k++) {
        if (bmin[k] < 0)
            continue;
        char label[48];
        if (follow)
            snprintf(label, sizeof label, "all (%d..%d)", bmin[k], bmax[k]);
        else if (bmin[k] == bmax[k])
            snprintf(label, sizeof label, "%d", bmin[k]);
        else
            snprintf(label, sizeof label, "%d..%d", bmin[k], bmax[k]);
        fprintf(fp, "    %-16s", label);
        for (size_t c = 0; c < ncol; c++)
            fprintf(fp, "  %*s", width[c], cell[k][c]);
        fputc('\n', fp);
    }
    free(cls);
}

/* The across-np models an item names, joined by ", " into list (size bytes, ACROSS_TAIL of
 * them kept for " and N more" after those that fit); 0 where it names none. item writes a
 * model's text into buf and returns what snprintf does, or -1 where it names none. */
#define ACROSS_TAIL 48
typedef int across_item(const cf_across *a, char *buf, size_t n);
static int across_list(const cf_across_set *as, across_item *item, char *list, size_t size)
{
    size_t len = 0, more = 0, cap = size - ACROSS_TAIL;
    list[0] = '\0';
    for (size_t i = 0; i < as->n; i++) {
        const cf_across *a = &as->a[i];
        if (a->error[0] != '\0')
            continue;
        char one[256];
        int w = item(a, one, sizeof one);
        if (w < 0)
            continue;
        w = snprintf(list + len, cap - len, "%s%s", len ? ", " : "", one);
        if (w < 0 || (size_t)w >= cap - len) {
            list[len] = '\0';
            more++;
        } else {
            len += (size_t)w;
        }
    }
    if (more > 0)
        snprintf(list + len, size - len, " and %zu more", more);
    return len > 0 || more > 0;
}

static int set_aside_item(const cf_across *a, char *buf, size_t n)
{
    if (a->q.rejected <= 0)
        return -1;
    const char *dt = a->datatype;
    int plain = strcmp(dt, "byte") == 0 || strcmp(dt, "float") == 0;
    return snprintf(buf, n, "%s%s%s%s %d of %d", a->pattern, plain ? "" : " (",
                    plain ? "" : dt, plain ? "" : ")", a->q.rejected, a->q.n + a->q.rejected);
}

/* The across-np models that set points aside, in one warning (out-fit.h). */
void cf_out_fit_across_set_aside(const cf_across_set *as)
{
    char list[512 + ACROSS_TAIL];
    if (across_list(as, set_aside_item, list, sizeof list))
        cf_warn("across np, points set aside as outliers: %s (where they are a process count's "
                "whole run of sizes, the model's shape in p misses them: fit --no-robust keeps "
                "them, and its intervals widen)",
                list);
}

static int grid_none_item(const cf_across *a, char *buf, size_t n)
{
    return a->grid_none[0] == '\0'
               ? -1
               : snprintf(buf, n, "%s (%s, %s)", a->pattern, a->datatype, a->grid_none);
}

/* The patterns whose library's switch rules the across-np model does not follow for want of
 * a unit (cf_across.grid_none), in one warning line. */
void cf_out_fit_across_grid_none(const cf_across_set *as)
{
    char list[512 + ACROSS_TAIL];
    if (across_list(as, grid_none_item, list, sizeof list))
        cf_warn("across np, no np=2 fitted and no unit reads the smallest np's times through "
                "the MPI library's switch rules (within x%.2f at every size): %s; across np "
                "these follow the fitted formula, not the rules",
                exp(CF_UNIT_MISS_MAX), list);
}

/* One line per reason a pattern has no across-np model, naming every pattern it holds
 * for (a laptop's table has one np: every collective), and what predict does instead. */
void cf_out_fit_across_notes(const cf_across_set *as, const cf_fit *fits, size_t nfits)
{
    size_t n = as->n;
    unsigned char *done = calloc(n + 1, 1);
    if (done == NULL)
        return;
    const char *p2p_err = as->have_p2p && as->pp.error[0] != '\0' ? as->pp.error : NULL;
    for (size_t i = 0; i < n; i++) {
        const char *why = as->a[i].error;
        if (done[i] || why[0] == '\0')
            continue;
        size_t cap = 256, len = 0;
        char *list = malloc(cap);
        for (size_t j = i; j < n && list != NULL; j++) {
            const cf_across *a = &as->a[j];
            if (done[j] || strcmp(a->error, why) != 0)
                continue;
            done[j] = 1;
            /* A pattern no np could be fitted at (a barrier imported with one sample) is
             * not fitted per np either: the skipped warning said why. */
            int fitted = 0;
            for (size_t k = 0; k < nfits && !fitted; k++)
                fitted = strcmp(fits[k].pattern, a->pattern) == 0 &&
                         strcmp(fits[k].datatype, a->datatype) == 0;
            if (!fitted)
                continue;
            const char *dt = a->datatype;
            char item[CF_PATTERN_MAX + CF_DATATYPE_MAX + 8];
            if (strcmp(dt, "byte") == 0 || strcmp(dt, "float") == 0)
                snprintf(item, sizeof item, "%s", a->pattern);
            else
                snprintf(item, sizeof item, "%s (%s)", a->pattern, dt);
            if (len + strlen(item) + 3 > cap) {
                char *nl = realloc(list, cap = 2 * cap + strlen(item));
                if (nl == NULL) {
                    free(list);
                    list = NULL;
                    break;
                }
                list = nl;
            }
            len += (size_t)snprintf(list + len, cap - len, "%s%s", len ? ", " : "", item);
        }
        if (list == NULL)
            break;
        if (len == 0) {
            free(list);
            continue;
        }
        if (p2p_err == NULL)
            cf_msg("%s: fitted per np only, %s; predict answers other np with the "
                   "point-to-point estimate",
                   list, why);
        else
            cf_msg("%s: fitted per np only, %s; predict has no answer at other np (no "
                   "point-to-point estimate: %s)",
                   list, why, p2p_err);
        free(list);
    }
    free(done);
}


void cf_out_fit_detail(FILE *fp, const cf_fit *f)
{
    summary_line(fp, f);
    gain_table(fp, f);
}

static void fit_name(const cf_fit *f, char *buf, size_t n);

void cf_out_fit_summary(FILE *fp, const cf_fit_summary *s, const char *formulas, int verbose)
{
    if (formulas == NULL && !verbose) {
        cf_out_fit_table(fp, s);
        return;
    }
    for (size_t i = 0; i < s->nfits; i++) {
        if (formulas != NULL) {
            char buf[4096];
            cf_fit_formula(&s->fits[i], formulas, buf, sizeof buf);
            /* The text form names no fit of its own (the code forms' function names do,
             * the latex one its subscript): the fit's name before it, as in the summary. */
            if (strcmp(formulas, "text") == 0) {
                char name[160];
                fit_name(&s->fits[i], name, sizeof name);
                fprintf(fp, "%s%s: ", name,
                        strcmp(s->fits[i].model, "loggp") == 0 ? " (loggp)" : "");
            }
            fprintf(fp, "%s\n", buf);
        } else {
            cf_out_fit_detail(fp, &s->fits[i]);
        }
    }
}

/* "allgather np 2", with the datatype where it is not the plain one ("vector"). */
static void fit_name(const cf_fit *f, char *buf, size_t n)
{
    if (strcmp(f->datatype, "byte") == 0 || strcmp(f->datatype, "float") == 0)
        snprintf(buf, n, "%s np %d", f->pattern, f->np);
    else
        snprintf(buf, n, "%s np %d %s", f->pattern, f->np, f->datatype);
}

/* What a fit's line flags, briefly; the warnings below say more. */
static void notes_text(const cf_fit *f, char *buf, size_t n)
{
    size_t l = 0;
    buf[0] = '\0';
#define NOTE(...) l += (size_t)snprintf(buf + l, l < n ? n - l : 0, __VA_ARGS__)
    if (isfinite(f->q.loo_mape) && f->q.loo_mape > CF_POOR_LOO)
        NOTE("%spoor", l ? ", " : "");
    if (f->nrejected > 0)
        NOTE("%s%zu rejected", l ? ", " : "", f->nrejected);
    if (f->nset_aside > 0)
        NOTE("%s%zu set aside", l ? ", " : "", f->nset_aside);
    if (f->ngain > 0) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < f->ngain; i++) {
            lo = fmin(lo, f->gain[i].gain_pct);
            hi = fmax(hi, f->gain[i].gain_pct);
        }
        NOTE("%sgain over pack %+.0f%% to %+.0f%%", l ? ", " : "", lo, hi);
    }
#undef NOTE
    if (l >= n && n > 0)
        buf[n - 1] = '\0';
}

/* A percentage for the table: two significant digits, "<0.1%" for an exact fit's
 * rounding noise, so that the column stays narrow. */
static void table_pct(double frac, char *buf, size_t n)
{
    if (isfinite(frac) && frac < 0.001)
        snprintf(buf, n, "<0.1%%");
    else
        pct_text(frac, buf, n);
}

void cf_out_fit_table(FILE *fp, const cf_fit_summary *s)
{
    size_t wp = strlen("pattern"), wd = strlen("datatype"), wm = strlen("model");
    for (size_t i = 0; i < s->nfits; i++) {
        const cf_fit *f = &s->fits[i];
        wp = strlen(f->pattern) > wp ? strlen(f->pattern) : wp;
        wd = strlen(f->datatype) > wd ? strlen(f->datatype) : wd;
        wm = strlen(f->model) > wm ? strlen(f->model) : wm;
    }
    fprintf(fp, "%-*s %5s  %-*s  %-*s %3s %4s %6s %6s %7s %12s  %s\n", (int)wp, "pattern", "np",
            (int)wd, "datatype", (int)wm, "model", "seg", "n", "loo", "max", "R2", "r_inf_MiBps", "notes");
    for (size_t i = 0; i < s->nfits; i++) {
        const cf_fit *f = &s->fits[i];
        char loo[32], max[32], r2[32] = "-", rinf[32] = "-", notes[256];
        table_pct(f->q.loo_mape, loo, sizeof loo);
        table_pct(f->q.max_rel_err, max, sizeof max);
        if (isfinite(f->q.r2))
            snprintf(r2, sizeof r2, "%.4f", f->q.r2);
        if (f->sat.valid)
            bw_text(f->sat.rinf_MiBps, rinf, sizeof rinf);
        notes_text(f, notes, sizeof notes);
        fprintf(fp, "%-*s %5d  %-*s  %-*s %3d %4d %6s %6s %7s %12s", (int)wp, f->pattern, f->np,
                (int)wd, f->datatype, (int)wm, f->model, f->nseg, f->q.n, loo, max, r2, rinf);
        if (notes[0] != '\0')
            fprintf(fp, "  %s", notes);
        fputc('\n', fp);
    }
}

/* A growing ", "-separated list of fit names. */
typedef struct namelist {
    char *s;
    size_t len, cap, n;
} namelist;

static void namelist_add(namelist *l, const char *item)
{
    size_t need = l->len + strlen(item) + 3;
    if (need > l->cap) {
        size_t cap = 2 * need + 64;
        char *p = realloc(l->s, cap);
        if (p == NULL)
            return;
        l->s = p;
        l->cap = cap;
    }
    l->len += (size_t)snprintf(l->s + l->len, l->cap - l->len, "%s%s", l->len ? ", " : "", item);
    l->n++;
}

/* The kind of a fit's warning: its words before the first ':', when none of them is a
 * number ("piecewise not chosen"; "L = -0.3 us clamped to 0" has none); else the whole
 * text, each its own kind. */
static size_t kind_len(const char *w)
{
    size_t k = strcspn(w, ":");
    if (w[k] != ':')
        return strlen(w);
    for (size_t i = 0; i < k; i++)
        if ((w[i] >= '0' && w[i] <= '9') && (i == 0 || strchr(" =(-+", w[i - 1]) != NULL))
            return strlen(w);
    return k;
}

static int is_poor_warning(const cf_fit *f, const char *w)
{
    return isfinite(f->q.loo_mape) && f->q.loo_mape > CF_POOR_LOO &&
           strncmp(w, "poor fit:", 9) == 0;
}

/* Every fit's warnings of the kind of warnings[j] of fit i, from there on, into one line;
 * marks them done. */
static void warn_kind(const cf_fit_summary *s, size_t i, size_t j, unsigned char **done)
{
    const char *w0 = s->fits[i].warnings[j];
    size_t k0 = kind_len(w0);
    namelist l = {0};
    size_t last = s->nfits; /* the fit named last: one name per fit */
    for (size_t a = i; a < s->nfits; a++) {
        const cf_fit *f = &s->fits[a];
        for (size_t b = a == i ? j : 0; done[a] != NULL && b < f->nwarnings; b++) {
            const char *w = f->warnings[b];
            if (done[a][b] || is_poor_warning(f, w) || kind_len(w) != k0 ||
                strncmp(w, w0, k0) != 0)
                continue;
            done[a][b] = 1;
            char name[CF_PATTERN_MAX + CF_DATATYPE_MAX + 32];
            fit_name(f, name, sizeof name);
            if (a != last)
                namelist_add(&l, name);
            last = a;
        }
    }
    static const char not_chosen[] = " not chosen";
    size_t nc = sizeof not_chosen - 1;
    if (k0 == strlen(w0))
        cf_warn("%zu fit%s: %s: %s", l.n, l.n == 1 ? "" : "s", w0, l.s ? l.s : "");
    else if (k0 > nc && strncmp(w0 + k0 - nc, not_chosen, nc) == 0)
        /* "poly2 not chosen: why", each fit's own why (auto.c): what it means, once. */
        cf_warn("%zu fit%s chose another model than %.*s, whose fit gave a time or variance "
                "that cannot be (negative, not finite) or a time falling with size (commfit fit "
                "--verbose says which, and where): %s",
                l.n, l.n == 1 ? "" : "s", (int)(k0 - nc), w0, l.s ? l.s : "");
    else
        cf_warn("%zu fit%s %.*s: %s", l.n, l.n == 1 ? "" : "s", (int)k0, w0, l.s ? l.s : "");
    free(l.s);
}

void cf_out_fit_skipped(const cf_fit_summary *s)
{
    for (size_t i = 0; i < s->nskipped; i++) {
        const cf_error *k = &s->skipped[i];
        if (k->file[0] != '\0' && k->line > 0)
            cf_warn("skipped: %s:%ld: %s", k->file, k->line, k->msg);
        else
            cf_warn("skipped: %s", k->msg);
    }
}

void cf_out_fit_warnings(const cf_fit_summary *s)
{
    namelist poor = {0}, aside = {0};
    size_t said = 0;
    for (size_t i = 0; i < s->nfits; i++) {
        const cf_fit *f = &s->fits[i];
        char name[CF_PATTERN_MAX + CF_DATATYPE_MAX + 48], pct[32];
        fit_name(f, name, sizeof name);
        if (f->nset_aside > 0)
            namelist_add(&aside, name);
        if (isfinite(f->q.loo_mape) && f->q.loo_mape > CF_POOR_LOO) {
            pct_text(f->q.loo_mape, pct, sizeof pct);
            size_t l = strlen(name);
            snprintf(name + l, sizeof name - l, " (%s)", pct);
            namelist_add(&poor, name);
        }
    }
    if (poor.n > 0)
        cf_warn("%zu fit%s poor (leave-one-out > %.0f%%; predictions rough): %s", poor.n,
                poor.n == 1 ? "" : "s", 100 * CF_POOR_LOO, poor.s);
    said += poor.n;
    unsigned char **done = calloc(s->nfits + 1, sizeof *done);
    for (size_t i = 0; done != NULL && i < s->nfits; i++)
        done[i] = calloc(s->fits[i].nwarnings + 1, 1);
    for (size_t i = 0; done != NULL && i < s->nfits; i++) {
        const cf_fit *f = &s->fits[i];
        for (size_t j = 0; done[i] != NULL && j < f->nwarnings; j++) {
            if (done[i][j] || is_poor_warning(f, f->warnings[j]))
                continue;
            warn_kind(s, i, j, done);
            said++;
        }
    }
    for (size_t i = 0; done != NULL && i < s->nfits; i++)
        free(done[i]);
    free(done);
    cf_out_fit_skipped(s);
    said += s->nskipped;
    if (aside.n > 0)
        cf_msg("%zu fit%s %s smallest sizes aside as a no-op (MPI returns at once from a "
               "call without data): %s",
               aside.n, aside.n == 1 ? "" : "s", aside.n == 1 ? "set its" : "set their", aside.s);
    if (said > 0 || aside.n > 0)
        cf_msg("commfit fit --verbose shows each fit in detail, with its warnings");
    free(poor.s);
    free(aside.s);
}
