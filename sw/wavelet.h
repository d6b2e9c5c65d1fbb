/* wavelet.h: the format of a header wavelet, as the router reads it.
 *
 * Shared by the firmware (sw/mp.h) and the host (csim/fabric/fabric.h): it
 * is a fact of the hardware, so both sides see the one definition. The
 * widths are the router's: COORD_W (rtl/wm_router.v) is WM_COORD_BITS, and
 * the length and the tag share what the coordinates leave of the word
 * (docs/fabric.md, "Wavelets and messages"). */
#ifndef WM_WAVELET_H
#define WM_WAVELET_H

#include <stdint.h>

enum {
    WM_COORD_BITS = 10,
    WM_LEN_BITS   = (32 - 2 * WM_COORD_BITS) / 2,
    WM_TAG_BITS   = 32 - 2 * WM_COORD_BITS - WM_LEN_BITS,
    WM_MESH_MAX   = 1 << WM_COORD_BITS,     /* columns and rows */
    WM_LEN_MAX    = (1 << WM_LEN_BITS) - 1, /* data wavelets per message */
    WM_TAG_MAX    = (1 << WM_TAG_BITS) - 1
};

/* Header wavelet: {col, row, len, tag} from bit 31 down; with 8-bit
 * coordinates {col[31:24], row[23:16], len[15:8], tag[7:0]}. */
static inline uint32_t wm_header(unsigned col, unsigned row, unsigned len, unsigned tag)
{
    return ((uint32_t)(col & (WM_MESH_MAX - 1u)) << (32 - WM_COORD_BITS)) |
           ((uint32_t)(row & (WM_MESH_MAX - 1u)) << (32 - 2 * WM_COORD_BITS)) |
           ((uint32_t)(len & (uint32_t)WM_LEN_MAX) << WM_TAG_BITS) | (uint32_t)(tag & (uint32_t)WM_TAG_MAX);
}
static inline unsigned wm_header_col(uint32_t h) { return (h >> (32 - WM_COORD_BITS)) & (WM_MESH_MAX - 1u); }
static inline unsigned wm_header_row(uint32_t h) { return (h >> (32 - 2 * WM_COORD_BITS)) & (WM_MESH_MAX - 1u); }
static inline unsigned wm_header_len(uint32_t h) { return (h >> WM_TAG_BITS) & (uint32_t)WM_LEN_MAX; }
static inline unsigned wm_header_tag(uint32_t h) { return h & (uint32_t)WM_TAG_MAX; }

#endif
