/* The across-np and point-to-point models as text: term names, the description of a
 * model, and formulas of lines in the forms of cf_fit_formula. */
#include "config.h"

#include "fit/across.h"

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
            if (last)
                k += (size_t)snprintf(body + k, n - k, "%s (m >= %.0f)", l[i], x0);
            else if (i == 0)
                k += (size_t)snprintf(body + k, n - k, "%s (m < %.0f); ", l[i], x);
            else
                k += (size_t)snprintf(body + k, n - k, "%s (%.0f <= m < %.0f); ", l[i], x0, x);
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

int cf_lines_formula(const char *name, const double *c0, const double *c1, int nlines,
                     const double *switch_at, const char *lang, char *buf, size_t n)
{
    int pw = nlines > 1 && switch_at != NULL;
    if (nlines < 1 || nlines > (pw ? CF_LINES_MAX : 2))
        return -1;
    if (nlines == 1 && c1[0] == 0.0) { /* a constant, as cf_fit_formula prints one */
        const char *u = strchr(name, '_') ? strchr(name, '_') + 1 : name;
        char a[64];
        if (strcmp(lang, "text") == 0)
            return snprintf(buf, n, "T = %.4g us", c0[0]);
        if (strcmp(lang, "latex") == 0) {
            latex_num(a, sizeof a, c0[0]);
            return snprintf(buf, n, "T_{\\mathrm{%.*s}} = %s \\quad [\\mu\\mathrm{s}]",
                            (int)strcspn(u, "_"), u, a);
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
        const char *u = strchr(name, '_') ? strchr(name, '_') + 1 : name;
        return snprintf(buf, n,
                        "T_{\\mathrm{%.*s}}(m) = %s \\quad [\\mu\\mathrm{s}; m \\text{ in "
                        "bytes}]",
                        (int)strcspn(u, "_"), u, body);
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

/* The algorithm the answer names at m, "" for none. */
static const char *name_at(cf_answer_fn f, void *ctx, double m, double *t)
{
    const char *alg = NULL;
    *t = f(ctx, m, &alg);
    return alg != NULL ? alg : "";
}

/* The line through the answers at sizes x (times y), n of them, with least relative
 * squares ((line - y) / y); a constant through one. */
static void line_through(const double *x, const double *y, int n, double *c0, double *c1)
{
    double s = 0, sx = 0, sxx = 0, sy = 0, sxy = 0, top = 0;
    for (int i = 0; i < n; i++)
        top = fmax(top, x[i]);
    for (int i = 0; i < n; i++) {
        double w = 1.0 / (y[i] * y[i]), u = x[i] / top;
        s += w, sx += w * u, sxx += w * u * u, sy += w * y[i], sxy += w * u * y[i];
    }
    double det = s * sxx - sx * sx;
    if (n < 2 || !(det > 1e-12 * s * sxx)) {
        *c0 = sy / s;
        *c1 = 0.0;
        return;
    }
    *c1 = (s * sxy - sx * sy) / det / top;
    *c0 = (sy - *c1 * top * sx) / s;
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
    double from; /* its first size: x[a], or where its line meets the one before */
} lrange;

static void range_fit(const double *x, const double *y, lrange *r)
{
    r->from = x[r->a];
    line_through(x + r->a, y + r->a, r->b - r->a, &r->c0, &r->c1);
    r->dep = departure(x + r->a, y + r->a, r->b - r->a, r->c0, r->c1);
}

int cf_lines_through(cf_answer_fn f, void *ctx, double top, double *c0, double *c1,
                     double *switch_at, const char **names, double *worst)
{
    enum { PER_OCTAVE = 4, GRID = PER_OCTAVE * 64 + 2, MAXS = 3 * GRID };
    double gx[GRID], gt[GRID], xs[MAXS], ts[MAXS];
    const char *gn[GRID], *ns[MAXS];
    int ng = 0, n = 0;
    *worst = 0.0;
    top = fmax(top, 2.0);
    /* The sizes, whole bytes, PER_OCTAVE an octave from 1 to top. */
    for (int j = 0; ng < GRID; j++) {
        double m = fmin(round(pow(2.0, (double)j / PER_OCTAVE)), top);
        if (ng > 0 && m <= gx[ng - 1])
            continue;
        gx[ng] = m;
        gn[ng] = name_at(f, ctx, m, &gt[ng]);
        if (!(gt[ng] > 0.0) || !isfinite(gt[ng]))
            return 0;
        ng++;
        if (m >= top)
            break;
    }
    /* Where the name changes between two sizes, the last byte of the one and the first of
     * the next (by halving, to the byte) join the samples. */
    for (int i = 0; i < ng; i++) {
        if (i > 0 && strcmp(gn[i], gn[i - 1]) != 0) {
            double lo = gx[i - 1], hi = gx[i], t;
            while (hi - lo > 1.0) {
                double mid = floor(0.5 * (lo + hi));
                if (strcmp(name_at(f, ctx, mid, &t), gn[i - 1]) == 0)
                    lo = mid;
                else
                    hi = mid;
            }
            double ends[2] = {lo, hi};
            for (int k = 0; k < 2; k++) {
                if (ends[k] <= xs[n - 1] || ends[k] >= gx[i])
                    continue;
                xs[n] = ends[k];
                ns[n] = name_at(f, ctx, ends[k], &ts[n]);
                if (!(ts[n] > 0.0) || !isfinite(ts[n]))
                    return 0;
                n++;
            }
        }
        xs[n] = gx[i], ts[n] = gt[i], ns[n++] = gn[i];
    }
    /* One range per algorithm (beyond CF_LINES_MAX, merged into the last). */
    lrange r[CF_LINES_MAX];
    int nl = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || (strcmp(ns[i], ns[i - 1]) != 0 && nl < CF_LINES_MAX)) {
            if (nl > 0)
                r[nl - 1].b = i;
            r[nl++].a = i;
        }
    r[nl - 1].b = n;
    for (int i = 0; i < nl; i++)
        range_fit(xs, ts, &r[i]);
    /* A range whose line departs from its answers by more than CF_LINES_DEPART is split
     * where the larger departure of its two lines is least (the answer's curve bends: a
     * protocol's switch in the steps it reads), the worst first, while lines are left. */
    while (nl < CF_LINES_MAX) {
        int w = 0;
        for (int i = 1; i < nl; i++)
            if (r[i].dep > r[w].dep)
                w = i;
        if (!(r[w].dep > CF_LINES_DEPART) || r[w].b - r[w].a < 4)
            break;
        lrange best[2] = {{0, 0, 0, 0, INFINITY, 0}, {0, 0, 0, 0, INFINITY, 0}};
        for (int k = r[w].a + 2; k <= r[w].b - 2; k++) {
            lrange lr[2] = {{r[w].a, k, 0, 0, 0, 0}, {k, r[w].b, 0, 0, 0, 0}};
            range_fit(xs, ts, &lr[0]);
            range_fit(xs, ts, &lr[1]);
            if (fmax(lr[0].dep, lr[1].dep) < fmax(best[0].dep, best[1].dep))
                best[0] = lr[0], best[1] = lr[1];
        }
        /* The two lines meet where the curve bends between their sizes: the switch is
         * there, not at the second's first size (a line carried past the bend departs). */
        best[0].from = r[w].from;
        int k = best[1].a;
        if (best[1].c1 != best[0].c1) {
            double q = (best[0].c0 - best[1].c0) / (best[1].c1 - best[0].c1);
            double meet = ceil(q - 1e-9 * fabs(q)); /* the first byte at or past it */
            if (meet > xs[k - 1] && meet < xs[k])
                best[1].from = meet;
        }
        memmove(&r[w + 2], &r[w + 1], (size_t)(nl - w - 1) * sizeof r[0]);
        r[w] = best[0];
        r[w + 1] = best[1];
        nl++;
    }
    for (int i = 0; i < nl; i++) {
        c0[i] = r[i].c0;
        c1[i] = r[i].c1;
        names[i] = ns[r[i].a];
        if (i > 0)
            switch_at[i - 1] = r[i].from;
        *worst = fmax(*worst, r[i].dep);
    }
    return nl;
}
