/* scheduler_internal.h: the scheduler's state and the table of operations
 * of a PE mode. Not for other files.
 *
 * The scheduler is a base (scheduler.c: the state, observers, exports,
 * progress, interrupts, stall snapshots; stall_report.c: why a run ended;
 * mem_report.c: where its memory goes)
 * and one PE mode per file, each a wm_pe_mode_ops table: coroutines
 * (native_sched.c) and cores (core_sched.c). A mode calls the base; the
 * base calls a mode only through its table, which pe_mode.c picks. */
#ifndef WM_SCHEDULER_INTERNAL_H
#define WM_SCHEDULER_INTERNAL_H

#include "mpi/partition.h"
#include "run/core_image.h"
#include "run/msg_flight.h"
#include "run/scheduler.h"
#include "run/stacks.h"
#include "waves/fw_syms.h"
#include "waves/progress.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    /* A kernel computing without touching its port gives the loop back
     * once its charge runs this far ahead of the fabric, or after this many
     * charges in one cycle, so the cycle limit and signals still fire. */
    WORK_AHEAD = 1 << 16,
    WORK_CALLS = 1 << 20,
    /* After a run, the cycles a message still on its way may take to land. */
    DRAIN_CYCLES = 10000,
    STALL_WINDOW = 64,         /* cycles between two snapshots of a stall */
    FAULT_TEXT = 200
};

typedef enum { WAIT_START, WAIT_WORK, WAIT_PUSH, WAIT_POP, WAIT_TSC, WAIT_QUEUES, WAIT_NONE } wait_kind;

/* One PE of the run, in every mode. What only one mode needs lives in
 * that mode's own array (wm_coroutine, wm_core_pe), made by its init, so
 * that a PE of a large run holds no bytes of the other's. */
struct wm_mp {
    /* What the native loop reads of every kernel every cycle, together in
     * one cache line: at a million kernels the loop is bound by memory,
     * and a waiting kernel costs a line a cycle, not two. */
    wm_pe_state state;
    uint32_t queued_at; /* its tile's index in the scheduler's queue bytes (tx_queued, rx_queued) */
    char *fault;        /* NULL until the PE faults: then FAULT_TEXT bytes saying why (wm_sched_fault_text) */
    /* WM_PE_NATIVE: the port access the coroutine waits for */
    wait_kind wait;
    bool pop_is_header;
    uint64_t ready; /* earliest cycle of the next port access */
    wm_sched *s;
    size_t index;
    const wm_instance *inst;
    uint64_t end_cycle; /* the cycle it became DONE or FAULT */
    wm_export *exports;
    size_t nexports, cap_exports;
    uint32_t *mem;  /* the PE's data memory, WM_PE_DATA_WORDS words */
    bool mem_owned; /* made here (zeroed) because the caller gave none */
    unsigned charges; /* since the kernel last gave the loop back */
    const char *func; /* the sw/mp.h call running (NULL: the kernel's own code), for a profiler */
    uint32_t push_data;
    uint32_t popped;
    uint64_t tsc_read;
    uint8_t tx_read, rx_read; /* queue occupancy, for WAIT_QUEUES */
    unsigned headers_received;
    uint64_t jitter_state; /* wm_sched_set_jitter: this PE's PRNG, 0 without jitter */
    /* ... and for the stall report: the framing of what the kernel
     * pushed, as its router reads it (a header, then len data wavelets),
     * newest at bit 0 of tx_headers (1: a header), so the head of the TX
     * queue is known to be a header or not; and its pops. */
    unsigned tx_left;       /* data wavelets still to push of the message being pushed */
    uint32_t tx_headers;
    uint64_t pushes;
    uint64_t last_push_cycle;
    uint64_t pops;
    uint64_t last_pop_cycle;
    /* BLOCKED_RECV: the first cycle of its wait, for a deadlock's report */
    uint64_t blocked_since;
};

/* WM_PE_NATIVE: a kernel's coroutine. */
typedef struct {
    jmp_buf jb;
    void *asan_fake_stack; /* AddressSanitizer's record of the stack switched from */
    const void *call_site; /* where the kernel's own code last called sw/mp.h, for the reports */
} wm_coroutine;

/* WM_PE_CORE: a PE's image, and what its core did. */
typedef struct {
    const wm_firmware *fw;
    wm_pe_block block;
    wm_core_status core;
} wm_core_pe;

/* WM_PE_CORE under jitter: a PE's hold. */
typedef struct {
    /* the cycles to hold the core for from the next step: its start delay
     * until the cores start, then the stalls of its last step's accesses */
    unsigned due;
    uint64_t until; /* while held: the cycle its hold ends */
} wm_jitter_hold;

/* WM_PE_CORE: a kernel's symbols, read from its ELF when a report first
 * names one of its PCs. */
typedef struct {
    bool tried, ok;
    wm_fw_syms syms;
    char why[800]; /* an ELF there that could not be read, or not the image's: why */
} wm_core_syms;

/* A PE mode: how a PE runs its kernel, behind the base. */
typedef struct {
    wm_pe_mode mode;
    const char *name; /* as --pe spells it */
    /* After the base made the PEs (each running, none started): what the
     * mode needs before the first run; false with a message on stderr.
     * free is called after a failed init too. */
    bool (*init)(wm_sched *s);
    /* From the cycle the fabric is at to the end of the run or max_cycles,
     * inside the base's progress line. */
    wm_run_result (*run)(wm_sched *s, uint64_t max_cycles);
    /* One line of the end-of-run report for a PE whose kernel is not done;
     * deadlocked: say that nobody sent what it waits for. */
    void (*report_pe)(const wm_sched *s, const wm_mp *mp, bool deadlocked, FILE *out);
    /* " from WHERE" for the site of a send by mp (wm_msg_sent.site), or nothing if it cannot be named. */
    void (*report_site)(const wm_sched *s, const wm_mp *mp, uint64_t site, FILE *out);
    void (*free)(wm_sched *s);
    /* Jitter (jitter.c): make what the mode needs for it, before the
     * first run; false, with the reason in err, when it cannot. Then
     * delay_start once a PE, with the PE's start delay. */
    bool (*jitter_start)(wm_sched *s, char *err, size_t err_size);
    void (*delay_start)(wm_sched *s, wm_mp *mp, unsigned cycles);
    /* The scheduler performs every push and pop itself, so it knows the
     * framing of each TX queue (wm_mp.tx_headers) and each PE's last pop;
     * otherwise (cores) the report does not guess at them. */
    bool sees_port;
} wm_pe_mode_ops;

extern const wm_pe_mode_ops wm_pe_native_ops; /* native_sched.c */
extern const wm_pe_mode_ops wm_pe_core_ops;   /* core_sched.c */

struct wm_sched {
    const wm_pe_mode_ops *pm; /* the PE mode */
    const wm_fabric_ops *ops;
    wm_fabric *f;
    const wm_layout *layout;
    size_t n;
    wm_mp *pes;
    size_t *live; /* indices of kernels still running, in layout order */
    size_t nlive;
    /* WM_PE_NATIVE: the loop's context, the kernels' coroutines (one a PE) and their stacks */
    jmp_buf jb;
    wm_coroutine *cos;
    wm_stacks *stacks;
    void *asan_fake_stack;
    const void *main_stack; /* the loop's own stack, for AddressSanitizer */
    size_t main_stack_size;
    uint64_t cycle;
    wm_sched_observer obs;
    void *obs_ctx;
    wm_sched_profiler prof;
    void *prof_ctx;
    /* stall detection: two snapshots of the wavelets in flight */
    unsigned idle_cycles;
    wm_flight *snap, *prev_snap;
    size_t prev_snap_n, snap_cap;
    /* WM_PE_CORE: the PEs' images and cores (one a PE); one image per kernel, loaded once */
    wm_core_pe *cpes;
    wm_firmware *fws;
    size_t nfws;
    wm_core_syms *syms; /* one per image, for the reports */
    uint64_t *core_last_event; /* per tile: the last cycle its core retired, pushed or popped (the hook's) */
    bool cores_started, cores_collected;
    size_t census_halted; /* halted cores at the last full look at every core */
    wm_progress progress; /* the status line of a long run (waves/progress.h) */
    /* Messages in flight: native pushes and pops, or the cores' events
     * through the fabric's core hook while a run holds it (passed on to
     * the hook set before); kept when every push and pop went through.
     * On the cores they also tell a blocked receive's message number. */
    wm_msg_flight msgs;
    bool msgs_wanted;     /* wm_sched_count_messages */
    bool msgs_kept;
    bool msgs_hooked;
    wm_core_hook prev_core_hook;
    void *prev_core_ctx;
    uint64_t jitter_seed; /* wm_sched_set_jitter: the schedule's seed, 0 without jitter */
    /* WM_PE_CORE under jitter, made by wm_sched_set_jitter only: each
     * PE's hold, each tile's PE (SIZE_MAX: none), the PEs whose core an
     * event of the last step is to hold, and the cores held, the earliest
     * release among them at jitter_release */
    wm_jitter_hold *holds;
    size_t *jitter_tile_pe;
    size_t *jitter_due, njitter_due;
    size_t *jitter_held, njitter_held;
    uint64_t jitter_release;
    /* WM_PE_CORE: a debugger, called before every step */
    wm_sched_debugger dbg;
    void *dbg_ctx;
    /* One band of a fabric over several ranks (mpi/partition.h), NULL:
     * the whole fabric here. Only this band's PEs are live; the others'
     * results come to rank 0 when the run ends (wm_sched_run). */
    wm_partition *part;
    /* WM_PE_NATIVE on the sw backend: every tile's TX and RX counts as
     * bytes (fabric_sw.h's wm_sw_queues), read in place while a kernel
     * waits on them (wm_mp's queued_at); NULL on other backends */
    const uint8_t *tx_queued, *rx_queued;
    /* ... and beside live[k], what its kernel was left waiting on when last
     * served: its queue byte's index and WAITS_RECV (blocked on an empty
     * RX queue) or WAITS_SEND (on a full TX queue); WAITS_COMPUTE (its
     * compute ends at wakes[k]); or 0. The loop reads these, not the PE's
     * state, while they say it still waits: most kernels of a large run
     * wait most cycles, and a million of them make the loop bound by
     * memory. */
    uint32_t *waits;
    uint64_t *wakes; /* ... and a computing kernel's next access cycle */
    size_t live_all;      /* the kernels still running on every rank, at the last tally */
    /* The pushes and pops of this rank's PEs since the ranks last traded
     * them, for every rank to count, in the order one process counts them
     * (wm_sched_msg_push) */
    struct wm_msg_event *events;
    size_t nevents, cap_events;
    char **names;         /* rank 0: export names of other ranks' kernels, held here */
    size_t nnames;
};

/* How the run stands after one cycle's look at its live PEs, summed over
 * the ranks of a partitioned run (wm_sched_agree). busy: the fabric is
 * not quiescent (looked at only where every live kernel waits to receive
 * and none acted); stop: a signal came (a partitioned run stops where
 * every rank does). */
typedef struct {
    uint64_t faulted, live, blocked_recv, blocked, acted, busy, stop;
    uint64_t events; /* pushes and pops held to pass on (scheduler.c fills it in) */
} wm_sched_tally;

/* The base's services to the modes (scheduler.c). */

/* A scheduler of mode pm over the layout, its PEs made; NULL on failure
 * (pe_mode.c's wm_sched_create_mode picks pm). */
wm_sched *wm_sched_create_with(const wm_pe_mode_ops *pm, const wm_fabric_ops *ops, wm_fabric *f,
                               const wm_layout *layout, wm_partition *part);
/* Whether PE i runs in this process: always, but in a partitioned run,
 * where only the band's PEs do. */
static inline bool wm_sched_pe_here(const wm_sched *s, size_t i)
{
    return !s->part || wm_partition_owns(s->part, s->pes[i].inst->x, s->pes[i].inst->y);
}
/* One clock edge of the fabric; in a partitioned run, then the exchange
 * of the band's boundary links. */
void wm_sched_step(const wm_sched *s);
/* A push of wavelet by tile's PE in cycle from site (natively an address
 * in this program, on a core a PC: host_site tells), and a pop: counted in
 * the messages in flight (msg_flight.h). In a partitioned run every rank
 * counts every rank's, at the cycle's tally, in the order of key (the PE's
 * index natively, the tile's on the cores, a push before a pop), which is
 * the order one process counts them in. */
void wm_sched_msg_push(wm_sched *s, uint64_t key, size_t tile, uint32_t wavelet, uint64_t cycle, uint64_t site,
                       bool host_site);
void wm_sched_msg_pop(wm_sched *s, uint64_t key, size_t tile, uint32_t wavelet, uint64_t cycle);
/* The tally of every rank, summed into t (nothing to do in a whole run);
 * with it, every rank's pushes and pops of the cycle are counted. */
void wm_sched_agree(wm_sched *s, wm_sched_tally *t);
/* PE mp is now in state st; the observer hears of a change. */
static inline void wm_sched_set_state(wm_sched *s, wm_mp *mp, wm_pe_state st)
{
    if (mp->state == st) return;
    mp->state = st;
    if (st == WM_PE_DONE || st == WM_PE_FAULT) mp->end_cycle = s->cycle;
    if (s->prof.on_end && (st == WM_PE_DONE || st == WM_PE_FAULT)) s->prof.on_end(s->prof_ctx, mp->index, s->cycle);
    if (s->obs.on_state) s->obs.on_state(s->obs_ctx, mp->index, s->cycle, st);
}
/* PE mp's fault text, FAULT_TEXT bytes, made on first use: a PE that
 * never faults holds none. */
char *wm_sched_fault_text(wm_mp *mp);
/* Take a snapshot of the wavelets in flight; true if it equals the last. */
bool wm_sched_snapshot_unchanged(wm_sched *s);
/* Both loops ask this once a cycle: stop now with WM_RUN_INTERRUPTED. */
bool wm_sched_interrupted(const wm_sched *s);
/* ... and this: draw the status line when one is due. */
void wm_sched_progress(wm_sched *s);

#endif
