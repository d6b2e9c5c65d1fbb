/* waves_sw.h: the dump writer of the sw backend.
 *
 * The rtl backend's dumps come from Verilator; this writes the same scopes,
 * signal names, widths and value changes for a sw fabric, reading each
 * traced tile through wm_fabric_sw_view (and its core, in a fabric made by
 * create_cores, through wm_fabric_sw_core_view), so that the two dumps of
 * one run compare equal signal by signal. FST through GTKWave's fstapi, or
 * VCD. A cycle is written when the next one is sampled (waves_sw.c says
 * why), or settled, or at close.
 */
#ifndef WM_WAVES_SW_H
#define WM_WAVES_SW_H

#include "fabric/fabric.h"
#include "fabric/fabric_rtl.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct wm_sw_dump wm_sw_dump;

/* trace says what to dump, exactly as for the rtl backend. NULL with a
 * message on stderr naming the path if it cannot be written. */
WM_MUST_USE wm_sw_dump *wm_sw_dump_open(const wm_fabric *f, unsigned w, const wm_rtl_trace *trace);
/* Follow the output registers' framing through this cycle (the fabric's
 * current one), for the <port>_msg signals: called every cycle from cycle
 * 0, inside the window or not; again for the same cycle, nothing. */
void wm_sw_dump_follow(wm_sw_dump *d, uint64_t cycle);
/* Take the fabric's values at this cycle (the fabric's current one),
 * following it first. */
void wm_sw_dump_sample(wm_sw_dump *d, uint64_t cycle);
/* After the step that follows the last cycle sampled (the end of a
 * window): write that cycle, with what the cores did in it. */
void wm_sw_dump_settle(wm_sw_dump *d);
/* Finish the file and free d; false when writing failed. */
/* The errno of the first failed write to a VCD dump, 0 if none. */
int wm_sw_dump_error(const wm_sw_dump *d);
WM_MUST_USE bool wm_sw_dump_close(wm_sw_dump *d);

#endif
