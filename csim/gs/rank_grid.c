/* rank_grid.c: rank numbering on a grid of PEs (see rank_grid.h). */
#include "gs/rank_grid.h"

#include <string.h>

bool wm_rank_order_parse(const char *name, wm_rank_order *order)
{
    if (!strcmp(name, "rowmajor")) *order = WM_RANK_ROWMAJOR;
    else if (!strcmp(name, "snake")) *order = WM_RANK_SNAKE;
    else return false;
    return true;
}

const char *wm_rank_order_name(wm_rank_order order) { return order == WM_RANK_SNAKE ? "snake" : "rowmajor"; }

void wm_rank_position(wm_rank_order order, unsigned w, unsigned h, unsigned rank, unsigned *x, unsigned *y)
{
    (void)h;
    *y = rank / w;
    *x = rank % w;
    if (order == WM_RANK_SNAKE && (*y & 1u)) *x = w - 1 - *x;
}

unsigned wm_rank_at(wm_rank_order order, unsigned w, unsigned h, unsigned x, unsigned y)
{
    (void)h;
    const unsigned col = (order == WM_RANK_SNAKE && (y & 1u)) ? w - 1 - x : x;
    return y * w + col;
}
