#!/bin/sh
# memory.sh: what a PE costs in memory on the sw backend, the tree
# collectives over 4096 and 16384 leaves (htree), on the cores and
# natively: the run's wall and CPU seconds and peak resident set
# (/usr/bin/time), and `run --mem-report`'s figures a PE: the peak, what the
# PEs touched of their own (the cores' RAM pages, natively the kernels'
# stack pages) and what the peak holds beyond that (docs/core.md, "Where a
# PE's bytes go"). Prints markdown; $WAVEMESH is the CLI.
set -eu
W=${WAVEMESH:-build/wavemesh}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
echo "\`wavemesh tree --leaves P --placement htree -o T.layout\`, then"
echo "\`/usr/bin/time wavemesh run T.layout --backend sw --pe core|native --mem-report\`; bytes a PE"
echo "(2P - 1 PEs) from the report, touched: the cores' RAM pages (shared pages once) or the kernels'"
echo "stack pages natively:"
echo
echo "| leaves | PEs | mesh | mode | wall s | CPU s | peak MiB | peak a PE | touched a PE | beyond a PE |"
echo "|---:|---:|---|---|---:|---:|---:|---:|---:|---:|"
for p in 4096 16384; do
    "$W" tree --leaves $p --placement htree -o "$tmp/t.layout" > /dev/null
    for mode in core native; do
        /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$W" run "$tmp/t.layout" --backend sw --pe $mode --mem-report \
            > "$tmp/out"
        sed -n 's/^memory: \([0-9]*\) PEs on \([0-9x]*\) tiles.*/\1 \2/p' "$tmp/out" > "$tmp/pes"
        ram=$(sed -n 's/^  RAM touched *\([0-9]*\).*/\1/p' "$tmp/out")
        stack=$(sed -n 's/^  stack touched *\([0-9]*\).*/\1/p' "$tmp/out")
        beyond=$(sed -n 's/^  beyond them *\([0-9]*\).*/\1/p' "$tmp/out")
        read -r pes mesh < "$tmp/pes"
        tail -1 "$tmp/time" | awk -v p=$p -v n="$pes" -v m="$mesh" -v mode=$mode -v t=$((ram + stack)) -v b="$beyond" \
            '{ printf "| %d | %d | %s | %s | %.2f | %.2f | %.0f | %.0f | %d | %d |\n",
                      p, n, m, mode, $1, $2 + $3, $4 / 1024, $4 * 1024 / n, t, b }'
    done
done
