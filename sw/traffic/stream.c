/* stream.c: firmware traffic. Each PE sends COUNT messages of LEN data
 * wavelets while it receives EXPECT messages from whoever sends to it,
 * one wavelet at a time as the queues allow (so two PEs streaming at each
 * other never both block on full queues), and publishes the sum of the
 * data it received.
 *
 * Where a message goes: MODE 0, always to PE (TOX, TOY); MODE 1, to a PE
 * drawn uniformly from the W x H mesh by the PE's own generator, which
 * starts at SEED and steps x -> x * 1103515245 + 12345 before each draw
 * (the seeds are small, their high bits 0); the destination is the new
 * (x >> 16) mod W*H. The host runs the same generator to tell each PE its
 * EXPECT. The data are that generator's sequence too, so every receiver's
 * sum is known in advance; with STAMP=1 the first data wavelet carries the
 * send time instead, and the receiver adds up each message's latency and
 * records it, in arrival order, in its data memory (wm_mp_mem), the first
 * WM_PE_DATA_WORDS of them; the host reads the record back after the run
 * for the latency percentiles, and `recorded` says how many it holds.
 * GAP > 0 starts a message at most every GAP cycles (the offered load). */
#include "traffic/stream.h"

enum { MODE, TOX, TOY, W, H, COUNT, LEN, EXPECT, SEED, GAP, STAMP };
const wm_kernel_param wm_stream_params[] = {
    [MODE] = {"MODE", false, 0, WM_PARAM_FLAG},    /* 0: to (TOX, TOY); 1: uniform over the W x H mesh */
    [TOX] = {"TOX", false, 0, WM_PARAM_COORD},
    [TOY] = {"TOY", false, 0, WM_PARAM_COORD},
    [W] = {"W", false, 1, 1, WM_MESH_MAX},
    [H] = {"H", false, 1, 1, WM_MESH_MAX},
    [COUNT] = {"COUNT", true, 0, WM_PARAM_U32},   /* messages to send */
    [LEN] = {"LEN", false, 1, 0, WM_LEN_MAX},      /* data wavelets in each, 0..WM_LEN_MAX */
    [EXPECT] = {"EXPECT", true, 0, WM_PARAM_U32}, /* messages to receive */
    [SEED] = {"SEED", false, 1, WM_PARAM_U32},     /* the generator's first value */
    [GAP] = {"GAP", false, 0, WM_PARAM_U32},      /* cycles between message starts, 0: back to back */
    [STAMP] = {"STAMP", false, 0, WM_PARAM_FLAG},  /* 1: the first data wavelet is the send time */
    {NULL, false, 0, 0, 0},
};

enum { SUM, RECEIVED, T_END, LATENCY, RECORDED };
const char *const wm_stream_exports[] = {[SUM] = "sum",         [RECEIVED] = "received", [T_END] = "t_end",
                                         [LATENCY] = "latency", [RECORDED] = "recorded", NULL};

static uint32_t step(uint32_t x) { return x * 1103515245u + 12345u; }

void wm_kernel_stream(wm_mp *mp)
{
    const unsigned count = (unsigned)wm_mp_param(mp, COUNT), expect = (unsigned)wm_mp_param(mp, EXPECT);
    const unsigned len = (unsigned)wm_mp_param(mp, LEN), gap = (unsigned)wm_mp_param(mp, GAP);
    const bool uniform = wm_mp_param(mp, MODE) == 1, stamp = wm_mp_param(mp, STAMP) != 0;
    const unsigned w = (unsigned)wm_mp_param(mp, W), nodes = w * (unsigned)wm_mp_param(mp, H);
    uint32_t header = uniform ? 0 : wm_mp_header(mp, wm_mp_param(mp, TOX), wm_mp_param(mp, TOY), len, 0);
    uint32_t next = (uint32_t)wm_mp_param(mp, SEED), sum = 0, first = 0;
    uint64_t latency = 0, start_at = 0;
    uint32_t *record = wm_mp_mem(mp);
    unsigned recorded = 0;
    unsigned sent = 0, word = 0; /* messages sent; wavelet of the current one, 0: its header */
    unsigned received = 0, left = 0, got = 0; /* messages received; data wavelets left of, and taken from, the current one */
    bool in_message = false;
    while (sent < count || received < expect) {
        unsigned room, waiting;
        wm_mp_queues(mp, &room, &waiting);
        for (; waiting; waiting--) {
            if (!in_message) {
                left = wm_header_len(wm_mp_pop_header(mp));
                got = 0;
                in_message = left > 0;
                if (!in_message) received++;
                continue;
            }
            const uint32_t v = wm_mp_pop(mp);
            if (got++ == 0) first = v;
            if (!(stamp && got == 1)) sum += v;
            if (--left == 0) {
                in_message = false;
                received++;
                if (stamp) {
                    const uint32_t cycles = (uint32_t)wm_mp_tsc(mp) - first;
                    latency += cycles;
                    if (recorded < WM_PE_DATA_WORDS) record[recorded++] = cycles;
                }
            }
        }
        if (word == 0 && sent < count && gap && room) {
            const uint64_t now = wm_mp_tsc(mp);
            if (now < start_at) continue;
            start_at = (start_at ? start_at : now) + gap;
        }
        for (; room && sent < count; room--) {
            if (word == 0) {
                if (uniform) {
                    next = step(next); /* first: the seeds are small, their high bits 0 */
                    const unsigned to = (next >> 16) % nodes;
                    header = wm_mp_header(mp, to % w, to / w, len, 0);
                }
                wm_mp_push(mp, header);
            } else if (stamp && word == 1) {
                wm_mp_push(mp, (uint32_t)wm_mp_tsc(mp));
            } else {
                wm_mp_push(mp, next);
                next = step(next);
            }
            if (++word > len) {
                word = 0;
                sent++;
                if (gap) break;
            }
        }
        if (received > expect) wm_mp_fault(mp, "received %u messages, expected %u", received, expect);
    }
    wm_mp_export(mp, SUM, sum);
    wm_mp_export(mp, RECEIVED, received);
    wm_mp_export(mp, T_END, (int64_t)wm_mp_tsc(mp));
    wm_mp_export(mp, LATENCY, (int64_t)latency);
    wm_mp_export(mp, RECORDED, recorded);
}
