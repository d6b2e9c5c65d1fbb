/* reduction.c: the canonical-order reduction map (see reduction.h). */
#include "gs/reduction.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t dof;
    uint32_t origin;
    uint32_t pos;
} term_ref;

static int term_cmp(const void *a, const void *b)
{
    const term_ref *x = a, *y = b;
    if (x->dof != y->dof) return x->dof < y->dof ? -1 : 1;
    return (x->origin > y->origin) - (x->origin < y->origin);
}

bool wm_gs_reduction_build(const wm_gs_schedule *s, unsigned rank, const wm_gs_delivered *recs, size_t nrecs,
                           wm_gs_reduction *out, FILE *err)
{
    memset(out, 0, sizeof *out);
    const size_t npeers = wm_gs_schedule_recv_count(s, rank);
    if (nrecs != npeers) {
        fprintf(err, "gs: rank %u was delivered %zu records but receives from %zu ranks\n", rank, nrecs, npeers);
        return false;
    }
    size_t nwords = 0;
    for (size_t i = 0; i < nrecs; i++) {
        const wm_gs_peer_list pl = wm_gs_schedule_recv_from(s, rank, recs[i].origin);
        if (pl.dofs == NULL || pl.count != recs[i].len) {
            fprintf(err, "gs: rank %u was delivered %u words from rank %u, expected %zu\n", rank, recs[i].len,
                    recs[i].origin, pl.count);
            return false;
        }
        for (size_t j = 0; j < i; j++) {
            if (recs[j].origin == recs[i].origin) {
                fprintf(err, "gs: rank %u was delivered two records from rank %u\n", rank, recs[i].origin);
                return false;
            }
        }
        nwords += pl.count;
    }
    /* Each word is a term; each dof it lands on also gets its own value as
     * a term, at most once: 2 * nwords bounds the list. */
    term_ref *t = malloc((2 * nwords + 1) * sizeof *t);
    if (!t) return false;
    size_t n = 0;
    for (size_t i = 0; i < nrecs; i++) {
        const wm_gs_peer_list pl = wm_gs_schedule_recv_from(s, rank, recs[i].origin);
        for (size_t j = 0; j < pl.count; j++) {
            t[n++] = (term_ref){pl.dofs[j], recs[i].origin, recs[i].offset + (uint32_t)j};
            t[n++] = (term_ref){pl.dofs[j], rank, WM_GS_OWN};
        }
    }
    qsort(t, n, sizeof *t, term_cmp);
    /* Drop the repeated own terms (a dof carried by several records). */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m > 0 && t[i].pos == WM_GS_OWN && t[m - 1].dof == t[i].dof && t[m - 1].origin == t[i].origin) continue;
        t[m++] = t[i];
    }
    size_t ndofs = 0;
    for (size_t i = 0; i < m; i++)
        if (i == 0 || t[i].dof != t[i - 1].dof) ndofs++;
    out->dof = malloc((ndofs + 1) * sizeof *out->dof);
    out->start = malloc((ndofs + 1) * sizeof *out->start);
    out->term = malloc((m + 1) * sizeof *out->term);
    if (!out->dof || !out->start || !out->term) {
        free(t);
        wm_gs_reduction_free(out);
        return false;
    }
    size_t d = 0;
    for (size_t i = 0; i < m; i++) {
        if (i == 0 || t[i].dof != t[i - 1].dof) {
            out->dof[d] = t[i].dof;
            out->start[d++] = (uint32_t)i;
        }
        out->term[i] = t[i].pos;
    }
    out->start[d] = (uint32_t)m;
    out->ndofs = ndofs;
    out->nterms = m;
    free(t);
    return true;
}

void wm_gs_reduction_free(wm_gs_reduction *r)
{
    free(r->dof);
    free(r->start);
    free(r->term);
    memset(r, 0, sizeof *r);
}

static float term_value(uint32_t pos, float own, const uint32_t *buf)
{
    if (pos == WM_GS_OWN) return own;
    float v;
    memcpy(&v, &buf[pos], sizeof v);
    return v;
}

void wm_gs_reduction_apply(const wm_gs_reduction *r, float *u, const uint32_t *buf)
{
    for (size_t d = 0; d < r->ndofs; d++) {
        const float own = u[r->dof[d]];
        float acc = term_value(r->term[r->start[d]], own, buf);
        for (uint32_t k = r->start[d] + 1; k < r->start[d + 1]; k++) acc += term_value(r->term[k], own, buf);
        u[r->dof[d]] = acc;
    }
}
