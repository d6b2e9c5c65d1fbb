/* gs_regress.h: gs_op runs as `wavemesh regress` scenarios: the firmware of
 * each method on both backends, compared by link trace, the run's cycles,
 * messages and checksum, and the final fabric state (csim/regress/regress.h). */
#ifndef WM_GS_REGRESS_H
#define WM_GS_REGRESS_H

#include "gs/generate.h"
#include "gs/job.h"
#include "regress/regress.h"

typedef struct {
    wm_gs_kind kind;
    unsigned dofs;
    wm_rank_order order;
    wm_gs_method method;
    wm_pairing pairing;
    wm_pe_mode pe;      /* WM_PE_CORE: the gs firmware on the cores (the scenario's `cores` too) */
} wm_gs_scenario;

bool wm_gs_regress(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                   wm_regress_results *out);

extern const wm_gs_scenario wm_regress_gs_plan_grid, wm_regress_gs_crystal_random, wm_regress_gs_pairwise_chain;
/* The same three on the cores, and the plan on a random schedule. */
extern const wm_gs_scenario wm_regress_core_gs_plan_grid, wm_regress_core_gs_crystal_random,
    wm_regress_core_gs_pairwise_chain, wm_regress_core_gs_plan_random;

#endif
