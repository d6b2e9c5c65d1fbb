/* job.c: the gs driver, a setup run and a gs_op run on one fabric (or on
 * this rank's block of one, partitioned over MPI ranks). */
#include "gs/job.h"

#include "gs/image.h"
#include "gs/rank_layout.h"
#include "gs/reference.h"
#include "run/layout.h"
#include "run/scheduler.h"
#include "waves/interrupt.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct wm_gs_job {
    wm_gs_config cfg;
    const wm_gs_schedule *s;
    unsigned nranks;
    wm_layout *layout;
    size_t *pe;              /* rank -> the scheduler's PE index (layout order) */
    uint32_t *image;         /* nranks images as built, WM_PE_DATA_WORDS each */
    uint32_t *mem;           /* nranks PE data memories, loaded from image per run */
    float **u;
    wm_cr_plan *plans;       /* read back after a plan setup */
    bool have_plans;
};

bool wm_gs_method_parse(const char *name, wm_gs_method *method)
{
    if (!strcmp(name, "pairwise")) *method = WM_GS_PAIRWISE;
    else if (!strcmp(name, "crystal")) *method = WM_GS_CRYSTAL;
    else if (!strcmp(name, "plan")) *method = WM_GS_PLAN;
    else if (!strcmp(name, "fold")) *method = WM_GS_FOLD;
    else if (!strcmp(name, "auto")) *method = WM_GS_AUTO;
    else return false;
    return true;
}

const char *wm_gs_method_name(wm_gs_method method)
{
    switch (method) {
    case WM_GS_PAIRWISE: return "pairwise";
    case WM_GS_CRYSTAL: return "crystal";
    case WM_GS_PLAN: return "plan";
    case WM_GS_FOLD: return "fold";
    case WM_GS_AUTO: return "auto";
    }
    return "?";
}

const char *wm_gs_candidate_name(unsigned c)
{
    static const char *const names[WM_GS_CANDIDATES] = {"pairwise",  "crystal neko", "crystal gslib", "plan neko",
                                                         "plan gslib", "fold neko",   "fold gslib"};
    return c < WM_GS_CANDIDATES ? names[c] : "?";
}

void wm_gs_print_auto(FILE *out, const wm_gs_result *r)
{
    fprintf(out, "auto: candidate gs_op cycles in the set-up (the most on a rank)\n");
    for (unsigned c = 0; c < WM_GS_CANDIDATES; c++)
        fprintf(out, "  %-14s %10" PRIu64 "\n", wm_gs_candidate_name(c), r->auto_cycles[c]);
    fprintf(out, "auto chose: %s\n", wm_gs_candidate_name(r->auto_choice));
}

bool wm_gs_auto_read(const uint32_t *mems, unsigned nranks, wm_gs_result *out, FILE *err)
{
    const wm_gs_image *img0 = (const wm_gs_image *)mems;
    const wm_gs_auto *first = (const wm_gs_auto *)(mems + img0->auto_at);
    for (unsigned r = 1; r < nranks; r++) {
        const uint32_t *mem = mems + (size_t)r * WM_PE_DATA_WORDS;
        const wm_gs_auto *a = (const wm_gs_auto *)(mem + ((const wm_gs_image *)mem)->auto_at);
        if (a->choice != first->choice) {
            fprintf(err, "gs auto: rank %u kept candidate %u (%s), rank 0 candidate %u (%s)\n", r, a->choice,
                    wm_gs_candidate_name(a->choice), first->choice, wm_gs_candidate_name(first->choice));
            return false;
        }
        for (unsigned c = 0; c < WM_GS_CANDIDATES; c++) {
            if (a->cycles[c] != first->cycles[c]) {
                fprintf(err, "gs auto: rank %u timed %s at %u cycles, rank 0 at %u\n", r, wm_gs_candidate_name(c),
                        a->cycles[c], first->cycles[c]);
                return false;
            }
        }
    }
    if (first->choice >= WM_GS_CANDIDATES) {
        fprintf(err, "gs auto: the ranks kept candidate %u, there are %d\n", first->choice, WM_GS_CANDIDATES);
        return false;
    }
    out->auto_choice = first->choice;
    for (unsigned c = 0; c < WM_GS_CANDIDATES; c++) out->auto_cycles[c] = first->cycles[c];
    return true;
}

bool wm_pairing_parse(const char *name, wm_pairing *rule)
{
    if (!strcmp(name, "neko")) *rule = WM_PAIRING_NEKO;
    else if (!strcmp(name, "gslib")) *rule = WM_PAIRING_GSLIB;
    else return false;
    return true;
}

const char *wm_pairing_name(wm_pairing rule) { return rule == WM_PAIRING_GSLIB ? "gslib" : "neko"; }

wm_gs_job *wm_gs_job_create(const wm_gs_config *cfg, const wm_gs_schedule *s, FILE *err)
{
    const unsigned n = cfg->w * cfg->h;
    if (cfg->w == 0 || cfg->h == 0 || cfg->w > WM_MESH_MAX || cfg->h > WM_MESH_MAX) {
        fprintf(err, "gs: a %ux%u rank grid does not fit a mesh (1..%d a side)\n", cfg->w, cfg->h, WM_MESH_MAX);
        return NULL;
    }
    /* The firmware's tags hold 15 bisection stages (sw/gs/autotune.c). */
    if (n > 32768) {
        fprintf(err, "gs: a %ux%u rank grid has %u ranks, more than the 32768 (15 bisection stages) gs runs\n",
                cfg->w, cfg->h, n);
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
    wm_gs_job *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->cfg = *cfg;
    if (!j->cfg.max_cycles) j->cfg.max_cycles = 200000000u;
    j->s = s;
    j->nranks = n;

    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    bool ok = mem && wm_rank_layout_write(mem, cfg->w, cfg->h, cfg->order);
    if (mem) fclose(mem);
    j->layout = ok ? wm_layout_parse(text, "<gs rank grid>", NULL, 0, err) : NULL;
    free(text);
    ok = j->layout != NULL;

    wm_gs_place *places = calloc(n, sizeof *places);
    j->pe = calloc(n, sizeof *j->pe);
    j->image = calloc((size_t)n * WM_PE_DATA_WORDS, sizeof *j->image);
    j->mem = calloc((size_t)n * WM_PE_DATA_WORDS, sizeof *j->mem);
    j->u = wm_gs_values_alloc(s);
    j->plans = calloc(n, sizeof *j->plans);
    ok = ok && places && j->pe && j->image && j->mem && j->u && j->plans;
    for (size_t i = 0; ok && i < wm_layout_count(j->layout); i++) {
        const wm_instance *in = wm_layout_instance(j->layout, i);
        unsigned r;
        if (sscanf(in->name, "r%u", &r) != 1 || r >= n) continue;
        places[r] = (wm_gs_place){(uint16_t)in->x, (uint16_t)in->y};
        j->pe[r] = i;
    }
    for (unsigned r = 0; ok && r < n; r++) {
        uint32_t used;
        ok = wm_gs_image_build(s, r, cfg->method, cfg->pairing, places, j->image + (size_t)r * WM_PE_DATA_WORDS,
                               &used, err);
    }
    free(places);
    if (!ok) {
        wm_gs_job_destroy(j);
        return NULL;
    }
    return j;
}

static void drop_plans(wm_gs_job *j)
{
    for (unsigned r = 0; j->have_plans && r < j->nranks; r++) wm_cr_plan_free(&j->plans[r]);
    j->have_plans = false;
}

void wm_gs_job_destroy(wm_gs_job *j)
{
    if (!j) return;
    if (j->plans) drop_plans(j);
    free(j->plans);
    free(j->pe);
    free(j->image);
    free(j->mem);
    wm_gs_values_free(j->s, j->u);
    wm_layout_destroy(j->layout);
    free(j);
}

static uint32_t *mem_of(const wm_gs_job *j, unsigned rank) { return j->mem + (size_t)rank * WM_PE_DATA_WORDS; }
static wm_gs_image *image_of(const wm_gs_job *j, unsigned rank) { return (wm_gs_image *)mem_of(j, rank); }

typedef struct {
    uint64_t *hops;
    wm_link_hook user;
    void *user_ctx;
} op_hooks;

static void count_hop(void *ctx, const wm_link_event *ev)
{
    const op_hooks *h = ctx;
    if (ev->port != WM_PORT_L) (*h->hops)++;
    if (h->user) h->user(h->user_ctx, ev);
}

/* One run of every rank's kernel in phase ph, on the PE memories; the
 * cycles it took. */
static bool run_phase(wm_gs_job *j, const wm_fabric_ops *ops, wm_fabric *f, wm_gs_phase ph, uint64_t *cycles,
                      FILE *err)
{
    for (unsigned r = 0; r < j->nranks; r++) image_of(j, r)->phase = ph;
    wm_sched *s = j->cfg.part ? wm_sched_create_banded(ops, f, j->layout, j->cfg.pe, j->cfg.part)
                              : wm_sched_create_mode(ops, f, j->layout, j->cfg.pe);
    if (!s) return false;
    for (unsigned r = 0; r < j->nranks; r++) wm_sched_set_memory(s, j->pe[r], mem_of(j, r));
    char why[300];
    if (j->cfg.jitter && !wm_sched_set_jitter(s, j->cfg.jitter, why, sizeof why)) {
        fprintf(err, "gs: --jitter %" PRIu64 ": %s\n", j->cfg.jitter, why);
        wm_sched_destroy(s);
        return false;
    }
    const uint64_t start = ops->cycle(f);
    const wm_run_result r = wm_sched_run(s, start + j->cfg.max_cycles);
    *cycles = wm_sched_cycle(s) - start;
    if (r != WM_RUN_DONE) {
        /* partitioned: every rank takes part in the report, rank 0 writes it */
        if (!j->cfg.part || wm_partition_rank(j->cfg.part) == 0)
            fprintf(err, "gs %s, %s: ", wm_gs_method_name(j->cfg.method), ph == WM_GS_PHASE_SETUP ? "setup" : "gs_op");
        wm_sched_report(s, r, err);
    }
    wm_sched_destroy(s);
    return r == WM_RUN_DONE;
}

bool wm_gs_job_run(wm_gs_job *j, wm_gs_result *out, FILE *err)
{
    const wm_fabric_ops *ops = j->cfg.backend;
    if (j->cfg.pe == WM_PE_CORE && !ops->create_cores) {
        fprintf(err, "gs: the %s backend has no PE cores (--pe core needs rtl or sw)\n", ops->name);
        return false;
    }
    wm_fabric *f;
    if (j->cfg.part) {
        if (!ops->band_edge_out || !ops->band_edge_in) {
            fprintf(err, "gs: the %s backend cannot hold one block of a mesh (a partitioned run needs rtl or sw)\n",
                    ops->name);
            return false;
        }
        wm_fabric_config fc = wm_interrupt_fabric_config(ops);
        fc.band = wm_partition_band(j->cfg.part);
        /* the ranks are the run's parallel part: a rank steps its block on
         * one thread, unless WM_SW_THREADS asks otherwise */
        if (!getenv("WM_SW_THREADS")) fc.threads = WM_SW_THREADS_ONE;
        f = wm_fabric_create(ops, j->cfg.w, j->cfg.h, j->cfg.pe == WM_PE_CORE, &fc);
        /* what each block shows the next at cycle 0 */
        if (f) wm_partition_exchange(j->cfg.part, ops, f, ops->cycle(f));
    } else {
        f = wm_interrupt_fabric_create(ops, j->cfg.w, j->cfg.h, j->cfg.pe == WM_PE_CORE);
    }
    if (!f) return false;
    const bool ok = wm_gs_job_run_on(j, ops, f, true, out, err);
    ops->destroy(f);
    return ok;
}

bool wm_gs_job_run_on(wm_gs_job *j, const wm_fabric_ops *ops, wm_fabric *f, bool count_hops, wm_gs_result *out,
                      FILE *err)
{
    memset(out, 0, sizeof *out);
    for (unsigned y = 0; y < j->cfg.h; y++)
        for (unsigned x = 0; x < j->cfg.w; x++)
            if (!wm_layout_enabled(j->layout, x, y) && (!j->cfg.part || wm_partition_owns(j->cfg.part, x, y)))
                ops->set_enable(f, x, y, false);
    drop_plans(j);
    /* Only the images: the heap above them is laid out by the kernel, and
     * its blocks are zeroed as they are taken. */
    for (unsigned r = 0; r < j->nranks; r++)
        memcpy(mem_of(j, r), j->image + (size_t)r * WM_PE_DATA_WORDS,
               ((const wm_gs_image *)(j->image + (size_t)r * WM_PE_DATA_WORDS))->heap_at * sizeof(uint32_t));
    wm_gs_fill_initial(j->s, j->u);
    for (unsigned r = 0; r < j->nranks; r++) wm_gs_image_set_values(mem_of(j, r), j->u[r]);
    bool ok = true;
    if (j->cfg.method == WM_GS_PLAN || j->cfg.method == WM_GS_AUTO)
        ok = run_phase(j, ops, f, WM_GS_PHASE_SETUP, &out->setup_cycles, err);
    if (ok) {
        op_hooks hooks = {&out->wavelet_hops, j->cfg.op_hook, j->cfg.op_hook_ctx};
        if (count_hops) ops->set_link_hook(f, count_hop, &hooks);
        ok = run_phase(j, ops, f, WM_GS_PHASE_OP, &out->op_cycles, err);
        if (count_hops) ops->set_link_hook(f, NULL, NULL);
        /* each rank saw the hops out of its own block's tiles */
        if (ok && count_hops && j->cfg.part) wm_partition_sum(j->cfg.part, &out->wavelet_hops, 1, ops->cycle(f));
    }
    if (!ok) return false;
    /* The PEs' memories are whole on rank 0 alone (wm_sched_run): it
     * reads the result; the other ranks are done. */
    if (j->cfg.part && wm_partition_rank(j->cfg.part) != 0) return true;

    /* What ran the gs_op: the method, or the candidate auto kept, which
     * every rank must name alike. */
    wm_gs_method method = j->cfg.method;
    wm_pairing pairing = j->cfg.pairing;
    if (method == WM_GS_AUTO) {
        if (!wm_gs_auto_read(j->mem, j->nranks, out, err)) return false;
        method = wm_gs_candidate_method(out->auto_choice);
        pairing = (wm_pairing)wm_gs_candidate_pairing(out->auto_choice);
    }
    if (method == WM_GS_PLAN) {
        for (unsigned r = 0; ok && r < j->nranks; r++) ok = wm_cr_plan_read(mem_of(j, r), &j->plans[r]);
        j->have_plans = ok;
        if (!ok) return false;
    }
    bool used[64] = {false};
    for (unsigned r = 0; r < j->nranks; r++) {
        const wm_gs_image *img = image_of(j, r);
        wm_gs_image_get_values(mem_of(j, r), j->u[r]);
        out->messages += img->messages;
        out->wavelets += img->wavelets;
        if (img->active_stages > out->active_stages) out->active_stages = img->active_stages;
        for (size_t k = 0; j->have_plans && k < j->plans[r].nstages; k++) used[j->plans[r].stages[k].stage % 64] = true;
    }
    if (method == WM_GS_PLAN) {
        for (unsigned k = 0; k < 64; k++) out->stages_used += used[k];
    } else if (method == WM_GS_CRYSTAL) {
        out->stages_used = wm_stage_count(j->nranks);
    } else if (method == WM_GS_FOLD) {
        out->stages_used = 2 * wm_stage_count(j->nranks);
    } else {
        out->stages_used = out->active_stages;
    }
    out->checksum = wm_gs_checksum(j->s, j->u);

    float **ref = wm_gs_values_alloc(j->s);
    if (!ref) return false;
    wm_gs_fill_initial(j->s, ref);
    ok = method == WM_GS_FOLD ? wm_gs_reference_fold(j->s, pairing, ref) : wm_gs_reference_sum(j->s, ref);
    out->matches_reference = ok;
    for (unsigned r = 0; ok && r < j->nranks; r++) {
        const size_t n = wm_gs_schedule_dofs(j->s, r);
        for (size_t d = 0; d < n && out->matches_reference; d++) {
            if (memcmp(&ref[r][d], &j->u[r][d], sizeof(float))) {
                fprintf(err, "gs %s: rank %u dof %zu is %a, the reference says %a\n", wm_gs_method_name(method),
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
    return j->have_plans ? &j->plans[rank] : NULL;
}

uint32_t wm_gs_job_memory_high(const wm_gs_job *j)
{
    uint32_t most = 0;
    for (unsigned r = 0; r < j->nranks; r++) {
        const wm_gs_image *img = image_of(j, r);
        const uint32_t high = img->heap_high > img->heap_at ? img->heap_high : img->heap_at;
        if (high > most) most = high;
    }
    return most;
}
