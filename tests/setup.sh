# Sourced by every shell test: strict mode, C locale, a temporary folder removed on
# exit, and small TAP helpers. Tests compare real stdout and stderr with expected text.
set -eu
LC_ALL=C
export LC_ALL
: "${COMMFIT:?run the tests through make check}"
: "${top_srcdir:?run the tests through make check}"
: "${top_builddir:?run the tests through make check}"
MPIEXEC=${MPIEXEC:-mpiexec}
GOLDEN="$top_srcdir/tests/cli/golden"
# commfit's version alone, without the revision that follows it ("commfit 0.1.0 (revision X)").
VERSION=$("$COMMFIT" --version | sed -n '1s/^commfit \([^ ]*\).*/\1/p')

# The timing table's header line (schema 1), for tests that write a table by hand.
HDR=pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,t_med_us,t_ci95_us,bw_MiBps

T=$(mktemp -d "${TMPDIR:-/tmp}/commfit-test.XXXXXX")
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
cd "$T"
# A launcher's standard input that gives nothing and never ends, opened with <> (see
# mpirun below).
NO_STDIN="$T/.no-stdin"
mkfifo "$NO_STDIN"

# In the sanitizer build (CI's make distcheck) LeakSanitizer checks each commfit a test
# starts as it exits: 45 ms a process here (commfit --version 70 ms with it, 26 without), and
# a suite starts some 2800. The tests of predict's reading rules (tests/cli/predict-*.sh) and
# of the shipped models (fit-shipped.sh) start the same commands over and over along the
# paths predict.sh, report.sh and the error-path tests take with it on: it is off there.
# (valgrind.sh checks fit, predict and import for leaks in the gcc build.)
case $0 in
*/tests/cli/predict-*.sh | */tests/cli/fit-shipped.sh)
    ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    export ASAN_OPTIONS
    ;;
esac

# The tests in tests/mpi/ launch MPI ranks, and run one at a time (on this machine and any
# other commfit test run on it): MPICH busy-polls, so two launches of 2 ranks on 2 cores
# take turns on them, each message waits for the scheduler, and a run of a second takes a
# minute (make check -j2: measure-resume.sh 70 s and measure-selflaunch.sh 63 s side by
# side, 2.1 and 0.4 s alone). A test elsewhere keeps the other core busy. Without flock(1),
# or where the lock cannot be opened, they run as make schedules them. Built with Open MPI
# they run as make schedules them too, and do not take the lock: its ranks yield while they
# wait and are bound to no core (the tests' settings, mk/measure.am), and its launches spend
# their time starting up, so two side by side share the cores (CI's Open MPI stage, make
# check -j2 of its 16 MPI tests on 2 cores: 111 s held one at a time, 77 to 80 s side by
# side, one launch each way). An MPICH build's tests run at the same time on the same
# machine would share the cores with them.
case $0 in
*/tests/mpi/*)
    if [ "${CF_MPI_LIBRARY:-}" != openmpi ] && command -v flock >/dev/null 2>&1 &&
        { exec 8>>"${TMPDIR:-/tmp}/commfit-mpi-tests.lock"; } 2>/dev/null; then
        flock 8
    fi
    ;;
esac

tap_n=0
tap_failed=0

pass() {
    tap_n=$((tap_n + 1))
    echo "ok $tap_n - $*"
}

fail() {
    tap_n=$((tap_n + 1))
    tap_failed=$((tap_failed + 1))
    echo "not ok $tap_n - $*"
}

skip() {
    tap_n=$((tap_n + 1))
    echo "ok $tap_n # SKIP $*"
}

# known WHY DESC CMD...: a known defect, kept visible: TAP's TODO (automake counts a miss as
# XFAIL, and a pass as XPASS, which fails the suite: then the defect is gone, drop the TODO).
known() {
    why=$1 desc=$2
    shift 2
    tap_n=$((tap_n + 1))
    if "$@"; then echo "ok $tap_n - $desc # TODO $why"; else echo "not ok $tap_n - $desc # TODO $why"; fi
}

# answer_within R NP BYTES TRUTH: predict -f csv's answer in $T/out at NP and BYTES (one row)
# within a factor R of TRUTH.
answer_within() {
    awk -F, -v r="$1" -v np="$2" -v b="$3" -v t="$4" '
        NR > 1 && $2 == np && $3 == b { n++; q = $5 / t; bad += q > r || q < 1 / r }
        END { exit n != 1 || bad }' "$T/out"
}

# run CMD...: runs it with stdout in $T/out, stderr in $T/err, status in $rc.
run() {
    rc=0
    "$@" >"$T/out" 2>"$T/err" || rc=$?
}

# check DESC CMD...: passes when CMD succeeds.
check() {
    desc=$1
    shift
    if "$@"; then pass "$desc"; else fail "$desc"; fi
}

expect_rc() {
    if [ "$rc" -eq "$1" ]; then
        pass "$2: exits $1"
    else
        fail "$2: exits $1"
        echo "#   exited $rc; stderr:"
        sed 's/^/#   /' "$T/err"
    fi
}

# expect_text FILE TEXT DESC: FILE holds exactly TEXT (plus a final newline).
expect_text() {
    printf '%s\n' "$2" >"$T/expected"
    if cmp -s "$T/expected" "$1"; then
        pass "$3"
    else
        fail "$3"
        diff -u "$T/expected" "$1" | sed 's/^/#   /' || true
    fi
}

expect_out() { expect_text "$T/out" "$1" "$2: stdout"; }
expect_err() { expect_text "$T/err" "$1" "$2: stderr"; }

# expect_golden NAME DESC: stdout matches golden/NAME.out and, when it exists,
# stderr matches golden/NAME.err. @VERSION@ in a golden file stands for the version.
expect_golden() {
    if [ ! -f "$GOLDEN/$1.out" ] && [ ! -f "$GOLDEN/$1.err" ]; then
        fail "$2: golden/$1.out or golden/$1.err exists"
        return
    fi
    for s in out err; do
        g="$GOLDEN/$1.$s"
        [ -f "$g" ] || continue
        sed "s|@VERSION@|$VERSION|g" "$g" >"$T/expected"
        if cmp -s "$T/expected" "$T/$s"; then
            pass "$2: $s matches golden/$1.$s"
        else
            fail "$2: $s matches golden/$1.$s"
            diff -u "$T/expected" "$T/$s" | sed 's/^/#   /' || true
        fi
    done
}

# grep_err REGEX DESC
grep_err() {
    if grep -Eq -- "$1" "$T/err"; then
        pass "$2"
    else
        fail "$2"
        echo "#   stderr does not match /$1/:"
        sed 's/^/#   /' "$T/err"
    fi
}

# inside TRUTHS CSV: each time in TRUTHS (one a line) inside the interval of the answer on
# the same line of CSV (predict -f csv, after its header: lo_us $6, hi_us $7, inf where
# open), as many answers as times, one at least.
inside() {
    awk -F, 'NR == FNR { t[FNR] = $1; m = FNR; next }
             FNR > 1 { n++; if (!($6 <= t[FNR - 1] && ($7 == "inf" || t[FNR - 1] <= $7))) bad = 1 }
             END { exit !n || n != m || bad }' "$1" "$2"
}

# sim TABLE PATTERN MODEL: a simulated table's points of PATTERN into pts, its simulated times
# (t_med_us) into truths, and predict's answers there from MODEL into $T/out.
sim() {
    awk -F, -v p="$2" '!/^#/ && $1 == p { print $2, $3 }' "$1" >pts
    awk -F, -v p="$2" '!/^#/ && $1 == p { print $11 }' "$1" >truths
    run "$COMMFIT" predict -m "$3" -p "$2" --points pts -f csv
}

done_testing() {
    echo "1..$tap_n"
    [ "$tap_failed" -eq 0 ]
}

# mpirun N CMD...: CMD under $MPIEXEC -n N, bounded in time. Leak checking is off in MPI
# processes (see tests/mpi/smoke.sh); every other sanitizer check stays on.
mpirun() {
    mpirun_np=$1 # not n: shell functions share the caller's variables
    shift
    # No test feeds a rank its standard input. MPICH's launcher forwards the caller's to
    # rank 0: from /dev/null it forwards the end of input at once, and where rank 0 has
    # already exited (a refused option) that write can fail: mpiexec dies of SIGPIPE (141)
    # or exits 255 with its own messages instead of the rank's code (CI: measure-resume,
    # measure-ddt; on a loaded machine 6 of 180 such launches, and 262 of 300 with input
    # to forward). A FIFO opened for reading and writing never gives data nor an end:
    # nothing is forwarded (0 of 180 and 0 of 300), as commfit measure does for its own
    # launcher (src/measure/launch.c).
    ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" timeout 300 $MPIEXEC -n "$mpirun_np" "$@" <>"$NO_STDIN"
}

# fit_in_place MODEL FIT OUT: MODEL with FIT (a fit's JSON, a trailing comma allowed) first
# in its fits, in place of the one of its pattern, np and datatype (a model file holds one
# of each), into OUT.
fit_in_place() {
    python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
c = json.loads(sys.argv[2].rstrip().rstrip(','))
key = lambda f: (f['pattern'], f['np'], f['datatype'])
m['fits'] = [c] + [f for f in m['fits'] if key(f) != key(c)]
json.dump(m, open(sys.argv[3], 'w'), indent=2)
EOF
}

# measured PATTERN SIZE: whether commfit measure measures PATTERN at SIZE bytes: a
# reduction counts 4-byte floats, and a size that holds no whole number of them (1, 2, 3 B)
# is not measured for it.
measured() { case $1 in reduce | allreduce | reduce_scatter) [ $(($2 % 4)) -eq 0 ] ;; *) true ;; esac; }
