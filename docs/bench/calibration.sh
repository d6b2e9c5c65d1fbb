#!/bin/sh
# calibration.sh: the native mode's cycles against the core's, row by row:
# the tree collectives (htree P = 4 .. 1024, the seed's rows leaf by leaf)
# and gs (every method and pairing rule, P = 16, 64, 256, 1 and 4 dofs a face, snake and
# row-major). The native charges come from the core (sw/cost_model.h,
# `wavemesh calibrate`). Prints markdown; $WAVEMESH is the CLI. Both modes
# run on the sw backend, whose cycles are the rtl backend's.
set -eu
W=${WAVEMESH:-build/wavemesh}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo

# The cycles of each leaf (t1 - t0), one per line, from `run`'s table.
leaf_cycles() {
    "$W" run "$@" | awk '$1 == "cycles" { for (i = 2; i <= NF; i++) print $i }'
}

echo "### Tree collectives"
echo
echo "\`wavemesh run LAYOUT --backend sw --pe native|core\` on \`wavemesh tree --leaves P --placement htree\`"
echo "(seed 1) and on the seed's rows; per leaf, the cycles from its send to its prefix. Error:"
echo "(native - core) / core; the largest over the leaves, and the mean."
echo
echo "| row | leaves | core, last leaf | native, last leaf | largest error | mean error |"
echo "|---|---:|---:|---:|---:|---:|"
row() {
    name=$1
    shift
    leaf_cycles "$@" --pe core > "$tmp/core"
    leaf_cycles "$@" --pe native > "$tmp/native"
    paste "$tmp/native" "$tmp/core" | awk -v name="$name" '
        { n++; e = ($1 - $2) / $2; s += e; if (e < 0) e = -e; if (e > m) { m = e; ms = ($1 - $2) / $2 } ; ln = $1; lc = $2 }
        END { printf "| %s | %d | %d | %d | %+.1f %% | %+.1f %% |\n", name, n, lc, ln, 100 * ms, 100 * s / n }'
}
row "tutorial" sw/collectives/bench.layout --backend sw --set SHAPE=0 --set V0=10 --set V1=20 --set V2=30 --set V3=40
row "tworow" sw/collectives/bench.layout --backend sw --set SHAPE=1 --set V0=7 --set V1=300 --set V2=0 --set V3=5
for p in 4 16 64 256 1024; do
    "$W" tree --leaves $p --placement htree --seed 1 -o "$tmp/t$p.layout" >/dev/null
    row "htree P = $p" "$tmp/t$p.layout" --backend sw
done
echo
echo "The seed's rows leaf by leaf (\`wavemesh rows sw/collectives/test.rows --backend sw --pe native --pe core --cycles\`):"
echo
echo "| row | mode | l0 | l1 | l2 | l3 |"
echo "|---|---|---:|---:|---:|---:|"
for pe in native core; do
    "$W" rows sw/collectives/test.rows --backend sw --pe $pe --cycles |
        awk -v pe=$pe '($1 == "tutorial" || $1 == "tworow") && NF == 5 && $2 ~ /^[0-9]+$/ {
                           printf "| %s | %s | %s | %s | %s | %s |\n", $1, pe, $2, $3, $4, $5 }'
done
echo

echo "### gs"
echo
echo "\`wavemesh gs --ranks R --schedule grid --dofs D --method M --pairing R --order O --backend sw --pe native|core\`;"
echo "the gs_op's cycles (and the plan's setup), error (native - core) / core:"
echo
echo "| P | dofs | order | method | core gs_op | native gs_op | error | core setup | native setup | error |"
echo "|---:|---:|---|---|---:|---:|---:|---:|---:|---:|"
for ranks in 4x4 8x8 16x16; do
    for dofs in 1 4; do
        for order in snake rowmajor; do
            for mr in "pairwise neko" "crystal neko" "crystal gslib" "plan neko" "plan gslib"; do
                set -- $mr
                m=$1
                [ $1 = pairwise ] || m="$1 $2"
                args="--ranks $ranks --schedule grid --dofs $dofs --method $1 --pairing $2 --order $order --backend sw"
                "$W" gs $args --pe core > "$tmp/c"
                "$W" gs $args --pe native > "$tmp/n"
                p=$(echo $ranks | awk -Fx '{ print $1 * $2 }')
                awk -v p=$p -v d=$dofs -v o=$order -v m="$m" '
                    FNR == 1 { f++ }
                    /^gs_op cycles:/ { op[f] = $3 } /^setup cycles:/ { su[f] = $3 }
                    END { e = (op[2] - op[1]) / op[1];
                          s = su[1] ? sprintf("%d | %d | %+.0f %%", su[1], su[2], 100 * (su[2] - su[1]) / su[1]) : "| |";
                          printf "| %d | %d | %s | %s | %d | %d | %+.0f %% | %s |\n", p, d, o, m, op[1], op[2], 100 * e, s }' \
                    "$tmp/c" "$tmp/n"
            done
        done
    done
done
