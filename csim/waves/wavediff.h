/* wavediff.h: two dumps compared signal by signal.
 *
 * Only signals present in both (same full name) are compared, each over
 * the time both dumps cover; the report is the earliest time at which some
 * signal differs, with the first such signal in name order.
 */
#ifndef WM_WAVEDIFF_H
#define WM_WAVEDIFF_H

#include "waves/waves_read.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    size_t common;        /* signals compared */
    size_t only_a, only_b;
    bool differ;
    const char *signal;   /* the first difference (points into a) */
    uint64_t time;
    bool a_known, b_known; /* false: no value yet at that time */
    uint64_t a_value, b_value;
} wm_wavediff_result;

wm_wavediff_result wm_wavediff(const wm_dump *a, const wm_dump *b);

#endif
