#!/bin/sh
# gatesim.sh: the mesh as synthesised for iCE40 still delivers every
# message (make synth, docs/fpga.md).
#
#   sh rtl/synth/gatesim.sh OUT
#
# synth_ice40 of a 3x2 rtl/mesh.v at the default depths, written out as a
# netlist of iCE40 cells (LUTs, carries, flops, block RAMs), simulated by
# Icarus with yosys's models of those cells under
# tests/icarus/tb_mesh_depths.v: the same traffic and checks as the RTL
# gets in tests/depths.sh, now through what synthesis made of the RTL (the
# block RAM rings and their bypasses included).
set -eu
out=$1
YOSYS=${YOSYS:-yosys}
IVERILOG=${IVERILOG:-iverilog}
VVP=${VVP:-vvp}
here=$(dirname "$0")
mkdir -p "$out"
files=$(sed -e 's/#.*//' -e '/^ *$/d' "$here/files" | tr '\n' ' ')
$YOSYS -q -e '.*' -l "$out/gatesim.ylog" -p "read_verilog -defer $files; chparam -set W 3 -set H 2 wm_mesh;
    hierarchy -check -top wm_mesh; script $here/checks.ys; synth_ice40 -top wm_mesh;
    write_verilog -noattr $out/mesh3x2_ice40.v" >/dev/null 2>&1 \
    || { echo "gatesim: yosys failed, see $out/gatesim.ylog"; exit 1; }
# yosys's share folder sits beside its binary (yosys-config, which would
# name it, comes with yosys-dev only)
cells=$(dirname "$(command -v "$YOSYS")")/../share/yosys/ice40/cells_sim.v
$IVERILOG -g2005 -DNO_ICE40_DEFAULT_ASSIGNMENTS -o "$out/gatesim.vvp" tests/icarus/tb_mesh_depths.v \
    "$out/mesh3x2_ice40.v" "$cells" 2>"$out/gatesim.iverilog.log" \
    || { echo "gatesim: iverilog failed, see $out/gatesim.iverilog.log"; exit 1; }
line=$($VVP -n "$out/gatesim.vvp" | grep '^tb_mesh_depths' || true)
case "$line" in
    *PASS) echo "gatesim: the 3x2 mesh as iCE40 cells: ${line#tb_mesh_depths }" ;;
    *) echo "gatesim: the 3x2 mesh as iCE40 cells: ${line:-no result}"; exit 1 ;;
esac
