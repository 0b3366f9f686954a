# commfit import speed: the real IMB and OSU files of tests/data/realdata concatenated
# into a log of at least 100 MB per format, imported 3 times. Prints MB/s (10^6 bytes/s)
# of the whole command (read, parse, write the table) by the wall clock and by the CPU
# time it used (user + system; on a busy machine the wall clock also measures the
# others). Target: over 50 MB/s. On the 2-core development VM, by CPU time: IMB 115-195
# MB/s, OSU 60-90 MB/s (was 50-110 and 33-60): OSU's log makes 2.9 million rows, 400 MB of
# rows in memory and a 260 MB table to write, and first touching that memory is a good part
# of the time (system time).
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
R="$top_srcdir/tests/data/realdata"
min=100000000
for fmt in imb osu; do
    cat "$R"/$fmt*.txt >"$d/chunk.txt"
    : >"$d/log.txt"
    while [ "$(wc -c <"$d/log.txt")" -lt $min ]; do
        cat "$d/chunk.txt" >>"$d/log.txt"
        # Doubling the chunk: a few cat calls reach 100 MB.
        if [ "$(wc -c <"$d/chunk.txt")" -lt 16000000 ]; then
            cp "$d/log.txt" "$d/chunk.txt"
        fi
    done
    bytes=$(wc -c <"$d/log.txt")
    for i in 1 2 3; do
        if [ -x /usr/bin/time ]; then
            /usr/bin/time -f '%e %U %S' -o "$d/time" \
                "$COMMFIT" import -q --np 64 "$fmt" "$d/log.txt" -o "$d/out.csv"
        else
            t0=$(date +%s.%N)
            "$COMMFIT" import -q --np 64 "$fmt" "$d/log.txt" -o "$d/out.csv"
            t1=$(date +%s.%N)
            echo "$t0 $t1" | awk '{ print $2 - $1, 0, 0 }' >"$d/time"
        fi
        rows=$(grep -vc '^#' "$d/out.csv")
        awk -v b="$bytes" -v f="$fmt" -v r="$rows" '{
            cpu = $2 + $3
            printf "%s: %.1f MB, %d rows: %.2f s wall = %.1f MB/s", f, b / 1e6, r - 1, $1, b / 1e6 / $1
            if (cpu > 0)
                printf "; %.2f s CPU = %.1f MB/s", cpu, b / 1e6 / cpu
            printf "\n"
        }' "$d/time"
    done
done
