#!/bin/sh
# check_include_cycles.sh [ROOT [OBJDIR]]: csim/ has no circle.
#
# Two graphs are checked:
# - includes: an edge from each file of ROOT/csim to each file of csim/ it
#   #includes ("layer/name.h"); no cycle at all, over the whole of csim/.
# - calls: an edge from object A to object B of OBJDIR/csim (default
#   ROOT/build/obj) when A references a symbol B defines (nm), kept when
#   both lie in the same folder (a layer: between layers the includes,
#   checked by check_layers.sh, already go one way); no cycle of two or
#   more objects, but the known ones of ALLOW below.
# Prints each cycle as "A -> B -> ... -> A" and exits 1 if there is one;
# exits 2 when OBJDIR has no object of csim/ (build first).
#
# check_include_cycles.sh --self-test: proves both checks fire, on a made-up
# tree with an include cycle, on two objects that call each other, and on
# the real objects with the scheduler's base made to call the core mode.
#
# The planted edge: WM_CYCLES_PLANT="A B" adds a call edge from object A to
# object B (paths as printed, e.g. csim/run/scheduler.o).

# Known cycles between the objects of one folder, each with why it is
# there; not in run/ or fabric/, which have none. A cycle is allowed when
# each of its objects matches a pattern of one line.
ALLOW='
csim/cli/commands.o csim/cli/cmd_*.o  # the command table names each command; they use its argument helpers
csim/regress/regress.o csim/regress/regress_corpus.o csim/regress/*_regress.o  # the corpus lists the scenarios, which report through regress.c
csim/waves/waves.o csim/waves/waves_gtkw.o  # a dump writes its save file, which names the dump'"'"'s state values
'

self_test() {
    here=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
    t=${TMPDIR:-/tmp}/wm_cycles_self.$$
    rm -rf "$t" && mkdir -p "$t/csim/run" "$t/build/obj/csim/run" || return 1
    printf '#include "run/b.h"\n' >"$t/csim/run/a.h"
    printf '#include "run/a.h"\n' >"$t/csim/run/b.h"
    printf 'void fb(void);\nvoid fa(void) { fb(); }\n' >"$t/a.c"
    printf 'void fa(void);\nvoid fb(void) { fa(); }\n' >"$t/b.c"
    ok=0
    if ! ${CC:-cc} -c -o "$t/build/obj/csim/run/a.o" "$t/a.c" ||
        ! ${CC:-cc} -c -o "$t/build/obj/csim/run/b.o" "$t/b.c"; then
        echo "include cycles: self-test cannot compile its objects"
        rm -rf "$t"
        return 1
    fi
    out=$(sh "$here" "$t" 2>&1)
    if ! echo "$out" | grep -q 'include cycle: csim/run/a.h -> csim/run/b.h -> csim/run/a.h'; then
        echo "include cycles: self-test: a planted include cycle went unnoticed:"
        echo "$out"
        ok=1
    fi
    if ! echo "$out" | grep -q 'call cycle: csim/run/a.o -> csim/run/b.o -> csim/run/a.o'; then
        echo "include cycles: self-test: a planted call cycle went unnoticed:"
        echo "$out"
        ok=1
    fi
    # The real objects, the base made to call into the core mode, which
    # calls the base: the circle the table of PE modes removed.
    out=$(WM_CYCLES_PLANT="csim/run/scheduler.o csim/run/core_sched.o" sh "$here" "$ROOT" "$OBJDIR" 2>&1)
    if ! echo "$out" | grep -q 'call cycle: .*csim/run/core_sched.o -> .*csim/run/scheduler.o'; then
        echo "include cycles: self-test: scheduler.o -> core_sched.o went unnoticed:"
        echo "$out"
        ok=1
    fi
    rm -rf "$t"
    [ $ok -eq 0 ] && echo "include cycles: self-test: every planted cycle is reported"
    return $ok
}

# Reads "FROM TO" edges; prints one cycle per strongly connected component
# of two or more nodes (or a node with an edge to itself), as
# "PREFIX a -> b -> ... -> a", each starting at its smallest node, a tab
# and the component's nodes.
find_cycles() {
    awk -v prefix="$1" '
    function strong(v,   i, w) {
        idx[v] = low[v] = ++counter
        stack[++sp] = v
        on[v] = 1
        for (i = 1; i <= nout[v]; i++) {
            w = out[v, i]
            if (!(w in idx)) {
                strong(w)
                if (low[w] < low[v]) low[v] = low[w]
            } else if (on[w] && idx[w] < low[v]) {
                low[v] = idx[w]
            }
        }
        if (low[v] == idx[v]) {
            ncomp++
            size = 0
            do {
                w = stack[sp--]
                on[w] = 0
                comp[w] = ncomp
                size++
            } while (w != v)
            csize[ncomp] = size
        }
    }
    # The shortest path from s back to s inside its component.
    function cycle_from(s,   head, tail, q, i, v, w, path) {
        delete prev
        head = 1; tail = 0
        q[++tail] = s
        while (head <= tail) {
            v = q[head++]
            for (i = 1; i <= nout[v]; i++) {
                w = out[v, i]
                if (comp[w] != comp[s]) continue
                if (w == s) {
                    path = s
                    while (v != s) { path = v " -> " path; v = prev[v] }
                    return s " -> " path
                }
                if (!(w in prev)) { prev[w] = v; q[++tail] = w }
            }
        }
        return s
    }
    NF == 2 {
        if (($1 SUBSEP $2) in seen) next
        seen[$1, $2] = 1
        out[$1, ++nout[$1]] = $2
        node[$1] = node[$2] = 1
        if ($1 == $2) self[$1] = 1
    }
    END {
        n = 0
        for (v in node) names[++n] = v
        # sorted, so the report does not depend on awk'"'"'s hash order
        for (i = 2; i <= n; i++) {
            v = names[i]
            for (j = i - 1; j >= 1 && names[j] > v; j--) names[j + 1] = names[j]
            names[j + 1] = v
        }
        for (i = 1; i <= n; i++) if (!(names[i] in idx)) strong(names[i])
        for (i = 1; i <= n; i++) {
            v = names[i]
            c = comp[v]
            if (c in done) continue
            if (csize[c] < 2 && !(v in self)) continue
            done[c] = 1
            m = ""
            for (j = 1; j <= n; j++) if (comp[names[j]] == c) m = m " " names[j]
            print prefix " " cycle_from(v) "\t" substr(m, 2)
        }
    }'
}

include_edges() {
    (cd "$ROOT" && find csim -name '*.[ch]' -o -name '*.cpp' -o -name '*.hpp' | sort) | while IFS= read -r f; do
        sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$ROOT/$f" | while IFS= read -r inc; do
            if [ -f "$ROOT/csim/$inc" ]; then
                echo "$f csim/$inc"
            elif [ -f "$ROOT/$(dirname "$f")/$inc" ]; then
                echo "$f $(dirname "$f")/$inc"
            fi
        done
    done
}

# "OBJECT d SYMBOL" for each symbol it defines, "OBJECT u SYMBOL" for each
# it references; then the edges between objects of one folder.
call_edges() {
    (cd "$OBJDIR" && find csim -name '*.o' | sort) | while IFS= read -r o; do
        nm "$OBJDIR/$o" 2>/dev/null | awk -v o="$o" '
            NF >= 2 && $(NF - 1) == "U" { print o, "u", $NF; next }
            NF >= 3 && $(NF - 1) ~ /^[A-TV-Z]$/ { print o, "d", $NF }'
    done | awk '
        function folder(p) { sub(/\/[^\/]*$/, "", p); return p }
        $2 == "d" { def[$3] = (($3 in def) ? def[$3] SUBSEP : "") $1; next }
        { ref[++n] = $1; sym[n] = $3 }
        END {
            for (i = 1; i <= n; i++) {
                if (!(sym[i] in def)) continue
                k = split(def[sym[i]], to, SUBSEP)
                for (j = 1; j <= k; j++)
                    if (to[j] != ref[i] && folder(to[j]) == folder(ref[i])) print ref[i], to[j]
            }
        }'
    if [ -n "$WM_CYCLES_PLANT" ]; then echo "$WM_CYCLES_PLANT"; fi
}

# Whether the nodes $1 (one component) are a known cycle: each matches a
# pattern of one line of ALLOW.
allowed() {
    set -f
    echo "$ALLOW" | while IFS= read -r line; do
        line=${line%%#*}
        [ -n "$(echo "$line" | tr -d ' ')" ] || continue
        all=yes
        for m in $1; do
            hit=no
            for p in $line; do
                case $m in $p) hit=yes ;; esac
            done
            [ $hit = yes ] || all=no
        done
        if [ $all = yes ]; then
            echo yes
            break
        fi
    done
}

# Prints the cycles of "PATH<tab>NODES" lines on stdin but the allowed
# ones (with their nodes when the path does not pass them all); the
# number of allowed ones goes to file $1.
report() {
    k=0
    tab=$(printf '\t')
    while IFS="$tab" read -r path nodes; do
        if [ "$2" = calls ] && [ -n "$(allowed "$nodes")" ]; then
            k=$((k + 1))
            continue
        fi
        echo "$path"
        n=$(echo "$nodes" | wc -w)
        [ "$n" -gt $(($(echo "$path" | grep -o ' -> ' | wc -l))) ] && echo "  (one circle of $n: $nodes)"
    done
    echo $k >"$1"
}

if [ "$1" = "--self-test" ]; then
    ROOT=${2:-.}
    OBJDIR=${3:-$ROOT/build/obj}
    self_test
    exit $?
fi
ROOT=${1:-.}
OBJDIR=${2:-$ROOT/build/obj}
if [ -z "$(cd "$OBJDIR" 2>/dev/null && find csim -name '*.o' 2>/dev/null | head -1)" ]; then
    echo "include cycles: no object of csim/ under $OBJDIR (build first)"
    exit 2
fi

tmp=${TMPDIR:-/tmp}/wm_cycles.$$
bad=0
include_edges | find_cycles "include cycle:" | report "$tmp.n" includes >"$tmp"
call_edges | find_cycles "call cycle:" | report "$tmp.k" calls >>"$tmp"
known=$(cat "$tmp.k")
if [ -s "$tmp" ]; then
    cat "$tmp"
    bad=1
else
    echo "include cycles: none in the includes of csim/; none in the calls within a folder but the $known known (ALLOW)"
fi
rm -f "$tmp" "$tmp.n" "$tmp.k"
exit $bad
