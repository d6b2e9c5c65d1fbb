#!/bin/sh
# check_layers.sh [ROOT]: no file under ROOT/csim includes a header of a
# higher layer (csim/README.md).
# Prints each offending line as FILE:LINE: and exits 1 if there is one.
root=${1:-.}
rank() {
    case $1 in
    cli) echo 8 ;; regress) echo 7 ;; gs | profile | debug) echo 6 ;; run | traffic) echo 5 ;;
    mpi) echo 4 ;; waves) echo 3 ;; fabric) echo 2 ;; core) echo 1 ;; *) echo 0 ;;
    esac
}
bad=0
for f in $(cd "$root" && find csim -name '*.[ch]' -o -name '*.cpp' | sort); do
    own=$(echo "$f" | cut -d/ -f2)
    mine=$(rank "$own")
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/' "$root/$f" | while IFS= read -r line; do
        inc=$(echo "$line" | sed 's/.*"\([a-z_]*\)\/.*/\1/')
        [ -d "$root/csim/$inc" ] || continue
        theirs=$(rank "$inc")
        if [ "$theirs" -gt "$mine" ] || { [ "$theirs" -eq "$mine" ] && [ "$inc" != "$own" ]; }; then
            echo "$f:${line%%:*}: layer $own includes $inc, which is not below it"
        fi
    done
done > "${TMPDIR:-/tmp}/wm_layers.$$"
if [ -s "${TMPDIR:-/tmp}/wm_layers.$$" ]; then
    cat "${TMPDIR:-/tmp}/wm_layers.$$"
    bad=1
else
    echo "layers: every include goes down"
fi
rm -f "${TMPDIR:-/tmp}/wm_layers.$$"
exit $bad
