/* fabric_rtl.h: what the rtl backend offers beyond the ops table: dumps.
 *
 * Verilator writes the dump. A model built with tracing is slower even when
 * it dumps nothing, so the tile is Verilated three times (no trace, FST,
 * VCD) and a traced fabric uses a traced model only for the tiles inside its
 * rectangle: the rest run exactly as in an untraced fabric. What a tile
 * dumps is rtl/wm_waves.v, under the top scope the caller names (a layout
 * instance such as "l0", or "tile_X_Y"). Extra signals, the firmware's state
 * and results, are values in C memory that Verilator dumps beside the
 * tiles' signals through the same writer.
 *
 * Time in the dump is the fabric cycle, 1 ns per cycle: the caller dumps
 * once per cycle, after the edge, at the cycles it wants.
 */
#ifndef WM_FABRIC_RTL_H
#define WM_FABRIC_RTL_H

#include "fabric/fabric.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One signal the dump takes from C memory. */
typedef struct {
    const char *scope;     /* dot-separated, e.g. "l0.fw" */
    const char *name;      /* e.g. "state" */
    unsigned bits;         /* 1..64 */
    const uint64_t *value; /* read at every dump */
    const bool *known;     /* NULL: always; else the signal is x until *known, from then on value */
} wm_rtl_extra_signal;

typedef struct {
    const char *path;               /* the dump file */
    bool vcd;                       /* VCD, else FST */
    unsigned x0, y0, x1, y1;        /* the tiles dumped, corners included */
    const char *const *tile_scope;  /* w * h top-scope names, row-major */
    const wm_rtl_extra_signal *extra;
    size_t nextra;
    bool cores;                     /* every tile with its PE core, as create_cores */
} wm_rtl_trace;

/* A w x h rtl fabric at cycle 0 whose dump is open (nothing written yet).
 * With trace->cores, a fabric of tiles with cores, as create_cores makes:
 * a dumped tile shows <scope>.wm_tile_core.u_tile.u_waves (rtl/wm_waves.v)
 * and <scope>.wm_tile_core.u_core_waves (rtl/core/wm_core_waves.v), where a
 * bare tile shows <scope>.wm_tile.u_waves.
 * cfg as create_with's (NULL: the default).
 * NULL with a message on stderr naming the path if it cannot be made. */
WM_MUST_USE wm_fabric *wm_fabric_rtl_create_traced(unsigned w, unsigned h, const wm_rtl_trace *trace,
                                                               const wm_fabric_config *cfg);
/* Write the current cycle's values into the dump. */
void wm_fabric_rtl_dump(wm_fabric *f);
/* Finish the dump file now; destroy() also does it. */
void wm_fabric_rtl_trace_close(wm_fabric *f);
/* The errno of the first failed write to a VCD dump, 0 if none: the
 * writer keeps it instead of Verilator's fatal error (which would wait
 * for ever on a lock of its own), and the caller stops the run. */
int wm_fabric_rtl_trace_error(const wm_fabric *f);

/* Failed assertions. The models are Verilated with --assert, and an
 * assertion of the RTL ($stop under WM_ASSERTIONS) would by Verilator's
 * default end the process. The backend catches it instead: the simulator's
 * message goes to stdout as before, the fabric remembers the first cycle it
 * happened at, and calls the on_assertion of its config once, after the
 * edge (without one, a line on stderr); it goes on stepping. */
/* An assertion failed in the edge that led to *cycle. */
bool wm_fabric_rtl_assertion(const wm_fabric *f, uint64_t *cycle);

/* For the tests of what catches assertions: the next step drives wavelet
 * into link input port (N..W) of tile (x, y), as a neighbour that sends
 * without a credit would; into a full input buffer, that is the FIFO's
 * assertion. */
void wm_fabric_rtl_inject_link(wm_fabric *f, unsigned x, unsigned y, unsigned port, uint32_t wavelet);

#ifdef __cplusplus
}
#endif

#endif
