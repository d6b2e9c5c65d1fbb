#!/bin/sh
# check_jitter.sh WAVEMESH [RUNS]: the seed's rows and kernels.md's
# all-reduce pass RUNS schedules
# (default 20) natively on both backends; exercise 1's race on
# sw/collectives/race.rows passes unjittered and is caught under jitter,
# with the command that reproduces it; regress --jitter keeps sw and rtl
# in lockstep.
set -u
wm=$1
runs=${2:-20}
fail=0
for rows in sw/collectives/test.rows sw/collectives/allreduce.rows; do
    out=$("$wm" rows $rows --backend sw --backend rtl --jitter-runs "$runs") ||
        { echo "check-jitter: $rows fail under $runs schedules:"; echo "$out" | grep -v PASS; fail=1; }
done
"$wm" rows sw/collectives/race.rows --backend sw --backend rtl > /dev/null ||
    { echo "check-jitter: race.rows fails unjittered: its placement no longer hides the race"; fail=1; }
if out=$("$wm" rows sw/collectives/race.rows --backend sw --jitter-runs "$runs"); then
    echo "check-jitter: exercise 1's race passes $runs schedules"; fail=1
fi
echo "$out" | grep -q '^collectives : .* FAIL ignore-tag \[ IGNORE_TAG=1 BACKEND=sw JITTER=1 \]$' ||
    { echo "check-jitter: no FAIL line for ignore-tag under JITTER=1:"; echo "$out"; fail=1; }
echo "$out" | grep -qx '  reproduce: wavemesh rows sw/collectives/race.rows --backend sw --pe native --jitter 1' ||
    { echo "check-jitter: no reproducing command:"; echo "$out"; fail=1; }
echo "$out" | grep -q "PASS tagged \[ IGNORE_TAG=0 BACKEND=sw JITTER=$runs \]" && ! echo "$out" | grep -q 'FAIL tagged' ||
    { echo "check-jitter: the tagged row does not pass every schedule:"; echo "$out"; fail=1; }
# Lockstep under jitter: both backends run the same schedule (seed 3: 417 cycles).
out=$("$wm" regress sw/collectives/bench.layout --pe native --jitter 3) &&
    echo "$out" | grep -q '^PASS sw/collectives/bench.layout (native) .* 417 cycles' ||
    { echo "check-jitter: regress --jitter 3 not in lockstep or not 417 cycles:"; echo "$out"; fail=1; }
exit $fail
