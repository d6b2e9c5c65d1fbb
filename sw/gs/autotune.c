/* autotune.c: the auto method (methods.h, docs/crystal.md, "auto").
 *
 * The set-up run builds the crystal plan of both pairing rules, then runs
 * every candidate's gs_op (gs_image.h: pairwise, crystal, plan and fold,
 * each rule) on the rank's dofs, its shared ones restored before each, and times it with
 * the timestamp counter. After each candidate the ranks all-reduce the
 * most cycles any of them took, so all hold the same table and keep the
 * same candidate: the one with the fewest, the first of equals. The
 * all-reduce is also the barrier between two candidates: a rank leaves it
 * only once every rank has finished the candidate, so no candidate's
 * messages meet the next one's. All of it runs through one port that
 * keeps what arrives early, since a rank may still be in a candidate when
 * a faster one's all-reduce or next candidate reaches it. The gs_op run
 * then runs the candidate kept; both plans stay in the heap. */
#include "methods.h"

/* The all-reduce: up and down a binomial tree rooted at rank 0 (rank r's
 * parent is r - lowbit(r)), one word a message. Consecutive all-reduces
 * alternate between two pairs of tags: a rank can be at most one
 * all-reduce ahead of another. */
enum { TAG_UP = 0x3c, TAG_DOWN = 0x3d };
/* Above every stage's tags (4 a stage in methods.c and fold.c, at most 15
 * stages: csim/gs/job.c refuses more ranks), and inside the header's. */
_Static_assert(4 * 15 <= TAG_UP && TAG_DOWN + 1 <= WM_TAG_MAX, "gs's tags are distinct and fit the header");

__attribute__((noinline)) static void one_word(wm_xfer_port *port, bool send, unsigned peer, uint8_t tag, uint32_t *w)
{
    wm_xfer x = {peer, tag, w, 1, 0};
    if (send) wm_xfer_exchange(port, &x, 1, 0, 0, 0);
    else wm_xfer_exchange(port, 0, 0, &x, 1, 1);
}

static uint32_t all_max(wm_gs_rank *g, wm_xfer_port *port, unsigned *round, uint32_t v)
{
    const unsigned n = g->img->nranks, r = g->rank, parity = 2 * (*round & 1u);
    unsigned m = 1;
    uint32_t got;
    (*round)++;
    for (; m < n; m <<= 1) {
        if (r & m) {
            one_word(port, true, r - m, (uint8_t)(TAG_UP + parity), &v);
            one_word(port, false, r - m, (uint8_t)(TAG_DOWN + parity), &v);
            break;
        }
        if (r + m < n) {
            one_word(port, false, r + m, (uint8_t)(TAG_UP + parity), &got);
            if (got > v) v = got;
        }
    }
    for (m >>= 1; m; m >>= 1)
        if (r + m < n) one_word(port, true, r + m, (uint8_t)(TAG_DOWN + parity), &v);
    return v;
}

/* The shared dofs (the fold list's, gs_image.h) to saved, or back: the
 * only dofs a gs_op changes. */
static void keep(const wm_gs_rank *g, uint32_t *saved, bool back)
{
    const uint32_t *fold = g->mem + g->img->fold_at;
    uint32_t *u = g->mem + g->img->u_at;
    for (uint32_t i = 0; i < g->img->nfold; i++) {
        if (back) u[fold[2 * i + 1]] = saved[i];
        else saved[i] = u[fold[2 * i + 1]];
    }
}

/* Point the image at candidate c and run its gs_op. */
static void run_candidate(wm_gs_rank *g, const wm_gs_auto *a, unsigned c)
{
    g->img->method = wm_gs_candidate_method(c);
    g->img->pairing = wm_gs_candidate_pairing(c);
    g->img->plan_at = a->plan_at[g->img->pairing];
    if (g->img->method == WM_GS_FOLD) wm_gs_fold_op(g);
    else wm_gs_rank_op(g);
}

static void auto_setup(wm_gs_rank *g, wm_gs_auto *a)
{
    wm_gs_image *img = g->img;
    uint32_t *saved = wm_gs_take(g, img->nfold, 4);
    wm_xfer_port port;
    wm_xfer_port_init(&port, g->mp, &g->heap, g->rank, g->mem + img->places_at, img->nplaces, true);
    g->port = &port;
    unsigned round = 0;
    keep(g, saved, false);
    for (unsigned rule = 0; rule < 2; rule++) {
        img->method = WM_GS_PLAN;
        img->pairing = rule;
        wm_gs_rank_setup(g);
        a->plan_at[rule] = img->plan_at;
        all_max(g, &port, &round, 0);
    }
    a->choice = 0;
    for (unsigned c = 0; c < WM_GS_CANDIDATES; c++) {
        keep(g, saved, true);
        const uint64_t t0 = wm_mp_tsc(g->mp);
        run_candidate(g, a, c);
        a->cycles[c] = all_max(g, &port, &round, (uint32_t)(wm_mp_tsc(g->mp) - t0));
        if (a->cycles[c] < a->cycles[a->choice]) a->choice = c;
    }
    keep(g, saved, true);
    wm_heap_give(&g->heap, saved);
    wm_xfer_port_finish(&port);
    g->port = 0;
}

void wm_gs_run(wm_gs_rank *g)
{
    wm_gs_image *img = g->img;
    const bool setup = img->phase == WM_GS_PHASE_SETUP;
    if (img->method == WM_GS_AUTO) {
        /* Whatever the choice word holds names a candidate: past the
         * table is fold, and the host refuses it (gs/job.c). */
        wm_gs_auto *a = (wm_gs_auto *)(g->mem + img->auto_at);
        if (setup) auto_setup(g, a);
        else run_candidate(g, a, a->choice);
        img->method = WM_GS_AUTO;
    } else if (setup) {
        wm_gs_rank_setup(g);
    } else if (img->method == WM_GS_FOLD) {
        wm_gs_fold_op(g);
    } else {
        wm_gs_rank_op(g);
    }
}

