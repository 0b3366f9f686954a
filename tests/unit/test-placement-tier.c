/* The tier rule (modelfile/placement.c): an np that reaches ranks farther from rank 0 than
 * the largest fitted np did, by more than the latency probe resolves, leaves the across-np
 * interval without an upper bound; a table without the probe, or with one that does not
 * read, answers as before. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "modelfile/placement.h"
#include "tap.h"

/* A model set whose one source table has the metadata of the key-value pairs (NULL ends). */
static cf_modelset *with_meta(const char *const *kv)
{
    cf_modelset *ms = cf_modelset_alloc();
    json_t *meta = json_object();
    for (size_t i = 0; kv[i] != NULL; i += 2)
        json_object_set_new(meta, kv[i], json_string(kv[i + 1]));
    json_t *table = json_object();
    json_object_set_new(table, "metadata", meta);
    json_t *tables = json_array();
    json_array_append_new(tables, table);
    ms->source = json_object();
    json_object_set_new(ms->source, "tables", tables);
    return ms;
}

/* The texts of p's warnings into warning (nw bytes), apart by "; ". */
static void warnings_of(const cf_placement *p, char *warning, size_t nw)
{
    warning[0] = '\0';
    for (size_t i = 0; i < p->warn.n; i++) {
        size_t l = strlen(warning);
        snprintf(warning + l, nw - l, "%s%s", i ? "; " : "", p->warn.w[i].text);
    }
}

/* The rule for fitted -> np on the table of kv: u filled, the note in note. */
static void beyond(const char *const *kv, long fitted, long np, cf_unmeasured *u, char *note,
                   size_t n, char *warning, size_t nw)
{
    cf_modelset *ms = with_meta(kv);
    cf_placement p;
    if (cf_placement_read(ms, &p) != 0)
        abort();
    cf_placement_beyond_fitted(&p, fitted, np, u, note, n);
    warnings_of(&p, warning, nw);
    cf_placement_free(&p);
    cf_modelset_free(ms);
}

/* The tier flag alone for a probe of latencies lat, spread sp (NULL: none), tick (s). */
static int tier(const char *lat, const char *sp, const char *tick, long fitted, long np)
{
    const char *kv[9] = {"rank_latency_us", lat};
    size_t k = 2;
    if (sp != NULL) {
        kv[k++] = "rank_latency_spread";
        kv[k++] = sp;
    }
    if (tick != NULL) {
        kv[k++] = "timer_resolution_s";
        kv[k++] = tick;
    }
    kv[k] = NULL;
    cf_unmeasured u;
    char note[512], w[400];
    beyond(kv, fitted, np, &u, note, sizeof note, w, sizeof w);
    return u.tier;
}

/* A probe of 64 ranks: ranks 1-31 at 1 us from rank 0, 32-63 at 3 us (another group). */
static void group_probe(cf_placement *p, double *lat)
{
    memset(p, 0, sizeof *p);
    for (int r = 1; r < 64; r++)
        lat[r - 1] = r < 32 ? 1.0 : 3.0;
    p->lat_us = lat;
    p->nlat = 63;
    p->lat_margin = CF_TIER_MARGIN;
}

/* What the probe adds to the steps of the algorithm rules pick for pattern at (np, m). */
static double extra_of(const cf_placement *p, const char *rules, const char *pattern, long fitted,
                       long np, double m, double *steps)
{
    cf_rule_alg a;
    if (cf_rules_pick(rules, 0, pattern, np, m, &a) != 0)
        abort();
    return cf_placement_tier_extra(p, fitted, np, &a, m, steps, NULL, NULL);
}

/* The probe's extra latency in the answer (cf_placement_tier_extra): each latency-bound step
 * whose pairs reach the farther group adds how much farther it is (2 us). */
static void extra_tests(void)
{
    cf_placement p;
    double lat[63], steps;
    group_probe(&p, lat);
    double x = extra_of(&p, "mpich", "bcast", 32, 64, 1, &steps);
    ok(x == 2.0 && steps == 1, "binomial bcast 32 -> 64: one crossing step, 2 us (%g, %g)", x,
       steps);
    x = extra_of(&p, "mpich", "bcast", 16, 64, 1, &steps);
    ok(x == 2.0 && steps == 1, "fitted to 16: the step to 16-31 stays in the group (%g, %g)", x,
       steps);
    x = extra_of(&p, "mpich", "allreduce", 32, 64, 4, &steps);
    ok(x == 2.0 && steps == 1, "recursive doubling: its step of distance 32 (%g)", x);
    x = extra_of(&p, "mpich", "alltoall", 32, 64, 1, &steps);
    ok(x == 2.0 && steps == 1, "Bruck: the step of distance 32 (%g)", x);
    x = extra_of(&p, "mpich", "alltoall", 32, 64, 1024, &steps);
    ok(x == 2.0 && steps == 1, "isend/irecv, posted at once: the farther latency once (%g)", x);
    x = extra_of(&p, "mpich", "alltoall", 32, 64, 65536, &steps);
    ok(x == 64.0 && steps == 32, "pairwise: each of its 32 steps to the other group (%g, %g)", x,
       steps);
    x = extra_of(&p, "mpich", "allgather", 32, 48, 65536, &steps);
    ok(x == 4.0 && steps == 2,
       "ring of 48: a chain, crossing into the farther ranks and back out (%g, %g)", x, steps);
    x = extra_of(&p, "mpich", "bcast", 32, 32, 1, &steps);
    ok(x == 0 && steps == 0, "at the fitted np: nothing");
    x = extra_of(&p, "mpich", "bcast", 8, 16, 1, &steps);
    ok(x == 0 && steps == 0, "within one group: nothing");
    p.lat_us = NULL;
    p.nlat = 0;
    x = extra_of(&p, "mpich", "bcast", 32, 64, 1, &steps);
    ok(x == 0 && steps == 0, "no probe: nothing");
}

/* What the probe adds to the steps of a hand-made algorithm (steps st, latency kind lat). */
static double extra_steps(const cf_placement *p, cf_steps st, cf_latency lat, long fitted,
                          long np, double *steps)
{
    cf_rule_alg a = {"test", st, lat};
    return cf_placement_tier_extra(p, fitted, np, &a, 1.0, steps, NULL, NULL);
}

/* Each step structure's spans, on the probe of two groups (2 us farther from rank 32). */
static void span_tests(void)
{
    cf_placement p;
    double lat[63], steps, x;
    group_probe(&p, lat);
    x = extra_steps(&p, CF_STEPS_RING2, CF_LAT_CHAIN, 32, 64, &steps);
    ok(x == 8.0 && steps == 4, "two passes of a ring: 4 crossings (%g, %g)", x, steps);
    x = extra_steps(&p, CF_STEPS_NEIGHBOR, CF_LAT_CHAIN, 32, 64, &steps);
    ok(x == 4.0 && steps == 2, "neighbour exchange, a chain: 2 crossings (%g, %g)", x, steps);
    x = extra_steps(&p, CF_STEPS_SCATTER_RING, CF_LAT_CHAIN, 32, 64, &steps);
    ok(x == 6.0 && steps == 3, "scatter (its step to 32) + ring (2 crossings) (%g, %g)", x, steps);
    x = extra_steps(&p, CF_STEPS_PIPELINE, CF_LAT_CHAIN, 32, 64, &steps);
    ok(x == 2.0 && steps == 1, "a pipeline crosses once (%g, %g)", x, steps);
    x = extra_steps(&p, CF_STEPS_FOLD, CF_LAT_STEPS, 32, 48, &steps);
    ok(x == 4.0 && steps == 2, "recursive doubling at 48: the fold in and out (%g, %g)", x, steps);
    x = extra_steps(&p, CF_STEPS_BCAST_KNOMIAL, CF_LAT_STEPS, 16, 64, &steps);
    ok(x == 2.0 && steps == 1, "4-nomial tree: its level of distance 16 spans 64 (%g, %g)", x,
       steps);
    x = extra_steps(&p, CF_STEPS_RING, CF_LAT_ONCE, 32, 64, &steps);
    ok(x == 2.0 && steps == 1, "linear, posted at once: once (%g, %g)", x, steps);
    /* A binary heap's level l holds ranks 2^l - 1 to 2^(l+1) - 2: with rank 31 farther, the
     * level of ranks 15-30 stays near; those of ranks 31-62 and of rank 63 reach it. */
    for (int r = 31; r < 64; r++)
        lat[r - 1] = 3.0;
    x = extra_steps(&p, CF_STEPS_BINARY, CF_LAT_STEPS, 16, 64, &steps);
    ok(x == 4.0 && steps == 2, "binary tree: two levels reach rank 31 and on (%g, %g)", x, steps);
}

/* The rules' algorithms say how their latencies add up as their steps do: a ring, a
 * neighbour exchange, a pipeline and a scatter with a ring allgather are chains; the others
 * of a ring's step count are a pairwise exchange or post their messages at once; SMPI's
 * "ring" allgather (the smpi- rule sets') sends to rank + i at step i, a pairwise
 * exchange's steps. */
static void rules_latency_tests(void)
{
    static const char *sets[] = {"mpich", "smpi-mpich", "openmpi", "smpi-ompi", "openmpi-loop",
                                 "smpi-ompi-loop"};
    static const char *pats[] = {"bcast", "reduce", "allreduce", "allgather", "alltoall"};
    const char *bad = "none";
    int n = 0;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        for (size_t j = 0; j < sizeof pats / sizeof pats[0]; j++)
            for (long np = 2; np <= 4096; np = np < 16 ? np + 1 : np * 2)
                for (double m = 1; m <= 64 << 20; m *= 4) {
                    cf_rule_alg a;
                    if (cf_rules_pick(sets[i], 0, pats[j], np, m, &a) != 0)
                        continue;
                    n++;
                    int chain =
                        a.steps == CF_STEPS_RING2 || a.steps == CF_STEPS_NEIGHBOR ||
                        a.steps == CF_STEPS_SCATTER_RING || a.steps == CF_STEPS_PIPELINE ||
                        a.steps == CF_STEPS_CHAIN ||
                        (a.steps == CF_STEPS_RING && strstr(a.name, "ring") != NULL);
                    /* isends posted at once, but in rounds each waited for (SMPI's) */
                    int once = (strstr(a.name, "linear") != NULL || strstr(a.name, "isend") != NULL) &&
                               a.steps != CF_STEPS_ROUNDS;
                    if ((chain && a.latency != CF_LAT_CHAIN) || (once && a.latency != CF_LAT_ONCE) ||
                        (!chain && !once && a.latency != CF_LAT_STEPS))
                        bad = a.name;
                }
    ok(n > 1000 && strcmp(bad, "none") == 0,
       "every rule's latency kind follows its steps (%d picks; wrong: %s)", n, bad);
}

/* Every algorithm of the point-to-point estimate's catalog has steps for the probe
 * (cf_coll_alg_rule), but a single message: a catalog entry added without them would get
 * no extra latency, silently. */
static void catalog_tests(void)
{
    const char *missing = "none";
    for (int i = 0; i < cf_ncolls; i++)
        for (int j = 0; j < cf_colls[i].nalgs; j++) {
            cf_rule_alg r;
            const char *n = cf_colls[i].algs[j].name;
            if (strcmp(n, "one message") != 0 && cf_coll_alg_rule(cf_colls[i].pattern, n, &r) != 0)
                missing = n;
        }
    ok(strcmp(missing, "none") == 0, "every catalog algorithm has its steps for the probe (%s)",
       missing);
    cf_rule_alg r;
    ok(cf_coll_alg_rule("allgather", "ring", &r) == 0 && r.latency == CF_LAT_CHAIN,
       "the catalog's ring: a chain");
    ok(cf_coll_alg_rule("gatherv", "linear", &r) == 0 && r.latency == CF_LAT_ONCE,
       "the catalog's linear: posted at once");
    ok(cf_coll_alg_rule("pingpong", "one message", &r) != 0, "one message: no steps");
    /* A name's steps by pattern: an allgather's recursive doubling sends p/2 blocks across
     * the halves at its top step, an allreduce's the vector once. */
    ok(cf_coll_alg_rule("allgather", "recursive doubling", &r) == 0 &&
           r.steps == CF_STEPS_DOUBLING && cf_steps_cross_bytes(&r, "allgather", 64, 1.0) == 32.0,
       "allgather's recursive doubling: doubling blocks, 32 of them across 64 ranks' halves");
    ok(cf_coll_alg_rule("allgatherv", "recursive doubling", &r) == 0 &&
           r.steps == CF_STEPS_DOUBLING,
       "allgatherv's recursive doubling: doubling blocks");
    ok(cf_coll_alg_rule("allreduce", "recursive doubling", &r) == 0 && r.steps == CF_STEPS_FOLD &&
           cf_steps_cross_bytes(&r, "allreduce", 64, 1.0) == 1.0,
       "allreduce's recursive doubling: the vector across the halves once");
    ok(cf_coll_alg_rule("alltoall", "Bruck", &r) == 0 && r.steps == CF_STEPS_BRUCK_ALLTOALL,
       "alltoall's Bruck");
    /* Wherever MPICH's rules pick an algorithm the catalog names for the same pattern, the
     * two agree on its steps. */
    const char *differ = "none";
    int n = 0;
    for (int i = 0; i < cf_ncolls; i++)
        for (long np = 2; np <= 4096; np *= 2)
            for (double m = 1; m <= 64 << 20; m *= 4) {
                cf_rule_alg a, b;
                if (cf_rules_pick("mpich", 0, cf_colls[i].pattern, np, m, &a) != 0 ||
                    cf_coll_alg_rule(cf_colls[i].pattern, a.name, &b) != 0)
                    continue;
                n++;
                if (a.steps != b.steps)
                    differ = a.name;
            }
    ok(n > 100 && strcmp(differ, "none") == 0,
       "MPICH's rules and the catalog agree on each shared name's steps (%d picks; differ: %s)",
       n, differ);
}

/* The tiers of a table's probes (cf_placement_tiers) and the warning, if any. */
static void tiers_of(const char *const *kv, cf_tiers *t, char *warning, size_t nw)
{
    cf_modelset *ms = with_meta(kv);
    cf_placement p;
    if (cf_placement_read(ms, &p) != 0)
        abort();
    cf_placement_tiers(&p, t);
    warnings_of(&p, warning, nw);
    cf_placement_free(&p);
    cf_modelset_free(ms);
}

/* The sized latency probe (rank_latency_sized_us): each tier's farthest rank's latency at
 * each size less rank 1's, read at a message's size (the largest probed size at or below
 * it; past the largest along the line through the two largest); the pair-exchange probe's
 * traffic less what one message of its bytes takes across the tier. */
static void sized_tests(void)
{
    char w[400];
    cf_tiers t;
    /* Ranks 1-3 in rank 0's node, 4-7 on the next: 1 us farther at 8 B, 2.5 at 1 KiB (4 -
     * 1.5), 15 at 64 KiB (20 - 5). */
    const char *good[] = {"launch_np", "8", "rank_latency_us", "1,1,1,2,2,2,2",
                          "rank_latency_sized_us",
                          "1024:1.5,1.5,1.5,4,4,4,3.5;65536:5,5,5,20,18,20,20",
                          "pair_exchange_bytes", "1048576", "pair_exchange_us",
                          "2:100,4:100,8:400", "pair_exchange_distance_us",
                          "2:100;4:100,100;8:100,250,400", NULL};
    tiers_of(good, &t, w, sizeof w);
    ok(t.n == 1 && t.ranks[0] == 4 && t.nsized == 2 && t.sized_bytes[0] == 1024 &&
           t.sized_bytes[1] == 65536 && w[0] == '\0',
       "sized probe read: one tier of blocks of 4, 2 sizes, no warning (%s)", w);
    near(t.extra_us[0], 1, 1e-12, "the tier at 8 B: 1 us");
    near(t.sized_extra_us[0][0], 2.5, 1e-12, "at 1 KiB: its farthest rank, 2.5 us");
    near(t.sized_extra_us[1][0], 15, 1e-12, "at 64 KiB: 15 us");
    near(cf_tiers_extra_us(&t, 0, 5, 4), 1, 1e-12, "a message of 4 B: the 8-byte probe's");
    near(cf_tiers_extra_us(&t, 0, 5, 512), 1, 1e-12, "512 B, below the first size: the same");
    near(cf_tiers_extra_us(&t, 0, 5, 4096), 2.5, 1e-12, "4 KiB: the 1 KiB probe's");
    near(cf_tiers_extra_us(&t, 3, 4, 65536), 15, 1e-12, "64 KiB: the 64 KiB probe's");
    double slope = 12.5 / (65536 - 1024), at1m = 15 + slope * (1048576 - 65536);
    near(cf_tiers_extra_us(&t, 0, 7, 1048576), at1m, 1e-9,
         "1 MiB: along the line through the two largest sizes");
    near(cf_tiers_extra_us(&t, 0, 3, 1048576), 0, 1e-12, "inside rank 0's node: nothing");
    /* The pair-exchange level of 8 ranks (300 us over the level of 2 for 1 MiB) less what
     * one MiB across the tier takes. */
    ok(t.npair == 3, "three pair-exchange levels");
    near(t.pair_us_per_byte[2], (300 - at1m) / 1048576, 1e-12,
         "the traffic across the node: the exchange's excess less one message's");
    /* Its distances, each level's ranks all sending: level 2's distance 2 (ranks 2 apart,
     * in one node: no tier) 150 us over the first's, its distance 4 as the level's own. */
    ok(t.ndist == 3, "three levels of distances");
    near(t.dist_us_per_byte[CF_TIERS_DIST_ROW(2) + 1], 150.0 / 1048576, 1e-12,
         "level 2, distance 2: 150 us more for 1 MiB, no tier between ranks 0 and 2");
    near(t.dist_us_per_byte[CF_TIERS_DIST_ROW(2) + 2], t.pair_us_per_byte[2], 1e-15,
         "level 2, distance 4: the level's own");
    near(t.dist_us_per_byte[CF_TIERS_DIST_ROW(1) + 1], 0, 1e-15,
         "level 1, distance 2: no more than the first, none");
    /* Without it, the 8-byte probe's alone. */
    const char *plain[] = {"launch_np", "8", "rank_latency_us", "1,1,1,2,2,2,2", NULL};
    tiers_of(plain, &t, w, sizeof w);
    ok(t.n == 1 && t.nsized == 0 && cf_tiers_extra_us(&t, 0, 5, 65536) == 1,
       "no sized probe: the 8-byte probe's at every size");
    /* One that does not read is ignored with the reason; the 8-byte probe stays. */
    static const char *const bad[] = {
        "1024:1,1,1",                       /* too few ranks */
        "65536:1,1,1,2,2,2,2;1024:1,1,1,2,2,2,2", /* not increasing */
        "8:1,1,1,2,2,2,2",                  /* not above 8 */
        "1024:1,1,1,2,2,2,x",               /* no number */
        "1024=1,1,1,2,2,2,2",               /* no size */
        "",                                 /* nothing */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *kv[] = {"launch_np", "8", "rank_latency_us", "1,1,1,2,2,2,2",
                            "rank_latency_sized_us", bad[i], NULL};
        tiers_of(kv, &t, w, sizeof w);
        ok(t.n == 1 && t.nsized == 0 &&
               strncmp(w, "metadata rank_latency_sized_us '", 32) == 0,
           "bad sized probe %zu ignored, the 8-byte probe kept: %s", i, w);
    }
}

/* The placement of a 64-rank probe of two groups (ranks 32-63 the farther) at 8 B (1 and
 * 3 us), and, where sized, at 256 B (1.2 and 4.2) and 64 KiB (10 and 30); with flip, rank
 * 40 nearer than rank 39 at 8 B (no tiers of aligned blocks: a torus's probe). */
static void sized_group(cf_placement *p, int sized, int flip)
{
    char lat[640] = "", sz[1600] = "256:";
    for (int r = 1; r < 64; r++) {
        double l = r < 32 ? 1.0 : 3.0;
        if (flip && r == 40)
            l = 2.0;
        snprintf(lat + strlen(lat), sizeof lat - strlen(lat), "%s%g", r > 1 ? "," : "", l);
    }
    for (int r = 1; r < 64; r++)
        snprintf(sz + strlen(sz), sizeof sz - strlen(sz), "%s%g", r > 1 ? "," : "",
                 r < 32 ? 1.2 : 4.2);
    snprintf(sz + strlen(sz), sizeof sz - strlen(sz), ";65536:");
    for (int r = 1; r < 64; r++)
        snprintf(sz + strlen(sz), sizeof sz - strlen(sz), "%s%g", r > 1 ? "," : "",
                 r < 32 ? 10.0 : 30.0);
    const char *kv[] = {"launch_np", "64", "rank_latency_us", lat,
                        sized ? "rank_latency_sized_us" : NULL, sz, NULL};
    cf_modelset *ms = with_meta(kv);
    if (cf_placement_read(ms, p) != 0)
        abort();
    cf_modelset_free(ms);
}

/* What the sized probe adds to the steps of algorithm (st, lat) at (np 64, m) fitted to 32. */
static double sized_extra(const cf_placement *p, cf_steps st, cf_latency lat, double m,
                          double *steps, double *bw)
{
    cf_rule_alg a = {"test", st, lat};
    return cf_placement_tier_extra(p, 32, 64, &a, m, steps, bw, NULL);
}

/* The steps not replayed over the tiers read the farther group at their messages' size: the
 * 8-byte difference (2 us) on the steps whose latency they wait for, and what the sized
 * probe's difference adds beyond it (256 B: 3 us, 1 more; 64 KiB: 20, 18 more; past 64 KiB
 * along the line through the two) on the steps their transfers pace. */
static void sized_extra_tests(void)
{
    cf_placement p;
    double steps, bw, x;
    sized_group(&p, 1, 0);
    ok(p.nsized == 2, "the sized probe read: two sizes");
    x = sized_extra(&p, CF_STEPS_RING, CF_LAT_CHAIN, 65536, &steps, &bw);
    near(bw, 63 * 18.0, 1e-9, "a ring of 64 KiB: each of its 63 steps paced by the farther "
                              "group's transfer, 18 us more than its latency");
    near(x, 2 * 2.0 + 63 * 18.0, 1e-9, "and its two crossings' latency (%g)", x);
    ok(steps == 2, "the steps whose latency it waits for: its 2 crossings (%g)", steps);
    x = sized_extra(&p, CF_STEPS_RING, CF_LAT_CHAIN, 100, &steps, &bw);
    ok(x == 4.0 && bw == 0.0, "100 B, below the smallest size: the 8-byte probe's alone (%g)", x);
    x = sized_extra(&p, CF_STEPS_LG, CF_LAT_STEPS, 256, &steps, &bw);
    near(x, 3.0, 1e-12, "binomial tree of 256 B: its step to the farther group at 256 B");
    /* Rabenseifner's step of distance 32 moves m/64 each way, in each of its two passes. */
    x = sized_extra(&p, CF_STEPS_HALVING2, CF_LAT_STEPS, 131072, &steps, &bw);
    near(bw, 2.0, 1e-12, "Rabenseifner of 128 KiB: its far steps move 2 KiB, read at 256 B");
    ok(steps == 2, "its two far steps (%g)", steps);
    /* Recursive doubling's allgather: the far step moves 32 blocks of 4 KiB, 128 KiB, past
     * the largest size. */
    double at = 20.0 + (20.0 - 3.0) / (65536 - 256) * (131072 - 65536);
    x = sized_extra(&p, CF_STEPS_DOUBLING, CF_LAT_STEPS, 4096, &steps, &bw);
    near(bw, at - 2.0, 1e-9, "recursive doubling's allgather: 128 KiB past the largest size, "
                             "on the line through the two");
    /* Scatter + ring of 4 MiB: the scatter's far step sends 32 blocks of 64 KiB (2 MiB, on
     * the line), then the ring's 63 steps of a block, at 64 KiB. */
    double at2m = 20.0 + (20.0 - 3.0) / (65536 - 256) * (2097152 - 65536);
    x = sized_extra(&p, CF_STEPS_SCATTER_RING, CF_LAT_CHAIN, 64 * 65536.0, &steps, &bw);
    near(bw, (at2m - 2.0) + 63 * 18.0, 1e-9,
         "scatter + ring of 4 MiB: the scatter's far step at 2 MiB, the ring's 63 at 64 KiB");
    cf_placement_free(&p);
    sized_group(&p, 0, 0);
    x = sized_extra(&p, CF_STEPS_RING, CF_LAT_CHAIN, 65536, &steps, &bw);
    ok(x == 4.0 && bw == 0.0, "no sized probe: the 8-byte probe's alone (%g)", x);
    cf_placement_free(&p);
    sized_group(&p, 1, 1);
    x = sized_extra(&p, CF_STEPS_RING, CF_LAT_CHAIN, 65536, &steps, &bw);
    ok(bw == 0.0 && x > 0, "latencies in no tiers of blocks (a torus): the 8-byte probe's alone "
                           "(%g)", x);
    cf_placement_free(&p);
}

int main(void)
{
    cf_unmeasured u;
    char note[1024], w[400];

    /* Without the key, the ranks on one node: no tier, no note, nothing to warn of. */
    const char *none[] = {"launch_np", "8", "ranks_per_node", "8", NULL};
    beyond(none, 4, 8, &u, note, sizeof note, w, sizeof w);
    ok(!u.tier && !u.network && !u.unplaced && note[0] == '\0' && w[0] == '\0' &&
           !cf_unmeasured_unbounded(&u),
       "no probe, one node: no tier, no note");
    /* Without the key or a placement: nothing says where np 8's ranks lie, no upper bound;
     * within the fitted np, nothing. */
    const char *unplaced[] = {"launch_np", "8", NULL};
    beyond(unplaced, 4, 8, &u, note, sizeof note, w, sizeof w);
    ok(u.unplaced && !u.tier && !u.network && !u.nodes && cf_unmeasured_unbounded(&u) &&
           w[0] == '\0' &&
           strstr(note, "the table does not say where its ranks ran (no ranks_per_node "
                        "metadata): nothing says whether np=8 crosses nodes or switches the "
                        "fitted np (to 4) never did, so the interval has no upper bound") != NULL,
       "no probe, no placement: unplaced, no upper bound, said so (%s)", note);
    beyond(unplaced, 8, 8, &u, note, sizeof note, w, sizeof w);
    ok(!u.unplaced && note[0] == '\0', "no placement, at the fitted np: nothing");

    /* Ranks 1-3 one hop (1 us), 4-7 farther (2 us): np 8 beyond fitted 4 reaches them. */
    const char *two[] = {"launch_np",
                         "8",
                         "rank_latency_us",
                         "1,1,1,2,2,2,2",
                         "rank_latency_spread",
                         "0",
                         "timer_resolution_s",
                         "1e-09",
                         NULL};
    beyond(two, 4, 8, &u, note, sizeof note, w, sizeof w);
    ok(u.tier && !u.network && !u.nodes, "np 8 reaches a farther tier than fitted np 4");
    near(u.far_fitted_us, 1, 1e-12, "the fitted farthest: 1 us");
    near(u.far_np_us, 2, 1e-12, "np 8's farthest: 2 us");
    is_str(note,
           "np=8 reaches ranks 2 us from rank 0, the fitted np (to 4) at most 1 us (latency "
           "probe at launch): the network beyond (another switch, group or more hops) was never "
           "measured, so the interval has no upper bound (measure at np=8 to know it); its "
           "lower end at most the largest fitted np's: past the tier the time may grow less "
           "with np than within the fitted reach",
           "the note names the latencies, and the lower end's reach");
    beyond(two, 8, 16, &u, note, sizeof note, w, sizeof w);
    /* Fitted to the whole launch: np 16's other ranks were never probed, and no farther rank
     * within the launch is no evidence that none lies beyond it. */
    ok(u.tier && isnan(u.far_np_us) &&
           strstr(note, "np=16 reaches ranks past the launch's latency probe (ranks 1 to 7, the "
                        "farthest 2 us from rank 0): the network beyond was never measured") !=
               NULL,
       "np 16, past the launch of 8 (fitted to 8): no upper bound, said so (%s)", note);
    beyond(two, 2, 4, &u, note, sizeof note, w, sizeof w);
    ok(!u.tier, "np 4 stays on fitted np 2's tier");
    beyond(two, 2, 16, &u, note, sizeof note, w, sizeof w);
    ok(u.tier && strstr(note, "2 us from rank 0 within the probed launch") != NULL,
       "an np past the launch is judged on the ranks probed (%s)", note);
    ok(isnan(cf_placement_farthest_us(&(cf_placement){0}, 8)), "no probe: no farthest");

    /* The margin: 10%, plus the spread, plus one tick. */
    ok(!tier("1,1,1.09", "0", NULL, 2, 4), "9%% farther: within the probe's resolution");
    ok(tier("1,1,1.11", "0", NULL, 2, 4), "11%% farther: a tier");
    ok(tier("1,1,1.11", NULL, NULL, 2, 4), "no spread recorded: the margin is 10%%");
    ok(!tier("1,1,1.14", "0.05", NULL, 2, 4), "14%% farther with a 5%% spread: not resolved");
    ok(tier("1,1,1.16", "0.05", NULL, 2, 4), "16%% farther with a 5%% spread: a tier");
    ok(!tier("1,1,1.19", "0", "1e-07", 2, 4), "within 10%% and one 0.1 us tick: not resolved");
    ok(tier("1,1,1.21", "0", "1e-07", 2, 4), "beyond 10%% and one tick: a tier");

    /* Values that do not read: ignored, with the reason for the warning of predict and
     * report (each says that it ignores it). */
    const char *bad[][7] = {
        {"launch_np", "4", "rank_latency_us", "1,x,2", NULL},
        {"launch_np", "4", "rank_latency_us", "1,-1,2", NULL},
        {"launch_np", "4", "rank_latency_us", "1,1,2,2", NULL},
        {"launch_np", "4", "rank_latency_us", "1,1,2", "rank_latency_spread", "lots", NULL},
        {"launch_np", "4", "rank_latency_us", "", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        beyond(bad[i], 2, 4, &u, note, sizeof note, w, sizeof w);
        ok(!u.tier && u.unplaced && strncmp(w, "metadata rank_latency_us '", 26) == 0 &&
               strstr(w, "ignores") == NULL,
           "bad probe %zu ignored, the reason without the command: %s", i, w);
    }
    /* A timer coarser than a round trip records 0: read as below one tick, not refused. */
    const char *coarse[] = {"launch_np", "4", "rank_latency_us", "0,0,2",
                            "timer_resolution_s", "1e-06", NULL};
    beyond(coarse, 2, 4, &u, note, sizeof note, w, sizeof w);
    ok(u.tier && w[0] == '\0', "0 us (below a 1 us tick), then 2 us: a tier, no warning (%s)", w);
    const char *flat0[] = {"launch_np", "4", "rank_latency_us", "0,0,0",
                           "timer_resolution_s", "1e-06", NULL};
    beyond(flat0, 2, 4, &u, note, sizeof note, w, sizeof w);
    ok(!u.tier && w[0] == '\0', "every rank below the tick: no tier, no warning (%s)", w);
    const char *good[] = {"launch_np", "4", "rank_latency_us", "1,1,2", NULL};
    beyond(good, 2, 4, &u, note, sizeof note, w, sizeof w);
    ok(u.tier && w[0] == '\0', "the same table with a good probe has a tier and no warning");

    /* The node rule already leaves no bound (every fitted np on one node): said once. */
    const char *nodes[] = {"launch_np", "4",   "ranks_per_node",  "2,2",     "cores", "2,2",
                           "hosts",     "a,b", "rank_latency_us", "0.2,1,1", NULL};
    beyond(nodes, 2, 4, &u, note, sizeof note, w, sizeof w);
    ok(u.network && !u.tier && strstr(note, "ran inside one node") != NULL &&
           strstr(note, "reaches ranks") == NULL,
       "the node rule's note alone");
    /* One rank a node: every np spans more nodes than fitted, the tier says more. */
    const char *spread[] = {"launch_np", "4",     "ranks_per_node", "1,1,1,1",         "cores",
                            "1,1,1,1",   "hosts", "a,b,c,d",        "rank_latency_us", "1,1,3",
                            NULL};
    beyond(spread, 2, 4, &u, note, sizeof note, w, sizeof w);
    ok(u.nodes && !u.network && u.tier && strstr(note, "reaches ranks 3 us") != NULL,
       "nodes spanned and a farther tier: the tier's note (%s)", note);
    is_str(note,
           "np=4 spans 4 nodes, the largest fitted np=2 spanned 2: contention on links they "
           "share was measured up to 2 nodes only; np=4 reaches ranks 3 us from rank 0, the "
           "fitted np (to 2) at most 1 us (latency probe at launch): the network beyond "
           "(another switch, group or more hops) was never measured, so the interval has no "
           "upper bound (measure at np=4 to know it); its lower end at most the largest "
           "fitted np's: past the tier the time may grow less with np than within the fitted "
           "reach",
           "and the nodes' note before it: both reasons");
    {
        cf_modelset *ms = with_meta(spread);
        cf_placement p;
        if (cf_placement_read(ms, &p) != 0)
            abort();
        cf_placement_unmeasured(&p, 4, &u, note, sizeof note);
        ok(u.nodes && !u.network && u.tier, "from np=2: nodes spanned and a farther tier");
        is_str(note,
               "np=4 spans 4 nodes, np=2 spanned 2: contention on links they share was never "
               "measured; np=4 reaches ranks 3 us from rank 0, np=2's rank 1 1 us (latency "
               "probe at launch): the network beyond (another switch, group or more hops) was "
               "never measured, so the interval has no upper bound (measure at np=4 to know it)",
               "from np=2: both reasons, the interval assuming nothing of contention");
        cf_placement_free(&p);
        cf_modelset_free(ms);
    }
    extra_tests();
    span_tests();
    rules_latency_tests();
    catalog_tests();
    sized_tests();
    sized_extra_tests();
    return tap_done();
}
