/* calib.c: what the gs kernels' own work costs the PE that runs it: the
 * heap, a gather, the reduction's float32 terms and the transfer loop,
 * each timed between two timestamp reads minus what two back-to-back
 * reads measure, at two sizes so that `wavemesh calibrate` can split a
 * fixed part from a part per unit (sw/cost_model.h, WM_GS_COST_*).
 *
 * Two PEs. ROLE 0 times the heap, the gather and the reduction, then the
 * sending side of wm_xfer_exchange; ROLE 1 times the receiving side, each
 * message already whole in its RX queue, so no figure includes a wait.
 * Ranks: ROLE 0 is rank 0 and ROLE 1 rank 1. */
#include "gs_kernel.h"

#include "methods.h"
#include "reduce.h"
#include "xfer.h"

enum { ROLE, PEERX, PEERY };
const wm_kernel_param wm_gscalib_params[] = {
    [ROLE] = {"ROLE", true, 0, WM_PARAM_FLAG},   /* 0: heap, gather, reduction, sender; 1: receiver */
    [PEERX] = {"PEERX", false, 0, WM_PARAM_COORD}, /* the other PE */
    [PEERY] = {"PEERY", false, 0, WM_PARAM_COORD},
    {NULL, false, 0, 0, 0},
};

enum {
    TAKE1, TAKE33, WALK8, MERGE8, GIVE, RESIZE, GATHER0, GATHER64, RED1, RED9, RED9X1,
    SEND0, SEND1, SEND5, SEND2, SEND1P8, RECV1, RECV5, RECV1X4, PORT_INIT, MIX
};
const char *const wm_gscalib_exports[] = {
    [TAKE1] = "take1",     [TAKE33] = "take33",   [WALK8] = "walk8",     [MERGE8] = "merge8",
    [GIVE] = "give",       [RESIZE] = "resize",   [GATHER0] = "gather0", [GATHER64] = "gather64",
    [RED1] = "red1",       [RED9] = "red9",       [RED9X1] = "red9x1",   [SEND0] = "send0",
    [SEND1] = "send1",     [SEND5] = "send5",     [SEND2] = "send2",     [SEND1P8] = "send1p8",
    [RECV1] = "recv1",     [RECV5] = "recv5",     [RECV1X4] = "recv1x4", [PORT_INIT] = "portinit", [MIX] = "mix", NULL};

/* Word offsets in the PE's data memory. */
enum { PLACES1 = 0, PLACES8 = 16, IMG = 64, RED = 256, BUF = 512, IDX = 640, OUT = 768, HEAP = 1024, HEAP_END = 8192 };

static uint64_t reading;

static uint64_t since(wm_mp *mp, uint64_t t0) { return wm_mp_tsc(mp) - t0 - reading; }

static void time_heap(wm_mp *mp, uint32_t *mem)
{
    wm_heap h;
    uint32_t high;
    void *p[8];
    wm_heap_format(&h, mem, HEAP, HEAP_END, &high);
    uint64_t t0 = wm_mp_tsc(mp);
    void *q = wm_heap_take(&h, 4);
    wm_mp_export(mp, TAKE1, (int64_t)since(mp, t0));
    wm_heap_format(&h, mem, HEAP, HEAP_END, &high);
    t0 = wm_mp_tsc(mp);
    q = wm_heap_take(&h, 8 * 33);
    wm_mp_export(mp, TAKE33, (int64_t)since(mp, t0));
    wm_heap_format(&h, mem, HEAP, HEAP_END, &high);
    for (int i = 0; i < 8; i++) p[i] = wm_heap_take(&h, 4);
    t0 = wm_mp_tsc(mp);
    q = wm_heap_take(&h, 4);
    wm_mp_export(mp, WALK8, (int64_t)since(mp, t0));
    wm_heap_format(&h, mem, HEAP, HEAP_END, &high);
    for (int i = 0; i < 8; i++) p[i] = wm_heap_take(&h, 4);
    for (int i = 0; i < 8; i++) wm_heap_give(&h, p[i]);
    t0 = wm_mp_tsc(mp);
    q = wm_heap_take(&h, 4);
    wm_mp_export(mp, MERGE8, (int64_t)since(mp, t0));
    t0 = wm_mp_tsc(mp);
    wm_heap_give(&h, q);
    wm_mp_export(mp, GIVE, (int64_t)since(mp, t0));
    q = wm_heap_take(&h, 16);
    t0 = wm_mp_tsc(mp);
    q = wm_heap_resize(&h, q, 8);
    wm_mp_export(mp, RESIZE, (int64_t)since(mp, t0));
}

static void time_gather(wm_mp *mp, uint32_t *mem)
{
    for (uint32_t k = 0; k < 64; k++) {
        mem[BUF + k] = k * 7u;
        mem[IDX + k] = (k * 5u) % 64u;
    }
    uint64_t t0 = wm_mp_tsc(mp);
    wm_gs_gather(mem + OUT, mem + BUF, mem + IDX, 0);
    wm_mp_export(mp, GATHER0, (int64_t)since(mp, t0));
    t0 = wm_mp_tsc(mp);
    wm_gs_gather(mem + OUT, mem + BUF, mem + IDX, 64);
    wm_mp_export(mp, GATHER64, (int64_t)since(mp, t0));
}

/* A reduction of ndofs dofs of nterms terms each: the dof's own value and
 * words of one receive list, float32 values of mixed magnitudes. */
static uint64_t time_reduce(wm_mp *mp, uint32_t *mem, uint32_t ndofs, uint32_t nterms)
{
    wm_gs_image *img = (wm_gs_image *)(mem + IMG);
    uint32_t *dof = mem + RED, *start = dof + 16, *term = start + 17, *offsets = term + 96, *u = offsets + 1;
    img->u_at = (uint32_t)(u - mem);
    img->red_ndofs = ndofs;
    img->red_dof_at = (uint32_t)(dof - mem);
    img->red_start_at = (uint32_t)(start - mem);
    img->red_term_at = (uint32_t)(term - mem);
    offsets[0] = 0;
    for (uint32_t d = 0, at = 0; d < ndofs; d++) {
        dof[d] = d;
        u[d] = 0x3f800000u + d * 0x00135791u; /* 1.0 and up */
        start[d] = at;
        term[at++] = WM_GS_OWN;
        for (uint32_t k = 1; k < nterms; k++, at++) term[at] = at;
        start[d + 1] = at;
    }
    for (uint32_t k = 0; k < 96; k++) mem[BUF + k] = (k & 1 ? 0x3e000000u : 0x40400000u) + k * 0x0002468bu;
    const uint64_t t0 = wm_mp_tsc(mp);
    wm_gs_reduce(img, mem, offsets, mem + BUF);
    return since(mp, t0);
}

/* Until the other PE has taken everything from TX. */
static void drain_tx(wm_mp *mp)
{
    unsigned room = 0, waiting;
    while (room < 8) wm_mp_queues(mp, &room, &waiting);
}

/* Until n wavelets wait in RX. */
static void wait_rx(wm_mp *mp, unsigned n)
{
    unsigned room, waiting = 0;
    while (waiting < n) wm_mp_queues(mp, &room, &waiting);
}

static uint64_t time_exchange(wm_xfer_port *port, wm_xfer *sends, size_t nsend, wm_xfer *recvs, size_t nrecv)
{
    const uint64_t t0 = wm_mp_tsc(port->mp);
    wm_xfer_exchange(port, sends, nsend, recvs, nrecv, nrecv);
    return since(port->mp, t0);
}

static void time_sender(wm_mp *mp, uint32_t *mem, wm_heap *heap, unsigned px, unsigned py)
{
    uint32_t *places1 = mem + PLACES1, *places8 = mem + PLACES8, *words = mem + BUF;
    places1[0] = 1;
    places1[1] = px | py << WM_COORD_BITS;
    for (uint32_t i = 0; i < 8; i++) {
        places8[2 * i] = i + 1;
        places8[2 * i + 1] = px | py << WM_COORD_BITS;
    }
    wm_xfer_port port;
    const uint64_t t0 = wm_mp_tsc(mp);
    wm_xfer_port_init(&port, mp, heap, 0, places1, 1, false);
    wm_mp_export(mp, PORT_INIT, (int64_t)since(mp, t0));
    wm_mp_export(mp, SEND0, (int64_t)time_exchange(&port, 0, 0, 0, 0));
    wm_xfer one = {1, 0, words, 1, 0};
    wm_mp_export(mp, SEND1, (int64_t)time_exchange(&port, &one, 1, 0, 0));
    drain_tx(mp);
    wm_xfer five = {1, 0, words, 5, 0};
    wm_mp_export(mp, SEND5, (int64_t)time_exchange(&port, &five, 1, 0, 0));
    drain_tx(mp);
    wm_xfer two[2] = {{1, 0, words, 1, 0}, {1, 0, words + 1, 1, 0}};
    wm_mp_export(mp, SEND2, (int64_t)time_exchange(&port, two, 2, 0, 0));
    drain_tx(mp);
    wm_xfer_port_init(&port, mp, heap, 0, places8, 8, false);
    wm_mp_export(mp, SEND1P8, (int64_t)time_exchange(&port, &one, 1, 0, 0));
    drain_tx(mp);
    wm_xfer_port_init(&port, mp, heap, 0, places1, 1, false);
    wm_xfer back = {1, 0, words + 8, 1, 0};
    wm_xfer_exchange(&port, &five, 1, &back, 1, 1);
}

static void time_receiver(wm_mp *mp, uint32_t *mem, wm_heap *heap, unsigned px, unsigned py)
{
    uint32_t *words = mem + BUF, *places = mem + PLACES1;
    places[0] = 0;
    places[1] = px | py << WM_COORD_BITS;
    wm_xfer_port port;
    wm_xfer_port_init(&port, mp, heap, 1, places, 1, false);
    wm_xfer one = {0, 0, words, 1, 0};
    wait_rx(mp, 3);
    wm_mp_export(mp, RECV1, (int64_t)time_exchange(&port, 0, 0, &one, 1));
    wm_xfer five = {0, 0, words, 5, 0};
    wait_rx(mp, 7);
    wm_mp_export(mp, RECV5, (int64_t)time_exchange(&port, 0, 0, &five, 1));
    wm_xfer two[2] = {{0, 0, words, 1, 0}, {0, 0, words + 1, 1, 0}};
    wait_rx(mp, 6);
    time_exchange(&port, 0, 0, two, 2);
    /* Three receives already complete before the one that matches: every
     * turn of the loop and the match look at four. */
    wm_xfer four[4] = {{0, 1, words, 0, 0}, {0, 2, words, 0, 0}, {0, 3, words, 0, 0}, {0, 0, words, 1, 0}};
    wait_rx(mp, 3);
    wm_mp_export(mp, RECV1X4, (int64_t)time_exchange(&port, 0, 0, four, 4));
    /* A message already whole in RX while sending one: its pops come in the
     * sending turn's loop, not a turn each. */
    wm_xfer back = {0, 0, words + 8, 1, 0}, again = {0, 0, words, 5, 0};
    wait_rx(mp, 7);
    wm_mp_export(mp, MIX, (int64_t)time_exchange(&port, &back, 1, &again, 1));
}

void wm_kernel_gscalib(wm_mp *mp)
{
    const uint64_t a = wm_mp_tsc(mp), b = wm_mp_tsc(mp);
    reading = b - a;
    uint32_t *mem = wm_mp_mem(mp);
    const int64_t role = wm_mp_param(mp, ROLE), px = wm_mp_param(mp, PEERX), py = wm_mp_param(mp, PEERY);
    wm_heap heap;
    uint32_t high;
    wm_heap_format(&heap, mem, HEAP, HEAP_END, &high);
    if (role == 0) {
        time_heap(mp, mem);
        time_gather(mp, mem);
        wm_mp_export(mp, RED1, (int64_t)time_reduce(mp, mem, 1, 1));
        wm_mp_export(mp, RED9, (int64_t)time_reduce(mp, mem, 1, 9));
        wm_mp_export(mp, RED9X1, (int64_t)time_reduce(mp, mem, 9, 1));
        wm_heap_format(&heap, mem, HEAP, HEAP_END, &high);
        time_sender(mp, mem, &heap, (unsigned)px, (unsigned)py);
    } else {
        time_receiver(mp, mem, &heap, (unsigned)px, (unsigned)py);
    }
}
