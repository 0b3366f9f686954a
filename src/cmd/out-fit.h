/* commfit fit's human lines, all of them: the summary (one aligned line per fit, or with
 * --verbose each fit in detail), the warnings grouped by kind, the across-np notes. */
#ifndef CF_OUT_FIT_H
#define CF_OUT_FIT_H

#include <stdio.h>

#include "base/error.h"
#include "fit/across.h"
#include "fit/fit.h"


/* What commfit fit made, for its summary. */
typedef struct cf_fit_summary {
    const cf_fit *fits;
    size_t nfits;
    const cf_error *skipped; /* groups that could not be fitted, why */
    size_t nskipped;
} cf_fit_summary;

/* What stdout shows: the formulas in that language (not NULL), else each fit in detail
 * (verbose), else the table. */
void cf_out_fit_summary(FILE *fp, const cf_fit_summary *s, const char *formulas, int verbose);
/* The default summary: a header and one aligned line per fit, on fp. */
void cf_out_fit_table(FILE *fp, const cf_fit_summary *s);
/* --verbose: per fit its formula, quality, breakpoints, saturation, gains over pack, and
 * its set-aside sizes and warnings under it. */
void cf_out_fit_detail(FILE *fp, const cf_fit *f);
/* The default warnings, on stderr after the summary: one line per kind, naming the fits. */
void cf_out_fit_warnings(const cf_fit_summary *s);
/* The skipped groups one by one ("skipped: ..."), as --verbose says them. */
void cf_out_fit_skipped(const cf_fit_summary *s);
/* One line per reason a pattern with a per-np fit (of fits) has no across-np model, and
 * what predict does instead. */
void cf_out_fit_across_notes(const cf_across_set *as, const cf_fit *fits, size_t nfits);
/* One warning naming the across-np models that set points aside ("allreduce 9 of 36"), and
 * what --no-robust does: a model the wrong shape in p misses whole process counts, and
 * setting them aside narrows its intervals. */
void cf_out_fit_across_set_aside(const cf_across_set *as);
/* One warning naming the patterns whose across-np model does not follow the MPI library's
 * switch rules for want of a unit read at the smallest np (no np=2 measured). */
void cf_out_fit_across_grid_none(const cf_across_set *as);

#endif
