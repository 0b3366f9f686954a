/* Tables fitted together: whether they look like one machine's (fit-pooled.c). */
#ifndef CF_FIT_POOLED_H
#define CF_FIT_POOLED_H

#include <stddef.h>

#include "base/table.h"

/* Warns (cf_warn) where a table tables[i] (i >= 1) shares a fit group (pattern, np,
 * datatype) with tables[0] and was measured differently from it (mpi_library by
 * family and version, coll_selector, simulated, platform_sha256, where both have it) or its
 * times part from tables[0]'s by 1.5x or more in the median over the points both measured
 * (statistic stat). The fitted rows are rows[0..nrows), rows[k] of table tab[k]; names[i]
 * names tables[i]. 0, or -1 when out of memory. */
int cf_fit_pooled_check(cf_table *const *tables, const char *const *names, size_t n,
                        const cf_row *const *rows, const size_t *tab, size_t nrows,
                        cf_statistic stat);

#endif
