/* waves.h: dumps of a run for GTKWave, from either backend.
 *
 * A dump shows, per tile inside a rectangle, the signals of rtl/wm_waves.v
 * (links, credits, occupancy, wormhole owners, errors) under a top scope
 * named after the layout instance on that tile ("l0", "root"), or
 * "tile_X_Y" where no instance sits; and per PE with a kernel the
 * firmware's state and exported results under "<instance>.fw". The rtl
 * backend dumps through Verilator (csim/fabric/fabric_rtl.h); the sw backend writes
 * the same names and values itself (csim/waves/waves_sw.c), so one save file shows
 * either dump and `wavemesh wavediff` finds two dumps of the same run equal.
 *
 * Time is the fabric cycle, 1 ns per cycle; values are sampled after each
 * edge, so a firmware signal changes at the edge that ends the cycle in
 * which the kernel changed it, as a register would.
 *
 * With PE cores (spec.cores) a tile's signals lie under
 * <scope>.wm_tile_core.u_tile.u_waves, and its core's (rtl/core/
 * wm_core_waves.v: the PC in X, and what the core does during the cycle)
 * under <scope>.wm_tile_core.u_core_waves; the save file then disassembles
 * them through filters made with objdump (csim/waves/waves_fw.h).
 */
#ifndef WM_WAVES_H
#define WM_WAVES_H

#include "fabric/fabric.h"
#include "waves/waves_gtkw.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { WM_WAVES_FST = 0, WM_WAVES_VCD } wm_waves_format;

/* What to dump, from the command line. */
typedef struct {
    const char *path;          /* NULL: no dump */
    wm_waves_format format;    /* from the file name: .vcd is VCD, else FST */
    bool tiles_given;          /* else the whole mesh */
    unsigned x0, y0, x1, y1;   /* corners, included */
    uint64_t from, to;         /* cycles, included */
    bool cores;                /* the fabric's tiles have PE cores (--pe core) */
} wm_trace_spec;

wm_trace_spec wm_trace_spec_default(void);

/* The kernel states in the dump, as wm_pe_state numbers them (csim/run/scheduler.h). */
extern const char *const wm_waves_state_names[];
extern const unsigned wm_waves_state_count;

typedef struct wm_waves wm_waves;

/* The most tiles one dump holds: 256 x 256 (a wafer-sized mesh is dumped
 * a region at a time). */
enum { WM_WAVES_TILES_MAX = 65536 };

/* A dump of a w x h fabric, not open yet. Checks before anything runs that
 * the tiles lie in the mesh, are at most WM_WAVES_TILES_MAX, and the path
 * can be written (nothing is left behind); NULL with the reason in err
 * otherwise. */
WM_MUST_USE wm_waves *wm_waves_create(const wm_trace_spec *spec, unsigned w, unsigned h, char *err, size_t err_size);
void wm_waves_destroy(wm_waves *wv);

/* The most characters of a tile's scope name, kept whole in the dump:
 * the layout refuses a longer instance name at its line (docs/layouts.md),
 * so two names never share a scope. */
enum { WM_WAVES_SCOPE_MAX = 63 };
/* Name the top scope of tile (x, y) (default "tile_X_Y"); name has at most
 * WM_WAVES_SCOPE_MAX characters. */
void wm_waves_name_tile(wm_waves *wv, unsigned x, unsigned y, const char *name);
/* Firmware signals of the PE on tile (x, y): <scope>.fw.state and one
 * 64-bit signal per export declared. Returns the PE's index. */
size_t wm_waves_add_pe(wm_waves *wv, unsigned x, unsigned y);
void wm_waves_add_export(wm_waves *wv, size_t pe, const char *name);

/* A partitioned run (docs/distributed.md): each rank dumps the tiles of
 * its own block. path with -rankK before its .fst or .vcd (appended
 * without one), into buf. */
void wm_trace_rank_path(const char *path, int rank, char *buf, size_t size);
/* Rank `rank`'s dump of spec, whose block of the w x h mesh is band: the
 * tiles of spec inside the block, to wm_trace_rank_path's name (in
 * path_buf). 1: *out is that dump; 0: the block holds none of spec's
 * tiles, no dump; -1: spec's tiles are refused as in one process
 * (wm_waves_create), the reason in err. */
int wm_trace_spec_of_block(const wm_trace_spec *spec, unsigned w, unsigned h, wm_fabric_band band, int rank,
                           wm_trace_spec *out, char *path_buf, size_t path_size, char *err, size_t err_size);

/* Make the fabric of backend ops and open the dump; writes cycle 0 when the
 * window starts there. NULL with a message on stderr on failure. The fabric
 * is the caller's: destroy it after wm_waves_finish. */
WM_MUST_USE wm_fabric *wm_waves_open(wm_waves *wv, const wm_fabric_ops *ops);
/* The same with the fabric made with cfg (wm_interrupt_fabric_config's, by
 * default): e.g. a fabric of one block (cfg->band) that holds the dump's
 * tiles. */
WM_MUST_USE wm_fabric *wm_waves_open_with(wm_waves *wv, const wm_fabric_ops *ops, const wm_fabric_config *cfg);

void wm_waves_set_state(wm_waves *wv, size_t pe, unsigned state);
void wm_waves_set_export(wm_waves *wv, size_t pe, const char *name, int64_t value);
/* After each step: writes the cycle if it lies in the window. */
void wm_waves_sample(wm_waves *wv);

/* What the run told (run/run_notes.h): markers and senders for the save
 * file; pointers valid until wm_waves_finish. NULL: none. */
void wm_waves_set_markers(wm_waves *wv, const wm_gtkw_markers *marks);

/* Close the dump and write FILE.gtkw and its filter files next to it
 * (with cores, FILE-insn.txt and FILE-pc-KERNEL.txt for the images found in
 * the cores' memories, or a one-line note when they cannot be made). The
 * fabric must still exist. false with a message on stderr on failure. */
WM_MUST_USE bool wm_waves_finish(wm_waves *wv);

/* The top scope of tile (x, y). */
const char *wm_waves_tile_scope(const wm_waves *wv, unsigned x, unsigned y);

#endif
