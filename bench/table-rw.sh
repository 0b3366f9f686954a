# Table read/write throughput on a generated table of 10^6 rows (3 runs).
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
for i in 1 2 3; do
    "$top_builddir/bench/table-rw" "$d/t.csv" 1000000 | tr '\n' ' '
    echo
done
