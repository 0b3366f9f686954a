# The across-np formula carried through the fitted np's own answers. A formula fitted
# jointly over every np and size passes near each fitted np's times, not through them;
# where it answers (no library named, so no rules read the measured points: an OSU
# import), an np that was not fitted is read from it times the ratio of predict's answer at
# the nearest fitted np to the formula there, log-log in np between two fitted np. On the
# OSU allreduce of Compute Engine fitted at np 1792-7168, 4 B at np 14336 read 664 us from
# the formula alone, below np 7168's own 867, for 954 measured.
. "$top_srcdir/tests/setup.sh"

tab="$top_srcdir/data/realnp/gce-cpu-ompi.csv"
run "$COMMFIT" fit -q -i "$tab" --np 1792,3584,7168 -o g.json
expect_rc 0 "fit np 1792-7168 of the Compute Engine set"
# t SIZE NP [--model-alone]: predict's time; note: its note.
t() { "$COMMFIT" predict -m g.json -p allreduce -n "$2" -b "$1" -f csv ${3:-} 2>/dev/null | sed -n 2p | cut -d, -f5; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a / b }'; }
near() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a / b - 1; if (d < 0) d = -d; exit !(d <= r) }'; }

run "$COMMFIT" predict -m g.json -p allreduce -n 14336 -b 4 -f csv
check "np 14336: the formula through np 7168's own answer, said in the model column" \
    awk -F, 'NR == 2 { exit !($9 == "across-np" && $10 ~ / \+ measured np$/) }' "$T/out"
check "and the note names the np, size by size" \
    grep -q "the across-np formula through the fitted np=7168's own answers, size by size: the formula's growth from there, the interval holding the formula's own reading too (--model-alone: the formula alone)" "$T/out"
# The factor: predict's answer at np 7168 over the formula there (read at np 7169, the
# same ceil(lg p) steps; the formula's p-linear term moves it by 1/7168).
f7168=$(t 4 7168)
formula=$(t 4 7169 --model-alone)
x=$(ratio "$f7168" "$formula")
check "the answer is the formula at np 14336 times np 7168's answer over the formula there ($f7168 / $formula)" \
    near "$(t 4 14336)" "$(awk -v a="$(t 4 14336 --model-alone)" -v x="$x" 'BEGIN { print a * x }')" 0.005
check "4 B at np 14336 within 5% of the 954.03 us measured ($(t 4 14336))" near "$(t 4 14336)" 954.03 0.05
check "above np 7168's own time, as the formula's growth says (the formula alone fell below it)" \
    awk -v a="$(t 4 14336)" -v b="$f7168" -v c="$(t 4 14336 --model-alone)" 'BEGIN { exit !(a > b && c < b) }'
# The interval holds both answers: the formula's and the one carried.
run "$COMMFIT" predict -m g.json -p allreduce -n 14336 -b 4,64K,1M -f csv
"$COMMFIT" predict -m g.json -p allreduce -n 14336 -b 4,64K,1M -f csv --model-alone >alone.csv
check "the interval holds the formula's answer and its lower end, at 4 B, 64 KiB and 1 MiB" \
    awk -F, 'NR == FNR { if (FNR > 1) { t[FNR] = $5; l[FNR] = $6 } next }
             FNR > 1 { n++; ok += $6 <= l[FNR] && $6 <= t[FNR] && ($7 == "inf" || $7 >= t[FNR]) }
             END { exit !(n == 3 && ok == 3) }' alone.csv "$T/out"

# Between two fitted np: the ratios of both, read log-log in np; named in the note.
run "$COMMFIT" predict -m g.json -p allreduce -n 5000 -b 4 -f csv
check "np 5000: between np 3584 and 7168, said" \
    grep -q 'between the fitted np=3584 and np=7168: the across-np formula times their own answers over the formula.s, read log-log in np' "$T/out"
r1=$(ratio "$(t 4 3584)" "$(t 4 3585 --model-alone)")
r2=$(ratio "$f7168" "$formula")
want=$(awk -v a="$r1" -v b="$r2" 'BEGIN { f = log(5000 / 3584) / log(2); printf "%.6f", exp((1 - f) * log(a) + f * log(b)) }')
check "np 5000: the factor read log-log between the two ($r1, $r2: $want)" \
    near "$(ratio "$(t 4 5000)" "$(t 4 5000 --model-alone)")" "$want" 0.005

# Where the interval keeps an upper bound (np 5000 spans no more nodes than np 7168 did),
# it holds the formula's answer at both ends too.
"$COMMFIT" predict -m g.json -p allreduce -n 5000 -b 4,64K,1M -f csv --model-alone >alone5.csv
run "$COMMFIT" predict -m g.json -p allreduce -n 5000 -b 4,64K,1M -f csv
check "np 5000: bounded, and the interval holds the formula's answer and interval, at 4 B, 64 KiB and 1 MiB" \
    awk -F, 'NR == FNR { if (FNR > 1) { t[FNR] = $5; l[FNR] = $6; h[FNR] = $7 } next }
             FNR > 1 { n++; ok += $7 != "inf" && $6 <= l[FNR] && $6 <= t[FNR] && $7 >= t[FNR] && $7 >= h[FNR] }
             END { exit !(n == 3 && ok == 3) }' alone5.csv "$T/out"

# A model fitted without the barrier's waits (a probe, a library whose rules commfit does
# not know: the simulated racks named Intel MPI): the fit at a fitted np holds np's wait,
# the formula none, so the ratio takes the wait off first (the answer adds np's own back).
# Between np 16 and 32, bcast of 1 B reads between their own answers; before, 1.6 us of
# wait counted twice put np 24 above both (6.29 us for 4.04 and 5.05).
grep -v '^# coll_selector' "$top_srcdir/data/sim-racks.csv" |
    sed 's/^# mpi_library: .*/# mpi_library: Intel(R) MPI Library 2021.10/' >intel.csv
run "$COMMFIT" fit -q -i intel.csv --np 2,4,8,16,32 -o intel.json
check "the Intel-named racks model took the barrier's waits out" grep -q '"barrier_wait_us"' intel.json
"$COMMFIT" predict -m intel.json -p bcast -n 16,24,28,32 -b 1 -f csv | cut -d, -f2,5,10 >w.csv
check "bcast 1 B at np 24 and 28: carried, between np 16's and np 32's own answers" \
    awk -F, '$1 == 16 { a = $2 } $1 == 32 { b = $2 } $1 == 24 || $1 == 28 { n++; m[n] = $2; c += $3 ~ /measured np/ }
             END { exit !(c == 2 && a < m[1] && m[1] < m[2] && m[2] < b) }' w.csv
run "$COMMFIT" report -q -m intel.json -i intel.csv -o repw
check "the report's within-fitted curve passes through predict's answers at np 8, 16 and 32" \
    awk -F, -v w="$("$COMMFIT" predict -m intel.json -p bcast -n 8,16,32 -b 1 -f csv | awk -F, 'NR > 1 { printf "%s%s:%s", s, $2, $5; s = " " }')" '
        BEGIN { n = split(w, x, " "); for (i = 1; i <= n; i++) { split(x[i], y, ":"); want[y[1]] = y[2] } }
        /^# \[[0-9]+\] 1 B/ { g = 1 } g && /within the fitted np/ { f = 1; next } f && /^# \[/ { exit }
        f && NF == 4 && ($1 in want) { k++; ok += ($2 / want[$1] - 1) ^ 2 < 1e-8 }
        END { exit !(k == 3 && ok == 3) }' FS=' ' repw/np-bcast.dat

# A neighbour without a fit of its own (np 3584 cut to one size: the across-np model keeps
# its point, fit makes no fit of one size) leaves the other neighbour's ratio, said.
awk -F, '/^#/ || /^pattern/ || !($2 == 3584 && $3 != 4)' "$tab" >cut.csv
run "$COMMFIT" fit -q -i cut.csv --np 1792,3584,7168 -o cut.json
run "$COMMFIT" predict -m cut.json -p allreduce -n 5000 -b 1K -f csv
r7168=$(ratio "$("$COMMFIT" predict -m cut.json -p allreduce -n 7168 -b 1K -f csv | sed -n 2p | cut -d, -f5)" \
    "$("$COMMFIT" predict -m cut.json -p allreduce -n 7169 -b 1K -f csv --model-alone | sed -n 2p | cut -d, -f5)")
check "np 5000 with no fit at np 3584: through np 7168's own answers alone, said" \
    grep -q "the across-np formula through the fitted np=7168's own answers" "$T/out"
check "and its factor np 7168's ($r7168)" \
    near "$(ratio "$(sed -n 2p "$T/out" | cut -d, -f5)" "$("$COMMFIT" predict -m cut.json -p allreduce -n 5000 -b 1K -f csv --model-alone | sed -n 2p | cut -d, -f5)")" "$r7168" 0.005

# A fitted np answers from its own fit, unchanged.
run "$COMMFIT" predict -m g.json -p allreduce -n 7168 -b 4 -f csv
check "np 7168: its own fit" awk -F, 'NR == 2 { exit !($9 == "fit" && $10 !~ /measured np/) }' "$T/out"
# --model-alone: the formula alone.
run "$COMMFIT" predict -m g.json -p allreduce -n 14336 -b 4 -f csv --model-alone
check "--model-alone at np 14336: the formula alone, nothing said" \
    sh -c '! grep -q "measured np\|the across-np formula t" "$1"' sh "$T/out"

# Where the library's rules read the measured points (the grid), nothing changes.
run "$COMMFIT" fit -q -i "$top_srcdir/data/sim-racks.csv" --np 2,4,8,16,32 -o r.json
run "$COMMFIT" predict -m r.json -p allreduce -n 64 -b 4,64K -f csv
check "a grid answer (MPICH's rules on the simulated racks) is not carried" \
    sh -c '! grep -q "measured np\|the across-np formula t" "$1"' sh "$T/out"

# The report's np plot draws the same answers as predict.
run "$COMMFIT" report -q -m g.json -o rep
expect_rc 0 "report of the Compute Engine model"
# Each point of the 4 B curve beyond np 7168 against predict at its np; and the curve
# from np 7168's own answer (no step from the formula's level to the fit's).
awk '/^# \[[0-9]+\] extrapolated/ { n++; f = n == 1; next } /^# \[/ { f = 0 } f && NF == 4 { print $1, $2 }' \
    rep/np-allreduce.dat >curve.txt
bad=0
while read -r np tc; do
    near "$tc" "$(t 4 "$np")" 0.0001 || bad=$((bad + 1))
done <curve.txt
check "its np plot's extrapolated 4 B curve is predict's answers ($(wc -l <curve.txt) points)" \
    test "$bad" -eq 0 -a "$(wc -l <curve.txt)" -gt 10
check "and starts from np 7168's own fit ($f7168)" near "$(head -1 curve.txt | cut -d' ' -f2)" "$f7168" 0.0001

done_testing
