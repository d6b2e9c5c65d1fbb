/* cmd_calibrate.c: `wavemesh calibrate`, the native cost model measured
 * on the PE core, printed, written as sw/cost_model.h, or checked. */
#include "cli/commands.h"
#include "run/calibrate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: wavemesh calibrate [--backend rtl|sw] [--write FILE | --check]\n"
                 "Runs the calibration kernels on two PE cores each: calib (sw/traffic/calib.c)\n"
                 "times each call of sw/mp.h, gscalib (sw/gs/calib.c) the gs library's parts,\n"
                 "gsglue (sw/gs/calib_glue.c) each gs method on the cores and natively. Prints\n"
                 "the native mode's charges they give (cycles on top of one cycle per port\n"
                 "access) next to those this program was built with.\n"
                 "  --write FILE  write them as a header (sw/cost_model.h; `make calibrate`\n"
                 "                writes and rebuilds until the table measures itself)\n"
                 "  --check       exit 1 if they differ from those built in (`make test`)\n"
                 "The default backend is sw; both give the same figures.\n");
}

int wm_cmd_calibrate(int argc, char **argv)
{
    const char *backend = "sw", *write = NULL;
    bool check = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
            backend = argv[++i];
        } else if (!strcmp(argv[i], "--write") && i + 1 < argc) {
            write = argv[++i];
        } else if (!strcmp(argv[i], "--check")) {
            check = true;
        } else {
            fprintf(stderr, "wavemesh calibrate: unknown argument '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    const wm_fabric_ops *ops = wm_fabric_backend(backend);
    if (!ops || !ops->create_cores) {
        fprintf(stderr, "wavemesh calibrate: unknown backend '%s' (rtl or sw)\n", backend);
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
        /* Written beside, then renamed: a failure leaves the old table whole. */
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", write);
        FILE *f = fopen(tmp, "w");
        if (!f) {
            fprintf(stderr, "wavemesh calibrate: cannot write %s: %s\n", tmp, strerror(errno));
            return 1;
        }
        wm_cost_model_write(f, now);
        if (fclose(f) != 0 || rename(tmp, write) != 0) {
            fprintf(stderr, "wavemesh calibrate: cannot write %s: %s\n", write, strerror(errno));
            remove(tmp);
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
