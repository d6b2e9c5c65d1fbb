/* collectives_regress.c: the collectives scenarios of the regression. */
#include "regress/collectives_regress.h"

#include "regress/profile_regress.h"

#include "core/datadir.h"

#include "run/scheduler.h"
#include "run/tree.h"

#include <stdlib.h>

static const wm_setting tutorial_settings[] = {{"SHAPE", 0, NULL}, {"V0", 10, NULL}, {"V1", 20, NULL}, {"V2", 30, NULL}, {"V3", 40, NULL}};
static const wm_setting tworow_settings[] = {{"SHAPE", 1, NULL}, {"V0", 7, NULL}, {"V1", 300, NULL}, {"V2", 0, NULL}, {"V3", 5, NULL}};

static const wm_setting tutorial_ex1_settings[] = {{"SHAPE", 0, NULL}, {"V0", 10, NULL}, {"V1", 20, NULL},
                                                   {"V2", 30, NULL}, {"V3", 40, NULL}, {"IGNORE_TAG", 1, NULL}};

const wm_collectives_scenario wm_regress_tutorial = {"sw/collectives/bench.layout", tutorial_settings, 5, 0,
                                                     WM_TREE_HTREE, false};
const wm_collectives_scenario wm_regress_tworow = {"sw/collectives/bench.layout", tworow_settings, 5, 0,
                                                   WM_TREE_HTREE, false};
const wm_collectives_scenario wm_regress_htree16 = {NULL, NULL, 0, 16, WM_TREE_HTREE, false};

const wm_collectives_scenario wm_regress_core_tutorial = {"sw/collectives/bench.layout", tutorial_settings, 5, 0,
                                                          WM_TREE_HTREE, true};
const wm_collectives_scenario wm_regress_core_tworow = {"sw/collectives/bench.layout", tworow_settings, 5, 0,
                                                        WM_TREE_HTREE, true};
const wm_collectives_scenario wm_regress_core_tutorial_ex1 = {"sw/collectives/bench.layout", tutorial_ex1_settings, 6,
                                                              0, WM_TREE_HTREE, true};
const wm_collectives_scenario wm_regress_core_htree16 = {NULL, NULL, 0, 16, WM_TREE_HTREE, true};
const wm_collectives_scenario wm_regress_core_htree64 = {NULL, NULL, 0, 64, WM_TREE_HTREE, true};
const wm_collectives_scenario wm_regress_core_row8 = {NULL, NULL, 0, 8, WM_TREE_ROW, true};
const wm_collectives_scenario wm_regress_core_tworow16 = {NULL, NULL, 0, 16, WM_TREE_TWOROW, true};
const wm_collectives_scenario wm_regress_core_inorder8 = {NULL, NULL, 0, 8, WM_TREE_INORDER, true};

static wm_layout *generate(size_t leaves, wm_tree_placement placement)
{
    int64_t *values = calloc(leaves, sizeof *values);
    char *text = NULL, err[200];
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    if (!values || !mem) {
        free(values);
        if (mem) fclose(mem);
        return NULL;
    }
    wm_tree_seed_values(leaves, leaves, values);
    const bool ok = wm_tree_write(mem, leaves, placement, values, "regress", err, sizeof err);
    fclose(mem);
    free(values);
    wm_layout *l = ok ? wm_layout_parse(text, "generated htree", NULL, 0, stderr) : NULL;
    if (!ok) fprintf(stderr, "regress: %s\n", err);
    free(text);
    return l;
}

/* The corpus names its layouts from the top of the source tree; they are
 * opened there whatever the current folder: the checkout of a build tree,
 * or an installed share/wavemesh (core/datadir.h). */

static wm_layout *load_layout(const char *path, const wm_setting *settings, size_t nsettings)
{
    char full[4096];
    snprintf(full, sizeof full, "%s/%s", wm_data_source_dir(), path);
    return wm_layout_load(path[0] == '/' ? path : full, settings, nsettings, stderr);
}

bool wm_collectives_regress(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                            wm_regress_results *out)
{
    const wm_collectives_scenario *cs = arg;
    wm_layout *l = cs->layout_path ? load_layout(cs->layout_path, cs->settings, cs->nsettings)
                                   : generate(cs->tree_leaves, cs->placement);
    if (!l) return false;
    if (wm_layout_width(l) != w || wm_layout_height(l) != h) {
        fprintf(stderr, "regress: the layout is %ux%u, the scenario %ux%u\n", wm_layout_width(l),
                wm_layout_height(l), w, h);
        wm_layout_destroy(l);
        return false;
    }
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            if (!wm_layout_enabled(l, x, y)) ops->set_enable(f, x, y, false);
    wm_sched *s = wm_sched_create_mode(ops, f, l, cs->cores ? WM_PE_CORE : WM_PE_NATIVE);
    wm_profiler *prof = s ? wm_regress_profile_begin(s, ops, f) : NULL;
    if (!prof) {
        wm_sched_destroy(s);
        wm_layout_destroy(l);
        return false;
    }
    const wm_run_result res = wm_sched_run(s, 1000000);
    wm_regress_result(out, "run result", (uint64_t)res);
    wm_regress_result(out, "cycles", wm_sched_cycle(s));
    wm_regress_profile_end(prof, out);
    for (size_t i = 0; i < wm_sched_pe_count(s); i++) {
        const wm_instance *in = wm_sched_pe_instance(s, i);
        size_t n;
        const wm_export *e = wm_sched_pe_exports(s, i, &n);
        for (size_t k = 0; k < n; k++) wm_regress_result_pe(out, e[k].name, in->x, in->y, (uint64_t)e[k].value);
        if (cs->cores) {
            const wm_core_status c = ops->core_status(f, in->x, in->y);
            wm_regress_result_pe(out, "core retired", in->x, in->y, c.retired);
            wm_regress_result_pe(out, "core pc", in->x, in->y, c.pc);
            wm_regress_result_pe(out, "core halt (state, cause, exit code)", in->x, in->y,
                                 ((uint64_t)c.halt.state << 40) | ((uint64_t)c.halt.cause << 32) | c.halt.exit_code);
        }
    }
    wm_regress_fabric_state(ops, f, w, h, out);
    wm_regress_judge(out, s, res, WM_END_RETURNED);
    wm_sched_destroy(s);
    wm_layout_destroy(l);
    return true;
}
