/* regress_corpus.c: the scenarios `wavemesh regress` runs on both backends.
 *
 * Random traffic at several rates and patterns, mesh shapes from 1x1 to
 * 32x32 (1xN and Nx1 included), message lengths 1 to 64 wavelets (the
 * header's len field 0 to 63), PEs that pop slowly, routers disabled from
 * the start or for a while, headers addressed off the mesh, refused port
 * accesses, and a directed contention case whose arbitration the
 * perturbation tests know cycle by cycle. To add one, see regress.h.
 */
#include "regress/collectives_regress.h"
#include "regress/stream_regress.h"
#include "regress/gs_regress.h"
#include "regress/regress.h"
#include "traffic/traffic.h"

#include <stdint.h>
#include <stdio.h>

/* ------------------------------------------------------------ traffic */

typedef struct {
    wm_traffic_config cfg;
    const uint8_t (*disabled)[2]; /* tiles (x, y) switched off ... */
    size_t ndisabled;
    uint64_t off_at;              /* ... from this cycle ... */
    uint64_t on_at;               /* ... until this one (UINT64_MAX: for good) */
} traffic_scenario;

#define TRAFFIC(pattern_, rate_, len_, warmup_, sample_, drain_, seed_, pop_, offmesh_)                          \
    {                                                                                                             \
        .pattern = (pattern_), .rate = (rate_), .len = (len_), .warmup = (warmup_), .sample = (sample_),          \
        .drain_max = (drain_), .seed = (seed_), .pop_interval = (pop_), .offmesh_fraction = (offmesh_),           \
        .hotspot_fraction = 0.2, .hotspot_x = UINT32_MAX, .hotspot_y = UINT32_MAX                                 \
    }

static bool run_traffic(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                        wm_regress_results *out)
{
    const traffic_scenario *ts = arg;
    wm_traffic *t = wm_traffic_create(&ts->cfg, ops, f, w, h);
    if (!t) return false;
    for (uint64_t cycle = 0; !wm_traffic_done(t); cycle++) {
        if (cycle == ts->off_at || cycle == ts->on_at)
            for (size_t k = 0; k < ts->ndisabled; k++)
                ops->set_enable(f, ts->disabled[k][0], ts->disabled[k][1], cycle != ts->off_at);
        wm_traffic_step(t);
    }
    const wm_traffic_result r = wm_traffic_result_now(t);
    wm_traffic_destroy(t);
    wm_regress_result(out, "cycles", r.cycles);
    wm_regress_result(out, "sampled messages", r.sample_messages);
    wm_regress_result(out, "sampled messages arrived", r.sample_arrived);
    wm_regress_result(out, "messages created", r.messages_created);
    wm_regress_result(out, "messages arrived", r.messages_arrived);
    wm_regress_result(out, "wavelets popped", r.wavelets_popped);
    wm_regress_result(out, "off-mesh messages", r.offmesh_messages);
    wm_regress_result(out, "latency sum", r.latency_sum);
    wm_regress_result(out, "saturated", r.saturated);
    wm_regress_fabric_state(ops, f, w, h, out);
    return true;
}

#define U WM_PATTERN_UNIFORM
static const traffic_scenario random_1x1 = {TRAFFIC(U, 0.5, 4, 100, 400, 200, 11, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario random_8x8_low = {TRAFFIC(U, 0.02, 4, 200, 1000, 1000, 12, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario random_8x8_mid = {TRAFFIC(U, 0.10, 4, 200, 1000, 1000, 13, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario random_8x8_high = {TRAFFIC(U, 0.30, 4, 200, 800, 400, 14, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario random_row = {TRAFFIC(U, 0.10, 4, 100, 600, 600, 15, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario random_len1 = {TRAFFIC(U, 0.20, 1, 100, 800, 500, 16, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario random_len2 = {TRAFFIC(U, 0.20, 2, 100, 800, 500, 17, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario random_len17 = {TRAFFIC(U, 0.15, 17, 100, 1000, 1000, 18, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario random_len_max = {TRAFFIC(U, 0.20, 64, 100, 2000, 3000, 19, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario random_len64 = {TRAFFIC(U, 0.10, 64, 200, 2000, 2000, 20, 1, 0), NULL, 0, 0, 0};
/* meshes past 256 a side: coordinates that need the header's 10 bits */
static const traffic_scenario random_wide = {TRAFFIC(U, 0.02, 4, 0, 300, 1500, 31, 1, 0.05), NULL, 0, 0, 0};
static const traffic_scenario transpose_8x8 = {TRAFFIC(WM_PATTERN_TRANSPOSE, 0.10, 4, 200, 800, 800, 21, 1, 0),
                                               NULL, 0, 0, 0};
static const traffic_scenario bitcomp_8x8 = {TRAFFIC(WM_PATTERN_BITCOMP, 0.10, 4, 200, 800, 800, 22, 1, 0), NULL,
                                             0, 0, 0};
static const traffic_scenario hotspot_8x8 = {TRAFFIC(WM_PATTERN_HOTSPOT, 0.10, 4, 200, 800, 800, 23, 1, 0), NULL,
                                             0, 0, 0};
static const traffic_scenario slowpop_4x4 = {TRAFFIC(U, 0.15, 4, 100, 800, 2000, 24, 3, 0), NULL, 0, 0, 0};
static const traffic_scenario slowpop_8x8 = {TRAFFIC(U, 0.10, 8, 200, 1000, 2000, 25, 5, 0), NULL, 0, 0, 0};
static const traffic_scenario offmesh_5x4 = {TRAFFIC(U, 0.15, 3, 100, 800, 800, 26, 1, 0.15), NULL, 0, 0, 0};
static const uint8_t two_routers[][2] = {{2, 2}, {3, 1}};
static const traffic_scenario disabled_6x6 = {TRAFFIC(U, 0.05, 4, 100, 400, 200, 27, 1, 0), two_routers, 2, 0,
                                              UINT64_MAX};
static const uint8_t two_more_routers[][2] = {{2, 3}, {4, 4}};
static const traffic_scenario toggled_6x6 = {TRAFFIC(U, 0.08, 4, 100, 800, 800, 28, 1, 0), two_more_routers, 2,
                                             300, 650};
static const traffic_scenario random_16x16 = {TRAFFIC(U, 0.10, 4, 200, 400, 400, 29, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario random_32x32_low = {TRAFFIC(U, 0.05, 4, 200, 300, 300, 30, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario random_32x32_mid = {TRAFFIC(U, 0.10, 4, 500, 1000, 1000, 31, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario random_32x32_high = {TRAFFIC(U, 0.25, 4, 500, 1000, 500, 32, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario transpose_16x16 = {TRAFFIC(WM_PATTERN_TRANSPOSE, 0.12, 4, 300, 1000, 1000, 33, 1, 0),
                                                 NULL, 0, 0, 0};
static const traffic_scenario hotspot_16x16 = {TRAFFIC(WM_PATTERN_HOTSPOT, 0.08, 6, 300, 1000, 1000, 34, 1, 0),
                                               NULL, 0, 0, 0};
static const uint8_t column_of_routers[][2] = {{7, 3}, {7, 4}, {7, 5}, {7, 6}};
static const traffic_scenario random_32x32_long = {TRAFFIC(U, 0.10, 4, 1000, 4000, 2000, 36, 1, 0), NULL, 0, 0, 0};
static const traffic_scenario random_odd_shape = {TRAFFIC(U, 0.08, 5, 500, 2000, 2000, 37, 1, 0.01), NULL, 0, 0, 0};
static const traffic_scenario random_long_msgs = {TRAFFIC(U, 0.15, 33, 500, 3000, 3000, 38, 2, 0), NULL, 0, 0, 0};
static const traffic_scenario hotspot_32x32 = {TRAFFIC(WM_PATTERN_HOTSPOT, 0.05, 4, 500, 2000, 1000, 39, 1, 0),
                                               NULL, 0, 0, 0};
static const traffic_scenario toggled_16x16 = {TRAFFIC(U, 0.06, 4, 200, 1500, 1500, 35, 1, 0), column_of_routers,
                                               4, 400, 1200};
#undef U

/* ------------------------------------------------------------ directed */

/* (0,0) and (2,0) each send a header and one data wavelet to (1,0), pushed
 * in cycles 0 and 1. Both headers reach (1,0)'s inputs (W and E) in cycle
 * 3 and contend for L; RR[L] starts at 0, so E (port 1) wins before W
 * (port 3): (2,0)'s header is in (1,0)'s L register in cycle 4. */
static bool run_contention(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                           wm_regress_results *out)
{
    (void)arg;
    const uint32_t from_west[2] = {wm_header(1, 0, 1, 0xa0), 0xaaaa0001u};
    const uint32_t from_east[2] = {wm_header(1, 0, 1, 0xb0), 0xbbbb0001u};
    for (unsigned cycle = 0; cycle < 24; cycle++) {
        if (cycle < 2) {
            ops->pe_push(f, 0, 0, from_west[cycle]);
            ops->pe_push(f, 2, 0, from_east[cycle]);
        }
        const wm_pe_status st = ops->pe_status(f, 1, 0);
        if (st.rx_count) {
            wm_regress_result(out, "popped at (1,0)", st.rx_head);
            wm_regress_result(out, "pop cycle", st.tsc);
            ops->pe_pop(f, 1, 0);
        }
        ops->step(f);
    }
    wm_regress_fabric_state(ops, f, w, h, out);
    return true;
}

/* Refused accesses: (1,0) is disabled, so the 21-wavelet message (0,0)
 * pushes every cycle fills its TX queue and the next pushes are refused
 * (err_tx_full); (1,0) pops an empty RX queue (err_rx_empty). At cycle 30
 * (1,0) comes back and the message drains. */
static bool run_refused_accesses(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                                 wm_regress_results *out)
{
    (void)arg;
    ops->set_enable(f, 1, 0, false);
    for (unsigned cycle = 0; cycle < 90; cycle++) {
        if (cycle == 30) ops->set_enable(f, 1, 0, true);
        if (cycle < 21) ops->pe_push(f, 0, 0, cycle == 0 ? wm_header(1, 0, 20, 7) : 0x5000u + cycle);
        if (cycle == 5 || cycle == 40) wm_regress_fabric_state(ops, f, w, h, out);
        const wm_pe_status st = ops->pe_status(f, 1, 0);
        if (st.rx_count) wm_regress_result(out, "popped at (1,0)", st.rx_head);
        if (cycle < 60) ops->pe_pop(f, 1, 0);
        ops->step(f);
    }
    wm_regress_fabric_state(ops, f, w, h, out);
    return true;
}

/* Enables that change every few cycles, sometimes on consecutive edges,
 * while both end PEs of a row stream 5-wavelet messages to each other and
 * pop every other cycle: the registered enable and its neighbours' copies
 * must follow every change exactly. */
static bool run_flickering_enables(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                                   wm_regress_results *out)
{
    (void)arg;
    uint64_t lcg = 0x2545f4914f6cdd1dull;
    unsigned sent[2] = {0, 0};
    const unsigned ends[2] = {0, w - 1};
    for (unsigned cycle = 0; cycle < 600; cycle++) {
        lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
        if (cycle < 500)
            for (unsigned x = 1; x + 1 < w; x++) ops->set_enable(f, x, 0, ((lcg >> (33 + x)) & 3u) != 0);
        else if (cycle == 500)
            for (unsigned x = 1; x + 1 < w; x++) ops->set_enable(f, x, 0, true);
        for (unsigned k = 0; k < 2; k++) {
            const wm_pe_status st = ops->pe_status(f, ends[k], 0);
            if (cycle < 400 && st.tx_count < WM_TX_DEPTH) {
                const unsigned pos = sent[k] % 5;
                ops->pe_push(f, ends[k], 0,
                             pos == 0 ? wm_header(ends[1 - k], 0, 4, sent[k] / 5) : 0x70000000u + sent[k]);
                sent[k]++;
            }
            if (st.rx_count && (cycle & 1u)) {
                wm_regress_result_pe(out, "popped", ends[k], 0, st.rx_head);
                ops->pe_pop(f, ends[k], 0);
            }
        }
        ops->step(f);
    }
    wm_regress_fabric_state(ops, f, w, h, out);
    return true;
}

/* ------------------------------------------------------------ the table */

/* Each line's cap is WM_REGRESS_CAP of the cycles a correct run of it
 * takes (its PASS line), so that a broken fabric under it is a FAIL within
 * a few times its work, not a run to the firmware's own generous limits. */

const wm_regress_scenario wm_regress_corpus[] = {
    {"contention-3x1", 3, 1, run_contention, NULL, true, false, WM_REGRESS_CAP(24)},
    {"refused-accesses-2x1", 2, 1, run_refused_accesses, NULL, true, false, WM_REGRESS_CAP(90)},
    {"flickering-enables-5x1", 5, 1, run_flickering_enables, NULL, true, false, WM_REGRESS_CAP(600)},
    {"random-1x1-r0.50", 1, 1, run_traffic, &random_1x1, true, false, WM_REGRESS_CAP(500)},
    {"random-8x8-r0.02", 8, 8, run_traffic, &random_8x8_low, true, false, WM_REGRESS_CAP(1218)},
    {"random-8x8-r0.10", 8, 8, run_traffic, &random_8x8_mid, true, false, WM_REGRESS_CAP(1225)},
    {"random-8x8-r0.30", 8, 8, run_traffic, &random_8x8_high, true, false, WM_REGRESS_CAP(1400)},
    {"random-1x16-r0.10", 1, 16, run_traffic, &random_row, true, false, WM_REGRESS_CAP(718)},
    {"random-16x1-r0.10", 16, 1, run_traffic, &random_row, true, false, WM_REGRESS_CAP(718)},
    {"random-3x5-len1", 3, 5, run_traffic, &random_len1, true, false, WM_REGRESS_CAP(910)},
    {"random-5x3-len2", 5, 3, run_traffic, &random_len2, true, false, WM_REGRESS_CAP(916)},
    {"random-4x4-len17", 4, 4, run_traffic, &random_len17, true, false, WM_REGRESS_CAP(1118)},
    {"random-4x4-len-max", 4, 4, run_traffic, &random_len_max, true, false, WM_REGRESS_CAP(2641)},
    {"transpose-8x8-r0.10", 8, 8, run_traffic, &transpose_8x8, true, false, WM_REGRESS_CAP(1034)},
    {"bitcomp-8x8-r0.10", 8, 8, run_traffic, &bitcomp_8x8, true, false, WM_REGRESS_CAP(1030)},
    {"hotspot-8x8-r0.10", 8, 8, run_traffic, &hotspot_8x8, true, false, WM_REGRESS_CAP(1800)},
    {"slowpop-4x4-every3", 4, 4, run_traffic, &slowpop_4x4, true, false, WM_REGRESS_CAP(926)},
    {"offmesh-5x4", 5, 4, run_traffic, &offmesh_5x4, true, false, WM_REGRESS_CAP(921)},
    {"disabled-6x6", 6, 6, run_traffic, &disabled_6x6, true, false, WM_REGRESS_CAP(700)},
    {"toggled-6x6", 6, 6, run_traffic, &toggled_6x6, true, false, WM_REGRESS_CAP(918)},
    {"random-16x16-r0.10", 16, 16, run_traffic, &random_16x16, true, false, WM_REGRESS_CAP(657)},
    {"random-32x32-r0.05", 32, 32, run_traffic, &random_32x32_low, true, false, WM_REGRESS_CAP(617)},
    {"random-1x32-r0.10", 1, 32, run_traffic, &random_row, true, false, WM_REGRESS_CAP(1300)},
    {"random-32x1-r0.10", 32, 1, run_traffic, &random_row, true, false, WM_REGRESS_CAP(1300)},
    {"random-12x7-len64", 12, 7, run_traffic, &random_len64, true, false, WM_REGRESS_CAP(2441)},
    {"random-300x2-wide", 300, 2, run_traffic, &random_wide, true, false, WM_REGRESS_CAP(1800)},
    {"random-2x300-wide", 2, 300, run_traffic, &random_wide, true, false, WM_REGRESS_CAP(1800)},
    {"slowpop-8x8-every5", 8, 8, run_traffic, &slowpop_8x8, true, false, WM_REGRESS_CAP(2522)},
    {"transpose-16x16-r0.12", 16, 16, run_traffic, &transpose_16x16, true, false, WM_REGRESS_CAP(2300)},
    {"hotspot-16x16-r0.08", 16, 16, run_traffic, &hotspot_16x16, true, false, WM_REGRESS_CAP(2300)},
    {"toggled-16x16", 16, 16, run_traffic, &toggled_16x16, true, false, WM_REGRESS_CAP(1890)},
    {"random-32x32-r0.10", 32, 32, run_traffic, &random_32x32_mid, true, false, WM_REGRESS_CAP(2500)},
    {"random-32x32-r0.25", 32, 32, run_traffic, &random_32x32_high, true, false, WM_REGRESS_CAP(2000)},
    {"collectives-tutorial", 7, 1, wm_collectives_regress, &wm_regress_tutorial, true, false, WM_REGRESS_CAP(847)},
    {"collectives-tworow", 4, 2, wm_collectives_regress, &wm_regress_tworow, true, false, WM_REGRESS_CAP(845)},
    {"collectives-htree-16", 7, 7, wm_collectives_regress, &wm_regress_htree16, true, false, WM_REGRESS_CAP(1599)},
    {"core-tutorial", 7, 1, wm_collectives_regress, &wm_regress_core_tutorial, true, true, WM_REGRESS_CAP(1016)},
    {"core-tworow", 4, 2, wm_collectives_regress, &wm_regress_core_tworow, true, true, WM_REGRESS_CAP(1014)},
    {"core-tutorial-exercise1", 7, 1, wm_collectives_regress, &wm_regress_core_tutorial_ex1, true, true,
     WM_REGRESS_CAP(1012)},
    {"core-htree-16", 7, 7, wm_collectives_regress, &wm_regress_core_htree16, true, true, WM_REGRESS_CAP(1810)},
    {"core-row-8", 15, 1, wm_collectives_regress, &wm_regress_core_row8, true, true, WM_REGRESS_CAP(1455)},
    {"core-tworow-16", 16, 2, wm_collectives_regress, &wm_regress_core_tworow16, true, true, WM_REGRESS_CAP(1820)},
    {"core-inorder-8", 15, 1, wm_collectives_regress, &wm_regress_core_inorder8, true, true, WM_REGRESS_CAP(1423)},
    {"core-htree-64", 15, 15, wm_collectives_regress, &wm_regress_core_htree64, false, true, WM_REGRESS_CAP(2624)},
    {"core-stream-east-4x3", 4, 3, wm_stream_regress, &wm_regress_stream_east, true, true, WM_REGRESS_CAP(2009)},
    {"core-stream-diagonal-5x5", 5, 5, wm_stream_regress, &wm_regress_stream_diagonal, true, true,
     WM_REGRESS_CAP(2559)},
    {"core-stream-1x7", 1, 7, wm_stream_regress, &wm_regress_stream_diagonal, true, true, WM_REGRESS_CAP(2559)},
    {"core-stream-uniform-6x6", 6, 6, wm_stream_regress, &wm_regress_stream_uniform, true, true, WM_REGRESS_CAP(4000)},
    {"core-stream-transpose-4x4", 4, 4, wm_stream_regress, &wm_regress_stream_transpose, true, true,
     WM_REGRESS_CAP(1319)},
    {"core-stream-long-8x8", 8, 8, wm_stream_regress, &wm_regress_stream_long, false, true, WM_REGRESS_CAP(26556)},
    {"gs-plan-grid-4x2", 4, 2, wm_gs_regress, &wm_regress_gs_plan_grid, true, false, WM_REGRESS_CAP(41037)},
    {"gs-crystal-random-5x1", 5, 1, wm_gs_regress, &wm_regress_gs_crystal_random, true, false, WM_REGRESS_CAP(27731)},
    {"gs-pairwise-chain-3x2", 3, 2, wm_gs_regress, &wm_regress_gs_pairwise_chain, true, false, WM_REGRESS_CAP(198245)},
    {"core-gs-plan-grid-4x2", 4, 2, wm_gs_regress, &wm_regress_core_gs_plan_grid, true, true, WM_REGRESS_CAP(42874)},
    {"core-gs-crystal-random-5x1", 5, 1, wm_gs_regress, &wm_regress_core_gs_crystal_random, true, true,
     WM_REGRESS_CAP(26017)},
    {"core-gs-pairwise-chain-3x2", 3, 2, wm_gs_regress, &wm_regress_core_gs_pairwise_chain, true, true,
     WM_REGRESS_CAP(204482)},
    {"core-gs-plan-random-4x4", 4, 4, wm_gs_regress, &wm_regress_core_gs_plan_random, false, true,
     WM_REGRESS_CAP(70420)},
    {"random-32x32-r0.10-long", 32, 32, run_traffic, &random_32x32_long, false, false, WM_REGRESS_CAP(7000)},
    {"random-31x29-offmesh", 31, 29, run_traffic, &random_odd_shape, false, false, WM_REGRESS_CAP(4500)},
    {"random-2x32-len33-slowpop", 2, 32, run_traffic, &random_long_msgs, false, false, WM_REGRESS_CAP(6500)},
    {"hotspot-32x32-r0.05", 32, 32, run_traffic, &hotspot_32x32, false, false, WM_REGRESS_CAP(3500)},
    {NULL, 0, 0, NULL, NULL, false, false, 0},
};
