# SMPI's allgatherv from np=2, under both selectors. SimGrid's mpich allgatherv decides as
# MPICH's allgather on the blocks in all (recursive doubling at a power of two below 512 KiB,
# Open MPI's Bruck to 80 KiB, MPICH's ring beyond); Open MPI 4.1's rules (its ompi selector's)
# decide on a rank's block: at np 4 to 7 a gatherv and a bcast below 256 B, the neighbor
# exchange (a ring where np is odd) and the ring to 256 KiB, Bruck's between; from np 8 the
# gatherv and bcast, then Bruck's. Until stop 81 the rules named no allgatherv and the
# estimate read the catalog's cheapest: on ethflat.xml 5 of MPICH's 60 answers and 8 of Open
# MPI's outside their intervals. The simulated truths: tests/data/sim/agv-ethflat-mpich.csv
# and agv-ethflat-ompi.csv (commfit measure -q --simulate data/platforms/ethflat.xml
# --coll-selector mpich or ompi --patterns pingpong,allgatherv --sizes
# 8,200,700,3000,12000,50000 --np 2,3,4,5,6,7,9,10,12,13,16 --reps 2 --samples 2), fitted at
# np 2.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

# names NP:BYTES:ALGORITHM ...: the model column at those points of $T/out
names() {
    awk -F, -v want="$*" 'BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) {
             split(w[i], f, ":"); a[f[1] " " f[2]] = f[3] } }
         NR > 1 && ($2 " " $3) in a { gsub(/_/, " ", a[$2 " " $3]); bad += $10 != a[$2 " " $3]; k++ }
         END { exit bad || k != n }' "$T/out"
}

t="$top_srcdir/tests/data/sim/agv-ethflat-mpich.csv"
"$COMMFIT" fit -q -i "$t" --np 2 -o agv-mpich.json
pattern_answers agv-mpich.json "$t" allgatherv '$2 > 2'
expect_rc 0 "mpich selector, ethflat.xml from np=2: allgatherv at np 3 to 16"
check "mpich: every simulated time inside its interval (55 of 60 before)" \
    inside truth "$T/out"
check "mpich: the median error within 6%" median_within 0.06 60
check "mpich: its allgather's rules, in p and the blocks in all" \
    names 5:3000:Bruck 5:50000:ring 4:50000:recursive_doubling 16:3000:recursive_doubling \
    16:50000:ring

# Across np, fitted at np 2 to 7: Bruck's 3 steps at np 5 to 7 (of 1, 2 and 1 to 3 blocks,
# their costs on the unit's curve a rounding apart) carried to its 4 at np 9 to 13 through
# np 3's 2; the line through np 6 and 7 read 20.2 us for the simulated 24.2 at 8 B, outside
# [18.8, 21.9].
"$COMMFIT" fit -q -i "$t" --np 2,3,4,5,6,7 -o agv-mpich-7.json
pattern_answers agv-mpich-7.json "$t" allgatherv '$2 >= 9 && $2 <= 13 && $3 == 8'
expect_rc 0 "mpich: across np from np 2 to 7, allgatherv of 8 B at np 9 to 13"
check "mpich: Bruck's fourth step carried on, within 3%" within 1.03 4

t="$top_srcdir/tests/data/sim/agv-ethflat-ompi.csv"
"$COMMFIT" fit -q -i "$t" --np 2 -o agv-ompi.json
pattern_answers agv-ompi.json "$t" allgatherv '$2 > 2'
expect_rc 0 "ompi selector, ethflat.xml from np=2: allgatherv at np 3 to 16"
check "ompi: at least 58 of 60 simulated times inside their intervals (52 before)" \
    inside_at_least 58
check "ompi: the median error within 7% (8.2% before)" median_within 0.07 60
check "ompi: Open MPI's rules, on a rank's block, the neighbor exchange a ring at odd np" \
    names 5:8:gatherv_+_bcast 5:700:ring 6:700:neighbor_exchange 5:50000:Bruck 16:3000:Bruck
pattern_answers agv-ompi.json "$t" allgatherv '($2 == 5 || $2 == 7) && ($3 == 700 || $3 == 3000)'
check "ompi: 700 and 3000 B at np 5 and 7 (the ring) within 15%" within 1.15 4
done_testing
