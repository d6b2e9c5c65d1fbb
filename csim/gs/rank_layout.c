/* rank_layout.c: the rank-grid layout generator (see rank_layout.h). */
#include "gs/rank_layout.h"

#include "fabric/fabric.h"

bool wm_rank_layout_write(FILE *out, unsigned w, unsigned h, wm_rank_order order)
{
    if (w == 0 || h == 0 || w > WM_MESH_MAX || h > WM_MESH_MAX) return false;
    fprintf(out, "# %u ranks on a %ux%u grid, %s order, one gs kernel per rank\n", w * h, w, h,
            wm_rank_order_name(order));
    fprintf(out, "mesh %u %u\nregion all\n", w, h);
    for (unsigned r = 0; r < w * h; r++) {
        unsigned x, y;
        wm_rank_position(order, w, h, r, &x, &y);
        fprintf(out, "at r%u %u %u\n", r, x, y);
    }
    for (unsigned r = 0; r < w * h; r++) fprintf(out, "pe r%u gs RANK=%u\n", r, r);
    return true;
}
