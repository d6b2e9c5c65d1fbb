/* start.c: from crt0 to one kernel. Compiled once per kernel with
 * WM_FW_KERNEL naming its function (the Makefile's firmware rule), so each
 * image holds one kernel and what it calls, nothing else. */
#include "mp.h"
#include "rv32/pe_block.h"

#ifndef WM_FW_KERNEL
#error "WM_FW_KERNEL names the kernel this image runs (e.g. wm_kernel_leaf)"
#endif

void WM_FW_KERNEL(wm_mp *mp);
int wm_rv32_main(void);

int wm_rv32_main(void)
{
    wm_mp *mp = (wm_mp *)(uintptr_t)WM_PE_BLOCK_ADDR;
    if (((const wm_pe_block *)mp)->magic != WM_PE_BLOCK_MAGIC)
        wm_mp_fault(mp, "no PE block at 0x%x: the host did not load this PE", (unsigned)WM_PE_BLOCK_ADDR);
    WM_FW_KERNEL(mp);
    return WM_PE_EXIT_DONE;
}
