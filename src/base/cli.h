/* Small pieces every subcommand's option parsing shares. */
#ifndef CF_CLI_H
#define CF_CLI_H

#include <stddef.h>

#include "base/error.h"

/* For a subcommand that a later version fills in: prints help for --help, otherwise says
 * plainly that it is not available and returns CF_EXIT_USAGE. */
int cf_cli_unavailable(int argc, char **argv, const char *help);

/* A comma-separated list of integers in [min, max], e.g. "--np 2,4,8"; sorted, without
 * repeats. *out is malloc'd. what names the option in messages ("--np"). */
int cf_int_list_parse(const char *s, const char *what, long min, long max, long **out,
                      size_t *n, cf_error *e);

/* One integer in [min, max]; refuses trailing garbage, quoting the value. */
int cf_int_parse(const char *s, const char *what, long min, long max, long *out, cf_error *e);

/* word quoted for a POSIX shell where it needs to be ('it'\''s'), into out[n]; -1 when it
 * does not fit. */
int cf_shell_quote(const char *word, char *out, size_t n);

/* One finite number in [min, max]. */
int cf_double_parse(const char *s, const char *what, double min, double max, double *out,
                    cf_error *e);

#endif
