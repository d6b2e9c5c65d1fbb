/* cmd_wavediff.c: `wavemesh wavediff A B`, the first difference between two
 * dumps, e.g. the rtl and sw backends' dumps of one run. */
#include "cli/commands.h"
#include "waves/wavediff.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char about[] =
    "Compares two dumps (FST or VCD) signal by signal over the signals both hold,\n"
    "up to the end of the shorter one, and reports the first difference: the\n"
    "signal, the time (the cycle) and both values. Exit status 0 when they agree,\n"
    "1 when they differ, 2 when a dump cannot be read or they share no signal.\n";

static void print_value(const char *label, bool known, uint64_t v)
{
    if (known) printf("  %s: 0x%" PRIx64 " (%" PRIu64 ")\n", label, v, v);
    else printf("  %s: no value yet\n", label);
}

int wm_cmd_wavediff(int argc, char **argv)
{
    const char *path[2] = {NULL, NULL};
    const wm_option options[] = {
        WM_OPT_POSITIONAL_ROW("A", &path[0], true),
        WM_OPT_POSITIONAL_ROW("B", &path[1], true),
    };
    const wm_opts opts = WM_OPTS("wavediff", options, about, NULL);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    char err[512];
    wm_dump *a = wm_dump_load(path[0], err, sizeof err);
    if (!a) {
        fprintf(stderr, "wavemesh wavediff: %s\n", err);
        return 2;
    }
    wm_dump *b = wm_dump_load(path[1], err, sizeof err);
    if (!b) {
        fprintf(stderr, "wavemesh wavediff: %s\n", err);
        wm_dump_free(a);
        return 2;
    }
    const wm_wavediff_result r = wm_wavediff(a, b);
    status = 0;
    if (!r.common) {
        fprintf(stderr, "wavemesh wavediff: %s and %s share no signal\n", path[0], path[1]);
        status = 2;
    } else if (r.differ) {
        printf("first difference at time %" PRIu64 ": %s\n", r.time, r.signal);
        print_value(path[0], r.a_known, r.a_value);
        print_value(path[1], r.b_known, r.b_value);
        status = 1;
    } else {
        printf("identical: %zu common signals", r.common);
        if (r.only_a || r.only_b) printf(" (%zu only in %s, %zu only in %s)", r.only_a, path[0], r.only_b, path[1]);
        printf("\n");
    }
    wm_dump_free(a);
    wm_dump_free(b);
    return status;
}
