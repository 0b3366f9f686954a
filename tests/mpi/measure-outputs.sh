# Issue 19, measure's part: its table is locked while it is written, a device or other
# non-regular -o is never deleted, an interrupted run says what it kept even under -q and
# exits 1 whatever the launcher says, and --resume records how the rows it adds were run.
. "$top_srcdir/tests/setup.sh"
lacks() { ! grep -q "$@"; }
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
cores=$(getconf _NPROCESSORS_ONLN)

# A second writer on a table is refused, and the table is left as it was.
if command -v flock >/dev/null 2>&1; then
    echo "someone's rows" >locked.csv
    # The holder's sleep keeps no descriptor of the test's output (the harness would wait
    # for it) and is killed with flock: the test does not wait out its 60 s.
    flock locked.csv sh -c 'echo $$ >holder.pid; exec sleep 60' </dev/null >/dev/null 2>&1 &
    holder=$!
    i=0
    while [ ! -s holder.pid ] && [ "$i" -lt 100 ]; do # time for flock to take the lock
        sleep 0.1
        i=$((i + 1))
    done
    run mpirun 2 "$COMMFIT" measure --patterns pingpong --sizes 0 --samples 2 --reps 3 -o locked.csv
    expect_rc 1 "measure -o a table another writer holds"
    expect_err "commfit: measure: locked.csv: another commfit measure is writing this table: wait for it to end, or write elsewhere with -o" \
        "measure -o a locked table"
    check "the locked table is untouched" test "$(cat locked.csv)" = "someone's rows"
    kill "$(cat holder.pid)" "$holder" 2>/dev/null || true
    wait "$holder" 2>/dev/null || true
else
    skip "flock(1) is not installed: the lock is not tested"
fi

# -o - is the standard output; no file named '-'.
run mpirun 2 "$COMMFIT" measure --patterns pingpong --sizes 0,1 --samples 2 --reps 3 -o -
expect_rc 0 "measure -o -"
check "measure -o -: the table on stdout" test "$(grep -c '^pingpong,2,' "$T/out")" -eq 2
check "measure -o -: no file named '-'" test ! -e ./-
expect_err "commfit: measure: warning: pingpong: 2 sizes, where commfit fit needs 3 a pattern and np (a collective's 0 B not counted: fit sets it aside where MPI returns at once): fit may skip them unless fitted with a table of other sizes; measure 3 sizes or more (--sizes) to fit this table alone
commfit: measure: wrote the table to standard output (2 rows)" "measure -o -"

# Two sizes are a range fit cannot read (every model needs 3): said once, before the launch
# (by this commfit, which starts it; under a launcher, by rank 0, as above). A collective's
# 0 B is a no-op fit sets aside; one size is a point measured for itself.
run "$COMMFIT" measure --np 2 --patterns bcast,pingpong --sizes 0,8,1K --samples 2 --reps 3 -o few.csv
expect_rc 0 "bcast at 0, 8 and 1K"
expect_err "commfit: measure: warning: bcast: 2 sizes, where commfit fit needs 3 a pattern and np (a collective's 0 B not counted: fit sets it aside where MPI returns at once): fit may skip them unless fitted with a table of other sizes; measure 3 sizes or more (--sizes) to fit this table alone
commfit: measure: wrote few.csv (6 rows)
commfit: measure: draw the report with: commfit report -i few.csv" "bcast at 0, 8 and 1K: said once, before the launch"
run "$COMMFIT" measure -q --np 2 --patterns bcast --sizes 8,1K --samples 2 --reps 3 -o few.csv
check "two sizes, -q: a warning, still said once (-q keeps warnings)" \
    test "$(grep -c 'commfit fit needs 3' "$T/err")" -eq 1 -a "$(wc -l <"$T/err")" -eq 1
run "$COMMFIT" measure --np 2 --patterns bcast --sizes 1K --samples 2 --reps 3 -o one.csv
check "one size: nothing said of fitting" lacks 'commfit fit needs' "$T/err"
run "$COMMFIT" measure --patterns ddt --ddt-summary -o -
expect_rc 2 "measure -o - --ddt-summary"

# -o /dev/fd/N writes where descriptor N writes (here appending to a file), not to the
# file behind it opened anew and emptied. MPICH's launcher hands the caller's descriptors to
# the ranks; Open MPI's does not (fd 5 in a rank is its own), so there it is not tested.
if [ "${CF_MPI_LIBRARY:-}" = openmpi ]; then
    skip "Open MPI's launcher does not pass the caller's descriptor 5 to the ranks"
else
    printf 'kept\n' >fd5.txt
    fd_rc=0
    "$COMMFIT" measure -q --patterns pingpong --sizes 0 --np 2 --samples 1 --reps 2 \
        -o /dev/fd/5 5>>fd5.txt 2>"$T/err" || fd_rc=$?
    check "measure -o /dev/fd/5 (5>>file): exits 0 (got $fd_rc)" test $fd_rc -eq 0
    check "measure -o /dev/fd/5: the file's first line is kept" test "$(head -1 fd5.txt)" = kept
    check "measure -o /dev/fd/5: the table follows it" \
        test "$(grep -c '^pingpong,2,0,' fd5.txt)" -eq 1
fi

# A device -o: the write error is exit 1 with the path; the device stays.
if mknod full c 1 7 2>/dev/null; then
    run mpirun 2 "$COMMFIT" measure --patterns pingpong --sizes 0 --samples 2 --reps 3 -o full
    expect_rc 1 "measure -o a full device"
    grep_err "^commfit: measure: full: cannot write: No space left on device$" "measure -o a full device: the message"
    check "the device is still there" test -c full
else
    skip "mknod needs root: measure -o a device"
fi

# SIGINT to a plain (self-launched) run under -q: exit 1 and the one-line message. Under
# timeout, which passes the signal on to its whole process group, as batch systems do.
timeout -s INT 300 "$COMMFIT" measure --patterns pingpong,sendrecv,allreduce --sizes 0:256 --reps 5000 \
    --samples 3 --max-time 60 -q -o r.csv >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ "$i" -lt 600 ] && [ "$(grep -c '^[a-z]' r.csv 2>/dev/null || echo 0)" -lt 3 ]; do
    sleep 0.1
    i=$((i + 1))
done
kill -INT "$pid" 2>/dev/null || true
rc=0
wait "$pid" || rc=$?
rows=$(($(grep -vc '^#' r.csv) - 1))
# Finished before the signal: the table's end says so (its plan has 28 points, the
# reductions of 1 and 2 B carry no float; a count of 30 never came).
if [ "$rc" -eq 0 ] && grep -q '^# end_reason: complete$' r.csv; then
    skip "the run finished before the signal arrived"
else
    expect_rc 1 "SIGINT to a plain run under -q"
    grep_err "^commfit: measure: stopped by a signal: $rows rows in r.csv; continue with 'commfit measure --resume r.csv'$" \
        "SIGINT under -q: the message says what was kept and how to continue"
fi

# --resume on 3 ranks records its launch size, and oversubscription when 3 > cores.
run mpirun 2 "$COMMFIT" measure --patterns pingpong --sizes 0,1K,4K --samples 2 --reps 3 -q -o k.csv
expect_rc 0 "a complete run"
# Its last 2 rows gone, as a run killed there leaves it (without the end lines).
grep -v '^# \(rank_cpu_share\|end\|duration_s\|end_reason\):' k.csv >k1.csv
head -n "$(($(wc -l <k1.csv) - 2))" k1.csv >k2.csv
run mpirun 3 "$COMMFIT" measure --resume k2.csv
expect_rc 0 "--resume on 3 ranks"
check "--resume records its launch size" grep -Eq '^# resume_1: date [0-9T:Z-]+, launch_np 3, oversubscribed (yes|no), after 1 rows$' k2.csv
if [ "$cores" -lt 3 ]; then
    check "--resume oversubscribed records it" grep -q '^# resume_1: .*oversubscribed yes' k2.csv
    check "--resume oversubscribed: the table says so" sh -c "grep '^# oversubscribed:' k2.csv | tail -1 | grep -q yes"
else
    skip "$cores cores: 3 ranks are not oversubscribed"
fi
check "--resume adds the missing rows" test "$(grep -c '^pingpong,' k2.csv)" -eq 3

# A table already at -o is kept as FILE~ before the run empties it (before: gone as the run
# started, a run stopped at its first row leaving one row of a finished table); where it
# cannot be kept, nothing is measured and it stays as it was.
run mpirun 2 "$COMMFIT" measure --patterns pingpong --sizes 8 --samples 2 --reps 3 -o again.csv
expect_rc 0 "a first table"
cp again.csv first.csv
run mpirun 2 "$COMMFIT" measure --patterns pingpong --sizes 16 --samples 2 --reps 3 -o again.csv
expect_rc 0 "-o given that table again"
grep_err "^commfit: measure: again.csv had a table: kept as again.csv~$" "-o given that table again: said"
check "-o given that table again: the first table kept whole as again.csv~" cmp -s first.csv again.csv~
check "-o given that table again: the new table in again.csv" grep -q '^pingpong,2,16,' again.csv
rm -f again.csv~
mkdir again.csv~
cp again.csv second.csv
run mpirun 2 "$COMMFIT" measure --patterns pingpong --sizes 32 --samples 2 --reps 3 -o again.csv
expect_rc 1 "a table that cannot be kept aside"
grep_err "^commfit: measure: again.csv: holds a table, which could not be kept as again.csv~ \(.*\): nothing measured; remove it, or give another -o$" \
    "a table that cannot be kept aside: said"
check "a table that cannot be kept aside: left as it was" cmp -s second.csv again.csv
rmdir again.csv~
# No report hint for a table report cannot read again.
run "$COMMFIT" measure --np 2 --patterns pingpong --sizes 0,1,2 --samples 2 --reps 3 -o /dev/null
expect_rc 0 "measure -o /dev/null"
check "measure -o /dev/null: no report hint" lacks 'draw the report' "$T/err"

done_testing
