/* test_fabric.c: the fabric's behaviours, checked on every backend.
 *
 * Each check drives a backend through the ops table only, so the same file
 * tests the Verilated RTL ("rtl"), and the software model ("sw") whenever
 * it is registered. The last group runs identical random traffic through
 * the C-wired tiles and through the Verilated rtl/mesh.v (and sw) and
 * requires the identical link-event trace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabric/fabric.h"

/* ------------------------------------------------------------ harness */

/* Data word i of message id: identifies the message and the position. */
static uint32_t data_word(unsigned id, unsigned i) { return ((uint32_t)id << 8) | (i & 0xffu); }

typedef struct {
    unsigned src, dst, len;
    unsigned seen;
} expect_msg;

typedef struct {
    uint32_t *w;
    size_t n, cap, pos;
} stream;

typedef struct {
    const wm_fabric_ops *ops;
    wm_fabric *f;
    unsigned w, h;
    stream *tx;       /* per PE: wavelets still to push */
    stream *rx;       /* per PE: wavelets popped */
    bool *hold;       /* per PE: do not pop */
    expect_msg *msgs;
    unsigned nmsgs, capmsgs;
} harness;

static void stream_put(stream *s, uint32_t v)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->w = realloc(s->w, s->cap * sizeof *s->w);
        assert_non_null(s->w);
    }
    s->w[s->n++] = v;
}

static harness *h_create(const wm_fabric_ops *ops, unsigned w, unsigned h)
{
    harness *hs = calloc(1, sizeof *hs);
    assert_non_null(hs);
    hs->ops = ops;
    hs->w = w;
    hs->h = h;
    hs->f = ops->create(w, h);
    assert_non_null(hs->f);
    hs->tx = calloc((size_t)w * h, sizeof *hs->tx);
    hs->rx = calloc((size_t)w * h, sizeof *hs->rx);
    hs->hold = calloc((size_t)w * h, sizeof *hs->hold);
    return hs;
}

static void h_destroy(harness *hs)
{
    for (unsigned i = 0; i < hs->w * hs->h; i++) {
        free(hs->tx[i].w);
        free(hs->rx[i].w);
    }
    free(hs->tx);
    free(hs->rx);
    free(hs->hold);
    free(hs->msgs);
    hs->ops->destroy(hs->f);
    free(hs);
}

/* Queue a message of len data wavelets from (sx,sy) to (dx,dy). */
static unsigned h_send(harness *hs, unsigned sx, unsigned sy, unsigned dx, unsigned dy, unsigned len)
{
    if (hs->nmsgs == hs->capmsgs) {
        hs->capmsgs = hs->capmsgs ? 2 * hs->capmsgs : 64;
        hs->msgs = realloc(hs->msgs, hs->capmsgs * sizeof *hs->msgs);
        assert_non_null(hs->msgs);
    }
    unsigned id = hs->nmsgs++;
    hs->msgs[id] = (expect_msg){sy * hs->w + sx, dy * hs->w + dx, len, 0};
    stream *s = &hs->tx[sy * hs->w + sx];
    stream_put(s, wm_header(dx, dy, len, id & WM_TAG_MAX));
    for (unsigned i = 0; i < len; i++) stream_put(s, data_word(id, i));
    return id;
}

/* One cycle: every PE pushes its next wavelet if TX has room and pops its
 * RX head unless held. */
static void h_step(harness *hs)
{
    for (unsigned y = 0; y < hs->h; y++) {
        for (unsigned x = 0; x < hs->w; x++) {
            unsigned t = y * hs->w + x;
            wm_pe_status st = hs->ops->pe_status(hs->f, x, y);
            stream *s = &hs->tx[t];
            if (s->pos < s->n && st.tx_count < WM_TX_DEPTH) hs->ops->pe_push(hs->f, x, y, s->w[s->pos++]);
            if (!hs->hold[t] && st.rx_count) {
                stream_put(&hs->rx[t], st.rx_head);
                hs->ops->pe_pop(hs->f, x, y);
            }
        }
    }
    hs->ops->step(hs->f);
}

static bool h_idle(const harness *hs)
{
    for (unsigned t = 0; t < hs->w * hs->h; t++) {
        if (hs->tx[t].pos < hs->tx[t].n) return false;
        if (!hs->hold[t] && hs->ops->pe_status(hs->f, t % hs->w, t / hs->w).rx_count) return false;
    }
    return hs->ops->quiescent(hs->f);
}

/* Run until everything sent has drained, or max cycles. */
static void h_run(harness *hs, unsigned max)
{
    for (unsigned c = 0; c < max && !h_idle(hs); c++) h_step(hs);
}

/* Parse every PE's RX stream into messages and check each is intact, at
 * the right PE, and seen exactly once; the stream must be whole messages
 * back to back (wormhole: no interleaving). */
static void h_check_delivery(harness *hs)
{
    for (unsigned t = 0; t < hs->w * hs->h; t++) {
        const stream *r = &hs->rx[t];
        size_t i = 0;
        while (i < r->n) {
            uint32_t hdr = r->w[i++];
            assert_int_equal(wm_header_col(hdr), t % hs->w);
            assert_int_equal(wm_header_row(hdr), t / hs->w);
            unsigned len = wm_header_len(hdr);
            assert_true(i + len <= r->n);
            unsigned id = r->w[i] >> 8;
            assert_true(id < hs->nmsgs);
            assert_int_equal(wm_header_tag(hdr), id & WM_TAG_MAX);
            assert_int_equal(hs->msgs[id].dst, t);
            assert_int_equal(hs->msgs[id].len, len);
            for (unsigned k = 0; k < len; k++) assert_int_equal(r->w[i + k], data_word(id, k));
            hs->msgs[id].seen++;
            i += len;
        }
    }
    for (unsigned id = 0; id < hs->nmsgs; id++) assert_int_equal(hs->msgs[id].seen, 1);
}

/* Source PE index of each message in the order PE t received them. */
static unsigned h_arrivals(const harness *hs, unsigned t, unsigned *srcs, unsigned max)
{
    const stream *r = &hs->rx[t];
    unsigned n = 0;
    for (size_t i = 0; i < r->n;) {
        unsigned len = wm_header_len(r->w[i]);
        if (n < max) srcs[n] = hs->msgs[r->w[i + 1] >> 8].src;
        n++;
        i += 1 + len;
    }
    return n;
}

/* Every backend this build has; "rtl-mesh" is fixed-size and only joins
 * the cross-check. */
static const char *const backend_names[] = {"rtl", "sw"};

#define FOR_EACH_BACKEND(ops)                                                                  \
    for (size_t bi_ = 0; bi_ < sizeof backend_names / sizeof backend_names[0]; bi_++)          \
        for (const wm_fabric_ops *ops = wm_fabric_backend(backend_names[bi_]); ops; ops = NULL)

/* ------------------------------------------------------------ tests */

static void all_pairs(const wm_fabric_ops *ops, unsigned w, unsigned h)
{
    harness *hs = h_create(ops, w, h);
    for (unsigned s = 0; s < w * h; s++)
        for (unsigned d = 0; d < w * h; d++) h_send(hs, s % w, s / w, d % w, d / w, 1 + (s + d) % 5);
    h_run(hs, 200000);
    assert_true(h_idle(hs));
    h_check_delivery(hs);
    for (unsigned t = 0; t < w * h; t++)
        assert_int_equal(ops->pe_status(hs->f, t % w, t / w).status & ~WM_ST_BUSY, 0);
    h_destroy(hs);
}

static void test_every_source_to_every_destination(void **state)
{
    (void)state;
    FOR_EACH_BACKEND(ops)
    {
        all_pairs(ops, 4, 4);
        all_pairs(ops, 7, 1);
        all_pairs(ops, 1, 7);
        all_pairs(ops, 4, 2);
    }
}

/* The header's path and timing, exactly as docs/fabric.md tabulates it:
 * pushed in cycle 0, h hops, in the destination's RX at cycle 3 + 2h. */
typedef struct {
    uint64_t cycle[16];
    unsigned x[16], y[16], port[16];
    unsigned n;
} event_log;

static void log_event(void *ctx, const wm_link_event *ev)
{
    event_log *l = ctx;
    if (l->n < 16) {
        l->cycle[l->n] = ev->cycle;
        l->x[l->n] = ev->x;
        l->y[l->n] = ev->y;
        l->port[l->n] = ev->port;
    }
    l->n++;
}

static void test_header_latency_two_cycles_per_hop(void **state)
{
    (void)state;
    FOR_EACH_BACKEND(ops)
    {
        wm_fabric *f = ops->create(3, 2);
        event_log log = {0};
        ops->set_link_hook(f, log_event, &log);
        ops->pe_push(f, 0, 0, wm_header(2, 1, 0, 0));
        uint64_t arrived = 0;
        for (int c = 0; c < 40 && !arrived; c++) {
            ops->step(f);
            if (ops->pe_status(f, 2, 1).rx_count) arrived = ops->cycle(f);
        }
        /* (0,0) E at 2, (1,0) E at 4, (2,0) S at 6, (2,1) L at 8, RX at 9 */
        assert_int_equal(log.n, 4);
        const unsigned ex[4] = {0, 1, 2, 2}, ey[4] = {0, 0, 0, 1};
        const unsigned ep[4] = {WM_PORT_E, WM_PORT_E, WM_PORT_S, WM_PORT_L};
        for (unsigned i = 0; i < 4; i++) {
            assert_int_equal(log.cycle[i], 2 + 2 * i);
            assert_int_equal(log.x[i], ex[i]);
            assert_int_equal(log.y[i], ey[i]);
            assert_int_equal(log.port[i], ep[i]);
        }
        assert_int_equal(arrived, 3 + 2 * 3);
        wm_pe_status st = ops->pe_status(f, 2, 1);
        assert_int_equal(st.rx_head, wm_header(2, 1, 0, 0));
        assert_int_equal(st.tsc, arrived);
        assert_true(ops->quiescent(f));
        ops->destroy(f);
    }
}

/* Every PE's tsc is the cycle count, at every cycle, on every backend: a
 * counter that skips or stalls once, anywhere in a long run, is caught
 * at that cycle. */
static void test_tsc_counts_every_cycle(void **state)
{
    (void)state;
    FOR_EACH_BACKEND(ops)
    {
        wm_fabric *f = ops->create(2, 2);
        for (int c = 0; c < 300; c++) {
            ops->step(f);
            for (unsigned y = 0; y < 2; y++)
                for (unsigned x = 0; x < 2; x++)
                    assert_int_equal(ops->pe_status(f, x, y).tsc, ops->cycle(f));
        }
        assert_int_equal(ops->cycle(f), 300);
        ops->destroy(f);
    }
}

static void test_wormhole_never_interleaves(void **state)
{
    (void)state;
    FOR_EACH_BACKEND(ops)
    {
        /* (0,0) and (2,0) both send 30-wavelet messages to (1,0) at once:
         * they contend for (1,0)'s ramp output. */
        harness *hs = h_create(ops, 3, 1);
        unsigned a = h_send(hs, 0, 0, 1, 0, 30);
        unsigned b = h_send(hs, 2, 0, 1, 0, 30);
        h_send(hs, 0, 0, 1, 0, 30);
        h_send(hs, 2, 0, 1, 0, 30);
        h_run(hs, 10000);
        h_check_delivery(hs);
        unsigned srcs[4];
        assert_int_equal(h_arrivals(hs, 1, srcs, 4), 4);
        /* both arrive together; round-robin alternates them */
        assert_int_not_equal(srcs[0], srcs[1]);
        assert_int_not_equal(srcs[1], srcs[2]);
        assert_int_not_equal(srcs[2], srcs[3]);
        (void)a;
        (void)b;
        h_destroy(hs);
    }
}

static void test_round_robin_is_fair(void **state)
{
    (void)state;
    FOR_EACH_BACKEND(ops)
    {
        /* Five inputs of (1,1) — N, E, S, W and its own PE — all keep
         * sending to (1,1): they contend for one output all the time. */
        harness *hs = h_create(ops, 3, 3);
        const unsigned sx[5] = {1, 2, 1, 0, 1}, sy[5] = {0, 1, 2, 1, 1};
        for (unsigned k = 0; k < 8; k++)
            for (unsigned s = 0; s < 5; s++) h_send(hs, sx[s], sy[s], 1, 1, 3);
        h_run(hs, 20000);
        h_check_delivery(hs);
        unsigned srcs[40];
        assert_int_equal(h_arrivals(hs, 4, srcs, 40), 40);
        /* Between two messages of one source, no other source gets more
         * than one message through: each waits at most one turn per input. */
        for (unsigned i = 0; i < 40; i++) {
            unsigned count[9] = {0};
            for (unsigned j = i + 1; j < 40 && srcs[j] != srcs[i]; j++) count[srcs[j]]++;
            for (unsigned s = 0; s < 9; s++) assert_true(count[s] <= 1);
        }
        h_destroy(hs);
    }
}

static void test_back_pressure_loses_nothing(void **state)
{
    (void)state;
    FOR_EACH_BACKEND(ops)
    {
        harness *hs = h_create(ops, 2, 2);
        for (unsigned k = 0; k < 5; k++) {
            h_send(hs, 0, 0, 1, 1, 6);
            h_send(hs, 1, 0, 1, 1, 6);
            h_send(hs, 0, 1, 1, 1, 6);
        }
        hs->hold[3] = true;
        for (unsigned c = 0; c < 400; c++) h_step(hs);
        wm_pe_status st = ops->pe_status(hs->f, 1, 1);
        assert_int_equal(st.rx_count, WM_RX_DEPTH);
        assert_false(ops->quiescent(hs->f));
        assert_int_equal(hs->rx[3].n, 0);
        hs->hold[3] = false;
        h_run(hs, 20000);
        assert_true(h_idle(hs));
        h_check_delivery(hs);
        assert_int_equal(hs->rx[3].n, 15 * 7);
        for (unsigned t = 0; t < 4; t++)
            assert_int_equal(ops->pe_status(hs->f, t % 2, t / 2).status & ~WM_ST_BUSY, 0);
        h_destroy(hs);
    }
}

static void test_disabled_router_stalls_visibly(void **state)
{
    (void)state;
    FOR_EACH_BACKEND(ops)
    {
        harness *hs = h_create(ops, 4, 1);
        ops->set_enable(hs->f, 2, 0, false);
        unsigned id = h_send(hs, 0, 0, 3, 0, 3);
        for (unsigned c = 0; c < 200; c++) h_step(hs);
        assert_int_equal(hs->rx[3].n, 0);
        assert_false(ops->quiescent(hs->f));
        /* The whole message waits in (1,0)'s west input buffer, in front of
         * the disabled router. */
        wm_flight where[8];
        size_t n = ops->in_flight(hs->f, where, 8);
        assert_int_equal(n, 1);
        assert_int_equal(where[0].x, 1);
        assert_int_equal(where[0].y, 0);
        assert_int_equal(where[0].place, WM_AT_INPUT);
        assert_int_equal(where[0].port, WM_PORT_W);
        assert_int_equal(where[0].count, 4);
        assert_int_equal(where[0].head, wm_header(3, 0, 3, id));
        /* Enabled again, it arrives intact. */
        ops->set_enable(hs->f, 2, 0, true);
        h_run(hs, 1000);
        assert_true(h_idle(hs));
        h_check_delivery(hs);
        h_destroy(hs);
    }
}

static void test_disabled_router_accepts_nothing_from_its_pe(void **state)
{
    (void)state;
    FOR_EACH_BACKEND(ops)
    {
        harness *hs = h_create(ops, 2, 1);
        ops->set_enable(hs->f, 0, 0, false);
        h_send(hs, 0, 0, 1, 0, 2);
        for (unsigned c = 0; c < 100; c++) h_step(hs);
        wm_flight where[4];
        assert_int_equal(ops->in_flight(hs->f, where, 4), 1);
        assert_int_equal(where[0].place, WM_AT_TX);
        assert_int_equal(where[0].count, 3);
        assert_int_equal(hs->rx[1].n, 0);
        h_destroy(hs);
    }
}

static void test_off_mesh_header_is_discarded_and_flagged(void **state)
{
    (void)state;
    FOR_EACH_BACKEND(ops)
    {
        harness *hs = h_create(ops, 3, 3);
        /* A message to column 5 of a 3-wide mesh, then good traffic. */
        stream *s = &hs->tx[0];
        const uint32_t bad = wm_header(5, 1, 3, 0x5a);
        stream_put(s, bad);
        for (unsigned i = 0; i < 3; i++) stream_put(s, 0xbad00000u + i);
        h_send(hs, 0, 0, 2, 2, 2);
        h_send(hs, 1, 1, 0, 0, 4);
        /* and one to row 3 from (2,2) */
        stream_put(&hs->tx[8], wm_header(0, 3, 0, 0));
        h_send(hs, 2, 2, 0, 2, 1);
        h_run(hs, 2000);
        assert_true(h_idle(hs));
        h_check_delivery(hs);
        wm_pe_status st = ops->pe_status(hs->f, 0, 0);
        assert_true(st.status & WM_ST_ERR_OFFMESH);
        assert_int_equal(st.err_hdr, bad);
        st = ops->pe_status(hs->f, 2, 2);
        assert_true(st.status & WM_ST_ERR_OFFMESH);
        assert_int_equal(st.err_hdr, wm_header(0, 3, 0, 0));
        for (unsigned t = 1; t < 8; t++)
            assert_int_equal(ops->pe_status(hs->f, t % 3, t / 3).status, 0);
        h_destroy(hs);
    }
}

static void test_refused_accesses_set_sticky_flags(void **state)
{
    (void)state;
    FOR_EACH_BACKEND(ops)
    {
        wm_fabric *f = ops->create(1, 1);
        ops->set_enable(f, 0, 0, false); /* nothing drains TX */
        for (unsigned i = 0; i < WM_TX_DEPTH; i++) {
            ops->pe_push(f, 0, 0, wm_header(0, 0, 0, i));
            ops->step(f);
        }
        assert_int_equal(ops->pe_status(f, 0, 0).tx_count, WM_TX_DEPTH);
        assert_int_equal(ops->pe_status(f, 0, 0).status, WM_ST_BUSY);
        ops->pe_push(f, 0, 0, 1); /* full */
        ops->pe_pop(f, 0, 0);     /* empty */
        ops->step(f);
        wm_pe_status st = ops->pe_status(f, 0, 0);
        assert_int_equal(st.status, WM_ST_BUSY | WM_ST_ERR_TX_FULL | WM_ST_ERR_RX_EMPTY);
        assert_int_equal(st.tx_count, WM_TX_DEPTH);
        ops->destroy(f);
    }
}

/* ------------------------------------------------------------ cross-check */

typedef struct {
    wm_link_event *ev;
    size_t n, cap;
} trace;

static void record(void *ctx, const wm_link_event *ev)
{
    trace *t = ctx;
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->ev = realloc(t->ev, t->cap * sizeof *t->ev);
        assert_non_null(t->ev);
    }
    t->ev[t->n++] = *ev;
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random traffic with random pop stalls and a disabled router for a while;
 * the decisions depend only on the seed and on the PE status, so two
 * equivalent fabrics get identical inputs. */
static void random_traffic(const wm_fabric_ops *ops, unsigned w, unsigned h, uint64_t seed, unsigned cycles,
                           trace *out)
{
    harness *hs = h_create(ops, w, h);
    ops->set_link_hook(hs->f, record, out);
    uint64_t rng = seed;
    for (unsigned c = 0; c < cycles; c++) {
        if (c == 300) ops->set_enable(hs->f, 1, 1, false);
        if (c == 700) ops->set_enable(hs->f, 1, 1, true);
        for (unsigned t = 0; t < w * h; t++) {
            uint64_t r = rng_next(&rng);
            if (c < cycles - 800 && (r & 0xff) < 20)
                h_send(hs, t % w, t / w, (unsigned)(r >> 8) % w, (unsigned)(r >> 16) % h, (unsigned)(r >> 24) % 12);
            hs->hold[t] = ((r >> 40) & 3) == 0;
        }
        h_step(hs);
    }
    h_destroy(hs);
}

static void test_c_wired_tiles_match_verilated_mesh(void **state)
{
    (void)state;
    const unsigned w = 4, h = 3;
    trace ref = {0};
    random_traffic(&wm_fabric_rtl_mesh, w, h, 0x9e3779b97f4a7c15ull, 4000, &ref);
    assert_true(ref.n > 5000);
    FOR_EACH_BACKEND(ops)
    {
        trace got = {0};
        random_traffic(ops, w, h, 0x9e3779b97f4a7c15ull, 4000, &got);
        size_t n = ref.n < got.n ? ref.n : got.n;
        for (size_t i = 0; i < n; i++) {
            const wm_link_event *a = &ref.ev[i], *b = &got.ev[i];
            if (a->cycle != b->cycle || a->x != b->x || a->y != b->y || a->port != b->port || a->data != b->data)
                fail_msg("%s: event %zu differs: mesh.v cycle %llu (%u,%u) port %u %08x, got cycle %llu (%u,%u) "
                         "port %u %08x",
                         ops->name, i, (unsigned long long)a->cycle, a->x, a->y, a->port, a->data,
                         (unsigned long long)b->cycle, b->x, b->y, b->port, b->data);
        }
        assert_int_equal(got.n, ref.n);
        free(got.ev);
    }
    free(ref.ev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_latency_two_cycles_per_hop),
        cmocka_unit_test(test_tsc_counts_every_cycle),
        cmocka_unit_test(test_every_source_to_every_destination),
        cmocka_unit_test(test_wormhole_never_interleaves),
        cmocka_unit_test(test_round_robin_is_fair),
        cmocka_unit_test(test_back_pressure_loses_nothing),
        cmocka_unit_test(test_disabled_router_stalls_visibly),
        cmocka_unit_test(test_disabled_router_accepts_nothing_from_its_pe),
        cmocka_unit_test(test_off_mesh_header_is_discarded_and_flagged),
        cmocka_unit_test(test_refused_accesses_set_sticky_flags),
        cmocka_unit_test(test_c_wired_tiles_match_verilated_mesh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
