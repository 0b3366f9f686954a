/* commfit import imb: the tables of IMB-MPI1 output, versions 3.x to 2021+. A table is a
 * "# Benchmarking NAME" block, its column header and rows up to a blank line; everything
 * outside tables (banners, launcher and job-script lines) is read for facts or skipped. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "base/size.h"

enum col { C_OTHER, C_BYTES, C_REPS, C_T, C_TMIN, C_TMAX, C_TAVG, C_TPURE, C_MBPS, C_MSGS };
#define MAXCOLS 16

typedef struct imb_file {
    char version[48], date[64], mpi[32];
    int runs;         /* banners seen: several runs may be concatenated */
    uint64_t max_len; /* "Maximum message length in bytes", 0 = not stated */
    char dtype[CF_DATATYPE_MAX], dtype_red[CF_DATATYPE_MAX];
    int mb_decimal; /* how Mbytes/sec was read: 1 = 10^6, 0 = 2^20, -1 = no table */
    int mb_mixed;
    long p2p_line; /* the banner of an IMB-P2P part, 0 = none */
} imb_file;

typedef struct imb_table {
    long line;
    char name[48];
    int np;
    int ncols;
    enum col col[MAXCOLS];
    int has[C_MSGS + 1];
    char header[200];
    const char *mode; /* IMB-EXT's and IMB-RMA's "MODE: AGGREGATE" as a pattern's end, or NULL */
    int gave_up;      /* IMB printed "time-out." or "out-of-mem." for a size: none after it */
    uint64_t last_bytes;
    int bw_only;
    /* raw Mbytes/sec and the message count it implies, per kept row, to tell its unit */
    double best_q, best_prec;
} imb_table;

static int lower_eq(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    if (n != k)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != w[i])
            return 0;
    }
    return 1;
}

/* "# Benchmarking NAME": NAME into name; 0 when the line is not such a header. */
static int bench_line(const cf_import_line *l, char *name, size_t cap)
{
    if (!cf_import_starts(l->s, l->n, "# Benchmarking "))
        return 0;
    cf_import_field f[3];
    int k = cf_import_split(l->s, l->n, f, 3);
    if (k < 3)
        return 0;
    cf_import_copy(name, cap, f[2].s, f[2].n);
    return 1;
}

static void trim(const char **s, size_t *n)
{
    while (*n > 0 && (**s == ' ' || **s == '\t')) {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
        (*n)--;
}

/* Facts of the banner block: "#    Intel(R) MPI Benchmarks 2021.11, MPI-1 part" and the
 * "# Key : value" lines that follow it. */
static void banner_line(imb_file *fi, const cf_import_line *l)
{
    const char *s = l->s + 1;
    size_t n = l->n - 1;
    const char *b = memmem(s, n, "MPI Benchmark", 13);
    if (b != NULL) {
        const char *p = b + 13, *end = s + n;
        if (p < end && *p == 's')
            p++;
        while (p < end && *p == ' ')
            p++;
        if ((size_t)(end - p) >= 5 && memcmp(p, "Suite", 5) == 0)
            p += 5;
        while (p < end && *p == ' ')
            p++;
        if (p < end && (*p == 'V' || *p == 'v'))
            p++;
        const char *q = p;
        while (q < end && *q != ',')
            q++;
        size_t vn = (size_t)(q - p);
        trim(&p, &vn);
        fi->runs++;
        if (fi->runs == 1)
            snprintf(fi->version, sizeof fi->version, "%.*s", (int)vn, p);
        fi->max_len = 0;
        /* "..., IMB-P2P part": its PingPong and the rest run np/2 pairs at once, each
         * rank's time averaged and the bandwidth added up over them. */
        fi->p2p_line = memmem(q, (size_t)(end - q), "P2P", 3) != NULL ? l->no : 0;
        return;
    }
    const char *colon = memchr(s, ':', n);
    if (colon == NULL)
        return;
    const char *k = s, *v = colon + 1;
    size_t kn = (size_t)(colon - s), vn = n - kn - 1;
    trim(&k, &kn);
    trim(&v, &vn);
    if (kn == 4 && memcmp(k, "Date", 4) == 0) {
        if (fi->runs <= 1 && fi->date[0] == '\0')
            snprintf(fi->date, sizeof fi->date, "%.*s", (int)vn, v);
    } else if (kn == 11 && memcmp(k, "MPI Version", 11) == 0) {
        if (fi->runs <= 1 && fi->mpi[0] == '\0')
            snprintf(fi->mpi, sizeof fi->mpi, "%.*s", (int)vn, v);
    } else if (kn == 31 && memcmp(k, "Maximum message length in bytes", 31) == 0) {
        uint64_t m;
        if (cf_import_uint(v, vn, CF_BYTES_MAX, &m) == 0)
            fi->max_len = m;
    } else if (kn == 12 && memcmp(k, "MPI_Datatype", 12) == 0) {
        char buf[CF_DATATYPE_MAX];
        const char *d = cf_import_datatype(v, vn, buf, sizeof buf);
        if (d != NULL)
            snprintf(fi->dtype, sizeof fi->dtype, "%s", d);
    } else if (kn == 27 && memcmp(k, "MPI_Datatype for reductions", 27) == 0) {
        char buf[CF_DATATYPE_MAX];
        const char *d = cf_import_datatype(v, vn, buf, sizeof buf);
        if (d != NULL)
            snprintf(fi->dtype_red, sizeof fi->dtype_red, "%s", d);
    }
}

/* The commfit pattern for an IMB benchmark: its name in lower case, '-' as '_'. The
 * MPI-1 names that commfit measures map onto themselves (PingPong -> pingpong); the
 * others (Reduce_local, Reduce_scatter_block, Uniband, Biband ...) keep their names. */
static int imb_pattern(const char *name, char *out, size_t cap)
{
    size_t i = 0;
    for (; name[i] && i + 1 < cap; i++) {
        char c = name[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
            c = '_';
        out[i] = c;
    }
    out[i] = '\0';
    return name[i] == '\0' ? 0 : -1;
}

static int column_header(const cf_import_line *l, imb_table *tb)
{
    cf_import_field f[MAXCOLS + 1];
    int k = cf_import_split(l->s, l->n, f, MAXCOLS + 1);
    if (k > MAXCOLS)
        return -1;
    memset(tb->has, 0, sizeof tb->has);
    tb->ncols = k;
    tb->header[0] = '\0';
    for (int i = 0; i < k; i++) {
        enum col c = C_OTHER;
        if (lower_eq(f[i].s, f[i].n, "#bytes"))
            c = C_BYTES;
        else if (lower_eq(f[i].s, f[i].n, "#repetitions"))
            c = C_REPS;
        else if (lower_eq(f[i].s, f[i].n, "t[usec]"))
            c = C_T;
        else if (lower_eq(f[i].s, f[i].n, "t_min[usec]"))
            c = C_TMIN;
        else if (lower_eq(f[i].s, f[i].n, "t_max[usec]"))
            c = C_TMAX;
        else if (lower_eq(f[i].s, f[i].n, "t_avg[usec]"))
            c = C_TAVG;
        else if (lower_eq(f[i].s, f[i].n, "t_pure[usec]"))
            c = C_TPURE;
        else if (lower_eq(f[i].s, f[i].n, "mbytes/sec"))
            c = C_MBPS;
        else if (lower_eq(f[i].s, f[i].n, "msg/sec"))
            c = C_MSGS;
        if (c != C_OTHER && tb->has[c])
            return -1;
        tb->col[i] = c;
        tb->has[c] = 1;
        if (i > 0)
            cf_import_append(tb->header, sizeof tb->header, " ", 1);
        cf_import_append(tb->header, sizeof tb->header, f[i].s, f[i].n);
    }
    tb->bw_only = !tb->has[C_T] && !tb->has[C_TAVG] && !tb->has[C_TPURE];
    if (tb->bw_only && !(tb->has[C_MSGS] && tb->has[C_BYTES]))
        return -1;
    return 0;
}

/* Mbytes/sec is 10^6 bytes/s in recent IMB and 2^20 in older ones; the numbers say which.
 * q = (bytes per microsecond that the row implies) / (printed value): 1/k for 10^6 and
 * 1.048576/k for 2^20, k the messages a call counts (1, 2 or 4). */
static void unit_evidence(imb_table *tb, double implied, double mbps)
{
    if (!(implied > 0) || !(mbps > 0))
        return;
    double prec = mbps < implied ? mbps : implied;
    if (prec > tb->best_prec) {
        tb->best_prec = prec;
        tb->best_q = implied / mbps;
    }
}

static int unit_is_decimal(const imb_table *tb, const imb_file *fi)
{
    if (tb->best_prec > 0) {
        static const double k[] = {0.25, 0.5, 1, 2, 4};
        double best = INFINITY;
        int dec = -1;
        for (int i = 0; i < 5; i++) {
            for (int b = 0; b < 2; b++) {
                double d = fabs(log(tb->best_q / (k[i] * (b ? 1.048576 : 1.0))));
                if (d < best) {
                    best = d;
                    dec = !b;
                }
            }
        }
        if (best < 0.015)
            return dec;
    }
    /* No row tells (all zero): IMB 2018 and later print 10^6 bytes/s. */
    return atoi(fi->version) >= 2018;
}

static int cut_row(cf_import *im, const imb_table *tb, const cf_import_line *l, cf_error *e)
{
    return cf_import_table_fail(im, e, l->no,
                                "the file ends inside a row (no end of line): the %s table is "
                                "cut off",
                                tb->name);
}

/* The fields of a row in one pass, each read where it stands: 0 when the line holds the
 * table's columns and every one is valid, -1 for anything else, which row then reads the
 * careful way (and finds the same values, or words what is wrong). */
static int row_fast(const imb_table *tb, const cf_import_line *l, double *v, int *dec,
                    uint64_t *bytes, uint64_t *reps)
{
    const char *p = l->s, *end = l->s + l->n;
    for (int i = 0; i < tb->ncols; i++) {
        p = cf_import_skip_blanks(p, end);
        if (p == end)
            return -1;
        if (tb->col[i] == C_BYTES) {
            p = cf_import_scan_uint(p, end, CF_BYTES_MAX, bytes);
        } else if (tb->col[i] == C_REPS) {
            p = cf_import_scan_uint(p, end, (uint64_t)1 << 53, reps);
        } else {
            p = cf_import_scan_number(p, end, &v[i], &dec[i]);
            if (p != NULL && v[i] < 0)
                return -1;
        }
        if (p == NULL || (p < end && *p != ' ' && *p != '\t'))
            return -1;
    }
    return cf_import_skip_blanks(p, end) == end ? 0 : -1;
}

/* The careful reading of a row the fast path left: its fields one by one, with the
 * message that names the one that is wrong. *failed says the row is refused (the status
 * is then cf_import_table_fail's, which lets --lenient go on). */
static int row_careful(cf_import *im, imb_table *tb, const cf_import_line *l, double *v, int *dec,
                       uint64_t *bytes, uint64_t *reps, int *failed, cf_error *e)
{
    *bytes = *reps = 0;
    *failed = 1;
    cf_import_field f[MAXCOLS];
    int k = cf_import_split(l->s, l->n, f, MAXCOLS);
    if (k != tb->ncols && !l->has_nl)
        return cut_row(im, tb, l, e);
    if (k != tb->ncols)
        return cf_import_table_fail(im, e, l->no,
                                    "expected a row of %d numbers (%s) or a blank line ending "
                                    "the %s table, got %d field%s: '%.*s'",
                                    tb->ncols, tb->header, tb->name, k, k == 1 ? "" : "s",
                                    CF_IMPORT_QUOTE(l->s, l->n));
    for (int i = 0; i < k; i++) {
        enum col c = tb->col[i];
        int bad;
        if (c == C_BYTES)
            bad = cf_import_uint(f[i].s, f[i].n, CF_BYTES_MAX, bytes) != 0;
        else if (c == C_REPS)
            bad = cf_import_uint(f[i].s, f[i].n, (uint64_t)1 << 53, reps) != 0;
        else
            bad = cf_import_number(f[i].s, f[i].n, &v[i], &dec[i]) != 0 || v[i] < 0;
        if (bad && !l->has_nl)
            return cut_row(im, tb, l, e);
        if (bad)
            return cf_import_table_fail(im, e, l->no,
                                        "column %d (%s) of the %s table: expected %s, got "
                                        "'%.*s'",
                                        i + 1,
                                        c == C_BYTES  ? "#bytes"
                                        : c == C_REPS ? "#repetitions"
                                                      : "a time or rate",
                                        tb->name,
                                        c == C_BYTES ? "a non-negative integer of at most "
                                                       "1099511627776 (1 TiB)"
                                        : c == C_REPS ? "a non-negative integer"
                                                      : "a non-negative number",
                                        (int)(f[i].n > 40 ? 40 : f[i].n), f[i].s);
    }
    *failed = 0;
    return 0;
}

static int row(cf_import *im, imb_table *tb, const cf_import_line *l, cf_error *e)
{
    double v[MAXCOLS];
    int dec[MAXCOLS];
    uint64_t bytes = 0, reps = 0;
    int k = tb->ncols;
    /* "4194304 time-out.; Time limit ... is over; use -time X" (IMB -time's limit, or its
     * default) or "out-of-mem.": IMB measured no more sizes of this table. The rows before
     * are kept (a table was refused whole for it, --lenient dropped its good rows). */
    const char *why = memmem(l->s, l->n, "time-out", 8) != NULL     ? "time-out, IMB's -time limit"
                      : memmem(l->s, l->n, "out-of-mem", 10) != NULL ? "out of memory"
                                                                      : NULL;
    if (why != NULL) {
        cf_import_field f[1];
        if (!tb->gave_up && cf_import_split(l->s, l->n, f, 1) >= 1)
            cf_import_warnf(im, l->no, "%s: IMB gave up at #bytes %.*s (%s): the sizes from "
                            "there on are not measured",
                            tb->name, CF_IMPORT_QUOTE(f[0].s, f[0].n), why);
        tb->gave_up = 1;
        return 0;
    }
    if (row_fast(tb, l, v, dec, &bytes, &reps) != 0) {
        int failed, rc = row_careful(im, tb, l, v, dec, &bytes, &reps, &failed, e);
        if (failed)
            return rc;
    }
    tb->last_bytes = bytes;
    cf_row r;
    cf_row_init(&r);
    r.bytes = bytes;
    r.reps = (long)reps;
    r.samples = 1;
    double t = NAN, tmin = NAN, tmax = NAN, mbps = NAN, msgs = NAN;
    int tmin_dec = 2;
    for (int i = 0; i < k; i++) {
        switch (tb->col[i]) {
        case C_T:
        case C_TPURE:
            t = v[i];
            break;
        case C_TAVG:
            if (!tb->has[C_TPURE] || isnan(t))
                t = v[i];
            break;
        case C_TMIN:
            tmin = v[i];
            tmin_dec = dec[i];
            break;
        case C_TMAX:
            tmax = v[i];
            break;
        case C_MBPS:
            mbps = v[i];
            break;
        case C_MSGS:
            msgs = v[i];
            break;
        default:
            break;
        }
    }
    if (tb->bw_only) {
        if (!(msgs > 0)) {
            if (im->cur.notime_skipped++ == 0)
                im->cur.notime_first = l->no;
            return 0;
        }
        t = tmin = tmax = 1e6 / msgs;
        if (!isnan(mbps))
            unit_evidence(tb, (double)bytes * msgs / 1e6, mbps);
    } else {
        if (t == 0) {
            if (im->cur.zero_skipped++ == 0)
                im->cur.zero_first = l->no;
            return 0;
        }
        if (tb->has[C_T] || tb->has[C_TPURE] || isnan(tmin))
            tmin = t;
        if (tb->has[C_T] || tb->has[C_TPURE] || isnan(tmax))
            tmax = t;
        /* Zero is below the printed resolution: the middle of what rounds to zero. */
        if (tmin == 0)
            tmin = 0.25 * pow(10, -tmin_dec);
        /* IMB's Mbytes/sec is of the slowest rank's time, t_max where it prints one (at
         * np > 2 an imbalance of 3-6% between t_max and t_avg read like 2^20 for 10^6). */
        if (!isnan(mbps))
            unit_evidence(tb, (double)bytes / (tb->has[C_TMAX] ? tmax : t), mbps);
    }
    r.t_min_us = tmin;
    r.t_avg_us = t;
    r.t_max_us = tmax;
    r.t_med_us = t;
    r.bw_MiBps = mbps; /* converted when the table is complete and its unit known */
    return cf_import_table_row(im, l->no, &r, e);
}

static int table_end(cf_import *im, imb_table *tb, imb_file *fi, cf_error *e)
{
    if (im->cur.n == 0 && im->cur.zero_skipped == 0 && im->cur.notime_skipped == 0)
        return cf_import_table_fail(im, e, tb->line, "the %s table has a column header but no rows",
                                    tb->name);
    if (tb->has[C_MBPS]) {
        int dec = unit_is_decimal(tb, fi);
        if (fi->mb_decimal >= 0 && fi->mb_decimal != dec)
            fi->mb_mixed = 1;
        fi->mb_decimal = dec;
        cf_row *rows = cf_import_rows(im);
        for (size_t i = 0; i < im->cur.n; i++)
            if (dec)
                rows[i].bw_MiBps /= 1.048576;
    }
    if (tb->bw_only)
        im->bw_only = 1;
    return cf_import_table_end(im, e);
}

static int start_table(cf_import *im, imb_table *tb, imb_file *fi, cf_error *e)
{
    char pattern[CF_PATTERN_MAX + 8];
    if (imb_pattern(tb->name, pattern, sizeof pattern) != 0 && im->o.pattern == NULL)
        return cf_import_table_fail(im, e, tb->line,
                                    "benchmark name '%s' is too long for a pattern: name it "
                                    "with --pattern",
                                    tb->name);
    int np = tb->np;
    if (np <= 0) {
        if (im->o.np <= 0)
            return cf_import_table_fail(im, e, tb->line,
                                        "the %s table does not state its process count "
                                        "('# #processes = N'): give it with --np N",
                                        tb->name);
        np = im->o.np;
    }
    /* IMB-EXT and IMB-RMA time each one-sided benchmark twice, its MODE AGGREGATE (the
     * transfers of a repetition synchronised once) and NON-AGGREGATE (each one): two
     * measurements, two patterns (they were pooled into one fit, leave-one-out 79%). */
    if (tb->mode != NULL && im->o.pattern == NULL &&
        strlen(pattern) + strlen(tb->mode) < CF_PATTERN_MAX)
        strcat(pattern, tb->mode);
    const char *dt = strstr(pattern, "reduce") != NULL ? fi->dtype_red : fi->dtype;
    tb->best_prec = 0;
    tb->best_q = 0;
    tb->last_bytes = 0;
    int rc = cf_import_table_start(im, tb->line, tb->name, pattern, np, dt, e);
    /* IMB before 2019 spread Reduce_scatter's #bytes over the ranks (its vector); 2019 and
     * later give each rank #bytes, as commfit does. An unknown version is taken as new. */
    if (rc == 0)
        cf_import_table_vector_bytes(im, fi->version[0] != '\0' && atoi(fi->version) < 2019);
    return rc;
}

/* A line between a table's name and its rows: "#processes = N", IMB -multi's groups, or
 * the column header, which starts the table (*started). *skip says the table is left out. */
static int header_line(cf_import *im, imb_table *tb, imb_file *fi, const cf_import_line *l,
                       int *started, int *skip, cf_error *e)
{
    *started = *skip = 0;
    const char *s = l->s;
    size_t n = l->n;
    trim(&s, &n);
    const char *p = memmem(s, n, "#processes", 10);
    const char *g = memmem(s, n, "groups of", 9);
    const char *mode = memmem(s, n, "MODE:", 5);
    if (mode != NULL && s[0] == '#') {
        const char *v = mode + 5;
        size_t vn = (size_t)(s + n - v);
        trim(&v, &vn);
        tb->mode = lower_eq(v, vn, "aggregate")       ? "_aggregate"
                   : lower_eq(v, vn, "non-aggregate") ? "_nonaggregate"
                                                      : NULL;
    } else if (p != NULL) {
        const char *eq = memchr(p, '=', n - (size_t)(p - s));
        uint64_t np;
        const char *q = eq ? eq + 1 : s + n;
        size_t qn = (size_t)(s + n - q);
        /* IMB -map PxQ: "# #processes = 4; rank order (rowwise):", the ranks below. */
        const char *semi = memchr(q, ';', qn);
        if (semi != NULL)
            qn = (size_t)(semi - q);
        trim(&q, &qn);
        if (eq == NULL || cf_import_uint(q, qn, CF_TABLE_NP_MAX, &np) != 0 || np < 1) {
            *skip = 1;
            return cf_import_table_fail(im, e, l->no,
                                        "expected '# #processes = N' with N from 1 to %d, got "
                                        "'%.*s'",
                                        CF_TABLE_NP_MAX, CF_IMPORT_QUOTE(l->s, l->n));
        }
        tb->np = (int)np;
    } else if (g != NULL && tb->np == 0) {
        /* IMB -multi: "( G groups of P processes each running simultaneous )" */
        cf_import_field f[8];
        int k = cf_import_split(g, (size_t)(s + n - g), f, 8);
        uint64_t np;
        if (k >= 3 && cf_import_uint(f[2].s, f[2].n, CF_TABLE_NP_MAX, &np) == 0 && np >= 1)
            tb->np = (int)np;
    } else if (n >= 2 && s[0] == '#' && s[1] != ' ' && s[1] != '-' && s[1] != '#') {
        if (column_header(l, tb) != 0) {
            *skip = 1;
            return cf_import_table_fail(im, e, l->no,
                                        "the %s table's columns '%.*s' are not a layout IMB "
                                        "prints: expected #bytes, #repetitions and t[usec], "
                                        "t_min/t_max/t_avg[usec] or Mbytes/sec with Msg/sec",
                                        tb->name, CF_IMPORT_QUOTE(s, n));
        }
        int rc = start_table(im, tb, fi, e);
        *started = 1;
        *skip = !im->cur.active;
        return rc;
    }
    return 0;
}

/* The end of the file inside a table (in_header: before its rows): cut off, or its end. */
static int finish(cf_import *im, imb_table *tb, imb_file *fi, const cf_import_line *l,
                  int in_header, cf_error *e)
{
    if (in_header)
        return cf_import_table_fail(im, e, tb->line,
                                    "the file ends before the rows of the %s table: it is cut "
                                    "off",
                                    tb->name);
    if (!l->has_nl)
        return cut_row(im, tb, l, e);
    if (tb->has[C_BYTES] && fi->max_len > 0 && tb->last_bytes < fi->max_len && !tb->gave_up)
        return cf_import_table_fail(im, e, l->no,
                                    "the file ends inside the %s table, at #bytes %llu before "
                                    "the maximum %llu the header states: it is cut off",
                                    tb->name, (unsigned long long)tb->last_bytes,
                                    (unsigned long long)fi->max_len);
    return table_end(im, tb, fi, e);
}

/* The source's note: the IMB version, MPI, date, runs and the bandwidth unit read. */
static void source_note(const imb_file *fi, char *note, size_t cap)
{
    int n = snprintf(note, cap, "IMB %s", fi->version[0] ? fi->version : "version unknown");
    if (fi->mpi[0])
        n += snprintf(note + n, cap - (size_t)n, ", MPI %s", fi->mpi);
    if (fi->date[0])
        n += snprintf(note + n, cap - (size_t)n, ", date %s", fi->date);
    if (fi->runs > 1)
        n += snprintf(note + n, cap - (size_t)n, ", %d runs", fi->runs);
    if (fi->mb_decimal >= 0)
        snprintf(note + n, cap - (size_t)n, ", Mbytes/sec read as %s",
                 fi->mb_mixed     ? "10^6 or 2^20 bytes/s by table"
                 : fi->mb_decimal ? "10^6 bytes/s"
                                  : "2^20 bytes/s");
}

/* The reader's state between lines: outside a table, in its header, in its rows, or
 * skipping a table to its end. */
typedef enum imb_state { OUT, HDR, ROWS, SKIP } imb_state;
typedef struct imb_parser {
    imb_file fi;
    imb_table tb;
    imb_state st;
    long tables, osu_line;
} imb_parser;

/* A line of a table's header: the column header, or a table cut off before it. */
static int header_state(cf_import *im, imb_parser *ps, const cf_import_line *l, int hash,
                        int *again, cf_error *e)
{
    char name[48];
    int rc = 0, started, skip;
    cf_import_field f0[1];
    if (!hash && cf_import_split(l->s, l->n, f0, 1) >= 1 && lower_eq(f0[0].s, f0[0].n, "group")) {
        rc = cf_import_table_fail(im, e, l->no,
                                  "the %s table has a row per group ('Group' column): IMB "
                                  "-multi 1's output, which commfit does not read; -multi 0's "
                                  "(each size's slowest group) it does",
                                  ps->tb.name);
        ps->st = SKIP;
    } else if (!hash) {
        rc = cf_import_table_fail(im, e, l->no,
                                  "expected the column header of the %s table "
                                  "('#bytes #repetitions ...'), got '%.*s'",
                                  ps->tb.name, CF_IMPORT_QUOTE(l->s, l->n));
        ps->st = SKIP;
    } else if (bench_line(l, name, sizeof name)) {
        rc = cf_import_table_fail(im, e, ps->tb.line,
                                  "the %s table has no column header: it is cut off "
                                  "before line %ld",
                                  ps->tb.name, l->no);
        ps->st = OUT;
        *again = rc == 0;
    } else {
        rc = header_line(im, &ps->tb, &ps->fi, l, &started, &skip, e);
        if (skip)
            ps->st = SKIP;
        else if (started)
            ps->st = ROWS;
    }
    return rc;
}

/* One line in the state the previous ones left; *again when the line must be read once
 * more in the new state (it ended one table and may start the next). */
static int step(cf_import *im, imb_parser *ps, const cf_import_line *l, int *again, cf_error *e)
{
    int hash = cf_import_starts(l->s, l->n, "#");
    int blank = l->n == 0; /* trailing blanks are stripped */
    char name[48];
    int rc = 0;
    *again = 0;
    switch (ps->st) {
    case SKIP:
        if (blank) {
            ps->st = OUT;
        } else if (bench_line(l, name, sizeof name)) {
            ps->st = OUT;
            *again = 1;
        }
        break;
    case OUT:
        if (bench_line(l, name, sizeof name)) {
            if (ps->fi.p2p_line > 0)
                return cf_error_set(e, CF_EXIT_DATA, im->file, ps->fi.p2p_line,
                                    "IMB-P2P output: its benchmarks run np/2 pairs at once, "
                                    "each rank's time averaged and the bandwidth added up over "
                                    "them, which no commfit pattern measures; import IMB-MPI1's "
                                    "PingPong (or OSU's osu_mbw_mr for pairs at once)");
            memset(&ps->tb, 0, sizeof ps->tb);
            cf_import_copy(ps->tb.name, sizeof ps->tb.name, name, strlen(name));
            ps->tb.line = l->no;
            ps->tables++;
            ps->st = HDR;
        } else if (l->n > 0 && l->s[0] == '#') {
            banner_line(&ps->fi, l);
            if (ps->osu_line == 0 && cf_import_starts(l->s, l->n, "# OSU "))
                ps->osu_line = l->no;
        }
        break;
    case HDR:
        if (!blank)
            rc = header_state(im, ps, l, hash, again, e);
        break;
    case ROWS:
        if (blank || hash) {
            /* A table ends at the maximum size the banner states; one that stops before
             * it at a blank line or another run's banner was cut off as surely as one the
             * file ends in (a killed run and its rerun appended to one log: the cut table
             * was kept whole and pooled with the full one). */
            const imb_table *tb = &ps->tb;
            if (tb->has[C_BYTES] && ps->fi.max_len > 0 && tb->last_bytes < ps->fi.max_len &&
                !tb->gave_up)
                rc = hash && !bench_line(l, name, sizeof name)
                         /* a '#' line of someone's inside the rows, or after a cut */
                         ? cf_import_table_fail(im, e, l->no,
                                                "the %s table stops at #bytes %llu, before the "
                                                "maximum %llu the header states: it is cut off, "
                                                "or '%.*s' interrupts its rows",
                                                tb->name, (unsigned long long)tb->last_bytes,
                                                (unsigned long long)ps->fi.max_len,
                                                CF_IMPORT_QUOTE(l->s, l->n))
                         : cf_import_table_fail(im, e, l->no,
                                                "the %s table stops at #bytes %llu, before the "
                                                "maximum %llu the header states: it is cut off",
                                                tb->name, (unsigned long long)tb->last_bytes,
                                                (unsigned long long)ps->fi.max_len);
            else
                rc = table_end(im, &ps->tb, &ps->fi, e);
            ps->st = OUT;
            *again = hash && rc == 0;
        } else {
            rc = row(im, &ps->tb, l, e);
            if (rc == 0 && !im->cur.active)
                ps->st = SKIP;
        }
        break;
    }
    return rc;
}

int cf_import_imb_parse(cf_import *im, const char *buf, size_t len, cf_error *e)
{
    imb_parser ps;
    memset(&ps, 0, sizeof ps);
    strcpy(ps.fi.dtype, "byte");
    strcpy(ps.fi.dtype_red, "float");
    ps.fi.mb_decimal = -1;
    ps.st = OUT;
    int rc = 0, again;
    cf_import_lines it;
    cf_import_line l = {0};
    cf_import_lines_init(&it, buf, len);
    while (rc == 0 && cf_import_next_line(&it, &l))
        do
            rc = step(im, &ps, &l, &again, e);
        while (rc == 0 && again);
    if (rc == 0 && it.too_long)
        return cf_import_long_line(im, &it, e);
    if (rc != 0)
        return rc;
    if (ps.st == HDR || ps.st == ROWS)
        rc = finish(im, &ps.tb, &ps.fi, &l, ps.st == HDR, e);
    if (rc != 0)
        return rc;
    if (ps.tables == 0) {
        if (ps.osu_line > 0)
            return cf_error_set(e, CF_EXIT_DATA, im->file, ps.osu_line,
                                "this is OSU Micro-Benchmarks output: import it with "
                                "'commfit import osu'");
        return cf_error_set(e, CF_EXIT_DATA, im->file, 1,
                            "not IMB output: no '# Benchmarking NAME' table in %ld line%s", it.no,
                            it.no == 1 ? "" : "s");
    }
    if (ps.osu_line > 0)
        cf_import_warnf(im, ps.osu_line,
                        "OSU Micro-Benchmarks output is left out: import it with 'commfit "
                        "import osu'");
    char note[400];
    source_note(&ps.fi, note, sizeof note);
    return cf_import_add_source(im, note, e);
}
