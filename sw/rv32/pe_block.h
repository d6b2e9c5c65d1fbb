/* pe_block.h: a PE core's memory, as the host's loader writes it and the
 * firmware finds it (docs/core.md, "The PE image").
 *
 *   0x0000 .. end        the kernel's firmware: build/firmware/KERNEL.bin,
 *                        code, read-only data, data; then .bss
 *   end .. 0x5E00        the stack, growing down from 0x5E00 (at least
 *                        WM_PE_STACK_MIN bytes; the linker script refuses
 *                        firmware that leaves less)
 *   0x5E00 .. 0x6000     the PE block below: parameters in, results out
 *   0x6000 .. 0x10000    the data memory of sw/mp.h (wm_mp_mem), loaded
 *                        by the host before the run and read after it
 *
 * Everything is resolved when the image is built: the loader writes each
 * parameter's value at its index in the kernel's parameter list, and reads
 * each result at its index in the kernel's exports list. No name is looked
 * up at run time. Shared by the firmware (sw/rv32/) and the host loader;
 * the layout is the same on RV32 (ilp32) and the host (int64_t aligned to
 * 8 on both). */
#ifndef WM_PE_BLOCK_H
#define WM_PE_BLOCK_H

#include "mp.h"

#include <stdint.h>

enum {
    WM_PE_DATA_ADDR   = WM_PE_MEM_BYTES - WM_PE_DATA_BYTES, /* 0x6000 */
    WM_PE_BLOCK_BYTES = 512,
    WM_PE_BLOCK_ADDR  = WM_PE_DATA_ADDR - WM_PE_BLOCK_BYTES, /* 0x5E00: also the initial stack pointer */
    WM_PE_STACK_MIN   = 2048,
    WM_PE_CODE_MAX    = WM_PE_BLOCK_ADDR - WM_PE_STACK_MIN,  /* the largest firmware image, bytes */
    WM_PE_PARAMS_MAX  = 24,
    WM_PE_EXPORTS_MAX = 24,
    WM_PE_FAULT_ARGS  = 6
};

#define WM_PE_BLOCK_MAGIC 0x45504d57u /* "WMPE" little-endian */

/* Exit codes the firmware stores to the EXIT register. */
enum {
    WM_PE_EXIT_DONE  = 0,   /* the kernel returned */
    WM_PE_EXIT_FAULT = 0xFA /* wm_mp_fault: the block's fault record says why */
};

typedef struct {
    uint32_t magic;          /* WM_PE_BLOCK_MAGIC, written by the loader */
    uint32_t nparams;        /* entries of params the loader wrote */
    uint32_t nexports;       /* entries of the kernel's exports list */
    uint32_t exported;       /* bit i: the kernel set exports[i] */
    uint32_t fault_fmt;      /* wm_mp_fault: the format string's address in this memory */
    uint32_t fault_nargs;
    uint32_t fault_arg[WM_PE_FAULT_ARGS]; /* %u %d %x: the value; %s: the string's address */
    int64_t params[WM_PE_PARAMS_MAX];
    int64_t exports[WM_PE_EXPORTS_MAX];
} wm_pe_block;

_Static_assert(sizeof(wm_pe_block) <= WM_PE_BLOCK_BYTES, "the PE block outgrew its place");
_Static_assert(WM_PE_BLOCK_ADDR == 0x5E00 && WM_PE_CODE_MAX == 0x5600,
               "sw/rv32/crt0.S and sw/rv32/link.ld hold these addresses as numbers");

#endif
