# commfit fit says when a table's run stopped short of its plan (end_reason other than
# complete, or a table of commfit measure with no end after its rows: killed): it fits the
# rows there are and names the --resume that measures the rest. A run that went through, a
# resumed one that then went through (the last end_reason counts), an imported table and
# one measured before the end lines were written fit without a word of it.
. "$top_srcdir/tests/setup.sh"

# table FILE [META...]: a ping-pong of 6 sizes, measured-by-commfit metadata, then each
# META as a line after the rows (an end block).
table() {
    f=$1
    shift
    {
        echo "# commfit_revision: 0123abc"
        echo "# plan: --patterns pingpong --sizes 1,64,1024,16384,262144,1048576 --np 2"
        echo "$HDR,stop"
        for b in 1 64 1024 16384 262144 1048576; do
            awk -v b=$b 'BEGIN { t = 2 + b / 10000
                printf "pingpong,2,%d,byte,,100,5,%.6g,%.6g,%.6g,%.6g,,,samples\n", b, t, t, t, t }'
        done
        for m in "$@"; do echo "# $m"; done
    } >"$f"
}

table done.csv "end: 2026-12-04T10:00:00Z" "duration_s: 3.5" "end_reason: complete"
run "$COMMFIT" fit -i done.csv -o done.json
expect_rc 0 "a run that went through"
check "a run that went through: no word of its end" sh -c "! grep -q 'its run' '$T/err'"

table killed.csv
run "$COMMFIT" fit -i killed.csv -o killed.json
expect_rc 0 "a run with no end after its rows"
grep_err "^commfit: fit: warning: killed.csv: its run never reached its end \\(no end_reason after its rows: the run was killed, or its machine went down\\): the table holds 6 rows, and no fit has the points the run did not reach; measure them with: commfit measure --resume killed.csv\$" \
    "a run with no end after its rows: said, with the resume"
check "a run with no end: the model file written" test -s killed.json

table "sig nal.csv" "end: 2026-12-04T10:00:00Z" "duration_s: 1.0" "end_reason: stopped by a signal"
run "$COMMFIT" fit -i "sig nal.csv" -o signal.json
expect_rc 0 "a run stopped by a signal"
grep_err "^commfit: fit: warning: sig nal.csv: its run stopped short of its plan \\(stopped by a signal\\): the table holds 6 rows, .*; measure them with: commfit measure --resume 'sig nal.csv'\$" \
    "a run stopped by a signal: the reason, and the resume quoted for the shell"

table failed.csv "end_reason: failed: pingpong np 2 at 1 MiB: MPI_Send: out of memory"
run "$COMMFIT" fit -i failed.csv -o failed.json
grep_err "its run stopped short of its plan \(failed: pingpong np 2 at 1 MiB: MPI_Send: out of memory\)" \
    "a failed run: its message"

table resumed.csv "end_reason: stopped by a signal" "resumed: 2026-12-04T11:00:00Z" \
    "end_reason: cut short: the launch that resumed the table wrote no end (killed)" \
    "end: 2026-12-04T12:00:00Z" "end_reason: complete"
run "$COMMFIT" fit -i resumed.csv -o resumed.json
expect_rc 0 "a resumed run that went through"
check "a resumed run that went through: the last end_reason counts" \
    sh -c "! grep -q 'its run' '$T/err'"

table cut.csv "end_reason: stopped by a signal" "resumed: 2026-12-04T11:00:00Z" \
    "end_reason: cut short: the launch that resumed the table wrote no end (killed)"
run "$COMMFIT" fit -i cut.csv -o cut.json
grep_err "its run stopped short of its plan \(cut short: the launch that resumed the table wrote no end \(killed\)\)" \
    "a resumed launch killed in its turn"

# Tables that do not say how their run ended: imported, or measured before commfit_revision
# and the end lines (both came in one version).
grep -v '^# commfit_revision' killed.csv >older.csv
run "$COMMFIT" fit -i older.csv -o older.json
expect_rc 0 "a table measured before the end lines"
check "a table measured before the end lines: no word of its end" sh -c "! grep -q 'its run' '$T/err'"
run "$COMMFIT" fit -i "$top_srcdir/data/imb_stackhpc_ompi4_ib_pingpong.csv" -o imb.json
expect_rc 0 "an imported table"
check "an imported table: no word of its end" sh -c "! grep -q 'its run' '$T/err'"

# A simulated table resumes with its platform (and its selector, where not the default):
# the hint names them, as measure's own does; read from the standard input, no file to name.
{
    echo "# simulated: yes"
    echo "# platform: flat.xml"
    echo "# coll_selector: ompi"
    cat killed.csv
} >sim.csv
run "$COMMFIT" fit -i sim.csv -o sim.json
grep_err "; measure them with: commfit measure --simulate flat.xml --coll-selector ompi --resume sim.csv \\(the platform file the table names, where it is\\)\$" \
    "a simulated table: the resume names its platform and selector"
grep -v coll_selector sim.csv >sim2.csv
run "$COMMFIT" fit -i sim2.csv -o sim2.json
grep_err "; measure them with: commfit measure --simulate flat.xml --resume sim2.csv \\(the" \
    "a simulated table with the default selector: none named"
# A hostfile named too long to quote in the hint: a placeholder, not nothing (the resume
# without it would be refused as another placement).
long=$(printf 'h%.0s' $(seq 400))
{ echo "# hostfile: $long.txt"; cat sim.csv; } >sim3.csv
run "$COMMFIT" fit -i sim3.csv -o sim3.json
grep_err "; measure them with: commfit measure --simulate flat.xml --coll-selector ompi --hostfile HOSTFILE --resume sim3.csv \\(the" \
    "a hostfile too long to quote: HOSTFILE in its place"
run sh -c "'$COMMFIT' fit -i - -o stdin.json < killed.csv"
expect_rc 0 "a table on the standard input"
grep_err "; 'commfit measure --resume FILE' measures them, FILE the table saved to a file\$" \
    "a table on the standard input: no '--resume -'"

# Two tables, one short: that one named.
run "$COMMFIT" fit -i done.csv -i killed.csv -o both.json
check "two tables: the short one named" grep -q '^commfit: fit: warning: killed.csv: its run never' "$T/err"
check "two tables: the whole one not" sh -c "! grep -q 'done.csv: its run' '$T/err'"

done_testing
