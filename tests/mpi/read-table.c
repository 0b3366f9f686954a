/* Test helper: reads a timing table with commfit's own reader (which checks every row
 * against the schema) and prints what the measure tests compare, one line each:
 * "meta KEY", then "PATTERN NP BYTES DATATYPE REPS SAMPLES BW STOP" per row (BW is "-"
 * when empty, "+" when a number). */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "base/table.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: read-table FILE\n", stderr);
        return 2;
    }
    cf_table *t;
    cf_error e;
    cf_error_clear(&e);
    if (cf_table_read(argv[1], &t, &e) != 0)
        return cf_error_report(&e);
    for (size_t i = 0; i < t->n_meta; i++)
        printf("meta %s\n", t->meta[i].key);
    for (size_t i = 0; i < t->n_rows; i++) {
        const cf_row *r = &t->rows[i];
        printf("%s %d %llu %s %ld %d %s %s\n", r->pattern, r->np, (unsigned long long)r->bytes,
               r->datatype, r->reps, r->samples, isnan(r->bw_MiBps) ? "-" : "+",
               r->extra ? r->extra : "");
    }
    cf_table_free(t);
    return 0;
}
