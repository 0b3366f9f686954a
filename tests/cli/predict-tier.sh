# The latency probe beyond the fitted np (rank_latency_us, written here by hand on a table
# of the flat SMPI cluster's alltoall at np 2-8): an np whose ranks sit farther from rank 0
# than any fitted np's has no upper bound, is marked np+tier and says which latencies;
# latencies within the probe's resolution, a table without the key whose ranks shared one
# node and a key that does not read (a warning) answer as before. The estimate from np=2
# alone follows the same rule. A table that says neither where its ranks ran nor how far
# they lie has no upper bound beyond the fitted np, and the smallest fitted np's lower end.
. "$top_srcdir/tests/setup.sh"
# meta_line TABLE KEY: the line of TABLE that says KEY (fit names it in a warning).
meta_line() { grep -n -m 1 "^# $2:" "$1" | cut -d: -f1; }
# json_line MODEL KEY: the line of MODEL that holds KEY (its source table's metadata).
json_line() { grep -n -m 1 "\"$2\": " "$1" | cut -d: -f1; }

# one_a_node: the metadata of 16 ranks, one on each of 16 single-core nodes.
one_a_node() {
    echo "# hosts: $(seq -s, -f 'n%g' 0 15)"
    echo "# ranks_per_node: 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"
    echo "# cores: 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"
}

# flat_table FILE ROWS LATENCIES SPREAD NODES: FILE, the rows of the flat SMPI cluster's
# table that the awk condition ROWS keeps, as launched on 16 ranks, with the latency probe
# LATENCIES and its SPREAD (each left out when empty); NODES "1": one rank a node
# (one_a_node), "node": the 16 ranks on one node, nothing: no placement.
flat_table() {
    {
        echo "# schema: 1"
        echo "# launch_np: 16"
        [ -z "$3" ] || echo "# rank_latency_us: $3"
        [ -z "$4" ] || echo "# rank_latency_spread: $4"
        case $5 in
        1) one_a_node ;;
        node) echo "# ranks_per_node: 16" ;;
        esac
        grep -m1 '^pattern,' "$top_srcdir/data/sim-flat.csv"
        awk -F, "$2" "$top_srcdir/data/sim-flat.csv"
    } >"$1"
}

# table LATENCIES [SPREAD [NODES]]: t.csv, alltoall at np 2, 4, 8.
table() {
    flat_table t.csv '$1 == "alltoall" && ($2 == 2 || $2 == 4 || $2 == 8)' "$1" "${2:-}" "${3:-}"
}
near=1,1,1,1,1,1,1
# barrier_us FILE: what the answer in FILE (predict's csv) adds for the barrier after each
# timed call (its note; 0 when it adds nothing): the spread exits, checked on their own in
# predict-spread.sh and test-barrier-replay.
barrier_us() { sed -n 's/.*the answer adds \([0-9.e+-]*\) us for the barrier.*/\1/p' "$1" | grep . || echo 0; }
far=3,3,3,3,3,3,3,3

table "$near,$far" 0
run "$COMMFIT" fit -q -i t.csv -o tier.json
expect_rc 0 "fit np 2-8 of a table whose ranks 8-15 are farther"
run "$COMMFIT" predict -m tier.json -p alltoall -n 16 -b 64K -f csv
expect_rc 0 "predict np 16"
check "no upper bound, marked np+tier" \
    awk -F, 'NR == 2 { exit !($6 > 0 && $7 == "inf" && $9 == "across-np" && $11 == "np+tier") }' "$T/out"
check "the note names the latencies" \
    grep -q 'np=16 reaches ranks 3 us from rank 0, the fitted np (to 8) at most 1 us (latency probe at launch): the network beyond (another switch, group or more hops) was never measured, so the interval has no upper bound (measure at np=16 to know it)' "$T/out"
run "$COMMFIT" predict -m tier.json -p alltoall -n 16 -b 64K -f json
check "json: tier true, hi null" \
    grep -q '"hi_us": null, .*"extrapolated": {"np": true, "bytes": false, "blocks": false, "nodes": false, "tier": true}' "$T/out"
run "$COMMFIT" predict -m tier.json -p alltoall -n 8 -b 64K -f csv
check "at a fitted np: no tier" awk -F, 'NR == 2 { exit !($7 != "inf" && $11 == "") }' "$T/out"
run "$COMMFIT" predict -m tier.json -p alltoall -n 32 -b 64K -f csv
check "np 32, past the launch: the ranks probed reach farther, no upper bound" \
    awk -F, 'NR == 2 { exit !($7 == "inf" && $11 == "np+tier") }' "$T/out"
check "and says the probe ended at the launch" grep -q "within the probed launch" "$T/out"
# Every probed rank as near as the fitted ones: bounded within the launch, but past it the
# ranks were never probed, so no upper bound there either.
table "$near,1,1,1,1,1,1,1,1" 0
run "$COMMFIT" fit -q -i t.csv -o flat16.json
run "$COMMFIT" predict -m flat16.json -p alltoall -n 16 -b 64K -f csv
check "all near, np 16 within the launch: bounded" awk -F, 'NR == 2 { exit !($7 != "inf") }' "$T/out"
run "$COMMFIT" predict -m flat16.json -p alltoall -n 32 -b 64K -f csv
check "np 32, past the launch of 16: no upper bound, marked np+tier" \
    awk -F, 'NR == 2 { exit !($7 == "inf" && $11 == "np+tier") }' "$T/out"
check "and says the probe never reached those ranks" \
    grep -q "np=32 reaches ranks past the launch's latency probe (ranks 1 to 15, the farthest 1 us from rank 0): the network beyond was never measured, so the interval has no upper bound (launch commfit measure on 32 ranks to probe them; --np need not change)" "$T/out"

# The report's np plot follows (the same rule): beyond np 8 its upper curve is inf.
run "$COMMFIT" report -q -m tier.json -o rep
# ext FILE: the extrapolated block's rows of the across-np model in an np plot's data.
ext() { awk '/^# \[[0-9]+\] extrapolated/ { f = 1; next } /^# \[/ { f = 0 } f && !/^#/ && NF' "$1"; }
ext rep/np-alltoall.dat >ext.rows
check "the np plot extrapolates the model" test -s ext.rows
check "with no upper bound where np reaches the farther ranks (9 and up)" \
    awk '$1 > 8 && $4 != "inf" { bad = 1 } END { exit bad }' ext.rows

# The same without the key, the ranks on one node: bounded, as before; the reference for
# the rest.
table "" "" node
run "$COMMFIT" fit -q -i t.csv -o none.json
"$COMMFIT" predict -m none.json -p alltoall -n 16 -b 64K -f csv >none.csv
check "without the key, one node: bounded, marked np" \
    awk -F, 'NR == 2 { exit !($7 != "inf" && $11 == "np") }' none.csv
run "$COMMFIT" report -q -m none.json -o rep0
ext rep0/np-alltoall.dat >ext0.rows
check "and its np plot bounded to the launch's 16 ranks (past them, new nodes)" \
    awk '$1 <= 16 && $4 == "inf" { bad = 1 } $1 > 16 && $4 != "inf" { bad = 1 } END { exit bad || NR == 0 }' ext0.rows

# Neither the key nor a placement: nothing says np 16's ranks are as near as the fitted
# np's (an import without --ranks-per-node), so no upper bound, and the lower end down to
# the smallest fitted np's (np 2: 64 KiB alltoall the model reads below np 8's), the time
# the model's. Within the fitted np (6), as with the placement.
table ""
run "$COMMFIT" fit -q -i t.csv -o unplaced.json
run "$COMMFIT" predict -m unplaced.json -p alltoall -n 16 -b 64K -f csv
check "no key, no placement: no upper bound, marked np, the time the model's, a lower end below" \
    awk -F, -v t="$(cut -d, -f5-6 none.csv | tail -1)" 'NR == 2 { split(t, r, ","); exit !($7 == "inf" && $11 == "np" && $5 == r[1] && $6 < r[2]) }' "$T/out"
check "and says why, and what tells it" \
    grep -q "the table does not say where its ranks ran (no ranks_per_node metadata): nothing says whether np=16 crosses nodes or switches the fitted np (to 8) never did, so the interval has no upper bound and its lower bound at most the smallest fitted np's (commfit import --ranks-per-node, or a table of commfit measure, says where they ran)" "$T/out"
"$COMMFIT" predict -m none.json -p alltoall -n 6 -b 64K -f csv >none6.csv
run "$COMMFIT" predict -m unplaced.json -p alltoall -n 6 -b 64K -f csv
check "np 6, inside the fitted np: as with the placement" cmp -s none6.csv "$T/out"
run "$COMMFIT" report -q -m unplaced.json -o repu
ext repu/np-alltoall.dat >extu.rows
check "its np plot without an upper bound past np 8, bounded to it" \
    awk '$1 > 8 && $4 != "inf" { bad = 1 } $1 <= 8 && $4 == "inf" { bad = 1 } END { exit bad || NR == 0 }' extu.rows

# Within the probe's resolution (10% plus the spread): as without the key.
table "$near,1.05,1.05,1.05,1.05,1.05,1.05,1.05,1.05" 0
run "$COMMFIT" fit -q -i t.csv -o same.json
"$COMMFIT" predict -m same.json -p alltoall -n 16 -b 64K -f csv >same.csv
check "5% farther: the answer without the key" cmp -s none.csv same.csv
table "$near,1.3,1.3,1.3,1.3,1.3,1.3,1.3,1.3" 0.25
run "$COMMFIT" fit -q -i t.csv -o noisy.json
"$COMMFIT" predict -m noisy.json -p alltoall -n 16 -b 64K -f csv >noisy.csv
check "30% farther with a 25% spread: not resolved, the answer without the key" \
    cmp -s none.csv noisy.csv

# The estimate from np=2 alone follows the same rule: np=2's rank 1 is the reach measured.
# table2 LATENCIES [NODES]: t2.csv, the ping-pong and alltoall at np 2, spread 0.
table2() {
    flat_table t2.csv '($1 == "alltoall" || $1 == "pingpong") && $2 == 2' "$1" 0 "${2:-}"
}
table2 "1,3,3,3,3,3,3,3,3,3,3,3,3,3,3"
run "$COMMFIT" fit -q -i t2.csv -o np2.json
expect_rc 0 "fit np 2 of a table whose ranks 2-15 are farther than rank 1"
run "$COMMFIT" predict -m np2.json -p alltoall -n 8 -b 64K -f csv
check "from np=2 alone at np 8: no upper bound, marked np+tier" \
    awk -F, 'NR == 2 { exit !($6 > 0 && $7 == "inf" && $9 == "p2p-estimate" && $11 == "np+tier") }' "$T/out"
check "its note names rank 1's latency" \
    grep -q "np=8 reaches ranks 3 us from rank 0, np=2's rank 1 1 us (latency probe at launch)" "$T/out"
# Its answer adds the probe's extra latency as the across-np answer does, against rank 1:
# pairwise exchange at np 8 (the catalog's, no library named) has 6 steps to partners 2-7
# ranks away, each 2 us farther than rank 1.
"$COMMFIT" predict -m np2.json -p alltoall -n 8 -b 64K -f csv >np2.csv
table2 "" node
run "$COMMFIT" fit -q -i t2.csv -o np2none.json
"$COMMFIT" predict -m np2none.json -p alltoall -n 8 -b 64K -f csv >np2none.csv
check "from np=2 alone: the answer without the probe plus 6 steps' 2 us and the barrier's, lo the same" \
    awk -F, -v b="$(barrier_us np2.csv)" 'NR == 2 { t = $5 - b; lo = $6 } FNR == 2 && NR > 2 { exit !($5 > 0 && t - $5 > 11.9999 && t - $5 < 12.0001 && lo == $6) }' np2.csv np2none.csv
check "and says so" grep -q "the answer adds the latency probe's extra latency: 12 us over 6 steps of the pairwise exchange reaching ranks beyond np=2's rank 1 1 us" np2.csv
# The sized probe (rank_latency_sized_us) reads them at the messages' size: at 64 KiB ranks
# 2-7 lie 10 us beyond rank 1 (15 against 5), 8 more than at 8 bytes, on each of the 6 steps
# its transfers pace.
# table2_with LINES...: table2 of the ranks 2-15 3 us away, the metadata lines LINES added.
table2_with() {
    table2 "1,3,3,3,3,3,3,3,3,3,3,3,3,3,3"
    for l in "$@"; do sed -i "2a # $l" t2.csv; done
}
sized="rank_latency_sized_us: 65536:5$(printf ',15%.0s' $(seq 2 15))"
predict_t2() {
    run "$COMMFIT" fit -q -i t2.csv -o "$1.json"
    "$COMMFIT" predict -m "$1.json" -p alltoall -n 8 -b 64K -f csv >"$1.csv"
}
table2_with "$sized"
predict_t2 np2s
check "the sized probe adds 8 us more on each of the 6 steps, lo the same" \
    awk -F, 'NR == 2 { t = $5; lo = $6 } FNR == 2 && NR > 2 { exit !(t - $5 > 47.9999 && t - $5 < 48.0001 && lo == $6) }' np2s.csv np2.csv
check "and says so" grep -q "the answer adds the latency probe's extra latency: 60 us over 6 steps of the pairwise exchange reaching ranks beyond np=2's rank 1 1 us; 48 us of it the sized latency probe's for the bytes of those steps' messages, on the steps they pace" np2s.csv
# The pair-exchange probe reads the same route's bytes, every rank at once: the larger of the
# two counts, not both. A pair exchange 12% slower across np 8's halves than np 2's adds 3 us
# for the 256 KiB a rank sends across them: the sized probe's 48 stand.
table2_with "$sized" "pair_exchange_bytes: 1048576" "pair_exchange_us: 2:100,4:100,8:112,16:112"
predict_t2 np2sp
check "a pair exchange's 3 us under the sized probe's 48: the answer as with the sized alone" \
    awk -F, 'NR == 2 { t = $5 } FNR == 2 && NR > 2 { exit !(t - $5 < 1e-6 && $5 - t < 1e-6) }' np2sp.csv np2s.csv
# One 11x slower adds 250 us, over the sized probe's 48: the answer as with the pair alone.
table2_with "$sized" "pair_exchange_bytes: 1048576" "pair_exchange_us: 2:100,4:100,8:1100,16:1100"
predict_t2 np2sP
table2_with "pair_exchange_bytes: 1048576" "pair_exchange_us: 2:100,4:100,8:1100,16:1100"
predict_t2 np2P
check "a pair exchange's 250 us over the sized probe's 48: the answer as with the pair alone" \
    awk -F, 'NR == 2 { t = $5 } FNR == 2 && NR > 2 { exit !($5 > 0 && t - $5 < 1e-6 && $5 - t < 1e-6) }' np2sP.csv np2P.csv
check "which is the answer without either plus 250 us" \
    awk -F, 'NR == 2 { t = $5 } FNR == 2 && NR > 2 { exit !(t - $5 > 249.999 && t - $5 < 250.001) }' np2P.csv np2.csv
# The probe's distances (pair_exchange_distance_us): the pairwise exchange at np 8 sends
# 64 KiB to 1 partner 1 away, 2 at 2-3 and 4 at 4-7. Where 8 ranks sending cost the nearer
# distances what np=2's level did, only the 4 partners beyond pay, 250 us as the levels say;
# where distance 2 costs 600 us with 8 ranks sending (a medium they all share), its 128 KiB
# pay 500 us a MiB more: 312.5 us.
pairs="pair_exchange_us: 2:100,4:100,8:1100,16:1100"
table2_with "pair_exchange_bytes: 1048576" "$pairs" \
    "pair_exchange_distance_us: 2:100;4:100,100;8:100,100,1100;16:100,100,1100,1100"
predict_t2 np2D
check "distances as the levels: the levels' answer" \
    awk -F, 'NR == 2 { t = $5 } FNR == 2 && NR > 2 { exit !($5 > 0 && t - $5 < 1e-6 && $5 - t < 1e-6) }' np2D.csv np2P.csv
table2_with "pair_exchange_bytes: 1048576" "$pairs" \
    "pair_exchange_distance_us: 2:100;4:100,100;8:100,600,1100;16:100,600,1100,1100"
predict_t2 np2S
check "distance 2 slower with 8 ranks sending: the answer without the probes plus 312.5 us" \
    awk -F, 'NR == 2 { t = $5 } FNR == 2 && NR > 2 { exit !(t - $5 > 312.499 && t - $5 < 312.501) }' np2S.csv np2.csv
check "and says so, distance by distance" grep -q "the answer adds 312 us for the traffic every rank sends at once, as the pair-exchange probe at launch measured each distance with 8 ranks sending against 2: the pairwise exchange sends 128 KiB a rank to partners 2 to 3 ranks away (500 us a MiB slower) and 256 KiB to partners 4 to 7 ranks away (1000 us a MiB slower)" np2S.csv
# One that does not read (a level short): named, and the levels alone answer.
table2_with "pair_exchange_bytes: 1048576" "$pairs" \
    "pair_exchange_distance_us: 2:100;4:100,100;8:100,600"
run "$COMMFIT" fit -i t2.csv -o np2B.json
grep_err "^commfit: fit: warning: t2.csv:$(meta_line t2.csv pair_exchange_distance_us): metadata pair_exchange_distance_us '2:100;4:100,100;8:100,600': expected B:us,... for each level of pair_exchange_us, the times at d = 1, 2, ..., B/2, numbers > 0, the levels apart by ';'; fit ignores it$" \
    "fit names a pair_exchange_distance_us that does not read"
"$COMMFIT" predict -m np2B.json -p alltoall -n 8 -b 64K -f csv 2>/dev/null >np2B.csv
check "and predict answers with the levels alone" \
    awk -F, 'NR == 2 { t = $5 } FNR == 2 && NR > 2 { exit !($5 > 0 && t - $5 < 1e-6 && $5 - t < 1e-6) }' np2B.csv np2P.csv
# est FILE: the rows of the point-to-point estimate's curve in an np plot's data.
est() { awk '/^# \[[0-9]+\] point-to-point estimate/ { f = 1; next } /^# \[/ { f = 0 } f && !/^#/ && NF' "$1"; }
run "$COMMFIT" report -q -m np2.json -o rep2
run "$COMMFIT" report -q -m np2none.json -o rep2none
est rep2/np-alltoall.dat >est1.rows
est rep2none/np-alltoall.dat >est0.rows
check "the report's estimate adds it too: higher at every np past 2, the same at 2" \
    sh -c 'test -s est1.rows && paste est0.rows est1.rows | awk "{ if (\$1 != \$5 || (\$1 == 2 ? \$6 != \$2 : \$6 <= \$2) || \$7 != \$3) bad = 1 } END { exit bad }"'
table2 "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"
run "$COMMFIT" fit -q -i t2.csv -o np2eq.json
run "$COMMFIT" predict -m np2eq.json -p alltoall -n 8 -b 64K -f csv
check "every rank as near as rank 1: bounded, marked np" \
    awk -F, 'NR == 2 { exit !($7 != "inf" && $11 == "np") }' "$T/out"

# Both rules at once, one rank a node: np spans more nodes than was measured and reaches a
# farther tier. The note gives both reasons (it gave the tier's alone), the nodes' first.
table "$near,$far" 0 1
run "$COMMFIT" fit -q -i t.csv -o both.json
run "$COMMFIT" predict -m both.json -p alltoall -n 16 -b 64K -f csv
check "across-np, more nodes and a farther tier: marked np+nodes+tier, no upper bound" \
    awk -F, 'NR == 2 { exit !($7 == "inf" && $11 == "np+nodes+tier") }' "$T/out"
check "its note gives the nodes' reason and the tier's" \
    grep -q 'np=16 spans 16 nodes, the largest fitted np=8 spanned 8: contention on links they share was measured up to 8 nodes only; np=16 reaches ranks 3 us from rank 0, the fitted np (to 8) at most 1 us (latency probe at launch)' "$T/out"
table2 "1,3,3,3,3,3,3,3,3,3,3,3,3,3,3" 1
run "$COMMFIT" fit -q -i t2.csv -o both2.json
run "$COMMFIT" predict -m both2.json -p alltoall -n 8 -b 64K -f csv
check "from np=2, more nodes and a farther tier: marked np+nodes+tier, no upper bound" \
    awk -F, 'NR == 2 { exit !($7 == "inf" && $11 == "np+nodes+tier") }' "$T/out"
check "its note gives both reasons, without the nodes' 'the interval assumes none'" \
    grep -q 'np=8 spans 8 nodes, np=2 spanned 2: contention on links they share was never measured; np=8 reaches ranks 3 us from rank 0, np=2.s rank 1 1 us (latency probe at launch)' "$T/out"

# One rank a node and no probe (an import's placement): more nodes than any fitted np
# spanned, and nothing says how far they lie, so no upper bound either; the time is the
# model's (nothing to add without a probe), the lower end at most the largest fitted np's
# (past a tier the time may grow less than within the fitted reach: since stop 85). Within
# the fitted nodes, bounded: the answer without the key.
table "" "" 1
run "$COMMFIT" fit -q -i t.csv -o noprobe.json
run "$COMMFIT" predict -m noprobe.json -p alltoall -n 16 -b 64K -f csv
check "across-np, more nodes, no probe: marked np+nodes+tier, no upper bound, the model's time, a lower end below the model's" \
    awk -F, -v t="$(cut -d, -f5-6 none.csv | tail -1)" 'NR == 2 { split(t, m, ","); exit !($7 == "inf" && $11 == "np+nodes+tier" && $5 == m[1] && $6 > 0 && $6 < m[2] / 2) }' "$T/out"
check "its note says no probe tells how far the 8 added nodes lie" \
    grep -q "np=16 spans 16 nodes, the largest fitted np=8 spanned 8: contention on links they share was measured up to 8 nodes only; the table has no latency probe to say how far np=16's other 8 nodes lie" "$T/out"
run "$COMMFIT" predict -m noprobe.json -p alltoall -n 6 -b 64K -f csv
check "np 6, inside the fitted nodes: bounded, as on one node" cmp -s none6.csv "$T/out"
table2 "" 1
run "$COMMFIT" fit -q -i t2.csv -o noprobe2.json
run "$COMMFIT" predict -m noprobe2.json -p alltoall -n 8 -b 64K -f csv
check "from np=2, more nodes, no probe: marked np+nodes+tier, no upper bound" \
    awk -F, 'NR == 2 { exit !($7 == "inf" && $11 == "np+nodes+tier") }' "$T/out"
check "its note says so, without the nodes' 'the interval assumes none'" \
    grep -q "np=8 spans 8 nodes, np=2 spanned 2: contention on links they share was never measured; the table has no latency probe to say how far np=8's other 6 nodes lie" "$T/out"

# The answer itself adds the probe's extra latency to the steps that reach the farther ranks,
# where the library's rules say which algorithm runs (SMPI's mpich selector here: bcast is a
# binomial tree, whose one step of distance 8 reaches ranks 8-15 at np 16, 2 us farther),
# times the share of the ranks that wait on that step: the time is the ranks' mean, and a
# bcast's ranks 8-15 (half of them) wait for it.
# table3 LATENCIES [NODES]: t3.csv, bcast and reduce at np 2, 4, 8 of 16 launched ranks (flat_table,
# spread 0), with the library and selector of the flat cluster's table.
table3() {
    flat_table t3.tmp '($1 == "bcast" || $1 == "reduce") && ($2 == 2 || $2 == 4 || $2 == 8)' "$1" 0 "${2:-}"
    {
        head -1 t3.tmp
        grep -E '^# (mpi_library|coll_selector|coll_timing|coll_root):' "$top_srcdir/data/sim-flat.csv"
        tail -n +2 t3.tmp
    } >t3.csv
}
table3 "" node
run "$COMMFIT" fit -q -i t3.csv -o grid0.json
"$COMMFIT" predict -m grid0.json -p bcast -n 16 -b 1 -f csv >grid0.csv
# The reduce's reference: every rank as near as rank 1 (no tier), the placement as unsaid
# as the probe's table's (SMPI's mpich reduce reads the nodes: on one node of 16 it runs
# another tree).
table3 "$near,1,1,1,1,1,1,1,1"
run "$COMMFIT" fit -q -i t3.csv -o red0.json
"$COMMFIT" predict -m red0.json -p reduce -n 16 -b 4 -f csv >red0.csv
table3 "$near,$far"
run "$COMMFIT" fit -q -i t3.csv -o grid.json
run "$COMMFIT" predict -m grid.json -p bcast -n 16 -b 1 -f csv
b16=$(barrier_us "$T/out")
check "bcast at np 16: the answer without the probe plus half of one step's 2 us and the barrier's, lo no higher" \
    awk -F, -v b="$b16" 'NR == 2 { t = $5 - b; lo = $6; hi = $7 } FNR == 2 && NR > 2 { exit !(t > 0 && t - $5 > 0.9999 && t - $5 < 1.0001 && lo > 0 && lo <= $6 && hi == "inf") }' "$T/out" grid0.csv
check "the note says what was added, and for which ranks" \
    grep -q "the answer adds 1 us: the latency probe's extra latency, 2 us over 1 step of the two-level binomial tree reaching ranks beyond the fitted np's 1 us, times the 50% of the ranks that wait on it (the time is the ranks' mean)" "$T/out"
run "$COMMFIT" report -q -m grid0.json -o grep0
run "$COMMFIT" report -q -m grid.json -o grep1
ext grep0/np-bcast.dat | awk '$1 == 16' >tierb0.rows
ext grep1/np-bcast.dat | awk '$1 == 16' >tierb1.rows
# At 2 MiB each send waits for its receiver, and every rank waits the step (since stop 65).
check "the report's np plot adds the same at np 16 at 1 B and 16 KiB, the whole step at 2 MiB" \
    sh -c 'test $(wc -l <tierb1.rows) = 3 && paste tierb0.rows tierb1.rows | awk -v b="$1" "{ w = NR == 3 ? 2 : 1; d = \$6 - \$2 - b; if (d < w - 0.0001 || d > w + 0.0001 || \$7 > \$3 || \$8 != \"inf\") bad = 1 } END { exit bad }"' sh "$b16"
run "$COMMFIT" predict -m grid.json -p bcast -n 8 -b 1 -f csv
check "at a fitted np: nothing added" sh -c '! grep -q "extra latency" "$1"' sh "$T/out"
# The ranks that wait are those from the first the probe puts in the farther tier: with
# ranks 1-11 as near as the fitted ones and 12-15 farther, a quarter of them.
table3 "1,1,1,1,1,1,1,1,1,1,1,3,3,3,3"
run "$COMMFIT" fit -q -i t3.csv -o grid12.json
run "$COMMFIT" predict -m grid12.json -p bcast -n 16 -b 1 -f csv
check "tier from rank 12: bcast at np 16 adds a quarter of the step's 2 us and the barrier's" \
    awk -F, -v b="$(barrier_us "$T/out")" 'NR == 2 { t = $5 - b } FNR == 2 && NR > 2 { exit !(t - $5 > 0.4999 && t - $5 < 0.5001) }' "$T/out" grid0.csv
check "and says 25%" grep -q "times the 25% of the ranks that wait on it" "$T/out"
# Calls timed back to back (--no-sync) overlap one call's waits with the next's: nothing is
# added, the interval still without an upper bound.
table3 "$near,$far"
sed 's/^# coll_timing: .*/# coll_timing: the calls back to back, the loop timed whole (--no-sync)/' t3.csv >t3loop.csv
sed 's/^# rank_latency_us: .*//' t3loop.csv >t3loop0.csv
run "$COMMFIT" fit -q -i t3loop.csv -o loop.json
run "$COMMFIT" fit -q -i t3loop0.csv -o loop0.json
"$COMMFIT" predict -m loop0.json -p bcast -n 16 -b 1 -f csv >loop0.csv
run "$COMMFIT" predict -m loop.json -p bcast -n 16 -b 1 -f csv
check "timed as a loop: the answer without the probe's latency, no upper bound" \
    awk -F, 'NR == 2 { t = $5; hi = $7 } FNR == 2 && NR > 2 { exit !(t == $5 && t > 0 && hi == "inf") }' "$T/out" loop0.csv
# A reduce's data flows to the root: only the root waits on the step from rank 8, 1 of the
# 16 ranks whose mean the time is.
run "$COMMFIT" predict -m grid.json -p reduce -n 16 -b 4 -f csv
check "reduce at np 16: the root's share of the extra latency (2 us / 16), lo the same" \
    awk -F, 'NR == 2 { t = $5; lo = $6 } FNR == 2 && NR > 2 { exit !(t > 0 && t - $5 > 0.1249 && t - $5 < 0.1251 && lo == $6) }' "$T/out" red0.csv
check "and says so" grep -q "times the 6.25% of the ranks that wait on it" "$T/out"

# A key that does not read: ignored with a warning, the answer as without it.
table "$near,3,3" 0 node
run "$COMMFIT" fit -i t.csv -o bad.json
expect_rc 0 "a rank_latency_us of the wrong length does not stop fit"
grep_err "^commfit: fit: warning: t.csv:$(meta_line t.csv rank_latency_us): metadata rank_latency_us '1,1,1,1,1,1,1,3,3': expected launch_np - 1 numbers \(ranks 1 to launch_np - 1\); fit ignores it$" \
    "fit warns that it ignores it"
check "fit says it once" test "$(grep -c rank_latency_us "$T/err")" -eq 1
run "$COMMFIT" fit -q -i t.csv -o bad.json
check "fit -q says nothing" test ! -s "$T/err"
# A launch_np that is no process count: the probe's length could not be checked against
# it, and the probe was read without a word (stop 55's noticed).
table "$near,$far" 0
sed 's/^# launch_np: .*/# launch_np: abc/' t.csv >la.csv
run "$COMMFIT" fit -i la.csv -o la.json
expect_rc 0 "a launch_np of 'abc' does not stop fit"
grep_err "^commfit: fit: warning: la.csv:$(meta_line la.csv rank_latency_us): metadata rank_latency_us '1,1,1,1,1,1,1,3,3,3,3,3,3,3,3': the launch_np beside it is not a process count of 2 or more; fit ignores it$" \
    "fit says the probe is ignored, and why"
# A pair_exchange_us that does not read: named, and the waits (from rank_latency_us) stay
# as they are; both unread: one warning names both.
sed 's/^# pair_exchange_us: .*/# pair_exchange_us: 2:abc/' "$top_srcdir/data/sim-fatnodes-ompi.csv" >pbad.csv
run "$COMMFIT" fit -i pbad.csv -o pbad.json
grep_err "^commfit: fit: warning: pbad.csv:$(meta_line pbad.csv pair_exchange_us): metadata pair_exchange_us '2:abc': expected B:us for each power of two B from 2, times > 0; fit ignores it$" \
    "fit names a pair_exchange_us that does not read"
"$COMMFIT" fit -q -i "$top_srcdir/data/sim-fatnodes-ompi.csv" -o pgood.json
grep -A6 barrier_wait_us pbad.json >w1 || true
grep -A6 barrier_wait_us pgood.json >w2 || true
check "the waits as with a pair_exchange_us that reads" sh -c 'grep -q "[1-9]" w1 && cmp -s w1 w2'
# A probe of small messages is latency, not a cost per byte: pair_exchange_bytes of 1 (a hand
# edit) made an alltoall of 1 KiB at np 64 take 5.1e6 us. Left out, said, and predict
# answers as without the probe.
sed 's/^# pair_exchange_bytes: .*/# pair_exchange_bytes: 1/' "$top_srcdir/data/sim-fatnodes-ompi.csv" >psmall.csv
run "$COMMFIT" fit -i psmall.csv --np 2,4,8,16 -o psmall.json
grep_err "^commfit: fit: warning: psmall.csv:$(meta_line psmall.csv pair_exchange_us): metadata pair_exchange_us '.*': its pair_exchange_bytes is below 65536: a probe of small messages times latency, not the traffic's cost per byte \(commfit measure exchanges 1048576\); fit ignores it$" \
    "pair_exchange_bytes of 1: left out, said"
grep -v '^# pair_exchange' "$top_srcdir/data/sim-fatnodes-ompi.csv" >pnone.csv
"$COMMFIT" fit -q -i pnone.csv --np 2,4,8,16 -o pnone.json
"$COMMFIT" predict -m pnone.json -p alltoall -n 64 -b 1K -f csv >pnone.out 2>/dev/null
run "$COMMFIT" predict -m psmall.json -p alltoall -n 64 -b 1K -f csv
check "and predict answers as without the probe" cmp -s pnone.out "$T/out"
sed 's/^# rank_latency_us: .*/# rank_latency_us: 1,x/' pbad.csv >pbad2.csv
run "$COMMFIT" fit -i pbad2.csv -o pbad2.json
grep_err "^commfit: fit: warning: pbad2.csv:$(meta_line pbad2.csv pair_exchange_us): metadata pair_exchange_us '2:abc': expected B:us for each power of two B from 2, times > 0; fit ignores it$" \
    "neither reads: a warning for each, at its own line"
grep_err "^commfit: fit: warning: pbad2.csv:$(meta_line pbad2.csv rank_latency_us): metadata rank_latency_us '1,x': expected one number >= 0 a rank; fit ignores it$" \
    "the second at its line"
check "twice" test "$(grep -c 'ignores' "$T/err")" -eq 2
# Two tables, a key of each that does not read: each said at its own table and line (the
# third review of stop 57: both at the first key's, pbad2.csv:24).
sed 's/^# pair_exchange_us: .*/# pair_exchange_us: 2:abc/; /^# rank_latency/d' "$top_srcdir/data/sim-fatnodes-ompi.csv" >pa.csv
sed 's/^# rank_latency_us: .*/# rank_latency_us: 1,x/; /^# pair_exchange/d' "$top_srcdir/data/sim-fatnodes.csv" >pb.csv
run "$COMMFIT" fit -i pa.csv -i pb.csv -o pab.json
grep_err "^commfit: fit: warning: pa.csv:$(meta_line pa.csv pair_exchange_us): metadata pair_exchange_us '2:abc'" \
    "two tables: the first's key at its table and line"
grep_err "^commfit: fit: warning: pb.csv:$(meta_line pb.csv rank_latency_us): metadata rank_latency_us '1,x'" \
    "the second's at its own"
run "$COMMFIT" predict -m pab.json -p bcast -n 4 -b 1
grep_err "^commfit: predict: warning: pab.json:$(json_line pab.json pair_exchange_us): metadata pair_exchange_us '2:abc'" \
    "predict: the first's in the model file, in the first table's metadata"
grep_err "^commfit: predict: warning: pab.json:$(json_line pab.json rank_latency_us): metadata rank_latency_us '1,x'" \
    "the second's in the second table's"
# A table read from standard input is named as such.
run "$COMMFIT" fit -i - -o pstdin.json <pb.csv
grep_err "^commfit: fit: warning: <stdin>:$(meta_line pb.csv rank_latency_us): metadata rank_latency_us '1,x'" \
    "a table from standard input: <stdin>, at its line"
# A value that quotes "; metadata " itself: one warning, its value whole.
sed 's/^# rank_latency_us: .*/# rank_latency_us: 1; metadata x/' "$top_srcdir/data/sim-fatnodes-ompi.csv" >semi.csv
run "$COMMFIT" fit -i semi.csv -o semi.json
grep_err "^commfit: fit: warning: semi.csv:$(meta_line semi.csv rank_latency_us): metadata rank_latency_us '1; metadata x': expected one number >= 0 a rank; fit ignores it$" \
    "a value that quotes '; metadata ': one warning, the value whole"
check "one" test "$(grep -c 'ignores it' "$T/err")" -eq 1
# A ranks_per_node that does not read is tried in each table in turn: ten such tables and
# the eleventh's cores, whose placement is read, are each said (a first version kept 8 and
# dropped the one of the placement used).
S=$top_srcdir/data/sim-fatnodes-ompi.csv
ins=""
for i in 0 1 2 3 4 5 6 7 8 9; do
    sed "s/^# ranks_per_node: .*/# ranks_per_node: bad$i/" "$S" >r$i.csv
    ins="$ins -i r$i.csv"
done
sed 's/^# cores: .*/# cores: 1,x/' "$S" >c11.csv
run "$COMMFIT" fit $ins -i c11.csv --patterns pingpong -o many.json
check "eleven tables' keys that do not read: eleven warnings" test "$(grep -c 'ignores it' "$T/err")" -eq 11
grep_err "^commfit: fit: warning: c11.csv:$(meta_line c11.csv cores): metadata cores '1,x'" \
    "the last, the cores of the placement read, among them"
run "$COMMFIT" predict -m many.json -p pingpong -n 2 -b 1
check "predict: eleven too" test "$(grep -c 'ignores it' "$T/err")" -eq 11
# A long path is said whole, with the line (a first version cut it at 1099 bytes).
long=$(printf 'd%.0s' $(seq 1 200))
mkdir -p "$long/$long/$long/$long/$long/$long"
cp pbad.csv "$long/$long/$long/$long/$long/$long/p.csv"
run "$COMMFIT" fit -i "$long/$long/$long/$long/$long/$long/p.csv" --patterns pingpong -o lp.json
grep_err "^commfit: fit: warning: $long/$long/$long/$long/$long/$long/p.csv:$(meta_line pbad.csv pair_exchange_us): metadata pair_exchange_us" \
    "a path of 1200 bytes: whole, with its line"
run "$COMMFIT" predict -m bad.json -p alltoall -n 16 -b 64K -f csv
expect_rc 0 "a rank_latency_us of the wrong length does not stop predict"
grep_err "^commfit: predict: warning: bad.json:$(json_line bad.json rank_latency_us): metadata rank_latency_us '1,1,1,1,1,1,1,3,3': expected launch_np - 1 numbers \(ranks 1 to launch_np - 1\); predict ignores it$" \
    "warns that it ignores it"
check "and answers as without it" cmp -s none.csv "$T/out"
# The report's np plot reads the same metadata: it says so too, once, and draws as without.
run "$COMMFIT" report -m bad.json -o repbad
expect_rc 0 "a rank_latency_us of the wrong length does not stop report"
grep_err "^commfit: report: warning: bad.json:$(json_line bad.json rank_latency_us): metadata rank_latency_us '1,1,1,1,1,1,1,3,3': expected launch_np - 1 numbers \(ranks 1 to launch_np - 1\); report ignores it$" \
    "report warns that it ignores it"
check "once" test "$(grep -c rank_latency_us "$T/err")" -eq 1
# Read from a pipe or a FIFO, the model's text is the one parsed: the line still (a first
# version read the file again: line 1 from a pipe, and a FIFO hung once the report was
# written).
run sh -c 'cat bad.json | "$1" report -m /dev/stdin -o reppipe' sh "$COMMFIT"
expect_rc 0 "report of a model read from a pipe"
grep_err "^commfit: report: warning: /dev/stdin:$(json_line bad.json rank_latency_us): metadata rank_latency_us" \
    "its line, as in the file"
mkfifo fifo.json
(cat bad.json >fifo.json &)
run timeout 60 "$COMMFIT" report -m fifo.json -o repfifo
expect_rc 0 "report of a model read from a FIFO: ends"
grep_err "^commfit: report: warning: fifo.json:$(json_line bad.json rank_latency_us): metadata rank_latency_us" \
    "its line"
ext repbad/np-alltoall.dat >extbad.rows
check "and its np plot is drawn as without it" cmp -s ext0.rows extbad.rows

# SMPI's "ring" allgather sends to rank + i at step i, a spread of partners, not a chain (a
# true ring's crossings are counted in test-placement-tier): replayed rank by rank, each
# step's traffic at once as the pair-exchange probe measured it at each distance (the shipped
# racks table fitted to np 32, np 64's 1 MiB simulated 55675 us: before the replay, 61513
# with the probe's traffic and latencies added to the steps' reading; now 54465, and the
# note no longer adds them, the replay holding both).
run "$COMMFIT" fit -q -i "$top_srcdir/data/sim-racks.csv" --np 2,4,8,16,32 -o racks.json
run "$COMMFIT" predict -m racks.json -p allgather -n 64 -b 1M -f csv
check "SMPI's ring allgather at np 64: within 5% of the simulated 55675 us" \
    answer_within 1.05 64 1048576 55675
check "its interval holds the simulated time" \
    awk -F, 'NR == 2 { exit !($6 <= 55675 && ($7 == "inf" || 55675 <= $7)) }' "$T/out"
check "the note adds no traffic nor latency to the replay's" \
    sh -c '! grep -q "the answer adds [0-9.e+]* us for the traffic\|the answer adds the latency probe" "$1"' sh "$T/out"

# A launch of 16384 ranks: the flat cluster's table with its launch carried on from 128
# ranks (grow-launch.awk). Its probe's line is longer than 1 MiB, which readers refused
# before they took 64 MiB; fit reads it, answers within the fitted np as the 128-rank
# launch's table does, and past it knows the ranks np 256 reaches: an upper bound.
awk -v N=16384 -f "$top_srcdir/tests/cli/grow-launch.awk" "$top_srcdir/data/sim-flat.csv" >big.csv
check "the probe's line at 16384 ranks is longer than 1 MiB" \
    test "$(awk '/^# rank_latency_sized_us: / { print length($0) }' big.csv)" -gt 1048576
run "$COMMFIT" fit -q -i "$top_srcdir/data/sim-flat.csv" -o small.json
run "$COMMFIT" fit -q -i big.csv -o big.json
expect_rc 0 "fit reads the table of a 16384-rank launch"
check "and says nothing of it" test ! -s "$T/err"
for p in bcast allreduce alltoall; do
    "$COMMFIT" predict -m small.json -p $p -n 64 -b 64K -f csv >small.csv
    run "$COMMFIT" predict -m big.json -p $p -n 64 -b 64K -f csv
    check "$p at np 64 from the 16384-rank launch: as from the 128-rank one" cmp -s small.csv "$T/out"
    "$COMMFIT" predict -m small.json -p $p -n 256 -b 64K -f csv >small.csv
    check "$p at np 256 from the 128-rank launch: no upper bound" \
        grep -q "^$p,256,65536,[a-z]*,[0-9.]*,[0-9.]*,inf," small.csv
    run "$COMMFIT" predict -m big.json -p $p -n 256 -b 64K -f csv
    check "from the 16384-rank launch, whose probe reached its ranks: bounded" \
        grep -q "^$p,256,65536,[a-z]*,[0-9.]*,[0-9.]*,[0-9.]*,,across-np,.*,np+nodes," "$T/out"
done

done_testing
