/* Writing the timing table: one row at a time (commfit measure) or a whole table in
 * large blocks (import, tests), in the format the reader reads back exactly. */
#include "config.h"

#include "base/table.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"

int cf_table_write_header(FILE *fp, const cf_table *t)
{
    int has_schema = cf_table_meta_get(t, "schema") != NULL;
    if (!has_schema)
        fprintf(fp, "# schema: %s\n", CF_TABLE_SCHEMA);
    for (size_t i = 0; i < t->n_meta; i++)
        fprintf(fp, "# %s: %s\n", t->meta[i].key, t->meta[i].value);
    for (int c = 0; c < CF_TABLE_NCOLS; c++)
        fprintf(fp, c ? ",%s" : "%s", cf_table_columns[c]);
    for (size_t i = 0; i < t->n_extra; i++)
        fprintf(fp, ",%s", t->extra_names[i]);
    fputc('\n', fp);
    return ferror(fp) ? -1 : 0;
}

/* Digits are made two at a time: "00" to "99". */
static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

static void put_pair(char *d, unsigned v)
{
    memcpy(d, digit_pairs + 2 * v, 2);
}

/* The ten digits of m < 10^10, leading zeros included. */
static void ten_digits(char *d, uint64_t m)
{
    uint32_t top = (uint32_t)(m / 100000000), rest = (uint32_t)(m % 100000000);
    uint32_t a = rest / 10000, b = rest % 10000;
    put_pair(d, top);
    put_pair(d + 2, a / 100);
    put_pair(d + 4, a % 100);
    put_pair(d + 6, b / 100);
    put_pair(d + 8, b % 100);
}

/* Room a formatted number may use beyond its own characters: put_g10 copies its digits
 * ten at a time, put_row a repeated number 24 bytes at a time (printf's %.10g of any
 * double is at most 17 characters). */
#define NUM_COPY 24
#define PUT_SLACK NUM_COPY

/* "%.10g" of v at p; returns the new end. The values tables hold (positive, 1e-4 to 1e10)
 * are formatted here, digit for digit what printf gives, because printf dominated the
 * time of writing large tables; printf does the rest, and any value whose scaled digits
 * lie too close to a rounding tie for one multiplication to be sure of. Up to PUT_SLACK
 * bytes past the end may be written over. */
static char *put_g10(char *p, double v)
{
    static const double tens[] = {1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4,
                                  1e5,  1e6,  1e7,  1e8,  1e9, 1e10, 1e11, 1e12, 1e13};
    if (v >= 1e-4 && v < 1e10) {
        /* The doubles nearest 10^-k lie above 10^-k, so these comparisons are exact. */
        int ex = 0;
        if (v >= 1)
            while (ex < 9 && v >= tens[ex + 5])
                ex++;
        else
            while (v < tens[ex + 4])
                ex--;
        double x = v * tens[9 - ex + 4], fl = (double)(uint64_t)x, fr = x - fl;
        /* x carries at most half an ulp (< 1e-6) of error: far from .5 it rounds right. */
        if (fabs(fr - 0.5) > 4e-6) {
            uint64_t m = (uint64_t)fl + (fr > 0.5);
            if (m >= 10000000000u) {
                m /= 10;
                ex++;
            }
            if (ex <= 9) {
                char d[10 + PUT_SLACK];
                ten_digits(d, m);
                int nd = 10, keep = ex >= 0 ? ex + 1 : 1;
                while (nd - 4 >= keep && memcmp(d + nd - 4, "0000", 4) == 0)
                    nd -= 4;
                while (nd > keep && d[nd - 1] == '0')
                    nd--;
                /* Copies of a fixed ten bytes, then the end moved to where the digits end:
                 * cheaper than copies of the exact length. */
                if (ex >= 0) {
                    memcpy(p, d, 10);
                    p += ex + 1;
                    if (nd > ex + 1) {
                        *p++ = '.';
                        memcpy(p, d + ex + 1, 10);
                        p += nd - ex - 1;
                    }
                } else {
                    memcpy(p, "0.000", 5);
                    p += 1 - ex;
                    memcpy(p, d, 10);
                    p += nd;
                }
                return p;
            }
        }
    }
    if (v == 0) {
        /* printf's "0" and "-0" */
        memcpy(p, "-0", 2);
        return signbit(v) ? p + 2 : (*p = '0', p + 1);
    }
    return p + sprintf(p, "%.10g", v);
}

static char *put_uint(char *p, unsigned long long u)
{
    if (u < 10) {
        *p = (char)('0' + u);
        return p + 1;
    }
    if (u < 100) {
        put_pair(p, (unsigned)u);
        return p + 2;
    }
    /* The length first, then the digits from the end, two at a time. */
    int n = 1;
    for (unsigned long long t = u; t >= 10 && n < 20; t /= 10)
        n++;
    char *q = p + n;
    while (u >= 100) {
        q -= 2;
        put_pair(q, (unsigned)(u % 100));
        u /= 100;
    }
    if (u >= 10)
        put_pair(q - 2, (unsigned)u);
    else
        q[-1] = (char)('0' + u);
    return p + n;
}

static char *put_int(char *p, long long v)
{
    if (v < 0)
        *p++ = '-';
    return put_uint(p, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);
}

/* A name from its array of cap bytes: the whole array is copied (a fixed-size move, room
 * for which is in ROW_MAX), then the end set after the name. */
static char *put_str(char *p, const char *s, size_t cap)
{
    memcpy(p, s, cap);
    return p + strnlen(s, cap - 1);
}

/* The most a row's core columns take, with the slack of put_g10: the fields have bounded
 * lengths (extra columns go apart). */
#define ROW_MAX (CF_PATTERN_MAX + CF_DATATYPE_MAX + 8 * 32 + PUT_SLACK)

/* A row's 13 columns at p (no extra columns, no newline); returns the new end. */
static char *put_row(char *p, const cf_row *r)
{
    p = put_str(p, r->pattern, CF_PATTERN_MAX);
    *p++ = ',';
    p = put_int(p, r->np);
    *p++ = ',';
    p = put_uint(p, (unsigned long long)r->bytes);
    *p++ = ',';
    p = put_str(p, r->datatype, CF_DATATYPE_MAX);
    *p++ = ',';
    if (r->blocks > 0)
        p = put_int(p, r->blocks);
    *p++ = ',';
    if (r->reps > 0)
        p = put_int(p, r->reps);
    *p++ = ',';
    if (r->samples > 0)
        p = put_int(p, r->samples);
    const double v[] = {r->t_min_us, r->t_avg_us, r->t_max_us,
                        r->t_med_us, r->t_ci95_us, r->bw_MiBps};
    char *ps = NULL, *pe = NULL;
    double pv = 0;
    for (int i = 0; i < 6; i++) {
        *p++ = ',';
        if (i >= 3 && isnan(v[i]))
            continue;
        /* The times of a row are often equal: copy the digits rather than redo them. */
        char *start = p;
        if (ps != NULL && v[i] == pv && signbit(v[i]) == signbit(pv)) {
            char tmp[NUM_COPY]; /* a fixed-size copy, through tmp as the two overlap */
            memcpy(tmp, ps, sizeof tmp);
            memcpy(p, tmp, sizeof tmp);
            p += pe - ps;
        } else {
            p = put_g10(p, v[i]);
        }
        ps = start;
        pe = p;
        pv = v[i];
    }
    return p;
}

int cf_table_write_row(FILE *fp, const cf_table *t, const cf_row *r)
{
    char line[ROW_MAX], *p = put_row(line, r);
    if (t->n_extra > 0 && r->extra != NULL) {
        *p++ = ',';
        fwrite(line, 1, (size_t)(p - line), fp);
        fputs(r->extra, fp);
        p = line;
    } else {
        for (size_t i = 0; i < t->n_extra; i++) {
            if (p - line >= (ptrdiff_t)sizeof line - 1) {
                fwrite(line, 1, (size_t)(p - line), fp);
                p = line;
            }
            *p++ = ',';
        }
    }
    *p++ = '\n';
    fwrite(line, 1, (size_t)(p - line), fp);
    return ferror(fp) ? -1 : 0;
}

/* Writes out n bytes of buf. cf_table_write syncs the file when it is complete; where the
 * system allows, the disk starts on each 8 MiB as it comes rather than on all of them at
 * the end (a 100 MB table: the final fsync waits 10 ms instead of 60-100 ms). */
static int write_out(FILE *fp, const char *buf, size_t n, size_t *unsynced)
{
    if (fwrite(buf, 1, n, fp) != n)
        return -1;
    *unsynced += n;
#ifdef SYNC_FILE_RANGE_WRITE
    if (*unsynced >= (size_t)8 << 20) {
        sync_file_range(fileno(fp), 0, 0, SYNC_FILE_RANGE_WRITE);
        *unsynced = 0;
    }
#endif
    return 0;
}

/* The rows of a whole table, formatted into one large buffer that goes out in one write
 * when full: no call into stdio per row. Rows too long for it go one at a time. */
static int write_rows(FILE *fp, const cf_table *t)
{
    size_t cap = (size_t)1 << 20, unsynced = 0;
    char *buf = malloc(cap), *p = buf;
    if (buf == NULL)
        return -1;
    const char *last_x = NULL;
    size_t last_xn = 0;
    int rc = 0;
    for (size_t i = 0; i < t->n_rows && rc == 0; i++) {
        const cf_row *r = &t->rows[i];
        const char *x = t->n_extra > 0 ? r->extra : NULL;
        /* Rows of one run share their extra values (cf_table_add): measure them once. */
        size_t xn = x == NULL ? t->n_extra : x == last_x ? last_xn : strlen(x);
        if (x != NULL) {
            last_x = x;
            last_xn = xn;
        }
        if ((size_t)(buf + cap - p) < ROW_MAX + xn + 2) {
            rc = write_out(fp, buf, (size_t)(p - buf), &unsynced);
            p = buf;
            if (ROW_MAX + xn + 2 > cap) {
                rc = rc ? rc : cf_table_write_row(fp, t, r);
                continue;
            }
        }
        p = put_row(p, r);
        if (x != NULL) {
            *p++ = ',';
            memcpy(p, x, xn);
            p += xn;
        } else {
            for (size_t k = 0; k < xn; k++)
                *p++ = ',';
        }
        *p++ = '\n';
    }
    if (rc == 0)
        rc = write_out(fp, buf, (size_t)(p - buf), &unsynced);
    free(buf);
    return rc != 0 || ferror(fp) ? -1 : 0;
}

int cf_table_write(const char *path, const cf_table *t, cf_error *e)
{
    cf_outfile o;
    int rc = cf_outfile_open(&o, path, e);
    if (rc != 0)
        return rc;
    if (cf_table_write_header(o.fp, t) != 0 || write_rows(o.fp, t) != 0)
        goto fail;
    return cf_outfile_commit(&o, e);
fail:
    rc = cf_error_set(e, CF_EXIT_DATA, path, 0, "cannot write: %s", strerror(errno));
    cf_outfile_abort(&o);
    return rc;
}

