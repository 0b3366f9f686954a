# Issue 19: nothing is lost, whatever commfit is pointed at. Outputs that are devices,
# FIFOs, links or "-"; inputs without an end of line, with a byte order mark or control
# characters; times outside any physical range; an output that is an input; OSU logs with
# osu_hello, and tables of the other kind in a file.
. "$top_srcdir/tests/setup.sh"
REAL="$top_srcdir/tests/data/realdata"

# A small table to fit: pingpong over 6 sizes.
{
    echo "$HDR"
    for b in 1 2 4 8 16 32; do echo "pingpong,2,$b,byte,,1000,5,1.$b,1.$b,1.$b,1.$b,0.01,"; done
} >t.csv

# --- -o - is the standard output -------------------------------------------------------
run "$COMMFIT" fit -i t.csv -o -
expect_rc 0 "fit -o -"
check "fit -o -: the model file on stdout, nothing else" \
    sh -c "head -c 1 '$T/out' | grep -q '{' && grep -q '\"commfit_model\"' '$T/out'"
check "fit -o -: no file named '-'" test ! -e ./-
grep_err "^commfit: fit: wrote the model file to standard output \(1 fit\)$" "fit -o -: says where it went"
run "$COMMFIT" fit -i t.csv -o - --formulas c
expect_rc 2 "fit -o - --formulas c"
run "$COMMFIT" import osu "$REAL/osu532_hpccofc_ib_latency_compute001.txt" -o -
expect_rc 0 "import -o -"
check "import -o -: the table on stdout" grep -q "^pingpong,2,0,byte," "$T/out"
check "import -o -: no file named '-'" test ! -e ./-

# --- outputs that are not regular files are written in place -----------------------------
"$COMMFIT" fit -i t.csv -o m.json 2>/dev/null
if mknod full c 1 7 2>/dev/null && mknod null c 1 3 2>/dev/null; then
    run "$COMMFIT" fit -i t.csv -o full
    expect_rc 1 "fit -o a full device"
    grep_err "^commfit: fit: full: cannot write: No space left on device$" "fit -o a full device: names the path"
    check "the full device is still a character device" test -c full
    run "$COMMFIT" import osu "$REAL/osu532_hpccofc_ib_latency_compute001.txt" -o full
    expect_rc 1 "import -o a full device"
    check "the full device is still a character device after import" test -c full
    run "$COMMFIT" fit -i t.csv -o null
    expect_rc 0 "fit -o a null device"
    check "the null device stays a device" test -c null
    ln -s null link-to-null
    run "$COMMFIT" fit -i t.csv -o link-to-null
    expect_rc 0 "fit -o a link to a device"
    check "the link to the device stays a link" test -L link-to-null
    check "and its device a device" test -c null
else
    skip "mknod needs root: device outputs"
fi
ln -s /dev/stdout link-to-stdout
run "$COMMFIT" fit -i t.csv -o link-to-stdout
expect_rc 0 "fit -o a link to /dev/stdout"
check "a link to /dev/stdout: the model reaches stdout" grep -q '"commfit_model"' "$T/out"
check "a link to /dev/stdout stays a link" test -L link-to-stdout
# /dev/stdout onto a file: written where the descriptor writes (appended after >>), the
# file not replaced behind the shell's back.
echo "first line" >log.txt
"$COMMFIT" fit -i t.csv -o /dev/stdout >>log.txt 2>/dev/null
check "-o /dev/stdout >>log: the log keeps its first line" test "$(head -1 log.txt)" = "first line"
check "-o /dev/stdout >>log: the model follows it" grep -q '"commfit_model"' log.txt
mkfifo fifo
cat fifo >from-fifo &
reader=$!
run "$COMMFIT" import osu "$REAL/osu532_hpccofc_ib_latency_compute001.txt" -o fifo
wait "$reader" || true
expect_rc 0 "import -o a FIFO"
check "the FIFO's reader gets the table" grep -q "^pingpong,2,0,byte," from-fifo
check "the FIFO stays a FIFO" test -p fifo
# A link to a regular file is written through, as sort -o does: the link stays.
echo old >target.json
ln -s target.json link.json
run "$COMMFIT" fit -i t.csv -o link.json
expect_rc 0 "fit -o a link to a file"
check "the link stays a link" test -L link.json
check "the file it names holds the model" grep -q '"commfit_model"' target.json

# --- an output that is an input -------------------------------------------------------------
cp t.csv same.csv
run "$COMMFIT" fit -i same.csv -o same.csv
expect_rc 2 "fit -o its input"
expect_err "commfit: fit: -o 'same.csv' is the same file as the input 'same.csv': writing it would destroy the input; name another output" \
    "fit -o its input"
check "the input is intact" cmp -s t.csv same.csv
ln -s same.csv alias.csv
run "$COMMFIT" fit -i same.csv -o alias.csv
expect_rc 2 "fit -o a link to its input"
cp "$REAL/osu532_hpccofc_ib_latency_compute001.txt" in.txt
run "$COMMFIT" import osu in.txt -o in.txt
expect_rc 2 "import -o its input"
expect_err "commfit: import: the output 'in.txt' is the same file as the input 'in.txt': writing it would destroy the input; name another output with -o" \
    "import -o its input"
check "the OSU input is intact" cmp -s in.txt "$REAL/osu532_hpccofc_ib_latency_compute001.txt"
# --- an input given twice: its rows would count twice (fit read 24 rows for 12: a
# leave-one-out error of 0.52% for 1.5%, intervals narrowed) ------------------------------
run "$COMMFIT" fit -i t.csv -i ./t.csv -o twice.json
expect_rc 2 "fit -i the same table twice"
expect_err "commfit: fit: -i './t.csv' is the same file as -i 't.csv': its rows would count twice; give each table once
Try 'commfit fit --help'." "fit -i the same table twice"
check "fit -i the same table twice: no output" test ! -e twice.json
run "$COMMFIT" import osu in.txt ./in.txt -o twice.csv
expect_rc 2 "import the same file twice"
expect_err "commfit: import: './in.txt' is the same file as 'in.txt': its rows would count twice; give each file once
Try 'commfit import --help'." "import the same file twice"
check "import the same file twice: no output" test ! -e twice.csv

# --- one line is at most 64 MiB ------------------------------------------------------------
head -c 68157440 /dev/zero | tr '\0' 'a' >long.txt
{ echo "$HDR"; cat long.txt; } >long.csv
run "$COMMFIT" fit -i long.csv
expect_rc 1 "a table with a 65 MiB line"
expect_err "commfit: fit: long.csv:2: line longer than 64 MiB: expected a text file of short lines" \
    "a table with a 65 MiB line"
for f in imb osu; do
    run "$COMMFIT" import $f long.txt -o x.csv
    expect_rc 1 "import $f: a 65 MiB line"
    expect_err "commfit: import: long.txt:1: line longer than 64 MiB: expected a text file of short lines" \
        "import $f: a 65 MiB line"
done
run "$COMMFIT" predict -m long.txt --pattern pingpong --np 2 --bytes 1K
expect_rc 1 "a model file with a 65 MiB line"
expect_err "commfit: predict: long.txt:1: line longer than 64 MiB: expected a text file of short lines" \
    "a model file with a 65 MiB line"
run "$COMMFIT" predict -m m.json --pattern pingpong --points long.txt
expect_rc 1 "--points with a 65 MiB line"
expect_err "commfit: predict: long.txt:1: line longer than 64 MiB: expected a text file of short lines" \
    "--points with a 65 MiB line"
# /dev/zero and standard input without an end: refused after 64 MiB, in bounded time.
run timeout 60 "$COMMFIT" fit -i /dev/zero
expect_rc 1 "fit -i /dev/zero"
expect_err "commfit: fit: /dev/zero:1: line longer than 64 MiB: expected a text file of short lines" "fit -i /dev/zero"
for f in imb osu; do
    run timeout 60 "$COMMFIT" import $f /dev/zero -o x.csv
    expect_rc 1 "import $f /dev/zero"
    expect_err "commfit: import: /dev/zero:1: line longer than 64 MiB: expected a text file of short lines" \
        "import $f /dev/zero"
done
run timeout 60 "$COMMFIT" predict -m /dev/zero --pattern pingpong --np 2 --bytes 1K
expect_rc 1 "predict -m /dev/zero"
run timeout 60 "$COMMFIT" predict -m m.json --pattern pingpong --points /dev/zero
expect_rc 1 "predict --points /dev/zero"
expect_err "commfit: predict: /dev/zero:1: line longer than 64 MiB: expected a text file of short lines" \
    "predict --points /dev/zero"
rc=0
head -c 70000000 /dev/zero | tr '\0' 'x' | timeout 60 "$COMMFIT" import osu - -o x.csv >"$T/out" 2>"$T/err" || rc=$?
expect_rc 1 "import from a pipe without an end of line"
check "no table is left behind" test ! -e x.csv

# --- times within physical bounds ------------------------------------------------------
for v in 4.9e-324 1e-300 1e-7 1e13 1e300 1.7e308; do
    { echo "$HDR"; echo "pingpong,2,8,byte,,1,1,$v,$v,$v,,,"; } >bad-time.csv
    run "$COMMFIT" fit -i bad-time.csv
    expect_rc 1 "t = $v us"
    grep_err "^commfit: fit: bad-time.csv:2: t_min_us '[0-9.e+-]+' outside the physical range: expected 1e-06 to 1e\+12 us$" \
        "t = $v us: refused with file:line and the bounds"
done
# The extremes inside: nothing downstream overflows.
{
    echo "$HDR"
    for b in 0 1 1024 1048576 1073741824 1099511627776; do echo "pingpong,2,$b,byte,,1,1,1e-6,1e-6,1e12,,1e12,"; done
    for b in 0 1 1024 1048576 1073741824 1099511627776; do echo "bcast,2,$b,byte,,1,1,1e12,1e12,1e12,,,"; done
    for b in 0 1 1024 1048576 1073741824 1099511627776; do echo "allreduce,2,$b,float,,1,1,1e-6,1e-6,1e-6,,,"; done
} >edges.csv
for m in auto linear poly2 piecewise; do
    run "$COMMFIT" fit -i edges.csv -o edges-$m.json --model $m
    expect_rc 0 "extreme times, --model $m"
    check "extreme times, --model $m: no inf or nan in the model" sh -c "! grep -Eiq 'inf|nan' edges-$m.json"
    run "$COMMFIT" predict -m edges-$m.json --pattern pingpong --np 2 --bytes 0,1,1G,1024G
    check "extreme times, --model $m: predict prints no inf or nan" sh -c "! grep -Eiq 'inf|nan' '$T/out'"
done

# --- predict: extrapolation from 0 bytes, absurd models ----------------------------------
{ echo "$HDR"; echo "pingpong,2,0,byte,,1000,5,0.16,0.165,0.17,0.165,0.01,"; } >zero.csv
"$COMMFIT" fit -i zero.csv -o zero.json 2>/dev/null
run "$COMMFIT" predict -m zero.json --pattern pingpong --np 2 --bytes 0,1G
expect_rc 0 "a model measured at 0 bytes only"
check "0 bytes: not extrapolated" grep -q '^pingpong,2,0,byte,.*,fit,constant,,' "$T/out"
check "1 GiB from 0 bytes only: extrapolated in bytes" \
    grep -q '^pingpong,2,1073741824,byte,.*,fit,constant,bytes,"bytes 1 GiB is beyond the largest measured, 0 B"' "$T/out"
if command -v python3 >/dev/null 2>&1; then
    python3 - <<'PY'
import json
d = json.load(open("m.json"))
s = d["fits"][0]["segments"][0]
s["cov"] = [[1e300 for _ in r] for r in s["cov"]]
s["se"] = {k: 1e150 for k in s["se"]}
json.dump(d, open("huge-cov.json", "w"))
s["coef"] = {k: 1e300 for k in s["coef"]}
json.dump(d, open("huge.json", "w"))
PY
    for m in huge-cov huge; do
        run "$COMMFIT" predict -m $m.json --pattern pingpong --np 2 --bytes 8
        expect_rc 1 "predict from $m.json"
        grep_err "^commfit: predict: $m.json: the model's time or interval at 8 B for pingpong \(byte\) at np=2 is beyond 1e\+15 us" \
            "predict from $m.json: says why"
        check "predict from $m.json: no bound printed" grep -q '^pingpong,2,8,byte,,,,,' "$T/out"
    done
else
    skip "python3 needed to edit a model file"
fi

# --- --points names the bad field ----------------------------------------------------------
printf '2 1K\n4 1K 5\n' >pts
run "$COMMFIT" predict -m m.json --pattern pingpong --points pts
expect_rc 1 "--points '4 1K 5'"
grep_err "^commfit: predict: pts:2: expected 'NP BYTES', got a third field '5' after '4 1K'$" \
    "--points '4 1K 5': blames '5', not '1K'"
printf '2 1K\n2 4K\0garbage\n' >pts-nul
run "$COMMFIT" predict -m m.json --pattern pingpong --points pts-nul
expect_rc 1 "--points with a NUL byte"
expect_err "commfit: predict: pts-nul:2: unexpected NUL byte: expected lines 'NP BYTES' of text" \
    "--points with a NUL byte"
printf 'x 1K\n' >pts-np
run "$COMMFIT" predict -m m.json --pattern pingpong --points pts-np
expect_rc 1 "--points with a bad NP"
grep_err "got NP 'x'$" "--points with a bad NP: quotes it"

# --- byte order mark, control characters -------------------------------------------------
printf '\357\273\277' >bom.csv
cat t.csv >>bom.csv
run "$COMMFIT" fit -i bom.csv -o bom.json
expect_rc 0 "a table with a UTF-8 byte order mark"
{ printf '\357\273\277'; cat "$REAL/osu532_hpccofc_ib_latency_compute001.txt"; } >bom.txt
run "$COMMFIT" import osu bom.txt -o bom-osu.csv
expect_rc 0 "OSU output with a byte order mark"
{ printf '\357\273\277'; cat m.json; } >bom.json
run "$COMMFIT" predict -m bom.json --pattern pingpong --np 2 --bytes 1K
expect_rc 0 "a model file with a byte order mark"
printf '\357\273\2772 1K\n' >bom-pts
run "$COMMFIT" predict -m m.json --pattern pingpong --points bom-pts
expect_rc 0 "--points with a byte order mark"
printf '# OSU MPI Latency Test v5.3.2\n# Size          Latency (us)\n0   1.07\n1   1.14\r2   1.14\r4   1.13\n' >cr-only.txt
run "$COMMFIT" import osu cr-only.txt -o x.csv
expect_rc 1 "OSU rows with CR-only line ends"
check "control characters are escaped in the message" sh -c "! tr -d '\n' <'$T/err' | grep -q \"\$(printf '\r')\""
grep_err "^commfit: import: cr-only.txt:4: .*got '1   1.14\\\\r2   1.14\\\\r4   1.13'$" "the CR shows as \\r"

# --- OSU: osu_hello and osu_init pass, broken last rows stop, the other kind warns -----------
{
    echo "# OSU MPI Hello World Test v5.6.2"
    echo "This is a test with 4 processes"
    echo "# OSU MPI Init Test v5.6.2"
    echo "nprocs: 4, min: 94 ms, max: 97 ms, avg: 95 ms"
    cat "$REAL/osu532_hpccofc_ib_latency_compute001.txt"
} >hello.txt
run "$COMMFIT" import osu hello.txt -o hello.csv
expect_rc 0 "osu_hello and osu_init beside a table"
expect_err "commfit: import: hello.txt:1: the OSU Hello World test prints no table: passed over
commfit: import: hello.txt:3: the OSU Init test prints no table: passed over
commfit: import: wrote hello.csv: 24 rows in 1 table from 1 file" "osu_hello and osu_init: a note each"
head -5 "$REAL/osu532_hpccofc_ib_latency_compute001.txt" >osu-cut.txt
printf '%s' "256 " >>osu-cut.txt
run "$COMMFIT" import osu osu-cut.txt -o x.csv
expect_rc 1 "a cut OSU table still stops the import"
osu_with_last() {
    { head -8 "$REAL/osu532_hpccofc_ib_latency_compute001.txt"; echo "$1"; } >osu-last.txt
}
# A last row whose size does not read as one (a fraction, a sign, a letter after it, past
# 1 TiB) was taken for the table's end and left out without a word (exit 0).
for last in "1048576 163,26" "1048576 -5.0" "4194304.5     400.0" "-5 400.0" "8388608x 400.0" \
    "1099511627777 400.0"; do
    osu_with_last "$last"
    run "$COMMFIT" import osu osu-last.txt -o x.csv
    expect_rc 1 "OSU last row '$last'"
    grep_err "^commfit: import: osu-last.txt:9: expected a row of the OSU Latency table \(.*\): a size in whole bytes of at most 1099511627776 \(1 TiB\), then non-negative numbers, got '$last'$" \
        "OSU last row '$last': refused like a middle row"
    check "OSU last row '$last': no output" test ! -e x.csv
done
# An IMB size past 1 TiB says so.
{ head -12 "$REAL/imb_stackhpc_ompi4_ib_pingpong.txt"; sed -n '32,40p' "$REAL/imb_stackhpc_ompi4_ib_pingpong.txt"; echo "1099511627777         1000      0.85      18.92"; } >imb-big.txt
run "$COMMFIT" import imb imb-big.txt -o x.csv
expect_rc 1 "IMB size past 1 TiB"
grep_err "^commfit: import: imb-big.txt:22: column 1 \(#bytes\) of the PingPong table: expected a non-negative integer of at most 1099511627776 \(1 TiB\), got '1099511627777'$" \
    "IMB size past 1 TiB: says so"
{ head -12 "$REAL/imb_stackhpc_ompi4_ib_pingpong.txt"; sed -n '32,40p' "$REAL/imb_stackhpc_ompi4_ib_pingpong.txt"; echo "           16         1000      0.85,3      18.92"; } >imb-last.txt
run "$COMMFIT" import imb imb-last.txt -o x.csv
expect_rc 1 "IMB last row garbled"
{ cat "$REAL/osu532_hpccofc_ib_latency_compute001.txt"; echo; cat "$REAL/imb_stackhpc_ompi4_ib_pingpong.txt"; } >mixed.txt
run "$COMMFIT" import osu mixed.txt -o mixed-osu.csv
expect_rc 0 "IMB output in an OSU import"
grep_err "^commfit: import: warning: mixed.txt:[0-9]+: Intel MPI Benchmarks output is left out: import it with 'commfit import imb'$" \
    "IMB output in an OSU import: a warning"
run "$COMMFIT" import imb mixed.txt -o mixed-imb.csv
expect_rc 0 "OSU output in an IMB import"
grep_err "^commfit: import: warning: mixed.txt:1: OSU Micro-Benchmarks output is left out: import it with 'commfit import osu'$" \
    "OSU output in an IMB import: a warning"

done_testing
