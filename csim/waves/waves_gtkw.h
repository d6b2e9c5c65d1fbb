/* waves_gtkw.h: GTKWave save files that group a dump by instance names.
 *
 * One group per dumped tile, named after its scope (the layout instance,
 * or tile_X_Y): the firmware's state as a word and its results, then per
 * link port valid, data (headers decoded), credit, occupancy and wormhole
 * owner, then the PE's queues and error flags. Translate filter files,
 * written next to the save file, turn the kernel states and the owners
 * into words and the headers seen in the dump into "(col,row) len".
 */
#ifndef WM_WAVES_GTKW_H
#define WM_WAVES_GTKW_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *scope;
    bool has_pe;                 /* a kernel runs here: show <scope>.fw */
    const char *const *exports;  /* its results */
    size_t nexports;
} wm_gtkw_group;

/* Write the save file gtkw_path for the dump dump_path (NULL: none named),
 * and its filter files BASE-state.txt, BASE-owner.txt, BASE-headers.txt
 * next to it; the header filter lists the headers found in dump_path when
 * it can be read and is at most 16 MB (larger dumps take longer to read
 * back than to write). false with a message on stderr on failure. */
bool wm_gtkw_write(const char *gtkw_path, const char *dump_path, const wm_gtkw_group *groups, size_t ngroups);
/* The same, one screen per few instances: per group only the firmware
 * signals and the data of the ramp and the four links. */
bool wm_gtkw_write_overview(const char *gtkw_path, const char *dump_path, const wm_gtkw_group *groups,
                            size_t ngroups);

#endif
