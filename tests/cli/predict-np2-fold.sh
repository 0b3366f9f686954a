# MPICH's recursive doubling allreduce from np=2 where np is no power of two. SMPI's mpich
# selector runs its two-level allreduce, on nodes of one rank recursive doubling among every
# rank: each even rank below 2 rem (rem = np less the power of two below it) sends its vector
# to the odd one above, which takes part in the steps among the power of two and sends the
# result back. Each rank times its own call, so the table's time is the ranks' mean: k + 1
# steps each, the rem ranks folded out one more (k + 1 + rem / np), where the estimate read
# the last rank's path (k + 2): SMPI's allreduce of 4 B on flat.xml at np 3 took 4.72 us,
# 2.33 of np=2's 2.03, read 5.79 in [5.13, 6.54] until stop 80. From np=2 on stop 80's
# held-out table (tests/data/sim/fold-flat-mpich.csv: commfit measure -q --simulate
# data/platforms/flat.xml --coll-selector mpich --patterns pingpong,allreduce,... --sizes
# 4,100,1000,6000,20000,100000 --np 2,3,5,6,7,9,12 --reps 2 --samples 2), 11 of its 36
# answers lay outside their intervals, 9% to 30% high; none now.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

t="$top_srcdir/tests/data/sim/fold-flat-mpich.csv"
"$COMMFIT" fit -q -i "$t" --np 2 -o fold.json
pattern_answers fold.json "$t" allreduce '$2 > 2'
expect_rc 0 "flat.xml from np=2: allreduce at np 3 to 12"
check "each of the 36 simulated times inside its interval, within 6%" within 1.06 36
check "the two-level recursive doubling named" \
    awk -F, 'NR > 1 { n++; bad += $10 != "two-level recursive doubling" } END { exit n != 36 || bad }' "$T/out"
pattern_answers fold.json "$t" allreduce '$2 == 3 && $3 == 4'
check "4 B at np 3: within 5% of 4.72 us (2 1/3 steps, not 3)" within 1.05 1
done_testing
