/* cmd_heatmap.c: `wavemesh heatmap LAYOUT`, a picture of which links carry
 * a run's traffic, one PNG per phase (csim/run/heatmap.h). */
#include "cli/commands.h"
#include "run/heatmap.h"
#include "run/runner.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SETTINGS = 64 };
#define DEFAULT_MAX_CYCLES 10000000ull

static void usage(FILE *out)
{
    fprintf(out,
            "usage: wavemesh heatmap LAYOUT -o PREFIX [--backend rtl|sw] [--pe native|core]\n"
            "                        [--set NAME=VALUE]... [--split INSTANCE|none] [--max-cycles N]\n"
            "Runs the layout and draws, for each phase of the run, PREFIX-PHASE.png:\n"
            "four panels, one per direction (wavelets leaving each tile northwards,\n"
            "eastwards, southwards, westwards), one cell per tile, in wavelets; and\n"
            "prints each phase's wavelets per direction and its busiest link.\n"
            "The phases: the up-sweep (every wavelet up to the last one delivered to\n"
            "the PE of INSTANCE, by default `root` when the layout has one) and the\n"
            "down-sweep (the rest); --split none, or no root: one phase, PREFIX-run.png.\n"
            "Drawn by gnuplot (`make deps` installs gnuplot-nox). Exits non-zero when\n"
            "the run does not finish (default limit %llu cycles) or a picture cannot\n"
            "be written.\n",
            DEFAULT_MAX_CYCLES);
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
    const char *backend = "rtl", *path = NULL, *prefix = NULL, *split = NULL;
    wm_setting settings[MAX_SETTINGS];
    size_t nsettings = 0;
    unsigned long long max_cycles = DEFAULT_MAX_CYCLES;
    wm_pe_mode mode = WM_PE_NATIVE;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
            backend = argv[++i];
        } else if (!strcmp(argv[i], "--pe") && i + 1 < argc) {
            if (!wm_pe_mode_parse(argv[++i], &mode)) {
                fprintf(stderr, "wavemesh heatmap: unknown PE mode '%s' (native or core)\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--set") && i + 1 < argc) {
            if (nsettings == MAX_SETTINGS || !wm_setting_parse(argv[++i], &settings[nsettings])) {
                fprintf(stderr, "wavemesh heatmap: --set %s: expected NAME=INTEGER (at most %d of them)\n", argv[i],
                        MAX_SETTINGS);
                return 2;
            }
            nsettings++;
        } else if (!strcmp(argv[i], "--split") && i + 1 < argc) {
            split = argv[++i];
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            prefix = argv[++i];
        } else if (!strcmp(argv[i], "--max-cycles") && i + 1 < argc) {
            if (!wm_arg_positive("heatmap", "--max-cycles", argv[++i], &max_cycles)) return 2;
        } else if (argv[i][0] != '-' && !path) {
            path = argv[i];
        } else {
            fprintf(stderr, "wavemesh heatmap: unexpected argument '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    if (!path || !prefix) {
        usage(stderr);
        return 2;
    }
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    if (!ops) {
        fprintf(stderr, "wavemesh heatmap: unknown backend '%s' (rtl or sw)\n", backend);
        return 2;
    }
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
    int status = 0;
    if (res != WM_RUN_DONE) {
        wm_sched_report(wm_runner_sched(r), res, stderr);
        status = 1;
    } else {
        wm_heatmap_finish(m);
        for (size_t p = 0; p < wm_heatmap_phases(m); p++) {
            char png[4096], title[600], err[300];
            snprintf(png, sizeof png, "%s-%s.png", prefix, wm_heatmap_phase_name(m, p));
            snprintf(title, sizeof title, "%s: %s, %s backend, --pe %s (wavelets per link)", path,
                     wm_heatmap_phase_name(m, p), ops->name, wm_pe_mode_name(mode));
            print_phase(m, p, w, h);
            if (!wm_heatmap_plot(m, p, title, png, err, sizeof err)) {
                fprintf(stderr, "wavemesh heatmap: %s\n", err);
                status = 1;
                break;
            }
            printf("heatmap: %s\n", png);
        }
    }
    wm_runner_destroy(r);
    wm_heatmap_destroy(m);
    wm_layout_destroy(layout);
    return status;
}
