#!/bin/sh
# Fabric RTL: the cost of building the tile model, from clean, and the
# speed of the rtl backend under uniform random traffic.
# Run by `make bench`; $WAVEMESH is the built command line.
set -eu
echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
WAVEMESH=${WAVEMESH:-build/wavemesh}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

start=$(date +%s.%N)
make --no-print-directory -s BUILD="$tmp" "$tmp/vtile/Vwm_tile__ALL.a" >/dev/null
end=$(date +%s.%N)
echo "### Tile model build from clean"
echo
echo "\`make BUILD=\$(mktemp -d) \$BUILD/vtile/Vwm_tile__ALL.a\` (Verilate wm_tile, compile its C++ at -O2):"
echo
printf '| what | seconds |\n|---|---:|\n| Verilate + compile Vwm_tile | %.1f |\n' "$(echo "$end - $start" | bc)"
echo

echo "### rtl backend speed, uniform random traffic"
echo
echo "| mesh | rate | router-cycles/s | command |"
echo "|---|---:|---:|---|"
for mesh in 8x8 16x16 32x32 64x64; do
    for rate in 0.02 0.1; do
        cmd="$WAVEMESH traffic --backend rtl --mesh $mesh --pattern uniform --rate $rate --len 4 --warmup 500 --cycles 2000 --drain 500"
        speed=$($cmd | sed -n 's/.*, \([0-9.]* M\) router-cycles\/s.*/\1/p')
        echo "| $mesh | $rate | $speed | \`${cmd#$WAVEMESH }\` |"
    done
done
