/* test_tsc_carry.c: the PE's 64-bit timestamp counter across its carries,
 * on the rtl and sw backends, read from C and by firmware on the core.
 *
 * A run from reset never reaches 2^32 cycles, so the counter's high word
 * is reached by starting it near the carry: wm_fabric_config.tsc_start,
 * which the rtl backend drives into every tile's tsc_init_i (rtl/wm_pe.v)
 * and the sw model adds to its cycle. docs/fabric.md: the tsc reads
 * tsc_start + t at cycle t; docs/core.md: a TSC_LO read returns the low
 * word at its cycle and latches the high word of the same cycle, which the
 * next TSC_HI read returns, so a LO-then-HI pair reads one 64-bit value
 * even when the carry falls between the two loads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/rv32_asm.h"
#include "fabric/fabric.h"

enum {
    RB = 0x80000000u,  /* the register window */
    PAIRS = 8,         /* LO-then-HI reads */
    OUT = 0x100,       /* where the program stores them */
    X1 = 1, X2 = 2, X3 = 3, X4 = 4
};

static const wm_fabric_ops *const backends[] = {&wm_fabric_rtl, &wm_fabric_sw};

/* From C: the status of every PE reads tsc_start + cycle, across the
 * 2^32 carry and across the 2^64 wrap. */
static void test_tsc_from_c_across_carries(void **state)
{
    (void)state;
    const uint64_t starts[] = {(1ull << 32) - 5, UINT64_MAX - 2};
    for (size_t b = 0; b < 2; b++) {
        for (size_t s = 0; s < 2; s++) {
            const wm_fabric_config cfg = {.tsc_start = starts[s]};
            wm_fabric *f = backends[b]->create_with(2, 1, false, &cfg);
            assert_non_null(f);
            for (uint64_t c = 0; c < 10; c++) {
                for (unsigned x = 0; x < 2; x++) {
                    const uint64_t want = starts[s] + c;
                    const uint64_t got = backends[b]->pe_status(f, x, 0).tsc;
                    if (got != want)
                        fail_msg("%s: tsc of (%u,0) at cycle %llu is %#llx, not %#llx", backends[b]->name, x,
                                 (unsigned long long)c, (unsigned long long)got, (unsigned long long)want);
                }
                backends[b]->step(f);
            }
            backends[b]->destroy(f);
        }
    }
}

/* The program: PAIRS times lw LO, lw HI, both stored; EXIT 0. Straight
 * line (docs/core.md: the LUI in X in cycle 1, a load two cycles, a store
 * one): the LO load of pair i has its access cycle at the core's cycle
 * 2 + 6i, the HI load at 4 + 6i. */
static unsigned program(uint32_t *w)
{
    unsigned n = 0;
    w[n++] = rv_lui(X1, RB >> 12);
    for (unsigned i = 0; i < PAIRS; i++) {
        w[n++] = rv_lw(X2, X1, WM_CORE_REG_TSC_LO);
        w[n++] = rv_lw(X3, X1, WM_CORE_REG_TSC_HI);
        w[n++] = rv_sw(X2, 0, (int32_t)(OUT + 8 * i));
        w[n++] = rv_sw(X3, 0, (int32_t)(OUT + 8 * i + 4));
    }
    w[n++] = rv_addi(X4, 0, 0);
    w[n++] = rv_sw(X4, X1, WM_CORE_REG_EXIT);
    return n;
}

/* Runs the program on a 1x1 fabric of cores whose tsc starts at start;
 * out gets the PAIRS 64-bit values read. */
static void run_reads(const wm_fabric_ops *ops, uint64_t start, uint64_t *out, uint64_t *started_at)
{
    uint32_t w[64];
    const unsigned n = program(w);
    uint8_t bytes[4 * 64];
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < 4; k++) bytes[4 * i + k] = (uint8_t)(w[i] >> 8 * k);
    const wm_fabric_config cfg = {.tsc_start = start};
    wm_fabric *f = ops->create_with(1, 1, true, &cfg);
    assert_non_null(f);
    ops->core_load(f, 0, 0, 0, bytes, 4 * n);
    ops->step(f);
    ops->step(f);
    *started_at = ops->cycle(f);
    ops->core_start(f, 0, 0);
    for (unsigned c = 0; c < 200 && ops->core_status(f, 0, 0).halt.state == WM_CORE_RUNNING; c++) ops->step(f);
    const wm_core_status st = ops->core_status(f, 0, 0);
    if (st.halt.state != WM_CORE_EXITED) fail_msg("%s: the core did not exit", ops->name);
    uint8_t b[8 * PAIRS];
    ops->core_read(f, 0, 0, OUT, b, sizeof b);
    for (unsigned i = 0; i < PAIRS; i++) {
        uint64_t v = 0;
        for (unsigned k = 0; k < 8; k++) v |= (uint64_t)b[8 * i + k] << 8 * k;
        out[i] = v;
    }
    ops->destroy(f);
}

/* Through firmware: with the carry placed at every point of the
 * sequence (between a LO and its HI read among them), every pair reads
 * tsc_start + the fabric cycle of its LO load, on both backends. */
static void test_tsc_by_firmware_across_the_carry(void **state)
{
    (void)state;
    for (size_t b = 0; b < 2; b++) {
        for (uint64_t k = 1; k <= 6 * PAIRS + 4; k++) {
            const uint64_t start = (1ull << 32) - k;
            uint64_t v[PAIRS], s;
            run_reads(backends[b], start, v, &s);
            for (unsigned i = 0; i < PAIRS; i++) {
                const uint64_t want = start + s + 2 + 6 * i;
                if (v[i] != want)
                    fail_msg("%s, tsc_start 2^32 - %llu: pair %u read %#llx, not %#llx", backends[b]->name,
                             (unsigned long long)k, i, (unsigned long long)v[i], (unsigned long long)want);
            }
        }
    }
}

/* rtl-mesh's tsc is rtl/mesh.v's TSC_INIT: another start is refused. */
static void test_rtl_mesh_refuses_a_tsc_start(void **state)
{
    (void)state;
    const wm_fabric_config cfg = {.tsc_start = 1};
    assert_null(wm_fabric_rtl_mesh.create_with(4, 3, false, &cfg));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tsc_from_c_across_carries),
        cmocka_unit_test(test_tsc_by_firmware_across_the_carry),
        cmocka_unit_test(test_rtl_mesh_refuses_a_tsc_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
