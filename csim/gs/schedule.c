/* schedule.c: the gather-scatter schedule and its agreement check. */
#include "gs/schedule.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned peer;
    size_t count;
    uint32_t *dofs;
} peer_list;

typedef struct {
    peer_list *items; /* ascending peer */
    size_t n, cap;
} list_set;

typedef struct {
    size_t ndofs;
    uint64_t *gid;
    list_set send, recv;
} rank_state;

struct wm_gs_schedule {
    unsigned nranks;
    rank_state *ranks;
};

static void list_set_clear(list_set *ls)
{
    for (size_t i = 0; i < ls->n; i++) free(ls->items[i].dofs);
    free(ls->items);
    memset(ls, 0, sizeof *ls);
}

/* Insert or replace the list for peer, keeping ascending peer order. */
static bool list_set_put(list_set *ls, unsigned peer, size_t count, const uint32_t *dofs)
{
    uint32_t *copy = malloc((count ? count : 1) * sizeof *copy);
    if (!copy) return false;
    if (count) memcpy(copy, dofs, count * sizeof *copy);
    size_t at = 0;
    while (at < ls->n && ls->items[at].peer < peer) at++;
    if (at < ls->n && ls->items[at].peer == peer) {
        free(ls->items[at].dofs);
        ls->items[at] = (peer_list){peer, count, copy};
        return true;
    }
    if (ls->n == ls->cap) {
        size_t cap = ls->cap ? 2 * ls->cap : 8;
        peer_list *grown = realloc(ls->items, cap * sizeof *grown);
        if (!grown) {
            free(copy);
            return false;
        }
        ls->items = grown;
        ls->cap = cap;
    }
    memmove(&ls->items[at + 1], &ls->items[at], (ls->n - at) * sizeof *ls->items);
    ls->items[at] = (peer_list){peer, count, copy};
    ls->n++;
    return true;
}

wm_gs_schedule *wm_gs_schedule_create(unsigned nranks)
{
    wm_gs_schedule *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->nranks = nranks;
    s->ranks = calloc(nranks ? nranks : 1, sizeof *s->ranks);
    if (!s->ranks) {
        free(s);
        return NULL;
    }
    return s;
}

void wm_gs_schedule_destroy(wm_gs_schedule *s)
{
    if (!s) return;
    for (unsigned r = 0; r < s->nranks; r++) {
        free(s->ranks[r].gid);
        list_set_clear(&s->ranks[r].send);
        list_set_clear(&s->ranks[r].recv);
    }
    free(s->ranks);
    free(s);
}

bool wm_gs_schedule_set_dofs(wm_gs_schedule *s, unsigned rank, size_t count, const uint64_t *global_ids)
{
    rank_state *rs = &s->ranks[rank];
    uint64_t *g = malloc((count ? count : 1) * sizeof *g);
    if (!g) return false;
    if (count) memcpy(g, global_ids, count * sizeof *g);
    free(rs->gid);
    rs->gid = g;
    rs->ndofs = count;
    return true;
}

/* One copy of a global id: which rank holds it as which local dof. */
typedef struct {
    uint64_t gid;
    unsigned rank;
    uint32_t dof;
} copy_ref;

static int copy_cmp(const void *a, const void *b)
{
    const copy_ref *x = a, *y = b;
    if (x->gid != y->gid) return x->gid < y->gid ? -1 : 1;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    return (x->dof > y->dof) - (x->dof < y->dof);
}

/* A pair (rank, peer) and one dof of rank, for building lists. */
typedef struct {
    unsigned rank, peer;
    uint64_t gid;
    uint32_t dof;
} pair_ref;

static int pair_cmp(const void *a, const void *b)
{
    const pair_ref *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    if (x->peer != y->peer) return x->peer < y->peer ? -1 : 1;
    return (x->gid > y->gid) - (x->gid < y->gid);
}

bool wm_gs_schedule_derive(wm_gs_schedule *s, FILE *err)
{
    size_t total = 0;
    for (unsigned r = 0; r < s->nranks; r++) total += s->ranks[r].ndofs;
    copy_ref *copies = malloc((total ? total : 1) * sizeof *copies);
    if (!copies) return false;
    size_t k = 0;
    for (unsigned r = 0; r < s->nranks; r++)
        for (size_t d = 0; d < s->ranks[r].ndofs; d++) copies[k++] = (copy_ref){s->ranks[r].gid[d], r, (uint32_t)d};
    qsort(copies, total, sizeof *copies, copy_cmp);

    /* Every ordered pair of holders of one id gives one entry of rank's
     * list for peer; count them first. */
    size_t npairs = 0;
    for (size_t a = 0; a < total;) {
        size_t b = a;
        while (b < total && copies[b].gid == copies[a].gid) b++;
        for (size_t i = a + 1; i < b; i++) {
            if (copies[i].rank == copies[i - 1].rank) {
                fprintf(err, "gs schedule: rank %u holds global id %" PRIu64 " twice (local dofs %" PRIu32
                             " and %" PRIu32 ")\n",
                        copies[i].rank, copies[i].gid, copies[i - 1].dof, copies[i].dof);
                free(copies);
                return false;
            }
        }
        npairs += (b - a) * (b - a - 1);
        a = b;
    }
    pair_ref *pairs = malloc((npairs ? npairs : 1) * sizeof *pairs);
    if (!pairs) {
        free(copies);
        return false;
    }
    size_t p = 0;
    for (size_t a = 0; a < total;) {
        size_t b = a;
        while (b < total && copies[b].gid == copies[a].gid) b++;
        for (size_t i = a; i < b; i++)
            for (size_t j = a; j < b; j++)
                if (i != j) pairs[p++] = (pair_ref){copies[i].rank, copies[j].rank, copies[i].gid, copies[i].dof};
        a = b;
    }
    free(copies);
    qsort(pairs, npairs, sizeof *pairs, pair_cmp);

    bool ok = true;
    uint32_t *dofs = malloc((npairs ? npairs : 1) * sizeof *dofs);
    if (!dofs) ok = false;
    for (unsigned r = 0; ok && r < s->nranks; r++) {
        list_set_clear(&s->ranks[r].send);
        list_set_clear(&s->ranks[r].recv);
    }
    for (size_t a = 0; ok && a < npairs;) {
        size_t b = a;
        while (b < npairs && pairs[b].rank == pairs[a].rank && pairs[b].peer == pairs[a].peer) b++;
        for (size_t i = a; i < b; i++) dofs[i - a] = pairs[i].dof;
        /* Symmetric sum: what a rank sends to a peer is the same set of
         * dofs it reduces into from that peer. */
        ok = list_set_put(&s->ranks[pairs[a].rank].send, pairs[a].peer, b - a, dofs) &&
             list_set_put(&s->ranks[pairs[a].rank].recv, pairs[a].peer, b - a, dofs);
        a = b;
    }
    free(dofs);
    free(pairs);
    return ok;
}

bool wm_gs_schedule_add_send(wm_gs_schedule *s, unsigned rank, unsigned peer, size_t count, const uint32_t *dofs)
{
    return list_set_put(&s->ranks[rank].send, peer, count, dofs);
}

bool wm_gs_schedule_add_recv(wm_gs_schedule *s, unsigned rank, unsigned peer, size_t count, const uint32_t *dofs)
{
    return list_set_put(&s->ranks[rank].recv, peer, count, dofs);
}

static const peer_list *find_list(const list_set *ls, unsigned peer)
{
    for (size_t i = 0; i < ls->n; i++)
        if (ls->items[i].peer == peer) return &ls->items[i];
    return NULL;
}

static bool check_lists(const wm_gs_schedule *s, unsigned r, const list_set *ls, const char *what, FILE *err)
{
    for (size_t i = 0; i < ls->n; i++) {
        const peer_list *pl = &ls->items[i];
        if (pl->peer >= s->nranks) {
            fprintf(err, "gs schedule: rank %u %s rank %u, but there are only %u ranks\n", r, what, pl->peer,
                    s->nranks);
            return false;
        }
        if (pl->peer == r) {
            fprintf(err, "gs schedule: rank %u lists itself as a peer\n", r);
            return false;
        }
        for (size_t j = 0; j < pl->count; j++) {
            if (pl->dofs[j] >= s->ranks[r].ndofs) {
                fprintf(err, "gs schedule: rank %u's list for rank %u names local dof %" PRIu32
                             ", but rank %u has %zu dofs\n",
                        r, pl->peer, pl->dofs[j], r, s->ranks[r].ndofs);
                return false;
            }
        }
    }
    return true;
}

bool wm_gs_schedule_check(const wm_gs_schedule *s, FILE *err)
{
    for (unsigned r = 0; r < s->nranks; r++) {
        if (!check_lists(s, r, &s->ranks[r].send, "sends to", err)) return false;
        if (!check_lists(s, r, &s->ranks[r].recv, "receives from", err)) return false;
    }
    for (unsigned r = 0; r < s->nranks; r++) {
        const rank_state *rs = &s->ranks[r];
        for (size_t i = 0; i < rs->send.n; i++) {
            const peer_list *snd = &rs->send.items[i];
            const unsigned q = snd->peer;
            const peer_list *rcv = find_list(&s->ranks[q].recv, r);
            if (!rcv) {
                fprintf(err, "gs schedule: rank %u sends %zu dofs to rank %u, but rank %u expects nothing from rank %u\n",
                        r, snd->count, q, q, r);
                return false;
            }
            if (rcv->count != snd->count) {
                fprintf(err, "gs schedule: rank %u sends %zu dofs to rank %u, but rank %u expects %zu from rank %u\n", r,
                        snd->count, q, q, rcv->count, r);
                return false;
            }
            for (size_t j = 0; j < snd->count; j++) {
                const uint64_t gs = rs->gid[snd->dofs[j]], gr = s->ranks[q].gid[rcv->dofs[j]];
                if (gs != gr) {
                    fprintf(err, "gs schedule: word %zu from rank %u to rank %u is global id %" PRIu64
                                 " at rank %u but %" PRIu64 " at rank %u\n",
                            j, r, q, gs, r, gr, q);
                    return false;
                }
            }
        }
        for (size_t i = 0; i < rs->recv.n; i++) {
            const unsigned q = rs->recv.items[i].peer;
            if (!find_list(&s->ranks[q].send, r)) {
                fprintf(err, "gs schedule: rank %u expects %zu dofs from rank %u, but rank %u sends nothing to rank %u\n",
                        r, rs->recv.items[i].count, q, q, r);
                return false;
            }
        }
    }
    return true;
}

unsigned wm_gs_schedule_ranks(const wm_gs_schedule *s) { return s->nranks; }
size_t wm_gs_schedule_dofs(const wm_gs_schedule *s, unsigned rank) { return s->ranks[rank].ndofs; }
uint64_t wm_gs_schedule_global_id(const wm_gs_schedule *s, unsigned rank, size_t dof)
{
    return s->ranks[rank].gid[dof];
}

static wm_gs_peer_list public_list(const peer_list *pl)
{
    return (wm_gs_peer_list){pl->peer, pl->count, pl->dofs};
}

size_t wm_gs_schedule_send_count(const wm_gs_schedule *s, unsigned rank) { return s->ranks[rank].send.n; }
wm_gs_peer_list wm_gs_schedule_send(const wm_gs_schedule *s, unsigned rank, size_t i)
{
    return public_list(&s->ranks[rank].send.items[i]);
}
size_t wm_gs_schedule_recv_count(const wm_gs_schedule *s, unsigned rank) { return s->ranks[rank].recv.n; }
wm_gs_peer_list wm_gs_schedule_recv(const wm_gs_schedule *s, unsigned rank, size_t i)
{
    return public_list(&s->ranks[rank].recv.items[i]);
}

wm_gs_peer_list wm_gs_schedule_recv_from(const wm_gs_schedule *s, unsigned rank, unsigned peer)
{
    const peer_list *pl = find_list(&s->ranks[rank].recv, peer);
    return pl ? public_list(pl) : (wm_gs_peer_list){peer, 0, NULL};
}
