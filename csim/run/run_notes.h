/* run_notes.h: what a run of a layout tells its save file (waves_gtkw.h).
 *
 * Watching a run through its fabric's link hook and its scheduler's
 * on_send, it learns the ports each tile used, the up-sweep's last receive
 * and the down-sweep's first wavelet (markers A and B, when the layout has
 * a `root`: heatmap.h's split), and who sent each header (native runs: a
 * core's pushes are its own). `wavemesh waves` runs a layout for them;
 * the runner gathers them during a traced run. */
#ifndef WM_RUN_NOTES_H
#define WM_RUN_NOTES_H

#include "run/layout.h"
#include "run/scheduler.h"
#include "waves/waves_gtkw.h"
#include "core/must_use.h"

typedef struct wm_run_notes wm_run_notes;

/* NULL when out of memory. */
WM_MUST_USE wm_run_notes *wm_run_notes_create(const wm_layout *layout);
void wm_run_notes_destroy(wm_run_notes *n);

/* The link hook (ctx: the notes) and the observer's on_send (ctx: the
 * notes; pe indexes the scheduler's PEs, named through sched). */
void wm_run_notes_link(void *ctx, const wm_link_event *ev);
void wm_run_notes_send(wm_run_notes *n, const wm_sched *sched, size_t pe, uint32_t header);

/* After the run: the markers (has_markers when the layout has a root, a
 * wavelet reached it and others moved after its last; with a root and no
 * markers, no_markers_why says which is missing) and the senders, valid
 * until destroy; and the ports
 * tile (x, y) used, bit p for WM_PORT_p. */
void wm_run_notes_finish(wm_run_notes *n, wm_gtkw_markers *out);
unsigned wm_run_notes_used_ports(const wm_run_notes *n, unsigned x, unsigned y);

#endif
