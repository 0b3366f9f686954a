/* The inside of commfit report, shared by its modules (plots, gnuplot, the page) and
 * their unit tests. Users of the report see only report.h. */
#ifndef CF_REPORT_INT_H
#define CF_REPORT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fit/across.h"
#include "modelfile/modelfile.h"
#include "modelfile/placement.h"
#include "base/error.h"
#include "base/table.h"

/* The groups of plots, in the order the page shows them. */
enum {
    CF_SEC_TIME,  /* time vs bytes, per pattern */
    CF_SEC_BW,    /* bandwidth vs bytes, point-to-point */
    CF_SEC_DDT,   /* derived datatypes: gain over pack, time vs blocks */
    CF_SEC_NP,    /* time vs process count */
    CF_SEC_RESID, /* relative error of the fits */
    CF_SEC_COUNT
};

#define CF_PLOT_NAME_MAX 96

/* The page says which program wrote it; an earlier report is recognised by this, so that
 * -o never replaces a folder of somebody else's files. */
#define CF_REPORT_GENERATOR "<meta name=\"generator\" content=\"commfit report"

/* One plot: NAME.dat (its data), NAME.gp (its gnuplot script), NAME.svg or NAME.png. */
typedef struct cf_plot {
    char name[CF_PLOT_NAME_MAX];
    int section;
    char *title;       /* heading on the page, plain text */
    char *caption;     /* what the plot shows and how to read it, plain text */
    int n_elems;       /* plot elements the script draws (curves, bars, marker lines) */
    int width, height; /* of the image, in pixels */
    int drawn;         /* the image exists */
} cf_plot;

typedef struct cf_report {
    const cf_table *table;
    const char *table_path;
    const cf_modelset *ms; /* or NULL */
    const char *model_path;
    const char *fitted_to; /* cf_report_opts.fitted_to */
    int stat;                    /* the fits' statistic (cf_statistic), or -1: median if known */
    const cf_across_set *across; /* the model's across-np models (ms->across; empty without) */
    /* Where the table's ranks ran (the model's source), read once: the np plots' bounds past
     * what was measured; empty without a model. */
    cf_placement pl;
    const char *name;            /* of the report: its folder's last component */
    const char *dir;             /* the temporary folder being filled */
    int dirfd;
    int png;
    cf_plot *plots;
    size_t n_plots, cap_plots;
} cf_report;

/* Derived-datatype rows: the datatype names the ddt benchmark writes. */
int cf_report_is_ddt(const cf_row *r);
/* The pack baseline: "pack", or "pack_LAYOUT" (the pack of one layout). */
int cf_report_is_pack(const char *datatype);
/* Point-to-point rows: a bandwidth column is filled and the datatype is plain. */
int cf_report_is_p2p(const cf_row *r);
/* The time of a row as the report's fits use it (their statistic; the median when the
 * model does not say), the mean where the row has no median. */
double cf_report_row_time(const cf_report *r, const cf_row *x);
/* The fit to draw for (pattern, np, datatype): NULL without a model or such a fit. */
const cf_fit *cf_report_fit(const cf_report *r, const char *pattern, int np, const char *datatype);

/* Tick label for a size on a bytes axis: "0", "512", "1K", "64K", "1M", "2G". */
void cf_report_size_tick(uint64_t bytes, char *buf, size_t n);
/* A bandwidth in MiB/s for people: whole MiB/s from 100 on, three digits below. */
void cf_report_bw_text(double v, char *buf, size_t n);
/* A gnuplot string literal (single quotes, ' doubled) of s, written to fp. */
void cf_report_gp_string(FILE *fp, const char *s);
/* s with & < > " ' escaped for HTML, written to fp. */
void cf_report_html_text(FILE *fp, const char *s);
/* Keeps [a-z0-9_.+-] of s (lower-cased), the rest becomes '_', for file names. */
void cf_report_file_part(const char *s, char *buf, size_t n);

/* Picks up to k values of v[0..n) (sorted, increasing), spread evenly on a log scale
 * from the smallest above zero to the last (all of them when n <= k); writes them to out,
 * returns how many. */
size_t cf_report_spread(const uint64_t *v, size_t n, size_t k, uint64_t *out);

/* Opens NAME in the report folder for writing (and remembers it for clean-up). */
FILE *cf_report_create(cf_report *r, const char *name, cf_error *e);
/* Closes a file from cf_report_create, reporting any write error. */
int cf_report_close(FILE *fp, const char *name, cf_error *e);
/* Remembers a file some other program (gnuplot) will write into the folder. */
int cf_report_track(cf_report *r, const char *name, cf_error *e);
/* The child process running in a slot (0 to CF_GNUPLOT_JOBS - 1; pid 0: none), stopped
 * first if a signal ends the report. */
void cf_report_set_child(size_t slot, long pid);

/* Adds a plot to the list; title and caption are copied. Returns it, or NULL. */
cf_plot *cf_report_add_plot(cf_report *r, const char *name, int section, const char *title,
                            const char *caption, cf_error *e);

/* One plot being written: its data file (one index block per curve) and its script,
 * whose plot command is gathered apart so that the canvas can grow to fit the key. */
typedef struct cf_script {
    cf_report *r;
    char name[CF_PLOT_NAME_MAX];
    FILE *dat, *gp, *cmd;
    char *cmd_buf;
    size_t cmd_len;
    int blocks;     /* data blocks started */
    int elems;      /* plot elements (each a group in the SVG) */
    int entries;    /* of them with a key entry */
    size_t longest; /* longest key entry */
} cf_script;

/* Opens NAME.dat and NAME.gp and writes the settings every plot shares. */
int cf_script_open(cf_script *s, cf_report *r, const char *name, const char *title, cf_error *e);
/* Starts the next data block, with a comment line naming it and one naming columns. */
void cf_script_block(cf_script *s, const char *what, const char *columns);
/* Draws the last block started: how is a "using ... with ..." clause; title NULL keeps it
 * out of the key. */
void cf_script_curve(cf_script *s, const char *how, const char *title);
/* A key entry that draws nothing: how is "with ..." (the style it shows). */
void cf_script_key(cf_script *s, const char *how, const char *title);
/* Draws a block by number (a curve that reuses an earlier block). */
void cf_script_curve_at(cf_script *s, int block, const char *how, const char *title);
/* Writes the terminal, output and plot command; closes both files and, on success, adds
 * the plot to the report. On failure nothing is added. */
int cf_script_close(cf_script *s, int section, const char *title, const char *caption, cf_error *e);
/* Closes both files after an error. */
void cf_script_abort(cf_script *s);

/* Axes. A log-2 axis of sizes (sizes set) or counts, labelled at powers of two. */
void cf_script_pow2_axis(FILE *gp, const char *axis, uint64_t lo, uint64_t hi, int sizes);
/* A log-2 axis labelled at the given values (process counts). */
void cf_script_values_axis(FILE *gp, const char *axis, const uint64_t *v, size_t n);
/* A log-2 axis of counts v (sorted, increasing, distinct, > 0): a tick at each, labelled
 * at the round ones (powers of two and of ten, 1 2 4 8 100 1000) that are not too close. */
void cf_script_counts_axis(FILE *gp, const char *axis, const uint64_t *v, size_t n);
/* A log-10 y axis of times in microseconds. */
void cf_script_time_axis(FILE *gp);
/* The file name of a plot: kind and the parts not NULL, joined by '-', made safe. */
void cf_script_name(char *buf, size_t n, const char *kind, const char *a, const char *b,
                    const char *c);

/* Writes the .dat and .gp files of every plot the table supports (with the model's
 * curves drawn through the points when there is a model). */
int cf_report_plots_table(cf_report *r, cf_error *e);

/* --- the model's part (report-model.c) --- */

/* Reads what the plots need from the model: the statistic, the across-np models, where
 * the ranks ran (r->pl, whose warnings the report gives to its caller). */
void cf_report_model_open(cf_report *r);
void cf_report_model_close(cf_report *r);
/* Writes a block of the fit sampled on a log scale over [lo, hi] (with the steps at its
 * breakpoints): bytes t_us lo_us hi_us, the interval the 95% prediction interval. blocks
 * < 0 uses the fit's own block count. */
void cf_report_fit_block(cf_script *s, const cf_fit *f, double lo, double hi, double blocks,
                         const char *what);
/* The same as bandwidth: bytes bw_MiBps, with nmsg messages a call. */
void cf_report_fit_bw_block(cf_script *s, const cf_fit *f, double lo, double hi, int nmsg,
                            const char *what);
/* Marks the fit's breakpoints with dotted vertical lines in colour lt, with labels set
 * where the curve leaves room in a plot of times from t_lo to t_hi. */
void cf_report_breakpoints(cf_script *s, const cf_fit *f, int lt, double t_lo, double t_hi,
                           int labels);
/* The model's rows of the page: fitted parameters, quality, saturation, across np. */
void cf_report_html_model(FILE *fp, const cf_report *r);
/* The page's opening: per point-to-point pattern its latency, bandwidths and n_1/2, per
 * collective its model and error (report-glance.c). 0, or -1 out of memory. */
int cf_report_html_glance(FILE *fp, const cf_report *r);

/* gnuplot processes a report runs at once, at most. */
#define CF_GNUPLOT_JOBS 8

/* Runs prog inside dir on the n scripts, split into up to jobs batches drawn side by side
 * (one gnuplot each). gnuplot's messages are kept in e on failure (naming the script it
 * names, else the first of its batch) and passed to warn (if not NULL) otherwise. */
int cf_gnuplot_run(const char *prog, const char *dir, const char *const *scripts, size_t n,
                   size_t jobs, void (*warn)(const char *line), cf_error *e);

/* Writes index.html. */
int cf_report_html(cf_report *r, const char *gnuplot_missing, cf_error *e);

#endif
