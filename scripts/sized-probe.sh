#!/bin/sh
# Adds the sized latency probe (rank_latency_sized_us, rank_latency_sized_method) to simulated
# tables measured before it existed, from a launch of the probe alone on the same platform,
# at the same launch np and under the same collective selector: SMPI is deterministic and
# the probe runs first in a launch, before any point of the plan, so the lines are those a
# whole new simulation would record (the 8-byte probe's rank_latency_us line of such a
# launch is checked to equal the table's). The table's rows and other lines stay; a
# rank_latency_sized_source line says where the added ones came from.
#   scripts/sized-probe.sh COMMFIT TABLE...    (from the top of the source tree)
set -eu
[ $# -ge 2 ] || { echo "usage: $0 COMMFIT TABLE..." >&2; exit 2; }
commfit=$1
shift
T=$(mktemp -d "${TMPDIR:-/tmp}/commfit-sized.XXXXXX")
trap 'rm -rf "$T"' EXIT
meta() { sed -n "s/^# $1: //p" "$2" | head -n 1; }
for tab in "$@"; do
    if grep -q '^# rank_latency_sized_us:' "$tab"; then
        echo "$tab: has the sized probe already"
        continue
    fi
    platform=$(meta platform "$tab")
    np=$(meta launch_np "$tab")
    sel=$(meta coll_selector "$tab")
    [ -n "$platform" ] && [ -n "$np" ] || { echo "$tab: no platform or launch_np" >&2; exit 1; }
    set -- --simulate "data/platforms/$platform" --patterns barrier --sizes 4 --np "$np"
    [ -n "$sel" ] && set -- "$@" --coll-selector "$sel"
    "$commfit" measure -q "$@" -o "$T/probe.csv"
    if [ "$(meta rank_latency_us "$T/probe.csv")" != "$(meta rank_latency_us "$tab")" ]; then
        echo "$tab: the probe-only launch's rank_latency_us differs from the table's" >&2
        exit 1
    fi
    sha=$(meta platform_sha256 "$T/probe.csv")
    [ "$sha" = "$(meta platform_sha256 "$tab")" ] ||
        { echo "$tab: the platform file changed since the table was simulated" >&2; exit 1; }
    {
        grep '^# rank_latency_sized_us:' "$T/probe.csv"
        grep '^# rank_latency_sized_method:' "$T/probe.csv"
        echo "# rank_latency_sized_source: a launch of the probe alone, $(meta date "$T/probe.csv"), commfit measure -q $*"
    } >"$T/lines"
    awk -v f="$T/lines" '{ print } /^# rank_latency_method:/ { while ((getline l < f) > 0) print l }' \
        "$tab" >"$T/new"
    grep -q '^# rank_latency_sized_us:' "$T/new" || { echo "$tab: no rank_latency_method line" >&2; exit 1; }
    cat "$T/new" >"$tab"
    echo "$tab: sized probe added (launch np $np)"
done
