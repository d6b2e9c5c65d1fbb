/* stream_regress.h: firmware traffic as `wavemesh regress` scenarios: on
 * every PE of the mesh the stream kernel (sw/traffic/stream.c) sends a
 * pattern of messages (run/stream.h) and receives what is sent to it; run
 * on the PE cores of both backends, compared by link trace, the cores'
 * events, every export and the final fabric state. Each receiver's count
 * and sum are also checked against what the host works out. */
#ifndef WM_STREAM_REGRESS_H
#define WM_STREAM_REGRESS_H

#include "regress/regress.h"
#include "run/stream.h"

typedef struct {
    wm_stream_pattern pattern;
    unsigned dx, dy;      /* the shift, in tiles */
    unsigned count, len;  /* messages a PE sends, data wavelets each */
    unsigned gap;         /* cycles between message starts */
} wm_stream_scenario;

bool wm_stream_regress(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                       wm_regress_results *out);

extern const wm_stream_scenario wm_regress_stream_east, wm_regress_stream_diagonal, wm_regress_stream_long,
    wm_regress_stream_uniform, wm_regress_stream_transpose;

#endif
