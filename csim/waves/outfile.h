/* outfile.h: output files that appear whole or not at all.
 *
 * Every file the tools write (layouts, dumps, save files, filters, tables)
 * is written under a temporary name beside its final one, PATH.PID.part,
 * and renamed into place only once it is complete and every write has
 * succeeded; a failure removes the temporary and leaves an existing PATH
 * as it was. The temporaries of the files being written are known here,
 * so a fatal fault (a kernel's stack overflow, SIGBUS in the FST writer on
 * a full disk) removes them before the process ends. */
#ifndef WM_OUTFILE_H
#define WM_OUTFILE_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct wm_outfile wm_outfile;

/* Start writing path: its temporary is opened for writing (fopen mode
 * "w"), or only named when open is false (a library writes it, e.g. the
 * FST writer). NULL with "cannot write PATH: reason" in err. */
wm_outfile *wm_outfile_begin(const char *path, bool open, char *err, size_t err_size);
/* The stream of an opened outfile, NULL otherwise. */
FILE *wm_outfile_stream(const wm_outfile *o);
/* The temporary's name, for a library to write. */
const char *wm_outfile_temp(const wm_outfile *o);
const char *wm_outfile_path(const wm_outfile *o);
/* A write to it failed with errno e (the first one is kept). */
void wm_outfile_fail(wm_outfile *o, int e);
/* Close the stream, check every write, rename into place; frees o. false
 * with "writing PATH failed: reason" in err, the temporary removed. */
WM_MUST_USE bool wm_outfile_commit(wm_outfile *o, char *err, size_t err_size);
/* Give up: the temporary (and FST's PATH.hier beside it) is removed; frees o. */
void wm_outfile_discard(wm_outfile *o);

/* From a fault handler: remove every temporary being written (unlink
 * only, no allocation). */
void wm_outfile_remove_all(void);

#endif
