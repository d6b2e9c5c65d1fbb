#!/bin/sh
# waves.sh: the cost of tracing. Speed (router-cycles per CPU second, as
# `wavemesh traffic` reports it) and dump size per million router-cycles for
# no dump, a full FST, a full VCD and a 3x3-tile FST, on a 32x32 mesh of
# uniform random traffic, both backends. Prints markdown; $WAVEMESH is the CLI.
set -e
echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) when this started."
echo
W=${WAVEMESH:-build/wavemesh}
MESH=${MESH:-32x32}
ARGS="--mesh $MESH --pattern uniform --rate 0.1 --len 4 --warmup 200 --cycles 500 --seed 1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "Tracing cost, \`wavemesh traffic $ARGS --csv\` plus the dump options below:"
echo
echo "| backend | dump | options | router-cycles/s | dump bytes | bytes per M router-cycles |"
echo "|---|---|---|---:|---:|---:|"
for b in rtl sw; do
    for kind in none fst vcd scoped; do
        case $kind in
            none)   opt="" ; file="" ;;
            fst)    file="$tmp/full.fst"; opt="--trace $file" ;;
            vcd)    file="$tmp/full.vcd"; opt="--trace $file" ;;
            scoped) file="$tmp/corner.fst"; opt="--trace $file --trace-tiles 0,0:2,2" ;;
        esac
        row=$("$W" traffic --backend $b $ARGS --csv $opt | tail -1)
        awk -F, -v b=$b -v k=$kind -v opt="$opt" -v f="$file" -v tmp="$tmp" 'BEGIN { OFS = "" }
            { split($2, m, "x"); rc = m[1] * m[2] * $9; speed = $NF
              size = 0
              if (f != "") { cmd = "wc -c < " f; cmd | getline size; close(cmd) }
              gsub(tmp "/", "", opt)
              printf "| %s | %s | `%s` | %.3g | %d | %s |\n", b, k, opt, speed, size, f == "" ? "-" : sprintf("%.0f", size / rc * 1e6) }' <<ROW
$row
ROW
        [ -n "$file" ] && rm -f "$file" "${file%.*}".gtkw "${file%.*}"-*.txt
    done
done
