# commfit links no MPI library; measure runs in commfit-mpi, which commfit execs in place
# (same pid, environment and arguments) and finds next to itself, in the installed layout
# relative to itself, or where COMMFIT_MPI says.
. "$top_srcdir/tests/setup.sh"
: "${bindir:?run through make check}" "${pkglibexecdir:?run through make check}"
MPIPROG=$(dirname "$COMMFIT")/commfit-mpi

if command -v ldd >/dev/null 2>&1; then
    run ldd "$COMMFIT"
    expect_rc 0 "ldd commfit"
    check "commfit loads no MPI library" sh -c "! grep -Eq 'lib(mpi|mpich|open-rte|open-pal|ucp|ucs)[^ ]*\\.so' '$T/out'"
    run ldd "$MPIPROG"
    check "commfit-mpi does load the MPI library" grep -Eq 'lib(mpi|mpich)[^ ]*\.so' "$T/out"
else
    skip "ldd commfit: no ldd on this platform"
    skip "commfit loads no MPI library: no ldd"
    skip "commfit-mpi does load the MPI library: no ldd"
fi

run "$COMMFIT" measure --help
expect_rc 0 "measure --help through commfit-mpi"
check "measure --help: the measure usage" grep -q '^Usage: commfit measure \[OPTIONS\]' "$T/out"
run "$COMMFIT" help measure
check "help measure: the measure usage" grep -q '^Usage: commfit measure \[OPTIONS\]' "$T/out"

# exec in place: a stand-in for commfit-mpi reports its pid, arguments and environment.
cat >"$T/fake-mpi" <<'SH'
#!/bin/sh
{ echo "pid $$"; for a in "$@"; do echo "arg $a"; done; echo "PMI_RANK ${PMI_RANK-}"
  echo "COMMFIT_EXE ${COMMFIT_EXE-}"; } >"$FAKE_OUT"
exit 7
SH
chmod +x "$T/fake-mpi"
export FAKE_OUT="$T/fake-out"
run env COMMFIT_MPI="$T/fake-mpi" PMI_RANK=1 sh -c 'echo $$ >"$0"; exec "$1" measure --np 2 "a b"' \
    "$T/sh-pid" "$COMMFIT"
expect_rc 7 "COMMFIT_MPI: its status is measure's"
exe=$(cd "$(dirname "$COMMFIT")" && pwd -P)/$(basename "$COMMFIT")
printf '%s\n' "pid $(cat "$T/sh-pid")" "arg measure" "arg --np" "arg 2" "arg a b" "PMI_RANK 1" \
    "COMMFIT_EXE $exe" >"$T/want"
check "exec in place: same pid, the arguments as given, the environment kept" \
    cmp -s "$T/want" "$T/fake-out"

run env COMMFIT_MPI="$T/missing" "$COMMFIT" measure --help
expect_rc 1 "COMMFIT_MPI names a missing file"
expect_err "commfit: measure: COMMFIT_MPI='$T/missing': No such file or directory" \
    "COMMFIT_MPI names a missing file"

# The installed layout under another root (as DESTDIR or a moved prefix leave it).
mkdir -p "$T/root$bindir" "$T/root$pkglibexecdir"
cp "$COMMFIT" "$T/root$bindir/commfit"
cp "$MPIPROG" "$T/root$pkglibexecdir/commfit-mpi"
run "$T/root$bindir/commfit" measure --np 0
expect_rc 2 "installed layout: commfit-mpi found relative to commfit"
expect_err "commfit: measure: --np '0': expected 1 to 16777216
Try 'commfit measure --help'." "installed layout: measure's own message"
if [ -e "$pkglibexecdir/commfit-mpi" ]; then
    skip "missing commfit-mpi: one is installed in $pkglibexecdir"
    skip "missing commfit-mpi: message"
else
    rm "$T/root$pkglibexecdir/commfit-mpi"
    run "$T/root$bindir/commfit" measure --help
    expect_rc 1 "missing commfit-mpi"
    check "missing commfit-mpi: says what and where it looked" \
        grep -q "^commfit: measure: cannot find commfit-mpi, the MPI part of commfit (looked at '$T/root$bindir/commfit-mpi', .*'$pkglibexecdir/commfit-mpi'): install it or set COMMFIT_MPI to its path\$" "$T/err"
fi

run "$MPIPROG"
expect_rc 2 "commfit-mpi run by hand"
grep_err "^commfit-mpi: the MPI part of commfit" "commfit-mpi run by hand: points to commfit"

# Everything else never touches commfit-mpi.
run env COMMFIT_MPI="$T/missing" "$COMMFIT" predict --help
expect_rc 0 "predict needs no commfit-mpi"

done_testing
