# Derived datatypes on data the fit never saw: the shipped sweep (data/ddt-*.csv, or
# DDT_TABLE) split three ways, each layout's fit judged on the rows it did not see.
#   blocks-a  fitted: 1 block and every other block count above it (2, 4, 6, 8, 10, 1000);
#             predicted: the others (3, 5, 7, 9, 100)
#   blocks-b  the other way round (1000 blocks then extrapolated from 100)
#   sizes     fitted: up to 512 KiB; predicted: 1 MiB to 4 MiB (extrapolated in size)
#   top       fitted: up to 100 blocks; predicted: 1000 (extrapolated 10x in blocks)
#   top2      fitted: up to 10 blocks; predicted: 100 and 1000
#   one       fitted: 2 blocks and more; predicted: 1 (below the counts; contiguous kept)
# Prints per split and layout (vector ... pack_hindexed; struct, whose block count follows
# the size, has no block split) the held-out rows, the median and 90th percentile of the
# relative error of predict --blocks, the coverage of its 95% intervals and their median
# width (hi/lo).
set -eu
: "${COMMFIT:?set COMMFIT to the commfit binary}"
: "${top_srcdir:?set top_srcdir to the source tree}"
LC_ALL=C
export LC_ALL
T=$(mktemp -d "${TMPDIR:-/tmp}/commfit-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
tab=${DDT_TABLE:-$(ls "$top_srcdir"/data/ddt-*.csv | head -1)}

# split NAME: train.csv (metadata, header and the rows fitted) and held (the others:
# datatype as fitted, blocks, bytes, measured median).
split() {
    awk -F, -v how="$1" -v train="$T/train.csv" -v held="$T/held" '
        /^#/ || $1 == "pattern" { print > train; next }
        { dt = $4 == "pack" ? "pack_" $15 : $4; b = $5 + 0
          if (how == "sizes") fit = $3 + 0 <= 524288
          else if (how == "top") fit = b != 1000
          else if (how == "top2") fit = b < 100
          else if (how == "one") fit = b != 1 || dt == "contiguous"
          else { odd = b == 1000 || (b <= 10 && b % 2 == 0); fit = b == 1 || (how == "blocks-a" ? odd : !odd) }
          if (fit) print > train; else if (dt != "struct" && dt != "pack_struct" || how == "sizes") print dt, b, $3, $11 > held }' "$tab"
}

printf '%-9s %-14s %4s %8s %8s %9s %7s\n' split layout n median p90 coverage width
for how in ${DDT_SPLITS:-blocks-a blocks-b sizes top top2 one}; do
    split "$how"
    "$COMMFIT" fit -q -i "$T/train.csv" -o "$T/m.json"
    while read -r dt b m t; do
        if [ "$dt" = struct ] || [ "$dt" = pack_struct ]; then
            bl=
        else
            bl="--blocks $b"
        fi
        # shellcheck disable=SC2086
        "$COMMFIT" predict -m "$T/m.json" -p pingpong -n 2 -d "$dt" $bl -b "$m" -f csv 2>/dev/null |
            awk -F, -v dt="$dt" -v t="$t" 'NR == 2 { print dt, t, $5, $6, $7 }'
    done <"$T/held" >"$T/pred"
    sort -k1,1 "$T/pred" | awk -v how="$how" '
        function flush(   i, j, v, p90, med, w) {
            if (n == 0) return
            for (i = 2; i <= n; i++) { v = e[i]; for (j = i - 1; j >= 1 && e[j] > v; j--) e[j + 1] = e[j]; e[j + 1] = v }
            for (i = 2; i <= n; i++) { v = wd[i]; for (j = i - 1; j >= 1 && wd[j] > v; j--) wd[j + 1] = wd[j]; wd[j + 1] = v }
            med = n % 2 ? e[(n + 1) / 2] : (e[n / 2] + e[n / 2 + 1]) / 2
            p90 = e[int(0.9 * (n - 1) + 0.5) + 1]
            w = n % 2 ? wd[(n + 1) / 2] : (wd[n / 2] + wd[n / 2 + 1]) / 2
            printf "%-9s %-14s %4d %7.1f%% %7.1f%% %8.0f%% %7.2f\n", how, cur, n, 100 * med, 100 * p90, 100 * cov / n, w
            n = cov = 0
        }
        $1 != cur { flush(); cur = $1 }
        { n++; e[n] = ($3 - $2) / $2; if (e[n] < 0) e[n] = -e[n]
          cov += $2 >= $4 && $2 <= $5; wd[n] = $4 > 0 ? $5 / $4 : 1e9 }
        END { flush() }'
done
