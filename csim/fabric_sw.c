/* fabric_sw.c: the sw backend, a pure-C model of the tile, cycle-exact.
 *
 * Written from docs/fabric.md "One cycle, exactly"; it links no Verilator
 * code. What a tile's neighbours see of it at a cycle (the wavelets in its
 * output registers, its credit pulses) is delivered into the neighbours'
 * mailboxes when the tile is evaluated. Mailboxes come in two slots, by
 * cycle parity: a step reads the slot of the current cycle and fills the
 * other, so one pass over the tiles, in any order, sees every neighbour as
 * it stood before the edge, as the wires would. What the router knows of
 * its neighbours' en_q (NE, a register) changes two edges after their
 * enable_i did; such changes are rare, and are passed on after the pass.
 *
 * Speed: only tiles in the active set are evaluated. A tile gets in the
 * set when mail is delivered to it, when its PE posts an access or its
 * enable changes, and when something happened in its evaluation (a
 * wavelet or credit moved in or out) while it still holds wavelets. A tile
 * where nothing happened would evaluate the same way next cycle, so it
 * waits (blocked wavelets cost nothing) until a credit, a wavelet or an
 * enable change wakes it. An idle mesh costs nothing, and per-cycle work
 * follows the wavelets that move, not the mesh size. Edge links point at a
 * sentinel tile index that never receives anything.
 */
#include "fabric.h"
#include "fabric_sw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PORT_L_BIT = 1u << WM_PORT_L, LINK_BITS = 0x0fu };

/* What arrives at a tile for one cycle. */
typedef struct {
    uint8_t lv;           /* bit p: a wavelet arrives at input p (N..W) */
    uint8_t ci;           /* bit o: a credit arrives for output o (L: our own RX pop) */
    uint32_t ld[4];       /* the arriving wavelets */
} sw_mail;

/* 256 bytes, four cache lines, in the order an evaluation reads them:
 * mail and control, the link buffers, credits and TX, then RX and the
 * arbitration state. */
typedef struct {
    sw_mail mail[2];               /* by cycle parity */
    uint8_t in_rd[4], in_cnt[4];
    uint8_t held;                  /* bit i: input i (4: TX) holds a wavelet */
    uint8_t ov;                    /* output valid bits, one per port */
    uint8_t ne;                    /* nbr_en_q: bit o, the neighbour at o is seen enabled (L always) */
    uint8_t en_q, enable_i;
    uint8_t own_valid;             /* bit o: output o is held by a message */
    uint8_t owner;                 /* bit i: input i holds some output */
    uint8_t drop;                  /* bit i: input i is discarding an off-mesh message */
    uint8_t busy;                  /* tile_busy(), kept for the busy count */
    uint8_t push_posted, pop_posted;
    uint8_t tx_rd, tx_cnt, rx_rd, rx_cnt;
    uint8_t errs;                  /* WM_ST_ERR_* bits */
    uint32_t in[4][WM_IN_DEPTH];   /* link input buffers N..W */
    uint64_t cr;                   /* credits per output, one byte each (0..8: no carries) */
    uint32_t od[WM_NPORTS];        /* output data registers */
    uint32_t tx[WM_TX_DEPTH];
    uint32_t push_data;            /* the posted push */
    uint32_t rx[WM_RX_DEPTH];
    uint32_t err_hdr;
    uint8_t own_idx[WM_NPORTS], own_rem[WM_NPORTS];
    uint8_t drop_rem[WM_NPORTS];
    uint8_t rr[WM_NPORTS];
    uint8_t late_req;              /* WM_SW_LATE_GRANT: the requests seen one cycle ago */
    uint8_t x, y;
} sw_tile;

/* A set of tile indices, a bit per tile: adding is a store, and walking it
 * visits the tiles in memory order, which is also (y, x) order. Walking
 * costs a word per 64 tiles: 1024 words on the largest mesh. */
typedef struct {
    uint64_t *bits;
    size_t nwords;
} tile_set;

static void set_init(tile_set *t, size_t n)
{
    t->nwords = (n + 63) / 64;
    t->bits = calloc(t->nwords, sizeof *t->bits);
}

static void set_free(tile_set *t) { free(t->bits); }

static void set_add(tile_set *t, uint32_t idx) { t->bits[idx >> 6] |= 1ull << (idx & 63u); }

typedef struct {
    unsigned w, h;
    uint8_t last_x, last_y;
    uint64_t cycle;
    sw_tile *tiles;    /* w * h tiles, then the sentinel */
    tile_set active;   /* tiles to evaluate in the next step */
    tile_set proc;     /* tiles being evaluated in this step */
    uint32_t sentinel; /* w * h: the index edge links point at */
    uint32_t step_to[4]; /* index offset to the neighbour at N, E, S, W (mod 2^32) */
    uint32_t *en_changed; /* tiles whose en_q changed in this step, as index * 2 + new en_q */
    uint32_t *en_pending; /* those of the previous step: neighbours see them from the next cycle */
    size_t nen_changed, nen_pending;
    size_t nbusy;      /* tiles with wavelets in flight */
    wm_link_hook hook;
    void *hook_ctx;
    uint32_t perturb_tile; /* index of the perturbed tile, or UINT32_MAX */
    wm_sw_perturbation perturb;
} sw_fabric;

static wm_sw_perturbation current_perturbation = {WM_SW_EXACT, 0, 0, 0};

void wm_fabric_sw_set_perturbation(wm_sw_perturbation p) { current_perturbation = p; }
wm_sw_perturbation wm_fabric_sw_perturbation(void) { return current_perturbation; }

static sw_fabric *as_sw(wm_fabric *f) { return (sw_fabric *)f; }
static const sw_fabric *as_sw_const(const wm_fabric *f) { return (const sw_fabric *)f; }

/* The neighbour of tile idx at port o, or the sentinel at an edge. */
static uint32_t neighbour(const sw_fabric *s, uint32_t idx, unsigned o)
{
    const unsigned x = idx % s->w, y = idx / s->w;
    switch (o) {
    case WM_PORT_N: return y > 0 ? idx - s->w : s->sentinel;
    case WM_PORT_E: return x + 1 < s->w ? idx + 1 : s->sentinel;
    case WM_PORT_S: return y + 1 < s->h ? idx + s->w : s->sentinel;
    default: return x > 0 ? idx - 1 : s->sentinel;
    }
}

/* Edge links lead to the sentinel, which is never evaluated. */
static void queue_tile(sw_fabric *s, uint32_t idx)
{
    if (idx != s->sentinel) set_add(&s->active, idx);
}

static bool tile_busy(const sw_tile *t)
{
    return (t->held | t->ov) != 0;
}

static wm_fabric *sw_create(unsigned w, unsigned h)
{
    if (w < 1 || h < 1 || w > WM_MESH_MAX || h > WM_MESH_MAX) {
        fprintf(stderr, "wavemesh: mesh %ux%u is outside 1x1..%ux%u\n", w, h, WM_MESH_MAX, WM_MESH_MAX);
        return NULL;
    }
    sw_fabric *s = calloc(1, sizeof *s);
    size_t n = (size_t)w * h;
    if (s) {
        s->tiles = calloc(n + 1, sizeof *s->tiles);
        set_init(&s->active, n);
        set_init(&s->proc, n);
        s->en_changed = malloc(n * sizeof *s->en_changed);
        s->en_pending = malloc(n * sizeof *s->en_pending);
    }
    if (!s || !s->tiles || !s->active.bits || !s->proc.bits || !s->en_changed || !s->en_pending) {
        fprintf(stderr, "wavemesh: out of memory for a %ux%u sw fabric\n", w, h);
        if (s) {
            free(s->tiles);
            set_free(&s->active);
            set_free(&s->proc);
            free(s->en_changed);
            free(s->en_pending);
            free(s);
        }
        return NULL;
    }
    s->w = w;
    s->h = h;
    s->sentinel = (uint32_t)n;
    s->step_to[WM_PORT_N] = (uint32_t)0 - w;
    s->step_to[WM_PORT_E] = 1;
    s->step_to[WM_PORT_S] = w;
    s->step_to[WM_PORT_W] = (uint32_t)0 - 1u;
    s->last_x = (uint8_t)(w - 1);
    s->last_y = (uint8_t)(h - 1);
    const uint32_t edge = (uint32_t)n;
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            const uint32_t idx = (uint32_t)(y * w + x);
            sw_tile *t = &s->tiles[idx];
            t->x = (uint8_t)x;
            t->y = (uint8_t)y;
            /* NE is 0 in reset and loads the neighbours' en_q at the first
             * edge; in cycle 0 no input holds a wavelet, so nothing can
             * tell it from its cycle-1 value, which it starts at. */
            t->ne = PORT_L_BIT;
            for (unsigned o = 0; o < 4; o++) {
                t->cr |= (uint64_t)WM_IN_DEPTH << (8 * o);
                if (neighbour(s, idx, o) != edge) t->ne |= (uint8_t)(1u << o);
            }
            t->cr |= (uint64_t)WM_RX_DEPTH << (8 * WM_PORT_L);
            /* The reset edge latches enable_i = 1: enabled from cycle 0. */
            t->en_q = t->enable_i = 1;
        }
    }
    s->perturb = current_perturbation;
    s->perturb_tile = UINT32_MAX;
    if (s->perturb.kind != WM_SW_EXACT && s->perturb.x < w && s->perturb.y < h)
        s->perturb_tile = (uint32_t)(s->perturb.y * w + s->perturb.x);
    return (wm_fabric *)s;
}

static void sw_destroy(wm_fabric *f)
{
    sw_fabric *s = as_sw(f);
    if (!s) return;
    free(s->tiles);
    set_free(&s->active);
    set_free(&s->proc);
    free(s->en_changed);
    free(s->en_pending);
    free(s);
}

static void sw_set_enable(wm_fabric *f, unsigned x, unsigned y, bool on)
{
    sw_fabric *s = as_sw(f);
    const uint32_t idx = (uint32_t)(y * s->w + x);
    s->tiles[idx].enable_i = on ? 1 : 0;
    queue_tile(s, idx);
}

static unsigned lowest_bit(unsigned m) { return (unsigned)__builtin_ctz(m); }
static unsigned highest_bit(unsigned m) { return 31u - (unsigned)__builtin_clz(m); }

/* The first requester in the order rr, rr+1, ... (mod 5). */
static unsigned rr_pick(unsigned req, unsigned rr)
{
    const unsigned from_rr = req >> rr;
    return from_rr ? rr + lowest_bit(from_rr) : lowest_bit(req);
}

/* The perturbed order rr, rr-1, ... (mod 5). */
static unsigned rr_pick_reversed(unsigned req, unsigned rr)
{
    const unsigned up_to_rr = req & ((2u << rr) - 1u);
    return up_to_rr ? highest_bit(up_to_rr) : highest_bit(req);
}

/* One count per set bit of a port mask, in the byte of that port. */
#define CREDIT_BYTES(m)                                                                                           \
    ((uint64_t)((m) & 1u) | (uint64_t)(((m) >> 1) & 1u) << 8 | (uint64_t)(((m) >> 2) & 1u) << 16 |              \
     (uint64_t)(((m) >> 3) & 1u) << 24 | (uint64_t)(((m) >> 4) & 1u) << 32)
#define CREDIT_BYTES4(m) CREDIT_BYTES(m), CREDIT_BYTES((m) + 1u), CREDIT_BYTES((m) + 2u), CREDIT_BYTES((m) + 3u)
#define CREDIT_BYTES16(m) CREDIT_BYTES4(m), CREDIT_BYTES4((m) + 4u), CREDIT_BYTES4((m) + 8u), CREDIT_BYTES4((m) + 12u)
static const uint64_t credit_bytes_of[32] = {CREDIT_BYTES16(0u), CREDIT_BYTES16(16u)};

static uint64_t credit_bytes(unsigned m) { return credit_bytes_of[m & 31u]; }

/* Input i of tile idx is popped at this edge: the buffer moves on, and
 * for a link input the credit pulse goes to the neighbour's next mailbox.
 * Each input is popped at most once a cycle, and the heads were read
 * before any pop, so this can happen as the switch decides. */
static inline void pop_input(sw_fabric *s, sw_tile *t, uint32_t idx, unsigned i, unsigned next)
{
    if (i == WM_PORT_L) {
        t->tx_rd = (uint8_t)((t->tx_rd + 1u) & (WM_TX_DEPTH - 1u));
        if (--t->tx_cnt == 0) t->held &= (uint8_t)~PORT_L_BIT;
        return;
    }
    t->in_rd[i] = (uint8_t)((t->in_rd[i] + 1u) & (WM_IN_DEPTH - 1u));
    if (--t->in_cnt[i] == 0) t->held &= (uint8_t)~(1u << i);
    const uint32_t n = idx + s->step_to[i];
    s->tiles[n].mail[next].ci |= (uint8_t)(1u << (i ^ 2u));
    set_add(&s->active, n);
}

/* A wavelet enters output register o: for a link, the neighbour finds it
 * in its next mailbox. */
static inline void load_output(sw_fabric *s, sw_tile *t, uint32_t idx, unsigned o, uint32_t wavelet, unsigned next)
{
    t->od[o] = wavelet;
    if (o == WM_PORT_L) return;
    const uint32_t n = idx + s->step_to[o];
    sw_mail *nm = &s->tiles[n].mail[next];
    nm->lv |= (uint8_t)(1u << (o ^ 2u));
    nm->ld[o ^ 2u] = wavelet;
    set_add(&s->active, n);
}

/* One tile, one cycle: the combinational cycle of docs/fabric.md, then the
 * edge; the wavelets and credits it sends go to next cycle's mailboxes. */
static void tile_step(sw_fabric *s, uint32_t idx, unsigned now, unsigned next)
{
    sw_tile *t = &s->tiles[idx];
    sw_mail *mail = &t->mail[now];
    const unsigned lv = mail->lv, ci = mail->ci;
    mail->lv = mail->ci = 0;
    const bool perturbed = idx == s->perturb_tile;
    const bool posted = t->push_posted | t->pop_posted;
    const bool en_changes = t->en_q != t->enable_i;

    /* Only credits coming back: the common case away from the traffic. */
    if (!(t->held | t->ov | lv | posted | en_changes | perturbed)) {
        t->cr += credit_bytes(ci);
        return;
    }

    /* RX first: it pushes the L register as it stood before the edge,
     * and the router does not look at it. */
    const bool rx_accept = t->pop_posted && t->rx_cnt > 0;
    if (t->pop_posted && !rx_accept) t->errs |= WM_ST_ERR_RX_EMPTY;
    if (rx_accept) {
        t->rx_rd = (uint8_t)((t->rx_rd + 1u) & (WM_RX_DEPTH - 1u));
        t->rx_cnt--;
    }
    if (t->ov & PORT_L_BIT) {
        t->rx[(t->rx_rd + t->rx_cnt) & (WM_RX_DEPTH - 1u)] = t->od[WM_PORT_L];
        t->rx_cnt++;
    }

    unsigned popped = 0, moved = 0;
    const unsigned hv = t->held;
    if (t->en_q && hv) {
        uint32_t head[WM_NPORTS];
        unsigned req[WM_NPORTS] = {0, 0, 0, 0, 0};
        unsigned offmesh = 0, wanted = t->own_valid;
        /* Every head, held or not: five loads cost less than a branch each. */
        for (unsigned i = 0; i < 4; i++) head[i] = t->in[i][t->in_rd[i]];
        head[WM_PORT_L] = t->tx[t->tx_rd];
        for (unsigned m = hv & ~(unsigned)(t->owner | t->drop); m; m &= m - 1) {
            const unsigned i = lowest_bit(m);
            const unsigned col = wm_header_col(head[i]), row = wm_header_row(head[i]);
            if (col > s->last_x || row > s->last_y) {
                offmesh |= 1u << i;
                continue;
            }
            unsigned route;
            if (col > t->x) route = WM_PORT_E;
            else if (col < t->x) route = WM_PORT_W;
            else if (row > t->y) route = WM_PORT_S;
            else if (row < t->y) route = WM_PORT_N;
            else route = WM_PORT_L;
            req[route] |= 1u << i;
            wanted |= 1u << route;
        }
        if (perturbed && s->perturb.kind == WM_SW_LATE_GRANT) {
            const unsigned p = s->perturb.port;
            const unsigned seen = req[p];
            req[p] &= t->late_req;
            t->late_req = (uint8_t)seen;
        }
        for (unsigned mo = wanted & t->ne; mo; mo &= mo - 1) {
            const unsigned o = lowest_bit(mo);
            if (((t->cr >> (8 * o)) & 0xffu) == 0) continue; /* a credit arriving now counts from the next cycle */
            if (t->own_valid & (1u << o)) {
                const unsigned i = t->own_idx[o];
                if (!(hv & (1u << i))) continue;
                moved |= 1u << o;
                popped |= 1u << i;
                load_output(s, t, idx, o, head[i], next);
                pop_input(s, t, idx, i, next);
                if (--t->own_rem[o] == 0) {
                    t->own_valid &= (uint8_t)~(1u << o);
                    t->owner &= (uint8_t)~(1u << i);
                }
            } else if (req[o]) {
                const bool reversed = perturbed && s->perturb.kind == WM_SW_RR_REVERSE;
                const unsigned i = reversed ? rr_pick_reversed(req[o], t->rr[o]) : rr_pick(req[o], t->rr[o]);
                moved |= 1u << o;
                popped |= 1u << i;
                load_output(s, t, idx, o, head[i], next);
                pop_input(s, t, idx, i, next);
                t->rr[o] = (uint8_t)(i == WM_NPORTS - 1 ? 0 : i + 1);
                const unsigned len = wm_header_len(head[i]);
                t->own_idx[o] = (uint8_t)i;
                t->own_rem[o] = (uint8_t)len;
                if (len) {
                    t->own_valid |= (uint8_t)(1u << o);
                    t->owner |= (uint8_t)(1u << i);
                }
            }
        }
        if (perturbed && s->perturb.kind == WM_SW_LATE_GRANT) t->late_req &= (uint8_t)~popped;
        /* Discarding: the rest of an off-mesh message, or a new off-mesh header. */
        for (unsigned m = hv & ((unsigned)t->drop | offmesh); m; m &= m - 1) {
            const unsigned i = lowest_bit(m);
            popped |= 1u << i;
            pop_input(s, t, idx, i, next);
            if (t->drop & (1u << i)) {
                if (--t->drop_rem[i] == 0) t->drop &= (uint8_t)~(1u << i);
            } else {
                const unsigned len = wm_header_len(head[i]);
                t->drop_rem[i] = (uint8_t)len;
                if (len) t->drop |= (uint8_t)(1u << i);
                if (!(t->errs & WM_ST_ERR_OFFMESH)) t->err_hdr = head[i];
                t->errs |= WM_ST_ERR_OFFMESH;
            }
        }
    }

    /* The edge. */
    t->cr = t->cr + credit_bytes(ci) - credit_bytes(moved);
    for (unsigned m = lv; m; m &= m - 1) {
        /* credits guarantee room */
        const unsigned p = lowest_bit(m);
        t->in[p][(t->in_rd[p] + t->in_cnt[p]) & (WM_IN_DEPTH - 1u)] = mail->ld[p];
        t->in_cnt[p]++;
    }
    t->held |= (uint8_t)lv;
    /* Checked against the count before the edge: a pop at this edge, made
     * above, does not make room for the push. */
    const bool tx_accept = t->push_posted && t->tx_cnt + ((popped >> WM_PORT_L) & 1u) < WM_TX_DEPTH;
    if (t->push_posted && !tx_accept) t->errs |= WM_ST_ERR_TX_FULL;
    if (tx_accept) {
        t->tx[(t->tx_rd + t->tx_cnt) & (WM_TX_DEPTH - 1u)] = t->push_data;
        t->tx_cnt++;
        t->held |= PORT_L_BIT;
    }
    t->push_posted = t->pop_posted = 0;
    t->ov = (uint8_t)moved;
    if (en_changes) {
        t->en_q = t->enable_i;
        s->en_changed[s->nen_changed++] = idx * 2u + t->en_q;
    }

    if (rx_accept) t->mail[next].ci |= PORT_L_BIT;
    const bool busy = tile_busy(t);
    s->nbusy = s->nbusy + busy - t->busy;
    t->busy = busy;
    /* Nothing happened: the next evaluation would do nothing again. */
    const bool changed = (moved | popped | ci | lv) != 0 || posted || en_changes || perturbed;
    if ((changed && busy) || rx_accept) queue_tile(s, idx);
}

/* A neighbour's en_q decides where a tile may send (ok[] in the spec); the
 * router registers it (nbr_en_q), so a change made at one edge is seen
 * from the cycle after the next edge. */
static void pass_on_enables(sw_fabric *s)
{
    for (size_t k = 0; k < s->nen_pending; k++) {
        const bool on = s->en_pending[k] & 1u;
        for (unsigned o = 0; o < 4; o++) {
            const uint32_t n = neighbour(s, s->en_pending[k] >> 1, o);
            if (n == s->sentinel) continue;
            sw_tile *nt = &s->tiles[n];
            const uint8_t bit = (uint8_t)(1u << (o ^ 2u));
            nt->ne = (uint8_t)(on ? nt->ne | bit : nt->ne & ~bit);
            queue_tile(s, n);
        }
    }
    uint32_t *done = s->en_pending;
    s->en_pending = s->en_changed;
    s->nen_pending = s->nen_changed;
    s->en_changed = done;
    s->nen_changed = 0;
}

static void report_links(sw_fabric *s, const tile_set *evaluated)
{
    wm_link_event ev;
    ev.cycle = s->cycle;
    for (size_t wi = 0; wi < evaluated->nwords; wi++) {
        for (uint64_t bits = evaluated->bits[wi]; bits; bits &= bits - 1) {
            const sw_tile *t = &s->tiles[64 * wi + (size_t)__builtin_ctzll(bits)];
            ev.x = t->x;
            ev.y = t->y;
            for (unsigned m = t->ov; m; m &= m - 1) {
                ev.port = (uint8_t)lowest_bit(m);
                ev.data = t->od[ev.port];
                s->hook(s->hook_ctx, &ev);
            }
        }
    }
}

static void sw_step(wm_fabric *f)
{
    sw_fabric *s = as_sw(f);
    const tile_set proc = s->active;
    s->active = s->proc;
    s->proc = proc;
    const unsigned now = (unsigned)(s->cycle & 1u), next = now ^ 1u;
    /* Ascending index: memory order, and (y, x) order for the hook. */
    for (size_t wi = 0; wi < proc.nwords; wi++)
        for (uint64_t bits = proc.bits[wi]; bits; bits &= bits - 1)
            tile_step(s, (uint32_t)(64 * wi + (size_t)__builtin_ctzll(bits)), now, next);
    if (s->nen_pending || s->nen_changed) pass_on_enables(s);
    s->cycle++;
    /* Only evaluated tiles can hold a wavelet in an output register. */
    if (s->hook) report_links(s, &proc);
    memset(s->proc.bits, 0, s->proc.nwords * sizeof *s->proc.bits);
}

static uint64_t sw_cycle(const wm_fabric *f) { return as_sw_const(f)->cycle; }

static void sw_pe_push(wm_fabric *f, unsigned x, unsigned y, uint32_t wavelet)
{
    sw_fabric *s = as_sw(f);
    const uint32_t idx = (uint32_t)(y * s->w + x);
    s->tiles[idx].push_posted = 1;
    s->tiles[idx].push_data = wavelet;
    queue_tile(s, idx);
}

static void sw_pe_pop(wm_fabric *f, unsigned x, unsigned y)
{
    sw_fabric *s = as_sw(f);
    const uint32_t idx = (uint32_t)(y * s->w + x);
    s->tiles[idx].pop_posted = 1;
    queue_tile(s, idx);
}

static wm_pe_status sw_pe_status(const wm_fabric *f, unsigned x, unsigned y)
{
    const sw_fabric *s = as_sw_const(f);
    const sw_tile *t = &s->tiles[y * s->w + x];
    wm_pe_status st;
    st.tsc = s->cycle; /* reset at cycle 0, one count per edge */
    st.rx_head = t->rx[t->rx_rd];
    st.tx_count = t->tx_cnt;
    st.rx_count = t->rx_cnt;
    st.status = (uint8_t)(t->errs | (tile_busy(t) ? WM_ST_BUSY : 0u));
    st.err_hdr = t->err_hdr;
    return st;
}

static bool sw_quiescent(const wm_fabric *f) { return as_sw_const(f)->nbusy == 0; }

/* A diagnosis, not a per-cycle call: a scan of the mesh, in (y, x) order. */
static size_t sw_in_flight(const wm_fabric *f, wm_flight *out, size_t max)
{
    const sw_fabric *s = as_sw_const(f);
    const size_t ntiles = (size_t)s->w * s->h;
    size_t n = 0;
    for (size_t k = 0; k < ntiles && s->nbusy; k++) {
        const sw_tile *t = &s->tiles[k];
        if (!t->busy) continue;
        wm_flight place = {.x = t->x, .y = t->y};
        for (unsigned p = 0; p < 4; p++) {
            if (!t->in_cnt[p]) continue;
            place.place = WM_AT_INPUT;
            place.port = (uint8_t)p;
            place.count = t->in_cnt[p];
            place.head = t->in[p][t->in_rd[p]];
            if (n < max) out[n] = place;
            n++;
        }
        if (t->tx_cnt) {
            place.place = WM_AT_TX;
            place.port = WM_PORT_L;
            place.count = t->tx_cnt;
            place.head = t->tx[t->tx_rd];
            if (n < max) out[n] = place;
            n++;
        }
        for (unsigned m = t->ov; m; m &= m - 1) {
            place.place = WM_AT_OUTPUT;
            place.port = (uint8_t)lowest_bit(m);
            place.count = 1;
            place.head = t->od[place.port];
            if (n < max) out[n] = place;
            n++;
        }
    }
    return n;
}

static void sw_set_link_hook(wm_fabric *f, wm_link_hook hook, void *ctx)
{
    as_sw(f)->hook = hook;
    as_sw(f)->hook_ctx = ctx;
}

const wm_fabric_ops wm_fabric_sw = {
    .name = "sw",
    .create = sw_create,
    .destroy = sw_destroy,
    .set_enable = sw_set_enable,
    .step = sw_step,
    .cycle = sw_cycle,
    .pe_push = sw_pe_push,
    .pe_pop = sw_pe_pop,
    .pe_status = sw_pe_status,
    .quiescent = sw_quiescent,
    .in_flight = sw_in_flight,
    .set_link_hook = sw_set_link_hook,
};

static int port_from_letter(char c)
{
    static const char letters[WM_NPORTS] = {'N', 'E', 'S', 'W', 'L'};
    for (int p = 0; p < WM_NPORTS; p++)
        if (c == letters[p]) return p;
    return -1;
}

bool wm_sw_perturbation_parse(const char *text, wm_sw_perturbation *out, char *err, size_t err_size)
{
    wm_sw_perturbation p = {WM_SW_EXACT, 0, 0, 0};
    unsigned x, y;
    char port_letter, extra;
    if (sscanf(text, "rr-reverse:%u,%u%c", &x, &y, &extra) == 2) {
        p.kind = WM_SW_RR_REVERSE;
    } else if (sscanf(text, "late-grant:%u,%u,%c%c", &x, &y, &port_letter, &extra) == 3 &&
               port_from_letter(port_letter) >= 0) {
        p.kind = WM_SW_LATE_GRANT;
        p.port = (unsigned)port_from_letter(port_letter);
    } else {
        snprintf(err, err_size, "perturbation '%s' is not rr-reverse:X,Y or late-grant:X,Y,PORT (PORT N/E/S/W/L)",
                 text);
        return false;
    }
    if (x >= WM_MESH_MAX || y >= WM_MESH_MAX) {
        snprintf(err, err_size, "perturbation '%s': tile (%u,%u) is outside any mesh", text, x, y);
        return false;
    }
    p.x = x;
    p.y = y;
    *out = p;
    return true;
}

void wm_fabric_sw_view(const wm_fabric *f, unsigned x, unsigned y, wm_sw_tile_view *out)
{
    const sw_fabric *s = as_sw_const(f);
    const sw_tile *t = &s->tiles[y * s->w + x];
    out->out_valid = t->ov;
    /* The pulses sent at the last edge wait in the neighbours' mailboxes. */
    out->credit = 0;
    for (unsigned p = 0; p < 4; p++) {
        const uint32_t n = neighbour(s, y * s->w + x, p);
        if (n != s->sentinel && (s->tiles[n].mail[s->cycle & 1u].ci >> (p ^ 2u) & 1u))
            out->credit |= (uint8_t)(1u << p);
    }
    for (unsigned p = 0; p < WM_NPORTS; p++) {
        out->out_data[p] = t->od[p];
        out->owner[p] = (t->own_valid >> p) & 1u ? t->own_idx[p] : 7u;
    }
    for (unsigned p = 0; p < 4; p++) out->in_count[p] = t->in_cnt[p];
    out->tx_count = t->tx_cnt;
    out->rx_count = t->rx_cnt;
    out->status = (uint8_t)(t->errs | (tile_busy(t) ? WM_ST_BUSY : 0u));
    out->err_hdr = t->err_hdr;
    out->en = t->en_q;
}
