# Helpers of the tests that read a simulated table's rows from np=2 and hold the answers
# against its simulated times (predict-np2-trees.sh, predict-np2-serial.sh,
# predict-sim-overhead.sh, predict-bcast-share.sh, predict-bcast-skew.sh, predict-np2-fold.sh,
# predict-np2-rabenseifner.sh, predict-np2-alltoallv.sh, predict-np2-reduce-scatter.sh,
# predict-np2-reduce-scatter-ompi.sh, predict-np2-allgatherv.sh, predict-np2-bruck-tiers.sh,
# predict-np2-rdb-tiers.sh, predict-np2-gather-turn.sh, predict-across-unit-bounds.sh,
# predict-rooted-growth.sh, predict-across-fold.sh, predict-rootedv-mean.sh).
# Sourced after tests/setup.sh.

# pattern_answers MODEL TABLE PATTERN WHERE: TABLE's rows of PATTERN where the awk condition
# WHERE holds, predicted from MODEL: their simulated times into truth, predict's CSV in $T/out.
pattern_answers() {
    awk -F, "!/^#/ && \$1 == \"$3\" && ($4) { print \$2, \$3 }" "$2" >pts
    awk -F, "!/^#/ && \$1 == \"$3\" && ($4) { print \$11 }" "$2" >truth
    run "$COMMFIT" predict -m "$1" -p "$3" --points pts -f csv
}

# reduce_answers MODEL TABLE WHERE: answers of TABLE's reduce rows.
reduce_answers() { pattern_answers "$1" "$2" reduce "$3"; }

# within FACTOR [N]: each answer in $T/out within FACTOR of its simulated time in truth,
# which its interval holds (and N answers, where N is given).
within() {
    awk -F, -v f="$1" -v n="${2:-}" 'NR == FNR { t[FNR] = $1; next }
         FNR > 1 { k++; v = t[FNR - 1]; if ($5 > f * v || $5 < v / f || v < $6 || v > $7) bad = 1 }
         END { exit bad || (n != "" && k != n) }' truth "$T/out"
}

# inside_at_least N: at least N of the answers in $T/out hold their simulated time (truth,
# as within's) inside their intervals (setup.sh's inside: every one).
inside_at_least() {
    awk -F, -v n="$1" 'NR == FNR { t[FNR] = $1; next }
         FNR > 1 { v = t[FNR - 1]; k += $6 <= v && ($7 == "inf" || v <= $7) }
         END { exit k < n }' truth "$T/out"
}

# median_within LIMIT N: the median over the N answers in $T/out of |answer / truth - 1| (truth
# as within's) at most LIMIT.
median_within() {
    awk -F, 'NR == FNR { t[FNR] = $1; next } FNR > 1 { e = $5 / t[FNR - 1] - 1; print (e < 0 ? -e : e) }' \
        truth "$T/out" | sort -g |
        awk -v lim="$1" -v n="$2" '{ v[NR] = $1 }
            END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; exit !(NR == n && m <= lim) }'
}
