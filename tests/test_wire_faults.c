/* test_wire_faults.c: the gs firmware defends itself against the wire.
 *
 * A broken fabric delivers words that no correct sender wrote. The gs
 * kernels read lengths, counts and indices off the wire (a stage's word
 * count, a record's length, a message's routing word), so each must be
 * checked against the buffer it is about to size or index before it is
 * used: such a word is a firmware fault that names the PE, never a write
 * outside the PE's memory (in the native mode that memory is the host's,
 * and a write past it crashed the host).
 *
 * The broken fabric here is the sw backend seen through a table whose
 * pe_status lies about one wavelet: the nth that PE (1,0) pops reads as
 * another value. Every method, every position in the PE's stream, a set
 * of hostile values; each run must end, and a run that fails must say so
 * with the PE. A few positions are known exactly (the first word of the
 * first count message) and their faults are checked word for word. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fabric/fabric.h"
#include "gs/generate.h"
#include "gs/job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    const wm_fabric_ops *inner;
    unsigned x, y;   /* the PE that is lied to */
    uint64_t nth;    /* which of its pops reads `value` */
    uint32_t value;
    uint64_t pops;
} lie;

static wm_pe_status lying_status(const wm_fabric *f, unsigned x, unsigned y)
{
    wm_pe_status st = lie.inner->pe_status(f, x, y);
    if (x == lie.x && y == lie.y && st.rx_count && lie.pops == lie.nth) st.rx_head = lie.value;
    return st;
}

static void counting_pop(wm_fabric *f, unsigned x, unsigned y)
{
    if (x == lie.x && y == lie.y) lie.pops++;
    lie.inner->pe_pop(f, x, y);
}

typedef struct {
    bool ok;
    bool matches;
    uint64_t pops;   /* PE (1,0)'s, in the whole job */
    char err[4096];
} outcome;

/* One job on the sw backend, PE (1,0) lied to at its nth pop. */
static outcome run_lied_to(const wm_gs_schedule *s, unsigned w, unsigned h, wm_gs_method m, uint64_t nth,
                           uint32_t value)
{
    static wm_fabric_ops ops;
    ops = wm_fabric_sw;
    ops.pe_status = lying_status;
    ops.pe_pop = counting_pop;
    lie.inner = &wm_fabric_sw;
    lie.x = 1;
    lie.y = 0;
    lie.nth = nth;
    lie.value = value;
    lie.pops = 0;
    /* A run that waits for ever on lost words ends at the limit. */
    const wm_gs_config cfg = {.w = w, .h = h, .order = WM_RANK_ROWMAJOR, .method = m, .pairing = WM_PAIRING_NEKO,
                              .backend = &ops, .max_cycles = 200000, .pe = WM_PE_NATIVE};
    outcome o;
    memset(&o, 0, sizeof o);
    FILE *err = fmemopen(o.err, sizeof o.err - 1, "w");
    assert_non_null(err);
    wm_gs_job *j = wm_gs_job_create(&cfg, s, err);
    assert_non_null(j);
    wm_fabric *f = wm_fabric_sw.create(w, h);
    assert_non_null(f);
    wm_gs_result r;
    o.ok = wm_gs_job_run_on(j, &ops, f, false, &r, err);
    o.matches = o.ok && r.matches_reference;
    o.pops = lie.pops;
    fclose(err);
    wm_fabric_sw.destroy(f);
    wm_gs_job_destroy(j);
    return o;
}

static const uint32_t hostile[] = {
    0xffffffffu, /* every field at its largest */
    0x40000001u, /* a count whose byte size wraps to 4 */
    0x3fffffffu, /* a count just under that */
    0x0000ffffu, /* routing word: sender 0, chunk 65535 */
    0x00010003u, /* routing word: sender 1, chunk 3 */
    0x0000ff00u, /* a header of 255 data wavelets */
    0x00000000u, /* a header of none, a count of zero */
};

/* Every pop of PE (1,0), every hostile value: the job ends, and when it
 * fails it says where. */
static void sweep(wm_gs_kind kind, unsigned w, unsigned h, unsigned dofs, wm_gs_method m)
{
    wm_gs_schedule *s = wm_gs_generate(kind, w, h, WM_RANK_ROWMAJOR, dofs, 7);
    assert_non_null(s);
    const outcome clean = run_lied_to(s, w, h, m, UINT64_MAX, 0);
    if (!clean.ok || !clean.matches) fail_msg("%s: the run without a lie fails: %s", wm_gs_method_name(m), clean.err);
    assert_true(clean.pops > 10);
    unsigned faults = 0;
    for (uint64_t nth = 0; nth < clean.pops; nth++) {
        for (size_t v = 0; v < sizeof hostile / sizeof hostile[0]; v++) {
            const outcome o = run_lied_to(s, w, h, m, nth, hostile[v]);
            if (o.ok) continue;
            if (!strstr(o.err, "PE ("))
                fail_msg("%s, pop %llu read as %08x: the failure names no PE: %s", wm_gs_method_name(m),
                         (unsigned long long)nth, hostile[v], o.err);
            faults += strstr(o.err, "fault") != NULL;
        }
    }
    assert_true(faults > 0);
    wm_gs_schedule_destroy(s);
}

static void test_pairwise_survives_every_lie(void **state)
{
    (void)state;
    sweep(WM_GS_GRID, 2, 2, 2, WM_GS_PAIRWISE);
}

static void test_crystal_survives_every_lie(void **state)
{
    (void)state;
    sweep(WM_GS_RANDOM, 5, 1, 3, WM_GS_CRYSTAL);
}

static void test_plan_survives_every_lie(void **state)
{
    (void)state;
    sweep(WM_GS_RANDOM, 5, 1, 3, WM_GS_PLAN);
}

static void test_fold_survives_every_lie(void **state)
{
    (void)state;
    sweep(WM_GS_RANDOM, 5, 1, 3, WM_GS_FOLD);
}

/* The third wavelet PE (1,0) pops is the word of the first count message
 * (header, routing word, count): a count too large for any PE's memory is
 * refused as such, before a buffer is sized by it. */
static void test_an_impossible_count_is_a_fault_naming_the_pe(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate(WM_GS_RANDOM, 5, 1, WM_RANK_ROWMAJOR, 3, 7);
    assert_non_null(s);
    const wm_gs_method methods[2] = {WM_GS_CRYSTAL, WM_GS_PLAN};
    for (int k = 0; k < 2; k++) {
        const outcome o = run_lied_to(s, 5, 1, methods[k], 2, 0x40000001u);
        assert_false(o.ok);
        if (!strstr(o.err, "PE (1,0) r1 [gs]: fault: gs rank 1: rank ") ||
            !strstr(o.err, " announced 1073741825 words in stage 0, more than a PE's data memory holds (10240)"))
            fail_msg("%s: %s", wm_gs_method_name(methods[k]), o.err);
    }
    wm_gs_schedule_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_impossible_count_is_a_fault_naming_the_pe),
        cmocka_unit_test(test_pairwise_survives_every_lie),
        cmocka_unit_test(test_crystal_survives_every_lie),
        cmocka_unit_test(test_plan_survives_every_lie),
        cmocka_unit_test(test_fold_survives_every_lie),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
