/* Writing one plot: its data file and a gnuplot script that runs by hand in the report
 * folder (`gnuplot NAME.gp`), with the look every plot shares. */
#include "config.h"

#include "report/report-int.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 900
#define PLOT_HEIGHT 520 /* without the key, which goes below the plot */
#define KEY_ROW 20      /* pixels per line of the key (1.1 lines of the SVG font) */
#define CHAR_WIDTH 7.6  /* of the 12-point font, to guess how wide the key is (generous) */

void cf_report_size_tick(uint64_t bytes, char *buf, size_t n)
{
    static const char units[] = "KMGT";
    int u = -1;
    while (bytes >= 1024 && bytes % 1024 == 0 && u < 3) {
        bytes /= 1024;
        u++;
    }
    if (u < 0)
        snprintf(buf, n, "%llu", (unsigned long long)bytes);
    else
        snprintf(buf, n, "%llu%c", (unsigned long long)bytes, units[u]);
}

void cf_report_bw_text(double v, char *buf, size_t n)
{
    snprintf(buf, n, fabs(v) >= 100 ? "%.0f" : "%.3g", v);
}

void cf_report_gp_string(FILE *fp, const char *s)
{
    fputc('\'', fp);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', fp);
        /* A newline would end the command. */
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, fp);
    }
    fputc('\'', fp);
}

void cf_report_file_part(const char *s, char *buf, size_t n)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++) {
        char c = *s;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        int keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
                   c == '+' || c == '-';
        buf[k++] = keep ? c : '_';
    }
    buf[k] = '\0';
}

void cf_script_name(char *buf, size_t n, const char *kind, const char *a, const char *b,
                    const char *c)
{
    const char *parts[3] = {a, b, c};
    size_t k = (size_t)snprintf(buf, n, "%s", kind);
    for (int i = 0; i < 3 && k < n; i++) {
        if (parts[i] == NULL || *parts[i] == '\0')
            continue;
        char safe[CF_PLOT_NAME_MAX];
        cf_report_file_part(parts[i], safe, sizeof safe);
        k += (size_t)snprintf(buf + k, n - k, "-%s", safe);
    }
}

int cf_script_open(cf_script *s, cf_report *r, const char *name, const char *title, cf_error *e)
{
    memset(s, 0, sizeof *s);
    s->r = r;
    snprintf(s->name, sizeof s->name, "%s", name);
    char fn[CF_PLOT_NAME_MAX + 8];
    snprintf(fn, sizeof fn, "%s.dat", name);
    if ((s->dat = cf_report_create(r, fn, e)) == NULL)
        return CF_EXIT_DATA;
    snprintf(fn, sizeof fn, "%s.gp", name);
    if ((s->gp = cf_report_create(r, fn, e)) == NULL) {
        cf_script_abort(s);
        return CF_EXIT_DATA;
    }
    if ((s->cmd = open_memstream(&s->cmd_buf, &s->cmd_len)) == NULL) {
        cf_script_abort(s);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    fprintf(s->dat, "# commfit report: %s\n# from %s\n", title, r->table_path);
    FILE *fp = s->gp;
    fprintf(fp, "# commfit report: %s\n", title);
    fprintf(fp, "# Draws %s.%s from %s.dat; run it in this folder: gnuplot %s.gp\n", name,
            r->png ? "png" : "svg", name, name);
    /* No "set encoding": under the C locale gnuplot warns about it, and passes the UTF-8
     * of the script (the µ of µs) through unchanged either way. */
    fputs("reset\nset title ", fp);
    cf_report_gp_string(fp, title);
    /* A palette that stays apart for colour-blind readers (Okabe and Ito), then greys. */
    fputs("\n"
          "set linetype 1 lc rgb '#0072b2' lw 1.5 pt 7 ps 0.6\n"
          "set linetype 2 lc rgb '#d55e00' lw 1.5 pt 5 ps 0.6\n"
          "set linetype 3 lc rgb '#009e73' lw 1.5 pt 9 ps 0.7\n"
          "set linetype 4 lc rgb '#cc79a7' lw 1.5 pt 11 ps 0.7\n"
          "set linetype 5 lc rgb '#e69f00' lw 1.5 pt 13 ps 0.7\n"
          "set linetype 6 lc rgb '#56b4e9' lw 1.5 pt 7 ps 0.6\n"
          "set linetype 7 lc rgb '#8c564b' lw 1.5 pt 5 ps 0.6\n"
          "set linetype 8 lc rgb '#555555' lw 1.5 pt 9 ps 0.7\n"
          "set linetype cycle 8\n"
          "set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 1, lc rgb '#f2f2f2' lw 1\n"
          "set border lc rgb '#404040'\n",
          fp);
    return 0;
}

void cf_script_block(cf_script *s, const char *what, const char *columns)
{
    if (s->blocks > 0)
        fputs("\n\n", s->dat);
    fprintf(s->dat, "# [%d] %s\n# %s\n", s->blocks, what, columns);
    s->blocks++;
}

/* One key entry: its text, up to a newline or the end. */
static void key_title(cf_script *s, const char *p, size_t n)
{
    char *line = strndup(p, n);
    fputs(" title ", s->cmd);
    cf_report_gp_string(s->cmd, line ? line : "");
    free(line);
    s->entries++;
    s->longest = n > s->longest ? n : s->longest;
}

static void key_lines(cf_script *s, const char *title);

void cf_script_curve_at(cf_script *s, int block, const char *how, const char *title)
{
    if (s->elems == 0)
        fprintf(s->cmd, "plot '%s.dat' index %d %s", s->name, block, how);
    else
        fprintf(s->cmd, ", \\\n     '' index %d %s", block, how);
    s->elems++;
    if (title == NULL) {
        fputs(" notitle", s->cmd);
        return;
    }
    key_lines(s, title);
}

/* gnuplot lays out a key entry of several lines over its neighbours: each further line
 * is an entry of its own that draws nothing. */
static void key_lines(cf_script *s, const char *title)
{
    const char *end = strchr(title, '\n');
    key_title(s, title, end ? (size_t)(end - title) : strlen(title));
    while (end != NULL) {
        const char *p = end + 1;
        end = strchr(p, '\n');
        fputs(", \\\n     keyentry with lines lt nodraw", s->cmd);
        key_title(s, p, end ? (size_t)(end - p) : strlen(p));
        s->elems++;
    }
}

void cf_script_key(cf_script *s, const char *how, const char *title)
{
    if (s->elems == 0)
        fprintf(s->cmd, "plot keyentry %s", how);
    else
        fprintf(s->cmd, ", \\\n     keyentry %s", how);
    s->elems++;
    key_lines(s, title);
}

void cf_script_curve(cf_script *s, const char *how, const char *title)
{
    cf_script_curve_at(s, s->blocks - 1, how, title);
}

void cf_script_abort(cf_script *s)
{
    if (s->dat)
        fclose(s->dat);
    if (s->gp)
        fclose(s->gp);
    if (s->cmd)
        fclose(s->cmd);
    free(s->cmd_buf);
    s->dat = s->gp = s->cmd = NULL;
    s->cmd_buf = NULL;
}

int cf_script_close(cf_script *s, int section, const char *title, const char *caption, cf_error *e)
{
    FILE *fp = s->gp;
    /* The key goes under the plot, where long formulas cannot cover a curve; the canvas
     * grows by its rows. */
    /* A formula that does not fit under the plot widens the canvas. */
    int width = (int)(CHAR_WIDTH * (double)s->longest + 220);
    width = width < WIDTH ? WIDTH : width > 2 * WIDTH ? 2 * WIDTH : width;
    int cols = (int)((width - 40) / (CHAR_WIDTH * (double)s->longest + 60));
    cols = cols < 1 ? 1 : cols > 6 ? 6 : cols;
    int rows = s->entries ? (s->entries + cols - 1) / cols : 0;
    int height = PLOT_HEIGHT + KEY_ROW * rows + (rows ? 12 : 0);
    /* gnuplot 5.4 lets a key below overlap the x label unless the margin is given. */
    /* In lines of the font: the tic labels and the x label, then the key's rows at its
     * spacing and its box. */
    fprintf(fp,
            "set key below left Left reverse box maxcols %d samplen 2 spacing 1.1 width 1\n"
            "set bmargin %d\n",
            cols, 4 + (int)(rows * 1.1 + 0.99));
    if (s->r->png) {
        /* pngcairo draws smoother lines; the plain png terminal is there everywhere. */
        fprintf(fp,
                "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
                "    set terminal pngcairo size %d,%d noenhanced font 'Sans,10' "
                "background rgb 'white'\n"
                "} else {\n"
                "    set terminal png size %d,%d noenhanced background rgb 'white'\n"
                "}\n",
                width, height, width, height);
    } else {
        fprintf(fp,
                "set terminal svg size %d,%d fixed noenhanced font 'Sans,12' "
                "background rgb 'white'\n",
                width, height);
    }
    fprintf(fp, "set output '%s.%s'\n", s->name, s->r->png ? "png" : "svg");
    int failed = fflush(s->cmd) != 0 || ferror(s->cmd);
    if (!failed)
        fwrite(s->cmd_buf, 1, s->cmd_len, fp);
    fputs("\n", fp);
    fclose(s->cmd);
    free(s->cmd_buf);
    s->cmd = NULL;
    s->cmd_buf = NULL;
    char fn[CF_PLOT_NAME_MAX + 8];
    snprintf(fn, sizeof fn, "%s.dat", s->name);
    int rc = cf_report_close(s->dat, fn, e);
    s->dat = NULL;
    snprintf(fn, sizeof fn, "%s.gp", s->name);
    if (rc == 0)
        rc = cf_report_close(s->gp, fn, e);
    else
        fclose(s->gp);
    s->gp = NULL;
    if (rc == 0 && failed)
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    if (rc != 0)
        return rc;
    cf_plot *p = cf_report_add_plot(s->r, s->name, section, title, caption, e);
    if (p == NULL)
        return CF_EXIT_DATA;
    p->n_elems = s->elems;
    p->width = width;
    p->height = height;
    return 0;
}

void cf_script_pow2_axis(FILE *fp, const char *axis, uint64_t lo, uint64_t hi, int sizes)
{
    if (lo == 0)
        lo = 1;
    if (hi < lo)
        hi = lo;
    int e0 = 0, e1 = 0;
    while (((uint64_t)1 << e0) * 2 <= lo)
        e0++;
    while (((uint64_t)1 << e1) < hi && e1 < 62)
        e1++;
    /* About a dozen labels; the powers of two between them get minor ticks. */
    int step = (e1 - e0 + 11) / 12;
    if (step < 1)
        step = 1;
    fprintf(fp, "set logscale %s 2\nset %srange [%.6g:%.6g]\nset %stics (", axis, axis,
            (double)lo / 1.4, (double)hi * 1.4, axis);
    for (int x = e0; x <= e1; x++) {
        char label[32];
        if (sizes)
            cf_report_size_tick((uint64_t)1 << x, label, sizeof label);
        else
            snprintf(label, sizeof label, "%llu", (unsigned long long)1 << x);
        int major = x % step == 0;
        fprintf(fp, "%s'%s' %llu %d", x > e0 ? ", " : "", major ? label : "",
                (unsigned long long)1 << x, major ? 0 : 1);
    }
    fputs(")\n", fp);
}

void cf_script_values_axis(FILE *fp, const char *axis, const uint64_t *v, size_t n)
{
    fprintf(fp, "set logscale %s 2\nset %srange [%.6g:%.6g]\nset %stics (", axis, axis,
            (double)v[0] / 1.25, (double)v[n - 1] * 1.25, axis);
    for (size_t i = 0; i < n; i++)
        fprintf(fp, "%s'%llu' %llu", i ? ", " : "", (unsigned long long)v[i],
                (unsigned long long)v[i]);
    fputs(")\n", fp);
}

void cf_script_counts_axis(FILE *fp, const char *axis, const uint64_t *v, size_t n)
{
    fprintf(fp, "set logscale %s 2\nset %srange [%.6g:%.6g]\nset %stics (", axis, axis,
            (double)v[0] / 1.4, (double)v[n - 1] * 1.4, axis);
    uint64_t last = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = v[i], t = x;
        while (t % 10 == 0)
            t /= 10;
        int round = (x & (x - 1)) == 0 || t == 1;
        /* Labels closer than a factor 1.3 would touch: the first keeps its label. */
        int major = round && (last == 0 || (double)x >= 1.3 * (double)last);
        if (major)
            last = x;
        char label[32] = "";
        if (major)
            snprintf(label, sizeof label, "%llu", (unsigned long long)x);
        fprintf(fp, "%s'%s' %llu %d", i ? ", " : "", label, (unsigned long long)x, major ? 0 : 1);
    }
    fputs(")\n", fp);
}

void cf_script_time_axis(FILE *fp)
{
    fputs("set logscale y 10\nset format y '%g'\nset mytics 10\n"
          "set ylabel 'time per call (µs)'\n",
          fp);
}
