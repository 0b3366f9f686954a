# A bcast tree's sender, below 64 KiB (SimGrid's detach threshold), sends to all its children
# at once: how much their bytes slow one another is the network's (SimGrid caps one flow below
# its link's bandwidth, a card may send in turn). The grid fits the share of the link one
# such message takes (the model file's eager_load) to the tree's cost per step at the
# largest measured size below 64 KiB and the smallest from it, and reads a message below
# 64 KiB from the unit's sizes below it, not on the line across the protocol's step at 64
# KiB. Simulated figures: data/sim-flat-ompi.csv fitted at np 2-32, Open MPI's knomial bcast
# at np 48 and 64 of 32 and 48 KiB, simulated for this test by
#   commfit measure -q --simulate data/platforms/flat.xml --coll-selector ompi
#     --patterns bcast --sizes 32768,49152 --np 48,64 --reps 2 --samples 2
# (t_avg_us): np 48 56.58 and 81.51 us, np 64 63.35 and 91.08. Before stop 74 the grid read
# 85.1, 141.4, 94.5 and 157.0, each outside its interval.
. "$top_srcdir/tests/setup.sh"

run "$COMMFIT" fit -q -i "$top_srcdir/data/sim-flat-ompi.csv" --np 2,4,8,16,32 -o m.json
expect_rc 0 "fit sim-flat-ompi at np 2-32"
check "the bcast grid keeps the load it fitted, one eager message 0.5 to 0.85 of the link" \
    awk '/"eager_load":/ { n++; v = $2 + 0; ok = v > 0.5 && v < 0.85 } END { exit !(n == 1 && ok) }' m.json

for case in "48 32768 56.58" "48 49152 81.51" "64 32768 63.35" "64 49152 91.08"; do
    set -- $case
    run "$COMMFIT" predict -m m.json -p bcast -n "$1" -b "$2" -f csv
    expect_rc 0 "bcast at np $1 of $2 B"
    check "np $1 of $2 B within 10% of the simulated $3 us, inside the interval" \
        awk -F, -v t="$3" 'NR == 2 { exit !($5 > t / 1.1 && $5 < 1.1 * t && $6 <= t && t <= $7) }' "$T/out"
done

# Between fitted np the grid's reading of such a tree is no longer carried by the fitted np's
# ratio to their line across 64 KiB (predict-answer.c's switch_carry): it reads its own side
# already. Every np fitted (32 and 64 around 40); np 40 of 48 KiB simulated 76.00 us (the
# command above with --np 40 --sizes 49152); carried, 87.5 (117.6 before stop 74).
run "$COMMFIT" fit -q -i "$top_srcdir/data/sim-flat-ompi.csv" -o all.json
expect_rc 0 "fit sim-flat-ompi at every np"
run "$COMMFIT" predict -m all.json -p bcast -n 40 -b 49152 -f csv
expect_rc 0 "bcast at np 40 of 49152 B"
check "np 40 of 49152 B within 10% of the simulated 76.00 us, inside the interval" \
    awk -F, 'NR == 2 { exit !($5 > 76.0 / 1.1 && $5 < 1.1 * 76.0 && $6 <= 76.0 && 76.0 <= $7) }' "$T/out"
check "and not carried by the fitted np's ratio to their line" \
    awk -F, 'NR == 2 { n = 1; bad = $0 ~ /carried by their ratio/ } END { exit !n || bad }' "$T/out"

# A model from before stop 74 (no eager_load): each eager message takes the whole link, as
# then: the answer higher.
sed 's/"eager_load"/"eager_load_unread"/' m.json >old.json
run "$COMMFIT" predict -m old.json -p bcast -n 64 -b 32768 -f csv
expect_rc 0 "a model without eager_load reads"
check "and reads each eager message the whole link: above the simulated 63.35 us by 15% or more" \
    awk -F, 'NR == 2 { exit !($5 > 1.15 * 63.35) }' "$T/out"

# A bad eager_load is refused, naming where it is.
for v in 0 1.5 -1 '"0.5"' null; do
    sed "s/\"eager_load\": [0-9.e+-]*/\"eager_load\": $v/" m.json >bad.json
    run "$COMMFIT" predict -m bad.json -p bcast -n 64 -b 32768
    expect_rc 1 "eager_load $v is refused"
    grep_err "^commfit: predict: bad.json:[0-9][0-9]*: across_np\\[[0-9]*\\]\\.grid\\.eager_load: expected a number above 0, at most 1$" \
        "eager_load $v: says which member and what it takes"
    check "eager_load $v: nothing on stdout" test ! -s "$T/out"
done
done_testing
