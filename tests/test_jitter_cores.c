/* test_jitter_cores.c: the schedule's jitter on the cores (scheduler.h,
 * wm_sched_set_jitter; docs/kernels.md, "Races: `--jitter`"). On both
 * backends each core's first instruction retires exactly its start delay
 * later than unjittered, no core spends a cycle in the stall drawn after
 * its push or pop, a hook the caller set sees every event, and the same
 * seed gives the same events on both; a backend that cannot hold one
 * core, a run already started and a debugger are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run/layout.h"
#include "run/runner.h"

static const char *const backend_names[] = {"rtl", "sw"};
enum { NBACKENDS = 2, MAX_PES = 8, MAX_EVENTS = 4096 };

/* The generator of csim/run/jitter.c, restated: the test checks the
 * schedule against it, not against itself. */
static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static uint64_t seeded(uint64_t seed, size_t pe)
{
    uint64_t mix = seed ^ (0x632be59bd9b4e019u * (pe + 1));
    return splitmix(&mix) | 1;
}

typedef struct {
    uint64_t cycle;
    bool push, pop, retire;
    uint32_t pc;
} event;

/* Every event of every PE, in order, from the caller's core hook. */
typedef struct {
    const wm_sched *s;
    size_t n[MAX_PES];
    event ev[MAX_PES][MAX_EVENTS];
} events_seen;

static void record(void *ctx, const wm_core_event *e)
{
    events_seen *seen = ctx;
    for (size_t i = 0; i < wm_sched_pe_count(seen->s); i++) {
        const wm_instance *in = wm_sched_pe_instance(seen->s, i);
        if (in->x != e->x || in->y != e->y) continue;
        assert_true(seen->n[i] < MAX_EVENTS);
        /* retire_pc means something with retire only (core_port.h) */
        seen->ev[i][seen->n[i]++] =
            (event){e->cycle, e->what.push, e->what.pop, e->what.retire, e->what.retire ? e->what.retire_pc : 0};
    }
}

/* bench.layout on the cores of backend under seed (0: unjittered) to
 * its end, every event into seen; the run's cycles. */
static uint64_t run_bench(const char *backend, uint64_t seed, events_seen *seen)
{
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    wm_layout *l = wm_layout_load("sw/collectives/bench.layout", NULL, 0, stderr);
    assert_non_null(l);
    wm_runner *r = wm_runner_create_mode(ops, l, NULL, WM_PE_CORE);
    assert_non_null(r);
    wm_sched *s = wm_runner_sched(r);
    assert_true(wm_sched_pe_count(s) <= MAX_PES);
    char why[300] = "";
    if (seed) assert_true(wm_sched_set_jitter(s, seed, why, sizeof why));
    assert_int_equal(wm_sched_jittered(s), seed != 0);
    memset(seen, 0, sizeof *seen);
    seen->s = s;
    ops->set_core_hook(wm_runner_fabric(r), record, seen);
    assert_int_equal(wm_runner_run(r, 100000), WM_RUN_DONE);
    const uint64_t cycles = wm_sched_cycle(s);
    wm_runner_destroy(r);
    wm_layout_destroy(l);
    return cycles;
}

static void test_each_core_starts_its_delay_late_and_stands_still_for_each_stall(void **state)
{
    (void)state;
    static events_seen plain, jittered, other;
    const uint64_t seed = 3;
    for (size_t b = 0; b < NBACKENDS; b++) {
        const uint64_t cycles = run_bench(backend_names[b], 0, &plain);
        const uint64_t jittered_cycles = run_bench(backend_names[b], seed, &jittered);
        assert_int_equal(cycles, 310);
        assert_int_equal(jittered_cycles, 426);
        unsigned delayed = 0, stalled = 0;
        for (size_t i = 0; i < wm_sched_pe_count(jittered.s); i++) {
            uint64_t gen = seeded(seed, i);
            const uint64_t delay = splitmix(&gen) % 65;
            /* the first instruction retires exactly delay cycles late */
            assert_true(plain.n[i] > 0 && jittered.n[i] > 0);
            assert_true(plain.ev[i][0].retire && jittered.ev[i][0].retire);
            assert_int_equal(jittered.ev[i][0].cycle, plain.ev[i][0].cycle + delay);
            delayed += delay > 0;
            /* after an access with stall k at cycle c the core spends
             * none of cycles c+1..c+k (the path may differ from the
             * unjittered one: a node looks at its queues' occupancy) */
            for (size_t k = 0; k < jittered.n[i]; k++) {
                const event *e = &jittered.ev[i][k];
                unsigned stall = 0;
                if (e->push) stall += (unsigned)(splitmix(&gen) % 9);
                if (e->pop) stall += (unsigned)(splitmix(&gen) % 9);
                if (k + 1 < jittered.n[i]) assert_true(jittered.ev[i][k + 1].cycle > e->cycle + stall);
                stalled += stall > 0;
            }
        }
        /* the seed did delay and stall, or the checks above saw nothing */
        assert_true(delayed >= 4);
        assert_true(stalled >= 20);
        /* the other backend under the same seed: the same events */
        if (b == 0) continue;
        run_bench(backend_names[0], seed, &other);
        for (size_t i = 0; i < wm_sched_pe_count(jittered.s); i++) {
            assert_int_equal(other.n[i], jittered.n[i]);
            for (size_t k = 0; k < jittered.n[i]; k++) {
                assert_int_equal(other.ev[i][k].cycle, jittered.ev[i][k].cycle);
                assert_int_equal(other.ev[i][k].pc, jittered.ev[i][k].pc);
            }
        }
    }
}

static bool no_stop(void *ctx, uint64_t cycle)
{
    (void)ctx, (void)cycle;
    return true;
}

static void test_jitter_is_refused_where_it_cannot_hold_a_core(void **state)
{
    (void)state;
    char why[300] = "";
    /* rtl-mesh's cores (4x2 only) cannot be held one at a time */
    static const char mesh[] = "mesh 4 2\nregion all\nat a 0 0\nat b 1 0\n"
                               "pe a chain VAL=1 FIRST=1 LAST=0 NEXTX=b.x NEXTY=b.y\n"
                               "pe b chain VAL=2 FIRST=0 LAST=1\n";
    wm_layout *l = wm_layout_parse(mesh, "t.layout", NULL, 0, stderr);
    assert_non_null(l);
    wm_runner *r = wm_runner_create_mode(wm_fabric_backend("rtl-mesh"), l, NULL, WM_PE_CORE);
    assert_non_null(r);
    assert_false(wm_sched_set_jitter(wm_runner_sched(r), 1, why, sizeof why));
    assert_string_equal(why, "the rtl-mesh backend cannot hold one core, which jitter on the cores does (it needs rtl or sw)");
    assert_false(wm_sched_jittered(wm_runner_sched(r)));
    wm_runner_destroy(r);
    for (size_t b = 0; b < NBACKENDS; b++) {
        /* after the cores started */
        r = wm_runner_create_mode(wm_fabric_backend(backend_names[b]), l, NULL, WM_PE_CORE);
        assert_non_null(r);
        assert_int_equal(wm_runner_run(r, 5), WM_RUN_MAX_CYCLES);
        assert_false(wm_sched_set_jitter(wm_runner_sched(r), 1, why, sizeof why));
        assert_string_equal(why, "jitter is set before the first run, not after the cores started");
        wm_runner_destroy(r);
        /* under a debugger, and a debugger under jitter */
        const wm_sched_debugger d = {no_stop};
        r = wm_runner_create_mode(wm_fabric_backend(backend_names[b]), l, NULL, WM_PE_CORE);
        assert_true(wm_sched_set_debugger(wm_runner_sched(r), &d, NULL));
        assert_false(wm_sched_set_jitter(wm_runner_sched(r), 1, why, sizeof why));
        assert_string_equal(why, "jitter under a debugger: both hold cores, and each would let go of the other's holds");
        assert_true(wm_sched_set_debugger(wm_runner_sched(r), NULL, NULL));
        assert_true(wm_sched_set_jitter(wm_runner_sched(r), 1, why, sizeof why));
        assert_false(wm_sched_set_debugger(wm_runner_sched(r), &d, NULL));
        assert_int_equal(wm_runner_run(r, 100000), WM_RUN_DONE);
        wm_runner_destroy(r);
    }
    wm_layout_destroy(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_core_starts_its_delay_late_and_stands_still_for_each_stall),
        cmocka_unit_test(test_jitter_is_refused_where_it_cannot_hold_a_core),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
