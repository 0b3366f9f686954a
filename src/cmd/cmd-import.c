/* commfit import: IMB or OSU result files into one timing table (data/NAME.csv unless -o
 * names it). The parsing is in src/import*.c; this file is the command line. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "commands.h"
#include "base/error.h"
#include "base/outfile.h"
#include "import/import.h"
#include "base/table.h"

static const char help[] =
    "Usage: commfit import imb|osu FILE... [-o TABLE.csv] [OPTIONS]\n"
    "\n"
    "Reads Intel MPI Benchmarks (IMB-MPI1) or OSU Micro-Benchmarks results into a timing\n"
    "table, so that fit, predict and report work on them. Every table of every FILE is\n"
    "imported; the column 'source' names the file and line each row group came from.\n"
    "FILE '-' is the standard input.\n"
    "\n"
    "Options:\n"
    "  -o, --output FILE   the table to write ('-': standard output; default:\n"
    "                      data/NAME.csv, NAME the first\n"
    "                      FILE's name without its extension)\n"
    "      --np N          process count of tables that do not state one (OSU\n"
    "                      collectives print none; such a table needs it)\n"
    "      --pattern NAME  pattern of every imported table (all of one benchmark); also\n"
    "                      imports an OSU test commfit does not know\n"
    "      --lenient       leave out a broken or cut-off table with a warning instead of\n"
    "                      failing; the complete tables are kept\n"
    "  -q, --quiet         do not say which file was written\n"
    "  -h, --help          print this help and exit\n";

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

typedef struct args {
    cf_import_opts o;
    const char *output;
    int quiet, help;
    cf_import_format format;
    int first, nfiles; /* the input files: argv[first ...] */
} args;

static int parse_args(int argc, char **argv, args *a)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"np", required_argument, NULL, 'n'},
        {"pattern", required_argument, NULL, 'p'}, {"lenient", no_argument, NULL, 'l'},
        {"quiet", no_argument, NULL, 'q'},         {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cf_error e;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            a->output = optarg;
            break;
        case 'n': {
            long np;
            if (cf_int_parse(optarg, "--np", 1, CF_TABLE_NP_MAX, &np, &e) != 0)
                return cf_usage_error("%s", e.msg);
            a->o.np = (int)np;
            break;
        }
        case 'p': {
            size_t n = strlen(optarg);
            if (n == 0 || n >= CF_PATTERN_MAX ||
                strspn(optarg, "abcdefghijklmnopqrstuvwxyz0123456789_") != n)
                return cf_usage_error("--pattern '%s': expected 1 to %d lower-case letters, "
                                      "digits or '_'",
                                      optarg, CF_PATTERN_MAX - 1);
            a->o.pattern = optarg;
            break;
        }
        case 'l':
            a->o.lenient = 1;
            break;
        case 'q':
            a->quiet = 1;
            break;
        case 'h':
            a->help = 1;
            return 0;
        case ':':
            return cf_usage_error("option '%s' needs a value", argv[optind - 1]);
        default:
            return cf_usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return cf_usage_error("expected the format of the results: 'imb' or 'osu'");
    const char *fmt = argv[optind++];
    if (strcmp(fmt, "imb") == 0)
        a->format = CF_IMPORT_IMB;
    else if (strcmp(fmt, "osu") == 0)
        a->format = CF_IMPORT_OSU;
    else
        return cf_usage_error("unknown format '%s': expected 'imb' or 'osu'", fmt);
    if (optind >= argc)
        return cf_usage_error("no input file: expected %s result files after '%s'", fmt, fmt);
    if (a->output == NULL && strcmp(argv[optind], "-") == 0)
        return cf_usage_error("reading the standard input: name the table with -o");
    a->first = optind;
    a->nfiles = argc - optind;
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
        return rc;
    }
    if (a.help) {
        fputs(help, stdout);
        free(cmd);
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
            rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0,
                              "the output '%s' is the same file as the input '%s': writing it "
                              "would destroy the input; name another output with -o",
                              out_path, argv[i]);
    for (int i = a.first; i < argc && rc == 0; i++) {
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
    if (rc == 0 && !a.quiet)
        cf_msg("wrote %s: %zu row%s in %zu table%s from %d file%s",
               strcmp(out_path, "-") == 0 ? "the table to standard output" : out_path, t->n_rows,
               t->n_rows == 1 ? "" : "s", im->n_tables, im->n_tables == 1 ? "" : "s",
               a.nfiles, a.nfiles == 1 ? "" : "s");
    if (rc != 0)
        cf_error_report(&e);
    cf_table_free(t);
    cf_import_free(im);
    free(cmd);
    free(out_path);
    return rc;
}
