#!/bin/sh
# placements.sh: the tree collectives on the two 2-D placements, htree and
# packed, at the same P: the mesh each takes and the run's cycles natively
# and on the cores (sw backend, leaf values from --seed 1). Prints markdown;
# $WAVEMESH is the CLI. Cycles are exact, so no machine line.
set -eu
W=${WAVEMESH:-build/wavemesh}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The cycle the run ended: `run: N cycles`.
run_cycles() {
    "$W" run "$@" --backend sw | sed -n 's/^run: \([0-9]*\) cycles$/\1/p'
}

echo "\`wavemesh tree --leaves P --placement htree|packed --seed 1 -o F; wavemesh run F --backend sw --pe native|core\`:"
echo
echo "| P | placement | mesh | PEs / tiles | native cycles | core cycles |"
echo "|---:|---|---|---:|---:|---:|"
for p in 4 1024 16384 65536; do
    for placement in htree packed; do
        f="$tmp/$placement$p.layout"
        if ! "$W" tree --leaves $p --placement $placement --seed 1 -o "$f" 2> "$tmp/err"; then
            need=$(sed -n 's/.*needs a \([0-9]*x[0-9]*\) mesh.*/\1/p' "$tmp/err")
            echo "| $p | $placement | needs $need: does not fit | | | |"
            continue
        fi
        set -- $(sed -n 's/^mesh \([0-9]*\) \([0-9]*\)$/\1 \2/p' "$f")
        mesh="$1 x $2"
        tiles=$(($1 * $2))
        pes=$(grep -c '^pe ' "$f")
        native=$(run_cycles "$f" --pe native)
        core=$(run_cycles "$f" --pe core)
        awk -v p=$p -v pl=$placement -v m="$mesh" -v pes=$pes -v t=$tiles -v n=$native -v c=$core \
            'BEGIN { printf "| %d | %s | %s | %d / %d | %d | %d |\n", p, pl, m, pes, t, n, c }'
    done
done
