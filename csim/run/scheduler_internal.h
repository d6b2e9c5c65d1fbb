/* scheduler_internal.h: the scheduler's state, shared by its two PE modes:
 * coroutines (scheduler.c) and cores (core_sched.c). Not for other files. */
#ifndef WM_SCHEDULER_INTERNAL_H
#define WM_SCHEDULER_INTERNAL_H

#include "run/core_image.h"
#include "run/msg_flight.h"
#include "run/scheduler.h"
#include "run/stacks.h"
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

struct wm_mp {
    wm_sched *s;
    size_t index;
    const wm_instance *inst;
    jmp_buf jb;
    void *asan_fake_stack; /* AddressSanitizer's record of the stack switched from */
    unsigned charges;      /* since the kernel last gave the loop back */
    wait_kind wait;
    bool pop_is_header;
    uint64_t ready;  /* earliest cycle of the next port access */
    uint32_t push_data;
    uint32_t popped;
    uint64_t tsc_read;
    uint8_t tx_read, rx_read; /* queue occupancy, for WAIT_QUEUES */
    wm_pe_state state;
    unsigned headers_received;
    /* Native mode, for the stall report: the framing of what the kernel
     * pushed, as its router reads it (a header, then len data wavelets),
     * newest at bit 0 of tx_headers (1: a header), so the head of the TX
     * queue is known to be a header or not; and its pops. */
    unsigned tx_left;       /* data wavelets still to push of the message being pushed */
    uint32_t tx_headers;
    uint64_t pushes;
    uint64_t last_push_cycle;
    uint64_t pops;
    uint64_t last_pop_cycle;
    wm_export *exports;
    size_t nexports, cap_exports;
    char fault[FAULT_TEXT];
    uint32_t *mem;   /* the PE's data memory, WM_PE_DATA_WORDS words */
    bool mem_owned;  /* made here (zeroed) because the caller gave none */
    /* WM_PE_CORE: the image, and what the core did */
    const wm_firmware *fw;
    wm_pe_block block;
    wm_core_status core;
};

struct wm_sched {
    wm_pe_mode mode;
    const wm_fabric_ops *ops;
    wm_fabric *f;
    const wm_layout *layout;
    size_t n;
    wm_mp *pes;
    size_t *live; /* indices of kernels still running, in layout order */
    size_t nlive;
    jmp_buf jb;
    wm_stacks *stacks;
    void *asan_fake_stack;
    const void *main_stack; /* the loop's own stack, for AddressSanitizer */
    size_t main_stack_size;
    uint64_t cycle;
    wm_sched_observer obs;
    void *obs_ctx;
    size_t page;
    /* stall detection: two snapshots of the wavelets in flight */
    unsigned idle_cycles;
    wm_flight *snap, *prev_snap;
    size_t snap_n, prev_snap_n, snap_cap;
    /* WM_PE_CORE: one image per kernel, loaded once */
    wm_firmware *fws;
    size_t nfws;
    bool cores_started, cores_collected;
    size_t census_halted; /* halted cores at the last full look at every core */
    wm_progress progress; /* the status line of a long run (waves/progress.h) */
    /* Messages in flight: native pushes and pops, or the cores' events
     * through the fabric's core hook while a run holds it (passed on to
     * the hook set before); kept when every push and pop went through. */
    wm_msg_flight msgs;
    bool msgs_wanted;     /* wm_sched_count_messages */
    bool msgs_kept;
    bool msgs_hooked;
    wm_core_hook prev_core_hook;
    void *prev_core_ctx;
};


/* scheduler.c */
bool wm_sched_snapshot_unchanged(wm_sched *s);
/* Both loops ask this once a cycle: stop now with WM_RUN_INTERRUPTED. */
bool wm_sched_interrupted(const wm_sched *s);
/* ... and this: draw the status line when one is due. */
void wm_sched_progress(wm_sched *s);

/* core_sched.c */
bool wm_core_sched_init(wm_sched *s);
wm_run_result wm_core_sched_run(wm_sched *s, uint64_t max_cycles);
void wm_core_sched_report_pe(const wm_sched *s, const wm_mp *mp, bool deadlocked, FILE *out);
void wm_core_sched_free(wm_sched *s);

#endif
