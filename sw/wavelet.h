/* wavelet.h: the format of a header wavelet, as the router reads it.
 *
 * Shared by the firmware (sw/mp.h) and the host (csim/fabric/fabric.h): it
 * is a fact of the hardware, so both sides see the one definition. */
#ifndef WM_WAVELET_H
#define WM_WAVELET_H

#include <stdint.h>

enum {
    WM_MESH_MAX = 256, /* columns and rows: 8-bit coordinates */
    WM_LEN_MAX  = 255  /* data wavelets per message */
};

/* Header wavelet: {col[31:24], row[23:16], len[15:8], tag[7:0]}. */
static inline uint32_t wm_header(unsigned col, unsigned row, unsigned len, unsigned tag)
{
    return ((uint32_t)(col & 0xffu) << 24) | ((uint32_t)(row & 0xffu) << 16) |
           ((uint32_t)(len & 0xffu) << 8) | (uint32_t)(tag & 0xffu);
}
static inline unsigned wm_header_col(uint32_t h) { return (h >> 24) & 0xffu; }
static inline unsigned wm_header_row(uint32_t h) { return (h >> 16) & 0xffu; }
static inline unsigned wm_header_len(uint32_t h) { return (h >> 8) & 0xffu; }
static inline unsigned wm_header_tag(uint32_t h) { return h & 0xffu; }

#endif
