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
 *   fold      the folding crystal router: contributions to one dof added
 *             at the relays on the way to its owner, the sum sent back
 *   auto      the fastest of the others, timed on the fabric in the setup
 * The first three reduce at the destination in ascending origin rank
 * order; fold in the order of its bisection (docs/crystal.md). */
#ifndef WM_GS_METHODS_H
#define WM_GS_METHODS_H

#include "crystal/pairing.h"
#include "gs_image.h"
#include "heap.h"
#include "mp.h"
#include "xfer.h"

typedef struct {
    wm_mp *mp;
    uint32_t *mem;     /* the PE's data memory */
    wm_gs_image *img;  /* at its start */
    wm_heap heap;
    unsigned rank;
    /* The auto method's set-up runs every candidate through one port that
     * keeps what arrives early (the next all-reduce's or candidate's
     * messages); NULL: each method opens its own. */
    wm_xfer_port *port;
} wm_gs_rank;

/* count elements of size bytes from the heap, zeroed, or a firmware fault
 * naming the rank. */
void *wm_gs_take(wm_gs_rank *g, uint32_t count, uint32_t size);

/* The port a method runs on: g->port if set, else own, opened here. */
wm_xfer_port *wm_gs_port_open(wm_gs_rank *g, wm_xfer_port *own, bool allow_stash);
/* Done with it: a port of the method's own writes its counts and
 * active_stages into the image and gives its heap back. */
void wm_gs_port_close(wm_gs_rank *g, wm_xfer_port *port, unsigned active_stages);

/* One stage's exchange with a size negotiation under tags 2 * stage (the
 * count) and 2 * stage + 1 (the words): send nout words to step->dst (if
 * any), take what src and src2 send into buffers taken from the heap. */
typedef struct {
    uint32_t *words[2];
    uint32_t len[2];
} wm_gs_stage_in;
void wm_gs_negotiated_stage(wm_gs_rank *g, wm_xfer_port *port, unsigned stage, const wm_stage_step *step,
                            uint32_t *out, uint32_t nout, wm_gs_stage_in *in);

/* u = the canonical sums, from the words delivered at offsets of buf. */
void wm_gs_apply_reduction(wm_gs_rank *g, const uint32_t *offsets, const uint32_t *buf);

/* to[k] = from[idx[k]] for k < n: the methods' gather of dofs into a send
 * buffer (its cost, WM_GS_COST_COPY a word, is timed on this function). */
void wm_gs_gather(uint32_t *to, const uint32_t *from, const uint32_t *idx, uint32_t n);

/* The work of pairwise, crystal and plan for the rank in its image's
 * phase (the method and pairing rule its image names). */
void wm_gs_rank_setup(wm_gs_rank *g);
void wm_gs_rank_op(wm_gs_rank *g);

/* The folding crystal router's gs_op (fold.c). */
void wm_gs_fold_op(wm_gs_rank *g);

/* What the kernel runs for the rank's method in its image's phase
 * (autotune.c). Auto's set-up times every candidate on the fabric and
 * keeps the fastest; its gs_op runs that one. */
void wm_gs_run(wm_gs_rank *g);

#endif
