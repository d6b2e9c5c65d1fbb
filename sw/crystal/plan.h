/* plan.h: the crystal router's routing plan, built by the firmware.
 *
 * The peer set of a halo exchange is fixed, so the route every record takes
 * is the same for every gs operation. The symbolic pass runs the recursive
 * bisection over record metadata alone, (destination, origin, length), one
 * record per (rank, peer) slab, and writes down per stage: the partners,
 * the exact word counts and the index lists that move the words. Stages
 * where a rank neither sends nor receives are dropped from its plan. The
 * runtime (sw/gs/methods.c) is then a fixed sequence of sends and receives
 * of known size plus indexed gathers.
 *
 * The pass is split so that the fabric can carry it: a builder per rank
 * splits its records for the stage, the caller moves the outgoing metadata
 * to the partner however it likes (messages on the fabric in the firmware,
 * plain copies on the host, csim/gs/plan_host.c), and the builder merges
 * what came in. The builder reads the rank's send lists from its image and
 * keeps everything in the PE's heap; the plan it leaves there is made of
 * word offsets, so the host can read it back whatever ran the kernel.
 *
 * Buffers: the first active stage gathers from u directly (its index lists
 * are composed with the pack order); active stage k >= 1 reads the list
 * buffer of stage k-1. Stage k's list buffer is kept ++ from src ++ from
 * src2: nkw + nrw + nr2w words. The last stage's buffer holds every record
 * bound for this rank, at the offsets the plan keeps for the reduction. */
#ifndef WM_CRYSTAL_PLAN_H
#define WM_CRYSTAL_PLAN_H

#include "gs/gs_image.h"
#include "gs/heap.h"
#include "gs/reduce.h"
#include "pairing.h"

#include <stdbool.h>
#include <stdint.h>

/* Metadata of one record in flight: three words on the fabric. */
typedef struct {
    uint32_t dest, origin, len;
} wm_cr_record;
enum { WM_CR_RECORD_WORDS = 3 };

/* One active stage of one rank, in the PE's memory. */
typedef struct {
    uint32_t stage;        /* its number in the full bisection, from 0 */
    int32_t dst, src, src2; /* -1: nothing that way in this stage */
    uint32_t nkw, nsw;     /* words kept and sent */
    uint32_t nrw, nr2w;    /* words received from src and from src2 */
    uint32_t keep_at;      /* nkw positions in the previous buffer (or u) */
    uint32_t send_at;      /* nsw positions, in send order */
} wm_cr_mstage;

/* A rank's plan, in the PE's memory. */
typedef struct {
    uint32_t rank;
    uint32_t full_stages;  /* stages of the bisection this rank went through */
    uint32_t nstages;      /* active ones, at stages_at */
    uint32_t stages_at;
    uint32_t max_send;     /* largest nsw */
    uint32_t buffer_words; /* sum of the stages' list buffers */
    uint32_t offsets_at;   /* per receive list: its record in the last buffer */
} wm_cr_mplan;

typedef struct {
    void *items;
    uint32_t n, cap;
} wm_cr_vec;

typedef struct {
    wm_heap *heap;
    const wm_gs_image *img;
    uint32_t *mem;
    unsigned lo, hi, stage;
    wm_cr_vec list;      /* wm_cr_record, the records held, in buffer order */
    wm_cr_vec pack;      /* uint32_t: u position of each word of the initial list */
    bool any_active;
    wm_stage_step step;  /* the stage in progress */
    wm_cr_vec out;       /* wm_cr_record */
    wm_cr_vec kept;      /* wm_cr_record */
    wm_cr_vec keep_idx, send_idx; /* uint32_t */
    wm_cr_vec stages;    /* wm_cr_mstage, the active ones */
} wm_cr_builder;

typedef enum {
    WM_CR_OK = 0,
    WM_CR_NO_MEMORY,     /* the PE's heap is full */
    WM_CR_STRAY,         /* a record from a bound for b is left at the end */
    WM_CR_DELIVERY       /* the records left do not match the receive lists */
} wm_cr_status;

typedef struct {
    wm_cr_status status;
    uint32_t a, b;
    wm_gs_delivery delivery;
} wm_cr_result;

/* The symbolic pass for the rank of image img (in mem), on heap. */
bool wm_cr_builder_init(wm_cr_builder *b, wm_heap *heap, const wm_gs_image *img, uint32_t *mem);
/* Start the next stage: false when the rank's range is down to itself.
 * Fills step and splits the records; out/nout are the ones to hand to
 * step->dst (valid until the next call). *ok false: out of memory. */
bool wm_cr_builder_stage(wm_cr_builder *b, wm_stage_step *step, const wm_cr_record **out, uint32_t *nout, bool *ok);
/* Finish the stage with the records taken from src and src2. */
bool wm_cr_builder_take(wm_cr_builder *b, const wm_cr_record *from_src, uint32_t nsrc, const wm_cr_record *from_src2,
                        uint32_t nsrc2);
/* The plan, once every stage is done, at *plan in the heap; the records
 * left must all be bound here. The builder's scratch is given back either
 * way (and the stages too on failure). */
wm_cr_result wm_cr_builder_finish(wm_cr_builder *b, wm_cr_mplan **plan);

#endif
