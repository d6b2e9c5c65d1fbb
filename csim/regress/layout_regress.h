/* layout_regress.h: any layout in lockstep, `wavemesh regress LAYOUT`.
 *
 * A user's layout, with its --set overrides, run on the expected backend
 * and on the backend under test in one PE mode, and compared as the corpus
 * scenarios are (regress.h): every link event, the cycles, every PE's
 * exports (and on the cores every retired instruction), and the fabric's
 * final state; the first divergence is reported. */
#ifndef WM_LAYOUT_REGRESS_H
#define WM_LAYOUT_REGRESS_H

#include "regress/regress.h"
#include "run/layout.h"
#include "run/scheduler.h"
#include "core/must_use.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *path;            /* the layout file */
    const wm_setting *settings;  /* its overrides */
    size_t nsettings;
    wm_pe_mode mode;
    uint64_t max_cycles;         /* the scheduler's limit on each backend */
    uint64_t jitter;             /* the schedule's seed (wm_sched_set_jitter), 0: none */
} wm_layout_regress;

/* Loads the layout (errors name its file and line on stderr) and runs it on
 * both backends into *rep, whose line names the layout, its settings and
 * the mode. False, with nothing run, when the layout does not load. */
WM_MUST_USE
bool wm_layout_regress_run(const wm_layout_regress *lr, const wm_fabric_ops *expected, const wm_fabric_ops *got,
                           wm_regress_report *rep);

#endif
