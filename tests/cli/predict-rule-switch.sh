# At a fitted np, between two measured sizes where the library's rules run another algorithm
# at one than at the size asked, the answer is read from the other alone (its chord within
# the algorithm's run carried on), not on the log-log line across the switch; the interval
# still holds the line's. SimGrid's mpich selection reduces by a binomial tree below 2 KiB and
# by scatter-gather from it: on flat.xml at np 32 the shipped table measured 2.14 us at 1 KiB
# and 12.2 at 4 KiB. The simulated truths (commfit measure --simulate data/platforms/flat.xml
# --coll-selector mpich --patterns reduce,alltoall --sizes 2000,3000,50000 --np 16,32) are
# exact: 1.827 us at 2000 B (read 4.96 on the line before), 12.05 at 3000 B (8.26), alltoall
# at np 16 of 50000 B 142.6.
. "$top_srcdir/tests/setup.sh"

T0=$top_srcdir/data/sim-flat.csv
"$COMMFIT" fit -q -i "$T0" -o flat.json
check "fitted sim-flat" test -s flat.json

run "$COMMFIT" predict -m flat.json -p reduce -n 32 -b 2000 -f csv
expect_rc 0 "reduce at np 32 of 2000 B"
row=$(sed -n 2p "$T/out")
check "2000 B: the answer within 25% of the simulated 1.827 us ($row)" \
    awk -F, 'NR == 2 { exit !($5 > 1.827 / 1.25 && $5 < 1.827 * 1.25) }' "$T/out"
check "2000 B: the interval holds the simulated 1.827 us" \
    awk -F, 'NR == 2 { exit !($6 <= 1.827 && 1.827 <= $7) }' "$T/out"
check "2000 B: the interval still holds the line across the switch (4.96 us)" \
    awk -F, 'NR == 2 { exit !($7 >= 4.96) }' "$T/out"
check "2000 B: the note names the switch and the side read" \
    grep -q "the library's rules switch from the two-level binomial tree to the two-level scatter-gather: read from 1 KiB on" "$T/out"
t256=$(grep -v '^#' "$T0" | awk -F, '$1 == "reduce" && $2 == 32 && $3 == 256 { print $11 }')
t1k=$(grep -v '^#' "$T0" | awk -F, '$1 == "reduce" && $2 == 32 && $3 == 1024 { print $11 }')
check "2000 B: 1 KiB's $t1k us carried on along the chord from 256 B's $t256" \
    awk -F, -v a="$t256" -v b="$t1k" 'NR == 2 { s = log(b / a) / log(4); s = s < 0 ? 0 : s > 1 ? 1 : s
        t = b * exp(s * log(2000 / 1024)); exit !($5 > t / 1.001 && $5 < t * 1.001 && $5 > b * 1.01) }' "$T/out"
check "2000 B: the source is the fit at np 32" \
    awk -F, 'NR == 2 { exit !($9 == "fit") }' "$T/out"

# 3000 B runs the scatter-gather, as at 4 KiB: read down from there.
run "$COMMFIT" predict -m flat.json -p reduce -n 32 -b 3000 -f csv
check "3000 B: the answer within 10% of the simulated 12.05 us ($(sed -n 2p "$T/out" | cut -d, -f5-7))" \
    awk -F, 'NR == 2 { exit !($5 > 12.05 / 1.1 && $5 < 12.05 * 1.1) }' "$T/out"
check "3000 B: the interval holds it" \
    awk -F, 'NR == 2 { exit !($6 <= 12.05 && 12.05 <= $7) }' "$T/out"
check "3000 B: read from 4 KiB on" grep -q "read from 4 KiB on" "$T/out"

# No answer between its measured sizes goes below the time at the smaller one where both
# run the same algorithm, nor above the larger one's: reduce at np 32 from 1 KiB to 4 KiB.
run "$COMMFIT" predict -m flat.json -p reduce -n 32 -b 1100,1400,1700,2000,2047,2048,2500,3000,3500,4000 -f csv
expect_rc 0 "reduce at np 32 from 1100 B to 4000 B"
check "1 to 4 KiB: 10 answers, each between 2.13 us (1 KiB) and 12.3 us (4 KiB)" \
    awk -F, 'NR > 1 { n++; if (!($5 >= 2.13 && $5 <= 12.3)) bad = 1 } END { exit bad || n != 10 }' "$T/out"

# Not across 64 KiB, where SimGrid's sends start to wait for their receiver: MPICH's
# alltoall runs pairwise from 32 KiB, at 50000 B as at 64 KiB, but the time carried down
# from 64 KiB read 229 us for the simulated 142.6; the line across answers as before.
run "$COMMFIT" predict -m flat.json -p alltoall -n 16 -b 50000 -f csv
check "alltoall at np 16 of 50000 B: no reading from one side" \
    sh -c "! grep -q 'rules switch' '$T/out'"
check "alltoall at np 16 of 50000 B: the interval holds the simulated 142.6 us" \
    awk -F, 'NR == 2 { exit !($6 <= 142.6 && 142.6 <= $7) }' "$T/out"

# One algorithm of whole messages on both sides of 64 KiB, where SimGrid's sends start to
# wait for their receiver: the size below reads from 16 KiB on, as a switch of protocol.
# MPICH's two-level allreduce and bcast at np 32 of 50000 B on flat.xml, simulated 47.55 and
# 60.51 us (the same command as above with --patterns allreduce,bcast --sizes 50000), read
# 69.72 and 68.01 on the line between 16 and 64 KiB before.
run "$COMMFIT" predict -m flat.json -p allreduce -n 32 -b 50000 -f csv
check "allreduce at np 32 of 50000 B: within 15% of the simulated 47.55 us ($(sed -n 2p "$T/out" | cut -d, -f5-7))" \
    awk -F, 'NR == 2 { exit !($5 > 47.55 / 1.15 && $5 < 47.55 * 1.15 && $6 <= 47.55 && 47.55 <= $7) }' "$T/out"
check "allreduce at np 32 of 50000 B: the note says why" \
    grep -q "SimGrid's sends start to wait for their receiver (64 KiB), and the two-level recursive doubling sends the whole message: read from 16 KiB on" "$T/out"
run "$COMMFIT" predict -m flat.json -p bcast -n 32 -b 50000 -f csv
check "bcast at np 32 of 50000 B: within 6% of the simulated 60.51 us ($(sed -n 2p "$T/out" | cut -d, -f5-7))" \
    awk -F, 'NR == 2 { exit !($5 > 60.51 / 1.06 && $5 < 60.51 * 1.06 && $6 <= 60.51 && 60.51 <= $7) }' "$T/out"
# Not where the run below holds no chord of the same algorithm: MPICH's allgather at np 32
# rings from 16 KiB (512 KiB in all) and doubles at 4 KiB; the model's slope, fitted through
# both protocols, read 1792 us at 45000 B on leaves.xml for 1351 simulated (1718 on the line).
run "$COMMFIT" predict -m flat.json -p allgather -n 32 -b 50000 -f csv
check "allgather at np 32 of 50000 B: the line (no reading from one side)" \
    sh -c "! grep -q 'start to wait' '$T/out'"

# At np 2 MPICH's switches between algorithms that are each one exchange there are names, no
# step in the times: SimGrid's allgather at np 2 of 200000 B on flat.xml (recursive doubling
# below 512 KiB in all, a ring from it), simulated 29.51 us (commfit measure --simulate
# data/platforms/flat.xml --coll-selector mpich --patterns allgather --sizes 200000 --np 2),
# read 44.6 from 64 KiB on, 30.6 on the line between 64 and 256 KiB.
run "$COMMFIT" predict -m flat.json -p allgather -n 2 -b 200000 -f csv
check "allgather at np 2 of 200000 B: no reading from one side" \
    sh -c "! grep -q 'rules switch' '$T/out'"
check "allgather at np 2 of 200000 B: within 10% of the simulated 29.51 us ($(sed -n 2p "$T/out" | cut -d, -f5-7))" \
    awk -F, 'NR == 2 { exit !($5 > 29.51 / 1.1 && $5 < 29.51 * 1.1) }' "$T/out"

# Real MPICH's and Open MPI's tables keep the line (their rules made present on ORFEO's Open
# MPI bcast, the reading was farther in 111 of 171 held-out sizes): IMB on one node (MPICH
# 4.0.2), allreduce and reduce at np 2 of 3000 B, between 2 and 4 KiB, where MPICH's rules
# switch to Rabenseifner's from 2 KiB.
"$COMMFIT" fit -q -i "$top_srcdir/data/imb2021_mpich402_1node_np2_all.csv" -o imb.json
for p in allreduce reduce; do
    run "$COMMFIT" predict -m imb.json -p $p -n 2 -b 3000 -f csv
    expect_rc 0 "IMB (real MPICH), $p at np 2 of 3000 B"
    check "IMB (real MPICH), $p at np 2 of 3000 B: an answer, not read from one side" \
        awk -F, 'NR == 2 { n++; if ($12 ~ /rules switch/) bad = 1 } END { exit bad || n != 1 }' "$T/out"
done

# Between two fitted np the across-np interval still holds the fitted np's answers on the
# line across the switch: fatnodes.xml fitted at np 2, 4, 8, 64, 128, reduce of 1500 B at
# np 16, simulated 0.2949 us (the same command with --patterns reduce --sizes 1500 --np 16),
# read in [0.331, 0.598] when it held np 8's 0.347 alone (0.276 simulated at np 8).
"$COMMFIT" fit -q -i "$top_srcdir/data/sim-fatnodes.csv" --np 2,4,8,64,128 -o fatnodes.json
run "$COMMFIT" predict -m fatnodes.json -p reduce -n 8,16 -b 1500 -f csv
check "fatnodes, reduce at np 8 of 1500 B: read from one side" grep -q "rules switch" "$T/out"
check "fatnodes, reduce at np 16 of 1500 B: the interval holds the simulated 0.2949 us ($(sed -n 3p "$T/out" | cut -d, -f5-7))" \
    awk -F, 'NR == 3 { exit !($6 <= 0.2949 && 0.2949 <= $7) }' "$T/out"

# A simulated table of collectives alone (no ping-pong at np 2, whose estimate keeps the
# rules in the model file otherwise): the rules of the pattern's across-np grid.
grep -v '^\(pingpong\|pingping\|sendrecv\|exchange\),' "$T0" >colls.csv
"$COMMFIT" fit -q -i colls.csv -o colls.json
run "$COMMFIT" predict -m colls.json -p reduce -n 32 -b 2000 -f csv
check "collectives alone: read from one side" grep -q "rules switch" "$T/out"

# A table whose library is not known (its mpi_library and coll_selector lines removed) has no
# rules: the line across, as before.
grep -v '^# \(mpi_library\|coll_selector\|simulated\|simgrid_version\):' "$T0" >norules.csv
"$COMMFIT" fit -q -i norules.csv -o norules.json
run "$COMMFIT" predict -m norules.json -p reduce -n 32 -b 2000 -f csv
check "without rules: no reading from one side" sh -c "! grep -q 'rules switch' '$T/out'"
check "without rules: the line across (above 4 us)" \
    awk -F, 'NR == 2 { exit !($5 > 4) }' "$T/out"

# Where the size runs an algorithm neither measured neighbour ran on its side of 64 KiB, the
# line answers and its interval also holds the across-np grid's reading: SimGrid's Open MPI
# reduce at np 16 of 40 and 48 KiB runs one binomial tree whose sends leave at once, 1 KiB
# segments at 16 KiB, waiting sends at 64 KiB. Simulated 7.685 and 8.565 us (data/sim-between,
# its command in its header); read 26.9 and 28.9 in [14.3, 50.6] and [15.3, 54.4] before.
T1=$top_srcdir/data/sim-flat-ompi.csv
"$COMMFIT" fit -q -i "$T1" -o flat-ompi.json
run "$COMMFIT" predict -m flat-ompi.json -p reduce -n 16 -b 24576,40960,49152 -f csv
expect_rc 0 "Open MPI's reduce at np 16 of 24, 40 and 48 KiB"
grep -v '^#' "$top_srcdir/data/sim-between/flat-ompi.csv" |
    awk -F, '$1 == "reduce" && $2 == 16 && ($3 == 40960 || $3 == 49152) { print $3, $11 }' >truth
check "the simulated times of 40 and 48 KiB" test "$(wc -l <truth)" -eq 2
t16k=$(grep -v '^#' "$T1" | awk -F, '$1 == "reduce" && $2 == 16 && $3 == 16384 { print $11 }')
t64k=$(grep -v '^#' "$T1" | awk -F, '$1 == "reduce" && $2 == 16 && $3 == 65536 { print $11 }')
while read -r m t; do
    check "$m B: the interval holds the simulated $t us ($(grep "^reduce,16,$m," "$T/out" | cut -d, -f5-7))" \
        awk -F, -v m="$m" -v t="$t" '$3 == m { ok = $6 <= t && t <= $7 } END { exit !ok }' "$T/out"
    check "$m B: the answer on the line, between 16 KiB's $t16k us and 64 KiB's $t64k" \
        awk -F, -v m="$m" -v a="$t16k" -v b="$t64k" '$3 == m { ok = $5 > a && $5 < b } END { exit !ok }' "$T/out"
    check "$m B: the note says the interval holds the grid's reading" \
        grep -q "^reduce,16,$m,.*no measured size of np=16 ran the binomial tree on this side of SimGrid's 64 KiB, which the rules run here: the interval also holds the across-np grid's reading of it, [0-9.]* us in \[" "$T/out"
done <truth
check "24 KiB, segmented as at 16 KiB: read from there, not the grid" \
    sh -c "grep '^reduce,16,24576,' '$T/out' | grep 'read from 16 KiB on' | grep -vq 'grid'"

# With --model-alone nothing is read from the measured points.
run "$COMMFIT" predict -m flat.json -p reduce -n 32 -b 2000 --model-alone -f csv
check "--model-alone: no reading from one side" sh -c "! grep -q 'rules switch' '$T/out'"
run "$COMMFIT" predict -m flat-ompi.json -p reduce -n 16 -b 40960 --model-alone -f csv
check "--model-alone: no grid's reading held" sh -c "! grep -q 'grid' '$T/out'"

done_testing
