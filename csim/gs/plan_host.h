/* plan_host.h: crystal plans as the host sees them.
 *
 * The firmware builds a rank's plan in its PE's memory (sw/crystal/plan.h).
 * Here a plan is read back into host arrays (wm_cr_plan_read), and every
 * rank's plan can be built without the fabric (wm_cr_plan_all: the same
 * firmware builder, each rank on a memory image of its own, the metadata
 * copied from rank to rank in lockstep), so the tests can compare the two
 * and carry a plan out by hand (plan_exec.h). */
#ifndef WM_GS_PLAN_HOST_H
#define WM_GS_PLAN_HOST_H

#include "crystal/pairing.h"
#include "gs/reduction.h"
#include "gs/schedule.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One active stage of one rank. */
typedef struct {
    unsigned stage;        /* its number in the full bisection, from 0 */
    int dst, src, src2;    /* -1: nothing that way in this stage */
    uint32_t nkw, nsw;     /* words kept and sent */
    uint32_t nrw, nr2w;    /* words received from src and from src2 */
    uint32_t *keep_idx;    /* nkw positions in the previous buffer (or u) */
    uint32_t *send_idx;    /* nsw positions, in send order */
} wm_cr_stage;

typedef struct {
    unsigned rank;
    unsigned full_stages;  /* stages of the bisection this rank went through */
    size_t nstages;        /* active ones, in order */
    wm_cr_stage *stages;
    uint32_t max_send;     /* largest nsw */
    size_t buffer_words;   /* sum of the stages' list buffers */
    wm_gs_reduction reduce; /* over the last stage's buffer */
} wm_cr_plan;

void wm_cr_plan_free(wm_cr_plan *p);
/* Two plans are the same: stages, counts, index lists and reduction map. */
bool wm_cr_plan_equal(const wm_cr_plan *a, const wm_cr_plan *b);

/* The plan the firmware left in a PE's data memory (mem holds a gs image
 * whose setup has run). False if there is none or out of memory. */
WM_MUST_USE bool wm_cr_plan_read(const uint32_t *mem, wm_cr_plan *plan);

/* Every rank's plan, the pass run without the fabric. plans[nranks]. */
bool wm_cr_plan_all(const wm_gs_schedule *s, wm_pairing rule, wm_cr_plan *plans, FILE *err);

#endif
