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
expect_err "commfit: measure: wrote $f (810 rows)
commfit: measure: draw the report with: commfit report -i $f" "says which file it wrote"
check "launched $n ranks" grep -qx "# launch_np: $n" "$f"
check "the launcher it started, with its size, recorded" \
    grep -Eqx "# launcher: [^ ]*mpiexec[.a-z]* -n $n \(started by commfit measure\)" "$f"
run "$rt" "$f"
expect_rc 0 "the table reads back"
check "20 patterns" test "$(grep -v '^meta' "$T/out" | awk '{print $1}' | sort -u | wc -l)" -eq 20

done_testing
