/* commfit import: IMB or OSU result files into one timing table (data/NAME.csv unless -o
 * names it). The parsing is in src/import*.c; this file is the command line. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "commands.h"
#include "base/error.h"
#include "base/outfile.h"
#include "fit/across.h"
#include "import/import.h"
#include "base/table.h"

static const char usage[] =
    "Usage: commfit import imb|osu FILE... [-o TABLE.csv] [OPTIONS]\n"
    "\n"
    "Reads Intel MPI Benchmarks (IMB-MPI1) or OSU Micro-Benchmarks results into a timing\n"
    "table, so that fit, predict and report work on them. Every table of every FILE is\n"
    "imported; the column 'source' names the file and line each row group came from.\n"
    "FILE '-' is the standard input.\n"
    "\n";

/* Warnings, and notes (messages starting "note: ") that are no warning. */
static void warn_cb(void *ctx, const char *file, long line, const char *msg)
{
    (void)ctx;
    void (*say)(const char *, ...) = cf_warn;
    if (strncmp(msg, "note: ", 6) == 0) {
        say = cf_msg;
        msg += 6;
    }
    if (file != NULL && file[0] != '\0' && line > 0)
        say("%s:%ld: %s", file, line, msg);
    else if (file != NULL && file[0] != '\0')
        say("%s: %s", file, msg);
    else
        say("%s", msg);
}

/* The command line as metadata: arguments with blanks or quotes are single-quoted. */
static char *command_line(int argc, char **argv)
{
    size_t cap = sizeof "commfit";
    for (int i = 0; i < argc; i++)
        cap += 4 * strlen(argv[i]) + 3;
    char *s = malloc(cap), *p = s;
    if (s == NULL)
        return NULL;
    p += sprintf(p, "commfit");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        *p++ = ' ';
        if (a[0] != '\0' && strpbrk(a, " \t'\"\\$") == NULL) {
            p += sprintf(p, "%s", a);
            continue;
        }
        *p++ = '\'';
        for (; *a; a++) {
            if (*a == '\'')
                p += sprintf(p, "'\\''");
            else
                *p++ = *a;
        }
        *p++ = '\'';
    }
    *p = '\0';
    return s;
}

#define IMPORT_NP_MAX 64

typedef struct args {
    cf_import_opts o;
    const char *output;
    int quiet, help;
    cf_import_format format;
    int first, nfiles;          /* the input files: argv[first ...] */
    int np[IMPORT_NP_MAX], nnp; /* --np: one for every FILE, or one per FILE */
    char *library;              /* --mpi-library, as the library states it */
} args;

/* --np N[,N...]: results of several runs, one file a process count (OSU prints none). */
static int opt_np(const cf_option *opt, const char *arg, cf_error *e)
{
    args *a = opt->value;
    a->nnp = 0;
    for (const char *s = arg;; s++) {
        char one[32];
        size_t n = strcspn(s, ",");
        if (a->nnp == IMPORT_NP_MAX || n == 0 || n >= sizeof one)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "--np '%s': expected N or N,N,... (one per FILE, at most %d)", arg,
                                IMPORT_NP_MAX);
        memcpy(one, s, n);
        one[n] = '\0';
        long np;
        /* From 2: a run of one process moves no data; its rows imported, fit skipped every
         * group and exited 1. */
        if (cf_int_parse(one, "--np", 2, CF_TABLE_NP_MAX, &np, e) != 0)
            return e->code;
        a->np[a->nnp++] = (int)np;
        s += n;
        if (*s == '\0')
            break;
    }
    a->o.np = a->np[0];
    return 0;
}

static int opt_ranks_per_node(const cf_option *opt, const char *arg, cf_error *e)
{
    return cf_int_parse(arg, "--ranks-per-node", 1, CF_TABLE_NP_MAX,
                        &((args *)opt->value)->o.ranks_per_node, e);
}

static int opt_mpi_library(const cf_option *opt, const char *arg, cf_error *e)
{
    args *a = opt->value;
    free(a->library);
    int rc = cf_import_library_name(arg, &a->library, e);
    a->o.mpi_library = a->library;
    return rc;
}

/* Whether the first version number in the library's name ("Open MPI v4.1.6", "MPICH
 * Version: 3.4.3") is major.minor (minor -1: any). A name without one is taken to be. */
static int version_in(const char *library, int major, int minor)
{
    const char *p = library;
    while (*p != '\0' && !(*p >= '0' && *p <= '9'))
        p++;
    if (*p == '\0')
        return 1;
    char *end;
    long a = strtol(p, &end, 10), b = *end == '.' ? strtol(end + 1, NULL, 10) : -1;
    return a == major && (minor < 0 || b == minor);
}

/* Which switch rules fit will follow for the library named, or that it follows none; where
 * the version named is not the one they are of, that too. */
static void say_rules(const char *library)
{
    const char *rules = cf_rules_for(library, NULL, 0);
    if (rules == NULL)
        cf_msg("mpi_library '%s': commfit knows the collective switch rules of MPICH "
               "and Open MPI only; fit and predict read this table without switch rules",
               library);
    else if (strncmp(rules, "mpich", 5) == 0)
        cf_msg("mpi_library '%s': fit and predict follow MPICH's collective switch rules%s",
               library, version_in(library, 3, -1) || version_in(library, 4, -1)
                            ? ""
                            : " (its default thresholds of MPICH 3.x and 4.x, which this "
                              "version may not keep)");
    else if (strcmp(rules, "openmpi-4.0") == 0)
        cf_msg("mpi_library '%s': fit and predict follow Open MPI's collective switch rules "
               "before 4.1 (the fixed decisions of its tuned component from 1.x to 4.0.x)",
               library);
    else
        cf_msg("mpi_library '%s': fit and predict follow Open MPI 4.1's collective switch "
               "rules%s",
               library, version_in(library, 4, 1)
                            ? ""
                            : " (the fixed decisions of its tuned component, which this "
                              "version may not make)");
}

/* Whether t holds a row of more than 2 processes. */
static int beyond_two(const cf_table *t)
{
    for (size_t i = 0; i < t->n_rows; i++)
        if (t->rows[i].np > 2)
            return 1;
    return 0;
}

static int opt_pattern(const cf_option *opt, const char *arg, cf_error *e)
{
    size_t n = strlen(arg);
    if (n == 0 || n >= CF_PATTERN_MAX || strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789_") != n)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--pattern '%s': expected 1 to %d lower-case letters, digits or '_'",
                            arg, CF_PATTERN_MAX - 1);
    ((args *)opt->value)->o.pattern = arg;
    return 0;
}

static int parse_args(int argc, char **argv, args *a)
{
    const cf_option options[] = {
        CF_OPT_STRING('o', "output", "FILE", &a->output,
                      "the table to write ('-': standard output; default: data/NAME.csv, NAME "
                      "the first FILE's name without its extension)"),
        CF_OPT_CALL(0, "np", "N[,N...]", a, opt_np,
                    "process count of tables that do not state one (OSU collectives print "
                    "none; such a table needs it); a list gives one per FILE, in order, for "
                    "the runs of one benchmark at several process counts"),
        CF_OPT_CALL(0, "ranks-per-node", "N", a, opt_ranks_per_node,
                    "the ranks each node held, filling the nodes in order (np ranks span "
                    "np/N nodes, rounded up), the same for every FILE; recorded as "
                    "ranks_per_node, so that predict knows which nodes a process count spans"),
        CF_OPT_CALL(0, "mpi-library", "'NAME VERSION'", a, opt_mpi_library,
                    "the MPI library that ran the benchmarks ('Open MPI 4.1.6', 'MPICH "
                    "4.0.2'), which IMB and OSU do not print; recorded as mpi_library, as "
                    "the library states it ('Open MPI v4.1.6'), so that fit follows its "
                    "collective switch rules; another library is recorded as given, and "
                    "fit follows no switch rules"),
        CF_OPT_CALL(0, "pattern", "NAME", a, opt_pattern,
                    "pattern of every imported table (all of one benchmark); also imports an "
                    "OSU test commfit does not know"),
        CF_OPT_BOOL(0, "lenient", &a->o.lenient,
                    "leave out a broken or cut-off table with a warning instead of failing; "
                    "the complete tables are kept"),
        CF_OPT_QUIET(&a->quiet, "print nothing but errors (not which file was written, no "
                                "warnings)"),
        CF_OPT_HELP(),
        CF_OPT_END(),
    };
    cf_error e;
    cf_error_clear(&e);
    int first;
    int rc = cf_options_parse(options, usage, 0, argc, argv, &first, &e);
    if (rc == CF_PARSE_HELP) {
        a->help = 1;
        return 0;
    }
    if (rc != 0)
        return cf_usage_error("%s", e.msg);
    if (first >= argc)
        return cf_usage_error("expected the format of the results: 'imb' or 'osu'");
    const char *fmt = argv[first++];
    if (strcmp(fmt, "imb") == 0)
        a->format = CF_IMPORT_IMB;
    else if (strcmp(fmt, "osu") == 0)
        a->format = CF_IMPORT_OSU;
    else
        return cf_usage_error("unknown format '%s': expected 'imb' or 'osu'", fmt);
    if (first >= argc)
        return cf_usage_error("no input file: expected %s result files after '%s'", fmt, fmt);
    for (int i = first; i < argc; i++)
        if (argv[i][0] == '\0')
            return cf_usage_error("an empty file name: expected %s result files after '%s'", fmt,
                                  fmt);
    if (a->output == NULL && strcmp(argv[first], "-") == 0)
        return cf_usage_error("reading the standard input: name the table with -o");
    a->first = first;
    a->nfiles = argc - first;
    if (a->nnp > 1 && a->nnp != a->nfiles)
        return cf_usage_error("--np has %d process counts for %d file%s: expected one, or one "
                              "per FILE",
                              a->nnp, a->nfiles, a->nfiles == 1 ? "" : "s");
    return 0;
}

int cmd_import(int argc, char **argv)
{
    args a = {.o = {.warn = warn_cb}};
    cf_error e;
    cf_error_clear(&e);
    /* Before getopt_long, which reorders argv. */
    char *cmd = command_line(argc, argv);
    int rc = cmd == NULL ? cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory") : 0;
    if (rc == 0 && (rc = parse_args(argc, argv, &a)) != 0) {
        free(cmd);
        free(a.library);
        return rc;
    }
    if (a.help) {
        free(cmd);
        free(a.library);
        return CF_EXIT_OK;
    }
    char *out_path = NULL;
    cf_import *im = NULL;
    cf_table *t = NULL;
    if (rc == 0) {
        out_path = a.output ? strdup(a.output) : cf_import_default_output(argv[a.first]);
        im = cf_import_alloc(&a.o);
        if (out_path == NULL || im == NULL || cf_table_meta_set(im->t, "command", cmd) != 0)
            rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    for (int i = a.first; i < argc && rc == 0; i++)
        if (cf_same_file(out_path, argv[i]))
            rc = cf_error_set(&e, CF_EXIT_USAGE, NULL, 0,
                              "the output '%s' is the same file as the input '%s': writing it "
                              "would destroy the input; name another output with -o",
                              out_path, argv[i]);
    for (int i = a.first + 1; i < argc && rc == 0; i++)
        for (int k = a.first; k < i && rc == 0; k++)
            if (cf_same_input(argv[i], argv[k]))
                rc = cf_usage_error("'%s' is the same file as '%s': its rows would count "
                                    "twice; give each file once",
                                    argv[i], argv[k]);
    for (int i = a.first; i < argc && rc == 0; i++) {
        if (a.nnp > 1)
            im->o.np = a.np[i - a.first];
        rc = cf_import_file(im, a.format, argv[i], &e);
        if (rc == CF_EXIT_DATA && a.o.lenient) {
            /* Unreadable, or not of the format: one more thing left out. */
            char msg[sizeof e.msg + 32];
            snprintf(msg, sizeof msg, "%s; the file is left out", e.msg);
            warn_cb(NULL, e.file, e.line, msg);
            cf_error_clear(&e);
            rc = 0;
        }
    }
    if (rc == 0)
        rc = cf_import_finish(im, &t, &e);
    if (rc == 0)
        rc = cf_table_write(out_path, t, &e);
    if (rc == 0 && !a.quiet && a.library != NULL)
        say_rules(a.library);
    /* Nothing says where the ranks ran: predict then answers beyond the imported process
     * counts without an upper bound (commfit-predict(1)); said once, with what bounds it,
     * where a process count above 2 shows the runs were collectives across np. */
    if (rc == 0 && !a.quiet && a.o.ranks_per_node <= 0 && beyond_two(t))
        cf_msg("no --ranks-per-node: the table does not say where its ranks ran, so predict "
               "answers beyond its process counts without an upper bound (--ranks-per-node N "
               "says N ranks a node)");
    if (rc == 0 && !a.quiet)
        cf_msg("wrote %s: %zu row%s in %zu table%s from %d file%s",
               strcmp(out_path, "-") == 0 ? "the table to standard output" : out_path, t->n_rows,
               t->n_rows == 1 ? "" : "s", im->n_tables, im->n_tables == 1 ? "" : "s", a.nfiles,
               a.nfiles == 1 ? "" : "s");
    if (rc != 0 && e.code != 0) /* a usage error said so already */
        cf_error_report(&e);
    cf_table_free(t);
    cf_import_free(im);
    free(cmd);
    free(out_path);
    free(a.library);
    return rc;
}
