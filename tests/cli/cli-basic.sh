# The top-level command: help, version, the subcommand table, usage errors.
. "$top_srcdir/tests/setup.sh"

run "$COMMFIT" --version
expect_rc 0 "--version"
expect_out "commfit $VERSION" "--version"

run "$COMMFIT" -V
expect_out "commfit $VERSION" "-V"

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

done_testing
