/* reduction.h: the reduction at the destination, in canonical order, as
 * the host sees it: maps built from a schedule and applied to host arrays
 * (the firmware applies the same maps from its image, sw/gs/reduce.h).
 *
 * Once a rank holds every record bound for it in a receive buffer, each
 * shared local dof becomes the sum of its copies: its own value and one
 * word of each record that carries it, added in ascending origin rank
 * order with the rank's own value at its own rank's place. The map below
 * fixes, once, where each term comes from, so the runtime is one indexed
 * gather-add per term in that order. The pairwise backend, the setup-phase
 * router and the crystal plan all apply a map built here, which is what
 * makes their float32 results bitwise identical. */
#ifndef WM_GS_REDUCTION_H
#define WM_GS_REDUCTION_H

#include "gs/reduce.h" /* wm_gs_delivered, WM_GS_OWN: the firmware's */
#include "gs/schedule.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    size_t ndofs;     /* dofs with at least one remote copy */
    uint32_t *dof;    /* their local indices, ascending */
    uint32_t *start;  /* ndofs + 1 offsets into term */
    uint32_t *term;   /* buffer positions (or WM_GS_OWN), canonical order */
    size_t nterms;
} wm_gs_reduction;

/* Build rank's map from the records it was delivered (in any order).
 * Checks what the reference summary's cr_final_dofs checks: one record
 * per peer rank receives from, each as long as the receive list; prints
 * the first problem (naming rank and origin) to err and returns false. */
WM_MUST_USE
bool wm_gs_reduction_build(const wm_gs_schedule *s, unsigned rank, const wm_gs_delivered *recs, size_t nrecs,
                           wm_gs_reduction *out, FILE *err);
void wm_gs_reduction_free(wm_gs_reduction *r);

/* Apply it: u[dof] = sum of its terms, buf holding float32 bits. */
void wm_gs_reduction_apply(const wm_gs_reduction *r, float *u, const uint32_t *buf);

#endif
