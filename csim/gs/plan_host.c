/* plan_host.c: crystal plans read back and built without the fabric
 * (see plan_host.h). */
#include "gs/plan_host.h"

#include "crystal/plan.h"
#include "gs/image.h"
#include "mp.h"

#include <stdlib.h>
#include <string.h>

static uint32_t *copy_of(const uint32_t *src, size_t n)
{
    uint32_t *c = malloc((n ? n : 1) * sizeof *c);
    if (c && n) memcpy(c, src, n * sizeof *c);
    return c;
}

void wm_cr_plan_free(wm_cr_plan *p)
{
    for (size_t i = 0; i < p->nstages; i++) {
        free(p->stages[i].keep_idx);
        free(p->stages[i].send_idx);
    }
    free(p->stages);
    wm_gs_reduction_free(&p->reduce);
    memset(p, 0, sizeof *p);
}

bool wm_cr_plan_read(const uint32_t *mem, wm_cr_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    const wm_gs_image *img = (const wm_gs_image *)mem;
    if (img->magic != WM_GS_IMAGE_MAGIC || !img->plan_at) return false;
    const wm_cr_mplan *mp = (const wm_cr_mplan *)(mem + img->plan_at);
    const wm_cr_mstage *ms = (const wm_cr_mstage *)(mem + mp->stages_at);
    plan->rank = mp->rank;
    plan->full_stages = mp->full_stages;
    plan->max_send = mp->max_send;
    plan->buffer_words = mp->buffer_words;
    plan->stages = calloc(mp->nstages + 1, sizeof *plan->stages);
    if (!plan->stages) return false;
    plan->nstages = mp->nstages;
    bool ok = true;
    for (uint32_t k = 0; k < mp->nstages; k++) {
        wm_cr_stage *st = &plan->stages[k];
        *st = (wm_cr_stage){ms[k].stage, ms[k].dst, ms[k].src, ms[k].src2, ms[k].nkw, ms[k].nsw, ms[k].nrw,
                            ms[k].nr2w, copy_of(mem + ms[k].keep_at, ms[k].nkw), copy_of(mem + ms[k].send_at, ms[k].nsw)};
        ok = ok && st->keep_idx && st->send_idx;
    }
    /* The reduction map: the template with each receive list's offset. */
    wm_gs_reduction *r = &plan->reduce;
    r->ndofs = img->red_ndofs;
    r->nterms = img->red_nterms;
    r->dof = copy_of(mem + img->red_dof_at, img->red_ndofs);
    r->start = copy_of(mem + img->red_start_at, img->red_ndofs + 1);
    r->term = copy_of(mem + img->red_term_at, img->red_nterms);
    ok = ok && r->dof && r->start && r->term;
    const uint32_t *offsets = mem + mp->offsets_at;
    for (size_t k = 0; ok && k < r->nterms; k++)
        if (r->term[k] != WM_GS_OWN) r->term[k] = offsets[r->term[k] >> 16] + (r->term[k] & 0xffffu);
    if (!ok) wm_cr_plan_free(plan);
    return ok;
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

/* One rank of the pass without the fabric: its image and heap. */
typedef struct {
    uint32_t *mem;
    wm_heap heap;
    wm_cr_builder b;
    bool running;
    wm_stage_step step;
    const wm_cr_record *out;
    uint32_t nout;
} lane;

static void report(FILE *err, unsigned r, const wm_cr_result *res)
{
    switch (res->status) {
    case WM_CR_OK: break;
    case WM_CR_NO_MEMORY: fprintf(err, "crystal plan: rank %u: out of PE data memory\n", r); break;
    case WM_CR_STRAY:
        fprintf(err, "crystal plan: rank %u ends with a record from rank %u bound for rank %u\n", r, res->a, res->b);
        break;
    case WM_CR_DELIVERY:
        fprintf(err, "crystal plan: rank %u: the records left do not match its receive lists (rank %u: %u words, %u expected)\n",
                r, res->delivery.origin, res->delivery.got, res->delivery.want);
        break;
    }
}

bool wm_cr_plan_all(const wm_gs_schedule *s, wm_pairing rule, wm_cr_plan *plans, FILE *err)
{
    const unsigned n = wm_gs_schedule_ranks(s);
    lane *ln = calloc(n ? n : 1, sizeof *ln);
    bool ok = ln != NULL;
    for (unsigned r = 0; ok && r < n; r++) {
        uint32_t used;
        ln[r].mem = calloc(WM_PE_DATA_WORDS, sizeof *ln[r].mem);
        ok = ln[r].mem && wm_gs_image_build(s, r, WM_GS_PLAN, rule, NULL, ln[r].mem, &used, err);
        if (!ok) break;
        wm_gs_image *img = (wm_gs_image *)ln[r].mem;
        wm_heap_format(&ln[r].heap, ln[r].mem, img->heap_at, img->heap_end, &img->heap_high);
        ok = wm_cr_builder_init(&ln[r].b, &ln[r].heap, img, ln[r].mem);
    }
    for (unsigned stage = 0; ok && stage < wm_stage_count(n); stage++) {
        for (unsigned r = 0; ok && r < n; r++) {
            bool fits;
            ln[r].running = wm_cr_builder_stage(&ln[r].b, &ln[r].step, &ln[r].out, &ln[r].nout, &fits);
            ok = fits;
            if (ok && ln[r].running && ln[r].nout && ln[r].step.dst < 0) {
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
            ok = wm_cr_builder_take(&ln[r].b, a ? a->out : NULL, a ? a->nout : 0, c ? c->out : NULL, c ? c->nout : 0);
        }
    }
    for (unsigned r = 0; ok && r < n; r++) {
        wm_cr_mplan *mp = NULL;
        const wm_cr_result res = wm_cr_builder_finish(&ln[r].b, &mp);
        report(err, r, &res);
        ok = res.status == WM_CR_OK;
        if (ok) {
            ((wm_gs_image *)ln[r].mem)->plan_at = wm_heap_offset(&ln[r].heap, mp);
            ok = wm_cr_plan_read(ln[r].mem, &plans[r]);
        }
    }
    for (unsigned r = 0; ln && r < n; r++) free(ln[r].mem);
    free(ln);
    return ok;
}
