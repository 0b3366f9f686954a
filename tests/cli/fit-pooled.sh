# Tables fitted together are pooled as replicates of one machine: fit says where they were
# measured differently (mpi_library, coll_selector, simulated, platform) or their times part
# by 1.5x or more in the median over the points both measured, and fits them all the same.
. "$top_srcdir/tests/setup.sh"

D=$top_srcdir/data
juno=$D/imb41_gbrandino_juno_arm_internode_eth.csv
ib=$D/osu532_hpccofc_ib_latency_compute001.csv
lacks() { ! grep -q "$@"; }

# Two machines' ping-pong: juno's Ethernet and hpccofc's InfiniBand, 24 sizes in common.
cp "$juno" juno.csv
cp "$ib" ib.csv
run "$COMMFIT" fit juno.csv ib.csv --patterns pingpong -o two.json
expect_rc 0 "two machines' tables: fitted all the same"
grep_err "^commfit: fit: warning: juno.csv and ib.csv part by x91\.8 in the median over the 24 points both measured \(juno.csv the slower; most at pingpong np 2 0 B: 155\.8 and 1\.07 us\): tables of different machines, or of one in different states\? fit pools their rows as replicates of one; fit them apart unless they are$" \
    "two machines' tables: said, with the point that parts most"
check "two machines' tables: the model file written" test -s two.json
run "$COMMFIT" fit -q juno.csv ib.csv --patterns pingpong -o two.json
check "-q: not said" test ! -s "$T/err"

# One machine: the three OSU runs of AWS EKS at each np, one table each (their medians
# part by x1.128 at most).
A=$D/realnp/aws-eks-hpc6a-efa-ompi.csv
for i in 1 2 3; do
    { grep '^#' "$A"; grep -v '^#' "$A" | head -1; grep -v '^#' "$A" | grep -- "-iter-$i.txt"; } >aws$i.csv
done
run "$COMMFIT" fit aws1.csv aws2.csv aws3.csv -o aws.json
expect_rc 0 "three runs of one machine"
check "three runs of one machine: nothing said of the pool" \
    lacks 'part by\|measured differently' "$T/err"

# A table beside itself with its times x1.4, then x1.6: the median ratio against 1.5.
scaled() {
    awk -F, -v OFS=, -v f="$1" '/^#/ || /^pattern,/ { print; next }
        { for (i = 8; i <= 11; i++) if ($i != "") $i = $i * f
          if ($12 != "") $12 = $12 * f; print }' "$juno"
}
scaled 1.4 >slow14.csv
scaled 1.6 >slow16.csv
run "$COMMFIT" fit juno.csv slow14.csv -o j.json
expect_rc 0 "a table and its times x1.4"
check "x1.4: nothing said" lacks 'part by' "$T/err"
run "$COMMFIT" fit juno.csv slow16.csv -o j.json
expect_rc 0 "a table and its times x1.6"
grep_err "^commfit: fit: warning: juno.csv and slow16.csv part by x1\.6 in the median over the 378 points both measured \(slow16.csv the slower;" \
    "x1.6: said"
run "$COMMFIT" fit slow16.csv juno.csv -o j.json
grep_err "part by x1\.6 in the median .*\(slow16.csv the slower;" "x1.6, the slower first: the slower named"

# Metadata: the simulated flat cluster under MPICH's and Open MPI's selection; two
# platforms; a real table beside a simulated one.
run "$COMMFIT" fit "$D/sim-flat.csv" "$D/sim-flat-ompi.csv" -o s.json
expect_rc 0 "two selectors"
grep_err "warning: .*sim-flat.csv and .*sim-flat-ompi.csv were measured differently \(coll_selector 'mpich' and 'ompi'\): fit pools their rows as replicates of one machine, and reads the algorithm switches of the first; fit them apart unless they are$" \
    "two selectors: said, with the rules read"
run "$COMMFIT" fit "$D/sim-flat.csv" "$D/sim-cloud.csv" -o s.json
grep_err "measured differently \(platform_sha256 'c87b08cf1902\.\.\. of flat\.xml' and '2decbdc1d092\.\.\. of cloud\.xml'\)" \
    "two platforms: named"
run "$COMMFIT" fit "$D/sim-flat.csv" "$D/ddt-vm-mpich402-np2.csv" -o s.json
grep_err "measured differently \(simulated 'yes' and 'no'\)" "simulated and real: said"
grep_err "measured differently \(mpi_library 'SMPI Version 3\.32" "simulated and real: the libraries"
run "$COMMFIT" fit "$D/sim-flat.csv" "$D/sim-flat.csv" -o s.json
expect_rc 2 "a table twice is still refused"
cp "$D/sim-flat.csv" copy.csv
run "$COMMFIT" fit "$D/sim-flat.csv" copy.csv -o s.json
expect_rc 0 "a table and its copy"
check "a table and its copy: nothing said of the pool" \
    lacks 'part by\|measured differently' "$T/err"

done_testing
