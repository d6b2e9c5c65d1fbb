/* test_core_hold.c: a debugger's hold on one PE core (core_hold,
 * csim/fabric/fabric.h; rtl/core/wm_core.v's hold_i), on the rtl and the
 * sw backend.
 *
 * GDB's server holds a core whose breakpoint it has not reported yet
 * (docs/debugging.md): while held, the core spends no cycle, and the
 * fabric runs on. Three checks, each on both backends. A core of
 * straight-line code held for K cycles retires every later instruction
 * exactly K cycles later, reads a tsc K counts later, and its PC and
 * retired count stand still meanwhile. A receiver held while its message
 * arrives leaves it in its RX queue and pops it K cycles later; the link
 * events are the run's without the hold. Seeded random programs (the
 * register window included) on a 3x3 mesh under a seeded schedule of
 * holds give the same core events, link events and RAM on the two
 * backends: a backend whose hold froze less than the whole core (or did
 * nothing) differs from the other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "event_log.h"

#include "core/randprog.h"
#include "core/rv32_asm.h"
#include "fabric/fabric.h"
#include "wavelet.h"

enum { RB = 0x80000000u, MEM = WM_TILE_MEM_BYTES, MAX_WORDS = 4096 };

static const wm_fabric_ops *const backends[] = {&wm_fabric_rtl, &wm_fabric_sw};

/* ------------------------------------------------------------ programs */

typedef struct {
    uint32_t w[MAX_WORDS];
    unsigned n;
} prog;

static void emit(prog *p, uint32_t insn)
{
    assert_true(p->n < MAX_WORDS);
    p->w[p->n++] = insn;
}

static void emit_li(prog *p, unsigned rd, uint32_t v)
{
    assert_true(p->n + 2 <= MAX_WORDS);
    p->n += rv_li(p->w + p->n, rd, v);
}

static void load_prog(const wm_fabric_ops *ops, wm_fabric *f, unsigned x, unsigned y, const prog *p)
{
    static uint8_t b[4 * MAX_WORDS];
    for (unsigned i = 0; i < p->n; i++)
        for (unsigned k = 0; k < 4; k++) b[4 * i + k] = (uint8_t)(p->w[i] >> 8 * k);
    ops->core_load(f, x, y, 0, b, 4 * p->n);
}

/* ------------------------------------------------------------ logs */

/* What two core events say, their flags and the fields the flags give a
 * meaning (the RTL drives the others with whatever its datapath holds). */
static bool same_core_event(const wm_core_event *a, const wm_core_event *b)
{
    const wm_core_cycle *p = &a->what, *q = &b->what;
    return a->cycle == b->cycle && a->x == b->x && a->y == b->y && p->retire == q->retire &&
           (!p->retire || (p->retire_pc == q->retire_pc && p->retire_insn == q->retire_insn)) && p->rd_we == q->rd_we &&
           (!p->rd_we || (p->rd == q->rd && p->rd_data == q->rd_data)) && p->push == q->push &&
           (!p->push || p->push_data == q->push_data) && p->pop == q->pop && a->pop_data == b->pop_data;
}

static bool same_link_event(const wm_link_event *a, const wm_link_event *b)
{
    return a->cycle == b->cycle && a->x == b->x && a->y == b->y && a->port == b->port && a->data == b->data;
}

static void assert_same_links(const link_log *a, const link_log *b)
{
    assert_int_equal(a->n, b->n);
    for (size_t k = 0; k < a->n; k++)
        if (!same_link_event(&a->ev[k], &b->ev[k]))
            fail_msg("link event %zu differs: cycle %llu (%u,%u) port %u %08x, and cycle %llu (%u,%u) port %u %08x", k,
                     (unsigned long long)a->ev[k].cycle, a->ev[k].x, a->ev[k].y, a->ev[k].port, a->ev[k].data,
                     (unsigned long long)b->ev[k].cycle, b->ev[k].x, b->ev[k].y, b->ev[k].port, b->ev[k].data);
}

/* A fabric with cores, w x h, one thread; its logs hooked. */
static wm_fabric *make(const wm_fabric_ops *ops, unsigned w, unsigned h, core_log *cl, link_log *ll)
{
    const wm_fabric_config one_thread = {.threads = WM_SW_THREADS_ONE};
    wm_fabric *f = wm_fabric_create(ops, w, h, true, &one_thread);
    assert_non_null(f);
    assert_non_null(ops->core_hold);
    memset(cl, 0, sizeof *cl);
    memset(ll, 0, sizeof *ll);
    ops->set_core_hook(f, log_core, cl);
    ops->set_link_hook(f, log_link, ll);
    return f;
}

/* ------------------------------------------------------------ a computing core */

enum { STRAIGHT = 12, HOLD_AT = 6, HOLD_FOR = 9 };

/* RB into x1, then STRAIGHT additions into x5, TSC_LO into x6, EXIT. */
static void straight_program(prog *p)
{
    p->n = 0;
    emit(p, rv_lui(1, RB >> 12));
    emit(p, rv_addi(5, 0, 0));
    for (unsigned i = 0; i < STRAIGHT; i++) emit(p, rv_addi(5, 5, 1));
    emit(p, rv_lw(6, 1, WM_CORE_REG_TSC_LO));
    emit(p, rv_sw(0, 1, WM_CORE_REG_EXIT));
}

typedef struct {
    core_log cores;
    uint32_t x5, x6;
    uint64_t retired;
} straight_run;

/* The straight program on (0,0), held from the step that simulates cycle
 * HOLD_AT for `hold` cycles (0: never), to its halt. */
static void run_straight(const wm_fabric_ops *ops, unsigned hold, straight_run *out)
{
    link_log links;
    wm_fabric *f = make(ops, 1, 1, &out->cores, &links);
    static prog p;
    straight_program(&p);
    load_prog(ops, f, 0, 0, &p);
    ops->core_start(f, 0, 0);
    wm_core_status at_hold = {0};
    for (unsigned guard = 0; guard < 200; guard++) {
        const uint64_t c = ops->cycle(f);
        if (hold && c == HOLD_AT) {
            ops->core_hold(f, 0, 0, true);
            at_hold = ops->core_status(f, 0, 0);
        }
        if (hold && c > HOLD_AT && c < HOLD_AT + hold) {
            /* while held: the PC and the retired count stand still */
            const wm_core_status st = ops->core_status(f, 0, 0);
            assert_int_equal(st.pc, at_hold.pc);
            assert_int_equal(st.retired, at_hold.retired);
        }
        if (hold && c == HOLD_AT + hold) ops->core_hold(f, 0, 0, false);
        ops->step(f);
        if (ops->core_status(f, 0, 0).halt.state != WM_CORE_RUNNING) break;
    }
    const wm_core_status st = ops->core_status(f, 0, 0);
    assert_int_equal(st.halt.state, WM_CORE_EXITED);
    uint32_t regs[32];
    ops->core_regs(f, 0, 0, regs);
    out->x5 = regs[5];
    out->x6 = regs[6];
    out->retired = st.retired;
    free(links.ev);
    ops->destroy(f);
}

/* Held for HOLD_FOR cycles from cycle HOLD_AT, the core retires every
 * instruction it had not retired by then HOLD_FOR cycles later, the same
 * instructions with the same results, and reads a tsc HOLD_FOR counts
 * later; one-cycle code from pc 0 retires pc p in cycle p / 4 + 1. */
static void test_held_core_resumes_later_by_the_hold(void **state)
{
    (void)state;
    for (size_t b = 0; b < sizeof backends / sizeof *backends; b++) {
        const wm_fabric_ops *ops = backends[b];
        straight_run free_run, held;
        run_straight(ops, 0, &free_run);
        run_straight(ops, HOLD_FOR, &held);
        assert_int_equal(free_run.x5, STRAIGHT);
        assert_int_equal(held.x5, STRAIGHT);
        assert_int_equal(held.retired, free_run.retired);
        assert_int_equal(held.x6, free_run.x6 + HOLD_FOR);
        assert_int_equal(held.cores.n, free_run.cores.n);
        for (size_t k = 0; k < held.cores.n; k++) {
            const wm_core_event *a = &free_run.cores.ev[k], *h = &held.cores.ev[k];
            if (a->what.retire && a->what.retire_pc < 4 * (STRAIGHT + 2))
                assert_int_equal(a->cycle, a->what.retire_pc / 4 + 1);
            assert_int_equal(h->cycle, a->cycle + (a->cycle >= HOLD_AT ? HOLD_FOR : 0));
            assert_int_equal(h->what.retire, a->what.retire);
            assert_int_equal(h->what.retire_pc, a->what.retire_pc);
            /* the TSC_LO load, the one read of time */
            const bool tsc = a->what.retire_pc == 4 * (STRAIGHT + 2);
            assert_int_equal(h->what.rd_data, a->what.rd_data + (tsc ? HOLD_FOR : 0));
        }
        free(free_run.cores.ev);
        free(held.cores.ev);
    }
}

/* ------------------------------------------------------------ a held receiver */

enum { RECV_HOLD_AT = 3, RECV_HOLD_FOR = 20 };

/* (0,0) sends a header and one data wavelet (0x77) to (1,0) and exits;
 * (1,0) pops both into x3 and x4 and exits. */
static void sender_receiver(prog *s, prog *r)
{
    s->n = 0;
    emit(s, rv_lui(1, RB >> 12));
    emit_li(s, 2, wm_header(1, 0, 1, 9));
    emit(s, rv_addi(3, 0, 0x77));
    emit(s, rv_sw(2, 1, WM_CORE_REG_TX));
    emit(s, rv_sw(3, 1, WM_CORE_REG_TX));
    emit(s, rv_sw(0, 1, WM_CORE_REG_EXIT));
    r->n = 0;
    emit(r, rv_lui(1, RB >> 12));
    emit(r, rv_lw(3, 1, WM_CORE_REG_RX));
    emit(r, rv_lw(4, 1, WM_CORE_REG_RX));
    emit(r, rv_sw(0, 1, WM_CORE_REG_EXIT));
}

typedef struct {
    core_log cores;
    link_log links;
    uint32_t x3, x4;
    unsigned rx_during_hold; /* the receiver's RX count at the hold's last cycle */
} message_run;

static void run_message(const wm_fabric_ops *ops, unsigned hold, message_run *out)
{
    wm_fabric *f = make(ops, 2, 1, &out->cores, &out->links);
    static prog s, r;
    sender_receiver(&s, &r);
    load_prog(ops, f, 0, 0, &s);
    load_prog(ops, f, 1, 0, &r);
    ops->core_start(f, 0, 0);
    ops->core_start(f, 1, 0);
    out->rx_during_hold = 0;
    for (unsigned guard = 0; guard < 300; guard++) {
        const uint64_t c = ops->cycle(f);
        if (hold && c == RECV_HOLD_AT) ops->core_hold(f, 1, 0, true);
        if (hold && c == RECV_HOLD_AT + hold) {
            out->rx_during_hold = ops->pe_status(f, 1, 0).rx_count;
            ops->core_hold(f, 1, 0, false);
        }
        ops->step(f);
        if (ops->core_status(f, 0, 0).halt.state != WM_CORE_RUNNING &&
            ops->core_status(f, 1, 0).halt.state != WM_CORE_RUNNING && ops->quiescent(f))
            break;
    }
    uint32_t regs[32];
    ops->core_regs(f, 1, 0, regs);
    out->x3 = regs[3];
    out->x4 = regs[4];
    ops->destroy(f);
}

/* The receiver, held from cycle RECV_HOLD_AT for RECV_HOLD_FOR cycles
 * while it waits on RX: the message arrives all the same (the links carry
 * what they carry without the hold) and waits in the RX queue, both
 * wavelets; the receiver's pops come after the hold; the sender, never
 * held, does what it does without the hold. */
static void test_held_receiver_leaves_the_message_queued(void **state)
{
    (void)state;
    for (size_t b = 0; b < sizeof backends / sizeof *backends; b++) {
        const wm_fabric_ops *ops = backends[b];
        message_run free_run, held;
        run_message(ops, 0, &free_run);
        run_message(ops, RECV_HOLD_FOR, &held);
        assert_int_equal(free_run.x3, wm_header(1, 0, 1, 9));
        assert_int_equal(free_run.x4, 0x77);
        assert_int_equal(held.x3, free_run.x3);
        assert_int_equal(held.x4, free_run.x4);
        assert_int_equal(held.rx_during_hold, 2);
        assert_same_links(&held.links, &free_run.links);
        size_t pops = 0;
        for (size_t k = 0; k < held.cores.n; k++) {
            const wm_core_event *e = &held.cores.ev[k];
            if (e->x == 1 && e->what.pop) {
                assert_true(e->cycle >= RECV_HOLD_AT + RECV_HOLD_FOR);
                pops++;
            }
            if (e->x == 1 && e->cycle >= RECV_HOLD_AT) assert_true(e->cycle >= RECV_HOLD_AT + RECV_HOLD_FOR);
        }
        assert_int_equal(pops, 2);
        size_t sender_free = 0, sender_held = 0, skipped = 0;
        for (size_t k = 0; k < free_run.cores.n; k++) sender_free += free_run.cores.ev[k].x == 0;
        for (size_t k = 0; k < held.cores.n; k++)
            if (held.cores.ev[k].x == 0) {
                while (free_run.cores.ev[sender_held + skipped].x != 0) skipped++;
                assert_true(same_core_event(&held.cores.ev[k], &free_run.cores.ev[sender_held + skipped]));
                sender_held++;
            }
        assert_int_equal(sender_held, sender_free);
        free(free_run.cores.ev);
        free(free_run.links.ev);
        free(held.cores.ev);
        free(held.links.ev);
    }
}

/* ------------------------------------------------------------ random programs, random holds */

enum { SIDE = 3, RANDOM_CYCLES = 4000 };

/* A feeder: `count` messages of i % 4 data wavelets to the edge tiles in
 * turn, then EXIT. */
static void feeder(prog *p, unsigned me, unsigned count)
{
    static const unsigned edges[4][2] = {{1, 0}, {0, 1}, {2, 1}, {1, 2}};
    p->n = 0;
    emit(p, rv_lui(1, RB >> 12));
    for (unsigned i = 0; i < count; i++) {
        const unsigned *t = edges[i % 4];
        emit_li(p, 2, wm_header(t[0], t[1], i % 4, me));
        emit(p, rv_sw(2, 1, WM_CORE_REG_TX));
        for (unsigned d = 0; d < i % 4; d++) {
            emit(p, rv_addi(3, 0, (int32_t)(i * 4 + d) & 0x7ff));
            emit(p, rv_sw(3, 1, WM_CORE_REG_TX));
        }
    }
    emit(p, rv_sw(0, 1, WM_CORE_REG_EXIT));
}

typedef struct {
    core_log cores;
    link_log links;
    uint8_t *mem; /* SIDE * SIDE RAMs */
    wm_core_status st[SIDE * SIDE];
    uint64_t held_cycles;
} random_run;

/* Random programs on the edge tiles, feeders on the corners, nothing in
 * the centre; before every step each started core is held or released
 * as a seeded coin says (a hold lasts 1 to 8 steps). */
static void run_random(const wm_fabric_ops *ops, uint64_t seed, random_run *out)
{
    wm_fabric *f = make(ops, SIDE, SIDE, &out->cores, &out->links);
    static prog p;
    for (unsigned k = 0; k < SIDE * SIDE; k++) {
        const unsigned x = k % SIDE, y = k / SIDE;
        if (k == 4) continue;
        if (x != 1 && y != 1) {
            feeder(&p, k, 100);
        } else {
            wm_randprog_cfg cfg;
            wm_randprog_defaults(&cfg);
            cfg.mem_bytes = MEM;
            cfg.items = 250;
            cfg.window_permille = 200;
            wm_randprog_info info;
            assert_true(wm_randprog(seed * 100 + k, &cfg, p.w, MAX_WORDS, &info));
            p.n = info.words;
        }
        load_prog(ops, f, x, y, &p);
        ops->core_start(f, x, y);
    }
    wm_xorshift rng;
    wm_xs_seed(&rng, seed);
    unsigned left[SIDE * SIDE] = {0};
    out->held_cycles = 0;
    for (unsigned c = 0; c < RANDOM_CYCLES; c++) {
        for (unsigned k = 0; k < SIDE * SIDE; k++) {
            if (k == 4) continue;
            if (left[k] && --left[k] == 0) ops->core_hold(f, k % SIDE, k / SIDE, false);
            else if (!left[k] && wm_xs_below(&rng, 12) == 0) {
                left[k] = 1 + wm_xs_below(&rng, 8);
                ops->core_hold(f, k % SIDE, k / SIDE, true);
            }
            out->held_cycles += left[k] != 0;
        }
        ops->step(f);
    }
    out->mem = malloc((size_t)SIDE * SIDE * MEM);
    assert_non_null(out->mem);
    for (unsigned k = 0; k < SIDE * SIDE; k++) {
        ops->core_read(f, k % SIDE, k / SIDE, 0, out->mem + (size_t)k * MEM, MEM);
        out->st[k] = ops->core_status(f, k % SIDE, k / SIDE);
    }
    ops->destroy(f);
}

static void test_random_holds_agree_on_both_backends(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        random_run rtl, sw;
        run_random(&wm_fabric_rtl, seed, &rtl);
        run_random(&wm_fabric_sw, seed, &sw);
        /* the schedule held cores for a good share of the run */
        assert_true(rtl.held_cycles > RANDOM_CYCLES);
        assert_int_equal(rtl.held_cycles, sw.held_cycles);
        assert_int_equal(rtl.cores.n, sw.cores.n);
        for (size_t k = 0; k < rtl.cores.n; k++) {
            if (same_core_event(&rtl.cores.ev[k], &sw.cores.ev[k])) continue;
            fail_msg("seed %llu: core event %zu differs: rtl cycle %llu (%u,%u) retire %d pc %08x, sw cycle %llu "
                     "(%u,%u) retire %d pc %08x",
                     (unsigned long long)seed, k, (unsigned long long)rtl.cores.ev[k].cycle, rtl.cores.ev[k].x,
                     rtl.cores.ev[k].y, rtl.cores.ev[k].what.retire, rtl.cores.ev[k].what.retire_pc,
                     (unsigned long long)sw.cores.ev[k].cycle, sw.cores.ev[k].x, sw.cores.ev[k].y,
                     sw.cores.ev[k].what.retire, sw.cores.ev[k].what.retire_pc);
        }
        assert_same_links(&rtl.links, &sw.links);
        assert_memory_equal(rtl.mem, sw.mem, (size_t)SIDE * SIDE * MEM);
        for (unsigned k = 0; k < SIDE * SIDE; k++) {
            assert_int_equal(rtl.st[k].started, sw.st[k].started);
            assert_int_equal(rtl.st[k].waiting, sw.st[k].waiting);
            assert_int_equal(rtl.st[k].pc, sw.st[k].pc);
            assert_int_equal(rtl.st[k].retired, sw.st[k].retired);
            assert_int_equal(rtl.st[k].halt.state, sw.st[k].halt.state);
        }
        /* the programs ran: thousands of events, some of them messages */
        size_t pushes = 0;
        for (size_t k = 0; k < rtl.cores.n; k++) pushes += rtl.cores.ev[k].what.push;
        assert_true(rtl.cores.n > 2000);
        assert_true(pushes > 100);
        free(rtl.cores.ev);
        free(rtl.links.ev);
        free(rtl.mem);
        free(sw.cores.ev);
        free(sw.links.ev);
        free(sw.mem);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_held_core_resumes_later_by_the_hold),
        cmocka_unit_test(test_held_receiver_leaves_the_message_queued),
        cmocka_unit_test(test_random_holds_agree_on_both_backends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
