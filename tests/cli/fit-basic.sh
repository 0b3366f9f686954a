# commfit fit end to end: defaults, the model file, the summary, formulas, bad inputs.
. "$top_srcdir/tests/setup.sh"
lacks() { ! grep -q "$@"; }

# table FILE: exact Hockney ping-pong (2 us + m/8000 us) and a poly2 gather, 24 sizes,
# and a barrier (5 us, a 95% half-width of 0.2776 us over 5 samples: a standard error of
# 0.1 us).
table() {
    {
        echo "# schema: 1"
        echo "# commfit: $VERSION"
        echo "$HDR"
        awk 'BEGIN {
            for (k = 0; k < 24; k++) {
                m = k == 0 ? 0 : 2 ^ (k - 1)
                t = 2 + m / 8000
                printf "pingpong,2,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", m, t, t, t, t, t / 100, m / (1.048576 * t)
                g = 3 + m / 4000 + 2e-11 * m * m
                printf "gather,4,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", m, g, g, g, g
            }
            printf "barrier,4,0,byte,,100,5,5,5,5,5,0.2776,\n"
        }'
    } >"$1"
}

mkdir data
table data/run1.csv

run "$COMMFIT" fit --verbose
expect_rc 0 "fit with defaults"
expect_err "commfit: fit: read data/run1.csv (49 rows)
commfit: fit: barrier, gather: fitted per np only, not enough process counts (have 1, need 3); predict answers other np with the point-to-point estimate
commfit: fit: wrote models/run1.json (3 fits)
commfit: fit: draw the report with: commfit report -m models/run1.json" "fit with defaults"
check "the model file is written" test -s models/run1.json
check "one summary line per fit" test "$(grep -c ' np ' "$T/out")" -eq 3
check "the barrier, measured at 0 B only, gets a constant with its interval" \
    grep -q '^barrier np 4 byte: constant T = 5 us; 95% interval of a measurement \[4.62, 5.41\] us | n 1,' "$T/out"
check "the ping-pong is linear with its formula" \
    grep -q '^pingpong np 2 byte: linear T(m) = 2 us + m / (7.45 GiB/s)' "$T/out"
check "the summary shows saturation" grep -q 'r_inf 7629 MiB/s' "$T/out"
check "the Hockney ping-pong is flat from 512 KiB (within 5% of the median of the last 3)" \
    grep -q 'peak 7600 MiB/s at 4 MiB, flat from 512 KiB$' "$T/out"
check "the gather is poly2" grep -q '^gather np 4 byte: poly2 ' "$T/out"
check "the model file says its version" grep -q '"commfit_model": 1' models/run1.json
check "no NaN in the model file" sh -c "! grep -qi nan models/run1.json"

# Numbers for people: a sendrecv (two messages a call) of 2 us + m/8000 us, its largest
# size 4194300 bytes: bandwidths in whole MiB/s (15259, not 1.526e+04), R^2 with four
# decimals, a size that is not round in bytes.
{
    echo "$HDR"
    awk 'BEGIN {
        for (k = 0; k < 24; k++) {
            m = k == 0 ? 0 : k == 23 ? 4194300 : 2 ^ (k - 1); t = 2 + m / 8000
            printf "sendrecv,2,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,%.10g\n", m, t, t, t, t, 2 * m / (1.048576 * t)
        }
    }'
} >sendrecv.csv
run "$COMMFIT" fit --verbose -i sendrecv.csv -o sendrecv.json
expect_rc 0 "a sendrecv"
check "bandwidths in whole MiB/s, R^2 with 4 decimals, exact bytes where a size is not round" \
    grep -q '^sendrecv np 2 byte: linear T(m) = 2 us + m / (7.45 GiB/s) | n 24, loo [^,]*, max [^,]*, R2 1.0000 | beyond: 0.0% a doubling, the model x1.00 with the measured trend, going on from the measured top x1.00 (backtest in size, 4 rows), the slope turning [0-9.e-]* a doubling at the top | r_inf 15259 MiB/s \[15259, 15259\], n1/2 15.6 KiB, 90% at 141 KiB, peak 15201 MiB/s at 4194300 B, flat from 512 KiB$' "$T/out"

# A ping-pong whose bandwidth falls beyond its peak (0.5 + m/6000 us to 8 KiB, 4 + m/9000
# to 512 KiB, -200 + m/3000 from 1 MiB): the last segment's intercept is negative, so
# n_1/2 and the 90% size come from the middle one; the fall and the missing plateau are
# said.
{
    echo "$HDR"
    awk 'BEGIN {
        for (k = 0; k < 24; k++) {
            m = k == 0 ? 0 : 2 ^ (k - 1)
            t = m <= 8192 ? 0.5 + m / 6000 : m <= 524288 ? 4 + m / 9000 : -200 + m / 3000
            printf "pingpong,2,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", m, t, t, t, t, t / 100, m / (1.048576 * t)
        }
    }'
} >falls.csv
run "$COMMFIT" fit --verbose -i falls.csv -o falls.json --model piecewise
expect_rc 0 "a falling bandwidth"
check "n_1/2 and the 90% size from the middle segment, named" \
    grep -q "n1/2 35.2 KiB and 90% at 316 KiB from segment 2 (16 KiB to 512 KiB, 8583 MiB/s; the last segment's intercept is negative)" "$T/out"
check "the fall beyond the peak is said" \
    grep -q "peak 8032 MiB/s at 512 KiB, bandwidth falls beyond 512 KiB (3339 MiB/s at 4 MiB)" "$T/out"
check "no plateau: not flat within the measured sizes" \
    grep -q ", not flat within the measured sizes$" "$T/out"
check "the model file: the segment, the fall, no flat size" \
    sh -c 'grep -q "\"half_perf_segment\": 1," falls.json && grep -q "\"falls_beyond_bytes\": 524288" falls.json && grep -q "\"flat_from_bytes\": null" falls.json'

# A gather that MPI short-circuits without data (0.0093 us at 0 B, 0.27 + m/5000 us with
# data) and a scatter whose times zigzag by a factor 2 with size: the 0-byte point is set
# aside, said in the summary and the model file, and predict at 0 B says what was measured
# there; the scatter's fit is called poor.
{
    echo "$HDR"
    awk 'BEGIN {
        for (k = 0; k < 24; k++) {
            m = k == 0 ? 0 : 2 ^ (k - 1)
            t = k == 0 ? 0.0093 : 0.27 + m / 5000
            printf "gather,2,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", m, t, t, t, t
            t = (1 + m / 5000) * (k % 2 ? 1 : 2.5)
            printf "scatter,2,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", m, t, t, t, t
        }
    }'
} >noop.csv
run "$COMMFIT" fit --verbose -i noop.csv -o noop.json
expect_rc 0 "a 0-byte no-op"
check "the gather is fitted from 1 B: its line exactly" \
    grep -q '^gather np 2 byte: linear T(m) = 0.27 us + m / (4.66 GiB/s) | n 23, ' "$T/out"
check "the summary says the 0-byte point was set aside, and why" \
    grep -q '^  set aside: a no-op: 0 B took 0.0093 us, below half of the 0.27 us the smallest sizes give at 0 B (MPI returns at once from a call without data); fitted from 1 B$' "$T/out"
check "the model file lists it with its reason" \
    sh -c 'grep -q "\"set_aside\": \[" noop.json && grep -q "\"reason\": \"a no-op: 0 B took 0.0093 us" noop.json'
check "the scatter's fit is called poor" \
    grep -q '^  warning: poor fit: its leave-one-out error, [0-9.]*%, is above 25%; its predictions are rough$' "$T/out"
check "the gather's is not" sh -c "! grep -A2 '^gather' '$T/out' | grep -q 'poor fit'"
run "$COMMFIT" predict -m noop.json -p gather -n 2 -b 0 -f csv
expect_rc 0 "predict at 0 B after a no-op"
run "$COMMFIT" predict -m noop.json -p gather -n 2 -b 0 -f json
check "the no-op's time in JSON as measured (0.0093, not exp(log) of it)" grep -q '"t_us": 0.0093,' "$T/out"
run "$COMMFIT" predict -m noop.json -p gather -n 2 -b 0 -f csv
check "predict at 0 B: the no-op's measured time, a factor 2 each way (the line read 0.27 there)" \
    grep -q '^gather,2,0,byte,0.0093,0.00465,0.0186,,fit,measured no-op,bytes,"bytes 0 B is below the fitted sizes (from 1 B), a no-op set aside from the fit: its measured time, 0.0093 us, the interval a factor 2 each way (--model-alone: the model.s reading)",$' "$T/out"
# Two tables fitted together each set their 0 B aside: the answer is their geometric mean,
# the interval holding both (it took the last one's time and the first one's interval, and
# refused the answer as outside it).
awk -F, -v OFS=, '!/^#/ && $1 == "gather" && $3 == 0 { $8 = $9 = $10 = $11 = 0.0186 } { print }' noop.csv >noop2.csv
run "$COMMFIT" fit -q -i noop.csv -i noop2.csv -o noop12.json
run "$COMMFIT" predict -m noop12.json -p gather -n 2 -b 0 -f csv
expect_rc 0 "two tables' no-ops at 0 B"
check "their geometric mean, the interval holding both a factor 2 out" \
    awk -F, 'NR == 2 { exit !($5 > 0.01314 && $5 < 0.01316 && $6 > 0.00464 && $6 < 0.00466 && $7 > 0.0371 && $7 < 0.0373) }' "$T/out"
run "$COMMFIT" predict -m noop.json -p gather -n 2 -b 0 --model-alone -f csv
check "--model-alone: the line's reading, and what was measured there" \
    grep -q '^gather,2,0,byte,0.27,[0-9.]*,[0-9.]*,,fit,linear,bytes,"bytes 0 B is below the fitted sizes (from 1 B): measured there 0.0093 us, a no-op set aside from the fit",$' "$T/out"

# Across process counts: the fitted np's answers at the no-op are their measured times, so an
# np between (or beyond) reads them, not the formula carried down (an IMB allgather of 0 B,
# 0.04 us at the fitted np 64 and 128, read 1124 us at np 96).
{
    echo "$HDR"
    awk 'BEGIN {
        for (p = 2; p <= 16; p *= 2)
            for (k = 0; k <= 10; k++) {
                m = k == 0 ? 0 : 2 ^ (k + 9)
                t = k == 0 ? 0.04 : (p - 1) * (20 + m / 1000)
                printf "allgather,%d,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", p, m, t, t, t, t
            }
    }'
} >noop-np.csv
"$COMMFIT" fit -q -i noop-np.csv --np 2,4,16 -o noop-np.json
run "$COMMFIT" predict -m noop-np.json -p allgather -n 4,8,32 -b 0 -f csv
check "allgather of 0 B at the fitted np 4: its measured no-op" \
    awk -F, 'NR == 2 { exit !($5 == 0.04 && $10 == "measured no-op") }' "$T/out"
check "at np 8, between the fitted np: within 20% of the no-ops, inside its interval" \
    awk -F, 'NR == 3 { exit !($5 > 0.032 && $5 < 0.048 && $6 <= 0.04 && $7 >= 0.04) }' "$T/out"
check "at np 32, beyond: within 50%, its lower end below it" \
    awk -F, 'NR == 4 { exit !($5 > 0.02 && $5 < 0.06 && $6 <= 0.04) }' "$T/out"

run "$COMMFIT" fit -i data/run1.csv --patterns pingpong --model linear -o out.json --formulas c
expect_rc 0 "--formulas c"
expect_out "static inline double T_pingpong_np2(double m) { return 2 + 0.000125*m; } /* us; m in bytes */" \
    "--formulas c"
check "-o names the model file" test -s out.json

# Every fit's C formula in a header that a program includes and uses none of: static
# inline functions, no unused-function warning (the barrier's unused m is voided).
"$COMMFIT" fit -i data/run1.csv -o out.json --formulas c >costs.h 2>/dev/null
printf '#include "costs.h"\nint main(void) { return 0; }\n' >costs.c
if command -v cc >/dev/null 2>&1; then
    check "--formulas c: a header that compiles unused with -Wall -Wextra -Werror" \
        cc -Wall -Wextra -Werror -c -o costs.o costs.c
else
    skip "--formulas c compiles unused: no cc"
fi

run "$COMMFIT" fit -i data/run1.csv --patterns pingpong --model linear -o out.json --formulas python
expect_out "def T_pingpong_np2(m): return 2 + 0.000125*m  # us; m in bytes" "--formulas python"

{
    echo "$HDR"
    echo "scatter,4,64,byte,,100,5,3,3,3,3,,"
    echo "scatter,4,128,byte,,100,5,3.5,3.5,3.5,3.5,,"
    echo "barrier,4,0,byte,,100,1,5,5,5,5,,"
} >two.csv
run "$COMMFIT" fit -i two.csv --patterns scatter
expect_rc 1 "a named pattern that cannot be fitted"
expect_err "commfit: fit: read two.csv (3 rows)
commfit: fit: scatter np 4 byte: 2 distinct sizes: the auto model needs at least 3" \
    "a named pattern that cannot be fitted"
run "$COMMFIT" fit -i two.csv --patterns barrier
expect_rc 1 "a barrier without its spread"
expect_err "commfit: fit: read two.csv (3 rows)
commfit: fit: two.csv:4: barrier np 4 byte: one row, of one sample: the constant model needs its spread (a t_ci95_us over 2 samples or more, or several rows)" \
    "a barrier without its spread"

run "$COMMFIT" fit -i data/run1.csv --patterns alltoall
expect_rc 1 "a pattern with no rows"
grep_err "no rows of pattern 'alltoall' in the input; it has: " "a pattern with no rows: message, with what the input has"
# With --np, what the input has at those np (it listed the pattern it said was missing;
# the second review).
run "$COMMFIT" fit -i "$top_srcdir/data/sim-flat.csv" --patterns pingpong --np 4 -o np4.json
expect_rc 1 "a pattern with no rows at the np asked"
expect_err "commfit: fit: read $top_srcdir/data/sim-flat.csv (432 rows)
commfit: fit: --patterns: no rows of pattern 'pingpong' at the requested --np in the input; it has there: bcast, allgather, reduce, allreduce, alltoall" \
    "a pattern with no rows at the np asked: what is there"

run "$COMMFIT" fit -i data/run1.csv --patterns gather --model poly2 --np 2
expect_rc 1 "--np without rows"

run "$COMMFIT" fit --model cubic
expect_rc 2 "unknown model"
expect_err "commfit: fit: --model 'cubic': expected auto, linear, poly2, piecewise or loggp
Try 'commfit fit --help'." "unknown model"

run "$COMMFIT" fit --formulas fortran
expect_rc 2 "unknown formula language"

run "$COMMFIT" fit --weights heavy
expect_rc 2 "unknown weights"

# Bad tables: empty, only a header, NaN; nothing is written.
: >empty.csv
run "$COMMFIT" fit -i empty.csv -o e.json
expect_rc 1 "an empty table"
expect_err "commfit: fit: empty.csv: empty file: expected a timing table" "an empty table"
{ echo "# schema: 1"; echo "$HDR"; } >header.csv
run "$COMMFIT" fit -i header.csv -o e.json
expect_rc 1 "a table without rows"
expect_err "commfit: fit: read header.csv (0 rows)
commfit: fit: header.csv: no rows: nothing to fit" "a table without rows"
{ echo "$HDR"; echo "pingpong,2,8,byte,,1,1,nan,1,1,1,,"; } >nan.csv
run "$COMMFIT" fit -i nan.csv -o e.json
expect_rc 1 "a NaN time"
grep_err "nan.csv:2: column 't_min_us': expected a finite number, got 'nan'" "a NaN time: message"
{ echo "$HDR"; echo "pingpong,2,8,byte,,1,1,1,1,1,1,,"; } >one.csv
run "$COMMFIT" fit -i one.csv -o e.json
expect_rc 1 "a single point"
grep_err "no fit could be made" "a single point: message"
check "no model file after failures" test ! -e e.json

# A table whose ranks had their processors part of the time (rank_cpu_share: a loaded
# machine) is fitted with a warning naming the rank and its share; not one above 90%.
{ echo "# rank_cpu_share: 1.00*3;0.46;-;0.97*2"; cat data/run1.csv; } >loaded.csv
run "$COMMFIT" fit -i loaded.csv -o loaded.json
expect_rc 0 "a table measured on a loaded machine"
grep_err "^commfit: fit: warning: loaded.csv: rank 3 ran on a processor 46% of its timed calls' time .rank_cpu_share." \
    "a loaded machine: the rank and its share"
{ echo "# rank_cpu_share: 1.00*3;0.91;-*2;0.97"; cat data/run1.csv; } >busy-enough.csv
run "$COMMFIT" fit -i busy-enough.csv -o busy-enough.json
expect_rc 0 "a table whose ranks ran 91% or more"
check "no warning above 90%" sh -c "! grep -q rank_cpu_share '$T/err'"
# predict says it too, of the model's table, once (it answered from such a table with an
# empty note; a new user)
p=$(awk -F, '!/^#/ && NR > 1 && $1 != "pattern" { print $1, $2; exit }' data/run1.csv)
run "$COMMFIT" predict -m loaded.json -p "${p% *}" -n "${p#* }" -b 1K,2K
expect_rc 0 "predict from a table measured on a loaded machine"
check "predict: the rank and its share said once" \
    test "$(grep -c "^commfit: predict: warning: loaded.json: its table loaded.csv: rank 3 ran on a processor 46% of its timed calls' time (rank_cpu_share): the times it fitted, and the answers, include waiting for other work; measure again on an idle machine\$" "$T/err")" -eq 1
run "$COMMFIT" predict -m busy-enough.json -p "${p% *}" -n "${p#* }" -b 1K
check "predict: no warning above 90%" sh -c "! grep -q rank_cpu_share '$T/err'"

# Tables named as operands are read as with -i, after those given with -i: the same
# model file as -i in that order (its name from the first -i), and a missing one is named.
table two-a.csv
run "$COMMFIT" fit -q -i data/run1.csv -i two-a.csv -o by-option.json
expect_rc 0 "two tables with -i"
run "$COMMFIT" fit -q two-a.csv -i data/run1.csv -o by-operand.json
expect_rc 0 "a table as an operand after one with -i"
check "an operand is read as -i is, after the -i tables" \
    sh -c "sed 's/by-operand/by-option/' by-operand.json | cmp -s - by-option.json"
run "$COMMFIT" fit two-a.csv
expect_rc 0 "a table as the only operand"
check "its model file is named after it" test -s models/two-a.json
run "$COMMFIT" fit -q two-a.csv missing.csv -o m.json
expect_rc 1 "a missing operand"
grep_err "^commfit: fit: missing.csv: cannot open" "a missing operand: named"
check "no model file after a missing operand" test ! -e m.json

# No table at all.
mkdir empty-dir
cd empty-dir
run "$COMMFIT" fit
expect_rc 1 "no data folder"
grep_err "^commfit: fit: data: cannot open folder" "no data folder: message"
cd ..

# The closing hint names a model file report can read with its tables: none for /dev/null;
# with a table read from standard input, which report cannot read again, it asks for it.
run "$COMMFIT" fit -i data/run1.csv -o /dev/null
expect_rc 0 "fit -o /dev/null"
check "fit -o /dev/null: no report hint" lacks 'draw the report' "$T/err"
run sh -c "\"$COMMFIT\" fit - -o piped.json <data/run1.csv"
expect_rc 0 "fit of standard input"
grep_err "^commfit: fit: draw the report with: commfit report -m piped.json -i TABLE, naming the table read from standard input$" \
    "fit of standard input: the hint asks for the table"
cp data/run1.csv run1b.csv
run sh -c "\"$COMMFIT\" fit - run1b.csv -o piped2.json <data/run1.csv"
grep_err "^commfit: fit: draw the report with: commfit report -m piped2.json -i TABLE, naming the table read from standard input, and -i each of the others$" \
    "fit of standard input and a file: report draws one table"

# An imported IMB barrier is one row of one sample: no fit, skipped with why, and not in the
# list of patterns "fitted per np only".
run "$COMMFIT" fit "$top_srcdir/data/imb41_gbrandino_juno_arm_internode_eth.csv" -o juno.json
expect_rc 0 "juno's IMB table"
grep_err "warning: skipped: .*:384: barrier np 2 byte: one row, of one sample" "juno: the barrier skipped, with why"
check "juno: the barrier not listed as fitted per np" \
    sh -c "grep 'fitted per np only' '$T/err' | grep -q 'allgather' && ! grep 'fitted per np only' '$T/err' | grep -q barrier"

# From np=2 alone the lower end holds np=2's no-op (allreduce of 0 B at np 8 read the
# algorithm's latencies, 6.01 us in [4.24, 8.52], for 0.01 simulated); the estimate stays the
# algorithm's (SMPI's mpich alltoall of 0 B runs Bruck's steps at np 8: 6.06 us).
{
    echo "$HDR"
    awk 'BEGIN {
        printf "allreduce,2,0,float,,100,5,0.04,0.04,0.04,0.04,,\n"
        for (k = 2; k <= 20; k += 2) { m = 2 ^ k; t = 0.5 + m / 2000; u = 1 + m / 1000
            printf "pingpong,2,%d,byte,,100,5,%g,%g,%g,%g,,\n", m, t, t, t, t
            printf "allreduce,2,%d,float,,100,5,%g,%g,%g,%g,,\n", m, u, u, u, u } }'
} >noop-p2p.csv
"$COMMFIT" fit -q -i noop-p2p.csv -o noop-p2p.json
run "$COMMFIT" predict -m noop-p2p.json -p allreduce -n 8 -b 0,4 -f csv
check "from np=2, allreduce of 0 B at np 8: the lower end np=2's no-op halved, the estimate the algorithm's" \
    awk -F, 'NR == 2 { exit !($5 > 1 && $6 == 0.02 && $9 == "p2p-estimate" && $10 != "measured no-op" && /the lower end holds np=2.s time there, 0.04 us/) }' "$T/out"
check "and 4 B the estimate" awk -F, 'NR == 3 { exit !($5 > 1 && $10 != "measured no-op") }' "$T/out"
# An algorithm the MPI library's environment sets: the library's switch rules do not hold for
# it, and fit says so (a new user forced Open MPI's bcast to its linear algorithm).
forced() { # MPI_LIBRARY MPI_ENV: a table of bcast at np 2 and 4 with those keys
    echo "# schema: 1"
    echo "# mpi_library: $1"
    echo "# mpi_env: $2"
    echo "$HDR"
    awk 'BEGIN { for (p = 2; p <= 4; p *= 2) for (k = 0; k < 6; k++) { m = 4 ^ k; t = p * (1 + m / 1000)
        printf "bcast,%d,%d,byte,,100,5,%g,%g,%g,%g,,\n", p, m, t, t, t, t } }'
}
fit_forced() { # MPI_LIBRARY MPI_ENV: fit such a table (forced's), its messages in $T/err
    forced "$1" "$2" >forced.csv
    run "$COMMFIT" fit -i forced.csv -o forced.json
}
fit_forced "Open MPI v4.1.4" "OMPI_MCA_coll_tuned_bcast_algorithm=1;OMPI_MCA_coll_tuned_use_dynamic_rules=1;OMPI_MCA_ess=pmi"
check "Open MPI's bcast forced: fit says its switch rules do not hold" \
    grep -q "^commfit: fit: warning: forced.csv: its mpi_env sets the algorithm of bcast (OMPI_MCA_coll_tuned_bcast_algorithm=1): the library's switch rules" "$T/err"
fit_forced "Open MPI v4.1.4" "OMPI_MCA_coll_tuned_bcast_algorithm=1;OMPI_MCA_ess=pmi"
check "without use_dynamic_rules the variable is ignored by Open MPI: nothing said" \
    sh -c "! grep -q 'sets the algorithm' '$T/err'"
fit_forced "Open MPI v4.1.4" "OMPI_MCA_coll_tuned_bcast_algorithm=ignore;OMPI_MCA_coll_tuned_use_dynamic_rules=1"
check "'ignore' (Open MPI's 0): nothing said" sh -c "! grep -q 'sets the algorithm' '$T/err'"
fit_forced "Open MPI v4.1.4" "OMPI_MCA_coll_tuned_bcast_algorithm=linear;OMPI_MCA_coll_tuned_use_dynamic_rules=yes"
check "use_dynamic_rules=yes and an algorithm by name: said" \
    grep -q "its mpi_env sets the algorithm of bcast (OMPI_MCA_coll_tuned_bcast_algorithm=linear)" "$T/err"
# Open MPI's booleans as its parser reads them: a whole number not 0, true, t, enabled, yes, y
# (on, or TRUE, it refuses); an algorithm of 00 is 0; a key given twice is one collective.
for v in enabled 2 on TRUE; do
    fit_forced "Open MPI v4.1.4" "OMPI_MCA_coll_tuned_bcast_algorithm=1;OMPI_MCA_coll_tuned_use_dynamic_rules=$v"
    case $v in
    on | TRUE) check "use_dynamic_rules=$v, which Open MPI refuses: nothing said" sh -c "! grep -q 'sets the algorithm' '$T/err'" ;;
    *) check "use_dynamic_rules=$v: said" grep -q "sets the algorithm of bcast" "$T/err" ;;
    esac
done
fit_forced "Open MPI v4.1.4" "OMPI_MCA_coll_tuned_bcast_algorithm=00;OMPI_MCA_coll_tuned_use_dynamic_rules=1"
check "an algorithm of 00 is 0: nothing said" sh -c "! grep -q 'sets the algorithm' '$T/err'"
fit_forced "Open MPI v4.1.4" "OMPI_MCA_coll_tuned_bcast_algorithm=1;OMPI_MCA_coll_tuned_use_dynamic_rules=1;OMPI_MCA_coll_tuned_bcast_algorithm=2"
check "a key given twice: bcast named once" \
    grep -q "sets the algorithm of bcast (OMPI_MCA_coll_tuned_bcast_algorithm=1): the library" "$T/err"
fit_forced "MPICH Version: 4.0.2" "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=auto;MPIR_CVAR_IBCAST_INTRA_ALGORITHM=tsp_tree;MPIR_CVAR_BCAST_INTRA_ALGORITHM=scatter_ring_allgather"
check "MPICH's bcast set by its CVAR (allreduce's auto is no setting, ibcast no pattern): said" \
    grep -q "its mpi_env sets the algorithm of bcast (MPIR_CVAR_BCAST_INTRA_ALGORITHM=scatter_ring_allgather): " "$T/err"
fit_forced "MPICH Version: 4.0.2" "MPICH_ALLREDUCE_INTRA_ALGORITHM=recursive_doubling;MPIR_PARAM_ALLTOALL_INTRA_ALGORITHM=brucks"
check "MPICH's other two prefixes (MPICH_, MPIR_PARAM_): said" \
    grep -q "its mpi_env sets the algorithm of allreduce (MPICH_ALLREDUCE_INTRA_ALGORITHM=recursive_doubling), alltoall (MPIR_PARAM_ALLTOALL_INTRA_ALGORITHM=brucks): " "$T/err"
# One row without a median: the mean is fitted for every row, as the default's rule says,
# and fit says so at that row (one empty cell switched every fit to the mean, nothing said).
{
    echo "$HDR"
    awk 'BEGIN { for (k = 0; k < 8; k++) { m = 4 ^ k; t = 1 + m / 1000
        printf "pingpong,2,%d,byte,,100,5,%g,%g,%g,%s,,\n", m, t, t, t, k == 3 ? "" : t } }'
} >nomed.csv
run "$COMMFIT" fit -i nomed.csv -o nomed.json
check "one median missing: said at its line, the mean fitted" \
    grep -q "^commfit: fit: warning: nomed.csv:5: no t_med_us: the mean (t_avg_us) is fitted for every row" "$T/err"
check "and the model file records the mean" grep -q '"statistic": "mean"' nomed.json
run "$COMMFIT" fit -i nomed.csv -o nomed.json --statistic mean
check "--statistic mean asked for: nothing said" sh -c "! grep -q 'no t_med_us' '$T/err'"
done_testing
