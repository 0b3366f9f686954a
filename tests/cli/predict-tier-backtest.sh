# Where the doubling to the largest fitted np crossed a tier of the launch's probe (a node),
# the backtests there read the crossing. sim-multicore-ompi (8-core nodes), fitted at np 2-16
# and read at np 64:
# - the fitted model, refitted without np 16 (the first across two nodes) and read there:
#   Open MPI's ring allgather missed it by x6.44 a doubling; carried over the 3 doublings to
#   np 64 (one the change of algorithm) the interval was x268 each way. Now the crossing's
#   miss counts for the first doubling beyond the largest np and one more for each other
#   tier the reading crosses (every doubling past the probe's ranks), the other doublings
#   at the backtest of the largest doubling that crossed no tier (np 8 read from np 2-4:
#   x2.13): x29.1. Between fitted np nothing is split. The model file keeps what predict
#   needs (backtest_tiers, extrap_err_within_tier_per_doubling); a file without them reads
#   as before.
# - the bcast's: x172 a doubling (np 16 from np 2-8), x2.89 within a node; the grid's
#   backtest of its trees, whose misses grew with np, stays refused (a crossing's growth
#   cannot be told from a contention setting in: the second review).
# - a call that moves nothing (a reduction of 1 B) is skipped by the backtests; its lower end
#   holds the least time measured of such calls (sim-fatnodes, np 2-32, at np 64: the
#   simulated 0.0100 us lay below [0.0106, 0.0138]).
. "$top_srcdir/tests/setup.sh"

d="$top_srcdir/data"
"$COMMFIT" fit -q -i "$d/sim-multicore-ompi.csv" --np 2,4,8,16 -o mc.json
check "the model file says which np the backtest within a tier read, the tiers, the probe's reach" \
    python3 -c "
import json, sys
a = {x['pattern']: x for x in json.load(open('mc.json'))['across_np']}['allgather']
bt = a['backtest_tiers']
s = a['segments'][0]
sys.exit(not (bt == {'tier_ranks': [8], 'probed_ranks': 64, 'within_np': 8} and
              s['extrap_err_within_tier_per_doubling'] < s['extrap_err_per_doubling']))"

# truth PATTERN NP BYTES [TABLE]: the simulated time.
truth() {
    awk -F, -v p="$1" -v n="$2" -v b="$3" '!/^#/ && $1 == p && $2 == n && $3 == b { print $11 }' \
        "${4:-$d/sim-multicore-ompi.csv}"
}
run "$COMMFIT" predict -m mc.json -p allgather -n 64 -b 64K -f csv
expect_rc 0 "multicore-ompi allgather of 64 KiB at np 64"
tr=$(truth allgather 64 65536)
check "the interval holds the simulated $tr" \
    awk -F, -v tr="$tr" 'NR == 2 { exit !($6 <= tr && tr <= $7) }' "$T/out"
check "the note: the crossing once, the others within a tier" \
    grep -q "the interval widened x29.1 each way: the fitted model, refitted without np=16 and read there, missed it by x6.44 a doubling of p, carried over 1 of the 3 doublings from np=16 (the change of algorithm counted as one): the first beyond np=16, and one for each other tier the reading crosses, at the miss of the doubling to np=16, which crossed a tier; the other 2 at x2.13 a doubling (refitted without np=8, whose doubling crossed no tier, and read there);" "$T/out"
check "and that is the interval: t / 29.1 and t * 29.1" \
    awk -F, 'NR == 2 { r = $5 / $6; s = $7 / $5; exit !(r > 29 && r < 29.2 && s > 29 && s < 29.2) }' "$T/out"

# The tiers are where the probe's farthest latency steps up, rank by rank, whatever the
# placement: with ranks 8-15 farther than those past them (not aligned blocks, which the
# trees' replays need: a new user's dragonfly, its nodes filled farthest first), the split
# was not made (x268 each way).
awk -F'[:,]' 'BEGIN { OFS = "," }
    /^# rank_latency_us:/ { for (i = 9; i <= 16; i++) $i = 3; sub(/^# rank_latency_us,/, "# rank_latency_us:"); print; next }
    { print }' "$d/sim-multicore-ompi.csv" >far.csv
check "far.csv: ranks 8-15 at 3 us, 16 on at 2.02" \
    grep -q '^# rank_latency_us: 0.4094,.*,0.4094,3,3,3,3,3,3,3,3,2.022,' far.csv
"$COMMFIT" fit -q -i far.csv --np 2,4,8,16 -o far.json
run "$COMMFIT" predict -m far.json -p allgather -n 64 -b 64K -f csv
check "not aligned: the split made all the same, x29.1 each way" \
    grep -q "the interval widened x29.1 each way: the fitted model, refitted without np=16 and read there, missed it by x6.44 a doubling of p, carried over 1 of the 3 doublings" "$T/out"

# mc.json's variants the checks below read, made by one python3 (a start of it costs a
# quarter of a second where it is a pyenv shim): VARIANT, then the backtest_tiers key set to
# a JSON value, or dropped where there is none ('-'), or the whole backtest_tiers dropped.
python3 -c "
import json
variants = [('old', None, None), ('bad', 'within_np', '12'), ('bad2', 'tier_ranks', '[8, 8]'),
            ('bad3-within', 'within_np', '16'), ('bad3-tiers', 'tier_ranks', '[1000]'),
            ('bad3-probed-x', 'probed_ranks', '\"x\"'), ('bad3-probed-8', 'probed_ranks', '8'),
            ('first', 'probed_ranks', '-')]
for name, key, value in variants:
    m = json.load(open('mc.json'))
    for a in m['across_np']:
        if key is None:
            a.pop('backtest_tiers', None)
        elif value == '-':
            a.get('backtest_tiers', {}).pop(key, None)
        elif 'backtest_tiers' in a:
            a['backtest_tiers'][key] = json.loads(value)
    json.dump(m, open(name + '.json', 'w'))"

# A model file without the within-tier backtest (one from before it): every doubling at the
# crossing's miss, as before.
run "$COMMFIT" predict -m old.json -p allgather -n 64 -b 64K -f csv
expect_rc 0 "the file without backtest_tiers"
check "every doubling at x6.44: x268 each way, as before" \
    grep -q "the interval widened x268 each way: the fitted model, refitted without np=16 and read there, missed it by x6.44 a doubling of p, carried over 3 doublings from np=16 (the change of algorithm counted as one);" "$T/out"

# Past the ranks the launch's probe reached (64) nothing is known of the tiers: every
# doubling at the crossing's miss (the second review).
run "$COMMFIT" predict -m mc.json -p allgather -n 128 -b 64K -f csv
check "np 128, past the probe's 64 ranks: x6.44 over every doubling" \
    grep -q "missed it by x6.44 a doubling of p, carried over 4 doublings from np=16 (the change of algorithm counted as one);" "$T/out"

# Between fitted np nothing is split: the crossing was measured beyond them (the second
# review: fatnodes-ompi fitted at np 2, 4, 16, 64, allreduce of 4 B at np 8 narrowed from
# x76.2 to x8.69 each way, its note counting tiers "from np=16 to np=8"). The grid's own
# backtest of its trees bounds that reading first: taken out, the fitted model's is read.
"$COMMFIT" fit -q -i "$d/sim-fatnodes-ompi.csv" --np 2,4,16,64 -o sparse.json
python3 -c "
import json
m = json.load(open('sparse.json'))
for a in m['across_np']:
    if 'grid' in a:
        a['grid']['tree_err_per_doubling'] = a['grid']['tiered_tree_err_per_doubling'] = None
json.dump(m, open('sparse2.json', 'w'))"
run "$COMMFIT" predict -m sparse2.json -p allreduce -n 8 -b 4 -f csv
expect_rc 0 "fatnodes-ompi allreduce of 4 B at np 8, between the fitted 4 and 16"
check "every doubling at the fitted model's miss: x76.2 each way" \
    grep -q "the interval widened x76.2 each way: the fitted model, refitted without np=64 and read there, missed it by x4.24 a doubling of p, carried over 3 doublings from np=64\"" "$T/out"

# The lower end's reading from np 2 crosses the tier at 16 inside the fitted range, and the
# first doubling beyond np 32 counts too: 2 of its 5 doublings (the second review: 1).
"$COMMFIT" fit -q -i "$d/sim-fatnodes-ompi.csv" --np 2,4,8,16,32 -o fo.json
run "$COMMFIT" predict -m fo.json -p alltoall -n 64 -b 1M -f csv
check "fatnodes-ompi alltoall of 1 MiB at np 64: the lower end's 5 doublings, 2 at the crossing's" \
    grep -q "widened x1.18e+06 over its 5 doublings (x19.8 a doubling for 2 of them, the first beyond np=32 and each other tier crossed; x14.4 for the other 3)" "$T/out"

# The bcast: x172 a doubling once, x2.89 for the others.
for b in 64 1048576; do
    run "$COMMFIT" predict -m mc.json -p bcast -n 64 -b "$b" -f csv
    expect_rc 0 "multicore-ompi bcast at np 64, $b B"
    tr=$(truth bcast 64 "$b")
    check "$b B: the interval holds the simulated $tr" \
        awk -F, -v tr="$tr" 'NR == 2 { exit !($6 <= tr && tr <= $7) }' "$T/out"
    check "$b B: narrower than x1e4 each way (x2.95e4 at 64 B, x5e6 at 1 MiB before)" \
        awk -F, 'NR == 2 { exit !($5 / $6 < 1e4 && $7 / $5 < 1e4) }' "$T/out"
done
check "the note: x172 once, x2.89 for the other 2" \
    grep -q "the interval widened x1.43e+03 each way: the fitted model, refitted without np=16 and read there, missed it by x172 a doubling of p, carried over 1 of the 3 doublings from np=16 (the change of algorithm counted as one)" "$T/out"
# A sparse fit read between its np: the grid's backtest of its trees stays refused where
# misses grew with np, though the largest reading crossed a tier (sim-islands-ompi at np 2,
# 4, 16, 64, reduce of 1 KiB at np 8: [7.34, 8.57] for the simulated 8.65; the second review).
"$COMMFIT" fit -q -i "$d/sim-islands-ompi.csv" --np 2,4,16,64 -o is.json
run "$COMMFIT" predict -m is.json -p reduce -n 8 -b 1K -f csv
tr=$(truth reduce 8 1024 "$d/sim-islands-ompi.csv")
check "islands-ompi reduce of 1 KiB at np 8: the interval holds the simulated $tr" \
    awk -F, -v tr="$tr" 'NR == 2 { exit !($6 <= tr && tr <= $7) }' "$T/out"

# Bad values are refused with the path.
run "$COMMFIT" predict -m bad.json -p bcast -n 64 -b 64
expect_rc 1 "a within_np the model was not fitted at"
check "said with its path" grep -q "backtest_tiers.within_np.*one of the model's np" "$T/err"
run "$COMMFIT" predict -m bad2.json -p bcast -n 64 -b 64
expect_rc 1 "tier_ranks not increasing"
check "said with its path" grep -q "backtest_tiers.tier_ranks" "$T/err"
run "$COMMFIT" predict -m bad3-within.json -p bcast -n 64 -b 64
check "a within_np at the largest np: refused" \
    grep -q "backtest_tiers.within_np.*one of the model's np below its largest" "$T/err"
run "$COMMFIT" predict -m bad3-tiers.json -p bcast -n 64 -b 64
check "tiers the doubling to the largest np did not cross: refused" \
    grep -q "backtest_tiers.tier_ranks.*a boundary the doubling to the model's largest np crossed" "$T/err"
run "$COMMFIT" predict -m bad3-probed-x.json -p bcast -n 64 -b 64
check "a probed_ranks that is no count: refused" grep -q "backtest_tiers.probed_ranks" "$T/err"
run "$COMMFIT" predict -m bad3-probed-8.json -p bcast -n 64 -b 64
check "a probe that reached fewer ranks than its tiers: refused" \
    grep -q "backtest_tiers.probed_ranks.*more ranks than the largest of tier_ranks" "$T/err"
# Without probed_ranks (a file of the first version, which the second review found refused):
# read, no rank known past the largest np, every doubling beyond it at the crossing's miss.
run "$COMMFIT" predict -m first.json -p allgather -n 64 -b 64K -f csv
expect_rc 0 "a model file without probed_ranks"
check "every doubling at x6.44: x268 each way" \
    grep -q "the interval widened x268 each way: the fitted model, refitted without np=16 and read there, missed it by x6.44 a doubling of p, carried over 3 doublings" "$T/out"

# A prediction that crosses a tier beyond the largest np counts it at the crossing's miss
# too: sim-meshnodes' probe steps up at 8, 16, 48 and 112 ranks; fitted at np 2-16 and read
# at np 128, the allgather's 4 doublings (one the change of algorithm to the ring) count 3 at
# the crossing's miss (the first beyond np 16, the tiers at 48 and 112), 1 within a tier.
# (sim-wide's allgather there was the case until SMPI's ring was replayed with its steps'
# traffic: the grid's own backtest of such readings bounds it now.)
"$COMMFIT" fit -q -i "$d/sim-meshnodes.csv" --np 2,4,8,16 -o mn.json
run "$COMMFIT" predict -m mn.json -p allgather -n 128 -b 4096 -f csv
expect_rc 0 "sim-meshnodes allgather of 4 KiB at np 128 from np 2-16"
check "the note counts 3 of 4 doublings at the crossing's miss" \
    grep -q "carried over 3 of the 4 doublings from np=16 (the change of algorithm counted as one): the first beyond np=16, and one for each other tier" "$T/out"
"$COMMFIT" fit -q -i "$d/sim-wide.csv" --np 2,4,8,16 -o wd.json
run "$COMMFIT" predict -m wd.json -p reduce -n 64 -b 4096 -f csv
check "the reduce of 4 KiB at np 64: both doublings count at the crossing's miss (the tiers at 8, 32)" \
    grep -q "missed it by x7.38 a doubling of p, carried over 2 doublings from np=16;" "$T/out"

# A call that moves nothing: the lower end holds the least time measured of such calls
# (sim-cloud fitted at np 2-16, reduce of 1 B at np 32: the simulated 0.0100 us lay below
# [0.0106, 0.0124]; stop 55's).
"$COMMFIT" fit -q -i "$d/sim-cloud.csv" --np 2,4,8,16 -o cl.json
run "$COMMFIT" predict -m cl.json -p reduce -n 32 -b 1 -f csv
expect_rc 0 "sim-cloud reduce of 1 B at np 32"
tr=$(truth reduce 32 1 "$d/sim-cloud.csv")
check "the interval holds the simulated $tr" \
    awk -F, -v tr="$tr" 'NR == 2 { exit !($6 <= tr && tr <= $7) }' "$T/out"
check "and says why its lower end is so low, with the number printed" \
    awk -F, 'NR == 2 { exit !($6 == 0.00952381 && $0 ~ /the call moves nothing \(fewer bytes than one element\): its lower end 0.00952 us holds the least time measured of such a call, less 5%/) }' "$T/out"
run "$COMMFIT" predict -m cl.json -p reduce -n 32 -b 4 -f csv
check "a reduce of 4 B moves a float: no such note" awk -F, 'NR == 2 { exit $0 ~ /moves nothing/ }' "$T/out"
done_testing
