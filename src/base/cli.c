/* Option-parsing helpers shared by the subcommands. */
#include "config.h"

#include "base/cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cf_cli_unavailable(int argc, char **argv, const char *help)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(help, stdout);
            return CF_EXIT_OK;
        }
    }
    cf_msg("not available in commfit %s yet", PACKAGE_VERSION);
    return CF_EXIT_USAGE;
}

int cf_int_parse(const char *s, const char *what, long min, long max, long *out, cf_error *e)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    const char *d = *s == '-' ? s + 1 : s;
    if (*d < '0' || *d > '9' || *end != '\0' || errno != 0)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s '%s': expected an integer", what, s);
    if (v < min || v > max)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s '%s': expected %ld to %ld", what, s,
                            min, max);
    *out = v;
    return 0;
}

int cf_double_parse(const char *s, const char *what, double min, double max, double *out,
                    cf_error *e)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || errno != 0 || !isfinite(v))
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s '%s': expected a number", what, s);
    if (v < min || v > max)
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s '%s': expected %g to %g", what, s, min,
                            max);
    *out = v;
    return 0;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int cf_int_list_parse(const char *s, const char *what, long min, long max, long **out,
                      size_t *n, cf_error *e)
{
    if (*s == '\0')
        return cf_error_set(e, CF_EXIT_USAGE, NULL, 0, "%s: empty list", what);
    size_t cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == ',';
    long *v = malloc(cap * sizeof *v);
    char *copy = strdup(s);
    if (v == NULL || copy == NULL) {
        free(v);
        free(copy);
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    }
    size_t k = 0;
    char *p = copy;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        int rc = cf_int_parse(p, what, min, max, &v[k], e);
        if (rc != 0) {
            free(v);
            free(copy);
            return rc;
        }
        k++;
        if (!comma)
            break;
        p = comma + 1;
    }
    free(copy);
    qsort(v, k, sizeof *v, cmp_long);
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        if (m == 0 || v[i] != v[m - 1])
            v[m++] = v[i];
    *out = v;
    *n = m;
    return 0;
}

int cf_shell_quote(const char *word, char *out, size_t n)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_./+-:,=@%";
    int quote = word[0] == '\0' || strspn(word, plain) != strlen(word);
    size_t k = 0;
    if (quote && k < n)
        out[k++] = '\'';
    /* Single quotes keep everything but a single quote, written '\''. */
    for (const char *p = word; *p && k < n; p++) {
        if (quote && *p == '\'')
            k += (size_t)snprintf(out + k, n - k, "'\\''");
        else
            out[k++] = *p;
    }
    if (quote && k < n)
        out[k++] = '\'';
    if (k >= n) {
        if (n > 0)
            out[n - 1] = '\0';
        return -1;
    }
    out[k] = '\0';
    return 0;
}
