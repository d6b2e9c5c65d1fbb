/* plan.h: the crystal router's routing plan for one gs schedule.
 *
 * The peer set of a halo exchange is fixed, so the route every record takes
 * is the same for every gs operation. The symbolic pass runs the recursive
 * bisection over record metadata alone, (destination, origin, length), one
 * record per (rank, peer) slab, and writes down per stage: the partners,
 * the exact word counts and the index lists that move the words. Stages
 * where a rank neither sends nor receives are dropped from its plan. The
 * runtime (sw/gs/gs_kernels.c) is then a fixed sequence of sends and
 * receives of known size plus indexed gathers.
 *
 * The pass is split so that the fabric can carry it: a builder per rank
 * splits its records for the stage, the caller moves the outgoing metadata
 * to the partner however it likes (messages on the fabric in the firmware,
 * plain copies in wm_cr_plan_all), and the builder merges what came in.
 *
 * Buffers: the first active stage gathers from u directly (its index lists
 * are composed with the pack order); active stage k >= 1 reads the list
 * buffer of stage k-1. Stage k's list buffer is kept ++ from src ++ from
 * src2: nkw + nrw + nr2w words. The last stage's buffer holds every record
 * bound for this rank, and the reduction map reads it. */
#ifndef WM_CRYSTAL_PLAN_H
#define WM_CRYSTAL_PLAN_H

#include "gs/reduce.h"
#include "gs/schedule.h"
#include "pairing.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Metadata of one record in flight: three words on the fabric. */
typedef struct {
    uint32_t dest, origin, len;
} wm_cr_record;

enum { WM_CR_RECORD_WORDS = 3 };

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

typedef struct wm_cr_builder wm_cr_builder;

/* The symbolic pass for one rank of schedule s. NULL if out of memory. */
wm_cr_builder *wm_cr_builder_create(const wm_gs_schedule *s, unsigned rank, wm_pairing rule);
void wm_cr_builder_destroy(wm_cr_builder *b);

/* Start the next stage: false when the rank's range is down to itself.
 * Fills step and splits the records; out/nout are the ones to hand to
 * step->dst (valid until the next call). */
bool wm_cr_builder_stage(wm_cr_builder *b, wm_stage_step *step, const wm_cr_record **out, size_t *nout);

/* Finish the stage with the records taken from src and src2. */
bool wm_cr_builder_take(wm_cr_builder *b, const wm_cr_record *from_src, size_t nsrc, const wm_cr_record *from_src2,
                        size_t nsrc2);

/* The plan, once every stage is done; the records left must all be bound
 * here (checked, message to err). The builder keeps nothing of it. */
bool wm_cr_builder_finish(wm_cr_builder *b, wm_cr_plan *plan, FILE *err);

/* Every rank's plan, the pass run without the fabric: stage by stage in
 * lockstep, metadata copied from rank to rank. plans[nranks]. */
bool wm_cr_plan_all(const wm_gs_schedule *s, wm_pairing rule, wm_cr_plan *plans, FILE *err);

#endif
