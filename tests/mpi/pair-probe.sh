# The pair-exchange probe at launch (pair_exchange_us), on real launches of 2, 3 and 4 ranks:
# one level for each power of two up to the launch size (a rank past the last one only
# waits), each a positive time; --no-latency-probe and --resume leave it out. Its failures
# (an MPI error, no memory for its buffers) are in fault-mpi.sh. No figure is checked: the
# times are this machine's.
. "$top_srcdir/tests/setup.sh"

num='[0-9]*\.?[0-9]+(e[-+]?[0-9]+)?'
method='ranks 0 to B-1 at once for each power of two B from 2 to the launch, rank r exchanging 1048576 bytes with rank r XOR B/2 (MPI_Sendrecv), the other ranks waiting; 1 untimed and 5 timed exchanges, each the slowest rank.s time; the median of the timed'
# levels FILE: the levels of pair_exchange_us, one a line.
levels() { sed -n 's/^# pair_exchange_us: //p' "$1" | tr , '\n' | cut -d: -f1; }
# positive FILE: every level's time is a number above 0.
positive() {
    sed -n 's/^# pair_exchange_us: //p' "$1" | tr , '\n' | cut -d: -f2 |
        awk '{ n++ } !($1 + 0 > 0) { bad = 1 } END { exit bad || n == 0 }'
}

# probe N LEVELS: a launch of N ranks records the levels LEVELS (a,b,...), each positive.
probe() {
    run mpirun "$1" "$COMMFIT" measure -q --patterns barrier --sizes 0 -o "p$1.csv"
    expect_rc 0 "a launch of $1 ranks"
    check "$1 ranks: pair_exchange_bytes is 1 MiB" grep -qx '# pair_exchange_bytes: 1048576' "p$1.csv"
    check "$1 ranks: pair_exchange_us is B:time for each level" \
        grep -Eqx "# pair_exchange_us: 2:$num(,[0-9]+:$num)*" "p$1.csv"
    check "$1 ranks: the levels $2" test "$(levels "p$1.csv" | paste -sd, -)" = "$2"
    check "$1 ranks: every time above 0" positive "p$1.csv"
    check "$1 ranks: the method" grep -qx "# pair_exchange_method: $method" "p$1.csv"
    check "$1 ranks: the keys once each" test "$(grep -c '^# pair_exchange_' "p$1.csv")" -eq 5
    check "$1 ranks: the distances, each level's last its own time" \
        sh -c 'sed -n "s/^# pair_exchange_distance_us: //p" "$1" | tr ";" "\n" | awk -F"[:,]" "{ print \$1 \":\" \$NF }" | paste -sd, - | grep -qx "$(sed -n "s/^# pair_exchange_us: //p" "$1")"' sh "p$1.csv"
}

probe 2 2
# 3 is no power of two: rank 2 takes part in no level, and waits.
probe 3 2
probe 4 2,4

run mpirun 2 "$COMMFIT" measure -q --patterns barrier --sizes 0 --no-latency-probe -o none.csv
expect_rc 0 "--no-latency-probe"
check "--no-latency-probe skips the pair-exchange probe too" \
    sh -c '! grep -q "^# pair_exchange" none.csv'

# A resumed table keeps its first launch's probe: written once, not again on --resume.
run mpirun 2 "$COMMFIT" measure -q --patterns barrier,pingpong --sizes 0 -o r.csv
expect_rc 0 "a table to resume"
sed '$d' r.csv >cut.csv
run mpirun 2 "$COMMFIT" measure -q --resume cut.csv
expect_rc 0 "--resume"
check "--resume: the probe's keys once, the first launch's" \
    test "$(grep -c '^# pair_exchange_us: ' cut.csv)" -eq 1 -a \
    "$(grep '^# pair_exchange_us: ' cut.csv)" = "$(grep '^# pair_exchange_us: ' r.csv)"

done_testing
