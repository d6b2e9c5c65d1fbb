/* test_fabric_sw_cores.c: the sw backend's PE cores (create_cores,
 * docs/core.md on docs/fabric.md's tiles).
 *
 * Hand-assembled programs (core/rv32_asm.h) send one-data-wavelet messages
 * from core to core through the TX register and receive them through RX,
 * on 2x1 and 2x2 meshes; the cycles of every core event and link event are
 * worked out from the two specs and asserted exactly. Then the edges of
 * the contract: a stalled receiver reports waiting, a fault halts with its
 * cause, PC and word, a core never started never runs, a perturbation of
 * the model still applies. Two references check the rest: the ISS alone
 * (a core that only computes retires on the fabric exactly what a
 * standalone wm_iss retires), and the definition of a core on a tile — a
 * standalone wm_iss per tile driven by the host through pe_status,
 * pe_push and pe_pop on a fabric without cores — against which busy
 * programs, TX stalls and seeded random programs must give the same core
 * events, link events and RAM, on one thread and on two. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "event_log.h"

#include "core/iss.h"
#include "core/randprog.h"
#include "core/rv32_asm.h"
#include "fabric/fabric.h"
#include "fabric/fabric_sw.h"

static const wm_fabric_ops *const ops = &wm_fabric_sw;
/* One thread: these tests look at single cycles, not at the threads. */
static const wm_fabric_config one_thread = {.threads = WM_SW_THREADS_ONE};

enum { RB = 0x80000000u, MEM = WM_TILE_MEM_BYTES };

/* ------------------------------------------------------------ programs */

typedef struct {
    uint32_t w[4096];
    unsigned n;
} prog;

static unsigned P(prog *p, uint32_t w)
{
    assert_true(p->n < 4096);
    p->w[p->n] = w;
    return p->n++;
}

static void P_li(prog *p, unsigned rd, uint32_t v)
{
    uint32_t w[2];
    const unsigned k = rv_li(w, rd, v);
    for (unsigned i = 0; i < k; i++) P(p, w[i]);
}

/* The words, little-endian, at address 0 of the tile's RAM. */
static void load_words(wm_fabric *f, unsigned x, unsigned y, const uint32_t *w, unsigned n)
{
    uint8_t *b = malloc(4u * n + 1);
    assert_non_null(b);
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < 4; k++) b[4 * i + k] = (uint8_t)(w[i] >> 8 * k);
    ops->core_load(f, x, y, 0, b, 4u * n);
    free(b);
}

static void load_prog(wm_fabric *f, unsigned x, unsigned y, const prog *p) { load_words(f, x, y, p->w, p->n); }

static uint32_t read_word(wm_fabric *f, unsigned x, unsigned y, uint32_t addr)
{
    uint8_t b[4];
    ops->core_read(f, x, y, addr, b, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* ------------------------------------------------------------ logs */

static void assert_link(const wm_link_event *ev, uint64_t cycle, unsigned x, unsigned y, unsigned port, uint32_t data)
{
    assert_int_equal(ev->cycle, cycle);
    assert_int_equal(ev->x, x);
    assert_int_equal(ev->y, y);
    assert_int_equal(ev->port, port);
    assert_int_equal(ev->data, data);
}

/* The events of tile (x, y) in the log, in order, into out (at most max). */
static size_t events_of(const core_log *l, unsigned x, unsigned y, wm_core_event *out, size_t max)
{
    size_t n = 0;
    for (size_t k = 0; k < l->n; k++)
        if (l->ev[k].x == x && l->ev[k].y == y) {
            if (n < max) out[n] = l->ev[k];
            n++;
        }
    return n;
}

/* One event: retire (with its pc and, when rd, the register written),
 * push, pop, as flags. */
static void assert_core_ev(const wm_core_event *ev, uint64_t cycle, bool retire, uint32_t pc, unsigned rd,
                           uint32_t rd_data, bool push, uint32_t push_data, bool pop)
{
    assert_int_equal(ev->cycle, cycle);
    assert_int_equal(ev->what.retire, retire);
    if (retire) assert_int_equal(ev->what.retire_pc, pc);
    assert_int_equal(ev->what.rd_we, rd != 0);
    if (rd) {
        assert_int_equal(ev->what.rd, rd);
        assert_int_equal(ev->what.rd_data, rd_data);
    }
    assert_int_equal(ev->what.push, push);
    if (push) assert_int_equal(ev->what.push_data, push_data);
    assert_int_equal(ev->what.pop, pop);
}

static bool all_halted(wm_fabric *f, unsigned w, unsigned h)
{
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const wm_core_status st = ops->core_status(f, x, y);
            if (st.started && st.halt.state == WM_CORE_RUNNING) return false;
        }
    return true;
}

/* ------------------------------------------------------------ 2x1 */

static const uint32_t H10 = 0x0040005au; /* wm_header(1, 0, 1, 0x1a) */
static const uint32_t D10 = 0xcafe1234u;

/* (0,0): the header and one data wavelet to (1,0), then EXIT 77.
 *   pc 0  lui x1      cycle 1
 *      4  lui x2      2        8  addi x2   3     (x2 = H10)
 *     12  lui x3      4       16  addi x3   5     (x3 = D10)
 *     20  sw x2, TX   6: push H
 *     24  sw x3, TX   7: push D
 *     28  addi x4 77  8
 *     32  sw x4, EXIT 9 */
static void sender_10(prog *p)
{
    p->n = 0;
    P(p, rv_lui(1, 0x80000));
    P(p, rv_lui(2, 0x00400));
    P(p, rv_addi(2, 2, 0x05a));
    P(p, rv_lui(3, 0xcafe1));
    P(p, rv_addi(3, 3, 0x234));
    P(p, rv_sw(2, 1, WM_CORE_REG_TX));
    P(p, rv_sw(3, 1, WM_CORE_REG_TX));
    P(p, rv_addi(4, 0, 77));
    P(p, rv_sw(4, 1, WM_CORE_REG_EXIT));
}

/* (1,0): pops the header and the data, keeps them at 0x100 and 0x104,
 * exits with the data.
 *   pc 0  lui x1        cycle 1
 *      4  lw x5, RX     X from 2, stalls while RX is empty
 *      8  lw x6, RX
 *     12  sw x5, 0x100(x0)
 *     16  sw x6, 0x104(x0)
 *     20  sw x6, EXIT */
static void receiver(prog *p)
{
    p->n = 0;
    P(p, rv_lui(1, 0x80000));
    P(p, rv_lw(5, 1, WM_CORE_REG_RX));
    P(p, rv_lw(6, 1, WM_CORE_REG_RX));
    P(p, rv_sw(5, 0, 0x100));
    P(p, rv_sw(6, 0, 0x104));
    P(p, rv_sw(6, 1, WM_CORE_REG_EXIT));
}

/* Both cores start at cycle 0. The sender pushes H at the edge ending
 * cycle t = 6 and D at 7; with h = 1 hop (docs/fabric.md "Latency") H is
 * in (0,0)'s E register at t+2 = 8, in (1,0)'s L register at t+2+2h = 10
 * and at the head of its RX at t+3+2h = 11; D one cycle behind. The
 * receiver's first RX load is in X from cycle 2 and stalls until 11, pops
 * there and writes x5 back at the end of 12 (docs/core.md: a load's access
 * cycle is its first after the stall, two cycles); the second load is in
 * X at 13, finds D (in RX since 12), pops and retires at 14; the stores
 * retire at 15, 16 and 17, the last one to EXIT. */
static void test_one_message_2x1(void **state)
{
    (void)state;
    wm_fabric *f = wm_fabric_create(ops, 2, 1, true, &one_thread);
    assert_non_null(f);
    link_log links = {0};
    core_log cores = {0};
    ops->set_link_hook(f, log_link, &links);
    ops->set_core_hook(f, log_core, &cores);
    prog p;
    sender_10(&p);
    load_prog(f, 0, 0, &p);
    receiver(&p);
    load_prog(f, 1, 0, &p);
    /* Loaded, not started: held in reset. */
    assert_false(ops->core_status(f, 0, 0).started);
    ops->core_start(f, 0, 0);
    ops->core_start(f, 1, 0);
    assert_false(ops->core_status(f, 1, 0).started); /* no step yet: cycle 0 is still to come */

    bool was_waiting[32] = {false};
    uint32_t pc_waiting[32] = {0};
    for (unsigned c = 0; c < 30; c++) {
        assert_int_equal(ops->cycle(f), c);
        /* A started core owns its port: what the host posts there is ignored. */
        if (c == 5) ops->pe_push(f, 1, 0, wm_header(0, 0, 0, 1));
        ops->step(f);
        const wm_core_status st = ops->core_status(f, 1, 0);
        assert_true(st.started);
        was_waiting[c + 1] = st.waiting;
        pc_waiting[c + 1] = st.pc;
    }
    /* Between steps the fabric is at cycle k: waiting after the core spent
     * cycles 2..10 on the empty RX, not once it popped in cycle 11. */
    for (unsigned k = 1; k <= 30; k++) {
        assert_int_equal(was_waiting[k], k >= 3 && k <= 11);
        if (was_waiting[k]) assert_int_equal(pc_waiting[k], 4);
    }
    assert_int_equal(links.n, 4);
    assert_link(&links.ev[0], 8, 0, 0, WM_PORT_E, H10);
    assert_link(&links.ev[1], 9, 0, 0, WM_PORT_E, D10);
    assert_link(&links.ev[2], 10, 1, 0, WM_PORT_L, H10);
    assert_link(&links.ev[3], 11, 1, 0, WM_PORT_L, D10);

    wm_core_event ev[32];
    assert_int_equal(events_of(&cores, 0, 0, ev, 32), 9);
    assert_core_ev(&ev[0], 1, true, 0, 1, RB, false, 0, false);
    assert_core_ev(&ev[1], 2, true, 4, 2, 0x00400000u, false, 0, false);
    assert_core_ev(&ev[2], 3, true, 8, 2, H10, false, 0, false);
    assert_core_ev(&ev[3], 4, true, 12, 3, 0xcafe1000u, false, 0, false);
    assert_core_ev(&ev[4], 5, true, 16, 3, D10, false, 0, false);
    assert_core_ev(&ev[5], 6, true, 20, 0, 0, true, H10, false);
    assert_core_ev(&ev[6], 7, true, 24, 0, 0, true, D10, false);
    assert_core_ev(&ev[7], 8, true, 28, 4, 77, false, 0, false);
    assert_core_ev(&ev[8], 9, true, 32, 0, 0, false, 0, false);
    assert_int_equal(events_of(&cores, 1, 0, ev, 32), 8);
    assert_core_ev(&ev[0], 1, true, 0, 1, RB, false, 0, false);
    assert_core_ev(&ev[1], 11, false, 0, 0, 0, false, 0, true);
    assert_core_ev(&ev[2], 12, true, 4, 5, H10, false, 0, false);
    assert_core_ev(&ev[3], 13, false, 0, 0, 0, false, 0, true);
    assert_core_ev(&ev[4], 14, true, 8, 6, D10, false, 0, false);
    assert_core_ev(&ev[5], 15, true, 12, 0, 0, false, 0, false);
    assert_core_ev(&ev[6], 16, true, 16, 0, 0, false, 0, false);
    assert_core_ev(&ev[7], 17, true, 20, 0, 0, false, 0, false);
    /* Within a step, row-major: (0,0)'s cycle-1 event before (1,0)'s. */
    assert_int_equal(cores.ev[0].x, 0);
    assert_int_equal(cores.ev[1].x, 1);
    assert_int_equal(cores.ev[1].cycle, 1);

    const wm_core_status s0 = ops->core_status(f, 0, 0), s1 = ops->core_status(f, 1, 0);
    assert_int_equal(s0.retired, 9);
    assert_int_equal(s0.halt.state, WM_CORE_EXITED);
    assert_int_equal(s0.halt.exit_code, 77);
    assert_int_equal(s0.halt.pc, 32);
    assert_int_equal(s0.pc, 32);
    assert_int_equal(s1.retired, 6);
    assert_int_equal(s1.halt.state, WM_CORE_EXITED);
    assert_int_equal(s1.halt.exit_code, D10);
    assert_int_equal(s1.halt.pc, 20);
    assert_false(s1.waiting);
    assert_int_equal(read_word(f, 1, 0, 0x100), H10);
    assert_int_equal(read_word(f, 1, 0, 0x104), D10);
    /* Nothing in flight, queues empty, no error: the cores own the ports. */
    assert_true(ops->quiescent(f));
    const wm_pe_status pe = ops->pe_status(f, 1, 0);
    assert_int_equal(pe.rx_count, 0);
    assert_int_equal(pe.status, 0);
    free(links.ev);
    free(cores.ev);
    ops->destroy(f);
}

/* The dump view after each step shows the cycle that step simulated. */
static void test_core_view_shows_the_last_cycle(void **state)
{
    (void)state;
    wm_fabric *f = wm_fabric_create(ops, 2, 1, true, &one_thread);
    assert_non_null(f);
    prog p;
    sender_10(&p);
    load_prog(f, 0, 0, &p);
    receiver(&p);
    load_prog(f, 1, 0, &p);
    wm_sw_core_view v;
    wm_fabric_sw_core_view(f, 1, 0, &v);
    assert_false(v.started);
    ops->core_start(f, 0, 0);
    ops->core_start(f, 1, 0);
    for (unsigned c = 0; c < 20; c++) {
        ops->step(f); /* simulated cycle c */
        wm_fabric_sw_core_view(f, 1, 0, &v);
        assert_true(v.started);
        assert_int_equal(v.pop, c == 11 || c == 13);
        assert_int_equal(v.retire, c == 1 || c == 12 || (c >= 14 && c <= 17));
        assert_int_equal(v.halted, c >= 17);
        assert_int_equal(v.fault_cause, 0);
        if (c == 12) {
            assert_int_equal(v.retire_pc, 4);
            assert_int_equal(v.retire_insn, rv_lw(5, 1, WM_CORE_REG_RX));
            assert_true(v.rd_we);
            assert_int_equal(v.rd, 5);
            assert_int_equal(v.rd_data, H10);
            assert_int_equal(v.pc, 8);
        }
        if (c >= 2 && c <= 10) assert_int_equal(v.pc, 4);
        wm_fabric_sw_core_view(f, 0, 0, &v);
        assert_int_equal(v.push, c == 6 || c == 7);
        if (c == 6) assert_int_equal(v.push_data, H10);
    }
    ops->destroy(f);
}

/* ------------------------------------------------------------ 2x2 */

/* Every core runs the same program: it reads COORD, sends one data
 * wavelet, 0x700 + COORD, to the opposite corner, (col ^ 1, row ^ 1),
 * receives the one sent to it and exits with its data.
 *   pc 0  lui x1               cycle 1
 *      4  lw x2, COORD         2-3   x2 = row << 16 | col
 *      8  xori x3, x2, 1       4     row << 16 | the destination's col
 *     12  slli x4, x3, 22      5     col, in the header
 *     16  srli x5, x3, 16      6
 *     20  xori x5, x5, 1       7     the destination's row
 *     24  slli x5, x5, 12      8     row, in the header
 *     28  or x4, x4, x5        9
 *     32  ori x4, x4, 0x40     10    len 1, tag 0
 *     36  addi x6, x2, 0x700   11    the data
 *     40  sw x4, TX            12    push H
 *     44  sw x6, TX            13    push D
 *     48  lw x7, RX            from 14
 *     52  lw x8, RX
 *     56  sw x7, 0x200(x0)
 *     60  sw x8, 0x204(x0)
 *     64  sw x8, EXIT */
static void corner_swap(prog *p)
{
    p->n = 0;
    P(p, rv_lui(1, 0x80000));
    P(p, rv_lw(2, 1, WM_CORE_REG_COORD));
    P(p, rv_xori(3, 2, 1));
    P(p, rv_slli(4, 3, 22));
    P(p, rv_srli(5, 3, 16));
    P(p, rv_xori(5, 5, 1));
    P(p, rv_slli(5, 5, 12));
    P(p, rv_or(4, 4, 5));
    P(p, rv_ori(4, 4, 0x40));
    P(p, rv_addi(6, 2, 0x700));
    P(p, rv_sw(4, 1, WM_CORE_REG_TX));
    P(p, rv_sw(6, 1, WM_CORE_REG_TX));
    P(p, rv_lw(7, 1, WM_CORE_REG_RX));
    P(p, rv_lw(8, 1, WM_CORE_REG_RX));
    P(p, rv_sw(7, 0, 0x200));
    P(p, rv_sw(8, 0, 0x204));
    P(p, rv_sw(8, 1, WM_CORE_REG_EXIT));
}

/* Four messages, each two hops (X, then Y), on four disjoint sets of
 * outputs: no contention. H is pushed at t = 12: in the first router's E
 * or W register at t+2 = 14, in the second's S or N register at t+4 = 16,
 * in the destination's L register at t+6 = 18 and at its RX head at 19; D
 * one cycle behind. Each receiver's first RX load stalls from 14 to 19,
 * pops at 19 and retires at 20; the second pops and retires at 21-22; the
 * stores retire at 23, 24 and 25 (EXIT). */
static void test_corner_swap_2x2(void **state)
{
    (void)state;
    wm_fabric *f = wm_fabric_create(ops, 2, 2, true, &one_thread);
    assert_non_null(f);
    link_log links = {0};
    core_log cores = {0};
    ops->set_link_hook(f, log_link, &links);
    ops->set_core_hook(f, log_core, &cores);
    prog p;
    corner_swap(&p);
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 2; x++) {
            load_prog(f, x, y, &p);
            ops->core_start(f, x, y);
        }
    for (unsigned c = 0; c < 40; c++) {
        ops->step(f);
        /* at cycle k, between steps: stalled on RX since 14, popped in 19 */
        for (unsigned k = 0; k < 4; k++)
            assert_int_equal(ops->core_status(f, k & 1, k >> 1).waiting, c + 1 >= 15 && c + 1 <= 19);
    }
    /* [y][x]: the header sent by (x, y), to the corner opposite; its data */
    const uint32_t hdr[2][2] = {{wm_header(1, 1, 1, 0), wm_header(0, 1, 1, 0)},
                                {wm_header(1, 0, 1, 0), wm_header(0, 0, 1, 0)}};
    const uint32_t data[2][2] = {{0x700, 0x701}, {0x10700, 0x10701}};
    assert_int_equal(links.n, 24);
    /* Four events a cycle from 14 to 19, in (y, x, port) order: H's hop j
     * at 14 + 2j, D's one cycle later. */
    for (unsigned d = 0; d < 2; d++) {
        const uint32_t (*v)[2] = d ? data : hdr;
        const wm_link_event *e1 = &links.ev[4 * d], *e2 = &links.ev[8 + 4 * d], *e3 = &links.ev[16 + 4 * d];
        /* the first hop: (0,0) and (0,1) east, (1,0) and (1,1) west */
        assert_link(&e1[0], 14 + d, 0, 0, WM_PORT_E, v[0][0]);
        assert_link(&e1[1], 14 + d, 1, 0, WM_PORT_W, v[0][1]);
        assert_link(&e1[2], 14 + d, 0, 1, WM_PORT_E, v[1][0]);
        assert_link(&e1[3], 14 + d, 1, 1, WM_PORT_W, v[1][1]);
        /* the second: on row 0 south, on row 1 north, from the other column */
        assert_link(&e2[0], 16 + d, 0, 0, WM_PORT_S, v[0][1]);
        assert_link(&e2[1], 16 + d, 1, 0, WM_PORT_S, v[0][0]);
        assert_link(&e2[2], 16 + d, 0, 1, WM_PORT_N, v[1][1]);
        assert_link(&e2[3], 16 + d, 1, 1, WM_PORT_N, v[1][0]);
        /* the ramp: what the opposite corner sent */
        assert_link(&e3[0], 18 + d, 0, 0, WM_PORT_L, v[1][1]);
        assert_link(&e3[1], 18 + d, 1, 0, WM_PORT_L, v[1][0]);
        assert_link(&e3[2], 18 + d, 0, 1, WM_PORT_L, v[0][1]);
        assert_link(&e3[3], 18 + d, 1, 1, WM_PORT_L, v[0][0]);
    }
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 2; x++) {
            const wm_core_status st = ops->core_status(f, x, y);
            assert_int_equal(st.retired, 17);
            assert_int_equal(st.halt.state, WM_CORE_EXITED);
            assert_int_equal(st.halt.exit_code, data[y ^ 1][x ^ 1]);
            assert_int_equal(st.halt.pc, 64);
            assert_int_equal(read_word(f, x, y, 0x200), hdr[y ^ 1][x ^ 1]);
            assert_int_equal(read_word(f, x, y, 0x204), data[y ^ 1][x ^ 1]);
            wm_core_event ev[32];
            assert_int_equal(events_of(&cores, x, y, ev, 32), 19);
            assert_core_ev(&ev[1], 3, true, 4, 2, y << 16 | x, false, 0, false);
            assert_core_ev(&ev[10], 12, true, 40, 0, 0, true, hdr[y][x], false);
            assert_core_ev(&ev[11], 13, true, 44, 0, 0, true, data[y][x], false);
            assert_core_ev(&ev[12], 19, false, 0, 0, 0, false, 0, true);
            assert_core_ev(&ev[13], 20, true, 48, 7, hdr[y ^ 1][x ^ 1], false, 0, false);
            assert_core_ev(&ev[14], 21, false, 0, 0, 0, false, 0, true);
            assert_core_ev(&ev[15], 22, true, 52, 8, data[y ^ 1][x ^ 1], false, 0, false);
            assert_core_ev(&ev[18], 25, true, 64, 0, 0, false, 0, false);
        }
    /* Row-major within a step: the four cycle-1 retires, (0,0) (1,0) (0,1) (1,1). */
    for (unsigned k = 0; k < 4; k++) {
        assert_int_equal(cores.ev[k].cycle, 1);
        assert_int_equal(cores.ev[k].x, k & 1);
        assert_int_equal(cores.ev[k].y, k >> 1);
    }
    assert_true(ops->quiescent(f));
    free(links.ev);
    free(cores.ev);
    ops->destroy(f);
}

/* ------------------------------------------------------------ edges */

/* Two instructions, then ECALL at pc 8: illegal (docs/core.md: cause 1),
 * raised in its first X cycle, 3; it does not retire, and nothing runs
 * after. A core started on a zeroed RAM faults at once on the word 0. */
static void test_fault_halts_with_cause_pc_and_word(void **state)
{
    (void)state;
    wm_fabric *f = wm_fabric_create(ops, 2, 1, true, &one_thread);
    assert_non_null(f);
    core_log cores = {0};
    ops->set_core_hook(f, log_core, &cores);
    prog p = {.n = 0};
    P(&p, rv_addi(1, 0, 5));
    P(&p, rv_addi(2, 0, 6));
    P(&p, rv_ecall());
    P(&p, rv_addi(3, 0, 7));
    load_prog(f, 0, 0, &p);
    ops->core_start(f, 0, 0);
    ops->core_start(f, 1, 0);
    wm_sw_core_view v;
    for (unsigned c = 0; c < 10; c++) {
        ops->step(f);
        if (c == 3) {
            wm_fabric_sw_core_view(f, 0, 0, &v);
            assert_true(v.halted);
            assert_false(v.retire);
            assert_int_equal(v.fault_cause, WM_CORE_FAULT_ILLEGAL);
        }
    }
    const wm_core_status st = ops->core_status(f, 0, 0);
    assert_int_equal(st.halt.state, WM_CORE_FAULTED);
    assert_int_equal(st.halt.cause, WM_CORE_FAULT_ILLEGAL);
    assert_int_equal(st.halt.pc, 8);
    assert_int_equal(st.halt.insn, rv_ecall());
    assert_int_equal(st.pc, 8);
    assert_int_equal(st.retired, 2);
    const wm_core_status z = ops->core_status(f, 1, 0);
    assert_int_equal(z.halt.state, WM_CORE_FAULTED);
    assert_int_equal(z.halt.cause, WM_CORE_FAULT_ILLEGAL);
    assert_int_equal(z.halt.pc, 0);
    assert_int_equal(z.halt.insn, 0);
    assert_int_equal(z.retired, 0);
    wm_core_event ev[8];
    assert_int_equal(events_of(&cores, 0, 0, ev, 8), 2);
    assert_core_ev(&ev[0], 1, true, 0, 1, 5, false, 0, false);
    assert_core_ev(&ev[1], 2, true, 4, 2, 6, false, 0, false);
    assert_int_equal(events_of(&cores, 1, 0, ev, 8), 0);
    free(cores.ev);
    ops->destroy(f);
}

/* A core that is loaded but never started never runs: its message
 * arrives and stays in its RX, and the host may still pop it. */
static void test_unstarted_core_never_retires(void **state)
{
    (void)state;
    wm_fabric *f = wm_fabric_create(ops, 2, 1, true, &one_thread);
    assert_non_null(f);
    core_log cores = {0};
    ops->set_core_hook(f, log_core, &cores);
    prog p;
    sender_10(&p);
    load_prog(f, 0, 0, &p);
    receiver(&p);
    load_prog(f, 1, 0, &p);
    ops->core_start(f, 0, 0);
    for (unsigned c = 0; c < 200; c++) ops->step(f);
    const wm_core_status st = ops->core_status(f, 1, 0);
    assert_false(st.started);
    assert_false(st.waiting);
    assert_int_equal(st.retired, 0);
    assert_int_equal(st.halt.state, WM_CORE_RUNNING);
    wm_core_event ev[16];
    assert_int_equal(events_of(&cores, 1, 0, ev, 16), 0);
    assert_int_equal(events_of(&cores, 0, 0, ev, 16), 9);
    wm_pe_status pe = ops->pe_status(f, 1, 0);
    assert_int_equal(pe.rx_count, 2);
    assert_int_equal(pe.rx_head, H10);
    ops->pe_pop(f, 1, 0);
    ops->step(f);
    pe = ops->pe_status(f, 1, 0);
    assert_int_equal(pe.rx_count, 1);
    assert_int_equal(pe.rx_head, D10);
    assert_int_equal(read_word(f, 1, 0, 0x104), 0);
    /* A tile never loaded nor started reads as a zeroed RAM. */
    wm_fabric *g = wm_fabric_create(ops, 3, 1, true, &one_thread);
    assert_non_null(g);
    assert_int_equal(read_word(g, 2, 0, MEM - 4), 0);
    assert_false(ops->core_status(g, 2, 0).started);
    ops->destroy(g);
    free(cores.ev);
    ops->destroy(f);
}

/* A model perturbed in one tile stays perturbed with cores on it: a late
 * grant at (0,0)'s E output moves the header's first hop from 8 to 9, so
 * everything after it one cycle later. */
static void test_perturbation_applies_to_core_fabrics(void **state)
{
    (void)state;
    const wm_fabric_config late = {.threads = WM_SW_THREADS_ONE, .perturbation = {WM_SW_LATE_GRANT, 0, 0, WM_PORT_E}};
    wm_fabric *f = wm_fabric_create(ops, 2, 1, true, &late);
    assert_non_null(f);
    link_log links = {0};
    ops->set_link_hook(f, log_link, &links);
    prog p;
    sender_10(&p);
    load_prog(f, 0, 0, &p);
    receiver(&p);
    load_prog(f, 1, 0, &p);
    ops->core_start(f, 0, 0);
    ops->core_start(f, 1, 0);
    for (unsigned c = 0; c < 30; c++) ops->step(f);
    assert_int_equal(links.n, 4);
    assert_link(&links.ev[0], 9, 0, 0, WM_PORT_E, H10);
    assert_link(&links.ev[1], 10, 0, 0, WM_PORT_E, D10);
    assert_link(&links.ev[2], 11, 1, 0, WM_PORT_L, H10);
    assert_link(&links.ev[3], 12, 1, 0, WM_PORT_L, D10);
    const wm_core_status st = ops->core_status(f, 1, 0);
    assert_int_equal(st.halt.state, WM_CORE_EXITED);
    assert_int_equal(st.halt.exit_code, D10);
    assert_int_equal(st.retired, 6);
    free(links.ev);
    ops->destroy(f);
}

/* ------------------------------------------------------------ the ISS alone */

/* Seeded random programs that only compute (no register window but the
 * EXIT store, or a deliberate fault) on tile (1,1) of a 3x2 fabric, started
 * at cycle 7: the same eventful cycles, 7 later, the same halt, retired
 * count and RAM as the program on a standalone wm_iss. */
static void test_computing_core_matches_the_iss(void **state)
{
    (void)state;
    enum { START = 7, MAXC = 400000 };
    static uint32_t code[4096];
    static uint8_t mem[MEM], got[MEM];
    static wm_core_cycle solo[MAXC];
    static uint8_t solo_eventful[MAXC];
    for (uint64_t seed = 1; seed <= 24; seed++) {
        wm_randprog_cfg cfg;
        wm_randprog_defaults(&cfg);
        cfg.mem_bytes = MEM;
        cfg.window_permille = 0;
        wm_randprog_info info;
        assert_true(wm_randprog(seed, &cfg, code, 4096, &info));
        assert_int_equal(info.rx_loads + info.tx_stores, 0);

        /* Alone: an idle PE datapath, as the fabric's tile shows it. */
        memset(mem, 0, sizeof mem);
        for (unsigned i = 0; i < info.words; i++)
            for (unsigned k = 0; k < 4; k++) mem[4 * i + k] = (uint8_t)(code[i] >> 8 * k);
        wm_iss iss;
        wm_iss_init(&iss, mem, MEM);
        unsigned ncycles = 0;
        for (; ncycles < MAXC && !wm_iss_halted(&iss); ncycles++) {
            const wm_core_pe_in in = {.tsc = START + ncycles, .col = 1, .row = 1};
            wm_iss_step(&iss, &in, &solo[ncycles]);
            solo_eventful[ncycles] = solo[ncycles].retire | solo[ncycles].push | solo[ncycles].pop;
        }
        assert_true(wm_iss_halted(&iss));

        wm_fabric *f = wm_fabric_create(ops, 3, 2, true, &one_thread);
        assert_non_null(f);
        core_log cores = {0};
        ops->set_core_hook(f, log_core, &cores);
        load_words(f, 1, 1, code, info.words);
        for (unsigned c = 0; c < START; c++) ops->step(f);
        ops->core_start(f, 1, 1);
        for (unsigned c = 0; c < ncycles + 5; c++) ops->step(f);
        size_t e = 0;
        for (unsigned c = 0; c < ncycles; c++) {
            if (!solo_eventful[c]) continue;
            assert_true(e < cores.n);
            const wm_core_event *ev = &cores.ev[e++];
            assert_int_equal(ev->cycle, START + c);
            assert_int_equal(ev->x, 1);
            assert_int_equal(ev->y, 1);
            assert_int_equal(ev->what.retire, solo[c].retire);
            assert_int_equal(ev->what.retire_pc, solo[c].retire_pc);
            assert_int_equal(ev->what.retire_insn, solo[c].retire_insn);
            assert_int_equal(ev->what.rd_we, solo[c].rd_we);
            assert_int_equal(ev->what.rd, solo[c].rd);
            assert_int_equal(ev->what.rd_data, solo[c].rd_data);
            assert_false(ev->what.push);
            assert_false(ev->what.pop);
        }
        assert_int_equal(e, cores.n);
        const wm_core_status st = ops->core_status(f, 1, 1);
        const wm_core_halt h = wm_iss_halt(&iss);
        assert_int_equal(st.retired, wm_iss_retired(&iss));
        assert_int_equal(st.halt.state, h.state);
        assert_int_equal(st.halt.exit_code, h.exit_code);
        assert_int_equal(st.halt.cause, h.cause);
        assert_int_equal(st.halt.pc, h.pc);
        assert_int_equal(st.halt.insn, h.insn);
        assert_int_equal(st.pc, wm_iss_pc(&iss));
        if (info.ends_in_fault) assert_int_equal(h.state, WM_CORE_FAULTED);
        ops->core_read(f, 1, 1, 0, got, MEM);
        assert_memory_equal(got, mem, MEM);
        free(cores.ev);
        ops->destroy(f);
    }
}

/* ------------------------------------------------------------ the definition */

/* A scenario: a mesh, and the program of each tile (n == 0: not started). */
typedef struct {
    unsigned w, h;
    prog *progs; /* w * h, row-major */
    uint64_t max_cycles;
} scenario;

typedef enum { BY_HOST, CORES_ONE, CORES_TWO } run_mode;

typedef struct {
    link_log links;
    core_log cores;
    uint64_t cycles;             /* steps run */
    wm_core_status *st;          /* per tile */
    uint8_t *mem;                /* per tile, MEM bytes */
    uint64_t parallel_steps;
} run_result;

/* The definition of a core on a tile: a standalone wm_iss per tile, which
 * in every cycle reads pe_status, and whose push and pop the host posts
 * before the step, on a fabric without cores. Or the same on a fabric with
 * cores, on one thread or two. Runs until every started core has halted
 * and the fabric is quiescent, or max_cycles. */
static void run(const scenario *sc, run_mode mode, run_result *r)
{
    const size_t n = (size_t)sc->w * sc->h;
    memset(r, 0, sizeof *r);
    r->st = calloc(n, sizeof *r->st);
    r->mem = calloc(n, MEM);
    assert_non_null(r->st);
    assert_non_null(r->mem);
    const wm_fabric_config threads = {.threads = mode == CORES_TWO ? WM_SW_THREADS_TWO : WM_SW_THREADS_ONE};
    wm_fabric *f = wm_fabric_create(ops, sc->w, sc->h, mode != BY_HOST, &threads);
    assert_non_null(f);
    ops->set_link_hook(f, log_link, &r->links);
    wm_iss *iss = calloc(n, sizeof *iss);
    assert_non_null(iss);
    for (size_t k = 0; k < n; k++) {
        const prog *p = &sc->progs[k];
        if (!p->n) continue;
        if (mode == BY_HOST) {
            for (unsigned i = 0; i < p->n; i++)
                for (unsigned b = 0; b < 4; b++) r->mem[k * MEM + 4 * i + b] = (uint8_t)(p->w[i] >> 8 * b);
            wm_iss_init(&iss[k], r->mem + k * MEM, MEM);
        } else {
            load_prog(f, (unsigned)(k % sc->w), (unsigned)(k / sc->w), p);
            ops->core_start(f, (unsigned)(k % sc->w), (unsigned)(k / sc->w));
        }
    }
    if (mode != BY_HOST) ops->set_core_hook(f, log_core, &r->cores);
    for (; r->cycles < sc->max_cycles; r->cycles++) {
        bool running = false;
        if (mode == BY_HOST) {
            for (size_t k = 0; k < n; k++) {
                if (!sc->progs[k].n) continue;
                const unsigned x = (unsigned)(k % sc->w), y = (unsigned)(k / sc->w);
                if (wm_iss_halted(&iss[k])) continue;
                running = true;
                const wm_pe_status pe = ops->pe_status(f, x, y);
                const wm_core_pe_in in = {.tsc = pe.tsc, .rx_head = pe.rx_head, .err_hdr = pe.err_hdr,
                                          .tx_count = pe.tx_count, .rx_count = pe.rx_count, .status = pe.status,
                                          .col = (uint16_t)x, .row = (uint16_t)y};
                wm_core_event ev = {.cycle = r->cycles, .x = (uint16_t)x, .y = (uint16_t)y};
                wm_iss_step(&iss[k], &in, &ev.what);
                if (ev.what.push) ops->pe_push(f, x, y, ev.what.push_data);
                if (ev.what.pop) ops->pe_pop(f, x, y);
                if (ev.what.retire | ev.what.push | ev.what.pop) log_core(&r->cores, &ev);
            }
        } else {
            running = !all_halted(f, sc->w, sc->h) || r->cycles == 0;
        }
        if (!running && ops->quiescent(f)) break;
        ops->step(f);
    }
    for (size_t k = 0; k < n; k++) {
        const unsigned x = (unsigned)(k % sc->w), y = (unsigned)(k / sc->w);
        if (mode == BY_HOST) {
            if (!sc->progs[k].n) continue;
            r->st[k].started = true;
            r->st[k].waiting = wm_iss_waiting(&iss[k]) != WM_ISS_WAIT_NONE;
            r->st[k].pc = wm_iss_pc(&iss[k]);
            r->st[k].retired = wm_iss_retired(&iss[k]);
            r->st[k].halt = wm_iss_halt(&iss[k]);
        } else {
            r->st[k] = ops->core_status(f, x, y);
            ops->core_read(f, x, y, 0, r->mem + k * MEM, MEM);
        }
    }
    if (mode == CORES_TWO) r->parallel_steps = wm_fabric_sw_parallel_steps(f);
    free(iss);
    ops->destroy(f);
}

static void free_result(run_result *r)
{
    free(r->links.ev);
    free(r->cores.ev);
    free(r->st);
    free(r->mem);
}

static void assert_same_run(const scenario *sc, const run_result *a, const run_result *b)
{
    const size_t n = (size_t)sc->w * sc->h;
    assert_int_equal(a->cycles, b->cycles);
    assert_int_equal(a->links.n, b->links.n);
    for (size_t k = 0; k < a->links.n; k++) {
        const wm_link_event *p = &a->links.ev[k], *q = &b->links.ev[k];
        assert_link(q, p->cycle, p->x, p->y, p->port, p->data);
    }
    assert_int_equal(a->cores.n, b->cores.n);
    for (size_t k = 0; k < a->cores.n; k++) {
        const wm_core_event *p = &a->cores.ev[k], *q = &b->cores.ev[k];
        assert_int_equal(q->cycle, p->cycle);
        assert_int_equal(q->x, p->x);
        assert_int_equal(q->y, p->y);
        assert_int_equal(q->what.retire, p->what.retire);
        assert_int_equal(q->what.retire_pc, p->what.retire_pc);
        assert_int_equal(q->what.retire_insn, p->what.retire_insn);
        assert_int_equal(q->what.rd_we, p->what.rd_we);
        assert_int_equal(q->what.rd, p->what.rd);
        assert_int_equal(q->what.rd_data, p->what.rd_data);
        assert_int_equal(q->what.push, p->what.push);
        assert_int_equal(q->what.push_data, p->what.push_data);
        assert_int_equal(q->what.pop, p->what.pop);
    }
    for (size_t k = 0; k < n; k++) {
        if (!sc->progs[k].n) continue;
        assert_int_equal(a->st[k].started, b->st[k].started);
        assert_int_equal(a->st[k].waiting, b->st[k].waiting);
        assert_int_equal(a->st[k].pc, b->st[k].pc);
        assert_int_equal(a->st[k].retired, b->st[k].retired);
        assert_int_equal(a->st[k].halt.state, b->st[k].halt.state);
        assert_int_equal(a->st[k].halt.exit_code, b->st[k].halt.exit_code);
        assert_int_equal(a->st[k].halt.cause, b->st[k].halt.cause);
        assert_int_equal(a->st[k].halt.pc, b->st[k].halt.pc);
        assert_int_equal(a->st[k].halt.insn, b->st[k].halt.insn);
        assert_memory_equal(a->mem + k * MEM, b->mem + k * MEM, MEM);
    }
}

/* The host's definition, one thread and two threads: all the same. */
static void check_against_the_definition(const scenario *sc, run_result *host)
{
    run_result one, two;
    run(sc, BY_HOST, host);
    run(sc, CORES_ONE, &one);
    run(sc, CORES_TWO, &two);
    assert_same_run(sc, host, &one);
    assert_same_run(sc, host, &two);
    assert_true(two.parallel_steps > 0);
    free_result(&one);
    free_result(&two);
}

/* Every core of a 4x4 mesh, for ROUNDS rounds: sends three messages of two
 * data wavelets (its index and round, and a product of them) to the cores
 * 5, 10 and 15 places after it (so each receives three a round), then pops
 * three messages and adds their data; after the last round it divides
 * (34 cycles each), stores its sum at 0x400 and exits with it. Nine
 * wavelets a round exceed the TX queue, so cores also stall on TX. */
enum { BUSY_W = 4, BUSY_H = 4, ROUNDS = 6 };

static void busy_program(prog *p, unsigned me)
{
    p->n = 0;
    P(p, rv_lui(1, 0x80000));
    P(p, rv_addi(10, 0, 0)); /* the sum */
    for (unsigned round = 0; round < ROUNDS; round++) {
        for (unsigned k = 1; k <= 3; k++) {
            const unsigned to = (me + 5 * k) % (BUSY_W * BUSY_H);
            P_li(p, 2, wm_header(to % BUSY_W, to / BUSY_W, 2, me << 4 | k));
            P(p, rv_sw(2, 1, WM_CORE_REG_TX));
            P_li(p, 3, me << 8 | round << 4 | k);
            P(p, rv_sw(3, 1, WM_CORE_REG_TX));
            P(p, rv_mul(4, 3, 3));
            P(p, rv_sw(4, 1, WM_CORE_REG_TX));
        }
        for (unsigned k = 0; k < 3; k++) {
            P(p, rv_lw(5, 1, WM_CORE_REG_RX)); /* the header */
            P(p, rv_lw(6, 1, WM_CORE_REG_RX));
            P(p, rv_add(10, 10, 6));
            P(p, rv_lw(6, 1, WM_CORE_REG_RX));
            P(p, rv_add(10, 10, 6));
        }
    }
    P(p, rv_addi(7, 0, 3));
    P(p, rv_divu(8, 10, 7));
    P(p, rv_remu(9, 10, 7));
    P(p, rv_sw(10, 0, 0x400));
    P(p, rv_sw(8, 0, 0x404));
    P(p, rv_sw(9, 0, 0x408));
    P(p, rv_sw(10, 1, WM_CORE_REG_EXIT));
}

static void test_busy_mesh_one_and_two_threads_match_the_definition(void **state)
{
    (void)state;
    static prog progs[BUSY_W * BUSY_H];
    for (unsigned me = 0; me < BUSY_W * BUSY_H; me++) busy_program(&progs[me], me);
    const scenario sc = {BUSY_W, BUSY_H, progs, 100000};
    run_result host;
    check_against_the_definition(&sc, &host);
    /* Each core's sum: what the three senders 5, 10, 15 places before it
     * sent, over the rounds. */
    for (unsigned me = 0; me < BUSY_W * BUSY_H; me++) {
        uint32_t sum = 0;
        for (unsigned round = 0; round < ROUNDS; round++)
            for (unsigned k = 1; k <= 3; k++) {
                const unsigned from = (me + BUSY_W * BUSY_H - 5 * k) % (BUSY_W * BUSY_H);
                const uint32_t d = from << 8 | round << 4 | k;
                sum += d + d * d;
            }
        assert_int_equal(host.st[me].halt.state, WM_CORE_EXITED);
        assert_int_equal(host.st[me].halt.exit_code, sum);
        assert_int_equal(host.st[me].retired, progs[me].n);
    }
    assert_true(host.cycles < sc.max_cycles);
    free_result(&host);
}

/* One long message, (0,0) to (1,0), that the receiver starts popping only
 * after a chain of divisions: the sender sleeps on a full TX, the receiver
 * first computes then sleeps on an empty RX now and then. And a tile left
 * without a core between them on a 3x1 mesh. */
enum { LONG_LEN = 60 };

static void test_tx_stall_matches_the_definition(void **state)
{
    (void)state;
    static prog progs[3];
    prog *s = &progs[0], *r = &progs[2];
    s->n = r->n = progs[1].n = 0;
    P(s, rv_lui(1, 0x80000));
    P_li(s, 2, wm_header(2, 0, LONG_LEN, 9));
    P(s, rv_sw(2, 1, WM_CORE_REG_TX));
    P(s, rv_addi(3, 0, LONG_LEN));
    const unsigned top = P(s, rv_sw(3, 1, WM_CORE_REG_TX)); /* the data: LONG_LEN .. 1 */
    P(s, rv_addi(3, 3, -1));
    P(s, rv_bne(3, 0, -(int32_t)(4 * (s->n - top))));
    P(s, rv_sw(0, 1, WM_CORE_REG_EXIT));
    P(r, rv_lui(1, 0x80000));
    P(r, rv_addi(2, 0, 1000));
    for (unsigned k = 0; k < 5; k++) P(r, rv_div(2, 2, 2)); /* 5 x 34 cycles */
    P(r, rv_lw(4, 1, WM_CORE_REG_RX));                     /* the header */
    P(r, rv_addi(3, 0, LONG_LEN));
    P(r, rv_addi(5, 0, 0));
    const unsigned loop = P(r, rv_lw(6, 1, WM_CORE_REG_RX));
    P(r, rv_add(5, 5, 6));
    P(r, rv_addi(3, 3, -1));
    P(r, rv_bne(3, 0, -(int32_t)(4 * (r->n - loop))));
    P(r, rv_sw(5, 1, WM_CORE_REG_EXIT));
    const scenario sc = {3, 1, progs, 20000};
    run_result host;
    check_against_the_definition(&sc, &host);
    assert_int_equal(host.st[0].halt.state, WM_CORE_EXITED);
    assert_int_equal(host.st[2].halt.state, WM_CORE_EXITED);
    assert_int_equal(host.st[2].halt.exit_code, LONG_LEN * (LONG_LEN + 1) / 2);
    free_result(&host);
}

/* A feeder: `count` messages, the i-th of i % 4 data wavelets, to the
 * targets in turn, then EXIT. */
static void feeder_program(prog *p, unsigned me, const unsigned (*targets)[2], unsigned ntargets, unsigned count)
{
    p->n = 0;
    P(p, rv_lui(1, 0x80000));
    for (unsigned i = 0; i < count; i++) {
        const unsigned *t = targets[i % ntargets];
        P_li(p, 2, wm_header(t[0], t[1], i % 4, me));
        P(p, rv_sw(2, 1, WM_CORE_REG_TX));
        for (unsigned d = 0; d < i % 4; d++) {
            P(p, rv_addi(3, 0, (int32_t)(i * 4 + d) & 0x7ff));
            P(p, rv_sw(3, 1, WM_CORE_REG_TX));
        }
    }
    P(p, rv_sw(0, 1, WM_CORE_REG_EXIT));
}

/* Seeded random programs (core/randprog.h, register window included: TX
 * stores of random words, RX loads, TSC, QUEUES, STATUS, ERR_HDR, COORD)
 * on the edge tiles of a 3x3 mesh, fed by the corner tiles with messages
 * of 0 to 3 data wavelets, the centre without a core, for a fixed number
 * of cycles. Random headers go off the mesh or hold outputs for messages
 * never finished, queues fill, and cores sleep on RX and on TX, for a
 * while or for good; whatever happens, the fabric with cores does what
 * the definition does. */
static void test_random_programs_match_the_definition(void **state)
{
    (void)state;
    static prog progs[9];
    static const unsigned edges[4][2] = {{1, 0}, {0, 1}, {2, 1}, {1, 2}};
    for (uint64_t seed = 1; seed <= 6; seed++) {
        for (unsigned k = 0; k < 9; k++) {
            const unsigned x = k % 3, y = k / 3;
            if (x != 1 && y != 1) {
                feeder_program(&progs[k], k, edges, 4, 120);
                continue;
            }
            wm_randprog_cfg cfg;
            wm_randprog_defaults(&cfg);
            cfg.mem_bytes = MEM;
            cfg.items = 300;
            cfg.window_permille = 200;
            wm_randprog_info info;
            assert_true(wm_randprog(seed * 100 + k, &cfg, progs[k].w, 4096, &info));
            progs[k].n = info.words;
        }
        progs[4].n = 0; /* the centre: no core, the host's hands off it too */
        const scenario sc = {3, 3, progs, 6000};
        run_result host;
        check_against_the_definition(&sc, &host);
        free_result(&host);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_message_2x1),
        cmocka_unit_test(test_core_view_shows_the_last_cycle),
        cmocka_unit_test(test_corner_swap_2x2),
        cmocka_unit_test(test_fault_halts_with_cause_pc_and_word),
        cmocka_unit_test(test_unstarted_core_never_retires),
        cmocka_unit_test(test_perturbation_applies_to_core_fabrics),
        cmocka_unit_test(test_computing_core_matches_the_iss),
        cmocka_unit_test(test_busy_mesh_one_and_two_threads_match_the_definition),
        cmocka_unit_test(test_tx_stall_matches_the_definition),
        cmocka_unit_test(test_random_programs_match_the_definition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
