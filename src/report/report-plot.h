/* What the plot files of commfit report share (report-plot*.c): a selection of rows and
 * its queries, the names of what a table holds, and each kind of plot. */
#ifndef CF_REPORT_PLOT_H
#define CF_REPORT_PLOT_H

#include <stddef.h>
#include <stdint.h>

#include "report/report-int.h"

/* Curves one plot shows at most where the choice is ours (sizes across np, blocks). */
#define CF_PLOT_MAX_SIZES 5
/* Breakpoints a time plot labels at most; beyond, the labels would cover each other. */
#define CF_PLOT_MAX_BREAK_LABELS 6

/* Rows of one table, by index. */
typedef struct cf_sel {
    const cf_table *t;
    size_t *idx; /* rows, sorted by np, blocks, bytes */
    size_t n;
} cf_sel;

/* Rows of pattern (and datatype, when not NULL) that are derived-datatype rows or not
 * (ddt), sorted by np, blocks, bytes, datatype. s->idx is malloc'd. */
int cf_sel_rows(const cf_table *t, const char *pattern, const char *datatype, int ddt,
                cf_sel *s, cf_error *e);
/* Row i of the selection. */
const cf_row *cf_sel_row(const cf_sel *s, size_t i);
/* Whether the selection holds a point more than once (an imported table with several
 * runs): lines through its points would zigzag between the runs. */
int cf_sel_repeated(const cf_sel *s);
/* Distinct values of one field over the selection: 'n' np, 'b' blocks, 'm' bytes, sorted
 * into out (room for s->n); returns how many. */
size_t cf_sel_distinct(const cf_sel *s, char field, uint64_t *out);
/* The end of the run of rows from i on that share row i's np. */
size_t cf_sel_np_end(const cf_sel *s, size_t i);
/* The first row whose np is at least np, by bisection. */
size_t cf_sel_np_find(const cf_sel *s, uint64_t np);
/* The first row from i on whose np is at least np. */
size_t cf_sel_np_start(const cf_sel *s, size_t i, uint64_t np);

/* For qsort: uint64_t values in increasing order. */
int cf_plot_cmp_u64(const void *a, const void *b);

/* Names of the selected rows' patterns (or datatypes), distinct and sorted. */
typedef struct cf_plot_names {
    char (*v)[CF_PATTERN_MAX];
    size_t n;
} cf_plot_names;

/* The patterns of the table's plain (ddt 0) or derived-datatype rows, or with pattern
 * given, that pattern's datatypes. out->v is malloc'd. */
int cf_plot_names_collect(const cf_table *t, int ddt, const char *pattern, cf_plot_names *out,
                          cf_error *e);

/* A data block's bounds for a time and its 95% half-width; a bar that would reach zero
 * stops at a hundredth of the value, so the log scale can draw it. */
void cf_plot_time_bounds(const cf_report *r, const cf_row *x, double *t, double *lo, double *hi);
/* The caption's sentence on what a point is (the fits' statistic). */
const char *cf_plot_points_note(const cf_report *r);
/* The key entry of a fitted curve: "np=2 piecewise fit: T(m) = ...", a piecewise
 * formula one segment a line, so that the key stays as wide as the plot. */
void cf_plot_fit_title(char *buf, size_t n, const char *who, const cf_fit *f);
/* The bandwidth of a row at the time the plots show (see report-plot-time.c). */
double cf_plot_row_bw(const cf_report *r, const cf_row *x);
/* Open symbols for the pack baseline, one for each line type's filled one. */
extern const int cf_plot_open_pt[9];

/* The kinds of plot; name_dt (name_np) puts the datatype (np) in the plot's name. */
int cf_plot_time(cf_report *r, const char *pattern, const char *datatype, int name_dt,
                 cf_error *e);
int cf_plot_bw(cf_report *r, const char *pattern, const char *datatype, int name_dt,
               cf_error *e);
int cf_plot_np(cf_report *r, const char *pattern, const char *datatype, int name_dt,
               cf_error *e);
/* Every derived-datatype plot of pattern: gain, time against blocks, bandwidth. */
int cf_plots_ddt(cf_report *r, const char *pattern, cf_error *e);
/* The selection at holds one np's rows. */
int cf_plot_bw_ddt(cf_report *r, const cf_sel *at, const char *dt, int np, int name_np,
                   cf_error *e);
int cf_plot_resid(cf_report *r, const char *pattern, const char *datatype, int ddt, int name_dt,
                  cf_error *e);

#endif
