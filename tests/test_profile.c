/* test_profile.c: the profile of a run (csim/profile/): the same text on
 * the rtl and the sw backend in each PE mode, every PE's columns adding up
 * to its cycles, a critical path that tiles the run up to its last event,
 * and a path that follows a planted delay. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile/check.h"
#include "profile/collect.h"
#include "profile/table.h"
#include "profile/timeline.h"
#include "run/layout.h"
#include "run/runner.h"
#include "run/tree.h"

static const char *const backend_names[] = {"rtl", "sw"};
enum { NBACKENDS = 2 };

static char *text_of(const wm_profile *p)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    assert_non_null(mem);
    wm_profile_print_tables(p, mem);
    wm_profile_print_path(p, mem);
    fclose(mem);
    return text;
}

/* The invariants (profile/check.h: every PE's slices tile [start, end) and
 * its table's total row is its cycles; the path tiles [0, last_event)),
 * the last event the last PE's end, and the summary line. */
static void assert_sums(const wm_profile *p)
{
    char err[400] = "";
    if (!wm_profile_check_invariants(p, err, sizeof err)) fprintf(stderr, "%s\n", err);
    assert_string_equal(err, "");
    uint64_t last = 0;
    for (size_t i = 0; i < p->npes; i++)
        if (p->pes[i].end > last) last = p->pes[i].end;
    assert_int_equal(p->last_event, last);
    assert_true(p->npath > 0);
    char line[200];
    snprintf(line, sizeof line, "critical path: %llu cycles in %zu segment%s; the run's last event at cycle %llu\n",
             (unsigned long long)p->last_event, p->npath, p->npath == 1 ? "" : "s", (unsigned long long)p->last_event);
    char *text = text_of(p);
    const size_t n = strlen(text), k = strlen(line);
    assert_true(n >= k);
    assert_string_equal(text + n - k, line);
    free(text);
}

static wm_profile *profile_on(const char *backend, const wm_layout *l, wm_pe_mode mode)
{
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    if (!ops) return NULL;
    char err[400];
    wm_run_result res;
    wm_profile *p = wm_profile_layout(ops, l, mode, 2000000, stderr, &res, err, sizeof err);
    if (!p) fprintf(stderr, "%s\n", err);
    assert_non_null(p);
    assert_int_equal(res, WM_RUN_DONE);
    return p;
}

static size_t count_of(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *at = text; (at = strstr(at, what)); at += strlen(what)) n++;
    return n;
}

/* The timeline of a real run: a track per PE (and the path's), one flow
 * start and one flow end per message, msgs of them; folded stacks whose
 * counts add up to the PEs' cycles. */
static void assert_timeline(const wm_profile *p, size_t msgs)
{
    assert_int_equal(p->nmsgs, msgs);
    char err[300], *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    assert_non_null(mem);
    assert_true(wm_profile_write_chrome(p, mem, err, sizeof err));
    fclose(mem);
    assert_int_equal(count_of(text, "\"thread_name\""), p->npes + 1);
    assert_int_equal(count_of(text, "\"ph\":\"s\""), msgs);
    assert_int_equal(count_of(text, "\"ph\":\"f\""), msgs);
    free(text);
    text = NULL;
    mem = open_memstream(&text, &size);
    assert_non_null(mem);
    assert_true(wm_profile_write_folded(p, mem, err, sizeof err));
    fclose(mem);
    uint64_t folded = 0, cycles = 0;
    for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
        const char *end = strchr(line, '\n');
        assert_non_null(end);
        const char *space = end;
        while (space > line && *space != ' ') space--;
        assert_true(*space == ' ');
        folded += strtoull(space + 1, NULL, 10);
    }
    for (size_t i = 0; i < p->npes; i++) cycles += p->pes[i].end - p->pes[i].start;
    assert_int_equal(folded, cycles);
    free(text);
}

/* The layout on both backends in both modes: identical text, true sums,
 * and msgs messages: one up and one down each edge of the tree. */
static void check_layout(const wm_layout *l, const char *name, size_t msgs)
{
    for (int m = 0; m < 2; m++) {
        const wm_pe_mode mode = m ? WM_PE_CORE : WM_PE_NATIVE;
        char *first = NULL;
        for (int b = 0; b < NBACKENDS; b++) {
            wm_profile *p = profile_on(backend_names[b], l, mode);
            if (!p) continue;
            assert_sums(p);
            assert_timeline(p, msgs);
            char *text = text_of(p);
            if (!first) {
                first = text;
            } else {
                if (strcmp(first, text)) fprintf(stderr, "%s %s: the backends differ\n", name, wm_pe_mode_name(mode));
                assert_string_equal(first, text);
                free(text);
            }
            wm_profile_free(p);
        }
        free(first);
    }
}

/* The seed's rows of sw/collectives/test.rows: tutorial, tworow. */
static wm_layout *seed_row(int shape)
{
    static const wm_setting rows[2][5] = {
        {{"SHAPE", 0, NULL}, {"V0", 10, NULL}, {"V1", 20, NULL}, {"V2", 30, NULL}, {"V3", 40, NULL}},
        {{"SHAPE", 1, NULL}, {"V0", 7, NULL}, {"V1", 300, NULL}, {"V2", 0, NULL}, {"V3", 5, NULL}},
    };
    wm_layout *l = wm_layout_load("sw/collectives/bench.layout", rows[shape], 5, stderr);
    assert_non_null(l);
    return l;
}

static void test_seed_rows(void **state)
{
    (void)state;
    for (int shape = 0; shape <= 1; shape++) {
        wm_layout *l = seed_row(shape);
        check_layout(l, shape ? "tworow" : "tutorial", 12); /* 4 leaves, 3 nodes: 6 edges */
        wm_layout_destroy(l);
    }
}

static wm_layout *htree(size_t leaves)
{
    int64_t values[64];
    wm_tree_seed_values(1, leaves, values);
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    assert_non_null(mem);
    char err[200];
    assert_true(wm_tree_write(mem, leaves, WM_TREE_HTREE, values, "test", err, sizeof err));
    fclose(mem);
    wm_layout *l = wm_layout_parse(text, "htree", NULL, 0, stderr);
    free(text);
    assert_non_null(l);
    return l;
}

static void test_htree_of_13_leaves(void **state)
{
    (void)state;
    wm_layout *l = htree(13);
    check_layout(l, "htree 13", 48); /* 13 leaves, 12 nodes: 24 edges */
    wm_layout_destroy(l);
}

/* Past WM_PROFILE_TABLES_MAX PEs the text is a summary, not a table a PE:
 * the busiest and the idlest PEs by cycles executing, and each kind's
 * histogram over every PE (a 256-leaf htree: 511 PEs). */
static void test_a_large_run_prints_a_summary(void **state)
{
    (void)state;
    int64_t values[256];
    wm_tree_seed_values(1, 256, values);
    char *layout_text = NULL, err[200];
    size_t size = 0;
    FILE *mem = open_memstream(&layout_text, &size);
    assert_non_null(mem);
    assert_true(wm_tree_write(mem, 256, WM_TREE_HTREE, values, "test", err, sizeof err));
    fclose(mem);
    wm_layout *l = wm_layout_parse(layout_text, "htree256", NULL, 0, stderr);
    free(layout_text);
    assert_non_null(l);
    wm_profile *p = profile_on("sw", l, WM_PE_NATIVE);
    assert_int_equal(p->npes, 511);
    assert_sums(p);
    char *text = text_of(p);
    assert_non_null(strstr(text, "per-PE tables: 511 PEs, more than 256, so a summary"));
    assert_null(strstr(text, "PE l0 ("));
    assert_non_null(strstr(text, "\nbusiest PEs (cycles executing of the PE's span): p0 (7,15) 136 of 660, "));
    assert_non_null(strstr(text, "\nidlest PEs (cycles executing of the PE's span): l255 (30,30) 70 of 1127, "));
    static const char *const rows[] = {"\n  exec     ", "\n  stall TX ", "\n  stall RX ", "\n  start-up "};
    for (int k = 0; k < 4; k++) {
        const char *at = strstr(text, rows[k]);
        assert_non_null(at);
        at += strlen(rows[k]);
        unsigned long sum = 0;
        for (int b = 0; b < 10; b++) sum += strtoul(at, (char **)&at, 10);
        assert_int_equal(sum, 511);
    }
    free(text);
    /* its picture: the critical path's PEs and a sample, said so; the
     * sample is a whole profile of its own */
    char note[160];
    wm_profile q = wm_profile_sample(p, WM_PNG_ROWS, note, sizeof note);
    assert_string_equal(note, "62 of 511 PEs: the critical path's 16 and every 11-th of the others");
    assert_int_equal(q.npes, 62);
    assert_int_equal(q.npath, p->npath);
    char why[400] = "";
    if (!wm_profile_check_invariants(&q, why, sizeof why)) fprintf(stderr, "%s\n", why);
    assert_string_equal(why, "");
    for (size_t k = 0; k < q.npath; k++) {
        const wm_prof_pe *a = &q.pes[q.path[k].pe], *b = &p->pes[p->path[k].pe];
        assert_string_equal(a->instance, b->instance);
        assert_int_equal(q.path[k].start, p->path[k].start);
    }
    free(q.pes);
    free(q.msgs);
    free(q.path);
    wm_profile_free(p);
    wm_layout_destroy(l);
}

/* The tutorial row's critical path on the cores, as docs/profiling.md
 * explains it: l3's value up through p1 to the root and its prefix back. */
static void test_tutorial_path_on_the_cores(void **state)
{
    (void)state;
    wm_layout *l = seed_row(0);
    wm_profile *p = profile_on("rtl", l, WM_PE_CORE);
    assert_int_equal(p->npath, 9);
    static const char *const on[] = {"l3", "p1", "p1", "root", "root", "p1", "p1", "l3", "l3"};
    for (size_t k = 0; k < p->npath; k++) assert_string_equal(p->pes[p->path[k].pe].instance, on[k]);
    assert_string_equal(p->pes[p->path[p->npath - 1].pe].instance, "l3");
    wm_profile_free(p);
    wm_layout_destroy(l);
}

/* A planted delay: node p0's kernel computes PLANT cycles before it starts.
 * The path, which runs through p1 without it, now runs through p0, and its
 * compute there holds the planted cycles. */
enum { PLANT = 700 };
static const wm_kernel *real_node;
static void planted_node(wm_mp *mp)
{
    wm_mp_work(mp, PLANT);
    real_node->run(mp);
}

static bool path_visits(const wm_profile *p, const char *instance, uint64_t *compute)
{
    bool seen = false;
    *compute = 0;
    for (size_t k = 0; k < p->npath; k++) {
        if (strcmp(p->pes[p->path[k].pe].instance, instance)) continue;
        if (p->path[k].kind == WM_SEG_COMPUTE) {
            seen = true;
            *compute += p->path[k].end - p->path[k].start;
        }
    }
    return seen;
}

static void test_planted_charge_moves_the_path(void **state)
{
    (void)state;
    wm_layout *l = seed_row(0);
    for (int b = 0; b < NBACKENDS; b++) {
        uint64_t c;
        wm_profile *p = profile_on(backend_names[b], l, WM_PE_NATIVE);
        if (!p) continue;
        assert_false(path_visits(p, "p0", &c));
        const uint64_t before = p->last_event;
        wm_profile_free(p);

        /* the same layout, p0's kernel planted */
        wm_kernel planted;
        wm_instance *p0 = NULL;
        for (size_t i = 0; i < wm_layout_count(l); i++)
            if (!strcmp(wm_layout_instance(l, i)->name, "p0")) p0 = (wm_instance *)wm_layout_instance(l, i);
        assert_non_null(p0);
        real_node = p0->kernel;
        planted = *real_node;
        planted.run = planted_node;
        p0->kernel = &planted;
        p = profile_on(backend_names[b], l, WM_PE_NATIVE);
        p0->kernel = real_node;
        assert_sums(p);
        assert_true(path_visits(p, "p0", &c));
        assert_true(c >= PLANT);
        assert_true(p->last_event > before);
        wm_profile_free(p);
    }
    wm_layout_destroy(l);
}

/* A run cut short by the cycle limit: every kernel ends with it (a native
 * one's charges past it cut off), and the sums still hold. */
static void test_run_cut_short(void **state)
{
    (void)state;
    wm_layout *l = seed_row(0);
    for (int m = 0; m < 2; m++) {
        char err[400];
        wm_run_result res;
        wm_profile *p = wm_profile_layout(wm_fabric_backend("rtl"), l, m ? WM_PE_CORE : WM_PE_NATIVE, 150, NULL, &res,
                                          err, sizeof err);
        assert_non_null(p);
        assert_int_equal(res, WM_RUN_MAX_CYCLES);
        assert_sums(p);
        assert_int_equal(p->last_event, 150);
        for (size_t i = 0; i < p->npes; i++) assert_int_equal(p->pes[i].end, 150);
        wm_profile_free(p);
    }
    wm_layout_destroy(l);
}

/* The CSV: a header, then rows whose totals add up as the text's do. */
static void test_csv(void **state)
{
    (void)state;
    wm_layout *l = seed_row(0);
    wm_profile *p = profile_on("rtl", l, WM_PE_CORE);
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    char err[100];
    assert_true(wm_profile_write_csv(p, mem, err, sizeof err));
    fclose(mem);
    assert_memory_equal(text, "pe,x,y,function,exec,stall_tx,stall_rx,startup,total\n", 53);
    uint64_t pes = 0, all = 0, expect = 0;
    for (char *line = strchr(text, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        const char *nl = strchr(line, '\n');
        assert_non_null(nl);
        const char *last = memrchr(line, ',', (size_t)(nl - line));
        assert_non_null(last);
        const uint64_t total = strtoull(last + 1, NULL, 10);
        if (!strncmp(line, "all,", 4))
            all += total;
        else
            pes += total;
    }
    for (size_t i = 0; i < p->npes; i++) expect += p->pes[i].end - p->pes[i].start;
    assert_int_equal(pes, expect);
    assert_int_equal(all, expect);
    free(text);
    wm_profile_free(p);
    wm_layout_destroy(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_rows),
        cmocka_unit_test(test_htree_of_13_leaves),
        cmocka_unit_test(test_a_large_run_prints_a_summary),
        cmocka_unit_test(test_tutorial_path_on_the_cores),
        cmocka_unit_test(test_planted_charge_moves_the_path),
        cmocka_unit_test(test_run_cut_short),
        cmocka_unit_test(test_csv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
