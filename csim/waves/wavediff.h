/* wavediff.h: two dumps compared signal by signal.
 *
 * Only signals present in both (same full name) are compared, each over
 * the time both dumps cover; the report is the earliest time at which some
 * signal differs, with the first such signal in name order.
 *
 * The other side may be given in parts, the dumps of a partitioned run's
 * ranks (docs/distributed.md), each holding some of a's signals: a's
 * signal is compared with the part that holds it, up to the end of the
 * shortest dump, and the result says which a's signals no part holds and
 * which two parts hold one signal.
 */
#ifndef WM_WAVEDIFF_H
#define WM_WAVEDIFF_H

#include "waves/waves_read.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    size_t common;        /* signals compared */
    size_t only_a, only_b;
    size_t held;          /* parts holding a compared signal, counted per part */
    const char *missing;  /* the first of a's signals (in name order) no part holds; NULL: none */
    const char *twice;    /* the first of a's signals two parts hold, and those two; NULL: none */
    size_t twice_parts[2];
    bool differ;
    const char *signal;   /* the first difference (points into a) */
    size_t part;          /* the part holding it */
    uint64_t time;
    bool a_known, b_known; /* false: no value yet at that time */
    uint64_t a_value, b_value;
} wm_wavediff_result;

wm_wavediff_result wm_wavediff(const wm_dump *a, const wm_dump *b);
/* a against the nparts dumps of parts together. */
wm_wavediff_result wm_wavediff_parts(const wm_dump *a, const wm_dump *const *parts, size_t nparts);

#endif
