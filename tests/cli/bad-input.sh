# A table of bad inputs: for each, commfit exits 1 or 2 with a message that starts
# "commfit:" and names the problem, leaves no output file behind, and no sanitizer
# reports anything.
. "$top_srcdir/tests/setup.sh"

in="$T/in"
mkdir -p "$in"

# A good table (Hockney ping-pong, 8 sizes) and a model fitted from it.
{
    echo "# schema: 1"
    echo "$HDR"
    for m in 0 1 4 16 64 256 1024 4096; do
        awk -v m=$m 'BEGIN { t = 1 + m / 1000; printf "pingpong,2,%d,byte,,100,5,%.6g,%.6g,%.6g,%.6g,0.01,\n", m, t, t, t, t }'
    done
} >"$in/good.csv"
"$COMMFIT" fit -i "$in/good.csv" -o "$in/good.json" >/dev/null 2>&1
check "a model to break is fitted from a good table" test -s "$in/good.json"

# Table variants: line 3 is the first row.
bad_row() { { echo "# schema: 1"; echo "$HDR"; printf '%s\n' "$@"; } >"$in/$name.csv"; }
name=fields-short; bad_row "pingpong,2,0,byte,,100,5,1,1,1,1,0.01"
name=fields-long; bad_row "pingpong,2,0,byte,,100,5,1,1,1,1,0.01,,9"
name=nan; bad_row "pingpong,2,0,byte,,100,5,nan,1,1,1,0.01,"
name=inf; bad_row "pingpong,2,0,byte,,100,5,1,inf,1,1,0.01,"
name=neg-time; bad_row "pingpong,2,0,byte,,100,5,-1,1,1,1,0.01,"
name=zero-time; bad_row "pingpong,2,0,byte,,100,5,0,1,1,1,0.01,"
name=nan-med; bad_row "pingpong,2,0,byte,,100,5,1,1,1,NaN,0.01,"
name=neg-inf; bad_row "pingpong,2,0,byte,,100,5,1,1,-inf,1,0.01,"
name=overflow-time; bad_row "pingpong,2,0,byte,,100,5,1,1e999,1e999,1,0.01,"
name=neg-med; bad_row "pingpong,2,0,byte,,100,5,1,1,1,-3,0.01,"
# A U measured away from its bottom: the parabola through it is negative at 5000 bytes.
name=poly2-negative
bad_row $(for k in 0 1 2 3 7 8 9 10; do
    awk -v k=$k 'BEGIN { t = 0.01 * (k - 5) ^ 2 - 0.001
        printf "gather,4,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", k * 1000, t, t, t, t }'
done)
name=text-number; bad_row "pingpong,2,0,byte,,100,5,1,fast,1,1,0.01,"
name=np-zero; bad_row "pingpong,0,0,byte,,100,5,1,1,1,1,0.01,"
name=np-neg; bad_row "pingpong,-2,0,byte,,100,5,1,1,1,1,0.01,"
name=bytes-neg; bad_row "pingpong,2,-8,byte,,100,5,1,1,1,1,0.01,"
name=bytes-huge; bad_row "pingpong,2,99999999999999999999,byte,,100,5,1,1,1,1,0.01,"
name=min-gt-max; bad_row "pingpong,2,0,byte,,100,5,3,2,1,2,0.01,"
name=pattern-caps; bad_row "PingPong,2,0,byte,,100,5,1,1,1,1,0.01,"
name=duplicate; bad_row "pingpong,2,0,byte,,100,5,1,1,1,1,0.01," "pingpong,2,0,byte,,100,5,1,1,1,1,0.01,"
name=unsorted; bad_row "pingpong,2,64,byte,,100,5,1,1,1,1,0.01," "pingpong,2,8,byte,,100,5,1,1,1,1,0.01,"
name=empty-field; bad_row "pingpong,2,0,byte,,100,5,1,,1,1,0.01,"
name=reps-zero; bad_row "pingpong,2,0,byte,,0,5,1,1,1,1,0.01,"
name=samples-zero; bad_row "pingpong,2,0,byte,,100,0,1,1,1,1,0.01,"
: >"$in/empty.csv"
printf '# schema: 1\n# only: metadata\n' >"$in/meta-only.csv"
printf 'pingpong,2,0,byte,,100,5,1,1,1,1,0.01,\n' >"$in/no-header.csv"
printf '{\n  "commfit_model": 1\n}\n' >"$in/model.json"
printf '# Benchmarking PingPong\n       #bytes #repetitions      t[usec]   Mbytes/sec\n' >"$in/imb-out.txt"
printf '# OSU MPI Latency Test v5.3.2\n# Size          Latency (us)\n0                       1.10\n' >"$in/osu-out.txt"
printf 'pattern,np,bytes\npingpong,2,0\n' >"$in/short-header.csv"
printf '# schema: 2\n%s\n' "$HDR" >"$in/schema2.csv"
# A metadata key said again with another value (a hand edit that left the old line): which
# one holds is not the reader's guess.
printf '# schema: 1\n# ranks_per_node: 8\n# launch_np: 2\n# ranks_per_node: 4\n%s\n' "$HDR" \
    >"$in/meta-twice.csv"
sed 1,2d "$in/good.csv" >>"$in/meta-twice.csv"
head -c 4096 /dev/urandom >"$in/garbage.bin"
printf 'pattern,np\0bytes\n' >"$in/nul.csv"
{ echo "$HDR"; echo "pingpong,2,0,byte,,100,5,1,1,1,1,0.01,"; echo "pingpong,2,8,byte,,100,5,2,2,2,2,0.01,"; } >"$in/two-points.csv"
{ echo "$HDR"; for m in 1 2 3 4; do echo "pingpong,2,$m,byte,,100,5,1,1,1,1,0.01,"; done; } >"$in/no-loggp-rows.csv"

# Model-file variants.
head -c 100 "$in/good.json" >"$in/truncated.json"
sed 's/"commfit_model": *1/"commfit_model": 99/' "$in/good.json" >"$in/version99.json"
sed 's/"fits"/"fitz"/' "$in/good.json" >"$in/no-fits.json"
echo '[1, 2, 3]' >"$in/array.json"
: >"$in/empty.json"
cp "$in/garbage.bin" "$in/garbage.json"

# IMB/OSU variants.
real="$top_srcdir/tests/data/realdata"
head -n 40 "$real/imb_stackhpc_ompi4_ib_pingpong.txt" >"$in/imb-cut.txt"
printf 'hello\nthis is no benchmark output\n' >"$in/neither.txt"
alltoall="$real/osu562_stackhpc_alaska_hdr100ib_ompi4_alltoall.txt"

# An output folder that cannot be written: read-only, or (root ignores permissions) a
# path through a regular file.
mkdir -p "$in/ro"
chmod 555 "$in/ro"
if [ "$(id -u)" -eq 0 ]; then
    ro="$in/good.csv/sub"
    ro_re="good.csv.*(cannot create folder|Not a directory)"
else
    ro="$in/ro"
    ro_re="ro/.*(cannot write|Permission denied)"
fi

# case RCS REGEX CMD...: runs CMD in an empty folder. RCS is the exit status allowed
# ("1", "2" or "12"); REGEX must match stderr, whose every line starts "commfit:" or
# "Try 'commfit". The folder must be empty afterwards.
n=0
case_() {
    rcs=$1 re=$2
    shift 2
    n=$((n + 1))
    d="$T/case$n"
    mkdir "$d"
    rc=0
    (cd "$d" && "$@") >"$T/out" 2>"$T/err" || rc=$?
    what="case $n: $(echo "$*" | sed "s|$COMMFIT|commfit|; s|$T/||g; s|$top_srcdir/||g")"
    case "$rcs" in *"$rc"*) ok_rc=1 ;; *) ok_rc=0 ;; esac
    [ "$rc" -ne 0 ] || ok_rc=0
    first=$(head -n 1 "$T/err")
    left=$(cd "$d" && find . -mindepth 1 | head -n 3)
    if [ "$ok_rc" -eq 1 ] && case "$first" in "commfit: "*) true ;; *) false ;; esac &&
        grep -Eq -- "$re" "$T/err" && [ -z "$left" ] &&
        ! grep -Eq 'Sanitizer|runtime error|Segmentation|Aborted' "$T/err"; then
        pass "$what"
    else
        fail "$what"
        echo "#   exit $rc (allowed: $rcs); expected /$re/; left behind: ${left:-nothing}"
        sed 's/^/#   /' "$T/err" | head -n 5
    fi
}

C=$COMMFIT
for v in fields-short fields-long; do
    case_ 1 "$v.csv:3: expected 13 fields as in the header, got 1[24]" $C fit -i "$in/$v.csv"
done
case_ 1 "nan.csv:3: column 't_min_us': expected a finite number, got 'nan'" $C fit -i "$in/nan.csv"
case_ 1 "inf.csv:3: column 't_avg_us': expected a finite number, got 'inf'" $C fit -i "$in/inf.csv"
case_ 1 "neg-time.csv:3: t_min_us -1: expected a positive, finite time" $C fit -i "$in/neg-time.csv"
case_ 1 "zero-time.csv:3: t_min_us 0: expected a positive, finite time" $C fit -i "$in/zero-time.csv"
case_ 1 "nan-med.csv:3: column 't_med_us': expected a finite number, got 'NaN'" $C fit -i "$in/nan-med.csv"
case_ 1 "neg-inf.csv:3: column 't_max_us': expected a finite number, got '-inf'" $C fit -i "$in/neg-inf.csv"
case_ 1 "overflow-time.csv:3: column 't_avg_us': expected a finite number, got '1e999'" $C fit -i "$in/overflow-time.csv"
case_ 1 "neg-med.csv:3: t_med_us -3: expected a positive, finite time" $C fit -i "$in/neg-med.csv"
case_ 1 "gather np 4 byte: the poly2 fit gives a negative time at 5000 B" \
    $C fit -i "$in/poly2-negative.csv" --model poly2 -o m.json
case_ 1 "text-number.csv:3: column 't_avg_us': expected a finite number, got 'fast'" $C fit -i "$in/text-number.csv"
case_ 1 "np-zero.csv:3: np 0 out of range" $C fit -i "$in/np-zero.csv"
case_ 1 "np-neg.csv:3: column 'np': expected a non-negative integer, got '-2'" $C fit -i "$in/np-neg.csv"
case_ 1 "bytes-neg.csv:3: column 'bytes': expected a non-negative integer, got '-8'" $C fit -i "$in/bytes-neg.csv"
case_ 1 "bytes-huge.csv:3: column 'bytes': .* is too large" $C fit -i "$in/bytes-huge.csv"
case_ 1 "min-gt-max.csv:3: expected t_min_us <= t_avg_us <= t_max_us" $C fit -i "$in/min-gt-max.csv"
case_ 1 "pattern-caps.csv:3: pattern 'PingPong': expected lower-case" $C fit -i "$in/pattern-caps.csv"
case_ 1 "duplicate.csv:4: duplicate row: pingpong np 2 byte bytes 0 is already at line 3" $C fit -i "$in/duplicate.csv"
case_ 1 "unsorted.csv:4: sizes out of order" $C fit -i "$in/unsorted.csv"
case_ 1 "empty-field.csv:3: column 't_avg_us': expected a finite number, got ''" $C fit -i "$in/empty-field.csv"
case_ 1 "empty.csv: empty file: expected a timing table" $C fit -i "$in/empty.csv"
case_ 1 "meta-only.csv: missing header" $C fit -i "$in/meta-only.csv"
case_ 1 "no-header.csv:1: missing header" $C fit -i "$in/no-header.csv"
case_ 1 "model.json:1: missing header: .* \\(this is JSON: a model file is read by predict and report with -m\\)" \
    $C fit -i "$in/model.json"
case_ 1 "imb-out.txt:2: missing header: .* \\(an IMB or OSU output\\? 'commfit import imb FILE'" \
    $C fit -i "$in/imb-out.txt"
case_ 1 "osu-out.txt:3: missing header: .* 'commfit import osu FILE' makes a table of it\\)" \
    $C fit -i "$in/osu-out.txt"
case_ 1 "short-header.csv:1: missing column 'datatype'" $C fit -i "$in/short-header.csv"
case_ 1 "schema2.csv:1: schema version 2 is newer than this commfit reads" $C fit -i "$in/schema2.csv"
case_ 1 "reps-zero.csv:3: column 'reps': 0 calls per timed sample: expected at least 1 \\(empty when unknown\\)$" \
    $C fit -i "$in/reps-zero.csv"
case_ 1 "samples-zero.csv:3: column 'samples': 0 timed samples: expected at least 1 \\(empty when unknown\\)$" \
    $C fit -i "$in/samples-zero.csv"
case_ 1 "meta-twice.csv:4: metadata key 'ranks_per_node' said again, '4', where line 2 said '8': a table says each key once \\(but for what a resumed launch writes after its resume_N line\\): keep the line that holds$" \
    $C fit -i "$in/meta-twice.csv"
case_ 1 "garbage.bin:[0-9]+: (unexpected NUL byte|missing header)" $C fit -i "$in/garbage.bin"
case_ 1 "nul.csv:1: unexpected NUL byte" $C fit -i "$in/nul.csv"
case_ 1 "/nonexistent/t.csv: cannot open: No such file or directory" $C fit -i /nonexistent/t.csv
case_ 1 "data: cannot open folder" $C fit
case_ 1 "needs at least 3|no fit could be made" $C fit -i "$in/two-points.csv"
case_ 1 "loggp needs the 'loggp_os' rows" $C fit -i "$in/no-loggp-rows.csv" --model loggp
case_ 2 "unknown model|'cubic'" $C fit -i "$in/good.csv" --model cubic
case_ 2 "'sometimes'" $C fit -i "$in/good.csv" --weights sometimes
case_ 2 "'mode'" $C fit -i "$in/good.csv" --statistic mode
case_ 2 "'fortran'" $C fit -i "$in/good.csv" --formulas fortran
case_ 2 "unrecognized option|unknown option" $C fit --frobnicate
case_ 1 "$ro_re" $C fit -i "$in/good.csv" -o "$ro/m.json"

case_ 12 "pattern 'nosuch'" $C predict -m "$in/good.json" --pattern nosuch --np 2 --bytes 1K
case_ 2 "'0'" $C predict -m "$in/good.json" --pattern pingpong --np 0 --bytes 1K
case_ 2 "invalid size '1X'" $C predict -m "$in/good.json" --pattern pingpong --np 2 --bytes 1X
case_ 2 "invalid size '-1'" $C predict -m "$in/good.json" --pattern pingpong --np 2 --bytes -1
case_ 2 "size '2T' |invalid size '2T'" $C predict -m "$in/good.json" --pattern pingpong --np 2 --bytes 2T
case_ 2 "too large" $C predict -m "$in/good.json" --pattern pingpong --np 2 --bytes 99999G
case_ 1 "truncated.json" $C predict -m "$in/truncated.json" --pattern pingpong --np 2 --bytes 1K
case_ 1 "version99.json.*(newer|99)" $C predict -m "$in/version99.json" --pattern pingpong --np 2 --bytes 1K
case_ 1 "no-fits.json.*fits" $C predict -m "$in/no-fits.json" --pattern pingpong --np 2 --bytes 1K
case_ 1 "array.json" $C predict -m "$in/array.json" --pattern pingpong --np 2 --bytes 1K
case_ 1 "empty.json" $C predict -m "$in/empty.json" --pattern pingpong --np 2 --bytes 1K
case_ 1 "garbage.json" $C predict -m "$in/garbage.json" --pattern pingpong --np 2 --bytes 1K
case_ 1 "/nonexistent/m.json: cannot open" $C predict -m /nonexistent/m.json --pattern pingpong --np 2 --bytes 1K
case_ 2 "pattern" $C predict -m "$in/good.json" --np 2 --bytes 1K
case_ 2 "'csvx'" $C predict -m "$in/good.json" --pattern pingpong --np 2 --bytes 1K --format csvx

case_ 2 "'nmpi'|unknown format" $C import nmpi "$in/neither.txt"
case_ 2 "file" $C import imb
case_ 1 "neither.txt:1?:? ?.*(IMB|not)" $C import imb "$in/neither.txt" -o out.csv
case_ 1 "imb-cut.txt:[0-9]+: " $C import imb "$in/imb-cut.txt" -o out.csv
case_ 1 "osu562_stackhpc_alaska_hdr100ib_ompi4_alltoall.txt:[0-9]+: .*--np" $C import osu "$alltoall" -o out.csv
case_ 1 "garbage.bin" $C import osu "$in/garbage.bin" -o out.csv
case_ 1 "/nonexistent/x.txt: cannot open" $C import imb /nonexistent/x.txt -o out.csv
case_ 1 "$ro_re" $C import osu --np 64 "$alltoall" -o "$ro/t.csv"
case_ 1 "$ro_re" $C report -i "$in/good.csv" -o "$ro/rep"
case_ 2 "'0'|--np" $C import osu --np 0 "$alltoall" -o out.csv
case_ 2 "^commfit: import: --np '1': expected 2 to 16777216" $C import osu --np 1 "$alltoall" -o out.csv

case_ 1 "truncated.json" $C report -m "$in/truncated.json" -o rep
case_ 1 "nan.csv:3" $C report -i "$in/nan.csv" -o rep
grep '^#\|^pattern,' "$top_srcdir/data/sim-flat.csv" >"$in/header-only.csv"
case_ 1 "^commfit: report: .*header-only.csv: no rows: nothing to draw" $C report -i "$in/header-only.csv" -o rep
case_ 1 "models: cannot open folder|no .*model" $C report
case_ 2 "unrecognized option|unknown option" $C report --svgz

# An empty value of an option naming a file is refused by name, exit 2, before any work (fit
# -i '' and predict -m '' said "cannot open: No such file or directory", exit 1, naming neither; fit
# -o '' did all its work first; bad-input audit). An empty operand too, and standard input
# named twice (the second read found it empty).
good="$top_srcdir/data/sim-flat.csv"
case_ 2 "^commfit: fit: option '--input' has an empty value: expected a file name" $C fit -i ''
case_ 2 "^commfit: fit: option '--output' has an empty value: expected a file name" $C fit -i "$good" -o ''
case_ 2 "^commfit: fit: an empty table name" $C fit ''
case_ 2 "^commfit: fit: -i '-' is the same file as -i '-'" $C fit - -
case_ 2 "^commfit: import: option '--output' has an empty value: expected a file name" $C import imb -o '' "$in/imb-cut.txt"
case_ 2 "^commfit: import: an empty file name" $C import imb ''
case_ 2 "^commfit: import: '-' is the same file as '-'" $C import imb -o x.csv - -
case_ 2 "^commfit: predict: option '--model' has an empty value: expected a file name" $C predict -m '' -p pingpong
case_ 2 "^commfit: predict: --pattern '': an empty pattern name" $C predict -m "$in/good.json" -p '' -n 2 -b 1K
case_ 2 "^commfit: predict: option '--points' has an empty value: expected a file name" $C predict -m "$in/good.json" -p pingpong --points ''
# A datatype sweep's model holds its ping-pong for each layout and none for byte: predict
# answered from the first in the file (contiguous) unasked (the docs audit).
case_ 1 "ddt-vm-mpich402-np2.json: pingpong has no byte fit in the model file but several datatypes: contiguous, hindexed, .*; name one with -d" \
    $C predict -m "$top_srcdir/models/ddt-vm-mpich402-np2.json" -p pingpong -n 2 -b 1K
case_ 2 "^commfit: measure: option '--resume' has an empty value: expected a file name" $C measure --resume ''
case_ 2 "^commfit: measure: --patterns: unknown pattern '': expected all, " $C measure --patterns ''
case_ 2 "^commfit: report: option '--output' has an empty value: expected a file name" $C report -o ''
case_ 2 "^commfit: export: option '--model' has an empty value: expected a file name" $C export smpi -m ''

chmod 755 "$in/ro"
check "the table has at least 40 bad inputs" test "$n" -ge 40
# Said again alike, or after a resume_N line (a resumed launch's own provenance), or
# end_reason (said at a resumed launch's start and end): taken, the last read.
for v in "ranks_per_node: 8" "resume_1: date 2026-12-05T00:00:00Z, launch_np 2, oversubscribed no, after 8 rows
# ranks_per_node: 4" "end_reason: stopped by a signal
# end_reason: complete"; do
    { printf '# schema: 1\n# ranks_per_node: 8\n# end_reason: cut short\n%s\n' "$HDR"
      sed 1,2d "$in/good.csv"; printf '# %s\n' "$v"; } >"$in/meta-again.csv"
    run "$COMMFIT" fit -q -i "$in/meta-again.csv" -o "$in/meta-again.json"
    expect_rc 0 "a key said again: $(echo "$v" | head -n 1 | cut -c 1-30)..."
    case $v in resume_1*)
        check "the last said is read: ranks_per_node 4 after the resume line" \
            grep -q '"ranks_per_node": "4"' "$in/meta-again.json" ;;
    esac
done

# A table cut mid-row (a full disk, head -c): said as cut short at its line, not as a
# field count (the docs audit of stop 58).
flat=$top_srcdir/data/sim-flat.csv
L=$(grep -n '^pattern,' "$flat" | cut -d: -f1)
head -c $(($(head -n $((L + 5)) "$flat" | wc -c) + 40)) "$flat" >cut-mid.csv
run "$COMMFIT" fit -i cut-mid.csv -o cut-mid.json
expect_rc 1 "a table cut mid-row"
grep_err "^commfit: fit: cut-mid.csv:$((L + 6)): the last row has no end of line and 9 of the header's 14 fields: cut short\?" \
    "said as cut short, at its line, with the fields it has"
check "nothing written" test ! -e cut-mid.json
# A timing table given for a model: said what it is, and what to do.
run "$COMMFIT" predict -m "$flat" -p bcast -n 2 -b 1
expect_rc 1 "a timing table for -m"
grep_err "not valid JSON: .* \(this is a timing table: a model file is what commfit fit writes from one; fit it first, commfit fit -i FILE\)\$" \
    "said: a timing table, fit it first"
run "$COMMFIT" predict -m "$top_srcdir/data/realnp/orfeo-epyc-bcast-ompi/osu-np2.txt" -p bcast -n 4 -b 1K
check "an OSU output given for a model: not called a timing table" sh -c '! grep -q "this is a timing table" "$1"' sh "$T/err"
done_testing
