#!/bin/sh
# The main job: installs what is missing, builds, then measures this machine, fits the
# models, predicts a pattern and draws the report, with every default, in run/. Then a
# simulated cluster (SimGrid SMPI), where this machine cannot go: np 2 to 16 on 16 nodes,
# fitted across process counts and asked for np=64.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/build.sh"
build=${BUILD:-$top/build}
commfit="$build/commfit"
mkdir -p "$top/run"
cd "$top/run"
echo "commfit: working in $top/run" >&2

step() {
    echo "+ commfit $*" >&2
    "$commfit" "$@"
}

step measure
step fit
step predict --pattern alltoall --np 16 --bytes 1M
step report

if [ -x "$build/commfit-smpi" ]; then
    # A simulated cluster of single-core nodes: np 2 to 16, fitted across np, asked for 64.
    step measure --simulate "$top/data/platforms/flat.xml" --np 2,4,8,16 \
        --patterns pingpong,bcast,allreduce,allgather,alltoall --sizes 1,16,256,4K,64K,256K,1M,4M \
        -o sim/flat.csv
    step fit -i sim/flat.csv -o sim/flat.json
    step predict -m sim/flat.json --pattern alltoall --np 16,64 --bytes 1M
    # This machine as a simulator calibration: its ping-pong model exported as a SimGrid
    # platform, on which a simulated ping-pong costs what the model says.
    step export smpi -o sim/this-machine.xml
    step measure --simulate sim/this-machine.xml --np 2 --patterns pingpong \
        --sizes 1K,64K,1M -o sim/this-machine.csv
else
    echo "commfit: no commfit-smpi (SimGrid not found at configure): simulated steps skipped" >&2
fi
