# Fidelity: commfit's pingpong against a minimal hand-written ping-pong loop, same sizes,
# same repetitions, 5 samples each, alternating for ROUNDS rounds in ONE launch
# (bench/measure-ab: cf_measure_run, the code of 'commfit measure', beside the loop).
# Separate launches cannot be compared here: a launch on this machine lands in a fast or
# a slow state (0.2 or 0.65 us at 0 B) and stays there. Prints per size the median over
# rounds of the per-round ratio commfit / reference (target: within 1.03), and its range.
set -eu
ROUNDS=${ROUNDS:-31}
echo "fidelity: commfit pingpong / hand-written ping-pong, $ROUNDS alternating rounds in one launch"
$MPIEXEC -n 2 "$top_builddir/bench/measure-ab" pingpong "$ROUNDS" 5 0 1024 65536 1048576 4194304
