/* cmd_regress.c: `wavemesh regress`, the lockstep regression of the sw
 * backend against the rtl backend over the scenario corpus, or over one
 * layout of the user's. */
#include "cli/commands.h"
#include "core/datadir.h"
#include "fabric/fabric.h"
#include "fabric/fabric_sw.h"
#include "regress/layout_regress.h"
#include "regress/random_campaign.h"
#include "regress/regress.h"
#include "run/scheduler.h"
#include "waves/outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char about[] =
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
    "A scenario in which an RTL assertion fails, or that runs past its cycle cap\n"
    "(10 x a correct run's cycles, + 10000) on either backend, is reported FAIL with\n"
    "the cycle, and the next one runs; SIGINT or SIGTERM ends the regression after\n"
    "a FAIL line for the scenario it stopped.\n"
    "With LAYOUT, that layout (with its --set overrides) is the one scenario, run\n"
    "in each PE mode given (default both, native then core) and compared the same\n"
    "way: link events, cycles, every PE's state and exports, the cores' retired\n"
    "instructions, the fabric's final state. --max-cycles bounds each run.\n"
    "Agreement is not enough: a scenario whose run ends in a deadlock, a stall,\n"
    "a firmware fault, the cycle limit or with a message left unread FAILs even\n"
    "when both backends agree, with the report `run` prints under its line,\n"
    "unless its layout says it is meant to end that way (`expect deadlock`,\n"
    "docs/layouts.md).\n";

/* --perturb SPEC: the sw model made deliberately wrong (fabric_sw.h), and
 * the text, which the random campaign's commands repeat. */
typedef struct {
    wm_sw_perturbation p;
    const char *text;
} perturb_option;

static bool perturbation_parse(const char *text, void *to)
{
    perturb_option *o = to;
    char err[200];
    o->text = text;
    return wm_sw_perturbation_parse(text, &o->p, err, sizeof err);
}

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
        printf("%s\n%s", rep.line, rep.detail);
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
    unsigned long long random, seed, first, jobs, max_side, max_core_side, shrink_runs;
    bool have_random, progress;
    const char *scenario, *log, *perturb;
} random_options;

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
    wm_setting settings[WM_MAX_SETTINGS];
    size_t nsettings = 0;
    unsigned long long max_cycles = WM_MAX_CYCLES_DEFAULT;
    bool quick = false, list = false, pe_given = false;
    const char *only = NULL, *expected_name = "rtl", *got_name = "sw", *pe = "native";
    perturb_option perturb = {{WM_SW_EXACT, 0, 0, 0}, NULL};
    random_options ro = {0, 1, 0, 1, WM_RANDOM_SIDE_MAX, 6, 200, false, false, NULL, NULL, NULL};
    const wm_option options[] = {
        WM_OPT_POSITIONAL_ROW("LAYOUT", &layout, false),
        WM_OPT_FLAG_ROW("--quick", &quick, "only the short scenarios (the ones `make test` runs)"),
        WM_OPT_STRING_ROW("--only", "TEXT", &only, "only the scenarios whose name contains TEXT"),
        {"--pe", NULL, WM_OPT_CHOICE, .to.word = &pe, .words = wm_pe_words, .given = &pe_given,
         .help = "only the scenarios on the PE cores (core) or without (native)"},
        WM_OPT_FLAG_ROW("--list", &list, "print the scenario names and stop"),
        {"--perturb", "SPEC", WM_OPT_CUSTOM, .to.custom = &perturb, .parse = perturbation_parse,
         .expected = "rr-reverse:X,Y, late-grant:X,Y,PORT (PORT N/E/S/W/L), core-sltu:X,Y, core-div33:X,Y or "
                     "core-rx-late:X,Y, each X,Y in 0..255",
         .help = "make the sw model deliberately wrong, to see the check fire: rr-reverse:X,Y (tile X,Y "
                 "arbitrates in reverse order) or late-grant:X,Y,PORT (its output PORT, N/E/S/W/L, grants a "
                 "header one cycle late), or core-sltu:X,Y, core-div33:X,Y, core-rx-late:X,Y (tile X,Y's core "
                 "simulator: SLTU compares signed, DIV takes 33 cycles, an RX load pops a cycle late)"},
        WM_OPT_CHOICE_ROW("--expected", &expected_name, wm_backend_words, "the reference backend (default rtl)"),
        WM_OPT_CHOICE_ROW("--got", &got_name, wm_backend_words, "the backend under test (default sw)"),
        WM_OPT_SETTINGS_ROW(settings, WM_MAX_SETTINGS, &nsettings, "with LAYOUT: override a parameter of it"),
        WM_OPT_MAX_CYCLES_ROW(&max_cycles),
        WM_OPT_HEADING_ROW("Constrained-random lockstep (docs/verification.md):"),
        {"--random", "N", WM_OPT_U64, .to.u = &ro.random, .umin = 1, .umax = UINT64_MAX / 2,
         .given = &ro.have_random,
         .help = "N scenarios drawn from the seed instead of the corpus: a mesh of 1x1..32x32 (1xN, Nx1 too), a "
                 "traffic pattern, a rate, message lengths 1..256, slow-popping PEs, off-mesh headers, routers "
                 "disabled or toggled; or (one in eight, or all with --pe core) random firmware traffic on the PE "
                 "cores. Each line ends with the command that runs that scenario alone; a failing one is shrunk "
                 "(smaller mesh, fewer cycles, fewer messages) to the smallest version that still fails, and its "
                 "command printed"},
        WM_OPT_U64_ROW("--seed", "S", &ro.seed, 0, UINT64_MAX, "the campaign's seed (default 1)"),
        WM_OPT_U64_ROW("--first", "K", &ro.first, 0, UINT64_MAX / 2,
                       "start at scenario K of the seed (default 0): pieces of one campaign run anywhere"),
        WM_OPT_U64_ROW("--jobs", "J", &ro.jobs, 1, 256,
                       "J scenarios at a time, each in a process of its own (default 1: one after the other in "
                       "this process)"),
        WM_OPT_U64_ROW("--max-side", "N", &ro.max_side, 1, WM_RANDOM_SIDE_MAX, "mesh sides 1..N (default 32)"),
        WM_OPT_U64_ROW("--max-core-side", "N", &ro.max_core_side, 1, WM_RANDOM_SIDE_MAX,
                       "the same on the cores (default 6)"),
        WM_OPT_U64_ROW("--shrink-runs", "N", &ro.shrink_runs, 0, 100000,
                       "versions a failure's shrinking may try (default 200; 0: no shrinking)"),
        WM_OPT_STRING_ROW("--log", "FILE", &ro.log,
                          "every scenario's line to FILE; failures, progress and the summary on the terminal"),
        WM_OPT_FLAG_ROW("--progress", &ro.progress, "a progress line on stderr (scenarios done, failed, per minute)"),
        WM_OPT_STRING_ROW("--scenario", "TEXT", &ro.scenario,
                          "run one scenario from its text (as the lines print it), and shrink it if it fails"),
    };
    const wm_opts opts = WM_OPTS("regress", options, about, NULL);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    /* -1: every scenario; 0: native; 1: core */
    const int cores_only = pe_given ? wm_pe_mode_of(pe) == WM_PE_CORE : -1;
    const wm_sw_perturbation perturbation = perturb.p;
    ro.perturb = perturb.text;
    const wm_fabric_ops *expected = wm_fabric_backend(expected_name);
    const wm_fabric_ops *got = wm_fabric_backend(got_name);
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
        status = run_random(&ro, cores_only, expected_name, got_name, expected, got);
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
        printf("%s\n%s", rep.line, rep.detail);
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
    /* each line's command names the binary as it was invoked */
    char command[4200];
    snprintf(command, sizeof command, "%s regress", wm_self_name());
    wm_random_campaign c = {
        .count = o->random,
        .seed = o->seed,
        .first = o->first,
        .jobs = (unsigned)o->jobs,
        .limits = {(unsigned)o->max_side, (unsigned)o->max_core_side, cores_only},
        .expected = expected,
        .got = got,
        .command = command,
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
    /* the log through the one output routine (waves/outfile.h) */
    wm_outfile *log = NULL;
    char err[4400];
    if (o->log) {
        log = wm_outfile_begin(o->log, true, err, sizeof err);
        if (!log) {
            fprintf(stderr, "wavemesh regress: --log: %s\n", err);
            return 2;
        }
        c.out = wm_outfile_stream(log);
        c.failures = stdout;
    }
    wm_random_summary sum;
    const int status = wm_random_campaign_run(&c, &sum);
    if (log && !wm_outfile_commit(log, err, sizeof err)) {
        fprintf(stderr, "wavemesh regress: --log: %s\n", err);
        return 2;
    }
    return status;
}
