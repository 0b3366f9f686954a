# Between measured process counts: fitted at np 2, 4, 16 and 64 (a user who measures every
# fourth power of two), np 8 and 32 are read from the lines through their neighbours. Such
# a reading is as unsure per doubling from the nearest measured np as one beyond the
# largest, and its interval holds each neighbour's cost per step carried to np (a tier
# first crossed at the upper one, the fat tree's np 16, is not np 8's). Before, it kept the
# floor of one at a measured np: on the shipped simulated flat and fat-tree tables 88% of
# the answers at np 32 and 51% at np 8 lay inside their 95% intervals (Open MPI's Bruck
# alltoall of 64 B at np 32: 9.87 us in [9.40, 10.36] for the simulated 11.04).
. "$top_srcdir/tests/setup.sh"

D="$top_srcdir/data"
# covered TABLE NP: the share (%) of the table's points at NP inside the interval of the
# model fitted at np 2, 4, 16, 64 (fit.json), over every collective and size it holds.
covered() {
    n=0
    c=0
    for p in bcast reduce allreduce allgather alltoall; do
        sizes=$(awk -F, -v p="$p" -v q="$2" '!/^#/ && $1 == p && $2 == q { printf "%s%s", s, $3; s = "," }' "$1")
        [ -n "$sizes" ] || continue
        "$COMMFIT" predict -m fit.json -p "$p" -n "$2" -b "$sizes" -f csv >pred.csv 2>/dev/null || return 1
        awk -F, -v p="$p" -v q="$2" 'NR == FNR { if (!/^#/ && $1 == p && $2 == q) t[$3] = $11; next }
            FNR > 1 { n++; x = t[$3]; c += x >= $6 && ($7 == "inf" || x <= $7) }
            END { print n, c }' "$1" pred.csv >>cov.txt
    done
    awk '{ n += $1; c += $2 } END { printf "%.0f\n", n ? 100 * c / n : 0 }' cov.txt
    rm -f cov.txt
}
# At least MIN% (before: 97, 97, 96, 69, 93, 18, 64, 20 in this order). Open MPI's
# alltoall at np 8 on the fat tree keeps 11 misses: it runs faster than the linear alltoall
# Open MPI's rules name there (2.04 us at 4 B, below np 4's 2.54), which no reading of
# linear's cost per step holds. The Open MPI fat tree at np 32 held 95% until its table
# recorded its probes (stop 31): the barrier's replayed waits come off the fitted points
# and the grid's tree backtest reads 0.22 per doubling, so the binomial reduce of 4 B to
# 1 KiB at np 32, read from np 64 alone (1.68 us in [1.36, 2.09]), misses the simulated
# 2.15, 26% above np 64's 1.71: 49 of 55 inside.
while read -r t q min; do
    run "$COMMFIT" fit -q -i "$D/$t.csv" --np 2,4,16,64 -o fit.json
    expect_rc 0 "$t: fit at np 2, 4, 16, 64"
    got=$(covered "$D/$t.csv" "$q")
    check "$t at np $q: $got% of the simulated times inside their 95% intervals (>= $min%)" \
        test "${got:-0}" -ge "$min"
done <<'LIST'
sim-flat 32 95
sim-flat 8 95
sim-flat-ompi 32 95
sim-flat-ompi 8 85
sim-fattree 32 95
sim-fattree 8 85
sim-fattree-ompi 32 85
sim-fattree-ompi 8 75
LIST

# The reviewed case: Open MPI's Bruck alltoall of 64 B at np 32.
run "$COMMFIT" fit -q -i "$D/sim-flat-ompi.csv" --np 2,4,16,64 -o flat.json
run "$COMMFIT" predict -m flat.json -p alltoall -n 32 -b 64 -f csv
check "flat-ompi, alltoall of 64 B at np 32: the interval holds the simulated 11.04 us" \
    awk -F, 'NR == 2 { exit !($10 == "Bruck" && $6 <= 11.04 && $7 >= 11.04) }' "$T/out"
# A tier first crossed at the upper neighbour: the fat tree's allreduce of 1 MiB at np 8
# (simulated 315.85 us) runs at np 4's cost per step, which the lower end holds.
run "$COMMFIT" fit -q -i "$D/sim-fattree.csv" --np 2,4,16,64 -o tree.json
run "$COMMFIT" predict -m tree.json -p allreduce -n 8 -b 1M -f csv
check "fattree, allreduce of 1 MiB at np 8: the lower end at or below the simulated 315.85 us" \
    awk -F, 'NR == 2 { exit !($6 <= 315.85 && $7 >= 315.85) }' "$T/out"
# At a measured np nothing changes: the reading is the measured point's, within the floor
# (the piecewise fit's own interval: 7.9% either side since its degrees of freedom count its
# two breakpoints, under 6% before).
run "$COMMFIT" predict -m tree.json -p allreduce -n 16 -b 1M -f csv
check "fattree, allreduce of 1 MiB at the fitted np 16: within 10% either side" \
    awk -F, 'NR == 2 { exit !($7 / $5 < 1.10 && $5 / $6 < 1.10) }' "$T/out"
# A reading that runs off: the fat tree's reduce of 64 B at np 8 is a replay over the tiers
# (less the barrier's wait, 1.5094 us at np 4, 1.5096 at 16, 1.761 at 8: not monotone in p),
# and the line through np 4 and 16 read 827 us for the simulated 1.78; now held between
# their costs per step carried to np 8.
run "$COMMFIT" predict -m tree.json -p reduce -n 8 -b 64 -f csv
check "fattree, reduce of 64 B at np 8: within 40% of the simulated 1.78 us, inside the interval" \
    awk -F, 'NR == 2 { exit !($5 < 1.4 * 1.78 && $5 > 1.78 / 1.4 && $6 <= 1.78 && $7 >= 1.78) }' \
    "$T/out"
# Below the smallest np an algorithm ran at: fatnodes' ring allgather of 64 KiB ran at np 16
# (52.3 us, inside a node) and 64 (5990, four nodes); the line through them falls below 0 at
# np 8, whose answer read np 64's cost per step (665 us) for the simulated 24.4; np 16's.
run "$COMMFIT" fit -q -i "$D/sim-fatnodes.csv" --np 2,4,16,64 -o fat.json
run "$COMMFIT" predict -m fat.json -p allgather -n 8 -b 64K -f csv
check "fatnodes, allgather of 64 KiB at np 8: within 10% of the simulated 24.43 us" \
    awk -F, 'NR == 2 { exit !($10 == "ring" && $5 < 1.1 * 24.43 && $5 > 24.43 / 1.1) }' "$T/out"
# A tier first crossed at the upper neighbour, which the probes show: on the fat tree np 8
# reaches ranks 2.02 us from rank 0 as np 2 and 4 do, np 16 4.04 us (a second switch). np 8
# is read from np 2 and 4 alone, as beyond them: the ring allgather of 256 KiB, 463 us
# from the line through np 4 and 16 for the simulated 245.38, is now within 2%. Where np
# shares the upper neighbour's tier (the racks' np 8 reaches 2.02 us as np 16 does, np 4
# 0.41 inside a node), nothing changes and the note says nothing of it.
run "$COMMFIT" predict -m tree.json -p allgather -n 8 -b 256K -f csv
check "fattree, allgather of 256 KiB at np 8: within 2% of the simulated 245.38 us" \
    awk -F, 'NR == 2 { exit !($5 < 1.02 * 245.38 && $5 > 245.38 / 1.02 && $6 <= 245.38 &&
                              $7 >= 245.38) }' "$T/out"
check "fattree, allgather at np 8: the note says it was read from the fitted np below" \
    grep -q "read from the fitted np below np=8 alone, in its tier: its ranks reach 2.02 us from rank 0, where np=16's reach 4.04 us" "$T/out"
# Where the latency is alike and the pair exchange parts them (the islands' np 8 and 16 reach
# 9.08 us both; an exchange across the halves takes 793 and 1537 us), the note names that.
run "$COMMFIT" fit -q -i "$D/sim-islands.csv" --np 2,4,16,64 -o isl.json
run "$COMMFIT" predict -m isl.json -p bcast -n 8 -b 64K -f csv
check "islands, bcast at np 8: the note names the pair exchange that parts np 8 and 16" \
    grep -q "read from the fitted np below np=8 alone, in its tier: an exchange across the halves of its ranks takes 793 us, of np=16's 1.54e+03 us (pair-exchange probe at launch)" "$T/out"
run "$COMMFIT" fit -q -i "$D/sim-racks.csv" --np 2,4,16,64 -o racks.json
run "$COMMFIT" predict -m racks.json -p allgather -n 8 -b 256K -f csv
check "racks, allgather at np 8, in np 16's tier: not read from below alone" \
    sh -c "! grep -q 'read from the fitted np below' '$T/out'"
# Read from below alone, the interval still holds the time measured at the np below, as
# between any two measured np; and an algorithm whose messages are posted at once, measured
# at one np alone, is read with its latency once, its bytes those of p - 1 messages:
# Open MPI's linear alltoall of 4 B on the fat tree takes 2.03 us at np 4 and 2.04 at np 8,
# read from np 4's alone as steps of 7 against 3, 4.74 us in [2.89, 8.31] before; the
# interval still holds that reading.
run "$COMMFIT" fit -q -i "$D/sim-fattree-ompi.csv" --np 2,4,16,64 -o fto.json
t=$(awk -F, '!/^#/ && $1 == "alltoall" && $2 == 8 && $3 == 4 { print $11; exit }' "$D/sim-fattree-ompi.csv")
run "$COMMFIT" predict -m fto.json -p alltoall -n 8 -b 4 -f csv
check "fattree-ompi, alltoall of 4 B at np 8, read from below alone: the simulated $t us inside" \
    awk -F, -v t="$t" 'NR == 2 { exit !($6 <= t && t <= $7 && /read from the fitted np below np=8 alone/) }' "$T/out"
check "fattree-ompi, alltoall of 4 B at np 8: within 5% of the simulated $t us, the interval holding 4.74" \
    awk -F, -v t="$t" 'NR == 2 { e = ($5 - t) / t; exit !(e < 0.05 && e > -0.05 && $7 >= 4.73) }' "$T/out"
# Real data, one 128-core node: ORFEO's Open MPI reduce of 64 B takes 0.14 us at np 2, 0.27
# at 4, 0.69 at 8. Fitted at np 2, 8, 32, 64 and 256, np 4 is read from np 8's binary tree
# (np 2 ran another algorithm, np 32 and up a binomial one), 0.59 us, whose interval
# [0.39, 1.15] missed the measured 0.27; it holds the times measured at the np around it now.
awk -F, '/^#/ || $1 == "pattern" || $2 != 4' "$D/realnp/orfeo-epyc-reduce-ompi.csv" >orfeo.csv
run "$COMMFIT" fit -q -i orfeo.csv --np 2,8,32,64,256 -o orfeo.json
run "$COMMFIT" predict -m orfeo.json -p reduce -n 4 -b 64 -f csv
check "ORFEO reduce of 64 B at np 4: the interval holds the measured 0.27 us and np 2's 0.14" \
    awk -F, 'NR == 2 { exit !($6 <= 0.14 && $7 >= 0.27) }' "$T/out"
# The same where the across-np formula answers (no library rules: GKE's OSU allreduce, Open
# MPI of no version named): fitted at np 1792, 7168 and 14336, 16 B at np 3584 read 2302 us
# in [1388, 4549] for the 1102 measured (the median of 3 runs, between np 1792's 773 and np
# 7168's 5021); the interval holds the fitted np's own answers around it now.
run "$COMMFIT" fit -q -i "$D/realnp/gke-cpu-ompi.csv" --np 1792,7168,14336 -o gke.json
run "$COMMFIT" predict -m gke.json -p allreduce -n 3584 -b 16 -f csv
check "GKE allreduce of 16 B at np 3584: the interval holds the measured 1101.85 us" \
    awk -F, 'NR == 2 { exit !($6 <= 1101.85 && $7 >= 1101.85) }' "$T/out"
done_testing
