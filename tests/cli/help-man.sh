# Every option of each command is documented in the man page of that command: the list
# comes from the command's option table (--list-options), the one --help is printed from.
. "$top_srcdir/tests/setup.sh"

# options FILE: the option names in a --help text, one per line ("--np", "-o").
options() {
    { grep -Eo -- '(^|[ ,[])--[a-z][a-z0-9-]*' "$1" | sed 's/^[ ,[]*//'
      grep -Eo -- '^ +-[A-Za-z0-9]\b' "$1" | sed 's/^ *//'; } | sort -u
}

# documented MAN OPT: the man page source mentions OPT (roff writes '-' as '\-').
documented() {
    roff=$(printf '%s' "$2" | sed 's/-/\\\\-/g')
    grep -q -- "$roff" "$1" || grep -q -- "$2" "$1"
}

man_of() {
    if [ -f "$top_builddir/man/commfit-$1.1" ]; then
        echo "$top_builddir/man/commfit-$1.1"
    else
        echo "$top_builddir/man/commfit.1"
    fi
}

"$COMMFIT" --help >"$T/help"
for o in $(options "$T/help"); do
    check "commfit $o is in commfit(1)" documented "$top_builddir/man/commfit.1" "$o"
done
subs=$(sed -n '/^Subcommands:/,/^$/p' "$T/help" | awk 'NF > 1 {print $1}' | grep -v ':$')
for s in $subs; do
    "$COMMFIT" "$s" --list-options >"$T/opts-$s"
    check "commfit $s --list-options names options" grep -q -- '^--help$' "$T/opts-$s"
    m=$(man_of "$s")
    for o in $(cat "$T/opts-$s"); do
        check "commfit $s $o is in $(basename "$m")" documented "$m" "$o"
    done
    check "commfit(1) names the subcommand $s" grep -q "$s" "$top_builddir/man/commfit.1"
done

done_testing
