# predict at a block count beyond the measured ones widens its interval in blocks, as it does
# in size: the shipped derived-datatype sweep with its 1000-block rows held out, vector fitted
# on 1 to 100 blocks. Before, the interval at 1000 blocks was the regression's alone (the
# answer marked extrapolated in blocks): at 32000 B [14.1, 20.6] us for a measured 8.72, at
# 128000 B [16.7, 23.8] for 12.2, at 4192000 B [127, 180] for 192. The fit's backtest in
# blocks (refitted without 100 blocks, read there; and one and two counts further in) reads
# how far a count beyond misses, per doubling of b; the interval widens by it.
. "$top_srcdir/tests/setup.sh"

tab="$top_srcdir/data/ddt-vm-mpich402-np2.csv"
awk -F, '/^#/ || $1 == "pattern" || $5 != 1000' "$tab" >train.csv
"$COMMFIT" fit -q -i train.csv -o m.json
for m in 32000 128000 4192000; do
    truth=$(awk -F, -v m="$m" '!/^#/ && $4 == "vector" && $5 == 1000 && $3 == m { print $11 }' "$tab")
    run "$COMMFIT" predict -m m.json -p pingpong -n 2 -d vector --blocks 1000 -b "$m" -f csv
    expect_rc 0 "vector at 1000 blocks, $m B (10x the largest count fitted)"
    got=$(awk -F, 'NR == 2 { print $6, $7 }' "$T/out")
    check "vector at 1000 blocks, $m B: [lo, hi] of $got holds the measured $truth" \
        awk -v g="$got" -v t="$truth" 'BEGIN { split(g, v, " "); exit !(t > 0 && v[1] <= t && t <= v[2]) }'
done
check "the note says how far and from what it widened" \
    awk -F, 'NR == 2 && $0 ~ /interval widened x[0-9.]+: 3.3 doublings of blocks beyond the measured counts at [0-9.]+% each \(the fit.s backtest in blocks: refitted on the counts up to 10 and read at the count above, as were refits one and two counts further in\)/ { ok = 1 } END { exit !ok }' "$T/out"
check "the model file keeps the backtest in blocks of the datatype fit, above its counts only" \
    sh -c "tr -d ' \n' <m.json | grep -q '\"blocks_backtest\":{\"above\":{\"fitted_blocks\":10,\"n\":[0-9]*,\"refits\":3,\"extrap_err_per_doubling\":[0-9.e-]*},\"below\":null}'"
check "and a fit without a block term has none" \
    sh -c "test -s '$top_srcdir/models/imb2021_mpich402_1node_np2_all.json' && ! grep -q blocks_backtest '$top_srcdir/models/imb2021_mpich402_1node_np2_all.json'"

# Inside the measured counts nothing changes: at 100 blocks, no widening in blocks.
run "$COMMFIT" predict -m m.json -p pingpong -n 2 -d vector --blocks 100 -b 65200 -f csv
check "vector at 100 blocks (measured): not widened in blocks" \
    awk -F, 'NR == 2 && $11 == "" && $0 !~ /of blocks/ { ok = 1 } END { exit !ok }' "$T/out"

# Below the measured counts (1-block rows held out, 2 to 1000 fitted), from the backtest at
# that end; a model file from before the backtest (its field removed) still reads, and widens
# by the fit's leave-one-out error.
awk -F, '/^#/ || $1 == "pattern" || $5 != 1 || $4 == "contiguous"' "$tab" >train1.csv
"$COMMFIT" fit -q -i train1.csv -o m1.json
run "$COMMFIT" predict -m m1.json -p pingpong -n 2 -d pack_vector --blocks 1 -b 64K -f csv
expect_rc 0 "pack_vector at 1 block from 2 to 1000"
check "below the counts: widened by the backtest at that end" \
    awk -F, 'NR == 2 && $0 ~ /interval widened x[0-9.]+: 1 doubling of blocks below the measured counts at [0-9.]+% each \(the fit.s backtest in blocks: refitted on the counts from 3 and read at the count below/ { ok = 1 } END { exit !ok }' "$T/out"
# At 1 block a layout lies contiguous in memory and MPI sends it as the contiguous type: a
# vector fit from 2 blocks up answers there with the contiguous fit (before: 2.60 us in
# [1.88, 3.51] at 64 KiB for a measured 5.33, 35.3 in [25.5, 47.6] at 1 MiB for 68.2).
for dt in vector indexed; do
    for m in 64 65536 1048576; do
        truth=$(awk -F, -v m="$m" -v d=$dt '!/^#/ && $4 == d && $5 == 1 && $3 == m { print $11 }' "$tab")
        run "$COMMFIT" predict -m m1.json -p pingpong -n 2 -d $dt --blocks 1 -b "$m" -f csv
        expect_rc 0 "$dt at 1 block, $m B, fitted from 2 blocks up"
        got=$(awk -F, 'NR == 2 { print $5, $6, $7 }' "$T/out")
        check "$dt at 1 block, $m B: $got within 10% of the measured $truth, in the interval" \
            awk -v g="$got" -v t="$truth" 'BEGIN { split(g, v, " "); exit !(t > 0 && v[2] <= t && t <= v[3] && v[1] > 0.9 * t && v[1] < 1.1 * t) }'
    done
done
check "answered by the contiguous fit, and said so" \
    awk -F, 'NR == 2 && $10 ~ /^contiguous / && $0 ~ /one block lies contiguous in memory/ { ok = 1 } END { exit !ok }' "$T/out"
run "$COMMFIT" predict -m m1.json -p pingpong -n 2 -d pack_vector --blocks 1 -b 64K -f csv
check "a pack layout packs one block all the same: its own fit answers" \
    awk -F, 'NR == 2 && $10 ~ /^datatype/ && $0 !~ /contiguous in memory/ { ok = 1 } END { exit !ok }' "$T/out"
awk '/"blocks_backtest"/ { skip = 1 } skip && /^      "saturation"/ { skip = 0 } !skip' m.json >old.json
run "$COMMFIT" predict -m old.json -p pingpong -n 2 -d vector --blocks 1000 -b 32000 -f csv
expect_rc 0 "a model file without blocks_backtest"
check "without it: widened by the leave-one-out error, and said so" \
    awk -F, 'NR == 2 && $0 ~ /of blocks beyond the measured counts at [0-9.]+% each \(the fit.s leave-one-out error: no backtest in blocks\)/ { ok = 1 } END { exit !ok }' "$T/out"
# Beyond the measured sizes the size backtest's refits read past a breakpoint search that
# put a segment on one planned size measured a few bytes apart at each count (65520-65536 B):
# alpha 5380 us, beta -0.082 us/B, the miss at the cap, the interval of pack_vector at 1 MiB
# from a fit up to 512 KiB 1.7e6 wide (4 MiB: 1.7e18). A segment spans 3 planned sizes now.
awk -F, '/^#/ || $1 == "pattern" || $3 <= 524288' "$tab" >t512.csv
"$COMMFIT" fit -q -i t512.csv -o s512.json
run "$COMMFIT" predict -m s512.json -p pingpong -n 2 -d pack_vector --blocks 10 -b 1M,4M -f csv
check "pack_vector beyond 512 KiB: a bounded interval (hi/lo under 100 at 1 MiB, 1e4 at 4 MiB)" \
    awk -F, 'NR == 2 && $7 / $6 < 100 { a = 1 } NR == 3 && $7 / $6 < 1e4 { b = 1 } END { exit !(a && b) }' "$T/out"

# A backtest below the counts in a fit whose counts start at 1 (none is made there) is
# refused with its path, as any field out of its range.
sed '0,/"below": null/s//"below": {"fitted_blocks": 2, "n": 3, "refits": 1, "extrap_err_per_doubling": 0.1}/' m.json >below.json
dt=$(awk '/"datatype":/ { d = $2 } /"below": null/ { gsub(/[",]/, "", d); print d; exit }' m.json)
run "$COMMFIT" predict -m below.json -p pingpong -n 2 -d "$dt" --blocks 1000 -b 32000
expect_rc 1 "a backtest below counts that start at 1 ($dt)"
check "refused with its path" grep -q \
    'blocks_backtest.below: a fit whose block counts start at 1 has no backtest below them' "$T/err"
done_testing
