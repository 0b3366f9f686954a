# A bcast tree timed a call at a time sends eagerly below 64 KiB: a sender's messages to its
# children leave at once, and np=2's one message cannot tell whether their bytes share the
# sender's link (SimGrid's network links, a card sending in turn, a shared-memory copy made
# by the sender: on this machine's MPICH and Open MPI 4 messages of 16 KiB at once took 3.8
# times one) or each goes alone (SimGrid's loopback). The estimate from np=2 is the geometric
# middle of the two readings and its interval holds both. Simulated figures of the shipped
# tables: SMPI's MPICH binomial bcast of 16 KiB at np 16 on sim-flat (one rank a node) took
# 18.4 us, the reading alone 10.8 (outside [7.9, 14.6] before); inside one node of
# sim-fatnodes, 4 KiB at np 4, 0.425, the reading alone 0.44 (its lower end 0.43 with the
# middle's margin alone). From 64 KiB each level waits for its transfers: one reading.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

"$COMMFIT" fit -q -i "$top_srcdir/data/sim-flat.csv" --np 2 -o flat.json
truth() {
    awk -F, -v p="$2" -v n="$3" -v b="$4" '!/^#/ && $1 == p && $2 == n && $3 == b { print $11 }' "$1"
}
t16=$(truth "$top_srcdir/data/sim-flat.csv" bcast 16 16384)
run "$COMMFIT" predict -m flat.json -p bcast -n 16 -b 16K -f csv
expect_rc 0 "sim-flat from np=2: bcast at np 16, 16 KiB"
check "the simulated $t16 us in the interval" \
    awk -F, -v t="$t16" 'NR == 2 { exit !($6 <= t && t <= $7) }' "$T/out"
check "the estimate within 10% of it" \
    awk -F, -v t="$t16" 'NR == 2 { exit !($5 > t / 1.1 && $5 < 1.1 * t) }' "$T/out"
check "the note gives both readings, alone 10.78 us and sharing" \
    awk -F, 'NR == 2 { exit $0 !~ /geometric middle of 10\.78 us, alone, and [0-9.]+ us, sharing, its interval holding both/ }' "$T/out"
check "the estimate their geometric middle, the interval holding each" \
    awk 'NR == 2 { match($0, /middle of [0-9.]+ us, alone, and [0-9.]+/); s = substr($0, RSTART, RLENGTH)
                   gsub(/[^0-9. ]/, "", s); split(s, r, " +"); a = r[2]; b = r[3]
                   split($0, f, ","); g = sqrt(a * b)
                   exit !(f[5] > 0.999 * g && f[5] < 1.001 * g && f[6] <= a && b <= f[7]) }' "$T/out"

# Inside one node: the reading alone holds (SimGrid's loopback), still in the interval.
"$COMMFIT" fit -q -i "$top_srcdir/data/sim-fatnodes.csv" --np 2 -o fat.json
t4=$(truth "$top_srcdir/data/sim-fatnodes.csv" bcast 4 4096)
run "$COMMFIT" predict -m fat.json -p bcast -n 4 -b 4K -f csv
expect_rc 0 "sim-fatnodes from np=2: bcast at np 4, 4 KiB"
check "the simulated $t4 us in the interval" \
    awk -F, -v t="$t4" 'NR == 2 { exit !($6 <= t && t <= $7) }' "$T/out"

# From 64 KiB (each level waited for) and at np 2 one reading: no such note.
run "$COMMFIT" predict -m flat.json -p bcast -n 16 -b 64K -f csv
expect_rc 0 "bcast at np 16, 64 KiB"
check "at 64 KiB the note has no two readings" \
    awk -F, 'NR == 2 { n = 1; bad = $0 ~ /alone, and/ } END { exit !n || bad }' "$T/out"
t64=$(truth "$top_srcdir/data/sim-flat.csv" bcast 16 65536)
check "at 64 KiB the estimate within 1% of the simulated $t64 us" \
    awk -F, -v t="$t64" 'NR == 2 { exit !($5 > t / 1.01 && $5 < 1.01 * t) }' "$T/out"
run "$COMMFIT" predict -m flat.json -p bcast -n 2 -b 16K -f csv
expect_rc 0 "bcast at np 2, 16 KiB"
check "at np 2 no two readings" awk -F, 'NR == 2 { n = 1; bad = $0 ~ /alone, and/ } END { exit !n || bad }' "$T/out"

# Open MPI's binomial tree, costed with its messages sharing the link: the same two readings
# (the steps' own the sharing one).
"$COMMFIT" fit -q -i "$top_srcdir/data/sim-flat-ompi.csv" --np 2 -o ompi.json
t16o=$(truth "$top_srcdir/data/sim-flat-ompi.csv" bcast 16 16384)
run "$COMMFIT" predict -m ompi.json -p bcast -n 16 -b 16K -f csv
expect_rc 0 "sim-flat-ompi from np=2: bcast at np 16, 16 KiB"
check "Open MPI's binomial tree there" awk -F, 'NR == 2 { exit $10 != "binomial tree" }' "$T/out"
check "the simulated $t16o us in the interval, the note with both readings" \
    awk -F, -v t="$t16o" 'NR == 2 { exit !($6 <= t && t <= $7 && $0 ~ /alone, and [0-9.]+ us, sharing/) }' "$T/out"
# Open MPI's 4-nomial and binomial trees (SMPI's ompi selector, eager below 64 KiB): their
# steps are the ranks' mean already, each rank after its own levels, and np=2's latency
# factor (its root leaving at once, x0.496 of the ping-pong's on sim-flat-ompi) recurs at
# each level; until stop 79 the reading once a call paid it once and added every level's
# full latency, and the estimate took the middle of the two: the 4-nomial bcast of 4 B at np
# 16 read 3.96 us for the simulated 3.05 (at each level 3.055). Now that reading pays the
# latency factor at each level and the bytes' once.
"$COMMFIT" fit -q -i "$top_srcdir/data/sim-flat-ompi.csv" --np 2 -o flat-ompi.json
for n in 16 32 64; do
    t=$(truth "$top_srcdir/data/sim-flat-ompi.csv" bcast $n 4)
    run "$COMMFIT" predict -m flat-ompi.json -p bcast -n $n -b 4 -f csv
    check "sim-flat-ompi from np=2, the 4-nomial bcast of 4 B at np $n: within 3% of the simulated $t us (+30% to +35% before), inside" \
        awk -F, -v t="$t" 'NR == 2 { exit !($5 > t / 1.03 && $5 < 1.03 * t && $6 <= t && t <= $7) }' "$T/out"
done
# Held out (tests/data/sim/bc-knomial-flat-ompi.csv: np 3, 5 to 7, 9, 12, 20, 24, 4 B to 64
# KiB, simulated at stop 79 after the change): the median error 17.3% -> 5.3% (2.1% with the
# binary tree's mean below). 6 of its 56 answers lay outside their intervals, np 3's (18 before
# the binary tree's mean); 1 since stop 80's chain replay (predict-bcast-skew.sh), np 3's
# binary tree of 64 KiB.
ho="$top_srcdir/tests/data/sim/bc-knomial-flat-ompi.csv"
"$COMMFIT" fit -q -i "$ho" --np 2 -o ho.json
pattern_answers ho.json "$ho" bcast '$2 > 2'
check "held-out Open MPI bcast from np=2: the median error within 8% of 56" median_within 0.08 56
# Open MPI's binary tree (4 B at np 5 to 7, its band's below 64 B) in the ranks' mean: each
# rank its depth in the heap in messages, not the tree's levels (2.04 us at each np before,
# for the simulated 2.43, 2.70, 2.89, all three outside).
pattern_answers ho.json "$ho" bcast '$3 == 4 && $2 >= 5 && $2 <= 7'
check "held-out binary tree bcast of 4 B at np 5, 6, 7: within 3%, inside" within 1.03 3
done_testing
