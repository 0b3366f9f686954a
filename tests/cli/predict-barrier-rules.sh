# The barrier after each timed call is the library's whatever the pattern (stop 85). Past the
# fitted node the answer adds what the barrier's spread exits add; a gatherv or a scatterv
# has no rule set of its own, and the barrier replayed for it was MPICH's dissemination in
# an Open MPI table too, where Open MPI's recursive doubling leaves no such spread: SimGrid's
# fatnodes.xml (nodes of 16), Open MPI's scatterv of 100 B fitted at np 2-8 read 4.60 us at
# np 20 for the simulated 1.09 (3.54 of it the exits' spread), 10.11 at np 32 for 2.31. The
# model's barrier_wait_rules (the rules the fit replayed the barrier by) now name it.
# tests/data/sim/scatterv-fatnodes-ompi.csv: commfit measure -q --simulate
# data/platforms/fatnodes.xml --coll-selector ompi --patterns pingpong,scatterv
# --sizes 100,3000,30000 --np 2,3,4,5,6,7,8,20,32 --reps 2 --samples 2.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

t="$top_srcdir/tests/data/sim/scatterv-fatnodes-ompi.csv"
"$COMMFIT" fit -q -i "$t" --np 2,3,4,5,6,7,8 -o sf.json
check "the model names Open MPI's rules for the scatterv's barrier" \
    grep -q '"barrier_wait_rules": "smpi-ompi' sf.json

pattern_answers sf.json "$t" scatterv '$2 >= 20'
expect_rc 0 "scatterv at np 20 and 32, fitted at np 2 to 8 inside one node"
check "each simulated time inside its interval" inside truth "$T/out"
check "each within 1.5x (x1.8 to x4.4 high before)" within 1.5 6
check "no note of the dissemination barrier's spread" \
    sh -c '! grep -q "replayed over the latency probe (dissemination)" "$1"' sh "$T/out"

# --formula's constant holds the same barrier: 3.81 us at np 20 before (3.54 of it the
# dissemination's spread, 258% off predict's own answers), 0.278 now.
run "$COMMFIT" predict -m sf.json -p scatterv -n 20 --formula
expect_rc 0 "the formula at np 20"
check "its constant holds no dissemination spread" \
    awk '/^T\(m\) = / { k++; if (!($3 + 0 < 1.0)) bad = 1 } END { exit bad || k != 1 }' "$T/out"
check "the note says no barrier spread was added" \
    sh -c '! grep -q "the constant holds what the barrier after each timed call adds" "$1"' \
    sh "$T/err"
done_testing
