/* Parsing and printing of message sizes, shared by every subcommand. */
#include "config.h"

#include "base/size.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

static const struct {
    const char *suffix;
    uint64_t mult;
} suffixes[] = {
    {"", 1},
    {"B", 1},
    {"K", (uint64_t)1 << 10},
    {"M", (uint64_t)1 << 20},
    {"G", (uint64_t)1 << 30},
    {"KiB", (uint64_t)1 << 10},
    {"MiB", (uint64_t)1 << 20},
    {"GiB", (uint64_t)1 << 30},
    {"KB", 1000},
    {"MB", 1000000},
    {"GB", 1000000000},
};

int cf_size_parse(const char *s, uint64_t *bytes, cf_error *e)
{
    const char *p = s;
    uint64_t v = 0;

    if (*p == '\0')
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "empty size");
    if (*p < '0' || *p > '9')
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                            "invalid size '%s': expected digits with an optional suffix "
                            "B, K, M, G, KiB, MiB, GiB, KB, MB or GB",
                            s);
    for (; *p >= '0' && *p <= '9'; p++) {
        uint64_t d = (uint64_t)(*p - '0');
        if (v > (CF_BYTES_MAX - d) / 10) {
            v = CF_BYTES_MAX + 1;
            while (p[1] >= '0' && p[1] <= '9')
                p++;
        } else {
            v = v * 10 + d;
        }
    }
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        if (strcmp(p, suffixes[i].suffix) != 0)
            continue;
        if (v > CF_BYTES_MAX || (v != 0 && suffixes[i].mult > CF_BYTES_MAX / v))
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "size '%s' is too large (at most 1 TiB)",
                                s);
        *bytes = v * suffixes[i].mult;
        if (*bytes > CF_BYTES_MAX)
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "size '%s' is too large (at most 1 TiB)",
                                s);
        return 0;
    }
    return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                        "invalid size '%s': expected digits with an optional suffix "
                        "B, K, M, G, KiB, MiB, GiB, KB, MB or GB",
                        s);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int push(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
    uint64_t *nv = cf_grow(*v, cap, *n, sizeof *nv, 16);
    if (nv == NULL)
        return -1;
    *v = nv;
    (*v)[(*n)++] = x;
    return 0;
}

int cf_size_list_parse(const char *s, uint64_t **out, size_t *n, cf_error *e)
{
    uint64_t *v = NULL;
    size_t nv = 0, cap = 0;
    char *copy = strdup(s);
    int rc = 0;

    if (copy == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    if (*s == '\0') {
        free(copy);
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "empty size list");
    }
    /* Not strtok: an empty item between two commas is an error, not nothing. */
    for (char *tok = copy, *next; tok != NULL; tok = next) {
        char *comma = strchr(tok, ',');
        next = comma ? comma + 1 : NULL;
        if (comma)
            *comma = '\0';
        if (*tok == '\0') {
            rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                              "'%s': an empty size (two commas together, or one at an end)", s);
            goto out;
        }
        char *colon = strchr(tok, ':');
        uint64_t lo, hi;
        if (colon == NULL) {
            if ((rc = cf_size_parse(tok, &lo, e)) != 0)
                goto out;
            if (push(&v, &nv, &cap, lo) != 0)
                goto oom;
            continue;
        }
        *colon = '\0';
        if ((rc = cf_size_parse(tok, &lo, e)) != 0 || (rc = cf_size_parse(colon + 1, &hi, e)) != 0)
            goto out;
        if (lo > hi) {
            rc = cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                              "invalid size range '%s:%s': the first size is larger than the last",
                              tok, colon + 1);
            goto out;
        }
        if (push(&v, &nv, &cap, lo) != 0)
            goto oom;
        /* Powers of two above lo, then hi itself so the range ends where it says. */
        for (uint64_t x = 1; x <= hi; x *= 2) {
            if (x > lo && x < hi && push(&v, &nv, &cap, x) != 0)
                goto oom;
            if (x > CF_BYTES_MAX / 2)
                break;
        }
        if (hi > lo && push(&v, &nv, &cap, hi) != 0)
            goto oom;
    }
    qsort(v, nv, sizeof *v, cmp_u64);
    {
        size_t k = 0;
        for (size_t i = 0; i < nv; i++)
            if (k == 0 || v[i] != v[k - 1])
                v[k++] = v[i];
        nv = k;
    }
    free(copy);
    *out = v;
    *n = nv;
    return 0;
oom:
    rc = cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
out:
    free(copy);
    free(v);
    return rc;
}

int cf_fmt_g(char *buf, size_t n, double v, int digits)
{
    static const double p10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,
                                 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16};
    double a = v < 0 ? -v : v;
    if (n < 32 || digits < 1 || digits > 9 || !(a >= 1e-4) || !(a < p10[digits]))
        return snprintf(buf, n, "%.*g", digits, v);
    /* The decimal exponent x of a (a >= 10^x, below 10^(x+1)), then its digits: a scaled
     * by a power of ten that doubles hold exactly, so that the product's one rounding
     * (under 1e-7 of a unit at these sizes) cannot pass for a tie or hide one. */
    int x = 0;
    while (x < digits - 1 && a >= p10[x + 1])
        x++;
    while (x > -5 && a < (x < 0 ? 1.0 / p10[-x] : p10[x]))
        x--;
    int dec = digits - 1 - x;
    double scaled = a * p10[dec], whole = floor(scaled), frac = scaled - whole;
    if (fabs(frac - 0.5) < 1e-6)
        return snprintf(buf, n, "%.*g", digits, v);
    uint64_t r = (uint64_t)whole + (frac > 0.5);
    if (r >= (uint64_t)p10[digits]) { /* 9.996 at 3 digits: 10.0, one decimal fewer */
        r /= 10;
        dec--;
        x++;
    }
    if (x >= digits || x < -4) /* rounded into printf's exponent form */
        return snprintf(buf, n, "%.*g", digits, v);
    while (dec > 0 && r % 10 == 0) { /* %g drops trailing zeros and a bare point */
        r /= 10;
        dec--;
    }
    char tmp[32];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + r % 10);
        r /= 10;
    } while (r > 0 || k <= dec);
    char *p = buf;
    if (v < 0)
        *p++ = '-';
    while (k > 0) {
        if (k == dec)
            *p++ = '.';
        *p++ = tmp[--k];
    }
    *p = '\0';
    return (int)(p - buf);
}

int cf_sig_prec(double x, int digits)
{
    double a = x < 0 ? -x : x;
    int whole = 1;
    while (whole < 9 && a >= 10.0) {
        a /= 10.0;
        whole++;
    }
    int p = whole > digits ? whole : digits;
    /* A value that rounds up to the next power of ten at p digits (999.6 at 3 is 1000)
     * has one whole digit more, which %.*g would print as an exponent ("1e+03"). */
    char t[48];
    if (whole < 9 && (cf_fmt_g(t, sizeof t, x, p), strchr(t, 'e') != NULL))
        p++;
    return p;
}

static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};

/* bytes in the largest unit it reaches, three significant digits or its whole digits
 * ("1.5 MiB", "1016 KiB"); that unit's index (0 for B) in *u. */
static void in_units(double bytes, char *buf, size_t n, int *u)
{
    *u = 0;
    while (*u < 4 && bytes >= 1024) {
        bytes /= 1024;
        (*u)++;
    }
    char num[48];
    int k = cf_fmt_g(num, sizeof num, bytes, cf_sig_prec(bytes, 3));
    size_t un = strlen(units[*u]);
    if (k > 0 && (size_t)k + un + 2 <= n) { /* joined, not printed: see cf_fmt_g */
        memcpy(buf, num, (size_t)k);
        buf[k] = ' ';
        memcpy(buf + k + 1, units[*u], un + 1);
    } else {
        snprintf(buf, n, "%s %s", num, units[*u]);
    }
}

/* Whether the number that starts text, in unit 1024^u, is bytes exactly. The digits are
 * read as integers, never through a double that could round a near miss onto bytes: with
 * bytes = q units + r, the text must be q + r / unit. Three significant digits leave at
 * most 2 decimals (scale 100) and q below 2^24 (TiB): no product here nears 2^64. */
static int says_exactly(const char *text, int u, uint64_t bytes)
{
    uint64_t digits = 0, scale = 1;
    const char *p = text;
    for (; *p >= '0' && *p <= '9'; p++)
        digits = digits * 10 + (uint64_t)(*p - '0');
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++) {
            digits = digits * 10 + (uint64_t)(*p - '0');
            scale *= 10;
        }
    uint64_t unit = (uint64_t)1 << (10 * u), q = bytes / unit, r = bytes % unit;
    return (r * scale) % unit == 0 && digits == q * scale + r * scale / unit;
}

void cf_size_format(uint64_t bytes, char *buf, size_t n)
{
    int u;
    in_units((double)bytes, buf, n, &u);
    /* "4 MiB" for 4192000 bytes would claim 2304 bytes more than there are, and --bytes
     * 4MiB would ask for another size than the one shown: a size its unit does not give
     * exactly is shown in bytes, as cf_size_parse reads it back. */
    if (!says_exactly(buf, u, bytes))
        snprintf(buf, n, "%llu B", (unsigned long long)bytes);
}

void cf_size_range_format(uint64_t lo, uint64_t hi, char *buf, size_t n)
{
    char a[32], b[32];
    cf_size_format(lo, a, sizeof a);
    cf_size_format(hi, b, sizeof b);
    snprintf(buf, n, "%s%s%s", a, lo != hi ? " to " : "", lo != hi ? b : "");
}

void cf_size_format_estimate(double bytes, char *buf, size_t n)
{
    int u;
    in_units(bytes, buf, n, &u);
}
