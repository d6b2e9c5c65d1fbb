/* cmd_regress.c: `wavemesh regress`, the lockstep regression of the sw
 * backend against the rtl backend over the scenario corpus, or over one
 * layout of the user's. */
#include "cli/commands.h"
#include "fabric/fabric.h"
#include "fabric/fabric_sw.h"
#include "regress/layout_regress.h"
#include "regress/random_campaign.h"
#include "regress/regress.h"
#include "run/scheduler.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAYOUT_MAX_CYCLES 10000000ull

static void usage(FILE *out)
{
    fprintf(out,
            "usage: wavemesh regress [--quick] [--only TEXT] [--pe native|core] [--list]\n"
            "                        [--perturb SPEC] [--expected BACKEND] [--got BACKEND]\n"
            "       wavemesh regress LAYOUT [--set NAME=VALUE]... [--pe native|core]\n"
            "                        [--max-cycles N] [--perturb SPEC] [--expected B] [--got B]\n"
            "       wavemesh regress --random N [--seed S] [--first K] [--jobs J] [--pe native|core]\n"
            "                        [--max-side N] [--max-core-side N] [--shrink-runs N] [--log FILE]\n"
            "                        [--progress] [--perturb SPEC] [--expected BACKEND] [--got BACKEND]\n"
            "       wavemesh regress --scenario TEXT [--shrink-runs N] [--perturb SPEC] ...\n"
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
            "Constrained-random lockstep (docs/verification.md):\n"
            "  --random N       N scenarios drawn from the seed instead of the corpus: a mesh\n"
            "                   of 1x1..32x32 (1xN, Nx1 too), a traffic pattern, a rate, message\n"
            "                   lengths 1..256, slow-popping PEs, off-mesh headers, routers\n"
            "                   disabled or toggled; or (one in eight, or all with --pe core)\n"
            "                   random firmware traffic on the PE cores. Each line ends with\n"
            "                   the command that runs that scenario alone; a failing one is\n"
            "                   shrunk (smaller mesh, fewer cycles, fewer messages) to the\n"
            "                   smallest version that still fails, and its command printed\n"
            "  --seed S         the campaign's seed, 0..2^64-1 (default 1)\n"
            "  --first K        start at scenario K of the seed (default 0): pieces of one\n"
            "                   campaign run anywhere\n"
            "  --jobs J         J scenarios at a time, each in a process of its own, 1..256\n"
            "                   (default 1: one after the other in this process)\n"
            "  --max-side N     mesh sides 1..N, N in 1..32 (default 32)\n"
            "  --max-core-side N  the same on the cores, 1..32 (default 6)\n"
            "  --shrink-runs N  versions a failure's shrinking may try, 0..100000 (default 200;\n"
            "                   0: no shrinking)\n"
            "  --log FILE       every scenario's line to FILE; failures, progress and the\n"
            "                   summary on the terminal\n"
            "  --progress       a progress line on stderr (scenarios done, failed, per minute)\n"
            "  --scenario TEXT  run one scenario from its text (as the lines print it), and\n"
            "                   shrink it if it fails\n"
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

/* The options of a random campaign (--random or --scenario). */
typedef struct {
    uint64_t random, seed, first, jobs, max_side, max_core_side, shrink_runs;
    bool have_random, progress;
    const char *scenario, *log, *perturb;
} random_options;

/* "--name VALUE": VALUE an integer in lo..hi (wm_arg_u64), else a message
 * naming the option and its range. */
static bool option_number(const char *name, const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
    unsigned long long x;
    if (!wm_arg_u64("regress", name, v, lo, hi, &x)) return false;
    *out = x;
    return true;
}

static int run_random(const random_options *o, int cores_only, const char *expected_name, const char *got_name,
                      const wm_fabric_ops *expected, const wm_fabric_ops *got);

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
    const char *layout = NULL;
    wm_setting settings[LAYOUT_MAX_SETTINGS];
    size_t nsettings = 0;
    unsigned long long max_cycles = LAYOUT_MAX_CYCLES;
    bool quick = false, list = false;
    const char *only = NULL, *expected_name = "rtl", *got_name = "sw";
    wm_sw_perturbation perturbation = {WM_SW_EXACT, 0, 0, 0};
    int cores_only = -1; /* -1: every scenario; 0: native; 1: core */
    random_options ro = {0, 1, 0, 1, WM_RANDOM_SIDE_MAX, 6, 200, false, false, NULL, NULL, NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const bool has_value = i + 1 < argc;
        if (!strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--random") && has_value) {
            if (!option_number(a, argv[++i], 1, UINT64_MAX / 2, &ro.random)) return 2;
            ro.have_random = true;
        } else if (!strcmp(a, "--seed") && has_value) {
            if (!option_number(a, argv[++i], 0, UINT64_MAX, &ro.seed)) return 2;
        } else if (!strcmp(a, "--first") && has_value) {
            if (!option_number(a, argv[++i], 0, UINT64_MAX / 2, &ro.first)) return 2;
        } else if (!strcmp(a, "--jobs") && has_value) {
            if (!option_number(a, argv[++i], 1, 256, &ro.jobs)) return 2;
        } else if (!strcmp(a, "--max-side") && has_value) {
            if (!option_number(a, argv[++i], 1, WM_RANDOM_SIDE_MAX, &ro.max_side)) return 2;
        } else if (!strcmp(a, "--max-core-side") && has_value) {
            if (!option_number(a, argv[++i], 1, WM_RANDOM_SIDE_MAX, &ro.max_core_side)) return 2;
        } else if (!strcmp(a, "--shrink-runs") && has_value) {
            if (!option_number(a, argv[++i], 0, 100000, &ro.shrink_runs)) return 2;
        } else if (!strcmp(a, "--log") && has_value) {
            ro.log = argv[++i];
        } else if (!strcmp(a, "--progress")) {
            ro.progress = true;
        } else if (!strcmp(a, "--scenario") && has_value) {
            ro.scenario = argv[++i];
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
            ro.perturb = argv[i];
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
    /* The perturbation goes with the backends, given to every sw fabric
     * they make (the rtl ones ignore it). */
    const wm_fabric_config fabric_cfg = {.perturbation = perturbation};
    wm_fabric_ops expected_ops = *expected, got_ops = *got;
    expected_ops.config = got_ops.config = &fabric_cfg;
    expected = &expected_ops;
    got = &got_ops;
    if (!layout && nsettings) {
        fprintf(stderr, "wavemesh regress: --set needs a LAYOUT (see --help)\n");
        return 2;
    }
    if (layout) {
        if (quick || list || only || ro.have_random || ro.scenario) {
            fprintf(stderr, "wavemesh regress: --quick, --only, --list, --random and --scenario select corpus or "
                            "random scenarios, not a LAYOUT\n");
            return 2;
        }
        const int rc = regress_layout(layout, settings, nsettings, cores_only, max_cycles, expected, got);
        return rc;
    }
    if (ro.have_random || ro.scenario) {
        if (ro.have_random && ro.scenario) {
            fprintf(stderr, "wavemesh regress: --random and --scenario exclude each other\n");
            return 2;
        }
        if (quick || list || only) {
            fprintf(stderr, "wavemesh regress: --quick, --only and --list select from the corpus, not with %s\n",
                    ro.scenario ? "--scenario" : "--random");
            return 2;
        }
        const int status = run_random(&ro, cores_only, expected_name, got_name, expected, got);
        return status;
    }
    if (perturbation.kind != WM_SW_EXACT && !list && !perturbation_lands(&perturbation, quick, only, cores_only))
        return 2;
    unsigned passed = 0, failed = 0;
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
    if (list) return 0;
    if (passed + failed == 0) {
        fprintf(stderr, "wavemesh regress: no scenario matches (see --list)\n");
        return 2;
    }
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}

/* --random N or --scenario TEXT: the campaign of random_campaign.h, each
 * line's command carrying the options that change what it checks. */
static int run_random(const random_options *o, int cores_only, const char *expected_name, const char *got_name,
                      const wm_fabric_ops *expected, const wm_fabric_ops *got)
{
    char extra[300] = "";
    size_t n = 0;
    if (o->perturb) n += (size_t)snprintf(extra + n, sizeof extra - n, " --perturb %s", o->perturb);
    if (strcmp(expected_name, "rtl") && n < sizeof extra)
        n += (size_t)snprintf(extra + n, sizeof extra - n, " --expected %s", expected_name);
    if (strcmp(got_name, "sw") && n < sizeof extra) snprintf(extra + n, sizeof extra - n, " --got %s", got_name);
    wm_random_campaign c = {
        .count = o->random,
        .seed = o->seed,
        .first = o->first,
        .jobs = (unsigned)o->jobs,
        .limits = {(unsigned)o->max_side, (unsigned)o->max_core_side, cores_only},
        .expected = expected,
        .got = got,
        .command = "build/wavemesh regress",
        .extra_args = extra,
        .shrink_runs = (unsigned)o->shrink_runs,
        .out = stdout,
        .failures = NULL,
        .progress = o->progress,
    };
    if (o->scenario) {
        wm_random_scenario rs;
        char err[300];
        if (!wm_random_parse(o->scenario, &rs, err, sizeof err)) {
            fprintf(stderr, "wavemesh regress: --scenario: %s\n", err);
            return 2;
        }
        bool interrupted;
        uint64_t router_cycles;
        return wm_random_run_scenario(&c, &rs, "scenario", stdout, &interrupted, &router_cycles) ? 0 : 1;
    }
    FILE *log = NULL;
    if (o->log) {
        log = fopen(o->log, "w");
        if (!log) {
            fprintf(stderr, "wavemesh regress: --log %s: cannot write it: %s\n", o->log, strerror(errno));
            return 2;
        }
        c.out = log;
        c.failures = stdout;
    }
    wm_random_summary sum;
    const int status = wm_random_campaign_run(&c, &sum);
    if (log && fclose(log)) {
        fprintf(stderr, "wavemesh regress: --log %s: %s\n", o->log, strerror(errno));
        return 2;
    }
    return status;
}
