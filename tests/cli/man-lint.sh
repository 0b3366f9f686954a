# Every man page renders without a groff warning that loses text: a line starting with a
# dot or a quote is a request to troff, and an unknown one drops the line ("..., the fit took
# the same replay's wait" vanished from commfit-predict(1) so); a bad escape likewise. Lines
# too long to break are layout, not loss, and pass. Skipped without groff.
. "$top_srcdir/tests/setup.sh"

pages=$(ls "$top_builddir"/man/*.1 "$top_builddir"/man/*.5 2>/dev/null)
if ! command -v groff >/dev/null 2>&1; then
    skip "groff not installed"
else
    check "the man pages are built" test -n "$pages"
    for f in $pages; do
        name=$(basename "$f")
        groff -man -Tutf8 -ww -z "$f" >"$T/err" 2>&1
        check "$name: no request dropped, no bad escape" \
            sh -c '! grep -E "not defined|escape|unknown" "$1"' sh "$T/err"
        sed 's/^/#   /' "$T/err"
        # At a terminal's 80 columns and a narrow 65 (man's widths), every line breaks:
        # an unbreakable example ran past the margin in commfit-formats(5). (A line that
        # breaks but cannot be justified, as a long install path in distcheck's pages, is
        # layout alone.)
        for w in 65 80; do
            groff -man -Tutf8 -ww -z -rLL=${w}n "$f" >"$T/err" 2>&1
            check "$name: at $w columns, every line breaks" \
                sh -c '! grep -E "break line" "$1"' sh "$T/err"
            sed 's/^/#   /' "$T/err"
        done
    done
fi

done_testing
