# commfit measure when a rank dies or rank 0 alone is interrupted: every finished row
# stays in the table, which reads back, and --resume completes it without measuring a
# point twice. The ranks are found by the rank the launcher put in their environment.
. "$top_srcdir/tests/setup.sh"
rt="$top_builddir/tests/mpi/read-table"
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

POINTS=16 # 3 patterns x 6 sizes, but allreduce at 1 and 2 B (measured)

# start FILE: a run long enough to interrupt (many calls per sample), in the background.
# FILE is an absolute path, which names this run's processes. Each point at most 2 s: idle,
# one takes some 30 ms; on a loaded machine, where MPICH's busy-polling ranks share the
# cores with others, a budget of 60 s a point let the resume (the same plan) run past the
# launcher's 300 s (CI beside the main job, stop 57).
start() {
    timeout 300 $MPIEXEC -n 2 "$COMMFIT" measure --patterns pingpong,sendrecv,allreduce \
        --sizes 0:16 --reps 10000 --samples 3 --max-time 2 -o "$1" <>"$NO_STDIN" >"$T/out" \
        2>"$T/err" &
    pid=$!
}

# rows FILE: how many data rows FILE has so far.
rows() {
    if [ -f "$1" ]; then
        awk -F, '!/^#/ && $1 != "pattern" { n++ } END { print n + 0 }' "$1"
    else
        echo 0
    fi
}

# rank_pid FILE RANK: the process of that rank in the run writing FILE.
rank_pid() {
    for c in $(grep -lF -- "$1" /proc/[0-9]*/cmdline 2>/dev/null); do
        d=${c%/cmdline}
        if tr '\0' '\n' 2>/dev/null <"$d/environ" |
            grep -qxE "(PMI_RANK|OMPI_COMM_WORLD_RANK|PMIX_RANK)=$2"; then
            echo "${d#/proc/}"
            return 0
        fi
    done
    return 1
}

# running FILE: some process of the run writing FILE is still there.
running() { grep -qlF -- "$1" /proc/[0-9]*/cmdline 2>/dev/null; }

# wait_until CMD...: polls CMD for up to 5 minutes (the machine may be busy).
wait_until() {
    i=0
    until "$@"; do
        i=$((i + 1))
        [ "$i" -lt 3000 ] || return 1
        sleep 0.1
    done
}
has_rows() { [ "$(rows "$1")" -ge "$2" ]; }
gone() { ! running "$1"; }

# pairs FILE: "pattern bytes" of every row, sorted.
pairs() { "$rt" "$1" | grep -v '^meta' | awk '{print $1, $3}' | sort; }
printf '%s\n' pingpong sendrecv allreduce | while read -r p; do
    for s in 0 1 2 4 8 16; do measured $p $s && echo "$p $s"; done
done | sort >"$T/want"

# interrupt NAME RANK SIGNAL: starts a run, sends SIGNAL to RANK once 2 rows are written,
# waits for the launch to end; sets f (the table), rc and cut (rows when it ended).
interrupt() {
    f="$T/$1.csv"
    start "$f"
    rc=0
    # Found at the first row, signalled at the second: in the middle of the run.
    if ! wait_until has_rows "$f" 1; then
        fail "$1: the run writes rows"
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" || true
        return 1
    fi
    if target=$(rank_pid "$f" "$2"); then
        wait_until has_rows "$f" 2 || true
        kill -s "$3" "$target" 2>/dev/null || true
    else
        skip "$1: the launcher tells no rank its number (PMI_RANK, OMPI_COMM_WORLD_RANK)"
    fi
    wait "$pid" || rc=$?
    cut=$(rows "$f")
    if [ "$cut" -ge "$POINTS" ]; then
        skip "$1: the run finished before the signal arrived"
        return 1
    fi
    check "$1: the launch ends with no rank left behind" wait_until gone "$f"
    return 0
}

# after NAME: the table reads back with the rows it had, every line whole, and --resume
# completes it with every point once.
after() {
    run "$rt" "$f"
    expect_rc 0 "$1: the table reads back"
    check "$1: the table has every finished row ($cut), each line complete" \
        test "$(grep -vc '^meta' "$T/out")" -eq "$cut" -a "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n'
    run mpirun 2 "$COMMFIT" measure --resume "$f"
    expect_rc 0 "$1: --resume"
    expect_err "commfit: measure: wrote $f ($POINTS rows)
commfit: measure: draw the report with: commfit report -i $f" "$1: --resume completes the table"
    pairs "$f" >"$T/got"
    check "$1: --resume: every point once" cmp -s "$T/want" "$T/got"
}

# A rank other than 0 killed outright: the launcher ends the run.
if interrupt kill1 1 KILL; then
    check "SIGKILL of rank 1: the launch fails" test "$rc" -ne 0
    after "SIGKILL of rank 1"
fi

# Rank 0, which writes the table, killed outright.
if interrupt kill0 0 KILL; then
    check "SIGKILL of rank 0: the launch fails" test "$rc" -ne 0
    after "SIGKILL of rank 0"
fi

# A plain run (commfit starting its own launcher) whose rank 1 is killed outright: the
# launcher's status (MPICH's 9) came back as commfit's, without a word of commfit's; now
# exit 1, saying so and where the finished rows are.
f="$T/self.csv"
timeout 300 "$COMMFIT" measure --np 2 --patterns pingpong,sendrecv,allreduce --sizes 0:16 \
    --reps 10000 --samples 3 --max-time 60 -o "$f" <>"$NO_STDIN" >"$T/out" 2>"$T/err" &
pid=$!
rc=0
if wait_until has_rows "$f" 1 && target=$(rank_pid "$f" 1); then
    wait_until has_rows "$f" 2 || true
    kill -s KILL "$target" 2>/dev/null || true
    wait "$pid" || rc=$?
    if [ "$(rows "$f")" -ge "$POINTS" ]; then
        skip "self-launch, rank 1 killed: the run finished before the signal arrived"
    else
        check "self-launch, rank 1 killed: exit 1 ($rc)" test "$rc" -eq 1
        grep_err "^commfit: measure: the launcher '.*' exited with status [0-9]+.*; the rows finished before are in $f \(--resume $f goes on\)$" \
            "self-launch, rank 1 killed: said, with the table"
    fi
else
    skip "self-launch, rank 1 killed: no rank found to kill"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" || true
fi

# SIGINT to rank 0 alone: rank 0 tells the others at the next point, and all stop
# cleanly with the message SIGTERM gives (tests/mpi/measure-resume.sh).
if interrupt int0 0 INT; then
    check "SIGINT on rank 0: the ranks exit 1" test "$rc" -eq 1
    expect_err "commfit: measure: allreduce: 1 B, 2 B hold no whole 4-byte float: not measured for them (as IMB's reductions)
commfit: measure: stopped by a signal: $cut rows in $f; continue with 'commfit measure --resume $f'" \
        "SIGINT on rank 0: a clean stop that says how to continue"
    after "SIGINT on rank 0"
fi

done_testing
