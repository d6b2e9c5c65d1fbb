/* heatmap.h: which links carry a run's traffic, phase by phase.
 *
 * A link hook (fabric.h) counts, for every tile and output direction
 * N, E, S, W, the wavelets that left the tile that way; the ramp (L) too.
 * A run of the tree collectives is split in two phases at the last wavelet
 * delivered to the root's PE: every up-sweep message ends at or below the
 * root before it, and the down-sweep starts only after it (its first send
 * follows the root's last receive), so the split is exact whatever the
 * backend or the PE mode. wm_heatmap_plot draws one PNG per phase with
 * gnuplot: four panels, one a direction, a cell a tile, in wavelets. */
#ifndef WM_HEATMAP_H
#define WM_HEATMAP_H

#include "fabric/fabric.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wm_heatmap wm_heatmap;

/* Counts for a w x h mesh; split_pe true: two phases, split at the last
 * wavelet delivered to PE (split_x, split_y). NULL when out of memory. */
WM_MUST_USE wm_heatmap *wm_heatmap_create(unsigned w, unsigned h, bool split_pe, unsigned split_x, unsigned split_y);
/* Counts for a w x h mesh, a phase per stage: each wavelet counts in the
 * stage of its message, the header's tag >> tag_shift (the gs kernels tag
 * their messages with the crystal router's stage: tag_shift 1 for the
 * setup-phase router's 2 * stage + 1, 0 for the plan's stage). Messages are
 * told apart on each output register by following their length, as the
 * router frames them. NULL when out of memory. */
WM_MUST_USE wm_heatmap *wm_heatmap_create_staged(unsigned w, unsigned h, unsigned tag_shift);
void wm_heatmap_destroy(wm_heatmap *m);
/* The link hook: ctx is the heatmap. Events come in cycle order. */
void wm_heatmap_record(void *ctx, const wm_link_event *ev);
/* After the run: what followed the split's last delivery is the last phase. */
void wm_heatmap_finish(wm_heatmap *m);

/* Every rank's n counts summed in place, on every rank (a partitioned
 * run's, mpi/partition.h's wm_partition_sum). */
typedef void (*wm_heatmap_summer)(void *ctx, uint64_t *vals, size_t n);
/* A staged heatmap of one block of a partitioned run counts its block's
 * tiles alone: summed over the ranks, each holds the whole mesh's, as one
 * process counts it. Every rank calls it. */
void wm_heatmap_sum_staged(wm_heatmap *m, wm_heatmap_summer sum, void *ctx);

/* 1 or 2, and the phases' names ("run"; "upsweep", "downsweep"); staged:
 * one past the last stage that carried a wavelet, named "stageN". */
size_t wm_heatmap_phases(const wm_heatmap *m);
const char *wm_heatmap_phase_name(const wm_heatmap *m, size_t phase);
/* Wavelets that left tile (x, y) through port in a phase. */
uint64_t wm_heatmap_count(const wm_heatmap *m, size_t phase, unsigned x, unsigned y, wm_port port);
/* The cycle the phase ended (its last event's), 0 when it had none. */
uint64_t wm_heatmap_phase_end(const wm_heatmap *m, size_t phase);
/* The cycle of the phase's first event; UINT64_MAX when it had none. */
uint64_t wm_heatmap_phase_start(const wm_heatmap *m, size_t phase);

/* One PNG of a phase, titled, through `gnuplot`; false with the reason in
 * err (gnuplot missing or failing). Nothing is left half-written: the
 * picture is drawn to a temporary file and renamed. */
WM_MUST_USE bool wm_heatmap_plot(const wm_heatmap *m, size_t phase, const char *title, const char *png, char *err,
                                 size_t errn);

#endif
