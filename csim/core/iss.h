/* iss.h: the cycle-exact instruction-set simulator of the PE core.
 *
 * The C model of wm_core (docs/core.md): RV32IM, a two-stage F/X pipeline
 * and its exact cycle counts, the register window of the PE datapath with
 * its TX/RX stalls, the faults. Stepped one clock cycle at a time through
 * core_port.h, exactly like the Verilated core (core_rtl.h), so the two can
 * run in lockstep and every cycle's record compared.
 *
 * The state is a plain struct (no allocation: a fabric model holds one per
 * tile) pointing at the PE's RAM, little-endian bytes owned by the caller
 * and read and written in place: one array (wm_iss_init), or pages of
 * 4 KiB each wherever the caller keeps them (wm_iss_ram), so that a fabric
 * of thousands of cores holds one copy of the pages they all read alike
 * and only the pages each one writes of its own (core/page_store.h).
 *
 * Timing, as the RTL has it (docs/core.md, "Pipeline and cycles"):
 *   cycle 0           F fetches address 0, nothing in X;
 *   cycle 1           the first instruction is in X;
 *   an instruction occupies X for its class's cycles (ALU/FENCE/untaken
 *   branch/store 1, taken branch/JAL/JALR/load 2, MUL* DIV* REM* 34, plus
 *   one per cycle a TX store finds TX full or an RX load finds RX empty);
 *   it retires (wm_core_cycle.retire, and its register write) in its last X
 *   cycle, and the next instruction is in X in the cycle after.
 * A register-window access happens in the instruction's first X cycle
 * that can do it: a load's pop, or TSC_LO's latch, in its first cycle (the
 * write-back one cycle later), a TX store's push in the cycle it retires.
 * A RAM store to the word right after it is not seen by that instruction
 * (F read it in the store's cycle): the old word executes.
 * Faults are raised in the instruction's first X cycle, which is its last;
 * when several apply: fetch (3), illegal (1), misaligned jump (2), then for
 * loads and stores misaligned (4), outside (5), unmapped register (6).
 *
 * Plain C11. */
#ifndef WM_ISS_H
#define WM_ISS_H

#include "core_port.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A deliberate bug, for the tests to show that the differential test
 * catches a wrong simulator. Off (NONE) unless a test sets it. */
typedef enum {
    WM_ISS_PERTURB_NONE = 0,
    WM_ISS_PERTURB_SLTU_AS_SLT,   /* SLTU compares signed */
    WM_ISS_PERTURB_DIV_33,        /* DIV/REM* take 33 cycles, not 34 */
    WM_ISS_PERTURB_RX_POP_LATE,   /* an RX load pops in its second cycle, not its first */
    WM_ISS_PERTURB_RAM_LOAD_3     /* a load from the RAM takes 3 cycles, not 2 */
} wm_iss_perturb;

/* What the instruction in X is waiting for (wm_iss_waiting). */
typedef enum {
    WM_ISS_WAIT_NONE = 0,
    WM_ISS_WAIT_RX,     /* an RX load found rx_count == 0: retries every cycle until it is not */
    WM_ISS_WAIT_TX      /* a TX store found tx_count == TX_DEPTH: retries until there is room */
} wm_iss_wait;

/* The RAM in pages: the page size is the host's, so the pages a run
 * touches are the pages it keeps resident. */
enum {
    WM_ISS_PAGE_SHIFT = 12,
    WM_ISS_PAGE_BYTES = 1 << WM_ISS_PAGE_SHIFT,
    WM_ISS_PAGES = WM_TILE_MEM_BYTES / WM_ISS_PAGE_BYTES /* the largest RAM: the tile's */
};

typedef struct wm_iss_ram wm_iss_ram;

/* The RAM as the core reaches it. Fetches and loads read page p at rd[p];
 * stores write it at wr[p]. A NULL wr[p] is a page the core reads but
 * does not own (a page of zeros, or one shared with other cores): the
 * first store into it calls own(), which gives the core a copy of its own,
 * points rd[p] and wr[p] at it and returns it. Pages at and past `bytes`
 * are never reached (a fault). */
struct wm_iss_ram {
    const uint8_t *rd[WM_ISS_PAGES];
    uint8_t *wr[WM_ISS_PAGES];
    uint32_t bytes; /* a multiple of 4, at most WM_TILE_MEM_BYTES */
    uint8_t *(*own)(void *ctx, wm_iss_ram *ram, unsigned page);
    void *own_ctx;
};

/* Where the core is in its pipeline (internal; public for the struct). */
enum { WM_ISS_X_EMPTY = 0, WM_ISS_X_NEW, WM_ISS_X_BUSY, WM_ISS_X_WAIT_RX, WM_ISS_X_WAIT_TX, WM_ISS_X_HALTED };

typedef struct wm_iss {
    uint32_t x[32];           /* x[0] stays 0 */
    uint32_t pc;              /* the instruction in X, or the next to enter it */
    uint64_t cycle;           /* the cycle the next step simulates */
    uint64_t retired;         /* instructions retired */
    uint32_t tsc_hi;          /* latched by the last TSC_LO read */
    uint8_t xstate;           /* WM_ISS_X_* */
    uint8_t wb_rd;            /* the multi-cycle instruction's destination (0: none) */
    uint8_t perturb;          /* wm_iss_perturb */
    uint8_t pop_late;         /* PERTURB_RX_POP_LATE: pop in the coming cycle */
    uint32_t busy;            /* X cycles left after the current one */
    uint32_t cur_insn;        /* the instruction occupying X over several cycles */
    uint32_t next_pc;         /* where it goes when it retires */
    uint32_t wb_val;          /* what it writes to wb_rd when it retires */
    uint32_t tx_data;         /* WAIT_TX: the value to push */
    /* A RAM store overwrote the word F fetched in the same cycle (the next
     * instruction): the fetched, older word is what executes. */
    bool fetch_stale;
    uint32_t fetch_stale_insn;
    wm_core_halt halt;
    wm_iss_ram ram;           /* the RAM; the caller's */
} wm_iss;

/* Reset: registers 0, PC 0, the next step is cycle 0; the RAM is the
 * array mem of mem_bytes (at most WM_TILE_MEM_BYTES, rounded down to a
 * multiple of 4, the RAM's words), read and written in place. mem is not
 * touched. */
void wm_iss_init(wm_iss *c, uint8_t *mem, uint32_t mem_bytes);
/* Reset, the RAM kept as c->ram has it (a paged RAM the caller set up,
 * core/page_store.h). */
void wm_iss_reset(wm_iss *c);
/* Exactly one clock cycle with the PE datapath as `in` shows it; `out`
 * says what the core did (cleared first). After a halt, does nothing. */
void wm_iss_step(wm_iss *c, const wm_core_pe_in *in, wm_core_cycle *out);

wm_core_halt wm_iss_halt(const wm_iss *c);
static inline bool wm_iss_halted(const wm_iss *c) { return c->halt.state != WM_CORE_RUNNING; }
static inline uint32_t wm_iss_reg(const wm_iss *c, unsigned r) { return c->x[r & 31u]; }
/* The PC of the instruction in X in the next cycle (as wm_core_rtl_pc: the
 * RTL's x_pc_q after the edge); after a halt, frozen at the halting
 * instruction, the EXIT store or the faulting one. */
static inline uint32_t wm_iss_pc(const wm_iss *c) { return c->xstate == WM_ISS_X_HALTED ? c->halt.pc : c->pc; }
static inline uint64_t wm_iss_retired(const wm_iss *c) { return c->retired; }
static inline uint64_t wm_iss_cycle(const wm_iss *c) { return c->cycle; }

/* After a step: the instruction in X waits for the RX queue to fill or the
 * TX queue to drain. While the queue does not change, every further step is
 * an idle cycle: a fabric model can skip the core, calling wm_iss_idle
 * with the number of cycles skipped. */
static inline wm_iss_wait wm_iss_waiting(const wm_iss *c)
{
    return c->xstate == WM_ISS_X_WAIT_RX ? WM_ISS_WAIT_RX : c->xstate == WM_ISS_X_WAIT_TX ? WM_ISS_WAIT_TX : WM_ISS_WAIT_NONE;
}
/* n stall cycles in which the queue the core waits for stays as it was
 * (equivalent to n steps that find it so). Only while waiting. */
void wm_iss_idle(wm_iss *c, uint64_t n);

#ifdef __cplusplus
}
#endif

#endif
