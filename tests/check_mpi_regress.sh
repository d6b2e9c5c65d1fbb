#!/bin/sh
# check_mpi_regress.sh WAVEMESH: regress campaigns on MPI ranks, as JUnit
# XML and as shards give the same lines and summary as one process
# (timing fields aside), and a rank killed mid-campaign is reported.
# SIGINT to mpirun: tests/check_mpi_sigint.sh.
# Skipped, with a note, where mpirun is not installed.
W=${1:-build/wavemesh}
command -v mpirun >/dev/null 2>&1 || { echo "check-mpi-regress: note: no mpirun here: skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-mpi-regress: $*"; exit 1; }
# Open MPI refuses root without its opt-in; 3 ranks on fewer cores need --oversubscribe
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout 120 mpirun -np 3 --oversubscribe"
untimed() { sed 's/; [0-9.]* s with .*//' "$1"; }
junit_count() { # FILE: "testcases failures"
    python3 -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); \
print(len(r.findall('.//testcase')), len(r.findall('.//failure')))" "$1" || fail "$1 does not parse as XML"
}
# summary's failed count: "N passed, M failed" anywhere on the summary line
failed_of() { grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | head -1 | sed -E 's/.* ([0-9]+) failed.*/\1/'; }
same() { # NAME ARGS...: one process against 3 ranks, JUnit of each
    name=$1; shift
    "$W" regress "$@" --junit "$tmp/$name-1.xml" >"$tmp/$name-1.txt" 2>"$tmp/$name-1.err"; s1=$?
    $MPI "$W" regress "$@" --junit "$tmp/$name-3.xml" >"$tmp/$name-3.txt" 2>"$tmp/$name-3.err"; s3=$?
    [ "$s1" -le 1 ] || { cat "$tmp/$name-1.err"; fail "$name: one process exited $s1"; }
    [ "$s3" = "$s1" ] || { cat "$tmp/$name-3.err"; fail "$name: 3 ranks exited $s3, one process $s1"; }
    untimed "$tmp/$name-1.txt" >"$tmp/$name-1.u"
    untimed "$tmp/$name-3.txt" >"$tmp/$name-3.u"
    cmp -s "$tmp/$name-1.u" "$tmp/$name-3.u" ||
        { diff "$tmp/$name-1.u" "$tmp/$name-3.u" | head; fail "$name: 3 ranks' lines differ from one process's"; }
    lines=$(grep -cE '^(PASS|FAIL) ' "$tmp/$name-1.txt")
    for n in 1 3; do
        set -- $(junit_count "$tmp/$name-$n.xml")
        [ "$1" = "$lines" ] || fail "$name: $1 testcases in the JUnit file of $n rank(s), $lines scenario lines"
        [ "$2" = "$(failed_of "$tmp/$name-1.txt")" ] ||
            fail "$name: $2 failures in the JUnit file of $n rank(s), the summary says $(failed_of "$tmp/$name-1.txt")"
    done
}
RND="--random 24 --seed 3 --max-side 6 --max-core-side 3"
same random $RND
same quick --quick
# a planted bug: the same failures, once each, each command failing alone
same perturb --random 12 --seed 5 --max-side 4 --max-core-side 3 --perturb rr-reverse:0,0 --shrink-runs 20
[ "$(failed_of "$tmp/perturb-3.txt")" -ge 1 ] || fail "perturb: the planted bug was not found"
dups=$(grep '^FAIL ' "$tmp/perturb-3.txt" | cut -d' ' -f2 | sort | uniq -d)
[ -z "$dups" ] || fail "perturb: reported more than once: $dups"
grep '^  reproduce: ' "$tmp/perturb-3.txt" | sed 's/^  reproduce: //' | while read -r cmd; do
    sh -c "$cmd" >/dev/null 2>&1 && { echo "$cmd"; exit 1; }
    true
done || fail "perturb: a reproducer's command passes alone"
# 3 shards merged: the unsharded run's lines and summary
for k in 1 2 3; do "$W" regress $RND --shard $k/3 --junit "$tmp/shard$k.xml" >/dev/null 2>&1; done
"$W" regress --merge "$tmp/shard1.xml" "$tmp/shard2.xml" "$tmp/shard3.xml" >"$tmp/merged.txt" ||
    fail "--merge exited $?"
untimed "$tmp/merged.txt" | cmp -s - "$tmp/random-1.u" ||
    { untimed "$tmp/merged.txt" | diff - "$tmp/random-1.u" | head; fail "3 merged shards differ from the unsharded run"; }
# under a launcher without the plugin: said, and a non-zero exit
OMPI_COMM_WORLD_SIZE=2 WAVEMESH_MPI_PLUGIN="$tmp/none.so" "$W" regress --random 1 >/dev/null 2>"$tmp/noplugin.err" &&
    fail "a launcher without the plugin ran"
grep -q "started by an MPI launcher, but its plugin does not load" "$tmp/noplugin.err" ||
    { cat "$tmp/noplugin.err"; fail "no word on the missing plugin"; }
# rank 2 killed mid-campaign: its scenario reported lost, a non-zero exit, no hang
$MPI "$W" regress --random 400 --seed 1 --max-side 8 >"$tmp/kill.txt" 2>"$tmp/kill.err" &
job=$!
victim=
for i in $(seq 100); do
    sleep 0.1
    for p in $(pgrep -f "$W regress --random 400"); do
        tr '\0' '\n' 2>/dev/null <"/proc/$p/environ" | grep -qx OMPI_COMM_WORLD_RANK=2 || continue
        pp=$(ps -o ppid= "$p" | tr -d ' ')
        tr '\0' '\n' 2>/dev/null <"/proc/$pp/environ" | grep -qx OMPI_COMM_WORLD_RANK=2 && continue
        victim=$p
    done
    [ -n "$victim" ] && grep -q '^PASS' "$tmp/kill.txt" && break
done
[ -n "$victim" ] || fail "no rank 2 to kill"
kill -9 "$victim"
wait $job; status=$?
[ "$status" -ne 0 ] || fail "a killed rank: the campaign exited 0"
[ "$status" -ne 124 ] || fail "a killed rank: the campaign hung"
# Open MPI tears the job down around the dead rank: it stops reading the
# ranks' output, and kills them 2 s later; rank 0's failures go to
# standard error then too (docs/campaigns.md)
cat "$tmp/kill.txt" "$tmp/kill.err" | grep -q 'lost with rank 2' ||
    { tail "$tmp/kill.txt" "$tmp/kill.err"; fail "the killed rank's scenario is not reported"; }
echo "check-mpi-regress: 3 ranks = 1 process (random, --quick, --perturb), JUnit counts, 3 shards merged, a killed rank reported"
