# commfit fit end to end: defaults, the model file, the summary, formulas, bad inputs.
. "$top_srcdir/tests/setup.sh"

HDR=pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,t_med_us,t_ci95_us,bw_MiBps

# table FILE: exact Hockney ping-pong (2 us + m/8000 us) and a poly2 gather, 24 sizes.
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
            printf "barrier,4,0,byte,,100,5,5,5,5,5,,\n"
        }'
    } >"$1"
}

mkdir data
table data/run1.csv

run "$COMMFIT" fit
expect_rc 0 "fit with defaults"
expect_err "commfit: fit: read data/run1.csv (49 rows)
commfit: fit: warning: skipped: barrier np 4 byte: 1 distinct size: the auto model needs at least 3
commfit: fit: barrier (byte): not enough process counts (have 1, need 3); fitted per np only
commfit: fit: gather (byte): not enough process counts (have 1, need 3); fitted per np only
commfit: fit: wrote models/run1.json (2 fits)
commfit: fit: draw the report with: commfit report -m models/run1.json" "fit with defaults"
check "the model file is written" test -s models/run1.json
check "one summary line per fit" test "$(grep -c ' np ' "$T/out")" -eq 2
check "the ping-pong is linear with its formula" \
    grep -q '^pingpong np 2 byte: linear T(m) = 2 us + m / (7.45 GiB/s)' "$T/out"
check "the summary shows saturation" grep -q 'r_inf 7629 MiB/s' "$T/out"
check "the gather is poly2" grep -q '^gather np 4 byte: poly2 ' "$T/out"
check "the model file says its version" grep -q '"commfit_model": 1' models/run1.json
check "no NaN in the model file" sh -c "! grep -qi nan models/run1.json"

run "$COMMFIT" fit -i data/run1.csv --patterns pingpong --model linear -o out.json --formulas c
expect_rc 0 "--formulas c"
expect_out "static inline double T_pingpong_np2(double m) { return 2 + 0.000125*m; } /* us; m in bytes */" \
    "--formulas c"
check "-o names the model file" test -s out.json

run "$COMMFIT" fit -i data/run1.csv --patterns pingpong --model linear -o out.json --formulas python
expect_out "def T_pingpong_np2(m): return 2 + 0.000125*m  # us; m in bytes" "--formulas python"

run "$COMMFIT" fit -i data/run1.csv --patterns barrier
expect_rc 1 "a named pattern that cannot be fitted"
expect_err "commfit: fit: read data/run1.csv (49 rows)
commfit: fit: barrier np 4 byte: 1 distinct size: the auto model needs at least 3" \
    "a named pattern that cannot be fitted"

run "$COMMFIT" fit -i data/run1.csv --patterns alltoall
expect_rc 1 "a pattern with no rows"
grep_err "no rows of pattern 'alltoall' in the input" "a pattern with no rows: message"

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

# No table at all.
mkdir empty-dir
cd empty-dir
run "$COMMFIT" fit
expect_rc 1 "no data folder"
grep_err "^commfit: fit: data: cannot open folder" "no data folder: message"
cd ..

done_testing
