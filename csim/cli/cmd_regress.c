/* cmd_regress.c: `wavemesh regress`, the lockstep regression of the sw
 * backend against the rtl backend over the scenario corpus, or over one
 * layout of the user's. */
#include "cli/commands.h"
#include "fabric/fabric.h"
#include "fabric/fabric_sw.h"
#include "regress/layout_regress.h"
#include "regress/regress.h"
#include "run/scheduler.h"

#include <stdio.h>
#include <string.h>

#define LAYOUT_MAX_CYCLES 10000000ull

static void usage(FILE *out)
{
    fprintf(out,
            "usage: wavemesh regress [--quick] [--only TEXT] [--pe native|core] [--list]\n"
            "                        [--perturb SPEC] [--expected BACKEND] [--got BACKEND]\n"
            "       wavemesh regress LAYOUT [--set NAME=VALUE]... [--pe native|core]\n"
            "                        [--max-cycles N] [--perturb SPEC] [--expected B] [--got B]\n"
            "Runs every scenario of the corpus on the expected backend (default rtl)\n"
            "and on the backend under test (default sw), and compares the link-event\n"
            "traces (every wavelet in every output register at every cycle) and the\n"
            "results. One line per scenario; on a mismatch, the first divergence:\n"
            "cycle, tile, port, the expected and the observed wavelet. Ends with\n"
            "'N passed, M failed' and exits non-zero on any failure. Scenarios named\n"
            "core-* run firmware on the PE cores (docs/core.md) and compare every core's\n"
            "retired instructions, register writes, pushes and pops too; a divergence\n"
            "there, or on the links, names the PC and instruction the tile's core\n"
            "retired last on each side.\n"
            "  --quick        only the short scenarios (the ones `make test` runs)\n"
            "  --only TEXT    only the scenarios whose name contains TEXT\n"
            "  --pe MODE      only the scenarios on the PE cores (core) or without (native)\n"
            "  --list         print the scenario names and stop\n"
            "  --perturb SPEC make the sw model deliberately wrong, to see the check fire:\n"
            "                 rr-reverse:X,Y (tile X,Y arbitrates in reverse order) or\n"
            "                 late-grant:X,Y,PORT (its output PORT, N/E/S/W/L, grants a\n"
            "                 header one cycle late), or core-sltu:X,Y, core-div33:X,Y,\n"
            "                 core-rx-late:X,Y (tile X,Y's core simulator: SLTU compares\n"
            "                 signed, DIV takes 33 cycles, an RX load pops a cycle late)\n"
            "A scenario in which an RTL assertion fails, or that runs past its cycle cap\n"
            "(10 x a correct run's cycles, + 10000) on either backend, is reported FAIL with\n"
            "the cycle, and the next one runs; SIGINT or SIGTERM ends the regression after\n"
            "a FAIL line for the scenario it stopped.\n"
            "With LAYOUT, that layout (with its --set overrides) is the one scenario, run\n"
            "in each PE mode given (default both, native then core) and compared the same\n"
            "way: link events, cycles, every PE's state and exports, the cores' retired\n"
            "instructions, the fabric's final state. --max-cycles (default %llu) bounds\n"
            "each run; a run that reaches it on both backends alike still agrees.\n",
            LAYOUT_MAX_CYCLES);
}

enum { LAYOUT_MAX_SETTINGS = 64 };

/* `regress LAYOUT`: one line per PE mode, then the count. */
static int regress_layout(const char *path, const wm_setting *settings, size_t nsettings, int cores_only,
                          unsigned long long max_cycles, const wm_fabric_ops *expected, const wm_fabric_ops *got)
{
    unsigned passed = 0, failed = 0;
    for (int core = 0; core < 2; core++) {
        if (cores_only >= 0 && core != cores_only) continue;
        const wm_layout_regress lr = {path, settings, nsettings, core ? WM_PE_CORE : WM_PE_NATIVE, max_cycles};
        wm_regress_report rep;
        if (!wm_layout_regress_run(&lr, expected, got, &rep)) return 2;
        printf("%s\n", rep.line);
        fflush(stdout);
        if (rep.passed) passed++;
        else failed++;
        if (rep.interrupted) break;
    }
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}

int wm_cmd_regress(int argc, char **argv)
{
    const char *layout = NULL;
    wm_setting settings[LAYOUT_MAX_SETTINGS];
    size_t nsettings = 0;
    unsigned long long max_cycles = LAYOUT_MAX_CYCLES;
    bool quick = false, list = false;
    const char *only = NULL, *expected_name = "rtl", *got_name = "sw";
    wm_sw_perturbation perturbation = {WM_SW_EXACT, 0, 0, 0};
    int cores_only = -1; /* -1: every scenario; 0: native; 1: core */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--quick")) {
            quick = true;
        } else if (!strcmp(a, "--list")) {
            list = true;
        } else if (!strcmp(a, "--only") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(a, "--pe") && i + 1 < argc) {
            wm_pe_mode m;
            if (!wm_pe_mode_parse(argv[++i], &m)) {
                fprintf(stderr, "wavemesh regress: unknown PE mode '%s' (native or core)\n", argv[i]);
                return 2;
            }
            cores_only = m == WM_PE_CORE;
        } else if (!strcmp(a, "--expected") && i + 1 < argc) {
            expected_name = argv[++i];
        } else if (!strcmp(a, "--got") && i + 1 < argc) {
            got_name = argv[++i];
        } else if (!strcmp(a, "--perturb") && i + 1 < argc) {
            char err[200];
            if (!wm_sw_perturbation_parse(argv[++i], &perturbation, err, sizeof err)) {
                fprintf(stderr, "wavemesh regress: %s\n", err);
                return 2;
            }
        } else if (!strcmp(a, "--set") && i + 1 < argc) {
            if (nsettings == LAYOUT_MAX_SETTINGS || !wm_setting_parse(argv[++i], &settings[nsettings])) {
                fprintf(stderr, "wavemesh regress: --set %s: expected NAME=INTEGER (at most %d of them)\n", argv[i],
                        LAYOUT_MAX_SETTINGS);
                return 2;
            }
            nsettings++;
        } else if (!strcmp(a, "--max-cycles") && i + 1 < argc) {
            if (!wm_arg_positive("regress", "--max-cycles", argv[++i], &max_cycles)) return 2;
        } else if (a[0] != '-' && !layout) {
            layout = a;
        } else {
            fprintf(stderr, "wavemesh regress: unknown argument '%s' (see --help)\n", a);
            return 2;
        }
    }
    const wm_fabric_ops *expected = wm_fabric_backend(expected_name);
    const wm_fabric_ops *got = wm_fabric_backend(got_name);
    if (!expected || !got) {
        fprintf(stderr, "wavemesh regress: unknown backend '%s' (rtl or sw)\n", !expected ? expected_name : got_name);
        return 2;
    }
    if (!layout && nsettings) {
        fprintf(stderr, "wavemesh regress: --set needs a LAYOUT (see --help)\n");
        return 2;
    }
    if (layout) {
        if (quick || list || only) {
            fprintf(stderr, "wavemesh regress: --quick, --only and --list select corpus scenarios, not a LAYOUT\n");
            return 2;
        }
        wm_fabric_sw_set_perturbation(perturbation);
        const int rc = regress_layout(layout, settings, nsettings, cores_only, max_cycles, expected, got);
        wm_fabric_sw_set_perturbation((wm_sw_perturbation){WM_SW_EXACT, 0, 0, 0});
        return rc;
    }
    unsigned passed = 0, failed = 0;
    wm_fabric_sw_set_perturbation(perturbation);
    for (const wm_regress_scenario *s = wm_regress_corpus; s->name; s++) {
        if (quick && !s->quick) continue;
        if (only && !strstr(s->name, only)) continue;
        if (cores_only >= 0 && s->cores != (cores_only == 1)) continue;
        if (list) {
            printf("%s %ux%u%s\n", s->name, s->w, s->h, s->quick ? " (quick)" : "");
            continue;
        }
        wm_regress_report rep;
        wm_regress_run(s, expected, got, &rep);
        printf("%s\n", rep.line);
        fflush(stdout);
        if (rep.passed) passed++;
        else failed++;
        /* An RTL assertion or a cap fails its scenario only; a signal
         * stops the regression. */
        if (rep.interrupted) break;
    }
    wm_fabric_sw_set_perturbation((wm_sw_perturbation){WM_SW_EXACT, 0, 0, 0});
    if (list) return 0;
    if (passed + failed == 0) {
        fprintf(stderr, "wavemesh regress: no scenario matches (see --list)\n");
        return 2;
    }
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
