/* Message sizes as users write them: 4096, 1K, 1MiB, 1MB; lists and power-of-two ranges. */
#ifndef CF_SIZE_H
#define CF_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* Largest size any subcommand accepts: 1 TiB. Larger is surely a typo. */
#define CF_BYTES_MAX ((uint64_t)1 << 40)

/* One size: digits with an optional suffix K M G, KiB MiB GiB (1024-based), KB MB GB
 * (1000-based) or B. Refuses anything else, quoting the value. */
int cf_size_parse(const char *s, uint64_t *bytes, cf_error *e);

/* A comma-separated list of sizes and ranges "LO:HI" (LO, then powers of two from the
 * next one up, to HI inclusive; LO=0 gives 0,1,2,4...). The result is sorted, strictly
 * increasing; *out is malloc'd and owned by the caller. */
int cf_size_list_parse(const char *s, uint64_t **out, size_t *n, cf_error *e);

/* A size that was measured or asked for, for formulas and messages: in the largest unit
 * when that is exact ("0 B", "512 B", "1 KiB", "1.5 MiB"), else in bytes ("4192000 B",
 * never "4 MiB" for it): what is shown is the size, and "--bytes 4MiB" means what
 * "4 MiB" shows. */
void cf_size_format(uint64_t bytes, char *buf, size_t n);
/* The sizes lo to hi so ("64 KiB to 2 MiB"), one size where they are equal ("64 KiB"). */
void cf_size_range_format(uint64_t lo, uint64_t hi, char *buf, size_t n);

/* A size that is an estimate (n_1/2, the size reaching 90% of r_inf): three significant
 * digits in the largest unit ("3.99 MiB"), as other estimated figures are shown. Finite
 * and >= 0; the caller says "-" otherwise. */
void cf_size_format_estimate(double bytes, char *buf, size_t n);

/* The precision for "%.*g" that shows x with at least DIGITS significant digits and
 * never in exponent form below 10^9 (1023 KiB, not 1.02e+03 KiB). */
int cf_sig_prec(double x, int digits);

/* What snprintf(buf, n, "%.*g", digits, v) writes and returns, byte for byte: without
 * printf where the fixed form holds (1e-4 <= |v| < 10^digits, digits 1 to 9) and no
 * rounding tie is near, with it elsewhere. A batch of answers formats its notes' figures
 * a million times. */
int cf_fmt_g(char *buf, size_t n, double v, int digits);

#endif
