/* test_sched.c: the scheduler's cycle loop on every registered backend: the
 * cost of one message, determinism, the observer, and each way a run can
 * end other than by finishing (deadlock, stall at a disabled router,
 * firmware fault, the cycle limit), with the report that names the PEs;
 * the count of messages in flight of the status line, in both PE modes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run/layout.h"
#include "run/msg_flight.h"
#include "run/runner.h"
#include "run/tree.h"

#include <sys/wait.h>
#include <unistd.h>

static const char *const backend_names[] = {"rtl", "sw"};
enum { NBACKENDS = 2 };

typedef struct {
    wm_run_result result;
    uint64_t cycle;
    char *report;
} run_out;

/* Runs layout text on the backend; false if it is not registered. */
static bool run_text(const char *backend, const char *text, uint64_t max_cycles, run_out *o,
                     void (*inspect)(wm_sched *s, void *ctx), void *ctx)
{
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    if (!ops) return false;
    wm_layout *l = wm_layout_parse(text, "t.layout", NULL, 0, stderr);
    assert_non_null(l);
    wm_runner *r = wm_runner_create(ops, l);
    assert_non_null(r);
    size_t size = 0;
    FILE *mem = open_memstream(&o->report, &size);
    assert_non_null(mem);
    o->result = wm_runner_run(r, max_cycles);
    o->cycle = wm_sched_cycle(wm_runner_sched(r));
    wm_sched_report(wm_runner_sched(r), o->result, mem);
    fclose(mem);
    if (inspect) inspect(wm_runner_sched(r), ctx);
    wm_runner_destroy(r);
    wm_layout_destroy(l);
    return true;
}

static void expect_report(const run_out *o, const char *line)
{
    if (!strstr(o->report, line)) fail_msg("expected \"%s\" in the report:\n%s", line, o->report);
}

static int64_t result_of(wm_sched *s, const char *inst, const char *name)
{
    int64_t v = -1;
    assert_true(wm_sched_result(s, inst, name, &v));
    return v;
}

typedef struct {
    int64_t t1;
} chain_seen;

static void inspect_chain(wm_sched *s, void *ctx)
{
    chain_seen *c = ctx;
    c->t1 = result_of(s, "b", "t1");
}

/* The native charges are the core's (sw/cost_model.h). a starts at
 * WM_COST_START (S) and reads VAL and FIRST (2P): its timestamp accesses
 * are at S + 2P + T (T = WM_COST_TSC), 37, and T + 1 later, 41; then its
 * step (+N = WM_COST_CHAIN_STEP), LAST, NEXTX, NEXTY (+3P), the header
 * (+H) and the send (+C): the header is pushed at 68 and the data W + 1
 * later, at 71. One hop costs 3 + 2 cycles to b's RX head (73 and 76). b
 * reads VAL, FIRST, its timestamp and starts its receive (S + 2P + T + 1 +
 * C', 45) and polls; it pops the header at 73, the data at 76, and its
 * timestamp access comes W' + T after that pop's cycle, at 81. */
static void test_one_message_costs_what_the_core_measured(void **state)
{
    (void)state;
    const char *text = "mesh 2 1\nregion all\nat a 0 0\nat b 1 0\n"
                       "pe a chain VAL=3 FIRST=1 LAST=0 NEXTX=b.x NEXTY=b.y\n"
                       "pe b chain VAL=4 FIRST=0 LAST=1\n";
    int ran = 0;
    for (int i = 0; i < NBACKENDS; i++) {
        run_out o = {0};
        chain_seen c = {0};
        if (!run_text(backend_names[i], text, 10000, &o, inspect_chain, &c)) continue;
        ran++;
        assert_int_equal(o.result, WM_RUN_DONE);
        const int64_t header_push = WM_COST_START + 2 * WM_COST_PARAM + 2 * (WM_COST_TSC + 1) + WM_COST_CHAIN_STEP +
                                    3 * WM_COST_PARAM + WM_COST_HEADER + WM_COST_SEND_CALL;
        assert_int_equal(header_push, 67);
        const int64_t data_pop = header_push + 1 + WM_COST_SEND_WAVELET + 5;
        assert_int_equal(c.t1, data_pop + 1 + WM_COST_RECV_WAVELET + WM_COST_TSC);
        assert_int_equal(c.t1, 80);
        /* what docs/cost-model.md and sw/mp.h say a one-wavelet message costs its sender */
        assert_int_equal(WM_COST_HEADER + WM_COST_SEND_CALL + 2 + WM_COST_SEND_WAVELET, 11);
        free(o.report);
    }
    assert_true(ran > 0);
}

typedef struct {
    unsigned transitions, done, exports, cycles_seen;
    int64_t l2_incl;
    uint64_t last_cycle;
    int64_t t1[4];
} observed;

static void on_state(void *ctx, size_t pe, uint64_t cycle, wm_pe_state st)
{
    observed *ob = ctx;
    (void)pe;
    (void)cycle;
    ob->transitions++;
    if (st == WM_PE_DONE) ob->done++;
}

static void on_export(void *ctx, size_t pe, uint64_t cycle, const char *name, int64_t value)
{
    observed *ob = ctx;
    (void)cycle;
    ob->exports++;
    if (pe == 2 && !strcmp(name, "incl")) ob->l2_incl = value;
}

static void on_cycle(void *ctx, uint64_t cycle)
{
    observed *ob = ctx;
    ob->cycles_seen++;
    ob->last_cycle = cycle;
}

static void test_observer_sees_states_exports_and_cycles(void **state)
{
    (void)state;
    wm_layout *l = wm_layout_load("sw/collectives/bench.layout", NULL, 0, stderr);
    assert_non_null(l);
    for (int i = 0; i < NBACKENDS; i++) {
        const wm_fabric_ops *ops = wm_fabric_backend(backend_names[i]);
        if (!ops) continue;
        wm_runner *r = wm_runner_create(ops, l);
        observed ob = {0};
        const wm_sched_observer obs = {on_state, on_export, on_cycle, NULL};
        wm_sched_set_observer(wm_runner_sched(r), &obs, &ob);
        assert_int_equal(wm_runner_run(r, 100000), WM_RUN_DONE);
        assert_int_equal(ob.done, 7);
        assert_true(ob.transitions > 7 * 3);
        assert_int_equal(ob.exports, 4 * 4 + 1);
        assert_int_equal(ob.l2_incl, 60);
        assert_int_equal(ob.last_cycle, wm_sched_cycle(wm_runner_sched(r)));
        assert_int_equal(ob.cycles_seen, ob.last_cycle);
        for (size_t p = 0; p < wm_sched_pe_count(wm_runner_sched(r)); p++)
            assert_int_equal(wm_sched_pe_state(wm_runner_sched(r), p), WM_PE_DONE);
        assert_string_equal(wm_sched_pe_instance(wm_runner_sched(r), 6)->name, "root");
        wm_runner_destroy(r);
    }
    wm_layout_destroy(l);
}

static void inspect_leaves(wm_sched *s, void *ctx)
{
    observed *ob = ctx;
    const char *names[4] = {"l0", "l1", "l2", "l3"};
    for (int i = 0; i < 4; i++) ob->t1[i] = result_of(s, names[i], "t1");
    ob->last_cycle = wm_sched_cycle(s);
}

static void test_runs_are_deterministic(void **state)
{
    (void)state;
    FILE *f = fopen("sw/collectives/bench.layout", "r");
    assert_non_null(f);
    static char text[8192];
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    for (int i = 0; i < NBACKENDS; i++) {
        observed a = {0}, b = {0};
        run_out o = {0};
        if (!run_text(backend_names[i], text, 100000, &o, inspect_leaves, &a)) continue;
        free(o.report);
        assert_true(run_text(backend_names[i], text, 100000, &o, inspect_leaves, &b));
        free(o.report);
        assert_memory_equal(a.t1, b.t1, sizeof a.t1);
        assert_int_equal(a.last_cycle, b.last_cycle);
    }
}

/* The seed's pitfall: a node waiting for a message nobody sends. */
static void test_deadlock_is_reported_with_each_blocked_pe(void **state)
{
    (void)state;
    const char *text = "mesh 2 1\nregion all\nat a 0 0\nat p 1 0\n"
                       "pe a leaf VAL=5 SIDE=0 UPX=p.x UPY=p.y\n"
                       "pe p node ROOT=1 SIDE=0 UPX=p.x UPY=p.y LX=a.x LY=a.y RX=a.x RY=a.y\n";
    for (int i = 0; i < NBACKENDS; i++) {
        run_out o = {0};
        if (!run_text(backend_names[i], text, 1000000, &o, NULL, NULL)) continue;
        assert_int_equal(o.result, WM_RUN_DEADLOCK);
        /* a: S + P + T + 1 + 3P + H + C = 49 pushes the header, the data
         * at 52; p: S + 2P + C' = 41 polls, pops them at 54 and 57, and
         * its second receive starts polling at 57 + 1 + W' + C' = 66. */
        assert_int_equal(o.cycle, 66);
        expect_report(&o, "deadlock at cycle 66: the fabric is quiescent and every live kernel waits for a message");
        expect_report(&o, "PE (1,0) p [node]: blocked on receive at sw/collectives/node.c:45 (wm_kernel_node): waits for "
                          "message 2, which nobody has sent");
        expect_report(&o, "PE (0,0) a [leaf]: blocked on receive at sw/collectives/leaf.c:31 (wm_kernel_leaf): waits for "
                          "message 1, which nobody has sent");
        free(o.report);
    }
}

/* Literal coordinates escape the layout's path check; the run still
 * reports where the message waits and why. */
static void test_message_stuck_at_a_disabled_router_is_reported(void **state)
{
    (void)state;
    const char *text = "mesh 3 1\nregion 0 0 1 1\nregion 2 0 1 1\nat a 0 0\nat p 2 0\n"
                       "pe a leaf VAL=5 SIDE=0 UPX=2 UPY=0\n"
                       "pe p node ROOT=1 SIDE=0 UPX=2 UPY=0 LX=0 LY=0 CHILDREN=1\n";
    for (int i = 0; i < NBACKENDS; i++) {
        run_out o = {0};
        if (!run_text(backend_names[i], text, 1000000, &o, NULL, NULL)) continue;
        assert_int_equal(o.result, WM_RUN_STALLED);
        assert_true(o.cycle < 1000);
        expect_report(&o, "stalled at cycle");
        expect_report(&o, "PE (2,0) p [node]: blocked on receive at sw/collectives/node.c:45 (wm_kernel_node): waits for "
                          "message 1");
        expect_report(&o, "2 wavelet(s) stuck at (0,0) TX queue, oldest 00800040 (as a header: to (2,0), next router "
                          "(1,0), outside the message-passing region)");
        free(o.report);
    }
}

static void test_firmware_fault_is_reported(void **state)
{
    (void)state;
    /* msgcost's TOX has no declared range: the header refuses it at run time */
    const char *text = "mesh 2 1\nregion all\nat a 0 0\nat p 1 0\n"
                       "pe a msgcost ROLE=0 TOX=1100 TOY=0\n"
                       "pe p msgcost ROLE=1\n";
    for (int i = 0; i < NBACKENDS; i++) {
        run_out o = {0};
        if (!run_text(backend_names[i], text, 1000000, &o, NULL, NULL)) continue;
        assert_int_equal(o.result, WM_RUN_FAULT);
        expect_report(&o, "PE (0,0) a [msgcost]: fault: header to (1100,0): coordinates outside 0..1023");
        free(o.report);
    }
}

static void test_max_cycles_bounds_the_run(void **state)
{
    (void)state;
    const char *text = "mesh 2 1\nregion all\nat a 0 0\nat b 1 0\n"
                       "pe a chain VAL=3 FIRST=1 LAST=0 NEXTX=b.x NEXTY=b.y\n"
                       "pe b chain VAL=4 FIRST=0 LAST=1\n";
    for (int i = 0; i < NBACKENDS; i++) {
        run_out o = {0};
        if (!run_text(backend_names[i], text, 20, &o, NULL, NULL)) continue;
        assert_int_equal(o.result, WM_RUN_MAX_CYCLES);
        assert_int_equal(o.cycle, 20);
        expect_report(&o, "cycle limit reached at cycle 20 with 2 kernel(s) still running");
        /* S + 2P + T: a's first timestamp access */
        expect_report(&o, "PE (0,0) a [chain]: computing at sw/collectives/chain.c:30 (wm_kernel_chain) until cycle 37");
        free(o.report);
    }
}

/* Kernels that no layout may name, put in place of a layout's own. */
static void spin_one(wm_mp *mp)
{
    for (;;) wm_mp_work(mp, 1);
}

static void spin_zero(wm_mp *mp)
{
    for (;;) wm_mp_work(mp, 0);
}

static unsigned recurse(unsigned n)
{
    volatile char pad[512];
    pad[0] = (char)n;
    pad[511] = 1;
    return n ? recurse(n - 1) + (unsigned)pad[0] + pad[511] : 0;
}

static void deep(wm_mp *mp)
{
    wm_mp_export(mp, 0, recurse(100000));
}

static const wm_kernel_param no_params[] = {{NULL, false, 0, 0, 0}};
static const char *const deep_exports[] = {"depth", NULL};
static const wm_kernel spin_one_kernel = {"spin1", spin_one, no_params, "work(1) for ever", NULL};
static const wm_kernel spin_zero_kernel = {"spin0", spin_zero, no_params, "work(0) for ever", NULL};
static const wm_kernel deep_kernel = {"deep", deep, no_params, "recursion past its stack", deep_exports};

/* Runs a one-PE layout whose kernel is replaced by k. */
static void run_replaced_in(const char *backend, const char *layout, size_t pe, const wm_kernel *k,
                            uint64_t max_cycles, run_out *o)
{
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    wm_layout *l = wm_layout_parse(layout, "t.layout", NULL, 0, stderr);
    assert_non_null(l);
    ((wm_instance *)wm_layout_instance(l, pe))->kernel = k;
    wm_runner *r = wm_runner_create(ops, l);
    assert_non_null(r);
    size_t size = 0;
    FILE *mem = open_memstream(&o->report, &size);
    o->result = wm_runner_run(r, max_cycles);
    o->cycle = wm_sched_cycle(wm_runner_sched(r));
    wm_sched_report(wm_runner_sched(r), o->result, mem);
    fclose(mem);
    wm_runner_destroy(r);
    wm_layout_destroy(l);
}

/* The kernel of a one-PE layout replaced by k. */
static void run_replaced(const char *backend, const wm_kernel *k, uint64_t max_cycles, run_out *o)
{
    run_replaced_in(backend, "mesh 1 1\nregion all\nat a 0 0\npe a chain VAL=0 FIRST=1 LAST=1\n", 0, k, max_cycles,
                    o);
}

/* A kernel that only computes gives the loop its cycles back: the limit
 * fires, whether it charges one cycle a call or none. */
static void test_compute_only_kernel_meets_the_cycle_limit(void **state)
{
    (void)state;
    for (int i = 0; i < NBACKENDS; i++) {
        run_out o = {0};
        run_replaced(backend_names[i], &spin_one_kernel, 1000, &o);
        assert_int_equal(o.result, WM_RUN_MAX_CYCLES);
        assert_int_equal(o.cycle, 1000);
        /* it ran 65536 cycles ahead of the fabric before giving way */
        /* natively too the report names the line of the kernel's own code */
        expect_report(&o, "PE (0,0) a [spin1]: computing at tests/test_sched.c:");
        expect_report(&o, " (spin_one) until cycle 65537");
        free(o.report);
        run_out z = {0};
        run_replaced(backend_names[i], &spin_zero_kernel, 20, &z);
        assert_int_equal(z.result, WM_RUN_MAX_CYCLES);
        assert_int_equal(z.cycle, 20);
        free(z.report);
    }
}

/* A stack overflow ends the process with the PE named, exit status 1:
 * on the first stack, and on a later one (their guards are made apart). */
static void expect_overflow(const char *layout, size_t pe, const char *report)
{
    char path[] = "/tmp/wm_overflowXXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd, 2);
        run_out o = {0};
        run_replaced_in("sw", layout, pe, &deep_kernel, 1000000, &o);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    char text[1024] = {0};
    const ssize_t n = pread(fd, text, sizeof text - 1, 0);
    close(fd);
    unlink(path);
    assert_true(n > 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    if (!strstr(text, report)) fail_msg("unexpected report: %s", text);
}

static void test_stack_overflow_names_the_pe(void **state)
{
    (void)state;
    expect_overflow("mesh 1 1\nregion all\nat a 0 0\npe a chain VAL=0 FIRST=1 LAST=1\n", 0,
                    "wavemesh: PE (0,0) a [deep]: stack overflow: the kernel needs more than the 64 KiB stack");
    expect_overflow("mesh 3 1\nregion all\nat a 0 0\nat b 1 0\nat c 2 0\npe a chain VAL=0 FIRST=1 LAST=1\n"
                    "pe b chain VAL=0 FIRST=1 LAST=1\npe c chain VAL=0 FIRST=1 LAST=1\n",
                    2, "wavemesh: PE (2,0) c [deep]: stack overflow: the kernel needs more than the 64 KiB stack");
}

/* 16384 leaves: 32767 kernels, each with a stack and its guard. */
static void test_a_16384_leaf_tree_gets_its_stacks(void **state)
{
    (void)state;
    enum { LEAVES = 16384 };
    int64_t *values = calloc(LEAVES, sizeof *values);
    char *text = NULL, err[200];
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    wm_tree_placement p;
    assert_true(wm_tree_placement_parse("htree", &p));
    assert_true(wm_tree_write(mem, LEAVES, p, values, "test", err, sizeof err));
    fclose(mem);
    wm_layout *l = wm_layout_parse(text, "t16k.layout", NULL, 0, stderr);
    assert_non_null(l);
    assert_int_equal(wm_layout_count(l), 2 * LEAVES - 1);
    wm_runner *r = wm_runner_create(&wm_fabric_sw, l);
    assert_non_null(r);
    assert_int_equal(wm_runner_run(r, 100000), WM_RUN_DONE);
    int64_t total = -1;
    assert_true(wm_sched_result(wm_runner_sched(r), "root", "total", &total));
    assert_int_equal(total, 0);
    wm_runner_destroy(r);
    wm_layout_destroy(l);
    free(text);
    free(values);
}

/* A message to a PE without a kernel, or off the mesh, is named with its
 * header where it went, not reported as never sent. */
static void test_messages_gone_astray_are_named(void **state)
{
    (void)state;
    const char *nobody = "mesh 3 1\nregion all\nat a 0 0\nat b 1 0\n"
                         "pe a chain VAL=3 FIRST=1 LAST=0 NEXTX=2 NEXTY=0\n"
                         "pe b chain VAL=4 FIRST=0 LAST=1\n";
    const char *offmesh = "mesh 2 1\nregion all\nat a 0 0\nat b 1 0\n"
                          "pe a chain VAL=3 FIRST=1 LAST=0 NEXTX=5 NEXTY=0\n"
                          "pe b chain VAL=4 FIRST=0 LAST=1\n";
    for (int i = 0; i < NBACKENDS; i++) {
        run_out o = {0};
        if (!run_text(backend_names[i], nobody, 100000, &o, NULL, NULL)) continue;
        assert_int_not_equal(o.result, WM_RUN_DONE);
        expect_report(&o, "2 wavelet(s) delivered to PE (2,0), where no kernel runs: oldest 00800040");
        if (strstr(o.report, "nobody has sent")) fail_msg("the message was sent:\n%s", o.report);
        free(o.report);
        run_out m = {0};
        assert_true(run_text(backend_names[i], offmesh, 100000, &m, NULL, NULL));
        assert_int_equal(m.result, WM_RUN_DEADLOCK);
        expect_report(&m, "router (0,0) discarded a message addressed off the 2x1 mesh: header 01400040 (to (5,0), "
                          "1 data wavelets, tag 0), the first it discarded");
        if (strstr(m.report, "nobody has sent")) fail_msg("the message was sent:\n%s", m.report);
        free(m.report);
    }
}

static void check_delivered(wm_sched *s, void *ctx)
{
    char **text = ctx;
    size_t size = 0;
    FILE *mem = open_memstream(text, &size);
    assert_false(wm_sched_check_delivered(s, mem));
    fclose(mem);
}

/* Every kernel returned, but a message never reached one. */
static void test_a_finished_run_with_a_lost_message_is_not_clean(void **state)
{
    (void)state;
    const char *text = "mesh 3 1\nregion all\nat a 0 0\nat b 1 0\n"
                       "pe a chain VAL=3 FIRST=1 LAST=0 NEXTX=2 NEXTY=0\n"
                       "pe b chain VAL=4 FIRST=1 LAST=1\n";
    for (int i = 0; i < NBACKENDS; i++) {
        run_out o = {0};
        char *lost = NULL;
        if (!run_text(backend_names[i], text, 100000, &o, check_delivered, &lost)) continue;
        assert_int_equal(o.result, WM_RUN_DONE);
        if (!strstr(lost, "but not every message was delivered") ||
            !strstr(lost, "2 wavelet(s) delivered to PE (2,0), where no kernel runs: oldest 00800040"))
            fail_msg("unexpected report:\n%s", lost);
        free(lost);
        free(o.report);
    }
}

/* A message is in flight from its header's push to its last wavelet's
 * pop, each PE's pushes and pops framed by the headers' lengths. */
static void test_messages_in_flight_are_framed_by_their_lengths(void **state)
{
    (void)state;
    wm_msg_flight m;
    assert_true(wm_msg_flight_init(&m, 2, 1));
    wm_msg_flight_push(&m, 0, wm_header(1, 0, 2, 7), 10, 0x100); /* two data wavelets */
    assert_int_equal(wm_msg_flight_count(&m), 1);
    wm_msg_flight_push(&m, 0, 0x01000000u, 11, 0x104); /* data, though it reads as a header of len 0 */
    wm_msg_flight_push(&m, 0, 5, 12, 0x108);
    wm_msg_flight_push(&m, 0, wm_header(1, 0, 0, 1), 13, 0x10c); /* a header alone */
    assert_int_equal(wm_msg_flight_count(&m), 2);
    wm_msg_flight_pop(&m, 1, wm_header(1, 0, 2, 7), 20);
    wm_msg_flight_pop(&m, 1, 0x01000000u, 21);
    assert_int_equal(wm_msg_flight_count(&m), 2);
    wm_msg_flight_pop(&m, 1, 5, 22); /* its last wavelet */
    assert_int_equal(wm_msg_flight_count(&m), 1);
    wm_msg_origin o;
    assert_true(wm_msg_flight_last_received(&m, 1, &o));
    assert_int_equal(o.header, wm_header(1, 0, 2, 7));
    assert_int_equal(o.received, 20);
    assert_int_equal(o.senders, 1);
    assert_int_equal(o.sender[0].tile, 0);
    assert_int_equal(o.sender[0].cycle, 10);
    assert_int_equal(o.sender[0].site, 0x100);
    /* the header alone, waiting: its sender, the only one pending */
    assert_true(wm_msg_flight_head_origin(&m, 1, wm_header(1, 0, 0, 1), &o));
    assert_int_equal(o.senders, 1);
    assert_int_equal(o.sender[0].cycle, 13);
    assert_int_equal(o.sender[0].site, 0x10c);
    wm_msg_flight_pop(&m, 1, wm_header(1, 0, 0, 1), 30);
    assert_int_equal(wm_msg_flight_count(&m), 0);
    assert_false(wm_msg_flight_last_received(&m, 0, &o)); /* tile 0 received nothing */
    wm_msg_flight_free(&m);
}

/* Tiles 1 and 2 send tile 0 messages with the same header: the receiver
 * cannot tell from the header whose it reads, and tells from the data at
 * the message's end; messages equal in both stay ambiguous, said so. A
 * sender's second message is no candidate while its first is pending. */
static void test_a_messages_sender_is_told_by_its_data(void **state)
{
    (void)state;
    wm_msg_flight m;
    assert_true(wm_msg_flight_init(&m, 3, 1));
    const uint32_t h = wm_header(0, 0, 1, 3);
    wm_msg_flight_push(&m, 1, h, 5, 0x10);
    wm_msg_flight_push(&m, 1, 111, 6, 0x14);
    wm_msg_flight_push(&m, 1, h, 7, 0x18); /* 1's second, not a candidate before its first is read */
    wm_msg_flight_push(&m, 1, 333, 8, 0x1c);
    wm_msg_flight_push(&m, 2, h, 9, 0x20);
    wm_msg_flight_push(&m, 2, 222, 10, 0x24);
    wm_msg_origin o;
    assert_true(wm_msg_flight_head_origin(&m, 0, h, &o));
    assert_int_equal(o.senders, 2);
    assert_false(o.data_compared); /* their data differ: which is first is not known */
    assert_int_equal(o.sender[0].tile, 1);
    assert_int_equal(o.sender[0].cycle, 5);
    assert_int_equal(o.sender[1].tile, 2);
    assert_int_equal(o.sender[1].cycle, 9);
    /* 2's message arrives first: by its header, either */
    wm_msg_flight_pop(&m, 0, h, 40);
    assert_true(wm_msg_flight_last_received(&m, 0, &o));
    assert_int_equal(o.senders, 2);
    assert_false(o.data_compared);
    /* by its data, 2's */
    wm_msg_flight_pop(&m, 0, 222, 41);
    assert_true(wm_msg_flight_last_received(&m, 0, &o));
    assert_int_equal(o.senders, 1);
    assert_int_equal(o.sender[0].tile, 2);
    assert_int_equal(o.sender[0].cycle, 9);
    assert_int_equal(o.sender[0].site, 0x20);
    assert_int_equal(o.received, 40);
    /* then 1's two, one after the other, each the only candidate */
    wm_msg_flight_pop(&m, 0, h, 50);
    wm_msg_flight_pop(&m, 0, 111, 51);
    assert_true(wm_msg_flight_last_received(&m, 0, &o));
    assert_int_equal(o.senders, 1);
    assert_int_equal(o.sender[0].cycle, 5);
    wm_msg_flight_pop(&m, 0, h, 60);
    wm_msg_flight_pop(&m, 0, 333, 61);
    assert_true(wm_msg_flight_last_received(&m, 0, &o));
    assert_int_equal(o.senders, 1);
    assert_int_equal(o.sender[0].cycle, 7);
    /* identical messages from 1 and 2: ambiguous, and said to be */
    wm_msg_flight_push(&m, 1, h, 70, 0x30);
    wm_msg_flight_push(&m, 1, 444, 71, 0x34);
    wm_msg_flight_push(&m, 2, h, 72, 0x40);
    wm_msg_flight_push(&m, 2, 444, 73, 0x44);
    assert_true(wm_msg_flight_head_origin(&m, 0, h, &o));
    assert_int_equal(o.senders, 2);
    assert_true(o.data_compared);
    wm_msg_flight_pop(&m, 0, h, 80);
    wm_msg_flight_pop(&m, 0, 444, 81);
    assert_true(wm_msg_flight_last_received(&m, 0, &o));
    assert_int_equal(o.senders, 2);
    assert_true(o.data_compared);
    assert_int_equal(o.sender[0].tile, 1);
    assert_int_equal(o.sender[0].cycle, 70);
    assert_int_equal(o.sender[1].tile, 2);
    assert_int_equal(o.sender[1].cycle, 72);
    assert_int_equal(o.received, 80);
    /* the other is still pending, the only candidate now, and as likely
     * to be the one read first: still ambiguous, waiting and read */
    assert_true(wm_msg_flight_head_origin(&m, 0, h, &o));
    assert_int_equal(o.senders, 2);
    assert_true(o.data_compared);
    assert_int_equal(o.sender[0].tile, 2);
    assert_int_equal(o.sender[1].tile, 1);
    wm_msg_flight_pop(&m, 0, h, 90);
    assert_true(wm_msg_flight_last_received(&m, 0, &o));
    assert_int_equal(o.senders, 2);
    assert_true(o.data_compared);
    assert_int_equal(o.sender[0].tile, 2);
    assert_int_equal(o.sender[0].cycle, 72);
    assert_int_equal(o.sender[1].tile, 1);
    assert_int_equal(o.sender[1].cycle, 70);
    assert_int_equal(o.received, 90);
    wm_msg_flight_pop(&m, 0, 444, 91);
    assert_int_equal(wm_msg_flight_count(&m), 0);
    /* off the mesh: counted, never read, kept nowhere */
    wm_msg_flight_push(&m, 2, wm_header(5, 0, 1, 0), 100, 0x50);
    wm_msg_flight_push(&m, 2, 1, 101, 0x54);
    assert_int_equal(wm_msg_flight_count(&m), 1);
    assert_true(wm_msg_flight_head_origin(&m, 0, wm_header(5, 0, 1, 0), &o));
    assert_int_equal(o.senders, 0);
    wm_msg_flight_free(&m);
}

typedef struct {
    uint64_t events;
} core_events_seen;

static void count_event(void *ctx, const wm_core_event *ev)
{
    (void)ev;
    ((core_events_seen *)ctx)->events++;
}

/* Messages in flight in the tutorial row (sw/collectives/bench.layout)
 * stopped at `cycle`, on backend in mode, with a core hook of the
 * caller's set before the run. */
static uint64_t in_flight_at(const char *backend, wm_pe_mode mode, uint64_t cycle, core_events_seen *seen)
{
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    wm_layout *l = wm_layout_load("sw/collectives/bench.layout", NULL, 0, stderr);
    assert_non_null(l);
    wm_runner *r = wm_runner_create_mode(ops, l, NULL, mode);
    assert_non_null(r);
    wm_sched *s = wm_runner_sched(r);
    uint64_t n = 0;
    /* the cores count from the first run on, asked or not: a report names
     * the message a blocked core waits for */
    if (mode == WM_PE_CORE) {
        assert_int_equal(wm_runner_run(r, 10), WM_RUN_MAX_CYCLES);
        assert_true(wm_sched_messages_in_flight(s, &n));
        wm_runner_destroy(r);
        assert_non_null(r = wm_runner_create_mode(ops, l, NULL, mode));
        s = wm_runner_sched(r);
    }
    if (mode == WM_PE_CORE) ops->set_core_hook(wm_runner_fabric(r), count_event, seen);
    wm_sched_count_messages(s);
    const wm_run_result res = wm_runner_run(r, cycle);
    assert_int_equal(res, cycle < 100000 ? WM_RUN_MAX_CYCLES : WM_RUN_DONE);
    assert_true(wm_sched_messages_in_flight(s, &n));
    if (mode == WM_PE_CORE) {
        /* the caller's hook saw every event, and has the fabric back */
        void *ctx = NULL;
        assert_ptr_equal(ops->get_core_hook(wm_runner_fabric(r), &ctx), count_event);
        assert_ptr_equal(ctx, seen);
        ops->set_core_hook(wm_runner_fabric(r), NULL, NULL);
    }
    wm_runner_destroy(r);
    wm_layout_destroy(l);
    return n;
}

/* The tutorial's up-sweep: the four leaves each send their parent one
 * message (a header and a value) in the same cycle, and the first to land
 * is l3's, two hops from p1. Natively the leaves push their headers in
 * cycle 49 and p1 pops l3's value in cycle 59, each counted in the cycle
 * the kernel posts it; on the cores they push in cycle 55 and p1 pops in
 * cycle 67, each counted once the core has spent that cycle. A finished
 * run has none in flight. Both backends agree. */
static void test_messages_in_flight_at_known_cycles_in_both_pe_modes(void **state)
{
    (void)state;
    for (int i = 0; i < NBACKENDS; i++) {
        core_events_seen seen = {0};
        assert_int_equal(in_flight_at(backend_names[i], WM_PE_NATIVE, 48, &seen), 0);
        assert_int_equal(in_flight_at(backend_names[i], WM_PE_NATIVE, 49, &seen), 4);
        assert_int_equal(in_flight_at(backend_names[i], WM_PE_NATIVE, 58, &seen), 4);
        assert_int_equal(in_flight_at(backend_names[i], WM_PE_NATIVE, 59, &seen), 3);
        assert_int_equal(in_flight_at(backend_names[i], WM_PE_NATIVE, 100000, &seen), 0);
        assert_int_equal(seen.events, 0);
        assert_int_equal(in_flight_at(backend_names[i], WM_PE_CORE, 55, &seen), 0);
        assert_int_equal(in_flight_at(backend_names[i], WM_PE_CORE, 56, &seen), 4);
        assert_int_equal(in_flight_at(backend_names[i], WM_PE_CORE, 67, &seen), 4);
        assert_int_equal(in_flight_at(backend_names[i], WM_PE_CORE, 68, &seen), 3);
        assert_true(seen.events > 0);
        seen.events = 0;
        assert_int_equal(in_flight_at(backend_names[i], WM_PE_CORE, 100000, &seen), 0);
        assert_int_equal(seen.events, 781); /* every retired instruction, push and pop */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_message_costs_what_the_core_measured),
        cmocka_unit_test(test_observer_sees_states_exports_and_cycles),
        cmocka_unit_test(test_runs_are_deterministic),
        cmocka_unit_test(test_deadlock_is_reported_with_each_blocked_pe),
        cmocka_unit_test(test_message_stuck_at_a_disabled_router_is_reported),
        cmocka_unit_test(test_firmware_fault_is_reported),
        cmocka_unit_test(test_max_cycles_bounds_the_run),
        cmocka_unit_test(test_compute_only_kernel_meets_the_cycle_limit),
        cmocka_unit_test(test_stack_overflow_names_the_pe),
        cmocka_unit_test(test_a_16384_leaf_tree_gets_its_stacks),
        cmocka_unit_test(test_messages_gone_astray_are_named),
        cmocka_unit_test(test_a_finished_run_with_a_lost_message_is_not_clean),
        cmocka_unit_test(test_messages_in_flight_are_framed_by_their_lengths),
        cmocka_unit_test(test_a_messages_sender_is_told_by_its_data),
        cmocka_unit_test(test_messages_in_flight_at_known_cycles_in_both_pe_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
