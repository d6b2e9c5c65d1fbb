#!/bin/sh
# rules.sh: the priority and simultaneity rules the RTL's comments state,
# each driven at its module (tests/icarus/tb_rules.v; docs/fabric.md,
# "Priorities and simultaneity"). make test-rules; make mutate's icarus
# check.
#
#   sh tests/rules.sh BUILD_DIR
set -eu
out=$1
IVERILOG=${IVERILOG:-iverilog}
VVP=${VVP:-vvp}
mkdir -p "$out/rules"
$IVERILOG -g2005 -Irtl -y rtl -y rtl/prim -y rtl/core -o "$out/rules/tb_rules.vvp" tests/icarus/tb_rules.v \
    rtl/prim/wm_fifo.v rtl/prim/wm_rr_arbiter.v rtl/wm_router.v rtl/wm_pe.v rtl/mesh.v
$VVP -n "$out/rules/tb_rules.vvp" > "$out/rules/tb_rules.log" 2>&1 || true
if grep -q '^tb_rules: .* PASS$' "$out/rules/tb_rules.log"; then
    echo "rules: $(grep -c '^rule .*: ok$' "$out/rules/tb_rules.log") rules of the FIFO, arbiter, router, PE datapath and mesh hold"
    exit 0
fi
sed -n 's/^rule \(.*\): FAIL$/rules: FAIL \1/p' "$out/rules/tb_rules.log"
grep -q '^tb_rules' "$out/rules/tb_rules.log" || { echo "rules: FAIL tb_rules did not finish"; tail -5 "$out/rules/tb_rules.log"; }
exit 1
