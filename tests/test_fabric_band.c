/* test_fabric_band.c: a mesh split into blocks (docs/fabric.md,
 * "Blocks") behaves as the whole mesh, cycle for cycle.
 *
 * On each backend with blocks (rtl, sw), a whole W x H fabric runs beside
 * the same mesh made as uneven blocks in this one process: three bands of
 * rows, a 7 x 5 mesh as 2 x 3 blocks, a 7 x 1 mesh as three bands of
 * columns. The blocks exchange their edges before every step
 * (band_edge_out of one side into band_edge_in of the other, both ways at
 * every boundary, north-south and east-west). The same seeded random
 * traffic goes into both: host pushes of well-formed messages to random
 * destinations (across the blocks, and now and then off the mesh), pops
 * (now and then of an empty queue), pushes into a full TX queue, and
 * enables switched off and on again; or, with cores, every core running
 * one program that sends to random PEs and drains its RX queue. Every
 * cycle, every tile's pe_status, the places in flight, the link events of
 * the cycle (and the core events and statuses), quiescence and the core
 * census must be the same. A run that drops one exchange that carries a
 * wavelet, across a north-south or an east-west boundary, must differ:
 * the comparison can fail. And a band of the sw backend holds what a mesh
 * of its rows holds, plus its two ghost rows: a quarter of a 1024 x 1024
 * mesh holds a quarter of its bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "event_log.h"

#include "core/randprog.h" /* wm_xorshift */
#include "core/rv32_asm.h"
#include "fabric/fabric.h"
#include "fabric/fabric_sw.h" /* wm_fabric_sw_parallel_steps */

enum { MAX_CUTS = 4, MAX_BLOCKS = MAX_CUTS * MAX_CUTS };

/* Where a mesh is cut: block (r, c) is rows [rows[r], rows[r + 1]) x
 * columns [cols[c], cols[c + 1]). cols NULL: bands of whole rows, made
 * with col_end 0 (every column). */
typedef struct {
    const unsigned *rows, *cols;
    unsigned nrows, ncols; /* blocks down and across */
} cuts;

/* A whole fabric and the same mesh in blocks, driven alike. */
typedef struct {
    const wm_fabric_ops *ops;
    unsigned w, h, nrows, ncols;
    unsigned rows[MAX_CUTS + 1], cols[MAX_CUTS + 1];
    wm_fabric *whole, *block[MAX_BLOCKS]; /* block (r, c) at r * ncols + c */
    link_log whole_links, block_links;    /* one step's; the blocks log into one */
    core_log whole_cores, block_cores;
    wm_edge_wire *one, *other;            /* max(w, h) wires each: across one boundary */
    wm_flight *whole_places, *block_places;
    size_t max_places;
    bool *disabled;                       /* per tile: set_enable(false) is in force */
    uint64_t crossings_ns, crossings_ew;  /* wavelets sent across a boundary between blocks */
    /* The fault: the first exchange into block drop_into from its side
     * drop_side that carries a wavelet, at cycle drop_from or later, is
     * not made. */
    bool drop;
    bool dropped;
    unsigned drop_into;
    wm_band_edge drop_side;
    uint64_t drop_from;
} split;

static wm_fabric *block_of(const split *sp, unsigned x, unsigned y)
{
    unsigned r = 0, c = 0;
    while (r < sp->nrows && y >= sp->rows[r + 1]) r++;
    while (c < sp->ncols && x >= sp->cols[c + 1]) c++;
    if (r == sp->nrows || c == sp->ncols) fail_msg("tile (%u,%u) is in no block", x, y);
    return sp->block[r * sp->ncols + c];
}

static void split_open(split *sp, const wm_fabric_ops *ops, unsigned w, unsigned h, bool cores, cuts cut,
                       wm_sw_threads threads)
{
    memset(sp, 0, sizeof *sp);
    sp->ops = ops;
    sp->w = w;
    sp->h = h;
    sp->nrows = cut.nrows;
    sp->ncols = cut.cols ? cut.ncols : 1;
    assert_true(sp->nrows <= MAX_CUTS && sp->ncols <= MAX_CUTS);
    memcpy(sp->rows, cut.rows, (sp->nrows + 1) * sizeof *cut.rows);
    if (cut.cols) memcpy(sp->cols, cut.cols, (sp->ncols + 1) * sizeof *cut.cols);
    else sp->cols[1] = w;
    assert_int_equal(sp->rows[0], 0);
    assert_int_equal(sp->rows[sp->nrows], h);
    assert_int_equal(sp->cols[0], 0);
    assert_int_equal(sp->cols[sp->ncols], w);
    /* threads: the blocks' (sw); the whole, the reference, on one */
    const wm_fabric_config whole_cfg = {.threads = WM_SW_THREADS_ONE};
    sp->whole = wm_fabric_create(ops, w, h, cores, &whole_cfg);
    assert_non_null(sp->whole);
    ops->set_link_hook(sp->whole, log_link, &sp->whole_links);
    if (cores) ops->set_core_hook(sp->whole, log_core, &sp->whole_cores);
    for (unsigned r = 0; r < sp->nrows; r++)
        for (unsigned c = 0; c < sp->ncols; c++) {
            wm_fabric_config cfg = {.threads = threads, .band = {sp->rows[r], sp->rows[r + 1], 0, 0}};
            if (cut.cols) {
                cfg.band.col_begin = sp->cols[c];
                cfg.band.col_end = sp->cols[c + 1];
            }
            wm_fabric **b = &sp->block[r * sp->ncols + c];
            *b = wm_fabric_create(ops, w, h, cores, &cfg);
            assert_non_null(*b);
            ops->set_link_hook(*b, log_link, &sp->block_links);
            if (cores) ops->set_core_hook(*b, log_core, &sp->block_cores);
        }
    const unsigned most = w > h ? w : h;
    sp->one = calloc(most, sizeof *sp->one);
    sp->other = calloc(most, sizeof *sp->other);
    sp->max_places = (size_t)w * h * 12;
    sp->whole_places = calloc(sp->max_places, sizeof *sp->whole_places);
    sp->block_places = calloc(sp->max_places, sizeof *sp->block_places);
    sp->disabled = calloc((size_t)w * h, sizeof *sp->disabled);
    assert_true(sp->one && sp->other && sp->whole_places && sp->block_places && sp->disabled);
}

static unsigned nblocks(const split *sp) { return sp->nrows * sp->ncols; }

static void split_close(split *sp)
{
    sp->ops->destroy(sp->whole);
    for (unsigned k = 0; k < nblocks(sp); k++) sp->ops->destroy(sp->block[k]);
    free(sp->whole_links.ev);
    free(sp->block_links.ev);
    free(sp->whole_cores.ev);
    free(sp->block_cores.ev);
    free(sp->one);
    free(sp->other);
    free(sp->whole_places);
    free(sp->block_places);
    free(sp->disabled);
}

/* ------------------------------------------------------------ the exchange and the step */

static bool carries_a_wavelet(const wm_edge_wire *wires, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (wires[i].valid) return true;
    return false;
}

/* One boundary: block a's side a_side faces block b's side b_side over n
 * wires; each side's edge into the other (unless the fault drops it). */
static void exchange_across(split *sp, unsigned a, wm_band_edge a_side, unsigned b, wm_band_edge b_side, unsigned n)
{
    const wm_fabric_ops *ops = sp->ops;
    ops->band_edge_out(sp->block[a], a_side, sp->one);
    ops->band_edge_out(sp->block[b], b_side, sp->other);
    const bool skip = sp->drop && !sp->dropped && b == sp->drop_into && b_side == sp->drop_side &&
                      ops->cycle(sp->block[b]) >= sp->drop_from && carries_a_wavelet(sp->one, n);
    if (skip) sp->dropped = true;
    else ops->band_edge_in(sp->block[b], b_side, sp->one);
    ops->band_edge_in(sp->block[a], a_side, sp->other);
}

/* What the MPI layer does between two steps: at every boundary, north-
 * south and east-west, each side's edge into the other. */
static void exchange(split *sp)
{
    for (unsigned r = 0; r < sp->nrows; r++)
        for (unsigned c = 0; c < sp->ncols; c++) {
            const unsigned k = r * sp->ncols + c;
            if (r + 1 < sp->nrows)
                exchange_across(sp, k, WM_EDGE_SOUTH, k + sp->ncols, WM_EDGE_NORTH, sp->cols[c + 1] - sp->cols[c]);
            if (c + 1 < sp->ncols)
                exchange_across(sp, k, WM_EDGE_EAST, k + 1, WM_EDGE_WEST, sp->rows[r + 1] - sp->rows[r]);
        }
}

static void step_all(split *sp)
{
    exchange(sp);
    sp->ops->step(sp->whole);
    for (unsigned k = 0; k < nblocks(sp); k++) sp->ops->step(sp->block[k]);
}

/* ------------------------------------------------------------ the comparison */

static int link_order(const void *a, const void *b)
{
    const wm_link_event *p = a, *q = b;
    if (p->y != q->y) return p->y < q->y ? -1 : 1;
    if (p->x != q->x) return p->x < q->x ? -1 : 1;
    return (int)p->port - (int)q->port;
}

static int core_order(const void *a, const void *b)
{
    const wm_core_event *p = a, *q = b;
    if (p->y != q->y) return p->y < q->y ? -1 : 1;
    return (int)p->x - (int)q->x;
}

/* Places in (y, x) order, and in a tile by place and port: one order
 * for the whole and for the blocks side by side. */
static int place_order(const void *a, const void *b)
{
    const wm_flight *p = a, *q = b;
    if (p->y != q->y) return p->y < q->y ? -1 : 1;
    if (p->x != q->x) return p->x < q->x ? -1 : 1;
    if (p->place != q->place) return (int)p->place - (int)q->place;
    return (int)p->port - (int)q->port;
}

static bool same_core_cycle(const wm_core_event *a, const wm_core_event *b)
{
    if (a->cycle != b->cycle || a->x != b->x || a->y != b->y) return false;
    const wm_core_cycle *p = &a->what, *q = &b->what;
    if (p->push != q->push || p->pop != q->pop || p->retire != q->retire || p->rd_we != q->rd_we) return false;
    if (p->push && p->push_data != q->push_data) return false;
    if (p->pop && a->pop_data != b->pop_data) return false;
    if (p->retire && (p->retire_pc != q->retire_pc || p->retire_insn != q->retire_insn)) return false;
    return !p->rd_we || (p->rd == q->rd && p->rd_data == q->rd_data);
}

static bool same_core_status(const wm_core_status *a, const wm_core_status *b)
{
    return a->started == b->started && a->waiting == b->waiting && a->pc == b->pc && a->retired == b->retired &&
           a->halt.state == b->halt.state && a->halt.exit_code == b->halt.exit_code &&
           a->halt.cause == b->halt.cause && a->halt.pc == b->halt.pc && a->halt.insn == b->halt.insn;
}

/* The whole fabric against its blocks at the current cycle, and the
 * events of the step that led to it; false (and a message) on the first
 * difference. */
static bool split_agrees(split *sp, bool cores)
{
    const wm_fabric_ops *ops = sp->ops;
    const uint64_t cycle = ops->cycle(sp->whole);
    for (unsigned k = 0; k < nblocks(sp); k++)
        if (ops->cycle(sp->block[k]) != cycle) {
            print_message("cycle %llu: block %u is at cycle %llu\n", (unsigned long long)cycle, k,
                          (unsigned long long)ops->cycle(sp->block[k]));
            return false;
        }
    for (unsigned y = 0; y < sp->h; y++)
        for (unsigned x = 0; x < sp->w; x++) {
            const wm_pe_status a = ops->pe_status(sp->whole, x, y), b = ops->pe_status(block_of(sp, x, y), x, y);
            if (a.tsc != b.tsc || a.rx_head != b.rx_head || a.tx_count != b.tx_count || a.rx_count != b.rx_count ||
                a.status != b.status || a.err_hdr != b.err_hdr) {
                print_message("cycle %llu: PE (%u,%u): whole tx %u rx %u status %x, block tx %u rx %u status %x\n",
                              (unsigned long long)cycle, x, y, a.tx_count, a.rx_count, a.status, b.tx_count,
                              b.rx_count, b.status);
                return false;
            }
            if (!cores) continue;
            const wm_core_status ca = ops->core_status(sp->whole, x, y), cb = ops->core_status(block_of(sp, x, y), x, y);
            if (!same_core_status(&ca, &cb)) {
                print_message("cycle %llu: core (%u,%u): whole pc %x retired %llu, block pc %x retired %llu\n",
                              (unsigned long long)cycle, x, y, ca.pc, (unsigned long long)ca.retired, cb.pc,
                              (unsigned long long)cb.retired);
                return false;
            }
        }
    bool quiet = true;
    size_t nplaces = 0, halted = 0, waiting = 0;
    for (unsigned k = 0; k < nblocks(sp); k++) {
        quiet = quiet && ops->quiescent(sp->block[k]);
        nplaces += ops->in_flight(sp->block[k], sp->block_places + nplaces, sp->max_places - nplaces);
        if (cores) {
            size_t hk, wk;
            ops->core_census(sp->block[k], &hk, &wk);
            halted += hk;
            waiting += wk;
        }
    }
    if (quiet != ops->quiescent(sp->whole)) {
        print_message("cycle %llu: the whole is%s quiescent, the blocks are%s\n", (unsigned long long)cycle,
                      ops->quiescent(sp->whole) ? "" : " not", quiet ? "" : " not");
        return false;
    }
    const size_t nwhole = ops->in_flight(sp->whole, sp->whole_places, sp->max_places);
    assert_true(nwhole <= sp->max_places && nplaces <= sp->max_places);
    if (nwhole != nplaces) {
        print_message("cycle %llu: %zu places in flight in the whole, %zu in the blocks\n", (unsigned long long)cycle,
                      nwhole, nplaces);
        return false;
    }
    if (nwhole) qsort(sp->whole_places, nwhole, sizeof *sp->whole_places, place_order);
    if (nplaces) qsort(sp->block_places, nplaces, sizeof *sp->block_places, place_order);
    for (size_t i = 0; i < nwhole; i++) {
        const wm_flight *a = &sp->whole_places[i], *b = &sp->block_places[i];
        if (a->x != b->x || a->y != b->y || a->place != b->place || a->port != b->port || a->count != b->count ||
            a->head != b->head) {
            print_message("cycle %llu: place %zu in flight: whole (%u,%u) place %u port %u count %u, block (%u,%u) "
                          "place %u port %u count %u\n",
                          (unsigned long long)cycle, i, a->x, a->y, a->place, a->port, a->count, b->x, b->y, b->place,
                          b->port, b->count);
            return false;
        }
    }
    if (cores) {
        size_t hw, ww;
        ops->core_census(sp->whole, &hw, &ww);
        if (hw != halted || ww != waiting) {
            print_message("cycle %llu: census: whole %zu halted %zu waiting, blocks %zu and %zu\n",
                          (unsigned long long)cycle, hw, ww, halted, waiting);
            return false;
        }
    }
    /* The step's events, as a set: each block reports its own in order. */
    link_log *lw = &sp->whole_links, *lb = &sp->block_links;
    if (lw->n) qsort(lw->ev, lw->n, sizeof *lw->ev, link_order);
    if (lb->n) qsort(lb->ev, lb->n, sizeof *lb->ev, link_order);
    bool same = lw->n == lb->n;
    for (size_t i = 0; same && i < lw->n; i++)
        same = lw->ev[i].cycle == lb->ev[i].cycle && lw->ev[i].x == lb->ev[i].x && lw->ev[i].y == lb->ev[i].y &&
               lw->ev[i].port == lb->ev[i].port && lw->ev[i].data == lb->ev[i].data;
    for (size_t i = 0; i < lb->n; i++) {
        const wm_link_event *e = &lb->ev[i];
        for (unsigned k = 1; k < sp->nrows; k++)
            sp->crossings_ns += (e->port == WM_PORT_S && e->y + 1u == sp->rows[k]) ||
                                (e->port == WM_PORT_N && e->y == sp->rows[k]);
        for (unsigned k = 1; k < sp->ncols; k++)
            sp->crossings_ew += (e->port == WM_PORT_E && e->x + 1u == sp->cols[k]) ||
                                (e->port == WM_PORT_W && e->x == sp->cols[k]);
    }
    if (!same) {
        print_message("cycle %llu: %zu link events in the whole, %zu in the blocks, or unlike\n",
                      (unsigned long long)cycle, lw->n, lb->n);
        return false;
    }
    core_log *cw = &sp->whole_cores, *cb = &sp->block_cores;
    if (cw->n) qsort(cw->ev, cw->n, sizeof *cw->ev, core_order);
    if (cb->n) qsort(cb->ev, cb->n, sizeof *cb->ev, core_order);
    same = cw->n == cb->n;
    for (size_t i = 0; same && i < cw->n; i++) same = same_core_cycle(&cw->ev[i], &cb->ev[i]);
    if (!same) {
        print_message("cycle %llu: %zu core events in the whole, %zu in the blocks, or unlike\n",
                      (unsigned long long)cycle, cw->n, cb->n);
        return false;
    }
    lw->n = lb->n = cw->n = cb->n = 0;
    return true;
}

/* ------------------------------------------------------------ traffic */

/* Enables: now and then a tile is switched off, and on again some cycles
 * later, in the whole and in its block alike. */
static void switch_enables(split *sp, wm_xorshift *rng)
{
    if (wm_xs_below(rng, 150) == 0) {
        const unsigned x = wm_xs_below(rng, sp->w), y = wm_xs_below(rng, sp->h);
        sp->disabled[y * sp->w + x] = true;
        sp->ops->set_enable(sp->whole, x, y, false);
        sp->ops->set_enable(block_of(sp, x, y), x, y, false);
    }
    for (unsigned i = 0; i < sp->w * sp->h; i++) {
        if (!sp->disabled[i] || wm_xs_below(rng, 25) != 0) continue;
        sp->disabled[i] = false;
        sp->ops->set_enable(sp->whole, i % sp->w, i / sp->w, true);
        sp->ops->set_enable(block_of(sp, i % sp->w, i / sp->w), i % sp->w, i / sp->w, true);
    }
}

typedef struct {
    uint32_t w[80];
    unsigned n, pos;
} outbox;

/* A message from a PE: to a random PE of the mesh (across the blocks more
 * often than not), one in 25 off the mesh; mostly short, now and then
 * long enough to hold links across a boundary for many cycles. */
static void new_message(const split *sp, wm_xorshift *rng, outbox *o, unsigned id)
{
    unsigned col = wm_xs_below(rng, sp->w), row = wm_xs_below(rng, sp->h);
    if (wm_xs_below(rng, 25) == 0) col = sp->w + wm_xs_below(rng, WM_MESH_MAX - sp->w);
    const unsigned len = wm_xs_below(rng, 10) == 0 ? 8 + wm_xs_below(rng, 40) : wm_xs_below(rng, 5);
    o->n = o->pos = 0;
    o->w[o->n++] = wm_header(col, row, len, id & WM_TAG_MAX);
    for (unsigned i = 0; i < len; i++) o->w[o->n++] = (uint32_t)id << 8 | i;
}

/* cycles of host traffic; false at the first difference. */
static bool run_host_traffic(split *sp, uint64_t seed, unsigned cycles)
{
    const wm_fabric_ops *ops = sp->ops;
    wm_xorshift rng;
    wm_xs_seed(&rng, seed);
    const unsigned n = sp->w * sp->h;
    outbox *out = calloc(n, sizeof *out);
    assert_non_null(out);
    unsigned ids = 0;
    bool ok = split_agrees(sp, false);
    for (unsigned c = 0; ok && c < cycles; c++) {
        /* Quiet spells: the traffic stops for a while, so the mesh drains. */
        const bool sending = (c / 400) % 4 != 3;
        for (unsigned y = 0; y < sp->h; y++)
            for (unsigned x = 0; x < sp->w; x++) {
                outbox *o = &out[y * sp->w + x];
                wm_fabric *block = block_of(sp, x, y);
                const wm_pe_status st = ops->pe_status(sp->whole, x, y);
                if (o->pos == o->n && sending && wm_xs_below(&rng, 6) == 0) new_message(sp, &rng, o, ids++);
                const bool room = st.tx_count < WM_TX_DEPTH;
                if (o->pos < o->n && (room || wm_xs_below(&rng, 40) == 0)) {
                    /* into a full queue: refused, the sticky error set, the wavelet sent again */
                    ops->pe_push(sp->whole, x, y, o->w[o->pos]);
                    ops->pe_push(block, x, y, o->w[o->pos]);
                    if (room) o->pos++;
                }
                const bool pop = st.rx_count ? wm_xs_below(&rng, 4) != 0 : wm_xs_below(&rng, 300) == 0;
                if (pop) {
                    ops->pe_pop(sp->whole, x, y);
                    ops->pe_pop(block, x, y);
                }
            }
        switch_enables(sp, &rng);
        step_all(sp);
        ok = split_agrees(sp, false);
    }
    free(out);
    return ok;
}

/* A 5 x 7 mesh in three bands of rows. */
static const unsigned three_bands[] = {0, 2, 5, 7};
static const cuts rows_of_5x7 = {three_bands, NULL, 3, 1};
/* A 7 x 5 mesh in 2 x 3 uneven blocks, the middle column one tile wide
 * (its tiles edge tiles east and west at once). */
static const unsigned two_rows[] = {0, 2, 5}, three_cols[] = {0, 3, 4, 7};
static const cuts blocks_of_7x5 = {two_rows, three_cols, 2, 3};
/* A 7 x 1 mesh in three bands of columns. */
static const unsigned one_row[] = {0, 1}, column_bands[] = {0, 2, 5, 7};
static const cuts columns_of_7x1 = {one_row, column_bands, 1, 3};

/* seeds runs of cycles of host traffic on a w x h mesh cut as cut, the
 * last seed on two threads a step (sw): the threaded path reaches the
 * ghosts and the edge tiles too (on so small a mesh, each step costs a
 * handover: a third of the cycles). */
static void host_traffic_on(const wm_fabric_ops *ops, unsigned w, unsigned h, cuts cut, unsigned seeds,
                            unsigned cycles)
{
    for (uint64_t seed = 1; seed <= seeds; seed++) {
        const bool two = seed == seeds && seeds > 1;
        split sp;
        split_open(&sp, ops, w, h, false, cut, two ? WM_SW_THREADS_TWO : WM_SW_THREADS_ONE);
        assert_true(run_host_traffic(&sp, seed, two ? cycles / 3 : cycles));
        /* The traffic reached across every kind of boundary: the events
         * compared were not all inside one block. */
        if (sp.nrows > 1) assert_true(sp.crossings_ns > cycles / 6);
        if (sp.ncols > 1) assert_true(sp.crossings_ew > cycles / 6);
        if (two && wm_fabric_is(ops, "sw")) assert_true(wm_fabric_sw_parallel_steps(sp.block[1]) > 0);
        split_close(&sp);
    }
}

static void test_sw_bands_are_the_whole_mesh(void **state)
{
    (void)state;
    host_traffic_on(&wm_fabric_sw, 5, 7, rows_of_5x7, 3, 4000);
}

static void test_rtl_bands_are_the_whole_mesh(void **state)
{
    (void)state;
    host_traffic_on(&wm_fabric_rtl, 5, 7, rows_of_5x7, 3, 3000);
}

static void test_sw_blocks_are_the_whole_mesh(void **state)
{
    (void)state;
    host_traffic_on(&wm_fabric_sw, 7, 5, blocks_of_7x5, 2, 3000);
    host_traffic_on(&wm_fabric_sw, 7, 1, columns_of_7x1, 2, 3000);
}

static void test_rtl_blocks_are_the_whole_mesh(void **state)
{
    (void)state;
    host_traffic_on(&wm_fabric_rtl, 7, 5, blocks_of_7x5, 1, 2000);
    host_traffic_on(&wm_fabric_rtl, 7, 1, columns_of_7x1, 1, 2000);
}

/* One band in each of the three rows of a 4 x 3 mesh: every row an edge
 * row on both sides. */
static void test_bands_of_one_row(void **state)
{
    (void)state;
    static const unsigned one_row_each[] = {0, 1, 2, 3};
    const wm_fabric_ops *const backends[] = {&wm_fabric_sw, &wm_fabric_rtl};
    for (unsigned b = 0; b < 2; b++) {
        split sp;
        split_open(&sp, backends[b], 4, 3, false, (cuts){one_row_each, NULL, 3, 1}, WM_SW_THREADS_ONE);
        assert_true(run_host_traffic(&sp, 7, 2000));
        split_close(&sp);
    }
}

/* The comparison fails when one exchange that carries a wavelet is not
 * made: into band 1 of three from the north, into the middle column band
 * of a 7 x 1 mesh from the west, into block (1, 2) of 2 x 3 from the
 * west. */
static void test_a_dropped_exchange_is_noticed(void **state)
{
    (void)state;
    const wm_fabric_ops *const backends[] = {&wm_fabric_sw, &wm_fabric_rtl};
    const struct {
        unsigned w, h;
        cuts cut;
        unsigned into;
        wm_band_edge side;
    } faults[] = {
        {5, 7, rows_of_5x7, 1, WM_EDGE_NORTH},
        {7, 1, columns_of_7x1, 1, WM_EDGE_WEST},
        {7, 5, blocks_of_7x5, 5, WM_EDGE_WEST},
    };
    for (unsigned b = 0; b < 2; b++)
        for (unsigned k = 0; k < 3; k++) {
            split sp;
            split_open(&sp, backends[b], faults[k].w, faults[k].h, false, faults[k].cut, WM_SW_THREADS_ONE);
            sp.drop = true;
            sp.drop_into = faults[k].into;
            sp.drop_side = faults[k].side;
            sp.drop_from = 50;
            assert_false(run_host_traffic(&sp, 1, 3000));
            assert_true(sp.dropped);
            split_close(&sp);
        }
}

/* ------------------------------------------------------------ cores */

enum { RB = 0x80000000u };

typedef struct {
    uint32_t w[64];
    unsigned n;
} prog;

static unsigned emit(prog *p, uint32_t word)
{
    assert_true(p->n < 64);
    p->w[p->n] = word;
    return p->n++;
}

/* Every core: a generator seeded by its COORD; in a loop, it drains its
 * RX queue into a sum (x14), and when its TX queue has room for two, it
 * sends a message of one data wavelet (the generator's word) to the PE the
 * generator picks, itself included.
 *
 *      lui  x1, RB            lw   x2, COORD(x1)
 *      li   x10, 1103515245   li   x11, 12345      li x3, W   li x4, H
 *      mul  x2, x2, x10       add  x2, x2, x11
 * loop lw   x12, QUEUES(x1)   srli x13, x12, 8     beq x13, x0, send
 *      lw   x13, RX(x1)       add  x14, x14, x13   jal loop
 * send andi x12, x12, 255     sltiu x15, x12, 2    bne x15, x0, loop
 *      mul  x2, x2, x10       add  x2, x2, x11
 *      srli x5, x2, 16        remu x6, x5, x3      srli x5, x2, 24   remu x7, x5, x4
 *      slli x6, x6, 22        slli x7, x7, 12      or x8, x6, x7     ori x8, x8, 0x40
 *      sw   x8, TX(x1)        sw   x2, TX(x1)      jal loop */
static void sender_drainer(prog *p, unsigned w, unsigned h)
{
    uint32_t li[2];
    p->n = 0;
    emit(p, rv_lui(1, RB >> 12));
    emit(p, rv_lw(2, 1, WM_CORE_REG_COORD));
    for (unsigned k = 0, n = rv_li(li, 10, 1103515245u); k < n; k++) emit(p, li[k]);
    for (unsigned k = 0, n = rv_li(li, 11, 12345u); k < n; k++) emit(p, li[k]);
    emit(p, rv_addi(3, 0, (int32_t)w));
    emit(p, rv_addi(4, 0, (int32_t)h));
    emit(p, rv_mul(2, 2, 10));
    emit(p, rv_add(2, 2, 11));
    const unsigned loop = emit(p, rv_lw(12, 1, WM_CORE_REG_QUEUES));
    emit(p, rv_srli(13, 12, 8));
    const unsigned to_send = emit(p, 0);
    emit(p, rv_lw(13, 1, WM_CORE_REG_RX));
    emit(p, rv_add(14, 14, 13));
    unsigned at = emit(p, 0);
    p->w[at] = rv_jal(0, -4 * (int32_t)(at - loop));
    const unsigned send = emit(p, rv_andi(12, 12, 255));
    p->w[to_send] = rv_beq(13, 0, 4 * (int32_t)(send - to_send));
    emit(p, rv_sltiu(15, 12, 2));
    at = emit(p, 0);
    p->w[at] = rv_bne(15, 0, -4 * (int32_t)(at - loop));
    emit(p, rv_mul(2, 2, 10));
    emit(p, rv_add(2, 2, 11));
    emit(p, rv_srli(5, 2, 16));
    emit(p, rv_remu(6, 5, 3));
    emit(p, rv_srli(5, 2, 24));
    emit(p, rv_remu(7, 5, 4));
    emit(p, rv_slli(6, 6, 22));
    emit(p, rv_slli(7, 7, 12));
    emit(p, rv_or(8, 6, 7));
    emit(p, rv_ori(8, 8, 0x40));
    emit(p, rv_sw(8, 1, WM_CORE_REG_TX));
    emit(p, rv_sw(2, 1, WM_CORE_REG_TX));
    at = emit(p, 0);
    p->w[at] = rv_jal(0, -4 * (int32_t)(at - loop));
}

static void load_and_start(const wm_fabric_ops *ops, wm_fabric *f, unsigned x, unsigned y, const prog *p)
{
    uint8_t b[4 * 64];
    for (unsigned i = 0; i < p->n; i++)
        for (unsigned k = 0; k < 4; k++) b[4 * i + k] = (uint8_t)(p->w[i] >> 8 * k);
    ops->core_load(f, x, y, 0, b, 4u * p->n);
    ops->core_start(f, x, y);
}

static void cores_on(const wm_fabric_ops *ops, unsigned w, unsigned h, cuts cut, unsigned cycles,
                     wm_sw_threads threads)
{
    split sp;
    split_open(&sp, ops, w, h, true, cut, threads);
    prog p;
    sender_drainer(&p, sp.w, sp.h);
    /* Every core but one starts at cycle 0; (late_x, late_y) at cycle 9,
     * the rest of its block running the while. */
    const unsigned late_x = w / 2, late_y = 2 * h / 3;
    for (unsigned y = 0; y < sp.h; y++)
        for (unsigned x = 0; x < sp.w; x++) {
            if (x == late_x && y == late_y) continue;
            load_and_start(ops, sp.whole, x, y, &p);
            load_and_start(ops, block_of(&sp, x, y), x, y, &p);
        }
    wm_xorshift rng;
    wm_xs_seed(&rng, 11);
    assert_true(split_agrees(&sp, true));
    for (unsigned c = 0; c < cycles; c++) {
        if (c == 9) {
            load_and_start(ops, sp.whole, late_x, late_y, &p);
            load_and_start(ops, block_of(&sp, late_x, late_y), late_x, late_y, &p);
        }
        switch_enables(&sp, &rng);
        step_all(&sp);
        assert_true(split_agrees(&sp, true));
    }
    /* The messages went round: each core summed what it received. */
    unsigned receivers = 0;
    for (unsigned y = 0; y < sp.h; y++)
        for (unsigned x = 0; x < sp.w; x++) {
            uint32_t a[32], b[32];
            ops->core_regs(sp.whole, x, y, a);
            ops->core_regs(block_of(&sp, x, y), x, y, b);
            assert_memory_equal(a, b, sizeof a);
            receivers += a[14] != 0;
        }
    assert_true(receivers >= sp.w * sp.h - 2);
    if (sp.nrows > 1) assert_true(sp.crossings_ns > 0);
    if (sp.ncols > 1) assert_true(sp.crossings_ew > 0);
    split_close(&sp);
}

static const unsigned four_by_five_bands[] = {0, 1, 3, 5};
static const cuts rows_of_4x5 = {four_by_five_bands, NULL, 3, 1};

static void test_sw_bands_with_cores(void **state)
{
    (void)state;
    cores_on(&wm_fabric_sw, 4, 5, rows_of_4x5, 4000, WM_SW_THREADS_ONE);
    cores_on(&wm_fabric_sw, 4, 5, rows_of_4x5, 1000, WM_SW_THREADS_TWO);
}

static void test_rtl_bands_with_cores(void **state)
{
    (void)state;
    cores_on(&wm_fabric_rtl, 4, 5, rows_of_4x5, 2000, WM_SW_THREADS_ONE);
}

static void test_sw_blocks_with_cores(void **state)
{
    (void)state;
    cores_on(&wm_fabric_sw, 7, 5, blocks_of_7x5, 3000, WM_SW_THREADS_ONE);
    cores_on(&wm_fabric_sw, 7, 5, blocks_of_7x5, 600, WM_SW_THREADS_TWO);
    cores_on(&wm_fabric_sw, 7, 1, columns_of_7x1, 3000, WM_SW_THREADS_ONE);
}

static void test_rtl_blocks_with_cores(void **state)
{
    (void)state;
    cores_on(&wm_fabric_rtl, 7, 5, blocks_of_7x5, 1500, WM_SW_THREADS_ONE);
    cores_on(&wm_fabric_rtl, 7, 1, columns_of_7x1, 1500, WM_SW_THREADS_ONE);
}

/* ------------------------------------------------------------ memory */

/* A band of rows [256, 512) of a 1024 x 1024 mesh holds what a 1024 x 256
 * mesh holds, plus two ghost rows of a tile's bytes each and the per-column
 * enables across: a quarter of the whole mesh. */
static void test_a_band_holds_a_quarter(void **state)
{
    (void)state;
    const wm_fabric_ops *ops = &wm_fabric_sw;
    wm_fabric_memory one, rows, band;
    wm_fabric *f = wm_fabric_create(ops, 1, 1, false, NULL);
    assert_non_null(f);
    ops->memory(f, &one);
    ops->destroy(f);
    /* one tile and the sentinel */
    const size_t tile_routers = one.routers / 2, tile_queues = one.queues / 2;
    f = wm_fabric_create(ops, 1024, 256, false, NULL);
    assert_non_null(f);
    ops->memory(f, &rows);
    ops->destroy(f);
    const wm_fabric_config cfg = {.band = {256, 512, 0, 0}};
    f = wm_fabric_create(ops, 1024, 1024, false, &cfg);
    assert_non_null(f);
    ops->memory(f, &band);
    ops->destroy(f);
    assert_int_equal(rows.routers, (1024 * 256 + 1) * tile_routers);
    assert_int_equal(band.routers, rows.routers + 2 * 1024 * tile_routers);
    assert_int_equal(band.queues, rows.queues + 2 * 1024 * tile_queues);
    /* the sets of tiles hold the ghosts too: three 64-bit words a ghost row */
    assert_int_equal(band.fabric, rows.fabric + 2 * 1024 + 3 * 2 * 1024 / 8);
    const size_t whole_routers = (1024 * 1024 + 1) * tile_routers;
    assert_true(band.routers * 4 < whole_routers + whole_routers / 50);
    /* A block of 256 x 256 amid others: a ghost row or column on each of
     * its four sides and the four corners between them (never used). */
    wm_fabric_memory block;
    const wm_fabric_config block_cfg = {.band = {256, 512, 512, 768}};
    f = wm_fabric_create(ops, 1024, 1024, false, &block_cfg);
    assert_non_null(f);
    ops->memory(f, &block);
    ops->destroy(f);
    assert_int_equal(block.routers, (258 * 258 + 1) * tile_routers);
    assert_int_equal(block.queues, (258 * 258 + 1) * tile_queues);
}

/* A block that is not one of the mesh's is refused with a message. */
static void test_a_band_outside_the_mesh_is_refused(void **state)
{
    (void)state;
    const wm_fabric_ops *const backends[] = {&wm_fabric_sw, &wm_fabric_rtl};
    const wm_fabric_band bad[] = {{3, 3, 0, 0}, {4, 3, 0, 0}, {2, 9, 0, 0},
                                  {0, 8, 2, 2}, {0, 8, 3, 2}, {0, 0, 1, 5}};
    for (unsigned b = 0; b < 2; b++)
        for (unsigned k = 0; k < sizeof bad / sizeof *bad; k++) {
            const wm_fabric_config cfg = {.band = bad[k]};
            assert_null(wm_fabric_create(backends[b], 4, 8, false, &cfg));
        }
    const wm_fabric_config rows_cfg = {.band = {0, 4, 0, 0}}, cols_cfg = {.band = {0, 0, 0, 2}};
    assert_null(wm_fabric_create(&wm_fabric_rtl_mesh, 4, 3, false, &rows_cfg));
    assert_null(wm_fabric_create(&wm_fabric_rtl_mesh, 4, 3, false, &cols_cfg));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sw_bands_are_the_whole_mesh),
        cmocka_unit_test(test_rtl_bands_are_the_whole_mesh),
        cmocka_unit_test(test_sw_blocks_are_the_whole_mesh),
        cmocka_unit_test(test_rtl_blocks_are_the_whole_mesh),
        cmocka_unit_test(test_bands_of_one_row),
        cmocka_unit_test(test_a_dropped_exchange_is_noticed),
        cmocka_unit_test(test_sw_bands_with_cores),
        cmocka_unit_test(test_rtl_bands_with_cores),
        cmocka_unit_test(test_sw_blocks_with_cores),
        cmocka_unit_test(test_rtl_blocks_with_cores),
        cmocka_unit_test(test_a_band_holds_a_quarter),
        cmocka_unit_test(test_a_band_outside_the_mesh_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
