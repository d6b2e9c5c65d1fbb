/* runner.c: fabric + scheduler for one layout (see runner.h). */
#include "run/runner.h"

#include "run/run_notes.h"
#include "waves/interrupt.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct wm_runner {
    const wm_fabric_ops *ops;
    const wm_layout *layout;
    wm_fabric *f;
    wm_sched *s;
    wm_waves *waves;
    size_t *wave_pe; /* the dump's PE index of each scheduler PE */
    wm_run_notes *notes; /* a traced run's markers and senders, for its save file */
    wm_gtkw_markers marks;
};

static void waves_send(void *ctx, size_t pe, uint64_t cycle, uint32_t header)
{
    wm_runner *r = ctx;
    (void)cycle;
    if (r->notes) wm_run_notes_send(r->notes, r->s, pe, header);
}

static void waves_state(void *ctx, size_t pe, uint64_t cycle, wm_pe_state state)
{
    wm_runner *r = ctx;
    (void)cycle;
    wm_waves_set_state(r->waves, r->wave_pe[pe], (unsigned)state);
}

static void waves_export(void *ctx, size_t pe, uint64_t cycle, const char *name, int64_t value)
{
    wm_runner *r = ctx;
    (void)cycle;
    wm_waves_set_export(r->waves, r->wave_pe[pe], name, value);
}

static void waves_cycle(void *ctx, uint64_t cycle)
{
    wm_runner *r = ctx;
    (void)cycle;
    wm_waves_sample(r->waves);
}

/* Name the tiles and declare every kernel's signals before the dump opens. */
static bool declare_waves(wm_runner *r, const wm_trace_spec *trace)
{
    char err[256];
    const unsigned w = wm_layout_width(r->layout), h = wm_layout_height(r->layout);
    r->waves = wm_waves_create(trace, w, h, err, sizeof err);
    if (!r->waves) {
        fprintf(stderr, "wavemesh: %s\n", err);
        return false;
    }
    const size_t n = wm_layout_count(r->layout);
    r->wave_pe = calloc(n ? n : 1, sizeof *r->wave_pe);
    if (!r->wave_pe) return false;
    for (size_t i = 0; i < n; i++) {
        const wm_instance *in = wm_layout_instance(r->layout, i);
        wm_waves_name_tile(r->waves, in->x, in->y, in->name);
        r->wave_pe[i] = wm_waves_add_pe(r->waves, in->x, in->y);
        for (const char *const *e = in->kernel->exports; e && *e; e++)
            wm_waves_add_export(r->waves, r->wave_pe[i], *e);
    }
    return true;
}

wm_runner *wm_runner_create_traced(const wm_fabric_ops *ops, const wm_layout *layout, const wm_trace_spec *trace)
{
    return wm_runner_create_mode(ops, layout, trace, WM_PE_NATIVE);
}

/* A runner of the layout in PE mode `mode`, nothing made yet; NULL with
 * a message when the backend has no cores the mode needs. */
static wm_runner *runner_new(const wm_fabric_ops *ops, const wm_layout *layout, wm_pe_mode mode)
{
    if (mode == WM_PE_CORE && !ops->create_cores) {
        fprintf(stderr, "wavemesh: the %s backend has no PE cores (--pe core needs rtl or sw)\n", ops->name);
        return NULL;
    }
    wm_runner *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->ops = ops;
    r->layout = layout;
    return r;
}

wm_runner *wm_runner_create_mode(const wm_fabric_ops *ops, const wm_layout *layout, const wm_trace_spec *trace,
                                 wm_pe_mode mode)
{
    wm_runner *r = runner_new(ops, layout, mode);
    if (!r) return NULL;
    const unsigned w = wm_layout_width(layout), h = wm_layout_height(layout);
    if (trace && trace->path) {
        wm_trace_spec spec = *trace;
        spec.cores = mode == WM_PE_CORE;
        if (!declare_waves(r, &spec)) {
            wm_runner_destroy(r);
            return NULL;
        }
        r->f = wm_waves_open(r->waves, ops);
    } else {
        r->f = wm_interrupt_fabric_create(ops, w, h, mode == WM_PE_CORE);
    }
    if (!r->f) {
        wm_runner_destroy(r);
        return NULL;
    }
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            if (!wm_layout_enabled(layout, x, y)) ops->set_enable(r->f, x, y, false);
    r->s = wm_sched_create_mode(ops, r->f, layout, mode);
    if (!r->s) {
        wm_runner_destroy(r);
        return NULL;
    }
    if (r->waves) {
        const wm_sched_observer obs = {waves_state, waves_export, waves_cycle, waves_send};
        wm_sched_set_observer(r->s, &obs, r);
        /* the markers and senders of its save file (docs/waves.md) */
        r->notes = wm_run_notes_create(layout);
        if (r->notes) ops->set_link_hook(r->f, wm_run_notes_link, r->notes);
    }
    return r;
}

wm_runner *wm_runner_create_banded(const wm_fabric_ops *ops, const wm_layout *layout, wm_pe_mode mode,
                                   wm_partition *part, const wm_trace_spec *trace)
{
    if (!ops->band_edge_out || !ops->band_edge_in) {
        fprintf(stderr, "wavemesh: the %s backend cannot hold one band of a mesh (a partitioned run needs rtl or sw)\n",
                ops->name);
        return NULL;
    }
    wm_runner *r = runner_new(ops, layout, mode);
    if (!r) return NULL;
    const unsigned w = wm_layout_width(layout), h = wm_layout_height(layout);
    wm_fabric_config cfg = wm_interrupt_fabric_config(ops);
    cfg.band = wm_partition_band(part);
    /* the ranks are the run's parallel part: a rank steps its block on
     * one thread, unless WM_SW_THREADS asks otherwise */
    if (!getenv("WM_SW_THREADS")) cfg.threads = WM_SW_THREADS_ONE;
    /* a dump of the block's tiles, named after the rank (docs/distributed.md) */
    wm_trace_spec block;
    char path[4200], err[600];
    const int dumps = trace && trace->path ? wm_trace_spec_of_block(trace, w, h, cfg.band, wm_partition_rank(part),
                                                                     &block, path, sizeof path, err, sizeof err)
                                           : 0;
    if (dumps < 0) {
        fprintf(stderr, "wavemesh: %s\n", err);
        wm_runner_destroy(r);
        return NULL;
    }
    if (dumps) {
        block.cores = mode == WM_PE_CORE;
        if (!declare_waves(r, &block)) {
            wm_runner_destroy(r);
            return NULL;
        }
        r->f = wm_waves_open_with(r->waves, ops, &cfg);
    } else {
        r->f = wm_fabric_create(ops, w, h, mode == WM_PE_CORE, &cfg);
    }
    if (!r->f) {
        wm_runner_destroy(r);
        return NULL;
    }
    for (unsigned y = cfg.band.row_begin; y < cfg.band.row_end; y++)
        for (unsigned x = cfg.band.col_begin; x < cfg.band.col_end; x++)
            if (!wm_layout_enabled(layout, x, y)) ops->set_enable(r->f, x, y, false);
    r->s = wm_sched_create_banded(ops, r->f, layout, mode, part);
    if (!r->s) {
        wm_runner_destroy(r);
        return NULL;
    }
    if (r->waves) {
        const wm_sched_observer obs = {waves_state, waves_export, waves_cycle, waves_send};
        wm_sched_set_observer(r->s, &obs, r);
        r->notes = wm_run_notes_create(layout);
        if (r->notes) ops->set_link_hook(r->f, wm_run_notes_link, r->notes);
    }
    /* what each band shows the next at cycle 0 */
    wm_partition_exchange(part, ops, r->f, ops->cycle(r->f));
    return r;
}

wm_runner *wm_runner_create(const wm_fabric_ops *ops, const wm_layout *layout)
{
    return wm_runner_create_traced(ops, layout, NULL);
}

/* Hand the run's notes to the dump before it writes its save file. */
static void note_markers(wm_runner *r)
{
    if (!r->notes) return;
    wm_run_notes_finish(r->notes, &r->marks);
    wm_waves_set_markers(r->waves, &r->marks);
}

bool wm_runner_finish(wm_runner *r)
{
    if (!r->waves) return true;
    note_markers(r);
    const bool ok = wm_waves_finish(r->waves);
    wm_waves_destroy(r->waves);
    r->waves = NULL;
    return ok;
}

void wm_runner_destroy(wm_runner *r)
{
    if (!r) return;
    wm_sched_destroy(r->s);
    if (r->waves) {
        if (r->f) {
            note_markers(r);
            /* A runner destroyed unfinished: the run's own error is the
             * one to report, the dump is kept as far as it goes. */
            (void)!wm_waves_finish(r->waves);
        }
        wm_waves_destroy(r->waves);
    }
    if (r->f) r->ops->destroy(r->f);
    wm_run_notes_destroy(r->notes);
    free(r->wave_pe);
    free(r);
}

wm_run_result wm_runner_run(wm_runner *r, uint64_t max_cycles) { return wm_sched_run(r->s, max_cycles); }
wm_sched *wm_runner_sched(wm_runner *r) { return r->s; }
wm_fabric *wm_runner_fabric(wm_runner *r) { return r->f; }

void wm_runner_print_results(const wm_runner *r, FILE *out)
{
    for (size_t i = 0; i < wm_sched_pe_count(r->s); i++) {
        size_t n;
        const wm_export *e = wm_sched_pe_exports(r->s, i, &n);
        const char *name = wm_sched_pe_instance(r->s, i)->name;
        for (size_t k = 0; k < n; k++) fprintf(out, "%s.%s = %" PRId64 "\n", name, e[k].name, e[k].value);
    }
}

static bool export_of(const wm_export *e, size_t n, const char *name, int64_t *v)
{
    for (size_t k = 0; k < n; k++) {
        if (!strcmp(e[k].name, name)) {
            *v = e[k].value;
            return true;
        }
    }
    return false;
}

size_t wm_runner_leaf_cycles(const wm_runner *r, const char **names, int64_t *cycles, size_t max)
{
    size_t count = 0;
    for (size_t i = 0; i < wm_sched_pe_count(r->s); i++) {
        size_t n;
        const wm_export *e = wm_sched_pe_exports(r->s, i, &n);
        int64_t t0, t1;
        if (!export_of(e, n, "t0", &t0) || !export_of(e, n, "t1", &t1)) continue;
        if (count < max) {
            names[count] = wm_sched_pe_instance(r->s, i)->name;
            cycles[count] = t1 - t0;
        }
        count++;
    }
    return count;
}

int64_t wm_runner_last_prefix(const wm_runner *r)
{
    int64_t last = -1;
    for (size_t i = 0; i < wm_sched_pe_count(r->s); i++) {
        size_t n;
        const wm_export *e = wm_sched_pe_exports(r->s, i, &n);
        int64_t t1;
        if (export_of(e, n, "t1", &t1) && t1 > last) last = t1;
    }
    return last;
}

void wm_runner_print_cycles(const wm_runner *r, const char *label, FILE *out)
{
    const size_t n = wm_runner_leaf_cycles(r, NULL, NULL, 0);
    const char **names = calloc(n ? n : 1, sizeof *names);
    int64_t *cycles = calloc(n ? n : 1, sizeof *cycles);
    if (!names || !cycles) {
        free(names);
        free(cycles);
        return;
    }
    wm_runner_leaf_cycles(r, names, cycles, n);
    if (!n) {
        free(names);
        free(cycles);
        return;
    }
    const int width = (int)strlen(label) > 6 ? (int)strlen(label) : 6;
    fprintf(out, "%-*s", width, "leaf");
    for (size_t i = 0; i < n; i++) fprintf(out, " %5s", names[i]);
    fprintf(out, "\n%-*s", width, label);
    for (size_t i = 0; i < n; i++) fprintf(out, " %5" PRId64, cycles[i]);
    fputc('\n', out);
    free(names);
    free(cycles);
}

void wm_runner_print_ends(const wm_runner *r, const char *label, FILE *out)
{
    const size_t n = wm_sched_pe_count(r->s);
    const int width = (int)strlen(label) > 6 ? (int)strlen(label) : 6;
    fprintf(out, "%-*s", width, "pe");
    for (size_t i = 0; i < n; i++) {
        const char *name = wm_sched_pe_instance(r->s, i)->name;
        fprintf(out, " %*s", strlen(name) > 5 ? (int)strlen(name) : 5, name);
    }
    fprintf(out, "\n%-*s", width, label);
    for (size_t i = 0; i < n; i++) {
        const int w = (int)strlen(wm_sched_pe_instance(r->s, i)->name) > 5
                          ? (int)strlen(wm_sched_pe_instance(r->s, i)->name) : 5;
        uint64_t end;
        if (wm_sched_pe_end(r->s, i, &end)) fprintf(out, " %*" PRIu64, w, end);
        else fprintf(out, " %*s", w, "-");
    }
    fputc('\n', out);
}
