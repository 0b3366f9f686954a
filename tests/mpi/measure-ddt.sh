# commfit measure --patterns ddt under $MPIEXEC -n 2: every derived datatype and its
# baselines at several sizes and block counts, verified (--check); complete rows with
# the payload really sent; the gain over pack; --resume; refusals before any traffic.
. "$top_srcdir/tests/setup.sh"

# cols FILE NAME...: the named columns of a table, space-separated, one row a line.
cols() {
    f=$1
    shift
    awk -F, -v want="$*" '/^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; n = split(want, w, " "); h = 1; next }
        { s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") $c[w[i]]; print s }' "$f"
}

run mpirun 2 "$COMMFIT" measure --patterns ddt --sizes 0,16,1000,4K --blocks 1,3,100 \
    --samples 2 --reps 3 --check -o t.csv
expect_rc 0 "every datatype at 0, 16, 1000 and 4096 bytes, 1, 3, 100 blocks, with --check"
expect_err "commfit: measure: wrote t.csv (79 rows)
commfit: measure: draw the report with: commfit report -i t.csv" "rank 0 reports once"
cols t.csv pattern np bytes datatype blocks ddt_layout ddt_size_bytes ddt_extent_bytes \
    ddt_stride_bytes >rows
expect_text rows "pingpong 2 12 contiguous 1 contiguous 12 12 
pingpong 2 12 vector 3 vector 12 20 8
pingpong 2 12 hvector 3 hvector 12 20 8
pingpong 2 12 pack 3 vector 12 20 8
pingpong 2 12 pack 3 hvector 12 20 8
pingpong 2 16 contiguous 1 contiguous 16 16 
pingpong 2 16 vector 1 vector 16 16 32
pingpong 2 16 hvector 1 hvector 16 16 32
pingpong 2 16 indexed 1 indexed 16 16 32
pingpong 2 16 hindexed 1 hindexed 16 16 32
pingpong 2 16 pack 1 vector 16 16 32
pingpong 2 16 pack 1 hvector 16 16 32
pingpong 2 16 pack 1 indexed 16 16 32
pingpong 2 16 pack 1 hindexed 16 16 32
pingpong 2 16 indexed 3 indexed 16 24 8
pingpong 2 16 hindexed 3 hindexed 16 24 8
pingpong 2 16 struct 3 struct 16 16 16
pingpong 2 16 pack 3 indexed 16 24 8
pingpong 2 16 pack 3 hindexed 16 24 8
pingpong 2 16 pack 3 struct 16 16 16
pingpong 2 800 contiguous 1 contiguous 800 800 
pingpong 2 800 vector 100 vector 800 1592 16
pingpong 2 800 hvector 100 hvector 800 1592 16
pingpong 2 800 pack 100 vector 800 1592 16
pingpong 2 800 pack 100 hvector 800 1592 16
pingpong 2 992 contiguous 1 contiguous 992 992 
pingpong 2 992 struct 186 struct 992 992 16
pingpong 2 992 pack 186 struct 992 992 16
pingpong 2 996 contiguous 1 contiguous 996 996 
pingpong 2 996 vector 3 vector 996 1660 664
pingpong 2 996 hvector 3 hvector 996 1660 664
pingpong 2 996 pack 3 vector 996 1660 664
pingpong 2 996 pack 3 hvector 996 1660 664
pingpong 2 1000 contiguous 1 contiguous 1000 1000 
pingpong 2 1000 vector 1 vector 1000 1000 2000
pingpong 2 1000 hvector 1 hvector 1000 1000 2000
pingpong 2 1000 indexed 1 indexed 1000 1000 2000
pingpong 2 1000 hindexed 1 hindexed 1000 1000 2000
pingpong 2 1000 pack 1 vector 1000 1000 2000
pingpong 2 1000 pack 1 hvector 1000 1000 2000
pingpong 2 1000 pack 1 indexed 1000 1000 2000
pingpong 2 1000 pack 1 hindexed 1000 1000 2000
pingpong 2 1000 indexed 3 indexed 1000 1664 664
pingpong 2 1000 hindexed 3 hindexed 1000 1664 664
pingpong 2 1000 pack 3 indexed 1000 1664 664
pingpong 2 1000 pack 3 hindexed 1000 1664 664
pingpong 2 1000 indexed 100 indexed 1000 1792 16
pingpong 2 1000 hindexed 100 hindexed 1000 1792 16
pingpong 2 1000 pack 100 indexed 1000 1792 16
pingpong 2 1000 pack 100 hindexed 1000 1792 16
pingpong 2 4000 contiguous 1 contiguous 4000 4000 
pingpong 2 4000 vector 100 vector 4000 7960 80
pingpong 2 4000 hvector 100 hvector 4000 7960 80
pingpong 2 4000 pack 100 vector 4000 7960 80
pingpong 2 4000 pack 100 hvector 4000 7960 80
pingpong 2 4092 contiguous 1 contiguous 4092 4092 
pingpong 2 4092 vector 3 vector 4092 6820 2728
pingpong 2 4092 hvector 3 hvector 4092 6820 2728
pingpong 2 4092 pack 3 vector 4092 6820 2728
pingpong 2 4092 pack 3 hvector 4092 6820 2728
pingpong 2 4096 contiguous 1 contiguous 4096 4096 
pingpong 2 4096 vector 1 vector 4096 4096 8192
pingpong 2 4096 hvector 1 hvector 4096 4096 8192
pingpong 2 4096 indexed 1 indexed 4096 4096 8192
pingpong 2 4096 hindexed 1 hindexed 4096 4096 8192
pingpong 2 4096 pack 1 vector 4096 4096 8192
pingpong 2 4096 pack 1 hvector 4096 4096 8192
pingpong 2 4096 pack 1 indexed 4096 4096 8192
pingpong 2 4096 pack 1 hindexed 4096 4096 8192
pingpong 2 4096 indexed 3 indexed 4096 6824 2728
pingpong 2 4096 hindexed 3 hindexed 4096 6824 2728
pingpong 2 4096 pack 3 indexed 4096 6824 2728
pingpong 2 4096 pack 3 hindexed 4096 6824 2728
pingpong 2 4096 indexed 100 indexed 4096 8056 80
pingpong 2 4096 hindexed 100 hindexed 4096 8056 80
pingpong 2 4096 pack 100 indexed 4096 8056 80
pingpong 2 4096 pack 100 hindexed 4096 8056 80
pingpong 2 4096 struct 768 struct 4096 4096 16
pingpong 2 4096 pack 768 struct 4096 4096 16" \
    "rows: payloads rounded to what each layout carries, 0 bytes and too many blocks skipped"
check "every row is complete (only contiguous rows have no stride)" \
    test "$(awk -F, '/^#/ || NR == 1 { next } !/^pattern,/ {
        for (i = 1; i <= 18; i++) if ($i == "" && !(i == 18 && $4 == "contiguous")) bad++ }
        END { print bad + 0 }' t.csv)" -eq 0
check "every row: --reps 3, --samples 2" \
    test "$(cols t.csv reps samples | grep -cvx '3 2')" -eq 0
check "no payload above the size asked, all multiples of 4" \
    test "$(cols t.csv bytes | awk '$1 % 4 || $1 > 4096' | wc -l)" -eq 0

# --ddt-summary: per datatype, size and block count, the gain over pack.
run mpirun 2 "$COMMFIT" measure --patterns ddt --datatypes vector,struct,pack --sizes 4K \
    --blocks 1,4 --samples 2 --reps 3 -q --ddt-summary -o s.csv
expect_rc 0 "--ddt-summary"
check "--ddt-summary: a header" \
    test "$(head -n 1 "$T/out" | tr -s ' ')" = "datatype np bytes blocks t_type_us t_pack_us gain_%"
check "--ddt-summary: one line per datatype row" \
    test "$(awk 'NR > 1 { print $1, $2, $3, $4 }' "$T/out" | tr '\n' ';')" = \
    "vector 2 4096 1;vector 2 4096 4;struct 2 4096 768;"
# Against the table's own times (the medians), not the rounded ones printed: the times
# printed to 3 decimals, the gain to 1, whatever the times are.
cols s.csv datatype bytes blocks ddt_layout t_med_us >times
check "--ddt-summary: the times are the table's, gain = (t_pack - t_type) / t_pack in percent" \
    test "$(awk 'function abs(x) { return x < 0 ? -x : x }
        FILENAME != ARGV[2] { if ($1 == "pack") tp[$4 " " $2 " " $3] = $5
                              else tt[$1 " " $2 " " $3] = $5; next }
        FNR > 1 { k = $1 " " $3 " " $4; n++
                  if (!(k in tt) || !(k in tp) || abs($5 - tt[k]) > 0.00051 ||
                      abs($6 - tp[k]) > 0.00051 || abs($7 - 100 * (tp[k] - tt[k]) / tp[k]) > 0.051)
                      bad++ }
        END { print (n == 3 ? bad + 0 : "no lines") }' times "$T/out")" = 0
check "--datatypes: only what was asked" \
    test "$(cols s.csv datatype | sort -u | tr '\n' ' ')" = "pack struct vector "
# --datatypes all, the default --help names: every datatype (it was refused, exit 2).
run mpirun 2 "$COMMFIT" measure --patterns ddt --datatypes all --sizes 64 --blocks 2 \
    --samples 1 --reps 2 -q -o all.csv
expect_rc 0 "--datatypes all"
check "--datatypes all: the seven datatypes" \
    test "$(cols all.csv datatype | sort -u | tr '\n' ' ')" = \
    "contiguous hindexed hvector indexed pack struct vector "

# --resume takes up an interrupted derived-datatype run where it stopped.
run mpirun 2 "$COMMFIT" measure --patterns pingpong,ddt --datatypes indexed,pack --sizes 64,4K \
    --blocks 1,2 --samples 1 --reps 2 -q -o full.csv
expect_rc 0 "a run to interrupt"
head -n -3 full.csv >cut.csv
run mpirun 2 "$COMMFIT" measure -q --resume cut.csv
expect_rc 0 "--resume of a run without its last 3 rows"
check "--resume: the same rows, none twice" \
    test "$(cols cut.csv pattern bytes datatype blocks ddt_layout | sort | uniq -c | md5sum)" = \
    "$(cols full.csv pattern bytes datatype blocks ddt_layout | sort | uniq -c | md5sum)"
check "--resume: pingpong's byte rows kept apart from the datatype rows" \
    test "$(cols cut.csv pattern datatype | grep -c '^pingpong byte$')" -eq 2

# The default sweep includes the derived datatypes, next to every other pattern.
run mpirun 2 "$COMMFIT" measure --sizes 64 --samples 1 --reps 2 -q -o d.csv
expect_rc 0 "the default patterns"
check "the default patterns: datatype rows" \
    test "$(cols d.csv datatype | grep -c -e vector -e struct -e pack)" -gt 0
check "the default patterns: the byte ping-pong too" \
    test "$(cols d.csv pattern datatype | grep -c '^pingpong byte$')" -eq 1

# Refusals, before any MPI traffic: plain (before the self-launch) and under a launcher.
refused() {
    desc=$1
    msg=$2
    shift 2
    run "$COMMFIT" measure "$@" -o no.csv
    expect_rc 2 "$desc"
    expect_err "commfit: measure: $msg
Try 'commfit measure --help'." "$desc: the message"
    run mpirun 2 "$COMMFIT" measure "$@" -o no.csv
    expect_rc 2 "$desc, under the launcher"
    expect_err "commfit: measure: $msg
Try 'commfit measure --help'." "$desc, under the launcher: said once"
    check "$desc: no table" test ! -e no.csv
}
refused "zero blocks" "--blocks '0': a datatype needs at least 1 block" \
    --patterns ddt --blocks 1,0
refused "more blocks than floats" \
    "--blocks '2000': more blocks than the 1024 floats of the largest size (4 KiB)" \
    --patterns ddt --sizes 64,4K --blocks 10,2000
refused "--blocks without ddt" "--blocks applies to derived datatypes only: add ddt to --patterns" \
    --patterns pingpong --blocks 3
refused "--ddt-summary without ddt" \
    "--ddt-summary applies to derived datatypes only: add ddt to --patterns" \
    --patterns pingpong --ddt-summary
refused "an unknown datatype" \
    "--datatypes: unknown datatype 'float': expected all, vector, hvector, indexed, hindexed, struct, contiguous or pack" \
    --patterns ddt --datatypes vector,float
refused "pack alone" \
    "--datatypes 'pack,contiguous': pack needs a derived datatype to pack (vector, hvector, indexed, hindexed or struct)" \
    --patterns ddt --datatypes pack,contiguous
refused "blocks that are not numbers" "--blocks 'x': expected an integer" --patterns ddt --blocks x

done_testing
