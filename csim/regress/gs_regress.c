/* gs_regress.c: gs_op scenarios for the lockstep regression. */
#include "regress/gs_regress.h"

#include <stdio.h>

const wm_gs_scenario wm_regress_gs_plan_grid = {WM_GS_GRID, 2, WM_RANK_SNAKE, WM_GS_PLAN, WM_PAIRING_NEKO,
                                                WM_PE_NATIVE};
const wm_gs_scenario wm_regress_gs_crystal_random = {WM_GS_RANDOM, 3, WM_RANK_ROWMAJOR, WM_GS_CRYSTAL,
                                                     WM_PAIRING_GSLIB, WM_PE_NATIVE};
const wm_gs_scenario wm_regress_gs_pairwise_chain = {WM_GS_CHAIN, 300, WM_RANK_SNAKE, WM_GS_PAIRWISE,
                                                     WM_PAIRING_NEKO, WM_PE_NATIVE};
const wm_gs_scenario wm_regress_core_gs_plan_grid = {WM_GS_GRID, 2, WM_RANK_SNAKE, WM_GS_PLAN, WM_PAIRING_NEKO,
                                                     WM_PE_CORE};
const wm_gs_scenario wm_regress_core_gs_crystal_random = {WM_GS_RANDOM, 3, WM_RANK_ROWMAJOR, WM_GS_CRYSTAL,
                                                          WM_PAIRING_GSLIB, WM_PE_CORE};
const wm_gs_scenario wm_regress_core_gs_pairwise_chain = {WM_GS_CHAIN, 300, WM_RANK_SNAKE, WM_GS_PAIRWISE,
                                                          WM_PAIRING_NEKO, WM_PE_CORE};
const wm_gs_scenario wm_regress_core_gs_plan_random = {WM_GS_RANDOM, 4, WM_RANK_ROWMAJOR, WM_GS_PLAN,
                                                       WM_PAIRING_GSLIB, WM_PE_CORE};

bool wm_gs_regress(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                   wm_regress_results *out)
{
    const wm_gs_scenario *sc = arg;
    const wm_gs_config cfg = {.w = w, .h = h, .order = sc->order, .method = sc->method, .pairing = sc->pairing,
                              .backend = ops, .pe = sc->pe};
    wm_gs_schedule *s = wm_gs_generate(sc->kind, w, h, sc->order, sc->dofs, 1);
    wm_gs_job *j = s ? wm_gs_job_create(&cfg, s, stderr) : NULL;
    wm_gs_result r;
    const bool ok = j && wm_gs_job_run_on(j, ops, f, false, &r, stderr);
    if (ok) {
        wm_regress_result(out, "gs setup cycles", r.setup_cycles);
        wm_regress_result(out, "gs_op cycles", r.op_cycles);
        wm_regress_result(out, "gs messages", r.messages);
        wm_regress_result(out, "gs wavelets", r.wavelets);
        wm_regress_result(out, "gs checksum", r.checksum);
        wm_regress_result(out, "gs matches the reference", r.matches_reference);
        wm_regress_fabric_state(ops, f, w, h, out);
    }
    wm_gs_job_destroy(j);
    wm_gs_schedule_destroy(s);
    return ok;
}
