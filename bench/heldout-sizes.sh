# Accuracy inside the measured range, on real data the fit never saw: per shipped table
# of real results (data/*.csv but the simulated data/sim-*), every third size of each
# (pattern, np, datatype, block count) is held out (the second, fifth, ...; never the
# smallest or the largest, so that every answer is an interpolation), the rest is fitted,
# and predict is compared with the held-out measurements (a derived datatype's at its
# block count, MPI_Pack's per layout packed). The baseline a model must not lose to:
# log-log interpolation between the measured neighbours. Prints per table: the number of
# held-out points, the model's median, 90th percentile and largest relative error, the
# baseline's median and 90th percentile, the coverage of the 95% intervals and their
# median width (hi/lo).
#   HELDOUT_TABLES  the tables to use (default: every data/*.csv but sim-*)
#   FIT_ARGS        extra arguments to commfit fit (e.g. "--model linear")
#   HELDOUT_PHASE   which third of the sizes is held out: 2 (default: the second, fifth,
#                   ... positive size), 0 (the third, sixth, ...) or 1 (the fourth,
#                   seventh, ...); a second split of the same tables
#   HELDOUT_POINTS  a file to which every held-out point is appended as one line:
#                   table pattern np datatype blocks bytes truth t lo hi log-log
#   HELDOUT_TOP     K > 0: hold out the K largest positive sizes of each group instead
#                   (where 4 positive sizes stay), so that every answer extrapolates beyond
#                   the measured sizes; the baseline is then the log-log line through the
#                   two largest sizes kept, carried beyond them
set -eu
case ${HELDOUT_PHASE:-2} in
0 | 1 | 2) ;;
*) echo "HELDOUT_PHASE: expected 0, 1 or 2, got '$HELDOUT_PHASE'" >&2; exit 2 ;;
esac
case ${HELDOUT_TOP:-0} in
'' | *[!0-9]*) echo "HELDOUT_TOP: expected a number of sizes, got '$HELDOUT_TOP'" >&2; exit 2 ;;
esac
: "${COMMFIT:?run through make bench}"
: "${top_srcdir:?run through make bench}"
LC_ALL=C
export LC_ALL
T=$(mktemp -d "${TMPDIR:-/tmp}/commfit-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

# The simulated tables are judged on held-out np (sim-accuracy.sh).
tables=${HELDOUT_TABLES:-$(ls "$top_srcdir"/data/*.csv | grep -v -e '/sim-')}
printf '%-58s %5s %8s %8s %8s %9s %9s %9s %7s\n' table n median p90 max ll-median ll-p90 coverage width
for tab in $tables; do
    name=$(basename "$tab" .csv)
    # Split: a size is held out when it is every third distinct positive size of its
    # group, not the first or last. A group is a pattern, np, datatype and block count
    # (a derived-datatype sweep measures each layout at several); MPI_Pack rows are
    # per layout packed (ddt_layout), as fit reads them, pack_LAYOUT. Where no block count
    # was measured at two sizes (struct: the blocks follow its particles), the count
    # follows the size and the group is the layout's. Truth: pattern np datatype blocks
    # (- for none) bytes t_med; trainpts the same of the rows kept.
    awk -F, -v phase="${HELDOUT_PHASE:-2}" -v top="${HELDOUT_TOP:-0}" -v train="$T/train.csv" -v truth="$T/truth" \
        -v trainpts="$T/trainpts" '
        /^#/ { print > train; next }
        !hdr { hdr = 1; print > train; for (i = 1; i <= NF; i++) if ($i == "ddt_layout") lay = i; next }
        {
            dt = $4
            if (dt == "pack" && lay && $lay != "" && $lay != "pack") dt = "pack_" $lay
            n++; line[n] = $0; g[n] = $1 "," $2 "," dt; kb[n] = ($5 == "" ? "-" : $5)
            b[n] = $3 + 0; t[n] = $11 + 0
            if (b[n] > 0 && !((g[n], kb[n], b[n]) in seen)) {
                seen[g[n], kb[n], b[n]] = 1
                if (++nsz[g[n], kb[n]] == 2) multi[g[n]] = 1
            }
        }
        END {
            for (i = 1; i <= n; i++) {
                k[i] = g[i] "," (g[i] in multi ? kb[i] : "-")
                if (!((k[i], b[i]) in known)) { known[k[i], b[i]] = 1; ns[k[i]]++; sz[k[i], ns[k[i]]] = b[i] }
            }
            for (key in ns) {
                m = ns[key]
                for (i = 1; i <= m; i++) s[i] = sz[key, i]
                for (i = 2; i <= m; i++) { v = s[i]; for (j = i - 1; j >= 1 && s[j] > v; j--) s[j + 1] = s[j]; s[j + 1] = v }
                r = 0
                for (i = 1; i <= m; i++) {
                    if (s[i] <= 0) continue
                    r++
                    if (top > 0) { if (i > m - top && r > 4) held[key, s[i]] = 1; continue }
                    if (r > 1 && r % 3 == phase && i < m) held[key, s[i]] = 1
                }
            }
            for (i = 1; i <= n; i++) {
                split(k[i], f, ",")
                if ((k[i], b[i]) in held) {
                    print f[1], f[2], f[3], f[4], b[i], t[i] > truth
                } else {
                    print line[i] > train
                    if (b[i] > 0) print f[1], f[2], f[3], f[4], b[i], t[i] > trainpts
                }
            }
        }' "$tab"
    [ -s "$T/truth" ] || continue
    "$COMMFIT" fit ${FIT_ARGS:-} -i "$T/train.csv" -o "$T/m.json" >/dev/null 2>"$T/fit.err" ||
        { echo "# $name: fit failed: $(head -1 "$T/fit.err")"; continue; }
    # The baseline from the training rows: log-log between the neighbouring sizes' medians.
    # Where a size has several rows (node pairs, runs) the baseline reads their median, as
    # the model's points do: one row picked by sort order would make it a lottery.
    sort -k1,1 -k2,2n -k3,3 -k4,4 -k5,5n -k6,6g "$T/trainpts" |
        awk '
            function flush(   m) {
                if (!n) return
                m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
                print key, m
                n = 0
            }
            { k = $1 " " $2 " " $3 " " $4 " " $5; if (k != key) { flush(); key = k } v[++n] = $6 }
            END { flush() }' >"$T/known"
    : >"$T/rec"
    awk '{ print $1, $2, $3, $4 }' "$T/truth" | sort -u >"$T/groups"
    while read -r p np dt blk; do
        sel='$1 == p && $2 == np && $3 == dt && $4 == blk { print $5, $6 }'
        awk -v p="$p" -v np="$np" -v dt="$dt" -v blk="$blk" "$sel" "$T/truth" >"$T/g.truth"
        awk '{ print '"$np"', $1 }' "$T/g.truth" >"$T/g.points"
        # At the group's block count where it has one; a plain row's count (1 for byte) is
        # none of its fit's, which predict refuses (exit 2): then without.
        rc=0
        if [ "$blk" != - ]; then
            "$COMMFIT" predict -m "$T/m.json" -p "$p" -d "$dt" --blocks "$blk" \
                --points "$T/g.points" -f csv >"$T/g.pred" 2>/dev/null || rc=$?
        fi
        if [ "$blk" = - ] || [ $rc = 2 ]; then
            "$COMMFIT" predict -m "$T/m.json" -p "$p" -d "$dt" --points "$T/g.points" -f csv \
                >"$T/g.pred" 2>/dev/null || true
        fi
        awk -v p="$p" -v np="$np" -v dt="$dt" -v blk="$blk" "$sel" "$T/known" >"$T/g.known"
        awk -F, 'NR > 1 { print $5, $6, $7 }' "$T/g.pred" | paste -d' ' "$T/g.truth" - |
            awk -v kf="$T/g.known" -v dump="${HELDOUT_POINTS:-}" -v id="$name $p $np $dt $blk" \
                -v top="${HELDOUT_TOP:-0}" '
            BEGIN { while ((getline l < kf) > 0) { split(l, a, " "); n++; km[n] = a[1]; kt[n] = a[2] } }
            function interp(m,   i, lo, hi) {
                lo = 0; hi = 0
                for (i = 1; i <= n; i++) { if (km[i] < m) lo = i; if (km[i] > m && !hi) hi = i }
                if (top > 0 && lo == n && n >= 2) { lo = n - 1; hi = n }
                if (!lo || !hi) return -1
                return exp(log(kt[lo]) + (log(kt[hi]) - log(kt[lo])) * (log(m) - log(km[lo])) / (log(km[hi]) - log(km[lo])))
            }
            {
                m = $1; truth = $2; t = $3; lo = $4; hi = $5
                ok = (t != "" && t > 0)
                e = ok ? (t > truth ? t - truth : truth - t) / truth : 1e9
                c = (ok && lo <= truth && truth <= hi) ? 1 : 0
                w = (ok && lo > 0) ? hi / lo : 1e9
                b = interp(m)
                be = b > 0 ? (b > truth ? b - truth : truth - b) / truth : 1e9
                print e, c, w, be
                if (dump != "") print id, m, truth, (ok ? t : "-"), lo, hi, (b > 0 ? b : "-") >> dump
            }' >>"$T/rec"
    done <"$T/groups"
    awk -v name="$name" '
        function pct(a, n, f,   i, j, v, s) {
            for (i = 1; i <= n; i++) s[i] = a[i]
            for (i = 2; i <= n; i++) { v = s[i]; for (j = i - 1; j >= 1 && s[j] > v; j--) s[j + 1] = s[j]; s[j + 1] = v }
            return f == 0.5 ? (n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2) : s[int(f * (n - 1) + 0.5) + 1]
        }
        { n++; e[n] = $1; c += $2; w[n] = $3; b[n] = $4 }
        END {
            if (!n) exit
            wm = pct(w, n, 0.5)
            printf "%-58s %5d %7.1f%% %7.1f%% %7.1f%% %8.1f%% %8.1f%% %8.0f%% %7s\n", name, n,
                100 * pct(e, n, 0.5), 100 * pct(e, n, 0.9), 100 * pct(e, n, 1),
                100 * pct(b, n, 0.5), 100 * pct(b, n, 0.9), 100 * c / n,
                (wm >= 1e8 ? "lo<=0" : sprintf("%.2f", wm))
        }' "$T/rec"
done
