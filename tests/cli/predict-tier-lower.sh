# Past a tier no fitted np reached, the lower end of an across-np answer is at most the
# largest fitted np's own (stop 85). The time may grow less with np past the tier than
# within the fitted reach: on SimGrid's fat tree (a rank a node, 8 nodes a switch), MPICH's
# gatherv of 100000 B and more waits for the root's link, 21.3 us more a rank at np 2 to 8
# (250000 B), and the fit's "linear with every rank waiting" is exact there; at np 16 and
# 32, across two and four switches, the farther ranks' slower route holds their flows back,
# the nearer ones take more of the root's link and leave sooner, and the ranks' mean grows
# less (293.5 us at np 16 for 250000 B). The answer read 331.3 in [330.4, inf]: all six
# answers of 100000 B to 600000 B at np 16 and 32 below their lower ends.
# tests/data/sim/rootedv-fattree-mpich.csv: commfit measure -q --simulate
# data/platforms/fattree.xml --coll-selector mpich --patterns pingpong,gatherv
# --sizes 100,3000,30000,100000,250000,600000 --np 2,3,4,5,6,7,8,16,32 --reps 2 --samples 2.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

t="$top_srcdir/tests/data/sim/rootedv-fattree-mpich.csv"
"$COMMFIT" fit -q -i "$t" --np 2,3,4,5,6,7,8 -o ft.json

pattern_answers ft.json "$t" gatherv '$2 >= 16'
expect_rc 0 "gatherv at np 16 and 32, fitted at np 2 to 8"
check "12 answers, each past a farther tier (np+nodes+tier), with no upper bound" \
    awk -F, 'NR > 1 { k++; if ($7 != "inf" || $11 != "np+nodes+tier") bad = 1 }
             END { exit bad || k != 12 }' "$T/out"
check "each simulated time inside its interval (6 of 12 before)" inside truth "$T/out"
check "the waited-for sizes' lower ends at np 16 and 32 the largest fitted np's own" \
    awk -F, 'NR > 1 && $3 >= 100000 { k++; lo[$3] = lo[$3] == "" ? $6 : lo[$3]
                                       if ($6 != lo[$3] || $6 >= $5 / 1.5) bad = 1 }
             END { exit bad || k != 6 }' "$T/out"
check "the note says so" \
    grep -q "its lower end at most the largest fitted np's: past the tier the time may grow less" \
    "$T/out"

# The answers themselves are the fit's: np 8's own answer is its lower end's source.
run "$COMMFIT" predict -m ft.json -p gatherv -n 8 -b 250000 -f csv
expect_rc 0 "gatherv at the largest fitted np"
check "np 8 of 250000 B within 2% of the simulated 160.49 us, bounded" \
    awk -F, 'NR == 2 { exit !($5 > 160.49 / 1.02 && $5 < 160.49 * 1.02 && $7 != "inf") }' \
    "$T/out"
done_testing
