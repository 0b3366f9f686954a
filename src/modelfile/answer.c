/* The answer order, in one place: predict and report both ask it which source answers. */
#include "config.h"

#include "modelfile/answer.h"

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
