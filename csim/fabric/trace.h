/* trace.h: the link-event trace of a run, kept small, and its comparison.
 *
 * A recorder is a wm_link_hook. It keeps, for every cycle with events, the
 * number of events and an order-independent digest of them (16 bytes a
 * cycle instead of every wavelet), and it keeps the events themselves of
 * one chosen cycle. Two digests locate the first cycle where two runs
 * differ; running both again with that cycle captured gives the first
 * divergent event. Runs are deterministic, so the second pass sees the
 * same events as the first.
 */
#ifndef WM_TRACE_H
#define WM_TRACE_H

#include "fabric/fabric.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wm_trace wm_trace;

/* NULL when out of memory. */
WM_MUST_USE wm_trace *wm_trace_create(void);
void wm_trace_destroy(wm_trace *t);

/* Keep every event of this cycle as well (UINT64_MAX: none, the default). */
void wm_trace_capture(wm_trace *t, uint64_t cycle);

/* The hook: pass the recorder as the hook's context. */
void wm_trace_record(void *trace, const wm_link_event *ev);

uint64_t wm_trace_event_count(const wm_trace *t);
/* False when an allocation failed during recording. */
bool wm_trace_ok(const wm_trace *t);

/* The first cycle at which the two traces differ; false if they agree. */
bool wm_trace_first_difference(const wm_trace *expected, const wm_trace *got, uint64_t *cycle);

/* The first divergence between two runs, in (cycle, y, x, port) order. */
typedef struct {
    uint64_t cycle;
    unsigned x, y, port;
    bool has_expected, has_got; /* false: no wavelet there on that side */
    uint32_t expected, got;
} wm_divergence;

/* Compares the captured cycles of two traces (sorting them in place);
 * false if they agree. */
bool wm_trace_first_divergence(wm_trace *expected, wm_trace *got, wm_divergence *out);

/* "cycle C tile (x,y) port P: expected XXXXXXXX, got YYYYYYYY" ("nothing"
 * for a missing side). */
void wm_divergence_format(const wm_divergence *d, char *buf, size_t size);

#endif
