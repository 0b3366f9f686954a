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
sed 's/^# simulated: yes$/# simulated: no/' "$D/sim-flat.csv" >real.csv
run "$COMMFIT" fit "$D/sim-flat.csv" real.csv -o s.json
grep_err "measured differently \(simulated 'yes' and 'no'\)" "simulated and real: said"

# The library by family and version, as measure and an import name it: another release
# or family is said; the same release with other words is not.
ddt=$D/ddt-vm-mpich402-np2.csv
cp "$ddt" a1.csv
sed 's/^\(# mpi_library: .*\)$/\1 (patched build)/' "$ddt" >a2.csv
sed '/^# mpi_library:/s/4\.0\.2/4.1.0/' "$ddt" >a3.csv
sed 's/^# mpi_library: .*/# mpi_library: Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4/' "$ddt" >a4.csv
run "$COMMFIT" fit a1.csv a2.csv -o a.json
check "one MPICH 4.0.2 in other words: nothing said" lacks 'measured differently' "$T/err"
run "$COMMFIT" fit a1.csv a3.csv -o a.json
grep_err "a1.csv and a3.csv were measured differently \(mpi_library 'MPICH 4\.0\.2' and 'MPICH 4\.1\.0'\)" \
    "another MPICH release: named by family and version"
run "$COMMFIT" fit a1.csv a4.csv -o a.json
grep_err "a1.csv and a4.csv were measured differently \(mpi_library 'MPICH 4\.0\.2' and 'Open MPI 4\.1\.4'\)" \
    "Open MPI beside MPICH: named by family and version"

# Only what is pooled: the rows fitted (--patterns, --np), of groups both tables hold.
run "$COMMFIT" fit juno.csv ib.csv --patterns bcast -o b.json
expect_rc 0 "two machines' tables, --patterns bcast (ib.csv has none)"
check "--patterns bcast: nothing pooled, nothing said" lacks 'part by\|measured differently' "$T/err"
run "$COMMFIT" fit "$D/osu74_mpich402_1node_np2_alltoall_full.csv" "$ddt" -o b.json
expect_rc 0 "an alltoall table beside a datatype one"
check "no group in common: nothing said" lacks 'part by\|measured differently' "$T/err"
run "$COMMFIT" fit "$D/sim-flat.csv" "$D/sim-flat.csv" -o s.json
expect_rc 2 "a table twice is still refused"
cp "$D/sim-flat.csv" copy.csv
run "$COMMFIT" fit "$D/sim-flat.csv" copy.csv -o s.json
expect_rc 0 "a table and its copy"
check "a table and its copy: nothing said of the pool" \
    lacks 'part by\|measured differently' "$T/err"

done_testing
