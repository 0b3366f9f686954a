# The point-to-point estimate from np=2 and the nodes np=2 never crossed, read from where
# the table's ranks ran (hosts, ranks_per_node, cores): np=2 inside one node asked at an
# np that leaves it has no upper bound (the network between nodes was never measured), on
# the shipped SMPI multi-core table the measured truth at np=16 is inside every interval
# (before: alltoall at 64 KiB answered 87 us in [54, 142] for a measured 539); more nodes
# than np=2 spanned is said; a node np=2 did not leave is no extrapolation in nodes; where
# the table says which node each rank ran on (rank_hosts), that placement counts.
. "$top_srcdir/tests/setup.sh"
# meta_line TABLE KEY: the line of TABLE that says KEY (fit names it in a warning).
meta_line() { grep -n -m 1 "^# $2:" "$1" | cut -d: -f1; }
# json_line MODEL KEY: the line of MODEL that holds KEY (its source table's metadata).
json_line() { grep -n -m 1 "\"$2\": " "$1" | cut -d: -f1; }

tab="$top_srcdir/data/sim-multicore.csv"
run "$COMMFIT" fit -q -i "$tab" --np 2 -o mc2.json
expect_rc 0 "fit the multi-core table at np 2"
awk -F, '!/^#/ && $2 == 16 && $1 != "pingpong" && !($4 == "float" && $3 < 4) { print $1, $3, $11 }' \
    "$tab" >truth
check "the multi-core table has np=16 rows" test -s truth
bad=0
n=0
while read -r pat bytes t; do
    n=$((n + 1))
    "$COMMFIT" predict -m mc2.json -p "$pat" -n 16 -b "$bytes" -f csv >out.csv 2>/dev/null || bad=$((bad + 1))
    awk -F, -v t="$t" 'NR == 2 { exit !($6 != "" && $6 <= t && $7 == "inf" && $11 == "np+nodes") }' \
        out.csv || { bad=$((bad + 1)); echo "# $pat $bytes truth $t: $(tail -1 out.csv | cut -d, -f5-7,11)"; }
done <truth
check "np=16 from np=2 on one 8-core node: all $n measured truths inside [lo, inf), marked np+nodes" \
    test "$bad" -eq 0
run "$COMMFIT" predict -m mc2.json -p alltoall -n 16 -b 64K -f csv
expect_rc 0 "alltoall at np 16 from np 2 on one node"
check "the note says what was never measured and what to measure" \
    grep -q 'np=2 ran inside one node (mc-0, 8 cores) and np=16 spans 2 nodes: the network between nodes was never measured, so the interval has no upper bound (measure two ranks on two nodes to know it)' "$T/out"
run "$COMMFIT" predict -m mc2.json -p alltoall -n 16 -b 64K -f json
check "json: no upper bound is null, extrapolated in nodes" \
    grep -q '"hi_us": null, "bw_MiBps": null, "source": "p2p-estimate", "model": "pairwise exchange", "extrapolated": {"np": true, "bytes": false, "blocks": false, "nodes": true, "tier": false}' "$T/out"
run "$COMMFIT" predict -m mc2.json -p alltoall -n 16 -b 64K -f table
check "table: the upper bound printed inf" \
    awk 'NR == 3 && $1 == "alltoall" && $7 == "inf" { ok = 1 } END { exit !ok }' "$T/out"
# np=8 fills the node np=2 ran on: extrapolated in np only, a finite interval.
run "$COMMFIT" predict -m mc2.json -p alltoall -n 8 -b 64K -f csv
check "np=8 inside the node: finite interval, extrapolated in np only" \
    awk -F, 'NR == 2 { exit !($7 != "inf" && $7 > $5 && $11 == "np") }' "$T/out"

# One rank per node (the flat simulated cluster): np=2 crossed the network, np=16 spans
# more nodes than it did; said, the interval kept (it assumes no contention).
run "$COMMFIT" fit -q -i "$top_srcdir/data/sim-flat.csv" --np 2 -o flat2.json
run "$COMMFIT" predict -m flat2.json -p alltoall -n 16 -b 64K -f csv
check "one rank per node: np=16 spans more nodes, said, the interval finite" \
    awk -F, 'NR == 2 { exit !($7 != "inf" && $7 > $5 && $11 == "np+nodes") }' "$T/out"
check "one rank per node: the note names the links never measured" \
    grep -q 'np=16 spans 16 nodes, np=2 spanned 2: contention on links they share was never measured (the interval assumes none)' "$T/out"

# A real launch: two nodes of 2 cores, two ranks each; np=4 leaves the first node.
{
    echo "# schema: 1"
    echo "# hosts: a1,a2"
    echo "# ranks_per_node: 2,2"
    echo "# cores: 2,2"
    echo "$HDR"
    for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
        m=$((k == 0 ? 0 : 1 << (2 * k - 2)))
        awk -v m="$m" -v k="$k" 'BEGIN {
            t = (1 + 1e-4 * m) * (1 + 0.02 * sin(k * 1.7))
            printf "pingpong,2,%d,byte,,100,5,%.6f,%.6f,%.6f,%.6f,,\n", m, t, t, t, t
            t = 2 * (2 + 2e-4 * m) * (1 + 0.02 * sin(k * 2.3))
            printf "alltoall,2,%d,byte,,100,5,%.6f,%.6f,%.6f,%.6f,,\n", m, t, t, t, t }'
    done
} >two.csv
run "$COMMFIT" fit -q -i two.csv -o two.json
expect_rc 0 "fit a two-node table at np 2"
run "$COMMFIT" predict -m two.json -p alltoall -n 4 -b 1K -f csv
check "np=4 on 2-core nodes leaves the node np=2 ran in: no upper bound" \
    awk -F, 'NR == 2 { exit !($7 == "inf" && $6 > 0 && $11 == "np+nodes") }' "$T/out"
check "the note names the node and its cores" grep -q 'np=2 ran inside one node (a1, 2 cores) and np=4 spans 2 nodes' "$T/out"

# The same launch placed round-robin (rank_hosts: ranks 0 and 1 on different nodes): np=2
# crossed the network, no node added at np=4; but np=4 puts 2 ranks on a node where np=2 put
# 1, their share of its link never measured: no upper bound (it was finite and "np" only,
# until two new users' round-robin racks and dragonfly held 45-57% and 82% of their truths
# in such intervals; predict-shared.sh). In runs (0*2,1*2, the block placement) it is as
# without the key.
sed 's/^# cores: 2,2$/&\n# rank_hosts: 0,1,0,1/' two.csv >rr.csv
check "the round-robin table says so" grep -qx '# rank_hosts: 0,1,0,1' rr.csv
run "$COMMFIT" fit -q -i rr.csv -o rr.json
run "$COMMFIT" predict -m rr.json -p alltoall -n 4 -b 1K -f csv
check "round-robin: np=4 puts 2 ranks on a node, np=2 1: no upper bound, np+nodes" \
    awk -F, 'NR == 2 { exit !($7 == "inf" && $6 > 0 && $11 == "np+nodes") }' "$T/out"
check "round-robin: the note says the sharing, not a network never measured" \
    sh -c "grep -q 'np=4 puts 2 ranks on a node, np=2 at most 1' '$T/out' && ! grep -q 'network between nodes was never measured' '$T/out'"
sed 's/^# cores: 2,2$/&\n# rank_hosts: 0*2,1*2/' two.csv >blk.csv
run "$COMMFIT" fit -q -i blk.csv -o blk.json
run "$COMMFIT" predict -m blk.json -p alltoall -n 4 -b 1K -f csv
check "rank_hosts in runs, block placement: as without the key" \
    grep -q 'np=2 ran inside one node (a1, 2 cores) and np=4 spans 2 nodes' "$T/out"
# A rank_hosts that does not fit the nodes (a third node, too few ranks, not a number) is
# not believed: the ranks are taken to fill the nodes in order.
for bad in '0,1,2,1' '0,1' '0,x,0,1' '0*5' '1*0,0*4' '0*3,1'; do
    sed "s/^# cores: 2,2\$/&\\n# rank_hosts: $bad/" two.csv >bad.csv
    run "$COMMFIT" fit -q -i bad.csv -o bad.json
    run "$COMMFIT" predict -m bad.json -p alltoall -n 4 -b 1K -f csv
    expect_rc 0 "rank_hosts '$bad': predict answers"
    check "rank_hosts '$bad' ignored: ranks fill the nodes in order" \
        grep -q 'np=2 ran inside one node (a1, 2 cores) and np=4 spans 2 nodes' "$T/out"
done
# Placement metadata that does not read is said by fit and predict, the key and why, not
# dropped without a word (a ranks_per_node of 'abc,...' marked np 256 np+tier where it is
# np+nodes+tier; bad-input audit): where it was, the answer is as with the key left out.
fat="$top_srcdir/data/sim-fatnodes.csv"
for k in "ranks_per_node|s/^# ranks_per_node: 16,/# ranks_per_node: abc,/|expected whole numbers from 1 to 16777216, the ranks of each node, together at most 16777216: where the ranks ran is unknown" \
    "cores|s/^# cores: 16,/# cores: x,/|expected a whole number from 1 to 16777216 for each node ranks_per_node lists: a node is taken to hold as many ranks as the fullest did" \
    "rank_hosts|s/^# rank_hosts: 0\*16/# rank_hosts: 9*16/|does not name each rank's node as ranks_per_node counts them: the ranks are taken to fill the nodes in order"; do
    key=${k%%|*}
    rest=${k#*|}
    sed "${rest%%|*}" "$fat" >bad-$key.csv
    check "$key: the table was changed" sh -c "! cmp -s bad-$key.csv '$fat'"
    run "$COMMFIT" fit -i bad-$key.csv -o bad-$key.json
    expect_rc 0 "$key that does not read: fitted"
    grep_err "^commfit: fit: warning: bad-$key.csv:$(meta_line bad-$key.csv $key): metadata $key '.*': ${rest#*|}; fit ignores it\$" \
        "$key that does not read: fit says so"
    run "$COMMFIT" predict -m bad-$key.json -p allreduce -n 256 -b 1K -f csv
    expect_rc 0 "$key that does not read: predict answers"
    grep_err "^commfit: predict: warning: bad-$key.json:$(json_line bad-$key.json $key): metadata $key '.*': ${rest#*|}; predict ignores it\$" \
        "$key that does not read: predict says so"
done
# A node count past what a launch can hold, beside rank_hosts: 2^61 + 1 ranks on the first
# node made the node list's size wrap around (a write past it: fit, predict, report and
# export crashed; bad-input audit); 2^63 - 1, a failed allocation said as "out of memory"
# without the key; 16777217 alone, a model file its own reader refused. Each is said, the
# placement unknown, as above.
"$COMMFIT" predict -m bad-ranks_per_node.json -p allreduce -n 256 -b 1K -f csv >unread.out 2>/dev/null
for v in 2305843009213693953 9223372036854775807 99999999999999999999 16777217 +16; do
    sed "s/^# ranks_per_node: 16,/# ranks_per_node: $v,/" "$fat" >big-rpn.csv
    run "$COMMFIT" fit -i big-rpn.csv -o big-rpn.json
    expect_rc 0 "ranks_per_node '$v,...': fitted"
    grep_err "^commfit: fit: warning: big-rpn.csv:$(meta_line big-rpn.csv ranks_per_node): metadata ranks_per_node '[+]*${v#+},.*': expected whole numbers from 1 to 16777216, the ranks of each node, together at most 16777216: where the ranks ran is unknown; fit ignores it\$" \
        "ranks_per_node '$v,...': said"
    run "$COMMFIT" predict -m big-rpn.json -p allreduce -n 256 -b 1K -f csv
    expect_rc 0 "ranks_per_node '$v,...': predict answers"
    check "ranks_per_node '$v,...': answers as an unread one" cmp -s unread.out "$T/out"
done
# The warning at the line of the table the placement read the key from, not the first that
# has it (the second review: A.csv:14 named, whose cores are good; the model's line 23).
grep -v '^# \(ranks_per_node\|rank_hosts\):' "$fat" >A.csv
sed 's/^# cores: .*/# cores: x,16,16,16,16,16,16,16/' "$fat" >B.csv
run "$COMMFIT" fit -i A.csv -i B.csv --patterns pingpong -o ab.json
grep_err "^commfit: fit: warning: B.csv:$(meta_line B.csv cores): metadata cores 'x,16," \
    "a key that does not read in the second table: its table and line"
run "$COMMFIT" predict -m ab.json -p pingpong -n 2 -b 8
grep_err "^commfit: predict: warning: ab.json:$(grep -n '"cores": "x' ab.json | cut -d: -f1): metadata cores 'x,16," \
    "and the model's line of it"
# Unread, ranks_per_node leaves the placement unknown: np 256 is then np+tier, as with the
# key left out.
grep -v '^# ranks_per_node:' "$fat" >no-rpn.csv
"$COMMFIT" fit -q -i no-rpn.csv -o no-rpn.json
"$COMMFIT" predict -m no-rpn.json -p allreduce -n 256 -b 1K -f csv >no-rpn.out 2>/dev/null
"$COMMFIT" predict -m bad-ranks_per_node.json -p allreduce -n 256 -b 1K -f csv >bad-rpn.out 2>/dev/null
check "an unread ranks_per_node answers as none" cmp -s no-rpn.out bad-rpn.out
# Tables fitted together whose ranks ran otherwise: the first's placement answers for all,
# and fit says so (a new user's one-rank-a-node ping-pongs fitted with an allreduce at 96 a
# node read "np=2 ran inside one node", or np 6144 on 6144 nodes, by the order of -i).
grep -v '^# rank_latency' "$top_srcdir/data/sim-flat.csv" >flat.csv
run "$COMMFIT" fit -i "$fat" -i flat.csv --patterns pingpong,bcast -o two.json
expect_rc 0 "two placements fitted together"
grep_err "^commfit: fit: warning: flat.csv places its ranks otherwise than .*sim-fatnodes.csv: np=2 spans 2 nodes, at most 1 a node, by its metadata, and 1, at most 2, by .*sim-fatnodes.csv's; answers past the fitted np read .*sim-fatnodes.csv's placement, for every pattern; fit tables of one placement together\$" \
    "two placements fitted together: said, at the first np they part at"
# the same cores, ranks on other nodes: one rank a node against 16 (its first 16 nodes)
sed 's/^# ranks_per_node: .*/# ranks_per_node: 1,1,1,1,1,1,1,1/; /^# rank_hosts:/d' "$fat" >one.csv
run "$COMMFIT" fit -i "$fat" -i one.csv --patterns pingpong -o one.json
grep_err "^commfit: fit: warning: one.csv places its ranks otherwise than .*sim-fatnodes.csv: np=2 spans 2 nodes" \
    "one rank a node against 16: said"
# a smaller launch of the same placement: 8 ranks on the first node of 16 cores
sed 's/^# ranks_per_node: .*/# ranks_per_node: 8/; s/^# rank_hosts: .*/# rank_hosts: 0*8/; s/^# cores: .*/# cores: 16/' "$fat" >eight.csv
run "$COMMFIT" fit -i "$fat" -i eight.csv --patterns pingpong -o eight.json
check "a smaller launch of the same placement: nothing said of it" sh -c "! grep -q 'places its ranks' '$T/err'"
# the same as predict reads it: a table of np 2 and 4 that says 4 on one node and no cores
# (as import --ranks-per-node 128 wrote it until stop 58) reads as nodes of 4 (the
# fullest); the set at np 2 to 256 as nodes of 128 (the second review: silent, and answers
# by the order of -i)
o=$top_srcdir/data/realnp/orfeo-epyc-bcast-ompi
"$COMMFIT" import osu -q --mpi-library 'Open MPI 4.1.6' --ranks-per-node 128 --np 2,4 \
    "$o/osu-np2.txt" "$o/osu-np4.txt" -o small128.csv
run "$COMMFIT" fit -i small128.csv -i "$o.csv" -o small128.json
expect_rc 0 "an import at 128 a node of np 2 and 4 with the orfeo set"
check "the import now says the node's room, 128 cores: one placement, nothing said" \
    sh -c "! grep -q 'places its ranks' '$T/err'"
grep -v '^# cores:' small128.csv >small.csv
run "$COMMFIT" fit -i small.csv -i "$o.csv" -o small.json
grep_err "^commfit: fit: warning: .*orfeo-epyc-bcast-ompi.csv places its ranks otherwise than small.csv: np=5 spans 1 node, at most 5 a node, by its metadata, and 2, at most 4, by small.csv's" \
    "an import of nodes read as of 4 against nodes of 128: said"
# the later table compared inside its own launch only: past it, its placement is a guess
# nothing reads (np 2-16 at 128 a node, no cores, after np 32-256: one machine; the third
# review: warned at np 17, advising to fit them apart)
"$COMMFIT" import osu -q --mpi-library 'Open MPI 4.1.6' --ranks-per-node 128 --np 2,4,8,16 \
    "$o/osu-np2.txt" "$o/osu-np4.txt" "$o/osu-np8.txt" "$o/osu-np16.txt" -o lo128.csv
grep -v '^# cores:' lo128.csv >lo.csv
"$COMMFIT" import osu -q --mpi-library 'Open MPI 4.1.6' --ranks-per-node 128 --np 32,64,128,256 \
    "$o/osu-np32.txt" "$o/osu-np64.txt" "$o/osu-np128.txt" "$o/osu-np256.txt" -o hi.csv
run "$COMMFIT" fit -i hi.csv -i lo.csv -o hilo.json
check "a smaller launch read as the larger's, one machine: nothing said" \
    sh -c "! grep -q 'places its ranks' '$T/err'"
run "$COMMFIT" fit -i lo.csv -i hi.csv -o lohi.json
grep_err "^commfit: fit: warning: hi.csv places its ranks otherwise than lo.csv: np=17 " \
    "the larger read as the smaller's (nodes of 16, no cores): said"
run "$COMMFIT" fit -i lo128.csv -i hi.csv -o lohi128.json
expect_rc 0 "np 2-16 then np 32-256, both at 128 a node"
check "the same with the cores import writes now (nodes of 128): nothing said" \
    sh -c "! grep -q 'places its ranks' '$T/err'"
# a placement that does not read is not the one read: the table after it is compared
sed 's/^# ranks_per_node: .*/# ranks_per_node: x/; /^# rank_hosts:/d' "$fat" >unread-rpn.csv
run "$COMMFIT" fit -i unread-rpn.csv -i one.csv -i "$fat" --patterns pingpong -o unread.json
grep_err "^commfit: fit: warning: .*sim-fatnodes.csv places its ranks otherwise than one.csv: " \
    "an unread first placement: the next one read is compared with the others"
grep -v '^# pair_exchange' "$fat" >fat2.csv
run "$COMMFIT" fit -i "$fat" -i fat2.csv --patterns pingpong -o same.json
check "one placement's tables fitted together: nothing said of it" sh -c "! grep -q 'places its ranks' '$T/err'"
done_testing
