# A plain 'commfit measure' starts itself under the configured launcher, one rank per
# core (at least 2), and writes data/HOST-DATE.csv under the current folder.
. "$top_srcdir/tests/setup.sh"
rt="$top_builddir/tests/mpi/read-table"
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
n=$(getconf _NPROCESSORS_ONLN)
[ "$n" -lt 2 ] && n=2

run timeout 300 "$COMMFIT" measure --sizes 0:1K --np 2 --samples 2 --reps 3
expect_rc 0 "plain commfit measure"
files=$(ls data/*.csv 2>/dev/null | wc -l)
check "one table in data/" test "$files" -eq 1
f=$(ls data/*.csv | head -1)
check "named data/HOST-YYYYmmdd-HHMMSS.csv" \
    sh -c "basename '$f' | grep -Eq '^[^/]+-[0-9]{8}-[0-9]{6}\.csv$'"
expect_err "commfit: measure: reduce, allreduce, reduce_scatter: 1 B, 2 B hold no whole 4-byte float: not measured for them (as IMB's reductions)
commfit: measure: wrote $f (804 rows)
commfit: measure: draw the report with: commfit report -i $f" "says which file it wrote"
check "launched $n ranks" grep -qx "# launch_np: $n" "$f"
check "the launcher it started, with its size, recorded" \
    grep -Eqx "# launcher: [^ ]*mpiexec[.a-z]* -n $n \(started by commfit measure\)" "$f"
run "$rt" "$f"
expect_rc 0 "the table reads back"
check "20 patterns" test "$(grep -v '^meta' "$T/out" | awk '{print $1}' | sort -u | wc -l)" -eq 20

# A launcher of another MPI library starts each process as an MPI job of one (Open MPI's
# mpiexec starting an MPICH build: two tables of np=1 rows written over each other, exit 0).
# A stand-in that starts one process of the two asked for is such a launcher. (MPICH's
# singletons start here at once; Open MPI's want its daemon.)
if grep -q 'CF_MPI_LIBRARY "mpich"' "$top_builddir/config.h"; then
    printf '#!/bin/sh\nshift 2\nexec "$@"\n' >"$T/one-job-launcher"
    chmod +x "$T/one-job-launcher"
    run timeout 120 "$COMMFIT" measure --launcher "$T/one-job-launcher" --patterns allreduce --sizes 1K -o one.csv
    expect_rc 1 "a launcher of another MPI library"
    grep_err "the launcher was asked for 2 processes \(.*one-job-launcher -n 2\) but this MPI job has 1: it is not of the MPI library commfit is built with" \
        "a launcher of another MPI library: said"
    check "a launcher of another MPI library: no table" test ! -e one.csv
    # Started by hand under it: Open MPI's launcher's variables say 2, the job has 1 (before:
    # each process measured np=1 and wrote the table, exit 0).
    OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 run timeout 120 "$COMMFIT" measure \
        --patterns allreduce --sizes 1K -o byhand.csv
    expect_rc 1 "started by hand by another library's launcher"
    grep_err "the launcher \(openmpi's variables\) started 2 processes but this MPI job has 1: it is not of the MPI library commfit is built with" \
        "started by hand by another library's launcher: said"
    check "started by hand by another library's launcher: no table" test ! -e byhand.csv
else
    skip "a launcher of another MPI library (the stand-in's singleton wants MPICH)"
fi

# A launch that dies in the middle of a point is said with that point: rank 0 reports each
# point it begins to the front, and "-" once its row is written. A stand-in launcher runs
# the configured one, then takes rank 0's end and its last "-" out of that report and exits
# 137, as a launcher whose rank was killed before the last row was written.
launcher=$(sed -n 's/^#define CF_MPIEXEC "\(.*\)"$/\1/p' "$top_builddir/config.h")
printf '#!/bin/sh\n"%s" "$@" || exit\ncp "$COMMFIT_LAUNCH_REPORT" "%s/report.txt"\nsed -i "/^end /d" "$COMMFIT_LAUNCH_REPORT"\nsed -i "\\$d" "$COMMFIT_LAUNCH_REPORT"\nexit 137\n' \
    "$launcher" "$T" >"$T/dying-launcher"
chmod +x "$T/dying-launcher"
run timeout 120 "$COMMFIT" measure --launcher "$T/dying-launcher" --np 2 \
    --patterns pingpong,allreduce --sizes 1K,2K --samples 2 --reps 3 -o dying.csv
expect_rc 1 "a launcher that died"
check "rank 0 reported each point it began, and each row written" \
    test "$(grep -c '^point [a-z]' "$T/report.txt")" -eq 4 -a "$(grep -c '^point -$' "$T/report.txt")" -eq 4
check "the last of them allreduce of 2 KiB at np 2" \
    grep -qx 'point allreduce np=2 bytes=2048' "$T/report.txt"
grep_err "exited with status 137 during allreduce np=2 bytes=2048, not commfit's \(a rank died, or the launcher failed: its messages above\); the rows finished before are in dying.csv" \
    "the launcher's death: said with the point"

# Open MPI's launcher run as root without its two variables starts nothing and exits 1:
# said, with the variables (a new user saw only the status). A stand-in named as Debian's.
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$T/ompi"
    printf '#!/bin/sh\necho "mpirun has detected an attempt to run as root." >&2\nexit 1\n' >"$T/ompi/mpiexec.openmpi"
    chmod +x "$T/ompi/mpiexec.openmpi"
    run env -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM timeout 60 \
        "$COMMFIT" measure --launcher "$T/ompi/mpiexec.openmpi" --np 2 --patterns pingpong \
        --sizes 1K -o root.csv
    expect_rc 1 "Open MPI's launcher as root, without its variables"
    grep_err "exited with status 1 before a commfit rank reached its end \(their messages above, if any\) \(as root, Open MPI's launcher starts nothing unless OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 are set\)" \
        "names the two variables"
    run env -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_ALLOW_RUN_AS_ROOT=1 timeout 60 \
        "$COMMFIT" measure --launcher "$T/ompi/mpiexec.openmpi" --np 2 --patterns pingpong \
        --sizes 1K -o root.csv
    check "one of the two set: still named" grep -q "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 are set" "$T/err"
    run env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 60 \
        "$COMMFIT" measure --launcher "$T/ompi/mpiexec.openmpi" --np 2 --patterns pingpong \
        --sizes 1K -o root.csv
    check "with them set, not named" sh -c "! grep -q 'OMPI_ALLOW_RUN_AS_ROOT' '$T/err'"
fi

# More ranks than cores, all on this node: one warning, before the launch, with what to do
# instead; rank 0 no longer says it again once the ranks have started. With --oversubscribe
# the front says nothing and the ranks' warning is the one.
unset HYDRA_HOST_FILE I_MPI_HYDRA_HOST_FILE OMPI_MCA_orte_default_hostfile \
    PRTE_MCA_prte_default_hostfile SLURM_JOB_ID SLURM_JOB_NUM_NODES PBS_NODEFILE \
    LSB_DJOB_HOSTFILE PE_HOSTFILE COBALT_NODEFILE
cores=$(getconf _NPROCESSORS_ONLN)
big=$((cores + 1))
run timeout 300 "$COMMFIT" measure --np $big --patterns allreduce --sizes 1K --samples 2 \
    --reps 3 -q -o crowd.csv
expect_rc 0 "--np $big on $cores cores"
check "--np $big on $cores cores: warned once ($(grep -c 'oversubscribed' "$T/err"))" \
    test "$(grep -c 'oversubscribed' "$T/err")" -eq 1
grep_err "^commfit: measure: warning: starting $big ranks on this node, which has $cores cores?: .*\(oversubscribed\); to spread them over nodes" \
    "--np $big on $cores cores: the warning before the launch"
check "--np $big on $cores cores: oversubscribed: yes in the metadata" \
    grep -qx '# oversubscribed: yes' crowd.csv
run timeout 300 "$COMMFIT" measure --np $big --patterns allreduce --sizes 1K --samples 2 \
    --reps 3 -q -o crowd2.csv --oversubscribe
expect_rc 0 "--np $big --oversubscribe"
check "--np $big --oversubscribe: warned once ($(grep -c 'oversubscribed' "$T/err"))" \
    test "$(grep -c 'oversubscribed' "$T/err")" -eq 1
grep_err "^commfit: measure: warning: $big ranks on '.*', which has $cores cores?: the timings measure the scheduler too \(oversubscribed\)$" \
    "--np $big --oversubscribe: the ranks' warning"

done_testing
