/* stream.c: firmware traffic. Each PE sends COUNT messages of LEN data
 * wavelets to PE (TOX, TOY) while it receives EXPECT messages from
 * whoever sends to it, one wavelet at a time as the queues allow (so two
 * PEs streaming at each other never both block on full queues), and
 * publishes the sum of the data it received. The data are a PE's own
 * sequence (SEED, then x * 1103515245 + 12345), so every receiver's sum is
 * known in advance. */
#include "traffic/stream.h"

enum { TOX, TOY, COUNT, LEN, EXPECT, SEED };
const wm_kernel_param wm_stream_params[] = {
    [TOX] = {"TOX", true, 0},       /* the destination */
    [TOY] = {"TOY", true, 0},
    [COUNT] = {"COUNT", true, 0},   /* messages to send */
    [LEN] = {"LEN", false, 1},      /* data wavelets in each, 0..255 */
    [EXPECT] = {"EXPECT", true, 0}, /* messages to receive */
    [SEED] = {"SEED", false, 1},    /* the first data wavelet */
    {NULL, false, 0},
};

enum { SUM, RECEIVED, T_END };
const char *const wm_stream_exports[] = {[SUM] = "sum", [RECEIVED] = "received", [T_END] = "t_end", NULL};

void wm_kernel_stream(wm_mp *mp)
{
    const unsigned count = (unsigned)wm_mp_param(mp, COUNT), expect = (unsigned)wm_mp_param(mp, EXPECT);
    const unsigned len = (unsigned)wm_mp_param(mp, LEN);
    const uint32_t header = wm_mp_header(mp, wm_mp_param(mp, TOX), wm_mp_param(mp, TOY), len, 0);
    uint32_t next = (uint32_t)wm_mp_param(mp, SEED), sum = 0;
    unsigned sent = 0, word = 0; /* messages sent; wavelet of the current one, 0: its header */
    unsigned received = 0, left = 0; /* messages received; data wavelets left of the current one */
    bool in_message = false;
    while (sent < count || received < expect) {
        unsigned room, waiting;
        wm_mp_queues(mp, &room, &waiting);
        for (; waiting; waiting--) {
            if (!in_message) {
                left = wm_header_len(wm_mp_pop_header(mp));
                in_message = left > 0;
                if (!in_message) received++;
            } else {
                sum += wm_mp_pop(mp);
                if (--left == 0) {
                    in_message = false;
                    received++;
                }
            }
        }
        for (; room && sent < count; room--) {
            if (word == 0) {
                wm_mp_push(mp, header);
            } else {
                wm_mp_push(mp, next);
                next = next * 1103515245u + 12345u;
            }
            if (++word > len) {
                word = 0;
                sent++;
            }
        }
        if (received > expect) wm_mp_fault(mp, "received %u messages, expected %u", received, expect);
    }
    wm_mp_export(mp, SUM, sum);
    wm_mp_export(mp, RECEIVED, received);
    wm_mp_export(mp, T_END, (int64_t)wm_mp_tsc(mp));
}
