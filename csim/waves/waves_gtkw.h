/* waves_gtkw.h: GTKWave save files that group a dump by instance names.
 *
 * One group per dumped tile, named after its scope (the layout instance,
 * or tile_X_Y): the firmware's state as a word and its results, then per
 * link port valid, data (headers decoded), the header of its message
 * (<port>_msg, held until the next: it reads zoomed out), credit,
 * occupancy and wormhole owner, then the PE's queues and error flags. Translate filter files,
 * written next to the save file, turn the kernel states and the owners
 * into words and the headers seen in the dump into "(col,row) len".
 *
 * In a dump of a fabric with PE cores (--pe core) a tile is
 * rtl/wm_tile_core.v: its signals lie under <scope>.wm_tile_core.u_tile.u_waves
 * and its core's under <scope>.wm_tile_core.u_core_waves; a group of a tile
 * with a kernel then shows, after the firmware's signals, the core's PC
 * (as function+offset, through its image's PC filter), retire, the retiring
 * instruction (disassembled by the instruction filter), the write-back,
 * push, pop, halt and fault cause (csim/waves/waves_fw.h).
 */
#ifndef WM_WAVES_GTKW_H
#define WM_WAVES_GTKW_H

#include "waves/waves_fw.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *scope;
    bool has_pe;                 /* a kernel runs here: show <scope>.fw */
    const char *const *exports;  /* its results */
    size_t nexports;
    bool core;                   /* a tile with a PE core: its paths, and the core's signals with has_pe */
    bool has_image;              /* the core's image is known: image indexes the wm_fw_set */
    size_t image;
    unsigned used_ports;         /* bit p: output port p (WM_PORT_*) carried a wavelet; 0: not known */
} wm_gtkw_group;

/* How much of each group a save file shows. */
typedef enum {
    WM_GTKW_FULL = 0, /* every signal */
    WM_GTKW_OVERVIEW, /* the firmware's signals, and valid, data and msg of the ramp and the four links */
    WM_GTKW_COMPACT   /* one line a signal, no group lines: the state, the msg of the ports used, the ramp's data */
} wm_gtkw_style;

/* What a run of the layout tells the save file: named markers A and B at
 * two cycles, each explained by a comment line at the top of the signal
 * pane (has_markers), or why there are none (no_markers_why, NULL: nothing
 * to explain), said by a `[*]` comment and a comment line there; and who
 * sent each header: the header filter then names the sender(s) after the
 * header, and lists these headers even when the dump cannot be read. */
typedef struct {
    bool has_markers;
    uint64_t a, b;
    const char *a_text, *b_text;
    const char *no_markers_why;
    const uint32_t *headers;     /* nsent headers ... */
    const char *const *senders;  /* ... and the instance(s) that sent each, "l0" or "n,e" */
    size_t nsent;
} wm_gtkw_markers;

/* Write the save file gtkw_path for the dump dump_path (NULL: none named),
 * and its filter files BASE-state.txt, BASE-owner.txt, BASE-headers.txt
 * next to it; the header filter lists the headers found in dump_path when
 * it can be read and is at most 16 MB (larger dumps take longer to read
 * back than to write). With core groups and images in fw (may be NULL),
 * also BASE-insn.txt, the instruction filter, and BASE-pc-KERNEL.txt per
 * image. false with a message on stderr on failure. */
WM_MUST_USE
bool wm_gtkw_write(const char *gtkw_path, const char *dump_path, const wm_gtkw_group *groups, size_t ngroups,
                   const wm_fw_set *fw);
/* The same, one screen per few instances: per group only the firmware
 * signals, the core's PC and retiring instruction, and the data of the
 * ramp and the four links. */
WM_MUST_USE bool wm_gtkw_write_overview(const char *gtkw_path, const char *dump_path, const wm_gtkw_group *groups,
                                        size_t ngroups, const wm_fw_set *fw);

/* Either, or the compact style, with markers (NULL: none). */
WM_MUST_USE
bool wm_gtkw_write_styled(const char *gtkw_path, const char *dump_path, const wm_gtkw_group *groups, size_t ngroups,
                          const wm_fw_set *fw, wm_gtkw_style style, const wm_gtkw_markers *markers);

#endif
