#!/bin/sh
# check_mpi_fabric.sh WAVEMESH: one fabric partitioned over 3 MPI ranks
# (docs/distributed.md) prints what one process prints: the seed's rows
# natively and on the cores, a layout and a rows file in error, a deadlock and a message
# left unread, gs's setup run and gs_op, on both backends, and its
# heatmap; synthetic traffic (a hotspot, off-mesh addresses) and firmware
# traffic; a mesh too small for the ranks is refused; run --trace and
# traffic --trace make a dump a rank that wavediff finds equal to one
# process's; and a rank killed mid-run ends the job, non-zero, naming the
# cycle, with no process left.
# Skipped, with a note, where mpirun is not installed.
W=${1:-build/wavemesh}
command -v mpirun >/dev/null 2>&1 || { echo "check-mpi-fabric: note: no mpirun here: skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-mpi-fabric: $*"; exit 1; }
# Open MPI refuses root without its opt-in; 3 ranks on fewer cores need
# --oversubscribe; -q keeps its own notes (a rank's non-zero exit) off stderr
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout 300 mpirun -q -np 3 --oversubscribe"
# the timing, the one thing that may differ: a row's wall time; traffic's
# cpu line and its CSV columns wall_s, cpu_s and router_cycles_per_s
untimed() {
    sed -E -e 's/^([^ ]+) : [0-9]+:[0-9.]+ /\1 : /' -e 's/^cpu [0-9.]+ s \(wall [0-9.]+ s\), [0-9.]+ M router-cycles.*/cpu TIMING/' \
        -e 's/^((sw|rtl),.*),[0-9.]+,[0-9.]+,[0-9]+$/\1,TIMING/' "$1"
}
same() { # NAME ARGS...: one process against 3 ranks: exit status, stdout and stderr
    name=$1; shift
    "$W" "$@" >"$tmp/$name-1.out" 2>"$tmp/$name-1.err"; s1=$?
    $MPI "$W" "$@" >"$tmp/$name-3.out" 2>"$tmp/$name-3.err"; s3=$?
    [ "$s3" = "$s1" ] || { cat "$tmp/$name-3.err"; fail "$name: 3 ranks exited $s3, one process $s1"; }
    for f in out err; do
        untimed "$tmp/$name-1.$f" >"$tmp/$name-1.u"
        untimed "$tmp/$name-3.$f" >"$tmp/$name-3.u"
        cmp -s "$tmp/$name-1.u" "$tmp/$name-3.u" ||
            { diff "$tmp/$name-1.u" "$tmp/$name-3.u" | head -20; fail "$name: 3 ranks' std$f differs from one process's"; }
    done
}
same rows rows sw/collectives/test.rows --backend sw --backend rtl --pe native --pe core --cycles
grep -q 'PASS tutorial' "$tmp/rows-3.out" || fail "rows: no PASS tutorial line"
# the deadlock's and the unread message's layouts, a tile wider: a rank each
sed 's/^mesh 2 1/mesh 3 1/; s/^at p 1 0/at p 2 0/' tests/layouts/deadlock.layout >"$tmp/deadlock.layout"
sed 's/^mesh 2 1/mesh 3 1/; s/^at a 1 0/at a 2 0/' tests/layouts/unread.layout >"$tmp/unread.layout"
# (each backend in each mode once between the two)
for cfg in "sw native rtl core" "rtl native sw core"; do
    set -- $cfg
    same "deadlock-$1-$2" run "$tmp/deadlock.layout" --backend $1 --pe $2
    grep -q '^deadlock at cycle' "$tmp/deadlock-$1-$2-3.err" || fail "deadlock-$1-$2: no deadlock reported"
    same "unread-$3-$4" run "$tmp/unread.layout" --backend $3 --pe $4
    grep -q 'left unread' "$tmp/unread-$3-$4-3.err" || fail "unread-$3-$4: the message left unread is not named"
done
# a layout in error (run, profile) and a rows file in error: reported
# once, by rank 0, as one process reports them
printf 'mesh 3 1\nregion all\nat a 0 0\npe a nokernel\n' >"$tmp/bad.layout"
same bad-layout run "$tmp/bad.layout" --backend sw
grep -q "bad.layout:4: unknown kernel 'nokernel'" "$tmp/bad-layout-3.err" || fail "bad-layout: the line is not named"
same bad-profile profile "$tmp/bad.layout" --backend sw
printf 'mesh 2 1\nbogus\n' >"$tmp/bad.rows"
same bad-rows rows "$tmp/bad.rows"
[ "$(grep -c '^.*bad.rows:[12]: expected' "$tmp/bad-rows-3.err")" = 2 ] || { cat "$tmp/bad-rows-3.err"; fail "bad-rows: not its two lines, once"; }
"$W" tree --leaves 32 --placement packed -o "$tmp/p32.layout" >/dev/null || fail "tree exited $?"
same packed-sw run "$tmp/p32.layout" --backend sw --pe core
same packed-rtl run "$tmp/p32.layout" --backend rtl --pe native
# a packed tree of 4096 leaves with a message left unread beside it, a row
# below: the ranks trade their pushes and pops several times in the run
# (16,384 at a time), and the unread message's sender, sent in cycle 61,
# is named as one process names it
"$W" tree --leaves 4096 --placement packed -o "$tmp/p4k.layout" >/dev/null || fail "tree exited $?"
sed 's/^mesh 128 64$/mesh 128 65/' "$tmp/p4k.layout" >"$tmp/p4ku.layout"
printf 'at ua 1 64\nat ub 0 64\npe ua stream COUNT=1 LEN=1 TOX=0 TOY=64 EXPECT=0\npe ub stream COUNT=0 EXPECT=0\n' \
    >>"$tmp/p4ku.layout"
same traded-sw run "$tmp/p4ku.layout" --backend sw
grep -q 'sent by PE (1,64) ua \[stream\] at cycle 61 from sw/traffic/stream.c' "$tmp/traded-sw-3.err" ||
    { cat "$tmp/traded-sw-3.err"; fail "traded-sw: the unread message's sender is not named"; }
# synthetic traffic: every rank draws every message and injects its block's;
# a hotspot, messages addressed beyond the edge, PEs that pop every other cycle
for b in sw rtl; do
    same "traffic-hotspot-$b" traffic --backend $b --mesh 7x5 --pattern hotspot --hotspot 1,3 --rate 0.08 \
        --warmup 200 --cycles 300
    grep -q '^average latency 14.84 cycles (p50 14, p90 22, p99 35, max 60 cycles)$' "$tmp/traffic-hotspot-$b-3.out" ||
        { cat "$tmp/traffic-hotspot-$b-3.out"; fail "traffic-hotspot-$b: not the latency of one process"; }
    same "traffic-offmesh-$b" traffic --backend $b --mesh 7x5 --rate 0.1 --offmesh 0.3 --pop-interval 2 \
        --warmup 200 --cycles 300 --csv
done
# firmware traffic: each rank runs its block's stream kernels, and rank 0
# reads every PE's latency records for the percentiles
same traffic-pe-sw traffic --backend sw --pe native --mesh 7x5 --rate 0.05 --cycles 400
grep -q '^average latency 35.49 cycles (p50 35, p90 53, p99 77, max 92)$' "$tmp/traffic-pe-sw-3.out" ||
    { cat "$tmp/traffic-pe-sw-3.out"; fail "traffic-pe-sw: not the latency of one process"; }
same traffic-pe-rtl traffic --backend rtl --pe core --mesh 7x5 --rate 0.05 --cycles 400 --csv
grep -q ',175,175,2838,469.206,380,862,1364,1695,' "$tmp/traffic-pe-rtl-3.out" ||
    { cat "$tmp/traffic-pe-rtl-3.out"; fail "traffic-pe-rtl: not the figures of one process"; }
# traffic's waves: a dump a rank, together one process's, on both backends
# (the rtl one's tiles, columns 0-3, lie in the blocks of ranks 0 and 1:
# rank 2, columns 4-5, dumps nothing); another seed's differ
hot="--mesh 6x5 --rate 0.05 --cycles 200 --warmup 50 --pattern hotspot"
for cfg in "sw" "rtl --trace-tiles 0,1:3,3"; do
    b=${cfg%% *}
    opts=$([ "$b" = "$cfg" ] || echo "${cfg#* }")
    "$W" traffic --backend $b $hot $opts --trace "$tmp/tone-$b.fst" >"$tmp/tone.out" ||
        fail "traffic-waves-$b: one process's traced traffic exited $?"
    $MPI "$W" traffic --backend $b $hot $opts --trace "$tmp/tw-$b.vcd" >"$tmp/tw.out" 2>"$tmp/tw.err" ||
        { cat "$tmp/tw.err"; fail "traffic-waves-$b: 3 ranks' traced traffic exited non-zero"; }
    untimed "$tmp/tone.out" >"$tmp/tone.u"
    untimed "$tmp/tw.out" | cmp -s - "$tmp/tone.u" || fail "traffic-waves-$b: 3 ranks' stdout differs from one process's"
    parts=$(ls "$tmp"/tw-$b-rank*.vcd)
    "$W" wavediff "$tmp/tone-$b.fst" $parts >"$tmp/wd.out" ||
        { cat "$tmp/wd.out"; fail "traffic-waves-$b: the ranks' dumps differ from one process's"; }
    grep -q "^identical: [0-9]* common signals in $(echo $parts | wc -w) parts$" "$tmp/wd.out" ||
        { cat "$tmp/wd.out"; fail "traffic-waves-$b: no identical line"; }
done
[ -e "$tmp/tw-rtl-rank2.vcd" ] && fail "traffic-waves-rtl: rank 2, holding none of the tiles, made a dump"
$MPI "$W" traffic --backend sw $hot --seed 2 --trace "$tmp/tw2.vcd" >/dev/null 2>&1 || fail "traffic-waves: seed 2 exited non-zero"
"$W" wavediff "$tmp/tone-sw.fst" "$tmp/tw2-rank0.vcd" "$tmp/tw2-rank1.vcd" "$tmp/tw2-rank2.vcd" >"$tmp/wd.out" &&
    fail "traffic-waves: seed 2's dumps compared identical to seed 1's"
grep -q "^first difference at time " "$tmp/wd.out" || { cat "$tmp/wd.out"; fail "traffic-waves: the difference is not named"; }
# a mesh of fewer tiles than ranks
$MPI "$W" run tests/layouts/deadlock.layout >/dev/null 2>"$tmp/small.err" && fail "3 ranks on a 2x1 mesh ran"
grep -q '3 ranks for a 2x1 mesh' "$tmp/small.err" || { cat "$tmp/small.err"; fail "no reason for refusing a 2x1 mesh"; }
# a rank killed mid-run: the job ends, non-zero, the cycle named, nothing left running
# (a 64x128 mesh of cores on the rtl backend: seconds of CPU a rank; the
# victim is killed once it has spent 3 s of CPU, past its set-up whatever
# the machine's load)
"$W" tree --leaves 4096 --placement packed -o "$tmp/long.layout" >/dev/null || fail "tree exited $?"
$MPI "$W" run "$tmp/long.layout" --backend rtl --pe core >"$tmp/kill.out" 2>"$tmp/kill.err" &
job=$!
for i in $(seq 1 100); do
    victim=$(pgrep -f "wavemesh run $tmp/long.layout" | tail -1)
    [ -n "$victim" ] && [ "$(pgrep -fc "wavemesh run $tmp/long.layout")" -ge 3 ] && break
    sleep 0.1
done
[ -n "$victim" ] || fail "the ranks of the long run did not start"
ticks=$(getconf CLK_TCK)
for i in $(seq 1 600); do
    cpu=$(awk '{print $14 + $15}' "/proc/$victim/stat" 2>/dev/null) || break
    [ "$cpu" -ge $((3 * ticks)) ] && break
    sleep 0.1
done
kill -9 "$victim" || fail "the victim rank ended before it was killed"
start=$(date +%s)
wait $job && fail "a run with a rank killed exited 0"
[ $(($(date +%s) - start)) -le 30 ] || fail "a run with a rank killed took more than 30 s to end"
sleep 1
pgrep -f "wavemesh run $tmp/long.layout" >/dev/null && fail "a rank still runs after the job ended"
grep -q 'stopped at cycle [0-9]* waiting on \(the other ranks\|rank [0-9]*\)\|failed at cycle [0-9]*' "$tmp/kill.err" ||
    { cat "$tmp/kill.err"; fail "no rank says at which cycle the job stopped"; }
# gs: a 3x1 rank grid, a rank a tile, on each backend in one mode; plan
# makes a setup run and a gs_op, and reads the plan back from every PE's
# memory on rank 0 (pairwise, a gs_op alone, where the setup's cycles would
# take seconds); gs prints no wall time, so every line must match
for cfg in "sw native plan" "rtl core pairwise"; do
    set -- $cfg
    same "gs-$1-$2" gs --ranks 3x1 --dofs 1 --method $3 --backend $1 --pe $2
    grep -q '^reference: bit-exact' "$tmp/gs-$1-$2-3.out" || fail "gs-$1-$2: no bit-exact result"
done
# profile: bench.layout's tutorial row (7x1: a block of columns a rank) natively
# on sw and on the cores on rtl: exit status, stdout, stderr and the --csv and
# --folded files as one process's (a profile prints no wall time: nothing filtered)
for cfg in "sw native" "rtl core"; do
    set -- $cfg
    b=$1 pe=$2
    n=profile-$b-$pe
    for ranks in 1 3; do
        run=; [ $ranks = 3 ] && run=$MPI
        $run "$W" profile sw/collectives/bench.layout --backend $b --pe $pe --csv "$tmp/$n-$ranks.csv" \
            --folded "$tmp/$n-$ranks.folded" >"$tmp/$n-$ranks.out" 2>"$tmp/$n-$ranks.err"
        echo $? >"$tmp/$n-$ranks.status"
    done
    for f in status out err csv folded; do
        cmp -s "$tmp/$n-1.$f" "$tmp/$n-3.$f" ||
            { cat "$tmp/$n-3.err"; fail "$n: 3 ranks' $f differs from one process's"; }
    done
    grep -q '^critical path: ' "$tmp/$n-3.out" || fail "$n: no critical path"
done
# waves: under mpirun each rank dumps its block's tiles to FILE-rankK.fst (or
# .vcd); the three dumps together are one process's, signal for signal
for cfg in "sw native" "rtl native" "sw core"; do
    set -- $cfg
    "$W" run sw/collectives/allreduce.layout --backend $1 --pe $2 --trace "$tmp/one-$1-$2.fst" >/dev/null ||
        fail "waves-$1-$2: one process's traced run exited $?"
    $MPI "$W" run sw/collectives/allreduce.layout --backend $1 --pe $2 --trace "$tmp/w-$1-$2.vcd" >"$tmp/w.out" 2>"$tmp/w.err" ||
        { cat "$tmp/w.err"; fail "waves-$1-$2: 3 ranks' traced run exited non-zero"; }
    for k in 0 1 2; do
        grep -q "^waves: $tmp/w-$1-$2-rank$k.vcd (open with: gtkwave -a $tmp/w-$1-$2-rank$k.gtkw " "$tmp/w.out" ||
            fail "waves-$1-$2: rank $k's dump is not named"
    done
    "$W" wavediff "$tmp/one-$1-$2.fst" "$tmp/w-$1-$2-rank0.vcd" "$tmp/w-$1-$2-rank1.vcd" "$tmp/w-$1-$2-rank2.vcd" \
        >"$tmp/wd.out" || { cat "$tmp/wd.out"; fail "waves-$1-$2: the ranks' dumps differ from one process's"; }
    grep -q '^identical: [0-9]* common signals in 3 parts$' "$tmp/wd.out" || { cat "$tmp/wd.out"; fail "waves-$1-$2: no identical line"; }
done
# gs --heatmap: the ranks sum their blocks' link counts, and rank 0's
# pictures are one process's, byte for byte (gnuplot started with the
# descriptors a rank holds)
hm="gs --ranks 4x3 --dofs 2 --method crystal --backend sw --heatmap $tmp/hm"
"$W" $hm >"$tmp/hm-1.out" 2>&1 || { cat "$tmp/hm-1.out"; fail "gs-heatmap: one process exited $?"; }
mkdir "$tmp/hm1" && mv "$tmp"/hm-stage*.png "$tmp/hm1/" || fail "gs-heatmap: one process drew no picture"
$MPI "$W" $hm >"$tmp/hm-3.out" 2>&1 || { cat "$tmp/hm-3.out"; fail "gs-heatmap: 3 ranks exited non-zero"; }
cmp -s "$tmp/hm-1.out" "$tmp/hm-3.out" || { diff "$tmp/hm-1.out" "$tmp/hm-3.out"; fail "gs-heatmap: 3 ranks printed other lines"; }
grep -q '^stage 3: wavelets north 16, east 142, south 19, west 111$' "$tmp/hm-3.out" ||
    { cat "$tmp/hm-3.out"; fail "gs-heatmap: not stage 3's wavelets"; }
for f in "$tmp"/hm1/hm-stage*.png; do
    cmp -s "$f" "$tmp/${f##*/}" || fail "gs-heatmap: 3 ranks' ${f##*/} is not one process's"
done
# a planted difference (se's value 10, not 9), and a rank's dump left out
$MPI "$W" run sw/collectives/allreduce.layout --backend sw --trace "$tmp/p.fst" --set VSE=10 >/dev/null 2>&1 ||
    fail "waves: the planted run exited non-zero"
"$W" wavediff "$tmp/one-sw-native.fst" "$tmp/p-rank0.fst" "$tmp/p-rank1.fst" "$tmp/p-rank2.fst" >"$tmp/wd.out" &&
    fail "waves: a dump of VSE=10 compared identical"
grep -q "^first difference at time 1: se.fw.sum$" "$tmp/wd.out" && grep -q "^  $tmp/p-rank2.fst: 0xa (10)$" "$tmp/wd.out" ||
    { cat "$tmp/wd.out"; fail "waves: the planted difference is not named"; }
"$W" wavediff "$tmp/one-sw-native.fst" "$tmp/p-rank0.fst" "$tmp/p-rank1.fst" >"$tmp/wd.out" &&
    fail "waves: two of three ranks' dumps compared identical"
grep -q "is in none of the 2 parts" "$tmp/wd.out" || { cat "$tmp/wd.out"; fail "waves: the signals in no part are not named"; }
echo "check-mpi-fabric: 3 ranks print what one process prints (rows, a layout in error, deadlock, unread, packed, traffic, firmware traffic, gs, gs --heatmap, profile); their dumps are its dump (run, traffic); a killed rank ends the job"
