# Messages a rank posts at once (a linear alltoall's, isend/irecv rounds): from np=2 each
# further message costs its sender a share of a latency, at least 0.1 (LogP's overhead) on a
# real machine; SMPI charges a message no sender's time of its own, so in a simulation the
# least is none. sim-flat-ompi, Open MPI's linear alltoall of 4 B at np 8: 2.04 us, one
# message's time (the ping-pong's 2.01), where the lower end read 2.67 with 0.1 for each of
# the 6 further messages.
. "$top_srcdir/tests/setup.sh"

tab="$top_srcdir/data/sim-flat-ompi.csv"
"$COMMFIT" fit -q -i "$tab" --np 2 -o sim.json
t8=$(awk -F, '!/^#/ && $1 == "alltoall" && $2 == 8 && $3 == 4 { print $11 }' "$tab")
run "$COMMFIT" predict -m sim.json -p alltoall -n 8 -b 4 -f csv
expect_rc 0 "sim-flat-ompi from np=2: alltoall at np 8, 4 B"
check "Open MPI's linear alltoall there" awk -F, 'NR == 2 { exit $10 != "linear alltoall" }' "$T/out"
check "the simulated $t8 us in the interval" \
    awk -F, -v t="$t8" 'NR == 2 { exit !($6 <= t && t <= $7) }' "$T/out"
sim_lo=$(awk -F, 'NR == 2 { print $6 }' "$T/out")

# The same table read as a real Open MPI's: the lower end keeps 0.1 of a latency a message.
sed -e 's/^# simulated: yes/# simulated: no/' \
    -e 's/^# mpi_library: .*/# mpi_library: Open MPI v4.1.4, package: Debian OpenMPI/' \
    -e '/^# coll_selector:/d' "$tab" >real.csv
"$COMMFIT" fit -q -i real.csv --np 2 -o real.json
run "$COMMFIT" predict -m real.json -p alltoall -n 8 -b 4 -f csv
expect_rc 0 "read as a real Open MPI's"
check "a real machine's lower end above the simulation's ($sim_lo us) and one message's time" \
    awk -F, -v s="$sim_lo" 'NR == 2 { exit !($6 > s && $6 > 2.01) }' "$T/out"
done_testing
