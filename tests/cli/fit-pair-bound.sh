# A collective at np 2 timed faster than the table's own ping-pong moves as many bytes
# between the same two ranks is not a measurement of transfers (SMPI 3.32's ompi bcast on
# ranks that share a host: 1 MiB in 0.825 us where the ping-pong takes 58): fit warns,
# with the sizes, the times and the bound, and keeps the warning in the model file. Only
# at np 2, only where the ping-pong's bytes (not its latency) set its time, only under a
# quarter of it.
. "$top_srcdir/tests/setup.sh"

SIZES="1024 4096 16384 65536 262144 1048576"
# table FILE NP PATTERN DATATYPE FACTOR [CONST]: the ping-pong at np 2 (0.5 us + m / 20000
# B/us), and PATTERN at NP whose slowest rank takes FACTOR x the ping-pong's time, or CONST us
# at every size when given.
table() {
    {
        echo "$HDR"
        for m in $SIZES; do
            awk -v m="$m" 'BEGIN { t = 0.5 + m / 20000
                printf "pingpong,2,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", m, t, t, t, t }'
        done
        for m in $SIZES; do
            awk -v m="$m" -v np="$2" -v p="$3" -v d="$4" -v f="$5" -v c="${6:-}" 'BEGIN {
                t = c != "" ? c : f * (0.5 + m / 20000)
                printf "%s,%d,%d,%s,,100,5,0.01,%.10g,%.10g,%.10g,,\n", p, np, m, d, t / 2, t, t / 2 }'
        done
    } >"$1"
}

# A bcast whose slowest rank takes 0.8 us at every size: at 64 KiB (3.78 us a ping-pong)
# and above it is under a quarter; at 16 KiB (1.32 us) the latency (0.55 us at 1 KiB) still
# sets the ping-pong's time within 4x, and nothing is said.
table flat.csv 2 bcast byte 0 0.8
run "$COMMFIT" fit -i flat.csv -o flat.json
expect_rc 0 "a bcast faster than its ping-pong"
grep_err '^commfit: fit: warning: 1 fit faster than its ping-pong moves the bytes: bcast np 2$' \
    "a bcast faster than its ping-pong: the summary's warning"
run "$COMMFIT" fit --verbose -i flat.csv -o flat.json
check "--verbose: the sizes, the times and the bound" grep -q \
    '^  warning: faster than its ping-pong moves the bytes: at 64 KiB to 1 MiB (3 sizes) the slowest rank took 0.8 us, under a quarter of the 3.78-52.9 us the ping-pong at np 2 takes for as many bytes; ' \
    "$T/out"
check "the model file keeps the warning" grep -q '"faster than its ping-pong moves the bytes: at 64 KiB to 1 MiB' flat.json
# The same table given twice: the sizes are counted once each.
cp flat.csv flat2.csv
run "$COMMFIT" fit --verbose -i flat.csv -i flat2.csv -o flat2.json
check "two inputs of the same sizes: 3 sizes, not 6 rows" grep -q \
    '^  warning: faster than its ping-pong moves the bytes: at 64 KiB to 1 MiB (3 sizes) ' "$T/out"
# Only a sized collective's plain fit can carry the sizes (at any np: fit finds them past
# np 2 where the ping-pong ran inside one node, below); moved onto a barrier's fit, the model
# file is refused at the field.
awk '!d && /"np": 2,/ { sub(/"np": 2/, "\"np\": 4"); d = 1 } { print }' flat.json >np4.json
check "the bcast's fit moved to np 4" grep -q '"np": 4,' np4.json
run "$COMMFIT" predict -m np4.json -p bcast -n 4 -b 1M -f csv
expect_rc 0 "faster_than_pingpong on a fit at np 4"
check "at np 4: the note names np 4" grep -q 'fit found this collective at np=4 faster than' "$T/out"
awk '!d && /"pattern": "bcast"/ { sub(/"bcast"/, "\"barrier\""); d = 1 } { print }' flat.json >bar.json
run "$COMMFIT" predict -m bar.json -p barrier -n 2
expect_rc 1 "faster_than_pingpong on a barrier's fit"
grep_err "^commfit: predict: bar.json:[0-9][0-9]*: fits\[0\].faster_than_pingpong: only a sized collective's plain fit can be faster than its ping-pong \(this fit is barrier at np 2\)$" \
    "on a barrier: refused at the field, with the fit's pattern and np"

# Just under and just over a quarter of the ping-pong at every size.
table under.csv 2 bcast byte 0.2475
run "$COMMFIT" fit --verbose -i under.csv -o under.json
check "0.99 of a quarter: warned at the sizes the bytes set (64 KiB to 1 MiB)" grep -q \
    '^  warning: faster than its ping-pong moves the bytes: at 64 KiB to 1 MiB (3 sizes)' "$T/out"
table over.csv 2 bcast byte 0.2525
run "$COMMFIT" fit --verbose -i over.csv -o over.json
expect_rc 0 "1.01 of a quarter"
check "1.01 of a quarter: nothing said" sh -c "! grep -q 'faster than its ping-pong' '$T/out' '$T/err'"

# A reduction too (its root receives the other's whole vector at np 2).
table red.csv 2 reduce float 0 0.3
run "$COMMFIT" fit -i red.csv -o red.json
grep_err '^commfit: fit: warning: 1 fit faster than its ping-pong moves the bytes: reduce np 2$' \
    "a reduce faster than its ping-pong"

# At np 4 the ping-pong at np 2 bounds nothing where nothing says where the ranks ran (other
# pairs may be nearer), nor where np 2 crossed two nodes (two ranks of a node may be
# faster): nothing said. Where np 2 ran inside one node the ping-pong took the fastest path
# there is, and no rank at np 4 receives its bytes faster (SMPI's ompi bcast at np 8 inside
# a node of sim-fatnodes-ompi: 1 MiB in 3.63 us for a ping-pong of 29.6).
table np4.csv 4 bcast byte 0 0.8
run "$COMMFIT" fit -i np4.csv -o np4.json
expect_rc 0 "the same bcast at np 4"
check "at np 4: nothing said" sh -c "! grep -q 'faster than its ping-pong' '$T/err'"
{ echo "# ranks_per_node: 1,1,1,1"; cat np4.csv; } >np4-across.csv
run "$COMMFIT" fit -i np4-across.csv -o np4-across.json
check "at np 4, np 2 across two nodes: nothing said" sh -c "! grep -q 'faster than its ping-pong' '$T/err'"
{ echo "# ranks_per_node: 4"; cat np4.csv; } >np4-node.csv
run "$COMMFIT" fit --verbose -i np4-node.csv -o np4-node.json
expect_rc 0 "the bcast at np 4, np 2 inside one node"
check "at np 4, np 2 inside one node: warned, with why" grep -q \
    '^  warning: faster than its ping-pong moves the bytes: at 64 KiB to 1 MiB (3 sizes) .*a rank of this collective receives a message of as many bytes (or as many in parts), by no path faster than the ping-pong.s, which ran inside one node' "$T/out"
check "at np 4, np 2 inside one node: the model file keeps the sizes" \
    sh -c 'tr -d " \n" <np4-node.json | grep -q "\"faster_than_pingpong\":{\"from_bytes\":65536,\"to_bytes\":1048576}"'
# A table of collectives that ran inside a node, with a ping-pong from a table that says
# nothing of where it ran (another machine's Ethernet): the ping-pong's rows may come from
# the latter, so past np 2 nothing is judged (29 fits were flagged, np 32 to 128 among them).
grep -v '^pingpong,' "$top_srcdir/data/sim-fatnodes.csv" >fatcoll.csv
awk -F, '/^#/ || $1 == "pattern" || $1 == "pingpong"' "$top_srcdir/data/imb41_gbrandino_juno_arm_internode_eth.csv" >eth-pp.csv
run "$COMMFIT" fit -i fatcoll.csv -i eth-pp.csv -o mixed.json
expect_rc 0 "a ping-pong from a table that does not say where it ran"
check "a table that does not say: nothing judged past np 2" \
    sh -c "! grep 'faster than its ping-pong' '$T/err' | grep -q 'np [0-9][0-9]*[0-9]\\|np [3-9]'"
run "$COMMFIT" fit -q -i "$top_srcdir/data/sim-fatnodes-ompi.csv" --patterns pingpong,bcast -o fo.json
run "$COMMFIT" predict -m fo.json -p bcast -n 8 -b 1M -f csv
check "sim-fatnodes-ompi's bcast at np 8 (one node of 16 cores): the answer says so" \
    grep -q 'fit found this collective at np=8 faster than the table.s ping-pong moves the bytes' "$T/out"

# Without a ping-pong in the table there is no bound.
grep -v '^pingpong,' flat.csv >nopp.csv
run "$COMMFIT" fit -i nopp.csv -o nopp.json
expect_rc 0 "no ping-pong"
check "no ping-pong: nothing said" sh -c "! grep -q 'faster than its ping-pong' '$T/err'"

# The shipped simulations: Open MPI's selection on the racks (4 ranks a host) says so for
# bcast at np 2 and np 4 (one host), not at np 8 and up (two hosts or more, whose messages
# cross the network and are no faster than a ping-pong inside one); MPICH's does not.
run "$COMMFIT" fit -i "$top_srcdir/data/sim-racks-ompi.csv" -o ro.json
grep_err '^commfit: fit: warning: 2 fits faster than its ping-pong moves the bytes: bcast np 2, bcast np 4$' \
    "sim-racks-ompi: bcast np 2 and 4"
run "$COMMFIT" fit --verbose -i "$top_srcdir/data/sim-racks-ompi.csv" -o ro.json
check "sim-racks-ompi: 64 KiB to 2 MiB in 0.825 us" grep -q \
    'at 64 KiB to 2 MiB (4 sizes) the slowest rank took 0.825 us, under a quarter of the 5.81-114 us' "$T/out"
# The model file says which sizes (faster_than_pingpong), and predict's answer at np 2 says
# it is read from them, at those sizes and beyond, not below.
check "the model file names the sizes" sh -c \
    'tr -d " \n" <ro.json | grep -q "\"faster_than_pingpong\":{\"from_bytes\":65536,\"to_bytes\":2097152}"'
run "$COMMFIT" predict -m ro.json -p bcast -n 2 -b 16K,64K,4M -f csv
expect_rc 0 "sim-racks-ompi: predict bcast at np 2"
check "predict at 64 KiB and 4 MiB: the note says the times are no transfers" \
    awk -F, 'NR > 1 { n += /fit found this collective at np=2 faster than the table.s ping-pong moves the bytes \(at 64 KiB to 2 MiB\): those times are no transfers/ }
             END { exit !(n == 2) }' "$T/out"
check "predict at 16 KiB: nothing said" sh -c '! sed -n 2p "$1" | grep -q "faster than the table"' sh "$T/out"
# A model file whose sizes lie outside the fit's, or run backwards, is refused at the field.
awk '!d && /"faster_than_pingpong"/ { f = 1 } f && /"to_bytes"/ { sub(/2097152/, "1024"); f = 0; d = 1 } { print }' \
    ro.json >bad.json
run "$COMMFIT" predict -m bad.json -p bcast -n 2 -b 1M
expect_rc 1 "to_bytes below from_bytes"
grep_err 'faster_than_pingpong.to_bytes: 1024 out of range: expected 65536 to 2097152' \
    "to_bytes below from_bytes: the field and the range"
# The estimate from np=2 reads the pattern's np=2 times too (its latency and bandwidth
# factors): where some moved no data it says so, and has no upper bound (fatnodes-ompi, np 16
# inside one node, bcast of 1 MiB: 9.08 us in [1.60, 51.5] for the simulated 66.2 before).
run "$COMMFIT" fit -q -i "$top_srcdir/data/sim-fatnodes-ompi.csv" --np 2 -o fo2.json
check "the estimate's np=2 entry for bcast names the sizes" sh -c \
    'tr -d " \n" <fo2.json | grep -q "\"sd_log\":[^}]*\"faster_than_pingpong\":{\"from_bytes\":65536,\"to_bytes\":2097152}"'
run "$COMMFIT" predict -m fo2.json -p bcast -n 16 -b 1M -f csv
expect_rc 0 "fatnodes-ompi from np=2: bcast at np 16"
check "bcast: no upper bound, and the note says why" \
    awk -F, 'NR == 2 { exit !($7 == "inf" && /at np=2 bcast was faster than the ping-pong moves the bytes \(at 64 KiB to 2 MiB\): those times are no transfers .* no upper bound/) }' "$T/out"
# Nor below what each rank's receipt of the bytes takes, (p - 1)/p of the ping-pong's (29.61 us
# at 1 MiB on fatnodes: 27.76 at np 16, for the simulated 66.2; it read 9.08, and 24.77 since
# stop 64); and from 64 KiB, where each send waits for its receiver, below the algorithm's
# steps, each a one-way message (since stop 65): the scatter and allgather's 67.56.
check "bcast: raised to the scatter and allgather's steps, and said" \
    awk -F, 'NR == 2 { exit !($5 > 67.55 && $5 < 67.57 && /the estimate, 24.77 us, raised to 67.56: at this size each send waits for its receiver, and every rank waits the algorithm.s steps/) }' "$T/out"
# report's curve reads it as predict does (a review: it drew 9.08 where predict said 27.76)
awk -F, '/^#/ { print; next } !h { print; h = 1; next } $1 == "bcast" && $3 == 1048576' \
    "$top_srcdir/data/sim-fatnodes-ompi.csv" >fo-1m.csv
GNUPLOT=/nonexistent "$COMMFIT" report -q -m fo2.json -i fo-1m.csv -o rep-fo >/dev/null 2>&1
check "report's estimate at np 16, 1 MiB: 67.56, as predict" \
    awk '/^# \[/ { est = /point-to-point estimate/ } est && $1 == 16 { f = $2 > 67.55 && $2 < 67.57 } END { exit !f }' rep-fo/np-bcast.dat
# The binomial tree of 64 KiB: 4 one-way messages, 13.96 (simulated 13.96; read 8.38 before).
run "$COMMFIT" predict -m fo2.json -p bcast -n 16 -b 64K -f csv
check "bcast of 64 KiB: the binomial tree's 4 steps" \
    awk -F, 'NR == 2 { exit !($5 > 13.95 && $5 < 13.96 && /raised to 13.96/) }' "$T/out"
# Below 64 KiB a sender leaves once its message is off: the receipt alone (3.81 us here; 3.75
# since stop 79, whose reading once a call pays np=2's latency factor at each level).
run "$COMMFIT" predict -m fo2.json -p bcast -n 16 -b 16K -f csv
check "bcast of 16 KiB, eager: as it was" \
    awk -F, 'NR == 2 { exit !($5 > 3.75 && $5 < 3.76 && !/raised/) }' "$T/out"
run "$COMMFIT" predict -m fo2.json -p allgather -n 16 -b 1M -f csv
check "allgather (its np=2 times transfers): bounded, nothing said" \
    awk -F, 'NR == 2 { exit !($7 != "inf" && !/faster than the ping-pong/) }' "$T/out"
# Sizes that run backwards are refused at the field.
awk '/"contention"/ { c = 1 } c && /"faster_than_pingpong"/ { f = 1 }
     f && /"to_bytes"/ { sub(/2097152/, "1024"); f = 0 } { print }' fo2.json >c4.json
run "$COMMFIT" predict -m c4.json -p bcast -n 16 -b 1M
expect_rc 1 "the estimate's faster_than_pingpong running backwards"
grep_err "^commfit: predict: c4.json:[0-9][0-9]*: p2p.contention\[[0-9]*\].faster_than_pingpong.to_bytes: expected an integer from 65536 to 1099511627776$" \
    "refused at the field, with the range"
run "$COMMFIT" fit -i "$top_srcdir/data/sim-racks.csv" -o rm.json
expect_rc 0 "sim-racks (MPICH)"
check "sim-racks (MPICH): nothing said" sh -c "! grep -q 'faster than its ping-pong' '$T/err'"
check "sim-racks (MPICH): no faster_than_pingpong in the model file" sh -c '! grep -q faster_than_pingpong rm.json'

done_testing
