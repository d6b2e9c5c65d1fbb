/* reduce.c: the reduction template applied in the firmware (see reduce.h). */
#include "reduce.h"

/* The receive list of origin, by binary search (lists ascend by peer). */
static uint32_t recv_index(const wm_gs_image *img, const uint32_t *mem, uint32_t origin)
{
    const uint32_t *r = mem + img->recvs_at;
    uint32_t lo = 0, hi = img->nrecvs;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (r[3 * mid] < origin)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < img->nrecvs && r[3 * lo] == origin ? lo : img->nrecvs;
}

wm_gs_delivery wm_gs_offsets(const wm_gs_image *img, const uint32_t *mem, const wm_gs_delivered *recs,
                             uint32_t nrecs, uint32_t *offsets)
{
    if (nrecs != img->nrecvs) return (wm_gs_delivery){WM_GS_DELIVERY_COUNT, 0, nrecs, img->nrecvs};
    for (uint32_t i = 0; i < img->nrecvs; i++) offsets[i] = WM_GS_OWN;
    for (uint32_t k = 0; k < nrecs; k++) {
        const uint32_t i = recv_index(img, mem, recs[k].origin);
        const uint32_t want = i < img->nrecvs ? mem[img->recvs_at + 3 * i + 1] : 0;
        if (i == img->nrecvs || recs[k].len != want)
            return (wm_gs_delivery){WM_GS_DELIVERY_LEN, recs[k].origin, recs[k].len, want};
        if (offsets[i] != WM_GS_OWN) return (wm_gs_delivery){WM_GS_DELIVERY_TWICE, recs[k].origin, 0, 0};
        offsets[i] = recs[k].offset;
    }
    return (wm_gs_delivery){WM_GS_DELIVERY_OK, 0, 0, 0};
}

typedef union {
    uint32_t bits;
    float value;
} word;

static float term_value(uint32_t term, float own, const uint32_t *offsets, const uint32_t *buf)
{
    if (term == WM_GS_OWN) return own;
    const word w = {.bits = buf[offsets[term >> 16] + (term & 0xffffu)]};
    return w.value;
}

void wm_gs_reduce(const wm_gs_image *img, uint32_t *mem, const uint32_t *offsets, const uint32_t *buf)
{
    const uint32_t *dof = mem + img->red_dof_at, *start = mem + img->red_start_at, *term = mem + img->red_term_at;
    uint32_t *u = mem + img->u_at;
    for (uint32_t d = 0; d < img->red_ndofs; d++) {
        word own = {.bits = u[dof[d]]};
        float acc = term_value(term[start[d]], own.value, offsets, buf);
        for (uint32_t k = start[d] + 1; k < start[d + 1]; k++) acc += term_value(term[k], own.value, offsets, buf);
        own.value = acc;
        u[dof[d]] = own.bits;
    }
}
