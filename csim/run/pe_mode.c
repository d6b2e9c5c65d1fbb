/* pe_mode.c: the PE modes by name and number, and the scheduler made in
 * one (scheduler.h): the one place that knows every mode's table. */
#include "run/scheduler.h"
#include "run/scheduler_internal.h"

#include <stdio.h>
#include <string.h>

static const wm_pe_mode_ops *const modes[] = {
    [WM_PE_NATIVE] = &wm_pe_native_ops,
    [WM_PE_CORE] = &wm_pe_core_ops,
};

/* Mode m's table; NULL for a number that names none. */
static const wm_pe_mode_ops *mode_ops(wm_pe_mode m)
{
    return (unsigned)m < sizeof modes / sizeof modes[0] ? modes[m] : NULL;
}

const char *wm_pe_mode_name(wm_pe_mode m)
{
    const wm_pe_mode_ops *pm = mode_ops(m);
    return pm ? pm->name : "?";
}

wm_sched *wm_sched_create_mode(const wm_fabric_ops *ops, wm_fabric *f, const wm_layout *layout, wm_pe_mode mode)
{
    const wm_pe_mode_ops *pm = mode_ops(mode);
    if (!pm) {
        fprintf(stderr, "wavemesh: no PE mode %d\n", (int)mode);
        return NULL;
    }
    return wm_sched_create_with(pm, ops, f, layout, NULL);
}

wm_sched *wm_sched_create_banded(const wm_fabric_ops *ops, wm_fabric *f, const wm_layout *layout, wm_pe_mode mode,
                                 wm_partition *part)
{
    const wm_pe_mode_ops *pm = mode_ops(mode);
    if (!pm) {
        fprintf(stderr, "wavemesh: no PE mode %d\n", (int)mode);
        return NULL;
    }
    return wm_sched_create_with(pm, ops, f, layout, part);
}

wm_sched *wm_sched_create(const wm_fabric_ops *ops, wm_fabric *f, const wm_layout *layout)
{
    return wm_sched_create_mode(ops, f, layout, WM_PE_NATIVE);
}
