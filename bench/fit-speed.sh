# How long 'commfit fit' (auto) takes on a full table, and how the time grows with 10x
# and 100x the rows: more process counts (more fits), or more sizes (longer fits); and
# the growth exponent in the sizes per group, from 4x the sizes.
set -eu
: "${COMMFIT:?run through make bench}"
T=$(mktemp -d "${TMPDIR:-/tmp}/commfit-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

# gen NPS NSIZES: every pattern at NPS process counts over NSIZES sizes, the LogGP
# experiments, and derived datatypes (6 types and pack, 12 block counts) with 3% noise.
gen() {
    awk -v nps="$1" -v nsizes="$2" 'BEGIN {
        srand(42)
        print "# schema: 1"
        print "pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,t_med_us,t_ci95_us,bw_MiBps"
        np_ = split("pingpong pingping sendrecv exchange bcast scatter scatterv gather gatherv allgather allgatherv reduce allreduce reduce_scatter alltoall alltoallv loggp_os loggp_or loggp_gap", pats, " ")
        # sizes: 0 then nsizes-1 sizes spread geometrically up to 4 MiB, each one larger
        # than the one before (a table has no duplicate rows)
        for (i = 0; i < nsizes; i++) {
            size[i] = i == 0 ? 0 : int(2 ^ (22 * (i - 1) / (nsizes - 2)))
            if (i > 0 && size[i] <= size[i - 1]) size[i] = size[i - 1] + 1
        }
        for (q = 1; q <= nps; q++) {
            p = 2 * q
            for (k = 1; k <= np_; k++) {
                pt = pats[k]; nmsg = pt == "sendrecv" ? 2 : pt == "exchange" ? 4 : 1
                p2p = pt ~ /^(pingpong|pingping|sendrecv|exchange)$/
                for (i = 0; i < nsizes; i++) {
                    m = size[i]
                    t = (1 + k / 10) * log(p) / log(2) + m / 9000 * (p2p ? 1 : (p - 1) / 2 + 1)
                    if (m > 65536) t += 3
                    t *= exp(0.03 * (rand() + rand() + rand() - 1.5) * 2)
                    bw = p2p ? sprintf("%.6g", nmsg * m / (1.048576 * t)) : ""
                    printf "%s,%d,%d,byte,,100,5,%.6g,%.6g,%.6g,%.6g,%.4g,%s\n", pt, p, m, t * 0.97, t, t * 1.05, t, t * 0.02, bw
                }
            }
        }
        nb = split("1 2 3 4 5 6 7 8 9 10 100 1000", blocks, " ")
        nd = split("contiguous vector hvector indexed hindexed struct pack", dts, " ")
        for (d = 1; d <= nd; d++)
            for (i = 1; i < nsizes; i++)
                for (j = 1; j <= nb; j++) {
                    m = size[i]; b = dts[d] == "contiguous" ? 1 : blocks[j]
                    if (m < 4 * b) continue
                    if (dts[d] == "contiguous" && j > 1) continue
                    t = (1.5 + m / 8000 + 0.02 * d * b) * exp(0.03 * (rand() - 0.5))
                    printf "pingpong,2,%d,%s,%d,100,5,%.6g,%.6g,%.6g,%.6g,%.4g,%.6g\n", m, dts[d], b, t, t, t, t, t * 0.02, m / (1.048576 * t)
                }
    }' >"$T/t.csv"
}

# timeit: best of 3 of the CPU time (user + sys) and of the wall time, in ms. The wall
# time includes starting the process and fsync of the model file, which a busy disk
# can make much longer than the fitting itself.
timeit() {
    cpu_best= wall_best=
    for r in 1 2 3; do
        if [ -x /usr/bin/time ]; then
            /usr/bin/time -f '%e %U %S' -o "$T/time" \
                "$COMMFIT" fit -i "$T/t.csv" -o "$T/m.json" >"$T/out" 2>"$T/err"
            set -- $(cat "$T/time")
            wall=$(awk -v w="$1" 'BEGIN { printf "%d", w * 1000 }')
            cpu=$(awk -v u="$2" -v s="$3" 'BEGIN { printf "%d", (u + s) * 1000 }')
        else
            s=$(date +%s%N)
            "$COMMFIT" fit -i "$T/t.csv" -o "$T/m.json" >"$T/out" 2>"$T/err"
            e=$(date +%s%N)
            wall=$(((e - s) / 1000000))
            cpu=$wall
        fi
        if [ -z "$cpu_best" ] || [ "$cpu" -lt "$cpu_best" ]; then cpu_best=$cpu; fi
        if [ -z "$wall_best" ] || [ "$wall" -lt "$wall_best" ]; then wall_best=$wall; fi
    done
}

report() {
    timeit
    rows=$(($(wc -l <"$T/t.csv") - 2))
    fits=$(grep -c '^[a-z]' "$T/out") # one summary line per fit
    printf '%-30s %7d rows %6d fits %7d ms cpu %7d ms wall\n' "$1" "$rows" "$fits" \
        "$cpu_best" "$wall_best"
    eval "$2=$cpu_best"
}

ratio() {
    awk -v a="$1" -v b="$base" 'BEGIN { printf "%.1fx", a / (b > 0 ? b : 1) }'
}

gen 4 24
report "full table (4 np, 24 sizes)" base
gen 40 24
report "10x rows: 40 np" np10
gen 400 24
report "100x rows: 400 np" np100
gen 4 240
report "10x rows: 240 sizes" sz10
gen 4 2400
report "100x rows: 2400 sizes" sz100
echo "cpu time growth: 10x np $(ratio "$np10"), 100x np $(ratio "$np100");" \
    "10x sizes $(ratio "$sz10"), 100x sizes $(ratio "$sz100")"

# The growth exponent in the sizes per group: the time at 4x the sizes over the time at
# 1x is 4^e, e = 1 where fit is linear in them and 2 where it is quadratic. Both tables
# are large enough that starting the process and writing the model do not hide it (at
# 24 sizes they are most of the time).
gen 4 150
report "exponent base: 150 sizes" g1
gen 4 600
report "exponent 4x: 600 sizes" g4
awk -v a="$g4" -v b="$g1" 'BEGIN {
    r = a / (b > 0 ? b : 1)
    printf "growth in sizes per group: 4x sizes %.1fx cpu, exponent %.2f (1 linear, 2 quadratic)\n",
        r, log(r) / log(4) }'
