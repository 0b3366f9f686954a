# commfit measure when its table cannot be written: a disk that fills up mid-run (a
# small tmpfs), a read-only folder (a read-only bind mount: root ignores permission
# bits), a folder that is a file. Each: a message naming the file and the reason, exit
# 1, and no measured row silently lost.

# The mounts live in a private mount namespace, gone with the test however it ends.
if [ -z "${CF_FAULT_NS:-}" ] && unshare --mount --propagation private true 2>/dev/null; then
    CF_FAULT_NS=1
    export CF_FAULT_NS
    exec unshare --mount --propagation private /bin/sh "$0" "$@"
fi
. "$top_srcdir/tests/setup.sh"
trap 'umount full ro 2>/dev/null; cd /; rm -rf "$T"' EXIT
rt="$top_builddir/tests/mpi/read-table"

# pairs FILE: "pattern bytes" of every row, sorted.
pairs() { "$rt" "$1" | grep -v '^meta' | awk '{print $1, $3}' | sort; }
rows() { awk -F, '!/^#/ && $1 != "pattern" { n++ } END { print n + 0 }' "$1"; }

# The folder is a file: refused before anything is measured.
: >afile
run mpirun 2 "$COMMFIT" measure --patterns pingpong --sizes 0 -o afile/t.csv
expect_rc 1 "an output folder that is a file"
expect_err "commfit: measure: afile: cannot create folder: a file of that name exists" \
    "an output folder that is a file: the message"

mounted=no
if [ -n "${CF_FAULT_NS:-}" ]; then
    mkdir full ro
    if mount -t tmpfs -o size=64k tmpfs full 2>/dev/null &&
        mount --bind ro ro 2>/dev/null && mount -o remount,bind,ro ro 2>/dev/null; then
        mounted=yes
    fi
fi
if [ "$mounted" = no ]; then
    for what in "a full disk" "a full disk mid-run" "a read-only folder" "--resume on a read-only folder"; do
        skip "$what: no private mount namespace or no permission to mount (needs root and unshare --mount)"
    done
    done_testing
    exit $?
fi

# A disk full before the header: nothing to keep, and no half file left.
head -c 65536 /dev/zero >full/filler 2>/dev/null || true
run mpirun 2 "$COMMFIT" measure --patterns pingpong --sizes 0 -o full/t.csv
expect_rc 1 "a full disk"
expect_err "commfit: measure: full/t.csv: cannot write: No space left on device" \
    "a full disk: the message names the file and the reason"
check "a full disk: no half table left" test ! -e full/t.csv

# A disk that fills up mid-run: room for the header and some rows, whole pages of the tmpfs,
# about half way into the rows of the same run written where there is room (the header's
# size follows the launch probes and the MPI library: 4 KB with MPICH at np 2, 2 with Open
# MPI). The rows written before stay, the partly written one is cut off, and --resume
# continues once there is room.
run mpirun 2 "$COMMFIT" measure -q --patterns pingpong,sendrecv,allreduce --sizes 0:64K \
    --samples 1 --reps 2 -o whole.csv
head_bytes=$(awk '{ n += length($0) + 1 } /^pattern,/ { print n; exit }' whole.csv)
all_bytes=$(wc -c <whole.csv)
room=$(((head_bytes + all_bytes) / 2 / 4096 * 4096))
[ "$room" -gt "$head_bytes" ] || room=$((room + 4096))
rm full/filler
head -c $((65536 - room)) /dev/zero >full/filler
run mpirun 2 "$COMMFIT" measure --patterns pingpong,sendrecv,allreduce --sizes 0:64K \
    --samples 1 --reps 2 -o full/t.csv
expect_rc 1 "a full disk mid-run"
kept=$(rows full/t.csv)
expect_err "commfit: measure: allreduce: 1 B, 2 B hold no whole 4-byte float: not measured for them (as IMB's reductions)
commfit: measure: full/t.csv: cannot write: No space left on device; $kept rows kept, continue with 'commfit measure --resume full/t.csv'" \
    "a full disk mid-run: the message says how many rows are kept and how to continue"
check "a full disk mid-run: some rows kept, not all" test "$kept" -gt 0 -a "$kept" -lt 52
run "$rt" full/t.csv
expect_rc 0 "a full disk mid-run: the table reads back"
check "a full disk mid-run: it ends with a complete row" \
    test "$(tail -c 1 full/t.csv | od -An -c | tr -d ' ')" = '\n'
rm full/filler
run mpirun 2 "$COMMFIT" measure -q --resume full/t.csv
expect_rc 0 "a full disk mid-run: --resume once there is room"
printf '%s\n' pingpong sendrecv allreduce | while read -r p; do
    for s in 0 1 2 4 8 16 32 64 128 256 512 1024 2048 4096 8192 16384 32768 65536; do
        measured $p $s && echo "$p $s"
    done
done | sort >want
pairs full/t.csv >got
check "a full disk mid-run: --resume measures every point once" cmp -s want got

# A read-only folder: refused before anything is measured; a table there to resume is
# left as it was.
run mpirun 2 "$COMMFIT" measure --patterns pingpong --sizes 0 -o ro/t.csv
expect_rc 1 "a read-only folder"
expect_err "commfit: measure: ro/t.csv: cannot create: Read-only file system" \
    "a read-only folder: the message names the file and the reason"
umount ro
grep -v '^# \(rank_cpu_share\|end\|duration_s\|end_reason\):' full/t.csv | head -n -2 >ro/r.csv
cp ro/r.csv before.csv
mount --bind ro ro && mount -o remount,bind,ro ro
run mpirun 2 "$COMMFIT" measure --resume ro/r.csv
expect_rc 1 "--resume on a read-only folder"
expect_err "commfit: measure: ro/r.csv: cannot open: Read-only file system" \
    "--resume on a read-only folder: the message"
check "--resume on a read-only folder: the table is untouched" cmp -s before.csv ro/r.csv

done_testing
