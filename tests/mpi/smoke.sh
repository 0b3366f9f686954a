# The MPI toolchain and launcher work: a ring exchange at np=2 under $MPIEXEC.
# Prints the TAP of the MPI program itself.
set -eu
exec timeout 120 $MPIEXEC -n 2 "$top_builddir/tests/mpi/smoke"
