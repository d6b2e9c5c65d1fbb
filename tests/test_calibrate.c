/* test_calibrate.c: the native cost model is the core's. The calibration
 * run on the cores gives exactly the table built in (sw/cost_model.h), on
 * both backends; that table, written out, is the committed file byte for
 * byte; and a core that behaves differently (a simulator whose RAM loads
 * take 3 cycles on the sending PE) gives a different table, so a stale one
 * cannot pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/iss.h"
#include "fabric/fabric_sw.h"
#include "mp.h"
#include "run/calibrate.h"

static void test_the_cores_measure_the_built_in_table(void **state)
{
    (void)state;
    wm_cost_entry built[WM_COST_ENTRIES];
    wm_cost_model_current(built);
    const char *const backends[] = {"sw", "rtl"};
    for (int b = 0; b < 2; b++) {
        wm_cost_entry now[WM_COST_ENTRIES];
        assert_true(wm_calibrate(wm_fabric_backend(backends[b]), now, stderr));
        for (int i = 0; i < WM_COST_ENTRIES; i++) {
            if (now[i].value != built[i].value)
                fail_msg("%s on %s: measured %ld, built in %ld (run `make calibrate`)", now[i].name, backends[b],
                         now[i].value, built[i].value);
        }
    }
    /* what sw/mp.h and docs/cost-model.md say a one-wavelet message costs its sender */
    assert_int_equal(WM_COST_HEADER + WM_COST_SEND_CALL + 2 + WM_COST_SEND_WAVELET, 11);
}

static void test_the_committed_file_is_the_table_written_out(void **state)
{
    (void)state;
    wm_cost_entry built[WM_COST_ENTRIES];
    wm_cost_model_current(built);
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    assert_non_null(mem);
    wm_cost_model_write(mem, built);
    fclose(mem);
    FILE *f = fopen("sw/cost_model.h", "r");
    assert_non_null(f);
    char *file = calloc(size + 2, 1);
    assert_non_null(file);
    const size_t n = fread(file, 1, size + 1, f);
    fclose(f);
    assert_int_equal(n, size);
    assert_string_equal(file, text);
    free(file);
    free(text);
}

static void test_a_different_core_gives_a_different_table(void **state)
{
    (void)state;
    wm_cost_entry built[WM_COST_ENTRIES], now[WM_COST_ENTRIES];
    wm_cost_model_current(built);
    /* the calibration's sender is PE (0,0) */
    const wm_fabric_config slow_load = {.perturbation = {WM_SW_CORE, 0, 0, WM_ISS_PERTURB_RAM_LOAD_3}};
    wm_fabric_ops sw = wm_fabric_sw;
    sw.config = &slow_load;
    const bool ok = wm_calibrate(&sw, now, stderr);
    if (!ok) return; /* a calibration that cannot run fails `make calibrate` just as well */
    int differ = 0;
    for (int i = 0; i < WM_COST_ENTRIES; i++) differ += now[i].value != built[i].value;
    assert_true(differ > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_cores_measure_the_built_in_table),
        cmocka_unit_test(test_the_committed_file_is_the_table_written_out),
        cmocka_unit_test(test_a_different_core_gives_a_different_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
