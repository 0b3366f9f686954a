/* Derived-datatype plans without MPI: payload rounding, blocks and remainders, strides
 * and extents, skipped points, refused block counts, the sweep's order, rows, and the
 * gain over pack. */
#include "config.h"

#include <stdlib.h>

#include "measure/ddt.h"
#include "tap.h"

static void plan(cf_ddt_kind kind, cf_ddt_kind layout, uint64_t bytes, long blocks,
                 const char *want)
{
    cf_ddt_shape s;
    char got[256];
    int rc = cf_ddt_plan(kind, layout, bytes, blocks, &s);
    if (rc == 0)
        snprintf(got, sizeof got,
                 "%s/%s bytes=%llu blocks=%ld count=%llu block=%llu last=%llu stride=%llu "
                 "extent=%llu",
                 cf_ddt_kind_name(s.kind), cf_ddt_kind_name(s.layout),
                 (unsigned long long)s.bytes, s.blocks, (unsigned long long)s.count,
                 (unsigned long long)s.block_count, (unsigned long long)s.last_count,
                 (unsigned long long)s.stride_bytes, (unsigned long long)s.extent_bytes);
    else
        snprintf(got, sizeof got, "rc=%d", rc);
    is_str(got, want, "%s of %s, %llu bytes, %ld blocks", cf_ddt_kind_name(kind),
           cf_ddt_kind_name(layout), (unsigned long long)bytes, blocks);
}

static void blocks_refused(long b, uint64_t max_bytes, const char *msg)
{
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_ddt_blocks_check(&b, 1, max_bytes, &e), CF_EXIT_USAGE, "--blocks %ld refused", b);
    is_str(e.msg, msg, "--blocks %ld: message", b);
}

static char *sweep_text(const uint64_t *sizes, size_t ns, const long *blocks, size_t nb,
                        unsigned kinds)
{
    cf_ddt_shape *v;
    size_t n;
    cf_error e;
    cf_error_clear(&e);
    static char buf[8192];
    buf[0] = '\0';
    if (cf_ddt_sweep(sizes, ns, blocks, nb, kinds, &v, &n, &e) != 0) {
        snprintf(buf, sizeof buf, "error: %s", e.msg);
        return buf;
    }
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(buf);
        snprintf(buf + l, sizeof buf - l, "%s%llu:%ld:%s%s%s", i ? " " : "",
                 (unsigned long long)v[i].bytes, v[i].blocks, cf_ddt_kind_name(v[i].kind),
                 v[i].kind == CF_DDT_PACK ? "/" : "",
                 v[i].kind == CF_DDT_PACK ? cf_ddt_kind_name(v[i].layout) : "");
    }
    free(v);
    return buf;
}

static void kinds(void)
{
    for (int k = 0; k < CF_DDT_NKINDS; k++) {
        cf_ddt_kind got;
        ok(cf_ddt_kind_from_name(cf_ddt_kind_name((cf_ddt_kind)k), &got) == 0 && (int)got == k,
           "kind '%s' reads back", cf_ddt_kind_name((cf_ddt_kind)k));
    }
    cf_ddt_kind got;
    ok(cf_ddt_kind_from_name("byte", &got) != 0, "'byte' is not a derived-datatype kind");
}

static void plans(void)
{
    /* 256 floats in 3 blocks: vector drops the remainder, indexed puts it last. */
    plan(CF_DDT_VECTOR, CF_DDT_VECTOR, 1024, 3,
         "vector/vector bytes=1020 blocks=3 count=255 block=85 last=85 stride=680 "
         "extent=1700");
    plan(CF_DDT_HVECTOR, CF_DDT_HVECTOR, 1024, 3,
         "hvector/hvector bytes=1020 blocks=3 count=255 block=85 last=85 stride=680 "
         "extent=1700");
    plan(CF_DDT_INDEXED, CF_DDT_INDEXED, 1024, 3,
         "indexed/indexed bytes=1024 blocks=3 count=256 block=85 last=86 stride=680 "
         "extent=1704");
    plan(CF_DDT_HINDEXED, CF_DDT_HINDEXED, 1024, 3,
         "hindexed/hindexed bytes=1024 blocks=3 count=256 block=85 last=86 stride=680 "
         "extent=1704");
    plan(CF_DDT_VECTOR, CF_DDT_VECTOR, 1024, 1,
         "vector/vector bytes=1024 blocks=1 count=256 block=256 last=256 stride=2048 "
         "extent=1024");
    plan(CF_DDT_INDEXED, CF_DDT_INDEXED, 16, 4,
         "indexed/indexed bytes=16 blocks=4 count=4 block=1 last=1 stride=8 extent=28");
    /* A payload that is not a whole number of floats is rounded down. */
    plan(CF_DDT_INDEXED, CF_DDT_INDEXED, 1023, 2,
         "indexed/indexed bytes=1020 blocks=2 count=255 block=127 last=128 stride=1016 "
         "extent=1528");
    plan(CF_DDT_STRUCT, CF_DDT_STRUCT, 1000, 7,
         "struct/struct bytes=992 blocks=186 count=62 block=0 last=0 stride=16 extent=992");
    plan(CF_DDT_CONTIGUOUS, CF_DDT_VECTOR, 7, 5,
         "contiguous/contiguous bytes=4 blocks=1 count=1 block=1 last=1 stride=0 extent=4");
    plan(CF_DDT_PACK, CF_DDT_INDEXED, 1024, 3,
         "pack/indexed bytes=1024 blocks=3 count=256 block=85 last=86 stride=680 "
         "extent=1704");
    plan(CF_DDT_PACK, CF_DDT_STRUCT, 64, 1,
         "pack/struct bytes=64 blocks=12 count=4 block=0 last=0 stride=16 extent=64");
    /* Skipped: nothing whole to send, more blocks than floats. */
    plan(CF_DDT_CONTIGUOUS, CF_DDT_CONTIGUOUS, 3, 1, "rc=1");
    plan(CF_DDT_STRUCT, CF_DDT_STRUCT, 15, 1, "rc=1");
    plan(CF_DDT_VECTOR, CF_DDT_VECTOR, 16, 5, "rc=1");
    plan(CF_DDT_INDEXED, CF_DDT_INDEXED, 0, 1, "rc=1");
    plan(CF_DDT_HINDEXED, CF_DDT_HINDEXED, 1024, 0, "rc=1");
    /* Impossible: pack of a contiguous layout, counts beyond an int. */
    plan(CF_DDT_PACK, CF_DDT_CONTIGUOUS, 1024, 1, "rc=-1");
    plan(CF_DDT_VECTOR, CF_DDT_VECTOR, (uint64_t)1 << 40, 2, "rc=-1");
}

static void refusals(void)
{
    blocks_refused(0, 4096, "--blocks '0': a datatype needs at least 1 block");
    blocks_refused(-3, 4096, "--blocks '-3': a datatype needs at least 1 block");
    blocks_refused(2000, 4096,
                   "--blocks '2000': more blocks than the 1024 floats of the largest size "
                   "(4 KiB)");
    long ok_blocks[] = {1, 1024};
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_ddt_blocks_check(ok_blocks, 2, 4096, &e), 0, "1 and 1024 blocks fit 4 KiB");

    uint64_t sizes[] = {16, 64};
    long b[] = {0, 2};
    is_str(sweep_text(sizes, 2, b, 2, CF_DDT_ALL_KINDS),
           "error: --blocks '0': a datatype needs at least 1 block", "a sweep refuses 0 blocks");
    long big[] = {8, 5000};
    is_str(sweep_text(sizes, 2, big, 2, (1u << CF_DDT_VECTOR)), "64:8:vector",
           "a sweep skips the block counts a size cannot carry");
}

static void sweeps(void)
{
    uint64_t sizes[] = {0, 4, 16, 24};
    long b[] = {1, 3};
    is_str(sweep_text(sizes, 4, b, 2,
                      (1u << CF_DDT_VECTOR) | (1u << CF_DDT_INDEXED) | (1u << CF_DDT_PACK) |
                          (1u << CF_DDT_CONTIGUOUS)),
           "4:1:contiguous 4:1:vector 4:1:indexed 4:1:pack/vector 4:1:pack/indexed "
           "12:1:contiguous 12:3:vector 12:3:pack/vector "
           "16:1:contiguous 16:1:vector 16:1:indexed 16:1:pack/vector 16:1:pack/indexed "
           "16:3:indexed 16:3:pack/indexed "
           "24:1:contiguous 24:1:vector 24:1:indexed 24:1:pack/vector 24:1:pack/indexed "
           "24:3:vector 24:3:indexed 24:3:pack/vector 24:3:pack/indexed",
           "a sweep: 0 bytes skipped, sorted by payload, rounded payloads measured once");
    uint64_t s2[] = {15, 16, 32};
    is_str(sweep_text(s2, 3, b, 2, (1u << CF_DDT_STRUCT) | (1u << CF_DDT_PACK)),
           "16:3:struct 16:3:pack/struct 32:6:struct 32:6:pack/struct",
           "struct: once per size, 3 blocks a particle, under 16 bytes skipped");
    uint64_t s3[] = {5, 6, 7, 8};
    long one = 1;
    is_str(sweep_text(s3, 4, &one, 1, 1u << CF_DDT_CONTIGUOUS), "4:1:contiguous 8:1:contiguous",
           "contiguous alone: sizes rounded to the same payload give one row");
    uint64_t s4[] = {0, 2};
    is_str(sweep_text(s4, 2, &one, 1, CF_DDT_ALL_KINDS), "",
           "no size holds a float: no points");
}

static void rows(void)
{
    cf_ddt_shape s;
    cf_row r;
    char extra[128], why[256];
    cf_ddt_plan(CF_DDT_PACK, CF_DDT_HVECTOR, 1024, 3, &s);
    cf_ddt_row_init(&s, &r, extra, sizeof extra);
    r.t_min_us = r.t_avg_us = r.t_max_us = 1.0;
    is_int(cf_row_check(&r, why, sizeof why), 0, "a pack row passes the schema check");
    is_str(r.pattern, "pingpong", "pattern pingpong");
    is_str(r.datatype, "pack", "datatype pack");
    is_int(r.np, 2, "np 2");
    is_int(r.bytes, 1020, "bytes: the payload sent");
    is_int(r.blocks, 3, "blocks");
    is_str(r.extra, "hvector,1020,1700,680", "extra: layout, size, extent, stride");
    cf_ddt_plan(CF_DDT_CONTIGUOUS, CF_DDT_CONTIGUOUS, 64, 1, &s);
    cf_ddt_row_init(&s, &r, extra, sizeof extra);
    is_str(r.extra, "contiguous,64,64,", "contiguous: no stride");
}

static void add(cf_table *t, const char *dt, uint64_t bytes, int blocks, double t_us,
                const char *extra)
{
    cf_row r;
    cf_row_init(&r);
    strcpy(r.pattern, "pingpong");
    strcpy(r.datatype, dt);
    r.np = 2;
    r.bytes = bytes;
    r.blocks = blocks;
    r.t_min_us = r.t_avg_us = r.t_max_us = t_us;
    r.t_med_us = t_us;
    r.extra = (char *)extra;
    cf_table_add(t, &r);
}

static void gains(void)
{
    cf_table *t = cf_table_alloc();
    const char *names[] = {"stop", "ddt_layout", "ddt_size_bytes", "ddt_extent_bytes",
                           "ddt_stride_bytes"};
    cf_table_set_extra(t, names, 5);
    add(t, "vector", 1024, 2, 8.0, ",vector,1024,1536,1024");
    add(t, "indexed", 1024, 2, 12.0, ",indexed,1024,1536,1024");
    add(t, "pack", 1024, 2, 9.0, ",indexed,1024,1536,1024");
    add(t, "pack", 1024, 2, 10.0, ",vector,1024,1536,1024");
    add(t, "contiguous", 1024, 1, 1.0, ",contiguous,1024,1024,");
    add(t, "vector", 2048, 2, 8.0, ",vector,2048,3072,2048");
    char *out = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&out, &len);
    size_t n = cf_ddt_gain_print(fp, t);
    fclose(fp);
    is_int(n, 2, "two datatype rows have a pack row to compare with");
    is_str(out,
           "datatype     np        bytes   blocks    t_type_us    t_pack_us    gain_%\n"
           "vector        2         1024        2        8.000       10.000      20.0\n"
           "indexed       2         1024        2       12.000        9.000     -33.3\n",
           "gain over the pack of the same layout, in percent");
    free(out);
    cf_table_free(t);
}

/* The table reader's row groups tell pack rows apart by the layout they packed. */
static void table_groups(void)
{
    const char *head = "pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,"
                       "t_max_us,t_med_us,t_ci95_us,bw_MiBps,stop,ddt_layout,ddt_size_bytes,"
                       "ddt_extent_bytes,ddt_stride_bytes\n";
    const char *rows_ok = "pingpong,2,64,pack,2,5,2,1,1,1,1,0,1,samples,vector,64,96,32\n"
                          "pingpong,2,64,pack,2,5,2,1,1,1,1,0,1,samples,indexed,64,96,32\n"
                          "pingpong,2,128,pack,2,5,2,1,1,1,1,0,1,samples,vector,128,192,64\n";
    const char *rows_dup = "pingpong,2,64,pack,2,5,2,1,1,1,1,0,1,samples,vector,64,96,32\n"
                           "pingpong,2,64,pack,2,5,2,1,1,1,1,0,1,samples,vector,64,96,32\n";
    char buf[2048];
    cf_table *t = NULL;
    cf_error e;
    cf_error_clear(&e);
    snprintf(buf, sizeof buf, "%s%s", head, rows_ok);
    int rc = cf_table_read_mem(buf, strlen(buf), "ok.csv", &t, &e);
    is_int(rc, 0, "pack rows of different layouts at one size are not duplicates");
    if (rc != 0)
        printf("#   %s\n", e.msg);
    cf_table_free(t);
    t = NULL;
    cf_error_clear(&e);
    snprintf(buf, sizeof buf, "%s%s", head, rows_dup);
    rc = cf_table_read_mem(buf, strlen(buf), "dup.csv", &t, &e);
    ok(rc != 0 && strstr(e.msg, "duplicate row") != NULL,
       "two pack rows of the same layout at one size are duplicates");
    cf_table_free(t);
}

int main(void)
{
    kinds();
    plans();
    refusals();
    sweeps();
    rows();
    gains();
    table_groups();
    return tap_done();
}
