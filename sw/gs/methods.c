/* methods.c: what each rank runs for pairwise, the setup-phase crystal
 * router and the crystal plan (see methods.h). Every method ends with the
 * same reduction: at the destination, ascending origin rank (reduce.h). */
#include "methods.h"

#include "crystal/plan.h"
#include "reduce.h"
#include "xfer.h"

/* Tags: the bisection stage, and within it the size negotiation (count)
 * or the words (data). The gs_op of the pairwise method uses one tag. */
static uint8_t tag_count(unsigned stage) { return (uint8_t)(2 * stage); }
static uint8_t tag_data(unsigned stage) { return (uint8_t)(2 * stage + 1); }

void wm_gs_gather(uint32_t *to, const uint32_t *from, const uint32_t *idx, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) to[k] = from[idx[k]];
}

static void *take_or_fault(wm_gs_rank *g, uint32_t bytes)
{
    void *p = wm_heap_take(&g->heap, bytes);
    if (!p)
        wm_mp_fault(g->mp, "gs rank %u: out of memory: %u more bytes, the PE's data memory has %u", g->rank, bytes,
                    (unsigned)WM_PE_DATA_BYTES);
    return p;
}

/* count elements of size bytes. Counts come off the wire or out of what
 * the wire built: one that cannot fit the PE's memory is refused by a
 * 64-bit product before the 32-bit one, which could wrap to a small size. */
void *wm_gs_take(wm_gs_rank *g, uint32_t count, uint32_t size)
{
    /* A product, not a quotient: a division takes a core 34 cycles. */
    if ((uint64_t)count * size > WM_PE_DATA_BYTES)
        wm_mp_fault(g->mp, "gs rank %u: out of memory: %u elements of %u bytes, the PE's data memory has %u bytes",
                    g->rank, count, size, (unsigned)WM_PE_DATA_BYTES);
    return take_or_fault(g, count * size);
}

static void port_init(wm_gs_rank *g, wm_xfer_port *port, bool allow_stash)
{
    wm_xfer_port_init(port, g->mp, &g->heap, g->rank, g->mem + g->img->places_at, g->img->nplaces, allow_stash);
}

wm_xfer_port *wm_gs_port_open(wm_gs_rank *g, wm_xfer_port *own, bool allow_stash)
{
    if (g->port) return g->port;
    port_init(g, own, allow_stash);
    return own;
}

void wm_gs_port_close(wm_gs_rank *g, wm_xfer_port *port, unsigned active_stages)
{
    if (port == g->port) return;
    const wm_xfer_stats st = wm_xfer_port_stats(port);
    g->img->messages = (uint32_t)st.messages;
    g->img->wavelets = (uint32_t)st.wavelets;
    g->img->active_stages = active_stages;
    wm_xfer_port_finish(port);
}

void wm_gs_apply_reduction(wm_gs_rank *g, const uint32_t *offsets, const uint32_t *buf)
{
    /* Every dof's first term is a load; each further one a float32 add. */
    wm_mp_work(g->mp, WM_GS_COST_REDUCE + g->img->red_ndofs * WM_GS_COST_DOF +
                          (g->img->red_nterms - g->img->red_ndofs) * WM_GS_COST_TERM);
    wm_gs_reduce(g->img, g->mem, offsets, buf);
}

static void fault_delivery(wm_gs_rank *g, wm_gs_delivery d)
{
    switch (d.code) {
    case WM_GS_DELIVERY_COUNT:
        wm_mp_fault(g->mp, "gs: rank %u was delivered %u records but receives from %u ranks", g->rank, d.got, d.want);
    case WM_GS_DELIVERY_LEN:
        wm_mp_fault(g->mp, "gs: rank %u was delivered %u words from rank %u, expected %u", g->rank, d.got, d.origin,
                    d.want);
    case WM_GS_DELIVERY_TWICE:
        wm_mp_fault(g->mp, "gs: rank %u was delivered two records from rank %u", g->rank, d.origin);
    case WM_GS_DELIVERY_OK: break;
    }
}

/* ---------------------------------------------------------------- pairwise */

static void pairwise_op(wm_gs_rank *g)
{
    wm_mp_work(g->mp, WM_GS_COST_GLUE_PAIRWISE);
    const wm_gs_image *img = g->img;
    const uint32_t *send_list = g->mem + img->sends_at, *recv_list = g->mem + img->recvs_at;
    const uint32_t *u = g->mem + img->u_at;
    uint32_t nsw = 0, nrw = 0;
    wm_mp_work(g->mp, (3 * img->nsends + 3 * img->nrecvs) * WM_GS_COST_ENTRY + img->nsends * WM_GS_COST_PEER_PAIRWISE);
    for (uint32_t i = 0; i < img->nsends; i++) nsw += send_list[3 * i + 1];
    for (uint32_t i = 0; i < img->nrecvs; i++) nrw += recv_list[3 * i + 1];
    uint32_t *sendbuf = wm_gs_take(g, nsw, 4), *recvbuf = wm_gs_take(g, nrw, 4);
    wm_xfer *sends = wm_gs_take(g, img->nsends, (uint32_t)sizeof *sends);
    wm_xfer *recvs = wm_gs_take(g, img->nrecvs, (uint32_t)sizeof *recvs);
    uint32_t *offsets = wm_gs_take(g, img->nrecvs, 4);
    uint32_t off = 0;
    for (uint32_t i = 0; i < img->nsends; i++) {
        const uint32_t count = send_list[3 * i + 1];
        sends[i] = (wm_xfer){send_list[3 * i], 0, sendbuf + off, count, 0};
        off += count;
    }
    off = 0;
    for (uint32_t i = 0; i < img->nrecvs; i++) {
        const uint32_t count = recv_list[3 * i + 1];
        recvs[i] = (wm_xfer){recv_list[3 * i], 0, recvbuf + off, count, 0};
        offsets[i] = off;
        off += count;
    }

    wm_xfer_port own, *port = wm_gs_port_open(g, &own, false);
    for (uint32_t i = 0; i < img->nsends; i++) {
        const uint32_t count = send_list[3 * i + 1];
        const uint32_t *dofs = g->mem + send_list[3 * i + 2];
        wm_mp_work(g->mp, count * WM_GS_COST_COPY);
        wm_gs_gather(sends[i].words, u, dofs, count);
    }
    wm_xfer_exchange(port, sends, img->nsends, recvs, img->nrecvs, img->nrecvs);
    wm_gs_apply_reduction(g, offsets, recvbuf);
    wm_gs_port_close(g, port, img->nsends || img->nrecvs ? 1 : 0);
    wm_heap_give(&g->heap, offsets);
    wm_heap_give(&g->heap, recvs);
    wm_heap_give(&g->heap, sends);
    wm_heap_give(&g->heap, recvbuf);
    wm_heap_give(&g->heap, sendbuf);
}

/* ---------------------------------------------------------------- negotiation */

void wm_gs_negotiated_stage(wm_gs_rank *g, wm_xfer_port *port, unsigned stage, const wm_stage_step *step,
                            uint32_t *out, uint32_t nout, wm_gs_stage_in *in)
{
    uint32_t count_out = nout, counts[2] = {0, 0};
    wm_xfer sends[2];
    size_t ns = 0;
    if (step->dst >= 0) {
        sends[ns++] = (wm_xfer){(unsigned)step->dst, tag_count(stage), &count_out, 1, 0};
        if (nout) sends[ns++] = (wm_xfer){(unsigned)step->dst, tag_data(stage), out, nout, 0};
    }
    wm_xfer recvs[2];
    size_t nr = 0;
    const int from[2] = {step->src, step->src2};
    int slot[2] = {-1, -1};
    for (int k = 0; k < 2; k++) {
        if (from[k] < 0) continue;
        slot[k] = (int)nr;
        recvs[nr++] = (wm_xfer){(unsigned)from[k], tag_count(stage), &counts[k], 1, 0};
    }
    wm_xfer_exchange(port, sends, ns, recvs, nr, nr);
    nr = 0;
    for (int k = 0; k < 2; k++) {
        in->len[k] = slot[k] >= 0 ? counts[k] : 0;
        if (in->len[k] > WM_PE_DATA_WORDS)
            wm_mp_fault(g->mp, "gs rank %u: rank %d announced %u words in stage %u, more than a PE's data memory "
                               "holds (%u)",
                        g->rank, from[k], in->len[k], stage, (unsigned)WM_PE_DATA_WORDS);
        in->words[k] = wm_gs_take(g, in->len[k], 4);
        if (in->len[k]) recvs[nr++] = (wm_xfer){(unsigned)from[k], tag_data(stage), in->words[k], in->len[k], 0};
    }
    wm_xfer_exchange(port, NULL, 0, recvs, nr, nr);
}

/* ---------------------------------------------------------------- setup-phase router */

/* A growable word list in the heap: [dest, origin, len, payload...] records. */
typedef struct {
    uint32_t *w;
    uint32_t n, cap;
} words;

static void words_add(wm_gs_rank *g, words *l, const uint32_t *src, uint32_t n)
{
    wm_mp_work(g->mp, WM_GS_COST_LIST_ADD + n * WM_GS_COST_COPY);
    if (n == 0) return;
    /* Checked before the sum, which a length off the wire could wrap, and
     * before the doubling below, which would never reach it. */
    if (n > WM_PE_DATA_WORDS - l->n)
        wm_mp_fault(g->mp, "gs rank %u: out of memory: a list of %u + %u words, the PE's data memory has %u bytes",
                    g->rank, l->n, n, (unsigned)WM_PE_DATA_BYTES);
    if (l->n + n > l->cap) {
        uint32_t cap = l->cap ? l->cap : 64;
        while (cap < l->n + n) cap *= 2;
        uint32_t *grown = wm_heap_resize(&g->heap, l->w, cap * 4);
        if (!grown)
            wm_mp_fault(g->mp, "gs rank %u: out of memory: a list of %u words, the PE's data memory has %u bytes",
                        g->rank, cap, (unsigned)WM_PE_DATA_BYTES);
        l->w = grown;
        l->cap = cap;
    }
    for (uint32_t i = 0; i < n; i++) l->w[l->n + i] = src[i];
    l->n += n;
}

enum { REC_HEAD = 3 };

/* The words rank `from` handed over in a stage of the setup-phase router:
 * whole [dest, origin, len, payload] records, each bound for this rank's
 * half of the range (step->lo .. step->hi - 1) from a rank that exists.
 * Everything after reads the lengths to walk the list and copy payloads,
 * so a wrong one must stop here. */
static void check_records(wm_gs_rank *g, unsigned stage, int from, const wm_stage_step *step, const uint32_t *w,
                          uint32_t n)
{
    for (uint32_t at = 0; at < n;) {
        wm_mp_work(g->mp, WM_GS_COST_RECORD);
        if (n - at < REC_HEAD)
            wm_mp_fault(g->mp, "gs rank %u: stage %u: the %u words from rank %d end inside a record's head (word %u)",
                        g->rank, stage, n, from, at);
        const uint32_t dest = w[at], origin = w[at + 1], len = w[at + 2];
        if (len > n - at - REC_HEAD)
            wm_mp_fault(g->mp, "gs rank %u: stage %u: a record from rank %d at word %u says %u words, %u are left",
                        g->rank, stage, from, at, len, n - at - REC_HEAD);
        if (dest < step->lo || dest >= step->hi || origin >= g->img->nranks)
            wm_mp_fault(g->mp, "gs rank %u: stage %u: rank %d handed over a record from rank %u to rank %u, not in "
                               "ranks %u..%u",
                        g->rank, stage, from, origin, dest, step->lo, step->hi - 1);
        at += REC_HEAD + len;
    }
}

static void crystal_op(wm_gs_rank *g)
{
    wm_mp_work(g->mp, WM_GS_COST_GLUE_CRYSTAL);
    const wm_gs_image *img = g->img;
    const uint32_t *send_list = g->mem + img->sends_at, *u = g->mem + img->u_at;
    wm_xfer_port own, *port = wm_gs_port_open(g, &own, true);
    words list = {0}, kept = {0}, out = {0};
    for (uint32_t i = 0; i < img->nsends; i++) {
        const uint32_t count = send_list[3 * i + 1];
        const uint32_t *dofs = g->mem + send_list[3 * i + 2];
        const uint32_t head[REC_HEAD] = {send_list[3 * i], g->rank, count};
        words_add(g, &list, head, REC_HEAD);
        wm_mp_work(g->mp, WM_GS_COST_RECORD);
        for (uint32_t k = 0; k < count; k++) words_add(g, &list, &u[dofs[k]], 1);
    }
    unsigned lo = 0, hi = img->nranks, stage = 0;
    wm_stage_step step;
    while (wm_stage_step_of((wm_pairing)img->pairing, lo, hi, g->rank, &step)) {
        wm_mp_work(g->mp, WM_GS_COST_STAGE_CRYSTAL);
        /* Split by destination: a scan of every record, a copy of every word. */
        kept.n = out.n = 0;
        const bool lower = g->rank < step.cut;
        for (uint32_t at = 0; at < list.n;) {
            const uint32_t dest = list.w[at], len = list.w[at + 2];
            words *to = (dest < step.cut) == lower ? &kept : &out;
            wm_mp_work(g->mp, WM_GS_COST_RECORD);
            words_add(g, to, list.w + at, REC_HEAD + len);
            at += REC_HEAD + len;
        }
        wm_gs_stage_in in;
        wm_gs_negotiated_stage(g, port, stage, &step, out.w, out.n, &in);
        check_records(g, stage, step.src, &step, in.words[0], in.len[0]);
        check_records(g, stage, step.src2, &step, in.words[1], in.len[1]);
        list.n = 0;
        words_add(g, &list, kept.w, kept.n);
        for (int k = 0; k < 2; k++) {
            words_add(g, &list, in.words[k], in.len[k]);
            wm_heap_give(&g->heap, in.words[k]);
        }
        lo = step.lo;
        hi = step.hi;
        stage++;
    }
    /* Every record left is bound here: index them, find where each receive
     * list's record sits, and reduce. */
    uint32_t nrec = 0;
    for (uint32_t at = 0; at < list.n; at += REC_HEAD + list.w[at + 2]) nrec++;
    wm_gs_delivered *del = wm_gs_take(g, nrec, (uint32_t)sizeof *del);
    uint32_t i = 0;
    for (uint32_t at = 0; at < list.n; at += REC_HEAD + list.w[at + 2], i++) {
        if (list.w[at] != g->rank)
            wm_mp_fault(g->mp, "gs rank %u: the router left it a record for rank %u", g->rank, list.w[at]);
        del[i] = (wm_gs_delivered){list.w[at + 1], at + REC_HEAD, list.w[at + 2]};
    }
    wm_mp_work(g->mp, 3 * nrec * WM_GS_COST_RECORD);
    uint32_t *offsets = wm_gs_take(g, img->nrecvs, 4);
    fault_delivery(g, wm_gs_offsets(img, g->mem, del, nrec, offsets));
    wm_gs_apply_reduction(g, offsets, list.w);
    wm_gs_port_close(g, port, stage);
    wm_heap_give(&g->heap, offsets);
    wm_heap_give(&g->heap, del);
    wm_heap_give(&g->heap, list.w);
    wm_heap_give(&g->heap, kept.w);
    wm_heap_give(&g->heap, out.w);
}

/* ---------------------------------------------------------------- crystal plan */

/* The metadata rank `from` handed over in a stage of the symbolic pass:
 * whole records of three words, each bound for this rank's half of the
 * range, from a rank that exists, of a length a PE's memory could hold,
 * and not more words in all than that either: the builder sizes its index
 * lists and the plan's buffers by these lengths. */
static void check_meta(wm_gs_rank *g, unsigned stage, int from, const wm_stage_step *step, const uint32_t *w,
                       uint32_t n)
{
    if (n % WM_CR_RECORD_WORDS)
        wm_mp_fault(g->mp, "gs rank %u: stage %u: rank %d sent %u words of record metadata, not whole records of %u",
                    g->rank, stage, from, n, (unsigned)WM_CR_RECORD_WORDS);
    uint32_t total = 0;
    for (uint32_t at = 0; at < n; at += WM_CR_RECORD_WORDS) {
        const uint32_t dest = w[at], origin = w[at + 1], len = w[at + 2];
        if (dest < step->lo || dest >= step->hi || origin >= g->img->nranks)
            wm_mp_fault(g->mp, "gs rank %u: stage %u: rank %d handed over a record from rank %u to rank %u, not in "
                               "ranks %u..%u",
                        g->rank, stage, from, origin, dest, step->lo, step->hi - 1);
        if (len > WM_PE_DATA_WORDS - total)
            wm_mp_fault(g->mp, "gs rank %u: stage %u: rank %d's records overflow the %u words of data memory "
                               "(one says %u)",
                        g->rank, stage, from, (unsigned)WM_PE_DATA_WORDS, len);
        total += len;
    }
}

/* The symbolic pass on the fabric: the builder of plan.h, with the
 * metadata in messages, three words a record. The plan stays in the heap
 * for the gs_op run. */
static void plan_setup(wm_gs_rank *g)
{
    wm_mp_work(g->mp, WM_GS_COST_GLUE_PLAN_SETUP);
    wm_xfer_port own, *port = wm_gs_port_open(g, &own, true);
    wm_cr_builder b;
    if (!wm_cr_builder_init(&b, &g->heap, g->img, g->mem)) take_or_fault(g, WM_PE_DATA_BYTES);
    wm_stage_step step;
    const wm_cr_record *out;
    uint32_t nout;
    unsigned stage = 0;
    bool ok = true;
    while (wm_cr_builder_stage(&b, &step, &out, &nout, &ok)) {
        wm_mp_work(g->mp, WM_GS_COST_STAGE_PLAN_SETUP);
        if (!ok) take_or_fault(g, WM_PE_DATA_BYTES);
        uint32_t *meta = wm_gs_take(g, nout, WM_CR_RECORD_WORDS * 4);
        wm_mp_work(g->mp, nout * WM_GS_COST_RECORD);
        for (uint32_t i = 0; i < nout; i++) {
            meta[3 * i] = out[i].dest;
            meta[3 * i + 1] = out[i].origin;
            meta[3 * i + 2] = out[i].len;
        }
        wm_gs_stage_in in;
        wm_gs_negotiated_stage(g, port, stage, &step, meta, nout * WM_CR_RECORD_WORDS, &in);
        check_meta(g, stage, step.src, &step, in.words[0], in.len[0]);
        check_meta(g, stage, step.src2, &step, in.words[1], in.len[1]);
        uint32_t nrec[2];
        for (int k = 0; k < 2; k++) {
            nrec[k] = in.len[k] / WM_CR_RECORD_WORDS;
            wm_mp_work(g->mp, nrec[k] * WM_GS_COST_RECORD);
        }
        /* Three words a record, in the record's own field order. */
        if (!wm_cr_builder_take(&b, (const wm_cr_record *)in.words[0], nrec[0], (const wm_cr_record *)in.words[1],
                                nrec[1]))
            take_or_fault(g, WM_PE_DATA_BYTES);
        wm_heap_give(&g->heap, in.words[0]);
        wm_heap_give(&g->heap, in.words[1]);
        wm_heap_give(&g->heap, meta);
        stage++;
    }
    if (port != g->port) wm_xfer_port_finish(port);
    wm_cr_mplan *plan = 0;
    const wm_cr_result r = wm_cr_builder_finish(&b, &plan);
    switch (r.status) {
    case WM_CR_OK: break;
    case WM_CR_NO_MEMORY: take_or_fault(g, WM_PE_DATA_BYTES); break;
    case WM_CR_STRAY:
        wm_mp_fault(g->mp, "crystal plan: rank %u ends with a record from rank %u bound for rank %u", g->rank, r.a,
                    r.b);
    case WM_CR_DELIVERY: fault_delivery(g, r.delivery); break;
    }
    g->img->plan_at = wm_heap_offset(&g->heap, plan);
}

/* nwords words at word offset at lie inside the heap. */
static void in_heap_or_fault(wm_gs_rank *g, uint32_t at, uint32_t nwords, const char *what)
{
    const wm_gs_image *img = g->img;
    if (at < img->heap_at || at > img->heap_end || nwords > img->heap_end - at)
        wm_mp_fault(g->mp, "gs rank %u: the plan's %s (%u words at word %u) is not inside the heap (words %u..%u)",
                    g->rank, what, nwords, at, img->heap_at, img->heap_end - 1);
}

/* The plan the setup run left in the heap, checked before its offsets and
 * counts place buffers and index the PE's memory: every part of it in the
 * heap, each stage's sends within the largest, its buffers adding up. */
static const wm_cr_mplan *plan_or_fault(wm_gs_rank *g)
{
    if (!g->img->plan_at) wm_mp_fault(g->mp, "gs rank %u: the plan's gs_op ran before its setup", g->rank);
    in_heap_or_fault(g, g->img->plan_at, (uint32_t)(sizeof(wm_cr_mplan) / 4), "header");
    const wm_cr_mplan *p = wm_heap_at(&g->heap, g->img->plan_at);
    if (p->nstages > 32)
        wm_mp_fault(g->mp, "gs rank %u: the plan has %u stages, a bisection has at most 32", g->rank, p->nstages);
    if (p->nstages) in_heap_or_fault(g, p->stages_at, p->nstages * (uint32_t)(sizeof(wm_cr_mstage) / 4), "stages");
    in_heap_or_fault(g, p->offsets_at, g->img->nrecvs, "offsets");
    const wm_cr_mstage *stages = wm_heap_at(&g->heap, p->stages_at);
    uint32_t need = 0;
    for (uint32_t k = 0; k < p->nstages; k++) {
        const wm_cr_mstage *sg = &stages[k];
        if (sg->nsw > p->max_send || sg->nkw > WM_PE_DATA_WORDS || sg->nrw > WM_PE_DATA_WORDS ||
            sg->nr2w > WM_PE_DATA_WORDS || sg->nkw + sg->nrw + sg->nr2w > WM_PE_DATA_WORDS - need)
            wm_mp_fault(g->mp, "gs rank %u: the plan's stage %u moves more words than a PE's memory holds", g->rank,
                        sg->stage);
        in_heap_or_fault(g, sg->keep_at, sg->nkw, "keep list");
        in_heap_or_fault(g, sg->send_at, sg->nsw, "send list");
        need += sg->nkw + sg->nrw + sg->nr2w;
    }
    if (need != p->buffer_words)
        wm_mp_fault(g->mp, "gs rank %u: the plan's stages need %u words of buffers, it says %u", g->rank, need,
                    p->buffer_words);
    return p;
}

/* The runtime: per active stage an indexed gather, one transfer of known
 * size each way, and a copy of the words that stay. No scan of
 * destinations, no size negotiation; the buffers are taken once. */
static void plan_op(wm_gs_rank *g)
{
    wm_mp_work(g->mp, WM_GS_COST_GLUE_PLAN_OP);
    const wm_cr_mplan *p = plan_or_fault(g);
    const wm_cr_mstage *stages = wm_heap_at(&g->heap, p->stages_at);
    uint32_t *arena = wm_gs_take(g, p->buffer_words, 4), *plan_send = wm_gs_take(g, p->max_send, 4);
    uint32_t **stage_buf = wm_gs_take(g, p->nstages, (uint32_t)sizeof *stage_buf);
    wm_xfer *posted = wm_gs_take(g, 2 * p->nstages, (uint32_t)sizeof *posted);
    uint32_t *posted_at = wm_gs_take(g, p->nstages + 1, 4);
    uint32_t off = 0, nposted = 0;
    for (uint32_t k = 0; k < p->nstages; k++) {
        const wm_cr_mstage *sg = &stages[k];
        uint32_t *buf = arena + off;
        stage_buf[k] = buf;
        posted_at[k] = nposted;
        if (sg->src >= 0) posted[nposted++] = (wm_xfer){(unsigned)sg->src, (uint8_t)sg->stage, buf + sg->nkw, sg->nrw, 0};
        if (sg->src2 >= 0)
            posted[nposted++] = (wm_xfer){(unsigned)sg->src2, (uint8_t)sg->stage, buf + sg->nkw + sg->nrw, sg->nr2w, 0};
        off += sg->nkw + sg->nrw + sg->nr2w;
    }
    posted_at[p->nstages] = nposted;

    wm_xfer_port own, *port = wm_gs_port_open(g, &own, false);
    const uint32_t *u = g->mem + g->img->u_at;
    const uint32_t *prev = 0;
    wm_mp_work(g->mp, p->nstages * WM_GS_COST_STAGE_PLAN_OP);
    for (uint32_t k = 0; k < p->nstages; k++) {
        const wm_cr_mstage *sg = &stages[k];
        const uint32_t *send_idx = g->mem + sg->send_at, *keep_idx = g->mem + sg->keep_at;
        const uint32_t *from = prev ? prev : u;
        wm_mp_work(g->mp, sg->nsw * WM_GS_COST_COPY);
        wm_gs_gather(plan_send, from, send_idx, sg->nsw);
        wm_xfer send = {(unsigned)(sg->dst >= 0 ? sg->dst : 0), (uint8_t)sg->stage, plan_send, sg->nsw, 0};
        const uint32_t first = posted_at[k];
        wm_xfer_exchange(port, &send, sg->dst >= 0 ? 1 : 0, posted + first, nposted - first, posted_at[k + 1] - first);
        uint32_t *cur = stage_buf[k];
        wm_mp_work(g->mp, sg->nkw * WM_GS_COST_COPY);
        wm_gs_gather(cur, from, keep_idx, sg->nkw);
        prev = cur;
    }
    wm_gs_apply_reduction(g, g->mem + p->offsets_at, prev);
    wm_gs_port_close(g, port, p->nstages);
    wm_heap_give(&g->heap, posted_at);
    wm_heap_give(&g->heap, posted);
    wm_heap_give(&g->heap, stage_buf);
    wm_heap_give(&g->heap, plan_send);
    wm_heap_give(&g->heap, arena);
}

/* ---------------------------------------------------------------- dispatch */

void wm_gs_rank_setup(wm_gs_rank *g)
{
    if (g->img->method == WM_GS_PLAN) plan_setup(g);
}

void wm_gs_rank_op(wm_gs_rank *g)
{
    switch ((wm_gs_method)g->img->method) {
    case WM_GS_PAIRWISE: pairwise_op(g); break;
    case WM_GS_CRYSTAL: crystal_op(g); break;
    case WM_GS_PLAN: plan_op(g); break;
    case WM_GS_FOLD: /* fold.c and autotune.c, dispatched by the kernel */
    case WM_GS_AUTO: break;
    }
}
