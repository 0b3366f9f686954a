# A reduce tree from np=2 across nodes: a rank whose subtree holds a message between two
# nodes waits for it before it sends on, where the others leave once their own part is sent.
# Until stop 65 the root alone was counted as waiting (1/np of the ranks): Open MPI's binary
# tree at np 16 on data/platforms/meshnodes.xml (nodes of 8, np=2 inside one) crosses into
# the second node below ranks 3 to 7, and those and their ancestors, 8 of 16, wait: its reduce
# of 4 B, 1.75 us simulated (data/sim-meshnodes-ompi.csv's own np 16 row), read 0.77.
# Fresh truths at np 6, 12 and 24: tests/data/sim/reduce-cross-meshnodes-ompi.csv (commfit
# measure -q --no-latency-probe --simulate data/platforms/meshnodes.xml --coll-selector ompi
# --patterns reduce --sizes 8,100,1000,3000 --np 6,12,24 --reps 2 --samples 2), np=2's rows of
# data/sim-meshnodes-ompi.csv fitted.
. "$top_srcdir/tests/setup.sh"

"$COMMFIT" fit -q -i "$top_srcdir/data/sim-meshnodes-ompi.csv" --np 2 -o m.json
run "$COMMFIT" predict -m m.json -p reduce -n 16 -b 4 -f csv
expect_rc 0 "meshnodes, Open MPI's reduce from np=2 at np 16"
check "reduce of 4 B at np 16: within 15% of the simulated 1.75 us" \
    awk -F, 'NR == 2 { n = 1; bad = !($5 > 1.7496 / 1.15 && $5 < 1.7496 * 1.15) } END { exit !n || bad }' \
    "$T/out"
check "the note counts half the ranks waiting on the crossing" \
    grep -q "over 1 step of the binary tree reaching ranks beyond np=2's rank 1 0.51 us, times the 50% of the ranks that wait on it" "$T/out"
sim "$top_srcdir/tests/data/sim/reduce-cross-meshnodes-ompi.csv" reduce m.json
check "np 6, 12 and 24, 8 B to 3000 B: every simulated time inside its interval" \
    inside truths "$T/out"
check "np 12 and 24: within x2.1 of the simulated times (x3.9 to x7.6 below before)" \
    awk -F, 'NR == FNR { t[FNR] = $1; next }
             FNR > 1 && ($2 == 12 || $2 == 24) { n++; q = t[FNR - 1] / $5; bad += q > 2.1 || q < 1 / 2.1 }
             END { exit n != 8 || bad }' truths "$T/out"
# A two-level algorithm's nodes' leaders alone cross: SMPI's mpich reduce on the torus (one
# rank a node) keeps the root alone, 2.71 us for the simulated 2.53.
"$COMMFIT" fit -q -i "$top_srcdir/data/sim-torus.csv" --np 2 -o t.json
run "$COMMFIT" predict -m t.json -p reduce -n 16 -b 4 -f csv
check "torus, MPICH's two-level binomial tree: the root alone waits (2.71 us)" \
    awk -F, 'NR == 2 { n = 1; bad = !($5 > 2.70 && $5 < 2.71) } END { exit !n || bad }' "$T/out"
check "torus: the note counts the root alone" \
    grep -qF "times the 6.25% of the ranks that wait on it" "$T/out"

done_testing
