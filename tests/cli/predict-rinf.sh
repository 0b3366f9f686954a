# No answer beyond the measured sizes moves its bytes faster than the fit's asymptotic
# bandwidth (r_inf's 95% upper end), or than the bandwidth measured at the largest size
# where that is faster. The shipped OSU ping-pong over InfiniBand (data/osu532) gains
# bandwidth up to its largest size, 4 MiB (11265 MiB/s); its fit's r_inf is 11262 MiB/s
# [10832, 11728]. The measured trend weighed into the answer beyond rises more slowly than
# the size, and carried on to 1 GiB it read 74390 us, 13765 MiB/s, above either.
. "$top_srcdir/tests/setup.sh"

tab="$top_srcdir/data/osu532_hpccofc_ib_latency_compute001.csv"
"$COMMFIT" fit -q -i "$tab" -o m.json
"$COMMFIT" fit -v -i "$tab" -o m2.json >fit.out 2>&1
hi=$(sed -n 's/^pingpong np 2 byte: .* r_inf [0-9.]* MiB\/s \[[0-9.]*, \([0-9.]*\)\].*/\1/p' fit.out)
check "the fit's r_inf has a 95% upper end ($hi MiB/s)" test -n "$hi"
run "$COMMFIT" predict -m m.json -p pingpong -n 2 -b 16M,1G -f csv
expect_rc 0 "ping-pong at 16 MiB and 1 GiB"
check "at 1 GiB no faster than $hi MiB/s (it read 13765)" \
    awk -F, -v h="$hi" 'NR == 3 { exit !($8 <= h * 1.0005) }' "$T/out"
check "at 1 GiB the note says the time was raised to r_inf's upper end" \
    awk -F, 'NR == 3 { exit $0 !~ /raised from [0-9.]+ us to the time its bytes take at 11728 MiB\/s, the fit.s asymptotic bandwidth \(r_inf.s 95% upper end\): no answer beyond the measured sizes moves them faster/ }' "$T/out"
check "at 1 GiB the interval holds the answer" \
    awk -F, 'NR == 3 { exit !($6 <= $5 && $5 <= $7) }' "$T/out"
check "every answer's bandwidth at most the measured top's or r_inf's upper end" \
    awk -F, -v h="$hi" 'NR > 1 { if ($8 > (h > 11265.07 ? h : 11265.07) * 1.0005) bad = 1 } END { exit bad }' "$T/out"

# The same table cut at 1 MiB and read at 4 MiB, held out: the interval holds the measured
# time.
awk -F, '/^#/ || $1 == "pattern" || $3 + 0 <= 1048576' "$tab" >cut.csv
"$COMMFIT" fit -q -i cut.csv -o cut.json
run "$COMMFIT" predict -m cut.json -p pingpong -n 2 -b 4M -f csv
expect_rc 0 "cut at 1 MiB, read at 4 MiB"
t4=$(awk -F, '!/^#/ && $1 == "pingpong" && $3 == 4194304 { print $11 }' "$tab" | sort -n | sed -n 1p)
check "cut at 1 MiB: 4 MiB inside the interval (measured $t4 us)" \
    awk -F, -v t="$t4" 'NR == 2 { exit !($6 <= t && t <= $7) }' "$T/out"
done_testing
