#!/bin/sh
# core.sh: the PE core. Tile build time with the core, cycles per
# instruction class, the cycles of one message on the core against the
# native cost model and the seed, the seed rows' cycle tables in both PE
# modes, and simulation speed with cores: the rtl backend next to the bare
# tile, and the sw backend (with the instruction-set simulator) against the
# rtl backend on the same runs. Prints markdown; $WAVEMESH is the CLI.
# Speeds are router-cycles (mesh size x cycles) per CPU second, as
# `traffic` reports them, or per second of `time` (user + sys) for `run`.
set -eu
W=${WAVEMESH:-build/wavemesh}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo

start=$(date +%s.%N)
make --no-print-directory -s BUILD="$tmp/b" "$tmp/b/vtilecore/Vwm_tile_core__ALL.a" >/dev/null
end=$(date +%s.%N)
echo "### Tile with the core: build from clean"
echo
echo "\`make BUILD=\$(mktemp -d) \$BUILD/vtilecore/Vwm_tile_core__ALL.a\` (Verilate wm_tile_core, compile its"
echo "C++ at -O2; the bare tile's figure is in \"Fabric RTL\" above):"
echo
printf '| what | seconds |\n|---|---:|\n| Verilate + compile Vwm_tile_core | %.1f |\n' "$(echo "$end - $start" | bc)"
echo

echo "### Cycles per instruction class"
echo
echo "\`wavemesh cpi\` (1000 instructions of each class, straight line, on both models):"
echo
"$W" cpi
echo

echo "### One message of one data wavelet"
echo
echo "\`wavemesh run sw/collectives/msgcost.layout --pe MODE\`: cycles of \`wm_mp_header\` + \`wm_mp_send\`"
echo "at the sender, of \`wm_mp_recv\` at the receiver (the message already in its RX queue), each"
echo "between two timestamp reads minus what reading takes:"
echo
echo "| | seed | native (cost model) | core |"
echo "|---|---:|---:|---:|"
nat=$("$W" run sw/collectives/msgcost.layout --pe native --backend sw)
core=$("$W" run sw/collectives/msgcost.layout --pe core --backend sw)
get() { echo "$1" | sed -n "s/^$2 = //p"; }
echo "| send (sender) | 31 | $(get "$nat" sender.cycles) | $(get "$core" sender.cycles) |"
echo "| receive (receiver) | | $(get "$nat" receiver.cycles) | $(get "$core" receiver.cycles) |"
echo "| one timestamp read | | $(get "$nat" sender.tsc_read) | $(get "$core" sender.tsc_read) |"
echo

echo "### The seed's rows in both modes"
echo
echo "\`wavemesh rows sw/collectives/test.rows --backend rtl --pe native --pe core --cycles\` (the sw backend"
echo "prints the same tables; \`make run\` shows both), cycles from each leaf's send to its prefix:"
echo
echo "| row | mode | l0 | l1 | l2 | l3 |"
echo "|---|---|---:|---:|---:|---:|"
echo "| tutorial | seed (cycles.py) | 222 | 231 | 231 | 236 |"
echo "| tworow | seed (cycles.py) | 210 | 224 | 228 | 236 |"
for pe in native core; do
    "$W" rows sw/collectives/test.rows --backend rtl --pe $pe --cycles |
        awk -v pe=$pe '$1 == "tutorial" || $1 == "tworow" { if (NF == 5 && $2 ~ /^[0-9]+$/)
                           printf "| %s | %s | %s | %s | %s | %s |\n", $1, pe, $2, $3, $4, $5 }'
done
echo

# Seconds of CPU (user + sys) of a command.
cpu_of() {
    /usr/bin/env time -f '%U %S' -o "$tmp/time" "$@" >"$tmp/out" 2>&1 || true
    awk '{ print $1 + $2 }' "$tmp/time"
}

echo "### rtl backend with cores, next to the bare tile"
echo
echo "Firmware traffic: \`wavemesh traffic --backend rtl --pe core|native --mesh M --rate 0.02 --len 4"
echo "--cycles 4000\` (every PE runs the stream kernel, uniform destinations, twenty messages each, until"
echo "every PE is done); the bare tile: \`wavemesh traffic --backend rtl --mesh M --rate 0.02 --len 4"
echo "--warmup 500 --cycles 2000 --drain 500\` (the host injects the messages). M router-cycles per CPU"
echo "second:"
echo
echo "| mesh | bare tile, host traffic | bare tile, native firmware | tile with core, firmware on the cores | cores / bare |"
echo "|---|---:|---:|---:|---:|"
speed() { sed -n 's/.*, \([0-9.]*\) M router-cycles\/s.*/\1/p'; }
for mesh in 8x8 32x32 64x64; do
    bare=$("$W" traffic --backend rtl --mesh $mesh --rate 0.02 --len 4 --warmup 500 --cycles 2000 --drain 500 | speed)
    nat=$("$W" traffic --backend rtl --pe native --mesh $mesh --rate 0.02 --len 4 --cycles 4000 | speed)
    core=$("$W" traffic --backend rtl --pe core --mesh $mesh --rate 0.02 --len 4 --cycles 4000 | speed)
    awk -v m=$mesh -v b="$bare" -v n="$nat" -v c="$core" \
        'BEGIN { printf "| %s | %.2f | %.2f | %.2f | %.2f |\n", m, b, n, c, c / b }'
done
echo

echo "### sw backend with the instruction-set simulator, against rtl with cores"
echo
echo "The same runs on both backends (identical cycles, checked by \`regress\`); router-cycles per CPU second,"
echo "the sw backend on one thread (\`WM_SW_THREADS=1\`: per CPU second, a second thread would only"
echo "add its own time):"
echo
echo "| run | cycles | rtl | sw | sw / rtl |"
echo "|---|---:|---:|---:|---:|"
export WM_SW_THREADS=1
"$W" tree --leaves 1024 --placement htree -o "$tmp/htree1024.layout" >/dev/null
size=$(sed -n 's/^mesh \([0-9]*\) \([0-9]*\)/\1 \2/p' "$tmp/htree1024.layout")
tiles=$(echo $size | awk '{ print $1 * $2 }')
for b in rtl sw; do
    eval "t_$b=$(cpu_of "$W" run "$tmp/htree1024.layout" --pe core --backend $b)"
    eval "c_$b=$(awk -F' = ' '/\.t1 = / { if ($2 + 0 > m) m = $2 + 0 } END { print m }' "$tmp/out")"
done
awk -v c="$c_sw" -v cr="$c_rtl" -v n="$tiles" -v r="$t_rtl" -v s="$t_sw" -v sz="$size" \
    'BEGIN { split(sz, d, " ");
             if (c != cr) { printf "| htree P = 1024: rtl and sw disagree (%s, %s) | | | | |\n", cr, c; exit }
             printf "| tree collectives, htree P = 1024 (%sx%s), `run --pe core` | %s | %.2f M | %.2f M | %.1f |\n",
                    d[1], d[2], c, n * c / r / 1e6, n * c / s / 1e6, r / s }'
# A column of a `traffic --csv` run, by its name in the header.
field() {
    printf '%s\n' "$1" | awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
                                               { print $c }'
}
for b in rtl sw; do
    eval "l_$b=\"\$(\"\$W\" traffic --csv --backend $b --pe core --mesh 32x32 --rate 0.02 --len 4 --cycles 4000)\""
done
awk -v c="$(field "$l_rtl" cycles)" -v r="$(field "$l_rtl" router_cycles_per_s)" -v s="$(field "$l_sw" router_cycles_per_s)" 'BEGIN {
    printf "| firmware traffic 32x32, `traffic --pe core --rate 0.02 --len 4 --cycles 4000` | %s | %.2f M | %.2f M | %.1f |\n",
           c, r / 1e6, s / 1e6, s / r }'
echo
echo "(For the tree, cycles are to the last prefix's arrival, and the time is that of the whole"
echo "\`run\` process, start-up and image loading included.)"
