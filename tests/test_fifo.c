/* test_fifo.c: rtl/prim/wm_fifo.v on its own, under Icarus.
 *
 * Every queue of the tile is this cell, and the tile's tests reach it only
 * through callers that never push a full FIFO (credits, the TX check), so
 * a FIFO that accepted such a push was caught by nothing. The bench
 * tests/icarus/tb_fifo.v holds it to its contract cycle by cycle at
 * several depths: without WM_ASSERTIONS the refused push (its guard),
 * with them the assertions that fire at a push when full and a pop when
 * empty, which is what a simulation of the whole tile would show. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OUT_MAX = 1 << 16 };

/* Build the bench at depth with or without the assertions and run it
 * with the plusargs given; its output into out. */
static void run_bench(unsigned depth, bool assertions, const char *plusargs, char *out)
{
    char vvp[256], cmd[1024];
    snprintf(vvp, sizeof vvp, BUILD_DIR "/tb_fifo_%u%s.vvp", depth, assertions ? "_assert" : "");
    snprintf(cmd, sizeof cmd, "iverilog -g2005 %s -Ptb_fifo.DEPTH=%u -o %s tests/icarus/tb_fifo.v rtl/prim/wm_fifo.v",
             assertions ? "-DWM_ASSERTIONS" : "", depth, vvp);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "vvp -n %s %s", vvp, plusargs);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    const size_t n = fread(out, 1, OUT_MAX - 1, p);
    out[n] = '\0';
    pclose(p);
}

/* 1: a ring of one entry, the head alone; 3: a ring that wraps at no power
 * of two. */
static const unsigned depths[] = {1, 2, 3, 4, 8};

/* The guard: a push into a full FIFO, alone or with a pop, is refused and
 * leaves its entries as they were; and 2000 random cycles agree with the
 * model. */
static void test_fifo_keeps_its_contract_and_refuses_a_push_when_full(void **state)
{
    (void)state;
    static char out[OUT_MAX];
    for (size_t k = 0; k < sizeof depths / sizeof depths[0]; k++) {
        run_bench(depths[k], false, "", out);
        if (strstr(out, "FAIL") || !strstr(out, " checks, 0 failed"))
            fail_msg("wm_fifo at depth %u:\n%s", depths[k], out);
        const unsigned checks = (unsigned)strtoul(strstr(out, "DONE ") + 5, NULL, 10);
        assert_true(checks > 2000);
    }
}

/* The assertions: the bench's first push into the full FIFO stops the
 * simulation with the FIFO's message, before any later check; so does a
 * pop of the empty FIFO. */
static void test_fifo_assertions_fire_at_a_push_when_full_and_a_pop_when_empty(void **state)
{
    (void)state;
    static char out[OUT_MAX];
    for (size_t k = 0; k < sizeof depths / sizeof depths[0]; k++) {
        run_bench(depths[k], true, "", out);
        if (!strstr(out, "ASSERTION FAILED tb_fifo.dut: push into a full FIFO") || strstr(out, "DONE") ||
            strstr(out, "FAIL "))
            fail_msg("wm_fifo at depth %u with WM_ASSERTIONS:\n%s", depths[k], out);
        run_bench(depths[k], true, "+pop_empty", out);
        if (!strstr(out, "ASSERTION FAILED tb_fifo.dut: pop from an empty FIFO") || strstr(out, "DONE"))
            fail_msg("wm_fifo at depth %u with WM_ASSERTIONS, popped empty:\n%s", depths[k], out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifo_keeps_its_contract_and_refuses_a_push_when_full),
        cmocka_unit_test(test_fifo_assertions_fire_at_a_push_when_full_and_a_pop_when_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
