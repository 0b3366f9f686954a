/* What the files of commfit measure's engine share among themselves (options, plan,
 * sampling, run): not part of measure.h's interface. */
#ifndef CF_MEASURE_INT_H
#define CF_MEASURE_INT_H

#include <stddef.h>

#include "measure/measure.h"

/* Appends printf-style text to a growing malloc'd buffer; 0, or -1 out of memory. */
int cf_measure_appendf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Appends one run of a per-rank list (rank_cpus, rank_cpu_share): value for n ranks in a
 * row, as "value" or "value*n", after a ';' unless the list is empty; a thousand ranks
 * alike make one word (rank_hosts writes its runs so). 0, or -1 out of memory. */
int cf_measure_append_run(char **buf, size_t *len, size_t *cap, const char *value, long n);

/* The file's contents up to its last complete line: what an interrupted run left. */
int cf_measure_read_complete_lines(const char *path, char **buf, size_t *len, cf_error *e);

/* Whether the plan has a two-rank pattern (or derived datatypes). */
int cf_measure_needs_two(const cf_measure_opts *o);

/* Whether pattern p runs at np. */
int cf_measure_runs_at(const cf_measure_opts *o, const cf_pattern *p, long np);

/* The process counts the plan visits, ascending, into out (room for o->nnps + 1). */
size_t cf_measure_block_nps(const cf_measure_opts *o, long *out);

#endif
