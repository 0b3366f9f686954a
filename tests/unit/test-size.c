/* Size parsing: every accepted form, every refusal, and the messages. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/size.h"
#include "tap.h"

static void accepts(const char *s, uint64_t want)
{
    cf_error e;
    uint64_t got = 12345;
    cf_error_clear(&e);
    int rc = cf_size_parse(s, &got, &e);
    ok(rc == 0 && got == want, "'%s' is %llu bytes", s, (unsigned long long)want);
    if (rc != 0)
        printf("#   error: %s\n", e.msg);
}

static void refuses(const char *s, const char *msg)
{
    cf_error e;
    uint64_t got;
    cf_error_clear(&e);
    int rc = cf_size_parse(s, &got, &e);
    is_int(rc, CF_EXIT_USAGE, "'%s' is refused as a usage error", s);
    is_str(e.msg, msg, "'%s' gets the expected message", s);
}

static void list(const char *s, const char *want)
{
    cf_error e;
    uint64_t *v = NULL;
    size_t n = 0;
    char buf[1024] = "";
    cf_error_clear(&e);
    if (cf_size_list_parse(s, &v, &n, &e) == 0) {
        for (size_t i = 0; i < n; i++) {
            size_t l = strlen(buf);
            snprintf(buf + l, sizeof buf - l, "%s%llu", i ? "," : "", (unsigned long long)v[i]);
        }
    } else {
        snprintf(buf, sizeof buf, "error: %s", e.msg);
    }
    is_str(buf, want, "list '%s'", s);
    free(v);
}

int main(void)
{
    accepts("0", 0);
    accepts("4096", 4096);
    accepts("1K", 1024);
    accepts("1M", 1048576);
    accepts("1G", 1073741824);
    accepts("1KiB", 1024);
    accepts("1MiB", 1048576);
    accepts("1GiB", 1073741824);
    accepts("1KB", 1000);
    accepts("1MB", 1000000);
    accepts("1GB", 1000000000);
    accepts("64B", 64);
    accepts("4M", 4194304);
    accepts("1024G", (uint64_t)1 << 40);

    const char *suffix_help = "expected digits with an optional suffix B, K, M, G, KiB, MiB, GiB, "
                              "KB, MB or GB";
    char m[256];
    snprintf(m, sizeof m, "invalid size '1X': %s", suffix_help);
    refuses("1X", m);
    snprintf(m, sizeof m, "invalid size '-1': %s", suffix_help);
    refuses("-1", m);
    snprintf(m, sizeof m, "invalid size '1.5': %s", suffix_help);
    refuses("1.5", m);
    snprintf(m, sizeof m, "invalid size 'K': %s", suffix_help);
    refuses("K", m);
    snprintf(m, sizeof m, "invalid size '1 K': %s", suffix_help);
    refuses("1 K", m);
    snprintf(m, sizeof m, "invalid size '1k': %s", suffix_help);
    refuses("1k", m);
    refuses("", "empty size");
    refuses("99999999999999999999999", "size '99999999999999999999999' is too large (at most 1 TiB)");
    refuses("18446744073709551616", "size '18446744073709551616' is too large (at most 1 TiB)");
    refuses("1025G", "size '1025G' is too large (at most 1 TiB)");
    refuses("2000GB", "size '2000GB' is too large (at most 1 TiB)");

    list("1K,64K,1M", "1024,65536,1048576");
    list("0:16", "0,1,2,4,8,16");
    list("1K:8K", "1024,2048,4096,8192");
    list("3:20", "3,4,8,16,20");
    list("1M,1K,1K", "1024,1048576");
    list("0:4M,100", "0,1,2,4,8,16,32,64,100,128,256,512,1024,2048,4096,8192,16384,32768,65536,"
                     "131072,262144,524288,1048576,2097152,4194304");
    list("8:2", "error: invalid size range '8:2': the first size is larger than the last");
    list("1K,,2K", "error: '1K,,2K': an empty size (two commas together, or one at an end)");
    list("1K,", "error: '1K,': an empty size (two commas together, or one at an end)");
    list("1X:2", "error: invalid size '1X': expected digits with an optional suffix B, K, M, G, KiB, "
                 "MiB, GiB, KB, MB or GB");

    char f[32];
    cf_size_format(0, f, sizeof f);
    is_str(f, "0 B", "format 0");
    cf_size_format(1024, f, sizeof f);
    is_str(f, "1 KiB", "format 1 KiB");
    cf_size_format(1536 * 1024, f, sizeof f);
    is_str(f, "1.5 MiB", "format 1.5 MiB");
    cf_size_format(1000, f, sizeof f);
    is_str(f, "1000 B", "format 1000");
    cf_size_format(1023 * 1024, f, sizeof f);
    is_str(f, "1023 KiB", "format 1023 KiB: whole digits, no exponent");
    cf_size_format(1000 * 1024, f, sizeof f);
    is_str(f, "1000 KiB", "format 1000 KiB: no exponent");
    cf_size_format(5 * 1024 + 512, f, sizeof f);
    is_str(f, "5.5 KiB", "format 5.5 KiB");
    cf_size_format(1310720, f, sizeof f);
    is_str(f, "1.25 MiB", "format 1.25 MiB: an exact fraction");
    cf_size_format((uint64_t)2 << 40, f, sizeof f);
    is_str(f, "2 TiB", "format 2 TiB (above what a size option takes: memory)");
    /* Not a whole number of its unit at three digits: the bytes, never a size it is not. */
    cf_size_format(4192000, f, sizeof f);
    is_str(f, "4192000 B", "format 4192000: not '4 MiB' (4194304)");
    cf_size_format(1047552 + 512, f, sizeof f);
    is_str(f, "1048064 B", "format 1023.5 KiB: not '1024 KiB'");
    char r[80];
    cf_size_range_format(65536, 2097152, r, sizeof r);
    is_str(r, "64 KiB to 2 MiB", "a range of sizes");
    cf_size_range_format(65536, 65536, r, sizeof r);
    is_str(r, "64 KiB", "a range of one size: the size");
    cf_size_format(1000 * 1024 + 100, f, sizeof f);
    is_str(f, "1024100 B", "format 1000.1 KiB: not '1000 KiB'");
    cf_size_format(1040000, f, sizeof f);
    is_str(f, "1040000 B", "format 1015.6 KiB: not '1016 KiB'");
    cf_size_format(1394606, f, sizeof f);
    is_str(f, "1394606 B", "format 1.33 MiB and a little: the bytes");
    cf_size_format(4194305, f, sizeof f);
    is_str(f, "4194305 B", "format 4 MiB + 1: the bytes");
    /* What is shown reads back as the size shown: "4 MiB" as --bytes 4MiB, "4192000 B" as
     * --bytes 4192000B; a fraction ("1.5 MiB") is refused, never misread. */
    {
        static const uint64_t sizes[] = {
            0,       1,       999,     1000,    1023,     1024,     1025,     1536,
            4095,    4096,    65535,   65536,   100000,   1000000,  1048575,  1048576,
            1048577, 4192000, 4194304, 8388607, 10485760, 10485761, 1u << 30, (1u << 30) + 512};
        int bad = 0;
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            char typed[32], *q = typed;
            cf_size_format(sizes[i], f, sizeof f);
            for (const char *c = f; *c; c++)
                if (*c != ' ')
                    *q++ = *c;
            *q = '\0';
            uint64_t back;
            cf_error e;
            cf_error_clear(&e);
            if (strchr(typed, '.') == NULL &&
                (cf_size_parse(typed, &back, &e) != 0 || back != sizes[i])) {
                printf("#   %llu shown as '%s'\n", (unsigned long long)sizes[i], f);
                bad++;
            }
        }
        ok(bad == 0, "every size shown reads back as itself");
    }
    /* An estimate is a figure at three digits, as times are. */
    cf_size_format_estimate(4192000, f, sizeof f);
    is_str(f, "4 MiB", "estimate 4192000: 3 significant digits");
    cf_size_format_estimate(1040000, f, sizeof f);
    is_str(f, "1016 KiB", "estimate 1015.6 KiB: whole digits, no exponent");
    cf_size_format_estimate(12.6, f, sizeof f);
    is_str(f, "12.6 B", "estimate 12.6 B");
    ok(cf_sig_prec(0.5, 2) == 2 && cf_sig_prec(770.4, 2) == 3 && cf_sig_prec(-12345, 3) == 5,
       "cf_sig_prec: the whole digits when they are more");
    /* Rounding up to the next power of ten adds a whole digit: no exponent form then. */
    ok(cf_sig_prec(999.6, 3) == 4 && cf_sig_prec(99.97, 2) == 3 && cf_sig_prec(-9999.7, 3) == 5 &&
           cf_sig_prec(9.996, 3) == 3,
       "cf_sig_prec: a value that rounds up to a power of ten gets its whole digit");
    cf_size_format_estimate(999.7 * 1024, f, sizeof f);
    is_str(f, "999.7 KiB", "estimate 999.7 KiB: not '1e+03 KiB'");
    cf_size_format_estimate(999.97 * 1024, f, sizeof f);
    is_str(f, "1000 KiB", "estimate 999.97 KiB: 1000 KiB");
    {
        /* cf_fmt_g is printf's %.*g byte for byte: values over every decade it formats
         * itself and past them, the ties of exact binary fractions (0.125, 2.5), the
         * roundings into the next decade (9.996, 99.95) and into the exponent form. */
        static const double fixed[] = {0.125, 2.5,      0.0625, 1.125,   9.996,  99.95, 999.6,
                                       0.5,   1e-4,     9.9999e-5, 0.00099996, 1e9, 123456789,
                                       -0.001, -12.345, 0,      1e300,   -1e-300, 1.0 / 3.0};
        int bad = 0, nbad = 0;
        char want[64], got[64];
        for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
            for (int d = 1; d <= 10; d++) {
                int nw = snprintf(want, sizeof want, "%.*g", d, fixed[i]);
                int ng = cf_fmt_g(got, sizeof got, fixed[i], d);
                if (nw != ng || strcmp(want, got) != 0) {
                    if (nbad++ < 5)
                        printf("#   %.17g at %d: '%s', printf '%s'\n", fixed[i], d, got, want);
                    bad++;
                }
            }
        uint64_t x = 88172645463325252u; /* xorshift: the same values every run */
        for (int i = 0; i < 400000; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            /* 10^-6 to 10^11, uniform in the log, either sign; a third rounded to few
             * digits, where ties live */
            double v = pow(10.0, -6.0 + 17.0 * (double)(x >> 11) / 9007199254740992.0);
            if (i % 3 == 0)
                v = round(v * 1000.0) / 1000.0;
            if (x & 1)
                v = -v;
            int d = 1 + (int)(x % 9);
            int nw = snprintf(want, sizeof want, "%.*g", d, v);
            int ng = cf_fmt_g(got, sizeof got, v, d);
            if (nw != ng || strcmp(want, got) != 0) {
                if (nbad++ < 5)
                    printf("#   %.17g at %d: '%s', printf '%s'\n", v, d, got, want);
                bad++;
            }
        }
        ok(bad == 0, "cf_fmt_g writes what printf's %%.*g writes (400000 values and the edges)");
    }
    return tap_done();
}
