# valgrind memcheck on fit, predict (every answer source and output form) and import, on
# small inputs: no invalid access, no use of uninitialised values, no definite or
# indirect leak. Skipped without valgrind, and in a sanitizer build (ASan and valgrind
# cannot share a process; that build checks memory itself).
. "$top_srcdir/tests/setup.sh"

if ! command -v valgrind >/dev/null 2>&1; then
    skip "valgrind memcheck: valgrind is not installed"
    done_testing
    exit
fi
if ldd "$COMMFIT" 2>/dev/null | grep -q 'libasan\|libubsan' ||
    grep -q '__asan_init\|__ubsan_handle' "$COMMFIT" 2>/dev/null; then
    skip "valgrind memcheck: commfit is built with sanitizers"
    done_testing
    exit
fi

# valgrind 3.19 cannot read the DWARF 5 that clang 14 writes by default ("unhandled dwarf2
# abbrev form"); such a build says nothing about memory, so the test says why it skips.
# (.ci/run builds with clang -gdwarf-4, which valgrind reads.)
valgrind -q --log-file="$T/probe.log" "$COMMFIT" --version >/dev/null 2>&1 || :
if grep -q 'debuginfo reader\|unhandled dwarf2' "$T/probe.log"; then
    skip "valgrind memcheck: this valgrind cannot read commfit's debug information (build with -gdwarf-4)"
    done_testing
    exit
fi

# Still-reachable blocks (MPI's and GSL's one-time setup) are not leaks; only definite
# and indirect ones count, and any memory error fails.
vg() {
    valgrind -q --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --show-leak-kinds=definite,indirect --error-exitcode=99 \
        --log-file="$T/vg.log" "$@"
}

# vcheck RC DESC CMD...: CMD under valgrind exits RC with an empty valgrind log.
vcheck() {
    want=$1 desc=$2
    shift 2
    rc=0
    vg "$@" >"$T/out" 2>"$T/err" || rc=$?
    if [ "$rc" -eq "$want" ] && [ ! -s "$T/vg.log" ]; then
        pass "$desc: exits $want, valgrind clean"
    else
        fail "$desc: exits $want, valgrind clean"
        echo "#   exited $rc"
        sed 's/^/#   /' "$T/err" "$T/vg.log" | head -60
    fi
}

{
    echo "# schema: 1"
    echo "$HDR"
    awk 'BEGIN {
        srand(7)
        for (k = 0; k < 12; k++) {
            m = k == 0 ? 0 : 4 ^ (k - 1)
            t = (2 + m / 8000) * (1 + 0.01 * (rand() - 0.5))
            printf "pingpong,2,%d,byte,,100,5,%.6g,%.6g,%.6g,%.6g,%.4g,%.6g\n", m, t, t, t, t, t / 50, m / (1.048576 * t)
            for (p = 2; p <= 8; p *= 2) {
                a = (3 * log(p) / log(2) + m * (p - 1) / 7000) * (1 + 0.01 * (rand() - 0.5))
                printf "alltoall,%d,%d,byte,,100,5,%.6g,%.6g,%.6g,%.6g,%.4g,\n", p, m, a, a, a, a, a / 50
                r = (2 * log(p) / log(2) + m / 3000) * (1 + 0.01 * (rand() - 0.5))
                if (m >= 4)
                    printf "allreduce,%d,%d,float,,100,5,%.6g,%.6g,%.6g,%.6g,%.4g,\n", p, m, r, r, r, r, r / 50
            }
        }
    }'
} >t.csv

vcheck 0 "fit (auto)" "$COMMFIT" fit -i t.csv -o m.json
vcheck 0 "fit --model poly2 --formulas c" "$COMMFIT" fit -i t.csv -o m2.json -m poly2 --formulas c
vcheck 1 "fit of a table it refuses" "$COMMFIT" fit -i "$top_srcdir/tests/cli/valgrind.sh" -o bad.json
vcheck 0 "predict from a fit" "$COMMFIT" predict -m m.json -p pingpong -n 2 -b 0:1M -f csv
vcheck 0 "predict beyond the measured sizes (widened by the backtest)" "$COMMFIT" predict -m m.json \
    -p pingpong -n 2 -b 16M,1G -f table
check "the note says the interval was widened" grep -q 'interval widened' out
vcheck 0 "predict across np, json" "$COMMFIT" predict -m m.json -p alltoall -n 6,16 -b 1K,64K -f json
check "the answer at np 6 comes from the across-np model" grep -q '"across-np"' out
vcheck 0 "predict from the point-to-point estimate" "$COMMFIT" predict -m m.json -p bcast -n 32 \
    -b 4K -f table
check "bcast comes from the point-to-point estimate" grep -q 'p2p-estimate' out
printf '2 1K\n4 64\n16 1M\n' >points
vcheck 0 "predict --points" "$COMMFIT" predict -m m.json -p allreduce --points points -f csv
check "one answer per point" test "$(grep -c '^allreduce,' out)" -eq 3
vcheck 0 "predict --formula" "$COMMFIT" predict -m m.json -p alltoall -n 4 --formula --lang python
vcheck 0 "predict --formula from the point-to-point estimate" "$COMMFIT" predict -m m.json \
    -p bcast -n 32 --formula --lang c
check "its lines through the estimate" grep -q '^static inline double T_bcast_np32(double m)' out
vcheck 2 "predict with a bad size" "$COMMFIT" predict -m m.json -p pingpong -n 2 -b 1X
R="$top_srcdir/tests/data/realdata"
vcheck 0 "import imb" "$COMMFIT" import -q imb "$R/imb_stackhpc_ompi4_ib_pingpong.txt" -o imb.csv
vcheck 0 "import osu" "$COMMFIT" import -q osu --np 2 "$R/osu532_hpccofc_ib_latency_compute001.txt" \
    -o osu.csv
vcheck 1 "import of a file it refuses" "$COMMFIT" import -q osu t.csv -o bad.csv
done_testing
