/* stream_regress.h: firmware traffic as `wavemesh regress` scenarios: on
 * every PE of the mesh the stream kernel (sw/traffic/stream.c) sends to
 * the PE (x + DX, y + DY), wrapping around the mesh, and receives from the
 * PE that sends to it; run on the PE cores of both backends, compared by
 * link trace, the cores' events, every export and the final fabric state.
 * Each receiver's sum is also checked against its sender's sequence. */
#ifndef WM_STREAM_REGRESS_H
#define WM_STREAM_REGRESS_H

#include "regress/regress.h"

typedef struct {
    unsigned dx, dy;      /* the shift, in tiles */
    unsigned count, len;  /* messages a PE sends, data wavelets each */
} wm_stream_scenario;

bool wm_stream_regress(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                       wm_regress_results *out);

extern const wm_stream_scenario wm_regress_stream_east, wm_regress_stream_diagonal, wm_regress_stream_long;

#endif
