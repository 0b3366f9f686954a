# The MPI toolchain and launcher work: a ring exchange at np=2 under $MPIEXEC.
# Prints the TAP of the MPI program itself. Leak checking is off for MPI processes:
# the MPI library's transports leak from plugins it has already unloaded, which
# LeakSanitizer cannot name or suppress (commfit's own code is leak-checked in the
# tests that run without MPI, and under valgrind).
set -eu
ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export ASAN_OPTIONS
exec timeout 120 $MPIEXEC -n 2 "$top_builddir/tests/mpi/smoke"
