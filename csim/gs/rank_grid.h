/* rank_grid.h: where rank r sits on a W x H grid of PEs.
 *
 * Row-major numbers each row west to east. Snake (boustrophedon) reverses
 * every odd row, so consecutive ranks are always neighbours on the mesh:
 * with mirror pairing, each bisection cut of the crystal router is then a
 * physical reflection (docs/crystal.md). Used by the layout generator and
 * by the schedule generators, never by kernels. */
#ifndef WM_GS_RANK_GRID_H
#define WM_GS_RANK_GRID_H

#include "core/must_use.h"

#include <stdbool.h>

typedef enum { WM_RANK_ROWMAJOR = 0, WM_RANK_SNAKE = 1 } wm_rank_order;

/* "rowmajor" or "snake"; false for anything else. */
WM_MUST_USE bool wm_rank_order_parse(const char *name, wm_rank_order *order);
const char *wm_rank_order_name(wm_rank_order order);

/* The PE of rank (0 <= rank < w*h). */
void wm_rank_position(wm_rank_order order, unsigned w, unsigned h, unsigned rank, unsigned *x, unsigned *y);
/* The rank at PE (x, y). */
unsigned wm_rank_at(wm_rank_order order, unsigned w, unsigned h, unsigned x, unsigned y);

#endif
