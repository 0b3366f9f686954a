# commfit measure refuses bad options before it starts MPI (exit 2, one clear message),
# and a plain run restarts itself under the launcher with the right command.
. "$top_srcdir/tests/setup.sh"

try="Try 'commfit measure --help'."

run "$COMMFIT" measure --patterns pingpong,bogus
expect_rc 2 "unknown pattern"
check "unknown pattern: the message names it" \
    grep -q "^commfit: measure: --patterns: unknown pattern 'bogus': expected all, loggp, ddt or one of pingpong, " "$T/err"
check "unknown pattern: a hint to --help" grep -qx "$try" "$T/err"

run "$COMMFIT" measure --sizes 64K,1K
expect_rc 2 "sizes out of order"
expect_err "commfit: measure: --sizes '64K,1K': sizes out of order: '1K' after '64K' (expected increasing sizes)
$try" "sizes out of order"

run "$COMMFIT" measure --sizes 1X
expect_rc 2 "a bad size"
grep_err "^commfit: measure: --sizes: .*'1X'" "a bad size: quoted"
for v in 0x10 0x1p3; do
    run "$COMMFIT" measure --max-time "$v"
    expect_rc 2 "--max-time $v: decimal only, as the counts and sizes"
    expect_err "commfit: measure: --max-time '$v': expected a number
$try" "--max-time $v: said"
done
# A count's bound that is open is not said as a number (--blocks 2147483648 read "expected
# -9223372036854775808 to 2147483647"); beyond a long, the bounds where both are set.
for v in "--blocks|2147483648|expected at most 2147483647" \
    "--blocks|99999999999999999999|too large a number" \
    "--blocks|-99999999999999999999|too small a number" \
    "--np|99999999999999999999|expected 1 to 16777216" \
    "--np|-99999999999999999999|expected 1 to 16777216"; do
    opt=${v%%|*} rest=${v#*|}
    run "$COMMFIT" measure --patterns ddt "$opt" "${rest%%|*}"
    expect_rc 2 "$opt ${rest%%|*}"
    expect_err "commfit: measure: $opt '${rest%%|*}': ${rest#*|}
$try" "$opt ${rest%%|*}: said"
done
run "$COMMFIT" measure --sizes 1K,,2K
expect_rc 2 "an empty size"
expect_err "commfit: measure: --sizes '1K,,2K': an empty size (two commas together, or one at an end)
$try" "an empty size: said as such, not an empty list"

run "$COMMFIT" measure --np 1
expect_rc 2 "pingpong with np 1"
expect_err "commfit: measure: pattern 'pingpong' needs 2 processes, but --np asks for 1
$try" "pingpong with np 1"

run "$COMMFIT" measure --np 2,3 --patterns pingpong,ddt
expect_rc 2 "an np at which no pattern asked for runs"
expect_err "commfit: measure: --np 3: none of the patterns asked for runs at np=3 (pingpong, pingping, the LogGP experiments and the datatypes run on 2 ranks)
$try" "an np at which no pattern asked for runs"
# (A launcher that starts nothing and exits 0: commfit says no rank ran, exit 1; it
# exited 0 with nothing measured.)
# (--oversubscribe: no warning of 3 ranks on fewer cores before the launch.)
run "$COMMFIT" measure --np 2,3 --patterns pingpong,bcast --launcher true --oversubscribe
expect_rc 1 "np 3 with a collective asked for: the options pass, the launcher runs"
expect_err "commfit: measure: the launcher 'true' exited 0, but no commfit rank ran to its end (no table was begun): does it start the program it is given?" \
    "a launcher that starts nothing: said, exit 1"
# The same where -o names a table that is there already, or an empty file made just before:
# the table untouched, not taken for one a rank on another node wrote (its time compared
# in whole seconds said it was written during the launch: exit 0, nothing measured).
cp "$top_srcdir/data/sim-flat.csv" there.csv
cksum there.csv >sum.before
: >empty.csv
for f in there.csv empty.csv; do
    run "$COMMFIT" measure --np 2 --patterns pingpong --sizes 4 --launcher true -o "$f"
    expect_rc 1 "-o $f, which was there: a launcher that starts nothing"
    expect_err "commfit: measure: the launcher 'true' exited 0, but no commfit rank ran to its end (no table was begun): does it start the program it is given?" \
        "-o $f: said as without it"
done
cksum there.csv >sum.after
check "the table that was there is unchanged" cmp -s sum.before sum.after
check "the empty file stays empty" test ! -s empty.csv

run "$COMMFIT" measure -q --progress
expect_rc 2 "-q with --progress"
expect_err "commfit: measure: -q (no progress) and --progress contradict each other
$try" "-q with --progress"

run "$COMMFIT" measure --np 0
expect_rc 2 "np 0"
expect_err "commfit: measure: --np '0': expected 1 to 16777216
$try" "np 0"

run "$COMMFIT" measure --reps 0
expect_rc 2 "--reps 0"
run "$COMMFIT" measure --samples x
expect_rc 2 "--samples x"
run "$COMMFIT" measure --max-time -1
expect_rc 2 "--max-time -1"
run "$COMMFIT" measure --target-ci 0
expect_rc 2 "--target-ci 0"

run "$COMMFIT" measure --bogus
expect_rc 2 "unknown option"
expect_err "commfit: measure: unknown option '--bogus'
$try" "unknown option"

run "$COMMFIT" measure --sizes
expect_rc 2 "missing value"
expect_err "commfit: measure: option '--sizes' needs a value
$try" "missing value"

run "$COMMFIT" measure extra
expect_rc 2 "stray argument"
expect_err "commfit: measure: unexpected argument 'extra'
$try" "stray argument"

run "$COMMFIT" measure --patterns pingpong --sizes 3000000001
expect_rc 2 "an odd size above 2 GiB - 1"
grep_err "3000000001 bytes cannot be sent by pingpong at np=2" "an odd size above 2 GiB - 1: why"
# A v-collective's displacements span np blocks: an odd size of 1 GiB + 1 is refused at np 2
# for that span, which the message names (it blamed the size as above 2 GiB - 1).
run "$COMMFIT" measure --np 2 --patterns alltoallv --sizes 1073741825
expect_rc 2 "alltoallv: a span of np x an odd size above 2 GiB - 1"
grep_err "1073741825 bytes cannot be sent by alltoallv at np=2: its displacements span np x the size, 2147483650 bytes" \
    "alltoallv: a span of np x an odd size above 2 GiB - 1: why"

run "$COMMFIT" measure --resume "$T/missing.csv"
expect_rc 1 "resume of a missing file"
grep_err "^commfit: measure: .*missing.csv: cannot open: No such file or directory$" \
    "resume of a missing file: message"

# A plan in the table that does not check is the table's error, named, exit 1: it was said
# as a usage error of the command line (exit 2, "--patterns: unknown pattern 'foo'", no
# file), where the command line may give no plan with --resume (bad-input audit).
{ echo "# t_min_max: across ranks, of each rank's mean over the samples (IMB)"
  grep -v -E '^# (simulated|simgrid_version|platform|coll_selector):' "$top_srcdir/data/sim-flat.csv" |
      sed 's/^# plan: .*/# plan: --patterns foo --sizes 4/'; } >badplan.csv
run "$COMMFIT" measure --resume badplan.csv
expect_rc 1 "a plan naming an unknown pattern"
grep_err "^commfit: measure: badplan.csv: metadata 'plan': --patterns: unknown pattern 'foo': expected all, " \
    "a plan naming an unknown pattern: the file and the key"
sed 's/^# plan: .*/# plan: --patterns pingpong --sizes 4,1K,64/' badplan.csv >badplan2.csv
run "$COMMFIT" measure --resume badplan2.csv
expect_rc 1 "a plan with sizes out of order"
expect_err "commfit: measure: badplan2.csv: metadata 'plan': --sizes '4,1K,64': sizes out of order: '64' after '1K' (expected increasing sizes)" \
    "a plan with sizes out of order: the file and the key"

run "$COMMFIT" measure --launcher " "
expect_rc 2 "empty launcher"

run "$COMMFIT" measure --launcher "$T/no-such-launcher" --sizes 0
expect_rc 1 "a launcher that does not exist"
grep_err "cannot start the launcher '$T/no-such-launcher'" "a launcher that does not exist: message"

# A stand-in launcher records how commfit restarts itself, and reports back as rank 0 does
# at its end (cf_launch_report: "end STATUS" into the file commfit names).
cat >"$T/fake-launcher" <<'SH'
#!/bin/sh
printf '%s\n' "$@" >"$FAKE_OUT"
echo "end 0" >>"$COMMFIT_LAUNCH_REPORT"
SH
chmod +x "$T/fake-launcher"
# What a launcher's own status says, commfit says in words, exit 1: a rank killed (MPICH's
# launcher exits 9), a launcher failing (255), one that gives up before any rank ends.
for st in 9 255 1; do
    printf '#!/bin/sh\nexit %s\n' "$st" >"$T/exit-launcher"
    chmod +x "$T/exit-launcher"
    run "$COMMFIT" measure --launcher "$T/exit-launcher" --sizes 0:1K -q
    expect_rc 1 "a launcher exiting $st"
    if [ "$st" -gt 2 ]; then
        grep_err "^commfit: measure: the launcher '.*exit-launcher' exited with status $st, not commfit's \(a rank died, or the launcher failed: its messages above\); no table was begun$" \
            "a launcher exiting $st: said"
    else
        grep_err "^commfit: measure: the launcher '.*exit-launcher' exited with status 1 before a commfit rank reached its end \(their messages above, if any\); no table was begun$" \
            "a launcher exiting 1 before any rank ended: said"
    fi
done
# A table rank 0 began is named, with how to go on.
printf '#!/bin/sh\necho "table data/x.csv" >>"$COMMFIT_LAUNCH_REPORT"\nexit 9\n' >"$T/exit-launcher"
run "$COMMFIT" measure --launcher "$T/exit-launcher" --sizes 0:1K -q
grep_err "; the rows finished before are in data/x.csv \(--resume data/x.csv goes on\)$" \
    "a launch killed after its table was begun: the table named"
# A table whose name the shell would split is quoted in the words to run (a run 1.csv).
printf '#!/bin/sh\necho "table data/run 1.csv" >>"$COMMFIT_LAUNCH_REPORT"\nexit 9\n' >"$T/exit-launcher"
run "$COMMFIT" measure --launcher "$T/exit-launcher" --sizes 0:1K -q
grep_err "; the rows finished before are in data/run 1.csv \(--resume 'data/run 1.csv' goes on\)$" \
    "a table named with a blank: the resume's words quoted"
# A table written to standard output (-o -) is said so (rank 0 reported nothing for it, and
# a stop read "nothing was measured" after 42 rows).
printf '#!/bin/sh\necho "table -" >>"$COMMFIT_LAUNCH_REPORT"\nexit 9\n' >"$T/exit-launcher"
run "$COMMFIT" measure --launcher "$T/exit-launcher" --sizes 0:1K -q -o -
grep_err "; the rows finished before went to standard output$" \
    "a launch killed while writing to standard output: said"
export FAKE_OUT="$T/launched"
cores=$(getconf _NPROCESSORS_ONLN)
n=$cores
[ "$n" -lt 2 ] && n=2
exe=$(cd "$(dirname "$COMMFIT")" && pwd -P)/$(basename "$COMMFIT")

run "$COMMFIT" measure --launcher "$T/fake-launcher -x y" --sizes 0:1K -q
expect_rc 0 "self-launch"
printf '%s\n' -x y -n "$n" "$exe" measure --launcher "$T/fake-launcher -x y" --sizes 0:1K -q \
    >"$T/want"
check "self-launch: launcher words, -n CORES, this program, measure, the arguments" \
    cmp -s "$T/want" "$T/launched"

# Nothing here may tell commfit that the ranks go to other nodes.
unset HYDRA_HOST_FILE I_MPI_HYDRA_HOST_FILE OMPI_MCA_orte_default_hostfile \
    PRTE_MCA_prte_default_hostfile SLURM_JOB_ID SLURM_JOB_NUM_NODES PBS_NODEFILE \
    LSB_DJOB_HOSTFILE PE_HOSTFILE COBALT_NODEFILE
big=$((n + 3))
run "$COMMFIT" measure --launcher "$T/fake-launcher" --np 2,$big
expect_rc 0 "self-launch with --np"
check "self-launch: N raised to the largest --np" test "$(sed -n 2p "$T/launched")" = "$big"
# More ranks than cores, all on this node: warned before the launch (the ranks' own warning
# came only once all of them had started; they leave it out now, measure-selflaunch.sh).
# The build's launcher with a hostfile, as its MPI library spells it (Open MPI's refuses -f).
# by its own name (plain mpiexec may be the other library's)
if [ "${CF_MPI_LIBRARY:-}" = openmpi ]; then flag=--hostfile; else flag=-f; fi
hosts="$(basename "$MPIEXEC") $flag HOSTFILE"
grep_err "^commfit: measure: warning: starting $big ranks on this node, which has $cores cores?: the timings will measure the scheduler too \(oversubscribed\); to spread them over nodes, name the hosts in --launcher \('$hosts'\) or run under your launcher$" \
    "more ranks than cores: warned before the launch"

# Far more ranks than this node can run (--np 100000 started 100000 processes on 2 cores):
# refused before anything starts, with what to do instead.
huge=$((cores * 8 + 1))
for np in $huge 100000; do
    rm -f "$T/launched"
    run "$COMMFIT" measure --launcher "$T/fake-launcher" --np $np --patterns allreduce --sizes 1K
    expect_rc 2 "--np $np on $cores cores: refused"
    expect_err "commfit: measure: $np ranks would all start on this node, which has $cores core$([ "$cores" -gt 1 ] && echo s) (at most 8 a core without --oversubscribe): to measure a cluster, run under your launcher with its hosts ($hosts -n $np commfit measure ..., srun -n $np commfit measure ...) or name them in --launcher ('$hosts'); --oversubscribe starts them here anyway
$try" "--np $np on $cores cores: said"
    check "--np $np on $cores cores: no launch" test ! -e "$T/launched"
done
# The default plan too (at --np 100000 its buffers are refused first: scatter's root needs
# np x 128 KiB).
run "$COMMFIT" measure --launcher "$T/fake-launcher" --np $huge
grep_err "^commfit: measure: $huge ranks would all start on this node" "--np $huge, default plan: refused"
# Asked for, or placed elsewhere, it starts (the stand-in starts nothing).
run "$COMMFIT" measure --launcher "$T/fake-launcher" --np $huge --patterns allreduce --sizes 1K \
    --oversubscribe
expect_rc 0 "--oversubscribe: launched"
check "--oversubscribe: launched with -n $huge" test "$(sed -n 2p "$T/launched")" = "$huge"
check "--oversubscribe: no warning before the launch (the ranks give it)" test ! -s "$T/err"
for how in "-f hosts" "--hostfile=hosts" "-hosts a,b" "-H a,b"; do
    run "$COMMFIT" measure --launcher "$T/fake-launcher $how" --np $huge --patterns allreduce \
        --sizes 1K
    expect_rc 0 "--launcher '... $how': launched"
    check "--launcher '... $how': no warning" test ! -s "$T/err"
done
SLURM_JOB_ID=1 SLURM_JOB_NUM_NODES=4 run "$COMMFIT" measure --launcher "$T/fake-launcher" \
    --np $huge --patterns allreduce --sizes 1K
expect_rc 0 "in a Slurm allocation of 4 nodes: launched"
SLURM_JOB_ID=1 SLURM_JOB_NUM_NODES=1 run "$COMMFIT" measure --launcher "$T/fake-launcher" \
    --np $huge --patterns allreduce --sizes 1K
expect_rc 2 "in a Slurm allocation of this node alone: refused"
run "$COMMFIT" measure --simulate x.xml --oversubscribe
expect_rc 2 "--oversubscribe with --simulate"
expect_err "commfit: measure: --simulate runs under SimGrid's smpirun: --oversubscribe does not apply
$try" "--oversubscribe with --simulate: said"
# Without commfit-smpi, --simulate says why configure did not build it (CF_SMPI_WHY, as
# --version does), before reading the platform; it said 'which is built when configure
# finds SimGrid' where configure had found half of it, or was told --without-simgrid.
# Where it was built, one that is not where it is looked for is named (tests/smpi).
if [ "${HAVE_SMPI:-no}" != yes ]; then
    why=$(sed -n 's/^#define CF_SMPI_WHY "\(.*\)"$/\1/p' "$top_builddir/config.h")
    check "configure's reason in config.h" test -n "$why"
    run "$COMMFIT" measure --simulate nonexistent.xml --np 2
    expect_rc 1 "--simulate without commfit-smpi"
    expect_err "commfit: measure: --simulate needs commfit-smpi, which was not built ($why); configure and make again to build it, or set COMMFIT_SMPI to one" \
        "--simulate without commfit-smpi: configure's reason"
else
    skip "--simulate without commfit-smpi (this build has it)"
fi

rm -f "$T/launched"
run "$COMMFIT" measure --launcher "$T/fake-launcher" --sizes 64K,1K
check "bad options: no launch at all" test ! -e "$T/launched"

# The launcher's standard input is a pipe that gives nothing and does not end while it
# runs, whatever the caller's is (here /dev/null): MPICH's launcher forwards its input to
# rank 0, and forwarding the end of /dev/null to a rank that has exited can fail (SIGPIPE,
# exit 141, or exit 255).
cat >"$T/stdin-launcher" <<'SH'
#!/bin/sh
if [ -p /dev/stdin ]; then echo pipe; else echo not-a-pipe; fi >"$FAKE_OUT"
timeout 1 cat >>"$FAKE_OUT"
echo "cat $?" >>"$FAKE_OUT"
echo "end 0" >>"$COMMFIT_LAUNCH_REPORT"
SH
chmod +x "$T/stdin-launcher"
run "$COMMFIT" measure --launcher "$T/stdin-launcher" --sizes 1K -q </dev/null
expect_rc 0 "self-launch from /dev/null"
check "the launcher reads a pipe, not the caller's /dev/null" test "$(sed -n 1p "$T/launched")" = pipe
check "which gives no data and no end of input (cat stopped by timeout: 124)" \
    test "$(sed -n 2p "$T/launched")" = "cat 124"

# The launcher's environment makes commfit measure directly, so this launcher mark with
# a bad option is refused without a second launch.
run env COMMFIT_LAUNCHED=1 "$COMMFIT" measure --patterns bogus
expect_rc 2 "under a launcher: bad options still exit 2"

# -o that can never name a table, refused before any launch (exit 2): empty (it started
# MPI, then 'cannot create', exit 1), a folder (newdir/ was made, then refused).
run "$COMMFIT" measure -o '' --sizes 0
expect_rc 2 "-o ''"
grep_err "^commfit: measure: option '--output' has an empty value: expected a file name$" "-o '': said"
run "$COMMFIT" measure -o "$T/newdir/" --sizes 0
expect_rc 2 "-o a folder to make"
grep_err "^commfit: measure: -o '.*newdir/' names a folder: name the table's file" "-o a folder to make: said"
check "-o a folder to make: nothing made" test ! -e "$T/newdir"
run "$COMMFIT" measure -o "$T" --sizes 0
expect_rc 2 "-o an existing folder"

done_testing
