/* commfit report: plots and an HTML page from a timing table, drawn with gnuplot. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "error.h"
#include "outfile.h"
#include "report.h"
#include "table.h"

static const char help[] =
    "Usage: commfit report [-i TABLE] [-o DIR] [--png]\n"
    "\n"
    "Draws a timing table as plots, with an HTML page that shows them all: time vs\n"
    "message size per pattern, bandwidth for point-to-point patterns, derived\n"
    "datatypes against pack, time vs process count. Each plot is a data file, a\n"
    "gnuplot script and its image; gnuplot is looked up on PATH ($GNUPLOT overrides).\n"
    "Without gnuplot the data files and scripts are still written (exit status 0,\n"
    "with a warning that says how to draw them).\n"
    "\n"
    "Options:\n"
    "  -i, --input TABLE  timing table (default: the newest *.csv in data/)\n"
    "  -o, --output DIR   report folder (default: report/NAME, NAME the table's file\n"
    "                     name without .csv); an earlier report there is replaced\n"
    "      --png          PNG images instead of SVG\n"
    "  -h, --help         print this help and exit\n"
    "\n"
    "Prints the path of index.html on stdout.\n";

static void gnuplot_warning(const char *line)
{
    cf_warn("gnuplot: %s", line);
}

int cmd_report(int argc, char **argv)
{
    enum { OPT_PNG = 256 };
    static const struct option opts[] = {
        {"input", required_argument, 0, 'i'},
        {"output", required_argument, 0, 'o'},
        {"png", no_argument, 0, OPT_PNG},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *input = NULL, *output = NULL;
    int png = 0;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":i:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'i':
            input = optarg;
            break;
        case 'o':
            output = optarg;
            break;
        case OPT_PNG:
            png = 1;
            break;
        case 'h':
            fputs(help, stdout);
            return CF_EXIT_OK;
        case ':':
            return cf_usage_error("option '%s' needs a value", argv[optind - 1]);
        default:
            return cf_usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cf_usage_error("unexpected argument '%s'", argv[optind]);
    if (input != NULL && *input == '\0')
        return cf_usage_error("-i: expected a file name");
    if (output != NULL && *output == '\0')
        return cf_usage_error("-o: expected a folder name");

    cf_error e;
    cf_error_clear(&e);
    char *found = NULL;
    if (input == NULL) {
        if (cf_newest_file("data", ".csv", &found, &e) != 0) {
            cf_msg("no timing table given and none found in data/ (%s): run 'commfit "
                   "measure' first, or name one with -i",
                   e.msg);
            return CF_EXIT_DATA;
        }
        input = found;
    }
    cf_table *t = NULL;
    if (cf_table_read(input, &t, &e) != 0) {
        free(found);
        return cf_error_report(&e);
    }
    char *dir = output ? strdup(output) : cf_report_default_dir(input);
    if (dir == NULL) {
        cf_table_free(t);
        free(found);
        cf_msg("out of memory");
        return CF_EXIT_DATA;
    }
    if (cf_report_check_dir(dir, &e) != 0) {
        free(dir);
        cf_table_free(t);
        free(found);
        return cf_error_report(&e);
    }
    cf_msg("drawing %s: measurements only, no model (fitted curves need one: commfit fit -i "
           "%s)",
           input, input);

    char why[512] = "";
    char *gnuplot = cf_gnuplot_find(why, sizeof why);
    cf_report_opts o = {t, input, dir, png, gnuplot, why, gnuplot_warning};
    cf_report_result res;
    int rc = cf_report_write(&o, &res, &e);
    if (rc != 0) {
        rc = cf_error_report(&e);
    } else if (gnuplot == NULL) {
        cf_warn("%s: wrote the data files and gnuplot scripts of %zu plots into %s, without "
                "images; draw them with: cd '%s' && gnuplot *.gp",
                why, res.n_plots, dir, dir);
        printf("%s/index.html\n", dir);
    } else {
        cf_msg("wrote %s/index.html with %zu plots", dir, res.n_drawn);
        printf("%s/index.html\n", dir);
    }
    free(gnuplot);
    free(dir);
    cf_table_free(t);
    free(found);
    return rc;
}
