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
