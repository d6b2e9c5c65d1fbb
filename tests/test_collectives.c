/* test_collectives.c: the seed's tree collectives, exactly as the seed
 * gives them, on every registered backend (rtl, and sw when present), with
 * identical cycle tables on both; the exercises; generated trees of every
 * placement against the reference loop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "run/heatmap.h"
#include "run/layout.h"
#include "run/runner.h"
#include "run/exact.h"
#include "run/scan_check.h"
#include "run/tree.h"
#include "waves/waves_read.h"

static const char *const backend_names[] = {"rtl", "sw"};
enum { NBACKENDS = 2, MAX_LEAVES = 128 };

typedef struct {
    bool ran;
    wm_run_result result;
    size_t wrong;          /* values off the reference */
    size_t nleaves;
    int64_t cycles[MAX_LEAVES];
    int64_t excl[MAX_LEAVES], incl[MAX_LEAVES], total;
} outcome;

static void collect(const wm_layout *l, wm_runner *r, outcome *o)
{
    wm_sched *s = wm_runner_sched(r);
    const char *names[MAX_LEAVES];
    o->nleaves = wm_runner_leaf_cycles(r, names, o->cycles, MAX_LEAVES);
    for (size_t i = 0; i < o->nleaves && i < MAX_LEAVES; i++) {
        char name[16];
        snprintf(name, sizeof name, "l%zu", i);
        o->excl[i] = o->incl[i] = -1;
        wm_sched_result(s, name, "excl", &o->excl[i]);
        wm_sched_result(s, name, "incl", &o->incl[i]);
    }
    o->total = -1;
    wm_sched_result(s, "root", "total", &o->total);
    o->wrong = wm_scan_check(l, s, NULL);
}

/* Runs layout l on the backend in PE mode pe; false if that backend is not registered. */
static bool run_on_pe(const char *backend, const wm_layout *l, wm_pe_mode pe, outcome *o)
{
    memset(o, 0, sizeof *o);
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    if (!ops) return false;
    wm_runner *r = wm_runner_create_mode(ops, l, NULL, pe);
    assert_non_null(r);
    o->result = wm_runner_run(r, 2000000);
    o->ran = true;
    collect(l, r, o);
    wm_runner_destroy(r);
    return true;
}

static bool run_on(const char *backend, const wm_layout *l, outcome *o)
{
    return run_on_pe(backend, l, WM_PE_NATIVE, o);
}

/* The native mode follows the core (its charges are the core's,
 * sw/cost_model.h): every leaf's cycles within 10 % of the core's, which
 * are exactly `core` on both backends. */
static void assert_native_follows_core(const wm_layout *l, const outcome *native, const int64_t core[])
{
    for (int b = 0; b < NBACKENDS; b++) {
        outcome c;
        if (!run_on_pe(backend_names[b], l, WM_PE_CORE, &c)) continue;
        assert_int_equal(c.result, WM_RUN_DONE);
        assert_int_equal(c.nleaves, native->nleaves);
        for (size_t i = 0; i < c.nleaves; i++) {
            assert_int_equal(c.cycles[i], core[i]);
            const int64_t diff = native->cycles[i] > core[i] ? native->cycles[i] - core[i] : core[i] - native->cycles[i];
            if (10 * diff > core[i])
                fail_msg("leaf %zu: native %lld cycles, core %lld: more than 10 %% apart", i,
                         (long long)native->cycles[i], (long long)core[i]);
        }
    }
}

static wm_layout *load(const char *path, const wm_setting *set, size_t n)
{
    wm_layout *l = wm_layout_load(path, set, n, stderr);
    assert_non_null(l);
    return l;
}

#define SETS(...) ((const wm_setting[]){__VA_ARGS__}), (sizeof((const wm_setting[]){__VA_ARGS__}) / sizeof(wm_setting))

static void assert_scan(const outcome *o, const int64_t excl[4], const int64_t incl[4], int64_t total)
{
    assert_int_equal(o->result, WM_RUN_DONE);
    assert_int_equal(o->nleaves, 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(o->excl[i], excl[i]);
        assert_int_equal(o->incl[i], incl[i]);
    }
    assert_int_equal(o->total, total);
    assert_int_equal(o->wrong, 0);
}

static void assert_same_cycles(const outcome *a, const outcome *b)
{
    assert_int_equal(a->nleaves, b->nleaves);
    for (size_t i = 0; i < a->nleaves; i++) assert_int_equal(a->cycles[i], b->cycles[i]);
}

/* The seed's cycles.py on its own cores, leaf by leaf: the cores' rows
 * may be at most 10 % above them (every leaf of both rows is below). */
static void assert_within_the_seed(const int64_t core[4], const int64_t seed[4])
{
    for (int i = 0; i < 4; i++)
        if (10 * core[i] > 11 * seed[i])
            fail_msg("leaf %d: %lld cycles on the cores, the seed's %lld: more than 10 %% above", i,
                     (long long)core[i], (long long)seed[i]);
}

/* Runs on every backend, checks, and requires identical cycle tables. */
static void seed_row(const wm_setting *set, size_t n, const int64_t excl[4], const int64_t incl[4], int64_t total,
                     const int64_t cycles[4], const int64_t core[4])
{
    wm_layout *l = load("sw/collectives/bench.layout", set, n);
    outcome first = {0}, o;
    for (int b = 0; b < NBACKENDS; b++) {
        if (!run_on(backend_names[b], l, &o)) continue;
        assert_scan(&o, excl, incl, total);
        for (int i = 0; i < 4; i++) assert_int_equal(o.cycles[i], cycles[i]);
        if (first.ran) assert_same_cycles(&first, &o);
        first = o;
    }
    assert_true(first.ran);
    assert_native_follows_core(l, &first, core);
    wm_layout_destroy(l);
}

static void test_tutorial_row_gives_the_seed_scan(void **state)
{
    (void)state;
    const int64_t excl[4] = {0, 10, 30, 60}, incl[4] = {10, 30, 60, 100}, cycles[4] = {204, 220, 216, 230};
    const int64_t core[4] = {203, 221, 217, 233}, seed[4] = {222, 231, 231, 236};
    assert_within_the_seed(core, seed);
    seed_row(SETS({"SHAPE", 0, NULL}, {"V0", 10, NULL}, {"V1", 20, NULL}, {"V2", 30, NULL}, {"V3", 40, NULL}), excl, incl, 100, cycles, core);
}

static void test_tworow_gives_the_seed_scan(void **state)
{
    (void)state;
    const int64_t excl[4] = {0, 7, 307, 307}, incl[4] = {7, 307, 307, 312}, cycles[4] = {194, 212, 214, 228};
    const int64_t core[4] = {193, 213, 215, 231}, seed[4] = {210, 224, 228, 236};
    assert_within_the_seed(core, seed);
    seed_row(SETS({"SHAPE", 1, NULL}, {"V0", 7, NULL}, {"V1", 300, NULL}, {"V2", 0, NULL}, {"V3", 5, NULL}), excl, incl, 312, cycles, core);
}

static void test_compact_placement_of_exercise_3(void **state)
{
    (void)state;
    const int64_t excl[4] = {0, 10, 30, 60}, incl[4] = {10, 30, 60, 100}, cycles[4] = {198, 214, 214, 230};
    const int64_t core[4] = {197, 215, 215, 233};
    seed_row(SETS({"SHAPE", 2, NULL}), excl, incl, 100, cycles, core);
}

/* Exercise 1: the nearer child's message arrives first, so a node that
 * takes arrival order for tree order fails exactly as the seed says. */
static void test_ignoring_the_tag_fails_as_the_seed_says(void **state)
{
    (void)state;
    wm_layout *tut = load("sw/collectives/bench.layout", SETS({"SHAPE", 0, NULL}, {"IGNORE_TAG", 1, NULL}));
    wm_layout *two = load("sw/collectives/bench.layout",
                          SETS({"SHAPE", 1, NULL}, {"V0", 7, NULL}, {"V1", 300, NULL}, {"V2", 0, NULL}, {"V3", 5, NULL}, {"IGNORE_TAG", 1, NULL}));
    outcome o;
    for (int b = 0; b < NBACKENDS; b++) {
        if (!run_on(backend_names[b], tut, &o)) continue;
        assert_int_equal(o.result, WM_RUN_DONE);
        assert_int_equal(o.excl[1], 20); /* not 10: l1's message reached p0 first */
        assert_int_equal(o.total, 100);  /* the sum does not care about order */
        assert_true(o.wrong > 0);
        assert_true(run_on(backend_names[b], two, &o));
        assert_int_equal(o.result, WM_RUN_DONE);
        assert_int_equal(o.excl[3], 312); /* not 307: l3's message reached p1 first */
        assert_int_equal(o.excl[1], 7);   /* p0's nearer child is its left one */
        assert_int_equal(o.total, 312);
        assert_true(o.wrong > 0);
    }
    wm_layout_destroy(tut);
    wm_layout_destroy(two);
}

/* Exercise 2: eight leaves, 15 PEs, the same kernels. */
static void test_eight_leaves_on_both_shapes(void **state)
{
    (void)state;
    for (int shape = 0; shape < 2; shape++) {
        wm_layout *l = load("sw/collectives/bench8.layout", SETS({"SHAPE", shape, NULL}));
        assert_int_equal(wm_layout_count(l), 15);
        outcome first = {0}, o;
        for (int b = 0; b < NBACKENDS; b++) {
            if (!run_on(backend_names[b], l, &o)) continue;
            assert_int_equal(o.result, WM_RUN_DONE);
            assert_int_equal(o.nleaves, 8);
            assert_int_equal(o.wrong, 0);
            assert_int_equal(o.excl[7], 28);
            assert_int_equal(o.total, 36);
            if (first.ran) assert_same_cycles(&first, &o);
            first = o;
        }
        wm_layout_destroy(l);
    }
}

/* Lesson 9's baseline: one message step per PE, 40 cycles each, natively
 * and on the cores; the first PE waits for nothing (its two timestamp
 * reads back to back, 4 cycles). */
static void test_chain_reduces_along_the_row(void **state)
{
    (void)state;
    wm_layout *l = load("sw/collectives/chain.layout", NULL, 0);
    outcome first = {0}, o;
    const int64_t excl[4] = {0, 10, 30, 60}, incl[4] = {10, 30, 60, 100}, cycles[4] = {4, 43, 82, 121};
    const int64_t core[4] = {4, 43, 82, 121};
    for (int b = 0; b < NBACKENDS; b++) {
        if (!run_on(backend_names[b], l, &o)) continue;
        assert_int_equal(o.result, WM_RUN_DONE);
        assert_int_equal(o.wrong, 0);
        for (int i = 0; i < 4; i++) {
            assert_int_equal(o.excl[i], excl[i]);
            assert_int_equal(o.incl[i], incl[i]);
            assert_int_equal(o.cycles[i], cycles[i]);
        }
        if (first.ran) assert_same_cycles(&first, &o);
        first = o;
    }
    assert_native_follows_core(l, &first, core);
    wm_layout_destroy(l);
}

/* The text of a generated tree over `leaves` leaves valued from `seed`. */
static char *tree_text(size_t leaves, wm_tree_placement p, uint64_t seed)
{
    int64_t *values = calloc(leaves, sizeof *values);
    assert_non_null(values);
    wm_tree_seed_values(seed, leaves, values);
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    assert_non_null(mem);
    char err[200];
    if (!wm_tree_write(mem, leaves, p, values, "test", err, sizeof err))
        fail_msg("P=%zu %s: %s", leaves, wm_tree_placement_name(p), err);
    fclose(mem);
    free(values);
    return text;
}

static wm_layout *generated(size_t leaves, wm_tree_placement p, uint64_t seed)
{
    char *text = tree_text(leaves, p, seed);
    wm_layout *l = wm_layout_parse(text, "generated", NULL, 0, stderr);
    free(text);
    assert_non_null(l);
    return l;
}

static void test_generated_trees_match_the_reference(void **state)
{
    (void)state;
    const size_t sizes[] = {1, 2, 3, 5, 16, 100};
    const wm_tree_placement places[] = {WM_TREE_ROW,   WM_TREE_TWOROW, WM_TREE_INORDER,
                                        WM_TREE_HTREE, WM_TREE_CHAIN,  WM_TREE_PACKED};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (size_t pi = 0; pi < sizeof places / sizeof places[0]; pi++) {
            wm_layout *l = generated(sizes[si], places[pi], 7 + si);
            const size_t pes = places[pi] == WM_TREE_CHAIN ? sizes[si] : sizes[si] == 1 ? 2 : 2 * sizes[si] - 1;
            assert_int_equal(wm_layout_count(l), pes);
            outcome first = {0}, o;
            for (int b = 0; b < NBACKENDS; b++) {
                /* the large rows on the rtl backend only where they are quick */
                if (!strcmp(backend_names[b], "rtl") && sizes[si] > 16 && places[pi] == WM_TREE_CHAIN) continue;
                if (!run_on(backend_names[b], l, &o)) continue;
                if (o.result != WM_RUN_DONE || o.wrong)
                    fail_msg("P=%zu %s on %s: result %d, %zu wrong", sizes[si], wm_tree_placement_name(places[pi]),
                             backend_names[b], (int)o.result, o.wrong);
                assert_int_equal(o.nleaves, sizes[si]);
                if (first.ran) assert_same_cycles(&first, &o);
                first = o;
            }
            wm_layout_destroy(l);
        }
    }
}

static void test_tworow_generator_reproduces_the_seed_placement(void **state)
{
    (void)state;
    wm_layout *l = generated(4, WM_TREE_TWOROW, 1);
    const char *names[] = {"l0", "l1", "l2", "l3", "p0", "root", "p1"};
    const unsigned xs[] = {0, 1, 2, 3, 0, 1, 3}, ys[] = {1, 1, 1, 1, 0, 0, 0};
    for (int i = 0; i < 7; i++) {
        const wm_instance *in = wm_layout_find(l, names[i]);
        assert_non_null(in);
        assert_int_equal(in->x, xs[i]);
        assert_int_equal(in->y, ys[i]);
    }
    assert_int_equal(wm_layout_width(l), 4);
    assert_int_equal(wm_layout_height(l), 2);
    wm_layout_destroy(l);
    l = generated(4, WM_TREE_INORDER, 1);
    const char *order[] = {"l0", "p0", "l1", "root", "l2", "p1", "l3"};
    for (unsigned i = 0; i < 7; i++) assert_int_equal(wm_layout_find(l, order[i])->x, i);
    wm_layout_destroy(l);
}

static void test_htree_holds_4096_leaves(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    int64_t *values = calloc(4096, sizeof *values);
    assert_non_null(values);
    char err[200];
    assert_true(wm_tree_write(mem, 4096, WM_TREE_HTREE, values, "test", err, sizeof err));
    fclose(mem);
    assert_non_null(strstr(text, "mesh 127 127\n"));
    free(text);
    /* and the one-row placements say why they cannot */
    mem = open_memstream(&text, &size);
    assert_false(wm_tree_write(mem, 4096, WM_TREE_ROW, values, "test", err, sizeof err));
    fclose(mem);
    free(text);
    assert_non_null(strstr(err, "needs a 8191x1 mesh"));
    free(values);
}

/* What a tree layout's `mesh` and `at` lines say, read from the text on
 * their own (apart from the layout parser's checks, and quick on a
 * million PEs): the mesh, how many PEs, how many of them sit off the mesh
 * or on a tile another took. */
typedef struct {
    unsigned w, h;
    size_t pes, outside, shared;
} tiling;

static tiling tiling_of(const char *text)
{
    tiling t = {0, 0, 0, 0, 0};
    unsigned char *taken = NULL;
    for (const char *line = text; line && *line;) {
        /* one line at a time: sscanf on the whole text would measure all of it for every line */
        const char *end = strchr(line, '\n');
        const size_t n = end ? (size_t)(end - line) : strlen(line);
        char buf[128], name[64];
        snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), line);
        line = end ? end + 1 : NULL;
        unsigned x, y;
        if (sscanf(buf, "mesh %u %u", &t.w, &t.h) == 2) {
            free(taken);
            taken = calloc((size_t)t.w * t.h, 1);
            assert_non_null(taken);
        } else if (sscanf(buf, "at %63s %u %u", name, &x, &y) == 3) {
            t.pes++;
            if (!taken || x >= t.w || y >= t.h)
                t.outside++;
            else if (taken[(size_t)y * t.w + x])
                t.shared++;
            else
                taken[(size_t)y * t.w + x] = 1;
        }
    }
    free(taken);
    return t;
}

/* The tiling check fires: a PE on a taken tile and one off the mesh. */
static void test_tiling_check_finds_a_shared_tile_and_one_off_the_mesh(void **state)
{
    (void)state;
    const tiling t = tiling_of("mesh 2 1\nat a 0 0\nat b 1 0\nat c 0 0\nat d 2 0\n");
    assert_int_equal(t.w, 2);
    assert_int_equal(t.h, 1);
    assert_int_equal(t.pes, 4);
    assert_int_equal(t.shared, 1);
    assert_int_equal(t.outside, 1);
}

/* packed: each PE on a tile of its own inside the mesh, 2^k leaves on
 * 2^(k+1) tiles all but one taken, and the tree's results those of the
 * reference loop (natively, sw backend). One leaf is the root over l0 on
 * 2 x 1, as in every placement. */
static void test_packed_tiles_every_pe_once_and_scans(void **state)
{
    (void)state;
    const size_t sizes[] = {1, 2, 3, 4, 5, 8, 16, 13};
    const unsigned ws[] = {2, 2, 3, 4, 4, 4, 8, 8}, hs[] = {1, 2, 2, 2, 3, 4, 4, 4};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const size_t leaves = sizes[si], pes = leaves == 1 ? 2 : 2 * leaves - 1;
        char *text = tree_text(leaves, WM_TREE_PACKED, 3 + si);
        const tiling t = tiling_of(text);
        if (t.w != ws[si] || t.h != hs[si] || t.pes != pes || t.outside || t.shared)
            fail_msg("P=%zu: %zu PEs on %ux%u (%zu off the mesh, %zu on a taken tile); want %zu on %ux%u", leaves,
                     t.pes, t.w, t.h, t.outside, t.shared, pes, ws[si], hs[si]);
        if (leaves > 1 && !(leaves & (leaves - 1))) assert_int_equal((size_t)t.w * t.h, pes + 1);
        wm_layout *l = wm_layout_parse(text, "packed", NULL, 0, stderr);
        free(text);
        assert_non_null(l);
        int64_t values[16], excl[16], incl[16], total;
        wm_tree_seed_values(3 + si, leaves, values);
        wm_scan_reference(values, leaves, excl, incl, &total);
        outcome o;
        assert_true(run_on("sw", l, &o));
        if (o.result != WM_RUN_DONE || o.wrong) fail_msg("P=%zu: result %d, %zu wrong", leaves, (int)o.result, o.wrong);
        assert_int_equal(o.nleaves, leaves);
        for (size_t i = 0; i < leaves; i++) {
            assert_int_equal(o.excl[i], excl[i]);
            assert_int_equal(o.incl[i], incl[i]);
        }
        assert_int_equal(o.total, total);
        wm_layout_destroy(l);
    }
}

/* One leaf more than a full square mesh holds (WM_MESH_MAX^2 / 2 leaves)
 * is refused with the mesh it would need. */
static void test_packed_refuses_one_leaf_more_than_the_mesh_holds(void **state)
{
    (void)state;
    const size_t leaves = (size_t)WM_MESH_MAX * WM_MESH_MAX / 2 + 1;
    int64_t *values = calloc(leaves, sizeof *values);
    assert_non_null(values);
    char *text = NULL, err[200], want[100];
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    assert_false(wm_tree_write(mem, leaves, WM_TREE_PACKED, values, "test", err, sizeof err));
    fclose(mem);
    free(text);
    free(values);
    snprintf(want, sizeof want, "placement packed of %zu leaves needs a %dx%d mesh", leaves, 2 * WM_MESH_MAX,
             WM_MESH_MAX - 1);
    if (!strstr(err, want)) fail_msg("%s; want %s", err, want);
}

/* The wafer: 2^19 leaves, 2^20 - 1 PEs filling 1024 x 1024 but one tile.
 * Only placed, not run, to stay quick. */
static void test_packed_holds_2_19_leaves_on_1024_by_1024(void **state)
{
    (void)state;
    if (WM_MESH_MAX < 1024) {
        print_message("skipped: the mesh is at most %d x %d; 2^19 leaves need 1024 x 1024\n", WM_MESH_MAX,
                      WM_MESH_MAX);
        skip();
    }
    char *text = tree_text((size_t)1 << 19, WM_TREE_PACKED, 1);
    const tiling t = tiling_of(text);
    free(text);
    assert_int_equal(t.w, 1024);
    assert_int_equal(t.h, 1024);
    assert_int_equal(t.pes, ((size_t)1 << 20) - 1);
    assert_int_equal(t.outside, 0);
    assert_int_equal(t.shared, 0);
}

static void test_reference_loop(void **state)
{
    (void)state;
    const int64_t v[4] = {7, 300, 0, 5};
    int64_t excl[4], incl[4], total;
    wm_scan_reference(v, 4, excl, incl, &total);
    assert_int_equal(excl[2], 307);
    assert_int_equal(incl[3], 312);
    assert_int_equal(total, 312);
}

int wm_cmd_rows(int argc, char **argv);

/* Runs `wavemesh rows` with stdout captured into *text; returns its status. */
static int rows_command(char **argv, int argc, char **text)
{
    char path[] = "/tmp/wm_rows_outXXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    const int saved = dup(1);
    dup2(fd, 1);
    const int status = wm_cmd_rows(argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    FILE *f = fdopen(fd, "r");
    fseek(f, 0, SEEK_SET);
    *text = calloc(1, 65536);
    assert_non_null(*text);
    size_t n = fread(*text, 1, 65535, f);
    (*text)[n] = '\0';
    fclose(f);
    unlink(path);
    return status;
}

/* A line "SUITE : m:ss.cc REST" as the seed prints it. */
static void assert_row_line(const char *text, const char *suite, const char *rest)
{
    const char *at = strstr(text, rest);
    if (!at) fail_msg("no line ending \"%s\" in:\n%s", rest, text);
    const char *line = at;
    while (line > text && line[-1] != '\n') line--;
    char want[256];
    snprintf(want, sizeof want, "%s : ", suite);
    assert_true(strncmp(line, want, strlen(want)) == 0);
    int m = -1, sec = -1, cs = -1, used = 0;
    assert_int_equal(sscanf(line + strlen(want), "%d:%2d.%2d%n", &m, &sec, &cs, &used), 3);
    assert_int_equal(used, 7);
    assert_ptr_equal(line + strlen(want) + used, at);
}

static void test_rows_prints_the_seed_lines_and_fails_a_wrong_row(void **state)
{
    (void)state;
    char *text = NULL;
    char *argv[] = {"rows", "sw/collectives/test.rows", "--backend", "rtl", NULL};
    assert_int_equal(rows_command(argv, 4, &text), 0);
    assert_row_line(text, "collectives", " PASS tutorial [ SHAPE=0 V0=10 V1=20 V2=30 V3=40 BACKEND=rtl ]\n");
    assert_row_line(text, "collectives", " PASS tworow [ SHAPE=1 V0=7 V1=300 V2=0 V3=5 BACKEND=rtl ]\n");
    free(text);

    char dir[] = "/tmp/wm_rowsXXXXXX", cwd[1024], rows[1200], sub[1100];
    assert_non_null(mkdtemp(dir));
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(sub, sizeof sub, "%s/exercise1", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(rows, sizeof rows, "%s/test.rows", sub);
    FILE *f = fopen(rows, "w");
    assert_non_null(f);
    fprintf(f, "layout %s/sw/collectives/bench.layout\nrow tutorial SHAPE=0 IGNORE_TAG=1\n", cwd);
    fclose(f);
    char *argv2[] = {"rows", rows, NULL};
    assert_int_equal(rows_command(argv2, 2, &text), 1);
    assert_row_line(text, "exercise1", " FAIL tutorial [ SHAPE=0 IGNORE_TAG=1 BACKEND=rtl ]\n");
    assert_non_null(strstr(text, "  l1.excl = 20, expected 10\n"));
    free(text);
    unlink(rows);
    rmdir(sub);
    rmdir(dir);
}

/* A user's kernel checked by `expect` lines: the all-reduce's rows pass on
 * both backends in both PE modes; a wrong expectation fails its row with
 * the value it got and the exit status 1; a malformed line stops the
 * command (2) before any row runs. */
static void test_rows_expect_lines_check_any_export(void **state)
{
    (void)state;
    char *text = NULL;
    char *argv[] = {"rows", "sw/collectives/allreduce.rows", "--backend", "rtl", "--backend", "sw",
                    "--pe", "native", "--pe", "core", NULL};
    assert_int_equal(rows_command(argv, 10, &text), 0);
    assert_row_line(text, "collectives", " PASS allreduce [ BACKEND=rtl ]\n");
    assert_row_line(text, "collectives", " PASS allreduce [ BACKEND=sw PE=core ]\n");
    assert_row_line(text, "collectives", " PASS allreduce-negative [ VC=-100 VSE=1000 BACKEND=sw ]\n");
    assert_null(strstr(text, "FAIL"));
    free(text);

    char dir[] = "/tmp/wm_expectXXXXXX", cwd[1024], rows[1200], sub[1100];
    assert_non_null(mkdtemp(dir));
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(sub, sizeof sub, "%s/mine", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(rows, sizeof rows, "%s/user.rows", sub);
    FILE *f = fopen(rows, "w");
    assert_non_null(f);
    fprintf(f, "layout %s/sw/collectives/allreduce.layout\nrow right\nexpect se.total=45\n"
               "row wrong VC=6\nexpect c.total=45 c.sum=46\n", cwd);
    fclose(f);
    char *argv2[] = {"rows", rows, NULL};
    assert_int_equal(rows_command(argv2, 2, &text), 1);
    assert_row_line(text, "mine", " PASS right [ BACKEND=rtl ]\n");
    assert_row_line(text, "mine", " FAIL wrong [ VC=6 BACKEND=rtl ]\n");
    assert_non_null(strstr(text, "  c.total = 46, expected 45\n"));
    assert_null(strstr(text, "c.sum"));
    free(text);

    f = fopen(rows, "w");
    assert_non_null(f);
    fprintf(f, "layout %s/sw/collectives/allreduce.layout\nexpect c.total=45\nrow late\n", cwd);
    fclose(f);
    assert_int_equal(rows_command(argv2, 2, &text), 2);
    assert_string_equal(text, "");
    free(text);
    unlink(rows);
    rmdir(sub);
    rmdir(dir);
}

/* Values are words: a sum past 2^31-1 wraps, and a row whose exact sum
 * (the scan's reference, the all-reduce's) does not fit the word it
 * exports fails with the export, its exact value and the word, natively
 * and on the cores, on both backends, unless its `expect` lines state the
 * wrapped word on purpose. */
static void test_rows_fail_a_wrapped_sum_unless_expected(void **state)
{
    (void)state;
    char dir[] = "/tmp/wm_wrapXXXXXX", cwd[1024], rows[1200], sub[1100];
    assert_non_null(mkdtemp(dir));
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(sub, sizeof sub, "%s/wrap", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(rows, sizeof rows, "%s/wrap.rows", sub);
    FILE *f = fopen(rows, "w");
    assert_non_null(f);
    fprintf(f,
            "layout %s/sw/collectives/bench.layout\n"
            "row scan SHAPE=0 V0=2147483647 V1=1\n"
            "row scan-on-purpose SHAPE=0 V0=2147483647 V1=1\n"
            "expect l1.incl=-2147483648 l2.excl=-2147483648 l2.incl=-2147483618\n"
            "expect l3.excl=-2147483618 l3.incl=-2147483578 root.total=-2147483578\n"
            "layout %s/sw/collectives/allreduce.layout\n"
            "row sum VC=-2147483648 VN=-100\n",
            cwd, cwd);
    fclose(f);
    char *text = NULL;
    char *argv[] = {"rows", rows, "--backend", "rtl", "--backend", "sw", "--pe", "native", "--pe", "core", NULL};
    assert_int_equal(rows_command(argv, 10, &text), 1);
    static const char *const where[] = {"BACKEND=rtl", "BACKEND=sw", "BACKEND=rtl PE=core", "BACKEND=sw PE=core"};
    for (size_t i = 0; i < 4; i++) {
        char line[200];
        snprintf(line, sizeof line, " FAIL scan [ SHAPE=0 V0=2147483647 V1=1 %s ]\n", where[i]);
        assert_row_line(text, "wrap", line);
        snprintf(line, sizeof line, " PASS scan-on-purpose [ SHAPE=0 V0=2147483647 V1=1 %s ]\n", where[i]);
        assert_row_line(text, "wrap", line);
        snprintf(line, sizeof line, " FAIL sum [ VC=-2147483648 VN=-100 %s ]\n", where[i]);
        assert_row_line(text, "wrap", line);
    }
    assert_non_null(strstr(text, "  l1.incl wrapped: its exact value 2147483648 does not fit a 32-bit word "
                                 "(-2147483648..2147483647); the word holds -2147483648, the exact value minus "
                                 "1*2^32\n"));
    /* -2^31 - 100 + 1+3+4+6+7+8+9: below -2^31 */
    assert_non_null(strstr(text, "  c.total wrapped: its exact value -2147483710 does not fit a 32-bit word "
                                 "(-2147483648..2147483647); the word holds 2147483586, the exact value plus "
                                 "1*2^32\n"));
    free(text);
    unlink(rows);
    rmdir(sub);
    rmdir(dir);
}

/* The exact results: the all-reduce's sums over the tree the layout draws,
 * in 64 bits, whatever the word holds. */
static void test_exact_results_of_the_allreduce(void **state)
{
    (void)state;
    const wm_setting set[] = {{"VC", INT32_MAX, NULL}, {"VSE", INT32_MAX, NULL}};
    wm_layout *l = load("sw/collectives/allreduce.layout", set, 2);
    wm_exact *x = wm_exact_create(l);
    const int64_t all = 2 * (int64_t)INT32_MAX + 1 + 2 + 3 + 4 + 6 + 7 + 8;
    const wm_exact_value *v = wm_exact_find(x, "c", "total");
    assert_non_null(v);
    assert_true(v->exact == all);
    assert_non_null(v = wm_exact_find(x, "nw", "total"));
    assert_true(v->exact == all);
    assert_non_null(v = wm_exact_find(x, "c", "sum"));
    assert_true(v->exact == all);
    assert_non_null(v = wm_exact_find(x, "n", "sum"));
    assert_int_equal(v->exact, 1 + 2 + 3);
    assert_null(wm_exact_find(x, "c", "t0"));
    assert_true(wm_word(all) == (int32_t)(uint32_t)(uint64_t)all);
    assert_false(wm_word_fits(all));
    assert_true(wm_word_fits(INT32_MIN));
    wm_exact_destroy(x);
    wm_layout_destroy(l);
}

/* The worked example of docs/kernels.md: every PE of the 3x3 tree ends
 * with the sum of the nine values, on both backends in both PE modes, the
 * same cycles on both backends in each mode. */
static void test_allreduce_gives_every_pe_the_sum(void **state)
{
    (void)state;
    const wm_setting set[] = {{"VC", -100, NULL}, {"VSE", 1000, NULL}};
    wm_layout *l = load("sw/collectives/allreduce.layout", set, 2);
    static const char *const pes[] = {"nw", "n", "ne", "w", "c", "e", "sw", "s", "se"};
    for (int pe = 0; pe < 2; pe++) {
        uint64_t cycles[NBACKENDS] = {0, 0};
        for (int b = 0; b < NBACKENDS; b++) {
            const wm_fabric_ops *ops = wm_fabric_backend(backend_names[b]);
            wm_runner *r = wm_runner_create_mode(ops, l, NULL, pe ? WM_PE_CORE : WM_PE_NATIVE);
            assert_non_null(r);
            assert_int_equal(wm_runner_run(r, 2000000), WM_RUN_DONE);
            for (size_t i = 0; i < 9; i++) {
                int64_t v = 0;
                assert_true(wm_sched_result(wm_runner_sched(r), pes[i], "total", &v));
                assert_int_equal(v, 931);
            }
            int64_t v = 0;
            assert_true(wm_sched_result(wm_runner_sched(r), "s", "sum", &v));
            assert_int_equal(v, 1015);
            cycles[b] = wm_sched_cycle(wm_runner_sched(r));
            wm_runner_destroy(r);
        }
        assert_int_equal(cycles[0], cycles[1]);
    }
    wm_layout_destroy(l);
}

/* The tutorial row's link use, split at the root's last receive: in the
 * up-sweep every message goes east (two wavelets from each leaf to its
 * parent, from each parent to the root), in the down-sweep west; link
 * (3,0) east carries the four leaves' messages to p0, 8 wavelets. The same
 * counts on both backends in both PE modes; the picture is a PNG. */
static void test_heatmap_splits_the_sweeps(void **state)
{
    (void)state;
    const wm_setting set[] = {{"SHAPE", 0, NULL}};
    wm_layout *l = load("sw/collectives/bench.layout", set, 1);
    const uint64_t up_east[7] = {2, 4, 6, 8, 6, 4, 0}, down_west[7] = {0, 2, 4, 6, 8, 6, 4};
    for (int pe = 0; pe < 2; pe++)
        for (int b = 0; b < NBACKENDS; b++) {
            const wm_fabric_ops *ops = wm_fabric_backend(backend_names[b]);
            wm_heatmap *m = wm_heatmap_create(7, 1, true, 6, 0);
            wm_runner *r = wm_runner_create_mode(ops, l, NULL, pe ? WM_PE_CORE : WM_PE_NATIVE);
            assert_non_null(r);
            ops->set_link_hook(wm_runner_fabric(r), wm_heatmap_record, m);
            assert_int_equal(wm_runner_run(r, 2000000), WM_RUN_DONE);
            wm_heatmap_finish(m);
            assert_int_equal(wm_heatmap_phases(m), 2);
            assert_string_equal(wm_heatmap_phase_name(m, 1), "downsweep");
            for (unsigned x = 0; x < 7; x++) {
                assert_int_equal(wm_heatmap_count(m, 0, x, 0, WM_PORT_E), up_east[x]);
                assert_int_equal(wm_heatmap_count(m, 0, x, 0, WM_PORT_W), 0);
                assert_int_equal(wm_heatmap_count(m, 1, x, 0, WM_PORT_W), down_west[x]);
                assert_int_equal(wm_heatmap_count(m, 1, x, 0, WM_PORT_E), 0);
            }
            /* the ramps: the root takes its two children's messages in the up-sweep */
            assert_int_equal(wm_heatmap_count(m, 0, 6, 0, WM_PORT_L), 4);
            assert_int_equal(wm_heatmap_count(m, 1, 6, 0, WM_PORT_L), 0);
            if (pe == 0 && b == 0) {
                char png[] = "/tmp/wm_heatmapXXXXXX", err[300];
                const int fd = mkstemp(png);
                assert_true(fd >= 0);
                close(fd);
                if (!wm_heatmap_plot(m, 0, "tutorial", png, err, sizeof err)) fail_msg("%s", err);
                FILE *f = fopen(png, "rb");
                assert_non_null(f);
                unsigned char sig[8] = {0};
                assert_int_equal(fread(sig, 1, 8, f), 8);
                fclose(f);
                assert_memory_equal(sig, "\x89PNG\r\n\x1a\n", 8);
                unlink(png);
            }
            wm_runner_destroy(r);
            wm_heatmap_destroy(m);
        }
    wm_layout_destroy(l);
}

static uint64_t final_value(const wm_dump *d, const char *name)
{
    const wm_dump_signal *sig = wm_dump_find(d, name);
    if (!sig) fail_msg("no signal %s in the dump", name);
    uint64_t v = 0;
    assert_true(wm_dump_value_at(d, sig, UINT64_MAX, &v));
    return v;
}

/* The waves of a run show each kernel's results and final state under its
 * instance's name, from either backend. */
static void test_traced_run_dumps_results_by_instance(void **state)
{
    (void)state;
    wm_layout *l = load("sw/collectives/bench.layout", NULL, 0);
    char dir[] = "/tmp/wm_wavesXXXXXX", path[64], gtkw[64];
    assert_non_null(mkdtemp(dir));
    for (int b = 0; b < NBACKENDS; b++) {
        const wm_fabric_ops *ops = wm_fabric_backend(backend_names[b]);
        if (!ops) continue;
        wm_trace_spec spec = wm_trace_spec_default();
        snprintf(path, sizeof path, "%s/run.fst", dir);
        snprintf(gtkw, sizeof gtkw, "%s/run.gtkw", dir);
        spec.path = path;
        wm_runner *r = wm_runner_create_traced(ops, l, &spec);
        assert_non_null(r);
        assert_int_equal(wm_runner_run(r, 100000), WM_RUN_DONE);
        assert_true(wm_runner_finish(r));
        wm_runner_destroy(r);
        char err[200];
        wm_dump *d = wm_dump_load(path, err, sizeof err);
        if (!d) fail_msg("%s", err);
        assert_int_equal(final_value(d, "l2.fw.incl"), 60);
        assert_int_equal(final_value(d, "root.fw.total"), 100);
        assert_int_equal(final_value(d, "l1.fw.state"), WM_PE_DONE);
        wm_dump_free(d);
        assert_int_equal(access(gtkw, R_OK), 0);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    wm_layout_destroy(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_loop),
        cmocka_unit_test(test_tutorial_row_gives_the_seed_scan),
        cmocka_unit_test(test_tworow_gives_the_seed_scan),
        cmocka_unit_test(test_compact_placement_of_exercise_3),
        cmocka_unit_test(test_ignoring_the_tag_fails_as_the_seed_says),
        cmocka_unit_test(test_eight_leaves_on_both_shapes),
        cmocka_unit_test(test_chain_reduces_along_the_row),
        cmocka_unit_test(test_tworow_generator_reproduces_the_seed_placement),
        cmocka_unit_test(test_generated_trees_match_the_reference),
        cmocka_unit_test(test_htree_holds_4096_leaves),
        cmocka_unit_test(test_tiling_check_finds_a_shared_tile_and_one_off_the_mesh),
        cmocka_unit_test(test_packed_tiles_every_pe_once_and_scans),
        cmocka_unit_test(test_packed_refuses_one_leaf_more_than_the_mesh_holds),
        cmocka_unit_test(test_packed_holds_2_19_leaves_on_1024_by_1024),
        cmocka_unit_test(test_rows_prints_the_seed_lines_and_fails_a_wrong_row),
        cmocka_unit_test(test_traced_run_dumps_results_by_instance),
        cmocka_unit_test(test_rows_expect_lines_check_any_export),
        cmocka_unit_test(test_allreduce_gives_every_pe_the_sum),
        cmocka_unit_test(test_rows_fail_a_wrapped_sum_unless_expected),
        cmocka_unit_test(test_exact_results_of_the_allreduce),
        cmocka_unit_test(test_heatmap_splits_the_sweeps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
