/* layout_job.h: a command's layout read while its MPI job starts.
 *
 * Under a launcher every rank reads the whole layout and starts MPI, and
 * neither needs the other: the layout is read on a thread of its own
 * while this one starts MPI (at the 65536-leaf tree, about 0.8 s and
 * 0.25 s). What the reader reports is held until the job says which rank
 * this is, and printed by rank 0 alone: a bad layout is reported once. */
#ifndef WM_CLI_LAYOUT_JOB_H
#define WM_CLI_LAYOUT_JOB_H

#include "core/must_use.h"
#include "mpi/launch.h"
#include "run/layout.h"

#include <stdio.h>

/* The layout at path with its settings, and *job opened (wm_mpi_open: ops
 * NULL for a job of one). NULL when the layout or MPI fails, the reason
 * printed to err (once, by rank 0); the job, open or not, is the caller's
 * to close (wm_mpi_close). */
WM_MUST_USE wm_layout *wm_layout_load_opening_job(const char *cmd, const char *path, const wm_setting *settings,
                                                  size_t nsettings, wm_mpi_job *job, FILE *err);

#endif
