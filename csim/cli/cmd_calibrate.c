/* cmd_calibrate.c: `wavemesh calibrate`, the native cost model measured
 * on the PE core, printed, written as sw/cost_model.h, or checked. */
#include "cli/commands.h"
#include "run/calibrate.h"
#include "waves/outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char about[] =
    "Runs the calibration kernels on two PE cores each: calib (sw/traffic/calib.c)\n"
    "times each call of sw/mp.h, gscalib (sw/gs/calib.c) the gs library's parts,\n"
    "gsglue (sw/gs/calib_glue.c) each gs method on the cores and natively. Prints\n"
    "the native mode's charges they give (cycles on top of one cycle per port\n"
    "access) next to those this program was built with.\n";

int wm_cmd_calibrate(int argc, char **argv)
{
    const char *backend = "sw", *write = NULL;
    bool check = false;
    const wm_option options[] = {
        WM_OPT_CHOICE_ROW("--backend", &backend, wm_backend_words,
                          "the fabric model (default sw; both give the same figures)"),
        WM_OPT_OUTPUT_ROW("--write", "FILE", &write,
                          "write them as a header (sw/cost_model.h; `make calibrate` writes and rebuilds until the "
                          "table measures itself)"),
        WM_OPT_FLAG_ROW("--check", &check, "exit 1 if they differ from those built in (`make test`)"),
    };
    const wm_opts opts = WM_OPTS("calibrate", options, about, NULL);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    if (!ops->create_cores) {
        fprintf(stderr, "wavemesh calibrate: --backend %s: this build's %s has no PE cores\n", backend, backend);
        return 2;
    }
    wm_cost_entry now[WM_COST_ENTRIES], built[WM_COST_ENTRIES];
    if (!wm_calibrate(ops, now, stderr)) return 1;
    wm_cost_model_current(built);
    int stale = 0;
    printf("%-27s %9s %9s\n", "charge", "measured", "built in");
    for (int i = 0; i < WM_COST_ENTRIES; i++) {
        const bool same = now[i].value == built[i].value;
        stale |= !same;
        printf("%-27s %9ld %9ld%s\n", now[i].name, now[i].value, built[i].value, same ? "" : "  <- differs");
    }
    if (write) {
        /* Through the one output routine (waves/outfile.h): a failure
         * leaves the old table whole. */
        char err[4400];
        wm_outfile *out = wm_outfile_begin(write, true, err, sizeof err);
        if (!out) {
            fprintf(stderr, "wavemesh calibrate: %s\n", err);
            return 1;
        }
        wm_cost_model_write(wm_outfile_stream(out), now);
        if (!wm_outfile_commit(out, err, sizeof err)) {
            fprintf(stderr, "wavemesh calibrate: %s\n", err);
            return 1;
        }
        printf("written: %s (rebuild to use it)\n", write);
        return 0;
    }
    if (check && stale) {
        fprintf(stderr, "wavemesh calibrate: sw/cost_model.h is stale: run `make calibrate` and rebuild\n");
        return 1;
    }
    return 0;
}
