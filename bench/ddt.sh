# Derived datatypes at 1 MiB: how the time of vector and indexed grows from 1 to 1000
# blocks, and commfit measure's harness against a hand-written ping-pong loop
# (bench/ddt-ref.c) on the same layouts. The machine is shared and noisy: the two run
# alternately, ROUNDS times, and the report gives medians over the rounds and ratios.
# Environment: ROUNDS (5), BLOCKS (1,2,5,10,100,1000), REPS (100), SAMPLES (5).
set -eu
ROUNDS=${ROUNDS:-5}
BLOCKS=${BLOCKS:-1,2,5,10,100,1000}
REPS=${REPS:-100}
SAMPLES=${SAMPLES:-5}
MPIEXEC=${MPIEXEC:-mpiexec}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

commfit_round() {
    ASAN_OPTIONS=detect_leaks=0 $MPIEXEC -n 2 "$COMMFIT" measure -q --patterns ddt \
        --datatypes vector,indexed --sizes 1M --blocks "$BLOCKS" --reps "$REPS" \
        --samples "$SAMPLES" -o "$d/c$1.csv"
    # datatype blocks t_med_us, from the columns the header names.
    awk -F, '/^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { print $c["datatype"], $c["blocks"], $c["t_med_us"] }' "$d/c$1.csv" >>"$d/commfit"
}

ref_round() {
    for k in vector indexed; do
        ASAN_OPTIONS=detect_leaks=0 $MPIEXEC -n 2 "$top_builddir/bench/ddt-ref" "$k" 1048576 \
            "$BLOCKS" "$REPS" "$SAMPLES" | awk '{ print $1, $3, $4 }' >>"$d/ref"
    done
}

: >"$d/commfit"
: >"$d/ref"
for r in $(seq "$ROUNDS"); do
    # Alternate which goes first, so that neither always runs on a warmer machine.
    if [ $((r % 2)) -eq 1 ]; then
        commfit_round "$r"
        ref_round
    else
        ref_round
        commfit_round "$r"
    fi
done

echo "1 MiB payload, $ROUNDS alternating rounds of $SAMPLES samples x $REPS round trips;"
echo "medians over the rounds (us per call, half a round trip)"
# median of the values of each key, then the table and the overall overhead ratio.
awk '
function median(s,   n, v, i, j, t) {
    n = split(s, v, " ")
    for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] + 0 > t + 0; j--) v[j + 1] = v[j]; v[j + 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
FNR == 1 { f++ }
{ k = $1 " " $2; if (f == 1) c[k] = c[k] " " $3; else r[k] = r[k] " " $3; keys[k] = 1 }
END {
    printf "%-8s %6s %12s %12s %9s %10s\n", "datatype", "blocks", "commfit_us", "ref_us", "ratio", "t/t(1)"
    n = 0
    for (k in keys) if ((k in c) && (k in r)) order[++n] = k
    for (i = 2; i <= n; i++) { t = order[i]; split(t, a, " "); for (j = i - 1; j >= 1; j--) { split(order[j], b, " "); if (b[1] < a[1] || (b[1] == a[1] && b[2] + 0 <= a[2] + 0)) break; order[j + 1] = order[j] } order[j + 1] = t }
    rs = ""
    for (i = 1; i <= n; i++) {
        k = order[i]; split(k, a, " ")
        mc = median(c[k]); mr = median(r[k])
        if (a[2] == 1) base[a[1]] = mc
        printf "%-8s %6d %12.2f %12.2f %9.3f %10.2f\n", a[1], a[2], mc, mr, mc / mr, mc / base[a[1]]
        rs = rs " " mc / mr
    }
    printf "harness overhead: median ratio commfit/reference = %.3f (target within 1.03)\n", median(rs)
}' "$d/commfit" "$d/ref"
