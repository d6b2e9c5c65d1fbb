# The session of docs/debugging.md on the tutorial row's root, for
# tests/check_gdb.sh (which connects first: `target remote`).
set pagination off
set confirm off
info threads
monitor cycle
# the root's node kernel, after each child's message arrived
break node.c:46 thread 7
continue
printf "value=%u\n", value
watch -l value thread 7
continue
delete 2
continue
printf "value=%u right=%u\n", value, right
monitor links root 60
set $pc0 = $pc
stepi
printf "stepi from %#x to %#x\n", $pc0, $pc
monitor cycle
monitor queues root
delete
continue
