# From np=2 alone, between two measured sizes of np=2's curve across which it steps (SimGrid
# sends eagerly up to 64 KiB: np=2's bcast takes 2.69 us at 16 KiB and 17.2 at 64 KiB), np=2's
# time at m is read on its curve log-log between the two, as if no step lay there, which puts
# it in the middle; np=2 tells only that it lies between the two sizes' times, and the
# interval holds that range. Until stop 63 the interval did not: MPICH's binomial bcast of
# 40 KiB at np 4 on SimGrid's flat cluster, 11.7 us simulated, read 23.9 in [15.4, 37.1]
# ([6.49, 51.5] now).
# The simulated truths are tests/data/sim/between-flat-mpich.csv (commfit measure
# --simulate data/platforms/flat.xml --coll-selector mpich --no-latency-probe --patterns
# bcast,allreduce,reduce,allgather,alltoall --sizes 24K,40K,48K --np 4,16 --reps 2
# --samples 2), off the sizes of data/sim-flat.csv, whose np=2 rows are fitted.
. "$top_srcdir/tests/setup.sh"

"$COMMFIT" fit -q -i "$top_srcdir/data/sim-flat.csv" --np 2 -o m.json
tab="$top_srcdir/tests/data/sim/between-flat-mpich.csv"
for p in bcast allreduce reduce allgather alltoall; do
    sim "$tab" "$p" m.json
    expect_rc 0 "$p from np=2 between its measured sizes"
    check "$p: every simulated time at 24 to 48 KiB, np 4 and 16, inside its interval" \
        inside truths "$T/out"
done
run "$COMMFIT" predict -m m.json -p bcast -n 4 -b 40K -f csv
check "bcast of 40 KiB at np 4: the note names the step and np=2's two times" \
    grep -q "np=2's curve steps between its measured 16 KiB and 64 KiB (2.694 and 17.23 us)" "$T/out"
check "bcast of 40 KiB at np 4: the simulated 11.7 us inside (lower end 15.4 before)" \
    awk -F, 'NR == 2 { n = 1; bad = !($6 <= 11.7 && 11.7 <= $7) } END { exit !n || bad }' "$T/out"
# At a measured size nothing lies between: no such note; nor where the curve does not step
# (4 to 16 KiB, whose slope, 0.61, is below the next pair's).
for b in 16K 64K 8K; do
    run "$COMMFIT" predict -m m.json -p bcast -n 4 -b "$b" -f csv
    check "bcast of $b at np 4: no step read" \
        awk 'NR == 2 { n = 1; bad = /curve steps/ } END { exit !n || bad }' "$T/out"
done
# np=2 itself answers from its own fit (whose interval between the sizes says a step may lie
# there): unchanged, no such note.
run "$COMMFIT" predict -m m.json -p bcast -n 2 -b 40K -f csv
check "bcast of 40 KiB at np 2: its own fit answers" \
        awk 'NR == 2 { n = 1; bad = /curve steps/ } END { exit !n || bad }' "$T/out"
# The rooted collectives too, the linear scatterv and gatherv read from the launch's fan
# probe (np=2's time there times the probe's ratio): Open MPI's and MPICH's linear scatterv of
# 40 KiB at np 16, 69.3 us simulated, read 127.2 in [73.9, 219.2] before. The truths:
# tests/data/sim/between-rooted-flat-mpich.csv (the command above with --patterns
# gather,gatherv,scatter,scatterv --np 16), np=2's rows of data/sim-rooted/flat.csv fitted.
"$COMMFIT" fit -q -i "$top_srcdir/data/sim-rooted/flat.csv" --np 2 -o r.json
tab="$top_srcdir/tests/data/sim/between-rooted-flat-mpich.csv"
for p in gather gatherv scatter scatterv; do
    sim "$tab" "$p" r.json
    check "$p: every simulated time at 24 to 48 KiB, np 16, inside its interval" \
        inside truths "$T/out"
done
run "$COMMFIT" predict -m r.json -p scatterv -n 16 -b 40K -f csv
check "scatterv of 40 KiB at np 16, from the fan probe: the note names the step" \
    awk 'NR == 2 { n = 1; bad = !(/fan probe/ && /curve steps between its measured 16 KiB and 64 KiB/) } END { exit !n || bad }' "$T/out"
done_testing
