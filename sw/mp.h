/* mp.h: the firmware API, what a kernel (one PE's program) calls.
 *
 * A kernel is straight-line C with blocking calls: it builds a header from
 * a destination and a length, sends a message, receives one, reads the
 * timestamp counter and charges its own compute. Every call goes through
 * the PE's firmware port one wavelet per cycle, stalled by the queues as the
 * hardware stalls a core; the library's own work is charged by the
 * constants below (docs/cost-model.md). Kernels never compute coordinates:
 * destinations come from their parameters, which the layout fills in.
 *
 * This header is all a kernel sees of the world, besides its own PE's
 * local memory (wm_mp_mem): firmware is freestanding C, with no libc and
 * no pointer into the host (docs/pe-memory.md). The native mode implements
 * it over the scheduler (csim/run/mp_native.c).
 */
#ifndef WM_MP_H
#define WM_MP_H

#include "wavelet.h"

#include <stdint.h>

/* One PE as its kernel sees it; owned by the scheduler. */
typedef struct wm_mp wm_mp;

/* The cost model of the native mode: cycles charged for the library's own
 * work, on top of one cycle per firmware-port access (push, pop, timestamp
 * and queue reads) and whatever the queues stall. Measured on the PE core
 * and generated (`make calibrate`), so that the native mode takes the
 * core's cycles: a message of one data wavelet costs WM_COST_HEADER +
 * WM_COST_SEND_CALL + 2 + WM_COST_SEND_WAVELET at the sender, 11 cycles
 * (the seed's core took 31). A kernel charges its own work with
 * wm_mp_work: the instruction classes' costs (WM_COST_ALU .. WM_COST_DIV,
 * docs/kernels.md) or its steps' calibrated ones. */
#include "cost_model.h"

/* On a core the calls below are inlined into the kernel (sw/rv32/
 * mp_inline.h, docs/core.md "What a message costs"); natively they are
 * the scheduler's functions (csim/run/mp_native.c). */
#ifdef __riscv
#define WM_MP_API static inline
#else
#define WM_MP_API
#endif

/* A header for a message of len data wavelets to PE (col, row); tag, 0..WM_TAG_MAX,
 * is free for the firmware (the router ignores it). Coordinates off any
 * mesh, a length over WM_LEN_MAX or a tag over WM_TAG_MAX are a firmware fault.
 * Coordinates are 32-bit, the core's width (a parameter of range
 * WM_PARAM_COORD fits). Charges WM_COST_HEADER. */
WM_MP_API uint32_t wm_mp_header(wm_mp *mp, int32_t col, int32_t row, unsigned len, unsigned tag);

/* Push header and its len data wavelets, blocking while TX is full. */
WM_MP_API void wm_mp_send(wm_mp *mp, uint32_t header, const uint32_t *data);

/* Pop one message, blocking until each wavelet arrives; stores up to max
 * data wavelets and returns the header. A longer message is a firmware
 * fault: the rest is popped and dropped, and the run reports it. */
WM_MP_API uint32_t wm_mp_recv(wm_mp *mp, uint32_t *data, unsigned max);

/* The timestamp counter, read through the port (one cycle). */
WM_MP_API uint64_t wm_mp_tsc(wm_mp *mp);

/* Room left in the TX queue and wavelets waiting in RX, read through the
 * port (one cycle). A kernel that must send and receive at once polls
 * this and pushes or pops one wavelet at a time, so that two PEs sending
 * long messages to each other cannot both block on full queues. */
WM_MP_API void wm_mp_queues(wm_mp *mp, unsigned *tx_room, unsigned *rx_count);

/* Charge cycles of compute (natively; docs/cost-model.md). On a core the
 * kernel's compute is its instructions, so this is nothing at all there,
 * not even a call: a charge inside a loop must not slow the loop it
 * describes. */
#ifdef __riscv
static inline void wm_mp_work(wm_mp *mp, unsigned cycles)
{
    (void)mp;
    (void)cycles;
}
#else
void wm_mp_work(wm_mp *mp, unsigned cycles);
#endif

/* Parameter `index` of the kernel's parameter list (sw/kernels.h): the
 * value the layout gave this PE, or the kernel's default. Resolved before
 * the run (on a core, written into its PE's memory by the loader), so a
 * kernel names its parameters by index, never by a string looked up at
 * run time; each kernel numbers them with an enum beside its list. On a
 * core a constant index is one load, with no run-time check: the list,
 * written with the enum's designators, holds every index the kernel
 * names, and the loader refuses a layout that misses one; an index
 * computed at run time is checked (a firmware fault past the list). A
 * kernel that keeps the value in 32 bits loads one word. */
WM_MP_API int64_t wm_mp_param(wm_mp *mp, unsigned index);

/* Publish result `index` of the kernel's exports list as instance.name. */
WM_MP_API void wm_mp_export(wm_mp *mp, unsigned index, int64_t value);

/* The PE's local memory: its size, and the part of it that the host loads
 * before the run and reads back after it (a kernel's data and its heap).
 * The rest, 24 KiB, holds on a core the code and the stack (sw/rv32/
 * pe_block.h): the gs kernel's firmware alone is 19 KB. 64 KiB in all is
 * a little more than the 48 KiB of SRAM a Cerebras WSE PE has for code and
 * data together; the gs kernels use at most 5.7 KB of data at P = 1024
 * and 32 KB in the suite's stress case, 600 shared dofs a rank
 * (docs/pe-memory.md). */
enum {
    WM_PE_MEM_BYTES  = 64 * 1024,
    WM_PE_DATA_BYTES = 40 * 1024,
    WM_PE_DATA_WORDS = WM_PE_DATA_BYTES / 4
};

/* The first word of the data memory, WM_PE_DATA_WORDS words. */
WM_MP_API uint32_t *wm_mp_mem(wm_mp *mp);

/* The port itself, one access each, for kernels that move wavelets one at
 * a time (sw/gs/xfer.c): push one wavelet (blocks while TX is full), pop
 * one (blocks while RX is empty; _header when it is a message's first).
 * No cost-model charge beyond the access itself. */
WM_MP_API void wm_mp_push(wm_mp *mp, uint32_t wavelet);
WM_MP_API uint32_t wm_mp_pop(wm_mp *mp);
WM_MP_API uint32_t wm_mp_pop_header(wm_mp *mp);

/* Stop the kernel: the run ends with a firmware fault that names the PE and
 * says why. fmt knows %u, %d, %x and %s (unsigned, int, unsigned, string). */
_Noreturn void wm_mp_fault(wm_mp *mp, const char *fmt, ...);

#ifdef __riscv
#include "rv32/mp_inline.h"
#endif

#endif
