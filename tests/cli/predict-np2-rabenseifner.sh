# Open MPI's Rabenseifner allreduce from np=2 where np is no power of two (its rules' choice
# at np 5 to 7 from 8 KiB): each even rank below 2 rem first sends its whole vector to the
# odd one above and gets the whole result back at the end, the power of two below np halving
# and doubling among them. The steps read from np=2 were those of the next power of two up,
# without either whole message: SMPI's ompi allreduce of 100000 B on flat.xml at np 5, 6
# and 7 took 60.6, 65.9 and 69.7 us, read 35.0, 34.9 and 34.8 until stop 80, outside their
# intervals. Now the power of two's steps scaled by the replay of the ranks' mean
# (cf_steps_halving_allreduce_us). The simulated truths: tests/data/sim/rab-flat-ompi.csv
# (commfit measure -q --simulate data/platforms/flat.xml --coll-selector ompi --patterns
# pingpong,allreduce,... --sizes 4,100,1000,6000,20000,100000 --np 2,3,5,6,7,9,12 --reps 2
# --samples 2), fitted at np 2.
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

t="$top_srcdir/tests/data/sim/rab-flat-ompi.csv"
"$COMMFIT" fit -q -i "$t" --np 2 -o rab.json
pattern_answers rab.json "$t" allreduce '$2 >= 5 && $2 <= 7 && $3 == 100000'
expect_rc 0 "flat.xml from np=2: allreduce of 100000 B at np 5 to 7"
check "Rabenseifner's named" \
    awk -F, 'NR > 1 { n++; bad += $10 != "Rabenseifner" } END { exit n != 3 || bad }' "$T/out"
check "each inside its interval, within 30% (42% to 50% low before)" within 1.3 3
pattern_answers rab.json "$t" allreduce '$2 == 12 && $3 == 100000'
check "at np 12 within 20% (46% low before)" within 1.2 1
done_testing
