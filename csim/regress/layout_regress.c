/* layout_regress.c: a user's layout as a regression scenario (see layout_regress.h). */
#include "regress/layout_regress.h"
#include "regress/profile_regress.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The scenario function: the layout through the scheduler, every export
 * and the final state recorded. */
static bool run_layout(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                       wm_regress_results *out)
{
    const wm_layout_regress *lr = arg;
    wm_layout *l = wm_layout_load(lr->path, lr->settings, lr->nsettings, stderr);
    if (!l) return false;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            if (!wm_layout_enabled(l, x, y)) ops->set_enable(f, x, y, false);
    wm_sched *s = wm_sched_create_mode(ops, f, l, lr->mode);
    char why[300];
    if (s && lr->jitter && !wm_sched_set_jitter(s, lr->jitter, why, sizeof why)) {
        fprintf(stderr, "wavemesh regress: --jitter %" PRIu64 ": %s\n", lr->jitter, why);
        wm_sched_destroy(s);
        s = NULL;
    }
    wm_profiler *prof = s ? wm_regress_profile_begin(s, ops, f) : NULL;
    if (!prof) {
        wm_sched_destroy(s);
        wm_layout_destroy(l);
        return false;
    }
    const wm_run_result res = wm_sched_run(s, lr->max_cycles);
    wm_regress_result(out, "run result", (uint64_t)res);
    wm_regress_result(out, "cycles", wm_sched_cycle(s));
    wm_regress_profile_end(prof, out);
    for (size_t i = 0; i < wm_sched_pe_count(s); i++) {
        const wm_instance *in = wm_sched_pe_instance(s, i);
        wm_regress_result_pe(out, "PE state", in->x, in->y, (uint64_t)wm_sched_pe_state(s, i));
        size_t n;
        const wm_export *e = wm_sched_pe_exports(s, i, &n);
        for (size_t k = 0; k < n; k++) wm_regress_result_pe(out, e[k].name, in->x, in->y, (uint64_t)e[k].value);
        if (lr->mode == WM_PE_CORE) {
            const wm_core_status c = ops->core_status(f, in->x, in->y);
            wm_regress_result_pe(out, "core retired", in->x, in->y, c.retired);
            wm_regress_result_pe(out, "core pc", in->x, in->y, c.pc);
        }
    }
    wm_regress_fabric_state(ops, f, w, h, out);
    /* The run itself: both backends agreeing on a deadlock is no pass,
     * unless the layout says it is meant to end that way. */
    wm_regress_judge(out, s, res, wm_layout_expected(l));
    wm_sched_destroy(s);
    wm_layout_destroy(l);
    return true;
}

bool wm_layout_regress_run(const wm_layout_regress *lr, const wm_fabric_ops *expected, const wm_fabric_ops *got,
                           wm_regress_report *rep)
{
    wm_layout *l = wm_layout_load(lr->path, lr->settings, lr->nsettings, stderr);
    if (!l) return false;
    char name[600];
    size_t at = (size_t)snprintf(name, sizeof name, "%s", lr->path);
    for (size_t i = 0; i < lr->nsettings && at < sizeof name; i++)
        at += (size_t)snprintf(name + at, sizeof name - at, " %s=%" PRId64, lr->settings[i].name,
                               lr->settings[i].value);
    if (at < sizeof name) snprintf(name + at, sizeof name - at, " (%s)", wm_pe_mode_name(lr->mode));
    const wm_regress_scenario s = {name,  wm_layout_width(l), wm_layout_height(l), run_layout, lr,
                                   false, lr->mode == WM_PE_CORE, lr->max_cycles + 1};
    wm_layout_destroy(l);
    wm_regress_run(&s, expected, got, rep);
    return true;
}
