/* The parse-options module (base/cli.c): one table gives the parser, the --help text
 * and the option list. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "tap.h"

static int calls;
static int count(const cf_option *opt, const char *arg, cf_error *e)
{
    calls++;
    if (strcmp(arg, "bad") == 0)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "--%s '%s': no", opt->long_name, arg);
    *(const char **)opt->value = arg;
    return 0;
}

typedef struct vals {
    const char *out, *called;
    int flag;
} vals;

static int parse(vals *v, unsigned flags, int argc, char **argv, int *first, cf_error *e)
{
    memset(v, 0, sizeof *v);
    const cf_option opts[] = {
        CF_OPT_STRING('o', "output", "FILE", &v->out, "where"),
        CF_OPT_BOOL(0, "flag", &v->flag, "a flag"),
        CF_OPT_CALL('c', "call", "X", &v->called, count, "a call"),
        CF_OPT_END(),
    };
    cf_error_clear(e);
    return cf_options_parse(opts, "Usage: t\n\n", flags, argc, argv, first, e);
}

static char *text_of(void (*fn)(FILE *, const char *, const cf_option *), const char *usage,
                     const cf_option *opts)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *fp = open_memstream(&buf, &n);
    fn(fp, usage, opts);
    fclose(fp);
    return buf;
}

static void list(FILE *fp, const char *usage, const cf_option *opts)
{
    (void)usage;
    cf_options_list(fp, opts);
}

int main(void)
{
    vals v;
    cf_error e;
    int first;
    char *a1[] = {"t", "-o", "x.json", "--flag", "-c", "y", "rest", NULL};
    is_int(parse(&v, 0, 7, a1, &first, &e), 0, "parses");
    ok(v.out && strcmp(v.out, "x.json") == 0 && v.flag == 1 && v.called &&
           strcmp(v.called, "y") == 0 && calls == 1,
       "string, bool and call options set");
    is_int(first, 6, "the first operand");
    char *a2[] = {"t", "x", "--flag", NULL};
    is_int(parse(&v, CF_PARSE_NO_OPERANDS, 3, a2, &first, &e), CF_EXIT_USAGE,
           "an operand refused");
    is_str(e.msg, "unexpected argument 'x'", "its message");
    char *a3[] = {"t", "--nope", NULL};
    parse(&v, 0, 2, a3, &first, &e);
    is_str(e.msg, "unknown option '--nope'", "an unknown long option");
    char *a4[] = {"t", "-z", NULL};
    parse(&v, 0, 2, a4, &first, &e);
    is_str(e.msg, "unknown option '-z'", "an unknown short option");
    char *a5[] = {"t", "--output", NULL};
    parse(&v, 0, 2, a5, &first, &e);
    is_str(e.msg, "option '--output' needs a value", "a missing value");
    char *a6[] = {"t", "--call=bad", NULL};
    is_int(parse(&v, 0, 2, a6, &first, &e), CF_EXIT_USAGE, "a call's refusal");
    is_str(e.msg, "--call 'bad': no", "is the error");
    char *a7[] = {"t", "x", "--flag", NULL};
    is_int(parse(&v, CF_PARSE_STOP_AT_OPERAND, 3, a7, &first, &e), 0, "POSIX order");
    ok(v.flag == 0 && first == 1, "options end at the first operand");

    const cf_option help[] = {
        CF_OPT_STRING('o', "output", "FILE", NULL,
                      "the file to write, a long text that runs past the end of the line and "
                      "wraps"),
        CF_OPT_BOOL(0, "a-very-long-option-name", NULL, "short"),
        CF_OPT_GROUP("More:"),
        CF_OPT_HELP(),
        CF_OPT_END(),
    };
    char *h = text_of(cf_options_help, "Usage: t\n\n", help);
    is_str(h,
           "Usage: t\n\nOptions:\n"
           "  -o, --output FILE  the file to write, a long text that runs past the end of\n"
           "                     the line and wraps\n"
           "      --a-very-long-option-name\n"
           "                     short\n"
           "\nMore:\n"
           "  -h, --help         print this help and exit\n",
           "help: aligned, wrapped at 79 columns, a long name on its own line");
    free(h);
    char *l = text_of(list, NULL, help);
    is_str(l, "--output\n-o\n--a-very-long-option-name\n--help\n-h\n", "the option list");
    free(l);
    return tap_done();
}
