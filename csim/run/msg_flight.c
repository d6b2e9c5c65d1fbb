/* msg_flight.c: messages in flight, counted at the PEs' ports (see msg_flight.h). */
#include "run/msg_flight.h"

#include "wavelet.h"

#include <stdlib.h>

bool wm_msg_flight_init(wm_msg_flight *m, size_t ntiles)
{
    m->tx_left = calloc(ntiles ? ntiles : 1, 1);
    m->rx_left = calloc(ntiles ? ntiles : 1, 1);
    m->rx_msgs = calloc(ntiles ? ntiles : 1, sizeof *m->rx_msgs);
    m->ntiles = ntiles;
    m->started = m->ended = 0;
    if (m->tx_left && m->rx_left && m->rx_msgs) return true;
    wm_msg_flight_free(m);
    return false;
}

void wm_msg_flight_free(wm_msg_flight *m)
{
    free(m->tx_left);
    free(m->rx_left);
    free(m->rx_msgs);
    m->tx_left = m->rx_left = NULL;
    m->rx_msgs = NULL;
    m->ntiles = 0;
}

void wm_msg_flight_push(wm_msg_flight *m, size_t tile, uint32_t wavelet)
{
    if (tile >= m->ntiles) return;
    if (m->tx_left[tile]) {
        m->tx_left[tile]--;
        return;
    }
    m->started++;
    m->tx_left[tile] = (uint8_t)wm_header_len(wavelet);
}

void wm_msg_flight_pop(wm_msg_flight *m, size_t tile, uint32_t wavelet)
{
    if (tile >= m->ntiles) return;
    uint8_t *left = &m->rx_left[tile];
    if (*left) {
        if (--*left == 0) m->ended++;
        return;
    }
    *left = (uint8_t)wm_header_len(wavelet);
    m->rx_msgs[tile]++;
    if (*left == 0) m->ended++;
}
