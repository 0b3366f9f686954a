# Runs each fuzz target for a bounded time on a corpus seeded from the tests and the
# shipped sample data, after replaying every saved crash (tests/fuzz/regressions/TARGET/).
# Usage: run.sh SECONDS TARGET...   Prints executions per target and the total.
set -eu
secs=$1
shift
total=0
# Model files to seed the model reader: fitted here from the shipped sample tables.
mkdir -p fuzz/seed-models
if [ -n "${COMMFIT:-}" ]; then
    for d in "$top_srcdir"/data/*.csv; do
        [ -f "$d" ] || continue
        "$COMMFIT" fit -i "$d" -o "fuzz/seed-models/$(basename "$d" .csv).json" \
            >/dev/null 2>&1 || true
    done
fi
# Each target's corpus, and its saved crashes replayed, one target after the other (fast);
# then the bounded runs, as many at once as there are processors (FUZZ_JOBS), each target
# still fuzzing SECONDS of its own.
jobs=${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
for t in "$@"; do
    name=$(basename "$t")
    corpus="fuzz/corpus-$name"
    mkdir -p "$corpus"
    for f in "$top_srcdir"/tests/cli/golden/* "$top_srcdir"/tests/data/*/* "$top_srcdir"/data/*.csv \
             "$top_srcdir"/models/*.json fuzz/seed-models/*.json \
             "$top_srcdir"/tests/fuzz/regressions/"$name"/*; do
        [ -f "$f" ] && cp "$f" "$corpus/" 2>/dev/null || true
    done
    reg="$top_srcdir/tests/fuzz/regressions/$name"
    saved=$(find "$reg" -type f ! -name '.*' 2>/dev/null || true)
    if [ -n "$saved" ]; then
        # shellcheck disable=SC2086
        "$t" $saved >"fuzz/$name-regressions.log" 2>&1 || { cat "fuzz/$name-regressions.log"; exit 1; }
        echo "fuzz: $name: $(echo "$saved" | wc -l) saved inputs replayed"
    fi
done
# One bounded run of target $1; its exit status in fuzz/NAME.rc.
fuzz_one() {
    name=$(basename "$1")
    # A target's token dictionary (tests/fuzz/TARGET.dict), when it has one.
    dict=
    [ -f "$top_srcdir/tests/fuzz/$name.dict" ] && dict="-dict=$top_srcdir/tests/fuzz/$name.dict"
    rc=0
    # shellcheck disable=SC2086
    "$1" -max_total_time="$secs" -print_final_stats=1 -detect_leaks=1 -timeout=10 \
        -rss_limit_mb=2048 $dict "fuzz/corpus-$name" >"fuzz/$name.log" 2>&1 || rc=$?
    echo $rc >"fuzz/$name.rc"
}
running=0
for t in "$@"; do
    rm -f "fuzz/$(basename "$t").rc"
    fuzz_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait
failed=0
for t in "$@"; do
    name=$(basename "$t")
    if [ "$(cat "fuzz/$name.rc" 2>/dev/null || echo 1)" != 0 ]; then
        tail -50 "fuzz/$name.log"
        failed=1
        continue
    fi
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "fuzz/$name.log" | tail -1)
    echo "fuzz: $name: ${n:-0} executions in ${secs}s, no crash"
    total=$((total + ${n:-0}))
done
[ "$failed" -eq 0 ] || exit 1
echo "fuzz: total $total executions"
