# Cost: the default sweep (every pattern, np=2 on a two-core machine) started plainly, as
# a user would: wall time of the whole command, and per rank the share of the time from
# MPI_Init to MPI_Finalize spent outside MPI calls (bench/mpi-time.so counts the time
# inside them, MPI_Pack and MPI_Unpack of the pack baseline among them; target under
# 5%). The time loggp_or's receiver spends spinning on MPI_Wtime, the delay that
# experiment is made of, is shown apart and is not the harness's.
set -eu
T=$(mktemp -d "${TMPDIR:-/tmp}/commfit-cost.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T"
t0=$(date +%s.%N)
LD_PRELOAD="$top_builddir/bench/mpi-time.so" "$COMMFIT" measure -q -o sweep.csv 2>err
t1=$(date +%s.%N)
rows=$(grep -c '^[a-z]' sweep.csv)
rows=$((rows - 1))
echo "cost: default sweep, $(grep '^# launch_np:' sweep.csv | sed 's/.*: //') ranks, $rows rows"
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "cost: wall time of commfit measure: %.1f s\n", b - a }'
grep '^mpi-time:' err | sort
grep -v '^mpi-time:' err || true
