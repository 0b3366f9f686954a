# import --mpi-library: IMB and OSU do not print which MPI library ran them, and fit picks
# the library's collective switch rules from the table's mpi_library. The option records
# the library as the library itself states its version (what commfit measure records), from
# what a user types; a library without rules is recorded as given, and said so; a name
# without a version is refused and nothing is written.
. "$top_srcdir/tests/setup.sh"

d="$top_srcdir/data/realnp/orfeo-epyc-bcast-ompi"
one="$d/osu-np2.txt"

# typed EXPECTED: the import of --mpi-library "$typed" records "# mpi_library: EXPECTED".
recorded() {
    run "$COMMFIT" import osu -q --np 2 --mpi-library "$typed" "$one" -o lib.csv
    expect_rc 0 "--mpi-library '$typed'"
    check "'$typed' is recorded as '$1'" grep -qxF "# mpi_library: $1" lib.csv
    rm -f lib.csv
}
typed='Open MPI 4.1.6' recorded 'Open MPI v4.1.6'
typed='open mpi v4.1.6' recorded 'Open MPI v4.1.6'
typed='openMPI/4.1.6' recorded 'Open MPI v4.1.6'
typed='OpenMPI-5.0.3' recorded 'Open MPI v5.0.3'
typed='ompi 5.0.0rc12' recorded 'Open MPI v5.0.0rc12'
typed='Open MPI v4.1.6, package: Open MPI builder Distribution' \
    recorded 'Open MPI v4.1.6, package: Open MPI builder Distribution'
typed='MPICH 4.0.2' recorded 'MPICH Version: 4.0.2'
typed='mpich/3.4.3' recorded 'MPICH Version: 3.4.3'
typed='  MPICH Version:	4.0.2 ' recorded 'MPICH Version: 4.0.2'
typed='Intel(R) MPI Library 2021.10' recorded 'Intel(R) MPI Library 2021.10'
typed='MVAPICH2 2.3.7' recorded 'MVAPICH2 2.3.7'

# What the user is told: which rules fit will follow, or that it follows none.
run "$COMMFIT" import osu --np 2 --mpi-library 'Open MPI 4.1.6' "$one" -o lib.csv
expect_err "commfit: import: mpi_library 'Open MPI v4.1.6': fit and predict follow Open MPI 4.1's collective switch rules
commfit: import: wrote lib.csv: 20 rows in 1 table from 1 file" "Open MPI: its rules are named"
# An Open MPI before 4.1 is read by the older rules (until stop 62 by 4.1's, and said so);
# a later one by 4.1's all the same, and said so (Open MPI 3.1.6 and 4.0.3 were told 'Open
# MPI's' rules; a new user)
run "$COMMFIT" import osu --np 2 --mpi-library 'Open MPI 3.1.6' "$one" -o lib.csv
grep_err "^commfit: import: mpi_library 'Open MPI v3.1.6': fit and predict follow Open MPI's collective switch rules before 4.1 \(the fixed decisions of its tuned component from 1.x to 4.0.x\)\$" \
    "Open MPI 3.1.6: the rules before 4.1, said"
run "$COMMFIT" import osu --np 2 --mpi-library 'Open MPI 5.0.3' "$one" -o lib.csv
grep_err "^commfit: import: mpi_library 'Open MPI v5.0.3': fit and predict follow Open MPI 4.1's collective switch rules \(the fixed decisions of its tuned component, which this version may not make\)\$" \
    "Open MPI 5.0.3: the rules are 4.1's, said"
run "$COMMFIT" import osu --np 2 --mpi-library 'MPICH 5.0' "$one" -o lib.csv
grep_err "^commfit: import: mpi_library 'MPICH Version: 5.0': fit and predict follow MPICH's collective switch rules \(its default thresholds of MPICH 3.x and 4.x, which this version may not keep\)\$" \
    "MPICH 5.0: the rules are 3.x's and 4.x's, said"
run "$COMMFIT" import osu --np 2 --mpi-library 'mpich 4.0.2' "$one" -o lib.csv
expect_err "commfit: import: mpi_library 'MPICH Version: 4.0.2': fit and predict follow MPICH's collective switch rules
commfit: import: wrote lib.csv: 20 rows in 1 table from 1 file" "MPICH: its rules are named"
run "$COMMFIT" import osu --np 2 --mpi-library 'MVAPICH2 2.3.7' "$one" -o lib.csv
expect_rc 0 "a library without rules is imported"
expect_err "commfit: import: mpi_library 'MVAPICH2 2.3.7': commfit knows the collective switch rules of MPICH and Open MPI only; fit and predict read this table without switch rules
commfit: import: wrote lib.csv: 20 rows in 1 table from 1 file" "a library without rules: said so"
run "$COMMFIT" import osu -q --np 2 --mpi-library 'MVAPICH2 2.3.7' "$one" -o lib.csv
check "-q: nothing said" test ! -s "$T/err"
rm -f lib.csv

# A name without a version, a version without a name, an empty one, several lines: refused,
# nothing written.
for typed in 'Open MPI' 'MPICH' '' 'mpich2' '4.1.6' 'v4.1.6' "$(printf 'Open MPI 4.1.6\nMPICH 4.0.2')"; do
    run "$COMMFIT" import osu --np 2 --mpi-library "$typed" "$one" -o bad.csv
    expect_rc 2 "--mpi-library '$typed' is refused"
    check "--mpi-library '$typed': no table written" test ! -e bad.csv
done
run "$COMMFIT" import osu --np 2 --mpi-library 'Open MPI' "$one" -o bad.csv
expect_err "commfit: import: --mpi-library 'Open MPI': expected the library's name and version, as 'Open MPI 4.1.6' or 'MPICH 4.0.2'
Try 'commfit import --help'." "without a version: the message"
run "$COMMFIT" import osu --np 2 --mpi-library "$(printf 'Open MPI 4.1.6\nMPICH 4.0.2')" "$one" -o bad.csv
expect_err "commfit: import: --mpi-library: expected one line, as 'Open MPI 4.1.6' or 'MPICH 4.0.2'
Try 'commfit import --help'." "several lines: the message"

# The point of it: fit reads the library from the table and follows its switch rules.
files=""
for n in 2 4 8 16 32 64 128 256; do files="$files $d/osu-np$n.txt"; done
for with in yes no; do
    opt=
    [ $with = yes ] && opt="--mpi-library=Open MPI 4.1.6"
    run "$COMMFIT" import osu -q ${opt:+"$opt"} --np 2,4,8,16,32,64,128,256 $files -o b-$with.csv
    expect_rc 0 "import the ORFEO bcast set, --mpi-library: $with"
    run "$COMMFIT" fit -q -i b-$with.csv --np 2,4,8,16,32,64,128 -o b-$with.json
    expect_rc 0 "fit np 2-128, --mpi-library: $with"
done
check "with the library: the across-np model follows Open MPI's rules" \
    grep -q '"rules": *"openmpi"' b-yes.json
check "without it: no rules" sh -c '! grep -q "\"rules\": *\"openmpi\"" b-no.json'
run "$COMMFIT" predict -m b-yes.json -p bcast -n 256 -b 1K -f csv
check "predict at np 256 names the algorithm Open MPI runs there (knomial tree)" \
    awk -F, 'NR == 2 { exit !($10 == "knomial tree") }' "$T/out"

# The help and the man page name the option.
run "$COMMFIT" import --help
check "--help names --mpi-library" grep -q -- "--mpi-library 'NAME VERSION'" "$T/out"
done_testing
