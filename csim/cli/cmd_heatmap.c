/* cmd_heatmap.c: `wavemesh heatmap LAYOUT`, a picture of which links carry
 * a run's traffic, one PNG per phase (csim/run/heatmap.h). */
#include "cli/commands.h"
#include "run/heatmap.h"
#include "run/runner.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char about[] =
    "Runs the layout and draws, for each phase of the run, PREFIX-PHASE.png:\n"
    "four panels, one per direction (wavelets leaving each tile northwards,\n"
    "eastwards, southwards, westwards), one cell per tile, in wavelets; and\n"
    "prints each phase's wavelets per direction and its busiest link.\n"
    "The phases: the up-sweep (every wavelet up to the last one delivered to\n"
    "the PE of INSTANCE, by default `root` when the layout has one) and the\n"
    "down-sweep (the rest); --split none, or no root: one phase, PREFIX-run.png.\n"
    "Drawn by gnuplot (`make deps` installs gnuplot-nox). Exits non-zero when\n"
    "the run does not finish or a picture cannot be written (every phase's\n"
    "line is printed all the same).\n";

/* The pictures -o PREFIX names, one a phase (run/heatmap.h): compared with
 * the layout before the run. */
static bool pictures(const char *prefix, size_t k, char *name, size_t size)
{
    static const char *const phases[] = {"upsweep", "downsweep", "run"};
    return k < sizeof phases / sizeof phases[0] && snprintf(name, size, "%s-%s.png", prefix, phases[k]) >= 0;
}

static void print_phase(const wm_heatmap *m, size_t phase, unsigned w, unsigned h)
{
    static const char *const names[4] = {"north", "east", "south", "west"};
    uint64_t total[4] = {0, 0, 0, 0}, best = 0;
    unsigned bx = 0, by = 0;
    int bd = 0;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            for (int d = 0; d < 4; d++) {
                const uint64_t c = wm_heatmap_count(m, phase, x, y, (wm_port)d);
                total[d] += c;
                if (c > best) best = c, bx = x, by = y, bd = d;
            }
    printf("%-9s (to cycle %" PRIu64 "): wavelets north %" PRIu64 ", east %" PRIu64 ", south %" PRIu64
           ", west %" PRIu64,
           wm_heatmap_phase_name(m, phase), wm_heatmap_phase_end(m, phase), total[0], total[1], total[2], total[3]);
    if (best) printf("; busiest link (%u,%u) %s, %" PRIu64 " wavelets", bx, by, names[bd], best);
    printf("\n");
}

int wm_cmd_heatmap(int argc, char **argv)
{
    const char *backend = "rtl", *path = NULL, *prefix = NULL, *split = NULL, *pe = "native";
    wm_setting settings[WM_MAX_SETTINGS];
    size_t nsettings = 0;
    unsigned long long max_cycles = WM_MAX_CYCLES_DEFAULT;
    const wm_option options[] = {
        WM_OPT_POSITIONAL_ROW("LAYOUT", &path, true),
        {"-o", "PREFIX", WM_OPT_STRING, .to.str = &prefix, .required = true, .path = WM_PATH_OUT, .writes = pictures,
         .help = "the pictures' path prefix"},
        WM_OPT_CHOICE_ROW("--backend", &backend, wm_backend_words, "the fabric model (default rtl)"),
        WM_OPT_CHOICE_ROW("--pe", &pe, wm_pe_words, "where each kernel runs (default native)"),
        WM_OPT_SETTINGS_ROW(settings, WM_MAX_SETTINGS, &nsettings, "override a parameter of the layout"),
        WM_OPT_STRING_ROW("--split", "INSTANCE|none", &split, "the instance whose last receive ends the up-sweep"),
        WM_OPT_MAX_CYCLES_ROW(&max_cycles),
    };
    const wm_opts opts = WM_OPTS("heatmap", options, about, NULL);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    const wm_pe_mode mode = wm_pe_mode_of(pe);
    wm_layout *layout = wm_layout_load(path, settings, nsettings, stderr);
    if (!layout) return 1;
    const wm_instance *root = NULL;
    if (split && strcmp(split, "none")) {
        root = wm_layout_find(layout, split);
        if (!root) {
            fprintf(stderr, "wavemesh heatmap: --split %s: the layout has no instance %s\n", split, split);
            wm_layout_destroy(layout);
            return 2;
        }
    } else if (!split) {
        root = wm_layout_find(layout, "root");
    }
    const unsigned w = wm_layout_width(layout), h = wm_layout_height(layout);
    wm_heatmap *m = wm_heatmap_create(w, h, root != NULL, root ? root->x : 0, root ? root->y : 0);
    wm_runner *r = m ? wm_runner_create_mode(ops, layout, NULL, mode) : NULL;
    if (!r) {
        wm_heatmap_destroy(m);
        wm_layout_destroy(layout);
        return 1;
    }
    ops->set_link_hook(wm_runner_fabric(r), wm_heatmap_record, m);
    const wm_run_result res = wm_runner_run(r, max_cycles);
    status = 0;
    if (res != WM_RUN_DONE) {
        wm_sched_report(wm_runner_sched(r), res, stderr);
        status = 1;
    } else {
        wm_heatmap_finish(m);
        /* every phase's line is printed; after a picture fails (gnuplot
         * missing), no other is tried */
        bool drawing = true;
        for (size_t p = 0; p < wm_heatmap_phases(m); p++) {
            char png[4096], title[600], err[300];
            snprintf(png, sizeof png, "%s-%s.png", prefix, wm_heatmap_phase_name(m, p));
            snprintf(title, sizeof title, "%s: %s, %s backend, --pe %s (wavelets per link)", path,
                     wm_heatmap_phase_name(m, p), ops->name, wm_pe_mode_name(mode));
            print_phase(m, p, w, h);
            if (!drawing) continue;
            if (!wm_heatmap_plot(m, p, title, png, err, sizeof err)) {
                fprintf(stderr, "wavemesh heatmap: %s\n", err);
                status = 1;
                drawing = false;
                continue;
            }
            printf("heatmap: %s\n", png);
        }
    }
    wm_runner_destroy(r);
    wm_heatmap_destroy(m);
    wm_layout_destroy(layout);
    return status;
}
