/* random_regress.h: a random scenario (random_scenario.h) run by the
 * lockstep regression like any scenario of the corpus: the same ops on
 * both backends, link traces, the cores' events, results and the final
 * fabric state compared (regress.h). */
#ifndef WM_RANDOM_REGRESS_H
#define WM_RANDOM_REGRESS_H

#include "regress/random_scenario.h"
#include "regress/regress.h"

/* The regression's view of rs, which must outlive it: name (a string that
 * outlives it too), mesh, cores, the cycle cap. */
wm_regress_scenario wm_random_regress_scenario(const wm_random_scenario *rs, const char *name);

/* Runs rs on both backends and compares (wm_regress_run). */
void wm_random_regress_run(const wm_random_scenario *rs, const char *name, const wm_fabric_ops *expected,
                           const wm_fabric_ops *got, wm_regress_report *rep);

/* Router-cycles (tiles x cycles) the expected backend ran in the last
 * report's scenario: the figure behind a campaign's throughput. */
static inline uint64_t wm_random_router_cycles(const wm_random_scenario *rs, const wm_regress_report *rep)
{
    return (uint64_t)rs->w * rs->h * rep->cycles;
}

#endif
