/* Tables fitted together: whether they look like one machine's (fit-pooled.c). */
#ifndef CF_FIT_POOLED_H
#define CF_FIT_POOLED_H

#include <stddef.h>

#include "base/table.h"

/* Warns (cf_warn) where tables[1..n) were measured differently from tables[0] (mpi_library,
 * coll_selector, simulated, platform_sha256, where both have it) or their times part from
 * its by 1.5x or more in the median over the points both measured (statistic stat), names[i]
 * naming tables[i]. 0, or -1 when out of memory. */
int cf_fit_pooled_check(cf_table *const *tables, const char *const *names, size_t n,
                        cf_statistic stat);

#endif
