/* fold.c: the folding crystal router (methods.h, docs/crystal.md).
 *
 * Every shared dof has an owner, the lowest rank holding it, and a key
 * naming it the same on every rank: owner << 16 | the owner's local index
 * (gs_image.h, the image's fold list). The gs_op is two passes of the
 * recursive bisection:
 *
 * up    items {key, value}, bound for the key's owner. A rank's list is
 *       kept in ascending key order; each stage it hands the items bound
 *       for the other half to its partner and merges what src and src2
 *       hand it into the items it kept, adding the values of one key as
 *       they meet: kept + from src + from src2, in that order. A key is
 *       one item per rank however many ranks hold it, so a vertex of
 *       multiplicity k moves O(k) items, and the owner ends with its sum.
 * down  the owner sends the sum to each other holder, an item {dest,
 *       owner << 16 | j, value} per word j of its send list to dest: the
 *       holder finds the dof at word j of its receive list from the owner.
 *       Routed like the setup-phase router's records, O(k log k) words.
 *
 * Sizes are negotiated each stage as in the setup-phase router; the up
 * pass uses the tags of stages 0 .. S-1, the down pass those of S .. 2S-1
 * (S the stages of the bisection). */
#include "methods.h"

enum { UP_WORDS = 2, DOWN_WORDS = 3 };

typedef union {
    uint32_t bits;
    float value;
} word;

/* A list of items in the heap, n words. */
typedef struct {
    uint32_t *w;
    uint32_t n;
} items;

static void give(wm_gs_rank *g, items *l)
{
    wm_heap_give(&g->heap, l->w);
    *l = (items){0, 0};
}

/* Split l (items of size words, each bound for its key's owner if
 * by_owner, else for the rank in its first word) into those for this
 * rank's half of the cut and the others, order kept. */
static void split(wm_gs_rank *g, const items *l, uint32_t size, bool by_owner, const wm_stage_step *step,
                  items *kept, items *out)
{
    kept->w = wm_gs_take(g, l->n, 4);
    out->w = wm_gs_take(g, l->n, 4);
    kept->n = out->n = 0;
    const bool lower = g->rank < step->cut;
    wm_mp_work(g->mp, l->n / size * WM_GS_COST_RECORD + l->n * WM_GS_COST_COPY);
    for (uint32_t at = 0; at < l->n; at += size) {
        const uint32_t to = by_owner ? l->w[at] >> 16 : l->w[at];
        items *side = (to < step->cut) == lower ? kept : out;
        for (uint32_t k = 0; k < size; k++) side->w[side->n + k] = l->w[at + k];
        side->n += size;
    }
}

/* What rank `from` handed over: whole items, each bound for this rank's
 * half of the range; on the way up, in strictly ascending key order, as
 * the merge below needs. */
static void check_items(wm_gs_rank *g, unsigned stage, int from, const wm_stage_step *step, const uint32_t *w,
                        uint32_t n, bool up)
{
    const uint32_t size = up ? UP_WORDS : DOWN_WORDS;
    wm_mp_work(g->mp, n / size * WM_GS_COST_RECORD);
    for (uint32_t at = 0; at < n; at += size) {
        const uint32_t to = up ? w[at] >> 16 : w[at];
        if (n - at < size || to < step->lo || to >= step->hi || (up && at && w[at] <= w[at - UP_WORDS]))
            wm_mp_fault(g->mp, "gs rank %u: fold stage %u: rank %d handed over a bad item at word %u of %u", g->rank,
                        stage, from, at, n);
    }
}

/* Up: a and b (items ascending by key) as one ascending list, one item a
 * key: a key in both is the value of a + the value of b. Down: a ++ b. */
static items merge(wm_gs_rank *g, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb, bool up)
{
    items m = {wm_gs_take(g, na + nb, 4), 0};
    uint32_t i = 0, j = 0, adds = 0;
    if (!up) {
        for (; i < na; i++) m.w[m.n++] = a[i];
        for (; j < nb; j++) m.w[m.n++] = b[j];
        wm_mp_work(g->mp, m.n * WM_GS_COST_COPY);
        return m;
    }
    while (i < na || j < nb) {
        const bool from_a = j == nb || (i < na && a[i] <= b[j]), both = from_a && j < nb && a[i] == b[j];
        const uint32_t *it = from_a ? a + i : b + j;
        word v = {.bits = it[1]};
        if (both) {
            const word w = {.bits = b[j + 1]};
            v.value += w.value;
            adds++;
            j += UP_WORDS;
        }
        if (from_a) i += UP_WORDS;
        else j += UP_WORDS;
        m.w[m.n] = it[0];
        m.w[m.n + 1] = v.bits;
        m.n += UP_WORDS;
    }
    wm_mp_work(g->mp, (na + nb) / UP_WORDS * WM_GS_COST_RECORD + m.n * WM_GS_COST_COPY + adds * WM_GS_COST_TERM);
    return m;
}

/* One pass of the bisection over list; up: items folded by key on the
 * way to their owners; down: routed to their destinations. */
static void route(wm_gs_rank *g, wm_xfer_port *port, items *list, bool up, unsigned first_stage, unsigned *active)
{
    const uint32_t size = up ? UP_WORDS : DOWN_WORDS;
    unsigned lo = 0, hi = g->img->nranks, stage = 0;
    wm_stage_step step;
    while (wm_stage_step_of((wm_pairing)g->img->pairing, lo, hi, g->rank, &step)) {
        wm_mp_work(g->mp, WM_GS_COST_STAGE_CRYSTAL);
        items kept, out;
        split(g, list, size, up, &step, &kept, &out);
        wm_gs_stage_in in;
        wm_gs_negotiated_stage(g, port, first_stage + stage, &step, out.w, out.n, &in);
        if (out.n || in.len[0] || in.len[1]) (*active)++;
        check_items(g, first_stage + stage, step.src, &step, in.words[0], in.len[0], up);
        check_items(g, first_stage + stage, step.src2, &step, in.words[1], in.len[1], up);
        give(g, list);
        /* Up: (kept + from src) + from src2. */
        items first = merge(g, kept.w, kept.n, in.words[0], in.len[0], up);
        *list = merge(g, first.w, first.n, in.words[1], in.len[1], up);
        give(g, &first);
        wm_heap_give(&g->heap, in.words[1]);
        wm_heap_give(&g->heap, in.words[0]);
        give(g, &out);
        give(g, &kept);
        lo = step.lo;
        hi = step.hi;
        stage++;
    }
}

/* An item left at the end that is not this rank's to take. */
static void stray(wm_gs_rank *g, uint32_t key)
{
    wm_mp_fault(g->mp, "gs rank %u: the folding router left it item %08x, not its own", g->rank, key);
}

void wm_gs_fold_op(wm_gs_rank *g)
{
    wm_mp_work(g->mp, WM_GS_COST_GLUE_CRYSTAL);
    const wm_gs_image *img = g->img;
    uint32_t *u = g->mem + img->u_at;
    const uint32_t *fold = g->mem + img->fold_at, *send_list = g->mem + img->sends_at;
    wm_xfer_port own, *port = wm_gs_port_open(g, &own, true);
    unsigned active = 0;

    /* Up: every shared dof's value toward its owner. */
    items list = {wm_gs_take(g, UP_WORDS * img->nfold, 4), UP_WORDS * img->nfold};
    wm_mp_work(g->mp, img->nfold * WM_GS_COST_COPY);
    for (uint32_t i = 0; i < img->nfold; i++) {
        list.w[2 * i] = fold[2 * i];
        list.w[2 * i + 1] = u[fold[2 * i + 1]];
    }
    route(g, port, &list, true, 0, &active);
    wm_mp_work(g->mp, list.n / UP_WORDS * WM_GS_COST_RECORD);
    for (uint32_t at = 0; at < list.n; at += UP_WORDS) {
        const uint32_t key = list.w[at];
        if (key >> 16 != g->rank || (key & 0xffffu) >= img->ndofs) stray(g, key);
        u[key & 0xffffu] = list.w[at + 1];
    }
    give(g, &list);

    /* Down: each sum this rank owns to every other holder. */
    uint8_t *owned = wm_gs_take(g, img->ndofs, 1);
    uint32_t nsw = 0;
    for (uint32_t i = 0; i < img->nfold; i++)
        if (fold[2 * i] >> 16 == g->rank) owned[fold[2 * i + 1]] = 1;
    for (uint32_t i = 0; i < img->nsends; i++) nsw += send_list[3 * i + 1];
    wm_mp_work(g->mp, img->nfold * WM_GS_COST_RECORD + nsw * WM_GS_COST_RECORD);
    list = (items){wm_gs_take(g, nsw, DOWN_WORDS * 4), 0};
    for (uint32_t i = 0; i < img->nsends; i++) {
        const uint32_t peer = send_list[3 * i], count = send_list[3 * i + 1];
        const uint32_t *dofs = g->mem + send_list[3 * i + 2];
        for (uint32_t j = 0; j < count; j++) {
            if (!owned[dofs[j]]) continue;
            list.w[list.n] = peer;
            list.w[list.n + 1] = (uint32_t)g->rank << 16 | j;
            list.w[list.n + 2] = u[dofs[j]];
            list.n += DOWN_WORDS;
        }
    }
    wm_heap_give(&g->heap, owned);
    route(g, port, &list, false, wm_stage_count(img->nranks), &active);
    wm_mp_work(g->mp, list.n / DOWN_WORDS * WM_GS_COST_RECORD);
    for (uint32_t at = 0; at < list.n; at += DOWN_WORDS) {
        /* The receive list from the owner, by a scan of the triples. */
        const uint32_t owner = list.w[at + 1] >> 16, j = list.w[at + 1] & 0xffffu;
        const uint32_t *r = g->mem + img->recvs_at, *end = r + 3 * img->nrecvs;
        while (r < end && r[0] != owner) r += 3;
        wm_mp_work(g->mp, (uint32_t)(r - (g->mem + img->recvs_at)) / 3 * WM_GS_COST_XFER_SCAN);
        if (list.w[at] != g->rank || r == end || j >= r[1]) stray(g, list.w[at + 1]);
        u[g->mem[r[2] + j]] = list.w[at + 2];
    }
    give(g, &list);
    wm_gs_port_close(g, port, active);
}
