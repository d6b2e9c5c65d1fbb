/* gs_image.h: what a gs rank's PE memory holds, word by word.
 *
 * The host writes the image before the setup run (csim/gs/image.c) and
 * reads the results back after the gs_op run; the kernel finds everything
 * it needs here and nowhere else. All fields are 32-bit words and every
 * "_at" is a word offset from the start of the PE's data memory, so the
 * layout is the same whatever runs the kernel (docs/pe-memory.md). */
#ifndef WM_GS_IMAGE_H
#define WM_GS_IMAGE_H

#include <stdint.h>

enum { WM_GS_IMAGE_MAGIC = 0x67736931u }; /* "gsi1" */

/* A term of the reduction template that is the dof's own value. */
#define WM_GS_OWN 0xffffffffu

typedef enum { WM_GS_PHASE_SETUP = 0, WM_GS_PHASE_OP = 1 } wm_gs_phase;
typedef enum { WM_GS_PAIRWISE = 0, WM_GS_CRYSTAL = 1, WM_GS_PLAN = 2, WM_GS_FOLD = 3, WM_GS_AUTO = 4 } wm_gs_method;

/* The candidates of the auto method, in the order they run and are
 * listed: candidate c is method wm_gs_candidate_method(c) under pairing
 * rule wm_gs_candidate_pairing(c) (0 neko, 1 gslib; pairwise has none). */
enum { WM_GS_CANDIDATES = 7 };
static inline wm_gs_method wm_gs_candidate_method(unsigned c)
{
    return c == 0 ? WM_GS_PAIRWISE : c <= 2 ? WM_GS_CRYSTAL : c <= 4 ? WM_GS_PLAN : WM_GS_FOLD;
}
static inline unsigned wm_gs_candidate_pairing(unsigned c) { return c == 0 ? 0 : (c - 1) % 2; }

/* What the auto method's set-up leaves in the image for the gs_op and the
 * host: every rank writes the same. */
typedef struct {
    uint32_t choice;                   /* the candidate kept */
    uint32_t cycles[WM_GS_CANDIDATES]; /* each one's gs_op, the most any rank took */
    uint32_t plan_at[2];               /* the crystal plan of each pairing rule (0: given back) */
} wm_gs_auto;
enum { WM_GS_AUTO_WORDS = sizeof(wm_gs_auto) / 4 };

typedef struct {
    uint32_t magic;
    uint32_t rank, nranks;
    uint32_t method;          /* wm_gs_method */
    uint32_t pairing;         /* wm_pairing */
    uint32_t phase;           /* wm_gs_phase: set by the host before each run */
    /* the dofs, float32 bits; gs_op sums them in place */
    uint32_t ndofs, u_at;
    /* where the ranks it sends to sit: nplaces pairs {rank, col | row << 8},
     * ascending rank (its peers and its bisection partners) */
    uint32_t nplaces, places_at;
    /* send and receive lists, ascending peer: triples {peer, count, dofs_at} */
    uint32_t nsends, sends_at;
    uint32_t nrecvs, recvs_at;
    /* the reduction, fixed by the schedule: for each of red_ndofs local
     * dofs (ascending, at red_dof_at), its terms red_start[d] ..
     * red_start[d+1] (red_ndofs + 1 of them) in canonical order, each
     * WM_GS_OWN or (i << 16 | j): word j of what receive list i delivers */
    uint32_t red_ndofs, red_nterms, red_dof_at, red_start_at, red_term_at;
    /* the folding router: nfold pairs {key, dof}, ascending key, one per
     * shared local dof; key = owner << 16 | the owner's local index of
     * that dof, its owner the lowest rank holding it */
    uint32_t nfold, fold_at;
    /* the auto method's results (wm_gs_auto), 0 for the other methods */
    uint32_t auto_at;
    /* the heap: [heap_at, heap_end) */
    uint32_t heap_at, heap_end;
    uint32_t heap_ready;      /* set by the kernel once it has laid it out */
    uint32_t plan_at;         /* the crystal plan the setup run left (0: none) */
    /* results, written by the kernel */
    uint32_t messages, wavelets, active_stages;
    uint32_t heap_high;       /* the highest word of the heap ever used */
} wm_gs_image;

enum { WM_GS_IMAGE_WORDS = sizeof(wm_gs_image) / 4 };

#endif
