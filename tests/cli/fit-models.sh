# commfit fit on LogGP experiments, derived datatypes with pack per layout, and the
# options that choose what is fitted: --statistic, --weights, several -i, stdin.
. "$top_srcdir/tests/setup.sh"

# LogGP: L 1.1, o_s 0.6, o_r 0.5, g 0.9 us, G 1/9000 us per byte; the ping-pong follows.
{
    echo "$HDR"
    awk 'BEGIN {
        for (k = 0; k < 24; k++) {
            m = k == 0 ? 0 : 2 ^ (k - 1)
            printf "loggp_os,2,%d,byte,,100,5,%.12g,%.12g,%.12g,%.12g,,\n", m, 0.6 + m / 40000, 0.6 + m / 40000, 0.6 + m / 40000, 0.6 + m / 40000
            printf "loggp_or,2,%d,byte,,100,5,%.12g,%.12g,%.12g,%.12g,,\n", m, 0.5 + m / 50000, 0.5 + m / 50000, 0.5 + m / 50000, 0.5 + m / 50000
            g = 0.9 + m / 9000
            printf "loggp_gap,2,%d,byte,,100,5,%.12g,%.12g,%.12g,%.12g,,\n", m, g, g, g, g
            t = 2.2 + m / 9000
            printf "pingpong,2,%d,byte,,100,5,%.17g,%.17g,%.17g,%.17g,,%.12g\n", m, t, t, t, t, m / (1.048576 * t)
        }
    }'
} >loggp.csv

run "$COMMFIT" fit --verbose -i loggp.csv -o loggp.json
expect_rc 0 "loggp rows with auto"
check "auto: the ping-pong's own fit first" \
    grep -q '^pingpong np 2 byte: linear T(m) = 2.2 us' "$T/out"
check "auto: then its LogGP parameters" \
    grep -q '^pingpong np 2 byte: loggp T(m) = 2.2 us + m / (8.38 GiB/s); L = 1.1 us, o_s = 0.6 us, o_r = 0.5 us, g = 0.9 us, G = 0.000111 us/B' "$T/out"
check "auto: the experiments are fitted too" grep -q '^loggp_gap np 2 byte: linear' "$T/out"
# the model file holds both fits of the ping-pong, and predict, report and export read it (a
# model file is refused where it holds one fit twice, the model kind counted: the main job's
# was refused at first)
"$COMMFIT" fit -q -i loggp.csv -o loggp.json
run "$COMMFIT" predict -m loggp.json -p pingpong -n 2 -b 1K
expect_rc 0 "the ping-pong's own fit and its loggp fit in one file: predict reads it"
run "$COMMFIT" export smpi -m loggp.json -o loggp.xml
expect_rc 0 "and export"

run "$COMMFIT" fit --verbose -i loggp.csv -o loggp.json --model loggp
expect_rc 0 "--model loggp"
check "--model loggp: only the LogGP fit" test "$(wc -l <"$T/out")" -eq 1

grep -v '^loggp_os' loggp.csv >noos.csv
run "$COMMFIT" fit --verbose -i noos.csv -o x.json --model loggp
expect_rc 1 "--model loggp without loggp_os rows"
expect_err "commfit: fit: read noos.csv (72 rows)
commfit: fit: pingpong np 2 byte: loggp needs the 'loggp_os' rows of commfit measure (np 2, byte): the input has none" \
    "--model loggp without loggp_os rows"

# g (0.3) below o_s (0.6): a warning in the summary and in the model file.
sed 's/^loggp_gap,2,\([0-9]*\),byte,,100,5,[^,]*,[^,]*,[^,]*,[^,]*/&/' loggp.csv |
    awk -F, -v OFS=, '$1 == "loggp_gap" { for (i = 8; i <= 11; i++) $i = $i - 0.6 } { print }' >slowgap.csv
run "$COMMFIT" fit --verbose -i slowgap.csv -o slowgap.json
expect_rc 0 "contradictory LogGP estimates"
check "the summary warns that g < o_s" \
    grep -q '^  warning: g (0.3 us) < o_s (0.6 us): a sender cannot start messages faster than its own overhead' "$T/out"
check "the model file keeps the warning" grep -q '"g (0.3 us) < o_s (0.6 us)' slowgap.json

# Derived datatypes as commfit measure writes them beside the plain ping-pong: pack rows
# per layout (ddt_layout). The table reader takes one pack row per np, size and block
# count, so the two layouts come in two tables, pooled.
{
    echo "$HDR,ddt_layout,ddt_size_bytes,ddt_extent_bytes,ddt_stride_bytes"
    awk 'BEGIN {
        for (k = 10; k <= 20; k += 2) {
            m = 2 ^ k; t = 1.4 + m / 8000
            printf "pingpong,2,%d,byte,,100,5,%.12g,%.12g,%.12g,%.12g,,%.6g,,,,\n", m, t, t, t, t, m / t
        }
        for (k = 10; k <= 20; k += 2) for (b = 1; b <= 256; b *= 4) {
            m = 2 ^ k
            v = 1.5 + m / 8000 + 0.05 * b; pv = 2 + m / 5000 + 0.08 * b
            i = 1.5 + m / 8000 + 0.2 * b; pi = 2 + m / 5000 + 0.1 * b
            printf "pingpong,2,%d,vector,%d,100,5,%.12g,%.12g,%.12g,%.12g,,%.6g,vector,%d,%d,%d\n", m, b, v, v, v, v, m / v, m, 2 * m, 2 * m / b
            printf "pingpong,2,%d,pack,%d,100,5,%.12g,%.12g,%.12g,%.12g,,%.6g,vector,%d,%d,%d\n", m, b, pv, pv, pv, pv, m / pv, m, 2 * m, 2 * m / b
            printf "pingpong,2,%d,indexed,%d,100,5,%.12g,%.12g,%.12g,%.12g,,%.6g,indexed,%d,%d,%d\n", m, b, i, i, i, i, m / i, m, 2 * m, 2 * m / b >"/dev/stderr"
            printf "pingpong,2,%d,pack,%d,100,5,%.12g,%.12g,%.12g,%.12g,,%.6g,indexed,%d,%d,%d\n", m, b, pi, pi, pi, pi, m / pi, m, 2 * m, 2 * m / b >"/dev/stderr"
        }
    }' 2>ddt2.body
} >ddt.csv
{ head -1 ddt.csv; cat ddt2.body; } >ddt2.csv
run "$COMMFIT" fit --verbose -i ddt.csv -i ddt2.csv -o ddt.json
expect_rc 0 "derived datatypes"
check "vector: T(m, b) with its cost per block" \
    grep -q '^pingpong np 2 vector: datatype T(m, b) = 1.5 us + m / (7.45 GiB/s) + 0.05 us \* b | n 30' "$T/out"
check "pack fitted per layout" \
    grep -q '^pingpong np 2 pack_indexed: datatype T(m, b) = 2 us + m / (4.66 GiB/s) + 0.1 us \* b' "$T/out"
# The summary's gain table: columns by size asked for, rows by band of block counts
# (1, 2..10, 11..100, 101..1000), each cell the least and the most gain there.
gains() { grep -A6 "^pingpong np 2 $1:" "$T/out" | grep -E "$2" >/dev/null; }
check "vector compared with the pack of a vector: the columns are the sizes" \
    gains vector '^    blocks +1 KiB +4 KiB +16 KiB +64 KiB +256 KiB +1 MiB$'
check "vector compared with the pack of a vector: 1 KiB, 1 block +26.6%, 256 blocks +36.4%" \
    sh -c "gains() { grep -A6 \"^pingpong np 2 \$1:\" '$T/out' | grep -E \"\$2\" >/dev/null; }
           gains vector '^    1 +\\+27 ' && gains vector '^    256 +\\+36 '"
check "indexed compared with the pack of an indexed: 1 KiB, 1 block +20.7%, 256 blocks -90.0%" \
    sh -c "gains() { grep -A6 \"^pingpong np 2 \$1:\" '$T/out' | grep -E \"\$2\" >/dev/null; }
           gains indexed '^    1 +\\+21 ' && gains indexed '^    256 +-90 '"
check "a cell of several block counts (16 and 64) gives its least and its most" \
    gains indexed '^    16\.\.64 +-68\.\.-27 +-61\.\.-18 '
check "the gain table is a few lines: a header, the sizes, a line per band" \
    test "$(awk '/^pingpong np 2 vector:/ { f = 1; next } f && /^  / { n++ } f && !/^  / { f = 0 } END { print n }' "$T/out")" -eq 6
check "the summary gives the least and the most gain, labelled" \
    grep -q '| gain over pack: min -90%, max +37% (30 points)$' "$T/out"
check "the model file keeps each point's gain exactly (1 KiB, 1 block: 26.558%)" \
    grep -q '"gain_pct": 26.5581232' ddt.json
check "the model file has the gains" grep -q '"gain_over_pack"' ddt.json

# A struct of 16-byte particles has 3 blocks per particle: b = 3m/16 follows the size,
# so gamma cannot be told from beta and the fit is T = alpha + beta*m, beta including the
# cost per block (beta = 1/6000 + 0.01 * 3/16 us/B here). Its pack fit likewise; the gains
# are still reported, and predict answers for the struct. A pingpong group at np 4 with two
# sizes cannot be fitted: with --patterns pingpong it is a warning, as the others fit.
{
    echo "$HDR,ddt_layout,ddt_size_bytes,ddt_extent_bytes,ddt_stride_bytes"
    awk 'BEGIN {
        for (k = 4; k <= 22; k++) {
            m = 2 ^ k; b = 3 * m / 16
            t = 1.2 + m / 8000
            printf "pingpong,2,%d,byte,,100,5,%.12g,%.12g,%.12g,%.12g,,%.6g,,,,\n", m, t, t, t, t, m / t
            s = 1 + m / 6000 + 0.01 * b; p = 1.5 + m / 3000 + 0.02 * b
            printf "pingpong,2,%d,struct,%d,100,5,%.12g,%.12g,%.12g,%.12g,,%.6g,struct,%d,%d,16\n", m, b, s, s, s, s, m / (1.048576 * s), m, m
            printf "pingpong,2,%d,pack,%d,100,5,%.12g,%.12g,%.12g,%.12g,,%.6g,struct,%d,%d,16\n", m, b, p, p, p, p, m / (1.048576 * p), m, m
        }
        printf "pingpong,4,64,byte,,100,5,2,2,2,2,,30,,,,\n"
        printf "pingpong,4,128,byte,,100,5,2.1,2.1,2.1,2.1,,58,,,,\n"
    }'
} >struct.csv
run "$COMMFIT" fit --verbose -i struct.csv -o struct.json --patterns pingpong
expect_rc 0 "struct: blocks that follow the size"
check "struct: T = alpha + beta*m, the cost per block inside beta, and said so" \
    grep -q '^pingpong np 2 struct: linear T(m) = 1 us + m / (467 MiB/s); the cost per block is inside beta (b = 0.1875 m) |' "$T/out"
check "struct: its pack fitted the same way" \
    grep -q '^pingpong np 2 pack_struct: linear T(m) = 1.5 us + m / (234 MiB/s); the cost per block is inside beta (b = 0.1875 m) |' "$T/out"
check "struct: beta recovered to 1e-9 (gamma folded in)" \
    awk '/"datatype": "struct"/ { s = 1 } s && /"beta_us_per_byte"/ { gsub(/[,]/, "", $2); d = $2 / (1 / 6000 + 0.01 * 3 / 16) - 1; exit !(d < 1e-9 && d > -1e-9) }' struct.json
check "struct: the gain over pack is reported" grep -q '"gain_over_pack"' struct.json
grep_err "^commfit: fit: warning: skipped: pingpong np 4 byte: 2 distinct sizes: the auto model needs at least 3$" \
    "--patterns pingpong: a group that cannot be fitted is a warning when others fit"
run "$COMMFIT" predict -m struct.json -p pingpong -d struct -n 2 -b 64K -f csv
expect_rc 0 "predict -d struct"
check "predict -d struct: from the fit, within 1e-5 (3 decimals printed)" \
    awk -F, 'NR == 2 { t = 1 + 65536 / 6000 + 0.01 * 3 * 65536 / 16; d = $5 / t - 1; exit !($9 == "fit" && d < 1e-5 && d > -1e-5) }' "$T/out"

# A struct whose transfer changes protocol (eager to rendezvous) between 2 and 4 KiB, as
# MPICH's and Open MPI's did on this machine's sweeps: its blocks still follow its size, and
# its fit in the size alone is auto's, Hockney per protocol (one line through the step
# left 11% to 68% leave-one-out error there), the cost per block still inside beta.
{
    echo "$HDR,ddt_layout,ddt_size_bytes,ddt_extent_bytes,ddt_stride_bytes"
    awk 'BEGIN {
        for (k = 4; k <= 22; k++) {
            m = 2 ^ k; b = 3 * m / 16
            s = m <= 2048 ? 0.5 + m / 4000 : 3.5 + m / 20000
            printf "pingpong,2,%d,struct,%d,100,5,%.12g,%.12g,%.12g,%.12g,,%.6g,struct,%d,%d,16\n", m, b, s, s, s, s, m / (1.048576 * s), m, m
        }
    }'
} >struct-step.csv
run "$COMMFIT" fit --verbose -i struct-step.csv -o struct-step.json
expect_rc 0 "struct with a protocol step"
check "struct with a step: piecewise, the step between 2 and 4 KiB, the cost per block inside beta" \
    grep -Eq '^pingpong np 2 struct: piecewise T\(m\) = .*; the cost per block is inside beta \(b = 0.1875 m\) \|.* breakpoint in \(2 KiB, 4 KiB\)' "$T/out"
check "struct with a step: exact, its leave-one-out error at rounding level (e-notation)" \
    grep -Eq '^pingpong np 2 struct: .*\| n 19, loo [0-9.]+e-[0-9]+%' "$T/out"

# --statistic: an imported table without medians falls back to the mean; asking for the
# median then is an error naming the group.
{
    echo "$HDR"
    for m in 0 1024 65536 1048576; do
        echo "pingpong,2,$m,byte,,,,1,2,3,,,"
    done
} >nomed.csv
run "$COMMFIT" fit --verbose -i nomed.csv -o nomed.json
expect_rc 0 "a table without medians"
check "the statistic is the mean" grep -q '"statistic": "mean"' nomed.json
run "$COMMFIT" fit --verbose -i nomed.csv -o nomed.json --statistic median
expect_rc 1 "--statistic median without medians"
grep_err "nomed.csv:2: pingpong np 2 byte: the row at 0 B has no median time: expected a positive number \(choose another --statistic\)" \
    "--statistic median without medians: message"
run "$COMMFIT" fit --verbose -i nomed.csv -o nomed.json --statistic min --weights none --no-robust
expect_rc 0 "--statistic min --weights none --no-robust"
check "recorded in the model file" \
    sh -c "grep -q '\"statistic\": \"min\"' nomed.json && grep -q '\"weights\": \"none\"' nomed.json && grep -q '\"robust\": false' nomed.json"
run "$COMMFIT" fit --verbose -i nomed.csv -o nomed.json --weights variance
expect_rc 1 "--weights variance without t_ci95_us"
grep_err "nomed.csv:2: pingpong np 2 byte: the row at 0 B has no positive t_ci95_us: --weights variance needs it \(use relative\)" \
    "--weights variance without t_ci95_us: message"
# --weights variance reads a row's standard error back from t_ci95_us with the Student
# quantile measure wrote it with, t(0.975, samples - 1): the same standard errors written
# over 3 and 100 samples weigh the same (1.96 for both weighed the 3-sample rows 2.2x too
# little and moved beta by 1.9%).
for s in mixed same; do
    {
        echo "$HDR"
        awk -v s=$s 'BEGIN {
            for (i = 0; i < 16; i++) {
                m = 2 ^ (i + 1); t = (2 + 0.001 * m) * (1 + 0.03 * sin(i))
                n = s == "mixed" && i % 2 ? 3 : 100; q = n == 3 ? 4.302652729911275 : 1.984216951835
                printf "pingpong,2,%d,byte,,100,%d,%.9f,%.9f,%.9f,%.9f,%.9f,\n", m, n, t, t, t, t, q * 0.02 * t
            }
        }'
    } >se-$s.csv
    run "$COMMFIT" fit -q -i se-$s.csv -o se-$s.json -m linear --weights variance --no-robust
    expect_rc 0 "--weights variance, samples $s"
done
check "--weights variance: equal standard errors weigh the same over 3 or 100 samples" \
    awk '/"beta_us_per_byte"/ && !b[FILENAME]++ { gsub(/,/, "", $2); v[++n] = $2 }
         END { d = v[1] / v[2] - 1; exit !(n == 2 && d < 1e-9 && d > -1e-9) }' se-mixed.json se-same.json

# A piecewise fit's degrees of freedom count its breakpoints, which were searched to fit
# the points (as its AICc does): 12 sizes in 3 segments leave 12 - 6 - 2 = 4 (it said 6).
{
    echo "$HDR"
    awk 'BEGIN {
        for (i = 0; i < 12; i++) {
            m = 2 ^ i; a = i < 4 ? 1 : i < 8 ? 3 : 10
            t = (a + m / (i < 4 ? 250 : i < 8 ? 500 : 500)) * (1 + 0.01 * sin(3 * i))
            printf "pingpong,2,%d,byte,,100,10,%.5f,%.5f,%.5f,%.5f,%.5f,\n", m, t, t, t, t, t / 100
        }
    }'
} >pw.csv
run "$COMMFIT" fit -q -i pw.csv -o pw.json -m piecewise
expect_rc 0 "piecewise, three segments"
check "piecewise: three segments" test "$(grep -c '"from_bytes"' pw.json)" -eq 3
check "piecewise: dof counts the 2 breakpoints" grep -q '"dof": 4,' pw.json

# --no-robust reaches the across-np fit: a contention that grows as sqrt(p), which no
# algorithm of the allreduce has, makes the across-np model miss np 2's and 4's larger sizes,
# which it set aside as outliers even without --no-robust's say (and said nothing of).
{
    echo "$HDR"
    awk 'BEGIN {
        n = split("4 64 1024 16384 262144 1048576", s, " ")
        for (p = 2; p <= 64; p *= 2)
            for (i = 1; i <= n; i++) {
                m = s[i]; t = (2 * log(p) / log(2) + m * (p - 1) / p / 5000 * (1 + 0.25 * sqrt(p)))
                t *= 1 + 0.001 * sin(p + i)
                printf "allreduce,%d,%d,float,,100,10,%.6f,%.6f,%.6f,%.6f,,\n", p, m, t, t, t, t
            }
    }'
} >contention.csv
run "$COMMFIT" fit -i contention.csv -o contention.json
expect_rc 0 "a contention no algorithm has"
grep_err "^commfit: fit: warning: across np, points set aside as outliers: allreduce [1-9][0-9]* of 36 " \
    "the across-np points set aside: said"
check "the across-np points set aside: counted in the model's quality" \
    awk '/"across_np"/ { a = 1 } a && /"rejected": [1-9]/ { f = 1 } END { exit !f }' contention.json
run "$COMMFIT" fit --no-robust -i contention.csv -o contention-all.json
expect_rc 0 "--no-robust, across np"
check "--no-robust: nothing set aside across np, nothing said" \
    sh -c "! grep -q 'set aside' '$T/err' && ! awk '/\"across_np\"/ { a = 1 } a && /\"rejected\": [1-9]/ { f = 1 } END { exit !f }' contention-all.json"
run "$COMMFIT" predict -m contention.json -p allreduce -n 128 -b 1M -f csv
cp "$T/out" set-aside.csv
run "$COMMFIT" predict -m contention-all.json -p allreduce -n 128 -b 1M -f csv
check "--no-robust: the interval at np 128 reaches lower (no upper bound either way: a table without placement)" \
    awk -F, 'NR == FNR && FNR == 2 { lo = $6 } NR != FNR && FNR == 2 { exit !($6 < lo && $7 == "inf") }' set-aside.csv "$T/out"

# Rows pooled from several tables: the row is named in its own table, at its own line.
{
    echo "$HDR"
    for m in 1 1024 65536; do
        echo "pingpong,2,$m,byte,,,,1,2,3,2,0.1,"
    done
} >withci.csv
{
    echo "# a comment line"
    echo "$HDR"
    echo "pingpong,2,2097152,byte,,,,1,2,3,2,0.1,"
    echo "pingpong,2,4194304,byte,,,,1,2,3,,,"
} >lastci.csv
run "$COMMFIT" fit -i withci.csv -i lastci.csv -o two.json --weights variance
expect_rc 1 "--weights variance, a row without t_ci95_us in the second table"
grep_err "lastci.csv:4: pingpong np 2 byte: the row at 4 MiB has no positive t_ci95_us" \
    "--weights variance: the second table's row at its line"
run "$COMMFIT" fit -i lastci.csv -i withci.csv -o two.json --statistic median
expect_rc 1 "--statistic median, a row without a median in the first table"
grep_err "lastci.csv:4: pingpong np 2 byte: the row at 4 MiB has no median time" \
    "--statistic median: the first table's row at its line"

# Several tables pool their rows; stdin is '-'.
run "$COMMFIT" fit --verbose -i loggp.csv -i ddt.csv -o both.json --patterns pingpong
expect_rc 0 "two tables"
check "two tables: both named on stderr" \
    sh -c "grep -q '^commfit: fit: read loggp.csv (96 rows)' '$T/err' && grep -q '^commfit: fit: read ddt.csv (66 rows)' '$T/err'"
check "two tables: both in the source" \
    sh -c "grep -q '\"file\": \"loggp.csv\"' both.json && grep -q '\"file\": \"ddt.csv\"' both.json"
run sh -c "\"$COMMFIT\" fit -i - --patterns pingpong --model linear --formulas gnuplot <loggp.csv"
expect_rc 0 "a table on stdin"
expect_out "T_pingpong_np2(m) = 2.2 + 0.000111111111111111*m  # us; m in bytes" "a table on stdin"
check "a table on stdin: the model is models/stdin.json" test -s models/stdin.json
run "$COMMFIT" fit --verbose -i loggp.csv -o l.json --patterns pingpong --model linear --formulas latex
expect_out 'T_{\mathrm{pingpong},\, p=2}(m) = 2.2 + 0.0001111\, m \quad [\mu\mathrm{s}; m \text{ in bytes}]' \
    "--formulas latex"
# With several fits, each line of text and latex says which fit it is (the text form named
# none, the latex one only the pattern: np 2 and np 4 read alike); an underscore is escaped.
run "$COMMFIT" fit -i "$top_srcdir/data/sim-flat.csv" -o f.json --patterns bcast --np 2,4 --formulas text
expect_rc 0 "--formulas text of two fits"
check "--formulas text: each line names its fit" \
    sh -c "sed -n 1p '$T/out' | grep -q '^bcast np 2: T(m) = ' && sed -n 2p '$T/out' | grep -q '^bcast np 4: T(m) = '"
run "$COMMFIT" fit -i "$top_srcdir/data/imb2021_mpich402_1node_np2_all.csv" -o i.json --patterns reduce_scatter --formulas latex
check "--formulas latex: an underscore escaped, the process count given" \
    grep -q '^T_{\\mathrm{reduce\\_scatter},\\, p=2}(m) = ' "$T/out"

# MPICH's derived-datatype cost: one block takes the contiguous path, two or more the
# packing engine, T(m, b) = 0.3 + m/9500 + 0.025*b + [b > 1] (1.5 + m/7000) us, exact,
# over measure's default grid (blocks 1 to 10, 100, 1000 where the payload has the floats).
{
    echo "$HDR,ddt_layout,ddt_size_bytes,ddt_extent_bytes,ddt_stride_bytes"
    awk 'BEGIN {
        nb = split("1 2 3 4 5 6 7 8 9 10 100 1000", bl, " ")
        for (k = 3; k <= 22; k++) for (j = 1; j <= nb; j++) {
            b = bl[j]; if (2 ^ k < 4 * b) continue
            m = int(2 ^ k / (4 * b)) * 4 * b
            t = 0.3 + m / 9500 + 0.025 * b + (b > 1 ? 1.5 + m / 7000 : 0)
            printf "pingpong,2,%d,vector,%d,100,5,%.17g,%.17g,%.17g,%.17g,,%.6g,vector,%d,%d,%d\n", m, b, t, t, t, t, m / (1.048576 * t), m, 2 * m, 2 * m / b
        }
    }'
} >step.csv
run "$COMMFIT" fit --verbose -i step.csv -o step.json
expect_rc 0 "derived datatypes with the contiguous / packing step"
check "step: the formula has the step at 2 blocks and the cost per block with its interval" \
    grep -q '^pingpong np 2 vector: datatype T(m, b) = 0.3 us + m / (8.85 GiB/s) + 0.025 us \* b + \[b > 1\] (1.5 us + m / (6.52 GiB/s)) | n 209, loo [0-9.e-]*%, max [0-9.e-]*%, R2 1.0000, per block 25 ns \[25, 25\] | beyond: [0-9.]*% a doubling, the model x1.00 with the measured trend, going on from the measured top x[01].[0-9]* (backtest in size, [0-9]* rows*)\(, the slope turning [0-9.e-]* a doubling at the top\)*$' "$T/out"
check "step: the model file has delta and beta_pack" \
    sh -c "grep -q '\"delta_us\": 1.5' step.json && grep -q '\"beta_pack_us_per_byte\": 0.000142857' step.json"
check "step: the model file has the cost per block in ns with its interval" \
    awk '/"per_block"/ { f = 1 } f && /"ns"/ { gsub(/,/, "", $2); d = $2 - 25; n++ } f && /"lo_ns"|"hi_ns"/ { gsub(/,/, "", $2); n += ($2 - 25 < 1e-6 && $2 - 25 > -1e-6) } END { exit !(n == 3 && d < 1e-6 && d > -1e-6) }' step.json
# The model alone (--model-alone): at a block count predict otherwise corrects it by the
# measured points at that count, here the model's own times.
for b in 1 2 1000; do
    run "$COMMFIT" predict -m step.json -p pingpong -n 2 -b 1M -d vector --blocks $b -f csv --model-alone
    expect_rc 0 "predict -d vector --blocks $b"
    check "predict -d vector --blocks $b at 1 MiB: the step model, to 6 digits" \
        awk -F, -v b=$b 'NR == 2 { m = 1048576; t = 0.3 + m / 9500 + 0.025 * b + (b > 1 ? 1.5 + m / 7000 : 0)
                                  d = $5 / t - 1; exit !($10 == "datatype" && d < 1e-5 && d > -1e-5) }' "$T/out"
done

# Two protocols, as MPICH over UCX: to 8 KiB the step model with 0.5 ns per block, from
# 16 KiB (rendezvous, the packing engine pipelined) another line and 8 ns per block. The
# fit finds the switch, each segment its cost per block; predict and the model file follow.
{
    echo "$HDR,ddt_layout,ddt_size_bytes,ddt_extent_bytes,ddt_stride_bytes"
    awk 'BEGIN {
        nb = split("1 2 3 4 5 6 7 8 9 10 100 1000", bl, " ")
        for (k = 3; k <= 22; k++) for (j = 1; j <= nb; j++) {
            b = bl[j]; if (2 ^ k < 4 * b) continue
            m = int(2 ^ k / (4 * b)) * 4 * b
            if (m < 12000) t = 0.3 + m / 9500 + 0.0005 * b + (b > 1 ? 0.2 + m / 20000 : 0)
            else t = 2 + m / 16000 + 0.008 * b + (b > 1 ? 0.5 + m / 50000 : 0)
            printf "pingpong,2,%d,vector,%d,100,5,%.17g,%.17g,%.17g,%.17g,,%.6g,vector,%d,%d,%d\n", m, b, t, t, t, t, m / (1.048576 * t), m, 2 * m, 2 * m / b
        }
    }'
} >proto.csv
run "$COMMFIT" fit --verbose -i proto.csv -o proto.json
expect_rc 0 "derived datatypes over two protocols"
check "protocols: a segment each, the switch between 8 KiB and 16000 B" \
    grep -q '^pingpong np 2 vector: datatype T(m, b) = 0.3 us + .* (m <= 8 KiB); 2 us + .* (m >= 16000 B) | .*, breakpoint in (8 KiB, 16000 B)' "$T/out"
check "protocols: the summary gives the cost per block of each segment" \
    grep -q ', per block 0.5 ns \[0.5, 0.5\] (m <= 8 KiB), 8 ns \[8, 8\] (m >= 16000 B),' "$T/out"
check "protocols: the model file has the cost per block in each segment" \
    awk '/"per_block"/ { f = 1 } f && /"ns"/ { gsub(/,/, "", $2); v[++n] = $2; f = 0 }
         END { exit !(n == 2 && v[1] - 0.5 < 1e-6 && 0.5 - v[1] < 1e-6 && v[2] - 8 < 1e-6 && 8 - v[2] < 1e-6) }' proto.json
for at in 4K:1 4K:7 1M:1 1M:1000; do
    run "$COMMFIT" predict -m proto.json -p pingpong -n 2 -b "${at%:*}" -d vector --blocks "${at#*:}" -f csv
    expect_rc 0 "predict -d vector at $at (bytes:blocks)"
    check "protocols: predict at $at (bytes:blocks) from its segment, to 6 digits" \
        awk -F, -v b="${at#*:}" 'NR == 2 { m = $3; if (m < 12000) t = 0.3 + m / 9500 + 0.0005 * b + (b > 1 ? 0.2 + m / 20000 : 0)
                                           else t = 2 + m / 16000 + 0.008 * b + (b > 1 ? 0.5 + m / 50000 : 0)
                                           d = $5 / t - 1; exit !($10 ~ /^datatype segment/ && d < 1e-5 && d > -1e-5) }' "$T/out"
done

# A sweep without the contiguous count (blocks 2 to 100 only) whose fit is negative at 0
# blocks (-0.5 us + 1 us per block): the fit is checked at the smallest measured count,
# where predict answers, not at 0 blocks, which no row has.
{
    echo "$HDR,ddt_layout,ddt_size_bytes,ddt_extent_bytes,ddt_stride_bytes"
    awk 'BEGIN {
        nb = split("2 3 4 5 6 7 8 9 10 100", bl, " ")
        for (k = 3; k <= 22; k++) for (j = 1; j <= nb; j++) {
            b = bl[j]; if (2 ^ k < 4 * b) continue
            m = int(2 ^ k / (4 * b)) * 4 * b
            t = -0.5 + m / 9500 + b
            printf "pingpong,2,%d,vector,%d,100,5,%.17g,%.17g,%.17g,%.17g,,%.6g,vector,%d,%d,%d\n", m, b, t, t, t, t, m / (1.048576 * t), m, 2 * m, 2 * m / b
        }
    }'
} >nob1.csv
run "$COMMFIT" fit -i nob1.csv -o nob1.json
expect_rc 0 "derived datatypes without the contiguous count"
check "no contiguous count: checked at 2 blocks, not refused at 0" \
    sh -c "! grep -q 'negative time' '$T/err'"
run "$COMMFIT" predict -m nob1.json -p pingpong -n 2 -b 3000 -d vector --blocks 2 -f csv --model-alone
expect_rc 0 "predict -d vector --blocks 2, no contiguous count"
check "no contiguous count: predict at 3000 B and 2 blocks, to 6 digits" \
    awk -F, 'NR == 2 { t = -0.5 + $3 / 9500 + 2; d = $5 / t - 1; exit !(d < 1e-5 && d > -1e-5) }' "$T/out"

# A plain row (byte, float) whose blocks column holds 1 is a plain row: the same fits, the
# same across-np model and point-to-point estimate as with the column empty.
for B in "" 1; do
    {
        echo "$HDR"
        awk -v B="$B" 'BEGIN {
            for (k = 2; k <= 22; k++) { m = 2 ^ k; t = 1 + m / 8000
                printf "pingpong,2,%d,byte,%s,100,5,%.10g,%.10g,%.10g,%.10g,,%.10g\n", m, B, t, t, t, t, m / (1.048576 * t) }
            for (p = 2; p <= 16; p *= 2) for (k = 2; k <= 22; k++) { m = 2 ^ k; t = log(p) / log(2) * (1.5 + m / 5000)
                printf "allreduce,%d,%d,float,%s,100,5,%.10g,%.10g,%.10g,%.10g,,\n", p, m, B, t, t, t, t }
        }'
    } >plain$B.csv
    run "$COMMFIT" fit -i plain$B.csv -o plain$B.json
    expect_rc 0 "plain rows, blocks '$B'"
    grep -v '"file"\|"output"' plain$B.json >plain$B.cmp
done
check "blocks 1 on plain rows: the model file is the one of an empty blocks column" cmp plain.cmp plain1.cmp
check "blocks 1 on plain rows: an across-np model for allreduce" grep -q '"basis"' plain1.json
check "blocks 1 on plain rows: a point-to-point estimate" sh -c "! grep -q 'no pingpong rows at np=2' plain1.json"

# The poor-fit flag holds for every model: LogGP fitted beside auto, from experiments that
# contradict the ping-pong (G = 1/9000 us/B where the ping-pong takes 1/1000).
awk -F, -v OFS=, '$1 == "pingpong" { t = 2.2 + $3 / 1000; $8 = $9 = $10 = $11 = t; $13 = $3 / (1.048576 * t) } { print }' loggp.csv >badloggp.csv
run "$COMMFIT" fit --verbose -i badloggp.csv -o badloggp.json
expect_rc 0 "LogGP that contradicts the ping-pong"
check "the loggp fit beside auto carries the poor-fit warning" \
    sh -c "grep -A1 '^pingpong np 2 byte: loggp ' '$T/out' | grep -q '^  warning: poor fit: its leave-one-out error, 42%, is above 25%; its predictions are rough$'"

# No cost falls with size: beyond the largest measured size predict holds the time there
# where the model falls (a concave poly2's tangent, a line of negative slope), and the code
# formulas do too (OSU's latency on an InfiniBand node, poly2: the C formula read -509 us at
# 32 MiB where predict --model-alone reads 308; the formulas check).
"$COMMFIT" fit -q -i "$top_srcdir/data/osu532_hpccofc_ib_latency_compute001.csv" -m poly2 -o concave.json
run "$COMMFIT" fit -q -i "$top_srcdir/data/osu532_hpccofc_ib_latency_compute001.csv" -m poly2 \
    -o concave2.json --formulas c
expect_rc 0 "--formulas c of a concave poly2"
cp "$T/out" concave.h
run "$COMMFIT" fit -q -i "$top_srcdir/data/osu532_hpccofc_ib_latency_compute001.csv" -m poly2 \
    -o concave3.json --formulas python
cp "$T/out" concave.py
printf '2 %s\n' 1048576 4194304 8388608 33554432 1073741824 >concave.pts
"$COMMFIT" predict -m concave.json -p pingpong --points concave.pts --model-alone -f csv |
    awk -F, 'NR > 1 { print $3, $5 }' >concave.want
if cc -o concave -x c - -lm 2>/dev/null <<CEOF
#include <math.h>
#include <stdio.h>
$(cat concave.h)
int main(void) { double m; while (scanf("%lf %*s", &m) == 1) printf("%.6g\n", T_pingpong_np2(m)); return 0; }
CEOF
then
    ./concave <concave.want | paste -d' ' concave.want - >concave.got
    check "the C formula of a concave poly2 reads predict --model-alone's times, past the top too" \
        awk '{ d = ($3 - $2) / $2; if (d < 0) d = -d; if (d > 1e-5 || $3 <= 0) bad++ } END { exit !(NR == 5 && !bad) }' concave.got
else
    skip "the C formula of a concave poly2: no cc"
fi
if command -v python3 >/dev/null; then
    python3 -c 'exec(open("concave.py").read())
for l in open("concave.want"):
    m, t = l.split()
    print(m, t, "%.6g" % T_pingpong_np2(float(m)))' >concave.pgot
    check "and so does the python formula" \
        awk '{ d = ($3 - $2) / $2; if (d < 0) d = -d; if (d > 1e-5 || $3 <= 0) bad++ } END { exit !(NR == 5 && !bad) }' concave.pgot
fi

# With blocks too (predict holds T(M, b) where the line falls; the review): a datatype fit
# of t = 500 - 0.0015 m + 2 b read -1071 us at 1 MiB from the code, 108.8 from predict.
awk 'BEGIN { print "# schema: 1"
             print "pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,t_med_us,t_ci95_us,bw_MiBps"
             for (k = 0; k <= 8; k++) { m = 1024 * 2 ^ k
                 for (b = 1; b <= 8; b *= 2) { t = 500 - 0.0015 * m + 2 * b
                     printf "pingpong,2,%d,vector,%d,100,5,%.6f,%.6f,%.6f,%.6f,,1\n", m, b, t, t, t, t } } }' >blkfall.csv
"$COMMFIT" fit -q -i blkfall.csv -o blkfall.json
run "$COMMFIT" fit -q -i blkfall.csv -o blkfall2.json --formulas python
expect_rc 0 "--formulas python of a datatype fit that falls"
if command -v python3 >/dev/null; then
    cp "$T/out" blkfall.py
    for b in 1 2 8; do
        for m in 1048576 4194304; do
            want=$("$COMMFIT" predict -m blkfall.json -p pingpong -d vector -n 2 -b $m --blocks $b --model-alone -f csv | awk -F, 'NR == 2 { print $5 }')
            got=$(python3 -c "exec(open('blkfall.py').read()); print('%.6g' % T_pingpong_vector_np2($m.0, $b.0))")
            echo "$m $b $want $got"
        done
    done >blkfall.got
    check "the datatype fit's formula holds the time at the top where its line falls, as predict" \
        awk '{ d = ($4 - $3) / $3; if (d < 0) d = -d; if (d > 1e-5 || $4 <= 0) bad++ } END { exit !(NR == 6 && !bad) }' blkfall.got
fi

done_testing
