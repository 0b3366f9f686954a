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

int cf_lines_formula(const char *name, const double *c0, const double *c1, int nlines,
                     const double *switch_at, const char *lang, char *buf, size_t n)
{
    if (nlines < 1 || nlines > 2)
        return -1;
    char l[2][320];
    for (int i = 0; i < nlines; i++)
        line_expr(l[i], sizeof l[i], c0[i], c1[i], lang);
    int two = nlines > 1, pw = two && switch_at != NULL;
    double x = pw ? floor(switch_at[0]) : 0.0;
    char body[4 * sizeof l[0] + 96];
    if (strcmp(lang, "text") == 0) {
        if (pw)
            snprintf(body, sizeof body, "%s (m < %.0f); %s (m >= %.0f)", l[0], x, l[1], x);
        else if (two)
            snprintf(body, sizeof body, "min(%s, %s)", l[0], l[1]);
        else
            snprintf(body, sizeof body, "%s", l[0]);
        return snprintf(buf, n, "T(m) = %s", body);
    }
    if (strcmp(lang, "latex") == 0) {
        if (pw)
            snprintf(body, sizeof body,
                     "\\begin{cases} %s & m < %.0f \\\\ %s & \\text{otherwise} \\end{cases}", l[0],
                     x, l[1]);
        else if (two)
            snprintf(body, sizeof body, "\\min(%s,\\ %s)", l[0], l[1]);
        else
            snprintf(body, sizeof body, "%s", l[0]);
        const char *u = strchr(name, '_') ? strchr(name, '_') + 1 : name;
        return snprintf(buf, n,
                        "T_{\\mathrm{%.*s}}(m) = %s \\quad [\\mu\\mathrm{s}; m \\text{ in "
                        "bytes}]",
                        (int)strcspn(u, "_"), u, body);
    }
    int python = strcmp(lang, "python") == 0;
    if (pw && python)
        snprintf(body, sizeof body, "(%s) if m < %.0f else (%s)", l[0], x, l[1]);
    else if (pw)
        snprintf(body, sizeof body, "(m < %.0f ? (%s) : (%s))", x, l[0], l[1]);
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
