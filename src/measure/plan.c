/* commfit measure's plan: the points a run visits, in order, and the plan text a table
 * keeps so that --resume can take it back. No MPI here. */
#include "config.h"

#include "measure/measure.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/measure-int.h"

int cf_measure_needs_two(const cf_measure_opts *o)
{
    if (o->ddt)
        return 1;
    for (size_t i = 0; i < o->npats; i++)
        if (o->pats[i]->facts->two_only)
            return 1;
    return 0;
}

static int np_listed(const cf_measure_opts *o, long np)
{
    for (size_t i = 0; i < o->nnps; i++)
        if (o->nps[i] == np)
            return 1;
    return 0;
}

/* Whether pattern p runs at np. */
int cf_measure_runs_at(const cf_measure_opts *o, const cf_pattern *p, long np)
{
    return p->facts->two_only ? np == 2 : np_listed(o, np);
}

/* The process counts the plan visits: the --np list, and 2 for the two-rank patterns. */
size_t cf_measure_block_nps(const cf_measure_opts *o, long *out)
{
    size_t k = 0;
    int two = cf_measure_needs_two(o);
    for (size_t i = 0; i < o->nnps; i++) {
        if (two && o->nps[i] > 2 && (k == 0 || out[k - 1] < 2))
            out[k++] = 2;
        out[k++] = o->nps[i];
    }
    if (two && (k == 0 || out[k - 1] < 2))
        out[k++] = 2;
    return k;
}

int cf_measure_appendf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(*buf ? *buf + *len : NULL, *buf ? *cap - *len : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            return -1;
        if (*buf && *len + (size_t)n < *cap) {
            *len += (size_t)n;
            return 0;
        }
        size_t nc = (*cap ? *cap : 256) * 2 + (size_t)n;
        char *nb = realloc(*buf, nc);
        if (nb == NULL)
            return -1;
        *buf = nb;
        *cap = nc;
    }
}

int cf_measure_append_run(char **buf, size_t *len, size_t *cap, const char *value, long n)
{
    const char *sep = *len > 0 ? ";" : "";
    if (n > 1)
        return cf_measure_appendf(buf, len, cap, "%s%s*%ld", sep, value, n);
    return cf_measure_appendf(buf, len, cap, "%s%s", sep, value);
}

int cf_measure_plan_text(const cf_measure_opts *o, char **out)
{
    char *b = NULL;
    size_t len = 0, cap = 0;
    int bad = cf_measure_appendf(&b, &len, &cap, "--patterns ");
    for (size_t i = 0; i < o->npats; i++)
        bad |= cf_measure_appendf(&b, &len, &cap, "%s%s", i ? "," : "", o->pats[i]->facts->pattern);
    if (o->ddt)
        bad |= cf_measure_appendf(&b, &len, &cap, "%sddt", o->npats ? "," : "");
    bad |= cf_measure_appendf(&b, &len, &cap, " --sizes ");
    for (size_t i = 0; i < o->nsizes; i++)
        bad |= cf_measure_appendf(&b, &len, &cap, "%s%llu", i ? "," : "", (unsigned long long)o->sizes[i]);
    bad |= cf_measure_appendf(&b, &len, &cap, " --np ");
    for (size_t i = 0; i < o->nnps; i++)
        bad |= cf_measure_appendf(&b, &len, &cap, "%s%ld", i ? "," : "", o->nps[i]);
    /* The shortest form that reads back to the same number (--resume reads it): 0.3, not
     * 0.29999999999999999. */
    double mt = o->max_time_s > 0 ? o->max_time_s : CF_MEASURE_MAX_TIME_S;
    char mts[32];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(mts, sizeof mts, "%.*g", digits, mt);
        if (strtod(mts, NULL) == mt)
            break;
    }
    bad |= cf_measure_appendf(&b, &len, &cap, " --samples %ld --max-time %s",
                              o->samples ? o->samples : CF_MEASURE_SAMPLES, mts);
    if (o->reps > 0)
        bad |= cf_measure_appendf(&b, &len, &cap, " --reps %ld", o->reps);
    if (o->target_ci > 0)
        bad |= cf_measure_appendf(&b, &len, &cap, " --target-ci %.17g", o->target_ci);
    if (o->check)
        bad |= cf_measure_appendf(&b, &len, &cap, " --check");
    if (o->off_cache)
        bad |= cf_measure_appendf(&b, &len, &cap, " --off-cache");
    if (o->no_sync)
        bad |= cf_measure_appendf(&b, &len, &cap, " --no-sync");
    if (o->root_shift)
        bad |= cf_measure_appendf(&b, &len, &cap, " --root-shift");
    if (o->ddt && o->blocks_arg != NULL) {
        bad |= cf_measure_appendf(&b, &len, &cap, " --blocks ");
        for (size_t i = 0; i < o->nblocks; i++)
            bad |= cf_measure_appendf(&b, &len, &cap, "%s%ld", i ? "," : "", o->blocks[i]);
    }
    if (o->ddt && o->ddt_kinds != CF_DDT_ALL_KINDS) {
        bad |= cf_measure_appendf(&b, &len, &cap, " --datatypes ");
        for (int k = 0, first = 1; k < CF_DDT_NKINDS; k++)
            if (o->ddt_kinds & (1u << k)) {
                bad |= cf_measure_appendf(&b, &len, &cap, "%s%s", first ? "" : ",",
                               cf_ddt_kind_name((cf_ddt_kind)k));
                first = 0;
            }
    }
    if (bad) {
        free(b);
        return -1;
    }
    *out = b;
    return 0;
}

static int already_done(const cf_measure_opts *o, const cf_pattern *p, long np, uint64_t bytes)
{
    if (o->done == NULL)
        return 0;
    for (size_t i = 0; i < o->done->n_rows; i++) {
        const cf_row *r = &o->done->rows[i];
        if (r->np == np && r->bytes == bytes && strcmp(r->pattern, p->facts->pattern) == 0 &&
            strcmp(r->datatype, p->facts->datatype) == 0)
            return 1;
    }
    return 0;
}

/* A derived-datatype point is done when a row has its datatype, payload, blocks and
 * layout (pack rows of different layouts share the rest). */
static int ddt_done(const cf_measure_opts *o, const cf_ddt_shape *s)
{
    if (o->done == NULL || o->done->n_extra != 1 + CF_DDT_NEXTRA)
        return 0;
    const char *kind = cf_ddt_kind_name(s->kind), *layout = cf_ddt_kind_name(s->layout);
    size_t nl = strlen(layout);
    for (size_t i = 0; i < o->done->n_rows; i++) {
        const cf_row *r = &o->done->rows[i];
        /* extra is "stop,layout,..." */
        const char *l = r->extra ? strchr(r->extra, ',') : NULL;
        if (r->np == 2 && r->bytes == s->bytes && r->blocks == s->blocks &&
            strcmp(r->pattern, "pingpong") == 0 && strcmp(r->datatype, kind) == 0 &&
            l != NULL && strncmp(l + 1, layout, nl) == 0 && (l[1 + nl] == ',' || !l[1 + nl]))
            return 1;
    }
    return 0;
}

int cf_measure_plan(const cf_measure_opts *o, cf_measure_point **out, size_t *n)
{
    long *bnp = malloc((o->nnps + 1) * sizeof *bnp);
    size_t cap = (o->nnps + 1) * o->npats * (o->nsizes ? o->nsizes : 1) + o->nddts;
    cf_measure_point *v = malloc((cap ? cap : 1) * sizeof *v);
    if (bnp == NULL || v == NULL) {
        free(bnp);
        free(v);
        return -1;
    }
    size_t nb = cf_measure_block_nps(o, bnp), k = 0;
    for (size_t b = 0; b < nb; b++) {
        for (size_t i = 0; i < o->npats; i++) {
            const cf_pattern *p = o->pats[i];
            if (!cf_measure_runs_at(o, p, bnp[b]))
                continue;
            for (size_t j = 0; j < (p->facts->sized ? o->nsizes : 1); j++) {
                uint64_t bytes = p->facts->sized ? o->sizes[j] : 0;
                if (!cf_kernel_whole(p, bytes) || already_done(o, p, bnp[b], bytes))
                    continue;
                v[k].pat = p;
                v[k].np = (int)bnp[b];
                v[k].bytes = bytes;
                v[k].ddt = NULL;
                k++;
            }
        }
        /* The derived datatypes are ping-pongs: at np=2, after the patterns. */
        if (bnp[b] != 2)
            continue;
        for (size_t i = 0; i < o->nddts; i++) {
            if (ddt_done(o, &o->ddts[i]))
                continue;
            v[k].pat = cf_pattern_find("pingpong");
            v[k].np = 2;
            v[k].bytes = o->ddts[i].bytes;
            v[k].ddt = &o->ddts[i];
            k++;
        }
    }
    free(bnp);
    *out = v;
    *n = k;
    return 0;
}

int cf_measure_plan_unwhole(const cf_measure_opts *o, char *buf, size_t n)
{
    char pats[256] = "", sizes[256] = "";
    size_t lp = 0, ls = 0;
    for (size_t i = 0; i < o->npats; i++) {
        const cf_pattern *p = o->pats[i];
        int any = 0;
        for (size_t j = 0; p->facts->sized && j < o->nsizes; j++)
            any |= !cf_kernel_whole(p, o->sizes[j]);
        if (any && lp < sizeof pats)
            lp += (size_t)snprintf(pats + lp, sizeof pats - lp, "%s%s", lp ? ", " : "",
                                   p->facts->pattern);
    }
    if (lp == 0)
        return 0;
    for (size_t j = 0; j < o->nsizes; j++)
        if (o->sizes[j] % 4 != 0 && ls < sizeof sizes)
            ls += (size_t)snprintf(sizes + ls, sizeof sizes - ls, "%s%llu B", ls ? ", " : "",
                                   (unsigned long long)o->sizes[j]);
    snprintf(buf, n, "%s: %s hold%s no whole 4-byte float: not measured for them (as IMB's "
             "reductions)", pats, sizes, strchr(sizes, ',') ? "" : "s");
    return 1;
}

int cf_measure_plan_few_sizes(const cf_measure_opts *o, char *buf, size_t n)
{
    char pats[256] = "";
    size_t lp = 0, fewest = SIZE_MAX;
    for (size_t i = 0; i < o->npats; i++) {
        const cf_pattern *p = o->pats[i];
        if (!p->facts->sized || p->group != CF_PG_ALL)
            continue;
        /* A collective of 0 bytes may return at once, and fit then sets it aside (a no-op,
         * where its time is below half the line through the smallest sizes'): not counted. */
        size_t k = 0;
        for (size_t j = 0; j < o->nsizes; j++)
            k += cf_kernel_whole(p, o->sizes[j]) && (p->facts->nmsg > 0 || o->sizes[j] > 0);
        /* One size is a point measured for itself; two look like a range to fit. */
        if (k >= CF_PLAN_FIT_SIZES || k < 2)
            continue;
        fewest = k < fewest ? k : fewest;
        if (lp < sizeof pats)
            lp += (size_t)snprintf(pats + lp, sizeof pats - lp, "%s%s", lp ? ", " : "",
                                   p->facts->pattern);
    }
    if (lp == 0)
        return 0;
    snprintf(buf, n, "%s: %zu sizes, where commfit fit needs %d a pattern and np (a "
             "collective's 0 B not counted: fit sets it aside where MPI returns at once): fit "
             "may skip them unless fitted with a table of other sizes; measure %d sizes or "
             "more (--sizes) to fit this table alone",
             pats, fewest, CF_PLAN_FIT_SIZES, CF_PLAN_FIT_SIZES);
    return 1;
}

double cf_measure_left_s(const cf_measure_point *pts, size_t done, size_t total,
                         const double *dur, int scale_np)
{
    if (done == 0 || done > total)
        return -1.0;
    double left = 0.0, mean = 0.0;
    int np = 0; /* the np of mean: the largest np done whose points were all read */
    size_t i = 0, j = done;
    while (i < done) { /* the done points' mean at each np, in order */
        size_t a = i;
        double sum = 0.0;
        for (; i < done && pts[i].np == pts[a].np; i++)
            sum += dur[i];
        np = pts[a].np;
        mean = sum / (double)(i - a);
    }
    for (; j < total; j++)
        left += pts[j].np == np || !scale_np ? mean : mean * (double)pts[j].np / (double)np;
    return left;
}
