/* mp_native.c: sw/mp.h in the native mode, over the scheduler's port
 * primitives, with the library's own work charged by the cost model of
 * mp.h. Host code: the firmware only sees the header. */
#include "mp.h"

#include "fabric/fabric.h"
#include "run/scheduler.h"

#include <stdarg.h>
#include <stdio.h>

/* Under --jitter, the stall drawn for the port access about to be made. */
static void port_jitter(wm_mp *mp)
{
    const unsigned stall = wm_sched_jitter_port(mp);
    if (stall) wm_sched_charge(mp, stall);
}

uint32_t wm_mp_header(wm_mp *mp, int32_t col, int32_t row, unsigned len, unsigned tag)
{
    const char *outer = wm_sched_enter_from(mp, "wm_mp_header", __builtin_return_address(0));
    wm_sched_charge(mp, WM_COST_HEADER);
    if (col < 0 || col >= WM_MESH_MAX || row < 0 || row >= WM_MESH_MAX)
        wm_sched_fault(mp, "header to (%d,%d): coordinates outside 0..%d", (int)col, (int)row, WM_MESH_MAX - 1);
    if (len > WM_LEN_MAX) wm_sched_fault(mp, "header with %u data wavelets (at most %d)", len, WM_LEN_MAX);
    if (tag > WM_TAG_MAX) wm_sched_fault(mp, "header with tag %u (the header's tag field holds 0..%d)", tag, WM_TAG_MAX);
    const uint32_t result = wm_header((unsigned)col, (unsigned)row, len, tag);
    wm_sched_enter(mp, outer);
    return result;
}

void wm_mp_send(wm_mp *mp, uint32_t header, const uint32_t *data)
{
    const char *outer = wm_sched_enter_from(mp, "wm_mp_send", __builtin_return_address(0));
    const unsigned len = wm_header_len(header);
    wm_sched_charge(mp, WM_COST_SEND_CALL);
    port_jitter(mp);
    wm_sched_push(mp, header);
    for (unsigned i = 0; i < len; i++) {
        wm_sched_charge(mp, WM_COST_SEND_WAVELET);
        port_jitter(mp);
        wm_sched_push(mp, data[i]);
    }
    wm_sched_enter(mp, outer);
}

uint32_t wm_mp_recv(wm_mp *mp, uint32_t *data, unsigned max)
{
    const char *outer = wm_sched_enter_from(mp, "wm_mp_recv", __builtin_return_address(0));
    wm_sched_charge(mp, WM_COST_RECV_CALL);
    port_jitter(mp);
    const uint32_t header = wm_sched_pop_header(mp);
    const unsigned len = wm_header_len(header);
    for (unsigned i = 0; i < len; i++) {
        port_jitter(mp);
        const uint32_t w = wm_sched_pop(mp);
        wm_sched_charge(mp, WM_COST_RECV_WAVELET);
        if (i < max) data[i] = w;
    }
    if (len > max) wm_sched_fault(mp, "received a message of %u data wavelets, expected at most %u", len, max);
    const uint32_t result = header;
    wm_sched_enter(mp, outer);
    return result;
}

uint64_t wm_mp_tsc(wm_mp *mp)
{
    const char *outer = wm_sched_enter_from(mp, "wm_mp_tsc", __builtin_return_address(0));
    wm_sched_charge(mp, WM_COST_TSC);
    const uint64_t result = wm_sched_tsc(mp);
    wm_sched_enter(mp, outer);
    return result;
}

void wm_mp_queues(wm_mp *mp, unsigned *tx_room, unsigned *rx_count)
{
    const char *outer = wm_sched_enter_from(mp, "wm_mp_queues", __builtin_return_address(0));
    wm_sched_charge(mp, WM_COST_QUEUES);
    unsigned tx_count;
    wm_sched_queues(mp, &tx_count, rx_count);
    *tx_room = WM_TX_DEPTH - tx_count;
    wm_sched_enter(mp, outer);
}

void wm_mp_work(wm_mp *mp, unsigned cycles)
{
    wm_sched_note_call(mp, __builtin_return_address(0));
    wm_sched_charge(mp, cycles);
}

int64_t wm_mp_param(wm_mp *mp, unsigned index)
{
    const char *outer = wm_sched_enter_from(mp, "wm_mp_param", __builtin_return_address(0));
    wm_sched_charge(mp, WM_COST_PARAM);
    const int64_t result = wm_sched_param(mp, index);
    wm_sched_enter(mp, outer);
    return result;
}

void wm_mp_export(wm_mp *mp, unsigned index, int64_t value)
{
    const char *outer = wm_sched_enter_from(mp, "wm_mp_export", __builtin_return_address(0));
    wm_sched_charge(mp, WM_COST_EXPORT);
    wm_sched_export(mp, index, value);
    wm_sched_enter(mp, outer);
}

uint32_t *wm_mp_mem(wm_mp *mp) { return wm_sched_mem(mp); }

void wm_mp_push(wm_mp *mp, uint32_t wavelet)
{
    const char *outer = wm_sched_enter_from(mp, "wm_mp_push", __builtin_return_address(0));
    wm_sched_charge(mp, WM_COST_PUSH);
    port_jitter(mp);
    wm_sched_push(mp, wavelet);
    wm_sched_enter(mp, outer);
}

uint32_t wm_mp_pop(wm_mp *mp)
{
    const char *outer = wm_sched_enter_from(mp, "wm_mp_pop", __builtin_return_address(0));
    wm_sched_charge(mp, WM_COST_POP);
    port_jitter(mp);
    const uint32_t result = wm_sched_pop(mp);
    wm_sched_enter(mp, outer);
    return result;
}

uint32_t wm_mp_pop_header(wm_mp *mp)
{
    const char *outer = wm_sched_enter_from(mp, "wm_mp_pop_header", __builtin_return_address(0));
    wm_sched_charge(mp, WM_COST_POP);
    port_jitter(mp);
    const uint32_t result = wm_sched_pop_header(mp);
    wm_sched_enter(mp, outer);
    return result;
}

void wm_mp_fault(wm_mp *mp, const char *fmt, ...)
{
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    wm_sched_fault(mp, "%s", text);
}
