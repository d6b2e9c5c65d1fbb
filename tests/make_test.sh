#!/bin/sh
# make_test.sh MAKE "STEPS" "BESIDE" KEEP_GOING "BUILD_JOBS": make test's
# steps, each a make of its own, in order; a step named in BESIDE runs at
# the same time as the step before it (each is one tool on files of its
# own: the two cores share the work), its output shown once both are done.
# `all` gets BUILD_JOBS. Without KEEP_GOING the first failure ends the run;
# with it every step runs. Exits 1 if a step failed.
make=$1 steps=$2 beside=$3 keep=$4 jobs=$5
fail=0
set -- $steps
while [ $# -gt 0 ]; do
    step=$1
    shift
    j=
    [ "$step" = all ] && j=$jobs
    next=${1:-}
    case " $beside " in
    *" $next "*)
        [ -n "$next" ] || { echo "make_test.sh: BESIDE names no step" >&2; exit 2; }
        shift
        log=$(mktemp)
        $make --no-print-directory "$next" >"$log" 2>&1 &
        pid=$!
        st=0
        $make --no-print-directory $j "$step" || st=1
        wait "$pid" || st=1
        cat "$log"
        rm -f "$log"
        ;;
    *)
        st=0
        $make --no-print-directory $j "$step" || st=1
        ;;
    esac
    if [ $st -ne 0 ]; then
        fail=1
        [ -n "$keep" ] || break
    fi
done
exit $fail
