/* cmd_tree.c: `wavemesh tree`, the layout of a tree collective over P leaves. */
#include "cli/commands.h"
#include "run/layout.h"
#include "run/tree.h"
#include "waves/outfile.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LEAVES = 32768 };

static void usage(FILE *out)
{
    fprintf(out, "usage: wavemesh tree --leaves P --placement row|tworow|inorder|htree|chain\n"
                 "                     [--values a,b,... | --seed S] -o FILE\n"
                 "Writes a layout (docs/layouts.md) for the tree collectives over P >= 1 leaves\n"
                 "l0..l{P-1} under the root `root`, on the placement's coordinates (csim/run/tree.h);\n"
                 "`chain` writes lesson 9's running sum over P PEs instead. Leaf values come from\n"
                 "--values (exactly P of them) or from --seed (0..999 each, default seed 1).\n");
}

static bool parse_values(char *text, size_t leaves, int64_t *values)
{
    size_t n = 0;
    for (char *save = NULL, *t = strtok_r(text, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *end;
        errno = 0;
        long long v = strtoll(t, &end, wm_int_base(t));
        /* a leaf's value is a 32-bit word (sw/collectives/leaf.c) */
        if (errno || *end || end == t || n == leaves || v < INT32_MIN || v > (long long)UINT32_MAX) return false;
        values[n++] = v;
    }
    return n == leaves;
}

int wm_cmd_tree(int argc, char **argv)
{
    long long leaves = 0;
    const char *placement_name = NULL, *out_path = NULL;
    char *values_text = NULL;
    unsigned long long seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--leaves") && i + 1 < argc) {
            if (!wm_arg_int("tree", "--leaves", argv[++i], 1, MAX_LEAVES, &leaves)) return 2;
        } else if (!strcmp(argv[i], "--placement") && i + 1 < argc) {
            placement_name = argv[++i];
        } else if (!strcmp(argv[i], "--values") && i + 1 < argc) {
            values_text = argv[++i];
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            if (!wm_arg_u64("tree", "--seed", argv[++i], 0, UINT64_MAX, &seed)) return 2;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out_path = argv[++i];
        } else {
            fprintf(stderr, "wavemesh tree: unexpected argument '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    wm_tree_placement placement;
    if (!leaves || !placement_name || !out_path) {
        usage(stderr);
        return 2;
    }
    if (!wm_tree_placement_parse(placement_name, &placement)) {
        fprintf(stderr, "wavemesh tree: unknown placement '%s' (row, tworow, inorder, htree, chain)\n",
                placement_name);
        return 2;
    }
    int64_t *values = calloc((size_t)leaves, sizeof *values);
    if (!values) return 1;
    char origin[256];
    if (values_text) {
        if (!parse_values(values_text, (size_t)leaves, values)) {
            fprintf(stderr, "wavemesh tree: --values: expected %lld comma-separated integers, each in %d..%u\n", leaves,
                    INT32_MIN, UINT32_MAX);
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
