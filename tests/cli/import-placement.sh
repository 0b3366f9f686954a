# Where the ranks of imported runs sat: import --ranks-per-node records ranks_per_node as
# commfit measure does, and predict reads it beyond the across-np model's fitted np. On the
# ORFEO bcast set (128-core nodes, np 2-128 on one node, 256 on two) fitted at np 2-128,
# np=256 crosses a network no fitted np did: no upper bound, the lower bound the smallest
# fitted np's, and the measured times at np=256 all inside (before: 8 of 20 sizes below the
# lower bound, 1.05 us measured at 2 B for [3.68, 52.9]). Without the option the same
# import says nothing of nodes and keeps its finite interval.
. "$top_srcdir/tests/setup.sh"

d="$top_srcdir/data/realnp/orfeo-epyc-bcast-ompi"
files=""
for n in 2 4 8 16 32 64 128 256; do files="$files $d/osu-np$n.txt"; done
run "$COMMFIT" import osu -q --ranks-per-node 128 --np 2,4,8,16,32,64,128,256 $files -o b.csv
expect_rc 0 "import with --ranks-per-node 128"
check "np up to 256 on 128-rank nodes: two nodes recorded" grep -qx '# ranks_per_node: 128,128' b.csv
run "$COMMFIT" import osu -q --ranks-per-node 96 --np 200 "$d/osu-np2.txt" -o c.csv
check "np=200 on 96-rank nodes: the last node holds the rest" grep -qx '# ranks_per_node: 96,96,8' c.csv
check "and each node's room is 96" grep -qx '# cores: 96,96,96' c.csv
# A launch smaller than a node: its room is the option's, not the launch's (np 2-8 at 128 a
# node read np=16 as 2 nodes of 8, the network between them never measured: no upper bound).
run "$COMMFIT" import osu -q --ranks-per-node 128 --np 2,4,8 "$d/osu-np2.txt" "$d/osu-np4.txt" \
    "$d/osu-np8.txt" -o small.csv
check "np up to 8 on 128-rank nodes: 8 ranks on a node of 128 cores" \
    sh -c "grep -qx '# ranks_per_node: 8' small.csv && grep -qx '# cores: 128' small.csv"
run "$COMMFIT" fit -q -i small.csv -o small.json
run "$COMMFIT" predict -m small.json -p bcast -n 16,256 -b 1K -f csv
check "np=16 inside the node of 128: bounded, no nodes" \
    awk -F, 'NR == 2 { exit !($7 != "inf" && $11 == "np") }' "$T/out"
check "np=256 spans 2 nodes of 128" grep -q 'np=256 would span 2 nodes (past the launch of 8 ranks: nodes like its last, of 128 cores, taken)' "$T/out"
# Where nodes of n would add up past a table's most ranks, no cores (a reader takes n).
run "$COMMFIT" import osu -q --ranks-per-node 16000000 --np 16000001 "$d/osu-np2.txt" -o big.csv
expect_rc 0 "import of 16000001 ranks at 16000000 a node"
check "two nodes, no cores (32000000 would pass the most)" \
    sh -c "grep -qx '# ranks_per_node: 16000000,1' big.csv && ! grep -q '^# cores' big.csv"
# Past the imported runs, new nodes hold 96 ranks as the full ones did, not the 8 of the
# last (it said 28: 3 + 200 / 8); and a launch that filled its nodes in order stopped inside
# its last, whose room a larger launch fills first: np=400 spans 5 nodes (400 / 96 rounded
# up; it said 6, the last node's room not counted on, until a new user's racks of 6-core
# nodes read np 66 on 12 nodes where 11 hold it).
run "$COMMFIT" import osu -q --ranks-per-node 96 --np 2,4,8,16,32,64,128,200 $files -o p.csv
run "$COMMFIT" fit -q -i p.csv -o p.json
run "$COMMFIT" predict -m p.json -p bcast -n 400 -b 1K -f csv
check "np=400 on 96-rank nodes past a launch of 200 (96,96,8): 5 nodes" \
    grep -q 'np=400 would span 5 nodes (past the launch of 200 ranks: nodes like its last, of 96 cores, taken), the largest fitted np=200 spanned 3: ' "$T/out"
run "$COMMFIT" predict -m p.json -p bcast -n 288,289 -b 1K -f csv
check "np=288: the 88 free cores of the third node, no other: no node added, none said" \
    sh -c "sed -n 2p '$T/out' | grep -qv 'would span'"
check "np=289: one more node: 4" sh -c "sed -n 3p '$T/out' | grep -q 'np=289 would span 4 nodes'"
# One core a node: "of 1 core" (sim-flat, launched on 128, read at np 256).
"$COMMFIT" fit -q -i "$top_srcdir/data/sim-flat.csv" --np 2,4,8 -o flat8.json
run "$COMMFIT" predict -m flat8.json -p bcast -n 256 -b 1K -f csv
check "past a launch of one-core nodes: 1 core, not 1 cores" \
    grep -q 'np=256 would span 256 nodes (past the launch of 128 ranks: nodes like its last, of 1 core, taken)' "$T/out"
run "$COMMFIT" import osu -q --ranks-per-node 0 --np 2 "$d/osu-np2.txt" -o z.csv
expect_rc 2 "--ranks-per-node 0 is refused"
run "$COMMFIT" import osu -q --ranks-per-node 1 --np 16777216 "$d/osu-np2.txt" -o z.csv
expect_rc 2 "more nodes than a table lists is refused"
grep_err "spans 16777216 nodes" "the refusal says how many nodes"

run "$COMMFIT" fit -q -i b.csv --np 2,4,8,16,32,64,128 -o b.json
expect_rc 0 "fit np 2-128 (one node)"
awk -F, '!/^#/ && $1 == "bcast" && $2 == 256 { print $2, $3, $11 }' b.csv >truth
cut -d' ' -f1,2 truth >points
check "np=256 was measured" test -s points
run "$COMMFIT" predict -m b.json -p bcast --points points -f csv
expect_rc 0 "predict np=256"
awk -F, 'NR > 1 { print $6, $7, $11 }' "$T/out" | paste -d' ' truth - >got
check "np=256 leaves the fitted node: every upper bound inf, marked np+nodes" \
    awk '{ if (!($5 == "inf" && $6 == "np+nodes")) bad++ } END { exit !(NR == 20 && !bad) }' got
check "every measured time at np=256 is above its lower bound" \
    awk '{ if (!($4 > 0 && $4 <= $3)) bad++ } END { exit !(NR == 20 && !bad) }' got
check "the note says what was never measured" \
    grep -q 'the fitted np (to 128) ran inside one node (128 cores) and np=256 spans 2 nodes: the network between nodes was never measured' "$T/out"
# A table that names its hosts (as commfit measure records them) names the first in the
# note; a long name does not cut the note short.
h=compute-node-0001.a-rather-long-cluster-domain.example.org
sed "s/^# ranks_per_node:/# hosts: $h,compute-node-0002\\
&/" b.csv >h.csv
run "$COMMFIT" fit -q -i h.csv --np 2,4,8,16,32,64,128 -o h.json
run "$COMMFIT" predict -m h.json -p bcast -n 256 -b 1K -f csv
check "a long host name: the note is whole" \
    grep -qF "ran inside one node ($h, 128 cores) and np=256 spans 2 nodes: the network between nodes was never measured, so the interval has no upper bound and its lower bound at most the smallest fitted np's (measure across two nodes to know it); np=256 is 2x" "$T/out"
# Inside the fitted node (np=128 is fitted; 100 is between) nothing is said of nodes.
run "$COMMFIT" predict -m b.json -p bcast -n 100 -b 1K -f csv
check "np=100 inside the node: finite, no nodes" awk -F, 'NR == 2 { exit !($7 != "inf" && $11 == "np") }' "$T/out"

# The report's time-against-np plot draws the model past the node as predict answers there.
run "$COMMFIT" report -q -i b.csv -m b.json -o rep
expect_rc 0 "report of the fit at np 2-128"
check "the np plot: past the fitted node the across-np model has no upper bound" \
    awk '/^# \[[0-9]+\] extrapolated/ { f = 1; next } /^# \[/ { f = 0 } f && NF == 4 && $1 > 128 { n++; bad += $4 != "inf" }
         END { exit !(n > 0 && !bad) }' rep/np-bcast.dat
# Its solid part is the model's fitted np, 2 to 128, not the table's 2 to 256: np 128-256
# is extrapolated, and dashed.
check "the np plot: solid over the model's fitted np, 2 to 128" \
    awk '/^# \[[0-9]+\] within the fitted np/ { f = 1; next } /^# \[/ { f = 0 } f && NF == 4 { n++; lo = n == 1 || $1 < lo ? $1 : lo; hi = $1 > hi ? $1 : hi }
         END { exit !(n > 0 && lo == 2 && hi == 128) }' rep/np-bcast.dat
check "the np plot: extrapolated from the largest fitted np, 128" \
    awk '/^# \[[0-9]+\] extrapolated/ { f = 1; next } /^# \[/ { f = 0 } f && NF == 4 { n++; lo = n == 1 || $1 < lo ? $1 : lo }
         END { exit !(n > 0 && lo == 128) }' rep/np-bcast.dat
check "the np plot: the dotted vertical line at np 128" grep -q "set arrow from 128, graph 0 to 128, graph 1" rep/np-bcast.gp
# The caption says where the upper dotted line stops, and why: gnuplot draws no inf (a new
# user read the missing line as a bound left out).
check "the caption: no upper bound from np 129, the line not drawn" \
    grep -q "Where the interval has no upper bound (first at np 129, as predict answers there: inf, its note saying why), its upper dotted line is not drawn." rep/index.html

# Without the option: no placement, so nothing says np=256 stays where np 2-128 ran (it
# did not): no upper bound there either, marked np only (nodes are not known), and the
# note says what would tell it. Within the fitted np (96): bounded.
run "$COMMFIT" import osu --np 2,4,8,16,32,64,128,256 $files -o n.csv
check "without the option no ranks_per_node" sh -c '! grep -q ranks_per_node n.csv'
grep_err "^commfit: import: no --ranks-per-node: the table does not say where its ranks ran, so predict answers beyond its process counts without an upper bound \(--ranks-per-node N says N ranks a node\)$" \
    "without the option, process counts above 2: import says what predict will do, and what bounds it"
run "$COMMFIT" import osu --ranks-per-node 128 --np 2,4,8,16,32,64,128,256 $files -o b2.csv
check "with it: no such note" sh -c '! grep -q "no --ranks-per-node" "$1"' sh "$T/err"
run "$COMMFIT" import osu --np 2 "$d/osu-np2.txt" -o two.csv
check "np 2 alone: no such note" sh -c '! grep -q "no --ranks-per-node" "$1"' sh "$T/err"
run "$COMMFIT" fit -q -i n.csv --np 2,4,8,16,32,64,128 -o n.json
run "$COMMFIT" predict -m n.json -p bcast -n 256 -b 4 -f csv
check "without it np=256 has no upper bound either, extrapolated in np only" \
    awk -F, 'NR == 2 { exit !($7 == "inf" && $11 == "np") }' "$T/out"
check "and says that the table does not say where its ranks ran, and what does" \
    grep -q "the table does not say where its ranks ran (no ranks_per_node metadata).*commfit import --ranks-per-node" "$T/out"
run "$COMMFIT" predict -m n.json -p bcast -n 96 -b 4 -f csv
check "np=96, within the fitted np: bounded" awk -F, 'NR == 2 { exit !($7 != "inf") }' "$T/out"

# Several nodes fitted (the AWS set, 96 ranks a node: np 3072-12288 on 32-128 nodes) and a
# target on more: said and marked. No latency probe says how far the 128 added nodes lie
# (an imported table has none): no upper bound.
run "$COMMFIT" fit -q -i "$top_srcdir/data/realnp/aws-eks-hpc6a-efa-ompi.csv" --np 3072,6144,12288 -o a.json
run "$COMMFIT" predict -m a.json -p allreduce -n 24576 -b 4 -f csv
check "np=24576 on 256 nodes, fitted to 128, no probe: no upper bound, marked np+nodes+tier" \
    awk -F, 'NR == 2 { exit !($7 == "inf" && $6 < $5 && $11 == "np+nodes+tier") }' "$T/out"
check "and the note says to how many nodes contention was measured" \
    grep -q 'np=24576 spans 256 nodes, the largest fitted np=12288 spanned 128: contention on links they share was measured up to 128 nodes only' "$T/out"
check "and that no probe says how far the other nodes lie" \
    grep -q "the table has no latency probe to say how far np=24576's other 128 nodes lie (another switch or rack costs more than the nodes measured), so the interval has no upper bound" "$T/out"
# Inside the fitted nodes (np 8192 on 86 nodes, fitted to 128): bounded as before.
run "$COMMFIT" predict -m a.json -p allreduce -n 8192 -b 4 -f csv
check "np=8192 on 86 nodes, fitted to 128: finite interval" \
    awk -F, 'NR == 2 { exit !($7 != "inf" && $7 > $5) }' "$T/out"
done_testing
