# The session of docs/debugging.md on the tutorial row's root, for
# tests/check_gdb.sh (which connects first: `target remote`).
set pagination off
set confirm off
info threads
monitor cycle
# the root's node kernel, after each child's message arrived: `next` over
# its attribution, to the loop's increment, where left and right are live
break node.c:46 thread 7
continue
next
printf "left=%u right=%u\n", left, right
continue
next
printf "left=%u right=%u\n", left, right
monitor links root 60
set $pc0 = $pc
stepi
printf "stepi from %#x to %#x\n", $pc0, $pc
monitor cycle
monitor queues root
delete
# the total, as the root exports it
watch -l ((wm_pe_block *) mp)->exports[TOTAL] thread 7
continue
delete
continue
