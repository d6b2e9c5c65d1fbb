/* host_lines.h: the source line of a code address of this program, for
 * the reports of --pe native: a kernel compiled for the host has no ELF
 * of its own to read, as a core's firmware has; the program's own debug
 * information names the line, through binutils' addr2line.
 *
 * The answer is "FILE:LINE (FUNCTION)", the innermost of an inlined call,
 * FILE relative to the checkout the program was built in (as the build
 * names the sources), or to the current folder.
 * Without addr2line, or for an address it cannot place, false: the caller
 * says what it can without the line. Answers are kept (a report of a
 * million PEs names a few call sites): not for use from two threads. */
#ifndef WM_HOST_LINES_H
#define WM_HOST_LINES_H

#include <stdbool.h>
#include <stddef.h>

bool wm_host_line_of(const void *addr, char *out, size_t size);

#endif
