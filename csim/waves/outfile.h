/* outfile.h: the one way every output file is written.
 *
 * Every file the tools write (layouts, dumps and their save and filter
 * files, PNGs, tables) goes through here, and what happens depends on what
 * the name is when writing begins:
 *   - a new name or a regular file: written under a temporary name in the
 *     same folder, PATH.PID.part, and renamed over PATH only once complete
 *     and every write has succeeded (an existing file keeps its permission
 *     bits); a failure removes the temporary and leaves PATH as it was;
 *   - a symbolic link: followed to the end of its chain, and that target
 *     written as above (the link stays a link);
 *   - a device, a FIFO or any other file that is not regular (/dev/null,
 *     /dev/stdout): written in place, directly, with no temporary and no
 *     rename; what a library writes itself (the FST writer seeks) goes to
 *     a temporary under $TMPDIR first, copied into it when complete;
 *   - a directory: refused, "cannot write PATH: Is a directory".
 * Only what this module created is ever removed: its temporaries (and the
 * FST writer's TEMP.hier beside one), never PATH itself nor any other name.
 * The temporaries being written are known here, so a fatal fault or a
 * signal (SIGBUS in the FST writer on a full disk, a kernel's stack
 * overflow, SIGINT during set-up) removes them before the process ends.
 *
 * Files that belong together (a dump, its save file and filter files) are
 * published together: between wm_outfile_hold and wm_outfile_release, a
 * commit checks and closes its file but leaves it under its temporary
 * name; the release renames them all into place, or, if one failed,
 * removes them all. */
#ifndef WM_OUTFILE_H
#define WM_OUTFILE_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct wm_outfile wm_outfile;

/* Start writing path: opened for writing (its stream), or only named when
 * open is false (a library writes wm_outfile_temp, e.g. the FST writer).
 * NULL with "cannot write PATH: reason" in err. */
wm_outfile *wm_outfile_begin(const char *path, bool open, char *err, size_t err_size);
/* Could path be written? Refuses a directory (at the end of any symbolic
 * links) and a folder that does not exist, with "cannot write PATH:
 * reason"; creates nothing. For the names of side files, checked before a
 * run. */
WM_MUST_USE bool wm_outfile_check(const char *path, char *err, size_t err_size);
/* The stream of an opened outfile, NULL otherwise. */
FILE *wm_outfile_stream(const wm_outfile *o);
/* The name a library writes: the temporary, or the file itself. */
const char *wm_outfile_temp(const wm_outfile *o);
const char *wm_outfile_path(const wm_outfile *o);
/* A write to it failed with errno e (the first one is kept). */
void wm_outfile_fail(wm_outfile *o, int e);
/* Close the stream, check every write, rename into place (or leave it for
 * wm_outfile_release while held); frees o. false with "writing PATH
 * failed: reason" in err, the temporary removed. */
WM_MUST_USE bool wm_outfile_commit(wm_outfile *o, char *err, size_t err_size);
/* Give up: the temporary (and FST's TEMP.hier beside it) is removed; frees o. */
void wm_outfile_discard(wm_outfile *o);

/* Hold the commits from now on (nested holds count). */
void wm_outfile_hold(void);
/* End a hold; at the outermost, rename every held file into place when
 * keep is true and no commit failed under the hold, else remove them all.
 * false with the reason in err when they were not published. */
WM_MUST_USE bool wm_outfile_release(bool keep, char *err, size_t err_size);
/* Where path's content is now: the temporary of a file being written
 * under that name (held or not), else path itself. For reading back a
 * dump before it is published. */
const char *wm_outfile_current(const char *path);
/* The message of the last failure of a begin, check or commit ("" if
 * none), for a caller that reports a file it did not write itself. */
const char *wm_outfile_last_error(void);

/* From a fault or signal handler: remove every temporary this process is
 * writing (unlink only, no allocation). */
void wm_outfile_remove_all(void);

#endif
