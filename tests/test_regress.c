/* test_regress.c: the lockstep regression, and proof that it fires.
 *
 * A few corpus scenarios must pass on rtl against sw (make test runs the
 * whole quick corpus through `wavemesh regress --quick`); the deliberately
 * perturbed sw model must be reported at the exact cycle, tile and port,
 * with the exact wavelets; the trace comparator, the result comparison
 * and a property both backends break must each be reported. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabric/fabric.h"
#include "fabric/fabric_rtl.h"
#include "fabric/fabric_sw.h"
#include "regress/layout_regress.h"
#include "regress/regress.h"
#include "fabric/trace.h"
#include "core/iss.h"

static const wm_regress_scenario *scenario(const char *name)
{
    const wm_regress_scenario *s = wm_regress_find(name);
    assert_non_null(s);
    return s;
}

static void test_small_scenarios_agree(void **state)
{
    (void)state;
    const char *const names[] = {"contention-3x1", "refused-accesses-2x1", "random-8x8-r0.10", "offmesh-5x4",
                                 "disabled-6x6", "random-4x4-len-max"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        wm_regress_report rep;
        wm_regress_run(scenario(names[k]), &wm_fabric_rtl, &wm_fabric_sw, &rep);
        if (!rep.passed) fail_msg("%s", rep.line);
        assert_true(rep.events > 0);
        assert_int_equal(strncmp(rep.line, "PASS ", 5), 0);
    }
}

/* The sw backend with a deliberate bug, as `regress --perturb` makes it:
 * a copy of its table whose fabrics are made with the perturbation. */
static wm_fabric_ops perturbed_sw(const wm_fabric_config *cfg)
{
    wm_fabric_ops ops = wm_fabric_sw;
    ops.config = cfg;
    return ops;
}

static void run_perturbed(wm_sw_perturbation p, wm_regress_report *rep)
{
    const wm_fabric_config cfg = {.perturbation = p};
    const wm_fabric_ops sw = perturbed_sw(&cfg);
    wm_regress_run(scenario("contention-3x1"), &wm_fabric_rtl, &sw, rep);
}

/* contention-3x1: both headers reach (1,0) in cycle 3 and contend for L.
 * The RTL grants E (port 1, RR[L] = 0) first, so (2,0)'s header 010001b0
 * is in (1,0)'s L register in cycle 4; reversed, W wins: 010001a0. */
static void test_reversed_arbitration_is_reported_at_cycle_4(void **state)
{
    (void)state;
    wm_regress_report rep;
    run_perturbed((wm_sw_perturbation){WM_SW_RR_REVERSE, 1, 0, 0}, &rep);
    assert_false(rep.passed);
    assert_true(rep.diverged);
    assert_int_equal(rep.first.cycle, 4);
    assert_int_equal(rep.first.x, 1);
    assert_int_equal(rep.first.y, 0);
    assert_int_equal(rep.first.port, WM_PORT_L);
    assert_true(rep.first.has_expected);
    assert_true(rep.first.has_got);
    assert_int_equal(rep.first.expected, wm_header(1, 0, 1, 0xb0));
    assert_int_equal(rep.first.got, wm_header(1, 0, 1, 0xa0));
    assert_string_equal(rep.line, "FAIL contention-3x1 3x1: first divergence at cycle 4 tile (1,0) port L: "
                                  "expected 00400070, got 00400060");
}

/* One cycle of extra latency on (1,0)'s L output: in cycle 4 the register
 * the RTL fills is still empty in the model. */
static void test_late_grant_is_reported_as_a_missing_wavelet(void **state)
{
    (void)state;
    wm_regress_report rep;
    run_perturbed((wm_sw_perturbation){WM_SW_LATE_GRANT, 1, 0, WM_PORT_L}, &rep);
    assert_true(rep.diverged);
    assert_int_equal(rep.first.cycle, 4);
    assert_int_equal(rep.first.x, 1);
    assert_int_equal(rep.first.y, 0);
    assert_int_equal(rep.first.port, WM_PORT_L);
    assert_true(rep.first.has_expected);
    assert_false(rep.first.has_got);
    assert_int_equal(rep.first.expected, wm_header(1, 0, 1, 0xb0));
    assert_non_null(strstr(rep.line, "expected 00400070, got nothing"));
}

/* A perturbation away from any traffic changes nothing. */
static void test_perturbation_off_the_path_passes(void **state)
{
    (void)state;
    wm_regress_report rep;
    run_perturbed((wm_sw_perturbation){WM_SW_RR_REVERSE, 2, 0, 0}, &rep);
    assert_true(rep.passed);
}

/* The sw model's core at (1,0) (leaf l1 of the tutorial tree) pops its RX
 * queue a cycle late (core/iss.h's PERTURB_RX_POP_LATE). l1's only RX loads
 * wait for its prefix: the RTL core pops it at cycle 244, after stalling
 * since the store before its loads retired at cycle 57; the
 * perturbed one has nothing to report that cycle. The link events still
 * agree then, so the core comparison is what fires, naming the PC. */
static void test_a_perturbed_core_simulator_is_reported_with_its_pc(void **state)
{
    (void)state;
    wm_regress_report rep;
    const wm_fabric_config cfg = {.perturbation = {WM_SW_CORE, 1, 0, WM_ISS_PERTURB_RX_POP_LATE}};
    const wm_fabric_ops sw = perturbed_sw(&cfg);
    wm_regress_run(scenario("core-tutorial"), &wm_fabric_rtl, &sw, &rep);
    assert_false(rep.passed);
    assert_false(rep.diverged);
    assert_true(rep.core_diverged);
    /* The PC is where the node's firmware clears the receive's buffer, the
     * last instruction before its inlined RX load: the same on both sides,
     * whatever it is in this build. */
    unsigned pc_e = 0, pc_g = 1;
    char rest[200] = "";
    const int n = sscanf(rep.line,
                         "FAIL core-tutorial 7x1: first core divergence at cycle 244 core (1,0) RX pop: expected "
                         "00000001, got nothing; core (1,0) last retired: expected pc 0x%x 00012623 (sw x0, "
                         "12(x2)) at cycle 57, got pc 0x%x %199[^\n]",
                         &pc_e, &pc_g, rest);
    if (n != 3) fail_msg("unexpected report: %s", rep.line);
    assert_int_equal(pc_e, pc_g);
    assert_string_equal(rest, "00012623 (sw x0, 12(x2)) at cycle 57");
}

/* Any layout in lockstep (`regress LAYOUT`): the all-reduce agrees in both
 * PE modes. With the root's tile arbitrating in reverse, its ramp delivers
 * the west leaf's sum (4) where the RTL delivers a 6: the children's
 * headers are alike (same destination, length and tag), so the first
 * difference is a data wavelet. A layout that does not load runs nothing. */
static void test_a_users_layout_in_lockstep(void **state)
{
    (void)state;
    for (int pe = 0; pe < 2; pe++) {
        const wm_layout_regress lr = {"sw/collectives/allreduce.layout", NULL, 0, pe ? WM_PE_CORE : WM_PE_NATIVE,
                                      1000000, 0};
        wm_regress_report rep;
        assert_true(wm_layout_regress_run(&lr, &wm_fabric_rtl, &wm_fabric_sw, &rep));
        if (!rep.passed) fail_msg("%s", rep.line);
        assert_int_equal(rep.events, 64);
    }
    const wm_layout_regress lr = {"sw/collectives/allreduce.layout", NULL, 0, WM_PE_NATIVE, 1000000, 0};
    wm_regress_report rep;
    const wm_fabric_config cfg = {.perturbation = {WM_SW_RR_REVERSE, 1, 1, 0}};
    const wm_fabric_ops sw = perturbed_sw(&cfg);
    assert_true(wm_layout_regress_run(&lr, &wm_fabric_rtl, &sw, &rep));
    assert_false(rep.passed);
    assert_true(rep.diverged);
    assert_string_equal(rep.line, "FAIL sw/collectives/allreduce.layout (native) 3x3: first divergence at cycle 62 "
                                  "tile (1,1) port L: expected 00000006, got 00000004");
    const wm_layout_regress missing = {"sw/collectives/no-such.layout", NULL, 0, WM_PE_NATIVE, 1000, 0};
    assert_false(wm_layout_regress_run(&missing, &wm_fabric_rtl, &wm_fabric_sw, &rep));
}

/* Unperturbed, the cores agree instruction by instruction. */
static void test_core_scenarios_agree(void **state)
{
    (void)state;
    const char *const names[] = {"core-tworow", "core-stream-east-4x3"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        wm_regress_report rep;
        wm_regress_run(scenario(names[k]), &wm_fabric_rtl, &wm_fabric_sw, &rep);
        if (!rep.passed) fail_msg("%s", rep.line);
    }
}

static void record(wm_trace *t, uint64_t cycle, unsigned x, unsigned y, unsigned port, uint32_t data)
{
    const wm_link_event ev = {cycle, (uint16_t)x, (uint16_t)y, (uint8_t)port, data};
    wm_trace_record(t, &ev);
}

/* Two traces fed by hand: the same up to cycle 7, where the second has
 * another wavelet at (3,2) E, and an extra one at (0,0) N. */
static void fill(wm_trace *t, bool faulty)
{
    for (uint64_t c = 1; c <= 9; c++) {
        record(t, c, 1, 1, WM_PORT_W, 0x100u + (uint32_t)c);
        if (c == 7) {
            if (faulty) record(t, c, 0, 0, WM_PORT_N, 0xeeeeu);
            record(t, c, 3, 2, WM_PORT_E, faulty ? 0xbadu : 0x600du);
        }
    }
}

static void test_trace_comparison_finds_the_first_divergence(void **state)
{
    (void)state;
    wm_trace *e = wm_trace_create(), *g = wm_trace_create();
    fill(e, false);
    fill(g, false);
    uint64_t cycle;
    assert_false(wm_trace_first_difference(e, g, &cycle));
    wm_trace_destroy(g);
    g = wm_trace_create();
    fill(g, true);
    assert_true(wm_trace_first_difference(e, g, &cycle));
    assert_int_equal(cycle, 7);
    wm_trace_destroy(e);
    wm_trace_destroy(g);

    /* Second pass with cycle 7 captured: in (y, x, port) order the extra
     * wavelet at (0,0) comes first. */
    e = wm_trace_create();
    g = wm_trace_create();
    wm_trace_capture(e, 7);
    wm_trace_capture(g, 7);
    fill(e, false);
    fill(g, true);
    wm_divergence d;
    assert_true(wm_trace_first_divergence(e, g, &d));
    assert_int_equal(d.cycle, 7);
    assert_int_equal(d.x, 0);
    assert_int_equal(d.y, 0);
    assert_int_equal(d.port, WM_PORT_N);
    assert_false(d.has_expected);
    assert_true(d.has_got);
    assert_int_equal(d.got, 0xeeeeu);
    char line[200];
    wm_divergence_format(&d, line, sizeof line);
    assert_string_equal(line, "cycle 7 tile (0,0) port N: expected nothing, got 0000eeee");
    wm_trace_destroy(e);
    wm_trace_destroy(g);
}

/* A scenario whose traces agree but whose result differs by backend. */
static bool result_by_backend(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                              wm_regress_results *out)
{
    (void)f;
    (void)w;
    (void)h;
    (void)arg;
    wm_regress_result(out, "answer", !strcmp(ops->name, "sw") ? 43 : 42);
    return true;
}

static void test_a_differing_result_word_is_reported(void **state)
{
    (void)state;
    const wm_regress_scenario s = {"answer-1x1", 1, 1, result_by_backend, NULL, true, false, WM_REGRESS_CAP(1)};
    wm_regress_report rep;
    wm_regress_run(&s, &wm_fabric_rtl, &wm_fabric_sw, &rep);
    assert_false(rep.passed);
    assert_false(rep.diverged);
    assert_true(rep.result_differs);
    assert_string_equal(rep.line, "FAIL answer-1x1 1x1: result 'answer': expected 42 (0x2a), got 43 (0x2b)");
}

/* A scenario whose backends agree on a run that breaks a property. */
static bool a_broken_property(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                              wm_regress_results *out)
{
    (void)ops;
    (void)f;
    (void)w;
    (void)h;
    (void)arg;
    wm_regress_result(out, "answer", 42);
    wm_regress_fault(out, "the answer is not 41");
    wm_regress_fault(out, "a second fault, not reported");
    return true;
}

static void test_a_fault_both_backends_agree_on_is_reported(void **state)
{
    (void)state;
    const wm_regress_scenario s = {"fault-1x1", 1, 1, a_broken_property, NULL, true, false, WM_REGRESS_CAP(1)};
    wm_regress_report rep;
    wm_regress_run(&s, &wm_fabric_rtl, &wm_fabric_sw, &rep);
    assert_false(rep.passed);
    assert_true(rep.run_failed);
    assert_string_equal(rep.line, "FAIL fault-1x1 1x1: both backends agree, but the answer is not 41");
}

/* A neighbour that sends without credits, on the rtl backend only: (1,0)
 * is disabled, so its west input buffer is never popped, and five
 * wavelets are driven into it on five edges. The fifth is a push into a
 * full FIFO, which the FIFO's assertion catches in the edge to cycle 5. */
static bool overfill_an_input_buffer(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                                     wm_regress_results *out)
{
    (void)arg;
    ops->set_enable(f, 1, 0, false);
    for (unsigned c = 0; c < 20; c++) {
        if (!strcmp(ops->name, "rtl") && c < 5) wm_fabric_rtl_inject_link(f, 1, 0, WM_PORT_W, 0x1000u + c);
        ops->step(f);
    }
    wm_regress_fabric_state(ops, f, w, h, out);
    return true;
}

/* A scenario that never ends, as firmware waiting on a broken fabric. */
static bool never_ends(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                       wm_regress_results *out)
{
    (void)w;
    (void)h;
    (void)arg;
    (void)out;
    for (;;) ops->step(f);
    return true;
}

/* An RTL assertion is the failure of its scenario, not the end of the
 * process: the scenario after it runs, and passes. */
static void test_an_rtl_assertion_fails_its_scenario_and_the_next_runs(void **state)
{
    (void)state;
    const wm_regress_scenario bad = {"overfill-2x1", 2, 1, overfill_an_input_buffer, NULL, true, false,
                                     WM_REGRESS_CAP(20)};
    print_message("the simulator's two assertion messages below are this test's, on purpose\n");
    wm_regress_report rep;
    wm_regress_run(&bad, &wm_fabric_rtl, &wm_fabric_sw, &rep);
    assert_false(rep.passed);
    assert_true(rep.asserted);
    assert_false(rep.interrupted);
    assert_string_equal(rep.line, "FAIL overfill-2x1 2x1: an RTL assertion failed on the rtl backend in the edge to "
                                  "cycle 5 (the simulator's message is above)");
    wm_regress_run(scenario("contention-3x1"), &wm_fabric_rtl, &wm_fabric_sw, &rep);
    if (!rep.passed) fail_msg("%s", rep.line);
    /* and again: the assertion of one fabric is not carried to the next */
    wm_regress_run(&bad, &wm_fabric_rtl, &wm_fabric_sw, &rep);
    assert_true(rep.asserted);
    wm_regress_run(scenario("refused-accesses-2x1"), &wm_fabric_rtl, &wm_fabric_sw, &rep);
    if (!rep.passed) fail_msg("%s", rep.line);
}

/* A scenario that does not end is stopped at its cap, on either backend. */
static void test_a_scenario_is_stopped_at_its_cap(void **state)
{
    (void)state;
    const wm_regress_scenario endless = {"endless-2x2", 2, 2, never_ends, NULL, true, false, WM_REGRESS_CAP(10)};
    wm_regress_report rep;
    wm_regress_run(&endless, &wm_fabric_rtl, &wm_fabric_sw, &rep);
    assert_false(rep.passed);
    assert_true(rep.capped);
    assert_string_equal(rep.line, "FAIL endless-2x2 2x2: the rtl run reached the scenario's cap of 10100 cycles (10 x "
                                  "a correct run's, + 10000): it does not end, or its cap in regress_corpus.c is out "
                                  "of date");
    wm_regress_run(&endless, &wm_fabric_sw, &wm_fabric_rtl, &rep);
    assert_true(rep.capped);
    assert_non_null(strstr(rep.line, "the sw run reached"));
    wm_regress_run(scenario("contention-3x1"), &wm_fabric_rtl, &wm_fabric_sw, &rep);
    if (!rep.passed) fail_msg("%s", rep.line);
}

/* Every scenario of the corpus has a cap, and room under it. */
static void test_every_scenario_has_a_cap(void **state)
{
    (void)state;
    for (const wm_regress_scenario *s = wm_regress_corpus; s->name; s++)
        if (s->cap < 10000) fail_msg("%s: cap %llu", s->name, (unsigned long long)s->cap);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_scenarios_agree),
        cmocka_unit_test(test_reversed_arbitration_is_reported_at_cycle_4),
        cmocka_unit_test(test_late_grant_is_reported_as_a_missing_wavelet),
        cmocka_unit_test(test_perturbation_off_the_path_passes),
        cmocka_unit_test(test_a_perturbed_core_simulator_is_reported_with_its_pc),
        cmocka_unit_test(test_core_scenarios_agree),
        cmocka_unit_test(test_trace_comparison_finds_the_first_divergence),
        cmocka_unit_test(test_a_differing_result_word_is_reported),
        cmocka_unit_test(test_a_fault_both_backends_agree_on_is_reported),
        cmocka_unit_test(test_an_rtl_assertion_fails_its_scenario_and_the_next_runs),
        cmocka_unit_test(test_a_scenario_is_stopped_at_its_cap),
        cmocka_unit_test(test_every_scenario_has_a_cap),
        cmocka_unit_test(test_a_users_layout_in_lockstep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
