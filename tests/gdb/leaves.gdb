# The tutorial row's four leaves reach wm_kernel_leaf in the same cycle:
# four `continue`s stop each once, each as its own thread, for
# tests/check_gdb.sh (which connects first: `target remote`). The
# backtrace of the last ends at _start, the cores' entry.
set pagination off
set confirm off
monitor image leaf
break wm_kernel_leaf
continue
continue
continue
continue
bt
delete
continue
