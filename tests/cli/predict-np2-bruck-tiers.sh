# SMPI's MPICH allgather from np=2 where it runs Bruck's (np no power of two, the blocks in all
# to 80 KiB), across the nodes of multicore.xml (nodes of 8 ranks). Bruck's steps pair r with
# r + 2^j around the communicator, so every step waits on some pair across a node: replayed
# rank by rank over the latency probe's tiers, as the across-np grid does. Until stop 81 the
# estimate from np=2 counted a tier's latency once per step whose aligned block crossed it
# (8 B at np 9 to 24 read 24% to 36% low); fresh allgathers on eight platforms from np=2:
# median 15.5% -> 8.3%. The simulated truths: tests/data/sim/ag-multicore-mpich.csv (commfit
# measure -q --simulate data/platforms/multicore.xml --coll-selector mpich --patterns
# pingpong,allgather --sizes 8,300,3000,12000 --np 2,3,5,6,7,9,10,12,13,20,24 --reps 2
# --samples 2), fitted at np 2.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

t="$top_srcdir/tests/data/sim/ag-multicore-mpich.csv"
"$COMMFIT" fit -q -i "$t" --np 2 -o ag.json
pattern_answers ag.json "$t" allgather '$2 > 2'
expect_rc 0 "multicore.xml from np=2: allgather at np 3 to 24"
check "the median error within 7% (17.4% before)" median_within 0.07 40
pattern_answers ag.json "$t" allgather '$2 >= 9 && $3 <= 300'
check "8 and 300 B at np 9 to 24, across the nodes: within 8% (-19% to -36% before)" \
    within 1.08 12
check "named Bruck" awk -F, 'NR > 1 && $10 != "Bruck" { exit 1 }' "$T/out"
done_testing
