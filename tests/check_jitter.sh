#!/bin/sh
# check_jitter.sh WAVEMESH [RUNS [GS_RUNS]]: the seed's rows and kernels.md's
# all-reduce pass RUNS schedules (default 20) on both backends, natively
# and on the cores; exercise 1's race on sw/collectives/race.rows passes
# unjittered and is caught under jitter in both modes, with the command
# that reproduces it; regress --jitter keeps sw and rtl in lockstep in both
# modes; every gs method passes GS_RUNS schedules (default 3) in both
# modes with the unjittered checksum, and a jittered gs_op takes the same
# cycles on both backends.
set -u
wm=$1
runs=${2:-20}
gs_runs=${3:-3}
fail=0
for pe in native core; do
    for rows in sw/collectives/test.rows sw/collectives/allreduce.rows; do
        # every row on both backends under every schedule: a PASS line each
        want=$(( $(grep -c '^row ' $rows) * 2 * runs ))
        out=$("$wm" rows $rows --backend sw --backend rtl --pe $pe --jitter-runs "$runs") &&
            [ "$(echo "$out" | grep -c ' PASS ')" -eq "$want" ] ||
            { echo "check-jitter: $rows fail under $runs schedules (--pe $pe):"; echo "$out" | grep -v PASS; fail=1; }
    done
    "$wm" rows sw/collectives/race.rows --backend sw --backend rtl --pe $pe > /dev/null ||
        { echo "check-jitter: race.rows fails unjittered (--pe $pe): its placement no longer hides the race"; fail=1; }
    if out=$("$wm" rows sw/collectives/race.rows --backend sw --backend rtl --pe $pe --jitter-runs "$runs"); then
        echo "check-jitter: exercise 1's race passes $runs schedules (--pe $pe)"; fail=1
    fi
    tag=""
    [ $pe = core ] && tag=" PE=core"
    for b in sw rtl; do
        echo "$out" | grep -q "^collectives : .* FAIL ignore-tag \[ IGNORE_TAG=1 BACKEND=$b$tag JITTER=1 \]\$" ||
            { echo "check-jitter: no FAIL line for ignore-tag on $b under JITTER=1 (--pe $pe):"; echo "$out"; fail=1; }
        echo "$out" |
            grep -qx "  reproduce: wavemesh rows sw/collectives/race.rows --backend $b --pe $pe --jitter 1" ||
            { echo "check-jitter: no reproducing command for $b (--pe $pe):"; echo "$out"; fail=1; }
        echo "$out" | grep -q "PASS tagged \[ IGNORE_TAG=0 BACKEND=$b$tag JITTER=$runs \]" ||
            { echo "check-jitter: the tagged row does not pass every schedule on $b (--pe $pe):"; echo "$out"; fail=1; }
    done
    echo "$out" | grep -q 'FAIL tagged' &&
        { echo "check-jitter: the tagged row fails a schedule (--pe $pe):"; echo "$out"; fail=1; }
done
# Lockstep under jitter: both backends run the same schedule, natively
# (seed 3: 417 cycles, 299 unjittered) and on the cores, where the host
# holds each core (seed 3: 426 cycles, 310 unjittered).
for want in "native 417" "core 426"; do
    set -- $want
    out=$("$wm" regress sw/collectives/bench.layout --pe $1 --jitter 3) &&
        echo "$out" | grep -q "^PASS sw/collectives/bench.layout ($1) .* $2 cycles" ||
        { echo "check-jitter: regress --pe $1 --jitter 3 not in lockstep or not $2 cycles:"; echo "$out"; fail=1; }
done
# gs: every method, both pairing rules, in both modes, keeps its sums
# under jitter (the checksum of the unjittered run, bit-exact with the
# reference).
for pe in native core; do
    for method in pairwise crystal plan fold auto; do
        for pairing in neko gslib; do
            gs="gs --method $method --pairing $pairing --pe $pe"
            sum=$("$wm" $gs | grep '^checksum: ')
            [ -n "$sum" ] || { echo "check-jitter: $gs fails unjittered"; fail=1; continue; }
            seed=1
            while [ $seed -le "$gs_runs" ]; do
                out=$("$wm" $gs --jitter $seed) && echo "$out" | grep -qx "$sum" &&
                    echo "$out" | grep -qx 'reference: bit-exact' ||
                    { echo "check-jitter: wavemesh $gs --jitter $seed does not keep its sums ($sum):"; echo "$out"; fail=1; }
                seed=$((seed + 1))
            done
        done
    done
done
# ... and a jittered gs_op on the cores takes the same cycles on both
# backends (plan, seed 2: 15515; 15163 unjittered).
for b in sw rtl; do
    "$wm" gs --pe core --backend $b --jitter 2 | grep -qx 'gs_op cycles: 15515' ||
        { echo "check-jitter: gs --pe core --backend $b --jitter 2 does not take 15515 cycles"; fail=1; }
done
exit $fail
