/* pairing.h: one recursive-bisection stage of the crystal router.
 *
 * Every rank keeps a range [lo, hi) that contains it, starting at [0, P).
 * A stage runs while the range holds more than one rank: it is cut in two,
 * each rank hands the records bound for the other half to one partner and
 * takes the partner's records bound for its own half, and the range shrinks
 * to the rank's half. All ranks of a range compute the same cut, so the
 * partners agree. Two rules (both from the reference summary, section 1):
 *
 * Neko (the default): half = (hi-lo)/2, cut = lo + half, the lower half is
 *   the smaller. Shift pairing: lower r <-> cut + (r - lo). In an odd range
 *   the last upper rank hi-1 has no partner: it sends to lo and receives
 *   nothing, and lo receives twice.
 * gslib: cut = lo + ceil((hi-lo)/2), the lower half is the larger. Mirror
 *   pairing: r <-> lo + hi - 1 - r. In an odd range the middle rank cut-1
 *   is its own mirror: it sends to cut and receives nothing, and cut
 *   receives twice. */
#ifndef WM_CRYSTAL_PAIRING_H
#define WM_CRYSTAL_PAIRING_H

#include <stdbool.h>

typedef enum { WM_PAIRING_NEKO = 0, WM_PAIRING_GSLIB = 1 } wm_pairing;


/* What one rank does in one stage. A direction without a peer is -1. */
typedef struct {
    int dst;         /* the rank this one sends its other-half records to */
    int src;         /* the rank it receives from */
    int src2;        /* the second sender of an odd range, or -1 */
    unsigned cut;    /* records with destination < cut belong to the lower half */
    unsigned lo, hi; /* the rank's range after the stage */
} wm_stage_step;

/* The stage of rank in range [lo, hi); false when hi - lo <= 1 (done). */
bool wm_stage_step_of(wm_pairing rule, unsigned lo, unsigned hi, unsigned rank, wm_stage_step *step);

/* ceil(log2 nranks): the most stages any rank goes through. */
unsigned wm_stage_count(unsigned nranks);

#endif
