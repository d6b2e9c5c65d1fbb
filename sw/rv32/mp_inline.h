/* mp_inline.h: sw/mp.h on a PE core, inlined into the kernel (docs/core.md,
 * "What a message costs"). Included by sw/mp.h when compiled for the core,
 * never on its own. A call costs the core more than most of these calls'
 * work (a jal and a ret are 4 cycles, the arguments' moves more), so each
 * is a few loads and stores of the PE registers and of the PE block the
 * loader wrote, in the kernel's own code; only the paths that end in a
 * fault, and a receive whose length is not the one expected, are calls
 * (sw/rv32/mp_core.h, which also holds the registers and the block). */
#ifndef WM_MP_INLINE_H
#define WM_MP_INLINE_H

#include "rv32/mp_core.h"

/* A coordinate lies in 0..WM_MESH_MAX - 1 (10 bits), the length and the
 * tag in 0..63 (6 bits each): one unsigned compare of the coordinates' OR
 * and one of the length's and the tag's check them all (a negative
 * coordinate is a large unsigned one); a constant length and tag fold the
 * second away, and the kernel computes in 32 bits. */
_Static_assert(WM_LEN_MAX == WM_TAG_MAX, "one compare checks the length and the tag");

static inline uint32_t wm_mp_header(wm_mp *mp, int32_t col, int32_t row, unsigned len, unsigned tag)
{
    const uint32_t c = (uint32_t)col, r = (uint32_t)row;
    if (__builtin_expect((c | r) > WM_MESH_MAX - 1u || (len | tag) > (unsigned)WM_LEN_MAX, 0))
        wm_rv32_header_fault(mp, col, row, len, tag);
    /* tag's mask is what the compare already proved: it lets the compiler
     * see the length field, so that wm_mp_send of a constant length is
     * straight-line stores (a variable tag costs one instruction). */
    return c << (32 - WM_COORD_BITS) | r << (32 - 2 * WM_COORD_BITS) | len << WM_TAG_BITS | (tag & WM_TAG_MAX);
}

static inline void wm_mp_send(wm_mp *mp, uint32_t header, const uint32_t *data)
{
    (void)mp;
    const unsigned len = wm_header_len(header);
    WM_REG(WM_REG_TX) = header;
#pragma GCC unroll 8
    for (unsigned i = 0; i < len; i++) WM_REG(WM_REG_TX) = data[i];
}

/* The usual receive, a message of exactly max data wavelets (a constant
 * up to 8), pops them inline; any other length goes to the general loop
 * and its fault. */
static inline uint32_t wm_mp_recv(wm_mp *mp, uint32_t *data, unsigned max)
{
    const uint32_t header = WM_REG(WM_REG_RX);
    if (__builtin_constant_p(max) && max <= 8 && __builtin_expect(wm_header_len(header) == max, 1)) {
#pragma GCC unroll 8
        for (unsigned i = 0; i < max; i++) data[i] = WM_REG(WM_REG_RX);
        return header;
    }
    return wm_rv32_recv_rest(mp, header, data, max);
}

/* A timestamp read is a fence for the compiler: no load or store of the
 * kernel's moves across it, so that two reads time what the source puts
 * between them, as natively, and not what the scheduler moved there. */
static inline uint64_t wm_mp_tsc(wm_mp *mp)
{
    (void)mp;
    __asm__ volatile("" ::: "memory");
    const uint32_t lo = WM_REG(WM_REG_TSC_LO); /* latches the high half */
    const uint32_t hi = WM_REG(WM_REG_TSC_HI);
    __asm__ volatile("" ::: "memory");
    return (uint64_t)hi << 32 | lo;
}

static inline void wm_mp_queues(wm_mp *mp, unsigned *tx_room, unsigned *rx_count)
{
    (void)mp;
    const uint32_t q = WM_REG(WM_REG_QUEUES);
    *tx_room = q & 0xffu;
    *rx_count = (q >> 8) & 0xffu;
}

/* A constant index is one of the kernel's own list: the list is written
 * with the index enum's designators ([VAL] = {...}), so it holds every
 * index the kernel names, and the loader wrote every entry of it (a
 * missing parameter is refused before the run, with the layout's line).
 * Only an index computed at run time is checked against what the loader
 * wrote. A value the kernel keeps in 32 bits is one load. */
static inline int64_t wm_mp_param(wm_mp *mp, unsigned index)
{
    if (__builtin_constant_p(index) && index < WM_PE_PARAMS_MAX) return WM_PE_BLOCK->params[index];
    return wm_rv32_param_checked(mp, index);
}

static inline void wm_mp_export(wm_mp *mp, unsigned index, int64_t value)
{
    if (__builtin_constant_p(index) && index < WM_PE_EXPORTS_MAX) {
        wm_rv32_publish(index, value);
        return;
    }
    wm_rv32_export_checked(mp, index, value);
}

static inline uint32_t *wm_mp_mem(wm_mp *mp)
{
    (void)mp;
    return (uint32_t *)(uintptr_t)WM_PE_DATA_ADDR;
}

static inline void wm_mp_push(wm_mp *mp, uint32_t wavelet)
{
    (void)mp;
    WM_REG(WM_REG_TX) = wavelet;
}

static inline uint32_t wm_mp_pop(wm_mp *mp)
{
    (void)mp;
    return WM_REG(WM_REG_RX);
}

static inline uint32_t wm_mp_pop_header(wm_mp *mp)
{
    (void)mp;
    return WM_REG(WM_REG_RX);
}

#endif
