#!/bin/sh
# fpga.sh: the FPGA tables of docs/benchmarks.md. `make synth` (synth_ice40
# and nextpnr-ice40 of the tile, a 2x2 mesh and the tile with core, then
# the synthesised mesh simulated: docs/fpga.md), its summary as a table;
# then the cells of meshes of bare tiles packed but not placed
# (rtl/synth/pack.sh). About 15 minutes on 2 CPUs; make synth's own output
# goes to build/synth/make.log.
#
# FPGA_REUSE=1 prints the tables of the last make synth again (its
# build/synth/summary.txt, with the machine line of the run that made it)
# and packs the meshes, without placing anything again. A design that
# misses its target fails make synth: the table is still printed, with
# make synth's verdict under it, and the script exits 1 at the end.
set -e
SYNTH=${SYNTH_DIR:-build/synth}
mkdir -p "$SYNTH"
status=0
if [ "${FPGA_REUSE:-0}" = 1 ] && [ -f "$SYNTH/machine.txt" ] && [ -f "$SYNTH/summary.txt" ]; then
    cat "$SYNTH/machine.txt"
else
    echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started." | tee "$SYNTH/machine.txt"
    make --no-print-directory synth > "$SYNTH/make.log" 2>&1 || status=1
    if [ ! -s "$SYNTH/summary.txt" ]; then
        tail -n 20 "$SYNTH/make.log"
        echo "fpga.sh: make synth failed, see $SYNTH/make.log" >&2
        exit 1
    fi
fi
echo

echo "Place and route: \`make synth\` (Debian's yosys and nextpnr-ice40, \`--seed 1\`; one design:"
echo "\`sh rtl/synth/pnr.sh OUT NAME PART PACKAGE MHZ DESIGN [PARAM=VALUE]\`). The designs are mk/synth.mk's"
echo "SYNTH_RUNS: \`tile\` (router and PE datapath), \`mesh2x2\`, \`tile_core\` (the tile with its core,"
echo "MEM_BYTES=4096). Cells are the design's own (flops of every kind); logic cells placed include the"
echo "out-of-context wrapper; the critical path counts the LUTs and carries between its two flops."
echo
echo "| design | part | LUT4 | carries | flops | block RAMs | logic cells placed | Fmax | critical path |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
awk '
    function num(s) { return s + 0 }
    $2 ~ /^(hx|up|lp|u)[0-9]+k$/ && $3 == "cells:" {
        k = $1 " " $2; order[++n] = k
        lut[k] = 0; carry[k] = 0; ff[k] = 0; ram[k] = 0
        for (i = 4; i < NF; i += 2) {
            kind = $i; c = num($(i + 1))
            if (kind == "SB_LUT4") lut[k] = c
            else if (kind == "SB_CARRY") carry[k] = c
            else if (kind ~ /^SB_DFF/) ff[k] += c
            else if (kind ~ /^SB_RAM40/) ram[k] += c
        }
    }
    $3 == "placed" { k = $1 " " $2; for (i = 4; i < NF; i++) if ($(i + 1) == "logic") placed[k] = $i
                     s = $0; sub(/.*seed /, "", s); sub(/\).*/, "", s); if (s != "1") placed[k] = placed[k] " (seed " s ")" }
    $3 == "does" && $4 == "not" { k = $1 " " $2; placed[k] = $6 ": does not fit" }
    $3 == "critical" { k = $1 " " $2; s = $0; sub(/.*\(/, "", s); sub(/\).*/, "", s); path[k] = s }
    /^Fmax:/ { s = $0; sub(/^Fmax: /, "", s); sub(/ MHz.*/, "", s)
               k = $NF; sub(/\)$/, "", k); p = $4; sub(/^\(/, "", p); sub(/,$/, "", p); fmax[k " " p] = s }
    END {
        for (i = 1; i <= n; i++) {
            k = order[i]; split(k, a, " ")
            f = fmax[k] == "-" || fmax[k] == "" ? "-" : fmax[k] " MHz"
            printf "| %s | %s | %d | %d | %d | %d | %s | %s | %s |\n", a[1], toupper(a[2]), lut[k], carry[k], ff[k], ram[k],
                   placed[k], f, path[k] == "" ? "-" : path[k]
        }
    }' "$SYNTH/summary.txt"
echo
grep '^gatesim:' "$SYNTH/summary.txt" || true
if grep -q '^synth: ' "$SYNTH/summary.txt"; then
    grep '^synth: ' "$SYNTH/summary.txt" | sed 's/^/make /'
    echo "(make synth stops there: the synthesised mesh is not simulated)"
    status=1
fi
echo

# What a mesh takes beyond the 2x2 that an HX8K places: packed, not placed.
echo "Meshes of bare tiles, packed but not placed: \`sh rtl/synth/pack.sh OUT W H\` (rtl/mesh.v alone, constant"
echo "coordinates, edge links tied off, no wrapper):"
echo
echo "| mesh | logic cells | a tile | block RAMs |"
echo "|---|---:|---:|---:|"
for size in "2 1" "2 2" "3 3" "4 4"; do
    set -- $size
    YOSYS=${YOSYS:-yosys} sh rtl/synth/pack.sh "$SYNTH" "$1" "$2" |
        awk '/^mesh .* packed:/ { printf "| %s | %d | %d | %d |\n", $2, $4, substr($7, 2), $10 }'
done
exit $status
