# The source revision a build records (commfit_revision in a measured table): the checkout's
# 'git describe --always --dirty', worked out again at every make; in a tarball's build
# (make distcheck), the revision make dist wrote; else 'unknown'. commfit --version prints it.
. "$top_srcdir/tests/setup.sh"
h="$top_builddir/cf-revision.h"
check "the build made cf-revision.h" test -f "$h"
got=$(sed -n 's/^#define CF_REVISION "\(.*\)"$/\1/p' "$h")
if [ -e "$top_srcdir/.git" ] && command -v git >/dev/null 2>&1; then
    want=$(cd "$top_srcdir" && git describe --always --dirty)
    check "a git checkout: git describe's '$want' (got '$got')" test "$got" = "$want"
elif [ -f "$top_srcdir/.tarball-revision" ]; then
    want=$(cat "$top_srcdir/.tarball-revision")
    check "a tarball: its recorded revision '$want' (got '$got')" test "$got" = "$want"
else
    check "neither: unknown (got '$got')" test "$got" = unknown
fi
check "commfit --version names it: 'commfit $VERSION (revision $got)'" \
    test "$("$COMMFIT" --version | head -1)" = "commfit $VERSION (revision $got)"
check "a revision of safe characters alone" sh -c "printf '%s' '$got' | grep -Eqx '[A-Za-z0-9._+/-]+'"
done_testing
