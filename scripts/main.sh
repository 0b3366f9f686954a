#!/bin/sh
# The main job: installs what is missing, builds, then measures this machine, fits the
# models, predicts a pattern and draws the report, with every default, in run/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/build.sh"
commfit="${BUILD:-$top/build}/commfit"
mkdir -p "$top/run"
cd "$top/run"
echo "commfit: working in $top/run" >&2

# step SUBCOMMAND ARGS...: runs it, or says that this version does not have it yet.
step() {
    if "$commfit" "$1" --help | grep -q 'not available in this version'; then
        echo "commfit: skipping '$1': not available in this version yet" >&2
        return 0
    fi
    echo "+ commfit $*" >&2
    "$commfit" "$@"
}

step measure
step fit
step predict --pattern alltoall --np 16 --bytes 1M
step report
