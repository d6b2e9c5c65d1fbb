/* fabric_sw.h: what the sw backend offers beyond the ops table.
 *
 * The sw backend (wm_fabric_sw, declared in fabric.h) is a pure-C model of
 * the tile written from docs/fabric.md. The regression compares it with the
 * rtl backend wavelet for wavelet; to prove that comparison can fail, the
 * model can be made deliberately wrong in one tile: the perturbation of
 * the fabric's config (wm_fabric_config, fabric.h), given at creation. It
 * is a test instrument, never a mode of use.
 */
#ifndef WM_FABRIC_SW_H
#define WM_FABRIC_SW_H

#include "fabric/fabric.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parses "rr-reverse:X,Y", "late-grant:X,Y,PORT" (PORT is N, E, S, W or
 * L), or "core-sltu:X,Y", "core-div33:X,Y", "core-rx-late:X,Y" (the ISS
 * bugs of core/iss.h: SLTU compares signed; DIV/REM take 33 cycles; an RX
 * load pops a cycle late) into *out. On a malformed text, false with the
 * reason in err. */
WM_MUST_USE bool wm_sw_perturbation_parse(const char *text, wm_sw_perturbation *out, char *err, size_t err_size);

/* A tile as rtl/wm_waves.v shows it, for dumps from the sw backend
 * (csim/waves/waves_sw.c): the same values the rtl tile dumps. */
typedef struct {
    uint8_t out_valid;            /* bit p: output register p (N..W, L) holds a wavelet */
    uint32_t out_data[WM_NPORTS]; /* the registers; they keep their value when not valid */
    uint8_t credit;               /* bits N..W: credit pulse returned for that input buffer */
    uint8_t owner[WM_NPORTS];     /* the input holding each output, 0..4; 7 when free */
    uint8_t in_count[4];          /* input buffer occupancy, N..W */
    uint8_t tx_count, rx_count;
    uint8_t status;               /* WM_ST_* */
    uint32_t err_hdr;
    uint8_t en;                   /* the registered enable */
} wm_sw_tile_view;

void wm_fabric_sw_view(const wm_fabric *f, unsigned x, unsigned y, wm_sw_tile_view *out);

/* Threads. The tiles of one step are independent (each reads its own
 * state and the mail of the cycle, and writes its own state and the mail
 * of the next cycle), so a step can evaluate them on two threads with a
 * result identical to one thread's, link trace included. Two threads pay
 * only on a busy mesh and a free second CPU. In the automatic mode a step
 * may go parallel when the step before evaluated more than
 * WM_SW_PARALLEL_MIN tiles and the machine has two CPUs, so small and idle
 * meshes stay on the calling thread and never start the worker; such busy
 * steps then time short trial windows on two threads and on one, now and
 * then, and take the faster way in between (a job on the other CPU makes
 * two threads slower than one). The mode is the config's threads
 * (wm_sw_threads, fabric.h), given at creation. */
enum { WM_SW_PARALLEL_MIN = 256 };

/* How many steps of f went parallel so far. */
uint64_t wm_fabric_sw_parallel_steps(const wm_fabric *f);

/* Every PE's queues as pe_status reports them (tx_count, rx_count,
 * rx_head), as arrays indexed y * stride + x, stride being w; on a block
 * (fabric.h's wm_fabric_band), (y - row_begin) * stride + (x - col_begin),
 * stride being the block's width plus its ghost columns (docs/fabric.md,
 * "Blocks"). So a driver watching hundreds of PEs a cycle reads dense
 * bytes instead of a status each. Valid while the fabric lives; the
 * values change at each step. */
typedef struct {
    const uint8_t *tx_count;
    const uint8_t *rx_count;
    const uint32_t *rx_head; /* meaningful where rx_count > 0 */
    size_t stride;
} wm_sw_queues;

wm_sw_queues wm_fabric_sw_queues(const wm_fabric *f);

/* A PE core of a fabric made by create_cores, as a dump shows it after a
 * step: what it did in the cycle that step simulated, and where it stands.
 * The flags of the cycle are clear when the core did nothing in it (not
 * started yet, stalled on a queue, or halted before), and each value is 0
 * unless its flag is set. All 0 for a tile whose core has not started. */
typedef struct {
    bool started;         /* as wm_core_status.started */
    uint32_t pc;          /* as wm_core_status.pc: the instruction in X in the next cycle */
    bool retire;          /* an instruction retired in the cycle */
    uint32_t retire_pc, retire_insn;
    bool rd_we;           /* it wrote register rd (never x0) */
    uint8_t rd;
    uint32_t rd_data;
    bool push;            /* a TX store pushed push_data at the cycle's edge */
    uint32_t push_data;
    bool pop;             /* an RX load popped the RX head at the cycle's edge */
    bool halted;          /* exited or faulted, in this cycle or before */
    uint8_t fault_cause;  /* wm_core_fault when it faulted, else 0 */
} wm_sw_core_view;

void wm_fabric_sw_core_view(const wm_fabric *f, unsigned x, unsigned y, wm_sw_core_view *out);

#endif
