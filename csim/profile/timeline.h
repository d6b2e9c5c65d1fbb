/* timeline.h: a profile (profile.h) drawn for the tools people already use.
 *
 * Three writers, each reading the profile only:
 *
 * - Chrome trace-event JSON (chrome.c), which Perfetto (ui.perfetto.dev)
 *   and chrome://tracing open: one process, the fabric; one track per PE,
 *   named by its instance and tile ("l0 (0,0)") and kept in layout order;
 *   a slice per run of cycles in one function and of one kind (consecutive
 *   slices of the same function and kind merged), the kind in its args;
 *   each message a flow arrow from the slice that pushed its header to the
 *   slice that popped its last wavelet; and a last track, "critical path",
 *   with a slice per segment of the path. One cycle is one microsecond of
 *   the viewer's clock (said in the file's otherData).
 * - Folded stacks (folded.c), the input of the flame graph tools
 *   (flamegraph.pl, inferno, speedscope): a line "instance;function COUNT"
 *   per PE and function for the cycles executing, and
 *   "instance;function;[stall TX]", "[stall RX]" and "[start-up]" frames
 *   for the other kinds, so that a PE's lines add up to its cycles from
 *   its start to its end. A ';' or a line break in a name becomes '_'.
 * - A PNG (png.c), drawn by gnuplot as the heatmaps are: PEs down the
 *   side, cycles along the bottom, each PE's slices coloured by kind
 *   (idle, before its start and after its end, left blank), the messages
 *   as arrows from (sender, sent) to (receiver, received), the critical
 *   path drawn heavier over them, and a legend.
 *
 * The output of each is a function of the profile alone: equal profiles
 * give byte-identical files. Each returns false with a message in err on
 * a profile whose indices point outside it, on a failed write, and (the
 * PNG) when gnuplot is missing or fails; the PNG is written under a
 * temporary name and renamed, so a failure leaves no file at path. */
#ifndef WM_PROFILE_TIMELINE_H
#define WM_PROFILE_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/must_use.h"
#include "profile/profile.h"

WM_MUST_USE bool wm_profile_write_chrome(const wm_profile *p, FILE *out, char *err, size_t err_size);
WM_MUST_USE bool wm_profile_write_folded(const wm_profile *p, FILE *out, char *err, size_t err_size);
WM_MUST_USE bool wm_profile_write_png(const wm_profile *p, const char *path, char *err, size_t err_size);

/* The most PEs a PNG draws: past it, the critical path's PEs and a sample
 * of the others (wm_profile_sample), said so on the picture. */
enum { WM_PNG_ROWS = 64 };
/* The profile of the critical path's PEs and every k-th other PE in layout
 * order, k the least that keeps them within rows (or the path's PEs alone
 * past it): their slices, the messages between them and the whole path,
 * renumbered; its pes, msgs and path arrays are the caller's to free, the
 * rest is p's. note: "N of M PEs: the critical path's P and every k-th of
 * the others". */
wm_profile wm_profile_sample(const wm_profile *p, size_t rows, char *note, size_t note_size);

#endif
