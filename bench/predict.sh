# commfit predict: the time of one call, process start to exit (target: under 5 ms), and
# the rate of a batch of a million (np, bytes) points through one call (target: over a
# million predictions per second), for each of the three sources.
set -eu
: "${COMMFIT:?run through make bench}"
LC_ALL=C
export LC_ALL
T=$(mktemp -d "${TMPDIR:-/tmp}/commfit-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T"

# A table from known models: pingpong at np=2, alltoall at 2..16 (1% wiggle), its ranks on
# one node of 1024 (the answers bounded up to np 1024, as a measured table's; a table that
# says nothing of where its ranks ran answers beyond np 16 without an upper bound and with
# a note twice as long: 2.2x the bytes, about 1.4x the time).
{
    echo "# schema: 1"
    echo "# ranks_per_node: 1024"
    echo "pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,t_med_us,t_ci95_us,bw_MiBps"
    awk 'BEGIN {
        for (k = 0; k <= 23; k++) {
            m = k == 0 ? 0 : 2 ^ (k - 1); i++
            t = (1 + 1e-4 * m) * (1 + 0.01 * sin(i))
            printf "pingpong,2,%d,byte,,100,5,%.6f,%.6f,%.6f,%.6f,,%.3f\n", m, t, t, t, t, m / (1.048576 * t)
            for (p = 2; p <= 16; p *= 2) {
                i++; t = (p - 1) * (2 + 2e-4 * m) * (1 + 0.01 * sin(i))
                printf "alltoall,%d,%d,byte,,100,5,%.6f,%.6f,%.6f,%.6f,,\n", p, m, t, t, t, t
            }
        }
    }'
} >table.csv
"$COMMFIT" fit -i table.csv -o model.json >/dev/null 2>&1

# timed CMD...: runs CMD under /usr/bin/time; sets wall and cpu (user + system), seconds.
timed() {
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "%e %U %S" -o "$T/time" "$@"
        wall=$(awk '{ print $1 }' "$T/time")
        cpu=$(awk '{ print $2 + $3 }' "$T/time")
    else
        s=$(date +%s%N)
        "$@"
        wall=$(awk -v d=$(($(date +%s%N) - s)) 'BEGIN { print d / 1e9 }')
        cpu=nan
    fi
}

# per_call CMD...: mean wall and CPU milliseconds of 200 runs of CMD.
# per_call CMD...: its mean time over 200 runs; where it fails, that is said on stderr and
# no time is given (a timed refusal is no answer's time).
per_call() {
    "$@" >/dev/null 2>"$T/per_call.err" || { echo "bench: '$*' failed: $(head -n 1 "$T/per_call.err")" >&2; exit 1; }
    timed sh -c 'i=0; while [ $i -lt 200 ]; do "$@" >/dev/null; i=$((i + 1)); done' sh "$@"
    awk -v w="$wall" -v c="$cpu" 'BEGIN { printf "%.2f ms wall, %.2f ms CPU", w * 5, c * 5 }'
}
echo "process start to exit, mean of 200 (the machine's own cost of a process first):"
echo "  /bin/true:                                   $(per_call /bin/true)"
echo "  commfit --version:                           $(per_call "$COMMFIT" --version)"
echo "  commfit predict -p alltoall -n 16 -b 1M:     $(per_call "$COMMFIT" predict -m model.json --pattern alltoall --np 16 --bytes 1M)  (target < 5 ms)"
# The same against the largest shipped model (a measured derived-datatype sweep, 375 KB of
# JSON, eleven fits of one pattern, none of byte: -d names one) and a simulated cluster's (36
# fits, 5 across-np models): predict checks the whole file as JSON and builds only the parts
# its answer reads.
big="${top_srcdir:-.}/models/ddt-vm-mpich402-np2.json"
if [ -f "$big" ]; then
    echo "  the same with $(basename "$big") ($(($(wc -c <"$big") / 1024)) KiB):"
    echo "    commfit predict -p pingpong -d contiguous -n 2 -b 1M: $(per_call "$COMMFIT" predict -m "$big" --pattern pingpong -d contiguous --np 2 --bytes 1M)  (target < 5 ms)"
fi
sim="${top_srcdir:-.}/models/sim-flat.json"
if [ -f "$sim" ]; then
    echo "  the same with $(basename "$sim") ($(($(wc -c <"$sim") / 1024)) KiB):"
    echo "    commfit predict -p alltoall -n 64 -b 1M:   $(per_call "$COMMFIT" predict -m "$sim" --pattern alltoall --np 64 --bytes 1M)  (target < 5 ms)"
fi

# A million points: np cycling over 2..1024 (measured, interpolated, extrapolated), sizes
# 0..4 MiB.
awk 'BEGIN { for (i = 0; i < 1000000; i++) print 2 + (i * 7) % 1023, (i * 131) % 4194305 }' >points
# Each batch writes some 500 MB: the disk's writeback of the one before is done first (sync),
# or a batch paid for it (the same binary read 0.91 s after an idle spell, 1.6 s right after
# another's batches).
batch() { # LABEL PATTERN POINTS
    sync
    timed "$COMMFIT" predict -m model.json -p "$2" --points "$3" -f csv >out.csv
    n=$(($(wc -l <out.csv) - 1))
    awk -v w="$wall" -v c="$cpu" -v n=$n -v l="$1" 'BEGIN {
        printf "%s: %d predictions, %.2f s wall = %.2f million/s; %.2f s CPU = %.2f million/s (target > 1)\n",
            l, n, w, n / w / 1e6, c, n / c / 1e6 }'
}
batch "batch, across-np and fits (alltoall, np 2..1024)" alltoall points
batch "batch, p2p estimate (bcast, np 2..1024)" bcast points
awk '{ print 2, $2 }' points >points2
batch "batch, the fit at np=2 (pingpong)" pingpong points2
# The same million across np on a simulated cluster's model, whose answers read its grid of
# measured np and replay its launch probes (no target: the figure the docs give).
if [ -f "$sim" ]; then
    sync
    timed "$COMMFIT" predict -m "$sim" -p alltoall --points points -f csv >out.csv
    n=$(($(wc -l <out.csv) - 1))
    awk -v w="$wall" -v c="$cpu" -v n=$n 'BEGIN {
        printf "batch, across np on sim-flat.json (alltoall, np 2..1024): %d predictions, %.2f s wall = %.2f million/s; %.2f s CPU\n",
            n, w, n / w / 1e6, c }'
fi
