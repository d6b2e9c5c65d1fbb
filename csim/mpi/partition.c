/* partition.c: one fabric over the ranks of an MPI job (partition.h). */
#include "mpi/partition.h"

#include "waves/interrupt.h"

#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
    TAG_EDGE = 7100,   /* the wires of facing rows, once a cycle */
    TAG_GATHER = 7101, /* bytes for rank 0 */
    TAG_BCAST = 7102,  /* bytes from rank 0 */
    /* A stop signal that finds this rank waiting on the others this long
     * means they will not answer: it ends, saying where it stood. */
    STUCK_MS = 500
};

struct wm_partition {
    wm_mpi_job job;
    const char *cmd;
    unsigned w, h;
    unsigned px, py;        /* the grid of blocks: px across, py down; rank k is block (k % px, k / px) */
    wm_edge_wire *out, *in; /* one edge of wires each */
    pthread_t watchdog;
    bool watching;
};

/* Where this rank stands, for the watchdog: in a transport call or not,
 * and the cycle. */
static atomic_int in_transport;
static atomic_int waiting_on = -1; /* the rank a swap of edges waits on, -1: every rank (a sum, a gather) */
static char blocks[4096];          /* "rank K: rows A-B, columns C-D; ..." of every rank, for the watchdog */
static atomic_uint_fast64_t at_cycle;
static atomic_bool stop_watching;
static char who[160]; /* "rank K of N (rows A-B of H)", set once before the watchdog starts */

bool wm_partition_wanted(void) { return wm_mpi_launched(); }

int wm_partition_rank(const wm_partition *p) { return p->job.rank; }
int wm_partition_size(const wm_partition *p) { return p->job.size; }

wm_fabric_band wm_partition_band_of(const wm_partition *p, int k)
{
    const uint64_t kx = (unsigned)k % p->px, ky = (unsigned)k / p->px;
    return (wm_fabric_band){(unsigned)(ky * p->h / p->py), (unsigned)((ky + 1) * p->h / p->py),
                            (unsigned)(kx * p->w / p->px), (unsigned)((kx + 1) * p->w / p->px)};
}

wm_fabric_band wm_partition_band(const wm_partition *p) { return wm_partition_band_of(p, p->job.rank); }

bool wm_partition_owns(const wm_partition *p, unsigned x, unsigned y)
{
    const wm_fabric_band b = wm_partition_band(p);
    return y >= b.row_begin && y < b.row_end && x >= b.col_begin && x < b.col_end;
}

/* The grid of n blocks on a w x h mesh that cuts the fewest links: px
 * blocks across and py down, px * py = n, each at least one tile; false
 * when there is none. */
static bool grid_of(unsigned n, unsigned w, unsigned h, unsigned *px, unsigned *py)
{
    uint64_t best = UINT64_MAX;
    for (unsigned a = 1; a <= n; a++) {
        if (n % a || a > w || n / a > h) continue;
        const uint64_t cut = (uint64_t)(a - 1) * h + (uint64_t)(n / a - 1) * w;
        if (cut < best) {
            best = cut;
            *px = a;
            *py = n / a;
        }
    }
    return best != UINT64_MAX;
}

/* A rank blocked in the transport when the launcher stops the job (a rank
 * died, or mpirun was interrupted) never returns from it: the launcher
 * would kill it silently. This thread says where it stood first. */
static void *watch(void *arg)
{
    (void)arg;
    unsigned stuck_ms = 0;
    while (!atomic_load(&stop_watching)) {
        const struct timespec nap = {0, 50 * 1000 * 1000};
        nanosleep(&nap, NULL);
        stuck_ms = wm_interrupt_signal() && atomic_load(&in_transport) ? stuck_ms + 50 : 0;
        if (stuck_ms < STUCK_MS) continue;
        const int peer = atomic_load(&waiting_on);
        char on[64] = "the other ranks";
        if (peer >= 0) snprintf(on, sizeof on, "rank %d", peer);
        fprintf(stderr,
                "%s: stopped at cycle %" PRIu64 " waiting on %s: the launcher is ending the job (a rank was lost, or "
                "the job was interrupted); the blocks: %s\n",
                who, (uint64_t)atomic_load(&at_cycle), on, blocks);
        fflush(stderr);
        kill(getpid(), SIGKILL);
    }
    return NULL;
}

wm_partition *wm_partition_create(const wm_mpi_job *j, const char *cmd, unsigned w, unsigned h, char *err,
                                  size_t err_size)
{
    unsigned px = 0, py = 0;
    if (!grid_of((unsigned)j->size, w, h, &px, &py)) {
        snprintf(err, err_size,
                 "%d ranks for a %ux%u mesh: the ranks make a grid of blocks, at least a tile each, so their number "
                 "must be a product a x b with a <= %u and b <= %u",
                 j->size, w, h, w, h);
        return NULL;
    }
    wm_partition *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    p->job = *j;
    p->cmd = cmd;
    p->w = w;
    p->h = h;
    p->px = px;
    p->py = py;
    const unsigned longest = w > h ? w : h;
    p->out = calloc(longest, sizeof *p->out);
    p->in = calloc(longest, sizeof *p->in);
    if (!p->out || !p->in) {
        wm_partition_destroy(p);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    const wm_fabric_band b = wm_partition_band(p);
    snprintf(who, sizeof who, "wavemesh %s: rank %d of %d (rows %u-%u, columns %u-%u of the %ux%u mesh)", cmd,
             j->rank, j->size, b.row_begin, b.row_end - 1, b.col_begin, b.col_end - 1, w, h);
    size_t used = 0;
    blocks[0] = '\0';
    for (int k = 0; k < j->size && used < sizeof blocks - 80; k++) {
        const wm_fabric_band o = wm_partition_band_of(p, k);
        const int n = snprintf(blocks + used, sizeof blocks - used, "%srank %d rows %u-%u columns %u-%u",
                               k ? "; " : "", k, o.row_begin, o.row_end - 1, o.col_begin, o.col_end - 1);
        if (n > 0) used += (size_t)n;
    }
    atomic_store(&stop_watching, false);
    p->watching = pthread_create(&p->watchdog, NULL, watch, NULL) == 0;
    return p;
}

/* A transport call failed: the rank across is gone. */
static void lost(wm_partition *p, const char *what, int peer, uint64_t cycle)
{
    if (peer >= 0) {
        const wm_fabric_band b = wm_partition_band_of(p, peer);
        fprintf(stderr,
                "%s: %s rank %d (rows %u-%u, columns %u-%u) failed at cycle %" PRIu64
                ": that rank is lost; the job ends\n",
                who, what, peer, b.row_begin, b.row_end - 1, b.col_begin, b.col_end - 1, cycle);
    } else {
        fprintf(stderr, "%s: %s failed at cycle %" PRIu64 ": a rank is lost; the job ends\n", who, what, cycle);
    }
    fflush(NULL);
    p->job.ops->kill_job(1);
}

static void enter(uint64_t cycle)
{
    atomic_store(&at_cycle, cycle);
    atomic_store(&in_transport, 1);
}

static void leave(void) { atomic_store(&in_transport, 0); }

/* The wires of the edge facing peer, out and in: as many as the block's
 * edge on that side has tiles. */
static void swap_edge(wm_partition *p, const wm_fabric_ops *ops, wm_fabric *f, wm_band_edge side, int peer,
                      uint64_t cycle)
{
    const wm_fabric_band b = wm_partition_band(p);
    const size_t n = side == WM_EDGE_NORTH || side == WM_EDGE_SOUTH ? b.col_end - b.col_begin : b.row_end - b.row_begin;
    memset(p->out, 0, n * sizeof *p->out); /* no padding byte left undefined on the wire */
    ops->band_edge_out(f, side, p->out);
    atomic_store(&waiting_on, peer);
    const bool swapped = p->job.ops->exchange(peer, TAG_EDGE, p->out, n * sizeof *p->out, p->in, n * sizeof *p->in);
    atomic_store(&waiting_on, -1);
    if (!swapped) lost(p, "the exchange of boundary links with", peer, cycle);
    ops->band_edge_in(f, side, p->in);
}

void wm_partition_exchange(wm_partition *p, const wm_fabric_ops *ops, wm_fabric *f, uint64_t cycle)
{
    const int k = p->job.rank, px = (int)p->px, py = (int)p->py, kx = k % px, ky = k / px;
    enter(cycle);
    /* Four phases, so that every pair swaps at once rather than down a
     * chain: each block with the one south of it, first from the even
     * rows of blocks, then from the odd; then each with the one east of
     * it, from the even columns, then the odd. */
    for (int phase = 0; phase < 2; phase++) {
        if ((ky & 1) == phase && ky + 1 < py) swap_edge(p, ops, f, WM_EDGE_SOUTH, k + px, cycle);
        if ((ky & 1) != phase && ky > 0) swap_edge(p, ops, f, WM_EDGE_NORTH, k - px, cycle);
    }
    for (int phase = 0; phase < 2; phase++) {
        if ((kx & 1) == phase && kx + 1 < px) swap_edge(p, ops, f, WM_EDGE_EAST, k + 1, cycle);
        if ((kx & 1) != phase && kx > 0) swap_edge(p, ops, f, WM_EDGE_WEST, k - 1, cycle);
    }
    leave();
}

void wm_partition_sum(wm_partition *p, uint64_t *vals, size_t n, uint64_t cycle)
{
    enter(cycle);
    if (!p->job.ops->sum(vals, n)) lost(p, "summing the ranks' counts", -1, cycle);
    leave();
}

char *wm_partition_gather(wm_partition *p, const void *mine, size_t len, size_t *total, uint64_t cycle)
{
    enter(cycle);
    char *all = NULL;
    if (p->job.rank != 0) {
        if (!p->job.ops->send(0, TAG_GATHER, mine, len)) lost(p, "sending its results to", 0, cycle);
    } else {
        size_t used = len;
        all = malloc(len ? len : 1);
        if (!all) lost(p, "gathering the results (out of memory)", -1, cycle);
        if (len) memcpy(all, mine, len);
        for (int k = 1; k < p->job.size; k++) {
            size_t n = 0;
            if (!p->job.ops->wait_for(k, TAG_GATHER, &n)) lost(p, "gathering the results of", k, cycle);
            char *grown = realloc(all, used + n + 1);
            if (!grown) lost(p, "gathering the results (out of memory)", -1, cycle);
            all = grown;
            if (!p->job.ops->recv(k, TAG_GATHER, all + used, n)) lost(p, "gathering the results of", k, cycle);
            used += n;
        }
        *total = used;
    }
    leave();
    return all;
}

char *wm_partition_allgather(wm_partition *p, const void *mine, size_t len, size_t *total, uint64_t cycle)
{
    char *all = wm_partition_gather(p, mine, len, total, cycle);
    enter(cycle);
    if (p->job.rank == 0) {
        for (int k = 1; k < p->job.size; k++)
            if (!p->job.ops->send(k, TAG_BCAST, all, *total)) lost(p, "sending every rank's counts to", k, cycle);
    } else {
        if (!p->job.ops->wait_for(0, TAG_BCAST, total)) lost(p, "receiving every rank's counts from", 0, cycle);
        all = malloc(*total ? *total : 1);
        if (!all) lost(p, "receiving every rank's counts (out of memory)", -1, cycle);
        if (!p->job.ops->recv(0, TAG_BCAST, all, *total)) lost(p, "receiving every rank's counts from", 0, cycle);
    }
    leave();
    return all;
}

void wm_partition_destroy(wm_partition *p)
{
    if (!p) return;
    if (p->watching) {
        atomic_store(&stop_watching, true);
        pthread_join(p->watchdog, NULL);
    }
    free(p->out);
    free(p->in);
    free(p);
}
