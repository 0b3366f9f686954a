# The point-to-point estimate at an np the pattern was not measured at goes through its
# measured times at the np it was, size by size. The shipped OSU table of an AWS hpc6a EFA
# cluster (data/osu58) holds a ping-pong and an allreduce at np 3072 alone: there the
# allreduce took from x0.87 (1 KiB) to x9 (1 MiB) of the ping-pong's estimate, and one
# median factor (x1.56) carried to np 6144 read 1 MiB at 1364 us, a fifth of the 7572 us
# measured at np 3072 (the same cluster's run at np 6144, data/realnp/aws-pcluster-cpu-ompi,
# took 7651). Now each size's ratio at np 3072 carries the estimate there. A model file
# written before (no measured curve at np 3072) answers with the median as it did.
. "$top_srcdir/tests/setup.sh"

tab="$top_srcdir/data/osu58_convergedcomputing_aws_hpc6a_efa_32n_lat_bw_allreduce.csv"
"$COMMFIT" fit -q -i "$tab" -o m.json
at3072=$(awk -F, '!/^#/ && $1 == "allreduce" && $3 == 1048576 { print $11 }' "$tab")
run "$COMMFIT" predict -m m.json -p allreduce -n 6144 -b 1K,1M -f csv
expect_rc 0 "allreduce at np 6144, 1 KiB and 1 MiB"
t=$(awk -F, 'NR == 3 { print $5 }' "$T/out")
check "at 1 MiB the point-to-point estimate answers" \
    awk -F, 'NR == 3 { exit $9 != "p2p-estimate" }' "$T/out"
check "at 1 MiB $t us, within x1.5 of the $at3072 us measured at np 3072 (a median: 1364)" \
    awk -v t="$t" -v m="$at3072" 'BEGIN { exit !(t > m / 1.5 && t < 1.5 * m) }'
check "the note says it goes through the np=3072 times, size by size" \
    awk -F, 'NR == 3 { exit $0 !~ /through allreduce.s measured np=3072 times, size by size \(x0\.873 to x8\.96 of the estimate there\)/ }' "$T/out"
t1k=$(awk -F, 'NR == 2 { print $5 }' "$T/out")
m1k=$(awk -F, '!/^#/ && $1 == "allreduce" && $3 == 1024 { print $11 }' "$tab")
check "at 1 KiB $t1k us, within x1.5 of the $m1k us measured at np 3072" \
    awk -v t="$t1k" -v m="$m1k" 'BEGIN { exit !(t > m / 1.5 && t < 1.5 * m) }'
check "the model file keeps the measured curve at np 3072 (19 sizes)" \
    python3 -c 'import json,sys; c=[k for k in json.load(open("m.json"))["p2p"]["contention"] if k["np"]==3072][0]; sys.exit(len(c["unit"]) != 19)'

# Below the np it was measured at, what those times carry may be gone (fewer nodes): the
# answer is halfway (geometric) to the ping-pong's costs alone, the interval holding both.
run "$COMMFIT" predict -m m.json -p allreduce -n 1536 -b 1M -f csv
expect_rc 0 "allreduce at np 1536, below the measured np"
check "below np 3072 the note says halfway to the ping-pong's costs alone" \
    awk -F, 'NR == 2 { exit $0 !~ /size by size \(x0\.873 to x8\.96 of the estimate there\), halfway \(geometric\) to the ping-pong.s costs alone below that np, the interval holding both/ }' "$T/out"
check "below np 3072: under the $at3072 us measured there, in its interval" \
    awk -F, -v m="$at3072" 'NR == 2 { exit !($5 < m && $6 <= $5 && $5 <= $7) }' "$T/out"

# One rank below np 3072 the share of the ping-pong's costs is next to nothing (it eases in
# over the first halving): 1 MiB read a third of np 3072's time at np 3071.
run "$COMMFIT" predict -m m.json -p allreduce -n 3072,3071 -b 1M -f csv
expect_rc 0 "allreduce at np 3072 and 3071"
check "np 3071 within 2% of np 3072's answer" \
    awk -F, 'NR == 2 { a = $5 } NR == 3 { exit !($5 > 0.98 * a && $5 < 1.02 * a) }' "$T/out"

# A file written before the curve was kept at np > 2: the median, as before.
python3 -c 'import json; m=json.load(open("m.json"))
for k in m["p2p"]["contention"]:
    if k["np"] != 2: del k["unit"]
json.dump(m, open("old.json", "w"))'
run "$COMMFIT" predict -m old.json -p allreduce -n 6144 -b 1M -f csv
expect_rc 0 "an older model file"
check "an older file: x1.56 contention measured at np=3072, 1364 us" \
    awk -F, 'NR == 2 { exit !($0 ~ /x1\.56 contention measured at np=3072/ && $5 > 1364 && $5 < 1365) }' "$T/out"

# A curve whose time is not > 0 is refused, its path named.
python3 -c 'import json; m=json.load(open("m.json"))
for k in m["p2p"]["contention"]:
    if k["np"] != 2: k["unit"][3][1] = 0
json.dump(m, open("bad.json", "w"))'
run "$COMMFIT" predict -m bad.json -p allreduce -n 6144 -b 1M
expect_rc 1 "a measured curve with a time of 0"
grep_err 'p2p\.contention\[0\]\.unit.*times > 0' "the message names the entry's unit"
# Beyond the largest size measured at np=2, a top measured fast (a falling last chord) no
# longer holds the estimate flat: the chord from the top back to the nearest size that took
# less time carries it (a new user's Open MPI allreduce at np=2, 437 us at 512 KiB and 301 at
# 1 MiB, read 487, 494 and 490 us at np 8 for 1, 4 and 16 MiB).
{
    echo "$HDR"
    awk 'BEGIN {
        for (k = 10; k <= 20; k++) {
            m = 2 ^ k; t = 0.5 + m / 10000
            printf "pingpong,2,%d,byte,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", m, t, t, t, t
            t = (k == 20 ? 0.45 : 1) * (1 + 2 * m / 10000)
            printf "allreduce,2,%d,float,,100,5,%.10g,%.10g,%.10g,%.10g,,\n", m, t, t, t, t
        }
    }'
} >fall.csv
"$COMMFIT" fit -q -i fall.csv --np 2 -o fall.json
run "$COMMFIT" predict -m fall.json -p allreduce -n 8 -b 1M,4M,16M -f csv
check "allreduce at np 8 past a falling top: rising with the size, 16 MiB over 3x 4 MiB's" \
    awk -F, 'NR == 2 { a = $5 } NR == 3 { b = $5 } NR == 4 { c = $5 }
             END { exit !(a < b && b < c && c > 3 * b) }' "$T/out"
# The formula's last line holds every size past the top: a falling one reached zero (its line
# from 519 KiB, 197.7 us less 3.6e-5 us a byte, read -409 us at 16 MiB); never falling now,
# the lines still within 10% of the answers up to the top.
run "$COMMFIT" predict -m fall.json -p allreduce -n 8 -b 1M -f csv
top=$(awk -F, 'NR == 2 { print $5 }' "$T/out")
run "$COMMFIT" predict -m fall.json -p allreduce -n 8 --formula --lang python
expect_rc 0 "the formula at np 8 past a falling top"
check "the formula's last line no falling one: positive at 16 MiB and 1 GiB, at 1 MiB within 10% of predict's $top us" \
    python3 -c 'import sys; src = open(sys.argv[1]).read(); exec(src); t = float(sys.argv[2])
sys.exit(not (T_allreduce_np8(16 * 2**20) > 0 and T_allreduce_np8(2**30) > 0 and
              abs(T_allreduce_np8(2**20) / t - 1) < 0.1))' "$T/out" "$top"
run "$COMMFIT" predict -m fall.json -p allreduce -n 8 --formula
expect_rc 0 "its text"
check "its text: the last piece a constant, the lines within 10% up to the top" \
    awk '/^T\(m\)/ { seen = 1; n = split($0, a, "; "); if (a[n] !~ /^[0-9.]+ us \(m >= [0-9]+ B\)$/) bad = 1 }
         END { exit !seen || bad }' "$T/out"
grep_err "within 10% of them at 64 sizes an octave from 0 B to 1 MiB" "its message: within 10% up to the top"
done_testing
