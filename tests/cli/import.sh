# commfit import from the command line: every real file, the shipped samples in data/,
# golden output, the default output name, usage and data errors, --lenient.
. "$top_srcdir/tests/setup.sh"

R="$top_srcdir/tests/data/realdata"

# rows FILE: the data rows of a timing table.
rows() { grep -v '^#' "$1" | tail -n +2 | wc -l | tr -d ' '; }

# Each real file with the row count, the process counts and the patterns it must give.
while read -r fmt file opts nrows nps pats; do
    [ "$opts" = - ] && opts=
    run "$COMMFIT" import $opts "$fmt" "$R/$file" -o "$T/$file.csv"
    expect_rc 0 "import $fmt $file"
    check "$file: $nrows rows" test "$(rows "$T/$file.csv")" = "$nrows"
    got_nps=$(grep -v '^#' "$T/$file.csv" | tail -n +2 | cut -d, -f2 | sort -un | tr '\n' ' ')
    check "$file: np $nps" test "$got_nps" = "$(echo $nps | tr ',' ' ') "
    got_pats=$(grep -v '^#' "$T/$file.csv" | tail -n +2 | cut -d, -f1 | sort -u | tr '\n' ' ')
    check "$file: patterns $pats" test "$got_pats" = "$(echo $pats | tr ',' ' ') "
done <<'EOF'
imb imb2021_mpich402_1node_np2_all.txt - 423 2 allgather,allgatherv,allreduce,alltoall,alltoallv,barrier,bcast,exchange,gather,gatherv,pingping,pingpong,reduce,reduce_local,reduce_scatter,reduce_scatter_block,scatter,scatterv,sendrecv
imb imb41_gbrandino_juno_arm_internode_eth.txt - 378 2 allgather,allgatherv,allreduce,alltoall,alltoallv,barrier,bcast,exchange,gather,gatherv,pingping,pingpong,reduce,reduce_scatter,scatter,scatterv,sendrecv
imb imb_stackhpc_ompi4_ib_pingpong.txt - 24 2 pingpong
osu osu532_hpccofc_ib_latency_compute001.txt - 24 2 pingpong
osu osu562_stackhpc_alaska_hdr100ib_ompi4_alltoall.txt --np=64 21 64 alltoall
osu osu562_stackhpc_alaska_hdr100ib_ompi4_mbw_mr_8pairs.txt - 23 16 mbw_mr
osu osu58_convergedcomputing_aws_hpc6a_efa_32n_lat_bw_allreduce.txt --np=3072 1335 2,3072 allreduce,bw,pingpong
osu osu74_mpich402_1node_np2_alltoall_full.txt --np=2 21 2 alltoall
EOF

# Values spot-checked against the text of the files.
f="$T/imb2021_mpich402_1node_np2_all.txt.csv"
check "imb2021: Sendrecv 4 MiB row" grep -qx \
    'sendrecv,2,4194304,byte,,10,1,404.2,404.23,404.25,404.23,,19789.60037,imb2021_mpich402_1node_np2_all.txt:109' "$f"
check "imb2021: Barrier row" grep -qx \
    'barrier,2,0,byte,,1000,1,0.75,0.75,0.75,0.75,,,imb2021_mpich402_1node_np2_all.txt:579' "$f"
f="$T/osu74_mpich402_1node_np2_alltoall_full.txt.csv"
check "osu74: 1 MiB row with min, avg, max and iterations" grep -qx \
    'alltoall,2,1048576,byte,,100,1,163.11,163.26,163.41,163.26,,,osu74_mpich402_1node_np2_alltoall_full.txt:2' "$f"

# The shipped samples in data/ are what the importer makes now: each records the command
# that made it (run from the top of the source tree), which is run again here. The
# version line is left out of the comparison so that a new version number alone does
# not fail the suite (make update-import-samples refreshes the files).
mkdir -p "$T/replay/tests/data" "$T/replay/data"
ln -s "$R" "$T/replay/tests/data/realdata"
n_samples=0
for s in "$top_srcdir"/data/*.csv; do
    grep -q '^# imported_from:' "$s" || continue
    n_samples=$((n_samples + 1))
    cmd=$(sed -n 's/^# command: commfit //p' "$s")
    b=$(basename "$s")
    (cd "$T/replay" && eval "\"\$COMMFIT\" $cmd") >"$T/out" 2>"$T/err" || true
    grep -v '^# commfit: ' "$s" >"$T/want"
    grep -v '^# commfit: ' "$T/replay/data/$b" >"$T/got" 2>/dev/null || true
    if cmp -s "$T/want" "$T/got"; then
        pass "data/$b is what '$cmd' makes now"
    else
        fail "data/$b is what '$cmd' makes now (make update-import-samples)"
        diff -u "$T/want" "$T/got" | head -20 | sed 's/^/#   /' || true
    fi
done
check "data/ holds imported samples" test "$n_samples" -ge 8

# Golden output: the whole table for a few files, with the command line a fixed text.
cp "$R/osu562_stackhpc_alaska_hdr100ib_ompi4_mbw_mr_8pairs.txt" mbw.txt
run "$COMMFIT" import osu mbw.txt -o mbw.csv
expect_rc 0 "golden mbw_mr"
cp mbw.csv "$T/out"
expect_golden import-mbw-mr "golden mbw_mr table"
# Its MB/s and messages/s say one thing (MB/s = bytes x messages/s / 10^6): a row where they
# part is refused at its line (imported before, its messages/s taken), or its table left
# out with --lenient.
awk '$1 == 64 { $2 = "3261.77" } { print }' mbw.txt >mbw-bad.txt
run "$COMMFIT" import osu mbw-bad.txt -o mbw-bad.csv
expect_rc 1 "mbw_mr: MB/s and messages/s that disagree"
expect_err "commfit: import: mbw-bad.txt:10: Multiple Bandwidth / Message Rate: 64 bytes at 49402627.43 messages/s is 3161.77 MB/s, where the row says 3261.77 MB/s: expected the two to agree" \
    "said at its line, both figures"
check "nothing written" test ! -e mbw-bad.csv
awk '$1 == 64 { $2 = "3192.00" } { print }' mbw.txt >mbw-near.txt
run "$COMMFIT" import osu -q mbw-near.txt -o mbw-near.csv
expect_rc 0 "within 1%: read as printed"
cp "$R/imb_stackhpc_ompi4_ib_pingpong.txt" pp.txt
run "$COMMFIT" import imb pp.txt -o pp.csv
cp pp.csv "$T/out"
expect_golden import-imb-pingpong "golden IMB 2019 PingPong table"
grep -v '^#' pp.csv >pp.rows

# Without -o: data/<first input's name>.csv, and the command says so.
cp "$R/osu532_hpccofc_ib_latency_compute001.txt" lat.out
run "$COMMFIT" import osu lat.out
expect_rc 0 "default output"
expect_err "commfit: import: wrote data/lat.csv: 24 rows in 1 table from 1 file" "default output"
check "default output: data/lat.csv written" test "$(rows data/lat.csv)" = 24

# Several files into one table: each row group names its file and line.
run "$COMMFIT" import osu lat.out "$R/osu74_mpich402_1node_np2_alltoall_full.txt" --np 2 -o two.csv
expect_rc 0 "two files"
check "two files: 45 rows" test "$(rows two.csv)" = 45
check "two files: source_1" grep -q '^# source_1: lat.out (OSU 5.3.2)$' two.csv
check "two files: source_2" grep -q '^# source_2: osu74_mpich402_1node_np2_alltoall_full.txt (OSU 7.4)$' two.csv
check "two files: source column" grep -q ',lat.out:1$' two.csv
run "$COMMFIT" import osu - -o stdin.csv <lat.out
expect_rc 0 "standard input"
check "standard input: source <stdin>" grep -q ',<stdin>:1$' stdin.csv

# Usage errors: exit 2, nothing written.
run "$COMMFIT" import
expect_rc 2 "no format"
expect_err "commfit: import: expected the format of the results: 'imb' or 'osu'
Try 'commfit import --help'." "no format"
run "$COMMFIT" import ibm x.txt
expect_rc 2 "unknown format"
expect_err "commfit: import: unknown format 'ibm': expected 'imb' or 'osu'
Try 'commfit import --help'." "unknown format"
run "$COMMFIT" import imb
expect_rc 2 "no file"
expect_err "commfit: import: no input file: expected imb result files after 'imb'
Try 'commfit import --help'." "no file"
run "$COMMFIT" import osu --np 0 lat.out
expect_rc 2 "--np 0"
grep_err "^commfit: import: --np '0': expected 2 to 16777216$" "--np 0: message"
# One process count per file: the runs of one collective at several np, one file each.
run "$COMMFIT" import osu --np 64,128 "$R/osu562_stackhpc_alaska_hdr100ib_ompi4_alltoall.txt" \
    "$R/osu74_mpich402_1node_np2_alltoall_full.txt" -o multi.csv
expect_rc 0 "--np list: one per file"
check "--np list: np 64 from the first file, 128 from the second" test \
    "$(grep -v '^#' multi.csv | tail -n +2 | cut -d, -f2,14 | sed 's/:[0-9]*$//' | sort -u | tr '\n' ' ')" = \
    "128,osu74_mpich402_1node_np2_alltoall_full.txt 64,osu562_stackhpc_alaska_hdr100ib_ompi4_alltoall.txt "
run "$COMMFIT" import osu --np 64,128,256 lat.out lat.out
expect_rc 2 "--np list of the wrong length"
grep_err "^commfit: import: --np has 3 process counts for 2 files: expected one, or one per FILE$" \
    "--np list of the wrong length: message"
run "$COMMFIT" import osu --np 64,128 lat.out
grep_err "^commfit: import: --np has 2 process counts for 1 file: expected one, or one per FILE$" \
    "--np list for one file: 1 file, not 1 files"
run "$COMMFIT" import osu --np 64, lat.out
expect_rc 2 "--np list with an empty value"
grep_err "^commfit: import: --np '64,': expected N or N,N,\.\.\. \(one per FILE, at most 64\)$" \
    "--np list with an empty value: message"
run "$COMMFIT" import osu --pattern All-To-All lat.out
expect_rc 2 "bad --pattern"
grep_err "^commfit: import: --pattern 'All-To-All': expected 1 to 31 lower-case letters" "bad --pattern: message"
run "$COMMFIT" import osu -
expect_rc 2 "stdin without -o"
run "$COMMFIT" import osu --bogus lat.out
expect_rc 2 "unknown option"
run "$COMMFIT" import imb pp.txt --pattern x -o x.csv
expect_rc 0 "--pattern on one benchmark"
check "--pattern renames" grep -q '^x,2,0,byte,' x.csv
run "$COMMFIT" import imb "$R/imb2021_mpich402_1node_np2_all.txt" --pattern x -o y.csv
expect_rc 2 "--pattern over several benchmarks"
grep_err "^commfit: import: .*imb2021_mpich402_1node_np2_all.txt:79: --pattern 'x' would give one name to different benchmarks: 'PingPong' \(.*:49\) and 'PingPing'; import them separately$" \
    "--pattern over several benchmarks: message"
check "--pattern over several benchmarks: no output" test ! -e y.csv

# Data errors: exit 1, file:line, no output left behind.
cp "$R/osu562_stackhpc_alaska_hdr100ib_ompi4_alltoall.txt" a2a.txt
run "$COMMFIT" import osu a2a.txt -o a2a.csv
expect_rc 1 "OSU collective without --np"
expect_err "commfit: import: a2a.txt:2: the OSU All-to-All Personalized Exchange Latency table does not state its process count (OSU prints none for collectives): give it with --np N" \
    "OSU collective without --np"
check "OSU collective without --np: no output" test ! -e a2a.csv
run "$COMMFIT" import imb lat.out -o z.csv
expect_rc 1 "OSU file as IMB"
expect_err "commfit: import: lat.out:1: this is OSU Micro-Benchmarks output: import it with 'commfit import osu'" \
    "OSU file as IMB"
run "$COMMFIT" import osu pp.txt -o z.csv
expect_rc 1 "IMB file as OSU"
expect_err "commfit: import: pp.txt:3: this is Intel MPI Benchmarks output: import it with 'commfit import imb'" \
    "IMB file as OSU"
printf 'hello\n' >neither.txt
run "$COMMFIT" import imb neither.txt -o z.csv
expect_rc 1 "neither"
expect_err "commfit: import: neither.txt:1: not IMB output: no '# Benchmarking NAME' table in 1 line" "neither"
run "$COMMFIT" import imb missing.txt -o z.csv
expect_rc 1 "missing file"
expect_err "commfit: import: missing.txt: cannot open: No such file or directory" "missing file"
check "data errors: no output left behind" test ! -e z.csv

# Malformed variants of a real file: cut, garbage inside a table, a wrong column count.
head -n 100 "$R/imb2021_mpich402_1node_np2_all.txt" >cut.txt
run "$COMMFIT" import imb cut.txt -o cut.csv
expect_rc 1 "cut IMB file"
expect_err "commfit: import: cut.txt:100: the file ends inside the PingPing table, at #bytes 65536 before the maximum 4194304 the header states: it is cut off" \
    "cut IMB file"
run "$COMMFIT" import imb cut.txt -o cut.csv --lenient
expect_rc 0 "cut IMB file --lenient"
grep_err "^commfit: import: warning: cut.txt:100: the file ends inside the PingPing table, .*; the PingPing table \(line 79\) is left out$" \
    "cut IMB file --lenient: warning"
check "cut IMB file --lenient: the complete PingPong table kept" test "$(rows cut.csv)" = 24
head -c 2000 "$R/imb_stackhpc_ompi4_ib_pingpong.txt" >cut2.txt
run "$COMMFIT" import imb cut2.txt -o cut2.csv
expect_rc 1 "IMB file cut inside a row"
grep_err "^commfit: import: cut2.txt:[0-9]+: the file ends inside a row \(no end of line\): the PingPong table is cut off$" \
    "IMB file cut inside a row: message"
sed '60a\
mpirun: Forwarding signal 18 to job' "$R/imb2021_mpich402_1node_np2_all.txt" >garbage.txt
run "$COMMFIT" import imb garbage.txt -o g.csv
expect_rc 1 "garbage inside an IMB table"
expect_err "commfit: import: garbage.txt:61: expected a row of 4 numbers (#bytes #repetitions t[usec] Mbytes/sec) or a blank line ending the PingPong table, got 6 fields: 'mpirun: Forwarding signal 18 to job'" \
    "garbage inside an IMB table"
# A row with an extra column: quoted whole, its leading blanks left out (IMB right-aligns
# its columns: the quote was cut at 60 characters, before the extra field).
awk 'NR == 60 { $0 = $0 "   7.77" } { print }' "$R/imb2021_mpich402_1node_np2_all.txt" >extra.txt
run "$COMMFIT" import imb extra.txt -o x.csv
expect_rc 1 "an extra column in an IMB row"
grep_err "^commfit: import: extra.txt:60: expected a row of 4 numbers .*, got 5 fields: '[0-9][0-9.]* +[0-9]+ +[0-9.]+ +[0-9.]+   7\.77'$" \
    "an extra column in an IMB row: the whole row quoted"
run "$COMMFIT" import imb garbage.txt -o g.csv --lenient
expect_rc 0 "garbage inside an IMB table --lenient"
check "garbage --lenient: 18 tables kept" test "$(rows g.csv)" = 399
sed '10s/$/   9.99/' "$R/osu532_hpccofc_ib_latency_compute001.txt" >cols.txt
run "$COMMFIT" import osu cols.txt -o c.csv
expect_rc 1 "wrong column count in an OSU table"
expect_err "commfit: import: cols.txt:10: expected 2 columns (Size          Latency (us)) in a row of the OSU Latency table, got 3: '64                      1.23   9.99'" \
    "wrong column count in an OSU table"
sed '10a\
srun: Job step aborted' "$R/osu532_hpccofc_ib_latency_compute001.txt" >og.txt
run "$COMMFIT" import osu og.txt -o og.csv
expect_rc 1 "garbage inside an OSU table"
expect_err "commfit: import: og.txt:11: 'srun: Job step aborted' interrupts the OSU Latency table (its rows go on at line 12)" \
    "garbage inside an OSU table"
# A '#' line of someone's inside the rows (a job script's comment) interrupts them as well:
# the rows after it were dropped without a word (exit 0). A title a user wrote words after
# is no title, and is one too; the next table's own title still ends a table.
sed '10a\
# a comment' "$R/osu532_hpccofc_ib_latency_compute001.txt" >oc.txt
run "$COMMFIT" import osu oc.txt -o oc.csv
expect_rc 1 "a comment inside an OSU table"
expect_err "commfit: import: oc.txt:11: '# a comment' interrupts the OSU Latency table (its rows go on at line 12)" \
    "a comment inside an OSU table"
printf '# OSU MPI Latency Test v5.9\n# Size  Latency (us)\n1 1.55\n8 1.58\n# OSU MPI Allreduce Latency Test v7.4 (np=8 run follows)\n# Size  Avg Latency(us)\n4 9.1\n8 9.3\n' >ot.txt
run "$COMMFIT" import osu ot.txt --np 2 -o ot.csv
expect_rc 1 "a title with words after it inside an OSU table"
grep_err "^commfit: import: ot.txt:5: '# OSU MPI Allreduce Latency Test v7.4 \\(np=8 run follows\\)' interrupts the OSU Latency table" \
    "a title with words after it: named, its rows not dropped"
printf '# OSU MPI Latency Test v5.9\n# Size  Latency (us)\n1 1.55\n8 1.58\n# done\n# OSU MPI Bandwidth Test v5.9\n# Size  Bandwidth (MB/s)\n1 1.0\n2 2.0\n' >two.txt
run "$COMMFIT" import osu two.txt -o two.csv
expect_rc 0 "a comment between two OSU tables"
check "a comment between two OSU tables: both kept" test "$(rows two.csv)" = 4
# OSU 7 over several datatypes (-T mpi_char,mpi_int): one title, then per datatype its
# "# Datatype:" line, a column header and rows: a table each (the second was dropped before
# cce51c1, then refused as an interruption), and no warning of runs at several counts.
osu7="$R/osu74_mpich402_1node_np2_alltoall_full.txt"
{ cat "$osu7"; sed -n '3,$p' "$osu7" | sed s/MPI_CHAR/MPI_INT/; } >dt.txt
run "$COMMFIT" import osu --np 2 dt.txt -o dt.csv
expect_rc 0 "OSU 7 over two datatypes"
check "OSU 7 over two datatypes: both tables, 21 rows each" \
    test "$(awk -F, '!/^#/ && $1 == "alltoall" { n[$4]++ } END { print n["byte"] "," n["int"] }' dt.csv)" = "21,21"
check "OSU 7 over two datatypes: no word of runs at several counts" sh -c "! grep -q 'several counts' '$T/err'"
# The same block again without a datatype line (a column header repeated): a rerun of the
# same table, which --np gives one count: said so.
{ cat "$osu7"; sed -n '4,$p' "$osu7"; } >rh.txt
run "$COMMFIT" import osu --np 2 rh.txt -o rh.csv
expect_rc 0 "a column header repeated inside an OSU table"
grep_err "2 alltoall tables in this file all take --np 2" "a column header repeated: a rerun, said so"
# IMB: a '#' line inside the rows stops the table before the header's maximum: said so.
awk '/#bytes/ { h = 1 } h && $1 == "1024" && !d { print "# checkpoint"; d = 1 } { print }' \
    "$R/imb2021_mpich402_1node_np2_all.txt" >ic.txt
run "$COMMFIT" import imb ic.txt -o ic.csv
expect_rc 1 "a comment inside an IMB table"
grep_err "^commfit: import: ic.txt:[0-9]+: the PingPong table stops at #bytes 512, before the maximum 4194304 the header states: it is cut off, or '# checkpoint' interrupts its rows\$" \
    "a comment inside an IMB table: named as what may interrupt it"

# --lenient: files that are not of the format are left out with a warning.
run "$COMMFIT" import osu neither.txt lat.out --lenient -o l.csv
expect_rc 0 "--lenient with a file that is neither"
expect_err "commfit: import: warning: neither.txt:1: not OSU output: no '# OSU MPI ... Test' title in 1 line; the file is left out
commfit: import: wrote l.csv: 24 rows in 1 table from 2 files" "--lenient with a file that is neither"
run "$COMMFIT" import osu neither.txt --lenient -o l2.csv
expect_rc 1 "--lenient with nothing to import"
check "--lenient with nothing to import: no output" test ! -e l2.csv

# CRLF line endings import like LF.
sed 's/$/\r/' "$R/imb_stackhpc_ompi4_ib_pingpong.txt" >crlf.txt
run "$COMMFIT" import imb crlf.txt -o crlf.csv
expect_rc 0 "CRLF"
grep -v '^#' crlf.csv | sed 's/crlf\.txt:/pp.txt:/' >crlf.rows
check "CRLF: same rows as LF" cmp -s crlf.rows pp.rows

# Rows left out with a warning: each warning names the first such row's line (they named
# the table's title line).
awk 'NR == 18 { $2 = "0" } NR == 20 { $2 = "0.00" } { print }' "$R/osu532_hpccofc_ib_latency_compute001.txt" >zero.txt
run "$COMMFIT" import osu zero.txt -o zero.csv
expect_rc 0 "OSU rows whose time prints as zero"
grep_err "^commfit: import: warning: zero.txt:18: Latency: 2 rows left out, from this line: the time prints as zero \(below the printed resolution\)$" \
    "zero times: the warning names the first row's line"
check "zero times: 22 rows kept" test "$(rows zero.csv)" = 22
run "$COMMFIT" import imb "$R/imb41_gbrandino_juno_arm_internode_eth.txt" -o arm.csv
expect_rc 0 "IMB on ARM (Reduce_scatter's odd vector)"
grep_err "^commfit: import: warning: .*imb41_gbrandino_juno_arm_internode_eth.txt:237: Reduce_scatter: 1 row left out: the source's size is the whole vector" \
    "Reduce_scatter: the warning names the row's line"

# imb_banner PART: the head of an IMB output of that part (2021.11), up to 4 MiB.
imb_banner() {
    printf '#----------------------------------------------------------------\n'
    printf '#    Intel(R) MPI Benchmarks 2021.11, %s part\n' "$1"
    printf '#----------------------------------------------------------------\n'
    printf '# Date                  : Sun Nov 22 03:43:28 2026\n# MPI Version           : 4.0\n'
    printf '# Maximum message length in bytes:   4194304\n#\n\n'
}
# IMB-P2P's PingPong runs np/2 pairs at once and adds their bandwidth up: not commfit's
# pingpong (it was read as one at np=4, its bandwidth twice its time's).
{
    imb_banner IMB-P2P
    printf '#----\n# Benchmarking PingPong\n# #processes = 4\n#----\n'
    printf '       #bytes #repetitions      t[usec]   Mbytes/sec      Msg/sec\n'
    printf '            0         1000         0.36         0.00      5291005\n'
    printf '         1024         1000         0.68      2851.57      2784740\n'
} >p2p.txt
run "$COMMFIT" import imb p2p.txt -o p2p.csv
expect_rc 1 "IMB-P2P output"
expect_err "commfit: import: p2p.txt:2: IMB-P2P output: its benchmarks run np/2 pairs at once, each rank's time averaged and the bandwidth added up over them, which no commfit pattern measures; import IMB-MPI1's PingPong (or OSU's osu_mbw_mr for pairs at once)" \
    "IMB-P2P output: refused, and why"
check "IMB-P2P output: nothing written" test ! -e p2p.csv
# IMB-EXT times a one-sided benchmark in two modes: two patterns (one fit of both was poor).
{
    imb_banner MPI-2
    for mode in AGGREGATE NON-AGGREGATE; do
        printf '#----\n# Benchmarking Unidir_Put\n# #processes = 2\n#----\n#\n#    MODE: %s\n#\n' $mode
        printf '       #bytes #repetitions      t[usec]   Mbytes/sec\n'
        awk -v f=$([ $mode = AGGREGATE ] && echo 1 || echo 5) 'BEGIN {
            for (k = 0; k <= 22; k++) { m = k ? 2 ^ k : 0; t = f * (0.3 + m / 20000)
                printf "%13d %12d %12.2f %12.2f\n", m, 1000, t, m / t } }'
        printf '\n'
    done
} >ext.txt
run "$COMMFIT" import imb ext.txt -o ext.csv
expect_rc 0 "IMB-EXT's two modes"
check "IMB-EXT's two modes: two patterns of 23 rows" \
    sh -c "test \"\$(grep -c '^unidir_put_aggregate,2,' ext.csv)\" -eq 23 && test \"\$(grep -c '^unidir_put_nonaggregate,2,' ext.csv)\" -eq 23"
# IMB's Mbytes/sec is of t_max: with t_max 4.5% above t_avg (np 4's imbalance), 10^6 B/s
# was read as 2^20 (the ratio to bytes / t_avg mimics 1.048576): 4.9% off.
{
    imb_banner MPI-1
    printf '#----\n# Benchmarking Sendrecv\n# #processes = 4\n#----\n'
    printf '       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec\n'
    awk 'BEGIN { for (k = 0; k <= 22; k++) { m = k ? 2 ^ k : 0; a = 0.4 + m / 8000; x = 1.045 * a
        printf "%13d %12d %12.2f %12.2f %12.2f %12.2f\n", m, 1000, 0.97 * a, x, a, 2 * m / x } }'
} >imbalance.txt
run "$COMMFIT" import imb imbalance.txt -o imbalance.csv
expect_rc 0 "Sendrecv with t_max 4.5% above t_avg"
check "Sendrecv with t_max above t_avg: Mbytes/sec read as 10^6 B/s" \
    sh -c "grep -q 'Mbytes/sec read as 10^6 bytes/s' imbalance.csv &&
           awk -F, '\$1 == \"sendrecv\" && \$3 == 4194304 { x = 1.045 * (0.4 + \$3 / 8000); b = 2 * \$3 / x / 1.048576; d = \$13 / b - 1; exit !(d < 1e-3 && d > -1e-3) }' imbalance.csv"

# OSU's MPI-CUDA tests say where the buffers lie: a device's latencies are a pattern of their
# own (they were pooled with the host's into one pingpong fit, leave-one-out 110%).
{
    for where in "DEVICE (D) and Receive Buffer on DEVICE (D)" "HOST (H) and Receive Buffer on HOST (H)"; do
        printf '# OSU MPI-CUDA Latency Test v7.1\n# Send Buffer on %s\n# Size          Latency (us)\n' "$where"
        awk -v f=$(case $where in DEVICE*) echo 4 ;; *) echo 1 ;; esac) 'BEGIN {
            for (k = 0; k <= 10; k++) printf "%-16d %.2f\n", k ? 2 ^ (k - 1) : 0, f * (1 + k / 10) }'
        printf '\n'
    done
} >cuda.txt
run "$COMMFIT" import osu cuda.txt -o cuda.csv
expect_rc 0 "OSU MPI-CUDA, device and host buffers"
check "OSU MPI-CUDA: the device's rows are pingpong_dd, the host's pingpong" \
    sh -c "test \"\$(grep -c '^pingpong_dd,2,' cuda.csv)\" -eq 11 && test \"\$(grep -c '^pingpong,2,' cuda.csv)\" -eq 11"

# A row OSU's validation marks Fail delivered wrong data: left out with a warning at its line.
{
    printf '# OSU MPI Latency Test v7.1\n# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)        Validation\n'
    printf '%-12d %-22.2f %s\n' 1 1.10 Pass 2 1.11 Pass 4 1.12 Fail 8 1.13 Pass
} >fail.txt
run "$COMMFIT" import osu fail.txt -o fail.csv
expect_rc 0 "an OSU row whose validation failed"
grep_err "^commfit: import: warning: fail.txt:6: Latency: 1 row left out: OSU's validation says Fail" \
    "an OSU row whose validation failed: said at its line"
check "an OSU row whose validation failed: left out" \
    sh -c "test \"\$(grep -c '^pingpong,2,' fail.csv)\" -eq 3 && ! grep -q '^pingpong,2,4,' fail.csv"

# A run killed and rerun into one log: the cut table stops before the banner's maximum at a
# blank line; it was kept whole and pooled with the full run's.
{
    imb_banner MPI-1
    printf '#----\n# Benchmarking PingPong\n# #processes = 2\n#----\n'
    printf '       #bytes #repetitions      t[usec]   Mbytes/sec\n'
    awk 'BEGIN { for (k = 0; k <= 8; k++) { m = k ? 2 ^ (k - 1) : 0; printf "%13d %12d %12.2f %12.2f\n", m, 1000, 1 + m / 5000, m / (1 + m / 5000) } }'
    printf '\n'
    imb_banner MPI-1
    printf '#----\n# Benchmarking PingPong\n# #processes = 2\n#----\n'
    printf '       #bytes #repetitions      t[usec]   Mbytes/sec\n'
    awk 'BEGIN { for (k = 0; k <= 23; k++) { m = k ? 2 ^ (k - 1) : 0; printf "%13d %12d %12.2f %12.2f\n", m, 1000, 1 + m / 5000, m / (1 + m / 5000) } }'
} >rerun.txt
run "$COMMFIT" import imb rerun.txt -o rerun.csv
expect_rc 1 "an IMB table cut short, then its rerun"
grep_err "^commfit: import: rerun.txt:23: the PingPong table stops at #bytes 128, before the maximum 4194304 the header states: it is cut off$" \
    "an IMB table cut short at a blank line: said"
run "$COMMFIT" import imb --lenient rerun.txt -o rerun.csv
expect_rc 0 "--lenient: the rerun alone"
check "--lenient: the rerun's 24 rows alone" test "$(grep -c '^pingpong,2,' rerun.csv)" -eq 24

# IMB gives up on a size (its -time limit, or memory): the rows before are kept with a
# warning (the table was refused whole, and --lenient dropped its good rows).
{
    imb_banner MPI-1
    printf '#----\n# Benchmarking Allreduce\n# #processes = 2\n#----\n'
    printf '       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n'
    awk 'BEGIN { for (k = 0; k <= 22; k++) { m = k ? 2 ^ (k - 1) : 0; t = 1 + m / 3000; printf "%13d %12d %12.2f %12.2f %12.2f\n", m, 1000, t, t, t } }'
    printf '      4194304 time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is over; use "-time X" or SECS_PER_SAMPLE=X (IMB_settings.h) to increase time limit.\n\n'
} >timeout.txt
run "$COMMFIT" import imb timeout.txt -o timeout.csv
expect_rc 0 "an IMB table it gave up on at its -time limit"
grep_err "^commfit: import: warning: timeout.txt:37: Allreduce: IMB gave up at #bytes 4194304 \(time-out, IMB's -time limit\): the sizes from there on are not measured$" \
    "an IMB time-out: said at its line"
check "an IMB time-out: the 23 sizes before kept" test "$(grep -c '^allreduce,2,' timeout.csv)" -eq 23

# IMB -map PxQ states its process count with the rank order after it; -multi 1 prints a row
# per group, which commfit does not read (both were refused as garbled).
{
    imb_banner MPI-1
    printf '#----\n# Benchmarking Allreduce\n# #processes = 4; rank order (rowwise):\n#     0    1\n#\n#     2    3\n#\n#----\n'
    printf '       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n'
    awk 'BEGIN { for (k = 0; k <= 23; k++) { m = k ? 2 ^ (k - 1) : 0; t = 1 + m / 3000; printf "%13d %12d %12.2f %12.2f %12.2f\n", m, 1000, t, t, t } }'
} >map.txt
run "$COMMFIT" import imb -q map.txt -o map.csv
expect_rc 0 "IMB -map 2x2"
check "IMB -map 2x2: np 4" test "$(grep -c '^allreduce,4,' map.csv)" -eq 24
{
    imb_banner MPI-1
    printf '#----\n# Benchmarking Multi-PingPong\n# ( 2 groups of 2 processes each running simultaneous )\n# Group  0:     0    1\n#\n# Group  1:     2    3\n#\n#----\n'
    printf '        Group       #bytes #repetitions      t[usec]   Mbytes/sec\n\n'
    printf '            0            0         1000         0.30         0.00\n'
} >multi1.txt
run "$COMMFIT" import imb multi1.txt -o multi1.csv
expect_rc 1 "IMB -multi 1"
grep_err "multi1.txt:17: the Multi-PingPong table has a row per group \('Group' column\): IMB -multi 1's output, which commfit does not read" \
    "IMB -multi 1: said"

# Several tables of one OSU collective in a file all take --np's count (OSU prints none):
# said, as runs at several counts (one log of np 4, 8, 16) were pooled under one np.
{
    for n in 4 8 16; do
        printf '+ mpirun -np %d osu_allreduce\n\n# OSU MPI Allreduce Latency Test v7.4\n# Size       Avg Latency(us)\n' $n
        printf '%-12d %.2f\n' 4 $n.5 8 $n.6 16 $n.7
        printf '\n'
    done
} >ar3.txt
run "$COMMFIT" import osu --np 16 ar3.txt -o ar3.csv
expect_rc 0 "three OSU allreduce tables, one --np"
grep_err "^commfit: import: warning: ar3.txt:3: 3 allreduce tables in this file all take --np 16 \(OSU prints no process count\): runs at several counts need a file each \(--np N1,N2 FILE1 FILE2\)$" \
    "three OSU allreduce tables, one --np: said"

done_testing
