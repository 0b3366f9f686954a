/* The backtest of a datatype fit in block count: T(m, b) refitted without the largest
 * measured count and read at its rows, as predict reads beyond the measured counts, and the
 * same one and two counts further in (without the two largest, read at the second largest;
 * ...); at the other end likewise, where the counts start above 1. How far those readings
 * miss, per doubling of b, is what the fit's residuals cannot say of a count it never saw (a
 * cost per block that grows with the count, a stride that leaves a cache); predict widens
 * its interval by it for every doubling of b beyond the measured counts (cf_fit_predict), as
 * it does in size (size-backtest.c). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "fit/model.h"

/* As the backtest in size: a high quantile of the misses, as the model answers at any
 * count beyond and the misses of one count go together (one cost per block). */
#define BACKTEST_QUANTILE 0.9

/* A reading of 0 or less misses by more than any factor: a thousandfold. */
#define MISS_MAX 1e3

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The distinct block counts of in's rows, increasing, into v (room for in->n); how many. */
static size_t counts_of(const cf_fit_input *in, int *v)
{
    for (size_t i = 0; i < in->n; i++)
        v[i] = in->rows[i]->blocks;
    qsort(v, in->n, sizeof *v, cmp_int);
    size_t k = 0;
    for (size_t i = 0; i < in->n; i++)
        if (k == 0 || v[i] != v[k - 1])
            v[k++] = v[i];
    return k;
}

/* The misses of sub at in's rows of block count held, |ln(read / measured)| per doubling of b
 * beyond sub's counts (one at least: a count within one doubling is read at one, not
 * magnified by the fraction of one it lies at), into v; how many. */
static int misses(const cf_fit *sub, const cf_fit_input *in, int held, double *v)
{
    double edge = held > sub->max_blocks ? sub->max_blocks : sub->min_blocks;
    double d = fmax(1.0, fabs(log2((double)held / edge)));
    int k = 0;
    for (size_t i = 0; i < in->n; i++) {
        const cf_row *r = in->rows[i];
        double t = cf_row_time(r, in->stat);
        cf_prediction p;
        if (r->blocks != held || !(t > 0) ||
            cf_fit_predict_unwidened(sub, (double)r->bytes, (double)held, &p) != 0)
            continue;
        double miss = p.t_us > 0 && isfinite(p.t_us) ? fabs(log(t / p.t_us)) : log(MISS_MAX);
        v[k++] = fmin(miss, log(MISS_MAX)) / d;
    }
    return k;
}

/* One end of f's counts (above: up > 0, the largest counts held out; below: the smallest),
 * its counts cnt[0 .. k), into *out; v and rows are room for in->n each. A refit keeps 2
 * counts at least, which the datatype model needs. */
static void one_end(const cf_fit *f, const cf_fit_input *in, const int *cnt, size_t k, int up,
                    double *v, const cf_row **rows, cf_blocks_end *out)
{
    memset(out, 0, sizeof *out);
    int nv = 0;
    for (size_t c = 1; c <= CF_BLOCKS_BACKTEST_CUTS && c + 2 <= k; c++) {
        int held = up ? cnt[k - c] : cnt[c - 1];
        size_t n = 0;
        for (size_t i = 0; i < in->n; i++)
            if (up ? in->rows[i]->blocks < held : in->rows[i]->blocks > held)
                rows[n++] = in->rows[i];
        cf_fit sub;
        if (cf_fit_refit(f, in, rows, n, &sub) != 0)
            break;
        int got = misses(&sub, in, held, v + nv);
        if (c == 1)
            out->fitted_blocks = up ? sub.max_blocks : sub.min_blocks;
        cf_fit_clear(&sub);
        if (got == 0)
            break;
        nv += got;
        out->refits = (int)c;
    }
    if (nv > 0) {
        cf_sort_doubles(v, (size_t)nv);
        out->n = nv;
        out->err_per_doubling = v[(int)(BACKTEST_QUANTILE * (nv - 1) + 0.5)];
    } else {
        memset(out, 0, sizeof *out);
    }
}

void cf_fit_blocks_backtest(cf_fit *f, const cf_fit_input *in)
{
    memset(&f->bbt, 0, sizeof f->bbt);
    if (f->kind != &cf_model_datatype || f->blocks <= 0 || in->n == 0)
        return;
    int *cnt = malloc(in->n * sizeof *cnt);
    double *v = malloc(in->n * sizeof *v);
    const cf_row **rows = malloc(in->n * sizeof *rows);
    if (cnt != NULL && v != NULL && rows != NULL) {
        size_t k = counts_of(in, cnt);
        one_end(f, in, cnt, k, 1, v, rows, &f->bbt.above);
        /* Below a fit from 1 block no count lies: nothing to widen there. */
        if (cnt[0] > 1)
            one_end(f, in, cnt, k, 0, v, rows, &f->bbt.below);
    }
    free(cnt);
    free(v);
    free(rows);
}
