#!/bin/sh
# check_regress_ledger.sh WAVEMESH: a campaign's ledger without MPI
# (tests/check_mpi_ledger.sh has it on MPI). `regress --merge` joins only
# the shards of one campaign and counts from the testcases themselves; the
# options that would be ignored are refused; --indices runs exactly what a
# summary lists; --max-side bounds the cores' scenarios too; a forked
# process of --jobs killed or terminated leaves every scenario accounted
# for (tests/check_ledger.py).
W=${1:-build/wavemesh}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-regress-ledger: $*"; exit 1; }
RND="--random 8 --seed 5 --max-side 4 --max-core-side 2 --shrink-runs 4"
shard() { # NAME K ARGS...: shard K/2 of the campaign, its JUnit file NAME-K.xml
    name=$1 k=$2
    shift 2
    "$W" regress $RND "$@" --shard "$k/2" --junit "$tmp/$name-$k.xml" >/dev/null 2>&1
    [ -f "$tmp/$name-$k.xml" ] || fail "$name: shard $k/2 wrote no JUnit file"
}
refused() { # WHAT MESSAGE ARGS...: exit 2 and MESSAGE on standard error
    what=$1 msg=$2
    shift 2
    "$W" regress "$@" >"$tmp/out" 2>"$tmp/err"
    status=$?
    [ "$status" = 2 ] || { cat "$tmp/out" "$tmp/err" | tail -5; fail "$what: exit $status, not 2"; }
    grep -qF -- "$msg" "$tmp/err" || { cat "$tmp/err"; fail "$what: no '$msg'"; }
}
shard plain 1
shard plain 2
shard perturbed 2 --perturb rr-reverse:0,0
shard got 2 --got rtl
shard side 2 --max-side 3
"$W" regress --merge "$tmp/plain-1.xml" "$tmp/plain-2.xml" >"$tmp/merged.txt" || fail "two shards of one campaign: exit $?"
grep -q '^random: 8 scenarios (seed 5, scenarios 0..7): 8 passed, 0 failed;' "$tmp/merged.txt" ||
    { tail -3 "$tmp/merged.txt"; fail "two shards of one campaign: not the campaign's summary"; }
# shards of different campaigns: both files and the option named
refused "--perturb in one shard" "$tmp/plain-1.xml and $tmp/perturbed-2.xml are shards of different campaigns: --perturb is none in the one, rr-reverse:0,0 in the other" \
    --merge "$tmp/plain-1.xml" "$tmp/perturbed-2.xml"
refused "--got in one shard" "$tmp/plain-1.xml and $tmp/got-2.xml are shards of different campaigns: --got is sw in the one, rtl in the other" \
    --merge "$tmp/plain-1.xml" "$tmp/got-2.xml"
refused "--max-side in one shard" "are shards of different campaigns: --max-side is 4 in the one, 3 in the other" \
    --merge "$tmp/plain-1.xml" "$tmp/side-2.xml"
# a PASS edited into a FAIL in a case's lines: the case contradicts itself
sed '0,/<system-out>PASS /s//<system-out>FAIL /' "$tmp/plain-2.xml" >"$tmp/edited-2.xml"
refused "a PASS edited into a FAIL" "$tmp/edited-2.xml: testcase random-5-1 is inconsistent: its elements say passed, its lines failed" \
    --merge "$tmp/plain-1.xml" "$tmp/edited-2.xml"
# failures stripped of their <failure> elements: the same
shard bad 1 --perturb rr-reverse:0,0
shard bad 2 --perturb rr-reverse:0,0
grep -q '<failure ' "$tmp/bad-1.xml" "$tmp/bad-2.xml" || fail "the planted bug failed no scenario"
python3 - "$tmp/bad-1.xml" "$tmp/bad-2.xml" <<'EOF' || fail "could not strip the failures"
import re, sys
for f in sys.argv[1:]:
    t = open(f).read()
    open(f.replace("bad-", "stripped-"), "w").write(re.sub(r"\s*<failure .*?</failure>", "", t, flags=re.S))
EOF
refused "stripped <failure> elements" "is inconsistent: its elements say passed, its lines failed" \
    --merge "$tmp/stripped-1.xml" "$tmp/stripped-2.xml"
# the counts are the cases': a FAIL line for every failure counted
"$W" regress --merge "$tmp/bad-1.xml" "$tmp/bad-2.xml" >"$tmp/bad.txt"
[ $? = 1 ] || fail "merged failures: exit not 1"
n=$(grep -c '^FAIL random-5-' "$tmp/bad.txt")
grep -q "^random: 8 scenarios (seed 5, scenarios 0..7): $((8 - n)) passed, $n failed;" "$tmp/bad.txt" ||
    { grep '^random: 8' "$tmp/bad.txt"; fail "merged failures: $n FAIL lines, the summary counts otherwise"; }
# options that would be ignored
refused "--merge --junit" "wavemesh regress: --merge prints the merged campaign on standard output; it takes no --junit" \
    --merge "$tmp/plain-1.xml" "$tmp/plain-2.xml" --junit "$tmp/j.xml"
[ ! -e "$tmp/j.xml" ] || fail "--merge --junit wrote a file"
refused "--log without --random" "wavemesh regress: --log takes the lines of a --random or --indices campaign" \
    --quick --log "$tmp/l.log"
[ ! -e "$tmp/l.log" ] || fail "--log without --random wrote a file"
refused "--max-core-side above --max-side" "wavemesh regress: --max-core-side 6 is above --max-side 4: 1..4" \
    --random 2 --max-side 4 --max-core-side 6
# --max-side alone bounds the cores' meshes too
"$W" regress --random 6 --seed 3 --max-side 3 --pe core >"$tmp/core.txt" || fail "--pe core --max-side 3: exit $?"
big=$(grep -E '^(PASS|FAIL) ' "$tmp/core.txt" | awk '{ split($3, m, "x"); if (m[1] > 3 || m[2] > 3) print $2, $3 }')
[ -z "$big" ] || fail "--max-side 3 ran cores' meshes larger: $big"
# --indices: exactly the scenarios listed, named as in the campaign
"$W" regress --indices 2,5-7 --seed 5 --max-side 4 --max-core-side 2 >"$tmp/ind.txt" || fail "--indices: exit $?"
[ "$(grep -E '^(PASS|FAIL) ' "$tmp/ind.txt" | cut -d' ' -f2 | tr '\n' ' ')" = "random-5-2 random-5-5 random-5-6 random-5-7 " ] ||
    { cat "$tmp/ind.txt"; fail "--indices 2,5-7 did not run scenarios 2, 5, 6 and 7"; }
for i in 2 5 6 7; do
    grep "^PASS random-5-$i " "$tmp/merged.txt" | cut -d'|' -f2 >"$tmp/a"
    grep "^PASS random-5-$i " "$tmp/ind.txt" | cut -d'|' -f2 >"$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "--indices: scenario $i is not the campaign's"
done
# a forked process of --jobs 2 killed (its scenario lost, the campaign
# goes on) or terminated (the campaign stops): every scenario once, in the
# lines, the summary and the JUnit file
for sig in KILL TERM; do
    "$W" regress --random 400 --seed 9 --max-side 8 --max-core-side 3 --jobs 2 --junit "$tmp/jobs-$sig.xml" \
        >"$tmp/jobs-$sig.txt" 2>"$tmp/jobs-$sig.err" &
    job=$!
    worker=
    for i in $(seq 100); do
        sleep 0.05
        worker=$(pgrep -P $job | head -1)
        [ -n "$worker" ] && grep -q '^PASS' "$tmp/jobs-$sig.txt" && break
    done
    [ -n "$worker" ] || fail "--jobs 2: no forked process to signal"
    kill -$sig "$worker"
    wait $job
    [ $? = 1 ] || fail "--jobs 2, a process given SIG$sig: exit not 1"
    python3 tests/check_ledger.py "$tmp/jobs-$sig.txt" "$tmp/jobs-$sig.err" "$tmp/jobs-$sig.xml" 9 400 whole >/dev/null ||
        fail "--jobs 2, a process given SIG$sig: the ledger above"
done
echo "check-regress-ledger: shards of different campaigns refused (--perturb, --got, --max-side), self-contradicting cases refused, counts from the cases, ignored options refused, --indices and --max-side hold, a forked process of --jobs killed or terminated: every scenario once"
