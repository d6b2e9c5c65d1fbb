/* msg_flight.h: messages in flight, counted at the PEs' ports.
 *
 * A message is in flight from the push of its header into its sender's TX
 * queue to the pop of its last wavelet from its receiver's RX queue. Each
 * PE's pushes, and each PE's pops, are framed as its router frames them (a
 * header, then len data wavelets, docs/fabric.md), so every push and pop,
 * with its wavelet, says whether a message starts or ends there: the
 * count needs nothing but the ports, whoever drives them (a coroutine or
 * a core). A message a router discards off the mesh is never popped and
 * stays counted.
 */
#ifndef WM_MSG_FLIGHT_H
#define WM_MSG_FLIGHT_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint8_t *tx_left;  /* per tile: data wavelets still to push of the message being pushed */
    uint8_t *rx_left;  /* per tile: data wavelets still to pop of the message being popped */
    uint32_t *rx_msgs; /* per tile: headers popped, the messages its PE has begun to receive */
    size_t ntiles;
    uint64_t started;  /* headers pushed */
    uint64_t ended;    /* last wavelets popped */
} wm_msg_flight;

/* For ntiles tiles (row-major), nothing pushed; false when out of memory. */
WM_MUST_USE bool wm_msg_flight_init(wm_msg_flight *m, size_t ntiles);
void wm_msg_flight_free(wm_msg_flight *m);

/* A wavelet pushed by the PE of tile, or popped by it. */
void wm_msg_flight_push(wm_msg_flight *m, size_t tile, uint32_t wavelet);
void wm_msg_flight_pop(wm_msg_flight *m, size_t tile, uint32_t wavelet);

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

#endif
