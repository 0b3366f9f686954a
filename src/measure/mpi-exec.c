/* Finding and starting commfit-mpi, the program that holds the MPI code. */
#include "config.h"

#include "measure/mpi-exec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The length of the next path component at p (after any slashes). */
static size_t component(const char **p)
{
    while (**p == '/')
        (*p)++;
    return strcspn(*p, "/");
}

char *cf_path_relative(const char *from, const char *to)
{
    if (from == NULL || to == NULL || from[0] != '/' || to[0] != '/')
        return NULL;
    const char *f = from, *t = to;
    /* Skip the leading components the two share. */
    for (;;) {
        const char *f2 = f, *t2 = t;
        size_t nf = component(&f2), nt = component(&t2);
        if (nf == 0 || nf != nt || strncmp(f2, t2, nf) != 0)
            break;
        f = f2 + nf;
        t = t2 + nt;
    }
    size_t ups = 0;
    for (const char *p = f; component(&p) > 0; p += strcspn(p, "/"))
        ups++;
    while (*t == '/')
        t++;
    size_t len = 3 * ups + strlen(t) + 2;
    char *r = malloc(len), *q = r;
    if (r == NULL)
        return NULL;
    for (size_t i = 0; i < ups; i++)
        q += sprintf(q, "%s..", i ? "/" : "");
    if (*t != '\0')
        q += sprintf(q, "%s%s", ups ? "/" : "", t);
    if (q == r)
        strcpy(r, ".");
    /* "dir/" would make "dir//commfit-mpi": harmless, but untidy in messages. */
    size_t n = strlen(r);
    while (n > 1 && r[n - 1] == '/')
        r[--n] = '\0';
    return r;
}

/* dir + "/" + rel (may be NULL) + "/" + name, malloc'd. */
static char *join(const char *dir, const char *rel, const char *name)
{
    size_t n = strlen(dir) + (rel ? strlen(rel) + 1 : 0) + strlen(name) + 2;
    char *s = malloc(n);
    if (s != NULL)
        snprintf(s, n, "%s%s%s/%s", dir, rel ? "/" : "", rel ? rel : "", name);
    return s;
}

char *cf_mpi_program_find(const char *self_exe, const char *bindir, const char *pkglibexecdir,
                          cf_error *e)
{
    const char *env = getenv(CF_MPI_ENV);
    if (env != NULL && *env != '\0') {
        if (access(env, X_OK) != 0) {
            cf_error_set(e, CF_EXIT_DATA, NULL, 0, "%s='%s': %s", CF_MPI_ENV, env,
                         strerror(errno));
            return NULL;
        }
        char *s = strdup(env);
        if (s == NULL)
            cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
        return s;
    }

    char *tried[3] = {NULL, NULL, NULL};
    int n = 0;
    if (self_exe != NULL && strrchr(self_exe, '/') != NULL) {
        char *dir = strndup(self_exe, (size_t)(strrchr(self_exe, '/') - self_exe));
        char *rel = cf_path_relative(bindir, pkglibexecdir);
        if (dir != NULL) {
            tried[n++] = join(dir[0] ? dir : "/", NULL, CF_MPI_PROGRAM);
            if (rel != NULL)
                tried[n++] = join(dir[0] ? dir : "/", rel, CF_MPI_PROGRAM);
        }
        free(rel);
        free(dir);
    }
    tried[n++] = join(pkglibexecdir, NULL, CF_MPI_PROGRAM);

    char *found = NULL;
    for (int i = 0; i < n && found == NULL; i++)
        if (tried[i] != NULL && access(tried[i], X_OK) == 0)
            found = tried[i];
    if (found == NULL) {
        char where[1024] = "";
        for (int i = 0; i < n; i++) {
            size_t used = strlen(where);
            if (tried[i] != NULL)
                snprintf(where + used, sizeof where - used, "%s'%s'", used ? ", " : "",
                         tried[i]);
        }
        cf_error_set(e, CF_EXIT_DATA, NULL, 0,
                     "cannot find %s, the MPI part of commfit (looked at %s): install it "
                     "or set %s to its path",
                     CF_MPI_PROGRAM, where, CF_MPI_ENV);
    }
    for (int i = 0; i < n; i++)
        if (tried[i] != found)
            free(tried[i]);
    return found;
}

int cf_mpi_exec(const char *prog, int argc, char **argv, cf_error *e)
{
    char **v = calloc((size_t)argc + 2, sizeof *v);
    if (v == NULL)
        return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "out of memory");
    v[0] = (char *)prog;
    for (int i = 0; i < argc; i++)
        v[i + 1] = argv[i];
    fflush(NULL);
    execv(prog, v);
    int err = errno;
    free(v);
    return cf_error_set(e, CF_EXIT_DATA, NULL, 0, "cannot start '%s': %s", prog, strerror(err));
}
