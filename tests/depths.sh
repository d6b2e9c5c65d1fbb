#!/bin/sh
# depths.sh: the depth parameters work at other values than the default,
# or are refused at elaboration (make test, docs/fpga.md).
#
#   sh tests/depths.sh BUILD_DIR
#
# - wm_fifo at every depth from 1 to 9, its ring in flops and in block
#   RAM, against a model queue (tests/icarus/tb_fifo_depths.v);
# - rtl/mesh.v, every message delivered whole (tests/icarus/tb_mesh_depths.v),
#   the RTL's assertions on, at: the second depth set of `make lint`,
#   `synth-check` and `test-params-quick` (IN_DEPTH=5, TX_DEPTH=7,
#   RX_DEPTH=3: none a power of two, no two alike); every queue of one
#   entry; link buffers deeper than a counter sized for the RX queue holds
#   (IN_DEPTH=8, RX_DEPTH=3: credits counted in too few bits deadlock
#   there); an RX queue of 2; a deeper set; and the default;
# - depths that cannot work refused: a FIFO of depth 0, a tile with core
#   or a mesh whose queue counts would not fit their 4 bits.
set -eu
out=$1
IVERILOG=${IVERILOG:-iverilog}
VVP=${VVP:-vvp}
mkdir -p "$out/depths"
fail=0

for style in logic block; do
    for d in 1 2 3 4 5 6 7 8 9; do
        vvp_file="$out/depths/fifo_${d}_$style.vvp"
        $IVERILOG -g2005 -DWM_ASSERTIONS -Ptb_fifo_depths.DEPTH=$d "-Ptb_fifo_depths.RAM_STYLE=\"$style\"" \
            -o "$vvp_file" tests/icarus/tb_fifo_depths.v rtl/prim/wm_fifo.v
        line=$($VVP -n "$vvp_file" | grep '^tb_fifo_depths' || true)
        case "$line" in *PASS) ;; *) echo "depths: wm_fifo DEPTH=$d RAM_STYLE=$style: ${line:-no result}"; fail=1 ;; esac
    done
done
echo "depths: wm_fifo at depths 1..9, ring in flops and in block RAM: checked"

for set in "5 7 3" "1 1 1" "8 5 3" "3 5 2" "5 12 3" "4 8 8"; do
    set -- $set
    vvp_file="$out/depths/mesh_$1_$2_$3.vvp"
    $IVERILOG -g2005 -DWM_ASSERTIONS -Irtl -Ptb_mesh_depths.IN_DEPTH=$1 -Ptb_mesh_depths.TX_DEPTH=$2 \
        -Ptb_mesh_depths.RX_DEPTH=$3 -o "$vvp_file" tests/icarus/tb_mesh_depths.v rtl/mesh.v \
        rtl/prim/wm_*.v rtl/wm_*.v rtl/core/wm_*.v
    $VVP -n "$vvp_file" >"$out/depths/mesh.log" 2>&1 || true
    line=$(grep '^tb_mesh_depths IN' "$out/depths/mesh.log" || true)
    case "$line" in *PASS) echo "depths: $line" ;;
        *) echo "depths: rtl/mesh.v at IN_DEPTH=$1 TX_DEPTH=$2 RX_DEPTH=$3:"; tail -5 "$out/depths/mesh.log"; fail=1 ;; esac
done

# Refused at elaboration: each must fail, naming why.
refused() {
    # $1: what must be named; the rest: the command
    what=$1; shift
    if "$@" >"$out/depths/refused.log" 2>&1; then
        echo "depths: elaborated, but should be refused: $*"; fail=1
    elif ! grep -q "$what" "$out/depths/refused.log"; then
        echo "depths: refused without naming $what: $*"; cat "$out/depths/refused.log"; fail=1
    fi
}
refused wm_fifo_depth_must_be_at_least_1 \
    $IVERILOG -g2005 -Ptb_fifo_depths.DEPTH=0 -o "$out/depths/bad.vvp" tests/icarus/tb_fifo_depths.v rtl/prim/wm_fifo.v
refused wm_tile_core_queue_depth_must_be_at_most_15 \
    ${VERILATOR:-verilator} --lint-only -Wall -Irtl -Irtl/prim -Irtl/core rtl/lint.vlt --top-module wm_tile_core \
    -GTX_DEPTH=16 rtl/wm_tile_core.v
refused wm_mesh_queue_depth_must_be_at_most_15 \
    ${VERILATOR:-verilator} --lint-only -Wall -Irtl -Irtl/prim -Irtl/core rtl/lint.vlt --top-module wm_mesh \
    -GRX_DEPTH=16 rtl/mesh.v
echo "depths: a FIFO of depth 0 and queue counts past 4 bits refused at elaboration"
exit $fail
