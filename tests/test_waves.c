/* test_waves.c: dumps from both backends, wavediff, scoped dumps, save files.
 *
 * The tutorial row of the seed (sw/collectives/bench.layout, SHAPE=0) is run
 * with a dump on each backend; the dumps must convert with fst2vcd, name
 * their scopes after the instances, show every wavelet of the link-event
 * trace on its link at its cycle, and compare identical. A perturbed sw
 * model must be caught at the exact cycle and tile its link events first
 * diverge. A scoped dump holds only its tiles and cycles; a save file
 * loads in GTKWave headless; an unwritable path fails before anything runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "fabric/fabric.h"
#include "fabric/fabric_sw.h"
#include "run/layout.h"
#include "run/runner.h"
#include "traffic/traffic.h"
#include "waves/wavediff.h"
#include "waves/waves.h"
#include "waves/waves_read.h"

static const char *const LAYOUT = "sw/collectives/bench.layout";

static char tmpdir[64];

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/wm_waves_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *tmp_path(const char *name)
{
    static char paths[8][160];
    static unsigned next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", tmpdir, name);
    return p;
}

/* ------------------------------------------------------------ link events */

typedef struct {
    wm_link_event *ev;
    size_t n, cap;
} events;

static void record(void *ctx, const wm_link_event *ev)
{
    events *e = ctx;
    if (e->n == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 256;
        e->ev = realloc(e->ev, e->cap * sizeof *e->ev);
        assert_non_null(e->ev);
    }
    e->ev[e->n++] = *ev;
}

/* The tutorial on one backend, dumped to path; its link events in *ev. */
static void run_tutorial(const char *backend, const char *path, events *ev)
{
    wm_layout *layout = wm_layout_load(LAYOUT, NULL, 0, stderr);
    assert_non_null(layout);
    wm_trace_spec spec = wm_trace_spec_default();
    int i = 0;
    char *argv[] = {"--trace", (char *)path};
    assert_int_equal(wm_trace_option(&spec, 2, argv, &i, "test"), 1);
    wm_runner *r = wm_runner_create_traced(wm_fabric_backend(backend), layout, &spec);
    assert_non_null(r);
    if (ev) wm_fabric_backend(backend)->set_link_hook(wm_runner_fabric(r), record, ev);
    assert_int_equal(wm_runner_run(r, 100000), WM_RUN_DONE);
    assert_true(wm_runner_finish(r));
    wm_runner_destroy(r);
    wm_layout_destroy(layout);
}

static const char *const port_words[WM_NPORTS] = {"north", "east", "south", "west", "ramp"};

/* ------------------------------------------------------------ tests */

static void test_tutorial_dumps_of_both_backends_are_identical(void **state)
{
    (void)state;
    run_tutorial("rtl", tmp_path("tut_rtl.fst"), NULL);
    run_tutorial("sw", tmp_path("tut_sw.fst"), NULL);
    run_tutorial("rtl", tmp_path("tut_rtl.vcd"), NULL);
    char err[256];
    wm_dump *a = wm_dump_load(tmp_path("tut_rtl.fst"), err, sizeof err);
    wm_dump *b = wm_dump_load(tmp_path("tut_sw.fst"), err, sizeof err);
    wm_dump *c = wm_dump_load(tmp_path("tut_rtl.vcd"), err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    /* 7 tiles x 31 link signals, 7 kernel states, the leaves' excl, incl,
     * t0, t1 and the nodes' exports */
    assert_true(wm_dump_signal_count(a) > 7 * 31 + 7);
    wm_wavediff_result r = wm_wavediff(a, b);
    assert_false(r.differ);
    assert_int_equal(r.common, wm_dump_signal_count(a));
    assert_int_equal(r.only_a + r.only_b, 0);
    r = wm_wavediff(c, b); /* VCD from Verilator against FST from the sw writer */
    assert_false(r.differ);
    assert_int_equal(r.common, wm_dump_signal_count(a));
    wm_dump_free(a);
    wm_dump_free(b);
    wm_dump_free(c);
}

static void test_dumps_convert_with_fst2vcd_and_name_scopes_after_instances(void **state)
{
    (void)state;
    for (unsigned k = 0; k < 2; k++) {
        const char *dump = tmp_path(k ? "tut_sw.fst" : "tut_rtl.fst");
        char cmd[512];
        snprintf(cmd, sizeof cmd, "fst2vcd %s > %s", dump, tmp_path("converted.vcd"));
        assert_int_equal(system(cmd), 0);
        char err[256];
        wm_dump *d = wm_dump_load(tmp_path("converted.vcd"), err, sizeof err);
        assert_non_null(d);
        const char *names[] = {"l0.wm_tile.u_waves.east_valid", "l3.wm_tile.u_waves.east_data",
                               "p0.wm_tile.u_waves.ramp_owner", "root.wm_tile.u_waves.rx_count", "l1.fw.state",
                               "l2.fw.excl", "l2.fw.incl", "root.fw.total"};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) assert_non_null(wm_dump_find(d, names[i]));
        /* the results as the seed gives them: l2 excl 30, incl 60, total 100 */
        uint64_t v;
        assert_true(wm_dump_value_at(d, wm_dump_find(d, "l2.fw.excl"), wm_dump_end_time(d), &v));
        assert_int_equal(v, 30);
        assert_true(wm_dump_value_at(d, wm_dump_find(d, "l2.fw.incl"), wm_dump_end_time(d), &v));
        assert_int_equal(v, 60);
        assert_true(wm_dump_value_at(d, wm_dump_find(d, "root.fw.total"), wm_dump_end_time(d), &v));
        assert_int_equal(v, 100);
        /* every kernel ends done (state 4) */
        assert_true(wm_dump_value_at(d, wm_dump_find(d, "l1.fw.state"), wm_dump_end_time(d), &v));
        assert_int_equal(v, 4);
        wm_dump_free(d);
    }
}

static void test_every_wavelet_is_on_its_link_at_the_cycle_of_the_event_trace(void **state)
{
    (void)state;
    static const char *const instance_at[7] = {"l0", "l1", "l2", "l3", "p0", "p1", "root"};
    for (unsigned k = 0; k < 2; k++) {
        events ev = {NULL, 0, 0};
        const char *dump = tmp_path("tut_events.fst");
        run_tutorial(k ? "sw" : "rtl", dump, &ev);
        char err[256];
        wm_dump *d = wm_dump_load(dump, err, sizeof err);
        assert_non_null(d);
        /* twelve messages of a header and one data wavelet each */
        size_t headers = 0;
        bool l0_header_seen = false;
        for (size_t i = 0; i < ev.n; i++) {
            const wm_link_event *e = &ev.ev[i];
            char name[128];
            uint64_t valid, data;
            snprintf(name, sizeof name, "%s.wm_tile.u_waves.%s_valid", instance_at[e->x], port_words[e->port]);
            assert_true(wm_dump_value_at(d, wm_dump_find(d, name), e->cycle, &valid));
            assert_int_equal(valid, 1);
            snprintf(name, sizeof name, "%s.wm_tile.u_waves.%s_data", instance_at[e->x], port_words[e->port]);
            assert_true(wm_dump_value_at(d, wm_dump_find(d, name), e->cycle, &data));
            assert_int_equal(data, e->data);
            if (e->port == WM_PORT_L && (data & 0xff00u) == 0x0100u && data >> 16 == (uint32_t)e->x << 8) headers++;
            /* l0's value 10 goes to p0 at (4,0) tagged left: header 0x04000100 */
            if (e->x == 0 && e->port == WM_PORT_E && data == wm_header(4, 0, 1, 0)) l0_header_seen = true;
        }
        assert_true(l0_header_seen);
        assert_int_equal(headers, 12);
        wm_dump_free(d);
        free(ev.ev);
    }
}

/* Traffic on a 4x4 mesh with a dump; its link events in *ev. */
static void run_traffic(const char *backend, const wm_trace_spec *spec, events *ev)
{
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    char err[256];
    wm_waves *wv = wm_waves_create(spec, 4, 4, err, sizeof err);
    assert_non_null(wv);
    wm_fabric *f = wm_waves_open(wv, ops);
    assert_non_null(f);
    if (ev) ops->set_link_hook(f, record, ev);
    wm_traffic_config cfg = wm_traffic_config_default();
    cfg.rate = 0.4;
    cfg.warmup = 50;
    cfg.sample = 200;
    wm_traffic *t = wm_traffic_create(&cfg, ops, f, 4, 4);
    assert_non_null(t);
    while (!wm_traffic_done(t)) {
        wm_traffic_step(t);
        wm_waves_sample(wv);
    }
    wm_traffic_destroy(t);
    assert_true(wm_waves_finish(wv));
    wm_waves_destroy(wv);
    ops->destroy(f);
}

static bool same_event(const wm_link_event *a, const wm_link_event *b)
{
    return a->cycle == b->cycle && a->x == b->x && a->y == b->y && a->port == b->port && a->data == b->data;
}

static void test_wavediff_reports_the_first_difference_of_a_perturbed_sw_model(void **state)
{
    (void)state;
    wm_trace_spec spec = wm_trace_spec_default();
    events ref = {NULL, 0, 0}, bad = {NULL, 0, 0};
    spec.path = tmp_path("traffic_rtl.fst");
    run_traffic("rtl", &spec, &ref);
    const wm_sw_perturbation p = {WM_SW_RR_REVERSE, 1, 1, 0};
    wm_fabric_sw_set_perturbation(p);
    spec.path = tmp_path("traffic_bad.fst");
    run_traffic("sw", &spec, &bad);
    wm_fabric_sw_set_perturbation((wm_sw_perturbation){WM_SW_EXACT, 0, 0, 0});
    /* where the link events first diverge */
    size_t i = 0;
    while (i < ref.n && i < bad.n && same_event(&ref.ev[i], &bad.ev[i])) i++;
    assert_true(i < ref.n && i < bad.n);
    const uint64_t cycle = ref.ev[i].cycle < bad.ev[i].cycle ? ref.ev[i].cycle : bad.ev[i].cycle;
    char err[256];
    wm_dump *a = wm_dump_load(tmp_path("traffic_rtl.fst"), err, sizeof err);
    wm_dump *b = wm_dump_load(tmp_path("traffic_bad.fst"), err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    const wm_wavediff_result r = wm_wavediff(a, b);
    assert_true(r.differ);
    assert_int_equal(r.time, cycle);
    /* the perturbed arbiter is in tile (1,1): its grant differs first */
    assert_memory_equal(r.signal, "tile_1_1.", 9);
    assert_true(r.a_value != r.b_value || r.a_known != r.b_known);
    wm_dump_free(a);
    wm_dump_free(b);
    /* and the command says so, with a non-zero exit */
    char cmd[512];
    snprintf(cmd, sizeof cmd, BUILD_DIR "/wavemesh wavediff %s %s > %s", tmp_path("traffic_rtl.fst"),
             tmp_path("traffic_bad.fst"), tmp_path("diff.txt"));
    const int status = system(cmd);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    free(ref.ev);
    free(bad.ev);
}

static void test_scoped_dump_holds_only_its_tiles_and_cycles(void **state)
{
    (void)state;
    for (unsigned k = 0; k < 2; k++) {
        wm_trace_spec spec = wm_trace_spec_default();
        char *argv[] = {"--trace", (char *)tmp_path("scoped.fst"), "--trace-tiles", "1,2:2,3", "--trace-window",
                        "40:90"};
        for (int i = 0; i < 6; i++) assert_int_equal(wm_trace_option(&spec, 6, argv, &i, "test"), 1);
        run_traffic(k ? "sw" : "rtl", &spec, NULL);
        char err[256];
        wm_dump *d = wm_dump_load(tmp_path("scoped.fst"), err, sizeof err);
        assert_non_null(d);
        assert_int_equal(wm_dump_signal_count(d), 4 * 31);
        for (size_t i = 0; i < wm_dump_signal_count(d); i++) {
            const char *name = wm_dump_signal_at(d, i)->name;
            assert_true(!strncmp(name, "tile_1_2.", 9) || !strncmp(name, "tile_2_2.", 9) ||
                        !strncmp(name, "tile_1_3.", 9) || !strncmp(name, "tile_2_3.", 9));
            size_t n;
            const wm_change *c = wm_dump_changes(d, wm_dump_signal_at(d, i), &n);
            assert_true(n >= 1);
            assert_int_equal(c[0].time, 40);
            assert_true(c[n - 1].time <= 90);
        }
        assert_int_equal(wm_dump_end_time(d), 90);
        wm_dump_free(d);
    }
}

static void test_save_file_loads_in_gtkwave_headless(void **state)
{
    (void)state;
    FILE *tcl = fopen(tmp_path("check.tcl"), "w");
    assert_non_null(tcl);
    fputs("puts \"traces [gtkwave::getTotalNumTraces]\"\ngtkwave::/File/Quit\n", tcl);
    fclose(tcl);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "xvfb-run -a gtkwave -S %s -a %s %s > %s 2>&1", tmp_path("check.tcl"),
             tmp_path("tut_rtl.gtkw"), tmp_path("tut_sw.fst"), tmp_path("gtkwave.log"));
    assert_int_equal(system(cmd), 0);
    FILE *log = fopen(tmp_path("gtkwave.log"), "r");
    assert_non_null(log);
    char line[512];
    unsigned traces = 0;
    bool complaint = false;
    while (fgets(line, sizeof line, log)) {
        sscanf(line, "traces %u", &traces);
        if (strstr(line, "rror") || strstr(line, "not found") || strstr(line, "arning")) complaint = true;
    }
    fclose(log);
    assert_false(complaint);
    /* 7 groups: begin and end, 31 link signals, state and exports */
    assert_true(traces > 7 * 33);
}

static void test_unwritable_dump_path_fails_before_the_run(void **state)
{
    (void)state;
    wm_trace_spec spec = wm_trace_spec_default();
    spec.path = "/nonexistent-dir/run.fst";
    char err[256] = "";
    assert_null(wm_waves_create(&spec, 4, 4, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent-dir/run.fst"));
    spec.path = tmp_path("outside.fst");
    spec.tiles_given = true;
    spec.x0 = spec.y0 = 0;
    spec.x1 = 4;
    spec.y1 = 1;
    assert_null(wm_waves_create(&spec, 4, 4, err, sizeof err));
    assert_non_null(strstr(err, "--trace-tiles"));
    assert_int_equal(access(tmp_path("outside.fst"), F_OK), -1);
    /* the command exits non-zero before simulating anything */
    char cmd[256];
    snprintf(cmd, sizeof cmd, BUILD_DIR "/wavemesh traffic --trace /nonexistent-dir/t.fst > %s 2>&1",
             tmp_path("cli.txt"));
    const int status = system(cmd);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) != 0);
    FILE *f = fopen(tmp_path("cli.txt"), "r");
    assert_non_null(f);
    char line[256] = "";
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_non_null(strstr(line, "/nonexistent-dir/t.fst"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tutorial_dumps_of_both_backends_are_identical),
        cmocka_unit_test(test_dumps_convert_with_fst2vcd_and_name_scopes_after_instances),
        cmocka_unit_test(test_every_wavelet_is_on_its_link_at_the_cycle_of_the_event_trace),
        cmocka_unit_test(test_wavediff_reports_the_first_difference_of_a_perturbed_sw_model),
        cmocka_unit_test(test_scoped_dump_holds_only_its_tiles_and_cycles),
        cmocka_unit_test(test_save_file_loads_in_gtkwave_headless),
        cmocka_unit_test(test_unwritable_dump_path_fails_before_the_run),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
