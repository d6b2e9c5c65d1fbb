/* plan.c: the symbolic pass of the crystal router and the plan it writes. */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    void *items;
    size_t n, cap;
} vec;

static bool vec_reserve(vec *v, size_t size, size_t want)
{
    if (want <= v->cap) return true;
    size_t cap = v->cap ? v->cap : 16;
    while (cap < want) cap *= 2;
    void *grown = realloc(v->items, cap * size);
    if (!grown) return false;
    v->items = grown;
    v->cap = cap;
    return true;
}

#define VEC_PUSH(v, type, value) \
    (vec_reserve(&(v), sizeof(type), (v).n + 1) ? (((type *)(v).items)[(v).n++] = (value), true) : false)

struct wm_cr_builder {
    const wm_gs_schedule *s;
    unsigned rank;
    wm_pairing rule;
    unsigned lo, hi, stage;
    vec list;      /* wm_cr_record, the records held, in buffer order */
    vec pack;      /* uint32_t: u position of each word of the initial list */
    bool any_active;
    /* the stage in progress */
    wm_stage_step step;
    vec out;       /* wm_cr_record */
    vec kept;      /* wm_cr_record */
    vec keep_idx, send_idx; /* uint32_t */
    vec stages;    /* wm_cr_stage, the active ones */
};

wm_cr_builder *wm_cr_builder_create(const wm_gs_schedule *s, unsigned rank, wm_pairing rule)
{
    wm_cr_builder *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->s = s;
    b->rank = rank;
    b->rule = rule;
    b->lo = 0;
    b->hi = wm_gs_schedule_ranks(s);
    bool ok = true;
    for (size_t i = 0; ok && i < wm_gs_schedule_send_count(s, rank); i++) {
        const wm_gs_peer_list pl = wm_gs_schedule_send(s, rank, i);
        ok = VEC_PUSH(b->list, wm_cr_record, ((wm_cr_record){pl.peer, rank, (uint32_t)pl.count}));
        for (size_t j = 0; ok && j < pl.count; j++) ok = VEC_PUSH(b->pack, uint32_t, pl.dofs[j]);
    }
    if (!ok) {
        wm_cr_builder_destroy(b);
        return NULL;
    }
    return b;
}

static void free_stage(wm_cr_stage *st)
{
    free(st->keep_idx);
    free(st->send_idx);
}

void wm_cr_builder_destroy(wm_cr_builder *b)
{
    if (!b) return;
    wm_cr_stage *st = b->stages.items;
    for (size_t i = 0; i < b->stages.n; i++) free_stage(&st[i]);
    free(b->stages.items);
    free(b->list.items);
    free(b->pack.items);
    free(b->out.items);
    free(b->kept.items);
    free(b->keep_idx.items);
    free(b->send_idx.items);
    free(b);
}

bool wm_cr_builder_stage(wm_cr_builder *b, wm_stage_step *step, const wm_cr_record **out, size_t *nout)
{
    if (!wm_stage_step_of(b->rule, b->lo, b->hi, b->rank, &b->step)) return false;
    *step = b->step;
    b->out.n = b->kept.n = b->keep_idx.n = b->send_idx.n = 0;
    const bool lower = b->rank < b->step.cut;
    const wm_cr_record *rec = b->list.items;
    uint32_t pos = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < b->list.n; i++) {
        const bool stays = (rec[i].dest < b->step.cut) == lower;
        ok = stays ? VEC_PUSH(b->kept, wm_cr_record, rec[i]) : VEC_PUSH(b->out, wm_cr_record, rec[i]);
        vec *idx = stays ? &b->keep_idx : &b->send_idx;
        for (uint32_t w = 0; ok && w < rec[i].len; w++) ok = VEC_PUSH(*idx, uint32_t, pos + w);
        pos += rec[i].len;
    }
    *out = b->out.items;
    *nout = b->out.n;
    return ok;
}

static uint32_t words_of(const wm_cr_record *r, size_t n)
{
    uint32_t w = 0;
    for (size_t i = 0; i < n; i++) w += r[i].len;
    return w;
}

/* A copy of idx, read through the pack order when the stage is the
 * first active one (it gathers from u). */
static uint32_t *index_copy(const wm_cr_builder *b, const vec *idx)
{
    uint32_t *c = malloc((idx->n ? idx->n : 1) * sizeof *c);
    if (!c) return NULL;
    const uint32_t *src = idx->items, *pack = b->pack.items;
    for (size_t i = 0; i < idx->n; i++) c[i] = b->any_active ? src[i] : pack[src[i]];
    return c;
}

bool wm_cr_builder_take(wm_cr_builder *b, const wm_cr_record *from_src, size_t nsrc, const wm_cr_record *from_src2,
                        size_t nsrc2)
{
    wm_cr_stage st = {
        .stage = b->stage,
        .dst = b->step.dst,
        .src = b->step.src,
        .src2 = b->step.src2,
        .nkw = (uint32_t)b->keep_idx.n,
        .nsw = (uint32_t)b->send_idx.n,
        .nrw = words_of(from_src, nsrc),
        .nr2w = words_of(from_src2, nsrc2),
    };
    if (st.nsw == 0) st.dst = -1;
    if (st.nrw == 0) st.src = -1;
    if (st.nr2w == 0) st.src2 = -1;
    const bool active = st.dst >= 0 || st.src >= 0 || st.src2 >= 0;
    if (active) {
        st.keep_idx = index_copy(b, &b->keep_idx);
        st.send_idx = index_copy(b, &b->send_idx);
        if (!st.keep_idx || !st.send_idx || !VEC_PUSH(b->stages, wm_cr_stage, st)) {
            free_stage(&st);
            return false;
        }
        b->any_active = true;
    }
    /* The new list: kept ++ from src ++ from src2. */
    b->list.n = 0;
    const wm_cr_record *kept = b->kept.items;
    bool ok = true;
    for (size_t i = 0; ok && i < b->kept.n; i++) ok = VEC_PUSH(b->list, wm_cr_record, kept[i]);
    for (size_t i = 0; ok && i < nsrc; i++) ok = VEC_PUSH(b->list, wm_cr_record, from_src[i]);
    for (size_t i = 0; ok && i < nsrc2; i++) ok = VEC_PUSH(b->list, wm_cr_record, from_src2[i]);
    b->lo = b->step.lo;
    b->hi = b->step.hi;
    b->stage++;
    return ok;
}

bool wm_cr_builder_finish(wm_cr_builder *b, wm_cr_plan *plan, FILE *err)
{
    memset(plan, 0, sizeof *plan);
    plan->rank = b->rank;
    plan->full_stages = b->stage;
    const wm_cr_record *rec = b->list.items;
    wm_gs_delivered *del = malloc((b->list.n ? b->list.n : 1) * sizeof *del);
    if (!del) return false;
    uint32_t pos = 0;
    for (size_t i = 0; i < b->list.n; i++) {
        if (rec[i].dest != b->rank) {
            fprintf(err, "crystal plan: rank %u ends with a record from rank %u bound for rank %u\n", b->rank,
                    rec[i].origin, rec[i].dest);
            free(del);
            return false;
        }
        del[i] = (wm_gs_delivered){rec[i].origin, pos, rec[i].len};
        pos += rec[i].len;
    }
    const bool ok = wm_gs_reduction_build(b->s, b->rank, del, b->list.n, &plan->reduce, err);
    free(del);
    if (!ok) return false;
    plan->nstages = b->stages.n;
    plan->stages = b->stages.items;
    b->stages.items = NULL;
    b->stages.n = b->stages.cap = 0;
    for (size_t i = 0; i < plan->nstages; i++) {
        const wm_cr_stage *st = &plan->stages[i];
        if (st->nsw > plan->max_send) plan->max_send = st->nsw;
        plan->buffer_words += (size_t)st->nkw + st->nrw + st->nr2w;
    }
    return true;
}

void wm_cr_plan_free(wm_cr_plan *p)
{
    for (size_t i = 0; i < p->nstages; i++) free_stage(&p->stages[i]);
    free(p->stages);
    wm_gs_reduction_free(&p->reduce);
    memset(p, 0, sizeof *p);
}

static bool same_words(const uint32_t *a, const uint32_t *b, size_t n)
{
    return n == 0 || !memcmp(a, b, n * sizeof *a);
}

bool wm_cr_plan_equal(const wm_cr_plan *a, const wm_cr_plan *b)
{
    if (a->rank != b->rank || a->nstages != b->nstages || a->full_stages != b->full_stages) return false;
    for (size_t i = 0; i < a->nstages; i++) {
        const wm_cr_stage *x = &a->stages[i], *y = &b->stages[i];
        if (x->stage != y->stage || x->dst != y->dst || x->src != y->src || x->src2 != y->src2 || x->nkw != y->nkw ||
            x->nsw != y->nsw || x->nrw != y->nrw || x->nr2w != y->nr2w)
            return false;
        if (!same_words(x->keep_idx, y->keep_idx, x->nkw) || !same_words(x->send_idx, y->send_idx, x->nsw))
            return false;
    }
    const wm_gs_reduction *p = &a->reduce, *q = &b->reduce;
    return p->ndofs == q->ndofs && p->nterms == q->nterms && same_words(p->dof, q->dof, p->ndofs) &&
           same_words(p->start, q->start, p->ndofs + 1) && same_words(p->term, q->term, p->nterms);
}

bool wm_cr_plan_all(const wm_gs_schedule *s, wm_pairing rule, wm_cr_plan *plans, FILE *err)
{
    const unsigned n = wm_gs_schedule_ranks(s);
    wm_cr_builder **b = calloc(n ? n : 1, sizeof *b);
    typedef struct {
        bool running;
        wm_stage_step step;
        const wm_cr_record *out;
        size_t nout;
    } lane;
    lane *ln = calloc(n ? n : 1, sizeof *ln);
    bool ok = b && ln;
    for (unsigned r = 0; ok && r < n; r++) ok = (b[r] = wm_cr_builder_create(s, r, rule)) != NULL;
    for (unsigned stage = 0; ok && stage < wm_stage_count(n); stage++) {
        for (unsigned r = 0; ok && r < n; r++) {
            ln[r].running = wm_cr_builder_stage(b[r], &ln[r].step, &ln[r].out, &ln[r].nout);
            if (ln[r].running && ln[r].nout && ln[r].step.dst < 0) {
                fprintf(err, "crystal plan: rank %u has records to send but no partner in stage %u\n", r, stage);
                ok = false;
            }
        }
        for (unsigned r = 0; ok && r < n; r++) {
            if (!ln[r].running) continue;
            const int src = ln[r].step.src, src2 = ln[r].step.src2;
            const lane *a = src >= 0 ? &ln[src] : NULL, *c = src2 >= 0 ? &ln[src2] : NULL;
            if ((a && a->step.dst != (int)r) || (c && c->step.dst != (int)r)) {
                fprintf(err, "crystal plan: stage %u: rank %u and its senders disagree on the pairing\n", stage, r);
                ok = false;
                break;
            }
            ok = wm_cr_builder_take(b[r], a ? a->out : NULL, a ? a->nout : 0, c ? c->out : NULL, c ? c->nout : 0);
        }
    }
    for (unsigned r = 0; ok && r < n; r++) ok = wm_cr_builder_finish(b[r], &plans[r], err);
    for (unsigned r = 0; b && r < n; r++) wm_cr_builder_destroy(b[r]);
    free(b);
    free(ln);
    return ok;
}
