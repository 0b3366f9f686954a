# SMPI's MPICH reduce_scatter from np=2. SimGrid's mpich selector runs recursive doubling
# (reduce_scatter__mpich_rdb) to 524288 floats in all, commutative or not: at the step of
# distance 2^j each rank exchanges the np - 2^j blocks outside its aligned subtree, and where
# np is no power of two the ranks whose partner is missing get theirs down a halving from
# the subtree's others. Until stop 80 the rules named no reduce_scatter and the estimate read
# the catalog's recursive halving ((np - 1) blocks in all): on flat.xml 30 of these 36
# answers outside their intervals, median error 39%, 100000 B at np 5 read 78.2 us for the
# simulated 205.0. The simulated truths: tests/data/sim/rs-flat-mpich.csv (commfit measure
# -q --simulate data/platforms/flat.xml --coll-selector mpich --patterns
# pingpong,reduce_scatter,... --sizes 4,100,1000,6000,20000,100000 --np 2,3,5,6,7,9,12
# --reps 2 --samples 2), fitted at np 2.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

t="$top_srcdir/tests/data/sim/rs-flat-mpich.csv"
"$COMMFIT" fit -q -i "$t" --np 2 -o rs.json
pattern_answers rs.json "$t" reduce_scatter '$2 > 2'
expect_rc 0 "flat.xml from np=2: reduce_scatter at np 3 to 12"
check "recursive doubling named" \
    awk -F, 'NR > 1 { n++; bad += $10 != "recursive doubling" } END { exit n != 36 || bad }' "$T/out"
check "the median error within 10% (39% before)" median_within 0.10 36
check "at least 28 of the 36 simulated times inside their intervals (6 before)" \
    inside_at_least 28
pattern_answers rs.json "$t" reduce_scatter '$2 == 5 && $3 == 100000'
check "100000 B at np 5 within 15% of the simulated 205.0 us (the halving's havenots)" within 1.15 1
done_testing
