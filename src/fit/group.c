/* Fitting one (pattern, np, datatype) group: the rows a no-op set aside, the kind chosen
 * from the table (datatype and constant where the data asks for them), then its fit,
 * saturation and formula. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/collective.h"
#include "base/size.h"
#include "fit/model.h"

/* Whether a row carries no data: 0 bytes, or for a reduction (MPI_FLOAT, count =
 * bytes/4) less than one element. */
static int empty_row(const cf_row *r)
{
    return r->bytes == 0 || (r->bytes < 4 && strcmp(r->datatype, "float") == 0);
}

/* MPICH returns at once from a collective that carries no data: a no-op far below what
 * the smallest sizes with data cost, which no model of the others can follow (gather:
 * 0.009 us at 0 B, 0.27 us at 1 B). The empty rows (leading: rows are sorted by size)
 * are such a no-op when their mean time is below half of what the straight line through
 * the three smallest sizes with data gives at 0 B. Returns how many rows to set aside,
 * with their mean time and that value. */
static size_t noop_rows(const cf_fit_input *in, double *t_empty, double *t_line)
{
    size_t k = 0;
    double sum = 0;
    while (k < in->n && empty_row(in->rows[k]))
        sum += cf_row_time(in->rows[k++], in->stat);
    if (k == 0 || k == in->n)
        return 0;
    *t_empty = sum / (double)k;
    /* The mean time of each of the (up to) three smallest sizes after them. */
    double m[3], t[3];
    size_t ns = 0;
    for (size_t i = k, j; i < in->n && ns < 3; i = j) {
        double st = 0;
        for (j = i; j < in->n && in->rows[j]->bytes == in->rows[i]->bytes; j++)
            st += cf_row_time(in->rows[j], in->stat);
        m[ns] = (double)in->rows[i]->bytes;
        t[ns++] = st / (double)(j - i);
    }
    double mm = 0, mt = 0, smm = 0, smt = 0;
    for (size_t i = 0; i < ns; i++) {
        mm += m[i] / (double)ns;
        mt += t[i] / (double)ns;
    }
    for (size_t i = 0; i < ns; i++) {
        smm += (m[i] - mm) * (m[i] - mm);
        smt += (m[i] - mm) * (t[i] - mt);
    }
    *t_line = smm > 0 ? mt - smt / smm * mm : mt;
    return *t_line > 0 && *t_empty < 0.5 * *t_line ? k : 0;
}

/* The first nskip rows of in_all, set aside as a no-op (noop_rows), into out with why: the
 * model file lists them, predict names them. -1 when out of memory. */
static int set_aside_fill(cf_fit *out, const cf_fit_input *in_all, size_t nskip, double t_empty,
                          double t_line)
{
    if ((out->set_aside = calloc(nskip, sizeof *out->set_aside)) == NULL)
        return -1;
    char sizes[80], at[32];
    cf_size_range_format(in_all->rows[0]->bytes, in_all->rows[nskip - 1]->bytes, sizes,
                         sizeof sizes);
    cf_size_format(in_all->rows[nskip]->bytes, at, sizeof at);
    snprintf(out->set_aside_why, sizeof out->set_aside_why,
             "a no-op: %s took %.3g us, below half of the %.3g us the smallest sizes "
             "give at 0 B (MPI returns at once from a call without data); fitted from %s",
             sizes, t_empty, t_line, at);
    for (size_t i = 0; i < nskip; i++) {
        const cf_row *r = in_all->rows[i];
        cf_rejected *q = &out->set_aside[out->nset_aside++];
        cf_prediction p;
        q->bytes = r->bytes;
        q->blocks = r->blocks;
        q->t_us = cf_row_time(r, in_all->stat);
        q->rel_err = cf_fit_predict_blocks(out, (double)r->bytes, r->blocks, &p) == 0 && p.t_us != 0
                         ? (q->t_us - p.t_us) / p.t_us
                         : NAN;
    }
    return 0;
}

/* A collective at np 2 whose slowest rank finished in less than a quarter of the time the
 * ping-pong of the same table takes to move as many bytes between the same two ranks. At
 * np 2 some rank of every sized collective receives the other's m bytes (the buffer, its
 * block, the other's vector), so no algorithm can; the times are not transfers: a
 * simulator's algorithm that skips the data (SMPI 3.32's ompi bcast on ranks that share a
 * host), a broken timer. Only where the ping-pong's time is four times its smallest size's
 * or more (the bytes, not the latency, set it: no skew between the ranks' starts hides a
 * transfer that long). Warns on out, with the sizes, the times and the bound. */
#define PAIR_BOUND_FACTOR 4.0
int cf_pattern_pair_bound_applies(const char *pattern)
{
    const cf_coll *c = cf_pattern_facts(pattern);
    return c != NULL && c->nmsg == 0 && !c->two_only && c->sized;
}

int cf_fit_pair_bound_applies(const cf_fit *f)
{
    return cf_pattern_pair_bound_applies(f->pattern) && f->np >= 2 &&
           f->kind != &cf_model_datatype;
}

double cf_pair_bound_us(const cf_row *const *all, size_t nall, cf_statistic stat,
                        uint64_t bytes)
{
    /* The ping-pong at np 2: its smallest size's time, and the time at the largest size no
     * larger than bytes. */
    double t0 = NAN, bound = NAN;
    uint64_t b0 = 0, at = 0;
    for (size_t i = 0; i < nall; i++) {
        const cf_row *p = all[i];
        if (strcmp(p->pattern, "pingpong") != 0 || p->np != 2 || strcmp(p->datatype, "byte") != 0)
            continue;
        double t = cf_row_time(p, stat);
        if (!isnan(t) && (isnan(t0) || p->bytes < b0)) {
            b0 = p->bytes;
            t0 = t;
        }
        if (p->bytes <= bytes && (isnan(bound) || p->bytes > at)) {
            at = p->bytes;
            bound = t;
        }
    }
    return t0 > 0 && bound >= PAIR_BOUND_FACTOR * t0 ? bound : NAN;
}

int cf_row_no_transfer(const cf_row *r, double bound_us)
{
    return bound_us > 0 && r->t_max_us < bound_us / PAIR_BOUND_FACTOR;
}

static void pair_bound_warn(cf_fit *out, const cf_fit_input *in)
{
    /* Past np 2 a rank may take a faster path than the ping-pong's (two ranks of a node,
     * where the ping-pong crossed two): only where the ping-pong's ran inside one node. */
    if (!cf_fit_pair_bound_applies(out) || in->all == NULL || (out->np > 2 && !in->pair_in_node))
        return;
    /* Sizes, not rows: a size repeated (runs, several tables) counts once. */
    int n = 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    double tmin = INFINITY, tmax = 0, bmin = INFINITY, bmax = 0;
    unsigned char *flagged = calloc(in->n ? in->n : 1, 1);
    if (flagged == NULL)
        return; /* a warning left out, not a fit */
    for (size_t k = 0; k < in->n; k++) {
        const cf_row *r = in->rows[k];
        double bound = cf_pair_bound_us(in->all, in->nall, in->stat, r->bytes);
        if (!cf_row_no_transfer(r, bound))
            continue;
        int seen = 0;
        for (size_t j = 0; j < k && !seen; j++)
            seen = flagged[j] && in->rows[j]->bytes == r->bytes;
        n += !seen;
        lo = r->bytes < lo ? r->bytes : lo;
        hi = r->bytes > hi ? r->bytes : hi;
        flagged[k] = 1;
        tmin = fmin(tmin, r->t_max_us);
        tmax = fmax(tmax, r->t_max_us);
        bmin = fmin(bmin, bound);
        bmax = fmax(bmax, bound);
    }
    free(flagged);
    if (n == 0)
        return;
    out->pair_from_bytes = lo;
    out->pair_to_bytes = hi;
    char sizes[80], ts[64], bs[64];
    cf_size_range_format(lo, hi, sizes, sizeof sizes);
    snprintf(ts, sizeof ts, tmin < tmax ? "%.3g-%.3g" : "%.3g", tmin, tmax);
    snprintf(bs, sizeof bs, bmin < bmax ? "%.3g-%.3g" : "%.3g", bmin, bmax);
    cf_fit_warn(out,
                "faster than its ping-pong moves the bytes: at %s (%d size%s) the slowest "
                "rank took %s us, under a quarter of the %s us the ping-pong at np 2 takes for "
                "as many bytes; %s, so these times are not transfers (a simulator's algorithm "
                "that skips the data, a broken timer) and predictions from them come out too "
                "fast",
                sizes, n, n == 1 ? "" : "s", ts, bs,
                out->np == 2 ? "at np 2 a rank of this collective receives all of them"
                             : "a rank of this collective receives a message of as many "
                               "bytes (or as many in parts), by no path faster than the "
                               "ping-pong's, which ran inside one node");
}

int cf_fit_group(const char *kind_name, const cf_fit_input *in_all, cf_fit *out, cf_error *e)
{
    memset(out, 0, sizeof *out);
    if (in_all->n == 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "%s: no rows to fit", in_all->what);
    for (size_t i = 0; i < in_all->n; i++) {
        double t = cf_row_time(in_all->rows[i], in_all->stat);
        if (!(t > 0) || !isfinite(t)) {
            char size[32];
            cf_size_format(in_all->rows[i]->bytes, size, sizeof size);
            return cf_fit_row_error(in_all, in_all->rows[i], e,
                                    "%s: the row at %s has no %s time: expected a "
                                    "positive number (choose another --statistic)",
                                    in_all->what, size, cf_statistic_name(in_all->stat));
        }
    }
    double t_empty = NAN, t_line = NAN;
    size_t nskip = strcmp(kind_name, "loggp") == 0 ? 0 : noop_rows(in_all, &t_empty, &t_line);
    cf_fit_input sub = *in_all;
    sub.rows += nskip;
    sub.n -= nskip;
    const cf_fit_input *in = &sub;
    const cf_row *r0 = in->rows[0];
    snprintf(out->pattern, sizeof out->pattern, "%s", r0->pattern);
    snprintf(out->datatype, sizeof out->datatype, "%s", r0->datatype);
    out->np = r0->np;
    out->min_bytes = out->max_bytes = r0->bytes;
    out->min_blocks = out->max_blocks = r0->blocks;
    size_t sizes = 0;
    for (size_t i = 0; i < in->n; i++) {
        const cf_row *r = in->rows[i];
        if (in->weights == CF_WEIGHTS_VARIANCE && !(r->t_ci95_us > 0)) {
            char size[32];
            cf_size_format(r->bytes, size, sizeof size);
            return cf_fit_row_error(in, r, e,
                                    "%s: the row at %s has no positive t_ci95_us: "
                                    "--weights variance needs it (use relative)",
                                    in->what, size);
        }
        sizes += i == 0 || r->bytes != in->rows[i - 1]->bytes;
        if (r->bytes < out->min_bytes)
            out->min_bytes = r->bytes;
        if (r->bytes > out->max_bytes)
            out->max_bytes = r->bytes;
        if (r->blocks < out->min_blocks)
            out->min_blocks = r->blocks;
        if (r->blocks > out->max_blocks)
            out->max_blocks = r->blocks;
    }
    const cf_model_kind *kind = cf_model_kind_find(kind_name);
    if (kind == NULL)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "unknown model '%s'", kind_name);
    /* Derived-datatype rows over several block counts take the T(m, b) model; a pattern
     * measured without data only (barrier) takes a constant, whatever was asked. */
    if (out->min_blocks != out->max_blocks && kind != &cf_model_loggp)
        kind = &cf_model_datatype;
    else if (out->max_bytes == 0 && kind != &cf_model_loggp)
        kind = &cf_model_constant;
    if (sizes < (size_t)kind->min_sizes)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                            "%s: %zu distinct size%s: the %s model needs at least %d", in->what,
                            sizes, sizes == 1 ? "" : "s", kind->name, kind->min_sizes);
    int rc = kind->fit(in, out, e);
    if (rc != 0) {
        cf_fit_clear(out);
        return rc;
    }
    out->blocks = out->kind == &cf_model_datatype ? out->min_blocks : 0;
    if (out->kind != &cf_model_datatype)
        cf_saturation_fill(out, in);
    else
        cf_saturation_fill(out, &(cf_fit_input){.n = 0});
    for (int k = 0; k < out->nseg; k++)
        for (int j = 0; j < out->ncoef; j++)
            if (!isfinite(out->seg[k].coef[j])) {
                cf_fit_clear(out);
                return cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                                    "%s: the fit gave a non-finite coefficient", in->what);
            }
    cf_fit_size_backtest(out, in);
    cf_fit_blocks_backtest(out, in);
    if (nskip > 0 && set_aside_fill(out, in_all, nskip, t_empty, t_line) != 0) {
        cf_fit_clear(out);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    pair_bound_warn(out, in);
    cf_fit_formula(out, "text", out->formula, sizeof out->formula);
    return 0;
}
