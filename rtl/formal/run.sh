#!/bin/sh
# run.sh: the formal checks of rtl/formal/ (make formal, make formal-quick;
# docs/verification.md, "Formal").
#
#   sh rtl/formal/run.sh OUT [--quick] [--stop] [JOB ...]
#
# Each job is a harness (rtl/formal/*_props.v) at one set of parameters.
# yosys reads it with -formal (which defines FORMAL, so the invariants
# inside the RTL join the harness's properties) and writes:
# - an AIGER model, the assertions as bad states, the assumptions as
#   constraints, the covers removed: yosys-abc's pdr proves it for every
#   reachable state (proof "pdr": a full proof), or bmc3 checks it for the
#   first N cycles (proof "bmc:N": a bounded check);
# - for covers "smt:N", an SMT-LIBv2 model: yosys-smtbmc with z3 looks for
#   a trace to every cover statement within N cycles; for covers "abc:N"
#   (the router, which smtbmc does not get through), a second AIGER model
#   in which every cover of the harness is an assertion of its negation,
#   and bmc3 -a must see each fail within N cycles.
# Either way no property holds only because its situation never arises.
# A job passes when its proof (or bounded check) holds and every cover is
# reached. One line a job: "formal: JOB: proved (pdr, 3.1 s); 7/7 covers
# reached within 12 cycles (1.2 s)". With --quick only the jobs marked
# quick run; naming jobs runs those only; --stop ends the run at the first
# job that fails (make mutate: the first check that kills a mutant).
# Exit status: 0 when every job passed, 1 when one failed (a property
# broken or a cover out of reach; the solver's log is named), 2 on bad
# usage, a missing tool, or a solver that gave no answer (a crash, a
# timeout): that is no verdict on the design.
set -u
usage() {
    sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    echo "jobs:"; jobs | awk '{ printf "  %-14s %s %s %s\n", $1, $2, $3, $4 }'
}
YOSYS=${YOSYS:-yosys}
ABC=${ABC:-yosys-abc}
SMTBMC=${SMTBMC:-yosys-smtbmc}
PDR_TIMEOUT=${PDR_TIMEOUT:-1800}
here=$(dirname "$0")
root=$here/../..

# name | top | chparam | files (rtl/...) | proof | covers | quick
# The router's jobs: the upper bits of col, row and len tied to 0 (the
# comparators and counters keep their widths), its credits and invariants
# proved at depths of 2 and at its own, its messages checked for a bounded
# number of cycles at depths of 2, from two contending inputs and from all
# five; the -deep jobs are the same checks as far as a few minutes of
# solver time reach (docs/verification.md; make mutate leaves them out);
# the -proof jobs prove the message properties for all time, at any tile
# of any mesh up to 4x4, with the invariants of wm_router_inv.vh (INV=1).
jobs() {
    cat <<'EOT'
fifo4          wm_fifo_props        DEPTH=4                  prim/wm_fifo.v     pdr     smt:12  quick
fifo1          wm_fifo_props        DEPTH=1                  prim/wm_fifo.v     pdr     smt:8   quick
fifo3          wm_fifo_props        DEPTH=3                  prim/wm_fifo.v     pdr     smt:12  quick
fifo8-block    wm_fifo_props        DEPTH=8,WIDTH=8,RAM_STYLE="block"  prim/wm_fifo.v  pdr  smt:20  -
arb5           wm_rr_arbiter_props  N=5                      prim/wm_rr_arbiter.v  pdr  smt:12  quick
arb3           wm_rr_arbiter_props  N=3                      prim/wm_rr_arbiter.v  pdr  smt:10  quick
router-credits-2 wm_router_props    COORD_BITS=2,LEN_BITS=2,GROUPS=1,IN_DEPTH=2,RX_DEPTH=2,TX_DEPTH=2  prim/wm_fifo.v,prim/wm_rr_arbiter.v,wm_router.v  pdr  abc:12  -
router-credits wm_router_props      COORD_BITS=2,LEN_BITS=2,GROUPS=1  prim/wm_fifo.v,prim/wm_rr_arbiter.v,wm_router.v  pdr  abc:12  -
router-msgs-2  wm_router_props      COORD_BITS=2,LEN_BITS=2,GROUPS=6,FIXED=1,MID_BITS=1,IN_DEPTH=2,RX_DEPTH=2,TX_DEPTH=2,ACTIVE=24  prim/wm_fifo.v,prim/wm_rr_arbiter.v,wm_router.v  bmc:10  abc:12  -
router-msgs-5  wm_router_props      COORD_BITS=2,LEN_BITS=2,GROUPS=6,FIXED=1,MID_BITS=1,IN_DEPTH=2,RX_DEPTH=2,TX_DEPTH=2  prim/wm_fifo.v,prim/wm_rr_arbiter.v,wm_router.v  bmc:8  abc:12  -
router-msgs-2-deep wm_router_props  COORD_BITS=2,LEN_BITS=2,GROUPS=6,FIXED=1,MID_BITS=1,IN_DEPTH=2,RX_DEPTH=2,TX_DEPTH=2,ACTIVE=24  prim/wm_fifo.v,prim/wm_rr_arbiter.v,wm_router.v  bmc:12  abc:12  -
router-msgs-5-deep wm_router_props    COORD_BITS=2,LEN_BITS=2,GROUPS=6,FIXED=1,MID_BITS=1,IN_DEPTH=2,RX_DEPTH=2,TX_DEPTH=2  prim/wm_fifo.v,prim/wm_rr_arbiter.v,wm_router.v  bmc:9  abc:12  -
router-msgs-proof-2 wm_router_props COORD_BITS=2,LEN_BITS=2,GROUPS=6,FIXED=0,MID_BITS=1,IN_DEPTH=2,RX_DEPTH=2,TX_DEPTH=2,ACTIVE=24,INV=1  prim/wm_fifo.v,prim/wm_rr_arbiter.v,wm_router.v  pdr  abc:12  quick
router-msgs-proof-5 wm_router_props COORD_BITS=2,LEN_BITS=2,GROUPS=6,FIXED=0,MID_BITS=1,IN_DEPTH=2,RX_DEPTH=2,TX_DEPTH=2,INV=1  prim/wm_fifo.v,prim/wm_rr_arbiter.v,wm_router.v  pdr  abc:12  -
EOT
}

[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; -*) echo "run.sh: OUT comes first (see --help)" >&2; exit 2 ;; esac
out=$1; shift
quick=0 stop=0
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1; shift ;;
        --stop)  stop=1; shift ;;
        -*)      echo "run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *)       break ;;
    esac
done
for j in "$@"; do
    jobs | awk -v j="$j" '$1 == j { f = 1 } END { exit !f }' || {
        echo "run.sh: no job named '$j'; the jobs are: $(jobs | awk '{ printf "%s ", $1 }')" >&2; exit 2; }
done
mkdir -p "$out"
for t in "$YOSYS" "$ABC" "$SMTBMC" z3; do
    command -v "$t" >/dev/null || { echo "run.sh: $t is missing (make deps installs it)" >&2; exit 2; }
done

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc | awk '{ printf "%.1f", $1 }'; }

selected="$*"
rm -f "$out/.fail"
jobs | while read -r name top params files proof covers q; do
    [ $quick -eq 1 ] && [ "$q" != quick ] && continue
    [ $stop -eq 1 ] && [ -f "$out/.fail" ] && continue
    if [ -n "$selected" ]; then
        case " $selected " in *" $name "*) ;; *) continue ;; esac
    fi
    base=$out/$name
    srcs=""
    for f in $(echo "$files" | tr ',' ' '); do srcs="$srcs $root/rtl/$f"; done
    chp=""
    for p in $(echo "$params" | tr ',' ' '); do chp="$chp -set ${p%%=*} ${p#*=}"; done
    # The router's harness starts its flops without a reset at 0 (setundef
    # -init); the primitives' start anywhere.
    init=""
    [ "$top" = wm_router_props ] && init="setundef -zero -init"
    smt=""
    case "$covers" in smt:*) smt="write_smt2 -wires $base.smt2" ;; esac
    # Probes (a job with INV=1): each "// probe: WIRE PATH" line of the
    # harness or of a file it includes from rtl/formal/ connects a wire of
    # the harness to a signal deep in the flattened design, which
    # Verilog-2005 in yosys cannot name (rtl/formal/wm_router_inv.vh).
    probes=""
    case ",$params," in *,INV=1,*)
        probes=$(for f in "$top.v" $(sed -n 's|^`include "rtl/formal/\([^"]*\)".*|\1|p' "$here/$top.v"); do
                     cat "$here/$f"
                 done | awk '$1 == "//" && $2 == "probe:" {
                     printf "rename %s f_probe_%d\nconnect -set %s f_probe_%d\n", $4, NR, $3, NR }')
        probes="rename -top $top
cd $top
$probes
cd"
    esac
    cat > "$base.ys" <<EOY
read_verilog -formal -I$root $srcs $here/$top.v
chparam $chp $top
prep -top $top -flatten
memory_map
$probes
opt -fast
async2sync
dffunmap
$smt
chformal -cover -remove
setundef -undriven -anyseq
$init
opt_clean
techmap
opt -fast
dffunmap
abc -g AND -fast
opt_clean
write_aiger -zinit -map $base.aim $base.aig
EOY
    if ! "$YOSYS" -q -l "$base.yosys.log" -s "$base.ys" >/dev/null 2>&1; then
        echo "formal: $name: yosys failed, see $base.yosys.log"; echo 1 >> "$out/.fail"; continue
    fi
    case "$covers" in abc:*)
        # the cover run: the RTL without its own properties, the harness
        # with each cover an assertion of its negation
        cat > "$base.cover.ys" <<EOY
read_verilog -DWM_COVER_RUN -I$root $srcs
read_verilog -formal -DWM_COVER_RUN -I$root $here/$top.v
chparam $chp $top
prep -top $top -flatten
memory_map
opt -fast
async2sync
setundef -undriven -anyseq
$init
opt_clean
techmap
opt -fast
dffunmap
abc -g AND -fast
opt_clean
tee -o $base.cover.stat stat
write_aiger -zinit $base.cover.aig
EOY
        if ! "$YOSYS" -q -l "$base.cover.yosys.log" -s "$base.cover.ys" >/dev/null 2>&1; then
            echo "formal: $name: yosys failed, see $base.cover.yosys.log"; echo 1 >> "$out/.fail"; continue
        fi ;;
    esac
    t0=$(now)
    if [ "$proof" = pdr ]; then
        timeout "$PDR_TIMEOUT" "$ABC" -c "read_aiger $base.aig; fold; strash; scorr; pdr" > "$base.pdr.log" 2>&1
        t1=$(now)
        if grep -q '^Property proved' "$base.pdr.log"; then
            res="proved (pdr, $(secs "$t0" "$t1") s)"
        elif ! grep -q 'was asserted' "$base.pdr.log"; then
            echo "formal: $name: ERROR: pdr gave no answer (crash or more than $PDR_TIMEOUT s), see $base.pdr.log"
            echo 2 >> "$out/.fail"; continue
        else
            echo "formal: $name: FAILED: not proved ($(grep -m1 'was asserted\|Property\|Timeout' "$base.pdr.log" || echo "no result within $PDR_TIMEOUT s")), see $base.pdr.log"
            echo 1 >> "$out/.fail"; continue
        fi
    else
        bmc_depth=${proof#bmc:}
        "$ABC" -c "read_aiger $base.aig; fold; strash; scorr; bmc3 -F $bmc_depth" > "$base.bmc.log" 2>&1
        t1=$(now)
        if ! grep -q "No output asserted in $bmc_depth frames\|was asserted" "$base.bmc.log"; then
            echo "formal: $name: ERROR: bmc3 gave no answer, see $base.bmc.log"
            echo 2 >> "$out/.fail"; continue
        fi
        if ! grep -q "No output asserted in $bmc_depth frames" "$base.bmc.log"; then
            echo "formal: $name: FAILED: $(grep -m1 'was asserted' "$base.bmc.log" || echo "no result"), see $base.bmc.log"
            echo 1 >> "$out/.fail"; continue
        fi
        res="holds for $bmc_depth cycles (bmc3, $(secs "$t0" "$t1") s)"
    fi
    cdepth=${covers#*:}
    t0=$(now)
    case "$covers" in
    smt:*)
        ncov=$(grep -c '^; yosys-smt2-cover' "$base.smt2")
        "$SMTBMC" -s z3 --presat -c -t "$cdepth" "$base.smt2" > "$base.cover.log" 2>&1
        hit=$(grep -c 'Reached cover statement' "$base.cover.log")
        grep -q 'Status: PASSED' "$base.cover.log" || [ "$hit" -lt "$ncov" ] || hit=0 ;;
    abc:*)
        ncov=$(awk '/\$assert/ { n = $2 } END { print n + 0 }' "$base.cover.stat")
        # -x: yosys-abc 0.23's bmc3 -a has been seen to crash without it;
        # and once more without scorr if it still gives no answer
        "$ABC" -c "read_aiger $base.cover.aig; fold; strash; scorr; scleanup; bmc3 -a -x -F $cdepth" > "$base.cover.log" 2>&1
        grep -q 'Stopping BMC\|outputs are found\|No output asserted' "$base.cover.log" ||
            "$ABC" -c "read_aiger $base.cover.aig; fold; strash; bmc3 -a -x -F $cdepth" > "$base.cover.log" 2>&1
        if ! grep -q 'Stopping BMC\|outputs are found\|No output asserted\|was asserted' "$base.cover.log"; then
            echo "formal: $name: ERROR: bmc3 gave no answer on the covers, see $base.cover.log"
            echo 2 >> "$out/.fail"; continue
        fi
        hit=$(grep -c 'was asserted in frame' "$base.cover.log") ;;
    esac
    t1=$(now)
    if [ "$hit" -ne "$ncov" ]; then
        echo "formal: $name: FAILED: $res, but $hit of $ncov covers reached within $cdepth cycles, see $base.cover.log"
        echo 1 >> "$out/.fail"; continue
    fi
    echo "formal: $name: $res; $hit/$ncov covers reached within $cdepth cycles ($(secs "$t0" "$t1") s)"
done
if [ -f "$out/.fail" ]; then
    st=2; grep -qx 1 "$out/.fail" && st=1
    rm -f "$out/.fail"; exit $st
fi
exit 0
