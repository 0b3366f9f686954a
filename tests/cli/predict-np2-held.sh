# From np=2 alone where the ping-pong's free fit makes beta negative: SimGrid's Ethernet
# factors make 1500 B faster than 1 KiB (5.97 us, 4.93), so a ping-pong of 4 B to 1500 B
# alone fell with the size, and predict refused every estimate from np=2 ("the ping-pong fit
# gives beta = -4.012e-05: the point-to-point estimate needs it finite and >= 0"). beta is a
# time per byte: the fit holds it at 0 and fits alpha alone, its standard error the free
# fit's; np=2's reduce is read through its latency factor alone.
# tests/data/sim/np2-held-ethflat-mpich.csv: SMPI 3.32's mpich selector on ethflat.xml, ping-pong
# and reduce at np 2, 3, 5 to 7, 9 to 13, 20 and 24, 4 B to 1500 B (simulated at stop 78, held
# out until stop 79).
. "$top_srcdir/tests/setup.sh"
. "$top_srcdir/tests/cli/np2-helpers.sh"

tab="$top_srcdir/tests/data/sim/np2-held-ethflat-mpich.csv"
run "$COMMFIT" fit -q -i "$tab" --np 2 -o m.json
expect_rc 0 "ethflat-mpich at np 2, 4 B to 1500 B"
check "the model holds beta at 0 and what the free fit gave it" \
    grep -q '"beta_free_fit": -4.012' m.json
check "... its beta 0" grep -q '"beta_us_per_byte": 0.0,' m.json

reduce_answers m.json "$tab" '$2 > 2'
expect_rc 0 "reduce from np=2 at np 3 to 24"
check "np 3 to 24, 4 B to 1500 B: each of 55 within 1% and inside its interval (np 9, 64 B: 5.415 us)" \
    within 1.01 55
check "the note says beta is held and why" \
    grep -q 'beta held at 0: the ping-pong.s 4 B to 1500 B fitted beta = -4.012e-05' "$T/out"

# The model file says so: a beta_free_fit beside a beta other than 0, or one not below 0, is
# refused with where.
sed 's/"beta_free_fit": -/"beta_free_fit": /' m.json >pos.json
run "$COMMFIT" predict -m pos.json -p reduce -n 8 -b 64
expect_rc 1 "a model whose beta_free_fit is not negative"
check "... says which field and what it expects" \
    grep -q 'p2p.beta_free_fit: expected a number < 0' "$T/err"
awk '/"beta_us_per_byte": 0.0,/ && !done { sub(/0.0,/, "1e-05,"); done = 1 } { print }' m.json >nz.json
run "$COMMFIT" predict -m nz.json -p reduce -n 8 -b 64
expect_rc 1 "a model with beta_free_fit whose beta is not 0"
check "... says which field and what it expects" \
    grep -q 'p2p.beta_us_per_byte: expected 0 where beta_free_fit is given' "$T/err"
done_testing
