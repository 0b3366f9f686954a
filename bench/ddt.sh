# Derived datatypes at 1 MiB: how the time of vector and indexed grows from 1 to 1000
# blocks, and commfit measure's harness against a hand-written datatype ping-pong on the
# same layouts, alternating ROUNDS times in one launch (bench/measure-ab ddt; separate
# launches land in a fast or a slow state on this machine and cannot be compared).
# Environment: ROUNDS (11), BLOCKS (1,2,5,10,100,1000), REPS (100), SAMPLES (5).
set -eu
ROUNDS=${ROUNDS:-11}
BLOCKS=${BLOCKS:-1,2,5,10,100,1000}
REPS=${REPS:-100}
SAMPLES=${SAMPLES:-5}
echo "1 MiB payload, $ROUNDS alternating rounds in one launch of $SAMPLES samples x $REPS round trips;"
echo "medians over the rounds (us per call, half a round trip)"
$MPIEXEC -n 2 "$top_builddir/bench/measure-ab" ddt "$ROUNDS" "$SAMPLES" "$REPS" 1048576 "$BLOCKS" |
    awk '$1 == "vector" || $1 == "indexed" { if ($2 == 1) base[$1] = $6
             printf "%s   t/t(1) %.2f\n", $0, (base[$1] > 0 ? $6 / base[$1] : 0); next }
         { print }'
