#!/bin/sh
# The coverage report of `make coverage`: lines, toggles and cover points
# of rtl/ by module, from the merged Verilator coverage file, less the
# waived ones (each with its reason, in one file), the points still
# missed, and a one-line total. Exits non-zero on a waiver without a
# reason or one that waives nothing.
#   sh tests/coverage_report.sh COVERAGE.dat WAIVERS
#
# A waiver line: KIND MODULE WHAT REASON...
#   KIND   line, toggle or cover
#   MODULE the module (wm_router, wm_fifo, ...)
#   WHAT   line: a line number or FIRST-LAST of the module's file;
#          toggle and cover: a signal or point name, or a prefix and '*'
# Lines starting with '#' and empty lines are comments.
# The cover modules' own lines and toggles (rtl/cover/) are not counted:
# they are the instrument. Their points count for the module they are
# bound into (wm_router_cover -> wm_router).
dat=$1
waivers=$2
if [ ! -r "$dat" ] || [ ! -r "$waivers" ]; then
    echo "usage: sh tests/coverage_report.sh COVERAGE.dat WAIVERS (both readable)" >&2
    exit 2
fi
LC_ALL=C awk -v waivers="$waivers" '
function fail(msg) { print "coverage_report: " msg > "/dev/stderr"; bad = 1 }
BEGIN {
    nw = 0
    while ((getline line < waivers) > 0) {
        wl++
        if (line ~ /^[ \t]*(#|$)/) continue
        n = split(line, f, /[ \t]+/)
        if (n < 4 || (f[1] != "line" && f[1] != "toggle" && f[1] != "cover")) {
            fail(waivers ":" wl ": expected KIND MODULE WHAT REASON (KIND line, toggle or cover)")
            continue
        }
        nw++
        wkind[nw] = f[1]; wmod[nw] = f[2]; wwhat[nw] = f[3]; wline[nw] = wl; wused[nw] = 0
        reason = line; sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", reason); wreason[nw] = reason
    }
    SEP1 = sprintf("%c", 1); SEP2 = sprintf("%c", 2)
}
function waived(kind, mod, what, line,    k, lo, hi, p) {
    for (k = 1; k <= nw; k++) {
        if (wkind[k] != kind || wmod[k] != mod) continue
        if (kind == "line") {
            lo = wwhat[k]; hi = wwhat[k]
            if (index(lo, "-")) { hi = substr(lo, index(lo, "-") + 1); lo = substr(lo, 1, index(lo, "-") - 1) }
            if (line + 0 >= lo + 0 && line + 0 <= hi + 0) { wused[k]++; return 1 }
        } else {
            p = wwhat[k]
            if (substr(p, length(p)) == "*") {
                if (substr(what, 1, length(p) - 1) == substr(p, 1, length(p) - 1)) { wused[k]++; return 1 }
            } else if (what == p) { wused[k]++; return 1 }
        }
    }
    return 0
}
/^C / {
    count = $NF
    key = $0; sub(/^C \047/, "", key); sub(/\047 [0-9]+$/, "", key)
    n = split(key, kv, SEP1)
    delete v
    for (i = 1; i <= n; i++) { j = index(kv[i], SEP2); if (j) v[substr(kv[i], 1, j - 1)] = substr(kv[i], j + 1) }
    page = v["page"]; file = v["f"]; line = v["l"]; what = v["o"]
    kind = page; sub(/\/.*/, "", kind); sub(/^v_/, "", kind)
    mod = page; sub(/^[^\/]*\//, "", mod); sub(/__.*/, "", mod)
    if (kind == "user") { kind = "cover"; sub(/_cover$/, "", mod) }
    else if (file ~ /(^|\/)rtl\/cover\//) next
    if (kind != "line" && kind != "toggle" && kind != "cover" && kind != "branch") next
    if (kind == "branch") kind = "line"   # an if/case arm is a line of the source
    id = kind SUBSEP mod SUBSEP file SUBSEP line SUBSEP what SUBSEP v["n"]
    hits[id] += count
    kinds[id] = kind; mods[id] = mod; files[id] = file; lines[id] = line; whats[id] = what
}
END {
    for (id in hits) {
        k = kinds[id]; m = mods[id]
        if (hits[id] == 0 && waived(k, m, whats[id], lines[id])) { waivedn[k]++; wmodn[m, k]++; continue }
        total[m, k]++; grand[k]++
        if (hits[id] > 0) { hit[m, k]++; grandhit[k]++ }
        else missed[++nm] = sprintf("  %-6s %-18s %s:%s %s", k, m, files[id], lines[id], whats[id])
        modseen[m] = 1
    }
    printf "%-18s %18s %18s %14s\n", "module", "lines", "toggles", "cover points"
    nmods = 0
    for (m in modseen) order[++nmods] = m
    for (i = 1; i <= nmods; i++) for (j = i + 1; j <= nmods; j++) if (order[j] < order[i]) { t = order[i]; order[i] = order[j]; order[j] = t }
    for (i = 1; i <= nmods; i++) {
        m = order[i]
        printf "%-18s", m
        for (c = 1; c <= 3; c++) {
            k = c == 1 ? "line" : c == 2 ? "toggle" : "cover"
            if (total[m, k]) printf " %7d/%-5d %5.1f%%", hit[m, k], total[m, k], 100 * hit[m, k] / total[m, k]
            else printf " %18s", "-"
        }
        printf "\n"
    }
    if (nm) {
        printf "missed (not waived), %d:\n", nm
        for (i = 1; i <= nm; i++) for (j = i + 1; j <= nm; j++) if (missed[j] < missed[i]) { t = missed[i]; missed[i] = missed[j]; missed[j] = t }
        for (i = 1; i <= nm; i++) print missed[i]
    }
    for (k = 1; k <= nw; k++) if (!wused[k]) fail(waivers ":" wline[k] ": waives no missed point (stale, remove it): " wkind[k] " " wmod[k] " " wwhat[k])
    for (k = 1; k <= nw; k++) if (wreason[k] == "") fail(waivers ":" wline[k] ": a waiver needs its reason")
    printf "coverage: lines %d/%d (%.1f%%), toggles %d/%d (%.1f%%), cover points %d/%d hit; waived %d lines, %d toggle bits, %d cover points (%s)\n",
        grandhit["line"], grand["line"], grand["line"] ? 100 * grandhit["line"] / grand["line"] : 0,
        grandhit["toggle"], grand["toggle"], grand["toggle"] ? 100 * grandhit["toggle"] / grand["toggle"] : 0,
        grandhit["cover"], grand["cover"], waivedn["line"], waivedn["toggle"], waivedn["cover"], waivers
    exit bad
}' "$dat"
