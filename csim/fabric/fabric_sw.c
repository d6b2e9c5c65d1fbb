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
 *
 * Threads: since any order of evaluation gives the same result, a busy
 * step splits the active set in two halves by index, and a worker thread
 * evaluates one part while the calling thread evaluates the other. What
 * two tiles of a step may both write is kept apart: every mailbox byte has
 * one writer, and each thread (a lane) has its own active set for the next
 * step, its own list of enable changes and its own busy count, merged
 * after the step. With a link hook, each lane records the wavelets its
 * tiles load into output registers, and the hook is called from those
 * records after the step, lane 0's (the lower tiles) first: (y, x, port)
 * order, as on one thread, without reading the worker's tiles back.
 *
 * Cores: a fabric made by create_cores may run a PE core on any tile
 * (fabric_sw_cores.h). Where a core has started, it drives the firmware
 * port in the host's place: in each step it spends its cycle just before
 * its tile evaluates, seeing the tile as pe_status would show it, and its
 * push and pop are posted for that same edge. A running core keeps its
 * tile in the active set, except while it sleeps on a queue that only its
 * tile's evaluation can change (then the tile wakes as any other would,
 * and the core catches up). The busy count ignores cores: quiescent()
 * still means no wavelet in flight. A core is its tile's own state, so
 * the lanes step cores as they evaluate tiles, and record the cores'
 * events as they record the wavelets. A fabric without cores never looks
 * at any of this: its evaluation loop is compiled apart.
 *
 * Blocks (docs/fabric.md): a fabric made with config.band holds the tiles
 * of its block only, and, beside each boundary with another block, a row
 * or column of ghosts: tiles never evaluated, whose mailboxes receive what
 * the edge tiles send across (their output registers and credit pulses
 * facing the ghost), for band_edge_out to read. The tiles are laid out as
 * the block with its ghosts around it, a rectangle whose four corners are
 * never used (no link is diagonal), so that the neighbour at a port is
 * still one index offset away (step_to) for every tile, edge tiles
 * included. What the block across sends arrives by band_edge_in, written
 * into the edge tiles' mailboxes of the cycle as a neighbour's evaluation
 * would have written them, and its en_q into a per-wire array that the
 * step passes on to the edge tiles' NE at its edge. The neighbour of a tile
 * (pass_on_enables, NE at creation) stops at the block; a link
 * (load_output, pop_input) reaches the ghosts.
 */
#include "fabric/fabric.h"
#include "fabric/fabric_sw.h"
#include "fabric/fabric_sw_cores.h"

#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { PORT_L_BIT = 1u << WM_PORT_L, LINK_BITS = 0x0fu, POSTED_PUSH = 1u, POSTED_POP = 2u, CACHE_LINE = 64 };

/* What arrives at a tile for one cycle. Each byte has one writer (the
 * neighbour at that port, or the tile itself for L), so that tiles
 * evaluated side by side never write the same byte. */
typedef struct {
    uint8_t lv[4];        /* byte p: 1 << p when a wavelet arrives at input p (N..W), else 0 */
    uint8_t ci[8];        /* byte o: 1 when a credit arrives for output o (L: our own RX pop); 5..7 stay 0 */
    uint32_t ld[4];       /* the arriving wavelets */
} sw_mail;

/* The arrival mask of a mailbox: the OR of its four bytes. */
static inline unsigned mail_lv(const sw_mail *m)
{
    uint32_t w;
    memcpy(&w, m->lv, sizeof w);
    w |= w >> 16;
    w |= w >> 8;
    return w & LINK_BITS;
}

/* The credits of a mailbox, one count per byte: the layout of sw_tile.cr. */
static inline uint64_t mail_ci(const sw_mail *m)
{
    uint64_t w;
    memcpy(&w, m->ci, sizeof w);
    return w;
}

static inline void mail_clear(sw_mail *m)
{
    memset(m->lv, 0, sizeof m->lv);
    memset(m->ci, 0, sizeof m->ci);
}

/* 256 bytes, four cache lines, in the order an evaluation reads them:
 * mail and the buffer pointers, control and arbitration state, the link
 * buffers and credits, then TX and RX. What the PE's side reads and
 * writes every cycle (queue counts, RX head, posted accesses) lives in
 * per-mesh arrays instead (sw_fabric): a poller of hundreds of PEs then
 * reads a few dense cache lines, not a line of every tile, and on two
 * threads, tile lines stay with the thread that evaluates them. */
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
    uint8_t tx_rd, rx_rd;
    uint8_t errs;                  /* WM_ST_ERR_* bits */
    uint16_t x, y;
    uint8_t own_idx[WM_NPORTS];    /* per output: the input holding it */
    uint8_t rem[WM_NPORTS];        /* per input: data wavelets still to pass (owning) or to discard (dropping) */
    uint8_t rr[WM_NPORTS];
    uint32_t in[4][WM_IN_DEPTH];   /* link input buffers N..W */
    uint64_t cr;                   /* credits per output, one byte each (0..8: no carries) */
    uint32_t od[WM_NPORTS];        /* output data registers */
    uint32_t tx[WM_TX_DEPTH];
    uint32_t rx[WM_RX_DEPTH];
} sw_tile;

/* At the default depths; a build at other depths (mk/params.mk) is a
 * test, whatever its tiles' size. */
_Static_assert(sizeof(sw_tile) == 4 * CACHE_LINE || WM_IN_DEPTH != 4 || WM_TX_DEPTH != 8 || WM_RX_DEPTH != 8,
               "a tile is four cache lines");

/* A set of tile indices, a bit per tile: adding is a store, and walking it
 * visits the tiles in memory order, which is also (y, x) order. Walking
 * costs a word per 64 tiles: 1024 words on the largest mesh. */
typedef struct {
    uint64_t *bits;
    size_t nwords;
} tile_set;

/* Whole cache lines: two threads fill two sets at once. */
static void set_init(tile_set *t, size_t n)
{
    t->nwords = (n + 63) / 64;
    const size_t bytes = (t->nwords * sizeof *t->bits + CACHE_LINE - 1) / CACHE_LINE * CACHE_LINE;
    t->bits = aligned_alloc(CACHE_LINE, bytes);
    if (t->bits) memset(t->bits, 0, bytes);
}

static void set_free(tile_set *t) { free(t->bits); }

static void set_add(tile_set *t, uint32_t idx) { t->bits[idx >> 6] |= 1ull << (idx & 63u); }

/* One wavelet in an output register, as a lane records it. */
typedef struct {
    uint16_t x, y;
    uint8_t port;
    uint32_t data;
} sw_event;

/* What one thread writes during a step, besides tiles: its own cache
 * lines, so the two threads never share one. */
typedef struct {
    _Alignas(CACHE_LINE) tile_set next; /* tiles to evaluate in the next step */
    uint32_t *en_changed; /* tiles whose en_q changed in this step, as index * 2 + new en_q */
    size_t nen_changed;
    ptrdiff_t busy_delta; /* change of the count of busy tiles */
    /* With a link hook: the wavelets this thread's tiles loaded into
     * output registers, in evaluation order, for the hook after the step.
     * Reading them from the tiles instead would pull the worker's tiles
     * into the calling thread's cache at every step. */
    sw_event *events;
    size_t nevents;
    /* With a core hook: the eventful cycles of this thread's cores, in
     * evaluation order. */
    wm_core_event *core_events;
    size_t ncore_events;
    /* Changes of the counts of halted and of waiting cores (core_census). */
    ptrdiff_t halted_delta, waiting_delta;
} sw_lane;

typedef struct sw_fabric sw_fabric;

/* The worker thread and its hand-over. The caller posts a step by bumping
 * go; the worker evaluates its words and sets done to the same number.
 * Both wait by spinning, then yielding; the worker, idle for long (the
 * mesh went quiet), sleeps on the condition variable, and the caller
 * wakes it only when it says so. */
typedef struct {
    sw_fabric *s;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    size_t tile_begin, tile_end;
    unsigned now, next;
    _Alignas(CACHE_LINE) atomic_uint go;
    atomic_bool sleeping;
    atomic_bool quit;
    _Alignas(CACHE_LINE) atomic_uint done;
} sw_worker;

enum {
    SPIN_ROUNDS = 4000,  /* pause instructions before yielding: a few tens of microseconds */
    YIELD_ROUNDS = 200,  /* then sched_yield calls before the worker sleeps */
    LANES = 2
};

/* Two threads are faster only while the second CPU is free: another job
 * on it makes the worker wait for its time slice, and a step then costs
 * more than on one thread. So busy steps take turns: a window of
 * TRIAL_STEPS on two threads, one on one thread, each timed by the wall
 * clock from its first step to the step after its last (the caller's work
 * between steps included), then CHOSEN_STEPS the faster way, then trials
 * again. The very first window runs on two threads untimed: it starts the
 * worker and touches its memory, which made the first trial several times
 * slower than the later ones. Only the speed depends on the choice;
 * results are the same either way. */
enum { TRIAL_STEPS = 128, CHOSEN_STEPS = 4096 };

typedef enum { WARM_UP, TRY_TWO, TRY_ONE, CHOSEN } sw_choice_phase;

typedef struct {
    sw_choice_phase phase;
    unsigned steps;      /* busy steps so far in this window */
    size_t tiles;        /* tiles they evaluated */
    double started;      /* wall clock at the window's first step, seconds */
    double two_rate;     /* tiles per second of the last two-thread trial */
    bool two_chosen;
} sw_choice;

struct sw_fabric {
    unsigned w, h;
    uint16_t last_x, last_y;
    uint64_t cycle;
    uint64_t tsc_start;  /* every PE's tsc at cycle 0 (wm_fabric_config) */
    unsigned row_begin, row_end; /* the block's rows, of the whole mesh's h (0, h: the whole mesh) */
    unsigned col_begin, col_end; /* the block's columns, of w (0, w: the whole mesh) */
    uint32_t stride;     /* from a tile to the one south of it: the block's width and its ghost columns */
    size_t ntiles;       /* the block's tiles */
    uint32_t first;      /* the index of tile (col_begin, row_begin) */
    /* By wm_band_edge: the index of the edge tile of wire 0, the offset
     * from one wire's edge tile to the next one's, and how many wires. */
    uint32_t edge_first[4], edge_step[4], edge_wires[4];
    uint8_t *edge_en[4]; /* where a block lies across (ghosts there): per wire, the en_q across (band_edge_in) */
    bool has_ghosts;     /* some side has a block across */
    bool edge_en_changed; /* an edge_en may differ from the edge tiles' NE */
    sw_tile *tiles;      /* the block amid its ghosts, row by row (stride), then the sentinel */
    uint8_t *tx_count;   /* per tile, TX queue occupancy */
    uint8_t *rx_count;   /* per tile, RX queue occupancy */
    uint32_t *rx_head;   /* per tile, the RX queue's oldest wavelet (stale when empty) */
    uint8_t *posted;     /* per tile, POSTED_PUSH | POSTED_POP: the PE's accesses of this cycle */
    uint32_t *push_data; /* per tile, the posted push */
    uint32_t *err_hdr;   /* per tile, the first off-mesh header discarded */
    tile_set proc;       /* tiles being evaluated in this step */
    /* Lane 0: the calling thread, and every change made between steps;
     * lane 1: the worker. */
    sw_lane lane[LANES];
    bool lane1_used;     /* lane 1 has next-step tiles to merge */
    uint32_t sentinel;   /* the last index: the one edge links point at */
    uint32_t step_to[4]; /* index offset to the neighbour at N, E, S, W (mod 2^32) */
    uint32_t *en_pending; /* the enable changes of the previous step: neighbours see them from the next cycle */
    size_t nen_pending;
    size_t nbusy;        /* tiles with wavelets in flight */
    size_t cores_halted, cores_waiting; /* started cores halted; the others waiting (core_census) */
    size_t evaluated;    /* tiles evaluated in the last step */
    uint64_t parallel_steps; /* steps evaluated on two threads */
    wm_link_hook hook;
    void *hook_ctx;
    sw_cores *cores;     /* create_cores: the tiles' cores; NULL for a bare fabric */
    wm_core_hook core_hook;
    void *core_hook_ctx;
    uint32_t perturb_tile; /* index of the perturbed tile, or UINT32_MAX */
    wm_sw_perturbation perturb;
    uint8_t late_req;    /* WM_SW_LATE_GRANT: the requests the perturbed tile saw one cycle ago */
    wm_sw_threads threads;
    sw_worker *worker;   /* started by the first parallel step */
    sw_choice choice;    /* WM_SW_THREADS_AUTO: which way busy steps go */
};

/* The mode for a new fabric; automatic means one thread on one CPU. */
static bool threads_for_new_fabric(wm_sw_threads asked, wm_sw_threads *out)
{
    *out = asked;
    if (asked == WM_SW_THREADS_ENV) {
        const char *env = getenv("WM_SW_THREADS");
        if (!env || !*env || !strcmp(env, "0")) *out = WM_SW_THREADS_AUTO;
        else if (!strcmp(env, "1")) *out = WM_SW_THREADS_ONE;
        else if (!strcmp(env, "2")) *out = WM_SW_THREADS_TWO;
        else {
            fprintf(stderr, "wavemesh: WM_SW_THREADS='%s' is not 0 (automatic), 1 or 2 (threads)\n", env);
            return false;
        }
    }
    if (*out == WM_SW_THREADS_AUTO && sysconf(_SC_NPROCESSORS_ONLN) < 2) *out = WM_SW_THREADS_ONE;
    return true;
}

static sw_fabric *as_sw(wm_fabric *f) { return (sw_fabric *)f; }
static const sw_fabric *as_sw_const(const wm_fabric *f) { return (const sw_fabric *)f; }

/* Tile (x, y) of the block, in global coordinates. */
static uint32_t tile_index(const sw_fabric *s, unsigned x, unsigned y)
{
    assert(x >= s->col_begin && x < s->col_end && y >= s->row_begin && y < s->row_end && "a tile of the block");
    return s->first + (uint32_t)((y - s->row_begin) * s->stride + (x - s->col_begin));
}

/* The neighbour of tile idx at port o, or the sentinel at an edge of the
 * block. */
static uint32_t neighbour(const sw_fabric *s, uint32_t idx, unsigned o)
{
    const unsigned x = s->tiles[idx].x, y = s->tiles[idx].y;
    switch (o) {
    case WM_PORT_N: return y > s->row_begin ? idx - s->stride : s->sentinel;
    case WM_PORT_E: return x + 1 < s->col_end ? idx + 1 : s->sentinel;
    case WM_PORT_S: return y + 1 < s->row_end ? idx + s->stride : s->sentinel;
    default: return x > s->col_begin ? idx - 1 : s->sentinel;
    }
}

/* The tile at the other end of tile idx's link o: a neighbour, a ghost
 * across a block's edge, or the sentinel at the mesh's edge. */
static uint32_t link_partner(const sw_fabric *s, uint32_t idx, unsigned o)
{
    const unsigned x = s->tiles[idx].x, y = s->tiles[idx].y;
    if (o == WM_PORT_N && y == s->row_begin && y > 0) return idx - s->stride;
    if (o == WM_PORT_S && y + 1 == s->row_end && y + 1 < s->h) return idx + s->stride;
    if (o == WM_PORT_E && x + 1 == s->col_end && x + 1 < s->w) return idx + 1;
    if (o == WM_PORT_W && x == s->col_begin && x > 0) return idx - 1;
    return neighbour(s, idx, o);
}

/* The port of a block's edge tiles that faces side. */
static unsigned edge_port(wm_band_edge side)
{
    static const uint8_t port[4] = {WM_PORT_N, WM_PORT_S, WM_PORT_E, WM_PORT_W};
    return port[side];
}

/* The edge tile of wire i on side. */
static uint32_t edge_tile(const sw_fabric *s, wm_band_edge side, uint32_t i)
{
    return s->edge_first[side] + i * s->edge_step[side];
}

/* Between steps: the change goes into lane 0's set. Edge links lead to
 * the sentinel, which is never evaluated. */
static void queue_tile(sw_fabric *s, uint32_t idx)
{
    if (idx != s->sentinel) set_add(&s->lane[0].next, idx);
}

static bool tile_busy(const sw_tile *t)
{
    return (t->held | t->ov) != 0;
}

static void sw_free(sw_fabric *s)
{
    free(s->tiles);
    free(s->tx_count);
    free(s->rx_count);
    free(s->err_hdr);
    free(s->rx_head);
    free(s->posted);
    free(s->push_data);
    set_free(&s->proc);
    for (unsigned k = 0; k < LANES; k++) {
        set_free(&s->lane[k].next);
        free(s->lane[k].en_changed);
        free(s->lane[k].events);
        free(s->lane[k].core_events);
    }
    free(s->en_pending);
    for (unsigned side = 0; side < 4; side++) free(s->edge_en[side]);
    wm_sw_cores_free(s->cores);
    free(s);
}

static wm_fabric *sw_create_with(unsigned w, unsigned h, bool cores, const wm_fabric_config *cfg)
{
    static const wm_fabric_config defaults;
    if (!cfg) cfg = &defaults;
    if (w < 1 || h < 1 || w > WM_MESH_MAX || h > WM_MESH_MAX) {
        fprintf(stderr, "wavemesh: mesh %ux%u is outside 1x1..%ux%u\n", w, h, WM_MESH_MAX, WM_MESH_MAX);
        return NULL;
    }
    const unsigned row_begin = cfg->band.row_end ? cfg->band.row_begin : 0;
    const unsigned row_end = cfg->band.row_end ? cfg->band.row_end : h;
    const unsigned col_begin = cfg->band.col_end ? cfg->band.col_begin : 0;
    const unsigned col_end = cfg->band.col_end ? cfg->band.col_end : w;
    if (row_begin >= row_end || row_end > h || col_begin >= col_end || col_end > w) {
        fprintf(stderr, "wavemesh: block of rows [%u,%u) x columns [%u,%u) is not a block of a %ux%u mesh\n",
                row_begin, row_end, col_begin, col_end, w, h);
        return NULL;
    }
    wm_sw_threads threads;
    if (!threads_for_new_fabric(cfg->threads, &threads)) return NULL;
    /* Aligned, so that the lanes' lines hold nothing the other thread reads. */
    sw_fabric *s = aligned_alloc(CACHE_LINE, sizeof *s);
    const unsigned block_w = col_end - col_begin, block_h = row_end - row_begin;
    const size_t ntiles = (size_t)block_w * block_h;
    /* A ghost row or column on each side where a block lies across. */
    const bool across[4] = {row_begin > 0, row_end < h, col_end < w, col_begin > 0};
    const uint32_t stride = across[WM_EDGE_WEST] + block_w + across[WM_EDGE_EAST];
    const size_t n = (size_t)stride * (across[WM_EDGE_NORTH] + block_h + across[WM_EDGE_SOUTH]); /* the sentinel: n */
    bool ok = s != NULL;
    if (ok) {
        memset(s, 0, sizeof *s);
        /* Tiles on cache-line boundaries: (n + 1) * 256 is a multiple of 64. */
        s->tiles = aligned_alloc(CACHE_LINE, (n + 1) * sizeof *s->tiles);
        if (s->tiles) memset(s->tiles, 0, (n + 1) * sizeof *s->tiles);
        s->tx_count = calloc(n + 1, 1);
        s->rx_count = calloc(n + 1, 1);
        s->err_hdr = calloc(n + 1, sizeof *s->err_hdr);
        s->rx_head = calloc(n + 1, sizeof *s->rx_head);
        s->posted = calloc(n + 1, 1);
        s->push_data = calloc(n + 1, sizeof *s->push_data);
        set_init(&s->proc, n);
        ok = s->tiles && s->tx_count && s->rx_count && s->err_hdr && s->rx_head && s->posted && s->push_data &&
             s->proc.bits;
        for (unsigned k = 0; k < LANES; k++) {
            set_init(&s->lane[k].next, n);
            s->lane[k].en_changed = malloc(ntiles * sizeof *s->lane[k].en_changed);
            ok = ok && s->lane[k].next.bits && s->lane[k].en_changed;
        }
        s->en_pending = malloc(ntiles * sizeof *s->en_pending);
        ok = ok && s->en_pending;
        for (unsigned side = 0; side < 4; side++)
            if (across[side]) ok = ok && (s->edge_en[side] = calloc(side < WM_EDGE_EAST ? block_w : block_h, 1));
    }
    if (!ok) {
        fprintf(stderr, "wavemesh: out of memory for a %ux%u sw fabric\n", w, h);
        if (s) sw_free(s);
        return NULL;
    }
    s->w = w;
    s->h = h;
    s->row_begin = row_begin;
    s->row_end = row_end;
    s->col_begin = col_begin;
    s->col_end = col_end;
    s->stride = stride;
    s->ntiles = ntiles;
    s->first = across[WM_EDGE_NORTH] * stride + across[WM_EDGE_WEST];
    s->edge_first[WM_EDGE_NORTH] = s->edge_first[WM_EDGE_WEST] = s->first;
    s->edge_first[WM_EDGE_SOUTH] = s->first + (block_h - 1) * stride;
    s->edge_first[WM_EDGE_EAST] = s->first + block_w - 1;
    s->edge_step[WM_EDGE_NORTH] = s->edge_step[WM_EDGE_SOUTH] = 1;
    s->edge_step[WM_EDGE_EAST] = s->edge_step[WM_EDGE_WEST] = stride;
    s->edge_wires[WM_EDGE_NORTH] = s->edge_wires[WM_EDGE_SOUTH] = block_w;
    s->edge_wires[WM_EDGE_EAST] = s->edge_wires[WM_EDGE_WEST] = block_h;
    s->has_ghosts = across[0] || across[1] || across[2] || across[3];
    s->threads = threads;
    s->sentinel = (uint32_t)n;
    s->step_to[WM_PORT_N] = (uint32_t)0 - stride;
    s->step_to[WM_PORT_E] = 1;
    s->step_to[WM_PORT_S] = stride;
    s->step_to[WM_PORT_W] = (uint32_t)0 - 1u;
    s->last_x = (uint16_t)(w - 1);
    s->last_y = (uint16_t)(h - 1);
    const uint32_t edge = (uint32_t)n;
    /* Every place its global coordinates; the ghosts' are never read, set
     * for a debugger's eyes. */
    for (size_t k = 0; k < n; k++) {
        s->tiles[k].x = (uint16_t)(col_begin - across[WM_EDGE_WEST] + k % stride);
        s->tiles[k].y = (uint16_t)(row_begin - across[WM_EDGE_NORTH] + k / stride);
    }
    for (unsigned y = row_begin; y < row_end; y++) {
        for (unsigned x = col_begin; x < col_end; x++) {
            const uint32_t idx = tile_index(s, x, y);
            sw_tile *t = &s->tiles[idx];
            /* NE is 0 in reset and loads the neighbours' en_q at the first
             * edge; in cycle 0 no input holds a wavelet, so nothing can
             * tell it from its cycle-1 value, which it starts at. Across
             * a block's edge it starts at 0, as the en across before the
             * first band_edge_in. */
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
    s->perturb = cfg->perturbation;
    s->tsc_start = cfg->tsc_start;
    s->perturb_tile = UINT32_MAX;
    if (s->perturb.kind != WM_SW_EXACT && s->perturb.x >= col_begin && s->perturb.x < col_end &&
        s->perturb.y >= row_begin && s->perturb.y < row_end)
        s->perturb_tile = tile_index(s, s->perturb.x, s->perturb.y);
    if (!cores) return (wm_fabric *)s;
    /* A core per tile, each in reset until core_start; indexed as the
     * tiles, ghosts included (never made there). */
    s->cores = wm_sw_cores_new(n);
    if (!s->cores) {
        fprintf(stderr, "wavemesh: out of memory for the cores of a %ux%u sw fabric\n", w, h);
        sw_free(s);
        return NULL;
    }
    return (wm_fabric *)s;
}

static wm_fabric *sw_create(unsigned w, unsigned h) { return sw_create_with(w, h, false, NULL); }
static wm_fabric *sw_create_cores(unsigned w, unsigned h) { return sw_create_with(w, h, true, NULL); }

static void worker_stop(sw_worker *wk);

static void sw_destroy(wm_fabric *f)
{
    sw_fabric *s = as_sw(f);
    if (!s) return;
    if (s->worker) worker_stop(s->worker);
    sw_free(s);
}

static void sw_set_enable(wm_fabric *f, unsigned x, unsigned y, bool on)
{
    sw_fabric *s = as_sw(f);
    const uint32_t idx = tile_index(s, x, y);
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

/* Bit o: credit counter o (a byte of cr, 0..8) is not zero. OR-ing the
 * counter's four low bits into bit 0 of its byte, then one multiply
 * gathers the five bit-0s at bits 40..44 (their partial products land on
 * distinct bits, so nothing carries into those). */
static inline unsigned credit_nonzero(uint64_t cr)
{
    const uint64_t low = (cr | cr >> 1 | cr >> 2 | cr >> 3) & 0x0101010101ull;
    const uint64_t gather = (1ull << 40) | (1ull << 33) | (1ull << 26) | (1ull << 19) | (1ull << 12);
    return (unsigned)((low * gather) >> 40) & 31u;
}

/* Step 3 of the spec, E if col > x, else W if col < x, else S if row > y,
 * else N if row < y, else L, from a table indexed by the two signs. */
static inline unsigned route_of(unsigned col, unsigned row, unsigned x, unsigned y)
{
    /* index 4 * sx + sy; sx: 1 when col > x, 2 when col < x; sy likewise */
    static const uint8_t route_by_signs[11] = {WM_PORT_L, WM_PORT_S, WM_PORT_N, 0,
                                               WM_PORT_E, WM_PORT_E, WM_PORT_E, 0,
                                               WM_PORT_W, WM_PORT_W, WM_PORT_W};
    const unsigned sx = (unsigned)(col > x) | (unsigned)(col < x) << 1;
    const unsigned sy = (unsigned)(row > y) | (unsigned)(row < y) << 1;
    return route_by_signs[4 * sx + sy];
}

/* Input i of tile idx is popped at this edge: the buffer moves on, and
 * for a link input the credit pulse goes to the neighbour's next mailbox.
 * Each input is popped at most once a cycle, and the heads were read
 * before any pop, so this can happen as the switch decides. */
static inline void pop_input(sw_fabric *s, sw_lane *lane, sw_tile *t, uint32_t idx, unsigned i, unsigned next)
{
    if (i == WM_PORT_L) {
        t->tx_rd = (uint8_t)((t->tx_rd + 1u) % WM_TX_DEPTH);
        if (--s->tx_count[idx] == 0) t->held &= (uint8_t)~PORT_L_BIT;
        return;
    }
    t->in_rd[i] = (uint8_t)((t->in_rd[i] + 1u) % WM_IN_DEPTH);
    t->in_cnt[i]--;
    t->held &= (uint8_t)~((unsigned)(t->in_cnt[i] == 0) << i);
    const uint32_t n = idx + s->step_to[i];
    s->tiles[n].mail[next].ci[i ^ 2u] = 1;
    set_add(&lane->next, n);
}

/* A wavelet enters output register o: for a link, the neighbour finds it
 * in its next mailbox. */
static inline void load_output(sw_fabric *s, sw_lane *lane, sw_tile *t, uint32_t idx, unsigned o, uint32_t wavelet,
                               unsigned next)
{
    t->od[o] = wavelet;
    if (o == WM_PORT_L) return;
    const uint32_t n = idx + s->step_to[o];
    sw_mail *nm = &s->tiles[n].mail[next];
    nm->lv[o ^ 2u] = (uint8_t)(1u << (o ^ 2u));
    nm->ld[o ^ 2u] = wavelet;
    set_add(&lane->next, n);
}

/* One tile, one cycle: the combinational cycle of docs/fabric.md, then the
 * edge; the wavelets and credits it sends go to next cycle's mailboxes,
 * and whatever else it changes beyond its own state goes to its lane.
 * Always inlined, into evaluate_tiles and evaluate_core_tiles: a call
 * per tile would slow the fabric without cores. */
static inline __attribute__((always_inline)) void tile_step(sw_fabric *s, sw_lane *lane, uint32_t idx, unsigned now,
                                                            unsigned next)
{
    sw_tile *t = &s->tiles[idx];
    sw_mail *mail = &t->mail[now];
    const unsigned lv = mail_lv(mail);
    const uint64_t ci = mail_ci(mail);
    mail_clear(mail);
    const bool perturbed = idx == s->perturb_tile;
    const unsigned posted = s->posted[idx];
    const bool en_changes = t->en_q != t->enable_i;

    /* Only credits coming back: the common case away from the traffic. */
    if (!(t->held | t->ov | lv | posted | en_changes | perturbed)) {
        t->cr += ci;
        return;
    }
    const bool was_busy = tile_busy(t);

    /* RX first: it pushes the L register as it stood before the edge,
     * and the router does not look at it. */
    uint8_t *rx_count = &s->rx_count[idx];
    const bool rx_accept = (posted & POSTED_POP) && *rx_count > 0;
    if ((posted & POSTED_POP) && !rx_accept) t->errs |= WM_ST_ERR_RX_EMPTY;
    if (rx_accept) {
        t->rx_rd = (uint8_t)((t->rx_rd + 1u) % WM_RX_DEPTH);
        --*rx_count;
    }
    if (t->ov & PORT_L_BIT) {
        t->rx[(t->rx_rd + *rx_count) % WM_RX_DEPTH] = t->od[WM_PORT_L];
        ++*rx_count;
    }
    if (rx_accept | (t->ov & PORT_L_BIT)) s->rx_head[idx] = t->rx[t->rx_rd];

    unsigned popped = 0, moved = 0;
    const unsigned hv = t->held;
    if (t->en_q && hv) {
        /* Every head, held or not: five loads cost less than a branch each. */
        const uint32_t head[WM_NPORTS] = {t->in[0][t->in_rd[0]], t->in[1][t->in_rd[1]], t->in[2][t->in_rd[2]],
                                          t->in[3][t->in_rd[3]], t->tx[t->tx_rd]};
        /* Steps 2, 3, 6 for all five inputs without a branch: a loop over
         * the requesting ones mispredicted its exits and its routes.
         * reqs bit 5 * o + i: input i requests output o. */
        const unsigned need = hv & ~(unsigned)(t->owner | t->drop);
        uint32_t reqs = 0;
        unsigned offmesh = 0, wanted = 0;
        const unsigned x = t->x, y = t->y, last_x = s->last_x, last_y = s->last_y;
        for (unsigned m = need; m; m &= m - 1) {
            const unsigned i = lowest_bit(m);
            const unsigned col = wm_header_col(head[i]), row = wm_header_row(head[i]);
            if (col > last_x || row > last_y) {
                offmesh |= 1u << i;
                continue;
            }
            const unsigned route = route_of(col, row, x, y);
            reqs |= (uint32_t)1u << (5 * route + i);
            wanted |= 1u << route;
        }
        if (perturbed && s->perturb.kind == WM_SW_LATE_GRANT) {
            const unsigned p = s->perturb.port;
            const unsigned seen = (reqs >> (5 * p)) & 31u;
            reqs &= ~((uint32_t)(seen & ~(unsigned)s->late_req) << (5 * p));
            if (!((reqs >> (5 * p)) & 31u)) wanted &= ~(1u << p);
            s->late_req = (uint8_t)seen;
        }
        /* Step 5 and 7: which outputs move a wavelet, owned or granted. */
        unsigned owner_has_head = 0;
#pragma GCC unroll 5
        for (unsigned o = 0; o < WM_NPORTS; o++) owner_has_head |= ((hv >> t->own_idx[o]) & 1u) << o;
        const unsigned own_valid = t->own_valid;
        /* a credit arriving now counts from the next cycle */
        const unsigned ready = credit_nonzero(t->cr) & ((own_valid & owner_has_head) | (~own_valid & wanted));
        const bool reversed = perturbed && s->perturb.kind == WM_SW_RR_REVERSE;
        for (unsigned mo = ready & t->ne; mo; mo &= mo - 1) {
            const unsigned o = lowest_bit(mo);
            const unsigned owned = (t->own_valid >> o) & 1u;
            /* The owner is the only candidate; rr_pick returns a lone one. */
            const unsigned cand = owned ? 1u << t->own_idx[o] : (reqs >> (5 * o)) & 31u;
            const unsigned i = reversed ? rr_pick_reversed(cand, t->rr[o]) : rr_pick(cand, t->rr[o]);
            moved |= 1u << o;
            popped |= 1u << i;
            load_output(s, lane, t, idx, o, head[i], next);
            pop_input(s, lane, t, idx, i, next);
            /* Owned: one more data wavelet passed. Granted: the header's. */
            const unsigned rem = owned ? t->rem[i] - 1u : wm_header_len(head[i]);
            const unsigned keep = rem != 0;
            t->rem[i] = (uint8_t)rem;
            t->own_idx[o] = (uint8_t)i;
            if (!owned) t->rr[o] = (uint8_t)(i == WM_NPORTS - 1 ? 0 : i + 1);
            t->own_valid = (uint8_t)((t->own_valid & ~(1u << o)) | keep << o);
            t->owner = (uint8_t)((t->owner & ~(1u << i)) | keep << i);
        }
        if (perturbed && s->perturb.kind == WM_SW_LATE_GRANT) s->late_req &= (uint8_t)~popped;
        /* Discarding: the rest of an off-mesh message, or a new off-mesh header. */
        for (unsigned m = hv & ((unsigned)t->drop | offmesh); m; m &= m - 1) {
            const unsigned i = lowest_bit(m);
            popped |= 1u << i;
            pop_input(s, lane, t, idx, i, next);
            if (t->drop & (1u << i)) {
                if (--t->rem[i] == 0) t->drop &= (uint8_t)~(1u << i);
            } else {
                const unsigned len = wm_header_len(head[i]);
                t->rem[i] = (uint8_t)len;
                if (len) t->drop |= (uint8_t)(1u << i);
                if (!(t->errs & WM_ST_ERR_OFFMESH)) s->err_hdr[idx] = head[i];
                t->errs |= WM_ST_ERR_OFFMESH;
            }
        }
    }

    /* The edge. */
    t->cr = t->cr + ci - credit_bytes(moved);
    /* Credits guarantee room. Every buffer writes its tail slot, with the
     * arriving wavelet or with what the slot holds: no branch per port.
     * (A full buffer's tail slot is its head, written back unchanged.) */
#pragma GCC unroll 4
    for (unsigned p = 0; p < 4; p++) {
        const uint32_t arrives = 0u - ((lv >> p) & 1u);
        uint32_t *tail = &t->in[p][(t->in_rd[p] + t->in_cnt[p]) % WM_IN_DEPTH];
        *tail = (mail->ld[p] & arrives) | (*tail & ~arrives);
        t->in_cnt[p] = (uint8_t)(t->in_cnt[p] + (arrives & 1u));
    }
    t->held |= (uint8_t)lv;
    /* Checked against the count before the edge: a pop at this edge, made
     * above, does not make room for the push. */
    uint8_t *tx_count = &s->tx_count[idx];
    const bool tx_accept = (posted & POSTED_PUSH) && *tx_count + ((popped >> WM_PORT_L) & 1u) < WM_TX_DEPTH;
    if ((posted & POSTED_PUSH) && !tx_accept) t->errs |= WM_ST_ERR_TX_FULL;
    if (tx_accept) {
        t->tx[(t->tx_rd + *tx_count) % WM_TX_DEPTH] = s->push_data[idx];
        ++*tx_count;
        t->held |= PORT_L_BIT;
    }
    if (posted) s->posted[idx] = 0;
    t->ov = (uint8_t)moved;
    if (lane->events)
        for (unsigned m = moved; m; m &= m - 1)
            lane->events[lane->nevents++] = (sw_event){t->x, t->y, (uint8_t)lowest_bit(m), t->od[lowest_bit(m)]};
    if (en_changes) {
        t->en_q = t->enable_i;
        lane->en_changed[lane->nen_changed++] = idx * 2u + t->en_q;
    }

    if (rx_accept) t->mail[next].ci[WM_PORT_L] = 1;
    const bool busy = tile_busy(t);
    lane->busy_delta += (ptrdiff_t)busy - (ptrdiff_t)was_busy;
    /* Nothing happened: the next evaluation would do nothing again. */
    const bool changed = (moved | popped | lv) != 0 || ci != 0 || posted || en_changes || perturbed;
    if ((changed && busy) || rx_accept) set_add(&lane->next, idx);
}

/* The started core of tile idx spends the fabric's current cycle, before
 * the tile evaluates: it sees the datapath as sw_pe_status shows it, and
 * what it pushes or pops is posted for this edge, as sw_pe_push and
 * sw_pe_pop would post it. The core owns the port, so nothing the host
 * posted there counts, even once the core has halted. */
static void core_cycle(sw_fabric *s, sw_lane *lane, uint32_t idx, sw_core *c)
{
    s->posted[idx] = 0;
    if (c->held) return; /* a debugger's hold: the core spends no cycle */
    if (wm_iss_halted(&c->iss) || s->cycle < c->start) return; /* halted, or in reset for a restart */
    const sw_tile *t = &s->tiles[idx];
    const wm_core_pe_in in = {
        .tsc = s->tsc_start + s->cycle,
        .rx_head = s->rx_head[idx],
        .err_hdr = s->err_hdr[idx],
        .tx_count = s->tx_count[idx],
        .rx_count = s->rx_count[idx],
        .status = (uint8_t)(t->errs | (tile_busy(t) ? WM_ST_BUSY : 0u)),
        .col = t->x,
        .row = t->y,
    };
    wm_core_cycle out;
    const bool was_waiting = wm_iss_waiting(&c->iss) != WM_ISS_WAIT_NONE;
    wm_sw_core_cycle(c, s->cycle, &in, &out);
    lane->waiting_delta += (wm_iss_waiting(&c->iss) != WM_ISS_WAIT_NONE) - was_waiting;
    lane->halted_delta += wm_iss_halted(&c->iss);
    if (out.push) s->push_data[idx] = out.push_data;
    s->posted[idx] = (uint8_t)((out.push ? POSTED_PUSH : 0u) | (out.pop ? POSTED_POP : 0u));
    if (lane->core_events && (out.retire | out.push | out.pop))
        lane->core_events[lane->ncore_events++] =
            (wm_core_event){s->cycle, t->x, t->y, out, out.pop ? in.rx_head : 0u};
}

/* evaluate_tiles on a fabric with cores: each started core spends its
 * cycle just before its tile evaluates. Kept out of evaluate_tiles, whose
 * loop stays as tight as a fabric without cores needs it. */
static __attribute__((noinline)) size_t evaluate_core_tiles(sw_fabric *s, sw_lane *lane, size_t begin, size_t end,
                                                            unsigned now, unsigned next)
{
    size_t count = 0;
    for (size_t wi = begin / 64; wi < (end + 63) / 64; wi++) {
        uint64_t bits = s->proc.bits[wi];
        if (wi == begin / 64) bits &= ~0ull << (begin % 64);
        if (wi == end / 64) bits &= ~(~0ull << (end % 64));
        if (!bits) continue;
        count += (size_t)__builtin_popcountll(bits);
        for (; bits; bits &= bits - 1) {
            const uint32_t idx = (uint32_t)(64 * wi + (size_t)__builtin_ctzll(bits));
            sw_core *c = s->cores->tile[idx];
            const bool started = c && c->started;
            if (started) core_cycle(s, lane, idx, c);
            tile_step(s, lane, idx, now, next);
            /* The tile's edge may have filled the RX or drained the TX a
             * sleeping core waits on: it wakes for the next cycle. */
            if (started && wm_sw_core_wants_next(c, s->tx_count[idx], s->rx_count[idx])) set_add(&lane->next, idx);
        }
    }
    return count;
}

/* The tiles of the step's set with indices in [begin, end), in ascending
 * order; returns how many. */
static size_t evaluate_tiles(sw_fabric *s, sw_lane *lane, size_t begin, size_t end, unsigned now, unsigned next)
{
    if (s->cores) return evaluate_core_tiles(s, lane, begin, end, now, next);
    size_t count = 0;
    for (size_t wi = begin / 64; wi < (end + 63) / 64; wi++) {
        uint64_t bits = s->proc.bits[wi];
        if (wi == begin / 64) bits &= ~0ull << (begin % 64);
        if (wi == end / 64) bits &= ~(~0ull << (end % 64));
        if (!bits) continue;
        count += (size_t)__builtin_popcountll(bits);
        for (; bits; bits &= bits - 1) tile_step(s, lane, (uint32_t)(64 * wi + (size_t)__builtin_ctzll(bits)), now, next);
    }
    return count;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void *worker_main(void *arg)
{
    sw_worker *wk = arg;
    unsigned seen = 0;
    for (;;) {
        unsigned go;
        for (unsigned round = 0;; round++) {
            go = atomic_load_explicit(&wk->go, memory_order_acquire);
            if (go != seen) break;
            if (round < SPIN_ROUNDS) {
                cpu_relax();
            } else if (round < SPIN_ROUNDS + YIELD_ROUNDS) {
                sched_yield();
            } else {
                /* Dekker with the caller: it stores go, then reads
                 * sleeping; we store sleeping, then read go. */
                pthread_mutex_lock(&wk->lock);
                atomic_store(&wk->sleeping, true);
                while (atomic_load(&wk->go) == seen) pthread_cond_wait(&wk->wake, &wk->lock);
                atomic_store(&wk->sleeping, false);
                pthread_mutex_unlock(&wk->lock);
                round = 0;
            }
        }
        seen = go;
        if (atomic_load_explicit(&wk->quit, memory_order_relaxed)) return NULL;
        sw_fabric *s = wk->s;
        evaluate_tiles(s, &s->lane[1], wk->tile_begin, wk->tile_end, wk->now, wk->next);
        atomic_store_explicit(&wk->done, go, memory_order_release);
    }
}

static void worker_post(sw_worker *wk)
{
    atomic_fetch_add(&wk->go, 1u);
    if (atomic_load(&wk->sleeping)) {
        pthread_mutex_lock(&wk->lock);
        pthread_cond_signal(&wk->wake);
        pthread_mutex_unlock(&wk->lock);
    }
}

static void worker_wait(sw_worker *wk)
{
    const unsigned go = atomic_load_explicit(&wk->go, memory_order_relaxed);
    for (unsigned round = 0; atomic_load_explicit(&wk->done, memory_order_acquire) != go; round++) {
        if (round < SPIN_ROUNDS) cpu_relax();
        else sched_yield();
    }
}

static sw_worker *worker_start(sw_fabric *s)
{
    sw_worker *wk = aligned_alloc(CACHE_LINE, sizeof *wk);
    if (!wk) return NULL;
    memset(wk, 0, sizeof *wk);
    wk->s = s;
    atomic_init(&wk->go, 0u);
    atomic_init(&wk->done, 0u);
    atomic_init(&wk->sleeping, false);
    atomic_init(&wk->quit, false);
    if (pthread_mutex_init(&wk->lock, NULL)) {
        free(wk);
        return NULL;
    }
    if (pthread_cond_init(&wk->wake, NULL)) {
        pthread_mutex_destroy(&wk->lock);
        free(wk);
        return NULL;
    }
    if (pthread_create(&wk->thread, NULL, worker_main, wk)) {
        pthread_cond_destroy(&wk->wake);
        pthread_mutex_destroy(&wk->lock);
        free(wk);
        return NULL;
    }
    return wk;
}

static void worker_stop(sw_worker *wk)
{
    atomic_store(&wk->quit, true);
    worker_post(wk);
    pthread_join(wk->thread, NULL);
    pthread_cond_destroy(&wk->wake);
    pthread_mutex_destroy(&wk->lock);
    free(wk);
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Automatic mode: the way this busy step goes, by sw_choice's turns. A
 * step that is not busy ends the window unmeasured. */
static bool automatic_goes_parallel(sw_fabric *s)
{
    sw_choice *c = &s->choice;
    if (s->evaluated <= WM_SW_PARALLEL_MIN) {
        c->steps = 0;
        return false;
    }
    const unsigned length = c->phase == CHOSEN ? CHOSEN_STEPS : TRIAL_STEPS;
    if (c->steps == length) {
        const double now = wall_seconds();
        const double rate = now > c->started ? (double)c->tiles / (now - c->started) : 0.0;
        if (c->phase == TRY_TWO) c->two_rate = rate;
        if (c->phase == TRY_ONE) c->two_chosen = c->two_rate > rate;
        c->phase = c->phase == TRY_TWO ? TRY_ONE : c->phase == TRY_ONE ? CHOSEN : TRY_TWO;
        c->steps = 0;
    }
    if (c->steps == 0) {
        c->started = wall_seconds();
        c->tiles = 0;
    }
    c->steps++;
    c->tiles += s->evaluated;
    return c->phase == WARM_UP || c->phase == TRY_TWO || (c->phase == CHOSEN && c->two_chosen);
}

static bool step_goes_parallel(sw_fabric *s)
{
    if (s->threads == WM_SW_THREADS_ONE) return false;
    if (s->threads == WM_SW_THREADS_AUTO && !automatic_goes_parallel(s)) return false;
    if (!s->worker && !(s->worker = worker_start(s))) {
        /* No thread to be had: one thread is as exact, only slower. */
        s->threads = WM_SW_THREADS_ONE;
        return false;
    }
    return true;
}

/* The step's set split at the tile with half of its tiles below: the
 * worker takes the upper part, the calling thread the lower one. */
static void step_parallel(sw_fabric *s, unsigned now, unsigned next)
{
    const uint64_t *bits = s->proc.bits;
    const size_t nwords = s->proc.nwords;
    size_t total = 0;
    for (size_t wi = 0; wi < nwords; wi++) total += (size_t)__builtin_popcountll(bits[wi]);
    size_t wi = 0, below = 0;
    while (wi < nwords && 2 * (below + (size_t)__builtin_popcountll(bits[wi])) <= total)
        below += (size_t)__builtin_popcountll(bits[wi++]);
    size_t split = 64 * wi;
    if (wi < nwords)
        for (uint64_t rest = bits[wi]; 2 * below < total; rest &= rest - 1, below++)
            split = 64 * wi + (size_t)__builtin_ctzll(rest) + 1;
    sw_worker *wk = s->worker;
    wk->tile_begin = split;
    wk->tile_end = 64 * nwords;
    wk->now = now;
    wk->next = next;
    worker_post(wk);
    evaluate_tiles(s, &s->lane[0], 0, split, now, next);
    worker_wait(wk);
    s->lane1_used = true;
    s->evaluated = total;
    s->parallel_steps++;
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
    s->en_pending = s->lane[0].en_changed;
    s->nen_pending = s->lane[0].nen_changed;
    s->lane[0].en_changed = done;
    s->lane[0].nen_changed = 0;
}

/* What the lanes found, as one thread would have: lane 1's next-step
 * tiles into the step's set, its counts and enable changes into lane 0's. */
static void merge_lane1(sw_fabric *s)
{
    sw_lane *l0 = &s->lane[0], *l1 = &s->lane[1];
    l0->busy_delta += l1->busy_delta;
    l1->busy_delta = 0;
    l0->halted_delta += l1->halted_delta;
    l0->waiting_delta += l1->waiting_delta;
    l1->halted_delta = l1->waiting_delta = 0;
    memcpy(l0->en_changed + l0->nen_changed, l1->en_changed, l1->nen_changed * sizeof *l1->en_changed);
    l0->nen_changed += l1->nen_changed;
    l1->nen_changed = 0;
}

/* The lanes' records: lane 0 holds the lower tiles, lane 1 the upper
 * ones, each in ascending (y, x, port) order. */
static void report_recorded_links(sw_fabric *s)
{
    wm_link_event ev;
    ev.cycle = s->cycle;
    for (unsigned k = 0; k < LANES; k++) {
        sw_lane *lane = &s->lane[k];
        for (size_t e = 0; e < lane->nevents; e++) {
            ev.x = lane->events[e].x;
            ev.y = lane->events[e].y;
            ev.port = lane->events[e].port;
            ev.data = lane->events[e].data;
            s->hook(s->hook_ctx, &ev);
        }
        lane->nevents = 0;
    }
}

/* The cores' records of the step, lane 0's (the lower tiles) first: (y,
 * x) order, as on one thread. */
static void report_core_events(sw_fabric *s)
{
    for (unsigned k = 0; k < LANES; k++) {
        sw_lane *lane = &s->lane[k];
        for (size_t e = 0; e < lane->ncore_events; e++) s->core_hook(s->core_hook_ctx, &lane->core_events[e]);
        lane->ncore_events = 0;
    }
}

/* Without records (no memory for them): from the evaluated tiles. */
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

/* The ghosts that received mail in the last step (a block's): their mail
 * of the current cycle, which band_edge_out has shown, is emptied for the
 * step after this one to fill, and they leave the set, never evaluated. */
static void drop_ghosts(sw_fabric *s, const tile_set *proc, unsigned now)
{
    for (unsigned side = 0; side < 4; side++) {
        if (!s->edge_en[side]) continue;
        const uint32_t to_ghost = s->step_to[edge_port((wm_band_edge)side)];
        for (uint32_t i = 0; i < s->edge_wires[side]; i++) {
            const uint32_t g = edge_tile(s, (wm_band_edge)side, i) + to_ghost;
            uint64_t *word = &proc->bits[g >> 6];
            const uint64_t bit = 1ull << (g & 63u);
            if (!(*word & bit)) continue;
            *word &= ~bit;
            mail_clear(&s->tiles[g].mail[now]);
        }
    }
}

/* The en_q across a block's edges, as band_edge_in gave it at the cycle
 * this step left: the edge tiles' NE loads it at this step's edge, like
 * any nbr_en_q. A tile whose NE changes is evaluated in the next step. A
 * corner tile takes two sides' bits, one each. */
static void pass_on_edge_enables(sw_fabric *s)
{
    s->edge_en_changed = false;
    for (unsigned side = 0; side < 4; side++) {
        if (!s->edge_en[side]) continue;
        const uint8_t bit = (uint8_t)(1u << edge_port((wm_band_edge)side));
        for (uint32_t i = 0; i < s->edge_wires[side]; i++) {
            const uint32_t idx = edge_tile(s, (wm_band_edge)side, i);
            sw_tile *t = &s->tiles[idx];
            const uint8_t ne = (uint8_t)(s->edge_en[side][i] ? t->ne | bit : t->ne & ~bit);
            if (ne == t->ne) continue;
            t->ne = ne;
            queue_tile(s, idx);
        }
    }
}

static void sw_step(wm_fabric *f)
{
    sw_fabric *s = as_sw(f);
    /* The set to evaluate is lane 0's (and lane 1's, after a parallel
     * step); the emptied set of the last step takes lane 0's place. */
    const tile_set proc = s->lane[0].next;
    s->lane[0].next = s->proc;
    s->proc = proc;
    if (s->lane1_used) {
        uint64_t *other = s->lane[1].next.bits;
        for (size_t wi = 0; wi < proc.nwords; wi++) {
            proc.bits[wi] |= other[wi];
            other[wi] = 0;
        }
        s->lane1_used = false;
    }
    const unsigned now = (unsigned)(s->cycle & 1u), next = now ^ 1u;
    if (s->has_ghosts) drop_ghosts(s, &proc, now);
    if (step_goes_parallel(s)) {
        step_parallel(s, now, next);
        merge_lane1(s);
    } else {
        s->evaluated = evaluate_tiles(s, &s->lane[0], 0, 64 * proc.nwords, now, next);
    }
    s->nbusy = (size_t)((ptrdiff_t)s->nbusy + s->lane[0].busy_delta);
    s->lane[0].busy_delta = 0;
    s->cores_halted = (size_t)((ptrdiff_t)s->cores_halted + s->lane[0].halted_delta);
    s->cores_waiting = (size_t)((ptrdiff_t)s->cores_waiting + s->lane[0].waiting_delta);
    s->lane[0].halted_delta = s->lane[0].waiting_delta = 0;
    if (s->nen_pending || s->lane[0].nen_changed) pass_on_enables(s);
    if (s->edge_en_changed) pass_on_edge_enables(s);
    s->cycle++;
    /* The cycle the cores spent comes before the one the links show. */
    if (s->core_hook) report_core_events(s);
    /* Only evaluated tiles can hold a wavelet in an output register. */
    if (s->hook && s->lane[0].events) report_recorded_links(s);
    else if (s->hook) report_links(s, &proc);
    memset(proc.bits, 0, proc.nwords * sizeof *proc.bits);
}

static uint64_t sw_cycle(const wm_fabric *f) { return as_sw_const(f)->cycle; }

static void sw_pe_push(wm_fabric *f, unsigned x, unsigned y, uint32_t wavelet)
{
    sw_fabric *s = as_sw(f);
    const uint32_t idx = tile_index(s, x, y);
    s->posted[idx] |= POSTED_PUSH;
    s->push_data[idx] = wavelet;
    queue_tile(s, idx);
}

static void sw_pe_pop(wm_fabric *f, unsigned x, unsigned y)
{
    sw_fabric *s = as_sw(f);
    const uint32_t idx = tile_index(s, x, y);
    s->posted[idx] |= POSTED_POP;
    queue_tile(s, idx);
}

static wm_pe_status sw_pe_status(const wm_fabric *f, unsigned x, unsigned y)
{
    const sw_fabric *s = as_sw_const(f);
    const size_t idx = tile_index(s, x, y);
    const sw_tile *t = &s->tiles[idx];
    wm_pe_status st;
    st.tsc = s->tsc_start + s->cycle; /* tsc_start at cycle 0, one count per edge */
    st.rx_head = s->rx_head[idx];
    st.tx_count = s->tx_count[idx];
    st.rx_count = s->rx_count[idx];
    st.status = (uint8_t)(t->errs | (tile_busy(t) ? WM_ST_BUSY : 0u));
    st.err_hdr = s->err_hdr[idx];
    return st;
}

wm_sw_queues wm_fabric_sw_queues(const wm_fabric *f)
{
    const sw_fabric *s = as_sw_const(f);
    return (wm_sw_queues){s->tx_count + s->first, s->rx_count + s->first, s->rx_head + s->first, s->stride};
}

uint64_t wm_fabric_sw_parallel_steps(const wm_fabric *f) { return as_sw_const(f)->parallel_steps; }

static bool sw_quiescent(const wm_fabric *f) { return as_sw_const(f)->nbusy == 0; }

/* A diagnosis, not a per-cycle call: a scan of the mesh, in (y, x) order. */
static size_t sw_in_flight(const wm_fabric *f, wm_flight *out, size_t max)
{
    const sw_fabric *s = as_sw_const(f);
    size_t n = 0;
    /* The block's tiles in (y, x) order; the ghosts among them are never
     * evaluated, so never busy. */
    for (size_t k = s->first; k < s->sentinel && s->nbusy; k++) {
        const sw_tile *t = &s->tiles[k];
        if (!tile_busy(t)) continue;
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
        if (s->tx_count[k]) {
            place.place = WM_AT_TX;
            place.port = WM_PORT_L;
            place.count = s->tx_count[k];
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
    sw_fabric *s = as_sw(f);
    s->hook = hook;
    s->hook_ctx = ctx;
    /* Room for every output register of every tile, in either lane;
     * without a hook, nothing records. */
    if (!hook) {
        for (unsigned k = 0; k < LANES; k++) {
            free(s->lane[k].events);
            s->lane[k].events = NULL;
            s->lane[k].nevents = 0;
        }
    }
    for (unsigned k = 0; k < LANES && hook; k++) {
        if (!s->lane[k].events) s->lane[k].events = malloc(s->ntiles * WM_NPORTS * sizeof(sw_event));
        if (!s->lane[k].events) {
            for (unsigned j = 0; j < LANES; j++) {
                free(s->lane[j].events);
                s->lane[j].events = NULL;
            }
            break;
        }
    }
}

/* The tile's core, or NULL: with a message when the fabric has no cores
 * or (make) there is no memory for it; silently when it was never made. */
static sw_core *core_of(const sw_fabric *s, unsigned x, unsigned y, const char *what, bool make)
{
    if (!s->cores) {
        fprintf(stderr, "wavemesh: %s on a sw fabric made without cores (create_cores makes them)\n", what);
        return NULL;
    }
    const size_t idx = tile_index(s, x, y);
    return make ? wm_sw_cores_get(s->cores, idx) : s->cores->tile[idx];
}

static void sw_load_core(wm_fabric *f, unsigned x, unsigned y, uint32_t addr, const void *bytes, size_t n)
{
    if (!wm_sw_core_range_ok(addr, n, "core_load", x, y)) return;
    sw_fabric *s = as_sw(f);
    sw_core *c = core_of(s, x, y, "core_load", true);
    if (c && n) wm_sw_core_load(s->cores, c, addr, bytes, n);
}

/* A core never made has its RAM as created: zero. */
static void sw_read_core(const wm_fabric *f, unsigned x, unsigned y, uint32_t addr, void *bytes, size_t n)
{
    if (!wm_sw_core_range_ok(addr, n, "core_read", x, y)) return;
    const sw_core *c = core_of(as_sw_const(f), x, y, "core_read", false);
    if (c) wm_sw_core_read(c, addr, bytes, n);
    else memset(bytes, 0, n);
}

/* The next step simulates the core's cycle 0; its tile is evaluated from
 * then on (wm_sw_core_wants_next). Starting a started core resets it. */
static void sw_start_core(wm_fabric *f, unsigned x, unsigned y)
{
    sw_fabric *s = as_sw(f);
    sw_core *c = core_of(s, x, y, "core_start", true);
    if (!c) return;
    const bool restart = c->started;
    if (restart) {
        s->cores_halted -= wm_iss_halted(&c->iss);
        s->cores_waiting -= wm_iss_waiting(&c->iss) != WM_ISS_WAIT_NONE;
    }
    /* A started core has left reset: as in the RTL, it is held in reset
     * for the next step, and the step after is its cycle 0. */
    wm_sw_core_start(s->cores, c, s->cycle + (restart ? 1u : 0u));
    if (s->perturb.kind == WM_SW_CORE && tile_index(s, x, y) == s->perturb_tile) c->iss.perturb = (uint8_t)s->perturb.port;
    queue_tile(s, tile_index(s, x, y));
}

static void sw_core_census(const wm_fabric *f, size_t *halted, size_t *waiting)
{
    *halted = as_sw_const(f)->cores_halted;
    *waiting = as_sw_const(f)->cores_waiting;
}

static wm_core_status sw_status_core(const wm_fabric *f, unsigned x, unsigned y)
{
    const sw_fabric *s = as_sw_const(f);
    return wm_sw_core_status(s->cores ? s->cores->tile[tile_index(s, x, y)] : NULL, s->cycle);
}

void wm_fabric_sw_core_view(const wm_fabric *f, unsigned x, unsigned y, wm_sw_core_view *out)
{
    const sw_fabric *s = as_sw_const(f);
    wm_sw_core_fill_view(s->cores ? s->cores->tile[tile_index(s, x, y)] : NULL, s->cycle, out);
}

/* Room for an event of every tile in either lane; without a hook,
 * nothing records. */
static void sw_set_core_hook(wm_fabric *f, wm_core_hook hook, void *ctx)
{
    sw_fabric *s = as_sw(f);
    for (unsigned k = 0; k < LANES && hook; k++) {
        if (!s->lane[k].core_events)
            s->lane[k].core_events = malloc(s->ntiles * sizeof *s->lane[k].core_events);
        if (!s->lane[k].core_events) {
            fprintf(stderr, "wavemesh: out of memory for the core events of a %ux%u sw fabric\n", s->w, s->h);
            hook = NULL;
        }
    }
    if (!hook) {
        for (unsigned k = 0; k < LANES; k++) {
            free(s->lane[k].core_events);
            s->lane[k].core_events = NULL;
            s->lane[k].ncore_events = 0;
        }
    }
    s->core_hook = hook;
    s->core_hook_ctx = hook ? ctx : NULL;
}

static wm_core_hook sw_get_core_hook(const wm_fabric *f, void **ctx)
{
    *ctx = as_sw_const(f)->core_hook_ctx;
    return as_sw_const(f)->core_hook;
}

static void sw_core_regs(const wm_fabric *f, unsigned x, unsigned y, uint32_t regs[32])
{
    const sw_fabric *s = as_sw_const(f);
    const sw_core *c = s->cores ? s->cores->tile[tile_index(s, x, y)] : NULL;
    for (unsigned r = 0; r < 32; r++) regs[r] = c ? wm_iss_reg(&c->iss, r) : 0;
}

static void sw_core_set_reg(wm_fabric *f, unsigned x, unsigned y, unsigned r, uint32_t value)
{
    sw_core *c = core_of(as_sw(f), x, y, "core_set_reg", true);
    if (c && r > 0 && r < 32) c->iss.x[r] = value;
}

/* What each allocation holds, as allocated (those written as the run
 * goes, the event records, count whole); the worker thread's few hundred
 * bytes, there or not as the load decides, fall in the caller's rest. */
static void sw_memory(const wm_fabric *f, wm_fabric_memory *out)
{
    const sw_fabric *s = as_sw_const(f);
    const size_t n = (size_t)s->sentinel + 1; /* the tiles, the ghosts and the sentinel */
    const size_t nt = s->ntiles;
    const sw_tile *t = s->tiles;
    memset(out, 0, sizeof *out);
    const size_t tile_queues = sizeof t->tx + sizeof t->rx + sizeof t->tx_rd + sizeof t->rx_rd;
    out->queues = n * (tile_queues + sizeof *s->tx_count + sizeof *s->rx_count + sizeof *s->rx_head +
                       sizeof *s->posted + sizeof *s->push_data);
    out->routers = n * (sizeof *t - tile_queues + sizeof *s->err_hdr);
    out->fabric = sizeof *s + nt * sizeof *s->en_pending + s->proc.nwords * sizeof *s->proc.bits;
    for (unsigned side = 0; side < 4; side++)
        if (s->edge_en[side]) out->fabric += s->edge_wires[side] * sizeof *s->edge_en[side];
    for (unsigned k = 0; k < LANES; k++) {
        const sw_lane *l = &s->lane[k];
        out->fabric += l->next.nwords * sizeof *l->next.bits + nt * sizeof *l->en_changed;
        if (l->events) out->fabric += nt * WM_NPORTS * sizeof *l->events;
        if (l->core_events) out->fabric += nt * sizeof *l->core_events;
    }
    if (!s->cores) return;
    wm_sw_cores_use u;
    wm_sw_cores_usage(s->cores, &u);
    out->cores = u.core_bytes;
    out->ram_own = u.pages.own * WM_ISS_PAGE_BYTES;
    out->ram_shared = u.pages.shared * WM_ISS_PAGE_BYTES;
    out->ram_spare = u.pages.free * WM_ISS_PAGE_BYTES + u.pages.overhead;
}

/* The hold takes effect from the next step (core_cycle); released, the
 * core's tile is evaluated in it, whether the core sleeps or not. */
static void sw_core_hold(wm_fabric *f, unsigned x, unsigned y, bool hold)
{
    sw_fabric *s = as_sw(f);
    sw_core *c = core_of(s, x, y, "core_hold", true);
    if (!c) return;
    c->held = hold;
    if (!hold) queue_tile(s, tile_index(s, x, y));
}

/* The edge tiles' outputs facing side, as the ghosts there received them
 * at the last step; nothing but en_q at the mesh's edge. */
static void sw_band_edge_out(const wm_fabric *f, wm_band_edge side, wm_edge_wire *wires)
{
    const sw_fabric *s = as_sw_const(f);
    const unsigned p = edge_port(side), facing = p ^ 2u; /* the ghost's port facing the block */
    for (uint32_t i = 0; i < s->edge_wires[side]; i++) {
        const uint32_t idx = edge_tile(s, side, i);
        wires[i] = (wm_edge_wire){.en = s->tiles[idx].en_q};
        if (!s->edge_en[side]) continue;
        const sw_mail *m = &s->tiles[idx + s->step_to[p]].mail[s->cycle & 1u];
        wires[i].valid = m->lv[facing] != 0;
        wires[i].data = m->lv[facing] ? m->ld[facing] : 0;
        wires[i].credit = m->ci[facing];
    }
}

/* The block across, into the edge tiles' mail of the current cycle, where
 * the neighbour's evaluation would have put it; a tile that receives a
 * wavelet or a credit is evaluated in the next step. */
static void sw_band_edge_in(wm_fabric *f, wm_band_edge side, const wm_edge_wire *wires)
{
    sw_fabric *s = as_sw(f);
    if (!s->edge_en[side]) return; /* the mesh's edge: tied to 0 */
    const unsigned p = edge_port(side);
    const unsigned now = (unsigned)(s->cycle & 1u);
    for (uint32_t i = 0; i < s->edge_wires[side]; i++) {
        const uint32_t idx = edge_tile(s, side, i);
        sw_mail *m = &s->tiles[idx].mail[now];
        m->lv[p] = (uint8_t)(wires[i].valid ? 1u << p : 0u);
        m->ld[p] = wires[i].data;
        m->ci[p] = wires[i].credit ? 1 : 0;
        if (wires[i].valid || wires[i].credit) queue_tile(s, idx);
        const uint8_t en = wires[i].en != 0;
        if (en == s->edge_en[side][i]) continue;
        s->edge_en[side][i] = en;
        s->edge_en_changed = true;
    }
}

static wm_link_hook sw_get_link_hook(const wm_fabric *f, void **ctx)
{
    *ctx = as_sw_const(f)->hook_ctx;
    return as_sw_const(f)->hook;
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
    .create_cores = sw_create_cores,
    .core_load = sw_load_core,
    .core_read = sw_read_core,
    .core_start = sw_start_core,
    .core_status = sw_status_core,
    .set_core_hook = sw_set_core_hook,
    .core_census = sw_core_census,
    .get_core_hook = sw_get_core_hook,
    .create_with = sw_create_with,
    .core_regs = sw_core_regs,
    .core_set_reg = sw_core_set_reg,
    .get_link_hook = sw_get_link_hook,
    .memory = sw_memory,
    .core_hold = sw_core_hold,
    .band_edge_out = sw_band_edge_out,
    .band_edge_in = sw_band_edge_in,
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
    } else if (sscanf(text, "core-sltu:%u,%u%c", &x, &y, &extra) == 2) {
        p.kind = WM_SW_CORE;
        p.port = WM_ISS_PERTURB_SLTU_AS_SLT;
    } else if (sscanf(text, "core-div33:%u,%u%c", &x, &y, &extra) == 2) {
        p.kind = WM_SW_CORE;
        p.port = WM_ISS_PERTURB_DIV_33;
    } else if (sscanf(text, "core-rx-late:%u,%u%c", &x, &y, &extra) == 2) {
        p.kind = WM_SW_CORE;
        p.port = WM_ISS_PERTURB_RX_POP_LATE;
    } else {
        snprintf(err, err_size,
                 "perturbation '%s' is not rr-reverse:X,Y, late-grant:X,Y,PORT (PORT N/E/S/W/L), core-sltu:X,Y, "
                 "core-div33:X,Y or core-rx-late:X,Y",
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
    const uint32_t idx = tile_index(s, x, y);
    const sw_tile *t = &s->tiles[idx];
    out->out_valid = t->ov;
    /* The pulses sent at the last edge wait in the neighbours' (or the
     * ghosts') mailboxes. */
    out->credit = 0;
    for (unsigned p = 0; p < 4; p++) {
        const uint32_t n = link_partner(s, idx, p);
        if (n != s->sentinel && s->tiles[n].mail[s->cycle & 1u].ci[p ^ 2u])
            out->credit |= (uint8_t)(1u << p);
    }
    for (unsigned p = 0; p < WM_NPORTS; p++) {
        out->out_data[p] = t->od[p];
        out->owner[p] = (t->own_valid >> p) & 1u ? t->own_idx[p] : 7u;
    }
    for (unsigned p = 0; p < 4; p++) out->in_count[p] = t->in_cnt[p];
    out->tx_count = s->tx_count[idx];
    out->rx_count = s->rx_count[idx];
    out->status = (uint8_t)(t->errs | (tile_busy(t) ? WM_ST_BUSY : 0u));
    out->err_hdr = s->err_hdr[idx];
    out->en = t->en_q;
}
