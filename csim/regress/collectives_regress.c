/* collectives_regress.c: the collectives scenarios of the regression. */
#include "regress/collectives_regress.h"

#include "run/scheduler.h"
#include "run/tree.h"

#include <stdlib.h>

static const wm_setting tutorial_settings[] = {{"SHAPE", 0}, {"V0", 10}, {"V1", 20}, {"V2", 30}, {"V3", 40}};
static const wm_setting tworow_settings[] = {{"SHAPE", 1}, {"V0", 7}, {"V1", 300}, {"V2", 0}, {"V3", 5}};

const wm_collectives_scenario wm_regress_tutorial = {"sw/collectives/bench.layout", tutorial_settings, 5, 0};
const wm_collectives_scenario wm_regress_tworow = {"sw/collectives/bench.layout", tworow_settings, 5, 0};
const wm_collectives_scenario wm_regress_htree16 = {NULL, NULL, 0, 16};

static wm_layout *generate(size_t leaves)
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
    const bool ok = wm_tree_write(mem, leaves, WM_TREE_HTREE, values, "regress", err, sizeof err);
    fclose(mem);
    free(values);
    wm_layout *l = ok ? wm_layout_parse(text, "generated htree", NULL, 0, stderr) : NULL;
    if (!ok) fprintf(stderr, "regress: %s\n", err);
    free(text);
    return l;
}

bool wm_collectives_regress(const wm_fabric_ops *ops, wm_fabric *f, unsigned w, unsigned h, const void *arg,
                            wm_regress_results *out)
{
    const wm_collectives_scenario *cs = arg;
    wm_layout *l = cs->layout_path ? wm_layout_load(cs->layout_path, cs->settings, cs->nsettings, stderr)
                                   : generate(cs->tree_leaves);
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
    wm_sched *s = wm_sched_create(ops, f, l);
    if (!s) {
        wm_layout_destroy(l);
        return false;
    }
    wm_regress_result(out, "run result", (uint64_t)wm_sched_run(s, 1000000));
    wm_regress_result(out, "cycles", wm_sched_cycle(s));
    for (size_t i = 0; i < wm_sched_pe_count(s); i++) {
        const wm_instance *in = wm_sched_pe_instance(s, i);
        size_t n;
        const wm_export *e = wm_sched_pe_exports(s, i, &n);
        for (size_t k = 0; k < n; k++) wm_regress_result_pe(out, e[k].name, in->x, in->y, (uint64_t)e[k].value);
    }
    wm_regress_fabric_state(ops, f, w, h, out);
    wm_sched_destroy(s);
    wm_layout_destroy(l);
    return true;
}
