/* The report's pieces: tick labels, quoting for gnuplot and HTML, picking sizes, the gain
 * over pack, finding gnuplot, and the report folder appearing whole or not at all. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/stats.h"
#include "report/report-int.h"
#include "report/report.h"
#include "tap.h"

static char *quoted(void (*quote)(FILE *, const char *), const char *s)
{
    static char buf[512];
    FILE *fp = fmemopen(buf, sizeof buf, "w");
    quote(fp, s);
    fclose(fp);
    return buf;
}

static void ticks(void)
{
    char b[32];
    struct {
        uint64_t v;
        const char *want;
    } cases[] = {{0, "0"},       {1, "1"},           {512, "512"},
                 {1024, "1K"},   {65536, "64K"},     {1048576, "1M"},
                 {1536, "1536"}, {1ull << 31, "2G"}, {1ull << 40, "1T"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cf_report_size_tick(cases[i].v, b, sizeof b);
        is_str(b, cases[i].want, "tick label of %llu", (unsigned long long)cases[i].v);
    }
}

static void quoting(void)
{
    is_str(quoted(cf_report_gp_string, "it's"), "'it''s'", "gnuplot string doubles a quote");
    is_str(quoted(cf_report_gp_string, "a\nb"), "'a b'", "gnuplot string: newline becomes a space");
    is_str(quoted(cf_report_gp_string, "T(m) = 1 us + m / 9.8 GiB/s"),
           "'T(m) = 1 us + m / 9.8 GiB/s'", "gnuplot string keeps a formula as it is");
    is_str(quoted(cf_report_html_text, "<a & \"b\">'"), "&lt;a &amp; &quot;b&quot;&gt;&#39;",
           "HTML text escapes & < > \" '");
    char b[64];
    cf_report_file_part("Vector/X y", b, sizeof b);
    is_str(b, "vector_x_y", "file part: lower case, unsafe characters become _");
    cf_report_file_part("reduce_scatter", b, sizeof b);
    is_str(b, "reduce_scatter", "file part keeps a pattern name");
}

static void rows(void)
{
    cf_row r;
    cf_row_init(&r);
    strcpy(r.pattern, "pingpong");
    strcpy(r.datatype, "byte");
    r.np = 2;
    r.t_min_us = 1;
    r.t_avg_us = 2;
    r.t_max_us = 3;
    ok(!cf_report_is_ddt(&r), "a byte row is not a datatype row");
    ok(!cf_report_is_p2p(&r), "without bandwidth a row is not point-to-point");
    r.bw_MiBps = 10;
    ok(cf_report_is_p2p(&r), "with bandwidth it is");
    near(cf_row_time_or_mean(&r, CF_STAT_MEDIAN), 2, 0, "without a median the time is the mean");
    r.t_med_us = 1.5;
    near(cf_row_time_or_mean(&r, CF_STAT_MEDIAN), 1.5, 0, "with a median the time is the median");
    strcpy(r.datatype, "contiguous");
    ok(cf_report_is_ddt(&r) && !cf_report_is_p2p(&r), "contiguous is a datatype row");
    strcpy(r.datatype, "byte");
    r.blocks = 4;
    ok(cf_report_is_ddt(&r), "a row with blocks is a datatype row");
    near(cf_stats_gain_pct(50, 100), 50, 1e-12, "half the pack time is a 50%% gain");
    near(cf_stats_gain_pct(150, 100), -50, 1e-12, "1.5 times the pack time is a -50%% gain");
}

static void spread(void)
{
    uint64_t v[12], out[12];
    for (int i = 1; i < 12; i++)
        v[i] = 1ull << (2 * (i - 1)); /* 1, 4, ..., 1M */
    v[0] = 0;
    size_t n = cf_report_spread(v, 12, 4, out);
    is_int(n, 4, "four sizes picked of twelve");
    ok(n == 4 && out[0] == 1 && out[1] == 64 && out[2] == 16384 && out[3] == 1048576,
       "spread evenly on a log scale, zero left out: %llu %llu %llu %llu",
       (unsigned long long)out[0], (unsigned long long)out[1], (unsigned long long)out[2],
       (unsigned long long)out[3]);
    n = cf_report_spread(v, 3, 4, out);
    ok(n == 3 && out[0] == 0 && out[1] == 1 && out[2] == 4, "all of them when few, zero too");
    n = cf_report_spread(v + 1, 11, 1, out);
    ok(n == 1 && out[0] == 1048576, "one: the largest");
}

static void finding(void)
{
    char why[256];
    char *saved_path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("GNUPLOT", "/nonexistent/gnuplot", 1);
    ok(cf_gnuplot_find(why, sizeof why) == NULL, "GNUPLOT naming nothing finds nothing");
    is_str(why, "GNUPLOT='/nonexistent/gnuplot' is not a program that can be run", "and says so");
    setenv("GNUPLOT", "", 1);
    setenv("PATH", "/nonexistent:/also-not", 1);
    ok(cf_gnuplot_find(why, sizeof why) == NULL, "an empty GNUPLOT means PATH");
    is_str(why, "gnuplot is not on PATH (install gnuplot-nox, or set GNUPLOT)", "and says so");
    setenv("PATH", "/nonexistent:/bin:/usr/bin", 1);
    setenv("GNUPLOT", "sh", 1);
    char *p = cf_gnuplot_find(why, sizeof why);
    ok(p != NULL && strlen(p) > 3 && strcmp(p + strlen(p) - 3, "/sh") == 0,
       "a GNUPLOT without a slash is looked up on PATH: %s", p ? p : "(null)");
    free(p);
    unsetenv("GNUPLOT");
    if (saved_path)
        setenv("PATH", saved_path, 1);
    free(saved_path);
}

static cf_table *small_table(void)
{
    cf_table *t = cf_table_alloc();
    cf_table_meta_set(t, "schema", "1");
    cf_row r;
    cf_row_init(&r);
    strcpy(r.datatype, "byte");
    for (int np = 2; np <= 4; np *= 2) {
        for (uint64_t m = 1; m <= 4096; m *= 8) {
            strcpy(r.pattern, "bcast");
            r.np = np;
            r.bytes = m;
            r.t_avg_us = r.t_min_us = r.t_max_us = 1 + (double)m / 1000 * np;
            r.bw_MiBps = NAN;
            cf_table_add(t, &r);
            if (np == 2) {
                strcpy(r.pattern, "pingpong");
                r.bw_MiBps = (double)m / (1.048576 * r.t_avg_us);
                cf_table_add(t, &r);
            }
        }
    }
    return t;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void folder(void)
{
    char dir[] = "/tmp/commfit-test-report.XXXXXX";
    ok(mkdtemp(dir) != NULL, "a scratch folder");
    char out[256], path[512];
    snprintf(out, sizeof out, "%s/rep/x", dir);
    cf_table *t = small_table();
    cf_report_opts o = {.table = t,
                        .table_path = "small.csv",
                        .out_dir = out,
                        .gnuplot_missing = "no gnuplot in this test"};
    cf_report_result res;
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_report_write(&o, &res, &e), 0, "a report without gnuplot: %s", e.msg);
    /* time-bcast, time-pingpong, bw-pingpong, np-bcast */
    is_int(res.n_plots, 4, "four plots");
    is_int(res.n_drawn, 0, "none drawn");
    const char *want[] = {"index.html",       "time-bcast.dat",  "time-bcast.gp",
                          "time-pingpong.gp", "bw-pingpong.dat", "np-bcast.gp"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", out, want[i]);
        ok(exists(path), "%s is written", want[i]);
    }
    snprintf(path, sizeof path, "%s/time-bcast.svg", out);
    ok(!exists(path), "no image without gnuplot");

    /* gnuplot failing: an error, and the earlier report is untouched (a mark added to
     * its page stays). */
    snprintf(path, sizeof path, "%s/index.html", out);
    FILE *fp = fopen(path, "a");
    fputs("<!-- mark -->\n", fp);
    fclose(fp);
    char grep_mark[700];
    snprintf(grep_mark, sizeof grep_mark, "grep -q 'mark -->' '%s'", path);
    o.gnuplot = "/bin/false";
    cf_error_clear(&e);
    is_int(cf_report_write(&o, &res, &e), CF_EXIT_DATA, "gnuplot failing is an error");
    is_str(e.file, "time-bcast.gp", "naming the script");
    ok(system(grep_mark) == 0, "the earlier report stays as it was");
    snprintf(path, sizeof path, "%s/rep", dir);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 1", path);
    ok(system(cmd) == 0, "no temporary folder is left beside it");

    /* A second run replaces the report whole. */
    o.gnuplot = NULL;
    cf_error_clear(&e);
    is_int(cf_report_write(&o, &res, &e), 0, "a second run: %s", e.msg);
    ok(system(grep_mark) != 0, "replaces the earlier report");
    ok(system(cmd) == 0, "and leaves nothing beside it");

    /* A file report did not write is never deleted: the run is refused. */
    snprintf(path, sizeof path, "%s/keep.txt", out);
    fp = fopen(path, "w");
    fclose(fp);
    cf_error_clear(&e);
    is_int(cf_report_write(&o, &res, &e), CF_EXIT_DATA, "a folder with a file of the user's");
    is_str(e.msg,
           "the report folder holds 'keep.txt', which commfit report did not write: move it, or "
           "choose another folder with -o",
           "names the file");
    ok(exists(path), "and keeps it");
    unlink(path);

    /* A folder of other files is refused. */
    snprintf(out, sizeof out, "%s/mine", dir);
    mkdir(out, 0777);
    snprintf(path, sizeof path, "%s/thesis.tex", out);
    fp = fopen(path, "w");
    fclose(fp);
    o.out_dir = out;
    cf_error_clear(&e);
    is_int(cf_report_write(&o, &res, &e), CF_EXIT_DATA, "a foreign folder is refused");
    is_str(e.msg,
           "folder exists and is not a commfit report (it holds 'thesis.tex', which commfit "
           "report did not write): remove it or choose another with -o",
           "with this message, naming the file");
    ok(exists(path), "and left alone");

    /* An empty folder is taken. */
    snprintf(out, sizeof out, "%s/empty/", dir);
    mkdir(out, 0777);
    cf_error_clear(&e);
    is_int(cf_report_write(&o, &res, &e), 0, "an empty folder is taken (trailing slash)");
    snprintf(path, sizeof path, "%s/empty/index.html", dir);
    ok(exists(path), "the page is in it");

    o.out_dir = "..";
    is_int(cf_report_write(&o, &res, &e), CF_EXIT_USAGE, "'..' is refused");
    cf_table_free(t);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ok(system(cmd) == 0, "clean up");
}

static char *slurp(const char *path)
{
    static char buf[1 << 16];
    FILE *fp = fopen(path, "r");
    size_t n = fp ? fread(buf, 1, sizeof buf - 1, fp) : 0;
    if (fp)
        fclose(fp);
    buf[n] = '\0';
    return buf;
}

/* The across-np model of a model file: drawn through the points, solid where it was
 * fitted, dashed beyond the largest process count fitted. */
static void across_np(void)
{
    cf_table *t = cf_table_alloc();
    cf_row r;
    cf_row_init(&r);
    strcpy(r.pattern, "bcast");
    strcpy(r.datatype, "byte");
    for (int np = 2; np <= 8; np *= 2)
        for (uint64_t m = 1; m <= 65536; m *= 4) {
            int lg = np == 2 ? 1 : np == 4 ? 2 : 3;
            r.np = np;
            r.bytes = m;
            r.t_avg_us = r.t_min_us = r.t_max_us = lg * (1.5 + (double)m / 2000);
            cf_table_add(t, &r);
        }
    cf_modelset *ms = cf_modelset_alloc();
    ms->source = json_pack("{s:s}", "statistic", "mean");
    char **notes = NULL;
    size_t nnotes = 0;
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_across_fit_table(t, "t_avg_us", &ms->across, &notes, &nnotes, &e), 0,
           "an across-np model of bcast: %s", e.msg);
    cf_notes_free(notes, nnotes);

    char dir[] = "/tmp/commfit-test-report.XXXXXX";
    ok(mkdtemp(dir) != NULL, "a scratch folder");
    char out[256], path[512];
    snprintf(out, sizeof out, "%s/r", dir);
    cf_report_opts o = {.table = t,
                        .table_path = "bcast.csv",
                        .models = ms,
                        .model_path = "bcast.json",
                        .out_dir = out};
    cf_report_result res;
    cf_error_clear(&e);
    is_int(cf_report_write(&o, &res, &e), 0, "a report with an across-np model: %s", e.msg);
    snprintf(path, sizeof path, "%s/np-bcast.dat", out);
    const char *dat = slurp(path);
    ok(strstr(dat, "# [1] within the fitted np") != NULL &&
           strstr(dat, "# [2] extrapolated") != NULL,
       "np-bcast.dat: the model within and beyond the fitted np");
    ok(strstr(dat, "\n32 ") != NULL, "extrapolated to four times the largest np");
    snprintf(path, sizeof path, "%s/np-bcast.gp", out);
    const char *gp = slurp(path);
    ok(strstr(gp, "index 2 using 1:2 with lines lt 1 dt 2 notitle") != NULL,
       "the extrapolated part is dashed");
    ok(strstr(gp, "index 1 using 1:2 with lines lt 1 notitle") != NULL, "the fitted part is solid");
    ok(strstr(gp, "keyentry with lines lc rgb '#000000' dt 2 title 'across-np model, "
                  "extrapolated beyond the np fitted'") != NULL &&
           strstr(gp, "keyentry with lines lc rgb '#000000' title 'across-np model'") != NULL,
       "the key says once, in black, what solid and dashed mean");
    ok(strstr(gp, "'16' 16, '32' 32)") != NULL, "the np axis reaches the extrapolated counts");
    snprintf(path, sizeof path, "%s/index.html", out);
    ok(strstr(slurp(path), "<h3>Across process counts</h3>") != NULL,
       "the page has the across-np table");
    cf_modelset_free(ms);
    cf_table_free(t);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ok(system(cmd) == 0, "clean up");
}

/* A model fitted at some of the table's process counts (fit --np 4,8,16 of a table with np
 * 2 to 32): the plot's solid part is the model's fitted range, not the table's, and the
 * measured np=2 and np=32 lie on its dashed parts. */
static void across_np_subset(void)
{
    cf_table *t = cf_table_alloc();
    cf_row r;
    cf_row_init(&r);
    strcpy(r.pattern, "bcast");
    strcpy(r.datatype, "byte");
    for (int np = 2, lg = 1; np <= 32; np *= 2, lg++)
        for (uint64_t m = 1; m <= 65536; m *= 4) {
            r.np = np;
            r.bytes = m;
            r.t_avg_us = r.t_min_us = r.t_max_us = lg * (1.5 + (double)m / 2000);
            cf_table_add(t, &r);
        }
    const cf_row **rows = malloc(t->n_rows * sizeof *rows);
    size_t n = 0;
    for (size_t i = 0; i < t->n_rows; i++)
        if (t->rows[i].np >= 4 && t->rows[i].np <= 16)
            rows[n++] = &t->rows[i];
    cf_modelset *ms = cf_modelset_alloc();
    ms->source = json_pack("{s:s}", "statistic", "mean");
    char **notes = NULL;
    size_t nnotes = 0;
    cf_error e;
    cf_error_clear(&e);
    is_int(cf_across_fit_set(rows, n, "t_avg_us", NULL, NULL, NULL, 1, &ms->across, &notes, &nnotes, &e), 0,
           "an across-np model of bcast at np 4-16: %s", e.msg);
    cf_notes_free(notes, nnotes);
    free(rows);

    char dir[] = "/tmp/commfit-test-report.XXXXXX";
    ok(mkdtemp(dir) != NULL, "a scratch folder");
    char out[256], path[512];
    snprintf(out, sizeof out, "%s/r", dir);
    cf_report_opts o = {.table = t,
                        .table_path = "bcast.csv",
                        .models = ms,
                        .model_path = "bcast.json",
                        .out_dir = out};
    cf_report_result res;
    cf_error_clear(&e);
    is_int(cf_report_write(&o, &res, &e), 0, "a report of the table at np 2-32: %s", e.msg);
    snprintf(path, sizeof path, "%s/np-bcast.dat", out);
    const char *dat = slurp(path);
    /* The first size's blocks: its points, then the model's three parts. */
    const char *below = strstr(dat, "# [1] below the fitted np\n");
    const char *within = strstr(dat, "# [2] within the fitted np\n");
    const char *beyond = strstr(dat, "# [3] extrapolated\n");
    ok(below != NULL && within != NULL && beyond != NULL,
       "np-bcast.dat: the model below, within and beyond the fitted np");
    long first = 0, last = 0;
    if (within != NULL && beyond != NULL) {
        const char *l = strchr(strchr(within, '\n') + 1, '\n') + 1;
        first = strtol(l, NULL, 10);
        for (; l < beyond && *l != '\n'; l = strchr(l, '\n') + 1)
            last = strtol(l, NULL, 10);
    }
    ok(first == 4 && last == 16, "solid from np 4 to 16, the fitted np (%ld to %ld)", first, last);
    if (below != NULL) {
        const char *l = strchr(strchr(below, '\n') + 1, '\n') + 1;
        is_int((int)strtol(l, NULL, 10), 2, "dashed below, from the table's np 2");
    }
    if (beyond != NULL) {
        const char *l = strchr(strchr(beyond, '\n') + 1, '\n') + 1;
        is_int((int)strtol(l, NULL, 10), 16, "dashed beyond, from the largest fitted np");
    }
    ok(strstr(dat, "\n128 ") != NULL, "extrapolated to four times the table's largest np");
    snprintf(path, sizeof path, "%s/np-bcast.gp", out);
    const char *gp = slurp(path);
    ok(strstr(gp, "index 1 using 1:2 with lines lt 1 dt 2 notitle") != NULL &&
           strstr(gp, "index 2 using 1:2 with lines lt 1 notitle") != NULL &&
           strstr(gp, "index 3 using 1:2 with lines lt 1 dt 2 notitle") != NULL,
       "dashed below, solid within, dashed beyond");
    ok(strstr(gp, "set arrow from 16, graph 0 to 16, graph 1") != NULL,
       "the dotted vertical line at the largest fitted np");
    cf_modelset_free(ms);
    cf_table_free(t);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ok(system(cmd) == 0, "clean up");
}

/* What cf_report_hint prints, through a file in place of stderr. */
static const char *hint(const char *option, const char *path)
{
    static char buf[512];
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 2);
    cf_set_subcommand("fit");
    cf_report_hint(option, path);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(buf, 1, sizeof buf - 1, tmp);
    buf[n] = '\0';
    fclose(tmp);
    return buf;
}

static void hints(void)
{
    is_str(hint("-m", "models/node1-2026.json"),
           "commfit: fit: draw the report with: commfit report -m models/node1-2026.json\n",
           "the hint names the file as it is");
    is_str(hint("-i", "my data/it's.csv"),
           "commfit: fit: draw the report with: commfit report -i 'my data/it'\\''s.csv'\n",
           "a path with a space or a quote is quoted for the shell");
    char small[40];
    is_int(cf_report_hint_text(small, sizeof small, "-i", "data/x.csv"), -1,
           "a buffer too small is refused");
    is_int(strlen(small), sizeof small - 1, "and left terminated");
}

static void default_dir(void)
{
    char *d = cf_report_default_dir("data/host-2026-11-22.csv");
    is_str(d, "report/host-2026-11-22", "report/NAME for data/NAME.csv");
    free(d);
    d = cf_report_default_dir("models/a.b.json");
    is_str(d, "report/a.b", "only the last extension goes");
    free(d);
    d = cf_report_default_dir(".hidden");
    is_str(d, "report/.hidden", "a leading dot is not an extension");
    free(d);
}

int main(void)
{
    ticks();
    quoting();
    rows();
    spread();
    finding();
    default_dir();
    folder();
    across_np();
    across_np_subset();
    hints();
    return tap_done();
}
