# A bcast from np=2 where each send waits for its receiver (from 64 KiB, SimGrid's
# smpi/send-is-detached-thresh): a rank sends on from its arrival, its subtree a level below
# its sender's, and every rank leaves when the root does.
# 1. SimGrid 3.32's ompi selector times np=2's bcast from 64 KiB at 0.27 us, whatever the
#    size, where the ranks share a host (no transfer): until stop 65 the estimate was raised
#    only to each rank's receipt, (p-1)/p of a one-way message. The binomial tree at np 16
#    inside one node of data/platforms/fatnodes.xml takes 14.0 us at 64 KiB and 34.9 at
#    256 KiB, 4.0 one-way messages each, read 8.4 and 13.0; its scatter + allgather of 2 MiB
#    118.5, read 53.9. The algorithm's steps, each a one-way message: 14.0, 34.9, 119.8.
# 2. Across nodes every rank waits the root's crossing steps, not only the ranks past the
#    first farther one: data/platforms/meshnodes.xml, nodes of 8, Open MPI's binomial tree of
#    256 KiB at np 16, 76.4 us, read 32.5 (62.6 with half the ranks waiting the crossing);
#    racks.xml (nodes of 4), MPICH's two-level binomial tree of 64 KiB at np 16, 47.7, read 42.0.
# 3. A scatter + recursive doubling allgather's allgather is every rank sending at once, the
#    traffic the launch's pair-exchange probe measures (meshnodes at np 16: 1 MiB between the
#    two nodes 757.7 us with 16 ranks sending, 45.6 inside one): Open MPI's of 2 MiB at np 16
#    there, 955.7 us, read 139.0 (231 with the steps alone).
# The truths: the shipped tables' np 16 rows, each fitted at np 2 alone.
. "$top_srcdir/tests/setup.sh"


"$COMMFIT" fit -q -i "$top_srcdir/data/sim-fatnodes-ompi.csv" --np 2 -o f.json
printf '16 65536\n16 262144\n16 2097152\n' >pts
run "$COMMFIT" predict -m f.json -p bcast --points pts -f csv
expect_rc 0 "fatnodes, Open MPI's bcast from np=2 at np 16"
check "binomial tree inside one node, 64 KiB at np 16: within 3% of the simulated 14.0 us" \
    answer_within 1.03 16 65536 13.9646
check "binomial tree inside one node, 256 KiB at np 16: within 3% of the simulated 34.9 us" \
    answer_within 1.03 16 262144 34.8649
check "scatter + allgather inside one node, 2 MiB at np 16: within 3% of the simulated 118.5 us" \
    answer_within 1.03 16 2097152 118.487
check "the note says the estimate was raised to the algorithm's steps" \
    awk 'NR == 2 { n = 1; bad = !/the estimate, [0-9.]+ us, raised to 13.9[0-9]*: at this size each send waits for its receiver, and every rank waits the algorithm.s steps/ }
         END { exit !n || bad }' "$T/out"
# Open MPI's k-nomial tree (np 32, two nodes of 16): a level's messages leave at once, and
# np=2 cannot tell whether they share the sender's link (one message of their bytes) or go each
# alone (SimGrid's loopback): the geometric middle of the two; 2 MiB, 228.6 us simulated, the
# two 395.4 and 172.4 before the 56.1 the tiers add, 451.5 before the review of stop 65
# (sharing only).
run "$COMMFIT" predict -m f.json -p bcast -n 32 -b 2M -f csv
check "k-nomial tree of 2 MiB at np 32: within x1.45 of the simulated 228.6 us" \
    answer_within 1.45 32 2097152 228.599
check "the note gives both readings of a level's messages" \
    grep -q "np=2 cannot tell whether they share the sender's link (395.4 us) or each goes alone (172.4 us): the geometric middle" "$T/out"
# Below 64 KiB the eager sends let a sender leave: the floor stays each rank's receipt.
run "$COMMFIT" predict -m f.json -p bcast -n 16 -b 16K -f csv
check "16 KiB at np 16: no steps floor (eager)" \
    awk 'NR == 2 { n = 1; bad = /every rank waits the algorithm.s steps/ } END { exit !n || bad }' \
    "$T/out"

"$COMMFIT" fit -q -i "$top_srcdir/data/sim-meshnodes-ompi.csv" --np 2 -o mo.json
printf '16 262144\n16 2097152\n' >pts
run "$COMMFIT" predict -m mo.json -p bcast --points pts -f csv
check "meshnodes, binomial tree of 256 KiB at np 16 across 2 nodes: within 5% of 76.4 us" \
    answer_within 1.05 16 262144 76.3719
check "meshnodes, scatter + allgather of 2 MiB at np 16: within 15% of 955.7 us" \
    answer_within 1.15 16 2097152 955.688
check "the allgather's traffic across the nodes named" \
    awk -F, '$3 == 2097152 { n = 1; bad = !/the traffic every rank sends at once, as the pair-exchange probe/ }
             END { exit !n || bad }' "$T/out"
check "both without an upper bound (np=2 never left its node; its times moved no data)" \
    awk -F, 'NR > 1 { n++; bad += $7 != "inf" } END { exit n != 2 || bad }' "$T/out"

"$COMMFIT" fit -q -i "$top_srcdir/data/sim-racks.csv" --np 2 -o r.json
run "$COMMFIT" predict -m r.json -p bcast -n 16 -b 64K -f csv
check "racks, MPICH's two-level binomial tree of 64 KiB at np 16: within 3% of 47.7 us" \
    answer_within 1.03 16 65536 47.6838

# Past a full tree a short subtree leaves sooner, having waited fewer of the root's crossings:
# cloud.xml (nodes of 4), MPICH's two-level binomial tree at np 12 (3 nodes) and 24 (6): the
# third node's ranks at np 12 wait one of the root's two. Read with every rank waiting all of
# them, 700000 B at np 12 read 711.6 us for the simulated 609.6, at np 24 1008.8 for 905.9.
# The truths: tests/data/sim/held-cloud-mpich.csv (commfit measure -q --no-latency-probe
# --simulate data/platforms/cloud.xml --coll-selector mpich --patterns bcast --sizes
# 100000,300000,700000,1500000 --np 12,24 --reps 2 --samples 2), np=2's rows of
# data/sim-cloud.csv fitted.
"$COMMFIT" fit -q -i "$top_srcdir/data/sim-cloud.csv" --np 2 -o c.json
sim "$top_srcdir/tests/data/sim/held-cloud-mpich.csv" bcast c.json
check "cloud, np 12 and 24, 100000 B to 1500000 B: inside the intervals" inside truths "$T/out"
check "cloud, np 12 and 24, 100000 B to 1500000 B: within 8% (up to 17% over before)" \
    awk -F, 'NR == FNR { t[FNR] = $1; next }
             FNR > 1 { n++; q = $5 / t[FNR - 1]; bad += q > 1.08 || q < 1 / 1.08 }
             END { exit n != 8 || bad }' truths "$T/out"
run "$COMMFIT" predict -m c.json -p bcast -n 12 -b 700000 -f csv
check "np 12: the note counts 83.3% of the ranks waiting the crossings" \
    grep -q "times the 83.3% of the ranks that wait on it" "$T/out"

done_testing
