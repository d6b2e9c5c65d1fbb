/* xfer.h: moving word arrays between ranks, for the gs kernels.
 *
 * A transfer is an array of words to or from one peer rank under one tag.
 * On the fabric it is split into messages of at most WM_XFER_CHUNK words,
 * each a header (tag in the header's tag field), one routing word
 * (sender rank << 16 | chunk number) and the chunk: a message says where it
 * goes, not who sent it, so the receiver learns the sender from the routing
 * word and puts the chunk at chunk * WM_XFER_CHUNK in the posted buffer.
 *
 * wm_xfer_exchange pushes the sends and pops whatever arrives, one wavelet
 * at a time, polling the queues (wm_mp_queues) while it still has words to
 * send: a PE that blocked on a full TX queue would stop draining its RX
 * queue, and two ranks sending long messages to each other would deadlock.
 * When only receives are left it blocks on the RX queue. A message that
 * matches no posted receive is kept aside until one is posted (the
 * setup-phase kernels negotiate sizes, so a partner's data can arrive
 * before its receive is posted); a kernel that promises no allocation
 * (the crystal plan) posts all its receives up front and forbids this.
 *
 * Natively, every step charges what it takes on the core, measured there
 * (WM_GS_COST_XFER_*, sw/cost_model.h): the call, each turn of the loop,
 * each posted receive looked at, each wavelet taken or pushed by its kind
 * (header, routing word, data), each step of the place table's search.
 *
 * Peers are found in the rank's place table (gs_image.h), and messages
 * kept aside live in the PE's heap. */
#ifndef WM_GS_XFER_H
#define WM_GS_XFER_H

#include "heap.h"
#include "mp.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    WM_XFER_CHUNK = WM_LEN_MAX - 1 /* payload words per message: the header's most, minus the routing word */
};

typedef struct {
    unsigned peer;
    uint8_t tag;
    uint32_t *words;  /* the words to send, or where received words go */
    uint32_t len;
    uint32_t done;    /* words moved so far; 0 when posted */
} wm_xfer;

/* Counts of what one rank put on the fabric. */
typedef struct {
    uint64_t messages;
    uint64_t wavelets; /* headers included */
} wm_xfer_stats;

/* A message that arrived before its receive was posted. */
typedef struct {
    unsigned sender;
    uint8_t tag;
    uint32_t chunk;
    uint32_t n;
    uint32_t *words;
} wm_xfer_stashed;

/* The port of one rank: lives on the kernel's stack. */
typedef struct {
    wm_mp *mp;
    wm_heap *heap;
    unsigned rank;
    const uint32_t *places;  /* nplaces pairs {rank, col | row << WM_COORD_BITS}, ascending */
    uint32_t nplaces;
    int allow_stash;
    wm_xfer_stats stats;
    /* the message being received */
    unsigned in_left;   /* data wavelets still to pop; 0: the next one is a header */
    int in_routing;     /* the next wavelet is the routing word */
    uint8_t in_tag;
    uint32_t *in_dst;
    wm_xfer *in_xfer;   /* NULL while stashing */
    /* the receives of the exchange in progress */
    wm_xfer *recvs;
    size_t nrecv;
    wm_xfer_stashed *stash;
    size_t nstash, cap_stash;
    /* the message being sent */
    size_t out_send;
    uint32_t out_chunk, out_word, out_len;
} wm_xfer_port;

/* The port of rank on PE mp, allocating from heap, with the place table.
 * allow_stash: keep unmatched messages (else they are a firmware fault). */
void wm_xfer_port_init(wm_xfer_port *p, wm_mp *mp, wm_heap *heap, unsigned rank, const uint32_t *places,
                       uint32_t nplaces, bool allow_stash);
/* Give back what the port took from the heap. */
void wm_xfer_port_finish(wm_xfer_port *p);
wm_xfer_stats wm_xfer_port_stats(const wm_xfer_port *p);

/* Send sends[0..nsend) and receive into recvs[0..nrecv) until every send
 * is out and recvs[0..need) are complete; recvs[need..nrecv) are posted
 * too and fill as their messages arrive (their done counts persist). */
void wm_xfer_exchange(wm_xfer_port *p, wm_xfer *sends, size_t nsend, wm_xfer *recvs, size_t nrecv, size_t need);

#endif
