/* The across-np and point-to-point models as text: term names, the description of a
 * model, and formulas of lines in the forms of cf_fit_formula. */
#include "config.h"

#include "fit/across.h"

#include "base/collective.h"
#include "base/size.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cf_cterm_sum_name(const cf_cterm_sum *s, char *buf, size_t n)
{
    size_t l = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->n && l < n; i++)
        l += (size_t)snprintf(buf + l, n - l, "%s%s", i ? " + " : "", cf_cterm_name(s->t[i]));
}

int cf_cterm_sum_parse(const char *name, cf_cterm_sum *out)
{
    char copy[128];
    if (strlen(name) >= sizeof copy)
        return -1;
    snprintf(copy, sizeof copy, "%s", name);
    out->n = 0;
    for (char *tok = copy, *next; tok != NULL; tok = next) {
        char *plus = strstr(tok, " + ");
        next = plus ? plus + 3 : NULL;
        if (plus)
            *plus = '\0';
        int t = cf_cterm_find(tok);
        if (t < 0 || out->n == CF_SUM_MAX)
            return -1;
        out->t[out->n++] = (cf_cterm)t;
    }
    return 0;
}

static void seg_text(const cf_across_seg *s, int with_range, char *buf, size_t n)
{
    size_t l = (size_t)snprintf(buf, n, "%s:", s->algorithm);
    for (int j = 0; j < s->nbasis && l < n; j++) {
        char name[96];
        cf_cterm_sum_name(&s->basis[j], name, sizeof name);
        int has_m = strchr(name, 'm') != NULL;
        const char *sign = s->coef[j] < 0 ? (j ? " - " : " -") : (j ? " + " : " ");
        l += (size_t)snprintf(buf + l, n - l, "%s%.4g %s * %s%s%s", sign, fabs(s->coef[j]),
                              has_m ? "us/B" : "us", s->basis[j].n > 1 ? "(" : "", name,
                              s->basis[j].n > 1 ? ")" : "");
    }
    if (with_range && l < n) {
        char a[32], b[32];
        cf_size_format((uint64_t)s->from_bytes, a, sizeof a);
        cf_size_format((uint64_t)s->to_bytes, b, sizeof b);
        snprintf(buf + l, n - l, " (%s to %s)", a, b);
    }
}

void cf_across_describe(const cf_across *a, char *buf, size_t n)
{
    size_t l = 0;
    buf[0] = '\0';
    for (int i = 0; i < a->nseg && l < n; i++) {
        char part[512];
        seg_text(&a->seg[i], a->nseg > 1, part, sizeof part);
        l += (size_t)snprintf(buf + l, n - l, "%s%s", i ? "; " : "", part);
    }
    /* The times the model was fitted to held no barrier's wait (barrier_wait_us): say so. */
    if (a->waited && l < n) {
        int k = 0; /* the largest wait taken */
        for (int i = 1; i < a->nnp; i++)
            if (a->wait_us[i] > a->wait_us[k])
                k = i;
        l += (size_t)snprintf(buf + l, n - l,
                              "; plus the barrier's wait before each call (%.3g us at np %ld)",
                              a->wait_us[k], a->np[k]);
    }
    const cf_across_grid *g = &a->grid;
    if (g->rules[0] == '\0' || l >= n)
        return;
    /* Where the cost of a step still grew between the largest measured np, say so: the
     * grid carries that growth on and its intervals widen with it; where it grew only below
     * them (step_growth_max), the upper ends widen with it. */
    if (g->step_growth > CF_GRID_CONTENTION)
        snprintf(buf + l, n - l,
                 "; answered from the measured points by %s rules; the cost per step grows"
                 " x%.2f at the largest np (contention)",
                 g->rules, g->step_growth);
    else if (g->step_growth_max > CF_GRID_CONTENTION)
        snprintf(buf + l, n - l,
                 "; answered from the measured points by %s rules; the cost per step grew up to"
                 " x%.2f over one doubling below the largest np, which the upper ends beyond it"
                 " hold again",
                 g->rules, g->step_growth_max);
    else
        snprintf(buf + l, n - l, "; answered from the measured points by %s rules", g->rules);
}

/* ---- Formulas, in the forms of cf_fit_formula ---- */

static size_t text_line(char *buf, size_t n, double c0, double c1)
{
    if (c1 == 0.0) /* a constant piece */
        return (size_t)snprintf(buf, n, "%.4g us", c0);
    if (!(c1 > 0.0))
        return (size_t)snprintf(buf, n, "%.4g us %s %.4g us/B * m", c0, c1 < 0 ? "-" : "+",
                                fabs(c1));
    double mibps = 1.0 / (c1 * 1.048576);
    if (mibps >= 1024.0)
        return (size_t)snprintf(buf, n, "%.4g us + m / (%.3g GiB/s)", c0, mibps / 1024.0);
    return (size_t)snprintf(buf, n, "%.4g us + m / (%.3g MiB/s)", c0, mibps);
}

static size_t latex_num(char *buf, size_t n, double v)
{
    char s[32];
    snprintf(s, sizeof s, "%.4g", v);
    char *ex = strchr(s, 'e');
    if (ex == NULL)
        return (size_t)snprintf(buf, n, "%s", s);
    *ex = '\0';
    return (size_t)snprintf(buf, n, "%s \\times 10^{%d}", s, (int)strtol(ex + 1, NULL, 10));
}

static size_t line_expr(char *buf, size_t n, double c0, double c1, const char *lang)
{
    if (strcmp(lang, "text") == 0)
        return text_line(buf, n, c0, c1);
    if (strcmp(lang, "latex") == 0) {
        char a[64], b[64];
        latex_num(a, sizeof a, c0);
        latex_num(b, sizeof b, fabs(c1));
        return (size_t)snprintf(buf, n, "%s %s %s\\, m", a, c1 < 0 ? "-" : "+", b);
    }
    return (size_t)snprintf(buf, n, "%.15g %s %.15g*m", c0, c1 < 0 ? "-" : "+", fabs(c1));
}

/* The pieces of a formula of lines in the form of lang: "m < x" tests and each line. */
static void piecewise_body(char *body, size_t n, char (*l)[320], int nlines, const double *sw,
                           const char *lang)
{
    size_t k = 0;
    body[0] = '\0';
    for (int i = 0; i < nlines && k < n; i++) {
        double x = i < nlines - 1 ? floor(sw[i]) : 0.0, x0 = i > 0 ? floor(sw[i - 1]) : 0.0;
        int last = i == nlines - 1;
        if (strcmp(lang, "text") == 0) {
            /* Sizes as people read them, exact (32 KiB, 4192000 B), as a fit's formula. */
            char a[32], b[32];
            cf_size_format((uint64_t)x0, a, sizeof a);
            cf_size_format((uint64_t)x, b, sizeof b);
            if (last)
                k += (size_t)snprintf(body + k, n - k, "%s (m >= %s)", l[i], a);
            else if (i == 0)
                k += (size_t)snprintf(body + k, n - k, "%s (m < %s); ", l[i], b);
            else
                k += (size_t)snprintf(body + k, n - k, "%s (%s <= m < %s); ", l[i], a, b);
        } else if (strcmp(lang, "latex") == 0) {
            if (i == 0)
                k += (size_t)snprintf(body + k, n - k, "\\begin{cases} ");
            if (last)
                k += (size_t)snprintf(body + k, n - k, "%s & \\text{otherwise} \\end{cases}",
                                      l[i]);
            else
                k += (size_t)snprintf(body + k, n - k, "%s & m < %.0f \\\\ ", l[i], x);
        } else if (strcmp(lang, "python") == 0) {
            if (last)
                k += (size_t)snprintf(body + k, n - k, "(%s)", l[i]);
            else
                k += (size_t)snprintf(body + k, n - k, "(%s) if m < %.0f else ", l[i], x);
        } else {
            if (last)
                k += (size_t)snprintf(body + k, n - k, "(%s)", l[i]);
            else
                k += (size_t)snprintf(body + k, n - k, "%sm < %.0f ? (%s) : ", i ? "" : "(", x,
                                      l[i]);
            if (last && k < n)
                k += (size_t)snprintf(body + k, n - k, ")");
        }
    }
}

/* s into out with its underscores escaped (reduce_scatter would read reduce with a subscript
 * s), ended; out has room for twice s. Returns the length written. */
static size_t latex_escape(const char *s, char *out)
{
    size_t k = 0;
    for (; *s != '\0'; s++) {
        if (*s == '_')
            out[k++] = '\\';
        out[k++] = *s;
    }
    out[k] = '\0';
    return k;
}

/* LaTeX's subscript of a formula named T_PATTERN[_DATATYPE]_npN, as a fit's formula names
 * its own: the pattern, its underscores escaped (reduce_scatter read reduce), a datatype
 * after a space, and ",\\, p=N" (without it the lines of two np read alike). */
static void latex_label(const char *name, char *lab, size_t n)
{
    const char *u = strncmp(name, "T_", 2) == 0 ? name + 2 : name, *np = strstr(u, "_np");
    while (np != NULL && strstr(np + 1, "_np") != NULL)
        np = strstr(np + 1, "_np");
    if (np != NULL && (np[3] == '\0' || strspn(np + 3, "0123456789") != strlen(np + 3)))
        np = NULL;
    char base[128];
    snprintf(base, sizeof base, "%.*s", (int)(np != NULL ? np - u : (long)strlen(u)), u);
    /* PATTERN_DATATYPE: the longest text before an underscore that names a collective is
     * the pattern (reduce_scatter_float: reduce_scatter), where base itself names none. */
    char *dt = NULL;
    if (cf_coll_find(base) == NULL)
        for (char *c = strchr(base, '_'); c != NULL; c = strchr(c + 1, '_')) {
            *c = '\0';
            if (cf_coll_find(base) != NULL)
                dt = c;
            *c = '_';
        }
    if (dt != NULL)
        *dt = '\0';
    /* base (the pattern), then the datatype after a space, underscores escaped: at most
     * twice base's 127 bytes and the space. */
    char esc[2 * sizeof base + 4];
    size_t k = latex_escape(base, esc);
    if (dt != NULL) {
        esc[k++] = '\\';
        esc[k++] = ' ';
        k += latex_escape(dt + 1, esc + k);
    }
    k = (size_t)snprintf(lab, n, "%s", esc);
    if (np != NULL && k < n)
        snprintf(lab + k, n - k, "},\\, p=%s", np + 3);
    else if (k < n)
        snprintf(lab + k, n - k, "}");
}

int cf_lines_formula(const char *name, const double *c0, const double *c1, int nlines,
                     const double *switch_at, const char *lang, char *buf, size_t n)
{
    int pw = nlines > 1 && switch_at != NULL;
    if (nlines < 1 || nlines > (pw ? CF_LINES_MAX : 2))
        return -1;
    if (nlines == 1 && c1[0] == 0.0) { /* a constant, as cf_fit_formula prints one */
        char a[64];
        if (strcmp(lang, "text") == 0)
            return snprintf(buf, n, "T = %.4g us", c0[0]);
        if (strcmp(lang, "latex") == 0) {
            char lab[200];
            latex_num(a, sizeof a, c0[0]);
            latex_label(name, lab, sizeof lab);
            return snprintf(buf, n, "T_{\\mathrm{%s} = %s \\quad [\\mu\\mathrm{s}]", lab, a);
        }
        if (strcmp(lang, "c") == 0)
            return snprintf(buf, n,
                            "static inline double %s(double m) { (void)m; return %.15g; } /* us; "
                            "m in bytes */",
                            name, c0[0]);
        if (strcmp(lang, "python") == 0)
            return snprintf(buf, n, "def %s(m): return %.15g  # us; m in bytes", name, c0[0]);
        if (strcmp(lang, "gnuplot") == 0)
            return snprintf(buf, n, "%s(m) = %.15g  # us; m in bytes", name, c0[0]);
        return -1;
    }
    char l[CF_LINES_MAX][320];
    for (int i = 0; i < nlines; i++)
        line_expr(l[i], sizeof l[i], c0[i], c1[i], lang);
    int two = nlines > 1;
    char body[CF_LINES_MAX * (sizeof l[0] + 64) + 96];
    if (pw)
        piecewise_body(body, sizeof body, l, nlines, switch_at, lang);
    if (strcmp(lang, "text") == 0) {
        if (two && !pw)
            snprintf(body, sizeof body, "min(%s, %s)", l[0], l[1]);
        else if (!two)
            snprintf(body, sizeof body, "%s", l[0]);
        return snprintf(buf, n, "T(m) = %s", body);
    }
    if (strcmp(lang, "latex") == 0) {
        if (two && !pw)
            snprintf(body, sizeof body, "\\min(%s,\\ %s)", l[0], l[1]);
        else if (!two)
            snprintf(body, sizeof body, "%s", l[0]);
        char lab[200];
        latex_label(name, lab, sizeof lab);
        return snprintf(buf, n,
                        "T_{\\mathrm{%s}(m) = %s \\quad [\\mu\\mathrm{s}; m \\text{ in "
                        "bytes}]",
                        lab, body);
    }
    int python = strcmp(lang, "python") == 0;
    if (pw)
        ;
    else if (two && strcmp(lang, "c") == 0)
        snprintf(body, sizeof body, "fmin(%s, %s)", l[0], l[1]);
    else if (two && python)
        snprintf(body, sizeof body, "min(%s, %s)", l[0], l[1]);
    else if (two)
        snprintf(body, sizeof body, "((%s) < (%s) ? (%s) : (%s))", l[0], l[1], l[0], l[1]);
    else
        snprintf(body, sizeof body, "%s", l[0]);
    if (strcmp(lang, "c") == 0)
        return snprintf(buf, n,
                        "static inline double %s(double m) { return %s; } /* us; m in bytes */",
                        name, body);
    if (python)
        return snprintf(buf, n, "def %s(m): return %s  # us; m in bytes", name, body);
    if (strcmp(lang, "gnuplot") == 0)
        return snprintf(buf, n, "%s(m) = %s  # us; m in bytes", name, body);
    return -1;
}

/* ---- Lines through an answer ---- */

/* Sizes an octave: those the lines are fitted at, and those their departure is read at. */
#define FIT_PER_OCTAVE 16
#define CHECK_PER_OCTAVE 64
/* Below this much of the line's constant over its sizes, a slope is rounding: none. */
#define FLAT_SLOPE 1e-9

/* The answer at m, and the algorithm it names there ("" for none). */
static double answer_at(cf_answer_fn f, void *ctx, double m, const char **alg)
{
    const char *a = NULL;
    double t = f(ctx, m, &a);
    *alg = a != NULL ? a : "";
    return t;
}

static int positive(double t)
{
    return t > 0.0 && isfinite(t);
}

/* The line through the answers at sizes x (times y), n of them, with least relative
 * squares ((line - y) / y); a constant through one, or where the slope is rounding. */
static void line_through(const double *x, const double *y, int n, double *c0, double *c1)
{
    double s = 0, sx = 0, sxx = 0, sy = 0, sxy = 0, top = 1.0, ymax = 0.0;
    for (int i = 0; i < n; i++)
        top = fmax(top, x[i]), ymax = fmax(ymax, y[i]);
    for (int i = 0; i < n; i++) {
        double w = (ymax / y[i]) * (ymax / y[i]), u = x[i] / top; /* 1/y^2, scaled */
        s += w, sx += w * u, sxx += w * u * u, sy += w * y[i], sxy += w * u * y[i];
    }
    double det = s * sxx - sx * sx;
    *c0 = sy / s;
    *c1 = 0.0;
    if (n < 2 || !(det > 1e-12 * s * sxx))
        return;
    double b = (s * sxy - sx * sy) / det, a = (sy - b * sx) / s;
    if (fabs(b) > FLAT_SLOPE * fabs(a)) {
        *c0 = a;
        *c1 = b / top;
    }
}

/* The constant of least relative squares through the answers y, n of them. */
static double constant_through(const double *y, int n)
{
    double s = 0.0, sy = 0.0;
    for (int i = 0; i < n; i++)
        s += 1.0 / (y[i] * y[i]), sy += 1.0 / y[i];
    return sy / s;
}

/* The largest relative departure of line (c0, c1) from the answers at x, n of them. */
static double departure(const double *x, const double *y, int n, double c0, double c1)
{
    double w = 0.0;
    for (int i = 0; i < n; i++)
        w = fmax(w, fabs(c0 + c1 * x[i] - y[i]) / y[i]);
    return w;
}

/* A range of the samples, [a, b), its line and how far that departs from them. */
typedef struct lrange {
    int a, b;
    double c0, c1, dep;
    double from;  /* its first size: x[a], or where the answer leaves the line before */
    int no_split; /* no split of it is made */
} lrange;

/* How far the lines of ranges r[0..n) depart from the answer from r[0].from to below hi,
 * read as cf_lines_departure reads them. */
static double ranges_departure(const lrange *r, int n, double hi, cf_answer_fn f, void *ctx)
{
    cf_lines L = {.n = n};
    for (int i = 0; i < n; i++)
        L.c0[i] = r[i].c0, L.c1[i] = r[i].c1, L.from[i] = r[i].from;
    double at;
    return cf_lines_departure(&L, f, ctx, r[0].from, hi - 1.0, &at);
}

/* The line of range r of the n samples; the last range's, which holds every size past the
 * top too, never falling (a falling one reaches zero past it: a new user's allreduce measured
 * faster at np=2 at 1 MiB than at 512 KiB read -409 us at 16 MiB at np 8): its constant where
 * it would. The splits below then mend what that departs from the answers up to the top. */
static void range_fit(const double *x, const double *y, int n, lrange *r)
{
    line_through(x + r->a, y + r->a, r->b - r->a, &r->c0, &r->c1);
    if (r->b == n && r->c1 < 0.0) {
        r->c0 = constant_through(y + r->a, r->b - r->a);
        r->c1 = 0.0;
    }
    r->dep = departure(x + r->a, y + r->a, r->b - r->a, r->c0, r->c1);
}

/* The samples: sizes, answers, the algorithm named at each. */
typedef struct samples {
    int n, cap;
    double *x, *t;
    const char **alg;
} samples;

static int sample_add(samples *S, double x, double t, const char *alg)
{
    if (S->n == S->cap) {
        int cap = S->cap ? 2 * S->cap : 1024;
        double *nx = realloc(S->x, (size_t)cap * sizeof *nx);
        if (nx == NULL)
            return -1;
        S->x = nx;
        double *nt = realloc(S->t, (size_t)cap * sizeof *nt);
        if (nt == NULL)
            return -1;
        S->t = nt;
        const char **na = realloc(S->alg, (size_t)cap * sizeof *na);
        if (na == NULL)
            return -1;
        S->alg = na;
        S->cap = cap;
    }
    S->x[S->n] = x, S->t[S->n] = t, S->alg[S->n++] = alg;
    return 0;
}

/* The first whole byte in (lo, hi] where the answer names another algorithm than name
 * (hi where none does below it; lo and hi whole bytes). */
static double switch_byte(cf_answer_fn f, void *ctx, double lo, double hi, const char *name)
{
    while (hi - lo > 1.0) {
        double mid = floor(0.5 * (lo + hi));
        const char *a;
        if (mid <= lo || mid >= hi)
            break;
        answer_at(f, ctx, mid, &a);
        if (strcmp(a, name) == 0)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* The first whole byte in (lo, hi] where the answer lies no nearer line l than line r (hi
 * where none does below it). */
static double leave_byte(cf_answer_fn f, void *ctx, double lo, double hi, const lrange *l,
                         const lrange *r)
{
    while (hi - lo > 1.0) {
        double mid = floor(0.5 * (lo + hi));
        const char *a;
        if (mid <= lo || mid >= hi)
            break;
        double t = answer_at(f, ctx, mid, &a);
        if (fabs(l->c0 + l->c1 * mid - t) < fabs(r->c0 + r->c1 * mid - t))
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* The line of lines (by their first sizes) that holds m. */
static int line_at(const cf_lines *L, double m)
{
    int i = 0;
    while (i + 1 < L->n && m >= L->from[i + 1])
        i++;
    return i;
}

double cf_lines_top(double top)
{
    return floor(fmin(fmax(top, 2.0), 9007199254740992.0)); /* whole bytes, 2 to 2^53 */
}

/* Where the answer at x departs from lines L more than *worst: that departure into *worst
 * and x into *at. */
static void depart_at(const cf_lines *L, cf_answer_fn f, void *ctx, double x, double *worst,
                      double *at)
{
    const char *a;
    double t = answer_at(f, ctx, x, &a);
    if (!positive(t))
        return;
    int i = line_at(L, x);
    double d = fabs(L->c0[i] + L->c1[i] * x - t) / t;
    if (!(d <= *worst)) /* a line that is no number departs without bound */
        *worst = isnan(d) ? INFINITY : d, *at = x;
}

double cf_lines_departure(const cf_lines *L, cf_answer_fn f, void *ctx, double start, double top,
                          double *at)
{
    double worst = 0.0;
    *at = start;
    top = cf_lines_top(top);
    start = fmin(start, top);
    depart_at(L, f, ctx, start, &worst, at);
    for (int i = 1; i < L->n; i++) /* each line's first byte */
        if (L->from[i] > start && L->from[i] <= top)
            depart_at(L, f, ctx, L->from[i], &worst, at);
    for (int j = 0;; j++) {
        double m = fmin(round(pow(2.0, (double)j / CHECK_PER_OCTAVE)), top);
        if (m > start) /* whole bytes: each once */
            depart_at(L, f, ctx, m, &worst, at);
        if (m >= top)
            break;
        start = fmax(start, m);
    }
    return worst;
}

int cf_lines_through(cf_answer_fn f, void *ctx, double top, cf_lines *out)
{
    memset(out, 0, sizeof *out);
    top = cf_lines_top(top);
    samples S = {0, 0, NULL, NULL, NULL};
    lrange *r = NULL;
    int rc = -2, nr = 0;
    const char *a;
    /* The sizes: 0 where the answer has a time there, then FIT_PER_OCTAVE an octave from 1 B
     * to top, whole bytes; where the algorithm changes between two, the last byte of the one
     * and the first of the next (each change, to the byte). */
    double t0 = answer_at(f, ctx, 0.0, &a);
    out->start = positive(t0) ? 0.0 : 1.0;
    out->top = top;
    if (positive(t0) && sample_add(&S, 0.0, t0, a) != 0)
        goto done;
    for (int j = 0;; j++) {
        double m = fmin(round(pow(2.0, (double)j / FIT_PER_OCTAVE)), top);
        if (S.n > 0 && m <= S.x[S.n - 1])
            continue;
        double t = answer_at(f, ctx, m, &a);
        if (!positive(t)) {
            out->worst_at = m;
            rc = -1;
            goto done;
        }
        if (S.n > 0 && strcmp(a, S.alg[S.n - 1]) != 0) {
            double lo = S.x[S.n - 1];
            const char *was = S.alg[S.n - 1];
            while (lo < m) {
                double hi = switch_byte(f, ctx, lo, m, was), th, tl;
                const char *ah, *al;
                tl = answer_at(f, ctx, hi - 1.0, &al);
                th = answer_at(f, ctx, hi, &ah);
                if (hi - 1.0 > S.x[S.n - 1] && positive(tl) && sample_add(&S, hi - 1.0, tl, al))
                    goto done;
                if (hi < m && positive(th) && sample_add(&S, hi, th, ah))
                    goto done;
                if (hi >= m || strcmp(ah, a) == 0)
                    break;
                lo = hi, was = ah; /* a third algorithm between the two sizes */
            }
        }
        if (sample_add(&S, m, t, a) != 0)
            goto done;
        if (m >= top)
            break;
    }
    /* The algorithms' ranges, listed; one line's range each to begin with. */
    if ((r = malloc((size_t)S.n * sizeof *r)) == NULL)
        goto done;
    for (int i = 0; i < S.n; i++)
        if (i == 0 || strcmp(S.alg[i], S.alg[i - 1]) != 0) {
            if (out->nalg_all < CF_LINES_ALGS) {
                out->alg[out->nalg_all] = S.alg[i];
                out->alg_from[out->nalg_all] = i ? S.x[i] : 0.0;
            }
            out->nalg_all++;
            if (nr > 0)
                r[nr - 1].b = i;
            r[nr++] = (lrange){.a = i, .from = i ? S.x[i] : 0.0};
        }
    out->nalg = out->nalg_all < CF_LINES_ALGS ? out->nalg_all : CF_LINES_ALGS;
    r[nr - 1].b = S.n;
    for (int i = 0; i < nr; i++)
        range_fit(S.x, S.t, S.n, &r[i]);
    /* Neighbours merged where one line holds both within half of CF_LINES_DEPART (the least
     * departure first), and while there are more than CF_LINES_MAX. */
    while (nr > 1) {
        int best = -1;
        lrange bm = {0};
        for (int i = 0; i + 1 < nr; i++) {
            lrange m = {r[i].a, r[i + 1].b, 0, 0, 0, r[i].from, 0};
            range_fit(S.x, S.t, S.n, &m);
            if (best < 0 || m.dep < bm.dep)
                best = i, bm = m;
        }
        if (!(bm.dep <= 0.5 * CF_LINES_DEPART) && nr <= CF_LINES_MAX)
            break;
        r[best] = bm;
        memmove(&r[best + 1], &r[best + 2], (size_t)(nr - best - 2) * sizeof *r);
        nr--;
    }
    /* The range departing most, by more than CF_LINES_DEPART, split in two where their
     * larger departure is least, while lines are left; the second starting where the
     * answer leaves the first line for it (where the two meet, or where the answer jumps). */
    while (nr < CF_LINES_MAX) {
        int w = -1;
        for (int i = 0; i < nr; i++)
            if (r[i].b - r[i].a >= 4 && r[i].dep > CF_LINES_DEPART && !r[i].no_split &&
                (w < 0 || r[i].dep > r[w].dep))
                w = i;
        if (w < 0)
            break;
        lrange best[2] = {{0, 0, 0, 0, INFINITY, 0, 0}, {0, 0, 0, 0, INFINITY, 0, 0}};
        for (int k = r[w].a + 2; k <= r[w].b - 2; k++) {
            lrange lr[2] = {{r[w].a, k, 0, 0, 0, r[w].from, 0}, {k, r[w].b, 0, 0, 0, S.x[k], 0}};
            range_fit(S.x, S.t, S.n, &lr[0]);
            range_fit(S.x, S.t, S.n, &lr[1]);
            if (fmax(lr[0].dep, lr[1].dep) < fmax(best[0].dep, best[1].dep))
                best[0] = lr[0], best[1] = lr[1];
        }
        int k = best[1].a;
        if (k <= r[w].a) { /* no split is a number */
            r[w].no_split = 1;
            continue;
        }
        best[1].from = leave_byte(f, ctx, S.x[k - 1], S.x[k], &best[0], &best[1]);
        /* Not with fewer than 4 sizes a side where the two lines depart further from the
         * answer than the one, read between the sizes too (a line exact at its few sizes may
         * cross a step between them; with more, a split that is worse for now is left for
         * the next to mend: over the shipped tables that kept 8 of 40 worse). */
        double hi = r[w].b < S.n ? S.x[r[w].b] : top + 1.0;
        if ((best[0].b - best[0].a < 4 || best[1].b - best[1].a < 4) &&
            ranges_departure(best, 2, hi, f, ctx) > ranges_departure(&r[w], 1, hi, f, ctx)) {
            r[w].no_split = 1;
            continue;
        }
        memmove(&r[w + 2], &r[w + 1], (size_t)(nr - w - 1) * sizeof *r);
        r[w] = best[0];
        r[w + 1] = best[1];
        nr++;
    }
    out->n = nr;
    for (int i = 0; i < nr; i++) {
        out->c0[i] = r[i].c0;
        out->c1[i] = r[i].c1;
        out->from[i] = i ? r[i].from : 0.0;
        if (!isfinite(r[i].c0) || !isfinite(r[i].c1)) {
            rc = -2;
            goto done;
        }
    }
    out->worst = cf_lines_departure(out, f, ctx, out->start, top, &out->worst_at);
    rc = 0;
done:
    free(r);
    free(S.x);
    free(S.t);
    free(S.alg);
    return rc;
}
