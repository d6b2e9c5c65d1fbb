/* job.c: the gs driver, a setup run and a gs_op run on one fabric. */
#include "gs/job_state.h"

#include "gs/rank_layout.h"
#include "gs/reference.h"
#include "run/layout.h"
#include "run/scheduler.h"

#include <stdlib.h>
#include <string.h>

/* A layout names kernels and integers only, so the kernels reach the job
 * through this, set for the duration of a run (runs are not nested). */
static wm_gs_job *running_job;

wm_gs_job *wm_gs_running(void) { return running_job; }

bool wm_gs_method_parse(const char *name, wm_gs_method *method)
{
    if (!strcmp(name, "pairwise")) *method = WM_GS_PAIRWISE;
    else if (!strcmp(name, "crystal")) *method = WM_GS_CRYSTAL;
    else if (!strcmp(name, "plan")) *method = WM_GS_PLAN;
    else return false;
    return true;
}

const char *wm_gs_method_name(wm_gs_method method)
{
    switch (method) {
    case WM_GS_PAIRWISE: return "pairwise";
    case WM_GS_CRYSTAL: return "crystal";
    case WM_GS_PLAN: return "plan";
    }
    return "?";
}

/* The layout lives beside the job; kept out of job_state.h, which the
 * kernels include. */
typedef struct {
    wm_gs_job job;
    wm_layout *layout;
} job_box;

wm_gs_job *wm_gs_job_create(const wm_gs_config *cfg, const wm_gs_schedule *s, FILE *err)
{
    const unsigned n = cfg->w * cfg->h;
    if (cfg->w == 0 || cfg->h == 0 || cfg->w > WM_MESH_MAX || cfg->h > WM_MESH_MAX) {
        fprintf(err, "gs: a %ux%u rank grid does not fit a mesh (1..%d a side)\n", cfg->w, cfg->h, WM_MESH_MAX);
        return NULL;
    }
    if (wm_gs_schedule_ranks(s) != n) {
        fprintf(err, "gs: the schedule has %u ranks but the grid %ux%u has %u\n", wm_gs_schedule_ranks(s), cfg->w,
                cfg->h, n);
        return NULL;
    }
    if (n > 0xffffu) {
        fprintf(err, "gs: %u ranks; a message's routing word holds ranks below 65536\n", n);
        return NULL;
    }
    if (wm_stage_count(n) * 2 + 1 > 0xffu) {
        fprintf(err, "gs: too many stages for the header's tag field\n");
        return NULL;
    }
    if (!wm_gs_schedule_check(s, err)) return NULL;
    job_box *box = calloc(1, sizeof *box);
    if (!box) return NULL;
    wm_gs_job *j = &box->job;
    j->cfg = *cfg;
    if (!j->cfg.max_cycles) j->cfg.max_cycles = 200000000u;
    j->s = s;
    j->nranks = n;

    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    bool ok = mem && wm_rank_layout_write(mem, cfg->w, cfg->h, cfg->order);
    if (mem) fclose(mem);
    box->layout = ok ? wm_layout_parse(text, "<gs rank grid>", NULL, 0, err) : NULL;
    free(text);
    ok = box->layout != NULL;

    j->places = calloc(n, sizeof *j->places);
    j->u = wm_gs_values_alloc(s);
    j->rank = calloc(n, sizeof *j->rank);
    ok = ok && j->places && j->u && j->rank;
    for (unsigned r = 0; ok && r < n; r++) {
        char name[16];
        snprintf(name, sizeof name, "r%u", r);
        const wm_instance *in = wm_layout_find(box->layout, name);
        ok = in != NULL;
        if (ok) j->places[r] = (wm_xfer_place){(uint8_t)in->x, (uint8_t)in->y};
    }
    for (unsigned r = 0; ok && r < n; r++) ok = wm_gs_rank_prepare(j, r, err);
    if (!ok) {
        wm_gs_job_destroy(j);
        return NULL;
    }
    return j;
}

void wm_gs_job_destroy(wm_gs_job *j)
{
    if (!j) return;
    job_box *box = (job_box *)j;
    for (unsigned r = 0; j->rank && r < j->nranks; r++) wm_gs_rank_free(&j->rank[r]);
    free(j->rank);
    free(j->places);
    wm_gs_values_free(j->s, j->u);
    wm_layout_destroy(box->layout);
    free(box);
}

static void count_hop(void *ctx, const wm_link_event *ev)
{
    if (ev->port != WM_PORT_L) (*(uint64_t *)ctx)++;
}

/* One run of every rank's kernel in phase ph; the cycles it took. */
static bool run_phase(wm_gs_job *j, const wm_fabric_ops *ops, wm_fabric *f, wm_gs_phase ph, uint64_t *cycles,
                      FILE *err)
{
    job_box *box = (job_box *)j;
    j->phase = ph;
    wm_sched *s = wm_sched_create(ops, f, box->layout);
    if (!s) return false;
    const uint64_t start = ops->cycle(f);
    running_job = j;
    const wm_run_result r = wm_sched_run(s, start + j->cfg.max_cycles);
    running_job = NULL;
    *cycles = wm_sched_cycle(s) - start;
    if (r != WM_RUN_DONE) {
        fprintf(err, "gs %s, %s: ", wm_gs_method_name(j->cfg.method), ph == WM_GS_PHASE_SETUP ? "setup" : "gs_op");
        wm_sched_report(s, r, err);
    }
    wm_sched_destroy(s);
    return r == WM_RUN_DONE;
}

bool wm_gs_job_run(wm_gs_job *j, wm_gs_result *out, FILE *err)
{
    const wm_fabric_ops *ops = j->cfg.backend;
    wm_fabric *f = ops->create(j->cfg.w, j->cfg.h);
    if (!f) return false;
    const bool ok = wm_gs_job_run_on(j, ops, f, true, out, err);
    ops->destroy(f);
    return ok;
}

bool wm_gs_job_run_on(wm_gs_job *j, const wm_fabric_ops *ops, wm_fabric *f, bool count_hops, wm_gs_result *out,
                      FILE *err)
{
    job_box *box = (job_box *)j;
    memset(out, 0, sizeof *out);
    for (unsigned y = 0; y < j->cfg.h; y++)
        for (unsigned x = 0; x < j->cfg.w; x++)
            if (!wm_layout_enabled(box->layout, x, y)) ops->set_enable(f, x, y, false);
    wm_gs_fill_initial(j->s, j->u);
    bool ok = true;
    if (j->cfg.method == WM_GS_PLAN) ok = run_phase(j, ops, f, WM_GS_PHASE_SETUP, &out->setup_cycles, err);
    if (ok) {
        if (count_hops) ops->set_link_hook(f, count_hop, &out->wavelet_hops);
        ok = run_phase(j, ops, f, WM_GS_PHASE_OP, &out->op_cycles, err);
        if (count_hops) ops->set_link_hook(f, NULL, NULL);
    }
    if (!ok) return false;

    bool used[64] = {false};
    for (unsigned r = 0; r < j->nranks; r++) {
        const wm_gs_rank_state *st = &j->rank[r];
        out->messages += st->stats.messages;
        out->wavelets += st->stats.wavelets;
        if (st->active_stages > out->active_stages) out->active_stages = st->active_stages;
        for (size_t k = 0; st->have_plan && k < st->plan.nstages; k++) used[st->plan.stages[k].stage % 64] = true;
    }
    if (j->cfg.method == WM_GS_PLAN) {
        for (unsigned k = 0; k < 64; k++) out->stages_used += used[k];
    } else if (j->cfg.method == WM_GS_CRYSTAL) {
        out->stages_used = wm_stage_count(j->nranks);
    } else {
        out->stages_used = out->active_stages;
    }
    out->checksum = wm_gs_checksum(j->s, j->u);

    float **ref = wm_gs_values_alloc(j->s);
    if (!ref) return false;
    wm_gs_fill_initial(j->s, ref);
    ok = wm_gs_reference_sum(j->s, ref);
    out->matches_reference = ok;
    for (unsigned r = 0; ok && r < j->nranks; r++) {
        const size_t n = wm_gs_schedule_dofs(j->s, r);
        for (size_t d = 0; d < n && out->matches_reference; d++) {
            if (memcmp(&ref[r][d], &j->u[r][d], sizeof(float))) {
                fprintf(err, "gs %s: rank %u dof %zu is %a, the reference says %a\n", wm_gs_method_name(j->cfg.method),
                        r, d, (double)j->u[r][d], (double)ref[r][d]);
                out->matches_reference = false;
            }
        }
    }
    wm_gs_values_free(j->s, ref);
    return ok;
}

float *const *wm_gs_job_values(const wm_gs_job *j) { return j->u; }

const wm_cr_plan *wm_gs_job_plan(const wm_gs_job *j, unsigned rank)
{
    return j->rank[rank].have_plan ? &j->rank[rank].plan : NULL;
}
