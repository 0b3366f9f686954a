# commfit measure under $MPIEXEC -n 2: every pattern (all,loggp; the derived datatypes are
# in measure-ddt.sh) at every size asked, --check on all
# of them, a table that commfit's reader accepts (positive, finite times), full metadata.
. "$top_srcdir/tests/setup.sh"
rt="$top_builddir/tests/mpi/read-table"

run mpirun 2 "$COMMFIT" measure --patterns all,loggp --sizes 0,1,1K,4K --samples 2 --reps 3 --check -o t.csv
expect_rc 0 "every pattern at np 2 with --check"
expect_err "commfit: measure: warning: reduce, allreduce, reduce_scatter: 2 sizes, where commfit fit needs 3 a pattern and np (a collective's 0 B not counted: fit sets it aside where MPI returns at once): fit may skip them unless fitted with a table of other sizes; measure 3 sizes or more (--sizes) to fit this table alone
commfit: measure: reduce, allreduce, reduce_scatter: 1 B holds no whole 4-byte float: not measured for them (as IMB's reductions)
commfit: measure: wrote t.csv (74 rows)
commfit: measure: draw the report with: commfit report -i t.csv" "only rank 0 reports, once"
check "nothing on stdout" test ! -s "$T/out"

run "$rt" t.csv
expect_rc 0 "the table reads back (every time positive and finite, min <= avg <= max)"
cp "$T/out" "$T/rows"
all="pingpong pingping sendrecv exchange bcast scatter scatterv gather gatherv allgather
allgatherv reduce allreduce reduce_scatter alltoall alltoallv loggp_os loggp_or loggp_gap"
for p in $all; do
    for s in 0 1 1024 4096; do
        # A reduction's count is bytes / 4: 1 B holds no float, and is not measured (before:
        # a row at 1 B that reduced nothing, timed as 0 B).
        n=1
        case $p,$s in *reduce*,1) n=0 ;; esac
        check "$p np=2 bytes=$s: $n row" test "$(grep -c "^$p 2 $s " "$T/rows")" -eq $n
    done
done
check "barrier: one row, at 0 bytes" test "$(grep -c '^barrier 2 0 ' "$T/rows")" -eq 1
check "every row: --reps 3, --samples 2, stopped at the sample count" \
    test "$(grep -v '^meta' "$T/rows" | awk '$5 != 3 || $6 != 2 || $8 != "samples"' | wc -l)" -eq 0
check "reductions are float, the rest byte" \
    test "$(grep -v '^meta' "$T/rows" | awk '($1 ~ /reduce/) != ($4 == "float")' | wc -l)" -eq 0
check "bandwidth for the point-to-point patterns only" \
    test "$(grep -v '^meta' "$T/rows" | awk '($1 ~ /^(pingpong|pingping|sendrecv|exchange)$/) != ($7 == "+")' | wc -l)" -eq 0
for k in schema commfit mpi_library mpi_version hosts ranks_per_node cores date \
    timer_resolution_s normalized_time_us oversubscribed launch_np launcher command plan; do
    check "metadata: $k" grep -qx "meta $k" "$T/rows"
done
check "metadata: the launcher the ranks' environment shows (started by mpirun, not commfit)" \
    grep -Eqx "# launcher: (an MPICH-style launcher \(PMI_RANK, PMI_SIZE\)|Open MPI's launcher \(OMPI_COMM_WORLD_\*\))" t.csv
check "metadata: 2 ranks on the node" grep -qx '# ranks_per_node: 2' t.csv
check "metadata: both ranks on host 0" grep -qx '# rank_hosts: 0\*2' t.csv
check "metadata: the command line" \
    grep -qx '# command: commfit measure --patterns all,loggp --sizes 0,1,1K,4K --samples 2 --reps 3 --check -o t.csv' t.csv
check "metadata: the MPI library" grep -q '^# mpi_library: ..*' t.csv
check "metadata: the collectives timed call by call, as IMB" \
    grep -qx '# coll_timing: each call alone, a barrier after it (IMB -sync 1)' t.csv
check "metadata: the root is rank 0, as IMB" grep -qx '# coll_root: rank 0 (IMB -root_shift 0)' t.csv
check "metadata: what reduce_scatter's size means" \
    grep -q '^# reduce_scatter_bytes: each rank.s block' t.csv
check "metadata: t_min and t_max across ranks of each rank's mean, as IMB" \
    grep -qx "# t_min_max: across ranks, of each rank's mean over the samples (IMB)" t.csv
check "metadata: the latency probe, one latency of 0 or more (rank 1's)" \
    grep -Eqx '# rank_latency_us: [0-9]*\.?[0-9]+(e[-+]?[0-9]+)?' t.csv
check "metadata: its spread, a number" grep -Eq '^# rank_latency_spread: [0-9]' t.csv
check "metadata: how it was made" grep -q '^# rank_latency_method: .*20 timed round trips' t.csv
num='[0-9]*\.?[0-9]+(e[-+]?[0-9]+)?'
check "metadata: the sized probe, rank 1's latency at each power of 2 from 256 B to 256 KiB" \
    grep -Eqx "# rank_latency_sized_us: 256:$num;512:$num;1024:$num;2048:$num;4096:$num;8192:$num;16384:$num;32768:$num;65536:$num;131072:$num;262144:$num" t.csv
check "metadata: how the sized probe was made" \
    grep -q '^# rank_latency_sized_method: .*5 timed round trips' t.csv

# How the table was made (commfit-formats(5)): the build, the MPI tuning environment, each
# host's processor, each rank's processors, and after the rows when and how the run ended.
if [ -e "$top_srcdir/.git" ] && command -v git >/dev/null 2>&1; then
    rev=$(cd "$top_srcdir" && git describe --always --dirty)
    check "metadata: the source revision of this build ($rev)" grep -qx "# commfit_revision: $rev" t.csv
else
    check "metadata: the source revision of this build" grep -Eqx '# commfit_revision: [A-Za-z0-9._+/-]+' t.csv
fi
check "metadata: the MPI tuning environment, checked (none or NAME=VALUE;...)" \
    grep -Eqx '# mpi_env: (none|[A-Z][A-Za-z0-9_]*=.*)' t.csv
check "metadata: no rank's environment differs from rank 0's" grep -qx '# mpi_env_differs: none' t.csv
check "metadata: the processor of the one host" grep -Eqx '# cpu_model: [^;]+' t.csv
# Two ranks: two lists of processors, or one for both (a run, "0-1*2": unbound).
c='[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*'
check "metadata: each rank's processors, two ranks" grep -Eqx "# rank_cpus: ($c;$c|$c\\*2)" t.csv
check "metadata: each rank's share of its timed calls on a processor, before the end" \
    sh -c 'tail -n 4 t.csv | head -n 1 | grep -Eqx "# rank_cpu_share: [01]\.[0-9]{2}(\*2|;[01]\.[0-9]{2})"'
check "metadata: the run's end, after the last row" \
    sh -c 'tail -n 3 t.csv | head -n 1 | grep -Eqx "# end: [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z"'
check "metadata: its duration in seconds" \
    sh -c 'tail -n 2 t.csv | head -n 1 | grep -Eqx "# duration_s: [0-9]+\.[0-9]{3}"'
check "metadata: the run went through" sh -c 'tail -n 1 t.csv | grep -qx "# end_reason: complete"'
check "the reader keeps the end lines" grep -qx 'meta end_reason' "$T/rows"

# A tuning variable, escaped (';' and '\' apart), and a rank whose environment differs.
run mpirun 2 env MV2_COMMFIT_TEST='a;b\c=d' MV2_COMMFIT_TEST0=z I_MPI_COMMFIT_TEST=1 MPICH_CC=clang \
    "$COMMFIT" measure -q --patterns pingpong --sizes 4 --samples 1 --reps 2 --no-latency-probe -o env.csv
expect_rc 0 "with two tuning variables set"
# (Open MPI sets OMPI_MCA_ and PSM2_ variables of its own in the ranks: others may follow.)
check "mpi_env: both, sorted by name, separators escaped" \
    grep -Eq '^# mpi_env: (.*;)?I_MPI_COMMFIT_TEST=1;(.*;)?MV2_COMMFIT_TEST=a\\;b\\\\c=d(;|$)' env.csv
check "mpi_env: sorted by the names, MV2_COMMFIT_TEST before MV2_COMMFIT_TEST0" \
    grep -Eq '^# mpi_env: (.*;)?MV2_COMMFIT_TEST=a\\;b\\\\c=d;MV2_COMMFIT_TEST0=z(;|$)' env.csv
check "mpi_env: not MPICH's compiler wrapper's MPICH_CC" \
    eval "! grep -q '^# mpi_env: .*MPICH_CC=' env.csv"
run mpirun 1 "$COMMFIT" measure -q --patterns pingpong --sizes 4 --samples 1 --reps 2 \
    --no-latency-probe -o mpmd.csv : -n 1 env FI_COMMFIT_TEST=1 "$COMMFIT" measure -q \
    --patterns pingpong --sizes 4 --samples 1 --reps 2 --no-latency-probe -o mpmd.csv
expect_rc 0 "rank 1 with a variable rank 0 has not"
check "mpi_env_differs: rank 1" grep -qx '# mpi_env_differs: 1' mpmd.csv

# IMB's -sync 0 and -root_shift 1 as named departures: in the plan, the metadata and --check.
run mpirun 2 "$COMMFIT" measure --patterns bcast,reduce,scatter,gatherv,reduce_scatter,exchange \
    --sizes 0,4,1K --np 2 --samples 1 --reps 3 --check --no-sync --root-shift \
    --no-latency-probe -o m.csv
expect_rc 0 "--no-sync --root-shift with --check"
check "--no-latency-probe: no rank_latency keys" sh -c '! grep -q "^# rank_latency" m.csv'
check "plan: --no-sync --root-shift" grep -q '^# plan: .* --check --no-sync --root-shift$' m.csv
check "metadata: the loop timed whole" grep -q '^# coll_timing: the calls back to back' m.csv
check "metadata: the root moves" grep -q '^# coll_root: round-robin' m.csv
check "header ends with the stop column" grep -q '^pattern,np,bytes,.*,bw_MiBps,stop$' t.csv
if [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
    check "metadata: not oversubscribed" grep -qx '# oversubscribed: no' t.csv
else
    skip "one core: np 2 is oversubscribed"
fi

# The launch size is checked against --np before any traffic, and said once.
run mpirun 2 "$COMMFIT" measure --np 2,4 -o np.csv
expect_rc 2 "np larger than the launch"
expect_err "commfit: measure: --np 4 is larger than the launch (2 processes)
Try 'commfit measure --help'." "np larger than the launch: said once"
check "np larger than the launch: no table" test ! -e np.csv
# The same from a resumed table's plan: the launch's size, not the table, is at fault (the
# plan's other errors are the table's, exit 1; the review).
{ echo "# t_min_max: across ranks, of each rank's mean over the samples (IMB)"
  grep -v -E '^# (simulated|simgrid_version|platform|coll_selector):' "$top_srcdir/data/sim-flat.csv" |
      sed 's/^# plan: .*/# plan: --patterns pingpong,bcast --sizes 4 --np 2,4,64/'; } >np64.csv
run mpirun 2 "$COMMFIT" measure --resume np64.csv
expect_rc 2 "a resumed plan's np larger than the launch"
expect_err "commfit: measure: --np 64 is larger than the launch (2 processes)
Try 'commfit measure --help'." "a resumed plan's np larger than the launch: said as without --resume"

# --max-time caps a point: one sample, one call, stopped by time. 64 KiB, so that a call
# outlasts the 1 us budget under any library (Open MPI's 1 KiB alltoall takes 0.34 us,
# and a second sample would fit).
run mpirun 2 "$COMMFIT" measure --patterns pingpong,alltoall --sizes 64K --max-time 0.000001 -q -o cap.csv
expect_rc 0 "--max-time"
run "$rt" cap.csv
check "--max-time: one call, one sample, stopped by time" \
    test "$(grep -c ' 65536 byte 1 1 . time$' "$T/out")" -eq 2

# --target-ci samples adaptively, between 3 and 100 samples.
# Fewer than 3 only when the time ran out (a loaded machine).
run mpirun 2 "$COMMFIT" measure --patterns pingpong,allreduce --sizes 0,64 --target-ci 50 --reps 20 --max-time 20 -q -o ci.csv
expect_rc 0 "--target-ci"
run "$rt" ci.csv
check "--target-ci: 3 to 100 samples, and why it stopped" \
    test "$(grep -v '^meta' "$T/out" | awk '($6 < 3 && $8 != "time") || $6 > 100 || $8 !~ /^(ci|time|samples)$/' | wc -l)" -eq 0
check "--target-ci: every point" test "$(grep -vc '^meta' "$T/out")" -eq 4
check "--target-ci: in the plan" grep -q '^# plan: .* --target-ci 50' ci.csv

# --off-cache rotates through buffers past the cache; the data still arrives.
run mpirun 2 "$COMMFIT" measure --patterns pingpong,gatherv --sizes 1K --reps 3 --samples 2 --off-cache --check -q -o off.csv
expect_rc 0 "--off-cache with --check"
run "$rt" off.csv
check "--off-cache: rows" test "$(grep -vc '^meta' "$T/out")" -eq 2

done_testing
