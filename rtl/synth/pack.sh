#!/bin/sh
# pack.sh: how many iCE40 logic cells and block RAMs a W x H mesh of bare
# tiles takes, packed by nextpnr-ice40 but not placed (docs/fpga.md, "A
# W x H mesh"): rtl/mesh.v alone, its coordinates constants and its edge
# links tied off as in any mesh, no wrapper. Its ports do not fit any
# package, so nothing is placed: nextpnr reports the cells it packed.
#
#   sh rtl/synth/pack.sh OUT W H
set -eu
out=$1 w=$2 h=$3
YOSYS=${YOSYS:-yosys}
NEXTPNR=${NEXTPNR:-nextpnr-ice40}
here=$(dirname "$0")
base=$out/mesh${w}x$h-pack
mkdir -p "$out"
files=$(sed -e 's/#.*//' -e '/^ *$/d' "$here/files" | tr '\n' ' ')
$YOSYS -q -e '.*' -l "$base.ylog" -p "read_verilog -defer $files; chparam -set W $w -set H $h wm_mesh;
    hierarchy -check -top wm_mesh; script $here/checks.ys; synth_ice40 -top wm_mesh -json $base.json" \
    >/dev/null 2>&1 || { echo "pack: yosys failed, see $base.ylog"; exit 1; }
$NEXTPNR --hx8k --package ct256 --json "$base.json" --pack-only --pcf-allow-unconstrained \
    >"$base.pnr.log" 2>&1 || true
awk -v w="$w" -v h="$h" '/ICESTORM_LC:/ { lc = $3 } /ICESTORM_RAM:/ { ram = $3 }
    END { if (lc == "") { print "pack: nextpnr packed nothing"; exit 1 }
          sub(/\/$/, "", lc); sub(/\/$/, "", ram)
          printf "mesh %dx%d packed: %d logic cells (%.0f a tile), %d block RAMs\n", w, h, lc, lc / (w * h), ram }' \
    "$base.pnr.log"
