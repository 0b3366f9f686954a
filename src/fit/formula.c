/* The formulas of a fit in the languages people paste them into. Text is for reading
 * (bandwidths in B/s units, sizes in KiB); code carries 15 significant digits, enough to
 * reproduce predict's numbers (microseconds, m in bytes, b in blocks). */
#include "config.h"

#include "fit/formula.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit/fitting.h"
#include "fit/model.h"
#include "base/size.h"

const char *const cf_formula_langs[] = {"text", "c", "python", "latex", "gnuplot", NULL};

int cf_formula_lang_valid(const char *lang)
{
    for (int i = 0; cf_formula_langs[i] != NULL; i++)
        if (strcmp(lang, cf_formula_langs[i]) == 0)
            return 1;
    return 0;
}

void cf_formula_func_name(const cf_fit *f, char *buf, size_t n)
{
    if (strcmp(f->datatype, "byte") == 0 || strcmp(f->datatype, "float") == 0)
        snprintf(buf, n, "T_%s_np%d", f->pattern, f->np);
    else
        snprintf(buf, n, "T_%s_%s_np%d", f->pattern, f->datatype, f->np);
    if (strcmp(f->model, "loggp") == 0 && strlen(buf) + 7 < n)
        strcat(buf, "_loggp");
}

/* A growing string that never overflows buf (truncates) but counts what it wanted. */
typedef struct out {
    char *buf;
    size_t n, len;
} out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->n ? o->n - o->len : 0;
    int k = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (k > 0)
        o->len += (size_t)k;
}

/* The coefficients of segment k summed by basis (cf_term): constant, m, m^2, b, [b > 1],
 * m*[b > 1]. */
#define NB CF_TERM_NONE
static void sums(const cf_fit *f, int k, double t[NB])
{
    for (int j = 0; j < NB; j++)
        t[j] = 0;
    for (int j = 0; j < f->ncoef; j++) {
        cf_term tm = f->kind->terms[j];
        if (tm != CF_TERM_NONE)
            t[tm] += f->seg[k].coef[j];
    }
}

static int has_blocks(const cf_fit *f)
{
    for (int j = 0; j < f->ncoef; j++)
        if (f->kind->terms[j] == CF_TERM_B || f->kind->terms[j] == CF_TERM_STEP ||
            f->kind->terms[j] == CF_TERM_M_STEP)
            return 1;
    return 0;
}

/* Whether T depends on the size at all (a constant does not). */
static int has_size(const cf_fit *f)
{
    for (int j = 0; j < f->ncoef; j++)
        if (f->kind->terms[j] != CF_TERM_ONE && f->kind->terms[j] != CF_TERM_NONE)
            return 1;
    return 0;
}

static void text_bw(out *o, double beta_us_per_byte)
{
    static const char *units[] = {"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"};
    double bw = 1e6 / beta_us_per_byte; /* bytes per second */
    int u = 0;
    while (u < 4 && bw >= 1024) {
        bw /= 1024;
        u++;
    }
    put(o, "m / (%.*g %s)", cf_sig_prec(bw, 3), bw, units[u]);
}

static void text_segment(out *o, const double t[NB])
{
    put(o, "%.3g us", t[0]);
    if (t[CF_TERM_M] > 0) {
        put(o, " + ");
        text_bw(o, t[CF_TERM_M]);
    } else if (t[CF_TERM_M] < 0) {
        put(o, " - %.3g us/B * m", -t[CF_TERM_M]);
    }
    if (t[CF_TERM_M2] != 0)
        put(o, " %c %.3g us/B^2 * m^2", t[CF_TERM_M2] < 0 ? '-' : '+', fabs(t[CF_TERM_M2]));
    if (t[CF_TERM_B] != 0)
        put(o, " %c %.3g us * b", t[CF_TERM_B] < 0 ? '-' : '+', fabs(t[CF_TERM_B]));
    /* The step from the contiguous path (1 block) to the packing engine (2 or more). */
    if (t[CF_TERM_STEP] != 0 || t[CF_TERM_M_STEP] != 0) {
        put(o, " + [b > 1] (");
        if (t[CF_TERM_STEP] != 0) /* left out: no "0 us" */
            put(o, "%.3g us%s", t[CF_TERM_STEP], t[CF_TERM_M_STEP] > 0 ? " + " : "");
        if (t[CF_TERM_M_STEP] > 0)
            text_bw(o, t[CF_TERM_M_STEP]);
        else if (t[CF_TERM_M_STEP] < 0)
            put(o, "%s%.3g us/B * m", t[CF_TERM_STEP] != 0 ? " - " : "-", -t[CF_TERM_M_STEP]);
        put(o, ")");
    }
}

/* Segment k's sizes as the text formula gives them: " (m <= 8 KiB)"; "" for one segment. */
static void text_range(out *o, const cf_fit *f, int k)
{
    if (f->nseg < 2)
        return;
    char a[32], b[32];
    cf_size_format(f->seg[k].from_bytes, a, sizeof a);
    cf_size_format(f->seg[k].to_bytes, b, sizeof b);
    if (k == 0)
        put(o, " (m <= %s)", b);
    else if (k == f->nseg - 1)
        put(o, " (m >= %s)", a);
    else
        put(o, " (%s <= m <= %s)", a, b);
}

int cf_fit_per_block_text(const cf_fit *f, char *buf, size_t n)
{
    out o = {buf, n, 0};
    if (n > 0)
        buf[0] = '\0';
    int any = 0;
    for (int k = 0; k < f->nseg; k++) {
        double g, lo, hi;
        if (cf_fit_per_block(f, k, &g, &lo, &hi) != 0)
            continue;
        put(&o, "%s%.*g ns [%.*g, %.*g]", any ? ", " : "per block ", cf_sig_prec(g, 3), g,
            cf_sig_prec(lo, 3), lo, cf_sig_prec(hi, 3), hi);
        text_range(&o, f, k);
        any = 1;
    }
    return (int)(o.len < n ? o.len : (n > 0 ? n - 1 : 0));
}

static void text(out *o, const cf_fit *f)
{
    put(o, has_blocks(f) ? "T(m, b) = " : has_size(f) ? "T(m) = " : "T = ");
    for (int k = 0; k < f->nseg; k++) {
        double t[NB];
        sums(f, k, t);
        if (k > 0)
            put(o, "; ");
        text_segment(o, t);
        text_range(o, f, k);
    }
    if (f->kind->describe != NULL) {
        char d[256];
        f->kind->describe(f, d, sizeof d);
        put(o, "; %s", d);
    }
    /* Blocks that follow the size (struct) were fitted without their own term. */
    if (!has_blocks(f) && f->min_blocks != f->max_blocks && f->max_bytes > f->min_bytes) {
        double k1 = (double)(f->max_blocks - f->min_blocks) / (double)(f->max_bytes - f->min_bytes);
        double k0 = f->min_blocks - k1 * (double)f->min_bytes;
        put(o, "; the cost per block is inside beta (b = %.4g m", k1);
        if (fabs(k0) > 1e-6)
            put(o, " %c %.4g", k0 < 0 ? '-' : '+', fabs(k0));
        put(o, ")");
    }
}

/* One segment as an expression in m (and b) with 15 digits; mul is "*" everywhere. */
static void code_segment(out *o, const double t[NB], const char *pow2, int python)
{
    put(o, "%.15g", t[0]);
    if (t[CF_TERM_M] != 0)
        put(o, " + %.15g*m", t[CF_TERM_M]);
    if (t[CF_TERM_M2] != 0)
        put(o, pow2, t[CF_TERM_M2]);
    if (t[CF_TERM_B] != 0)
        put(o, " + %.15g*b", t[CF_TERM_B]);
    if (t[CF_TERM_STEP] != 0 || t[CF_TERM_M_STEP] != 0)
        put(o,
            python ? " + ((%.15g + %.15g*m) if b > 1 else 0)" : " + (b > 1 ? %.15g + %.15g*m : 0)",
            t[CF_TERM_STEP], t[CF_TERM_M_STEP]);
}

/* The line predict follows inside the breakpoint gap after segment k: through segment
 * k's value at its last size and segment k+1's at its first (cf_fit_predict), for a fit
 * whose terms are a constant, m and m^2 (piecewise). */
static void gap_line(const cf_fit *f, int k, double t[NB])
{
    double a[NB], b[NB];
    sums(f, k, a);
    sums(f, k + 1, b);
    double ma = (double)f->seg[k].to_bytes, mb = (double)f->seg[k + 1].from_bytes;
    double ta = a[0] + a[1] * ma + a[2] * ma * ma, tb = b[0] + b[1] * mb + b[2] * mb * mb;
    t[1] = (tb - ta) / (mb - ma);
    t[0] = ta - t[1] * ma;
    for (int j = 2; j < NB; j++)
        t[j] = 0;
}

/* Segment k at the size m, an expression in b alone: the ends of a datatype fit's gap,
 * whose interpolation (linear in m between two expressions in b) has no form in the
 * basis. */
static void at_size(const cf_fit *f, int k, double m, double t[NB])
{
    double a[NB];
    sums(f, k, a);
    for (int j = 0; j < NB; j++)
        t[j] = 0;
    t[0] = a[0] + a[CF_TERM_M] * m + a[CF_TERM_M2] * m * m;
    t[CF_TERM_B] = a[CF_TERM_B];
    t[CF_TERM_STEP] = a[CF_TERM_STEP] + a[CF_TERM_M_STEP] * m;
}

static void code_segment(out *o, const double t[NB], const char *pow2, int python);

/* The gap after segment k as code: the line in bytes of gap_line, or with blocks
 * ((mb - m) * Ta + (m - ma) * Tb) / (mb - ma), Ta and Tb the segments at its ends. */
static void code_gap(out *o, const cf_fit *f, int k, const char *pow2, int python)
{
    double g[NB], ta[NB], tb[NB];
    double ma = (double)f->seg[k].to_bytes, mb = (double)f->seg[k + 1].from_bytes;
    if (!has_blocks(f)) {
        gap_line(f, k, g);
        code_segment(o, g, pow2, python);
        return;
    }
    at_size(f, k, ma, ta);
    at_size(f, k + 1, mb, tb);
    put(o, "((%.15g - m)*(", mb);
    code_segment(o, ta, pow2, python);
    put(o, ") + (m - %.15g)*(", ma);
    code_segment(o, tb, pow2, python);
    put(o, "))/%.15g", mb - ma);
}

/* Nested conditionals, a segment and then its gap: c and gnuplot "m <= a ? A : m < b ? G :
 * B", python "A if m <= a else G if m < b else B". */
static void code_body(out *o, const cf_fit *f, int python)
{
    const char *pow2 = " + %.15g*m*m";
    for (int k = 0; k < f->nseg; k++) {
        double t[NB];
        sums(f, k, t);
        if (k + 1 < f->nseg) {
            double ma = (double)f->seg[k].to_bytes, mb = (double)f->seg[k + 1].from_bytes;
            if (python) {
                put(o, "(");
                code_segment(o, t, pow2, python);
                put(o, ") if m <= %.15g else (", ma);
                code_gap(o, f, k, pow2, python);
                put(o, ") if m < %.15g else ", mb);
            } else {
                put(o, "m <= %.15g ? ", ma);
                code_segment(o, t, pow2, python);
                put(o, " : m < %.15g ? ", mb);
                code_gap(o, f, k, pow2, python);
                put(o, " : ");
            }
        } else if ((t[CF_TERM_M2] != 0 || t[CF_TERM_M] < 0 ||
                    (has_blocks(f) && t[CF_TERM_M] + t[CF_TERM_M_STEP] < 0)) &&
                   f->max_bytes > 0) {
            /* Beyond the largest measured size predict carries the m^2 term as its tangent
             * there, M (2m - M) (cf_fit_design): the code does the same, a line from M. No
             * cost falls with size: where that line falls (a concave poly2, a line of
             * negative slope), predict holds the time at M (cf_fit_predict_blocks), and so
             * does the code (a concave poly2's read -509 us at 32 MiB for predict's 308;
             * the formulas check); with blocks, the larger of the line and its time at M,
             * whose slope in m may fall at some block counts only. */
            double M = (double)f->max_bytes, l[NB];
            memcpy(l, t, sizeof l);
            l[0] -= t[CF_TERM_M2] * M * M;
            l[CF_TERM_M] += 2 * t[CF_TERM_M2] * M;
            l[CF_TERM_M2] = 0;
            int falls = l[CF_TERM_M] < 0 || (has_blocks(f) && l[CF_TERM_M] + l[CF_TERM_M_STEP] < 0);
            double h[NB]; /* the line at M: an expression in b alone */
            memcpy(h, l, sizeof h);
            h[0] += h[CF_TERM_M] * M;
            h[CF_TERM_STEP] += h[CF_TERM_M_STEP] * M;
            h[CF_TERM_M] = h[CF_TERM_M_STEP] = 0;
            if (falls && !has_blocks(f)) { /* the line's time at M, a constant */
                memcpy(l, h, sizeof l);
                falls = 0;
            }
            if (python) {
                put(o, "(");
                code_segment(o, t, pow2, python);
                put(o, ") if m <= %.15g else %s(", M, falls ? "max(" : "");
                code_segment(o, l, pow2, python);
                if (falls) {
                    put(o, "), (");
                    code_segment(o, h, pow2, python);
                    put(o, ")");
                }
                put(o, ")");
            } else {
                put(o, "m <= %.15g ? ", M);
                code_segment(o, t, pow2, python);
                put(o, " : ");
                if (falls) {
                    put(o, "((");
                    code_segment(o, l, pow2, python);
                    put(o, ") > (");
                    code_segment(o, h, pow2, python);
                    put(o, ") ? (");
                    code_segment(o, l, pow2, python);
                    put(o, ") : (");
                    code_segment(o, h, pow2, python);
                    put(o, "))");
                } else {
                    code_segment(o, l, pow2, python);
                }
            }
        } else {
            code_segment(o, t, pow2, python);
        }
    }
}

static void latex_number(out *o, double v)
{
    char s[64];
    snprintf(s, sizeof s, "%.4g", v);
    char *ex = strchr(s, 'e');
    if (ex == NULL) {
        put(o, "%s", s);
        return;
    }
    *ex = '\0';
    put(o, "%s \\times 10^{%d}", s, (int)strtol(ex + 1, NULL, 10));
}

static void latex_segment(out *o, const double t[NB])
{
    static const char *basis[] = {"", "\\, m", "\\, m^2", "\\, b"};
    latex_number(o, t[0]);
    for (int j = 1; j <= CF_TERM_B; j++) {
        if (t[j] == 0)
            continue;
        put(o, t[j] < 0 ? " - " : " + ");
        latex_number(o, fabs(t[j]));
        put(o, "%s", basis[j]);
    }
    if (t[CF_TERM_STEP] != 0 || t[CF_TERM_M_STEP] != 0) {
        put(o, " + [b > 1] \\left(");
        if (t[CF_TERM_STEP] != 0 || t[CF_TERM_M_STEP] == 0)
            latex_number(o, t[CF_TERM_STEP]);
        if (t[CF_TERM_M_STEP] != 0) { /* a term left out is not written */
            put(o, t[CF_TERM_M_STEP] < 0 ? " - " : t[CF_TERM_STEP] != 0 ? " + " : "");
            latex_number(o, fabs(t[CF_TERM_M_STEP]));
            put(o, "\\, m");
        }
        put(o, "\\right)");
    }
}

/* s in \mathrm, its underscores escaped (reduce_scatter would read reduce with a
 * subscript s). */
static void latex_name(out *o, const char *s)
{
    for (; *s != '\0'; s++)
        put(o, *s == '_' ? "\\_" : "%c", *s);
}

static void latex(out *o, const cf_fit *f)
{
    const char *args = has_blocks(f) ? "(m, b)" : has_size(f) ? "(m)" : "";
    /* Which fit: the pattern, the datatype where it is not the plain one, the process
     * count, LogGP's parameters where they make it (one line per fit, all alike else). */
    put(o, "T%s_{\\mathrm{", strcmp(f->model, "loggp") == 0 ? "^{\\mathrm{LogGP}}" : "");
    latex_name(o, f->pattern);
    if (strcmp(f->datatype, "byte") != 0 && strcmp(f->datatype, "float") != 0) {
        put(o, "\\ ");
        latex_name(o, f->datatype);
    }
    put(o, "},\\, p=%d}%s = ", f->np, args);
    if (f->nseg == 1) {
        double t[NB];
        sums(f, 0, t);
        latex_segment(o, t);
    } else {
        put(o, "\\begin{cases} ");
        for (int k = 0; k < f->nseg; k++) {
            double t[NB];
            sums(f, k, t);
            latex_segment(o, t);
            if (k + 1 < f->nseg) {
                double ma = (double)f->seg[k].to_bytes, mb = (double)f->seg[k + 1].from_bytes;
                if (k == 0)
                    put(o, " & m \\le %.0f \\\\ ", ma);
                else
                    put(o, " & %.0f \\le m \\le %.0f \\\\ ", (double)f->seg[k].from_bytes, ma);
                if (has_blocks(f)) { /* see code_gap */
                    double tb[NB];
                    at_size(f, k, ma, t);
                    at_size(f, k + 1, mb, tb);
                    put(o, "\\frac{(%.0f - m) (", mb);
                    latex_segment(o, t);
                    put(o, ") + (m - %.0f) (", ma);
                    latex_segment(o, tb);
                    put(o, ")}{%.0f}", mb - ma);
                } else {
                    gap_line(f, k, t);
                    latex_segment(o, t);
                }
                put(o, " & %.0f < m < %.0f \\\\ ", ma, mb);
            } else {
                put(o, " & m \\ge %.0f", (double)f->seg[k].from_bytes);
            }
        }
        put(o, " \\end{cases}");
    }
    if (!has_size(f))
        put(o, " \\quad [\\mu\\mathrm{s}]");
    else
        put(o, " \\quad [\\mu\\mathrm{s}; m \\text{ in bytes}%s]",
            has_blocks(f) ? ", b \\text{ in blocks}" : "");
}

int cf_fit_formula(const cf_fit *f, const char *lang, char *buf, size_t n)
{
    out o = {buf, n, 0};
    if (n > 0)
        buf[0] = '\0';
    if (f->kind == NULL || f->nseg < 1)
        return -1;
    char name[96];
    cf_formula_func_name(f, name, sizeof name);
    const char *args_c = has_blocks(f) ? "double m, double b" : "double m";
    const char *args = has_blocks(f) ? "m, b" : "m";
    if (strcmp(lang, "text") == 0) {
        text(&o, f);
    } else if (strcmp(lang, "c") == 0) {
        put(&o, "static inline double %s(%s) { %sreturn ", name, args_c,
            has_size(f) ? "" : "(void)m; ");
        code_body(&o, f, 0);
        put(&o, "; } /* us; m in bytes */");
    } else if (strcmp(lang, "python") == 0) {
        put(&o, "def %s(%s): return ", name, args);
        code_body(&o, f, 1);
        put(&o, "  # us; m in bytes");
    } else if (strcmp(lang, "gnuplot") == 0) {
        put(&o, "%s(%s) = ", name, args);
        code_body(&o, f, 0);
        put(&o, "  # us; m in bytes");
    } else if (strcmp(lang, "latex") == 0) {
        latex(&o, f);
    } else {
        return -1;
    }
    return (int)(o.len < n ? o.len : (n > 0 ? n - 1 : 0));
}
