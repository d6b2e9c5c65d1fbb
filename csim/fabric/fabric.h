/* fabric.h: the one interface to a simulated fabric, whatever simulates it.
 *
 * A backend is a const table of operations (wm_fabric_ops). The rtl backend
 * drives the Verilated wm_tile W x H times, wired in C between clock edges;
 * the sw backend is a pure-C model of the same tile. Everything above this
 * header — the scheduler, the firmware, the tools — runs unchanged on
 * either, and both must agree cycle for cycle (docs/fabric.md).
 *
 * Time: create() leaves the fabric at cycle 0, just after reset. Between two
 * steps the caller reads PE status (wm_pe_status reflects the state at the
 * current cycle) and posts at most one push and one pop per PE; step() then
 * applies one clock edge, consumes the posted accesses, advances the cycle
 * and reports, through the link hook, every wavelet standing in an output
 * register at the new cycle.
 *
 * Shared across the C/C++ boundary (the rtl shim is C++), hence the guards.
 */
#ifndef WM_FABRIC_H
#define WM_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core_port.h" /* the PE core's cycle record and halt */
#include "core/must_use.h"
#include "wavelet.h"          /* the header format, shared with the firmware */

#ifdef __cplusplus
extern "C" {
#endif

/* Sizes of the tile; rtl/wm_tile.v has the same defaults. A build at
 * other depths (make test-params, mk/params.mk) sets WM_PARAM_IN_DEPTH,
 * WM_PARAM_TX_DEPTH and WM_PARAM_RX_DEPTH (core/core_port.h), and the
 * Verilated models at the same values. */
enum {
    WM_IN_DEPTH      = WM_PARAM_IN_DEPTH,  /* router input buffer per link, wavelets (3..8) */
    WM_TX_DEPTH      = WM_PARAM_TX_DEPTH,  /* PE TX queue (the router's ramp input), 1..15 */
    WM_RX_DEPTH      = WM_PARAM_RX_DEPTH   /* PE RX queue, 1..15 */
};

/* Router ports, in the order the RTL numbers them. */
typedef enum {
    WM_PORT_N = 0,
    WM_PORT_E = 1,
    WM_PORT_S = 2,
    WM_PORT_W = 3,
    WM_PORT_L = 4, /* the ramp: towards the PE's RX queue */
    WM_NPORTS = 5
} wm_port;


/* Status bits of a PE (rtl wm_tile.pe_status_o). */
enum {
    WM_ST_BUSY        = 1u << 0, /* wavelets in flight in this tile */
    WM_ST_ERR_TX_FULL = 1u << 1, /* sticky: a push was refused (TX full) */
    WM_ST_ERR_RX_EMPTY= 1u << 2, /* sticky: a pop was refused (RX empty) */
    WM_ST_ERR_OFFMESH = 1u << 3  /* sticky: an off-mesh message was discarded */
};

/* What the firmware port of one PE shows at the current cycle. */
typedef struct {
    uint64_t tsc;      /* free-running cycle counter */
    uint32_t rx_head;  /* the wavelet a pop in this cycle takes (if rx_count) */
    uint8_t  tx_count; /* wavelets in the TX queue, 0..WM_TX_DEPTH */
    uint8_t  rx_count; /* wavelets in the RX queue, 0..WM_RX_DEPTH */
    uint8_t  status;   /* WM_ST_* */
    uint32_t err_hdr;  /* first off-mesh header discarded here */
} wm_pe_status;

/* One wavelet in one output register of one tile, at one cycle. Port L is
 * the register in front of the PE's RX queue. */
typedef struct {
    uint64_t cycle;
    uint16_t x, y;
    uint8_t  port; /* wm_port */
    uint32_t data;
} wm_link_event;

typedef void (*wm_link_hook)(void *ctx, const wm_link_event *ev);

/* Where wavelets are in flight: one entry per non-empty place. */
typedef enum {
    WM_AT_INPUT  = 0, /* a router input buffer, port N/E/S/W */
    WM_AT_TX     = 1, /* the PE's TX queue (router ramp input) */
    WM_AT_OUTPUT = 2  /* an output register, port N/E/S/W/L */
} wm_place;

typedef struct {
    uint16_t x, y;
    uint8_t  place; /* wm_place */
    uint8_t  port;  /* wm_port (for INPUT and OUTPUT) */
    uint8_t  count; /* wavelets there */
    uint32_t head;  /* the oldest of them */
} wm_flight;

typedef struct wm_fabric wm_fabric;

/* What one PE core did in one cycle (fabric made by create_cores). cycle
 * is the cycle the core spent (the fabric's cycle() before the step that
 * simulated it); reported only for cycles that retired an instruction or
 * pushed or popped a wavelet. */
typedef struct {
    uint64_t cycle;
    uint16_t x, y;
    wm_core_cycle what;
    uint32_t pop_data; /* with what.pop: the wavelet popped (the RX head in that cycle); else 0 */
} wm_core_event;

typedef void (*wm_core_hook)(void *ctx, const wm_core_event *ev);

/* One PE core as the host sees it between two steps. */
typedef struct {
    bool started;          /* core_start was called and a step has run since */
    bool waiting;          /* in the cycle just simulated, its instruction in X stalled on the
                              TX or RX queue (and tries again in the next) */
    uint32_t pc;           /* the instruction in X in the next cycle (frozen at a halt) */
    uint64_t retired;      /* instructions retired since it started */
    wm_core_halt halt;     /* RUNNING, or why it stopped */
} wm_core_status;

/* The sw backend's deliberate bugs (fabric_sw.h): a test instrument that
 * proves the regression can fail, never a mode of use. */
typedef enum {
    WM_SW_EXACT = 0,     /* the model as specified */
    WM_SW_RR_REVERSE,    /* tile (x, y): every arbiter scans RR, RR-1, ... instead of RR, RR+1, ... */
    WM_SW_LATE_GRANT,    /* tile (x, y), output port: a header is granted one cycle after it could be */
    WM_SW_CORE           /* tile (x, y)'s core: its instruction-set simulator has bug `port` (wm_iss_perturb) */
} wm_sw_perturbation_kind;

typedef struct {
    wm_sw_perturbation_kind kind;
    unsigned x, y;
    unsigned port; /* wm_port, for WM_SW_LATE_GRANT; wm_iss_perturb, for WM_SW_CORE */
} wm_sw_perturbation;

/* How the sw backend spreads a step over threads (fabric_sw.h). */
typedef enum {
    WM_SW_THREADS_ENV = 0,  /* the default: as the environment variable WM_SW_THREADS says (0: automatic,
                               1: one, 2: two; automatic when unset); creation fails with a message on any
                               other value */
    WM_SW_THREADS_AUTO = 1, /* automatic */
    WM_SW_THREADS_ONE = 2,  /* every step on the calling thread */
    WM_SW_THREADS_TWO = 3   /* every step on two threads, whatever the load (to test the threaded path) */
} wm_sw_threads;

/* An RTL assertion failed in the edge that led to cycle. */
typedef void (*wm_fabric_assertion_fn)(void *ctx, uint64_t cycle);

/* A block of a mesh (docs/fabric.md, "Blocks"): rows [row_begin, row_end) x
 * columns [col_begin, col_end) of the W x H mesh; row_end == 0 means every
 * row, col_end == 0 every column (zeroed: the whole mesh, the default). A
 * band of rows is a block of every column. */
typedef struct { unsigned row_begin, row_end, col_begin, col_end; } wm_fabric_band;

/* What a block's edge tile shows the block across the boundary, one entry
 * per tile along the edge: the output register facing it, the credit
 * pulse for our input buffer facing it, and en_q. */
typedef struct {
    uint32_t data;
    uint8_t valid;
    uint8_t credit;
    uint8_t en;
} wm_edge_wire;

/* A block's sides. NORTH and SOUTH carry col_end - col_begin wires, wire i
 * at column col_begin + i; EAST and WEST row_end - row_begin wires, wire i
 * at row row_begin + i. */
typedef enum { WM_EDGE_NORTH = 0, WM_EDGE_SOUTH = 1, WM_EDGE_EAST = 2, WM_EDGE_WEST = 3 } wm_band_edge;

/* How a backend makes a fabric, beyond its size: passed to create_with,
 * kept by the fabric for its life. Zeroed (or NULL) is the default, what
 * create and create_cores make. Each backend reads its own fields. */
typedef struct wm_fabric_config {
    wm_sw_threads threads;              /* sw */
    wm_sw_perturbation perturbation;    /* sw; WM_SW_EXACT: none */
    /* rtl: called once per fabric, after the edge in which an RTL
     * assertion failed (the simulator's message is on stdout). NULL: a
     * line on stderr. Either way the fabric remembers the cycle
     * (wm_fabric_rtl_assertion) and goes on stepping: stopping the run is
     * the caller's choice (csim/waves/interrupt.h). */
    wm_fabric_assertion_fn on_assertion;
    void *on_assertion_ctx;
    /* rtl, sw: every PE's tsc at cycle 0 (wm_pe's tsc_init_i), then one
     * count per edge as always; 0 in use, a test's start near a carry of
     * the 64-bit counter (tests/test_tsc_carry.c). rtl-mesh refuses any
     * other value than 0. */
    uint64_t tsc_start;
    /* rtl, sw: the block of the mesh this fabric holds (docs/fabric.md,
     * "Blocks"); zeroed: all of it. A fabric of a block takes global
     * coordinates everywhere and holds, reports and accepts calls for the
     * tiles of its block only (a call for a tile outside it is a
     * programming error, asserted). */
    wm_fabric_band band;
} wm_fabric_config;

/* Where a fabric's memory goes, in bytes (memory member of the ops). */
typedef struct {
    size_t routers;    /* the routers' state: link buffers, output registers, arbitration, mailboxes */
    size_t queues;     /* the PEs' TX and RX queues, their counts and posted accesses */
    size_t fabric;     /* the rest of the fabric's own: active sets, event records, the fabric itself */
    size_t cores;      /* the cores' state, for the cores made: the instruction-set simulator's */
    size_t ram_own;    /* the cores' RAM pages each written by one core */
    size_t ram_shared; /* RAM pages read alike by several cores (the image), each counted once */
    size_t ram_spare;  /* RAM pages made and free again, and the pages' bookkeeping */
} wm_fabric_memory;

typedef struct wm_fabric_ops {
    const char *name; /* "rtl" or "sw" */
    /* A W x H mesh (1..WM_MESH_MAX each), every router enabled, at cycle 0.
     * NULL with a message on stderr if it cannot be made. */
    wm_fabric *(*create)(unsigned w, unsigned h);
    void (*destroy)(wm_fabric *f);
    /* The message-passing region: takes effect from the next step on. */
    void (*set_enable)(wm_fabric *f, unsigned x, unsigned y, bool on);
    /* One clock edge. */
    void (*step)(wm_fabric *f);
    uint64_t (*cycle)(const wm_fabric *f);
    /* Post this cycle's accesses of PE (x, y); consumed by the next step.
     * A push needs tx_count < WM_TX_DEPTH and a pop rx_count > 0, else the
     * access is refused and the sticky error bit is set, as in hardware. */
    void (*pe_push)(wm_fabric *f, unsigned x, unsigned y, uint32_t wavelet);
    void (*pe_pop)(wm_fabric *f, unsigned x, unsigned y);
    wm_pe_status (*pe_status)(const wm_fabric *f, unsigned x, unsigned y);
    /* True when no wavelet is anywhere in flight (RX queues excepted). */
    bool (*quiescent)(const wm_fabric *f);
    /* Fill up to max entries of where wavelets are; returns how many places
     * hold wavelets (may exceed max). */
    size_t (*in_flight)(const wm_fabric *f, wm_flight *out, size_t max);
    /* Called from step() for every wavelet in an output register; NULL off. */
    void (*set_link_hook)(wm_fabric *f, wm_link_hook hook, void *ctx);

    /* PE cores (docs/core.md). create_cores makes a fabric whose every tile
     * also has the RV32IM core and a RAM of WM_TILE_MEM_BYTES, the core
     * driving the PE's firmware port (pe_push and pe_pop are not used).
     * Every core is held in reset with a zeroed RAM until core_start; the
     * step after core_start is the core's cycle 0. core_start on a core
     * already started restarts it: the core (not its RAM) is in reset in
     * the next step, and the step after that is its cycle 0. NULL members: a backend
     * without cores. (rtl-mesh has them at its own fixed size, the 4x2 of
     * the tworow placement, not its bare mesh's.) */
    wm_fabric *(*create_cores)(unsigned w, unsigned h);
    /* Write or read n bytes of tile (x, y)'s RAM at addr (addr + n within
     * the RAM). Loads happen before core_start; reads at any time. */
    void (*core_load)(wm_fabric *f, unsigned x, unsigned y, uint32_t addr, const void *bytes, size_t n);
    void (*core_read)(const wm_fabric *f, unsigned x, unsigned y, uint32_t addr, void *bytes, size_t n);
    void (*core_start)(wm_fabric *f, unsigned x, unsigned y);
    wm_core_status (*core_status)(const wm_fabric *f, unsigned x, unsigned y);
    /* Called from step() for every started core's eventful cycle; NULL off. */
    void (*set_core_hook)(wm_fabric *f, wm_core_hook hook, void *ctx);
    /* How many started cores have halted, and how many of the others are
     * waiting (core_status.waiting), without a call per core: a driver
     * watching a thousand cores looks at each only when these change. */
    void (*core_census)(const wm_fabric *f, size_t *halted, size_t *waiting);
    /* The core hook set last and its context (NULL: none), so that a second
     * observer can set its own and pass every event on to the first. */
    wm_core_hook (*get_core_hook)(const wm_fabric *f, void **ctx);

    /* create (cores false) or create_cores (cores true) with a config;
     * NULL config: the default. */
    wm_fabric *(*create_with)(unsigned w, unsigned h, bool cores, const wm_fabric_config *cfg);
    /* The config wm_fabric_create passes: NULL in the backends' own tables.
     * A caller that hands a configured backend down to code that creates
     * fabrics (a perturbed sw model to the regression) passes a copy of
     * the table with this set: the setting travels with the backend, and
     * nothing in the process changes for anyone else. */
    const wm_fabric_config *config;

    /* A debugger's view of PE core (x, y) between two steps (csim/debug/):
     * its 32 registers as the instructions retired so far left them (x0
     * reads 0), and one of x1..x31 written. A core never started reads as
     * reset. NULL members: a backend that cannot show them. */
    void (*core_regs)(const wm_fabric *f, unsigned x, unsigned y, uint32_t regs[32]);
    void (*core_set_reg)(wm_fabric *f, unsigned x, unsigned y, unsigned r, uint32_t value);
    /* The link hook set last and its context (NULL: none), so that a
     * second observer can pass every event on to the first. */
    wm_link_hook (*get_link_hook)(const wm_fabric *f, void **ctx);
    /* What the fabric holds now (docs/core.md, "Where a PE's bytes go");
     * NULL: a backend that cannot tell (the Verilated ones). */
    void (*memory)(const wm_fabric *f, wm_fabric_memory *out);
    /* A debugger's hold on PE core (x, y) (csim/debug/): from the next step
     * on, while held, the core spends no cycle: nothing in it changes,
     * nothing retires, nothing is pushed or popped, while its tile, its
     * queues, its tsc and the rest of the fabric run on. Released, it goes
     * on from where it stood, as many cycles later as it was held (the
     * RTL core's hold_i, rtl/core/wm_core.v). NULL: a backend that cannot
     * hold one core. */
    void (*core_hold)(wm_fabric *f, unsigned x, unsigned y, bool hold);
    /* A fabric of a block (config.band): what its edge tiles on side face
     * out with at the current cycle, one wire a tile along that side
     * (wm_band_edge): NORTH, row row_begin's north outputs; SOUTH, row
     * row_end-1's south ones; EAST, column col_end-1's east ones; WEST,
     * column col_begin's west ones. Valid after create and after every
     * step. data is 0 where valid is 0; on a side that is the mesh's edge,
     * valid and credit are 0. NULL members: a backend without blocks
     * (rtl-mesh). */
    void (*band_edge_out)(const wm_fabric *f, wm_band_edge side, wm_edge_wire *wires);
    /* What the block across side shows this block at the current cycle
     * (its band_edge_out of the facing side), as many wires as
     * band_edge_out of side; read by the next step as the inputs of the
     * edge tiles' side. Not called on a side that is the mesh's edge
     * (there the inputs are tied to 0, as in a whole mesh; a call there is
     * ignored). valid and credit are pulses: a step not preceded by a
     * call reads them 0; en holds its last value. Before the first call
     * all are 0. */
    void (*band_edge_in)(wm_fabric *f, wm_band_edge side, const wm_edge_wire *wires);
} wm_fabric_ops;

extern const wm_fabric_ops wm_fabric_rtl;
extern const wm_fabric_ops wm_fabric_sw;
/* The Verilated rtl/mesh.v, one small fixed size (another with cores):
 * for cross-checks only. */
extern const wm_fabric_ops wm_fabric_rtl_mesh;

/* The backend called name ("rtl", "sw" or "rtl-mesh"), or NULL. */
const wm_fabric_ops *wm_fabric_backend(const char *name);

/* A W x H fabric of backend ops, with cores or without, made with cfg, or
 * with ops->config when cfg is NULL. NULL with a message on stderr if it
 * cannot be made. */
WM_MUST_USE wm_fabric *wm_fabric_create(const wm_fabric_ops *ops, unsigned w, unsigned h, bool cores,
                                                    const wm_fabric_config *cfg);

/* ops is the backend called name, configured or not (a copy of the
 * table compares unequal to the table). */
bool wm_fabric_is(const wm_fabric_ops *ops, const char *name);

#ifdef __cplusplus
}
#endif

#endif
