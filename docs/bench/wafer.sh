#!/bin/sh
# wafer.sh: the seed's tree collectives at the wafer's size, one process,
# sw backend: P = 4, 2^10, 2^14 and 2^19 leaves (2P - 1 PEs; 2^19 leaves
# are 1,048,575 PEs on 1024 x 1024; 4096 leaves as well, for the
# memory), natively and on the cores. For each
# run: the cycles, the cycles a message step (the seed counts about
# 2 log2 P of them), wall and CPU seconds, the wall time a PE-cycle,
# peak resident set
# (/usr/bin/time), and whether root.total and every leaf's exclusive and
# inclusive prefix are the ones the leaves' values give (checked here,
# against sums of the layout's own values). Prints markdown; $WAVEMESH is
# the CLI, $PLACEMENT the tree's placement (default packed), $LEAVES the
# sizes. `make bench-wafer` runs it; `make bench` does not (it takes a
# quarter of an hour and some 10 GB).
set -eu
W=${WAVEMESH:-build/wavemesh}
PLACEMENT=${PLACEMENT:-packed}
LEAVES=${LEAVES:-4 1024 4096 16384 524288}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
echo "\`wavemesh tree --leaves P --placement $PLACEMENT -o T.layout\`, then"
echo "\`/usr/bin/time wavemesh run T.layout --backend sw --pe core|native\`; a step is one of the"
echo "seed's 2 log2 P message steps; exact: root.total and every leaf's prefixes against the sums of"
echo "the layout's values:"
echo
echo "| leaves | PEs | mesh | mode | cycles | cycles a step | wall s | CPU s | ns a PE-cycle | peak MiB | peak bytes a PE | exact |"
echo "|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
for p in $LEAVES; do
    "$W" tree --leaves "$p" --placement "$PLACEMENT" -o "$tmp/t.layout" > /dev/null
    mesh=$(sed -n 's/^mesh \([0-9]*\) \([0-9]*\)$/\1x\2/p' "$tmp/t.layout")
    for mode in native core; do
        /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$W" run "$tmp/t.layout" --backend sw --pe $mode \
            > "$tmp/out"
        cycles=$(sed -n 's/^run: \([0-9]*\) cycles$/\1/p' "$tmp/out")
        # the reference: leaf i's exclusive prefix is V0 + ... + V(i-1)
        exact=$(awk -v p="$p" '
            FNR == NR { if ($1 == "param" && $2 ~ /^V[0-9]+$/) v[substr($2, 2) + 0] = $3; next }
            /^l[0-9]+\.(excl|incl) = / || /^root\.total = / { split($1, a, "."); got[a[1] "." a[2]] = $3 }
            END {
                sum = 0; bad = 0
                for (i = 0; i < p; i++) {
                    if (got["l" i ".excl"] != sum) bad++
                    sum += v[i]
                    if (got["l" i ".incl"] != sum) bad++
                }
                if (got["root.total"] != sum) bad++
                print bad ? bad " wrong" : "yes"
            }' "$tmp/t.layout" "$tmp/out")
        tail -1 "$tmp/time" | awk -v p="$p" -v m="$mesh" -v mode=$mode -v c="$cycles" -v ok="$exact" '
            { n = 2 * p - 1; steps = 2 * log(p) / log(2)
              printf "| %d | %d | %s | %s | %d | %.1f | %.2f | %.2f | %.2f | %.0f | %.0f | %s |\n",
                     p, n, m, mode, c, c / steps, $1, $2 + $3, $1 * 1e9 / (n * c), $4 / 1024, $4 * 1024 / n, ok }'
    done
done
