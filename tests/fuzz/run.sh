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
    # A target's token dictionary (tests/fuzz/TARGET.dict), when it has one.
    dict=
    [ -f "$top_srcdir/tests/fuzz/$name.dict" ] && dict="-dict=$top_srcdir/tests/fuzz/$name.dict"
    # shellcheck disable=SC2086
    "$t" -max_total_time="$secs" -print_final_stats=1 -detect_leaks=1 -timeout=10 \
        -rss_limit_mb=2048 $dict "$corpus" >"fuzz/$name.log" 2>&1 || { tail -50 "fuzz/$name.log"; exit 1; }
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "fuzz/$name.log" | tail -1)
    echo "fuzz: $name: ${n:-0} executions in ${secs}s, no crash"
    total=$((total + ${n:-0}))
done
echo "fuzz: total $total executions"
