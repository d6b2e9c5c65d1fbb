/* test_gs_plan.c: the crystal plan without the fabric. Every schedule kind
 * for P = 1 .. 64 under both pairing rules gives the reference result bit
 * for bit; the chain drops the stages it should; the message counts are
 * the reference summary's (shared/reference/crystal-router.md section 6). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gs/job.h"
#include "gs/plan_host.h"
#include "gs/plan_exec.h"
#include "gs/generate.h"
#include "gs/reference.h"

#include <stdlib.h>
#include <string.h>

static const unsigned grid_w[] = {1, 2, 3, 2, 5, 7, 4, 13, 4, 8};
static const unsigned grid_h[] = {1, 1, 1, 2, 1, 1, 2, 1, 4, 8}; /* P = 1 2 3 4 5 7 8 13 16 64 */
enum { NGRIDS = sizeof grid_w / sizeof grid_w[0] };

static wm_cr_plan *plans_for(const wm_gs_schedule *s, wm_pairing rule)
{
    wm_cr_plan *p = calloc(wm_gs_schedule_ranks(s), sizeof *p);
    assert_non_null(p);
    assert_true(wm_cr_plan_all(s, rule, p, stderr));
    return p;
}

static void free_plans(const wm_gs_schedule *s, wm_cr_plan *p)
{
    for (unsigned r = 0; r < wm_gs_schedule_ranks(s); r++) wm_cr_plan_free(&p[r]);
    free(p);
}

static bool same_bits(const wm_gs_schedule *s, float *const *a, float *const *b)
{
    for (unsigned r = 0; r < wm_gs_schedule_ranks(s); r++)
        if (wm_gs_schedule_dofs(s, r) && memcmp(a[r], b[r], wm_gs_schedule_dofs(s, r) * sizeof(float))) return false;
    return true;
}

static void test_plan_matches_reference(void **state)
{
    (void)state;
    for (unsigned g = 0; g < NGRIDS; g++) {
        for (int kind = WM_GS_CHAIN; kind <= WM_GS_RANDOM; kind++) {
            for (int rule = WM_PAIRING_NEKO; rule <= WM_PAIRING_GSLIB; rule++) {
                wm_gs_schedule *s = wm_gs_generate((wm_gs_kind)kind, grid_w[g], grid_h[g], WM_RANK_ROWMAJOR, 3, 11);
                assert_non_null(s);
                float **u = wm_gs_values_alloc(s), **ref = wm_gs_values_alloc(s);
                wm_gs_fill_initial(s, u);
                wm_gs_fill_initial(s, ref);
                assert_true(wm_gs_reference_sum(s, ref));
                wm_cr_plan *p = plans_for(s, (wm_pairing)rule);
                assert_true(wm_cr_plan_execute_all(s, p, u, stderr));
                if (!same_bits(s, u, ref))
                    fail_msg("P=%u %s %s differs from the reference", grid_w[g] * grid_h[g],
                             wm_gs_kind_name((wm_gs_kind)kind), wm_pairing_name((wm_pairing)rule));
                free_plans(s, p);
                wm_gs_values_free(s, u);
                wm_gs_values_free(s, ref);
                wm_gs_schedule_destroy(s);
            }
        }
    }
}

/* The test can fail: a plan whose reduction adds in another order than
 * ascending origin does not give the reference bits. */
static void test_other_order_differs(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_grid(4, 4, WM_RANK_ROWMAJOR, 3);
    float **u = wm_gs_values_alloc(s), **ref = wm_gs_values_alloc(s);
    wm_gs_fill_initial(s, u);
    wm_gs_fill_initial(s, ref);
    wm_gs_reference_sum(s, ref);
    wm_cr_plan *p = plans_for(s, WM_PAIRING_NEKO);
    for (unsigned r = 0; r < 16; r++) {
        wm_gs_reduction *red = &p[r].reduce;
        for (size_t d = 0; d < red->ndofs; d++) {
            uint32_t *t = red->term + red->start[d];
            const size_t n = red->start[d + 1] - red->start[d];
            for (size_t i = 0; i < n / 2; i++) {
                const uint32_t x = t[i];
                t[i] = t[n - 1 - i];
                t[n - 1 - i] = x;
            }
        }
    }
    assert_true(wm_cr_plan_execute_all(s, p, u, stderr));
    assert_false(same_bits(s, u, ref));
    free_plans(s, p);
    wm_gs_values_free(s, u);
    wm_gs_values_free(s, ref);
    wm_gs_schedule_destroy(s);
}

static unsigned sends_of(const wm_cr_plan *p, unsigned n)
{
    unsigned m = 0;
    for (unsigned r = 0; r < n; r++)
        for (size_t k = 0; k < p[r].nstages; k++) m += p[r].stages[k].dst >= 0;
    return m;
}

static unsigned most_stages(const wm_cr_plan *p, unsigned n)
{
    unsigned m = 0;
    for (unsigned r = 0; r < n; r++)
        if (p[r].nstages > m) m = (unsigned)p[r].nstages;
    return m;
}

/* Chain of 8 under gslib: mirror pairing delivers each crossing record
 * straight to its destination, so rank r is active only in the stages that
 * cut (r-1, r) and (r, r+1): 14 of the 24 rank-stages, 10 dropped. */
static void test_chain_gslib_drops_stages(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_chain(8, 2);
    wm_cr_plan *p = plans_for(s, WM_PAIRING_GSLIB);
    const unsigned active[8] = {1, 2, 2, 2, 2, 2, 2, 1};
    unsigned dropped = 0;
    for (unsigned r = 0; r < 8; r++) {
        assert_int_equal(p[r].full_stages, 3);
        assert_int_equal(p[r].nstages, active[r]);
        dropped += p[r].full_stages - (unsigned)p[r].nstages;
    }
    assert_int_equal(dropped, 10);
    /* Rank 3 meets 4 in the first stage; 2 and 3 are cut apart only in the third. */
    assert_int_equal(p[3].stages[0].stage, 0);
    assert_int_equal(p[3].stages[0].dst, 4);
    assert_int_equal(p[3].stages[1].stage, 2);
    assert_int_equal(p[3].stages[1].dst, 2);
    free_plans(s, p);
    wm_gs_schedule_destroy(s);
}

/* Chain of 8 under Neko: shift pairing lands a crossing record half a
 * range away, so it travels on: record 4->3 goes 4 -> 0 -> 2 -> 3. Only 4
 * of the 24 rank-stages are dropped, and no stage is dropped everywhere. */
static void test_chain_neko_route(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_chain(8, 2);
    wm_cr_plan *p = plans_for(s, WM_PAIRING_NEKO);
    const unsigned active[8] = {3, 2, 2, 3, 3, 2, 2, 3};
    unsigned dropped = 0;
    for (unsigned r = 0; r < 8; r++) {
        assert_int_equal(p[r].nstages, active[r]);
        dropped += p[r].full_stages - (unsigned)p[r].nstages;
    }
    assert_int_equal(dropped, 4);
    assert_int_equal(p[4].stages[0].stage, 0);
    assert_int_equal(p[4].stages[0].dst, 0);
    assert_int_equal(p[0].stages[1].stage, 1);
    assert_int_equal(p[0].stages[1].dst, 2);
    assert_int_equal(p[2].stages[1].stage, 2);
    assert_int_equal(p[2].stages[1].dst, 3);
    free_plans(s, p);
    wm_gs_schedule_destroy(s);
}

/* The reference summary's toy model: chain P=64, 178 messages under Neko
 * (6 stages deep) against 126 under gslib (2 deep), 126 pairwise. */
static void test_chain_64_message_counts(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_chain(64, 1);
    wm_cr_plan *neko = plans_for(s, WM_PAIRING_NEKO), *gslib = plans_for(s, WM_PAIRING_GSLIB);
    assert_int_equal(sends_of(neko, 64), 178);
    assert_int_equal(most_stages(neko, 64), 6);
    assert_int_equal(neko[0].nstages, 6);
    assert_int_equal(sends_of(gslib, 64), 126);
    assert_int_equal(most_stages(gslib, 64), 2);
    free_plans(s, neko);
    free_plans(s, gslib);
    wm_gs_schedule_destroy(s);
}

/* 32x32 grid with corners (8 neighbours, 7812 pairwise messages): snake
 * order with mirror pairing needs 3968 messages and 4 stages per rank. */
static void test_grid_32x32_snake_gslib(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_grid(32, 32, WM_RANK_SNAKE, 1);
    size_t pairwise = 0;
    for (unsigned r = 0; r < 1024; r++) pairwise += wm_gs_schedule_send_count(s, r);
    assert_int_equal(pairwise, 7812);
    wm_cr_plan *p = plans_for(s, WM_PAIRING_GSLIB);
    assert_int_equal(sends_of(p, 1024), 3968);
    assert_int_equal(most_stages(p, 1024), 4);
    free_plans(s, p);
    wm_gs_schedule_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_matches_reference), cmocka_unit_test(test_other_order_differs),
        cmocka_unit_test(test_chain_gslib_drops_stages), cmocka_unit_test(test_chain_neko_route),
        cmocka_unit_test(test_chain_64_message_counts),  cmocka_unit_test(test_grid_32x32_snake_gslib),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
