/* mp_core.c: sw/mp.h on a PE core, the part that is not inlined
 * (mp_core.h; sw/rv32/mp_inline.h holds the rest): the paths that end in
 * a firmware fault, a receive of another length than the kernel expects,
 * parameters and results at an index computed at run time, and
 * wm_mp_fault. The same API the native mode implements with the
 * scheduler, so every kernel compiles unchanged for both; here the cycles
 * are the core's own: a TX store stalls while TX is full and an RX load
 * while RX is empty. Parameters and results live in the PE block the
 * loader wrote (sw/rv32/pe_block.h). */
#include "mp.h"
#include "rv32/mp_core.h"

#include <stdarg.h>

void wm_rv32_header_fault(wm_mp *mp, int32_t col, int32_t row, unsigned len, unsigned tag)
{
    if (col < 0 || col >= WM_MESH_MAX || row < 0 || row >= WM_MESH_MAX)
        wm_mp_fault(mp, "header to (%d,%d): coordinates outside 0..%d", (int)col, (int)row, WM_MESH_MAX - 1);
    if (len > WM_LEN_MAX) wm_mp_fault(mp, "header with %u data wavelets (at most %d)", len, WM_LEN_MAX);
    wm_mp_fault(mp, "header with tag %u (the header's tag field holds 0..%d)", tag, WM_TAG_MAX);
}

uint32_t wm_rv32_recv_rest(wm_mp *mp, uint32_t header, uint32_t *data, unsigned max)
{
    const unsigned len = wm_header_len(header);
    for (unsigned i = 0; i < len; i++) {
        const uint32_t w = WM_REG(WM_REG_RX);
        if (i < max) data[i] = w;
    }
    if (len > max) wm_mp_fault(mp, "received a message of %u data wavelets, expected at most %u", len, max);
    return header;
}

int64_t wm_rv32_param_checked(wm_mp *mp, unsigned index)
{
    if (index >= WM_PE_BLOCK->nparams)
        wm_mp_fault(mp, "parameter %u read, but the loader wrote %u", index, (unsigned)WM_PE_BLOCK->nparams);
    return WM_PE_BLOCK->params[index];
}

void wm_rv32_export_checked(wm_mp *mp, unsigned index, int64_t value)
{
    if (index >= WM_PE_BLOCK->nexports)
        wm_mp_fault(mp, "result %u exported, but the kernel's exports list has %u", index,
                    (unsigned)WM_PE_BLOCK->nexports);
    wm_rv32_publish(index, value);
}

/* The host formats the message: the record holds the format string's
 * address and each argument as a word, in the order the format uses them. */
void wm_mp_fault(wm_mp *mp, const char *fmt, ...)
{
    (void)mp;
    wm_pe_block *b = WM_PE_BLOCK;
    va_list ap;
    va_start(ap, fmt);
    unsigned n = 0;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%' || !p[1]) continue;
        p++;
        if (*p == '%') continue;
        const uint32_t arg = *p == 's' ? (uint32_t)(uintptr_t)va_arg(ap, const char *) : va_arg(ap, unsigned);
        if (n < WM_PE_FAULT_ARGS) b->fault_arg[n++] = arg;
    }
    va_end(ap);
    b->fault_nargs = n;
    b->fault_fmt = (uint32_t)(uintptr_t)fmt;
    /* The record is plain memory at a constant address: without the fence
     * the compiler may store it after the EXIT store, which ends the run. */
    __asm__ volatile("" ::: "memory");
    WM_REG(WM_REG_EXIT) = WM_PE_EXIT_FAULT;
    for (;;) {
    }
}
