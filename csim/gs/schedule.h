/* schedule.h: a gather-scatter schedule, who shares which dofs with whom.
 *
 * P ranks each own local dofs, each with a global id. A dof whose global id
 * is held by several ranks is shared: gs_op(sum) makes every copy equal to
 * the sum of all copies. The schedule says, per rank and per peer, which
 * local dofs the rank sends (its contributions) and into which local dofs it
 * reduces what the peer sends. The i-th word a rank sends to a peer is the
 * i-th word that peer reduces from it, so both lists of a pair must name the
 * same global ids in the same order; wm_gs_schedule_check refuses a schedule
 * where they do not, naming both ranks.
 *
 * Peers are kept in ascending rank order: that is the canonical order of
 * the reduction (every method adds the copies in ascending origin rank), so
 * the float32 results of all methods are bitwise equal. */
#ifndef WM_GS_SCHEDULE_H
#define WM_GS_SCHEDULE_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct wm_gs_schedule wm_gs_schedule;

/* One direction of one rank's traffic with one peer. */
typedef struct {
    unsigned peer;
    size_t count;          /* dofs */
    const uint32_t *dofs;  /* local dof indices, count of them */
} wm_gs_peer_list;

/* An empty schedule of nranks ranks, no dofs. NULL if out of memory. */
WM_MUST_USE wm_gs_schedule *wm_gs_schedule_create(unsigned nranks);
void wm_gs_schedule_destroy(wm_gs_schedule *s);

/* Give rank its local dofs, by global id (replaces any earlier ones).
 * Returns false if out of memory. */
bool wm_gs_schedule_set_dofs(wm_gs_schedule *s, unsigned rank, size_t count, const uint64_t *global_ids);

/* Fill every rank's send and receive lists from the global ids: each rank
 * sends every shared dof to every other holder of that id, and reduces
 * from every other holder, lists sorted by global id. A global id held
 * twice by one rank is refused (message to err). */
bool wm_gs_schedule_derive(wm_gs_schedule *s, FILE *err);

/* Append a send list (rank -> peer) or a receive list (rank <- peer) by
 * hand, replacing one for the same peer. For schedules read from outside
 * and for tests; wm_gs_schedule_check says whether the pairs agree. */
bool wm_gs_schedule_add_send(wm_gs_schedule *s, unsigned rank, unsigned peer, size_t count, const uint32_t *dofs);
bool wm_gs_schedule_add_recv(wm_gs_schedule *s, unsigned rank, unsigned peer, size_t count, const uint32_t *dofs);

/* Does every send list have a receive list at its peer with the same
 * global ids in the same order, and every receive list a send list? On the
 * first disagreement prints one line naming both ranks to err and returns
 * false. Also refuses dof indices out of range and a rank listed as its
 * own peer. */
WM_MUST_USE bool wm_gs_schedule_check(const wm_gs_schedule *s, FILE *err);

unsigned wm_gs_schedule_ranks(const wm_gs_schedule *s);
size_t wm_gs_schedule_dofs(const wm_gs_schedule *s, unsigned rank);
uint64_t wm_gs_schedule_global_id(const wm_gs_schedule *s, unsigned rank, size_t dof);
/* Send and receive lists of rank, in ascending peer order. */
size_t wm_gs_schedule_send_count(const wm_gs_schedule *s, unsigned rank);
wm_gs_peer_list wm_gs_schedule_send(const wm_gs_schedule *s, unsigned rank, size_t i);
size_t wm_gs_schedule_recv_count(const wm_gs_schedule *s, unsigned rank);
wm_gs_peer_list wm_gs_schedule_recv(const wm_gs_schedule *s, unsigned rank, size_t i);
/* The receive list of rank from peer; count 0 when there is none. */
wm_gs_peer_list wm_gs_schedule_recv_from(const wm_gs_schedule *s, unsigned rank, unsigned peer);

#endif
