/* collectives_regress.h: the tree collectives as `wavemesh regress`
 * scenarios: the seed's tutorial and tworow rows and a generated tree run
 * through the scheduler on both backends, compared by link trace, every
 * exported result and the final fabric state (regress.h). */
#ifndef WM_COLLECTIVES_REGRESS_H
#define WM_COLLECTIVES_REGRESS_H

#include "run/layout.h"
#include "regress/regress.h"

#include <stddef.h>

typedef struct {
    const char *layout_path;      /* a layout file, relative to the tree's root ... */
    const wm_setting *settings;
    size_t nsettings;
    size_t tree_leaves;           /* ... or, when layout_path is NULL, an htree over this many leaves */
} wm_collectives_scenario;

bool wm_collectives_regress(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                            wm_regress_results *out);

extern const wm_collectives_scenario wm_regress_tutorial, wm_regress_tworow, wm_regress_htree16;

#endif
