/* check.h: the writers' common test that a profile is whole. */
#ifndef WM_PROFILE_CHECK_H
#define WM_PROFILE_CHECK_H

#include "core/must_use.h"
#include "profile/profile.h"

#include <stdbool.h>
#include <stddef.h>

/* Every index of p points inside it, every function and PE has a name and
 * no slice or segment ends before it starts; false with the first fault in
 * err. */
WM_MUST_USE bool wm_profile_check(const wm_profile *p, char *err, size_t err_size);

/* The invariants a profile obeys, whatever run it is of; false with the
 * first one broken in err, naming the PE, slice, message or segment:
 *   - it is whole (wm_profile_check);
 *   - every PE's slices are non-empty and tile [start, end), its table
 *     (table.h) adds up to end - start, the run's table to the sum of
 *     those, and no PE ends after the run's last event;
 *   - every message is received after it is sent, and the messages are in
 *     the order of their sends;
 *   - the critical path (critical_path.h) is empty for a run without a
 *     cycle; otherwise its segments are non-empty and contiguous from
 *     cycle 0 to the last event, so they sum to the run; a message
 *     segment is its message's [sent, received) on its receiver; compute
 *     and message alternate, except that two messages meet where a PE
 *     sends in the cycle it popped (the compute between them would be
 *     empty); each segment starts on the PE the one before it ends on (a
 *     message starts on its sender, ends on its receiver); and the path
 *     ends on the first PE to end at the last event.
 * That the rtl and the sw backend give the same profile is the regression's
 * to check (regress/profile_regress.h compares their digests). */
WM_MUST_USE bool wm_profile_check_invariants(const wm_profile *p, char *err, size_t err_size);

#endif
