/* plan_exec.h: a crystal plan carried out without the fabric.
 *
 * Moves the words exactly as the firmware runtime does (the same index
 * lists, the same buffers, the same reduction map), but by copying between
 * ranks in lockstep. It checks a plan on its own, before any firmware runs,
 * and is what the plan's unit tests compare with the reference. */
#ifndef WM_CRYSTAL_PLAN_EXEC_H
#define WM_CRYSTAL_PLAN_EXEC_H

#include "gs/plan_host.h"

#include <stdbool.h>
#include <stdio.h>

/* One gs_op(sum) on u[rank][dof] with plans[nranks]. False (message to
 * err) when the plans do not fit together. */
bool wm_cr_plan_execute_all(const wm_gs_schedule *s, const wm_cr_plan *plans, float *const *u, FILE *err);

#endif
