/* cmd_run.c: `wavemesh run LAYOUT`, the kernels of a layout to completion. */
#include "cli/commands.h"
#include "run/runner.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SETTINGS = 64 };
#define DEFAULT_MAX_CYCLES 10000000ull

static void usage(FILE *out)
{
    fprintf(out, "usage: wavemesh run LAYOUT [--backend rtl|sw] [--pe native|core] [--set NAME=VALUE]...\n"
                 "                    [--max-cycles N]\n"
                 "                    [--trace FILE [--trace-tiles X0,Y0:X1,Y1] [--trace-window FROM:TO]]\n"
                 "Runs every kernel of the layout (docs/layouts.md) to completion and prints each\n"
                 "exported result as `instance.symbol = value`, then, for each leaf, the cycles\n"
                 "from its send to the arrival of its prefix. Exits 0 only when every kernel\n"
                 "returned; a deadlock, a stall, a firmware fault or the cycle limit (default\n"
                 "%llu cycles) is reported with the PEs and wavelets involved.\n"
                 "--pe native (the default) runs each kernel as a host coroutine timed by the\n"
                 "cost model of sw/mp.h; --pe core runs its firmware (`make firmware`) on the\n"
                 "tile's RV32IM core (docs/core.md): a faulting core is reported with its PE,\n"
                 "instance, PC and instruction, and the cycle limit names each core's PC.\n",
            DEFAULT_MAX_CYCLES);
    fputs(wm_trace_usage, out);
    fputs("  The dump names each tile after its instance and shows each kernel's state\n"
          "  and exports under <instance>.fw.\n",
          out);
}

int wm_cmd_run(int argc, char **argv)
{
    const char *backend = "rtl", *path = NULL;
    wm_setting settings[MAX_SETTINGS];
    size_t nsettings = 0;
    unsigned long long max_cycles = DEFAULT_MAX_CYCLES;
    wm_trace_spec trace = wm_trace_spec_default();
    wm_pe_mode mode = WM_PE_NATIVE;
    for (int i = 1; i < argc; i++) {
        const int traced = wm_trace_option(&trace, argc, argv, &i, "run");
        if (traced < 0) return 2;
        if (traced) continue;
        if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
            backend = argv[++i];
        } else if (!strcmp(argv[i], "--pe") && i + 1 < argc) {
            if (!wm_pe_mode_parse(argv[++i], &mode)) {
                fprintf(stderr, "wavemesh run: unknown PE mode '%s' (native or core)\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--set") && i + 1 < argc) {
            const char *text = argv[++i];
            if (nsettings == MAX_SETTINGS) {
                fprintf(stderr, "wavemesh run: --set %s: too many --set options (at most %d)\n", text, MAX_SETTINGS);
                return 2;
            }
            if (!wm_setting_parse(argv[i], &settings[nsettings])) {
                fprintf(stderr, "wavemesh run: --set %s: expected NAME=INTEGER, the integer in %lld..%lld\n", text,
                        (long long)INT64_MIN, (long long)INT64_MAX);
                return 2;
            }
            nsettings++;
        } else if (!strcmp(argv[i], "--max-cycles") && i + 1 < argc) {
            unsigned long long v;
            if (!wm_arg_positive("run", "--max-cycles", argv[++i], &v)) return 2;
            max_cycles = v;
        } else if (argv[i][0] != '-' && !path) {
            path = argv[i];
        } else {
            fprintf(stderr, "wavemesh run: unexpected argument '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    if (!path) {
        usage(stderr);
        return 2;
    }
    if (!wm_trace_spec_check(&trace, "run")) return 2;
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    if (!ops) {
        fprintf(stderr, "wavemesh run: unknown backend '%s' (rtl or sw)\n", backend);
        return 2;
    }
    wm_layout *layout = wm_layout_load(path, settings, nsettings, stderr);
    if (!layout) return 1;
    wm_runner *r = wm_runner_create_mode(ops, layout, &trace, mode);
    if (!r) {
        wm_layout_destroy(layout);
        return 1;
    }
    const wm_run_result res = wm_runner_run(r, max_cycles);
    wm_runner_print_results(r, stdout);
    wm_runner_print_cycles(r, "cycles", stdout);
    wm_sched_report(wm_runner_sched(r), res, stderr);
    const bool delivered = res != WM_RUN_DONE || wm_sched_check_delivered(wm_runner_sched(r), stderr);
    const bool dumped = wm_runner_finish(r);
    if (trace.path && dumped)
        printf("waves: %s (open with: gtkwave -a %.*s.gtkw %s)\n", trace.path, (int)(strlen(trace.path) - 4),
               trace.path, trace.path);
    wm_runner_destroy(r);
    wm_layout_destroy(layout);
    return res == WM_RUN_DONE && delivered && dumped ? 0 : 1;
}
