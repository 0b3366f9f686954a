/* commfit import: what the IMB and OSU parsers share: lines, fields and numbers of the
 * text, and the table being built (row groups with their source, lenient drops). */
#include "config.h"

#include "import/import.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/size.h"

cf_import *cf_import_alloc(const cf_import_opts *o)
{
    cf_import *im = calloc(1, sizeof *im);
    if (im == NULL)
        return NULL;
    im->o = *o;
    static const char *const extra[] = {"source"};
    if ((im->t = cf_table_alloc()) == NULL || cf_table_set_extra(im->t, extra, 1) != 0 ||
        cf_table_meta_set(im->t, "commfit", PACKAGE_VERSION) != 0) {
        cf_import_free(im);
        return NULL;
    }
    return im;
}

void cf_import_free(cf_import *im)
{
    if (im == NULL)
        return;
    for (size_t i = 0; i < im->n_bases; i++)
        free(im->bases[i]);
    free(im->bases);
    cf_table_free(im->t);
    free(im);
}

/* ---- text ---- */

void cf_import_lines_init(cf_import_lines *it, const char *buf, size_t len)
{
    it->buf = buf;
    it->len = len;
    it->pos = len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    it->no = 0;
    it->too_long = 0;
}

int cf_import_long_line(cf_import *im, const cf_import_lines *it, cf_error *e)
{
    return cf_long_line_error(e, im->file, it->too_long);
}

int cf_import_next_line(cf_import_lines *it, cf_import_line *l)
{
    if (it->pos >= it->len)
        return 0;
    const char *s = it->buf + it->pos;
    size_t left = it->len - it->pos;
    /* A line is looked for no further than the limit: a file without newlines is
     * refused after a mebibyte, not read to its end. */
    size_t look = left > CF_LINE_MAX_BYTES ? CF_LINE_MAX_BYTES + 1 : left;
    const char *nl = memchr(s, '\n', look);
    if (nl == NULL && look > CF_LINE_MAX_BYTES) {
        it->too_long = it->no + 1;
        it->pos = it->len;
        return 0;
    }
    size_t n = nl ? (size_t)(nl - s) : left;
    it->pos += n + (nl != NULL);
    l->has_nl = nl != NULL;
    while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    l->s = s;
    l->n = n;
    l->no = ++it->no;
    return 1;
}

/* Eight spaces in a row: the benchmarks align their columns with long runs of blanks,
 * which are skipped eight at a time. */
static int eight_spaces(const char *s)
{
    static const char sp[8] = "        ";
    return memcmp(s, sp, 8) == 0;
}

int cf_import_split(const char *s, size_t n, cf_import_field *f, int max)
{
    int k = 0;
    size_t i = 0;
    for (;;) {
        while (i + 8 <= n && eight_spaces(s + i))
            i += 8;
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i >= n)
            return k;
        size_t start = i;
        while (i < n && s[i] != ' ' && s[i] != '\t')
            i++;
        if (k < max) {
            f[k].s = s + start;
            f[k].n = i - start;
        }
        k++;
    }
}

static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int is_digit(char c)
{
    return (unsigned)(c - '0') < 10;
}

const char *cf_import_scan_number(const char *s, const char *end, double *v, int *decimals)
{
    const char *p = s;
    int neg = 0;
    if (p < end && (*p == '+' || *p == '-'))
        neg = *p++ == '-';
    /* Significant digits start at the first one that is not zero; beyond 15 of them the
     * mantissa may wrap around, but then strtod reads the number. */
    const char *d0 = p;
    while (p < end && *p == '0')
        p++;
    const char *s0 = p;
    uint64_t m = 0;
    while (p < end && is_digit(*p))
        m = m * 10 + (uint64_t)(*p++ - '0');
    long sig = p - s0, digits = p - d0, dec = 0;
    if (p < end && *p == '.') {
        const char *f0 = ++p;
        if (sig == 0)
            while (p < end && *p == '0')
                p++;
        const char *f1 = p;
        while (p < end && is_digit(*p))
            m = m * 10 + (uint64_t)(*p++ - '0');
        dec = p - f0;
        sig += p - f1;
        digits += dec;
    }
    if (digits == 0)
        return NULL;
    long e = 0;
    if ((p = cf_scan_exponent(p, end, &e)) == NULL)
        return NULL;
    size_t n = (size_t)(p - s);
    double x;
    long p10 = e - dec;
    /* Exact when the mantissa and the power of ten are both exact doubles (Clinger). */
    if (sig <= 15 && p10 >= -22 && p10 <= 22) {
        x = (double)m;
        x = p10 < 0 ? x / pow10_exact[-p10] : x * pow10_exact[p10];
    } else {
        char buf[64];
        if (n >= sizeof buf)
            return NULL;
        memcpy(buf, s, n);
        buf[n] = '\0';
        errno = 0;
        x = fabs(strtod(buf, NULL));
    }
    if (!isfinite(x))
        return NULL;
    *v = neg ? -x : x;
    if (decimals != NULL)
        *decimals = (int)dec;
    return p;
}

int cf_import_number(const char *s, size_t n, double *v, int *decimals)
{
    double x;
    int d;
    if (cf_import_scan_number(s, s + n, &x, &d) != s + n)
        return -1;
    *v = x;
    if (decimals != NULL)
        *decimals = d;
    return 0;
}

const char *cf_import_scan_uint(const char *s, const char *end, uint64_t max, uint64_t *v)
{
    const char *p = s;
    uint64_t x = 0;
    while (p < end && is_digit(*p))
        x = x * 10 + (uint64_t)(*p++ - '0');
    if (p - s > 19) /* x may have wrapped: cf_import_uint reads it */
        return cf_import_uint(s, (size_t)(p - s), max, v) == 0 ? p : NULL;
    if (p == s || x > max)
        return NULL;
    *v = x;
    return p;
}

const char *cf_import_skip_blanks(const char *p, const char *end)
{
    while (end - p >= 8 && eight_spaces(p))
        p += 8;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

int cf_import_uint(const char *s, size_t n, uint64_t max, uint64_t *v)
{
    uint64_t x = 0;
    if (n == 0)
        return -1;
    if (n <= 19) {
        /* No overflow in 19 digits: compare with max once, at the end. */
        for (size_t i = 0; i < n; i++) {
            if (!is_digit(s[i]))
                return -1;
            x = x * 10 + (uint64_t)(s[i] - '0');
        }
        if (x > max)
            return -1;
        *v = x;
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        if (x > (max - (uint64_t)(s[i] - '0')) / 10)
            return -1;
        x = x * 10 + (uint64_t)(s[i] - '0');
    }
    *v = x;
    return 0;
}

void cf_import_copy(char *dst, size_t cap, const char *s, size_t n)
{
    const char *nul = memchr(s, '\0', n);
    if (nul != NULL)
        n = (size_t)(nul - s);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

void cf_import_append(char *dst, size_t cap, const char *s, size_t n)
{
    size_t len = strlen(dst);
    cf_import_copy(dst + len, cap - len, s, n);
}

const char *cf_import_datatype(const char *mpi, size_t n, char *buf, size_t cap)
{
    while (n > 0 && (mpi[n - 1] == '.' || mpi[n - 1] == ' '))
        n--;
    if (n > 4 && strncmp(mpi, "MPI_", 4) == 0) {
        mpi += 4;
        n -= 4;
    }
    if ((n == 4 && strncmp(mpi, "BYTE", 4) == 0) || (n == 4 && strncmp(mpi, "CHAR", 4) == 0))
        return "byte";
    if (n == 0 || n >= cap)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        char c = mpi[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return NULL;
        buf[i] = c;
    }
    buf[n] = '\0';
    return buf;
}

/* ---- messages ---- */

static void vwarn(cf_import *im, long line, const char *fmt, va_list ap)
{
    if (im->o.warn == NULL)
        return;
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    im->o.warn(im->o.warn_ctx, im->file, line, msg);
}

void cf_import_warnf(cf_import *im, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(im, line, fmt, ap);
    va_end(ap);
}

int cf_import_table_fail(cf_import *im, cf_error *e, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (im->o.lenient) {
        char msg[900];
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        if (im->cur.active)
            cf_import_warnf(im, line, "%s; the %s table (line %ld) is left out", msg,
                            im->cur.bench, im->cur.line);
        else
            cf_import_warnf(im, line, "%s; the table is left out", msg);
        cf_import_table_drop(im);
        im->n_dropped++;
        return 0;
    }
    cf_error_vset(e, CF_EXIT_DATA, im->file, line, fmt, ap);
    va_end(ap);
    cf_import_table_drop(im);
    return CF_EXIT_DATA;
}

/* ---- the table being read ---- */

void cf_import_table_drop(cf_import *im)
{
    im->cur.active = 0;
    im->cur.n = 0;
    im->cur.zero_skipped = 0;
    im->cur.failed_skipped = 0;
    im->cur.notime_skipped = 0;
    im->cur.vector_bytes = 0;
    im->cur.split_skipped = 0;
}

void cf_import_table_vector_bytes(cf_import *im, int vector)
{
    im->cur.vector_bytes = vector && strcmp(im->cur.pattern, "reduce_scatter") == 0;
}

int cf_import_table_start(cf_import *im, long line, const char *bench, const char *pattern,
                          int np, const char *datatype, cf_error *e)
{
    cf_import_tab *c = &im->cur;
    cf_import_table_drop(im);
    c->active = 1;
    c->line = line;
    cf_import_copy(c->bench, sizeof c->bench, bench, strlen(bench));
    if (im->o.pattern != NULL) {
        /* One name over different benchmarks would merge unrelated measurements. */
        if (im->first_bench[0] == '\0') {
            snprintf(im->first_bench, sizeof im->first_bench, "%s", bench);
            snprintf(im->first_where, sizeof im->first_where, "%s:%ld", im->file, line);
        } else if (strcmp(im->first_bench, bench) != 0) {
            return cf_error_set(e, CF_EXIT_USAGE, im->file, line,
                                "--pattern '%s' would give one name to different benchmarks: "
                                "'%s' (%s) and '%s'; import them separately",
                                im->o.pattern, im->first_bench, im->first_where, bench);
        }
        pattern = im->o.pattern;
    }
    if (strlen(pattern) >= sizeof c->pattern)
        return cf_import_table_fail(im, e, line,
                                    "benchmark '%s' gives the pattern name '%s', longer than "
                                    "%zu characters: name it with --pattern",
                                    bench, pattern, sizeof c->pattern - 1);
    cf_import_copy(c->pattern, sizeof c->pattern, pattern, strlen(pattern));
    cf_import_copy(c->datatype, sizeof c->datatype, datatype, strlen(datatype));
    c->names_ok = cf_name_valid(c->pattern) && cf_name_valid(c->datatype);
    c->np = np;
    return 0;
}

int cf_import_table_row(cf_import *im, long line, cf_row *r, cf_error *e)
{
    cf_import_tab *c = &im->cur;
    memcpy(r->pattern, c->pattern, sizeof r->pattern);
    memcpy(r->datatype, c->datatype, sizeof r->datatype);
    r->np = c->np;
    r->extra = NULL;
    if (c->vector_bytes && c->np > 0) {
        if (r->bytes % (4 * (uint64_t)c->np) != 0) {
            if (c->split_skipped++ == 0)
                c->split_first = line;
            return 0;
        }
        r->bytes /= (uint64_t)c->np;
    }
    char why[256];
    /* The names are the table's, checked once; cf_row_check words what is wrong. */
    if (!(c->names_ok && cf_row_values_ok(r)) && cf_row_check(r, why, sizeof why) != 0)
        return cf_import_table_fail(im, e, line, "%s", why);
    /* A row group holds each size once, in increasing order (commfit-formats(5)). */
    cf_row *rows = cf_import_rows(im);
    if (c->n > 0 && r->bytes == rows[c->n - 1].bytes)
        return cf_import_table_fail(im, e, line,
                                    "a second row of %llu bytes (the first at line %ld): "
                                    "expected the sizes of the %s table to increase",
                                    (unsigned long long)r->bytes, c->last_line, c->bench);
    if (c->n > 0 && r->bytes < rows[c->n - 1].bytes)
        return cf_import_table_fail(im, e, line,
                                    "a row of %llu bytes after one of %llu (line %ld): expected "
                                    "the sizes of the %s table to increase",
                                    (unsigned long long)r->bytes,
                                    (unsigned long long)rows[c->n - 1].bytes, c->last_line,
                                    c->bench);
    if (im->t->n_rows + c->n == im->t->cap_rows) {
        if (cf_table_reserve(im->t, im->t->cap_rows * 2 + 64) != 0)
            return cf_error_set(e, CF_EXIT_DATA, im->file, line, "out of memory");
        rows = cf_import_rows(im);
    }
    rows[c->n++] = *r;
    c->last_line = line;
    return 0;
}

/* The warning for n rows of the table being read left out, at the first one's line. */
static void left_out(cf_import *im, long n, long first, const char *why)
{
    if (n > 0)
        cf_import_warnf(im, first, "%s: %ld row%s left out%s: %s", im->cur.bench, n,
                        n == 1 ? "" : "s", n > 1 ? ", from this line" : "", why);
}

int cf_import_table_end(cf_import *im, cf_error *e)
{
    cf_import_tab *c = &im->cur;
    if (!c->active)
        return 0;
    /* Each at the first row left out (the table's title at line c->line). */
    char split[160];
    snprintf(split, sizeof split,
             "the source's size is the whole vector, and commfit's is each rank's block; "
             "these do not split into whole floats over %d ranks",
             c->np);
    left_out(im, c->zero_skipped, c->zero_first,
             "the time prints as zero (below the printed resolution)");
    left_out(im, c->notime_skipped, c->notime_first,
             "a bandwidth of zero or a 0-byte message implies no time");
    left_out(im, c->split_skipped, c->split_first, split);
    left_out(im, c->failed_skipped, c->failed_first,
             "OSU's validation says Fail (the transfer delivered wrong data, so its time is "
             "not of the transfer asked for)");
    im->zero_total += c->zero_skipped;
    im->notime_total += c->notime_skipped;
    char src[300], num[24];
    int k = (int)sizeof num;
    unsigned long u = c->line < 0 ? 0ul - (unsigned long)c->line : (unsigned long)c->line;
    do
        num[--k] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (c->line < 0)
        num[--k] = '-';
    /* "%s:%ld" of the base name and the table's line */
    cf_import_copy(src, sizeof src, im->base, strlen(im->base));
    cf_import_append(src, sizeof src, ":", 1);
    cf_import_append(src, sizeof src, num + k, sizeof num - (size_t)k);
    /* The rows are in place already: they join the table with their source. */
    if (cf_table_add_written(im->t, c->n, src) != 0)
        return cf_error_set(e, CF_EXIT_DATA, im->file, c->line, "out of memory");
    if (c->n > 0)
        im->n_tables++;
    cf_import_table_drop(im);
    return 0;
}

int cf_import_add_source(cf_import *im, const char *note, cf_error *e)
{
    char key[32], val[1024];
    im->n_sources++;
    snprintf(key, sizeof key, "source_%zu", im->n_sources);
    if (note != NULL && note[0] != '\0')
        snprintf(val, sizeof val, "%s (%s)", im->base, note);
    else
        snprintf(val, sizeof val, "%s", im->base);
    if (cf_table_meta_set(im->t, key, val) != 0)
        return cf_error_set(e, CF_EXIT_DATA, im->file, 0, "out of memory");
    return 0;
}

/* ---- files ---- */

/* A comma would split the CSV field. */
static void sanitize(char *s)
{
    for (; *s; s++)
        if (*s == ',' || *s == '\r' || *s == '\n')
            *s = '_';
}

static int base_used(const cf_import *im, const char *b)
{
    for (size_t i = 0; i < im->n_bases; i++)
        if (strcmp(im->bases[i], b) == 0)
            return 1;
    return 0;
}

/* The file's name in the source column: its base name, or, when an earlier input had the
 * same base name, the name as given (then numbered), so that row groups stay apart. */
static int source_name(cf_import *im, const char *name)
{
    const char *slash = strrchr(name, '/');
    snprintf(im->base, sizeof im->base, "%s", slash ? slash + 1 : name);
    sanitize(im->base);
    if (base_used(im, im->base)) {
        snprintf(im->base, sizeof im->base, "%s", name);
        sanitize(im->base);
    }
    for (int k = 2; base_used(im, im->base); k++) {
        snprintf(im->base, sizeof im->base, "%.200s#%d", name, k);
        sanitize(im->base);
    }
    char **nb = realloc(im->bases, (im->n_bases + 1) * sizeof *nb);
    if (nb == NULL)
        return -1;
    im->bases = nb;
    if ((nb[im->n_bases] = strdup(im->base)) == NULL)
        return -1;
    im->n_bases++;
    return 0;
}

int cf_import_mem(cf_import *im, cf_import_format f, const char *buf, size_t len,
                  const char *name, cf_error *e)
{
    im->file = name;
    int rc = source_name(im, name);
    if (rc != 0)
        return cf_error_set(e, CF_EXIT_DATA, name, 0, "out of memory");
    cf_import_table_drop(im);
    const char *what = f == CF_IMPORT_IMB ? "IMB" : "OSU";
    if (len == 0)
        return cf_error_set(e, CF_EXIT_DATA, name, 0, "empty file: expected %s output", what);
    /* Lines counted first, and each bounded: a file without a newline is refused after a
     * mebibyte, before anything else looks at the rest of it. */
    size_t lines = 1;
    for (const char *from = buf; from < buf + len;) {
        size_t look = (size_t)(buf + len - from);
        if (look > CF_LINE_MAX_BYTES + 1)
            look = CF_LINE_MAX_BYTES + 1;
        const char *nl = memchr(from, '\n', look);
        if (nl == NULL && look > CF_LINE_MAX_BYTES)
            return cf_long_line_error(e, name, (long)lines);
        if (nl == NULL)
            break;
        lines++;
        from = nl + 1;
    }
    const char *nul = memchr(buf, '\0', len);
    if (nul != NULL) {
        long line = 1;
        for (const char *p = buf; p < nul; p++)
            line += *p == '\n';
        return cf_error_set(e, CF_EXIT_DATA, name, line,
                            "unexpected NUL byte: expected %s output as text", what);
    }
    im->formats |= (unsigned)f;
    /* Room for a row per line, so that the table never moves while it grows; pages that
     * no row touches are never faulted in. */
    if (cf_table_reserve(im->t, im->t->n_rows + lines) != 0)
        return cf_error_set(e, CF_EXIT_DATA, name, 0, "out of memory");
    rc = f == CF_IMPORT_IMB ? cf_import_imb_parse(im, buf, len, e)
                                : cf_import_osu_parse(im, buf, len, e);
    cf_import_table_drop(im);
    return rc;
}

/* A regular file is mapped rather than copied: the parser reads it once, in order. */
static int import_mapped(cf_import *im, cf_import_format f, const char *path, int *done,
                         cf_error *e)
{
    *done = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m != MAP_FAILED) {
            madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
            rc = cf_import_mem(im, f, m, (size_t)st.st_size, path, e);
            munmap(m, (size_t)st.st_size);
            *done = 1;
        }
    }
    close(fd);
    return rc;
}

int cf_import_file(cf_import *im, cf_import_format f, const char *path, cf_error *e)
{
    int is_stdin = strcmp(path, "-") == 0;
    if (!is_stdin) {
        int done, rc = import_mapped(im, f, path, &done, e);
        if (done)
            return rc;
    }
    const char *name = is_stdin ? "<stdin>" : path;
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    if (fp == NULL)
        return cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot open: %s", strerror(errno));
    char *buf = NULL;
    size_t len = 0;
    int rc = cf_read_all(fp, name, &buf, &len, e);
    if (!is_stdin)
        fclose(fp);
    if (rc == 0)
        rc = cf_import_mem(im, f, buf, len, name, e);
    free(buf);
    return rc;
}

/* The most nodes ranks_per_node may list: beyond, the line would pass what readers take. */
#define IMPORT_NODES_MAX 65536

/* ranks_per_node for --ranks-per-node: the largest np's ranks filling nodes of rpn in order
 * (the last node holds the rest), as each run of a multi-np set placed its first np ranks:
 * np=128 on 128-rank nodes is one node, 256 two; and cores, rpn for each of those nodes:
 * their room, which ranks_per_node alone does not say where the largest np is smaller than
 * rpn (np 2 and 4 at 128 a node read as nodes of 4 without it). 0, or an error. */
static int placement_meta(cf_import *im, cf_error *e)
{
    long rpn = im->o.ranks_per_node, np = 0;
    for (size_t i = 0; i < im->t->n_rows; i++)
        if (im->t->rows[i].np > np)
            np = im->t->rows[i].np;
    long nodes = (np + rpn - 1) / rpn;
    if (nodes > IMPORT_NODES_MAX)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "--ranks-per-node %ld: np=%ld spans %ld nodes, more than the %d "
                            "nodes the ranks_per_node line may list",
                            rpn, np, nodes, IMPORT_NODES_MAX);
    char *v = malloc((size_t)nodes * 21 + 1), *c = malloc((size_t)nodes * 21 + 1);
    char *q = v, *qc = c;
    int rc = -1;
    if (v != NULL && c != NULL) {
        for (long i = 0; i < nodes; i++) {
            q += sprintf(q, "%s%ld", i ? "," : "", i + 1 < nodes ? rpn : np - (nodes - 1) * rpn);
            qc += sprintf(qc, "%s%ld", i ? "," : "", rpn);
        }
        rc = cf_table_meta_set(im->t, "ranks_per_node", v);
        /* Past what a table's cores may add up to, none: a reader takes each node's room
         * to be the fullest's, rpn, as well. */
        if (rc == 0 && nodes <= CF_TABLE_NP_MAX / rpn)
            rc = cf_table_meta_set(im->t, "cores", c);
    }
    free(v);
    free(c);
    return rc != 0 ? cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory") : 0;
}

int cf_import_finish(cf_import *im, cf_table **out, cf_error *e)
{
    if (im->t->n_rows == 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "no table imported%s",
                            im->n_dropped ? " (every table was left out)" : "");
    const char *from = im->formats == (CF_IMPORT_IMB | CF_IMPORT_OSU) ? "imb, osu"
                       : im->formats == CF_IMPORT_IMB                ? "imb"
                                                                     : "osu";
    int rc = cf_table_meta_set(im->t, "imported_from", from);
    if (rc == 0 && im->bw_only)
        rc = cf_table_meta_set(im->t, "time_from_bandwidth",
                               "bandwidth-only results (osu_bw, osu_bibw, osu_mbw_mr, IMB "
                               "Uniband and Biband): t_*_us is the time per message the "
                               "bandwidth implies, 1 / message rate when printed, else bytes "
                               "/ bandwidth; rows that imply no time are left out");
    if (rc == 0 && (im->zero_total > 0 || im->notime_total > 0)) {
        char v[200];
        snprintf(v, sizeof v, "%ld with a time printed as zero, %ld without a time",
                 im->zero_total, im->notime_total);
        rc = cf_table_meta_set(im->t, "rows_left_out", v);
    }
    if (rc == 0 && im->o.mpi_library != NULL)
        rc = cf_table_meta_set(im->t, "mpi_library", im->o.mpi_library);
    if (rc != 0)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    if (im->o.ranks_per_node > 0 && (rc = placement_meta(im, e)) != 0)
        return rc;
    *out = im->t;
    im->t = NULL;
    return 0;
}

char *cf_import_default_output(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot != NULL && dot != base)
        n = (size_t)(dot - base);
    size_t cap = n + sizeof "data/.csv";
    char *out = malloc(cap);
    if (out != NULL)
        snprintf(out, cap, "data/%.*s.csv", (int)n, base);
    return out;
}
