/* test_fabric_spec.c: directed tests of docs/fabric.md, cycle by cycle.
 *
 * The lockstep regression compares the RTL with the sw model; a reading
 * of docs/fabric.md that both models share passes it whatever the page
 * says. These tests hold each backend to the page itself, through the ops
 * table only, with the cycles and values worked out from it in the
 * comments: the behaviours a fault campaign found checked by the other
 * model alone (or by nothing). Each runs on rtl and on sw.
 *
 * Conventions of the page used throughout: a push posted in cycle t is in
 * the TX queue at t+1 (at its head if it was empty); the switch moves a
 * head in cycle c into an output register seen at c+1 (the link event of
 * c+1); pe_status at cycle c is the state after the edge into c; a change
 * of enable_i posted before the step of cycle c is en_q from c+1, and the
 * neighbours' NE from c+2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fabric/fabric.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char *const backend_names[] = {"rtl", "sw"};

#define FOR_EACH_BACKEND(ops)                                                                  \
    for (size_t bi_ = 0; bi_ < sizeof backend_names / sizeof backend_names[0]; bi_++)          \
        for (const wm_fabric_ops *ops = wm_fabric_backend(backend_names[bi_]); ops; ops = NULL)

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

/* The events of one output register, in order. */
static size_t events_at(const events *e, unsigned x, unsigned y, unsigned port, wm_link_event *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < e->n; i++) {
        const wm_link_event *v = &e->ev[i];
        if (v->x != x || v->y != y || v->port != port) continue;
        if (n < max) out[n] = *v;
        n++;
    }
    return n;
}

static void expect_event(const wm_link_event *ev, uint64_t cycle, uint32_t data, const char *what)
{
    if (ev->cycle != cycle || ev->data != data)
        fail_msg("%s: expected %08x at cycle %llu, got %08x at cycle %llu", what, data, (unsigned long long)cycle,
                 ev->data, (unsigned long long)ev->cycle);
}

/* ------------------------------------------------------------ off-mesh discard */

/* A disabled router pops nothing, its discard included ("A router with
 * enable_i low pops nothing and grants nothing"; step 8 needs en_q).
 *
 * (0,0) of a 2x1 mesh pushes an off-mesh header H (to column 5, 5 data
 * wavelets) in cycle 0 and D1..D5 in cycles 1..5. H is at the head of TX
 * in cycle 1 and discarded there (err_offmesh from cycle 2); D1 is pushed
 * as H leaves and discarded in cycle 2, D2 in cycle 3: one in, one out,
 * TX holds one wavelet. The router is disabled before the step of cycle
 * 3: en_q is still 1 in cycle 3 (D2 goes), 0 from cycle 4, so D3, D4, D5
 * stay: TX holds 1, 2, 3 wavelets in cycles 4, 5, 6 and 3 until enabled
 * again before the step of cycle 10 (en_q 1 from 11): D3, D4, D5 leave in
 * cycles 11, 12, 13, the discard is over and TX is empty from cycle 14.
 * A header to (1,0) pushed in cycle 14 is then routed, not discarded: in
 * (0,0)'s E register at 16, (1,0)'s L at 18, its RX queue at 19. */
static void test_a_disabled_router_keeps_its_tx_queue_during_an_off_mesh_discard(void **state)
{
    (void)state;
    static const uint8_t tx_count[15] = {0, 1, 1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 2, 1, 0};
    FOR_EACH_BACKEND(ops)
    {
        wm_fabric *f = ops->create(2, 1);
        events ev = {0};
        ops->set_link_hook(f, record, &ev);
        const uint32_t h = wm_header(5, 0, 5, 0x11), good = wm_header(1, 0, 0, 0x22);
        for (unsigned c = 0; c < 30; c++) {
            const wm_pe_status st = ops->pe_status(f, 0, 0);
            if (c < 15 && st.tx_count != tx_count[c])
                fail_msg("%s: cycle %u: TX holds %u, the page says %u", ops->name, c, st.tx_count, tx_count[c]);
            if (c >= 2) {
                assert_true(st.status & WM_ST_ERR_OFFMESH);
                assert_int_equal(st.err_hdr, h);
            } else {
                assert_false(st.status & WM_ST_ERR_OFFMESH);
            }
            if (c == 0) ops->pe_push(f, 0, 0, h);
            if (c >= 1 && c <= 5) ops->pe_push(f, 0, 0, 0xd0000000u + c);
            if (c == 14) ops->pe_push(f, 0, 0, good);
            if (c == 3) ops->set_enable(f, 0, 0, false);
            if (c == 10) ops->set_enable(f, 0, 0, true);
            const wm_pe_status rx = ops->pe_status(f, 1, 0);
            if (rx.rx_count) {
                assert_int_equal(c, 19);
                assert_int_equal(rx.rx_head, good);
                ops->pe_pop(f, 1, 0);
            }
            ops->step(f);
        }
        /* nothing of the discarded message on any register, the header after it where the page says */
        assert_int_equal(ev.n, 2);
        expect_event(&ev.ev[0], 16, good, "(0,0) E");
        assert_int_equal(ev.ev[0].port, WM_PORT_E);
        expect_event(&ev.ev[1], 18, good, "(1,0) L");
        assert_int_equal(ev.ev[1].x, 1);
        assert_int_equal(ev.ev[1].port, WM_PORT_L);
        free(ev.ev);
        ops->destroy(f);
    }
}

/* err_hdr holds the first off-mesh header ("capture err_hdr := head[i] if
 * err_offmesh was still clear"), and err_offmesh stays set. Three
 * off-mesh headers, pushed in cycles 0, 1, 2, are discarded in cycles 1,
 * 2, 3; from cycle 2 on the status shows the first, whatever follows. */
static void test_err_hdr_keeps_the_first_off_mesh_header(void **state)
{
    (void)state;
    const uint32_t hdr[3] = {wm_header(7, 0, 0, 1), wm_header(0, 9, 0, 2), wm_header(3, 3, 0, 3)};
    FOR_EACH_BACKEND(ops)
    {
        wm_fabric *f = ops->create(3, 3);
        for (unsigned c = 0; c < 12; c++) {
            const wm_pe_status st = ops->pe_status(f, 1, 1);
            if (c >= 2) {
                assert_true(st.status & WM_ST_ERR_OFFMESH);
                if (st.err_hdr != hdr[0])
                    fail_msg("%s: cycle %u: err_hdr %08x, the first off-mesh header was %08x", ops->name, c,
                             st.err_hdr, hdr[0]);
            } else {
                assert_false(st.status & WM_ST_ERR_OFFMESH);
            }
            if (c < 3) ops->pe_push(f, 1, 1, hdr[c]);
            /* and a good message after them, which changes nothing */
            if (c == 3) ops->pe_push(f, 1, 1, wm_header(1, 1, 0, 4));
            if (ops->pe_status(f, 1, 1).rx_count) ops->pe_pop(f, 1, 1);
            ops->step(f);
        }
        assert_int_equal(ops->pe_status(f, 1, 1).err_hdr, hdr[0]);
        ops->destroy(f);
    }
}

/* A long off-mesh message is discarded whole, one wavelet a cycle as they
 * come, while the router carries other traffic on its other inputs
 * ("Other traffic is unaffected").
 *
 * On a 3x1 mesh (0,0) pushes an off-mesh header with WM_LEN_MAX data wavelets,
 * each of them a valid header to (2,0): one left behind by the discard
 * would be routed there. The header goes in cycle 0, the data from cycle
 * 1 on, one a cycle but for two idle cycles after every eighth: the
 * discard goes on across a TX queue that runs empty. Each wavelet is
 * popped the cycle after its push, so TX holds one wavelet in the cycle
 * after a push and none otherwise. A header to (2,0) pushed in the cycle
 * after the last data wavelet (cycle `last`) is in (2,0)'s RX at
 * last + 3 + 2*2: the first and only wavelet (2,0) ever receives.
 *
 * Meanwhile (2,0) streams 20 messages of 3 data wavelets to (0,0), one
 * wavelet a cycle from cycle 0: two hops, no contention for (0,0)'s L
 * output (the discard uses none), so wavelet k of the stream is in (0,0)'s
 * RX at cycle 7 + k, and (0,0) pops it there. */
static void test_a_long_off_mesh_message_is_discarded_whole_while_traffic_flows(void **state)
{
    (void)state;
    const uint32_t off = wm_header(9, 0, WM_LEN_MAX, 0x33), good = wm_header(2, 0, 0, 0x24);
    enum { STREAM = 20 * 4, CYCLES = 400 };
    /* what (0,0) pushes in each cycle, 0 for nothing */
    static uint32_t push_at[CYCLES];
    unsigned c = 0;
    push_at[c++] = off;
    for (unsigned k = 1; k <= WM_LEN_MAX; k++) {
        push_at[c++] = wm_header(2, 0, 0, k);
        if (k % 8 == 0) c += 2;
    }
    const unsigned good_at = c;
    push_at[c] = good;
    FOR_EACH_BACKEND(ops)
    {
        wm_fabric *f = ops->create(3, 1);
        unsigned streamed = 0, popped = 0, at2 = 0;
        for (c = 0; c < CYCLES; c++) {
            const wm_pe_status s0 = ops->pe_status(f, 0, 0), s2 = ops->pe_status(f, 2, 0);
            if (push_at[c]) ops->pe_push(f, 0, 0, push_at[c]);
            const unsigned holds = c > 0 && push_at[c - 1] ? 1 : 0;
            if (s0.tx_count != holds)
                fail_msg("%s: cycle %u: (0,0) TX holds %u; discarding each wavelet as it comes, it holds %u",
                         ops->name, c, s0.tx_count, holds);
            if (streamed < STREAM && s2.tx_count < WM_TX_DEPTH) {
                ops->pe_push(f, 2, 0, streamed % 4 == 0 ? wm_header(0, 0, 3, streamed / 4) : 0xe0000000u + streamed);
                streamed++;
            }
            if (s0.rx_count) {
                if (c != 7 + popped) fail_msg("%s: stream wavelet %u in (0,0)'s RX at cycle %u, not %u", ops->name,
                                              popped, c, 7 + popped);
                assert_int_equal(s0.rx_head, popped % 4 == 0 ? wm_header(0, 0, 3, popped / 4) : 0xe0000000u + popped);
                ops->pe_pop(f, 0, 0);
                popped++;
            }
            if (s2.rx_count) {
                if (c != good_at + 7 || s2.rx_head != good)
                    fail_msg("%s: (2,0) received %08x at cycle %u; only %08x, at %u", ops->name, s2.rx_head, c, good,
                             good_at + 7);
                ops->pe_pop(f, 2, 0);
                at2++;
            }
            ops->step(f);
        }
        assert_int_equal(popped, STREAM);
        assert_int_equal(at2, 1);
        const wm_pe_status st = ops->pe_status(f, 0, 0);
        assert_int_equal(st.status, WM_ST_ERR_OFFMESH);
        assert_int_equal(st.err_hdr, off);
        assert_true(ops->quiescent(f));
        ops->destroy(f);
    }
}

/* ------------------------------------------------------------ sticky errors */

/* err_rx_empty is sticky: a refused pop sets it at the edge, and nothing
 * clears it, not the pops that succeed afterwards. (1,0) of a 2x1 mesh
 * pops its empty RX queue in cycle 0 (the flag is set from cycle 1);
 * (0,0) pushes a header and one data wavelet to it in cycles 1 and 2: one
 * hop, in its RX queue at 1 + 3 + 2 = 6 and 7, popped there. */
static void test_err_rx_empty_is_sticky(void **state)
{
    (void)state;
    FOR_EACH_BACKEND(ops)
    {
        wm_fabric *f = ops->create(2, 1);
        unsigned got = 0;
        for (unsigned c = 0; c < 40; c++) {
            const wm_pe_status st = ops->pe_status(f, 1, 0);
            const uint8_t flags = st.status & (uint8_t)~WM_ST_BUSY;
            if (flags != (c >= 1 ? WM_ST_ERR_RX_EMPTY : 0))
                fail_msg("%s: cycle %u: (1,0)'s flags %x, the page says %x", ops->name, c, flags,
                         c >= 1 ? WM_ST_ERR_RX_EMPTY : 0);
            if (c == 0) ops->pe_pop(f, 1, 0);
            if (c == 1) ops->pe_push(f, 0, 0, wm_header(1, 0, 1, 5));
            if (c == 2) ops->pe_push(f, 0, 0, 0xabcd0001u);
            if (st.rx_count) {
                assert_int_equal(c, 6 + got);
                ops->pe_pop(f, 1, 0);
                got++;
            }
            ops->step(f);
        }
        assert_int_equal(got, 2);
        assert_int_equal(ops->pe_status(f, 0, 0).status, 0);
        ops->destroy(f);
    }
}

/* ------------------------------------------------------------ disabled routers */

/* A disabled router moves nothing, the data of a message whose header it
 * already passed included (step 7 needs en_q for an owned output too),
 * and its neighbours stop sending to it two edges after its enable_i
 * fell.
 *
 * On a 3x1 mesh (0,0) sends H and D1..D20 to (2,0), one wavelet a cycle
 * from cycle 0. Wavelet j (0 = H) is in (0,0)'s E register at 2 + j,
 * at the head of (1,0)'s input W at 3 + j, in (1,0)'s E register at 4 + j.
 * (1,0) is disabled before the step of cycle 6: in cycle 6 it still moves
 * D3 (in its E register at 7), from cycle 7 it moves nothing. (0,0) sees
 * it (NE) from cycle 8: in cycle 7 it sends D6 (its E register at 8; a
 * credit is there: one comes back every cycle), then nothing; D4..D6 wait
 * in (1,0)'s input W. Enabled before the step of cycle 20: (1,0) moves
 * D4 in cycle 21 and one a cycle after (E register: D_k at 18 + k, D20 at
 * 38); (0,0) sees it from cycle 22 and sends D7 then (E register: D_k at
 * 16 + k, D20 at 36). */
static void test_a_disabled_router_moves_no_data_of_a_message_in_progress(void **state)
{
    (void)state;
    FOR_EACH_BACKEND(ops)
    {
        wm_fabric *f = ops->create(3, 1);
        events ev = {0};
        ops->set_link_hook(f, record, &ev);
        uint32_t msg[21];
        msg[0] = wm_header(2, 0, 20, 0x35);
        for (unsigned k = 1; k <= 20; k++) msg[k] = 0xb0d10000u + k;
        unsigned pushed = 0, got = 0;
        for (unsigned c = 0; c < 80; c++) {
            if (c == 6) ops->set_enable(f, 1, 0, false);
            if (c == 20) ops->set_enable(f, 1, 0, true);
            if (pushed < 21 && ops->pe_status(f, 0, 0).tx_count < WM_TX_DEPTH) ops->pe_push(f, 0, 0, msg[pushed++]);
            const wm_pe_status rx = ops->pe_status(f, 2, 0);
            if (rx.rx_count) {
                assert_int_equal(rx.rx_head, msg[got]);
                ops->pe_pop(f, 2, 0);
                got++;
            }
            if (c == 15) {
                /* D4..D6 wait in front of the disabled router */
                wm_flight where[8];
                const size_t n = ops->in_flight(f, where, 8);
                bool seen = false;
                for (size_t i = 0; i < n && i < 8; i++) {
                    if (where[i].x != 1 || where[i].place != WM_AT_INPUT || where[i].port != WM_PORT_W) continue;
                    assert_int_equal(where[i].count, 3);
                    assert_int_equal(where[i].head, msg[4]);
                    seen = true;
                }
                assert_true(seen);
            }
            ops->step(f);
        }
        assert_int_equal(got, 21);
        wm_link_event e[32];
        assert_int_equal(events_at(&ev, 0, 0, WM_PORT_E, e, 32), 21);
        for (unsigned j = 0; j <= 6; j++) expect_event(&e[j], 2 + j, msg[j], "(0,0) E before the disable");
        for (unsigned j = 7; j <= 20; j++) expect_event(&e[j], 16 + j, msg[j], "(0,0) E after it");
        assert_int_equal(events_at(&ev, 1, 0, WM_PORT_E, e, 32), 21);
        for (unsigned j = 0; j <= 3; j++) expect_event(&e[j], 4 + j, msg[j], "(1,0) E before the disable");
        for (unsigned j = 4; j <= 20; j++) expect_event(&e[j], 18 + j, msg[j], "(1,0) E after it");
        free(ev.ev);
        ops->destroy(f);
    }
}

/* Each output honours its own neighbour's enable, and only that one
 * ("ok[o] = CR[o] != 0 && (o == L || NE[o])"), in all four directions.
 *
 * (1,1) of a 3x3 mesh; one neighbour d is disabled before the step of
 * cycle 0, so NE[d] is 0 from cycle 2 (NE is 1 in cycle 1: it sampled the
 * neighbour's en_q of cycle 0). In cycles 5..8 (1,1) pushes a header to
 * each neighbour, d's last: the three others move in cycles 6, 7, 8 (E,
 * W, N or S registers at 7, 8, 9), the one to d waits at the head of TX.
 * d is enabled before the step of cycle 20: its en_q is 1 from 21, NE[d]
 * from 22, the header moves in cycle 22 and is in (1,1)'s d register at
 * 23, and nothing is ever in that register before. */
static void test_each_output_honours_its_own_neighbours_enable(void **state)
{
    (void)state;
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0}; /* N E S W */
    FOR_EACH_BACKEND(ops)
    {
        for (unsigned d = 0; d < 4; d++) {
            wm_fabric *f = ops->create(3, 3);
            events ev = {0};
            ops->set_link_hook(f, record, &ev);
            const unsigned nx = (unsigned)(1 + dx[d]), ny = (unsigned)(1 + dy[d]);
            ops->set_enable(f, nx, ny, false);
            uint32_t order[4];
            unsigned k = 0;
            for (unsigned o = 1; o <= 4; o++) {
                const unsigned p = (d + o) % 4; /* the others first, d last */
                order[k++] = wm_header((unsigned)(1 + dx[p]), (unsigned)(1 + dy[p]), 0, p);
            }
            for (unsigned c = 0; c < 40; c++) {
                if (c >= 5 && c < 9) ops->pe_push(f, 1, 1, order[c - 5]);
                if (c == 20) ops->set_enable(f, nx, ny, true);
                for (unsigned t = 0; t < 9; t++)
                    if (ops->pe_status(f, t % 3, t / 3).rx_count) ops->pe_pop(f, t % 3, t / 3);
                ops->step(f);
            }
            for (unsigned o = 1; o <= 4; o++) {
                const unsigned p = (d + o) % 4;
                wm_link_event e[4];
                if (events_at(&ev, 1, 1, p, e, 4) != 1)
                    fail_msg("%s: neighbour %u disabled: %zu wavelets in (1,1)'s output %u", ops->name, d,
                             events_at(&ev, 1, 1, p, e, 4), p);
                expect_event(&e[0], p == d ? 23 : 6 + o, order[o - 1],
                             p == d ? "to the disabled neighbour" : "to an enabled one");
            }
            free(ev.ev);
            ops->destroy(f);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_disabled_router_keeps_its_tx_queue_during_an_off_mesh_discard),
        cmocka_unit_test(test_err_hdr_keeps_the_first_off_mesh_header),
        cmocka_unit_test(test_a_long_off_mesh_message_is_discarded_whole_while_traffic_flows),
        cmocka_unit_test(test_err_rx_empty_is_sticky),
        cmocka_unit_test(test_a_disabled_router_moves_no_data_of_a_message_in_progress),
        cmocka_unit_test(test_each_output_honours_its_own_neighbours_enable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
