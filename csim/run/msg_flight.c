/* msg_flight.c: messages in flight, counted at the PEs' ports, and where
 * each came from (see msg_flight.h). */
#include "run/msg_flight.h"

#include "wavelet.h"

#include <stdlib.h>
#include <string.h>

bool wm_msg_flight_init(wm_msg_flight *m, unsigned width, unsigned height)
{
    const size_t ntiles = (size_t)width * height;
    memset(m, 0, sizeof *m);
    m->tx_left = calloc(ntiles ? ntiles : 1, 1);
    m->rx_left = calloc(ntiles ? ntiles : 1, 1);
    m->rx_msgs = calloc(ntiles ? ntiles : 1, sizeof *m->rx_msgs);
    m->tiles = malloc((ntiles ? ntiles : 1) * sizeof *m->tiles);
    m->width = width;
    m->height = height;
    m->ntiles = ntiles;
    m->free_sent = WM_MSG_NONE;
    if (!m->tx_left || !m->rx_left || !m->rx_msgs || !m->tiles) {
        wm_msg_flight_free(m);
        return false;
    }
    for (size_t t = 0; t < ntiles; t++)
        m->tiles[t] = (wm_msg_tile){WM_MSG_NONE, WM_MSG_NONE, WM_MSG_NONE, WM_MSG_NONE, 0, 0, 0};
    return true;
}

void wm_msg_flight_free(wm_msg_flight *m)
{
    free(m->tx_left);
    free(m->rx_left);
    free(m->rx_msgs);
    free(m->tiles);
    free(m->sent);
    memset(m, 0, sizeof *m);
}

size_t wm_msg_flight_bytes(const wm_msg_flight *m)
{
    return m->ntiles * (sizeof *m->tx_left + sizeof *m->rx_left + sizeof *m->rx_msgs + sizeof *m->tiles) +
           (size_t)m->cap_sent * sizeof *m->sent;
}

/* FNV-1a over the data words: identical data, identical hashes. */
enum { HASH_START = 0xcbf29ce484222325u };
static inline uint64_t hash_word(uint64_t h, uint32_t w) { return (h ^ w) * 0x100000001b3u; }

/* A record, or WM_MSG_NONE when out of memory (then no sender is named
 * again: a record missing would name the wrong one). */
static uint32_t new_record(wm_msg_flight *m)
{
    if (m->free_sent != WM_MSG_NONE) {
        const uint32_t r = m->free_sent;
        m->free_sent = m->sent[r].next;
        return r;
    }
    if (m->nsent == m->cap_sent) {
        const uint32_t cap = m->cap_sent ? 2 * m->cap_sent : 256;
        wm_msg_sent *grown = cap > m->cap_sent ? realloc(m->sent, (size_t)cap * sizeof *grown) : NULL;
        if (!grown) {
            m->origins_lost = true;
            return WM_MSG_NONE;
        }
        m->sent = grown;
        m->cap_sent = cap;
    }
    return m->nsent++;
}

static void free_record(wm_msg_flight *m, uint32_t r)
{
    if (r == WM_MSG_NONE) return;
    m->sent[r].next = m->free_sent;
    m->free_sent = r;
}

/* The PE of tile starts a message with header: kept at its receiver's. */
static void note_header(wm_msg_flight *m, size_t tile, uint32_t header, uint64_t cycle, uint64_t site)
{
    wm_msg_tile *from = &m->tiles[tile];
    from->pushing = WM_MSG_NONE;
    const unsigned col = wm_header_col(header), row = wm_header_row(header);
    if (m->origins_lost || col >= m->width || row >= m->height) return; /* off the mesh: nobody reads it */
    const uint32_t r = new_record(m);
    if (r == WM_MSG_NONE) return;
    m->sent[r] = (wm_msg_sent){.header = header, .sender = (uint32_t)tile, .next = WM_MSG_NONE, .cycle = cycle,
                               .site = site, .data_hash = HASH_START};
    wm_msg_tile *to = &m->tiles[(size_t)row * m->width + col];
    if (to->tail == WM_MSG_NONE) to->head = r;
    else m->sent[to->tail].next = r;
    to->tail = r;
    if (wm_header_len(header)) from->pushing = r;
}

void wm_msg_flight_push(wm_msg_flight *m, size_t tile, uint32_t wavelet, uint64_t cycle, uint64_t site)
{
    if (tile >= m->ntiles) return;
    if (m->tx_left[tile]) {
        wm_msg_tile *from = &m->tiles[tile];
        if (from->pushing != WM_MSG_NONE) {
            wm_msg_sent *r = &m->sent[from->pushing];
            r->data_hash = hash_word(r->data_hash, wavelet);
            r->pushed++;
        }
        if (--m->tx_left[tile] == 0) from->pushing = WM_MSG_NONE;
        return;
    }
    m->started++;
    m->tx_left[tile] = (uint8_t)wm_header_len(wavelet);
    note_header(m, tile, wavelet, cycle, site);
}

/* Record r, pending at receiver to, is the message it received: out of
 * its list, and its last; senders others may have sent it as well. */
static void take(wm_msg_flight *m, wm_msg_tile *to, uint32_t r, uint32_t senders, uint32_t alt, bool data_compared)
{
    uint32_t prev = WM_MSG_NONE;
    for (uint32_t q = to->head; q != r; q = m->sent[q].next) prev = q;
    if (prev == WM_MSG_NONE) to->head = m->sent[r].next;
    else m->sent[prev].next = m->sent[r].next;
    if (to->tail == r) to->tail = prev;
    wm_msg_sent *got = &m->sent[r];
    got->candidate = false;
    /* the twin of a message read before keeps its note (note_twins) */
    if (senders > 1 || got->senders <= 1) {
        got->senders = senders;
        got->data_compared = data_compared;
        got->alt_sender = alt == WM_MSG_NONE ? WM_MSG_NONE : m->sent[alt].sender;
        got->alt_cycle = alt == WM_MSG_NONE ? 0 : m->sent[alt].cycle;
        got->alt_site = alt == WM_MSG_NONE ? 0 : m->sent[alt].site;
    }
    free_record(m, to->last);
    to->last = r;
}

/* A fresh mark for wm_msg_tile.seen. */
static uint32_t next_mark(wm_msg_flight *m)
{
    if (++m->mark == 0) {
        for (size_t t = 0; t < m->ntiles; t++) m->tiles[t].seen = 0;
        m->mark = 1;
    }
    return m->mark;
}

/* Receiver to popped header in cycle: the candidates are the oldest
 * pending message of each sender, where it has this header. */
static void note_header_popped(wm_msg_flight *m, wm_msg_tile *to, uint32_t header, uint64_t cycle)
{
    to->candidates = 0;
    to->rx_hash = HASH_START;
    if (m->origins_lost) return;
    const uint32_t mark = next_mark(m);
    uint32_t first = WM_MSG_NONE;
    for (uint32_t q = to->head; q != WM_MSG_NONE; q = m->sent[q].next) {
        wm_msg_sent *r = &m->sent[q];
        wm_msg_tile *sender = &m->tiles[r->sender];
        if (sender->seen == mark) continue;
        sender->seen = mark;
        if (r->header != header) continue;
        r->candidate = true;
        r->received = cycle;
        if (first == WM_MSG_NONE) first = q;
        to->candidates++;
    }
    if (to->candidates == 1) {
        take(m, to, first, 1, WM_MSG_NONE, false);
        to->candidates = 0;
    } else if (to->candidates == 0) {
        /* sent before the pushes were seen: its sender is not known */
        const uint32_t r = new_record(m);
        if (r == WM_MSG_NONE) return;
        m->sent[r] = (wm_msg_sent){.header = header, .sender = WM_MSG_NONE, .received = cycle};
        free_record(m, to->last);
        to->last = r;
    }
}

/* Of identical messages, the receiver read the one taken is said to be;
 * each other is as likely to be the one read, and stays ambiguous with it
 * when it is read or reported in its turn. */
static void note_twins(wm_msg_flight *m, const wm_msg_tile *to, uint32_t taken, uint32_t senders)
{
    const wm_msg_sent *t = &m->sent[taken];
    for (uint32_t q = to->head; q != WM_MSG_NONE; q = m->sent[q].next) {
        wm_msg_sent *r = &m->sent[q];
        if (q == taken || r->header != t->header || r->pushed != t->pushed || r->data_hash != t->data_hash) continue;
        r->senders = senders;
        r->data_compared = true;
        r->alt_sender = t->sender;
        r->alt_cycle = t->cycle;
        r->alt_site = t->site;
    }
}

/* Receiver to read the last wavelet of a message several senders may have
 * sent: those whose data, all pushed, are the ones it read. */
static void resolve(wm_msg_flight *m, wm_msg_tile *to)
{
    uint32_t first = WM_MSG_NONE, second = WM_MSG_NONE, matches = 0;
    uint32_t any = WM_MSG_NONE, any2 = WM_MSG_NONE;
    for (uint32_t q = to->head; q != WM_MSG_NONE; q = m->sent[q].next) {
        wm_msg_sent *r = &m->sent[q];
        if (!r->candidate) continue;
        r->candidate = false;
        if (any == WM_MSG_NONE) any = q;
        else if (any2 == WM_MSG_NONE) any2 = q;
        if (r->pushed != wm_header_len(r->header) || r->data_hash != to->rx_hash) continue;
        if (first == WM_MSG_NONE) first = q;
        else if (second == WM_MSG_NONE) second = q;
        matches++;
    }
    if (matches > 1) note_twins(m, to, first, matches);
    if (matches) take(m, to, first, matches, second, true);
    else if (any != WM_MSG_NONE) take(m, to, any, to->candidates, any2, false);
    to->candidates = 0;
}

void wm_msg_flight_pop(wm_msg_flight *m, size_t tile, uint32_t wavelet, uint64_t cycle)
{
    if (tile >= m->ntiles) return;
    uint8_t *left = &m->rx_left[tile];
    wm_msg_tile *to = &m->tiles[tile];
    if (*left) {
        if (to->candidates) to->rx_hash = hash_word(to->rx_hash, wavelet);
        if (--*left == 0) {
            m->ended++;
            if (to->candidates) resolve(m, to);
        }
        return;
    }
    *left = (uint8_t)wm_header_len(wavelet);
    m->rx_msgs[tile]++;
    note_header_popped(m, to, wavelet, cycle);
    if (*left == 0) {
        m->ended++;
        if (to->candidates) resolve(m, to);
    }
}

static void add_sender(wm_msg_origin *o, uint32_t tile, uint64_t cycle, uint64_t site)
{
    if (o->senders < 2) {
        o->sender[o->senders].tile = tile;
        o->sender[o->senders].cycle = cycle;
        o->sender[o->senders].site = site;
    }
    o->senders++;
}

bool wm_msg_flight_last_received(const wm_msg_flight *m, size_t tile, wm_msg_origin *o)
{
    if (tile >= m->ntiles || m->origins_lost) return false;
    const wm_msg_tile *to = &m->tiles[tile];
    *o = (wm_msg_origin){0};
    if (to->candidates) {
        /* in the middle of a message several senders may have sent */
        for (uint32_t q = to->head; q != WM_MSG_NONE; q = m->sent[q].next) {
            const wm_msg_sent *r = &m->sent[q];
            if (!r->candidate) continue;
            o->header = r->header;
            o->received = r->received;
            add_sender(o, r->sender, r->cycle, r->site);
        }
        return true;
    }
    if (to->last == WM_MSG_NONE) return false;
    const wm_msg_sent *r = &m->sent[to->last];
    o->header = r->header;
    o->received = r->received;
    if (r->sender == WM_MSG_NONE) return true;
    add_sender(o, r->sender, r->cycle, r->site);
    if (r->senders > 1) {
        add_sender(o, r->alt_sender, r->alt_cycle, r->alt_site);
        o->senders = r->senders;
        o->data_compared = r->data_compared;
    }
    return true;
}

/* Whether q is the oldest message pending at to from its sender. */
static bool oldest_of_its_sender(const wm_msg_flight *m, const wm_msg_tile *to, uint32_t q)
{
    for (uint32_t p = to->head; p != q; p = m->sent[p].next)
        if (m->sent[p].sender == m->sent[q].sender) return false;
    return true;
}

bool wm_msg_flight_head_origin(const wm_msg_flight *m, size_t tile, uint32_t header, wm_msg_origin *o)
{
    if (tile >= m->ntiles || m->origins_lost) return false;
    const wm_msg_tile *to = &m->tiles[tile];
    *o = (wm_msg_origin){.header = header};
    bool same_data = true, complete = true;
    uint64_t hash = 0;
    const wm_msg_sent *twin = NULL;
    for (uint32_t q = to->head; q != WM_MSG_NONE; q = m->sent[q].next) {
        const wm_msg_sent *r = &m->sent[q];
        if (r->header != header || !oldest_of_its_sender(m, to, q)) continue;
        if (!o->senders) hash = r->data_hash;
        same_data = same_data && r->data_hash == hash;
        complete = complete && r->pushed == wm_header_len(header);
        add_sender(o, r->sender, r->cycle, r->site);
        if (r->senders > 1 && o->senders == 1) twin = r;
    }
    /* Messages equal in their data too are identical whichever is first. */
    o->data_compared = o->senders > 1 && same_data && complete;
    if (o->senders == 1 && twin) {
        add_sender(o, twin->alt_sender, twin->alt_cycle, twin->alt_site);
        o->senders = twin->senders;
        o->data_compared = true;
    }
    return true;
}
