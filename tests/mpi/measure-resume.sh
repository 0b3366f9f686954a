# An interrupted commfit measure keeps its finished rows, and --resume completes the
# table without measuring a point twice: after a signal, and after a cut-off last line.
. "$top_srcdir/tests/setup.sh"
rt="$top_builddir/tests/mpi/read-table"
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

# pairs FILE: "pattern bytes" of every row, sorted.
pairs() { "$rt" "$1" | grep -v '^meta' | awk '{print $1, $3}' | sort; }

# Long enough that the signal lands half-way: 3 patterns x 10 sizes, 9 x 5000 calls a
# point (8 ms under Open MPI, whose 0.18 us pingpong ran 4 x 5000 calls to the end
# before the signal; 27 ms under MPICH).
timeout 300 $MPIEXEC -n 2 "$COMMFIT" measure --patterns pingpong,sendrecv,allreduce \
    --sizes 0:256 --reps 5000 --samples 8 --max-time 60 -o r.csv >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ "$i" -lt 600 ] && [ "$(grep -c '^[a-z]' r.csv 2>/dev/null || echo 0)" -lt 4 ]; do
    sleep 0.1
    i=$((i + 1))
done
# Open MPI's launcher ends the ranks at once on SIGTERM; it hands SIGUSR1 on to them
# (sent to the launcher itself: timeout would not pass it on).
if [ "${CF_MPI_LIBRARY:-}" = openmpi ]; then
    pkill -USR1 -P "$pid" 2>/dev/null || true
else
    kill -TERM "$pid" 2>/dev/null || true
fi
wait "$pid" || true
rows=$(grep -vc '^#' r.csv) # the header and the data rows
rows=$((rows - 1))
if [ "$rows" -ge 28 ]; then
    skip "the run finished before the signal arrived"
else
    # The status is the launcher's to report; commfit's ranks exit 1.
    grep_err "^commfit: measure: stopped by a signal: $rows rows in r.csv; continue with 'commfit measure --resume r.csv'$" \
        "SIGTERM: the message says how to continue"
    check "SIGTERM: the table says how the run ended" \
        sh -c 'tail -n 1 r.csv | grep -qx "# end_reason: stopped by a signal"'
fi
run "$rt" r.csv
expect_rc 0 "the interrupted table reads back"

run mpirun 2 "$COMMFIT" measure --resume r.csv
expect_rc 0 "--resume"
expect_err "commfit: measure: wrote r.csv (28 rows)
commfit: measure: draw the report with: commfit report -i r.csv" "--resume: the table is complete"
pairs r.csv >"$T/got"
printf '%s\n' pingpong sendrecv allreduce | while read -r p; do
    for s in 0 1 2 4 8 16 32 64 128 256; do measured $p $s && echo "$p $s"; done
done | sort >"$T/want"
check "--resume: every point once" cmp -s "$T/want" "$T/got"
check "--resume: the resumed launch's end after its rows" \
    sh -c 'tail -n 1 r.csv | grep -qx "# end_reason: complete"'
check "--resume: its provenance not repeated when unchanged" \
    test "$(grep -c '^# mpi_env:' r.csv)" -eq 1

# A run killed outright can leave half a row; --resume drops it and measures that point.
# Four sizes, so that the tables below fit where fit sets 0 B aside as a no-op (below half
# the line through the sizes with data: Open MPI's ping-pong of 0 B, 0.24 us where 1 KiB
# took 1.03, left 2 sizes of 3 and no fit, 2 of 6 launches on a loaded machine).
run mpirun 2 "$COMMFIT" measure --patterns pingpong,bcast --sizes 0,1K,4K,16K --samples 2 --reps 3 -q -o k.csv
expect_rc 0 "a complete run"
pairs k.csv >"$T/full"
# Killed outright: no end lines, and the last row cut.
grep -v '^# \(rank_cpu_share\|end\|duration_s\|end_reason\):' k.csv >k1.csv
cut=$(($(wc -c <k1.csv) - 20))
head -c "$cut" k1.csv >k2.csv
run mpirun 2 "$COMMFIT" measure --resume k2.csv
expect_rc 0 "--resume after a cut-off line"
pairs k2.csv >"$T/got"
check "--resume after a cut-off line: every point once" cmp -s "$T/full" "$T/got"
check "--resume keeps the original metadata" \
    test "$(grep '^# date:' k.csv)" = "$(grep '^# date:' k2.csv)"

# A table from before the provenance keys resumes, and its resumed launch writes them after
# its resume line; a launch in another tuning environment writes what changed alone (a
# reader takes the later value, and the earlier stays in the file).
keys='commfit_revision\|mpi_env\|mpi_env_differs\|cpu_model\|rank_cpus'
grep -v "^# \($keys\):" k1.csv >old1.csv
head -c $(($(wc -c <old1.csv) - 20)) old1.csv >old.csv
run mpirun 2 "$COMMFIT" measure -q --resume old.csv
expect_rc 0 "--resume of a table without the provenance keys"
check "--resume of an older table: the keys after the resume line" \
    test "$(sed -n '/^# resume_1: /,$p' old.csv | grep -c "^# \($keys\): ")" -eq 5
head -c "$cut" k1.csv >env.csv
run mpirun 2 env MV2_COMMFIT_TEST=1 "$COMMFIT" measure -q --resume env.csv
expect_rc 0 "--resume with a tuning variable set"
check "--resume with a tuning variable: the new mpi_env after the resume line" \
    sh -c "sed -n '/^# resume_1: /,\$p' env.csv | grep -Eq '^# mpi_env: (.*;)?MV2_COMMFIT_TEST=1(;|\$)'"
check "--resume with a tuning variable: the unchanged keys not repeated" \
    test "$(grep -c '^# \(commfit_revision\|cpu_model\|rank_cpus\):' env.csv)" -eq 3
run "$COMMFIT" fit -q -i env.csv -o env.json
expect_rc 0 "the resumed table fits"
check "the model's source: the later mpi_env, and how the launch ended" \
    sh -c 'grep -Eq "\"mpi_env\": \"([^\"]*;)?MV2_COMMFIT_TEST=1[;\"]" env.json &&
        grep -q "\"end_reason\": \"complete\"" env.json'

# A table with every point of its plan: nothing to measure, the file left as it was (it took
# a resume line with no rows after it, after a launch and its probes).
cp k2.csv k2-before.csv
run mpirun 2 "$COMMFIT" measure --resume k2.csv
expect_rc 0 "--resume of a complete table"
expect_err "commfit: measure: k2.csv has every point of its plan: nothing to measure, left as it was" \
    "--resume of a complete table: nothing to add"
check "--resume of a complete table: left as it was" cmp -s k2-before.csv k2.csv

# A table with every point whose launch did not end well (stopped after its last row): the
# resume marks it complete, a second end after the first, no resume line; it reads (its
# repeated end refused every read of it; the first review).
sed 's/^# end_reason: complete$/# end_reason: stopped by a signal/' k.csv >k6.csv
sleep 1 # another second in the end it writes
run mpirun 2 "$COMMFIT" measure --resume k6.csv
expect_rc 0 "--resume of a whole table stopped after its last row"
check "marked complete: a second end" test "$(grep -c '^# end:' k6.csv)" -eq 2
run "$rt" k6.csv
expect_rc 0 "marked complete: the table reads"
run mpirun 2 "$COMMFIT" measure --resume k6.csv
expect_rc 0 "marked complete: resumed again, nothing to measure"
run mpirun 2 "$COMMFIT" measure --resume k2.csv --sizes 1K
expect_rc 2 "--resume with plan options"

# A table is resumed by the MPI library it was measured with: another's rows would stand
# under its 'mpi_library' (the Open MPI build added 289 rows to an MPICH table, exit 0).
head -c "$cut" k.csv | sed 's/^# mpi_library: .*/# mpi_library: Some Other MPI v9.9, a stand-in/' >k3.csv
cp k3.csv k3-before.csv
run mpirun 2 "$COMMFIT" measure --resume k3.csv
check "--resume with another MPI library: refused" test "$rc" -ne 0
grep_err "k3.csv: measured with another MPI library \('Some Other MPI v9.9, a stand-in'\) than this run's" \
    "--resume with another MPI library: said"
check "--resume with another MPI library: the table untouched" cmp -s k3.csv k3-before.csv
# The other of the two libraries a build can be of, named in the table's first words, is
# said before any launch (exit 2), plainly and under mpiexec alike.
if [ "${CF_MPI_LIBRARY:-}" = openmpi ]; then
    other="MPICH Version: 4.0.2 MPICH Release date: Thu Apr  7 12:34:45 CDT 2022" name=MPICH
    this="Open MPI"
else
    other="Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022"
    name="Open MPI" this=MPICH
fi
quoted="$(printf '%.60s' "$other")..." # the message quotes 60 characters of it
head -c "$cut" k.csv | sed "s/^# mpi_library: .*/# mpi_library: $other/" >k5.csv
cp k5.csv k5-before.csv
for how in plainly mpiexec; do
    if [ $how = plainly ]; then run "$COMMFIT" measure --resume k5.csv; else run mpirun 2 "$COMMFIT" measure --resume k5.csv; fi
    check "--resume of $name's table by $this's commfit, $how: refused" test "$rc" -ne 0
    [ $how = mpiexec ] || expect_rc 2 "--resume of $name's table by $this's commfit, plainly"
    check "said once, before any launch" test "$(grep -cF "k5.csv: measured with $name ('$quoted'), but this commfit is built with $this: resume it with the commfit built with $name" "$T/err")" -eq 1
    check "the table untouched" cmp -s k5.csv k5-before.csv
done

# A table from before t_min_max (its t_min_us and t_max_us the extremes over samples and
# ranks together) is not resumed: the rows added would mean another thing in those columns.
grep -v '^# t_min_max:' k1.csv >k4a.csv
head -c $(($(wc -c <k4a.csv) - 20)) k4a.csv >k4.csv
cp k4.csv k4-before.csv
run mpirun 2 "$COMMFIT" measure --resume k4.csv
check "--resume of a table without t_min_max: refused" test "$rc" -ne 0
grep_err "k4.csv: measured by an older commfit, whose t_min_us and t_max_us are the extremes over samples and ranks together" \
    "--resume of a table without t_min_max: said"
check "--resume of a table without t_min_max: the table untouched" cmp -s k4.csv k4-before.csv
run "$COMMFIT" measure --resume k4.csv
expect_rc 2 "--resume of a table without t_min_max, plainly: refused before any launch"
expect_err "commfit: measure: k4.csv: measured by an older commfit, whose t_min_us and t_max_us are the extremes over samples and ranks together (no t_min_max): rows added now would mean another thing in those columns; measure it again with -o" \
    "--resume of a table without t_min_max, plainly: said once, before any launch"

# A resumed launch says after its resume line that it has not ended, which its own end lines
# replace (a reader keeps the last): killed before them, the table says it was cut short,
# not how the launch before ended. A launch that leaves no variable out of mpi_env says 0
# after one that left some out.
{
    head -n -1 k1.csv # its last row gone, after a launch that ended (stopped, here)
    echo '# rank_cpu_share: 0.46*2' # on a loaded machine
    grep '^# \(end\|duration_s\):' k.csv
    echo '# end_reason: stopped by a signal'
} | sed 's/^# mpi_env: .*/&\n# mpi_env_omitted: 3/' >k5.csv
run mpirun 2 "$COMMFIT" measure -q --resume k5.csv
expect_rc 0 "--resume of a table with end lines"
check "--resume: 'cut short' after the resume line, before the rows" \
    sh -c "sed -n '/^# resume_1: /,\$p' k5.csv | sed -n 2,9p | grep -qx '# end_reason: cut short: the launch that resumed the table wrote no end (killed)'"
check "--resume: its own end_reason last" sh -c 'tail -n 1 k5.csv | grep -qx "# end_reason: complete"'
check "--resume: mpi_env_omitted 0 after one that left 3 out" \
    sh -c "sed -n '/^# resume_1: /,\$p' k5.csv | grep -qx '# mpi_env_omitted: 0'"
check "--resume: each rank's least share over the launches, the loaded one's kept" \
    sh -c "grep '^# rank_cpu_share:' k5.csv | tail -n 1 | sed 's/.*: //' | tr ';' '\n' |
        awk -F'*' '{ if (\$1 == \"-\" || \$1 > 0.46) bad = 1; n += \$2 == \"\" ? 1 : \$2 }
                   END { exit bad || n != 2 }'"
run "$COMMFIT" fit -q -i k5.csv -o k5.json
check "the model's source: the resumed launch's end" \
    sh -c 'grep -q "\"end_reason\": \"complete\"" k5.json && grep -q "\"mpi_env_omitted\": \"0\"" k5.json'

# Ranks that read two tables (an earlier launch's rank still writing it between their
# reads; a new user's Open MPI launch, killed with kill -9 and resumed at once, failed in
# MPI_Recv with MPI_ERR_TRUNCATE): here two folders' copies under one launch, the second a
# line longer. None measures, nothing is written, rank 0 says why.
mkdir -p ra rb
head -n -1 k1.csv >ra/t.csv # its last row gone, whole lines
{ cat ra/t.csv; echo '# test_appended: by the test'; } >rb/t.csv
cp ra/t.csv ra-before.csv
cp rb/t.csv rb-before.csv
run env ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" timeout 300 \
    $MPIEXEC -n 1 -wdir "$PWD/ra" "$COMMFIT" measure --resume t.csv : \
    -n 1 -wdir "$PWD/rb" "$COMMFIT" measure --resume t.csv <>"$NO_STDIN"
check "ranks that read two lengths of the table: refused" test "$rc" -ne 0
grep_err "^commfit: measure: t.csv: the ranks read it at different lengths \(rank 0: $(wc -c <ra/t.csv) bytes of whole lines\): an earlier launch still writing it\? \(Open MPI's ranks outlive a killed launcher by a second or so\) Nothing written; resume again once it has stopped\$" \
    "ranks that read two lengths of the table: said by rank 0"
check "ranks that read two lengths of the table: both copies untouched" \
    sh -c 'cmp -s ra/t.csv ra-before.csv && cmp -s rb/t.csv rb-before.csv'

# The plan records --max-time in its shortest form that reads back the same (0.3, where
# '%.17g' wrote 0.29999999999999999).
run mpirun 2 "$COMMFIT" measure -q --patterns pingpong --sizes 8 --samples 2 --reps 3 --max-time 0.3 -o mt.csv
expect_rc 0 "--max-time 0.3"
check "--max-time 0.3: the plan says 0.3" grep -q '^# plan: .* --max-time 0.3 ' mt.csv
done_testing
