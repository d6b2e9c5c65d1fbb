# A breakpoint for thread 3 alone where the four leaves stop in the same
# cycle, for tests/check_gdb.sh: the server reports each leaf's hit with
# its own thread, GDB resumes the three others silently, and thread 3
# stops once.
set pagination off
set confirm off
monitor image leaf
break wm_kernel_leaf thread 3
continue
printf "stopped: thread %d at %#x\n", $_thread, $pc
continue
