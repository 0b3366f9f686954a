/* The barrier replay (fit/barrier-replay.c) and what its spread exits add to an answer
 * (cf_placement_spread_extra). The replayed exits are checked against SMPI 3.32's own: on
 * data/platforms/racks.xml (4-core nodes, 8 nodes a rack: 0.4094 us within a node, 2.022
 * us within a rack, 10.08 us between racks, one-way as commfit's probe reads them), a
 * program that timed MPI_Barrier's exits (MPI_Wtime is global in SMPI) under
 * --cfg=smpi/barrier:ALG gave the mean wait for the last exit listed below. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit/barrier-replay.h"
#include "modelfile/placement.h"
#include "tap.h"

static double racks_lat(const void *ctx, long i, long j)
{
    (void)ctx;
    if (i / 4 == j / 4)
        return 0.4094;
    return i / 32 == j / 32 ? 2.022 : 10.08;
}

/* The mean over the np ranks of the last exit minus each one's. */
static double mean_wait(const char *alg, long np, cf_protocol proto)
{
    double e[128];
    if (np > 128 || cf_barrier_exits(alg, np, racks_lat, NULL, proto, e) != 0)
        return NAN;
    double last = e[0], sum = 0;
    for (long r = 0; r < np; r++) {
        last = fmax(last, e[r]);
        sum += e[r];
    }
    return last - sum / (double)np;
}

static void smpi_tests(void)
{
    /* SMPI's figures (smpi/barrier: ompi_bruck, ompi_recursivedoubling, ompi_basic_linear,
     * ompi_tree), to their 0.01 us. */
    static const struct {
        const char *alg;
        long np;
        double smpi;
    } t[] = {
        {"dissemination", 3, 0.00},
        {"dissemination", 6, 1.34},
        {"dissemination", 12, 1.61},
        {"dissemination", 32, 1.61},
        {"dissemination", 64, 21.76},
        {"dissemination", 100, 14.09},
        {"recursive doubling", 3, 0.27},
        {"recursive doubling", 6, 1.35},
        {"recursive doubling", 12, 1.35},
        {"recursive doubling", 48, 6.72},
        {"recursive doubling", 64, 0.00},
        {"recursive doubling", 100, 6.46},
        {"linear", 3, 0.13},
        {"linear", 6, 1.14},
        {"linear", 12, 0.57},
        {"linear", 64, 4.14},
        {"linear", 100, 2.67},
        {"tree", 3, 0.13},
        {"tree", 6, 1.41},
        {"tree", 12, 1.08},
        {"tree", 64, 8.47},
        {"tree", 100, 10.39},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        double w = mean_wait(t[i].alg, t[i].np, CF_PROTO_RENDEZVOUS);
        /* 0.1 us: SMPI's rounding of each latency, and its dissemination of 100 ranks. */
        ok(fabs(w - t[i].smpi) <= 0.1, "%s of %ld ranks: mean wait %.3f us, SMPI's %.2f", t[i].alg,
           t[i].np, w, t[i].smpi);
    }
    /* Eagerly sent, a message does not wait for its receive: the rack's ranks leave the
     * dissemination barrier within a rack's latency or two of each other. */
    double w = mean_wait("dissemination", 64, CF_PROTO_EAGER);
    ok(w > 0.1 && w < 2.022, "eager: dissemination of 64 spreads far less (%g us)", w);
    double e[8];
    ok(cf_barrier_exits("no such", 8, racks_lat, NULL, CF_PROTO_EAGER, e) == -1,
       "an unknown algorithm is refused");
    ok(cf_barrier_exits("dissemination", 1, racks_lat, NULL, CF_PROTO_EAGER, e) == 0 && e[0] == 0,
       "one rank leaves at once");
}

static void decision_tests(void)
{
    is_str(cf_barrier_alg("mpich", 64), "dissemination", "MPICH: dissemination");
    is_str(cf_barrier_alg(NULL, 6), "dissemination", "no rules: MPICH's");
    is_str(cf_barrier_alg("smpi-ompi", 2), "two-process exchange", "Open MPI at 2");
    is_str(cf_barrier_alg("openmpi", 3), "recursive doubling", "Open MPI at 3");
    is_str(cf_barrier_alg("openmpi", 6), "linear", "Open MPI at 6");
    is_str(cf_barrier_alg("openmpi-loop", 48), "recursive doubling", "Open MPI at 48");
    is_str(cf_barrier_alg("smpi-ompi", 64), "dissemination", "Open MPI at 64: bruck");
    is_str(cf_barrier_alg("smpi-ompi", 300), "tree", "Open MPI at 300: tree");
    is_str(cf_barrier_alg("smpi-ompi", 600), "dissemination", "Open MPI at 600: bruck");
    is_str(cf_barrier_alg("openmpi", 2000), "tree", "Open MPI at 2000: tree");
    /* before 4.1: recursive doubling on a power of two, else Bruck's */
    is_str(cf_barrier_alg("openmpi-4.0", 2), "two-process exchange", "Open MPI 4.0 at 2");
    is_str(cf_barrier_alg("openmpi-4.0", 6), "dissemination", "Open MPI 4.0 at 6: bruck");
    is_str(cf_barrier_alg("openmpi-4.0-loop", 64), "recursive doubling", "Open MPI 4.0 at 64");
}

/* A placement of the racks platform's probe over 128 ranks. */
static void racks_probe(cf_placement *p, double *lat, int simulated)
{
    memset(p, 0, sizeof *p);
    for (long r = 1; r < 128; r++)
        lat[r - 1] = racks_lat(NULL, 0, r);
    p->lat_us = lat;
    p->nlat = 127;
    p->lat_margin = CF_TIER_MARGIN;
    p->simulated = simulated;
}

static void spread_tests(void)
{
    cf_placement p;
    double lat[127];
    const char *alg;
    racks_probe(&p, lat, 1);
    /* Fitted to one rack (2.022 us at most), np 64 spans two: the exits spread from 1.61 to
     * 21.76 us on average (the SMPI figures above). */
    double x = cf_placement_spread_extra(&p, "smpi-mpich", "allreduce", 64, 2.022, &alg);
    near(x, 21.76 - 1.61, 0.01, "allreduce at 64 from one rack: %g us", x);
    is_str(alg, "dissemination", "MPICH's barrier");
    /* Rank 0 leaves last, so each rank waits for the root as for the last exit. */
    double b = cf_placement_spread_extra(&p, "smpi-mpich", "bcast", 64, 2.022, NULL);
    near(b, x, 1e-9, "bcast: the same (%g)", b);
    double r = cf_placement_spread_extra(&p, "smpi-mpich", "reduce", 64, 2.022, NULL);
    ok(r == 0, "reduce: the root, the last to leave, waits for none (%g)", r);
    p.root_shift = 1;
    r = cf_placement_spread_extra(&p, "smpi-mpich", "reduce", 64, 2.022, NULL);
    near(r, x / 64, 1e-9, "reduce, root round-robin: 1/np of the mean wait (%g)", r);
    b = cf_placement_spread_extra(&p, "smpi-mpich", "bcast", 64, 2.022, NULL);
    ok(b > 0 && b < x, "bcast, root round-robin: less than from the last to leave (%g)", b);
    p.root_shift = 0;
    x = cf_placement_spread_extra(&p, "smpi-ompi", "allreduce", 32, 0.4094, &alg);
    ok(x == 0 && strcmp(alg, "recursive doubling") == 0,
       "Open MPI's recursive doubling at 32: every rank leaves together (%g)", x);
    x = cf_placement_spread_extra(&p, "smpi-mpich", "allreduce", 64, 10.08, NULL);
    ok(x == 0, "no latency beyond the fitted reach: nothing (%g)", x);
    x = cf_placement_spread_extra(&p, "smpi-mpich", "pingpong", 64, 2.022, NULL);
    ok(x == 0, "a point-to-point pattern: nothing");
    x = cf_placement_spread_extra(&p, "smpi-mpich", "barrier", 64, 2.022, NULL);
    ok(x == 0, "barrier, timed as a loop of itself: nothing");
    x = cf_placement_spread_extra(&p, "smpi-mpich", "allreduce", 256, 2.022, NULL);
    ok(x == 0, "past the probed launch: nothing");
    p.timed_loop = 1;
    x = cf_placement_spread_extra(&p, "smpi-mpich", "allreduce", 64, 2.022, NULL);
    ok(x == 0, "calls timed as a loop: nothing");
    racks_probe(&p, lat, 0);
    x = cf_placement_spread_extra(&p, "mpich", "allreduce", 64, 2.022, NULL);
    ok(x > 0 && x < 2, "a real library's eager messages: a small spread (%g us)", x);
    /* A torus's ranks come nearer again: latencies by distance, not blocks. A ring of 8
     * (1 us a hop): no rank is farther than another at the same distance, so each rank
     * leaves at the same time. */
    double ring[7] = {1, 2, 3, 4, 3, 2, 1};
    p.lat_us = ring;
    p.nlat = 7;
    p.simulated = 1;
    x = cf_placement_spread_extra(&p, "smpi-mpich", "allreduce", 8, 2.0, NULL);
    ok(x == 0, "a ring of 8, by distance: nothing (%g)", x);
}

/* A model set whose one source table has the metadata of the key-value pairs (NULL ends). */
static cf_modelset *with_meta(const char *const *kv)
{
    cf_modelset *ms = cf_modelset_alloc();
    json_t *meta = json_object();
    for (size_t i = 0; kv[i] != NULL; i += 2)
        json_object_set_new(meta, kv[i], json_string(kv[i + 1]));
    json_t *table = json_object(), *tables = json_array();
    json_object_set_new(table, "metadata", meta);
    json_array_append_new(tables, table);
    ms->source = json_object();
    json_object_set_new(ms->source, "tables", tables);
    return ms;
}

/* The bytes the algorithm the rules pick crosses with; a->name "none" when none picked. */
static double cross(const char *rules, const char *pattern, long p, double m, cf_rule_alg *a)
{
    if (cf_rules_pick(rules, 0, pattern, p, m, a) != 0) {
        *a = (cf_rule_alg){"none", CF_STEPS_RING, CF_LAT_ONCE};
        return NAN;
    }
    return cf_steps_cross_bytes(a, pattern, p, m);
}

/* The pair-exchange probe of us and bytes read: npair, or -1 with its warning in w. */
static int pairs_read(const char *us, const char *bytes, cf_placement *p, char *w, size_t n)
{
    const char *kv[] = {"pair_exchange_us", us, "pair_exchange_bytes", bytes, NULL};
    cf_modelset *ms = with_meta(bytes != NULL ? kv : (const char *[]){kv[0], kv[1], NULL});
    if (cf_placement_read(ms, p) != 0)
        abort();
    cf_modelset_free(ms);
    /* One key read, one warning at most: a second says so. */
    snprintf(w, n, "%s", p->warn.n == 1 ? p->warn.w[0].text : p->warn.n ? "more than one" : "");
    return p->npair > 0 ? (int)p->npair : -1;
}

/* The pair-exchange probe (cf_placement_pair_extra) and the bytes an algorithm sends across
 * the halves of the ranks (cf_steps_cross_bytes). */
static void pair_tests(void)
{
    cf_placement p;
    char w[400];
    /* The racks platform's, simulated: within a node, a rack, across racks. */
    int n = pairs_read("2:67.74,4:67.75,8:381.4,16:381.4,32:381.4,64:1532,128:1532", "1048576", &p,
                       w, sizeof w);
    ok(n == 7 && w[0] == '\0', "seven levels read (%d)", n);
    long near_r, far_r;
    double x = cf_placement_pair_extra(&p, 32, 64, &near_r, &far_r);
    near(x, (1532 - 381.4) / 1048576.0, 1e-12, "32 -> 64: the uplink's extra per byte");
    ok(near_r == 32 && far_r == 64, "levels 32 and 64 (%ld, %ld)", near_r, far_r);
    x = cf_placement_pair_extra(&p, 32, 48, &near_r, &far_r);
    near(x, (1532 - 381.4) / 1048576.0, 1e-12, "32 -> 48: np 48 crosses level 64's cut");
    ok(near_r == 32 && far_r == 64, "np 48's level is 64 (%ld, %ld)", near_r, far_r);
    x = cf_placement_pair_extra(&p, 24, 32, &near_r, &far_r);
    ok(x == 0 && near_r == 32 && far_r == 32, "fitted 24 and np 32: the same level, nothing");
    x = cf_placement_pair_extra(&p, 48, 64, &near_r, &far_r);
    ok(x == 0, "fitted 48 crossed level 64's cut already: nothing (%g)", x);
    x = cf_placement_pair_extra(&p, 64, 128, &near_r, &far_r);
    ok(x == 0, "64 -> 128: no slower: nothing");
    x = cf_placement_pair_extra(&p, 2, 16, &near_r, &far_r);
    near(x, (381.4 - 67.74) / 1048576.0, 1e-12, "np=2 -> 16: the node card's");
    x = cf_placement_pair_extra(&p, 32, 1024, &near_r, &far_r);
    ok(far_r == 128 && x > 0, "past the probe: its largest level, what it shows at least");
    cf_placement_free(&p);
    n = pairs_read("2:1,4:2", "65536", &p, w, sizeof w);
    ok(n == 2 && w[0] == '\0', "pair_exchange_bytes of 64 KiB is read (%d)", n);
    cf_placement_free(&p);
    static const struct {
        const char *us, *bytes;
    } bad[] = {{"4:1,8:2", "1048576"}, {"2:1,8:2", "1048576"}, {"2:0", "1048576"},
               {"2:1;4:2", "1048576"}, {"2:1", "0"},           {"2:1", NULL},
               {"", "1048576"},        {"2:x", "1048576"},     {"2:1,4:2,", "1048576"},
               {"02:1", "1048576"},    {"2: 1", "1048576"},    {" 2:1", "1048576"},
               {"2:+1", "1048576"},    {"2:1", "1"},           {"2:1", "65535"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        n = pairs_read(bad[i].us, bad[i].bytes, &p, w, sizeof w);
        ok(n == -1 && strstr(w, "metadata pair_exchange_us '") == w,
           "'%s' (bytes %s) is left out with a warning: %s", bad[i].us,
           bad[i].bytes ? bad[i].bytes : "none", w);
        cf_placement_free(&p);
    }
    /* Each pick before its check: a function's arguments are unsequenced, and a.name read
     * as ok()'s argument could be read before the pick in its condition wrote it (a gcc
     * build read it uninitialised and crashed). */
    cf_rule_alg a;
    double m = 1024;
    int r;
    r = cross("mpich", "alltoall", 64, 65536, &a) == 32 * 65536.0;
    ok(r, "pairwise alltoall: 32 partners across (%s)", a.name);
    r = cross("mpich", "alltoall", 64, m, &a) == 32 * m;
    ok(r, "isend/irecv alltoall: 32 partners across (%s)", a.name);
    r = cross("mpich", "allgather", 64, m, &a) == 32 * m;
    ok(r, "recursive doubling allgather: its top step's 32 blocks (%s)", a.name);
    r = cross("mpich", "allgather", 64, 1 << 20, &a) == 0;
    ok(r, "MPICH's ring allgather, a chain: nothing (%s)", a.name);
    r = cross("smpi-mpich", "allgather", 64, 1 << 20, &a) == 32.0 * (1 << 20);
    ok(r, "SMPI's ring allgather, a spread: 32 partners (%s)", a.name);
    r = cross("mpich", "allreduce", 64, 1 << 20, &a) == 2.0 * (1 << 20) / 64;
    ok(r, "Rabenseifner: m/p each way (%s)", a.name);
    r = cross("mpich", "allreduce", 64, 16, &a) == 16;
    ok(r, "recursive doubling allreduce: m (%s)", a.name);
    a = (cf_rule_alg){"linear", CF_STEPS_RING, CF_LAT_ONCE};
    ok(cf_steps_cross_bytes(&a, "allgather", 64, m) == 0, "a linear allgather (gather, bcast): 0");
    /* Out of each rank's block of b (cf_steps_block_bytes), at 16 ranks and blocks of 4. */
    static const struct {
        cf_rule_alg a;
        const char *pattern;
        double blocks; /* of m */
    } out4[] = {
        {{"pairwise exchange", CF_STEPS_RING, CF_LAT_STEPS}, "alltoall", 12}, /* 16 - 4 */
        {{"recursive doubling", CF_STEPS_DOUBLING, CF_LAT_STEPS}, "allgather", 12}, /* 4 + 8 */
        {{"Bruck", CF_STEPS_BRUCK_ALLTOALL, CF_LAT_STEPS}, "alltoall", 16}, /* 2 steps of 8 */
        {{"recursive doubling", CF_STEPS_FOLD, CF_LAT_STEPS}, "allreduce", 2}, /* 2 steps */
        {{"Rabenseifner", CF_STEPS_HALVING2, CF_LAT_STEPS}, "allreduce", 0.375}, /* 2(1/4-1/16) */
        {{"ring", CF_STEPS_RING, CF_LAT_CHAIN}, "allgather", 0},
        {{"binomial tree", CF_STEPS_LG, CF_LAT_STEPS}, "bcast", 0},
    };
    for (size_t i = 0; i < sizeof out4 / sizeof out4[0]; i++) {
        near(cf_steps_block_bytes(&out4[i].a, out4[i].pattern, 16, 4, m), out4[i].blocks * m,
             1e-9, "%s %s: %g of m out of each block of 4 of 16", out4[i].a.name,
             out4[i].pattern, out4[i].blocks);
        near(cf_steps_block_bytes(&out4[i].a, out4[i].pattern, 16, 8, m),
             cf_steps_cross_bytes(&out4[i].a, out4[i].pattern, 16, m), 1e-9,
             "%s %s: blocks of 8 of 16 are its halves", out4[i].a.name, out4[i].pattern);
    }
}

int main(void)
{
    smpi_tests();
    decision_tests();
    spread_tests();
    pair_tests();
    return tap_done();
}
