# predict between measured sizes on shipped real tables with one size held out, the rows
# of that size the truth its 95% interval must hold (each case missed before the fit's
# leave-one-out reading, the local spread and the rows' spread about their median):
# - OSU mbw_mr, 8 pairs, every third size held out as bench/heldout-sizes.sh does (2, 16,
#   128 B, ...): the time bends between 64 and 256 B; the piecewise fit passes through its
#   points, so its in-sample misses were 0 and the interval [0.02376, 0.02624] at 128 B
#   missed the measured 0.02245;
# - OSU bw on AWS, 28 node pairs per size in two clusters, the same sizes held out: the spread
#   about the mean of ln t (normal) left the fast pairs out (at 8 KiB 21 of the 28 rows
#   inside, 75%; it still is there, the fast cluster being farther than at other sizes);
# - MPICH ping-pong in shared memory, a step between the neighbours (below).
. "$top_srcdir/tests/setup.sh"

# heldout TABLE PATTERN BYTES OUT: TABLE without the rows of PATTERN at the sizes OUT
# (comma-separated), fitted into m.json; the held-out times at BYTES in truth.
heldout() {
    awk -F, -v p="$2" -v out=",$4," '/^#/ || $1 != p || index(out, "," $3 ",") == 0' "$1" >train.csv
    awk -F, -v p="$2" -v b="$3" '!/^#/ && $1 == p && $3 == b { print $11 }' "$1" >truth
    "$COMMFIT" fit -q -i train.csv -o m.json
}

heldout "$top_srcdir/data/osu562_stackhpc_alaska_hdr100ib_ompi4_mbw_mr_8pairs.csv" mbw_mr 128 \
    2,16,128,1024,8192,65536,524288
run "$COMMFIT" predict -m m.json -p mbw_mr -n 16 -b 128 -f csv
expect_rc 0 "mbw_mr at 128 B held out"
got=$(awk -F, 'NR == 2 { print $6, $7 }' "$T/out")
check "mbw_mr at 128 B: the model corrected by the measured neighbours" \
    awk -F, 'NR == 2 { exit $10 !~ /measured neighbours$/ }' "$T/out"
# (lo is 0.02243 today: close, the bend is sharp)
check "mbw_mr at 128 B: [lo, hi] $got holds the measured $(cat truth)" \
    awk -v g="$got" '{ split(g, v, " "); exit !(v[1] <= $1 && $1 <= v[2]) }' truth

tab="$top_srcdir/data/osu58_convergedcomputing_aws_hpc6a_efa_32n_lat_bw_allreduce.csv"
heldout "$tab" bw 8192 2,16,128,1024,8192,65536,524288
awk -F, '!/^#/ && $1 == "bw" && index(",2,16,128,1024,8192,65536,524288,", "," $3 ",") { print $3, $11 }' \
    "$tab" | sort -k1,1n >rows.out
awk '{ print 2, $1 }' rows.out | uniq >points
run "$COMMFIT" predict -m m.json -p bw --points points -f csv
expect_rc 0 "bw at the held-out sizes"
awk -F, 'NR > 1 { print $3, $6, $7 }' "$T/out" >intervals
check "bw: the intervals at the held-out sizes hold at least 90% of their $(wc -l <rows.out) rows" \
    awk 'NR == FNR { lo[$1] = $2; hi[$1] = $3; next }
         { n++; c += lo[$1] <= $2 && $2 <= hi[$1] } END { exit !(n >= 150 && c >= 0.9 * n) }' \
    intervals rows.out
# The spread of one measurement is read from the rows kept: pooled over the sizes, 95% of
# the rows lie within 1.96 of it about their size's median (about the mean and taken as
# normal, 86%).
sd=$(sed -n '/"pattern": "bw"/,/"points_sd_log"/s/.*"points_sd_log": \([0-9.e-]*\).*/\1/p' m.json | head -1)
awk -F, '!/^#/ && $1 == "bw" && $3 > 0 { print $3, $11 }' train.csv | sort -k1,1n -k2,2g >rows
check "bw: 1.96 points_sd_log ($sd) holds 95% of the rows about their size's median" \
    awk -v s="$sd" '
        function flush(   i, m) {
            if (!k) return
            m = k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
            for (i = 1; i <= k; i++) { n++; d = log(v[i] / m); c += (d < 0 ? -d : d) <= 1.959964 * s }
            k = 0
        }
        $1 != size { flush(); size = $1 }
        { v[++k] = $2 }
        END { flush(); exit !(n > 0 && c >= 0.95 * n) }' rows
# MPICH ping-pong in shared memory, the third of the sizes held out (4, 32, 256 B, ... 1 MiB):
# 1 MiB lies between the measured 512 KiB (19.86 us) and 2 MiB (179.2 us), past the cache's
# edge. The piecewise fit's last segment runs through 512 KiB, 2 MiB and 4 MiB with a
# negative intercept and bends above the log-log line; the chords around (256-512 KiB,
# slope 1.02; 2-4 MiB, 1.03) are flatter than the one across (1.59): a step lies between
# the neighbours, not the model's bend. The model's shape answered 67.7 us, 25% above the
# measured 53.98; the log-log line 59.7 us, 11%.
heldout "$top_srcdir/data/imb2021_mpich402_1node_np2_all.csv" pingpong 1048576 \
    4,32,256,2048,16384,131072,1048576
run "$COMMFIT" predict -m m.json -p pingpong -n 2 -b 1M -f csv
expect_rc 0 "pingpong at 1 MiB held out"
got=$(awk -F, 'NR == 2 { print $5, $6, $7 }' "$T/out")
check "pingpong at 1 MiB: the note says a step may lie between the neighbours" \
    awk -F, 'NR == 2 { exit $0 !~ /do not bend as the model does: a step may lie between them/ }' "$T/out"
# (a regression pin: the log-log line's own miss here is 11%)
check "pingpong at 1 MiB: $got within 12% of the measured $(cat truth), as log-log is" \
    awk -v g="$got" '{ split(g, v, " "); d = v[1] / $1 - 1; exit !(d < 0.12 && d > -0.12) }' truth
check "pingpong at 1 MiB: [lo, hi] holds the measured $(cat truth)" \
    awk -v g="$got" '{ split(g, v, " "); exit !(v[2] <= $1 && $1 <= v[3]) }' truth
# OSU alltoall at np 64 on InfiniBand, the other third of the sizes held out (4, 32, 256 B,
# 2, 16, 128 KiB): 2 KiB lies between the measured 1 KiB (186.1 us) and 4 KiB (496.8 us),
# with a step between them. The spread of the reading's misses at the 4 inner points around
# (512 B to 8 KiB) is twice that at all 13 and holds here; read from 4 values, its 95%
# quantile is Student's with 4 degrees of freedom, not 13: with 13 the interval
# [221.5, 393.7] missed the measured 220.1 us.
heldout "$top_srcdir/data/osu562_stackhpc_alaska_hdr100ib_ompi4_alltoall.csv" alltoall 2048 \
    4,32,256,2048,16384,131072
run "$COMMFIT" predict -m m.json -p alltoall -n 64 -b 2K -f csv
expect_rc 0 "alltoall at 2 KiB held out"
got=$(awk -F, 'NR == 2 { print $6, $7 }' "$T/out")
check "alltoall at 2 KiB: [lo, hi] $got holds the measured $(cat truth)" \
    awk -v g="$got" '{ split(g, v, " "); exit !(v[1] <= $1 && $1 <= v[2]) }' truth
# Sizes fit set aside as a no-op are no measured neighbours: sim-flat's reduce of floats at
# np 4 took 0.01 us at 1 B (no element to reduce), 1.5225 at 4 B and 1.5234 at 16 B. Read
# as a neighbour, the 1 B point's ratio to the model (x0.0066) widened every interval of
# the fit: 8 B read [0.015, 154] us; and 2 B was pulled to 0.12 us.
run "$COMMFIT" predict -m "$top_srcdir/models/sim-flat.json" -p reduce -n 4 -b 2,8 -f csv
expect_rc 0 "reduce of 2 and 8 B at np 4"
check "reduce at 8 B: between its neighbours' times, its interval within 4x of them" \
    awk -F, 'NR == 3 { exit !($5 >= 1.5225 && $5 <= 1.5234 && $6 >= 1.5225 / 4 && $7 <= 1.5234 * 4) }' "$T/out"
check "reduce at 2 B: the model's 1.5 us, not pulled towards the no-op" \
    awk -F, 'NR == 2 { exit !($5 > 1.4 && $5 < 1.6) }' "$T/out"
check "reduce at 2 B: no measured neighbour named" \
    awk -F, 'NR == 2 { exit $10 ~ /measured neighbours/ }' "$T/out"
# At the smallest measured size the answer is its measured time, as at any other (it was
# read 'between the measured 1 B and 4 B', its interval 4x wider than at 4 B's).
run "$COMMFIT" predict -m "$top_srcdir/models/sim-flat.json" -p pingpong -n 2 -b 1,4 -f csv
expect_rc 0 "ping-pong at 1 and 4 B"
check "ping-pong at 1 B: at the measured 1 B" grep -q '^pingpong,2,1,.*,at the measured 1 B: its measured time' "$T/out"
check "ping-pong at 1 B: an interval as narrow as at 4 B (within 10%)" \
    awk -F, 'NR == 2 { w1 = $7 / $6 } NR == 3 { w4 = $7 / $6 } END { exit !(w1 <= w4 * 1.1) }' "$T/out"
done_testing
