# commfit fit's summary: one aligned line per fit, the warnings grouped by kind at the
# end, --verbose for each fit in detail, and -q (nothing but errors) on every subcommand.
. "$top_srcdir/tests/setup.sh"

# An exact gather whose 0 B is a no-op, a scatter zig-zagging by 2.5x (a poor fit), an
# exact ping-pong, and a barrier that cannot be fitted (one row without its spread).
{
    echo "$HDR"
    awk 'BEGIN {
        for (k = 0; k < 24; k++) {
            m = k == 0 ? 0 : 2 ^ (k - 1)
            t = k == 0 ? 0.0093 : 0.27 + m / 5000
            printf "gather,2,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", m, t, t, t, t
            t = (1 + m / 5000) * (k % 2 ? 1 : 2.5)
            printf "scatter,2,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", m, t, t, t, t
            t = 2 + m / 8000
            printf "pingpong,2,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,%.10g\n", m, t, t, t, t, m / (1.048576 * t)
        }
        printf "barrier,4,0,byte,,100,1,5,5,5,5,,\n"
    }'
} >s.csv

run "$COMMFIT" fit -i s.csv -o s.json
expect_rc 0 "the default summary"
expect_out "pattern     np  datatype  model  seg    n    loo    max      R2  r_inf_MiBps  notes
gather       2  byte      linear   1   23  <0.1%  <0.1%  1.0000            -  1 set aside
pingpong     2  byte      linear   1   24  <0.1%  <0.1%  1.0000         7629
scatter      2  byte      linear   1   24    57%    79%  0.6597            -  poor" \
    "one aligned line per fit"
expect_err "commfit: fit: read s.csv (73 rows)
commfit: fit: gather, scatter: fitted per np only, not enough process counts (have 1, need 3); predict answers other np with the point-to-point estimate
commfit: fit: wrote s.json (3 fits)
commfit: fit: warning: 1 fit poor (leave-one-out > 25%; predictions rough): scatter np 2 (57%)
commfit: fit: warning: skipped: s.csv:74: barrier np 4 byte: one row, of one sample: the constant model needs its spread (a t_ci95_us over 2 samples or more, or several rows)
commfit: fit: 1 fit set its smallest sizes aside as a no-op (MPI returns at once from a call without data): gather np 2
commfit: fit: commfit fit --verbose shows each fit in detail, with its warnings
commfit: fit: draw the report with: commfit report -m s.json" \
    "the warnings grouped at the end"
cp s.json default.json
# predict's answer from the poor fit says so, as fit did (an answer from a fit of 385%
# came with an empty note; a new user); the exact gather's does not
run "$COMMFIT" predict -m s.json -p scatter -n 2 -b 3K -f csv
check "predict from the poor fit: said in the note" \
    grep -q '^scatter,2,3072,.*a poor fit: it misses its points left out one at a time by 57% (leave-one-out)' "$T/out"
run "$COMMFIT" predict -m s.json -p gather -n 2 -b 3K -f csv
check "predict from a good fit: no such note" sh -c "! grep -q 'poor fit' '$T/out'"
run "$COMMFIT" predict -m s.json -p scatter -n 2 -b 4K -f csv
check "predict from the poor fit at a measured size (its measured time): no such note" \
    sh -c "grep -q 'at the measured 4 KiB' '$T/out' && ! grep -q 'poor fit' '$T/out'"

run "$COMMFIT" fit --verbose -i s.csv -o s.json
expect_rc 0 "--verbose"
check "--verbose: the detailed line" \
    grep -q '^pingpong np 2 byte: linear T(m) = 2 us + m / (7.45 GiB/s) | n 24,' "$T/out"
check "--verbose: the warning under its fit" \
    grep -q '^  warning: poor fit: its leave-one-out error, 57%, is above 25%' "$T/out"
check "--verbose: the skipped group as it is met" \
    grep -q '^commfit: fit: warning: skipped: s.csv:74: barrier np 4 byte' "$T/err"
check "--verbose: no grouped block" sh -c "! grep -q 'fit poor' '$T/err'"
check "the same model file either way" cmp -s s.json default.json

run "$COMMFIT" fit -q -i s.csv -o s.json
expect_rc 0 "fit -q"
check "fit -q: stdout empty" test ! -s "$T/out"
check "fit -q: stderr empty" test ! -s "$T/err"
check "fit -q: the same model file" cmp -s s.json default.json
run "$COMMFIT" fit -q -i s.csv -o s.json --formulas c
check "fit -q --formulas: the formulas still print" grep -q 'T_pingpong_np2' "$T/out"
check "fit -q --formulas: stderr empty" test ! -s "$T/err"
run "$COMMFIT" fit -q -i nothing.csv
expect_rc 1 "fit -q: an error"
check "fit -q: the error is said" grep -q "^commfit: fit: .*nothing.csv" "$T/err"

run "$COMMFIT" fit -i s.csv -o -
expect_rc 0 "fit -o -"
check "fit -o -: standard output holds the model file alone" \
    sh -c "head -c 1 '$T/out' | grep -q '{' && ! grep -q '^pattern ' '$T/out'"
check "fit -o -: the warnings still on stderr" grep -q 'fit poor' "$T/err"

# One kind of warning on several fits is one line: auto passing over a poly2 and a
# piecewise that go negative, on the same U at two process counts.
{
    echo "$HDR"
    for np in 4 8; do
        for k in 0 1 2 3 7 8 9 10; do
            awk -v k=$k -v np=$np 'BEGIN { t = 0.01 * (k - 5) ^ 2 - 0.001
                printf "gather,%d,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", np, k * 1000, t, t, t, t }'
        done
    done
} >u.csv
run "$COMMFIT" fit -i u.csv -o u.json
expect_rc 0 "auto on a U at two np"
check "one line per kind: poor" \
    grep -qx 'commfit: fit: warning: 2 fits poor (leave-one-out > 25%; predictions rough): gather np 4 (112%), gather np 8 (112%)' "$T/err"
# A model auto did not choose: said with what that means (it said "2 fits poly2 not
# chosen", stop 56's noticed wording).
check "one line per kind: poly2 not chosen, and why in general" \
    grep -qx 'commfit: fit: warning: 2 fits chose another model than poly2, whose fit gave a time or variance that cannot be (negative, not finite) or a time falling with size (commfit fit --verbose says which, and where): gather np 4, gather np 8' "$T/err"
check "one line per kind: piecewise not chosen" \
    grep -qx 'commfit: fit: warning: 2 fits chose another model than piecewise, whose fit gave a time or variance that cannot be (negative, not finite) or a time falling with size (commfit fit --verbose says which, and where): gather np 4, gather np 8' "$T/err"

# -q on the other subcommands: nothing on stderr; what was asked for still on stdout.
mkdir models
cp default.json models/s.json
run "$COMMFIT" predict -q -p pingpong -n 2 -b 1K -f csv
expect_rc 0 "predict -q"
check "predict -q: no 'using': stderr empty" test ! -s "$T/err"
check "predict -q: the answer" grep -q '^pingpong,2,1024,byte,' "$T/out"
run "$COMMFIT" predict -q -m nothing.json -p pingpong -n 2 -b 1K
expect_rc 1 "predict -q: an error"
check "predict -q: the error is said" grep -q '^commfit: predict: ' "$T/err"
run "$COMMFIT" export -q smpi -o s.xml
expect_rc 0 "export -q"
check "export -q: stderr empty" test ! -s "$T/err"
check "export -q: the platform written" test -s s.xml
printf '#----\n# Benchmarking PingPong\n# #processes = 2\n#----\n       #bytes #repetitions      t[usec]   Mbytes/sec\n            0         1000         0.30         0.00\n            1         1000         0.31         3.20\n' >pp.txt
run "$COMMFIT" import -q imb pp.txt -o pp.csv
expect_rc 0 "import -q"
check "import -q: stderr empty" test ! -s "$T/err"
check "import -q: the table written" test -s pp.csv
for s in measure fit predict import export report; do
    run "$COMMFIT" "$s" --help
    check "$s --help lists -q, --quiet" grep -q '^  -q, --quiet ' "$T/out"
done

done_testing
