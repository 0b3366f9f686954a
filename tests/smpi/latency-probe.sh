# The latency probe at launch (rank_latency_us) in simulation, where its figures are exact:
# on the multi-core cluster ranks 1-7 share rank 0's node (the loopback, 0.2 us) and ranks
# 8-15 sit on the next node (its network card, 0.5 us a hop), so they answer later; on the
# flat cluster every rank is as far as every other; --no-latency-probe leaves it out.
. "$top_srcdir/tests/setup.sh"
if [ "${HAVE_SMPI:-no}" != yes ]; then
    echo "1..0 # SKIP commfit-smpi not built (no SimGrid: apt-get install libsimgrid-dev)"
    exit 0
fi
P="$top_srcdir/data/platforms"
# lat FILE: the probe's latencies, one a line.
lat() { sed -n 's/^# rank_latency_us: //p' "$1" | tr , '\n'; }

run "$COMMFIT" measure -q --simulate "$P/multicore.xml" --patterns pingpong,barrier --sizes 0 \
    --np 2,16 -o mc.csv
expect_rc 0 "multi-core cluster, 16 ranks on two nodes"
check "one latency for each rank 1-15" test "$(lat mc.csv | wc -l)" -eq 15
lat mc.csv >mc.lat
check "ranks 1-7 (rank 0's node) alike" test "$(sed -n 1,7p mc.lat | sort -u | wc -l)" -eq 1
check "ranks 8-15 (the next node) alike" test "$(sed -n 8,15p mc.lat | sort -u | wc -l)" -eq 1
inner=$(sed -n 1p mc.lat)
outer=$(sed -n 8p mc.lat)
check "the next node's ranks answer later ($outer us) than rank 0's node's ($inner us)" \
    awk -v a="$inner" -v b="$outer" 'BEGIN { exit !(a > 0 && b > 2 * a) }'
check "the node's: about the loopback's 0.2 us (0.2-0.6, got $inner)" \
    awk -v a="$inner" 'BEGIN { exit !(a >= 0.2 && a < 0.6) }'
check "simulated: no spread" grep -qx '# rank_latency_spread: 0' mc.csv
check "the method is recorded" grep -q '^# rank_latency_method: rank 0.s ping-pong of 8 bytes with each rank in turn, 2 untimed and 20 timed round trips; one-way = median round trip / 2' mc.csv

run "$COMMFIT" measure -q --simulate "$P/flat.xml" --patterns barrier --sizes 0 --np 2,8 -o flat.csv
expect_rc 0 "flat cluster, 8 ranks"
check "flat: every rank as far as every other" test "$(lat flat.csv | sort -u | wc -l)" -eq 1
check "flat: 7 latencies" test "$(lat flat.csv | wc -l)" -eq 7

run "$COMMFIT" measure -q --simulate "$P/flat.xml" --patterns barrier --sizes 0 --np 2,8 \
    --no-latency-probe -o none.csv
expect_rc 0 "--no-latency-probe"
check "no rank_latency keys" sh -c '! grep -q "^# rank_latency" none.csv'
grep -v '^# \(rank_latency\|date\|command\)' flat.csv >a
grep -v '^# \(date\|command\)' none.csv >b
check "and the table is otherwise the same" cmp -s a b

done_testing
