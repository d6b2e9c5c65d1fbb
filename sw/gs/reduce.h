/* reduce.h: the reduction at the destination, in the firmware.
 *
 * The image carries the reduction template (gs_image.h): for every shared
 * local dof, its terms in canonical order (ascending origin rank, the
 * rank's own value at its own place), each naming a word of one receive
 * list. What a run adds is only where each receive list's record landed in
 * the buffer: the offsets. The host builds the same map (csim/gs/
 * reduction.h), which is what keeps every method's float32 bits equal. */
#ifndef WM_GS_REDUCE_H
#define WM_GS_REDUCE_H

#include "gs_image.h"

#include <stdint.h>

/* One delivered record: origin's words at offset in the receive buffer. */
typedef struct {
    uint32_t origin;
    uint32_t offset;
    uint32_t len;
} wm_gs_delivered;

typedef enum {
    WM_GS_DELIVERY_OK = 0,
    WM_GS_DELIVERY_COUNT,  /* got records, want receive lists */
    WM_GS_DELIVERY_LEN,    /* origin's record has got words, want */
    WM_GS_DELIVERY_TWICE   /* two records from origin */
} wm_gs_delivery_code;

typedef struct {
    wm_gs_delivery_code code;
    uint32_t origin, got, want;
} wm_gs_delivery;

/* offsets[i] (one per receive list) from the records delivered, in any
 * order; checks one record per receive list, each as long as the list. */
wm_gs_delivery wm_gs_offsets(const wm_gs_image *img, const uint32_t *mem, const wm_gs_delivered *recs,
                             uint32_t nrecs, uint32_t *offsets);

/* u (in the image) = the canonical sums, buf holding float32 bits. */
void wm_gs_reduce(const wm_gs_image *img, uint32_t *mem, const uint32_t *offsets, const uint32_t *buf);

#endif
