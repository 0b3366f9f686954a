# Sourced after setup.sh by the report tests (report.sh, report-model.sh): the gnuplot
# they check drawings with, and what they check a report folder by.

# The gnuplot the tests use to check what report draws ($gp, empty without one: the
# drawing checks are then skipped).
gp=${GNUPLOT:-}
[ -n "$gp" ] || gp=$(command -v gnuplot || true)

# not_wellformed FILE...: the files that do not parse as XML, one a line; one python3 for
# them all (each start of python3 costs a quarter of a second where it is a pyenv shim, and
# a report folder holds some 20 drawings), else xmllint each. Exit 2 with neither.
not_wellformed() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import sys, xml.dom.minidom
for f in sys.argv[1:]:
    try:
        xml.dom.minidom.parse(f)
    except Exception:
        print(f)' "$@"
    elif command -v xmllint >/dev/null 2>&1; then
        for f in "$@"; do xmllint --noout "$f" 2>/dev/null || echo "$f"; done
    else
        return 2
    fi
}

# elements FILE: plot elements gnuplot drew (each one group in the SVG).
elements() { grep -c 'id="gnuplot_plot_[0-9]*"' "$1" || true; }

# links_ok DIR: every src= and href= of DIR/index.html names a file in DIR.
links_ok() {
    refs=$(grep -o -E '(src|href)="[^"#][^"]*"' "$1/index.html" | sed 's/^[a-z]*="//; s/"$//')
    [ -n "$refs" ] || return 1
    for f in $refs; do
        case $f in
        */* | *:*) echo "#   $f is not a file of the folder"; return 1 ;;
        esac
        [ -f "$1/$f" ] || { echo "#   $f does not exist"; return 1; }
    done
}
