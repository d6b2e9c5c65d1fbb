/* xfer.c: transfers between ranks over the firmware port (see xfer.h). */
#include "xfer.h"

void wm_xfer_port_init(wm_xfer_port *p, wm_mp *mp, wm_heap *heap, unsigned rank, const uint32_t *places,
                       uint32_t nplaces, bool allow_stash)
{
    wm_mp_work(mp, WM_GS_COST_XFER_INIT);
    *p = (wm_xfer_port){0};
    p->mp = mp;
    p->heap = heap;
    p->rank = rank;
    p->places = places;
    p->nplaces = nplaces;
    p->allow_stash = allow_stash;
}

void wm_xfer_port_finish(wm_xfer_port *p)
{
    for (size_t i = 0; i < p->nstash; i++) wm_heap_give(p->heap, p->stash[i].words);
    wm_heap_give(p->heap, p->stash);
    p->stash = NULL;
    p->nstash = p->cap_stash = 0;
}

/* The place word of peer, by binary search of the table. */
static uint32_t place_of(wm_xfer_port *p, unsigned peer)
{
    uint32_t lo = 0, hi = p->nplaces;
    while (lo < hi) {
        wm_mp_work(p->mp, WM_GS_COST_XFER_PLACE_STEP);
        const uint32_t mid = lo + (hi - lo) / 2;
        if (p->places[2 * mid] < peer)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == p->nplaces || p->places[2 * lo] != peer)
        wm_mp_fault(p->mp, "gs rank %u: rank %u is not in its place table", p->rank, peer);
    return p->places[2 * lo + 1];
}

static void copy_words(uint32_t *to, const uint32_t *from, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) to[i] = from[i];
}

wm_xfer_stats wm_xfer_port_stats(const wm_xfer_port *p) { return p->stats; }

static wm_xfer *find_recv(wm_xfer_port *p, unsigned sender, uint8_t tag)
{
    for (size_t i = 0; i < p->nrecv; i++) {
        wm_mp_work(p->mp, WM_GS_COST_XFER_SCAN);
        if (p->recvs[i].peer == sender && p->recvs[i].tag == tag && p->recvs[i].done < p->recvs[i].len)
            return &p->recvs[i];
    }
    return NULL;
}

static uint32_t *stash_new(wm_xfer_port *p, unsigned sender, uint8_t tag, uint32_t chunk, uint32_t n)
{
    if (!p->allow_stash)
        wm_mp_fault(p->mp, "gs rank %u: a message from rank %u with tag %u matches no posted receive", p->rank,
                       sender, tag);
    if (p->nstash == p->cap_stash) {
        size_t cap = p->cap_stash ? 2 * p->cap_stash : 8;
        wm_xfer_stashed *grown = wm_heap_resize(p->heap, p->stash, (uint32_t)(cap * sizeof *grown));
        if (!grown) wm_mp_fault(p->mp, "gs rank %u: out of memory (PE data memory)", p->rank);
        p->stash = grown;
        p->cap_stash = cap;
    }
    uint32_t *words = wm_heap_take(p->heap, n * (uint32_t)sizeof *words);
    if (!words) wm_mp_fault(p->mp, "gs rank %u: out of memory (PE data memory)", p->rank);
    p->stash[p->nstash++] = (wm_xfer_stashed){sender, tag, chunk, n, words};
    return words;
}

/* One wavelet popped from RX, in order. */
static void take_wavelet(wm_xfer_port *p, uint32_t w)
{
    if (p->in_left == 0) {
        wm_mp_work(p->mp, WM_GS_COST_XFER_IN_HEADER);
        p->in_left = wm_header_len(w);
        p->in_tag = (uint8_t)wm_header_tag(w);
        p->in_routing = true;
        return;
    }
    p->in_left--;
    if (p->in_routing) {
        p->in_routing = false;
        const unsigned sender = w >> 16;
        const uint32_t chunk = w & 0xffffu, n = p->in_left;
        wm_xfer *x = find_recv(p, sender, p->in_tag);
        p->in_xfer = x;
        if (!x) {
            p->in_dst = stash_new(p, sender, p->in_tag, chunk, n);
            return;
        }
        if ((uint64_t)chunk * WM_XFER_CHUNK + n > x->len)
            wm_mp_fault(p->mp, "gs rank %u: rank %u sent more than the %u words expected under tag %u", p->rank,
                           sender, x->len, p->in_tag);
        p->in_dst = x->words + (size_t)chunk * WM_XFER_CHUNK;
        return;
    }
    wm_mp_work(p->mp, WM_GS_COST_XFER_IN_DATA);
    *p->in_dst++ = w;
    if (p->in_xfer) p->in_xfer->done++;
}

static void pop_one(wm_xfer_port *p)
{
    const uint32_t w = p->in_left == 0 ? wm_mp_pop_header(p->mp) : wm_mp_pop(p->mp);
    take_wavelet(p, w);
}

/* Move stashed messages into the receives just posted. */
static void claim_stash(wm_xfer_port *p)
{
    size_t kept = 0;
    for (size_t i = 0; i < p->nstash; i++) {
        wm_xfer_stashed *m = &p->stash[i];
        wm_xfer *x = find_recv(p, m->sender, m->tag);
        if (x && (uint64_t)m->chunk * WM_XFER_CHUNK + m->n <= x->len) {
            wm_mp_work(p->mp, m->n * WM_GS_COST_COPY);
            copy_words(x->words + (size_t)m->chunk * WM_XFER_CHUNK, m->words, m->n);
            x->done += m->n;
            wm_heap_give(p->heap, m->words);
        } else {
            p->stash[kept++] = *m;
        }
    }
    p->nstash = kept;
}

static bool sends_left(wm_xfer_port *p, wm_xfer *sends, size_t nsend)
{
    while (p->out_send < nsend && sends[p->out_send].len == 0) {
        wm_mp_work(p->mp, WM_GS_COST_XFER_SCAN);
        p->out_send++;
    }
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
        const uint32_t at = place_of(p, x->peer);
        /* Every field is in range by construction (a place on the mesh, at
         * most WM_XFER_CHUNK + 1 words, gs's own tags): the masks say so to
         * the compiler, which then leaves wm_mp_header's check, and its
         * fault path, out of the image. */
        w = wm_mp_header(p->mp, at & (WM_MESH_MAX - 1u), (at >> WM_COORD_BITS) & (WM_MESH_MAX - 1u),
                         p->out_len + 1, x->tag & WM_TAG_MAX);
        wm_mp_work(p->mp, WM_GS_COST_XFER_OUT_HEADER);
        p->stats.messages++;
    } else if (p->out_word == 1) {
        w = (uint32_t)p->rank << 16 | p->out_chunk;
    } else {
        wm_mp_work(p->mp, WM_GS_COST_XFER_OUT_DATA);
        w = x->words[p->out_chunk * WM_XFER_CHUNK + p->out_word - 2];
    }
    wm_mp_push(p->mp, w);
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

static bool needs_left(wm_xfer_port *p, const wm_xfer *recvs, size_t need)
{
    for (size_t i = 0; i < need; i++) {
        wm_mp_work(p->mp, WM_GS_COST_XFER_SCAN);
        if (recvs[i].done < recvs[i].len) return true;
    }
    return false;
}

void wm_xfer_exchange(wm_xfer_port *p, wm_xfer *sends, size_t nsend, wm_xfer *recvs, size_t nrecv, size_t need)
{
    p->recvs = recvs;
    p->nrecv = nrecv;
    p->out_send = 0;
    p->out_chunk = p->out_word = 0;
    wm_mp_work(p->mp, WM_GS_COST_XFER_CALL);
    for (size_t i = 0; i < nsend; i++) sends[i].done = 0;
    claim_stash(p);
    for (;;) {
        const bool sending = sends_left(p, sends, nsend);
        if (!sending && !needs_left(p, recvs, need) && p->in_left == 0) break;
        if (!sending) {
            wm_mp_work(p->mp, WM_GS_COST_XFER_RECV_LOOP);
            pop_one(p);
            continue;
        }
        wm_mp_work(p->mp, WM_GS_COST_XFER_LOOP);
        unsigned room, waiting;
        wm_mp_queues(p->mp, &room, &waiting);
        for (unsigned k = 0; k < waiting; k++) pop_one(p);
        for (unsigned k = 0; k < room && sends_left(p, sends, nsend); k++) push_one(p, sends);
    }
    p->recvs = NULL;
    p->nrecv = 0;
}
