/* image.c: a gs rank's PE memory image (see image.h). */
#include "gs/image.h"

#include "gs/reduction.h"
#include "mp.h"

#include <stdlib.h>
#include <string.h>

/* The partners of rank in every bisection stage under rule. */
static size_t stage_partners(unsigned nranks, unsigned rank, wm_pairing rule, unsigned *out)
{
    size_t n = 0;
    unsigned lo = 0, hi = nranks;
    wm_stage_step step;
    while (wm_stage_step_of(rule, lo, hi, rank, &step)) {
        if (step.dst >= 0) out[n++] = (unsigned)step.dst;
        lo = step.lo;
        hi = step.hi;
    }
    return n;
}

/* The most ranks destinations() may list before it drops the repeats. */
static size_t destinations_most(const wm_gs_schedule *s, unsigned rank)
{
    return wm_gs_schedule_send_count(s, rank) + 4 * (size_t)wm_stage_count(wm_gs_schedule_ranks(s)) + 2;
}

/* The ranks rank sends to: its peers and its partner in every bisection
 * stage, ascending, without repeats; for the auto method the partners of
 * both rules and of the binomial tree its all-reduce runs on (sw/gs/
 * autotune.c): the parent rank - lowbit(rank) and the children rank + m
 * for every power of two m below lowbit(rank) (below P for rank 0). */
static size_t destinations(const wm_gs_schedule *s, unsigned rank, wm_gs_method method, wm_pairing pairing,
                           unsigned *out)
{
    const unsigned nranks = wm_gs_schedule_ranks(s);
    size_t n = 0;
    for (size_t i = 0; i < wm_gs_schedule_send_count(s, rank); i++) out[n++] = wm_gs_schedule_send(s, rank, i).peer;
    if (method == WM_GS_AUTO) {
        n += stage_partners(nranks, rank, WM_PAIRING_NEKO, out + n);
        n += stage_partners(nranks, rank, WM_PAIRING_GSLIB, out + n);
        const unsigned low = rank ? rank & -rank : 0;
        if (rank) out[n++] = rank - low;
        for (unsigned m = 1; m < nranks && (rank == 0 || m < low); m <<= 1)
            if (rank + m < nranks) out[n++] = rank + m;
    } else {
        n += stage_partners(nranks, rank, pairing, out + n);
    }
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            const unsigned t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || out[m - 1] != out[i]) out[m++] = out[i];
    return m;
}

static int pair_cmp(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The folding router's list of rank (gs_image.h): a pair {key, dof} per
 * shared local dof, ascending key. A dof's owner is its lowest holder,
 * the first peer (ascending) whose list carries it if below rank, and the
 * owner's local index is the word at the same place of the owner's send
 * list to rank: the two lists name the same global ids in the same
 * order. *out is NULL when out of memory. */
static uint32_t fold_list(const wm_gs_schedule *s, unsigned rank, uint32_t **out)
{
    const size_t ndofs = wm_gs_schedule_dofs(s, rank);
    uint32_t *key = malloc((ndofs ? ndofs : 1) * sizeof *key);
    bool *shared = calloc(ndofs ? ndofs : 1, sizeof *shared);
    *out = malloc((2 * ndofs + 1) * sizeof **out);
    if (!key || !shared || !*out) {
        free(*out);
        *out = NULL;
    }
    for (size_t d = 0; *out && d < ndofs; d++) key[d] = (uint32_t)rank << 16 | (uint32_t)d;
    for (size_t i = 0; *out && i < wm_gs_schedule_recv_count(s, rank); i++) {
        const wm_gs_peer_list from = wm_gs_schedule_recv(s, rank, i);
        wm_gs_peer_list to = {0, 0, NULL};
        for (size_t k = 0; k < wm_gs_schedule_send_count(s, from.peer); k++)
            if (wm_gs_schedule_send(s, from.peer, k).peer == rank) to = wm_gs_schedule_send(s, from.peer, k);
        for (size_t j = 0; j < from.count; j++) {
            const uint32_t d = from.dofs[j];
            if ((key[d] >> 16) > from.peer) key[d] = (uint32_t)from.peer << 16 | to.dofs[j];
            shared[d] = true;
        }
    }
    uint32_t n = 0;
    for (size_t d = 0; *out && d < ndofs; d++) {
        if (!shared[d]) continue;
        (*out)[2 * n] = key[d];
        (*out)[2 * n + 1] = (uint32_t)d;
        n++;
    }
    if (*out) qsort(*out, n, 2 * sizeof **out, pair_cmp);
    free(key);
    free(shared);
    return n;
}

/* Reserve n words at *at; false when they pass the end. */
static bool reserve(uint64_t *at, uint64_t n, uint32_t *where)
{
    *where = (uint32_t)(*at < WM_PE_DATA_WORDS ? *at : WM_PE_DATA_WORDS);
    *at += n;
    return *at <= WM_PE_DATA_WORDS;
}

/* Lists of one direction: triples, then each list's dofs. */
static bool write_lists(uint32_t *mem, uint64_t *at, size_t n, wm_gs_peer_list (*get)(const wm_gs_schedule *, unsigned, size_t),
                        const wm_gs_schedule *s, unsigned rank, uint32_t *lists_at)
{
    bool ok = reserve(at, 3 * (uint64_t)n, lists_at);
    for (size_t i = 0; i < n; i++) {
        const wm_gs_peer_list pl = get(s, rank, i);
        uint32_t dofs_at;
        const bool fits = reserve(at, pl.count, &dofs_at);
        ok = ok && fits;
        if (!ok) continue;
        mem[*lists_at + 3 * i] = pl.peer;
        mem[*lists_at + 3 * i + 1] = (uint32_t)pl.count;
        mem[*lists_at + 3 * i + 2] = dofs_at;
        memcpy(mem + dofs_at, pl.dofs, pl.count * sizeof *pl.dofs);
    }
    return ok;
}

bool wm_gs_image_build(const wm_gs_schedule *s, unsigned rank, wm_gs_method method, wm_pairing pairing,
                       const wm_gs_place *places, uint32_t *mem, uint32_t *used, FILE *err)
{
    memset(mem, 0, WM_PE_DATA_BYTES);
    wm_gs_image img = {.magic = WM_GS_IMAGE_MAGIC, .rank = rank, .nranks = wm_gs_schedule_ranks(s)};
    img.method = method;
    img.pairing = pairing;
    img.ndofs = (uint32_t)wm_gs_schedule_dofs(s, rank);
    uint64_t at = WM_GS_IMAGE_WORDS;
    bool ok = reserve(&at, img.ndofs, &img.u_at);

    unsigned *dest = calloc(destinations_most(s, rank), sizeof *dest);
    if (!dest) return false;
    img.nplaces = places ? (uint32_t)destinations(s, rank, method, pairing, dest) : 0;
    ok = reserve(&at, 2 * (uint64_t)img.nplaces, &img.places_at) && ok;
    for (uint32_t i = 0; ok && i < img.nplaces; i++) {
        mem[img.places_at + 2 * i] = dest[i];
        mem[img.places_at + 2 * i + 1] = places[dest[i]].x | (uint32_t)places[dest[i]].y << WM_COORD_BITS;
    }
    free(dest);

    img.nsends = (uint32_t)wm_gs_schedule_send_count(s, rank);
    img.nrecvs = (uint32_t)wm_gs_schedule_recv_count(s, rank);
    ok = write_lists(mem, &at, img.nsends, wm_gs_schedule_send, s, rank, &img.sends_at) && ok;
    ok = write_lists(mem, &at, img.nrecvs, wm_gs_schedule_recv, s, rank, &img.recvs_at) && ok;

    /* The template: the host's map with receive list i delivered at
     * offset i << 16, so that each term reads (list, word). */
    wm_gs_delivered *del = calloc(img.nrecvs + 1, sizeof *del);
    if (!del) return false;
    for (uint32_t i = 0; i < img.nrecvs; i++) {
        const wm_gs_peer_list pl = wm_gs_schedule_recv(s, rank, i);
        del[i] = (wm_gs_delivered){pl.peer, i << 16, (uint32_t)pl.count};
    }
    wm_gs_reduction red;
    const bool built = wm_gs_reduction_build(s, rank, del, img.nrecvs, &red, err);
    free(del);
    if (!built) return false;
    img.red_ndofs = (uint32_t)red.ndofs;
    img.red_nterms = (uint32_t)red.nterms;
    ok = reserve(&at, red.ndofs, &img.red_dof_at) && ok;
    ok = reserve(&at, red.ndofs + 1, &img.red_start_at) && ok;
    ok = reserve(&at, red.nterms, &img.red_term_at) && ok;
    if (ok) {
        memcpy(mem + img.red_dof_at, red.dof, red.ndofs * sizeof *red.dof);
        memcpy(mem + img.red_start_at, red.start, (red.ndofs + 1) * sizeof *red.start);
        memcpy(mem + img.red_term_at, red.term, red.nterms * sizeof *red.term);
    }
    wm_gs_reduction_free(&red);

    uint32_t *fold = NULL;
    const uint32_t nfold = fold_list(s, rank, &fold);
    if (!fold) return false;
    img.nfold = nfold;
    ok = reserve(&at, 2 * (uint64_t)nfold, &img.fold_at) && ok;
    if (ok) memcpy(mem + img.fold_at, fold, 2 * (size_t)nfold * sizeof *fold);
    free(fold);
    if (method == WM_GS_AUTO) ok = reserve(&at, WM_GS_AUTO_WORDS, &img.auto_at) && ok;
    *used = (uint32_t)(at < UINT32_MAX ? at : UINT32_MAX);
    if (!ok) {
        if (places)
            fprintf(err, "gs: rank %u (instance r%u at PE (%u,%u)): its image needs %llu bytes, the PE's data memory has %d\n",
                    rank, rank, places[rank].x, places[rank].y, (unsigned long long)at * 4, WM_PE_DATA_BYTES);
        else
            fprintf(err, "gs: rank %u: its image needs %llu bytes, the PE's data memory has %d\n", rank,
                    (unsigned long long)at * 4, WM_PE_DATA_BYTES);
        return false;
    }
    img.heap_at = (uint32_t)(at + (at & 1u));
    img.heap_end = WM_PE_DATA_WORDS;
    memcpy(mem, &img, sizeof img);
    return true;
}

void wm_gs_image_set_values(uint32_t *mem, const float *u)
{
    const wm_gs_image *img = (const wm_gs_image *)mem;
    memcpy(mem + img->u_at, u, img->ndofs * sizeof *u);
}

void wm_gs_image_get_values(const uint32_t *mem, float *u)
{
    const wm_gs_image *img = (const wm_gs_image *)mem;
    memcpy(u, mem + img->u_at, img->ndofs * sizeof *u);
}
