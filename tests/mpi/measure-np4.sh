# commfit measure at more ranks: each np on a sub-communicator, pingpong at 2 only,
# uneven reductions at 3, oversubscription flagged. Kept tiny: on a 2-core machine, ranks
# beyond the cores make MPICH's busy polling slow every collective.
. "$top_srcdir/tests/setup.sh"
rt="$top_builddir/tests/mpi/read-table"
cores=$(getconf _NPROCESSORS_ONLN)

# (COMMFIT_LAUNCH_CROWDED other than the front's '1', from elsewhere, silences nothing.)
run mpirun 4 env COMMFIT_LAUNCH_CROWDED=yes "$COMMFIT" measure --patterns all --sizes 0,1K \
    --samples 2 --reps 2 --check -q -o t4.csv
expect_rc 0 "all patterns at -n 4 with --check"
if [ "$cores" -lt 4 ]; then
    check "oversubscribed: yes in the metadata" grep -qx '# oversubscribed: yes' t4.csv
    grep_err "^commfit: measure: warning: 4 ranks on '.*', which has $cores cores?" "oversubscribed: a warning"
else
    check "oversubscribed: no in the metadata" grep -qx '# oversubscribed: no' t4.csv
fi
run "$rt" t4.csv
expect_rc 0 "the table reads back"
cp "$T/out" "$T/rows"
check "pingpong and pingping at np 2 only" \
    test "$(grep -Ec '^ping(pong|ping) ' "$T/rows")" -eq 4 -a "$(grep -Ec '^ping(pong|ping) 2 ' "$T/rows")" -eq 4
for p in sendrecv exchange bcast scatter scatterv gather gatherv allgather allgatherv reduce \
    allreduce reduce_scatter alltoall alltoallv; do
    for np in 2 4; do
        check "$p at np $np, both sizes" test "$(grep -Ec "^$p $np (0|1024) " "$T/rows")" -eq 2
    done
done
check "barrier once per np" test "$(grep -Ec '^barrier (2|4) 0 ' "$T/rows")" -eq 2
check "62 rows in all" test "$(grep -vc '^meta' "$T/rows")" -eq 62
check "metadata: 4 ranks on the node" grep -qx '# ranks_per_node: 4' t4.csv

# Three ranks: the default np is 2,3, and 5 floats do not split evenly.
run mpirun 3 "$COMMFIT" measure --patterns reduce_scatter,alltoallv,allgatherv --sizes 20,5K --samples 1 --reps 1 --check -q -o t3.csv
expect_rc 0 "-n 3 with --check, uneven reduce_scatter"
run "$rt" t3.csv
check "-n 3: np 2 and 3" test "$(grep -Ec ' (2|3) (20|5120) ' "$T/out")" -eq 12

# A rank that times nothing: three ranks measuring np 2 only (rank_cpu_share's '-').
run mpirun 3 "$COMMFIT" measure --np 2 --patterns pingpong --sizes 8 --samples 1 --reps 2 \
    --no-latency-probe -q -o t32.csv
expect_rc 0 "-n 3 measuring np 2"
check "rank_cpu_share: ranks 0 and 1 timed, rank 2 did not" \
    grep -Eqx '# rank_cpu_share: [01]\.[0-9]{2}(\*2|;[01]\.[0-9]{2});-' t32.csv

done_testing
