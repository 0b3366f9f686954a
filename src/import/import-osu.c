/* commfit import osu: the tables of OSU Micro-Benchmarks output, versions 5.x to 7.x. A
 * table is a "# OSU MPI... Test vX.Y" title, optional "# Datatype:" and "# [ pairs: N ]"
 * lines, a column header, and rows up to the first line that is not a row. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "base/size.h"

enum role { R_OTHER, R_SIZE, R_AVG, R_MIN, R_MAX, R_ITER, R_BW, R_RATE, R_PURE, R_PMIN,
            R_PMAX, R_TEXT, R_NROLES };
#define MAXCOLS 16

/* Column names without blanks, in lower case, longest first where one starts another;
 * with their lengths, as the header of every table is matched against all of them. */
#define WORD(name, role) {name, sizeof name - 1, role}
static const struct {
    const char *name;
    size_t len;
    enum role role;
} vocab[] = {
    WORD("size", R_SIZE),
    WORD("avglatency(us)", R_AVG),
    WORD("minlatency(us)", R_MIN),
    WORD("maxlatency(us)", R_MAX),
    WORD("latency(us)", R_AVG),
    WORD("iterations", R_ITER),
    WORD("bi-bandwidth(mb/s)", R_BW),
    WORD("bandwidth(mb/s)", R_BW),
    WORD("mb/s", R_BW),
    WORD("messages/s", R_RATE),
    WORD("overall(us)", R_OTHER),
    WORD("compute(us)", R_OTHER),
    WORD("coll.init(us)", R_OTHER),
    WORD("mpi_test(us)", R_OTHER),
    WORD("mpi_wait(us)", R_OTHER),
    WORD("purecomm.(us)", R_PURE),
    WORD("mincomm.(us)", R_PMIN),
    WORD("maxcomm.(us)", R_PMAX),
    WORD("overlap(%)", R_OTHER),
    WORD("p50taillat(us)", R_OTHER),
    WORD("p90taillat(us)", R_OTHER),
    WORD("p99taillat(us)", R_OTHER),
    WORD("validation", R_TEXT),
};
#define NVOCAB (sizeof vocab / sizeof vocab[0])

enum np_rule { NP_TWO, NP_PAIRS, NP_GIVEN };

/* What each OSU test measures, by the title's words between the product and "Test". */
static const struct {
    const char *title;
    const char *pattern;
    enum np_rule np;
    int bw_only;
} tests[] = {
    {"latency", "pingpong", NP_TWO, 0},
    {"multi-threaded latency", "latency_mt", NP_TWO, 0},
    {"multi latency", "multi_lat", NP_GIVEN, 0},
    {"bandwidth", "bw", NP_TWO, 1},
    {"bi-directional bandwidth", "bibw", NP_TWO, 1},
    {"multiple bandwidth / message rate", "mbw_mr", NP_PAIRS, 1},
    {"all-to-all personalized exchange latency", "alltoall", NP_GIVEN, 0},
    {"all-to-allv personalized exchange latency", "alltoallv", NP_GIVEN, 0},
    {"allgather latency", "allgather", NP_GIVEN, 0},
    {"allgatherv latency", "allgatherv", NP_GIVEN, 0},
    {"allreduce latency", "allreduce", NP_GIVEN, 0},
    {"barrier latency", "barrier", NP_GIVEN, 0},
    {"broadcast latency", "bcast", NP_GIVEN, 0},
    {"bcast latency", "bcast", NP_GIVEN, 0},
    {"gather latency", "gather", NP_GIVEN, 0},
    {"gatherv latency", "gatherv", NP_GIVEN, 0},
    {"reduce latency", "reduce", NP_GIVEN, 0},
    {"reduce_scatter latency", "reduce_scatter", NP_GIVEN, 0},
    {"reduce_scatter_block latency", "reduce_scatter_block", NP_GIVEN, 0},
    {"scatter latency", "scatter", NP_GIVEN, 0},
    {"scatterv latency", "scatterv", NP_GIVEN, 0},
};
#define NTESTS (sizeof tests / sizeof tests[0])

typedef struct osu_table {
    long line;
    char title[120];   /* "Allreduce Latency" as printed, for messages */
    char product[24];  /* "MPI", "MPI-CUDA" */
    char version[16];
    char pattern[CF_PATTERN_MAX];
    int known;         /* the title is one of tests[] (or a one-sided test) */
    int no_table;      /* osu_hello or osu_init: a title, then a line of text */
    enum np_rule np_rule;
    int bw_only, nonblocking;
    long pairs;
    char datatype[CF_DATATYPE_MAX];
    int ncols;
    enum role col[MAXCOLS];
    int has[R_NROLES];
    char header[160];
    int np_given;    /* its process count is --np's (OSU prints none for collectives) */
    char buffers[4]; /* MPI-CUDA's "Send Buffer on DEVICE (D) and Receive Buffer on HOST (H)":
                        "_dh"; "" for host to host, or a test that does not say */
} osu_table;

static char lc(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static int word_eq(const cf_import_field *f, const char *w)
{
    size_t k = strlen(w);
    if (f->n != k)
        return 0;
    for (size_t i = 0; i < k; i++)
        if (lc(f->s[i]) != w[i])
            return 0;
    return 1;
}

/* "# OSU MPI[-CUDA] <Test> Test vX.Y": fills title, product, version and what the test
 * is; 0 when the line is not a title. */
static int title_line(const cf_import_line *l, osu_table *tb)
{
    if (!cf_import_starts(l->s, l->n, "# OSU "))
        return 0;
    cf_import_field f[24];
    int k = cf_import_split(l->s, l->n, f, 24);
    if (k < 4 || k > 24)
        return 0;
    /* Titles end "Test" or "Test vX.Y"; other "# OSU ..." lines are free text. */
    int end = 0;
    for (int i = k - 1; i >= k - 2 && i >= 3; i--)
        if (word_eq(&f[i], "test"))
            end = i;
    if (end == 0)
        return 0;
    memset(tb, 0, sizeof *tb);
    tb->line = l->no;
    if (end + 1 < k && (f[end + 1].s[0] == 'v' || f[end + 1].s[0] == 'V'))
        cf_import_copy(tb->version, sizeof tb->version, f[end + 1].s + 1, f[end + 1].n - 1);
    cf_import_copy(tb->product, sizeof tb->product, f[2].s, f[2].n);
    char name[120];
    size_t n = 0;
    for (int i = 3; i < end && n + 1 < sizeof name; i++) {
        if (n > 0)
            name[n++] = ' ';
        for (size_t j = 0; j < f[i].n && n + 1 < sizeof name; j++)
            name[n++] = lc(f[i].s[j]);
    }
    name[n] = '\0';
    const char *last = f[end - 1].s + f[end - 1].n;
    cf_import_copy(tb->title, sizeof tb->title, end > 3 ? f[3].s : "",
                   end > 3 ? (size_t)(last - f[3].s) : 0);
    tb->np_rule = NP_GIVEN;
    const char *prod = tb->product;
    if (strncmp(prod, "MPI_", 4) == 0 && prod[4] != '\0') {
        /* One-sided tests: "# OSU MPI_Put Latency Test", "MPI_Get Bandwidth" ... */
        char op[24];
        size_t i = 0;
        for (; prod[4 + i] && i + 1 < sizeof op; i++)
            op[i] = lc(prod[4 + i]);
        op[i] = '\0';
        const char *kind = strcmp(name, "latency") == 0                    ? "lat"
                           : strcmp(name, "bandwidth") == 0                ? "bw"
                           : strcmp(name, "bi-directional bandwidth") == 0 ? "bibw"
                                                                           : NULL;
        if (kind != NULL &&
            (size_t)snprintf(tb->pattern, sizeof tb->pattern, "%s_%s", op, kind) <
                sizeof tb->pattern) {
            tb->known = 1;
            tb->np_rule = NP_TWO;
            tb->bw_only = kind[0] == 'b';
        }
        return 1;
    }
    if (strncmp(prod, "MPI", 3) != 0)
        return 1;
    const char *lookup = name;
    if (strcmp(name, "hello world") == 0 || strcmp(name, "init") == 0) {
        tb->no_table = 1;
        return 1;
    }
    if (strncmp(name, "non-blocking ", 13) == 0) {
        tb->nonblocking = 1;
        lookup = name + 13;
    }
    for (size_t i = 0; i < NTESTS; i++) {
        if (strcmp(lookup, tests[i].title) != 0)
            continue;
        if (tb->nonblocking && (tests[i].np != NP_GIVEN || tests[i].bw_only))
            break;
        cf_import_copy(tb->pattern, sizeof tb->pattern, "i", tb->nonblocking);
        cf_import_append(tb->pattern, sizeof tb->pattern, tests[i].pattern,
                         strlen(tests[i].pattern));
        tb->known = 1;
        tb->np_rule = tests[i].np;
        tb->bw_only = tests[i].bw_only;
        break;
    }
    return 1;
}

static int is_title(const cf_import_line *l)
{
    osu_table scratch;
    return title_line(l, &scratch);
}

/* The column header: known names in any spacing ("Latency (us)", "Avg Latency(us)"). */
static int header_greedy(const char *s, size_t n, osu_table *tb)
{
    char norm[256];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ' ' || s[i] == '\t')
            continue;
        if (m + 1 >= sizeof norm)
            return -1;
        norm[m++] = lc(s[i]);
    }
    int k = 0;
    size_t p = 0;
    while (p < m) {
        size_t best = 0;
        enum role role = R_OTHER;
        for (size_t v = 0; v < NVOCAB; v++) {
            size_t vn = vocab[v].len;
            if (vn > best && vn <= m - p && norm[p] == vocab[v].name[0] &&
                memcmp(norm + p, vocab[v].name, vn) == 0) {
                best = vn;
                role = vocab[v].role;
            }
        }
        if (best == 0 || k >= MAXCOLS)
            return -1;
        tb->col[k++] = role;
        p += best;
    }
    tb->ncols = k;
    return k > 0 ? 0 : -1;
}

/* Names the vocabulary does not know: columns are then separated by two or more blanks,
 * and unknown ones are carried as numbers and otherwise ignored. */
static int header_spaced(const char *s, size_t n, osu_table *tb)
{
    int k = 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i >= n)
            break;
        size_t start = i;
        while (i < n && !((s[i] == ' ' || s[i] == '\t') && i + 1 < n &&
                          (s[i + 1] == ' ' || s[i + 1] == '\t')) &&
               s[i] != '\t')
            i++;
        if (k >= MAXCOLS)
            return -1;
        osu_table one;
        one.ncols = 0;
        enum role r = R_OTHER;
        if (header_greedy(s + start, i - start, &one) == 0 && one.ncols == 1)
            r = one.col[0];
        tb->col[k++] = r;
    }
    tb->ncols = k;
    return k > 0 ? 0 : -1;
}

static int column_header(const cf_import_line *l, osu_table *tb)
{
    const char *s = l->s;
    size_t n = l->n;
    while (n > 0 && (*s == ' ' || *s == '\t' || *s == '#')) {
        s++;
        n--;
    }
    if (header_greedy(s, n, tb) != 0 && header_spaced(s, n, tb) != 0)
        return -1;
    memset(tb->has, 0, sizeof tb->has);
    for (int i = 0; i < tb->ncols; i++) {
        if (tb->col[i] != R_OTHER && tb->has[tb->col[i]])
            return -1;
        tb->has[tb->col[i]] = 1;
    }
    if (!tb->has[R_AVG] && !tb->has[R_BW] && !tb->has[R_RATE] && !tb->has[R_PURE])
        return -1;
    cf_import_copy(tb->header, sizeof tb->header, s, n);
    return 0;
}

typedef struct osu_row {
    uint64_t size, iters;
    double v[R_NROLES];
    int dec[R_NROLES];
    int failed; /* the Validation column says Fail */
} osu_row;

/* Whether a Validation field says Fail (OSU prints Pass or Fail). */
static int says_fail(const char *s, size_t n)
{
    return n == 4 && lc(s[0]) == 'f' && lc(s[1]) == 'a' && lc(s[2]) == 'i' && lc(s[3]) == 'l';
}

/* The common case of parse_row in one pass, each field read where it stands: 0 when the
 * line is a row of the table (then parse_row would read the same), -1 when it may be
 * anything else, left to parse_row. */
static int parse_row_fast(const cf_import_line *l, const osu_table *tb, osu_row *r)
{
    const char *p = l->s, *end = l->s + l->n;
    memset(r, 0, sizeof *r);
    for (int i = 0; i < tb->ncols; i++) {
        p = cf_import_skip_blanks(p, end);
        if (p == end)
            return -1;
        enum role c = tb->col[i];
        if (c == R_SIZE) {
            p = cf_import_scan_uint(p, end, CF_BYTES_MAX, &r->size);
        } else if (c == R_ITER) {
            p = cf_import_scan_uint(p, end, (uint64_t)1 << 53, &r->iters);
        } else if (c == R_TEXT) {
            const char *w = p;
            while (p < end && *p != ' ' && *p != '\t')
                p++;
            r->failed |= says_fail(w, (size_t)(p - w));
        } else {
            double x;
            int d;
            p = cf_import_scan_number(p, end, &x, &d);
            if (p == NULL || x < 0)
                return -1;
            r->v[c] = x;
            r->dec[c] = d;
        }
        if (p == NULL || (p < end && *p != ' ' && *p != '\t'))
            return -1;
    }
    return cf_import_skip_blanks(p, end) == end ? 0 : -1;
}

/* 0: a row of this table; 1: numbers, but not as many as the columns; -1: not a row. */
static int parse_row(const cf_import_line *l, const osu_table *tb, osu_row *r, int *nf)
{
    if (parse_row_fast(l, tb, r) == 0) {
        *nf = tb->ncols;
        return 0;
    }
    cf_import_field f[MAXCOLS];
    int k = cf_import_split(l->s, l->n, f, MAXCOLS);
    *nf = k;
    if (k == 0)
        return -1;
    if (k != tb->ncols) {
        for (int i = 0; i < k && i < MAXCOLS; i++) {
            double x;
            if (cf_import_number(f[i].s, f[i].n, &x, NULL) != 0)
                return -1;
        }
        return 1;
    }
    memset(r, 0, sizeof *r);
    for (int i = 0; i < k; i++) {
        enum role c = tb->col[i];
        if (c == R_SIZE) {
            if (cf_import_uint(f[i].s, f[i].n, CF_BYTES_MAX, &r->size) != 0)
                return -1;
        } else if (c == R_ITER) {
            if (cf_import_uint(f[i].s, f[i].n, (uint64_t)1 << 53, &r->iters) != 0)
                return -1;
        } else if (c == R_TEXT) {
            r->failed |= says_fail(f[i].s, f[i].n);
        } else {
            double x;
            int d;
            if (cf_import_number(f[i].s, f[i].n, &x, &d) != 0 || x < 0)
                return -1;
            r->v[c] = x;
            r->dec[c] = d;
        }
    }
    return 0;
}

static int add_row(cf_import *im, const osu_table *tb, const osu_row *o, long line, cf_error *e)
{
    if (o->failed) {
        if (im->cur.failed_skipped++ == 0)
            im->cur.failed_first = line;
        return 0;
    }
    cf_row r;
    cf_row_init(&r);
    r.bytes = tb->has[R_SIZE] ? o->size : 0;
    r.reps = (long)o->iters;
    r.samples = 1;
    double t, tmin, tmax;
    int mindec = 2;
    if (tb->bw_only) {
        double bw = o->v[R_BW], rate = o->v[R_RATE];
        /* Both printed (mbw_mr): they say one thing, MB/s = bytes x messages/s / 10^6,
         * within their printed digits; a row where they part is no measurement to pick one
         * of (a hand edit, columns mixed up). */
        if (tb->has[R_RATE] && tb->has[R_BW] && rate > 0 && bw > 0 && r.bytes > 0) {
            double from_rate = (double)r.bytes * rate / 1e6;
            double slack = 0.01 * bw + 0.5 * pow(10, -o->dec[R_BW]) +
                           (double)r.bytes * 0.5 * pow(10, -o->dec[R_RATE]) / 1e6;
            if (fabs(bw - from_rate) > slack)
                return cf_import_table_fail(im, e, line,
                                            "%s: %llu bytes at %.*f messages/s is %.2f MB/s, "
                                            "where the row says %.*f MB/s: expected the two to "
                                            "agree",
                                            tb->title, (unsigned long long)r.bytes,
                                            o->dec[R_RATE], rate, from_rate, o->dec[R_BW], bw);
        }
        if (tb->has[R_RATE] && rate > 0)
            t = 1e6 / rate;
        else if (tb->has[R_BW] && bw > 0 && r.bytes > 0)
            t = (double)r.bytes / bw; /* OSU's MB/s is 10^6 bytes/s: bytes per us */
        else {
            if (im->cur.notime_skipped++ == 0)
                im->cur.notime_first = line;
            return 0;
        }
        tmin = tmax = t;
        r.bw_MiBps = tb->has[R_BW] ? bw / 1.048576 : (double)r.bytes / (1.048576 * t);
    } else {
        int avg = tb->nonblocking && tb->has[R_PURE] ? R_PURE : tb->has[R_AVG] ? R_AVG : R_PURE;
        int mn = avg == R_PURE ? R_PMIN : R_MIN, mx = avg == R_PURE ? R_PMAX : R_MAX;
        t = o->v[avg];
        if (t == 0) {
            if (im->cur.zero_skipped++ == 0)
                im->cur.zero_first = line;
            return 0;
        }
        tmin = tb->has[mn] ? o->v[mn] : t;
        mindec = tb->has[mn] ? o->dec[mn] : o->dec[avg];
        tmax = tb->has[mx] ? o->v[mx] : t;
        /* Zero is below the printed resolution: the middle of what rounds to zero. */
        if (tmin == 0)
            tmin = 0.25 * pow(10, -mindec);
        if (strcmp(im->cur.pattern, "pingpong") == 0)
            r.bw_MiBps = (double)r.bytes / (1.048576 * t);
    }
    r.t_min_us = tmin;
    r.t_avg_us = t;
    r.t_max_us = tmax;
    r.t_med_us = t;
    if (tb->bw_only)
        im->bw_only = 1;
    return cf_import_table_row(im, line, &r, e);
}

static int start_table(cf_import *im, osu_table *tb, cf_error *e)
{
    const char *pattern = tb->known ? tb->pattern : im->o.pattern;
    if (pattern == NULL)
        return cf_import_table_fail(im, e, tb->line,
                                    "unknown OSU test '%s %s': name its pattern with --pattern",
                                    tb->product, tb->title);
    int np = 0;
    if (tb->known && tb->np_rule == NP_TWO)
        np = 2;
    else if (tb->np_rule == NP_PAIRS && tb->pairs > 0 && tb->pairs <= CF_TABLE_NP_MAX / 2)
        np = 2 * (int)tb->pairs;
    else if (im->o.np > 0)
        np = im->o.np, tb->np_given = 1;
    else
        return cf_import_table_fail(im, e, tb->line,
                                    "the OSU %s table does not state its process count (OSU "
                                    "prints none for collectives): give it with --np N",
                                    tb->title);
    const char *dt = tb->datatype[0] ? tb->datatype
                     : strstr(pattern, "reduce") != NULL ? "float"
                                                         : "byte";
    /* GPU buffers are another measurement than host memory's: a pattern of their own
     * (pingpong_dd), never pooled with the host's (device and host latencies of one file
     * made one fit of leave-one-out 110%). */
    char named[CF_PATTERN_MAX];
    size_t pn = strlen(pattern), bn = strlen(tb->buffers);
    if (bn > 0 && pn + bn < sizeof named) {
        memcpy(named, pattern, pn);
        memcpy(named + pn, tb->buffers, bn + 1);
        pattern = named;
    }
    int rc = cf_import_table_start(im, tb->line, tb->title, pattern, np, dt, e);
    /* osu_reduce_scatter's size is the whole vector, spread over the ranks. */
    if (rc == 0)
        cf_import_table_vector_bytes(im, 1);
    return rc;
}

/* A line that starts like a number (a digit, or a sign or a point before one): meant as a
 * row, garbled where it does not read as one ("4194304.5  400.0", "-5  400.0", a size past
 * 1 TiB), last or not. Any other line ends the rows (a launcher's message: an error where
 * rows follow it). */
static int row_like(const cf_import_line *l)
{
    const char *p = cf_import_skip_blanks(l->s, l->s + l->n), *end = l->s + l->n;
    if (p < end && (*p == '-' || *p == '+'))
        p++;
    if (p < end && *p == '.')
        p++;
    return p < end && *p >= '0' && *p <= '9';
}

static void note_add(char *note, size_t cap, const char *item)
{
    if (strstr(note, item) != NULL)
        return;
    size_t n = strlen(note);
    snprintf(note + n, cap - n, "%s%s", n ? ", " : "", item);
}

/* The reader of a whole OSU file: a state per line, from title to header to rows. */
typedef struct osu_parse {
    cf_import *im;
    cf_error *e;
    osu_table tb;
    enum { OUT, HDR, ROWS, AFTER, SKIP } st;
    int again; /* the line is read again in the new state */
    long tables, imb_line, broke;
    char broke_text[64];
    char note[400];
    osu_row o;
    /* Tables whose process count is --np's, by pattern: several of one collective in a
     * file may have run at several counts, which one --np cannot tell apart. */
    struct {
        char pattern[CF_PATTERN_MAX], datatype[CF_DATATYPE_MAX];
        long n, first;
    } given[16];
    int ngiven;
} osu_parse;

/* A table that took --np's count, counted by pattern (table at line). */
static void count_given(osu_parse *P, const char *pattern, const char *datatype, long line)
{
    /* By datatype too: OSU 7's blocks of one run over several datatypes are no runs at
     * several counts. */
    int i = 0;
    while (i < P->ngiven && (strcmp(P->given[i].pattern, pattern) != 0 ||
                             strcmp(P->given[i].datatype, datatype) != 0))
        i++;
    if (i == P->ngiven) {
        if (P->ngiven == (int)(sizeof P->given / sizeof P->given[0]))
            return;
        snprintf(P->given[i].pattern, sizeof P->given[i].pattern, "%s", pattern);
        snprintf(P->given[i].datatype, sizeof P->given[i].datatype, "%s", datatype);
        P->given[i].n = 0;
        P->given[i].first = line;
        P->ngiven++;
    }
    P->given[i].n++;
}

/* Between tables: a title starts one; IMB's title is remembered to say so. */
static int osu_out(osu_parse *P, const cf_import_line *l, int hash)
{
    osu_table *tb = &P->tb;
    int title = title_line(l, tb);
    if (title && tb->no_table) {
        /* osu_hello and osu_init print a line of text, no table. */
        P->tables++;
        cf_import_warnf(P->im, l->no, "note: the OSU %s test prints no table: passed over",
                        tb->title);
        P->st = SKIP;
    } else if (title) {
        P->tables++;
        P->st = HDR;
        /* "OSU %s" or "OSU %s %s" of the product and version, without printf */
        char item[64] = "OSU ";
        const char *ver = tb->version[0] ? tb->version : "?";
        if (strcmp(tb->product, "MPI") != 0) {
            cf_import_append(item, sizeof item, tb->product, strlen(tb->product));
            cf_import_append(item, sizeof item, " ", 1);
        }
        cf_import_append(item, sizeof item, ver, strlen(ver));
        note_add(P->note, sizeof P->note, item);
    } else if (P->imb_line == 0 && (cf_import_starts(l->s, l->n, "# Benchmarking ") ||
                                    (hash && memmem(l->s, l->n, "MPI Benchmark", 13)))) {
        P->imb_line = l->no;
    }
    return 0;
}

/* "# Datatype: MPI_CHAR" or "# ... pairs: 8" before the column header. */
static void osu_header_note(osu_parse *P, const cf_import_line *l)
{
    osu_table *tb = &P->tb;
    if (cf_import_starts(l->s, l->n, "# Datatype:")) {
        const char *p = memchr(l->s, ':', l->n) + 1;
        size_t n = (size_t)(l->s + l->n - p);
        while (n > 0 && *p == ' ') {
            p++;
            n--;
        }
        char b[CF_DATATYPE_MAX];
        const char *d = cf_import_datatype(p, n, b, sizeof b);
        if (d != NULL)
            snprintf(tb->datatype, sizeof tb->datatype, "%s", d);
        return;
    }
    const char *p = (const char *)memmem(l->s, l->n, "pairs:", 6) + 6;
    cf_import_field f[1];
    uint64_t v;
    if (cf_import_split(p, (size_t)(l->s + l->n - p), f, 1) >= 1 &&
        cf_import_uint(f[0].s, f[0].n, CF_TABLE_NP_MAX / 2, &v) == 0 && v > 0) {
        tb->pairs = (long)v;
        char item[32];
        snprintf(item, sizeof item, "%ld pairs", tb->pairs);
        note_add(P->note, sizeof P->note, item);
    }
}

/* MPI-CUDA's "# Send Buffer on DEVICE (D) and Receive Buffer on HOST (H)": "_dh" into
 * tb->buffers (D device, H host, M managed), "" for host to host. */
static void buffers_line(const cf_import_line *l, osu_table *tb)
{
    const char *end = l->s + l->n, *at[2];
    at[0] = memmem(l->s, l->n, "Send Buffer on ", 15);
    at[1] = memmem(l->s, l->n, "Receive Buffer on ", 18);
    char w[2];
    for (int i = 0; i < 2; i++) {
        const char *p = at[i] == NULL ? end : at[i] + (i ? 18 : 15);
        w[i] = p < end ? lc(*p) : 'h';
        if (w[i] != 'd' && w[i] != 'h' && w[i] != 'm')
            w[i] = 'h';
    }
    if (w[0] == 'h' && w[1] == 'h')
        tb->buffers[0] = '\0';
    else
        snprintf(tb->buffers, sizeof tb->buffers, "_%c%c", w[0], w[1]);
}

/* The column header read: the table starts, if its columns measure what its test does. */
static int osu_columns(osu_parse *P, const cf_import_line *l)
{
    osu_table *tb = &P->tb;
    /* A test this version does not know, named with --pattern: its columns say whether
     * it measures time or only bandwidth. */
    if (!tb->known && !tb->has[R_AVG] && !tb->has[R_PURE])
        tb->bw_only = 1;
    if (tb->bw_only && !tb->has[R_BW] && !tb->has[R_RATE]) {
        P->st = SKIP;
        return cf_import_table_fail(P->im, P->e, l->no,
                                    "the OSU %s table has no bandwidth column: expected "
                                    "'MB/s' or 'Bandwidth (MB/s)'",
                                    tb->title);
    }
    if (!tb->bw_only && !tb->has[R_AVG] && !tb->has[R_PURE]) {
        P->st = SKIP;
        return cf_import_table_fail(P->im, P->e, l->no,
                                    "the OSU %s table has no latency column: expected "
                                    "'Latency (us)' or 'Avg Latency(us)'",
                                    tb->title);
    }
    int rc = start_table(P->im, tb, P->e);
    if (rc == 0 && P->im->cur.active && tb->np_given)
        count_given(P, P->im->cur.pattern, P->im->cur.datatype, tb->line);
    P->st = P->im->cur.active ? ROWS : SKIP;
    return rc;
}

/* After a title: notes, then the column header. */
static int osu_hdr(osu_parse *P, const cf_import_line *l, int hash)
{
    osu_table *tb = &P->tb;
    int rc = 0;
    if (l->n == 0)
        return 0;
    if (!hash) {
        rc = cf_import_table_fail(P->im, P->e, l->no,
                                  "expected the column header of the OSU %s table ('# Size  "
                                  "Latency (us)' or the like), got '%.*s'",
                                  tb->title, CF_IMPORT_QUOTE(l->s, l->n));
        P->st = SKIP;
    } else if (is_title(l)) {
        rc = cf_import_table_fail(P->im, P->e, tb->line,
                                  "the OSU %s table has no column header: it is cut off "
                                  "before line %ld",
                                  tb->title, l->no);
        P->st = OUT;
        P->again = 1;
    } else if (cf_import_starts(l->s, l->n, "# Datatype:") ||
               memmem(l->s, l->n, "pairs:", 6) != NULL) {
        osu_header_note(P, l);
    } else if (memmem(l->s, l->n, "Send Buffer on ", 15) != NULL) {
        buffers_line(l, tb);
    } else if (column_header(l, tb) == 0) {
        rc = osu_columns(P, l);
    }
    return rc;
}

/* Whether l opens another block of the same test: OSU 7's runs over several datatypes
 * (-T mpi_char,mpi_int) print one title, then for each datatype its "# Datatype:" line, a
 * column header and rows; a column header repeated without one is such a block too. */
static int next_block(const cf_import_line *l, const osu_table *tb)
{
    osu_table scratch = *tb;
    return cf_import_starts(l->s, l->n, "# Datatype:") || column_header(l, &scratch) == 0;
}

/* The table ends at l, which opens another block of its test (next_block): the next table
 * has its title, and reads its datatype (or keeps the one before) and columns anew. */
static int osu_next_block(osu_parse *P, const cf_import_line *l)
{
    osu_table *tb = &P->tb;
    int rc = cf_import_table_end(P->im, P->e);
    tb->line = l->no;
    tb->ncols = 0;
    memset(tb->col, 0, sizeof tb->col);
    memset(tb->has, 0, sizeof tb->has);
    tb->header[0] = '\0';
    P->st = HDR;
    P->again = 1;
    return rc;
}

/* A line that is not a row inside a table's rows: the table's end, or an error. */
static int osu_not_row(osu_parse *P, const cf_import_line *l, int hash)
{
    osu_table *tb = &P->tb;
    cf_import *im = P->im;
    int rc = 0;
    if (im->cur.n == 0 && im->cur.zero_skipped == 0 && im->cur.notime_skipped == 0 &&
        im->cur.failed_skipped == 0) {
        rc = cf_import_table_fail(im, P->e, tb->line,
                                  "the OSU %s table has a column header but no rows: it is "
                                  "cut off before line %ld",
                                  tb->title, l->no);
        P->st = hash ? OUT : SKIP;
        P->again = hash;
    } else if (hash && is_title(l)) {
        rc = cf_import_table_end(im, P->e);
        P->st = OUT;
        P->again = 1;
    } else if (hash && next_block(l, tb)) {
        rc = osu_next_block(P, l);
    } else if (!hash && row_like(l)) {
        /* A size, then what is not a row: a garbled row, last or not. */
        rc = cf_import_table_fail(im, P->e, l->no,
                                  "expected a row of the OSU %s table (%s): a size in whole "
                                  "bytes of at most 1099511627776 (1 TiB), then non-negative "
                                  "numbers, got '%.*s'",
                                  tb->title, tb->header, CF_IMPORT_QUOTE(l->s, l->n));
        P->st = SKIP;
    } else {
        /* The table ends here unless rows follow: then this line interrupts it. A '#' line
         * that is no title (a job script's comment, a title with words of a user's after
         * it) is one too: the rows after it were dropped without a word. */
        P->broke = l->no;
        snprintf(P->broke_text, sizeof P->broke_text, "%.*s", (int)(l->n > 60 ? 60 : l->n),
                 l->s);
        P->st = AFTER;
        if (hash)
            rc = osu_out(P, l, hash);
    }
    return rc;
}

/* A table's rows. */
static int osu_rows(osu_parse *P, const cf_import_line *l, int hash)
{
    osu_table *tb = &P->tb;
    int nf, rc = 0;
    int pr = hash ? -1 : parse_row(l, tb, &P->o, &nf);
    if (pr != 0 && !hash && !l->has_nl && l->n > 0 && l->s[0] >= '0' && l->s[0] <= '9') {
        rc = cf_import_table_fail(P->im, P->e, l->no,
                                  "the file ends inside a row (no end of line): the OSU %s "
                                  "table is cut off",
                                  tb->title);
        P->st = SKIP;
    } else if (pr == 0) {
        rc = add_row(P->im, tb, &P->o, l->no, P->e);
        if (rc == 0 && !P->im->cur.active)
            P->st = SKIP;
    } else if (pr == 1) {
        rc = cf_import_table_fail(P->im, P->e, l->no,
                                  "expected %d columns (%s) in a row of the OSU %s table, got "
                                  "%d: '%.*s'",
                                  tb->ncols, tb->header, tb->title, nf,
                                  CF_IMPORT_QUOTE(l->s, l->n));
        P->st = SKIP;
    } else {
        rc = osu_not_row(P, l, hash);
    }
    return rc;
}

/* After a line that ended the rows: a title ends the table; a row means the line
 * interrupted it; other lines ('#' or not) are passed over. */
static int osu_after(osu_parse *P, const cf_import_line *l, int hash)
{
    int nf;
    if (hash && is_title(l)) {
        P->st = OUT;
        P->again = 1;
        return cf_import_table_end(P->im, P->e);
    }
    /* After a line that broke the rows, only a datatype's line opens the next block: a
     * column header there may be another test's, whose title was not one (words after). */
    if (hash && cf_import_starts(l->s, l->n, "# Datatype:"))
        return osu_next_block(P, l);
    if (hash) /* no title: read as between tables (IMB's banner, say, is noted) */
        return osu_out(P, l, hash);
    if (parse_row(l, &P->tb, &P->o, &nf) == 0) {
        P->st = SKIP;
        return cf_import_table_fail(P->im, P->e, P->broke,
                                    "'%s' interrupts the OSU %s table (its rows go on at line "
                                    "%ld)",
                                    P->broke_text, P->tb.title, l->no);
    }
    return 0;
}

/* The end of the file: a table it cuts off, or the last table's end. */
static int osu_finish(osu_parse *P, const cf_import_line *l)
{
    osu_table *tb = &P->tb;
    cf_import *im = P->im;
    if (P->st == HDR)
        return cf_import_table_fail(im, P->e, tb->line,
                                    "the file ends before the rows of the OSU %s table: it is "
                                    "cut off",
                                    tb->title);
    if (P->st == ROWS && !l->has_nl)
        return cf_import_table_fail(im, P->e, l->no,
                                    "the file ends inside a row (no end of line): the OSU %s "
                                    "table is cut off",
                                    tb->title);
    if (P->st == ROWS && im->cur.n == 0 && im->cur.zero_skipped == 0 &&
        im->cur.notime_skipped == 0 && im->cur.failed_skipped == 0)
        return cf_import_table_fail(im, P->e, tb->line,
                                    "the OSU %s table has a column header but no rows: it is "
                                    "cut off",
                                    tb->title);
    if (P->st == ROWS || P->st == AFTER)
        return cf_import_table_end(im, P->e);
    return 0;
}

int cf_import_osu_parse(cf_import *im, const char *buf, size_t len, cf_error *e)
{
    osu_parse P;
    memset(&P, 0, sizeof P);
    P.im = im;
    P.e = e;
    P.st = OUT;
    int rc = 0;
    cf_import_lines it;
    cf_import_line l = {0};
    cf_import_lines_init(&it, buf, len);
    while (rc == 0 && cf_import_next_line(&it, &l)) {
        int hash = cf_import_starts(l.s, l.n, "#");
        do {
            P.again = 0;
            switch (P.st) {
            case SKIP:
                if (is_title(&l)) {
                    P.st = OUT;
                    P.again = 1;
                }
                break;
            case OUT:
                rc = osu_out(&P, &l, hash);
                break;
            case HDR:
                rc = osu_hdr(&P, &l, hash);
                break;
            case ROWS:
                rc = osu_rows(&P, &l, hash);
                break;
            case AFTER:
                rc = osu_after(&P, &l, hash);
                break;
            }
        } while (rc == 0 && P.again);
    }
    if (rc == 0 && it.too_long)
        return cf_import_long_line(im, &it, e);
    if (rc != 0 || (rc = osu_finish(&P, &l)) != 0)
        return rc;
    if (P.tables == 0) {
        if (P.imb_line > 0)
            return cf_error_set(e, CF_EXIT_DATA, im->file, P.imb_line,
                                "this is Intel MPI Benchmarks output: import it with "
                                "'commfit import imb'");
        return cf_error_set(e, CF_EXIT_DATA, im->file, 1,
                            "not OSU output: no '# OSU MPI ... Test' title in %ld line%s",
                            it.no, it.no == 1 ? "" : "s");
    }
    if (P.imb_line > 0)
        cf_import_warnf(im, P.imb_line,
                        "Intel MPI Benchmarks output is left out: import it with 'commfit "
                        "import imb'");
    for (int i = 0; i < P.ngiven; i++)
        if (P.given[i].n > 1)
            cf_import_warnf(im, P.given[i].first,
                            "%ld %s tables in this file all take --np %d (OSU prints no "
                            "process count): runs at several counts need a file each "
                            "(--np N1,N2 FILE1 FILE2)",
                            P.given[i].n, P.given[i].pattern, im->o.np);
    return cf_import_add_source(im, P.note, e);
}
