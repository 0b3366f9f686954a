/* commfit measure's options: setting them one by one, taking the plan back from a table
 * for --resume, and checking them all before MPI starts. */
#include "config.h"

#include "measure/measure.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cli.h"
#include "base/outfile.h"
#include "base/sha256.h"
#include "base/size.h"
#include "measure/launch.h"
#include "measure/measure-int.h"

void cf_measure_opts_init(cf_measure_opts *o)
{
    memset(o, 0, sizeof *o);
}

unsigned cf_measure_method(const cf_measure_opts *o)
{
    return (o->no_sync ? CF_KM_NO_SYNC : 0u) | (o->root_shift ? CF_KM_ROOT_SHIFT : 0u);
}

void cf_measure_opts_free(cf_measure_opts *o)
{
    free(o->patterns_arg);
    free(o->sizes_arg);
    free(o->np_arg);
    free(o->blocks_arg);
    free(o->datatypes_arg);
    free(o->blocks);
    free(o->ddts);
    free(o->written);
    free(o->output);
    free(o->resume);
    free(o->launcher);
    free(o->simulate);
    free(o->hostfile);
    free(o->selector);
    free(o->pats);
    free(o->sizes);
    free(o->nps);
    cf_table_free(o->done);
    memset(o, 0, sizeof *o);
}

int cf_sim_selector_known(const char *name)
{
    static const char *const known[] = {"mpich", "ompi", "mvapich2", "impi", "default"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(name, known[i]) == 0)
            return 1;
    return 0;
}

static int set_string(char **dst, const char *value, cf_error *e)
{
    char *s = strdup(value);
    if (s == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    free(*dst);
    *dst = s;
    return 0;
}

/* The options that make up the plan, which --resume takes back from the table. */
static const char *const plan_keys[] = {"--patterns",  "--sizes",  "--np",        "--reps",
                                        "--samples",   "--max-time", "--target-ci", "--check",
                                        "--off-cache", "--blocks",   "--datatypes", "--no-sync",
                                        "--root-shift"};
enum { N_PLAN_KEYS = sizeof plan_keys / sizeof plan_keys[0] };

static int is_plan_key(const char *name)
{
    for (size_t i = 0; i < N_PLAN_KEYS; i++)
        if (strcmp(plan_keys[i], name) == 0)
            return 1;
    return 0;
}

int cf_measure_set(cf_measure_opts *o, const char *name, const char *value, cf_error *e)
{
    long v;
    int rc = 0;
    if (is_plan_key(name))
        o->plan_given = 1;
    if (strcmp(name, "--patterns") == 0) {
        rc = set_string(&o->patterns_arg, value, e);
    } else if (strcmp(name, "--sizes") == 0) {
        rc = set_string(&o->sizes_arg, value, e);
    } else if (strcmp(name, "--np") == 0) {
        rc = set_string(&o->np_arg, value, e);
    } else if (strcmp(name, "--blocks") == 0) {
        rc = set_string(&o->blocks_arg, value, e);
    } else if (strcmp(name, "--datatypes") == 0) {
        rc = set_string(&o->datatypes_arg, value, e);
    } else if (strcmp(name, "--ddt-summary") == 0) {
        o->ddt_summary = 1;
    } else if (strcmp(name, "--reps") == 0) {
        if ((rc = cf_int_parse(value, "--reps", 1, 1000000000, &v, e)) == 0)
            o->reps = v;
    } else if (strcmp(name, "--samples") == 0) {
        if ((rc = cf_int_parse(value, "--samples", 1, 1000, &v, e)) == 0)
            o->samples = v;
    } else if (strcmp(name, "--max-time") == 0) {
        rc = cf_double_parse(value, "--max-time", 1e-6, 86400, &o->max_time_s, e);
    } else if (strcmp(name, "--target-ci") == 0) {
        rc = cf_double_parse(value, "--target-ci", 1e-3, 100, &o->target_ci, e);
    } else if (strcmp(name, "--check") == 0) {
        o->check = 1;
    } else if (strcmp(name, "--off-cache") == 0) {
        o->off_cache = 1;
    } else if (strcmp(name, "--no-sync") == 0) {
        o->no_sync = 1;
    } else if (strcmp(name, "--root-shift") == 0) {
        o->root_shift = 1;
    } else if (strcmp(name, "--no-latency-probe") == 0) {
        o->no_latency_probe = 1;
    } else if (strcmp(name, "--output") == 0) {
        rc = set_string(&o->output, value, e);
    } else if (strcmp(name, "--resume") == 0) {
        rc = set_string(&o->resume, value, e);
    } else if (strcmp(name, "--launcher") == 0) {
        rc = set_string(&o->launcher, value, e);
    } else if (strcmp(name, "--oversubscribe") == 0) {
        o->oversubscribe = 1;
    } else if (strcmp(name, "--simulate") == 0) {
        rc = set_string(&o->simulate, value, e);
    } else if (strcmp(name, "--launch-np") == 0) {
        if ((rc = cf_int_parse(value, "--launch-np", 2, CF_TABLE_NP_MAX, &v, e)) == 0)
            o->launch_np = v;
    } else if (strcmp(name, "--hostfile") == 0) {
        rc = set_string(&o->hostfile, value, e);
    } else if (strcmp(name, "--coll-selector") == 0) {
        if (!cf_sim_selector_known(value))
            /* configure's --with-mpi names Open MPI 'openmpi', SimGrid's selector 'ompi'. */
            rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                              "--coll-selector '%s': expected one of " CF_SIM_SELECTORS "%s",
                              value,
                              strncasecmp(value, "open", 4) == 0
                                  ? " (SimGrid names Open MPI's selector 'ompi')"
                                  : "");
        else
            rc = set_string(&o->selector, value, e);
    } else if (strcmp(name, "--quiet") == 0) {
        o->quiet = 1;
    } else if (strcmp(name, "--progress") == 0) {
        o->progress = 1;
    } else {
        rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "unknown option '%s'", name);
    }
    return rc;
}

static int has_value(const char *key)
{
    return strcmp(key, "--check") != 0 && strcmp(key, "--off-cache") != 0 &&
           strcmp(key, "--ddt-summary") != 0 && strcmp(key, "--no-sync") != 0 &&
           strcmp(key, "--root-shift") != 0;
}

/* Applies plan text ("--sizes 0,1 --np 2 --check") read from a table. */
static int apply_plan(cf_measure_opts *o, const char *plan, const char *file, cf_error *e)
{
    char *copy = strdup(plan);
    if (copy == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    int rc = 0;
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w != NULL && rc == 0;
         w = strtok_r(NULL, " ", &save)) {
        if (!is_plan_key(w)) {
            rc = cf_error_set(e, CF_EXIT_DATA, file, 0,
                              "metadata 'plan': unexpected '%s': expected options such as "
                              "--sizes",
                              w);
            break;
        }
        const char *value = NULL;
        if (has_value(w) && (value = strtok_r(NULL, " ", &save)) == NULL) {
            rc = cf_error_set(e, CF_EXIT_DATA, file, 0, "metadata 'plan': %s has no value", w);
            break;
        }
        cf_error sub;
        cf_error_clear(&sub);
        if (cf_measure_set(o, w, value, &sub) != 0)
            rc = cf_error_set(e, CF_EXIT_DATA, file, 0, "metadata 'plan': %s", sub.msg);
    }
    free(copy);
    return rc;
}

/* Also used by run-output.c, which reopens the table after its complete lines. */
int cf_measure_read_complete_lines(const char *path, char **buf, size_t *len, cf_error *e)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot open: %s", strerror(errno));
    char *b;
    size_t n;
    int rc = cf_read_all(fp, path, &b, &n, e);
    fclose(fp);
    if (rc != 0)
        return rc;
    while (n > 0 && b[n - 1] != '\n')
        n--;
    *buf = b;
    *len = n;
    return 0;
}

/* The MPI library a library version string names, where it is one a build can be of
 * (CF_MPI_LIBRARY: mpich, openmpi); NULL for another or one it cannot tell. */
static const char *library_family(const char *version)
{
    while (version != NULL && isspace((unsigned char)*version))
        version++;
    if (version == NULL)
        return NULL;
    if (strncmp(version, "Open MPI", 8) == 0)
        return "openmpi";
    if (strncmp(version, "MPICH", 5) == 0)
        return "mpich";
    return NULL;
}

/* A real table continues under the MPI library it was measured with. Said here, before
 * any launch, where the table names the other of the two libraries a build can be of; the
 * ranks compare the whole version string once they run (another release, another build). */
static int resume_same_library(const cf_measure_opts *o, const cf_table *t, cf_error *e)
{
    const char *was = cf_table_meta_get(t, "mpi_library");
    const char *fam = library_family(was);
    if (fam == NULL || strcmp(CF_MPI_LIBRARY, "other") == 0 || strcmp(fam, CF_MPI_LIBRARY) == 0)
        return 0;
    /* Two families, one the table's and the other this build's. */
    const char *its = strcmp(fam, "mpich") == 0 ? "MPICH" : "Open MPI";
    const char *ours = strcmp(fam, "mpich") == 0 ? "Open MPI" : "MPICH";
    return cf_error_set(e, CF_EXIT_USAGE, o->resume, 0,
                        "measured with %s ('%.60s%s'), but this commfit is built with %s: resume "
                        "it with the commfit built with %s",
                        its, was, strlen(was) > 60 ? "..." : "", ours, its);
}

/* A table continues on the machine it was started on: a simulated one on the same platform
 * file (by content) and selector, a real one not in a simulator. */
static int resume_same_machine(const cf_measure_opts *o, const cf_table *t, cf_error *e)
{
    const char *sim = cf_table_meta_get(t, "simulated");
    const char *platform = cf_table_meta_get(t, "platform");
    const char *sha = cf_table_meta_get(t, "platform_sha256");
    const char *sel = cf_table_meta_get(t, "coll_selector");
    int simulated = sim != NULL && strcmp(sim, "yes") == 0;
    if (simulated && o->simulate == NULL)
        return cf_error_set(e, CF_EXIT_USAGE, o->resume, 0,
                            "simulated on '%s': resume it with --simulate and that platform",
                            platform ? platform : "?");
    if (!simulated && o->simulate != NULL)
        return cf_error_set(e, CF_EXIT_USAGE, o->resume, 0,
                            "measured on a real machine: resume it without --simulate");
    if (!simulated)
        return resume_same_library(o, t, e);
    char now[65];
    if (sha != NULL && cf_sha256_file(o->simulate, now, e) != 0)
        return e->code;
    if (sha != NULL && strcmp(sha, now) != 0)
        return cf_error_set(e, CF_EXIT_USAGE, o->resume, 0,
                            "simulated on another platform ('%s', SHA-256 %.12s...) than '%s' "
                            "(%.12s...)",
                            platform ? platform : "?", sha, o->simulate, now);
    const char *want = o->selector ? o->selector : CF_SIM_SELECTOR;
    if (sel != NULL && strcmp(sel, want) != 0)
        return cf_error_set(e, CF_EXIT_USAGE, o->resume, 0,
                            "simulated with --coll-selector %s, not %s", sel, want);
    return 0;
}

/* word quoted for the shell into q (as it stands where it does not fit). */
static const char *quoted(const char *word, char *q, size_t n)
{
    return cf_shell_quote(word, q, n) == 0 ? q : word;
}

void cf_measure_resume_args(const cf_measure_opts *o, const char *table, char *buf, size_t n)
{
    /* Paths quoted, so that the words said can be run as they are (a table named
     * 'run 1.csv' read as two words). */
    char qt[1024], qp[1024], qh[1024];
    if (o != NULL && o->simulate != NULL)
        snprintf(buf, n, "--simulate %s%s%s%s%s --resume %s", quoted(o->simulate, qp, sizeof qp),
                 o->selector ? " --coll-selector " : "", o->selector ? o->selector : "",
                 o->hostfile ? " --hostfile " : "",
                 o->hostfile ? quoted(o->hostfile, qh, sizeof qh) : "",
                 quoted(table, qt, sizeof qt));
    else
        snprintf(buf, n, "--resume %s", quoted(table, qt, sizeof qt));
}

int cf_measure_resume_load(cf_measure_opts *o, cf_error *e)
{
    if (o->output != NULL)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--resume continues '%s' in place: drop -o", o->resume);
    if (o->plan_given)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--resume takes the plan from '%s': drop --patterns, --sizes, --np, "
                            "--reps, --samples, --max-time, --target-ci, --check, --off-cache, "
                            "--no-sync, --root-shift, --blocks and --datatypes",
                            o->resume);
    char *buf;
    size_t len;
    int rc = cf_measure_read_complete_lines(o->resume, &buf, &len, e);
    if (rc != 0)
        return rc;
    cf_table *t = NULL;
    rc = cf_table_read_mem(buf, len, o->resume, &t, e);
    free(buf);
    o->done_bytes = len;
    if (rc != 0)
        return rc;
    const char *plan = cf_table_meta_get(t, "plan");
    if (plan == NULL) {
        cf_table_free(t);
        return cf_error_set(e, CF_EXIT_DATA, o->resume, 0,
                            "no 'plan' metadata: expected a table written by commfit measure");
    }
    /* stop, then the derived-datatype columns when the plan has them. */
    int columns_ok = t->n_extra >= 1 && strcmp(t->extra_names[0], "stop") == 0;
    if (columns_ok && t->n_extra > 1) {
        columns_ok = t->n_extra == 1 + CF_DDT_NEXTRA;
        for (size_t i = 0; columns_ok && i < CF_DDT_NEXTRA; i++)
            columns_ok = strcmp(t->extra_names[1 + i], cf_ddt_extra_columns[i]) == 0;
    }
    if (!columns_ok) {
        cf_table_free(t);
        return cf_error_set(e, CF_EXIT_DATA, o->resume, 0,
                            "expected the columns of commfit measure (ending with 'stop')");
    }
    rc = resume_same_machine(o, t, e);
    /* Its t_min_us and t_max_us all of one meaning: a table without t_min_max holds the
     * extremes over samples and ranks together, and a reader could not tell the rows
     * added now (the extremes of the ranks' means) from them. Said before any launch. */
    if (rc == 0 && cf_table_meta_get(t, "t_min_max") == NULL)
        rc = cf_error_set(e, CF_EXIT_USAGE, o->resume, 0,
                          "measured by an older commfit, whose t_min_us and t_max_us are the "
                          "extremes over samples and ranks together (no t_min_max): rows "
                          "added now would mean another thing in those columns; measure it "
                          "again with -o");
    if (rc == 0)
        rc = apply_plan(o, plan, o->resume, e);
    o->plan_given = 0;
    if (rc != 0) {
        cf_table_free(t);
        return rc;
    }
    cf_table_free(o->done);
    o->done = t;
    return 0;
}

/* ---- checks ---- */

static int parse_patterns(cf_measure_opts *o, cf_error *e)
{
    const char *arg = o->patterns_arg ? o->patterns_arg : CF_MEASURE_PATTERNS;
    char *pick = calloc((size_t)cf_npatterns, 1);
    char *copy = strdup(arg);
    int rc = 0;
    if (pick == NULL || copy == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto out;
    }
    o->ddt = 0;
    for (char *tok = copy, *next; tok != NULL; tok = next) {
        char *comma = strchr(tok, ',');
        next = comma ? comma + 1 : NULL;
        if (comma)
            *comma = '\0';
        if (strcmp(tok, "ddt") == 0) {
            o->ddt = 1;
            continue;
        }
        unsigned group = strcmp(tok, "all") == 0     ? CF_PG_ALL
                         : strcmp(tok, "loggp") == 0 ? CF_PG_LOGGP
                                                     : 0;
        const cf_pattern *p = group ? NULL : cf_pattern_find(tok);
        if (group == 0 && p == NULL) {
            char names[1024] = "";
            for (int i = 0; i < cf_npatterns; i++) {
                strncat(names, i ? ", " : "", sizeof names - strlen(names) - 1);
                strncat(names, cf_patterns[i].facts->pattern, sizeof names - strlen(names) - 1);
            }
            rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                              "--patterns: unknown pattern '%s': expected all, loggp, ddt or "
                              "one of %s",
                              tok, names);
            goto out;
        }
        for (int i = 0; i < cf_npatterns; i++)
            if ((group && (cf_patterns[i].group & group)) || &cf_patterns[i] == p)
                pick[i] = 1;
    }
    free(o->pats);
    o->pats = malloc((size_t)cf_npatterns * sizeof *o->pats);
    if (o->pats == NULL) {
        rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        goto out;
    }
    o->npats = 0;
    for (int i = 0; i < cf_npatterns; i++)
        if (pick[i])
            o->pats[o->npats++] = &cf_patterns[i];
out:
    free(pick);
    free(copy);
    return rc;
}

/* Sizes as given, item by item; each item must start above where the last one ended. */
static int parse_sizes(cf_measure_opts *o, cf_error *e)
{
    const char *arg = o->sizes_arg ? o->sizes_arg : CF_MEASURE_SIZES;
    /* SMPI's ompi selector dies on an empty bcast or reduction (check_ompi_empty). */
    if (o->sizes_arg == NULL && o->simulate != NULL && o->selector != NULL &&
        strcmp(o->selector, "ompi") == 0)
        arg = CF_MEASURE_SIZES_SMPI_OMPI;
    char *copy = strdup(arg);
    uint64_t *all = NULL;
    size_t nall = 0;
    int rc = 0;
    const char *prev = NULL;
    if (copy == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    if (*arg == '\0') {
        free(copy);
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "--sizes: empty size list");
    }
    for (char *tok = copy, *next; tok != NULL; tok = next) {
        char *comma = strchr(tok, ',');
        next = comma ? comma + 1 : NULL;
        if (comma)
            *comma = '\0';
        if (*tok == '\0') {
            rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                              "--sizes '%s': an empty size (two commas together, or one at an "
                              "end)",
                              arg);
            goto out;
        }
        uint64_t *v;
        size_t n;
        cf_error sub;
        cf_error_clear(&sub);
        if (cf_size_list_parse(tok, &v, &n, &sub) != 0) {
            rc = cf_error_set(e, sub.code, NULL, 0, "--sizes: %s", sub.msg);
            goto out;
        }
        if (nall > 0 && v[0] <= all[nall - 1]) {
            free(v);
            rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                              "--sizes '%s': sizes out of order: '%s' after '%s' (expected "
                              "increasing sizes)",
                              arg, tok, prev);
            goto out;
        }
        uint64_t *na = realloc(all, (nall + n) * sizeof *na);
        if (na == NULL) {
            free(v);
            rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
            goto out;
        }
        all = na;
        memcpy(all + nall, v, n * sizeof *v);
        nall += n;
        free(v);
        prev = tok;
    }
    free(o->sizes);
    o->sizes = all;
    o->nsizes = nall;
    all = NULL;
out:
    free(all);
    free(copy);
    return rc;
}

static uint64_t phys_memory(void);

/* The derived-datatype options: --datatypes, --blocks, and the points they make with the
 * sizes. A --blocks count is refused when no size has that many floats; the default counts
 * are simply skipped at the sizes too small for them. */
static int parse_ddt(cf_measure_opts *o, cf_error *e)
{
    free(o->blocks);
    free(o->ddts);
    o->blocks = NULL;
    o->ddts = NULL;
    o->nblocks = o->nddts = 0;
    if (!o->ddt) {
        if (o->blocks_arg != NULL || o->datatypes_arg != NULL || o->ddt_summary)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "%s applies to derived datatypes only: add ddt to --patterns",
                                o->blocks_arg != NULL      ? "--blocks"
                                : o->datatypes_arg != NULL ? "--datatypes"
                                                           : "--ddt-summary");
        return 0;
    }
    o->ddt_kinds = CF_DDT_ALL_KINDS;
    if (o->datatypes_arg != NULL) {
        char *copy = strdup(o->datatypes_arg);
        if (copy == NULL)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        o->ddt_kinds = 0;
        for (char *tok = copy, *next; tok != NULL; tok = next) {
            char *comma = strchr(tok, ',');
            next = comma ? comma + 1 : NULL;
            if (comma)
                *comma = '\0';
            cf_ddt_kind k;
            if (strcmp(tok, "all") == 0) { /* the default, by the name --help gives it */
                o->ddt_kinds |= CF_DDT_ALL_KINDS;
                continue;
            }
            if (cf_ddt_kind_from_name(tok, &k) != 0) {
                int rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                      "--datatypes: unknown datatype '%s': expected all, "
                                      "vector, hvector, indexed, hindexed, struct, contiguous "
                                      "or pack",
                                      tok);
                free(copy);
                return rc;
            }
            o->ddt_kinds |= 1u << k;
        }
        free(copy);
        unsigned derived = o->ddt_kinds & ~((1u << CF_DDT_PACK) | (1u << CF_DDT_CONTIGUOUS));
        if ((o->ddt_kinds & (1u << CF_DDT_PACK)) && derived == 0)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "--datatypes '%s': pack needs a derived datatype to pack "
                                "(vector, hvector, indexed, hindexed or struct)",
                                o->datatypes_arg);
    }
    int rc;
    if (o->blocks_arg != NULL) {
        cf_error sub;
        cf_error_clear(&sub);
        if (cf_int_list_parse(o->blocks_arg, "--blocks", LONG_MIN, INT_MAX, &o->blocks,
                              &o->nblocks, &sub) != 0)
            return cf_error_set(e, sub.code, NULL, 0, "%s", sub.msg);
        uint64_t top = o->nsizes > 0 ? o->sizes[o->nsizes - 1] : 0;
        if ((rc = cf_ddt_blocks_check(o->blocks, o->nblocks, top, e)) != 0)
            return rc;
    } else {
        o->blocks = malloc(cf_ddt_n_default_blocks * sizeof *o->blocks);
        if (o->blocks == NULL)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        memcpy(o->blocks, cf_ddt_default_blocks, cf_ddt_n_default_blocks * sizeof *o->blocks);
        o->nblocks = cf_ddt_n_default_blocks;
    }
    if ((rc = cf_ddt_sweep(o->sizes, o->nsizes, o->blocks, o->nblocks, o->ddt_kinds, &o->ddts,
                           &o->nddts, e)) != 0)
        return rc;
    /* Two ranks hold the element, the contiguous copy and the pack buffer. */
    uint64_t mem = phys_memory(), need = 0;
    for (size_t i = 0; i < o->nddts; i++) {
        uint64_t b = 2 * (o->ddts[i].extent_bytes + 2 * o->ddts[i].bytes);
        if (b > need)
            need = b;
    }
    if (need > mem) {
        char hn[32], hm[32];
        cf_size_format_estimate(need, hn, sizeof hn);
        cf_size_format_estimate(mem, hm, sizeof hm);
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--sizes: the derived datatypes need %s of buffers on this node, "
                            "which has %s of memory",
                            hn, hm);
    }
    return 0;
}

int cf_measure_default_np(long n, long **out, size_t *nout)
{
    long *v = malloc(64 * sizeof *v);
    if (v == NULL)
        return -1;
    size_t k = 0;
    if (n <= 1) {
        v[k++] = 1;
    } else {
        for (long p = 2; p < n && k < 62; p *= 2)
            v[k++] = p;
        v[k++] = n;
    }
    *out = v;
    *nout = k;
    return 0;
}

static uint64_t phys_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), ps = sysconf(_SC_PAGESIZE);
    return pages > 0 && ps > 0 ? (uint64_t)pages * (uint64_t)ps : UINT64_MAX;
}


static int check_points(const cf_measure_opts *o, cf_error *e)
{
    long *bnp = malloc((o->nnps + 1) * sizeof *bnp);
    if (bnp == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    size_t nb = cf_measure_block_nps(o, bnp);
    uint64_t mem = phys_memory();
    long cores = cf_launch_cores();
    int rc = 0;
    for (size_t b = 0; b < nb && rc == 0; b++) {
        for (size_t i = 0; i < o->npats && rc == 0; i++) {
            const cf_pattern *p = o->pats[i];
            if (!cf_measure_runs_at(o, p, bnp[b]))
                continue;
            for (size_t j = 0; j < o->nsizes && rc == 0; j++) {
                uint64_t bytes = p->facts->sized ? o->sizes[j] : 0, unit;
                char hs[32];
                cf_size_format(bytes, hs, sizeof hs);
                if (cf_kernel_unit(p, bytes, (int)bnp[b], &unit) != 0) {
                    if (strcmp(p->facts->datatype, "float") == 0)
                        rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                          "--sizes: %s is too large for %s: a reduction counts "
                                          "floats in an int, so at most 8 GiB - 4",
                                          hs, p->facts->pattern);
                    else if (p->facts->vcounts)
                        /* Its displacements reach np blocks into the buffer, in one int. */
                        rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                          "--sizes: %llu bytes cannot be sent by %s at np=%ld: "
                                          "its displacements span np x the size, %llu bytes, "
                                          "and above 2 GiB - 1 that span must be counted in a "
                                          "power of two of bytes the size is a multiple of, "
                                          "bringing it under 2^31",
                                          (unsigned long long)bytes, p->facts->pattern, bnp[b],
                                          (unsigned long long)bytes * (unsigned long long)bnp[b]);
                    else
                        rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                          "--sizes: %llu bytes cannot be sent by %s at np=%ld: "
                                          "above 2 GiB - 1 a size must be a multiple of a power "
                                          "of two that brings MPI's int count under 2^31 "
                                          "(such as 3G)",
                                          (unsigned long long)bytes, p->facts->pattern, bnp[b]);
                    break;
                }
                uint64_t per_rank = cf_kernel_footprint(p, bytes, (int)bnp[b]);
                uint64_t local = bnp[b] < cores ? (uint64_t)bnp[b] : (uint64_t)cores;
                /* Simulated ranks share one process, and their buffers share memory unless
                 * --check needs the data (kernels.c). */
                if (o->simulate != NULL)
                    local = o->check ? (uint64_t)bnp[b] : 0;
                if (local > 0 && per_rank > mem / local) {
                    char need[32], have[32];
                    cf_size_format_estimate(per_rank * local, need, sizeof need);
                    cf_size_format_estimate(mem, have, sizeof have);
                    rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                      "--sizes: %s at np=%ld and %s needs %s of buffers on this "
                                      "node, which has %s of memory",
                                      p->facts->pattern, bnp[b], hs, need, have);
                }
            }
        }
    }
    free(bnp);
    return rc;
}

/* SimGrid 3.32's ompi selector divides by the count in its segmented bcast, reduce and
 * allreduce: an empty one (0 bytes; under 4 for the float reductions) kills the simulation
 * with SIGFPE, at every np. Refused up front; its default sizes start at 4 bytes. */
static int check_ompi_empty(const cf_measure_opts *o, cf_error *e)
{
    /* Every pattern it refuses named in one message, the size that suits them all (a new
     * user was refused bcast at 0 B, then reduce at 1 B, one try each). */
    char names[128] = "";
    uint64_t most = 0;
    for (size_t i = 0; i < o->npats && o->nsizes > 0; i++) {
        const char *name = o->pats[i]->facts->pattern;
        uint64_t least = strcmp(name, "bcast") == 0                                      ? 1
                         : strcmp(name, "reduce") == 0 || strcmp(name, "allreduce") == 0 ? 4
                                                                                         : 0;
        if (o->sizes[0] >= least)
            continue;
        size_t l = strlen(names);
        snprintf(names + l, sizeof names - l, "%s%s", l ? ", " : "", name);
        most = least > most ? least : most;
    }
    if (most == 0)
        return 0;
    return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                        "--simulate: SMPI's ompi selector dies (SIGFPE) on an empty %s (%llu "
                        "byte%s, no element; bcast needs 1 byte, reduce and allreduce a 4-byte "
                        "float): start --sizes at %llu or leave %s out",
                        names, (unsigned long long)o->sizes[0], o->sizes[0] == 1 ? "" : "s",
                        (unsigned long long)most, strchr(names, ',') != NULL ? "them" : names);
}

/* SimGrid 3.32's mpich selector hands alltoall of 32 KiB blocks and more to its pairwise
 * algorithm, which throws at a process count that is not a power of two and takes the
 * whole simulation down: refused before it starts. */
static int check_simulated_points(const cf_measure_opts *o, cf_error *e)
{
    const char *sel = o->selector ? o->selector : CF_SIM_SELECTOR;
    if (o->simulate != NULL && strcmp(sel, "ompi") == 0)
        return check_ompi_empty(o, e);
    if (o->simulate == NULL || strcmp(sel, "mpich") != 0 || o->nsizes == 0 ||
        o->sizes[o->nsizes - 1] < 32768)
        return 0;
    for (size_t i = 0; i < o->npats; i++) {
        if (strcmp(o->pats[i]->facts->pattern, "alltoall") != 0)
            continue;
        for (size_t k = 0; k < o->nnps; k++) {
            long p = o->nps[k];
            if (p > 2 && (p & (p - 1)) != 0)
                return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                    "--simulate: SMPI's mpich selector runs alltoall of 32 KiB "
                                    "and more with its pairwise algorithm, which aborts at np=%ld "
                                    "(not a power of two): leave out those sizes or that np, or "
                                    "use --coll-selector ompi",
                                    p);
        }
    }
    return 0;
}

static int opts_check(cf_measure_opts *o, long launch_np, cf_error *e);

int cf_measure_opts_check(cf_measure_opts *o, long launch_np, cf_error *e)
{
    int rc = opts_check(o, launch_np, e);
    /* With --resume the plan's options come from the table (given ones are refused): one
     * that does not check is the table's error, not a usage error of the command line
     * ("--patterns: unknown pattern 'foo'", exit 2, no file named). */
    /* Not an np larger than this launch: the table may be whole, the launch too small. */
    if (rc == CF_EXIT_USAGE && o->done != NULL && o->resume != NULL &&
        strstr(e->msg, "than the launch") == NULL) {
        char key[32]; /* the message's first word: the option it is about */
        snprintf(key, sizeof key, "%.*s", (int)strcspn(e->msg, " :'"), e->msg);
        if (is_plan_key(key)) {
            char msg[sizeof e->msg];
            snprintf(msg, sizeof msg, "%s", e->msg);
            return cf_error_set(e, CF_EXIT_DATA, o->resume, 0, "metadata 'plan': %s", msg);
        }
    }
    return rc;
}

static int opts_check(cf_measure_opts *o, long launch_np, cf_error *e)
{
    int rc;
    if (o->quiet && o->progress)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "-q (no progress) and --progress contradict each other");
    struct stat st;
    if (o->output != NULL && strcmp(o->output, "-") != 0 &&
        (o->output[strlen(o->output) - 1] == '/' ||
         (stat(o->output, &st) == 0 && S_ISDIR(st.st_mode))))
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "-o '%s' names a folder: name the table's file (a folder on its "
                            "path is made)",
                            o->output);
    if (o->simulate == NULL && (o->hostfile != NULL || o->selector != NULL || o->launch_np > 0))
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "%s goes with --simulate PLATFORM%s",
                            o->hostfile   ? "--hostfile"
                            : o->selector ? "--coll-selector"
                                          : "--launch-np",
                            o->launch_np > 0 && !o->hostfile && !o->selector
                                ? " (a real launch's size is the launcher's: mpiexec -n N)"
                                : "");
    if (o->simulate != NULL && (o->launcher != NULL || o->oversubscribe))
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--simulate runs under SimGrid's smpirun: %s does not apply",
                            o->launcher != NULL ? "--launcher" : "--oversubscribe");
    if (o->simulate != NULL && o->samples == 0 && o->target_ci == 0)
        o->samples = CF_SIM_SAMPLES;
    if (o->output != NULL && strcmp(o->output, "-") == 0 && o->ddt_summary)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--ddt-summary reads the table back: name a file with -o, not '-'");
    if ((rc = parse_patterns(o, e)) != 0 || (rc = parse_sizes(o, e)) != 0 ||
        (rc = parse_ddt(o, e)) != 0)
        return rc;
    free(o->nps);
    o->nps = NULL;
    o->nnps = 0;
    if (o->np_arg != NULL) {
        cf_error sub;
        cf_error_clear(&sub);
        if (cf_int_list_parse(o->np_arg, "--np", 1, CF_TABLE_NP_MAX, &o->nps, &o->nnps, &sub) !=
            0)
            return cf_error_set(e, sub.code, NULL, 0, "%s", sub.msg);
        long top = o->nps[o->nnps - 1];
        if (launch_np > 0 && top > launch_np)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "--np %ld is larger than the launch (%ld processes)", top,
                                launch_np);
    } else if (launch_np > 0) {
        if (cf_measure_default_np(launch_np, &o->nps, &o->nnps) != 0)
            return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    if (cf_measure_needs_two(o)) {
        long top = o->nnps > 0 ? o->nps[o->nnps - 1] : launch_np;
        if (top > 0 && top < 2) {
            const char *name = "ddt";
            for (size_t i = 0; i < o->npats; i++)
                if (o->pats[i]->facts->two_only) {
                    name = o->pats[i]->facts->pattern;
                    break;
                }
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "pattern '%s' needs 2 processes, but %s", name,
                                o->np_arg ? "--np asks for 1" : "the launch has 1");
        }
        if (launch_np == 1)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "the point-to-point patterns need 2 processes, but the launch "
                                "has 1");
    }
    /* An np at which nothing runs would only start idle ranks. */
    for (size_t k = 0; o->np_arg != NULL && k < o->nnps; k++) {
        int used = o->ddt && o->nps[k] == 2;
        for (size_t i = 0; i < o->npats && !used; i++)
            used = cf_measure_runs_at(o, o->pats[i], o->nps[k]);
        if (!used)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "--np %ld: none of the patterns asked for runs at np=%ld "
                                "(pingpong, pingping, the LogGP experiments and the datatypes "
                                "run on 2 ranks)",
                                o->nps[k], o->nps[k]);
    }
    if (o->nps != NULL && (rc = check_simulated_points(o, e)) != 0)
        return rc;
    if (o->nps != NULL && (rc = check_points(o, e)) != 0)
        return rc;
    return 0;
}

long cf_measure_launch_size(const cf_measure_opts *o, long cores)
{
    long n = cores < 2 ? 2 : cores;
    if (o->nnps > 0 && o->nps[o->nnps - 1] > n)
        n = o->nps[o->nnps - 1];
    return n;
}
