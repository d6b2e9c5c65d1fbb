#!/bin/sh
# pnr.sh: synthesise one design for iCE40 and place and route it, then
# print its summary (docs/fpga.md).
#
#   sh rtl/synth/pnr.sh OUT NAME PART PACKAGE FREQ_MHZ DESIGN [PARAM=VALUE ...]
#
# DESIGN is wm_synth_top's (0 tile, 1 tile with core, 2 mesh); the
# parameters are wm_synth_top's too (IN_DEPTH, TX_DEPTH, RX_DEPTH,
# MEM_BYTES, MESH_W, MESH_H). NAME names the design in the summary and the
# files OUT/NAME-PART.*. yosys fails on any warning (-e), on a latch and on
# a net with several drivers (rtl/synth/checks.ys); nextpnr places with a
# fixed seed, so a run is repeatable. The run fails when the design does
# not fit the part or its Fmax falls short of FREQ_MHZ; with FREQ_MHZ "-"
# it only reports, whether the design fits or not.
#
# nextpnr's analytic placer can stall on a nearly full part: a run longer
# than PNR_TIMEOUT seconds is stopped and tried again with the next seed
# (the summary names the seed that placed).
set -eu
out=$1 name=$2 part=$3 pkg=$4 freq=$5 design=$6
shift 6
YOSYS=${YOSYS:-yosys}
NEXTPNR=${NEXTPNR:-nextpnr-ice40}
SEED=${SEED:-1}
PNR_TIMEOUT=${PNR_TIMEOUT:-1200}
here=$(dirname "$0")
base=$out/$name-$part
mkdir -p "$out"

chparam="-set DESIGN $design"
for p in "$@"; do chparam="$chparam -set ${p%%=*} ${p#*=}"; done

# The design is read once per run: the RTL list is rtl/synth/files.
files=$(sed -e 's/#.*//' -e '/^ *$/d' "$here/files" | tr '\n' ' ')
cat > "$base.ys" <<EOF
read_verilog -defer $files $here/wm_synth_top.v
chparam $chparam wm_synth_top
hierarchy -check -top wm_synth_top
script $here/checks.ys
synth_ice40 ${SYNTH_OPTS:-} -top wm_synth_top -json $base.json
check -assert
tee -q -o $base.stat stat
EOF
if ! $YOSYS -q -e '.*' -l "$base.ylog" -s "$base.ys" >/dev/null 2>&1; then
    echo "synth: yosys failed on $name ($part), see $base.ylog:"
    grep -i -m 5 'error\|warning' "$base.ylog" || tail -5 "$base.ylog"
    exit 1
fi

# Cells of the design itself (its own module in the stat: the wrapper's
# chain and XOR tree are the other).
awk '
    /^=== / { mod = $2; next }
    /Number of cells:/ && mod !~ /wm_synth_top/ && mod != "design" { cells = $4; show = 1; next }
    show && /^ +[A-Za-z$]/ && NF == 2 { kinds = kinds sprintf(" %s %s,", $1, $2); next }
    show && /^$/ && kinds != "" { show = 0 }
    END { sub(/,$/, "", kinds); printf "cells:%s\n", kinds }
' "$base.stat" | sed "s/^/  $name $part /"
target=$freq
[ "$freq" = "-" ] && target=12
seed=$SEED
while :; do
    rc=0
    timeout "$PNR_TIMEOUT" $NEXTPNR --"$part" --package "$pkg" --json "$base.json" --asc "$base.asc" \
        --freq "$target" --seed "$seed" --timing-allow-fail --pcf-allow-unconstrained \
        --report "$base.report.json" ${PNR_OPTS:-} >"$base.pnr.log" 2>&1 || rc=$?
    [ $rc -eq 124 ] && [ $seed -lt $((SEED + 3)) ] || break
    seed=$((seed + 1))
done
if [ $rc -ne 0 ]; then
    need=$(awk '/ICESTORM_LC:/ { print $3 $4; exit }' "$base.pnr.log")
    if grep -q 'no BELs remaining\|Failed to expand region' "$base.pnr.log"; then
        echo "  $name $part does not fit: $need logic cells (with the wrapper)"
        echo "Fmax: - MHz ($part, $name: does not fit)"
        [ "$freq" = "-" ] && exit 0
        exit 1
    fi
    echo "synth: nextpnr failed on $name ($part, seed $seed), see $base.pnr.log:"
    grep -m 5 'ERROR\|Error' "$base.pnr.log" || tail -5 "$base.pnr.log"
    exit 1
fi

# ---- the summary of the placed design ----
# The whole placed design against the part (wrapper included).
awk '/ICESTORM_LC:|ICESTORM_RAM:|ICESTORM_DSP:|ICESTORM_SPRAM:/ { u[$2] = $3 $4 }
     END { printf "placed (with the wrapper, seed %s): %s logic cells, %s block RAMs", seed, u["ICESTORM_LC:"], u["ICESTORM_RAM:"];
           if (u["ICESTORM_DSP:"] != "") printf ", %s DSPs", u["ICESTORM_DSP:"];
           printf "\n" }' seed="$seed" "$base.pnr.log" | sed "s/^/  $name $part /"
# The critical path: the last report of the clock's, the flop it starts
# from and the pin it ends on, and how many LUTs and carries it goes
# through. nextpnr names a logic cell after the LUT packed with its flop,
# and yosys names that LUT after the nets around it: the flop is the first
# "..._q" in the first cell's name, else the name of its output net.
awk '
    /Critical path report for clock/ { inpath = 1; n = 0; luts = 0; carries = 0; cell = ""; from = ""; next }
    /Critical path report for cross-domain/ { inpath = 0 }
    inpath && / Source / { if (cell == "") cell = $NF; if ($NF ~ /\.O$/) luts++; if ($NF ~ /\.COUT$/) carries++ }
    inpath && / Net / && from == "" { from = $5 }
    inpath && / Sink / { to = $NF }
    END {
        luts--   # the first Source is the flop itself
        if (match(cell, /^[^ ]*_q(\[[0-9]+\])?_SB_/)) from = substr(cell, 1, RLENGTH - 4)
        gsub(/(genblk[0-9]*\.)?gen_[a-z_]*\.u_dut\./, "", from); gsub(/(genblk[0-9]*\.)?gen_[a-z_]*\.u_dut\./, "", to)
        sub(/_SB_[A-Za-z0-9_]*/, "", from)
        sub(/_SB_[A-Za-z0-9_]*/, "", to); sub(/_(LC|DFFLC|RAM)\./, ".", to)
        printf "critical path: %s -> %s (%d LUTs, %d carries)\n", from, to, luts, carries
    }' "$base.pnr.log" | sed "s/^/  $name $part /"
fmax=$(awk '/Max frequency for clock/ { f = $(NF-5) } END { print f }' "$base.pnr.log")
echo "Fmax: $fmax MHz ($part, $name)"
if [ "$freq" != "-" ] && awk -v f="$fmax" -v t="$freq" 'BEGIN { exit !(f + 0 < t + 0) }'; then
    echo "synth: $name on $part closes at $fmax MHz, short of its $freq MHz target"
    exit 1
fi
