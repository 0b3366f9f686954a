# SMPI's Open MPI reduce_scatter from np=2. Open MPI 4.1's fixed rules (SimGrid's ompi
# selector carries them) decide on the whole vector, the np blocks: the ring below 64 KiB at
# np 2 and 3, the butterfly to 128 KiB; recursive halving below 256 KiB at np 4 to 31, the
# ring beyond. Where np is no power of two the halving (and the butterfly) first folds each
# even rank's whole vector into the odd one above, the rest halving it among a power of two.
# Until stop 81 the rules named no reduce_scatter and the estimate read the catalog's
# cheapest, the halving without the fold: on ethflat.xml 11 of these 55 answers outside
# their intervals, median error 11%, 30000 B blocks at np 5 read 91.1 us for the simulated
# 188.2. The simulated truths: tests/data/sim/rs-ethflat-ompi.csv (commfit measure -q
# --simulate data/platforms/ethflat.xml --coll-selector ompi --patterns
# pingpong,reduce_scatter --sizes 8,500,3000,30000,200000 --np 2,3,4,5,6,7,8,10,11,13,16,24
# --reps 2 --samples 2), fitted at np 2.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

t="$top_srcdir/tests/data/sim/rs-ethflat-ompi.csv"
"$COMMFIT" fit -q -i "$t" --np 2 -o rs.json
pattern_answers rs.json "$t" reduce_scatter '$2 > 2'
expect_rc 0 "ethflat.xml from np=2: reduce_scatter at np 3 to 24"
check "the median error within 7% (11% before)" median_within 0.07 55
check "every simulated time inside its interval (44 of 55 before)" \
    inside truth "$T/out"
pattern_answers rs.json "$t" reduce_scatter '($2 == 5 || $2 == 7) && $3 == 30000'
check "30000 B at np 5 and 7 within 15%, the fold of the whole vector in (-52%, -46% before)" \
    within 1.15 2
check "named recursive halving" awk -F, 'NR > 1 && $10 != "recursive halving" { exit 1 }' "$T/out"
pattern_answers rs.json "$t" reduce_scatter '$2 == 3'
check "np 3: the ring but 30000 B's butterfly (90000 B in all)" \
    awk -F, 'NR > 1 { n++; bad += $10 != ($3 == 30000 ? "butterfly" : "ring") } END { exit n != 5 || bad }' \
    "$T/out"
pattern_answers rs.json "$t" reduce_scatter '$2 == 3 && $3 == 30000'
check "30000 B at np 3 within 10% (-50% before, read as the ring)" within 1.10 1
done_testing
