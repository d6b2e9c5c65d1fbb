/* test_profile_invariants.c: the profile's invariants (profile/check.h)
 * on profiles built by hand to reach each corner of the critical path's
 * walk, on the profiles of random trees and random firmware traffic on
 * both backends, and the checker's report on profiles broken on purpose.
 *
 * A hand-built profile is a run's PEs, their slices and messages; the
 * critical path is worked out from them (critical_path.h) and must be the
 * one written down here, segment by segment, and obey the invariants. */
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
#include "profile/critical_path.h"
#include "profile/table.h"
#include "run/layout.h"
#include "run/stream.h"
#include "run/tree.h"

/* ---------------------------------------------------------------- hand-built profiles */

enum { MAX_PES = 4, MAX_SLICES = 8, MAX_MSGS = 4 };

/* A profile over static storage: PEs added in layout order, each with its
 * slices, then messages in the order of their sends. */
typedef struct {
    wm_profile p;
    wm_prof_pe pes[MAX_PES];
    wm_prof_slice slices[MAX_PES][MAX_SLICES];
    wm_prof_msg msgs[MAX_MSGS];
} built;

static const char *const funcs[] = {"_start", "main", "mp_recv"};

static void build_begin(built *b)
{
    memset(b, 0, sizeof *b);
    b->p.mode = "core";
    b->p.funcs = (const char **)funcs;
    b->p.nfuncs = 3;
    b->p.pes = b->pes;
    b->p.msgs = b->msgs;
}

/* PE name at (x, y), its slices "kind:end" from start: kind e (exec, in
 * main), s (start-up), r (stall RX, in mp_recv), t (stall TX); none for a
 * PE that never runs. */
static size_t add_pe(built *b, const char *name, uint64_t start, const char *slices)
{
    const size_t i = b->p.npes++;
    assert_true(i < MAX_PES);
    wm_prof_pe *pe = &b->pes[i];
    pe->instance = name;
    pe->x = (uint16_t)i;
    pe->slices = b->slices[i];
    pe->start = pe->end = start;
    for (const char *at = slices; *at;) {
        const char kind = *at;
        char *next;
        const uint64_t end = strtoull(at + 2, &next, 10);
        assert_true(pe->nslices < MAX_SLICES);
        wm_prof_slice *s = &b->slices[i][pe->nslices++];
        s->start = pe->end;
        s->end = end;
        s->kind = kind == 'e' ? WM_PROF_EXEC : kind == 's' ? WM_PROF_STARTUP : kind == 'r' ? WM_PROF_STALL_RX
                                                                                           : WM_PROF_STALL_TX;
        s->func = kind == 's' ? 0 : kind == 'r' ? 2 : 1;
        pe->end = end;
        at = *next == ' ' ? next + 1 : next;
    }
    if (pe->end > b->p.last_event) b->p.last_event = pe->end;
    return i;
}

static void add_msg(built *b, size_t from, size_t to, uint64_t sent, uint64_t received)
{
    assert_true(b->p.nmsgs < MAX_MSGS);
    b->msgs[b->p.nmsgs++] = (wm_prof_msg){(uint32_t)from, (uint32_t)to, sent, received, 1, 0};
}

/* The path worked out: the invariants hold, and it is "c:PE:start:end"
 * and "m:RECEIVER:start:end" segments as want says. */
static void assert_path(built *b, const char *const *want, size_t n)
{
    wm_profile_critical_path(&b->p);
    char err[400] = "";
    if (!wm_profile_check_invariants(&b->p, err, sizeof err)) fprintf(stderr, "%s\n", err);
    assert_string_equal(err, "");
    char got[1000] = "", line[100];
    for (size_t k = 0; k < b->p.npath; k++) {
        const wm_prof_segment *s = &b->p.path[k];
        snprintf(line, sizeof line, "%s%c:%s:%llu:%llu", k ? " " : "", s->kind == WM_SEG_MESSAGE ? 'm' : 'c',
                 b->pes[s->pe].instance, (unsigned long long)s->start, (unsigned long long)s->end);
        strcat(got, line);
    }
    char expect[1000] = "";
    for (size_t k = 0; k < n; k++) {
        if (k) strcat(expect, " ");
        strcat(expect, want[k]);
    }
    assert_string_equal(got, expect);
}

/* Corner: a PE that pushes in the cycle it popped a message whole. b
 * waits for a's message m0 until its last pop at 12 and sends m1 back in
 * that same cycle: the compute on b between them is empty, so the path
 * goes from m0 straight into m1, 4 segments. */
static void same_cycle_push_and_pop(built *b)
{
    build_begin(b);
    const size_t a = add_pe(b, "a", 0, "e:5 r:20 e:25");
    const size_t bb = add_pe(b, "b", 0, "r:12 e:14");
    add_msg(b, a, bb, 5, 12);
    add_msg(b, bb, a, 12, 20);
}

static void test_same_cycle_push_and_pop(void **state)
{
    (void)state;
    built b;
    same_cycle_push_and_pop(&b);
    static const char *const want[] = {"c:a:0:5", "m:b:5:12", "m:a:12:20", "c:a:20:25"};
    assert_path(&b, want, 4);
    free(b.p.path);
}

/* Corner: a message to self. a sends to itself at 3, waits from 4 for its
 * last wavelet, popped at 9, and computes to 12. */
static void test_message_to_self(void **state)
{
    (void)state;
    built b;
    build_begin(&b);
    const size_t a = add_pe(&b, "a", 0, "s:2 e:4 r:9 e:12");
    add_msg(&b, a, a, 3, 9);
    static const char *const want[] = {"c:a:0:3", "m:a:3:9", "c:a:9:12"};
    assert_path(&b, want, 3);
    free(b.p.path);
}

/* Corner: a PE that never runs (its span empty, no slice) first in layout
 * order, beside one that computes from cycle 4 to 10: the path is compute
 * on the one that ran, from cycle 0 (the cycles before its start are its). */
static void test_a_pe_that_never_runs(void **state)
{
    (void)state;
    built b;
    build_begin(&b);
    add_pe(&b, "idle", 0, "");
    add_pe(&b, "busy", 4, "s:6 e:10");
    static const char *const want[] = {"c:busy:0:10"};
    assert_path(&b, want, 1);
    free(b.p.path);
}

/* Corner: a run of one PE that sends nothing: one compute segment. */
static void test_a_run_with_one_pe(void **state)
{
    (void)state;
    built b;
    build_begin(&b);
    add_pe(&b, "only", 0, "s:3 e:7 t:9 e:11");
    static const char *const want[] = {"c:only:0:11"};
    assert_path(&b, want, 1);
    free(b.p.path);
}

/* Two PEs ending at the run's last event: the path ends on the first in
 * layout order; c's wait for a message that never comes is not on it. */
static void test_the_first_pe_to_end_last(void **state)
{
    (void)state;
    built b;
    build_begin(&b);
    const size_t a = add_pe(&b, "a", 0, "e:3 r:8 e:10");
    const size_t c = add_pe(&b, "c", 0, "e:2 r:10");
    add_msg(&b, c, a, 2, 8);
    static const char *const want[] = {"c:c:0:2", "m:a:2:8", "c:a:8:10"};
    assert_path(&b, want, 3);
    /* the tie is counted, and the printed path says how it was broken */
    assert_int_equal(b.p.path_end_ties, 1);
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    assert_non_null(mem);
    wm_profile_print_path(&b.p, mem);
    fclose(mem);
    assert_non_null(strstr(text, "critical path: a tie: 1 other PE ends at cycle 10 with a (0,0); the path is walked "
                                 "back from a, the first in layout order\n"));
    free(text);
    free(b.p.path);
}

/* ---------------------------------------------------------------- the checker's reports */

/* The same-cycle profile with its path as worked out, then one fault
 * planted in it: the checker must say which. */
static void assert_report(built *b, const char *report)
{
    char err[400] = "";
    assert_false(wm_profile_check_invariants(&b->p, err, sizeof err));
    assert_string_equal(err, report);
}

static void test_an_empty_segment_is_reported(void **state)
{
    (void)state;
    built b;
    same_cycle_push_and_pop(&b);
    /* the path as it would be with the empty compute on b kept */
    static wm_prof_segment path[5];
    path[0] = (wm_prof_segment){WM_SEG_COMPUTE, 0, 0, 0, 5};
    path[1] = (wm_prof_segment){WM_SEG_MESSAGE, 1, 0, 5, 12};
    path[2] = (wm_prof_segment){WM_SEG_COMPUTE, 1, 0, 12, 12};
    path[3] = (wm_prof_segment){WM_SEG_MESSAGE, 0, 1, 12, 20};
    path[4] = (wm_prof_segment){WM_SEG_COMPUTE, 0, 0, 20, 25};
    b.p.path = path;
    b.p.npath = 5;
    assert_report(&b, "profile: critical path: segment 2 (compute on b) is empty (cycle 12)");
    /* and with it left out, the rest holds */
    path[2] = path[3];
    path[3] = path[4];
    b.p.npath = 4;
    char err[400] = "";
    assert_true(wm_profile_check_invariants(&b.p, err, sizeof err));
}

static void test_broken_paths_are_reported(void **state)
{
    (void)state;
    built b;
    same_cycle_push_and_pop(&b);
    wm_profile_critical_path(&b.p);
    wm_prof_segment *path = b.p.path;
    const wm_prof_segment kept[4] = {path[0], path[1], path[2], path[3]};

    path[2].start = 13; /* a gap */
    assert_report(&b, "profile: critical path: segment 2 (message 1 from b to a) starts at cycle 13, not at 12 "
                      "(where the segment before it ends)");
    memcpy(path, kept, sizeof kept);
    path[0].pe = 1; /* compute on b, then a's message */
    assert_report(&b, "profile: critical path: segment 1 (message 0 from a to b) follows segment 0 (compute on b), "
                      "which ends on b");
    memcpy(path, kept, sizeof kept);
    path[1] = (wm_prof_segment){WM_SEG_COMPUTE, 0, 0, 5, 12};
    assert_report(&b, "profile: critical path: segment 1 (compute on a) follows segment 0 (compute on a): compute "
                      "and message do not alternate");
    memcpy(path, kept, sizeof kept);
    path[1].end = 11;
    path[2].start = 11;
    assert_report(&b, "profile: critical path: segment 1 (message 0 from a to b) is not its message: [5, 11) to b, "
                      "the message [5, 12) to b");
    memcpy(path, kept, sizeof kept);
    b.p.npath = 3;
    assert_report(&b, "profile: critical path: it ends at cycle 20, the run's last event is at 25");
    b.p.npath = 0;
    assert_report(&b, "profile: critical path: no segment, the run's last event at cycle 25");
    b.p.npath = 4;
    path[0].start = 1;
    assert_report(&b, "profile: critical path: segment 0 (compute on a) starts at cycle 1, not at 0 (cycle 0)");
    free(b.p.path);
}

static void test_broken_pes_and_messages_are_reported(void **state)
{
    (void)state;
    built b;
    same_cycle_push_and_pop(&b);
    wm_profile_critical_path(&b.p);
    b.slices[0][1].start = 6; /* a's wait starts a cycle after its compute ends */
    assert_report(&b, "profile: a: slice 1 starts at cycle 6, not at 5 (where the slice before it ends)");
    b.slices[0][1].start = 5;
    b.pes[1].end = 15;
    assert_report(&b, "profile: b: its slices end at cycle 14, the PE at 15");
    b.pes[1].end = 14;
    b.slices[1][1].end = 12; /* an empty slice, and b's end with it */
    b.pes[1].end = 12;
    assert_report(&b, "profile: b: slice 1 is empty (cycle 12)");
    b.slices[1][1].end = b.pes[1].end = 14;
    b.pes[0].end = b.slices[0][2].end = 26;
    assert_report(&b, "profile: a ends at cycle 26, after the run's last event at 25");
    b.pes[0].end = b.slices[0][2].end = 25;
    b.msgs[1].received = 12;
    assert_report(&b, "profile: message 1 from b to a is received at cycle 12, not after its send at 12");
    b.msgs[1].received = 20;
    b.msgs[1].sent = 4;
    assert_report(&b, "profile: message 1 is sent at cycle 4, before message 0 (5)");
    b.msgs[1].sent = 12;
    char err[400] = "";
    assert_true(wm_profile_check_invariants(&b.p, err, sizeof err));
    free(b.p.path);
}

/* ---------------------------------------------------------------- random runs, both backends */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static unsigned draw(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

/* The layout's profile on the rtl and the sw backend in mode: each obeys
 * the invariants, and the two print the same text. */
static void check_both_backends(const wm_layout *l, wm_pe_mode mode, const char *what)
{
    char *first = NULL;
    static const char *const backends[] = {"rtl", "sw"};
    for (int k = 0; k < 2; k++) {
        const wm_fabric_ops *ops = wm_fabric_backend(backends[k]);
        assert_non_null(ops);
        char err[400] = "";
        wm_run_result res;
        wm_profile *p = wm_profile_layout(ops, l, mode, 2000000, stderr, &res, err, sizeof err);
        if (!p) fprintf(stderr, "%s: %s\n", what, err);
        assert_non_null(p);
        assert_int_equal(res, WM_RUN_DONE);
        if (!wm_profile_check_invariants(p, err, sizeof err))
            fprintf(stderr, "%s on %s, %s: %s\n", what, backends[k], wm_pe_mode_name(mode), err);
        assert_string_equal(err, "");
        char *text = NULL;
        size_t size = 0;
        FILE *mem = open_memstream(&text, &size);
        assert_non_null(mem);
        wm_profile_print_tables(p, mem);
        wm_profile_print_path(p, mem);
        fclose(mem);
        if (!first) {
            first = text;
        } else {
            if (strcmp(first, text)) fprintf(stderr, "%s, %s: the backends' profiles differ\n", what,
                                             wm_pe_mode_name(mode));
            assert_string_equal(first, text);
            free(text);
        }
        wm_profile_free(p);
    }
    free(first);
}

/* Random trees: 1..24 leaves, every placement, natively (and the first
 * eight on the cores). */
static void test_random_trees(void **state)
{
    (void)state;
    rng_state = 0x51ed270b27a4f3c1ull;
    for (int k = 0; k < 16; k++) {
        const size_t leaves = 1 + draw(24);
        const wm_tree_placement placement = (wm_tree_placement)draw(WM_TREE_CHAIN + 1);
        int64_t values[32];
        wm_tree_seed_values(k + 1, leaves, values);
        char *text = NULL, err[200], what[100];
        size_t size = 0;
        FILE *mem = open_memstream(&text, &size);
        assert_non_null(mem);
        assert_true(wm_tree_write(mem, leaves, placement, values, "test", err, sizeof err));
        fclose(mem);
        wm_layout *l = wm_layout_parse(text, "tree", NULL, 0, stderr);
        free(text);
        assert_non_null(l);
        snprintf(what, sizeof what, "tree of %zu leaves, %s", leaves, wm_tree_placement_name(placement));
        check_both_backends(l, WM_PE_NATIVE, what);
        if (k < 8) check_both_backends(l, WM_PE_CORE, what);
        wm_layout_destroy(l);
    }
}

/* Random firmware traffic: the stream kernel on meshes up to 4x3, every
 * pattern, messages of 0..8 data wavelets, back to back or spaced, on the
 * cores; the first sends every message to its own PE. */
static void test_random_traffic(void **state)
{
    (void)state;
    rng_state = 0x2545f4914f6cdd1dull;
    for (int k = 0; k < 16; k++) {
        wm_stream_spec spec = {0};
        spec.w = 1 + draw(4);
        spec.h = 1 + draw(3);
        spec.pattern = (wm_stream_pattern)draw(3);
        if (spec.pattern == WM_STREAM_TRANSPOSE) spec.h = spec.w;
        spec.dx = k ? draw(spec.w) : 0; /* the first: every message to self */
        spec.dy = k ? draw(spec.h) : 0;
        if (!k) spec.pattern = WM_STREAM_SHIFT;
        spec.count = 1 + draw(5);
        spec.len = draw(9);
        spec.gap = draw(2) ? 0 : draw(40);
        spec.seed = (uint32_t)k + 1;
        wm_stream_expect *expect = NULL;
        char err[200], what[160];
        wm_layout *l = wm_stream_layout(&spec, &expect, err, sizeof err);
        if (!l) fprintf(stderr, "%s\n", err);
        assert_non_null(l);
        free(expect);
        snprintf(what, sizeof what, "stream %ux%u pattern %d (%u,%u), %u messages of %u, gap %u", spec.w, spec.h,
                 (int)spec.pattern, spec.dx, spec.dy, spec.count, spec.len, spec.gap);
        check_both_backends(l, WM_PE_CORE, what);
        wm_layout_destroy(l);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_cycle_push_and_pop),
        cmocka_unit_test(test_message_to_self),
        cmocka_unit_test(test_a_pe_that_never_runs),
        cmocka_unit_test(test_a_run_with_one_pe),
        cmocka_unit_test(test_the_first_pe_to_end_last),
        cmocka_unit_test(test_an_empty_segment_is_reported),
        cmocka_unit_test(test_broken_paths_are_reported),
        cmocka_unit_test(test_broken_pes_and_messages_are_reported),
        cmocka_unit_test(test_random_trees),
        cmocka_unit_test(test_random_traffic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
