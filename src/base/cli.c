/* Option-parsing helpers shared by the subcommands. */
#include "config.h"

#include "base/cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int cf_int_parse(const char *s, const char *what, long min, long max, long *out, cf_error *e)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    const char *d = *s == '-' ? s + 1 : s;
    if (*d < '0' || *d > '9' || *end != '\0' || (errno != 0 && errno != ERANGE))
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s '%s': expected an integer", what, s);
    /* An open end is not a number to say (--blocks 2147483648 read "expected
     * -9223372036854775808 to 2147483647"; the bad-input audit); beyond a long, strtol
     * clamps v to its end. */
    int open_end = min == LONG_MIN || max == LONG_MAX;
    if (errno == ERANGE && open_end)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s '%s': too %s a number", what, s,
                            v < 0 ? "small" : "large");
    if (v < min || v > max || errno == ERANGE) {
        if (min == LONG_MIN)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s '%s': expected at most %ld", what,
                                s, max);
        if (max == LONG_MAX)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s '%s': expected at least %ld",
                                what, s, min);
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s '%s': expected %ld to %ld", what, s,
                            min, max);
    }
    *out = v;
    return 0;
}

int cf_double_parse(const char *s, const char *what, double min, double max, double *out,
                    cf_error *e)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    /* Decimal only: strtod also reads hexadecimal (0x10 is 16, where every count and size
     * refuses it), "inf" and "nan". */
    if (*s == '\0' || *end != '\0' || errno != 0 || !isfinite(v) ||
        strpbrk(s, "xXpP") != NULL)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s '%s': expected a number", what, s);
    if (v < min || v > max)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s '%s': expected %g to %g", what, s, min,
                            max);
    *out = v;
    return 0;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int cf_int_list_parse(const char *s, const char *what, long min, long max, long **out,
                      size_t *n, cf_error *e)
{
    if (*s == '\0')
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s: empty list", what);
    size_t cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == ',';
    long *v = malloc(cap * sizeof *v);
    char *copy = strdup(s);
    if (v == NULL || copy == NULL) {
        free(v);
        free(copy);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    size_t k = 0;
    char *p = copy;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        int rc = cf_int_parse(p, what, min, max, &v[k], e);
        if (rc != 0) {
            free(v);
            free(copy);
            return rc;
        }
        k++;
        if (!comma)
            break;
        p = comma + 1;
    }
    free(copy);
    qsort(v, k, sizeof *v, cmp_long);
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        if (m == 0 || v[i] != v[m - 1])
            v[m++] = v[i];
    *out = v;
    *n = m;
    return 0;
}

int cf_shell_quote(const char *word, char *out, size_t n)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_./+-:,=@%";
    int quote = word[0] == '\0' || strspn(word, plain) != strlen(word);
    size_t k = 0;
    if (quote && k < n)
        out[k++] = '\'';
    /* Single quotes keep everything but a single quote, written '\''. */
    for (const char *p = word; *p && k < n; p++) {
        if (quote && *p == '\'')
            k += (size_t)snprintf(out + k, n - k, "'\\''");
        else
            out[k++] = *p;
    }
    if (quote && k < n)
        out[k++] = '\'';
    if (k >= n) {
        if (n > 0)
            out[n - 1] = '\0';
        return -1;
    }
    out[k] = '\0';
    return 0;
}

/* ---- Options from one table ---- */

/* getopt_long's value for the option at index i of the table: past every char. */
#define OPT_VAL0 256

static size_t opts_count(const cf_option *opts)
{
    size_t n = 0;
    while (opts[n].kind != CF_OPTION_END)
        n++;
    return n;
}

static int takes_arg(const cf_option *o)
{
    return o->argh != NULL;
}

/* Whether o's value names a file or folder, by its name in --help (FILE, TABLE, DIR, MODEL,
 * PLATFORM.xml). */
static int names_file(const cf_option *o)
{
    static const char *const names[] = {"FILE", "TABLE", "DIR", "MODEL", "PATH"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(o->argh, names[i]) == 0)
            return 1;
    size_t n = strlen(o->argh);
    return n > 4 && strcmp(o->argh + n - 4, ".xml") == 0;
}

static int apply(const cf_option *o, const char *arg, const char *usage, const cf_option *opts,
                 cf_error *e)
{
    switch (o->kind) {
    case CF_OPTION_BOOL:
        *(int *)o->value = 1;
        return 0;
    case CF_OPTION_STRING:
        *(const char **)o->value = arg;
        return 0;
    case CF_OPTION_CALL:
        return o->fn(o, arg, e);
    case CF_OPTION_HELP:
        cf_options_help(stdout, usage, opts);
        return CF_PARSE_HELP;
    case CF_OPTION_QUIET:
        cf_set_quiet(1);
        if (o->value != NULL)
            *(int *)o->value = 1;
        return 0;
    }
    return 0;
}

/* Whether name ends in suffix, in either case (M.JSON). */
static int ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n > k && strcasecmp(name + n - k, suffix) == 0;
}

const cf_option *cf_options_for_file(const cf_option *opts, const char *operand)
{
    const char *want = ends_with(operand, ".json")  ? "model"
                       : ends_with(operand, ".csv") ? "input"
                                                    : NULL;
    for (size_t i = 0; want != NULL && opts[i].kind != CF_OPTION_END; i++) {
        const cf_option *o = &opts[i];
        /* Not one already given: a second file is no slip of the first's option. */
        if (o->kind == CF_OPTION_STRING && strcmp(o->long_name, want) == 0)
            return *(const char **)o->value == NULL ? o : NULL;
        /* A repeatable one (report's -i) takes the file whatever was given before. */
        if (o->kind == CF_OPTION_CALL && strcmp(o->long_name, want) == 0)
            return o;
    }
    return NULL;
}

/* An unknown long option: an abbreviation of two or more (getopt_long says no more than
 * "unknown"), or one an 's' away from an option ('--patterns' for predict's --pattern). */
static int unknown_long(const cf_option *opts, size_t n, const char *arg, cf_error *e)
{
    if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0')
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "unknown option '%s'", arg);
    const char *name = arg + 2;
    size_t len = strcspn(name, "=");
    if (len == 0) /* "--=x": no name */
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "unknown option '%s'", arg);
    char matches[400] = "";
    int nm = 0;
    const char *near = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *l = opts[i].long_name;
        if (opts[i].kind == CF_OPTION_GROUP || l == NULL)
            continue;
        size_t ll = strlen(l);
        if (strncmp(l, name, len) == 0) {
            size_t k = strlen(matches);
            snprintf(matches + k, sizeof matches - k, "%s--%s", nm++ ? ", " : "", l);
        }
        if ((ll + 1 == len && strncmp(l, name, ll) == 0 && name[ll] == 's') ||
            (ll == len + 1 && strncmp(l, name, len) == 0 && l[len] == 's'))
            near = l;
    }
    if (nm > 1)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "option '--%.*s' is ambiguous: %s",
                            (int)len, name, matches);
    if (nm == 1) /* getopt_long's hidden --list-options shared the prefix */
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "unknown option '--%.*s' (%s?)",
                            (int)len, name, matches);
    if (near != NULL)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "unknown option '--%.*s' (--%s?)",
                            (int)len, name, near);
    return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "unknown option '%s'", arg);
}

int cf_options_parse(const cf_option *opts, const char *usage, unsigned flags, int argc,
                     char **argv, int *first, cf_error *e)
{
    size_t n = opts_count(opts);
    struct option *lo = calloc(n + 2, sizeof *lo);
    char *so = malloc(3 * n + 4);
    if (lo == NULL || so == NULL) {
        free(lo);
        free(so);
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "out of memory");
    }
    /* Operands in order, for the permutation below: room for every argument. */
    char **ops = malloc((size_t)(argc > 0 ? argc : 1) * sizeof *ops);
    if (ops == NULL) {
        free(lo);
        free(so);
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "out of memory");
    }
    size_t nl = 0, ns = 0, nops = 0;
    /* '-': operands come back in order (as 1), options after them still read, whatever
     * POSIXLY_CORRECT says; glibc's own permutation stops at the first operand when it is
     * set, and 'commfit fit t.csv -o m.json' read '-o' as a table. */
    so[ns++] = (flags & CF_PARSE_STOP_AT_OPERAND) ? '+' : '-';
    so[ns++] = ':';
    for (size_t i = 0; i < n; i++) {
        const cf_option *o = &opts[i];
        if (o->kind == CF_OPTION_GROUP)
            continue;
        lo[nl++] = (struct option){o->long_name, takes_arg(o) ? required_argument : no_argument,
                                   NULL, OPT_VAL0 + (int)i};
        if (o->short_name != 0) {
            so[ns++] = (char)o->short_name;
            if (takes_arg(o))
                so[ns++] = ':';
        }
    }
    /* Hidden: the option names, for the man-page check. */
    lo[nl++] = (struct option){"list-options", no_argument, NULL, OPT_VAL0 + (int)n};
    so[ns] = '\0';
    opterr = 0;
    /* 0, not 1: glibc then reads the optstring's '+' and ':' again, as a second parse in
     * one process (the tests) needs. */
    optind = 0;
    int c, rc = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
        if (c == 1) {
            ops[nops++] = optarg;
            continue;
        }
        const cf_option *o = NULL;
        if (c == OPT_VAL0 + (int)n) {
            cf_options_list(stdout, opts);
            rc = CF_PARSE_HELP;
            break;
        }
        if (c >= OPT_VAL0)
            o = &opts[c - OPT_VAL0];
        for (size_t i = 0; i < n && o == NULL && c != ':' && c != '?'; i++)
            if (opts[i].kind != CF_OPTION_GROUP && opts[i].short_name == c)
                o = &opts[i];
        if (c == ':')
            rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "option '%s' needs a value",
                              argv[optind - 1]);
        else if (o == NULL && optopt != 0 && optopt < OPT_VAL0)
            rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "unknown option '-%c'", optopt);
        else if (o == NULL && optopt >= OPT_VAL0 && optopt < OPT_VAL0 + (int)n &&
                 strchr(argv[optind - 1], '=') != NULL)
            /* A value given to an option that takes none (getopt_long names it in optopt):
             * '--quiet=1' was an "unknown option '--quiet' (--quiet?)". */
            rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "option '--%s' takes no value",
                              opts[optopt - OPT_VAL0].long_name);
        else if (o == NULL)
            rc = unknown_long(opts, n, argv[optind - 1], e);
        else if (takes_arg(o) && optarg != NULL && optarg[0] == '\0' && names_file(o))
            /* Refused here for every option naming a file alike: an empty name reached the
             * open ("cannot open: No such file or directory", no option named, exit 1), after
             * fit had done all its work for -o ''. The others' own checks say more (the
             * choices, a list's form). */
            rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                              "option '--%s' has an empty value: expected a file name",
                              o->long_name);
        else
            rc = apply(o, optarg, usage, opts, e);
    }
    free(lo);
    free(so);
    /* The operands read in order, then those after "--", at the end of argv (the options
     * before them, in their order), as glibc's permutation leaves them. */
    if (nops > 0) {
        int k = 1;
        for (int i = 1; i < optind; i++) {
            int op = 0;
            for (size_t j = 0; j < nops && !op; j++)
                op = argv[i] == ops[j];
            if (!op)
                argv[k++] = argv[i];
        }
        optind = k;
        for (size_t j = 0; j < nops; j++)
            argv[k++] = ops[j];
    }
    free(ops);
    *first = optind;
    if (rc == 0 && (flags & CF_PARSE_NO_OPERANDS) && optind < argc) {
        /* A file where an option names one: say which (commfit predict model.json). */
        const cf_option *named = cf_options_for_file(opts, argv[optind]);
        char flag[64];
        if (named == NULL)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "unexpected argument '%s'",
                                argv[optind]);
        if (named->short_name != 0)
            snprintf(flag, sizeof flag, "-%c", named->short_name);
        else
            snprintf(flag, sizeof flag, "--%s", named->long_name);
        rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "unexpected argument '%s': name a %s with %s",
                          argv[optind],
                          strcmp(named->long_name, "input") == 0 ? "table" : "model file", flag);
    }
    return rc;
}

/* "  -o, --output FILE" into buf; its length. */
static size_t left_text(const cf_option *o, char *buf, size_t n)
{
    int k;
    if (o->short_name != 0)
        k = snprintf(buf, n, "  -%c, --%s", o->short_name, o->long_name);
    else
        k = snprintf(buf, n, "      --%s", o->long_name);
    if (o->argh != NULL && k >= 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k, " %s", o->argh);
    return k < 0 ? 0 : (size_t)k;
}

#define HELP_WIDTH 79   /* columns of a help line at most */
#define HELP_COL_MAX 26 /* where the help text starts at most; longer names stand alone */

/* text from column col (the cursor at column at), wrapped at HELP_WIDTH. */
static void wrap(FILE *fp, const char *text, size_t col, size_t at)
{
    const char *p = text;
    while (*p != '\0') {
        while (*p == ' ')
            p++;
        if (*p == '\0')
            break;
        /* A name that leaves fewer than two blanks before the text stands alone (it ran
         * into it: "--coll-selector NAMEwhose"). */
        if (at > 0 && at + 2 > col) {
            fputc('\n', fp);
            at = 0;
        }
        fprintf(fp, "%*s", (int)(col - at), "");
        size_t room = HELP_WIDTH - col, end = 0, i = 0;
        /* The longest run of whole words that fits; one word at least. */
        for (;;) {
            size_t w = i;
            while (p[w] != '\0' && p[w] != ' ')
                w++;
            if (end != 0 && w > room)
                break;
            end = w;
            for (i = w; p[i] == ' '; i++)
                ;
            if (p[i] == '\0')
                break;
        }
        size_t last = end;
        fwrite(p, 1, last, fp);
        p += last;
        at = col + last;
    }
    fputc('\n', fp);
}

void cf_options_help(FILE *fp, const char *usage, const cf_option *opts)
{
    fputs(usage, fp);
    size_t col = 0;
    char left[128];
    for (const cf_option *o = opts; o->kind != CF_OPTION_END; o++) {
        size_t k = o->kind == CF_OPTION_GROUP ? 0 : left_text(o, left, sizeof left) + 2;
        if (k > col && k <= HELP_COL_MAX)
            col = k;
    }
    fputs("Options:\n", fp);
    for (const cf_option *o = opts; o->kind != CF_OPTION_END; o++) {
        if (o->kind == CF_OPTION_GROUP) {
            fprintf(fp, "\n%s\n", o->long_name);
            continue;
        }
        size_t k = left_text(o, left, sizeof left);
        fputs(left, fp);
        wrap(fp, o->help, col, k);
    }
}

void cf_options_list(FILE *fp, const cf_option *opts)
{
    for (const cf_option *o = opts; o->kind != CF_OPTION_END; o++) {
        if (o->kind == CF_OPTION_GROUP)
            continue;
        fprintf(fp, "--%s\n", o->long_name);
        if (o->short_name != 0)
            fprintf(fp, "-%c\n", o->short_name);
    }
}
