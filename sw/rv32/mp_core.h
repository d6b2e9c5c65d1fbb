/* mp_core.h: what a PE core's runtime is made of under sw/mp.h: the PE
 * registers, the PE block at its fixed address, the publication of a
 * result, and the paths that are calls rather than inlined (mp_core.c:
 * those that end in a fault, a receive of another length than the one
 * expected, parameters and results at an index computed at run time).
 * The inlined calls (mp_inline.h) are built on it; so is mp_core.c.
 * Included through sw/mp.h (mp.h includes mp_inline.h last). */
#ifndef WM_MP_CORE_H
#define WM_MP_CORE_H

#include "mp.h"
#include "rv32/pe_block.h"

#define WM_REG(off) (*(volatile uint32_t *)(uintptr_t)(0x80000000u + (off)))
enum { WM_REG_TX = 0x00, WM_REG_RX = 0x04, WM_REG_QUEUES = 0x08, WM_REG_TSC_LO = 0x0C, WM_REG_TSC_HI = 0x10,
       WM_REG_EXIT = 0x20 };

/* The PE block at its fixed address: an access to it is one load or store
 * off a constant, whatever mp the kernel holds. */
#define WM_PE_BLOCK ((wm_pe_block *)(uintptr_t)WM_PE_BLOCK_ADDR)

/* A result is published: its value stored, then its bit in exported, so
 * that a run stopped at any cycle reads either no result or this one. The
 * host reads the block between two cycles and the core retires its stores
 * in program order, so the order to keep is the compiler's: the empty asm
 * reads the stored value (its store comes first) and hands on the flags
 * (the flags' store comes after). It is no instruction; the bits of
 * several results in a row are set by one `or` each instead of one for
 * all, and the flags still stored once, after all their values (docs/core.md,
 * "What a message costs"). Inlined even where the kernel is compiled for
 * size, so that the calibration kernels time what the others run. */
__attribute__((always_inline)) static inline void wm_rv32_publish(unsigned index, int64_t value)
{
    WM_PE_BLOCK->exports[index] = value;
    uint32_t flags = WM_PE_BLOCK->exported;
    __asm__("" : "+r"(flags) : "m"(WM_PE_BLOCK->exports[index]));
    WM_PE_BLOCK->exported = flags | 1u << index;
}

/* wm_mp_header refused a field: which one, for the message. */
_Noreturn void wm_rv32_header_fault(wm_mp *mp, int32_t col, int32_t row, unsigned len, unsigned tag);
/* A receive of any other length than the one the inline path takes: the
 * header is popped, the data follows. */
uint32_t wm_rv32_recv_rest(wm_mp *mp, uint32_t header, uint32_t *data, unsigned max);
/* A parameter or a result at an index computed at run time, checked
 * against what the loader wrote. */
int64_t wm_rv32_param_checked(wm_mp *mp, unsigned index);
void wm_rv32_export_checked(wm_mp *mp, unsigned index, int64_t value);

#endif
