/* collect.h: a run's profile (profile.h), read while the run goes.
 *
 * Attach a profiler to a runner before its first run, finish it after:
 *
 *   wm_profiler *p = wm_profiler_attach(r, ops, err, sizeof err);
 *   wm_runner_run(r, max_cycles);
 *   wm_profile *prof = wm_profiler_finish(p, err, sizeof err);
 *
 * Natively, every cycle of a kernel is what the scheduler says it charged
 * (run/scheduler.h's wm_sched_profiler): each sw/mp.h call by name, the
 * kernel's own work (wm_mp_work and its code between calls) as its function
 * wm_kernel_NAME, a port access as the call that made it, the cycles a
 * push or a pop waited for its queue as stalls, and the start-up the cost
 * model charges before the kernel (WM_COST_START) as _start.
 *
 * On the cores, from the fabric's core hook (chained with the one set
 * before): a core's cycles from its start to the cycle after its last
 * retirement, each given to the instruction that retires next (a cycle
 * that retires nothing belongs to the instruction in X or being fetched);
 * an RX load's cycles before its pop and a TX store's before its push are
 * its stall (docs/core.md: such an access holds X one cycle for every cycle
 * its queue is empty or full); every cycle before the first instruction of
 * the kernel's function is start-up. The function is the ELF symbol at the
 * instruction's PC (waves/fw_syms.h). The same cycles are counted by that
 * PC too, per kernel over its PEs (profile.h, wm_prof_kernel), for the
 * profile by source line (lines.h).
 *
 * Messages are framed at the ports, as run/msg_flight.h frames them: each
 * PE's pushes (a header, then its len data wavelets) and each PE's pops.
 * A header names its destination, not its source, so a message popped at
 * q is matched to the unmatched send to q with the same header and data
 * wavelets that was pushed first: exact whenever two messages in flight to
 * one PE differ in a wavelet (every sender's messages to one PE arrive in
 * the order it sent them). A message never popped whole is left out.
 *
 * The profile's function list is in order of first use, PE by PE in
 * layout order: everything in it is read from the ports, so it is the same
 * on both backends, byte for byte.
 *
 * A run partitioned over the ranks of an MPI job (mpi/partition.h): each
 * rank hears of its own block's PEs only; when it ends, each closes its
 * PEs and sends their slices, port accesses and cycles by PC to rank 0,
 * which frames and matches the messages and builds the profile one
 * process would have built. */
#ifndef WM_PROFILE_COLLECT_H
#define WM_PROFILE_COLLECT_H

#include "profile/profile.h"
#include "run/runner.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct wm_profiler wm_profiler;

/* Listen to runner r (made on ops, not yet run); NULL with the reason in
 * err (a kernel's ELF missing or unreadable, on the cores). */
WM_MUST_USE wm_profiler *wm_profiler_attach(wm_runner *r, const wm_fabric_ops *ops, char *err, size_t err_size);
/* After the run: stop listening and build the profile, the critical path
 * included (critical_path.h). A kernel not done when the run ended ends
 * at the run's last cycle, its last cycles given to what it waits for.
 * Destroys p. NULL with the reason in err. */
WM_MUST_USE wm_profile *wm_profiler_finish(wm_profiler *p, char *err, size_t err_size);
/* The same for a scheduler of ops over fabric f that its caller made
 * (the regression's scenarios), not yet run. */
WM_MUST_USE wm_profiler *wm_profiler_attach_sched(wm_sched *s, const wm_fabric_ops *ops, wm_fabric *f, char *err,
                                                  size_t err_size);
/* Stop listening without a profile (after a failure). */
void wm_profiler_destroy(wm_profiler *p);

void wm_profile_free(wm_profile *p);

/* A profiled run of a layout, for the command and the tests: the runner
 * made, profiled and run, and when the run does not end with every kernel
 * done, why, on report (if not NULL; run/scheduler.h's wm_sched_report);
 * *result says how it ended. The profile points into nothing of the
 * layout's. NULL with the reason in err (a runner that cannot be made says
 * why on stderr too). */
WM_MUST_USE wm_profile *wm_profile_layout(const wm_fabric_ops *ops, const wm_layout *layout, wm_pe_mode mode,
                                          uint64_t max_cycles, FILE *report, wm_run_result *result, char *err,
                                          size_t err_size);
/* The same, partitioned over the ranks of part (NULL: the whole fabric
 * here) as wm_runner_create_banded makes it: every rank calls it; rank 0
 * gets the whole profile, the others NULL with err empty. report: rank
 * 0's only, NULL on the others. */
WM_MUST_USE wm_profile *wm_profile_layout_banded(const wm_fabric_ops *ops, const wm_layout *layout, wm_pe_mode mode,
                                                 wm_partition *part, uint64_t max_cycles, FILE *report,
                                                 wm_run_result *result, char *err, size_t err_size);

#endif
