# Carries the launch of a table of one rank a node on to N ranks: its per-rank and per-host
# metadata lists go on with their first entry's value (node-i, rank i's host i).
function list(pre, first, sep,   i) {
    printf "%s%s", pre, first
    for (i = 1; i < N; i++)
        printf "%s%s", sep, first
}
/^# launch_np: / { print "# launch_np: " N; next }
/^# hosts: / { printf "# hosts: node-0"; for (i = 1; i < N; i++) printf ",node-%d", i; print ""; next }
/^# ranks_per_node: |^# cores: / { list("# " $2 " ", 1, ","); print ""; next }
/^# rank_hosts: / { printf "# rank_hosts: 0"; for (i = 1; i < N; i++) printf ",%d", i; print ""; next }
/^# rank_latency_us: / { split($3, a, ","); N--; list("# rank_latency_us: ", a[1], ","); N++; print ""; next }
/^# rank_latency_sized_us: / {
    n = split($3, sz, ";"); N--
    for (k = 1; k <= n; k++) {
        split(sz[k], p, ":"); split(p[2], a, ",")
        list((k > 1 ? ";" : "# rank_latency_sized_us: ") p[1] ":", a[1], ",")
    }
    N++; print ""; next
}
{ print }
