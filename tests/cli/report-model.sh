# commfit report with a model made here by commfit fit: the fitted curves with their
# formulas in the plots, saturation marks, residual plots, the model's tables in the
# page, and the defaults (newest model, the table it names).
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/report-helpers.sh"

mkdir data models
awk -f "$top_srcdir/tests/cli/report-table.awk" >data/run.csv
"$COMMFIT" fit -i data/run.csv -o models/run.json >/dev/null 2>fit.err || {
    echo "Bail out! commfit fit failed on the test table:"
    sed 's/^/# /' fit.err
    exit 1
}

check "commfit fit ends with the command that draws its report" \
    test "$(tail -n 1 fit.err)" = "commfit: fit: draw the report with: commfit report -m models/run.json"

have_python=0
command -v python3 >/dev/null 2>&1 && have_python=1

# Without arguments: the newest model in models/ and the table it names.
if [ -n "$gp" ]; then
    run "$COMMFIT" report
else
    run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report
fi
expect_rc 0 "no arguments, a model in models/"
expect_out "report/run/index.html" "no arguments: the report of the newest model"
grep_err "^commfit: report: drawing data/run.csv with the model models/run.json$" \
    "no arguments: says which model and table it draws"
check "no arguments: not also 'measurements only, no model'" sh -c "! grep -q 'no model' '$T/err'"
R=report/run

fitted="time-allreduce time-alltoall time-pingpong time-sendrecv bw-pingpong bw-sendrecv
resid-allreduce resid-alltoall resid-pingpong resid-sendrecv resid-pingpong-datatypes
blocks-pingpong-vector gain-pingpong-b16 np-alltoall"
for n in $fitted; do
    check "$n.dat and $n.gp exist" test -s "$R/$n.dat" -a -s "$R/$n.gp"
done
for what in "r_inf = " "n_1/2 = " "90% of r_inf at "; do
    check "the bandwidth script draws '$what'" grep -q "title 'np=2 $what" "$R/bw-pingpong.gp"
done
check "the fitted curves are drawn as lines over their own data blocks" \
    grep -q "index 1 using 1:2 with lines lt 1 title 'np=2 " "$R/time-alltoall.gp"
check "the time data holds the fit sampled with its prediction interval" \
    grep -q "^# bytes t_us lo_us hi_us (the fit, its 95% prediction interval)" "$R/time-pingpong.dat"
check "the piecewise ping-pong fit marks its breakpoint" \
    grep -q "set label 'np=2 breakpoint in (64K, 128K)'" "$R/time-pingpong.gp"
check "the fitted curve is sampled at both ends of the breakpoint gap (a point and the fit each)" \
    test "$(grep -c '^65536 ' "$R/time-pingpong.dat"),$(grep -c '^131072 ' "$R/time-pingpong.dat")" = 2,2
check "the piecewise ping-pong's bandwidth draws the Hockney line r_inf and n_1/2 come from" \
    grep -q "title 'np=2 r_inf m / (n_1/2 + m): the Hockney line tangent to the fit" "$R/bw-pingpong.gp"
check "the bandwidth axis is fixed by the points and r_inf, not by the bars" \
    grep -q "^set yrange \[0:[0-9.e+]*\]$" "$R/bw-pingpong.gp"
# apart FILE: the measured curves of a time vs np plot, at least three, each at least
# 1.5 times the one before at the smallest np (no curve drawn over another).
apart() {
    awk '/^# \[[0-9]*\] [0-9.]* [KM]?i?B$/ {want = 1; next} /^#/ {next}
        want && NF {t = $2; want = 0; n++; if (n > 1 && t < 1.5 * prev) bad = 1; prev = t}
        END {exit !(n >= 3 && !bad)}' "$1"
}
check "the time vs np plot draws sizes whose curves do not overlap" apart "$R/np-alltoall.dat"
check "bw-pingpong-vector: the fits' bandwidth at each block count" \
    grep -q "title 'vector, 256 blocks datatype fit: T(m, b) = " "$R/bw-pingpong-vector.gp"
check "bw-pingpong-vector: the r_inf of the contiguous fit, which has saturation figures" \
    grep -q "title 'contiguous r_inf = [0-9]* MiB/s (95%: " "$R/bw-pingpong-vector.gp"
check "bw-pingpong-contiguous: its r_inf" grep -q "title 'contiguous r_inf = " "$R/bw-pingpong-contiguous.gp"
check "the gain from the fits is drawn (each datatype's fit against its pack_LAYOUT fit)" \
    grep -q "title 'vector from the fits'" "$R/gain-pingpong-b16.gp"
check "the pack fits of each layout have their residuals" \
    grep -q '^# \[[0-9]*\] pack_indexed$' "$R/resid-pingpong-datatypes.dat"
check "the residuals of the datatypes cover every datatype fitted" \
    test "$(grep -c '^# \[[0-9]*\] ' "$R/resid-pingpong-datatypes.dat")" -ge 5

if [ "$have_python" = 1 ]; then
    # Every fit's formula is in the page (escaped), and each time plot's key has the
    # first line of each of its fits' formulas.
    cat >check.py <<'EOF'
import html, json, sys
model = json.load(open(sys.argv[1]))
page = open(sys.argv[2], encoding="utf-8").read()
bad = 0
for f in model["fits"]:
    if html.escape(f["formula"], quote=True) not in page:
        print("# not in the page: " + f["formula"])
        bad = 1
    # A pattern measured at 0 bytes only (barrier, a constant fit) has no time plot: no
    # size to put on a log axis; its formula is checked in the page above.
    if f["datatype"] in ("byte", "float") and f["measured"]["max_bytes"] > 0:
        gp = open("%s/time-%s.gp" % (sys.argv[3], f["pattern"]), encoding="utf-8").read()
        first = f["formula"].split("; ")[0]
        title = "np=%d %s fit: %s" % (f["np"], f["model"], first)
        if title.replace("'", "''") not in gp:
            print("# not in time-%s.gp: %s" % (f["pattern"], title))
            bad = 1
sys.exit(bad)
EOF
    check "every fit's formula is in the page and in its plot's key" \
        python3 check.py models/run.json "$R/index.html" "$R"
else
    skip "formulas in the page and the keys: no python3"
fi
check "the page has the fitted models' table" grep -q '<h3>Fitted models and their quality</h3>' "$R/index.html"
check "the page has the saturation table" grep -q '<th>r_inf (MiB/s)</th>' "$R/index.html"
check "the page names the model file" grep -q '<code>models/run.json</code>' "$R/index.html"
check "the page says how its peak is read (the mean of a size's rows, not the highest row)" \
    grep -q "a size measured several times, by node pairs or runs: the mean over them" "$R/index.html"
check "the page has the residuals" grep -q '<h2 id="residuals">' "$R/index.html"
check "the page links only to files of the folder" links_ok "$R"

if [ -n "$gp" ]; then
    for n in $fitted; do
        check "$n.svg is drawn" test -s "$R/$n.svg"
    done
    # time-alltoall: per np the points and the fit, and one key line per further
    # segment of a piecewise formula.
    if [ "$have_python" = 1 ]; then
        want=$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
print(sum(2 + f["formula"].count("; ") for f in m["fits"]
          if f["pattern"] == "alltoall" and f["datatype"] == "byte"))' models/run.json)
        got=$(elements "$R/time-alltoall.svg")
        check "time-alltoall.svg draws $want elements (got $got)" test "$got" -eq "$want"
    fi
    check "bw-pingpong.svg: the key has r_inf" grep -q '<text>np=2 r_inf = [0-9]* MiB/s (95%: ' "$R/bw-pingpong.svg"
    check "bw-pingpong.svg: the key has n_1/2" grep -q '<text>np=2 n_1/2 = ' "$R/bw-pingpong.svg"
    check "resid-pingpong.svg: the key has the fit's errors" \
        grep -q '<text>np=2 [a-z0-9]* (leave-one-out error [0-9.e+-]*%, largest ' "$R/resid-pingpong.svg"
    xml_rc=0
    bad_xml=$(not_wellformed "$R"/*.svg) || xml_rc=$?
    if [ "$xml_rc" -eq 2 ]; then
        skip "every SVG is well-formed XML: neither python3 nor xmllint"
    else
        check "every SVG is well-formed XML${bad_xml:+ (not: $(echo $bad_xml))}" \
            test "$xml_rc" -eq 0 -a -z "$bad_xml"
    fi
    check "no gnuplot warning" test -z "$(grep 'gnuplot:' "$T/err" || true)"
else
    skip "no gnuplot on this machine: the drawing checks"
fi

# A machine that measured np=2 only: time vs np is still drawn, with the measured points
# and what predict answers elsewhere, the point-to-point estimate, dashed with its interval.
awk -F, '/^#/ || $1 == "pattern" || $2 == 2' data/run.csv >laptop.csv
"$COMMFIT" fit -i laptop.csv -o laptop.json >/dev/null 2>&1
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i laptop.csv -m laptop.json -o laptop
expect_rc 0 "a table of np=2 only"
for p in alltoall allreduce barrier sendrecv; do
    check "np=2 only: np-$p is drawn" test -s "laptop/np-$p.gp"
done
check "np=2 only: no np plot for pingpong, a two-process pattern" test ! -e laptop/np-pingpong.gp
L=laptop/np-alltoall.dat
check "np-alltoall: the estimate is a data block of its own per size" \
    test "$(grep -c '^# \[[0-9]*\] point-to-point estimate$' "$L")" -ge 3
check "np-alltoall: the estimate is drawn dashed" grep -q "using 1:2 with lines lt 1 dt 2 notitle" laptop/np-alltoall.gp
check "np-alltoall: its interval as bars" grep -q "using 1:2:3:4 with yerrorbars lt 1 pt 0 lw 1 notitle" laptop/np-alltoall.gp
check "np-alltoall: labelled as the estimate predict answers" \
    grep -q "title 'point-to-point estimate, what predict answers: " laptop/np-alltoall.gp
check "np-alltoall: the axis goes to 64 processes" grep -q "'64' 64)" laptop/np-alltoall.gp
# the first size's estimate at np=16 is predict's answer there
size=$(sed -n 's/^# \[0\] \(.*\)$/\1/p' "$L" | sed 's/ //; s/KiB/K/; s/MiB/M/; s/B$//')
est=$(awk '/^# \[1\] point-to-point estimate$/ {b = 1; next} /^# \[/ {b = 0} b && $1 == 16 {print $2 "," $3 "," $4}' "$L")
pred=$("$COMMFIT" predict -m laptop.json -p alltoall -n 16 -b "$size" | sed -n 2p | cut -d, -f5-7)
check "np-alltoall: the estimate at np=16, $size, is predict's ($est; predict $pred)" test -n "$est" -a "$est" = "$pred"
check "np-alltoall: the caption says what the estimate is" \
    grep -q 'Dashed lines are the point-to-point estimate, which is what commfit predict answers' laptop/index.html
if [ -n "$gp" ]; then
    run "$COMMFIT" report -i laptop.csv -m laptop.json -o laptop-drawn
    n=$(grep -c '^# \[[0-9]*\] point-to-point estimate$' "$L")
    # per size: the points, the dashed estimate, its bars; the key: the estimate (two
    # lines) and the bars
    check "np-alltoall.svg draws $((3 * n + 3)) elements" \
        test "$(elements laptop-drawn/np-alltoall.svg)" -eq $((3 * n + 3))
else
    skip "np-alltoall.svg: no gnuplot"
fi

# A constant fit of barrier (a pattern that moves no data): the page lists it, with a dash
# for the figures it has none of; nothing breaks on its size-less range.
constant='{"pattern": "barrier", "np": 2, "datatype": "byte", "blocks": 0, "model": "constant", "segments": [{"from_bytes": 0, "to_bytes": 0, "n": 5, "coef": {"t0_us": 0.7}, "se": {"t0_us": 0.02}, "cov": [[0.0004]]}], "s2": 0.0009, "dof": 4, "quality": {"n": 5, "dof": 4, "loo_mape": 0.02, "max_rel_err": 0.03, "r2": null, "aicc": null}, "saturation": null, "measured": {"min_bytes": 0, "max_bytes": 0}},'
# (in place of laptop.json's fit of barrier at np 2: a model file holds one of each)
fit_in_place laptop.json "$constant" constant.json
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i laptop.csv -m constant.json -o constant
expect_rc 0 "a model with a constant fit"
check "the constant fit is in the page, its formula T = t" \
    grep -q '<tr><td>barrier</td><td class="num">2</td><td>byte</td><td>constant</td><td><code>T = 0.7 us[^<]*</code></td><td>t0_us = 0.7 &plusmn; 0.02</td>' constant/index.html
check "no 'nan' in the page" sh -c '! grep -q nan constant/index.html'

# A fit that gives no positive time at sizes it draws (a hand-edited intercept of -5 us):
# predict refuses those answers; report drew the curve below zero and under its own
# interval (lo 0 > hi -4.89) without a word. Now it leaves them out and says so.
awk '/"pattern": "pingpong"/ { pp = 1 } pp && /"alpha_us":/ && !done { sub(/"alpha_us": [-0-9.e+]*/, "\"alpha_us\": -5.0"); done = 1 } { print }' \
    laptop.json >negative.json
check "negative.json: an intercept edited to -5 us" grep -q '"alpha_us": -5.0' negative.json
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i laptop.csv -m negative.json -o negative
expect_rc 0 "a fit with a negative intercept"
grep_err "^commfit: report: warning: pingpong np=2 byte: the [a-z]* fit gives no time at [0-9]+ of the [0-9]+ sizes drawn \(at 1 B: -[0-9.]+ us\): left out of the plot, as predict refuses them$" \
    "a fit with a negative intercept: says so"
check "a fit with a negative intercept: no time of 0 or less in the plot's data" \
    awk '/^# \[/ { fit = /fit|piecewise|linear/ } !/^#/ && NF == 4 && ($2 <= 0 || $3 > $2 || $2 > $4) { bad = 1 } END { exit bad }' negative/time-pingpong.dat

# Time vs blocks as measure writes the rows: a request rounded down to whole blocks of
# floats (a vector of 100 blocks carries 400 of 512 bytes), and no more blocks than floats
# (8 bytes hold 2). Each size's curve goes over the block counts measured at it, 100 and
# 1000 among them, labelled on the axis.
awk 'BEGIN {
    print "# schema: 1"
    print "pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,t_med_us,t_ci95_us,bw_MiBps"
    n = split("8 512 4096 65536", S, " "); nb = split("1 2 4 10 100 1000", B, " ")
    for (i = 1; i <= n; i++) for (j = 1; j <= nb; j++) {
        f = int(S[i] / 4); b = B[j]; if (b > f) continue
        m = 4 * b * int(f / b); t = (0.5 + m / 4000 + 0.01 * b) * (1 + 0.02 * sin(++k))
        printf "pingpong,2,%d,vector,%d,100,5,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", m, b, t, t, t, t, t * 0.03, m / (1.048576 * t)
    }
}' >blk.csv
"$COMMFIT" fit -i blk.csv -o blk.json >/dev/null 2>&1
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i blk.csv -m blk.json -o blk
expect_rc 0 "a datatype table with rounded sizes"
B=blk/blocks-pingpong-vector.dat
# block N of the data file: its data lines
dblock() { awk -v n="$1" '/^# \[/ {b = ($2 == "[" n "]")} b && !/^#/ && NF' "$B"; }
check "blocks: one curve per request, named by it" \
    test "$(grep '^# \[' "$B" | tr '\n' ' ')" = "# [0] 8 B # [1] 8 B # [2] 512 B # [3] 512 B # [4] 4 KiB # [5] 4 KiB # [6] 64 KiB # [7] 64 KiB "
check "blocks: 8 B has its points at 1 and 2 blocks only" test "$(dblock 0 | cut -d' ' -f1 | tr '\n' ' ')" = "1 2 "
check "blocks: the fit at 8 B goes to 2 blocks, not to 1000" test "$(dblock 1 | tail -n 1 | cut -d' ' -f1)" = 2
check "blocks: 512 B has its 100-block point at the 400 bytes carried" \
    test "$(dblock 2 | awk '$1 == 100 {print $5}')" = 400
check "blocks: the fit at 512 B stops at 100 blocks" test "$(dblock 3 | tail -n 1 | cut -d' ' -f1)" = 100
check "blocks: 64 KiB has points at 100 and 1000 blocks" \
    test "$(dblock 6 | awk '$1 == 100 || $1 == 1000 {print $1}' | tr '\n' ' ')" = "100 1000 "
check "blocks: the fit at 64 KiB reaches 1000 blocks" test "$(dblock 7 | tail -n 1 | cut -d' ' -f1)" = 1000
check "blocks: the fit is drawn at the bytes the layout carries (1000 blocks: 64000)" \
    test "$(dblock 7 | tail -n 1 | cut -d' ' -f3)" = 64000
check "blocks: the axis labels 100 and 1000" grep -q "'100' 100 0, '1000' 1000 0)" blk/blocks-pingpong-vector.gp
check "blocks: the caption says a size is a request" grep -q 'A size is the payload asked for' blk/index.html

# -m alone, run from another folder: the table is found beside the model's folder.
mkdir elsewhere
cd elsewhere
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -m ../models/run.json -o r
expect_rc 0 "-m from another folder"
grep_err "^commfit: report: drawing \.\./models/\.\./data/run\.csv with the model \.\./models/run\.json$" \
    "-m from another folder: the table beside the model's folder"
cd "$T"

# -i and -m together.
cp data/run.csv other.csv
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i other.csv -m models/run.json -o both
expect_rc 0 "-i and -m"
grep_err "^commfit: report: drawing other.csv with the model models/run.json$" "-i and -m: both used"
check "-i and -m: not also 'measurements only, no model'" sh -c "! grep -q 'no model' '$T/err'"
check "-i and -m: the fits are drawn" grep -q "fit: T(m)" both/time-pingpong.gp
check "-i and -m: a copy of the fitted table is the table the model was fitted to" \
    grep -q '</code> fitted to it, by commfit' both/index.html
# -i a table the model was not fitted to: the page said "fitted to it" and drew the one
# against the other without a word.
awk -F, '/^#/ || $1 == "pattern" { print; next } { $11 = $11 * 2; print }' OFS=, other.csv |
    sed 's/^# date: .*/# date: another run/' >foreign.csv
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i foreign.csv -m models/run.json -o foreign
expect_rc 0 "-i a table the model was not fitted to"
grep_err "^commfit: report: warning: foreign.csv is no table the model models/run.json was fitted to \(it names data/run.csv\): the curves are the model's, the points this table's$" \
    "-i a table the model was not fitted to: a warning"
check "-i a table the model was not fitted to: the page says so" \
    grep -q 'which was fitted to other tables (<code>data/run.csv</code>)' foreign/index.html
check "-i a table the model was not fitted to: no 'fitted to it'" sh -c "! grep -q 'fitted to it' foreign/index.html"

# The page opens with what a reader came for, the run's metadata after it; a long value
# is folded.
page=both/index.html
check "the page opens with the key figures, before the run's metadata" \
    test "$(grep -o '<h2 id="[a-z]*"' $page | head -3 | tr '\n' ' ')" = \
    '<h2 id="glance" <h2 id="run" <h2 id="points" '
check "point-to-point: latency, peak, r_inf and n_1/2 of pingpong" \
    grep -q '^<tr><td>pingpong</td><td class="num">2</td><td class="num">[0-9.]* &micro;s</td><td class="num">[0-9]* MiB/s at [0-9.]* [KM]iB</td><td class="num">[0-9]* MiB/s (95%: [0-9]* to [0-9]*)</td><td class="num">[0-9.]* [KM]\{0,1\}i\{0,1\}B</td></tr>$' $page
check "collectives: alltoall's across-np model and its errors" \
    grep -q '^<tr><td>alltoall</td><td>byte</td><td class="num">2 to 8</td><td>across np: <code>[^<]*(p-1)\*m[^<]*</code></td><td class="num">[0-9.]*%</td><td class="num">[0-9.]*%</td></tr>$' $page
awk '/^pattern,/ {print "# configure: " sprintf("%0300d", 0)} {print}' other.csv >long.csv
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i long.csv -o long
check "a long metadata value is folded" \
    grep -q '^<tr><th>configure</th><td><details><summary>0* &hellip; (300 characters)</summary>0*</details></td></tr>$' long/index.html
check "without a model, the latency is the measured one" \
    grep -q '^<tr><td>pingpong</td><td class="num">2</td><td class="num">[0-9.]* &micro;s (measured at 0 B)</td>' long/index.html

# The shipped shared-memory IMB model: its piecewise ping-pong's last segment has a
# negative intercept, so n_1/2 comes from segment 3; the glance says so beside r_inf.
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -m "$top_srcdir/models/imb2021_mpich402_1node_np2_all.json" \
    -i "$top_srcdir/data/imb2021_mpich402_1node_np2_all.csv" -o imb
expect_rc 0 "the shipped IMB model's report"
check "glance: n_1/2 from an earlier segment says which, with its rate" \
    grep -q '^<tr><td>pingpong</td><td class="num">2</td>.*<td class="num">[0-9.]* KiB (segment 3, whose rate is [0-9]* MiB/s; the last segment.s intercept is negative)</td></tr>$' imb/index.html

# A model whose table is gone.
sed 's|"data/run.csv"|"data/gone.csv"|' models/run.json >lost.json
run "$COMMFIT" report -m lost.json -o lost
expect_rc 1 "a model whose table is gone"
grep_err "^commfit: report: lost.json: fitted from 'data/gone.csv', which cannot be read \(.*\): name the table with -i$" \
    "a model whose table is gone: the message"
check "a model whose table is gone: no report" test ! -e lost

# A broken model file.
echo '{"commfit_model": 1' >broken.json
run "$COMMFIT" report -m broken.json -o broken
expect_rc 1 "a broken model file"
grep_err "^commfit: report: broken.json" "a broken model file: names the file"
check "a broken model file: no report" test ! -e broken

# np=2 inside one 8-core node (the shipped SMPI multi-core table): past the node, the
# estimate has no upper bound, as predict says; no bar is drawn there.
awk -F, '/^#/ || $1 == "pattern" || $2 == 2' "$top_srcdir/data/sim-multicore.csv" >mc2.csv
"$COMMFIT" fit -q -i mc2.csv -o mc2.json
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i mc2.csv -m mc2.json -o mc2
expect_rc 0 "np=2 on one node of the multi-core table"
M=mc2/np-alltoall.dat
check "np-alltoall past the node np=2 ran in: no bar at np 16, said why" \
    grep -q '^# np 16, no bar: np=2 ran inside one node (mc-0, 8 cores) and np=16 spans 2 nodes' "$M"
check "np-alltoall inside the node: a bar at np 4" \
    awk '/its 95% prediction interval$/ { b = 1; next } /^# \[/ { b = 0 } b && $1 > 3.5 && $1 < 4.5 && $4 > $2 { f = 1 } END { exit !f }' "$M"
est=$(awk '/^# \[1\] point-to-point estimate$/ {b = 1; next} /^# \[/ {b = 0} b && $1 == 16 {print $4}' "$M")
check "np-alltoall: the estimate's upper bound at np 16 is predict's inf ($est)" test "$est" = inf

# np=2 inside one node of 2 cores (as on a 2-core laptop): every labelled np past it has no
# upper bound, so no size has a bar. No block is written for them: gnuplot counts no data
# set of a block without rows, and every later index would draw the wrong curve (the main
# job's np plots drew each size's estimate as the next size's points, with 4 warnings a
# plot).
sed 's/^# ranks_per_node: .*/# ranks_per_node: 2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2/; s/^# cores: .*/# cores: 2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2/' \
    mc2.csv >two.csv
"$COMMFIT" fit -q -i two.csv -o two.json
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i two.csv -m two.json -o two
expect_rc 0 "np=2 on a node of 2 cores"
check "np-alltoall, no np bounded: no interval block" sh -c '! grep -q "its 95% prediction interval" "$1"' sh two/np-alltoall.dat
# every index the script draws is a block of the data file with a row: gnuplot's data set
check "np-alltoall, no np bounded: every index drawn has rows" awk '
    FNR == NR { if (/^# \[[0-9]+\]/) { b = substr($2, 2) + 0; hdr[b] = 1 } else if (!/^#/ && NF) rows[b]++; next }
    { while (match($0, /index [0-9]+/)) { i = substr($0, RSTART + 6, RLENGTH - 6) + 0; if (!rows[i]) bad = 1; $0 = substr($0, RSTART + RLENGTH) } }
    END { exit bad }' two/np-alltoall.dat two/np-alltoall.gp
check "np-alltoall, no np bounded: the key says there are no bars" \
    grep -q "no interval bars: beyond the np measured none has an upper bound" two/np-alltoall.gp
check "np-alltoall, no np bounded: the caption says why" \
    grep -q "no labelled process count has an interval bar, for none has an upper bound: np=2 ran inside one node (mc-0, 2 cores)" two/index.html
if [ -n "$gp" ]; then
    run "$COMMFIT" report -i two.csv -m two.json -o two-drawn
    check "np=2 on a node of 2 cores: no gnuplot warning" test -z "$(grep 'gnuplot:' "$T/err" || true)"
else
    skip "np=2 on a node of 2 cores: no gnuplot"
fi

# np=2 of a table that says nothing of where its ranks ran (the same rows without hosts,
# ranks_per_node and cores, as an import without --ranks-per-node): past np=2 nothing says
# its ranks stay as near, so no labelled np has a bar, and the caption says why.
grep -v -e '^# hosts:' -e '^# ranks_per_node:' -e '^# cores:' -e '^# rank_hosts:' -e '^# rank_latency' \
    -e '^# pair_exchange' mc2.csv >unplaced2.csv
"$COMMFIT" fit -q -i unplaced2.csv -o unplaced2.json
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i unplaced2.csv -m unplaced2.json -o unplaced2
expect_rc 0 "np=2 of a table without placement"
check "np-alltoall without placement: no interval block, the estimate's upper bound inf at np 16" \
    awk '/its 95% prediction interval/ { bad = 1 } /^# \[1\] point-to-point estimate$/ { b = 1; next } /^# \[/ { b = 0 }
         b && $1 == 16 { f = $4 == "inf" } END { exit bad || !f }' unplaced2/np-alltoall.dat
check "np-alltoall without placement: the caption says why" \
    grep -q "no labelled process count has an interval bar, for none has an upper bound: the table does not say where its ranks ran" unplaced2/index.html

# The shipped datatype sweep: a per-block cost of four segments is one segment a line in
# the key (on one line it ran past the widest canvas, and gnuplot warned of the key).
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i "$top_srcdir/data/ddt-vm-mpich402-np2.csv" \
    -m "$top_srcdir/models/ddt-vm-mpich402-np2.json" -o ddt
check "ddt: the per-block cost, one segment a line in the key" \
    grep -q "keyentry with lines lt nodraw title '      -0.114 ns \[-0.165, -0.0627\] (2044 B <= m <= 8 KiB),'" ddt/blocks-pingpong-vector.gp
if [ -n "$gp" ]; then
    run "$COMMFIT" report -i "$top_srcdir/data/ddt-vm-mpich402-np2.csv" \
        -m "$top_srcdir/models/ddt-vm-mpich402-np2.json" -o ddt-drawn
    check "ddt: no gnuplot warning" test -z "$(grep 'gnuplot:' "$T/err" || true)"
else
    skip "ddt: no gnuplot"
fi

run "$COMMFIT" report -m ''
expect_rc 2 "-m ''"

# Under the library's rules the key names the algorithms predict answers with: it named the
# catalog's first ("binomial tree") for Open MPI's bcast, which predict reads as a knomial
# tree at 4 B and scatter + allgather at 1 MiB at np 16 (a new user).
awk -F, '/^#/ || $1 == "pattern" || $2 == 2' "$top_srcdir/data/sim-flat-ompi.csv" >ompi2.csv
"$COMMFIT" fit -q -i ompi2.csv -o ompi2.json
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i ompi2.csv -m ompi2.json -o ompi2
for b in 4 1M; do
    m=$("$COMMFIT" predict -m ompi2.json -p bcast -n 16 -b $b -f csv | sed -n 2p | cut -d, -f10)
    check "np-bcast's key names '$m', predict's algorithm at np 16, $b" \
        grep -q "what predict answers: .*$m" ompi2/np-bcast.gp
done
check "np-alltoall's key names 'linear alltoall', as predict's column ('linear' alone is a fitted model's name)" \
    grep -q "what predict answers: .*linear alltoall" ompi2/np-alltoall.gp
done_testing
