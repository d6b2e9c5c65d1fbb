/* plan_exec.c: lockstep execution of crystal plans (see plan_exec.h). */
#include "gs/plan_exec.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t next;        /* the next active stage to run */
    uint32_t *prev;     /* the previous stage's list buffer; NULL: read u */
    uint32_t *cur;      /* this stage's list buffer */
    uint32_t *sendbuf;  /* this stage's outgoing words */
} lane;

static uint32_t word_at(const uint32_t *prev, const float *u, uint32_t pos)
{
    if (prev) return prev[pos];
    uint32_t w;
    memcpy(&w, &u[pos], sizeof w);
    return w;
}

bool wm_cr_plan_execute_all(const wm_gs_schedule *s, const wm_cr_plan *plans, float *const *u, FILE *err)
{
    const unsigned n = wm_gs_schedule_ranks(s);
    lane *ln = calloc(n ? n : 1, sizeof *ln);
    if (!ln) return false;
    bool ok = true;
    for (unsigned stage = 0; ok && stage < wm_stage_count(n); stage++) {
        /* Everyone with this stage active gathers what it sends. */
        for (unsigned r = 0; ok && r < n; r++) {
            const wm_cr_plan *p = &plans[r];
            if (ln[r].next >= p->nstages || p->stages[ln[r].next].stage != stage) continue;
            const wm_cr_stage *st = &p->stages[ln[r].next];
            free(ln[r].sendbuf);
            ln[r].sendbuf = malloc((st->nsw ? st->nsw : 1) * sizeof(uint32_t));
            ok = ln[r].sendbuf != NULL;
            for (uint32_t i = 0; ok && i < st->nsw; i++) ln[r].sendbuf[i] = word_at(ln[r].prev, u[r], st->send_idx[i]);
        }
        /* Then builds its new list: kept ++ from src ++ from src2. */
        for (unsigned r = 0; ok && r < n; r++) {
            const wm_cr_plan *p = &plans[r];
            if (ln[r].next >= p->nstages || p->stages[ln[r].next].stage != stage) continue;
            const wm_cr_stage *st = &p->stages[ln[r].next];
            uint32_t *cur = malloc(((size_t)st->nkw + st->nrw + st->nr2w + 1) * sizeof *cur);
            if (!cur) {
                ok = false;
                break;
            }
            for (uint32_t i = 0; i < st->nkw; i++) cur[i] = word_at(ln[r].prev, u[r], st->keep_idx[i]);
            const int from[2] = {st->src, st->src2};
            const uint32_t count[2] = {st->nrw, st->nr2w};
            uint32_t at = st->nkw;
            for (int k = 0; ok && k < 2; k++) {
                if (from[k] < 0) continue;
                const unsigned q = (unsigned)from[k];
                const wm_cr_plan *pq = &plans[q];
                const wm_cr_stage *sq = ln[q].next < pq->nstages ? &pq->stages[ln[q].next] : NULL;
                if (!sq || sq->stage != stage || sq->dst != (int)r || sq->nsw != count[k]) {
                    fprintf(err, "crystal plan: stage %u: rank %u expects %u words from rank %u, which does not send them\n",
                            stage, r, count[k], q);
                    ok = false;
                    break;
                }
                memcpy(&cur[at], ln[q].sendbuf, count[k] * sizeof *cur);
                at += count[k];
            }
            ln[r].cur = cur;
        }
        for (unsigned r = 0; r < n; r++) {
            const wm_cr_plan *p = &plans[r];
            if (ln[r].next >= p->nstages || p->stages[ln[r].next].stage != stage) continue;
            free(ln[r].prev);
            ln[r].prev = ln[r].cur;
            ln[r].cur = NULL;
            ln[r].next++;
        }
    }
    for (unsigned r = 0; ok && r < n; r++) wm_gs_reduction_apply(&plans[r].reduce, u[r], ln[r].prev);
    for (unsigned r = 0; r < n; r++) {
        free(ln[r].prev);
        free(ln[r].cur);
        free(ln[r].sendbuf);
    }
    free(ln);
    return ok;
}
