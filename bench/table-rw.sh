# Table read/write throughput on a generated table of 10^6 rows (3 runs): the wall clock
# and the CPU time (user + system) of each. On the 2-core development VM, writing takes
# about 0.2 s of CPU and reading 0.35-0.45 s, 0.1-0.15 s of which is the system's,
# faulting in the rows' 136 MB; the wall clock adds whatever else the machine runs (was
# 0.35-0.45 s and 0.65-1.2 s of CPU before the fast paths of perf-parse).
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
for i in 1 2 3; do
    "$top_builddir/bench/table-rw" "$d/t.csv" 1000000 | tr '\n' ' '
    echo
done
