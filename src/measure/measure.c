/* commfit measure's engine: options and plan (checked before MPI starts), the sampling
 * rules, and the run loop over process counts, patterns and sizes. The kernels time; this
 * file turns their numbers into rows, and the table module writes them. */
#include "config.h"

#include "measure/measure.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/cli.h"
#include "measure/launch.h"
#include "base/outfile.h"
#include "base/sha256.h"
#include "base/size.h"
#include "base/stats.h"

#ifdef CF_SMPI
#include <simgrid/host.h>
#include <simgrid/version.h>
#endif

/* ---- options ---- */

void cf_measure_opts_init(cf_measure_opts *o)
{
    memset(o, 0, sizeof *o);
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
                                        "--off-cache", "--blocks", "--datatypes"};
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
    } else if (strcmp(name, "--output") == 0) {
        rc = set_string(&o->output, value, e);
    } else if (strcmp(name, "--resume") == 0) {
        rc = set_string(&o->resume, value, e);
    } else if (strcmp(name, "--launcher") == 0) {
        rc = set_string(&o->launcher, value, e);
    } else if (strcmp(name, "--simulate") == 0) {
        rc = set_string(&o->simulate, value, e);
    } else if (strcmp(name, "--hostfile") == 0) {
        rc = set_string(&o->hostfile, value, e);
    } else if (strcmp(name, "--coll-selector") == 0) {
        if (!cf_sim_selector_known(value))
            rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                              "--coll-selector '%s': expected one of " CF_SIM_SELECTORS, value);
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
           strcmp(key, "--ddt-summary") != 0;
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

/* The file's contents up to its last complete line: what an interrupted run left. */
static int read_complete_lines(const char *path, char **buf, size_t *len, cf_error *e)
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
        return 0;
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

int cf_measure_resume_load(cf_measure_opts *o, cf_error *e)
{
    if (o->output != NULL)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--resume continues '%s' in place: drop -o", o->resume);
    if (o->plan_given)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--resume takes the plan from '%s': drop --patterns, --sizes, --np, "
                            "--reps, --samples, --max-time, --target-ci, --check, --off-cache, "
                            "--blocks and --datatypes",
                            o->resume);
    char *buf;
    size_t len;
    int rc = read_complete_lines(o->resume, &buf, &len, e);
    if (rc != 0)
        return rc;
    cf_table *t = NULL;
    rc = cf_table_read_mem(buf, len, o->resume, &t, e);
    free(buf);
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
                strncat(names, cf_patterns[i].name, sizeof names - strlen(names) - 1);
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
        if (o->blocks_arg != NULL || o->datatypes_arg != NULL)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "%s applies to derived datatypes only: add ddt to --patterns",
                                o->blocks_arg != NULL ? "--blocks" : "--datatypes");
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
            if (cf_ddt_kind_from_name(tok, &k) != 0) {
                int rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                      "--datatypes: unknown datatype '%s': expected vector, "
                                      "hvector, indexed, hindexed, struct, contiguous or pack",
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
        cf_size_format(need, hn, sizeof hn);
        cf_size_format(mem, hm, sizeof hm);
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

static int needs_two(const cf_measure_opts *o)
{
    if (o->ddt)
        return 1;
    for (size_t i = 0; i < o->npats; i++)
        if (o->pats[i]->two_ranks)
            return 1;
    return 0;
}

static int np_listed(const cf_measure_opts *o, long np)
{
    for (size_t i = 0; i < o->nnps; i++)
        if (o->nps[i] == np)
            return 1;
    return 0;
}

/* Whether pattern p runs at np. */
static int runs_at(const cf_measure_opts *o, const cf_pattern *p, long np)
{
    return p->two_ranks ? np == 2 : np_listed(o, np);
}

/* The process counts the plan visits: the --np list, and 2 for the two-rank patterns. */
static size_t block_nps(const cf_measure_opts *o, long *out)
{
    size_t k = 0;
    int two = needs_two(o);
    for (size_t i = 0; i < o->nnps; i++) {
        if (two && o->nps[i] > 2 && (k == 0 || out[k - 1] < 2))
            out[k++] = 2;
        out[k++] = o->nps[i];
    }
    if (two && (k == 0 || out[k - 1] < 2))
        out[k++] = 2;
    return k;
}

static int check_points(const cf_measure_opts *o, cf_error *e)
{
    long *bnp = malloc((o->nnps + 1) * sizeof *bnp);
    if (bnp == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    size_t nb = block_nps(o, bnp);
    uint64_t mem = phys_memory();
    long cores = cf_launch_cores();
    int rc = 0;
    for (size_t b = 0; b < nb && rc == 0; b++) {
        for (size_t i = 0; i < o->npats && rc == 0; i++) {
            const cf_pattern *p = o->pats[i];
            if (!runs_at(o, p, bnp[b]))
                continue;
            for (size_t j = 0; j < o->nsizes && rc == 0; j++) {
                uint64_t bytes = p->sized ? o->sizes[j] : 0, unit;
                char hs[32];
                cf_size_format(bytes, hs, sizeof hs);
                if (cf_kernel_unit(p, bytes, (int)bnp[b], &unit) != 0) {
                    if (strcmp(p->datatype, "float") == 0)
                        rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                          "--sizes: %s is too large for %s: a reduction counts "
                                          "floats in an int, so at most 8 GiB - 4",
                                          hs, p->name);
                    else
                        rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                          "--sizes: %llu bytes cannot be sent by %s at np=%ld: "
                                          "above 2 GiB - 1 a size must be a multiple of a power "
                                          "of two that brings MPI's int count under 2^31 "
                                          "(such as 3G)",
                                          (unsigned long long)bytes, p->name, bnp[b]);
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
                    cf_size_format(per_rank * local, need, sizeof need);
                    cf_size_format(mem, have, sizeof have);
                    rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                      "--sizes: %s at np=%ld and %s needs %s of buffers on this "
                                      "node, which has %s of memory",
                                      p->name, bnp[b], hs, need, have);
                }
            }
        }
    }
    free(bnp);
    return rc;
}

/* SimGrid 3.32's mpich selector hands alltoall of 32 KiB blocks and more to its pairwise
 * algorithm, which throws at a process count that is not a power of two and takes the
 * whole simulation down: refused before it starts. */
static int check_simulated_points(const cf_measure_opts *o, cf_error *e)
{
    const char *sel = o->selector ? o->selector : CF_SIM_SELECTOR;
    if (o->simulate == NULL || strcmp(sel, "mpich") != 0 || o->nsizes == 0 ||
        o->sizes[o->nsizes - 1] < 32768)
        return 0;
    for (size_t i = 0; i < o->npats; i++) {
        if (strcmp(o->pats[i]->name, "alltoall") != 0)
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

int cf_measure_opts_check(cf_measure_opts *o, long launch_np, cf_error *e)
{
    int rc;
    if (o->quiet && o->progress)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "-q (no progress) and --progress contradict each other");
    if (o->simulate == NULL && (o->hostfile != NULL || o->selector != NULL))
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s goes with --simulate PLATFORM",
                            o->hostfile ? "--hostfile" : "--coll-selector");
    if (o->simulate != NULL && o->launcher != NULL)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--simulate runs under SimGrid's smpirun: --launcher does not apply");
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
    if (needs_two(o)) {
        long top = o->nnps > 0 ? o->nps[o->nnps - 1] : launch_np;
        if (top > 0 && top < 2) {
            const char *name = "ddt";
            for (size_t i = 0; i < o->npats; i++)
                if (o->pats[i]->two_ranks) {
                    name = o->pats[i]->name;
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
            used = runs_at(o, o->pats[i], o->nps[k]);
        if (!used)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "--np %ld: none of the patterns asked for runs at np=%ld (the "
                                "point-to-point patterns and the datatypes run on 2 ranks)",
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

/* ---- plan ---- */

static int appendf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int appendf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(*buf ? *buf + *len : NULL, *buf ? *cap - *len : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            return -1;
        if (*buf && *len + (size_t)n < *cap) {
            *len += (size_t)n;
            return 0;
        }
        size_t nc = (*cap ? *cap : 256) * 2 + (size_t)n;
        char *nb = realloc(*buf, nc);
        if (nb == NULL)
            return -1;
        *buf = nb;
        *cap = nc;
    }
}

int cf_measure_plan_text(const cf_measure_opts *o, char **out)
{
    char *b = NULL;
    size_t len = 0, cap = 0;
    int bad = appendf(&b, &len, &cap, "--patterns ");
    for (size_t i = 0; i < o->npats; i++)
        bad |= appendf(&b, &len, &cap, "%s%s", i ? "," : "", o->pats[i]->name);
    if (o->ddt)
        bad |= appendf(&b, &len, &cap, "%sddt", o->npats ? "," : "");
    bad |= appendf(&b, &len, &cap, " --sizes ");
    for (size_t i = 0; i < o->nsizes; i++)
        bad |= appendf(&b, &len, &cap, "%s%llu", i ? "," : "", (unsigned long long)o->sizes[i]);
    bad |= appendf(&b, &len, &cap, " --np ");
    for (size_t i = 0; i < o->nnps; i++)
        bad |= appendf(&b, &len, &cap, "%s%ld", i ? "," : "", o->nps[i]);
    bad |= appendf(&b, &len, &cap, " --samples %ld --max-time %.17g",
                   o->samples ? o->samples : CF_MEASURE_SAMPLES,
                   o->max_time_s > 0 ? o->max_time_s : CF_MEASURE_MAX_TIME_S);
    if (o->reps > 0)
        bad |= appendf(&b, &len, &cap, " --reps %ld", o->reps);
    if (o->target_ci > 0)
        bad |= appendf(&b, &len, &cap, " --target-ci %.17g", o->target_ci);
    if (o->check)
        bad |= appendf(&b, &len, &cap, " --check");
    if (o->off_cache)
        bad |= appendf(&b, &len, &cap, " --off-cache");
    if (o->ddt && o->blocks_arg != NULL) {
        bad |= appendf(&b, &len, &cap, " --blocks ");
        for (size_t i = 0; i < o->nblocks; i++)
            bad |= appendf(&b, &len, &cap, "%s%ld", i ? "," : "", o->blocks[i]);
    }
    if (o->ddt && o->ddt_kinds != CF_DDT_ALL_KINDS) {
        bad |= appendf(&b, &len, &cap, " --datatypes ");
        for (int k = 0, first = 1; k < CF_DDT_NKINDS; k++)
            if (o->ddt_kinds & (1u << k)) {
                bad |= appendf(&b, &len, &cap, "%s%s", first ? "" : ",",
                               cf_ddt_kind_name((cf_ddt_kind)k));
                first = 0;
            }
    }
    if (bad) {
        free(b);
        return -1;
    }
    *out = b;
    return 0;
}

static int already_done(const cf_measure_opts *o, const cf_pattern *p, long np, uint64_t bytes)
{
    if (o->done == NULL)
        return 0;
    for (size_t i = 0; i < o->done->n_rows; i++) {
        const cf_row *r = &o->done->rows[i];
        if (r->np == np && r->bytes == bytes && strcmp(r->pattern, p->name) == 0 &&
            strcmp(r->datatype, p->datatype) == 0)
            return 1;
    }
    return 0;
}

/* A derived-datatype point is done when a row has its datatype, payload, blocks and
 * layout (pack rows of different layouts share the rest). */
static int ddt_done(const cf_measure_opts *o, const cf_ddt_shape *s)
{
    if (o->done == NULL || o->done->n_extra != 1 + CF_DDT_NEXTRA)
        return 0;
    const char *kind = cf_ddt_kind_name(s->kind), *layout = cf_ddt_kind_name(s->layout);
    size_t nl = strlen(layout);
    for (size_t i = 0; i < o->done->n_rows; i++) {
        const cf_row *r = &o->done->rows[i];
        /* extra is "stop,layout,..." */
        const char *l = r->extra ? strchr(r->extra, ',') : NULL;
        if (r->np == 2 && r->bytes == s->bytes && r->blocks == s->blocks &&
            strcmp(r->pattern, "pingpong") == 0 && strcmp(r->datatype, kind) == 0 &&
            l != NULL && strncmp(l + 1, layout, nl) == 0 && (l[1 + nl] == ',' || !l[1 + nl]))
            return 1;
    }
    return 0;
}

int cf_measure_plan(const cf_measure_opts *o, cf_point **out, size_t *n)
{
    long *bnp = malloc((o->nnps + 1) * sizeof *bnp);
    size_t cap = (o->nnps + 1) * o->npats * (o->nsizes ? o->nsizes : 1) + o->nddts;
    cf_point *v = malloc((cap ? cap : 1) * sizeof *v);
    if (bnp == NULL || v == NULL) {
        free(bnp);
        free(v);
        return -1;
    }
    size_t nb = block_nps(o, bnp), k = 0;
    for (size_t b = 0; b < nb; b++) {
        for (size_t i = 0; i < o->npats; i++) {
            const cf_pattern *p = o->pats[i];
            if (!runs_at(o, p, bnp[b]))
                continue;
            for (size_t j = 0; j < (p->sized ? o->nsizes : 1); j++) {
                uint64_t bytes = p->sized ? o->sizes[j] : 0;
                if (already_done(o, p, bnp[b], bytes))
                    continue;
                v[k].pat = p;
                v[k].np = (int)bnp[b];
                v[k].bytes = bytes;
                v[k].ddt = NULL;
                k++;
            }
        }
        /* The derived datatypes are ping-pongs: at np=2, after the patterns. */
        if (bnp[b] != 2)
            continue;
        for (size_t i = 0; i < o->nddts; i++) {
            if (ddt_done(o, &o->ddts[i]))
                continue;
            v[k].pat = cf_pattern_find("pingpong");
            v[k].np = 2;
            v[k].bytes = o->ddts[i].bytes;
            v[k].ddt = &o->ddts[i];
            k++;
        }
    }
    free(bnp);
    *out = v;
    *n = k;
    return 0;
}

/* ---- sampling ---- */

long cf_measure_reps(uint64_t bytes, long reps_opt, double max_time_s, long samples,
                     double t_call_s)
{
    if (reps_opt > 0)
        return reps_opt;
    long r = CF_MEASURE_REPS_MAX;
    if (bytes > 0 && (uint64_t)CF_MEASURE_REPS_BYTES / bytes < (uint64_t)r)
        r = (long)((uint64_t)CF_MEASURE_REPS_BYTES / bytes);
    if (t_call_s > 0 && max_time_s > 0) {
        double fit = max_time_s / ((double)(samples + 1) * t_call_s);
        if (fit < (double)r)
            r = (long)fit;
    }
    return r < 1 ? 1 : r;
}

int cf_measure_more(const cf_measure_opts *o, const double *tavg, size_t n, double elapsed_s,
                    const char **stop)
{
    double budget = o->max_time_s > 0 ? o->max_time_s : CF_MEASURE_MAX_TIME_S;
    if (n == 0)
        return 1;
    if (o->target_ci > 0) {
        if (n >= CF_MEASURE_CI_MIN_SAMPLES &&
            cf_stats_ci95_median(tavg, n) <= o->target_ci / 100.0 * cf_stats_median(tavg, n)) {
            *stop = "ci";
            return 0;
        }
        if (elapsed_s >= budget) {
            *stop = "time";
            return 0;
        }
        if (n >= CF_MEASURE_CI_MAX_SAMPLES) {
            *stop = "samples";
            return 0;
        }
        return 1;
    }
    if (n >= (size_t)(o->samples ? o->samples : CF_MEASURE_SAMPLES)) {
        *stop = "samples";
        return 0;
    }
    if (elapsed_s >= budget) {
        *stop = "time";
        return 0;
    }
    return 1;
}

void cf_measure_row(const cf_pattern *p, int np, uint64_t bytes, long reps, const double *tmin,
                    const double *tavg, const double *tmax, size_t n, cf_row *row)
{
    cf_row_init(row);
    snprintf(row->pattern, sizeof row->pattern, "%s", p->name);
    snprintf(row->datatype, sizeof row->datatype, "%s", p->datatype);
    row->np = np;
    row->bytes = bytes;
    row->reps = reps;
    row->samples = (int)n;
    double lo = tmin[0], hi = tmax[0], sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (tmin[i] < lo)
            lo = tmin[i];
        if (tmax[i] > hi)
            hi = tmax[i];
        sum += tavg[i];
    }
    row->t_min_us = lo * 1e6;
    row->t_avg_us = sum / (double)n * 1e6;
    row->t_max_us = hi * 1e6;
    /* Rounding of the mean must not break min <= avg <= max. */
    if (row->t_avg_us < row->t_min_us)
        row->t_avg_us = row->t_min_us;
    if (row->t_avg_us > row->t_max_us)
        row->t_avg_us = row->t_max_us;
    row->t_med_us = cf_stats_median(tavg, n) * 1e6;
    row->t_ci95_us = n >= 2 ? cf_stats_ci95_median(tavg, n) * 1e6 : NAN;
    if (p->nmsg > 0)
        row->bw_MiBps = (double)p->nmsg * (double)bytes / (1.048576 * row->t_avg_us);
}

/* ---- the run ---- */

static volatile sig_atomic_t stop_requested;

void cf_measure_request_stop(void)
{
    stop_requested = 1;
}

typedef struct run_state {
    cf_measure_opts *o;
    const cf_measure_hooks *hooks;
    cf_error *e;
    int rank, size;
    double wtick;
    uint64_t cache_bytes;
    double *tmin, *tavg, *tmax;
    size_t cap_samples;
    FILE *fp;
    cf_table *t;
    char *path;
    size_t rows;
    off_t kept; /* the file's length up to its last complete row */
} run_state;

static void point_name(const cf_point *pt, char *buf, size_t n);

/* An MPI failure outside a kernel: this rank reports it and the run aborts. */
static int mpi_failed(run_state *R, const char *call, int rc, const cf_point *pt)
{
    char s[MPI_MAX_ERROR_STRING], name[128];
    int len = 0;
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS)
        snprintf(s, sizeof s, "error %d", rc);
    if (pt != NULL) {
        point_name(pt, name, sizeof name);
        cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "%s failed at %s: %s", call, name, s);
    } else {
        cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "%s failed: %s", call, s);
    }
    return -1;
}

#define RUN_CALL(fn, args, pt)                                                                \
    do {                                                                                      \
        int rc_ = fn args;                                                                    \
        if (rc_ != MPI_SUCCESS)                                                               \
            return mpi_failed(R, #fn, rc_, pt);                                               \
    } while (0)

/* Every rank of comm says whether it failed; rank 0 learns the first failing rank's
 * reason. Returns 1 when some rank failed (on every rank), 0 when none, -1 on an MPI
 * error. */
static int agree(run_state *R, MPI_Comm comm, const cf_point *pt, int bad, char *why,
                 size_t nwhy)
{
    int rank, np, mine, first;
    RUN_CALL(MPI_Comm_rank, (comm, &rank), pt);
    RUN_CALL(MPI_Comm_size, (comm, &np), pt);
    mine = bad ? rank : np;
    RUN_CALL(MPI_Allreduce, (&mine, &first, 1, MPI_INT, MPI_MIN, comm), pt);
    if (first == np)
        return 0;
    if (first != 0 && rank == first)
        RUN_CALL(MPI_Send, (why, (int)nwhy, MPI_CHAR, 0, 3, comm), pt);
    if (first != 0 && rank == 0)
        RUN_CALL(MPI_Recv, (why, (int)nwhy, MPI_CHAR, first, 3, comm, MPI_STATUS_IGNORE), pt);
    why[nwhy - 1] = '\0';
    return 1;
}

static int kernel_failed(run_state *R, cf_kctx *k, const cf_point *pt)
{
    return mpi_failed(R, k->failed, k->mpi_rc, pt);
}

/* What one point runs: a pattern's kernel, or a derived-datatype transfer (ddt.h). Both
 * take the same sampling below, so that their rows are measured alike. */
typedef struct point_kernel {
    const cf_point *pt;
    cf_kctx k;
    cf_ddt_xfer x;
    cf_error e; /* a derived-datatype failure */
} point_kernel;

/* 0; -1 with k->failed (an MPI error on this rank); 1 with why (to agree on). */
static int pk_setup(run_state *R, point_kernel *pk, MPI_Comm comm, char *why, size_t nwhy)
{
    const cf_point *pt = pk->pt;
    if (pt->ddt == NULL) {
        int rc = cf_kernel_setup(&pk->k, pt->pat, comm, pt->bytes,
                                 R->o->off_cache ? R->cache_bytes : 0);
        snprintf(why, nwhy, "%s", pk->k.why);
        return rc == 0 ? 0 : pk->k.failed != NULL ? -1 : 1;
    }
    cf_error_clear(&pk->e);
    if (cf_ddt_xfer_init(&pk->x, pt->ddt, comm, &pk->e) != 0) {
        snprintf(why, nwhy, "%s", pk->e.msg);
        return 1;
    }
    return 0;
}

static void pk_teardown(point_kernel *pk)
{
    if (pk->pt->ddt == NULL)
        cf_kernel_teardown(&pk->k);
    else
        cf_ddt_xfer_free(&pk->x);
}

/* One verification outside the timed loop: before it (after is 0) or after it; the
 * kernels verify before only. 0, 1 with why, -1 on an MPI error. */
static int pk_verify(point_kernel *pk, int after, char *why, size_t nwhy)
{
    if (pk->pt->ddt == NULL) {
        if (after)
            return 0;
        int rc = pk->pt->pat->verify(&pk->k);
        snprintf(why, nwhy, "%s", pk->k.why);
        return rc;
    }
    int rc = after ? cf_ddt_verify(&pk->x, &pk->e) : cf_ddt_check(&pk->x, &pk->e);
    snprintf(why, nwhy, "%s", pk->e.msg);
    return rc == 0 ? 0 : 1;
}

static int pk_run(point_kernel *pk, long reps, double *t, int *contributes)
{
    if (pk->pt->ddt == NULL) {
        int rc = pk->pt->pat->run(&pk->k, reps, t);
        *contributes = pk->k.contributes;
        return rc;
    }
    *contributes = 1;
    return cf_ddt_run_timed(&pk->x, reps, t, &pk->e) == 0 ? 0 : -1;
}

static int pk_failed(run_state *R, point_kernel *pk)
{
    if (pk->pt->ddt == NULL)
        return kernel_failed(R, &pk->k, pk->pt);
    if (pk->x.failed != NULL)
        return mpi_failed(R, pk->x.failed, pk->x.mpi_rc, pk->pt);
    *R->e = pk->e;
    return -1;
}

/* The point as messages name it: "vector np=2 bytes=1020 blocks=3" for a datatype. */
static void point_name(const cf_point *pt, char *buf, size_t n)
{
    if (pt->ddt != NULL)
        snprintf(buf, n, "%s %s np=%d bytes=%llu blocks=%ld", pt->pat->name,
                 cf_ddt_kind_name(pt->ddt->kind), pt->np, (unsigned long long)pt->bytes,
                 pt->ddt->blocks);
    else
        snprintf(buf, n, "%s np=%d bytes=%llu", pt->pat->name, pt->np,
                 (unsigned long long)pt->bytes);
}

/* Measures one point on comm (every rank of it); fills row and stop on every rank.
 * Returns 0, 1 when the point failed on some rank (rank 0 has the message in R->e), or
 * -1 on an MPI error on this rank. */
static int measure_point(run_state *R, const cf_point *pt, MPI_Comm comm, cf_row *row,
                         const char **stop)
{
    cf_measure_opts *o = R->o;
    point_kernel pk;
    memset(&pk, 0, sizeof pk);
    pk.pt = pt;
    char why[sizeof R->e->msg], name[128];
    why[0] = '\0';
    point_name(pt, name, sizeof name);
    int rc = pk_setup(R, &pk, comm, why, sizeof why);
    if (rc < 0) {
        rc = pk_failed(R, &pk);
        pk_teardown(&pk);
        return rc;
    }
    int a = agree(R, comm, pt, rc != 0, why, sizeof why);
    if (a != 0) {
        pk_teardown(&pk);
        if (a > 0)
            cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "cannot set up %s: %s", name, why);
        return a;
    }
    if (o->check) {
        rc = pk_verify(&pk, 0, why, sizeof why);
        if (rc < 0) {
            pk_teardown(&pk);
            return kernel_failed(R, &pk.k, pt);
        }
        a = agree(R, comm, pt, rc != 0, why, sizeof why);
        if (a != 0) {
            pk_teardown(&pk);
            if (a > 0)
                cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "check failed at %s: %s", name, why);
            return a;
        }
    }

    /* A first call pays for first contact (connections, registration); the next few tell
     * how many calls fit in the time budget. Then the untimed warm-up. */
    double t, w, wmax;
    int contributes;
    if (pk_run(&pk, 1, &t, &contributes) != 0)
        goto kfail;
    long nominal = o->samples ? o->samples : CF_MEASURE_SAMPLES;
    double budget = o->max_time_s > 0 ? o->max_time_s : CF_MEASURE_MAX_TIME_S;
    long probe = cf_measure_reps(pt->bytes, 0, 0, nominal, 0);
    if (probe > 4)
        probe = 4;
    double w0 = MPI_Wtime();
    if (pk_run(&pk, probe, &t, &contributes) != 0)
        goto kfail;
    w = (MPI_Wtime() - w0) / (double)probe;
    RUN_CALL(MPI_Allreduce, (&w, &wmax, 1, MPI_DOUBLE, MPI_MAX, comm), pt);
    long reps_opt = o->reps;
    /* Simulated: each call costs wall time and there is no noise to average out. The
     * two-rank patterns get more calls because their start is skewed by one transfer (rank
     * 1 waits for the first message), which biases the mean by 1/(4 reps). */
    if (o->simulate != NULL && reps_opt == 0)
        reps_opt = pt->pat->two_ranks || pt->ddt != NULL ? CF_SIM_REPS_P2P : CF_SIM_REPS;
    long reps = cf_measure_reps(pt->bytes, reps_opt, budget, nominal, wmax);
    w0 = MPI_Wtime();
    if (pk_run(&pk, reps, &t, &contributes) != 0)
        goto kfail;
    w = MPI_Wtime() - w0;
    RUN_CALL(MPI_Allreduce, (&w, &wmax, 1, MPI_DOUBLE, MPI_MAX, comm), pt);
    double elapsed = wmax;

    size_t n = 0;
    /* The floor a time can take: the timer's resolution over the calls it covers. */
    double floor_s = R->wtick / (double)reps;
    while (cf_measure_more(o, R->tavg, n, elapsed, stop)) {
        if (n == R->cap_samples)
            break;
        RUN_CALL(MPI_Barrier, (comm), pt);
        w0 = MPI_Wtime();
        if (pk_run(&pk, reps, &t, &contributes) != 0)
            goto kfail;
        double wall = MPI_Wtime() - w0;
        if (t < floor_s)
            t = floor_s;
        /* max of {time, -time, wall}: the maximum, minus the minimum, the longest sample;
         * sum of {time, 1}: the mean. Ranks whose time does not count send neutral values. */
        double mx[3] = {contributes ? t : -HUGE_VAL, contributes ? -t : -HUGE_VAL, wall};
        double sm[2] = {contributes ? t : 0, contributes ? 1 : 0};
        double gmx[3], gsm[2];
        RUN_CALL(MPI_Allreduce, (mx, gmx, 3, MPI_DOUBLE, MPI_MAX, comm), pt);
        RUN_CALL(MPI_Allreduce, (sm, gsm, 2, MPI_DOUBLE, MPI_SUM, comm), pt);
        RUN_CALL(MPI_Barrier, (comm), pt);
        R->tmax[n] = gmx[0];
        R->tmin[n] = -gmx[1];
        R->tavg[n] = gsm[0] / gsm[1];
        n++;
        elapsed += gmx[2];
        if (n == R->cap_samples)
            *stop = "samples";
    }
    /* What the timed transfers left must be the payload (derived datatypes). */
    if (o->check) {
        rc = pk_verify(&pk, 1, why, sizeof why);
        a = agree(R, comm, pt, rc != 0, why, sizeof why);
        if (a != 0) {
            pk_teardown(&pk);
            if (a > 0)
                cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "check failed at %s: %s", name, why);
            return a;
        }
    }
    pk_teardown(&pk);
    cf_measure_row(pt->pat, pt->np, pt->bytes, reps, R->tmin, R->tavg, R->tmax, n, row);
    if (pt->ddt != NULL) {
        snprintf(row->datatype, sizeof row->datatype, "%s", cf_ddt_kind_name(pt->ddt->kind));
        row->blocks = (int)pt->ddt->blocks;
    }
    return 0;
kfail:
    rc = pk_failed(R, &pk);
    pk_teardown(&pk);
    return rc;
}

/* Waits for every rank at a barrier without spinning, so that idle ranks leave the cores
 * to the ranks that measure. */
static int quiet_barrier(run_state *R)
{
    MPI_Request req;
    int done = 0;
    RUN_CALL(MPI_Ibarrier, (MPI_COMM_WORLD, &req), NULL);
    while (!done) {
        RUN_CALL(MPI_Test, (&req, &done, MPI_STATUS_IGNORE), NULL);
        if (!done) {
            struct timespec ts = {0, 200000};
            nanosleep(&ts, NULL);
        }
    }
    return 0;
}

#ifndef CF_SMPI
/* The time of a 1000-element double dot product, in microseconds: the best of many. */
static double normalized_time_us(void)
{
    enum { N = 1000, REPS = 2000 };
    static double x[N], y[N];
    volatile double sink = 0;
    for (int i = 0; i < N; i++) {
        x[i] = 1.0 + i * 1e-3;
        y[i] = 2.0 - i * 1e-3;
    }
    double best = HUGE_VAL;
    for (int trial = 0; trial < 5; trial++) {
        double t0 = MPI_Wtime();
        for (int r = 0; r < REPS; r++) {
            double s = 0;
            for (int i = 0; i < N; i++)
                s += x[i] * y[i];
            sink += s;
            /* Keeps the compiler from hoisting the loop out of the repetitions. */
            __asm__ volatile("" : : "g"(x) : "memory");
        }
        double t = (MPI_Wtime() - t0) / REPS;
        if (t < best)
            best = t;
    }
    (void)sink;
    return best * 1e6;
}
#endif

static uint64_t cache_size(void)
{
    long c = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
    c = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
    if (c <= 0)
        c = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    if (c <= 0)
        c = 32L << 20;
    /* Some virtual machines report the whole package's cache; a gigabyte is plenty. */
    if (c > (1L << 30))
        c = 1L << 30;
    return (uint64_t)c;
}

typedef struct host_info {
    char name[MPI_MAX_PROCESSOR_NAME + 1];
    int ranks, cores;
} host_info;

/* Gathers host names and core counts; rank 0 fills the metadata. Sets *over when some
 * node runs more ranks than it has cores. */
static int host_metadata(run_state *R, int *over)
{
    enum { W = MPI_MAX_PROCESSOR_NAME + 16 };
    char mine[W] = "";
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    RUN_CALL(MPI_Get_processor_name, (name, &len), NULL);
#ifdef CF_SMPI
    long ncores = sg_host_core_count(sg_host_self()); /* the simulated host's */
#else
    long ncores = cf_launch_cores();
#endif
    snprintf(mine, sizeof mine, "%ld %.*s", ncores, len, name);
    char *all = NULL;
    if (R->rank == 0 && (all = malloc((size_t)R->size * W)) == NULL)
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory"), -1;
    RUN_CALL(MPI_Gather, (mine, W, MPI_CHAR, all, W, MPI_CHAR, 0, MPI_COMM_WORLD), NULL);
    *over = 0;
    if (R->rank != 0)
        return 0;
    host_info *h = calloc((size_t)R->size, sizeof *h);
    if (h == NULL) {
        free(all);
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory"), -1;
    }
    int nh = 0;
    for (int r = 0; r < R->size; r++) {
        char *entry = all + (size_t)r * W;
        entry[W - 1] = '\0';
        char *sp = strchr(entry, ' ');
        const char *hn = sp ? sp + 1 : entry;
        int cores = atoi(entry), i;
        for (i = 0; i < nh; i++)
            if (strcmp(h[i].name, hn) == 0)
                break;
        if (i == nh) {
            snprintf(h[nh].name, sizeof h[nh].name, "%s", hn);
            h[nh].cores = cores;
            nh++;
        }
        h[i].ranks++;
    }
    char *hosts = NULL, *rpn = NULL, *cores = NULL;
    size_t l1 = 0, c1 = 0, l2 = 0, c2 = 0, l3 = 0, c3 = 0;
    int bad = 0;
    for (int i = 0; i < nh; i++) {
        bad |= appendf(&hosts, &l1, &c1, "%s%s", i ? "," : "", h[i].name);
        bad |= appendf(&rpn, &l2, &c2, "%s%d", i ? "," : "", h[i].ranks);
        bad |= appendf(&cores, &l3, &c3, "%s%d", i ? "," : "", h[i].cores);
        if (h[i].ranks > h[i].cores) {
            *over = 1;
            char msg[512];
            snprintf(msg, sizeof msg,
                     "%d ranks on '%s', which has %d cores: the timings measure the scheduler "
                     "too (oversubscribed)",
                     h[i].ranks, h[i].name, h[i].cores);
            if (R->hooks->warn)
                R->hooks->warn(msg);
        }
    }
    if (!bad)
        bad |= cf_table_meta_set(R->t, "hosts", hosts) | cf_table_meta_set(R->t, "ranks_per_node", rpn) |
               cf_table_meta_set(R->t, "cores", cores);
    free(hosts);
    free(rpn);
    free(cores);
    free(h);
    free(all);
    if (bad)
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory"), -1;
    return 0;
}

/* Rank 0: the first metadata keys, about the software. */
/* Rank 0: whether the table was simulated, and on what: a simulated figure is exact for
 * the platform file it came from, so the file's content is fingerprinted, not only named. */
static int simulation_metadata(run_state *R)
{
#ifdef CF_SMPI
    const cf_measure_opts *o = R->o;
    char buf[96], sha[65];
    int major = 0, minor = 0, patch = 0;
    sg_version_get(&major, &minor, &patch);
    snprintf(buf, sizeof buf, "%d.%d.%d", major, minor, patch);
    int bad = cf_table_meta_set(R->t, "simulated", "yes");
    bad |= cf_table_meta_set(R->t, "simgrid_version", buf);
    if (o->simulate != NULL) {
        const char *base = strrchr(o->simulate, '/');
        if (cf_sha256_file(o->simulate, sha, R->e) != 0)
            return R->e->code;
        bad |= cf_table_meta_set(R->t, "platform", base ? base + 1 : o->simulate);
        bad |= cf_table_meta_set(R->t, "platform_sha256", sha);
    }
    bad |= cf_table_meta_set(R->t, "hostfile",
                             o->hostfile ? o->hostfile : "one rank per core, in platform order");
    bad |= cf_table_meta_set(R->t, "coll_selector", o->selector ? o->selector : CF_SIM_SELECTOR);
    snprintf(buf, sizeof buf, "%.6g", sg_host_get_speed(sg_host_self()));
    bad |= cf_table_meta_set(R->t, "host_speed_flops", buf);
    bad |= cf_table_meta_set(R->t, "computation", "not simulated (smpi/simulate-computation:no)");
#else
    int bad = cf_table_meta_set(R->t, "simulated", "no");
#endif
    return bad ? cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory") : 0;
}

static int library_metadata(run_state *R)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], buf[32];
    int len = 0, ver = 0, sub = 0;
    if (MPI_Get_library_version(lib, &len) != MPI_SUCCESS)
        snprintf(lib, sizeof lib, "unknown");
    while (len > 0 && (lib[len - 1] == '\n' || lib[len - 1] == ' ' || lib[len - 1] == '\0'))
        lib[--len] = '\0';
    if (MPI_Get_version(&ver, &sub) != MPI_SUCCESS)
        ver = sub = 0;
    snprintf(buf, sizeof buf, "%d.%d", ver, sub);
    int bad = cf_table_meta_set(R->t, "commfit", PACKAGE_VERSION);
    bad |= cf_table_meta_set(R->t, "mpi_library", lib);
    bad |= cf_table_meta_set(R->t, "mpi_version", buf);
    if (bad)
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory");
    return simulation_metadata(R);
}

/* ---- the table file (rank 0) ----
 * Rows go out one at a time, each flushed whole, so that an interrupted run keeps every
 * finished row and --resume takes it up from there. A write error cuts the file back to
 * its last complete row: what is on disk stays a valid table. */

/* After a successful flush: the file up to here is complete. */
static int note_kept(run_state *R)
{
    struct stat st;
    if (fstat(fileno(R->fp), &st) != 0)
        return -1;
    R->kept = st.st_size;
    return 0;
}

/* A row could not be written (err): closes the file and drops whatever part of the row
 * reached it. Returns the status of a failed point (2). */
static int row_write_failed(run_state *R, int err)
{
    /* Closing may write more of the row; the truncation comes after it. */
    fclose(R->fp);
    R->fp = NULL;
    if (strcmp(R->path, "-") != 0 && truncate(R->path, R->kept) != 0 && R->hooks->warn != NULL) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s: cannot cut off a partly written row: %s (--resume drops it)",
                 R->path, strerror(errno));
        R->hooks->warn(msg);
    }
    cf_error_set(R->e, CF_EXIT_DATA, R->path, 0,
                 "cannot write: %s; %zu rows kept, continue with 'commfit measure --resume %s'",
                 strerror(err), R->rows, R->path);
    return 2;
}

static int write_row(run_state *R, const cf_row *row)
{
    errno = 0;
    if (cf_table_write_row(R->fp, R->t, row) != 0 || fflush(R->fp) != 0 || note_kept(R) != 0)
        return row_write_failed(R, errno ? errno : EIO);
    R->rows++;
    return 0;
}

/* Flushes, syncs and closes the table; an error here (a full disk, a network file system
 * that reports late) may have lost rows that were flushed, so the message says how to
 * measure them again. Returns 0 or -1 with R->e filled. */
static int close_output(run_state *R)
{
    int err = 0;
    if (fflush(R->fp) != 0)
        err = errno;
    /* /dev/null and pipes cannot be synced and need not be. */
    if (err == 0 && fsync(fileno(R->fp)) != 0 && errno != EINVAL && errno != ENOTSUP)
        err = errno;
    if (fclose(R->fp) != 0 && err == 0)
        err = errno;
    R->fp = NULL;
    if (err == 0)
        return 0;
    cf_error_set(R->e, CF_EXIT_DATA, R->path, 0,
                 "cannot write: %s; continue with 'commfit measure --resume %s', which measures "
                 "again what is missing",
                 strerror(err), R->path);
    return -1;
}

/* Opens the table for writing without truncating it, and takes the lock that keeps a
 * second measure off it; *created says the file is new. Returns the descriptor or -1. */
static int open_locked(run_state *R, int *created)
{
    int resume = R->o->resume != NULL;
    int fd = resume ? -1 : open(R->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    *created = fd >= 0;
    if (fd < 0 && (resume || errno == EEXIST))
        fd = open(R->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot %s: %s", resume ? "open" : "create",
                     strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int err = errno;
        close(fd);
        if (err == EWOULDBLOCK)
            cf_error_set(R->e, CF_EXIT_DATA, R->path, 0,
                         "another commfit measure is writing this table: wait for it to end, "
                         "or write elsewhere with -o");
        else
            cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot lock: %s", strerror(err));
        return -1;
    }
    return fd;
}

/* --resume: what the rows it adds were measured with, after the rows kept. A later
 * "oversubscribed: yes" makes the whole table say so. */
static int resume_metadata(run_state *R, int over)
{
    long k = 1;
    const cf_table *done = R->o->done;
    for (size_t i = 0; done != NULL && i < done->n_meta; i++)
        k += strncmp(done->meta[i].key, "resume_", 7) == 0;
    time_t now = time(NULL);
    struct tm tm;
    char date[32];
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fprintf(R->fp, "# resume_%ld: date %s, launch_np %d, oversubscribed %s, after %zu rows\n", k,
            date, R->size, over ? "yes" : "no", R->rows);
    if (over)
        fputs("# oversubscribed: yes\n", R->fp);
    return fflush(R->fp) != 0 || ferror(R->fp) ? -1 : 0;
}

/* Rank 0: the rest of the metadata, the output file, the header. */
static int open_output(run_state *R, const char *command, int over, const char *plan)
{
    cf_measure_opts *o = R->o;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char date[32], stamp[32], buf[64];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);

    if (o->resume != NULL) {
        R->path = strdup(o->resume);
    } else if (o->output != NULL) {
        R->path = strdup(o->output);
    } else {
        char host[256] = "localhost";
        gethostname(host, sizeof host - 1);
        host[sizeof host - 1] = '\0';
        host[strcspn(host, ".")] = '\0';
        size_t n = strlen(host) + strlen(stamp) + 16;
        R->path = malloc(n);
        if (R->path != NULL)
            snprintf(R->path, n, "data/%s-%s.csv", host, stamp);
    }
    if (R->path == NULL)
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory");

    int created, fd;
    if (o->resume != NULL) {
        /* Locked first; then drop a last line the interruption cut short, and append. */
        if ((fd = open_locked(R, &created)) < 0)
            return CF_EXIT_DATA;
        char *b;
        size_t keep;
        int rc = read_complete_lines(R->path, &b, &keep, R->e);
        if (rc != 0) {
            close(fd);
            return rc;
        }
        free(b);
        if (ftruncate(fd, (off_t)keep) != 0 || lseek(fd, 0, SEEK_END) < 0) {
            close(fd);
            return cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot truncate: %s",
                                strerror(errno));
        }
        R->fp = fdopen(fd, "a");
        if (R->fp == NULL) {
            close(fd);
            return cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot open: %s",
                                strerror(errno));
        }
        R->rows = o->done ? o->done->n_rows : 0;
        if (resume_metadata(R, over) != 0 || note_kept(R) != 0)
            return cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot write: %s",
                                strerror(errno ? errno : EIO));
        return 0;
    }

    int bad = cf_table_meta_set(R->t, "date", date);
    snprintf(buf, sizeof buf, "%.3g", R->wtick);
    bad |= cf_table_meta_set(R->t, "timer_resolution_s", buf);
#ifndef CF_SMPI
    /* A simulation does not time computation: this machine's speed would mean nothing. */
    snprintf(buf, sizeof buf, "%.4g", normalized_time_us());
    bad |= cf_table_meta_set(R->t, "normalized_time_us", buf);
#endif
    bad |= cf_table_meta_set(R->t, "oversubscribed", over ? "yes" : "no");
    snprintf(buf, sizeof buf, "%d", R->size);
    bad |= cf_table_meta_set(R->t, "launch_np", buf);
    bad |= cf_table_meta_set(R->t, "command", command);
    bad |= cf_table_meta_set(R->t, "plan", plan);
    if (bad)
        return cf_error_set(R->e, CF_EXIT_DATA, NULL, 0, "out of memory");

    int rc = strcmp(R->path, "-") == 0 ? 0 : cf_mkdir_parent(R->path, R->e);
    if (rc != 0)
        return rc;
    if (strcmp(R->path, "-") == 0) {
        /* The standard output: nothing to lock, truncate or delete. */
        fd = dup(STDOUT_FILENO);
        if (fd < 0 || (R->fp = fdopen(fd, "w")) == NULL) {
            if (fd >= 0)
                close(fd);
            return cf_error_set(R->e, CF_EXIT_DATA, "<stdout>", 0, "cannot write: %s",
                                strerror(errno));
        }
        if (cf_table_write_header(R->fp, R->t) != 0 || fflush(R->fp) != 0)
            return cf_error_set(R->e, CF_EXIT_DATA, "<stdout>", 0, "cannot write: %s",
                                strerror(errno ? errno : EIO));
        return 0;
    }
    /* Truncated only once locked: a second measure on the table must not empty it. */
    if ((fd = open_locked(R, &created)) < 0)
        return CF_EXIT_DATA;
    struct stat st;
    int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    if ((regular && ftruncate(fd, 0) != 0) || (R->fp = fdopen(fd, "w")) == NULL) {
        int err = errno;
        close(fd);
        return cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot write: %s", strerror(err));
    }
    errno = 0;
    if (cf_table_write_header(R->fp, R->t) != 0 || fflush(R->fp) != 0 || note_kept(R) != 0) {
        /* Nothing measured yet: no half header left behind in a file this run made. A
         * device, a FIFO or a file that was there stays. */
        int err = errno ? errno : EIO;
        fclose(R->fp);
        R->fp = NULL;
        if (created && regular)
            unlink(R->path);
        return cf_error_set(R->e, CF_EXIT_DATA, R->path, 0, "cannot write: %s", strerror(err));
    }
    return 0;
}

static void progress(run_state *R, const cf_point *pt, size_t done, size_t total, double t0)
{
    if (R->rank != 0 || R->hooks->progress == NULL || R->o->quiet || !R->o->progress)
        return;
    double el = MPI_Wtime() - t0;
    double left = done > 0 ? el / (double)done * (double)(total - done) : -1;
    R->hooks->progress(pt, done, total, el, left);
}

/* Runs the points of one process count on its sub-communicator. Returns 0 when all went
 * through, 1 when stopped by a signal, 2 when a point failed (rank 0 has e), -1 on an MPI
 * error on this rank. */
static int run_block(run_state *R, const cf_point *pts, size_t from, size_t to, size_t total,
                     double t0)
{
    int np = pts[from].np;
    MPI_Comm comm;
    RUN_CALL(MPI_Comm_split, (MPI_COMM_WORLD, R->rank < np ? 0 : MPI_UNDEFINED, R->rank, &comm),
             &pts[from]);
    if (comm == MPI_COMM_NULL)
        return 0;
    int status = 0;
    RUN_CALL(MPI_Comm_set_errhandler, (comm, MPI_ERRORS_RETURN), &pts[from]);
    for (size_t i = from; i < to && status == 0; i++) {
        int flag = stop_requested ? 1 : 0, any = 0;
        RUN_CALL(MPI_Allreduce, (&flag, &any, 1, MPI_INT, MPI_MAX, comm), &pts[i]);
        if (any) {
            status = 1;
            break;
        }
        progress(R, &pts[i], i, total, t0);
        cf_row row;
        const char *stop = "samples";
        int rc = measure_point(R, &pts[i], comm, &row, &stop);
        if (rc < 0) {
            MPI_Comm_free(&comm);
            return -1;
        }
        if (rc > 0) {
            status = 2;
            break;
        }
        if (R->rank == 0) {
            /* stop, then the derived-datatype columns when the table has them. */
            char extra[192], ddt[160] = ",,,";
            if (pts[i].ddt != NULL) {
                cf_row scratch;
                cf_ddt_row_init(pts[i].ddt, &scratch, ddt, sizeof ddt);
            }
            if (R->t->n_extra > 1)
                snprintf(extra, sizeof extra, "%s,%s", stop, ddt);
            else
                snprintf(extra, sizeof extra, "%s", stop);
            row.extra = extra;
            status = write_row(R, &row);
        }
        /* A write error on rank 0 stops every rank of the block. */
        int st = status;
        RUN_CALL(MPI_Bcast, (&st, 1, MPI_INT, 0, comm), &pts[i]);
        status = st;
    }
    RUN_CALL(MPI_Comm_free, (&comm), NULL);
    return status;
}

int cf_measure_run(cf_measure_opts *o, const char *command, const cf_measure_hooks *hooks,
                   cf_error *e)
{
    run_state R0 = {0}, *R = &R0;
    R->o = o;
    R->hooks = hooks;
    R->e = e;
    RUN_CALL(MPI_Comm_set_errhandler, (MPI_COMM_WORLD, MPI_ERRORS_RETURN), NULL);
    RUN_CALL(MPI_Comm_set_errhandler, (MPI_COMM_SELF, MPI_ERRORS_RETURN), NULL);
    RUN_CALL(MPI_Comm_rank, (MPI_COMM_WORLD, &R->rank), NULL);
    RUN_CALL(MPI_Comm_size, (MPI_COMM_WORLD, &R->size), NULL);
#ifdef CF_SMPI
    /* Simulated time is exact to the simulator's precision (smpirun sets surf/precision to
     * 1e-9); SMPI's MPI_Wtick says 1e-5, which would floor short calls. */
    R->wtick = 1e-9;
#else
    R->wtick = MPI_Wtick();
#endif
    R->cache_bytes = cache_size();
    cf_kernel_share_buffers(!o->check);
    R->cap_samples = o->target_ci > 0 ? CF_MEASURE_CI_MAX_SAMPLES
                                      : (size_t)(o->samples ? o->samples : CF_MEASURE_SAMPLES);
    R->tmin = malloc(R->cap_samples * sizeof(double));
    R->tavg = malloc(R->cap_samples * sizeof(double));
    R->tmax = malloc(R->cap_samples * sizeof(double));
    R->t = cf_table_alloc();
    cf_point *pts = NULL;
    size_t npts = 0;
    char *plan = NULL;
    int status = 0, rc = 0;
    const char *extra[1 + CF_DDT_NEXTRA] = {"stop"};
    for (size_t i = 0; i < CF_DDT_NEXTRA; i++)
        extra[1 + i] = cf_ddt_extra_columns[i];
    if (R->tmin == NULL || R->tavg == NULL || R->tmax == NULL || R->t == NULL ||
        cf_table_set_extra(R->t, extra, o->ddt ? 1 + CF_DDT_NEXTRA : 1) != 0 || cf_measure_plan(o, &pts, &npts) != 0 ||
        cf_measure_plan_text(o, &plan) != 0) {
        cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        status = 2;
    }

    /* Rank 0 sets up the output; everyone learns whether that worked. */
    int over = 0;
    if (status == 0 && R->rank == 0 && o->resume == NULL && library_metadata(R) != 0)
        status = 2;
    /* Every rank takes part; a resumed table records it after the rows it keeps. */
    if (host_metadata(R, &over) != 0) {
        rc = -1;
        goto out;
    }
    if (status == 0 && R->rank == 0) {
        int orc = open_output(R, command, over, plan);
        if (orc < 0) {
            rc = -1;
            goto out;
        }
        if (orc != 0)
            status = 2;
    }
    int brc = MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (brc != MPI_SUCCESS) {
        rc = mpi_failed(R, "MPI_Bcast", brc, NULL);
        goto out;
    }

    double t0 = MPI_Wtime();
    for (size_t from = 0; from < npts && status == 0;) {
        size_t to = from;
        while (to < npts && pts[to].np == pts[from].np)
            to++;
        int st = run_block(R, pts, from, to, npts, t0);
        if (st < 0) {
            rc = -1;
            goto out;
        }
        if (quiet_barrier(R) != 0) {
            rc = -1;
            goto out;
        }
        RUN_CALL(MPI_Bcast, (&st, 1, MPI_INT, 0, MPI_COMM_WORLD), NULL);
        status = st;
        from = to;
    }
    if (R->rank == 0 && hooks->progress_end && !o->quiet && o->progress)
        hooks->progress_end();

    if (R->rank == 0 && R->fp != NULL) {
        /* A point that failed keeps its message; otherwise a late write error is the news. */
        cf_error keep = *e;
        if (close_output(R) != 0 && status != 2)
            status = 2;
        else if (status == 2)
            *e = keep;
    }
    if (R->rank == 0 && status != 2) {
        char msg[1024];
        if (status == 1) {
            /* An error, not a note: said even under -q, and the status is 1. */
            if (strcmp(R->path, "-") == 0)
                cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                             "stopped by a signal: %zu rows written to standard output; saved "
                             "to a file, 'commfit measure --resume FILE' continues them",
                             R->rows);
            else
                cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                             "stopped by a signal: %zu rows in %s; continue with 'commfit "
                             "measure --resume %s'",
                             R->rows, R->path, R->path);
        } else if (status == 0 && strcmp(R->path, "-") == 0) {
            snprintf(msg, sizeof msg, "wrote the table to standard output (%zu row%s)", R->rows,
                     R->rows == 1 ? "" : "s");
            if (hooks->note)
                hooks->note(msg);
        } else if (status == 0) {
            snprintf(msg, sizeof msg, "wrote %s (%zu row%s)", R->path, R->rows,
                     R->rows == 1 ? "" : "s");
            if (hooks->note)
                hooks->note(msg);
            char quoted[900];
            if (hooks->note && cf_shell_quote(R->path, quoted, sizeof quoted) == 0) {
                snprintf(msg, sizeof msg, "draw the report with: commfit report -i %s", quoted);
                hooks->note(msg);
            }
            free(o->written);
            o->written = strdup(R->path);
        }
    }
    rc = status == 0 ? CF_EXIT_OK : CF_EXIT_DATA;
out:
    if (R->fp != NULL)
        fclose(R->fp);
    free(R->path);
    free(R->tmin);
    free(R->tavg);
    free(R->tmax);
    cf_table_free(R->t);
    free(pts);
    free(plan);
    return rc;
}
