/* plan.c: the symbolic pass of the crystal router and the plan it writes. */
#include "plan.h"

static bool vec_reserve(wm_heap *h, wm_cr_vec *v, uint32_t size, uint32_t want)
{
    if (want <= v->cap) return true;
    /* More than the heap holds is refused before the doubling below, whose
     * byte size could wrap: the lengths behind `want` came off the wire. */
    if (want > (h->end - h->start) / size * 4u) return false;
    uint32_t cap = v->cap ? v->cap : 16;
    while (cap < want) cap *= 2;
    void *grown = wm_heap_resize(h, v->items, cap * size);
    if (!grown) return false;
    v->items = grown;
    v->cap = cap;
    return true;
}

/* Natively each push charges what one takes a core (docs/cost-model.md). */
#define VEC_PUSH(h, v, type, value)                                                                         \
    (wm_heap_charge((h), WM_GS_COST_VEC_PUSH),                                                               \
     vec_reserve((h), &(v), sizeof(type), (v).n + 1) ? (((type *)(v).items)[(v).n++] = (value), true) : false)

static void vec_give(wm_heap *h, wm_cr_vec *v)
{
    wm_heap_give(h, v->items);
    *v = (wm_cr_vec){0};
}

bool wm_cr_builder_init(wm_cr_builder *b, wm_heap *heap, const wm_gs_image *img, uint32_t *mem)
{
    *b = (wm_cr_builder){0};
    b->heap = heap;
    b->img = img;
    b->mem = mem;
    b->lo = 0;
    b->hi = img->nranks;
    bool ok = true;
    const uint32_t *sends = mem + img->sends_at;
    for (uint32_t i = 0; ok && i < img->nsends; i++) {
        const uint32_t peer = sends[3 * i], count = sends[3 * i + 1];
        const uint32_t *dofs = mem + sends[3 * i + 2];
        ok = VEC_PUSH(heap, b->list, wm_cr_record, ((wm_cr_record){peer, img->rank, count}));
        for (uint32_t j = 0; ok && j < count; j++) ok = VEC_PUSH(heap, b->pack, uint32_t, dofs[j]);
    }
    return ok;
}

bool wm_cr_builder_stage(wm_cr_builder *b, wm_stage_step *step, const wm_cr_record **out, uint32_t *nout, bool *ok)
{
    *ok = true;
    if (!wm_stage_step_of((wm_pairing)b->img->pairing, b->lo, b->hi, b->img->rank, &b->step)) return false;
    *step = b->step;
    b->out.n = b->kept.n = b->keep_idx.n = b->send_idx.n = 0;
    const bool lower = b->img->rank < b->step.cut;
    const wm_cr_record *rec = b->list.items;
    uint32_t pos = 0;
    wm_heap_charge(b->heap, b->list.n * WM_GS_COST_RECORD);
    for (uint32_t i = 0; *ok && i < b->list.n; i++) {
        const bool stays = (rec[i].dest < b->step.cut) == lower;
        *ok = stays ? VEC_PUSH(b->heap, b->kept, wm_cr_record, rec[i]) : VEC_PUSH(b->heap, b->out, wm_cr_record, rec[i]);
        wm_cr_vec *idx = stays ? &b->keep_idx : &b->send_idx;
        for (uint32_t w = 0; *ok && w < rec[i].len; w++) *ok = VEC_PUSH(b->heap, *idx, uint32_t, pos + w);
        pos += rec[i].len;
    }
    *out = b->out.items;
    *nout = b->out.n;
    return true;
}

static uint32_t words_of(const wm_cr_record *r, uint32_t n)
{
    uint32_t w = 0;
    for (uint32_t i = 0; i < n; i++) w += r[i].len;
    return w;
}

/* A copy of idx in the heap, read through the pack order when the stage
 * is the first active one (it gathers from u); its offset, 0 if none. */
static uint32_t index_copy(const wm_cr_builder *b, const wm_cr_vec *idx)
{
    uint32_t *c = wm_heap_take(b->heap, idx->n * 4);
    if (!c) return 0;
    const uint32_t *src = idx->items, *pack = b->pack.items;
    wm_heap_charge(b->heap, idx->n * WM_GS_COST_COPY);
    for (uint32_t i = 0; i < idx->n; i++) c[i] = b->any_active ? src[i] : pack[src[i]];
    return wm_heap_offset(b->heap, c);
}

bool wm_cr_builder_take(wm_cr_builder *b, const wm_cr_record *from_src, uint32_t nsrc, const wm_cr_record *from_src2,
                        uint32_t nsrc2)
{
    wm_cr_mstage st = {
        .stage = b->stage,
        .dst = b->step.dst,
        .src = b->step.src,
        .src2 = b->step.src2,
        .nkw = b->keep_idx.n,
        .nsw = b->send_idx.n,
        .nrw = words_of(from_src, nsrc),
        .nr2w = words_of(from_src2, nsrc2),
    };
    if (st.nsw == 0) st.dst = -1;
    if (st.nrw == 0) st.src = -1;
    if (st.nr2w == 0) st.src2 = -1;
    const bool active = st.dst >= 0 || st.src >= 0 || st.src2 >= 0;
    if (active) {
        st.keep_at = index_copy(b, &b->keep_idx);
        st.send_at = index_copy(b, &b->send_idx);
        if (!st.keep_at || !st.send_at || !VEC_PUSH(b->heap, b->stages, wm_cr_mstage, st)) return false;
        b->any_active = true;
    }
    /* The new list: kept ++ from src ++ from src2. */
    b->list.n = 0;
    const wm_cr_record *kept = b->kept.items;
    bool ok = true;
    for (uint32_t i = 0; ok && i < b->kept.n; i++) ok = VEC_PUSH(b->heap, b->list, wm_cr_record, kept[i]);
    for (uint32_t i = 0; ok && i < nsrc; i++) ok = VEC_PUSH(b->heap, b->list, wm_cr_record, from_src[i]);
    for (uint32_t i = 0; ok && i < nsrc2; i++) ok = VEC_PUSH(b->heap, b->list, wm_cr_record, from_src2[i]);
    b->lo = b->step.lo;
    b->hi = b->step.hi;
    b->stage++;
    return ok;
}

static void give_stages(wm_cr_builder *b)
{
    const wm_cr_mstage *st = b->stages.items;
    for (uint32_t i = 0; i < b->stages.n; i++) {
        wm_heap_give(b->heap, wm_heap_at(b->heap, st[i].keep_at));
        wm_heap_give(b->heap, wm_heap_at(b->heap, st[i].send_at));
    }
    vec_give(b->heap, &b->stages);
}

static void give_scratch(wm_cr_builder *b)
{
    vec_give(b->heap, &b->pack);
    vec_give(b->heap, &b->out);
    vec_give(b->heap, &b->kept);
    vec_give(b->heap, &b->keep_idx);
    vec_give(b->heap, &b->send_idx);
}

/* The plan moved to the bottom of the heap: its parts were taken stage by
 * stage between the symbolic pass's lists, message buffers and (in the
 * firmware) the messages kept aside, all given back by now, so left where
 * they are they would split the heap into holes that the gs_op's buffers,
 * taken whole, might not fit. When the plan's parts are all the heap holds
 * (in the firmware and on the host alike) they are packed together; else
 * the plan stays as it is. At most 3 + 2 x 32 parts: a bisection has at
 * most 32 stages. */
static wm_cr_mplan *compact(const wm_cr_builder *b, wm_cr_mplan *p)
{
    enum { MAX_PARTS = 3 + 2 * 32 };
    wm_heap *h = b->heap;
    const uint32_t n = 3 + 2 * p->nstages;
    if (!p->nstages || n > MAX_PARTS) return p;
    uint32_t at[MAX_PARTS];
    const wm_cr_mstage *st = wm_heap_at(h, p->stages_at);
    at[0] = wm_heap_offset(h, p);
    at[1] = p->stages_at;
    at[2] = p->offsets_at;
    for (uint32_t i = 0; i < p->nstages; i++) {
        at[3 + 2 * i] = st[i].keep_at;
        at[4 + 2 * i] = st[i].send_at;
    }
    if (!wm_heap_pack(h, at, n)) return p;
    wm_cr_mplan *q = wm_heap_at(h, at[0]);
    q->stages_at = at[1];
    q->offsets_at = at[2];
    wm_cr_mstage *qs = wm_heap_at(h, at[1]);
    for (uint32_t i = 0; i < q->nstages; i++) {
        qs[i].keep_at = at[3 + 2 * i];
        qs[i].send_at = at[4 + 2 * i];
    }
    return q;
}

wm_cr_result wm_cr_builder_finish(wm_cr_builder *b, wm_cr_mplan **plan)
{
    wm_cr_result res = {WM_CR_OK, 0, 0, {WM_GS_DELIVERY_OK, 0, 0, 0}};
    give_scratch(b);
    const wm_cr_record *rec = b->list.items;
    wm_gs_delivered *del = wm_heap_take(b->heap, b->list.n * (uint32_t)sizeof *del);
    wm_cr_mplan *p = wm_heap_take(b->heap, sizeof *p);
    uint32_t *offsets = wm_heap_take(b->heap, b->img->nrecvs * 4);
    if (!del || !p || !offsets) res.status = WM_CR_NO_MEMORY;
    uint32_t pos = 0;
    wm_heap_charge(b->heap, 2 * b->list.n * WM_GS_COST_RECORD); /* this loop and wm_gs_offsets' */
    for (uint32_t i = 0; res.status == WM_CR_OK && i < b->list.n; i++) {
        if (rec[i].dest != b->img->rank) res = (wm_cr_result){WM_CR_STRAY, rec[i].origin, rec[i].dest, res.delivery};
        del[i] = (wm_gs_delivered){rec[i].origin, pos, rec[i].len};
        pos += rec[i].len;
    }
    if (res.status == WM_CR_OK) {
        res.delivery = wm_gs_offsets(b->img, b->mem, del, b->list.n, offsets);
        if (res.delivery.code != WM_GS_DELIVERY_OK) res.status = WM_CR_DELIVERY;
    }
    wm_heap_give(b->heap, del);
    vec_give(b->heap, &b->list);
    if (res.status != WM_CR_OK) {
        wm_heap_give(b->heap, p);
        wm_heap_give(b->heap, offsets);
        give_stages(b);
        return res;
    }
    *p = (wm_cr_mplan){.rank = b->img->rank, .full_stages = b->stage, .nstages = b->stages.n};
    p->stages_at = b->stages.n ? wm_heap_offset(b->heap, b->stages.items) : 0;
    p->offsets_at = wm_heap_offset(b->heap, offsets);
    const wm_cr_mstage *st = b->stages.items;
    for (uint32_t i = 0; i < p->nstages; i++) {
        if (st[i].nsw > p->max_send) p->max_send = st[i].nsw;
        p->buffer_words += st[i].nkw + st[i].nrw + st[i].nr2w;
    }
    b->stages = (wm_cr_vec){0};
    *plan = compact(b, p);
    return res;
}
