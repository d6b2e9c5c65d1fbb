/* fabric_sw.c: the sw backend, a pure-C model of the tile, cycle-exact.
 *
 * Written from docs/fabric.md "One cycle, exactly"; it links no Verilator
 * code. A step has two phases. Phase 1 evaluates each tile: it reads the
 * tile's own state and its neighbours' flops (output registers, credit
 * pulses, en_q), updates the state only the tile itself reads (buffers,
 * credits, ownership, arbiters, errors) in place, and writes the flops its
 * neighbours read into *_next fields. Phase 2 latches those. So every tile
 * sees its neighbours as they stood before the edge, as the wires would.
 *
 * Speed: only tiles in the active list are evaluated. A tile whose step
 * would change nothing is left out, so an idle mesh costs nothing and
 * per-cycle work follows the wavelets that move, not the mesh size. Phase 2
 * puts back in the list each tile where something happened (a wavelet or
 * credit moved in or out, a posted access, an enable change) and which
 * still holds something, and each neighbour its new flops point at. A tile
 * where nothing happened evaluates the same way next cycle, so it waits
 * (blocked wavelets cost nothing) until a neighbour's credit, wavelet or
 * enable, or its own PE, wakes it. Edge links point at one sentinel tile
 * that is never enabled and holds nothing, which spares a bounds test per
 * link.
 */
#include "fabric.h"
#include "fabric_sw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PORT_L_BIT = 1u << WM_PORT_L, LINK_BITS = 0x0fu };

typedef struct {
    uint32_t in[4][WM_IN_DEPTH];   /* link input buffers N..W */
    uint32_t tx[WM_TX_DEPTH];
    uint32_t rx[WM_RX_DEPTH];
    uint32_t od[WM_NPORTS];        /* output data registers (flops) */
    uint32_t od_next[WM_NPORTS];
    uint32_t err_hdr;
    uint32_t push_data;            /* the posted push */
    uint32_t nbr[4];               /* tile index of each neighbour, the sentinel at an edge */
    uint8_t in_rd[4], in_cnt[4];
    uint8_t tx_rd, tx_cnt, rx_rd, rx_cnt;
    uint8_t ov, ov_next;           /* output valid bits, one per port */
    uint8_t cp, cp_next;           /* credit pulses: bits N..W for our input buffers, bit L for RX pops */
    uint8_t en_q, en_next, enable_i;
    uint8_t cr[WM_NPORTS];         /* credits per output */
    uint8_t own_valid;             /* bit o: output o is held by a message */
    uint8_t own_idx[WM_NPORTS], own_rem[WM_NPORTS];
    uint8_t drop;                  /* bit i: input i is discarding an off-mesh message */
    uint8_t drop_rem[WM_NPORTS];
    uint8_t rr[WM_NPORTS];
    uint8_t errs;                  /* WM_ST_ERR_* bits */
    uint8_t push_posted, pop_posted;
    uint8_t queued;                /* in the active list of the next step */
    uint8_t changed;               /* something happened in this step's evaluation */
    uint8_t busy;                  /* tile_busy() as of the last latch */
    uint8_t late_req;              /* WM_SW_LATE_GRANT: the requests seen one cycle ago */
    uint8_t x, y;
} sw_tile;

typedef struct {
    unsigned w, h;
    uint8_t last_x, last_y;
    uint64_t cycle;
    sw_tile *tiles;    /* w * h tiles, then the sentinel */
    uint32_t *active;  /* tiles to evaluate in the next step */
    uint32_t *proc;    /* tiles being evaluated in this step */
    size_t nactive;
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

static uint32_t sentinel_index(const sw_fabric *s) { return (uint32_t)s->w * s->h; }

static void queue_tile(sw_fabric *s, uint32_t idx)
{
    sw_tile *t = &s->tiles[idx];
    if (t->queued || idx == sentinel_index(s)) return;
    t->queued = 1;
    s->active[s->nactive++] = idx;
}

static bool tile_busy(const sw_tile *t)
{
    return (t->in_cnt[0] | t->in_cnt[1] | t->in_cnt[2] | t->in_cnt[3] | t->tx_cnt | t->ov) != 0;
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
        s->active = malloc(n * sizeof *s->active);
        s->proc = malloc(n * sizeof *s->proc);
    }
    if (!s || !s->tiles || !s->active || !s->proc) {
        fprintf(stderr, "wavemesh: out of memory for a %ux%u sw fabric\n", w, h);
        if (s) {
            free(s->tiles);
            free(s->active);
            free(s->proc);
            free(s);
        }
        return NULL;
    }
    s->w = w;
    s->h = h;
    s->last_x = (uint8_t)(w - 1);
    s->last_y = (uint8_t)(h - 1);
    const uint32_t edge = (uint32_t)n;
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            const uint32_t idx = (uint32_t)(y * w + x);
            sw_tile *t = &s->tiles[idx];
            t->x = (uint8_t)x;
            t->y = (uint8_t)y;
            t->nbr[WM_PORT_N] = y > 0 ? idx - w : edge;
            t->nbr[WM_PORT_E] = x + 1 < w ? idx + 1 : edge;
            t->nbr[WM_PORT_S] = y + 1 < h ? idx + w : edge;
            t->nbr[WM_PORT_W] = x > 0 ? idx - 1 : edge;
            for (unsigned o = 0; o < 4; o++) t->cr[o] = WM_IN_DEPTH;
            t->cr[WM_PORT_L] = WM_RX_DEPTH;
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
    free(s->active);
    free(s->proc);
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

/* Phase 1 for one tile: the combinational cycle and the edge of every
 * flop nobody else reads. */
static void tile_evaluate(sw_fabric *s, uint32_t idx)
{
    sw_tile *t = &s->tiles[idx];
    const sw_tile *nb[4] = {&s->tiles[t->nbr[0]], &s->tiles[t->nbr[1]], &s->tiles[t->nbr[2]],
                            &s->tiles[t->nbr[3]]};
    /* CI[o]: the neighbour's pulse for its buffer facing us (its port o^2),
     * and our own RX pop pulse for L. NE[o]: the neighbour's en_q. */
    unsigned ci = t->cp & PORT_L_BIT, ne = PORT_L_BIT;
    for (unsigned o = 0; o < 4; o++) {
        ci |= ((nb[o]->cp >> (o ^ 2u)) & 1u) << o;
        ne |= (unsigned)(nb[o]->en_q & 1u) << o;
    }
    unsigned popped = 0, moved = 0, arrived = 0;
    const bool perturbed = idx == s->perturb_tile;

    if (t->en_q) {
        unsigned hv = t->tx_cnt ? PORT_L_BIT : 0u;
        uint32_t head[WM_NPORTS];
        head[WM_PORT_L] = t->tx[t->tx_rd];
        for (unsigned i = 0; i < 4; i++) {
            head[i] = t->in[i][t->in_rd[i]];
            if (t->in_cnt[i]) hv |= 1u << i;
        }
        unsigned owner = 0;
        for (unsigned m = t->own_valid; m; m &= m - 1) owner |= 1u << t->own_idx[lowest_bit(m)];
        unsigned req[WM_NPORTS] = {0, 0, 0, 0, 0};
        unsigned offmesh = 0;
        for (unsigned m = hv & ~owner & ~(unsigned)t->drop; m; m &= m - 1) {
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
        }
        if (perturbed && s->perturb.kind == WM_SW_LATE_GRANT) {
            const unsigned p = s->perturb.port;
            const unsigned seen = req[p];
            req[p] &= t->late_req;
            t->late_req = (uint8_t)seen;
        }
        const unsigned wanted = (unsigned)t->own_valid | (req[0] ? 1u : 0u) | (req[1] ? 2u : 0u) |
                                (req[2] ? 4u : 0u) | (req[3] ? 8u : 0u) | (req[4] ? 16u : 0u);
        for (unsigned mo = wanted & ne; mo; mo &= mo - 1) {
            const unsigned o = lowest_bit(mo);
            const bool ok = t->cr[o] != 0 || ((ci >> o) & 1u);
            if (!ok) continue;
            if (t->own_valid & (1u << o)) {
                const unsigned i = t->own_idx[o];
                if (!(hv & (1u << i))) continue;
                moved |= 1u << o;
                popped |= 1u << i;
                t->od_next[o] = head[i];
                if (--t->own_rem[o] == 0) t->own_valid &= (uint8_t)~(1u << o);
            } else if (req[o]) {
                const bool reversed = perturbed && s->perturb.kind == WM_SW_RR_REVERSE;
                const unsigned i = reversed ? rr_pick_reversed(req[o], t->rr[o]) : rr_pick(req[o], t->rr[o]);
                moved |= 1u << o;
                popped |= 1u << i;
                t->od_next[o] = head[i];
                t->rr[o] = (uint8_t)(i == WM_NPORTS - 1 ? 0 : i + 1);
                const unsigned len = wm_header_len(head[i]);
                t->own_idx[o] = (uint8_t)i;
                t->own_rem[o] = (uint8_t)len;
                if (len) t->own_valid |= (uint8_t)(1u << o);
            }
        }
        if (perturbed && s->perturb.kind == WM_SW_LATE_GRANT) t->late_req &= (uint8_t)~popped;
        /* Discarding: the rest of an off-mesh message, or a new off-mesh header. */
        for (unsigned m = hv & ((unsigned)t->drop | offmesh); m; m &= m - 1) {
            const unsigned i = lowest_bit(m);
            popped |= 1u << i;
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

    /* The edge, for the state only this tile reads. */
    for (unsigned o = 0; o < WM_NPORTS; o++)
        t->cr[o] = (uint8_t)(t->cr[o] + ((ci >> o) & 1u) - ((moved >> o) & 1u));
    for (unsigned p = 0; p < 4; p++) {
        if (popped & (1u << p)) {
            t->in_rd[p] = (uint8_t)((t->in_rd[p] + 1u) & (WM_IN_DEPTH - 1u));
            t->in_cnt[p]--;
        }
        /* The neighbour's output register facing us; credits guarantee room. */
        const unsigned facing = p ^ 2u;
        if (nb[p]->ov & (1u << facing)) {
            t->in[p][(t->in_rd[p] + t->in_cnt[p]) & (WM_IN_DEPTH - 1u)] = nb[p]->od[facing];
            t->in_cnt[p]++;
            arrived = 1;
        }
    }
    const bool tx_accept = t->push_posted && t->tx_cnt < WM_TX_DEPTH;
    if (t->push_posted && !tx_accept) t->errs |= WM_ST_ERR_TX_FULL;
    if (popped & PORT_L_BIT) {
        t->tx_rd = (uint8_t)((t->tx_rd + 1u) & (WM_TX_DEPTH - 1u));
        t->tx_cnt--;
    }
    if (tx_accept) {
        t->tx[(t->tx_rd + t->tx_cnt) & (WM_TX_DEPTH - 1u)] = t->push_data;
        t->tx_cnt++;
    }
    const bool rx_accept = t->pop_posted && t->rx_cnt > 0;
    if (t->pop_posted && !rx_accept) t->errs |= WM_ST_ERR_RX_EMPTY;
    if (rx_accept) {
        t->rx_rd = (uint8_t)((t->rx_rd + 1u) & (WM_RX_DEPTH - 1u));
        t->rx_cnt--;
    }
    /* The L register drains into RX one cycle after it was loaded. */
    if (t->ov & PORT_L_BIT) {
        t->rx[(t->rx_rd + t->rx_cnt) & (WM_RX_DEPTH - 1u)] = t->od[WM_PORT_L];
        t->rx_cnt++;
    }
    t->changed = (uint8_t)((moved | popped | ci | arrived | t->push_posted | t->pop_posted) != 0 ||
                           t->en_q != t->enable_i || perturbed);
    t->push_posted = t->pop_posted = 0;
    t->ov_next = (uint8_t)moved;
    t->cp_next = (uint8_t)((popped & LINK_BITS) | (rx_accept ? PORT_L_BIT : 0u));
    t->en_next = t->enable_i;
}

/* Phase 2 for one tile: latch the flops the neighbours read, and list what
 * the next step must evaluate. */
static void tile_latch(sw_fabric *s, uint32_t idx)
{
    sw_tile *t = &s->tiles[idx];
    for (unsigned m = t->ov_next; m; m &= m - 1) {
        const unsigned o = lowest_bit(m);
        t->od[o] = t->od_next[o];
    }
    t->ov = t->ov_next;
    t->cp = t->cp_next;
    unsigned wake = (unsigned)(t->ov | t->cp) & LINK_BITS;
    if (t->en_q != t->en_next) wake = LINK_BITS; /* the neighbours' ok[] changes */
    t->en_q = t->en_next;
    const bool busy = tile_busy(t);
    s->nbusy = s->nbusy + busy - t->busy;
    t->busy = busy;
    /* Nothing happened: ov and cp are now 0, and the next evaluation would
     * do nothing again until something wakes the tile. */
    if (t->changed && (busy || t->cp)) queue_tile(s, idx);
    for (; wake; wake &= wake - 1) queue_tile(s, t->nbr[lowest_bit(wake)]);
}

static int compare_index(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void report_links(sw_fabric *s, uint32_t *tiles, size_t n)
{
    /* Ascending (y, x, port), the order the rtl backend reports in. */
    qsort(tiles, n, sizeof *tiles, compare_index);
    wm_link_event ev;
    ev.cycle = s->cycle;
    for (size_t k = 0; k < n; k++) {
        const sw_tile *t = &s->tiles[tiles[k]];
        ev.x = t->x;
        ev.y = t->y;
        for (unsigned m = t->ov; m; m &= m - 1) {
            ev.port = (uint8_t)lowest_bit(m);
            ev.data = t->od[ev.port];
            s->hook(s->hook_ctx, &ev);
        }
    }
}

static void sw_step(wm_fabric *f)
{
    sw_fabric *s = as_sw(f);
    uint32_t *proc = s->active;
    const size_t n = s->nactive;
    s->active = s->proc;
    s->proc = proc;
    s->nactive = 0;
    for (size_t k = 0; k < n; k++) s->tiles[proc[k]].queued = 0;
    for (size_t k = 0; k < n; k++) tile_evaluate(s, proc[k]);
    for (size_t k = 0; k < n; k++) tile_latch(s, proc[k]);
    s->cycle++;
    /* Only evaluated tiles can hold a wavelet in an output register. */
    if (s->hook) report_links(s, proc, n);
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
