#!/bin/sh
# The coverage report counts what it is given and refuses bad waivers: a
# made-up coverage file of five points (a line hit, a line missed, a toggle
# bit missed and waived, a cover point hit, the cover module's own line,
# which does not count) must give the exact totals and the missed line,
# and a waiver without a reason, or one that waives nothing missed, must
# fail the report. Run from the top of the tree.
dir=${1:-build/check-coverage-report}
rm -rf "$dir" && mkdir -p "$dir" || exit 1
point() { # KIND MODULE FILE LINE NAME COUNT
    printf "C '\001f\002%s\001l\002%s\001n\0020\001page\002v_%s/%s\001o\002%s\001h\002tile.u' %s\n" "$3" "$4" "$1" "$2" "$5" "$6"
}
{
    echo "# SystemC::Coverage-3"
    point line wm_router rtl/wm_router.v 10 if 5
    point line wm_router rtl/wm_router.v 11 else 0
    point toggle wm_pe rtl/wm_pe.v 20 'tsc_q[63]' 0
    point user wm_router_cover rtl/cover/wm_router_cover.sv 30 grant_l_to_l 7
    point line wm_router_cover rtl/cover/wm_router_cover.sv 31 block 0
} > "$dir/cov.dat"
printf '# waivers\ntoggle wm_pe tsc_q[* a counter that never gets there\n' > "$dir/good.txt"
out=$(sh tests/coverage_report.sh "$dir/cov.dat" "$dir/good.txt") || { echo "check-coverage-report: a good report failed"; echo "$out"; exit 1; }
expect="coverage: lines 1/2 (50.0%), toggles 0/0 (0.0%), cover points 1/1 hit; waived 0 lines, 1 toggle bits, 0 cover points ($dir/good.txt)"
if [ "$(echo "$out" | tail -n 1)" != "$expect" ] || ! echo "$out" | grep -q '^  line   wm_router          rtl/wm_router.v:11 else$'; then
    echo "check-coverage-report: unexpected report:"; echo "$out"; exit 1
fi
printf 'toggle wm_pe tsc_q[*\n' > "$dir/noreason.txt"
if sh tests/coverage_report.sh "$dir/cov.dat" "$dir/noreason.txt" >/dev/null 2>&1; then
    echo "check-coverage-report: a waiver without a reason went through"; exit 1
fi
printf 'toggle wm_pe tsc_q[* a reason\nline wm_router 10 hit, so nothing to waive\n' > "$dir/stale.txt"
if sh tests/coverage_report.sh "$dir/cov.dat" "$dir/stale.txt" >/dev/null 2>&1; then
    echo "check-coverage-report: a waiver of a hit line went through"; exit 1
fi
echo "check-coverage-report: exact totals, a waiver without a reason and a stale one refused"
