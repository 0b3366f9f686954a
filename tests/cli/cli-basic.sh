# The top-level command: help, version, the subcommand table, usage errors.
. "$top_srcdir/tests/setup.sh"

run "$COMMFIT" --version
expect_rc 0 "--version"
check "--version: the version first, then the revision" \
    sh -c "head -1 '$T/out' | grep -Eqx 'commfit $VERSION \(revision [A-Za-z0-9._+/-]+\)'"
check "--version: the MPI library and simulation the build measures with" \
    sh -c "sed -n 2p '$T/out' | grep -Eq '^MPI library: (mpich|openmpi) [0-9][0-9.]* \(launcher .+\)$' &&
           sed -n 3p '$T/out' | grep -q '^simulation: '"

run "$COMMFIT" -V
check "-V: as --version" sh -c "\"$COMMFIT\" --version | cmp -s - '$T/out'"

run "$COMMFIT" --help
expect_rc 0 "--help"
expect_golden help "--help"

run "$COMMFIT" help
expect_rc 0 "help"
expect_golden help "help"

run "$COMMFIT"
expect_rc 2 "no arguments"
check "no arguments: usage on stderr" grep -q '^Usage: commfit' "$T/err"
check "no arguments: nothing on stdout" test ! -s "$T/out"

run "$COMMFIT" bogus
expect_rc 2 "unknown subcommand"
expect_err "commfit: unknown subcommand 'bogus'
Try 'commfit --help'." "unknown subcommand"

run "$COMMFIT" --bogus
expect_rc 2 "unknown option"
expect_err "commfit: unknown option '--bogus'
Try 'commfit --help'." "unknown option"

run "$COMMFIT" help bogus
expect_rc 2 "help for an unknown subcommand"
expect_err "commfit: unknown subcommand 'bogus'
Try 'commfit --help'." "help for an unknown subcommand"

# Every subcommand in the table has help, and 'commfit help SUB' prints the same.
subs=$("$COMMFIT" --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NF > 1 {print $1}' | grep -v ':$')
check "the table lists the six subcommands" test "$(echo $subs)" = "export fit import measure predict report"
for s in $subs; do
    run "$COMMFIT" "$s" --help
    expect_rc 0 "$s --help"
    check "$s --help starts with its usage" grep -q "^Usage: commfit $s" "$T/out"
    cp "$T/out" "$T/sub-help"
    run "$COMMFIT" help "$s"
    check "help $s prints what $s --help prints" cmp -s "$T/out" "$T/sub-help"
done

# Every subcommand's help: an option's name never runs into its text (measure's read
# "--coll-selector NAMEwhose collective algorithms ..."), a name as wide as the column
# standing on its own line.
for c in fit predict import report export measure; do
    "$COMMFIT" $c --help >"$T/help-$c.txt" 2>&1
    check "$c --help: no option name runs into its text" \
        sh -c "! grep -E -- '^ +(-[a-zA-Z], )?--[a-z-]+( [A-Z]+)?[^ ]' '$T/help-$c.txt' | grep -E -- '--[a-z-]+ [A-Z]+[a-z]'"
done
check "measure --help: --coll-selector NAME alone on its line" grep -q '^      --coll-selector NAME$' "$T/help-measure.txt"
# What goes to standard output must get there: a help, a version or a formula written to a
# full disk exited 0 with nothing written.
if [ -w /dev/full ]; then
    for args in "--help" "--version" "help fit" "predict --help" \
        "predict -m $top_srcdir/models/sim-flat.json -p pingpong -n 2 --formula"; do
        rc=0
        $COMMFIT $args >/dev/full 2>"$T/full.err" || rc=$?
        check "'$args' to a full disk: exit 1 ($rc)" test "$rc" -eq 1
        check "'$args' to a full disk: says so" \
            grep -Eq '^commfit: ([a-z]+: )?cannot write the standard output: No space left on device$' "$T/full.err"
    done
else
    skip "no /dev/full: writes to a full disk"
fi
# Options after operands are read whatever POSIXLY_CORRECT says (glibc's getopt stops at the
# first operand when it is set: 'fit t.csv -o m.json' read '-o' as a table); after '--'
# everything is an operand.
cp "$top_srcdir/data/imb_stackhpc_ompi4_ib_pingpong.csv" t.csv
for posix in "" 1; do
    run env ${posix:+POSIXLY_CORRECT=$posix} "$COMMFIT" fit -q t.csv -o m$posix.json
    expect_rc 0 "fit TABLE -o FILE${posix:+, POSIXLY_CORRECT set}"
    check "fit TABLE -o FILE${posix:+, POSIXLY_CORRECT set}: the model written" test -s m$posix.json
    run env ${posix:+POSIXLY_CORRECT=$posix} "$COMMFIT" predict -p pingpong -n 2 -b 1K -m m$posix.json -f csv
    expect_rc 0 "predict with -m last${posix:+, POSIXLY_CORRECT set}"
done
run "$COMMFIT" fit -q -- t.csv -o m2.json
expect_rc 1 "after '--', '-o' is an operand"
grep_err "^commfit: fit: -o: cannot open" "after '--', '-o' is an operand: read as a table"

# An abbreviation of two options says which; an option an 's' away names the one meant
# (both said "unknown option" alone: the docs audit of stop 58).
run "$COMMFIT" predict --form csv
expect_rc 2 "an ambiguous abbreviation"
grep_err "^commfit: predict: option '--form' is ambiguous: --format, --formula$" "names both"
run "$COMMFIT" predict --patterns bcast
expect_rc 2 "predict --patterns"
grep_err "^commfit: predict: unknown option '--patterns' \\(--pattern\\?\\)$" "names --pattern"
run "$COMMFIT" predict --=x
grep_err "^commfit: predict: unknown option '--=x'$" "'--=x': unknown, not every option"
run "$COMMFIT" import --l
grep_err "^commfit: import: unknown option '--l' \\(--lenient\\?\\)$" "'--l': the one option it abbreviates"
run "$COMMFIT" fit --quiet=1 -i t.csv
expect_rc 2 "a value to an option that takes none"
grep_err "^commfit: fit: option '--quiet' takes no value$" "'--quiet=1': says so"
run "$COMMFIT" predict --model-al=x -m m.json
expect_rc 2 "the same abbreviated"
grep_err "^commfit: predict: option '--model-alone' takes no value$" "'--model-al=x': names the option"
run "$COMMFIT" fit --zzz
grep_err "^commfit: fit: unknown option '--zzz'$" "an unknown option: as before"
done_testing
