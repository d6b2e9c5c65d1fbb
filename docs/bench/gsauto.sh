#!/bin/sh
# gsauto.sh: which gs method wins, as `gs --method auto` finds it on the
# fabric: the candidates' cycles over P x dofs a face for both rank orders
# (a markdown table and a PNG map per order, gnuplot), the words and cycles
# of pairwise, plan and fold at multiplicity k = 4 .. 64 with a fit of the
# fold's words to k log2 k, and what auto's setup costs against the gs_op
# it saves. Prints markdown (the maps as images under img/, as
# docs/benchmarks.md sees them); $WAVEMESH is the CLI, $BACKEND the fabric
# (sw), $IMG where the maps are written (docs/img).
set -e
echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
W=${WAVEMESH:-build/wavemesh}
BACKEND=${BACKEND:-sw}
IMG=${IMG:-docs/img}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "setup op choice c0 .. c6" of one auto run (options: $@) (the choice as the index of
# its candidate), or "-" when a rank's image, heap or plans do not fit its
# PE's data memory.
auto() {
    out=$("$W" gs --backend "$BACKEND" --method auto "$@" 2>&1) || true
    if echo "$out" | grep -q "out of memory\|does not fit\|image needs"; then
        echo "-"
        return
    fi
    echo "$out" | awk '
        /^setup cycles:/ { s = $3 } /^gs_op cycles:/ { o = $3 }
        /^  [a-z]/ { c[n++] = $NF; name[n - 1] = $1 ($2 ~ /^[a-z]/ ? " " $2 : "") }
        /^auto chose:/ { sub(/^auto chose: /, ""); chose = $0 }
        /^reference:/ { ok = ($2 == "bit-exact") }
        END {
            if (!ok || n != 7) { print "gs auto did not match its reference" > "/dev/stderr"; exit 1 }
            for (i = 0; i < n; i++) if (name[i] == chose) k = i
            printf "%d %d %d", s, o, k; for (i = 0; i < n; i++) printf " %d", c[i]; print "" }'
}

# "cycles words wavelets" of one gs_op of method $1 (the rest: options).
one() {
    m=$1
    shift
    "$W" gs --backend "$BACKEND" --method "$m" "$@" | awk '
        /^setup cycles:/ { s = $3 } /^gs_op cycles:/ { c = $3 } /^payload words:/ { p = $3 } /^wavelets:/ { w = $2 }
        /^reference:/ { ok = ($2 == "bit-exact") }
        END { if (!ok) { print "gs did not match its reference" > "/dev/stderr"; exit 1 } print c, p, w, s }'
}

names="pairwise|crystal neko|crystal gslib|plan neko|plan gslib|fold neko|fold gslib"
# The table rows of schedule $1, order $2 over the rank grids $3 and the
# dofs $4, and the map's data: "P dofs kept" (-1: does not fit).
sweep() {
    : > "$tmp/map-$1-$2.dat"
    for g in $3; do
        p=$(echo $g | awk -Fx '{ print $1 * $2 }')
        for d in $4; do
            r=$(auto --schedule $1 --ranks $g --dofs $d --order $2)
            if [ "$r" = "-" ]; then
                echo "| $1 | $p | $d | $2 | - | - | - | - | - | - | - | - |"
                echo "$p $d -1" >> "$tmp/map-$1-$2.dat"
                continue
            fi
            echo "$1 $p $d $2 $r" | awk -v names="$names" '{ split(names, nm, "|")
                printf "| %s | %d | %d | %s |", $1, $2, $3, $4
                for (i = 8; i <= 14; i++) printf (i - 8 == $7 ? " **%d** |" : " %d |"), $i
                printf " %s |\n", nm[$7 + 1] }'
            echo "$p $d $(echo "$r" | cut -d' ' -f3)" >> "$tmp/map-$1-$2.dat"
        done
    done
}

# The map of schedule $1, order $2: a cell per (P, dofs), coloured by the
# candidate kept; P = 4^x for x = 1 .. $3, dofs = 2^y for y = 0 .. $4.
draw() {
    mkdir -p "$IMG"
    gnuplot <<EOF
set terminal pngcairo size 900,560 font ",11"
set output "$IMG/gs-auto-map-$1-$2.png.tmp"
set title "gs --method auto, $1 schedule, $2 order: the candidate kept"
set xlabel "P (ranks)"
set ylabel "dofs a face"
set xrange [0.5:$3 + 0.5]
set yrange [-0.5:$4 + 0.5]
set xtics ("4" 1, "16" 2, "64" 3, "256" 4, "1024" 5)
set ytics ("1" 0, "2" 1, "4" 2, "8" 3, "16" 4, "32" 5, "64" 6)
set cbrange [-1.5:6.5]
set palette defined (-1.5 "#dddddd", -0.5 "#dddddd", -0.5 "#4477aa", 0.5 "#4477aa", 0.5 "#66ccee", 1.5 "#66ccee", 1.5 "#228833", 2.5 "#228833", 2.5 "#ccbb44", 3.5 "#ccbb44", 3.5 "#ee6677", 4.5 "#ee6677", 4.5 "#aa3377", 5.5 "#aa3377", 5.5 "#bbbbbb", 6.5 "#bbbbbb")
unset colorbox
names = "does-not-fit pairwise crystal-neko crystal-gslib plan-neko plan-gslib fold-neko fold-gslib"
plot "$tmp/map-$1-$2.dat" using (log(\$1)/log(4)):(log(\$2)/log(2)):3 with image notitle, \
     "$tmp/map-$1-$2.dat" using (log(\$1)/log(4)):(log(\$2)/log(2)):(word(names, int(\$3) + 2)) with labels notitle
EOF
    mv "$IMG/gs-auto-map-$1-$2.png.tmp" "$IMG/gs-auto-map-$1-$2.png"
    echo "![gs --method auto: the candidate kept, $1 schedule, $2 order](img/gs-auto-map-$1-$2.png)"
}

echo "### Which method wins"
echo
echo "Each row is one \`wavemesh gs --schedule S --ranks WxH --dofs N --order O --method auto --backend $BACKEND\`:"
echo "the cycles of each candidate's gs_op as the PEs measured them in the setup (the most on a rank), the"
echo "fewest in bold, and the one they kept; - where a rank's image, heap and both plans do not fit its PE's"
echo "data memory. The grid gives every vertex multiplicity 4 at most; the star one of multiplicity P."
echo
echo "| schedule | P | dofs/face | order | pairwise | crystal neko | crystal gslib | plan neko | plan gslib | fold neko | fold gslib | kept |"
echo "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|"
for o in rowmajor snake; do
    sweep grid $o "2x2 4x4 8x8 16x16 32x32" "1 2 4 8 16 32 64"
done
for o in rowmajor snake; do
    sweep star $o "2x2 4x4 8x8" "1 2 4 8 16 32"
done
if command -v gnuplot >/dev/null; then
    echo
    for o in rowmajor snake; do
        draw grid $o 5 6
        echo
        draw star $o 3 5
        echo
    done
fi

echo "### Folding at high multiplicity"
echo
echo "One star of k ranks (\`wavemesh gs --schedule star --ranks WxH --dofs 4 --method M --pairing gslib --backend $BACKEND\`,"
echo "P = k): every rank holds the same 4 dofs, each a vertex of multiplicity k. Payload words are the wavelets"
echo "less each message's header and routing word:"
echo
echo "| k | pairwise words | plan gslib words | fold gslib words | pairwise cycles | plan gslib cycles (setup) | fold gslib cycles |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
: > "$tmp/k.dat"
for kg in 4:2x2 8:4x2 16:4x4 32:8x4 64:8x8; do
    k=${kg%%:*}
    g=${kg#*:}
    pw=$(one pairwise --schedule star --ranks $g --dofs 4)
    pl=$(one plan --schedule star --ranks $g --dofs 4 --pairing gslib)
    fo=$(one fold --schedule star --ranks $g --dofs 4 --pairing gslib)
    echo "$k $pw $pl $fo" | awk '{ printf "| %d | %d | %d | %d | %d | %d (%d) | %d |\n", $1, $3, $7, $11, $2, $6, $9, $10 }'
    echo "$k $(echo $fo | cut -d' ' -f2)" >> "$tmp/k.dat"
done
echo
# Least squares of the fold's words to a k log2 k + b k.
awk '{ k = $1; w = $2; x1 = k * log(k) / log(2); x2 = k
       s11 += x1 * x1; s12 += x1 * x2; s22 += x2 * x2; t1 += x1 * w; t2 += x2 * w; n++; K[n] = k; Wd[n] = w }
     END { det = s11 * s22 - s12 * s12; a = (t1 * s22 - t2 * s12) / det; b = (s11 * t2 - s12 * t1) / det
           printf "Fit of the fold'"'"'s words: %.2f k log2 k + %.2f k (least squares over k = 4 .. 64):\n\n", a, b
           print "| k | fold words | fit | fit / measured |"; print "|---:|---:|---:|---:|"
           for (i = 1; i <= n; i++) { f = a * K[i] * log(K[i]) / log(2) + b * K[i]
               printf "| %d | %d | %.0f | %.3f |\n", K[i], Wd[i], f, f / Wd[i] } }' "$tmp/k.dat"

echo
echo "### What auto's setup costs"
echo
echo "Grid schedule, 4 dofs a face, snake order: auto's setup (both plans, the seven trials and their all-reduces)"
echo "against the default method (\`--method plan --pairing neko\`, its setup the symbolic pass) and pairwise (no"
echo "setup); it pays after n gs_ops when its setup plus n of its gs_ops cost less than the other's:"
echo
echo "| P | auto kept | auto setup | auto gs_op | plan neko setup | plan neko gs_op | pays against plan neko after | pairwise gs_op | pays against pairwise after |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|"
for g in 2x2 4x4 8x8 16x16 32x32; do
    p=$(echo $g | awk -Fx '{ print $1 * $2 }')
    r=$(auto --schedule grid --ranks $g --dofs 4 --order snake)
    pl=$(one plan --schedule grid --ranks $g --dofs 4 --order snake --pairing neko)
    pw=$(one pairwise --schedule grid --ranks $g --dofs 4 --order snake)
    echo "$p $r $pl $pw" | awk -v names="$names" '{ split(names, nm, "|")
        as = $2; ao = $3; ps = $15; po = $12; wo = $16
        pays_plan = po > ao ? sprintf("%d gs_ops", int((as - ps) / (po - ao)) + 1) : "never"
        pays_pw = wo > ao ? sprintf("%d gs_ops", int(as / (wo - ao)) + 1) : "never"
        printf "| %d | %s | %d | %d | %d | %d | %s | %d | %s |\n", $1, nm[$4 + 1], as, ao, ps, po, pays_plan, wo, pays_pw }'
done
