/* test_waves.c: dumps from both backends, wavediff, scoped dumps, save files.
 *
 * The tutorial row of the seed (sw/collectives/bench.layout, SHAPE=0) is run
 * with a dump on each backend; the dumps must convert with fst2vcd, name
 * their scopes after the instances, show every wavelet of the link-event
 * trace on its link at its cycle, and compare identical. A perturbed sw
 * model must be caught at the exact cycle and tile its link events first
 * diverge. A scoped dump holds only its tiles and cycles; a save file
 * loads in GTKWave headless; an unwritable path fails before anything runs.
 *
 * With PE cores (--pe core) the same row dumps each core's signals: the
 * first instruction of crt0 retires in cycle 1 at pc 0 on either backend,
 * in FST and VCD, and the two backends' dumps compare identical, scoped or
 * not. The save file routes pc and retire_insn through the filters made
 * with objdump, which map the images' words and PCs as objdump prints
 * them; without objdump the dump is still written, with a note. The save
 * files committed under waves/ are what `wavemesh waves` writes today.
 *
 * Each port's <port>_msg holds the header of the message on it, at every
 * wavelet of the event trace and at known cycles of the tutorial, natively
 * and on the cores, from both backends; every committed save file shows it.
 * A layout with a root but no up- and down-sweep has no sweep markers, and
 * its save file says why.
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

#include "cli/commands.h"
#include "fabric/fabric.h"
#include "fabric/fabric_sw.h"
#include "run/layout.h"
#include "run/runner.h"
#include "run/scheduler.h"
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
/* The trace options in argv into *spec, through the command line's parser. */
static void trace_options(wm_trace_spec *spec, int argc, char **argv)
{
    const wm_option options[] = {WM_OPT_TRACE_ROWS(spec)};
    const wm_opts o = WM_OPTS("test", options, "", NULL);
    char *args[8] = {"test"};
    assert_true(argc < 8);
    for (int i = 0; i < argc; i++) args[i + 1] = argv[i];
    int status;
    assert_true(wm_opts_parse(&o, argc + 1, args, &status));
}

static void run_tutorial(const char *backend, const char *path, events *ev)
{
    wm_layout *layout = wm_layout_load(LAYOUT, NULL, 0, stderr);
    assert_non_null(layout);
    wm_trace_spec spec = wm_trace_spec_default();
    char *argv[] = {"--trace", (char *)path};
    trace_options(&spec, 2, argv);
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
    /* 7 tiles x 36 link signals, 7 kernel states, the leaves' excl, incl,
     * t0, t1 and the nodes' exports */
    assert_true(wm_dump_signal_count(a) > 7 * 36 + 7);
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
        /* an export is x until the kernel sets it (no value at cycle 100:
         * the leaves are still computing), then holds it, 0 included (l0's
         * excl) */
        assert_false(wm_dump_value_at(d, wm_dump_find(d, "l0.fw.excl"), 100, &v));
        assert_false(wm_dump_value_at(d, wm_dump_find(d, "root.fw.total"), 100, &v));
        assert_true(wm_dump_value_at(d, wm_dump_find(d, "l0.fw.excl"), wm_dump_end_time(d), &v));
        assert_int_equal(v, 0);
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
        /* per tile and port: data wavelets still to come, and the header
         * of the message on it, which <port>_msg must show */
        unsigned rem[7][WM_NPORTS] = {{0}};
        uint32_t header[7][WM_NPORTS] = {{0}};
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
            if (rem[e->x][e->port]) {
                rem[e->x][e->port]--;
            } else {
                header[e->x][e->port] = e->data;
                rem[e->x][e->port] = wm_header_len(e->data);
            }
            snprintf(name, sizeof name, "%s.wm_tile.u_waves.%s_msg", instance_at[e->x], port_words[e->port]);
            uint64_t msg;
            assert_true(wm_dump_value_at(d, wm_dump_find(d, name), e->cycle, &msg));
            assert_int_equal(msg, header[e->x][e->port]);
            if (e->port == WM_PORT_L && wm_header_len(data) == 1 && wm_header_col(data) == e->x && wm_header_row(data) == 0)
                headers++;
            /* l0's value 10 goes to p0 at (4,0) tagged left: header 0x01000040 */
            if (e->x == 0 && e->port == WM_PORT_E && data == wm_header(4, 0, 1, 0)) l0_header_seen = true;
        }
        assert_true(l0_header_seen);
        assert_int_equal(headers, 12);
        wm_dump_free(d);
        free(ev.ev);
    }
}

/* Traffic on a 4x4 mesh with a dump; its link events in *ev. */
/* Traffic on backend, its fabric made with fabric_cfg (NULL: the default). */
static void run_traffic_with(const char *backend, const wm_fabric_config *fabric_cfg, const wm_trace_spec *spec, events *ev)
{
    wm_fabric_ops configured = *wm_fabric_backend(backend);
    configured.config = fabric_cfg;
    const wm_fabric_ops *ops = &configured;
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

static void run_traffic(const char *backend, const wm_trace_spec *spec, events *ev)
{
    run_traffic_with(backend, NULL, spec, ev);
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
    const wm_fabric_config reversed = {.perturbation = {WM_SW_RR_REVERSE, 1, 1, 0}};
    spec.path = tmp_path("traffic_bad.fst");
    run_traffic_with("sw", &reversed, &spec, &bad);
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
        trace_options(&spec, 6, argv);
        run_traffic(k ? "sw" : "rtl", &spec, NULL);
        char err[256];
        wm_dump *d = wm_dump_load(tmp_path("scoped.fst"), err, sizeof err);
        assert_non_null(d);
        assert_int_equal(wm_dump_signal_count(d), 4 * 36);
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
    /* 7 groups: begin and end, 36 link signals, state and exports */
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

/* ------------------------------------------------------------ PE cores */

/* The seed's row SHAPE on one backend with its firmware on the cores,
 * dumped to path, scoped by the --trace-* options in extra (or none). */
static void run_core_row(const char *backend, int shape, const char *path, char **extra, int nextra)
{
    char shape_text[16];
    snprintf(shape_text, sizeof shape_text, "SHAPE=%d", shape);
    wm_setting set;
    assert_true(wm_setting_parse(shape_text, &set));
    wm_layout *layout = wm_layout_load(LAYOUT, &set, 1, stderr);
    assert_non_null(layout);
    wm_trace_spec spec = wm_trace_spec_default();
    char *argv[] = {"--trace", (char *)path};
    trace_options(&spec, 2, argv);
    trace_options(&spec, nextra, extra);
    wm_runner *r = wm_runner_create_mode(wm_fabric_backend(backend), layout, &spec, WM_PE_CORE);
    assert_non_null(r);
    assert_int_equal(wm_runner_run(r, 100000), WM_RUN_DONE);
    assert_true(wm_runner_finish(r));
    wm_runner_destroy(r);
    wm_layout_destroy(layout);
}

static uint64_t value_at(const wm_dump *d, const char *name, uint64_t t)
{
    const wm_dump_signal *sig = wm_dump_find(d, name);
    if (!sig) fail_msg("no signal %s in the dump", name);
    uint64_t v = 0;
    if (!wm_dump_value_at(d, sig, t, &v)) fail_msg("%s has no value at %llu", name, (unsigned long long)t);
    return v;
}

/* Word `index` of KERNEL's image, as the loader writes it at address 4 * index. */
static uint32_t image_word(const char *kernel, unsigned index)
{
    char path[512];
    snprintf(path, sizeof path, BUILD_DIR "/firmware/%s.bin", kernel);
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("no firmware %s: make firmware", path);
    uint8_t b[4] = {0, 0, 0, 0};
    assert_int_equal(fseek(f, 4L * index, SEEK_SET), 0);
    assert_int_equal(fread(b, 1, 4, f), 4);
    fclose(f);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The core signals of rtl/core/wm_core_waves.v under each instance. */
static const char *const core_signal_names[] = {"pc",      "retire", "retire_insn", "rd_we",  "rd",
                                                "rd_data", "push",   "pop",         "halted", "fault_cause"};

/* docs/core.md: in cycle 0 F fetches address 0; the first instruction, crt0's
 * `la gp` (an auipc), is in X and retires in cycle 1, the next in cycle 2. */
static void test_core_dumps_show_the_first_retire_of_l0_at_cycle_1(void **state)
{
    (void)state;
    const uint32_t first = image_word("leaf", 0), second = image_word("leaf", 1);
    assert_int_equal(first & 0x7f, 0x17); /* auipc */
    static const char *const files[] = {"core_rtl.fst", "core_sw.fst", "core_rtl.vcd", "core_sw.vcd"};
    for (unsigned k = 0; k < 4; k++) {
        run_core_row(strstr(files[k], "rtl") ? "rtl" : "sw", 0, tmp_path(files[k]), NULL, 0);
        char err[256];
        wm_dump *d = wm_dump_load(tmp_path(files[k]), err, sizeof err);
        if (!d) fail_msg("%s", err);
        char name[128];
        for (unsigned i = 0; i < sizeof core_signal_names / sizeof core_signal_names[0]; i++) {
            snprintf(name, sizeof name, "root.wm_tile_core.u_core_waves.%s", core_signal_names[i]);
            assert_non_null(wm_dump_find(d, name));
        }
        assert_non_null(wm_dump_find(d, "l0.wm_tile_core.u_tile.u_waves.east_data"));
        assert_null(wm_dump_find(d, "l0.wm_tile.u_waves.east_data"));
#define CORE(sig) "l0.wm_tile_core.u_core_waves." sig
        /* cycle 0: held in reset until the edge, then fetching */
        assert_int_equal(value_at(d, CORE("pc"), 0), 0);
        assert_int_equal(value_at(d, CORE("retire"), 0), 0);
        assert_int_equal(value_at(d, CORE("retire_insn"), 0), 0);
        /* cycle 1: auipc x3 at pc 0 retires and writes 0 + its upper immediate */
        assert_int_equal(value_at(d, CORE("pc"), 1), 0);
        assert_int_equal(value_at(d, CORE("retire"), 1), 1);
        assert_int_equal(value_at(d, CORE("retire_insn"), 1), first);
        assert_int_equal(value_at(d, CORE("rd_we"), 1), 1);
        assert_int_equal(value_at(d, CORE("rd"), 1), (first >> 7) & 31u);
        assert_int_equal(value_at(d, CORE("rd_data"), 1), first & 0xfffff000u);
        assert_int_equal(value_at(d, CORE("push"), 1), 0);
        assert_int_equal(value_at(d, CORE("halted"), 1), 0);
        /* cycle 2: the second at pc 4 */
        assert_int_equal(value_at(d, CORE("pc"), 2), 4);
        assert_int_equal(value_at(d, CORE("retire"), 2), 1);
        assert_int_equal(value_at(d, CORE("retire_insn"), 2), second);
        /* a field without its flag reads 0: nothing retires once halted */
        const uint64_t end = wm_dump_end_time(d);
        assert_int_equal(value_at(d, CORE("halted"), end), 1);
        assert_int_equal(value_at(d, CORE("fault_cause"), end), 0);
        assert_int_equal(value_at(d, CORE("retire"), end), 0);
        assert_int_equal(value_at(d, CORE("retire_insn"), end), 0);
        assert_int_equal(value_at(d, CORE("rd"), end), 0);
        assert_int_equal(value_at(d, CORE("rd_data"), end), 0);
        /* l0 pushes its message (header and value) and pops the answer */
        size_t n, pushes = 0, pops = 0;
        const wm_change *c = wm_dump_changes(d, wm_dump_find(d, CORE("push")), &n);
        for (size_t i = 0; i < n; i++) pushes += c[i].value == 1;
        c = wm_dump_changes(d, wm_dump_find(d, CORE("pop")), &n);
        for (size_t i = 0; i < n; i++) pops += c[i].value == 1;
        assert_true(pushes >= 1 && pops >= 1);
#undef CORE
        wm_dump_free(d);
    }
}

static void expect_identical(const char *pa, const char *pb, size_t signals)
{
    char err[256];
    wm_dump *a = wm_dump_load(pa, err, sizeof err), *b = wm_dump_load(pb, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(wm_dump_signal_count(a), signals);
    const wm_wavediff_result r = wm_wavediff(a, b);
    if (r.differ)
        fail_msg("%s and %s differ at %llu: %s 0x%llx against 0x%llx", pa, pb, (unsigned long long)r.time, r.signal,
                 (unsigned long long)r.a_value, (unsigned long long)r.b_value);
    /* every signal compared, the cores' too */
    assert_int_equal(r.common, signals);
    assert_int_equal(r.only_a + r.only_b, 0);
    wm_dump_free(a);
    wm_dump_free(b);
}

/* 7 tiles x (36 link and 10 core signals), 7 kernel states, the leaves'
 * excl, incl, t0, t1, the nodes' total. */
static void test_core_dumps_of_both_backends_are_identical(void **state)
{
    (void)state;
    const size_t signals = 7 * (36 + 10) + 7 + 4 * 4 + 3;
    expect_identical(tmp_path("core_rtl.fst"), tmp_path("core_sw.fst"), signals);
    expect_identical(tmp_path("core_rtl.vcd"), tmp_path("core_sw.vcd"), signals);
    expect_identical(tmp_path("core_rtl.vcd"), tmp_path("core_sw.fst"), signals);
    /* tworow, whose tile (2,0) has a core but no kernel; and a scoped dump
     * that ends while the cores still run (the sw dump's last cycle) */
    run_core_row("rtl", 1, tmp_path("tworow_rtl.fst"), NULL, 0);
    run_core_row("sw", 1, tmp_path("tworow_sw.fst"), NULL, 0);
    expect_identical(tmp_path("tworow_rtl.fst"), tmp_path("tworow_sw.fst"), 8 * 46 + 7 + 4 * 4 + 3);
    char *scoped[] = {"--trace-tiles", "0,0:2,1", "--trace-window", "5:61"};
    run_core_row("rtl", 1, tmp_path("scoped_rtl.vcd"), scoped, 4);
    run_core_row("sw", 1, tmp_path("scoped_sw.vcd"), scoped, 4);
    /* p0, root, tile_2_0, l0, l1, l2 */
    expect_identical(tmp_path("scoped_rtl.vcd"), tmp_path("scoped_sw.vcd"), 6 * 46 + 5 + 3 * 4 + 2);
    /* the comparison covers the window's last cycle: some core retires in it */
    char err[256];
    wm_dump *d = wm_dump_load(tmp_path("scoped_rtl.vcd"), err, sizeof err);
    assert_non_null(d);
    assert_int_equal(wm_dump_end_time(d), 61);
    static const char *const dumped[] = {"p0", "root", "l0", "l1", "l2"};
    unsigned retiring = 0;
    for (unsigned i = 0; i < 5; i++) {
        char name[128];
        snprintf(name, sizeof name, "%s.wm_tile_core.u_core_waves.retire", dumped[i]);
        retiring += (unsigned)value_at(d, name, 61);
    }
    assert_true(retiring > 0);
    wm_dump_free(d);
}

/* <port>_msg in the tutorial, natively and on the cores, from both
 * backends: l0 sends p0 (4,0) its value 10 under header 0x01000040 (tag 0,
 * one data wavelet), l1 its own under 0x01000041 (tag 1) first. The
 * header shows on east_msg from the cycle it is on east_data, holds while
 * the data wavelet passes and after, and l1 and p0 show the next header
 * when it comes. Natively l0's header leaves at cycle 51, on the cores at
 * 57 (docs/waves.md). */
static void test_msg_holds_each_header_until_the_next_on_both_backends(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        const char *tile;   /* the scope of a tile's signals */
        uint64_t sent;      /* l0's header on its east register */
        uint64_t data;      /* its data wavelet there */
        uint64_t arrived;   /* l1's header on p0's ramp; l0's comes two cycles later */
    } runs[] = {
        {"tut_rtl.fst", "wm_tile.u_waves", 51, 54, 59},
        {"tut_sw.fst", "wm_tile.u_waves", 51, 54, 59},
        {"core_rtl.fst", "wm_tile_core.u_tile.u_waves", 57, 58, 63},
        {"core_sw.fst", "wm_tile_core.u_tile.u_waves", 57, 58, 63},
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        char err[256];
        wm_dump *d = wm_dump_load(tmp_path(runs[k].file), err, sizeof err);
        if (!d) fail_msg("%s", err);
        char l0[128], l0_data[128], l1[128], ramp[128], ramp_data[128];
        snprintf(l0, sizeof l0, "l0.%s.east_msg", runs[k].tile);
        snprintf(l0_data, sizeof l0_data, "l0.%s.east_data", runs[k].tile);
        snprintf(l1, sizeof l1, "l1.%s.east_msg", runs[k].tile);
        snprintf(ramp, sizeof ramp, "p0.%s.ramp_msg", runs[k].tile);
        snprintf(ramp_data, sizeof ramp_data, "p0.%s.ramp_data", runs[k].tile);
        const uint64_t sent = runs[k].sent, at = runs[k].arrived;
        assert_int_equal(value_at(d, l0, sent - 1), 0);
        assert_int_equal(value_at(d, l0, sent), 0x01000040);
        assert_int_equal(value_at(d, l0_data, runs[k].data), 10);
        assert_int_equal(value_at(d, l0, runs[k].data), 0x01000040);
        assert_int_equal(value_at(d, l0, wm_dump_end_time(d)), 0x01000040);
        assert_int_equal(value_at(d, l1, sent), 0x01000041);
        assert_int_equal(value_at(d, l1, runs[k].data + 1), 0x01000040);
        assert_int_equal(value_at(d, ramp, at), 0x01000041);
        assert_int_equal(value_at(d, ramp_data, at + 1), 20); /* l1's value */
        assert_int_equal(value_at(d, ramp, at + 1), 0x01000041);
        assert_int_equal(value_at(d, ramp, at + 2), 0x01000040);
        wm_dump_free(d);
    }
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot read %s", path);
    static char text[1 << 20];
    const size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* The line objdump prints for address addr of KERNEL.elf, as the filters
 * write it: "WORD mnemonic operands", and the function it lies in. */
static void objdump_line(const char *kernel, uint32_t addr, char *insn, size_t n, char *func, size_t fn)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "riscv64-unknown-elf-objdump -d -M no-aliases,numeric " BUILD_DIR "/firmware/%s.elf",
             kernel);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char line[512];
    insn[0] = func[0] = '\0';
    char cur[128] = "";
    while (fgets(line, sizeof line, p)) {
        unsigned a;
        char word[16], mnem[32], ops[128] = "";
        if (sscanf(line, "%x <%127[^>]>:", &a, cur) == 2) continue;
        if (sscanf(line, " %x:\t%15s\t%31s\t%127[^#\n]", &a, word, mnem, ops) >= 3 && a == addr && !insn[0]) {
            size_t len = strlen(ops);
            while (len && ops[len - 1] == ' ') ops[--len] = '\0';
            snprintf(insn, n, "%s %s%s%s", word, mnem, len ? " " : "", ops);
            snprintf(func, fn, "%s", cur);
        }
    }
    pclose(p);
    assert_true(insn[0] != '\0');
}

static void test_filters_disassemble_the_images_and_the_save_file_uses_them(void **state)
{
    (void)state;
    char *text = read_text(tmp_path("core_sw-insn.txt"));
    char insn[256], func[128], line[512];
    /* crt0's first instruction, and the first of the leaf kernel's main */
    objdump_line("leaf", 0, insn, sizeof insn, func, sizeof func);
    snprintf(line, sizeof line, "\n%s\n", insn);
    if (!strstr(text, line)) fail_msg("no line '%s' in the instruction filter", insn);
    assert_string_equal(func, "_start");
    assert_memory_equal(text, "00000000 -\n", 11);
    text = read_text(tmp_path("core_sw-pc-leaf.txt"));
    assert_non_null(strstr(text, "00000000 _start\n"));
    assert_non_null(strstr(text, "00000004 _start+0x4\n"));
    text = read_text(tmp_path("core_sw-pc-node.txt"));
    assert_non_null(strstr(text, "00000000 _start\n"));
    /* the save file: l0's pc through leaf's PC filter, p0's through node's,
     * every retire_insn through the instruction filter */
    text = read_text(tmp_path("core_sw.gtkw"));
    char want[1024];
    snprintf(want, sizeof want, "@2022\n^5 %s\nl0.wm_tile_core.u_core_waves.pc[31:0]\n",
             tmp_path("core_sw-pc-leaf.txt"));
    assert_non_null(strstr(text, want));
    snprintf(want, sizeof want, "@2022\n^6 %s\np0.wm_tile_core.u_core_waves.pc[31:0]\n",
             tmp_path("core_sw-pc-node.txt"));
    assert_non_null(strstr(text, want));
    snprintf(want, sizeof want, "@2022\n^4 %s\nroot.wm_tile_core.u_core_waves.retire_insn[31:0]\n",
             tmp_path("core_sw-insn.txt"));
    assert_non_null(strstr(text, want));
    assert_non_null(strstr(text, "l3.wm_tile_core.u_tile.u_waves.east_data[31:0]\n"));
    assert_null(strstr(text, ".wm_tile.u_waves"));
}

static void test_core_save_file_loads_in_gtkwave_headless(void **state)
{
    (void)state;
    FILE *tcl = fopen(tmp_path("check_core.tcl"), "w");
    assert_non_null(tcl);
    fputs("puts \"traces [gtkwave::getTotalNumTraces]\"\ngtkwave::/File/Quit\n", tcl);
    fclose(tcl);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "xvfb-run -a gtkwave -S %s -a %s %s > %s 2>&1", tmp_path("check_core.tcl"),
             tmp_path("core_rtl.gtkw"), tmp_path("core_sw.fst"), tmp_path("gtkwave_core.log"));
    assert_int_equal(system(cmd), 0);
    FILE *log = fopen(tmp_path("gtkwave_core.log"), "r");
    assert_non_null(log);
    char line[512];
    unsigned traces = 0;
    bool complaint = false;
    while (fgets(line, sizeof line, log)) {
        sscanf(line, "traces %u", &traces);
        if (strstr(line, "rror") || strstr(line, "not found") || strstr(line, "arning") || strstr(line, "ould not"))
            complaint = true;
    }
    fclose(log);
    assert_false(complaint);
    /* 7 groups: begin and end, 36 link and 10 core signals, state and exports */
    assert_true(traces > 7 * 48);
}

/* Without objdump the dump and its save file are written all the same,
 * the cores' traces unfiltered, and one line says why. */
static void test_a_core_dump_without_objdump_is_written_with_a_note(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "WM_OBJDUMP=/nonexistent/objdump " BUILD_DIR "/wavemesh run %s --pe core --backend sw --trace %s "
             "> %s 2> %s",
             LAYOUT, tmp_path("noobjdump.fst"), tmp_path("noobjdump.out"), tmp_path("noobjdump.err"));
    const int status = system(cmd);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(access(tmp_path("noobjdump.fst"), R_OK), 0);
    assert_int_equal(access(tmp_path("noobjdump-insn.txt"), F_OK), -1);
    const char *err = read_text(tmp_path("noobjdump.err"));
    assert_non_null(strstr(err, "/nonexistent/objdump not found"));
    assert_null(strchr(strchr(err, '\n') + 1, '\n')); /* one line */
    const char *text = read_text(tmp_path("noobjdump.gtkw"));
    assert_non_null(strstr(text, "@22\nl0.wm_tile_core.u_core_waves.retire_insn[31:0]\n"));
    assert_non_null(strstr(text, "@22\nl0.wm_tile_core.u_core_waves.pc[31:0]\n"));
}

/* waves/ holds what `wavemesh waves` makes of the seed's rows today: the
 * same command, run where waves/ is a fresh folder, writes the same save
 * files (their filters are the firmware's and the dump's, not compared). */
static void test_committed_save_files_are_up_to_date(void **state)
{
    (void)state;
    static const struct {
        const char *file, *args;
    } saves[] = {
        {"tutorial", "--set SHAPE=0"},
        {"tutorial-overview", "--set SHAPE=0 --overview"},
        {"tworow", "--set SHAPE=1"},
        {"tworow-overview", "--set SHAPE=1 --overview"},
        {"tutorial-compact", "--set SHAPE=0 --compact"},
        {"tworow-compact", "--set SHAPE=1 --compact"},
        {"tutorial-core", "--set SHAPE=0 --pe core"},
    };
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    const char *dir = tmp_path("committed");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/waves", dir);
    assert_int_equal(system(cmd), 0);
    for (size_t i = 0; i < sizeof saves / sizeof saves[0]; i++) {
        const char *row = strncmp(saves[i].file, "tworow", 6) ? "tutorial" : "tworow";
        const char *core = strstr(saves[i].file, "core") ? "-core" : "";
        char wavemesh[600];
        if (BUILD_DIR[0] == '/') snprintf(wavemesh, sizeof wavemesh, BUILD_DIR "/wavemesh");
        else snprintf(wavemesh, sizeof wavemesh, "%s/" BUILD_DIR "/wavemesh", cwd);
        snprintf(cmd, sizeof cmd, "cd %s && %s waves %s/%s %s -o waves/%s.gtkw --dump build/waves/%s%s-rtl.fst", dir,
                 wavemesh, cwd, LAYOUT, saves[i].args, saves[i].file, row, core);
        assert_int_equal(system(cmd), 0);
        char fresh[700], committed[700];
        snprintf(fresh, sizeof fresh, "%s/waves/%s.gtkw", dir, saves[i].file);
        snprintf(committed, sizeof committed, "waves/%s.gtkw", saves[i].file);
        char *a = strdup(read_text(fresh));
        assert_non_null(a);
        const char *text = read_text(committed);
        if (strcmp(a, text)) fail_msg("%s is out of date: docs/waves.md says how to remake it", committed);
        /* each shows the headers held (<port>_msg) through the header
         * filter: l0's port towards p0, east in the tutorial, north in tworow */
        const char *port = strcmp(row, "tworow") ? "east" : "north";
        char alias[64] = "", filtered_msg[300];
        if (strstr(saves[i].file, "compact")) snprintf(alias, sizeof alias, "+{l0 %s msg} ", port);
        snprintf(filtered_msg, sizeof filtered_msg, "waves/%s-headers.txt\n%sl0.%s.%s_msg[31:0]\n", saves[i].file,
                 alias, *core ? "wm_tile_core.u_tile.u_waves" : "wm_tile.u_waves", port);
        if (!strstr(text, filtered_msg)) fail_msg("%s does not show l0's %s_msg through its header filter", committed, port);
        free(a);
    }
    /* the core save file's filters are committed too */
    assert_int_equal(access("waves/tutorial-core-insn.txt", R_OK), 0);
    assert_int_equal(access("waves/tutorial-core-pc-leaf.txt", R_OK), 0);
    assert_int_equal(access("waves/tutorial-core-pc-node.txt", R_OK), 0);
}

/* The compact save file of tworow: every instance and the forwarding tile
 * on one 1080p screen (37 traces of about 21 pixels under the toolbars:
 * the states, the msg of each port used, the ramps' data),
 * named after their instances; markers A and B at the up-sweep's last
 * receive (cycle 352) and the down-sweep's first wavelet on a link (518),
 * each explained by a comment line; the header filter names each header's
 * sender, a header sent by two PEs (l0's to p0 and root's to p0 both go
 * to (0,0) with tag 0) naming both. */
static void test_compact_save_file_fits_a_screen_with_markers_and_senders(void **state)
{
    (void)state;
    const char *gtkw = tmp_path("compact.gtkw");
    char cmd[1200];
    snprintf(cmd, sizeof cmd, BUILD_DIR "/wavemesh waves %s --set SHAPE=1 --compact -o %s", LAYOUT, gtkw);
    assert_int_equal(system(cmd), 0);
    const char *text = read_text(gtkw);
    size_t traces = 0;
    for (const char *p = text; (p = strstr(p, "\n@")); p++) traces++;
    assert_int_equal(traces, 37);
    assert_non_null(strstr(text, "*-6.000000 -1 119 171 -1"));
    assert_non_null(strstr(text, "\n-A: cycle 119, the up-sweep's last receive (root's ramp)\n"));
    assert_non_null(strstr(text, "\n-B: cycle 171, the down-sweep's first wavelet on a link\n"));
    assert_null(strstr(text, "no sweep markers"));
    assert_non_null(strstr(text, "+{l0 north msg} l0.wm_tile.u_waves.north_msg[31:0]\n"));
    assert_non_null(strstr(text, "+{tile_2_0 west msg} tile_2_0.wm_tile.u_waves.west_msg[31:0]\n"));
    assert_non_null(strstr(text, "+{root ramp msg} root.wm_tile.u_waves.ramp_msg[31:0]\n"));
    assert_non_null(strstr(text, "+{root ramp} root.wm_tile.u_waves.ramp_data[31:0]\n"));
    assert_null(strstr(text, "l0.wm_tile.u_waves.south_msg"));
    assert_null(strstr(text, "l0.wm_tile.u_waves.north_data"));
    const char *headers = read_text(tmp_path("compact-headers.txt"));
    assert_non_null(strstr(headers, "00000040 (0,0) t0 +1 l0,root\n"));
    assert_non_null(strstr(headers, "00c00041 (3,0) t1 +1 l3,root\n"));
    assert_non_null(strstr(headers, "00400041 (1,0) t1 +1 p1\n"));
}

/* The save file of a layout written into the test's folder as NAME.layout,
 * through `wavemesh waves` (its text, read back). */
static const char *save_file_of(const char *name, const char *layout_text)
{
    char layout[200], gtkw[200], cmd[600];
    snprintf(layout, sizeof layout, "%s", tmp_path(name));
    strcat(layout, ".layout");
    snprintf(gtkw, sizeof gtkw, "%s", tmp_path(name));
    strcat(gtkw, ".gtkw");
    FILE *f = fopen(layout, "w");
    assert_non_null(f);
    fputs(layout_text, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, BUILD_DIR "/wavemesh waves %s -o %s", layout, gtkw);
    assert_int_equal(system(cmd), 0);
    return read_text(gtkw);
}

/* A layout with a root whose run is not a tree's two sweeps has no sweep
 * markers, and its save file says why, in a [*] comment and a comment
 * line of the signal pane: a root that only receives (a sends it one
 * message, delivered to its ramp in cycle 67, and nothing moves after)
 * has no down-sweep; a root that only sends has no up-sweep. */
static void test_a_rooted_run_without_sweeps_says_why_it_has_no_markers(void **state)
{
    (void)state;
    const char *text = save_file_of("root-receives", "mesh 2 1\nregion all\nat a 1 0\nat root 0 0\n"
                                                     "pe a stream COUNT=1 LEN=1 TOX=0 TOY=0 EXPECT=0\n"
                                                     "pe root stream COUNT=0 EXPECT=1\n");
    const char *why = "no sweep markers: no wavelet moved after the root's last receive (cycle 66), so no "
                      "down-sweep follows it";
    char line[300];
    snprintf(line, sizeof line, "\n[*] %s\n", why);
    assert_non_null(strstr(text, line));
    snprintf(line, sizeof line, "\n-%s\n", why);
    assert_non_null(strstr(text, line));
    assert_null(strstr(text, "*-6.000000"));
    assert_null(strstr(text, "\n-A: cycle"));

    text = save_file_of("root-sends", "mesh 2 1\nregion all\nat a 1 0\nat root 0 0\n"
                                      "pe root stream COUNT=1 LEN=1 TOX=1 TOY=0 EXPECT=0\n"
                                      "pe a stream COUNT=0 EXPECT=1\n");
    why = "no sweep markers: the root's PE received no wavelet, so no up-sweep ends there";
    snprintf(line, sizeof line, "\n[*] %s\n", why);
    assert_non_null(strstr(text, line));
    snprintf(line, sizeof line, "\n-%s\n", why);
    assert_non_null(strstr(text, line));
    assert_null(strstr(text, "*-6.000000"));
}

/* Writes text to NAME in the test's folder and reads it back as a dump;
 * NULL with the reason in err. */
static wm_dump *load_text(const char *name, const char *text, char *err, size_t err_size)
{
    FILE *f = fopen(tmp_path(name), "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return wm_dump_load(tmp_path(name), err, err_size);
}

/* The VCD reader reads a value change within its line: a line cut short
 * is refused with its number, never completed by the next line's words as
 * a value for another signal; a vector wider than its signal, an
 * undeclared code and a last line cut off (no newline) are refused too. */
static void test_vcd_reader_refuses_cut_lines_and_wrong_widths(void **state)
{
    (void)state;
    static const char head[] = "$timescale 1ns $end\n$scope module top $end\n"
                               "$var wire 4 ! a [3:0] $end\n$var wire 1 \" b $end\n"
                               "$upscope $end\n$enddefinitions $end\n";
    char text[512], err[512];
    snprintf(text, sizeof text, "%s#0\nb0101 !\n0\"\n#5\nb11 !\n1\"\n", head);
    wm_dump *d = load_text("good.vcd", text, err, sizeof err);
    if (!d) fail_msg("%s", err);
    uint64_t v;
    assert_true(wm_dump_value_at(d, wm_dump_find(d, "top.a"), 5, &v));
    assert_int_equal(v, 3);
    assert_true(wm_dump_value_at(d, wm_dump_find(d, "top.b"), 5, &v));
    assert_int_equal(v, 1);
    wm_dump_free(d);
    static const struct {
        const char *changes, *why;
    } bad[] = {
        /* b0101's code is cut off: the next line's 1" is not its code */
        {"#0\nb0101\n1\"\n#5\n", "line 8: the value b0101 has no identifier code (a line cut short)"},
        {"#0\n1\n#5\n", "line 8: the value 1 has no identifier code (a line cut short)"},
        {"#0\nb10101 !\n", "line 8: b10101 is not a value of 4 bits for identifier code !"},
        {"#0\nb0102 !\n", "line 8: b0102 is not a value of 4 bits for identifier code !"},
        {"#0\nb01 #\n", "line 8: identifier code # is not declared"},
        {"#0\nb0101 !\n#1", "line 9, the last, is cut off: no newline at its end"},
        {"#0\nb0101 !\n#1x\n", "line 9: '#1x' is not a time"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "%s%s", head, bad[i].changes);
        d = load_text("bad.vcd", text, err, sizeof err);
        char want[300];
        snprintf(want, sizeof want, "%s is not a readable VCD file (%s)", tmp_path("bad.vcd"), bad[i].why);
        if (d || strcmp(err, want)) fail_msg("case %zu: expected \"%s\", got \"%s\"", i, want, d ? "a dump" : err);
    }
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
        cmocka_unit_test(test_core_dumps_show_the_first_retire_of_l0_at_cycle_1),
        cmocka_unit_test(test_core_dumps_of_both_backends_are_identical),
        cmocka_unit_test(test_msg_holds_each_header_until_the_next_on_both_backends),
        cmocka_unit_test(test_filters_disassemble_the_images_and_the_save_file_uses_them),
        cmocka_unit_test(test_core_save_file_loads_in_gtkwave_headless),
        cmocka_unit_test(test_a_core_dump_without_objdump_is_written_with_a_note),
        cmocka_unit_test(test_committed_save_files_are_up_to_date),
        cmocka_unit_test(test_compact_save_file_fits_a_screen_with_markers_and_senders),
        cmocka_unit_test(test_a_rooted_run_without_sweeps_says_why_it_has_no_markers),
        cmocka_unit_test(test_vcd_reader_refuses_cut_lines_and_wrong_widths),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
