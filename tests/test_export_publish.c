/* test_export_publish.c: a result a core exports is published, not leaked.
 * A run stopped at any cycle prints the results whose bit is set in the PE
 * block's exported word (csim/run/core_sched.c reads the block when the
 * run ends), so each of them must already hold its final value: the
 * firmware stores the value before the bit (sw/rv32/mp_core.h,
 * wm_rv32_publish). The tutorial and tworow rows on the cores, on both
 * backends, are looked at between every two cycles from 1 to their end,
 * each core's block read as a stop there reads it; and runs stopped by
 * --max-cycles at the cycles where the leaves export print only final
 * values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rv32/pe_block.h"
#include "run/runner.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    wm_setting settings[5];
} row;

static const row rows[] = {
    {"tutorial", {{"SHAPE", 0, NULL}, {"V0", 10, NULL}, {"V1", 20, NULL}, {"V2", 30, NULL}, {"V3", 40, NULL}}},
    {"tworow", {{"SHAPE", 1, NULL}, {"V0", 7, NULL}, {"V1", 300, NULL}, {"V2", 0, NULL}, {"V3", 5, NULL}}},
};

enum { MAX_PES = 16 };

/* The final results of a run: each PE's exports by index (PEs in layout
 * order, the same in every run of the row). */
typedef struct {
    size_t n;
    int64_t value[MAX_PES][WM_PE_EXPORTS_MAX];
    bool have[MAX_PES][WM_PE_EXPORTS_MAX];
    uint64_t end;
} finals;

/* What the looks saw. */
typedef struct {
    const finals *fin;
    wm_sched *s;
    const char *where; /* row and backend, for the messages */
    uint64_t looks, published, wrong;
} watcher;

static wm_runner *start(const row *rw, const wm_fabric_ops *ops, wm_layout **layout)
{
    *layout = wm_layout_load("sw/collectives/bench.layout", rw->settings, 5, stderr);
    assert_non_null(*layout);
    wm_runner *r = wm_runner_create_mode(ops, *layout, NULL, WM_PE_CORE);
    assert_non_null(r);
    return r;
}

static void run_to_end(const row *rw, const wm_fabric_ops *ops, finals *fin)
{
    wm_layout *layout;
    wm_runner *r = start(rw, ops, &layout);
    assert_int_equal(wm_runner_run(r, 100000), WM_RUN_DONE);
    const wm_sched *s = wm_runner_sched(r);
    fin->n = wm_sched_pe_count(s);
    assert_true(fin->n <= MAX_PES);
    fin->end = wm_sched_cycle(s);
    for (size_t p = 0; p < fin->n; p++) {
        const wm_instance *in = wm_sched_pe_instance(s, p);
        for (unsigned e = 0; in->kernel->exports && in->kernel->exports[e]; e++)
            fin->have[p][e] = wm_sched_result(s, in->name, in->kernel->exports[e], &fin->value[p][e]);
    }
    wm_runner_destroy(r);
    wm_layout_destroy(layout);
}

/* Between two cycles: every result a stop here would print is final. */
static bool look(void *ctx, uint64_t cycle)
{
    watcher *w = ctx;
    if (cycle == 0) return true;
    w->looks++;
    const wm_fabric_ops *ops = wm_sched_fabric_ops(w->s);
    const wm_fabric *f = wm_sched_fabric(w->s);
    for (size_t p = 0; p < w->fin->n; p++) {
        const wm_instance *in = wm_sched_pe_instance(w->s, p);
        wm_pe_block b;
        ops->core_read(f, in->x, in->y, WM_PE_BLOCK_ADDR, &b, sizeof b);
        for (unsigned e = 0; in->kernel->exports && in->kernel->exports[e]; e++) {
            if (!(b.exported & 1u << e)) continue;
            w->published++;
            if (!w->fin->have[p][e] || b.exports[e] != w->fin->value[p][e]) {
                if (w->wrong++ < 5)
                    print_error("%s: cycle %" PRIu64 ": %s.%s = %" PRId64 ", final %" PRId64 "\n", w->where, cycle,
                                in->name, in->kernel->exports[e], b.exports[e], w->fin->value[p][e]);
            }
        }
    }
    return true;
}

static void check_every_cycle(const row *rw, const wm_fabric_ops *ops)
{
    finals fin = {0};
    run_to_end(rw, ops, &fin);
    char where[64];
    snprintf(where, sizeof where, "%s on %s", rw->name, ops->name);
    wm_layout *layout;
    wm_runner *r = start(rw, ops, &layout);
    watcher w = {.fin = &fin, .s = wm_runner_sched(r), .where = where};
    const wm_sched_debugger d = {look};
    assert_true(wm_sched_set_debugger(w.s, &d, &w));
    assert_int_equal(wm_runner_run(r, 100000), WM_RUN_DONE);
    assert_int_equal(wm_sched_cycle(w.s), fin.end); /* looking changed nothing */
    assert_int_equal(w.looks, fin.end - 1);         /* cycles 1 .. end - 1, and the end is the final */
    assert_true(w.published > 0);
    assert_int_equal(w.wrong, 0);
    wm_runner_destroy(r);
    wm_layout_destroy(layout);

    /* Runs stopped by the cycle limit while the leaves export: what they
     * print (their results) is final or absent. */
    for (uint64_t stop = fin.end - 60; stop < fin.end; stop += 3) {
        r = start(rw, ops, &layout);
        assert_int_equal(wm_runner_run(r, stop), WM_RUN_MAX_CYCLES);
        const wm_sched *s = wm_runner_sched(r);
        for (size_t p = 0; p < fin.n; p++) {
            const wm_instance *in = wm_sched_pe_instance(s, p);
            for (unsigned e = 0; in->kernel->exports && in->kernel->exports[e]; e++) {
                int64_t v;
                if (!wm_sched_result(s, in->name, in->kernel->exports[e], &v)) continue;
                if (v != fin.value[p][e])
                    fail_msg("%s stopped at cycle %" PRIu64 ": %s.%s = %" PRId64 ", final %" PRId64, where, stop,
                             in->name, in->kernel->exports[e], v, fin.value[p][e]);
            }
        }
        wm_runner_destroy(r);
        wm_layout_destroy(layout);
    }
}

static void test_tutorial_sw(void **state)
{
    (void)state;
    check_every_cycle(&rows[0], &wm_fabric_sw);
}

static void test_tworow_sw(void **state)
{
    (void)state;
    check_every_cycle(&rows[1], &wm_fabric_sw);
}

static void test_tutorial_rtl(void **state)
{
    (void)state;
    check_every_cycle(&rows[0], &wm_fabric_rtl);
}

static void test_tworow_rtl(void **state)
{
    (void)state;
    check_every_cycle(&rows[1], &wm_fabric_rtl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tutorial_sw),
        cmocka_unit_test(test_tworow_sw),
        cmocka_unit_test(test_tutorial_rtl),
        cmocka_unit_test(test_tworow_rtl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
