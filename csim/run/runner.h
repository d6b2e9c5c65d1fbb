/* runner.h: a layout run end to end, shared by `run`, `rows`, the tests and
 * the benchmarks: a fabric of the layout's size with its message-passing
 * region, the scheduler over it, and the results printed as
 * `instance.symbol = value` plus the seed's per-leaf cycles table. */
#ifndef WM_RUNNER_H
#define WM_RUNNER_H

#include "fabric/fabric.h"
#include "run/layout.h"
#include "run/scheduler.h"
#include "waves/waves.h"
#include "core/must_use.h"

#include <stdint.h>
#include <stdio.h>

typedef struct wm_runner wm_runner;

/* NULL (with a message on stderr) if the fabric cannot be made. */
WM_MUST_USE wm_runner *wm_runner_create(const wm_fabric_ops *ops, const wm_layout *layout);
/* The same with a waves dump when trace->path is set (csim/waves/waves.h): tiles
 * named after their instances, each kernel's state and exports. */
WM_MUST_USE
wm_runner *wm_runner_create_traced(const wm_fabric_ops *ops, const wm_layout *layout, const wm_trace_spec *trace);
/* Either, in PE mode `mode` (trace may be NULL): WM_PE_CORE makes a fabric
 * of tiles with cores and runs each instance's firmware on its core. */
WM_MUST_USE
wm_runner *wm_runner_create_mode(const wm_fabric_ops *ops, const wm_layout *layout, const wm_trace_spec *trace,
                                 wm_pe_mode mode);
/* One band of the layout's fabric, partitioned over the ranks of an MPI
 * job (mpi/partition.h): this rank's rows and the PEs on them. With
 * trace->path (trace may be NULL), a dump of trace's tiles that lie in the
 * block, with the signals one process dumps for them, to the rank's own
 * file (wm_trace_spec_of_block); a block holding none of them dumps
 * nothing. Every rank runs it alike; rank 0 then holds every PE's results
 * and prints them as one process would (wm_sched_create_banded). */
WM_MUST_USE
wm_runner *wm_runner_create_banded(const wm_fabric_ops *ops, const wm_layout *layout, wm_pe_mode mode,
                                   wm_partition *part, const wm_trace_spec *trace);
/* Close the dump, if any; false after a message on stderr. */
WM_MUST_USE bool wm_runner_finish(wm_runner *r);
void wm_runner_destroy(wm_runner *r);
wm_run_result wm_runner_run(wm_runner *r, uint64_t max_cycles);
wm_sched *wm_runner_sched(wm_runner *r);
wm_fabric *wm_runner_fabric(wm_runner *r);

/* Every export, one `instance.symbol = value` line, in layout order. */
void wm_runner_print_results(const wm_runner *r, FILE *out);

/* The instances that exported t0 and t1 (the leaves), in layout order, with
 * t1 - t0: the cycles from the leaf's send to the arrival of its prefix.
 * Returns how many, filling at most max of names and cycles. */
size_t wm_runner_leaf_cycles(const wm_runner *r, const char **names, int64_t *cycles, size_t max);
/* The largest t1: the cycle the last prefix arrived; -1 if none. */
int64_t wm_runner_last_prefix(const wm_runner *r);
/* The table: a line of names and a line of cycles, labelled. */
void wm_runner_print_cycles(const wm_runner *r, const char *label, FILE *out);
/* The cycle each kernel returned in (`-` for one that did not), a line of
 * instance names and a line of cycles, labelled. */
void wm_runner_print_ends(const wm_runner *r, const char *label, FILE *out);

#endif
