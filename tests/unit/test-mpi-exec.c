/* Finding commfit-mpi: relative paths between install folders and the search order. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measure/mpi-exec.h"
#include "tap.h"

static void rel(const char *from, const char *to, const char *want)
{
    char *got = cf_path_relative(from, to);
    if (want == NULL)
        ok(got == NULL, "'%s' to '%s': no relative path", from, to);
    else
        is_str(got, want, "'%s' to '%s'", from, to);
    free(got);
}

static void touch_exe(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f != NULL)
        fclose(f);
    chmod(path, 0755);
}

int main(void)
{
    rel("/usr/local/bin", "/usr/local/libexec/commfit", "../libexec/commfit");
    rel("/usr/bin", "/usr/lib/x86_64-linux-gnu/commfit", "../lib/x86_64-linux-gnu/commfit");
    rel("/opt/a/bin/", "/opt/a/bin", ".");
    rel("/opt//a/bin", "/opt/a/bin/sub", "sub");
    rel("/a/b/c", "/x", "../../../x");
    rel("/", "/libexec", "libexec");
    rel("/usr/binx", "/usr/bin/y", "../bin/y");
    rel("usr/bin", "/usr/libexec", NULL);

    char dir[] = "/tmp/commfit-mpi-exec.XXXXXX";
    if (mkdtemp(dir) == NULL) {
        ok(0, "mkdtemp");
        return tap_done();
    }
    char bin[128], lib[128], self[256], inlib[256], nextto[256], other[256];
    snprintf(bin, sizeof bin, "%s/p/bin", dir);
    snprintf(lib, sizeof lib, "%s/p/libexec", dir);
    snprintf(self, sizeof self, "%s/commfit", bin);
    snprintf(inlib, sizeof inlib, "%s/commfit/commfit-mpi", lib);
    snprintf(nextto, sizeof nextto, "%s/commfit-mpi", bin);
    snprintf(other, sizeof other, "%s/other-mpi", dir);
    char p[256];
    snprintf(p, sizeof p, "%s/p", dir);
    mkdir(p, 0755);
    mkdir(bin, 0755);
    mkdir(lib, 0755);
    snprintf(p, sizeof p, "%s/commfit", lib);
    mkdir(p, 0755);

    cf_error e;
    unsetenv(CF_MPI_ENV);
    /* The configured folders are elsewhere: only the relative layout can find it. */
    cf_error_clear(&e);
    char *got = cf_mpi_program_find(self, "/nonexistent/bin", "/nonexistent/libexec/commfit", &e);
    ok(got == NULL && e.code == CF_EXIT_DATA, "nothing installed: not found, exit 1");
    free(got);

    touch_exe(inlib);
    cf_error_clear(&e);
    got = cf_mpi_program_find(self, "/nonexistent/bin", "/nonexistent/libexec/commfit", &e);
    char want[600];
    snprintf(want, sizeof want, "%s/../libexec/commfit/commfit-mpi", bin);
    is_str(got, want, "found relative to the program, as bindir is to pkglibexecdir");
    free(got);

    touch_exe(nextto);
    cf_error_clear(&e);
    got = cf_mpi_program_find(self, "/nonexistent/bin", "/nonexistent/libexec/commfit", &e);
    is_str(got, nextto, "next to the program comes first (a build tree)");
    free(got);

    cf_error_clear(&e);
    got = cf_mpi_program_find(NULL, "/nonexistent/bin", p, &e);
    snprintf(want, sizeof want, "%s/commfit-mpi", p);
    is_str(got, want, "no program path: the configured pkglibexecdir");
    free(got);

    touch_exe(other);
    setenv(CF_MPI_ENV, other, 1);
    cf_error_clear(&e);
    got = cf_mpi_program_find(self, "/nonexistent/bin", "/nonexistent/libexec/commfit", &e);
    is_str(got, other, "COMMFIT_MPI overrides the search");
    free(got);
    setenv(CF_MPI_ENV, "/nonexistent/commfit-mpi", 1);
    cf_error_clear(&e);
    got = cf_mpi_program_find(self, "/nonexistent/bin", "/nonexistent/libexec/commfit", &e);
    ok(got == NULL && e.code == CF_EXIT_DATA, "COMMFIT_MPI missing: an error, no fallback");
    is_str(e.msg, "COMMFIT_MPI='/nonexistent/commfit-mpi': No such file or directory",
           "COMMFIT_MPI missing: the message");
    free(got);
    unsetenv(CF_MPI_ENV);

    unlink(other);
    unlink(nextto);
    unlink(inlib);
    rmdir(p);
    rmdir(lib);
    rmdir(bin);
    snprintf(p, sizeof p, "%s/p", dir);
    rmdir(p);
    rmdir(dir);
    return tap_done();
}
