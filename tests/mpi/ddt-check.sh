# Derived-datatype transfers at np=2: every datatype round-trips correct data (the TAP
# of the MPI program itself, see tests/mpi/ddt-check.c).
set -eu
ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export ASAN_OPTIONS
exec timeout 300 $MPIEXEC -n 2 "$top_builddir/tests/mpi/ddt-check"
