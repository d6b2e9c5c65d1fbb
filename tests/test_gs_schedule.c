/* test_gs_schedule.c: the schedule generators, the agreement check and the
 * independent reference sum. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gs/generate.h"
#include "gs/reference.h"
#include "gs/schedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void expect_peers(const wm_gs_schedule *s, unsigned rank, size_t n, const unsigned *peers, const size_t *counts)
{
    assert_int_equal(wm_gs_schedule_send_count(s, rank), n);
    assert_int_equal(wm_gs_schedule_recv_count(s, rank), n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(wm_gs_schedule_send(s, rank, i).peer, peers[i]);
        assert_int_equal(wm_gs_schedule_send(s, rank, i).count, counts[i]);
        assert_int_equal(wm_gs_schedule_recv(s, rank, i).peer, peers[i]);
        assert_int_equal(wm_gs_schedule_recv(s, rank, i).count, counts[i]);
    }
}

static void test_chain_shares_with_neighbours(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_chain(4, 3);
    assert_non_null(s);
    assert_true(wm_gs_schedule_check(s, stderr));
    expect_peers(s, 0, 1, (unsigned[]){1}, (size_t[]){3});
    expect_peers(s, 1, 2, (unsigned[]){0, 2}, (size_t[]){3, 3});
    expect_peers(s, 3, 1, (unsigned[]){2}, (size_t[]){3});
    assert_int_equal(wm_gs_schedule_dofs(s, 0), 6);
    assert_int_equal(wm_gs_schedule_dofs(s, 1), 9);
    wm_gs_schedule_destroy(s);
}

/* Stars of multiplicity 4 over 6 ranks: ranks 0..3 share 2 dofs, each a
 * vertex held four times, ranks 4 and 5 two more; every rank has 2
 * private dofs. The reference makes all four copies of a vertex the sum
 * of the four, added in ascending rank order. */
static void test_star_groups_share_vertices(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_star(6, 4, 2);
    assert_non_null(s);
    assert_true(wm_gs_schedule_check(s, stderr));
    for (unsigned r = 0; r < 6; r++) assert_int_equal(wm_gs_schedule_dofs(s, r), 4);
    expect_peers(s, 0, 3, (unsigned[]){1, 2, 3}, (size_t[]){2, 2, 2});
    expect_peers(s, 2, 3, (unsigned[]){0, 1, 3}, (size_t[]){2, 2, 2});
    expect_peers(s, 5, 1, (unsigned[]){4}, (size_t[]){2});
    float **u = wm_gs_values_alloc(s);
    wm_gs_fill_initial(s, u);
    const float want = ((u[0][2] + u[1][2]) + u[2][2]) + u[3][2];
    assert_true(wm_gs_reference_sum(s, u));
    for (unsigned r = 0; r < 4; r++) assert_memory_equal(&u[r][2], &want, sizeof want);
    wm_gs_values_free(s, u);
    wm_gs_schedule_destroy(s);
    /* One star of every rank: multiplicity P. */
    s = wm_gs_generate(WM_GS_STAR, 4, 2, WM_RANK_ROWMAJOR, 1, 1);
    assert_non_null(s);
    assert_int_equal(wm_gs_schedule_send_count(s, 7), 7);
    wm_gs_schedule_destroy(s);
}

/* 2 x 2 elements of (1+2)^2 nodes: a face shares its dof and both corners,
 * the centre node is shared by all four ranks. */
static void test_grid_faces_and_corners(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_grid(2, 2, WM_RANK_ROWMAJOR, 1);
    assert_non_null(s);
    assert_true(wm_gs_schedule_check(s, stderr));
    for (unsigned r = 0; r < 4; r++) assert_int_equal(wm_gs_schedule_dofs(s, r), 9);
    expect_peers(s, 0, 3, (unsigned[]){1, 2, 3}, (size_t[]){3, 3, 1});
    expect_peers(s, 3, 3, (unsigned[]){0, 1, 2}, (size_t[]){1, 3, 3});
    /* The centre node: global row 2, column 2 of a 5-wide node grid. */
    unsigned holders = 0;
    for (unsigned r = 0; r < 4; r++)
        for (size_t d = 0; d < 9; d++) holders += wm_gs_schedule_global_id(s, r, d) == 2 * 5 + 2;
    assert_int_equal(holders, 4);
    wm_gs_schedule_destroy(s);
}

/* Snake order on a 3 x 2 grid: the element at (0,1) belongs to rank 5. */
static void test_grid_snake_owner(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_grid(3, 2, WM_RANK_SNAKE, 2);
    assert_non_null(s);
    assert_true(wm_gs_schedule_check(s, stderr));
    /* rank 0 at (0,0): neighbours rank 1 at (1,0), rank 5 at (0,1), rank 4 at (1,1). */
    expect_peers(s, 0, 3, (unsigned[]){1, 4, 5}, (size_t[]){4, 1, 4});
    wm_gs_schedule_destroy(s);
}

static void test_random_is_valid_and_repeatable(void **state)
{
    (void)state;
    wm_gs_schedule *a = wm_gs_generate_random(13, 4, 7), *b = wm_gs_generate_random(13, 4, 7);
    assert_non_null(a);
    assert_non_null(b);
    assert_true(wm_gs_schedule_check(a, stderr));
    for (unsigned r = 0; r < 13; r++) {
        assert_int_equal(wm_gs_schedule_dofs(a, r), wm_gs_schedule_dofs(b, r));
        assert_int_equal(wm_gs_schedule_send_count(a, r), wm_gs_schedule_send_count(b, r));
        assert_true(wm_gs_schedule_send_count(a, r) >= 2);
    }
    wm_gs_schedule_destroy(a);
    wm_gs_schedule_destroy(b);
}

/* Run the check on s and return what it printed. */
static char *check_message(const wm_gs_schedule *s, bool *ok)
{
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    *ok = wm_gs_schedule_check(s, err);
    fclose(err);
    return text;
}

static wm_gs_schedule *two_ranks(void)
{
    wm_gs_schedule *s = wm_gs_schedule_create(6);
    const uint64_t ids[3] = {10, 11, 12};
    for (unsigned r = 0; r < 6; r++) wm_gs_schedule_set_dofs(s, r, 3, ids);
    return s;
}

static void test_check_refuses_count_mismatch(void **state)
{
    (void)state;
    wm_gs_schedule *s = two_ranks();
    wm_gs_schedule_add_send(s, 2, 5, 3, (uint32_t[]){0, 1, 2});
    wm_gs_schedule_add_recv(s, 5, 2, 2, (uint32_t[]){0, 1});
    bool ok;
    char *msg = check_message(s, &ok);
    assert_false(ok);
    assert_string_equal(msg, "gs schedule: rank 2 sends 3 dofs to rank 5, but rank 5 expects 2 from rank 2\n");
    free(msg);
    wm_gs_schedule_destroy(s);
}

static void test_check_refuses_id_mismatch(void **state)
{
    (void)state;
    wm_gs_schedule *s = two_ranks();
    wm_gs_schedule_add_send(s, 1, 4, 2, (uint32_t[]){0, 1});
    wm_gs_schedule_add_recv(s, 4, 1, 2, (uint32_t[]){0, 2});
    wm_gs_schedule_add_send(s, 4, 1, 2, (uint32_t[]){0, 2});
    wm_gs_schedule_add_recv(s, 1, 4, 2, (uint32_t[]){0, 2});
    bool ok;
    char *msg = check_message(s, &ok);
    assert_false(ok);
    assert_string_equal(msg, "gs schedule: word 1 from rank 1 to rank 4 is global id 11 at rank 1 but 12 at rank 4\n");
    free(msg);
    wm_gs_schedule_destroy(s);
}

static void test_check_refuses_missing_sender(void **state)
{
    (void)state;
    wm_gs_schedule *s = two_ranks();
    wm_gs_schedule_add_recv(s, 0, 3, 1, (uint32_t[]){2});
    bool ok;
    char *msg = check_message(s, &ok);
    assert_false(ok);
    assert_string_equal(msg, "gs schedule: rank 0 expects 1 dofs from rank 3, but rank 3 sends nothing to rank 0\n");
    free(msg);
    wm_gs_schedule_destroy(s);
}

/* Three copies of one id: the reference is ((u0 + u1) + u2) on every copy,
 * and with these values the other orders round differently. */
static void test_reference_adds_in_rank_order(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_schedule_create(3);
    const uint64_t id = 5;
    for (unsigned r = 0; r < 3; r++) wm_gs_schedule_set_dofs(s, r, 1, &id);
    assert_true(wm_gs_schedule_derive(s, stderr));
    float **u = wm_gs_values_alloc(s);
    u[0][0] = 1.0f;
    u[1][0] = 1e8f;
    u[2][0] = -1e8f;
    assert_true(wm_gs_reference_sum(s, u));
    for (unsigned r = 0; r < 3; r++) assert_true(u[r][0] == 0.0f);
    u[0][0] = -1e8f;
    u[1][0] = 1e8f;
    u[2][0] = 1.0f;
    assert_true(wm_gs_reference_sum(s, u));
    for (unsigned r = 0; r < 3; r++) assert_true(u[r][0] == 1.0f);
    wm_gs_values_free(s, u);
    wm_gs_schedule_destroy(s);
}

static void test_derive_refuses_repeated_id(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_schedule_create(2);
    const uint64_t ids[2] = {3, 3};
    wm_gs_schedule_set_dofs(s, 1, 2, ids);
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    assert_false(wm_gs_schedule_derive(s, err));
    fclose(err);
    assert_string_equal(text, "gs schedule: rank 1 holds global id 3 twice (local dofs 0 and 1)\n");
    free(text);
    wm_gs_schedule_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_shares_with_neighbours),
        cmocka_unit_test(test_star_groups_share_vertices),
        cmocka_unit_test(test_grid_faces_and_corners),
        cmocka_unit_test(test_grid_snake_owner),
        cmocka_unit_test(test_random_is_valid_and_repeatable),
        cmocka_unit_test(test_check_refuses_count_mismatch),
        cmocka_unit_test(test_check_refuses_id_mismatch),
        cmocka_unit_test(test_check_refuses_missing_sender),
        cmocka_unit_test(test_reference_adds_in_rank_order),
        cmocka_unit_test(test_derive_refuses_repeated_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
