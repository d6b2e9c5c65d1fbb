/* calib.c: what each call of sw/mp.h costs the PE that runs it, measured
 * between two timestamp reads minus what two back-to-back reads measure.
 * On a core these are the firmware's own cycles, and `wavemesh calibrate`
 * turns them into the native mode's charges (sw/cost_model.h). Two PEs:
 * ROLE 0 times its own calls and sends ROLE 1 the messages whose receipt
 * ROLE 1 times, each already whole in its RX queue when it is received. */
#include "traffic/stream.h"

enum { ROLE, PEERX, PEERY };
const wm_kernel_param wm_calib_params[] = {
    [ROLE] = {"ROLE", true, 0, WM_PARAM_FLAG},   /* 0: the sender, 1: the receiver */
    [PEERX] = {"PEERX", false, 0, WM_PARAM_COORD}, /* the other PE */
    [PEERY] = {"PEERY", false, 0, WM_PARAM_COORD},
    {NULL, false, 0, 0, 0},
};

enum { START, TSC, PARAM, EXPORT, HEADER, SEND1, SEND4, QUEUES, PUSH, RECV1, RECV4, POP };
const char *const wm_calib_exports[] = {[START] = "start",   [TSC] = "tsc",       [PARAM] = "param",
                                        [EXPORT] = "export", [HEADER] = "header", [SEND1] = "send1",
                                        [SEND4] = "send4",   [QUEUES] = "queues", [PUSH] = "push",
                                        [RECV1] = "recv1",   [RECV4] = "recv4",   [POP] = "pop",
                                        NULL};

/* Waits, polling, until n wavelets are in RX. */
static void wait_for(wm_mp *mp, unsigned n)
{
    unsigned room, waiting = 0;
    while (waiting < n) wm_mp_queues(mp, &room, &waiting);
}

void wm_kernel_calib(wm_mp *mp)
{
    const uint64_t a = wm_mp_tsc(mp), b = wm_mp_tsc(mp);
    const uint64_t reading = b - a;
    wm_mp_export(mp, START, (int64_t)a);
    wm_mp_export(mp, TSC, (int64_t)reading);
    uint64_t t0 = wm_mp_tsc(mp);
    const uint32_t role = (uint32_t)wm_mp_param(mp, ROLE);
    uint64_t t1 = wm_mp_tsc(mp);
    wm_mp_export(mp, PARAM, (int64_t)(t1 - t0 - reading));
    t0 = wm_mp_tsc(mp);
    wm_mp_export(mp, EXPORT, 0);
    t1 = wm_mp_tsc(mp);
    wm_mp_export(mp, EXPORT, (int64_t)(t1 - t0 - reading));
    uint32_t data[4] = {1, 2, 3, 4};
    unsigned room, waiting;
    t0 = wm_mp_tsc(mp);
    wm_mp_queues(mp, &room, &waiting);
    t1 = wm_mp_tsc(mp);
    wm_mp_export(mp, QUEUES, (int64_t)(t1 - t0 - reading));
    const int32_t px = (int32_t)wm_mp_param(mp, PEERX), py = (int32_t)wm_mp_param(mp, PEERY);
    if (role == 0) {
        t0 = wm_mp_tsc(mp);
        const uint32_t h1 = wm_mp_header(mp, px, py, 1, 0);
        t1 = wm_mp_tsc(mp);
        wm_mp_export(mp, HEADER, (int64_t)(t1 - t0 - reading));
        const uint32_t h4 = wm_mp_header(mp, px, py, 4, 0), h0 = wm_mp_header(mp, px, py, 0, 0);
        t0 = wm_mp_tsc(mp);
        wm_mp_send(mp, h1, data);
        t1 = wm_mp_tsc(mp);
        wm_mp_export(mp, SEND1, (int64_t)(t1 - t0 - reading));
        wait_for(mp, 1); /* the receiver's go: TX is empty again */
        (void)wm_mp_pop_header(mp);
        t0 = wm_mp_tsc(mp);
        wm_mp_send(mp, h4, data);
        t1 = wm_mp_tsc(mp);
        wm_mp_export(mp, SEND4, (int64_t)(t1 - t0 - reading));
        wait_for(mp, 1);
        (void)wm_mp_pop_header(mp);
        t0 = wm_mp_tsc(mp);
        wm_mp_push(mp, h0);
        t1 = wm_mp_tsc(mp);
        wm_mp_export(mp, PUSH, (int64_t)(t1 - t0 - reading));
    } else {
        const uint32_t go = wm_mp_header(mp, px, py, 0, 0);
        wait_for(mp, 2);
        t0 = wm_mp_tsc(mp);
        wm_mp_recv(mp, data, 1);
        t1 = wm_mp_tsc(mp);
        wm_mp_export(mp, RECV1, (int64_t)(t1 - t0 - reading));
        wm_mp_push(mp, go);
        wait_for(mp, 5);
        t0 = wm_mp_tsc(mp);
        wm_mp_recv(mp, data, 4);
        t1 = wm_mp_tsc(mp);
        wm_mp_export(mp, RECV4, (int64_t)(t1 - t0 - reading));
        wm_mp_push(mp, go);
        wait_for(mp, 1);
        t0 = wm_mp_tsc(mp);
        (void)wm_mp_pop_header(mp);
        t1 = wm_mp_tsc(mp);
        wm_mp_export(mp, POP, (int64_t)(t1 - t0 - reading));
    }
}
