# At an np between two fitted np and a size inside their sizes one of them did not measure,
# the across-np answer's interval holds the fitted np's own answers there, as it holds their measured times
# at a size both measured. SMPI's flat cluster with np 16 and every other size held out:
# simulated times are exact, so the coverage of the held-out truth may be asserted.
. "$top_srcdir/tests/setup.sh"

T0=$top_srcdir/data/sim-flat.csv
held=4,64,1024,16384,262144,2097152
awk -F, -v held="$held" 'BEGIN { n = split(held, h, ","); for (i = 1; i <= n; i++) H[h[i]] = 1 }
    /^#/ || /^pattern,/ { print; next } !($2 == 16 || ($3 in H)) { print }' "$T0" >train.csv
"$COMMFIT" fit -q train.csv -o m.json
check "fitted without np 16 and sizes $held" test -s m.json

# allreduce at np 16 and 16 KiB: between np 8 and 32, a size neither measured.
run "$COMMFIT" predict -m m.json -p allreduce -n 8,16,32 -b 16K -f csv
expect_rc 0 "allreduce at np 8, 16, 32 and 16 KiB"
t8=$(awk -F, 'NR == 2 { print $5 }' "$T/out")
t32=$(awk -F, 'NR == 4 { print $5 }' "$T/out")
lo=$(awk -F, 'NR == 3 { print $6 }' "$T/out")
hi=$(awk -F, 'NR == 3 { print $7 }' "$T/out")
truth=$(grep -v '^#' "$T0" | awk -F, '$1 == "allreduce" && $2 == 16 && $3 == 16384 { print $11 }')
check "np 16: the source is the across-np model" test "$(awk -F, 'NR == 3 { print $9 }' "$T/out")" = across-np
check "np 16: the interval [$lo, $hi] holds np 8's $t8 and np 32's $t32" \
    awk -v lo="$lo" -v hi="$hi" -v a="$t8" -v b="$t32" \
    'BEGIN { m = a < b ? a : b; M = a > b ? a : b; exit !(lo <= m / 1.05 * 1.00001 && hi >= M * 1.05 / 1.00001) }'
check "np 16: the simulated $truth us in [$lo, $hi] (it was not: [23.6, 27.6])" \
    awk -v lo="$lo" -v hi="$hi" -v t="$truth" 'BEGIN { exit !(lo <= t && t <= hi) }'
check "np 16: the note says so" \
    grep -q "the interval holds the fitted np=8's and np=32's own answers at this size" "$T/out"

# At a size both measured, nothing of it (their measured times bound it already).
run "$COMMFIT" predict -m m.json -p allreduce -n 16 -b 4K -f csv
check "np 16 at the measured 4 KiB: no such note" sh -c "! grep -q 'own answers at this size' '$T/out'"

# Every collective at np 16 and every size held out: 27 of 30 simulated times in the
# interval (21 before; 2 MiB, beyond the fitted sizes, is widened as the fits are there).
pts=$(echo "$held" | tr ',' '\n' | sed 's/^/16 /')
n=0
c=0
for p in bcast reduce allreduce allgather alltoall; do
    grep -v '^#' "$T0" | awk -F, -v p=$p -v held="$held" 'BEGIN { k = split(held, h, ","); for (i = 1; i <= k; i++) H[h[i]] = 1 }
        $1 == p && $2 == 16 && ($3 in H) { print 16, $3, $11 }' >truth.$p
    cut -d' ' -f1,2 truth.$p | "$COMMFIT" predict -q -m m.json -p $p --points - -f csv >pred.$p
    set -- $(tail -n +2 pred.$p | cut -d, -f6,7 | paste -d, - <(cut -d' ' -f3 truth.$p) |
        awk -F, '{ n++; if ($3 >= $1 && ($2 == "inf" || $3 <= $2)) c++ } END { print n, c }')
    n=$((n + $1))
    c=$((c + $2))
done
check "np 16 at the held-out sizes: $c of $n simulated times covered" test "$n" -eq 30 -a "$c" -ge 27

# Across a step between two measured sizes (SimGrid's sends wait for their receiver from
# 64 KiB: the cost per step from 16 KiB to 64 KiB grows faster than the bytes), the across-np
# reading's lower end holds the reading at the smaller size, with the same width: racks.xml
# and pods.xml fitted at all np, bcast of 20000 B at np 100 (data/sim-uneven), whose lower
# ends lay above the simulated 45.27 and 39.07 us (46.89 and 39.66), the log-log line between
# 16 and 64 KiB reading high (58.5 and 47.7, as before).
for pf in racks pods; do
    "$COMMFIT" fit -q -i "$top_srcdir/data/sim-$pf.csv" -o "$pf.json"
    t=$(awk -F, '!/^#/ && $1 == "bcast" && $2 == 100 && $3 == 20000 { print $11 }' \
        "$top_srcdir/data/sim-uneven/$pf.csv")
    printf '100 16384\n100 20000\n' >pts
    run "$COMMFIT" predict -m "$pf.json" -p bcast --points pts -f csv
    check "$pf, bcast at np 100, 20000 B: the interval holds the simulated $t us ($(sed -n 3p "$T/out" | cut -d, -f6,7))" \
        awk -F, -v t="$t" 'NR == 3 { exit !($6 <= t && t <= $7) }' "$T/out"
    check "$pf, bcast at np 100, 20000 B: the answer as on the line (16 KiB's and 64 KiB's)" \
        awk -F, 'NR == 2 { t = $5 } NR == 3 { exit !($5 > t) }' "$T/out"
    check "$pf, bcast at np 100, 20000 B: the note says why" \
        grep -q "the lower end holds the reading at 16 KiB" "$T/out"
done

# The same where the chord from 16 to 64 KiB is steeper than those on both sides of it,
# though no faster than the bytes (MPICH's two-level allreduce on racks.xml: x3.35 from 16 to
# 64 KiB at np 16, x1.93 and x2.32 around): allreduce of 40000 B at np 72, simulated 112.9 us
# (commfit measure --simulate data/platforms/racks.xml --patterns allreduce --sizes 40000
# --np 72), read 203.3 in [120.2, 251.1] before.
run "$COMMFIT" predict -m racks.json -p allreduce -n 72 -b 40000 -f csv
check "racks, allreduce at np 72, 40000 B: the interval holds the simulated 112.9 us ($(sed -n 2p "$T/out" | cut -d, -f6,7))" \
    awk -F, 'NR == 2 { exit !($6 <= 112.9 && 112.9 <= $7) }' "$T/out"
check "racks, allreduce at np 72, 40000 B: the note says why" \
    grep -q "the lower end holds the reading at 16 KiB" "$T/out"

# Between two fitted np whose own answers were read from the side of SimGrid's protocol
# switch at 64 KiB (the two-level recursive doubling sends whole messages on both sides), the
# grid's reading, on the line across it as theirs was, is carried by their ratio to the line:
# at np 72 of 40000 B 203.3 us before; at np 27, 40 and 100 of 20000 B (data/sim-uneven,
# simulated 27.25, 63.65 and 91.75) 30.30, 83.73 and 111.2 before, each as --model-alone
# read until stop 80. Since, the grid counts the nodes' leaders' recursive doubling in the
# ranks' mean (cf_fold_steps): carried 26.23, 72.82, 98.19 and 136.6, --model-alone 28.23,
# 78.18, 105.1 and 186.2; at np 27 the two are as near (within 4%).
grep -v '^#' "$top_srcdir/data/sim-uneven/racks.csv" |
    awk -F, '$1 == "allreduce" && $3 == 20000 && $2 != 12 { print $2, $3, $11 }' >truth
echo "72 40000 112.9" >>truth
check "racks, allreduce: four simulated times" test "$(wc -l <truth)" -eq 4
cut -d' ' -f1,2 truth >pts
"$COMMFIT" predict -m racks.json -p allreduce --points pts -f csv | tail -n +2 >carried
"$COMMFIT" predict -m racks.json -p allreduce --points pts --model-alone -f csv | tail -n +2 >alone
# truth, then the answer and interval, then --model-alone's answer (the fields before the note)
cut -d, -f5-7 carried | tr , ' ' >carried.t
cut -d, -f5 alone >alone.t
paste -d' ' truth carried.t alone.t >both
while read -r np m t a lo hi b; do
    check "racks, allreduce at np $np of $m B: $a us, below $b (--model-alone), nearer the simulated $t or within 4%" \
        awk -v a="$a" -v b="$b" -v t="$t" 'BEGIN { d = a - t; e = b - t; exit !((d * d < e * e || d * d <= (0.04 * t) ^ 2) && a < b) }'
    check "racks, allreduce at np $np of $m B: the interval [$lo, $hi] holds it" \
        awk -v lo="$lo" -v hi="$hi" -v t="$t" 'BEGIN { exit !(lo <= t && t <= hi) }'
done <both
check "racks, allreduce: each carried answer's note says so" \
    test "$(grep -c "answers at this size were read from the side of SimGrid's 64 KiB whose sends leave as here (the two-level recursive doubling): the grid's reading, on the line across it, carried by their ratio to the line, x0\.[0-9]*, the interval holding both" carried)" -eq 4
check "racks, allreduce: --model-alone does not carry" \
    sh -c "! grep -q 'carried by their ratio' alone"

# Nor surer below than the fitted np there: SimGrid's network factors dip between 1 and 4
# KiB (latency x1.95 below 1426 B, x1.61 from it), so the grid's reading between them reads
# MPICH's reduce and bcast high; the fits' own intervals there reach below. Every np of
# sim-flat fitted; np 24 of 2000 B simulated by
#   commfit measure -q --simulate data/platforms/flat.xml --coll-selector mpich
#     --patterns reduce,bcast --sizes 1024,2000,4096 --np 16,24,32 --reps 2 --samples 2
# reduce 1.807 us, bcast 5.498 (read 2.164 in [2.030, 5.207] and 7.755 in [5.552, 8.318]).
"$COMMFIT" fit -q "$T0" -o all.json
for case in "reduce 1.807" "bcast 5.498"; do
    set -- $case
    run "$COMMFIT" predict -m all.json -p "$1" -n 24 -b 2000 -f csv
    expect_rc 0 "$1 at np 24 of 2000 B"
    check "$1 at np 24 of 2000 B: the simulated $2 us inside the interval" \
        awk -F, -v t="$2" 'NR == 2 { exit !($6 <= t && t <= $7) }' "$T/out"
    check "$1 at np 24 of 2000 B: the note says its lower end reaches as far as the fitted np's" \
        grep -q "its lower end reaches as far below the answer as the fitted np=16's and np=32's reach below theirs" "$T/out"
done
# Nor past the largest fitted np: its fit's interval between its measured sizes reaches as
# far below. Every np of sim-flat-ompi fitted (to 64); np 80 simulated by
#   commfit measure -q --no-latency-probe --simulate data/platforms/flat.xml
#     --coll-selector ompi --patterns bcast,allreduce --sizes 2000,10000,50000 --np 80
#     --reps 2 --samples 2
# allreduce of 50000 and 10000 B 68.13 and 28.91 us, bcast of 2000 B 7.969 (read 111.5 in
# [101.7, inf], 32.26 in [30.02, inf] and 9.594 in [9.041, inf] before).
"$COMMFIT" fit -q "$top_srcdir/data/sim-flat-ompi.csv" -o fo.json
for case in "allreduce 50000 68.13" "allreduce 10000 28.91" "bcast 2000 7.969"; do
    set -- $case
    run "$COMMFIT" predict -m fo.json -p "$1" -n 80 -b "$2" -f csv
    expect_rc 0 "Open MPI's $1 at np 80 of $2 B"
    check "$1 at np 80 of $2 B: the simulated $3 us inside the interval" \
        awk -F, -v t="$3" 'NR == 2 { exit !($6 <= t && t <= $7) }' "$T/out"
    # (or, lower still, np=64's own lower end: past the probe's launch, since stop 85)
    check "$1 at np 80 of $2 B: the note says its lower end reaches as far as np=64's" \
        grep -q -e "its lower end reaches as far below the answer as the largest fitted np=64's reaches below its own, x0\.[0-9]*" \
        -e "its lower end at most the largest fitted np's: past the tier" "$T/out"
done
# At a size np=64 measured, no such reach: np 80 of 64 KiB as before.
run "$COMMFIT" predict -m fo.json -p allreduce -n 80 -b 64K -f csv
check "np 80 of 64 KiB, measured at np 64: no reach" sh -c '! grep -q "reaches below its own" "$1"' - "$T/out"
done_testing
