#!/bin/sh
# check_firmware.sh [ROOT [OUT]]: the firmware under ROOT/sw is
# freestanding. Every .c file compiles with -ffreestanding -nostdlib
# against ROOT/sw and the compiler's own freestanding headers only (no
# libc header, no csim/ include path); the objects, linked together with
# nothing but libgcc, leave undefined only the calls of sw/mp.h (the PE's
# port, which each PE mode implements) and the four functions GCC may call
# even in freestanding code (memcpy, memmove, memset, memcmp).
# Prints each offending file or symbol and exits 1 if there is one.
root=${1:-.}
out=${2:-build/freestanding}
cc=${CC:-cc}
rm -rf "$out" && mkdir -p "$out" || exit 1
flags="-std=c11 -ffreestanding -nostdlib -nostdinc -isystem $($cc -print-file-name=include) -I$root/sw -O2 -Wall -Wextra -Wshadow -Werror"
bad=0
objs=""
# sw/rv32 is the core's runtime (it implements sw/mp.h): `make firmware`
# builds it with the cross-compiler.
for f in $(cd "$root" && find sw -path sw/rv32 -prune -o -name '*.c' -print | sort); do
    o="$out/$(echo "$f" | tr / _).o"
    if ! $cc $flags -c "$root/$f" -o "$o" 2>"$o.log"; then
        echo "$f: does not compile freestanding:"
        sed 's/^/    /' "$o.log" | head -5
        bad=1
    fi
    objs="$objs $o"
done
[ $bad -eq 0 ] || exit 1
$cc -nostdlib -r -o "$out/firmware.o" $objs -lgcc || exit 1
undefined=$(nm -u "$out/firmware.o" | awk '{ print $2 }' | grep -v -E '^(wm_mp_[a-z_]+|memcpy|memmove|memset|memcmp)$')
if [ -n "$undefined" ]; then
    for s in $undefined; do
        echo "firmware calls $s, which a PE does not have (only sw/mp.h and its own memory)"
    done
    exit 1
fi
echo "firmware: $(echo $objs | wc -w) files freestanding, undefined only: $(nm -u "$out/firmware.o" | awk '{ print $2 }' | tr '\n' ' ')"
