/* generate.c: chain, grid and random gather-scatter schedules. */
#include "gs/generate.h"

#include "gs/gs_image.h"
#include "mp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool wm_gs_kind_parse(const char *name, wm_gs_kind *kind)
{
    if (!strcmp(name, "chain")) *kind = WM_GS_CHAIN;
    else if (!strcmp(name, "grid")) *kind = WM_GS_GRID;
    else if (!strcmp(name, "random")) *kind = WM_GS_RANDOM;
    else if (!strcmp(name, "star")) *kind = WM_GS_STAR;
    else return false;
    return true;
}

const char *wm_gs_kind_name(wm_gs_kind kind)
{
    switch (kind) {
    case WM_GS_CHAIN: return "chain";
    case WM_GS_GRID: return "grid";
    case WM_GS_RANDOM: return "random";
    case WM_GS_STAR: return "star";
    }
    return "?";
}

/* The global ids of one rank while a generator collects them. */
typedef struct {
    uint64_t *gid;
    size_t n, cap;
} id_list;

static bool id_push(id_list *l, uint64_t gid)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        uint64_t *grown = realloc(l->gid, cap * sizeof *grown);
        if (!grown) return false;
        l->gid = grown;
        l->cap = cap;
    }
    l->gid[l->n++] = gid;
    return true;
}

/* Hand the collected ids to a schedule and derive its lists. */
static wm_gs_schedule *finish(id_list *ids, unsigned nranks, bool ok)
{
    wm_gs_schedule *s = ok ? wm_gs_schedule_create(nranks) : NULL;
    for (unsigned r = 0; s && r < nranks; r++) ok = ok && wm_gs_schedule_set_dofs(s, r, ids[r].n, ids[r].gid);
    if (s && !(ok && wm_gs_schedule_derive(s, stderr))) {
        wm_gs_schedule_destroy(s);
        s = NULL;
    }
    for (unsigned r = 0; r < nranks; r++) free(ids[r].gid);
    free(ids);
    return s;
}

wm_gs_schedule *wm_gs_generate_chain(unsigned nranks, unsigned dofs)
{
    id_list *ids = calloc(nranks ? nranks : 1, sizeof *ids);
    if (!ids) return NULL;
    bool ok = true;
    /* Interface r (between ranks r and r+1) has ids r*dofs ...; interior
     * dofs come after all interfaces. */
    const uint64_t interior0 = (uint64_t)nranks * dofs;
    for (unsigned r = 0; r < nranks; r++) {
        for (unsigned i = 0; r > 0 && i < dofs; i++) ok = ok && id_push(&ids[r], (uint64_t)(r - 1) * dofs + i);
        for (unsigned i = 0; i < dofs; i++) ok = ok && id_push(&ids[r], interior0 + (uint64_t)r * dofs + i);
        for (unsigned i = 0; r + 1 < nranks && i < dofs; i++) ok = ok && id_push(&ids[r], (uint64_t)r * dofs + i);
    }
    return finish(ids, nranks, ok);
}

wm_gs_schedule *wm_gs_generate_grid(unsigned w, unsigned h, wm_rank_order order, unsigned dofs)
{
    const unsigned nranks = w * h;
    id_list *ids = calloc(nranks ? nranks : 1, sizeof *ids);
    if (!ids) return NULL;
    bool ok = true;
    const uint64_t side = dofs + 2, step = dofs + 1, row_len = (uint64_t)w * step + 1;
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            id_list *l = &ids[wm_rank_at(order, w, h, x, y)];
            for (uint64_t j = 0; j < side; j++)
                for (uint64_t i = 0; i < side; i++) ok = ok && id_push(l, (y * step + j) * row_len + x * step + i);
        }
    }
    return finish(ids, nranks, ok);
}

/* splitmix64: small, fast, and the same on every machine. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A random rank other than the ones in avoid[0..navoid). */
static unsigned random_other(uint64_t *state, unsigned nranks, const unsigned *avoid, unsigned navoid)
{
    for (;;) {
        const unsigned q = (unsigned)(next_random(state) % nranks);
        bool clash = false;
        for (unsigned i = 0; i < navoid; i++) clash = clash || q == avoid[i];
        if (!clash) return q;
    }
}

wm_gs_schedule *wm_gs_generate_random(unsigned nranks, unsigned dofs, uint64_t seed)
{
    id_list *ids = calloc(nranks ? nranks : 1, sizeof *ids);
    if (!ids) return NULL;
    bool ok = true;
    uint64_t state = seed, next_gid = 0;
    for (unsigned r = 0; r < nranks; r++)
        for (unsigned i = 0; i < dofs; i++) ok = ok && id_push(&ids[r], next_gid++);
    for (unsigned r = 0; nranks > 1 && r < nranks; r++) {
        for (unsigned k = 0; k < 2; k++) {
            const unsigned q = random_other(&state, nranks, &r, 1);
            const unsigned shared = 1 + (unsigned)(next_random(&state) % (dofs ? dofs : 1));
            for (unsigned i = 0; i < shared; i++) {
                ok = ok && id_push(&ids[r], next_gid) && id_push(&ids[q], next_gid);
                next_gid++;
            }
        }
    }
    for (unsigned r = 0; nranks > 2 && r < nranks; r++) {
        unsigned three[3] = {r, 0, 0};
        three[1] = random_other(&state, nranks, three, 1);
        three[2] = random_other(&state, nranks, three, 2);
        for (unsigned i = 0; i < 3; i++) ok = ok && id_push(&ids[three[i]], next_gid);
        next_gid++;
    }
    return finish(ids, nranks, ok);
}

wm_gs_schedule *wm_gs_generate_star(unsigned nranks, unsigned multiplicity, unsigned dofs)
{
    id_list *ids = calloc(nranks ? nranks : 1, sizeof *ids);
    if (!ids) return NULL;
    bool ok = multiplicity >= 1;
    /* The shared dofs of group g are g * dofs ...; the private ones come
     * after all groups'. */
    const unsigned groups = ok ? (nranks + multiplicity - 1) / multiplicity : 0;
    const uint64_t private0 = (uint64_t)groups * dofs;
    for (unsigned r = 0; ok && r < nranks; r++) {
        const uint64_t group = r / multiplicity;
        for (unsigned i = 0; i < dofs; i++) ok = ok && id_push(&ids[r], private0 + (uint64_t)r * dofs + i);
        for (unsigned i = 0; i < dofs; i++) ok = ok && id_push(&ids[r], group * dofs + i);
    }
    return finish(ids, nranks, ok);
}

wm_gs_schedule *wm_gs_generate(wm_gs_kind kind, unsigned w, unsigned h, wm_rank_order order, unsigned dofs,
                               uint64_t seed)
{
    switch (kind) {
    case WM_GS_CHAIN: return wm_gs_generate_chain(w * h, dofs);
    case WM_GS_GRID: return wm_gs_generate_grid(w, h, order, dofs);
    case WM_GS_RANDOM: return wm_gs_generate_random(w * h, dofs, seed);
    case WM_GS_STAR: return wm_gs_generate_star(w * h, w * h, dofs);
    }
    return NULL;
}

_Static_assert(WM_GS_DOFS_ROOM == WM_PE_DATA_WORDS - WM_GS_IMAGE_WORDS, "WM_GS_DOFS_ROOM: the data memory less the header");

uint64_t wm_gs_generate_rank_dofs(wm_gs_kind kind, unsigned w, unsigned h, unsigned dofs)
{
    const uint64_t nranks = (uint64_t)w * h, d = dofs;
    switch (kind) {
    case WM_GS_CHAIN: return d * (nranks >= 3 ? 3 : nranks);
    case WM_GS_GRID: return (d + 2) * (d + 2);
    case WM_GS_RANDOM: return d + (nranks >= 3 ? 3 : nranks == 2 ? 2 : 0);
    case WM_GS_STAR: return 2 * d;
    }
    return d;
}

unsigned wm_gs_generate_dofs_max(wm_gs_kind kind, unsigned w, unsigned h)
{
    unsigned lo = 0, hi = WM_GS_DOFS_ROOM; /* the largest with rank dofs <= the room, by bisection */
    while (lo < hi) {
        const unsigned mid = lo + (hi - lo + 1) / 2;
        if (wm_gs_generate_rank_dofs(kind, w, h, mid) <= WM_GS_DOFS_ROOM) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

bool wm_gs_generate_check(wm_gs_kind kind, unsigned w, unsigned h, unsigned dofs, char *err, size_t err_size)
{
    const uint64_t need = wm_gs_generate_rank_dofs(kind, w, h, dofs);
    if (need <= WM_GS_DOFS_ROOM) return true;
    const unsigned most = wm_gs_generate_dofs_max(kind, w, h);
    char range[40];
    if (most) snprintf(range, sizeof range, "takes at most %u", most);
    else snprintf(range, sizeof range, "takes none");
    snprintf(err, err_size,
             "--dofs %u: a rank of the %ux%u %s schedule holds %" PRIu64 " dofs, a word each, and the PE's "
             "data memory has room for %d after the image's header (%d bytes in all): the %s schedule on %ux%u "
             "ranks %s",
             dofs, w, h, wm_gs_kind_name(kind), need, WM_GS_DOFS_ROOM, WM_PE_DATA_BYTES, wm_gs_kind_name(kind), w, h,
             range);
    return false;
}
