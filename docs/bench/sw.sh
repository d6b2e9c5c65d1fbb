#!/bin/sh
# sw.sh: simulation speed of the sw and rtl backends under synthetic
# traffic, and the latency / throughput curves of the router. Prints
# markdown; $WAVEMESH is the CLI. Speed is router-cycles per CPU second.
set -e
W=${WAVEMESH:-build/wavemesh}

# One run as CSV; the row without its header.
run() {
    "$W" traffic --csv "$@" | tail -n 1
}

# Column n of a CSV row.
col() {
    echo "$1" | cut -d, -f"$2"
}

SPEED_RUN="--warmup 1000 --cycles 2000 --drain 0 --len 4 --pattern uniform --seed 1"
echo "Speed: \`wavemesh traffic --backend B --mesh M --rate R $SPEED_RUN\`"
echo "(3000 cycles; rate 0 is the idle mesh). M router-cycles per CPU second:"
echo
echo "| mesh | rate | sw | rtl | sw / rtl | accepted |"
echo "|---|---:|---:|---:|---:|---:|"
for mesh in 8x8 16x16 32x32 64x64; do
    for rate in 0 0.02 0.1; do
        sw=$(run --backend sw --mesh $mesh --rate $rate $SPEED_RUN)
        rtl=$(run --backend rtl --mesh $mesh --rate $rate $SPEED_RUN)
        awk -v m=$mesh -v r=$rate -v s="$(col "$sw" 18)" -v t="$(col "$rtl" 18)" -v a="$(col "$sw" 14)" \
            'BEGIN { printf "| %s | %s | %.1f | %.2f | %.0f | %s |\n", m, r, s / 1e6, t / 1e6, s / t, a }'
    done
done
echo
for mesh in 128x128 256x256; do
    for rate in 0 0.02; do
        sw=$(run --backend sw --mesh $mesh --rate $rate $SPEED_RUN)
        awk -v m=$mesh -v r=$rate -v s="$(col "$sw" 18)" \
            'BEGIN { printf "sw only, %s, rate %s: %.1f M router-cycles/s\n", m, r, s / 1e6 }'
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
        lat=$(col "$r" 12)
        [ "$(col "$r" 15)" = yes ] && lat="saturated"
        echo "| $mesh | $rate | $lat | $(col "$r" 14) |"
    done
done
