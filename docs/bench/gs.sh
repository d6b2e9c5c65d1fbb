#!/bin/sh
# gs.sh: one gather-scatter gs_op on a grid schedule (faces and corners,
# 8 neighbours) for pairwise, the setup-phase crystal router and the
# crystal plan, both pairing rules and both rank orders. Prints markdown;
# $WAVEMESH is the CLI, $BACKEND the fabric (sw; the tests assert the rtl
# backend gives the same cycles).
set -e
echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
W=${WAVEMESH:-build/wavemesh}
BACKEND=${BACKEND:-sw}

# "cycles setup messages hops wavelets stages" of one run; six dashes when
# a rank's image and heap do not fit its PE's data memory.
gs() {
    out=$("$W" gs --backend "$BACKEND" --schedule grid "$@" 2>&1) || true
    if echo "$out" | grep -q "out of memory"; then
        echo "- - - - - -"
        return
    fi
    echo "$out" | awk '
        /^setup cycles:/ { s = $3 } /^gs_op cycles:/ { c = $3 } /^messages:/ { m = $2 }
        /^wavelet-hops:/ { h = $2 } /^wavelets:/ { w = $2 } /^active stages:/ { a = $3 }
        /^reference:/ { ok = ($2 == "bit-exact") }
        END { if (!ok) { print "gs run did not match the reference" > "/dev/stderr"; exit 1 } print c, s, m, h, w, a }'
}
field() { echo "$1" | cut -d' ' -f"$2"; }

echo "Cycles of one gs_op (\`wavemesh gs --schedule grid --ranks WxH --dofs N --order O --method M --pairing R --backend $BACKEND\`);"
echo "plan setup is the symbolic pass, run before the gs_op and not included in it; - where a rank's image,"
echo "heap and plan do not fit its PE's 40 KiB of data memory:"
echo
echo "| P | dofs/face | order | pairwise | crystal neko | crystal gslib | plan neko | plan gslib | plan setup neko / gslib | fastest |"
echo "|---:|---:|---|---:|---:|---:|---:|---:|---:|---|"
for g in 2x2 4x4 8x8 16x16 32x32; do
    p=$(echo $g | awk -Fx '{ print $1 * $2 }')
    for d in 1 4 16 64; do
        for o in rowmajor snake; do
            pw=$(gs --ranks $g --dofs $d --order $o --method pairwise)
            cn=$(gs --ranks $g --dofs $d --order $o --method crystal --pairing neko)
            cg=$(gs --ranks $g --dofs $d --order $o --method crystal --pairing gslib)
            pn=$(gs --ranks $g --dofs $d --order $o --method plan --pairing neko)
            pg=$(gs --ranks $g --dofs $d --order $o --method plan --pairing gslib)
            echo "$p $d $o $(field "$pw" 1) $(field "$cn" 1) $(field "$cg" 1) $(field "$pn" 1) $(field "$pg" 1) $(field "$pn" 2) $(field "$pg" 2)" |
                awk 'function v(x) { return x == "-" ? 1e18 : x + 0 }
                     { best = "pairwise"; b = v($4)
                       if (v($5) < b) { best = "crystal neko"; b = v($5) } if (v($6) < b) { best = "crystal gslib"; b = v($6) }
                       if (v($7) < b) { best = "plan neko"; b = v($7) } if (v($8) < b) { best = "plan gslib"; b = v($8) }
                       printf "| %d | %d | %s | %s | %s | %s | %s | %s | %s / %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, best }'
        done
    done
done

echo
echo "Messages and wavelet-hops of one gs_op, 4 dofs a face (same commands with --dofs 4); hops per wavelet is"
echo "wavelet-hops / wavelets pushed, 1.00 when every wavelet goes one hop:"
echo
echo "| P | order | method | messages | wavelets | wavelet-hops | hops per wavelet | active stages (most on a rank) |"
echo "|---:|---|---|---:|---:|---:|---:|---:|"
for g in 4x4 32x32; do
    p=$(echo $g | awk -Fx '{ print $1 * $2 }')
    for o in rowmajor snake; do
        for mr in "pairwise neko" "crystal neko" "crystal gslib" "plan neko" "plan gslib"; do
            set -- $mr
            r=$(gs --ranks $g --dofs 4 --order $o --method $1 --pairing $2)
            label=$1; [ $1 = pairwise ] || label="$1 $2"
            echo "$p $o $(field "$r" 3) $(field "$r" 5) $(field "$r" 4) $(field "$r" 6)" |
                awk -v l="$label" '{ printf "| %d | %s | %s | %d | %d | %d | %.2f | %d |\n", $1, $2, l, $3, $4, $5, $5 / $4, $6 }'
        done
    done
done

echo
echo "Crossover in dofs per face, snake order: gs_op cycles of pairwise against the gslib-rule plan:"
echo
echo "| P | dofs/face | pairwise | plan gslib | plan / pairwise |"
echo "|---:|---:|---:|---:|---:|"
for g in 8x8 32x32; do
    p=$(echo $g | awk -Fx '{ print $1 * $2 }')
    for d in 1 2 3 4 5 6 8 12; do
        pw=$(gs --ranks $g --dofs $d --order snake --method pairwise)
        pg=$(gs --ranks $g --dofs $d --order snake --method plan --pairing gslib)
        awk -v p=$p -v d=$d -v a=$(field "$pw" 1) -v b=$(field "$pg" 1) \
            'BEGIN { printf "| %d | %d | %d | %d | %.2f |\n", p, d, a, b, b / a }'
    done
done
