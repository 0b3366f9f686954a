# Where the doubling to the largest fitted np crossed a tier of the launch's probe (a node),
# the fitted model's backtest there (refitted without that np, read at it) reads the
# crossing: Open MPI's bcast on sim-multicore-ompi's 8-core nodes, fitted at np 2-16, missed
# np 16 (the first across two nodes) by x172 a doubling. Carried over every doubling beyond,
# the interval at np 64 was x2.95e4 each way (5.39 us in [1e-4, 87575] at 64 B; [1.4e-4,
# 3.5e9] at 1 MiB). Now the crossing counts once (the first doubling beyond the largest np,
# and each tier crossed beyond it), the other doublings at the backtest of the largest
# doubling that crossed no tier (np 8 read from np 2-4: x2.89). The model file keeps what
# predict needs (backtest_tiers, extrap_err_within_tier_per_doubling); a file without them
# reads as before.
. "$top_srcdir/tests/setup.sh"

d="$top_srcdir/data"
"$COMMFIT" fit -q -i "$d/sim-multicore-ompi.csv" --np 2,4,8,16 -o mc.json
check "the model file says which np the backtest within a tier read, and the tiers" \
    python3 -c "
import json, sys
a = {x['pattern']: x for x in json.load(open('mc.json'))['across_np']}['bcast']
bt = a['backtest_tiers']
s = a['segments'][0]
sys.exit(not (bt == {'tier_ranks': [8], 'within_np': 8} and
              s['extrap_err_within_tier_per_doubling'] < s['extrap_err_per_doubling']))"

for b in 64 1048576; do
    run "$COMMFIT" predict -m mc.json -p bcast -n 64 -b "$b" -f csv
    expect_rc 0 "multicore-ompi bcast at np 64, $b B"
    truth=$(awk -F, '!/^#/ && $1 == "bcast" && $2 == 64 && $3 == '"$b"' { print $11 }' \
        "$d/sim-multicore-ompi.csv")
    check "$b B: the interval holds the simulated $truth" \
        awk -F, -v tr="$truth" 'NR == 2 { exit !($6 <= tr && tr <= $7) }' "$T/out"
    check "$b B: narrower than x1e4 each way (x2.95e4 at 64 B, x5e6 at 1 MiB before)" \
        awk -F, 'NR == 2 { exit !($5 / $6 < 1e4 && $7 / $5 < 1e4) }' "$T/out"
done
# 1 MiB: the change of algorithm beyond np 16 counts as a doubling (3 in all): x172 once and
# x2.89 twice, x1.43e3 each way.
check "the note: the crossing once, the others within a tier" \
    grep -q "the interval widened x1.43e+03 each way: the fitted model, refitted without np=16 and read there, missed it by x172 a doubling of p, carried over 1 of the 3 doublings from np=16 (the change of algorithm counted as one), one for each tier crossed from np=8 to np=64 and at least one (the doubling to np=16 crossed a tier); over the other 2, x2.89 a doubling, its miss refitted without np=8, the largest np whose doubling crossed no tier;" "$T/out"
check "and that is the interval: t / 1430 and t * 1430" \
    awk -F, 'NR == 2 { r = $5 / $6; s = $7 / $5; exit !(r > 1420 && r < 1440 && s > 1420 && s < 1440) }' "$T/out"

# A model file without the within-tier backtest (one from before it): every doubling at the
# crossing's miss, as before.
python3 -c "
import json
m = json.load(open('mc.json'))
for a in m['across_np']:
    a.pop('backtest_tiers', None)
json.dump(m, open('old.json', 'w'))"
run "$COMMFIT" predict -m old.json -p bcast -n 64 -b 64 -f csv
expect_rc 0 "the file without backtest_tiers"
check "every doubling at x172: x2.95e4 each way, as before" \
    grep -q "the interval widened x2.95e+04 each way: the fitted model, refitted without np=16 and read there, missed it by x172 a doubling of p, carried over 2 doublings from np=16;" "$T/out"

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
run "$COMMFIT" predict -m wd.json -p reduce -n 64 -b 64 -f csv
check "the reduce at np 64: both doublings count at the crossing's miss (the tiers at 8, 32)" \
    grep -q "missed it by x7.38 a doubling of p, carried over 2 doublings from np=16\"" "$T/out"
done_testing
