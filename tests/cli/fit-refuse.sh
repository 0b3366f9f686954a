# commfit fit does not write a model that lies: a fit of the model asked for that gives a
# negative cost where it was fitted stops fit (exit 1, the fit and the fault named, no
# file at all); auto passes over such a candidate and says so.
. "$top_srcdir/tests/setup.sh"

# no_file DESC: neither the model file nor a temporary one is left in the folder.
no_file() {
    if [ -z "$(ls -A mdir 2>/dev/null)" ]; then pass "$1: no file left"; else
        fail "$1: no file left"
        ls -la mdir | sed 's/^/#   /'
    fi
}

# A U: 0.01 (k - 5)^2 - 0.001 us at k KB, measured away from the bottom, where it is < 0.
{
    echo "$HDR"
    for k in 0 1 2 3 7 8 9 10; do
        awk -v k=$k 'BEGIN { t = 0.01 * (k - 5) ^ 2 - 0.001
            printf "gather,4,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", k * 1000, t, t, t, t }'
    done
} >u.csv
mkdir mdir
run "$COMMFIT" fit --verbose -i u.csv -o mdir/u.json --model poly2
expect_rc 1 "--model poly2 through a negative vertex"
expect_err "commfit: fit: read u.csv (8 rows)
commfit: fit: gather np 4 byte: the poly2 fit gives a negative time at 5000 B (-0.001 us): a cost cannot be negative there
commfit: fit: no model file written: try another --model" "--model poly2 through a negative vertex"
no_file "--model poly2 through a negative vertex"

run "$COMMFIT" fit --verbose -i u.csv -o mdir/u.json --model piecewise
expect_rc 1 "--model piecewise whose lines cross 0 between the pieces"
grep_err '^commfit: fit: gather np 4 byte: the piecewise fit gives a negative time at ([0-9]+ B|[0-9.]+ [KMG]iB)' \
    "--model piecewise: the fit and the size named"
no_file "--model piecewise"

run "$COMMFIT" fit --verbose -i u.csv -o mdir/u.json
expect_rc 0 "auto on the same table"
check "auto: a candidate that passes is chosen" grep -q '^gather np 4 byte: linear' "$T/out"
check "auto: poly2 noted as not chosen, with why" \
    grep -q '^  warning: poly2 not chosen: the poly2 fit gives a negative time at 5000 B' "$T/out"
check "auto: so is piecewise" grep -q '^  warning: piecewise not chosen: ' "$T/out"
check "auto: the notes are in the model file" grep -q '"poly2 not chosen: ' mdir/u.json
rm -f mdir/u.json

# A line with a negative intercept that stays positive over the sizes measured is true.
{
    echo "$HDR"
    for m in 1000 2000 4000 8000 16000; do
        awk -v m=$m 'BEGIN { t = -1 + m / 100
            printf "gather,4,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", m, t, t, t, t }'
    done
} >neg-intercept.csv
run "$COMMFIT" fit --verbose -i neg-intercept.csv -o mdir/n.json --model linear
expect_rc 0 "a negative intercept, positive over the measured sizes"
check "its intercept is kept" grep -q '^gather np 4 byte: linear T(m) = -1 us' "$T/out"
rm -f mdir/n.json

# LogGP whose overheads exceed the ping-pong latency: L = 1.6 - 0.6 - 1.5 < 0, as on
# shared memory where o_s and o_r include the copies. No latency is negative: L is
# clamped to 0 with a warning naming the numbers, kept in the model file, and the fit is
# written.
{
    echo "$HDR"
    awk 'BEGIN {
        for (k = 0; k < 16; k++) {
            m = k == 0 ? 0 : 2 ^ (k - 1)
            printf "loggp_os,2,%d,byte,,100,5,%.12g,%.12g,%.12g,%.12g,,\n", m, 0.6, 0.6, 0.6, 0.6
            printf "loggp_or,2,%d,byte,,100,5,%.12g,%.12g,%.12g,%.12g,,\n", m, 1.5, 1.5, 1.5, 1.5
            g = 0.9 + m / 9000
            printf "loggp_gap,2,%d,byte,,100,5,%.12g,%.12g,%.12g,%.12g,,\n", m, g, g, g, g
            t = 1.6 + m / 9000
            printf "pingpong,2,%d,byte,,100,5,%.17g,%.17g,%.17g,%.17g,,%.12g\n", m, t, t, t, t, m / (1.048576 * t)
        }
    }'
} >loggp.csv
run "$COMMFIT" fit --verbose -i loggp.csv -o mdir/l.json --model loggp
expect_rc 0 "--model loggp with L < 0: L clamped, the fit written"
check "--model loggp with L < 0: L = 0 in the summary" \
    grep -q '^pingpong np 2 byte: loggp T(m) = 2.1 us + m / (8.38 GiB/s); L = 0 us, o_s = 0.6 us, o_r = 1.5 us,' "$T/out"
check "--model loggp with L < 0: the warning names o_s + o_r and the half round trip" \
    grep -q "^  warning: L = -0.5 us clamped to 0: o_s + o_r (2.1 us) exceed the ping-pong's half round trip at 0 B (1.6 us); on shared memory the overheads include the copies$" "$T/out"
check "--model loggp with L < 0: L_us is 0 in the model file" grep -q '"L_us": 0' mdir/l.json
check "--model loggp with L < 0: the warning is in the model file" \
    grep -q '"L = -0.5 us clamped to 0: o_s + o_r (2.1 us) exceed' mdir/l.json
check "--model loggp with L < 0: its quality says how far o_s + o_r lie above (max 24%)" \
    grep -q '| n 16, loo [0-9.]*%, max 24%' "$T/out"
rm -f mdir/l.json
run "$COMMFIT" fit --verbose -i loggp.csv -o mdir/l.json
expect_rc 0 "auto with L < 0: the other fits are written"
check "auto with L < 0: the loggp parameters too" test "$(grep -c '"loggp"' mdir/l.json)" -eq 1
rm -f mdir/l.json

# Impossible estimates are still refused: burst times falling with size give G < 0.
awk -F, -v OFS=, '$1 == "loggp_gap" { for (i = 8; i <= 11; i++) $i = 0.9 - $3 / 1e6 } { print }' \
    loggp.csv >falling-gap.csv
run "$COMMFIT" fit --verbose -i falling-gap.csv -o mdir/l.json --model loggp
expect_rc 1 "--model loggp with G < 0"
grep_err '^commfit: fit: pingpong np 2 byte: the loggp fit gives a negative G_us_per_byte \(-1e-06\): the burst times fall with size: LogGP parameters cannot be negative$' \
    "--model loggp with G < 0: G named"
no_file "--model loggp with G < 0"

# The point-to-point estimate needs alpha and beta >= 0: a ping-pong falling with size
# beyond its noise (beta more than 1.96 standard errors below 0; within them it is held at
# 0, predict-np2-held.sh) gives none, and says why; the fits are still written.
{
    echo "$HDR"
    for m in 0 64 1024 4096 16384 65536; do
        awk -v m=$m 'BEGIN { t = 5 - m / 20000
            printf "pingpong,2,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", m, t, t, t, t }'
    done
} >falling.csv
run "$COMMFIT" fit --verbose -i falling.csv -o mdir/f.json --model linear
expect_rc 0 "a ping-pong falling with size, --model linear"
check "the p2p entry says why it has no estimate" \
    grep -q '"error": "the ping-pong fit gives beta = -5e-05: the point-to-point estimate needs it finite and >= 0"' mdir/f.json
run "$COMMFIT" predict -m mdir/f.json -p bcast -n 8 -b 1K
expect_rc 1 "predict of an unmeasured pattern from it: refused"
# --model loggp on rows without the ping-pong at np=2: it said "no fit could be made (0
# groups skipped, see above)" with nothing above.
run "$COMMFIT" fit -i "$top_srcdir/data/sim-flat.csv" --model loggp --patterns alltoall -o mdir/lg.json
expect_rc 1 "--model loggp --patterns alltoall"
grep_err "^commfit: fit: no fit could be made: --model loggp fits the ping-pong at np=2 \(byte\) alone, and the rows to fit hold none \(--patterns leaves it out\)$" \
    "--model loggp --patterns alltoall: says why"
check "--model loggp --patterns alltoall: no model file" test ! -e mdir/lg.json
# Rows at np=1: one process communicates with none, and predict answers from np=2 up: the
# group is skipped with a warning (a fit at np=1 was written that nothing could read).
{ grep -v '^[a-z_]*,[0-9]' "$top_srcdir/data/sim-flat.csv"; grep '^pingpong,2,' "$top_srcdir/data/sim-flat.csv"
  grep '^bcast,4,' "$top_srcdir/data/sim-flat.csv" | sed 's/^bcast,4,/bcast,1,/'; } >np1.csv
run "$COMMFIT" fit -i np1.csv -o mdir/np1.json
expect_rc 0 "a table with rows at np=1"
grep_err "^commfit: fit: warning: skipped: bcast np 1 byte: one process communicates with none; predict answers from np=2 up, so these rows are not fitted$" \
    "rows at np=1: skipped with a warning"
check "rows at np=1: no fit at np=1 in the model" sh -c "! grep -q '\"np\": 1,' mdir/np1.json"
# -q hides the warnings that say why each group was skipped: the error says so rather
# than "see above".
printf '# schema: 1\n%s\npingpong,2,8,byte,,10,5,1,1,1,1,,\n' "$HDR" >one-size.csv
run "$COMMFIT" fit -q -i one-size.csv -o mdir/one.json
expect_rc 1 "-q, nothing to fit"
expect_err "commfit: fit: no fit could be made (1 group skipped, -q hid why: run without it)" \
    "-q, nothing to fit: no 'see above' over nothing"
# A row of commfit measure's cut short: its last column, stop, holds one of three words;
# anything else is refused with the line (a cut 'samples' was fitted without a word).
{ grep '^#' "$top_srcdir/data/sim-flat.csv"; grep -v '^#' "$top_srcdir/data/sim-flat.csv" | sed -n 1,31p
  grep -v '^#' "$top_srcdir/data/sim-flat.csv" | sed -n 32p | sed 's/,samples$/,sam/'; } >cut.csv
line=$(wc -l <cut.csv)
run "$COMMFIT" fit -i cut.csv -o mdir/cut.json
expect_rc 1 "a last row whose stop column was cut"
expect_err "commfit: fit: cut.csv:$line: column 'stop': expected samples, ci or time, got 'sam' (a row cut short? 'commfit measure --resume FILE' drops it and measures the point again)" \
    "a cut stop column: the file, the line and what to do"
check "a cut stop column: no model file" test ! -e mdir/cut.json
sed 's/,sam$/,ci/' cut.csv >ci.csv
run "$COMMFIT" fit -q -i ci.csv -o mdir/ci.json
expect_rc 0 "the same row stopped by its confidence interval ('ci')"
# A last row without its newline: cut where a field still reads (the datatype sweep's last
# row, ddt_stride_bytes 16 cut to 1, was fitted and drawn without a word; bad-input audit),
# or ended there by hand. Refused by fit and report with its line; ended, it reads.
ddt="$top_srcdir/data/ddt-vm-mpich402-np2.csv"
head -c -2 "$ddt" >ddt-cut.csv
line=$(($(wc -l <ddt-cut.csv) + 1))
for cmd in "fit -o mdir/ddt-cut.json" "report -o rep-cut"; do
    run "$COMMFIT" $cmd -i ddt-cut.csv
    expect_rc 1 "${cmd%% *}: a datatype row cut in its last field"
    expect_err "commfit: ${cmd%% *}: ddt-cut.csv:$line: the last row has no end of line: cut short? (every line commfit writes ends with one; 'commfit measure --resume FILE' drops a cut row and measures the point again; end the line if the row is whole)" \
        "${cmd%% *}: a row cut in its last field: the file, the line and what to do"
done
check "no model file, no report" test ! -e mdir/ddt-cut.json -a ! -e rep-cut
head -c -1 "$ddt" >ddt-noeol.csv
run "$COMMFIT" fit -q -i ddt-noeol.csv -o mdir/ddt-noeol.json
expect_rc 1 "a whole last row without its newline"
echo >>ddt-noeol.csv
cmp -s ddt-noeol.csv "$ddt"
check "ended, the file is the shipped table" test $? -eq 0
run "$COMMFIT" fit -q -i ddt-noeol.csv -o mdir/ddt-noeol.json
expect_rc 0 "ended, it fits"
# The datatype columns, where given: whole numbers, ddt_size_bytes the row's bytes, the
# extent at least that (a stride of 'abc' or a size other than the bytes read without a
# word; bad-input audit). Line 21 is the sweep's first vector row (4 B, extent 4, stride 8).
check "line 21 is the first vector row" sh -c "sed -n 21p '$ddt' | grep -q ',vector,4,4,8\$'"
n=0
for bad in "4,4,abc|column 'ddt_stride_bytes': expected a whole number of bytes, got 'abc'" \
    "8,4,8|column 'ddt_size_bytes': 8, where the row's bytes are 4 (the size of the element sent is the bytes sent)" \
    "4,2,8|column 'ddt_extent_bytes': 2, less than the element's size, 4" \
    "4,-4,8|column 'ddt_extent_bytes': expected a whole number of bytes, got '-4'"; do
    n=$((n + 1))
    sed "21s/,vector,4,4,8\$/,vector,${bad%%|*}/" "$ddt" >ddt-bad$n.csv
    for cmd in fit report; do
        run "$COMMFIT" $cmd -i ddt-bad$n.csv -o $cmd-bad$n
        expect_rc 1 "$cmd: datatype columns ${bad%%|*}"
        expect_err "commfit: $cmd: ddt-bad$n.csv:21: ${bad#*|}" "$cmd: datatype columns ${bad%%|*}: said"
    done
done
# An empty name in --patterns is refused as every other list option refuses one (it was
# passed over, exit 0; bad-input audit).
for l in pingpong,,bcast pingpong, ,pingpong; do
    run "$COMMFIT" fit -q -i "$top_srcdir/data/sim-flat.csv" --patterns "$l" -o mdir/empty-name.json
    expect_rc 2 "--patterns $l"
    expect_err "commfit: fit: --patterns '$l': an empty name (two commas together, or one at an end)
Try 'commfit fit --help'." "--patterns $l: said"
done
check "no model file" test ! -e mdir/empty-name.json
run "$COMMFIT" fit -q -v -i "$top_srcdir/data/sim-flat.csv" -o mdir/qv.json
expect_rc 2 "-q with -v"
expect_err "commfit: fit: -q (nothing but errors) and -v (the detailed summary) contradict each other
Try 'commfit fit --help'." "-q with -v: said, as measure's -q with --progress"
check "-q with -v: no model file" test ! -e mdir/qv.json
done_testing
