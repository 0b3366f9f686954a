/* A minimal TAP producer for the C unit tests: ok(), is_int(), is_str(), near(). */
#ifndef CF_TAP_H
#define CF_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

static void tap_vreport(int pass, const char *file, int line, const char *fmt, va_list ap)
{
    tap_n++;
    printf("%s %d - ", pass ? "ok" : "not ok", tap_n);
    vprintf(fmt, ap);
    printf("\n");
    if (!pass) {
        tap_failed++;
        printf("#   failed at %s:%d\n", file, line);
    }
}

static inline int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tap_vreport(pass, file, line, fmt, ap);
    va_end(ap);
    return pass;
}

#define is_str(got, want, ...)                                                                 \
    do {                                                                                       \
        const char *g_ = (got), *w_ = (want);                                                  \
        if (!ok(g_ != NULL && strcmp(g_, w_) == 0, __VA_ARGS__))                               \
            printf("#   got:      '%s'\n#   expected: '%s'\n", g_ ? g_ : "(null)", w_);        \
    } while (0)

#define is_int(got, want, ...)                                                                 \
    do {                                                                                       \
        long long g_ = (long long)(got), w_ = (long long)(want);                               \
        if (!ok(g_ == w_, __VA_ARGS__))                                                        \
            printf("#   got: %lld, expected: %lld\n", g_, w_);                                 \
    } while (0)

/* |got - want| <= rel * |want| */
#define near(got, want, rel, ...)                                                              \
    do {                                                                                       \
        double g_ = (got), w_ = (want);                                                        \
        if (!ok(fabs(g_ - w_) <= (rel)*fabs(w_), __VA_ARGS__))                                 \
            printf("#   got: %.17g, expected: %.17g (relative tolerance %g)\n", g_, w_,       \
                   (double)(rel));                                                             \
    } while (0)

static inline int tap_done(void)
{
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}

#endif
