/* The derived datatypes: their gain over the pack baseline, and their time against the
 * block count; the bandwidth plots are in report-plot-ddt-bw.c. */
#include "config.h"

#include "report/report-plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/size.h"
#include "base/stats.h"
#include "fit/fitting.h"
#include "fit/formula.h"

/* Open symbols for the pack baseline, one for each line type's filled one. */
const int cf_plot_open_pt[9] = {6, 6, 4, 8, 10, 12, 6, 4, 8};

/* The pack baseline of row x at a block count: the pack of x's own layout (pack_DATATYPE)
 * at the same np, bytes and block count, else a pack row that names no layout. The
 * selection s is one np, sorted by blocks then bytes. */
static const cf_row *pack_for(const cf_sel *s, const cf_row *x, int blocks)
{
    char mine[CF_DATATYPE_MAX + 8];
    snprintf(mine, sizeof mine, "pack_%s", x->datatype);
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const cf_row *p = cf_sel_row(s, mid);
        if (p->blocks < blocks || (p->blocks == blocks && p->bytes < x->bytes))
            lo = mid + 1;
        else
            hi = mid;
    }
    const cf_row *any = NULL;
    for (size_t i = lo; i < s->n; i++) {
        const cf_row *p = cf_sel_row(s, i);
        if (p->blocks != blocks || p->bytes != x->bytes)
            break;
        if (strcmp(p->datatype, mine) == 0)
            return p;
        if (strcmp(p->datatype, "pack") == 0)
            any = p;
    }
    return any;
}

/* Whether row x of datatype dt has a gain to show at this block count (blocks < 0: at its
 * own). A row without a block count (a contiguous baseline) belongs to every one. */
static const cf_row *gain_pack(const cf_sel *s, const cf_row *x, const char *dt, int blocks)
{
    if (x->bytes == 0 || strcmp(x->datatype, dt) != 0)
        return NULL;
    if (blocks < 0)
        return pack_for(s, x, x->blocks);
    if (x->blocks != blocks && x->blocks != 0)
        return NULL;
    return pack_for(s, x, blocks);
}

/* The fit of the pack baseline of datatype dt: of its layout, else of plain pack. */
static const cf_fit *pack_fit(const cf_report *r, const char *pattern, int np, const char *dt)
{
    char mine[CF_DATATYPE_MAX + 8];
    snprintf(mine, sizeof mine, "pack_%s", dt);
    const cf_fit *f = cf_report_fit(r, pattern, np, mine);
    return f ? f : cf_report_fit(r, pattern, np, "pack");
}

typedef struct gain_pt {
    const cf_row *x, *pack;
} gain_pt;

static int cmp_gain_pt(const void *a, const void *b)
{
    const cf_row *x = ((const gain_pt *)a)->x, *y = ((const gain_pt *)b)->x;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? -1 : 1;
    return (x->blocks > y->blocks) - (x->blocks < y->blocks);
}

/* The points of datatype dt with a gain at this block count, sorted by size; how many. */
static size_t gain_points(const cf_sel *s, const char *dt, int blocks, gain_pt *out)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        const cf_row *x = cf_sel_row(s, i), *p = gain_pack(s, x, dt, blocks);
        if (p != NULL)
            out[n++] = (gain_pt){x, p};
    }
    qsort(out, n, sizeof *out, cmp_gain_pt);
    return n;
}

/* Gain of the datatypes marked in use (at one block count, or each at its own when blocks
 * < 0) against the message size. */
static int plot_gain(cf_report *r, const cf_sel *s, const cf_plot_names *dts, const unsigned char *use, int np,
                     int name_np, int blocks, int name_blocks, gain_pt *pts, cf_error *e)
{
    const char *pattern = cf_sel_row(s, 0)->pattern;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t d = 0; d < dts->n; d++) {
        size_t n = use[d] ? gain_points(s, dts->v[d], blocks, pts) : 0;
        for (size_t i = 0; i < n; i++) {
            lo = pts[i].x->bytes < lo ? pts[i].x->bytes : lo;
            hi = pts[i].x->bytes > hi ? pts[i].x->bytes : hi;
        }
    }
    if (hi == 0)
        return 0;

    char npart[32], bpart[32];
    snprintf(npart, sizeof npart, "np%d", np);
    snprintf(bpart, sizeof bpart, "b%d", blocks);
    char name[CF_PLOT_NAME_MAX], title[256], caption[1400];
    cf_script_name(name, sizeof name, "gain", pattern, name_np ? npart : NULL,
                   blocks < 0    ? "varying"
                   : name_blocks ? bpart
                                 : NULL);
    if (blocks < 0)
        snprintf(title, sizeof title,
                 "%s, np=%d: gain over pack of the datatypes whose block count grows with the "
                 "size",
                 pattern, np);
    else if (blocks > 0)
        snprintf(title, sizeof title, "%s, np=%d, %d block%s: gain of each datatype over pack",
                 pattern, np, blocks, blocks > 1 ? "s" : "");
    else
        snprintf(title, sizeof title, "%s, np=%d: gain of each datatype over pack", pattern, np);
    cf_script sc;
    int rc = cf_script_open(&sc, r, name, title, e);
    if (rc != 0)
        return rc;
    cf_script_pow2_axis(sc.gp, "x", lo, hi, 1);
    fputs("set xlabel 'message size (bytes; K = 1024)'\n"
          "set ylabel 'gain over pack (%)'\nset format y '%g'\n"
          "set arrow from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#808080' dt 2\n",
          sc.gp);
    int lt = 0, fitted = 0;
    for (size_t d = 0; d < dts->n; d++) {
        size_t n = use[d] ? gain_points(s, dts->v[d], blocks, pts) : 0;
        if (n == 0)
            continue;
        lt++;
        cf_script_block(&sc, dts->v[d], "bytes gain_pct t_us t_pack_us blocks");
        for (size_t i = 0; i < n; i++) {
            double t = cf_report_row_time(r, pts[i].x), tp = cf_report_row_time(r, pts[i].pack);
            fprintf(sc.dat, "%llu %.6g %.6g %.6g %d\n", (unsigned long long)pts[i].x->bytes,
                    cf_stats_gain_pct(t, tp), t, tp, pts[i].x->blocks);
        }
        const cf_fit *f = cf_report_fit(r, pattern, np, dts->v[d]);
        const cf_fit *pf = pack_fit(r, pattern, np, dts->v[d]);
        char how[64], t[96];
        snprintf(how, sizeof how, "using 1:2 with %s lt %d", f && pf ? "points" : "linespoints",
                 lt);
        snprintf(t, sizeof t, "%s%s", dts->v[d], f && pf ? " measured" : "");
        cf_script_curve(&sc, how, t);
        if (f == NULL || pf == NULL)
            continue;
        cf_script_block(&sc, dts->v[d], "bytes gain_pct (of the fits)");
        double m0 = (double)pts[0].x->bytes, m1 = (double)pts[n - 1].x->bytes;
        /* At one block count the fits give a smooth curve; where the block count follows
         * the size they are evaluated at the measured (size, blocks). */
        int k_max = blocks < 0 ? (int)n - 1 : 60;
        for (int k = 0; k <= k_max; k++) {
            double m = blocks < 0 ? (double)pts[k].x->bytes : m0 * pow(m1 / m0, k / 60.0);
            double b = blocks < 0 ? pts[k].x->blocks : blocks;
            cf_prediction a, pp;
            if (cf_fit_predict_blocks(f, m, b, &a) != 0 ||
                cf_fit_predict_blocks(pf, m, b, &pp) != 0 || !(pp.t_us > 0))
                continue;
            fprintf(sc.dat, "%.6g %.6g\n", m, cf_stats_gain_pct(a.t_us, pp.t_us));
        }
        snprintf(how, sizeof how, "using 1:2 with lines lt %d", lt);
        snprintf(t, sizeof t, "%s from the fits", dts->v[d]);
        cf_script_curve(&sc, how, t);
        fitted++;
    }
    snprintf(caption, sizeof caption,
             "Gain of sending each derived datatype directly over packing the same layout "
             "(MPI_Pack, a contiguous send, MPI_Unpack), in percent of the pack time, against "
             "the message size: 100 (T_pack - T_datatype) / T_pack. Above zero the datatype "
             "is faster.%s%s",
             blocks < 0 ? " The block count of these datatypes grows with the size (one "
                          "block per element), so each point is at its own block count."
                        : "",
             fitted ? " Lines are the same gain computed from the fitted models of the "
                      "datatype and of its pack, T(m, b) = alpha + beta m + gamma b."
                    : "");
    return cf_script_close(&sc, CF_SEC_DDT, title, caption, e);
}

/* The size a derived-datatype row was asked for: measure rounds a payload down to whole
 * blocks of floats (a vector of 100 blocks carries 65200 of 65536 bytes), which never
 * halves it, so the rows of one request share the power of two at or above their bytes. */
static uint64_t asked_group(uint64_t bytes)
{
    uint64_t p = 1;
    while (p < bytes && p < ((uint64_t)1 << 62))
        p <<= 1;
    return p;
}

/* What the layout of datatype dt carries of a request of m bytes cut into b blocks (as
 * measure plans it: floats, equal blocks for vector and hvector, the remainder in the last
 * block otherwise); 0 when b blocks do not fit (more blocks than floats). */
static double payload_at(const char *dt, double m, double b)
{
    const char *layout = strncmp(dt, "pack_", 5) == 0 ? dt + 5 : dt;
    double floats = floor(m / 4);
    if (b < 1 || b > floats)
        return 0;
    if (strcmp(layout, "vector") == 0 || strcmp(layout, "hvector") == 0)
        return 4 * b * floor(floats / b);
    return 4 * floats;
}

/* One time-against-blocks plot being drawn. */
typedef struct blocks_plot {
    cf_report *r;
    const cf_sel *s; /* the rows of one np */
    cf_sel d;        /* of them, the datatype's with blocks */
    const char *datatype;
    const cf_fit *f;
    int packs;   /* the pack baseline is drawn beside */
    int rounded; /* some row carries less than its request */
    char pack_name[CF_DATATYPE_MAX + 8];
} blocks_plot;

/* The requests measured at two block counts or more, increasing, into usable. */
static size_t blocks_requests(const cf_sel *d, uint64_t *groups, uint64_t *usable)
{
    size_t n_groups = 0, n_usable = 0;
    for (size_t i = 0; i < d->n; i++) {
        uint64_t g = asked_group(cf_sel_row(d, i)->bytes);
        int seen = 0;
        for (size_t j = 0; j < n_groups && !seen; j++)
            seen = groups[j] == g;
        if (!seen)
            groups[n_groups++] = g;
    }
    qsort(groups, n_groups, sizeof *groups, cf_plot_cmp_u64);
    for (size_t j = 0; j < n_groups; j++) {
        int first = -1, two = 0;
        for (size_t i = 0; i < d->n && !two; i++) {
            const cf_row *x = cf_sel_row(d, i);
            if (asked_group(x->bytes) != groups[j])
                continue;
            if (first < 0)
                first = x->blocks;
            two = x->blocks != first;
        }
        if (two)
            usable[n_usable++] = groups[j];
    }
    return n_usable;
}

/* The fit at the measured block counts of request group, and between them where the
 * layout carries nearly all of the request (at 71 blocks a vector carries 284 of 512
 * bytes: a dip that no point shows). */
static void blocks_fit_curve(const blocks_plot *B, cf_script *sc, uint64_t group,
                             uint64_t asked, int b_lo, int b_hi)
{
    const cf_sel *d = &B->d;
    size_t i = 0;
    long last = 0;
    for (int k = 0; k <= 40; k++) {
        long b = lround(b_lo * pow((double)b_hi / b_lo, k / 40.0));
        for (; i < d->n && (k == 40 || cf_sel_row(d, i)->blocks <= b); i++) {
            const cf_row *x = cf_sel_row(d, i);
            cf_prediction p;
            if (asked_group(x->bytes) != group || x->blocks == last ||
                cf_fit_predict_blocks(B->f, (double)x->bytes, x->blocks, &p) != 0 ||
                !(p.t_us > 0))
                continue;
            last = x->blocks;
            fprintf(sc->dat, "%d %.6g %llu\n", x->blocks, p.t_us, (unsigned long long)x->bytes);
        }
        double m = payload_at(B->datatype, (double)asked, (double)b);
        cf_prediction p;
        if (b <= last || m < 0.9 * (double)asked ||
            cf_fit_predict_blocks(B->f, m, (double)b, &p) != 0 || !(p.t_us > 0))
            continue;
        last = b;
        fprintf(sc->dat, "%ld %.6g %.6g\n", b, p.t_us, m);
    }
}

/* The pack baseline of request group at the same block counts, in colour lt. */
static void blocks_pack_curve(blocks_plot *B, cf_script *sc, uint64_t group, int lt)
{
    int any = 0;
    for (size_t i = 0; i < B->d.n; i++) {
        const cf_row *x = cf_sel_row(&B->d, i), *p;
        if (asked_group(x->bytes) != group || (p = pack_for(B->s, x, x->blocks)) == NULL)
            continue;
        if (any++ == 0)
            cf_script_block(sc, "pack of the same layout", "blocks t_us");
        snprintf(B->pack_name, sizeof B->pack_name, "%s", p->datatype);
        fprintf(sc->dat, "%d %.6g\n", x->blocks, cf_report_row_time(B->r, p));
    }
    if (any == 0)
        return;
    char how[96];
    snprintf(how, sizeof how, "using 1:2 with linespoints lt %d dt 2 lw 1 pt %d", lt,
             cf_plot_open_pt[lt < 9 ? lt : 1]);
    cf_script_curve(sc, how, NULL);
}

/* The curves of one request group in colour lt: its points, the fit, the pack. */
static void blocks_request(blocks_plot *B, cf_script *sc, uint64_t group, int lt)
{
    const cf_sel *d = &B->d;
    /* The request: the largest payload of its rows, carried whole where the blocks
     * divide it. */
    uint64_t asked = 0;
    int b_lo = 0, b_hi = 0;
    for (size_t i = 0; i < d->n; i++) {
        const cf_row *x = cf_sel_row(d, i);
        if (asked_group(x->bytes) != group)
            continue;
        asked = x->bytes > asked ? x->bytes : asked;
        b_lo = b_lo == 0 || x->blocks < b_lo ? x->blocks : b_lo;
        b_hi = x->blocks > b_hi ? x->blocks : b_hi;
    }
    char size[32], how[96];
    cf_size_format(asked, size, sizeof size);
    cf_script_block(sc, size, "blocks t_us t_lo_us t_hi_us bytes (carried by the layout)");
    for (size_t i = 0; i < d->n; i++) {
        const cf_row *x = cf_sel_row(d, i);
        if (asked_group(x->bytes) != group)
            continue;
        double tm, tlo, thi;
        cf_plot_time_bounds(B->r, x, &tm, &tlo, &thi);
        fprintf(sc->dat, "%d %.6g %.6g %.6g %llu\n", x->blocks, tm, tlo, thi,
                (unsigned long long)x->bytes);
        B->rounded |= x->bytes != asked;
    }
    snprintf(how, sizeof how, "using 1:2:3:4 with %s lt %d", B->f ? "yerrorbars" : "yerrorlines",
             lt);
    cf_script_curve(sc, how, size);
    if (B->f != NULL) {
        cf_script_block(sc, size, "blocks t_us bytes (of the fit, at what the layout carries)");
        blocks_fit_curve(B, sc, group, asked, b_lo, b_hi);
        snprintf(how, sizeof how, "using 1:2 with lines lt %d", lt);
        cf_script_curve(sc, how, NULL);
    }
    if (B->packs)
        blocks_pack_curve(B, sc, group, lt);
}

/* What the line styles mean, once, in black (the colours are the sizes), and the
 * caption. */
static void blocks_key_caption(const blocks_plot *B, cf_script *sc, const char *pattern,
                               char *caption, size_t n)
{
    char t[CF_FORMULA_MAX + 192];
    if (B->f != NULL) {
        cf_plot_fit_title(t, sizeof t, "", B->f);
        char pb[512];
        size_t k = strlen(t);
        if (cf_fit_per_block_text(B->f, pb, sizeof pb) > 0 && k < sizeof t) {
            /* One segment's cost a line where they are several: on one line they ran past
             * the widest canvas (gnuplot: "difficulty fitting plot titles into key"). */
            int split = strlen(pb) > 100;
            k += (size_t)snprintf(t + k, sizeof t - k, ";\n      ");
            for (const char *q = pb; *q != '\0' && k + 8 < sizeof t; q++) {
                if (split && q[0] == ')' && q[1] == ',' && q[2] == ' ') {
                    k += (size_t)snprintf(t + k, sizeof t - k, "),\n      ");
                    q += 2;
                } else {
                    t[k++] = *q;
                    t[k] = '\0';
                }
            }
            if (k < sizeof t)
                snprintf(t + k, sizeof t - k, " (95%%)");
        }
        cf_script_key(sc, "with lines lc rgb '#000000'", t);
    }
    if (B->packs) {
        snprintf(t, sizeof t, "%s measured (MPI_Pack of the same layout, contiguous send)",
                 B->pack_name);
        cf_script_key(sc, "with linespoints lc rgb '#000000' dt 2 lw 1 pt 6", t);
    }
    snprintf(caption, n,
             "Time per call of %s with datatype %s against the number of blocks the data is "
             "cut into, log-log, one colour per message size. %s; bars are the 95%% "
             "confidence interval. A rising curve is the cost per block. Each size's curve "
             "goes over the block counts measured at it: a block holds one float at least, "
             "so a small message has few.%s%s%s",
             pattern, B->datatype, cf_plot_points_note(B->r),
             B->rounded ? " A size is the payload asked for: at a block count that does not "
                          "divide it the layout carries a little less (whole blocks of floats), "
                          "as measured (the data file gives the bytes of each point)."
                        : "",
             B->f ? " Solid lines are the fitted model T(m, b) at each size (its formula in "
                    "the key), at the bytes the layout carries."
                  : "",
             B->packs ? " Open symbols on dashed lines are the pack baseline of the same "
                        "layout at the same size: where they lie below the datatype, packing "
                        "is faster."
                      : "");
}

/* Time against the block count at a few sizes, with the pack of the same layout beside.
 * A size is a request: its rows at different block counts carry what the layout takes of
 * it, and its curve goes over the block counts measured at it, no further. */
static int plot_blocks(cf_report *r, const cf_sel *s, const char *datatype, int np, int name_np,
                       cf_error *e)
{
    const char *pattern = cf_sel_row(s, 0)->pattern;
    blocks_plot B = {.r = r, .s = s, .d = {s->t, NULL, 0}, .datatype = datatype,
                     .pack_name = "pack"};
    B.d.idx = malloc((s->n + 1) * sizeof *B.d.idx);
    uint64_t *groups = malloc((s->n + 1) * sizeof *groups);
    uint64_t *blocks = malloc((s->n + 1) * sizeof *blocks);
    uint64_t *usable = malloc((s->n + 1) * sizeof *usable);
    uint64_t pick[CF_PLOT_MAX_SIZES];
    int rc = 0;
    if (B.d.idx == NULL || groups == NULL || blocks == NULL || usable == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < s->n; i++)
        if (cf_sel_row(s, i)->np == np && cf_sel_row(s, i)->blocks > 0 &&
            strcmp(cf_sel_row(s, i)->datatype, datatype) == 0)
            B.d.idx[B.d.n++] = s->idx[i];
    size_t n_blocks = cf_sel_distinct(&B.d, 'b', blocks);
    if (n_blocks < 2)
        goto done;
    size_t n_usable = blocks_requests(&B.d, groups, usable);
    if (n_usable == 0)
        goto done;
    /* With the pack baseline each size draws two curves: fewer sizes keep it readable.
     * The spread keeps the largest request, the one measured at every block count. */
    for (size_t i = 0; i < B.d.n && !B.packs && !cf_report_is_pack(datatype); i++)
        B.packs = pack_for(s, cf_sel_row(&B.d, i), cf_sel_row(&B.d, i)->blocks) != NULL;
    size_t n_pick = cf_report_spread(usable, n_usable,
                                     B.packs ? CF_PLOT_MAX_SIZES - 1 : CF_PLOT_MAX_SIZES, pick);
    B.f = cf_report_fit(r, pattern, np, datatype);

    char npart[32];
    snprintf(npart, sizeof npart, "np%d", np);
    char name[CF_PLOT_NAME_MAX], title[256], caption[1600];
    cf_script_name(name, sizeof name, "blocks", pattern, name_np ? npart : NULL, datatype);
    snprintf(title, sizeof title, "%s, np=%d, %s: time per call vs number of blocks", pattern, np,
             datatype);
    cf_script sc;
    if ((rc = cf_script_open(&sc, r, name, title, e)) != 0)
        goto done;
    cf_script_counts_axis(sc.gp, "x", blocks, n_blocks);
    fputs("set xlabel 'blocks'\n", sc.gp);
    cf_script_time_axis(sc.gp);
    for (size_t j = 0; j < n_pick; j++)
        blocks_request(&B, &sc, pick[j], (int)j + 1);
    blocks_key_caption(&B, &sc, pattern, caption, sizeof caption);
    rc = cf_script_close(&sc, CF_SEC_DDT, title, caption, e);
done:
    free(B.d.idx);
    free(groups);
    free(blocks);
    free(usable);
    return rc;
}

int cf_plots_ddt(cf_report *r, const char *pattern, cf_error *e)
{
    cf_sel s;
    cf_plot_names dts = {NULL, 0};
    if (cf_sel_rows(r->table, pattern, NULL, 1, &s, e) != 0)
        return CF_EXIT_DATA;
    uint64_t *nps = malloc((s.n + 1) * sizeof *nps);
    uint64_t *blocks = malloc((s.n + 1) * sizeof *blocks);
    gain_pt *pts = malloc((s.n + 1) * sizeof *pts);
    unsigned char *regular = NULL, *varying = NULL;
    int rc = 0;
    if (nps == NULL || blocks == NULL || pts == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto done;
    }
    if ((rc = cf_plot_names_collect(r->table, 1, pattern, &dts, e)) != 0)
        goto done;
    regular = calloc(dts.n + 1, 1);
    varying = calloc(dts.n + 1, 1);
    if (regular == NULL || varying == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto done;
    }
    size_t n_np = cf_sel_distinct(&s, 'n', nps);
    for (size_t j = 0; j < n_np && rc == 0; j++) {
        int np = (int)nps[j];
        /* The selection is sorted by np first: the rows of this np are one run. */
        size_t first = 0;
        while (first < s.n && cf_sel_row(&s, first)->np != np)
            first++;
        cf_sel at = {s.t, s.idx + first, 0};
        while (first + at.n < s.n && cf_sel_row(&s, first + at.n)->np == np)
            at.n++;
        size_t n_blocks = cf_sel_distinct(&at, 'b', blocks);
        if (n_blocks > 1 && blocks[0] == 0) {
            memmove(blocks, blocks + 1, (n_blocks - 1) * sizeof *blocks);
            n_blocks--;
        }
        /* A datatype gets a curve in the plot of each block count it was measured at
         * over two sizes or more; one whose block count follows the size (struct: a
         * block per element) has one point per block count, and a plot of its own. */
        int any_varying = 0;
        for (size_t d = 0; d < dts.n; d++) {
            regular[d] = varying[d] = 0;
            if (cf_report_is_pack(dts.v[d]))
                continue;
            size_t most = 0;
            for (size_t b = 0; b < n_blocks; b++) {
                size_t n = gain_points(&at, dts.v[d], (int)blocks[b], pts);
                most = n > most ? n : most;
            }
            regular[d] = most >= 2;
            varying[d] = most == 1 && gain_points(&at, dts.v[d], -1, pts) >= 2;
            any_varying |= varying[d];
        }
        for (size_t b = 0; b < n_blocks && rc == 0; b++)
            rc = plot_gain(r, &at, &dts, regular, np, n_np > 1, (int)blocks[b], n_blocks > 1, pts,
                           e);
        if (any_varying && rc == 0)
            rc = plot_gain(r, &at, &dts, varying, np, n_np > 1, -1, 1, pts, e);
        for (size_t d = 0; d < dts.n && rc == 0; d++)
            if (!cf_report_is_pack(dts.v[d]) || strcmp(dts.v[d], "pack") == 0)
                rc = plot_blocks(r, &at, dts.v[d], np, n_np > 1, e);
        for (size_t d = 0; d < dts.n && rc == 0; d++)
            if (!cf_report_is_pack(dts.v[d]))
                rc = cf_plot_bw_ddt(r, &at, dts.v[d], np, n_np > 1, e);
    }
done:
    free(regular);
    free(varying);
    free(pts);
    free(dts.v);
    free(nps);
    free(blocks);
    free(s.idx);
    return rc;
}
