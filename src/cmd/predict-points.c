/* commfit predict --points: the (np, bytes) pairs of a file, "NP BYTES" a line, read whole
 * before any answer is printed. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "base/outfile.h"
#include "base/size.h"
#include "cmd/predict-int.h"


static int points_add(cf_predict_points *P, long np, uint64_t bytes)
{
    if (P->n == P->cap) {
        size_t cap = P->cap ? 2 * P->cap : 1024;
        long *a = realloc(P->np, cap * sizeof *a);
        if (a == NULL)
            return -1;
        P->np = a;
        uint64_t *b = realloc(P->bytes, cap * sizeof *b);
        if (b == NULL)
            return -1;
        P->bytes = b;
        P->cap = cap;
    }
    P->np[P->n] = np;
    P->bytes[P->n++] = bytes;
    return 0;
}

void cf_predict_points_free(cf_predict_points *P)
{
    free(P->np);
    free(P->bytes);
    memset(P, 0, sizeof *P);
}

int cf_predict_points_read(ctx *c, const char *path, cf_predict_points *P, cf_error *e)
{
    FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    if (fp == NULL)
        return cf_error_set(e, CF_EXIT_DATA, name, 0, "cannot open: %s", strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0, n;
    int rc = 0;
    while ((n = cf_read_line(fp, &line, &cap)) > 0) {
        lineno++;
        char *p = line;
        if (lineno == 1 && strncmp(p, "\xef\xbb\xbf", 3) == 0)
            p += 3; /* a UTF-8 byte order mark */
        if (strlen(line) != (size_t)n) {
            rc = cf_error_set(e, CF_EXIT_DATA, name, lineno,
                              "unexpected NUL byte: expected lines 'NP BYTES' of text");
            break;
        }
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0')
            continue;
        /* The fields: NP, BYTES and nothing more, each named when it is wrong. */
        char *f[3] = {NULL, NULL, NULL};
        int nf = 0;
        while (*p != '\0' && *p != '\n' && *p != '\r' && nf < 3) {
            f[nf++] = p;
            while (*p && *p != ' ' && *p != '\t' && *p != ',' && *p != '\n' && *p != '\r')
                p++;
            char *sep = p;
            while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r')
                p++;
            if (*p == '\n')
                p++;
            *sep = '\0';
        }
        char *end;
        errno = 0;
        long np = strtol(f[0], &end, 10);
        if (*end != '\0' || end == f[0] || errno != 0 || np < 2 || np > CF_TABLE_NP_MAX) {
            rc = cf_error_set(e, CF_EXIT_DATA, name, lineno,
                              "expected 'NP BYTES' with NP from 2 to %d, got NP '%s'",
                              CF_TABLE_NP_MAX, f[0]);
            break;
        }
        uint64_t bytes = 0;
        cf_error se;
        if (nf < 2) {
            rc = cf_error_set(e, CF_EXIT_DATA, name, lineno,
                              "expected 'NP BYTES': BYTES is missing after '%s'", f[0]);
            break;
        }
        if (cf_size_parse(f[1], &bytes, &se) != 0) {
            rc = cf_error_set(e, CF_EXIT_DATA, name, lineno,
                              "expected 'NP BYTES', BYTES a size such as 4096 or 1M, got '%s'",
                              f[1]);
            break;
        }
        if (nf > 2) {
            rc = cf_error_set(e, CF_EXIT_DATA, name, lineno,
                              "expected 'NP BYTES', got a third field '%s' after '%s %s'", f[2],
                              f[0], f[1]);
            break;
        }
        if ((rc = cf_predict_check_two(c, np, name, lineno, e)) != 0)
            break;
        if (points_add(P, np, bytes) != 0) {
            rc = cf_error_set(e, CF_EXIT_DATA, name, lineno, "out of memory");
            break;
        }
    }
    if (rc == 0 && n == -2)
        rc = cf_long_line_error(e, name, lineno + 1);
    else if (rc == 0 && n == -1)
        rc = cf_error_set(e, CF_EXIT_DATA, name, 0, "read error: %s", strerror(errno));
    else if (rc == 0 && P->n == 0)
        rc = cf_error_set(e, CF_EXIT_DATA, name, 0,
                          "no 'NP BYTES' line (%ld line%s, blank or '#'): nothing to predict",
                          lineno, lineno == 1 ? "" : "s");
    free(line);
    if (fp != stdin)
        fclose(fp);
    return rc;
}
