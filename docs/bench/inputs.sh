#!/bin/sh
# inputs.sh: the cost of reading a rows file (csim/core/lines.h and the rows
# reader): N rows of one layout, the last a second row of the first one's
# name, so that the whole file is read and checked and no row runs. CPU
# seconds (user + sys) and the peak memory of `wavemesh rows`, for N from
# ten thousand to a million. Prints markdown; $WAVEMESH is the CLI.
set -e
echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
W=${WAVEMESH:-build/wavemesh}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "Reading a rows file: \`wavemesh rows FILE\` on N rows \`row rK SHAPE=1\` after one \`layout\` line, the last row a duplicate name (refused at its line, exit 2, nothing run):"
echo
echo "| rows | file MB | CPU s | peak MB | the message |"
echo "|---:|---:|---:|---:|---|"
for n in 10000 100000 1000000; do
    { echo "layout $PWD/sw/collectives/bench.layout"; seq 0 $((n - 1)) | sed 's/^/row r/; s/$/ SHAPE=1/'; echo "row r0"; } \
        > "$tmp/n.rows"
    /usr/bin/time -f '%U %S %M' -o "$tmp/time" "$W" rows "$tmp/n.rows" 2> "$tmp/err" > /dev/null || true
    msg=$(tail -1 "$tmp/err" | sed "s|$tmp/||")
    size=$(wc -c < "$tmp/n.rows")
    # the last line: "Command exited with non-zero status 2" comes first
    tail -1 "$tmp/time" | awk -v n=$n -v s="$size" -v m="$msg" \
        '{ printf "| %d | %.1f | %.2f | %.0f | `%s` |\n", n, s / 1e6, $1 + $2, $3 / 1024, m }'
done
