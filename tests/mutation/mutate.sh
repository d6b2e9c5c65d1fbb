#!/bin/sh
# mutate.sh: the mutation score of the RTL (make mutate; docs/verification.md,
# "Mutation").
#
#   sh tests/mutation/mutate.sh [--checks LIST] [--only NAMES] [--jobs J]
#                               [--no-core] [--table] [--list] [OUT]
#
# Each mutant of tests/mutation/mutants (one realistic bug in one line of
# rtl/, or of the C of csim/ where a model or a tool has the bug) is
# applied alone to a copy of the sources in a folder of its own,
# OUT/NAME (default OUT: build/mutate), and built and checked there: the
# tree's own files are never touched, so an interrupted run leaves the
# tree as it was. A mutant's build/ is seeded with the tree's objects that
# do not depend on the RTL (make mutate builds them first), and for a
# mutant of C with the Verilated models too, so only what the mutated file
# feeds is built again. The checks a developer runs, in
# this order; the first that fails kills the mutant and the rest are not
# run:
#   lint     make lint: verilator -Wall on every module, every top and
#            depth set, iverilog -g2005
#   formal   rtl/formal/run.sh --stop: the jobs of make formal that read
#            the mutated file (of those, only the ones named in
#            $MUTATE_FORMAL_JOBS if it is set); none for a file that no
#            harness reads
#   icarus   the Icarus benches: tb_fifo at depths 2, 4 and 8 (its model
#            and the FIFO's assertions, test_fifo), tests/rules.sh (the
#            stated priority and simultaneity rules), tests/depths.sh
#            (tb_fifo_depths at depths 1..9, tb_mesh_depths at three depth
#            sets), and tb_mesh, whose link events must be the unmutated
#            RTL's line for line (test_icarus holds those to the Verilated
#            tiles and the sw model)
#   random   (only when --checks names it) for a mutant of rtl/core/: the
#            core's differential test of random programs alone
#            (build/tests/test_core-alone --random-only, the core's model
#            rebuilt, not the tiles'), none of the directed tests
#   cmocka   make all, then every cmocka test that runs the Verilated
#            models (those whose source names the rtl or rtl-mesh backend);
#            for a mutant of C, every cmocka test; with $MUTATE_TESTS set,
#            only the tests it names, and only they are built
# lint, formal, icarus and random read rtl/ only: a mutant of C skips them.
#   regress  wavemesh regress --quick: the corpus on the rtl backend
#            against the sw model, cycle by cycle
#   params   make test-params-quick: the host and the tile with core built
#            at DEPTHS2, the tutorial row and two scenarios in lockstep,
#            firmware on the cores (mk/params.mk)
# A mutant that no check kills has SURVIVED, unless tests/mutation/equivalent
# names it with the argument that it cannot change behaviour: then it is
# "equivalent" and out of the score.
# One progress line a mutant, then the table (mutant, file:line, the
# change, the check that killed it and how, or SURVIVED) and the score, in
# OUT/table.md: every mutant of the list, each as its last run in OUT
# left it (runs of a few with --only complete one table); each check's
# log is OUT/NAME/CHECK.log.
#   --checks LIST  a comma-separated subset of lint,formal,icarus,random,
#                  cmocka,regress,params (run in that order whatever LIST's; the
#                  default: all but random)
#   --only NAMES   only these mutants (comma-separated)
#   --jobs J       J mutants at a time, 1..2 (default 1); each builds with
#                  make -j1 then, so that J stays the number of processes
#   --no-core      leave the mutants of rtl/core/ out (listed as not run):
#                  they rebuild the Verilated core and its tiles
#   --table        run nothing: write OUT/table.md again from the runs in OUT
#   --list         print the mutants and stop
# Exit status: 0 when every mutant run was killed or is equivalent, 1 when
# one survived, did not apply or got no verdict, 2 on bad usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
list=$here/mutants
equiv=$here/equivalent
all_checks="lint formal icarus random cmocka regress params"
checks="lint,formal,icarus,cmocka,regress,params"
only="" out="" jobs=1 with_core=1 table_only=0
usage() { sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --checks) [ $# -ge 2 ] || { echo "mutate: --checks needs a list of lint,formal,icarus,random,cmocka,regress,params" >&2; exit 2; }
                  checks=$2; shift 2 ;;
        --only)   [ $# -ge 2 ] || { echo "mutate: --only needs mutant names (--list shows them)" >&2; exit 2; }
                  only=$2; shift 2 ;;
        --jobs)   [ $# -ge 2 ] || { echo "mutate: --jobs needs a number, 1..2" >&2; exit 2; }
                  case "$2" in 1|2) jobs=$2 ;; *) echo "mutate: --jobs: '$2' is not in 1..2" >&2; exit 2 ;; esac
                  shift 2 ;;
        --no-core) with_core=0; shift ;;
        --table)  table_only=1; shift ;;
        --list)   grep -v '^#' "$list" | awk -F' [|] ' 'NF { printf "%-20s %-24s %s\n", $1, $2, $3 }'; exit 0 ;;
        -*)       echo "mutate: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *)        out=$1; shift ;;
    esac
done
for c in $(echo "$checks" | tr ',' ' '); do
    case " $all_checks " in *" $c "*) ;; *)
        echo "mutate: --checks: '$c' is not one of lint, formal, icarus, random, cmocka, regress, params" >&2; exit 2 ;; esac
done
names=$(grep -v '^#' "$list" | awk -F' [|] ' 'NF { gsub(/ /, "", $1); print $1 }')
for n in $(echo "$only" | tr ',' ' '); do
    echo "$names" | grep -qx "$n" || { echo "mutate: --only: no mutant named '$n' (--list shows them)" >&2; exit 2; }
done
out=${out:-$root/build/mutate}
mkdir -p "$out"
out=$(cd "$out" && pwd)
case "$out/" in "$root/rtl/"*|"$root/tests/"*|"$root/csim/"*|"$root/sw/"*)
    echo "mutate: OUT must not be inside the sources ($out)" >&2; exit 2 ;; esac
mflags=-j2; [ "$jobs" -eq 2 ] && mflags=-j1

# The cmocka tests that run the Verilated models.
vl_tests=$(cd "$root" && grep -l 'wm_fabric_rtl\|"rtl"\|rtl-mesh\|core_rtl' tests/test_*.c | sed 's|tests/\(.*\)\.c|\1|')
# Every cmocka test, for a mutant of C.
all_tests=$(cd "$root" && ls tests/test_*.c | sed 's|tests/\(.*\)\.c|\1|')

# tb_mesh's link events on the unmutated RTL, once a run.
want_icarus=0
case ",$checks," in *,icarus,*) [ $table_only -eq 1 ] || want_icarus=1 ;; esac
if [ $want_icarus -eq 1 ]; then
    (cd "$root" && iverilog -g2005 -Irtl -y rtl -y rtl/prim -o "$out/tb_mesh.vvp" tests/icarus/tb_mesh.v rtl/mesh.v &&
        vvp -n "$out/tb_mesh.vvp" | grep '^[0-9]' > "$out/tb_mesh.want") ||
        { echo "mutate: tb_mesh does not run on the unmutated RTL" >&2; exit 1; }
fi

# $1 check, $2 mutant's tree, $3 log, $4 mutated file: 0 when the check
# passes, 1 when it fails, 3 when it cannot see the file, 4 no verdict
run_check() {
    t=$2
    case "$4:$1" in rtl/*) ;; *:lint|*:formal|*:icarus|*:random)
        echo "$1 reads rtl/ only, not $4" > "$3"; return 3 ;; esac
    case "$1" in
    lint)
        make -C "$t" --no-print-directory lint > "$3" 2>&1 ;;
    formal)
        fjobs=$(sh "$t/rtl/formal/run.sh" --help | awk -v f="${4#rtl/}" \
            '/^jobs:/ { on = 1; next } on && index("," $4 ",", "," f ",") { print $1 }')
        if [ -n "${MUTATE_FORMAL_JOBS:-}" ]; then
            fjobs=$(for j in $fjobs; do case " $MUTATE_FORMAL_JOBS " in *" $j "*) echo "$j" ;; esac; done)
        fi
        if [ -z "$fjobs" ]; then echo "no formal job reads $4" > "$3"; return 3; fi
        (cd "$t" && sh rtl/formal/run.sh build/formal --stop $fjobs) > "$3" 2>&1
        case $? in 0) return 0 ;; 1) return 1 ;; *) return 4 ;; esac ;;
    icarus)
        (
            cd "$t" || exit 1
            mkdir -p build
            echo "== test_fifo (tb_fifo at depths 2, 4, 8)"
            "$root/build/tests/test_fifo" 2>&1 || { echo "FAILED: test_fifo"; exit 1; }
            echo "== tests/rules.sh"
            sh tests/rules.sh build 2>&1 || { echo "FAILED: rules.sh"; exit 1; }
            echo "== tests/depths.sh"
            sh tests/depths.sh build 2>&1 || { echo "FAILED: depths.sh"; exit 1; }
            echo "== tb_mesh against the unmutated RTL's link events"
            iverilog -g2005 -Irtl -y rtl -y rtl/prim -o build/tb_mesh.vvp tests/icarus/tb_mesh.v rtl/mesh.v 2>&1 ||
                { echo "FAILED: tb_mesh does not build"; exit 1; }
            vvp -n build/tb_mesh.vvp | grep '^[0-9]' > build/tb_mesh.got
            if ! cmp -s build/tb_mesh.got "$out/tb_mesh.want"; then
                echo "FAILED: tb_mesh: link events differ from the unmutated RTL's:"
                diff "$out/tb_mesh.want" build/tb_mesh.got | head -5
                exit 1
            fi
            echo "tb_mesh: $(wc -l < build/tb_mesh.got) link events, as the unmutated RTL's"
        ) > "$3" 2>&1 ;;
    random)
        case "$4" in rtl/core/*) ;; *) echo "the random programs run the core alone, not $4" > "$3"; return 3 ;; esac
        make -C "$t" --no-print-directory $mflags build/tests/test_core-alone > "$3" 2>&1 ||
            { echo "FAILED: make build/tests/test_core-alone" >> "$3"; return 1; }
        echo "== test_core-alone --random-only" >> "$3"
        (cd "$t" && build/tests/test_core-alone --random-only) >> "$3" 2>&1 ||
            { echo "FAILED: test_core-alone --random-only" >> "$3"; return 1; } ;;
    cmocka)
        tests=$vl_tests
        case "$4" in rtl/*) ;; *) tests=$all_tests ;; esac
        if [ -n "${MUTATE_TESTS:-}" ]; then
            tests=$MUTATE_TESTS
            make -C "$t" --no-print-directory $mflags $(for b in $tests; do echo "build/tests/$b"; done) > "$3" 2>&1 ||
                { echo "FAILED: make $tests" >> "$3"; return 1; }
        else
            make -C "$t" --no-print-directory $mflags all > "$3" 2>&1 || { echo "FAILED: make all" >> "$3"; return 1; }
        fi
        for b in $tests; do
            echo "== $b" >> "$3"
            (cd "$t" && "build/tests/$b") >> "$3" 2>&1 || { echo "FAILED: $b" >> "$3"; return 1; }
        done ;;
    regress)
        (cd "$t" && build/wavemesh regress --quick) > "$3" 2>&1 || { echo "FAILED: regress --quick" >> "$3"; return 1; } ;;
    params)
        make -C "$t" --no-print-directory $mflags test-params-quick > "$3" 2>&1 ||
            { echo "FAILED: test-params-quick" >> "$3"; return 1; } ;;
    esac
}

# How a check killed its mutant, for the table: the first line of its log
# that names the failure (for the tests, after the build's own output,
# with the test's name). $1 the check, $2 its log.
how_died() {
    case "$1" in
    random)
        grep -m1 '^seed [0-9]*: cycle\|^seed [0-9]*: at the end\|^seed [0-9]*: the program\|^seed [0-9]*: no halt\|no .* retired\|never\|%Error\|FAILED' "$2" |
            sed 's/^/test_core-alone: /' ;;
    cmocka|icarus)
        # the first telling line of the test that failed (a test that
        # passes may print such lines on purpose)
        awk '/^== / { t = $2; first = ""; on = 1; next }
             on && first == "" && /ASSERTION FAILED|\[  ERROR   \]|error:|\[  FAILED  \]|FAILED:|FAIL |^depths: / &&
                 !/: checked$|PASS$/ { first = $0 }
             on && /^FAILED: / { sub(/^.*\//, "", t); print t ": " (first != "" ? first : $0); exit }
             !on && /%Error|error:|FAILED: make/ { print; exit }' "$2" ;;
    *)
        grep -m1 'FAILED\|%Error\|%Warning\|error:\|FAIL ' "$2" ;;
    esac 2>/dev/null |
        sed -e 's/, see .*//' -e 's/^formal: //' -e 's/|/\\|/g' -e 's/`/'"'"'/g' -e "s|$out/[^/]*/||g" |
        sed -E 's/^([^:]+): FAILED: not proved \(Output [0-9]+ of miter "[^"]*" was asserted in frame ([0-9]+).*/\1: an assertion fails at cycle \2/; s/^([^:]+): FAILED: (holds|proved).*, but ([0-9]+ of [0-9]+ covers) reached.*/\1: only \3 reached/; s/^([^:]+): FAILED: Output [0-9]+ of miter "[^"]*" was asserted in frame ([0-9]+).*/\1: an assertion fails at cycle \2/' |
        cut -c1-140
}

# One mutant, start to end: its row in OUT/NAME/row, its verdict in
# OUT/NAME/verdict. $1 index, $2 its line of the list.
run_mutant() {
    k=$1 line=$2
    name=$(echo "$line" | awk -F' [|] ' '{ gsub(/ /, "", $1); print $1 }')
    file=$(echo "$line" | awk -F' [|] ' '{ gsub(/ /, "", $2); print $2 }')
    desc=$(echo "$line" | awk -F' [|] ' '{ print $3 }')
    expr=$(echo "$line" | sed 's/^[^|]*|[^|]*|[^|]*| //')
    m=$out/$name
    t0=$(date +%s)
    sed -e "$expr" "$root/$file" > "$out/$name.mut"
    changed=$(diff "$root/$file" "$out/$name.mut" | grep -c '^>')
    lineno=$(diff "$root/$file" "$out/$name.mut" | sed -n 's/^\([0-9]*\)c[0-9]*$/\1/p' | head -1)
    where="$file:${lineno:-?}"
    if [ "$changed" -ne 1 ]; then
        rm -f "$out/$name.mut"; mkdir -p "$m"
        echo "does not apply" > "$m/verdict"
        echo "| $name | $file | $desc | does not apply ($changed lines changed) | |" > "$m/row"
        echo "mutate: [$k/$total] $name: does not apply to $file ($changed lines changed)"
        return
    fi
    case "$file" in rtl/core/*) if [ $with_core -eq 0 ]; then
        rm -f "$out/$name.mut"; mkdir -p "$m"
        echo "not run" > "$m/verdict"
        echo "| $name | $where | $desc | not run (--no-core) | |" > "$m/row"
        echo "mutate: [$k/$total] $name: not run (rtl/core/, --no-core)"
        return
    fi ;; esac
    # The sources, then the mutant over its file, then a build/ seeded with
    # what does not depend on the RTL (timestamps kept).
    rm -rf "$m" && mkdir -p "$m"
    (cd "$root" && tar cf - --exclude=./build --exclude=./.git .) | (cd "$m" && tar xpf -)
    mv "$out/$name.mut" "$m/$file"
    touch "$m/$file"
    case ",$checks," in *,cmocka,*|*,regress,*|*,random,*|*,params,*)
        mkdir -p "$m/build"
        models=""
        case "$file" in rtl/*) ;; *) models=$(cd "$root/build" && ls -d vtile* vmesh* 2>/dev/null) ;; esac
        (cd "$root/build" && tar cf - obj vrt firmware vcore libwmcore.a $(ls -d params 2>/dev/null) $models) |
            (cd "$m/build" && tar xpf -) ;;
    esac
    by=survived applied=0 how=""
    for c in $all_checks; do
        case ",$checks," in *",$c,"*) ;; *) continue ;; esac
        echo "mutate: [$k/$total] $name: $c" > "$m/progress"
        run_check "$c" "$m" "$m/$c.log" "$file"
        case $? in
            0) applied=1 ;;
            3) ;;                       # the check cannot see this file
            4) by="error in $c"; break ;;
            *) by=$c; break ;;
        esac
    done
    [ "$by" = survived ] && [ $applied -eq 0 ] && by="not checked"
    secs=$(( $(date +%s) - t0 ))
    case "$by" in
        survived)
            arg=$(awk -F' [|] ' -v n="$name" '$1 == n { print $2 }' "$equiv" 2>/dev/null)
            if [ -n "$arg" ]; then verdict="equivalent"; shown="equivalent (no check run killed it): $arg"
            else verdict="SURVIVED"; shown="SURVIVED"; fi ;;
        "not checked") verdict="not checked"; shown="not checked: none of $checks reads $file" ;;
        error*)        verdict="no verdict"; shown="$by: no verdict (see $name/${by#error in }.log)"
                       how=$(how_died "${by#error in }" "$m/${by#error in }.log") ;;
        *)             verdict="killed"; shown="killed by $by"; how=$(how_died "$by" "$m/$by.log") ;;
    esac
    echo "$verdict" > "$m/verdict"
    echo "| $name | $where | $desc | $shown | $how |" > "$m/row"
    echo "mutate: [$k/$total] $name: $shown ($secs s)"
}

# The mutants to run, numbered, one a line: "K|LINE".
sel=$(grep -v '^#' "$list" | awk 'NF' | while IFS= read -r line; do
    name=$(echo "$line" | awk -F' [|] ' '{ gsub(/ /, "", $1); print $1 }')
    if [ -n "$only" ]; then case ",$only," in *",$name,"*) ;; *) continue ;; esac; fi
    echo "$line"
done)
total=$(echo "$sel" | grep -c .)
start=$(date +%s)
if [ $table_only -eq 0 ]; then
    echo "mutate: $total mutants, checks $checks, $jobs at a time, each in $out/NAME"
    w=0
    while [ $w -lt "$jobs" ]; do
        echo "$sel" | awk -v w=$w -v j="$jobs" '(NR - 1) % j == w { print NR "|" $0 }' | while IFS= read -r l; do
            run_mutant "${l%%|*}" "${l#*|}"
        done &
        w=$((w + 1))
    done
    wait
fi

# The table: every mutant of the list, each from its last run in OUT (so
# that runs of a few mutants with --only complete one table).
killed=0 survived=0 equivalent=0 broken=0 skipped=0
table=$out/table.md
{
    echo "| mutant | file:line | the change | first check that killed it | how |"
    echo "|---|---|---|---|---|"
    for n in $names; do
        if [ ! -f "$out/$n/row" ]; then echo "| $n | | | not run in $out | |"; continue; fi
        row=$(awk -F' [|] ' '{ print $1 " | " $2 " | " $3 " | " $4 }' "$out/$n/row")
        by=$(echo "$row" | sed -n 's/.* | killed by \([a-z]*\)$/\1/p')
        if [ -n "$by" ]; then echo "$row | $(how_died "$by" "$out/$n/$by.log") |"
        else cat "$out/$n/row"; fi
    done
} > "$table.rows"
for n in $names; do
    case "$(cat "$out/$n/verdict" 2>/dev/null)" in
        killed) killed=$((killed + 1)) ;;
        SURVIVED) survived=$((survived + 1)) ;;
        equivalent) equivalent=$((equivalent + 1)) ;;
        "not run"|"not checked"|"") skipped=$((skipped + 1)) ;;
        *) broken=$((broken + 1)) ;;
    esac
done
run=$((killed + survived))
{
    cat "$table.rows"
    echo
    echo "Score: $killed of $run non-equivalent mutants killed ($(echo "$killed $run" | awk '{ printf "%.0f", $2 ? 100 * $1 / $2 : 0 }') %); $equivalent equivalent; $skipped not run; $broken did not apply or got no verdict. $( [ $table_only -eq 0 ] && echo "This run: $total mutants, checks $checks, wall time $(( $(date +%s) - start )) s.")"
} > "$table"
rm -f "$table.rows"
cat "$table"
[ $survived -eq 0 ] && [ $broken -eq 0 ]
