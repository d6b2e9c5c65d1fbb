/* cmd_wavediff.c: `wavemesh wavediff A B [B...]`, the first difference
 * between two dumps, e.g. the rtl and sw backends' dumps of one run, or
 * between one process's dump and the dumps of a partitioned run's ranks. */
#include "cli/commands.h"
#include "waves/wavediff.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char about[] =
    "Compares two dumps (FST or VCD) signal by signal over the signals both hold,\n"
    "up to the end of the shorter one, and reports the first difference: the\n"
    "signal, the time (the cycle) and both values. Exit status 0 when they agree,\n"
    "1 when they differ, 2 when a dump cannot be read or they share no signal.\n"
    "Several B are one side in parts, e.g. the dumps FILE-rank0.fst ... of a run\n"
    "under mpirun with --trace FILE.fst (docs/distributed.md): every signal of A\n"
    "must be in exactly one of them, with the same value changes; a signal of A\n"
    "in none of them, or in two, is a difference too (exit 1).\n";

enum { MAX_PARTS = 4096 };

static void print_value(const char *label, bool known, uint64_t v)
{
    if (known) printf("  %s: 0x%" PRIx64 " (%" PRIu64 ")\n", label, v, v);
    else printf("  %s: no value yet\n", label);
}

/* What the comparison found; the exit status. */
static int report(const wm_wavediff_result *r, const char *a, const char *const *b, size_t nb)
{
    if (!r->common) {
        if (nb == 1) fprintf(stderr, "wavemesh wavediff: %s and %s share no signal\n", a, b[0]);
        else fprintf(stderr, "wavemesh wavediff: %s shares no signal with any of the %zu dumps after it\n", a, nb);
        return 2;
    }
    if (nb > 1 && r->twice) {
        printf("%s is in two of the parts: %s and %s\n", r->twice, b[r->twice_parts[0]], b[r->twice_parts[1]]);
        return 1;
    }
    if (nb > 1 && r->missing) {
        printf("%s (of %s) is in none of the %zu parts", r->missing, a, nb);
        if (r->only_a > 1) printf(" (nor are %zu more of its signals)", r->only_a - 1);
        printf("\n");
        return 1;
    }
    if (r->differ) {
        printf("first difference at time %" PRIu64 ": %s\n", r->time, r->signal);
        print_value(a, r->a_known, r->a_value);
        print_value(b[r->part], r->b_known, r->b_value);
        return 1;
    }
    printf("identical: %zu common signals", r->common);
    if (nb > 1) {
        printf(" in %zu parts", nb);
        if (r->only_b) printf(" (%zu only in the parts)", r->only_b);
    } else if (r->only_a || r->only_b) {
        printf(" (%zu only in %s, %zu only in %s)", r->only_a, a, r->only_b, b[0]);
    }
    printf("\n");
    return 0;
}

int wm_cmd_wavediff(int argc, char **argv)
{
    const char *a_path = NULL;
    const char *b_paths[MAX_PARTS];
    size_t nb = 0;
    const wm_option options[] = {
        WM_OPT_POSITIONAL_ROW("A", &a_path, true),
        {"B", NULL, WM_OPT_POSITIONAL, .to.str = b_paths, .max_count = MAX_PARTS, .count = &nb, .required = true,
         .path = WM_PATH_IN},
    };
    const wm_opts opts = WM_OPTS("wavediff", options, about, NULL);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    char err[512];
    wm_dump *a = wm_dump_load(a_path, err, sizeof err);
    if (!a) {
        fprintf(stderr, "wavemesh wavediff: %s\n", err);
        return 2;
    }
    wm_dump *b[MAX_PARTS];
    for (size_t k = 0; k < nb; k++) {
        b[k] = wm_dump_load(b_paths[k], err, sizeof err);
        if (!b[k]) {
            fprintf(stderr, "wavemesh wavediff: %s\n", err);
            while (k--) wm_dump_free(b[k]);
            wm_dump_free(a);
            return 2;
        }
    }
    const wm_wavediff_result r = wm_wavediff_parts(a, (const wm_dump *const *)b, nb);
    status = report(&r, a_path, b_paths, nb);
    for (size_t k = 0; k < nb; k++) wm_dump_free(b[k]);
    wm_dump_free(a);
    return status;
}
