/* profile_regress.h: a scenario's profile (csim/profile/) among its result
 * words, so that the regression compares the profile of a run on the two
 * backends as it compares their link events: the digest of its text, the
 * critical path's cycles, the run's last event and its messages; and its
 * invariants checked (profile/check.h), whatever the backends say. The
 * collectives scenarios (the seed's rows, natively and on the cores, and
 * the generated trees) and the firmware streams record it. */
#ifndef WM_PROFILE_REGRESS_H
#define WM_PROFILE_REGRESS_H

#include "profile/collect.h"
#include "regress/regress.h"
#include "core/must_use.h"

/* Profile scheduler s over fabric f from its first run; NULL after a
 * message on stderr. */
WM_MUST_USE wm_profiler *wm_regress_profile_begin(wm_sched *s, const wm_fabric_ops *ops, wm_fabric *f);
/* After the run: the profile's result words into out; a profile that
 * breaks one of its invariants (profile/check.h) fails the scenario. */
void wm_regress_profile_end(wm_profiler *p, wm_regress_results *out);

#endif
