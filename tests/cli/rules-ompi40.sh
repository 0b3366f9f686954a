# Open MPI's fixed decisions changed in 4.1 (open-mpi/ompi pull request 7952): a table from an
# Open MPI before it (its mpi_library "Open MPI v4.0.5") is read by the older rules
# (openmpi-4.0), one from 4.1 by 4.1's tables. Until stop 62 every Open MPI was read by 4.1's:
# the abci tables of data/realnp (Open MPI 4.0.5), and a 4.0 user's np=2 table, whose
# allreduce of 64 KiB at np 16 runs a ring, read as Rabenseifner's.
. "$top_srcdir/tests/setup.sh"

# The same np=2 rows under each library's name (SimGrid's flat cluster's, its simulation
# metadata dropped).
for v in 4.0.5 4.1.6; do
    sed -e "s/^# mpi_library: .*/# mpi_library: Open MPI v$v/" \
        -e '/^# simulated:/d' -e '/^# simgrid_version:/d' -e '/^# coll_selector:/d' \
        "$top_srcdir/data/sim-flat-ompi.csv" >"t$v.csv"
    "$COMMFIT" fit -q -i "t$v.csv" --np 2 -o "m$v.json"
done
check "4.0.5: the model file names the rule set openmpi-4.0" grep -q '"rules": *"openmpi-4.0"' m4.0.5.json
check "4.1.6: openmpi" grep -q '"rules": *"openmpi"' m4.1.6.json
alg() { "$COMMFIT" predict -m "m$1.json" -p "$2" -n "$3" -b "$4" -f csv | awk -F, 'NR == 2 { print $10 }'; }
# pattern np size, then the algorithm of 4.0 and of 4.1 (4.1's recursive doubling allgather,
# its rules' below 32 ranks, hands a count no power of two to its Bruck's, as 4.0's rules
# pick it there)
while read -r pat np size old new; do
    a=$(alg 4.0.5 "$pat" "$np" "$size")
    b=$(alg 4.1.6 "$pat" "$np" "$size")
    check "$pat of $size at np $np: 4.0's $old ($a)" test "$a" = "$(echo "$old" | tr _ ' ')"
    check "$pat of $size at np $np: 4.1's $new ($b)" test "$b" = "$(echo "$new" | tr _ ' ')"
done <<'END'
allreduce 16 64K ring Rabenseifner
allreduce 16 1K recursive_doubling recursive_doubling
bcast 16 4K split_binary_tree binomial_tree
bcast 16 1K binomial_tree knomial_tree
reduce 16 64K pipeline binomial_tree
allgather 16 16K neighbor_exchange recursive_doubling
allgather 12 1K Bruck Bruck
allgather 16 1K recursive_doubling recursive_doubling
alltoall 16 1K linear_alltoall linear_sync
alltoall 16 64 modified_Bruck modified_Bruck
END
# A table timed as a loop of calls (measure --no-sync): openmpi-4.0-loop, kept whole in the
# model file (a 16-byte name field cut it to "openmpi-4.0-loo", which predict refused).
loop=$(awk -F'"' '/define CF_META_TIMING_LOOP/ { print $2 }' "$top_srcdir/src/base/table.h")
sed -e "s/^# coll_timing: .*/# coll_timing: $loop/" t4.0.5.csv >tloop.csv
"$COMMFIT" fit -q -i tloop.csv --np 2 -o mloop.json
check "a loop-timed 4.0.5 table: the rule set openmpi-4.0-loop" grep -q '"rules": *"openmpi-4.0-loop"' mloop.json
run "$COMMFIT" predict -m mloop.json -p allreduce -n 16 -b 64K -f csv
expect_rc 0 "its model file read back: predict at np 16"
# A library with no version read: 4.1's rules.
sed -e 's/^# mpi_library: .*/# mpi_library: Open MPI/' t4.1.6.csv >tnov.csv
"$COMMFIT" fit -q -i tnov.csv --np 2 -o mnov.json
check "no version: openmpi" grep -q '"rules": *"openmpi"' mnov.json
done_testing
