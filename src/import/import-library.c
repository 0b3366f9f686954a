/* import --mpi-library: the MPI library a user names, written as the library itself
 * states its version (MPI_Get_library_version), which is what commfit measure records and
 * what the collective switch rules read. */
#include "config.h"

#include "import/import.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The libraries whose version strings commfit's rules read, by the names users type
 * (any case; a blank, '-' or '_' inside "open mpi" optional), and how the library itself
 * begins the string. */
static const struct {
    const char *typed[3];
    const char *as_library; /* then the version */
} known[] = {
    {{"open mpi", "ompi", NULL}, "Open MPI v"},
    {{"mpich", NULL}, "MPICH Version: "},
};

/* The length of name at the start of s, matched ignoring case and treating '-', '_' and
 * blanks in s as the blank of name; 0 when s does not start with it. */
static size_t match_name(const char *s, const char *name)
{
    const char *p = s;
    for (; *name != '\0'; name++) {
        if (*name == ' ') {
            if (*p == ' ' || *p == '\t' || *p == '-' || *p == '_')
                p++;
            continue;
        }
        if (tolower((unsigned char)*p) != *name)
            return 0;
        p++;
    }
    /* A name, not the start of a longer word ("mpich2", "ompix"). */
    return isalnum((unsigned char)*p) ? 0 : (size_t)(p - s);
}

/* The length of a version at s ("4.1.6", "v4.1.6", "5.0.0rc12"): a digit, then digits,
 * letters, '.', '+' or '-'; with its leading 'v' in *v_len (0 or 1). 0 when none. */
static size_t version_len(const char *s, size_t *v_len)
{
    *v_len = (*s == 'v' || *s == 'V') && isdigit((unsigned char)s[1]);
    const char *p = s + *v_len;
    if (!isdigit((unsigned char)*p))
        return 0;
    while (isalnum((unsigned char)*p) || *p == '.' || *p == '+' || *p == '-')
        p++;
    return (size_t)(p - s);
}

/* Whether s holds a version among its words (separated by blanks, '/' or '-'). */
static int has_version(const char *s)
{
    for (const char *p = s; *p != '\0'; p++) {
        size_t v;
        if ((p == s || strchr(" \t/-", p[-1]) != NULL) && version_len(p, &v) > 0)
            return 1;
    }
    return 0;
}

/* Whether s holds a word that is no version (blanks and '/' between words) with a letter
 * in it: the library's name ("4.1.6" alone has none). */
static int has_name(const char *s)
{
    for (const char *p = s; *p != '\0';) {
        size_t w = strcspn(p, " \t/"), v;
        if (w > 0 && version_len(p, &v) < w)
            for (size_t i = 0; i < w; i++)
                if (isalpha((unsigned char)p[i]))
                    return 1;
        p += w;
        p += strspn(p, " \t/");
    }
    return 0;
}

int cf_import_library_name(const char *typed, char **out, cf_error *e)
{
    *out = NULL;
    while (isspace((unsigned char)*typed))
        typed++;
    size_t n = strlen(typed);
    while (n > 0 && isspace((unsigned char)typed[n - 1]))
        n--;
    for (size_t i = 0; i < n; i++)
        if (iscntrl((unsigned char)typed[i]) && typed[i] != '\t')
            return cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                                "--mpi-library: expected one line, as 'Open MPI 4.1.6' or "
                                "'MPICH 4.0.2'");
    char *s = strndup(typed, n);
    if (s == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    if (!has_version(s) || !has_name(s)) {
        cf_error_set(e, CF_EXIT_USAGE, NULL, 0,
                     "--mpi-library '%s': expected the library's name and version, as "
                     "'Open MPI 4.1.6' or 'MPICH 4.0.2'",
                     s);
        free(s);
        return CF_EXIT_USAGE;
    }
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        for (const char *const *t = known[k].typed; *t != NULL; t++) {
            size_t at = match_name(s, *t);
            if (at == 0)
                continue;
            /* Between the name and the version: blanks, '/' or '-' (a module name,
             * openmpi/4.1.6), and the library's own "Version:" as MPICH prints it. */
            const char *p = s + at + strspn(s + at, " \t/-_");
            if (strncasecmp(p, "version", 7) == 0 && !isalnum((unsigned char)p[7]))
                p += 7 + strspn(p + 7, " \t:");
            size_t v, len = version_len(p, &v);
            if (len == 0)
                break; /* a name, then not a version: kept as typed */
            size_t cap = strlen(known[k].as_library) + strlen(p) + 1;
            if ((*out = malloc(cap)) != NULL)
                snprintf(*out, cap, "%s%s", known[k].as_library, p + v);
            free(s);
            return *out == NULL ? cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory") : 0;
        }
    *out = s;
    return 0;
}
