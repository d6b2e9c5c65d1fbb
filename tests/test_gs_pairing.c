/* test_gs_pairing.c: the partners of every bisection stage under the Neko
 * and gslib rules, for P = 4, 5 and 7, exactly as the reference summary
 * (shared/reference/crystal-router.md section 7) lists them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "crystal/pairing.h"

#include <stdio.h>
#include <string.h>

/* "S1: 0<->2 1<->3 4->0; S2: ..." : a pair once, from its lower rank; a
 * one-way offload as sender->receiver. Also checks that every receiver
 * names the senders that name it. */
static void describe(wm_pairing rule, unsigned nranks, char *out, size_t cap)
{
    unsigned lo[64], hi[64];
    for (unsigned r = 0; r < nranks; r++) lo[r] = 0, hi[r] = nranks;
    size_t len = 0;
    out[0] = '\0';
    for (unsigned s = 0; s < wm_stage_count(nranks); s++) {
        wm_stage_step st[64];
        bool on[64];
        for (unsigned r = 0; r < nranks; r++) on[r] = wm_stage_step_of(rule, lo[r], hi[r], r, &st[r]);
        len += (size_t)snprintf(out + len, cap - len, "%sS%u:", s ? "; " : "", s + 1);
        for (unsigned r = 0; r < nranks; r++) {
            if (!on[r]) continue;
            const int d = st[r].dst;
            assert_true(d >= 0 && on[d]);
            if (st[r].src == d) {
                assert_int_equal(st[d].src, (int)r);
                if ((int)r < d) len += (size_t)snprintf(out + len, cap - len, " %u<->%d", r, d);
            } else {
                assert_int_equal(st[r].src, -1);
                assert_int_equal(st[d].src2, (int)r);
                len += (size_t)snprintf(out + len, cap - len, " %u->%d", r, d);
            }
            lo[r] = st[r].lo;
            hi[r] = st[r].hi;
        }
    }
}

static void check(wm_pairing rule, unsigned nranks, const char *expected)
{
    char got[512];
    describe(rule, nranks, got, sizeof got);
    assert_string_equal(got, expected);
}

static void test_neko_p4(void **state)
{
    (void)state;
    check(WM_PAIRING_NEKO, 4, "S1: 0<->2 1<->3; S2: 0<->1 2<->3");
}

static void test_neko_p5(void **state)
{
    (void)state;
    check(WM_PAIRING_NEKO, 5, "S1: 0<->2 1<->3 4->0; S2: 0<->1 2<->3 4->2; S3: 3<->4");
}

static void test_neko_p7(void **state)
{
    (void)state;
    check(WM_PAIRING_NEKO, 7, "S1: 0<->3 1<->4 2<->5 6->0; S2: 0<->1 2->0 3<->5 4<->6; S3: 1<->2 3<->4 5<->6");
}

static void test_gslib_p4(void **state)
{
    (void)state;
    check(WM_PAIRING_GSLIB, 4, "S1: 0<->3 1<->2; S2: 0<->1 2<->3");
}

static void test_gslib_p5(void **state)
{
    (void)state;
    check(WM_PAIRING_GSLIB, 5, "S1: 0<->4 1<->3 2->3; S2: 0<->2 1->2 3<->4; S3: 0<->1");
}

static void test_gslib_p7(void **state)
{
    (void)state;
    check(WM_PAIRING_GSLIB, 7, "S1: 0<->6 1<->5 2<->4 3->4; S2: 0<->3 1<->2 4<->6 5->6; S3: 0<->1 2<->3 4<->5");
}

/* Ranks of the smaller half finish early: P=5 under Neko gives ranks 0-2
 * two stages and ranks 3-4 three. */
static void test_neko_p5_stage_counts(void **state)
{
    (void)state;
    const unsigned expected[5] = {2, 2, 2, 3, 3};
    for (unsigned r = 0; r < 5; r++) {
        unsigned lo = 0, hi = 5, n = 0;
        wm_stage_step st;
        while (wm_stage_step_of(WM_PAIRING_NEKO, lo, hi, r, &st)) lo = st.lo, hi = st.hi, n++;
        assert_int_equal(n, expected[r]);
    }
}

static void test_stage_count(void **state)
{
    (void)state;
    assert_int_equal(wm_stage_count(1), 0);
    assert_int_equal(wm_stage_count(2), 1);
    assert_int_equal(wm_stage_count(5), 3);
    assert_int_equal(wm_stage_count(64), 6);
    assert_int_equal(wm_stage_count(1000), 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_neko_p4),  cmocka_unit_test(test_neko_p5),
        cmocka_unit_test(test_neko_p7),  cmocka_unit_test(test_gslib_p4),
        cmocka_unit_test(test_gslib_p5), cmocka_unit_test(test_gslib_p7),
        cmocka_unit_test(test_neko_p5_stage_counts), cmocka_unit_test(test_stage_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
