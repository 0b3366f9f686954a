# commfit measure when an MPI call returns an error (measure sets MPI_ERRORS_RETURN): the
# message has MPI_Error_string's text and the pattern, np and size of the point, the run
# exits 1, and the rows measured before stay. The error comes from fault-pmpi.so, a PMPI
# interposer built for the tests only, preloaded into the ranks.
. "$top_srcdir/tests/setup.sh"
rt="$top_builddir/tests/mpi/read-table"
so="$top_builddir/tests/mpi/fault-pmpi.so"

# AddressSanitizer must come first among the preloaded libraries, where it is one (gcc's);
# clang links it into the program (asan: set either way).
preload=$so
asan=$(ldd "$COMMFIT" 2>/dev/null | awk '/libasan/ { print $3; exit }')
if [ -n "$asan" ]; then
    preload="$asan $so"
elif grep -q __asan_init "$COMMFIT"; then
    asan=linked
fi

# pairs FILE: "pattern bytes" of every row, sorted.
pairs() { "$rt" "$1" | grep -v '^meta' | awk '{print $1, $3}' | sort; }

# failing DESC RANK CALL AT PATTERN-REGEX ARGS...: a run whose AT-th CALL fails on RANK
# (all: on every rank); sets bytes, the size of the point the message names.
failing() {
    desc=$1
    on=$2
    call=$3
    at=$4
    what=$5
    shift 5
    [ "$on" = all ] && on=-1
    run mpirun 2 env LD_PRELOAD="$preload" COMMFIT_TEST_FAIL_CALL="$call" \
        COMMFIT_TEST_FAIL_AT="$at" COMMFIT_TEST_FAIL_RANK="$on" \
        "$COMMFIT" measure -q --samples 2 --reps 3 --max-time 60 "$@"
    expect_rc 1 "$desc"
    re="^commfit: measure: $call failed at $what np=2 bytes=([0-9]+)( blocks=[0-9]+)?: commfit test: injected failure$"
    grep_err "$re" "$desc: MPI_Error_string's text, the pattern, np and size"
    bytes=$(sed -nE "s/$re/\\1/p" "$T/err" | head -n 1)
}

# kept DESC FILE PATTERN: FILE reads back and has the rows of PATTERN below $bytes, each
# once; then --resume (no fault) completes it.
kept() {
    run "$rt" "$2"
    expect_rc 0 "$1: the table reads back"
    for s in 0 1 2 4 8 16 32 64 128 256; do
        if [ "$s" -lt "${bytes:-0}" ] && measured $3 $s; then echo "$3 $s"; fi
    done | sort >want
    pairs "$2" >got
    check "$1: the rows before the failure are kept" cmp -s want got
    run mpirun 2 "$COMMFIT" measure -q --resume "$2"
    expect_rc 0 "$1: --resume"
    for s in 0 1 2 4 8 16 32 64 128 256; do measured $3 $s && echo "$3 $s"; done | sort >want
    pairs "$2" >got
    check "$1: --resume completes the table, every point once" cmp -s want got
}

# Measure's own calls (the point-boundary flag, the per-sample reductions), failing on
# rank 1: rank 1 reports, and rank 0 has written what was finished.
failing "a failure on rank 1" 1 MPI_Allreduce 20 pingpong --patterns pingpong --sizes 0:256 -o r1.csv
kept "a failure on rank 1" r1.csv pingpong

failing "a failure on rank 0" 0 MPI_Allreduce 20 pingpong --patterns pingpong --sizes 0:256 -o r0.csv
kept "a failure on rank 0" r0.csv pingpong

# A failure inside a kernel: only the reduce pattern calls MPI_Reduce, after the launch's
# probes (the pair probe's and the fan probe's 72 at np 2: 2 ways, 6 sizes, 6 times each).
failing "a failure in a kernel" all MPI_Reduce 102 reduce --patterns reduce --sizes 0:256 -o k.csv
kept "a failure in a kernel" k.csv reduce

# A derived-datatype point is named with its datatype and block count, whether the
# failure is in measure's calls or in the datatype transfer (with the launch probes skipped,
# the transfer's MPI_Send is rank 1's only one: its 8th fails).
failing "a failure at a datatype point" all MPI_Allreduce 20 "pingpong [a-z]+" --patterns ddt \
    --datatypes vector --sizes 1K --blocks 1,2,3,4 -o d.csv
run "$rt" d.csv
expect_rc 0 "a failure at a datatype point: the table reads back"
failing "a failure in a datatype transfer" 1 MPI_Send 8 "pingpong [a-z]+" --patterns ddt \
    --datatypes vector --sizes 1K --blocks 1,2,3,4 --no-latency-probe -o x.csv
run "$rt" x.csv
expect_rc 0 "a failure in a datatype transfer: the table reads back"

# probe_failing DESC CALL AT FILE WHERE SAID: a run of pingpong whose AT-th CALL fails on
# rank 1 in a launch probe, before the plan: it exits 1, the message names the probe and
# its ranks (WHERE), not a point, and FILE is not written.
probe_failing() {
    run mpirun 2 env LD_PRELOAD="$preload" COMMFIT_TEST_FAIL_CALL="$2" COMMFIT_TEST_FAIL_AT="$3" \
        COMMFIT_TEST_FAIL_RANK=1 "$COMMFIT" measure -q --patterns pingpong --sizes 0 -o "$4"
    expect_rc 1 "$1"
    grep_err "^commfit: measure: $2 failed in $5: commfit test: injected failure\$" "$1: $6"
    check "$1: no table" test ! -e "$4"
}

# A failure in the latency probe at launch: rank 1's 5th MPI_Send, one of the 64 untimed
# round trips of 8 KiB that come first; its 69th, one of the 8-byte round trips; and in its
# sized part, the 94th (after those 64 and 22, the 2nd size's 2nd).
probe_failing "a failure in the latency probe's first round trips" MPI_Send 5 ring.csv \
    "the latency probe between ranks 0 and 1" "said so"
probe_failing "a failure in the latency probe" MPI_Send 69 probe.csv \
    "the latency probe between ranks 0 and 1" "said so"
probe_failing "a failure in the sized latency probe" MPI_Send 94 sized.csv \
    "the latency probe between ranks 0 and 1" "said so"
# In the fan probe: rank 1's 153rd MPI_Send, its first to rank 0 (after the latency probe's
# 64 + 22 + 11 x 6; the pair probe's are MPI_Sendrecv).
probe_failing "a failure in the fan probe" MPI_Send 153 fan.csv "the fan probe of ranks 0 to 1" \
    "said so"

# The latency probe's messages in order (the interposer's log of every MPI_Send, no timing):
# with each rank in turn, 64 round trips of 8 KiB before any timed one, so that the pages of
# a library's ring of eager buffers have faulted in (on a VM the first 64 round trips at each
# size up to 8 KiB read 10-40 times the ping-pong's); then 2 + 20 of 8 bytes, and 1 + 5 at
# each power of 2 from 256 B to 256 KiB. Rank 1 answers each, in the same order.
# probe_sends RANK...: "COUNT DEST BYTES" of the probe's runs of sends to each RANK in turn.
probe_sends() {
    for r in "$@"; do
        printf '%s %s\n' 64 "$r 8192" 22 "$r 8"
        b=256
        while [ "$b" -le 262144 ]; do
            printf '%s %s\n' 6 "$r $b"
            b=$((b * 2))
        done
    done
}
run mpirun 3 env LD_PRELOAD="$preload" COMMFIT_TEST_LOG_SENDS="$T/sends" "$COMMFIT" measure -q \
    --patterns barrier --sizes 0 -o order.csv
expect_rc 0 "the latency probe's messages logged"
probe_sends 1 2 >want0
# sends RANK N: "COUNT DEST BYTES" of RANK's first N sends, a line a run of the same.
sends() {
    awk '$1 == "S" { print $2, $3 }' "$T/sends.$1" | head -n "$2" | uniq -c |
        awk '{ print $1, $2, $3 }'
}
sends 0 304 >got0
check "rank 0: with each rank in turn, 64 round trips of 8 KiB first" cmp -s want0 got0
probe_sends 0 >want1
sends 1 152 >got1
check "rank 1: answers in the same order" cmp -s want1 got1
# Messages of 256 bytes and more are received into another buffer than the one they are
# sent from, as the ping-pong's: one buffer for both read 2.4 times the ping-pong's time at
# 256 KiB, its lines dirty in the other core's cache for each copy. (The round trips of
# ranks 0 and 1: 64 of 8 KiB and 66 of the sized probe, a send and a receive each.)
for r in 0 1; do
    check "rank $r: the probe's messages from 256 bytes received apart from those sent" \
        awk '$3 >= 256 { n++; if ($1 == "S") s[$4] = 1; else r[$4] = 1 }
             n == 2 * (64 + 66) { exit }
             END { for (a in s) if (a in r) exit 1; exit n != 2 * (64 + 66) }' "$T/sends.$r"
done
# The same in the pair-exchange probe that follows it (rank 1's third MPI_Sendrecv: the
# level of 2 ranks' third exchange).
probe_failing "a failure in the pair-exchange probe" MPI_Sendrecv 3 pair.csv \
    "the pair-exchange probe between ranks 1 and 0" "said so, with both ranks"

# No memory for the pair-exchange probe's 1 MiB buffers on rank 1: every rank learns it
# before any exchange, so none waits for a partner; rank 0 says so and the run exits 1.
# At 3 ranks, rank 2 is in no level of the probe and needs no buffers. (AddressSanitizer's
# malloc comes first and is not replaced.)
if [ -n "$asan" ]; then
    skip "no memory for the probe: AddressSanitizer's malloc is not replaced"
    skip "no memory for the probe: said by rank 0"
    skip "no memory for the probe: no table"
    skip "no memory on rank 2 of 3"
    skip "no memory for rank 1's samples"
    skip "no memory for rank 1's samples: said by rank 0"
    skip "no memory for rank 1's samples: no table"
else
    run mpirun 2 env LD_PRELOAD="$preload" COMMFIT_TEST_FAIL_MALLOC=1048576 \
        COMMFIT_TEST_FAIL_RANK=1 "$COMMFIT" measure -q --patterns pingpong --sizes 0 -o oom.csv
    expect_rc 1 "no memory for the probe"
    expect_err "commfit: measure: out of memory for the pair-exchange probe's two 1 MiB buffers on rank 1" \
        "no memory for the probe: said by rank 0"
    check "no memory for the probe: no table" test ! -e oom.csv
    run mpirun 3 env LD_PRELOAD="$preload" COMMFIT_TEST_FAIL_MALLOC=1048576 \
        COMMFIT_TEST_FAIL_RANK=2 "$COMMFIT" measure -q --patterns pingpong --sizes 0 -o oom3.csv
    expect_rc 0 "no memory on rank 2 of 3"
    # Rank 1 without its sample buffer (997 samples: 7976 bytes, a size nothing else asks
    # for): every rank learns it before the first collective of the run, none goes on.
    run mpirun 2 env LD_PRELOAD="$preload" COMMFIT_TEST_FAIL_MALLOC=7976 \
        COMMFIT_TEST_FAIL_RANK=1 "$COMMFIT" measure -q --patterns pingpong --sizes 0 \
        --samples 997 --reps 1 -o oom-s.csv
    expect_rc 1 "no memory for rank 1's samples"
    expect_err "commfit: measure: out of memory on another rank" \
        "no memory for rank 1's samples: said by rank 0"
    check "no memory for rank 1's samples: no table" test ! -e oom-s.csv
fi

# A table that grows after the ranks read it for --resume (fault-pmpi.so appends a line on
# rank 0 once MPI_Init has returned, as an earlier launch's rank still writing it would: a
# new user's Open MPI launch, killed with kill -9 and resumed 0.8 s later, measured again
# the rows written meanwhile, and fit refused the table): refused when rank 0 locks it,
# nothing written but the line appended.
run mpirun 2 "$COMMFIT" measure -q --patterns pingpong --sizes 0,8,64 --samples 2 --reps 3 \
    -o gr-full.csv
expect_rc 0 "a table to resume"
grep -v '^# \(rank_cpu_share\|end\|duration_s\|end_reason\):' gr-full.csv | head -n -1 >gr.csv
cp gr.csv gr-before.csv
read_bytes=$(wc -c <gr.csv)
run mpirun 2 env LD_PRELOAD="$preload" COMMFIT_TEST_APPEND_AFTER_INIT="$PWD/gr.csv" \
    "$COMMFIT" measure -q --resume gr.csv
check "a table that grew after the ranks read it: refused" test "$rc" -ne 0
grep_err "^commfit: measure: gr.csv: changed while this launch started \($read_bytes bytes of whole lines when read, $((read_bytes + 34)) when locked\): an earlier launch still writing it\? .*Nothing written; resume again once it has stopped\$" \
    "a table that grew after the ranks read it: said, with both lengths"
check "a table that grew after the ranks read it: nothing written but the line appended" \
    sh -c '{ cat gr-before.csv; echo "# test_appended: by fault-pmpi.so"; } | cmp -s - gr.csv'
run mpirun 2 "$COMMFIT" measure -q --resume gr.csv
expect_rc 0 "resumed again once it has stopped"
pairs gr-full.csv >"$T/want"
pairs gr.csv >"$T/got"
check "and the table has every point once" cmp -s "$T/want" "$T/got"

done_testing
