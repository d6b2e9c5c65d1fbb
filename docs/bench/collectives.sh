#!/bin/sh
# collectives.sh: cycles to the last prefix, tree versus chain, and the seed
# placements' per-leaf tables. Prints markdown; $WAVEMESH is the CLI.
set -e
echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
W=${WAVEMESH:-build/wavemesh}
BACKEND=${BACKEND:-sw}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The cycle the last prefix arrived: the largest t1 a run exports.
last_prefix() {
    "$W" run "$1" --backend "$BACKEND" | awk '/\.t1 = / { if ($3 > m) m = $3 } END { print m }'
}

echo "Tree (htree placement) against the chain (serpentine), backend $BACKEND, leaf values from --seed 1:"
echo
echo "| P | 2·log2 P message steps | tree: cycles to last prefix | tree cycles / step | chain: cycles to last prefix | chain cycles / PE |"
echo "|---:|---:|---:|---:|---:|---:|"
for p in 4 8 16 32 64 128 256 512 1024; do
    "$W" tree --leaves $p --placement htree --seed 1 -o "$tmp/tree.layout"
    "$W" tree --leaves $p --placement chain --seed 1 -o "$tmp/chain.layout"
    t=$(last_prefix "$tmp/tree.layout")
    c=$(last_prefix "$tmp/chain.layout")
    awk -v p=$p -v t=$t -v c=$c 'BEGIN { s = 2 * log(p) / log(2); printf "| %d | %d | %d | %.1f | %d | %.1f |\n", p, s, t, t / s, c, c / p }'
done
echo
echo "Per-leaf cycles from the send to the arrival of the prefix (both backends print the same):"
echo
echo '```'
"$W" rows sw/collectives/test.rows --backend "$BACKEND" --cycles | grep -v '^collectives'
echo '```'
echo
"$W" tree --leaves 4096 --placement htree --seed 1 -o "$tmp/big.layout"
t0=$(date +%s.%N)
last=$(last_prefix "$tmp/big.layout")
t1=$(date +%s.%N)
awk -v a=$t0 -v b=$t1 -v c=$last -v be=$BACKEND 'BEGIN { printf "P = 4096 (8191 PEs on 127x127, htree): last prefix at cycle %d; the whole run (generate excluded, parse included) took %.1f s on the %s backend.\n", c, b - a, be }'
