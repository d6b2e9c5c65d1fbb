#!/bin/sh
# distributed.sh: one fabric over MPI ranks (docs/distributed.md). What a
# cycle's exchange costs, the wall time of 1 process against 2 ranks
# (paired: the two alternate, R runs each, medians), and each rank's peak
# resident set against one process's. Prints markdown; $WAVEMESH is the
# CLI, R (3) the runs of each, LEAVES ("65536 524288") the native trees'
# leaves: one of seconds, and the largest that runs in a couple of
# minutes in one process.
set -e
W=${WAVEMESH:-build/wavemesh}
R=${R:-3}
LEAVES=${LEAVES:-65536 524288}
echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="mpirun -q -np 2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
wall() { a=$(now); "$@" >"$tmp/out" 2>&1 || true; b=$(now); echo "$b - $a" | bc -l; }
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
cycles_of() { sed -n 's/^run: \([0-9]*\) cycles$/\1/p' "$tmp/out"; }

# A stream of one-wavelet messages across a 4x1 mesh: next to no work a
# cycle, so what 2 ranks add to a cycle is the exchange and the tally.
stream() { # COUNT
    printf 'mesh 4 1\nregion all\nat a 0 0\nat b 3 0\npe a stream COUNT=%s LEN=1 TOX=3 TOY=0 EXPECT=0\npe b stream COUNT=0 LEN=1 TOX=0 TOY=0 EXPECT=%s\n' \
        "$1" "$1" >"$tmp/stream$1.layout"
}
stream 20000
stream 200000
for n in 20000 200000; do
    for k in $(seq "$R"); do
        wall "$W" run "$tmp/stream$n.layout" --backend sw >>"$tmp/one$n"
        wall $MPI "$W" run "$tmp/stream$n.layout" --backend sw >>"$tmp/two$n"
    done
    eval "cycles_$n=$(cycles_of)"
done
o1=$(median <"$tmp/one20000"); o2=$(median <"$tmp/one200000"); t1=$(median <"$tmp/two20000"); t2=$(median <"$tmp/two200000")
dc=$((cycles_200000 - cycles_20000))
per=$(echo "(($t2 - $t1) - ($o2 - $o1)) / $dc * 1000000" | bc -l)
echo "| a cycle's exchange on this machine | 1 process | 2 ranks |"
echo "|---|---:|---:|"
printf '| 4x1 stream, %s cycles, median wall s | %.2f | %.2f |\n' "$cycles_20000" "$o1" "$t1"
printf '| 4x1 stream, %s cycles, median wall s | %.2f | %.2f |\n' "$cycles_200000" "$o2" "$t2"
printf '| what 2 ranks add to a cycle (slope between the two) | | %.2f µs |\n' "$per"
echo

# The speed-up: a 64x64 mesh of cores on the rtl backend, and a large
# tree natively on the sw backend.
"$W" tree --leaves 2048 --placement packed -o "$tmp/cores.layout" >/dev/null
echo "| run | cycles | 1 process, median wall s | 2 ranks, median wall s | speed-up | peak resident, 1 process | each rank's |"
echo "|---|---:|---:|---:|---:|---:|---|"
pair() { # LABEL ARGS...
    label=$1; shift
    : >"$tmp/a"; : >"$tmp/b"
    for k in $(seq "$R"); do
        wall "$W" "$@" >>"$tmp/a"
        cyc=$(cycles_of)
        wall $MPI "$W" "$@" >>"$tmp/b"
        [ "$(cycles_of)" = "$cyc" ] || { echo "distributed.sh: $label: 2 ranks ran $(cycles_of) cycles, 1 process $cyc" >&2; exit 1; }
    done
    a=$(median <"$tmp/a"); b=$(median <"$tmp/b")
    "$W" "$@" --mem-report >"$tmp/m1" 2>&1 || true
    $MPI "$W" "$@" --mem-report >"$tmp/m2" 2>&1 || true
    p1=$(sed -n 's/.*peak resident \([0-9.]* [KMG]iB\).*/\1/p' "$tmp/m1" | head -1)
    p2=$(sed -n 's/.*peak resident \([0-9.]* [KMG]iB\).*/\1/p' "$tmp/m2" | paste -sd' ' - | sed 's/ \([0-9]\)/, \1/g')
    printf '| %s | %s | %.2f | %.2f | %.2fx | %s | %s |\n' "$label" "$cyc" "$a" "$b" "$(echo "$a / $b" | bc -l)" "$p1" "$p2"
}
pair "packed tree, 2048 leaves, 64x64 cores, rtl" run "$tmp/cores.layout" --backend rtl --pe core
for n in $LEAVES; do
    "$W" tree --leaves "$n" --placement packed -o "$tmp/native.layout" >/dev/null
    pair "packed tree, $n leaves, native, sw" run "$tmp/native.layout" --backend sw
done
# synthetic traffic: its cycles are its warm-up, sample and drain; every
# figure but the cpu line is checked the same on both sides
traffic_pair() { # LABEL ARGS...
    label=$1; shift
    : >"$tmp/a"; : >"$tmp/b"
    for k in $(seq "$R"); do
        wall "$W" "$@" >>"$tmp/a"
        grep -v '^cpu ' "$tmp/out" >"$tmp/one.txt"
        wall $MPI "$W" "$@" >>"$tmp/b"
        grep -v '^cpu ' "$tmp/out" | cmp -s - "$tmp/one.txt" ||
            { echo "distributed.sh: $label: 2 ranks printed other figures than 1 process" >&2; exit 1; }
    done
    a=$(median <"$tmp/a"); b=$(median <"$tmp/b")
    cyc=$(sed -n 's/^cycles \([0-9]*\) .*/\1/p' "$tmp/one.txt")
    printf '| %s | %s | %.2f | %.2f | %.2fx | | |\n' "$label" "$cyc" "$a" "$b" "$(echo "$a / $b" | bc -l)"
}
traffic_pair "uniform traffic, 64x64, rate 0.05, rtl" traffic --backend rtl --mesh 64x64 --rate 0.05 --cycles 1000 --warmup 1000
traffic_pair "firmware traffic, 64x64 cores, rate 0.02, rtl" traffic --backend rtl --pe core --mesh 64x64 --rate 0.02 \
    --cycles 1000
echo
# Memory: the 64x64 mesh of cores on 1 process and on 3 ranks.
"$W" run "$tmp/cores.layout" --backend rtl --pe core --mem-report >"$tmp/m1" 2>&1 || true
mpirun -q -np 3 --oversubscribe "$W" run "$tmp/cores.layout" --backend rtl --pe core --mem-report >"$tmp/m3" 2>&1 || true
p1=$(sed -n 's/.*peak resident \([0-9.]*\) MiB.*/\1/p' "$tmp/m1" | head -1)
echo "| packed tree, 2048 leaves, 64x64 cores, rtl | peak resident MiB | 1 process's / this |"
echo "|---|---:|---:|"
echo "| 1 process | $p1 | 1.00 |"
k=0
sed -n 's/.*peak resident \([0-9.]*\) MiB.*/\1/p' "$tmp/m3" | while read -r p; do
    printf '| rank %d of 3 | %s | %.2f |\n' "$k" "$p" "$(echo "$p1 / $p" | bc -l)"
    k=$((k + 1))
done
