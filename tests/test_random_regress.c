/* test_random_regress.c: constrained-random lockstep scenarios, their
 * text, the campaign, and proof that a planted fault is caught, shrunk to
 * a small scenario, and reproduced by the printed scenario alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabric/fabric.h"
#include "fabric/fabric_sw.h"
#include "regress/random_campaign.h"
#include "regress/random_regress.h"
#include "regress/random_scenario.h"
#include "regress/random_shrink.h"

#define GOLDEN_1_5                                                                                      \
    "pe=native,mesh=1x3,pattern=bitcomp,rate=0.087,len=7,pop=4,offmesh=0.00,warmup=221,sample=717,drain=806,"     \
    "seed=1027034016,off=0.0+0.2@0-"
#define SHRUNK_2                                                                                        \
    "pe=native,mesh=1x1,pattern=transpose,rate=0.478,len=1,pop=1,offmesh=0.00,warmup=0,sample=1,drain=1,"         \
    "seed=4191346923,messages=1,cycles=2"
#define FAILED_2_8 8 /* of scenarios 0..7 of seed 2, all of them */

/* Scenario (seed, index) is a function of those two alone, whatever ran
 * before it; its text is a fixed value. */
static void test_a_scenario_is_drawn_from_its_seed_and_index(void **state)
{
    (void)state;
    const wm_random_limits lim = wm_random_limits_default();
    wm_random_scenario a, b, c;
    char ta[WM_RANDOM_TEXT_MAX], tb[WM_RANDOM_TEXT_MAX], tc[WM_RANDOM_TEXT_MAX];
    wm_random_generate(1, 5, &lim, &a);
    wm_random_generate(1, 4, &lim, &c);
    wm_random_generate(1, 5, &lim, &b);
    wm_random_format(&a, ta, sizeof ta);
    wm_random_format(&b, tb, sizeof tb);
    wm_random_format(&c, tc, sizeof tc);
    assert_string_equal(ta, tb);
    assert_string_not_equal(ta, tc);
    assert_string_equal(ta, GOLDEN_1_5);
}

/* Every generated scenario is valid, and its text reads back to itself. */
static void test_the_text_reads_back_to_the_same_scenario(void **state)
{
    (void)state;
    const wm_random_limits lim = wm_random_limits_default();
    for (uint64_t i = 0; i < 3000; i++) {
        wm_random_scenario s, back;
        char text[WM_RANDOM_TEXT_MAX], again[WM_RANDOM_TEXT_MAX], err[300];
        wm_random_generate(7, i, &lim, &s);
        wm_random_format(&s, text, sizeof text);
        if (!wm_random_check(&s, err, sizeof err)) fail_msg("scenario %s: %s", text, err);
        if (!wm_random_parse(text, &back, err, sizeof err)) fail_msg("%s: %s", text, err);
        wm_random_format(&back, again, sizeof again);
        assert_string_equal(text, again);
    }
}

/* Over a few thousand scenarios the generator reaches every corner the
 * issue names. */
static void test_the_generator_covers_every_kind_of_scenario(void **state)
{
    (void)state;
    const wm_random_limits lim = wm_random_limits_default();
    unsigned cores = 0, lines = 0, columns = 0, single = 0, side32 = 0, len1 = 0, len_max = 0, offmesh = 0;
    unsigned disabled = 0, toggled = 0, slowpop = 0, patterns[4] = {0}, streams[3] = {0};
    for (uint64_t i = 0; i < 4000; i++) {
        wm_random_scenario s;
        wm_random_generate(3, i, &lim, &s);
        assert_true(s.w >= 1 && s.w <= 32 && s.h >= 1 && s.h <= 32);
        single += s.w == 1 && s.h == 1;
        lines += s.h == 1 && s.w > 1;
        columns += s.w == 1 && s.h > 1;
        if (s.cores) {
            cores++;
            assert_true(s.w <= lim.max_core_side && s.h <= lim.max_core_side);
            streams[s.stream.pattern]++;
            continue;
        }
        side32 += s.w == 32 || s.h == 32;
        patterns[s.traffic.pattern]++;
        len1 += s.traffic.len == 1;
        len_max += s.traffic.len > 56;
        assert_true(s.traffic.len >= 1 && s.traffic.len <= 256);
        offmesh += s.traffic.offmesh_fraction > 0;
        disabled += s.ndisabled && !s.on_at;
        toggled += s.ndisabled && s.on_at;
        slowpop += s.traffic.pop_interval > 1;
    }
    assert_true(cores > 300 && cores < 700); /* one in eight */
    assert_true(lines > 100 && columns > 100 && single > 50 && side32 > 20);
    assert_true(len1 > 100 && len_max > 50 && offmesh > 500 && disabled > 100 && toggled > 100 && slowpop > 500);
    for (int p = 0; p < 4; p++) assert_true(patterns[p] > 200);
    for (int p = 0; p < 3; p++) assert_true(streams[p] > 30);
}

static void expect_refused(const char *text, const char *message)
{
    wm_random_scenario s;
    char err[300] = "";
    assert_false(wm_random_parse(text, &s, err, sizeof err));
    assert_string_equal(err, message);
}

/* A bad text names the key, its value and the valid range. */
static void test_a_bad_text_is_refused_with_the_key_and_its_range(void **state)
{
    (void)state;
    expect_refused("pe=native,mesh=0x3", "mesh=0x3: expected WxH, each 1..1024");
    expect_refused("pe=native,mesh=4x4,len=300", "len=300: expected a whole number in 0..64");
    expect_refused("pe=native,mesh=4x4,len=0", "message length 0 is outside 1..64 wavelets");
    expect_refused("pe=core,mesh=4x4,len=64", "len=64: a stream message has 0..63 data wavelets");
    expect_refused("pe=native,mesh=4x4,rate=2", "rate=2: expected a number in 0..1");
    expect_refused("pe=native,mesh=4x4,colour=red",
                   "unknown key 'colour' (pe, mesh; pattern, hot, rate, len, pop, offmesh, warmup, sample, drain, "
                   "seed, messages, off; stream, dx, dy, count, gap; cycles)");
    expect_refused("pe=native,mesh=4x4,off=4.0@0-", "off: router (4,0) is outside the 4x4 mesh");
    expect_refused("pe=native,mesh=4x4,off=1.1@9-3",
                   "off=1.1@9-3: expected up to 4 routers X.Y joined by '+', then @FROM-UNTIL (cycles, UNTIL > "
                   "FROM, empty: for good)");
    expect_refused("pe=core,mesh=3x2,stream=transpose", "stream=transpose needs a square mesh, not 3x2");
    expect_refused("mesh=4x4", "the scenario needs pe=native|core and mesh=WxH");
}

/* Unperturbed, small random scenarios agree on both backends, firmware
 * traffic on the cores included. */
static void test_random_scenarios_agree(void **state)
{
    (void)state;
    const wm_random_limits lims[2] = {{6, 3, 0, 0}, {6, 3, 1, 0}};
    for (int l = 0; l < 2; l++) {
        for (uint64_t i = 0; i < 6; i++) {
            wm_random_scenario s;
            wm_random_generate(11, i, &lims[l], &s);
            wm_regress_report rep;
            wm_random_regress_run(&s, "t", &wm_fabric_rtl, &wm_fabric_sw, &rep);
            if (!rep.passed) fail_msg("%s", rep.line);
            assert_true(rep.cycles > 0);
        }
    }
}

/* The sw model with tile (0,0) granting its L output a cycle late, as
 * `regress --perturb late-grant:0,0,L` makes it. */
static const wm_fabric_config late_grant = {.perturbation = {WM_SW_LATE_GRANT, 0, 0, WM_PORT_L}};

static wm_fabric_ops late_sw(void)
{
    wm_fabric_ops ops = wm_fabric_sw;
    ops.config = &late_grant;
    return ops;
}

/* The first scenario of seed 2 (at most 6x6, bare tiles) whose lockstep
 * run fails with the sw model's tile (0,0) granting its L output a cycle
 * late. */
static void first_failing(const wm_fabric_ops *late, wm_random_scenario *s, wm_regress_report *rep, uint64_t *index)
{
    const wm_random_limits lim = {6, 3, 0, 0};
    for (uint64_t i = 0; i < 200; i++) {
        wm_random_generate(2, i, &lim, s);
        wm_random_regress_run(s, "t", &wm_fabric_rtl, late, rep);
        if (!rep->passed) {
            *index = i;
            return;
        }
    }
    fail_msg("no scenario of seed 2 caught the late grant");
}

/* The planted fault is caught (scenario 0, a 1x5 mesh, diverges at cycle
 * 31), the failing scenario shrinks to the least that shows it, one
 * message of one wavelet sent by the only PE to itself, granted a cycle
 * late, and the shrunk scenario's text alone reproduces the same report. */
static void test_a_planted_fault_is_caught_shrunk_and_reproduced(void **state)
{
    (void)state;
    const wm_fabric_ops late = late_sw();
    wm_random_scenario s, smallest;
    wm_regress_report rep, small_rep;
    uint64_t index;
    first_failing(&late, &s, &rep, &index);
    assert_int_equal(index, 0);
    assert_true(rep.diverged);
    assert_int_equal(rep.first.cycle, 31);
    wm_random_shrink_stats st;
    wm_random_shrink(&s, &rep, &wm_fabric_rtl, &late, 300, NULL, &smallest, &small_rep, &st);
    assert_true(small_rep.diverged);
    assert_true(st.steps > 0);
    assert_string_equal(small_rep.line, "FAIL shrunk 1x1: first divergence at cycle 2 tile (0,0) port L: expected "
                                        "00000001, got nothing");
    char text[WM_RANDOM_TEXT_MAX], err[300];
    wm_random_format(&smallest, text, sizeof text);
    assert_string_equal(text, SHRUNK_2);
    wm_random_scenario back;
    assert_true(wm_random_parse(text, &back, err, sizeof err));
    wm_regress_report again;
    wm_random_regress_run(&back, "shrunk", &wm_fabric_rtl, &late, &again);
    assert_string_equal(again.line, small_rep.line);
    /* the fault is the cause: the exact model passes the shrunk scenario */
    wm_random_regress_run(&back, "shrunk", &wm_fabric_rtl, &wm_fabric_sw, &again);
    assert_true(again.passed);
}

/* A campaign in worker processes: every scenario's line with its command,
 * a failure shrunk with its reproduce line, the summary's counts. */
static void test_a_campaign_in_processes_reports_each_scenario(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    const wm_fabric_ops late = late_sw();
    const wm_random_campaign c = {.count = 8, .seed = 2, .first = 0, .jobs = 2, .limits = {6, 3, 0, 0},
                                  .expected = &wm_fabric_rtl, .got = &late,
                                  .command = "build/wavemesh regress", .extra_args = " --perturb late-grant:0,0,L",
                                  .shrink_runs = 40, .out = out, .failures = NULL, .progress = false};
    wm_random_summary sum;
    const int status = wm_random_campaign_run(&c, &sum);
    fclose(out);
    assert_int_equal(sum.run, 8);
    assert_int_equal(sum.passed + sum.failed, 8);
    assert_int_equal(status, sum.failed ? 1 : 0);
    assert_int_equal(sum.failed, FAILED_2_8);
    unsigned lines = 0, reproduce = 0;
    for (char *p = text; (p = strstr(p, " | build/wavemesh regress --scenario pe=native,mesh=")); p++) lines++;
    for (char *p = text; (p = strstr(p, "  reproduce: build/wavemesh regress --scenario ")); p++) reproduce++;
    assert_int_equal(lines, 8);
    assert_int_equal(reproduce, sum.failed);
    assert_non_null(strstr(text, "random: 8 scenarios (seed 2, scenarios 0..7)"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_scenario_is_drawn_from_its_seed_and_index),
        cmocka_unit_test(test_the_text_reads_back_to_the_same_scenario),
        cmocka_unit_test(test_the_generator_covers_every_kind_of_scenario),
        cmocka_unit_test(test_a_bad_text_is_refused_with_the_key_and_its_range),
        cmocka_unit_test(test_random_scenarios_agree),
        cmocka_unit_test(test_a_planted_fault_is_caught_shrunk_and_reproduced),
        cmocka_unit_test(test_a_campaign_in_processes_reports_each_scenario),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
