# Every fuzz target's checks on its saved crashes (tests/fuzz/regressions/TARGET/) and on
# the seed inputs of its corpus, without libFuzzer: the target's code linked with a plain
# driver (tests/fuzz/replay.c), in the build under test (so under ASan and UBSan in the
# sanitizer build). make fuzz-run replays the crashes too, but only where clang's
# libFuzzer is; this keeps them in make check everywhere.
. "$top_srcdir/tests/setup.sh"

# replay TARGET FILE...: one TAP line per file. The files go through one process, as
# libFuzzer runs its inputs (a process each took 13 s of the sanitizer build's suite, its
# leak check 40 ms of each exit); where that fails, each again alone, to name the file.
replay() {
    target=$1
    shift
    # the files that exist and are not hidden, as the arguments (added after the given ones,
    # which then go)
    given=$#
    for f in "$@"; do
        [ -f "$f" ] || continue
        case ${f##*/} in .*) continue ;; esac
        set -- "$@" "$f"
    done
    shift "$given"
    [ $# -gt 0 ] || return 0
    run "$top_builddir/tests/fuzz/replay-$target" "$@"
    all_rc=$rc
    for f in "$@"; do
        [ "$all_rc" -eq 0 ] || run "$top_builddir/tests/fuzz/replay-$target" "$f"
        if [ "$rc" -eq 0 ]; then
            pass "$target: ${f#"$top_srcdir"/}"
        else
            fail "$target: ${f#"$top_srcdir"/} (exit $rc)"
            sed 's/^/#   /' "$T/err" | head -20
        fi
    done
}

reg="$top_srcdir/tests/fuzz/regressions"
replay table "$reg"/fuzz-table/* "$top_srcdir"/data/*.csv
replay size "$reg"/fuzz-size/*
printf '4K' >"$T/size-4K"
printf '1X' >"$T/size-1X"
printf '99999999999999999999G' >"$T/size-huge"
replay size "$T"/size-*
replay model "$reg"/fuzz-model/* "$top_srcdir"/models/*.json
replay import "$reg"/fuzz-import/* "$top_srcdir"/tests/data/realdata/*.txt
done_testing
