/* lines.h: the one reader of text inputs.
 *
 * Layouts, rows files, VCD dumps read back and the JUnit files that
 * `regress --merge` joins are all read through here, so that they agree
 * on what a text file is: lines of any length (a line is read whole,
 * however long; memory is the only limit), numbered as the file numbers
 * them (the first is 1, each '\n' ends one), and no NUL byte anywhere: a
 * NUL is refused with the file, its line and its column, never taken for
 * the end of a line or of the file. Reading is linear in the file's size.
 *
 * Errors are written into err (err_size bytes) in the words a command
 * shows: "PATH: cannot open: REASON", "PATH: cannot read: REASON",
 * "PATH:LINE:COLUMN: a NUL byte: not a text file". */
#ifndef WM_LINES_H
#define WM_LINES_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *f;
    const char *path; /* as messages name the file; not copied */
    unsigned line;    /* the number of the line last returned (0 before the first) */
    bool newline;     /* the line last returned ended with '\n' (false: the file's last, cut off) */
    char *buf;
    size_t cap;
} wm_lines;

/* Opens path (a directory is refused) for wm_lines_next; false with the
 * message in err. */
WM_MUST_USE bool wm_lines_open(wm_lines *r, const char *path, char *err, size_t err_size);

/* The next line, without its '\n', NUL-terminated, into *line (valid until
 * the next call) and its length into *len: 1 when there is one, 0 at the
 * end of the file, -1 on an error (a NUL byte, a failed read) with the
 * message in err. */
WM_MUST_USE int wm_lines_next(wm_lines *r, char **line, size_t *len, char *err, size_t err_size);

void wm_lines_close(wm_lines *r);

/* The whole of the text file path, read by wm_lines_next: its lines, each
 * ended by '\n' (a last line without one gets one), NUL-terminated, its
 * length in *size (when not NULL); the caller frees it. NULL with the
 * message in err. */
WM_MUST_USE char *wm_text_load(const char *path, size_t *size, char *err, size_t err_size);

#endif
