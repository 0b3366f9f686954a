/* commfit export smpi: the newest (or a named) model's ping-pong as a SimGrid platform on
 * which SMPI reproduces it. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "base/error.h"
#include "base/outfile.h"
#include "base/size.h"
#include "commands.h"
#include "cmd/model-file.h"
#include "export/smpi.h"
#include "modelfile/modelfile.h"
#include "modelfile/placement.h"

static const char usage[] =
    "Usage: commfit export smpi [-m MODEL] [-o FILE] [--hosts N]\n"
    "\n"
    "Writes a SimGrid platform file on which SMPI's ping-pong costs what the model's\n"
    "pingpong fit at np=2 says, within 1% at every size the model covers: a cluster of\n"
    "single-core hosts whose links carry the model's latency and bandwidth, and SMPI's\n"
    "piecewise smpi/lat-factor and smpi/bw-factor. Run an MPI program on it with\n"
    "'smpirun -platform FILE -hostfile HOSTS', HOSTS listing node-0, node-1, ...\n"
    "\n";

#define HOSTS_DEFAULT 16
#define HOSTS_MAX 1000000

typedef struct opts {
    const char *model, *output;
    long hosts;
} opts;

static int opt_hosts(const cf_option *opt, const char *arg, cf_error *e)
{
    return cf_int_parse(arg, "--hosts", 2, HOSTS_MAX, &((opts *)opt->value)->hosts, e);
}

static int parse(int argc, char **argv, opts *o, int *done)
{
    memset(o, 0, sizeof *o);
    o->hosts = HOSTS_DEFAULT;
    *done = 0;
    const cf_option options[] = {
        CF_OPT_STRING('m', "model", "FILE", &o->model,
                      "model file (default: the newest models/*.json)"),
        CF_OPT_STRING('o', "output", "FILE", &o->output,
                      "platform file (default: platforms/NAME-smpi.xml, NAME the model file's "
                      "name without .json; '-': standard output)"),
        CF_OPT_CALL(0, "hosts", "N", o, opt_hosts,
                    "hosts in the cluster, 2 to 1000000 (default: 16)"),
        CF_OPT_QUIET(NULL, "print nothing but errors"),
        CF_OPT_HELP(),
        CF_OPT_END(),
    };
    cf_error e;
    cf_error_clear(&e);
    int first;
    int rc = cf_options_parse(options, usage, 0, argc, argv, &first, &e);
    if (rc == CF_PARSE_HELP) {
        *done = 1;
        return 0;
    }
    if (rc != 0)
        return cf_usage_error("%s", e.msg);
    if (first >= argc)
        return cf_usage_error("expected a format: commfit export smpi");
    if (strcmp(argv[first], "smpi") != 0 && cf_options_for_file(options, argv[first]) != NULL)
        return cf_usage_error("unknown format '%s': expected smpi (name a model file with -m: "
                              "commfit export smpi -m %s)",
                              argv[first], argv[first]);
    if (strcmp(argv[first], "smpi") != 0)
        return cf_usage_error("unknown format '%s': expected smpi", argv[first]);
    if (first + 1 < argc && cf_options_for_file(options, argv[first + 1]) != NULL)
        return cf_usage_error("unexpected argument '%s': name a model file with -m",
                              argv[first + 1]);
    if (first + 1 < argc)
        return cf_usage_error("unexpected argument '%s'", argv[first + 1]);
    return 0; /* an empty -m or -o: refused by the option parser */
}

/* The fit predict answers pingpong at np=2 from: byte, else the contiguous layout of a
 * derived-datatype sweep (plain bytes, one block: what a network carries), else the file's
 * first datatype without blocks. */
static const cf_fit *pingpong_fit(const cf_modelset *ms)
{
    const cf_fit *f = cf_modelset_find(ms, "pingpong", 2, "byte");
    if (f == NULL)
        f = cf_modelset_find(ms, "pingpong", 2, "contiguous");
    for (size_t i = 0; f == NULL && i < ms->nfits; i++)
        if (strcmp(ms->fits[i].pattern, "pingpong") == 0 && ms->fits[i].np == 2 &&
            ms->fits[i].max_blocks == 0)
            f = &ms->fits[i];
    return f;
}

static const char *json_str(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static void append(char *buf, size_t n, const char *sep, const char *s)
{
    size_t l = strlen(buf);
    snprintf(buf + l, n - l, "%s%s", l ? sep : "", s);
}

/* What the model says it was fitted from: the tables, and the first one's machine
 * (hosts and date of a measured table, the source line of an imported one) and speed. */
static void origin_of(const cf_modelset *ms, cf_smpi_origin *o, char *tables, size_t nt,
                      char *machine, size_t nm, char *speed_note, size_t ns)
{
    tables[0] = machine[0] = '\0';
    o->speed_flops = 0;
    snprintf(speed_note, ns, "SimGrid's 1 Gf, as the table records no normalized time");
    const json_t *list = json_object_get(ms->source, "tables");
    size_t i;
    const json_t *t;
    json_array_foreach(list, i, t)
    {
        const char *file = json_str(t, "file");
        if (file != NULL)
            append(tables, nt, ", ", file);
        if (i != 0)
            continue;
        const json_t *meta = json_object_get(t, "metadata");
        const char *hosts = json_str(meta, "hosts"), *date = json_str(meta, "date");
        const char *src = json_str(meta, "source_1"), *norm = json_str(meta, "normalized_time_us");
        char part[512];
        if (hosts != NULL && strlen(hosts) + 7 < sizeof part) {
            snprintf(part, sizeof part, "hosts %s", hosts);
            append(machine, nm, "; ", part);
        } else if (hosts != NULL) {
            /* A long list (a launch on hundreds of nodes) by its ends and count, not cut
             * in the middle of a name. */
            const char *last = strrchr(hosts, ',');
            size_t count = 1, first = strcspn(hosts, ",");
            for (const char *c = hosts; *c != '\0'; c++)
                count += *c == ',';
            snprintf(part, sizeof part, "hosts %.*s ... %.200s (%zu hosts)",
                     (int)(first < 200 ? first : 200), hosts, last ? last + 1 : "", count);
            append(machine, nm, "; ", part);
        }
        if (date != NULL) {
            snprintf(part, sizeof part, "date %s", date);
            append(machine, nm, "; ", part);
        }
        if (hosts == NULL && date == NULL && src != NULL)
            append(machine, nm, "; ", src);
        double us = norm ? strtod(norm, NULL) : 0;
        if (us > 0) {
            /* The seed report's reference: a dot product of 1000 doubles, 2000 flops. */
            o->speed_flops = 2000.0 / (us * 1e-6);
            snprintf(speed_note, ns, "%.6g flop/s, a dot product of 1000 doubles in the table's "
                     "normalized time, %s us",
                     o->speed_flops, norm);
        }
    }
    o->tables = tables[0] ? tables : NULL;
    o->machine = machine[0] ? machine : NULL;
    o->speed_note = speed_note;
}

/* platforms/NAME-smpi.xml from models/NAME.json. */
static char *default_output(const char *model)
{
    const char *base = strrchr(model, '/');
    base = base ? base + 1 : model;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    size_t len = n + sizeof "platforms/-smpi.xml";
    char *out = malloc(len);
    if (out != NULL)
        snprintf(out, len, "platforms/%.*s-smpi.xml", (int)n, base);
    return out;
}

static int write_platform(const char *path, const cf_smpi_platform *p, const cf_smpi_origin *o,
                          long hosts, cf_error *e)
{
    if (strcmp(path, "-") == 0) {
        int rc = cf_smpi_write(stdout, p, o, hosts, e);
        if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
            rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot write the standard output");
        return rc;
    }
    cf_outfile of;
    int rc = cf_outfile_open(&of, path, e);
    if (rc != 0)
        return rc;
    if ((rc = cf_smpi_write(of.fp, p, o, hosts, e)) != 0) {
        cf_outfile_abort(&of);
        return rc;
    }
    return cf_outfile_commit(&of, e);
}

int cmd_export(int argc, char **argv)
{
    opts o;
    int done, rc = parse(argc, argv, &o, &done);
    if (rc != 0 || done)
        return rc;
    cf_error e;
    cf_error_clear(&e);
    char *path = NULL, *output = NULL;
    cf_modelset *ms = NULL;
    cf_smpi_platform plat;
    memset(&plat, 0, sizeof plat);

    if ((rc = cf_cmd_model_file(o.model, CF_MODEL_REQUIRED, &path, &e)) != 0)
        goto report;
    output = o.output ? strdup(o.output) : default_output(path);
    if (output == NULL) {
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto report;
    }
    if (strcmp(output, "-") != 0 && cf_same_file(output, path)) {
        rc = cf_error_set(&e, CF_EXIT_USAGE, NULL, 0,
                          "-o '%s' is the same file as the model '%s': writing it would "
                          "destroy the model; name another output",
                          output, path);
        goto report;
    }
    if ((rc = cf_modelset_read(path, &ms, &e)) != 0)
        goto report;
    const cf_fit *f = pingpong_fit(ms);
    if (f == NULL) {
        rc = cf_error_set(&e, CF_EXIT_DATA, path, 0,
                          "no pingpong fit at np=2: the platform reproduces the ping-pong; "
                          "measure it ('commfit measure --patterns pingpong') and fit it");
        goto report;
    }
    if ((rc = cf_smpi_calibrate(f, path, &plat, &e)) != 0)
        goto report;

    char what[160], tables[1024], machine[1024], speed_note[256];
    snprintf(what, sizeof what, "pingpong np=2 %s: %s", f->datatype, f->model);
    cf_smpi_origin origin = {.model_file = path, .fit_what = what, .version = PACKAGE_VERSION};
    origin_of(ms, &origin, tables, sizeof tables, machine, sizeof machine, speed_note,
              sizeof speed_note);
    /* A ping-pong inside one node measured its shared memory (or the library's path
     * there), which the platform then gives every pair of hosts: said, not assumed. The
     * model does not say which of its tables the ping-pong came from: where they disagree
     * on where np 2 ran, that is said. */
    cf_pair_place pp;
    char pair_note[900];
    if (cf_placement_pair_nodes(ms, &pp) != 0) {
        rc = cf_error_set(&e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto report;
    }
    if (pp.inside > 0) {
        char where[400];
        snprintf(where, sizeof where, "inside one node (%s%s%ld ranks on it, as %s's "
                 "ranks_per_node says)",
                 pp.host, pp.host[0] ? ", " : "", pp.ranks, pp.file);
        if (pp.inside == pp.ntables)
            snprintf(pair_note, sizeof pair_note,
                     "the ping-pong's two ranks ran %s: every pair of hosts here communicates "
                     "at that node's cost, not a network's; a model whose ping-pong crossed two "
                     "nodes calibrates the network",
                     where);
        else if (pp.across > 0)
            snprintf(pair_note, sizeof pair_note,
                     "the model's tables differ on where np 2's two ranks ran, %s and across "
                     "two nodes in %d other%s: if the ping-pong came from the first, every pair "
                     "of hosts here communicates at that node's cost, not a network's",
                     where, pp.across, pp.across == 1 ? "" : "s");
        else
            snprintf(pair_note, sizeof pair_note,
                     "np 2's two ranks ran %s, and %d other table%s of the model do%s not say "
                     "where: if the ping-pong came from the first, every pair of hosts here "
                     "communicates at that node's cost, not a network's",
                     where, pp.ntables - pp.inside, pp.ntables - pp.inside == 1 ? "" : "s",
                     pp.ntables - pp.inside == 1 ? "es" : "");
        origin.pair_note = pair_note;
        cf_warn("%s", pair_note);
    }
    if (plat.clipped)
        cf_warn("the model reaches past 2 GiB, the largest size a SimGrid factor can name: "
                "beyond it the last factors continue");
    if ((rc = write_platform(output, &plat, &origin, o.hosts, &e)) != 0)
        goto report;
    if (strcmp(output, "-") != 0) {
        char lo[32], hi[32];
        cf_size_format(plat.min_bytes, lo, sizeof lo);
        cf_size_format(plat.max_bytes, hi, sizeof hi);
        cf_msg("wrote %s: %ld hosts, %zu size range%s, within %.2f%% of the %s fit from %s to %s",
               output, o.hosts, plat.nsteps, plat.nsteps == 1 ? "" : "s", 100 * plat.max_rel_err,
               f->model, lo, hi);
    }
report:
    if (rc != 0)
        rc = cf_error_report(&e);
    cf_smpi_platform_clear(&plat);
    cf_modelset_free(ms);
    free(path);
    free(output);
    return rc;
}
