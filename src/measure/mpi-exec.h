/* The MPI half of commfit: commfit itself links no MPI library (so that predict, fit and
 * the rest start fast), and hands measure over to the program commfit-mpi by exec. */
#ifndef CF_MPI_EXEC_H
#define CF_MPI_EXEC_H

#include "base/error.h"

#define CF_MPI_PROGRAM "commfit-mpi"
#define CF_MPI_ENV "COMMFIT_MPI" /* overrides where commfit-mpi is looked for */

/* The relative path from folder `from` to folder `to`, both absolute ("/usr/bin" to
 * "/usr/libexec/commfit" is "../libexec/commfit"), malloc'd; NULL when either is not
 * absolute or memory runs out. */
char *cf_path_relative(const char *from, const char *to);

/* Finds commfit-mpi: $COMMFIT_MPI when set (and then only there), else next to self_exe
 * (a build tree), else where the installed layout puts it relative to self_exe (bindir to
 * pkglibexecdir: right under DESTDIR or a moved prefix too), else in pkglibexecdir.
 * self_exe may be NULL. Returns a malloc'd path, or NULL with e filled (exit 1). */
char *cf_mpi_program_find(const char *self_exe, const char *bindir, const char *pkglibexecdir,
                          cf_error *e);

/* Replaces this process by `prog SUB argv[1..argc-1]` (argv[0] is the subcommand), with
 * the same pid, environment and descriptors, so that under an MPI launcher the rank is
 * still the one the launcher started. Returns only on failure, with e filled. */
int cf_mpi_exec(const char *prog, int argc, char **argv, cf_error *e);

#endif
