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
    /* The values the kernel takes; a layout outside them is refused with
     * the range, rather than the value cut to the kernel's width. */
    int64_t min, max;
} wm_kernel_param;

/* The usual ranges of a parameter, as MIN, MAX: what the kernel takes
 * without cutting it. A coordinate or a tag goes whole to wm_mp_header,
 * which refuses one off the mesh or over WM_TAG_MAX as a fault naming the PE. */
/* A value: a 32-bit two's-complement word, as the wavelets carry it and
 * the results are exported (docs/kernels.md, "Values are words"). */
#define WM_PARAM_WORD INT32_MIN, INT32_MAX
#define WM_PARAM_U32 0, UINT32_MAX                 /* a count, a tag, or a word of bits (a seed) */
#define WM_PARAM_FLAG 0, 1
#define WM_PARAM_COORD INT32_MIN, INT32_MAX        /* a column or row, as wm_mp_header takes it */

/* A range written out: {"SIDE", true, 0, WM_RANGE(0, 1)}. */
#define WM_RANGE(lo, hi) (lo), (hi)

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
