/* kernels.h: the kernel registry, kernel name -> function and parameters.
 *
 * The layout names kernels; this table is what it may name. Each kernel
 * lists every parameter it reads, so a layout that misses one, sets one
 * the kernel does not have, or gives one a value outside its range, is
 * rejected with its file and line before anything runs. Registering a
 * kernel: docs/kernels.md. */
#ifndef WM_KERNELS_H
#define WM_KERNELS_H

#include "mp.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *name;
    bool required;    /* false: fallback is used when the layout omits it */
    int64_t fallback;
    bool ranged;      /* true: the layout's value must lie in min..max */
    int64_t min, max;
} wm_kernel_param;

/* A parameter's range, the last member of its entry:
 * {"SIDE", true, 0, WM_RANGE(0, 1)}. A layout that gives a value outside it
 * is refused before the run, naming its file and line, the instance and its
 * PE. */
#define WM_RANGE(lo, hi) true, (lo), (hi)

typedef struct {
    const char *name;
    void (*run)(wm_mp *mp);
    /* Terminated by a NULL name; a parameter's place in the list is the
     * index the kernel reads it by (wm_mp_param). */
    const wm_kernel_param *params;
    const char *summary;
    /* The results it publishes with wm_mp_export, NULL-terminated (NULL:
     * none), by index, so a waves dump can declare their signals before
     * the run and a core's results can be read back from its memory. */
    const char *const *exports;
} wm_kernel;

/* The table, terminated by a NULL name. */
extern const wm_kernel wm_kernels[];

#endif
