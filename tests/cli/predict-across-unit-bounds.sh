# Across np, what the grid cannot tell from the measured np and sizes is held in the
# interval (stop 82).
# 1. The unit between two measured sizes: on ethflat.xml np=2's allgatherv took 6.5 us at
#    3000 B and 14.7 at 12000 (SimGrid's default factors step at 9376 B). Fitted at np 2 to 7,
#    Bruck's 3000 B at np 9 to 13 steps through 6000 to 24000 B, which the grid read on the
#    unit's log-log line: 24% to 33% low, outside every interval before. The readings with
#    the unit at the lower and at the higher neighbour between the sizes are held now.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

t="$top_srcdir/tests/data/sim/agv-ethflat-mpich.csv"
"$COMMFIT" fit -q -i "$t" --np 2,3,4,5,6,7 -o agv.json
pattern_answers agv.json "$t" allgatherv '$2 >= 9 && $2 <= 13 && $3 == 3000'
expect_rc 0 "allgatherv of 3000 B at np 9 to 13, fitted at np 2 to 7"
check "each simulated time inside its interval (none of 4 before)" inside truth "$T/out"
check "the estimate as before (24% to 33% low): within 1.5x" within 1.5 4

done_testing
