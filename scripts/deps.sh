#!/bin/sh
# Installs the Debian packages commfit needs to build, test and draw, when they are
# missing: with apt-get as root, through sudo otherwise, or prints the command to run.
set -eu
pkgs="mpich libmpich-dev openmpi-bin libopenmpi-dev libsimgrid-dev libgsl-dev libjansson-dev autoconf automake libtool pkg-config gnuplot-nox make gcc clang valgrind"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "commfit: installing missing packages:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo"
else
    echo "commfit: run this as root, then try again:" >&2
    echo "  apt-get update && apt-get install -y$missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
