# Where the doubling to the largest fitted np crossed a tier of the launch's probe (a node),
# the backtests there read the crossing. sim-multicore-ompi (8-core nodes), fitted at np 2-16
# and read at np 64:
# - the fitted model, refitted without np 16 (the first across two nodes) and read there:
#   Open MPI's ring allgather missed it by x6.44 a doubling; carried over the 3 doublings to
#   np 64 (one the change of algorithm) the interval was x268 each way. Now the crossing
#   counts once (the first doubling beyond the largest np, and each tier crossed beyond it),
#   the other doublings at the backtest of the largest doubling that crossed no tier (np 8
#   read from np 2-4: x2.13): x29.1. The model file keeps what predict needs
#   (backtest_tiers, extrap_err_within_tier_per_doubling); a file without them reads as
#   before.
# - the grid's backtest of its tiered trees, each np read from the np below it: np 16 read
#   from 8 missed more than np 8 from 4, which refused it (misses growing with np) and left
#   the bcast to the fitted model's x172 a doubling ([1e-4, 87575] around 5.39 us at 64 B);
#   grown where the reading crossed a tier the one below did not, it bounds them: x2.09.
# - a call that moves nothing (a reduction of 1 B) is skipped by the backtests; its lower end
#   holds the least time measured of such calls (sim-fatnodes, np 2-32, at np 64: the
#   simulated 0.0100 us lay below [0.0106, 0.0138]).
. "$top_srcdir/tests/setup.sh"

d="$top_srcdir/data"
"$COMMFIT" fit -q -i "$d/sim-multicore-ompi.csv" --np 2,4,8,16 -o mc.json
check "the model file says which np the backtest within a tier read, and the tiers" \
    python3 -c "
import json, sys
a = {x['pattern']: x for x in json.load(open('mc.json'))['across_np']}['allgather']
bt = a['backtest_tiers']
s = a['segments'][0]
sys.exit(not (bt == {'tier_ranks': [8], 'within_np': 8} and
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
    grep -q "the interval widened x29.1 each way: the fitted model, refitted without np=16 and read there, missed it by x6.44 a doubling of p, carried over 1 of the 3 doublings from np=16 (the change of algorithm counted as one), one for each tier crossed from np=8 to np=64 and at least one (the doubling to np=16 crossed a tier); over the other 2, x2.13 a doubling, its miss refitted without np=8, the largest np whose doubling crossed no tier;" "$T/out"
check "and that is the interval: t / 29.1 and t * 29.1" \
    awk -F, 'NR == 2 { r = $5 / $6; s = $7 / $5; exit !(r > 29 && r < 29.2 && s > 29 && s < 29.2) }' "$T/out"

# A model file without the within-tier backtest (one from before it): every doubling at the
# crossing's miss, as before.
python3 -c "
import json
m = json.load(open('mc.json'))
for a in m['across_np']:
    a.pop('backtest_tiers', None)
json.dump(m, open('old.json', 'w'))"
run "$COMMFIT" predict -m old.json -p allgather -n 64 -b 64K -f csv
expect_rc 0 "the file without backtest_tiers"
check "every doubling at x6.44: x268 each way, as before" \
    grep -q "the interval widened x268 each way: the fitted model, refitted without np=16 and read there, missed it by x6.44 a doubling of p, carried over 3 doublings from np=16 (the change of algorithm counted as one);" "$T/out"

# The bcast: the grid's trees read within x2.09 a doubling, the crossing among them.
for b in 64 1048576; do
    run "$COMMFIT" predict -m mc.json -p bcast -n 64 -b "$b" -f csv
    expect_rc 0 "multicore-ompi bcast at np 64, $b B"
    tr=$(truth bcast 64 "$b")
    check "$b B: the interval holds the simulated $tr" \
        awk -F, -v tr="$tr" 'NR == 2 { exit !($6 <= tr && tr <= $7) }' "$T/out"
    check "$b B: narrower than x10 each way (x2.95e4 at 64 B, x5e6 at 1 MiB before)" \
        awk -F, 'NR == 2 { exit !($5 / $6 < 10 && $7 / $5 < 10) }' "$T/out"
done
check "the note: the grid's readings, x2.09 a doubling" \
    grep -q "the interval widened x9.18 each way: the grid's readings, each np from the np below it, missed it by x2.09 a doubling of p, carried over 3 doublings from np=16 (the change of algorithm counted as one)" "$T/out"

# Bad values are refused with the path.
python3 -c "
import json
m = json.load(open('mc.json'))
for a in m['across_np']:
    if 'backtest_tiers' in a:
        a['backtest_tiers']['within_np'] = 12
json.dump(m, open('bad.json', 'w'))"
run "$COMMFIT" predict -m bad.json -p bcast -n 64 -b 64
expect_rc 1 "a within_np the model was not fitted at"
check "said with its path" grep -q "backtest_tiers.within_np.*one of the model's np" "$T/err"
python3 -c "
import json
m = json.load(open('mc.json'))
for a in m['across_np']:
    if 'backtest_tiers' in a:
        a['backtest_tiers']['tier_ranks'] = [8, 8]
json.dump(m, open('bad2.json', 'w'))"
run "$COMMFIT" predict -m bad2.json -p bcast -n 64 -b 64
expect_rc 1 "tier_ranks not increasing"
check "said with its path" grep -q "backtest_tiers.tier_ranks" "$T/err"

# A prediction that crosses a tier beyond the largest np counts it at the crossing's miss
# too: sim-wide's tiers part blocks of 8 and 32 ranks; fitted at np 2-16 and read at np 128,
# the allgather's 4 doublings (one the change of algorithm) count 2 at the crossing's miss (the
# tier at 8 that np 16 crossed, the one at 32 beyond it), 2 within a tier.
"$COMMFIT" fit -q -i "$d/sim-wide.csv" --np 2,4,8,16 -o wd.json
run "$COMMFIT" predict -m wd.json -p allgather -n 128 -b 4096 -f csv
expect_rc 0 "sim-wide allgather of 4 KiB at np 128 from np 2-16"
check "the note counts 2 of 4 doublings at the crossing's miss" \
    grep -q "carried over 2 of the 4 doublings from np=16 (the change of algorithm counted as one), one for each tier crossed from np=8 to np=128 and at least one" "$T/out"
run "$COMMFIT" predict -m wd.json -p reduce -n 64 -b 4096 -f csv
check "the reduce of 4 KiB at np 64: both doublings count at the crossing's miss (the tiers at 8, 32)" \
    grep -q "missed it by x7.38 a doubling of p, carried over 2 doublings from np=16;" "$T/out"

# A call that moves nothing: the lower end holds the least time measured of such calls.
"$COMMFIT" fit -q -i "$d/sim-fatnodes.csv" --np 2,4,8,16,32 -o fn.json
run "$COMMFIT" predict -m fn.json -p reduce -n 64 -b 1 -f csv
expect_rc 0 "sim-fatnodes reduce of 1 B at np 64"
tr=$(truth reduce 64 1 "$d/sim-fatnodes.csv")
check "the interval holds the simulated $tr" \
    awk -F, -v tr="$tr" 'NR == 2 { exit !($6 <= tr && tr <= $7) }' "$T/out"
check "and says why its lower end is so low" \
    grep -q "the call moves nothing (fewer bytes than one element): the lower end holds the least time measured of such a call, 0.01 us" "$T/out"
run "$COMMFIT" predict -m fn.json -p reduce -n 64 -b 4 -f csv
check "a reduce of 4 B moves a float: no such note" awk -F, 'NR == 2 { exit $0 ~ /moves nothing/ }' "$T/out"
done_testing
