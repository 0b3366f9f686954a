# A call that moves nothing (a reduction of 1 B: no float) may return at once or still hold
# its ranks together, by algorithm, which np=2's time cannot tell: SMPI's MPICH reduce of 1 B
# took 0.31 us at np=2 inside a node of sim-cloud (its shared-memory reduce) and 0.01 at np 16
# across nodes, where the estimate from np=2 read 2.34 in [0.52, inf]. From np=2 past np 2
# such a call's lower end is 0, and the note says why.
. "$top_srcdir/tests/setup.sh"

tab="$top_srcdir/data/sim-cloud.csv"
"$COMMFIT" fit -q -i "$tab" --np 2 -o m.json
t16=$(awk -F, '!/^#/ && $1 == "reduce" && $2 == 16 && $3 == 1 { print $11 }' "$tab")
run "$COMMFIT" predict -m m.json -p reduce -n 16 -b 1,4 -f csv
expect_rc 0 "sim-cloud from np=2: reduce of 1 and 4 B at np 16"
check "1 B: the simulated $t16 us in the interval, its lower end 0" \
    awk -F, -v t="$t16" 'NR == 2 { exit !($6 == 0 && ($7 == "inf" || t <= $7)) }' "$T/out"
check "1 B: the note says the call moves nothing" \
    awk 'NR == 2 { exit $0 !~ /moves nothing \(fewer bytes than one element\): a library may return at once/ }' "$T/out"
check "4 B (one float): a lower end above 0, no such note" \
    awk -F, 'NR == 3 { exit !($6 > 0 && $0 !~ /moves nothing/) }' "$T/out"
check "1 B at np 16: nothing added for tiers it never crosses (1.63 us were)" \
    awk 'NR == 2 { exit /the answer adds/ }' "$T/out"
# Inside one node (np 4 of sim-cloud's nodes of 4) the interval keeps its upper end.
t4=$(awk -F, '!/^#/ && $1 == "reduce" && $2 == 4 && $3 == 1 { print $11 }' "$tab")
run "$COMMFIT" predict -m m.json -p reduce -n 4 -b 1 -f csv
expect_rc 0 "reduce of 1 B at np 4"
check "1 B at np 4: the simulated $t4 us in [0, a finite upper end]" \
    awk -F, -v t="$t4" 'NR == 2 { exit !($6 == 0 && $7 != "inf" && t <= $7) }' "$T/out"
# Not a pattern of bytes: a bcast of 0 B keeps its lower end.
run "$COMMFIT" predict -m m.json -p bcast -n 4 -b 0 -f csv
expect_rc 0 "bcast of 0 B at np 4"
check "bcast of 0 B: a lower end above 0, no such note" \
    awk -F, 'NR == 2 { n = 1; bad = !($6 > 0 && $0 !~ /moves nothing/) } END { exit !n || bad }' "$T/out"
run "$COMMFIT" predict -m m.json -p reduce -n 2 -b 1 -f csv
check "at np 2 the measured no-op: a lower end above 0" awk -F, 'NR == 2 { exit !($6 > 0) }' "$T/out"
done_testing
