#!/bin/sh
# mpi.sh: what campaigns on MPI cost and give. The start-up of
# `wavemesh --help` (the binary links no MPI: the plugin is loaded only
# under a launcher), and one random campaign (N scenarios, default 2000)
# run with --jobs 1 and 2, on 1 rank and on 2 ranks (mpirun -np R, Open
# MPI's root opt-in set). Prints markdown; $WAVEMESH is the CLI.
set -e
echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
W=${WAVEMESH:-build/wavemesh}
N=${N:-2000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
now() { date +%s.%N; }
# the median of 21 runs of `wavemesh --help`, in milliseconds
startup() {
    for i in $(seq 21); do
        a=$(now); "$1" --help >/dev/null; b=$(now)
        echo "($b - $a) * 1000" | bc -l
    done | sort -n | sed -n 11p | xargs printf '%.1f'
}
echo "| binary | \`wavemesh --help\`, median of 21 runs (ms) |"
echo "|---|---:|"
echo "| $W | $(startup "$W") |"
[ -z "$BASELINE" ] || echo "| $BASELINE (before the MPI transport) | $(startup "$BASELINE") |"
echo
ARGS="regress --random $N --seed 1"
# wall seconds of one campaign, and its summary's scenarios per minute
campaign() {
    a=$(now); "$@" >/tmp/wm-mpi-bench.$$ 2>&1 || true; b=$(now)
    w=$(echo "$b - $a" | bc -l)
    r=$(echo "$N * 60 / $w" | bc -l)
    printf '%.1f | %.0f' "$w" "$r"
}
j1=$(campaign "$W" $ARGS --jobs 1)
j2=$(campaign "$W" $ARGS --jobs 2)
r1=$(campaign mpirun -np 1 "$W" $ARGS)
r2=$(campaign mpirun -np 2 "$W" $ARGS)
rm -f /tmp/wm-mpi-bench.$$
w1=${r1%% |*}
w2=${r2%% |*}
echo "| \`$ARGS\` ($N scenarios) | wall s | scenarios/min | 1 rank's wall / this wall |"
echo "|---|---:|---:|---:|"
echo "| --jobs 1 | $j1 | $(echo "$w1 / ${j1%% |*}" | bc -l | xargs printf '%.2f') |"
echo "| --jobs 2 | $j2 | $(echo "$w1 / ${j2%% |*}" | bc -l | xargs printf '%.2f') |"
echo "| mpirun -np 1 | $r1 | 1.00 |"
echo "| mpirun -np 2 | $r2 | $(echo "$w1 / $w2" | bc -l | xargs printf '%.2f') |"
