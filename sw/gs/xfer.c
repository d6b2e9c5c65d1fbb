/* xfer.c: transfers between ranks over the firmware port (see xfer.h). */
#include "xfer.h"

#include "fabric/fabric.h"
#include "run/scheduler.h"

#include <stdlib.h>
#include <string.h>

/* A message that arrived before its receive was posted. */
typedef struct {
    unsigned sender;
    uint8_t tag;
    uint32_t chunk;
    uint32_t n;
    uint32_t *words;
} stashed;

struct wm_xfer_port {
    wm_mp *mp;
    unsigned rank;
    const wm_xfer_place *places;
    unsigned nranks;
    bool allow_stash;
    wm_xfer_stats stats;
    /* the message being received */
    unsigned in_left;   /* data wavelets still to pop; 0: the next one is a header */
    bool in_routing;    /* the next wavelet is the routing word */
    uint8_t in_tag;
    uint32_t *in_dst;
    wm_xfer *in_xfer;   /* NULL while stashing */
    /* the receives of the exchange in progress */
    wm_xfer *recvs;
    size_t nrecv;
    stashed *stash;
    size_t nstash, cap_stash;
    /* the message being sent */
    size_t out_send;
    uint32_t out_chunk, out_word, out_len;
};

wm_xfer_port *wm_xfer_port_create(wm_mp *mp, unsigned rank, const wm_xfer_place *places, unsigned nranks,
                                  bool allow_stash)
{
    wm_xfer_port *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->mp = mp;
    p->rank = rank;
    p->places = places;
    p->nranks = nranks;
    p->allow_stash = allow_stash;
    return p;
}

void wm_xfer_port_destroy(wm_xfer_port *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->nstash; i++) free(p->stash[i].words);
    free(p->stash);
    free(p);
}

wm_xfer_stats wm_xfer_port_stats(const wm_xfer_port *p) { return p->stats; }

static wm_xfer *find_recv(wm_xfer_port *p, unsigned sender, uint8_t tag)
{
    for (size_t i = 0; i < p->nrecv; i++)
        if (p->recvs[i].peer == sender && p->recvs[i].tag == tag && p->recvs[i].done < p->recvs[i].len)
            return &p->recvs[i];
    return NULL;
}

static uint32_t *stash_new(wm_xfer_port *p, unsigned sender, uint8_t tag, uint32_t chunk, uint32_t n)
{
    if (!p->allow_stash)
        wm_sched_fault(p->mp, "gs rank %u: a message from rank %u with tag %u matches no posted receive", p->rank,
                       sender, tag);
    if (p->nstash == p->cap_stash) {
        size_t cap = p->cap_stash ? 2 * p->cap_stash : 8;
        stashed *grown = realloc(p->stash, cap * sizeof *grown);
        if (!grown) wm_sched_fault(p->mp, "gs rank %u: out of memory", p->rank);
        p->stash = grown;
        p->cap_stash = cap;
    }
    uint32_t *words = malloc((n ? n : 1) * sizeof *words);
    if (!words) wm_sched_fault(p->mp, "gs rank %u: out of memory", p->rank);
    p->stash[p->nstash++] = (stashed){sender, tag, chunk, n, words};
    return words;
}

/* One wavelet popped from RX, in order. */
static void take_wavelet(wm_xfer_port *p, uint32_t w)
{
    wm_sched_charge(p->mp, WM_COST_RECV_WAVELET);
    if (p->in_left == 0) {
        wm_sched_charge(p->mp, WM_COST_RECV_CALL);
        p->in_left = wm_header_len(w);
        p->in_tag = (uint8_t)wm_header_tag(w);
        p->in_routing = true;
        return;
    }
    p->in_left--;
    if (p->in_routing) {
        p->in_routing = false;
        wm_sched_charge(p->mp, WM_XFER_COST_MATCH);
        const unsigned sender = w >> 16;
        const uint32_t chunk = w & 0xffffu, n = p->in_left;
        wm_xfer *x = find_recv(p, sender, p->in_tag);
        p->in_xfer = x;
        if (!x) {
            p->in_dst = stash_new(p, sender, p->in_tag, chunk, n);
            return;
        }
        if ((uint64_t)chunk * WM_XFER_CHUNK + n > x->len)
            wm_sched_fault(p->mp, "gs rank %u: rank %u sent more than the %u words expected under tag %u", p->rank,
                           sender, x->len, p->in_tag);
        p->in_dst = x->words + (size_t)chunk * WM_XFER_CHUNK;
        return;
    }
    *p->in_dst++ = w;
    if (p->in_xfer) p->in_xfer->done++;
}

static void pop_one(wm_xfer_port *p)
{
    const uint32_t w = p->in_left == 0 ? wm_sched_pop_header(p->mp) : wm_sched_pop(p->mp);
    take_wavelet(p, w);
}

/* Move stashed messages into the receives just posted. */
static void claim_stash(wm_xfer_port *p)
{
    size_t kept = 0;
    for (size_t i = 0; i < p->nstash; i++) {
        stashed *m = &p->stash[i];
        wm_xfer *x = find_recv(p, m->sender, m->tag);
        if (x && (uint64_t)m->chunk * WM_XFER_CHUNK + m->n <= x->len) {
            memcpy(x->words + (size_t)m->chunk * WM_XFER_CHUNK, m->words, m->n * sizeof *m->words);
            x->done += m->n;
            free(m->words);
        } else {
            p->stash[kept++] = *m;
        }
    }
    p->nstash = kept;
}

static bool sends_left(wm_xfer_port *p, wm_xfer *sends, size_t nsend)
{
    while (p->out_send < nsend && sends[p->out_send].len == 0) p->out_send++;
    return p->out_send < nsend;
}

/* Push the next wavelet of the sends; the caller knows TX has room. */
static void push_one(wm_xfer_port *p, wm_xfer *sends)
{
    wm_xfer *x = &sends[p->out_send];
    uint32_t w;
    if (p->out_word == 0) {
        const uint32_t first = p->out_chunk * WM_XFER_CHUNK, left = x->len - first;
        p->out_len = left < WM_XFER_CHUNK ? left : WM_XFER_CHUNK;
        const wm_xfer_place at = p->places[x->peer];
        w = wm_mp_header(p->mp, at.x, at.y, p->out_len + 1, x->tag);
        wm_sched_charge(p->mp, WM_COST_SEND_CALL);
        p->stats.messages++;
    } else if (p->out_word == 1) {
        w = (uint32_t)p->rank << 16 | p->out_chunk;
    } else {
        w = x->words[p->out_chunk * WM_XFER_CHUNK + p->out_word - 2];
    }
    wm_sched_charge(p->mp, WM_COST_SEND_WAVELET);
    wm_sched_push(p->mp, w);
    p->stats.wavelets++;
    if (++p->out_word < p->out_len + 2) return;
    p->out_word = 0;
    x->done += p->out_len;
    if (x->done < x->len) {
        p->out_chunk++;
    } else {
        p->out_chunk = 0;
        p->out_send++;
    }
}

static bool needs_left(const wm_xfer *recvs, size_t need)
{
    for (size_t i = 0; i < need; i++)
        if (recvs[i].done < recvs[i].len) return true;
    return false;
}

void wm_xfer_exchange(wm_xfer_port *p, wm_xfer *sends, size_t nsend, wm_xfer *recvs, size_t nrecv, size_t need)
{
    p->recvs = recvs;
    p->nrecv = nrecv;
    p->out_send = 0;
    p->out_chunk = p->out_word = 0;
    for (size_t i = 0; i < nsend; i++) sends[i].done = 0;
    claim_stash(p);
    for (;;) {
        const bool sending = sends_left(p, sends, nsend);
        if (!sending && !needs_left(recvs, need) && p->in_left == 0) break;
        if (!sending) {
            pop_one(p);
            continue;
        }
        unsigned room, waiting;
        wm_mp_queues(p->mp, &room, &waiting);
        for (unsigned k = 0; k < waiting; k++) pop_one(p);
        for (unsigned k = 0; k < room && sends_left(p, sends, nsend); k++) push_one(p, sends);
    }
    p->recvs = NULL;
    p->nrecv = 0;
}
