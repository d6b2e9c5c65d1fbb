/* profile.h: where the cycles of one run went, PE by PE.
 *
 * A profile is read from one run (csim/profile/collect.c): every PE's cycles
 * from its start to its end cut into slices, each spent in one function
 * (on a core: the function whose code it executes, symbols from the
 * kernel's ELF; natively: the sw/mp.h call or the kernel's own compute that
 * charged it) and of one kind (executing, stalled on a full TX queue,
 * stalled on an empty RX queue, start-up); every message from its header's
 * push to its last wavelet's pop; and the run's critical path, a chain of
 * compute and message segments that tiles [0, last_event) with no gap and
 * no overlap. Everything in it is read from the fabric's ports, so a run on
 * the rtl and on the sw backend gives the same profile, byte for byte.
 *
 * The writers (text and CSV tables, Chrome trace-event JSON, folded stacks,
 * a PNG) only read it. */
#ifndef WM_PROFILE_H
#define WM_PROFILE_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    WM_PROF_EXEC = 0, /* executing instructions (core), or charged compute and port accesses (native) */
    WM_PROF_STALL_TX, /* waiting for room in a full TX queue */
    WM_PROF_STALL_RX, /* waiting for a wavelet in an empty RX queue */
    WM_PROF_STARTUP,  /* before the kernel's entry: crt0, the loader's work */
    WM_PROF_NKINDS
} wm_prof_kind;

/* Cycles [start, end) of one PE, spent in one function in one way. */
typedef struct {
    uint64_t start, end;
    uint32_t func; /* index into wm_profile.funcs */
    uint8_t kind;  /* wm_prof_kind */
} wm_prof_slice;

typedef struct {
    const char *instance; /* the layout's instance name */
    uint16_t x, y;
    uint64_t start, end;  /* the kernel's first cycle and one past its last */
    wm_prof_slice *slices; /* in time order, tiling [start, end) exactly */
    size_t nslices;
} wm_prof_pe;

/* One message, from the push of its header to the pop of its last wavelet. */
typedef struct {
    uint32_t from, to; /* PE indices (wm_profile.pes) */
    uint64_t sent;     /* the cycle its header was pushed into the sender's TX queue */
    uint64_t received; /* the cycle its last wavelet was popped from the receiver's RX queue */
    uint16_t len;      /* data wavelets */
    uint16_t hops;     /* links crossed: |dx| + |dy| */
} wm_prof_msg;

/* On the cores: the cycles given to the instruction at one PC, as the
 * slices give them (collect.h: the instruction that retires next, its
 * stalls included), summed over the PEs that run its kernel. */
typedef struct {
    uint32_t pc;
    uint32_t func; /* index into wm_profile.funcs: the symbol pc is in */
    uint64_t cycles[WM_PROF_NKINDS];
} wm_prof_pc;

/* On the cores: one kernel's cycles by PC, for a profile by source line
 * (profile/lines.h). Its PEs' spans add up to its PCs' cycles. */
typedef struct {
    const char *kernel; /* its name: build/firmware/KERNEL.elf */
    size_t npes;        /* the PEs that run it */
    uint64_t cycles;    /* their spans, end - start, summed */
    wm_prof_pc *pcs;    /* by PC, each with cycles */
    size_t npcs;
} wm_prof_kernel;

typedef enum { WM_SEG_COMPUTE = 0, WM_SEG_MESSAGE } wm_seg_kind;

/* One segment of the critical path: compute on pe over [start, end), or
 * message msg, sent at start and received at end. */
typedef struct {
    uint8_t kind; /* wm_seg_kind */
    uint32_t pe;  /* COMPUTE: the PE; MESSAGE: the receiver */
    uint32_t msg; /* MESSAGE: index into wm_profile.msgs */
    uint64_t start, end;
} wm_prof_segment;

typedef struct {
    const char *mode;   /* "native" or "core" */
    const char **funcs; /* function names, in first-seen order */
    size_t nfuncs;
    wm_prof_pe *pes;    /* the layout's kernel PEs, in layout order */
    size_t npes;
    wm_prof_msg *msgs;  /* in order of their header's push (cycle, then PE) */
    size_t nmsgs;
    wm_prof_kernel *kernels; /* on the cores, in order of first use; natively none */
    size_t nkernels;
    wm_prof_segment *path; /* from cycle 0 to last_event, in time order */
    size_t npath;
    /* a tie the walk broke: how many other PEs end at last_event too (the
     * walk starts at the first in layout order, and the output says so) */
    size_t path_end_ties;
    uint64_t last_event;   /* the run's last event: its last export or its last kernel's end */
    /* how the run ended, the word of run/ending.h ("returned", "fault",
     * "cycle-limit", ...; NULL: not said), and in which cycle: a run that
     * did not return is profiled up to there, and the files say so */
    const char *ending;
    const char *ending_phrase; /* the same for a sentence: "the cycle limit reached" */
    uint64_t end_cycle;
} wm_profile;

#endif
