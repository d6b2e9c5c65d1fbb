/* test_fabric_sw.c: the sw model on its own, against the numbers of
 * docs/fabric.md (the behaviours tests/test_fabric.c checks on every
 * backend are not repeated here), on mesh sizes the rtl backend is too
 * slow for, its perturbation switch, and its two-thread evaluation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabric/fabric.h"
#include "fabric/fabric_sw.h"
#include "fabric/trace.h"
#include "traffic/traffic.h"

#include <unistd.h>

typedef struct {
    wm_link_event ev[64];
    unsigned n;
} event_log;

static void log_event(void *ctx, const wm_link_event *ev)
{
    event_log *l = ctx;
    if (l->n < 64) l->ev[l->n] = *ev;
    l->n++;
}

static void assert_event(const wm_link_event *ev, uint64_t cycle, unsigned x, unsigned y, unsigned port,
                         uint32_t data)
{
    assert_int_equal(ev->cycle, cycle);
    assert_int_equal(ev->x, x);
    assert_int_equal(ev->y, y);
    assert_int_equal(ev->port, port);
    assert_int_equal(ev->data, data);
}

/* docs/fabric.md "Timing diagram: one message, two hops": H and D pushed
 * at (0,0) in cycles 0 and 1, bound for (2,0). */
static void test_two_hop_timing_diagram(void **state)
{
    (void)state;
    wm_fabric *f = wm_fabric_sw.create(3, 1);
    assert_non_null(f);
    event_log log = {0};
    wm_fabric_sw.set_link_hook(f, log_event, &log);
    const uint32_t h = wm_header(2, 0, 1, 0x42), d = 0xdeadbeefu;
    uint64_t popped_at[2] = {0, 0};
    unsigned popped = 0;
    for (unsigned cycle = 0; cycle < 12; cycle++) {
        assert_int_equal(wm_fabric_sw.cycle(f), cycle);
        if (cycle < 2) wm_fabric_sw.pe_push(f, 0, 0, cycle == 0 ? h : d);
        const wm_pe_status st = wm_fabric_sw.pe_status(f, 2, 0);
        assert_int_equal(st.tsc, cycle);
        if (cycle == 6) assert_int_equal(st.rx_count, 0);
        if (cycle == 7) assert_int_equal(st.rx_count, 1);
        if (st.rx_count) {
            assert_int_equal(st.rx_head, popped == 0 ? h : d);
            popped_at[popped++] = cycle;
            wm_fabric_sw.pe_pop(f, 2, 0);
        }
        wm_fabric_sw.step(f);
    }
    assert_int_equal(log.n, 6);
    assert_event(&log.ev[0], 2, 0, 0, WM_PORT_E, h);
    assert_event(&log.ev[1], 3, 0, 0, WM_PORT_E, d);
    assert_event(&log.ev[2], 4, 1, 0, WM_PORT_E, h);
    assert_event(&log.ev[3], 5, 1, 0, WM_PORT_E, d);
    assert_event(&log.ev[4], 6, 2, 0, WM_PORT_L, h);
    assert_event(&log.ev[5], 7, 2, 0, WM_PORT_L, d);
    assert_int_equal(popped, 2);
    assert_int_equal(popped_at[0], 7);
    assert_int_equal(popped_at[1], 8);
    assert_true(wm_fabric_sw.quiescent(f));
    assert_int_equal(wm_fabric_sw.pe_status(f, 2, 0).status, 0);
    wm_fabric_sw.destroy(f);
}

/* Corner to corner of the largest mesh: 255 + 255 hops, so the header is
 * in the destination's RX at cycle 3 + 2 * 510, and the fabric is busy
 * until then and quiescent after. */
static void test_largest_mesh_corner_to_corner(void **state)
{
    (void)state;
    wm_fabric *f = wm_fabric_sw.create(WM_MESH_MAX, WM_MESH_MAX);
    assert_non_null(f);
    const unsigned far = WM_MESH_MAX - 1;
    wm_fabric_sw.pe_push(f, 0, 0, wm_header(far, far, 0, 1));
    uint64_t arrived = 0;
    for (unsigned c = 0; c < 5000 && !arrived; c++) {
        wm_fabric_sw.step(f);
        if (wm_fabric_sw.pe_status(f, far, far).rx_count) arrived = wm_fabric_sw.cycle(f);
        else assert_false(wm_fabric_sw.quiescent(f));
    }
    assert_int_equal(arrived, 3 + 2 * (2 * far));
    assert_true(wm_fabric_sw.quiescent(f));
    assert_int_equal(wm_fabric_sw.in_flight(f, NULL, 0), 0);
    wm_fabric_sw.destroy(f);
}

/* A mesh outside 1x1..1024x1024 is refused with a message, not an assert. */
static void test_bad_mesh_sizes_are_refused(void **state)
{
    (void)state;
    assert_null(wm_fabric_sw.create(0, 4));
    assert_null(wm_fabric_sw.create(4, WM_MESH_MAX + 1));
}

/* A message routed through a disabled router waits in the upstream input
 * buffer; in_flight names the place and the header; enabling the router
 * again lets it through. */
static void test_disabled_router_holds_the_message_upstream(void **state)
{
    (void)state;
    wm_fabric *f = wm_fabric_sw.create(3, 1);
    assert_non_null(f);
    /* The neighbours see the enable drop two edges later. */
    wm_fabric_sw.set_enable(f, 1, 0, false);
    for (unsigned c = 0; c < 3; c++) wm_fabric_sw.step(f);
    const uint32_t h = wm_header(2, 0, 0, 9);
    wm_fabric_sw.pe_push(f, 0, 0, h);
    for (unsigned c = 0; c < 50; c++) wm_fabric_sw.step(f);
    assert_false(wm_fabric_sw.quiescent(f));
    wm_flight places[4];
    assert_int_equal(wm_fabric_sw.in_flight(f, places, 4), 1);
    assert_int_equal(places[0].x, 0);
    assert_int_equal(places[0].y, 0);
    assert_int_equal(places[0].place, WM_AT_TX);
    assert_int_equal(places[0].count, 1);
    assert_int_equal(places[0].head, h);
    assert_true(wm_fabric_sw.pe_status(f, 0, 0).status & WM_ST_BUSY);
    wm_fabric_sw.set_enable(f, 1, 0, true);
    unsigned c = 0;
    while (c < 50 && !wm_fabric_sw.pe_status(f, 2, 0).rx_count) {
        wm_fabric_sw.step(f);
        c++;
    }
    assert_int_equal(wm_fabric_sw.pe_status(f, 2, 0).rx_head, h);
    assert_true(wm_fabric_sw.quiescent(f));
    wm_fabric_sw.destroy(f);
}

/* An off-mesh header and its data are discarded at the source router;
 * err_hdr keeps the first one, the bit stays set. */
static void test_off_mesh_messages_are_dropped_at_the_source(void **state)
{
    (void)state;
    wm_fabric *f = wm_fabric_sw.create(2, 2);
    assert_non_null(f);
    const uint32_t first = wm_header(5, 0, 2, 1), second = wm_header(0, 9, 0, 2);
    const uint32_t words[4] = {first, 0x11u, 0x22u, second};
    for (unsigned c = 0; c < 20; c++) {
        if (c < 4) wm_fabric_sw.pe_push(f, 1, 1, words[c]);
        wm_fabric_sw.step(f);
    }
    const wm_pe_status st = wm_fabric_sw.pe_status(f, 1, 1);
    assert_int_equal(st.status, WM_ST_ERR_OFFMESH);
    assert_int_equal(st.err_hdr, first);
    assert_true(wm_fabric_sw.quiescent(f));
    for (unsigned t = 0; t < 4; t++) assert_int_equal(wm_fabric_sw.pe_status(f, t % 2, t / 2).rx_count, 0);
    wm_fabric_sw.destroy(f);
}

static void test_perturbation_specs_parse(void **state)
{
    (void)state;
    wm_sw_perturbation p;
    char err[200];
    assert_true(wm_sw_perturbation_parse("rr-reverse:1,0", &p, err, sizeof err));
    assert_int_equal(p.kind, WM_SW_RR_REVERSE);
    assert_int_equal(p.x, 1);
    assert_int_equal(p.y, 0);
    assert_true(wm_sw_perturbation_parse("late-grant:3,4,S", &p, err, sizeof err));
    assert_int_equal(p.kind, WM_SW_LATE_GRANT);
    assert_int_equal(p.x, 3);
    assert_int_equal(p.y, 4);
    assert_int_equal(p.port, WM_PORT_S);
    assert_false(wm_sw_perturbation_parse("late-grant:3,4,Q", &p, err, sizeof err));
    assert_non_null(strstr(err, "late-grant:3,4,Q"));
    assert_false(wm_sw_perturbation_parse("rr-reverse:1", &p, err, sizeof err));
    assert_false(wm_sw_perturbation_parse("rr-reverse:1100,1", &p, err, sizeof err));
    assert_non_null(strstr(err, "outside"));
}

/* Two headers contend for (1,0)'s L output in cycle 3. Exact: E (port 1)
 * wins, RR[L] = 0. Reversed arbitration at (1,0): W (port 3) wins. */
static uint32_t first_at_ramp(const wm_fabric_config *cfg)
{
    wm_fabric *f = wm_fabric_create(&wm_fabric_sw, 3, 1, false, cfg);
    assert_non_null(f);
    event_log log = {0};
    wm_fabric_sw.set_link_hook(f, log_event, &log);
    wm_fabric_sw.pe_push(f, 0, 0, wm_header(1, 0, 0, 0xa0));
    wm_fabric_sw.pe_push(f, 2, 0, wm_header(1, 0, 0, 0xb0));
    for (unsigned c = 0; c < 5; c++) wm_fabric_sw.step(f);
    wm_fabric_sw.destroy(f);
    for (unsigned k = 0; k < log.n && k < 64; k++)
        if (log.ev[k].port == WM_PORT_L) return log.ev[k].data;
    return 0;
}

static void test_reversed_arbitration_changes_the_winner(void **state)
{
    (void)state;
    assert_int_equal(first_at_ramp(NULL), wm_header(1, 0, 0, 0xb0));
    const wm_fabric_config reversed = {.perturbation = {WM_SW_RR_REVERSE, 1, 0, 0}};
    assert_int_equal(first_at_ramp(&reversed), wm_header(1, 0, 0, 0xa0));
    assert_int_equal(first_at_ramp(NULL), wm_header(1, 0, 0, 0xb0));
}

typedef struct {
    wm_trace *trace;
    wm_traffic_result result;
    uint64_t parallel_steps;
    wm_pe_status ports[37 * 29];
    size_t in_flight;
} busy_run;

/* A 37x29 mesh past saturation: 1073 tiles, so the split between the
 * threads falls inside a row; off-mesh messages, and two routers switched
 * off and on again, one in either thread's part. */
static void run_busy_mesh(wm_sw_threads mode, busy_run *run)
{
    enum { W = 37, H = 29 };
    const wm_fabric_config threads = {.threads = mode};
    wm_fabric *f = wm_fabric_create(&wm_fabric_sw, W, H, false, &threads);
    assert_non_null(f);
    run->trace = wm_trace_create();
    assert_non_null(run->trace);
    wm_fabric_sw.set_link_hook(f, wm_trace_record, run->trace);
    wm_traffic_config cfg = wm_traffic_config_default();
    cfg.rate = 0.3;
    cfg.len = 5;
    cfg.warmup = 100;
    cfg.sample = 400;
    cfg.drain_max = 200;
    cfg.seed = 7;
    cfg.offmesh_fraction = 0.02;
    wm_traffic *t = wm_traffic_create(&cfg, &wm_fabric_sw, f, W, H);
    assert_non_null(t);
    for (uint64_t cycle = 0; !wm_traffic_done(t); cycle++) {
        if (cycle == 150 || cycle == 320) {
            wm_fabric_sw.set_enable(f, 30, 3, cycle != 150);
            wm_fabric_sw.set_enable(f, 12, 22, cycle != 150);
        }
        wm_traffic_step(t);
    }
    run->result = wm_traffic_result_now(t);
    wm_traffic_destroy(t);
    for (unsigned k = 0; k < W * H; k++) run->ports[k] = wm_fabric_sw.pe_status(f, k % W, k / W);
    run->in_flight = wm_fabric_sw.in_flight(f, NULL, 0);
    run->parallel_steps = wm_fabric_sw_parallel_steps(f);
    wm_fabric_sw.destroy(f);
}

static void test_two_threads_give_the_one_thread_trace(void **state)
{
    (void)state;
    static busy_run one, two;
    run_busy_mesh(WM_SW_THREADS_ONE, &one);
    run_busy_mesh(WM_SW_THREADS_TWO, &two);
    assert_int_equal(one.parallel_steps, 0);
    assert_int_equal(two.parallel_steps, two.result.cycles);
    assert_true(wm_trace_ok(one.trace) && wm_trace_ok(two.trace));
    assert_true(wm_trace_event_count(one.trace) > 100000);
    assert_int_equal(wm_trace_event_count(two.trace), wm_trace_event_count(one.trace));
    uint64_t cycle = 0;
    if (wm_trace_first_difference(one.trace, two.trace, &cycle)) fail_msg("traces differ from cycle %llu",
                                                                          (unsigned long long)cycle);
    assert_int_equal(two.result.cycles, one.result.cycles);
    assert_int_equal(two.result.wavelets_popped, one.result.wavelets_popped);
    assert_int_equal(two.result.messages_arrived, one.result.messages_arrived);
    assert_int_equal(two.result.offmesh_messages, one.result.offmesh_messages);
    assert_true(one.result.offmesh_messages > 0);
    assert_int_equal(two.in_flight, one.in_flight);
    for (unsigned k = 0; k < 37 * 29; k++) {
        assert_int_equal(two.ports[k].tx_count, one.ports[k].tx_count);
        assert_int_equal(two.ports[k].rx_count, one.ports[k].rx_count);
        assert_int_equal(two.ports[k].rx_head, one.ports[k].rx_head);
        assert_int_equal(two.ports[k].status, one.ports[k].status);
        assert_int_equal(two.ports[k].err_hdr, one.ports[k].err_hdr);
    }
    wm_trace_destroy(one.trace);
    wm_trace_destroy(two.trace);
}

/* Automatic: a mesh of at most WM_SW_PARALLEL_MIN tiles never starts the
 * worker; a busy larger one does, once its steps evaluate more tiles (for
 * one trial window at least; whether it stays on two threads depends on
 * the machine's load, which a test does not assert). */
static void test_automatic_threads_follow_the_load(void **state)
{
    (void)state;
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) skip();
    const wm_fabric_config automatic = {.threads = WM_SW_THREADS_AUTO};
    const unsigned sizes[2] = {16, 32};
    uint64_t parallel[2];
    for (unsigned k = 0; k < 2; k++) {
        wm_fabric *f = wm_fabric_create(&wm_fabric_sw, sizes[k], sizes[k], false, &automatic);
        assert_non_null(f);
        wm_traffic_config cfg = wm_traffic_config_default();
        cfg.rate = 0.3;
        cfg.warmup = 0;
        cfg.sample = 300;
        cfg.drain_max = 0;
        wm_traffic *t = wm_traffic_create(&cfg, &wm_fabric_sw, f, sizes[k], sizes[k]);
        assert_non_null(t);
        wm_traffic_run(t);
        wm_traffic_destroy(t);
        parallel[k] = wm_fabric_sw_parallel_steps(f);
        wm_fabric_sw.destroy(f);
    }
    assert_int_equal(parallel[0], 0);
    assert_true(parallel[1] > 0);
}

/* The hook reports what stands in the output registers at the cycle of
 * the report, also after it was switched off and on again in between. */
static void test_link_hook_off_and_on_again(void **state)
{
    (void)state;
    const wm_fabric_config two = {.threads = WM_SW_THREADS_TWO};
    wm_fabric *f = wm_fabric_create(&wm_fabric_sw, 3, 1, false, &two);
    assert_non_null(f);
    event_log log = {0};
    wm_fabric_sw.set_link_hook(f, log_event, &log);
    const uint32_t h = wm_header(2, 0, 1, 0x42), d = 0xdeadbeefu;
    for (unsigned cycle = 0; cycle < 12; cycle++) {
        if (cycle < 2) wm_fabric_sw.pe_push(f, 0, 0, cycle == 0 ? h : d);
        if (cycle == 3) wm_fabric_sw.set_link_hook(f, NULL, NULL);
        if (cycle == 5) wm_fabric_sw.set_link_hook(f, log_event, &log);
        wm_fabric_sw.step(f);
    }
    /* Cycles 2 and 3 before, 6 and 7 after the gap of the timing diagram. */
    assert_int_equal(log.n, 4);
    assert_event(&log.ev[0], 2, 0, 0, WM_PORT_E, h);
    assert_event(&log.ev[1], 3, 0, 0, WM_PORT_E, d);
    assert_event(&log.ev[2], 6, 2, 0, WM_PORT_L, h);
    assert_event(&log.ev[3], 7, 2, 0, WM_PORT_L, d);
    wm_fabric_sw.destroy(f);
}

/* WM_SW_THREADS is user input: a bad value is a message, not a mode. */
/* Latency percentiles. Two PEs sending each other messages of four
 * wavelets at a low rate never contend: every latency is the 8 cycles of
 * one uncontended message (created, pushed, two router stages, the ramp,
 * four pops), so each percentile, the maximum and the average are 8. At
 * twice the rate a few meet and wait a cycle: the 99th percentile and the
 * maximum are 9, the median 8. Messages of one wavelet carry no data to be
 * told apart by: no percentiles. */
static void test_latency_percentiles(void **state)
{
    (void)state;
    const double rates[2] = {0.01, 0.02};
    const uint64_t p99[2] = {8, 9};
    for (int k = 0; k < 3; k++) {
        wm_traffic_config cfg = wm_traffic_config_default();
        cfg.pattern = WM_PATTERN_BITCOMP;
        cfg.rate = rates[k % 2];
        cfg.len = k == 2 ? 1 : 4;
        cfg.sample = 2000;
        wm_fabric *f = wm_fabric_sw.create(2, 1);
        wm_traffic *t = wm_traffic_create(&cfg, &wm_fabric_sw, f, 2, 1);
        assert_non_null(t);
        const wm_traffic_result r = wm_traffic_run(t);
        wm_traffic_destroy(t);
        wm_fabric_sw.destroy(f);
        assert_false(r.saturated);
        if (k == 2) {
            assert_false(r.has_percentiles);
            continue;
        }
        assert_true(r.has_percentiles);
        assert_int_equal(r.p50_latency, 8);
        assert_int_equal(r.p90_latency, 8);
        assert_int_equal(r.p99_latency, p99[k]);
        assert_int_equal(r.max_latency, p99[k]);
        if (k == 0) assert_int_equal(r.latency_sum, 8 * r.sample_messages);
    }
}

static void test_bad_thread_setting_is_refused(void **state)
{
    (void)state;
    setenv("WM_SW_THREADS", "3", 1);
    assert_null(wm_fabric_sw.create(4, 4));
    setenv("WM_SW_THREADS", "2", 1);
    wm_fabric *f = wm_fabric_sw.create(4, 4);
    assert_non_null(f);
    wm_fabric_sw.pe_push(f, 0, 0, wm_header(3, 3, 0, 1));
    for (unsigned c = 0; c < 20; c++) wm_fabric_sw.step(f);
    assert_int_equal(wm_fabric_sw.pe_status(f, 3, 3).rx_head, wm_header(3, 3, 0, 1));
    assert_int_equal(wm_fabric_sw_parallel_steps(f), 20);
    wm_fabric_sw.destroy(f);
    unsetenv("WM_SW_THREADS");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_hop_timing_diagram),
        cmocka_unit_test(test_largest_mesh_corner_to_corner),
        cmocka_unit_test(test_bad_mesh_sizes_are_refused),
        cmocka_unit_test(test_disabled_router_holds_the_message_upstream),
        cmocka_unit_test(test_off_mesh_messages_are_dropped_at_the_source),
        cmocka_unit_test(test_perturbation_specs_parse),
        cmocka_unit_test(test_reversed_arbitration_changes_the_winner),
        cmocka_unit_test(test_two_threads_give_the_one_thread_trace),
        cmocka_unit_test(test_automatic_threads_follow_the_load),
        cmocka_unit_test(test_link_hook_off_and_on_again),
        cmocka_unit_test(test_bad_thread_setting_is_refused),
        cmocka_unit_test(test_latency_percentiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
