/* test_tile_core_rtl.c: the rtl backend's tiles with PE cores
 * (create_cores, rtl/wm_tile_core.v).
 *
 * Programs are hand-assembled with core/rv32_asm.h and loaded into a tile's
 * RAM through the ops table; every expected cycle below is derived from
 * docs/core.md (cycle 0 of a core is the step after core_start, in which F
 * fetches address 0; an instruction at pc p of straight-line one-cycle code
 * is in X, and retires, in the core's cycle p / 4 + 1; a register access
 * takes effect at the edge that ends its cycle) and docs/fabric.md (a
 * wavelet pushed in cycle t stands in the source's output register at t + 2,
 * in the destination's L register at t + 2 + 2h, and is at the head of the
 * destination's RX queue at t + 3 + 2h). The fabric's cycle is the clock: a
 * core started when cycle() was s spends its cycle k in fabric cycle s + k.
 *
 * The message test sends one one-data-wavelet message from the core of
 * (0,0) to the core of (1,0), which has been waiting on its RX load for a
 * dozen cycles, and checks every core event, every link event, the halt
 * records and the RAM. The same run through a traced fabric (VCD) must give
 * the same events and dump the cores' signals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/rv32_asm.h"
#include "fabric/fabric.h"
#include "fabric/fabric_rtl.h"

#define OPS (&wm_fabric_rtl)

enum {
    RB = 0x80000000u, /* the register window */
    X1 = 1, X2 = 2, X3 = 3, X4 = 4, X5 = 5, X6 = 6
};

/* ------------------------------------------------------------ programs */

typedef struct {
    uint32_t w[64];
    unsigned n;
} prog;

static uint32_t pc_of(const prog *p) { return 4u * p->n; }

static void emit(prog *p, uint32_t insn)
{
    assert_true(p->n < 64);
    p->w[p->n++] = insn;
}

static void emit_li(prog *p, unsigned rd, uint32_t v)
{
    assert_true(p->n + 2 <= 64);
    p->n += rv_li(p->w + p->n, rd, v);
}

static void load_prog(wm_fabric *f, unsigned x, unsigned y, const prog *p)
{
    uint8_t b[4 * 64];
    for (unsigned i = 0; i < p->n; i++)
        for (unsigned k = 0; k < 4; k++) b[4 * i + k] = (uint8_t)(p->w[i] >> 8 * k);
    OPS->core_load(f, x, y, 0, b, 4 * p->n);
}

static uint32_t read_word(const wm_fabric *f, unsigned x, unsigned y, uint32_t addr)
{
    uint8_t b[4];
    OPS->core_read(f, x, y, addr, b, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* ------------------------------------------------------------ recorders */

enum { MAX_EV = 256 };

typedef struct {
    wm_core_event core[MAX_EV];
    size_t ncore;
    wm_link_event link[MAX_EV];
    size_t nlink;
} recorder;

static void on_core(void *ctx, const wm_core_event *ev)
{
    recorder *r = ctx;
    assert_true(r->ncore < MAX_EV);
    r->core[r->ncore++] = *ev;
}

static void on_link(void *ctx, const wm_link_event *ev)
{
    recorder *r = ctx;
    assert_true(r->nlink < MAX_EV);
    r->link[r->nlink++] = *ev;
}

static void step_to(wm_fabric *f, uint64_t cycle)
{
    while (OPS->cycle(f) < cycle) OPS->step(f);
}

/* ------------------------------------------------------------ one message, core to core */

/* The message: header to (1,0) with one data wavelet. */
#define MSG_HDR wm_header(1, 0, 1, 0x2a)
#define MSG_DATA 0x12345678u
#define SEND_EXIT 7u

/* The two start times: the receiver first, so it waits on its RX load. */
enum { RECV_START = 2, SEND_START = 5 };

/* (0,0): li the header and the data, two TX stores, EXIT 7. Every
 * instruction takes one cycle and the TX queue never fills. */
static void sender(prog *p, uint32_t *pc_tx, uint32_t *pc_exit)
{
    memset(p, 0, sizeof *p);
    emit(p, rv_lui(X1, RB >> 12));
    emit_li(p, X2, MSG_HDR);
    emit_li(p, X3, MSG_DATA);
    *pc_tx = pc_of(p);
    emit(p, rv_sw(X2, X1, 0x00)); /* TX */
    emit(p, rv_sw(X3, X1, 0x00)); /* TX */
    emit(p, rv_addi(X4, 0, SEND_EXIT));
    *pc_exit = pc_of(p);
    emit(p, rv_sw(X4, X1, 0x20)); /* EXIT */
}

/* (1,0): two RX loads, both words stored to RAM at 0x100, EXIT with the data. */
static void receiver(prog *p)
{
    memset(p, 0, sizeof *p);
    emit(p, rv_lui(X1, RB >> 12));
    emit(p, rv_lw(X5, X1, 0x04)); /* RX: waits for the header */
    emit(p, rv_lw(X6, X1, 0x04)); /* RX: the data */
    emit(p, rv_sw(X5, 0, 0x100));
    emit(p, rv_sw(X6, 0, 0x104));
    emit(p, rv_sw(X6, X1, 0x20)); /* EXIT */
}

typedef struct {
    uint64_t cycle;
    unsigned x;
    bool retire;
    uint32_t pc;
    bool rd_we;
    unsigned rd;
    uint32_t rd_data;
    bool push;
    uint32_t push_data;
    bool pop;
} want_core;

/* Runs the message on f (a 2x1 fabric of cores) and checks everything. */
static void run_message(wm_fabric *f, void (*after_step)(wm_fabric *))
{
    prog ps, pr;
    uint32_t pc_tx, pc_exit;
    sender(&ps, &pc_tx, &pc_exit);
    receiver(&pr);
    /* The layout the cycles below assume: both li are two words. */
    assert_int_equal(pc_tx, 0x14);
    assert_int_equal(pc_exit, 0x20);
    assert_int_equal(pr.n, 6);

    recorder *rec = calloc(1, sizeof *rec);
    assert_non_null(rec);
    OPS->set_core_hook(f, on_core, rec);
    OPS->set_link_hook(f, on_link, rec);
    load_prog(f, 0, 0, &ps);
    load_prog(f, 1, 0, &pr);

    /* Loaded but not started: nothing runs. */
    step_to(f, RECV_START);
    OPS->core_start(f, 1, 0);
    wm_core_status s = OPS->core_status(f, 1, 0);
    assert_false(s.started); /* no step since core_start */
    OPS->step(f);            /* the receiver's cycle 0: fabric cycle 2 */
    if (after_step) after_step(f);
    s = OPS->core_status(f, 1, 0);
    assert_true(s.started);
    assert_int_equal(s.retired, 0);
    assert_false(s.waiting);

    bool waited = false;
    while (OPS->cycle(f) < 40) {
        const uint64_t c = OPS->cycle(f);
        if (c == SEND_START) OPS->core_start(f, 0, 0);
        /* The receiver's lw at pc 4 is in X from its cycle 2 (fabric 4);
         * the header reaches the head of its RX queue in cycle 16 (see
         * below), so the load waits in cycles 4..15 and pops in 16; the
         * status after cycle c-1 says whether it waited in c-1. */
        s = OPS->core_status(f, 1, 0);
        const bool want_wait = c >= 5 && c <= 16;
        if (s.waiting != want_wait) fail_msg("receiver waiting=%d at cycle %llu", s.waiting, (unsigned long long)c);
        if (want_wait) {
            assert_int_equal(s.pc, 4);
            waited = true;
        }
        OPS->step(f);
        if (after_step) after_step(f);
    }
    assert_true(waited);

    /* The sender, started at 5: the TX stores at pc 0x14 and 0x18 are in X
     * in its cycles 6 and 7, fabric cycles 11 and 12; the header is in
     * (0,0)'s E register at 11 + 2 = 13, in (1,0)'s L register at
     * 11 + 2 + 2 = 15 and at the head of its RX queue at 16; the data one
     * cycle behind. */
    const wm_link_event want_links[] = {
        {13, 0, 0, WM_PORT_E, MSG_HDR},
        {14, 0, 0, WM_PORT_E, MSG_DATA},
        {15, 1, 0, WM_PORT_L, MSG_HDR},
        {16, 1, 0, WM_PORT_L, MSG_DATA},
    };
    const size_t nlinks = sizeof want_links / sizeof want_links[0];
    assert_int_equal(rec->nlink, nlinks);
    for (size_t i = 0; i < nlinks; i++) {
        const wm_link_event *g = &rec->link[i], *w = &want_links[i];
        if (g->cycle != w->cycle || g->x != w->x || g->y != w->y || g->port != w->port || g->data != w->data)
            fail_msg("link event %zu: cycle %llu (%u,%u) port %u %08x, want cycle %llu (%u,%u) port %u %08x", i,
                     (unsigned long long)g->cycle, g->x, g->y, g->port, g->data, (unsigned long long)w->cycle, w->x,
                     w->y, w->port, w->data);
    }

    /* Every eventful core cycle, in (cycle, y, x) order. The sender retires
     * pc 4k - 4 in fabric cycle 5 + k (k = 1..9); the receiver retires its
     * lui in 2 + 1 = 3, pops the header in 16 (the load's access cycle) and
     * writes it back at the end of 17, takes the data (in RX since 17) in
     * 18 and 19, then stores in 20 and 21 and exits in 22. */
    const want_core want[] = {
        {3, 1, true, 0x00, true, X1, RB, false, 0, false},
        {6, 0, true, 0x00, true, X1, RB, false, 0, false},
        {7, 0, true, 0x04, true, X2, MSG_HDR & ~0xfffu, false, 0, false},
        {8, 0, true, 0x08, true, X2, MSG_HDR, false, 0, false},
        {9, 0, true, 0x0c, true, X3, (MSG_DATA + 0x800) & ~0xfffu, false, 0, false},
        {10, 0, true, 0x10, true, X3, MSG_DATA, false, 0, false},
        {11, 0, true, 0x14, false, 0, 0, true, MSG_HDR, false},
        {12, 0, true, 0x18, false, 0, 0, true, MSG_DATA, false},
        {13, 0, true, 0x1c, true, X4, SEND_EXIT, false, 0, false},
        {14, 0, true, 0x20, false, 0, 0, false, 0, false},
        {16, 1, false, 0, false, 0, 0, false, 0, true},
        {17, 1, true, 0x04, true, X5, MSG_HDR, false, 0, false},
        {18, 1, false, 0, false, 0, 0, false, 0, true},
        {19, 1, true, 0x08, true, X6, MSG_DATA, false, 0, false},
        {20, 1, true, 0x0c, false, 0, 0, false, 0, false},
        {21, 1, true, 0x10, false, 0, 0, false, 0, false},
        {22, 1, true, 0x14, false, 0, 0, false, 0, false},
    };
    const size_t nwant = sizeof want / sizeof want[0];
    assert_int_equal(rec->ncore, nwant);
    for (size_t i = 0; i < nwant; i++) {
        const wm_core_event *g = &rec->core[i];
        const want_core *w = &want[i];
        const wm_core_cycle *o = &g->what;
        const bool ok = g->cycle == w->cycle && g->x == w->x && g->y == 0 && o->retire == w->retire &&
                        (!w->retire || o->retire_pc == w->pc) && o->rd_we == w->rd_we &&
                        (!w->rd_we || (o->rd == w->rd && o->rd_data == w->rd_data)) && o->push == w->push &&
                        (!w->push || o->push_data == w->push_data) && o->pop == w->pop;
        if (!ok)
            fail_msg("core event %zu: cycle %llu (%u,%u) retire %d pc %#x rd_we %d x%u=%#x push %d %#x pop %d; "
                     "want cycle %llu x %u retire %d pc %#x rd_we %d x%u=%#x push %d %#x pop %d",
                     i, (unsigned long long)g->cycle, g->x, g->y, o->retire, o->retire_pc, o->rd_we, o->rd,
                     o->rd_data, o->push, o->push_data, o->pop, (unsigned long long)w->cycle, w->x, w->retire, w->pc,
                     w->rd_we, w->rd, w->rd_data, w->push, w->push_data, w->pop);
        if (o->retire) assert_int_equal(o->retire_insn, (g->x == 0 ? ps.w : pr.w)[o->retire_pc / 4]);
    }

    /* The halts, the counts and the RAM. */
    s = OPS->core_status(f, 0, 0);
    assert_true(s.started);
    assert_false(s.waiting);
    assert_int_equal(s.retired, 9);
    assert_int_equal(s.halt.state, WM_CORE_EXITED);
    assert_int_equal(s.halt.exit_code, SEND_EXIT);
    assert_int_equal(s.halt.pc, 0x20);
    assert_int_equal(s.halt.insn, ps.w[8]);
    assert_int_equal(s.pc, 0x20); /* frozen at the EXIT store */

    s = OPS->core_status(f, 1, 0);
    assert_int_equal(s.retired, 6);
    assert_int_equal(s.halt.state, WM_CORE_EXITED);
    assert_int_equal(s.halt.exit_code, MSG_DATA);
    assert_int_equal(s.halt.cause, WM_CORE_OK);
    assert_int_equal(s.halt.pc, 0x14);
    assert_int_equal(s.halt.insn, pr.w[5]);
    assert_int_equal(read_word(f, 1, 0, 0x100), MSG_HDR);
    assert_int_equal(read_word(f, 1, 0, 0x104), MSG_DATA);
    assert_int_equal(read_word(f, 0, 0, 0x100), 0);

    /* The queues are empty and nothing refused an access. */
    for (unsigned x = 0; x < 2; x++) {
        const wm_pe_status ps_ = OPS->pe_status(f, x, 0);
        assert_int_equal(ps_.tx_count, 0);
        assert_int_equal(ps_.rx_count, 0);
        assert_int_equal(ps_.status, 0);
    }
    assert_true(OPS->quiescent(f));
    free(rec);
}

static void test_message_between_two_cores(void **state)
{
    (void)state;
    wm_fabric *f = OPS->create_cores(2, 1);
    assert_non_null(f);
    run_message(f, NULL);
    OPS->destroy(f);
}

/* A 2x2 fabric: the same message along row 0 while row 1's cores stay in
 * reset, and the same events (row 1 adds none). */
static void test_message_on_a_2x2_fabric(void **state)
{
    (void)state;
    wm_fabric *f = OPS->create_cores(2, 2);
    assert_non_null(f);
    run_message(f, NULL);
    for (unsigned x = 0; x < 2; x++) {
        const wm_core_status s = OPS->core_status(f, x, 1);
        assert_false(s.started);
        assert_int_equal(s.retired, 0);
    }
    OPS->destroy(f);
}

/* The same run on a traced fabric with cores: the same events, and the
 * dump holds both the tile's and the core's observation modules. */
static void dump_now(wm_fabric *f) { wm_fabric_rtl_dump(f); }

static void test_traced_fabric_with_cores(void **state)
{
    (void)state;
    const char *path = BUILD_DIR "/test_tile_core_rtl.vcd";
    const char *const scopes[] = {"t0", "t1"};
    const wm_rtl_trace tr = {.path = path, .vcd = true, .x0 = 0, .y0 = 0, .x1 = 1, .y1 = 0, .tile_scope = scopes,
                             .cores = true};
    wm_fabric *f = wm_fabric_rtl_create_traced(2, 1, &tr, NULL);
    assert_non_null(f);
    wm_fabric_rtl_dump(f);
    run_message(f, dump_now);
    OPS->destroy(f);

    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    static char text[1 << 20];
    const size_t n = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[n] = '\0';
    assert_non_null(strstr(text, "$scope module u_core_waves"));
    assert_non_null(strstr(text, "$scope module u_waves"));
    assert_non_null(strstr(text, " retire_insn "));
    assert_non_null(strstr(text, " rd_data "));
    assert_non_null(strstr(text, " fault_cause "));
    assert_non_null(strstr(text, " north_valid "));
    /* Tracing is off in the core and the RAM. */
    assert_null(strstr(text, "mem_q"));
    assert_null(strstr(text, "u_regfile"));
}

/* ------------------------------------------------------------ start and reset */

/* Both tiles hold the same program; only (1,0) is started. */
static void test_only_a_started_core_runs(void **state)
{
    (void)state;
    wm_fabric *f = OPS->create_cores(2, 1);
    assert_non_null(f);
    recorder *rec = calloc(1, sizeof *rec);
    assert_non_null(rec);
    OPS->set_core_hook(f, on_core, rec);

    prog p = {0};
    for (unsigned i = 0; i < 16; i++) emit(&p, rv_addi(X1, X1, 1));
    emit(&p, rv_sw(X1, 0, 0x200));
    emit(&p, rv_lui(X2, RB >> 12));
    emit(&p, rv_sw(X1, X2, 0x20)); /* EXIT 16 */
    load_prog(f, 0, 0, &p);
    load_prog(f, 1, 0, &p);

    /* A fresh core: in reset, RAM as loaded, nothing else. */
    wm_core_status s = OPS->core_status(f, 1, 0);
    assert_false(s.started);
    assert_false(s.waiting);
    assert_int_equal(s.retired, 0);
    assert_int_equal(s.halt.state, WM_CORE_RUNNING);
    assert_int_equal(read_word(f, 1, 0, 0), p.w[0]);
    assert_int_equal(read_word(f, 1, 0, 4 * p.n), 0);

    OPS->core_start(f, 1, 0);
    /* Cycle 0 fetches; the instruction at pc 4k retires in cycle k + 1. */
    step_to(f, 10);
    assert_int_equal(OPS->core_status(f, 1, 0).retired, 9);
    assert_int_equal(OPS->core_status(f, 1, 0).pc, 4 * 9);
    step_to(f, 60);

    s = OPS->core_status(f, 1, 0);
    assert_true(s.started);
    assert_int_equal(s.retired, 19);
    assert_int_equal(s.halt.state, WM_CORE_EXITED);
    assert_int_equal(s.halt.exit_code, 16);
    assert_int_equal(read_word(f, 1, 0, 0x200), 16);

    s = OPS->core_status(f, 0, 0);
    assert_false(s.started);
    assert_false(s.waiting);
    assert_int_equal(s.retired, 0);
    assert_int_equal(s.halt.state, WM_CORE_RUNNING);
    assert_int_equal(s.pc, 0);
    assert_int_equal(read_word(f, 0, 0, 0x200), 0);

    assert_int_equal(rec->ncore, 19);
    for (size_t i = 0; i < rec->ncore; i++) {
        assert_int_equal(rec->core[i].x, 1);
        assert_int_equal(rec->core[i].cycle, i + 1);
        assert_int_equal(rec->core[i].what.retire_pc, 4 * i);
    }

    /* Starting it late: its cycle 0 is the step after core_start. */
    OPS->core_start(f, 0, 0);
    OPS->step(f); /* cycle 60: fetch */
    assert_int_equal(OPS->core_status(f, 0, 0).retired, 0);
    OPS->step(f); /* cycle 61: pc 0 retires */
    assert_int_equal(OPS->core_status(f, 0, 0).retired, 1);
    assert_int_equal(rec->ncore, 20);
    assert_int_equal(rec->core[19].cycle, 61);
    assert_int_equal(rec->core[19].x, 0);

    OPS->destroy(f);
    free(rec);
}

/* ------------------------------------------------------------ faults */

static void test_illegal_instruction_halts_with_its_pc(void **state)
{
    (void)state;
    wm_fabric *f = OPS->create_cores(2, 1);
    assert_non_null(f);
    recorder *rec = calloc(1, sizeof *rec);
    assert_non_null(rec);
    OPS->set_core_hook(f, on_core, rec);

    const uint32_t bad = 0xffffffffu;
    assert_int_equal(rv_class(bad), RV_ILLEGAL);
    prog p = {0};
    emit(&p, rv_addi(X1, 0, 1));
    emit(&p, rv_addi(X2, 0, 2));
    emit(&p, bad); /* pc 8 */
    emit(&p, rv_addi(X3, 0, 3));
    load_prog(f, 1, 0, &p);
    OPS->core_start(f, 1, 0);

    /* Started at 0: pc 8 is in X in cycle 3, faults there and halts at its
     * end, so the halt shows from cycle 4 on. */
    step_to(f, 3);
    assert_int_equal(OPS->core_status(f, 1, 0).halt.state, WM_CORE_RUNNING);
    assert_int_equal(OPS->core_status(f, 1, 0).pc, 8);
    OPS->step(f);
    wm_core_status s = OPS->core_status(f, 1, 0);
    assert_int_equal(s.halt.state, WM_CORE_FAULTED);
    assert_int_equal(s.halt.cause, WM_CORE_FAULT_ILLEGAL);
    assert_int_equal(s.halt.pc, 8);
    assert_int_equal(s.halt.insn, bad);
    assert_int_equal(s.retired, 2);

    step_to(f, 30);
    s = OPS->core_status(f, 1, 0);
    assert_int_equal(s.halt.state, WM_CORE_FAULTED);
    assert_int_equal(s.halt.cause, WM_CORE_FAULT_ILLEGAL);
    assert_int_equal(s.pc, 8); /* frozen */
    assert_int_equal(s.retired, 2);
    assert_false(s.waiting);

    /* Two retires, in cycles 1 and 2; nothing after the fault. */
    assert_int_equal(rec->ncore, 2);
    assert_int_equal(rec->core[0].cycle, 1);
    assert_int_equal(rec->core[1].cycle, 2);
    assert_int_equal(rec->core[1].what.rd, X2);
    assert_int_equal(rec->core[1].what.rd_data, 2);

    OPS->destroy(f);
    free(rec);
}

/* The RAM is WM_TILE_MEM_BYTES: its last word is reachable, and a load is
 * little-endian bytes at any alignment. */
static void test_load_and_read_bytes(void **state)
{
    (void)state;
    wm_fabric *f = OPS->create_cores(1, 1);
    assert_non_null(f);
    const uint8_t b[] = {0x11, 0x22, 0x33, 0x44, 0x55};
    OPS->core_load(f, 0, 0, 0x101, b, sizeof b);
    assert_int_equal(read_word(f, 0, 0, 0x100), 0x33221100u);
    assert_int_equal(read_word(f, 0, 0, 0x104), 0x00005544u);
    OPS->core_load(f, 0, 0, WM_TILE_MEM_BYTES - 4, b, 4);
    assert_int_equal(read_word(f, 0, 0, WM_TILE_MEM_BYTES - 4), 0x44332211u);
    uint8_t got[3];
    OPS->core_read(f, 0, 0, 0x102, got, 3);
    assert_int_equal(got[0], 0x22);
    assert_int_equal(got[1], 0x33);
    assert_int_equal(got[2], 0x44);
    OPS->destroy(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_message_between_two_cores),
        cmocka_unit_test(test_message_on_a_2x2_fabric),
        cmocka_unit_test(test_traced_fabric_with_cores),
        cmocka_unit_test(test_only_a_started_core_runs),
        cmocka_unit_test(test_illegal_instruction_halts_with_its_pc),
        cmocka_unit_test(test_load_and_read_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
