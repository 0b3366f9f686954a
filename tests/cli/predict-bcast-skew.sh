# A bcast down a chain, timed a call at a time, from np=2: the barrier after each call lets
# its ranks out apart where its algorithm does, and a rank that comes late finds its
# predecessor's data ready to flow. Open MPI's rules run a chain (the pipeline below 32 B and
# from 256 to 511 B, the linear bcast, SMPI's store-and-forward chain, from 1 to 32 KiB) at
# np 3, where its recursive doubling barrier lets rank 2 out a message after ranks 0 and 1:
# SMPI's ompi bcast of 4 B at np 3 on flat.xml takes 1.354 us of the ranks' mean, two hops of
# 2.03 over three ranks, not the chain's three (2.03 each rank a hop after the one before).
# Until stop 80 the estimate from np=2 read the chain all at once, 2.336 in [2.026, 2.693]:
# np 3's answers at 4 B to 16 KiB outside on each held-out platform of stop 79 (33 of 392).
# The simulated truths: tests/data/sim/bc-knomial-flat-ompi.csv (flat.xml) and
# tests/data/sim/bc-chain-dragonfly-ompi.csv (dragonfly.xml; np 2 and 3 of stop 79's
# held-out table: commfit measure -q --simulate data/platforms/dragonfly.xml --coll-selector
# ompi --patterns pingpong,bcast --sizes 4,64,256,1K,4K,16K,64K --np 2,3,... --reps 2
# --samples 2).
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

flat="$top_srcdir/tests/data/sim/bc-knomial-flat-ompi.csv"
"$COMMFIT" fit -q -i "$flat" --np 2 -o flat.json
# np 3's chains: 4 and 256 B (the pipeline), 1, 4 and 16 KiB (the linear bcast)
pattern_answers flat.json "$flat" bcast '$2 == 3 && $3 != 64 && $3 < 65536'
expect_rc 0 "flat.xml from np=2: bcast at np 3, 4 B to 16 KiB"
check "each of the 5 simulated times inside its interval, within 25% (23% to 72% high, all outside, before)" \
    within 1.25 5
check "the chains named" \
    awk -F, 'NR > 1 { n++; bad += $10 != "pipeline" && $10 != "store-and-forward chain" }
             END { exit n != 5 || bad }' "$T/out"
check "the note says what the barrier's exits did" \
    awk -F, 'NR > 1 { n++; bad += $0 !~ /x0\.[0-9]+ for the barrier after each timed call: replayed over the latency probe \(recursive doubling\)/ }
             END { exit n != 5 || bad }' "$T/out"
# 1 KiB to 16 KiB: the replay's hop against the probe's latency, within 1%
pattern_answers flat.json "$flat" bcast '$2 == 3 && $3 >= 1024 && $3 < 65536'
check "the linear bcast of 1 to 16 KiB within 1% (the barrier's exits replayed)" within 1.01 3

# Where the barrier lets no rank out later than the one before it, nothing moves: np 4 to 7
# (Open MPI's linear barrier lets the root out first; SimGrid's transfers wait for their
# receives), np 8 (recursive doubling on a power of two). The linear bcast of 16 KiB at np 5
# (outside before neither).
pattern_answers flat.json "$flat" bcast '($2 == 5 || $2 == 6) && $3 == 16384'
check "the linear bcast of 16 KiB at np 5 and 6 inside, within 20%" within 1.2 2
check "no note of the barrier's exits there" \
    sh -c '! grep -q "for the barrier after each timed call\|leaves the barrier" "$1"' sh "$T/out"

# A dragonfly's latencies form no tiers: the replay over them is a guess (its exits' gaps by
# the ranks' distance), and only the lower end moves, each late rank its own hop alone.
dfly="$top_srcdir/tests/data/sim/bc-chain-dragonfly-ompi.csv"
"$COMMFIT" fit -q -i "$dfly" --np 2 -o dfly.json
pattern_answers dfly.json "$dfly" bcast '$2 == 3 && $3 != 64 && $3 < 65536'
expect_rc 0 "dragonfly.xml from np=2: bcast at np 3"
check "each of the 5 simulated times inside its interval (all outside before)" within 1.7 5
check "the lower end alone moved, and the note says so" \
    awk -F, 'NR > 1 { n++; bad += $0 !~ /the lower end as if each rank of the chain that leaves the barrier/ || $0 ~ /x0\.[0-9]+ for the barrier/ }
             END { exit n != 5 || bad }' "$T/out"
done_testing
