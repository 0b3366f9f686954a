/* The numbers of the timing table: a strict decimal grammar, read exactly where the value
 * allows it (Clinger's fast path) and by strtod otherwise, so that a table read back gives
 * the values that were written. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/table-int.h"

static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Strict decimal number: [+-]digits[.digits][e[+-]digits]. Exact fast path when the
 * mantissa fits 15 digits and the power of ten is exactly representable (Clinger);
 * strtod otherwise. Returns -1 on anything else, NaN and infinity included. */
int cf_table_parse_double(const char *s, size_t n, double *out)
{
    size_t i = 0;
    int neg = 0, digits = 0, frac = 0, sig = 0;
    uint64_t m = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++)
        if (m != 0 || s[i] != '0') {
            if (sig < 19)
                m = m * 10 + (uint64_t)(s[i] - '0');
            else
                frac--; /* digit dropped from the fast path: forces strtod below */
            sig++;
        }
    if (i < n && s[i] == '.') {
        i++;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
            if (m != 0 || s[i] != '0') {
                if (sig < 19)
                    m = m * 10 + (uint64_t)(s[i] - '0');
                sig++;
            }
            frac++;
        }
    }
    if (digits == 0)
        return -1;
    int e = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int eneg = 0, ed = 0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            eneg = s[i++] == '-';
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, ed++)
            if (e < 100000)
                e = e * 10 + (s[i] - '0');
        if (ed == 0)
            return -1;
        if (eneg)
            e = -e;
    }
    if (i != n)
        return -1;
    int p10 = e - frac;
    double v;
    if (sig <= 15 && p10 >= -22 && p10 <= 22) {
        v = (double)m;
        v = p10 < 0 ? v / pow10_exact[-p10] : v * pow10_exact[p10];
    } else {
        char buf[128];
        if (n >= sizeof buf)
            return -1;
        memcpy(buf, s, n);
        buf[n] = '\0';
        errno = 0;
        v = fabs(strtod(buf, NULL)); /* the magnitude: the sign is applied below */
    }
    if (!isfinite(v))
        return -1;
    *out = neg ? -v : v;
    return 0;
}

int cf_table_parse_u64(const char *s, size_t n, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        if (v > (max - (uint64_t)(s[i] - '0')) / 10)
            return -2;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return 0;
}

const char *cf_scan_exponent(const char *p, const char *end, long *e)
{
    long x = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        int neg = 0;
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            neg = *p++ == '-';
        const char *e0 = p;
        for (; p < end && cf_table_is_digit(*p); p++)
            if (x < 100000)
                x = x * 10 + (*p - '0');
        if (p == e0)
            return NULL;
        if (neg)
            x = -x;
    }
    *e = x;
    return p;
}

/* The digits at p appended to *m (which may wrap: callers count the digits); returns where
 * they end. */
static const char *digit_run(const char *p, const char *end, uint64_t *m)
{
    uint64_t x = *m;
    while (p < end && cf_table_is_digit(*p))
        x = x * 10 + (uint64_t)(*p++ - '0');
    *m = x;
    return p;
}

/* Digits, at most max; as cf_table_parse_u64, but 19 digits at most (no overflow to check). */
const char *cf_table_scan_u64(const char *p, const char *end, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    const char *q = digit_run(p, end, &v);
    if (q == p || q - p > 19 || v > max)
        return NULL;
    *out = v;
    return q;
}

/* cf_table_parse_double's grammar, read up to the first character that cannot continue it, when
 * the value is exact in the fast path (Clinger): at most 15 significant digits and a
 * power of ten within 10^22. Anything that needs strtod goes to the careful path. */
const char *cf_table_scan_double(const char *p, const char *end, double *out)
{
    int neg = 0;
    if (p < end && (*p == '+' || *p == '-'))
        neg = *p++ == '-';
    const char *d0 = p;
    while (p < end && *p == '0')
        p++;
    const char *s0 = p; /* the first significant digit, if in the integer part */
    uint64_t m = 0;
    p = digit_run(p, end, &m);
    long sig = p - s0, digits = p - d0, frac = 0;
    if (p < end && *p == '.') {
        const char *f0 = ++p;
        if (sig == 0)
            while (p < end && *p == '0')
                p++;
        const char *f1 = p;
        p = digit_run(p, end, &m);
        frac = p - f0;
        sig += p - f1;
        digits += frac;
    }
    if (digits == 0 || sig > 15) /* beyond 15 digits, m may have wrapped: strtod reads it */
        return NULL;
    long e = 0;
    if ((p = cf_scan_exponent(p, end, &e)) == NULL)
        return NULL;
    long p10 = e - frac;
    if (p10 < -22 || p10 > 22)
        return NULL;
    double v = (double)m;
    v = p10 < 0 ? v / pow10_exact[-p10] : v * pow10_exact[p10];
    *out = neg ? -v : v;
    return p;
}
