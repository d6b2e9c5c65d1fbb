#!/bin/sh
# The constrained-random regression catches a planted fault, shrinks the
# failing scenario, and the command it prints reproduces the smallest
# version alone: run from the top of the tree, with build/wavemesh built.
#   sh tests/check_random_shrink.sh [WAVEMESH]
W=${1:-build/wavemesh}
out=$($W regress --random 12 --seed 2 --max-side 6 --pe native --perturb rr-reverse:1,1 --jobs 2)
status=$?
if [ $status -ne 1 ]; then
    echo "check-random-shrink: the reversed arbiter at (1,1) was not caught (exit $status)"
    echo "$out"
    exit 1
fi
smallest=$(echo "$out" | sed -n 's/^  smallest failing version ([1-9][0-9]* steps, [0-9]* runs): FAIL shrunk //p' | head -n 1)
command=$(echo "$out" | sed -n 's/^  reproduce: //p' | head -n 1)
if [ -z "$smallest" ] || [ -z "$command" ]; then
    echo "check-random-shrink: no shrunk failure and reproduce line in:"
    echo "$out"
    exit 1
fi
case "$command" in
    "$W regress --scenario "*" --perturb rr-reverse:1,1") ;;
    *) echo "check-random-shrink: unexpected command: $command"; exit 1 ;;
esac
# The printed command, as printed: it names the binary as it was invoked.
again=$(eval "$command" | head -n 1)
got=$(echo "$again" | sed -n 's/^FAIL scenario //p' | sed 's/ | [^|]* regress --scenario .*//')
if [ "$got" != "$smallest" ]; then
    echo "check-random-shrink: the printed command does not reproduce the smallest failure"
    echo "  shrunk:     $smallest"
    echo "  reproduced: $again"
    exit 1
fi
echo "check-random-shrink: caught, shrunk, and reproduced by: $command"
