#!/bin/sh
# make install PREFIX=<a fresh folder>, then the installed copy, moved
# elsewhere, runs the seed's rows on the cores (and a corpus scenario of
# the regression) from another folder, with the checkout out of reach
# (an empty file system mounted over it, in a mount namespace of its own,
# where unshare allows; the real tree is never renamed). Then a copy of
# the build tree, moved, does the same, and $WAVEMESH_DATA points a binary
# at an installed share/wavemesh. Run from the top of the tree.
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-install: $*"; exit 1; }

# PREFIX holds a space: every path of the install is quoted, and nothing
# lands in the checkout.
ls -A >"$tmp/top.before"
make --no-print-directory install PREFIX="$tmp/pre fix" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "make install PREFIX='<folder>/pre fix' failed"; }
ls -A | cmp -s - "$tmp/top.before" ||
    fail "make install left these in the checkout: $(ls -A | comm -13 "$tmp/top.before" - | tr '\n' ' ')"
for f in bin/wavemesh share/wavemesh/firmware/leaf.bin share/wavemesh/firmware/leaf.elf \
         share/wavemesh/sw/collectives/test.rows share/wavemesh/sw/collectives/bench.layout \
         share/wavemesh/waves/tutorial.gtkw share/doc/wavemesh/README.md share/doc/wavemesh/docs/waves.md; do
    [ -e "$tmp/pre fix/$f" ] || fail "make install did not install $f"
done
if command -v mpicc >/dev/null 2>&1; then
    [ -e "$tmp/pre fix/lib/wavemesh/wavemesh-mpi.so" ] || fail "make install did not install the MPI plugin"
fi
# moved: the installed tree copied elsewhere, the original gone
cp -a "$tmp/pre fix" "$tmp/moved" && rm -rf "$tmp/pre fix"
mkdir "$tmp/elsewhere"

# The commands, run from $tmp/elsewhere; $1 the binary, $2 the share folder.
cat >"$tmp/rows.sh" <<'EOS'
cd "$3" || exit 1
"$1" rows "$2/sw/collectives/test.rows" --pe core >"$3/rows.out" 2>&1 || { cat "$3/rows.out"; exit 1; }
grep -q ' PASS tutorial ' "$3/rows.out" || { cat "$3/rows.out"; exit 1; }
! grep -q FAIL "$3/rows.out" || { cat "$3/rows.out"; exit 1; }
"$1" regress --quick --only tutorial >"$3/regress.out" 2>&1 || { cat "$3/regress.out"; exit 1; }
EOS
run_away() {
    # with the checkout out of reach where a mount namespace can be had
    if unshare -m --propagation private true 2>/dev/null; then
        unshare -m --propagation private sh -c 'mount -t tmpfs none "$0" && [ ! -e "$0/sw" ] && sh "$@"' \
            "$top" "$tmp/rows.sh" "$@"
    else
        echo "check-install: note: no mount namespace here (unshare): the checkout stays in reach"
        sh "$tmp/rows.sh" "$@"
    fi
}
run_away "$tmp/moved/bin/wavemesh" "$tmp/moved/share/wavemesh" "$tmp/elsewhere" ||
    fail "the installed copy, moved, did not pass the seed's rows on the cores from another folder"

# a moved build tree: the binary, its firmware and the sources' sw/
mkdir -p "$tmp/tree/build" && cp -a "$top/build/wavemesh" "$top/build/firmware" "$tmp/tree/build/" &&
    cp -a "$top/sw" "$tmp/tree/" || fail "cannot copy the build tree"
run_away "$tmp/tree/build/wavemesh" "$tmp/tree" "$tmp/elsewhere" ||
    fail "a moved copy of the build tree did not pass the seed's rows on the cores"

# $WAVEMESH_DATA: a binary alone, its data named by the variable
mkdir "$tmp/alone" && cp "$top/build/wavemesh" "$tmp/alone/" || fail "cannot copy the binary"
WAVEMESH_DATA="$tmp/moved/share/wavemesh" run_away "$tmp/alone/wavemesh" "$tmp/moved/share/wavemesh" "$tmp/elsewhere" ||
    fail "WAVEMESH_DATA did not point the binary at its data"
echo "check-install: installed, moved and run from elsewhere with the checkout out of reach: the seed's rows PASS on the cores"
