# The models shipped in models/ (fitted from the samples in data/ by 'make update-models')
# still read and predict with this build: a change of the model file's schema or of its
# reader cannot silently break them.
. "$top_srcdir/tests/setup.sh"

n=0
for m in "$top_srcdir"/models/*.json; do
    [ -f "$m" ] || continue
    n=$((n + 1))
    name=$(basename "$m" .json)
    check "$name: fitted from a shipped sample" test -f "$top_srcdir/data/$name.csv"
    # Every fit's (pattern, np, datatype), from the "fits" array.
    awk '/^  "fits": \[/ { f = 1; next } f && /^  \]/ { f = 0 }
         f && /^      "pattern"/ { p = $2 } f && /^      "np"/ { n = $2 }
         f && /^      "datatype"/ { print p, n, $2 }' "$m" | tr -d '",' | sort -u >keys
    bad=
    nk=$(wc -l <keys)
    # One predict per pattern and datatype, at all of its fits' np (a sweep of the simulated
    # tables has six): each np answers from its own fit.
    awk '{ if (!(($1, $3) in nps)) order[++n] = $1 " " $3; nps[$1, $3] = nps[$1, $3] (nps[$1, $3] == "" ? "" : ",") $2; c[$1, $3]++ }
         END { for (i = 1; i <= n; i++) { split(order[i], k, " "); print k[1], nps[k[1], k[2]], k[2], c[k[1], k[2]] } }' \
        keys >groups
    while read -r p nps dt count; do
        run "$COMMFIT" predict -m "$m" -p "$p" -n "$nps" -d "$dt" -b 0:1M -f csv
        # Every answer a positive, finite time, from the fit at its np.
        if [ "$rc" -ne 0 ] || [ "$(wc -l <"$T/out")" -ne $((22 * count + 1)) ] ||
            awk -F, 'NR > 1 && !($5 + 0 > 0 && $5 != "inf" && $5 != "nan" && $9 == "fit") { bad = 1 }
                     END { exit !bad }' "$T/out"; then
            bad="$bad $p/$nps/$dt(rc $rc)"
            sed 's/^/#   /' "$T/err"
        fi
    done <groups
    check "$name: reads, and each of its $nk fits predicts 0 to 1 MiB${bad:+ (failed:$bad)}" \
        test -z "$bad" -a "$nk" -gt 0
    read -r p np dt <keys
    run "$COMMFIT" predict -m "$m" -p "$p" -n "$np" -d "$dt" --formula --lang c
    expect_rc 0 "$name: the formula of $p at np $np"
done
check "the shipped models are there (8 samples in data/)" test "$n" -ge 8

# Issue 16, goal 7: on this machine's shipped derived-datatype sweep every layout's fit has
# a leave-one-out error of 15% at most (17% to 24% with one segment for every size).
run "$COMMFIT" fit -i "$top_srcdir/data/ddt-vm-mpich402-np2.csv" -o ddt.json
expect_rc 0 "the shipped datatype sweep fits"
check "the shipped datatype sweep: every layout's leave-one-out <= 15% ($(awk '$3 != "contiguous" && $7 ~ /%$/ { printf "%s %s; ", $3, $7 }' "$T/out"))" \
    awk '$3 != "contiguous" && $7 ~ /%$/ { n++; if ($7 + 0 > 15) bad = 1 } END { exit bad || n != 10 }' "$T/out"
done_testing
