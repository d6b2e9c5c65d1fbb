/* reference.h: what gs_op(sum) must give, computed without the fabric.
 *
 * The reference ignores the send and receive lists: it groups the copies
 * of each global id across all ranks and adds them in ascending rank order,
 * starting from the lowest rank's copy. Every method must match it bit for
 * bit, which holds only because every method reduces at the destination in
 * that same order (docs/crystal.md). */
#ifndef WM_GS_REFERENCE_H
#define WM_GS_REFERENCE_H

#include "crystal/pairing.h"
#include "gs/schedule.h"

#include <stdbool.h>
#include <stdint.h>

/* The value rank's local dof starts with: deterministic, with magnitudes
 * spread over many binades, so that adding in another order would change
 * the rounding. */
float wm_gs_initial_value(unsigned rank, size_t dof);

/* Fill u[r][d] with wm_gs_initial_value for every rank and dof. */
void wm_gs_fill_initial(const wm_gs_schedule *s, float *const *u);

/* Replace u[r][d] by the sum over all copies of its global id. False if
 * out of memory. */
bool wm_gs_reference_sum(const wm_gs_schedule *s, float *const *u);

/* Replace u[r][d] by the sum the folding crystal router gives under rule
 * (docs/crystal.md, "The folding router's order"): the copies of a global
 * id start at their holders and travel the recursive bisection towards
 * the lowest holder; where two or three meet at a rank in a stage they
 * are added as kept + from src + from src2 (wm_stage_step_of's partners),
 * and every copy ends as the sum the lowest holder is left with. Works
 * from the global ids alone, like wm_gs_reference_sum. False if out of
 * memory. */
bool wm_gs_reference_fold(const wm_gs_schedule *s, wm_pairing rule, float *const *u);

/* FNV-1a over the float bits of every rank's dofs, in rank order. */
uint64_t wm_gs_checksum(const wm_gs_schedule *s, float *const *u);

/* Per-rank value arrays for s, zeroed; free with wm_gs_values_free. */
float **wm_gs_values_alloc(const wm_gs_schedule *s);
void wm_gs_values_free(const wm_gs_schedule *s, float **u);

#endif
