/* Size parsing: every accepted form, every refusal, and the messages. */
#include "config.h"

#include <stdlib.h>

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

    const char *suffix_help = "expected digits with an optional suffix K, M, G, KiB, MiB, GiB, "
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
    list("1K,,2K", "error: empty size");
    list("1X:2", "error: invalid size '1X': expected digits with an optional suffix K, M, G, KiB, "
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
    cf_size_format(1047552 + 512, f, sizeof f);
    is_str(f, "1024 KiB", "format 1023.5 KiB: whole digits, no exponent");
    cf_size_format(1000 * 1024 + 100, f, sizeof f);
    is_str(f, "1000 KiB", "format 1000.1 KiB: no exponent");
    cf_size_format(1040000, f, sizeof f);
    is_str(f, "1016 KiB", "format 1015.6 KiB: no exponent");
    cf_size_format(5 * 1024 + 512, f, sizeof f);
    is_str(f, "5.5 KiB", "format 5.5 KiB");
    ok(cf_sig_prec(0.5, 2) == 2 && cf_sig_prec(770.4, 2) == 3 && cf_sig_prec(-12345, 3) == 5,
       "cf_sig_prec: the whole digits when they are more");
    return tap_done();
}
