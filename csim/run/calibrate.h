/* calibrate.h: the native mode's cost model, measured on the PE core.
 *
 * The calib kernel (sw/traffic/calib.c) times each call of sw/mp.h on two
 * cores, the gscalib and gsglue kernels (sw/gs/calib.c, calib_glue.c) the
 * gs kernels' own work, the seed's tree and chain on the cores and natively
 * the node's and chain's own steps, `wavemesh cpi` the instruction classes;
 * this turns its figures into the charges the native mode makes on
 * top of one cycle per port access (csim/run/mp_native.c), and writes them
 * as sw/cost_model.h, the committed, generated table. */
#ifndef WM_CALIBRATE_H
#define WM_CALIBRATE_H

#include "fabric/fabric.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    const char *name;    /* "WM_COST_TSC" */
    long value;          /* cycles */
    const char *what;    /* what it is charged for */
} wm_cost_entry;

enum { WM_COST_ENTRIES = 55 }; /* sw/mp.h's 13, the tree and chain kernels' steps, 8 instruction classes, the gs kernels' 32 */

/* Runs the calibration on backend ops (its cores); false with a message on
 * err when it cannot. */
WM_MUST_USE bool wm_calibrate(const wm_fabric_ops *ops, wm_cost_entry out[WM_COST_ENTRIES], FILE *err);

/* The table as sw/cost_model.h. */
void wm_cost_model_write(FILE *out, const wm_cost_entry e[WM_COST_ENTRIES]);

/* The table compiled into this program (sw/cost_model.h). */
void wm_cost_model_current(wm_cost_entry out[WM_COST_ENTRIES]);

#endif
