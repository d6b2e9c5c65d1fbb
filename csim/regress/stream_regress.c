/* stream_regress.c: firmware traffic scenarios (see stream_regress.h). */
#include "regress/stream_regress.h"

#include "regress/profile_regress.h"
#include "run/scheduler.h"
#include "run/stream.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

const wm_stream_scenario wm_regress_stream_east = {WM_STREAM_SHIFT, 1, 0, 6, 3, 0};
const wm_stream_scenario wm_regress_stream_diagonal = {WM_STREAM_SHIFT, 2, 1, 4, 7, 0};
const wm_stream_scenario wm_regress_stream_long = {WM_STREAM_SHIFT, 3, 2, 3, 40, 0};
const wm_stream_scenario wm_regress_stream_uniform = {WM_STREAM_UNIFORM, 0, 0, 5, 4, 25};
const wm_stream_scenario wm_regress_stream_transpose = {WM_STREAM_TRANSPOSE, 0, 0, 4, 2, 0};

bool wm_stream_regress(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                       wm_regress_results *out)
{
    const wm_stream_scenario *sc = arg;
    const wm_stream_spec spec = {w, h, sc->pattern, sc->dx, sc->dy, sc->count, sc->len, sc->gap, 1, false};
    wm_stream_expect *expect = NULL;
    char err[200];
    wm_layout *l = wm_stream_layout(&spec, &expect, err, sizeof err);
    if (!l) {
        fprintf(stderr, "regress: %s\n", err);
        return false;
    }
    wm_sched *s = wm_sched_create_mode(ops, f, l, WM_PE_CORE);
    wm_profiler *prof = s ? wm_regress_profile_begin(s, ops, f) : NULL;
    if (!prof) {
        wm_sched_destroy(s);
        free(expect);
        wm_layout_destroy(l);
        return false;
    }
    const wm_run_result res = wm_sched_run(s, 1000000);
    wm_regress_result(out, "run result", (uint64_t)res);
    wm_regress_result(out, "cycles", wm_sched_cycle(s));
    wm_regress_profile_end(prof, out);
    bool sums_ok = true;
    for (size_t i = 0; i < wm_sched_pe_count(s); i++) {
        const wm_instance *in = wm_sched_pe_instance(s, i);
        size_t n;
        const wm_export *e = wm_sched_pe_exports(s, i, &n);
        for (size_t k = 0; k < n; k++) wm_regress_result_pe(out, e[k].name, in->x, in->y, (uint64_t)e[k].value);
        const wm_core_status c = ops->core_status(f, in->x, in->y);
        wm_regress_result_pe(out, "core retired", in->x, in->y, c.retired);
        if (res != WM_RUN_DONE) continue; /* wm_regress_judge fails the run */
        const wm_stream_expect *x = &expect[in->y * w + in->x];
        int64_t sum = -1, received = -1;
        wm_sched_result(s, in->name, "sum", &sum);
        wm_sched_result(s, in->name, "received", &received);
        if ((uint32_t)sum != x->sum || received != (int64_t)x->messages) {
            fprintf(stderr, "regress: PE (%u,%u) received %" PRId64 " messages summing to %" PRIu32
                    ", expected %u summing to %" PRIu32 "\n", in->x, in->y, received, (uint32_t)sum, x->messages, x->sum);
            sums_ok = false;
        }
    }
    wm_regress_fabric_state(ops, f, w, h, out);
    wm_regress_judge(out, s, res, WM_END_RETURNED);
    wm_sched_destroy(s);
    free(expect);
    wm_layout_destroy(l);
    return sums_ok;
}
