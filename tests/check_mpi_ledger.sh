#!/bin/sh
# check_mpi_ledger.sh WAVEMESH: a rank of `mpirun -np 3` killed or stopped
# in the middle of a random campaign. Every scenario of the campaign must
# end in exactly one state, passed, failed, lost or not run, the same in
# the output and in the JUnit file, none outside the campaign's range; the
# job must end, and no process of it survive 30 s after mpirun returns:
#   - rank 2 killed (SIGKILL): Open MPI ends the job;
#   - rank 2 killed under --enable-recovery: the campaign goes on without
#     it, and the live ranks must not wait for it in MPI_Finalize;
#   - rank 2 stopped (SIGSTOP) under --enable-recovery: --rank-timeout
#     declares it dead, and the job must not wait for it at its end.
# Skipped, with a note, where mpirun is not installed.
W=${1:-build/wavemesh}
command -v mpirun >/dev/null 2>&1 || { echo "check-mpi-ledger: note: no mpirun here: skipped"; exit 0; }
command -v python3 >/dev/null 2>&1 || { echo "check-mpi-ledger: note: no python3 here: skipped"; exit 0; }
tmp=$(mktemp -d)
stray() { pgrep -f -- "$tmp/" | grep -vx "$$"; }
trap 'for p in $(stray); do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
fail() { echo "check-mpi-ledger: $*"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
N=1000
SEED=9

# The pid of rank 2 itself (not its forked scenario process) of the job
# whose command line holds $1.
rank2() {
    for p in $(pgrep -f -- "$1"); do
        tr '\0' '\n' 2>/dev/null <"/proc/$p/environ" | grep -qx OMPI_COMM_WORLD_RANK=2 || continue
        pp=$(ps -o ppid= "$p" | tr -d ' ')
        tr '\0' '\n' 2>/dev/null <"/proc/$pp/environ" | grep -qx OMPI_COMM_WORLD_RANK=2 && continue
        echo "$p"
        return
    done
}

# NAME SIGNAL torn|whole MPIRUN-OPTIONS...: the campaign, rank 2
# signalled once a scenario has passed, then the ledger and the processes
# checked. torn: mpirun ends the job and stops reading standard output, so
# lines may be missing from it (never wrong); the JUnit file and the
# summary hold every scenario.
case_() {
    name=$1 sig=$2 torn=$3
    shift 3
    xml="$tmp/$name.xml"
    timeout 100 mpirun -np 3 --oversubscribe "$@" "$W" regress --random $N --seed $SEED --max-side 8 \
        --max-core-side 3 --rank-timeout 2 --junit "$xml" >"$tmp/$name.txt" 2>"$tmp/$name.err" &
    job=$!
    victim=
    for i in $(seq 200); do
        sleep 0.1
        [ -n "$victim" ] || victim=$(rank2 "$xml")
        [ -n "$victim" ] && grep -q '^PASS' "$tmp/$name.txt" && break
    done
    [ -n "$victim" ] || fail "$name: no rank 2 to signal"
    kill -"$sig" "$victim"
    wait $job
    status=$?
    [ "$status" -ne 124 ] || fail "$name: mpirun still ran 100 s after rank 2 got SIG$sig"
    # under --enable-recovery Open MPI 4.1's mpirun exits 0 whatever the
    # ranks' status (docs/campaigns.md): the summary says what was lost
    [ "$status" -ne 0 ] || [ "$torn" = whole ] || fail "$name: rank 2 got SIG$sig and the campaign exited 0"
    for i in $(seq 30); do
        [ -z "$(stray)" ] && break
        sleep 1
    done
    [ -z "$(stray)" ] || { ps -o pid,stat,args -p "$(stray | tr '\n' ',' | sed 's/,$//')"; fail "$name: processes of the job survive 30 s after mpirun returned"; }
    python3 tests/check_ledger.py "$tmp/$name.txt" "$tmp/$name.err" "$xml" "$SEED" "$N" "$torn" ||
        fail "$name: the ledger above"
}

case_ killed KILL torn
case_ recovery-killed KILL whole --enable-recovery
case_ recovery-stopped STOP whole --enable-recovery
echo "check-mpi-ledger: a rank killed, killed under --enable-recovery, stopped: every scenario once in the output and the JUnit file, no process left"
