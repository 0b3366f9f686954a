# The pair-exchange probe at launch (pair_exchange_us, pair_exchange_distance_us) in simulation, where its figures are
# deterministic and follow from the platform. On racks.xml (4 cores a node, 8 nodes a rack,
# ranks filling a node, then a rack) the levels cross, in turn:
#   2, 4  rank 0's node: the loopback (20 GB/s, one for each node's own flows);
#   8     two nodes: each node's 4 ranks send through its one card, 12.5 GB/s each way
#         shared by 4 flows: 3.125 GB/s a flow, 1 MiB in about 336 us;
#   16, 32  the same, 4 flows a card, between nodes farther apart in the rack (its switch
#         never limits): the same time as 8;
#   64    two racks: the 32 ranks of rack 0 exchange with the 32 of rack 1 through each
#         rack's one 200 Gb/s uplink (25 GB/s each way), 32 flows on it: 0.78 GB/s a flow,
#         a quarter of a card's share, so 4 times level 32's time (SMPI's latency and
#         bandwidth factors and the barrier's skew move it a few percent: 3.5 to 4.5).
# --no-latency-probe leaves it out; a launch of no power of two stops at the one below it.
. "$top_srcdir/tests/setup.sh"
if [ "${HAVE_SMPI:-no}" != yes ]; then
    echo "1..0 # SKIP commfit-smpi not built (no SimGrid: apt-get install libsimgrid-dev)"
    exit 0
fi
P="$top_srcdir/data/platforms"
# at FILE B: level B's time in FILE.
at() { sed -n 's/^# pair_exchange_us: //p' "$1" | tr , '\n' | sed -n "s/^$2://p"; }
levels() { sed -n 's/^# pair_exchange_us: //p' "$1" | tr , '\n' | cut -d: -f1 | paste -sd, -; }

run "$COMMFIT" measure -q --simulate "$P/racks.xml" --patterns allreduce --sizes 1K --np 2,4 \
    --launch-np 64 -o r64.csv
expect_rc 0 "racks, launched on 64 ranks (two racks)"
check "the size" grep -qx '# pair_exchange_bytes: 1048576' r64.csv
check "levels 2 to 64" test "$(levels r64.csv)" = 2,4,8,16,32,64
check "the method" grep -q '^# pair_exchange_method: ranks 0 to B-1 at once .*; the median of the timed$' r64.csv
t4=$(at r64.csv 4)
t8=$(at r64.csv 8)
t16=$(at r64.csv 16)
t32=$(at r64.csv 32)
t64=$(at r64.csv 64)
check "8, 16 and 32 ranks: 4 flows a card alike ($t8, $t16, $t32 us)" \
    test -n "$t8" -a "$t8" = "$t16" -a "$t16" = "$t32"
check "32 ranks: 1 MiB at a card's quarter, 336 us plus SMPI's factors (336-420, got $t32)" \
    awk -v t="$t32" 'BEGIN { exit !(t >= 336 && t <= 420) }'
check "8 ranks leave the node: slower than the loopback's 4 ($t4 us) by 3 times or more" \
    awk -v a="$t4" -v b="$t8" 'BEGIN { exit !(a > 0 && b >= 3 * a) }'
check "64 ranks cross the uplinks, 32 flows on each: 4 times 32 ranks' (3.5-4.5, got $t64 / $t32)" \
    awk -v a="$t32" -v b="$t64" 'BEGIN { exit !(b >= 3.5 * a && b <= 4.5 * a) }'

# Its distances (pair_exchange_distance_us): each level's ranks at once with the rank d away,
# d = 1, 2, ..., B/2. On racks.xml a distance costs what the tier it crosses costs, however
# many ranks send: its uplinks and cards are each rack's and each node's own.
# dist FILE B: level B's times, d = 1 up.
dist() { sed -n 's/^# pair_exchange_distance_us: //p' "$1" | tr ';' '\n' | sed -n "s/^$2://p"; }
check "distances: each level's times at d = 1 to B/2" \
    test "$(sed -n 's/^# pair_exchange_distance_us: //p' r64.csv | tr ';' '\n' | awk -F'[:,]' '{ printf "%s%d", (NR > 1 ? "," : ""), NF - 1 }')" = 1,2,3,4,5,6
check "each level's farthest is the level's own time" \
    sh -c 'for B in 2 4 8 16 32 64; do test "$(dist r64.csv $B | tr , "\n" | tail -n 1)" = "$(at r64.csv $B)" || exit 1; done'
check "racks: 64 ranks at distances 1 to 16 as 32 ranks at them (the tiers' own links)" \
    test "$(dist r64.csv 64 | cut -d, -f1-5)" = "$(dist r64.csv 32)"
check "the method" grep -q '^# pair_exchange_distance_method: B:t1,t2,t4,...: for each power of two B' r64.csv
# fatnodes.xml: 8 nodes of 16 cores on one switch whose backplane every node's traffic
# shares (50 GB/s; each node's card 25 GB/s). 32 ranks (two nodes) exchanging across nodes
# put 32 MiB on the backplane, 64 ranks (four nodes) at the same distance 16 put 64 MiB:
# twice the time, which the level of 32 alone never shows.
run "$COMMFIT" measure -q --simulate "$P/fatnodes.xml" --patterns barrier --sizes 0 --np 2 \
    --launch-np 64 -o f64.csv
expect_rc 0 "fatnodes, launched on 64 ranks (four nodes)"
f32=$(dist f64.csv 32 | cut -d, -f5)
f64=$(dist f64.csv 64 | cut -d, -f5)
check "fatnodes: distance 16 with 64 ranks sending twice as slow as with 32 (1.8-2.2, got $f64 / $f32)" \
    awk -v a="$f32" -v b="$f64" 'BEGIN { exit !(a > 0 && b >= 1.8 * a && b <= 2.2 * a) }'
check "and as slow as 64's own level (distance 32): the backplane, not the distance" \
    test "$f64" = "$(at f64.csv 64)"

run "$COMMFIT" measure -q --simulate "$P/racks.xml" --patterns allreduce --sizes 1K --np 2,4 \
    --launch-np 64 -o again.csv
expect_rc 0 "the same simulation again"
check "deterministic: the same figures" \
    test "$(grep '^# pair_exchange_us: ' again.csv)" = "$(grep '^# pair_exchange_us: ' r64.csv)"
check "the distances too" \
    test "$(grep '^# pair_exchange_distance_us: ' again.csv)" = "$(grep '^# pair_exchange_distance_us: ' r64.csv)"

# Launches of no power of two: the ranks past the last level wait, and nothing hangs.
run "$COMMFIT" measure -q --simulate "$P/racks.xml" --patterns barrier --sizes 0 --np 2 \
    --launch-np 6 -o r6.csv
expect_rc 0 "a launch of 6"
check "6: levels 2 and 4" test "$(levels r6.csv)" = 2,4
run "$COMMFIT" measure -q --simulate "$P/racks.xml" --patterns barrier --sizes 0 --np 2 \
    --launch-np 100 -o r100.csv
expect_rc 0 "a launch of 100"
check "100: levels 2 to 64" test "$(levels r100.csv)" = 2,4,8,16,32,64

run "$COMMFIT" measure -q --simulate "$P/racks.xml" --patterns allreduce --sizes 1K --np 2,4 \
    --launch-np 64 --no-latency-probe -o none.csv
expect_rc 0 "--no-latency-probe"
check "no pair_exchange keys" sh -c '! grep -q "^# pair_exchange" none.csv'
grep -v '^# \(rank_latency\|pair_exchange\|fan_\|date\|command\|end\|duration_s\)' r64.csv >a
grep -v '^# \(date\|command\|end\|duration_s\)' none.csv >b
check "and the table is otherwise the same" cmp -s a b

done_testing
