/* The answer order, in one place: predict and report both ask it which source answers. */
#include "config.h"

#include "modelfile/answer.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cf_answer_kind_names[] = {"fit", "across-np", "p2p-estimate"};

void cf_note_join(char *buf, size_t n, const char *part)
{
    size_t l = strlen(buf);
    if (part[0] == '\0' || l >= n)
        return;
    /* Copied, not printed: a batch joins parts for every answer. */
    size_t sep = l ? 2 : 0, k = strlen(part);
    if (l + sep + k < n) {
        memcpy(buf + l, "; ", sep);
        memcpy(buf + l + sep, part, k + 1);
        return;
    }
    size_t room = n - 1 - l; /* what fits of the separator and the part */
    memcpy(buf + l, "; ", sep < room ? sep : room);
    if (room > sep)
        memcpy(buf + l + sep, part, room - sep);
    buf[n - 1] = '\0';
    if (n >= 4) /* cut: say so rather than end mid-word */
        memcpy(buf + n - 4, "...", 4);
}

void cf_note_joinf(char *buf, size_t n, const char *fmt, ...)
{
    char part[1024], *p = part;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(part, sizeof part, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if ((size_t)k >= sizeof part && (p = malloc((size_t)k + 1)) != NULL) {
        va_start(ap, fmt);
        vsnprintf(p, (size_t)k + 1, fmt, ap);
        va_end(ap);
    }
    cf_note_join(buf, n, p != NULL ? p : part);
    if (p != part)
        free(p);
}

int cf_answer_choose(const cf_modelset *ms, const cf_across_set *as, const char *pattern,
                     const char *datatype, long np, cf_answer_source *out, char *why, size_t n)
{
    memset(out, 0, sizeof *out);
    const cf_fit *f = np > 0 ? cf_modelset_find(ms, pattern, (int)np, datatype) : NULL;
    if (f != NULL) {
        out->kind = CF_ANSWER_FIT;
        out->fit = f;
        out->bytes_min = (double)f->min_bytes;
        out->bytes_max = (double)f->max_bytes;
        return 0;
    }
    const cf_across *a = cf_across_set_find(as, pattern, datatype);
    out->across = a;
    if (a != NULL && a->error[0] == '\0') {
        out->kind = CF_ANSWER_ACROSS;
        out->bytes_min = a->bytes_min;
        out->bytes_max = a->bytes_max;
        return 0;
    }
    const cf_p2p *pp = &as->pp;
    const cf_coll *c = cf_coll_find(pattern);
    char part[256] = "";
    if (!as->have_p2p)
        snprintf(part, sizeof part, "no point-to-point parameters in the file");
    else if (pp->error[0] != '\0')
        snprintf(part, sizeof part, "no point-to-point estimate: %s", pp->error);
    else if (c == NULL)
        snprintf(part, sizeof part, "no algorithm cost known for '%s'", pattern);
    else if (strcmp(datatype, c->datatype) != 0)
        snprintf(part, sizeof part, "the point-to-point estimate is for datatype %s", c->datatype);
    else if (c->two_only && np != 2)
        snprintf(part, sizeof part, "%s is defined on 2 processes only", pattern);
    if (part[0] == '\0') {
        out->kind = CF_ANSWER_P2P;
        out->coll = c;
        out->bytes_min = pp->h.bytes_min;
        out->bytes_max = pp->h.bytes_max;
        return 0;
    }
    if (why != NULL && n > 0) {
        why[0] = '\0';
        cf_note_join(why, n, a ? a->error : "no across-np model");
        cf_note_join(why, n, part);
    }
    return CF_EXIT_DATA;
}

/* Past the largest fitted np, a gather's or a scatter's answer is that np's own answer at m
 * carried by the estimate from np=2's growth from there (at np over at that np, each read as
 * the estimate answers there, with the nodes and tiers np=2 never measured), not by the
 * across-np formula's. No rule set of the grid knows these patterns, and their formula is
 * the catalog's binomial tree along the root's path (ceil(lg p) latencies, p - 1 blocks), one
 * algorithm at every p; the estimate costs the tree in the ranks' mean the table times (2 (p
 * - 1) / p latencies) and the linear algorithm where Open MPI's rules run it (p2p.c). SMPI's
 * MPICH gather of 4 B on flat.xml fitted at np 2-7: 1.74 us at np 7, 1.80 at np 9 and 1.86
 * at np 12, read 2.32 and 2.32 by the formula's growth (3 to 4 latencies), 1.80 and 1.86 now.
 * Open MPI's of 70000 B on ethflat.xml runs linear at np 7 (227.5 us) and its binomial tree
 * at np 8 (132.6): read 246.5, now 171.6. The interval holds the formula's reading and its
 * interval, and the estimate's own reach either way about the new answer (its upper end
 * where it has one; scaled to the doublings from the fitted np alone, tried, 8 of stop 80's
 * 180 gathers fell outside). Held out (stop 80's and 81's tables fitted at np up to 7, asked at
 * 8 to 16; stop 83's, eight platforms under either selector, np 9, 11, 14): gathers' median
 * error 39.7% -> 17.5% (18 of 180 outside -> 0) and 24.9% -> 14.0%, scatters' 17.2% -> 13.8%
 * and 15.0% -> 11.1%, none outside; the median width of stop 80's scatters 14.1x -> 54.1x.
 * Not the v-patterns: their estimate's growth read worse than the formula's on stop 83's
 * (gatherv 39.4% -> 45.9%, scatterv 23.8% -> 33.0%). predict answers so (predict-answer.c's
 * estimate_growth) and report draws so (report-plot-np.c's model_at). */
int cf_answer_grows_by_estimate(const cf_across_set *as, const cf_coll *c, const char *datatype)
{
    return as->have_p2p && as->pp.error[0] == '\0' && c != NULL &&
           (c == &cf_colls[CF_PAT_GATHER] || c == &cf_colls[CF_PAT_SCATTER]) &&
           strcmp(datatype, c->datatype) == 0;
}

double cf_answer_estimate_us(const cf_placement *pl, const cf_p2p *pp, const cf_coll *c,
                             const char *datatype, const cf_unmeasured *u, long p, double m,
                             cf_estimate *e)
{
    cf_unmeasured own;
    cf_estimate mine;
    cf_tier_added add;
    if (u == NULL) {
        char ignore[2048];
        cf_placement_unmeasured(pl, p, &own, ignore, sizeof ignore);
        u = &own;
    }
    if (e == NULL)
        e = &mine;
    if (cf_placement_p2p_answer(pl, pp, c, datatype, u, p, m, e, &add) != 0 || !(e->t_us > 0) ||
        !isfinite(e->t_us))
        return NAN;
    return e->t_us;
}

int cf_answer_grow(const cf_estimate *at, double from_us, double t_from, double *t, double *lo,
                   double *hi, double *ratio)
{
    if (!(at->t_us > 0) || !isfinite(at->t_us) || !(from_us > 0) || !isfinite(from_us) ||
        !(t_from > 0) || !isfinite(t_from))
        return -1;
    double r = at->t_us / from_us, g = t_from * r;
    double glo = at->lo_us >= 0 ? g * at->lo_us / at->t_us : 0.0,
           ghi = isfinite(at->hi_us) ? g * at->hi_us / at->t_us : g;
    *lo = fmin(fmin(*lo, glo), g);
    *hi = fmax(fmax(*hi, ghi), g);
    *t = g;
    if (ratio != NULL)
        *ratio = r;
    return 0;
}
