/* profile_regress.c: a scenario's profile among its results (see profile_regress.h). */
#include "regress/profile_regress.h"

#include "profile/check.h"
#include "profile/table.h"

#include <stdio.h>

wm_profiler *wm_regress_profile_begin(wm_sched *s, const wm_fabric_ops *ops, wm_fabric *f)
{
    char err[400];
    wm_profiler *p = wm_profiler_attach_sched(s, ops, f, err, sizeof err);
    if (!p) fprintf(stderr, "regress: profile: %s\n", err);
    return p;
}

void wm_regress_profile_end(wm_profiler *p, wm_regress_results *out)
{
    char err[400];
    wm_profile *prof = wm_profiler_finish(p, err, sizeof err);
    if (!prof) {
        fprintf(stderr, "regress: profile: %s\n", err);
        wm_regress_result(out, "profile", 0);
        return;
    }
    if (!wm_profile_check_invariants(prof, err, sizeof err)) {
        char why[sizeof err + 40];
        snprintf(why, sizeof why, "the profile breaks an invariant: %s", err);
        wm_regress_fault(out, why);
    }
    wm_regress_result(out, "profile digest", wm_profile_digest(prof));
    wm_regress_result(out, "profile critical path cycles", wm_profile_path_cycles(prof));
    wm_regress_result(out, "profile last event", prof->last_event);
    wm_regress_result(out, "profile messages", prof->nmsgs);
    wm_profile_free(prof);
}
