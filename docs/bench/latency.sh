#!/bin/sh
# Latency against accepted throughput: `wavemesh traffic --csv` swept over
# the offered rate for two patterns on an 8x8 mesh (sw backend, len 4),
# the average and the 99th percentile of the latency drawn by gnuplot into
# docs/img/latency-throughput.png, the table printed as markdown.
# Run by `make bench`; $WAVEMESH is the built command line.
set -eu
echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
WAVEMESH=${WAVEMESH:-build/wavemesh}
OUT=${LATENCY_PNG:-docs/img/latency-throughput.png}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "### Latency against throughput, 8x8, len 4, sw backend"
echo
echo "\`$WAVEMESH traffic --backend sw --mesh 8x8 --pattern P --rate R --len 4 --cycles 4000 --csv\`,"
echo "latency in cycles (average, then nearest-rank percentiles); a saturated run has none."
echo
echo "| pattern | offered | accepted | avg | p50 | p90 | p99 | max |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for pattern in uniform transpose; do
    for rate in 0.02 0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5; do
        "$WAVEMESH" traffic --backend sw --mesh 8x8 --pattern $pattern --rate $rate --len 4 --cycles 4000 --csv \
            | tail -1 > "$tmp/row"
        # avg_latency is field 12, the percentiles 13..16, offered 17, accepted 18, saturated 19
        IFS=, read -r _ _ _ _ _ _ _ _ _ _ _ avg p50 p90 p99 max offered accepted saturated _ < "$tmp/row"
        [ "$saturated" = no ] || avg="saturated"
        echo "| $pattern | $offered | $accepted | $avg | $p50 | $p90 | $p99 | $max |"
        [ "$saturated" = no ] && echo "$accepted $avg $p99" >> "$tmp/$pattern.dat"
    done
done
echo
gnuplot <<GP
set terminal pngcairo size 800,500 font 'sans,10'
set output '$tmp/plot.png'
set title 'Latency against accepted throughput: 8x8 mesh, messages of 4 wavelets, sw backend'
set xlabel 'accepted throughput (wavelets per node per cycle)'
set ylabel 'latency (cycles)'
set logscale y
set key top left
set grid
plot '$tmp/uniform.dat' using 1:2 with linespoints title 'uniform, average', \
     '$tmp/uniform.dat' using 1:3 with linespoints dashtype 2 title 'uniform, p99', \
     '$tmp/transpose.dat' using 1:2 with linespoints title 'transpose, average', \
     '$tmp/transpose.dat' using 1:3 with linespoints dashtype 2 title 'transpose, p99'
GP
mv "$tmp/plot.png" "$OUT"
echo "The curves: $OUT"
