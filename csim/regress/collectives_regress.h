/* collectives_regress.h: the tree collectives as `wavemesh regress`
 * scenarios: the seed's tutorial and tworow rows and a generated tree run
 * through the scheduler on both backends, compared by link trace, every
 * exported result and the final fabric state (regress.h). */
#ifndef WM_COLLECTIVES_REGRESS_H
#define WM_COLLECTIVES_REGRESS_H

#include "run/layout.h"
#include "run/tree.h"
#include "regress/regress.h"

#include <stddef.h>

typedef struct {
    const char *layout_path;      /* a layout file, relative to the tree's root ... */
    const wm_setting *settings;
    size_t nsettings;
    size_t tree_leaves;           /* ... or, when layout_path is NULL, a tree over this many leaves */
    wm_tree_placement placement;  /* of that tree */
    bool cores;                   /* run the firmware on the PE cores (scenario's `cores` too) */
} wm_collectives_scenario;

bool wm_collectives_regress(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                            wm_regress_results *out);

extern const wm_collectives_scenario wm_regress_tutorial, wm_regress_tworow, wm_regress_htree16;
/* The same on the PE cores, and generated trees of other sizes and placements. */
extern const wm_collectives_scenario wm_regress_core_tutorial, wm_regress_core_tworow, wm_regress_core_tutorial_ex1,
    wm_regress_core_htree16, wm_regress_core_htree64, wm_regress_core_row8, wm_regress_core_tworow16,
    wm_regress_core_inorder8;

#endif
