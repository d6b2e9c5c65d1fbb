/* msgcost.c: what one message of one data wavelet costs its sender and its
 * receiver, in cycles of the PE that runs this (the native mode's cost
 * model, or the core). The sender (ROLE=0) times wm_mp_header plus
 * wm_mp_send to (TOX, TOY); the receiver (ROLE=1) first waits, polling the
 * queues, until the whole message is in its RX queue, then times wm_mp_recv
 * alone. Each time is between two timestamp reads, minus what two
 * back-to-back reads measure (the reading itself). */
#include "traffic/stream.h"

enum { ROLE, TOX, TOY };
const wm_kernel_param wm_msgcost_params[] = {
    [ROLE] = {"ROLE", true, 0, WM_PARAM_FLAG}, /* 0: send, 1: receive */
    [TOX] = {"TOX", false, 0, WM_PARAM_COORD},  /* the receiver, for the sender */
    [TOY] = {"TOY", false, 0, WM_PARAM_COORD},
    {NULL, false, 0, 0, 0},
};

enum { CYCLES, TSC_READ };
const char *const wm_msgcost_exports[] = {[CYCLES] = "cycles", [TSC_READ] = "tsc_read", NULL};

void wm_kernel_msgcost(wm_mp *mp)
{
    const uint64_t a = wm_mp_tsc(mp), b = wm_mp_tsc(mp);
    const uint64_t reading = b - a;
    uint32_t value = 42;
    uint64_t t0, t1;
    if ((uint32_t)wm_mp_param(mp, ROLE) == 0) {
        const int32_t col = (int32_t)wm_mp_param(mp, TOX), row = (int32_t)wm_mp_param(mp, TOY);
        t0 = wm_mp_tsc(mp);
        wm_mp_send(mp, wm_mp_header(mp, col, row, 1, 0), &value);
        t1 = wm_mp_tsc(mp);
    } else {
        unsigned room, waiting = 0;
        while (waiting < 2) wm_mp_queues(mp, &room, &waiting);
        t0 = wm_mp_tsc(mp);
        wm_mp_recv(mp, &value, 1);
        t1 = wm_mp_tsc(mp);
    }
    wm_mp_export(mp, CYCLES, (int64_t)(t1 - t0 - reading));
    wm_mp_export(mp, TSC_READ, (int64_t)reading);
}
