# From np=2 on a platform of tiers, the latency probe's sized readings across a tier add to
# each step's message what its size costs there, and the pair-exchange probe what every rank
# sending at once costs a byte: the two read the same route's bandwidth, and only the larger
# counts. Until stop 65 the whole sized part was dropped where the pair exchange's counted,
# the message's own part too (SimGrid multiplies a route's latency from 64 KiB, a protocol's
# handshake costs a latency), which the pair exchange's megabyte does not show: MPICH's ring
# allgather of 64 KiB at np 16 on data/platforms/pods.xml (2 ranks a node), 567.3 us (the
# shipped table's np 16 row), read 344.5. Now the bytes' part alone (each step's growth per
# byte between the probe's two largest sizes) gives way to the pair exchange: 529.4. Not for
# rounds of messages posted at once (their handshakes overlap): MPICH's rounds of 4 at 16
# KiB, 93.2 us, read 119.3 as before (117.0 since stop 79). Fresh truths at np 12 and 24:
# tests/data/sim/sized-own-pods-mpich.csv (commfit measure -q --no-latency-probe --simulate
# data/platforms/pods.xml --coll-selector mpich --patterns allgather,allreduce --sizes
# 3000,10000,40000,100000,300000 --np 12,24 --reps 2 --samples 2); np=2's rows of
# data/sim-pods.csv fitted.
. "$top_srcdir/tests/setup.sh"

"$COMMFIT" fit -q -i "$top_srcdir/data/sim-pods.csv" --np 2 -o m.json
run "$COMMFIT" predict -m m.json -p allgather -n 16 -b 64K -f csv
expect_rc 0 "pods, MPICH's allgather from np=2 at np 16"
check "ring allgather of 64 KiB at np 16: within 10% of the simulated 567.3 us" \
    awk -F, 'NR == 2 { n = 1; bad = !($5 > 567.3 / 1.1 && $5 < 567.3 * 1.1) } END { exit !n || bad }' \
    "$T/out"
run "$COMMFIT" predict -m m.json -p alltoall -n 16 -b 16K -f csv
check "rounds of 4 at 16 KiB: as before (119.3 us; 117.0 since stop 79: SMPI's isends at rho 0, a round's bytes streaming)" \
    awk -F, 'NR == 2 { n = 1; bad = !($5 > 116.9 && $5 < 117.1) } END { exit !n || bad }' "$T/out"
sim "$top_srcdir/tests/data/sim/sized-own-pods-mpich.csv" allgather m.json
check "allgather at np 12 and 24, 3000 B to 300000 B: inside the intervals" inside truths "$T/out"
check "allgather at np 12 and 24 from 40000 B: within 12% (0.71 to 0.93 of the truth before)" \
    awk -F, 'NR == FNR { t[FNR] = $1; next }
             FNR > 1 && $3 >= 40000 { n++; q = $5 / t[FNR - 1]; bad += q > 1.12 || q < 1 / 1.12 }
             END { exit n != 6 || bad }' truths "$T/out"
check "the note names what stays: the messages' own beyond their bytes" \
    awk -F, 'FNR > 1 && $2 == 24 && $3 == 300000 { n = 1; bad = !/us of it the sized latency probe.s for those steps. messages beyond their bytes, which the pair exchange counts/ }
             END { exit !n || bad }' "$T/out"

done_testing
