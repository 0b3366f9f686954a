# The real multi-np sets in data/realnp (bench/accuracy.sh holds their process counts
# out): each shipped table is what its recorded import command makes of the raw files
# beside it, holds the process counts its README names, and fits across them.
. "$top_srcdir/tests/setup.sh"

n=0
for tab in "$top_srcdir"/data/realnp/*.csv; do
    [ -f "$tab" ] || continue
    n=$((n + 1))
    name=$(basename "$tab" .csv)
    cmd=$(sed -n 's/^# command: commfit //p' "$tab")
    check "$name: records its import command" test -n "$cmd"
    # The command names its inputs relative to the top of the source tree.
    (cd "$top_srcdir" && eval "\"\$COMMFIT\" $(echo "$cmd" | sed "s| -o [^ ]*$| -o '$T/again.csv'|")") \
        >"$T/out" 2>"$T/err"
    check "$name: its import command runs again" test -s "$T/again.csv"
    grep -v '^#' "$tab" >"$T/want"
    grep -v '^#' "$T/again.csv" >"$T/got" 2>/dev/null || :
    check "$name: the same rows from the raw files" cmp -s "$T/want" "$T/got"
    # And the same metadata (the ORFEO sets: mpi_library, from --mpi-library; README.md),
    # but for the command, which names another output, and the version of commfit.
    grep '^#' "$tab" | grep -v '^# command: \|^# commfit: ' >"$T/want"
    grep '^#' "$T/again.csv" 2>/dev/null | grep -v '^# command: \|^# commfit: ' >"$T/got" || :
    check "$name: the same metadata from the raw files" cmp -s "$T/want" "$T/got"
    # The library that ran them, where the provenance names it (README.md: the ORFEO sets
    # ran Open MPI 4.1.6); the cloud sets' Open MPI version is not known, so none.
    case "$name" in
    orfeo-*) check "$name: records Open MPI 4.1.6, as its README says" \
        grep -qx '# mpi_library: Open MPI v4.1.6' "$tab" ;;
    abci-*) check "$name: records Open MPI 4.0.5, as its README says" \
        grep -qx '# mpi_library: Open MPI v4.0.5' "$tab" ;;
    *) check "$name: records no library version, which its README does not know" \
        sh -c "! grep -q '^# mpi_library:' '$tab'" ;;
    esac
    nps=$(grep -v '^#' "$tab" | tail -n +2 | cut -d, -f2 | sort -un | wc -l | tr -d ' ')
    check "$name: 4 process counts at least ($nps)" test "$nps" -ge 4
    first3=$(grep -v '^#' "$tab" | tail -n +2 | cut -d, -f2 | sort -un | head -3 | tr '\n' ',')
    run "$COMMFIT" fit -q -i "$tab" --np "${first3%,}" -o m.json
    expect_rc 0 "$name: fits at its 3 smallest process counts"
    top=$(grep -v '^#' "$tab" | tail -n +2 | cut -d, -f2 | sort -un | tail -1)
    pat=$(grep -v '^#' "$tab" | tail -n +2 | cut -d, -f1 | sort -u | head -1)
    run "$COMMFIT" predict -m m.json -p "$pat" -n "$top" -b 1K -f csv
    expect_rc 0 "$name: predicts $pat at np $top, beyond the fitted"
    check "$name: and says it extrapolates in np" grep -q ',np,' "$T/out"
    # Every size measured at the largest np, held out: the 95% intervals, widened by the
    # backtest for each doubling beyond the fitted np, never reach down to 0, and they hold
    # at least 90% of the measured times (medians of the runs); but in sets whose largest
    # np changes regime beyond anything the smaller ones show (README.md: gke-cpu-ompi's
    # large messages at 256 nodes), which no reading of the fitted np can foretell: there,
    # the sizes whose growth accelerated inside the fitted np.
    grep -v '^#' "$tab" | awk -F, -v p="$pat" -v top="$top" '$1 == p && $2 == top && $3 >= 4 {
        print $2, $3, $11 }' | sort -k2,2n >truth
    cut -d' ' -f1,2 truth | uniq >points
    run "$COMMFIT" predict -m m.json -p "$pat" --points points -f csv
    awk -F, 'NR > 1 { print $3, $6, $7 }' "$T/out" >bounds
    # covered MAX: "held n above-0" over the held-out sizes of MAX bytes at most
    covered() { awk -v max="$1" 'NR == FNR { lo[$1] = $2; hi[$1] = $3; next }
               $2 <= max { k[$2] = k[$2] " " $3 }
               END { for (s in k) { n++; m = split(substr(k[s], 2), v, " ")
                         # the median of the runs at this size
                         for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
                         t = m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
                         pos += lo[s] > 0
                         if (lo[s] <= t && t <= hi[s]) c++ }
                     printf "%d %d %d", c + 0, n, pos }' bounds truth; }
    cov=$(covered 1e300)
    set -- $cov
    check "$name: np $top held out, no interval down to 0 ($3 of $2 above 0)" test "$3" -eq "$2"
    case "$name" in
    gke-cpu-ompi)
        # Up to 16 KiB the time grew 1.8x then 3.3x per doubling of nodes, and 4-5x at the
        # held-out np: the upper bounds hold that growth going on accelerating.
        set -- $(covered 16384)
        check "$name: np $top held out, up to 16 KiB its intervals hold every size ($1 of $2)" \
            test "$1" -eq "$2" -a "$2" -gt 0
        ;;
    *) check "$name: np $top held out, its intervals hold 90% of the sizes ($1 of $2)" \
        awk -v c="$1" -v n="$2" 'BEGIN { exit !(n > 0 && c >= 0.9 * n) }' ;;
    esac
done
check "real multi-np sets are shipped ($n)" test "$n" -ge 1
done_testing
