#!/bin/sh
# The main job: installs what is missing, builds, then measures this machine, fits the
# models, predicts a pattern and draws the report, with every default, in run/. Then a
# simulated cluster (SimGrid SMPI), where this machine cannot go: np 2 to 16 on 16 nodes,
# fitted across process counts and asked for np=64. Then, where Open MPI is installed beside
# MPICH, the same tool built with Open MPI (in build-ompi/) measures this machine through
# Open MPI's launcher, and its fit follows Open MPI's own collective algorithms.
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

if command -v mpicc.openmpi >/dev/null 2>&1; then
    # Open MPI: its own build, its launcher, its collective algorithms. As root its launcher
    # refuses to start unless told twice that root is meant.
    if [ "$(id -u)" -eq 0 ]; then
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
    fi
    echo "+ BUILD=$top/build-ompi scripts/build.sh MPICC=mpicc.openmpi" >&2
    BUILD="$top/build-ompi" "$top/scripts/build.sh" MPICC=mpicc.openmpi
    commfit="$top/build-ompi/commfit"
    step measure -o ompi/this-machine.csv
    grep '^# mpi_library:' ompi/this-machine.csv >&2
    step fit -i ompi/this-machine.csv -o ompi/this-machine.json
    step predict -m ompi/this-machine.json --pattern allreduce --np 2,16 --bytes 1M
else
    echo "commfit: no mpicc.openmpi (Open MPI not installed): its steps skipped" >&2
fi
