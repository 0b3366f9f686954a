/* What the files of the timing table share among themselves (table.c, table-read.c,
 * table-number.c, table-write.c): not part of table.h's interface. */
#ifndef CF_TABLE_INT_H
#define CF_TABLE_INT_H

#include <stddef.h>
#include <stdint.h>

/* Not table.h: it is the table's own interface, and table.c includes this one. */
struct cf_table;

/* The core columns, in cf_table_columns' order. */
enum { C_PATTERN, C_NP, C_BYTES, C_DATATYPE, C_BLOCKS, C_REPS, C_SAMPLES,
       C_TMIN, C_TAVG, C_TMAX, C_TMED, C_TCI, C_BW };

/* The rows' extra values are kept in blocks that the table owns (table.c). Room for n
 * bytes in the newest block; cf_table_strings_keep(t, k) then keeps the first
 * k. NULL out of memory. */
char *cf_table_strings_room(struct cf_table *t, size_t n);
void cf_table_strings_keep(struct cf_table *t, size_t k);

/* The characters of names ([a-z0-9_]), for a look-up per character: the reader's fast
 * path tests every character of every name. */
extern const unsigned char cf_table_name_chars[256];
static inline int cf_table_name_char(char c)
{
    return cf_table_name_chars[(unsigned char)c];
}

static inline int cf_table_is_digit(char c)
{
    return (unsigned)(c - '0') < 10;
}

/* Strict decimal number of n bytes: [+-]digits[.digits][e[+-]digits]. 0, or -1 on
 * anything else, NaN and infinity included. */
int cf_table_parse_double(const char *s, size_t n, double *out);
/* Decimal digits of n bytes, at most max: 0, -1 not a number, -2 too large. */
int cf_table_parse_u64(const char *s, size_t n, uint64_t max, uint64_t *out);
/* The reader's fast path: the number at p, when it is exact without strtod; where it
 * ends, or NULL to leave the field to the functions above. */
const char *cf_table_scan_u64(const char *p, const char *end, uint64_t max, uint64_t *out);
const char *cf_table_scan_double(const char *p, const char *end, double *out);

#endif
