/* core_port.h: one cycle of the PE core, as both of its models see it.
 *
 * The core (docs/core.md) is modelled twice: the Verilated wm_core
 * (core_rtl.h) and the instruction-set simulator (iss.h). Both are stepped
 * one clock cycle at a time with the same view of the PE datapath and
 * report what they did in that cycle in the same record, so a test or the
 * lockstep regression can drive them side by side and compare every cycle.
 *
 * Shared across the C/C++ boundary (the rtl shim is C++), hence the guards.
 */
#ifndef WM_CORE_PORT_H
#define WM_CORE_PORT_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The tile's queue depths, rtl/wm_tile.v's parameters: the defaults, or a
 * build's other set (-DWM_PARAM_TX_DEPTH=5 ..., mk/params.mk). */
#ifndef WM_PARAM_IN_DEPTH
#define WM_PARAM_IN_DEPTH 4
#endif
#ifndef WM_PARAM_TX_DEPTH
#define WM_PARAM_TX_DEPTH 8
#endif
#ifndef WM_PARAM_RX_DEPTH
#define WM_PARAM_RX_DEPTH 8
#endif

enum {
    WM_CORE_MEM_BYTES = 16 * 1024,   /* the RAM's default size (rtl/core/wm_ram.v) */
    WM_CORE_REG_BASE  = (int)0x80000000u,
    WM_CORE_TX_DEPTH  = WM_PARAM_TX_DEPTH, /* for QUEUES' tx_room */
    WM_TILE_MEM_BYTES = 64 * 1024    /* the RAM of a tile with a core: WM_PE_MEM_BYTES of sw/mp.h */
};

/* Register offsets in the window at WM_CORE_REG_BASE (docs/core.md). */
enum {
    WM_CORE_REG_TX      = 0x00,
    WM_CORE_REG_RX      = 0x04,
    WM_CORE_REG_QUEUES  = 0x08,
    WM_CORE_REG_TSC_LO  = 0x0C,
    WM_CORE_REG_TSC_HI  = 0x10,
    WM_CORE_REG_STATUS  = 0x14,
    WM_CORE_REG_ERR_HDR = 0x18,
    WM_CORE_REG_COORD   = 0x1C,
    WM_CORE_REG_EXIT    = 0x20
};

/* Fault causes, as the RTL encodes them. */
typedef enum {
    WM_CORE_OK = 0,
    WM_CORE_FAULT_ILLEGAL = 1,      /* not RV32IM, ECALL, EBREAK, 0 */
    WM_CORE_FAULT_JUMP_ALIGN = 2,   /* taken jump/branch to a target not a multiple of 4 */
    WM_CORE_FAULT_FETCH = 3,        /* an instruction past the RAM reached execute */
    WM_CORE_FAULT_ALIGN = 4,        /* misaligned load or store */
    WM_CORE_FAULT_ACCESS = 5,       /* load or store outside RAM and register window */
    WM_CORE_FAULT_UNMAPPED = 6      /* register window: unmapped offset, direction or size */
} wm_core_fault;

/* The PE datapath as the core sees it at the current cycle. */
typedef struct {
    uint64_t tsc;
    uint32_t rx_head;   /* the wavelet an RX load takes this cycle (if rx_count) */
    uint32_t err_hdr;
    uint8_t  tx_count;  /* 0..WM_CORE_TX_DEPTH */
    uint8_t  rx_count;
    uint8_t  status;
    uint16_t col, row;
} wm_core_pe_in;

/* What the core did in one cycle. push/pop take effect at the edge that
 * ends the cycle. A field means something only when its flag is set
 * (push_data with push, retire_* with retire, rd and rd_data with rd_we):
 * the RTL drives the others with whatever its datapath holds. */
typedef struct {
    bool     push;          /* a TX store happened */
    uint32_t push_data;
    bool     pop;           /* an RX load happened */
    bool     retire;        /* an instruction finished in this cycle */
    uint32_t retire_pc;
    uint32_t retire_insn;
    bool     rd_we;         /* it wrote a register (never x0) */
    uint8_t  rd;
    uint32_t rd_data;
} wm_core_cycle;

typedef enum { WM_CORE_RUNNING = 0, WM_CORE_EXITED, WM_CORE_FAULTED } wm_core_state;

/* Why a core stopped. */
typedef struct {
    wm_core_state state;
    uint32_t exit_code;     /* EXITED: the value stored to EXIT */
    wm_core_fault cause;    /* FAULTED */
    uint32_t pc, insn;      /* the halting instruction: the faulting one, or the EXIT store */
} wm_core_halt;

#ifdef __cplusplus
}
#endif

#endif
