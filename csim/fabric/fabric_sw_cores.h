/* fabric_sw_cores.h: the PE cores of the sw backend, internal to it
 * (fabric_sw.c drives them, fabric_sw_cores.c keeps them).
 *
 * A fabric made by create_cores has a core and a RAM per tile, modelled by
 * the instruction-set simulator (core/iss.h), which is cycle-exact to the
 * RTL core. Most tiles of a large mesh never run one, so a tile's core is
 * allocated when the host first loads or starts it. The RAMs are pages of
 * one store (core/page_store.h): a RAM holds of its own only the pages
 * its core or the host wrote since the core started; the pages the host
 * loaded before (the image, the PE block, the data) are shared by content
 * with every other RAM holding the same bytes, and the rest read zero.
 *
 * Time: core_start at fabric cycle S makes the step that simulates cycle S
 * the core's cycle 0, so the core's cycle is always the fabric's minus S.
 * A core stalled on an empty RX (or a full TX) does nothing until its
 * tile's queue changes, and the queue only changes when the tile is
 * evaluated; so such a core is not stepped at all while it sleeps, and
 * the cycles it slept are handed to wm_iss_idle when it is stepped next
 * (wm_sw_core_cycle), which the ISS defines to be the same as stepping it
 * through them. A core a debugger holds (core_hold) is not stepped at
 * all, asleep or not; the cycles it stood held go to wm_iss_idle with the
 * others, which changes nothing in a core that does not wait on a queue
 * and only counts them in one that does.
 */
#ifndef WM_FABRIC_SW_CORES_H
#define WM_FABRIC_SW_CORES_H

#include "core/iss.h"
#include "core/page_store.h"
#include "fabric/fabric.h"
#include "fabric/fabric_sw.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    wm_iss iss;
    uint64_t start;      /* the fabric cycle that is the core's cycle 0 */
    bool started;        /* core_start was called */
    bool held;           /* a debugger holds it (core_hold): it spends no cycle */
    uint64_t last_cycle; /* the fabric cycle `last` describes; UINT64_MAX before the first */
    wm_core_cycle last;  /* what the core did in that cycle, for the dumps */
} sw_core;

/* The cores of a fabric, one pointer per tile, NULL until needed, and the
 * pages of their RAMs. */
typedef struct {
    size_t ntiles;
    sw_core **tile;
    size_t made;         /* cores allocated */
    wm_page_store *pages;
} sw_cores;

WM_MUST_USE sw_cores *wm_sw_cores_new(size_t ntiles);
void wm_sw_cores_free(sw_cores *cs);
/* Tile idx's core, made (reset, zeroed RAM) on first use; NULL with a
 * message on stderr when out of memory. */
sw_core *wm_sw_cores_get(sw_cores *cs, size_t idx);
/* addr .. addr + n lies in a tile's RAM; otherwise a message naming what
 * (core_load or core_read) and the tile, and false. */
bool wm_sw_core_range_ok(uint32_t addr, size_t n, const char *what, unsigned x, unsigned y);
/* The host writes or reads tile RAM bytes (within the RAM). */
void wm_sw_core_load(sw_cores *cs, sw_core *c, uint32_t addr, const void *bytes, size_t n);
void wm_sw_core_read(const sw_core *c, uint32_t addr, void *bytes, size_t n);
/* Reset, and the next step simulates fabric cycle `cycle`, the core's 0;
 * the pages the host loaded are shared from here on. */
void wm_sw_core_start(sw_cores *cs, sw_core *c, uint64_t cycle);
/* What the cores and their RAMs hold. */
typedef struct {
    size_t cores;         /* cores made */
    size_t core_bytes;    /* their state: the ISS, the last cycle, the tile's pointer */
    wm_page_store_use pages;
} wm_sw_cores_use;
void wm_sw_cores_usage(const sw_cores *cs, wm_sw_cores_use *out);
/* As the host sees it when the fabric is at cycle `cycle`; c may be NULL. */
wm_core_status wm_sw_core_status(const sw_core *c, uint64_t cycle);
void wm_sw_core_fill_view(const sw_core *c, uint64_t cycle, wm_sw_core_view *out);

/* The core spends fabric cycle `cycle` with the datapath as `in` shows it
 * (started, not halted). */
static inline void wm_sw_core_cycle(sw_core *c, uint64_t cycle, const wm_core_pe_in *in, wm_core_cycle *out)
{
    const uint64_t due = cycle - c->start;
    /* Only a core asleep on its queue, or held, misses steps (wm_sw_core_wants_next). */
    if (wm_iss_cycle(&c->iss) < due) wm_iss_idle(&c->iss, due - wm_iss_cycle(&c->iss));
    wm_iss_step(&c->iss, in, out);
    c->last = *out;
    c->last_cycle = cycle;
}

/* After its tile's edge: whether a started core can do anything in the
 * next cycle, given the tile's queues as they now stand. A halted core
 * cannot; a core stalled on a queue that is still empty (RX) or full (TX)
 * would only wait, and sleeps. */
static inline bool wm_sw_core_wants_next(const sw_core *c, unsigned tx_count, unsigned rx_count)
{
    if (wm_iss_halted(&c->iss)) return false;
    switch (wm_iss_waiting(&c->iss)) {
    case WM_ISS_WAIT_RX: return rx_count != 0;
    case WM_ISS_WAIT_TX: return tx_count < WM_CORE_TX_DEPTH;
    default: return true;
    }
}

#endif
