/* waves_read.h: a dump (FST or VCD) read back into memory, for wavediff
 * and for the header filter of a save file.
 *
 * Every signal is known by its full dotted name without the bus range
 * ("l0.wm_tile.u_waves.east_data"), with its width and its changes: times
 * and values (up to 64 bits; x and z read as 0). Aliases read as separate
 * signals sharing the same changes.
 */
#ifndef WM_WAVES_READ_H
#define WM_WAVES_READ_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t time;
    uint64_t value;
} wm_change;

typedef struct {
    char *name;
    unsigned bits;
    size_t changes; /* index into the dump's change lists */
} wm_dump_signal;

typedef struct wm_dump wm_dump;

/* NULL with the reason in err when path is not a readable FST or VCD. */
WM_MUST_USE wm_dump *wm_dump_load(const char *path, char *err, size_t err_size);
void wm_dump_free(wm_dump *d);

size_t wm_dump_signal_count(const wm_dump *d);
const wm_dump_signal *wm_dump_signal_at(const wm_dump *d, size_t i);
/* The signal called name, or NULL. */
const wm_dump_signal *wm_dump_find(const wm_dump *d, const char *name);
/* Its changes in time order. */
const wm_change *wm_dump_changes(const wm_dump *d, const wm_dump_signal *s, size_t *count);
/* The value at time t (the last change at or before t); false before the first. */
bool wm_dump_value_at(const wm_dump *d, const wm_dump_signal *s, uint64_t t, uint64_t *value);
uint64_t wm_dump_end_time(const wm_dump *d);

/* The headers found on the links of a dump: each wavelet in an output
 * register (<port>_valid/_data of a tile's u_waves) that is not the body of
 * a message. *headers is malloc'ed. false when the dump cannot be read. */
bool wm_dump_headers(const char *path, uint32_t **headers, size_t *count);

#endif
