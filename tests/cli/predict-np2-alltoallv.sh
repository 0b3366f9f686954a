# SMPI's MPICH alltoallv from np=2. SimGrid's mpich selector runs alltoallv__bruck, Bruck's
# in name alone: the receives from rank + i and the sends to rank - i of 4 distances at a
# time, each round waited for, at every size, as its medium alltoall's rounds (MVAPICH2's
# scatter-dest). The first round's distances hold the rank itself, so np ranks take
# ceil(np / 4) rounds: on flat.xml, 4 B, 2.03, 4.05 and 6.08 us at np 3, 5 and 9, one, two
# and three of np=2's 2.03. Until stop 80 the rules named no alltoallv and the estimate read
# the catalog's pairwise exchange (3.91, 7.67 and 15.2 us there), 42 of these 42 answers
# outside their intervals; the rounds of the alltoall were counted ceil((np - 1) / 4), one at
# np 5. The simulated truths: tests/data/sim/a2av-flat-mpich.csv (commfit measure -q
# --simulate data/platforms/flat.xml --coll-selector mpich --patterns
# pingpong,alltoallv,... --sizes 4,100,1000,6000,20000,100000 --np 2,3,5,6,7,9,12 --reps 2
# --samples 2), fitted at np 2.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

t="$top_srcdir/tests/data/sim/a2av-flat-mpich.csv"
"$COMMFIT" fit -q -i "$t" --np 2 -o a2av.json
pattern_answers a2av.json "$t" alltoallv '$2 > 2'
expect_rc 0 "flat.xml from np=2: alltoallv at np 3 to 12"
check "the rounds named" \
    awk -F, 'NR > 1 { n++; bad += $10 != "isend/irecv in rounds of 4" } END { exit n != 36 || bad }' "$T/out"
check "each of the 36 simulated times inside its interval" within 10 36
pattern_answers a2av.json "$t" alltoallv '$2 > 2 && $3 < 1000'
check "below 1000 B within 7%: ceil(np / 4) rounds of np=2's message (5% low at np 9 and 12)" within 1.07 12
done_testing
