#!/bin/sh
# Configures and builds commfit in build/ (or $BUILD), passing any arguments to configure.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
"$top/scripts/deps.sh"
cd "$top"
[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
mkdir -p "$build"
cd "$build"
"$top/configure" -q "$@"
make -j"$(nproc)" >/dev/null
# What was built, and with which MPI library (configure ran quietly): the build says.
"$build/commfit" --version | sed "s|^|built in $build: |"
