#!/bin/sh
# The FPGA figures of docs/benchmarks.md and docs/fpga.md: synthesis with
# yosys and place and route with nextpnr-ice40 of the tile, a 2x2 mesh and
# the tile with core (make synth), then the cells of 3x3 and 4x4 meshes
# (rtl/synth/pack.sh); about 12 minutes on 2 CPUs.
set -e
echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
make --no-print-directory synth
# What a mesh takes beyond the 2x2 that an HX8K places: packed, not placed.
for size in "3 3" "4 4"; do
    set -- $size
    YOSYS=${YOSYS:-yosys} sh rtl/synth/pack.sh build/synth "$1" "$2"
done
