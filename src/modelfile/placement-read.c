/* Where the ranks of the fitted table ran, read at the edge: the node list and the launch
 * probes of the model file's source metadata into a cf_placement (what a process count
 * spans, and the answers that read it, are placement.c's). */
#include "config.h"

#include "modelfile/placement.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "base/table.h"
#include "modelfile/json-skim.h"

/* The comma-separated integers of s, each 1 to CF_TABLE_NP_MAX and all of them together at
 * most that (ranks a launch ran, and what its nodes held: ranks_per_node 2^61 + 1 made a
 * node list whose size wrapped around), into a new array; their count in *n. NULL where s
 * is not such a list (or out of memory). */
static long *read_list(const char *s, size_t *n)
{
    size_t cap = 1;
    for (const char *q = s; *q; q++)
        cap += *q == ',';
    long *v = malloc(cap * sizeof *v);
    if (v == NULL)
        return NULL;
    *n = 0;
    long sum = 0;
    for (const char *q = s; *q;) {
        char *end;
        errno = 0;
        long x = *q >= '0' && *q <= '9' ? strtol(q, &end, 10) : (end = (char *)q, 0);
        if (end == q || errno != 0 || x <= 0 || x > CF_TABLE_NP_MAX - sum ||
            (*end != ',' && *end != '\0')) {
            free(v);
            *n = 0;
            return NULL;
        }
        sum += x;
        v[(*n)++] = x;
        q = *end == ',' ? end + 1 : end;
    }
    return v;
}

static void probe_warn(cf_placement *out, const char *key, const char *val, const char *why);

static const char *meta_str(const json_t *meta, const char *key)
{
    const json_t *v = json_object_get(meta, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* rank_hosts ("0*4,1*4", "0,1,0,1": each rank's node, runs of one node as H*N) into
 * out->first, each node's first rank, when it names the nodes of out and each the ranks
 * ranks_per_node says it held; else nothing (ranks are then taken to fill the nodes in order). 0,
 * or -1 when out of memory. */
static int read_rank_hosts(const char *s, cf_placement *out)
{
    size_t total = 0, n = 0;
    for (size_t i = 0; i < out->nnodes; i++)
        total += (size_t)out->ranks[i];
    long *first = malloc(2 * out->nnodes * sizeof *first), *held = first + out->nnodes;
    long *share = malloc((total ? total : 1) * sizeof *share), most = 0;
    if (first == NULL || share == NULL) {
        free(first);
        free(share);
        return -1;
    }
    for (size_t i = 0; i < out->nnodes; i++) {
        first[i] = -1;
        held[i] = 0;
    }
    for (const char *q = s; *q;) {
        char *end;
        long h = strtol(q, &end, 10), k = 1;
        if (end == q || h < 0 || (size_t)h >= out->nnodes)
            break;
        if (*end == '*') {
            q = end + 1;
            k = strtol(q, &end, 10);
            if (end == q || k <= 0)
                break;
        }
        if (k > (long)(total - n) || (*end != ',' && *end != '\0'))
            break;
        if (first[h] < 0)
            first[h] = (long)n;
        for (long j = 0; j < k; j++) { /* the most of ranks 0 to n + j one node holds */
            held[h]++;
            most = held[h] > most ? held[h] : most;
            share[n + (size_t)j] = most;
        }
        n += (size_t)k;
        q = *end == ',' ? end + 1 : end;
        if (*end == '\0' && n == total) {
            /* Each node holds the ranks ranks_per_node says it held. */
            size_t i = 0;
            while (i < out->nnodes && held[i] == out->ranks[i])
                i++;
            if (i < out->nnodes)
                break;
            out->first = first;
            out->share = share;
            out->nranks = n;
            return 0;
        }
    }
    free(first);
    free(share);
    probe_warn(out, "rank_hosts", s,
               "does not name each rank's node as ranks_per_node counts them: the ranks "
               "are taken to fill the nodes in order");
    return 0;
}

static int from_meta(const json_t *meta, cf_placement *out)
{
    const char *rpn = meta_str(meta, "ranks_per_node"), *cores = meta_str(meta, "cores");
    const char *hosts = meta_str(meta, "hosts");
    size_t n = 0, nc = 0;
    if (rpn == NULL)
        return 0;
    if ((out->ranks = read_list(rpn, &n)) == NULL || n == 0) {
        /* Said: a placement that does not read changes every answer past the fitted np
         * (nodes no longer counted) without a word otherwise. Nothing else is kept: out
         * stays unknown, as if the key were absent. */
        free(out->ranks);
        out->ranks = NULL;
        probe_warn(out, "ranks_per_node", rpn,
                   "expected whole numbers from 1 to " CF_TABLE_NP_MAX_TEXT ", the ranks of each "
                   "node, together at most " CF_TABLE_NP_MAX_TEXT ": where the ranks ran is "
                   "unknown");
        return 0;
    }
    long *c = cores != NULL ? read_list(cores, &nc) : NULL;
    if (cores != NULL && (c == NULL || nc != n))
        probe_warn(out, "cores", cores,
                   "expected a whole number from 1 to " CF_TABLE_NP_MAX_TEXT " for each node "
                   "ranks_per_node lists: a node is taken to hold as many ranks as the "
                   "fullest did");
    out->cores = malloc(n * sizeof *out->cores);
    if (out->cores == NULL) {
        free(c);
        return -1;
    }
    /* Without cores (an imported table: import --ranks-per-node), a node holds as many
     * ranks as the fullest did: the last node of the launch may hold fewer (200 ranks at
     * 96 a node: 96,96,8), and the nodes past the launch are taken to be like it. */
    long most = 0;
    for (size_t i = 0; i < n; i++)
        most = out->ranks[i] > most ? out->ranks[i] : most;
    for (size_t i = 0; i < n; i++)
        out->cores[i] = c != NULL && nc == n ? c[i] : most;
    free(c);
    out->nnodes = n;
    out->known = 1;
    const char *order = meta_str(meta, "rank_hosts");
    if (order != NULL && read_rank_hosts(order, out) != 0)
        return -1;
    if (hosts != NULL)
        snprintf(out->host0, sizeof out->host0, "%.*s", (int)strcspn(hosts, ","), hosts);
    return 0;
}

/* A list of finite numbers >= 0 ("0.41,2.02"; 0: a round trip below the timer's resolution)
 * into a new array, its length in *n; NULL when s is not one (or out of memory: *n is then
 * SIZE_MAX). */
static double *read_numbers(const char *s, size_t *n)
{
    size_t cap = 1;
    for (const char *q = s; *q; q++)
        cap += *q == ',';
    double *v = malloc(cap * sizeof *v);
    *n = v == NULL ? SIZE_MAX : 0;
    for (const char *q = s; v != NULL && *q;) {
        char *end;
        double x = strtod(q, &end);
        if (end == q || !(x >= 0) || !isfinite(x) || (*end != ',' && *end != '\0'))
            break;
        v[(*n)++] = x;
        q = *end == ',' ? end + 1 : end;
        if (*end == '\0')
            return v;
    }
    free(v);
    if (*n != SIZE_MAX)
        *n = 0;
    return NULL;
}

/* Keeps, among out->warn, why the probe's metadata key (its value val) of the table being
 * read was not used. */
static void probe_warn(cf_placement *out, const char *key, const char *val, const char *why)
{
    cf_placement_warnings *ws = &out->warn;
    cf_placement_warning *w = cf_grow(ws->w, &ws->cap, ws->n, sizeof *w, 4);
    if (w == NULL) {
        ws->lost = 1;
        return;
    }
    ws->w = w;
    w += ws->n++;
    w->table = out->reading;
    snprintf(w->key, sizeof w->key, "%s", key);
    snprintf(w->text, sizeof w->text, "metadata %s '%.40s%s': %s", key, val,
             strlen(val) > 40 ? "..." : "", why);
}

void cf_placement_warnings_free(cf_placement_warnings *w)
{
    free(w->w);
    memset(w, 0, sizeof *w);
}

void cf_placement_warn(const cf_placement_warnings *w, const char *cmd,
                       void (*where)(void *ctx, const cf_placement_warning *pw,
                                     const char **file, long *line),
                       void *ctx)
{
    for (size_t i = 0; i < w->n; i++) {
        const char *file = "";
        long line = 0;
        where(ctx, &w->w[i], &file, &line);
        if (line > 0)
            cf_warn("%s:%ld: %s; %s ignores it", file, line, w->w[i].text, cmd);
        else
            cf_warn("%s: %s; %s ignores it", file, w->w[i].text, cmd);
    }
    if (w->lost)
        cf_warn("out of memory: more metadata that does not read is not said; %s ignores it",
                cmd);
}

void cf_placement_where_model(void *ctx, const cf_placement_warning *pw, const char **file,
                              long *line)
{
    const cf_placement_model_at *m = ctx;
    const char *text = m->ms->text != NULL ? m->ms->text : m->ms->whole;
    char path[128];
    snprintf(path, sizeof path, "source.tables[%zu].metadata.%s", pw->table, pw->key);
    *file = m->path;
    *line = text != NULL ? cf_skim_line_of(text, strlen(text), path) : 0;
}

/* The rows of a probe's value "B:x,x,...;B:x,...;...", B a whole number from 1 (no leading
 * 0), its numbers as read_numbers reads them: each row in turn to row(ctx, k, B, v, n), row k,
 * which keeps what it needs and says whether the row reads (1) or not (0). *nrows: the rows
 * read; *ok 0 where one did not read or was no B:list (an empty value too), the rest then
 * unread. 0, or -1 when out of memory. */
static int read_rows(const char *s, int (*row)(void *, size_t, unsigned long, const double *,
                                               size_t),
                     void *ctx, size_t *nrows, int *ok)
{
    size_t len = strlen(s);
    char *copy = malloc(len + 1);
    if (copy == NULL)
        return -1;
    memcpy(copy, s, len + 1);
    *nrows = 0;
    *ok = 1;
    for (char *q = copy, *next; *ok && q != NULL; q = next) {
        next = strchr(q, ';');
        if (next != NULL)
            *next++ = '\0';
        char *end = q;
        unsigned long b = *q >= '1' && *q <= '9' ? strtoul(q, &end, 10) : 0;
        size_t n = 0;
        double *v = *end == ':' ? read_numbers(end + 1, &n) : NULL;
        if (v == NULL && n == SIZE_MAX) {
            free(copy);
            return -1;
        }
        *ok = v != NULL && row(ctx, *nrows, b, v, n);
        *nrows += (size_t)*ok;
        free(v);
    }
    free(copy);
    return 0;
}

/* read_sized's rows: sizes increasing above 8, nlat numbers each, into all. */
typedef struct sized_rows {
    cf_placement *out;
    double *all;
} sized_rows;

static int sized_row(void *ctx, size_t k, unsigned long b, const double *v, size_t n)
{
    sized_rows *r = ctx;
    cf_placement *out = r->out;
    if (b <= 8 || n != out->nlat || k == CF_TIERS_SIZED_MAX ||
        (k > 0 && (double)b <= out->sized_bytes[k - 1]))
        return 0;
    out->sized_bytes[k] = (double)b;
    memcpy(r->all + k * out->nlat, v, n * sizeof *v);
    return 1;
}

/* The sized latency probe of meta into out (its 8-byte probe read already, nlat ranks):
 * "B:us,...;B:us,...", sizes increasing whole numbers above 8, each with nlat numbers
 * >= 0. One that does not read is left out with out->warn saying why; the 8-byte
 * probe stays. 0, or -1 when out of memory. */
static int read_sized(const json_t *meta, cf_placement *out)
{
    const char *s = meta_str(meta, "rank_latency_sized_us");
    if (s == NULL)
        return 0;
    sized_rows r = {out, malloc((CF_TIERS_SIZED_MAX * out->nlat + 1) * sizeof *r.all)};
    size_t k;
    int ok;
    if (r.all == NULL || read_rows(s, sized_row, &r, &k, &ok) != 0) {
        free(r.all);
        return -1;
    }
    if (!ok) { /* an empty value too: its one size reads as none */
        probe_warn(out, "rank_latency_sized_us", s,
                   "expected B:us for increasing sizes B above 8, one number >= 0 a rank, "
                   "the sizes apart by ';'");
        free(r.all);
        return 0;
    }
    out->sized_us = r.all;
    out->nsized = k;
    return 0;
}

/* The latency probe of meta into out: its latencies, the margin its spread allows and the
 * timer's resolution. A value that does not read (not numbers >= 0, a count other than
 * launch_np - 1, a spread that is no number >= 0) is left out with out->warn saying
 * why: predict and report then answer as without the probe. 0, or -1 when out of
 * memory. */
static int read_probe(const json_t *meta, cf_placement *out)
{
    const char *lat = meta_str(meta, "rank_latency_us");
    const char *spread = meta_str(meta, "rank_latency_spread");
    const char *launch = meta_str(meta, "launch_np"), *tick = meta_str(meta, "timer_resolution_s");
    size_t n;
    double *v = read_numbers(lat, &n), sp = 0, res = 0;
    if (v == NULL && n == SIZE_MAX)
        return -1;
    char *end = NULL;
    const char *why = NULL;
    long launched = launch != NULL ? strtol(launch, &end, 10) : 0;
    if (v == NULL)
        why = "expected one number >= 0 a rank";
    else if (launch != NULL && (end == launch || *end != '\0' || launched < 2))
        why = "the launch_np beside it is not a process count of 2 or more";
    else if (launch != NULL && launched - 1 != (long)n)
        why = "expected launch_np - 1 numbers (ranks 1 to launch_np - 1)";
    else if (spread != NULL && (sp = strtod(spread, &end),
                                end == spread || *end != '\0' || !(sp >= 0) || !isfinite(sp)))
        why = "its rank_latency_spread is no number >= 0";
    if (why != NULL) {
        probe_warn(out, "rank_latency_us", lat, why);
        free(v);
        return 0;
    }
    if (tick != NULL && (res = strtod(tick, &end), end == tick || !(res >= 0) || !isfinite(res)))
        res = 0;
    out->lat_us = v;
    out->nlat = n;
    out->lat_margin = CF_TIER_MARGIN + sp;
    out->lat_res_us = res * 1e6;
    const char *timing = meta_str(meta, "coll_timing");
    out->timed_loop = timing != NULL && strcmp(timing, CF_META_TIMING_LOOP) == 0;
    const char *sim = meta_str(meta, "simulated"), *root = meta_str(meta, "coll_root");
    out->simulated = sim != NULL && strcmp(sim, "yes") == 0;
    out->root_shift = root != NULL && strcmp(root, CF_META_ROOT_SHIFT) == 0;
    return read_sized(meta, out);
}

/* read_pair_distances' rows: level k is B = 2^(k+1), k + 1 times > 0, into all (npair a row). */
typedef struct dist_rows {
    size_t npair;
    double *all;
} dist_rows;

static int dist_row(void *ctx, size_t k, unsigned long b, const double *v, size_t n)
{
    dist_rows *r = ctx;
    if (k >= r->npair || b != 2UL << k || n != k + 1)
        return 0;
    for (size_t j = 0; j < n; j++)
        if (!(v[j] > 0))
            return 0;
    memcpy(r->all + k * r->npair, v, n * sizeof *v);
    return 1;
}

/* The pair-exchange probe's distances of meta into out (its levels read already, npair of
 * them): "2:T;4:T,T;8:T,T,T;...", for each level B the times at d = 1, 2, ..., B/2, numbers
 * > 0, as many levels as pair_exchange_us. One that does not read is left out with
 * out->warn saying why; the levels stay. 0, or -1 when out of memory. */
static int read_pair_distances(const json_t *meta, cf_placement *out)
{
    const char *s = meta_str(meta, "pair_exchange_distance_us");
    if (s == NULL)
        return 0;
    dist_rows r = {out->npair, calloc(out->npair * out->npair + 1, sizeof *r.all)};
    size_t k;
    int ok;
    if (r.all == NULL || read_rows(s, dist_row, &r, &k, &ok) != 0) {
        free(r.all);
        return -1;
    }
    const char *why = !ok ? "expected B:us,... for each level of pair_exchange_us, the times at "
                            "d = 1, 2, ..., B/2, numbers > 0, the levels apart by ';'"
                      : k != out->npair ? "expected as many levels as pair_exchange_us"
                                        : NULL;
    if (why != NULL) {
        probe_warn(out, "pair_exchange_distance_us", s, why);
        free(r.all);
        return 0;
    }
    out->pair_dist_us = r.all;
    return 0;
}

/* The pair-exchange probe of meta into out: "2:T,4:T,...", each level the next power of two
 * from 2, each time a number > 0, and pair_exchange_bytes a number > 0, and its distances
 * (read_pair_distances). One that does not read is left out with out->warn saying
 * why (after what it already says). 0, or -1 when out of memory. */
static int read_pairs(const json_t *meta, cf_placement *out)
{
    const char *s = meta_str(meta, "pair_exchange_us"), *b = meta_str(meta, "pair_exchange_bytes");
    const char *why = NULL, *q = s;
    char *end = NULL;
    double bytes = b != NULL ? strtod(b, &end) : NAN;
    /* From 64 KiB up: the probe is read as a cost per byte, which a probe of small
     * messages, whose time is latency, overstates by orders (a hand-edited 1 said an
     * alltoall of 1 KiB would take 5 s). */
    if (b == NULL || end == b || *end != '\0' || !(bytes > 0) || !isfinite(bytes))
        why = "its pair_exchange_bytes is no number > 0";
    else if (bytes < CF_PAIR_BYTES_MIN)
        why = "its pair_exchange_bytes is below " CF_PAIR_BYTES_MIN_TEXT ": a probe of small "
              "messages times latency, not the traffic's cost per byte (commfit measure "
              "exchanges 1048576)";
    size_t n = 0;
    for (unsigned long level = 2; why == NULL && *q != '\0'; level *= 2) {
        /* each number starts with a digit (strtoul and strtod would pass over spaces and
         * signs), a level with no leading 0, and a comma is followed by a level */
        end = (char *)q;
        unsigned long got = *q >= '1' && *q <= '9' ? strtoul(q, &end, 10) : 0;
        double t = got > 0 && *end == ':' && end[1] >= '0' && end[1] <= '9'
                       ? strtod(end + 1, &end)
                       : NAN;
        if (got != level || n == CF_PAIR_LEVELS_MAX || !(t > 0) || !isfinite(t) ||
            (*end != ',' && *end != '\0') || (*end == ',' && end[1] == '\0')) {
            why = "expected B:us for each power of two B from 2, times > 0";
            break;
        }
        out->pair_us[n++] = t;
        q = *end == ',' ? end + 1 : end;
    }
    if (why == NULL && n == 0)
        why = "expected B:us for each power of two B from 2, times > 0";
    if (why != NULL) {
        probe_warn(out, "pair_exchange_us", s, why);
        out->npair = 0;
        return 0;
    }
    out->npair = n;
    out->pair_bytes = bytes;
    return read_pair_distances(meta, out);
}

/* read_fans' rows: level k is B = 2^(k+1), one time > 0 at each of the probe's sizes. */
typedef struct fan_rows {
    cf_placement *out;
    int dir;
} fan_rows;

static int fan_row(void *ctx, size_t k, unsigned long b, const double *v, size_t n)
{
    fan_rows *r = ctx;
    if (k >= CF_PAIR_LEVELS_MAX || b != 2UL << k || n != r->out->nfan_bytes)
        return 0;
    for (size_t j = 0; j < n; j++)
        if (!(v[j] > 0) || !isfinite(v[j]))
            return 0;
    memcpy(r->out->fan_us[r->dir][k], v, n * sizeof *v);
    return 1;
}

/* The fan probe of meta into out: fan_bytes, sizes increasing whole numbers > 0 (at most
 * CF_FAN_SIZES_MAX), and fan_out_us and fan_in_us, "2:us,...;4:us,...;...", a level for
 * each power of two from 2, a time > 0 at each size. One that does not read is left out
 * with out->warn saying why. 0, or -1 when out of memory. */
static int read_fans(const json_t *meta, cf_placement *out)
{
    static const char *const key[2] = {"fan_out_us", "fan_in_us"};
    const char *b = meta_str(meta, "fan_bytes"), *over = meta_str(meta, "oversubscribed");
    /* Ranks that share a core time each other's turns, not the network's (a launch of 4
     * ranks on this project's 2 cores read 3989 us for 8 B at level 2, where np=2's row of
     * the same table took 1.18): the probe says nothing then. */
    if (over != NULL && strcmp(over, "yes") == 0) {
        probe_warn(out, "fan_out_us", meta_str(meta, "fan_out_us") ? meta_str(meta, "fan_out_us") : "",
                   "its launch ran more ranks than cores (oversubscribed: yes), whose turns on "
                   "a core it times");
        return 0;
    }
    if (b == NULL) {
        const char *k = meta_str(meta, "fan_out_us") ? "fan_out_us" : "fan_in_us";
        probe_warn(out, k, meta_str(meta, k), "no fan_bytes beside it says its sizes");
        return 0;
    }
    size_t n = 0;
    double *v = read_numbers(b, &n);
    if (v == NULL && n == SIZE_MAX)
        return -1;
    /* Two sizes at least: one says nothing of how the ratio goes with the size (8 B read
     * at 1 MiB's ratio, 13.6 us for the simulated 1.93). */
    int ok = v != NULL && n >= 2 && n <= CF_FAN_SIZES_MAX;
    for (size_t j = 0; ok && j < n; j++)
        ok = v[j] >= 1 && v[j] == floor(v[j]) && v[j] < 1e15 && (j == 0 || v[j] > v[j - 1]);
    if (!ok) {
        probe_warn(out, "fan_bytes", b, "expected its sizes, 2 to 16 whole numbers > 0 increasing");
        free(v);
        return 0;
    }
    memcpy(out->fan_bytes, v, n * sizeof *v);
    out->nfan_bytes = n;
    free(v);
    for (int dir = 0; dir < 2; dir++) {
        const char *s = meta_str(meta, key[dir]);
        if (s == NULL)
            continue;
        fan_rows r = {out, dir};
        size_t k;
        if (read_rows(s, fan_row, &r, &k, &ok) != 0)
            return -1;
        if (!ok || k == 0) {
            probe_warn(out, key[dir], s,
                       "expected B:us,... for each power of two B from 2, a time > 0 at each "
                       "of fan_bytes' sizes, the levels apart by ';'");
            continue;
        }
        out->nfan[dir] = k;
    }
    const char *timing = meta_str(meta, "coll_timing"), *root = meta_str(meta, "coll_root");
    out->fan_timed_call = timing == NULL || strcmp(timing, CF_META_TIMING_LOOP) != 0;
    out->fan_root_shift = root != NULL && strcmp(root, CF_META_ROOT_SHIFT) == 0;
    return 0;
}

/* The first table whose metadata names ranks_per_node gives the nodes, the first that
 * records rank_latency_us the probe, the first that records pair_exchange_us the
 * pair-exchange probe (a table measured by commfit has all three). */
/* The running maxima of the probes' latencies (lat_far, sized_far) and minima (lat_near).
 * 0, or -1 out of memory. */
static int farthest_fill(cf_placement *p)
{
    if (p->lat_us == NULL || p->nlat == 0)
        return 0;
    if ((p->lat_far = malloc(p->nlat * sizeof *p->lat_far)) == NULL ||
        (p->lat_near = malloc(p->nlat * sizeof *p->lat_near)) == NULL)
        return -1;
    for (size_t i = 0; i < p->nlat; i++) {
        p->lat_far[i] = i ? fmax(p->lat_far[i - 1], p->lat_us[i]) : fmax(0.0, p->lat_us[0]);
        p->lat_near[i] = i ? fmin(p->lat_near[i - 1], p->lat_us[i]) : p->lat_us[0];
    }
    if (p->sized_us == NULL || p->nsized == 0)
        return 0;
    if ((p->sized_far = malloc(p->nsized * p->nlat * sizeof *p->sized_far)) == NULL)
        return -1;
    for (size_t k = 0; k < p->nsized; k++) {
        const double *u = p->sized_us + k * p->nlat;
        double *f = p->sized_far + k * p->nlat;
        for (size_t i = 0; i < p->nlat; i++)
            f[i] = i ? fmax(f[i - 1], u[i]) : fmax(0.0, u[0]);
    }
    return 0;
}

int cf_placement_of_table(const json_t *meta, cf_placement *out)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(meta) || meta_str(meta, "ranks_per_node") == NULL)
        return 0;
    return from_meta(meta, out);
}

int cf_placement_read(const cf_modelset *ms, cf_placement *out)
{
    memset(out, 0, sizeof *out);
    const json_t *tables = ms->source ? json_object_get(ms->source, "tables") : NULL;
    size_t i;
    const json_t *t;
    json_array_foreach(tables, i, t)
    {
        const json_t *meta = json_object_get(t, "metadata");
        out->reading = i;
        if (!out->known && json_is_object(meta) && meta_str(meta, "ranks_per_node") != NULL) {
            /* Not read: as if never tried (from_meta keeps nothing but the warning). */
            if (from_meta(meta, out) != 0)
                return -1;
        }
    }
    json_array_foreach(tables, i, t)
    {
        const json_t *meta = json_object_get(t, "metadata");
        out->reading = i;
        if (json_is_object(meta) && meta_str(meta, "pair_exchange_us") != NULL) {
            if (read_pairs(meta, out) != 0)
                return -1;
            break;
        }
    }
    json_array_foreach(tables, i, t)
    {
        const json_t *meta = json_object_get(t, "metadata");
        out->reading = i;
        if (json_is_object(meta) && (meta_str(meta, "fan_bytes") != NULL ||
                                     meta_str(meta, "fan_out_us") != NULL ||
                                     meta_str(meta, "fan_in_us") != NULL)) {
            if (read_fans(meta, out) != 0)
                return -1;
            break;
        }
    }
    json_array_foreach(tables, i, t)
    {
        const json_t *meta = json_object_get(t, "metadata");
        out->reading = i;
        if (json_is_object(meta) && meta_str(meta, "rank_latency_us") != NULL)
            return read_probe(meta, out) != 0 || farthest_fill(out) != 0 ? -1 : 0;
    }
    return 0;
}

int cf_placement_pair_nodes(const cf_modelset *ms, cf_pair_place *out)
{
    memset(out, 0, sizeof *out);
    const json_t *tables = ms->source ? json_object_get(ms->source, "tables") : NULL;
    size_t i;
    const json_t *t;
    json_array_foreach(tables, i, t)
    {
        out->ntables++;
        const json_t *meta = json_object_get(t, "metadata");
        if (!json_is_object(meta) || meta_str(meta, "ranks_per_node") == NULL)
            continue;
        cf_placement p;
        memset(&p, 0, sizeof p);
        if (from_meta(meta, &p) != 0) {
            cf_placement_free(&p);
            return -1;
        }
        long nodes = cf_placement_nodes(&p, 2);
        if (nodes == 1 && out->inside++ == 0) {
            const char *file = json_string_value(json_object_get(t, "file"));
            snprintf(out->file, sizeof out->file, "%s", file ? file : "?");
            snprintf(out->host, sizeof out->host, "%s", p.host0);
            out->ranks = p.ranks[0];
        } else if (nodes > 1) {
            out->across++;
        }
        cf_placement_free(&p);
    }
    return 0;
}

void cf_placement_free(cf_placement *p)
{
    free(p->ranks);
    free(p->cores);
    free(p->first);
    free(p->share);
    free(p->lat_us);
    free(p->sized_us);
    free(p->lat_far);
    free(p->lat_near);
    free(p->sized_far);
    free(p->pair_dist_us);
    cf_placement_warnings_free(&p->warn);
    memset(p, 0, sizeof *p);
}
