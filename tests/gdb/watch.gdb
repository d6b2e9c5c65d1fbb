# The all-reduce's six leaves export their values in the same cycle, to
# the same address of their own PE blocks, for tests/check_gdb.sh: a
# watchpoint on it stops each leaf in turn, as its own thread, with the
# value it stored (GDB ignores a write that leaves the value as it was:
# the tutorial row's cores store nothing but equal values in one cycle).
set pagination off
set confirm off
watch -l ((wm_pe_block *) 0x5e00)->exports[0]
continue
continue
continue
continue
continue
continue
delete
continue
