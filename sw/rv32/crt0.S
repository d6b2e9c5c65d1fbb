/* crt0.S: the first instructions of every PE core (docs/core.md).
 *
 * Reset fetches address 0. The stack grows down from the PE block
 * (WM_PE_BLOCK_ADDR, sw/rv32/pe_block.h); gp points into the small data
 * for gp-relative addressing; .bss is cleared in case the RAM held
 * something (both models start it zeroed, a real one might not). The
 * kernel's return value, 0, goes to the EXIT register, which halts the
 * core.
 *
 * The call frame information says that _start has no caller (its return
 * address is undefined), so that a debugger's backtrace ends here
 * (docs/debugging.md) instead of taking the return address a callee
 * saved, which points back into _start, for a frame of its caller. It is
 * debug information only (.debug_frame): the image is the same. */
    .cfi_sections .debug_frame
    .section .text.start, "ax"
    .globl _start
    .type _start, @function
_start:
    .cfi_startproc
    .cfi_undefined ra
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    li      sp, 0x5E00
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:  call    wm_rv32_main
    li      t0, 0x80000000
    sw      a0, 0x20(t0)
3:  j       3b
    .cfi_endproc
    .size _start, . - _start
