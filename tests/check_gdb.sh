#!/usr/bin/env bash
# check_gdb.sh WAVEMESH [BACKEND...]: gdb-multiarch drives `wavemesh run
# --gdb` through tests/gdb/tutorial.gdb on the tutorial row's cores, on each
# backend (default sw and rtl): the seven threads by name, a breakpoint in
# the node kernel on the root, left and right after each child's message
# (70 from p1 first, then 30 from p0, which the link events show arriving),
# a stepi that moves the PC by 4, a watchpoint on the exported total that
# fires, and a run that ends with the exports and cycles of the run without
# GDB; the port is closed once the run ended.
set -u
wm=${1:?usage: check_gdb.sh WAVEMESH [BACKEND...]}
shift
[ $# -gt 0 ] || set -- sw rtl
layout=sw/collectives/bench.layout
fw=${WM_FIRMWARE_DIR:-build/firmware}
dir=$(mktemp -d "${TMPDIR:-/tmp}/wm_gdb.XXXXXX")
trap 'rm -rf "$dir"' EXIT
bad=0
fail() {
    echo "check_gdb: $backend: $*"
    bad=1
}
for backend in "$@"; do
    "$wm" run $layout --pe core --backend "$backend" > "$dir/plain.txt" 2>&1 || fail "the run without GDB failed"
    "$wm" run $layout --pe core --backend "$backend" --gdb 127.0.0.1:0 > "$dir/out.txt" 2> "$dir/err.txt" &
    pid=$!
    port=
    for _ in $(seq 100); do
        port=$(sed -n 's/^wavemesh: waiting for GDB on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$dir/err.txt")
        [ -n "$port" ] && break
        sleep 0.1
    done
    if [ -z "$port" ]; then
        fail "no 'waiting for GDB' line: $(cat "$dir/err.txt")"
        kill "$pid" 2> /dev/null
        continue
    fi
    timeout 120 gdb-multiarch --batch -nx "$fw/node.elf" -ex "info line wm_kernel_node" \
        -ex "target remote 127.0.0.1:$port" \
        -x tests/gdb/tutorial.gdb > "$dir/gdb.txt" 2>&1 || fail "gdb-multiarch failed: $(tail -5 "$dir/gdb.txt")"
    wait "$pid" || fail "the run under GDB failed: $(cat "$dir/err.txt")"
    g=$dir/gdb.txt
    for want in 'Thread 1 (l0 (0,0))' 'Thread 2 (l1 (1,0))' 'Thread 3 (l2 (2,0))' 'Thread 4 (l3 (3,0))' \
        'Thread 5 (p0 (4,0))' 'Thread 6 (p1 (5,0))' 'Thread 7 (root (6,0))' 'cycle 0' \
        'Thread 7 hit Breakpoint 1, wm_kernel_node' 'left=0 right=70' 'left=30 right=70' \
        'cycle 128 (6,0) out L: 00000046' 'cycle 132 (6,0) out L: 0000001e' 'cycle 160' \
        'root (6,0): TX 0 of 8 wavelets, RX 0 of 8' \
        'Thread 7 hit Hardware watchpoint 2: -location ((wm_pe_block *) mp)->exports[TOTAL]' \
        'Old value = 0' 'New value = 100' \
        'wavemesh: the run ended at cycle 310' '[Inferior 1 (Remote target) exited normally]'; do
        grep -qF "$want" "$g" || fail "GDB did not print '$want'"
    done
    step=$(sed -n 's/^stepi from \(0x[0-9a-f]*\) to \(0x[0-9a-f]*\)$/\1 \2/p' "$g")
    if [ -z "$step" ] || [ $(( ${step% *} + 4 )) -ne $(( ${step#* } )) ]; then
        fail "stepi did not move the PC by 4: '$step'"
    fi
    cmp -s "$dir/plain.txt" "$dir/out.txt" || fail "the exports or cycles differ from the run without GDB: \
$(diff "$dir/plain.txt" "$dir/out.txt" | head -5)"
    if (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then fail "port $port still listens after the run"; fi
    [ $bad -eq 0 ] && echo "gdb: $backend: 7 threads, breakpoint, values 70 and 30, stepi +4, watchpoint, same exports and cycles"
done
[ $bad -eq 0 ] || { echo "check_gdb: transcript of the last session:"; cat "$dir/gdb.txt"; }
exit $bad
