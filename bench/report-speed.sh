# commfit report on a large table, without gnuplot (the scripts and data only): a bcast at
# np 4, 8, 16 and 32 and a ping-pong, each over 20000 distinct sizes (100000 rows). The
# time-vs-np plot read every row once per distinct size (minutes at 100000 sizes); now one
# pass. Target: under 10 s.
set -eu
: "${COMMFIT:?run through make bench}"
LC_ALL=C
export LC_ALL
T=$(mktemp -d "${TMPDIR:-/tmp}/commfit-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
awk 'BEGIN {
    print "# schema: 1"
    print "pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,t_med_us,t_ci95_us,bw_MiBps"
    for (i = 0; i < 20000; i++) {
        m = 8 * i
        t = 1 + 1e-4 * m
        printf "pingpong,2,%d,byte,,10,5,%.6f,%.6f,%.6f,%.6f,,%.3f\n", m, t, t, t, t, m / (1.048576 * t)
        for (p = 4; p <= 32; p *= 2) {
            t = log(p) / log(2) * (2 + 1e-4 * m)
            printf "bcast,%d,%d,byte,,10,5,%.6f,%.6f,%.6f,%.6f,,\n", p, m, t, t, t, t
        }
    }
}' >"$T/big.csv"
s=$(date +%s%N)
PATH=/nonexistent "$COMMFIT" report -i "$T/big.csv" -o "$T/r" >/dev/null 2>&1
awk -v d=$(($(date +%s%N) - s)) -v n="$(grep -vc '^#' "$T/big.csv")" 'BEGIN {
    printf "report of %d rows (20000 sizes, 5 process counts), no gnuplot: %.2f s (target < 10 s)\n", n - 1, d / 1e9 }'
