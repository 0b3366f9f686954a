# The latency probe at launch (rank_latency_us) in simulation, where its figures are exact:
# on the multi-core cluster ranks 1-7 share rank 0's node (the loopback, 0.2 us) and ranks
# 8-15 sit on the next node (its network card, 0.5 us a hop), so they answer later; on the
# flat cluster every rank is as far as every other; --no-latency-probe leaves it out (and
# the pair-exchange probe: tests/smpi/pair-probe.sh).
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

# The sized probe (rank_latency_sized_us): the same ranks at each power of 2 from 256 B to
# 256 KiB. SMPI's latency
# factors grow with the size (2.01 at 8 B, 11.64 from 64 KiB on), so the next node's ranks
# lie farther at 64 KiB than at 8 B, by more than their bandwidth: a message's tier is known
# at its size.
sized() { sed -n 's/^# rank_latency_sized_us: //p' "$1" | tr ';' '\n' | sed -n "/^$2:/s/^$2://p" | tr , '\n'; }
check "sized: eleven sizes, 15 latencies each" \
    sh -c 'test "$(sed -n "s/^# rank_latency_sized_us: //p" mc.csv | tr ";" "\n" | grep -c "^[0-9]*:\([^,]*,\)\{14\}[^,]*$")" -eq 11'
s8=$(sized mc.csv 65536 | sed -n 8p)
s1=$(sized mc.csv 65536 | sed -n 1p)
check "sized: at 64 KiB the next node lies over 5x farther than at 8 B ($s1, $s8 us)" \
    awk -v a="$inner" -v b="$outer" -v c="$s1" -v d="$s8" 'BEGIN { exit !(d - c > 5 * (b - a)) }'

run "$COMMFIT" measure -q --simulate "$P/flat.xml" --patterns barrier --sizes 0 --np 2,8 -o flat.csv
expect_rc 0 "flat cluster, 8 ranks"
check "flat: every rank as far as every other" test "$(lat flat.csv | sort -u | wc -l)" -eq 1
check "flat: 7 latencies" test "$(lat flat.csv | wc -l)" -eq 7

run "$COMMFIT" measure -q --simulate "$P/flat.xml" --patterns barrier --sizes 0 --np 2,8 \
    --no-latency-probe -o none.csv
expect_rc 0 "--no-latency-probe"
check "no rank_latency keys" sh -c '! grep -q "^# rank_latency" none.csv'
grep -v '^# \(rank_latency\|pair_exchange\|fan_\|date\|command\|end\|duration_s\)' flat.csv >a
grep -v '^# \(date\|command\|end\|duration_s\)' none.csv >b
check "and the table is otherwise the same" cmp -s a b

# --launch-np: more ranks than any --np measures, there for the probe: it reaches them, the
# rows are those of --np, and a prediction within the launch knows how far its ranks are.
run "$COMMFIT" measure -q --simulate "$P/racks.xml" --patterns pingpong,allreduce --sizes 4,1K,64K \
    --np 2,4,8,16,32 --launch-np 64 -o wide.csv
expect_rc 0 "--launch-np 64 with --np up to 32"
check "launched 64" grep -qx '# launch_np: 64' wide.csv
check "the probe reached 63 ranks" test "$(lat wide.csv | wc -l)" -eq 63
check "rows at np 2 to 32 only" sh -c '! grep -q "^allreduce,64," wide.csv'
run "$COMMFIT" fit -q -i wide.csv -o wide.json
run "$COMMFIT" predict -m wide.json -p allreduce -n 64 -b 1K -f csv
check "np 64 reaches the second rack: no upper bound, the probe's latency added" \
    sh -c 'grep -q "np=64 reaches ranks 10.1 us from rank 0" "$1" && grep -q "the answer adds the latency probe" "$1"' sh "$T/out"
run "$COMMFIT" measure -q --simulate "$P/racks.xml" --np 2,4,8,16 --launch-np 8 -o small.csv
expect_rc 2 "--launch-np below the largest --np"
grep_err "^commfit: measure: --launch-np 8 is smaller than the largest --np, 16$" "says so"
check "and writes nothing" test ! -e small.csv

run "$COMMFIT" measure -q --simulate "$P/racks.xml" --np 2 --launch-np 200 -o big.csv
expect_rc 2 "--launch-np beyond the platform's cores"
grep_err "^commfit: measure: --launch-np 200: the platform '.*racks.xml' has 128 cores, one rank each" \
    "names --launch-np, not --np"

done_testing
