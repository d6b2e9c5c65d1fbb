/* test_gs_run.c: gs_op on the fabric. For P = 1 .. 64 and every schedule
 * kind, pairwise, the setup-phase crystal router and the crystal plan
 * under both pairing rules give the reference bit for bit on the sw
 * backend; on the rtl backend a subset gives identical cycles; the plan
 * the fabric built is the one the lockstep pass builds; a schedule whose
 * lists disagree is refused naming both ranks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gs/plan_host.h"
#include "fabric/fabric.h"
#include "gs/generate.h"
#include "gs/job.h"
#include "gs/reference.h"
#include "run/heatmap.h"

#include <stdlib.h>
#include <string.h>

static const unsigned grid_w[] = {1, 2, 3, 2, 5, 7, 4, 13, 4, 8};
static const unsigned grid_h[] = {1, 1, 1, 2, 1, 1, 2, 1, 4, 8}; /* P = 1 2 3 4 5 7 8 13 16 64 */
enum { NGRIDS = sizeof grid_w / sizeof grid_w[0] };

static wm_gs_result run_pe(const wm_gs_schedule *s, unsigned w, unsigned h, wm_rank_order order, wm_gs_method m,
                           wm_pairing rule, const char *backend, wm_pe_mode pe)
{
    const wm_gs_config cfg = {.w = w, .h = h, .order = order, .method = m, .pairing = rule,
                              .backend = wm_fabric_backend(backend), .pe = pe};
    wm_gs_job *j = wm_gs_job_create(&cfg, s, stderr);
    assert_non_null(j);
    wm_gs_result r;
    assert_true(wm_gs_job_run(j, &r, stderr));
    wm_gs_job_destroy(j);
    return r;
}

static wm_gs_result run(const wm_gs_schedule *s, unsigned w, unsigned h, wm_rank_order order, wm_gs_method m,
                        wm_pairing rule, const char *backend)
{
    return run_pe(s, w, h, order, m, rule, backend, WM_PE_NATIVE);
}

/* The plan's parts, taken stage by stage among the symbolic pass's
 * transient lists and the messages kept aside, are packed to the bottom of
 * the heap when the setup ends: on an 8x8 grid with 64 dofs a face and the
 * Neko rule in row-major order, left scattered they split the heap so that
 * the gs_op's 5088-byte buffer found no hole on rank 19 (out of memory on
 * the cores and natively alike). */
static void test_plan_is_packed_so_the_gs_op_buffers_fit(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate(WM_GS_GRID, 8, 8, WM_RANK_ROWMAJOR, 64, 1);
    assert_non_null(s);
    const wm_gs_result r = run(s, 8, 8, WM_RANK_ROWMAJOR, WM_GS_PLAN, WM_PAIRING_NEKO, "sw");
    assert_true(r.matches_reference);
    wm_gs_schedule_destroy(s);
}

static void test_all_methods_match_reference(void **state)
{
    (void)state;
    for (unsigned g = 0; g < NGRIDS; g++) {
        for (int kind = WM_GS_CHAIN; kind <= WM_GS_STAR; kind++) {
            const unsigned w = grid_w[g], h = grid_h[g];
            wm_gs_schedule *s = wm_gs_generate((wm_gs_kind)kind, w, h, WM_RANK_SNAKE, 3, 5);
            assert_non_null(s);
            const wm_gs_result pw = run(s, w, h, WM_RANK_SNAKE, WM_GS_PAIRWISE, WM_PAIRING_NEKO, "sw");
            assert_true(pw.matches_reference);
            for (int rule = WM_PAIRING_NEKO; rule <= WM_PAIRING_GSLIB; rule++) {
                for (int m = WM_GS_CRYSTAL; m <= WM_GS_PLAN; m++) {
                    const wm_gs_result r = run(s, w, h, WM_RANK_SNAKE, (wm_gs_method)m, (wm_pairing)rule, "sw");
                    if (!r.matches_reference || r.checksum != pw.checksum)
                        fail_msg("P=%u %s %s %s differs from the reference", w * h,
                                 wm_gs_kind_name((wm_gs_kind)kind), wm_gs_method_name((wm_gs_method)m),
                                 wm_pairing_name((wm_pairing)rule));
                }
            }
            wm_gs_schedule_destroy(s);
        }
    }
}

/* The same firmware on both backends takes the same cycles (DESIGN.md,
 * decision 6): P = 4 and 5, every method, both rules. */
static void test_rtl_identical_cycles(void **state)
{
    (void)state;
    const unsigned ws[2] = {2, 5}, hs[2] = {2, 1};
    for (int g = 0; g < 2; g++) {
        wm_gs_schedule *s = wm_gs_generate_grid(ws[g], hs[g], WM_RANK_ROWMAJOR, 2);
        for (int m = WM_GS_PAIRWISE; m <= WM_GS_PLAN; m++) {
            for (int rule = WM_PAIRING_NEKO; rule <= WM_PAIRING_GSLIB; rule++) {
                const wm_gs_result a = run(s, ws[g], hs[g], WM_RANK_ROWMAJOR, (wm_gs_method)m, (wm_pairing)rule, "sw");
                const wm_gs_result b = run(s, ws[g], hs[g], WM_RANK_ROWMAJOR, (wm_gs_method)m, (wm_pairing)rule, "rtl");
                assert_true(b.matches_reference);
                assert_int_equal(a.op_cycles, b.op_cycles);
                assert_int_equal(a.setup_cycles, b.setup_cycles);
                assert_int_equal(a.wavelet_hops, b.wavelet_hops);
                assert_int_equal(a.messages, b.messages);
                assert_int_equal(a.checksum, b.checksum);
            }
        }
        wm_gs_schedule_destroy(s);
    }
}

/* The gs firmware on the cores: every method, every schedule, both pairing
 * rules and both rank orders give the reference bit for bit (the float
 * adds in the compiler's soft float equal the host's), the same checksum as
 * the native run, and the same cycles, messages and hops on rtl and sw;
 * the native run's gs_op within 10 % of the cores'. */
static void test_gs_on_the_cores(void **state)
{
    (void)state;
    const unsigned w = 3, h = 2;
    for (int kind = WM_GS_CHAIN; kind <= WM_GS_RANDOM; kind++) {
        for (int order = WM_RANK_ROWMAJOR; order <= WM_RANK_SNAKE; order++) {
            wm_gs_schedule *s = wm_gs_generate((wm_gs_kind)kind, w, h, (wm_rank_order)order, 3, 7);
            assert_non_null(s);
            for (int m = WM_GS_PAIRWISE; m <= WM_GS_PLAN; m++) {
                for (int rule = WM_PAIRING_NEKO; rule <= WM_PAIRING_GSLIB; rule++) {
                    if (m == WM_GS_PAIRWISE && rule == WM_PAIRING_GSLIB) continue; /* pairwise has no pairing */
                    const wm_gs_result nat = run(s, w, h, (wm_rank_order)order, (wm_gs_method)m, (wm_pairing)rule, "sw");
                    const wm_gs_result a =
                        run_pe(s, w, h, (wm_rank_order)order, (wm_gs_method)m, (wm_pairing)rule, "sw", WM_PE_CORE);
                    const wm_gs_result b =
                        run_pe(s, w, h, (wm_rank_order)order, (wm_gs_method)m, (wm_pairing)rule, "rtl", WM_PE_CORE);
                    if (!a.matches_reference || !b.matches_reference || a.checksum != nat.checksum)
                        fail_msg("%s %s %s %s on the cores differs from the reference", wm_gs_kind_name((wm_gs_kind)kind),
                                 order ? "snake" : "rowmajor", wm_gs_method_name((wm_gs_method)m),
                                 wm_pairing_name((wm_pairing)rule));
                    assert_int_equal(a.checksum, b.checksum);
                    assert_int_equal(a.op_cycles, b.op_cycles);
                    assert_int_equal(a.setup_cycles, b.setup_cycles);
                    assert_int_equal(a.messages, b.messages);
                    assert_int_equal(a.messages, nat.messages);
                    assert_int_equal(a.wavelets, nat.wavelets);
                    assert_int_equal(a.wavelet_hops, b.wavelet_hops);
                    /* The native mode's charges are the cores' (docs/cost-model.md). */
                    const double err = ((double)nat.op_cycles - (double)a.op_cycles) / (double)a.op_cycles;
                    if (err > 0.10 || err < -0.10)
                        fail_msg("%s %s %s %s: native gs_op %llu cycles, core %llu: %+.1f %%",
                                 wm_gs_kind_name((wm_gs_kind)kind), order ? "snake" : "rowmajor",
                                 wm_gs_method_name((wm_gs_method)m), wm_pairing_name((wm_pairing)rule),
                                 (unsigned long long)nat.op_cycles, (unsigned long long)a.op_cycles, 100 * err);
                }
            }
            wm_gs_schedule_destroy(s);
        }
    }
}

/* The symbolic pass run as messages builds exactly the lockstep plan. */
static void test_fabric_plan_is_the_lockstep_plan(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_random(13, 4, 3);
    for (int rule = WM_PAIRING_NEKO; rule <= WM_PAIRING_GSLIB; rule++) {
        const wm_gs_config cfg = {.w = 13, .h = 1, .method = WM_GS_PLAN, .pairing = (wm_pairing)rule,
                                  .backend = wm_fabric_backend("sw")};
        wm_gs_job *j = wm_gs_job_create(&cfg, s, stderr);
        wm_gs_result r;
        assert_true(wm_gs_job_run(j, &r, stderr));
        wm_cr_plan want[13];
        assert_true(wm_cr_plan_all(s, (wm_pairing)rule, want, stderr));
        for (unsigned k = 0; k < 13; k++) {
            assert_non_null(wm_gs_job_plan(j, k));
            assert_true(wm_cr_plan_equal(wm_gs_job_plan(j, k), &want[k]));
            wm_cr_plan_free(&want[k]);
        }
        wm_gs_job_destroy(j);
    }
    wm_gs_schedule_destroy(s);
}

/* Long slabs are split into messages of at most WM_XFER_CHUNK (62)
 * words: 300 dofs a face, chain of 3, pairwise is 4 transfers of 5
 * messages each. */
static void test_long_records_split(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_chain(3, 300);
    const wm_gs_result pw = run(s, 3, 1, WM_RANK_ROWMAJOR, WM_GS_PAIRWISE, WM_PAIRING_NEKO, "sw");
    assert_true(pw.matches_reference);
    assert_int_equal(pw.messages, 20);
    assert_int_equal(pw.wavelets, 4 * (300 + 5 * 2));
    for (int m = WM_GS_CRYSTAL; m <= WM_GS_PLAN; m++) {
        const wm_gs_result r = run(s, 3, 1, WM_RANK_ROWMAJOR, (wm_gs_method)m, WM_PAIRING_NEKO, "sw");
        assert_true(r.matches_reference);
        assert_int_equal(r.checksum, pw.checksum);
    }
    wm_gs_schedule_destroy(s);
}

/* The chain of 64 on the fabric: gslib's plan sends as many messages as
 * pairwise (126), Neko's 178, and the fabric counts them. */
static void test_chain_64_messages_on_fabric(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_chain(64, 1);
    const wm_gs_result pw = run(s, 8, 8, WM_RANK_SNAKE, WM_GS_PAIRWISE, WM_PAIRING_NEKO, "sw");
    const wm_gs_result ne = run(s, 8, 8, WM_RANK_SNAKE, WM_GS_PLAN, WM_PAIRING_NEKO, "sw");
    const wm_gs_result gl = run(s, 8, 8, WM_RANK_SNAKE, WM_GS_PLAN, WM_PAIRING_GSLIB, "sw");
    assert_int_equal(pw.messages, 126);
    assert_int_equal(ne.messages, 178);
    assert_int_equal(gl.messages, 126);
    assert_int_equal(ne.active_stages, 6);
    assert_int_equal(gl.active_stages, 2);
    wm_gs_schedule_destroy(s);
}

/* The heatmap of each stage of the gs_op (`gs --heatmap`): a message counts
 * in the stage its header's tag names, so the stages add up to every
 * wavelet-hop of the gs_op, and there are as many as the plan uses
 * (log2 16 = 4 on a 4x4 grid); the setup-phase router's tags are
 * 2 * stage + 1, halved. Every stage carries wavelets. */
static void test_heatmap_per_stage_adds_up_to_the_hops(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate(WM_GS_GRID, 4, 4, WM_RANK_ROWMAJOR, 4, 1);
    assert_non_null(s);
    const wm_gs_method methods[2] = {WM_GS_PLAN, WM_GS_CRYSTAL};
    for (int k = 0; k < 2; k++) {
        wm_heatmap *m = wm_heatmap_create_staged(4, 4, methods[k] == WM_GS_CRYSTAL ? 1 : 0);
        const wm_gs_config cfg = {.w = 4, .h = 4, .order = WM_RANK_ROWMAJOR, .method = methods[k],
                                  .pairing = WM_PAIRING_GSLIB, .backend = wm_fabric_backend("sw"),
                                  .op_hook = wm_heatmap_record, .op_hook_ctx = m};
        wm_gs_job *j = wm_gs_job_create(&cfg, s, stderr);
        assert_non_null(j);
        wm_gs_result r;
        assert_true(wm_gs_job_run(j, &r, stderr));
        assert_true(r.matches_reference);
        assert_int_equal(wm_heatmap_phases(m), 4);
        uint64_t hops = 0;
        for (size_t p = 0; p < 4; p++) {
            uint64_t dir[4] = {0, 0, 0, 0};
            for (unsigned y = 0; y < 4; y++)
                for (unsigned x = 0; x < 4; x++)
                    for (int d = 0; d < 4; d++) dir[d] += wm_heatmap_count(m, p, x, y, (wm_port)d);
            assert_true(dir[0] + dir[1] + dir[2] + dir[3] > 0);
            hops += dir[0] + dir[1] + dir[2] + dir[3];
        }
        assert_int_equal(hops, r.wavelet_hops);
        wm_gs_job_destroy(j);
        wm_heatmap_destroy(m);
    }
    wm_gs_schedule_destroy(s);
}

/* The folding router gives its own reference's bits (wm_gs_reference_fold:
 * copies added where they meet on the way to the lowest holder) on every
 * schedule kind, P = 1 .. 64, both pairing rules; on a star of 8 its
 * order differs from ascending rank order, so the two references differ
 * and the run's result is not pairwise's. */
static void test_fold_matches_its_reference(void **state)
{
    (void)state;
    for (unsigned g = 0; g < NGRIDS; g++) {
        for (int kind = WM_GS_CHAIN; kind <= WM_GS_STAR; kind++) {
            const unsigned w = grid_w[g], h = grid_h[g];
            wm_gs_schedule *s = wm_gs_generate((wm_gs_kind)kind, w, h, WM_RANK_SNAKE, 3, 5);
            assert_non_null(s);
            for (int rule = WM_PAIRING_NEKO; rule <= WM_PAIRING_GSLIB; rule++) {
                const wm_gs_result r = run(s, w, h, WM_RANK_SNAKE, WM_GS_FOLD, (wm_pairing)rule, "sw");
                if (!r.matches_reference)
                    fail_msg("P=%u %s fold %s differs from its reference", w * h, wm_gs_kind_name((wm_gs_kind)kind),
                             wm_pairing_name((wm_pairing)rule));
            }
            wm_gs_schedule_destroy(s);
        }
    }
    wm_gs_schedule *s = wm_gs_generate_star(8, 8, 4);
    float **asc = wm_gs_values_alloc(s), **fold = wm_gs_values_alloc(s);
    wm_gs_fill_initial(s, asc);
    wm_gs_fill_initial(s, fold);
    assert_true(wm_gs_reference_sum(s, asc));
    assert_true(wm_gs_reference_fold(s, WM_PAIRING_NEKO, fold));
    assert_int_not_equal(wm_gs_checksum(s, asc), wm_gs_checksum(s, fold));
    const wm_gs_result pw = run(s, 8, 1, WM_RANK_ROWMAJOR, WM_GS_PAIRWISE, WM_PAIRING_NEKO, "sw");
    const wm_gs_result fo = run(s, 8, 1, WM_RANK_ROWMAJOR, WM_GS_FOLD, WM_PAIRING_NEKO, "sw");
    assert_true(fo.matches_reference);
    assert_int_equal(pw.checksum, wm_gs_checksum(s, asc));
    assert_int_equal(fo.checksum, wm_gs_checksum(s, fold));
    wm_gs_values_free(s, asc);
    wm_gs_values_free(s, fold);
    wm_gs_schedule_destroy(s);
}

/* The fold reference's order by hand: a star of the 4 ranks of a chain,
 * neko pairing. Stage 0 cuts [0,4) at 2 (0<->2, 1<->3): ranks 2 and 3
 * hand their copies to 0 and 1. Stage 1 cuts [0,2) at 1: rank 1 hands
 * (u1 + u3) to 0, which ends with (u0 + u2) + (u1 + u3). */
static void test_fold_reference_order(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_star(4, 4, 1);
    float **u = wm_gs_values_alloc(s);
    wm_gs_fill_initial(s, u);
    const float want = (u[0][1] + u[2][1]) + (u[1][1] + u[3][1]);
    assert_true(wm_gs_reference_fold(s, WM_PAIRING_NEKO, u));
    for (unsigned r = 0; r < 4; r++) assert_memory_equal(&u[r][1], &want, sizeof want);
    wm_gs_values_free(s, u);
    wm_gs_schedule_destroy(s);
}

/* Words moved by a star of k ranks, 2 dofs each: pairwise moves k (k - 1)
 * x 2 payload words; the folding router fewer from k = 16 on, and its
 * growth from k to 2k stays under 2 log2(2k) / log2(k) times (k log k,
 * not k^2). */
static void test_fold_words_grow_as_k_log_k(void **state)
{
    (void)state;
    const unsigned ks[3] = {4, 8, 16}, ws[3] = {4, 4, 4}, hs[3] = {1, 2, 4};
    uint64_t fold_words[3];
    for (int i = 0; i < 3; i++) {
        const unsigned k = ks[i];
        wm_gs_schedule *s = wm_gs_generate_star(k, k, 2);
        const wm_gs_result pw = run(s, ws[i], hs[i], WM_RANK_ROWMAJOR, WM_GS_PAIRWISE, WM_PAIRING_NEKO, "sw");
        const wm_gs_result fo = run(s, ws[i], hs[i], WM_RANK_ROWMAJOR, WM_GS_FOLD, WM_PAIRING_NEKO, "sw");
        assert_true(fo.matches_reference);
        assert_int_equal(pw.wavelets - 2 * pw.messages, (uint64_t)k * (k - 1) * 2);
        fold_words[i] = fo.wavelets - 2 * fo.messages;
        if (k == 16) assert_true(fold_words[i] < pw.wavelets - 2 * pw.messages);
        wm_gs_schedule_destroy(s);
    }
    /* From k to 2k, k log2 k grows 2 log2(2k) / log2(k) times: 3 from 4 to 8, 8/3 from 8 to 16. */
    if (fold_words[1] >= 3 * fold_words[0] || 3 * fold_words[2] >= 8 * fold_words[1])
        fail_msg("fold's words at k = 4, 8, 16: %llu, %llu, %llu grow faster than k log k",
                 (unsigned long long)fold_words[0], (unsigned long long)fold_words[1],
                 (unsigned long long)fold_words[2]);
}

/* fold and auto on both backends and both PE modes, on a grid and on a
 * star of multiplicity 8: the reference's bits every time, and the same
 * cycles, messages and checksum on rtl and sw. */
static void test_fold_and_auto_everywhere(void **state)
{
    (void)state;
    wm_gs_schedule *sched[2] = {wm_gs_generate_grid(3, 2, WM_RANK_ROWMAJOR, 2), wm_gs_generate_star(8, 8, 2)};
    const unsigned ws[2] = {3, 4}, hs[2] = {2, 2};
    const wm_gs_method ms[2] = {WM_GS_FOLD, WM_GS_AUTO};
    uint64_t native[2][2] = {{0, 0}, {0, 0}};
    for (int k = 0; k < 2; k++) {
        for (int m = 0; m < 2; m++) {
            for (int pe = WM_PE_NATIVE; pe <= WM_PE_CORE; pe++) {
                const wm_gs_result a = run_pe(sched[k], ws[k], hs[k], WM_RANK_ROWMAJOR, ms[m], WM_PAIRING_GSLIB, "sw",
                                              (wm_pe_mode)pe);
                const wm_gs_result b = run_pe(sched[k], ws[k], hs[k], WM_RANK_ROWMAJOR, ms[m], WM_PAIRING_GSLIB, "rtl",
                                              (wm_pe_mode)pe);
                if (!a.matches_reference || !b.matches_reference)
                    fail_msg("%s on %s, pe %s: not the reference's bits", wm_gs_method_name(ms[m]), k ? "star" : "grid",
                             pe == WM_PE_CORE ? "core" : "native");
                assert_int_equal(a.op_cycles, b.op_cycles);
                assert_int_equal(a.setup_cycles, b.setup_cycles);
                assert_int_equal(a.messages, b.messages);
                assert_int_equal(a.checksum, b.checksum);
                assert_int_equal(a.auto_choice, b.auto_choice);
                assert_memory_equal(a.auto_cycles, b.auto_cycles, sizeof a.auto_cycles);
                if (pe == WM_PE_NATIVE) native[k][m] = a.op_cycles;
                /* Natively fold runs 4 to 15 % under the cores: its code is
                 * compiled for size (docs/crystal.md). */
                const double err = ((double)native[k][m] - (double)a.op_cycles) / (double)a.op_cycles;
                if (pe == WM_PE_CORE && ms[m] == WM_GS_FOLD && (err > 0.0 || err < -0.20))
                    fail_msg("fold on %s: native %llu cycles, core %llu: %+.1f %%", k ? "star" : "grid",
                             (unsigned long long)native[k][m], (unsigned long long)a.op_cycles, 100 * err);
            }
        }
    }
    wm_gs_schedule_destroy(sched[0]);
    wm_gs_schedule_destroy(sched[1]);
}

/* auto keeps the candidate with the fewest cycles in the table it prints
 * (the first of equals), every rank the same (the job refuses ranks that
 * disagree), and its gs_op gives that candidate's result: on a 4x4 grid
 * and a star of 16, native and on the cores. */
static void test_auto_keeps_the_fastest_it_prints(void **state)
{
    (void)state;
    wm_gs_schedule *sched[2] = {wm_gs_generate_grid(4, 4, WM_RANK_SNAKE, 2), wm_gs_generate_star(16, 16, 2)};
    for (int k = 0; k < 2; k++) {
        for (int pe = WM_PE_NATIVE; pe <= WM_PE_CORE; pe++) {
            const wm_gs_result r =
                run_pe(sched[k], 4, 4, WM_RANK_SNAKE, WM_GS_AUTO, WM_PAIRING_NEKO, "sw", (wm_pe_mode)pe);
            assert_true(r.matches_reference);
            char *text = NULL;
            size_t len = 0;
            FILE *out = open_memstream(&text, &len);
            wm_gs_print_auto(out, &r);
            fclose(out);
            /* The fastest line of the table, by its printed figure. */
            char best[32] = "", chose[32] = "";
            unsigned long long most = ~0ull;
            for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
                char name[32];
                unsigned long long cycles;
                if (sscanf(line, "auto chose: %31[^\n]", chose) == 1) continue;
                char *last = strrchr(line, ' ');
                if (line[0] != ' ' || !last || sscanf(last, "%llu", &cycles) != 1) continue;
                while (last > line && last[-1] == ' ') last--;
                snprintf(name, sizeof name, "%.*s", (int)(last - line - 2), line + 2);
                if (cycles < most) most = cycles, snprintf(best, sizeof best, "%s", name);
            }
            free(text);
            assert_string_not_equal(best, "");
            assert_string_equal(chose, best);
            const unsigned c = r.auto_choice;
            const wm_gs_result alone = run(sched[k], 4, 4, WM_RANK_SNAKE, wm_gs_candidate_method(c),
                                           (wm_pairing)wm_gs_candidate_pairing(c), "sw");
            assert_int_equal(r.checksum, alone.checksum);
        }
    }
    wm_gs_schedule_destroy(sched[0]);
    wm_gs_schedule_destroy(sched[1]);
}

/* The host refuses ranks whose auto results disagree, naming the first
 * that differs from rank 0: a different choice, a different table, a
 * choice past the candidates. */
static void test_auto_ranks_must_agree(void **state)
{
    (void)state;
    uint32_t *mems = calloc(3 * (size_t)WM_PE_DATA_WORDS, sizeof *mems);
    assert_non_null(mems);
    wm_gs_auto *blocks[3];
    for (unsigned r = 0; r < 3; r++) {
        uint32_t *mem = mems + (size_t)r * WM_PE_DATA_WORDS;
        ((wm_gs_image *)mem)->auto_at = 100;
        blocks[r] = (wm_gs_auto *)(mem + 100);
        *blocks[r] = (wm_gs_auto){.choice = 3, .cycles = {9, 8, 7, 5, 6, 10, 11}};
    }
    wm_gs_result r;
    char text[200];
    FILE *err = fmemopen(text, sizeof text, "w");
    assert_true(wm_gs_auto_read(mems, 3, &r, err));
    assert_int_equal(r.auto_choice, 3);
    assert_int_equal(r.auto_cycles[3], 5);
    blocks[2]->choice = 0;
    assert_false(wm_gs_auto_read(mems, 3, &r, err));
    blocks[2]->choice = 3;
    blocks[1]->cycles[5] = 12;
    assert_false(wm_gs_auto_read(mems, 3, &r, err));
    blocks[1]->cycles[5] = 10;
    for (unsigned k = 0; k < 3; k++) blocks[k]->choice = 7;
    assert_false(wm_gs_auto_read(mems, 3, &r, err));
    fclose(err);
    assert_string_equal(text, "gs auto: rank 2 kept candidate 0 (pairwise), rank 0 candidate 3 (plan neko)\n"
                              "gs auto: rank 1 timed fold neko at 12 cycles, rank 0 at 10\n"
                              "gs auto: the ranks kept candidate 7, there are 7\n");
    free(mems);
}

static void test_bad_schedule_refused(void **state)
{
    (void)state;
    wm_gs_schedule *s = wm_gs_generate_chain(4, 2);
    /* Rank 2 now claims to send three words to rank 3, which expects two. */
    wm_gs_schedule_add_send(s, 2, 3, 3, (uint32_t[]){0, 1, 2});
    const wm_gs_config cfg = {.w = 4, .h = 1, .method = WM_GS_PLAN, .backend = wm_fabric_backend("sw")};
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    wm_gs_job *j = wm_gs_job_create(&cfg, s, err);
    fclose(err);
    assert_null(j);
    assert_string_equal(text, "gs schedule: rank 2 sends 3 dofs to rank 3, but rank 3 expects 2 from rank 2\n");
    free(text);
    wm_gs_schedule_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_methods_match_reference),
        cmocka_unit_test(test_plan_is_packed_so_the_gs_op_buffers_fit),
        cmocka_unit_test(test_rtl_identical_cycles),
        cmocka_unit_test(test_gs_on_the_cores),
        cmocka_unit_test(test_fabric_plan_is_the_lockstep_plan),
        cmocka_unit_test(test_long_records_split),
        cmocka_unit_test(test_chain_64_messages_on_fabric),
        cmocka_unit_test(test_bad_schedule_refused),
        cmocka_unit_test(test_heatmap_per_stage_adds_up_to_the_hops),
        cmocka_unit_test(test_fold_matches_its_reference),
        cmocka_unit_test(test_fold_reference_order),
        cmocka_unit_test(test_fold_words_grow_as_k_log_k),
        cmocka_unit_test(test_fold_and_auto_everywhere),
        cmocka_unit_test(test_auto_keeps_the_fastest_it_prints),
        cmocka_unit_test(test_auto_ranks_must_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
