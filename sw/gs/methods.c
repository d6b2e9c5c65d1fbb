/* methods.c: what each rank runs for pairwise, the setup-phase crystal
 * router and the crystal plan (see job.h). Every method ends with the same
 * reduction: at the destination, ascending origin rank (reduce.h). */
#include "job_state.h"

#include "run/scheduler.h"

#include <stdlib.h>
#include <string.h>

/* Tags: the bisection stage, and within it the size negotiation (count)
 * or the words (data). The gs_op of the pairwise method uses one tag. */
static uint8_t tag_count(unsigned stage) { return (uint8_t)(2 * stage); }
static uint8_t tag_data(unsigned stage) { return (uint8_t)(2 * stage + 1); }

static uint32_t bits_of(float v)
{
    uint32_t w;
    memcpy(&w, &v, sizeof w);
    return w;
}

static void *alloc_or_fault(wm_mp *mp, unsigned rank, size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) wm_sched_fault(mp, "gs rank %u: out of memory", rank);
    return p;
}

/* ---------------------------------------------------------------- pairwise */

bool wm_gs_rank_prepare(wm_gs_job *j, unsigned rank, FILE *err)
{
    wm_gs_rank_state *st = &j->rank[rank];
    const wm_gs_schedule *s = j->s;
    st->nsends = wm_gs_schedule_send_count(s, rank);
    st->nrecvs = wm_gs_schedule_recv_count(s, rank);
    size_t nsw = 0, nrw = 0;
    for (size_t i = 0; i < st->nsends; i++) nsw += wm_gs_schedule_send(s, rank, i).count;
    for (size_t i = 0; i < st->nrecvs; i++) nrw += wm_gs_schedule_recv(s, rank, i).count;
    st->sendbuf = calloc(nsw + 1, sizeof *st->sendbuf);
    st->recvbuf = calloc(nrw + 1, sizeof *st->recvbuf);
    st->sends = calloc(st->nsends + 1, sizeof *st->sends);
    st->recvs = calloc(st->nrecvs + 1, sizeof *st->recvs);
    wm_gs_delivered *del = calloc(st->nrecvs + 1, sizeof *del);
    bool ok = st->sendbuf && st->recvbuf && st->sends && st->recvs && del;
    uint32_t off = 0;
    for (size_t i = 0; ok && i < st->nsends; i++) {
        const wm_gs_peer_list pl = wm_gs_schedule_send(s, rank, i);
        st->sends[i] = (wm_xfer){pl.peer, 0, st->sendbuf + off, (uint32_t)pl.count, 0};
        off += (uint32_t)pl.count;
    }
    off = 0;
    for (size_t i = 0; ok && i < st->nrecvs; i++) {
        const wm_gs_peer_list pl = wm_gs_schedule_recv(s, rank, i);
        st->recvs[i] = (wm_xfer){pl.peer, 0, st->recvbuf + off, (uint32_t)pl.count, 0};
        del[i] = (wm_gs_delivered){pl.peer, off, (uint32_t)pl.count};
        off += (uint32_t)pl.count;
    }
    ok = ok && wm_gs_reduction_build(s, rank, del, st->nrecvs, &st->reduce, err);
    free(del);
    return ok;
}

static void apply_reduction(wm_mp *mp, const wm_gs_reduction *r, float *u, const uint32_t *buf)
{
    wm_mp_work(mp, (unsigned)(r->nterms * WM_GS_COST_TERM));
    wm_gs_reduction_apply(r, u, buf);
}

static void pairwise_op(wm_gs_job *j, unsigned rank, wm_mp *mp)
{
    wm_gs_rank_state *st = &j->rank[rank];
    wm_xfer_port *port = wm_xfer_port_create(mp, rank, j->places, j->nranks, false);
    if (!port) wm_sched_fault(mp, "gs rank %u: out of memory", rank);
    for (size_t i = 0; i < st->nsends; i++) {
        const wm_gs_peer_list pl = wm_gs_schedule_send(j->s, rank, i);
        wm_mp_work(mp, (unsigned)(pl.count * WM_GS_COST_COPY));
        for (size_t k = 0; k < pl.count; k++) st->sends[i].words[k] = bits_of(j->u[rank][pl.dofs[k]]);
    }
    for (size_t i = 0; i < st->nrecvs; i++) st->recvs[i].done = 0;
    wm_xfer_exchange(port, st->sends, st->nsends, st->recvs, st->nrecvs, st->nrecvs);
    apply_reduction(mp, &st->reduce, j->u[rank], st->recvbuf);
    st->stats = wm_xfer_port_stats(port);
    st->active_stages = st->nsends || st->nrecvs ? 1 : 0;
    wm_xfer_port_destroy(port);
}

/* ---------------------------------------------------------------- negotiation */

/* One stage's exchange with a size negotiation: send the count of words
 * and then the words to dst (if any); take the counts from src and src2,
 * then their words, into buffers allocated here. */
typedef struct {
    uint32_t *words[2];
    uint32_t len[2];
} stage_in;

static void negotiated_stage(wm_xfer_port *port, wm_mp *mp, unsigned rank, unsigned stage, const wm_stage_step *step,
                             uint32_t *out, uint32_t nout, stage_in *in)
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
        in->words[k] = alloc_or_fault(mp, rank, (size_t)in->len[k] * sizeof(uint32_t));
        if (in->len[k]) recvs[nr++] = (wm_xfer){(unsigned)from[k], tag_data(stage), in->words[k], in->len[k], 0};
    }
    wm_xfer_exchange(port, NULL, 0, recvs, nr, nr);
}

/* ---------------------------------------------------------------- setup-phase router */

/* A growable word list: [dest, origin, len, payload...] records. */
typedef struct {
    uint32_t *w;
    size_t n, cap;
} words;

static void words_add(words *l, wm_mp *mp, unsigned rank, const uint32_t *src, size_t n)
{
    if (n == 0) return;
    if (l->n + n > l->cap) {
        size_t cap = l->cap ? l->cap : 64;
        while (cap < l->n + n) cap *= 2;
        uint32_t *grown = realloc(l->w, cap * sizeof *grown);
        if (!grown) wm_sched_fault(mp, "gs rank %u: out of memory", rank);
        l->w = grown;
        l->cap = cap;
    }
    memcpy(l->w + l->n, src, n * sizeof *src);
    l->n += n;
}

enum { REC_HEAD = 3 };

static void crystal_op(wm_gs_job *j, unsigned rank, wm_mp *mp)
{
    wm_gs_rank_state *st = &j->rank[rank];
    wm_xfer_port *port = wm_xfer_port_create(mp, rank, j->places, j->nranks, true);
    if (!port) wm_sched_fault(mp, "gs rank %u: out of memory", rank);
    words list = {0}, kept = {0}, out = {0};
    for (size_t i = 0; i < wm_gs_schedule_send_count(j->s, rank); i++) {
        const wm_gs_peer_list pl = wm_gs_schedule_send(j->s, rank, i);
        const uint32_t head[REC_HEAD] = {pl.peer, rank, (uint32_t)pl.count};
        words_add(&list, mp, rank, head, REC_HEAD);
        wm_mp_work(mp, (unsigned)(WM_GS_COST_RECORD + pl.count * WM_GS_COST_COPY));
        for (size_t k = 0; k < pl.count; k++) {
            const uint32_t w = bits_of(j->u[rank][pl.dofs[k]]);
            words_add(&list, mp, rank, &w, 1);
        }
    }
    unsigned lo = 0, hi = j->nranks, stage = 0;
    wm_stage_step step;
    while (wm_stage_step_of(j->cfg.pairing, lo, hi, rank, &step)) {
        /* Split by destination: a scan of every record, a copy of every word. */
        kept.n = out.n = 0;
        const bool lower = rank < step.cut;
        for (size_t at = 0; at < list.n;) {
            const uint32_t dest = list.w[at], len = list.w[at + 2];
            words *to = (dest < step.cut) == lower ? &kept : &out;
            wm_mp_work(mp, (unsigned)(WM_GS_COST_RECORD + (REC_HEAD + len) * WM_GS_COST_COPY));
            words_add(to, mp, rank, list.w + at, REC_HEAD + len);
            at += REC_HEAD + len;
        }
        stage_in in;
        negotiated_stage(port, mp, rank, stage, &step, out.w, (uint32_t)out.n, &in);
        list.n = 0;
        words_add(&list, mp, rank, kept.w, kept.n);
        for (int k = 0; k < 2; k++) {
            wm_mp_work(mp, (unsigned)(in.len[k] * WM_GS_COST_COPY));
            words_add(&list, mp, rank, in.words[k], in.len[k]);
            free(in.words[k]);
        }
        lo = step.lo;
        hi = step.hi;
        stage++;
    }
    /* Every record left is bound here: index them, build the canonical
     * order (the router may allocate) and reduce. */
    size_t nrec = 0;
    for (size_t at = 0; at < list.n; at += REC_HEAD + list.w[at + 2]) nrec++;
    wm_gs_delivered *del = alloc_or_fault(mp, rank, nrec * sizeof *del);
    size_t i = 0;
    for (size_t at = 0; at < list.n; at += REC_HEAD + list.w[at + 2], i++) {
        if (list.w[at] != rank)
            wm_sched_fault(mp, "gs rank %u: the router left it a record for rank %u", rank, list.w[at]);
        del[i] = (wm_gs_delivered){list.w[at + 1], (uint32_t)(at + REC_HEAD), list.w[at + 2]};
    }
    wm_mp_work(mp, (unsigned)(nrec * WM_GS_COST_RECORD));
    wm_gs_reduction red;
    char *why = NULL;
    size_t why_len = 0;
    FILE *err = open_memstream(&why, &why_len);
    const bool ok = err && wm_gs_reduction_build(j->s, rank, del, nrec, &red, err);
    if (err) fclose(err);
    if (!ok) wm_sched_fault(mp, "%s", why ? why : "gs: out of memory");
    free(why);
    apply_reduction(mp, &red, j->u[rank], list.w);
    wm_gs_reduction_free(&red);
    free(del);
    free(list.w);
    free(kept.w);
    free(out.w);
    st->stats = wm_xfer_port_stats(port);
    st->active_stages = stage;
    wm_xfer_port_destroy(port);
}

/* ---------------------------------------------------------------- crystal plan */

/* The symbolic pass on the fabric: the same builder as wm_cr_plan_all, but
 * the metadata travels in messages, three words a record. Then the
 * runtime's buffers are allocated once, here, and never again. */
static void plan_setup(wm_gs_job *j, unsigned rank, wm_mp *mp)
{
    wm_gs_rank_state *st = &j->rank[rank];
    wm_xfer_port *port = wm_xfer_port_create(mp, rank, j->places, j->nranks, true);
    wm_cr_builder *b = wm_cr_builder_create(j->s, rank, j->cfg.pairing);
    if (!port || !b) wm_sched_fault(mp, "gs rank %u: out of memory", rank);
    wm_stage_step step;
    const wm_cr_record *out;
    size_t nout;
    unsigned stage = 0;
    while (wm_cr_builder_stage(b, &step, &out, &nout)) {
        uint32_t *meta = alloc_or_fault(mp, rank, nout * WM_CR_RECORD_WORDS * sizeof *meta);
        wm_mp_work(mp, (unsigned)(nout * WM_GS_COST_RECORD));
        for (size_t i = 0; i < nout; i++) {
            meta[3 * i] = out[i].dest;
            meta[3 * i + 1] = out[i].origin;
            meta[3 * i + 2] = out[i].len;
        }
        stage_in in;
        negotiated_stage(port, mp, rank, stage, &step, meta, (uint32_t)(nout * WM_CR_RECORD_WORDS), &in);
        wm_cr_record *rec[2];
        size_t nrec[2];
        for (int k = 0; k < 2; k++) {
            nrec[k] = in.len[k] / WM_CR_RECORD_WORDS;
            rec[k] = alloc_or_fault(mp, rank, nrec[k] * sizeof *rec[k]);
            for (size_t i = 0; i < nrec[k]; i++)
                rec[k][i] = (wm_cr_record){in.words[k][3 * i], in.words[k][3 * i + 1], in.words[k][3 * i + 2]};
            wm_mp_work(mp, (unsigned)(nrec[k] * WM_GS_COST_RECORD));
            free(in.words[k]);
        }
        if (!wm_cr_builder_take(b, rec[0], nrec[0], rec[1], nrec[1]))
            wm_sched_fault(mp, "gs rank %u: out of memory", rank);
        free(rec[0]);
        free(rec[1]);
        free(meta);
        stage++;
    }
    char *why = NULL;
    size_t why_len = 0;
    FILE *err = open_memstream(&why, &why_len);
    const bool ok = err && wm_cr_builder_finish(b, &st->plan, err);
    if (err) fclose(err);
    wm_cr_builder_destroy(b);
    wm_xfer_port_destroy(port);
    if (!ok) wm_sched_fault(mp, "%s", why ? why : "gs: out of memory");
    free(why);
    st->have_plan = true;

    const wm_cr_plan *p = &st->plan;
    st->arena = alloc_or_fault(mp, rank, p->buffer_words * sizeof *st->arena);
    st->stage_buf = alloc_or_fault(mp, rank, p->nstages * sizeof *st->stage_buf);
    st->plan_send = alloc_or_fault(mp, rank, (size_t)p->max_send * sizeof *st->plan_send);
    st->posted = alloc_or_fault(mp, rank, 2 * p->nstages * sizeof *st->posted);
    st->posted_at = alloc_or_fault(mp, rank, (p->nstages + 1) * sizeof *st->posted_at);
    size_t off = 0;
    for (size_t k = 0; k < p->nstages; k++) {
        const wm_cr_stage *sg = &p->stages[k];
        uint32_t *buf = st->arena + off;
        st->stage_buf[k] = buf;
        st->posted_at[k] = st->nposted;
        if (sg->src >= 0)
            st->posted[st->nposted++] = (wm_xfer){(unsigned)sg->src, (uint8_t)sg->stage, buf + sg->nkw, sg->nrw, 0};
        if (sg->src2 >= 0)
            st->posted[st->nposted++] =
                (wm_xfer){(unsigned)sg->src2, (uint8_t)sg->stage, buf + sg->nkw + sg->nrw, sg->nr2w, 0};
        off += (size_t)sg->nkw + sg->nrw + sg->nr2w;
    }
    st->posted_at[p->nstages] = st->nposted;
}

/* The runtime: per active stage an indexed gather, one transfer of known
 * size each way, and a copy of the words that stay. No scan of
 * destinations, no size negotiation, no allocation. */
static void plan_op(wm_gs_job *j, unsigned rank, wm_mp *mp)
{
    wm_gs_rank_state *st = &j->rank[rank];
    const wm_cr_plan *p = &st->plan;
    wm_xfer_port *port = wm_xfer_port_create(mp, rank, j->places, j->nranks, false);
    if (!port) wm_sched_fault(mp, "gs rank %u: out of memory", rank);
    for (size_t i = 0; i < st->nposted; i++) st->posted[i].done = 0;
    const float *u = j->u[rank];
    const uint32_t *prev = NULL;
    for (size_t k = 0; k < p->nstages; k++) {
        const wm_cr_stage *sg = &p->stages[k];
        wm_mp_work(mp, sg->nsw * WM_GS_COST_COPY);
        for (uint32_t i = 0; i < sg->nsw; i++)
            st->plan_send[i] = prev ? prev[sg->send_idx[i]] : bits_of(u[sg->send_idx[i]]);
        wm_xfer send = {(unsigned)(sg->dst >= 0 ? sg->dst : 0), (uint8_t)sg->stage, st->plan_send, sg->nsw, 0};
        const size_t first = st->posted_at[k];
        wm_xfer_exchange(port, &send, sg->dst >= 0 ? 1 : 0, st->posted + first, st->nposted - first,
                         st->posted_at[k + 1] - first);
        uint32_t *cur = st->stage_buf[k];
        wm_mp_work(mp, sg->nkw * WM_GS_COST_COPY);
        for (uint32_t i = 0; i < sg->nkw; i++) cur[i] = prev ? prev[sg->keep_idx[i]] : bits_of(u[sg->keep_idx[i]]);
        prev = cur;
    }
    apply_reduction(mp, &p->reduce, j->u[rank], prev);
    st->stats = wm_xfer_port_stats(port);
    st->active_stages = (unsigned)p->nstages;
    wm_xfer_port_destroy(port);
}

/* ---------------------------------------------------------------- dispatch */

void wm_gs_rank_setup(wm_gs_job *j, unsigned rank, wm_mp *mp)
{
    if (j->cfg.method == WM_GS_PLAN) plan_setup(j, rank, mp);
}

void wm_gs_rank_op(wm_gs_job *j, unsigned rank, wm_mp *mp)
{
    switch (j->cfg.method) {
    case WM_GS_PAIRWISE: pairwise_op(j, rank, mp); break;
    case WM_GS_CRYSTAL: crystal_op(j, rank, mp); break;
    case WM_GS_PLAN: plan_op(j, rank, mp); break;
    }
}

void wm_gs_rank_free(wm_gs_rank_state *st)
{
    free(st->sendbuf);
    free(st->recvbuf);
    free(st->sends);
    free(st->recvs);
    wm_gs_reduction_free(&st->reduce);
    if (st->have_plan) wm_cr_plan_free(&st->plan);
    free(st->arena);
    free(st->stage_buf);
    free(st->plan_send);
    free(st->posted);
    free(st->posted_at);
    memset(st, 0, sizeof *st);
}
