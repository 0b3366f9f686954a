/* commfit report: plots (gnuplot data files, scripts and images) and an HTML page drawn
 * from a timing table, written into one folder that appears whole or not at all. */
#ifndef CF_REPORT_H
#define CF_REPORT_H

#include <stddef.h>

#include "base/error.h"
#include "modelfile/modelfile.h"
#include "modelfile/placement.h"
#include "base/table.h"

typedef struct cf_report_opts {
    const cf_table *table;
    const char *table_path;    /* as the page and the messages name it */
    const cf_modelset *models; /* fitted to the table, or NULL: measurements only */
    const char *model_path;
    /* The tables the model was fitted to where table is none of them ("" or NULL: it is
     * one): the page says so rather than "fitted to it". */
    const char *fitted_to;
    const char *out_dir; /* the report folder; replaced if it holds an older report */
    int png;             /* PNG images instead of SVG */
    const char *gnuplot; /* the program that draws, or NULL to write data and scripts only */
    const char *gnuplot_missing;    /* with gnuplot NULL: why, for the page */
    void (*warn)(const char *line); /* gnuplot's warnings, or NULL to drop them */
} cf_report_opts;

typedef struct cf_report_result {
    size_t n_plots; /* plots written (data file and script each) */
    size_t n_drawn; /* images drawn by gnuplot */
    /* The model's launch probes and placement metadata that do not read, which the np
     * plots then do without, for the caller to warn of. Filled whether or not the report is
     * written; the caller frees them (cf_placement_warnings_free). */
    cf_placement_warnings probe;
} cf_report_result;

/* Writes the whole report into o->out_dir: through a temporary folder beside it, renamed
 * into place at the end, so that a failure or a signal leaves the old report (or nothing).
 * A folder in the way that is neither empty nor an earlier report is refused. */
int cf_report_write(const cf_report_opts *o, cf_report_result *res, cf_error *e);

/* Whether dir can take a report: a folder name (not ".", ".." or "/") that is absent,
 * empty or an earlier report. cf_report_write checks again; this lets a command say so
 * before it starts. */
int cf_report_check_dir(const char *dir, cf_error *e);

/* The default folder of the report on the file at path: "report/NAME", NAME its file name
 * without folder and extension. malloc'd; NULL when out of memory. */
char *cf_report_default_dir(const char *path);

/* Tells the user, as the last line of measure or fit, the command that draws the report of
 * what they wrote: "commfit SUB: draw the report with: commfit report -m FILE" (option
 * "-m" for a model file, "-i" for a table; the path quoted for the shell when needed). */
void cf_report_hint(const char *option, const char *path);
/* The same text, without the "commfit: SUB: " prefix, into buf: 0, or -1 when it does not
 * fit in n bytes. */
int cf_report_hint_text(char *buf, size_t n, const char *option, const char *path);

/* The gnuplot to run: $GNUPLOT when set and not empty (a path, or a name looked up on
 * PATH), else gnuplot on PATH. malloc'd; NULL when none is found, why then says what
 * was tried. */
char *cf_gnuplot_find(char *why, size_t n);

#endif
