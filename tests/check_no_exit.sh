#!/bin/sh
# check_no_exit.sh [ROOT]: library code (ROOT/csim but cli/) never ends the
# process; it returns its errors to the caller (csim/README.md, "Errors").
# Prints each exit(, _exit(, _Exit(, quick_exit(, abort( or std::abort(
# outside the allow-list below as FILE:LINE: and exits 1 if there is one.
# check_no_exit.sh --self-test: plants a violation in a copy of csim/ (and
# one in cli/, which is allowed) and expects exactly the planted line.
#
# The allow-list: FILE|TEXT ON THE LINE|why it may end the process.
ALLOWED='csim/core/xalloc.c|exit(1);|the checked allocation helper: running out of memory is not input, and no caller could do more than print it and stop
csim/regress/campaign.c|_exit(CHILD_FAIL);|a forked process of a campaign ends with its verdict; the parent reads it
csim/regress/campaign.c|_exit(CHILD_PASS); /* the end */|a forked process of a campaign ends when its parent closes its socket
csim/regress/campaign.c|_exit(CHILD_INTERRUPTED);|a forked process of a campaign ends after an interrupted item, its answer sent
csim/waves/waves_read.c|static void child_exit(void) { _exit(3); }|the forked FST reader child: the FST library calls exit() on a bad file, and the child must not run its parent'"'"'s exit handlers
csim/waves/waves_read.c|_exit(out && sent|the forked FST reader child ends with its result sent down the pipe
csim/waves/outfile.c|_exit(1);|the SIGBUS handler of a full disk under a memory-mapped dump: _exit is all a signal handler may call
csim/waves/interrupt.c|_exit(128 + sig);|the SIGINT/SIGTERM handler of a command still setting up, which no loop watches: _exit is all a signal handler may call
csim/run/stacks.c|_exit(1);|the SIGSEGV handler of a native PE'"'"'s stack overflow: _exit is all a signal handler may call
csim/waves/gnuplot.c|_exit(126);|the forked child that becomes gnuplot, its descriptors not set: it must not run its parent'"'"'s exit handlers
csim/waves/gnuplot.c|_exit(127);|the forked child that could not start gnuplot: 127, as a shell says a command is missing'

scan() {
    root=$1
    (cd "$root" && find csim -path csim/cli -prune -o \( -name '*.[ch]' -o -name '*.cpp' -o -name '*.hpp' \) -print | sort) |
    while IFS= read -r f; do
        awk -v file="$f" -v allowed="$ALLOWED" '
        BEGIN {
            n = split(allowed, rows, "\n")
            for (i = 1; i <= n; i++) {
                split(rows[i], part, "|")
                afile[i] = part[1]; atext[i] = part[2]
            }
        }
        {
            line = $0
            # comments say what the code does not: drop them
            if (incomment) {
                if (index(line, "*/") == 0) next
                line = substr(line, index(line, "*/") + 2); incomment = 0
            }
            while ((s = index(line, "/*")) > 0) {
                rest = substr(line, s + 2)
                e = index(rest, "*/")
                if (e == 0) { line = substr(line, 1, s - 1); incomment = 1; break }
                line = substr(line, 1, s - 1) substr(rest, e + 2)
            }
            if ((s = index(line, "//")) > 0) line = substr(line, 1, s - 1)
            gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
            if (line !~ /(^|[^A-Za-z0-9_])(std::)?(exit|_exit|_Exit|quick_exit|abort)[ \t]*\(/) next
            for (i = 1; i <= n; i++)
                if (afile[i] == file && index($0, atext[i]) > 0) next
            printf "%s:%d: ends the process: %s\n", file, FNR, $0
        }' "$root/$f"
    done
}

if [ "$1" = "--self-test" ]; then
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/wm_no_exit.XXXXXX") || exit 1
    trap 'rm -rf "$tmp"' EXIT
    cp -r csim "$tmp/"
    printf '\nvoid wm_planted(void) { abort(); }\n' >> "$tmp/csim/run/tree.c"
    planted=$(wc -l < "$tmp/csim/run/tree.c")
    printf '\nvoid wm_planted_cli(void) { exit(2); }\n' >> "$tmp/csim/cli/main.c"
    got=$(scan "$tmp")
    want="csim/run/tree.c:$planted: ends the process: void wm_planted(void) { abort(); }"
    if ! echo "$got" | grep -qxF "$want" || echo "$got" | grep -q '^csim/cli/'; then
        echo "check_no_exit: the self-test expected"
        echo "  $want"
        echo "but the check printed"
        echo "$got" | sed 's/^/  /'
        exit 1
    fi
    echo "no-exit: a planted abort() is reported, cli/ is left alone"
    exit 0
fi

out=$(scan "${1:-.}")
if [ -n "$out" ]; then
    echo "$out"
    echo "check_no_exit: library code must return its errors (csim/README.md, \"Errors\"); allow-list in $0"
    exit 1
fi
echo "no-exit: no library code ends the process but the allowed (tests/check_no_exit.sh)"
