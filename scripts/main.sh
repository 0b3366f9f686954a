#!/bin/sh
# The main job: installs what is missing, builds, then measures this machine, fits the
# models, predicts a pattern and draws the report, with every default, in run/. Then a
# simulated cluster (SimGrid SMPI), where this machine cannot go: np 2 to 16 on 16 nodes,
# fitted across process counts and asked for np=64; and a cluster of racks fitted inside one
# rack and asked for two, where the launch's latency probe moves the answer. Then, where
# Open MPI is installed beside MPICH, the same tool built with Open MPI (in build-ompi/)
# measures this machine through Open MPI's launcher, and its fit follows Open MPI's own
# collective algorithms.
# Between the two, published results of another machine (OSU, 128-core nodes) are
# imported, fitted at one node and asked for two; a cloud's (OSU on Compute Engine),
# fitted at 32 to 128 nodes and asked for 256; and another's (AWS), imported without
# saying where its ranks ran.
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

step --version
step measure
step fit
step predict --pattern alltoall --np 16 --bytes 1M
step report

if [ -x "$build/commfit-smpi" ]; then
    # A simulated cluster of single-core nodes: np 2 to 16, fitted across np, asked for 64;
    # launched on 64 ranks, so that the latency probe reaches the ranks np=64 uses.
    step measure --simulate "$top/data/platforms/flat.xml" --np 2,4,8,16 --launch-np 64 \
        --patterns pingpong,bcast,allreduce,allgather,alltoall --sizes 1,16,256,4K,64K,256K,1M,4M \
        -o sim/flat.csv
    step fit -i sim/flat.csv -o sim/flat.json
    step predict -m sim/flat.json --pattern alltoall --np 16,64 --bytes 1M
    # Between two measured sizes where the library's rules switch algorithm (SimGrid's mpich
    # reduce: a binomial tree below 2 KiB, scatter-gather from it), or where one algorithm's
    # sends start to wait at 64 KiB, each size reads from the side it runs on (the shipped
    # model of flat.xml at np 32; simulated: 1.83 us at 2000 B, 12.05 at 3000, allreduce of
    # 50000 B 47.55).
    step predict -m "$top/models/sim-flat.json" --pattern reduce --np 32 --bytes 2000,3000
    step predict -m "$top/models/sim-flat.json" --pattern allreduce --np 32 --bytes 50000
    # At an np between two fitted ones, the grid's reading across 64 KiB carried as theirs
    # was (the shipped model of racks.xml, whose np 72 lies between its fitted 64 and 128:
    # allreduce of 40000 B, simulated 112.9 us; 203.3 on the line).
    step predict -m "$top/models/sim-racks.json" --pattern allreduce --np 72 --bytes 40000
    # The same table from its np=2 rows alone: a bcast tree's sender sends its eager messages
    # at once, and np=2 cannot tell whether their bytes share its link (SimGrid's network
    # links; a card or a shared-memory copy taking them in turn) or each goes alone (SimGrid's
    # loopback); the answer is the middle of the two readings, its interval holding both (the
    # table holds np 16's simulated 4 KiB: 6.35 us; 5.81 in [2.90, 11.6], alone 4.65 and
    # sharing 7.25, the interval [1.26, 26.7] before stop 62 bounded the readings by their
    # latency and bytes ratios; the shipped data/sim-flat.csv, with more sizes: 5.77 in
    # [3.42, 9.74], where the reading alone gave 4.65 in [3.42, 6.32]).
    step fit -q -i sim/flat.csv --np 2 -o sim/flat-np2.json
    step predict -m sim/flat-np2.json --pattern bcast --np 16 --bytes 4K
    # Four racks of 8 four-core nodes, launched on 64 ranks (two racks), fitted at np 2-32
    # (one rack) and asked for 64: the launch's probes see the second rack, so the interval
    # has no upper bound and the answer adds its latency, the barrier's wait at np 64 (fit
    # took each fitted np's from its times) and (alltoall) the slower traffic across the
    # racks' uplinks (the table holds np 64's
    # simulated figures to compare: allreduce 1 KiB 40.8 us, alltoall 1 KiB 249.0 us, its
    # 16 rounds of 4 partners each waiting for the second rack, 256 KiB 16203 us). 4 B, not
    # 1: a reduction of 1 B holds no float, and allreduce had 2 sizes, no fit at any np
    # (measure now warns of it), so that np 64 was the point-to-point estimate's (51.4 us).
    step measure --simulate "$top/data/platforms/racks.xml" --np 2,4,8,16,32,64 \
        --patterns pingpong,bcast,allreduce,alltoall --sizes 4,1K,256K -o sim/racks.csv
    step fit -i sim/racks.csv --np 2,4,8,16,32 -o sim/racks.json
    step predict -m sim/racks.json --pattern allreduce --np 64 --bytes 1K
    step predict -m sim/racks.json --pattern alltoall --np 64 --bytes 1K,256K
    # np 30 leaves the last node of 4 with 2 ranks: SimGrid's mpich bcast then runs MPICH's
    # own rules of 2005, not its two-level tree: a binomial tree at 4 B, a scatter and a
    # recursive doubling allgather at 256 KiB (simulated 4.09 and 172.9 us; read as the
    # two-level tree until stop 66: 135.2 in [96.4, 152.4]).
    step predict -m sim/racks.json --pattern bcast --np 30 --bytes 4,256K
    # Open MPI's selection (SimGrid's ompi) on the same racks at np 2: its bcast "moves"
    # 64 KiB and 1 MiB between two ranks of a node in 0.825 us, where the ping-pong between
    # them takes 5.8 and 58 us; fit names the rows (--verbose: with the sizes and times).
    step measure --simulate "$top/data/platforms/racks.xml" --coll-selector ompi --np 2 \
        --patterns pingpong,bcast --sizes 4,1K,64K,1M -o sim/racks-ompi-np2.csv
    step fit --verbose -i sim/racks-ompi-np2.csv -o sim/racks-ompi-np2.json
    # Open MPI's reduce from np=2 on the flat cluster, launched on 13: its binary tree's ranks
    # wait for their children, the barrier after each call lets the ranks past 8 out a
    # message after the others at np 9 and 13, which np=2's two ranks never show, and at 16
    # KiB np 13 runs its binomial tree in 1 KiB segments, taken two receives at a time (the
    # table holds the simulated figures to compare: 4 B 2.70 and 2.80 us, 16 KiB at np 13
    # 18.68; read 1.87, 1.84 and 32.2 before stop 77).
    step measure --simulate "$top/data/platforms/flat.xml" --coll-selector ompi --np 2,9,13 \
        --patterns pingpong,reduce --sizes 4,1K,16K,64K -o sim/flat-ompi-reduce.csv
    step fit -i sim/flat-ompi-reduce.csv --np 2 -o sim/flat-ompi-reduce.json
    step predict -m sim/flat-ompi-reduce.json --pattern reduce --np 9,13 --bytes 4,16K
    # MPICH's reduce from np=2 on the racks (4 cores a node), launched on 16: below 2 KiB its
    # binomial tree receives one child at a time, each message np=2's own cost plus what the
    # probe's tiers add between its ranks (simulated: 4 B 0.565 and 0.691 us at np 8 and 16,
    # 1 KiB 0.691 and 0.828; read 0.548, 0.687, 0.625 and 0.773 before stop 78).
    step measure --simulate "$top/data/platforms/racks.xml" --coll-selector mpich --np 2,8,16 \
        --patterns pingpong,reduce --sizes 4,1K,64K -o sim/racks-mpich-reduce.csv
    step fit -i sim/racks-mpich-reduce.csv --np 2 -o sim/racks-mpich-reduce.json
    step predict -m sim/racks-mpich-reduce.json --pattern reduce --np 8,16 --bytes 4,1K
    # Open MPI's linear alltoall from np=2 on the flat cluster: SMPI charges a message posted
    # at once no sender's time of its own, and beyond each first message their bytes stream at
    # the launch's pair-exchange probe's line, below the ping-pong's to 64 KiB (the table holds
    # the simulated figures: 4 B 2.44 and 3.39 us at np 5 and 12, 64 KiB 35.5 and 77.4; read
    # 3.60, 6.30, and 63.4 and 170.6 outside their intervals, before stop 79).
    step measure --simulate "$top/data/platforms/flat.xml" --coll-selector ompi --np 2,5,12 \
        --patterns pingpong,alltoall --sizes 4,16K,64K -o sim/flat-ompi-alltoall.csv
    step fit -i sim/flat-ompi-alltoall.csv --np 2 -o sim/flat-ompi-alltoall.json
    step predict -m sim/flat-ompi-alltoall.json --pattern alltoall --np 5,12 --bytes 4,64K
    # Rooted collectives from np=2 on the cloud platform (4 cores a node), launched on 16:
    # the fan probe measures how far the messages a linear scatterv's root posts at once
    # overlap, which np=2 cannot tell; predict reads it at np 16, a level of the probe (the
    # table holds np 16's simulated figures to compare: 1 MiB 3549 us, 46 times np=2's),
    # and at np 12, between its levels, where np=2's whole answer stays in the interval.
    step measure --simulate "$top/data/platforms/cloud.xml" --np 2,16 \
        --patterns pingpong,scatterv,gatherv --sizes 4,4K,1M -o sim/cloud-rooted.csv
    step fit -i sim/cloud-rooted.csv --np 2 -o sim/cloud-rooted.json
    step predict -m sim/cloud-rooted.json --pattern scatterv --np 12,16 --bytes 4,1M
    # This machine as a simulator calibration: its ping-pong model exported as a SimGrid
    # platform, on which a simulated ping-pong costs what the model says.
    step export smpi -o sim/this-machine.xml
    step measure --simulate sim/this-machine.xml --np 2 --patterns pingpong \
        --sizes 1K,64K,1M -o sim/this-machine.csv
else
    echo "commfit: no commfit-smpi (SimGrid not found at configure): simulated steps skipped" >&2
fi

# The shipped SimGrid table of the racks under Open MPI's selection, fitted at its np (powers
# of two on full nodes) and asked for np 27: Rabenseifner's allreduce of 1 MiB there folds the
# first 22 ranks in pairs, one of each waiting out the halving for the result, two messages
# of 1 MiB more on its path, which no fitted np shows: the answer is the middle of the steps'
# reading and the fitted np's times carried to np 27 by the algorithm's replay rank by rank,
# the interval holding both (data/sim-uneven/large-racks-ompi.csv: 440.5 us simulated; 408.3
# in [267.8, 533.9], 319.7 in [267.8, 389.7] before stop 67).
step fit -q -i "$top/data/sim-racks-ompi.csv" -o racks-ompi.json
step predict -m racks-ompi.json --pattern allreduce --np 27 --bytes 1M
# The shipped fat nodes (16 ranks each on one shared backplane) under MPICH's selection,
# allgather of 4 KiB at np 27: SimGrid's "ring" sends to rank + i at step i, so from step 16
# on every block crosses the network at once; replayed rank by rank with each step's traffic
# from the pair-exchange probe (data/sim-uneven/fatnodes.csv: 114.7 us simulated; 149.6 in
# [9.68, 297.8], 419.5 in [9.68, 25129] before stop 68).
step fit -q -i "$top/data/sim-fatnodes.csv" -o fatnodes.json
step predict -m fatnodes.json --pattern allgather --np 27 --bytes 4K
# The shipped flat cluster under Open MPI's selection, fitted at np 2-32 and asked for np 64
# of 32 and 48 KiB: its knomial bcast's senders send to all their children at once below 64
# KiB, each message taking the share of the link the fit found (eager_load in the model
# file, 0.70 here) rather than all of it (63.35 and 91.08 us simulated; 94.5 and 157.0,
# outside their intervals, before stop 74).
step fit -q -i "$top/data/sim-flat-ompi.csv" --np 2,4,8,16,32 -o flat-ompi.json
grep '"eager_load"' flat-ompi.json >&2
step predict -m flat-ompi.json --pattern bcast --np 64 --bytes 32K,48K
# A held-out table of the fat nodes under Open MPI's selection (data/sim-acrossnp), fitted at
# np 2-7 and asked for np 14: its linear scatterv's time, the mean of the ranks' own, is each
# receiver's wait for its message, (p-1)/p of one, fitted so across np (0.291 and 2.160 us
# simulated at 8 B and 50000 B; 0.584 and 4.321, intervals 20000 times wide, before stop 84).
step fit -q -i "$top/data/sim-acrossnp/rooted-fatnodes-ompi.csv" --np 2,3,4,5,6,7 \
    -o fatnodes-rooted.json
step predict -m fatnodes-rooted.json --pattern scatterv --np 14 --bytes 8,50000
# The held-out wide platform (nodes of 8) fitted inside one node, np 2-7, asked for np 14:
# 200000 B wait for their receivers (a rendezvous), and the 6 blocks past the root's node
# cross its link one after another, each waiting rank (a scatterv's receivers, a held
# gatherv's senders) waiting for those before its own: 68.0 us simulated for both; 68.9 and
# 53.2 now, 42.6 and 28.5 before stop 85.
step fit -q -i "$top/data/sim-acrossnp/rooted-wide-mpich.csv" --np 2,3,4,5,6,7 -o wide-rooted.json
step predict -m wide-rooted.json --pattern scatterv --np 14 --bytes 200000
step predict -m wide-rooted.json --pattern gatherv --np 14 --bytes 200000

# Published results of another machine (OSU osu_bcast, Open MPI 4.1.6, 128-core nodes; see
# data/realnp/README.md): imported with what the benchmark's output does not say (the
# library, the ranks per node), fitted at np 2 to 128 (one node) and asked for np 256,
# which crosses the network no fitted np did: no upper bound, and a note says why.
osu="$top/data/realnp/orfeo-epyc-bcast-ompi"
step import osu --mpi-library 'Open MPI 4.1.6' --ranks-per-node 128 --np 2,4,8,16,32,64,128 \
    "$osu/osu-np2.txt" "$osu/osu-np4.txt" "$osu/osu-np8.txt" "$osu/osu-np16.txt" \
    "$osu/osu-np32.txt" "$osu/osu-np64.txt" "$osu/osu-np128.txt" -o realnp/orfeo-bcast.csv
step fit -i realnp/orfeo-bcast.csv -o realnp/orfeo-bcast.json
step predict -m realnp/orfeo-bcast.json --pattern bcast --np 64,256 --bytes 1K
# And a cloud's (OSU osu_allreduce on Compute Engine, 56 ranks a node, Open MPI of an
# unknown version): no library named, so the across-np formula answers np 14336 (256
# nodes) from the runs on 32 to 128 nodes, carried through np 7168's own answer
# ("+ measured np"); no latency probe says how far the 128 nodes it adds lie: no upper bound.
gce="$top/data/realnp/gce-cpu-ompi"
step import osu --ranks-per-node 56 --np 1792,3584,7168 "$gce/osu-32-iter-1.txt" \
    "$gce/osu-64-iter-1.txt" "$gce/osu-128-iter-1.txt" -o realnp/gce-allreduce.csv
step fit -i realnp/gce-allreduce.csv -o realnp/gce-allreduce.json
step predict -m realnp/gce-allreduce.json --pattern allreduce --np 14336 --bytes 4,1M
# ABCI's (OSU osu_allreduce, Open MPI 4.0.5, 8 ranks a node), whose runs start at np 4: no
# np=2, so the grid reads its unit through np 4's algorithms and follows Open MPI 4.0's rules
# to np 128, a ring from 10000 B (16 KiB: 188.9 us measured, the median of two runs; read
# 128.4 by recursive doubling before stop 76, which gave such a table the formula alone).
abci="$top/data/realnp/abci-anode-allreduce-ompi405"
step import osu --mpi-library 'Open MPI 4.0.5' --ranks-per-node 8 --np 4,8,16,32,64 \
    "$abci/osu-np4-intra-7280520.txt" "$abci/osu-np8-intra-7109424.txt" \
    "$abci/osu-np16-n2-7109619.txt" "$abci/osu-np32-n4-7109764.txt" \
    "$abci/osu-np64-n8-7109772.txt" -o realnp/abci-allreduce.csv
step fit -q -i realnp/abci-allreduce.csv -o realnp/abci-allreduce.json
step predict -m realnp/abci-allreduce.json --pattern allreduce --np 128 --bytes 16K,4M
# The AWS set (OSU osu_allreduce, 96 ranks a node) imported without saying where its ranks
# ran: import says what that means, and np 24576 past the fitted 3072-12288 has no upper
# bound, the note saying why (the lower end down to the smallest fitted np's).
aws="$top/data/realnp/aws-eks-hpc6a-efa-ompi"
step import osu --np 3072,6144,12288 "$aws/osu-32-iter-1.txt" "$aws/osu-64-iter-1.txt" \
    "$aws/osu-128-iter-1.txt" -o realnp/aws-unplaced.csv
step fit -q -i realnp/aws-unplaced.csv -o realnp/aws-unplaced.json
step predict -m realnp/aws-unplaced.json --pattern allreduce --np 24576 --bytes 1M

if command -v mpicc.openmpi >/dev/null 2>&1; then
    # Open MPI: its own build, its launcher, its collective algorithms. As root its launcher
    # refuses to start unless told twice that root is meant.
    if [ "$(id -u)" -eq 0 ]; then
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
    fi
    echo "+ BUILD=$top/build-ompi scripts/build.sh --with-mpi=openmpi" >&2
    BUILD="$top/build-ompi" "$top/scripts/build.sh" --with-mpi=openmpi
    commfit="$top/build-ompi/commfit"
    step --version
    step measure -o ompi/this-machine.csv
    grep '^# mpi_library:' ompi/this-machine.csv >&2
    step fit -i ompi/this-machine.csv -o ompi/this-machine.json
    step predict -m ompi/this-machine.json --pattern allreduce --np 2,16 --bytes 1M
else
    echo "commfit: no mpicc.openmpi (Open MPI not installed): its steps skipped" >&2
fi
