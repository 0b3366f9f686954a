/* Unit tests of commfit import: every real file in tests/data/realdata imports with the
 * right rows, spot-checked against the text; made-up variants pin the documented
 * behaviour (cut tables, garbage inside tables, wrong column counts, zero times). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/import.h"
#include "tap.h"

static int nwarn;
static char lastwarn[2048];

static void warn_cb(void *ctx, const char *file, long line, const char *msg)
{
    (void)ctx;
    nwarn++;
    snprintf(lastwarn, sizeof lastwarn, "%s:%ld: %s", file, line, msg);
}

/* Imports text as the named file; NULL on failure with e filled. */
static cf_table *imp(cf_import_format f, const char *text, size_t len, const char *name,
                     int np, const char *pattern, int lenient, cf_error *e)
{
    cf_import_opts o = {.np = np, .pattern = pattern, .lenient = lenient, .warn = warn_cb};
    cf_import *im = cf_import_alloc(&o);
    cf_table *t = NULL;
    nwarn = 0;
    lastwarn[0] = '\0';
    cf_error_clear(e);
    if (cf_import_mem(im, f, text, len, name, e) != 0 || cf_import_finish(im, &t, e) != 0)
        t = NULL;
    cf_import_free(im);
    return t;
}

static cf_table *imps(cf_import_format f, const char *text, int np, int lenient, cf_error *e)
{
    return imp(f, text, strlen(text), "t.txt", np, NULL, lenient, e);
}

static int roundtrip(const cf_table *t);

static char *slurp(const char *name, size_t *len)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/realdata/%s", top ? top : "..", name);
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    *len = fread(b, 1, (size_t)n, fp);
    fclose(fp);
    return b;
}

static cf_table *real(cf_import_format f, const char *name, int np, int lenient, cf_error *e)
{
    size_t len = 0;
    char *b = slurp(name, &len);
    if (!ok(b != NULL, "read %s", name))
        return NULL;
    cf_table *t = imp(f, b, len, name, np, NULL, lenient, e);
    free(b);
    if (t != NULL)
        ok(roundtrip(t), "%s: the imported table reads back", name);
    return t;
}

/* The first row of pattern at bytes; NULL when absent. */
static const cf_row *find(const cf_table *t, const char *pattern, uint64_t bytes)
{
    for (size_t i = 0; t && i < t->n_rows; i++)
        if (strcmp(t->rows[i].pattern, pattern) == 0 && t->rows[i].bytes == bytes)
            return &t->rows[i];
    return NULL;
}

static size_t count(const cf_table *t, const char *pattern)
{
    size_t n = 0;
    for (size_t i = 0; t && i < t->n_rows; i++)
        n += pattern == NULL || strcmp(t->rows[i].pattern, pattern) == 0;
    return n;
}

/* Distinct values of the source column: the row groups. */
static size_t groups(const cf_table *t)
{
    size_t n = 0;
    for (size_t i = 0; t && i < t->n_rows; i++)
        n += i == 0 || strcmp(t->rows[i].extra, t->rows[i - 1].extra) != 0;
    return n;
}

static int all_np(const cf_table *t, int np)
{
    for (size_t i = 0; t && i < t->n_rows; i++)
        if (t->rows[i].np != np)
            return 0;
    return t != NULL;
}

/* The table as written reads back whole: the reader's rules hold (one row per size and
 * increasing sizes within a row group, among others). */
static int roundtrip(const cf_table *t)
{
    char path[] = "/tmp/commfit-test-import.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    close(fd);
    cf_error e;
    cf_table *back = NULL;
    int good = cf_table_write(path, t, &e) == 0 && cf_table_read(path, &back, &e) == 0 &&
               back->n_rows == t->n_rows;
    if (!good)
        printf("#   read back: %s:%ld: %s\n", e.file, e.line, e.msg);
    cf_table_free(back);
    unlink(path);
    return good;
}

#define ROW_T(t, p, b, tmin, tavg, tmax, what)                                                 \
    do {                                                                                       \
        const cf_row *r_ = find(t, p, b);                                                      \
        ok(r_ != NULL, "%s: a %s row at %llu bytes", what, p, (unsigned long long)(b));        \
        if (r_) {                                                                              \
            near(r_->t_min_us, tmin, 1e-12, "%s: %s %llu t_min", what, p,                      \
                 (unsigned long long)(b));                                                     \
            near(r_->t_avg_us, tavg, 1e-12, "%s: %s %llu t_avg", what, p,                      \
                 (unsigned long long)(b));                                                     \
            near(r_->t_max_us, tmax, 1e-12, "%s: %s %llu t_max", what, p,                      \
                 (unsigned long long)(b));                                                     \
        }                                                                                      \
    } while (0)

static void test_imb2021(void)
{
    cf_error e;
    cf_table *t = real(CF_IMPORT_IMB, "imb2021_mpich402_1node_np2_all.txt", 0, 0, &e);
    ok(t != NULL, "imb2021: imports (%s)", e.msg);
    if (t == NULL)
        return;
    is_int(t->n_rows, 423, "imb2021: 423 rows");
    is_int(groups(t), 19, "imb2021: 19 tables");
    ok(all_np(t, 2), "imb2021: np 2 everywhere");
    const char *pats[] = {"pingpong",  "pingping",   "sendrecv",       "exchange",
                          "allreduce", "reduce",     "reduce_local",   "reduce_scatter",
                          "allgather", "allgatherv", "gather",         "gatherv",
                          "scatter",   "scatterv",   "alltoall",       "alltoallv",
                          "bcast",     "barrier",    "reduce_scatter_block"};
    for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++)
        ok(count(t, pats[i]) > 0, "imb2021: has %s", pats[i]);
    is_int(count(t, "pingpong"), 24, "imb2021: 24 pingpong rows");
    is_int(count(t, "reduce_local"), 22, "imb2021: 22 reduce_local rows");
    is_int(count(t, "barrier"), 1, "imb2021: 1 barrier row");
    ROW_T(t, "pingpong", 4194304, 365.12, 365.12, 365.12, "imb2021");
    const cf_row *r = find(t, "pingpong", 4194304);
    if (r) {
        is_int(r->reps, 10, "imb2021: pingpong 4 MiB reps from #repetitions");
        is_int(r->samples, 1, "imb2021: samples 1");
        near(r->bw_MiBps, 11487.43 / 1.048576, 1e-12, "imb2021: Mbytes/sec (10^6) as MiB/s");
        near(r->t_med_us, 365.12, 1e-12, "imb2021: t_med = t_avg");
        ok(isnan(r->t_ci95_us), "imb2021: t_ci95 empty");
        is_str(r->datatype, "byte", "imb2021: pingpong datatype byte");
        is_str(r->extra, "imb2021_mpich402_1node_np2_all.txt:49", "imb2021: source file:line");
    }
    ROW_T(t, "sendrecv", 4194304, 404.20, 404.23, 404.25, "imb2021");
    r = find(t, "sendrecv", 4194304);
    if (r)
        near(r->bw_MiBps, 20750.90 / 1.048576, 1e-12, "imb2021: sendrecv bandwidth");
    ROW_T(t, "exchange", 2097152, 375.49, 375.51, 375.53, "imb2021");
    ROW_T(t, "allreduce", 0, 0.33, 0.55, 0.77, "imb2021");
    r = find(t, "allreduce", 4);
    if (r) {
        is_str(r->datatype, "float", "imb2021: allreduce datatype float");
        ok(isnan(r->bw_MiBps), "imb2021: collectives have no bandwidth");
    }
    ok(find(t, "allreduce", 1) == NULL, "imb2021: reductions go 0 -> 4 bytes");
    ROW_T(t, "reduce_scatter_block", 4194304, 1004.98, 1019.70, 1034.43, "imb2021");
    ROW_T(t, "barrier", 0, 0.75, 0.75, 0.75, "imb2021");
    ROW_T(t, "bcast", 1048576, 50.15, 50.24, 50.34, "imb2021");
    const char *s = cf_table_meta_get(t, "source_1");
    ok(s && strstr(s, "imb2021_mpich402_1node_np2_all.txt (IMB 2021.11, MPI 4.0, date Sun "
                      "Nov 22 03:43:28 2026, Mbytes/sec read as 10^6 bytes/s)"),
       "imb2021: source_1 records file, version, MPI version, date, unit (%s)", s ? s : "");
    is_str(cf_table_meta_get(t, "imported_from"), "imb", "imb2021: imported_from");
    ok(roundtrip(t), "imb2021: the table reads back");
    cf_table_free(t);
}

static void test_imb41(void)
{
    cf_error e;
    cf_table *t = real(CF_IMPORT_IMB, "imb41_gbrandino_juno_arm_internode_eth.txt", 0, 0, &e);
    ok(t != NULL, "imb41: imports (%s)", e.msg);
    if (t == NULL)
        return;
    is_int(t->n_rows, 378,
           "imb41: 378 rows (Reduce_scatter at 4 bytes: a vector of one float does not split over "
           "2 ranks)");
    is_int(groups(t), 17, "imb41: 17 tables");
    ok(all_np(t, 2), "imb41: np 2 everywhere");
    ROW_T(t, "pingpong", 4194304, 36946.39, 36946.39, 36946.39, "imb41");
    const cf_row *r = find(t, "pingpong", 4194304);
    if (r)
        near(r->bw_MiBps, 108.26, 1e-12, "imb41: Mbytes/sec is already 2^20 in IMB 4.1");
    ROW_T(t, "exchange", 4194304, 120376.99, 120458.15, 120539.31, "imb41");
    ROW_T(t, "allreduce", 0, 0.32, 0.33, 0.34, "imb41");
    ok(find(t, "allreduce", 4) != NULL && find(t, "allreduce", 2) == NULL,
       "imb41: reductions jump 0 -> 4 bytes");
    ok(count(t, "reduce_local") == 0, "imb41: no reduce_local in 4.1");
    /* IMB 4.1's Reduce_scatter #bytes is the whole vector: commfit's size is a rank's block. */
    ROW_T(t, "reduce_scatter", 2097152, 36764.50, 36776.16, 36787.82, "imb41 (4 MiB vector)");
    ok(find(t, "reduce_scatter", 4194304) == NULL && find(t, "reduce_scatter", 4) != NULL &&
           find(t, "reduce_scatter", 2) == NULL,
       "imb41: reduce_scatter sizes are the vector / 2, the one-float vector left out");
    const char *s = cf_table_meta_get(t, "source_1");
    ok(s && strstr(s, "(IMB 4.1, MPI 2.1, date Thu Jul 14 12:36:02 2016, Mbytes/sec read as "
                      "2^20 bytes/s)"),
       "imb41: the banner with 'Intel (R)' gives the version (%s)", s ? s : "");
    cf_table_free(t);
}

static void test_imb_stackhpc(void)
{
    cf_error e;
    cf_table *t = real(CF_IMPORT_IMB, "imb_stackhpc_ompi4_ib_pingpong.txt", 0, 0, &e);
    ok(t != NULL, "stackhpc: imports despite foreign first and last lines (%s)", e.msg);
    if (t == NULL)
        return;
    is_int(t->n_rows, 24, "stackhpc: 24 rows");
    is_int(count(t, "pingpong"), 24, "stackhpc: all pingpong");
    ROW_T(t, "pingpong", 1, 0.84, 0.84, 0.84, "stackhpc");
    const cf_row *r = find(t, "pingpong", 4194304);
    if (r)
        near(r->bw_MiBps, 11943.91 / 1.048576, 1e-12, "stackhpc: 2019 prints 10^6 bytes/s");
    const char *s = cf_table_meta_get(t, "source_1");
    ok(s && strstr(s, "IMB 2019 Update 5, MPI 3.1"), "stackhpc: version (%s)", s ? s : "");
    cf_table_free(t);
}

static void test_osu_real(void)
{
    cf_error e;
    cf_table *t = real(CF_IMPORT_OSU, "osu532_hpccofc_ib_latency_compute001.txt", 0, 0, &e);
    ok(t != NULL, "osu532: imports (%s)", e.msg);
    if (t) {
        is_int(t->n_rows, 24, "osu532: 24 rows");
        ok(all_np(t, 2), "osu532: np 2");
        ROW_T(t, "pingpong", 4194304, 355.08, 355.08, 355.08, "osu532");
        const cf_row *r = find(t, "pingpong", 1024);
        if (r) {
            near(r->bw_MiBps, 1024 / (1.048576 * 2.08), 1e-12, "osu532: latency bandwidth");
            is_int(r->reps, 0, "osu532: no Iterations column: reps empty");
        }
        ok(strstr(cf_table_meta_get(t, "source_1"), "(OSU 5.3.2)") != NULL, "osu532: version");
        cf_table_free(t);
    }

    t = real(CF_IMPORT_OSU, "osu562_stackhpc_alaska_hdr100ib_ompi4_alltoall.txt", 0, 0, &e);
    ok(t == NULL, "osu562 alltoall: refused without --np");
    is_int(e.line, 2, "osu562 alltoall: the error names the title's line");
    ok(strstr(e.msg, "does not state its process count") && strstr(e.msg, "--np"),
       "osu562 alltoall: the error says to give --np (%s)", e.msg);
    t = real(CF_IMPORT_OSU, "osu562_stackhpc_alaska_hdr100ib_ompi4_alltoall.txt", 64, 0, &e);
    ok(t != NULL, "osu562 alltoall: imports with --np 64 (%s)", e.msg);
    if (t) {
        is_int(t->n_rows, 21, "osu562 alltoall: 21 rows");
        ok(all_np(t, 64), "osu562 alltoall: np 64");
        ROW_T(t, "alltoall", 1048576, 122509.64, 122509.64, 122509.64, "osu562");
        ok(isnan(find(t, "alltoall", 1)->bw_MiBps), "osu562 alltoall: no bandwidth");
        cf_table_free(t);
    }

    t = real(CF_IMPORT_OSU, "osu562_stackhpc_alaska_hdr100ib_ompi4_mbw_mr_8pairs.txt", 0, 0, &e);
    ok(t != NULL, "mbw_mr: imports (%s)", e.msg);
    if (t) {
        is_int(t->n_rows, 23, "mbw_mr: 23 rows");
        ok(all_np(t, 16), "mbw_mr: 8 pairs are 16 processes");
        const cf_row *r = find(t, "mbw_mr", 4194304);
        ok(r != NULL, "mbw_mr: pattern mbw_mr");
        if (r) {
            near(r->bw_MiBps, 12392.77 / 1.048576, 1e-12, "mbw_mr: MB/s (10^6) as MiB/s");
            near(r->t_avg_us, 1e6 / 2954.67, 1e-12, "mbw_mr: time = 1 / message rate");
            ok(r->t_min_us == r->t_avg_us && r->t_max_us == r->t_avg_us, "mbw_mr: one time");
        }
        ok(strstr(cf_table_meta_get(t, "source_1"), "8 pairs") != NULL, "mbw_mr: pairs noted");
        ok(cf_table_meta_get(t, "time_from_bandwidth") != NULL, "mbw_mr: says times are "
                                                                 "implied");
        cf_table_free(t);
    }

    const char *osu58 = "osu58_convergedcomputing_aws_hpc6a_efa_32n_lat_bw_allreduce.txt";
    t = real(CF_IMPORT_OSU, osu58, 0, 0, &e);
    ok(t == NULL && e.line == 1460, "osu58: the allreduce table needs --np (line %ld)", e.line);
    t = real(CF_IMPORT_OSU, osu58, 0, 1, &e);
    ok(t != NULL, "osu58 --lenient: keeps the other tables");
    if (t) {
        is_int(t->n_rows, 28 * 24 + 28 * 23, "osu58 --lenient: 28 latency and 28 bw tables");
        is_int(nwarn, 1, "osu58 --lenient: one warning");
        ok(strstr(lastwarn, ":1460: ") != NULL, "osu58 --lenient: warns at line 1460 (%s)",
           lastwarn);
        cf_table_free(t);
    }
    t = real(CF_IMPORT_OSU, osu58, 3072, 0, &e);
    ok(t != NULL, "osu58: imports with --np 3072 (%s)", e.msg);
    if (t) {
        is_int(t->n_rows, 1335, "osu58: 1335 rows");
        is_int(groups(t), 57, "osu58: 28 + 28 + 1 row groups");
        is_int(count(t, "pingpong"), 28 * 24, "osu58: 28 latency tables kept");
        is_int(count(t, "bw"), 28 * 23, "osu58: 28 bandwidth tables kept");
        is_int(count(t, "allreduce"), 19, "osu58: 19 allreduce rows");
        ok(roundtrip(t), "osu58: the table of 28 alike latency groups reads back");
        ROW_T(t, "pingpong", 0, 15.62, 15.62, 15.62, "osu58");
        const cf_row *r = find(t, "bw", 4194304);
        if (r) {
            near(r->t_avg_us, 4194304 / 12037.55, 1e-12, "osu58: bw time = bytes / MB/s");
            near(r->bw_MiBps, 12037.55 / 1.048576, 1e-12, "osu58: bw in MiB/s");
            is_int(r->np, 2, "osu58: bw np 2");
        }
        r = find(t, "allreduce", 1048576);
        if (r) {
            near(r->t_avg_us, 7572.44, 1e-12, "osu58: allreduce value");
            is_int(r->np, 3072, "osu58: allreduce np from --np");
            is_str(r->datatype, "float", "osu58: allreduce datatype float");
            is_str(r->extra, "osu58_convergedcomputing_aws_hpc6a_efa_32n_lat_bw_allreduce.txt:1460",
                   "osu58: allreduce source");
        }
        cf_table_free(t);
    }

    t = real(CF_IMPORT_OSU, "osu74_mpich402_1node_np2_alltoall_full.txt", 2, 0, &e);
    ok(t != NULL, "osu74: imports (%s)", e.msg);
    if (t) {
        is_int(t->n_rows, 21, "osu74: 21 rows");
        ROW_T(t, "alltoall", 1048576, 163.11, 163.26, 163.41, "osu74");
        is_int(find(t, "alltoall", 8192)->reps, 1000, "osu74: reps from Iterations");
        is_int(find(t, "alltoall", 16384)->reps, 100, "osu74: reps from Iterations (100)");
        is_str(find(t, "alltoall", 1)->datatype, "byte", "osu74: MPI_CHAR is byte");
        cf_table_free(t);
    }
}

static const char imb_multi[] =
    "+ srun -n 4 ./IMB-MPI1 -npmin 2 Allreduce PingPong Uniband\r\n"
    "#---------------------------------------------------\r\n"
    "#    Intel (R) MPI Benchmark Suite V3.2.4, MPI-1 part    \r\n"
    "#---------------------------------------------------\r\n"
    "# Date                  : Mon Jan  1 00:00:00 2012\r\n"
    "# MPI Version           : 2.2\r\n"
    "# Maximum message length in bytes:   8\r\n"
    "# MPI_Datatype for reductions    :   MPI_DOUBLE \r\n"
    "\r\n"
    "#---------------------------------------------------\r\n"
    "# Benchmarking PingPong \r\n"
    "# #processes = 2 \r\n"
    "# ( 2 additional processes waiting in MPI_Barrier)\r\n"
    "#---------------------------------------------------\r\n"
    "       #bytes #repetitions      t[usec]   Mbytes/sec\r\n"
    "            0         1000         1.00         0.00   \r\n"
    "            8         1000         2.00         3.81\r\n"
    "\r\n"
    "srun: warning: a launcher line between tables\r\n"
    "#----------------------------------------------------------------\r\n"
    "# Benchmarking Allreduce \r\n"
    "# #processes = 2 \r\n"
    "# ( 2 additional processes waiting in MPI_Barrier)\r\n"
    "#----------------------------------------------------------------\r\n"
    "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\r\n"
    "            0         1000         0.00         0.01         0.00\r\n"
    "            8         1000         0.00         0.04         0.02\r\n"
    "\r\n"
    "#----------------------------------------------------------------\r\n"
    "# Benchmarking Allreduce \r\n"
    "# #processes = 4 \r\n"
    "#----------------------------------------------------------------\r\n"
    "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\r\n"
    "            0         1000         0.10         0.30         0.20\r\n"
    "            8         1000         1.10         1.30         1.20\r\n"
    "\r\n"
    "#---------------------------------------------------\r\n"
    "# Benchmarking Uniband \r\n"
    "# #processes = 4 \r\n"
    "#---------------------------------------------------\r\n"
    "       #bytes #repetitions   Mbytes/sec      Msg/sec\r\n"
    "            0         1000         0.00      2000000\r\n"
    "            8         1000        16.00      2000000\r\n"
    "\r\n"
    "\r\n"
    "# All processes entering MPI_Finalize\r\n"
    "job done\r\n";

static void test_imb_variants(void)
{
    cf_error e;
    cf_table *t = imps(CF_IMPORT_IMB, imb_multi, 0, 0, &e);
    ok(t != NULL, "imb variants: CRLF, trailing blanks, -npmin, 3.x banner (%s)", e.msg);
    if (t == NULL)
        return;
    is_int(t->n_rows, 2 + 1 + 2 + 2, "imb variants: rows, one of zero time left out");
    is_int(nwarn, 1, "imb variants: one warning for the zero time");
    ok(strstr(lastwarn, "t.txt:26: Allreduce: 1 row left out") != NULL,
       "imb variants: the warning names the row (%s)", lastwarn);
    ROW_T(t, "pingpong", 8, 2.0, 2.0, 2.0, "imb variants");
    is_int(find(t, "pingpong", 8)->np, 2, "imb variants: pingpong np 2 among 4 processes");
    const cf_row *r = find(t, "allreduce", 8);
    ok(r && r->np == 2 && fabs(r->t_min_us - 0.0025) < 1e-15,
       "imb variants: t_min printed 0.00 is 0.0025 (half of the rounding interval)");
    ok(r && strcmp(r->datatype, "double") == 0, "imb variants: reductions datatype from the "
                                                 "header");
    size_t np4 = 0;
    for (size_t i = 0; i < t->n_rows; i++)
        np4 += strcmp(t->rows[i].pattern, "allreduce") == 0 && t->rows[i].np == 4;
    is_int(np4, 2, "imb variants: the same benchmark at a second process count");
    r = find(t, "uniband", 8);
    ok(r != NULL, "imb variants: Uniband kept under its own name");
    if (r) {
        near(r->t_avg_us, 0.5, 1e-12, "imb variants: Uniband time = 1 / Msg/sec");
        near(r->bw_MiBps, 16.0 / 1.048576, 1e-12, "imb variants: Uniband MB/s (10^6)");
        is_int(r->np, 4, "imb variants: Uniband np");
    }
    r = find(t, "uniband", 0);
    ok(r && fabs(r->t_avg_us - 0.5) < 1e-12, "imb variants: 0-byte Uniband row has a time");
    const char *s = cf_table_meta_get(t, "source_1");
    ok(s && strstr(s, "(IMB 3.2.4, MPI 2.2, date Mon Jan  1 00:00:00 2012"), "imb variants: "
                                                                               "3.x banner (%s)",
       s ? s : "");
    is_str(cf_table_meta_get(t, "rows_left_out"), "1 with a time printed as zero, 0 without a "
                                                  "time",
           "imb variants: rows_left_out metadata");
    cf_table_free(t);

    /* The same file with LF line endings gives the same rows. */
    char *lf = strdup(imb_multi), *w = lf;
    for (const char *p = imb_multi; *p; p++)
        if (*p != '\r')
            *w++ = *p;
    *w = '\0';
    cf_table *t2 = imps(CF_IMPORT_IMB, lf, 0, 0, &e);
    t = imps(CF_IMPORT_IMB, imb_multi, 0, 0, &e);
    int same = t && t2 && t->n_rows == t2->n_rows;
    for (size_t i = 0; same && i < t->n_rows; i++)
        same = t->rows[i].t_avg_us == t2->rows[i].t_avg_us && t->rows[i].bytes == t2->rows[i].bytes;
    ok(same, "imb variants: CRLF and LF give the same rows");
    cf_table_free(t);
    cf_table_free(t2);

    /* Cut off: at every line boundary inside a table and in the middle of a row. */
    const char *cut_at = strstr(lf, "            8         1000         1.10");
    size_t cut = (size_t)(cut_at - lf);
    t = imp(CF_IMPORT_IMB, lf, cut, "cut.txt", 0, NULL, 0, &e);
    ok(t == NULL, "imb cut between rows: refused");
    is_int(e.line, 34, "imb cut between rows: at the last line");
    ok(strstr(e.msg, "the file ends inside the Allreduce table, at #bytes 0 before the maximum "
                     "8 the header states: it is cut off") != NULL,
       "imb cut between rows: says so (%s)", e.msg);
    t = imp(CF_IMPORT_IMB, lf, cut + 25, "cut.txt", 0, NULL, 0, &e);
    ok(t == NULL && strstr(e.msg, "the file ends inside a row (no end of line)"),
       "imb cut inside a row: refused (%s)", e.msg);
    t = imp(CF_IMPORT_IMB, lf, cut + 25, "cut.txt", 0, NULL, 1, &e);
    ok(t != NULL && t->n_rows == 3 && nwarn == 2,
       "imb cut --lenient: the complete tables are kept, with a warning");
    cf_table_free(t);
    t = imp(CF_IMPORT_IMB, lf, (size_t)(strstr(lf, "# Benchmarking Uniband") - lf) + 40,
            "cut.txt", 0, NULL, 0, &e);
    ok(t == NULL && strstr(e.msg, "the file ends before the rows of the Uniband table"),
       "imb cut in the header block: refused (%s)", e.msg);
    free(lf);
}

static void test_imb_errors(void)
{
    cf_error e;
    const char *head = "# Benchmarking PingPong\n# #processes = 2\n"
                       "       #bytes #repetitions      t[usec]   Mbytes/sec\n"
                       "            0         1000         1.00         0.00\n";
    char buf[2048];

    snprintf(buf, sizeof buf, "%sslurmstepd: error: garbage\n      1  1000  1.00  1.00\n\n", head);
    cf_table *t = imps(CF_IMPORT_IMB, buf, 0, 0, &e);
    ok(t == NULL && e.line == 5, "imb garbage inside a table: refused at its line");
    is_str(e.msg,
           "expected a row of 4 numbers (#bytes #repetitions t[usec] Mbytes/sec) or a blank "
           "line ending the PingPong table, got 3 fields: 'slurmstepd: error: garbage'",
           "imb garbage inside a table: message");

    snprintf(buf, sizeof buf, "%s            1         1000         1.00\n\n", head);
    t = imps(CF_IMPORT_IMB, buf, 0, 0, &e);
    ok(t == NULL && e.line == 5 && strstr(e.msg, "got 3 fields"),
       "imb wrong column count: refused (%s)", e.msg);

    snprintf(buf, sizeof buf, "%s            1         1000         x.00   1.0\n\n", head);
    t = imps(CF_IMPORT_IMB, buf, 0, 0, &e);
    is_str(e.msg, "column 3 (a time or rate) of the PingPong table: expected a non-negative "
                  "number, got 'x.00'",
           "imb not a number: message");

    snprintf(buf, sizeof buf,
             "%s\n# Benchmarking Bcast\n# #processes = 2\nwarning: lost\n  #bytes "
             "#repetitions t_min[usec] t_max[usec] t_avg[usec]\n 0 10 1.0 1.0 1.0\n\n",
             head);
    t = imps(CF_IMPORT_IMB, buf, 0, 0, &e);
    ok(t == NULL && e.line == 8 && strstr(e.msg, "expected the column header of the Bcast table"),
       "imb garbage in a header block: refused (%s)", e.msg);
    t = imps(CF_IMPORT_IMB, buf, 0, 1, &e);
    ok(t != NULL && t->n_rows == 1 && nwarn == 1 && strstr(lastwarn, ":8: "),
       "imb --lenient: the broken table is left out with a warning (%s)", lastwarn);
    cf_table_free(t);

    t = imps(CF_IMPORT_IMB, "# Benchmarking Reduce\n#----\n  #bytes #repetitions t_min[usec] "
                            "t_max[usec] t_avg[usec]\n 0 10 1.0 1.0 1.0\n\n",
             0, 0, &e);
    ok(t == NULL && e.line == 1 && strstr(e.msg, "does not state its process count"),
       "imb missing #processes: refused (%s)", e.msg);
    t = imps(CF_IMPORT_IMB, "# Benchmarking Reduce\n#----\n  #bytes #repetitions t_min[usec] "
                            "t_max[usec] t_avg[usec]\n 0 10 1.0 1.0 1.0\n\n",
             8, 0, &e);
    ok(t != NULL && t->rows[0].np == 8, "imb missing #processes: --np supplies it");
    cf_table_free(t);

    t = imps(CF_IMPORT_IMB, "# Benchmarking Reduce\n# #processes = 2\n  #bytes #repetitions "
                            "t_min[usec] t_max[usec] t_avg[usec]\n 0 10 3.0 1.0 2.0\n\n",
             0, 0, &e);
    ok(t == NULL && e.line == 4 && strstr(e.msg, "t_min_us <= t_avg_us <= t_max_us"),
       "imb disordered times: refused (%s)", e.msg);

    t = imps(CF_IMPORT_IMB, "hello\nworld\n", 0, 0, &e);
    ok(t == NULL, "imb: not IMB output refused");
    is_str(e.msg, "not IMB output: no '# Benchmarking NAME' table in 2 lines", "imb: neither");
    is_int(e.line, 1, "imb: neither names line 1");
    t = imps(CF_IMPORT_IMB, "\n# OSU MPI Latency Test v5.8\n# Size  Latency (us)\n0 1.0\n", 0, 0,
             &e);
    ok(t == NULL && e.line == 2 && strstr(e.msg, "'commfit import osu'"),
       "imb: OSU output is pointed to 'import osu' (%s)", e.msg);
    t = imp(CF_IMPORT_IMB, "", 0, "t.txt", 0, NULL, 0, &e);
    is_str(e.msg, "empty file: expected IMB output", "imb: empty file");
    t = imp(CF_IMPORT_IMB, "# Benchmarking\0x", 16, "t.txt", 0, NULL, 0, &e);
    ok(t == NULL && strstr(e.msg, "NUL byte"), "imb: binary refused");

    /* --pattern renames one benchmark and refuses to merge different ones. */
    snprintf(buf, sizeof buf, "%s\n", head);
    t = imp(CF_IMPORT_IMB, buf, strlen(buf), "t.txt", 0, "mypp", 0, &e);
    ok(t && strcmp(t->rows[0].pattern, "mypp") == 0, "imb --pattern renames");
    cf_table_free(t);
    snprintf(buf, sizeof buf, "%s\n%s\n", head, head);
    t = imp(CF_IMPORT_IMB, buf, strlen(buf), "t.txt", 0, "mypp", 0, &e);
    ok(t != NULL && t->n_rows == 2, "imb --pattern: one benchmark at twice is fine");
    cf_table_free(t);
    snprintf(buf, sizeof buf, "%s\n# Benchmarking PingPing\n# #processes = 2\n  #bytes "
                              "#repetitions t[usec] Mbytes/sec\n 0 10 1.0 0.0\n\n",
             head);
    t = imp(CF_IMPORT_IMB, buf, strlen(buf), "t.txt", 0, "mypp", 0, &e);
    ok(t == NULL && e.code == CF_EXIT_USAGE && strstr(e.msg, "'PingPong' (t.txt:1) and 'PingPing'"),
       "imb --pattern over two benchmarks: usage error (%s)", e.msg);
}

static void test_osu_variants(void)
{
    cf_error e;
    const char *many =
        "Start time: 1\n"
        "# OSU MPI-CUDA Latency Test v5.6\r\n"
        "# Send Buffer on DEVICE (D) and Receive Buffer on DEVICE (D)\r\n"
        "# Size          Latency (us)\r\n"
        "0                       2.00\r\n"
        "8                       2.50\r\n"
        "iteration 1 done\n"
        "\n"
        "# OSU MPI Bi-Directional Bandwidth Test v5.8\n"
        "# Size      Bandwidth (MB/s)\n"
        "0                       0.00\n"
        "1                       2.00\n"
        "# OSU MPI Barrier Latency Test v7.1\n"
        "# Avg Latency(us)\n"
        "             1.23\n"
        "# OSU MPI Reduce Latency Test v7.1\n"
        "# Datatype: MPI_INT.\n"
        "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations  "
        "Validation\n"
        "4                       0.50              0.00              0.90        1000  Pass\n"
        "8                       0.00              0.00              0.00        1000  Pass\n"
        "# OSU MPI Non-blocking Allreduce Latency Test v5.8\n"
        "# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait\n"
        "\n"
        "# Size           Overall(us)       Compute(us)    Pure Comm.(us)        Overlap(%)\n"
        "4                      10.00              5.00              8.00             60.00\n"
        "# OSU MPI_Put Latency Test v5.8\n"
        "# Window creation: MPI_Win_allocate\n"
        "# Synchronization: MPI_Win_flush\n"
        "# Size          Latency (us)\n"
        "1                       1.50\n"
        "End\n";
    cf_table *t = imps(CF_IMPORT_OSU, many, 4, 0, &e);
    ok(t != NULL, "osu variants: import (%s)", e.msg);
    if (t == NULL)
        return;
    is_int(t->n_rows, 2 + 1 + 1 + 1 + 1 + 1, "osu variants: rows");
    /* Buffers on the device: a pattern of their own (host to host is plain pingpong). */
    ROW_T(t, "pingpong_dd", 8, 2.5, 2.5, 2.5, "osu variants (MPI-CUDA, device buffers)");
    ROW_T(t, "bibw", 1, 0.5, 0.5, 0.5, "osu variants (bibw time = bytes / MB/s)");
    near(find(t, "bibw", 1)->bw_MiBps, 2 / 1.048576, 1e-12, "osu variants: bibw MiB/s");
    is_int(find(t, "bibw", 1)->np, 2, "osu variants: bibw np 2");
    ROW_T(t, "barrier", 0, 1.23, 1.23, 1.23, "osu variants (barrier)");
    is_int(find(t, "barrier", 0)->np, 4, "osu variants: barrier np from --np");
    ROW_T(t, "reduce", 4, 0.0025, 0.5, 0.9, "osu variants (zero t_min)");
    is_str(find(t, "reduce", 4)->datatype, "int", "osu variants: # Datatype: MPI_INT.");
    ROW_T(t, "iallreduce", 4, 8.0, 8.0, 8.0, "osu variants (non-blocking: pure comm.)");
    ROW_T(t, "put_lat", 1, 1.5, 1.5, 1.5, "osu variants (one-sided)");
    is_int(nwarn, 2, "osu variants: warnings for the zero time and the 0-byte bandwidth");
    ok(strstr(cf_table_meta_get(t, "source_1"), "OSU MPI-CUDA 5.6, OSU 5.8, OSU 7.1") != NULL,
       "osu variants: versions noted (%s)", cf_table_meta_get(t, "source_1"));
    is_str(find(t, "pingpong_dd", 0)->extra, "t.txt:2",
           "osu variants: source of the first table");
    is_str(find(t, "put_lat", 1)->extra, "t.txt:26", "osu variants: source of the last table");
    cf_table_free(t);
}

/* osu_reduce_scatter's size is the whole vector: rows get each rank's block. */
static void test_osu_reduce_scatter(void)
{
    cf_error e;
    const char *src = "# OSU MPI Reduce_scatter Latency Test v5.8\n"
                      "# Size       Avg Latency(us)\n"
                      "4                       1.00\n"
                      "16                      2.00\n"
                      "64                      3.00\n";
    cf_table *t = imps(CF_IMPORT_OSU, src, 4, 0, &e);
    ok(t != NULL, "osu reduce_scatter: import (%s)", e.msg);
    if (t == NULL)
        return;
    is_int(t->n_rows, 2, "osu reduce_scatter: the 4-byte vector (one float, 4 ranks) left out");
    ROW_T(t, "reduce_scatter", 4, 2.0, 2.0, 2.0, "osu reduce_scatter (16-byte vector / 4)");
    ROW_T(t, "reduce_scatter", 16, 3.0, 3.0, 3.0, "osu reduce_scatter (64-byte vector / 4)");
    cf_table_free(t);
}

static void test_osu_errors(void)
{
    cf_error e;
    const char *lat = "# OSU MPI Latency Test v5.8\n# Size          Latency (us)\n";
    char buf[2048];
    snprintf(buf, sizeof buf, "%s0 1.0\n1 1.1\nlauncher: node lost\n2 1.2\n4 1.3\n", lat);
    cf_table *t = imps(CF_IMPORT_OSU, buf, 0, 0, &e);
    ok(t == NULL && e.line == 5, "osu garbage inside a table: refused at its line");
    is_str(e.msg, "'launcher: node lost' interrupts the OSU Latency table (its rows go on at "
                  "line 6)",
           "osu garbage inside a table: message");
    t = imps(CF_IMPORT_OSU, buf, 0, 1, &e);
    ok(t == NULL && nwarn == 1, "osu garbage --lenient: the broken table is left out");
    snprintf(buf, sizeof buf, "%s0 1.0\n1 1.1\nfree text\n%s2 1.2\n", lat, lat);
    t = imps(CF_IMPORT_OSU, buf, 0, 0, &e);
    ok(t != NULL && t->n_rows == 3 && groups(t) == 2, "osu free text between tables is fine");
    cf_table_free(t);
    snprintf(buf, sizeof buf, "# OSU benchmarks run by job 42 on 4 nodes\n%s0 1.0\n", lat);
    t = imps(CF_IMPORT_OSU, buf, 0, 0, &e);
    ok(t != NULL && t->n_rows == 1, "osu: a '# OSU' line that is no title is free text (%s)",
       e.msg);
    cf_table_free(t);
    snprintf(buf, sizeof buf, "%s0 1.0\n1 1.1 7.0\n", lat);
    t = imps(CF_IMPORT_OSU, buf, 0, 0, &e);
    ok(t == NULL && e.line == 4, "osu wrong column count: refused at its line");
    is_str(e.msg, "expected 2 columns (Size          Latency (us)) in a row of the OSU Latency "
                  "table, got 3: '1 1.1 7.0'",
           "osu wrong column count: message");
    snprintf(buf, sizeof buf, "%s0 1.0\n1 1.", lat);
    t = imps(CF_IMPORT_OSU, buf, 0, 0, &e);
    ok(t == NULL && e.line == 4 && strstr(e.msg, "the file ends inside a row"),
       "osu cut inside a row: refused (%s)", e.msg);
    snprintf(buf, sizeof buf, "%s0 1.0\n%s", lat, lat);
    t = imps(CF_IMPORT_OSU, buf, 0, 0, &e);
    ok(t == NULL && e.line == 4 && strstr(e.msg, "has a column header but no rows"),
       "osu table without rows: refused (%s)", e.msg);
    t = imps(CF_IMPORT_OSU, "# OSU MPI Latency Test v5.8\n", 0, 0, &e);
    ok(t == NULL && e.line == 1 && strstr(e.msg, "cut off"), "osu title only: cut off (%s)",
       e.msg);
    t = imps(CF_IMPORT_OSU, "# OSU MPI Latency Test v5.8\nsomething\n", 0, 0, &e);
    ok(t == NULL && e.line == 2 && strstr(e.msg, "expected the column header"),
       "osu no header: refused (%s)", e.msg);
    t = imps(CF_IMPORT_OSU, "# OSU MPI Frobnicate Test v7.0\n# Size  Latency (us)\n1 2.0\n", 0,
             0, &e);
    ok(t == NULL && e.line == 1 && strstr(e.msg, "unknown OSU test 'MPI Frobnicate'"),
       "osu unknown test: refused (%s)", e.msg);
    const char *frob = "# OSU MPI Frobnicate Test v7.0\n# Size  Latency (us)\n1 2.0\n";
    t = imp(CF_IMPORT_OSU, frob, strlen(frob), "t.txt", 4, "frob", 0, &e);
    ok(t != NULL && t->n_rows == 1 && strcmp(t->rows[0].pattern, "frob") == 0 &&
           t->rows[0].np == 4,
       "osu unknown test: --pattern and --np import it");
    cf_table_free(t);
    t = imps(CF_IMPORT_OSU, "nothing here\n", 0, 0, &e);
    is_str(e.msg, "not OSU output: no '# OSU MPI ... Test' title in 1 line", "osu: neither");
    size_t len = 0;
    char *b = slurp("imb_stackhpc_ompi4_ib_pingpong.txt", &len);
    t = imp(CF_IMPORT_OSU, b, len, "x.txt", 0, NULL, 0, &e);
    ok(t == NULL && e.line == 3 && strstr(e.msg, "'commfit import imb'"),
       "osu: IMB output is pointed to 'import imb' (%ld: %s)", e.line, e.msg);
    free(b);
}

static void test_sizes_and_sources(void)
{
    cf_error e;
    const char *dup = "# OSU MPI Latency Test v5.8\n# Size  Latency (us)\n0 1.0\n4 1.1\n4 1.2\n";
    cf_table *t = imps(CF_IMPORT_OSU, dup, 0, 0, &e);
    ok(t == NULL && e.line == 5, "a size twice in a table: refused at the second");
    is_str(e.msg, "a second row of 4 bytes (the first at line 4): expected the sizes of the "
                  "Latency table to increase",
           "a size twice in a table: message");
    const char *down = "# OSU MPI Latency Test v5.8\n# Size  Latency (us)\n0 1.0\n8 1.1\n4 1.2\n";
    t = imps(CF_IMPORT_OSU, down, 0, 0, &e);
    is_str(e.msg, "a row of 4 bytes after one of 8 (line 4): expected the sizes of the "
                  "Latency table to increase",
           "sizes going down: message");

    /* The same base name twice (two runs' IMB-MPI1.out): the row groups stay apart. */
    cf_import_opts o = {.warn = warn_cb};
    cf_import *im = cf_import_alloc(&o);
    const char *one = "# OSU MPI Latency Test v5.8\n# Size  Latency (us)\n0 1.0\n4 1.1\n";
    int rc = cf_import_mem(im, CF_IMPORT_OSU, one, strlen(one), "run1/lat.txt", &e) ||
             cf_import_mem(im, CF_IMPORT_OSU, one, strlen(one), "run2/lat.txt", &e) ||
             cf_import_mem(im, CF_IMPORT_OSU, one, strlen(one), "run2/lat.txt", &e) ||
             cf_import_finish(im, &t, &e);
    ok(rc == 0 && t->n_rows == 6, "same base name: imports");
    if (rc == 0) {
        is_str(t->rows[0].extra, "lat.txt:1", "same base name: the first by its base name");
        is_str(t->rows[2].extra, "run2/lat.txt:1", "same base name: the second by its path");
        is_str(t->rows[4].extra, "run2/lat.txt#2:1", "same file again: numbered");
        is_str(cf_table_meta_get(t, "source_2"), "run2/lat.txt (OSU 5.8)",
               "same base name: source_2");
        ok(roundtrip(t), "same base name: the table reads back");
        cf_table_free(t);
    }
    cf_import_free(im);
}

static void test_helpers(void)
{
    double v;
    int d;
    ok(cf_import_number("0.00", 4, &v, &d) == 0 && v == 0 && d == 2, "number: 0.00");
    ok(cf_import_number("12345.678", 9, &v, &d) == 0 && v == 12345.678 && d == 3,
       "number: exact");
    ok(cf_import_number("5e-3", 4, &v, &d) == 0 && v == 0.005, "number: exponent");
    ok(cf_import_number("1.2.3", 5, &v, &d) != 0, "number: refuses 1.2.3");
    ok(cf_import_number("nan", 3, &v, &d) != 0, "number: refuses nan");
    ok(cf_import_number(".", 1, &v, &d) != 0, "number: refuses .");
    ok(cf_import_number("1e999", 5, &v, &d) != 0, "number: refuses overflow");
    char *o = cf_import_default_output("some/dir/run.1.txt");
    is_str(o, "data/run.1.csv", "default output: basename without the last extension");
    free(o);
    o = cf_import_default_output("plain");
    is_str(o, "data/plain.csv", "default output: no extension");
    free(o);
}

/* The table writer formats times itself for speed: it must write what "%.10g" writes. */
static void test_writer(void)
{
    cf_table *t = cf_table_alloc();
    cf_row r;
    cf_row_init(&r);
    strcpy(r.pattern, "pingpong");
    strcpy(r.datatype, "byte");
    r.np = 2;
    char *buf = NULL;
    size_t len = 0;
    uint64_t state = 42;
    long bad = 0, n = 0;
    for (int i = 0; i < 300000; i++) {
        /* xorshift: doubles across the fast path's range and beyond it, printed values
         * with few decimals (the common case, near rounding ties) and random bits. */
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        double v;
        int kind = i % 4;
        if (kind == 0)
            v = ldexp((double)(state >> 11), -53) * pow(10, (int)(state % 20) - 7);
        else if (kind == 1)
            v = (double)(state % 100000000) / pow(10, (int)(state >> 60) % 9);
        else if (kind == 2)
            v = (double)(state % 20000000000ull) / 1e10 * pow(10, (int)(state >> 58) % 15 - 5);
        else {
            uint64_t bits = state & 0x7fefffffffffffffull;
            memcpy(&v, &bits, sizeof v);
        }
        double w = i % 5 == 0 ? v * 3 : i % 7 == 0 ? -0.0 : v;
        r.t_min_us = r.t_avg_us = r.t_med_us = v;
        r.t_max_us = w;
        r.bw_MiBps = i % 3 ? v : NAN;
        r.bytes = state;
        r.reps = (long)(state % 1000);
        FILE *fp = open_memstream(&buf, &len);
        cf_table_write_row(fp, t, &r);
        fclose(fp);
        char want[512];
        int k = snprintf(want, sizeof want, "pingpong,2,%llu,byte,,", (unsigned long long)r.bytes);
        if (r.reps > 0)
            k += snprintf(want + k, sizeof want - (size_t)k, "%ld", r.reps);
        k += snprintf(want + k, sizeof want - (size_t)k, ",,%.10g,%.10g,%.10g,%.10g,,", v, v, w, v);
        if (i % 3)
            k += snprintf(want + k, sizeof want - (size_t)k, "%.10g", v);
        snprintf(want + k, sizeof want - (size_t)k, "\n");
        if (strcmp(buf, want) != 0 && bad++ < 5)
            printf("# got  %s# want %s", buf, want);
        n++;
        free(buf);
        buf = NULL;
    }
    is_int(bad, 0, "table writer: %ld rows written as printf writes them", n);
    const double edge[] = {1e-4, 0.0001000000000000001, 9.9999999995e-5, 9.99999999949, 9.99999999951,
                           9999999999.4, 9999999999.6, 1e10, 0.3, 0.31, 365.12, 0.0025, 0.005,
                           19789.600371551514, 1, 100, 1000000000, 0.5, 0};
    bad = 0;
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        r.t_min_us = r.t_avg_us = r.t_max_us = r.t_med_us = r.bw_MiBps = edge[i];
        r.bytes = 0;
        r.reps = 0;
        FILE *fp = open_memstream(&buf, &len);
        cf_table_write_row(fp, t, &r);
        fclose(fp);
        char want[512];
        double v = edge[i];
        snprintf(want, sizeof want, "pingpong,2,0,byte,,,,%.10g,%.10g,%.10g,%.10g,,%.10g\n", v, v,
                 v, v, v);
        if (strcmp(buf, want) != 0 && bad++ < 5)
            printf("# got  %s# want %s", buf, want);
        free(buf);
        buf = NULL;
    }
    is_int(bad, 0, "table writer: boundary values written as printf writes them");
    cf_table_free(t);
}

int main(void)
{
    test_imb2021();
    test_imb41();
    test_imb_stackhpc();
    test_osu_real();
    test_imb_variants();
    test_imb_errors();
    test_osu_variants();
    test_osu_reduce_scatter();
    test_osu_errors();
    test_sizes_and_sources();
    test_helpers();
    test_writer();
    return tap_done();
}
