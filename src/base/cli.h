/* Small pieces every subcommand's option parsing shares. */
#ifndef CF_CLI_H
#define CF_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "base/error.h"

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

/* ---- Options: declared once, in one table per command ----
 *
 * A command lists its options in one array of cf_option ending with CF_OPT_END(); the
 * parser (getopt_long built from it), the --help text and the option list the man-page
 * check reads all come from that array (after git's parse-options). */

enum cf_option_kind {
    CF_OPTION_END,
    CF_OPTION_GROUP,  /* a heading in --help ("Simulated clusters:"), no option */
    CF_OPTION_BOOL,   /* sets *(int *)value to 1 */
    CF_OPTION_STRING, /* *(const char **)value = the argument */
    CF_OPTION_CALL,   /* fn(opt, argument or NULL, e); value is the command's context */
    CF_OPTION_HELP,   /* -h, --help: prints the help, parsing stops */
    CF_OPTION_QUIET,  /* -q, --quiet: nothing but errors (cf_set_quiet), and *value = 1 */
};

typedef struct cf_option cf_option;
typedef int (*cf_option_fn)(const cf_option *opt, const char *arg, cf_error *e);

struct cf_option {
    int kind;
    int short_name;        /* 0: none */
    const char *long_name; /* without "--"; a GROUP's heading */
    const char *argh;      /* the argument's name in --help ("FILE"); NULL: takes none */
    const char *help;      /* one paragraph, wrapped by the help printer */
    void *value;
    cf_option_fn fn;
};

#define CF_OPT_END() {CF_OPTION_END, 0, NULL, NULL, NULL, NULL, NULL}
#define CF_OPT_GROUP(title) {CF_OPTION_GROUP, 0, title, NULL, NULL, NULL, NULL}
#define CF_OPT_BOOL(s, l, v, h) {CF_OPTION_BOOL, s, l, NULL, h, v, NULL}
#define CF_OPT_STRING(s, l, a, v, h) {CF_OPTION_STRING, s, l, a, h, v, NULL}
#define CF_OPT_CALL(s, l, a, ctx, fn, h) {CF_OPTION_CALL, s, l, a, h, ctx, fn}
#define CF_OPT_HELP() {CF_OPTION_HELP, 'h', "help", NULL, "print this help and exit", NULL, NULL}
#define CF_OPT_QUIET(v, h) {CF_OPTION_QUIET, 'q', "quiet", NULL, h, v, NULL}

enum {
    CF_PARSE_STOP_AT_OPERAND = 1, /* options end at the first operand (POSIX order) */
    CF_PARSE_NO_OPERANDS = 2,     /* an operand is a usage error ("unexpected argument") */
};

/* Parses argv[1..] against opts. Returns 0 with *first the index of the first operand,
 * CF_PARSE_HELP when --help printed the help (usage, then the options) on stdout, or
 * CF_EXIT_USAGE with e filled ("unknown option '--x'", "option '-o' needs a value", or
 * what an option's fn said). */
#define CF_PARSE_HELP (-1)
int cf_options_parse(const cf_option *opts, const char *usage, unsigned flags, int argc,
                     char **argv, int *first, cf_error *e);

/* The option a file operand was likely meant for: a string option --model for a .json
 * name, --input for a .csv name (either case), or a repeatable one of those names; NULL if
 * none, if opts has no such option, or if a string one was given already. */
const cf_option *cf_options_for_file(const cf_option *opts, const char *operand);

/* The --help text: usage (the lines before the options, ending in a blank line), then
 * "Options:" and one entry per option, wrapped to 79 columns. */
void cf_options_help(FILE *fp, const char *usage, const cf_option *opts);

/* The options as the man-page check reads them: "--long" and "-s", one per line
 * (commfit SUBCOMMAND --list-options, which --help does not show). */
void cf_options_list(FILE *fp, const cf_option *opts);

#endif
