/* test_interrupt.c: a traced run stopped by SIGINT or SIGTERM keeps its dump.
 *
 * Each case starts `wavemesh run` on a layout that would run for hours (PE
 * b never stops receiving what a streams to it), with --trace, sends the
 * signal once the run is under way, and then requires what
 * csim/waves/interrupt.h promises: exit status 128 + the signal, one line
 * naming the cycle where the run stopped, a dump that reads back (our
 * reader, wavediff, fst2vcd, GTKWave with its save file) up to exactly
 * that cycle, its save file written, and the FST writer's temporary gone. Both backends, FST and
 * VCD, both PE modes; and `traffic`, which has its own loop. A failed
 * RTL assertion stops a run the same way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fabric/fabric_rtl.h"
#include "run/scheduler.h"
#include "waves/interrupt.h"
#include "waves/progress.h"
#include "waves/waves.h"
#include "waves/waves_read.h"

#define DIR BUILD_DIR "/tests/interrupt"

static const char long_layout[] = "mesh 2 1\n"
                                   "region all\n"
                                   "at a 1 0\n"
                                   "at b 0 0\n"
                                   "pe a stream COUNT=100000000 LEN=8 TOX=0 TOY=0 EXPECT=0\n"
                                   "pe b stream COUNT=0 EXPECT=100000000\n";

static int setup(void **state)
{
    (void)state;
    if (system("mkdir -p " DIR) != 0) return -1;
    FILE *f = fopen(DIR "/long.layout", "w");
    if (!f) return -1;
    fputs(long_layout, f);
    return fclose(f) == 0 ? 0 : -1;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[8192];
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Runs argv (argv[0] the wavemesh binary) with stdout and stderr into
 * files, waits until `dump` exists and a little more, sends sig; returns
 * the exit status. */
static int run_and_signal_n(char *const argv[], const char *dump, int sig, int times, const char *out, const char *err)
{
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644), e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(99);
        execv(argv[0], argv);
        _exit(98);
    }
    /* The dump is created when the fabric is made, just before the first
     * cycle, under its temporary name (waves/outfile.h) until it is
     * complete; the signal then lands in the middle of the run. */
    char part[600], hier[620];
    snprintf(part, sizeof part, "%s.%ld.part", dump, (long)pid);
    snprintf(hier, sizeof hier, "%s.hier", part);
    /* the writer has opened it: the FST writer's .hier is there, or the
     * VCD's header written (the temporary itself is made earlier, when
     * the options are checked) */
    struct stat st;
    for (int i = 0; i < 3000 && !exists(hier) && !(stat(part, &st) == 0 && st.st_size > 0) && !exists(dump); i++)
        sleep_ms(10);
    assert_true(exists(part));
    sleep_ms(100); /* into the run: its dump has begun; every later cycle adds to what the checks read back */
    /* more than once: again every 2 ms while the process lives (signals
     * sent closer merge into one), so that the later ones land while the
     * run stops and cleans up, as `timeout -s INT` and a terminal's Ctrl-C
     * to the process group both do */
    assert_int_equal(kill(pid, sig), 0);
    int status = 0;
    pid_t done = 0;
    for (int k = 1; k < times && !(done = waitpid(pid, &status, WNOHANG)); k++) {
        sleep_ms(2);
        kill(pid, sig);
    }
    if (!done) assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status)) fail_msg("%s was killed by signal %d instead of exiting", argv[0], WTERMSIG(status));
    /* no temporary survives, whatever the signals */
    if (exists(part) || exists(hier)) fail_msg("%s: the temporary %s was left behind", argv[0], part);
    return WEXITSTATUS(status);
}

static int run_and_signal(char *const argv[], const char *dump, int sig, const char *out, const char *err)
{
    return run_and_signal_n(argv, dump, sig, 1, out, err);
}

/* The cycle of "<prefix>interrupted by SIG... at cycle N" in text. */
static uint64_t stopped_at(const char *text, const char *signame)
{
    char want[64];
    snprintf(want, sizeof want, "interrupted by %s at cycle ", signame);
    const char *p = strstr(text, want);
    if (!p) fail_msg("no \"%s\" in: %s", want, text);
    return strtoull(p + strlen(want), NULL, 10);
}

/* The dump reads back, ends at cycle `last`, and shows more than
 * `changes` changes of the signal `busy` before that. */
static void check_dump(const char *path, uint64_t last, const char *busy, size_t changes)
{
    char err[512];
    wm_dump *d = wm_dump_load(path, err, sizeof err);
    if (!d) fail_msg("%s does not read back: %s", path, err);
    if (wm_dump_end_time(d) != last)
        fail_msg("%s ends at cycle %llu, the run stopped at %llu", path, (unsigned long long)wm_dump_end_time(d),
                 (unsigned long long)last);
    const wm_dump_signal *s = wm_dump_find(d, busy);
    if (!s) fail_msg("%s has no signal %s", path, busy);
    size_t n = 0;
    wm_dump_changes(d, s, &n);
    assert_true(n > changes);
    wm_dump_free(d);

    char cmd[1024];
    snprintf(cmd, sizeof cmd, BUILD_DIR "/wavemesh wavediff %s %s > /dev/null", path, path);
    assert_int_equal(system(cmd), 0);
    const size_t len = strlen(path);
    if (!strcmp(path + len - 4, ".fst") && system("command -v fst2vcd > /dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd, "fst2vcd %s 2>/dev/null | grep '^#' | tail -1 > " DIR "/last.txt", path);
        assert_int_equal(system(cmd), 0);
        char want[32];
        snprintf(want, sizeof want, "#%" PRIu64 "\n", last);
        assert_string_equal(slurp(DIR "/last.txt"), want);
    }
    char aside[1100];
    snprintf(aside, sizeof aside, "%.*s.gtkw", (int)len - 4, path);
    assert_true(exists(aside));
    snprintf(aside, sizeof aside, "%s.hier", path);
    assert_false(exists(aside));
}

/* GTKWave itself, headless, on the dump and its save file: it loads both
 * without a complaint and its time axis ends at `last`. */
static void check_in_gtkwave(const char *dump, uint64_t last)
{
    if (system("command -v xvfb-run > /dev/null 2>&1 && command -v gtkwave > /dev/null 2>&1") != 0) return;
    FILE *tcl = fopen(DIR "/check.tcl", "w");
    assert_non_null(tcl);
    fputs("puts \"traces [gtkwave::getTotalNumTraces]\"\n"
          "puts \"max [gtkwave::getMaxTime]\"\n"
          "gtkwave::/File/Quit\n",
          tcl);
    fclose(tcl);
    char cmd[1024];
    const size_t len = strlen(dump);
    snprintf(cmd, sizeof cmd, "xvfb-run -a gtkwave -S " DIR "/check.tcl -a %.*s.gtkw %s > " DIR "/gtkwave.log 2>&1",
             (int)len - 4, dump, dump);
    assert_int_equal(system(cmd), 0);
    const char *log = slurp(DIR "/gtkwave.log");
    if (strstr(log, "rror") || strstr(log, "arning") || strstr(log, "not found"))
        fail_msg("gtkwave: %s", log ? log : "");
    const char *traces = strstr(log, "traces "), *max = strstr(log, "max ");
    if (!traces || !max) fail_msg("gtkwave: %s", log);
    assert_true(strtoul(traces + 7, NULL, 10) > 10);
    assert_int_equal(strtoull(max + 4, NULL, 10), last);
}

typedef struct {
    const char *backend, *pe, *ext;
    int sig;
    const char *signame;
    bool gtkwave; /* open it in GTKWave too (a second or so) */
} run_case;

static void interrupt_run(const run_case *c)
{
    char dump[256], out[256], err[256];
    snprintf(dump, sizeof dump, DIR "/run-%s-%s-%s.%s", c->backend, c->pe, c->signame, c->ext);
    snprintf(out, sizeof out, DIR "/run-%s-%s-%s.out", c->backend, c->pe, c->ext);
    snprintf(err, sizeof err, DIR "/run-%s-%s-%s.err", c->backend, c->pe, c->ext);
    remove(dump);
    char *const argv[] = {BUILD_DIR "/wavemesh", "run", DIR "/long.layout", "--backend", (char *)c->backend,
                          "--pe", (char *)c->pe, "--trace", dump, NULL};
    const int status = run_and_signal(argv, dump, c->sig, out, err);
    const char *text = slurp(err);
    if (status != 128 + c->sig) fail_msg("%s %s: exit %d, stderr: %s", c->backend, c->pe, status, text);
    const uint64_t last = stopped_at(text, c->signame);
    assert_true(last > 0);
    /* one line, nothing else on stderr */
    assert_non_null(strchr(text, '\n'));
    assert_int_equal(strchr(text, '\n')[1], '\0');
    char waves_line[600];
    snprintf(waves_line, sizeof waves_line, "waves: %s (open with: gtkwave", dump);
    assert_non_null(strstr(slurp(out), waves_line));
    const bool core = !strcmp(c->pe, "core");
    check_dump(dump, last, core ? "a.wm_tile_core.u_tile.u_waves.west_valid" : "a.wm_tile.u_waves.west_valid", 10);
    if (c->gtkwave) check_in_gtkwave(dump, last);
}

static void test_interrupted_runs_keep_their_dumps(void **state)
{
    (void)state;
    static const run_case cases[] = {
        {"rtl", "native", "fst", SIGINT, "SIGINT", true},   {"rtl", "native", "vcd", SIGTERM, "SIGTERM", false},
        {"sw", "native", "fst", SIGTERM, "SIGTERM", false}, {"sw", "native", "vcd", SIGINT, "SIGINT", false},
        {"rtl", "core", "vcd", SIGINT, "SIGINT", false},    {"sw", "core", "fst", SIGTERM, "SIGTERM", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) interrupt_run(&cases[i]);
}

static void test_interrupted_traffic_keeps_its_dump(void **state)
{
    (void)state;
    static const char *const backends[] = {"rtl", "sw"};
    for (size_t i = 0; i < 2; i++) {
        char dump[256];
        snprintf(dump, sizeof dump, DIR "/traffic-%s.fst", backends[i]);
        remove(dump);
        char *const argv[] = {BUILD_DIR "/wavemesh", "traffic", "--backend", (char *)backends[i], "--mesh", "4x4",
                              "--cycles", "1000000000", "--trace", dump, NULL};
        const int status = run_and_signal(argv, dump, SIGINT, DIR "/traffic.out", DIR "/traffic.err");
        const char *text = slurp(DIR "/traffic.err");
        if (status != 130) fail_msg("traffic %s: exit %d, stderr: %s", backends[i], status, text);
        assert_non_null(strstr(text, "wavemesh traffic: interrupted by SIGINT at cycle "));
        check_dump(dump, stopped_at(text, "SIGINT"), "tile_1_1.wm_tile.u_waves.east_valid", 10);
    }
}

/* Issue 26, signals at any moment (mechanism 4): more signals (every 2
 * ms until the process ends) while the first is handled does not cut the clean-up short: the
 * dump is closed and readable, its save file written, no temporary left,
 * and the exit status that of the first signal. */
static void test_a_second_signal_lets_the_clean_up_finish(void **state)
{
    (void)state;
    static const struct {
        const char *backend, *ext;
        int sig, times;
        const char *signame;
    } cases[] = {{"sw", "fst", SIGINT, 200, "SIGINT"}, {"rtl", "vcd", SIGINT, 200, "SIGINT"},
                 {"rtl", "fst", SIGTERM, 200, "SIGTERM"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char dump[256];
        snprintf(dump, sizeof dump, DIR "/twice-%s.%s", cases[i].backend, cases[i].ext);
        remove(dump);
        char *const argv[] = {BUILD_DIR "/wavemesh", "run", DIR "/long.layout", "--backend", (char *)cases[i].backend,
                              "--trace", dump, NULL};
        const int status = run_and_signal_n(argv, dump, cases[i].sig, cases[i].times, DIR "/twice.out", DIR "/twice.err");
        const char *text = slurp(DIR "/twice.err");
        if (status != 128 + cases[i].sig) fail_msg("%s: exit %d, stderr: %s", dump, status, text);
        check_dump(dump, stopped_at(text, cases[i].signame), "a.wm_tile.u_waves.west_valid", 10);
    }
}

/* A failed RTL assertion stops a run as a signal does, the dump kept up
 * to the cycle it failed in. (1,0) is outside the region, so its west
 * input buffer is never popped; a neighbour that sends without credits is
 * played by wm_fabric_rtl_inject_link in cycles 10..14: four wavelets fill
 * the buffer at edges 10..13, the fifth is pushed into the full FIFO at
 * edge 14, whose assertion fails in the edge to cycle 15. */
typedef struct {
    wm_waves *wv;
    wm_fabric *f;
} asserting_run;

static void sample_and_inject(void *ctx, uint64_t cycle)
{
    asserting_run *a = ctx;
    wm_waves_sample(a->wv);
    if (cycle >= 10 && cycle < 15) wm_fabric_rtl_inject_link(a->f, 1, 0, WM_PORT_W, 0x77000000u + (uint32_t)cycle);
}

static void test_an_rtl_assertion_stops_a_traced_run_at_its_cycle(void **state)
{
    (void)state;
    const char *text = "mesh 3 1\nregion 0 0 1 1\nregion 2 0 1 1\nat a 0 0\nat p 2 0\n"
                       "pe a leaf VAL=5 SIDE=0 UPX=2 UPY=0\n"
                       "pe p node ROOT=1 SIDE=0 UPX=2 UPY=0 LX=0 LY=0 CHILDREN=1\n";
    wm_layout *l = wm_layout_parse(text, "t.layout", NULL, 0, stderr);
    assert_non_null(l);
    wm_trace_spec spec = wm_trace_spec_default();
    spec.path = DIR "/assert.vcd";
    spec.format = WM_WAVES_VCD;
    char err[256];
    asserting_run a;
    a.wv = wm_waves_create(&spec, 3, 1, err, sizeof err);
    assert_non_null(a.wv);
    a.f = wm_waves_open(a.wv, &wm_fabric_rtl);
    assert_non_null(a.f);
    wm_fabric_rtl.set_enable(a.f, 1, 0, false);
    wm_sched *s = wm_sched_create(&wm_fabric_rtl, a.f, l);
    assert_non_null(s);
    const wm_sched_observer obs = {NULL, NULL, sample_and_inject, NULL};
    wm_sched_set_observer(s, &obs, &a);
    print_message("the simulator's assertion message below is this test's, on purpose\n");
    const wm_run_result res = wm_sched_run(s, 100000);
    assert_int_equal(res, WM_RUN_INTERRUPTED);
    assert_int_equal(wm_sched_cycle(s), 15);
    uint64_t at = 0;
    assert_true(wm_fabric_rtl_assertion(a.f, &at));
    assert_int_equal(at, 15);
    char *rep = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&rep, &size);
    wm_sched_report(s, res, mem);
    fclose(mem);
    assert_string_equal(rep, "stopped at cycle 15: an RTL assertion failed in the edge to cycle 15 (the simulator's "
                             "message is on stdout)\n");
    free(rep);
    wm_sched_destroy(s);
    assert_true(wm_waves_finish(a.wv));
    wm_waves_destroy(a.wv);
    wm_fabric_rtl.destroy(a.f);
    wm_layout_destroy(l);
    wm_interrupt_clear_assertion();
    /* (1,0)'s west buffer: 0, then 1 .. 4 wavelets at cycles 11 .. 14 */
    check_dump(DIR "/assert.vcd", 15, "tile_1_0.wm_tile.u_waves.west_count", 4);
}

/* The status line of a long run: its words and units; and nothing at all
 * when stderr is not a terminal (here a pipe), however long the run. */
static void test_progress_line_only_on_a_terminal(void **state)
{
    (void)state;
    char line[200];
    wm_progress_format(line, sizeof line, 1234567, 2.5e6, "3 wavelets in flight, 7 of 9 PEs running");
    assert_string_equal(line, "cycle 1234567, 2.5 M cycles/s, 3 wavelets in flight, 7 of 9 PEs running");
    wm_progress_format(line, sizeof line, 99, 812.0, "0 messages in flight");
    assert_string_equal(line, "cycle 99, 812 cycles/s, 0 messages in flight");
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(stderr);
    const int saved = dup(2);
    dup2(fds[1], 2);
    wm_progress p;
    wm_progress_begin(&p, 0);
    bool due = false;
    for (int i = 0; i < 100 * WM_PROGRESS_STRIDE; i++) due |= wm_progress_due(&p);
    wm_progress_end(&p);
    dup2(saved, 2);
    close(saved);
    close(fds[1]);
    assert_false(p.tty);
    assert_false(due);
    char buf[8];
    assert_int_equal(read(fds[0], buf, sizeof buf), 0);
    close(fds[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interrupted_runs_keep_their_dumps),
        cmocka_unit_test(test_interrupted_traffic_keeps_its_dump),
        cmocka_unit_test(test_a_second_signal_lets_the_clean_up_finish),
        cmocka_unit_test(test_an_rtl_assertion_stops_a_traced_run_at_its_cycle),
        cmocka_unit_test(test_progress_line_only_on_a_terminal),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
