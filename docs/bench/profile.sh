#!/bin/sh
# profile.sh: the cost of profiling. CPU seconds (user + sys, the median of
# RUNS runs) of `wavemesh run` and of `wavemesh profile` on the same layout
# of firmware on the PE cores, an htree of LEAVES leaves, on both backends,
# and their ratio. Prints markdown; $WAVEMESH is the CLI.
set -e
echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
W=${WAVEMESH:-build/wavemesh}
RUNS=${RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The median CPU seconds of RUNS runs of the command.
cpu() {
    : > "$tmp/times"
    i=0
    while [ $i -lt "$RUNS" ]; do
        /usr/bin/time -f '%U %S' -o "$tmp/one" "$@" > /dev/null
        awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/one" >> "$tmp/times"
        i=$((i + 1))
    done
    sort -n "$tmp/times" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

echo "Profiling cost: CPU seconds, the median of $RUNS runs, of \`wavemesh run LAYOUT --pe core\` and \`wavemesh profile LAYOUT --pe core\` (output thrown away), LAYOUT from \`wavemesh tree --leaves P --placement htree\`:"
echo
echo "| backend | leaves | PEs | cycles | run s | profile s | profile / run |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for b in rtl sw; do
    if [ $b = rtl ]; then leaves=256; else leaves=2048; fi
    "$W" tree --leaves $leaves --placement htree -o "$tmp/tree.layout" > /dev/null
    cycles=$("$W" profile "$tmp/tree.layout" --pe core --backend $b | tail -1 | sed 's/.* at cycle //')
    r=$(cpu "$W" run "$tmp/tree.layout" --pe core --backend $b)
    p=$(cpu "$W" profile "$tmp/tree.layout" --pe core --backend $b)
    awk -v b=$b -v l=$leaves -v c="$cycles" -v r="$r" -v p="$p" \
        'BEGIN { printf "| %s | %d | %d | %s | %.2f | %.2f | %.2f |\n", b, l, 2 * l - 1, c, r, p, (r > 0 ? p / r : 0) }'
done
