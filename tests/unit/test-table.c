/* The timing table: round trips, tolerance of extra columns, and every refusal with its
 * file:line message. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "table.h"
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
        if (want > 0 && (t == NULL || t->rows[0].t_avg_us != want)) {
            all = 0;
            printf("#   %s read as %.17g, strtod gives %.17g\n", vals[i],
                   t ? t->rows[0].t_avg_us : NAN, want);
        }
        cf_table_free(t);
    }
    ok(all, "numbers parse exactly as strtod parses them");
}

int main(void)
{
    round_trip();
    tolerant();
    numbers();

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
                            "pingpong,2,0,vector,2,,,1,1,1,,,,a.txt:3\n"
                            "pingpong,2,0,vector,4,,,1,1,1,,,,a.txt:3\n"
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
