#!/bin/sh
# check_mpi_sigint.sh WAVEMESH [RUNS]: SIGINT to `mpirun -np 3` in the
# middle of a random campaign, RUNS times (default 10): each run must exit
# non-zero without hanging, print the summary so far (with "(interrupted)")
# on standard error, and leave a JUnit file with as many testcases as that
# summary counts. Prints how many runs did; exits 1 if any did not
# (docs/campaigns.md says when that happens). Skipped without mpirun.
W=${1:-build/wavemesh}
RUNS=${2:-10}
command -v mpirun >/dev/null 2>&1 || { echo "check-mpi-sigint: note: no mpirun here: skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
good=0
for run in $(seq "$RUNS"); do
    rm -f "$tmp"/int.*
    # timeout passes the SIGINT on to mpirun
    timeout 120 mpirun -np 3 --oversubscribe "$W" regress --random 5000 --seed 1 --max-side 8 \
        --junit "$tmp/int.xml" >"$tmp/int.txt" 2>"$tmp/int.err" &
    job=$!
    for i in $(seq 100); do
        sleep 0.1
        grep -q '^PASS' "$tmp/int.txt" && break
    done
    kill -INT $job
    wait $job; status=$?
    why=
    ran=$(grep -E '^random: [0-9]+ scenarios .*\(interrupted\)' "$tmp/int.err" | sed -E 's/^random: ([0-9]+) .*/\1/')
    if [ "$status" -eq 0 ]; then why="exited 0"
    elif [ "$status" -eq 124 ]; then why="hung"
    elif [ -z "$ran" ]; then why="no summary so far"
    elif [ ! -f "$tmp/int.xml" ]; then why="no JUnit file"
    else
        n=$(python3 -c "import sys, xml.etree.ElementTree as E; print(len(E.parse(sys.argv[1]).getroot().findall('.//testcase')))" "$tmp/int.xml" 2>/dev/null)
        [ "$n" = "$ran" ] || why="$n testcases in the JUnit file, the summary says $ran scenarios"
    fi
    if [ -z "$why" ]; then good=$((good + 1)); else echo "check-mpi-sigint: run $run: $why"; fi
done
echo "check-mpi-sigint: $good of $RUNS runs stopped by SIGINT ended with the summary so far and their JUnit file"
[ "$good" = "$RUNS" ]
