# Fidelity: commfit's pingpong against bench/pingpong-ref (a minimal hand-written loop),
# same sizes, same repetitions, 5 samples each, alternating launches for ROUNDS rounds.
# Prints per size the median over rounds of commfit's median / the reference's median
# (target: within 1.03).
set -eu
ROUNDS=${ROUNDS:-11}
ref="$top_builddir/bench/pingpong-ref"
T=$(mktemp -d "${TMPDIR:-/tmp}/commfit-fidelity.XXXXXX")
trap 'rm -rf "$T"' EXIT
sizes="0 1024 65536 1048576 4194304"
r=1
while [ "$r" -le "$ROUNDS" ]; do
    $MPIEXEC -n 2 "$ref" 5 $sizes >"$T/ref.$r"
    $MPIEXEC -n 2 "$COMMFIT" measure --patterns pingpong --sizes 0,1K,64K,1M,4M --samples 5 \
        --max-time 86400 -q -o "$T/cf.$r.csv"
    r=$((r + 1))
done
echo "fidelity: commfit pingpong / hand-written ping-pong, $ROUNDS alternating rounds"
printf '%10s %8s %12s %12s %8s %8s %8s\n' bytes reps ref_us commfit_us ratio min max
for s in $sizes; do
    r=1
    while [ "$r" -le "$ROUNDS" ]; do
        a=$(awk -v s="$s" '$1 == s {print $2, $3}' "$T/ref.$r")
        b=$(awk -F, -v s="$s" '$1 == "pingpong" && $3 == s {print $11, $6}' "$T/cf.$r.csv")
        echo "$a $b"
        r=$((r + 1))
    done | awk -v s="$s" '
        { ref[NR] = $1; cf[NR] = $3; q[NR] = $3 / $1; if ($2 != $4) bad = 1; reps = $2 }
        function median(v, n,   i, j, t) {
            for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
                t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
            return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
        END {
            n = NR; lo = q[1]; hi = q[1]
            for (i = 1; i <= n; i++) { if (q[i] < lo) lo = q[i]; if (q[i] > hi) hi = q[i] }
            printf "%10d %8d %12.4g %12.4g %8.3f %8.3f %8.3f%s\n", s, reps, median(ref, n),
                median(cf, n), median(q, n), lo, hi, bad ? "  (reps differ!)" : "" }'
done
