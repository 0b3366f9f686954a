# Across-np accuracy at scale, on simulated clusters (SimGrid SMPI, deterministic): per
# shipped platform, measure np 2 to 128, fit np 2-16 only, predict np 32, 64 and 128 at
# every measured size (FIT_NP and PREDICT_NP choose other splits), and compare with the simulated measurement the fit never saw.
# Prints, per platform and pattern and per held-out np (and per platform and np over every
# pattern): the median, 90th percentile and
# largest relative error, the coverage of the 95% intervals and their median width
# (hi/lo; "lo<=0" where the lower bound is not positive). Also the wall time of each
# simulation.
#   SIM_PLATFORMS   platforms to run (default: flat multicore fattree)
#   SIM_SELECTOR    collective selector (default: mpich); under ompi the sizes start at
#                   4 bytes (SMPI 3.32's ompi allreduce of no float divides by zero)
#   SIM_TABLES      a prefix of already simulated tables (PREFIXPLATFORMSUFFIX.csv) to use
#                   instead of measuring: SIM_TABLES=$top_srcdir/data/sim- reads the
#                   shipped tables (made with the same command and selector mpich)
#   SIM_SUFFIX      the suffix of those tables' names (default: none); -ompi reads the
#                   shipped tables of selector ompi, which stop at np 64 (PREDICT_NP=32,64)
#   FIT_NP          process counts the fit sees (default: 2,4,8,16); FIT_NP=2 with
#                   PREDICT_NP=8,16,32,64 checks the estimate from np=2 alone (the
#                   point-to-point estimate through each collective's np=2 times)
#   PREDICT_NP      held-out process counts to predict (default: 32,64,128); each must be
#                   in the tables
#   SIM_NP          process counts to simulate (default: 2,4,8,16,32,64,128)
set -eu
: "${COMMFIT:?run through make bench}"
: "${top_srcdir:?run through make bench}"
LC_ALL=C
export LC_ALL
T=$(mktemp -d "${TMPDIR:-/tmp}/commfit-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
if [ ! -x "$(dirname "$COMMFIT")/commfit-smpi" ] && [ -z "${SIM_TABLES:-}" ]; then
    echo "sim-accuracy: skipped: commfit-smpi not built (no SimGrid)"
    exit 0
fi
sel=${SIM_SELECTOR:-mpich}
pats=pingpong,bcast,reduce,allreduce,allgather,alltoall
sizes=1,4,16,64,256,1K,4K,16K,64K,256K,1M,2M
[ "$sel" = ompi ] && sizes=${sizes#1,}
nps=${SIM_NP:-2,4,8,16,32,64,128}
fit_np=${FIT_NP:-2,4,8,16}
predict_np=${PREDICT_NP:-32,64,128}
echo "# fit at np $fit_np, predict np $predict_np" >&2

for pf in ${SIM_PLATFORMS:-flat multicore fattree}; do
    tab="$T/$pf.csv"
    if [ -n "${SIM_TABLES:-}" ]; then
        cp "$SIM_TABLES$pf${SIM_SUFFIX:-}.csv" "$tab"
    else
        s0=$(date +%s)
        "$COMMFIT" measure -q --simulate "$top_srcdir/data/platforms/$pf.xml" --coll-selector "$sel" \
            --patterns $pats --sizes $sizes --np $nps -o "$tab"
        echo "# $pf: simulated np $nps in $(($(date +%s) - s0)) s of wall time" >&2
    fi
    "$COMMFIT" fit -i "$tab" --np "$fit_np" -o "$T/$pf.json" >/dev/null 2>"$T/fit.err" ||
        { cat "$T/fit.err" >&2; exit 1; }
    for p in $(echo $pats | tr , ' '); do
        [ "$p" = pingpong ] && continue
        # The held-out truth: the PREDICT_NP rows of this pattern, median time per point. A
        # reduction of fewer than 4 bytes carries no float: a call MPI returns from at once,
        # which the fit sets aside too.
        awk -F, -v p="$p" -v keep="$predict_np" 'BEGIN { n = split(keep, k, ","); for (i = 1; i <= n; i++) want[k[i]] = 1 }
            !/^#/ && $1 == p && ($2 in want) && !($4 == "float" && $3 < 4) {
            print $2, $3, $11 }' "$tab" >"$T/truth"
        [ -s "$T/truth" ] || continue
        cut -d' ' -f1,2 "$T/truth" >"$T/points"
        "$COMMFIT" predict -m "$T/$pf.json" -p "$p" --points "$T/points" -f csv >"$T/pred" 2>/dev/null || true
        # Rows in the same order as the points; a refused point counts as a miss.
        # One record a point: platform pattern np |relative error| covered hi/lo. An
        # upper bound "inf" (a network the fit never measured) covers any truth above lo;
        # its width is infinite ("inf" in the width column when it is the median).
        awk -F, 'NR > 1 { print $5, $6, $7 }' "$T/pred" | paste -d' ' "$T/truth" - |
            awk -v pf="$pf" -v p="$p" '{
                np = $1; truth = $3; t = $4; lo = $5; hi = $6; inf = hi == "inf"
                ok = (t != "" && t > 0)
                e = ok ? (t > truth ? t - truth : truth - t) / truth : 1e9
                c = (ok && lo <= truth && (inf || truth <= hi)) ? 1 : 0
                w = (ok && lo > 0) ? (inf ? 1e7 : hi / lo) : 1e9
                print pf, p, np, e, c, w
            }' >>"$T/points.all"
    done
done
# Per platform, pattern and held-out np; per platform and pattern; per platform.
awk -v keep="$predict_np" '
function pct(a, n, f,   i, j, t, s) {
    for (i = 1; i <= n; i++) s[i] = a[i]
    for (i = 2; i <= n; i++) { t = s[i]; for (j = i - 1; j >= 1 && s[j] > t; j--) s[j + 1] = s[j]; s[j + 1] = t }
    return f == 0.5 ? (n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2) : s[int(f * (n - 1) + 0.5) + 1]
}
function row(key, label,   n, i, e, w) {
    n = cnt[key]
    for (i = 1; i <= n; i++) { e[i] = err[key, i]; w[i] = wid[key, i] }
    med = pct(w, n, 0.5)
    printf "%s %5d %7.1f%% %7.1f%% %7.1f%% %8.0f%% %8s\n", label, n, 100 * pct(e, n, 0.5),
        100 * pct(e, n, 0.9), 100 * pct(e, n, 1), 100 * cov[key] / n,
        (med >= 1e8 ? "lo<=0" : med >= 1e7 ? "inf" : sprintf("%.2f", med))
}
function add(key, e, c, w) { n = ++cnt[key]; err[key, n] = e; wid[key, n] = w; cov[key] += c }
{
    add($1 SUBSEP $2 SUBSEP $3, $4, $5, $6); add($1 SUBSEP $2, $4, $5, $6); add($1, $4, $5, $6)
    add($1 SUBSEP "all" SUBSEP $3, $4, $5, $6)
    if (!seen[$1]++) pfs[++npf] = $1
    if (!seen[$1, $2]++) pats[$1, ++npat[$1]] = $2
}
END {
    nkeep = split(keep, kept, ",")
    printf "%-10s %-10s %5s %5s %8s %8s %8s %9s %8s\n", "platform", "pattern", "np", "n", "median", "p90", "max", "coverage", "width"
    for (a = 1; a <= npf; a++) {
        pf = pfs[a]
        for (b = 1; b <= npat[pf]; b++) {
            p = pats[pf, b]
            for (i = 1; i <= nkeep; i++)
                if ((pf SUBSEP p SUBSEP (np = kept[i])) in cnt) row(pf SUBSEP p SUBSEP np, sprintf("%-10s %-10s %5d", pf, p, np))
            row(pf SUBSEP p, sprintf("%-10s %-10s %5s", pf, p, "all"))
        }
        for (i = 1; i <= nkeep; i++)
            if ((pf SUBSEP "all" SUBSEP (np = kept[i])) in cnt) row(pf SUBSEP "all" SUBSEP np, sprintf("%-10s %-10s %5d", pf, "all", np))
        row(pf, sprintf("%-10s %-10s %5s", pf, "all", "all"))
    }
}' "$T/points.all"
