#!/bin/sh
# check_help.sh ROOT: the Makefile's help is complete (make check-help).
# Every target named on a rule line of ROOT/Makefile or ROOT/mk/*.mk has a
# help line, `NAME: ... ## what it does`, which make help lists; and every
# mk/*.mk is included by the Makefile. Targets made by a template (lint/JOB)
# or named by a variable (the files under $(BUILD)) are not named on a rule
# line and need none.
root=${1:-.}
cd "$root" || exit 2
status=0
for f in mk/*.mk; do
    grep -q "^include $f\( \|$\)" Makefile || { echo "check-help: $f is not included by the Makefile"; status=1; }
done
files="Makefile $(ls mk/*.mk)"
# The names before a rule's ':' (not ':=' or '::='): lowercase words.
named=$(grep -h -E '^[a-z][a-z0-9_%-]*( +[a-z][a-z0-9_%-]*)* *:([^:=]|$)' $files | sed 's/:.*//' | tr ' ' '\n' | sort -u)
helped=$(grep -h -E '^[a-z][a-z0-9_%-]*:.*## ' $files | sed 's/:.*//' | sort -u)
for t in $named; do
    echo "$helped" | grep -qx -e "$t" || { echo "check-help: $t has no help line (## on its rule line)"; status=1; }
done
[ $status -eq 0 ] && echo "check-help: $(echo "$named" | wc -l) targets, each with its help line"
exit $status
