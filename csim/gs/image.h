/* image.h: the PE memory image of one gs rank (sw/gs/gs_image.h), built
 * from a schedule before the run and read back after it.
 *
 * Everything the kernel needs beyond its RANK parameter is here: its dofs,
 * its send and receive lists, where the ranks it sends to sit, and the
 * reduction template (the canonical order of every shared dof's terms,
 * fixed by the schedule, so the sorting happens here on the host). The
 * rest of the data memory is the kernel's heap. docs/pe-memory.md has the
 * layout and what it costs at P = 1024. */
#ifndef WM_GS_IMAGE_HOST_H
#define WM_GS_IMAGE_HOST_H

#include "gs/gs_image.h"
#include "gs/schedule.h"
#include "crystal/pairing.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Where a rank's PE is. */
typedef struct {
    uint16_t x, y;
} wm_gs_place;

/* Write rank's image into mem (WM_PE_DATA_WORDS words, zeroed first);
 * places[nranks] may be NULL (no place table: a run without a fabric).
 * *used: the words the image takes before the heap. False, with a message
 * naming the rank and both sizes to err, when it does not fit. */
WM_MUST_USE bool wm_gs_image_build(const wm_gs_schedule *s, unsigned rank, wm_gs_method method, wm_pairing pairing,
                                   const wm_gs_place *places, uint32_t *mem, uint32_t *used, FILE *err);

/* The dofs of the image, as floats, in and out. */
void wm_gs_image_set_values(uint32_t *mem, const float *u);
void wm_gs_image_get_values(const uint32_t *mem, float *u);

#endif
