#!/bin/sh
# sw.sh: simulation speed of the sw and rtl backends under synthetic
# traffic, and the latency / throughput curves of the router. Prints
# markdown; $WAVEMESH is the CLI. Speed is router-cycles per second: per
# CPU second on one thread; per wall second where the sw backend may use
# two threads (a thread waiting for the other spins, and CPU time would
# count that twice).
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

# The best of three sw runs in router-cycles per second: "cpu" is the
# CLI's own figure (router_cycles_per_s), "wall" the same per wall second
# (wall_s, printed to 0.1 ms: runs under 10 ms, too short for that, keep the
# CPU figure; they are small or idle meshes, on one thread anyway).
# WM_SW_THREADS as the caller sets it.
best_sw() {
    clock=$1
    shift
    for k in 1 2 3; do run --backend sw "$@"; done |
        awk -F, -v clock="$clock" -v cm=$C_MESH -v cs=$C_SPEED -v cw=$C_WALL -v cc=$C_CYCLES '{
                                     split($cm, m, "x"); v = $cs;
                                     if (clock == "wall" && $cw >= 0.01) v = m[1] * m[2] * $cc / $cw;
                                     if (v > best) best = v }
                                   END { printf "%.0f\n", best }'
}

SPEED_RUN="--warmup 1000 --cycles 2000 --drain 0 --len 4 --pattern uniform --seed 1"
echo "Speed: \`wavemesh traffic --backend B --mesh M --rate R $SPEED_RUN\`"
echo "(3000 cycles; rate 0 is the idle mesh), M router-cycles/s. sw, one thread: \`WM_SW_THREADS=1\`,"
echo "per CPU second; sw, automatic: the default (two threads for steps that evaluate more than 256"
echo "tiles, while they are the faster way), per wall second; both the best of 3 runs. rtl: one run,"
echo "per CPU second."
echo
echo "| mesh | rate | sw, one thread | sw, automatic | rtl | sw / rtl | accepted |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for mesh in 8x8 16x16 32x32 64x64; do
    for rate in 0 0.02 0.1; do
        one=$(WM_SW_THREADS=1 best_sw cpu --mesh $mesh --rate $rate $SPEED_RUN)
        auto=$(WM_SW_THREADS=0 best_sw wall --mesh $mesh --rate $rate $SPEED_RUN)
        rtl=$(run --backend rtl --mesh $mesh --rate $rate $SPEED_RUN)
        awk -v m=$mesh -v r=$rate -v o="$one" -v a="$auto" -v t="$(col "$rtl" $C_SPEED)" -v acc="$(col "$rtl" $C_ACC)" \
            'BEGIN { b = o > a ? o : a;
                     printf "| %s | %s | %.1f | %.1f | %.2f | %.0f | %s |\n", m, r, o / 1e6, a / 1e6, t / 1e6, b / t, acc }'
    done
done
echo
for mesh in 128x128 256x256; do
    for rate in 0 0.02; do
        one=$(WM_SW_THREADS=1 best_sw cpu --mesh $mesh --rate $rate $SPEED_RUN)
        auto=$(WM_SW_THREADS=0 best_sw wall --mesh $mesh --rate $rate $SPEED_RUN)
        awk -v m=$mesh -v r=$rate -v o="$one" -v a="$auto" \
            'BEGIN { printf "sw only, %s, rate %s: %.1f M router-cycles/s on one thread, %.1f M automatic\n", m, r, o / 1e6, a / 1e6 }'
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
