#!/bin/sh
# sw.sh: simulation speed of the sw and rtl backends under synthetic
# traffic, and the latency / throughput curves of the router. Prints
# markdown; $WAVEMESH is the CLI. Speed is router-cycles per second: per
# CPU second and per wall second on one thread; per wall second only where
# the sw backend may use two threads (a thread waiting for the other spins,
# and CPU time would count that twice). Wall figures measure the machine's
# load as much as the model, hence one thread's beside the automatic mode's.
set -e
echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
W=${WAVEMESH:-build/wavemesh}

# One run as CSV; the row without its header.
run() {
    "$W" traffic --csv "$@" | tail -n 1
}

# Column n of a CSV row.
col() {
    echo "$1" | cut -d, -f"$2"
}

# The CSV's columns by name, from its header.
HEADER=$("$W" traffic --csv --backend sw --mesh 1x1 --rate 0 --cycles 1 | head -n 1)
colnum() {
    echo "$HEADER" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1
}
C_MESH=$(colnum mesh)
C_CYCLES=$(colnum cycles)
C_LAT=$(colnum avg_latency)
C_ACC=$(colnum accepted)
C_SAT=$(colnum saturated)
C_WALL=$(colnum wall_s)
C_SPEED=$(colnum router_cycles_per_s)

# The best of three sw runs, in router-cycles per second, as "cpu wall":
# cpu is the CLI's own figure (router_cycles_per_s, per CPU second), wall
# the same per wall second (wall_s, printed to 0.1 ms: runs under 10 ms,
# too short for that, keep the CPU figure; they are small or idle meshes,
# on one thread anyway). WM_SW_THREADS as the caller sets it.
best_sw() {
    for k in 1 2 3; do run --backend sw "$@"; done |
        awk -F, -v cm=$C_MESH -v cs=$C_SPEED -v cw=$C_WALL -v cc=$C_CYCLES '{
                                     split($cm, m, "x"); c = $cs; w = c;
                                     if ($cw >= 0.01) w = m[1] * m[2] * $cc / $cw;
                                     if (c > bc) bc = c; if (w > bw) bw = w }
                                   END { printf "%.0f %.0f\n", bc, bw }'
}

SPEED_RUN="--warmup 1000 --cycles 2000 --drain 0 --len 4 --pattern uniform --seed 1"
echo "Speed: \`wavemesh traffic --backend B --mesh M --rate R $SPEED_RUN\`"
echo "(3000 cycles; rate 0 is the idle mesh), M router-cycles/s, sw the best of 3 runs, rtl one run."
echo "sw one thread: \`WM_SW_THREADS=1\`, per CPU second and per wall second; sw automatic: the default"
echo "(two threads for steps that evaluate more than 256 tiles, while they are the faster way), per wall"
echo "second only, since a thread waiting for the other spins and CPU time would count that twice. Wall"
echo "figures follow the load of the machine line; sw / rtl compares CPU figures."
echo
echo "| mesh | rate | sw, one thread, CPU | sw, one thread, wall | sw, automatic, wall | rtl, CPU | sw / rtl | accepted |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for mesh in 8x8 16x16 32x32 64x64; do
    for rate in 0 0.02 0.1; do
        one=$(WM_SW_THREADS=1 best_sw --mesh $mesh --rate $rate $SPEED_RUN)
        auto=$(WM_SW_THREADS=0 best_sw --mesh $mesh --rate $rate $SPEED_RUN)
        rtl=$(run --backend rtl --mesh $mesh --rate $rate $SPEED_RUN)
        echo "$one $auto" |
            awk -v m=$mesh -v r=$rate -v t="$(col "$rtl" $C_SPEED)" -v acc="$(col "$rtl" $C_ACC)" \
                '{ printf "| %s | %s | %.1f | %.1f | %.1f | %.2f | %.0f | %s |\n", m, r, $1 / 1e6, $2 / 1e6, $4 / 1e6, t / 1e6, $1 / t, acc }'
    done
done
echo
for mesh in 128x128 256x256; do
    for rate in 0 0.02; do
        one=$(WM_SW_THREADS=1 best_sw --mesh $mesh --rate $rate $SPEED_RUN)
        auto=$(WM_SW_THREADS=0 best_sw --mesh $mesh --rate $rate $SPEED_RUN)
        echo "$one $auto" | awk -v m=$mesh -v r=$rate \
            '{ printf "sw only, %s, rate %s: %.1f M router-cycles/s on one thread per CPU second, %.1f M per wall second; %.1f M automatic, per wall second\n", m, r, $1 / 1e6, $2 / 1e6, $4 / 1e6 }'
    done
done
echo

CURVE_RUN="--warmup 3000 --cycles 1000 --drain 10000 --len 4 --pattern uniform --seed 1"
echo "Latency and throughput: \`wavemesh traffic --backend sw --mesh M --rate R $CURVE_RUN\`"
echo "(BookSim's warm-up of 3 sample periods of 1000 cycles; identical on the rtl backend):"
echo
echo "| mesh | offered | avg latency | accepted |"
echo "|---|---:|---:|---:|"
for mesh in 8x8 16x16; do
    if [ $mesh = 8x8 ]; then rates="0.02 0.1 0.2 0.25 0.3 0.35 0.4"; else rates="0.02 0.05 0.1 0.12 0.14 0.16 0.18"; fi
    for rate in $rates; do
        r=$(run --backend sw --mesh $mesh --rate $rate $CURVE_RUN)
        lat=$(col "$r" $C_LAT)
        [ "$(col "$r" $C_SAT)" = yes ] && lat="saturated"
        echo "| $mesh | $rate | $lat | $(col "$r" $C_ACC) |"
    done
done
