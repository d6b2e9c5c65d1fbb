/* reference.c: the plain sum over copies, in ascending rank order. */
#include "gs/reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

float wm_gs_initial_value(unsigned rank, size_t dof)
{
    uint64_t z = ((uint64_t)rank << 32) ^ (uint64_t)dof;
    z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdu;
    z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53u;
    z ^= z >> 33;
    const float mantissa = (float)(z & 0xffffffu) / (float)0x1000000 - 0.5f; /* [-0.5, 0.5) */
    const int exponent = (int)((z >> 24) % 21) - 10;                         /* 2^-10 .. 2^10 */
    return ldexpf(mantissa, exponent);
}

void wm_gs_fill_initial(const wm_gs_schedule *s, float *const *u)
{
    for (unsigned r = 0; r < wm_gs_schedule_ranks(s); r++)
        for (size_t d = 0; d < wm_gs_schedule_dofs(s, r); d++) u[r][d] = wm_gs_initial_value(r, d);
}

typedef struct {
    uint64_t gid;
    unsigned rank;
    size_t dof;
} copy_ref;

static int copy_cmp(const void *a, const void *b)
{
    const copy_ref *x = a, *y = b;
    if (x->gid != y->gid) return x->gid < y->gid ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

bool wm_gs_reference_sum(const wm_gs_schedule *s, float *const *u)
{
    size_t total = 0;
    for (unsigned r = 0; r < wm_gs_schedule_ranks(s); r++) total += wm_gs_schedule_dofs(s, r);
    copy_ref *c = malloc((total ? total : 1) * sizeof *c);
    if (!c) return false;
    size_t k = 0;
    for (unsigned r = 0; r < wm_gs_schedule_ranks(s); r++)
        for (size_t d = 0; d < wm_gs_schedule_dofs(s, r); d++)
            c[k++] = (copy_ref){wm_gs_schedule_global_id(s, r, d), r, d};
    qsort(c, total, sizeof *c, copy_cmp);
    for (size_t a = 0; a < total;) {
        size_t b = a;
        float sum = u[c[a].rank][c[a].dof];
        for (b = a + 1; b < total && c[b].gid == c[a].gid; b++) sum += u[c[b].rank][c[b].dof];
        for (size_t i = a; i < b; i++) u[c[i].rank][c[i].dof] = sum;
        a = b;
    }
    free(c);
    return true;
}

/* A partial sum of the folding router on its way: where it is, what
 * came in with it (0 stayed, 1 from src, 2 from src2) and its value. */
typedef struct {
    unsigned at, came;
    float value;
} partial;

static int partial_cmp(const void *a, const void *b)
{
    const partial *x = a, *y = b;
    if (x->at != y->at) return x->at < y->at ? -1 : 1;
    return (x->came > y->came) - (x->came < y->came);
}

bool wm_gs_reference_fold(const wm_gs_schedule *s, wm_pairing rule, float *const *u)
{
    const unsigned n = wm_gs_schedule_ranks(s), nstages = wm_stage_count(n);
    size_t total = 0;
    for (unsigned r = 0; r < n; r++) total += wm_gs_schedule_dofs(s, r);
    copy_ref *c = malloc((total ? total : 1) * sizeof *c);
    /* Every rank's step in every stage; valid[] false once its range is
     * down to itself. */
    wm_stage_step *steps = malloc(((size_t)n * nstages + 1) * sizeof *steps);
    bool *valid = calloc((size_t)n * nstages + 1, sizeof *valid);
    partial *p = malloc((n + 1) * sizeof *p);
    const bool ok = c && steps && valid && p;
    for (unsigned r = 0; ok && r < n; r++) {
        unsigned lo = 0, hi = n;
        for (unsigned k = 0; k < nstages && wm_stage_step_of(rule, lo, hi, r, &steps[(size_t)r * nstages + k]); k++) {
            valid[(size_t)r * nstages + k] = true;
            lo = steps[(size_t)r * nstages + k].lo;
            hi = steps[(size_t)r * nstages + k].hi;
        }
    }
    size_t k = 0;
    for (unsigned r = 0; ok && r < n; r++)
        for (size_t d = 0; d < wm_gs_schedule_dofs(s, r); d++)
            c[k++] = (copy_ref){wm_gs_schedule_global_id(s, r, d), r, d};
    if (ok) qsort(c, total, sizeof *c, copy_cmp);
    for (size_t a = 0; ok && a < total;) {
        size_t b = a + 1;
        while (b < total && c[b].gid == c[a].gid) b++;
        const unsigned owner = c[a].rank; /* the lowest holder: copies ascend by rank */
        size_t np = 0;
        for (size_t i = a; i < b; i++) p[np++] = (partial){c[i].rank, 0, u[c[i].rank][c[i].dof]};
        for (unsigned st = 0; st < nstages && np > 1; st++) {
            for (size_t i = 0; i < np; i++) {
                const size_t at = (size_t)p[i].at * nstages + st;
                p[i].came = 0;
                if (!valid[at] || (owner < steps[at].cut) == (p[i].at < steps[at].cut)) continue;
                const unsigned from = p[i].at, to = (unsigned)steps[at].dst;
                const wm_stage_step *there = &steps[(size_t)to * nstages + st];
                p[i].at = to;
                p[i].came = (int)from == there->src ? 1 : 2;
            }
            qsort(p, np, sizeof *p, partial_cmp);
            size_t m = 0;
            for (size_t i = 0; i < np; i++) {
                if (m > 0 && p[m - 1].at == p[i].at) p[m - 1].value += p[i].value;
                else p[m++] = p[i];
            }
            np = m;
        }
        for (size_t i = a; i < b; i++) u[c[i].rank][c[i].dof] = p[0].value;
        a = b;
    }
    free(c);
    free(steps);
    free(valid);
    free(p);
    return ok;
}

uint64_t wm_gs_checksum(const wm_gs_schedule *s, float *const *u)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (unsigned r = 0; r < wm_gs_schedule_ranks(s); r++) {
        for (size_t d = 0; d < wm_gs_schedule_dofs(s, r); d++) {
            uint32_t bits;
            memcpy(&bits, &u[r][d], sizeof bits);
            for (int b = 0; b < 4; b++) {
                h ^= (bits >> (8 * b)) & 0xffu;
                h *= 0x100000001b3u;
            }
        }
    }
    return h;
}

float **wm_gs_values_alloc(const wm_gs_schedule *s)
{
    const unsigned n = wm_gs_schedule_ranks(s);
    float **u = calloc(n ? n : 1, sizeof *u);
    if (!u) return NULL;
    for (unsigned r = 0; r < n; r++) {
        const size_t d = wm_gs_schedule_dofs(s, r);
        u[r] = calloc(d ? d : 1, sizeof *u[r]);
        if (!u[r]) {
            wm_gs_values_free(s, u);
            return NULL;
        }
    }
    return u;
}

void wm_gs_values_free(const wm_gs_schedule *s, float **u)
{
    if (!u) return;
    for (unsigned r = 0; r < wm_gs_schedule_ranks(s); r++) free(u[r]);
    free(u);
}
