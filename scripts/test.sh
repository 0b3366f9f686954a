#!/bin/sh
# The test command: installs what is missing, builds, and runs the whole test suite.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/build.sh" "$@"
cd "${BUILD:-$top/build}"
make -j"$(nproc)" check
