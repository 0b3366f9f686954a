#!/bin/sh
# Adds the launch probes' lines a simulated table measured before them lacks: the sized
# latency probe (rank_latency_sized_us, rank_latency_sized_method) and the pair-exchange
# probe's distances (pair_exchange_distance_us, pair_exchange_distance_method), from a
# launch of the probes alone on the same platform, at the same launch np and under the same
# collective selector. SMPI is deterministic and the probes run first in a launch, before
# any point of the plan, so the lines are those a whole new simulation would record (the
# launch's rank_latency_us line, and its pair_exchange_us where distances are added, are
# checked to equal the table's). The table's rows and other lines stay; a *_source line
# after each block says where the added lines came from.
#   scripts/probe-lines.sh COMMFIT TABLE...    (from the top of the source tree)
set -eu
[ $# -ge 2 ] || { echo "usage: $0 COMMFIT TABLE..." >&2; exit 2; }
commfit=$1
shift
T=$(mktemp -d "${TMPDIR:-/tmp}/commfit-probes.XXXXXX")
trap 'rm -rf "$T"' EXIT
meta() { sed -n "s/^# $1: //p" "$2" | head -n 1; }
# insert TABLE AFTER LINES: TABLE with the lines of file LINES after its line '# AFTER: ...'.
insert() {
    awk -v f="$3" -v after="^# $2:" '{ print } $0 ~ after { while ((getline l < f) > 0) print l }' \
        "$1" >"$T/new"
    cmp -s "$1" "$T/new" && { echo "$1: no $2 line" >&2; exit 1; }
    cat "$T/new" >"$1"
}
for tab in "$@"; do
    sized=0 dist=0
    grep -q '^# rank_latency_sized_us:' "$tab" || sized=1
    grep -q '^# pair_exchange_us:' "$tab" && ! grep -q '^# pair_exchange_distance_us:' "$tab" &&
        dist=1
    if [ $sized = 0 ] && [ $dist = 0 ]; then
        echo "$tab: has every probe's lines already"
        continue
    fi
    platform=$(meta platform "$tab")
    np=$(meta launch_np "$tab")
    sel=$(meta coll_selector "$tab")
    [ -n "$platform" ] && [ -n "$np" ] || { echo "$tab: no platform or launch_np" >&2; exit 1; }
    set -- --simulate "data/platforms/$platform" --patterns barrier --sizes 4 --np "$np"
    [ -n "$sel" ] && set -- "$@" --coll-selector "$sel"
    "$commfit" measure -q "$@" -o "$T/probe.csv"
    for key in rank_latency_us platform_sha256; do
        [ "$(meta $key "$T/probe.csv")" = "$(meta $key "$tab")" ] ||
            { echo "$tab: the probe-only launch's $key differs from the table's" >&2; exit 1; }
    done
    source="a launch of the probes alone, $(meta date "$T/probe.csv"), commfit measure -q $*"
    if [ $sized = 1 ]; then
        {
            grep '^# rank_latency_sized_us:' "$T/probe.csv"
            grep '^# rank_latency_sized_method:' "$T/probe.csv"
            echo "# rank_latency_sized_source: $source"
        } >"$T/lines"
        insert "$tab" rank_latency_method "$T/lines"
    fi
    if [ $dist = 1 ]; then
        [ "$(meta pair_exchange_us "$T/probe.csv")" = "$(meta pair_exchange_us "$tab")" ] ||
            { echo "$tab: the probe-only launch's pair_exchange_us differs from the table's" >&2; exit 1; }
        {
            grep '^# pair_exchange_distance_us:' "$T/probe.csv"
            grep '^# pair_exchange_distance_method:' "$T/probe.csv"
            echo "# pair_exchange_distance_source: $source"
        } >"$T/lines"
        insert "$tab" pair_exchange_method "$T/lines"
    fi
    echo "$tab: probe lines added (launch np $np:$([ $sized = 1 ] && echo ' sized')$([ $dist = 1 ] && echo ' distances'))"
done
