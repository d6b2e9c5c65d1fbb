/* cmd_regress.c: `wavemesh regress`, the lockstep regression of the sw
 * backend against the rtl backend over the scenario corpus. */
#include "cli/commands.h"
#include "fabric/fabric.h"
#include "fabric/fabric_sw.h"
#include "regress/regress.h"
#include "run/scheduler.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: wavemesh regress [--quick] [--only TEXT] [--pe native|core] [--list]\n"
            "                        [--perturb SPEC] [--expected BACKEND] [--got BACKEND]\n"
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
            "a FAIL line for the scenario it stopped.\n");
}

/* A perturbed tile must lie on the mesh of a scenario that runs, or the
 * check it exercises would pass without having seen the fault. */
static bool perturbation_lands(const wm_sw_perturbation *p, bool quick, const char *only, int cores_only)
{
    unsigned w = 0, h = 0;
    for (const wm_regress_scenario *s = wm_regress_corpus; s->name; s++) {
        if ((quick && !s->quick) || (only && !strstr(s->name, only)) ||
            (cores_only >= 0 && s->cores != (cores_only == 1)))
            continue;
        if (p->x < s->w && p->y < s->h) return true;
        if (s->w * s->h > w * h) w = s->w, h = s->h;
    }
    fprintf(stderr, "wavemesh regress: --perturb: tile (%u,%u) is off the mesh of every scenario selected", p->x, p->y);
    if (w) fprintf(stderr, " (the largest is %ux%u: tiles 0,0..%u,%u)", w, h, w - 1, h - 1);
    fputc('\n', stderr);
    return false;
}

int wm_cmd_regress(int argc, char **argv)
{
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
    if (perturbation.kind != WM_SW_EXACT && !list && !perturbation_lands(&perturbation, quick, only, cores_only))
        return 2;
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
