/* The timing table: round trips, tolerance of extra columns, and every refusal with its
 * file:line message. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"
#include "base/table.h"
#include "tap.h"

static const char *HEADER = "pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,"
                            "t_max_us,t_med_us,t_ci95_us,bw_MiBps\n";

static cf_table *parse(const char *text, cf_error *e)
{
    cf_table *t = NULL;
    cf_error_clear(e);
    if (cf_table_read_mem(text, strlen(text), "t.csv", &t, e) != 0)
        return NULL;
    return t;
}

/* A table made of HEADER and one data line must be refused with this message. */
static void refuses_row(const char *row, const char *msg)
{
    char text[2048];
    snprintf(text, sizeof text, "# schema: 1\n%s%s\n", HEADER, row);
    cf_error e;
    cf_table *t = parse(text, &e);
    ok(t == NULL && e.code == CF_EXIT_DATA, "row '%s' is refused", row);
    is_str(e.file, "t.csv", "the message names the file");
    is_int(e.line, 3, "the message names line 3");
    is_str(e.msg, msg, "the message says what was expected");
    cf_table_free(t);
}

static void refuses_text(const char *text, long line, const char *msg)
{
    cf_error e;
    cf_table *t = parse(text, &e);
    ok(t == NULL && e.code == CF_EXIT_DATA, "table refused: %s", msg);
    is_int(e.line, line, "at line %ld", line);
    is_str(e.msg, msg, "message");
    cf_table_free(t);
}

static void round_trip(void)
{
    cf_table *t = cf_table_alloc();
    cf_table_meta_set(t, "commfit", "0.1.0");
    cf_table_meta_set(t, "command", "commfit measure\n--np 2");
    cf_row r;
    cf_row_init(&r);
    strcpy(r.pattern, "pingpong");
    strcpy(r.datatype, "byte");
    r.np = 2;
    r.bytes = 1048576;
    r.reps = 40;
    r.samples = 5;
    r.t_min_us = 101.25;
    r.t_avg_us = 102.5;
    r.t_max_us = 103.75;
    r.t_med_us = 102.4;
    r.t_ci95_us = 0.8;
    r.bw_MiBps = 1048576 / (1.048576 * 102.5);
    ok(cf_table_add(t, &r) == 0, "add a point-to-point row");
    strcpy(r.pattern, "alltoall");
    r.np = 4;
    r.bytes = 0;
    r.bw_MiBps = NAN;
    r.t_ci95_us = NAN;
    r.t_min_us = 1.0 / 3.0;
    r.t_avg_us = 0.5;
    r.t_max_us = 2.0 / 3.0;
    r.t_med_us = 0.5;
    ok(cf_table_add(t, &r) == 0, "add a collective row with empty fields");

    const char *path = "test-table-roundtrip.csv";
    cf_error e;
    cf_error_clear(&e);
    ok(cf_table_write(path, t, &e) == 0, "write the table");
    cf_table *u = NULL;
    ok(cf_table_read(path, &u, &e) == 0, "read it back");
    if (u == NULL) {
        printf("#   %s:%ld: %s\n", e.file, e.line, e.msg);
        cf_table_free(t);
        return;
    }
    is_int(u->n_rows, 2, "two rows");
    is_str(cf_table_meta_get(u, "commfit"), "0.1.0", "metadata survives");
    is_str(cf_table_meta_get(u, "command"), "commfit measure --np 2", "newlines in metadata become spaces");
    is_str(cf_table_meta_get(u, "schema"), "1", "the schema version is written");
    is_str(u->rows[0].pattern, "pingpong", "pattern");
    is_int(u->rows[0].bytes, 1048576, "bytes");
    is_int(u->rows[0].reps, 40, "reps");
    is_int(u->rows[0].samples, 5, "samples");
    near(u->rows[0].bw_MiBps, 1048576 / (1.048576 * 102.5), 1e-9, "bandwidth");
    near(u->rows[1].t_min_us, 1.0 / 3.0, 1e-9, "times keep 10 significant digits");
    ok(isnan(u->rows[1].bw_MiBps) && isnan(u->rows[1].t_ci95_us), "empty fields read as unknown");
    is_int(u->rows[1].blocks, 0, "empty blocks read as 0");
    remove(path);
    cf_table_free(t);
    cf_table_free(u);
}

static void tolerant(void)
{
    cf_error e;
    char text[2048];
    /* Extra columns anywhere, unknown metadata, CRLF, blank lines, a newer minor version. */
    snprintf(text, sizeof text,
             "# schema: 1.3\r\n# future_key: anything\r\n# a free comment\r\n"
             "host,pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,"
             "t_med_us,t_ci95_us,bw_MiBps,stride_bytes\r\n"
             "\r\n"
             "n1,bcast,4,1024,byte,,100,5,1.5,2.5,3.5,2.4,0.1,,4096\r\n");
    cf_table *t = parse(text, &e);
    ok(t != NULL, "extra columns, CRLF and unknown metadata are accepted");
    if (t == NULL) {
        printf("#   %ld: %s\n", e.line, e.msg);
        return;
    }
    is_int(t->n_extra, 2, "two extra columns");
    is_str(t->extra_names[0], "host", "first extra column");
    is_str(t->extra_names[1], "stride_bytes", "second extra column");
    is_str(t->rows[0].extra, "n1,4096", "extra values kept in order");
    is_str(cf_table_meta_get(t, "future_key"), "anything", "unknown metadata kept");
    near(t->rows[0].t_avg_us, 2.5, 0, "value");
    cf_table_free(t);

    t = parse("pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,"
              "t_med_us,t_ci95_us,bw_MiBps\nx,1,0,byte,,,,1e-3,1.5E+0,2,,,\n",
              &e);
    ok(t != NULL && t->rows[0].t_min_us == 1e-3 && t->rows[0].t_avg_us == 1.5,
       "no metadata, exponents and empty optional fields");
    cf_table_free(t);
}

static void numbers(void)
{
    /* The fast path must give exactly what strtod gives. */
    const char *vals[] = {"0.1", "123.456", "1e-7", "9007199254740993", "0.30000000000000004",
                          "12345678.91234", "1.7976931348623157e308", "4.9e-324", "2.5e-30",
                          "00001.5000"};
    int all = 1;
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%sp,1,0,byte,,,,%s,%s,%s,,,\n", HEADER, vals[i], vals[i],
                 vals[i]);
        cf_error e;
        cf_table *t = parse(text, &e);
        double want = strtod(vals[i], NULL);
        /* Times outside the physical bounds are refused (see bounds() below). */
        int inside = want >= CF_TIME_MIN_US && want <= CF_TIME_MAX_US;
        if (inside != (t != NULL) || (inside && t->rows[0].t_avg_us != want)) {
            all = 0;
            printf("#   %s read as %.17g, strtod gives %.17g\n", vals[i],
                   t ? t->rows[0].t_avg_us : NAN, want);
        }
        cf_table_free(t);
    }
    ok(all, "numbers parse exactly as strtod parses them");
}

/* A fixed sequence of pseudo-random numbers (xorshift64*), the same on every run. */
static uint64_t rnd_state = 88172645463325252u;
static uint64_t rnd(void)
{
    rnd_state ^= rnd_state >> 12;
    rnd_state ^= rnd_state << 25;
    rnd_state ^= rnd_state >> 27;
    return rnd_state * 2685821657736338717u;
}

/* The text cf_table_write_row gives a row, without its newline. */
static void row_text(const cf_row *r, char *buf, size_t cap)
{
    cf_table *t = cf_table_alloc();
    char *out = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&out, &len);
    cf_table_write_row(fp, t, r);
    fclose(fp);
    snprintf(buf, cap, "%.*s", len > 0 ? (int)len - 1 : 0, out);
    free(out);
    cf_table_free(t);
}

/* The writer formats numbers itself (printf was most of its time): every value must come
 * out as printf's "%.10g", digit for digit, and integers as printf's "%d". */
static int formats_as_printf(double v, double w)
{
    cf_row r;
    cf_row_init(&r);
    strcpy(r.pattern, "p");
    strcpy(r.datatype, "byte");
    r.np = 1;
    /* v twice (the second copies the first's digits), then w, -v and v as optional fields. */
    r.t_min_us = v;
    r.t_avg_us = v;
    r.t_max_us = w;
    r.t_med_us = -v;
    r.bw_MiBps = v;
    char got[512], want[512], med[32] = "", bw[32] = "";
    row_text(&r, got, sizeof got);
    /* Unknown optional values (NaN) are written as empty fields. */
    if (!isnan(v)) {
        snprintf(med, sizeof med, "%.10g", -v);
        snprintf(bw, sizeof bw, "%.10g", v);
    }
    snprintf(want, sizeof want, "p,1,0,byte,,,,%.10g,%.10g,%.10g,%s,,%s", v, v, w, med, bw);
    if (strcmp(got, want) == 0)
        return 1;
    printf("#   %.17g: got '%s', printf gives '%s'\n", v, got, want);
    return 0;
}

static void formatting(void)
{
    static const double edge[] = {
        0, 1, 10, 0.1, 0.5, 1.5, 2.5, 9.9999995, 9.99999999949, 9.99999999951, 99999.999995,
        0.099999999995, 0.0999999999949, 1e-4, 9.9999999995e-5, 9.9999999994e-5, 1e10,
        9999999999.4, 9999999999.5, 9999999999.6, 1234567890.5, 1234567891.5, 1.00000000005,
        123456.78905, 0.00012345678905, 5e-324, 2.2250738585072014e-308, 1e-300,
        1.7976931348623157e308, 1e300, 1e15, 1e16, 1e22, 1e23, 3.0517578125e-05,
        0.30000000000000004, 1.0 / 3.0, 2.0 / 3.0, 1e-5, 1e-3, 0.001000000000, 123456789012.0};
    int all = 1;
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        all &= formats_as_printf(edge[i], -edge[i]);
        all &= formats_as_printf(nextafter(edge[i], 0), nextafter(edge[i], INFINITY));
    }
    /* Every power of ten, and the doubles on either side of it. */
    for (int k = -30; k <= 30; k++) {
        double p = pow(10, k);
        all &= formats_as_printf(p, nextafter(p, 0));
        all &= formats_as_printf(nextafter(p, INFINITY), p);
    }
    /* Values on either side of a rounding tie at ten digits: x.xxxxxxxxx5 times powers
     * of ten, the cases the formatter hands to printf or must round right itself. */
    for (int i = 0; i < 20000; i++) {
        double m = (double)(1000000000 + rnd() % 9000000000u) + 0.5;
        double v = m * pow(10, (int)(rnd() % 16) - 14);
        all &= formats_as_printf(v, nextafter(v, 0));
        all &= formats_as_printf(nextafter(v, INFINITY), v);
    }
    /* Times spread over the range tables hold, and any double at all. */
    for (int i = 0; i < 200000 && all; i++) {
        double v = pow(10, -6 + 17 * (double)(rnd() >> 11) / 9007199254740992.0);
        uint64_t bits = rnd();
        double w;
        memcpy(&w, &bits, sizeof w);
        all &= formats_as_printf(v, w);
    }
    all &= formats_as_printf(NAN, INFINITY);
    all &= formats_as_printf(-INFINITY, -0.0);
    ok(all, "numbers are written digit for digit as printf's %%.10g writes them");

    /* Integers, at their limits and at every number of digits. */
    int iall = 1;
    for (int i = 0; i < 2000; i++) {
        cf_row r;
        cf_row_init(&r);
        strcpy(r.pattern, "p");
        strcpy(r.datatype, "d");
        int d = i % 20;
        uint64_t ten = 1;
        for (int k = 0; k < d; k++)
            ten *= 10;
        uint64_t u = i < 40 ? (i % 2 ? ten : ten - 1) : rnd() % ten;
        if (i == 1999)
            u = UINT64_MAX;
        r.bytes = u;
        r.np = (int)(u % 2147483647u);
        r.blocks = (int)(u % 2147483648u);
        r.reps = (long)(u >> 1);
        r.samples = i == 1998 ? INT32_MAX : (int)(u % 1000);
        r.t_min_us = r.t_avg_us = r.t_max_us = 1;
        char got[512], want[512], b[24] = "", rp[24] = "", s[24] = "";
        row_text(&r, got, sizeof got);
        if (r.blocks > 0)
            snprintf(b, sizeof b, "%d", r.blocks);
        if (r.reps > 0)
            snprintf(rp, sizeof rp, "%ld", r.reps);
        if (r.samples > 0)
            snprintf(s, sizeof s, "%d", r.samples);
        snprintf(want, sizeof want, "p,%d,%llu,d,%s,%s,%s,1,1,1,,,", r.np,
                 (unsigned long long)r.bytes, b, rp, s);
        if (strcmp(got, want) != 0) {
            printf("#   got '%s', printf gives '%s'\n", got, want);
            iall = 0;
        }
    }
    ok(iall, "integers are written as printf writes them");
}

/* cf_table_write formats rows into its own large buffer; it must write what the header
 * and cf_table_write_row write, over several buffers and with long extra values. */
static void whole_table(void)
{
    cf_table *t = cf_table_alloc();
    const char *names[] = {"source", "note"};
    cf_table_set_extra(t, names, 2);
    cf_table_meta_set(t, "commfit", "0.1.0");
    char *longx = malloc(3 << 20);
    memset(longx, 'x', 3 << 20);
    longx[(3 << 20) - 1] = '\0';
    for (int i = 0; i < 40000; i++) {
        cf_row r;
        cf_row_init(&r);
        snprintf(r.pattern, sizeof r.pattern, "p%d", i / 100);
        strcpy(r.datatype, "byte");
        r.np = 2;
        r.bytes = (uint64_t)(i % 100) * 1000;
        r.t_min_us = 1 + (double)i / 7;
        r.t_avg_us = r.t_max_us = 2 + (double)i / 7;
        r.bw_MiBps = i % 3 ? NAN : (double)i / 3;
        char x[64];
        snprintf(x, sizeof x, "run%d.txt:%d,n", i / 1000, i / 1000);
        r.extra = i == 20000 ? longx : i % 5000 == 7 ? NULL : x;
        cf_table_add(t, &r);
    }
    const char *path = "test-table-whole.csv";
    cf_error e;
    cf_error_clear(&e);
    ok(cf_table_write(path, t, &e) == 0, "write a table of 40000 rows");
    char *want = NULL, *got = NULL;
    size_t wlen = 0, glen = 0;
    FILE *fp = open_memstream(&want, &wlen);
    cf_table_write_header(fp, t);
    for (size_t i = 0; i < t->n_rows; i++)
        cf_table_write_row(fp, t, &t->rows[i]);
    fclose(fp);
    if ((fp = fopen(path, "rb")) != NULL) {
        got = malloc(wlen + 1);
        glen = fread(got, 1, wlen + 1, fp);
        fclose(fp);
    }
    ok(got != NULL && glen == wlen && memcmp(got, want, wlen) == 0,
       "the table is written as its header and rows written one by one");
    free(got);
    free(want);
    free(longx);
    remove(path);
    cf_table_free(t);
}

/* Reads one row whose three times are the number text; 0 with the value read. */
static int read_time(const char *text, double *v, cf_error *e)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%sp,1,0,byte,,,,%s,%s,%s,,,%s\n", HEADER, text, text, text, text);
    cf_table *t = parse(buf, e);
    if (t == NULL)
        return -1;
    *v = t->rows[0].t_avg_us;
    int same = t->rows[0].t_min_us == *v && t->rows[0].bw_MiBps == *v;
    cf_table_free(t);
    return same ? 0 : -1;
}

/* The reader reads plain numbers itself: every value must be the double strtod gives,
 * bit for bit, whatever the number of digits, zeros or exponent. */
static void parsing(void)
{
    int all = 1, n = 0;
    for (int i = 0; i < 100000; i++) {
        char text[128];
        int len = 0, nint = (int)(rnd() % 8), nfrac = (int)(rnd() % 22) - 3;
        int lead = rnd() % 4 == 0 ? (int)(rnd() % 4) : 0;
        for (int k = 0; k < lead; k++)
            text[len++] = '0';
        for (int k = 0; k < nint; k++)
            text[len++] = (char)('0' + rnd() % 10);
        if (nfrac >= 0) {
            text[len++] = '.';
            int fz = rnd() % 3 == 0 ? (int)(rnd() % 6) : 0;
            for (int k = 0; k < fz; k++)
                text[len++] = '0';
            for (int k = 0; k < nfrac; k++)
                text[len++] = (char)('0' + rnd() % 10);
        }
        if (rnd() % 4 == 0)
            len += snprintf(text + len, sizeof text - (size_t)len, "%s%d", rnd() % 2 ? "e" : "E-",
                            (int)(rnd() % 40));
        text[len] = '\0';
        double want = strtod(text, NULL), got = NAN;
        cf_error e;
        if (!(want >= CF_TIME_MIN_US && want <= CF_TIME_MAX_US))
            continue;
        n++;
        if (read_time(text, &got, &e) != 0 || memcmp(&got, &want, sizeof got) != 0) {
            printf("#   '%s': read %.17g (%s), strtod gives %.17g\n", text, got, e.msg, want);
            all = 0;
            break;
        }
    }
    ok(all && n > 50000, "numbers are read bit for bit as strtod reads them (%d numbers)", n);

    /* What the writer writes, the reader reads back as strtod does. */
    int back = 1;
    for (int i = 0; i < 100000 && back; i++) {
        double v = pow(10, -6 + 18 * (double)(rnd() >> 11) / 9007199254740992.0), got = NAN;
        char text[64];
        cf_row r;
        cf_row_init(&r);
        strcpy(r.pattern, "p");
        strcpy(r.datatype, "byte");
        r.np = 1;
        r.t_min_us = r.t_avg_us = r.t_max_us = v;
        char line[512];
        row_text(&r, line, sizeof line);
        snprintf(text, sizeof text, "%.10g", v);
        double want = strtod(text, NULL);
        char buf[1024];
        snprintf(buf, sizeof buf, "%s%s\n", HEADER, line);
        cf_error e;
        cf_table *t = parse(buf, &e);
        got = t ? t->rows[0].t_max_us : NAN;
        if (memcmp(&got, &want, sizeof got) != 0) {
            printf("#   '%s' read back as %.17g, strtod gives %.17g\n", text, got, want);
            back = 0;
        }
        cf_table_free(t);
    }
    ok(back, "written numbers read back as strtod reads them");
}

/* blocks 1 on a plain row is one contiguous block: read as the empty column (0); on a
 * derived datatype it stays 1. */
static void plain_blocks(void)
{
    char text[1024];
    snprintf(text, sizeof text,
             "# schema: 1\n%s"
             "allreduce,4,1024,float,1,10,5,1,2,3,2,0.1,\n"
             "pingpong,2,1024,byte,1,10,5,1,2,3,2,0.1,5\n"
             "pingpong,2,1024,vector,1,10,5,1,2,3,2,0.1,5\n"
             "pingpong,2,1024,pack_vector,1,10,5,1,2,3,2,0.1,5\n"
             "pingpong,2,1024,contiguous,1,10,5,1,2,3,2,0.1,5\n",
             HEADER);
    cf_error e;
    cf_table *t = parse(text, &e);
    ok(t != NULL && t->n_rows == 5, "plain blocks: the table reads");
    if (t == NULL || t->n_rows != 5)
        return;
    is_int(t->rows[0].blocks, 0, "plain blocks: float with blocks 1 is read as empty");
    is_int(t->rows[1].blocks, 0, "plain blocks: byte with blocks 1 is read as empty");
    is_int(t->rows[2].blocks, 1, "plain blocks: vector keeps 1 block");
    is_int(t->rows[3].blocks, 1, "plain blocks: pack_vector keeps 1 block");
    is_int(t->rows[4].blocks, 1, "plain blocks: contiguous keeps 1 block");
    is_int((int)t->rows[0].line, 3, "a row keeps its line (under the schema and the header)");
    is_int((int)t->rows[4].line, 7, "the last row keeps its line");
    ok(!cf_datatype_derived("byte") && !cf_datatype_derived("float") &&
           cf_datatype_derived("hindexed") && cf_datatype_derived("struct") &&
           cf_datatype_derived("pack") && !cf_datatype_derived("packed"),
       "plain blocks: which datatypes are derived");
    cf_table_free(t);
}

/* The row helpers the commands share: its time by statistic, its extra fields. */
static void row_helpers(void)
{
    cf_row r;
    cf_row_init(&r);
    r.t_min_us = 1;
    r.t_avg_us = 2;
    r.t_max_us = 3;
    ok(isnan(cf_row_time(&r, CF_STAT_MEDIAN)), "no median: a fit sees none");
    near(cf_row_time_or_mean(&r, CF_STAT_MEDIAN), 2, 0, "no median: the plots show the mean");
    near(cf_row_time_named(&r, "t_min_us"), 1, 0, "the minimum by its column's name");
    r.t_med_us = 1.5;
    near(cf_row_time_named(&r, "median"), 1.5, 0, "the median by its name");
    near(cf_row_time_named(&r, "mean"), 2, 0, "the mean by its name");
    size_t len;
    const char *f = cf_row_extra_field("samples,vector,,12", 1, &len);
    ok(len == 6 && strncmp(f, "vector", 6) == 0, "the second extra field");
    cf_row_extra_field("samples,vector,,12", 2, &len);
    ok(len == 0, "an empty extra field");
    cf_row_extra_field("samples", 3, &len);
    ok(len == 0, "a field past the last is empty");
    char buf[4];
    cf_row_extra_copy("samples,vector", 1, buf, sizeof buf);
    is_str(buf, "vec", "a copy is cut to its buffer");
    cf_row_extra_copy(NULL, 0, buf, sizeof buf);
    is_str(buf, "", "a row without extra values has empty fields");
}

/* rank_cpu_share's least: runs, '-', and lists no measure writes (a count that overflows,
 * a value outside [0, 1]) read without undefined behaviour or a share that is none. */
static void cpu_share(void)
{
    static const struct {
        const char *list;
        int found, rank;
        double share;
    } cases[] = {
        {"1.00*3;0.46;-;0.97*2", 1, 3, 0.46},
        {"-*4;0.50", 1, 4, 0.50},
        {"0.95;0.85*2", 1, 1, 0.85},
        {"1.00*2", 1, 0, 1.00},
        {"-", 0, 0, 0},
        {"", 0, 0, 0},
        {"garbage", 0, 0, 0},
        {"-0.5;0.9", 1, 1, 0.9},            /* not a share: skipped */
        {"1.2;nan;0.7", 1, 2, 0.7},         /* nor these */
        {"1;1*9223372036854775807;0.5", 1, 0, 1.0}, /* stops at INT_MAX ranks */
        {"1.00*0;0.5", 1, 1, 0.5},          /* a count of 0 reads as 1 */
        {"*3;0.5", 1, 3, 0.5},              /* no value: three ranks of none */
        {"0.8*2x;0.5", 1, 1, 0.5},          /* a count that does not read is 1 */
        {"0.6;", 1, 0, 0.6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cf_table *t = cf_table_alloc();
        cf_table_meta_set(t, "rank_cpu_share", cases[i].list);
        double share = -1;
        int rank = -1, rc = cf_table_cpu_share_min(t, &share, &rank);
        if (!cases[i].found)
            is_int(rc, -1, "rank_cpu_share '%s': no share", cases[i].list);
        else
            ok(rc == 0 && rank == cases[i].rank && fabs(share - cases[i].share) < 1e-12,
               "rank_cpu_share '%s': rank %d at %.2f (got %d, rank %d, %.2f)", cases[i].list,
               cases[i].rank, cases[i].share, rc, rank, share);
        cf_table_free(t);
    }
}

/* The launch metadata grows with the launch: the latency probe's line at 16384 ranks (1.1
 * MiB, 11 sizes of 16383 one-way times) is written and read back whole; a line past
 * CF_LINE_MAX_BYTES is one that cf_table_meta_overlong names, for measure to refuse. */
static void long_metadata(void)
{
    enum { RANKS = 16384 };
    size_t cap = (size_t)11 * RANKS * 12 + 64, len = 0;
    char *v = malloc(cap);
    for (int k = 0; k < 11; k++) {
        len += (size_t)snprintf(v + len, cap - len, "%s%d:", k ? ";" : "", 256 << k);
        for (int r = 1; r < RANKS; r++)
            len += (size_t)snprintf(v + len, cap - len, "%s%.4g", r > 1 ? "," : "",
                                    2.0 + 0.001 * (r % 97) + k);
    }
    ok(len > (1u << 20), "the probe's line at %d ranks: %zu bytes, more than 1 MiB", RANKS, len);
    cf_table *t = cf_table_alloc();
    cf_table_meta_set(t, "rank_latency_sized_us", v);
    size_t n = 0;
    ok(cf_table_meta_overlong(t, &n) == NULL, "it fits a line");
    char *out = NULL;
    size_t olen = 0;
    FILE *fp = open_memstream(&out, &olen);
    cf_table_write_header(fp, t);
    fclose(fp);
    cf_error e;
    cf_table *back = parse(out, &e);
    const char *got = back ? cf_table_meta_get(back, "rank_latency_sized_us") : NULL;
    ok(got != NULL && strcmp(got, v) == 0, "and reads back whole (%s)", back ? "" : e.msg);
    cf_table_free(back);
    free(out);

    char *big = malloc(CF_LINE_MAX_BYTES + 1);
    memset(big, '1', CF_LINE_MAX_BYTES);
    big[CF_LINE_MAX_BYTES - 19] = '\0'; /* "# rank_latency_us: " and this: the limit */
    cf_table *lim = cf_table_alloc();
    cf_table_meta_set(lim, "rank_latency_us", big);
    ok(cf_table_meta_overlong(lim, &n) == NULL, "a line of the limit fits");
    fp = open_memstream(&out, &olen);
    cf_table_write_header(fp, lim);
    fclose(fp);
    back = parse(out, &e);
    got = back ? cf_table_meta_get(back, "rank_latency_us") : NULL;
    ok(got != NULL && strcmp(got, big) == 0, "and a reader takes it (%s)", back ? "" : e.msg);
    cf_table_free(back);
    cf_table_free(lim);
    free(out);
    big[CF_LINE_MAX_BYTES - 19] = '1';
    big[CF_LINE_MAX_BYTES - 18] = '\0';
    cf_table_meta_set(t, "rank_latency_us", big);
    const char *key = cf_table_meta_overlong(t, &n);
    ok(key != NULL && strcmp(key, "rank_latency_us") == 0 && n == CF_LINE_MAX_BYTES + 1,
       "a byte more is named: %s, %zu bytes", key ? key : "(none)", n);
    free(big);
    free(v);
    cf_table_free(t);
}

int main(void)
{
    cpu_share();
    long_metadata();
    plain_blocks();
    round_trip();
    row_helpers();
    tolerant();
    numbers();
    formatting();
    whole_table();
    parsing();

    /* A derived datatype's row is of a layout: a block count that floats can fill. */
    refuses_row("pingpong,2,65536,vector,,10,5,1,2,3,2,0.1,5",
                "a vector row needs its block count (column 'blocks', 1 or more)");
    refuses_row("pingpong,2,4,vector,100,10,5,1,2,3,2,0.1,5",
                "100 blocks cannot lay out 4 B of vector: a block holds one 4-byte float at "
                "least");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,3,2,0.1",
                "expected 13 fields as in the header, got 12");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,3,2,0.1,5,6",
                "expected 13 fields as in the header, got 14");
    refuses_row("pingpong,two,1024,byte,,10,5,1,2,3,2,0.1,5",
                "column 'np': expected a non-negative integer, got 'two'");
    refuses_row("pingpong,0,1024,byte,,10,5,1,2,3,2,0.1,5", "np 0 out of range: expected 1 to 16777216");
    refuses_row("pingpong,-2,1024,byte,,10,5,1,2,3,2,0.1,5",
                "column 'np': expected a non-negative integer, got '-2'");
    refuses_row("pingpong,2,-1,byte,,10,5,1,2,3,2,0.1,5",
                "column 'bytes': expected a non-negative integer, got '-1'");
    refuses_row("pingpong,2,1099511627777,byte,,10,5,1,2,3,2,0.1,5",
                "column 'bytes': '1099511627777' is too large (at most 1099511627776)");
    refuses_row("pingpong,2,1024,byte,,10,5,nan,2,3,2,0.1,5",
                "column 't_min_us': expected a finite number, got 'nan'");
    refuses_row("pingpong,2,1024,byte,,10,5,1,inf,3,2,0.1,5",
                "column 't_avg_us': expected a finite number, got 'inf'");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,1e999,2,0.1,5",
                "column 't_max_us': expected a finite number, got '1e999'");
    refuses_row("pingpong,2,1024,byte,,10,5,-1,2,3,2,0.1,5",
                "t_min_us -1: expected a positive, finite time");
    refuses_row("pingpong,2,1024,byte,,10,5,0,2,3,2,0.1,5",
                "t_min_us 0: expected a positive, finite time");
    /* Physical bounds: 1e-6 us to 1e12 us (issue 19). */
    refuses_row("pingpong,2,1024,byte,,10,5,4.9e-324,4.9e-324,4.9e-324,,,",
                "t_min_us '4.94066e-324' outside the physical range: expected 1e-06 to 1e+12 us");
    refuses_row("pingpong,2,1024,byte,,10,5,9.9e-7,1,2,,,",
                "t_min_us '9.9e-07' outside the physical range: expected 1e-06 to 1e+12 us");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,1.7e308,,,",
                "t_max_us '1.7e+308' outside the physical range: expected 1e-06 to 1e+12 us");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,3,1e13,,",
                "t_med_us '1e+13' outside the physical range: expected 1e-06 to 1e+12 us");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,3,2,1.5e12,",
                "t_ci95_us '1.5e+12' outside the physical range: expected at most 1e+12 us");
    /* Negative numbers that only strtod reads exactly (an exponent beyond 10^22, more
     * than 15 digits) keep their sign. */
    refuses_row("pingpong,2,1024,byte,,10,5,-1e-30,2,3,2,0.1,5",
                "t_min_us -1e-30: expected a positive, finite time");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,3,2,-0.10000000000000001,5",
                "t_ci95_us -0.1: expected a finite value >= 0");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,3,2,0.1,-5e30",
                "bw_MiBps -5e+30: expected a finite value >= 0");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,3,-2,0.1,5",
                "t_med_us -2: expected a positive, finite time");
    refuses_row("pingpong,2,1024,byte,,10,5,3,2,1,2,0.1,5",
                "expected t_min_us <= t_avg_us <= t_max_us, got 3, 2, 1");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,3,2,-0.1,5",
                "t_ci95_us -0.1: expected a finite value >= 0");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,3,2,0.1,-5",
                "bw_MiBps -5: expected a finite value >= 0");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2x,3,2,0.1,5",
                "column 't_avg_us': expected a finite number, got '2x'");
    refuses_row("pingpong,2,1024,byte,,10,5,1,,3,2,0.1,5",
                "column 't_avg_us': expected a finite number, got ''");
    refuses_row(",2,1024,byte,,10,5,1,2,3,2,0.1,5", "column 'pattern' is empty: expected a name");
    refuses_row("Ping Pong,2,1024,byte,,10,5,1,2,3,2,0.1,5",
                "pattern 'Ping Pong': expected lower-case letters, digits and '_'");
    refuses_row("pingpong,2,1024,byte,,1.5,5,1,2,3,2,0.1,5",
                "column 'reps': expected a non-negative integer, got '1.5'");
    /* Cases at the edges of the reader's fast path, which hands them to the careful one. */
    refuses_row("pingpong,2,1024,byte,,10,5,1e,2,3,2,0.1,5",
                "column 't_min_us': expected a finite number, got '1e'");
    refuses_row("pingpong,2,1024,byte,,10,5,.,2,3,2,0.1,5",
                "column 't_min_us': expected a finite number, got '.'");
    refuses_row("pingpong,2,1024,byte,,10,5,+,2,3,2,0.1,5",
                "column 't_min_us': expected a finite number, got '+'");
    refuses_row("pingpong,2,1024,byte,,10,5,1.2.3,2,3,2,0.1,5",
                "column 't_min_us': expected a finite number, got '1.2.3'");
    refuses_row("pingpong,2,1024,byte,,10,5,1e400,2,3,2,0.1,5",
                "column 't_min_us': expected a finite number, got '1e400'");
    refuses_row("pingpong,2,1024,byte,,10,5,-0,2,3,2,0.1,5",
                "t_min_us -0: expected a positive, finite time");
    refuses_row("pingpong,2,1024,byte,,10,5,0e99999999,2,3,2,0.1,5",
                "t_min_us 0: expected a positive, finite time");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,3,2,0.1,5 ",
                "column 'bw_MiBps': expected a finite number, got '5 '");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,3,2,0.1,5,",
                "expected 13 fields as in the header, got 14");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,3,2,0.1",
                "expected 13 fields as in the header, got 12");
    refuses_row("pingpong,2,1024,byte,,10,,1,2,3,2,0.1,5x",
                "column 'bw_MiBps': expected a finite number, got '5x'");
    refuses_row("pingpong,2,12345678901234567890,byte,,10,5,1,2,3,2,0.1,5",
                "column 'bytes': '12345678901234567890' is too large (at most 1099511627776)");
    refuses_row("pingpong,2,1024,byte,,10,2147483648,1,2,3,2,0.1,5",
                "column 'samples': '2147483648' is too large (at most 2147483647)");
    refuses_row("pingpong,2,1024,byte_,-1,10,5,1,2,3,2,0.1,5",
                "column 'blocks': expected a non-negative integer, got '-1'");
    refuses_row("a2345678901234567890123456789012,2,1024,byte,,10,5,1,2,3,2,0.1,5",
                "column 'pattern': 'a2345678901234567890123456789012' is too long (at most 31 "
                "characters)");
    refuses_row("pingpong,2,1024,Byte,,10,5,1,2,3,2,0.1,5",
                "datatype 'Byte': expected lower-case letters, digits and '_'");
    refuses_row("pingpong,2,1024,byte,,10,5,1,2,3,0,0.1,5",
                "t_med_us 0: expected a positive, finite time");
    {
        /* Accepted the careful way: leading zeros beyond 19 digits, 16 and more
         * significant digits, exponents beyond 10^22, a sign. */
        cf_error e;
        cf_table *t = parse("pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,"
                            "t_max_us,t_med_us,t_ci95_us,bw_MiBps\n"
                            "p,0000000000000000000002,00000000000000000000000008,byte,,,,"
                            "1.0000000000000002,+1.00000000000000022,1e0000000000000,"
                            "1e-3,-0,12345678901234567890e-40\n",
                            &e);
        ok(t != NULL && t->rows[0].np == 2 && t->rows[0].bytes == 8 &&
               t->rows[0].t_min_us == strtod("1.0000000000000002", NULL) &&
               t->rows[0].t_avg_us == strtod("1.00000000000000022", NULL) &&
               t->rows[0].t_max_us == 1 && signbit(t->rows[0].t_ci95_us) &&
               t->rows[0].bw_MiBps == strtod("12345678901234567890e-40", NULL),
           "numbers the fast path leaves to strtod are read");
        if (t == NULL)
            printf("#   %ld: %s\n", e.line, e.msg);
        cf_table_free(t);
    }

    refuses_text("pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,"
                 "t_med_us,t_ci95_us,bw_MiBps\n"
                 "bcast,2,0,byte,,,,1,1,1,,,\nbcast,4,0,byte,,,,1,1,1,,,\nbcast,2,0,byte,,,,2,2,2,,,\n",
                 4, "duplicate row: bcast np 2 byte bytes 0 is already at line 2");
    refuses_text("pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,"
                 "t_med_us,t_ci95_us,bw_MiBps\n"
                 "bcast,2,1024,byte,,,,1,1,1,,,\nbcast,2,8,byte,,,,1,1,1,,,\n",
                 3, "sizes out of order: bcast np 2 byte bytes 8 comes after bytes 1024 (line 2); "
                    "expected increasing sizes");
    {
        /* Row groups differ by np, datatype, blocks and source: none of these repeats. */
        cf_error e;
        cf_table *t = parse("pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,"
                            "t_max_us,t_med_us,t_ci95_us,bw_MiBps,source\n"
                            "pingpong,2,0,byte,,,,1,1,1,,,,a.txt:3\n"
                            "pingpong,2,8,byte,,,,1,1,1,,,,a.txt:3\n"
                            "pingpong,2,0,byte,,,,1,1,1,,,,a.txt:40\n"
                            "pingpong,2,64,vector,2,,,1,1,1,,,,a.txt:3\n"
                            "pingpong,2,64,vector,4,,,1,1,1,,,,a.txt:3\n"
                            "pingpong,4,0,byte,,,,1,1,1,,,,a.txt:3\n",
                            &e);
        ok(t != NULL && t->n_rows == 6, "the same size in different row groups is no duplicate");
        if (t == NULL)
            printf("#   %ld: %s\n", e.line, e.msg);
        cf_table_free(t);
    }
    refuses_text("", 0, "empty file: expected a timing table");
    refuses_text("# schema: 1\n# only metadata\n", 0,
                 "missing header: expected a line starting 'pattern,np,bytes,...'");
    refuses_text("# schema: 1\npingpong,2,1024,byte,,10,5,1,2,3,2,0.1,5\n", 2,
                 "missing header: expected a line starting 'pattern,np,bytes,...'");
    refuses_text("pattern,np,bytes,datatype\n", 1,
                 "missing column 'blocks' in the header: expected pattern,np,bytes,...");
    refuses_text("# schema: 2\n", 1,
                 "schema version 2 is newer than this commfit reads (1); upgrade commfit to read "
                 "this table");
    refuses_text("# schema: one\n", 1, "invalid schema version 'one': expected a number such as '1'");
    refuses_text("pattern,np,np,bytes\n", 1, "column 'np' appears twice in the header");
    {
        char bin[256];
        snprintf(bin, sizeof bin, "# x: y\n%s", HEADER);
        size_t n = strlen(bin);
        bin[n] = '\0';
        bin[n + 1] = 'x';
        cf_error e;
        cf_table *t = NULL;
        cf_error_clear(&e);
        ok(cf_table_read_mem(bin, n + 2, "t.csv", &t, &e) != 0 && t == NULL, "binary garbage refused");
        is_str(e.msg, "unexpected NUL byte: this is not a text table", "binary message");
        is_int(e.line, 3, "binary garbage: line of the NUL byte");
    }
    {
        cf_table *t = NULL;
        cf_error e;
        cf_error_clear(&e);
        ok(cf_table_read("/nonexistent/t.csv", &t, &e) == CF_EXIT_DATA, "missing file refused");
        is_str(e.msg, "cannot open: No such file or directory", "missing file message");
    }
    return tap_done();
}
