/* layout.h: the placement table, which kernel runs on which PE.
 *
 * A layout file (docs/layouts.md) names instances, places each on a PE,
 * gives each a kernel and its parameters (integers, layout parameters, or
 * another instance's coordinates by name), declares the message-passing
 * region, and may hold several placements selected by a parameter. Loading
 * checks everything that can be checked before a run: unknown kernels, PEs
 * off the mesh, two kernels on one PE, unknown instances, missing or unknown
 * parameters, paths that leave the region. Each error names file and line. */
#ifndef WM_LAYOUT_H
#define WM_LAYOUT_H

#include "fabric/fabric.h"
#include "kernels.h"
#include "run/ending.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct wm_layout wm_layout;

/* A NAME=VALUE from the command line, overriding a layout parameter. */
typedef struct {
    const char *name;
    int64_t value;
    /* Where it was given, for messages ("test.rows:3"); NULL: --set. */
    const char *origin;
} wm_setting;

/* Parse NAME=VALUE (text is kept: name points into it). False if malformed. */
WM_MUST_USE bool wm_setting_parse(char *text, wm_setting *out);

/* The base an integer is written in, in a layout, a rows file or on the
 * command line: 16 after an optional '-' and 0x, else 10. Never octal: 010
 * is ten, as whoever wrote it meant. For strtoll and strtoull. */
int wm_int_base(const char *s);

/* One resolved kernel parameter. */
typedef struct {
    const char *name;
    int64_t value;
} wm_param_value;

typedef struct {
    const char *name;         /* instance name, e.g. "l2" */
    const wm_kernel *kernel;
    unsigned x, y;            /* the PE */
    unsigned line;            /* the `pe` line that made it */
    size_t nparams;           /* every parameter of the kernel, defaults filled */
    const wm_param_value *params;
} wm_instance;

/* Parse a layout; text is the file's content and path names it in errors.
 * Returns NULL after printing every error found to err. */
WM_MUST_USE wm_layout *wm_layout_parse(const char *text, const char *path, const wm_setting *settings, size_t nsettings,
                                       FILE *err);
/* Read and parse the file at path. */
WM_MUST_USE wm_layout *wm_layout_load(const char *path, const wm_setting *settings, size_t nsettings, FILE *err);
void wm_layout_destroy(wm_layout *l);

unsigned wm_layout_width(const wm_layout *l);
unsigned wm_layout_height(const wm_layout *l);
/* The selected placement's name ("" when the file has no placements). */
const char *wm_layout_placement(const wm_layout *l);
/* Is (x, y) inside the message-passing region? */
bool wm_layout_enabled(const wm_layout *l, unsigned x, unsigned y);

/* Instances, in the order of their `pe` lines. */
size_t wm_layout_count(const wm_layout *l);
const wm_instance *wm_layout_instance(const wm_layout *l, size_t i);
const wm_instance *wm_layout_find(const wm_layout *l, const char *name);
/* An instance's parameter by name; false when it has none of that name. */
bool wm_instance_param(const wm_instance *inst, const char *name, int64_t *value);

/* How a run of the layout is meant to end: its `expect ENDING` line, else
 * WM_END_RETURNED (run/ending.h). */
wm_ending wm_layout_expected(const wm_layout *l);

/* The layout parameters after --set, in file order (for the rows lines). */
size_t wm_layout_param_count(const wm_layout *l);
const wm_param_value *wm_layout_param(const wm_layout *l, size_t i);

#endif
