# Past the largest fitted np, a gather's and a scatter's answers carry that np's own answers by
# the estimate from np=2's growth from there, not the across-np formula's (stop 83). The
# formula is the catalog's binomial tree along the root's path (ceil(lg p) latencies, p - 1
# blocks) at every p; the estimate costs the tree in the ranks' mean the table times and runs
# the linear algorithm where Open MPI's rules do. Open MPI's gather of 70000 B on ethflat.xml
# runs linear to np 7 (227.5 us) and its binomial tree from np 8 (132.6): fitted at np 2 to 7,
# np 8 and 10 read 43% and 58% high before. gatherv keeps the formula's growth. And the
# estimate's note at an np past a larger measured one said it went through that np's times
# where it reads np=2's (data/sim-rooted: gather at np 32 "through gather's measured np=16
# times").
# tests/data/sim/rooted-ethflat-ompi.csv: commfit measure -q --simulate
# data/platforms/ethflat.xml --coll-selector ompi --patterns pingpong,gather,scatter,gatherv
# --sizes 16,5000,70000 --np 2,3,4,5,6,7,8,10 --reps 2 --samples 2; rooted-wide-mpich.csv: the
# same on wide.xml (nodes of 8 cores) under --coll-selector mpich, gather and scatter, np
# 2,3,4,5,6,7,10,12.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

t="$top_srcdir/tests/data/sim/rooted-ethflat-ompi.csv"
"$COMMFIT" fit -q -i "$t" --np 2,3,4,5,6,7 -o eth.json
pattern_answers eth.json "$t" gather '$2 >= 8'
expect_rc 0 "gather at np 8 and 10, fitted at np 2 to 7"
check "each simulated time inside its interval" inside truth "$T/out"
check "the median error within 25% (50% before)" median_within 0.25 6
check "70000 B within 1.25x at np 8 and 10 (1.43x and 1.58x high before)" \
    awk -F, 'NR == FNR { t[FNR] = $1; next } FNR > 1 && $3 == 70000 { k++; r = $5 / t[FNR - 1]
             if (r > 1.25 || r < 1 / 1.25) bad = 1 } END { exit bad || k != 2 }' truth "$T/out"
check "the note names the estimate's growth from np=7, the formula's reading held" \
    awk -F, 'NR > 1 && !/np=7.s answer at this size carried by the estimate from np=2.s growth/ { bad = 1 }
             NR > 1 && !/not the across-np formula.s, whose reading/ { bad = 1 } END { exit bad || NR != 7 }' "$T/out"
check "the np's note says so too" \
    grep -q "the fitted np=7's own answers, size by size, carried by the estimate from np=2's growth" "$T/out"
check "the source stays the across-np model" \
    awk -F, 'NR > 1 && $9 != "across-np" { bad = 1 } END { exit bad }' "$T/out"

run "$COMMFIT" predict -m eth.json -p gather -n 8 -b 70000 --model-alone -f csv
expect_rc 0 "--model-alone"
check "--model-alone: the formula alone, no growth of the estimate" \
    awk -F, 'NR == 2 { exit /growth/ }' "$T/out"

# report draws the across-np curve past np 7 as predict answers.
"$COMMFIT" predict -q -m eth.json -p gather -n 8,10 -b 70000 -f csv >want
run "$COMMFIT" report -q -i "$t" -m eth.json -o rep
expect_rc 0 "report of the table and the model"
check "its time-vs-np curve of 70000 B at np 8 and 10: predict's answers and intervals" \
    awk 'NR == FNR { if (FNR > 1) { split($0, f, ","); w[f[2]] = f[5] " " f[6] " " f[7] }; next }
         /^# \[[0-9]+\] 70000 B/ { in70 = 1 } in70 && /^# \[[0-9]+\] extrapolated/ { ex = 1 }
         ex && ($1 in w) && !seen[$1]++ { k++; split(w[$1], v, " ")
             for (i = 1; i <= 3; i++) if ($(i + 1) / v[i] > 1.0001 || $(i + 1) / v[i] < 0.9999) bad = 1 }
         END { exit bad || k != 2 }' want rep/np-gather.dat

pattern_answers eth.json "$t" gatherv '$2 >= 8'
expect_rc 0 "gatherv at np 8 and 10"
check "gatherv keeps the formula's growth" \
    awk -F, 'NR > 1 && /estimate from np=2.s growth/ { bad = 1 } END { exit bad || NR != 7 }' "$T/out"

# Past a node of 8 ranks the estimate's growth is read with the nodes np=2 never measured.
t="$top_srcdir/tests/data/sim/rooted-wide-mpich.csv"
"$COMMFIT" fit -q -i "$t" --np 2,3,4,5,6,7 -o wide.json
pattern_answers wide.json "$t" scatter '$2 >= 10'
expect_rc 0 "scatter at np 10 and 12 on nodes of 8, fitted at np 2 to 7"
check "each simulated time inside its interval" inside truth "$T/out"
check "the median error within 25% (32% before)" median_within 0.25 6

# The estimate's note names the np=2 times it reads through.
"$COMMFIT" fit -q -i "$top_srcdir/data/sim-rooted/flat.csv" -o flat.json
run "$COMMFIT" predict -m flat.json -p gather -n 32 -b 4096 -f csv
expect_rc 0 "gather at np 32 from np 2 and 16"
check "from the point-to-point estimate" awk -F, 'NR == 2 { exit $9 != "p2p-estimate" }' "$T/out"
check "its note: through np=2's times (np=16's before)" \
    awk -F, 'NR == 2 { exit !/through gather.s np=2 times: latency x/ || /measured np=16 times/ }' "$T/out"
done_testing
