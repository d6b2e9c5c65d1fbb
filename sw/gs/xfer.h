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
 * Costs, on top of one cycle per port access: a sent message costs
 * WM_COST_HEADER + WM_COST_SEND_CALL and WM_COST_SEND_WAVELET per wavelet,
 * a received one WM_COST_RECV_CALL + WM_XFER_COST_MATCH and
 * WM_COST_RECV_WAVELET per wavelet (sw/mp.h, docs/crystal.md). */
#ifndef WM_GS_XFER_H
#define WM_GS_XFER_H

#include "mp.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    WM_XFER_CHUNK = 254,    /* payload words per message: 255 minus the routing word */
    WM_XFER_COST_MATCH = 6  /* find the posted receive of (sender, tag) */
};

typedef struct {
    unsigned peer;
    uint8_t tag;
    uint32_t *words;  /* the words to send, or where received words go */
    uint32_t len;
    uint32_t done;    /* words moved so far; 0 when posted */
} wm_xfer;

/* Where each rank's PE is: the kernels never compute coordinates. */
typedef struct {
    uint8_t x, y;
} wm_xfer_place;

/* Counts of what one rank put on the fabric. */
typedef struct {
    uint64_t messages;
    uint64_t wavelets; /* headers included */
} wm_xfer_stats;

typedef struct wm_xfer_port wm_xfer_port;

/* The port of rank, on PE mp, with places[nranks]. allow_stash: keep
 * unmatched messages (else they are a firmware fault). */
wm_xfer_port *wm_xfer_port_create(wm_mp *mp, unsigned rank, const wm_xfer_place *places, unsigned nranks,
                                  bool allow_stash);
void wm_xfer_port_destroy(wm_xfer_port *p);
wm_xfer_stats wm_xfer_port_stats(const wm_xfer_port *p);

/* Send sends[0..nsend) and receive into recvs[0..nrecv) until every send
 * is out and recvs[0..need) are complete; recvs[need..nrecv) are posted
 * too and fill as their messages arrive (their done counts persist). */
void wm_xfer_exchange(wm_xfer_port *p, wm_xfer *sends, size_t nsend, wm_xfer *recvs, size_t nrecv, size_t need);

#endif
