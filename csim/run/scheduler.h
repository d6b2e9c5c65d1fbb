/* scheduler.h: the cycle loop that runs one kernel per PE over a fabric.
 *
 * Each kernel is a coroutine running straight-line C; it gives the CPU back
 * only at a firmware-port access (push, pop, timestamp read), and is
 * resumed only in a cycle where that access can happen: its compute charge
 * has elapsed and its queue has room or data. One access takes one cycle.
 * The loop is the same for every backend (it uses only the ops table) and
 * deterministic: PEs are visited in layout order, every cycle.
 *
 * A run ends when every kernel has returned, or is diagnosed: a deadlock
 * (the fabric is quiescent and every live kernel waits for a message), a
 * stall (every live kernel is blocked and wavelets sit still in the fabric,
 * e.g. at a disabled router), a firmware fault, or the cycle limit; or
 * stopped between two cycles by SIGINT, SIGTERM or a failed RTL assertion
 * (csim/waves/interrupt.h). */
#ifndef WM_SCHEDULER_H
#define WM_SCHEDULER_H

#include "fabric/fabric.h"
#include "mpi/partition.h"
#include "run/ending.h"
#include "run/layout.h"
#include "mp.h"

#include <stdint.h>
#include <stdio.h>

typedef struct wm_sched wm_sched;

typedef enum {
    WM_PE_RUNNING = 0,      /* accessing the port this cycle, or not started */
    WM_PE_COMPUTING,        /* a compute charge is elapsing */
    WM_PE_BLOCKED_SEND,     /* TX queue full */
    WM_PE_BLOCKED_RECV,     /* RX queue empty */
    WM_PE_DONE,             /* the kernel returned */
    WM_PE_FAULT             /* the firmware library stopped the kernel */
} wm_pe_state;

typedef enum {
    WM_RUN_DONE = 0,    /* every kernel returned */
    WM_RUN_DEADLOCK,    /* quiescent fabric, every live kernel waits to receive */
    WM_RUN_STALLED,     /* every live kernel blocked, wavelets not moving */
    WM_RUN_FAULT,       /* a kernel faulted */
    WM_RUN_MAX_CYCLES,  /* the cycle limit was reached */
    WM_RUN_INTERRUPTED  /* a signal or a failed RTL assertion stopped it (waves/interrupt.h) */
} wm_run_result;

typedef struct {
    const char *name;
    int64_t value;
    uint64_t cycle; /* when it was exported */
} wm_export;

/* What an observer (the waves writer) sees; any member may be NULL. */
typedef struct {
    void (*on_state)(void *ctx, size_t pe, uint64_t cycle, wm_pe_state state);
    void (*on_export)(void *ctx, size_t pe, uint64_t cycle, const char *name, int64_t value);
    void (*on_cycle)(void *ctx, uint64_t cycle); /* after each step */
    /* A native kernel pushed a message's header (the core mode does not
     * call it: its pushes are the cores'). */
    void (*on_send)(void *ctx, size_t pe, uint64_t cycle, uint32_t header);
} wm_sched_observer;

/* How a PE runs its kernel. */
typedef enum {
    WM_PE_NATIVE = 0, /* a coroutine on the host, timed by sw/mp.h's cost model */
    WM_PE_CORE        /* its firmware on the tile's RV32IM core (docs/core.md) */
} wm_pe_mode;

const char *wm_pe_mode_name(wm_pe_mode m);

/* One coroutine per instance of the layout, on fabric f of backend ops,
 * whose size and region the caller set from the layout. NULL on failure. */
wm_sched *wm_sched_create(const wm_fabric_ops *ops, wm_fabric *f, const wm_layout *layout);
/* The same in either mode. WM_PE_CORE needs f made by ops->create_cores;
 * each instance's core gets its kernel's firmware (core_image.h) and its
 * PE block, and starts at the first wm_sched_run; NULL with a message on
 * stderr naming the PE if an image cannot be made. */
wm_sched *wm_sched_create_mode(const wm_fabric_ops *ops, wm_fabric *f, const wm_layout *layout, wm_pe_mode mode);
/* The same on one band of a fabric partitioned over MPI ranks
 * (mpi/partition.h): f holds the band's rows, and only the PEs on them
 * run here. Every rank runs, steps and ends the run with the others, and
 * when it ends rank 0 holds every PE's state, end cycle, exports and
 * fault, and prints the reports (wm_sched_ending, wm_sched_check_delivered)
 * as one process would; the other ranks print none. */
wm_sched *wm_sched_create_banded(const wm_fabric_ops *ops, wm_fabric *f, const wm_layout *layout, wm_pe_mode mode,
                                 wm_partition *part);
wm_pe_mode wm_sched_mode(const wm_sched *s);
/* WM_PE_CORE: what PE pe's core did (started, PC, retired, halt). */
wm_core_status wm_sched_core(const wm_sched *s, size_t pe);
void wm_sched_destroy(wm_sched *s);
/* After a run in which every kernel returned: true when every message
 * reached a kernel; false after naming, on out, each one that did not
 * (discarded off the mesh, left in the RX queue of a PE without a running
 * kernel, still in flight). */
bool wm_sched_check_delivered(const wm_sched *s, FILE *out);
void wm_sched_set_observer(wm_sched *s, const wm_sched_observer *obs, void *ctx);

/* What a profiler (csim/profile/collect.h) hears of the kernels; any member
 * may be NULL, and all are unless one is set. The native mode tells where
 * each cycle of a kernel went: charges and port accesses, each with the
 * sw/mp.h call that made it (NULL: the kernel's own code); a core's cycles
 * are read from the fabric's core hook instead. Both modes tell a kernel's
 * end: the cycle its PE is done or faulted. */
typedef enum { WM_ACCESS_PUSH = 0, WM_ACCESS_POP, WM_ACCESS_READ } wm_sched_access;
typedef struct {
    /* Kernel pe charged the cycles [from, to) in func. */
    void (*on_charge)(void *ctx, size_t pe, uint64_t from, uint64_t to, const char *func);
    /* Kernel pe used its port in cycle: pushed or popped wavelet, or read
     * the counter or the queues' counts; the cycles since its last charge
     * ended, if any, it waited for the queue. */
    void (*on_access)(void *ctx, size_t pe, uint64_t cycle, wm_sched_access what, uint32_t wavelet,
                      const char *func);
    void (*on_end)(void *ctx, size_t pe, uint64_t cycle);
} wm_sched_profiler;
void wm_sched_set_profiler(wm_sched *s, const wm_sched_profiler *p, void *ctx);
/* WM_PE_NATIVE: the sw/mp.h call kernel pe is in (NULL: its own code). */
const char *wm_sched_pe_call(const wm_sched *s, size_t pe);

/* A debugger (csim/debug/) on a core-mode run: between is called before
 * every step, with the cycle the fabric is at (first with cycle 0, before
 * the cores' first cycle), and may block as long as it likes while the
 * fabric stands still; false ends the run there (WM_RUN_INTERRUPTED,
 * after wm_interrupt_fail's reason). While one is set, every cycle is a
 * full look at every core (no census shortcut): nothing the cores do
 * changes. False, with nothing set, in the native mode or under jitter. */
typedef struct {
    bool (*between)(void *ctx, uint64_t cycle);
} wm_sched_debugger;
bool wm_sched_set_debugger(wm_sched *s, const wm_sched_debugger *d, void *ctx);
/* The fabric the scheduler drives, and its backend. */
wm_fabric *wm_sched_fabric(const wm_sched *s);
const wm_fabric_ops *wm_sched_fabric_ops(const wm_sched *s);
/* Run until the end or max_cycles fabric cycles. */
wm_run_result wm_sched_run(wm_sched *s, uint64_t max_cycles);

/* Messages in flight (run/msg_flight.h): from a header's push to its last
 * wavelet's pop. The native loop counts them always; on the cores they
 * are counted from the PE datapath's events (the fabric's core hook, the
 * one set before passed every event on) from the first wm_sched_run on,
 * so that a report can name the message a blocked core waits for; this
 * call is kept for the callers that ask. */
void wm_sched_count_messages(wm_sched *s);
/* The count at the current cycle into *n; false when it is not kept (cores
 * without a terminal or wm_sched_count_messages, or a backend that cannot
 * pass its core events on). */
bool wm_sched_messages_in_flight(const wm_sched *s, uint64_t *n);
/* Why the run ended, one line per blocked PE or stuck wavelet, and after a
 * stall or the cycle limit one per full RX queue (the PE that does not pop
 * it, and what its kernel does instead). The oldest wavelet of a place is
 * decoded as a header only when it is known to be one: the head of a
 * native kernel's TX queue, whose pushes the scheduler frames as the
 * router does; elsewhere it is shown as it is. An interrupted run gets
 * one line: what stopped it, and the cycle. */
void wm_sched_report(const wm_sched *s, wm_run_result r, FILE *out);
/* How the run ended, for a verdict (run/ending.h): r's ending, or
 * WM_END_UNDELIVERED when every kernel returned but a message did not
 * reach a kernel that read it. The report `run` prints goes to out:
 * wm_sched_report, then wm_sched_check_delivered after a run in which
 * every kernel returned (which lets what is still on its way land). */
wm_ending wm_sched_ending(const wm_sched *s, wm_run_result r, FILE *out);
uint64_t wm_sched_cycle(const wm_sched *s);

/* PEs with a kernel, in layout order. */
size_t wm_sched_pe_count(const wm_sched *s);
const wm_instance *wm_sched_pe_instance(const wm_sched *s, size_t pe);
wm_pe_state wm_sched_pe_state(const wm_sched *s, size_t pe);
/* The cycle kernel pe returned or faulted in; false while it has not. */
bool wm_sched_pe_end(const wm_sched *s, size_t pe, uint64_t *cycle);
const wm_export *wm_sched_pe_exports(const wm_sched *s, size_t pe, size_t *count);
/* instance.name's value; false when it was never exported. */
bool wm_sched_result(const wm_sched *s, const char *instance, const char *name, int64_t *value);
const char *wm_pe_state_name(wm_pe_state st);

/* PE pe's data memory (WM_PE_DATA_WORDS words of sw/mp.h), owned by the
 * caller, who loads it before the run and reads it after; a PE given none
 * gets a zeroed one of its own. On a core it is copied into the tile's
 * RAM when the run starts and back when it ends. */
void wm_sched_set_memory(wm_sched *s, size_t pe, uint32_t *words);

/* The port primitives under csim/run/mp_native.c; called from inside a kernel only. */
void wm_sched_push(wm_mp *mp, uint32_t wavelet);
uint32_t wm_sched_pop(wm_mp *mp);
uint32_t wm_sched_pop_header(wm_mp *mp); /* the same, counted as a message */
uint64_t wm_sched_tsc(wm_mp *mp);
/* Both queues' occupancy, read through the port (one cycle), so a kernel
 * can interleave sending and receiving instead of blocking on either. */
void wm_sched_queues(wm_mp *mp, unsigned *tx_count, unsigned *rx_count);
void wm_sched_charge(wm_mp *mp, unsigned cycles);
/* Jitter (--jitter SEED, docs/kernels.md), set before the first run: delay
 * each kernel's start by 0..WM_JITTER_START cycles and stall each of its
 * pushes and pops by 0..WM_JITTER_PORT cycles, drawn from a PRNG per PE
 * seeded by seed and the PE's index, so one seed is one schedule. Natively
 * the stall comes before the access; on the cores the host holds the core
 * (core_hold) at its start and after each access, so a fabric whose
 * backend cannot hold one core (rtl-mesh) takes none: false, with the
 * reason in err. The holds are the schedule's, not a debugger's. */
enum { WM_JITTER_START = 64, WM_JITTER_PORT = 8 };
WM_MUST_USE bool wm_sched_set_jitter(wm_sched *s, uint64_t seed, char *err, size_t err_size);
bool wm_sched_jittered(const wm_sched *s);
/* The stall of mp's next push or pop: 0 without jitter. */
unsigned wm_sched_jitter_port(wm_mp *mp);
uint32_t *wm_sched_mem(wm_mp *mp);
int64_t wm_sched_param(wm_mp *mp, unsigned index);
void wm_sched_export(wm_mp *mp, unsigned index, int64_t value);
/* mp_native.c: kernel mp now runs sw/mp.h's call func (NULL: its own
 * code again); returns the one it ran before, to be restored. */
const char *wm_sched_enter(wm_mp *mp, const char *func);
/* The same for a call from the kernel's own code at site (its return
 * address), which the reports of a run that ends with the kernel waiting
 * or computing name as a source line. */
const char *wm_sched_enter_from(wm_mp *mp, const char *func, const void *site);
/* Only the site, for a call that runs no port access (wm_mp_work). */
void wm_sched_note_call(wm_mp *mp, const void *site);
/* Stop the kernel with a message; the run ends with WM_RUN_FAULT. */
_Noreturn void wm_sched_fault(wm_mp *mp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
