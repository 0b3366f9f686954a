# commfit report from a table made here: every expected file, well-formed SVGs with their
# curves, a page that links only to files that exist, gnuplot missing or failing, an
# interrupted run, and the folder rules.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/report-helpers.sh"

awk -f "$top_srcdir/tests/cli/report-table.awk" >t.csv

# The plots this table supports, with the plot elements each draws.
plots="time-allreduce:3 time-alltoall:3 time-pingpong:1 time-sendrecv:1
bw-pingpong:2 bw-sendrecv:2
bw-pingpong-contiguous:1 bw-pingpong-indexed:5 bw-pingpong-struct:3 bw-pingpong-vector:5
gain-pingpong-b1:2 gain-pingpong-b16:2 gain-pingpong-b256:2 gain-pingpong-varying:1
blocks-pingpong-indexed:9 blocks-pingpong-vector:9
np-allreduce:4 np-alltoall:4 np-barrier:1"
nplots=$(echo $plots | wc -w)

# --- with gnuplot ----------------------------------------------------------------------
if [ -n "$gp" ]; then
    run "$COMMFIT" report -i t.csv
    expect_rc 0 "report -i t.csv"
    expect_out "report/t/index.html" "report -i t.csv"
    expect_err "commfit: report: drawing t.csv: measurements only, no model (fitted curves need one: commfit fit -i t.csv)
commfit: report: wrote report/t/index.html with $nplots plots" "report -i t.csv"
    check "report/ holds the report folder and nothing else" test "$(ls -A report)" = t
    check "the folder holds the page, three files a plot and the list of them" \
        test "$(ls -A report/t | wc -l)" -eq $((3 * nplots + 2))
    check "the list .commfit-report names every other file of the folder" \
        test "$(ls -A report/t | grep -v '^\.commfit-report$')" = "$(sort report/t/.commfit-report)"
    xml_rc=0
    # shellcheck disable=SC2046
    bad_xml=$(not_wellformed $(for p in $plots; do echo "report/t/${p%%:*}.svg"; done)) ||
        xml_rc=$?
    for p in $plots; do
        n=${p%%:*}
        want=${p#*:}
        for ext in dat gp svg; do
            check "$n.$ext exists" test -s "report/t/$n.$ext"
        done
        if [ "$xml_rc" -eq 2 ]; then
            skip "$n.svg is well-formed XML: neither python3 nor xmllint"
        elif [ "$xml_rc" -ne 0 ] || echo "$bad_xml" | grep -qxF "report/t/$n.svg"; then
            fail "$n.svg is well-formed XML"
        else
            pass "$n.svg is well-formed XML"
        fi
        got=$(elements "report/t/$n.svg")
        check "$n.svg draws $want plot elements (got $got)" test "$got" -eq "$want"
    done
    for np in 2 4 8; do
        check "time-alltoall.svg has the key entry np=$np" \
            grep -q "<text>np=$np</text>" report/t/time-alltoall.svg
    done
    check "bw-pingpong.svg names the measured peak" \
        grep -q '<text>measured peak: [0-9]* MiB/s at [0-9.]* [KM]iB (np=2)</text>' report/t/bw-pingpong.svg
    check "time-pingpong.svg has a log-2 size axis labelled in K and M" \
        grep -q '<text>64K</text>' report/t/time-pingpong.svg
    check "the page links only to files of the folder" links_ok report/t

    # Each datatype meets the pack of its own layout (ddt_layout), at its block count.
    for dt in vector indexed; do
        want=$(awk -F, -v dt=$dt '$4 == "pack" && $3 == 4096 && $5 == 16 && $14 == dt {print $11}' t.csv)
        got=$(awk -v dt=$dt '/^# \[/ {b = $3 == dt; next} b && $1 == 4096 {print $4; exit}' \
            report/t/gain-pingpong-b16.dat)
        check "gain-pingpong-b16: $dt against pack_$dt ($got, want $want)" test -n "$want" -a "$got" = "$want"
    done
    check "the struct, its block count growing with the size, has a gain plot of its own" \
        grep -q '^# \[0\] struct$' report/t/gain-pingpong-varying.dat
    # Bandwidth per datatype: at the smallest and largest block counts, each beside the
    # pack of its layout, with the contiguous transfer of the same bytes.
    check "bw-pingpong-vector: the datatype at 1 and 256 blocks, the pack of its layout beside" \
        test "$(grep '^# \[' report/t/bw-pingpong-vector.dat | tr '\n' '|')" = \
        "# [0] contiguous|# [1] vector, 1 block|# [2] pack_vector, 1 block|# [3] vector, 256 blocks|# [4] pack_vector, 256 blocks|"
    check "bw-pingpong-vector: the contiguous baseline at the datatype's sizes" \
        test "$(awk '/^# \[0\]/ {b = 1; next} /^# \[1\]/ {b = 0} b && !/^#/ && NF {print $1}' report/t/bw-pingpong-vector.dat | tr '\n' ' ')" = \
        "1024 4096 16384 65536 262144 1048576 "
    check "bw-pingpong-struct: struct at its own block counts" \
        grep -q '^# \[1\] struct, blocks growing with the size$' report/t/bw-pingpong-struct.dat
    check "bw-pingpong-vector: the pack drawn with open symbols, dashed" \
        grep -q "index 2 using 1:2:3:4 with yerrorlines dt 2 lt 2 pt 4 title 'pack_vector, 1 block measured'" report/t/bw-pingpong-vector.gp
    check "the pack baseline is drawn beside its datatype" \
        grep -q "title 'pack_indexed measured (MPI_Pack of the same layout" report/t/blocks-pingpong-indexed.gp
    for p in $plots; do
        n=${p%%:*}
        check "the page shows $n.svg" grep -q "<img src=\"$n.svg\"" report/t/index.html
    done
    check "the page escapes the metadata" \
        grep -q '<td>MPICH Version: 4.0 &lt;test&gt; &amp; &quot;co&quot;</td>' report/t/index.html
    check "the page has no external reference" sh -c '! grep -q -E "https?://" report/t/index.html'
    check "the SVGs have no external reference" sh -c '! grep -l -E "(href|src)=.https?://" report/t/*.svg'

    # A script runs by hand in the folder and draws its plot again.
    rm report/t/time-alltoall.svg
    (cd report/t && "$gp" time-alltoall.gp) >/dev/null 2>&1 || true
    check "gnuplot time-alltoall.gp in the folder draws time-alltoall.svg" \
        test -s report/t/time-alltoall.svg
    check "the figure drawn by hand has its 3 curves" test "$(elements report/t/time-alltoall.svg)" -eq 3

    # A file the user put in the report folder is never deleted: the run is refused.
    echo mine >report/t/notes.txt
    run "$COMMFIT" report -i t.csv
    expect_rc 1 "a folder holding the user's file"
    expect_err "commfit: report: report/t: the report folder holds 'notes.txt', which commfit report did not write: move it, or choose another folder with -o" \
        "a folder holding the user's file"
    check "the user's file is kept" test "$(cat report/t/notes.txt)" = mine
    check "the refused run leaves the earlier report" test -s report/t/index.html
    rm report/t/notes.txt
    # An earlier report without its list (another writer's folder) is refused as well.
    mkdir old-report
    cp report/t/index.html old-report/
    run "$COMMFIT" report -i t.csv -o old-report
    expect_rc 1 "an earlier report without its list"
    expect_err "commfit: report: old-report: an earlier report without the list .commfit-report of its files: remove the folder or choose another with -o" \
        "an earlier report without its list"

    # A second run replaces the report whole.
    run "$COMMFIT" report -i t.csv
    expect_rc 0 "a second run"
    check "a second run replaces the earlier report" test "$(ls -A report/t | wc -l)" -eq $((3 * nplots + 2))
    check "a second run leaves no temporary folder" test "$(ls -A report)" = t

    # The plots are drawn in batches: a few gnuplot processes, each given many scripts.
    cat >counting-gnuplot <<EOF
#!/bin/sh
echo \$# >>"$T/gnuplot-runs"
exec "$gp" "\$@"
EOF
    chmod +x counting-gnuplot
    run env GNUPLOT="$T/counting-gnuplot" "$COMMFIT" report -i t.csv -o batched
    expect_rc 0 "a counted gnuplot"
    check "every script is given to gnuplot once" \
        test "$(awk '{n += $1} END {print n}' gnuplot-runs)" -eq "$nplots"
    check "no more gnuplot processes than the limit (8), not one per plot" \
        test "$(wc -l <gnuplot-runs)" -le 8 -a "$(wc -l <gnuplot-runs)" -lt "$nplots"
    check "batched: every plot drawn" test "$(ls batched/*.svg | wc -l)" -eq "$nplots"

    # PNG
    run "$COMMFIT" report -i t.csv -o png --png
    expect_rc 0 "--png"
    check "--png draws PNG images" sh -c 'head -c 4 png/time-alltoall.png | od -c | grep -q "P   N   G"'
    check "--png: the page shows the PNGs" grep -q '<img src="time-alltoall.png"' png/index.html
    check "--png: no SVG" sh -c '! ls png/*.svg 2>/dev/null'
    check "--png: the page links only to files of the folder" links_ok png

    # Without arguments: the newest table in data/.
    mkdir data
    cp t.csv data/older.csv
    touch -d '2020-01-01' data/older.csv
    cp t.csv data/run1.csv
    run "$COMMFIT" report
    expect_rc 0 "no arguments"
    expect_out "report/run1/index.html" "no arguments: the newest table in data/"

    # gnuplot failing: an error, and the earlier report stays as it was.
    cat >failing-gnuplot <<'EOF'
#!/bin/sh
echo '         "time-allreduce.gp" line 3: boom' >&2
exit 1
EOF
    chmod +x failing-gnuplot
    ls report/t >before
    run env GNUPLOT="$T/failing-gnuplot" "$COMMFIT" report -i t.csv
    expect_rc 1 "gnuplot failing"
    expect_err 'commfit: report: drawing t.csv: measurements only, no model (fitted curves need one: commfit fit -i t.csv)
commfit: report: time-allreduce.gp: gnuplot failed: "time-allreduce.gp" line 3: boom' "gnuplot failing"
    ls report/t >after
    check "gnuplot failing: the earlier report is left as it was" cmp -s before after
    check "gnuplot failing: no temporary folder is left" test "$(ls -A report)" = "$(printf 'run1\nt')"

    # Interrupted while gnuplot runs: nothing is left but the earlier report.
    cat >slow-gnuplot <<EOF
#!/bin/sh
touch "$T/started"
sleep 30
EOF
    chmod +x slow-gnuplot
    GNUPLOT="$T/slow-gnuplot" "$COMMFIT" report -i t.csv >/dev/null 2>&1 &
    pid=$!
    i=0
    while [ ! -e started ] && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    kill -TERM $pid
    rc=0
    wait $pid || rc=$?
    check "SIGTERM ends report by the signal (status $rc)" test "$rc" -eq 143
    check "SIGTERM: no temporary folder is left" test "$(ls -A report)" = "$(printf 'run1\nt')"
    ls report/t >after
    check "SIGTERM: the earlier report is left as it was" cmp -s before after
else
    skip "no gnuplot on this machine: the drawing checks"
fi

# --- without gnuplot -------------------------------------------------------------------
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i t.csv -o nogp
expect_rc 0 "no gnuplot on PATH"
expect_out "nogp/index.html" "no gnuplot on PATH"
expect_err "commfit: report: drawing t.csv: measurements only, no model (fitted curves need one: commfit fit -i t.csv)
commfit: report: warning: gnuplot is not on PATH (install gnuplot-nox, or set GNUPLOT): wrote the data files and gnuplot scripts of $nplots plots into nogp, without images; draw them with: cd 'nogp' && gnuplot *.gp" "no gnuplot on PATH"
for p in $plots; do
    n=${p%%:*}
    check "no gnuplot: $n.dat and $n.gp are written" test -s "nogp/$n.dat" -a -s "nogp/$n.gp"
done
check "no gnuplot: no image" sh -c '! ls nogp/*.svg nogp/*.png 2>/dev/null'
check "no gnuplot: the page links only to files of the folder" links_ok nogp
check "no gnuplot: the page says the plots were not drawn and how to draw one" \
    grep -q 'To draw it, run <code>gnuplot time-alltoall.gp</code> in this folder' nogp/index.html
if [ -n "$gp" ]; then
    (cd nogp && "$gp" *.gp) >/dev/null 2>&1 || true
    check "no gnuplot: the documented command draws every plot" \
        test "$(ls nogp/*.svg | wc -l)" -eq "$nplots"
fi

run env GNUPLOT=/nonexistent/gnuplot "$COMMFIT" report -i t.csv -o nogp2
expect_rc 0 "GNUPLOT naming no program"
grep_err "^commfit: report: warning: GNUPLOT='/nonexistent/gnuplot' is not a program that can be run: wrote" \
    "GNUPLOT naming no program: the warning says so"

# An imported table with several runs of the same benchmark: points, not lines that
# zigzag between the runs.
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report \
    -i "$top_srcdir/data/osu58_convergedcomputing_aws_hpc6a_efa_32n_lat_bw_allreduce.csv" -o runs
expect_rc 0 "a table with several runs"
check "several runs: time-pingpong draws points with bars" \
    grep -q "index 0 using 1:2:3:4 with yerrorbars lt 1 title 'np=2'" runs/time-pingpong.gp
check "several runs: bw-pingpong draws points with bars" \
    grep -q "index 0 using 1:2:3:4 with yerrorbars lt 1 title 'np=2'" runs/bw-pingpong.gp
check "one run: time-pingpong draws lines" \
    grep -q "index 0 using 1:2:3:4 with yerrorlines lt 1 title 'np=2'" nogp/time-pingpong.gp

# --- errors -----------------------------------------------------------------------------
mkdir foreign
touch foreign/notes.txt
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i t.csv -o foreign
expect_rc 1 "a foreign folder in the way"
grep_err "^commfit: report: foreign: folder exists and is not a commfit report \(it holds 'notes.txt', which commfit report did not write\): remove it or choose another with -o$" \
    "a foreign folder in the way: the message names its file"
check "a foreign folder is left alone" test "$(ls -A foreign)" = notes.txt
check "a foreign folder: nothing is left beside it" test -z "$(ls -A | grep '^\.foreign')"

touch afile
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i t.csv -o afile
expect_rc 1 "a file in the way"
grep_err "^commfit: report: afile: a file of that name is in the way of the report folder$" \
    "a file in the way: the message"

run "$COMMFIT" report -i t.csv -o .
expect_rc 2 "-o ."
expect_err "commfit: report: output folder '.': expected a folder name, not '.', '..' or '/'" "-o ."

sed '8s/,5,/,x,/' t.csv >bad.csv
run "$COMMFIT" report -i bad.csv -o bad
expect_rc 1 "a bad table"
grep_err "^commfit: report: bad.csv:8: " "a bad table: file:line"
check "a bad table: no report" test ! -e bad

mkdir empty && cd empty
run "$COMMFIT" report
expect_rc 1 "no model, no table and no data/"
expect_err "commfit: report: no model in models/ and no timing table in data/: run 'commfit measure' and 'commfit fit' first, or name the files with -m and -i" \
    "no table and no data/"
cd "$T"

sed '/^pattern,/q' t.csv >header-only.csv
# Refused as fit refuses it (a page of 0 plots, exit 0, before; bad-input audit).
run env -u GNUPLOT PATH=/nonexistent "$COMMFIT" report -i header-only.csv -o h
expect_rc 1 "a table without rows"
expect_err "commfit: report: header-only.csv: no rows: nothing to draw" "a table without rows: said"
check "a table without rows: no report folder" test ! -e h

run "$COMMFIT" report extra
expect_rc 2 "an extra argument"
expect_err "commfit: report: unexpected argument 'extra'
Try 'commfit report --help'." "an extra argument"
run "$COMMFIT" report m.json
expect_rc 2 "a model file as an argument"
expect_err "commfit: report: unexpected argument 'm.json': name a model file with -m
Try 'commfit report --help'." "a model file as an argument: says -m"
run "$COMMFIT" report t.csv
expect_rc 2 "a table as an argument"
grep_err "^commfit: report: unexpected argument 't.csv': name a table with -i$" \
    "a table as an argument: says -i"
run "$COMMFIT" report --bogus
expect_rc 2 "an unknown option"
expect_err "commfit: report: unknown option '--bogus'
Try 'commfit report --help'." "an unknown option"
run "$COMMFIT" report -i
expect_rc 2 "-i without a value"
expect_err "commfit: report: option '-i' needs a value
Try 'commfit report --help'." "-i without a value"

# A bandwidth test's time is a streamed message's (1 / the message rate): no latency.
run "$COMMFIT" import osu -q "$top_srcdir/tests/data/realdata/osu562_stackhpc_alaska_hdr100ib_ompi4_mbw_mr_8pairs.txt" -o mbw.csv
expect_rc 0 "import an osu_mbw_mr table"
run "$COMMFIT" fit -q -i mbw.csv -o mbw.json
run "$COMMFIT" report -q -m mbw.json -o mbw-report
expect_rc 0 "the report of an osu_mbw_mr model"
check "a bandwidth test's row gives no latency, and says why" \
    grep -q '<tr><td>mbw_mr</td><td class="num">16</td><td class="num">&ndash; (a bandwidth test: its times are a streamed message' mbw-report/index.html

# -o - is the standard output to every other command: refused, no folder '-' made.
run "$COMMFIT" report -m "$top_srcdir/models/sim-flat.json" -o -
expect_rc 2 "report -o -"
expect_err "commfit: report: -o -: a report is a folder of pages and plots, not one stream; name a folder (./- for one called '-')
Try 'commfit report --help'." "report -o -: said"
check "report -o -: no folder '-'" test ! -e ./-

# The estimate's np plot says which algorithm it costs: the library's rules where the table
# names the library, else the cheapest of MPICH's (it said "the algorithm MPICH uses" of
# every table, an Open MPI one or one naming no library).
for m in imb2021_mpich402_1node_np2_all osu58_convergedcomputing_aws_hpc6a_efa_32n_lat_bw_allreduce; do
    run "$COMMFIT" report -m "$top_srcdir/models/$m.json" -o "rules-$m"
    expect_rc 0 "report of $m"
done
check "an MPICH table: its rules named in the estimate's caption" \
    grep -q "the cost of the algorithm the table&#39;s MPI library chooses (mpich&#39;s rules)" \
    rules-imb2021_mpich402_1node_np2_all/index.html
check "a table naming no library: the cheapest of MPICH's" \
    grep -q "the cost of the cheapest of the algorithms MPICH switches between (the table names no library" \
    rules-osu58_convergedcomputing_aws_hpc6a_efa_32n_lat_bw_allreduce/index.html

# One row, one plot: "1 plot", not "1 plots".
awk -F, '/^#/ || $1 == "pattern" || ($1 == "bcast" && $2 == 2 && $3 == 1024)' "$top_srcdir/data/sim-flat.csv" >one.csv
run "$COMMFIT" report -i one.csv -o one
expect_rc 0 "a table of one row"
if [ -n "$(command -v gnuplot)" ]; then
    grep_err "^commfit: report: wrote one/index.html with 1 plot\$" "a table of one row: 1 plot"
else
    grep_err "of 1 plot into one, without" "a table of one row: 1 plot"
fi

# -i is repeatable, as fit's: the tables are drawn together (the last one alone was drawn,
# without a word); a table named twice is refused; one the model was not fitted to named.
awk -F, '/^#/ || $1 == "pattern" || $1 == "pingpong"' "$top_srcdir/data/sim-flat.csv" >p2p.csv
awk -F, '/^#/ || $1 == "pattern" || $1 == "bcast"' "$top_srcdir/data/sim-flat.csv" >coll.csv
"$COMMFIT" fit -q -i p2p.csv -i coll.csv -o both.json
run "$COMMFIT" report -i p2p.csv -i coll.csv -m both.json -o two
expect_rc 0 "report of two tables"
check "report of two tables: both drawn" \
    sh -c 'test -s two/time-pingpong.dat && test -s two/time-bcast.dat'
check "report of two tables: both named" grep -q "^commfit: report: drawing p2p.csv, coll.csv with the model both.json$" "$T/err"
run "$COMMFIT" report -i p2p.csv -i ./p2p.csv -m both.json -o twice
expect_rc 2 "a table named twice"
expect_err "commfit: report: -i './p2p.csv' is the same file as -i 'p2p.csv': its rows would count twice; give each table once" \
    "a table named twice: said"
# Without a model, the fit that would give the curves names each table with its -i.
run "$COMMFIT" report -i p2p.csv -i coll.csv -o nomodel
grep_err "^commfit: report: drawing p2p.csv, coll.csv: measurements only, no model \\(fitted curves need one: commfit fit -i p2p.csv -i coll.csv\\)\$" \
    "two tables without a model: the fit hint names both with -i"
# A derived-datatype sweep after a table without its columns: its pack rows are read by its
# own columns (ddt_layout), whatever the order; the same plots either way.
cp "$top_srcdir/data/osu532_hpccofc_ib_latency_compute001.csv" lat.csv
cp "$top_srcdir/data/ddt-vm-mpich402-np2.csv" ddt.csv
"$COMMFIT" fit -q -i lat.csv -i ddt.csv -o pd.json
"$COMMFIT" report -q -i lat.csv -i ddt.csv -m pd.json -o pd1 >/dev/null
"$COMMFIT" report -q -i ddt.csv -i lat.csv -m pd.json -o pd2 >/dev/null
check "pack rows by each table's columns: the same plots in either order" \
    sh -c 'cd pd1 && ls >../pd1.ls && cd ../pd2 && ls >../pd2.ls && cmp -s ../pd1.ls ../pd2.ls'
check "pack rows by each table's columns: no pack pooled over the layouts" sh -c '! ls pd1 | grep -q -- "-pack\."'
awk -F, '/^#/ || $1 == "pattern" || ($1 == "allreduce" && $2 <= 16)' "$top_srcdir/data/sim-flat.csv" >other.csv
run "$COMMFIT" report -i p2p.csv -i other.csv -m both.json -o three
expect_rc 0 "report with a table the model was not fitted to"
grep_err "^commfit: report: warning: other.csv is no table the model both.json was fitted to \\(it names p2p.csv, coll.csv\\)" \
    "the table the model was not fitted to: named"

done_testing
