/* methods.h: what one gs rank runs, private to sw/gs.
 *
 * Everything a rank needs is in its PE's memory (gs_image.h): its dofs,
 * lists, places and reduction template, and the heap its lists grow in.
 * Methods (docs/crystal.md):
 *   pairwise  every rank sends one transfer to each peer directly
 *   crystal   the setup-phase crystal router: records [dest, origin, len,
 *             payload] routed in ceil(log2 P) bisection stages, each stage's
 *             size negotiated over the fabric
 *   plan      the crystal plan: symbolic pass in the setup run, then a
 *             fixed sequence of sends and receives of known size
 * All three reduce at the destination in ascending origin rank order. */
#ifndef WM_GS_METHODS_H
#define WM_GS_METHODS_H

#include "gs_image.h"
#include "heap.h"
#include "mp.h"

typedef struct {
    wm_mp *mp;
    uint32_t *mem;     /* the PE's data memory */
    wm_gs_image *img;  /* at its start */
    wm_heap heap;
    unsigned rank;
} wm_gs_rank;

/* to[k] = from[idx[k]] for k < n: the methods' gather of dofs into a send
 * buffer (its cost, WM_GS_COST_COPY a word, is timed on this function). */
void wm_gs_gather(uint32_t *to, const uint32_t *from, const uint32_t *idx, uint32_t n);

/* The method's work for the rank in its image's phase. */
void wm_gs_rank_setup(wm_gs_rank *g);
void wm_gs_rank_op(wm_gs_rank *g);

#endif
