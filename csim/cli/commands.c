/* commands.c: the subcommand table. One line per subcommand. */
#include "cli/commands.h"

#include <stdio.h>
#include <stdlib.h>

#include <stddef.h>

int wm_cmd_selftest(int argc, char **argv);
int wm_cmd_run(int argc, char **argv);
int wm_cmd_rows(int argc, char **argv);
int wm_cmd_tree(int argc, char **argv);
int wm_cmd_traffic(int argc, char **argv);
int wm_cmd_regress(int argc, char **argv);
int wm_cmd_gs(int argc, char **argv);
int wm_cmd_wavediff(int argc, char **argv);
int wm_cmd_waves(int argc, char **argv);
int wm_cmd_cpi(int argc, char **argv);
int wm_cmd_calibrate(int argc, char **argv);
int wm_cmd_heatmap(int argc, char **argv);

const wm_command wm_commands[] = {
    {"selftest", wm_cmd_selftest, "send one message across each backend and print its trace"},
    {"traffic", wm_cmd_traffic, "synthetic traffic: latency, throughput and simulation speed"},
    {"run", wm_cmd_run, "run the kernels of a layout and print their results"},
    {"rows", wm_cmd_rows, "run a rows file (the seed's test.rc) and print PASS/FAIL lines"},
    {"tree", wm_cmd_tree, "write a layout for the tree collectives over P leaves"},
    {"regress", wm_cmd_regress, "lockstep regression: the sw backend against the rtl backend, first divergence"},
    {"gs", wm_cmd_gs, "one gather-scatter gs_op: pairwise, crystal router or crystal plan"},
    {"heatmap", wm_cmd_heatmap, "a PNG per phase of a run: the wavelets each link carried, per direction"},
    {"waves", wm_cmd_waves, "write a GTKWave save file grouping a layout's dumps by instance name"},
    {"calibrate", wm_cmd_calibrate, "the native mode's cost model, measured on the PE core (sw/cost_model.h)"},
    {"cpi", wm_cmd_cpi, "the PE core's cycles per instruction class, on the ISS and the RTL"},
    {"wavediff", wm_cmd_wavediff, "compare two dumps (FST or VCD) signal by signal, first difference"},
    {NULL, NULL, NULL},
};

bool wm_arg_positive(const char *cmd, const char *opt, const char *s, unsigned long long *out)
{
    char *end;
    *out = strtoull(s, &end, 0);
    if (*end || !*s || !*out || *s == '-') {
        fprintf(stderr, "wavemesh %s: %s %s: expected a positive integer\n", cmd, opt, s);
        return false;
    }
    return true;
}
