/* mp_core.c: sw/mp.h on a PE core, over the registers of the PE datapath
 * (docs/core.md). The same API the native mode implements with the
 * scheduler, so every kernel compiles unchanged for both; here the cycles
 * are the core's own: a TX store stalls while TX is full and an RX load
 * while RX is empty, so sending and receiving are plain loops of stores
 * and loads, and wm_mp_work is nothing (sw/mp.h: the kernel's compute is its
 * instructions). Parameters and results live in the PE block the loader
 * wrote (sw/rv32/pe_block.h); `mp` points at it. */
#include "mp.h"
#include "rv32/pe_block.h"

#include <stdarg.h>

#define WM_REG(off) (*(volatile uint32_t *)(uintptr_t)(0x80000000u + (off)))
enum { REG_TX = 0x00, REG_RX = 0x04, REG_QUEUES = 0x08, REG_TSC_LO = 0x0C, REG_TSC_HI = 0x10, REG_EXIT = 0x20 };

static wm_pe_block *block(wm_mp *mp) { return (wm_pe_block *)mp; }

/* What the one compare of wm_mp_header refused, out of line. */
static _Noreturn void header_fault(wm_mp *mp, int64_t col, int64_t row, unsigned len, unsigned tag)
{
    if (col < 0 || col >= WM_MESH_MAX || row < 0 || row >= WM_MESH_MAX)
        wm_mp_fault(mp, "header to (%d,%d): coordinates outside 0..%d", (int)col, (int)row, WM_MESH_MAX - 1);
    if (len > WM_LEN_MAX) wm_mp_fault(mp, "header with %u data wavelets (at most %d)", len, WM_LEN_MAX);
    wm_mp_fault(mp, "header with tag %u (the header's tag field holds 0..255)", tag);
}

/* Every field lies in 0..255 (WM_MESH_MAX - 1 = WM_LEN_MAX = 255, the
 * tag's 8 bits), so one compare of the OR of the low words checks them
 * all, the high words' OR another: a negative coordinate has a high word
 * of all ones. No 64-bit compare on a 32-bit core. */
_Static_assert(WM_MESH_MAX == 256 && WM_LEN_MAX == 255, "one compare checks every field of a header");

uint32_t wm_mp_header(wm_mp *mp, int64_t col, int64_t row, unsigned len, unsigned tag)
{
    const uint32_t c = (uint32_t)col, r = (uint32_t)row;
    if ((c | r | len | tag) > 255u || ((uint32_t)((uint64_t)col >> 32) | (uint32_t)((uint64_t)row >> 32)) != 0)
        header_fault(mp, col, row, len, tag);
    return c << 24 | r << 16 | len << 8 | tag;
}

void wm_mp_send(wm_mp *mp, uint32_t header, const uint32_t *data)
{
    (void)mp;
    const unsigned len = wm_header_len(header);
    WM_REG(REG_TX) = header;
    for (unsigned i = 0; i < len; i++) WM_REG(REG_TX) = data[i];
}

uint32_t wm_mp_recv(wm_mp *mp, uint32_t *data, unsigned max)
{
    const uint32_t header = WM_REG(REG_RX);
    const unsigned len = wm_header_len(header);
    for (unsigned i = 0; i < len; i++) {
        const uint32_t w = WM_REG(REG_RX);
        if (i < max) data[i] = w;
    }
    if (len > max) wm_mp_fault(mp, "received a message of %u data wavelets, expected at most %u", len, max);
    return header;
}

uint64_t wm_mp_tsc(wm_mp *mp)
{
    (void)mp;
    const uint32_t lo = WM_REG(REG_TSC_LO); /* latches the high half */
    return (uint64_t)WM_REG(REG_TSC_HI) << 32 | lo;
}

void wm_mp_queues(wm_mp *mp, unsigned *tx_room, unsigned *rx_count)
{
    (void)mp;
    const uint32_t q = WM_REG(REG_QUEUES);
    *tx_room = q & 0xffu;
    *rx_count = (q >> 8) & 0xffu;
}

int64_t wm_mp_param(wm_mp *mp, unsigned index)
{
    if (index >= block(mp)->nparams)
        wm_mp_fault(mp, "parameter %u read, but the loader wrote %u", index, (unsigned)block(mp)->nparams);
    return block(mp)->params[index];
}

void wm_mp_export(wm_mp *mp, unsigned index, int64_t value)
{
    if (index >= block(mp)->nexports)
        wm_mp_fault(mp, "result %u exported, but the kernel's exports list has %u", index,
                    (unsigned)block(mp)->nexports);
    block(mp)->exports[index] = value;
    block(mp)->exported |= 1u << index;
}

uint32_t *wm_mp_mem(wm_mp *mp)
{
    (void)mp;
    return (uint32_t *)(uintptr_t)WM_PE_DATA_ADDR;
}

void wm_mp_push(wm_mp *mp, uint32_t wavelet)
{
    (void)mp;
    WM_REG(REG_TX) = wavelet;
}

uint32_t wm_mp_pop(wm_mp *mp)
{
    (void)mp;
    return WM_REG(REG_RX);
}

uint32_t wm_mp_pop_header(wm_mp *mp)
{
    (void)mp;
    return WM_REG(REG_RX);
}

/* The host formats the message: the record holds the format string's
 * address and each argument as a word, in the order the format uses them. */
void wm_mp_fault(wm_mp *mp, const char *fmt, ...)
{
    wm_pe_block *b = block(mp);
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
    WM_REG(REG_EXIT) = WM_PE_EXIT_FAULT;
    for (;;) {
    }
}
