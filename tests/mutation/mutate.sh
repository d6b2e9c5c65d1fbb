#!/bin/sh
# mutate.sh: the mutation score of the RTL (make mutate; docs/verification.md,
# "Mutation").
#
#   sh tests/mutation/mutate.sh [--checks LIST] [--only NAMES] [--list] [OUT]
#
# Each mutant of tests/mutation/mutants (one realistic bug in one file of
# rtl/) is applied alone to a scratch copy of the tree, OUT/tree (default
# OUT: build/mutate), never to the tree itself; the copy keeps its own
# build/, seeded from this tree's build/ so that a mutant rebuilds only what
# depends on the RTL. The checks run in this order, and the first that
# fails kills the mutant:
#   lint     make lint (verilator -Wall at every depth set, iverilog)
#   test     make all and test-depths, then every test binary in turn
#   regress  wavemesh regress --quick, then, where wavemesh has it,
#            wavemesh regress --random $MUTATE_RANDOM (default 200) --seed 1
#   formal   rtl/formal/run.sh --stop: the jobs of make formal that read
#            the mutated file (of those, only the ones named in
#            $MUTATE_FORMAL_JOBS if it is set); none for a file that no
#            harness reads
# A mutant no check kills has survived; one in a file that none of the
# checks run reads (a core file with --checks formal) is "not checked",
# and left out of the score. One progress line a mutant, then
# the table (mutant, bug, first check that killed it, or "survived") and
# the score, also written to OUT/table.md; each check's log is
# OUT/logs/MUTANT.CHECK.log.
#   --checks LIST  a comma-separated subset of lint,test,regress,formal (in
#                  that order whatever LIST's)
#   --only NAMES   only these mutants (comma-separated)
#   --list         print the mutants and stop
# Exit status: 0 when every mutant run was killed, 1 when one survived or
# did not apply, 2 on bad usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
list=$here/mutants
checks="lint,test,regress,formal"
only=""
out=""
usage() { sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --checks) [ $# -ge 2 ] || { echo "mutate: --checks needs a list of lint,test,regress,formal" >&2; exit 2; }
                  checks=$2; shift 2 ;;
        --only)   [ $# -ge 2 ] || { echo "mutate: --only needs mutant names (--list shows them)" >&2; exit 2; }
                  only=$2; shift 2 ;;
        --list)   grep -v '^#' "$list" | awk -F' [|] ' 'NF { printf "%-20s %-24s %s\n", $1, $2, $3 }'; exit 0 ;;
        -*)       echo "mutate: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *)        out=$1; shift ;;
    esac
done
for c in $(echo "$checks" | tr ',' ' '); do
    case "$c" in lint|test|regress|formal) ;; *)
        echo "mutate: --checks: '$c' is not one of lint, test, regress, formal" >&2; exit 2 ;; esac
done
names=$(grep -v '^#' "$list" | awk -F' [|] ' 'NF { gsub(/ /, "", $1); print $1 }')
for n in $(echo "$only" | tr ',' ' '); do
    echo "$names" | grep -qx "$n" || { echo "mutate: --only: no mutant named '$n' (--list shows them)" >&2; exit 2; }
done
out=${out:-$root/build/mutate}
mkdir -p "$out/logs"
case "$out" in /*) ;; *) out=$(pwd)/$out ;; esac
tree=$out/tree

# The scratch tree: the sources (no .git, no build), and a build/ seeded
# once from this tree's, timestamps kept, so that make rebuilds only what a
# mutant touches.
echo "mutate: scratch tree $tree"
mkdir -p "$tree"
(cd "$root" && tar cf - --exclude=./build --exclude=./.git .) | (cd "$tree" && tar xpf -)
case ",$checks," in *,test,*|*,regress,*)
    if [ ! -d "$tree/build" ] && [ -d "$root/build" ]; then
        mkdir -p "$tree/build"
        (cd "$root/build" && tar cf - --exclude='./mutate*' .) | (cd "$tree/build" && tar xpf -)
    fi ;;
esac

run_check() {   # $1 check, $2 log: 0 when the check passes
    case "$1" in
    lint)
        make -C "$tree" --no-print-directory lint > "$2" 2>&1 ;;
    test)
        make -C "$tree" --no-print-directory -j2 all test-depths > "$2" 2>&1 || return 1
        for t in "$tree"/build/tests/test_*; do
            echo "== $t" >> "$2"
            (cd "$tree" && "$t") >> "$2" 2>&1 || { echo "FAILED: $t" >> "$2"; return 1; }
        done ;;
    regress)
        (cd "$tree" && build/wavemesh regress --quick) > "$2" 2>&1 || return 1
        if (cd "$tree" && build/wavemesh regress --help 2>&1 | grep -q -- --random); then
            (cd "$tree" && build/wavemesh regress --random "${MUTATE_RANDOM:-200}" --seed 1) >> "$2" 2>&1 || return 1
        fi ;;
    formal)
        fjobs=$(sh "$tree/rtl/formal/run.sh" --help | awk -v f="${file#rtl/}" \
            '/^jobs:/ { on = 1; next } on && index("," $4 ",", "," f ",") { print $1 }')
        if [ -n "${MUTATE_FORMAL_JOBS:-}" ]; then
            fjobs=$(for j in $fjobs; do case " $MUTATE_FORMAL_JOBS " in *" $j "*) echo "$j" ;; esac; done)
        fi
        if [ -z "$fjobs" ]; then echo "no formal job reads $file" > "$2"; return 3; fi
        (cd "$tree" && sh rtl/formal/run.sh "$out/formal" --stop $fjobs) > "$2" 2>&1
        case $? in 0) return 0 ;; 1) return 1 ;; *) return 4 ;; esac ;;   # 4: no verdict
    esac
}

now() { date +%s; }
table=$out/table.md
: > "$out/rows"
total=$(echo "$names" | wc -l)
[ -n "$only" ] && total=$(echo "$only" | tr ',' '\n' | grep -c .)
k=0 killed=0 survived=0 broken=0 unchecked=0
while IFS= read -r line; do
    case "$line" in '#'*|'') continue ;; esac
    name=$(echo "$line" | awk -F' [|] ' '{ gsub(/ /, "", $1); print $1 }')
    file=$(echo "$line" | awk -F' [|] ' '{ gsub(/ /, "", $2); print $2 }')
    desc=$(echo "$line" | awk -F' [|] ' '{ print $3 }')
    expr=$(echo "$line" | sed 's/^[^|]*|[^|]*|[^|]*| //')
    if [ -n "$only" ]; then
        case ",$only," in *",$name,"*) ;; *) continue ;; esac
    fi
    k=$((k + 1))
    t0=$(now)
    # the file as it is in the tree, then the mutant, newer than every
    # product of the last run
    cp "$root/$file" "$tree/$file"
    sed -e "$expr" "$root/$file" > "$tree/$file.mut"
    changed=$(diff "$root/$file" "$tree/$file.mut" | grep -c '^>')
    if [ "$changed" -ne 1 ]; then
        echo "mutate: [$k/$total] $name: does not apply to $file ($changed lines changed)"
        echo "| $name | $desc | does not apply | |" >> "$out/rows"
        broken=$((broken + 1)); rm -f "$tree/$file.mut"; touch "$tree/$file"; continue
    fi
    mv "$tree/$file.mut" "$tree/$file"
    touch "$tree/$file"
    by=survived applied=0
    for c in lint test regress formal; do
        case ",$checks," in *",$c,"*) ;; *) continue ;; esac
        run_check "$c" "$out/logs/$name.$c.log"
        case $? in
            0) applied=1 ;;
            3) ;;                       # the check cannot see this file
            4) by="error in $c"; break ;;
            *) by=$c; break ;;
        esac
    done
    [ "$by" = survived ] && [ $applied -eq 0 ] && by="not checked"
    # back to the tree's own file, newer than the mutant's products
    cp "$root/$file" "$tree/$file"; touch "$tree/$file"
    case "$by" in
        survived)      survived=$((survived + 1)); verdict=SURVIVED ;;
        "not checked") unchecked=$((unchecked + 1)); verdict="not checked: no check of $checks reads $file" ;;
        error*)        broken=$((broken + 1)); verdict="$by: no verdict (see the log)" ;;
        *)             killed=$((killed + 1)); verdict="killed by $by" ;;
    esac
    echo "mutate: [$k/$total] $name: $verdict ($(( $(now) - t0 )) s)"
    # how it died: the killing check's first failure line
    how=""
    case "$by" in survived|"not checked") ;; *)
        how=$(grep -m1 'FAILED\|error\|Error' "$out/logs/$name.${by#error in }.log" 2>/dev/null |
              sed -e 's/, see .*//' -e 's/^formal: //' -e 's/|/\\|/g' | sed -E 's/^([^:]+): FAILED: not proved \(Output [0-9]+ of miter "[^"]*" was asserted in frame ([0-9]+).*/\1: an assertion fails at cycle \2/; s/^([^:]+): FAILED: (holds|proved).*, but ([0-9]+ of [0-9]+ covers) reached.*/\1: only \3 reached/; s/^([^:]+): FAILED: Output [0-9]+ of miter "[^"]*" was asserted in frame ([0-9]+).*/\1: an assertion fails at cycle \2/' | cut -c1-120) ;;
    esac
    echo "| $name | $desc | $by | $how |" >> "$out/rows"
done < "$list"

run=$((killed + survived))
{
    echo "| mutant | bug | first check that killed it | how |"
    echo "|---|---|---|---|"
    cat "$out/rows"
    echo
    echo "Score: $killed of $run mutants killed ($(echo "$killed $run" | awk '{ printf "%.0f", $2 ? 100 * $1 / $2 : 0 }') %), checks: $checks$( [ $unchecked -gt 0 ] && echo "; $unchecked in files these checks do not read")$( [ $broken -gt 0 ] && echo "; $broken did not apply or got no verdict")."
} > "$table"
cat "$table"
[ $survived -eq 0 ] && [ $broken -eq 0 ]
