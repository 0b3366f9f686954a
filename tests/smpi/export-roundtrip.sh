# The export round trip: fit the ping-pong of a shipped table (this machine, MPICH,
# shared memory), export it as a SimGrid platform, measure commfit's own ping-pong on
# that platform under SMPI, and find every size the model covers within 5% of what
# 'commfit predict' says there. Skips without SimGrid (commfit-smpi not built).
. "$top_srcdir/tests/setup.sh"

if [ "${HAVE_SMPI:-no}" != yes ]; then
    echo "1..0 # SKIP commfit-smpi not built (no SimGrid: apt-get install libsimgrid-dev)"
    exit 0
fi

SHM=imb2021_mpich402_1node_np2_all
SIZES=0:4M

# column FILE NAME: the index of the CSV column NAME in FILE's header.
column() {
    grep -v '^#' "$1" | head -n 1 | tr ',' '\n' | grep -n -x "$2" | cut -d: -f1
}

# within MODEL TABLE LIMIT: every pingpong row of TABLE (its median) is within LIMIT
# (relative) of MODEL's own prediction at that size (--model-alone: the model the export
# carries, not corrected by the measured points; of datatype $DT where set: the one export
# carries); writes the errors to $T/errors.
within() {
    "$COMMFIT" predict --model-alone -m "$1" -p pingpong ${DT:+-d "$DT"} -n 2 -b "$SIZES" -f csv \
        >"$T/pred.csv" || return 1
    pb=$(column "$T/pred.csv" bytes)
    pt=$(column "$T/pred.csv" t_us)
    tb=$(column "$2" bytes)
    tt=$(column "$2" t_med_us)
    tp=$(column "$2" pattern)
    grep -v '^#' "$2" >"$T/sim.csv"
    awk -F, -v pb="$pb" -v pt="$pt" -v tb="$tb" -v tt="$tt" -v tp="$tp" -v lim="$3" '
        NR == FNR { if (FNR > 1) want[$pb] = $pt; next }
        FNR == 1 || $tp != "pingpong" { next }
        {
            n++
            if (!($tb in want)) { print "# no prediction at " $tb; bad = 1; next }
            e = ($tt - want[$tb]) / want[$tb]
            printf "#   %8d B  model %10.4f us  simulated %10.4f us  %+.3f%%\n", $tb, want[$tb], $tt, 100 * e
            if (e > lim || e < -lim) bad = 1
        }
        END { if (n != expected) { print "# rows: " n ", expected " expected; bad = 1 }; exit bad }
    ' expected="$4" "$T/pred.csv" "$T/sim.csv" >"$T/errors"
}

NSIZES=24 # 0, 1, 2, 4, ... 4 MiB
LIMIT=0.05

# roundtrip ID DESC MODEL [MEASURE OPTIONS]: export MODEL to ID.xml, measure on it into
# ID.csv, compare.
roundtrip() {
    id=$1
    name=$2
    model=$3
    shift 3
    run "$COMMFIT" export smpi -m "$model" -o "$T/$id.xml" --hosts 4
    expect_rc 0 "$name: export"
    # Two ranks start a sample apart by up to one message, which biases the mean of a
    # ping-pong by about 1/(4 reps): 200 calls make that 0.1%, not the 0.5% of the
    # simulation's default 50.
    run "$COMMFIT" measure --simulate "$T/$id.xml" "$@" --np 2 --patterns pingpong --sizes "$SIZES" \
        --reps 200 --samples 1 -o "$T/$id.csv"
    expect_rc 0 "$name: measure --simulate"
    if within "$model" "$T/$id.csv" "$LIMIT" "$NSIZES"; then
        pass "$name: every size within $LIMIT of commfit predict"
    else
        fail "$name: every size within $LIMIT of commfit predict"
    fi
    cat "$T/errors"
}

run "$COMMFIT" fit -i "$top_srcdir/data/$SHM.csv" --patterns pingpong -o "$T/auto.json"
expect_rc 0 "fit the shipped table's ping-pong (auto)"
roundtrip auto "auto fit" "$T/auto.json"

run "$COMMFIT" fit -i "$top_srcdir/data/$SHM.csv" --patterns pingpong --model poly2 -o "$T/poly2.json"
expect_rc 0 "fit it as poly2"
printf 'node-2\nnode-3\n' >"$T/hosts"
roundtrip poly2 "poly2 fit, on hosts 2 and 3" "$T/poly2.json" --hostfile "$T/hosts"

roundtrip shipped "the shipped model" "$top_srcdir/models/$SHM.json"

# A derived-datatype sweep's contiguous fit (piecewise, stepping up between segments a few
# bytes apart: 2040 to 2044, 8192 to 16000), its steps included, within what the export
# promises (1%) and the ping-pong's start bias (0.1%): 1.5%.
SIZES=4,112,120,2040,2044,8192,16000,65536,1M,4M
NSIZES=10
LIMIT=0.015
DT=contiguous
roundtrip ddt "a datatype sweep's contiguous fit, its steps" "$top_srcdir/models/ddt-vm-mpich402-np2.json"

done_testing
