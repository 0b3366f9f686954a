# commfit measure --simulate: SimGrid SMPI runs commfit-smpi on the shipped platforms.
# Simulated time is deterministic, so the figures may be asserted; every run is small
# (a few patterns and sizes up to np=16, seconds of wall time).
. "$top_srcdir/tests/setup.sh"
if [ "${HAVE_SMPI:-no}" != yes ]; then
    echo "1..0 # SKIP commfit-smpi not built (no SimGrid: apt-get install libsimgrid-dev)"
    exit 0
fi
rt="$top_builddir/tests/mpi/read-table"
P="$top_srcdir/data/platforms"
rows() { grep -v '^#' "$1"; }
# time PATTERN NP BYTES FILE: t_avg_us of that row.
tavg() { awk -F, -v p="$1" -v n="$2" -v b="$3" '$1 == p && $2 == n && $3 == b { print $9 }' "$4"; }
# lt A B: A < B as numbers.
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }

pats=pingpong,bcast,allreduce,alltoall
run "$COMMFIT" measure --simulate "$P/flat.xml" --patterns $pats --sizes 0,1K,64K,1M \
    --np 2,4,8 -o a.csv
expect_rc 0 "flat cluster, np 2-8"
grep_err "^commfit: measure: wrote a.csv \(40 rows\)$" "says what it wrote"
run "$rt" a.csv
expect_rc 0 "the simulated table reads back"
run "$COMMFIT" measure -q --simulate "$P/flat.xml" --patterns $pats --sizes 0,1K,64K,1M \
    --np 2,4,8 -o b.csv
expect_rc 0 "the same simulation again"
rows a.csv >a.rows
rows b.csv >b.rows
check "two runs give identical rows" cmp -s a.rows b.rows
check "no message under -q" test ! -s "$T/err"

sha=$(sha256sum "$P/flat.xml" | cut -d' ' -f1)
for kv in "simulated: yes" "platform: flat.xml" "platform_sha256: $sha" "coll_selector: mpich" \
    "hostfile: one rank per core, in platform order" "launch_np: 8" "oversubscribed: no" \
    "hosts: node-0,node-1,node-2,node-3,node-4,node-5,node-6,node-7" "cores: 1,1,1,1,1,1,1,1" \
    "host_speed_flops: 1e+10" "timer_resolution_s: 1e-09"; do
    check "metadata '$kv'" grep -qx "# $kv" a.csv
done
check "metadata: the SimGrid version" grep -Eqx '# simgrid_version: [0-9]+\.[0-9]+\.[0-9]+' a.csv
check "metadata: the launcher, smpirun with its size" \
    grep -Eqx '# launcher: [^ ]*smpirun -np 8 \(started by commfit measure\)' a.csv
check "metadata: SMPI is the MPI library" grep -q '^# mpi_library: SMPI' a.csv
# How the table was made: the build and SimGrid's own variables (none here) as on a real
# machine; the processor is the simulator's, labelled so; no binding (one process); the end.
check "metadata: the source revision" grep -Eqx '# commfit_revision: [A-Za-z0-9._+/-]+' a.csv
if env | grep -q '^SMPI_'; then
    skip "an SMPI_ variable is set in this environment"
else
    check "metadata: mpi_env none (no SMPI_ variable set)" grep -qx '# mpi_env: none' a.csv
fi
check "metadata: the simulator's processor, not the simulated hosts'" \
    grep -Eqx '# simulator_cpu: .+' a.csv
for k in cpu_model rank_cpus mpi_env_differs rank_cpu_share; do
    check "metadata: no $k in a simulation" sh -c "! grep -q '^# $k:' a.csv"
done
check "metadata: the end after the rows, complete" \
    sh -c 'tail -n 3 a.csv | tr "\n" " " | grep -Eq "^# end: [0-9T:-]+Z # duration_s: [0-9.]+ # end_reason: complete $"'
run env SMPI_COMMFIT_TEST='x;y' "$COMMFIT" measure -q --simulate "$P/flat.xml" --patterns pingpong \
    --sizes 4 --np 2 -o e.csv
expect_rc 0 "simulated, with an SMPI_ variable"
check "metadata: SimGrid's variables in mpi_env, escaped" \
    grep -qx '# mpi_env: SMPI_COMMFIT_TEST=x\\;y' e.csv
check "metadata: no normalized time (computation is not simulated)" \
    sh -c '! grep -q "^# normalized_time_us" a.csv'
check "few repetitions: 50 for pingpong, 4 for collectives" \
    test "$(awk -F, '/^pingpong/ { print $6 } /^alltoall/ { print $6 }' a.csv | sort -u | tr '\n' ' ')" = "4 50 "

# Simulated figures: the flat network gives each pair the full link, so a pingpong's
# half round trip is the platform's alone, and an alltoall's cost grows with np.
p1m=$(tavg pingpong 2 1048576 a.csv)
check "pingpong 1 MiB: about 1 MiB over a 12.5 GB/s link (80-130 us, got $p1m)" \
    sh -c "awk -v t=$p1m 'BEGIN { exit !(t > 80 && t < 130) }'"
a2=$(tavg alltoall 2 1048576 a.csv)
a8=$(tavg alltoall 8 1048576 a.csv)
check "alltoall 1 MiB: np=8 costs 5-9x np=2 ($a8 vs $a2 us)" \
    sh -c "awk -v a=$a2 -v b=$a8 'BEGIN { r = b / a; exit !(r > 5 && r < 9) }'"
check "bcast grows with size" lt "$(tavg bcast 8 1024 a.csv)" "$(tavg bcast 8 1048576 a.csv)"

# IMB's method by default: each collective call timed alone, a barrier after it; --no-sync
# times the loop whole, so that calls overlap or queue (a small bcast reads lower, a large
# gather higher); the point-to-point patterns are timed alike either way. On the flat
# (symmetric) cluster, moving the root (--root-shift) leaves scatter, gather and reduce
# alone; SMPI's MPICH bcast costs more from a root other than 0.
run "$COMMFIT" measure -q --simulate "$P/flat.xml" --patterns pingpong,bcast,gather,scatter,reduce \
    --sizes 1K,1M --np 2,8 --no-sync -o ns.csv
expect_rc 0 "--no-sync in simulation"
run "$COMMFIT" measure -q --simulate "$P/flat.xml" --patterns pingpong,bcast,gather,scatter,reduce \
    --sizes 1K,1M --np 2,8 --root-shift -o rs.csv
expect_rc 0 "--root-shift in simulation"
run "$COMMFIT" measure -q --simulate "$P/flat.xml" --patterns pingpong,bcast,gather,scatter,reduce \
    --sizes 1K,1M --np 2,8 -o imb.csv
expect_rc 0 "IMB's method in simulation"
check "pingpong: the same with and without --no-sync" \
    test "$(tavg pingpong 2 1048576 ns.csv)" = "$(tavg pingpong 2 1048576 imb.csv)"
check "bcast 1 KiB np 8: lower back to back ($(tavg bcast 8 1024 ns.csv) vs $(tavg bcast 8 1024 imb.csv) us)" \
    lt "$(tavg bcast 8 1024 ns.csv)" "$(tavg bcast 8 1024 imb.csv)"
check "gather 1 MiB np 8: higher back to back ($(tavg gather 8 1048576 ns.csv) vs $(tavg gather 8 1048576 imb.csv) us)" \
    lt "$(tavg gather 8 1048576 imb.csv)" "$(tavg gather 8 1048576 ns.csv)"
for pb in "scatter 1024" "scatter 1048576" "gather 1048576" "reduce 1024" "reduce 1048576"; do
    set -- $pb
    check "$1 $2 np 8: the root's place changes nothing on a symmetric cluster ($(tavg $1 8 $2 rs.csv) vs $(tavg $1 8 $2 imb.csv) us)" \
        sh -c "awk -v a=$(tavg $1 8 $2 rs.csv) -v b=$(tavg $1 8 $2 imb.csv) 'BEGIN { exit !(a / b > 0.999 && a / b < 1.001) }'"
done
check "bcast 1 MiB np 8: SMPI's MPICH bcast costs more from roots other than 0" \
    lt "$(tavg bcast 8 1048576 imb.csv)" "$(tavg bcast 8 1048576 rs.csv)"

# Multi-core nodes: ranks fill a node (8 cores) first; inside it, shared memory is faster
# than the flat cluster's network; np=16 crosses to a second node.
run "$COMMFIT" measure -q --simulate "$P/multicore.xml" --patterns pingpong,alltoall \
    --sizes 1K,1M --np 2,8,16 -o mc.csv
expect_rc 0 "multi-core cluster, np 2-16"
check "16 ranks on two nodes of 8" grep -qx '# ranks_per_node: 8,8' mc.csv
check "8 cores a node" grep -qx '# cores: 8,8' mc.csv
check "ranks in order: 8 on node 0, then 8 on node 1" grep -qx '# rank_hosts: 0\*8,1\*8' mc.csv
check "pingpong inside a node beats the flat network" \
    lt "$(tavg pingpong 2 1048576 mc.csv)" "$p1m"
check "alltoall at np=16 (two nodes, one card each) costs far more than np=8 (one node)" \
    sh -c "awk -v a=$(tavg alltoall 8 1048576 mc.csv) -v b=$(tavg alltoall 16 1048576 mc.csv) 'BEGIN { exit !(b > 4 * a) }'"

# The fat-tree: 8 nodes a leaf, 4:1 uplinks. Inside a leaf it is the flat cluster; across
# leaves an alltoall is bisection-limited.
run "$COMMFIT" measure -q --simulate "$P/fattree.xml" --patterns alltoall --sizes 1M \
    --np 8,16 -o ft.csv
expect_rc 0 "fat-tree, np 8 and 16"
run "$COMMFIT" measure -q --simulate "$P/flat.xml" --patterns alltoall --sizes 1M \
    --np 16 -o f16.csv
check "fat-tree alltoall inside one leaf (np=8) equals the flat cluster's" \
    test "$(tavg alltoall 8 1048576 ft.csv)" = "$a8"
check "fat-tree alltoall across leaves (np=16) is slower than the flat cluster's" \
    sh -c "awk -v f=$(tavg alltoall 16 1048576 f16.csv) -v t=$(tavg alltoall 16 1048576 ft.csv) 'BEGIN { exit !(t > 1.5 * f) }'"

# The selector picks the MPI library's algorithms.
run "$COMMFIT" measure -q --simulate "$P/flat.xml" --coll-selector ompi --patterns bcast \
    --sizes 1M --np 8 -o ompi.csv
expect_rc 0 "--coll-selector ompi"
check "metadata: coll_selector ompi" grep -qx '# coll_selector: ompi' ompi.csv
check "Open MPI's bcast differs from MPICH's" \
    sh -c "test '$(tavg bcast 8 1048576 ompi.csv)' != '$(tavg bcast 8 1048576 a.csv)'"

# --check gives every rank buffers of its own and verifies the data.
run "$COMMFIT" measure -q --simulate "$P/flat.xml" --patterns all --sizes 0,1K --np 2,3 --check \
    -o chk.csv
expect_rc 0 "every pattern with --check, np 2 and 3"
check "every pattern measured" test "$(rows chk.csv | grep -c ,)" -ge 30

# A hostfile places the ranks; two on a single-core node share its links, and no scheduler
# enters a simulation that times no computation: not oversubscribed.
printf 'node-5:2\n# a comment\nnode-9\n' >hosts
run "$COMMFIT" measure -q --simulate "$P/flat.xml" --hostfile hosts --patterns allreduce \
    --sizes 1K --np 3 -o hf.csv
expect_rc 0 "--hostfile"
check "metadata: the hosts of the hostfile" grep -qx '# hosts: node-5,node-9' hf.csv
check "metadata: more ranks than cores, not oversubscribed in a simulation" \
    grep -qx '# oversubscribed: no' hf.csv
check "metadata: the hostfile" grep -qx '# hostfile: hosts' hf.csv
check "metadata: two ranks on node-5, then node-9" grep -qx '# rank_hosts: 0\*2,1' hf.csv
# Many hosts with more ranks than cores: one warning that counts them, not one a host.
printf 'node-1:2\nnode-2:2\nnode-3:2\n' >hosts3
run "$COMMFIT" measure --simulate "$P/flat.xml" --hostfile hosts3 --patterns barrier \
    --sizes 0 --np 2 --launch-np 6 -o hf3.csv
expect_rc 0 "--hostfile, three hosts with more ranks than cores"
grep_err "^commfit: measure: warning: 2 ranks on 'node-1', which has 1 core \\(and 2 more hosts with more ranks than cores\\): a simulation times no computation, so they share its links only \\(not oversubscribed; check the hostfile if that placement was not meant\\)$" \
    "three such hosts: the first named, the others counted"
check "three such hosts: one warning" \
    test "$(grep -c 'not oversubscribed' "$T/err")" -eq 1

# Round-robin placement (a hostfile alternating two 8-core nodes): recorded rank by rank,
# and np=2's ping-pong crosses the network, as the flat cluster's does.
printf 'mc-0\nmc-1\nmc-0\nmc-1\n' >rr.hosts
run "$COMMFIT" measure -q --simulate "$P/multicore.xml" --hostfile rr.hosts \
    --patterns pingpong,allreduce --sizes 1K,1M --np 2,4 -o rr.csv
expect_rc 0 "round-robin hostfile"
check "metadata: rank by rank, alternating" grep -qx '# rank_hosts: 0,1,0,1' rr.csv
check "metadata: two ranks a node" grep -qx '# ranks_per_node: 2,2' rr.csv
check "np=2 across two nodes costs more than inside one" \
    lt "$(tavg pingpong 2 1048576 mc.csv)" "$(tavg pingpong 2 1048576 rr.csv)"

# --resume keeps to the platform it started on.
run "$COMMFIT" measure --resume a.csv
expect_rc 2 "--resume of a simulated table without --simulate"
grep_err "^commfit: measure: a.csv: simulated on 'flat.xml': resume it with --simulate" "names the platform"
run "$COMMFIT" measure --simulate "$P/fattree.xml" --resume a.csv
expect_rc 2 "--resume on another platform"
grep_err "^commfit: measure: a.csv: simulated on another platform \('flat.xml', SHA-256 " "says it differs"
run "$COMMFIT" measure --simulate "$P/flat.xml" --resume a.csv
expect_rc 0 "--resume of a complete table on its platform"
rows a.csv >a2.rows
check "nothing measured again" cmp -s a.rows a2.rows
# A run killed after its last row wrote no end: fit says its run never reached its end and
# names this resume, which finds nothing to measure and marks the table complete, so that
# fit says it no more (and the table is left as it is the next time).
grep -v '^# \(end\|end_reason\|duration_s\|rank_cpu_share\):' a.csv >noend.csv
run "$COMMFIT" fit -i noend.csv -o noend.json
grep_err "noend.csv: its run never reached its end" "a table killed after its last row: fit warns"
rows noend.csv >noend.rows
run "$COMMFIT" measure --simulate "$P/flat.xml" --resume noend.csv
expect_rc 0 "--resume of a table killed after its last row"
expect_err "commfit: measure: noend.csv has every point of its plan: nothing to measure; its run's end was not written (killed after its last row), now marked complete (end_reason)" \
    "killed after its last row: marked complete, said"
rows noend.csv >noend2.rows
check "killed after its last row: its rows as they were" cmp -s noend.rows noend2.rows
check "killed after its last row: the end appended" sh -c 'tail -1 noend.csv | grep -qx "# end_reason: complete"'
run "$COMMFIT" fit -i noend.csv -o noend.json
check "killed after its last row, marked: fit says nothing of its end" sh -c "! grep -q 'its run' '$T/err'"
cp noend.csv noend-before.csv
run "$COMMFIT" measure --simulate "$P/flat.xml" --resume noend.csv
check "marked complete: the next resume leaves it as it is" cmp -s noend-before.csv noend.csv
# A last line cut short is dropped first (it was glued to: '# end: 2026-12-0# end: ...'),
# and a table another measure holds is not written to.
grep -v '^# \(end\|end_reason\|duration_s\|rank_cpu_share\):' a.csv >cut.csv
printf '# end: 2026-12-0' >>cut.csv
run "$COMMFIT" measure --simulate "$P/flat.xml" --resume cut.csv
expect_rc 0 "--resume of a table whose end was cut short"
check "a cut end: dropped, the end written whole" \
    sh -c '! grep -q "2026-12-0#" cut.csv && tail -2 cut.csv | head -1 | grep -Eq "^# end: [0-9]{4}-[0-9]{2}-[0-9]{2}T"'
grep -v '^# \(end\|end_reason\|duration_s\|rank_cpu_share\):' a.csv >held.csv
cp held.csv held-before.csv
flock held.csv sleep 30 &
holder=$!
sleep 1
run "$COMMFIT" measure --simulate "$P/flat.xml" --resume held.csv
kill $holder 2>/dev/null || true
wait $holder 2>/dev/null || true
expect_rc 1 "--resume of a whole table another measure holds"
grep_err "held.csv: another commfit measure is writing this table" "a held table: said"
check "a held table: not written to" cmp -s held-before.csv held.csv
# ... and to its placement: another hostfile would put the rows added on other hosts (a
# round-robin over two racks made an allreduce of 4 B at np 2 40 times slower), with nothing
# to tell them apart. Compared rank by rank (hosts, rank_hosts), not by the file's name: the
# same file by another name, a copy, or one listing the platform's own order places them
# alike; a relative name from another folder may not.
printf 'node-%d\n' 1 0 2 3 4 5 6 7 >swap.hosts
run "$COMMFIT" measure --simulate "$P/flat.xml" --hostfile swap.hosts --resume a.csv
expect_rc 2 "--resume with a hostfile that places the ranks otherwise"
expect_err "commfit: measure: a.csv: its rank 0 ran on 'node-0' (hostfile: one rank per core, in platform order) and would run on 'node-1' (--hostfile swap.hosts): its rows would mix two placements; resume it with a hostfile that places its ranks as before" \
    "another placement: refused, the rank and both hosts named"
run "$COMMFIT" measure --simulate "$P/multicore.xml" --resume rr.csv
expect_rc 2 "--resume without the hostfile the table was measured with"
grep_err "^commfit: measure: rr.csv: its rank 1 ran on 'mc-1' \\(hostfile: rr.hosts\\) and would run on 'mc-0' \\(no --hostfile: one rank per core, in platform order\\): " \
    "the hostfile left out: refused"
run "$COMMFIT" measure --simulate "$P/multicore.xml" --hostfile ./rr.hosts --resume rr.csv
expect_rc 0 "--resume with the same hostfile by another name"
cp rr.hosts rr-copy.hosts
grep -v '^# \(end\|end_reason\|duration_s\|rank_cpu_share\):' rr.csv | sed '$d' >rr2.csv
run "$COMMFIT" measure --simulate "$P/multicore.xml" --hostfile rr-copy.hosts --resume rr2.csv
expect_rc 0 "--resume with a copy of the hostfile"
printf 'node-%d\n' 0 1 2 3 4 5 6 7 >order.hosts
grep -v '^# \(end\|end_reason\|duration_s\|rank_cpu_share\):' a.csv | sed '$d' >a3.csv
run "$COMMFIT" measure --simulate "$P/flat.xml" --hostfile order.hosts --resume a3.csv
expect_rc 0 "--resume with a hostfile listing the platform's own order"

# A failed simulation with the table to standard output leaves nothing there: smpirun's own
# "Execution failed with code 134." went into the table's stream (a new-user session); a
# table written there is whole and reads back.
printf '<?xml version="1.0"?>\n<platform version="4.1">\n<zone id="z" routing="Full">\n<host id="h0" speed="1Gf" bogus="1"/>\n<host id="h1" speed="1Gf"/>\n</zone>\n</platform>\n' >bogus.xml
"$COMMFIT" measure --simulate bogus.xml --patterns pingpong --sizes 1K -o - -q >bogus.out 2>bogus.err || true
check "a failed simulation to standard output: nothing written there" test ! -s bogus.out
check "a failed simulation to standard output: smpirun's words on the standard error" \
    grep -q 'Execution failed with code' bogus.err
"$COMMFIT" measure --simulate "$P/flat.xml" --np 2 --patterns pingpong --sizes 1,1K,64K -o - -q \
    >tostdout.csv 2>tostdout.err
check "a simulation to standard output: its 3 rows there" test "$(grep -c '^pingpong,' tostdout.csv)" -eq 3
run "$COMMFIT" fit -q -i tostdout.csv -o tostdout.json
expect_rc 0 "a simulation to standard output: the table fits"
# /dev/stdout is the standard output too; a closed one is refused (SimGrid's shared memory
# took descriptor 1 and the table went there, exit 0).
"$COMMFIT" measure --simulate bogus.xml --patterns pingpong --sizes 1K -o /dev/stdout -q \
    >bogus2.out 2>/dev/null || true
check "a failed simulation to /dev/stdout: nothing written there" test ! -s bogus2.out
"$COMMFIT" measure --simulate "$P/flat.xml" --np 2 --patterns pingpong --sizes 1,1K,64K \
    -o /dev/stdout -q >devstdout.csv
check "a simulation to /dev/stdout: its 3 rows there" test "$(grep -c '^pingpong,' devstdout.csv)" -eq 3
run sh -c "'$COMMFIT' measure --simulate '$P/flat.xml' --np 2 --patterns pingpong --sizes 1,1K -o - >&-"
expect_rc 1 "a simulation to a closed standard output"
grep_err "^commfit: measure: -o -: the standard output is closed, nowhere to write the table\$" \
    "a closed standard output: refused, said"

# The reader of the table's stream gone (-o - | head -1): SIGPIPE, said as such, not a failed
# simulation ("smpirun exit status 141").
{ "$COMMFIT" measure --simulate "$P/flat.xml" --np 2,4,8 --patterns pingpong,alltoall --sizes 1:4M -o - \
    2>sigpipe.err | head -1 >/dev/null; } || true
check "the table's reader gone: SIGPIPE said, not a failure" \
    grep -q "^commfit: measure: the simulation ended by SIGPIPE: what read its output closed it first; the rows finished before went to standard output\$" sigpipe.err

# --progress to a log (the standard error a file): a line a point, not one line redrawn
# with carriage returns.
run "$COMMFIT" measure --simulate "$P/flat.xml" --np 2,4 --patterns pingpong,bcast --sizes 1,1K,64K \
    --progress -o progress.csv
expect_rc 0 "--progress to a file"
check "--progress to a file: a line for each of the 9 points" \
    test "$(grep -c '^commfit: measure: [a-z]* np=[0-9]* .*\[[0-9]/9\]' "$T/err")" -eq 9
check "--progress to a file: no carriage return" sh -c "! grep -q \"\$(printf '\\r')\" '$T/err'"

# Bad input: a clear message, the file and line or the value, and no table left behind.
bad() {
    want_rc=$1 desc=$2 re=$3
    shift 3
    run "$COMMFIT" measure "$@" -o bad.csv
    expect_rc "$want_rc" "$desc"
    grep_err "$re" "$desc: message"
    check "$desc: no table" test ! -e bad.csv
}
printf '<?xml version="1.0"?>\n<platform version="4.1">\n  <cluster id="c" prefix="n" radical="0-3">\n</platform>\n' >unclosed.xml
printf '<?xml version="1.0"?>\n<!-- hosts -->\n<zone id="z">\n</zone>\n' >notplat.xml
printf '<platform version="4.1">\n  <zone id="z" routing="Full">\n  </zone>\n</platform>\n' >nohost.xml
printf '<platform version="4.1">\n  <cluster id="c" prefix="n" radical="0-x"/>\n</platform>\n' >radical.xml
printf 'node-0\nnode-1\n' >two
printf 'node-0\nnowhere\n' >unknown
bad 1 "a missing platform" "^commfit: measure: missing.xml: cannot open the platform: No such file" \
    --simulate missing.xml
bad 1 "an element never closed" "^commfit: measure: unclosed.xml:4: '</platform>' closes <cluster> of line 3$" \
    --simulate unclosed.xml
bad 1 "not a platform" "^commfit: measure: notplat.xml:3: expected <platform>, found <zone>" \
    --simulate notplat.xml
bad 1 "a platform without hosts" "^commfit: measure: nohost.xml: declares no host" --simulate nohost.xml
bad 1 "a bad radical" "^commfit: measure: radical.xml:2: radical=\"0-x\"" --simulate radical.xml
# A misspelled element: SimGrid said "Unexpected character \`<'" (a link) or commfit "declares
# no host" (a cluster), neither naming the element; now its line, and the name it is near.
sed 's/<cluster /<clustr /' "$P/flat.xml" >clustr.xml
bad 1 "a misspelled cluster" \
    "^commfit: measure: clustr.xml:11: <clustr>: not an element of SimGrid's platforms: did you mean <cluster>$" \
    --simulate clustr.xml
# <include>: hosts in another file. commfit counted the including file's hosts alone (--np
# beyond them refused for too few cores; within them, smpirun started and SimGrid 3.32
# aborted: "<include> tag was removed in SimGrid v3.18", naming no file or line, exit 1).
mkdir -p inc
printf '<platform version="4.1">\n  <host id="h2" speed="1Gf"/>\n  <host id="h3" speed="1Gf"/>\n</platform>\n' >inc/hosts.xml
printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n  <zone id="z" routing="Full">\n    <host id="h0" speed="1Gf"/>\n    <host id="h1" speed="1Gf"/>\n    <include file="hosts.xml"/>\n    <link id="l" bandwidth="1GBps" latency="1us"/>\n    <route src="h0" dst="h1"><link_ctn id="l"/></route>\n  </zone>\n</platform>\n' >inc/main.xml
for np in 2 4; do
    bad 1 "a platform that includes another, at --np $np" \
        "^commfit: measure: inc/main.xml:7: <include file=\"hosts.xml\">: SimGrid removed <include> in version 3.18 \(its simulator aborts on it\): copy the elements of 'hosts.xml' into this file$" \
        --simulate inc/main.xml --np $np --patterns bcast --sizes 1K
done
printf '<platform version="4.1">\n  <cluster id="c" prefix="n" radical="0-3" speed="1Gf" bw="1GBps" lat="1us"/>\n  text\n</platform>\n' >text.xml
bad 1 "text inside <platform>" "^commfit: measure: text.xml:3: text 'text' inside <platform>" \
    --simulate text.xml
bad 2 "an unknown selector" "^commfit: measure: --coll-selector 'mvapich': expected one of mpich, ompi" \
    --simulate "$P/flat.xml" --coll-selector mvapich
bad 2 "Open MPI by configure's name" "^commfit: measure: --coll-selector 'openmpi': expected one of mpich, ompi, .* \(SimGrid names Open MPI's selector 'ompi'\)$" \
    --simulate "$P/flat.xml" --coll-selector openmpi
bad 2 "more ranks than the platform's cores" "^commfit: measure: --np 300: the platform '.*flat.xml' has 256 cores" \
    --simulate "$P/flat.xml" --patterns allreduce --np 300
bad 2 "a hostfile with fewer ranks" "^commfit: measure: two: the hostfile places 2 ranks, fewer than the 4 to simulate$" \
    --simulate "$P/flat.xml" --np 4 --hostfile two
bad 1 "a hostfile host not in the platform" "^commfit: measure: unknown:2: host 'nowhere' is not in the platform$" \
    --simulate "$P/flat.xml" --np 2 --hostfile unknown
bad 2 "alltoall of 32 KiB at np=3 under SMPI's mpich selector" "^commfit: measure: --simulate: SMPI's mpich selector runs alltoall of 32 KiB and more with its pairwise algorithm, which aborts at np=3" \
    --simulate "$P/flat.xml" --patterns alltoall --sizes 16K,32K --np 2,3
bad 2 "an empty allreduce under SMPI's ompi selector (it dies of SIGFPE)" "^commfit: measure: --simulate: SMPI's ompi selector dies \\(SIGFPE\\) on an empty allreduce \\(2 bytes, no element; bcast needs 1 byte, reduce and allreduce a 4-byte float\\): start --sizes at 4 or leave allreduce out$" \
    --simulate "$P/flat.xml" --coll-selector ompi --patterns pingpong,allreduce --sizes 2,4 --np 2
bad 2 "an empty bcast under SMPI's ompi selector" "^commfit: measure: --simulate: SMPI's ompi selector dies \\(SIGFPE\\) on an empty bcast \\(0 bytes, no element; .*\\): start --sizes at 1 or leave bcast out$" \
    --simulate "$P/flat.xml" --coll-selector ompi --patterns bcast --sizes 0,4 --np 2
bad 2 "an empty allreduce of 1 byte: 'byte'" "^commfit: measure: --simulate: SMPI's ompi selector dies \\(SIGFPE\\) on an empty allreduce \\(1 byte, no element; " \
    --simulate "$P/flat.xml" --coll-selector ompi --patterns allreduce --sizes 1,4
# every pattern it refuses in one message, the size that suits them all (a new user was
# refused bcast at 0 B, then reduce at 1 B)
bad 2 "an empty bcast and reduce under SMPI's ompi selector" "^commfit: measure: --simulate: SMPI's ompi selector dies \\(SIGFPE\\) on an empty bcast, reduce \\(0 bytes, no element; bcast needs 1 byte, reduce and allreduce a 4-byte float\\): start --sizes at 4 or leave them out$" \
    --simulate "$P/flat.xml" --coll-selector ompi --patterns bcast,reduce --sizes 0,4 --np 2
run "$COMMFIT" measure -q --simulate "$P/flat.xml" --coll-selector ompi --patterns bcast,allreduce \
    --np 2 --reps 2 -o ompi-default.csv
expect_rc 0 "the ompi selector's default sizes"
check "the ompi selector's default sizes start at 4 bytes" \
    grep -q '^# plan: --patterns bcast,allreduce --sizes 4,8,16,' ompi-default.csv
bad 2 "--hostfile without --simulate" "^commfit: measure: --hostfile goes with --simulate PLATFORM$" \
    --hostfile two
bad 2 "--launch-np without --simulate" \
    "^commfit: measure: --launch-np goes with --simulate PLATFORM \(a real launch's size is the launcher's: mpiexec -n N\)$" \
    --launch-np 8
bad 2 "--launcher with --simulate" "^commfit: measure: --simulate runs under SimGrid's smpirun" \
    --simulate "$P/flat.xml" --launcher mpiexec
COMMFIT_SMPIRUN=/nonexistent/smpirun
export COMMFIT_SMPIRUN
bad 1 "smpirun missing" "^commfit: measure: SimGrid's launcher '/nonexistent/smpirun' is not found: install it with 'apt-get install libsimgrid-dev'" \
    --simulate "$P/flat.xml" --np 2
unset COMMFIT_SMPIRUN
COMMFIT_SMPI=/nonexistent/commfit-smpi
export COMMFIT_SMPI
bad 1 "commfit-smpi missing" "^commfit: measure: --simulate needs commfit-smpi: not found at '/nonexistent/commfit-smpi' \(named by COMMFIT_SMPI\)$" \
    --simulate "$P/flat.xml" --np 2
unset COMMFIT_SMPI
# Not beside commfit-mpi, where it was built: said where it was looked for, not that
# configure must find SimGrid (it did).
mkdir mpi-alone
cp "$top_builddir/commfit-mpi" mpi-alone/commfit-mpi
COMMFIT_MPI=$PWD/mpi-alone/commfit-mpi run "$COMMFIT" measure --simulate "$P/flat.xml" --np 2
expect_rc 1 "commfit-smpi not beside commfit-mpi"
grep_err "^commfit: measure: --simulate needs commfit-smpi: not found at '.*/commfit-smpi' \(it goes beside commfit-mpi; or set COMMFIT_SMPI\)$" \
    "commfit-smpi not beside commfit-mpi: where it was looked for"
run "$COMMFIT" measure --simulate "$P/flat.xml" --np 2 -o 'my table.csv'
expect_rc 2 "an argument with a blank"
grep_err "smpirun splits arguments at blanks and expands wildcards, so 'my table.csv' cannot reach" \
    "an argument with a blank: message"

# two_hosts FILE A_ATTRS B_ID: a platform of hosts "a" (its attributes after the id as
# given) and B_ID (1 Gflop/s), one link between them.
two_hosts() {
    cat >"$1" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a"$2/>
    <host id="$3" speed="1Gf"/>
    <link id="l" bandwidth="1GBps" latency="1us"/>
    <route src="a" dst="$3"><link_ctn id="l"/></route>
  </zone>
</platform>
XML
}

# SimGrid failing before any row (a host without a speed): no table exists, and the
# message says none was begun (it said "the rows finished before are in the table").
two_hosts nospeed.xml "" b
sed 's/<link /<lnik /' nospeed.xml >lnik.xml
bad 1 "a misspelled link" \
    "^commfit: measure: lnik.xml:7: <lnik>: not an element of SimGrid's platforms: did you mean <link>$" \
    --simulate lnik.xml --np 2
run "$COMMFIT" measure --simulate nospeed.xml --np 2 --patterns pingpong --sizes 0:1K -o nospeed.csv
expect_rc 1 "a platform SimGrid refuses at its start"
grep_err "^commfit: measure: the simulation failed \(smpirun exit status [0-9]+, its messages above\); no table was begun$" \
    "a platform SimGrid refuses at its start: no table claimed"
check "a platform SimGrid refuses at its start: no table" test ! -e nospeed.csv

# A hostfile with several hosts on a line (SimGrid's takes one): the words after the first
# were dropped without a word; a rank count past any launch overflowed the sum (-2 ranks).
printf 'node-0 node-1 node-2 node-3\n' >words.hosts
run "$COMMFIT" measure --simulate "$P/flat.xml" --hostfile words.hosts --np 4 --patterns bcast --sizes 0 -o w.csv
expect_rc 1 "a hostfile line of four hosts"
grep_err "^commfit: measure: words.hosts:1: 'node-0 node-1 node-2 node-3': expected one HOST or HOST:RANKS a line$" \
    "a hostfile line of four hosts: said"
printf 'node-0:9223372036854775807\nnode-0:9223372036854775807\n' >huge.hosts
run "$COMMFIT" measure --simulate "$P/flat.xml" --hostfile huge.hosts --np 4 --patterns bcast --sizes 0 -o w.csv
expect_rc 1 "a hostfile rank count past any launch"
grep_err "^commfit: measure: huge.hosts:1: 'node-0:9223372036854775807': expected HOST or HOST:RANKS, RANKS from 1 to 16777216$" \
    "a hostfile rank count past any launch: said"

# A host name with a comma would read as two in the table's hosts list.
two_hosts comma.xml ' speed="1Gf"' "b,c"
run "$COMMFIT" measure --simulate comma.xml --np 2 --patterns pingpong --sizes 0 -o comma.csv
expect_rc 1 "a host name with a comma"
grep_err "^commfit: measure: comma.xml:6: <host id=\"b,c\">: a host name without commas or blanks" \
    "a host name with a comma: file:line"
check "a host name with a comma: no table" test ! -e comma.csv

# The progress line counts wall time: over a 1 kB/s link a ping-pong of 16 KiB takes 24
# simulated seconds, and the line said "5183s elapsed, ~10367s left" at the second point
# (MPI_Wtime, the simulated clock) of a launch of a fraction of a wall second.
sed 's/bandwidth="1GBps" latency="1us"/bandwidth="1kBps" latency="1ms"/' <<XML >slow.xml
$(two_hosts /dev/stdout ' speed="1Gf"' b)
XML
run "$COMMFIT" measure --simulate slow.xml --np 2 --patterns pingpong --sizes 16K,32K,64K \
    --no-latency-probe --progress -o slow.csv
expect_rc 0 "a slow link, with --progress"
sim_s=$(rows slow.csv | awk -F, 'NR > 1 { s += $9 * $6 * $7 / 1e6 } END { printf "%d", s }')
el=$(tr '\r' '\n' <"$T/err" | sed -n 's/.*\[2\/3\]  \([0-9]*\)s elapsed.*/\1/p')
check "a slow link: $sim_s simulated seconds timed" lt 1000 "$sim_s"
check "a slow link: the progress line counts wall seconds ($el at the second point)" \
    lt "${el:-99999}" 100

# Two sizes: fit cannot read them (every model needs 3), said before the simulation starts.
run "$COMMFIT" measure --simulate "$P/flat.xml" --np 2,4 --patterns allreduce --sizes 8,64K -o two.csv
expect_rc 0 "two sizes, simulated"
check "two sizes, simulated: said first, before the launch" \
    sh -c "head -1 '$T/err' | grep -q '^commfit: measure: warning: allreduce: 2 sizes, where commfit fit needs 3 a pattern and np'"
check "two sizes, simulated: said once" test "$(grep -c 'commfit fit needs 3' "$T/err")" -eq 1

# A simulation that fails in the middle of a point is said with that point, and that a
# resume fails there again (SimGrid 3.32 aborts on Open MPI's alltoall at np 128 on a new
# user's dragonfly): a stand-in smpirun runs the configured one, then takes rank 0's end out
# of its report and exits 139, as a simulator that crashed.
smpirun=$(sed -n 's/^#define CF_SMPIRUN "\(.*\)"$/\1/p' "$top_builddir/config.h")
printf '#!/bin/sh\n"%s" "$@" || exit\nsed -i "/^end /d" "$COMMFIT_LAUNCH_REPORT"\nexit 139\n' \
    "$smpirun" >"$T/crashing-smpirun"
chmod +x "$T/crashing-smpirun"
run env COMMFIT_SMPIRUN="$T/crashing-smpirun" "$COMMFIT" measure -q --simulate "$P/flat.xml" \
    --patterns pingpong,alltoall --sizes 1K,2K,4K --np 2 -o crash.csv
expect_rc 1 "a simulation that crashed"
grep_err "^commfit: measure: the simulation failed \(smpirun exit status 139, its messages above\); the rows finished before are in crash.csv \(--simulate .*flat.xml --resume crash.csv goes on\)$" \
    "a failure after the last row was written: no point named (the second review: it named the last one, whose row was in)"
# The same, its last row taken out as the simulator died before writing it: that point.
printf '#!/bin/sh\n"%s" "$@" || exit\nsed -i "/^end /d" "$COMMFIT_LAUNCH_REPORT"\nsed -i "\\$d" "$COMMFIT_LAUNCH_REPORT"\nexit 139\n' \
    "$smpirun" >"$T/crashing-smpirun"
run env COMMFIT_SMPIRUN="$T/crashing-smpirun" "$COMMFIT" measure -q --simulate "$P/flat.xml" \
    --patterns pingpong,alltoall --sizes 1K,2K,4K --np 2 -o crash2.csv
expect_rc 1 "a simulation that crashed in its last point"
grep_err "^commfit: measure: the simulation failed during alltoall np=2 bytes=4096 \(smpirun exit status 139, its messages above\): a simulation runs the same each time, so --resume, which runs the table's plan, fails there again; the rows finished before are in crash2.csv: measure what is left without that point into another table \(--patterns, --np, --sizes\)$" \
    "the simulation's failure in a point: said with it, and not to resume"

done_testing
