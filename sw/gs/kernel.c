/* kernel.c: the gs kernel, one per rank; RANK is its rank number. What it
 * runs depends on the method and the phase (setup or gs_op) that the host
 * wrote into its PE's memory. */
#include "gs_kernel.h"

#include "methods.h"

enum { RANK };
const wm_kernel_param wm_gs_params[] = {
    [RANK] = {"RANK", true, 0, 0, WM_MESH_MAX * WM_MESH_MAX - 1},
    {NULL, false, 0, 0, 0},
};

void wm_kernel_gs(wm_mp *mp)
{
    wm_gs_rank g = {.mp = mp, .mem = wm_mp_mem(mp)};
    g.img = (wm_gs_image *)g.mem;
    const int64_t rank = wm_mp_param(mp, RANK);
    if (g.img->magic != WM_GS_IMAGE_MAGIC)
        wm_mp_fault(mp, "the gs kernel runs only under `wavemesh gs` (its PE memory holds no gs image)");
    if (rank != (int64_t)g.img->rank)
        wm_mp_fault(mp, "gs kernel with RANK=%d, but its PE memory holds the image of rank %u", (int)rank,
                    g.img->rank);
    g.rank = g.img->rank;
    if (g.img->heap_ready) {
        wm_heap_attach(&g.heap, g.mem, g.img->heap_at, g.img->heap_end, &g.img->heap_high);
    } else {
        wm_heap_format(&g.heap, g.mem, g.img->heap_at, g.img->heap_end, &g.img->heap_high);
        g.img->heap_ready = 1;
    }
    g.heap.mp = mp;
    wm_gs_run(&g);
}
