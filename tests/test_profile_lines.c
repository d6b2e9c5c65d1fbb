/* test_profile_lines.c: the profile by source line (csim/profile/lines.h)
 * of the tutorial row on the cores: exact cycles at the lines docs/profiling.md
 * names, each kernel's rows adding up to its PEs' cycles and, function by
 * function and kind by kind, to the function tables, the same text on the
 * rtl and the sw backend; refused natively. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile/collect.h"
#include "profile/lines.h"
#include "profile/table.h"
#include "run/layout.h"
#include "run/runner.h"
#include "waves/fw_lines.h"
#include "waves/fw_syms.h"

static const char *const backend_names[] = {"rtl", "sw"};
enum { NBACKENDS = 2 };

/* The tutorial row of sw/collectives/test.rows. */
static wm_layout *tutorial(void)
{
    static const wm_setting row[5] = {
        {"SHAPE", 0, NULL}, {"V0", 10, NULL}, {"V1", 20, NULL}, {"V2", 30, NULL}, {"V3", 40, NULL}};
    wm_layout *l = wm_layout_load("sw/collectives/bench.layout", row, 5, stderr);
    assert_non_null(l);
    return l;
}

static wm_profile *profile_on(const char *backend, const wm_layout *l, wm_pe_mode mode, uint64_t max_cycles)
{
    char err[400];
    wm_run_result res;
    wm_profile *p = wm_profile_layout(wm_fabric_backend(backend), l, mode, max_cycles, NULL, &res, err, sizeof err);
    if (!p) fprintf(stderr, "%s\n", err);
    assert_non_null(p);
    return p;
}

static wm_prof_lines lines_of(const wm_profile *p)
{
    wm_prof_lines l;
    char err[4400] = "";
    if (!wm_profile_lines(p, &l, err, sizeof err)) fprintf(stderr, "%s\n", err);
    assert_string_equal(err, "");
    return l;
}

static const wm_prof_line *row_at(const wm_prof_kernel_lines *kl, const char *where)
{
    for (size_t i = 0; i < kl->nlines; i++)
        if (kl->lines[i].where && !strcmp(kl->lines[i].where, where)) return &kl->lines[i];
    fail_msg("no row for %s in kernel %s", where, kl->kernel->kernel);
    return NULL;
}

/* Every kernel's rows add up to its PEs' spans; over the kernels, each
 * function's and kind's cycles are the run's function table's; the rows
 * are in order, most cycles first. */
static void assert_adds_up(const wm_profile *p, const wm_prof_lines *l)
{
    const size_t cells = (p->nfuncs ? p->nfuncs : 1) * WM_PROF_NKINDS;
    uint64_t *table = calloc(cells, sizeof *table), *by_lines = calloc(cells, sizeof *by_lines);
    assert_non_null(table);
    assert_non_null(by_lines);
    wm_profile_tally(p, p->npes, table);
    uint64_t spans = 0, kernels = 0;
    for (size_t i = 0; i < p->npes; i++) spans += p->pes[i].end - p->pes[i].start;
    assert_int_equal(l->nkernels, p->nkernels);
    for (size_t k = 0; k < l->nkernels; k++) {
        const wm_prof_kernel_lines *kl = &l->kernels[k];
        uint64_t sum = 0;
        for (size_t i = 0; i < kl->nlines; i++) {
            const wm_prof_line *ln = &kl->lines[i];
            uint64_t kinds = 0;
            for (int c = 0; c < WM_PROF_NKINDS; c++) {
                by_lines[ln->func * WM_PROF_NKINDS + c] += ln->cycles[c];
                kinds += ln->cycles[c];
            }
            assert_int_equal(kinds, ln->total);
            if (i) assert_true(kl->lines[i - 1].total >= ln->total);
            sum += ln->total;
        }
        assert_int_equal(sum, kl->kernel->cycles);
        kernels += sum;
    }
    assert_int_equal(kernels, spans);
    assert_memory_equal(table, by_lines, cells * sizeof *table);
    free(table);
    free(by_lines);
}

static char *text_of(const wm_profile *p, const wm_prof_lines *l, size_t top)
{
    char *text = NULL, err[200];
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    assert_non_null(mem);
    wm_profile_print_lines(p, l, top, mem);
    assert_true(wm_profile_write_lines_csv(p, l, mem, err, sizeof err));
    fclose(mem);
    return text;
}

/* The tutorial row on the cores: the leaves' wait for their prefix at
 * the receive's line, each cycle of it stalled on the RX queue but the
 * receive's own; the nodes' two receive loops; crt0 without a line. */
static void test_tutorial_lines(void **state)
{
    (void)state;
    wm_layout *layout = tutorial();
    char *first = NULL;
    for (int b = 0; b < NBACKENDS; b++) {
        wm_profile *p = profile_on(backend_names[b], layout, WM_PE_CORE, 2000000);
        wm_prof_lines l = lines_of(p);
        assert_adds_up(p, &l);
        assert_int_equal(l.nkernels, 2);
        const wm_prof_kernel_lines *leaf = &l.kernels[0], *node = &l.kernels[1];
        assert_string_equal(leaf->kernel->kernel, "leaf");
        assert_int_equal(leaf->kernel->npes, 4);
        assert_int_equal(leaf->kernel->cycles, 1182);
        const wm_prof_line *recv = row_at(leaf, "sw/collectives/leaf.c:31");
        assert_ptr_equal(recv, &leaf->lines[0]);
        assert_string_equal(p->funcs[recv->func], "wm_kernel_leaf");
        assert_int_equal(recv->total, 770);
        assert_int_equal(recv->cycles[WM_PROF_STALL_RX], 734);
        assert_int_equal(recv->cycles[WM_PROF_EXEC], 36);
        assert_int_equal(row_at(leaf, "sw/collectives/leaf.c:26")->total, 72);
        /* crt0 is assembly without lines: its 13 cycles a PE are the (no line) row's */
        const wm_prof_line *crt0 = NULL;
        for (size_t i = 0; i < leaf->nlines; i++)
            if (!leaf->lines[i].where) crt0 = &leaf->lines[i];
        assert_non_null(crt0);
        assert_string_equal(p->funcs[crt0->func], "_start");
        assert_int_equal(crt0->total, 4 * 13);
        assert_string_equal(node->kernel->kernel, "node");
        assert_int_equal(node->kernel->npes, 3);
        assert_int_equal(node->kernel->cycles, 791);
        const wm_prof_line *up = row_at(node, "sw/collectives/node.c:45");
        assert_int_equal(up->total, 167);
        assert_int_equal(up->cycles[WM_PROF_STALL_RX], 119);
        assert_int_equal(row_at(node, "sw/collectives/node.c:61")->cycles[WM_PROF_STALL_RX], 144);
        char *text = text_of(p, &l, 5);
        assert_non_null(strstr(text, "lines of kernel leaf (4 PEs): 1182 cycles\n"));
        assert_non_null(strstr(text, "\n  sw/collectives/leaf.c:31       770   65.1%       734  wm_kernel_leaf\n"));
        assert_non_null(strstr(text, "\n  total                         1182  100.0%       734\n"));
        assert_non_null(strstr(text, "\nleaf,sw/collectives/leaf.c,31,wm_kernel_leaf,36,0,734,0,770\n"));
        assert_non_null(strstr(text, "\nleaf,,,_start,"));
        if (!first) {
            first = text;
        } else {
            assert_string_equal(first, text);
            free(text);
        }
        wm_prof_lines_free(&l);
        wm_profile_free(p);
    }
    free(first);
    wm_layout_destroy(layout);
}

/* A run cut short: each PE's last cycles go to the instruction it is at,
 * and the rows still add up. */
static void test_run_cut_short(void **state)
{
    (void)state;
    wm_layout *layout = tutorial();
    wm_profile *p = profile_on("sw", layout, WM_PE_CORE, 150);
    wm_prof_lines l = lines_of(p);
    assert_adds_up(p, &l);
    assert_int_equal(l.kernels[0].kernel->cycles, 4 * 150);
    wm_prof_lines_free(&l);
    wm_profile_free(p);
    wm_layout_destroy(layout);
}

/* Natively there are no instructions to place: refused, with the reason. */
static void test_refused_natively(void **state)
{
    (void)state;
    wm_layout *layout = tutorial();
    wm_profile *p = profile_on("sw", layout, WM_PE_NATIVE, 2000000);
    wm_prof_lines l;
    char err[400] = "";
    assert_false(wm_profile_lines(p, &l, err, sizeof err));
    assert_string_equal(err, "a profile by line needs the firmware on the cores, and this one is native");
    wm_profile_free(p);
    wm_layout_destroy(layout);
}

/* Many PCs at once, past one command line's worth: each answered as when
 * asked alone, crt0's without a line. */
static void test_many_pcs(void **state)
{
    (void)state;
    wm_fw_syms syms;
    char err[4200];
    assert_true(wm_fw_syms_load_kernel("leaf", &syms, err, sizeof err));
    const size_t words = syms.code_end / 4, n = 5000;
    uint32_t *pcs = malloc(n * sizeof *pcs);
    char **lines = malloc(n * sizeof *lines);
    assert_non_null(pcs);
    assert_non_null(lines);
    for (size_t i = 0; i < n; i++) pcs[i] = (uint32_t)(4 * (i % words));
    assert_true(wm_fw_source_lines("leaf", pcs, n, lines, err, sizeof err));
    assert_null(lines[0]); /* _start, crt0.S */
    size_t placed = 0;
    for (size_t i = 0; i < n; i++) {
        /* one PC in eight also alone: a run of the tool each */
        char alone[4200];
        if (i < words && i % 8 == 0) {
            const bool has = wm_fw_source_line("leaf", pcs[i], alone, sizeof alone);
            assert_int_equal(has, lines[i] != NULL);
            if (has) assert_string_equal(alone, lines[i]);
        }
        if (i >= words) assert_true(lines[i] == lines[i % words] || !strcmp(lines[i], lines[i % words]));
        placed += lines[i] != NULL;
    }
    assert_true(placed > n / 2);
    for (size_t i = 0; i < n; i++) free(lines[i]);
    free(lines);
    free(pcs);
    wm_fw_syms_free(&syms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tutorial_lines),
        cmocka_unit_test(test_run_cut_short),
        cmocka_unit_test(test_refused_natively),
        cmocka_unit_test(test_many_pcs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
