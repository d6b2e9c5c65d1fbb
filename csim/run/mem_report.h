/* mem_report.h: where a run's memory goes, per PE (`wavemesh run
 * --mem-report`; docs/core.md, "Where a PE's bytes go").
 *
 * Two figures are measured: the process's peak resident set
 * (getrusage), and what the PEs touched of their own memory: on the
 * cores, the RAM pages the sw backend holds (each written by one core,
 * or shared by content and counted once); natively, the resident pages
 * of the kernels' stacks (mincore over their mapping). What the peak
 * holds beyond those two is the run's cost per PE: the ISS, the routers,
 * the queues and the scheduler, as they are allocated, and the rest (the
 * layout, the program, the allocator's slack). Taken after a run, before
 * the scheduler is destroyed. */
#ifndef WM_MEM_REPORT_H
#define WM_MEM_REPORT_H

#include "run/scheduler.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    size_t pes;           /* the layout's instances */
    unsigned w, h;        /* its mesh */
    size_t peak;          /* the process's peak resident set so far, bytes */
    size_t ram_own;       /* cores: RAM pages each written by one PE, bytes */
    size_t ram_shared;    /* cores: RAM pages read alike by several PEs, each counted once */
    size_t stack;         /* native: the kernels' stacks, resident bytes */
    bool fabric_told;     /* the backend accounts for its memory (sw); else the next four are 0 */
    wm_fabric_memory fabric;
    size_t data;          /* native: the data memories of the kernels that asked for one (wm_mp_mem), whole */
    size_t scheduler;     /* the scheduler: its PEs, their exports, the firmware images, the message counts */
} wm_mem_report;

/* The figures of scheduler s's run, now. */
void wm_mem_report_take(const wm_sched *s, wm_mem_report *out);
/* Bytes a PE of the peak resident set beyond the RAM and stack touched. */
double wm_mem_report_beyond(const wm_mem_report *r);
/* The table: the figures a PE, with the totals. */
void wm_mem_report_print(const wm_mem_report *r, FILE *out);

#endif
