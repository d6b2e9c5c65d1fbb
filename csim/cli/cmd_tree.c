/* cmd_tree.c: `wavemesh tree`, the layout of a tree collective over P leaves. */
#include "cli/commands.h"
#include "run/layout.h"
#include "run/tree.h"
#include "waves/outfile.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LEAVES = 524288 };

static const char about[] =
    "Writes a layout (docs/layouts.md) for the tree collectives over P leaves\n"
    "l0..l{P-1} under the root `root`, on the placement's coordinates (csim/run/tree.h);\n"
    "`packed` puts a PE on every tile: 2^k leaves fill a rectangle of 2^(k+1) tiles\n"
    "but one, so a W x W mesh holds W*W/2 leaves. `chain` writes\n"
    "lesson 9's running sum over P PEs instead. Leaf values come from\n"
    "--values (exactly P of them) or from --seed (0..999 each, default seed 1).\n";

static const char *const placements[] = {"row", "tworow", "inorder", "htree", "packed", "chain", NULL};

static bool parse_values(const char *values_text, size_t leaves, int64_t *values)
{
    char *text = strdup(values_text);
    size_t n = 0;
    bool ok = text != NULL;
    for (char *save = NULL, *t = ok ? strtok_r(text, ",", &save) : NULL; ok && t; t = strtok_r(NULL, ",", &save)) {
        char *end;
        errno = 0;
        long long v = strtoll(t, &end, wm_int_base(t));
        /* a leaf's value is a 32-bit two's-complement word (docs/kernels.md) */
        ok = !errno && !*end && end != t && n < leaves && v >= INT32_MIN && v <= INT32_MAX;
        if (ok) values[n++] = v;
    }
    free(text);
    return ok && n == leaves;
}

int wm_cmd_tree(int argc, char **argv)
{
    long long leaves = 0;
    const char *placement_name = NULL, *out_path = NULL, *values_text = NULL;
    unsigned long long seed = 1;
    const wm_option options[] = {
        {"--leaves", "P", WM_OPT_INT, .to.i = &leaves, .min = 1, .max = MAX_LEAVES, .required = true,
         .help = "the number of leaves"},
        {"--placement", NULL, WM_OPT_CHOICE, .to.word = &placement_name, .words = placements, .required = true,
         .help = "where the PEs sit"},
        WM_OPT_STRING_ROW("--values", "a,b,...", &values_text,
                          "the leaves' values, P integers, each in -2147483648..2147483647"),
        WM_OPT_U64_ROW("--seed", "S", &seed, 0, UINT64_MAX, "draw the leaves' values from S (default 1)"),
        {"-o", "FILE", WM_OPT_STRING, .to.str = &out_path, .required = true, .path = WM_PATH_OUT,
         .help = "the layout file to write"},
    };
    const wm_opts opts = WM_OPTS("tree", options, about, NULL);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    wm_tree_placement placement;
    if (!wm_tree_placement_parse(placement_name, &placement)) { /* the table accepted only its words */
        fprintf(stderr, "wavemesh tree: --placement %s: not a placement of the tree layer\n", placement_name);
        return 2;
    }
    int64_t *values = calloc((size_t)leaves, sizeof *values);
    if (!values) return 1;
    char origin[256];
    if (values_text) {
        if (!parse_values(values_text, (size_t)leaves, values)) {
            fprintf(stderr, "wavemesh tree: --values: expected %lld comma-separated integers, each in %d..%d\n", leaves,
                    INT32_MIN, INT32_MAX);
            free(values);
            return 2;
        }
        snprintf(origin, sizeof origin, "wavemesh tree --leaves %lld --placement %s --values ...", leaves,
                 placement_name);
    } else {
        wm_tree_seed_values(seed, (size_t)leaves, values);
        snprintf(origin, sizeof origin, "wavemesh tree --leaves %lld --placement %s --seed %llu", leaves,
                 placement_name, seed);
    }
    char err[4200];
    wm_outfile *out = wm_outfile_begin(out_path, true, err, sizeof err);
    if (!out) {
        fprintf(stderr, "wavemesh tree: %s\n", err);
        free(values);
        return 1;
    }
    const bool ok = wm_tree_write(wm_outfile_stream(out), (size_t)leaves, placement, values, origin, err, sizeof err);
    free(values);
    if (!ok) {
        fprintf(stderr, "wavemesh tree: %s\n", err);
        wm_outfile_discard(out);
        return 1;
    }
    if (!wm_outfile_commit(out, err, sizeof err)) {
        fprintf(stderr, "wavemesh tree: %s\n", err);
        return 1;
    }
    return 0;
}
