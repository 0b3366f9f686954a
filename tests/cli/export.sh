# commfit export smpi: the platform file it writes (XML, hosts, factors, comment) for
# every model kind, where it goes, and every refusal, which leaves no file behind.
. "$top_srcdir/tests/setup.sh"

MODELS="$top_srcdir/models"
SHM=imb2021_mpich402_1node_np2_all

# factors FILE ID: the value of the <prop id=ID> of FILE.
factors() {
    sed -n "s|.*<prop id=\"$2\" value=\"\\([^\"]*\\)\"/>.*|\\1|p" "$1"
}

# sane FILE: lat-factor and bw-factor name the same increasing integer thresholds from 0,
# latency factors are >= 0 and bandwidth factors > 0.
sane() {
    factors "$1" smpi/lat-factor | tr ';' '\n' >"$T/lat"
    factors "$1" smpi/bw-factor | tr ';' '\n' >"$T/bw"
    [ -s "$T/lat" ] || return 1
    cut -d: -f1 "$T/lat" >"$T/lat.s"
    cut -d: -f1 "$T/bw" >"$T/bw.s"
    cmp -s "$T/lat.s" "$T/bw.s" || return 1
    awk -F: 'NR == 1 && $1 != 0 { exit 1 }
             NR > 1 && $1 + 0 <= prev { exit 1 }
             $1 !~ /^[0-9]+$/ || !($2 + 0 >= 0) { exit 1 }
             { prev = $1 + 0 }' "$T/lat" || return 1
    awk -F: '!($2 + 0 > 0) { exit 1 }' "$T/bw"
}

# comment_ok FILE: one comment, without "--" inside (XML forbids it).
comment_ok() {
    awk '/<!--/ { c = 1; next } /-->/ { c = 0; next } c && /--/ { bad = 1 } END { exit bad }' "$1"
}

# ---- help and usage ----
run "$COMMFIT" export --help
expect_rc 0 "export --help"
check "export --help: synopsis" grep -q '^Usage: commfit export smpi \[-m MODEL\] \[-o FILE\] \[--hosts N\]$' "$T/out"
run "$COMMFIT" help export
expect_rc 0 "help export"
check "help export: the same text" grep -q '^Usage: commfit export smpi' "$T/out"

run "$COMMFIT" export
expect_rc 2 "export without a format"
expect_err "commfit: export: expected a format: commfit export smpi
Try 'commfit export --help'." "export without a format"
run "$COMMFIT" export xml
expect_rc 2 "export xml"
expect_err "commfit: export: unknown format 'xml': expected smpi
Try 'commfit export --help'." "export xml"
run "$COMMFIT" export m.json
expect_rc 2 "export m.json"
expect_err "commfit: export: unknown format 'm.json': expected smpi (name a model file with -m: \
commfit export smpi -m m.json)
Try 'commfit export --help'." "export m.json: says -m"
run "$COMMFIT" export smpi m.json
expect_rc 2 "export smpi m.json"
grep_err "^commfit: export: unexpected argument 'm.json': name a model file with -m$" \
    "export smpi m.json: says -m"
run "$COMMFIT" export smpi extra
expect_rc 2 "export smpi extra"
grep_err "^commfit: export: unexpected argument 'extra'$" "export smpi extra: names it"
for h in 1 0 -3 1000001 x 2.5 ''; do
    run "$COMMFIT" export smpi --hosts "$h" -m "$MODELS/$SHM.json" -o "$T/h.xml"
    expect_rc 2 "--hosts '$h'"
    grep_err "^commfit: export: (--hosts '$h': expected (an integer|2 to 1000000))$" "--hosts '$h': quoted"
done
check "no file after a usage error" test ! -e "$T/h.xml"
run "$COMMFIT" export smpi --colour
expect_rc 2 "unknown option"
grep_err "^commfit: export: unknown option '--colour'$" "unknown option: named"

# ---- model file errors: exit 1, the file named ----
mkdir "$T/empty"
cd "$T/empty"
run "$COMMFIT" export smpi
cd "$T"
expect_rc 1 "no models/"
expect_err "commfit: export: no model file in models/: run 'commfit fit' first, or name one with -m" "no models/"
run "$COMMFIT" export smpi -m "$T/nope.json"
expect_rc 1 "a missing model file"
grep_err "^commfit: export: $T/nope.json: cannot open" "a missing model file: named"
printf '{"commfit_model": 1,\n' >"$T/bad.json"
run "$COMMFIT" export smpi -m "$T/bad.json" -o "$T/bad.xml"
expect_rc 1 "a malformed model file"
grep_err "^commfit: export: $T/bad.json:2: not valid JSON" "a malformed model file: file:line"
check "a malformed model file: no output" test ! -e "$T/bad.xml"

# A model without pingpong at np=2 (an alltoall): refused, and the old file stays.
echo old >"$T/keep.xml"
run "$COMMFIT" export smpi -m "$MODELS/osu562_stackhpc_alaska_hdr100ib_ompi4_alltoall.json" -o "$T/keep.xml"
expect_rc 1 "no pingpong at np=2"
expect_err "commfit: export: $MODELS/osu562_stackhpc_alaska_hdr100ib_ompi4_alltoall.json: no pingpong fit at np=2: the platform reproduces the ping-pong; measure it ('commfit measure --patterns pingpong') and fit it" "no pingpong at np=2"
expect_text "$T/keep.xml" old "no pingpong at np=2: the file named by -o is untouched"
check "no temporary file left" sh -c "[ \$(ls '$T' | grep -c keep) -eq 1 ]"

# -o naming the model file itself (or a path to it): refused before anything is written,
# the model intact (it was overwritten with the platform's XML, exit 0).
cp "$MODELS/$SHM.json" "$T/self.json"
for o in "$T/self.json" "$T/../$(basename "$T")/self.json"; do
    run "$COMMFIT" export smpi -m "$T/self.json" -o "$o"
    expect_rc 2 "-o the model itself ($o)"
    grep_err "^commfit: export: -o '.*self.json' is the same file as the model '$T/self.json': writing it would destroy the model; name another output\$" "-o the model itself: says so"
    check "-o the model itself: the model intact" cmp -s "$MODELS/$SHM.json" "$T/self.json"
done

# A pingpong measured at one size: no bandwidth to export.
cat >"$T/one.csv" <<EOF
# schema: 1
pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,t_med_us,t_ci95_us,bw_MiBps
pingpong,2,0,byte,,100,5,1,1,1,1,,0
barrier,2,0,byte,,100,5,2,2,2,2,,
EOF
run "$COMMFIT" fit -i "$T/one.csv" -o "$T/one.json"
if [ "$rc" -eq 0 ]; then
    run "$COMMFIT" export smpi -m "$T/one.json" -o "$T/one.xml"
    expect_rc 1 "pingpong at one size"
    grep_err "one size only \\(0 B\\)" "pingpong at one size: says so"
    check "pingpong at one size: no output" test ! -e "$T/one.xml"
else
    grep_err "." "a table of one size is refused by fit already"
fi

# ---- the default: newest model in models/, into platforms/NAME-smpi.xml ----
mkdir -p "$T/w/models"
cp "$MODELS/$SHM.json" "$T/w/models/"
cd "$T/w"
run "$COMMFIT" export smpi
cd "$T"
expect_rc 0 "export smpi with defaults"
X="$T/w/platforms/$SHM-smpi.xml"
check "the default output is platforms/NAME-smpi.xml" test -f "$X"
sed -n 1p "$T/err" >"$T/err1"
expect_text "$T/err1" "commfit: export: using models/$SHM.json" "defaults: says which model"
grep_err "^commfit: export: wrote platforms/$SHM-smpi.xml: 16 hosts, [0-9]+ size ranges, within (0\\.[0-9][0-9]|1\\.00)% of the piecewise fit from 0 B to 4 MiB$" \
    "defaults: says what it wrote"
check "XML declaration" grep -q "^<?xml version='1.0'?>$" "$X"
check "platform version 4.1" grep -q '^<platform version="4.1">$' "$X"
check "network/model SMPI" grep -q '<prop id="network/model" value="SMPI"/>' "$X"
check "TCP-gamma lifted" grep -q '<prop id="network/TCP-gamma" value="0"/>' "$X"
check "16 single-core hosts" grep -q 'prefix="node-" suffix="" radical="0-15" speed="1Gf" core="1"' "$X"
check "split-duplex links, fat-pipe backbone" grep -q 'sharing_policy="SPLITDUPLEX"' "$X"
check "fat-pipe backbone" grep -q 'bb_lat="0us" bb_sharing_policy="FATPIPE"' "$X"
check "factors well formed" sane "$X"
check "the comment names the model file" grep -q "from the model\$" "$X"
check "the comment names the model" grep -q "file models/$SHM.json, fit pingpong np=2 byte: piecewise," "$X"
check "the comment names the table" grep -q "fitted from data/$SHM.csv" "$X"
check "the comment names commfit's version" grep -q "made by commfit $VERSION " "$X"
check "the comment says how to use it" grep -q "smpirun -np 2 -platform FILE -hostfile hostfile ./app" "$X"
check "the comment says what happens past the range" grep -q "Above 4 MiB," "$X"
check "the comment: no -- inside" comment_ok "$X"
if command -v xmllint >/dev/null 2>&1; then
    check "well-formed XML (xmllint)" xmllint --noout "$X"
else
    skip "xmllint not installed"
fi

# -o -: standard output; --hosts.
run "$COMMFIT" export smpi -m "$MODELS/$SHM.json" -o - --hosts 64
expect_rc 0 "-o - --hosts 64"
check "-o -: the platform on stdout" grep -q 'radical="0-63"' "$T/out"
check "--hosts 64: the hostfile recipe" grep -q "seq -f 'node-%g' 0 63 > hostfile" "$T/out"
check "-o -: stderr quiet" test ! -s "$T/err"
cp "$X" "$T/again.xml"
cd "$T/w"
run "$COMMFIT" export smpi -o -
cd "$T"
check "the same model gives the same file" cmp -s "$T/out" "$T/again.xml"

# ---- every model kind of the shipped table ----
for kind in linear poly2 piecewise auto; do
    run "$COMMFIT" fit -i "$top_srcdir/data/$SHM.csv" --patterns pingpong --model "$kind" -o "$T/$kind.json"
    expect_rc 0 "fit --model $kind"
    run "$COMMFIT" export smpi -m "$T/$kind.json" -o "$T/$kind.xml"
    expect_rc 0 "export of a $kind fit"
    grep_err "within (0\\.[0-9][0-9]|1\\.00)% of the [a-z0-9]+ fit from 0 B to 4 MiB$" "$kind: within 1%"
    check "$kind: factors well formed" sane "$T/$kind.xml"
done
check "linear: one range" sh -c "[ \"\$(sed -n 's|.*id=\"smpi/lat-factor\" value=\"\\([^\"]*\\)\".*|\\1|p' '$T/linear.xml')\" = 0:1 ]"

# Every shipped model with a ping-pong exports.
for f in "$MODELS"/*.json; do
    n=$(basename "$f" .json)
    run "$COMMFIT" export smpi -m "$f" -o "$T/shipped-$n.xml"
    case $n in
    osu562_*_alltoall | osu562_*_mbw_mr_8pairs | osu74_*) expect_rc 1 "$n: no pingpong, refused" ;;
    *)
        expect_rc 0 "$n: exports"
        check "$n: factors well formed" sane "$T/shipped-$n.xml"
        ;;
    esac
done

# A derived-datatype sweep has no byte ping-pong: its contiguous layout is the network's.
run "$COMMFIT" export smpi -m "$MODELS/ddt-vm-mpich402-np2.json" -o "$T/ddt.xml"
expect_rc 0 "datatype sweep: exports"
check "datatype sweep: from the contiguous fit" grep -q "fit pingpong np=2 contiguous: piecewise," "$T/ddt.xml"
grep_err "within (0\\.[0-9][0-9]|1\\.00)% of the piecewise fit from 4 B to" "datatype sweep: within 1%"

# ---- memory: valgrind memcheck on an export and a refusal (as tests/cli/valgrind.sh:
# skipped without valgrind, in a sanitizer build, or when it cannot read the debug info) ----
vg_ok=yes
if ! command -v valgrind >/dev/null 2>&1 ||
    grep -q '__asan_init\|__ubsan_handle' "$COMMFIT" 2>/dev/null; then
    vg_ok=no
else
    valgrind -q --log-file="$T/probe.log" "$COMMFIT" --version >/dev/null 2>&1 || :
    grep -q 'debuginfo reader\|unhandled dwarf2' "$T/probe.log" && vg_ok=no
fi
for args in "-o $T/vg.xml" "-o -"; do
    for m in "$SHM" osu74_mpich402_1node_np2_alltoall_full; do
        if [ "$vg_ok" = no ]; then
            skip "valgrind: export smpi $m $args"
            continue
        fi
        rc=0
        valgrind -q --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite,indirect \
            --show-leak-kinds=definite,indirect --error-exitcode=99 --log-file="$T/vg.log" \
            "$COMMFIT" export smpi -m "$MODELS/$m.json" $args >/dev/null 2>&1 || rc=$?
        check "valgrind: export smpi $m $args: clean (exit $rc)" sh -c "[ $rc -ne 99 ] && [ ! -s '$T/vg.log' ]"
    done
done

# A table of 16384 hosts (the flat cluster's, its launch carried on by grow-launch.awk):
# the comment names its hosts by their ends and count, not a list cut in a name.
awk -v N=16384 -f "$top_srcdir/tests/cli/grow-launch.awk" "$top_srcdir/data/sim-flat.csv" >big.csv
"$COMMFIT" fit -q -i big.csv -o big.json
run "$COMMFIT" export smpi -m big.json -o big.xml
expect_rc 0 "export of a 16384-host table's model"
check "its hosts by their ends and count" grep -q "(hosts node-0 \.\.\. node-16383 (16384 hosts); date " big.xml
check "no host name cut" sh -c '! grep -q "node-[0-9]*,nod" big.xml'

# A ping-pong whose two ranks shared a node (fatnodes.xml: 16 cores a node) measured that
# node's path, which the platform gives every pair of hosts: export says so, on standard
# error and in the file. Across two nodes (flat.xml, one core a node) it says nothing; nor
# where the table does not say where its ranks ran (an IMB import without --ranks-per-node).
"$COMMFIT" fit -q -i "$top_srcdir/data/sim-fatnodes.csv" --patterns pingpong -o fat.json
run "$COMMFIT" export smpi -m fat.json -o fat.xml
expect_rc 0 "export of a ping-pong inside one node"
grep_err "^commfit: export: warning: the ping-pong's two ranks ran inside one node \\(fat0, 16 ranks on it, as .*/data/sim-fatnodes.csv's ranks_per_node says\\): every pair of hosts here communicates at that node's cost, not a network's; a model whose ping-pong crossed two nodes calibrates the network\$" \
    "a ping-pong inside one node: the warning names the node and the table"
check "a ping-pong inside one node: the file's comment says so too, in lines of 90 columns at most" \
    sh -c "grep -q '^  Note: the ping-pong.s two ranks ran inside one node (fat0, 16 ranks on it' fat.xml &&
           awk '/Note:/ { n = 1 } n && /^\$/ { exit } n && length > 90 { bad = 1 } END { exit bad }' fat.xml"
for m in sim-flat "$SHM"; do
    run "$COMMFIT" export smpi -m "$MODELS/$m.json" -o quiet.xml
    expect_rc 0 "$m: export"
    check "$m: no word of a node shared" sh -c "! grep -q 'inside one node' '$T/err' quiet.xml"
done
# A model of two tables that differ on where np 2 ran (the ping-pong from flat, across two
# nodes; the collectives from fatnodes, whose np 2 shared a node): the model does not say
# which table the ping-pong came from, and export says they differ, in either order.
grep -v '^pingpong,' "$top_srcdir/data/sim-fatnodes.csv" >fatcoll.csv
awk -F, '/^#/ || $1 == "pattern" || $1 == "pingpong"' "$top_srcdir/data/sim-flat.csv" >flatpp.csv
for order in "fatcoll.csv flatpp.csv" "flatpp.csv fatcoll.csv"; do
    set -- $order
    "$COMMFIT" fit -q -i $1 -i $2 -o mix.json
    run "$COMMFIT" export smpi -m mix.json -o mix.xml
    expect_rc 0 "tables that differ ($order)"
    grep_err "^commfit: export: warning: the model's tables differ on where np 2's two ranks ran, inside one node \\(fat0, 16 ranks on it, as fatcoll.csv's ranks_per_node says\\) and across two nodes in 1 other: if the ping-pong came from the first, every pair of hosts here communicates at that node's cost, not a network's\$" \
        "tables that differ ($order): said, not taken for the ping-pong's"
done
# With a table that does not say where it ran (an IMB import), the same doubt.
awk -F, '/^#/ || $1 == "pattern" || $1 == "pingpong"' "$top_srcdir/data/imb41_gbrandino_juno_arm_internode_eth.csv" >eth-pp.csv
"$COMMFIT" fit -q -i fatcoll.csv -i eth-pp.csv -o unsaid.json
run "$COMMFIT" export smpi -m unsaid.json -o unsaid.xml
expect_rc 0 "a table that does not say where it ran"
grep_err "^commfit: export: warning: np 2's two ranks ran inside one node \\(fat0, 16 ranks on it, as fatcoll.csv's ranks_per_node says\\), and 1 other table of the model does not say where: if the ping-pong came from the first, " \
    "a table that does not say where it ran: the doubt said"
# A model file whose ping-pong coefficients no measurement gives (hand-edited or corrupt: an
# intercept of 1e20 or 1e200 us) is refused, file named, nothing written: the platform said
# lat="5e19us", or lat="-nanus" with a loopback latency of -nan, exit 0 (bad-input audit).
for big in 1e20 1e200; do
    python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))
for f in m["fits"]:
    if f["pattern"] == "pingpong":
        f["segments"][0]["coef"]["alpha_us"] = float(sys.argv[2])
json.dump(m, open("big.json", "w"))' "$top_srcdir/models/imb_stackhpc_ompi4_ib_pingpong.json" "$big"
    rm -f big.xml
    run "$COMMFIT" export smpi -m big.json -o big.xml
    expect_rc 1 "an intercept of $big us"
    expect_err "commfit: export: big.json: the piecewise fit of pingpong at np=2 gives $(printf %s "$big" | sed "s/e/e+/") us at 0 B, beyond the 1e+12 us a table holds (its coefficients are out of range): no platform from it" \
        "an intercept of $big us: said"
    check "an intercept of $big us: no file written" test ! -e big.xml
done
done_testing
