# stepi on one of the four leaves that stand at wm_kernel_leaf's first
# instruction, for tests/check_gdb.sh: thread 1's stop is reported, 2, 3
# and 4 are held there; `thread 3` + `stepi` moves thread 3 by one
# instruction and leaves 2 and 4 where they stand, whose stops the next
# two `continue`s report.
set pagination off
set confirm off
monitor image leaf
break wm_kernel_leaf
continue
thread 3
set $pc0 = $pc
stepi
printf "thread %d stepi from %#x to %#x\n", $_thread, $pc0, $pc
monitor threads
continue
continue
delete
continue
