#!/usr/bin/env bash
# check_gdb.sh WAVEMESH [BACKEND...]: gdb-multiarch drives `wavemesh run
# --gdb` through the sessions of tests/gdb/ on each backend (default sw
# and rtl), each checked line by line:
# - tutorial.gdb, on the tutorial row's root: the seven threads by name, a
#   breakpoint in the node kernel, left and right after each child's
#   message (70 from p1 first, then 30 from p0, which the link events show
#   arriving), a stepi that moves the PC by 4, a watchpoint on the
#   exported total that fires, and a run that ends with the exports and
#   cycles of the run without GDB; the port is closed once the run ended;
# - leaves.gdb: the four leaves, which reach wm_kernel_leaf in the same
#   cycle, stop there one after the other in four `continue`s, threads 1
#   to 4; the backtrace ends at _start; the run says GDB held three of
#   them (and exits 1);
# - stepi.gdb: `thread 3` + `stepi` while threads 2, 3 and 4 stand at
#   wm_kernel_leaf moves thread 3 by one instruction and leaves 2 and 4
#   there (monitor threads), whose stops the next `continue`s report;
# - thread_break.gdb: `break wm_kernel_leaf thread 3` stops thread 3, once;
# - watch.gdb, on the all-reduce's layout: a watchpoint that its six leaves
#   trigger in the same cycle stops each, threads 4 to 9, with the value
#   it stored.
set -u
wm=${1:?usage: check_gdb.sh WAVEMESH [BACKEND...]}
shift
[ $# -gt 0 ] || set -- sw rtl
tutorial=sw/collectives/bench.layout
allreduce=sw/collectives/allreduce.layout
fw=${WM_FIRMWARE_DIR:-build/firmware}
dir=$(mktemp -d "${TMPDIR:-/tmp}/wm_gdb.XXXXXX")
trap 'rm -rf "$dir"' EXIT
bad=0
last=
fail() {
    echo "check_gdb: $backend: $*"
    bad=1
}

# session NAME LAYOUT ELF: `wavemesh run LAYOUT --pe core --gdb` on
# $backend, gdb-multiarch with ELF through tests/gdb/NAME.gdb; the
# transcript in $dir/NAME.gdb.txt, the run's output in $dir/NAME.out and
# .err, its exit status in $dir/NAME.status.
session() {
    local name=$1 layout=$2 elf=$3 port= pid
    last=$dir/$name.gdb.txt
    "$wm" run "$layout" --pe core --backend "$backend" --gdb 127.0.0.1:0 > "$dir/$name.out" 2> "$dir/$name.err" &
    pid=$!
    for _ in $(seq 100); do
        port=$(sed -n 's/^wavemesh: waiting for GDB on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$dir/$name.err")
        [ -n "$port" ] && break
        sleep 0.1
    done
    if [ -z "$port" ]; then
        fail "$name: no 'waiting for GDB' line: $(cat "$dir/$name.err")"
        kill "$pid" 2> /dev/null
        return 1
    fi
    timeout 120 gdb-multiarch --batch -nx "$elf" -ex "target remote 127.0.0.1:$port" -x "tests/gdb/$name.gdb" \
        > "$last" 2>&1 || fail "$name: gdb-multiarch failed: $(tail -5 "$last")"
    wait "$pid"
    echo $? > "$dir/$name.status"
    if (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then fail "$name: port $port still listens after the run"; fi
}

# expect NAME TEXT...: each TEXT is a line (or part of one) of the session's transcript.
expect() {
    local name=$1 want
    shift
    for want in "$@"; do grep -qF -- "$want" "$dir/$name.gdb.txt" || fail "$name: GDB did not print '$want'"; done
}

# stops NAME WANT: the session's stops, "Thread N hit WHAT" joined by "; ", are WANT.
stops() {
    local got
    got=$(sed -n 's/^\(Thread [0-9]* hit [A-Za-z ]*[0-9]*\).*/\1/p' "$dir/$1.gdb.txt" | paste -sd ';' | sed 's/;/; /g')
    [ "$got" = "$2" ] || fail "$1: the stops were '$got', not '$2'"
}

# held NAME STATUS LINE: the run exits with STATUS, its last line LINE.
held() {
    local got
    got=$(tail -1 "$dir/$1.out")
    [ "$(cat "$dir/$1.status")" = "$2" ] || fail "$1: the run exited $(cat "$dir/$1.status"), not $2"
    [ "$got" = "$3" ] || fail "$1: the run ended with '$got', not '$3'"
}

for backend in "$@"; do
    # the tutorial: the session costs the run nothing
    "$wm" run $tutorial --pe core --backend "$backend" > "$dir/plain.txt" 2>&1 || fail "the run without GDB failed"
    session tutorial $tutorial "$fw/node.elf"
    [ "$(cat "$dir/tutorial.status")" = 0 ] || fail "tutorial: the run under GDB failed: $(cat "$dir/tutorial.out")"
    expect tutorial 'Thread 1 (l0 (0,0))' 'Thread 2 (l1 (1,0))' 'Thread 3 (l2 (2,0))' 'Thread 4 (l3 (3,0))' \
        'Thread 5 (p0 (4,0))' 'Thread 6 (p1 (5,0))' 'Thread 7 (root (6,0))' 'cycle 0' \
        'Thread 7 hit Breakpoint 1, wm_kernel_node' 'left=0 right=70' 'left=30 right=70' \
        'cycle 128 (6,0) out L: 00000046' 'cycle 132 (6,0) out L: 0000001e' 'cycle 160' \
        'root (6,0): TX 0 of 8 wavelets, RX 0 of 8' \
        'Thread 7 hit Hardware watchpoint 2: -location ((wm_pe_block *) mp)->exports[TOTAL]' \
        'Old value = 0' 'New value = 100' \
        'wavemesh: the run ended at cycle 310' '[Inferior 1 (Remote target) exited normally]'
    step=$(sed -n 's/^stepi from \(0x[0-9a-f]*\) to \(0x[0-9a-f]*\)$/\1 \2/p' "$dir/tutorial.gdb.txt")
    if [ -z "$step" ] || [ $(( ${step% *} + 4 )) -ne $(( ${step#* } )) ]; then
        fail "tutorial: stepi did not move the PC by 4: '$step'"
    fi
    cmp -s "$dir/plain.txt" "$dir/tutorial.out" || fail "tutorial: the exports or cycles differ from the run without GDB: \
$(diff "$dir/plain.txt" "$dir/tutorial.out" | head -5)"

    # the four leaves at wm_kernel_leaf in one cycle: four stops
    session leaves $tutorial "$fw/leaf.elf"
    stops leaves 'Thread 1 hit Breakpoint 1; Thread 2 hit Breakpoint 1; Thread 3 hit Breakpoint 1; Thread 4 hit Breakpoint 1'
    expect leaves 'Thread 4 hit Breakpoint 1, wm_kernel_leaf (mp=0x5e00) at sw/collectives/leaf.c:24' \
        '#1  0x0000005c in wm_rv32_main () at sw/rv32/start.c:19' '#2  0x0000002c in _start ()'
    ! grep -q 'Backtrace stopped' "$dir/leaves.gdb.txt" || fail "leaves: $(grep 'Backtrace stopped' "$dir/leaves.gdb.txt")"
    held leaves 1 'modified: GDB held l1 (1,0), l2 (2,0), l3 (3,0) where they stopped, while it ran other cores: 6 cycles in all'

    # stepi on one of three leaves held at one PC moves it alone of them
    session stepi $tutorial "$fw/leaf.elf"
    expect stepi 'thread 3 stepi from 0x78 to 0x7c' '2 l1 (1,0) [leaf] pc 0x00000078, 17 retired' \
        '3 l2 (2,0) [leaf] pc 0x0000007c, 18 retired' '4 l3 (3,0) [leaf] pc 0x00000078, 17 retired'
    stops stepi 'Thread 1 hit Breakpoint 1; Thread 2 hit Breakpoint 1; Thread 4 hit Breakpoint 1'
    held stepi 1 'modified: GDB held l1 (1,0), l2 (2,0), l3 (3,0) where they stopped, while it ran other cores: 6 cycles in all'

    # a breakpoint for thread 3 stops thread 3
    session thread_break $tutorial "$fw/leaf.elf"
    stops thread_break 'Thread 3 hit Breakpoint 1'
    expect thread_break 'stopped: thread 3 at 0x78' '[Inferior 1 (Remote target) exited normally]'
    held thread_break 1 'modified: GDB held l1 (1,0), l2 (2,0), l3 (3,0) where they stopped, while it ran other cores: 6 cycles in all'

    # a watchpoint six cores trigger in one cycle stops each
    session watch $allreduce "$fw/allreduce.elf"
    w='hit Hardware watchpoint 1'
    stops watch "Thread 4 $w; Thread 5 $w; Thread 6 $w; Thread 7 $w; Thread 8 $w; Thread 9 $w"
    values=$(sed -n 's/^New value = //p' "$dir/watch.gdb.txt" | paste -sd ' ')
    [ "$values" = '6 4 1 3 7 9' ] || fail "watch: the values stored were '$values', not '6 4 1 3 7 9'"
    held watch 1 'modified: GDB held w (0,1), nw (0,0), ne (2,0), sw (0,2), se (2,2) where they stopped, while it ran other cores: 15 cycles in all'

    [ $bad -eq 0 ] && echo "gdb: $backend: the tutorial (7 threads, breakpoint, values 70 and 30, stepi +4, watchpoint, same \
exports and cycles); 4 leaves stopped in 4 continues, backtrace to _start; stepi moves 1 of 3 held leaves; a thread's \
breakpoint; 6 watch hits of one cycle"
done
[ $bad -eq 0 ] || { echo "check_gdb: transcript of the last session:"; cat "$last"; }
exit $bad
