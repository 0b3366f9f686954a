# Issue 16's accuracy figures, each on data the fit never saw and against its target, from
# shipped data only (no measurement, no simulation run): a few minutes from a built tree.
#   1  at scale, no contention: data/sim-flat (SMPI, selectors mpich and ompi), fit np 2-16,
#      predict np 64: median <= 5%, p90 <= 20%, coverage >= 90%, median width <= 3x; and
#      data/sim-ethflat (flat's structure, 25 Gb/s links of 1.5 us for 100 Gb/s of 0.5 us),
#      made at stop 40 and judged once with that stop's code: held out, keep it so
#   2  real multi-np results (data/realnp/*.csv, see data/realnp/README.md): fit the
#      smaller process counts, predict 2x and 4x the largest fitted: median <= 10%,
#      p90 <= 30%, coverage >= 90%; every set but one has been looked at while developing
#      (gce was judged once with 73256df at stop 31, then its points were read while
#      designing that stop's across-np formula carried through the fitted np's own fits;
#      azure-aks-gpu-ompi, added at stop 32, was judged once with that stop's code (62dfe28)
#      and held out until stop 40, whose survey of goal 2's misses printed its points);
#      aws-pcluster-cpu-ompi, added at stop 40, was judged once with that stop's code
#      (00edbdb) and is held out: keep it so; abci-vnode, abci-anode, nrel-eagle-1ppn and
#      orfeo-thin, added at stop 59 (a helper session found and judged them with 8b9510c;
#      their misses were read for the stop's note, no code was made from them), are held out:
#      keep them so. Each set also prints the
#      spread of its runs (a run against the median of its size and np, where a point was run
#      3 times or more): roughly the floor no prediction of one run can go below
#   3  bisection-limited network: data/sim-fattree, fit np 2-32, predict np 64:
#      median <= 15%, p90 <= 40%, coverage >= 80%
#   3t platforms the models were once held out on and developed on since, each fit np 2-16
#      and fit np 2-32, predict np 64, judged by goal 3's targets (median <= 15%, p90 <= 40%,
#      coverage >= 80%), and each split also judged without the table's launch probes
#      (rank_latency_* and pair_exchange_*; ", no probe"): the across-np interval's own
#      figures, where with the probes np 64's farther ranks leave it without an upper bound:
#      data/sim-torus (a 3-D torus: the hops and links a step crosses grow with np), held
#      out at stop 24; data/sim-dragonfly (4 groups of 32 nodes, one link between groups),
#      held out at stop 24, developed on at stop 25 (the probe's latency in the answer);
#      data/sim-racks (4 racks of 8 four-core nodes, one uplink a rack), held out at stop 25
#      and judged once, then the share of the ranks that wait on a step (6d276be) was shaped
#      after its reduce and allgather points; at stop 26 the barrier replay and the
#      pair-exchange probe were developed on racks (their tables, and torus's and
#      dragonfly's, simulated again with that probe: rows identical or within 7e-6);
#      data/sim-pods (a three-level fat tree of 64 dual-core nodes, np 64 the first across
#      two pods), held out at stop 25, judged then and once at stop 26, developed on at
#      stop 27 (the barrier's waits taken from the fitted times, shaped after its bcast);
#      data/sim-islands (8 islands of 8 dual-core nodes on an Ethernet-class network, each
#      island's backplane shared by its traffic, one uplink an island; np 32 the first
#      across two islands) and data/sim-leaves (a two-level fat tree of 64 dual-core nodes,
#      8 a leaf, 2:1 at the leaves; np 32 the first across two leaves), held out at stop 27
#      and judged once each; at stop 28 an experiment (the np=2 rows faster than their
#      ping-pong dropped from the fit, not kept) was judged on their Open MPI tables among
#      others, so they count as seen; data/sim-fatnodes (8 nodes of 16 cores on one switch
#      whose backplane all nodes' traffic shares, 4:1 when all send; np 2-16 in one node,
#      np 32 the first across two), simulated at stop 28 and judged once with that stop's
#      first code (no prediction changed), then developed on (an algorithm read from a
#      fitted np that never left its node, a8bd590, found on its Open MPI bcast; at stop 30
#      the barrier's replay that found no wait at any fitted np, 8180ae7, and the
#      backplane's pair probe in the answer, a5cb404, both found on its 2-32 split);
#      data/sim-tornodes (16 nodes of 4 cores on a 2x2x4 torus; np 2-4 in a node, 8 and up
#      across the torus), made at stop 39 of the held-out meshnodes' class (a torus of
#      multicore nodes) with another shape, node size and figures, because meshnodes' lines
#      miss and its points stay unread: a development platform from the start (stop 39
#      read its points while trying a change, not kept)
#   H  the held-out platforms, fit np 2-16 and np 2-32, predict np 64, judged by goal 3's
#      targets, with and without their launch probes as 3t: data/sim-wide (a two-level fat
#      tree of 16 nodes of 8 cores, 4 nodes a leaf, one link up a leaf, 4:1; np 2-8 in a
#      node, 16-32 in a leaf, np 64 the first across two leaves), simulated at stop 28
#      before a8bd590 and judged once after it (stop 30's changes moved none of its lines,
#      and none was looked at while making them); data/sim-cloud (an Ethernet-class
#      two-level fat tree of 32 nodes of 4 cores, 8 nodes a leaf, two links up a leaf, 4:1;
#      np 2-4 in a node, 8-32 in a leaf, np 64 across two leaves) and data/sim-meshnodes
#      (16 nodes of 8 cores on a 4x2x2 torus; np 2-8 in a node, 16 and up across the
#      torus), both simulated at stop 31 from 73256df, before that stop's changes, and
#      judged once with 73256df and once at the stop's end. Keep them held out: a change
#      tuned on one makes it a development platform. Stop 34's replay of Open MPI's reduce
#      trees over the probe's tiers (443d9ba, bc41dfa) was compared, while it was worked
#      out, with the 4-byte reduce rows of every sim-*-ompi table, wide's and cloud's too:
#      no constant was set on them (the replay has none), but for that change their lines
#      are no held-out evidence. The same holds for stop 35's replay of Bruck's alltoall
#      (dadfe51), compared while it was worked out with the 4-byte alltoall rows of every
#      sim-*-ompi table, wide's, cloud's and meshnodes' among them. Its replay of the bcast
#      trees (7c0216e) was worked out on the dev platforms' bcast rows alone; wide's and
#      cloud's per-size errors were printed beside theirs once, before the fix of the wait
#      given back, which was found and checked on pods. Stop 36's replay of recursive
#      doubling's allreduce with the pair-exchange probe's traffic was worked out on the
#      allreduce rows of racks, pods, islands, leaves and fatnodes (-ompi) alone; the held-out
#      platforms' lines were read once after it, none of their points; so was its replay
#      of Open MPI's neighbor-exchange allgather (its allgather rows of the same five), and
#      its sized latency probe read by the replays (the per-point errors of the same five
#      at np 64 from np 2-16; SMPI's documented latency factors, which it measures, were
#      first tried on them as an oracle). Stop 37's sized reading of the steps no replay
#      covers, the pair exchange's distances and the replays from np=2 were worked out on the
#      per-point errors of fatnodes (mpich and ompi), torus (whose over-reading set the
#      tiers-only rule), islands and pods-ompi, and a throwaway SMPI program's exchanges on
#      fatnodes, leaves, islands and racks; the held-out lines were read after each change,
#      none of their points.
#   U  beyond the fitted np without any placement or probe (what an import without
#      --ranks-per-node gives): no upper bound, judged on coverage >= 90% alone (until stop 32,
#      before that rule, 19% on racks fitted at np 2-32, 22% from its np 2 alone at np 16,
#      47% on the ORFEO reduce, 68% on GKE)
#   4  from np=2 alone (data/sim-flat fitted at np 2): np 16, median <= 20%,
#      coverage >= 90%, median width <= 5x; and data/sim-ethflat, held out as in 1
#   4t the same from np=2 on the platforms of 3t and H, whose np 16 crosses what np=2 never
#      did (nodes, switches): unbounded intervals, judged by goal 4's targets all the same
#      (fatnodes' np 16 stays in its node, whose loopback gives every flow its full
#      bandwidth: Open MPI's linear alltoall there takes its np=2 time, which the interval
#      holds since stop 44, coverage 87 -> 100%; wide's and meshnodes' np 16 spans two
#      nodes, cloud's and tornodes' four)
#   Bs at the fitted np 4, 16 and 64, between the shipped tables' sizes (data/sim-between),
#      every platform's table fitted at all its np, each selector (no goal of the issue):
#      where the library's rules switch algorithm between two measured sizes the answer is
#      read from the side that runs the size's own, and in SimGrid one algorithm of whole
#      messages across 64 KiB from the side of the size's protocol (stop 72: MPICH median
#      error 4.6% -> 3.3%, 90th percentile 33.2% -> 11.8%, coverage 100% both; Open MPI 3.9%
#      -> 2.5%, 32.5% -> 14.1%, 98% -> 99%); judged on coverage >= 90% alone
#   4c Open MPI's reduce from np=2 at np 3 to 7 in SMPI (its linear reduce, its chains), the
#      two tables of tests/data/sim/reduce-chain-*, judged as 4
#   4b from np=2 alone at sizes np=2 never measured (data/sim-between: 6 B to 400 KiB, none of
#      them a shipped table's size, at np 4, 16 and 64, the rooted ones at np 16), each
#      platform's table and its rooted table fitted at np 2 (data/sim-*.csv,
#      data/sim-rooted): the development platforms pooled (flat, ethflat, fattree, multicore,
#      cloud, torus: the step's widening of stop 63 was worked out on them) and the held-out
#      ones (leaves, racks, wide, islands), each selector; judged on coverage >= 90% alone
#      (the tiered platforms have no upper bound); before stop 63 the development pool's
#      answers at 24 to 48 KiB, read across SimGrid's step at 64 KiB, fell below their
#      lower ends
#   4r the rooted collectives (gather, gatherv, scatter, scatterv) from np=2 at np 16 on every
#      shipped platform under each selector (data/sim-rooted), judged as 4 (tiered: as 4t);
#      a linear scatterv and gatherv read the launch's fan probe (its level 16 is np 16:
#      the lines without it, each selector's tables pooled, say what np=2 alone gives)
#   6  held-out sizes of the real tables: bench/heldout-sizes.sh, per table no worse than
#      log-log interpolation at the median and the 90th percentile, coverage >= 90%
#   6s goal 6 on the other two splits of the same tables (HELDOUT_PHASE 0 and 1: the third,
#      sixth, ... size held out; the fourth, seventh, ...), judged the same
#   6x companion of 6, beyond the measured sizes: the 2 largest sizes of each group held
#      out (bench/heldout-sizes.sh with HELDOUT_TOP=2), against the log-log line through
#      the two largest kept carried beyond; judged on coverage >= 90% alone (no goal of
#      the issue: a fit cannot see a switch beyond its sizes, its interval must say so)
#   6xs the same on the simulated tables (data/sim-*.csv; their sizes 4x apart at the top:
#      1 and 2 MiB held out, fitted up to 256 KiB), judged the same
#   6xp the same at an np without a fit of its own (across-np answers, beyond and between
#      the fitted np; the estimate from np=2 alone), 8 simulated tables pooled
#   B  between the fitted np (no goal of the issue): every simulated table fitted at np 2, 4,
#      16 and 64 (a user who measures every fourth power of two), read at np 8 and 32 at
#      every size, the development tables pooled and the held-out ones (ethflat, wide,
#      cloud, meshnodes, both selectors) pooled; judged on coverage >= 90% alone (until
#      stop 43, whose fixes of the line between them (4a511c1) and tier reading from the np
#      below (73303be) were worked out on the development tables: 90th percentile error 58%,
#      max 46393%, coverage 96%; held-out 190%, 40607%, 94%); and the real multi-np sets of
#      goal 2 with every other np inside held out (ORFEO's 4, 16 and 64; the others' second)
#   Bu between and beyond the fitted np at counts no power of two, most leaving the last node
#      short (no goal of the issue): every shipped simulated table of ten platforms fitted at
#      all its np (powers of two on full nodes), read at np 12, 27, 40 and 100 (tornodes: 56
#      for 100) against data/sim-uneven (the five collectives at 1000 to 20000 B, all but
#      alltoall at 64 KiB to 1 MiB), simulated at stop 67 before any code was made from them;
#      racks, pods, leaves, islands, fatnodes, multicore and tornodes pooled, the held-out
#      wide, cloud and meshnodes pooled, each selector apart; judged on coverage >= 90% alone,
#      as B (at stop 67, before its changes: MPICH coverage 94% developed on, 96% held out,
#      Open MPI 91% and 94%: SMPI's mpich reduce, MVAPICH2's two-level one, leaves the ranks
#      that fold into a node count no power of two early, and Rabenseifner's allreduce folds
#      ranks in and out, two messages of the whole vector more, which no fitted np shows;
#      with the middle of the steps' reading and their replay's, the interval holding both
#      (c80df6c, 9796ceb and 325e53e; the reduce worked out on the same
#      simulations, the allreduce on another set, np 6 to 56): 97%, 97%, 96%, 96%, medians
#      8.5% -> 7.8%, 8.9% -> 8.5%, 7.3% -> 6.6%, 9.6% -> 8.4%. Open MPI's selector runs
#      alltoall's 100 ranks for more than half an hour a size in SimGrid, left out)
#   Br the rooted collectives past the largest fitted np (no goal of the issue): stop 83's
#      held-out tables (data/sim-acrossnp/rooted-*: gather, gatherv, scatter and scatterv on
#      eight platforms, either selector, 8 B to 200000 B) fitted at np 2 to 7, read at np 9,
#      11 and 14; judged on coverage >= 90% alone, as B (before stop 83's estimate growth
#      for gather and scatter, 12406fb: median 26.2%, p90 77.0%, coverage 100%; after 20.9%,
#      77.6%, 100%; with stop 84's ranks' mean of the linear gatherv and scatterv across np:
#      18.6%, 64.3%, 100%; and the tiers' latency added to their waiting ranks: 13.6%,
#      58.9%, 100%; and the blocks past the fitted reach in turn over the root's link: 13.0%,
#      56.1%, 100%; stop 85's, each such scatterv block's own time too: 11.6%, 56.1%; a
#      gatherv's senders held by a rendezvous waiting as well: 11.5%, 54.9%; the library's
#      own barrier for their exits: 11.1%, 51.5%, 100%)
#   Bf recursive doubling's allreduce past the largest fitted np at counts no power of two
#      (no goal of the issue): stop 83's held-out tables (data/sim-acrossnp/allreduce-*:
#      flat.xml and ethflat.xml under both selectors, four platforms of nodes, 8 B to 9000 B)
#      fitted at np 2 to 8, read at np 9, 11, 13 and 15; judged on coverage >= 90% alone
#      (before the ranks' mean, 6f9ef9c: median 7.8%, p90 32.3%, max 47.2%, coverage 95%; after
#      5.7%, 26.2%, 72.8%, 100%)
#   7  derived datatypes: leave-one-out of the fit of a shipped datatype table
# Goals 5 and 8 are behaviours (tests pin them), not figures.
# Each line: the goal, the split, n points, median, 90th percentile and largest relative
# error, coverage of the 95% intervals, their median width (hi/lo), and PASS or MISS.
# Percentiles other than the median are the sorted value of rank round(q (n - 1)) + 1, as
# the fit's backtests take them (until stop 41 the rank was rounded down: of 2 points,
# the smaller one).
# A refused prediction counts as a miss (error 100%, not covered).
set -eu
: "${COMMFIT:?run through make bench}"
: "${top_srcdir:?run through make bench}"
LC_ALL=C
export LC_ALL
T=$(mktemp -d "${TMPDIR:-/tmp}/commfit-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
D="$top_srcdir/data"
COLLS="bcast reduce allreduce allgather alltoall"

# heldout TABLE FIT_NP PREDICT_NP PATTERNS [FIT_TABLE [ABOVE]]: one record a held-out point
# into $T/rec (relative error, covered 0/1, hi/lo); the truth is the median of the table's
# rows at the point (real sets repeat runs). Reductions of fewer than 4 bytes carry no
# float. FIT_TABLE: fitted instead of TABLE (its rows a part of TABLE's); ABOVE: only sizes
# above it are read. With HELDOUT_KEEP=1 the records add to $T/rec.
heldout() {
    h_tab=$1 h_fit=$2 h_pred=$3 h_pats=$4 h_fit_tab=${5:-$1} h_above=${6:-0}
    [ "${HELDOUT_KEEP:-0}" = 1 ] || : >"$T/rec"
    "$COMMFIT" fit -q -i "$h_fit_tab" --np "$h_fit" -o "$T/m.json" >/dev/null 2>"$T/fit.err" || {
        sed 's/^/# /' "$T/fit.err"
        return 0
    }
    for p in $h_pats; do
        awk -F, -v p="$p" -v keep="$h_pred" -v above="$h_above" '
            BEGIN { n = split(keep, k, ","); for (i = 1; i <= n; i++) want[k[i]] = 1 }
            !/^#/ && $1 == p && ($2 in want) && !($4 == "float" && $3 < 4) && $3 + 0 > above + 0 {
                key = $2 " " $3; c[key]++; v[key, c[key]] = $11 + 0 }
            END {
                for (key in c) {
                    m = c[key]
                    for (i = 1; i <= m; i++) s[i] = v[key, i]
                    for (i = 2; i <= m; i++) { t = s[i]; for (j = i - 1; j >= 1 && s[j] > t; j--) s[j + 1] = s[j]; s[j + 1] = t }
                    print key, (m % 2 ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2)
                }
            }' "$h_tab" | sort -k1,1n -k2,2n >"$T/truth"
        [ -s "$T/truth" ] || continue
        cut -d' ' -f1,2 "$T/truth" >"$T/points"
        "$COMMFIT" predict -m "$T/m.json" -p "$p" --points "$T/points" -f csv >"$T/pred" 2>/dev/null ||
            : >"$T/pred"
        awk -F, 'NR > 1 { print $5, $6, $7 }' "$T/pred" | paste -d' ' "$T/truth" - |
            awk '{ truth = $3; t = $4; lo = $5; hi = $6; ok = (t != "" && t > 0)
                   e = ok ? (t > truth ? t - truth : truth - t) / truth : 1
                   inf = hi == "inf" # no upper bound: a network np=2 never crossed
                   c = (ok && lo <= truth && (inf || truth <= hi)) ? 1 : 0
                   w = (ok && lo > 0) ? (inf ? 1e7 : hi / lo) : 1e9
                   print e, c, w }' >>"$T/rec"
    done
}

# judge GOAL SPLIT MEDIAN_MAX P90_MAX COVERAGE_MIN WIDTH_MAX (- for none): one line.
judge() {
    awk -v goal="$1" -v split_="$2" -v gm="$3" -v gp="$4" -v gc="$5" -v gw="$6" '
        function q(a, n, f,   i, j, t) {
            for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
            return f == 0.5 ? (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) : a[int(f * (n - 1) + 0.5) + 1]
        }
        { n++; e[n] = $1; w[n] = $3; cov += $2 }
        END {
            if (n == 0) { printf "%-4s %-68s %5d  no held-out point            MISS\n", goal, split_, 0; exit }
            for (i = 1; i <= n; i++) { e2[i] = e[i]; w2[i] = w[i] }
            # the median width: where one of the two middle ones has no upper end, none (the
            # mean of 1e7 and a width is no width)
            med = q(e, n, 0.5); p90 = q(e2, n, 0.9); mx = e2[n]; c = cov / n; wd = q(w2, n, 0.5)
            ok = med <= gm / 100 && p90 <= gp / 100 && c >= gc / 100 && (gw == "-" || wd <= gw)
            printf "%-4s %-68s %5d %7.1f%% %7.1f%% %7.1f%% %7.0f%% %8s  %s\n", goal, split_, n,
                100 * med, 100 * p90, 100 * mx, 100 * c,
                (wd >= 1e8 ? "lo<=0" : wd >= 1e6 ? "inf" : sprintf("%.2f", wd)),
                ok ? "PASS" : "MISS"
        }' "$T/rec"
}

printf '%-4s %-68s %5s %8s %8s %8s %8s %8s  %s\n' goal split n median p90 max coverage width verdict

# 1: at scale, no contention; and on the held-out platform of that class.
for pf in flat ethflat; do
    for sel in "" -ompi; do
        [ -f "$D/sim-$pf$sel.csv" ] || continue
        heldout "$D/sim-$pf$sel.csv" 2,4,8,16 64 "$COLLS"
        judge 1 "sim-$pf${sel:--mpich}$([ $pf = ethflat ] && echo ' (held out)'): fit np 2-16, predict 64" 5 20 90 3
    done
done

# 1n: the same tables fitted without np=2 (as OSU's collectives, run from a job's nodes on,
# come: the grid's unit read through np 4's algorithms), and goal 3's fat tree fitted at np
# 4-32, judged by goals 1 and 3.
for pf in flat ethflat fattree; do
    for sel in "" -ompi; do
        [ -f "$D/sim-$pf$sel.csv" ] || continue
        case $pf in
        fattree) heldout "$D/sim-$pf$sel.csv" 4,8,16,32 64 "$COLLS"
            judge 1n "sim-$pf${sel:--mpich}: fit np 4-32 (no np=2), predict 64" 15 40 80 - ;;
        *) heldout "$D/sim-$pf$sel.csv" 4,8,16 64 "$COLLS"
            judge 1n "sim-$pf${sel:--mpich}$([ $pf = ethflat ] && echo ' (held out)'): fit np 4-16 (no np=2), predict 64" 5 20 90 3 ;;
        esac
    done
done

# 2: real multi-np results. Each set's distinct np, increasing: fit all but the ones that
# are 2x and 4x the largest fitted (at least 3 fitted), predict those.
found=0
for tab in "$D"/realnp/*.csv; do
    [ -f "$tab" ] || continue
    found=1
    name=$(basename "$tab" .csv)
    nps=$(awk -F, '!/^#/ && NR > 1 && $2 ~ /^[0-9]+$/ { print $2 }' "$tab" | sort -un | tr '\n' ' ')
    pats=$(awk -F, '!/^#/ && $2 ~ /^[0-9]+$/ && $2 > 2 { print $1 }' "$tab" | sort -u | tr '\n' ' ')
    set -- $nps
    [ $# -ge 4 ] || { echo "2    $name: $# process counts, need 4"; continue; }
    for k in 2 4; do
        # The largest fitted np whose k-fold is in the set, with 3 np at least below it.
        fit= target=
        i=0
        for n in "$@"; do
            i=$((i + 1))
            [ $i -ge 3 ] || continue
            for m in "$@"; do
                if [ "$m" -eq $((n * k)) ]; then fit=$n target=$m; fi
            done
        done
        if [ -z "$target" ]; then
            printf '%-4s %-68s  no np %dx beyond 3 fitted process counts in this set\n' 2 "$name" $k
            continue
        fi
        fitnp=$(for n in "$@"; do if [ "$n" -le "$fit" ]; then printf '%s,' "$n"; fi; done)
        heldout "$tab" "${fitnp%,}" "$target" "$pats"
        judge 2 "$name: fit np ${1}-$fit, predict $target (${k}x)" 10 30 90 -
    done
    # The floor under those figures: the truth is one run (or the median of a few), and runs
    # of one size and np differ. Where a size was run three times or more at an np, each run
    # but the median against that median (odd counts; the two middle ones' mean for even).
    awk -F, -v name="$name" '
        function sort(a, n,   i, j, t) {
            for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        }
        !/^#/ && $2 ~ /^[0-9]+$/ { k = $1 " " $2 " " $3 " " $4 " " $5; c[k]++; v[k, c[k]] = $11 + 0 }
        END {
            m = 0
            for (k in c) {
                if (c[k] < 3) continue
                n = c[k]
                for (i = 1; i <= n; i++) s[i] = v[k, i]
                sort(s, n)
                med = n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
                if (!(med > 0)) continue
                for (i = 1; i <= n; i++) {
                    if (n % 2 && i == (n + 1) / 2) continue
                    d = (s[i] - med) / med
                    e[++m] = d < 0 ? -d : d
                }
            }
            if (!m) { printf "%-4s %-68s  one run a point: no run-to-run spread to read\n", 2, name; exit }
            sort(e, m)
            printf "%-4s %-68s %5d %7.1f%% %7.1f%% %7.1f%%  run-to-run spread (no verdict)\n", 2,
                name ": a run against its size and np median", m, 100 * (m % 2 ? e[(m + 1) / 2] : (e[m / 2] + e[m / 2 + 1]) / 2),
                100 * e[int(0.9 * (m - 1) + 0.5) + 1], 100 * e[m]
        }' "$tab"
done
[ $found = 1 ] || echo "2    no real multi-np set in data/realnp"

# 3: bisection-limited network.
heldout "$D/sim-fattree.csv" 2,4,8,16,32 64 "$COLLS"
judge 3 "sim-fattree-mpich: fit np 2-32, predict 64" 15 40 80 -
heldout "$D/sim-fattree-ompi.csv" 2,4,8,16,32 64 "$COLLS"
judge 3 "sim-fattree-ompi: fit np 2-32, predict 64" 15 40 80 -

# tiered GOAL NAME LABEL: the simulated table data/sim-NAME*.csv judged by goal 3's targets,
# fit np 2-16 and 2-32, predict 64; where its launch's latency probe (rank_latency_*) says
# np 64 reaches a tier no fitted np reached, the interval has no upper bound (inf), so the
# same table is judged again without the probes: the answer without what they add (since
# stop 31 without an upper bound either wherever np 64 spans more nodes than the fitted np
# did, as an imported table's: nothing says how far those nodes lie).
tiered() {
    for sel in "" -ompi; do
        [ -f "$D/sim-$2$sel.csv" ] || continue
        grep -v -e '^# rank_latency' -e '^# pair_exchange' "$D/sim-$2$sel.csv" >"$T/noprobe.csv"
        for tab in "$D/sim-$2$sel.csv" "$T/noprobe.csv"; do
            probe=
            [ "$tab" = "$T/noprobe.csv" ] && probe=", no probe"
            cmp -s "$tab" "$D/sim-$2$sel.csv" && [ -n "$probe" ] && continue
            for fitnp in 2,4,8,16 2,4,8,16,32; do
                heldout "$tab" $fitnp 64 "$COLLS"
                judge "$1" "sim-$2${sel:--mpich} ($3$probe): fit np 2-${fitnp##*,}, predict 64" 15 40 80 -
            done
        done
    done
}
# 3t: platforms once held out, development platforms since.
tiered 3t torus dev
tiered 3t dragonfly dev
tiered 3t racks dev
tiered 3t pods dev
tiered 3t islands dev
tiered 3t leaves dev
tiered 3t fatnodes dev
tiered 3t tornodes dev
# H: the held-out platforms.
tiered H wide "held out"
tiered H cloud "held out"
tiered H meshnodes "held out"

# U: the interval of a table that says nothing of where its ranks ran (no ranks_per_node,
# hosts, cores, rank_hosts, nor a probe: an import without --ranks-per-node), beyond the
# fitted np, judged on coverage alone (>= 90%): the development platforms of 3t and the
# real sets of 2 whose targets cross what the fitted np never did (racks: a second rack;
# ORFEO: a second node; GKE: small-message growth that accelerates).
unplaced() { # TABLE FIT_NP PREDICT_NP PATTERNS LABEL
    grep -v -e '^# rank_latency' -e '^# pair_exchange' -e '^# ranks_per_node' -e '^# hosts' \
        -e '^# cores' -e '^# rank_hosts' "$1" >"$T/unplaced.csv"
    heldout "$T/unplaced.csv" "$2" "$3" "$4"
    judge U "$5 (unplaced)" 1000 1000 90 -
}
unplaced "$D/sim-racks.csv" 2,4,8,16,32 64 "$COLLS" "sim-racks-mpich: fit np 2-32, predict 64"
unplaced "$D/sim-racks-ompi.csv" 2,4,8,16 64 "$COLLS" "sim-racks-ompi: fit np 2-16, predict 64"
unplaced "$D/sim-pods-ompi.csv" 2,4,8,16,32 64 "$COLLS" "sim-pods-ompi: fit np 2-32, predict 64"
unplaced "$D/sim-racks.csv" 2 16 "$COLLS" "sim-racks-mpich: fit np 2 only, predict 16"
unplaced "$D/realnp/orfeo-epyc-reduce-ompi.csv" 2,4,8,16,32,64,128 256 reduce \
    "orfeo-epyc-reduce-ompi: fit np 2-128, predict 256"
unplaced "$D/realnp/gke-cpu-ompi.csv" 1792,3584,7168 14336 allreduce \
    "gke-cpu-ompi: fit np 1792-7168, predict 14336"

# 4: from np=2 alone; and on the held-out platform of goal 1's class.
for pf in flat ethflat; do
    for sel in "" -ompi; do
        [ -f "$D/sim-$pf$sel.csv" ] || continue
        heldout "$D/sim-$pf$sel.csv" 2 16 "$COLLS"
        judge 4 "sim-$pf${sel:--mpich}$([ $pf = ethflat ] && echo ' (held out)'): fit np 2 only, predict 16" 20 1000 90 5
    done
done
# 4t: from np=2 alone on the tiered platforms (3t and H): np 16 crosses nodes or switches
# np=2 never did, so the interval has no upper bound (inf) and the width target cannot be met;
# the error figures say how far the estimate with the probe's extra latency gets.
for pf in torus dragonfly racks pods islands leaves fatnodes tornodes wide cloud meshnodes; do
    for sel in "" -ompi; do
        [ -f "$D/sim-$pf$sel.csv" ] || continue
        heldout "$D/sim-$pf$sel.csv" 2 16 "$COLLS"
        judge 4t "sim-$pf${sel:--mpich}$(case $pf in wide | cloud | meshnodes) echo ' (held out)' ;; esac): fit np 2 only, predict 16" 20 1000 90 5
    done
done

# 4r: the rooted collectives (gather, gatherv, scatter, scatterv) from np=2 alone at np 16,
# whose tables time the ranks' mean while the catalog costs the root's path: every shipped
# platform under each selector (data/sim-rooted, np 2 and 16, 8 sizes), judged by goal 4's
# targets; the tiered platforms have no upper bound (as 4t).
for t in "$D"/sim-rooted/*.csv; do
    pf=$(basename "$t" .csv)
    case $pf in *-ompi) ;; *) pf=$pf-mpich ;; esac
    heldout "$t" 2 16 "gather gatherv scatter scatterv"
    judge 4r "rooted $pf: fit np 2 only, predict 16" 20 1000 90 5
done
# The same without the launch's fan probe (fan_*), which a linear scatterv and gatherv read
# since stop 60: np=2's reading alone, each selector's 15 tables pooled.
for sel in mpich ompi; do
    : >"$T/rec.pool"
    for t in "$D"/sim-rooted/*.csv; do
        case $t in *-ompi.csv) [ $sel = ompi ] || continue ;; *) [ $sel = mpich ] || continue ;; esac
        grep -v '^# fan_' "$t" >"$T/nofan.csv"
        heldout "$T/nofan.csv" 2 16 "gather gatherv scatter scatterv"
        cat "$T/rec" >>"$T/rec.pool"
    done
    mv "$T/rec.pool" "$T/rec"
    judge 4r "rooted, all 15 platforms $sel, no fan probe: fit np 2 only, predict 16" 20 1000 90 5
done
# 4c: Open MPI's reduce from np=2 at np 3 to 7 (SMPI's selector: its linear reduce at np 3,
# its chains of fanout p/2 at np 4 to 7 from 4 to 64 KiB; tests/data/sim/reduce-chain-*,
# measured in stop 61, 4 B to 48 KiB), judged as 4 (cloud's np 5 to 7 cross a node: as 4t).
for t in "$top_srcdir"/tests/data/sim/reduce-chain-*-ompi.csv; do
    [ -f "$t" ] || continue
    pf=$(basename "$t" .csv)
    heldout "$t" 2 3,4,5,6,7 reduce
    judge 4c "${pf#reduce-chain-}: fit np 2 only, predict 3-7" 20 1000 90 5
done

# 4b: from np=2 alone at sizes between np=2's measured ones (data/sim-between), each pool.
for pool in "development:flat ethflat fattree multicore cloud torus" "held out:leaves racks wide islands"; do
    for sel in mpich ompi; do
        : >"$T/rec.pool"
        for pf in ${pool#*:}; do
            suf=$([ $sel = ompi ] && echo -ompi || :)
            for kind in coll rooted; do
                if [ $kind = coll ]; then
                    t="$D/sim-between/$pf$suf.csv" fit="$D/sim-$pf$suf.csv" pats="$COLLS" np=4,16,64
                else
                    t="$D/sim-between/rooted-$pf$suf.csv" fit="$D/sim-rooted/$pf$suf.csv"
                    pats="gather gatherv scatter scatterv" np=16
                fi
                [ -f "$t" ] && [ -f "$fit" ] || continue
                heldout "$t" 2 "$np" "$pats" "$fit"
                cat "$T/rec" >>"$T/rec.pool"
            done
        done
        mv "$T/rec.pool" "$T/rec"
        judge 4b "between np=2's sizes, ${pool%%:*} platforms $sel: fit np 2 only" 1000 1000 90 -
    done
done

# Bs: at the fitted np, between the shipped tables' sizes (data/sim-between), each table
# fitted at all its np: where the library's rules switch algorithm between two measured sizes
# the answer is read from the side that runs the size's own (stop 72), so every platform is
# held out for that reading (for the one across 64 KiB, the count of misses over 20% by
# pattern and size was seen first); each selector.
for sel in mpich ompi; do
    : >"$T/rec.pool"
    for pf in flat ethflat fattree multicore cloud torus leaves racks wide islands; do
        suf=$([ $sel = ompi ] && echo -ompi || :)
        t="$D/sim-between/$pf$suf.csv" fit="$D/sim-$pf$suf.csv"
        [ -f "$t" ] && [ -f "$fit" ] || continue
        fitnp=$(awk -F, '!/^#/ && NR > 1 && $2 ~ /^[0-9]+$/ { print $2 }' "$fit" | sort -un | tr '\n' ',')
        heldout "$t" "${fitnp%,}" 4,16,64 "$COLLS" "$fit"
        cat "$T/rec" >>"$T/rec.pool"
    done
    mv "$T/rec.pool" "$T/rec"
    judge Bs "between the sizes at the fitted np 4, 16, 64, ten platforms $sel: fit all np" 1000 1000 90 -
done

# 6: held-out sizes of the real tables (every third size), against log-log interpolation;
# 6s: the same with the other two thirds held out (the third, sixth, ... size; the fourth,
# seventh, ...), judged the same: a second and a third split of the same tables.
for phase in 2 0 1; do
    HELDOUT_PHASE=$phase sh "$top_srcdir/bench/heldout-sizes.sh" >"$T/sizes" 2>&1 || true
    awk -v goal="$(if [ $phase = 2 ]; then echo 6; else echo 6s; fi)" -v phase=$phase '
         NR == 1 { next }
         NF >= 9 { med = $3 + 0; p90 = $4 + 0; llm = $6 + 0; llp = $7 + 0; cov = $8 + 0
                   ok = med <= llm && p90 <= llp && cov >= 90
                   name = substr($1, 1, 62) (goal == "6" ? "" : " (split " phase ")")
                   printf "%-4s %-68s %5d %7.1f%% %7.1f%% %7s  ll %.1f%%/%.1f%% cov %d%%  %s\n", goal,
                       name, $2, med, p90, $5, llm, llp, cov, ok ? "PASS" : "MISS" }
         NF < 9 { print "# " $0 }' "$T/sizes"
done

# top_lines GOAL: bench/heldout-sizes.sh's table in $T/top as lines of GOAL, judged on
# coverage >= 90% alone.
top_lines() {
    awk -v goal="$1" 'NR == 1 { next }
         NF >= 9 { cov = $8 + 0
                   printf "%-4s %-68s %5d %7.1f%% %7.1f%% %7s  ll %.1f%%/%.1f%% cov %d%% width %s  %s\n",
                       goal, substr($1, 1, 62), $2, $3 + 0, $4 + 0, $5, $6 + 0, $7 + 0, cov, $9,
                       (cov >= 90 ? "PASS" : "MISS") }
         NF < 9 { print "# " $0 }' "$T/top"
}

# 6x: beyond the measured sizes of the real tables (the 2 largest of each group held out);
# 6xs: of the simulated ones.
HELDOUT_TOP=2 sh "$top_srcdir/bench/heldout-sizes.sh" >"$T/top" 2>&1 || true
top_lines 6x
HELDOUT_TABLES=$(echo "$D"/sim-*.csv) HELDOUT_TOP=2 sh "$top_srcdir/bench/heldout-sizes.sh" \
    >"$T/top" 2>&1 || true
top_lines 6xs

# 6xp: beyond the measured sizes at an np without a fit: 8 simulated tables fitted up to
# 256 KiB, read at 1 and 2 MiB: the across-np model beyond the fitted np and between them,
# and the estimate from np=2 alone; pooled over the tables, judged on coverage >= 90%.
XP_TABS="flat fattree torus flat-ompi racks fatnodes islands leaves-ompi"
for xp in beyond between p2p; do
    : >"$T/rec"
    for t in $XP_TABS; do
        tab="$D/sim-$t.csv"
        [ -f "$tab" ] || continue
        case $xp in
        beyond) fnp=2,4,8,16 pnp=32,64 ;;
        between) fnp=2,4,16,64 pnp=8,32 ;;
        p2p) fnp=2 pnp=16 ;;
        esac
        awk -F, '/^#/ || $1 == "pattern" || $3 + 0 <= 262144' "$tab" >"$T/upto.csv"
        HELDOUT_KEEP=1 heldout "$tab" "$fnp" "$pnp" "$COLLS" "$T/upto.csv" 262144
    done
    case $xp in
    beyond) what="fit np 2-16 to 256 KiB, predict 32, 64 at 1-2 MiB" ;;
    between) what="fit np 2,4,16,64 to 256 KiB, predict 8, 32 at 1-2 MiB" ;;
    p2p) what="fit np 2 to 256 KiB, predict 16 at 1-2 MiB" ;;
    esac
    judge 6xp "8 sim tables: $what" 1000 1000 90 -
done

# B: between the fitted np, at every size.
for set in dev held; do
    : >"$T/rec"
    for tab in "$D"/sim-*.csv; do
        case $(basename "$tab" .csv) in
        sim-ethflat* | sim-wide* | sim-cloud* | sim-meshnodes*) [ $set = held ] || continue ;;
        *) [ $set = dev ] || continue ;;
        esac
        HELDOUT_KEEP=1 heldout "$tab" 2,4,16,64 8,32 "$COLLS"
    done
    judge B "$([ $set = dev ] && echo development || echo held-out) sim tables: fit np 2,4,16,64, predict 8, 32" 1000 1000 90 -
done
# The real multi-np sets: every other np inside held out (the second, fourth, ...), the
# others fitted (3 at least).
: >"$T/rec"
names=
for tab in "$D"/realnp/*.csv; do
    [ -f "$tab" ] || continue
    nps=$(awk -F, '!/^#/ && NR > 1 && $2 ~ /^[0-9]+$/ { print $2 }' "$tab" | sort -un | tr '\n' ' ')
    pats=$(awk -F, '!/^#/ && $2 ~ /^[0-9]+$/ && $2 > 2 { print $1 }' "$tab" | sort -u | tr '\n' ' ')
    set -- $nps
    fitnp= held= i=0
    for n in "$@"; do
        i=$((i + 1))
        if [ $((i % 2)) = 0 ] && [ $i -lt $# ]; then held="$held$n,"; else fitnp="$fitnp$n,"; fi
    done
    [ -n "$held" ] && [ "$(echo "$fitnp" | tr ',' ' ' | wc -w)" -ge 3 ] || continue
    HELDOUT_KEEP=1 heldout "$tab" "${fitnp%,}" "${held%,}" "$pats"
    names="$names $(basename "$tab" .csv | cut -d- -f1)"
done
judge B "real multi-np sets ($(echo $names | tr ' ' '\n' | sort -u | tr '\n' ' ' | sed 's/ $//')): every other np held out" 1000 1000 90 -

# Bu: at np no power of two, against data/sim-uneven, each shipped table fitted at all its np.
for set in dev held; do
    for sel in mpich ompi; do
        : >"$T/rec"
        for pf in racks pods leaves islands fatnodes multicore tornodes wide cloud meshnodes; do
            case $pf in
            wide | cloud | meshnodes) [ $set = held ] || continue ;;
            *) [ $set = dev ] || continue ;;
            esac
            suf=$([ $sel = ompi ] && echo -ompi || :)
            fit="$D/sim-$pf$suf.csv"
            [ -f "$fit" ] || continue
            fitnp=$(awk -F, '!/^#/ && NR > 1 && $2 ~ /^[0-9]+$/ { print $2 }' "$fit" | sort -un |
                tr '\n' ',')
            for t in "$D/sim-uneven/$pf$suf.csv" "$D/sim-uneven/large-$pf$suf.csv"; do
                [ -f "$t" ] || continue
                HELDOUT_KEEP=1 heldout "$t" "${fitnp%,}" 12,27,40,56,100 "$COLLS" "$fit"
            done
        done
        judge Bu "$([ $set = dev ] && echo development || echo held-out) sim tables $sel: fit all np, predict 12, 27, 40, 100" 1000 1000 90 -
    done
done

# Br, Bf: across np past the largest fitted np, on stop 83's held-out tables.
: >"$T/rec"
for t in "$D"/sim-acrossnp/rooted-*.csv; do
    HELDOUT_KEEP=1 heldout "$t" 2,3,4,5,6,7 9,11,14 "gather gatherv scatter scatterv"
done
judge Br "rooted, 8 held-out sim tables: fit np 2-7, predict 9, 11, 14" 1000 1000 90 -
: >"$T/rec"
for t in "$D"/sim-acrossnp/allreduce-*.csv; do
    HELDOUT_KEEP=1 heldout "$t" 2,3,4,5,6,7,8 9,11,13,15 allreduce
done
judge Bf "allreduce, 8 held-out sim tables: fit np 2-8, predict 9, 11, 13, 15" 1000 1000 90 -

# 7: derived datatypes, from a shipped table with datatype rows.
ddt=
for tab in "$D"/*.csv; do
    awk -F, '!/^#/ && $1 != "pattern" && $4 != "" && $4 != "byte" && $4 != "float" && $5 != "" { f = 1; exit }
             END { exit !f }' "$tab" && { ddt=$tab; break; }
done
if [ -z "$ddt" ]; then
    echo "7    no shipped table of derived-datatype rows: no figure (measure one with 'commfit measure --patterns ddt')"
else
    # The fit summary: pattern np datatype model seg n loo ...; the datatype fits' loo.
    "$COMMFIT" fit -i "$ddt" -o "$T/ddt.json" 2>/dev/null | awk -v t="$(basename "$ddt" .csv)" '
        $3 != "byte" && $3 != "float" && $7 ~ /%$/ { n++; v = $7 + 0; if (v <= 15) ok++
            printf "7    %-40s %-10s np %-4s %-9s loo %6s  %s\n", t, $3, $2, $4, $7, v <= 15 ? "PASS" : "MISS" }
        END { if (!n) print "7    " t ": no datatype fit" }'
fi
