/* calib_glue.c: what each gs method takes besides the parts the gscalib
 * kernel times (sw/gs/calib.c): the method's own bookkeeping, and the
 * transfer loop with sends and receives interleaved. `wavemesh calibrate`
 * runs this kernel on the cores and natively and charges the difference
 * to each method (WM_GS_COST_GLUE_*, sw/cost_model.h).
 *
 * Two PEs. ROLE 0 runs each method alone as rank 0 of one; then both
 * swap four messages each way. Ranks: ROLE 0 is rank 0 and ROLE 1 rank 1. */
#include "gs_kernel.h"

#include "crystal/plan.h"
#include "methods.h"
#include "xfer.h"

enum { ROLE, PEERX, PEERY };
const wm_kernel_param wm_gsglue_params[] = {
    [ROLE] = {"ROLE", true, 0, WM_PARAM_FLAG},   /* 0: the methods alone, then one side of the swap; 1: the other side */
    [PEERX] = {"PEERX", false, 0, WM_PARAM_COORD}, /* the other PE */
    [PEERY] = {"PEERY", false, 0, WM_PARAM_COORD},
    {NULL, false, 0, 0, 0},
};

enum { OP_PAIRWISE, OP_CRYSTAL, SETUP_PLAN, OP_PLAN, SWAP, INIT1, INIT16, PAIR_PAIRWISE, PAIR_CRYSTAL,
       PAIR_SETUP_PLAN, PAIR_PLAN };
const char *const wm_gsglue_exports[] = {
    [OP_PAIRWISE] = "op_pairwise",     [OP_CRYSTAL] = "op_crystal",   [SETUP_PLAN] = "setup_plan",
    [OP_PLAN] = "op_plan",             [SWAP] = "swap",               [INIT1] = "init1",
    [INIT16] = "init16",               [PAIR_PAIRWISE] = "pair_pairwise", [PAIR_CRYSTAL] = "pair_crystal",
    [PAIR_SETUP_PLAN] = "pair_setup_plan", [PAIR_PLAN] = "pair_plan", NULL};

/* Word offsets in the PE's data memory. */
enum { PLACES = 0, IMG = 64, EMPTY = 256, IN = 512, OUT = 768, HEAP = 1024, HEAP_END = 8192 };

static uint64_t reading;

static uint64_t since(wm_mp *mp, uint64_t t0) { return wm_mp_tsc(mp) - t0 - reading; }

/* A whole method on one rank alone: nothing to send, receive or reduce,
 * so what it takes is the method's own bookkeeping around the parts timed
 * above. Natively the same runs charge the parts; `wavemesh calibrate`
 * runs this kernel both ways and charges the difference to the method
 * (WM_GS_COST_GLUE_*). */
static uint64_t time_method(wm_mp *mp, uint32_t *mem, wm_gs_method method, bool setup)
{
    wm_gs_image *img = (wm_gs_image *)(mem + IMG);
    if (setup || method != WM_GS_PLAN) {
        *img = (wm_gs_image){0};
        img->magic = WM_GS_IMAGE_MAGIC;
        img->nranks = 1;
        img->method = (uint32_t)method;
        img->u_at = img->places_at = img->sends_at = img->recvs_at = EMPTY;
        img->red_dof_at = img->red_start_at = img->red_term_at = EMPTY;
        img->heap_at = HEAP;
        img->heap_end = HEAP_END;
    }
    wm_gs_rank g = {.mp = mp, .mem = mem, .img = img, .rank = 0};
    if (setup || method != WM_GS_PLAN)
        wm_heap_format(&g.heap, mem, img->heap_at, img->heap_end, &img->heap_high);
    else
        wm_heap_attach(&g.heap, mem, img->heap_at, img->heap_end, &img->heap_high);
    g.heap.mp = mp;
    const uint64_t t0 = wm_mp_tsc(mp);
    if (setup)
        wm_gs_rank_setup(&g);
    else
        wm_gs_rank_op(&g);
    return since(mp, t0);
}

/* Both PEs send each other four messages of 5 words and receive four,
 * at once: the loop's mixed turns, pops and pushes interleaved. */
static uint64_t time_swap(wm_mp *mp, uint32_t *mem, wm_heap *heap, unsigned rank, unsigned px, unsigned py)
{
    uint32_t *places = mem + PLACES, *out = mem + OUT, *in = mem + IN;
    places[0] = 1 - rank;
    places[1] = px | py << WM_COORD_BITS;
    wm_xfer_port port;
    wm_xfer_port_init(&port, mp, heap, rank, places, 1, false);
    wm_xfer go = {1 - rank, 9, out, 1, 0};
    if (rank == 0)
        wm_xfer_exchange(&port, &go, 1, 0, 0, 0);
    else
        wm_xfer_exchange(&port, 0, 0, &go, 1, 1);
    wm_xfer sends[4], recvs[4];
    for (unsigned k = 0; k < 4; k++) {
        sends[k] = (wm_xfer){1 - rank, (uint8_t)k, out + 5 * k, 5, 0};
        recvs[k] = (wm_xfer){1 - rank, (uint8_t)k, in + 5 * k, 5, 0};
    }
    const uint64_t t0 = wm_mp_tsc(mp);
    wm_xfer_exchange(&port, sends, 4, recvs, 4, 4);
    return since(mp, t0);
}

/* The image of rank `rank` of two, one dof each, shared with the other:
 * one send and one receive of a word, a reduction of two terms. */
static void pair_image(uint32_t *mem, unsigned rank, wm_gs_method method, unsigned px, unsigned py)
{
    wm_gs_image *img = (wm_gs_image *)(mem + IMG);
    uint32_t *w = mem + EMPTY;
    *img = (wm_gs_image){0};
    img->magic = WM_GS_IMAGE_MAGIC;
    img->rank = rank;
    img->nranks = 2;
    img->method = (uint32_t)method;
    img->ndofs = 1;
    img->u_at = EMPTY;
    w[0] = 0x3fc00000u + rank; /* 1.5 */
    img->nplaces = 1;
    img->places_at = EMPTY + 2;
    w[2] = 1 - rank;
    w[3] = px | py << WM_COORD_BITS;
    img->red_dof_at = EMPTY + 4; /* dof 0; also the send list's dofs */
    w[4] = 0;
    img->nsends = img->nrecvs = 1;
    img->sends_at = img->recvs_at = EMPTY + 5;
    w[5] = 1 - rank;
    w[6] = 1;
    w[7] = EMPTY + 4;
    img->red_ndofs = 1;
    img->red_nterms = 2;
    img->red_start_at = EMPTY + 8;
    w[8] = 0;
    w[9] = 2;
    img->red_term_at = EMPTY + 10;
    w[10] = rank ? 0 : WM_GS_OWN; /* canonical order: rank 0's term first */
    w[11] = rank ? WM_GS_OWN : 0;
    img->heap_at = HEAP;
    img->heap_end = HEAP_END;
}

/* Rank `rank` of two runs a method's phase: each side waits for the
 * other's word first, so both start it within a few cycles. */
static uint64_t time_pair(wm_mp *mp, uint32_t *mem, unsigned rank, wm_gs_method method, bool setup, unsigned px,
                          unsigned py)
{
    if (setup || method != WM_GS_PLAN) pair_image(mem, rank, method, px, py);
    wm_gs_image *img = (wm_gs_image *)(mem + IMG);
    wm_gs_rank g = {.mp = mp, .mem = mem, .img = img, .rank = rank};
    if (setup || method != WM_GS_PLAN)
        wm_heap_format(&g.heap, mem, img->heap_at, img->heap_end, &img->heap_high);
    else
        wm_heap_attach(&g.heap, mem, img->heap_at, img->heap_end, &img->heap_high);
    g.heap.mp = mp;
    wm_xfer_port port;
    wm_xfer_port_init(&port, mp, &g.heap, rank, mem + img->places_at, 1, false);
    uint32_t word = 0;
    wm_xfer go = {1 - rank, 62, &word, 1, 0}, got = {1 - rank, 62, &word, 1, 0};
    wm_xfer_exchange(&port, &go, 1, &got, 1, 1);
    const uint64_t t0 = wm_mp_tsc(mp);
    if (setup)
        wm_gs_rank_setup(&g);
    else
        wm_gs_rank_op(&g);
    return since(mp, t0);
}

/* The plan builder's start on one send of count dofs: a record and count
 * dofs pushed onto its lists (each list's first push takes its block). */
static uint64_t time_builder(wm_mp *mp, uint32_t *mem, uint32_t count)
{
    wm_gs_image *img = (wm_gs_image *)(mem + IMG);
    *img = (wm_gs_image){0};
    img->nranks = 2;
    img->nsends = 1;
    img->sends_at = EMPTY;
    mem[EMPTY] = 1;
    mem[EMPTY + 1] = count;
    mem[EMPTY + 2] = EMPTY + 4;
    for (uint32_t k = 0; k < count; k++) mem[EMPTY + 4 + k] = k;
    wm_heap heap;
    uint32_t high;
    wm_heap_format(&heap, mem, HEAP, HEAP_END, &high);
    heap.mp = mp;
    wm_cr_builder b;
    const uint64_t t0 = wm_mp_tsc(mp);
    wm_cr_builder_init(&b, &heap, img, mem);
    return since(mp, t0);
}

void wm_kernel_gsglue(wm_mp *mp)
{
    const uint64_t a = wm_mp_tsc(mp), b = wm_mp_tsc(mp);
    reading = b - a;
    uint32_t *mem = wm_mp_mem(mp);
    const int64_t role = wm_mp_param(mp, ROLE), px = wm_mp_param(mp, PEERX), py = wm_mp_param(mp, PEERY);
    if (role == 0) {
        wm_mp_export(mp, OP_PAIRWISE, (int64_t)time_method(mp, mem, WM_GS_PAIRWISE, false));
        wm_mp_export(mp, OP_CRYSTAL, (int64_t)time_method(mp, mem, WM_GS_CRYSTAL, false));
        wm_mp_export(mp, SETUP_PLAN, (int64_t)time_method(mp, mem, WM_GS_PLAN, true));
        wm_mp_export(mp, OP_PLAN, (int64_t)time_method(mp, mem, WM_GS_PLAN, false));
        wm_mp_export(mp, INIT1, (int64_t)time_builder(mp, mem, 1));
        wm_mp_export(mp, INIT16, (int64_t)time_builder(mp, mem, 16));
    }
    wm_heap heap;
    uint32_t high;
    wm_heap_format(&heap, mem, HEAP, HEAP_END, &high);
    wm_mp_export(mp, SWAP, (int64_t)time_swap(mp, mem, &heap, (unsigned)role, (unsigned)px, (unsigned)py));
    const unsigned rank = (unsigned)role, x = (unsigned)px, y = (unsigned)py;
    wm_mp_export(mp, PAIR_PAIRWISE, (int64_t)time_pair(mp, mem, rank, WM_GS_PAIRWISE, false, x, y));
    wm_mp_export(mp, PAIR_CRYSTAL, (int64_t)time_pair(mp, mem, rank, WM_GS_CRYSTAL, false, x, y));
    wm_mp_export(mp, PAIR_SETUP_PLAN, (int64_t)time_pair(mp, mem, rank, WM_GS_PLAN, true, x, y));
    wm_mp_export(mp, PAIR_PLAN, (int64_t)time_pair(mp, mem, rank, WM_GS_PLAN, false, x, y));
}
