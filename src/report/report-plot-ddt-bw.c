/* The bandwidth of each derived datatype against bytes, beside its contiguous and pack
 * baselines. */
#include "config.h"

#include "report/report-plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/size.h"

/* One curve of a datatype's bandwidth plot: a datatype at one block count, or (blocks < 0)
 * at every block count it has, each point at its own (the contiguous baseline; struct,
 * whose block count follows the size). */
typedef struct bw_series {
    char dt[CF_DATATYPE_MAX + 8];
    int blocks;
    int lt;
    int pack; /* the pack baseline: dashed, open symbols */
} bw_series;

#define BW_SERIES_MAX 8

static int in_series(const cf_row *x, const bw_series *c)
{
    return x->bytes > 0 && !isnan(x->bw_MiBps) && strcmp(x->datatype, c->dt) == 0 &&
           (c->blocks < 0 || x->blocks == c->blocks);
}

/* The contiguous baseline is measured at every payload any datatype carried (4096, 4092,
 * 4080, 4000 ...): beside one datatype, it is drawn at the sizes of that datatype's first
 * curve only, the same bytes. */
static int baseline_at(const cf_sel *at, const bw_series *first, uint64_t bytes)
{
    for (size_t i = 0; i < at->n; i++)
        if (cf_sel_row(at, i)->bytes == bytes && in_series(cf_sel_row(at, i), first))
            return 1;
    return 0;
}

/* Messages a call counts in the bandwidth column (a ping-pong 1), from a row. */
static int row_nmsg(const cf_row *x)
{
    double k = x->bytes > 0 && x->t_avg_us > 0 ? x->bw_MiBps * 1.048576 * x->t_avg_us / (double)x->bytes
                                              : 1;
    return k > 0.5 ? (int)lround(k) : 1;
}

/* Bandwidth against the size of datatype dt at a few block counts, beside the contiguous
 * baseline and the pack of the same layout at the same block counts, with the fits'
 * bandwidth and, where a fit has saturation figures, its r_inf. */
/* One datatype's bandwidth plot being drawn: its series and what the caption says. */
typedef struct bw_plot {
    cf_report *r;
    const cf_sel *at;
    const char *pattern, *dt;
    int np;
    bw_series cs[BW_SERIES_MAX];
    size_t n_cs;
    int varying;    /* no block count at two sizes: each point at its own */
    int contiguous; /* dt is the contiguous baseline itself */
    int have_pack, have_contig;
    int base; /* cs[0] is the contiguous baseline, cs[1] dt's first series */
    uint64_t lo, hi;
    double top;
} bw_plot;

/* The block counts of dt measured at two sizes or more into curve: each can be a curve.
 * Returns how many; *n_rows counts dt's rows with a bandwidth. */
static size_t bw_ddt_curves(const bw_plot *B, uint64_t *blocks, uint64_t *curve, size_t *n_rows)
{
    const cf_sel *at = B->at;
    size_t n_blocks = 0, n_curve = 0;
    *n_rows = 0;
    for (size_t i = 0; i < at->n; i++) {
        const cf_row *x = cf_sel_row(at, i);
        if (strcmp(x->datatype, B->dt) != 0 || x->bytes == 0 || isnan(x->bw_MiBps))
            continue;
        (*n_rows)++;
        int seen = 0;
        for (size_t j = 0; j < n_blocks && !seen; j++)
            seen = blocks[j] == (uint64_t)x->blocks;
        if (!seen)
            blocks[n_blocks++] = (uint64_t)x->blocks;
    }
    qsort(blocks, n_blocks, sizeof *blocks, cf_plot_cmp_u64);
    for (size_t j = 0; j < n_blocks; j++) {
        size_t n = 0;
        for (size_t i = 0; i < at->n; i++) {
            const cf_row *x = cf_sel_row(at, i);
            n += strcmp(x->datatype, B->dt) == 0 && x->bytes > 0 && !isnan(x->bw_MiBps) &&
                 (uint64_t)x->blocks == blocks[j];
        }
        if (n >= 2)
            curve[n_curve++] = blocks[j];
    }
    return n_curve;
}

/* The series: the contiguous baseline, then dt at a few block counts, each followed by
 * the pack of dt's own layout (else plain pack) at the same count. */
static void bw_ddt_series(bw_plot *B, const uint64_t *curve, size_t n_curve)
{
    const cf_sel *at = B->at;
    char pack[CF_DATATYPE_MAX + 8];
    snprintf(pack, sizeof pack, "pack_%s", B->dt);
    for (size_t i = 0; i < at->n; i++) {
        B->have_pack |= strcmp(cf_sel_row(at, i)->datatype, pack) == 0;
        B->have_contig |= strcmp(cf_sel_row(at, i)->datatype, "contiguous") == 0;
    }
    if (!B->have_pack) {
        snprintf(pack, sizeof pack, "pack");
        for (size_t i = 0; i < at->n; i++)
            B->have_pack |= strcmp(cf_sel_row(at, i)->datatype, pack) == 0;
    }
    B->have_pack &= !B->contiguous;
    uint64_t pick[3];
    size_t n_pick =
        B->varying ? 1 : cf_report_spread(curve, n_curve, B->have_pack ? 2 : 3, pick);
    if (B->varying)
        pick[0] = 0;
    int lt = 0;
    if (B->have_contig && !B->contiguous)
        B->cs[B->n_cs++] = (bw_series){"contiguous", -1, ++lt, 0};
    for (size_t k = 0; k < n_pick; k++) {
        bw_series c = {"", B->varying || B->contiguous ? -1 : (int)pick[k], ++lt, 0};
        snprintf(c.dt, sizeof c.dt, "%s", B->dt);
        B->cs[B->n_cs++] = c;
        if (B->have_pack) {
            bw_series p = {"", c.blocks, lt, 1};
            snprintf(p.dt, sizeof p.dt, "%s", pack);
            B->cs[B->n_cs++] = p;
        }
    }
    B->base = B->have_contig && !B->contiguous;
}

/* Whether row x is drawn in series c: the baseline only at the sizes dt has. */
static int bw_ddt_drawn(const bw_plot *B, size_t c, const cf_row *x)
{
    return in_series(x, &B->cs[c]) &&
           !(B->base && c == 0 && !baseline_at(B->at, &B->cs[1], x->bytes));
}

/* The axes hold every point, and the r_inf of a fit unless far above them. */
static void bw_ddt_bounds(bw_plot *B)
{
    B->lo = UINT64_MAX;
    B->hi = 0;
    B->top = 0;
    for (size_t c = 0; c < B->n_cs; c++)
        for (size_t i = 0; i < B->at->n; i++) {
            const cf_row *x = cf_sel_row(B->at, i);
            if (!bw_ddt_drawn(B, c, x))
                continue;
            B->lo = x->bytes < B->lo ? x->bytes : B->lo;
            B->hi = x->bytes > B->hi ? x->bytes : B->hi;
            B->top = cf_plot_row_bw(B->r, x) > B->top ? cf_plot_row_bw(B->r, x) : B->top;
        }
    double peak = B->top;
    for (size_t c = 0; c < B->n_cs; c++) {
        const cf_fit *f = cf_report_fit(B->r, B->pattern, B->np, B->cs[c].dt);
        if (f != NULL && f->sat.valid && f->sat.rinf_MiBps > B->top &&
            f->sat.rinf_MiBps < 3 * peak)
            B->top = f->sat.rinf_MiBps;
    }
}

/* The fit's bandwidth over the sizes m0 to m1 of the points: at the series' block count,
 * or at each point's own where it follows the size. */
static void bw_ddt_fit_curve(const bw_plot *B, cf_script *sc, const bw_series *cv,
                             const cf_fit *f, int nmsg, double m0, double m1)
{
    if (cv->blocks >= 0 || strcmp(cv->dt, "contiguous") == 0) {
        double b = cv->blocks >= 0 ? cv->blocks : f->blocks;
        for (int k = 0; k <= 60; k++) {
            double m = m0 * pow(m1 / m0, k / 60.0);
            cf_prediction p;
            if (cf_fit_predict_blocks(f, m, b, &p) == 0 && p.t_us > 0)
                fprintf(sc->dat, "%.6g %.6g\n", m, nmsg * m / (1.048576 * p.t_us));
        }
        return;
    }
    for (size_t i = 0; i < B->at->n; i++) {
        const cf_row *x = cf_sel_row(B->at, i);
        cf_prediction p;
        if (in_series(x, cv) && cf_fit_predict_blocks(f, (double)x->bytes, x->blocks, &p) == 0 &&
            p.t_us > 0)
            fprintf(sc->dat, "%llu %.6g\n", (unsigned long long)x->bytes,
                    nmsg * (double)x->bytes / (1.048576 * p.t_us));
    }
}

/* The fit's asymptotic bandwidth as a horizontal line across the plot. */
static void bw_ddt_rinf(const bw_plot *B, cf_script *sc, const bw_series *cv, const cf_fit *f)
{
    char how[128], t[CF_FORMULA_MAX + 256], r0[32], r1[32], r2[32];
    int w = (int)sizeof cv->dt;
    cf_script_block(sc, "r_inf", "bytes bw_MiBps");
    fprintf(sc->dat, "%.6g %.6g\n%.6g %.6g\n", (double)B->lo / 1.4, f->sat.rinf_MiBps,
            (double)B->hi * 1.4, f->sat.rinf_MiBps);
    snprintf(how, sizeof how, "using 1:2 with lines lt %d dt 4 lw 1", cv->lt);
    cf_report_bw_text(f->sat.rinf_MiBps, r0, sizeof r0);
    cf_report_bw_text(f->sat.rinf_lo_MiBps, r1, sizeof r1);
    cf_report_bw_text(f->sat.rinf_hi_MiBps, r2, sizeof r2);
    if (isfinite(f->sat.rinf_hi_MiBps))
        snprintf(t, sizeof t, "%.*s r_inf = %s MiB/s (95%%: %s to %s)", w, cv->dt, r0, r1, r2);
    else
        snprintf(t, sizeof t, "%.*s r_inf = %s MiB/s (95%%: above %s)", w, cv->dt, r0, r1);
    cf_script_curve(sc, how, t);
}

/* Series c: its points, and its fit's curve and r_inf when it has a fit. Adds to *fitted
 * and *rinf what it drew. */
static void bw_ddt_draw(const bw_plot *B, cf_script *sc, size_t c, int *fitted, int *rinf)
{
    const bw_series *cv = &B->cs[c];
    char what[sizeof cv->dt + 64], how[128], t[CF_FORMULA_MAX + 256];
    int w = (int)sizeof cv->dt;
    if (cv->blocks >= 0)
        snprintf(what, sizeof what, "%.*s, %d block%s", w, cv->dt, cv->blocks,
                 cv->blocks == 1 ? "" : "s");
    else if (strcmp(cv->dt, "contiguous") == 0)
        snprintf(what, sizeof what, "%.*s", w, cv->dt);
    else
        snprintf(what, sizeof what, "%.*s, blocks growing with the size", w, cv->dt);
    cf_script_block(sc, what, "bytes bw_MiBps bw_lo_MiBps bw_hi_MiBps blocks");
    int nmsg = 1, n = 0;
    double m0 = 0, m1 = 0;
    for (size_t i = 0; i < B->at->n; i++) {
        const cf_row *x = cf_sel_row(B->at, i);
        if (!bw_ddt_drawn(B, c, x))
            continue;
        double tm = cf_report_row_time(B->r, x), bw = cf_plot_row_bw(B->r, x);
        double rel = isnan(x->t_ci95_us) ? 0 : x->t_ci95_us / tm;
        fprintf(sc->dat, "%llu %.6g %.6g %.6g %d\n", (unsigned long long)x->bytes, bw,
                bw / (1 + rel), rel < 1 ? bw / (1 - rel) : 10 * B->top, x->blocks);
        nmsg = row_nmsg(x);
        m0 = n == 0 || (double)x->bytes < m0 ? (double)x->bytes : m0;
        m1 = (double)x->bytes > m1 ? (double)x->bytes : m1;
        n++;
    }
    const cf_fit *f = cf_report_fit(B->r, B->pattern, B->np, cv->dt);
    if (cv->pack)
        snprintf(how, sizeof how, "using 1:2:3:4 with %s lt %d pt %d",
                 f ? "yerrorbars" : "yerrorlines dt 2", cv->lt,
                 cf_plot_open_pt[cv->lt < 9 ? cv->lt : 1]);
    else
        snprintf(how, sizeof how, "using 1:2:3:4 with %s lt %d", f ? "yerrorbars" : "yerrorlines",
                 cv->lt);
    snprintf(t, sizeof t, "%s measured", what);
    cf_script_curve(sc, how, t);
    if (f == NULL)
        return;
    cf_script_block(sc, what, "bytes bw_MiBps (of the fit)");
    bw_ddt_fit_curve(B, sc, cv, f, nmsg, m0, m1);
    snprintf(how, sizeof how, "using 1:2 with lines lt %d%s", cv->lt, cv->pack ? " dt 2" : "");
    cf_plot_fit_title(t, sizeof t, what, f);
    cf_script_curve(sc, how, t);
    (*fitted)++;
    if (!f->sat.valid)
        return;
    bw_ddt_rinf(B, sc, cv, f);
    (*rinf)++;
}

static void bw_ddt_caption(const bw_plot *B, int fitted, int rinf, char *caption, size_t n)
{
    snprintf(caption, n,
             "Bandwidth of %s with datatype %s against the message size (log scale)%s%s. %s, "
             "their bandwidth the table's bw_MiBps taken at that time; bars follow the 95%% "
             "confidence interval of the time.%s%s",
             B->pattern, B->dt,
             B->varying ? ", each point at its own block count (one block per element)"
             : B->contiguous ? ""
                             : ", at the smallest and largest block counts measured over "
                               "several sizes",
             B->have_contig && !B->contiguous
                 ? ", beside the contiguous transfer of the same bytes"
                 : "",
             cf_plot_points_note(B->r),
             B->have_pack ? " Open symbols are the pack baseline of the same layout (MPI_Pack, "
                            "a contiguous send, MPI_Unpack) at the same block counts."
                          : "",
             !fitted ? ""
             : rinf  ? " Lines are the bandwidth of the fitted models (dashed for pack); a "
                       "dash-dotted horizontal line is the asymptotic bandwidth r_inf of a fit "
                       "that has saturation figures."
                     : " Lines are the bandwidth of the fitted models (dashed for pack).");
}

int cf_plot_bw_ddt(cf_report *r, const cf_sel *at, const char *dt, int np, int name_np,
                   cf_error *e)
{
    bw_plot B = {.r = r, .at = at, .pattern = cf_sel_row(at, 0)->pattern, .dt = dt, .np = np};
    uint64_t *blocks = malloc((at->n + 1) * sizeof *blocks);
    uint64_t *curve = malloc((at->n + 1) * sizeof *curve);
    int rc = 0;
    if (blocks == NULL || curve == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto done;
    }
    size_t n_rows, n_curve = bw_ddt_curves(&B, blocks, curve, &n_rows);
    B.varying = n_curve == 0 && n_rows >= 2;
    B.contiguous = strcmp(dt, "contiguous") == 0;
    if (n_curve == 0 && !B.varying)
        goto done;
    bw_ddt_series(&B, curve, n_curve);
    bw_ddt_bounds(&B);

    char npart[32];
    snprintf(npart, sizeof npart, "np%d", np);
    char name[CF_PLOT_NAME_MAX], title[256], caption[1600];
    cf_script_name(name, sizeof name, "bw", B.pattern, name_np ? npart : NULL, dt);
    snprintf(title, sizeof title, "%s, np=%d, %s: bandwidth vs message size", B.pattern, np, dt);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_pow2_axis(sc.gp, "x", B.lo, B.hi, 1);
    fputs("set xlabel 'message size (bytes; K = 1024)'\n"
          "set ylabel 'bandwidth (MiB/s)'\nset format y '%g'\nset mytics 2\n",
          sc.gp);
    fprintf(sc.gp, "set yrange [0:%.6g]\n", B.top > 0 ? 1.12 * B.top : 1);
    int fitted = 0, rinf = 0;
    for (size_t c = 0; c < B.n_cs; c++)
        bw_ddt_draw(&B, &sc, c, &fitted, &rinf);
    bw_ddt_caption(&B, fitted, rinf, caption, sizeof caption);
    rc = cf_script_close(&sc, CF_SEC_BW, title, caption, e);
done:
    free(blocks);
    free(curve);
    return rc;
}
