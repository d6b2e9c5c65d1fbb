/* xalloc.h: allocation that cannot fail.
 *
 * Library code (csim/ but cli/) never ends the process on a user's input:
 * a bad layout, option or file is a false or NULL result with a message
 * for the caller (csim/README.md, "Errors"). Running out of memory is not
 * input: there is nothing a caller could do with the error but print it
 * and stop, so the allocations whose failure no caller can handle go
 * through these, which print "wavemesh: out of memory" and exit(1). That
 * is the one exit of the library (tests/check_no_exit.sh). An allocation
 * sized by the user's input (a mesh, a dump) may still check its own
 * malloc and say what it could not allocate. */
#ifndef WM_XALLOC_H
#define WM_XALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* malloc, calloc, realloc and strdup that return only on success. A zero
 * size asks for one byte, so a NULL result always means failure. */
void *wm_xmalloc(size_t size) __attribute__((malloc, returns_nonnull));
void *wm_xcalloc(size_t n, size_t size) __attribute__((malloc, returns_nonnull));
void *wm_xrealloc(void *p, size_t size) __attribute__((returns_nonnull));
char *wm_xstrdup(const char *s) __attribute__((malloc, returns_nonnull));

#ifdef __cplusplus
}
#endif

#endif
