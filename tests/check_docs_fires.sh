#!/bin/bash
# check_docs_fires.sh: tests/check_docs.sh reports what it is there for.
# Copies docs/ to a temporary folder, checks that the copy passes, then
# plants a stale figure (one number of the first checked block of core.md
# and of cost-model.md changed), a cost constant that sw/cost_model.h does
# not have, a commit hash, a load average, a broken link and a
# verification.md past 300 lines, a step of make test missing from its
# table, a C snippet that does not compile
# (the six-field initialiser of a five-field struct), a wrong output line
# in kernels.md's first checked block, a shown command that fails, a block
# of commands with no mark and an exemption that exempts nothing, and
# expects each to be reported at its file and line. Run from the
# repository root with build/wavemesh built.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r docs "$tmp/docs"
d=$tmp/docs

if ! bash tests/check_docs.sh "$d" 2>"$tmp/clean.err"; then
    cat "$tmp/clean.err" >&2
    echo "check_docs_fires: the unchanged copy of docs/ does not pass" >&2
    exit 1
fi

# Line number of the first line with a number inside the first checked
# block of a page; that number is then one more.
plant_stale() {
    local page=$1 n
    n=$(awk '/^<!-- *check *-->/ { m = 1; next }
             m == 1 && /^```/ { m = 2; next }
             m == 2 && /^```/ { m = 0; next }
             m == 2 && !/^\$/ && /[0-9]/ { print NR; exit }' "$page")
    [ -n "$n" ] || { echo "check_docs_fires: no checked block in $page" >&2; exit 1; }
    perl -i -pe 'if ($. == '"$n"') { s/(\d+)/$1 + 1/e }' "$page"
    echo "$page:$n"
}
expect=()
expect+=("$(plant_stale "$d/core.md"):.*is not what")
expect+=("$(plant_stale "$d/cost-model.md"):.*is not what")
expect+=("$(plant_stale "$d/kernels.md"):.*is not what")
n=$(grep -n -m1 '^| `WM_COST_HEADER` |' "$d/cost-model.md" | cut -d: -f1)
sed -i "${n}s/| \`WM_COST_HEADER\` | [0-9]* |/| \`WM_COST_HEADER\` | 999 |/" "$d/cost-model.md"
expect+=("$d/cost-model.md:$n: WM_COST_HEADER is 999 here")
echo "The figures of this page were measured at commit 3f9a2c1." >>"$d/fabric.md"
expect+=("$d/fabric.md:$(wc -l <"$d/fabric.md"): a commit hash (3f9a2c1)")
echo "Measured with a load average of 1.5." >>"$d/kernels.md"
expect+=("$d/kernels.md:$(wc -l <"$d/kernels.md"): load average")
echo "See [the lost page](no-such-page.md)." >>"$d/layouts.md"
expect+=("$d/layouts.md:$(wc -l <"$d/layouts.md"): a link to no-such-page.md")
printf '%s\n' '```c' 'const wm_kernel_param broken[] = {{NULL, false, 0, false, 0, 0}};' '```' >>"$d/kernels.md"
expect+=("$d/kernels.md:$(($(wc -l <"$d/kernels.md") - 2)): the C snippet does not compile")
printf '%s\n' '<!-- not run: `make nothing` is no command of the block -->' '<!-- run -->' '```' \
    'build/wavemesh cpi' 'build/wavemesh run sw/collectives/no-such.layout   # a layout that is not there' '```' >>"$d/kernels.md"
n=$(wc -l <"$d/kernels.md")
expect+=("$d/kernels.md:$((n - 5)): not run: \`make nothing\` exempts no command")
expect+=("$d/kernels.md:$((n - 1)): \`build/wavemesh run sw/collectives/no-such.layout\` exits with status 1, not 0")
printf '%s\n' '```' 'build/wavemesh cpi' '```' >>"$d/kernels.md"
expect+=("$d/kernels.md:$(($(wc -l <"$d/kernels.md") - 1)): a block of commands with no")
sed -i 's/`make check-install`/`make check-instal`/' "$d/verification.md"
expect+=("$d/verification.md: the make test step check-install is not in the table")
while [ "$(wc -l <"$d/verification.md")" -le 300 ]; do echo "One more line of history." >>"$d/verification.md"; done
expect+=("$d/verification.md:[0-9]*: [0-9]* lines, more than the 300")

if bash tests/check_docs.sh "$d" 2>"$tmp/planted.err"; then
    echo "check_docs_fires: check_docs.sh passed a copy of docs/ with planted faults" >&2
    exit 1
fi
status=0
for e in "${expect[@]}"; do
    if ! grep -q -- "^$e" "$tmp/planted.err"; then
        echo "check_docs_fires: not reported: $e" >&2
        status=1
    fi
done
if [ $status -ne 0 ]; then
    echo "check_docs.sh said:" >&2
    cat "$tmp/planted.err" >&2
    exit 1
fi
echo "check_docs_fires: a stale figure in core.md and in cost-model.md, a wrong cost constant, a commit hash, a load average, a broken link, a verification.md past 300 lines, a step of make test missing from its table, a C snippet that does not compile, a wrong output line, a failing command, a block of commands with no mark and an exemption of nothing are each reported"
