/* msg_flight.h: messages in flight, counted at the PEs' ports, and where
 * each came from.
 *
 * A message is in flight from the push of its header into its sender's TX
 * queue to the pop of its last wavelet from its receiver's RX queue. Each
 * PE's pushes, and each PE's pops, are framed as its router frames them (a
 * header, then len data wavelets, docs/fabric.md), so every push and pop,
 * with its wavelet, says whether a message starts or ends there: the
 * count needs nothing but the ports, whoever drives them (a coroutine or
 * a core). A message a router discards off the mesh is never popped and
 * stays counted.
 *
 * For the reports, each message sent to a PE of the mesh is kept until
 * its receiver has read it: its header, its sender, the cycle and the
 * place of the send (a native call site or a core's PC) and a hash of its
 * data; and, per PE, the last message it received. Which sender's message
 * a receiver pops is told by the wavelets alone: routing is XY and
 * wormhole, so the messages from one sender to one receiver arrive in the
 * order they were sent, whole, while those of different senders may come
 * in any order. A popped header is thus the oldest pending message of one
 * of the senders whose oldest pending message has that header; if there
 * are several, their data, hashed as the receiver pops them, tell them
 * apart at the message's end, and messages equal in both stay ambiguous
 * and are reported as such. What is kept is bounded by what the fabric
 * holds: a message's record lives while its wavelets are in queues and
 * buffers, plus one record a PE for its last message.
 */
#ifndef WM_MSG_FLIGHT_H
#define WM_MSG_FLIGHT_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { WM_MSG_NONE = UINT32_MAX };

/* A message sent and not yet read, or a PE's last message received. */
typedef struct {
    uint32_t header;
    uint32_t sender;    /* its tile (row-major), WM_MSG_NONE when not known */
    uint32_t next;      /* the receiver's next pending message, or the next free record */
    uint16_t pushed;    /* data wavelets pushed so far */
    bool candidate;     /* one of the messages the receiver may be reading */
    bool data_compared; /* once received: senders > 1 after comparing the data too, not only the headers */
    uint32_t senders;   /* once received: the senders it may be from, 1, or more for identical messages */
    uint32_t alt_sender;        /* ... and the second of them */
    uint64_t cycle;     /* the push of its header */
    uint64_t site;      /* where it was sent: a native call site's address, or a core's PC */
    uint64_t data_hash; /* of the data pushed so far */
    uint64_t received;  /* the pop of its header */
    uint64_t alt_cycle, alt_site;
} wm_msg_sent;

/* Per tile: its PE as a receiver, and as a sender. */
typedef struct {
    uint32_t head, tail; /* the messages sent to it and not yet read, oldest first */
    uint32_t last;       /* its last message received */
    uint32_t pushing;    /* the message it is pushing the data of */
    uint32_t candidates; /* while reading a message several senders may have sent */
    uint32_t seen;       /* a sender's mark while a receiver's messages are searched */
    uint64_t rx_hash;    /* of the data of the message being read */
} wm_msg_tile;

typedef struct {
    uint8_t *tx_left;  /* per tile: data wavelets still to push of the message being pushed */
    uint8_t *rx_left;  /* per tile: data wavelets still to pop of the message being popped */
    uint32_t *rx_msgs; /* per tile: headers popped, the messages its PE has begun to receive */
    wm_msg_tile *tiles;
    wm_msg_sent *sent; /* the records, and a free list through next */
    uint32_t nsent, cap_sent, free_sent;
    uint32_t mark;     /* the last mark of wm_msg_tile.seen */
    bool origins_lost; /* out of memory for a record: no sender is named */
    unsigned width, height;
    size_t ntiles;
    uint64_t started;  /* headers pushed */
    uint64_t ended;    /* last wavelets popped */
} wm_msg_flight;

/* For a width x height mesh (tiles row-major), nothing pushed; false when
 * out of memory. */
WM_MUST_USE bool wm_msg_flight_init(wm_msg_flight *m, unsigned width, unsigned height);
void wm_msg_flight_free(wm_msg_flight *m);
/* The bytes it holds, for a report of the run's memory. */
size_t wm_msg_flight_bytes(const wm_msg_flight *m);

/* A wavelet pushed by the PE of tile in cycle from site (see wm_msg_sent),
 * or popped by it in cycle. */
void wm_msg_flight_push(wm_msg_flight *m, size_t tile, uint32_t wavelet, uint64_t cycle, uint64_t site);
void wm_msg_flight_pop(wm_msg_flight *m, size_t tile, uint32_t wavelet, uint64_t cycle);

/* The messages the PE of tile has begun to receive (headers popped), and
 * whether it is in the middle of one (its next pop is a data wavelet). */
static inline uint32_t wm_msg_flight_received(const wm_msg_flight *m, size_t tile)
{
    return tile < m->ntiles ? m->rx_msgs[tile] : 0;
}
static inline bool wm_msg_flight_mid_message(const wm_msg_flight *m, size_t tile)
{
    return tile < m->ntiles && m->rx_left[tile] != 0;
}

static inline uint64_t wm_msg_flight_count(const wm_msg_flight *m) { return m->started - m->ended; }

/* Where a message came from, for a report. */
typedef struct {
    uint32_t header;
    uint64_t received;     /* the cycle its header was popped (a message received) */
    uint32_t senders;      /* 0: not known; 1: known; more: any of them */
    bool data_compared;    /* senders > 1 although the data were compared: identical messages */
    struct {
        uint32_t tile;
        uint64_t cycle, site;
    } sender[2];           /* the first two */
} wm_msg_origin;

/* The last message the PE of tile received (its header popped, perhaps
 * not its data yet); false if none, or if the senders are not kept. */
bool wm_msg_flight_last_received(const wm_msg_flight *m, size_t tile, wm_msg_origin *o);
/* The senders of header, at the head of tile's RX queue and not begun to
 * be read; false if the senders are not kept. */
bool wm_msg_flight_head_origin(const wm_msg_flight *m, size_t tile, uint32_t header, wm_msg_origin *o);

#endif
