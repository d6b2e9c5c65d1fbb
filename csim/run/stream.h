/* stream.h: layouts of firmware traffic, the stream kernel on every PE of
 * a mesh (sw/traffic/stream.c), with what each PE must receive worked out
 * on the host by the kernel's own generator. `wavemesh traffic --pe` and
 * the regression's stream scenarios run them. */
#ifndef WM_STREAM_H_HOST
#define WM_STREAM_H_HOST

#include "run/layout.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    WM_STREAM_SHIFT = 0,    /* every message of (x, y) to (x + dx, y + dy), wrapped */
    WM_STREAM_UNIFORM,      /* each message to a PE drawn uniformly (self included) */
    WM_STREAM_TRANSPOSE     /* to (y, x); square meshes */
} wm_stream_pattern;

typedef struct {
    unsigned w, h;
    wm_stream_pattern pattern;
    unsigned dx, dy;        /* WM_STREAM_SHIFT */
    unsigned count, len;    /* messages a PE sends, data wavelets each (0..WM_LEN_MAX) */
    unsigned gap;           /* cycles between message starts, 0: back to back */
    uint32_t seed;          /* PE (x, y)'s generator starts at seed + 1000 y + x */
    bool stamp;             /* the first data wavelet carries the send time */
} wm_stream_spec;

/* The expectation for PE (x, y): messages it receives, and the sum of
 * their data (meaningless with stamp). */
typedef struct {
    unsigned messages;
    uint32_t sum;
} wm_stream_expect;

/* The layout, and per PE (row-major, w * h) what it must receive. NULL
 * with the reason in err. The caller frees *expect and destroys the layout. */
wm_layout *wm_stream_layout(const wm_stream_spec *spec, wm_stream_expect **expect, char *err, size_t errn);

#endif
