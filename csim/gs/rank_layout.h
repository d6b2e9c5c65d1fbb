/* rank_layout.h: the layout of P ranks on a W x H grid of PEs.
 *
 * One instance per rank, named r0 .. r{P-1}, kernel gs with RANK=r, placed
 * by wm_rank_position; the whole mesh is the message-passing region. The
 * gs driver reads every rank's PE back from the parsed layout, so the
 * kernels learn their peers' coordinates from the layout, never by
 * computing them. */
#ifndef WM_GS_RANK_LAYOUT_H
#define WM_GS_RANK_LAYOUT_H

#include "gs/rank_grid.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stdio.h>

/* Write it; false if the grid does not fit a mesh (a side above 256). */
WM_MUST_USE bool wm_rank_layout_write(FILE *out, unsigned w, unsigned h, wm_rank_order order);

#endif
