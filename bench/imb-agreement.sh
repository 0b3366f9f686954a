# Agreement with IMB: commfit's own measurement of every sized pattern against a loop
# written by hand the way IMB 2021 times it (bench/imb-ref.c: barriers, per-call timing,
# root 0, IMB's buffers and byte counts), alternating ROUNDS times in ONE launch (separate
# launches on this machine land in a fast or a slow state). Prints per pattern and size the
# median over rounds of the per-round ratio commfit / IMB-method loop (target: within 1.05
# at 1 KiB, 64 KiB, 1 MiB and 4 MiB) and its range. Run it on a quiet machine: two busy-
# polling ranks on two cores are slowed by anything else that runs.
set -eu
ROUNDS=${ROUNDS:-21}
SAMPLES=${SAMPLES:-11}
SIZES=${SIZES:-1024 65536 1048576 4194304}
echo "IMB agreement: commfit / IMB-method loop, $ROUNDS alternating rounds in one launch"
# shellcheck disable=SC2086
$MPIEXEC -n 2 "$top_builddir/bench/measure-ab" patterns all "$ROUNDS" "$SAMPLES" $SIZES
# ATTRIBUTE=1: the same loops against commfit's named departures from IMB's method, one at
# a time and together (the method before IMB's was both): what each changes, per pattern.
if [ "${ATTRIBUTE:-0}" = 1 ]; then
    for f in "--root-shift" "--no-sync" "--no-sync --root-shift"; do
        echo "commfit $f / IMB-method loop, $ROUNDS alternating rounds in one launch"
        # shellcheck disable=SC2086
        MEASURE_AB_FLAGS="$f" $MPIEXEC -n 2 "$top_builddir/bench/measure-ab" patterns \
            bcast,scatter,scatterv,gather,gatherv,reduce,allreduce "$ROUNDS" "$SAMPLES" $SIZES
    done
fi
