# Open MPI's linear gather from np=2 across nodes of one rank each (SMPI's ompi selector on
# fattree.xml). Its rules run a linear gather at np 4 to 7 from 32 KiB: the root receives from
# rank 1, then rank 2, ..., through its one link, and where np=2's sender waited for the root
# (a rendezvous, from 64 KiB in SimGrid) sender i leaves once its block is in, i - 1 blocks
# after the start and its own. Until stop 81 the estimate read the binomial tree: 70000 to
# 300000 B at np 5 to 7, 29% to 36% low, each outside its interval. The simulated truths:
# tests/data/sim/gather-fattree-ompi.csv (commfit measure -q --simulate
# data/platforms/fattree.xml --coll-selector ompi --patterns pingpong,gather --sizes
# 500,2000,5000,40000,70000,150000,300000 --np 2,3,4,5,6,7,8,9,12 --reps 2 --samples 2),
# fitted at np 2.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

t="$top_srcdir/tests/data/sim/gather-fattree-ompi.csv"
"$COMMFIT" fit -q -i "$t" --np 2 -o g.json
pattern_answers g.json "$t" gather '$2 >= 5 && $2 <= 7 && $3 >= 70000'
expect_rc 0 "fattree.xml from np=2: gather of 70000 to 300000 B at np 5 to 7"
check "within 8% of the simulated times, inside their intervals (9 outside before)" within 1.08 9
check "named the linear gather" awk -F, 'NR > 1 && $10 !~ /^linear/ { exit 1 }' "$T/out"
check "the note says the root's link takes the blocks in turn" grep -q "takes the blocks in turn" "$T/out"
pattern_answers g.json "$t" gather '$2 >= 5 && $2 <= 7 && $3 == 40000'
check "40000 B, eager (np=2's sender left at once): not in turn" \
    awk -F, 'NR > 1 && $12 ~ /in turn/ { exit 1 }' "$T/out"
pattern_answers g.json "$t" gather '$2 > 2'
check "at most 1 of the 56 simulated times outside its interval (10 before)" \
    inside_at_least 55
done_testing
