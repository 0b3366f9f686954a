# The fan probe at launch (fan_out_us, fan_in_us) in simulation, where its figures are
# deterministic and follow from the platform, and predict's reading of it for a linear
# scatterv and gatherv from np=2:
#   flat.xml (one core a node, each node's own link to one switch): rank 0's link takes the
#     messages of a fan in turn, 15 of 1 MiB at 16 ranks about 13 times one (SMPI's factors);
#   fatnodes.xml (16 cores a node): 16 ranks stay in rank 0's node, whose loopback gives
#     every flow its full bandwidth: 1 MiB to 15 ranks takes one message's time.
# np=2 cannot tell those apart: without the probe the estimate is the geometric middle of
# the two readings, with an interval spanning both.
. "$top_srcdir/tests/setup.sh"
if [ "${HAVE_SMPI:-no}" != yes ]; then
    echo "1..0 # SKIP commfit-smpi not built (no SimGrid: apt-get install libsimgrid-dev)"
    exit 0
fi
P="$top_srcdir/data/platforms"
# at FILE KEY B J: level B's J-th time (from 1) of KEY in FILE.
at() { sed -n "s/^# $2: //p" "$1" | tr ';' '\n' | sed -n "s/^$3://p" | cut -d, -f"$4"; }
levels() { sed -n "s/^# $2: //p" "$1" | tr ';' '\n' | cut -d: -f1 | paste -sd, -; }
# within A B REL: A and B differ by at most REL of B.
within() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= r * b) }'; }

run "$COMMFIT" measure -q --simulate "$P/flat.xml" --patterns pingpong,scatterv,gatherv \
    --sizes 4,4K,1M --np 2 --launch-np 16 -o flat.csv
expect_rc 0 "flat, np=2 launched on 16 ranks"
check "the sizes" grep -qx '# fan_bytes: 8,512,4096,32768,131072,1048576' flat.csv
check "levels 2 to 16 out" test "$(levels flat.csv fan_out_us)" = 2,4,8,16
check "levels 2 to 16 in" test "$(levels flat.csv fan_in_us)" = 2,4,8,16
check "six times a level" test "$(sed -n 's/^# fan_out_us: //p' flat.csv | tr ';' '\n' |
    awk -F, '{ print NF }' | sort -u)" = 6
check "the method" grep -q '^# fan_method: B:t,\.\.\.: for each power of two B from 2 to the launch, ranks 0 to B-1 at once in a communicator of their own, .* (a simulation)$' flat.csv
o2=$(at flat.csv fan_out_us 2 6)
o16=$(at flat.csv fan_out_us 16 6)
check "flat, 1 MiB to 15 ranks through rank 0's link: 12 to 15 times one ($o16 / $o2 us)" \
    awk -v a="$o2" -v b="$o16" 'BEGIN { exit !(a > 0 && b >= 12 * a && b <= 15 * a) }'
i16=$(at flat.csv fan_in_us 16 1)
check "flat, 8 B from 15 ranks: eager senders leave, the mean below np 2's ($i16 us)" \
    awk -v a="$(at flat.csv fan_in_us 2 1)" -v b="$i16" 'BEGIN { exit !(b > 0 && b < a / 4) }'

run "$COMMFIT" measure -q --simulate "$P/fatnodes.xml" --patterns pingpong,scatterv,gatherv \
    --sizes 4,4K,1M --np 2 --launch-np 16 -o fat.csv
expect_rc 0 "fatnodes, np=2 launched on 16 ranks"
check "fatnodes, 1 MiB to 15 ranks in one node: one message's time" \
    test "$(at fat.csv fan_out_us 16 6)" = "$(at fat.csv fan_out_us 2 6)"

# --no-latency-probe skips it; a table without it reads as before.
run "$COMMFIT" measure -q --simulate "$P/flat.xml" --patterns pingpong,scatterv,gatherv \
    --sizes 4,4K,1M --np 2 --launch-np 16 --no-latency-probe -o none.csv
expect_rc 0 "--no-latency-probe"
check "no fan keys" sh -c '! grep -q "^# fan_" none.csv'

# predict from np=2 at np 16 (a level): np=2's time times the probe's ratio, bounded.
# pred MODEL PATTERN NP BYTES: the answer's csv line.
pred() { "$COMMFIT" predict -m "$1" -p "$2" -n "$3" -b "$4" | tail -n 1; }
field() { echo "$1" | cut -d, -f"$2"; }
for t in flat fat; do
    run "$COMMFIT" fit -q -i $t.csv -o $t.json
    expect_rc 0 "fit $t"
done
a=$(pred flat.json scatterv 16 1M)
t2=$(grep '^scatterv,2,1048576,' flat.csv | cut -d, -f11)
want=$(awk -v t="$t2" -v a="$o2" -v b="$o16" 'BEGIN { printf "%.6g", t * b / a }')
check "flat, scatterv of 1 MiB at np 16: np=2's $t2 us x the probe's $o16 / $o2 ($want, got $(field "$a" 5))" \
    within "$(field "$a" 5)" "$want" 0.001
check "the simulated 1349 us inside, an upper end (got [$(field "$a" 6), $(field "$a" 7)])" \
    awk -v lo="$(field "$a" 6)" -v hi="$(field "$a" 7)" 'BEGIN { exit !(lo <= 1349.3 && 1349.3 <= hi && hi < 2 * lo) }'
check "its note names the probe" sh -c 'echo "$1" | grep -q "the launch.s fan probe (fan_out_us) measured rank 0 sending a message to each of ranks 1 to 15 at once.*x[0-9.]*: the fan probe.s ranks. mean at np=16 over its own at np=2 (read at 16 ranks, at 1 MiB)"' sh "$a"
check "at a level: no model-error factor in the note" sh -c '! echo "$1" | grep -q "model-error factor"' sh "$a"
check "at a level: nor the ping-pong's alpha and beta or np=2's factors, which it does not read" \
    sh -c '! echo "$1" | grep -q "from pingpong alpha\|through scatterv.s np=2 times" && echo "$1" | grep -q "the answer is scatterv.s measured time at np=2 times the probe.s ratio"' sh "$a"
a=$(pred fat.json scatterv 16 1M)
check "fatnodes, scatterv of 1 MiB at np 16: np=2's time (the simulated 29.62 us, got $(field "$a" 5))" \
    within "$(field "$a" 5)" 29.62 0.01
a=$(pred fat.json gatherv 16 4)
i2=$(at fat.csv fan_in_us 2 1)
i16f=$(at fat.csv fan_in_us 16 1)
g2=$(grep '^gatherv,2,4,' fat.csv | cut -d, -f11)
want=$(awk -v t="$g2" -v a="$i2" -v b="$i16f" 'BEGIN { printf "%.6g", t * b / a }')
check "fatnodes, gatherv of 4 B at np 16: the probe's 8 B ratio ($want, got $(field "$a" 5))" \
    within "$(field "$a" 5)" "$want" 0.001

# The report's np plot draws predict's answers: a bar at np 16 of 1 MiB.
a=$(pred flat.json scatterv 16 1M)
run "$COMMFIT" report -m flat.json -o rep
expect_rc 0 "report"
check "the report's bar at np 16 is predict's answer ($(field "$a" 5) in [$(field "$a" 6), $(field "$a" 7)])" \
    awk -v t="$(field "$a" 5)" -v lo="$(field "$a" 6)" -v hi="$(field "$a" 7)" \
        '$1 > 15 && $1 < 17 && $2 == t && $3 == lo && $4 == hi { n++ } END { exit !n }' rep/np-scatterv.dat

# Without the probe: np=2's reading, the middle of the two, the interval spanning both.
grep -v '^# fan_' flat.csv >strip.csv
run "$COMMFIT" fit -q -i strip.csv -o strip.json
b=$(pred strip.json scatterv 16 1M)
check "without it: np=2 cannot tell (its note)" sh -c 'echo "$1" | grep -q "np=2 cannot tell how far they overlap"' sh "$b"
check "without it: a wider interval ($(field "$b" 6) to $(field "$b" 7))" \
    awk -v l1="$(field "$b" 6)" -v h1="$(field "$b" 7)" -v l2="$(field "$(pred flat.json scatterv 16 1M)" 6)" \
        'BEGIN { exit !(l1 < l2 / 10 && h1 > 0) }'

# Between two levels (np 12: 8 and 16) the probe does not bound np: the interval holds
# np=2's reading's too; past the launch (np 32) the probe says nothing: np=2's reading.
a=$(pred flat.json scatterv 12 1M)
b=$(pred strip.json scatterv 12 1M)
check "np 12: np=2's whole answer inside the interval ([$(field "$b" 6), $(field "$b" 7)] in [$(field "$a" 6), $(field "$a" 7)])" \
    awk -v a="$(field "$a" 6)" -v b="$(field "$b" 6)" -v c="$(field "$a" 7)" -v d="$(field "$b" 7)" \
        'BEGIN { exit !(a <= b && (c == "inf" || (d != "inf" && c >= d))) }'
check "np 12: read between 8 and 16 ranks, the interval holding np=2's reading" \
    sh -c 'echo "$1" | grep -q "read between 8 and 16 ranks.*and np=2.s whole answer.s: between its levels"' sh "$a"
check "np 12: np=2's model-error factor named" sh -c 'echo "$1" | grep -q "model-error factor"' sh "$a"
check "np 12: its lower end np=2's reading's ($(field "$a" 6), $(field "$b" 6))" \
    awk -v a="$(field "$a" 6)" -v b="$(field "$b" 6)" 'BEGIN { exit !(a <= b) }'
# Past the launch (np 32) its two largest levels carried on in the number of messages (their
# power law), where both spanned nodes in one tier (flat: one rank a node); the interval np=2's
# reading's too, without an upper end (the network past the launch was never measured).
a=$(pred flat.json scatterv 32 1M)
b=$(pred strip.json scatterv 32 1M)
o8=$(at flat.csv fan_out_us 8 6)
want=$(awk -v t="$t2" -v a="$o2" -v p="$o8" -v q="$o16" \
    'BEGIN { printf "%.6g", t * q / a * exp(log(q / p) / log(15 / 7) * log(31 / 15)) }')
check "np 32, past the launch: levels 8 and 16 carried on ($want, got $(field "$a" 5))" \
    within "$(field "$a" 5)" "$want" 0.001
check "np 32: said" sh -c 'echo "$1" | grep -q "past its largest level, its levels of 8 and 16 ranks carried on.*past its levels the network was never measured"' sh "$a"
check "np 32: no upper end, the lower np=2's reading's" \
    test "$(field "$a" 6),$(field "$a" 7)" = "$(field "$b" 6),inf"
check "np 64, two doublings past its largest level: np=2's reading" \
    sh -c '! echo "$1" | grep -q "fan probe"' sh "$(pred flat.json scatterv 64 1M)"
check "fatnodes, np 32: levels inside one node carry nothing to the next (np=2's reading)" \
    sh -c '! echo "$1" | grep -q "fan probe"' sh "$(pred fat.json scatterv 32 1M)"

# Under Open MPI's own rules (a real Open MPI's table), whose linear scatterv sends in turn:
# the interval holds np=2's reading too.
sed 's/^# mpi_library: .*/# mpi_library: Open MPI v4.1.4, package: Debian OpenMPI/; s/^# simulated: yes/# simulated: no/' \
    flat.csv >ompi.csv
run "$COMMFIT" fit -q -i ompi.csv -o ompi.json
a=$(pred ompi.json scatterv 16 1M)
check "Open MPI's rules: said" sh -c 'echo "$1" | grep -q "Open MPI.s linear calls take the messages in turn"' sh "$a"
check "Open MPI's rules: a lower end below the probe's alone" \
    awk -v a="$(field "$a" 6)" -v b="$(field "$(pred flat.json scatterv 16 1M)" 6)" 'BEGIN { exit !(a < b / 10) }'

# A table timed as a loop of calls is not what the probe timed: np=2's reading.
sed 's/^# coll_timing: .*/# coll_timing: the calls back to back, the loop timed whole (--no-sync)/' \
    flat.csv >loop.csv
run "$COMMFIT" fit -q -i loop.csv -o loop.json
check "timed as a loop: not read" sh -c '! echo "$1" | grep -q "fan probe"' sh "$(pred loop.json scatterv 16 1M)"

# Open MPI's rules scatter linearly at np 8 to 31 from 16 KiB (SimGrid's ompi selector takes
# them): there the probe reads a scatter too; below, the binomial tree np=2 reads.
run "$COMMFIT" measure -q --simulate "$P/flat.xml" --coll-selector ompi --patterns pingpong,scatter \
    --sizes 1K,4K,64K --np 2 --launch-np 16 -o sc.csv
expect_rc 0 "flat, Open MPI's selector, scatter at np=2 launched on 16"
run "$COMMFIT" fit -q -i sc.csv -o sc.json
a=$(pred sc.json scatter 16 64K)
check "scatter of 64 KiB at np 16: linear, read from the probe" \
    sh -c 'echo "$1" | grep -q "linear scatter.*x[0-9.]*: the fan probe.s ranks. mean at np=16"' sh "$a"
b=$(pred sc.json scatter 16 4K)
check "scatter of 4 KiB at np 16: the binomial tree, np=2's reading" \
    sh -c 'echo "$1" | grep -q "binomial tree" && ! echo "$1" | grep -q "fan probe"' sh "$b"
check "scatter of 2 MiB at np 8: the basic linear scatter's blocking sends in turn, not the probe's" \
    sh -c 'echo "$1" | grep -q "linear scatter" && ! echo "$1" | grep -q "fan probe"' sh "$(pred sc.json scatter 8 2M)"
grep -v '^# fan_' sc.csv >sc-nofan.csv
run "$COMMFIT" fit -q -i sc-nofan.csv -o sc-nofan.json
check "without the probe, 64 KiB is still the linear scatter's reading" \
    sh -c 'echo "$1" | grep -q "linear scatter" && ! echo "$1" | grep -q "fan probe"' sh "$(pred sc-nofan.json scatter 16 64K)"

# The probe is rank 0's: a table whose root moved round-robin is not read by it.
sed 's/^# coll_root: .*/# coll_root: round-robin, call i at rank i % np (--root-shift)/' flat.csv >shift.csv
grep -q '^# coll_root: round' shift.csv || echo "# coll_root missing in flat.csv" >&2
run "$COMMFIT" fit -q -i shift.csv -o shift.json
check "a root moving round-robin: not read" sh -c '! echo "$1" | grep -q "fan probe"' sh "$(pred shift.json scatterv 16 1M)"
# Nor a pattern without np=2 times to carry: np=2's reading, its note not the probe's.
awk -F, '/^#/ || $1 != "scatterv" || $2 != 2' flat.csv >no2.csv
run "$COMMFIT" fit -q -i no2.csv -o no2.json
check "scatterv without np=2 rows: not read, nor named" sh -c '! echo "$1" | grep -q "fan probe"' sh "$(pred no2.json scatterv 16 1M)"
# Nor a launch with more ranks than cores: warned, file:line.
sed 's/^# oversubscribed: .*/# oversubscribed: yes/' flat.csv >over.csv
run "$COMMFIT" fit -i over.csv -o over.json
grep_err "metadata fan_out_us '.*': its launch ran more ranks than cores \\(oversubscribed: yes\\), whose turns on a core it times; fit ignores it" \
    "oversubscribed: warned"
check "oversubscribed: not read" sh -c '! echo "$1" | grep -q "fan probe"' sh "$(pred over.json scatterv 16 1M)"
# One size says nothing of how the ratio goes with the size: refused.
sed 's/^# fan_bytes: .*/# fan_bytes: 1048576/; s/^# fan_out_us: .*/# fan_out_us: 2:100.8;4:279.2;8:635.9;16:1349/' flat.csv >one.csv
run "$COMMFIT" fit -i one.csv -o one.json
grep_err "metadata fan_bytes '1048576': expected its sizes, 2 to 16 whole numbers > 0 increasing; fit ignores it" \
    "one size: refused"

# Metadata that does not read is named, file:line, and left out.
sed 's/^# fan_out_us: .*/# fan_out_us: 2:1,2;4:x/' flat.csv >bad.csv
line=$(grep -n '^# fan_out_us' bad.csv | cut -d: -f1)
run "$COMMFIT" fit -i bad.csv -o bad.json
expect_rc 0 "a fan_out_us that does not read: fit goes on"
grep_err "^commfit: fit: warning: bad.csv:$line: metadata fan_out_us '2:1,2;4:x': expected B:us,\.\.\. for each power of two B from 2, a time > 0 at each of fan_bytes' sizes, the levels apart by ';'; fit ignores it\$" \
    "named with its line"
check "and predict reads np=2's reading" sh -c 'echo "$1" | grep -q "np=2 cannot tell how far"' sh "$(pred bad.json scatterv 16 1M)"
check "while gatherv reads the probe's fan_in_us" sh -c 'echo "$1" | grep -q "fan_in_us"' sh "$(pred bad.json gatherv 16 1M)"
sed 's/^# fan_bytes: .*/# fan_bytes: 8,4,1048576/' flat.csv >bad2.csv
run "$COMMFIT" fit -i bad2.csv -o bad2.json
expect_rc 0 "fan_bytes out of order: fit goes on"
grep_err "metadata fan_bytes '8,4,1048576': expected its sizes, 2 to 16 whole numbers > 0 increasing; fit ignores it" \
    "named"
done_testing
